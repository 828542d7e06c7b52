/*-------------------------------------------------------------------------
 * test_parallel_read.c
 *	  Units of work and the claim hook of pm_table_read (parallel scans).
 *
 * Two readers of the same plan share a counter, as the participants of a
 * parallel scan share one in shared memory, and take turns: together they
 * must return exactly the rows one reader returns alone, each row once,
 * and both must get a share. Checked on an append table (units are files)
 * and a primary-key table (units are merged splits and raw files).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "lsm/table_read.h"
#include "table/table.h"

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

static void
check_table(const char *relpath, const char *int_field)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_local_fileio_create(env);
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
	assert_int_equal(pm_table_open(env, io, unit_corpus_path(relpath), &o, &table, &err), PM_OK);
	field = pm_type_field_index(pm_table_schema(table)->row_type, int_field);
	assert_true(field >= 0);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);

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
	print_message("%s: %lld rows alone, %lld + %lld shared\n", relpath,
				  (long long) rows1, (long long) rows_a, (long long) rows_b);
	assert_true(rows1 > 0);
	assert_int_equal(rows_a + rows_b, rows1);
	assert_true(sum_a + sum_b == sum1);
	assert_true(rows_a > 0 && rows_b > 0);

	pm_scan_free(scan);
	pm_table_close(table);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_files),
		cmocka_unit_test(test_pk_splits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
