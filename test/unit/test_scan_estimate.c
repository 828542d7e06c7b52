/*-------------------------------------------------------------------------
 * test_scan_estimate.c
 *	  Row estimates from file statistics (table/scan_estimate.h): the
 *	  fraction of a file's rows a predicate keeps, from min/max and null
 *	  counts, with Postgres' defaults where the file says nothing.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "common/arena.h"
#include "table/scan_estimate.h"

static pm_arena *arena;
static const pm_type *row;		/* ROW<i INT, s STRING, d DOUBLE> */
static pm_field_range ranges[3];
static pm_value lits[4];

static int
setup(void **state)
{
	pm_field	f[3];

	(void) state;
	arena = pm_arena_create(pm_env_default());
	memset(f, 0, sizeof(f));
	f[0].name = "i";
	f[0].type = pm_type_new(arena, PM_TYPE_INT, true);
	f[1].name = "s";
	f[1].type = pm_type_new(arena, PM_TYPE_VARCHAR, true);
	f[2].name = "d";
	f[2].type = pm_type_new(arena, PM_TYPE_DOUBLE, true);
	row = pm_type_new_row(arena, f, 3, false);
	/* 100 rows: i in 1..100 with 10 NULLs, s 'a'..'z', nothing known of d */
	memset(ranges, 0, sizeof(ranges));
	ranges[0].known = ranges[0].has_min_max = true;
	ranges[0].min.u.i64 = 1;
	ranges[0].max.u.i64 = 100;
	ranges[0].null_count = 10;
	ranges[1].known = ranges[1].has_min_max = true;
	ranges[1].min.u.bytes.ptr = (const uint8_t *) "a";
	ranges[1].min.u.bytes.len = 1;
	ranges[1].max.u.bytes.ptr = (const uint8_t *) "z";
	ranges[1].max.u.bytes.len = 1;
	ranges[1].null_count = 0;
	ranges[2].null_count = -1;
	return 0;
}

static int
teardown(void **state)
{
	(void) state;
	pm_arena_destroy(arena);
	return 0;
}

static pm_predicate
leaf(pm_pred_op op, int field, int64_t v)
{
	pm_predicate p;
	static int	next;

	memset(&p, 0, sizeof(p));
	p.op = op;
	p.field = field;
	if (op != PM_PRED_IS_NULL && op != PM_PRED_IS_NOT_NULL)
	{
		pm_value   *lit = &lits[next++ % 4];

		memset(lit, 0, sizeof(*lit));
		lit->u.i64 = v;
		p.literals = lit;
		p.nliterals = 1;
	}
	return p;
}

static double
fraction(const pm_predicate *p)
{
	return pm_estimate_fraction(p, row, ranges, 100);
}

static void
test_leaves(void **state)
{
	pm_predicate p;

	(void) state;
	p = leaf(PM_PRED_IS_NULL, 0, 0);
	assert_float_equal(fraction(&p), 0.10, 1e-9);
	p = leaf(PM_PRED_IS_NOT_NULL, 0, 0);
	assert_float_equal(fraction(&p), 0.90, 1e-9);
	/* 90 non-null values over 100 possible integers: 1 in 90 */
	p = leaf(PM_PRED_EQ, 0, 50);
	assert_float_equal(fraction(&p), 0.9 / 90, 1e-9);
	p = leaf(PM_PRED_EQ, 0, 101);
	assert_float_equal(fraction(&p), 0, 1e-9);
	p = leaf(PM_PRED_LT, 0, 11);	/* 1..10: a tenth of the range */
	assert_float_equal(fraction(&p), 0.9 * 0.10, 1e-9);
	p = leaf(PM_PRED_LE, 0, 10);
	assert_float_equal(fraction(&p), 0.9 * 0.10, 1e-9);
	p = leaf(PM_PRED_GE, 0, 91);
	assert_float_equal(fraction(&p), 0.9 * 0.10, 1e-9);
	p = leaf(PM_PRED_GT, 0, 100);
	assert_float_equal(fraction(&p), 0, 1e-9);
	p = leaf(PM_PRED_GE, 0, -5);
	assert_float_equal(fraction(&p), 0.9, 1e-9);
	p = leaf(PM_PRED_FALSE, 0, 0);
	assert_float_equal(fraction(&p), 0, 1e-9);
	/* nothing known of d: Postgres' defaults */
	p = leaf(PM_PRED_EQ, 2, 0);
	assert_float_equal(fraction(&p), 0.005, 1e-9);
	p = leaf(PM_PRED_LT, 2, 0);
	assert_float_equal(fraction(&p), 1.0 / 3, 1e-9);
	p = leaf(PM_PRED_IS_NULL, 2, 0);
	assert_float_equal(fraction(&p), 0.005, 1e-9);
}

static void
test_strings(void **state)
{
	pm_predicate p;
	pm_value	v;

	(void) state;
	memset(&p, 0, sizeof(p));
	memset(&v, 0, sizeof(v));
	p.op = PM_PRED_LT;
	p.field = 1;
	p.nliterals = 1;
	p.literals = &v;
	v.u.bytes.ptr = (const uint8_t *) "n";
	v.u.bytes.len = 1;
	/* 'a'..'z' spread evenly: 'n' is 13/25 of the way */
	assert_float_equal(fraction(&p), 13.0 / 25, 1e-9);
	p.op = PM_PRED_EQ;
	v.u.bytes.ptr = (const uint8_t *) "zz";
	v.u.bytes.len = 2;
	assert_float_equal(fraction(&p), 0, 1e-9);
	v.u.bytes.ptr = (const uint8_t *) "m";
	v.u.bytes.len = 1;
	assert_float_equal(fraction(&p), 0.01, 1e-9);	/* 1/rows, above the default */
}

static void
test_and_or_in(void **state)
{
	pm_predicate lo = leaf(PM_PRED_GE, 0, 11);
	pm_predicate hi = leaf(PM_PRED_LE, 0, 20);
	pm_predicate nn = leaf(PM_PRED_IS_NOT_NULL, 0, 0);
	pm_predicate *kids[3] = {&lo, &hi, &nn};
	pm_predicate and_p,
				or_p,
				in_p;
	pm_value	in_lits[3];

	(void) state;
	memset(&and_p, 0, sizeof(and_p));
	and_p.op = PM_PRED_AND;
	and_p.children = kids;
	/* a range 11..20 of one field: a tenth of the non-null rows, not the product */
	and_p.nchildren = 2;
	assert_float_equal(fraction(&and_p), 0.9 * 0.10, 1e-9);
	/* a third, independent child multiplies */
	and_p.nchildren = 3;
	assert_float_equal(fraction(&and_p), 0.9 * 0.10 * 0.9, 1e-9);
	or_p = and_p;
	or_p.op = PM_PRED_OR;
	or_p.nchildren = 2;
	{
		double		a = 0.9 * 0.9,	/* i >= 11 */
					b = 0.9 * 0.2;	/* i <= 20 */

		assert_float_equal(fraction(&or_p), a + b - a * b, 1e-9);
	}
	memset(&in_p, 0, sizeof(in_p));
	memset(in_lits, 0, sizeof(in_lits));
	in_lits[0].u.i64 = 5;
	in_lits[1].u.i64 = 500;		/* outside: nothing */
	in_lits[2].u.i64 = 7;
	in_p.op = PM_PRED_IN;
	in_p.field = 0;
	in_p.literals = in_lits;
	in_p.nliterals = 3;
	assert_float_equal(fraction(&in_p), 0.9 * 2 / 90, 1e-9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaves),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_and_or_in),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
