/*-------------------------------------------------------------------------
 * test_stats_filter.c
 *	  Statistics pruning follows Postgres' comparison semantics: NaN above
 *	  every float (and left out of max by Parquet/ORC writers), -0 = 0,
 *	  infinities, TIMESTAMP truncated to microseconds, NULL counts and
 *	  all-NULL files, literals decided by the FDW (PM_PRED_FALSE).
 *
 * Each case is a synthetic pm_field_range of one file and a leaf; the
 * expectation is what Postgres would answer for some row of such a file.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "row/data_type.h"
#include "table/stats_filter.h"

typedef struct fixture
{
	pm_arena   *arena;
	const pm_type *row;			/* ROW<d DOUBLE, f FLOAT, ts TIMESTAMP(9), i INT> */
	pm_field_range r[4];
} fixture;

static fixture fx;

static int
setup(void **state)
{
	pm_error	err;

	(void) state;
	memset(&fx, 0, sizeof(fx));
	fx.arena = pm_arena_create(pm_env_default());
	pm_error_clear(&err);
	if (pm_data_type_parse("ROW<d DOUBLE, f FLOAT, ts TIMESTAMP(9), i INT>", fx.arena,
						   &fx.row, &err) != PM_OK)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	(void) state;
	pm_arena_destroy(fx.arena);
	return 0;
}

/* A file of 10 rows, no NULLs, field in [min, max] (floats). */
static void
float_range(int field, double min, double max)
{
	pm_field_range *r = &fx.r[field];

	memset(r, 0, sizeof(*r));
	r->known = true;
	r->has_min_max = true;
	r->min.u.f64 = min;
	r->max.u.f64 = max;
	r->null_count = 0;
	r->row_count = 10;
}

static bool
may_match(pm_pred_op op, int field, double lit)
{
	pm_value	v;
	pm_predicate p;

	memset(&v, 0, sizeof(v));
	v.u.f64 = lit;
	memset(&p, 0, sizeof(p));
	p.op = op;
	p.field = field;
	p.nliterals = 1;
	p.literals = &v;
	return pm_stats_filter_may_match(&p, fx.row, fx.r, 4);
}

/* x > 0.1 on a file whose max (0.05) leaves out its NaN rows: keep. */
static void
test_nan_above_max(void **state)
{
	(void) state;
	for (int field = 0; field < 2; field++)
	{
		float_range(field, -1.0, 0.05);
		assert_true(may_match(PM_PRED_GT, field, 0.1));
		assert_true(may_match(PM_PRED_GE, field, 0.1));
		assert_true(may_match(PM_PRED_GE, field, INFINITY));
		assert_true(may_match(PM_PRED_GT, field, INFINITY));	/* NaN > Infinity */
		/* NaN <> 0.05 */
		float_range(field, 0.05, 0.05);
		assert_true(may_match(PM_PRED_NE, field, 0.05));
		/* NaN is neither below nor equal to a number: min still prunes */
		float_range(field, 1.0, 2.0);
		assert_false(may_match(PM_PRED_LT, field, 0.5));
		assert_false(may_match(PM_PRED_LE, field, 0.5));
		assert_false(may_match(PM_PRED_EQ, field, 0.5));
		assert_false(may_match(PM_PRED_EQ, field, 3.0));
		assert_true(may_match(PM_PRED_EQ, field, 1.5));
		/* a NaN bound is no bound */
		float_range(field, NAN, NAN);
		assert_true(may_match(PM_PRED_LT, field, 0.5));
		assert_true(may_match(PM_PRED_EQ, field, 0.5));
		/* OR of pruning and non-pruning children */
		float_range(field, -1.0, 0.05);
		{
			pm_value	lits[2];
			pm_predicate gt,
						lt,
						or;
			pm_predicate *kids[2] = {&gt, &lt};

			memset(lits, 0, sizeof(lits));
			memset(&gt, 0, sizeof(gt));
			memset(&lt, 0, sizeof(lt));
			memset(&or, 0, sizeof(or));
			lits[0].u.f64 = 0.1;
			lits[1].u.f64 = -5.0;
			gt.op = PM_PRED_GT;
			gt.field = field;
			gt.nliterals = 1;
			gt.literals = &lits[0];
			lt = gt;
			lt.op = PM_PRED_LT;
			lt.literals = &lits[1];
			or.op = PM_PRED_OR;
			or.nchildren = 2;
			or.children = kids;
			assert_true(pm_stats_filter_may_match(&or, fx.row, fx.r, 4));
		}
	}
}

/* -0 = 0, and infinities order as numbers. */
static void
test_zero_and_infinities(void **state)
{
	(void) state;
	float_range(0, -0.0, -0.0);
	assert_true(may_match(PM_PRED_EQ, 0, 0.0));
	assert_true(may_match(PM_PRED_LE, 0, 0.0));
	assert_false(may_match(PM_PRED_LT, 0, 0.0));
	float_range(0, 0.0, 0.0);
	assert_true(may_match(PM_PRED_EQ, 0, -0.0));
	assert_false(may_match(PM_PRED_LT, 0, -0.0));
	float_range(0, -INFINITY, 1.0);
	assert_true(may_match(PM_PRED_LT, 0, -1e308));
	assert_true(may_match(PM_PRED_EQ, 0, -INFINITY));
	float_range(0, 1.0, INFINITY);
	assert_false(may_match(PM_PRED_LT, 0, -INFINITY));
	assert_false(may_match(PM_PRED_LE, 0, 0.5));
	/* a NaN literal is never pruned on (the FDW does not push one) */
	assert_true(may_match(PM_PRED_EQ, 0, NAN));
	assert_true(may_match(PM_PRED_LT, 0, NAN));
}

/* NULL counts: IS NULL, IS NOT NULL, comparisons on all-NULL files. */
static void
test_null_counts(void **state)
{
	pm_predicate p;

	(void) state;
	memset(&p, 0, sizeof(p));
	p.field = 0;
	float_range(0, 1.0, 2.0);
	p.op = PM_PRED_IS_NULL;
	assert_false(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	fx.r[0].null_count = -1;	/* unknown */
	assert_true(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	fx.r[0].null_count = 3;
	assert_true(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	p.op = PM_PRED_IS_NOT_NULL;
	assert_true(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	/* all NULL: no min/max, nothing compares true, not even NaN's GT */
	fx.r[0].null_count = 10;
	fx.r[0].has_min_max = false;
	assert_false(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	assert_false(may_match(PM_PRED_GT, 0, 0.1));
	assert_false(may_match(PM_PRED_NE, 0, 0.1));
	p.op = PM_PRED_IS_NULL;
	assert_true(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	/* row count unknown: not known to be all NULL */
	fx.r[0].row_count = -1;
	assert_true(may_match(PM_PRED_GT, 0, 0.1));
}

/* TIMESTAMP(9) value 12:00:00.000000500 is 12:00:00 in Postgres. */
static void
test_timestamp_micros(void **state)
{
	pm_field_range *r = &fx.r[2];
	pm_value	lit;
	pm_predicate p;
	static const pm_pred_op keep[] = {PM_PRED_EQ, PM_PRED_LE, PM_PRED_GE, PM_PRED_IN};

	(void) state;
	memset(r, 0, sizeof(*r));
	r->known = true;
	r->has_min_max = true;
	r->min.u.i64 = r->max.u.i64 = 1622548800000000LL;
	r->min.nanos = r->max.nanos = 500;
	r->null_count = 0;
	r->row_count = 1;
	memset(&lit, 0, sizeof(lit));
	lit.u.i64 = 1622548800000000LL;
	memset(&p, 0, sizeof(p));
	p.field = 2;
	p.nliterals = 1;
	p.literals = &lit;
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
	{
		p.op = keep[i];
		assert_true(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	}
	p.op = PM_PRED_GT;
	assert_false(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	p.op = PM_PRED_LT;
	assert_false(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	p.op = PM_PRED_NE;
	assert_false(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	lit.u.i64 += 1;
	p.op = PM_PRED_LT;
	assert_true(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
	p.op = PM_PRED_EQ;
	assert_false(pm_stats_filter_may_match(&p, fx.row, fx.r, 4));
}

/* PM_PRED_FALSE prunes alone and in AND, not in an OR with a keeper. */
static void
test_decided_false(void **state)
{
	pm_predicate f,
				keep,
				both;
	pm_predicate *kids[2] = {&f, &keep};

	(void) state;
	memset(&fx.r, 0, sizeof(fx.r));
	memset(&f, 0, sizeof(f));
	f.op = PM_PRED_FALSE;
	f.field = -1;
	assert_false(pm_stats_filter_may_match(&f, fx.row, fx.r, 4));
	memset(&keep, 0, sizeof(keep));
	keep.op = PM_PRED_IS_NOT_NULL;
	keep.field = 3;
	memset(&both, 0, sizeof(both));
	both.op = PM_PRED_AND;
	both.nchildren = 2;
	both.children = kids;
	assert_false(pm_stats_filter_may_match(&both, fx.row, fx.r, 4));
	both.op = PM_PRED_OR;
	assert_true(pm_stats_filter_may_match(&both, fx.row, fx.r, 4));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nan_above_max),
		cmocka_unit_test(test_zero_and_infinities),
		cmocka_unit_test(test_null_counts),
		cmocka_unit_test(test_timestamp_micros),
		cmocka_unit_test(test_decided_false),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
