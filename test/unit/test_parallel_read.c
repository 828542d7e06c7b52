/*-------------------------------------------------------------------------
 * test_parallel_read.c
 *	  Units of work and the claim hook of pm_table_read (parallel scans).
 *
 * Two readers of the same plan share a counter, as the participants of a
 * parallel scan share one in shared memory, and take turns: together they
 * must return exactly the rows one reader returns alone, each row once,
 * and both must get a share. Checked on an append table (units are files),
 * a primary-key table (units are merged splits and raw files), and one
 * Parquet file of many row groups shared by row group
 * (pm_scan_set_part_units).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "table/table.h"
#include "table/table_write.h"

typedef struct claimer
{
	int64_t    *counter;		/* shared */
	int64_t		claimed;
} claimer;

static bool
claim(void *ctx, int64_t unit)
{
	claimer    *c = ctx;

	if (c->claimed < unit)
		c->claimed = (*c->counter)++;
	return c->claimed == unit;
}

/* Sum of an INT column and row count of a batch: a cheap fingerprint. */
static void
account(const pm_batch *b, int64_t *rows, int64_t *sum)
{
	*rows += b->nrows;
	for (int64_t i = 0; i < b->nrows; i++)
		if (!pm_vector_is_null(&b->cols[0], i))
			*sum += PM_VEC_VALUES(&b->cols[0], int32_t)[i];
}

/*
 * Read the table alone and by two readers sharing a counter; part_bytes
 * > 0: files of at least that many bytes are shared by part.
 */
static void
check_scan(pm_fileio *io, const char *path, const char *int_field, int64_t part_bytes)
{
	const pm_env *env = pm_env_default();
	pm_table_open_options o = {0};
	pm_table   *table;
	pm_scan    *scan;
	pm_table_read *one,
			   *a,
			   *b;
	pm_error	err;
	int			field;
	int64_t		rows1 = 0,
				sum1 = 0,
				rows_a = 0,
				sum_a = 0,
				rows_b = 0,
				sum_b = 0,
				counter = 0;
	claimer		ca = {&counter, -1},
				cb = {&counter, -1};
	bool		a_done = false,
				b_done = false;
	pm_batch   *batch;

	pm_error_clear(&err);
	assert_int_equal(pm_table_open(env, io, path, &o, &table, &err), PM_OK);
	field = pm_type_field_index(pm_table_schema(table)->row_type, int_field);
	assert_true(field >= 0);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	pm_scan_set_part_units(scan, part_bytes);

	assert_int_equal(pm_table_read_open(scan, &field, 1, &one, &err), PM_OK);
	for (;;)
	{
		assert_int_equal(pm_table_read_next(one, &batch, &err), PM_OK);
		if (batch == NULL)
			break;
		account(batch, &rows1, &sum1);
	}
	pm_table_read_close(one);

	assert_int_equal(pm_table_read_open(scan, &field, 1, &a, &err), PM_OK);
	assert_int_equal(pm_table_read_open(scan, &field, 1, &b, &err), PM_OK);
	pm_table_read_set_claim(a, claim, &ca);
	pm_table_read_set_claim(b, claim, &cb);
	while (!a_done || !b_done)
	{
		if (!a_done)
		{
			assert_int_equal(pm_table_read_next(a, &batch, &err), PM_OK);
			if (batch == NULL)
				a_done = true;
			else
				account(batch, &rows_a, &sum_a);
		}
		if (!b_done)
		{
			assert_int_equal(pm_table_read_next(b, &batch, &err), PM_OK);
			if (batch == NULL)
				b_done = true;
			else
				account(batch, &rows_b, &sum_b);
		}
	}
	pm_table_read_close(a);
	pm_table_read_close(b);
	print_message("%s: %lld rows alone, %lld + %lld shared\n", path,
				  (long long) rows1, (long long) rows_a, (long long) rows_b);
	assert_true(rows1 > 0);
	assert_int_equal(rows_a + rows_b, rows1);
	assert_true(sum_a + sum_b == sum1);
	assert_true(rows_a > 0 && rows_b > 0);

	pm_scan_free(scan);
	pm_table_close(table);
}

static void
check_table(const char *relpath, const char *int_field)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());

	check_scan(io, unit_corpus_path(relpath), int_field, 0);
	pm_local_fileio_destroy(io);
}

static void
test_append_files(void **state)
{
	unit_require_corpus();
	check_table("tables/parquet/append_09.db/append_09", "f1");
}

static void
test_pk_splits(void **state)
{
	unit_require_corpus();
	check_table("tables/parquet/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor", "f1");
}

/*
 * One Parquet file of 3000 rows in row groups of about 1 kB, written by
 * the table writer: as one unit it goes to one reader (the other gets no
 * row), by parts both readers get rows.
 */
static void
test_one_file_by_row_groups(void **state)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_memory_fileio_create(env);
	pm_arena   *arena = pm_arena_create(env);
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field));
	static const char *keys[] = {"parquet.block.size", "target-file-size"};
	static const char *vals[] = {"1 kb", "1 gb"};
	pm_table_writer *w;
	pm_batch	b;
	pm_vector	col;
	pm_error	err;
	int64_t		sid;

	(void) state;
	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 1, false);
	s->noptions = 2;
	s->option_keys = keys;
	s->option_values = vals;
	pm_error_clear(&err);
	assert_int_equal(pm_table_create(env, io, "/t", s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(env, io, "/t", "user-p", &w, &err), PM_OK);
	assert_true(pm_vector_init(&col, s->row_type->fields[0].type, 100, false, arena));
	col.length = 100;
	b.nrows = 100;
	b.first_row = 0;
	b.ncols = 1;
	b.cols = &col;
	for (int k = 0; k < 30; k++)
	{
		for (int i = 0; i < 100; i++)
			PM_VEC_VALUES(&col, int32_t)[i] = k * 100 + i;
		assert_int_equal(pm_table_writer_write(w, &b, NULL, &err), PM_OK);
	}
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);
	check_scan(io, "/t", "id", 1);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_files),
		cmocka_unit_test(test_pk_splits),
		cmocka_unit_test(test_one_file_by_row_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
