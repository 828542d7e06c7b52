/*-------------------------------------------------------------------------
 * test_merge_engine.c
 *	  Merge engines on hand-built sorted runs (test/unit/merge_fixture.c):
 *	  deduplicate, first-row, partial-update (sequence groups, removal
 *	  options), aggregation, sequence.field ordering, record order ties,
 *	  single-record bypass and retract dropping.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "merge_fixture.h"

#define RUNS(...) ((const char *const *const[]) {__VA_ARGS__, NULL})
#define ROWS(...) ((const char *const[]) {__VA_ARGS__, NULL})

static void
expect(const char *fields, const char *options, const char *const *const *runs,
	   const char *want)
{
	for (int rpb = 0; rpb < 2; rpb++)
	{
		const char *got = merge_fixture_run(fields, options, runs, NULL, 0, rpb == 1);

		if (strcmp(got, want) != 0)
			fail_msg("options {%s}\n   got  %s\n   want %s", options, got, want);
	}
}

static const char *const AB = "{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},"
"{\"id\":2,\"name\":\"b\",\"type\":\"STRING\"}";

static void
test_deduplicate(void **state)
{
	/* newest sequence wins whatever run it is in; keys interleave */
	expect(AB, "", RUNS(ROWS("1|5|+I|10|x", "3|1|+I|30|c"),
						ROWS("1|7|+U|11|y", "2|2|+I|20|b"),
						ROWS("1|6|+I|12|z")),
		   "1|11|y;2|20|b;3|30|c");
	/* a trailing delete removes the key; a lone -D or -U vanishes */
	expect(AB, "", RUNS(ROWS("1|1|+I|10|x", "2|2|-D|20|b", "4|1|-U|1|q"),
						ROWS("1|3|-D|10|x", "3|4|+I|30|c")),
		   "3|30|c");
	/* ignore-delete: the last add wins; only retracts -> no row */
	expect(AB, "\"ignore-delete\":\"true\"",
		   RUNS(ROWS("1|1|+I|10|x", "2|2|-D|20|b"), ROWS("1|3|-D|10|x", "2|1|-U|20|b")),
		   "1|10|x");
	/* legacy key */
	expect(AB, "\"deduplicate.ignore-delete\":\"true\"",
		   RUNS(ROWS("1|1|+I|10|x"), ROWS("1|3|-D|10|x")), "1|10|x");
	/* equal sequence numbers: retract before add, so the add wins */
	expect(AB, "", RUNS(ROWS("1|5|+I|10|add"), ROWS("1|5|-D|11|del")), "1|10|add");
	expect(AB, "", RUNS(ROWS("1|5|-D|11|del"), ROWS("1|5|+I|10|add")), "1|10|add");
}

static void
test_sequence_field(void **state)
{
	const char *fields = "{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},"
	"{\"id\":2,\"name\":\"ts\",\"type\":\"BIGINT\"}";

	/* user sequence first, _SEQUENCE_NUMBER breaks ties */
	expect(fields, "\"sequence.field\":\"ts\"",
		   RUNS(ROWS("1|1|+I|10|200", "2|1|+I|20|5"), ROWS("1|2|+I|11|100", "2|2|+I|21|5")),
		   "1|10|200;2|21|5");
	/* descending: the smallest ts is merged last; NULL still oldest */
	expect(fields, "\"sequence.field\":\"ts\",\"sequence.field.sort-order\":\"descending\"",
		   RUNS(ROWS("1|1|+I|10|200", "2|1|+I|20|null"), ROWS("1|2|+I|11|300", "2|2|+I|21|7")),
		   "1|10|200;2|21|7");
	/* ascending with NULL: NULL is oldest */
	expect(fields, "\"sequence.field\":\"ts\"",
		   RUNS(ROWS("1|9|+I|10|null"), ROWS("1|2|+I|11|1")), "1|11|1");
}

static void
test_first_row(void **state)
{
	expect(AB, "\"merge-engine\":\"first-row\"",
		   RUNS(ROWS("1|5|+I|10|x"), ROWS("1|2|+I|11|y", "2|9|+I|20|b"), ROWS("1|3|+U|12|z")),
		   "1|11|y;2|20|b");
	/* retract: error unless ignore-delete */
	assert_non_null(strstr(merge_fixture_run(AB, "\"merge-engine\":\"first-row\"",
											 RUNS(ROWS("1|5|+I|10|x"), ROWS("1|2|-D|11|y")),
											 NULL, 0, false), "ERROR invalid"));
	expect(AB, "\"merge-engine\":\"first-row\",\"ignore-delete\":\"true\"",
		   RUNS(ROWS("1|5|+I|10|x"), ROWS("1|2|-D|11|y")), "1|10|x");	/* Java parses the engine name without regard to case */
	expect(AB, "\"merge-engine\":\"FIRST-ROW\"",
		   RUNS(ROWS("1|5|+I|10|x"), ROWS("1|2|+I|11|y", "2|9|+I|20|b"), ROWS("1|3|+U|12|z")),
		   "1|11|y;2|20|b");
}

static const char *const ABC = "{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},"
"{\"id\":2,\"name\":\"b\",\"type\":\"STRING\"},{\"id\":3,\"name\":\"c\",\"type\":\"DOUBLE\"}";

static void
test_partial_update(void **state)
{
	const char *pu = "\"merge-engine\":\"partial-update\"";

	/* non-NULL values overwrite, NULL never does */
	expect(ABC, pu, RUNS(ROWS("1|1|+I|10|null|1.5"), ROWS("1|2|+I|null|b|null"),
						 ROWS("1|3|+I|11|null|null")),
		   "1|11|b|1.5");
	/* out-of-order sequence numbers across runs: order by sequence */
	expect(ABC, pu, RUNS(ROWS("1|3|+I|30|null|null"), ROWS("1|1|+I|10|x|1"),
						 ROWS("1|2|+I|20|y|null")),
		   "1|30|y|1");
	/* deletes are refused by default */
	assert_non_null(strstr(merge_fixture_run(ABC, pu, RUNS(ROWS("1|1|+I|1|a|1"),
														   ROWS("1|2|-D|1|a|1")),
											 NULL, 0, false), "ERROR invalid"));
	/* ignore-delete (the corpus' pk_table_partial_update) */
	expect(ABC, "\"merge-engine\":\"partial-update\",\"ignore-delete\":\"true\"",
		   RUNS(ROWS("1|1|+I|2|null|null"), ROWS("1|4|-D|122|null|null")), "1|2|null|null");
	/* only retracts: the row is initialised from the first and is a delete */
	expect(ABC, "\"merge-engine\":\"partial-update\",\"ignore-delete\":\"true\"",
		   RUNS(ROWS("1|1|-D|2|a|null"), ROWS("1|4|-D|3|b|null")), "");
	/* remove-record-on-delete: -D replaces the row, a later +I overwrites non-NULLs */
	expect(ABC, "\"merge-engine\":\"partial-update\",\"partial-update.remove-record-on-delete\":\"true\"",
		   RUNS(ROWS("1|1|+I|1|a|1", "2|1|+I|2|b|2"), ROWS("1|2|-D|9|z|9", "2|2|-D|2|b|2"),
				ROWS("1|3|+I|null|q|null")),
		   "1|9|q|9");
	/* conflicting options */
	assert_non_null(strstr(merge_fixture_run(ABC, "\"merge-engine\":\"partial-update\",\"ignore-delete\":\"true\",\"partial-update.remove-record-on-delete\":\"true\"",
											 RUNS(ROWS("1|1|+I|1|a|1")), NULL, 0, false),
						   "ERROR invalid"));
}

/* fields g1 INT (seq), a INT, b INT, g2 INT (seq), c INT, d INT */
static const char *const GROUPS = "{\"id\":1,\"name\":\"g1\",\"type\":\"INT\"},"
"{\"id\":2,\"name\":\"a\",\"type\":\"INT\"},{\"id\":3,\"name\":\"b\",\"type\":\"INT\"},"
"{\"id\":4,\"name\":\"g2\",\"type\":\"INT\"},{\"id\":5,\"name\":\"c\",\"type\":\"INT\"},"
"{\"id\":6,\"name\":\"d\",\"type\":\"INT\"}";

static void
test_sequence_groups(void **state)
{
	const char *opts = "\"merge-engine\":\"partial-update\","
	"\"fields.g1.sequence-group\":\"a,b\",\"fields.g2.sequence-group\":\"c\"";

	/*
	 * group g1 protects a,b (NULLs included when newer), g2 protects c;
	 * d follows non-NULL overwrite. Records arrive out of group order.
	 */
	expect(GROUPS, opts,
		   RUNS(ROWS("1|1|+I|2|20|21|1|10|100"),
				ROWS("1|2|+I|1|99|99|2|null|null"),
				ROWS("1|3|+I|3|null|31|null|77|101")),
		   "1|3|null|31|2|null|101");
	/* retract with groups: newer group seq nulls the protected columns */
	expect(GROUPS, opts,
		   RUNS(ROWS("1|1|+I|1|10|11|1|12|13"), ROWS("1|2|-U|2|10|11|null|null|null")),
		   "1|2|null|null|1|12|13");
	/* older retract does nothing to plain columns */
	expect(GROUPS, opts,
		   RUNS(ROWS("1|1|+I|5|10|11|1|12|13"), ROWS("1|2|-D|2|10|11|null|null|null")),
		   "1|5|10|11|1|12|13");
	/* remove-record-on-sequence-group: a newer -D of that group deletes the row */
	expect(GROUPS, "\"merge-engine\":\"partial-update\","
		   "\"fields.g1.sequence-group\":\"a,b\",\"fields.g2.sequence-group\":\"c\","
		   "\"partial-update.remove-record-on-sequence-group\":\"g1\"",
		   RUNS(ROWS("1|1|+I|1|10|11|1|12|13", "2|1|+I|1|1|1|1|1|1"),
				ROWS("1|2|-D|2|10|11|null|null|null", "2|2|-D|null|1|1|2|1|1")),
		   "2|1|1|1|2|null|1");
	/* a primary key in a group is refused */
	assert_non_null(strstr(merge_fixture_run(GROUPS, "\"merge-engine\":\"partial-update\","
											 "\"fields.g1.sequence-group\":\"k\"",
											 RUNS(ROWS("1|1|+I|1|1|1|1|1|1")), NULL, 0, false),
						   "ERROR invalid"));
}

static void
test_sequence_group_aggregates(void **state)
{
	/* the documented example: (1,1,1,N,N) (1,N,N,1,1) (1,2,2,N,N) (1,N,N,2,2) -> (1,2,1,2,3) */
	const char *fields = "{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},"
	"{\"id\":2,\"name\":\"b\",\"type\":\"INT\"},{\"id\":3,\"name\":\"c\",\"type\":\"INT\"},"
	"{\"id\":4,\"name\":\"d\",\"type\":\"INT\"}";
	const char *opts = "\"merge-engine\":\"partial-update\","
	"\"fields.a.sequence-group\":\"b\",\"fields.b.aggregate-function\":\"first_value\","
	"\"fields.c.sequence-group\":\"d\",\"fields.d.aggregate-function\":\"sum\"";

	expect(fields, opts,
		   RUNS(ROWS("1|1|+I|1|1|null|null"), ROWS("1|2|+I|null|null|1|1"),
				ROWS("1|3|+I|2|2|null|null"), ROWS("1|4|+I|null|null|2|2")),
		   "1|2|1|2|3");
	/* an older group record still aggregates (aggReversed): sum is symmetric */
	expect(fields, opts,
		   RUNS(ROWS("1|1|+I|null|null|5|10"), ROWS("1|2|+I|null|null|3|7")), "1|null|null|5|17");
	/* several sequence fields in one group: compared in order */
	expect("{\"id\":1,\"name\":\"s1\",\"type\":\"INT\"},{\"id\":2,\"name\":\"s2\",\"type\":\"INT\"},"
		   "{\"id\":3,\"name\":\"v\",\"type\":\"STRING\"}",
		   "\"merge-engine\":\"partial-update\",\"fields.s1,s2.sequence-group\":\"v\"",
		   RUNS(ROWS("1|1|+I|1|5|old"), ROWS("1|2|+I|1|3|older"), ROWS("1|3|+I|0|9|oldest")),
		   "1|1|5|old");
	/* aggregation without a sequence group is refused (except last_non_null_value) */
	assert_non_null(strstr(merge_fixture_run(fields, "\"merge-engine\":\"partial-update\","
											 "\"fields.d.aggregate-function\":\"sum\"",
											 RUNS(ROWS("1|1|+I|1|1|1|1")), NULL, 0, false),
						   "ERROR invalid"));
}

static void
test_single_record_bypass(void **state)
{
	/* partial-update would refuse a -D; a single +U/-D record is returned as is */
	expect(ABC, "\"merge-engine\":\"partial-update\"",
		   RUNS(ROWS("1|1|+U|1|a|1", "2|1|-D|2|b|2")), "1|1|a|1");
	/* aggregation: one record is not aggregated (sum of a single NULL stays NULL) */
	expect(ABC, "\"merge-engine\":\"aggregation\",\"fields.a.aggregate-function\":\"sum\"",
		   RUNS(ROWS("1|1|+I|null|a|1")), "1|null|a|1");
}

static void
test_projection(void **state)
{
	const char *fields = "{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},"
	"{\"id\":2,\"name\":\"ts\",\"type\":\"BIGINT\"}";
	int			only_a[] = {1};
	const char *got;

	/* the sequence field is read for ordering though not projected */
	got = merge_fixture_run(fields, "\"sequence.field\":\"ts\"",
							RUNS(ROWS("1|1|+I|10|200"), ROWS("1|2|+I|11|100")), only_a, 1, false);
	assert_string_equal(got, "10");
	/* no columns at all: only the row count matters */
	got = merge_fixture_run(fields, "", RUNS(ROWS("1|1|+I|10|200", "2|1|+I|1|1"),
											 ROWS("1|2|-D|11|100")), only_a, 0, false);
	assert_string_equal(got, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deduplicate),
		cmocka_unit_test(test_sequence_field),
		cmocka_unit_test(test_first_row),
		cmocka_unit_test(test_partial_update),
		cmocka_unit_test(test_sequence_groups),
		cmocka_unit_test(test_sequence_group_aggregates),
		cmocka_unit_test(test_single_record_bypass),
		cmocka_unit_test(test_projection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
