/*-------------------------------------------------------------------------
 * test_option_map.c
 *	  table/option_map.c: map-typed option values split as Java's
 *	  OptionsUtils.convertToProperties / StructuredOptionsSplitter.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "table/option_map.h"

/* "k=v;k=v" of value's pairs, or the error's code as "!<code>" */
static const char *
split(pm_arena *arena, const char *value)
{
	const char **k;
	const char **v;
	int			n;
	pm_error	err;
	char	   *out = pm_arena_strdup(arena, "");
	pm_code		rc = pm_option_map_parse("m", value, arena, &k, &v, &n, &err);

	if (rc != PM_OK)
		return pm_arena_sprintf(arena, "!%d", (int) rc);
	for (int i = 0; i < n; i++)
		out = pm_arena_sprintf(arena, "%s%s%s=%s", out, i ? ";" : "", k[i], v[i]);
	return out;
}

static void
test_split(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	char		bad[8];

	(void) state;
	snprintf(bad, sizeof(bad), "!%d", (int) PM_ERR_INVALID);
	assert_string_equal(split(a, "0:lz4,1:zstd"), "0=lz4;1=zstd");
	/* unquoted parts are trimmed; whitespace alone is no part */
	assert_string_equal(split(a, " 0 : lz4 ,  2:none "), "0=lz4;2=none");
	assert_string_equal(split(a, ""), "");
	assert_string_equal(split(a, ",0:a,"), "0=a");
	/* quotes keep delimiters and spaces; a doubled quote is one */
	assert_string_equal(split(a, "'a,b:c':d"), bad);	/* 'a,b:c' then ":d": illegal quoting */
	assert_string_equal(split(a, "'a:b,c'"), "a=b,c");
	assert_string_equal(split(a, "\"x:it''s\", y :' z '"), "x=it''s;y= z ");
	assert_string_equal(split(a, "'x:it''s'"), "x=it's");
	/* what Java refuses */
	assert_string_equal(split(a, "0:lz4,1"), bad);	/* not a key-value pair */
	assert_string_equal(split(a, "0:a:b"), bad);
	assert_string_equal(split(a, "0:a,,1:b"), bad);	/* an empty item */
	assert_string_equal(split(a, "0:a,0:b"), bad);	/* a duplicate key */
	assert_string_equal(split(a, "'0:a"), bad);	/* quote not closed */
	assert_string_equal(split(a, "'0:a' x"), bad);	/* quoted, then more */
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
