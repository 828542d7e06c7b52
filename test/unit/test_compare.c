/*-------------------------------------------------------------------------
 * test_compare.c
 *	  src/common/compare.h: integer, DECIMAL and byte orders, Java's
 *	  Float/Double.compare and Postgres' float8_cmp at their edges (zeros
 *	  of both signs, NaNs of any bits, infinities).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "common/compare.h"

static double
nan_with_bits(uint64_t bits)
{
	double		d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void
test_integers(void **state)
{
	assert_int_equal(pm_cmp_i64(INT64_MIN, INT64_MAX), -1);
	assert_int_equal(pm_cmp_i64(INT64_MAX, INT64_MIN), 1);
	assert_int_equal(pm_cmp_i64(-7, -7), 0);
	assert_int_equal(pm_cmp_i128(-((pm_int128) 1 << 100), 5), -1);
	assert_int_equal(pm_cmp_i128((pm_int128) 1 << 100, ((pm_int128) 1 << 100) - 1), 1);
	assert_int_equal(pm_cmp_i128(0, 0), 0);
}

static void
test_bytes(void **state)
{
	const uint8_t hi[] = {0xff};
	const uint8_t lo[] = {0x01, 0x00};

	/* unsigned: 0xff after 0x01 whatever the lengths */
	assert_int_equal(pm_cmp_bytes(hi, 1, lo, 2), 1);
	assert_int_equal(pm_cmp_bytes(lo, 2, hi, 1), -1);
	/* a prefix sorts first; empty first of all (pointers unused at length 0) */
	assert_int_equal(pm_cmp_bytes(lo, 1, lo, 2), -1);
	assert_int_equal(pm_cmp_bytes(lo, 2, lo, 1), 1);
	assert_int_equal(pm_cmp_bytes(NULL, 0, lo, 1), -1);
	assert_int_equal(pm_cmp_bytes(NULL, 0, NULL, 0), 0);
	assert_int_equal(pm_cmp_bytes((const uint8_t *) "Alex", 4, (const uint8_t *) "Alex", 4), 0);
}

static void
test_java_double(void **state)
{
	double		nan2 = nan_with_bits(UINT64_C(0xfff0000000000001));	/* negative, odd bits */

	assert_int_equal(pm_cmp_double_java(-0.0, 0.0), -1);
	assert_int_equal(pm_cmp_double_java(0.0, -0.0), 1);
	assert_int_equal(pm_cmp_double_java(-0.0, -0.0), 0);
	assert_int_equal(pm_cmp_double_java(NAN, nan2), 0);
	assert_int_equal(pm_cmp_double_java(nan2, INFINITY), 1);
	assert_int_equal(pm_cmp_double_java(-INFINITY, nan2), -1);
	assert_int_equal(pm_cmp_double_java(-INFINITY, -1e308), -1);
	assert_int_equal(pm_cmp_double_java(1.5, 2.5), -1);
	assert_int_equal(pm_cmp_double_java(-1.5, -2.5), 1);
	assert_int_equal(pm_cmp_double_java(2.5, 2.5), 0);
}

/* floats widened: Float.compare's order */
static void
test_java_float(void **state)
{
	assert_int_equal(pm_cmp_double_java(-0.0f, 0.0f), -1);
	assert_int_equal(pm_cmp_double_java(0.0f, -0.0f), 1);
	assert_int_equal(pm_cmp_double_java(NAN, -NAN), 0);
	assert_int_equal(pm_cmp_double_java(NAN, INFINITY), 1);
	assert_int_equal(pm_cmp_double_java(-INFINITY, -NAN), -1);
	assert_int_equal(pm_cmp_double_java(3.0f, 3.0f), 0);
	assert_int_equal(pm_cmp_double_java(-3.0f, 3.0f), -1);
}

static void
test_pg_double(void **state)
{
	/* the SQL order: zeros equal, NaN above +inf and equal to any NaN */
	assert_int_equal(pm_cmp_double_pg(-0.0, 0.0), 0);
	assert_int_equal(pm_cmp_double_pg(NAN, -NAN), 0);
	assert_int_equal(pm_cmp_double_pg(NAN, INFINITY), 1);
	assert_int_equal(pm_cmp_double_pg(INFINITY, -NAN), -1);
	assert_int_equal(pm_cmp_double_pg(-INFINITY, -1e308), -1);
	assert_int_equal(pm_cmp_double_pg(1.5, 1.25), 1);
	assert_int_equal(pm_cmp_double_pg(1.5, 1.5), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_java_double),
		cmocka_unit_test(test_java_float),
		cmocka_unit_test(test_pg_double),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
