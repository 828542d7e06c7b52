/*-------------------------------------------------------------------------
 * test_table_append.c
 *	  Every append-table case of the shared corpus (expected/<case>.json with
 *	  table_kind "append") read through pm_table_open -> pm_table_scan_plan
 *	  -> pm_scan_reader and compared, as a multiset, with the expected rows.
 *
 * Predicate cases: the SQL predicate text is translated here into a
 * pm_predicate (a small parser for the shapes the corpus uses) and
 * evaluated on the rows read; the scan is planned twice, without the
 * predicate and with it (pruning must never drop a matching row), and the
 * pruning funnel must add up.
 *
 * Values are compared in the expected files' JSON encoding (README of
 * expected/): each value is rendered to canonical JSON text.
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "corpus_case.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "row/value.h"
#include "table/split.h"
#include "table/table.h"


static void
test_case(void **state)
{
	corpus_case_check(*state, false);
}

/* ---- pruning funnel on a partitioned table ------------------------------ */

static void
test_partition_pruning_funnel(void **state)
{
	pm_fileio  *io;
	char	   *dir;
	pm_table   *table;
	pm_scan    *scan;
	pm_error	err;
	pm_predicate leaf;
	pm_value	lit;
	const pm_scan_stats *st;
	int64_t		total;

	(void) state;
	unit_require_corpus();		/* before allocating: a skip does not free */
	io = pm_local_fileio_create(pm_env_default());
	dir = strdup(unit_corpus_path("tables/orc/multi_partition_append_table.db/multi_partition_append_table"));
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	total = pm_scan_get_stats(scan)->files_total;
	assert_true(total > 0);
	assert_int_equal(pm_scan_get_stats(scan)->files_selected, total);
	for (int i = 0; i < pm_scan_split_count(scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		assert_int_equal(sp->npartition_values, 2);
		assert_true(sp->nfiles > 0);
		assert_true(strstr(sp->bucket_path, "/f1=") != NULL);
	}
	pm_scan_free(scan);

	/* f1 = 20: every f1=10 file is pruned by partition */
	memset(&leaf, 0, sizeof(leaf));
	memset(&lit, 0, sizeof(lit));
	lit.u.i64 = 20;
	leaf.op = PM_PRED_EQ;
	leaf.field = pm_type_field_index(pm_table_schema(table)->row_type, "f1");
	leaf.nliterals = 1;
	leaf.literals = &lit;
	assert_int_equal(pm_table_scan_plan(table, &leaf, &scan, &err), PM_OK);
	st = pm_scan_get_stats(scan);
	assert_int_equal(st->files_total, total);
	assert_true(st->files_pruned_partition > 0);
	assert_int_equal(st->files_selected + st->files_pruned_partition + st->files_pruned_stats,
					 total);
	for (int i = 0; i < pm_scan_split_count(scan); i++)
		assert_int_equal(pm_scan_get_split(scan, i)->partition_values[0].u.i64, 20);
	pm_scan_free(scan);

	/* f1 = 30: nothing left, no manifest needs reading, the funnel still adds up */
	lit.u.i64 = 30;
	assert_int_equal(pm_table_scan_plan(table, &leaf, &scan, &err), PM_OK);
	assert_int_equal(pm_scan_get_stats(scan)->files_selected, 0);
	assert_int_equal(pm_scan_get_stats(scan)->files_total, total);
	assert_int_equal(pm_scan_get_stats(scan)->files_pruned_partition, total);
	assert_int_equal(pm_scan_get_stats(scan)->manifests_read, 0);
	assert_int_equal(pm_scan_split_count(scan), 0);
	pm_scan_free(scan);

	/* a time-travel id that does not exist */
	{
		pm_table_open_options o = {0};

		o.snapshot_id = 999;
		pm_table   *t2;

		assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t2, &err), PM_ERR_NOT_FOUND);
	}
	pm_table_close(table);
	pm_local_fileio_destroy(io);
	free(dir);
}

/* ---- pruning soundness: every table, every scalar column ---------------- */

static bool
prunable_type(pm_type_id id)
{
	return !pm_type_is_nested(id) && id != PM_TYPE_VARIANT && id != PM_TYPE_BLOB;
}

/* rows of the table matching pred, read from a scan planned with plan_filter */
static int64_t
count_matching(pm_table *table, const pm_predicate *plan_filter, const pm_predicate *pred,
			   int field, pm_scan_stats *stats)
{
	pm_scan    *scan;
	pm_scan_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		n = 0;
	const pm_type *row = pm_table_schema(table)->row_type;
	int		   *col_of_field = calloc(row->nfields + 1, sizeof(int));

	assert_int_equal(pm_table_scan_plan(table, plan_filter, &scan, &err), PM_OK);
	*stats = *pm_scan_get_stats(scan);
	assert_int_equal(pm_scan_reader_open(scan, &field, 1, &r, &err), PM_OK);
	while (pm_scan_reader_next(r, &b, &err) == PM_OK && b != NULL)
		for (int64_t i = 0; i < b->nrows; i++)
			if (eval(pred, row, b, col_of_field, i))
				n++;
	pm_scan_reader_close(r);
	pm_scan_free(scan);
	free(col_of_field);
	return n;
}

static void
check_pruning_soundness(const char *rel, int64_t *checks, int64_t *pruned,
						int64_t *manifests_skipped)
{
	char	   *dir = strdup(unit_corpus_path(rel));
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table   *table;
	pm_error	err;
	const pm_type *row;

	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	row = pm_table_schema(table)->row_type;
	for (int f = 0; f < row->nfields; f++)
	{
		const pm_type *type = row->fields[f].type;
		pm_value	vals[3];
		int			nvals = 0;
		pm_scan    *scan;
		pm_scan_reader *r;
		pm_batch   *b;

		if (!prunable_type(type->id))
			continue;
		/* a few distinct values of the column, copied out of the batches */
		assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
		assert_int_equal(pm_scan_reader_open(scan, &f, 1, &r, &err), PM_OK);
		while (nvals < 3 && pm_scan_reader_next(r, &b, &err) == PM_OK && b != NULL)
			for (int64_t i = 0; i < b->nrows && nvals < 3; i++)
			{
				pm_value	v = vector_value(&b->cols[0], i);
				bool		dup = false;

				if (v.is_null)
					continue;
				for (int k = 0; k < nvals; k++)
					if (pm_value_compare(type, &vals[k], &v) == 0)
						dup = true;
				if (dup)
					continue;
				if (pm_type_is_varlen(type->id))
				{
					uint8_t    *copy = pm_arena_alloc(arena, v.u.bytes.len + 1);

					memcpy(copy, v.u.bytes.ptr, v.u.bytes.len);
					v.u.bytes.ptr = copy;
				}
				vals[nvals++] = v;
			}
		pm_scan_reader_close(r);
		pm_scan_free(scan);

		for (int k = 0; k <= nvals; k++)
		{
			static const pm_pred_op ops[] = {PM_PRED_EQ, PM_PRED_NE, PM_PRED_LT, PM_PRED_LE,
			PM_PRED_GT, PM_PRED_GE, PM_PRED_IN, PM_PRED_IS_NULL, PM_PRED_IS_NOT_NULL};

			for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
			{
				pm_predicate p;
				pm_scan_stats st_all,
							st_pruned;
				int64_t		all,
							kept;
				bool		null_test = ops[o] == PM_PRED_IS_NULL || ops[o] == PM_PRED_IS_NOT_NULL;

				if ((k == nvals) != null_test)
					continue;
				memset(&p, 0, sizeof(p));
				p.op = ops[o];
				p.field = f;
				p.nliterals = null_test ? 0 : 1;
				p.literals = null_test ? NULL : &vals[k];
				all = count_matching(table, NULL, &p, f, &st_all);
				kept = count_matching(table, &p, &p, f, &st_pruned);
				if (all != kept)
					fail_msg("%s: field %s op %d value #%d: %lld rows, %lld after pruning",
							 rel, row->fields[f].name, (int) ops[o], k, (long long) all,
							 (long long) kept);
				assert_int_equal(st_pruned.files_total, st_all.files_total);
				assert_int_equal(st_pruned.files_selected + st_pruned.files_pruned_partition +
								 st_pruned.files_pruned_bucket + st_pruned.files_pruned_stats +
								 st_pruned.files_pruned_index,
								 st_pruned.files_total);
				(*checks)++;
				*pruned += st_all.files_selected - st_pruned.files_selected;
				*manifests_skipped += st_all.manifests_read - st_pruned.manifests_read;
			}
		}
	}
	pm_table_close(table);
	pm_arena_destroy(arena);
	pm_local_fileio_destroy(io);
	free(dir);
}

static void
test_pruning_soundness(void **state)
{
	char	   *edir;
	DIR		   *d;
	struct dirent *de;
	char	  **seen = NULL;
	int			nseen = 0;
	int64_t		checks = 0,
				pruned = 0,
				manifests_skipped = 0;

	(void) state;
	unit_require_corpus();
	edir = strdup(unit_corpus_path("expected"));
	d = opendir(edir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
	{
		char		path[4096];
		json_t	   *c;
		json_error_t jerr;
		const char *table;
		bool		dup = false;

		if (strstr(de->d_name, ".json") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", edir, de->d_name);
		c = json_load_file(path, 0, &jerr);
		if (c == NULL || strcmp(json_string_value(json_object_get(c, "table_kind")), "append") != 0)
		{
			json_decref(c);
			continue;
		}
		table = json_string_value(json_object_get(c, "table"));
		for (int i = 0; i < nseen; i++)
			if (strcmp(seen[i], table) == 0)
				dup = true;
		if (!dup && strstr(table, "external") == NULL)
		{
			seen = realloc(seen, sizeof(char *) * (nseen + 1));
			seen[nseen++] = strdup(table);
			check_pruning_soundness(table, &checks, &pruned, &manifests_skipped);
		}
		json_decref(c);
	}
	closedir(d);
	print_message("%d tables, %lld single-column predicates, %lld files pruned, %lld manifest "
				  "reads saved, no row lost\n", nseen, (long long) checks, (long long) pruned,
				  (long long) manifests_skipped);
	assert_true(pruned > 0);
	assert_true(manifests_skipped > 0);
	for (int i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(edir);
}

/* ---- schema evolution with type changes (a later schema over old files) -- */

static void
copy_tree(pm_fileio *mem, const char *local, const char *prefix)
{
	DIR		   *d = opendir(local);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
	{
		char		lp[4096],
					mp[4096];
		FILE	   *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(lp, sizeof(lp), "%s/%s", local, de->d_name);
		snprintf(mp, sizeof(mp), "%s/%s", prefix, de->d_name);
		if (de->d_type == DT_DIR)
		{
			copy_tree(mem, lp, mp);
			continue;
		}
		f = fopen(lp, "rb");
		if (f != NULL)
		{
			char	   *buf = malloc(1 << 20);
			size_t		n = fread(buf, 1, 1 << 20, f);
			pm_error	err;

			assert_int_equal(pm_memory_fileio_add(mem, mp, buf, n, &err), PM_OK);
			free(buf);
			fclose(f);
		}
	}
	closedir(d);
}

static void
test_schema_evolution_casts(void **state)
{
	pm_fileio  *mem;
	pm_table   *t;
	pm_scan    *scan;
	pm_scan_reader *r;
	pm_batch   *b;
	pm_error	err;
	const char *schema1 =
		"{\"version\":3,\"id\":1,\"fields\":["
		"{\"id\":3,\"name\":\"f3\",\"type\":\"DOUBLE\"},"
		"{\"id\":0,\"name\":\"name\",\"type\":\"STRING\"},"
		"{\"id\":1,\"name\":\"f1\",\"type\":\"BIGINT\"},"
		"{\"id\":2,\"name\":\"f2\",\"type\":\"STRING\"},"
		"{\"id\":4,\"name\":\"f4\",\"type\":\"BIGINT\"}],"
		"\"highestFieldId\":4,\"partitionKeys\":[\"f1\"],\"primaryKeys\":[],"
		"\"options\":{\"bucket\":\"2\",\"bucket-key\":\"f2\",\"manifest.format\":\"orc\","
		"\"file.format\":\"parquet\"}}";
	int			fields[] = {0, 1, 2, 3, 4};
	rowset		got = {0},
				want = {0};
	static const char *const expected[] = {
		"[11.1,\"Alice\",10,\"1\",null]", "[12.1,\"Bob\",10,\"0\",null]",
		"[13.1,\"Emily\",10,\"0\",null]", "[14.1,\"Lucy\",20,\"1\",null]",
		"[14.1,\"Tony\",10,\"0\",null]"
	};

	(void) state;
	unit_require_corpus();
	mem = pm_memory_fileio_create(pm_env_default());
	copy_tree(mem, unit_corpus_path("tables/parquet/append_10.db/append_10"), "/t");
	assert_int_equal(pm_memory_fileio_add(mem, "/t/schema/schema-1", schema1, strlen(schema1), &err),
					 PM_OK);
	assert_int_equal(pm_table_open(pm_env_default(), mem, "/t", NULL, &t, &err), PM_OK);
	assert_int_equal(pm_table_schema(t)->id, 1);
	assert_int_equal(pm_table_scan_plan(t, NULL, &scan, &err), PM_OK);
	assert_int_equal(pm_scan_reader_open(scan, fields, 5, &r, &err), PM_OK);
	for (;;)
	{
		if (pm_scan_reader_next(r, &b, &err) != PM_OK)
			fail_msg("%s", err.message);
		if (b == NULL)
			break;
		assert_int_equal(b->cols[2].type->id, PM_TYPE_BIGINT);
		assert_int_equal(b->cols[3].type->id, PM_TYPE_VARCHAR);
		assert_int_equal(b->cols[4].type->id, PM_TYPE_BIGINT);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			sbuf		sb = {0};

			sb_str(&sb, "[");
			for (int c = 0; c < 5; c++)
			{
				if (c > 0)
					sb_str(&sb, ",");
				fmt_value(&sb, &b->cols[c], i);
			}
			sb_str(&sb, "]");
			rowset_add(&got, sb.s);
		}
	}
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		rowset_add(&want, strdup(expected[i]));
	compare_rows("schema_evolution_casts", &got, &want);
	rowset_free(&got);
	rowset_free(&want);
	pm_scan_reader_close(r);
	pm_scan_free(scan);
	pm_table_close(t);
	pm_memory_fileio_destroy(mem);
}

/*
 * orc.timestamp-ltz.legacy.type reaches the ORC reader: true/false in any case
 * read the table, another value is PM_ERR_INVALID naming the option (Java's
 * Options refuse it too).
 */
static void
test_orc_ltz_option(void **state)
{
	static const char *const values[] = {"FALSE", "true", "yes"};

	(void) state;
	unit_require_corpus();
	for (int v = 0; v < 3; v++)
	{
		pm_fileio  *mem = pm_memory_fileio_create(pm_env_default());
		pm_table   *t;
		pm_scan    *scan;
		pm_scan_reader *r = NULL;
		pm_batch   *b;
		pm_error	err;
		int			fields[] = {0};
		int64_t		rows = 0;
		pm_code		rc;
		char		schema[512];

		copy_tree(mem, unit_corpus_path("tables/orc/nullable_map_key.db/nullable_map_key"), "/t");
		snprintf(schema, sizeof(schema),
				 "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"id\",\"type\":\"INT\"},"
				 "{\"id\":1,\"name\":\"attrs\",\"type\":{\"type\":\"MAP\",\"key\":\"STRING\","
				 "\"value\":\"INT\"}}],\"highestFieldId\":1,\"partitionKeys\":[],\"primaryKeys\":[],"
				 "\"options\":{\"bucket\":\"-1\",\"file.format\":\"orc\","
				 "\"orc.timestamp-ltz.legacy.type\":\"%s\"},\"timeMillis\":1785815466343}", values[v]);
		assert_int_equal(pm_memory_fileio_add(mem, "/t/schema/schema-0", schema, strlen(schema),
											  &err), PM_OK);
		assert_int_equal(pm_table_open(pm_env_default(), mem, "/t", NULL, &t, &err), PM_OK);
		rc = pm_table_scan_plan(t, NULL, &scan, &err);
		if (v < 2)
		{
			assert_int_equal(rc, PM_OK);
			rc = pm_scan_reader_open(scan, fields, 1, &r, &err);
			while (rc == PM_OK && (rc = pm_scan_reader_next(r, &b, &err)) == PM_OK && b != NULL)
				rows += b->nrows;
			if (rc != PM_OK)
				fail_msg("%s: %s", values[v], err.message);
			assert_true(rows > 0);
			pm_scan_reader_close(r);
			pm_scan_free(scan);
		}
		else
		{
			/* a value Java's boolean parser refuses: the table option list refuses it */
			assert_int_equal(rc, PM_ERR_UNSUPPORTED);
			assert_non_null(strstr(err.message, "orc.timestamp-ltz.legacy.type"));
		}
		pm_table_close(t);
		pm_memory_fileio_destroy(mem);
	}
}

/* ---- bucket pruning on a fixed-bucket append table (bucket-key f2) ------ */

static void
test_bucket_pruning(void **state)
{
	pm_fileio  *io;
	char	   *dir;
	pm_table   *table;
	pm_error	err;
	int64_t		pruned = 0;

	(void) state;
	unit_require_corpus();
	io = pm_local_fileio_create(pm_env_default());
	dir = strdup(unit_corpus_path("tables/parquet/append_09.db/append_09"));
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	for (int v = -1; v <= 3; v++)
	{
		const pm_type *row = pm_table_schema(table)->row_type;
		int			f2 = pm_type_field_index(row, "f2");
		pm_predicate leaf;
		pm_value	lit;
		pm_scan    *scan;
		pm_scan_reader *r;
		pm_batch   *b;
		int64_t		with = 0,
					without = 0;

		memset(&leaf, 0, sizeof(leaf));
		memset(&lit, 0, sizeof(lit));
		lit.u.i64 = v;
		leaf.op = PM_PRED_EQ;
		leaf.field = f2;
		leaf.nliterals = 1;
		leaf.literals = &lit;
		for (int pass = 0; pass < 2; pass++)
		{
			const pm_scan_stats *st;

			assert_int_equal(pm_table_scan_plan(table, pass ? &leaf : NULL, &scan, &err), PM_OK);
			st = pm_scan_get_stats(scan);
			assert_int_equal(st->files_selected + st->files_pruned_bucket + st->files_pruned_stats +
							 st->files_pruned_partition, st->files_total);
			if (pass)
				pruned += st->files_pruned_bucket;
			assert_int_equal(pm_scan_reader_open(scan, &f2, 1, &r, &err), PM_OK);
			while (pm_scan_reader_next(r, &b, &err) == PM_OK && b != NULL)
				for (int64_t i = 0; i < b->nrows; i++)
					if (!pm_vector_is_null(&b->cols[0], i) &&
						PM_VEC_VALUES(&b->cols[0], int32_t)[i] == v)
						(*(pass ? &with : &without))++;
			pm_scan_reader_close(r);
			pm_scan_free(scan);
		}
		assert_int_equal(with, without);
	}
	assert_true(pruned > 0);
	pm_table_close(table);
	pm_local_fileio_destroy(io);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest extra[] = {
		cmocka_unit_test(test_partition_pruning_funnel),
		cmocka_unit_test(test_bucket_pruning),
		cmocka_unit_test(test_pruning_soundness),
		cmocka_unit_test(test_schema_evolution_casts),
		cmocka_unit_test(test_orc_ltz_option),
	};
	struct CMUnitTest *tests;
	int			n = corpus_case_tests("append", test_case, extra,
									 (int) (sizeof(extra) / sizeof(extra[0])), &tests);

	return _cmocka_run_group_tests("table_append", tests, n, NULL, NULL);
}
