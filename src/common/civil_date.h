/*-------------------------------------------------------------------------
 * civil_date.h
 *	  Proleptic Gregorian dates <-> days since 1970-01-01, leap years and
 *	  month lengths: the one home of the civil-date arithmetic (time zone
 *	  rules, partition values, tag names, DATE defaults). Hand-written from
 *	  H. Hinnant's public-domain algorithms (days_from_civil /
 *	  civil_from_days); no C library offers them for any year.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_CIVIL_DATE_H
#define PM_COMMON_CIVIL_DATE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/floor_div.h"

/* Days since 1970-01-01 of year y, month m (1..12), day d. */
static inline int64_t
pm_days_from_civil(int64_t y, int m, int d)
{
	int64_t		era;
	int64_t		yoe;
	int64_t		doy;
	int64_t		doe;

	y -= m <= 2;
	era = pm_floor_div(y, 400);
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The date of day z since 1970-01-01. */
static inline void
pm_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t		era;
	int64_t		doe;
	int64_t		yoe;
	int64_t		doy;
	int64_t		mp;

	z += 719468;
	era = pm_floor_div(z, 146097);
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static inline bool
pm_leap_year(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days of month m (1..12) of year y. */
static inline int
pm_month_days(int64_t y, int m)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && pm_leap_year(y) ? 29 : days[m - 1];
}

#endif							/* PM_COMMON_CIVIL_DATE_H */
