/*-------------------------------------------------------------------------
 * test_scan_min_max.c
 *	  count(field) from the files' row and null counts
 *	  (pm_scan_field_count, table/scan_min_max.h) against the non-null
 *	  values of a full read, on corpus append tables of every format (schema
 *	  evolution: fields added after some files were written), and never
 *	  exact where rows are merged or deleted.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "io/fileio.h"
#include "lsm/table_read.h"
#include "table/scan_min_max.h"
#include "table/split.h"
#include "table/table.h"

/*
 * Every field of the table at rel: where the metadata answers, the count
 * equals the read's; returns how many fields it answered.
 */
static int
check_counts(const char *rel)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_table_open_options opts;
	pm_table   *t;
	pm_scan    *scan;
	pm_table_read *read;
	pm_batch   *b;
	pm_error	err;
	const pm_type *row;
	int			fields[256];
	int64_t		counted[256];
	int			answered = 0;

	unit_require_corpus();
	memset(&opts, 0, sizeof(opts));
	pm_error_clear(&err);
	if (pm_table_open(pm_env_default(), io, unit_corpus_path(rel), &opts, &t, &err) != PM_OK ||
		pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	row = pm_table_schema(t)->row_type;
	assert_true(row->nfields <= 256);
	for (int f = 0; f < row->nfields; f++)
	{
		fields[f] = f;
		counted[f] = 0;
	}
	if (pm_table_read_open(scan, fields, row->nfields, &read, &err) != PM_OK)
		fail_msg("%s: read: %s", rel, err.message);
	for (;;)
	{
		if (pm_table_read_next(read, &b, &err) != PM_OK)
			fail_msg("%s: read: %s", rel, err.message);
		if (b == NULL)
			break;
		for (int f = 0; f < row->nfields; f++)
			for (int64_t r = 0; r < b->nrows; r++)
				counted[f] += !pm_vector_is_null(&b->cols[f], r);
	}
	pm_table_read_close(read);
	for (int f = 0; f < row->nfields; f++)
	{
		int64_t		n;
		bool		exact;

		assert_int_equal(pm_scan_field_count(scan, f, &n, &exact, &err), PM_OK);
		if (!pm_count_type_supported(row->fields[f].type))
			assert_false(exact);
		if (!exact)
			continue;
		if (n != counted[f])
			fail_msg("%s: field %s: %lld from the metadata, %lld read", rel, row->fields[f].name,
					 (long long) n, (long long) counted[f]);
		answered++;
	}
	print_message("%s: %d of %d fields counted from the metadata\n", rel, answered,
				  row->nfields);
	pm_scan_free(scan);
	pm_table_close(t);
	pm_local_fileio_destroy(io);
	return answered;
}

static void
test_parquet(void **state)
{
	(void) state;
	assert_true(check_counts("tables/parquet/parquet_append_table.db/parquet_append_table") > 0);
	assert_true(check_counts("tables/parquet/append_complex_data.db/append_complex_data") > 0);
}

/* fields added by ALTER TABLE: the older files hold none of their values */
static void
test_schema_evolution(void **state)
{
	(void) state;
	assert_true(check_counts("tables/parquet/append_table_with_alter_table.db/"
							 "append_table_with_alter_table") > 0);
	assert_true(check_counts("tables/orc/append_table_with_alter_table_with_dense_field.db/"
							 "append_table_with_alter_table_with_dense_field") > 0);
}

static void
test_orc_avro(void **state)
{
	(void) state;
	assert_true(check_counts("tables/orc/multi_partition_append_table.db/"
							 "multi_partition_append_table") > 0);
	assert_true(check_counts("tables/avro/append_multiple.db/append_multiple") > 0);
}

/* merged or deleted rows: the files' counts are not the table's */
static void
test_primary_key_never(void **state)
{
	(void) state;
	assert_int_equal(check_counts("tables/parquet/pk_09.db/pk_09"), 0);
	assert_int_equal(check_counts("tables/parquet/pk_table_scan_and_read_dv.db/"
								  "pk_table_scan_and_read_dv"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parquet),
		cmocka_unit_test(test_schema_evolution),
		cmocka_unit_test(test_orc_avro),
		cmocka_unit_test(test_primary_key_never),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
