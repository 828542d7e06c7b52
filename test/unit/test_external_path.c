/*-------------------------------------------------------------------------
 * test_external_path.c
 *	  table/external_path.c: data-file.external-paths* parsed as Java's
 *	  AbstractFileStore.createExternalPaths and the providers' paths. The
 *	  expected entropy directories and recorded paths were printed by
 *	  Paimon 1.4.2 (EntropyInjectExternalPathProvider.computeHash, Path).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "table/external_path.h"

static pm_code
parse(pm_arena *a, const char *paths, const char *strategy, const char *fs, const char *w,
	  pm_external_paths **x)
{
	pm_error	err;

	return pm_external_paths_parse(paths, strategy, fs, w, a, x, &err);
}

static void
test_murmur_entropy(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());

	(void) state;
	assert_int_equal(pm_murmur3_32((const uint8_t *) "", 0), 0);
	assert_int_equal(pm_murmur3_32((const uint8_t *) "hello", 5), 0x248bfa47);
	assert_string_equal(pm_entropy_dirs("hello", a), "1011/1111/1010/01000111");
	assert_string_equal(pm_entropy_dirs("a", a), "0101/0110/1001/10110010");
	assert_string_equal(pm_entropy_dirs("data-0a1b2c3d-4e5f-6789-abcd-ef0123456789-0.parquet", a),
						"1011/1000/0000/10110010");
	assert_string_equal(pm_entropy_dirs("data-x-0.parquet", a), "0000/1110/0011/01000001");
	pm_arena_destroy(a);
}

static void
test_parse(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_external_paths *x = (pm_external_paths *) 1;

	(void) state;
	/* files stay in the table */
	assert_int_equal(parse(a, NULL, NULL, NULL, NULL, &x), PM_OK);
	assert_null(x);
	assert_int_equal(parse(a, "file:/e", NULL, NULL, NULL, &x), PM_OK);
	assert_null(x);
	assert_int_equal(parse(a, "file:/e", "NONE", NULL, NULL, &x), PM_OK);
	assert_null(x);
	assert_int_equal(parse(a, "s3://b/e", "none", NULL, NULL, &x), PM_OK);
	assert_null(x);
	assert_int_equal(parse(a, "", "round-robin", NULL, NULL, &x), PM_OK);
	assert_null(x);
	/* weights are parsed whatever the strategy (CoreOptions.externalPathWeights) */
	assert_int_equal(parse(a, NULL, NULL, NULL, "1,0", &x), PM_ERR_INVALID);
	assert_int_equal(parse(a, NULL, NULL, NULL, "1,x", &x), PM_ERR_INVALID);
	assert_int_equal(parse(a, NULL, NULL, NULL, " 3 , 4 ", &x), PM_OK);
	/* roots */
	assert_int_equal(parse(a, " file:/e1 , file:///e2/ ", "Round-Robin", NULL, NULL, &x), PM_OK);
	assert_int_equal(pm_external_paths_count(x), 2);
	assert_int_equal(parse(a, "/e1", "round-robin", NULL, NULL, &x), PM_ERR_INVALID);	/* no scheme */
	assert_int_equal(parse(a, "file:/e1,,file:/e2", "round-robin", NULL, NULL, &x), PM_ERR_INVALID);
	assert_int_equal(parse(a, "oss://b/e", "round-robin", NULL, NULL, &x), PM_ERR_UNSUPPORTED);
	assert_int_equal(parse(a, "file:/e,s3://b/e", "round-robin", NULL, NULL, &x), PM_ERR_UNSUPPORTED);
	assert_int_equal(parse(a, "file://host/e", "round-robin", NULL, NULL, &x), PM_ERR_UNSUPPORTED);
	assert_int_equal(parse(a, "file:e", "round-robin", NULL, NULL, &x), PM_ERR_UNSUPPORTED);
	assert_int_equal(parse(a, "file:/e", "weighted", NULL, NULL, &x), PM_ERR_INVALID);
	/* specific-fs: the roots of that scheme; others are left out, never written */
	assert_int_equal(parse(a, "file:/e", "specific-fs", NULL, NULL, &x), PM_ERR_INVALID);
	assert_int_equal(parse(a, "s3://b/e,file:/e,FILE:/f", "specific-fs", "File", NULL, &x), PM_OK);
	assert_int_equal(pm_external_paths_count(x), 2);
	assert_int_equal(parse(a, "file:/e", "specific-fs", "s3", NULL, &x), PM_ERR_INVALID);	/* none left */
	assert_int_equal(parse(a, "s3://b/e", "specific-fs", "s3", NULL, &x), PM_ERR_UNSUPPORTED);
	/* weight-robin */
	assert_int_equal(parse(a, "file:/e,file:/f", "weight-robin", NULL, "1,2,3", &x), PM_ERR_INVALID);
	assert_int_equal(parse(a, "file:/e,file:/f", "weight-robin", NULL, "1,2", &x), PM_OK);
	assert_int_equal(parse(a, "file:/e", "weight-robin", NULL, "1,2", &x), PM_OK);	/* round-robin */
	pm_arena_destroy(a);
}

static void
test_next(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_external_paths *x;
	pm_error	err;
	char	   *local;
	char	   *rec;
	int			seen[2] = {0, 0};
	int			prev = -1;

	(void) state;
	/* round-robin: alternating, from a random start */
	assert_int_equal(parse(a, "file:///e1/,FILE:/e2", "round-robin", NULL, NULL, &x), PM_OK);
	for (int i = 0; i < 6; i++)
	{
		int			r;

		assert_int_equal(pm_external_paths_next(x, "dt=1/bucket-0", "f.parquet", a, &local, &rec,
												&err), PM_OK);
		r = strncmp(local, "/e1/", 4) == 0 ? 0 : 1;
		if (r == 0)
		{
			assert_string_equal(local, "/e1/dt=1/bucket-0/f.parquet");
			assert_string_equal(rec, "file:/e1/dt=1/bucket-0/f.parquet");
		}
		else
		{
			assert_string_equal(local, "/e2/dt=1/bucket-0/f.parquet");
			assert_string_equal(rec, "FILE:/e2/dt=1/bucket-0/f.parquet");
		}
		assert_int_not_equal(r, prev);
		prev = r;
	}
	/* entropy-inject: the second root first, then in turn; hash directories */
	assert_int_equal(parse(a, "file:/e1,file:/e2", "entropy-inject", NULL, NULL, &x), PM_OK);
	assert_int_equal(pm_external_paths_next(x, "dt=1/bucket-0", "data-x-0.parquet", a, &local,
											&rec, &err), PM_OK);
	assert_string_equal(rec, "file:/e2/dt=1/bucket-0/0000/1110/0011/01000001/data-x-0.parquet");
	assert_int_equal(pm_external_paths_next(x, "bucket-1", "hello", a, &local, &rec, &err), PM_OK);
	assert_string_equal(local, "/e1/bucket-1/1011/1111/1010/01000111/hello");
	/* weight-robin 1:1000: almost every file to the second root */
	assert_int_equal(parse(a, "file:/e1,file:/e2", "weight-robin", NULL, "1,1000", &x), PM_OK);
	for (int i = 0; i < 2000; i++)
	{
		assert_int_equal(pm_external_paths_next(x, "bucket-0", "f", a, &local, &rec, &err), PM_OK);
		seen[strcmp(local, "/e1/bucket-0/f") == 0 ? 0 : 1]++;
	}
	assert_true(seen[1] > 1900);
	assert_string_equal(pm_path_last_components("/t/a/dt=1/bucket-0", 2), "dt=1/bucket-0");
	assert_string_equal(pm_path_last_components("/t/bucket-0", 1), "bucket-0");
	assert_null(pm_path_last_components("bucket-0", 1));
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_murmur_entropy),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_next),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
