/*-------------------------------------------------------------------------
 * test_scan_min_max.c
 *	  count(field), min and max from the files' statistics
 *	  (pm_scan_field_summaries, table/scan_min_max.h) against the values of
 *	  a full read, on corpus append tables of every format (schema
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

/* Whether a type's vector values read as pm_vector_int64_at and its statistics as i64. */
static bool
int64_like(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
			return true;
		default:
			return false;
	}
}

/*
 * Every field of the table at rel: where the metadata answers, the count
 * (and for integer and date fields the min and max) equals the read's;
 * returns how many fields' counts it answered.
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
	int64_t		min[256];
	int64_t		max[256];
	bool		seen[256];
	pm_field_summary *sum;
	int			answered = 0;
	int			min_max_answered = 0;

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
		seen[f] = false;
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
			{
				int64_t		v;

				if (pm_vector_is_null(&b->cols[f], r))
					continue;
				counted[f]++;
				if (!int64_like(row->fields[f].type))
					continue;
				v = pm_vector_int64_at(&b->cols[f], r);
				if (!seen[f] || v < min[f])
					min[f] = v;
				if (!seen[f] || v > max[f])
					max[f] = v;
				seen[f] = true;
			}
	}
	pm_table_read_close(read);
	assert_int_equal(pm_scan_field_summaries(scan, row->nfields, fields, &sum, &err), PM_OK);
	for (int f = 0; f < row->nfields; f++)
	{
		const pm_field_min_max *mm = &sum[f].mm;

		if (!pm_count_type_supported(row->fields[f].type))
			assert_false(sum[f].count_exact);
		if (!pm_min_max_type_supported(row->fields[f].type))
			assert_false(mm->exact);
		if (mm->exact && int64_like(row->fields[f].type))
		{
			if (mm->all_null != !seen[f] ||
				(seen[f] && (mm->min.u.i64 != min[f] || mm->max.u.i64 != max[f])))
				fail_msg("%s: field %s: min/max %lld/%lld (all null %d) from the metadata, "
						 "%lld/%lld (none %d) read", rel, row->fields[f].name,
						 (long long) mm->min.u.i64, (long long) mm->max.u.i64, mm->all_null,
						 (long long) min[f], (long long) max[f], !seen[f]);
			min_max_answered++;
		}
		if (!sum[f].count_exact)
			continue;
		if (sum[f].count != counted[f])
			fail_msg("%s: field %s: %lld from the metadata, %lld read", rel, row->fields[f].name,
					 (long long) sum[f].count, (long long) counted[f]);
		answered++;
	}
	print_message("%s: %d of %d fields counted, %d integer min/max answered from the "
				  "metadata\n", rel, answered, row->nfields, min_max_answered);
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
