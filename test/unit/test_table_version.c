/*-------------------------------------------------------------------------
 * test_table_version.c
 *	  Reopening a table at the version an earlier open found
 *	  (pm_table_version): the snapshot and the schema, whatever is latest.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "io/fileio.h"
#include "table/schema.h"
#include "table/split.h"
#include "table/table.h"

static int64_t
rows_of(pm_table *t)
{
	pm_scan    *scan;
	pm_error	err;
	int64_t		n;

	assert_int_equal(pm_table_scan_plan(t, NULL, &scan, &err), PM_OK);
	n = pm_scan_get_stats(scan)->rows_selected;
	pm_scan_free(scan);
	return n;
}

static pm_code
open_at(pm_fileio *io, const char *dir, const pm_table_version *v, pm_table **t, pm_error *err)
{
	pm_table_open_options o = {0};

	o.version = v;
	pm_error_clear(err);
	return pm_table_open(pm_env_default(), io, dir, &o, t, err);
}

/* append_table_with_alter_table: snapshot 1 (schema 0, 5 rows), 2 (schema 1, 10 rows) */
static void
test_version_reopens_snapshot_and_schema(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir;
	pm_table   *t;
	pm_error	err;
	pm_table_version v;

	(void) state;
	unit_require_corpus();
	dir = strdup(unit_corpus_path("tables/parquet/append_table_with_alter_table.db/append_table_with_alter_table"));

	/* the latest: its version is what a later open reads again */
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &t, &err), PM_OK);
	v = pm_table_get_version(t);
	assert_int_equal(v.snapshot_id, 2);
	assert_int_equal(v.schema_id, 1);
	pm_table_close(t);
	assert_int_equal(open_at(io, dir, &v, &t, &err), PM_OK);
	assert_int_equal(pm_table_snapshot_id(t), 2);
	assert_int_equal(pm_table_schema(t)->id, 1);
	assert_int_equal(rows_of(t), 10);
	pm_table_close(t);

	/* an older snapshot with the newer schema (what the latest was before a commit) */
	v.snapshot_id = 1;
	assert_int_equal(open_at(io, dir, &v, &t, &err), PM_OK);
	assert_int_equal(pm_table_snapshot_id(t), 1);
	assert_int_equal(pm_table_schema(t)->id, 1);
	assert_int_equal(rows_of(t), 5);
	pm_table_close(t);

	/* no snapshot yet: empty, with the schema */
	v.snapshot_id = 0;
	v.schema_id = 0;
	assert_int_equal(open_at(io, dir, &v, &t, &err), PM_OK);
	assert_int_equal(pm_table_snapshot_id(t), 0);
	assert_int_equal(pm_table_schema(t)->id, 0);
	assert_int_equal(rows_of(t), 0);
	assert_int_equal(pm_table_get_version(t).snapshot_id, 0);
	pm_table_close(t);

	/* an expired snapshot, an unknown schema */
	v.snapshot_id = 7;
	assert_int_equal(open_at(io, dir, &v, &t, &err), PM_ERR_NOT_FOUND);
	v.snapshot_id = 1;
	v.schema_id = 9;
	assert_int_equal(open_at(io, dir, &v, &t, &err), PM_ERR_NOT_FOUND);

	/* a version excludes the time travel options */
	{
		pm_table_open_options o = {0};

		v.schema_id = 0;
		o.version = &v;
		o.snapshot_id = 1;
		assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t, &err), PM_ERR_INVALID);
		o.snapshot_id = 0;
		o.tag = "x";
		assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t, &err), PM_ERR_INVALID);
	}
	free(dir);
	pm_local_fileio_destroy(io);
}

/*
 * pm_table_copy: a table object on another FileIO sharing the snapshot and
 * schemas; schemas it loads later (the older one of the data files) go to
 * its own arena, and the source is left as it was.
 */
static void
test_copy_shares_version(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_fileio  *io2 = pm_local_fileio_create(pm_env_default());
	char	   *dir;
	pm_table   *t;
	pm_table   *c;
	pm_table   *c2;
	pm_error	err;

	(void) state;
	unit_require_corpus();
	dir = strdup(unit_corpus_path("tables/parquet/append_table_with_alter_table.db/append_table_with_alter_table"));
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &t, &err), PM_OK);
	assert_int_equal(pm_table_check_options(t, &err), PM_OK);
	assert_int_equal(pm_table_copy(t, pm_env_default(), io2, &c, &err), PM_OK);
	assert_ptr_equal(pm_table_fileio(c), io2);
	assert_ptr_equal(pm_table_fileio(t), io);
	assert_int_equal(pm_table_snapshot_id(c), 2);
	assert_ptr_equal(pm_table_schema(c), pm_table_schema(t));
	/* reading snapshot 2 needs schema 0 too (files written before the ALTER) */
	assert_int_equal(rows_of(c), 10);
	{
		const pm_schema *s0;

		assert_int_equal(pm_table_schema_by_id(c, 0, &s0, &err), PM_OK);
		assert_int_equal(s0->id, 0);
	}
	/* a second copy of the same source, the first one closed */
	assert_int_equal(pm_table_copy(t, pm_env_default(), io2, &c2, &err), PM_OK);
	pm_table_close(c);
	assert_int_equal(rows_of(c2), 10);
	pm_table_close(c2);
	/* the source still reads as before */
	assert_int_equal(rows_of(t), 10);
	assert_int_equal(pm_table_get_version(t).schema_id, 1);
	pm_table_close(t);
	free(dir);
	pm_local_fileio_destroy(io);
	pm_local_fileio_destroy(io2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_reopens_snapshot_and_schema),
		cmocka_unit_test(test_copy_shares_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
