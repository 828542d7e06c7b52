/*-------------------------------------------------------------------------
 * test_merge_aggregate.c
 *	  The aggregation merge engine and every implemented aggregate function
 *	  on hand-built runs (test/unit/merge_fixture.c): agg, retraction,
 *	  ignore-retract, remove-record-on-delete, default function, errors.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "merge_fixture.h"

#define RUNS(...) ((const char *const *const[]) {__VA_ARGS__, NULL})
#define ROWS(...) ((const char *const[]) {__VA_ARGS__, NULL})

/* One value column v of `type` aggregated by `func` (+ extra options). */
static const char *
agg1(const char *type, const char *func, const char *extra, const char *const *const *runs)
{
	char		fields[256],
				opts[512];

	snprintf(fields, sizeof(fields), "{\"id\":1,\"name\":\"v\",\"type\":\"%s\"}", type);
	snprintf(opts, sizeof(opts),
			 "\"merge-engine\":\"aggregation\",\"fields.v.aggregate-function\":\"%s\"%s%s",
			 func, extra[0] ? "," : "", extra);
	return merge_fixture_run(fields, opts, runs, NULL, 0, false);
}

#define EXPECT(got, want) \
	do { const char *g_ = (got); if (strcmp(g_, (want)) != 0) \
		fail_msg("line %d: got %s, want %s", __LINE__, g_, (want)); } while (0)

static void
test_sum_product(void **state)
{
	EXPECT(agg1("INT", "sum", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|+I|7"), ROWS("1|3|+I|null"))),
		   "1|12");
	/* retraction: -U subtracts; retract onto NULL negates */
	EXPECT(agg1("BIGINT", "sum", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|-U|7"))), "1|-2");
	EXPECT(agg1("BIGINT", "sum", "", RUNS(ROWS("1|1|-D|5"), ROWS("1|2|+I|null"))), "1|-5");
	/* the result kind is +I even when the last record retracts */
	EXPECT(agg1("DOUBLE", "sum", "", RUNS(ROWS("1|1|+I|1.5"), ROWS("1|2|-D|0.5"))), "1|1");
	EXPECT(agg1("DECIMAL(10, 2)", "sum", "", RUNS(ROWS("1|1|+I|1.25"), ROWS("1|2|+I|2.5"))),
		   "1|3.75");
	/* exact integer arithmetic: overflow is an error */
	assert_non_null(strstr(agg1("TINYINT", "sum", "",
								RUNS(ROWS("1|1|+I|100"), ROWS("1|2|+I|100"))), "ERROR invalid"));
	EXPECT(agg1("TINYINT", "sum", "", RUNS(ROWS("1|1|+I|100"), ROWS("1|2|+I|27"))), "1|127");
	EXPECT(agg1("SMALLINT", "sum", "", RUNS(ROWS("1|1|+I|-32000"), ROWS("1|2|+I|-768"))),
		   "1|-32768");
	assert_non_null(strstr(agg1("SMALLINT", "sum", "",
								RUNS(ROWS("1|1|+I|-32000"), ROWS("1|2|+I|-769"))), "ERROR invalid"));
	assert_non_null(strstr(agg1("INT", "sum", "",
								RUNS(ROWS("1|1|+I|2147483647"), ROWS("1|2|+I|1"))), "ERROR invalid"));
	EXPECT(agg1("INT", "product", "", RUNS(ROWS("1|1|+I|3"), ROWS("1|2|+I|4"), ROWS("1|3|-U|2"))),
		   "1|6");
	EXPECT(agg1("DECIMAL(10, 2)", "product", "", RUNS(ROWS("1|1|+I|1.50"), ROWS("1|2|+I|2.25"))),
		   "1|3.38");
	assert_non_null(strstr(agg1("STRING", "sum", "", RUNS(ROWS("1|1|+I|a"))), "ERROR invalid"));
}

static void
test_min_max_bool(void **state)
{
	EXPECT(agg1("INT", "max", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|+I|null"), ROWS("1|3|+I|3"))),
		   "1|5");
	EXPECT(agg1("STRING", "min", "", RUNS(ROWS("1|1|+I|b"), ROWS("1|2|+I|ab"), ROWS("1|3|+I|c"))),
		   "1|ab");
	/* no retraction, unless ignore-retract */
	assert_non_null(strstr(agg1("INT", "max", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|-U|3"))),
						   "ERROR unsupported"));
	EXPECT(agg1("INT", "max", "\"fields.v.ignore-retract\":\"true\"",
				RUNS(ROWS("1|1|+I|5"), ROWS("1|2|-U|9"))), "1|5");
	EXPECT(agg1("BOOLEAN", "bool_and", "",
				RUNS(ROWS("1|1|+I|true"), ROWS("1|2|+I|false"), ROWS("1|3|+I|true"))), "1|false");
	EXPECT(agg1("BOOLEAN", "bool_or", "",
				RUNS(ROWS("1|1|+I|false"), ROWS("1|2|+I|null"), ROWS("1|3|+I|true"))), "1|true");
}

static void
test_value_functions(void **state)
{
	const char *const *const runs = NULL;

	(void) runs;
	EXPECT(agg1("INT", "last_value", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|+I|null"))), "1|null");
	EXPECT(agg1("INT", "last_non_null_value", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|+I|null"))),
		   "1|5");
	EXPECT(agg1("INT", "first_value", "", RUNS(ROWS("1|1|+I|null"), ROWS("1|2|+I|5"))), "1|null");
	EXPECT(agg1("INT", "first_non_null_value", "",
				RUNS(ROWS("1|1|+I|null"), ROWS("1|2|+I|5"), ROWS("1|3|+I|6"))), "1|5");
	EXPECT(agg1("INT", "first_not_null_value", "",
				RUNS(ROWS("1|1|+I|null"), ROWS("1|2|+I|5"), ROWS("1|3|+I|6"))), "1|5");
	/* first_value state is per key */
	EXPECT(agg1("INT", "first_value", "",
				RUNS(ROWS("1|1|+I|1", "2|1|+I|2"), ROWS("1|2|+I|5", "2|2|+I|6"))), "1|1;2|2");
	/* last_value retract -> NULL; last_non_null_value retract of non-NULL -> NULL */
	EXPECT(agg1("INT", "last_value", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|-U|5"))), "1|null");
	EXPECT(agg1("INT", "last_non_null_value", "", RUNS(ROWS("1|1|+I|5"), ROWS("1|2|-U|null"))),
		   "1|5");
	/* default function for every non-key column */
	EXPECT(merge_fixture_run("{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},"
							 "{\"id\":2,\"name\":\"b\",\"type\":\"INT\"}",
							 "\"merge-engine\":\"aggregation\",\"fields.default-aggregate-function\":\"sum\","
							 "\"fields.b.aggregate-function\":\"max\"",
							 RUNS(ROWS("1|1|+I|1|1"), ROWS("1|2|+I|2|7"), ROWS("1|3|+I|3|4")),
							 NULL, 0, false),
		   "1|6|7");
	/* without any function: last_non_null_value */
	EXPECT(merge_fixture_run("{\"id\":1,\"name\":\"a\",\"type\":\"INT\"}",
							 "\"merge-engine\":\"aggregation\"",
							 RUNS(ROWS("1|1|+I|1"), ROWS("1|2|+I|null")), NULL, 0, false),
		   "1|1");
}

static void
test_listagg(void **state)
{
	EXPECT(agg1("STRING", "listagg", "",
				RUNS(ROWS("1|1|+I|a"), ROWS("1|2|+I|  "), ROWS("1|3|+I|b"), ROWS("1|4|+I|null"))),
		   "1|a,b");
	EXPECT(agg1("STRING", "listagg", "\"fields.v.list-agg-delimiter\":\";\"",
				RUNS(ROWS("1|1|+I|a"), ROWS("1|2|+I|b"))), "1|a;b");
	EXPECT(agg1("STRING", "listagg", "\"fields.v.distinct\":\"true\",\"fields.v.list-agg-delimiter\":\";\"",
				RUNS(ROWS("1|1|+I|a;b"), ROWS("1|2|+I|b;c; ;a"), ROWS("1|3|+I|c"))), "1|a;b;c");
	assert_non_null(strstr(agg1("STRING", "listagg", "",
								RUNS(ROWS("1|1|+I|a"), ROWS("1|2|-D|b"))), "ERROR unsupported"));
}

static void
test_collect_merge_map(void **state)
{
	EXPECT(agg1("ARRAY<INT>", "collect", "",
				RUNS(ROWS("1|1|+I|[1,2]"), ROWS("1|2|+I|[2,3]"), ROWS("1|3|+I|null"))), "1|[1,2,2,3]");
	EXPECT(agg1("ARRAY<INT>", "collect", "\"fields.v.distinct\":\"true\"",
				RUNS(ROWS("1|1|+I|[1,2,1]"), ROWS("1|2|+I|[2,3]"))), "1|[1,2,3]");
	/* retract removes one occurrence per retracted element */
	EXPECT(agg1("ARRAY<INT>", "collect", "",
				RUNS(ROWS("1|1|+I|[1,2,2,3]"), ROWS("1|2|-U|[2,3,9]"))), "1|[1,2]");
	EXPECT(agg1("ARRAY<STRING>", "collect", "\"fields.v.distinct\":\"true\"",
				RUNS(ROWS("1|1|+I|[a,b]"), ROWS("1|2|+I|[b,c]"))), "1|[a,b,c]");
	EXPECT(agg1("MAP<INT, STRING>", "merge_map", "",
				RUNS(ROWS("1|1|+I|{1:a,2:b}"), ROWS("1|2|+I|{2:x,3:c}"))), "1|{1:a,2:x,3:c}");
	EXPECT(agg1("MAP<INT, STRING>", "merge_map", "",
				RUNS(ROWS("1|1|+I|{1:a,2:b}"), ROWS("1|2|-D|{2:zz}"))), "1|{1:a}");
	assert_non_null(strstr(agg1("INT", "collect", "", RUNS(ROWS("1|1|+I|1"))), "ERROR invalid"));
}

static void
test_nested(void **state)
{
	const char *t = "ARRAY<ROW<id INT, a STRING, ts INT>>";

	/* nested_update keyed by id, newer-or-equal nested sequence replaces */
	EXPECT(agg1(t, "nested_update", "\"fields.v.nested-key\":\"id\",\"fields.v.nested-sequence-field\":\"ts\"",
				RUNS(ROWS("1|1|+I|[(1,a,5),(2,b,1)]"), ROWS("1|2|+I|[(1,old,3),(3,c,1)]"),
					 ROWS("1|3|+I|[(2,b2,1),null]"))),
		   "1|[(1,a,5),(2,b2,1),(3,c,1)]");
	/* keyed retract removes the keys; count-limit caps new keys */
	EXPECT(agg1(t, "nested_update", "\"fields.v.nested-key\":\"id\",\"fields.v.count-limit\":\"2\"",
				RUNS(ROWS("1|1|+I|[(1,a,5)]"), ROWS("1|2|+I|[(2,b,1),(3,c,1)]"),
					 ROWS("1|3|-U|[(1,x,0)]"))),
		   "1|[(2,b,1)]");
	/* null keys: ignore drops them, error fails */
	EXPECT(agg1(t, "nested_update", "\"fields.v.nested-key\":\"id\",\"fields.v.nested-key-null-strategy\":\"ignore\"",
				RUNS(ROWS("1|1|+I|[(null,a,5),(1,b,1)]"), ROWS("1|2|+I|[(2,c,1)]"))),
		   "1|[(1,b,1),(2,c,1)]");
	assert_non_null(strstr(agg1(t, "nested_update", "\"fields.v.nested-key\":\"id\",\"fields.v.nested-key-null-strategy\":\"error\"",
								RUNS(ROWS("1|1|+I|[(null,a,5)]"), ROWS("1|2|+I|[(2,c,1)]"))),
						   "ERROR invalid"));
	/* unkeyed: append non-NULL rows; retract removes equal rows */
	EXPECT(agg1(t, "nested_update", "",
				RUNS(ROWS("1|1|+I|[(1,a,5),null]"), ROWS("1|2|+I|[(1,a,5),(2,b,1)]"),
					 ROWS("1|3|-D|[(1,a,5)]"))),
		   "1|[(2,b,1)]");
	/* nested_partial_update: non-NULL fields overwrite per nested key */
	EXPECT(agg1(t, "nested_partial_update", "\"fields.v.nested-key\":\"id\"",
				RUNS(ROWS("1|1|+I|[(1,a,null),(2,b,2)]"), ROWS("1|2|+I|[(1,null,7)]"),
					 ROWS("1|3|+I|[(2,null,null),(1,z,null)]"))),
		   "1|[(1,z,7),(2,b,2)]");
	assert_non_null(strstr(agg1(t, "nested_partial_update", "", RUNS(ROWS("1|1|+I|[(1,a,1)]"))),
						   "ERROR invalid"));
	/* merge_map_with_keytime: newer ts (string order) wins, NULL value removes, NULL ts ignored */
	EXPECT(agg1("MAP<STRING, ROW<v STRING, ts STRING>>", "merge_map_with_keytime", "",
				RUNS(ROWS("1|1|+I|{k1:(a,2024-01-02),k2:(b,2024-01-01),k3:(c,1)}"),
					 ROWS("1|2|+I|{k1:(old,2024-01-01),k2:(new,2024-02-01),k3:null}"),
					 ROWS("1|3|+I|{k1:(nots,null),k4:(d,9)}"))),
		   "1|{k1:(a,2024-01-02),k2:(new,2024-02-01),k4:(d,9)}");
}

static void
test_unsupported_and_removal(void **state)
{
	const char *got = agg1("BYTES", "theta_sketch", "", RUNS(ROWS("1|1|+I|x")));

	assert_non_null(strstr(got, "ERROR unsupported"));
	assert_non_null(strstr(got, "theta_sketch"));
	assert_non_null(strstr(agg1("INT", "no_such_fn", "", RUNS(ROWS("1|1|+I|1"))),
						   "ERROR invalid"));
	/* remove-record-on-delete: a -D deletes; a later add aggregates onto its values */
	EXPECT(agg1("INT", "sum", "\"aggregation.remove-record-on-delete\":\"true\"",
				RUNS(ROWS("1|1|+I|5", "2|1|+I|5"), ROWS("1|2|-D|5", "2|2|-D|5"),
					 ROWS("1|3|+I|7"))),
		   "1|12");
	assert_non_null(strstr(agg1("INT", "sum", "\"aggregation.remove-record-on-delete\":\"true\","
								"\"fields.v.ignore-retract\":\"true\"",
								RUNS(ROWS("1|1|+I|5"))), "ERROR invalid"));
}

/*
 * Lookup mode (changelog-producer=lookup, DVs): lookup compaction wrote into
 * level 4 the sum already merged with level 5, so only level 0 and the
 * lowest non-zero level count. Found by the oracle (difftest --pk seed
 * 2021: Java read -134 where a plain merge gave -175).
 */
/* rbm32: OR of portable RoaringBitmaps; malformed ones are refused, not merged */
static void
test_rbm32(void **state)
{
	/* array containers: cookie 12346, 1 container, key 0, card - 1, offset, values */
	const char *bm_1_5 = "1|1|+I|0x3a30000001000000000001001000000001000500";
	const char *bm_2 = "1|2|+I|0x3a3000000100000000000000100000000200";
	const char *bm_5_3 = "1|2|+I|0x3a30000001000000000001001000000005000300";	/* values out of order */

	EXPECT(agg1("VARBINARY(64)", "rbm32", "", RUNS(ROWS(bm_1_5), ROWS(bm_2))),
		   "1|0x3a300000010000000000020010000000010002000500");
	assert_non_null(strstr(agg1("VARBINARY(64)", "rbm32", "", RUNS(ROWS(bm_1_5), ROWS(bm_5_3))),
						   "malformed roaring bitmap: array container values not ascending"));
}

static void
test_lookup_levels(void **state)
{
	static const int levels[] = {5, 4, 0};
	const char *const *const *runs = RUNS(ROWS("1|1|+I|-41", "2|2|+I|7", "3|3|+I|1"),
										  ROWS("1|11|+I|-134", "3|12|+I|10"),
										  ROWS("1|20|+I|-5"));

	/* a plain merge sums every level */
	EXPECT(agg1("INT", "sum", "", runs), "1|-180;2|7;3|11");
	merge_fixture_lookup_levels(levels);
	EXPECT(agg1("INT", "sum", "", runs), "1|-139;2|7;3|10");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum_product),
		cmocka_unit_test(test_min_max_bool),
		cmocka_unit_test(test_value_functions),
		cmocka_unit_test(test_listagg),
		cmocka_unit_test(test_collect_merge_map),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_unsupported_and_removal),
		cmocka_unit_test(test_lookup_levels),
		cmocka_unit_test(test_rbm32),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
