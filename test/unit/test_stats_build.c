/*-------------------------------------------------------------------------
 * test_stats_build.c
 *	  Value statistics of written files (table/stats_build.c): stats modes,
 *	  string truncation, dense storage, and the exact bytes Java recorded
 *	  in corpus manifests for Parquet files (rebuilt from the files' rows).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/env.h"
#include "io/fileio.h"
#include "row/binary_row.h"
#include "row/value.h"
#include "table/split.h"
#include "table/stats_build.h"
#include "table/table.h"

static void
check_truncate(const char *in, int n, const char *min, const char *max)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const uint8_t *mn,
			   *mx;
	int32_t		mnl,
				mxl;
	bool		ok;

	assert_true(pm_stats_truncate_string((const uint8_t *) in, (int32_t) strlen(in), n, arena,
										 &mn, &mnl, &mx, &mxl, &ok));
	assert_int_equal(mnl, strlen(min));
	assert_memory_equal(mn, min, mnl);
	if (max == NULL)
		assert_false(ok);
	else
	{
		assert_true(ok);
		assert_int_equal(mxl, strlen(max));
		assert_memory_equal(mx, max, mxl);
	}
	pm_arena_destroy(arena);
}

static void
test_truncate(void **state)
{
	(void) state;
	/* corpus examples (paimon-format-metadata.md §9.2) */
	check_truncate("Two roads diverged in a wood", 16, "Two roads diverg", "Two roads diverh");
	check_truncate("Whether I shall turn out", 16, "Whether I shall ", "Whether I shall!");
	/* fits: unchanged */
	check_truncate("short", 16, "short", "short");
	check_truncate("exactly16chars!!", 16, "exactly16chars!!", "exactly16chars!!");
	/* code points, not bytes: e-acute (2 bytes), CJK (3 bytes) */
	check_truncate("\xc3\xa9\xc3\xa9\xc3\xa9", 2, "\xc3\xa9\xc3\xa9", "\xc3\xa9\xc3\xaa");
	check_truncate("a\xe4\xb8\x80\xe4\xb8\x80", 2, "a\xe4\xb8\x80", "a\xe4\xb8\x81");
	/* U+10FFFF cannot be incremented: walk left, drop what follows */
	check_truncate("ab\xf4\x8f\xbf\xbfz", 3, "ab\xf4\x8f\xbf\xbf", "ac");
	check_truncate("\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbfz", 2, "\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf", NULL);
	/* U+D7FF + 1 is a lone surrogate Java encodes as '?' */
	check_truncate("x\xed\x9f\xbfyz", 2, "x\xed\x9f\xbf", "x?");
	/* U+007F -> U+0080 grows to two bytes */
	check_truncate("\x7f\x7f", 1, "\x7f", "\xc2\x80");
}

static void
test_mode_parse(void **state)
{
	pm_stats_mode m;
	pm_error	err;

	(void) state;
	assert_int_equal(pm_stats_mode_parse("NONE", &m, &err), PM_OK);
	assert_int_equal(m.kind, PM_STATS_MODE_NONE);
	assert_int_equal(pm_stats_mode_parse("Counts", &m, &err), PM_OK);
	assert_int_equal(m.kind, PM_STATS_MODE_COUNTS);
	assert_int_equal(pm_stats_mode_parse("full", &m, &err), PM_OK);
	assert_int_equal(m.kind, PM_STATS_MODE_FULL);
	assert_int_equal(pm_stats_mode_parse("Truncate(7)", &m, &err), PM_OK);
	assert_int_equal(m.kind, PM_STATS_MODE_TRUNCATE);
	assert_int_equal(m.truncate_length, 7);
	assert_int_equal(pm_stats_mode_parse("truncate(0)", &m, &err), PM_ERR_INVALID);
	assert_int_equal(pm_stats_mode_parse("truncate()", &m, &err), PM_ERR_INVALID);
	assert_int_equal(pm_stats_mode_parse("truncate(3) ", &m, &err), PM_ERR_INVALID);
	assert_int_equal(pm_stats_mode_parse("truncate(99999999999)", &m, &err), PM_ERR_INVALID);
	assert_int_equal(pm_stats_mode_parse("min-max", &m, &err), PM_ERR_INVALID);
}

static void
test_modes_of_schema(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_type    *t_int = pm_type_new(arena, PM_TYPE_INT, true);
	pm_field	f[5] = {
		{0, "a", t_int, NULL}, {1, "b", t_int, NULL}, {2, "rowkind", t_int, NULL},
		{3, "c", t_int, NULL}, {4, "d", t_int, NULL}
	};
	const char *keys[] = {"metadata.stats-keep-first-n-columns", "fields.d.stats-mode",
	"metadata.stats-mode"};
	const char *vals[] = {"1", "counts", "full"};
	pm_schema	s;
	pm_stats_mode *m;
	pm_error	err;

	(void) state;
	memset(&s, 0, sizeof(s));
	s.row_type = pm_type_new_row(arena, f, 5, false);
	/* defaults: truncate(16), system-named fields truncate(128) */
	assert_int_equal(pm_stats_modes_of_schema(&s, arena, &m, &err), PM_OK);
	assert_int_equal(m[0].kind, PM_STATS_MODE_TRUNCATE);
	assert_int_equal(m[0].truncate_length, 16);
	assert_int_equal(m[2].truncate_length, 128);
	/* keep first 1 column; per-field mode wins and counts */
	s.noptions = 3;
	s.option_keys = keys;
	s.option_values = vals;
	assert_int_equal(pm_stats_modes_of_schema(&s, arena, &m, &err), PM_OK);
	assert_int_equal(m[0].kind, PM_STATS_MODE_FULL);
	assert_int_equal(m[1].kind, PM_STATS_MODE_NONE);
	assert_int_equal(m[2].kind, PM_STATS_MODE_TRUNCATE);
	assert_int_equal(m[3].kind, PM_STATS_MODE_NONE);
	assert_int_equal(m[4].kind, PM_STATS_MODE_COUNTS);
	vals[2] = "bogus";
	assert_int_equal(pm_stats_modes_of_schema(&s, arena, &m, &err), PM_ERR_INVALID);
	pm_arena_destroy(arena);
}

/* Dense store: none columns dropped, counts keep the null count only. */
static void
test_dense(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_type    *t_int = pm_type_new(arena, PM_TYPE_INT, true);
	pm_type    *t_str = pm_type_new(arena, PM_TYPE_VARCHAR, true);
	pm_type    *t_arr = pm_type_new_array(arena, t_int, true);
	pm_type    *t_bin = pm_type_new(arena, PM_TYPE_VARBINARY, true);
	pm_field	f[5] = {
		{0, "i", t_int, NULL}, {1, "s", t_str, NULL}, {2, "arr", t_arr, NULL},
		{3, "bin", t_bin, NULL}, {4, "n", t_int, NULL}
	};
	pm_type    *row = pm_type_new_row(arena, f, 5, false);
	pm_stats_mode modes[5] = {
		{PM_STATS_MODE_FULL, 0}, {PM_STATS_MODE_TRUNCATE, 3}, {PM_STATS_MODE_FULL, 0},
		{PM_STATS_MODE_FULL, 0}, {PM_STATS_MODE_COUNTS, 0}
	};
	pm_column_stats c[5];
	pm_simple_stats st;
	const char **cols;
	int			ncols;
	pm_error	err;
	pm_type    *kept;

	(void) state;
	memset(c, 0, sizeof(c));
	c[0].has_min_max = true;
	c[0].min.u.i64 = -5;
	c[0].max.u.i64 = 9;
	c[0].null_count = 1;
	c[1].has_min_max = true;
	c[1].min.u.bytes.ptr = (const uint8_t *) "apple";
	c[1].min.u.bytes.len = 5;
	c[1].max.u.bytes.ptr = (const uint8_t *) "pear";
	c[1].max.u.bytes.len = 4;
	c[2].null_count = 0;
	c[3].has_min_max = true;	/* Java has none for binaries (1.4.2 Parquet) */
	c[3].min.u.bytes.ptr = (const uint8_t *) "x";
	c[3].min.u.bytes.len = 1;
	c[3].max = c[3].min;
	c[3].null_count = 2;
	c[4].has_min_max = true;
	c[4].null_count = 4;
	/* the nested column is "none" whatever its mode: dropped */
	assert_int_equal(pm_value_stats_build(row, modes, true, c, arena, &st, &cols, &ncols, &err),
					 PM_OK);
	assert_int_equal(ncols, 4);
	assert_string_equal(cols[0], "i");
	assert_string_equal(cols[1], "s");
	assert_string_equal(cols[2], "bin");
	assert_string_equal(cols[3], "n");
	assert_int_equal(st.nnull_counts, 4);
	assert_int_equal(st.null_counts[0], 1);
	assert_int_equal(st.null_counts[1], 0);
	assert_int_equal(st.null_counts[2], 2);
	assert_int_equal(st.null_counts[3], 4);
	{
		pm_field	kf4[4] = {f[0], f[1], f[3], f[4]};
		pm_value	v4[4];

		kept = pm_type_new_row(arena, kf4, 4, true);
		assert_int_equal(pm_binary_row_decode_serialized(st.max_values, st.max_values_len, kept,
														 v4, &err), PM_OK);
		assert_int_equal(v4[0].u.i64, 9);
		assert_int_equal(v4[1].u.bytes.len, 3);
		assert_memory_equal(v4[1].u.bytes.ptr, "peb", 3);	/* "pear" -> "peb" */
		assert_true(v4[2].is_null);
		assert_true(v4[3].is_null);
	}
	/* not dense: all five columns, the nested one with a null count of null */
	assert_int_equal(pm_value_stats_build(row, modes, false, c, arena, &st, &cols, &ncols, &err),
					 PM_OK);
	assert_int_equal(ncols, -1);
	assert_null(cols);
	assert_int_equal(st.nnull_counts, 5);
	assert_int_equal(st.null_counts[2], -1);
	pm_arena_destroy(arena);
}

/* ---- Java's recorded stats, rebuilt from the rows of its Parquet files ---- */

/* Exact column stats of the rows of one file, as the format writer reports them. */
static void
file_column_stats(pm_table *table, const pm_data_file_meta *file, const pm_type *row,
				  pm_arena *arena, pm_column_stats *stats)
{
	int			n = row->nfields;
	int		   *fields = calloc((size_t) n, sizeof(int));
	bool	   *nan = calloc((size_t) n, sizeof(bool));
	pm_data_file_reader *r;
	pm_batch   *b;
	pm_error	err;

	for (int i = 0; i < n; i++)
		fields[i] = i;
	memset(stats, 0, sizeof(pm_column_stats) * (size_t) n);
	assert_int_equal(pm_data_file_reader_open(table, file, fields, n, false, 0, &r, &err), PM_OK);
	while (pm_data_file_reader_next(r, &b, &err) == PM_OK && b != NULL)
	{
		for (int c = 0; c < n; c++)
		{
			const pm_type *t = row->fields[c].type;

			for (int64_t i = 0; i < b->nrows; i++)
			{
				pm_value	v;

				if (pm_vector_is_null(&b->cols[c], i))
				{
					stats[c].null_count++;
					continue;
				}
				if (!pm_vector_value(&b->cols[c], i, &v))
					continue;
				if ((t->id == PM_TYPE_FLOAT || t->id == PM_TYPE_DOUBLE) && isnan(v.u.f64))
					nan[c] = true;
				if (pm_type_is_varlen(t->id))
				{
					uint8_t    *copy = pm_arena_alloc(arena, (size_t) v.u.bytes.len + 1);

					memcpy(copy, v.u.bytes.ptr, (size_t) v.u.bytes.len);
					v.u.bytes.ptr = copy;
				}
				if (!stats[c].has_min_max)
				{
					stats[c].has_min_max = true;
					stats[c].min = v;
					stats[c].max = v;
				}
				else
				{
					if (pm_value_compare(t, &v, &stats[c].min) < 0)
						stats[c].min = v;
					if (pm_value_compare(t, &v, &stats[c].max) > 0)
						stats[c].max = v;
				}
			}
		}
	}
	pm_data_file_reader_close(r);
	for (int c = 0; c < n; c++)
		if (nan[c])
			stats[c].has_min_max = false;
	free(fields);
	free(nan);
}

/*
 * Stats rows equal: byte for byte, except that writers before 1.2 left
 * NULL non-compact DECIMAL/TIMESTAMP without their reserved 8/16 bytes
 * (InternalRowSerializer writeNulls, apache/paimon#5483); then the values.
 */
static void
check_rows(const char *rel, const char *file, const pm_type *row, const char **cols, int ncols,
		   const uint8_t *ours, int32_t ours_len, const uint8_t *java, int32_t java_len,
		   pm_arena *arena)
{
	pm_field   *kf = pm_arena_alloc(arena, sizeof(pm_field) * (size_t) (row->nfields + 1));
	int			nk = 0;
	bool		non_compact = false;
	pm_type    *kt;
	pm_value   *a,
			   *b;
	pm_error	err;

	if (ours_len == java_len && memcmp(ours, java, (size_t) ours_len) == 0)
		return;
	for (int i = 0; i < row->nfields; i++)
	{
		const pm_type *t = row->fields[i].type;
		bool		kept = ncols < 0;

		for (int k = 0; k < ncols && !kept; k++)
			kept = strcmp(cols[k], row->fields[i].name) == 0;
		if (!kept)
			continue;
		kf[nk++] = row->fields[i];
		if ((t->id == PM_TYPE_DECIMAL && t->precision > 18) ||
			((t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) && t->precision > 3))
			non_compact = true;
	}
	if (!non_compact)
		fail_msg("%s %s: stats rows differ", rel, file);
	kt = pm_type_new_row(arena, kf, nk, true);
	a = pm_arena_alloc(arena, sizeof(pm_value) * (size_t) (nk + 1));
	b = pm_arena_alloc(arena, sizeof(pm_value) * (size_t) (nk + 1));
	assert_int_equal(pm_binary_row_decode_serialized(ours, (size_t) ours_len, kt, a, &err), PM_OK);
	assert_int_equal(pm_binary_row_decode_serialized(java, (size_t) java_len, kt, b, &err), PM_OK);
	for (int i = 0; i < nk; i++)
	{
		if (a[i].is_null != b[i].is_null ||
			(!a[i].is_null && !pm_type_is_nested(kf[i].type->id) &&
			 pm_value_compare(kf[i].type, &a[i], &b[i]) != 0))
			fail_msg("%s %s: stats of %s differ", rel, file, kf[i].name);
	}
}

static int
check_table_stats(const char *rel)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = strdup(unit_corpus_path(rel));
	pm_table   *table;
	pm_scan    *scan;
	pm_error	err;
	const pm_schema *schema;
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_stats_mode *modes;
	const char *dense_opt;
	bool		dense;
	int			checked = 0;

	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	schema = pm_table_schema(table);
	dense_opt = pm_schema_option(schema, "metadata.stats-dense-store");
	dense = dense_opt == NULL || strcasecmp(dense_opt, "false") != 0;
	assert_int_equal(pm_stats_modes_of_schema(schema, arena, &modes, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	for (int s = 0; s < pm_scan_split_count(scan); s++)
	{
		const pm_split *sp = pm_scan_get_split(scan, s);

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *file = sp->files[f];
			const pm_type *row = schema->row_type;
			pm_column_stats *cs;
			pm_simple_stats st;
			const char **cols;
			int			ncols;

			if (file->format != PM_FORMAT_PARQUET || file->schema_id != schema->id)
				continue;
			cs = pm_arena_alloc(arena, sizeof(*cs) * (size_t) row->nfields);
			file_column_stats(table, file, row, arena, cs);
			assert_int_equal(pm_value_stats_build(row, modes, dense, cs, arena, &st, &cols, &ncols,
												  &err), PM_OK);
			if (ncols != file->nvalue_stats_cols)
				fail_msg("%s %s: %d stats cols, Java %d", rel, file->file_name, ncols,
						 file->nvalue_stats_cols);
			for (int i = 0; i < ncols; i++)
				assert_string_equal(cols[i], file->value_stats_cols[i]);
			assert_int_equal(st.nnull_counts, file->value_stats.nnull_counts);
			for (int i = 0; i < st.nnull_counts; i++)
				assert_int_equal(st.null_counts[i], file->value_stats.null_counts[i]);
			check_rows(rel, file->file_name, row, cols, ncols, st.min_values, st.min_values_len,
					   file->value_stats.min_values, file->value_stats.min_values_len, arena);
			check_rows(rel, file->file_name, row, cols, ncols, st.max_values, st.max_values_len,
					   file->value_stats.max_values, file->value_stats.max_values_len, arena);
			checked++;
		}
	}
	pm_scan_free(scan);
	pm_table_close(table);
	pm_arena_destroy(arena);
	free(dir);
	pm_local_fileio_destroy(io);
	return checked;
}

static void
test_corpus_parquet_stats(void **state)
{
	static const char *const tables[] = {
		"tables/parquet/parquet_append_table.db/parquet_append_table",
		"tables/parquet/append_10.db/append_10",
		"tables/parquet/append_complex_data.db/append_complex_data",
		"tables/parquet/append_with_multiple_ts_precision_and_timezone.db/append_with_multiple_ts_precision_and_timezone",
		"tables/parquet/append_with_bitmap.db/append_with_bitmap",
	};
	int			checked = 0;

	(void) state;
	unit_require_corpus();
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		checked += check_table_stats(tables[i]);
	assert_true(checked >= 5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncate),
		cmocka_unit_test(test_mode_parse),
		cmocka_unit_test(test_modes_of_schema),
		cmocka_unit_test(test_dense),
		cmocka_unit_test(test_corpus_parquet_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
