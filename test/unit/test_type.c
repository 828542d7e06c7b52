/*-------------------------------------------------------------------------
 * test_type.c
 *	  common/type.h's integer helpers: the width rank of each type and the
 *	  range of values each integer type holds.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include "common/type.h"

static void
test_int_rank(void **state)
{
	(void) state;
	assert_int_equal(pm_type_int_rank(PM_TYPE_TINYINT), 1);
	assert_int_equal(pm_type_int_rank(PM_TYPE_SMALLINT), 2);
	assert_int_equal(pm_type_int_rank(PM_TYPE_INT), 3);
	assert_int_equal(pm_type_int_rank(PM_TYPE_BIGINT), 4);
	assert_int_equal(pm_type_int_rank(PM_TYPE_DATE), 0);
	assert_int_equal(pm_type_int_rank(PM_TYPE_DECIMAL), 0);
}

static void
test_int_range(void **state)
{
	static const struct
	{
		pm_type_id	id;
		int64_t		min;
		int64_t		max;
	}			cases[] = {
		{PM_TYPE_TINYINT, -128, 127},
		{PM_TYPE_SMALLINT, -32768, 32767},
		{PM_TYPE_INT, -2147483648LL, 2147483647LL},
		{PM_TYPE_BIGINT, INT64_MIN, INT64_MAX},
	};
	int64_t		min = 7,
				max = 7;

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		assert_true(pm_type_int_range(cases[i].id, &min, &max));
		assert_true(min == cases[i].min);
		assert_true(max == cases[i].max);
	}
	/* not an integer type: false, nothing written */
	min = max = 7;
	assert_false(pm_type_int_range(PM_TYPE_DATE, &min, &max));
	assert_false(pm_type_int_range(PM_TYPE_DOUBLE, &min, &max));
	assert_false(pm_type_int_range(PM_TYPE_TIMESTAMP, &min, &max));
	assert_true(min == 7 && max == 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_rank),
		cmocka_unit_test(test_int_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
