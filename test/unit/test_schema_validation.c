/*-------------------------------------------------------------------------
 * test_schema_validation.c
 *	  The create-time option checks of Java's SchemaValidation
 *	  (table/schema_validation.c): each refusal with Java's message, the
 *	  settings next to it that pass, and pm_table_create refusing a bad
 *	  record-level.time-field before any schema file is written.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "io/memory_fileio.h"
#include "lsm/record_expire.h"
#include "table/schema_validation.h"
#include "table/table_write.h"

#define FIELDS "[{\"id\":0,\"name\":\"id\",\"type\":\"INT NOT NULL\"}," \
	"{\"id\":1,\"name\":\"dt\",\"type\":\"STRING\"}," \
	"{\"id\":2,\"name\":\"ts\",\"type\":\"TIMESTAMP(3)\"}," \
	"{\"id\":3,\"name\":\"s\",\"type\":\"STRING\"}," \
	"{\"id\":4,\"name\":\"b\",\"type\":\"BIGINT\"}]"

static pm_schema *
schema(pm_arena *arena, const char *fields, const char *pk, const char *part, const char *options)
{
	char		json[4096];
	pm_schema  *s;
	pm_error	err;

	snprintf(json, sizeof(json),
			 "{\"version\":3,\"id\":0,\"fields\":%s,\"highestFieldId\":9,"
			 "\"partitionKeys\":%s,\"primaryKeys\":%s,\"options\":%s,\"timeMillis\":0}",
			 fields, part, pk, options);
	if (pm_schema_parse(json, strlen(json), arena, &s, &err) != PM_OK)
		fail_msg("parse: %s", err.message);
	return s;
}

/* validate a table with primary key pk (JSON list) and options; NULL = accepted */
static void
expect(const char *pk, const char *part, const char *options, const char *message)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_error	err;
	pm_code		rc = pm_schema_validate_options(schema(arena, FIELDS, pk, part, options), &err);

	if (message == NULL)
	{
		if (rc != PM_OK)
			fail_msg("%s: unexpected refusal: %s", options, err.message);
	}
	else
	{
		if (rc != PM_ERR_INVALID)
			fail_msg("%s: accepted, expected \"%s\"", options, message);
		assert_string_equal(err.message, message);
	}
	pm_arena_destroy(arena);
}

static void
test_record_time_field(void **state)
{
	(void) state;
	expect("[]", "[]", "{\"record-level.time-field\":\"ts\"}", NULL);
	expect("[\"id\"]", "[]", "{\"record-level.time-field\":\"b\",\"record-level.expire-time\":\"1 d\"}", NULL);
	/* nullable time fields are fine (NULL never expires); INT NOT NULL too */
	expect("[\"id\"]", "[]", "{\"record-level.time-field\":\"id\"}", NULL);
	/* append tables too: Java checks the field whenever it is set */
	expect("[]", "[]", "{\"record-level.time-field\":\"nope\"}",
		   "Can not find time field nope for record level expire.");
	expect("[\"id\"]", "[]", "{\"record-level.time-field\":\"s\",\"record-level.expire-time\":\"1 d\"}",
		   "The record level time field type should be one of INT, BIGINT, or TIMESTAMP, but field type is STRING.");
	/* case matters, as Java's equals */
	expect("[\"id\"]", "[]", "{\"record-level.time-field\":\"TS\"}",
		   "Can not find time field TS for record level expire.");
}

static void
test_retention(void **state)
{
	(void) state;
	expect("[]", "[]", "{\"snapshot.num-retained.min\":\"1\",\"snapshot.num-retained.max\":\"1\"}", NULL);
	expect("[]", "[]", "{\"snapshot.num-retained.min\":\"0\"}",
		   "snapshot.num-retained.min should be at least 1");
	/* max below the default min 10 */
	expect("[]", "[]", "{\"snapshot.num-retained.max\":\"5\"}",
		   "snapshot.num-retained.min should not be larger than snapshot.num-retained.max");
	expect("[]", "[]", "{\"snapshot.num-retained.min\":\"x\"}",
		   "Could not parse value 'x' for key 'snapshot.num-retained.min'.");
	/* changelog.* default to snapshot.* */
	expect("[]", "[]", "{\"snapshot.num-retained.max\":\"20\",\"changelog.num-retained.min\":\"30\"}",
		   "changelog.num-retained.min should not be larger than changelog.num-retained.max");
	expect("[]", "[]", "{\"changelog.num-retained.min\":\"0\"}",
		   "changelog.num-retained.min should be at least 1");
	expect("[]", "[]", "{\"changelog.num-retained.min\":\"30\",\"changelog.num-retained.max\":\"40\"}", NULL);
}

static void
test_other_refusals(void **state)
{
	(void) state;
	expect("[]", "[]", "{\"partition.expiration-time\":\"7 d\"}",
		   "Can not set 'partition.expiration-time' for non-partitioned table.");
	expect("[]", "[\"dt\"]", "{\"partition.expiration-time\":\"7 d\"}", NULL);
	expect("[\"id\"]", "[]", "{\"merge-engine\":\"first-row\",\"changelog-producer\":\"input\"}",
		   "Only support 'none' and 'lookup' changelog-producer on FIRST_ROW merge engine");
	expect("[\"id\"]", "[]", "{\"merge-engine\":\"first-row\",\"changelog-producer\":\"lookup\"}", NULL);
	expect("[\"id\"]", "[]", "{\"rowkind.field\":\"kind\"}",
		   "Rowkind field: 'kind' can not be found in table schema.");
	expect("[\"id\"]", "[]", "{\"deletion-vectors.enabled\":\"true\",\"changelog-producer\":\"full-compaction\"}",
		   "Deletion vectors mode is only supported for NONE/INPUT/LOOKUP changelog producer now.");
	expect("[\"id\"]", "[]", "{\"deletion-vectors.enabled\":\"true\",\"merge-engine\":\"first-row\"}",
		   "First row merge engine does not need deletion vectors because there is no deletion of old data in this merge engine.");
	expect("[\"id\"]", "[]", "{\"deletion-vectors.enabled\":\"true\",\"changelog-producer\":\"lookup\"}", NULL);
	expect("[\"id\"]", "[]", "{\"sequence.field\":\"b, x\"}",
		   "Sequence field: 'x' can not be found in table schema.");
	expect("[\"id\"]", "[]", "{\"sequence.field\":\"b,ts,b\"}",
		   "Sequence field 'b' is defined repeatedly.");
	expect("[\"id\"]", "[]", "{\"sequence.field\":\"b\",\"merge-engine\":\"aggregation\",\"fields.b.aggregate-function\":\"max\"}",
		   "Should not define aggregation on sequence field: 'b'.");
	expect("[\"id\"]", "[]", "{\"sequence.field\":\"b\",\"merge-engine\":\"first-row\"}",
		   "Do not support use sequence field on FIRST_ROW merge engine.");
	expect("[\"id\"]", "[]", "{\"sequence.field\":\" b , ts\"}", NULL);
	expect("[\"id\"]", "[]", "{\"upsert-key\":\"b,s\"}",
		   "Cannot define 'upsert-key' [b, s] with 'primary-key' [id].");
	expect("[]", "[]", "{\"upsert-key\":\"q\"}", "Cannot find field: q");
	expect("[\"id\"]", "[]", "{\"streaming-read-overwrite\":\"true\",\"changelog-producer\":\"lookup\"}",
		   "Cannot set streaming-read-overwrite to true when changelog producer is FULL_COMPACTION or LOOKUP because it will read duplicated changes.");
	expect("[]", "[]", "{\"streaming-read-overwrite\":\"true\"}",
		   "Doesn't support streaming read the changes from overwrite when the primary keys are not defined. Please use streaming-read-append-overwrite to enable the streaming read overwrite commit for append table.");
	expect("[]", "[]", "{\"table-read.sequence-number.enabled\":\"true\"}",
		   "Cannot enable 'table-read.sequence-number.enabled' for non-primary-key table. Sequence number is only available for primary key tables.");
}

static void
test_system_names(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_error	err;
	static const char *const bad[] = {"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL", "rowkind",
	"_ROW_ID", "_KEY_id"};

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		char		fields[256];

		snprintf(fields, sizeof(fields), "[{\"id\":0,\"name\":\"%s\",\"type\":\"INT\"}]", bad[i]);
		assert_int_equal(pm_schema_validate_options(schema(arena, fields, "[]", "[]", "{}"), &err),
						 PM_ERR_INVALID);
		assert_non_null(strstr(err.message, bad[i]));
	}
	/* a different case is a different name */
	assert_int_equal(pm_schema_validate_options(schema(arena, "[{\"id\":0,\"name\":\"ROWKIND\",\"type\":\"INT\"}]",
														"[]", "[]", "{}"), &err), PM_OK);
	pm_arena_destroy(arena);
}

/* pm_schema_field_list: Java's split(",") (+ trim), unknown names as -1 */
static void
test_field_list(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = schema(arena, FIELDS, "[]", "[]", "{}");
	pm_error	err;
	const char **names;
	int		   *idx,
				n;
	static const char key[] = "fields.dt,s.sequence-group";

	(void) state;
	assert_int_equal(pm_schema_field_list(s, " b ,\tts,x", 10, true, arena, &names, &idx, &n, &err),
					 PM_OK);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "b");
	assert_int_equal(idx[0], 4);
	assert_string_equal(names[1], "ts");
	assert_int_equal(idx[1], 2);
	assert_string_equal(names[2], "x");
	assert_int_equal(idx[2], -1);
	/* untrimmed: " b" is no field */
	assert_int_equal(pm_schema_field_list(s, "s, b", 4, false, arena, &names, &idx, &n, &err), PM_OK);
	assert_int_equal(n, 2);
	assert_int_equal(idx[0], 3);
	assert_string_equal(names[1], " b");
	assert_int_equal(idx[1], -1);
	/* trailing empty names are dropped, inner ones kept; a list with no comma is one name */
	assert_int_equal(pm_schema_field_list(s, "id,,dt,,", 8, true, arena, &names, &idx, &n, &err), PM_OK);
	assert_int_equal(n, 3);
	assert_int_equal(idx[0], 0);
	assert_string_equal(names[1], "");
	assert_int_equal(idx[1], -1);
	assert_int_equal(idx[2], 1);
	assert_int_equal(pm_schema_field_list(s, ",,", 2, true, arena, &names, &idx, &n, &err), PM_OK);
	assert_int_equal(n, 0);
	assert_int_equal(pm_schema_field_list(s, "", 0, true, arena, &names, &idx, &n, &err), PM_OK);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "");
	/* a part of a longer string (an option key's middle) */
	assert_int_equal(pm_schema_field_list(s, &key[7], 4, true, arena, &names, &idx, &n, &err),
					 PM_OK);
	assert_int_equal(n, 2);
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[1], 3);
	/* through the validation: repeats counted by field */
	expect("[\"id\"]", "[]", "{\"sequence.field\":\"b, ts,b \"}",
		   "Sequence field 'b' is defined repeatedly.");
	expect("[\"id\"]", "[]", "{\"sequence.field\":\"b,ts,\"}", NULL);
	expect("[]", "[]", "{\"upsert-key\":\"s, b\"}", "Cannot find field:  b");
	expect("[\"id\"]", "[]", "{\"upsert-key\":\"s,b,\"}",
		   "Cannot define 'upsert-key' [s, b] with 'primary-key' [id].");
	pm_arena_destroy(arena);
}

/* pm_schema_bool_option / pm_schema_option_is: unset = default, any case */
static void
test_option_readers(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = schema(arena, FIELDS, "[]", "[]",
						   "{\"a\":\"TRUE\",\"b\":\"false\",\"c\":\"yes\",\"d\":\"True \","
						   "\"merge-engine\":\"First-Row\"}");

	(void) state;
	assert_true(pm_schema_bool_option(s, "a", false));
	assert_false(pm_schema_bool_option(s, "b", true));
	assert_false(pm_schema_bool_option(s, "c", true));
	assert_false(pm_schema_bool_option(s, "d", true));
	assert_true(pm_schema_bool_option(s, "unset", true));
	assert_false(pm_schema_bool_option(s, "unset", false));
	assert_true(pm_schema_option_is(s, "merge-engine", "deduplicate", "first-row"));
	assert_false(pm_schema_option_is(s, "merge-engine", "deduplicate", "deduplicate"));
	assert_true(pm_schema_option_is(s, "changelog-producer", "none", "NONE"));
	assert_false(pm_schema_option_is(s, "changelog-producer", NULL, "none"));
	pm_arena_destroy(arena);
}

/* pm_table_create refuses before writing; record_expire.c refuses the same at write */
static void
test_create_refuses(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_error	err;
	pm_schema  *s = schema(arena, FIELDS, "[\"id\"]", "[]",
						   "{\"bucket\":\"1\",\"record-level.expire-time\":\"1 d\",\"record-level.time-field\":\"s\"}");
	pm_record_expire *re;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, "/t", s, &err), PM_ERR_INVALID);
	assert_string_equal(err.message,
						"The record level time field type should be one of INT, BIGINT, or TIMESTAMP, but field type is STRING.");
	assert_false(io->exists(io, "/t/schema/schema-0"));
	assert_int_equal(pm_record_expire_create(s, arena, &re, &err), PM_ERR_INVALID);
	assert_string_equal(err.message,
						"The record level time field type should be one of INT, BIGINT, or TIMESTAMP, but field type is STRING.");
	s = schema(arena, FIELDS, "[\"id\"]", "[]",
			   "{\"bucket\":\"1\",\"record-level.expire-time\":\"1 d\",\"record-level.time-field\":\"ts\"}");
	assert_int_equal(pm_table_create(pm_env_default(), io, "/t", s, &err), PM_OK);
	assert_true(io->exists(io, "/t/schema/schema-0"));
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_time_field),
		cmocka_unit_test(test_retention),
		cmocka_unit_test(test_other_refusals),
		cmocka_unit_test(test_system_names),
		cmocka_unit_test(test_create_refuses),
		cmocka_unit_test(test_field_list),
		cmocka_unit_test(test_option_readers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
