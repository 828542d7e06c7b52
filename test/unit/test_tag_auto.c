/*-------------------------------------------------------------------------
 * test_tag_auto.c
 *	  table/tag_auto.c: which snapshot gets which auto tag, as Java 1.4.2
 *	  TagAutoCreation.tryToCreateTags (process time): first tag, one tag
 *	  per period, delay, automatic completion, restart from the last tag.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "table/tag_auto.h"

#define MIN INT64_C(60000)
#define HOUR (60 * MIN)
#define DAY (24 * HOUR)
/* 2023-07-18 00:00 wall clock, as epoch ms with no zone */
#define D18 INT64_C(1689638400000)

static pm_tag_period
make(const char *period)
{
	pm_tag_period p;
	pm_error	err;

	pm_error_clear(&err);
	assert_int_equal(pm_tag_period_init(&p, period, NULL, 0, false, &err), PM_OK);
	return p;
}

static void
expect_tag(pm_tag_auto *a, int64_t t, const char *want)
{
	char		name[PM_TAG_PERIOD_NAME_MAX];

	assert_true(pm_tag_auto_step(a, t, name));
	assert_string_equal(name, want);
}

static void
expect_none(pm_tag_auto *a, int64_t t)
{
	char		name[PM_TAG_PERIOD_NAME_MAX];

	assert_false(pm_tag_auto_step(a, t, name));
}

static void
test_daily(void **state)
{
	pm_tag_period p = make("daily");
	pm_tag_auto a;

	(void) state;
	assert_true(pm_tag_auto_init(&a, &p, 0, false, NULL));
	/* first snapshot: tag of the previous (complete) day */
	expect_tag(&a, D18 + 12 * HOUR, "2023-07-17");
	expect_none(&a, D18 + 13 * HOUR);
	expect_none(&a, D18 + DAY - 1);
	expect_tag(&a, D18 + DAY, "2023-07-18");
	expect_none(&a, D18 + DAY + HOUR);
	/* a gap of days: the previous day, not the missing ones */
	expect_tag(&a, D18 + 4 * DAY + 10 * HOUR, "2023-07-21");
}

static void
test_delay_and_completion(void **state)
{
	pm_tag_period p = make("daily");
	pm_tag_auto a;

	(void) state;
	assert_true(pm_tag_auto_init(&a, &p, 10 * MIN, false, "2023-07-17"));
	expect_none(&a, D18 + DAY + 5 * MIN);
	expect_tag(&a, D18 + DAY + 10 * MIN, "2023-07-18");

	assert_true(pm_tag_auto_init(&a, &p, 0, true, "2023-07-17"));
	expect_tag(&a, D18 + 4 * DAY + 10 * HOUR, "2023-07-18");
	expect_tag(&a, D18 + 4 * DAY + 11 * HOUR, "2023-07-19");
	expect_tag(&a, D18 + 4 * DAY + 12 * HOUR, "2023-07-20");
	expect_tag(&a, D18 + 4 * DAY + 13 * HOUR, "2023-07-21");
	expect_none(&a, D18 + 4 * DAY + 14 * HOUR);

	/* completion has nothing to complete before the first tag */
	assert_true(pm_tag_auto_init(&a, &p, 0, true, NULL));
	expect_tag(&a, D18 + 4 * DAY, "2023-07-21");
}

static void
test_hourly_restart(void **state)
{
	pm_tag_period p = make("hourly");
	pm_tag_auto a;

	(void) state;
	assert_true(pm_tag_auto_init(&a, &p, 0, false, "2023-07-18 05"));
	expect_none(&a, D18 + 6 * HOUR + 59 * MIN);
	expect_tag(&a, D18 + 7 * HOUR, "2023-07-18 06");
	/* a name that is no auto tag of this period */
	assert_false(pm_tag_auto_init(&a, &p, 0, false, "2023-07-18"));
	assert_false(pm_tag_auto_init(&a, &p, 0, false, "mytag"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_daily),
		cmocka_unit_test(test_delay_and_completion),
		cmocka_unit_test(test_hourly_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
