/*-------------------------------------------------------------------------
 * test_key_compare.c
 *	  src/lsm/key_compare.c against Java's comparator semantics: NULLs
 *	  first, Float/Double.compare (-0.0 < 0.0, NaN greatest and equal to
 *	  itself), unsigned bytewise strings (shorter prefix first), decimals,
 *	  timestamps with nanos, multi-column keys, the corpus' real key order.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "common/arena.h"
#include "lsm/key_compare.h"
#include "common/vector_builder.h"

static pm_arena *arena;

static pm_vector *
strings(const char *const *vals, int n)
{
	pm_vector  *v = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;

	pm_vector_builder_init(&b, v, pm_type_new(arena, PM_TYPE_VARCHAR, true), n, arena);
	for (int i = 0; i < n; i++)
	{
		if (vals[i] == NULL)
			pm_vector_builder_append_null(&b);
		else
			pm_vector_builder_append_bytes(&b, vals[i], (int32_t) strlen(vals[i]));
	}
	return v;
}

/* Double vector [-0.0, 0.0, NaN, -NaN, +inf, -inf, 1.5] and its float twin. */
static void
test_floats(void **state)
{
	static const double vals[] = {-0.0, 0.0, NAN, -NAN, INFINITY, -INFINITY, 1.5};
	pm_vector	d,
				f;

	pm_vector_init(&d, pm_type_new(arena, PM_TYPE_DOUBLE, false), 7, false, arena);
	pm_vector_init(&f, pm_type_new(arena, PM_TYPE_FLOAT, false), 7, false, arena);
	for (int i = 0; i < 7; i++)
	{
		PM_VEC_VALUES(&d, double)[i] = vals[i];
		PM_VEC_VALUES(&f, float)[i] = (float) vals[i];
	}
	for (int k = 0; k < 2; k++)
	{
		const pm_vector *v = k == 0 ? &d : &f;

		assert_true(pm_key_compare_value(v, 0, v, 1) < 0); /* -0.0 < 0.0 */
		assert_true(pm_key_compare_value(v, 1, v, 0) > 0);
		assert_int_equal(pm_key_compare_value(v, 2, v, 3), 0); /* NaNs equal */
		assert_true(pm_key_compare_value(v, 2, v, 4) > 0);	/* NaN > +inf */
		assert_true(pm_key_compare_value(v, 5, v, 0) < 0);
		assert_true(pm_key_compare_value(v, 6, v, 4) < 0);
		assert_int_equal(pm_key_compare_value(v, 6, v, 6), 0);
	}
}

static void
test_strings_and_nulls(void **state)
{
	/* the corpus' order (pk_table_scan_and_read_dv): Alex < Bob < David < Emily < Tony */
	const char *vals[] = {NULL, "", "Alex", "Alice", "Bob", "David", "Emily", "Tony",
	"Two roads", "\xc3\xa9t\xc3\xa9"};
	int			n = (int) (sizeof(vals) / sizeof(vals[0]));
	pm_vector  *v = strings(vals, n);

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
		{
			int			c = pm_key_compare_value(v, i, v, j);

			if ((i < j && c >= 0) || (i > j && c <= 0) || (i == j && c != 0))
				fail_msg("compare(%d, %d) = %d", i, j, c);
		}
}

static void
test_fixed_types(void **state)
{
	pm_vector	v;
	pm_type    *t;

	/* signed ints */
	t = pm_type_new(arena, PM_TYPE_BIGINT, false);
	pm_vector_init(&v, t, 3, false, arena);
	PM_VEC_VALUES(&v, int64_t)[0] = INT64_MIN;
	PM_VEC_VALUES(&v, int64_t)[1] = -1;
	PM_VEC_VALUES(&v, int64_t)[2] = 1;
	assert_true(pm_key_compare_value(&v, 0, &v, 1) < 0);
	assert_true(pm_key_compare_value(&v, 2, &v, 1) > 0);
	/* decimals (same scale): numeric */
	t = pm_type_new_decimal(arena, 38, 2, false);
	pm_vector_init(&v, t, 2, false, arena);
	PM_VEC_VALUES(&v, pm_int128)[0] = -((pm_int128) 1 << 100);
	PM_VEC_VALUES(&v, pm_int128)[1] = 5;
	assert_true(pm_key_compare_value(&v, 0, &v, 1) < 0);
	/* timestamps: micros, then nanos */
	t = pm_type_new(arena, PM_TYPE_TIMESTAMP, false);
	pm_vector_init(&v, t, 3, false, arena);
	v.nanos = pm_arena_zalloc(arena, 3 * sizeof(uint16_t));
	PM_VEC_VALUES(&v, int64_t)[0] = -1;
	PM_VEC_VALUES(&v, int64_t)[1] = -1;
	v.nanos[1] = 999;
	PM_VEC_VALUES(&v, int64_t)[2] = 0;
	assert_true(pm_key_compare_value(&v, 0, &v, 1) < 0);
	assert_true(pm_key_compare_value(&v, 1, &v, 2) < 0);
	/* booleans */
	t = pm_type_new(arena, PM_TYPE_BOOLEAN, false);
	pm_vector_init(&v, t, 2, false, arena);
	PM_VEC_VALUES(&v, uint8_t)[0] = 0;
	PM_VEC_VALUES(&v, uint8_t)[1] = 1;
	assert_true(pm_key_compare_value(&v, 0, &v, 1) < 0);
}

static void
test_multi_column(void **state)
{
	pm_vector	cols[2];
	pm_type    *t = pm_type_new(arena, PM_TYPE_INT, true);

	for (int c = 0; c < 2; c++)
		pm_vector_init(&cols[c], t, 3, true, arena);
	/* (1, NULL) < (1, 0) < (2, -5) */
	PM_VEC_VALUES(&cols[0], int32_t)[0] = 1;
	cols[1].nulls[0] = 1;
	PM_VEC_VALUES(&cols[0], int32_t)[1] = 1;
	PM_VEC_VALUES(&cols[1], int32_t)[1] = 0;
	PM_VEC_VALUES(&cols[0], int32_t)[2] = 2;
	PM_VEC_VALUES(&cols[1], int32_t)[2] = -5;
	assert_true(pm_key_compare(cols, 0, cols, 1, 2) < 0);
	assert_true(pm_key_compare(cols, 1, cols, 2, 2) < 0);
	assert_true(pm_key_compare(cols, 2, cols, 0, 2) > 0);
	assert_int_equal(pm_key_compare(cols, 0, cols, 1, 1), 0);
}

static int
setup(void **state)
{
	arena = pm_arena_create(pm_env_default());
	return 0;
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
		cmocka_unit_test(test_floats),
		cmocka_unit_test(test_strings_and_nulls),
		cmocka_unit_test(test_fixed_types),
		cmocka_unit_test(test_multi_column),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
