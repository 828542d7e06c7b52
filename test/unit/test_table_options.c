/*-------------------------------------------------------------------------
 * test_table_options.c
 *	  The table-option list (src/table/table_options.c), walked entry by
 *	  entry: a table carrying a refused option (or a value an entry does not
 *	  accept) fails to plan with PM_ERR_UNSUPPORTED naming the option and
 *	  its value; a table carrying an accepted one plans. Also: options
 *	  outside the list, BLOB columns, and docs/table-options.md listing the
 *	  same options with the same status and values.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "io/memory_fileio.h"
#include "table/table.h"
#include "table/table_options.h"

/* "*" of a pattern becomes the column "a" (fields.*.x -> fields.a.x). */
static void
instance_key(const char *pattern, char *out, size_t size)
{
	size_t		o = 0;

	for (const char *p = pattern; *p != '\0' && o + 2 < size; p++)
		out[o++] = *p == '*' ? 'a' : *p;
	out[o] = '\0';
}

/*
 * Plan a read of a table (no snapshot) whose schema has the one option
 * key = value; and columns a INT, b STRING plus extra_field (JSON or "").
 */
static pm_code
plan_with(const char *key, const char *value, const char *extra_field, pm_error *err)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	char		json[2048];
	pm_table   *table = NULL;
	pm_scan    *scan = NULL;
	pm_code		rc;

	snprintf(json, sizeof(json),
			 "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"},"
			 "{\"id\":1,\"name\":\"b\",\"type\":\"STRING\"}%s],\"highestFieldId\":2,"
			 "\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{%s%s%s%s%s}}",
			 extra_field, key ? "\"" : "", key ? key : "", key ? "\":\"" : "",
			 key ? value : "", key ? "\"" : "");
	assert_int_equal(pm_memory_fileio_add(io, "/t/schema/schema-0", json, strlen(json), err),
					 PM_OK);
	rc = pm_table_open(pm_env_default(), io, "/t", NULL, &table, err);
	if (rc == PM_OK)
	{
		rc = pm_table_scan_plan(table, NULL, &scan, err);
		pm_scan_free(scan);
		pm_table_close(table);
	}
	pm_memory_fileio_destroy(io);
	return rc;
}

static void
expect_refused(const char *key, const char *value)
{
	pm_error	err;
	pm_code		rc = plan_with(key, value, "", &err);

	if (rc != PM_ERR_UNSUPPORTED)
		fail_msg("option %s = %s: expected unsupported, got %s (%s)", key, value,
				 pm_code_name(rc), rc == PM_OK ? "" : err.message);
	if (strstr(err.message, key) == NULL || strstr(err.message, value) == NULL)
		fail_msg("option %s = %s: message does not name it: %s", key, value, err.message);
}

static void
expect_read(const char *key, const char *value)
{
	pm_error	err;
	pm_code		rc = plan_with(key, value, "", &err);

	if (rc != PM_OK)
		fail_msg("option %s = %s: expected to plan, got %s: %s", key, value,
				 pm_code_name(rc), err.message);
}

/* Every entry: values it refuses are refused, values it accepts plan. */
static void
test_walk_list(void **state)
{
	int			n;
	const pm_table_option *list = pm_table_options_list(&n);
	int			refused = 0,
				accepted = 0;

	(void) state;
	assert_true(n > 300);
	for (int i = 0; i < n; i++)
	{
		const pm_table_option *o = &list[i];
		char		key[256];

		instance_key(o->key, key, sizeof(key));
		assert_ptr_equal(pm_table_option_find(key), o);
		if (o->status == PM_OPTION_REFUSED && o->values == NULL)
		{
			expect_refused(key, "1");
			refused++;
			continue;
		}
		if (o->values == NULL)
		{
			expect_read(key, "1");
			accepted++;
			continue;
		}
		expect_refused(key, "no-such-value");
		refused++;
		/* each accepted value, as listed and in upper case (Java ignores case) */
		for (const char *p = o->values; *p != '\0';)
		{
			const char *end = strchr(p, '|');
			size_t		len = end ? (size_t) (end - p) : strlen(p);
			char		value[64];

			assert_true(len > 0 && len < sizeof(value));
			memcpy(value, p, len);
			value[len] = '\0';
			expect_read(key, value);
			for (size_t k = 0; k < len; k++)
				value[k] = (char) toupper((unsigned char) value[k]);
			expect_read(key, value);
			accepted++;
			p += len + (end ? 1 : 0);
		}
	}
	assert_true(refused >= 35);
	assert_true(accepted > 300);
}

/* The options issue 9 names, by their status. */
static void
test_named_options(void **state)
{
	(void) state;
	expect_refused("data-evolution.enabled", "true");
	expect_read("data-evolution.enabled", "false");
	expect_refused("row-tracking.enabled", "true");
	expect_refused("scan.snapshot-id", "3");
	expect_refused("scan.tag-name", "nightly");
	expect_refused("scan.mode", "compacted-full");
	expect_read("scan.mode", "latest-full");
	expect_read("orc.timestamp-ltz.legacy.type", "false");
	expect_read("orc.timestamp-ltz.legacy.type", "true");
	expect_refused("merge-engine", "no-such-engine");
	expect_read("merge-engine", "partial-update");
	expect_refused("changelog-producer", "no-such-producer");
	expect_refused("fields.a.map.storage-layout", "shared-shredding");
	expect_refused("branch", "dev");
	expect_read("branch", "main");
	expect_read("record-level.expire-time", "1 d");
	expect_read("deletion-vectors.bitmap64", "true");
	expect_read("fields.a.stats-mode", "none");
	expect_read("file-index.bloom-filter.columns", "a");
	expect_read("parquet.block.size", "4096");
	expect_read("sequence.field.sort-order", "descending");
	/* read as the default by Paimon 0.8-1.2, as NULL since 1.3 */
	expect_refused("fields.b.default-value", "none");
}

/* Keys outside the list: per-column options of a real column are refused. */
static void
test_unlisted_options(void **state)
{
	pm_error	err;

	(void) state;
	assert_null(pm_table_option_find("owner"));
	expect_read("owner", "someone");
	expect_read("sink.parallelism", "4");
	/* fields.<column>.<unknown>: refused, the message names the column's option */
	assert_null(pm_table_option_find("fields.a.some-future-option"));
	expect_refused("fields.a.some-future-option", "x");
	expect_refused("fields.b.x.y", "x");
	/* not a column of the table: no Paimon version reads it */
	expect_read("fields.nocolumn.some-future-option", "x");
	expect_read("fields.a.", "x");
	/* BLOB columns */
	assert_int_equal(plan_with(NULL, NULL, ",{\"id\":2,\"name\":\"pic\",\"type\":\"BLOB\"}", &err),
					 PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "pic"));
	/* no options at all */
	assert_int_equal(plan_with(NULL, NULL, "", &err), PM_OK);
}

/* Files written under a schema with data-file.thin-mode have no _KEY_ columns. */
static void
test_writer_schema(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s;
	pm_error	err;
	const char *json = "{\"id\":4,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT NOT NULL\"}],"
		"\"primaryKeys\":[\"a\"],\"options\":{\"data-file.thin-mode\":\"TRUE\"}}";

	(void) state;
	assert_int_equal(pm_schema_parse(json, strlen(json), arena, &s, &err), PM_OK);
	assert_true(pm_schema_thin_mode(s));
	s->option_values[0] = "false";
	assert_false(pm_schema_thin_mode(s));
	s->noptions = 0;
	assert_false(pm_schema_thin_mode(s));
	pm_arena_destroy(arena);
}

/* Patterns: '*' matches one or more characters, anywhere. */
static void
test_patterns(void **state)
{
	const pm_table_option *o;

	(void) state;
	o = pm_table_option_find("fields.my.col.ignore-retract");
	assert_non_null(o);
	assert_string_equal(o->key, "fields.*.ignore-retract");
	o = pm_table_option_find("fields.default-aggregate-function");
	assert_string_equal(o->key, "fields.default-aggregate-function");
	assert_null(pm_table_option_find("fields..ignore-retract"));
	o = pm_table_option_find("orc.timestamp-ltz.legacy.type");
	assert_string_equal(o->key, "orc.timestamp-ltz.legacy.type");
	o = pm_table_option_find("orc.bloom.filter.columns");
	assert_string_equal(o->key, "orc.*");
	assert_null(pm_table_option_find("orc."));
	o = pm_table_option_find("fields.a,b.sequence-group");
	assert_string_equal(o->key, "fields.*.sequence-group");
	assert_true(pm_table_option_accepts(pm_table_option_find("ignore-delete"), "TRUE"));
	assert_false(pm_table_option_accepts(pm_table_option_find("ignore-delete"), "yes"));
	assert_false(pm_table_option_accepts(pm_table_option_find("merge-engine"), "first"));
}

/*
 * docs/table-options.md lists the same options: rows "| `key` | values |
 * effect |" under "### Supported", "### Refused" and "### Not read...",
 * values "any", "none" or "`v1`, `v2`".
 */
static void
test_doc_matches_list(void **state)
{
	FILE	   *f = fopen("docs/table-options.md", "r");
	char		line[2048];
	int			n,
				rows = 0;
	const pm_table_option *list = pm_table_options_list(&n);
	bool	   *seen = calloc((size_t) n, sizeof(bool));
	int			section = -1;

	(void) state;
	if (f == NULL)
		fail_msg("docs/table-options.md not found (run from the repository root)");
	while (fgets(line, sizeof(line), f) != NULL)
	{
		char	   *key,
				   *end,
				   *values;
		char		want[512] = "";
		const pm_table_option *o = NULL;

		if (strncmp(line, "### ", 4) == 0)
			section = strncmp(line + 4, "Supported", 9) == 0 ? PM_OPTION_SUPPORTED :
				strncmp(line + 4, "Refused", 7) == 0 ? PM_OPTION_REFUSED :
				strncmp(line + 4, "Not read", 8) == 0 ? PM_OPTION_NOT_READ : -1;
		if (section < 0 || strncmp(line, "| `", 3) != 0)
			continue;
		key = line + 3;
		end = strchr(key, '`');
		assert_non_null(end);
		*end = '\0';
		for (int i = 0; i < n; i++)
			if (strcmp(list[i].key, key) == 0)
				o = &list[i];
		if (o == NULL)
			fail_msg("docs/table-options.md lists \"%s\", table_options.c does not", key);
		if ((int) o->status != section)
			fail_msg("\"%s\": status differs between the doc and table_options.c", key);
		seen[o - list] = true;
		/* values column: "any", "none" or "`a`, `b`" -> "a|b" */
		values = strstr(end + 1, "| ");
		assert_non_null(values);
		values += 2;
		if (strncmp(values, "any |", 5) == 0 || strncmp(values, "none |", 6) == 0)
			assert_null(o->values);
		else
		{
			for (char *p = values; *p != '\0' && *p != '|'; p++)
				if (*p == '`')
				{
					char	   *q = strchr(p + 1, '`');

					assert_non_null(q);
					if (want[0] != '\0')
						strcat(want, "|");
					strncat(want, p + 1, (size_t) (q - p - 1));
					p = q;
				}
			if (o->values == NULL || strcmp(o->values, want) != 0)
				fail_msg("\"%s\": values \"%s\" in the doc, \"%s\" in table_options.c", key,
						 want, o->values ? o->values : "(any)");
		}
		rows++;
	}
	fclose(f);
	for (int i = 0; i < n; i++)
		if (!seen[i])
			fail_msg("table_options.c lists \"%s\", docs/table-options.md does not", list[i].key);
	assert_int_equal(rows, n);
	free(seen);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_list),
		cmocka_unit_test(test_named_options),
		cmocka_unit_test(test_unlisted_options),
		cmocka_unit_test(test_writer_schema),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_doc_matches_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
