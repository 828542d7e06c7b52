/*-------------------------------------------------------------------------
 * pk_fixture.c
 *	  The primary-key table of the writer and compaction tests (pk_fixture.h).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "lsm/kv_file_writer.h"
#include "lsm/table_read.h"
#include "table/split.h"
#include "table/table.h"
#include "pk_fixture.h"

/* id INT NOT NULL (primary key), name STRING, v BIGINT, w BIGINT */
pm_schema *
make_schema(pm_arena *arena, int nopt, const char **keys, const char **vals)
{
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 4);
	static const char *pk[] = {"id"};

	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, false), NULL};
	f[1] = (pm_field) {0, "name", pm_type_new(arena, PM_TYPE_VARCHAR, true), NULL};
	f[2] = (pm_field) {0, "v", pm_type_new(arena, PM_TYPE_BIGINT, true), NULL};
	f[3] = (pm_field) {0, "w", pm_type_new(arena, PM_TYPE_BIGINT, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 4, false);
	s->nprimary_keys = 1;
	s->primary_keys = pk;
	s->noptions = nopt;
	s->option_keys = keys;
	s->option_values = vals;
	return s;
}

pm_batch *
make_batch(pm_arena *arena, const pm_type *row, const trow *rows, int n)
{
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));
	int64_t		cap = 0;

	b->nrows = n;
	b->ncols = 4;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * 4);
	for (int c = 0; c < 4; c++)
	{
		assert_true(pm_vector_init(&b->cols[c], row->fields[c].type, n, true, arena));
		b->cols[c].length = n;
	}
	for (int i = 0; i < n; i++)
	{
		char		name[32];

		PM_VEC_VALUES(&b->cols[0], int32_t)[i] = rows[i].id;
		if (rows[i].has_name)
		{
			snprintf(name, sizeof(name), "n%lld", (long long) rows[i].v);
			assert_true(pm_vector_append_data(&b->cols[1], &cap, name, (int64_t) strlen(name), arena));
		}
		else
			b->cols[1].nulls[i] = 1;
		b->cols[1].offsets[i + 1] = (int32_t) b->cols[1].data_size;
		if (rows[i].v == INT64_MIN)
			b->cols[2].nulls[i] = 1;
		else
			PM_VEC_VALUES(&b->cols[2], int64_t)[i] = rows[i].v;
		if (rows[i].w == INT64_MIN)
			b->cols[3].nulls[i] = 1;
		else
			PM_VEC_VALUES(&b->cols[3], int64_t)[i] = rows[i].w;
	}
	return b;
}

static void
read_rows(pm_fileio *io, const char *path, int offset, bool check_names, bool key_order,
		  result *r, int *ids)
{
	pm_table   *table;
	pm_scan    *scan;
	pm_table_read *rd;
	pm_batch   *b;
	pm_error	err;
	int			fields[4] = {0, 1, 2, 3};

	memset(r, 0, sizeof(*r));
	if (pm_table_open(pm_env_default(), io, path, NULL, &table, &err) != PM_OK)
		fail_msg("open %s: %s", path, err.message);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	if ((key_order ? pm_table_read_open_ordered(scan, fields, 4, &rd, &err) :
		 pm_table_read_open(scan, fields, 4, &rd, &err)) != PM_OK)
		fail_msg("read: %s", err.message);
	for (;;)
	{
		if (pm_table_read_next(rd, &b, &err) != PM_OK)
			fail_msg("next: %s", err.message);
		if (b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int			id = PM_VEC_VALUES(&b->cols[0], int32_t)[i] + offset;

			assert_true(id >= 0 && id < MAXID);
			assert_false(r->present[id]);
			if (ids != NULL)
				ids[r->nrows] = id;
			r->present[id] = true;
			r->name_null[id] = pm_vector_is_null(&b->cols[1], i);
			r->v[id] = pm_vector_is_null(&b->cols[2], i) ? INT64_MIN : PM_VEC_VALUES(&b->cols[2], int64_t)[i];
			r->w[id] = pm_vector_is_null(&b->cols[3], i) ? INT64_MIN : PM_VEC_VALUES(&b->cols[3], int64_t)[i];
			if (check_names && !r->name_null[id])
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(&b->cols[1], i, &len);
				char		want[32];

				snprintf(want, sizeof(want), "n%lld", (long long) r->v[id]);
				assert_int_equal(len, (int32_t) strlen(want));
				assert_memory_equal(p, want, (size_t) len);
			}
			r->nrows++;
		}
	}
	pm_table_read_close(rd);
	pm_scan_free(scan);
	pm_table_close(table);
}

void
pk_read_rows(pm_fileio *io, const char *path, int offset, bool check_names, result *r, int *ids)
{
	read_rows(io, path, offset, check_names, false, r, ids);
}

void
pk_read_rows_in_key_order(pm_fileio *io, const char *path, result *r, int *ids)
{
	read_rows(io, path, 0, true, true, r, ids);
}

void
read_all_offset(pm_fileio *io, const char *path, result *r, int offset)
{
	pk_read_rows(io, path, offset, true, r, NULL);
}

void
read_all(pm_fileio *io, const char *path, result *r)
{
	pk_read_rows(io, path, 0, true, r, NULL);
}

void
pk_assert_same(const result *a, const result *b)
{
	assert_int_equal(a->nrows, b->nrows);
	for (int i = 0; i < MAXID; i++)
	{
		assert_int_equal(a->present[i], b->present[i]);
		if (!a->present[i])
			continue;
		assert_int_equal(a->name_null[i], b->name_null[i]);
		assert_true(a->v[i] == b->v[i]);
		assert_true(a->w[i] == b->w[i]);
	}
}

pm_table_writer *
open_writer(pm_fileio *io, const char *dir)
{
	pm_table_writer *w;
	pm_error	err;

	if (pm_table_writer_open(pm_env_default(), io, dir, "pk-user", &w, &err) != PM_OK)
		fail_msg("writer: %s", err.message);
	return w;
}

void
write_kinds(pm_table_writer *w, pm_arena *arena, const trow *rows, const uint8_t *kinds, int n)
{
	pm_error	err;
	pm_batch   *b = make_batch(arena, pm_table_writer_schema(w)->row_type, rows, n);

	if (pm_table_writer_write(w, b, kinds, &err) != PM_OK)
		fail_msg("write: %s", err.message);
}

void
commit(pm_table_writer *w, int64_t ident, int64_t want_sid)
{
	pm_error	err;
	int64_t		sid;

	if (pm_table_writer_commit(w, ident, &sid, &err) != PM_OK)
		fail_msg("commit: %s", err.message);
	assert_int_equal(sid, want_sid);
}

void
pk_create(pm_fileio *io, pm_arena *arena, const char *dir, int nopt, const char **keys,
		  const char **vals)
{
	pm_error	err;

	if (pm_table_create(pm_env_default(), io, dir, make_schema(arena, nopt, keys, vals),
						&err) != PM_OK)
		fail_msg("create %s: %s", dir, err.message);
}

void
pk_open_refused(pm_fileio *io, pm_arena *arena, const char *dir, int nopt, const char **keys,
				const char **vals, const char *msg)
{
	pm_table_writer *w;
	pm_error	err;

	pk_create(io, arena, dir, nopt, keys, vals);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "u", &w, &err),
					 PM_ERR_UNSUPPORTED);
	if (strstr(err.message, msg) == NULL)
		fail_msg("%s: \"%s\" lacks \"%s\"", dir, err.message, msg);
}

void
pk_commit_rows(pm_fileio *io, const char *dir, pm_arena *arena, const trow *rows,
			   const uint8_t *kinds, int n, int64_t ident, int64_t want_sid)
{
	pm_table_writer *w = open_writer(io, dir);

	write_kinds(w, arena, rows, kinds, n);
	commit(w, ident, want_sid);
	pm_table_writer_close(w);
}

void
pk_full_compact(pm_fileio *io, const char *dir, const char *partition, pm_compact_result *res)
{
	pm_table   *table;
	pm_error	err;
	pm_compact_options o;

	memset(&o, 0, sizeof(o));
	o.partition = partition;
	if (pm_table_open(pm_env_default(), io, dir, NULL, &table, &err) != PM_OK)
		fail_msg("open %s: %s", dir, err.message);
	if (pm_table_compact(table, dir, &o, res, &err) != PM_OK)
		fail_msg("compact: %s", err.message);
	pm_table_close(table);
}

void
pk_files_open(pm_fileio *io, const char *dir, bool every_level, pk_files *pf)
{
	pm_error	err;
	int			cap = 0;

	memset(pf, 0, sizeof(*pf));
	if (pm_table_open(pm_env_default(), io, dir, NULL, &pf->table, &err) != PM_OK)
		fail_msg("open %s: %s", dir, err.message);
	if ((every_level ? pm_table_scan_plan_every_level(pf->table, &pf->scan, &err) :
		 pm_table_scan_plan(pf->table, NULL, &pf->scan, &err)) != PM_OK)
		fail_msg("plan %s: %s", dir, err.message);
	for (int i = 0; i < pm_scan_split_count(pf->scan); i++)
		cap += pm_scan_get_split(pf->scan, i)->nfiles;
	pf->files = calloc((size_t) cap + 1, sizeof(*pf->files));
	assert_non_null(pf->files);
	for (int i = 0; i < pm_scan_split_count(pf->scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(pf->scan, i);

		for (int f = 0; f < sp->nfiles; f++)
			pf->files[pf->n++] = sp->files[f];
	}
}

void
pk_files_close(pk_files *pf)
{
	free(pf->files);
	pm_scan_free(pf->scan);
	pm_table_close(pf->table);
	memset(pf, 0, sizeof(*pf));
}

pm_batch *
pk_kv_batch(pm_arena *arena, const pm_kv_layout *l, const pm_schema *s, const trow *rows,
			const int64_t *seq, const int8_t *kind, int n)
{
	pm_batch   *t = make_batch(arena, s->row_type, rows, n);
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));

	b->nrows = n;
	b->ncols = 7;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * 7);
	b->cols[0] = t->cols[0];
	assert_true(pm_vector_init(&b->cols[1], l->file_type->fields[1].type, n, false, arena));
	assert_true(pm_vector_init(&b->cols[2], l->file_type->fields[2].type, n, false, arena));
	b->cols[1].length = b->cols[2].length = n;
	for (int i = 0; i < n; i++)
	{
		PM_VEC_VALUES(&b->cols[1], int64_t)[i] = seq[i];
		PM_VEC_VALUES(&b->cols[2], int8_t)[i] = kind[i];
	}
	for (int c = 0; c < 4; c++)
		b->cols[3 + c] = t->cols[c];
	return b;
}

void
pk_kv_file(pm_fileio *io, pm_arena *arena, const char *tdir, const char *dir, const char *uuid,
		   const trow *rows, const int64_t *seq, const int8_t *kind, int n,
		   pm_data_file_meta *meta, pm_kv_layout **layout)
{
	pm_schema  *s;
	pm_write_options *opt = pm_arena_alloc(arena, sizeof(*opt));	/* the layout keeps it */
	pm_kv_file_writer *kw;
	pm_data_file_meta *files;
	int			nfiles;
	int64_t		counter = 0;
	pm_error	err;

	assert_non_null(opt);
	assert_int_equal(pm_schema_load_latest(io, tdir, arena, &s, &err), PM_OK);
	assert_int_equal(pm_write_options_parse(s, arena, opt, &err), PM_OK);
	assert_int_equal(pm_kv_layout_create(s, opt, arena, layout, &err), PM_OK);
	assert_int_equal(pm_kv_file_writer_open(pm_env_default(), io, *layout, dir, uuid, &counter,
											arena, &kw, &err), PM_OK);
	assert_int_equal(pm_kv_file_writer_write(kw, pk_kv_batch(arena, *layout, s, rows, seq, kind, n),
											 &err), PM_OK);
	assert_int_equal(pm_kv_file_writer_close(kw, &files, &nfiles, &err), PM_OK);
	assert_int_equal(nfiles, 1);
	*meta = files[0];
}
