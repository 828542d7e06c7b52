/*-------------------------------------------------------------------------
 * merge_engine.c
 *	  The merge engines of primary-key tables (see merge_engine.h).
 *
 * Each engine is Java's MergeFunction transcribed: reset() per key, add()
 * per record in merge order, getResult(). Row state is an array of cells
 * (one per value column) pointing into the records' batches, which stay
 * valid while the merge reader holds the key's records, or into values
 * computed by aggregate functions in the per-key arena.
 *
 * partial-update follows PartialUpdateMergeFunction.add exactly, including
 * its quirks: the first retract initialises the row from its own values;
 * sequence groups compare (record, row) on the group's sequence fields
 * (ascending, NULLs first), the group's sequence fields are updated
 * together; aggregators are consulted only when the projected columns
 * include sequence groups.
 *-------------------------------------------------------------------------
 */
#include "lsm/merge_engine.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lsm/key_compare.h"
#include "lsm/merge_aggregate.h"

typedef struct seq_group
{
	int			nseq;
	int		   *seq_cols;		/* value columns of the group's sequence fields */
} seq_group;

struct pm_merge_engine
{
	pm_merge_engine_kind kind;
	const pm_schema *schema;
	int			nread;
	const int  *read_fields;
	int			value_offset;
	const pm_type **types;
	const char **names;
	bool		ignore_delete;

	/* sequence.field */
	int			nuser_seq;
	int		   *user_seq_cols;
	bool		seq_descending;

	/* partial-update */
	bool		remove_record_on_delete;
	bool		table_has_groups;	/* any sequence group in the table */
	int			ngroups;
	seq_group  *groups;
	int		   *col_group;		/* per column: group index or -1 */
	bool	   *partial_delete; /* per column: sequence field listed in
								 * remove-record-on-sequence-group */
	pm_field_agg **aggs;		/* per column, NULL when none */

	/* aggregation */
	bool		agg_remove_record_on_delete;

	/* per-key state */
	pm_arena   *key_arena;
	pm_merge_cell *row;
	bool	   *processed;		/* scratch per column */
	bool	   *updated;
	bool		have_record;
	pm_kv_record picked;		/* deduplicate / first-row */
	int64_t		latest_seq;
	bool		meet_insert;
	bool		not_null_filled;
	bool		delete_row;
};

static bool
opt_bool(const pm_schema *schema, const char *key, const char *legacy)
{
	if (legacy != NULL && pm_schema_option(schema, key) == NULL)
		key = legacy;
	return pm_schema_bool_option(schema, key, false);
}

/*
 * A comma list of field names -> table field indexes (in arena); unknown
 * names are PM_ERR_INVALID.
 */
static pm_code
parse_fields(const pm_schema *schema, const char *list, size_t listlen, pm_arena *arena,
			 int **out, int *n, pm_error *err)
{
	const char **names;

	PM_TRY(pm_schema_field_list(schema, list, listlen, true, arena, &names, out, n, err));
	for (int k = 0; k < *n; k++)
		if ((*out)[k] < 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "field \"%s\" of table option can not be found in table schema",
						   names[k]);
	return PM_OK;
}

static bool
is_group_key(const char *key, size_t *names_start, size_t *names_len)
{
	static const char prefix[] = "fields.";
	static const char suffix[] = ".sequence-group";
	size_t		len = strlen(key);

	if (len <= strlen(prefix) + strlen(suffix) ||
		strncmp(key, prefix, strlen(prefix)) != 0 ||
		strcmp(key + len - strlen(suffix), suffix) != 0)
		return false;
	*names_start = strlen(prefix);
	*names_len = len - strlen(prefix) - strlen(suffix);
	return true;
}

static pm_merge_engine_kind
engine_kind(const pm_schema *schema, pm_error *err, bool *ok)
{
	const char *v = pm_schema_option(schema, "merge-engine");

	*ok = true;
	if (v == NULL || strcasecmp(v, "deduplicate") == 0)
		return PM_MERGE_DEDUPLICATE;
	if (strcasecmp(v, "first-row") == 0)
		return PM_MERGE_FIRST_ROW;
	if (strcasecmp(v, "partial-update") == 0)
		return PM_MERGE_PARTIAL_UPDATE;
	if (strcasecmp(v, "aggregation") == 0)
		return PM_MERGE_AGGREGATION;
	*ok = false;
	pm_fail(err, PM_ERR_UNSUPPORTED, "merge engine \"%s\" is not supported", v);
	return PM_MERGE_DEDUPLICATE;
}

static bool
contains_int(const int *a, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (a[i] == x)
			return true;
	return false;
}

pm_code
pm_merge_engine_read_fields(const pm_schema *schema, const int *fields, int nfields,
							pm_arena *arena, int **read_fields, int *nread, pm_error *err)
{
	int			cap = nfields + schema->row_type->nfields;
	int		   *out = pm_arena_alloc(arena, sizeof(int) * (size_t) (cap > 0 ? cap : 1));
	int			n = 0;
	const char *seq = pm_schema_option(schema, "sequence.field");

	if (out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
	for (int i = 0; i < nfields; i++)
		out[n++] = fields[i];
	if (seq != NULL && seq[0] != '\0')
	{
		int		   *idx,
					k;

		PM_TRY(parse_fields(schema, seq, strlen(seq), arena, &idx, &k, err));
		for (int i = 0; i < k; i++)
			if (!contains_int(out, n, idx[i]) && n < cap)
				out[n++] = idx[i];
	}
	for (int o = 0; o < schema->noptions; o++)
	{
		size_t		s,
					l;
		int		   *idx,
					k;

		if (!is_group_key(schema->option_keys[o], &s, &l))
			continue;
		PM_TRY(parse_fields(schema, schema->option_keys[o] + s, l, arena, &idx, &k, err));
		for (int i = 0; i < k; i++)
			if (!contains_int(out, n, idx[i]) && n < cap)
				out[n++] = idx[i];
	}
	*read_fields = out;
	*nread = n;
	return PM_OK;
}

/* Column (index into read fields) of table field f, or -1. */
static int
col_of(const pm_merge_engine *e, int f)
{
	for (int j = 0; j < e->nread; j++)
		if (e->read_fields[j] == f)
			return j;
	return -1;
}

static bool
is_primary_key(const pm_schema *schema, const char *name)
{
	for (int i = 0; i < schema->nprimary_keys; i++)
		if (strcmp(schema->primary_keys[i], name) == 0)
			return true;
	return false;
}

static const char *
field_agg_option(const pm_schema *schema, const char *name)
{
	char		key[512];
	const char *v;

	snprintf(key, sizeof(key), "fields.%s.aggregate-function", name);
	v = pm_schema_option(schema, key);
	if (v == NULL)
		v = pm_schema_option(schema, "fields.default-aggregate-function");
	return v;
}

static pm_code
setup_partial_update(pm_merge_engine *e, pm_arena *arena, pm_error *err)
{
	const pm_schema *schema = e->schema;
	int			nf = schema->row_type->nfields;
	bool	   *protected_ = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (nf + 1));
	bool	   *seqfield = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (nf + 1));
	int		   *field_group = pm_arena_alloc(arena, sizeof(int) * (size_t) (nf + 1));
	const char *rog = pm_schema_option(schema, "partial-update.remove-record-on-sequence-group");

	if (protected_ == NULL || seqfield == NULL || field_group == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
	for (int i = 0; i < nf; i++)
		field_group[i] = -1;
	e->remove_record_on_delete = opt_bool(schema, "partial-update.remove-record-on-delete", NULL);

	/* sequence groups, table-wide (Java's factory) */
	e->groups = pm_arena_zalloc(arena, sizeof(seq_group) * (size_t) (schema->noptions + 1));
	if (e->groups == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
	for (int o = 0; o < schema->noptions; o++)
	{
		size_t		s,
					l;
		int		   *seq,
					nseq,
				   *prot,
					nprot;
		const char *v = schema->option_values[o];
		seq_group  *g;

		if (!is_group_key(schema->option_keys[o], &s, &l))
			continue;
		PM_TRY(parse_fields(schema, schema->option_keys[o] + s, l, arena, &seq, &nseq, err));
		PM_TRY(parse_fields(schema, v, strlen(v), arena, &prot, &nprot, err));
		g = &e->groups[e->ngroups];
		g->nseq = nseq;
		g->seq_cols = pm_arena_alloc(arena, sizeof(int) * (size_t) nseq);
		if (g->seq_cols == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
		for (int i = 0; i < nprot; i++)
		{
			const char *name = schema->row_type->fields[prot[i]].name;

			if (is_primary_key(schema, name))
				return pm_fail(err, PM_ERR_INVALID,
							   "primary key \"%s\" can not be in a sequence group", name);
			if (field_group[prot[i]] >= 0)
				return pm_fail(err, PM_ERR_INVALID,
							   "field %s is defined repeatedly by multiple groups", name);
			field_group[prot[i]] = e->ngroups;
			protected_[prot[i]] = true;
		}
		for (int i = 0; i < nseq; i++)
		{
			const char *name = schema->row_type->fields[seq[i]].name;

			if (is_primary_key(schema, name))
				return pm_fail(err, PM_ERR_INVALID,
							   "primary key \"%s\" can not be in a sequence group", name);
			field_group[seq[i]] = e->ngroups;
			seqfield[seq[i]] = true;
			g->seq_cols[i] = seq[i];	/* table field; mapped to a column below */
		}
		e->ngroups++;
	}
	e->table_has_groups = e->ngroups > 0;

	if (e->remove_record_on_delete && e->ignore_delete)
		return pm_fail(err, PM_ERR_INVALID,
					   "ignore-delete and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time");
	if (rog != NULL && e->ignore_delete)
		return pm_fail(err, PM_ERR_INVALID,
					   "ignore-delete and partial-update.remove-record-on-sequence-group have conflicting behavior so should not be enabled at the same time");
	if (e->remove_record_on_delete && e->table_has_groups)
		return pm_fail(err, PM_ERR_INVALID,
					   "sequence-group and partial-update.remove-record-on-delete have conflicting behavior so should not be enabled at the same time");

	/* aggregate functions: checked table-wide as Java's factory does */
	for (int f = 0; f < nf; f++)
	{
		const char *name = schema->row_type->fields[f].name;
		const char *func;
		int			j;

		if (seqfield[f])
			continue;
		if (is_primary_key(schema, name))
			func = "primary-key";
		else
		{
			func = field_agg_option(schema, name);
			if (func != NULL && strcmp(func, "last_non_null_value") != 0 && !protected_[f])
				return pm_fail(err, PM_ERR_INVALID,
							   "must use sequence group for aggregation functions but not found for field %s",
							   name);
		}
		j = col_of(e, f);
		if (func == NULL || j < 0)
			continue;
		e->aggs[j] = pm_arena_zalloc(arena, sizeof(pm_field_agg));
		if (e->aggs[j] == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
		PM_TRY(pm_field_agg_init(e->aggs[j], schema, name, e->types[j], func, arena, err));
	}

	/* map groups to value columns */
	for (int j = 0; j < e->nread; j++)
		e->col_group[j] = field_group[e->read_fields[j]];
	for (int g = 0; g < e->ngroups; g++)
	{
		bool		projected = false;

		for (int j = 0; j < e->nread; j++)
			projected |= e->col_group[j] == g;
		for (int i = 0; i < e->groups[g].nseq; i++)
		{
			int			c = col_of(e, e->groups[g].seq_cols[i]);

			if (c < 0 && projected)
				return pm_fail(err, PM_ERR_INVALID,
							   "sequence field of a projected sequence group is not read");
			e->groups[g].seq_cols[i] = c;
		}
	}
	if (rog != NULL)
	{
		int		   *idx,
					k;

		PM_TRY(parse_fields(schema, rog, strlen(rog), arena, &idx, &k, err));
		for (int i = 0; i < k; i++)
		{
			int			c;

			if (!seqfield[idx[i]])
				return pm_fail(err, PM_ERR_INVALID,
							   "field '%s' defined in 'partial-update.remove-record-on-sequence-group' option must be part of sequence groups",
							   rog);
			c = col_of(e, idx[i]);
			if (c >= 0)
				e->partial_delete[c] = true;
		}
	}
	return PM_OK;
}

static pm_code
setup_aggregation(pm_merge_engine *e, pm_arena *arena, pm_error *err)
{
	const pm_schema *schema = e->schema;

	e->agg_remove_record_on_delete = opt_bool(schema, "aggregation.remove-record-on-delete",
											  NULL);
	for (int j = 0; j < e->nread; j++)
	{
		const char *name = e->names[j];
		const char *func;
		char		key[512];

		if (contains_int(e->user_seq_cols, e->nuser_seq, j))
			func = "last_value";
		else if (is_primary_key(schema, name))
			func = "primary-key";
		else
		{
			func = field_agg_option(schema, name);
			if (func == NULL)
				func = "last_non_null_value";
		}
		snprintf(key, sizeof(key), "fields.%s.ignore-retract", name);
		if (e->agg_remove_record_on_delete && opt_bool(schema, key, NULL))
			return pm_fail(err, PM_ERR_INVALID,
						   "aggregation.remove-record-on-delete and fields.%s.ignore-retract have conflicting behavior so should not be enabled at the same time",
						   name);
		e->aggs[j] = pm_arena_zalloc(arena, sizeof(pm_field_agg));
		if (e->aggs[j] == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
		PM_TRY(pm_field_agg_init(e->aggs[j], schema, name, e->types[j], func, arena, err));
	}
	return PM_OK;
}

pm_code
pm_merge_engine_create(const pm_schema *schema, const int *read_fields, int nread,
					   int value_offset, pm_arena *arena, pm_merge_engine **out,
					   pm_error *err)
{
	pm_merge_engine *e = pm_arena_zalloc(arena, sizeof(pm_merge_engine));
	bool		ok;
	const char *seq;
	const char *order;
	size_t		n = (size_t) (nread > 0 ? nread : 1);

	*out = NULL;
	if (e == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
	e->schema = schema;
	e->kind = engine_kind(schema, err, &ok);
	if (!ok)
		return err->code;
	e->nread = nread;
	e->read_fields = read_fields;
	e->value_offset = value_offset;
	e->types = pm_arena_alloc(arena, sizeof(pm_type *) * n);
	e->names = pm_arena_alloc(arena, sizeof(char *) * n);
	e->row = pm_arena_zalloc(arena, sizeof(pm_merge_cell) * n);
	e->processed = pm_arena_zalloc(arena, sizeof(bool) * n);
	e->updated = pm_arena_zalloc(arena, sizeof(bool) * n);
	e->col_group = pm_arena_alloc(arena, sizeof(int) * n);
	e->partial_delete = pm_arena_zalloc(arena, sizeof(bool) * n);
	e->aggs = pm_arena_zalloc(arena, sizeof(pm_field_agg *) * n);
	e->user_seq_cols = pm_arena_alloc(arena, sizeof(int) * n);
	e->key_arena = pm_arena_create(pm_arena_env(arena));
	if (e->types == NULL || e->names == NULL || e->row == NULL || e->processed == NULL ||
		e->updated == NULL || e->col_group == NULL || e->partial_delete == NULL ||
		e->aggs == NULL || e->user_seq_cols == NULL || e->key_arena == NULL)
	{
		pm_arena_destroy(e->key_arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory planning a merge");
	}
	for (int j = 0; j < nread; j++)
	{
		if (read_fields[j] < 0 || read_fields[j] >= schema->row_type->nfields)
		{
			pm_arena_destroy(e->key_arena);
			return pm_fail(err, PM_ERR_INVALID, "field index %d out of range", read_fields[j]);
		}
		e->types[j] = schema->row_type->fields[read_fields[j]].type;
		e->names[j] = schema->row_type->fields[read_fields[j]].name;
		e->col_group[j] = -1;
	}
	e->ignore_delete = opt_bool(schema, "ignore-delete", NULL);
	if (!e->ignore_delete)
	{
		const char *legacy[] = {"first-row.ignore-delete", "deduplicate.ignore-delete",
		"partial-update.ignore-delete"};

		for (int i = 0; i < 3; i++)
			e->ignore_delete |= opt_bool(schema, legacy[i], NULL);
	}
	seq = pm_schema_option(schema, "sequence.field");
	if (seq != NULL && seq[0] != '\0')
	{
		int		   *idx,
					k;
		pm_code		rc = parse_fields(schema, seq, strlen(seq), arena, &idx, &k, err);

		if (rc == PM_OK)
		{
			for (int i = 0; i < k; i++)
			{
				int			c = col_of(e, idx[i]);

				if (c < 0)
				{
					rc = pm_fail(err, PM_ERR_INVALID, "sequence field is not read");
					break;
				}
				e->user_seq_cols[e->nuser_seq++] = c;
			}
		}
		if (rc != PM_OK)
		{
			pm_arena_destroy(e->key_arena);
			return rc;
		}
	}
	order = pm_schema_option(schema, "sequence.field.sort-order");
	e->seq_descending = order != NULL && strcasecmp(order, "descending") == 0;

	{
		pm_code		rc = PM_OK;

		if (e->kind == PM_MERGE_PARTIAL_UPDATE)
			rc = setup_partial_update(e, arena, err);
		else if (e->kind == PM_MERGE_AGGREGATION)
			rc = setup_aggregation(e, arena, err);
		if (rc != PM_OK)
		{
			pm_arena_destroy(e->key_arena);
			return rc;
		}
	}
	pm_merge_engine_reset(e);
	*out = e;
	return PM_OK;
}

void
pm_merge_engine_destroy(pm_merge_engine *engine)
{
	if (engine != NULL)
	{
		pm_arena_destroy(engine->key_arena);
		engine->key_arena = NULL;
	}
}

pm_merge_engine_kind
pm_merge_engine_get_kind(const pm_merge_engine *engine)
{
	return engine->kind;
}

bool
pm_merge_engine_ignores_delete(const pm_merge_engine *engine)
{
	return engine->ignore_delete;
}

void
pm_merge_engine_sequence_fields(const pm_merge_engine *engine, const int **cols, int *n,
								bool *descending)
{
	*cols = engine->user_seq_cols;
	*n = engine->nuser_seq;
	*descending = engine->seq_descending;
}

static inline pm_merge_cell
rec_cell(const pm_merge_engine *e, const pm_kv_record *r, int j)
{
	pm_merge_cell c;

	c.vec = &r->batch->cols[e->value_offset + j];
	c.row = r->row;
	return c;
}

static inline int
compare_records(const pm_merge_engine *e, const pm_kv_record *a, const pm_kv_record *b,
				bool seq_descending)
{
	for (int i = 0; i < e->nuser_seq; i++)
	{
		pm_merge_cell ca = rec_cell(e, a, e->user_seq_cols[i]);
		pm_merge_cell cb = rec_cell(e, b, e->user_seq_cols[i]);
		bool		na = pm_merge_cell_is_null(ca),
					nb = pm_merge_cell_is_null(cb);
		int			c;

		if (na || nb)
			c = na && nb ? 0 : (na ? -1 : 1);	/* NULLs first, also descending */
		else
		{
			c = pm_key_compare_value(ca.vec, ca.row, cb.vec, cb.row);
			if (seq_descending)
				c = -c;
		}
		if (c != 0)
			return c;
	}
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return (int) pm_rowkind_is_add(a->kind) - (int) pm_rowkind_is_add(b->kind);
}

int
pm_merge_engine_compare_records(const pm_merge_engine *e, const pm_kv_record *a,
								const pm_kv_record *b)
{
	return compare_records(e, a, b, e->seq_descending);
}

int
pm_merge_engine_compare_buffered(const pm_merge_engine *e, const pm_kv_record *a,
								 const pm_kv_record *b)
{
	return compare_records(e, a, b, false);
}

pm_code
pm_merge_engine_accepts(const pm_merge_engine *e, int kind, pm_error *err)
{
	if (pm_rowkind_is_add(kind) || e->ignore_delete)
		return PM_OK;
	switch (e->kind)
	{
		case PM_MERGE_DEDUPLICATE:
			return PM_OK;
		case PM_MERGE_FIRST_ROW:
			/* FirstRowMergeFunction.add */
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "the first-row merge engine does not accept DELETE or UPDATE_BEFORE records; set 'ignore-delete' to ignore them");
		case PM_MERGE_PARTIAL_UPDATE:
			/* PartialUpdateMergeFunction.add */
			if (e->table_has_groups || e->remove_record_on_delete)
				return PM_OK;
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "By default, Partial update can not accept delete records, configure 'ignore-delete', 'partial-update.remove-record-on-delete' or sequence groups ('fields.<f>.sequence-group')");
		case PM_MERGE_AGGREGATION:
			/* AggregateMergeFunction.add, FieldAggregator.retract */
			if (kind == PM_ROWKIND_DELETE && e->agg_remove_record_on_delete)
				return PM_OK;
			for (int j = 0; j < e->nread; j++)
				if (e->aggs[j] != NULL && !pm_field_agg_can_retract(e->aggs[j]))
					return pm_fail(err, PM_ERR_UNSUPPORTED,
								   "aggregate function \"%s\" of field \"%s\" does not support retraction (%s records); set 'fields.%s.ignore-retract'%s",
								   e->aggs[j]->name, e->names[j],
								   kind == PM_ROWKIND_DELETE ? "DELETE" : "UPDATE_BEFORE",
								   e->names[j],
								   kind == PM_ROWKIND_DELETE ? " or 'aggregation.remove-record-on-delete'" : "");
			return PM_OK;
	}
	return PM_OK;
}

void
pm_merge_engine_reset(pm_merge_engine *e)
{
	if (e->kind == PM_MERGE_DEDUPLICATE || e->kind == PM_MERGE_FIRST_ROW)
	{
		/* no per-key state but the picked record (cells are set by _result) */
		e->have_record = false;
		return;
	}
	pm_arena_reset(e->key_arena);
	for (int j = 0; j < e->nread; j++)
	{
		e->row[j].vec = NULL;
		e->row[j].row = 0;
		if (e->aggs[j] != NULL)
			pm_field_agg_reset(e->aggs[j]);
	}
	e->have_record = false;
	e->latest_seq = 0;
	e->meet_insert = false;
	e->not_null_filled = false;
	e->delete_row = false;
}

/* Java initRow: row := the record's values; NULL in a NOT NULL column is an error. */
static pm_code
init_row(pm_merge_engine *e, const pm_kv_record *r, pm_error *err)
{
	for (int j = 0; j < e->nread; j++)
	{
		pm_merge_cell c = rec_cell(e, r, j);

		if (!e->types[j]->nullable && pm_merge_cell_is_null(c))
			return pm_fail(err, PM_ERR_INVALID, "field %s can not be null", e->names[j]);
		e->row[j] = c;
	}
	return PM_OK;
}

/* compare(record, row) on a group's sequence fields, ascending, NULLs first */
static int
group_compare(pm_merge_engine *e, const seq_group *g, const pm_kv_record *r)
{
	for (int i = 0; i < g->nseq; i++)
	{
		pm_merge_cell a = rec_cell(e, r, g->seq_cols[i]);
		pm_merge_cell b = e->row[g->seq_cols[i]];
		bool		na = pm_merge_cell_is_null(a),
					nb = pm_merge_cell_is_null(b);
		int			c;

		if (na || nb)
			c = na && nb ? 0 : (na ? -1 : 1);
		else
			c = pm_key_compare_value(a.vec, a.row, b.vec, b.row);
		if (c != 0)
			return c;
	}
	return 0;
}

static bool
group_has_col(const seq_group *g, int j)
{
	for (int i = 0; i < g->nseq; i++)
		if (g->seq_cols[i] == j)
			return true;
	return false;
}

/* isEmptySequenceGroup: all sequence fields NULL in the record; marks them processed. */
static bool
group_empty(pm_merge_engine *e, const seq_group *g, const pm_kv_record *r)
{
	for (int i = 0; i < g->nseq; i++)
		if (!pm_merge_cell_is_null(rec_cell(e, r, g->seq_cols[i])))
			return false;
	for (int i = 0; i < g->nseq; i++)
		e->processed[g->seq_cols[i]] = true;
	return true;
}

static pm_code
update_with_groups(pm_merge_engine *e, const pm_kv_record *r, pm_error *err)
{
	memset(e->processed, 0, sizeof(bool) * (size_t) e->nread);
	for (int j = 0; j < e->nread; j++)
	{
		pm_field_agg *agg = e->aggs[j];
		pm_merge_cell in = rec_cell(e, r, j);

		if (e->col_group[j] >= 0)
		{
			const seq_group *g = &e->groups[e->col_group[j]];

			if (e->processed[j] || group_empty(e, g, r))
				continue;
			if (group_compare(e, g, r) >= 0)
			{
				if (group_has_col(g, j))
				{
					for (int i = 0; i < g->nseq; i++)
					{
						e->row[g->seq_cols[i]] = rec_cell(e, r, g->seq_cols[i]);
						e->processed[g->seq_cols[i]] = true;
					}
					continue;
				}
				if (agg == NULL)
					e->row[j] = in;
				else
					PM_TRY(pm_field_agg_agg(agg, e->row[j], in, e->key_arena, &e->row[j], err));
			}
			else if (agg != NULL)
				PM_TRY(pm_field_agg_agg_reversed(agg, e->row[j], in, e->key_arena,
												 &e->row[j], err));
		}
		else if (agg != NULL)
			PM_TRY(pm_field_agg_agg(agg, e->row[j], in, e->key_arena, &e->row[j], err));
		else if (!pm_merge_cell_is_null(in))
			e->row[j] = in;
	}
	return PM_OK;
}

static pm_code
retract_with_groups(pm_merge_engine *e, const pm_kv_record *r, pm_error *err)
{
	memset(e->processed, 0, sizeof(bool) * (size_t) e->nread);
	memset(e->updated, 0, sizeof(bool) * (size_t) e->nread);
	for (int j = 0; j < e->nread; j++)
	{
		pm_field_agg *agg = e->aggs[j];
		const seq_group *g;

		if (e->col_group[j] < 0)
			continue;
		g = &e->groups[e->col_group[j]];
		if (e->processed[j] || group_empty(e, g, r))
			continue;
		if (group_compare(e, g, r) >= 0)
		{
			if (group_has_col(g, j))
			{
				for (int i = 0; i < g->nseq; i++)
				{
					int			f = g->seq_cols[i];

					if (!e->updated[f])
					{
						if (r->kind == PM_ROWKIND_DELETE && e->partial_delete[f])
						{
							e->delete_row = true;
							return init_row(e, r, err);
						}
						e->row[f] = rec_cell(e, r, f);
						e->updated[f] = true;
					}
					e->processed[f] = true;
				}
			}
			else if (agg == NULL)
				e->row[j].vec = NULL;
			else
				PM_TRY(pm_field_agg_retract(agg, e->row[j], rec_cell(e, r, j), e->key_arena,
											&e->row[j], err));
		}
		else if (agg != NULL)
			PM_TRY(pm_field_agg_retract(agg, e->row[j], rec_cell(e, r, j), e->key_arena,
										&e->row[j], err));
	}
	return PM_OK;
}

static bool
projected_groups(const pm_merge_engine *e)
{
	for (int j = 0; j < e->nread; j++)
		if (e->col_group[j] >= 0)
			return true;
	return false;
}

static pm_code
partial_update_add(pm_merge_engine *e, const pm_kv_record *r, pm_error *err)
{
	e->delete_row = false;
	if (!pm_rowkind_is_add(r->kind))
	{
		if (!e->not_null_filled)
		{
			PM_TRY(init_row(e, r, err));
			e->not_null_filled = true;
		}
		if (e->ignore_delete)
			return PM_OK;
		e->latest_seq = r->seq;
		if (e->table_has_groups)
			return retract_with_groups(e, r, err);
		if (e->remove_record_on_delete)
		{
			if (r->kind == PM_ROWKIND_DELETE)
			{
				e->delete_row = true;
				return init_row(e, r, err);
			}
			return PM_OK;
		}
		return pm_fail(err, PM_ERR_INVALID,
					   "partial update can not accept delete records without ignore-delete, partial-update.remove-record-on-delete or sequence groups");
	}
	e->latest_seq = r->seq;
	if (!projected_groups(e))
	{
		for (int j = 0; j < e->nread; j++)
		{
			pm_merge_cell in = rec_cell(e, r, j);

			if (!pm_merge_cell_is_null(in))
				e->row[j] = in;
			else if (!e->types[j]->nullable)
				return pm_fail(err, PM_ERR_INVALID, "field %s can not be null", e->names[j]);
		}
	}
	else
		PM_TRY(update_with_groups(e, r, err));
	e->meet_insert = true;
	e->not_null_filled = true;
	return PM_OK;
}

static pm_code
aggregation_add(pm_merge_engine *e, const pm_kv_record *r, pm_error *err)
{
	bool		retract = !pm_rowkind_is_add(r->kind);

	e->latest_seq = r->seq;
	e->delete_row = e->agg_remove_record_on_delete && r->kind == PM_ROWKIND_DELETE;
	if (e->delete_row)
		return init_row(e, r, err);
	for (int j = 0; j < e->nread; j++)
	{
		pm_merge_cell in = rec_cell(e, r, j);

		if (retract)
			PM_TRY(pm_field_agg_retract(e->aggs[j], e->row[j], in, e->key_arena, &e->row[j],
										err));
		else
			PM_TRY(pm_field_agg_agg(e->aggs[j], e->row[j], in, e->key_arena, &e->row[j], err));
	}
	return PM_OK;
}

pm_code
pm_merge_engine_add(pm_merge_engine *e, const pm_kv_record *r, pm_error *err)
{
	switch (e->kind)
	{
		case PM_MERGE_DEDUPLICATE:
			if (e->ignore_delete && !pm_rowkind_is_add(r->kind))
				return PM_OK;
			e->picked = *r;
			e->have_record = true;
			return PM_OK;
		case PM_MERGE_FIRST_ROW:
			if (!pm_rowkind_is_add(r->kind))
			{
				if (e->ignore_delete)
					return PM_OK;
				return pm_fail(err, PM_ERR_INVALID,
							   "first-row merge engine can not accept DELETE/UPDATE_BEFORE records without ignore-delete");
			}
			if (!e->have_record)
			{
				e->picked = *r;
				e->have_record = true;
			}
			return PM_OK;
		case PM_MERGE_PARTIAL_UPDATE:
			return partial_update_add(e, r, err);
		case PM_MERGE_AGGREGATION:
			return aggregation_add(e, r, err);
	}
	return PM_OK;
}

const pm_kv_record *
pm_merge_engine_picked(const pm_merge_engine *e)
{
	if ((e->kind != PM_MERGE_DEDUPLICATE && e->kind != PM_MERGE_FIRST_ROW) || !e->have_record)
		return NULL;
	return &e->picked;
}

pm_code
pm_merge_engine_result(pm_merge_engine *e, bool *has_row, int *kind,
					   const pm_merge_cell **cells, pm_error *err)
{
	*has_row = true;
	switch (e->kind)
	{
		case PM_MERGE_DEDUPLICATE:
		case PM_MERGE_FIRST_ROW:
			if (!e->have_record)
			{
				*has_row = false;
				return PM_OK;
			}
			for (int j = 0; j < e->nread; j++)
				e->row[j] = rec_cell(e, &e->picked, j);
			*kind = e->picked.kind;
			break;
		case PM_MERGE_PARTIAL_UPDATE:
			*kind = e->delete_row || !e->meet_insert ? PM_ROWKIND_DELETE : PM_ROWKIND_INSERT;
			break;
		case PM_MERGE_AGGREGATION:
			*kind = e->delete_row ? PM_ROWKIND_DELETE : PM_ROWKIND_INSERT;
			break;
	}
	*cells = e->row;
	return PM_OK;
}
