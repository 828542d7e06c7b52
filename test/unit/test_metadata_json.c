/*-------------------------------------------------------------------------
 * test_metadata_json.c
 *	  pm_schema_to_json / pm_snapshot_to_json: every schema and snapshot
 *	  file of the Java-written corpus parses, is written back and parses to
 *	  an equal struct; files in Java 1.4.2's layout come back byte for byte,
 *	  and so do the files of a fresh table Java 1.4.2 wrote (embedded below:
 *	  test/oracle/oracle.sh with ORACLE_PAIMON_VERSION=1.4.2, an avro table
 *	  partitioned by dt with ARRAY/MAP/ROW/TIMESTAMP/DECIMAL columns).
 *-------------------------------------------------------------------------
 */
#define _XOPEN_SOURCE 700
#include "unit.h"

#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/json_out.h"
#include "row/data_type.h"
#include "table/schema.h"
#include "table/snapshot.h"

static const char java142_snapshot[] =
	"{\n"
	"  \"version\" : 3,\n"
	"  \"id\" : 2,\n"
	"  \"schemaId\" : 0,\n"
	"  \"baseManifestList\" : \"manifest-list-cd00c4ae-cd43-4ca6-8c2a-2ad7ba851526-0\",\n"
	"  \"baseManifestListSize\" : 1131,\n"
	"  \"deltaManifestList\" : \"manifest-list-cd00c4ae-cd43-4ca6-8c2a-2ad7ba851526-1\",\n"
	"  \"deltaManifestListSize\" : 1125,\n"
	"  \"commitUser\" : \"46c069ec-1461-4525-837a-efb54c4f517e\",\n"
	"  \"commitIdentifier\" : 9223372036854775807,\n"
	"  \"commitKind\" : \"APPEND\",\n"
	"  \"timeMillis\" : 1796301924557,\n"
	"  \"totalRecordCount\" : 3,\n"
	"  \"deltaRecordCount\" : 1,\n"
	"  \"nextRowId\" : 0\n"
	"}";

static const char java142_schema[] =
	"{\n"
	"  \"version\" : 3,\n"
	"  \"id\" : 0,\n"
	"  \"fields\" : [ {\n"
	"    \"id\" : 0,\n"
	"    \"name\" : \"id\",\n"
	"    \"type\" : \"BIGINT NOT NULL\"\n"
	"  }, {\n"
	"    \"id\" : 1,\n"
	"    \"name\" : \"v\",\n"
	"    \"type\" : \"DECIMAL(10, 2)\"\n"
	"  }, {\n"
	"    \"id\" : 2,\n"
	"    \"name\" : \"tags\",\n"
	"    \"type\" : {\n"
	"      \"type\" : \"ARRAY\",\n"
	"      \"element\" : \"STRING\"\n"
	"    }\n"
	"  }, {\n"
	"    \"id\" : 3,\n"
	"    \"name\" : \"m\",\n"
	"    \"type\" : {\n"
	"      \"type\" : \"MAP\",\n"
	"      \"key\" : \"STRING\",\n"
	"      \"value\" : \"INT\"\n"
	"    }\n"
	"  }, {\n"
	"    \"id\" : 4,\n"
	"    \"name\" : \"m2\",\n"
	"    \"type\" : {\n"
	"      \"type\" : \"MAP\",\n"
	"      \"key\" : \"INT\",\n"
	"      \"value\" : \"STRING\"\n"
	"    }\n"
	"  }, {\n"
	"    \"id\" : 5,\n"
	"    \"name\" : \"r\",\n"
	"    \"type\" : {\n"
	"      \"type\" : \"ROW\",\n"
	"      \"fields\" : [ {\n"
	"        \"id\" : 6,\n"
	"        \"name\" : \"a\",\n"
	"        \"type\" : \"INT\"\n"
	"      }, {\n"
	"        \"id\" : 7,\n"
	"        \"name\" : \"b\",\n"
	"        \"type\" : \"STRING\"\n"
	"      } ]\n"
	"    }\n"
	"  }, {\n"
	"    \"id\" : 8,\n"
	"    \"name\" : \"ts\",\n"
	"    \"type\" : \"TIMESTAMP(6)\"\n"
	"  }, {\n"
	"    \"id\" : 9,\n"
	"    \"name\" : \"tl\",\n"
	"    \"type\" : \"TIMESTAMP(3) WITH LOCAL TIME ZONE\"\n"
	"  }, {\n"
	"    \"id\" : 10,\n"
	"    \"name\" : \"d\",\n"
	"    \"type\" : \"DATE\"\n"
	"  }, {\n"
	"    \"id\" : 11,\n"
	"    \"name\" : \"b\",\n"
	"    \"type\" : \"BYTES\"\n"
	"  }, {\n"
	"    \"id\" : 12,\n"
	"    \"name\" : \"dt\",\n"
	"    \"type\" : \"STRING\"\n"
	"  } ],\n"
	"  \"highestFieldId\" : 12,\n"
	"  \"partitionKeys\" : [ \"dt\" ],\n"
	"  \"primaryKeys\" : [ ],\n"
	"  \"options\" : {\n"
	"    \"bucket\" : \"-1\",\n"
	"    \"file.format\" : \"avro\"\n"
	"  },\n"
	"  \"timeMillis\" : 1796301923629\n"
	"}";

static bool
str_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool
type_eq(const pm_type *a, const pm_type *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	if (a->id != b->id || a->nullable != b->nullable || a->length != b->length ||
		a->precision != b->precision || a->scale != b->scale || a->nfields != b->nfields ||
		!type_eq(a->element, b->element) || !type_eq(a->value, b->value))
		return false;
	for (int i = 0; i < a->nfields; i++)
		if (a->fields[i].id != b->fields[i].id || !str_eq(a->fields[i].name, b->fields[i].name) ||
			!str_eq(a->fields[i].description, b->fields[i].description) ||
			!type_eq(a->fields[i].type, b->fields[i].type))
			return false;
	return true;
}

static void
assert_schema_eq(const pm_schema *a, const pm_schema *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->version, b->version);
	assert_true(type_eq(a->row_type, b->row_type));
	assert_int_equal(a->npartition_keys, b->npartition_keys);
	for (int i = 0; i < a->npartition_keys; i++)
		assert_string_equal(a->partition_keys[i], b->partition_keys[i]);
	assert_int_equal(a->nprimary_keys, b->nprimary_keys);
	for (int i = 0; i < a->nprimary_keys; i++)
		assert_string_equal(a->primary_keys[i], b->primary_keys[i]);
	assert_int_equal(a->default_values == NULL, b->default_values == NULL);
	for (int i = 0; a->default_values && i < a->row_type->nfields; i++)
		assert_true(str_eq(a->default_values[i], b->default_values[i]));
	assert_int_equal(a->noptions, b->noptions);
	for (int i = 0; i < a->noptions; i++)
	{
		assert_string_equal(a->option_keys[i], b->option_keys[i]);
		assert_string_equal(a->option_values[i], b->option_values[i]);
	}
	assert_int_equal(a->highest_field_id, b->highest_field_id);
	assert_true(str_eq(a->comment, b->comment));
	assert_int_equal(a->time_millis, b->time_millis);
}

static void
assert_snapshot_eq(const pm_snapshot *a, const pm_snapshot *b)
{
	assert_int_equal(a->version, b->version);
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->schema_id, b->schema_id);
	assert_true(str_eq(a->base_manifest_list, b->base_manifest_list));
	assert_int_equal(a->base_manifest_list_size, b->base_manifest_list_size);
	assert_true(str_eq(a->delta_manifest_list, b->delta_manifest_list));
	assert_int_equal(a->delta_manifest_list_size, b->delta_manifest_list_size);
	assert_true(str_eq(a->changelog_manifest_list, b->changelog_manifest_list));
	assert_int_equal(a->changelog_manifest_list_size, b->changelog_manifest_list_size);
	assert_true(str_eq(a->index_manifest, b->index_manifest));
	assert_true(str_eq(a->commit_user, b->commit_user));
	assert_int_equal(a->commit_identifier, b->commit_identifier);
	assert_true(str_eq(a->commit_kind, b->commit_kind));
	assert_int_equal(a->time_millis, b->time_millis);
	assert_int_equal(a->total_record_count, b->total_record_count);
	assert_int_equal(a->delta_record_count, b->delta_record_count);
	assert_int_equal(a->changelog_record_count, b->changelog_record_count);
	assert_int_equal(a->watermark, b->watermark);
	assert_true(str_eq(a->statistics, b->statistics));
	assert_int_equal(a->has_properties, b->has_properties);
	assert_int_equal(a->nproperties, b->nproperties);
	for (int i = 0; i < a->nproperties; i++)
	{
		assert_string_equal(a->property_keys[i], b->property_keys[i]);
		assert_string_equal(a->property_values[i], b->property_values[i]);
	}
	assert_int_equal(a->next_row_id, b->next_row_id);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf;
	long		n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t) n + 1);
	assert_int_equal(fread(buf, 1, (size_t) n, f), (size_t) n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t) n;
	return buf;
}

/* Whether a snapshot file has only fields Java 1.4.2's Snapshot writes. */
static bool
snapshot_in_142_layout(const char *text, size_t len)
{
	json_t	   *root = json_loadb(text, len, 0, NULL);
	bool		ok = root != NULL && json_object_get(root, "uuid") == NULL &&
		json_object_get(root, "logOffsets") == NULL &&
		json_is_integer(json_object_get(root, "version")) &&
		json_integer_value(json_object_get(root, "version")) == 3;

	json_decref(root);
	return ok;
}

static int	n_schemas,
			n_snapshots,
			n_schema_bytes,
			n_snapshot_bytes;

static void
check_schema_text(const char *text, size_t len, bool bytes)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *a,
			   *b;
	char	   *json;
	size_t		jlen;
	pm_error	err;

	assert_int_equal(pm_schema_parse(text, len, arena, &a, &err), PM_OK);
	assert_int_equal(pm_schema_to_json(a, arena, &json, &jlen, &err), PM_OK);
	assert_int_equal(strlen(json), jlen);
	assert_int_equal(pm_schema_parse(json, jlen, arena, &b, &err), PM_OK);
	assert_schema_eq(a, b);
	if (bytes)
	{
		if (jlen != len || memcmp(json, text, len) != 0)
			fprintf(stderr, "expected:\n%.*s\nwritten:\n%s\n", (int) len, text, json);
		assert_int_equal(jlen, len);
		assert_memory_equal(json, text, len);
		n_schema_bytes++;
	}
	pm_arena_destroy(arena);
}

static void
check_snapshot_text(const char *text, size_t len, bool bytes)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot *a,
			   *b;
	char	   *json;
	size_t		jlen;
	pm_error	err;

	assert_int_equal(pm_snapshot_parse(text, len, arena, &a, &err), PM_OK);
	assert_int_equal(pm_snapshot_to_json(a, arena, &json, &jlen, &err), PM_OK);
	assert_int_equal(pm_snapshot_parse(json, jlen, arena, &b, &err), PM_OK);
	assert_snapshot_eq(a, b);
	if (bytes)
	{
		if (jlen != len || memcmp(json, text, len) != 0)
			fprintf(stderr, "expected:\n%.*s\nwritten:\n%s\n", (int) len, text, json);
		assert_int_equal(jlen, len);
		assert_memory_equal(json, text, len);
		n_snapshot_bytes++;
	}
	pm_arena_destroy(arena);
}

static int
visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t		len;
	char	   *text;

	(void) st;
	if (flag != FTW_F)
		return 0;
	if (strncmp(base, "schema-", 7) == 0 && strstr(path, "/schema/") != NULL)
	{
		text = slurp(path, &len);
		/* every corpus schema is in the version-3 layout of SchemaSerializer */
		check_schema_text(text, len, strstr(text, "\"version\" : 3") != NULL);
		n_schemas++;
		free(text);
	}
	else if ((strncmp(base, "snapshot-", 9) == 0 && strstr(path, "/snapshot/") != NULL) ||
			 (strncmp(base, "tag-", 4) == 0 && strstr(path, "/tag/") != NULL))
	{
		text = slurp(path, &len);
		check_snapshot_text(text, len, snapshot_in_142_layout(text, len));
		n_snapshots++;
		free(text);
	}
	return 0;
}

static void
test_corpus_round_trip(void **state)
{
	(void) state;
	unit_require_corpus();
	n_schemas = n_snapshots = n_schema_bytes = n_snapshot_bytes = 0;
	assert_int_equal(nftw(unit_corpus_path("tables"), visit, 16, FTW_PHYS), 0);
	printf("corpus: %d schemas (%d byte-identical), %d snapshots/tags (%d byte-identical)\n",
		   n_schemas, n_schema_bytes, n_snapshots, n_snapshot_bytes);
	assert_true(n_schemas >= 40);
	assert_true(n_snapshots >= 100);
	assert_true(n_schema_bytes >= 40);
	assert_true(n_snapshot_bytes >= 10);
}

static void
test_java142_bytes(void **state)
{
	(void) state;
	check_schema_text(java142_schema, strlen(java142_schema), true);
	check_snapshot_text(java142_snapshot, strlen(java142_snapshot), true);
}

/* Optional snapshot fields, nested types, descriptions, escapes, empty containers. */
static void
test_optional_fields_and_escapes(void **state)
{
	static const char snap[] =
		"{\n"
		"  \"version\" : 3,\n"
		"  \"id\" : 7,\n"
		"  \"schemaId\" : 1,\n"
		"  \"baseManifestList\" : \"manifest-list-a-0\",\n"
		"  \"baseManifestListSize\" : 10,\n"
		"  \"deltaManifestList\" : \"manifest-list-a-1\",\n"
		"  \"deltaManifestListSize\" : 11,\n"
		"  \"changelogManifestList\" : \"manifest-list-a-2\",\n"
		"  \"changelogManifestListSize\" : 12,\n"
		"  \"indexManifest\" : \"index-manifest-b-0\",\n"
		"  \"commitUser\" : \"u\\\"\\\\\\n\\t\\u0001\\u001F/\xc3\xa9\",\n"
		"  \"commitIdentifier\" : -9223372036854775808,\n"
		"  \"commitKind\" : \"COMPACT\",\n"
		"  \"timeMillis\" : 1,\n"
		"  \"totalRecordCount\" : 5,\n"
		"  \"deltaRecordCount\" : 2,\n"
		"  \"changelogRecordCount\" : 0,\n"
		"  \"watermark\" : -5,\n"
		"  \"statistics\" : \"stat-x\",\n"
		"  \"properties\" : {\n"
		"    \"k1\" : \"v1\",\n"
		"    \"a\" : \"\"\n"
		"  },\n"
		"  \"nextRowId\" : 42\n"
		"}";
	static const char snap_empty_props[] =
		"{\n"
		"  \"version\" : 3,\n"
		"  \"id\" : 1,\n"
		"  \"schemaId\" : 0,\n"
		"  \"baseManifestList\" : \"b\",\n"
		"  \"deltaManifestList\" : \"d\",\n"
		"  \"commitUser\" : \"u\",\n"
		"  \"commitIdentifier\" : 0,\n"
		"  \"commitKind\" : \"APPEND\",\n"
		"  \"timeMillis\" : 0,\n"
		"  \"totalRecordCount\" : 0,\n"
		"  \"deltaRecordCount\" : 0,\n"
		"  \"properties\" : { }\n"
		"}";
	static const char schema[] =
		"{\n"
		"  \"version\" : 3,\n"
		"  \"id\" : 4,\n"
		"  \"fields\" : [ {\n"
		"    \"id\" : 0,\n"
		"    \"name\" : \"k\",\n"
		"    \"type\" : \"CHAR(3) NOT NULL\",\n"
		"    \"description\" : \"the \\\"key\\\"\",\n"
		"    \"defaultValue\" : \"abc\"\n"
		"  }, {\n"
		"    \"id\" : 1,\n"
		"    \"name\" : \"m\",\n"
		"    \"type\" : {\n"
		"      \"type\" : \"MAP NOT NULL\",\n"
		"      \"key\" : \"VARCHAR(5) NOT NULL\",\n"
		"      \"value\" : {\n"
		"        \"type\" : \"MULTISET\",\n"
		"        \"element\" : \"TIME(3)\"\n"
		"      }\n"
		"    }\n"
		"  }, {\n"
		"    \"id\" : 2,\n"
		"    \"name\" : \"r\",\n"
		"    \"type\" : {\n"
		"      \"type\" : \"ROW NOT NULL\",\n"
		"      \"fields\" : [ {\n"
		"        \"id\" : 3,\n"
		"        \"name\" : \"x\",\n"
		"        \"type\" : {\n"
		"          \"type\" : \"ARRAY NOT NULL\",\n"
		"          \"element\" : \"TIMESTAMP(9) WITH LOCAL TIME ZONE NOT NULL\"\n"
		"        }\n"
		"      }, {\n"
		"        \"id\" : 4,\n"
		"        \"name\" : \"y\",\n"
		"        \"type\" : \"VARBINARY(8)\"\n"
		"      } ]\n"
		"    }\n"
		"  } ],\n"
		"  \"highestFieldId\" : 4,\n"
		"  \"partitionKeys\" : [ ],\n"
		"  \"primaryKeys\" : [ \"k\" ],\n"
		"  \"options\" : { },\n"
		"  \"comment\" : \"c\",\n"
		"  \"timeMillis\" : 3\n"
		"}";

	(void) state;
	check_snapshot_text(snap, strlen(snap), true);
	check_snapshot_text(snap_empty_props, strlen(snap_empty_props), true);
	check_schema_text(schema, strlen(schema), true);
}

/* A snapshot without the required fields is refused, not written half. */
static void
test_snapshot_missing_required(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot s;
	char	   *json;
	size_t		len;
	pm_error	err;

	(void) state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(pm_snapshot_to_json(&s, arena, &json, &len, &err), PM_ERR_INVALID);
	assert_null(json);
	pm_arena_destroy(arena);
}

/* pm_snapshot_init + the fields a commit sets: exactly Java 1.4.2's layout of such a snapshot. */
static void
test_snapshot_init(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot s;
	char	   *json;
	size_t		len;
	pm_error	err;

	(void) state;
	pm_snapshot_init(&s);
	s.id = 2;
	s.schema_id = 0;
	s.base_manifest_list = "manifest-list-cd00c4ae-cd43-4ca6-8c2a-2ad7ba851526-0";
	s.base_manifest_list_size = 1131;
	s.delta_manifest_list = "manifest-list-cd00c4ae-cd43-4ca6-8c2a-2ad7ba851526-1";
	s.delta_manifest_list_size = 1125;
	s.commit_user = "46c069ec-1461-4525-837a-efb54c4f517e";
	s.commit_identifier = INT64_MAX;
	s.commit_kind = "APPEND";
	s.time_millis = 1796301924557;
	s.total_record_count = 3;
	s.delta_record_count = 1;
	s.next_row_id = 0;
	assert_int_equal(pm_snapshot_to_json(&s, arena, &json, &len, &err), PM_OK);
	assert_string_equal(json, java142_snapshot);
	pm_arena_destroy(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_java142_bytes),
		cmocka_unit_test(test_optional_fields_and_escapes),
		cmocka_unit_test(test_snapshot_missing_required),
		cmocka_unit_test(test_snapshot_init),
		cmocka_unit_test(test_corpus_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
