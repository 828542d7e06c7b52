/*-------------------------------------------------------------------------
 * point_lookup.c
 *	  pm_point_lookup_plan: the files of a planned scan that may hold the
 *	  primary keys a predicate pins (see point_lookup.h).
 *
 *	 1. keys: per trimmed primary-key field an "=" or IN conjunct of the
 *		predicate; the keys are their cross product
 *	 2. per split of the base scan: its partition values against the
 *		predicate; its bucket against the keys' buckets (default bucket
 *		function, fixed buckets)
 *	 3. per file of a kept split: the keys within [_MIN_KEY, _MAX_KEY]
 *		(decoded with the trimmed key's types when the file's schema has
 *		the same ones, else every key), then the file index asked with
 *		"key1 OR key2 ..." of those keys, then (Parquet files) the key
 *		pages: a file whose sorted _KEY_ column of the first key field
 *		holds none of the keys' first values cannot hold the keys
 *	 4. one key of a deduplicate table found in some files: the files whose
 *		records are all older than a found one's are not read (the newest
 *		record decides the row; newest_record_decides)
 *
 * Spec: ../shared/docs/paimon-format-data.md §7; paimon-format-metadata.md
 * §10.3 (bucket function); apache/paimon mergetree/LookupLevels.java.
 *-------------------------------------------------------------------------
 */
#include "table/point_lookup.h"

#include <stdlib.h>
#include <string.h>

#include "format/parquet/parquet_key_probe.h"
#include "row/binary_row.h"
#include "row/bucket_function.h"
#include "row/value.h"
#include "common/page_store.h"
#include "table/resident_file.h"
#include "table/stats_filter.h"
#include "table/table_int.h"
#include "table/table_options.h"

/* The keys a predicate pins. */
typedef struct key_set
{
	int			nfields;		/* = trimmed primary-key fields */
	const int  *fields;			/* table field indexes */
	const pm_type *key_type;	/* ROW of those fields (table types) */
	int			nkeys;
	pm_value   *values;			/* nkeys x nfields */
} key_set;

/*
 * The literals of the first conjunct of p that pins field: "field = v"
 * (1 literal) or "field IN (...)"; NULL if none.
 */
static const pm_predicate *
pinning_leaf(const pm_predicate *p, int field, int depth)
{
	if (p == NULL || depth > 64)
		return NULL;
	if (p->op == PM_PRED_AND)
	{
		const pm_predicate *found = NULL;

		for (int i = 0; i < p->nchildren; i++)
		{
			const pm_predicate *c = pinning_leaf(p->children[i], field, depth + 1);

			/* "=" beats IN: fewer keys */
			if (c != NULL && (found == NULL || c->nliterals < found->nliterals))
				found = c;
		}
		return found;
	}
	if (p->field == field && p->literals != NULL && p->nliterals >= 1 &&
		((p->op == PM_PRED_EQ && p->nliterals == 1) || p->op == PM_PRED_IN))
		return p;
	return NULL;
}

/* false: pred does not pin every key field, or pins too many keys. */
static pm_code
extract_keys(const pm_table *t, const pm_predicate *pred, pm_arena *arena, key_set *ks,
			 bool *found, pm_error *err)
{
	const pm_type *row = t->schema->row_type;
	const pm_predicate *leaves[64];
	pm_field   *kfields;
	int64_t		nkeys = 1;
	int			n = t->ntrimmed_pk;

	*found = false;
	memset(ks, 0, sizeof(*ks));
	if (pred == NULL || n <= 0 || n > 64)
		return PM_OK;
	for (int i = 0; i < n; i++)
	{
		int			nonnull = 0;

		if ((leaves[i] = pinning_leaf(pred, t->trimmed_pk[i], 0)) == NULL)
			return PM_OK;
		for (int l = 0; l < leaves[i]->nliterals; l++)
			if (!leaves[i]->literals[l].is_null)
				nonnull++;
		nkeys *= nonnull;		/* a NULL equals no key */
		if (nkeys > PM_POINT_LOOKUP_MAX_KEYS)
			return PM_OK;
	}
	kfields = pm_arena_zalloc(arena, sizeof(pm_field) * n);
	ks->values = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (nkeys * n + 1));
	if (kfields == NULL || ks->values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		kfields[i] = row->fields[t->trimmed_pk[i]];
	if ((ks->key_type = pm_type_new_row(arena, kfields, n, false)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	ks->nfields = n;
	ks->fields = t->trimmed_pk;
	ks->nkeys = (int) nkeys;
	/* the cross product, the last field varying fastest */
	for (int k = 0; k < ks->nkeys; k++)
	{
		int			rest = k;

		for (int i = n - 1; i >= 0; i--)
		{
			const pm_predicate *leaf = leaves[i];
			int			nonnull = 0;
			int			pick;

			for (int l = 0; l < leaf->nliterals; l++)
				if (!leaf->literals[l].is_null)
					nonnull++;
			pick = rest % nonnull;
			rest /= nonnull;
			for (int l = 0; l < leaf->nliterals; l++)
				if (!leaf->literals[l].is_null && pick-- == 0)
				{
					pm_value   *v = &ks->values[(size_t) k * n + i];

					/* the keys outlive the caller's predicate (key filter) */
					*v = leaf->literals[l];
					if (pm_type_is_varlen(kfields[i].type->id) && v->u.bytes.len > 0)
					{
						uint8_t    *b = pm_arena_alloc(arena, (size_t) v->u.bytes.len);

						if (b == NULL)
							return pm_fail(err, PM_ERR_NOMEM, "out of memory");
						memcpy(b, v->u.bytes.ptr, (size_t) v->u.bytes.len);
						v->u.bytes.ptr = b;
					}
					break;
				}
		}
	}
	*found = true;
	return PM_OK;
}

/* May a split of these partition values hold rows pred admits? */
static bool
partition_may_match(const pm_table *t, const pm_split *sp, const pm_predicate *pred,
					pm_field_range *ranges)
{
	const pm_type *row = t->schema->row_type;

	if (t->npartition == 0)
		return true;
	memset(ranges, 0, sizeof(pm_field_range) * row->nfields);
	for (int k = 0; k < t->npartition; k++)
	{
		pm_field_range *r = &ranges[t->partition_fields[k]];
		const pm_value *v = &sp->partition_values[k];

		r->known = true;
		r->row_count = 1;
		r->null_count = v->is_null ? 1 : 0;
		r->has_min_max = !v->is_null;
		r->min = *v;
		r->max = *v;
	}
	return pm_stats_filter_may_match(pred, row, ranges, row->nfields);
}

/* How to compute the bucket of a key: the bucket-key values from the key. */
typedef struct bucket_of_key
{
	bool		usable;
	const pm_type *type;		/* ROW of the bucket-key fields */
	pm_bucket_function fn;		/* bucket-function.type */
	int			nfields;
	int			key_pos[64];	/* position of each bucket-key field in the key */
	pm_value   *values;			/* scratch */
} bucket_of_key;

static pm_code
bucket_of_key_init(const pm_table *t, const key_set *ks, pm_arena *arena, bucket_of_key *b,
				   pm_error *err)
{
	int			idx[64];
	int			n;
	pm_field   *fields;

	memset(b, 0, sizeof(*b));
	if (!pm_table_bucket_key_fields(t, idx, 64, &n, &b->fn))
		return PM_OK;
	for (int i = 0; i < n; i++)
	{
		b->key_pos[i] = -1;
		for (int k = 0; k < ks->nfields; k++)
			if (ks->fields[k] == idx[i])
				b->key_pos[i] = k;
		if (b->key_pos[i] < 0)
			return PM_OK;		/* not part of the key: every bucket */
	}
	fields = pm_arena_zalloc(arena, sizeof(pm_field) * n);
	b->values = pm_arena_zalloc(arena, sizeof(pm_value) * n);
	if (fields == NULL || b->values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		fields[i] = t->schema->row_type->fields[idx[i]];
	if ((b->type = pm_type_new_row(arena, fields, n, false)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	b->nfields = n;
	b->usable = true;
	return PM_OK;
}

/* Is key k in the split's bucket? true when that cannot be told. */
static bool
key_in_bucket(bucket_of_key *b, const key_set *ks, int k, const pm_split *sp)
{
	pm_error	ignored;
	int32_t		bucket;

	if (!b->usable || sp->total_buckets <= 0 || sp->bucket < 0)
		return true;
	for (int i = 0; i < b->nfields; i++)
		b->values[i] = ks->values[(size_t) k * ks->nfields + b->key_pos[i]];
	pm_error_clear(&ignored);
	if (pm_bucket_function_bucket(b->fn, b->type, b->values, sp->total_buckets, &bucket,
								  &ignored) != PM_OK)
		return true;
	return bucket == sp->bucket;
}

/*
 * Key order (§4.2): field by field; 2 when some field cannot be compared.
 */
static int
key_compare(const key_set *ks, const pm_value *key, const pm_value *bound)
{
	for (int i = 0; i < ks->nfields; i++)
	{
		int			c;

		if (bound[i].is_null)
			return 2;
		c = pm_stats_value_compare(ks->key_type->fields[i].type, &key[i], &bound[i]);
		if (c != 0)
			return c;
	}
	return 0;
}

/*
 * A file's [_MIN_KEY, _MAX_KEY] decoded with the key's types; false when it
 * cannot be used (missing, another arity, key types changed since the
 * file's schema).
 */
static bool
file_key_range(pm_table *t, const key_set *ks, const pm_data_file_meta *f, pm_arena *tmp,
			   pm_value **min, pm_value **max)
{
	pm_error	ignored;
	int			arity;

	pm_error_clear(&ignored);
	if (f->min_key == NULL || f->max_key == NULL)
		return false;
	if (f->schema_id != t->schema->id)
	{
		const pm_schema *fs;

		if (pm_table_schema_by_id(t, f->schema_id, &fs, &ignored) != PM_OK)
			return false;
		for (int i = 0; i < ks->nfields; i++)
		{
			const pm_field *tf = &ks->key_type->fields[i];
			int			fi = pm_type_field_index_by_id(fs->row_type, tf->id);
			const pm_type *ft;

			if (fi < 0)
				return false;
			ft = fs->row_type->fields[fi].type;
			if (ft->id != tf->type->id || ft->precision != tf->type->precision ||
				ft->scale != tf->type->scale)
				return false;
		}
	}
	*min = pm_arena_zalloc(tmp, sizeof(pm_value) * ks->nfields);
	*max = pm_arena_zalloc(tmp, sizeof(pm_value) * ks->nfields);
	return *min != NULL && *max != NULL &&
		pm_binary_row_serialized_arity(f->min_key, f->min_key_len, &arity, &ignored) == PM_OK &&
		arity == ks->nfields &&
		pm_binary_row_serialized_arity(f->max_key, f->max_key_len, &arity, &ignored) == PM_OK &&
		arity == ks->nfields &&
		pm_binary_row_decode_serialized(f->min_key, f->min_key_len, ks->key_type, *min,
										&ignored) == PM_OK &&
		pm_binary_row_decode_serialized(f->max_key, f->max_key_len, ks->key_type, *max,
										&ignored) == PM_OK;
}

/* A file's key range, decoded once per base scan. */
typedef struct pm_lookup_range
{
	int8_t		state;			/* 0: not decoded yet; 1: min, max; -1: unusable */
	pm_value   *min;
	pm_value   *max;
} pm_lookup_range;

/* What lookups keep of a split of their base scan (pm_scan.lookup_splits). */
typedef struct pm_lookup_split
{
	pm_lookup_range *ranges;	/* per file */
	int		   *newest_first;	/* file indexes by _MAX_SEQUENCE_NUMBER, descending */
	struct resident_state *resident;	/* per file; NULL until a resident lookup asks */
} pm_lookup_split;

/* split s's entry of base->lookup_splits, made on first use; NULL: none kept */
static pm_lookup_split *
lookup_split(pm_table *t, pm_scan *base, int s)
{
	pm_lookup_split *ls;

	if (base->lookup_splits == NULL)
	{
		base->lookup_schema = t->schema->id;
		base->lookup_splits = pm_arena_zalloc(base->arena, sizeof(pm_lookup_split) *
											  (size_t) (base->nsplits + 1));
	}
	if (base->lookup_splits == NULL || base->lookup_schema != t->schema->id)
		return NULL;
	ls = &base->lookup_splits[s];
	if (ls->ranges == NULL &&
		(ls->ranges = pm_arena_zalloc(base->arena, sizeof(pm_lookup_range) *
									  (size_t) (base->splits[s].nfiles + 1))) == NULL)
		return NULL;
	return ls;
}

/*
 * file_key_range of file i of split s of base, kept on base: a lookup
 * join plans one lookup per outer row over the same files.
 */
static bool
kept_key_range(pm_table *t, const key_set *ks, pm_scan *base, int s, int i, pm_arena *tmp,
			   pm_value **min, pm_value **max)
{
	const pm_data_file_meta *f = base->splits[s].files[i];
	pm_lookup_split *ls = lookup_split(t, base, s);
	pm_lookup_range *r;

	if (ls == NULL)
		return file_key_range(t, ks, f, tmp, min, max);
	r = &ls->ranges[i];
	if (r->state == 0)
		r->state = file_key_range(t, ks, f, base->arena, &r->min, &r->max) ? 1 : -1;
	*min = r->min;
	*max = r->max;
	return r->state > 0;
}

/* A file's _MAX_SEQUENCE_NUMBER and its index in its split. */
typedef struct seq_of_file
{
	int64_t		max_seq;
	int			file;
} seq_of_file;

static int
cmp_newest_first(const void *pa, const void *pb)
{
	const seq_of_file *a = pa;
	const seq_of_file *b = pb;

	if (a->max_seq != b->max_seq)
		return a->max_seq > b->max_seq ? -1 : 1;
	return a->file - b->file;
}

/*
 * The files of split s of base, newest (largest _MAX_SEQUENCE_NUMBER)
 * first, kept on base; in arena when base keeps nothing. NULL: out of
 * memory.
 */
static const int *
newest_first(pm_table *t, pm_scan *base, int s, pm_arena *arena)
{
	const pm_split *sp = &base->splits[s];
	pm_lookup_split *ls = lookup_split(t, base, s);
	pm_arena   *into = ls != NULL ? base->arena : arena;
	seq_of_file *seqs;
	int		   *order;

	if (ls != NULL && ls->newest_first != NULL)
		return ls->newest_first;
	order = pm_arena_alloc(into, sizeof(int) * (size_t) (sp->nfiles + 1));
	seqs = pm_arena_alloc(arena, sizeof(seq_of_file) * (size_t) (sp->nfiles + 1));
	if (order == NULL || seqs == NULL)
		return NULL;
	for (int i = 0; i < sp->nfiles; i++)
	{
		seqs[i].max_seq = sp->files[i]->max_sequence_number;
		seqs[i].file = i;
	}
	qsort(seqs, (size_t) sp->nfiles, sizeof(seq_of_file), cmp_newest_first);
	for (int i = 0; i < sp->nfiles; i++)
		order[i] = seqs[i].file;
	if (ls != NULL)
		ls->newest_first = order;
	return order;
}

/* Row ranges [start, end) as pairs of int64_t, by start. */
static int
cmp_range(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a;
	int64_t		y = *(const int64_t *) b;

	return x < y ? -1 : x > y;
}

static int
cmp_file_rows_by_file(const void *pa, const void *pb)
{
	uintptr_t	a = (uintptr_t) ((const pm_file_rows *) pa)->file;
	uintptr_t	b = (uintptr_t) ((const pm_file_rows *) pb)->file;

	return a < b ? -1 : a > b ? 1 : 0;
}

/* The key column's name in files of one row type, kept across the files of a plan. */
typedef struct key_column
{
	const pm_type *frow;
	const char *name;
} key_column;

/*
 * Does f hold none of keys (their first fields) by its key pages? Only
 * Parquet files whose first key field has the key's type (file_key_range
 * checked the types) and whose column is named as the reader names it.
 * When it holds some and every key is placed (surely absent, or its row
 * known, or the rows of the pages that hold its first field's value), *sel
 * gets those rows (in arena): the file's other rows are of other keys,
 * which the lookup does not need. (The rows of a first field's value hold
 * every key that starts with it: keys of several fields are placed too.)
 * present[j]: the key is one field and keys[j] is surely in the file (its
 * row placed or not). *exact: every row of *sel holds a key (each key
 * placed by its own row, not by the pages of its first field's value).
 */
static bool
key_pages_reject(pm_table *t, const key_set *ks, const pm_data_file_meta *f, const int *keys,
				 int n, key_column *kc, pm_arena *tmp, pm_arena *arena,
				 const pm_row_selection **sel, bool *present, bool *exact)
{
	int64_t    *rows = NULL;		/* nrows ranges [start, end) */
	int			nrows = 0;
	bool		placed = true;
	bool		hit = false;

	const pm_field *tf = &ks->key_type->fields[0];
	const pm_schema *fschema = t->schema;
	const pm_type *frow = t->schema->row_type;
	const char *column;
	int			fi;

	*sel = NULL;
	*exact = true;
	memset(present, 0, sizeof(bool) * (size_t) n);
	if (f->format != PM_FORMAT_PARQUET || !pm_parquet_key_cache_enabled())
		return false;
	if (f->schema_id != t->schema->id)
	{
		const pm_schema *fs;
		pm_error	ignored;

		pm_error_clear(&ignored);
		if (pm_table_schema_by_id(t, f->schema_id, &fs, &ignored) != PM_OK)
			return false;
		fschema = fs;
		frow = fs->row_type;
	}
	if ((fi = pm_type_field_index_by_id(frow, tf->id)) < 0 ||
		frow->fields[fi].type->id != tf->type->id)
		return false;
	/* the key column's name, once per file schema (not per probe) */
	if (kc->frow != frow)
	{
		const char *fname = frow->fields[fi].name;
		size_t		flen = strlen(fname);
		char	   *name;

		kc->frow = NULL;
		/* a thin file's key is its value column */
		if (pm_schema_thin_mode(fschema))
			name = pm_arena_strndup(arena, fname, flen);
		else if ((name = pm_arena_alloc(arena, flen + sizeof("_KEY_"))) != NULL)
		{
			/* "_KEY_" + name, without vsnprintf's cost on every lookup */
			memcpy(name, "_KEY_", 5);
			memcpy(name + 5, fname, flen + 1);
		}
		if ((kc->name = name) == NULL)
			return false;
		kc->frow = frow;
	}
	column = kc->name;
	if ((rows = pm_arena_alloc(tmp, 2 * sizeof(int64_t) * (size_t) (n + 1))) == NULL)
		placed = false;
	for (int j = 0; j < n; j++)
	{
		const pm_value *key = &ks->values[(size_t) keys[j] * ks->nfields];
		int64_t		row;
		int64_t		span[2];

		switch (pm_parquet_key_probe(t->env, t->io, f->path, f->file_size, column, tf->type,
									 key, &row, span))
		{
			case PM_PQ_PROBE_ABSENT:
				break;
			case PM_PQ_PROBE_PRESENT:
				hit = true;
				/* a one-field key: surely in the file (its row known or not) */
				present[j] = ks->nfields == 1;
				if (!placed)
					break;
				/* the key's row, or the rows of the pages of its first field's value */
				if (ks->nfields == 1 && row >= 0 && row < f->row_count)
				{
					rows[2 * nrows] = row;
					rows[2 * nrows + 1] = row + 1;
					nrows++;
				}
				else if (span[0] >= 0 && span[0] < span[1] && span[1] <= f->row_count)
				{
					*exact = false;
					rows[2 * nrows] = span[0];
					rows[2 * nrows + 1] = span[1];
					nrows++;
				}
				else
					placed = false;
				break;
			default:
				hit = true;
				placed = false;
				break;
		}
	}
	if (!hit)
		return true;
	if (!placed || nrows == 0)
		return false;
	/* the ranges, sorted, those that overlap or touch joined */
	qsort(rows, (size_t) nrows, 2 * sizeof(int64_t), cmp_range);
	{
		pm_row_selection *s = pm_arena_zalloc(arena, sizeof(pm_row_selection));
		int64_t    *start = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) nrows);
		int64_t    *end = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) nrows);

		if (s == NULL || start == NULL || end == NULL)
			return false;
		for (int i = 0; i < nrows; i++)
		{
			int64_t		rs = rows[2 * i],
						re = rows[2 * i + 1];

			if (s->n > 0 && rs <= end[s->n - 1])
			{
				if (re > end[s->n - 1])
					end[s->n - 1] = re;
				continue;
			}
			start[s->n] = rs;
			end[s->n] = re;
			s->n++;
		}
		s->start = start;
		s->end = end;
		*sel = s;
	}
	return false;
}

/* "k1 = a AND k2 = b" of each key in keys, ORed (in tmp). */
static pm_predicate *
keys_predicate(const key_set *ks, const int *keys, int n, pm_arena *tmp)
{
	pm_predicate *or = pm_arena_zalloc(tmp, sizeof(pm_predicate));

	if (or == NULL || (or->children = pm_arena_zalloc(tmp, sizeof(pm_predicate *) * n)) == NULL)
		return NULL;
	or->op = PM_PRED_OR;
	for (int j = 0; j < n; j++)
	{
		pm_predicate *and = pm_arena_zalloc(tmp, sizeof(pm_predicate));
		pm_predicate *leaves = pm_arena_zalloc(tmp, sizeof(pm_predicate) * ks->nfields);

		if (and == NULL || leaves == NULL ||
			(and->children = pm_arena_zalloc(tmp, sizeof(pm_predicate *) * ks->nfields)) == NULL)
			return NULL;
		and->op = PM_PRED_AND;
		for (int i = 0; i < ks->nfields; i++)
		{
			leaves[i].op = PM_PRED_EQ;
			leaves[i].field = ks->fields[i];
			leaves[i].nliterals = 1;
			leaves[i].literals = &ks->values[(size_t) keys[j] * ks->nfields + i];
			and->children[and->nchildren++] = &leaves[i];
		}
		or->children[or->nchildren++] = and;
	}
	return or;
}

/*
 * Whether a key's newest record alone decides its row, so that a file
 * whose records are all older than one the key was found in need not be
 * read (LookupLevels' newest-first lookup): deduplicate without
 * sequence.field (the sequence number orders the records) and without
 * ignore-delete (a newest -D deletes the row; ignored, the older record
 * would be the row). Deletion-vector tables are left out (their batch
 * read merges nothing).
 */
static bool
newest_record_decides(const pm_schema *s)
{
	return pm_schema_option_is(s, "merge-engine", "deduplicate", "deduplicate") &&
		pm_schema_option(s, "sequence.field") == NULL &&
		!pm_schema_bool_option(s, "ignore-delete", false) &&
		!pm_schema_bool_option(s, "deduplicate.ignore-delete", false) &&
		!pm_schema_bool_option(s, "deletion-vectors.enabled", false);
}

pm_code
pm_point_lookup_plan(pm_scan *base, const pm_predicate *pred, pm_scan **out,
					 pm_point_lookup_stats *st, pm_error *err)
{
	return pm_point_lookup_plan_on(base->table, base, pred, out, st, err);
}

pm_code
pm_point_lookup_plan_on(pm_table *t, pm_scan *base, const pm_predicate *pred, pm_scan **out,
						pm_point_lookup_stats *st, pm_error *err)
{
	pm_arena   *arena;
	pm_arena   *tmp = NULL;
	pm_scan    *scan;
	key_set		ks;
	key_column	kc = {0};
	bucket_of_key bk;
	pm_field_range *ranges;
	int		   *split_keys;
	int		   *file_keys;
	int		   *live_keys;
	bool	   *key_present;
	int64_t    *key_newest_min;
	bool		found;
	pm_point_lookup_stats my = {0};
	int32_t		one_bucket = -1;
	pm_file_rows *my_rows = NULL;
	int			nsel = 0;
	int			sel_cap = 0;
	bool		newest_decides;
	pm_code		rc = PM_OK;

	*out = NULL;
	if (!base->needs_merge || pred == NULL)
		return PM_OK;
	if ((arena = pm_arena_create(t->env)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	scan = pm_arena_zalloc(arena, sizeof(pm_scan));
	if (scan == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	scan->table = t;
	scan->arena = arena;
	rc = extract_keys(t, pred, arena, &ks, &found, err);
	if (rc != PM_OK || !found)
	{
		pm_arena_destroy(arena);
		return rc;
	}
	scan->options = base->options;
	scan->needs_merge = true;
	/* the row selections the base's file indexes made (sorted by file, in base's arena) */
	scan->nfile_rows = base->nfile_rows;
	scan->file_rows = base->file_rows;
	scan->stats = base->stats;
	scan->stats.files_selected = scan->stats.rows_selected = scan->stats.bytes_selected = 0;
	scan->stats.splits = scan->stats.partitions_selected = 0;
	scan->stats.row_groups_total = scan->stats.row_groups_pruned = 0;
	scan->stats.row_groups_unselected = scan->stats.stripes_unselected = 0;
	scan->stats.stripes_total = scan->stats.stripes_pruned = scan->stats.stripes_bloom_pruned = 0;
	if (base->options.prune_row_groups &&
		(scan->filter = pm_predicate_copy(arena, pred, t->schema->row_type)) == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	ranges = pm_arena_zalloc(arena, sizeof(pm_field_range) * (t->schema->row_type->nfields + 1));
	split_keys = pm_arena_zalloc(arena, sizeof(int) * (ks.nkeys + 1));
	file_keys = pm_arena_zalloc(arena, sizeof(int) * (ks.nkeys + 1));
	live_keys = pm_arena_zalloc(arena, sizeof(int) * (ks.nkeys + 1));
	key_present = pm_arena_zalloc(arena, sizeof(bool) * (ks.nkeys + 1));
	key_newest_min = pm_arena_zalloc(arena, sizeof(int64_t) * (ks.nkeys + 1));
	scan->splits = pm_arena_zalloc(arena, sizeof(pm_split) * (base->nsplits + 1));
	if (rc == PM_OK && (ranges == NULL || split_keys == NULL || file_keys == NULL ||
						live_keys == NULL || key_present == NULL || key_newest_min == NULL ||
						scan->splits == NULL || (tmp = pm_arena_create(t->env)) == NULL))
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (rc == PM_OK)
		rc = bucket_of_key_init(t, &ks, arena, &bk, err);
	newest_decides = newest_record_decides(t->schema);
	my.lookups = 1;
	my.keys = ks.nkeys;
	for (int s = 0; rc == PM_OK && s < base->nsplits; s++)
	{
		const pm_split *sp = &base->splits[s];
		pm_split   *dst = &scan->splits[scan->nsplits];
		int			nsk = 0;
		pm_predicate *split_kp = NULL;	/* of split_keys, once asked */
		const int  *order = NULL;	/* the order files are probed in; NULL: the split's */
		bool	   *kept;			/* per file: read */
		const pm_row_selection **kept_sel;	/* ... the keys' rows */
		bool	   *kept_exact;		/* ... each of which holds a key */

		if (!partition_may_match(t, sp, pred, ranges))
		{
			scan->stats.files_pruned_partition += sp->nfiles;
			continue;
		}
		for (int k = 0; k < ks.nkeys; k++)
			if (key_in_bucket(&bk, &ks, k, sp))
				split_keys[nsk++] = k;
		if (nsk == 0)
		{
			scan->stats.files_pruned_bucket += sp->nfiles;
			continue;
		}
		if (bk.usable && sp->bucket >= 0 && sp->total_buckets > 0)
		{
			my.buckets++;
			one_bucket = my.buckets == 1 ? sp->bucket : -1;
		}
		*dst = *sp;
		dst->nfiles = 0;
		dst->row_count = 0;
		dst->files = pm_arena_zalloc(arena, sizeof(pm_data_file_meta *) * (sp->nfiles + 1));
		kept = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (sp->nfiles + 1));
		kept_sel = pm_arena_zalloc(arena, sizeof(pm_row_selection *) * (size_t) (sp->nfiles + 1));
		kept_exact = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (sp->nfiles + 1));
		if (dst->files == NULL || kept == NULL || kept_sel == NULL || kept_exact == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			break;
		}
		/*
		 * A deduplicate table: the files newest first, so that once a key
		 * is surely in one, the files all of whose records are older are
		 * not probed for it (shadowed for it; a file shadowed for every
		 * key is not read). key_newest_min[k]: the largest min sequence
		 * number of a file surely holding key k.
		 */
		if (newest_decides && (order = newest_first(t, base, s, arena)) == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			break;
		}
		for (int j = 0; j < nsk; j++)
			key_newest_min[split_keys[j]] = -1;
		for (int k = 0; k < sp->nfiles; k++)
		{
			int			i = order != NULL ? order[k] : k;
			const pm_data_file_meta *f = sp->files[i];
			pm_value   *min,
					   *max;
			const int  *live = split_keys;	/* the keys f may decide */
			int			nlive = nsk;
			int			nfk = 0;
			bool		skips = false;
			bool		ranged;
			const pm_row_selection *sel = NULL;
			bool		exact = false;

			my.files_probed++;
			if (newest_decides)
			{
				nlive = 0;
				for (int j = 0; j < nsk; j++)
					if (f->max_sequence_number >= key_newest_min[split_keys[j]])
						live_keys[nlive++] = split_keys[j];
				live = live_keys;
			}
			if (nlive == 0)
			{
				my.shadowed++;
				scan->stats.files_pruned_stats++;
				continue;
			}
			pm_arena_reset(tmp);
			if ((ranged = kept_key_range(t, &ks, base, s, i, tmp, &min, &max)))
			{
				for (int j = 0; j < nlive; j++)
				{
					const pm_value *key = &ks.values[(size_t) live[j] * ks.nfields];
					int			lo = key_compare(&ks, key, min);
					int			hi = key_compare(&ks, key, max);

					if (lo == 2 || hi == 2 || (lo >= 0 && hi <= 0))
						file_keys[nfk++] = live[j];
				}
			}
			else
			{
				memcpy(file_keys, live, sizeof(int) * nlive);
				nfk = nlive;
			}
			if (nfk == 0)
			{
				my.key_range_rejects++;
				scan->stats.files_pruned_stats++;
				continue;
			}
			{
				pm_predicate *kp;

				/* every key of the split: the split's predicate, built once */
				if (nfk == nsk)
				{
					if (split_kp == NULL)
						split_kp = keys_predicate(&ks, split_keys, nsk, arena);
					kp = split_kp;
				}
				else
					kp = keys_predicate(&ks, file_keys, nfk, tmp);
				if (kp == NULL)
					rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
				else
					rc = pm_scan_file_index_skips(base, kp, f, tmp, &skips, err);
				if (rc != PM_OK)
					break;
			}
			if (skips)
			{
				my.bloom_rejects++;
				scan->stats.files_pruned_index++;
				continue;
			}
			if (ranged && key_pages_reject(t, &ks, f, file_keys, nfk, &kc, tmp, arena, &sel,
										   key_present, &exact))
			{
				my.key_page_rejects++;
				scan->stats.files_pruned_stats++;
				continue;
			}
			kept[i] = true;
			kept_sel[i] = sel;
			kept_exact[i] = exact;
			if (newest_decides && ranged)
				for (int j = 0; j < nfk; j++)
					if (key_present[j] && f->min_sequence_number > key_newest_min[file_keys[j]])
						key_newest_min[file_keys[j]] = f->min_sequence_number;
		}
		/* the kept files, in the split's order */
		for (int i = 0; rc == PM_OK && i < sp->nfiles; i++)
		{
			const pm_data_file_meta *f = sp->files[i];
			const pm_row_selection *sel = kept_sel[i];

			if (!kept[i])
				continue;
			dst->files[dst->nfiles++] = f;
			dst->row_count += f->row_count;
			/* the key's rows: unless the file indexes already chose some */
			if (sel != NULL && pm_scan_file_rows(base, f) == NULL)
			{
				if (nsel == sel_cap)
				{
					pm_file_rows *grown;

					sel_cap = sel_cap ? 2 * sel_cap : 8;
					grown = pm_arena_alloc(arena, sizeof(pm_file_rows) * (size_t) sel_cap);
					if (grown == NULL)
					{
						rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
						break;
					}
					if (nsel > 0)
						memcpy(grown, my_rows, sizeof(pm_file_rows) * (size_t) nsel);
					my_rows = grown;
				}
				my_rows[nsel].file = f;
				my_rows[nsel].rows = sel;
				my_rows[nsel].keys_placed = true;
				my_rows[nsel].rows_exact = kept_exact[i];
				nsel++;
			}
			if (f->deletion_file != NULL)
				scan->has_deletion_vectors = true;
			my.files_read++;
			scan->stats.files_selected++;
			scan->stats.rows_selected += f->row_count;
			scan->stats.bytes_selected += f->file_size;
		}
		if (dst->nfiles > 0)
		{
			if (scan->nsplits == 0 || scan->splits[scan->nsplits - 1].partition_len != sp->partition_len ||
				memcmp(scan->splits[scan->nsplits - 1].partition, sp->partition,
					   (size_t) sp->partition_len) != 0)
				scan->stats.partitions_selected++;
			scan->nsplits++;
		}
	}
	pm_arena_destroy(tmp);
	if (rc != PM_OK)
	{
		pm_arena_destroy(arena);
		return rc;
	}
	scan->stats.splits = scan->nsplits;
	/* the base's row selections and the keys' rows, sorted by file */
	if (nsel > 0)
	{
		pm_file_rows *all = pm_arena_alloc(arena, sizeof(pm_file_rows) *
										   (size_t) (base->nfile_rows + nsel));

		if (all == NULL)
		{
			pm_arena_destroy(arena);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		if (base->nfile_rows > 0)
			memcpy(all, base->file_rows, sizeof(pm_file_rows) * (size_t) base->nfile_rows);
		memcpy(all + base->nfile_rows, my_rows, sizeof(pm_file_rows) * (size_t) nsel);
		qsort(all, (size_t) (base->nfile_rows + nsel), sizeof(pm_file_rows),
			  cmp_file_rows_by_file);
		scan->file_rows = all;
		scan->nfile_rows = base->nfile_rows + nsel;
		scan->file_rows_cap = scan->nfile_rows;
	}
	{
		int		   *all = pm_arena_zalloc(arena, sizeof(int) * (ks.nkeys + 1));

		if (all == NULL)
		{
			pm_arena_destroy(arena);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		for (int k = 0; k < ks.nkeys; k++)
			all[k] = k;
		if ((scan->key_filter = keys_predicate(&ks, all, ks.nkeys, arena)) == NULL)
		{
			pm_arena_destroy(arena);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
	}
	/* the largest key, field by field in key order */
	{
		const pm_value *max = ks.values;

		for (int k = 1; k < ks.nkeys; k++)
		{
			const pm_value *key = &ks.values[(size_t) k * ks.nfields];

			for (int i = 0; i < ks.nfields; i++)
			{
				int			c = pm_value_compare(ks.key_type->fields[i].type, &key[i], &max[i]);

				if (c != 0)
				{
					if (c > 0)
						max = key;
					break;
				}
			}
		}
		scan->max_key = max;
	}
	my.bucket = one_bucket;
	if (st != NULL)
	{
		st->lookups += my.lookups;
		st->keys += my.keys;
		st->bucket = my.bucket;
		st->buckets += my.buckets;
		st->files_probed += my.files_probed;
		st->key_range_rejects += my.key_range_rejects;
		st->bloom_rejects += my.bloom_rejects;
		st->key_page_rejects += my.key_page_rejects;
		st->shadowed += my.shadowed;
		st->files_read += my.files_read;
	}
	*out = scan;
	return PM_OK;
}

const pm_predicate *
pm_point_lookup_key_filter(const pm_scan *scan)
{
	return scan->key_filter;
}

const pm_value *
pm_point_lookup_max_key(const pm_scan *scan)
{
	return scan->max_key;
}

/* ---- resident lookups (pm_point_lookup_resident) ---- */

/*
 * When a file becomes resident: once lookups probed it RESIDENT_MIN_PROBES
 * times and once per RESIDENT_ROWS_PER_PROBE of its rows (a renting-or-
 * buying rule: reading a file whole costs about 0.3 us a row in a backend,
 * a lookup through its pages some 10 us, so after rows / 32 lookups going
 * on through the pages would have cost as much as the read). With the
 * shared page store on, the read serves every backend of the server and
 * outlives the connection: then after rows / 256.
 */
#define RESIDENT_MIN_PROBES		16
#define RESIDENT_ROWS_PER_PROBE	32
#define RESIDENT_ROWS_PER_PROBE_SHARED	256
/* A file's slots may take this fraction of the page cache's budget. */
#define RESIDENT_BUDGET_SHARE	4
/* A file evicted this many times is not made resident again by this scan. */
#define RESIDENT_MAX_BUILDS		3

/* What resident lookups keep of a file of the base scan. */
typedef struct resident_state
{
	int8_t		state;			/* 0 not asked, 1 counting probes, 2 resident, -1 never */
	int8_t		builds;
	int32_t		probes;
	pm_page_file pf;
} resident_state;

/* What resident lookups keep on a base scan. */
typedef struct resident_base
{
	int8_t		usable;			/* 1 yes; -1 never (the table's rules) */
	key_set		ks;				/* the key field; values: the looked-up key */
	pm_value	key;
	bucket_of_key bk;
	pm_field_range *ranges;		/* partition_may_match's scratch */
} resident_base;

static resident_base *
resident_base_of(pm_table *t, pm_scan *base, pm_error *err, pm_code *rc)
{
	resident_base *rb = base->resident;
	const pm_type *row = t->schema->row_type;
	pm_field   *kf;

	*rc = PM_OK;
	if (rb != NULL)
		return rb->usable > 0 ? rb : NULL;
	if ((rb = pm_arena_zalloc(base->arena, sizeof(resident_base))) == NULL)
		return NULL;
	base->resident = rb;
	rb->usable = -1;
	if (!base->needs_merge || t->ntrimmed_pk != 1 || !newest_record_decides(t->schema) ||
		base->has_deletion_vectors)
		return NULL;
	kf = pm_arena_zalloc(base->arena, sizeof(pm_field));
	rb->ranges = pm_arena_zalloc(base->arena, sizeof(pm_field_range) * (size_t) (row->nfields + 1));
	if (kf == NULL || rb->ranges == NULL)
		return NULL;
	*kf = row->fields[t->trimmed_pk[0]];
	if ((rb->ks.key_type = pm_type_new_row(base->arena, kf, 1, false)) == NULL)
		return NULL;
	rb->ks.nfields = 1;
	rb->ks.fields = t->trimmed_pk;
	rb->ks.nkeys = 1;
	rb->ks.values = &rb->key;
	if ((*rc = bucket_of_key_init(t, &rb->ks, base->arena, &rb->bk, err)) != PM_OK)
		return NULL;
	rb->usable = 1;
	return rb;
}

/*
 * Where file f (with state st) stands for this lookup: 2 resident, 1 due
 * (probed often enough to be made resident now), 0 not yet, -1 never.
 * Counts the probe.
 */
static int
resident_probe(pm_table *t, const pm_data_file_meta *f, resident_state *st)
{
	size_t		fixed;
	pm_resident_col key;

	switch (st->state)
	{
		case 2:
			return 2;
		case 0:
			if (!pm_resident_file_eligible(t, f, &fixed))
			{
				st->state = -1;
				return -1;
			}
			pm_page_file_init(&st->pf, f->path, f->file_size);
			/* made resident by an earlier scan, or another backend (shared store) */
			if (pm_resident_col_pin(t, f, &st->pf, PM_RESIDENT_SLOT_KEY, &key))
			{
				pm_resident_col_unpin(&key);
				st->state = 2;
				return 2;
			}
			st->state = 1;
			st->probes = 0;
			/* FALLTHROUGH */
		case 1:
			if (st->probes < INT32_MAX)
				st->probes++;
			return st->probes >= RESIDENT_MIN_PROBES &&
				st->probes >= f->row_count / (pm_page_store_enabled() ?
											  RESIDENT_ROWS_PER_PROBE_SHARED :
											  RESIDENT_ROWS_PER_PROBE) ? 1 : 0;
		default:
			return -1;
	}
}

/* Make due file f resident (state 2) or never (-1). */
static pm_code
resident_build(pm_table *t, const pm_data_file_meta *f, resident_state *st, pm_error *err)
{
	pm_page_lru_stats ps;
	bool		stored;
	pm_code		rc;

	pm_page_lru_get_stats(&ps);
	rc = pm_resident_file_build(t, f, ps.budget / RESIDENT_BUDGET_SHARE, &stored, err);
	if (rc != PM_OK)
		return rc;
	st->builds++;
	st->state = stored ? 2 : -1;
	return PM_OK;
}

/* A resident file's slot went missing (evicted): count it, back to counting probes. */
static void
resident_lost(resident_state *st)
{
	st->state = st->builds >= RESIDENT_MAX_BUILDS ? -1 : 1;
	st->probes = 0;
}

pm_code
pm_point_lookup_resident(pm_table *t, pm_scan *base, const pm_predicate *pred,
						 const int *fields, int nfields, pm_arena *arena,
						 int *result, pm_batch **out, pm_point_lookup_stats *st,
						 pm_error *err)
{
	resident_base *rb;
	const pm_predicate *leaf;
	const pm_split *sp = NULL;
	pm_lookup_split *ls;
	const int  *order;
	int			s_found = -1;
	int			ncand = 0;
	int			ndue = 0;
	int		   *cand;
	bool		all_ready = true;
	int			winner = -1;
	int64_t		wrow = -1;
	int64_t		key;
	resident_state *wst;
	pm_resident_col c;
	pm_resident_col rows = {0};
	pm_batch   *b = NULL;
	int			kind;
	bool		copied = true;
	pm_code		rc = PM_OK;

	*result = PM_RESIDENT_NO;
	*out = NULL;
	if (pred == NULL || !pm_page_lru_enabled() ||
		(rb = resident_base_of(t, base, err, &rc)) == NULL)
		return rc;
	leaf = pinning_leaf(pred, t->trimmed_pk[0], 0);
	if (leaf == NULL || leaf->nliterals != 1 || leaf->literals[0].is_null)
		return PM_OK;
	rb->key = leaf->literals[0];
	key = rb->key.u.i64;
	/* the one split that may hold the key */
	for (int s = 0; s < base->nsplits; s++)
	{
		if (!partition_may_match(t, &base->splits[s], pred, rb->ranges) ||
			!key_in_bucket(&rb->bk, &rb->ks, 0, &base->splits[s]))
			continue;
		if (s_found >= 0)
			return PM_OK;		/* several: pm_point_lookup_plan_on's */
		s_found = s;
	}
	if (s_found < 0)
	{
		*result = PM_RESIDENT_ABSENT;
		goto counted;
	}
	sp = &base->splits[s_found];
	if ((ls = lookup_split(t, base, s_found)) == NULL ||
		(order = newest_first(t, base, s_found, arena)) == NULL ||
		(cand = pm_arena_alloc(arena, sizeof(int) * (size_t) (sp->nfiles + 1))) == NULL)
		return PM_OK;
	if (ls->resident == NULL &&
		(ls->resident = pm_arena_zalloc(base->arena, sizeof(resident_state) *
										(size_t) (sp->nfiles + 1))) == NULL)
		return PM_OK;
	/*
	 * the files whose key range holds the key: each must be resident; those
	 * due are made so once all the others are resident or due too (a file
	 * made resident alone would serve no lookup)
	 */
	for (int k = 0; k < sp->nfiles; k++)
	{
		int			i = order[k];
		pm_value   *min,
				   *max;
		int			where;

		if (kept_key_range(t, &rb->ks, base, s_found, i, arena, &min, &max) &&
			!min[0].is_null && !max[0].is_null &&
			(key < min[0].u.i64 || key > max[0].u.i64))
			continue;
		cand[ncand++] = i;
		where = resident_probe(t, sp->files[i], &ls->resident[i]);
		if (where < 1)
			all_ready = false;
		else if (where == 1)
			ndue++;
	}
	if (!all_ready)
		return PM_OK;
	for (int k = 0; k < ncand && ndue > 0; k++)
	{
		resident_state *fst = &ls->resident[cand[k]];

		if (fst->state == 1 &&
			(rc = resident_build(t, sp->files[cand[k]], fst, err)) != PM_OK)
			return rc;
		if (fst->state != 2)
			all_ready = false;
	}
	if (!all_ready)
		return PM_OK;
	/* newest first: the first file holding the key decides, unless an older one may be newer */
	for (int k = 0; k < ncand; k++)
	{
		const pm_data_file_meta *f = sp->files[cand[k]];
		resident_state *fst = &ls->resident[cand[k]];

		if (winner >= 0)
		{
			if (f->max_sequence_number >= sp->files[winner]->min_sequence_number)
				return PM_OK;	/* the sequence numbers decide: the merge read's */
			continue;
		}
		if (!pm_resident_col_pin(t, f, &fst->pf, PM_RESIDENT_SLOT_KEY, &c))
		{
			resident_lost(fst);
			return PM_OK;
		}
		wrow = pm_resident_col_find(&c, key);
		pm_resident_col_unpin(&c);
		if (wrow >= 0)
			winner = cand[k];
	}
	if (winner < 0)
	{
		*result = PM_RESIDENT_ABSENT;
		goto counted;
	}
	wst = &ls->resident[winner];
	if (!pm_resident_col_pin(t, sp->files[winner], &wst->pf, PM_RESIDENT_SLOT_ROWS, &rows) ||
		!pm_resident_col_pin(t, sp->files[winner], &wst->pf, PM_RESIDENT_SLOT_KEY, &c))
	{
		pm_resident_col_unpin(&rows);
		resident_lost(wst);
		return PM_OK;
	}
	/* a newest record that retracts (-U, -D): no row (the merge read drops it) */
	kind = pm_resident_row_kind(&rows, wrow);
	if (kind == 1 || kind == 3)
	{
		pm_resident_col_unpin(&rows);
		pm_resident_col_unpin(&c);
		*result = PM_RESIDENT_ABSENT;
		goto counted;
	}
	if ((b = pm_arena_zalloc(arena, sizeof(pm_batch))) == NULL ||
		(b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) (nfields + 1))) == NULL)
		copied = false;
	else
	{
		b->nrows = 1;
		b->first_row = wrow;
		b->ncols = nfields;
	}
	for (int j = 0; copied && j < nfields; j++)
		copied = pm_resident_copy_value(fields[j] == t->trimmed_pk[0] ? &c : &rows, fields[j],
										t->schema->row_type->fields[fields[j]].type, wrow,
										&b->cols[j], arena);
	pm_resident_col_unpin(&rows);
	pm_resident_col_unpin(&c);
	if (!copied)
		return PM_OK;			/* out of memory: the plan and read report it, if any */
	*out = b;
	*result = PM_RESIDENT_FOUND;
counted:
	if (st != NULL)
	{
		st->lookups++;
		st->keys++;
		st->resident++;
		st->files_probed += ncand;
		st->bucket = sp != NULL ? sp->bucket : -1;
	}
	return PM_OK;
}
