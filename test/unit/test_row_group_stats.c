/*-------------------------------------------------------------------------
 * test_row_group_stats.c
 *	  The row-group decision: Parquet column-chunk statistics become
 *	  pm_field_range values (format/parquet/parquet_stats.c) and the
 *	  file-level evaluator (table/stats_filter.c) decides on them.
 *
 * A hand-built footer (one row group of 10 rows) with statistics set per
 * case: which min/max are trusted (column orders, deprecated fields,
 * signed vs unsigned byte order, unsigned integers, INT96), NaN, NULL
 * counts, all-NULL chunks, missing statistics, decimals in fixed bytes,
 * a column absent from the file.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "format/parquet/parquet_assembly.h"
#include "format/parquet/parquet_stats.h"
#include "row/data_type.h"
#include "table/stats_filter.h"

enum
{
	C_I,						/* INT32 */
	C_U,						/* INT32 UINT_32 */
	C_S,						/* BYTE_ARRAY UTF8 */
	C_D,						/* DOUBLE */
	C_DEC,						/* FIXED_LEN_BYTE_ARRAY(9) DECIMAL(20,2) */
	C_T,						/* INT96 */
	NLEAVES,
	C_ABSENT = NLEAVES			/* requested, not in the file */
};

typedef struct fixture
{
	pm_arena   *arena;
	pm_pq_node	root;
	pm_pq_node	nodes[NLEAVES];
	pm_pq_node *children[NLEAVES];
	pm_pq_node *leaves[NLEAVES];
	pm_pq_chunk chunks[NLEAVES];
	pm_pq_row_group rg;
	bool		orders[NLEAVES];
	pm_pq_metadata md;
	const pm_type *request;
	pm_pq_plan	plan;
	pm_field_range ranges[NLEAVES + 1];
	uint8_t		bytes[NLEAVES][4][16];	/* stats values: min_value, max_value, min, max */
} fixture;

static fixture fx;

static void
leaf(int i, const char *name, int physical, int type_length, int converted)
{
	pm_pq_node *n = &fx.nodes[i];

	memset(n, 0, sizeof(*n));
	n->name = name;
	n->physical = physical;
	n->type_length = type_length;
	n->repetition = PM_PQ_OPTIONAL;
	n->converted = converted;
	n->parent = &fx.root;
	n->depth = 1;
	n->max_def = 1;
	n->leaf_index = i;
	if (converted == PM_PQ_CT_DECIMAL)
	{
		n->precision = 20;
		n->scale = 2;
	}
	fx.children[i] = n;
	fx.leaves[i] = n;
	fx.chunks[i].physical = physical;
	fx.chunks[i].num_values = 10;
	fx.chunks[i].has_meta = true;
}

static int
setup(void **state)
{
	pm_error	err;

	(void) state;
	memset(&fx, 0, sizeof(fx));
	fx.arena = pm_arena_create(pm_env_default());
	fx.root.name = "root";
	fx.root.physical = -1;
	fx.root.leaf_index = -1;
	fx.root.nchildren = NLEAVES;
	fx.root.children = fx.children;
	fx.root.converted = PM_PQ_CT_NONE;
	leaf(C_I, "i", PM_PQ_INT32, 0, PM_PQ_CT_NONE);
	leaf(C_U, "u", PM_PQ_INT32, 0, PM_PQ_CT_UINT_32);
	leaf(C_S, "s", PM_PQ_BYTE_ARRAY, 0, PM_PQ_CT_UTF8);
	leaf(C_D, "d", PM_PQ_DOUBLE, 0, PM_PQ_CT_NONE);
	leaf(C_DEC, "m", PM_PQ_FIXED_LEN_BYTE_ARRAY, 9, PM_PQ_CT_DECIMAL);
	leaf(C_T, "t", PM_PQ_INT96, 0, PM_PQ_CT_NONE);
	fx.rg.num_rows = 10;
	fx.rg.ncolumns = NLEAVES;
	fx.rg.columns = fx.chunks;
	fx.md.num_rows = 10;
	fx.md.root = &fx.root;
	fx.md.nnodes = NLEAVES + 1;
	fx.md.nleaves = NLEAVES;
	fx.md.leaves = fx.leaves;
	fx.md.nrow_groups = 1;
	fx.md.row_groups = &fx.rg;
	for (int i = 0; i < NLEAVES; i++)
		fx.orders[i] = true;
	fx.md.ncolumn_orders = NLEAVES;
	fx.md.type_defined_order = fx.orders;
	pm_error_clear(&err);
	if (pm_data_type_parse("ROW<i INT, u INT, s STRING, d DOUBLE, m DECIMAL(20, 2), "
						   "t TIMESTAMP(9), absent INT>", fx.arena, &fx.request, &err) != PM_OK ||
		pm_pq_plan_build(fx.request, &fx.md, pm_env_default(), fx.arena, &fx.plan, &err) != PM_OK)
	{
		fprintf(stderr, "setup: %s\n", err.message);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void) state;
	pm_pq_plan_release(&fx.plan);
	pm_arena_destroy(fx.arena);
	return 0;
}

/* Forget every chunk's statistics (each test sets what it needs). */
static int
reset(void **state)
{
	(void) state;
	for (int i = 0; i < NLEAVES; i++)
	{
		fx.chunks[i].has_stats = false;
		memset(&fx.chunks[i].stats, 0, sizeof(pm_pq_stats));
		fx.chunks[i].stats.null_count = -1;
		fx.orders[i] = true;
	}
	fx.md.type_defined_order = fx.orders;
	return 0;
}

static const uint8_t *
le32(int c, int slot, int32_t v)
{
	memcpy(fx.bytes[c][slot], &v, 4);
	return fx.bytes[c][slot];
}

static const uint8_t *
le64d(int c, int slot, double v)
{
	memcpy(fx.bytes[c][slot], &v, 8);
	return fx.bytes[c][slot];
}

/* unscaled value as 9 big-endian two's complement bytes */
static const uint8_t *
be9(int c, int slot, int64_t v)
{
	for (int i = 8; i >= 0; i--)
	{
		fx.bytes[c][slot][i] = (uint8_t) (v & 0xff);
		v >>= 8;				/* arithmetic: sign-extends */
	}
	return fx.bytes[c][slot];
}

/* min_value/max_value (type order) of column c */
static void
stats_value(int c, const uint8_t *mn, uint32_t mnl, const uint8_t *mx, uint32_t mxl,
			int64_t nulls)
{
	fx.chunks[c].has_stats = true;
	fx.chunks[c].stats.min_value = mn;
	fx.chunks[c].stats.min_value_len = mnl;
	fx.chunks[c].stats.max_value = mx;
	fx.chunks[c].stats.max_value_len = mxl;
	fx.chunks[c].stats.null_count = nulls;
}

/* deprecated min/max (signed order) of column c */
static void
stats_deprecated(int c, const uint8_t *mn, uint32_t mnl, const uint8_t *mx, uint32_t mxl,
				 int64_t nulls)
{
	fx.chunks[c].has_stats = true;
	fx.chunks[c].stats.min = mn;
	fx.chunks[c].stats.min_len = mnl;
	fx.chunks[c].stats.max = mx;
	fx.chunks[c].stats.max_len = mxl;
	fx.chunks[c].stats.null_count = nulls;
}

/* May some row of the row group satisfy "column op lit"? */
static bool
may(int col, pm_pred_op op, const pm_value *lit)
{
	pm_predicate p;

	memset(&p, 0, sizeof(p));
	p.op = op;
	p.field = col;
	p.nliterals = lit ? 1 : 0;
	p.literals = (pm_value *) lit;
	pm_pq_row_group_ranges(&fx.md, &fx.plan, 0, fx.arena, fx.ranges);
	return pm_stats_filter_may_match(&p, fx.request, fx.ranges, NLEAVES + 1);
}

static bool
may_i(int col, pm_pred_op op, int64_t v)
{
	pm_value	lit;

	memset(&lit, 0, sizeof(lit));
	lit.u.i64 = v;
	return may(col, op, &lit);
}

static bool
may_d(pm_pred_op op, double v)
{
	pm_value	lit;

	memset(&lit, 0, sizeof(lit));
	lit.u.f64 = v;
	return may(C_D, op, &lit);
}

static bool
may_s(pm_pred_op op, const char *s)
{
	pm_value	lit;

	memset(&lit, 0, sizeof(lit));
	lit.u.bytes.ptr = (const uint8_t *) s;
	lit.u.bytes.len = (int32_t) strlen(s);
	return may(C_S, op, &lit);
}

static bool
may_dec(pm_pred_op op, int64_t unscaled)
{
	pm_value	lit;

	memset(&lit, 0, sizeof(lit));
	lit.u.i128 = unscaled;
	return may(C_DEC, op, &lit);
}

/* min_value/max_value are used only under the footer's TYPE_ORDER. */
static void
test_column_orders(void **state)
{
	(void) state;
	stats_value(C_I, le32(C_I, 0, 5), 4, le32(C_I, 1, 9), 4, 0);
	assert_false(may_i(C_I, PM_PRED_EQ, 3));
	assert_true(may_i(C_I, PM_PRED_EQ, 7));
	assert_false(may_i(C_I, PM_PRED_GT, 9));
	assert_true(may_i(C_I, PM_PRED_GE, 9));
	/* no column orders: min_value/max_value mean nothing */
	fx.md.type_defined_order = NULL;
	assert_true(may_i(C_I, PM_PRED_EQ, 3));
	/* an order other than TYPE_ORDER for this column */
	fx.md.type_defined_order = fx.orders;
	fx.orders[C_I] = false;
	assert_true(may_i(C_I, PM_PRED_EQ, 3));
}

/* Deprecated min/max: signed order, trusted for numbers only. */
static void
test_deprecated_min_max(void **state)
{
	(void) state;
	fx.md.type_defined_order = NULL;
	stats_deprecated(C_I, le32(C_I, 2, -4), 4, le32(C_I, 3, 2), 4, 0);
	assert_false(may_i(C_I, PM_PRED_LT, -4));
	assert_true(may_i(C_I, PM_PRED_LE, -4));
	assert_false(may_i(C_I, PM_PRED_EQ, 3));
	/* strings: signed byte order is not the order of the values */
	stats_deprecated(C_S, (const uint8_t *) "b", 1, (const uint8_t *) "c", 1, 0);
	assert_true(may_s(PM_PRED_EQ, "a"));
	/* decimals in bytes likewise */
	stats_deprecated(C_DEC, be9(C_DEC, 2, 100), 9, be9(C_DEC, 3, 200), 9, 0);
	assert_true(may_dec(PM_PRED_EQ, 50));
	/* with min_value/max_value present the deprecated pair is ignored */
	fx.md.type_defined_order = fx.orders;
	stats_value(C_I, le32(C_I, 0, 10), 4, le32(C_I, 1, 20), 4, 0);
	assert_false(may_i(C_I, PM_PRED_EQ, 0));
	assert_true(may_i(C_I, PM_PRED_EQ, 15));
}

/* Strings compare as unsigned bytes (UTF-8 order), as memcmp. */
static void
test_string_order(void **state)
{
	(void) state;
	stats_value(C_S, (const uint8_t *) "apple", 5, (const uint8_t *) "zebra", 5, 0);
	assert_false(may_s(PM_PRED_EQ, "\xc3\xa9t\xc3\xa9"));	/* "été" > "zebra" */
	assert_false(may_s(PM_PRED_LT, "apple"));
	assert_true(may_s(PM_PRED_LE, "apple"));
	assert_true(may_s(PM_PRED_EQ, "m"));
	assert_false(may_s(PM_PRED_GT, "zebra"));
	assert_true(may_s(PM_PRED_GT, "zebr"));
}

/* Unsigned integers and INT96 timestamps: min/max never used. */
static void
test_untrusted_orders(void **state)
{
	pm_value	lit;
	static uint8_t int96[2][12];

	(void) state;
	stats_value(C_U, le32(C_U, 0, 0), 4, le32(C_U, 1, 1), 4, 0);
	assert_true(may_i(C_U, PM_PRED_EQ, 5));
	/* the null count still counts */
	assert_false(may(C_U, PM_PRED_IS_NULL, NULL));
	memset(int96, 0, sizeof(int96));
	stats_value(C_T, int96[0], 12, int96[1], 12, 0);
	memset(&lit, 0, sizeof(lit));
	lit.u.i64 = 1000000000000000LL;
	assert_true(may(C_T, PM_PRED_EQ, &lit));
	assert_true(may(C_T, PM_PRED_GT, &lit));
}

/* NaN in statistics: incomparable, keeps; NaN above max: never pruned from above. */
static void
test_nan(void **state)
{
	(void) state;
	stats_value(C_D, le64d(C_D, 0, 1.0), 8, le64d(C_D, 1, 2.0), 8, 0);
	assert_false(may_d(PM_PRED_LT, 0.5));
	assert_false(may_d(PM_PRED_EQ, 3.0));
	assert_true(may_d(PM_PRED_GT, 100.0));	/* a NaN row may hide above max */
	assert_true(may_d(PM_PRED_NE, 1.5));
	stats_value(C_D, le64d(C_D, 0, 1.0), 8, le64d(C_D, 1, NAN), 8, 0);
	assert_true(may_d(PM_PRED_LT, 0.5));
	assert_true(may_d(PM_PRED_EQ, 3.0));
	stats_value(C_D, le64d(C_D, 0, NAN), 8, le64d(C_D, 1, NAN), 8, 0);
	assert_true(may_d(PM_PRED_LT, 0.5));
	/* -0 and 0 are equal */
	stats_value(C_D, le64d(C_D, 0, -0.0), 8, le64d(C_D, 1, -0.0), 8, 0);
	assert_true(may_d(PM_PRED_EQ, 0.0));
	assert_false(may_d(PM_PRED_LT, 0.0));
}

/* NULL counts: all-NULL chunks, no NULLs, unknown counts. */
static void
test_nulls(void **state)
{
	(void) state;
	/* all NULL: no min/max, null_count = rows */
	fx.chunks[C_I].has_stats = true;
	fx.chunks[C_I].stats.null_count = 10;
	assert_false(may(C_I, PM_PRED_IS_NOT_NULL, NULL));
	assert_true(may(C_I, PM_PRED_IS_NULL, NULL));
	assert_false(may_i(C_I, PM_PRED_EQ, 1));
	assert_false(may_i(C_I, PM_PRED_NE, 1));
	/* no NULL */
	stats_value(C_I, le32(C_I, 0, 5), 4, le32(C_I, 1, 9), 4, 0);
	assert_false(may(C_I, PM_PRED_IS_NULL, NULL));
	assert_true(may(C_I, PM_PRED_IS_NOT_NULL, NULL));
	/* null_count absent, or beyond the row count: unknown */
	fx.chunks[C_I].stats.null_count = -1;
	assert_true(may(C_I, PM_PRED_IS_NULL, NULL));
	fx.chunks[C_I].stats.null_count = 11;
	assert_true(may(C_I, PM_PRED_IS_NULL, NULL));
	/* a column absent from the file is all NULL */
	assert_false(may(C_ABSENT, PM_PRED_IS_NOT_NULL, NULL));
	assert_false(may_i(C_ABSENT, PM_PRED_EQ, 1));
	assert_true(may(C_ABSENT, PM_PRED_IS_NULL, NULL));
}

/* No statistics at all, or values of the wrong width: keep everything. */
static void
test_missing_stats(void **state)
{
	(void) state;
	assert_true(may_i(C_I, PM_PRED_EQ, 1));
	assert_true(may(C_I, PM_PRED_IS_NULL, NULL));
	assert_true(may(C_I, PM_PRED_IS_NOT_NULL, NULL));
	assert_true(may_d(PM_PRED_LT, -1e300));
	/* a 3-byte INT32 min: not a value, ignored */
	stats_value(C_I, le32(C_I, 0, 5), 3, le32(C_I, 1, 9), 4, 0);
	assert_true(may_i(C_I, PM_PRED_EQ, 1));
	/* only one of min/max */
	stats_value(C_I, le32(C_I, 0, 5), 4, NULL, 0, 0);
	assert_true(may_i(C_I, PM_PRED_EQ, 1));
}

/* Decimals in fixed bytes: big-endian two's complement, signed order. */
static void
test_decimal_bytes(void **state)
{
	(void) state;
	stats_value(C_DEC, be9(C_DEC, 0, -500), 9, be9(C_DEC, 1, 300), 9, 0);
	assert_false(may_dec(PM_PRED_LT, -500));
	assert_true(may_dec(PM_PRED_LE, -500));
	assert_true(may_dec(PM_PRED_EQ, -100));
	assert_false(may_dec(PM_PRED_GT, 300));
	assert_false(may_dec(PM_PRED_EQ, 301));
	/* without a DECIMAL annotation the bytes' order is unsigned: unused */
	fx.nodes[C_DEC].converted = PM_PQ_CT_NONE;
	assert_true(may_dec(PM_PRED_GT, 300));
	fx.nodes[C_DEC].converted = PM_PQ_CT_DECIMAL;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_column_orders, reset),
		cmocka_unit_test_setup(test_deprecated_min_max, reset),
		cmocka_unit_test_setup(test_string_order, reset),
		cmocka_unit_test_setup(test_untrusted_orders, reset),
		cmocka_unit_test_setup(test_nan, reset),
		cmocka_unit_test_setup(test_nulls, reset),
		cmocka_unit_test_setup(test_missing_stats, reset),
		cmocka_unit_test_setup(test_decimal_bytes, reset),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
