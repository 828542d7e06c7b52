/*-------------------------------------------------------------------------
 * test_tag_period.c
 *	  table/tag_period.c: auto tag names <-> times for every period and
 *	  formatter (Java 1.4.2 TagPeriodHandler), strict parsing, period
 *	  arithmetic at the edges of days, months, leap years and the epoch.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "table/tag_period.h"

/* 2023-07-18 12:34:56.789, wall clock, as epoch ms with no zone */
#define T_2023_07_18_123456789 INT64_C(1689683696789)
#define T_2024_02_29 INT64_C(1709164800000)
#define T_2023_12_31_23 INT64_C(1704063600000)
#define HOUR INT64_C(3600000)
#define DAY (24 * HOUR)

static pm_tag_period
make(const char *period, const char *fmt)
{
	pm_tag_period p;
	pm_error	err;

	pm_error_clear(&err);
	assert_int_equal(pm_tag_period_init(&p, period, fmt, 0, false, &err), PM_OK);
	return p;
}

static void
check_name(const pm_tag_period *p, int64_t t, const char *want)
{
	char		name[PM_TAG_PERIOD_NAME_MAX];
	int64_t		back;

	assert_true(pm_tag_period_name(p, t, name));
	assert_string_equal(name, want);
	assert_true(pm_tag_period_parse(p, name, &back));
	assert_true(back <= t);
}

static void
test_names(void **state)
{
	pm_tag_period p;
	pm_error	err;
	int64_t		t = T_2023_07_18_123456789;

	(void) state;
	p = make(NULL, NULL);		/* defaults: daily, with_dashes */
	assert_int_equal(p.kind, PM_TAG_PERIOD_DAILY);
	check_name(&p, t, "2023-07-18");
	p = make("daily", "without_dashes");
	check_name(&p, t, "20230718");
	p = make("daily", "without_dashes_and_spaces");
	check_name(&p, t, "20230718");
	p = make("hourly", NULL);
	check_name(&p, t, "2023-07-18 12");
	p = make("hourly", "without_dashes");
	check_name(&p, t, "20230718 12");
	p = make("hourly", "without_dashes_and_spaces");
	check_name(&p, t, "2023071812");
	/* two-hours always uses HOUR_FORMATTER */
	p = make("two-hours", "without_dashes_and_spaces");
	check_name(&p, t, "2023-07-18 12");
	/* a duration wins over the period and names to the minute */
	pm_error_clear(&err);
	assert_int_equal(pm_tag_period_init(&p, "daily", "with_dashes",
										30 * 60000, true, &err), PM_OK);
	assert_int_equal(p.kind, PM_TAG_PERIOD_DURATION);
	check_name(&p, t, "202307181234");
}

static void
test_parse_exact(void **state)
{
	pm_tag_period p;
	int64_t		t;

	(void) state;
	p = make("daily", NULL);
	assert_true(pm_tag_period_parse(&p, "2024-02-29", &t));
	assert_int_equal(t, T_2024_02_29);
	/* daily parses the part before the first space (Java's split(" ")[0]) */
	assert_true(pm_tag_period_parse(&p, "2024-02-29 07", &t));
	assert_int_equal(t, T_2024_02_29);
	assert_true(pm_tag_period_parse(&p, "2024-02-29 junk", &t));
	assert_false(pm_tag_period_parse(&p, " 2024-02-29", &t));
	/* STRICT: no Feb 29 out of leap years, no day 31 in 30-day months */
	assert_false(pm_tag_period_parse(&p, "2023-02-29", &t));
	assert_false(pm_tag_period_parse(&p, "2023-04-31", &t));
	assert_false(pm_tag_period_parse(&p, "2023-13-01", &t));
	assert_false(pm_tag_period_parse(&p, "2023-00-10", &t));
	assert_false(pm_tag_period_parse(&p, "2023-01-00", &t));
	assert_true(pm_tag_period_parse(&p, "2000-02-29", &t));
	assert_false(pm_tag_period_parse(&p, "1900-02-29", &t));
	/* fixed widths, digits only, the formatter's separators only */
	assert_false(pm_tag_period_parse(&p, "2023-7-18", &t));
	assert_false(pm_tag_period_parse(&p, "20230718", &t));
	assert_false(pm_tag_period_parse(&p, "2023-07-18x", &t));
	assert_false(pm_tag_period_parse(&p, "+2023-07-18", &t));
	assert_false(pm_tag_period_parse(&p, "", &t));
	assert_false(pm_tag_period_parse(&p, "my-tag", &t));

	p = make("hourly", NULL);
	assert_true(pm_tag_period_parse(&p, "2023-12-31 23", &t));
	assert_int_equal(t, T_2023_12_31_23);
	assert_false(pm_tag_period_parse(&p, "2023-12-31 24", &t));
	assert_false(pm_tag_period_parse(&p, "2023-12-31", &t));
	assert_false(pm_tag_period_parse(&p, "2023-12-31 23 ", &t));
	assert_false(pm_tag_period_parse(&p, "2023123123", &t));
	p = make("hourly", "without_dashes_and_spaces");
	assert_true(pm_tag_period_parse(&p, "2023123123", &t));
	assert_int_equal(t, T_2023_12_31_23);
	assert_false(pm_tag_period_parse(&p, "20231231 23", &t));

	assert_int_equal(pm_tag_period_init(&p, NULL, NULL, 60000, true,
										&(pm_error) {0}), PM_OK);
	assert_true(pm_tag_period_parse(&p, "202312312359", &t));
	assert_int_equal(t, T_2023_12_31_23 + 59 * 60000);
	assert_false(pm_tag_period_parse(&p, "202312312360", &t));
	assert_false(pm_tag_period_parse(&p, "2023123123", &t));
}

static void
test_arithmetic(void **state)
{
	pm_tag_period p;
	char		name[PM_TAG_PERIOD_NAME_MAX];
	int64_t		t;

	(void) state;
	p = make("daily", NULL);
	/* normalizeToPreviousTag: the day before the one holding t */
	t = pm_tag_period_previous_start(&p, T_2023_07_18_123456789);
	assert_true(pm_tag_period_name(&p, t, name));
	assert_string_equal(name, "2023-07-17");
	/* next / previous across a month, a year and a leap day */
	assert_true(pm_tag_period_parse(&p, "2024-02-28", &t));
	assert_true(pm_tag_period_name(&p, pm_tag_period_next(&p, t), name));
	assert_string_equal(name, "2024-02-29");
	assert_true(pm_tag_period_name(&p, pm_tag_period_next(&p, t + DAY), name));
	assert_string_equal(name, "2024-03-01");
	assert_true(pm_tag_period_parse(&p, "2024-01-01", &t));
	assert_true(pm_tag_period_name(&p, pm_tag_period_prev(&p, t), name));
	assert_string_equal(name, "2023-12-31");

	p = make("hourly", NULL);
	t = pm_tag_period_previous_start(&p, T_2023_12_31_23 + 59 * 60000);
	assert_true(pm_tag_period_name(&p, t, name));
	assert_string_equal(name, "2023-12-31 22");
	assert_true(pm_tag_period_name(&p, pm_tag_period_next(&p, T_2023_12_31_23), name));
	assert_string_equal(name, "2024-01-01 00");

	p = make("two-hours", NULL);
	t = pm_tag_period_previous_start(&p, T_2023_12_31_23);
	assert_true(pm_tag_period_name(&p, t, name));
	assert_string_equal(name, "2023-12-31 20");

	/* before the epoch: names floor to the day and hour */
	p = make("hourly", NULL);
	assert_true(pm_tag_period_name(&p, -1800000, name));
	assert_string_equal(name, "1969-12-31 23");
	/* years past 9999 have no 4-digit name */
	assert_true(pm_tag_period_parse(&p, "9999-12-31 23", &t));
	assert_false(pm_tag_period_name(&p, t + HOUR, name));

	/* validateDelay: the delay must be shorter than one period */
	assert_true(pm_tag_period_delay_ok(&p, HOUR - 1));
	assert_false(pm_tag_period_delay_ok(&p, HOUR));
}

static void
test_bad_options(void **state)
{
	pm_tag_period p;
	pm_error	err;

	(void) state;
	pm_error_clear(&err);
	assert_int_equal(pm_tag_period_init(&p, "weekly", NULL, 0, false, &err),
					 PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "tag.creation-period"));
	pm_error_clear(&err);
	assert_int_equal(pm_tag_period_init(&p, NULL, "dashes", 0, false, &err),
					 PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "tag.period-formatter"));
	pm_error_clear(&err);
	assert_int_equal(pm_tag_period_init(&p, NULL, NULL, 0, true, &err),
					 PM_ERR_INVALID);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_parse_exact),
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_bad_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
