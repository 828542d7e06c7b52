/*-------------------------------------------------------------------------
 * test_vector_int64_at.c
 *	  pm_vector_int64_at (src/common/vector.h): element i of each
 *	  integer-like vector (BOOLEAN, TINYINT, SMALLINT, INT, DATE, TIME,
 *	  BIGINT, TIMESTAMP, TIMESTAMP_LTZ) widened to int64 with its sign, at
 *	  the limits of its C type.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdint.h>

#include "common/arena.h"
#include "common/vector.h"

static pm_arena *arena;

static pm_vector *
make(pm_type_id id, int64_t n)
{
	pm_vector  *v = pm_arena_alloc(arena, sizeof(pm_vector));

	assert_non_null(v);
	assert_true(pm_vector_init(v, pm_type_new(arena, id, true), n, false, arena));
	v->length = n;
	return v;
}

static void
test_widths(void **state)
{
	pm_vector  *v;
	static const pm_type_id i32_types[] = {PM_TYPE_INT, PM_TYPE_DATE, PM_TYPE_TIME};
	static const pm_type_id i64_types[] = {PM_TYPE_BIGINT, PM_TYPE_TIMESTAMP,
	PM_TYPE_TIMESTAMP_LTZ};

	v = make(PM_TYPE_BOOLEAN, 2);
	PM_VEC_VALUES(v, uint8_t)[0] = 0;
	PM_VEC_VALUES(v, uint8_t)[1] = 1;
	assert_int_equal(pm_vector_int64_at(v, 0), 0);
	assert_int_equal(pm_vector_int64_at(v, 1), 1);

	v = make(PM_TYPE_TINYINT, 3);
	PM_VEC_VALUES(v, int8_t)[0] = INT8_MIN;
	PM_VEC_VALUES(v, int8_t)[1] = -1;
	PM_VEC_VALUES(v, int8_t)[2] = INT8_MAX;
	assert_true(pm_vector_int64_at(v, 0) == INT8_MIN);
	assert_true(pm_vector_int64_at(v, 1) == -1);
	assert_true(pm_vector_int64_at(v, 2) == INT8_MAX);

	v = make(PM_TYPE_SMALLINT, 3);
	PM_VEC_VALUES(v, int16_t)[0] = INT16_MIN;
	PM_VEC_VALUES(v, int16_t)[1] = -1;
	PM_VEC_VALUES(v, int16_t)[2] = INT16_MAX;
	assert_true(pm_vector_int64_at(v, 0) == INT16_MIN);
	assert_true(pm_vector_int64_at(v, 1) == -1);
	assert_true(pm_vector_int64_at(v, 2) == INT16_MAX);

	for (int t = 0; t < 3; t++)
	{
		v = make(i32_types[t], 3);
		PM_VEC_VALUES(v, int32_t)[0] = INT32_MIN;
		PM_VEC_VALUES(v, int32_t)[1] = -1;
		PM_VEC_VALUES(v, int32_t)[2] = INT32_MAX;
		assert_true(pm_vector_int64_at(v, 0) == INT32_MIN);
		assert_true(pm_vector_int64_at(v, 1) == -1);
		assert_true(pm_vector_int64_at(v, 2) == INT32_MAX);
	}
	for (int t = 0; t < 3; t++)
	{
		v = make(i64_types[t], 3);
		PM_VEC_VALUES(v, int64_t)[0] = INT64_MIN;
		PM_VEC_VALUES(v, int64_t)[1] = -1;
		PM_VEC_VALUES(v, int64_t)[2] = INT64_MAX;
		assert_true(pm_vector_int64_at(v, 0) == INT64_MIN);
		assert_true(pm_vector_int64_at(v, 1) == -1);
		assert_true(pm_vector_int64_at(v, 2) == INT64_MAX);
	}
}

static int
setup(void **state)
{
	arena = pm_arena_create(pm_env_default());
	return arena == NULL;
}

static int
teardown(void **state)
{
	pm_arena_destroy(arena);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
