/*-------------------------------------------------------------------------
 * duration.c
 *	  Duration options and their JSON text (duration.h).
 *-------------------------------------------------------------------------
 */
#include "table/duration.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

pm_code
pm_parse_duration(const char *key, const char *text, pm_duration *out, pm_error *err)
{
	/* a value of the unit is seconds * value + nanos * value / 1e9 */
	static const struct
	{
		const char *label;
		int64_t		seconds;
		int64_t		nanos;
	}			units[] = {
		{"d", 86400, 0}, {"day", 86400, 0}, {"days", 86400, 0},
		{"h", 3600, 0}, {"hour", 3600, 0}, {"hours", 3600, 0},
		{"min", 60, 0}, {"m", 60, 0}, {"minute", 60, 0}, {"minutes", 60, 0},
		{"s", 1, 0}, {"sec", 1, 0}, {"secs", 1, 0}, {"second", 1, 0}, {"seconds", 1, 0},
		{"ms", 0, 1000000}, {"milli", 0, 1000000}, {"millis", 0, 1000000},
		{"millisecond", 0, 1000000}, {"milliseconds", 0, 1000000},
		{"µs", 0, 1000}, {"micro", 0, 1000}, {"micros", 0, 1000}, {"microsecond", 0, 1000},
		{"microseconds", 0, 1000},
		{"ns", 0, 1}, {"nano", 0, 1}, {"nanos", 0, 1}, {"nanosecond", 0, 1},
		{"nanoseconds", 0, 1},
	};
	const char *p = text;
	int64_t		value = 0;
	const char *unit;
	size_t		ulen;
	int64_t		sec = 0,
				nanos = 1000000;	/* no unit: milliseconds */

	while (isspace((unsigned char) *p))
		p++;
	if (!isdigit((unsigned char) *p))
		return pm_fail(err, PM_ERR_INVALID, "invalid duration \"%.100s\" for option \"%s\"",
					   text, key);
	for (; isdigit((unsigned char) *p); p++)
	{
		if (value > (INT64_MAX - 9) / 10)
			return pm_fail(err, PM_ERR_INVALID, "duration \"%.100s\" of option \"%s\" is too large",
						   text, key);
		value = value * 10 + (*p - '0');
	}
	while (isspace((unsigned char) *p))
		p++;
	unit = p;
	ulen = strlen(unit);
	while (ulen > 0 && isspace((unsigned char) unit[ulen - 1]))
		ulen--;
	if (ulen > 0)
	{
		size_t		i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strlen(units[i].label) == ulen && strncasecmp(units[i].label, unit, ulen) == 0)
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return pm_fail(err, PM_ERR_INVALID,
						   "Time interval unit label '%.*s' does not match any of the recognized units (option \"%s\")",
						   (int) ulen, unit, key);
		sec = units[i].seconds;
		nanos = units[i].nanos;
	}
	if (sec > 0)
	{
		if (value > INT64_MAX / sec)
			return pm_fail(err, PM_ERR_INVALID,
						   "duration \"%.100s\" of option \"%s\" is too large", text, key);
		out->seconds = value * sec;
		out->nanos = 0;
	}
	else
	{
		/* value * nanos nanoseconds, without overflowing */
		int64_t		per_second = 1000000000 / nanos;

		out->seconds = value / per_second;
		out->nanos = (int32_t) ((value % per_second) * nanos);
	}
	return PM_OK;
}

pm_code
pm_parse_duration_millis(const char *key, const char *text, int64_t *millis, pm_error *err)
{
	pm_duration d;

	PM_TRY(pm_parse_duration(key, text, &d, err));
	if (d.seconds > (INT64_MAX - 999) / 1000)
		return pm_fail(err, PM_ERR_INVALID, "duration \"%.100s\" of option \"%s\" is too large",
					   text, key);
	*millis = d.seconds * 1000 + d.nanos / 1000000;
	return PM_OK;
}

void
pm_duration_json_text(pm_duration d, char *buf, size_t size)
{
	char		digits[32];
	int			n;
	int			adjusted;

	if (d.nanos == 0)
	{
		if (d.seconds == 0)
			snprintf(buf, size, "0.0");
		else
			snprintf(buf, size, "%lld.000000000", (long long) d.seconds);
		return;
	}
	if (d.seconds != 0)
	{
		snprintf(buf, size, "%lld.%09d", (long long) d.seconds, (int) d.nanos);
		return;
	}
	/* BigDecimal(unscaled = nanos, scale 9).toString */
	n = snprintf(digits, sizeof(digits), "%d", (int) d.nanos);
	adjusted = n - 1 - 9;
	if (adjusted >= -6)
		snprintf(buf, size, "0.%09d", (int) d.nanos);
	else if (n == 1)
		snprintf(buf, size, "%sE%d", digits, adjusted);
	else
		snprintf(buf, size, "%c.%sE%d", digits[0], digits + 1, adjusted);
}
