/*-------------------------------------------------------------------------
 * lookup_changelog.c
 *	  Changelog records of changelog-producer = lookup into changelog files
 *	  (see lookup_changelog.h).
 *
 * Records are gathered column by column (the table's fields, then
 * _SEQUENCE_NUMBER and _VALUE_KIND, the merge reader's compaction layout)
 * into batches of BATCH rows, each handed to a kv_file_writer in
 * changelog mode, opened at the first batch.
 *-------------------------------------------------------------------------
 */
#include "lsm/lookup_changelog.h"

#include <strings.h>
#include <string.h>

#include "common/vector_builder.h"
#include "row/value.h"

#define BATCH 1024

struct pm_changelog_sink
{
	const pm_env *env;
	pm_fileio  *io;
	const pm_kv_layout *layout;
	const char *dir;
	const char *uuid;
	int64_t    *file_counter;
	pm_arena   *meta_arena;
	const pm_changelog_dedup *dedup;
	bool		first_row;
	int			level;			/* of the files (their compression) */
	int			nfields;
	const pm_type *const *types;	/* the schema's fields */
	pm_arena   *arena;			/* the sink and its batch */
	pm_vector  *cols;			/* nfields + 2 */
	pm_vector_builder *builders;
	pm_vector  *file_cols;		/* nkeys + 2 + nfields, for write_merged */
	const pm_vector **vecs;		/* nfields: the record being appended */
	int64_t    *rows;
	pm_kv_file_writer *writer;
	int64_t		records;
};

pm_code
pm_changelog_dedup_parse(const pm_schema *s, pm_arena *arena, pm_changelog_dedup *out,
						 pm_error *err)
{
	const char *v = pm_schema_option(s, "changelog-producer.row-deduplicate");
	const char *ign = pm_schema_option(s, "changelog-producer.row-deduplicate-ignore-fields");
	const pm_type *rt = s->row_type;

	memset(out, 0, sizeof(*out));
	out->enabled = v != NULL && strcasecmp(v, "true") == 0;
	if (!out->enabled)
		return PM_OK;
	out->ignore = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (rt->nfields + 1));
	if (out->ignore == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	/* fromIgnoreFields: split(","), exact names; unknown names ignore nothing */
	while (ign != NULL && *ign != '\0')
	{
		const char *comma = strchr(ign, ',');
		size_t		len = comma != NULL ? (size_t) (comma - ign) : strlen(ign);

		for (int i = 0; i < rt->nfields; i++)
			if (strlen(rt->fields[i].name) == len && memcmp(rt->fields[i].name, ign, len) == 0)
				out->ignore[i] = true;
		ign = comma != NULL ? comma + 1 : NULL;
	}
	for (int i = 0; i < rt->nfields; i++)
	{
		pm_type_id	id = rt->fields[i].type->id;

		if (!out->ignore[i] &&
			(pm_type_is_nested(id) || id == PM_TYPE_VARIANT || id == PM_TYPE_BLOB))
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option changelog-producer.row-deduplicate = \"true\" with column \"%s\" of type %s compared: equality of nested values is not implemented (name it in changelog-producer.row-deduplicate-ignore-fields)",
						   rt->fields[i].name, pm_type_id_name(id));
	}
	return PM_OK;
}

pm_code
pm_changelog_sink_open(const pm_env *env, pm_fileio *io, const pm_kv_layout *layout,
					   const char *dir, const char *uuid, int64_t *file_counter,
					   pm_arena *meta_arena, const pm_changelog_dedup *dedup, bool first_row,
					   pm_changelog_sink **out, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_changelog_sink *s;
	const pm_type *rt = layout->schema->row_type;
	int			nf = rt->nfields;
	const pm_type **types;

	*out = NULL;
	if (arena == NULL || (s = pm_arena_zalloc(arena, sizeof(*s))) == NULL)
	{
		if (arena != NULL)
			pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	s->env = env;
	s->io = io;
	s->layout = layout;
	s->dir = dir;
	s->uuid = uuid;
	s->file_counter = file_counter;
	s->meta_arena = meta_arena;
	s->dedup = dedup;
	s->first_row = first_row;
	s->nfields = nf;
	s->arena = arena;
	types = pm_arena_alloc(arena, sizeof(pm_type *) * (size_t) (nf + 2));
	s->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) (nf + 2));
	s->builders = pm_arena_zalloc(arena, sizeof(pm_vector_builder) * (size_t) (nf + 2));
	s->file_cols = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) (layout->nkeys + 2 + nf));
	s->vecs = pm_arena_zalloc(arena, sizeof(pm_vector *) * (size_t) (nf + 1));
	s->rows = pm_arena_zalloc(arena, sizeof(int64_t) * (size_t) (nf + 1));
	if (types == NULL || s->cols == NULL || s->builders == NULL || s->file_cols == NULL ||
		s->vecs == NULL || s->rows == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	for (int j = 0; j < nf; j++)
		types[j] = rt->fields[j].type;
	types[nf] = layout->file_type->fields[layout->nkeys].type;	/* _SEQUENCE_NUMBER */
	types[nf + 1] = layout->file_type->fields[layout->nkeys + 1].type;	/* _VALUE_KIND */
	s->types = types;
	for (int j = 0; j < nf + 2; j++)
		if (!pm_vector_builder_init(&s->builders[j], &s->cols[j], types[j], BATCH, arena))
		{
			pm_arena_destroy(arena);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
	*out = s;
	return PM_OK;
}

void
pm_changelog_sink_set_level(pm_changelog_sink *s, int level)
{
	s->level = level;
}

/* Write the buffered rows (if any) and empty the buffer. */
static pm_code
flush(pm_changelog_sink *s, pm_error *err)
{
	pm_batch	b;
	int64_t		n = s->cols[0].length;

	if (n == 0)
		return PM_OK;
	if (s->writer == NULL)
	{
		PM_TRY(pm_kv_file_writer_open(s->env, s->io, s->layout, s->dir, s->uuid, s->file_counter,
									  s->meta_arena, &s->writer, err));
		pm_kv_file_writer_set_changelog(s->writer);
		pm_kv_file_writer_set_level(s->writer, s->level);
	}
	memset(&b, 0, sizeof(b));
	b.nrows = n;
	b.ncols = s->nfields + 2;
	b.cols = s->cols;
	PM_TRY(pm_kv_file_writer_write_merged(s->writer, s->layout, &b, s->nfields, s->file_cols,
										  err));
	for (int j = 0; j < s->nfields + 2; j++)
		pm_vector_builder_reset(&s->builders[j]);
	return PM_OK;
}

/* Append one record: the value of field j is row s->rows[j] of s->vecs[j] (NULL vec: NULL). */
static pm_code
append(pm_changelog_sink *s, int64_t seq, int kind, pm_error *err)
{
	const pm_vector *const *vecs = s->vecs;
	const int64_t *rows = s->rows;
	int			nf = s->nfields;
	int64_t		at = s->cols[0].length;
	bool		ok = true;

	for (int j = 0; j < nf && ok; j++)
		ok = vecs[j] != NULL ? pm_vector_builder_append(&s->builders[j], vecs[j], rows[j]) :
			pm_vector_builder_append_null(&s->builders[j]);
	ok = ok && pm_vector_builder_reserve(&s->builders[nf], 1) &&
		pm_vector_builder_reserve(&s->builders[nf + 1], 1);
	if (!ok)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory writing the changelog");
	PM_VEC_VALUES(&s->cols[nf], int64_t)[at] = seq;
	PM_VEC_VALUES(&s->cols[nf + 1], int8_t)[at] = (int8_t) kind;
	for (int j = nf; j < nf + 2; j++)
		if (s->cols[j].nulls != NULL)
			s->cols[j].nulls[at] = 0;
	s->cols[nf].length = at + 1;
	s->cols[nf + 1].length = at + 1;
	s->records++;
	if (at + 1 >= BATCH)
		return flush(s, err);
	return PM_OK;
}

static pm_code
append_before(pm_changelog_sink *s, const pm_kv_record *r, int kind, pm_error *err)
{
	int			off = s->layout->nkeys + 2;

	for (int j = 0; j < s->nfields; j++)
	{
		s->vecs[j] = &r->batch->cols[off + j];
		s->rows[j] = r->row;
	}
	return append(s, r->seq, kind, err);
}

static pm_code
append_after(pm_changelog_sink *s, const pm_merge_cell *after, int64_t seq, int kind,
			 pm_error *err)
{
	for (int j = 0; j < s->nfields; j++)
	{
		s->vecs[j] = after[j].vec;
		s->rows[j] = after[j].row;
	}
	return append(s, seq, kind, err);
}

/* Value j of a record is NULL: a NULL vector (merge cell) or a null bit. */
static bool
cell_value(const pm_vector *v, int64_t row, pm_value *out)
{
	if (v == NULL || pm_vector_is_null(v, row))
	{
		memset(out, 0, sizeof(*out));
		out->is_null = true;
		return true;
	}
	return pm_vector_value(v, row, out);
}

/* RecordEqualiser over the compared fields. */
static bool
values_equal(const pm_changelog_sink *s, const pm_kv_record *before, const pm_merge_cell *after)
{
	int			off = s->layout->nkeys + 2;

	for (int j = 0; j < s->nfields; j++)
	{
		const pm_type *t = s->types[j];
		pm_value	a,
					b;

		if (s->dedup->ignore[j])
			continue;
		if (!cell_value(&before->batch->cols[off + j], before->row, &a) ||
			!cell_value(after[j].vec, after[j].row, &b))
			return false;
		if (a.is_null || b.is_null)
		{
			if (a.is_null != b.is_null)
				return false;
			continue;
		}
		if (t->id == PM_TYPE_FLOAT || t->id == PM_TYPE_DOUBLE)
		{
			/* generated code: == on the primitives */
			if (!(a.u.f64 == b.u.f64))
				return false;
		}
		else if (pm_value_compare(t, &a, &b) != 0)
			return false;
	}
	return true;
}

pm_code
pm_changelog_sink_add(void *ctx, const pm_kv_record *before, const pm_merge_cell *after,
					  int after_kind, int64_t after_seq, pm_error *err)
{
	pm_changelog_sink *s = ctx;
	bool		after_add = pm_rowkind_is_add(after_kind);

	if (s->first_row)
		return append_after(s, after, after_seq, after_kind, err);
	if (before == NULL || !pm_rowkind_is_add(before->kind))
		return after_add ? append_after(s, after, after_seq, PM_ROWKIND_INSERT, err) : PM_OK;
	if (!after_add)
		return append_before(s, before, PM_ROWKIND_DELETE, err);
	if (s->dedup->enabled && values_equal(s, before, after))
		return PM_OK;
	PM_TRY(append_before(s, before, PM_ROWKIND_UPDATE_BEFORE, err));
	return append_after(s, after, after_seq, PM_ROWKIND_UPDATE_AFTER, err);
}

int64_t
pm_changelog_sink_records(const pm_changelog_sink *sink)
{
	return sink->records;
}

pm_code
pm_changelog_sink_close(pm_changelog_sink *s, pm_data_file_meta **files, int *nfiles,
						pm_error *err)
{
	pm_code		rc = flush(s, err);

	*files = NULL;
	*nfiles = 0;
	if (s->writer != NULL)
	{
		if (rc == PM_OK)
			rc = pm_kv_file_writer_close(s->writer, files, nfiles, err);
		else
			pm_kv_file_writer_abort(s->writer, files, nfiles);
	}
	pm_arena_destroy(s->arena);
	return rc;
}

void
pm_changelog_sink_abort(pm_changelog_sink *s, pm_data_file_meta **files, int *nfiles)
{
	*files = NULL;
	*nfiles = 0;
	if (s == NULL)
		return;
	if (s->writer != NULL)
		pm_kv_file_writer_abort(s->writer, files, nfiles);
	pm_arena_destroy(s->arena);
}
