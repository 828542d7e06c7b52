/*-------------------------------------------------------------------------
 * test_key_order_read.c
 *	  Reads in key order (pm_table_read_open_ordered, lsm/table_read.h;
 *	  key_order_merge.c): the rows of the plain read, with keys ascending
 *	  across buckets and partitions, on written tables (4 buckets,
 *	  overlapping level-0 files, deletes; deletion vectors over levels a
 *	  plain read concatenates) and on corpus tables; refused where the key
 *	  is not one integer field.
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "pk_fixture.h"

#include <string.h>

#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "table/split.h"
#include "table/table.h"

/* The ordered read of dir holds the plain read's rows, ids ascending. */
static void
check_dir(pm_fileio *io, const char *dir, int want_rows)
{
	result		plain;
	result		ordered;
	static int	ids[MAXID];

	read_all(io, dir, &plain);
	pk_read_rows_in_key_order(io, dir, &ordered, ids);
	assert_int_equal(plain.nrows, want_rows);
	pk_assert_same(&plain, &ordered);
	for (int i = 1; i < ordered.nrows; i++)
		if (ids[i - 1] >= ids[i])
			fail_msg("%s: id %d read after id %d", dir, ids[i], ids[i - 1]);
}

/* rows id = a, a + step, ... below b, values from round */
static int
fill(trow *rows, int a, int b, int step, int round)
{
	int			n = 0;

	for (int id = a; id < b; id += step)
		rows[n++] = (trow) {id, id % 7 != 0, id * 10 + round, id % 5 == 0 ? INT64_MIN : round};
	return n;
}

/* 4 buckets, three overlapping commits and deletes: every split merged */
static void
test_buckets_merged(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/ordered";
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"4"};
	static trow rows[MAXID];
	uint8_t		kinds[MAXID];
	int			n;

	(void) state;
	pk_create(io, arena, dir, 1, keys, vals);
	n = fill(rows, 0, 3000, 1, 1);
	pk_commit_rows(io, dir, arena, rows, NULL, n, 1, 1);
	n = fill(rows, 1, 3000, 3, 2);
	pk_commit_rows(io, dir, arena, rows, NULL, n, 2, 2);
	n = fill(rows, 0, 3000, 10, 3);
	for (int i = 0; i < n; i++)
		kinds[i] = PM_ROW_DELETE;
	pk_commit_rows(io, dir, arena, rows, kinds, n, 3, 3);
	check_dir(io, dir, 2700);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Deletion vectors, compacted to the top level, then more commits
 * compacted: splits a plain read takes raw (levels concatenated) are
 * merged in key order.
 */
static void
test_deletion_vectors(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/ordered_dv";
	static const char *keys[] = {"bucket", "deletion-vectors.enabled"};
	static const char *vals[] = {"2", "true"};
	static trow rows[MAXID];
	pm_compact_result res;
	int			n;

	(void) state;
	pk_create(io, arena, dir, 2, keys, vals);
	n = fill(rows, 0, 2000, 1, 1);
	/* a deletion-vector table's commit compacts its level-0 files: two snapshots */
	pk_commit_rows(io, dir, arena, rows, NULL, n, 1, 2);
	pk_full_compact(io, dir, NULL, &res);
	n = fill(rows, 1500, 2500, 2, 2);
	pk_commit_rows(io, dir, arena, rows, NULL, n, 2, res.snapshot_id > 0 ? res.snapshot_id + 2 : 4);
	check_dir(io, dir, 2250);
	/* the point of the test: files of two levels, which a plain read concatenates */
	{
		pk_files	pf;
		int			levels = 0;

		pk_files_open(io, dir, false, &pf);
		for (int i = 0; i < pf.n; i++)
			levels |= 1 << pf.files[i]->level;
		assert_true(levels != 0 && (levels & (levels - 1)) != 0);
		pk_files_close(&pf);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* A corpus table: the plain read's keys, ascending; returns the row count. */
static int64_t
check_corpus(const char *rel, const char *key)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_table   *t;
	pm_scan    *scan = NULL;
	pm_table_read *read;
	pm_batch   *b;
	pm_error	err;
	int			field;
	int64_t		plain_sum = 0;
	int64_t		plain_n = 0;
	int64_t		sum = 0;
	int64_t		n = 0;
	int64_t		prev = INT64_MIN;
	int			nfields;
	int			fields[64];

	unit_require_corpus();
	pm_error_clear(&err);
	if (pm_table_open(pm_env_default(), io, unit_corpus_path(rel), NULL, &t, &err) != PM_OK ||
		pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	field = pm_table_read_order_key(scan);
	assert_true(field >= 0);
	assert_string_equal(pm_table_schema(t)->row_type->fields[field].name, key);
	nfields = pm_table_schema(t)->row_type->nfields;
	assert_true(nfields <= 64);
	for (int i = 0; i < nfields; i++)
		fields[i] = i;
	for (int pass = 0; pass < 2; pass++)
	{
		if ((pass == 0 ? pm_table_read_open(scan, fields, nfields, &read, &err) :
			 pm_table_read_open_ordered(scan, fields, nfields, &read, &err)) != PM_OK)
			fail_msg("%s: %s", rel, err.message);
		for (;;)
		{
			if (pm_table_read_next(read, &b, &err) != PM_OK)
				fail_msg("%s: %s", rel, err.message);
			if (b == NULL)
				break;
			for (int64_t r = 0; r < b->nrows; r++)
			{
				int64_t		k = pm_vector_int64_at(&b->cols[field], r);

				if (pass == 0)
				{
					plain_sum += k * 31 + 7;
					plain_n++;
					continue;
				}
				if (k < prev)
					fail_msg("%s: key %lld after %lld", rel, (long long) k, (long long) prev);
				prev = k;
				sum += k * 31 + 7;
				n++;
			}
		}
		pm_table_read_close(read);
	}
	assert_int_equal(n, plain_n);
	assert_true(sum == plain_sum);
	print_message("%s: %lld rows in key order over %d splits\n", rel, (long long) n,
				  pm_scan_split_count(scan));
	pm_scan_free(scan);
	pm_table_close(t);
	pm_local_fileio_destroy(io);
	return n;
}

static void
test_corpus(void **state)
{
	(void) state;
	/* partitions (dt, hr) x 2 buckets */
	assert_true(check_corpus("tables/parquet/pk_table_nested_type.db/pk_table_nested_type",
							 "shopId") > 0);
	/* partitioned, deletion vectors */
	assert_true(check_corpus("tables/parquet/pk_table_with_alter_table.db/"
							 "pk_table_with_alter_table", "key_2") > 0);
	assert_true(check_corpus("tables/parquet/pk_btree_e2e.db/pk_btree_e2e", "id") > 0);
}

/* keys of two fields, or of a string: no key order */
static void
test_refused(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	const char *rels[] = {
		"tables/parquet/pk_table_partial_update.db/pk_table_partial_update",
		"tables/parquet/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor",
		"tables/parquet/parquet_append_table.db/parquet_append_table",
	};

	(void) state;
	unit_require_corpus();
	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++)
	{
		pm_table   *t;
		pm_scan    *scan = NULL;
		pm_table_read *read = NULL;
		pm_error	err;
		int			fields[1] = {0};

		pm_error_clear(&err);
		if (pm_table_open(pm_env_default(), io, unit_corpus_path(rels[i]), NULL, &t, &err) != PM_OK ||
			pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK)
			fail_msg("%s: %s", rels[i], err.message);
		assert_int_equal(pm_table_read_order_key(scan), -1);
		assert_int_equal(pm_table_read_open_ordered(scan, fields, 1, &read, &err),
						 PM_ERR_UNSUPPORTED);
		assert_null(read);
		pm_scan_free(scan);
		pm_table_close(t);
	}
	pm_local_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_merged),
		cmocka_unit_test(test_deletion_vectors),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
