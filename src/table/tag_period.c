/*-------------------------------------------------------------------------
 * tag_period.c
 *	  Auto tag periods and names (Java 1.4.2 TagPeriodHandler): see
 *	  tag_period.h.
 *-------------------------------------------------------------------------
 */
#include "table/tag_period.h"

#include "common/civil_date.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/floor_div.h"
#include "table/duration.h"

#define MS_PER_MINUTE INT64_C(60000)
#define MS_PER_HOUR (60 * MS_PER_MINUTE)
#define MS_PER_DAY (24 * MS_PER_HOUR)

pm_code
pm_tag_period_init(pm_tag_period *p, const char *creation_period,
				   const char *period_formatter, int64_t duration_ms,
				   bool has_duration, pm_error *err)
{
	memset(p, 0, sizeof(*p));
	if (period_formatter == NULL || strcasecmp(period_formatter, "with_dashes") == 0)
		p->format = PM_TAG_FORMAT_WITH_DASHES;
	else if (strcasecmp(period_formatter, "without_dashes") == 0)
		p->format = PM_TAG_FORMAT_WITHOUT_DASHES;
	else if (strcasecmp(period_formatter, "without_dashes_and_spaces") == 0)
		p->format = PM_TAG_FORMAT_WITHOUT_DASHES_AND_SPACES;
	else
		return pm_fail(err, PM_ERR_INVALID,
					   "tag.period-formatter \"%s\" is not one of with_dashes, without_dashes, without_dashes_and_spaces",
					   period_formatter);

	if (has_duration)
	{
		if (duration_ms <= 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "tag.creation-period-duration must be positive");
		p->kind = PM_TAG_PERIOD_DURATION;
		p->period_ms = duration_ms;
		return PM_OK;
	}
	if (creation_period == NULL || strcasecmp(creation_period, "daily") == 0)
	{
		p->kind = PM_TAG_PERIOD_DAILY;
		p->period_ms = MS_PER_DAY;
	}
	else if (strcasecmp(creation_period, "hourly") == 0)
	{
		p->kind = PM_TAG_PERIOD_HOURLY;
		p->period_ms = MS_PER_HOUR;
	}
	else if (strcasecmp(creation_period, "two-hours") == 0)
	{
		p->kind = PM_TAG_PERIOD_TWO_HOURS;
		p->period_ms = 2 * MS_PER_HOUR;
	}
	else
		return pm_fail(err, PM_ERR_INVALID,
					   "tag.creation-period \"%s\" is not one of daily, hourly, two-hours",
					   creation_period);
	return PM_OK;
}

bool
pm_tag_period_delay_ok(const pm_tag_period *p, int64_t delay_ms)
{
	return p->period_ms > delay_ms;
}

/* Which fields a name has and how they are separated. */
typedef struct name_layout
{
	bool		dashes;			/* yyyy-MM-dd */
	bool		hour;
	bool		space;			/* " " before the hour */
	bool		minute;
} name_layout;

static name_layout
layout_of(const pm_tag_period *p)
{
	name_layout l = {0};

	switch (p->kind)
	{
		case PM_TAG_PERIOD_DAILY:
			l.dashes = p->format == PM_TAG_FORMAT_WITH_DASHES;
			break;
		case PM_TAG_PERIOD_HOURLY:
			l.dashes = p->format == PM_TAG_FORMAT_WITH_DASHES;
			l.hour = true;
			l.space = p->format != PM_TAG_FORMAT_WITHOUT_DASHES_AND_SPACES;
			break;
		case PM_TAG_PERIOD_TWO_HOURS:
			/* HOUR_FORMATTER whatever the formatter option says */
			l.dashes = true;
			l.hour = true;
			l.space = true;
			break;
		case PM_TAG_PERIOD_DURATION:
			/* MINUTE_FORMATTER: yyyyMMddHHmm */
			l.hour = true;
			l.minute = true;
			break;
	}
	return l;
}

bool
pm_tag_period_name(const pm_tag_period *p, int64_t local_ms,
				   char out[PM_TAG_PERIOD_NAME_MAX])
{
	name_layout l = layout_of(p);
	int64_t		days = pm_floor_div(local_ms, MS_PER_DAY);
	int64_t		in_day = pm_floor_mod(local_ms, MS_PER_DAY);
	int64_t		y;
	int			m;
	int			d;
	int			hh = (int) (in_day / MS_PER_HOUR);
	int			mi = (int) (in_day % MS_PER_HOUR / MS_PER_MINUTE);

	pm_civil_from_days(days, &y, &m, &d);
	if (y < 0 || y > 9999)
		return false;
	if (l.dashes)
		snprintf(out, PM_TAG_PERIOD_NAME_MAX, "%04d-%02d-%02d", (int) y, m, d);
	else
		snprintf(out, PM_TAG_PERIOD_NAME_MAX, "%04d%02d%02d", (int) y, m, d);
	if (l.hour)
		snprintf(out + strlen(out), PM_TAG_PERIOD_NAME_MAX - strlen(out),
				 "%s%02d", l.space ? " " : "", hh);
	if (l.minute)
		snprintf(out + strlen(out), PM_TAG_PERIOD_NAME_MAX - strlen(out),
				 "%02d", mi);
	return true;
}

/* n ASCII digits at *s (advanced); false if any is not a digit. */
static bool
digits(const char **s, int n, int *value)
{
	int			v = 0;

	for (int i = 0; i < n; i++)
	{
		char		c = (*s)[i];

		if (c < '0' || c > '9')
			return false;
		v = v * 10 + (c - '0');
	}
	*s += n;
	*value = v;
	return true;
}

static bool
literal(const char **s, char c)
{
	if (**s != c)
		return false;
	(*s)++;
	return true;
}

bool
pm_tag_period_parse(const pm_tag_period *p, const char *name, int64_t *local_ms)
{
	name_layout l = layout_of(p);
	const char *s = name;
	const char *end;
	int			y,
				m,
				d,
				hh = 0,
				mi = 0;

	/* Daily's tagToTime parses the part before the first space only. */
	if (p->kind == PM_TAG_PERIOD_DAILY)
	{
		const char *sp = strchr(name, ' ');

		end = sp ? sp : name + strlen(name);
	}
	else
		end = name + strlen(name);

	if (!digits(&s, 4, &y))
		return false;
	if (l.dashes && !literal(&s, '-'))
		return false;
	if (!digits(&s, 2, &m))
		return false;
	if (l.dashes && !literal(&s, '-'))
		return false;
	if (!digits(&s, 2, &d))
		return false;
	if (l.hour)
	{
		if (l.space && !literal(&s, ' '))
			return false;
		if (!digits(&s, 2, &hh))
			return false;
	}
	if (l.minute && !digits(&s, 2, &mi))
		return false;
	if (s != end)
		return false;
	/* ResolverStyle.STRICT: every field in its range, the date real */
	if (m < 1 || m > 12 || d < 1 || d > pm_month_days(y, m) || hh > 23 || mi > 59)
		return false;
	*local_ms = pm_days_from_civil(y, m, d) * MS_PER_DAY + hh * MS_PER_HOUR +
		mi * MS_PER_MINUTE;
	return true;
}

int64_t
pm_tag_period_previous_start(const pm_tag_period *p, int64_t local_ms)
{
	/* Java: (mills / periodMills) * periodMills, a truncating division */
	return (local_ms / p->period_ms) * p->period_ms - p->period_ms;
}

pm_code
pm_tag_period_from_schema(const pm_schema *s, pm_tag_period *p, int64_t *delay_ms,
						  pm_error *err)
{
	const char *v;
	int64_t		duration = 0;
	bool		has_duration = false;

	*delay_ms = 0;
	if ((v = pm_schema_option(s, "tag.creation-period-duration")) != NULL)
	{
		PM_TRY(pm_parse_duration_millis("tag.creation-period-duration", v, &duration, err));
		has_duration = true;
	}
	PM_TRY(pm_tag_period_init(p, pm_schema_option(s, "tag.creation-period"),
							  pm_schema_option(s, "tag.period-formatter"),
							  duration, has_duration, err));
	if ((v = pm_schema_option(s, "tag.creation-delay")) != NULL)
		PM_TRY(pm_parse_duration_millis("tag.creation-delay", v, delay_ms, err));
	if (!pm_tag_period_delay_ok(p, *delay_ms))
		return pm_fail(err, PM_ERR_INVALID,
					   "tag.creation-delay must be shorter than one tag period");
	return PM_OK;
}
