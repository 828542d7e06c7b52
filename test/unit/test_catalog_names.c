/*-------------------------------------------------------------------------
 * test_catalog_names.c
 *	  Names that become path components (database, table, tag, file names
 *	  from metadata) cannot leave the directory they belong in.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "io/memory_fileio.h"
#include "table/catalog.h"
#include "table/table.h"

static const char *const bad_names[] = {
	"", ".", "..", "/", "../x", "a/b", "x/..", "/abs", NULL
};
static const char *const good_names[] = {
	"t", "my_table", "...", ".hidden", "a.b", "x..y", "tag-1", NULL
};

static void
add(pm_fileio *io, const char *path, const char *text)
{
	pm_error	err;

	assert_int_equal(pm_memory_fileio_add(io, path, text, strlen(text), &err), PM_OK);
}

static void
test_name_valid(void **state)
{
	(void) state;
	assert_false(pm_catalog_name_valid(NULL));
	for (int i = 0; bad_names[i]; i++)
		if (pm_catalog_name_valid(bad_names[i]))
			fail_msg("\"%s\" accepted", bad_names[i]);
	for (int i = 0; good_names[i]; i++)
		if (!pm_catalog_name_valid(good_names[i]))
			fail_msg("\"%s\" refused", good_names[i]);
}

/* The catalog refuses a bad database or table name even when the path it would make exists. */
static void
test_catalog_refuses_bad_names(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *a = pm_arena_create(pm_env_default());
	const char *schema = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
		"\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
	char	  **names;
	int			n;
	pm_error	err;

	(void) state;
	add(io, "/w/db.db/t/schema/schema-0", schema);
	add(io, "/w/../x.db/t/schema/schema-0", schema);
	add(io, "/w/a/b.db/t/schema/schema-0", schema);
	assert_int_equal(pm_catalog_list_tables(io, "/w", "db", a, &names, &n, &err), PM_OK);
	assert_int_equal(n, 1);
	for (int i = 0; bad_names[i]; i++)
	{
		pm_error_clear(&err);
		assert_int_equal(pm_catalog_list_tables(io, "/w", bad_names[i], a, &names, &n, &err),
						 PM_ERR_INVALID);
		assert_non_null(strstr(err.message, "invalid database name"));
		assert_int_equal(n, 0);
		assert_null(pm_catalog_table_path(a, "/w", bad_names[i], "t"));
		assert_null(pm_catalog_table_path(a, "/w", "db", bad_names[i]));
	}
	assert_string_equal(pm_catalog_table_path(a, "/w", "db", "t"), "/w/db.db/t");
	pm_arena_destroy(a);
	pm_memory_fileio_destroy(io);
}

/* A tag name is a file name under tag/: "../" cannot reach a snapshot elsewhere. */
static void
test_tag_names(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const char *schema = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
		"\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
	pm_table_open_options o = {0};
	pm_table   *t;
	pm_error	err;

	(void) state;
	add(io, "/w/db.db/t/schema/schema-0", schema);
	for (int i = 0; bad_names[i]; i++)
	{
		o.tag = bad_names[i];
		pm_error_clear(&err);
		assert_int_equal(pm_table_open(pm_env_default(), io, "/w/db.db/t", &o, &t, &err),
						 PM_ERR_INVALID);
		assert_non_null(strstr(err.message, "invalid tag name"));
	}
	o.tag = "nope";
	assert_int_equal(pm_table_open(pm_env_default(), io, "/w/db.db/t", &o, &t, &err),
					 PM_ERR_NOT_FOUND);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_valid),
		cmocka_unit_test(test_catalog_refuses_bad_names),
		cmocka_unit_test(test_tag_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
