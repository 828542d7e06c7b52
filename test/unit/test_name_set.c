/*-------------------------------------------------------------------------
 * test_name_set.c
 *	  common/name_set.c: adding, finding, numbering and growing.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "common/name_set.h"

static void
test_add_find_grow(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_name_set *set = pm_name_set_create(arena);
	char		key[32];
	int			idx;

	assert_non_null(set);
	assert_int_equal(pm_name_set_count(set), 0);
	assert_false(pm_name_set_contains_str(set, "a"));
	/* enough keys to grow the table several times */
	for (int i = 0; i < 5000; i++)
	{
		snprintf(key, sizeof(key), "file-%d", i);
		assert_true(pm_name_set_add(set, key, strlen(key), &idx));
		assert_int_equal(idx, i);
	}
	/* adding again gives the same number, the count does not change */
	assert_true(pm_name_set_add(set, "file-42", 7, &idx));
	assert_int_equal(idx, 42);
	assert_int_equal(pm_name_set_count(set), 5000);
	for (int i = 0; i < 5000; i++)
	{
		size_t		len;

		snprintf(key, sizeof(key), "file-%d", i);
		assert_int_equal(pm_name_set_find(set, key, strlen(key)), i);
		assert_string_equal(pm_name_set_key(set, i, &len), key);
		assert_int_equal(len, strlen(key));
	}
	assert_int_equal(pm_name_set_find(set, "file-5000", 9), -1);
	/* keys are byte strings: a prefix or an embedded NUL is another key */
	assert_int_equal(pm_name_set_find(set, "file-4", 5), -1);
	assert_true(pm_name_set_add(set, "a\0b", 3, &idx));
	assert_int_equal(pm_name_set_find(set, "a\0b", 3), idx);
	assert_int_equal(pm_name_set_find(set, "a", 1), -1);
	assert_true(pm_name_set_add(set, "", 0, &idx));
	assert_int_equal(pm_name_set_find(set, "", 0), idx);
	pm_arena_destroy(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_find_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
