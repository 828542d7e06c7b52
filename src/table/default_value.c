/*-------------------------------------------------------------------------
 * default_value.c
 *	  Column default values on write (default_value.h): Java 1.4.2's
 *	  DefaultValueRow.create / DefaultValueUtils.convertDefaultValue and
 *	  BinaryStringUtils' STRING -> BOOLEAN, integer, FLOAT/DOUBLE
 *	  (Double.parseDouble's grammar, strtod's value) and character casts,
 *	  StringToDecimalCastRule (new BigDecimal, Decimal.fromBigDecimal),
 *	  BinaryStringUtils.toDate (DateTimeUtils.parseDate), toTime
 *	  (DateTimeUtils.parseTime) and toTimestamp (DateTimeUtils' formatter,
 *	  for TIMESTAMP; TIMESTAMP_LTZ, cast in the JVM's zone, is refused).
 *	  Hand-written: Java's exact text grammars, which no C library checks.
 *-------------------------------------------------------------------------
 */
#include "table/default_value.h"

#include "common/civil_date.h"
#include "common/utf8.h"
#include "common/vector_builder.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* BinaryStringUtils.toLong (Hive's LazyLong.parseLong): no blanks */
static bool
java_to_long(const char *s, size_t n, int64_t *out)
{
	size_t		i = 0;
	bool		negative;
	int64_t		result = 0;
	const int64_t stop = INT64_MIN / 10;

	if (n == 0)
		return false;
	negative = s[0] == '-';
	if (negative || s[0] == '+')
	{
		i++;
		if (n == 1)
			return false;
	}
	while (i < n)
	{
		char		b = s[i++];

		if (b == '.')
			break;
		if (b < '0' || b > '9')
			return false;
		if (result < stop)
			return false;
		result = result * 10 - (b - '0');
		if (result > 0)
			return false;
	}
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	if (!negative)
	{
		if (result == INT64_MIN)
			return false;
		result = -result;
	}
	*out = result;
	return true;
}

/* BinaryStringUtils.toBoolean: ASCII lower case against its lists */
static bool
java_to_boolean(const char *s, size_t n, bool *out)
{
	static const char *const t[] = {"t", "true", "y", "yes", "1"};
	static const char *const f[] = {"f", "false", "n", "no", "0"};
	char		low[8];

	if (n >= sizeof(low))
		return false;
	for (size_t i = 0; i < n; i++)
		low[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char) (s[i] - 'A' + 'a') : s[i];
	low[n] = '\0';
	for (int i = 0; i < 5; i++)
	{
		if (strcmp(low, t[i]) == 0)
			return (*out = true), true;
		if (strcmp(low, f[i]) == 0)
			return (*out = false), true;
	}
	return false;
}

/*
 * Double.parseDouble / Float.parseFloat (FloatingDecimal): blanks (<= ' ')
 * trimmed; a sign, then "NaN", "Infinity", decimal digits with an optional
 * point and exponent, or a hexadecimal significand with a binary exponent
 * (required); an optional f/F/d/D suffix. The value is strtod's / strtof's
 * of the same text (both round correctly, as Java does).
 */
static bool
java_to_floating(const char *s, size_t n, bool single, double *out)
{
	char		buf[128];
	size_t		i = 0,
				len;
	bool		neg = false;
	int			digits = 0;
	char	   *end;

	while (n > 0 && (unsigned char) s[0] <= ' ')
		s++, n--;
	while (n > 0 && (unsigned char) s[n - 1] <= ' ')
		n--;
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[i] == '+' || buf[i] == '-')
		neg = buf[i++] == '-';
	if (strcmp(buf + i, "NaN") == 0)
		return (*out = NAN), true;
	if (strcmp(buf + i, "Infinity") == 0)
		return (*out = neg ? -INFINITY : INFINITY), true;
	len = n;
	if (strchr("fFdD", buf[len - 1]) != NULL && len - 1 > i)
		buf[--len] = '\0';
	{
		bool		hex = buf[i] == '0' && (buf[i + 1] == 'x' || buf[i + 1] == 'X');
		size_t		j = hex ? i + 2 : i;
		int			(*is_digit) (int) = hex ? isxdigit : isdigit;

		/* significand: digits, an optional point and digits, one digit at least */
		for (; is_digit((unsigned char) buf[j]); j++)
			digits++;
		if (buf[j] == '.')
			for (j++; is_digit((unsigned char) buf[j]); j++)
				digits++;
		if (digits == 0)
			return false;
		/* exponent: p/P (required for hex) or e/E, a sign, decimal digits */
		if (hex ? (buf[j] == 'p' || buf[j] == 'P') : (buf[j] == 'e' || buf[j] == 'E'))
		{
			j++;
			if (buf[j] == '+' || buf[j] == '-')
				j++;
			if (!isdigit((unsigned char) buf[j]))
				return false;
			while (isdigit((unsigned char) buf[j]))
				j++;
		}
		else if (hex)
			return false;
		if (j != len)
			return false;
	}
	*out = single ? (double) strtof(buf, &end) : strtod(buf, &end);
	/* Java gives +-Infinity or +-0 where strtod reports ERANGE */
	return *end == '\0';
}

/*
 * new BigDecimal(text) (no blanks: sign, digits with an optional point, at
 * least one digit, an optional exponent) then Decimal.fromBigDecimal: the
 * scale set with HALF_UP, NULL (*is_null) past the precision.
 */
static bool
java_to_decimal(const char *s, size_t n, int precision, int scale, pm_int128 *out,
				bool *is_null)
{
	char		dig[80];
	int64_t		nd = 0,
				frac = 0;
	size_t		i = 0;
	bool		neg = false,
				point = false,
				any = false;
	int64_t		exp = 0,
				drop;
	pm_int128	v = 0;

	*is_null = false;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < n; i++)
	{
		if (s[i] == '.' && !point)
			point = true;
		else if (s[i] >= '0' && s[i] <= '9')
		{
			any = true;
			if (point)
				frac++;
			if (nd == 0 && s[i] == '0')
				continue;		/* leading zeros carry no digit */
			/* digits past dig[] are never read: they are kept or dropped past 38 */
			if (nd < (int) sizeof(dig))
				dig[nd] = s[i];
			nd++;
		}
		else
			break;
	}
	if (!any)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
	{
		bool		eneg = false;
		bool		edig = false;

		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		{
			edig = true;
			exp = exp * 10 + (s[i] - '0');
			if (exp > INT32_MAX)
				return false;	/* BigDecimal: exponent overflow */
		}
		if (!edig)
			return false;
		if (eneg)
			exp = -exp;
	}
	if (i != n)
		return false;
	/* the value is dig * 10^-(frac - exp); to the target scale */
	drop = (int64_t) frac - exp - scale;
	if (drop > 0)
	{
		/* HALF_UP: the first dropped digit decides */
		int64_t		keep = nd - drop;
		bool		up;

		if (keep > 38)
			return (*is_null = true), true;	/* more digits than any precision */
		up = keep >= 0 && dig[keep] >= '5';
		for (int64_t k = 0; k < keep; k++)
			v = v * 10 + (dig[k] - '0');
		if (up)
			v++;
	}
	else
	{
		if (nd - drop > 38)
			return (*is_null = true), true;
		for (int64_t k = 0; k < nd; k++)
			v = v * 10 + (dig[k] - '0');
		for (int64_t k = 0; k < -drop; k++)
			v *= 10;
	}
	{
		pm_int128	limit = 1;

		for (int k = 0; k < precision; k++)
			limit *= 10;
		if (v >= limit)
			return (*is_null = true), true;
	}
	*out = neg ? -v : v;
	return true;
}

/* one part of DateTimeUtils.parseDate: trimmed (<= ' '), digits only, an int */
static bool
java_date_part(const char *s, size_t n, int *out)
{
	int64_t		v = 0;

	while (n > 0 && (unsigned char) s[0] <= ' ')
		s++, n--;
	while (n > 0 && (unsigned char) s[n - 1] <= ' ')
		n--;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
		if (v > INT32_MAX)
			return false;		/* Integer.parseInt fails */
	}
	*out = (int) v;
	return true;
}

/*
 * BinaryStringUtils.toDate: an optional '-' and digits (StringUtils.isNumeric)
 * are days since 1970-01-01 (toInt); else DateTimeUtils.parseDate: the text
 * before its first blank, "y", "y-m" or "y-m-d" (parts trimmed), a date of
 * the years 0 to 9999 that exists (proleptic Gregorian), as days since
 * 1970-01-01 by ymdToJulian - EPOCH_JULIAN.
 */
static bool
java_to_date(const char *s, size_t n, int32_t *out)
{
	bool		numeric = n > 0 && !(n == 1 && s[0] == '-');
	const char *h1,
			   *h2,
			   *sp;
	int			y,
				m = 1,
				d = 1;

	for (size_t k = n > 0 && s[0] == '-' ? 1 : 0; numeric && k < n; k++)
		numeric = s[k] >= '0' && s[k] <= '9';
	if (numeric)
	{
		int64_t		l;

		if (!java_to_long(s, n, &l) || l < INT32_MIN || l > INT32_MAX)
			return false;
		*out = (int32_t) l;
		return true;
	}
	sp = memchr(s, ' ', n);
	if (sp != NULL && sp > s)
		n = (size_t) (sp - s);
	h1 = memchr(s, '-', n);
	if (h1 == NULL)
	{
		if (!java_date_part(s, n, &y))
			return false;
	}
	else
	{
		if (!java_date_part(s, (size_t) (h1 - s), &y))
			return false;
		h2 = memchr(h1 + 1, '-', n - (size_t) (h1 + 1 - s));
		if (h2 == NULL)
		{
			if (!java_date_part(h1 + 1, n - (size_t) (h1 + 1 - s), &m))
				return false;
		}
		else if (!java_date_part(h1 + 1, (size_t) (h2 - h1 - 1), &m) ||
				 !java_date_part(h2 + 1, n - (size_t) (h2 + 1 - s), &d))
			return false;
	}
	/* DateTimeUtils.isIllegalDate (true: legal) */
	if (y > 9999 || m < 1 || m > 12 || d < 1 || d > pm_month_days(y, m))
		return false;
	/* ymdToJulian - EPOCH_JULIAN: the proleptic Gregorian day */
	*out = (int32_t) pm_days_from_civil(y, m, d);
	return true;
}

/* StringUtils.isNumeric (ASCII digits here: others fail toInt/toLong anyway) */
static bool
java_is_numeric(const char *s, size_t n)
{
	size_t		k = n > 0 && s[0] == '-' ? 1 : 0;

	if (n == 0 || (n == 1 && s[0] == '-'))
		return false;
	for (; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return false;
	return true;
}

/* DateTimeUtils.parseFraction: milliseconds, rounded by the fourth digit */
static int
java_parse_fraction(const char *s, size_t n)
{
	int			multiplier = 100;
	int			r = 0;

	while (n > 0 && (unsigned char) s[0] <= ' ')
		s++, n--;
	while (n > 0 && (unsigned char) s[n - 1] <= ' ')
		n--;
	for (size_t i = 0; i < n; i++)
	{
		int			x = s[i] < '0' || s[i] > '9' ? 0 : s[i] - '0';

		r += multiplier * x;
		if (multiplier < 10)
		{
			if (i + 1 < n && s[i + 1] >= '5')
				++r;
			break;
		}
		multiplier /= 10;
	}
	return r;
}

static const char *
find_char(const char *s, size_t n, size_t from, char c)
{
	return from <= n ? memchr(s + from, c, n - from) : NULL;
}

/*
 * BinaryStringUtils.toTime: an optional '-' and digits are milliseconds
 * (toInt); else DateTimeUtils.parseTime: "h[:m[:s[.fff]]]" with an offset
 * after the first '-' (else '+'), "[+|-]h[:m]", added with the sign of
 * '+' and subtracted with '-' as Java does; parts trimmed, digits only;
 * the sum in Java's int arithmetic (wrapping).
 */
static bool
java_to_time(const char *s, size_t n, int32_t *out)
{
	const char *colon1 = find_char(s, n, 0, ':');
	const char *tz = find_char(s, n, 0, '-');
	size_t		end = n;
	int			operator = -1;
	int			tzh = 0,
				tzm = 0,
				hour,
				minute = 0,
				second = 0,
				milli = 0;
	uint32_t	sum;

	if (java_is_numeric(s, n))
	{
		int64_t		l;

		if (!java_to_long(s, n, &l) || l < INT32_MIN || l > INT32_MAX)
			return false;
		*out = (int32_t) l;
		return true;
	}
	if (tz == NULL)
	{
		tz = find_char(s, n, 0, '+');
		operator = 1;
	}
	if (tz != NULL)
	{
		size_t		t = (size_t) (tz - s);
		const char *colon3 = find_char(s, n, t, ':');

		end = t;
		if (colon3 == NULL)
		{
			if (!java_date_part(s + t + 1, n - t - 1, &tzh))
				return false;
		}
		else if (!java_date_part(s + t + 1, (size_t) (colon3 - s) - t - 1, &tzh) ||
				 !java_date_part(colon3 + 1, n - (size_t) (colon3 + 1 - s), &tzm))
			return false;
	}
	if (colon1 == NULL || (size_t) (colon1 - s) > end)
	{
		/* Java's substring(start, end) with colon1 past end fails too */
		if (colon1 != NULL)
			return false;
		if (!java_date_part(s, end, &hour))
			return false;
	}
	else
	{
		size_t		c1 = (size_t) (colon1 - s);
		const char *colon2 = find_char(s, n, c1 + 1, ':');

		if (!java_date_part(s, c1, &hour))
			return false;
		if (colon2 == NULL)
		{
			if (end < c1 + 1 || !java_date_part(s + c1 + 1, end - c1 - 1, &minute))
				return false;
		}
		else
		{
			size_t		c2 = (size_t) (colon2 - s);
			const char *dot = find_char(s, n, c2, '.');

			if (c2 > end || !java_date_part(s + c1 + 1, c2 - c1 - 1, &minute))
				return false;
			if (dot == NULL)
			{
				if (end < c2 + 1 || !java_date_part(s + c2 + 1, end - c2 - 1, &second))
					return false;
			}
			else
			{
				size_t		d = (size_t) (dot - s);

				if (d > end || !java_date_part(s + c2 + 1, d - c2 - 1, &second))
					return false;
				milli = java_parse_fraction(s + d + 1, end - d - 1);
			}
		}
	}
	/* int arithmetic as Java's: wraps */
	hour = (int) ((uint32_t) hour + (uint32_t) operator * (uint32_t) tzh);
	minute = (int) ((uint32_t) minute + (uint32_t) operator * (uint32_t) tzm);
	sum = (uint32_t) hour * 3600000u + (uint32_t) minute * 60000u + (uint32_t) second * 1000u +
		(uint32_t) milli;
	*out = (int32_t) sum;
	return true;
}

/* count ASCII digits of s[*i..] up to max, their value in *v */
static int
take_digits(const char *s, size_t n, size_t *i, int max, int64_t *v)
{
	int			k = 0;

	*v = 0;
	while (*i < n && k < max && s[*i] >= '0' && s[*i] <= '9')
	{
		*v = *v * 10 + (s[*i] - '0');
		(*i)++;
		k++;
	}
	return k;
}

/*
 * BinaryStringUtils.toTimestamp(text, precision) for TIMESTAMP(p): an
 * optional '-' and digits are an epoch in the unit of the precision (0, 3,
 * 6 or 9: seconds, millis, micros, nanos; fromMillisToTimestamp), else
 * DateTimeUtils' formatter "yyyy-[MM][M]-[dd][d][ [HH][H]:[mm][m]:[ss][s]
 * [.fraction]]" resolved SMART (a day past the month's end is its last day)
 * and the nanos floored to the precision. Accepted here: a 4-digit year
 * 0001..9999, 1 or 2 digits for the other fields, 1 to 9 fraction digits;
 * other forms Java may accept (a signed or longer year, hour 24) are
 * refused. *micros and *nanos as the vectors hold them.
 */
static bool
java_to_timestamp(const char *s, size_t n, int precision, int64_t *micros, int *nanos)
{
	size_t		i = 0;
	int64_t		y,
				mo,
				d,
				h = 0,
				mi = 0,
				se = 0,
				frac = 0;
	int64_t		nano = 0;
	int			k;
	int64_t		total;

	if (java_is_numeric(s, n))
	{
		int64_t		l;
		__int128	ns;

		if (!java_to_long(s, n, &l))
			return false;
		switch (precision)
		{
			case 0:
				ns = (__int128) l * 1000000000;
				break;
			case 3:
				ns = (__int128) l * 1000000;
				break;
			case 6:
				ns = (__int128) l * 1000;
				break;
			case 9:
				ns = l;
				break;
			default:
				return false;	/* "Unsupported precision" */
		}
		/* millis past a long (precision 0): Java wraps; refused here */
		if (ns / 1000000 > INT64_MAX / 1000 || ns / 1000000 < INT64_MIN / 1000)
			return false;
		*micros = (int64_t) (ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000));
		*nanos = (int) (ns - (__int128) *micros * 1000);
		return true;
	}
	if (take_digits(s, n, &i, 4, &y) != 4 || y < 1 || i >= n || s[i++] != '-')
		return false;
	k = take_digits(s, n, &i, 3, &mo);
	if (k < 1 || k > 2 || mo < 1 || mo > 12 || i >= n || s[i++] != '-')
		return false;
	k = take_digits(s, n, &i, 3, &d);
	if (k < 1 || k > 2 || d < 1 || d > 31)
		return false;
	if (i < n)
	{
		if (s[i++] != ' ')
			return false;
		k = take_digits(s, n, &i, 3, &h);
		if (k < 1 || k > 2 || h > 23 || i >= n || s[i++] != ':')
			return false;
		k = take_digits(s, n, &i, 3, &mi);
		if (k < 1 || k > 2 || mi > 59 || i >= n || s[i++] != ':')
			return false;
		k = take_digits(s, n, &i, 3, &se);
		if (k < 1 || k > 2 || se > 59)
			return false;
		if (i < n)
		{
			if (s[i++] != '.')
				return false;
			k = take_digits(s, n, &i, 10, &frac);
			if (k < 1 || k > 9 || i != n)
				return false;
			nano = frac;
			for (; k < 9; k++)
				nano *= 10;
		}
	}
	/* IsoChronology.resolveYMD, SMART: the month's last day at most */
	if (d > pm_month_days(y, (int) mo))
		d = pm_month_days(y, (int) mo);
	if (precision < 9)
	{
		int64_t		unit = 1;

		for (int p = precision; p < 9; p++)
			unit *= 10;
		nano -= nano % unit;
	}
	total = pm_days_from_civil(y, (int) mo, (int) d) * INT64_C(86400) + h * 3600 + mi * 60 + se;
	*micros = total * 1000000 + nano / 1000;
	*nanos = (int) (nano % 1000);
	return true;
}

static pm_code
one_default(const pm_field *f, const char *text, pm_arena *arena, pm_vector **out,
			pm_error *err)
{
	const pm_type *t = f->type;
	size_t		n = strlen(text);
	const char *s = text;
	pm_vector  *v = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;
	int64_t		l = 0;
	bool		ok = true;

	if (v == NULL || !pm_vector_builder_init(&b, v, t, 1, arena) ||
		!pm_vector_builder_reserve(&b, 1))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	/* convertDefaultValue: one pair of enclosing quotes ("'" alone: Java fails) */
	if (n > 0 && s[0] == '\'' && s[n - 1] == '\'')
	{
		if (n == 1)
			ok = false;
		s++;
		n = n >= 2 ? n - 2 : 0;
	}
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			{
				bool		x = false;

				ok = ok && java_to_boolean(s, n, &x);
				PM_VEC_VALUES(v, uint8_t)[0] = x ? 1 : 0;
				break;
			}
		case PM_TYPE_TINYINT:
			ok = ok && java_to_long(s, n, &l) && l >= INT8_MIN && l <= INT8_MAX;
			PM_VEC_VALUES(v, int8_t)[0] = (int8_t) l;
			break;
		case PM_TYPE_SMALLINT:
			ok = ok && java_to_long(s, n, &l) && l >= INT16_MIN && l <= INT16_MAX;
			PM_VEC_VALUES(v, int16_t)[0] = (int16_t) l;
			break;
		case PM_TYPE_INT:
			ok = ok && java_to_long(s, n, &l) && l >= INT32_MIN && l <= INT32_MAX;
			PM_VEC_VALUES(v, int32_t)[0] = (int32_t) l;
			break;
		case PM_TYPE_BIGINT:
			ok = ok && java_to_long(s, n, &l);
			PM_VEC_VALUES(v, int64_t)[0] = l;
			break;
		case PM_TYPE_DATE:
			{
				int32_t		x = 0;

				ok = ok && java_to_date(s, n, &x);
				PM_VEC_VALUES(v, int32_t)[0] = x;
				break;
			}
		case PM_TYPE_TIME:
			{
				int32_t		x = 0;

				ok = ok && java_to_time(s, n, &x);
				PM_VEC_VALUES(v, int32_t)[0] = x;
				break;
			}
		case PM_TYPE_TIMESTAMP:
			{
				int64_t		us = 0;
				int			ns = 0;

				ok = ok && java_to_timestamp(s, n, t->precision, &us, &ns);
				PM_VEC_VALUES(v, int64_t)[0] = us;
				if (ok && ns != 0 && v->nanos == NULL)
				{
					v->nanos = pm_arena_zalloc(arena, sizeof(uint16_t) * 2);
					if (v->nanos == NULL)
						return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				}
				if (v->nanos != NULL)
					v->nanos[0] = (uint16_t) ns;
				break;
			}
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			{
				double		x = 0;

				ok = ok && java_to_floating(s, n, t->id == PM_TYPE_FLOAT, &x);
				if (t->id == PM_TYPE_FLOAT)
					PM_VEC_VALUES(v, float)[0] = (float) x;
				else
					PM_VEC_VALUES(v, double)[0] = x;
				break;
			}
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = 0;
				bool		is_null = false;

				ok = ok && java_to_decimal(s, n, t->precision, t->scale, &x, &is_null);
				PM_VEC_VALUES(v, pm_int128)[0] = x;
				if (ok && is_null)
				{
					/* Decimal.fromBigDecimal past the precision: a NULL default */
					v->nulls[0] = 1;
					v->length = 1;
					*out = v;
					return PM_OK;
				}
				break;
			}
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				/* toCharacterString: cut to the length, CHAR padded with blanks */
				int64_t		chars;
				size_t		keep = pm_utf8_prefix((const uint8_t *) s, n, t->length, &chars);
				char	   *buf;
				int64_t		pad = t->id == PM_TYPE_CHAR && chars < t->length ? t->length - chars : 0;

				if (!ok)
					break;
				buf = pm_arena_alloc(arena, keep + (size_t) pad + 1);
				if (buf == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				memcpy(buf, s, keep);
				memset(buf + keep, ' ', (size_t) pad);
				if (!pm_vector_builder_append_bytes(&b, buf, (int32_t) (keep + (size_t) pad)))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				*out = v;
				return PM_OK;
			}
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "column \"%s\" has a default value (%s): default values of %s columns are not written yet",
						   f->name, text, pm_type_id_name(t->id));
	}
	if (!ok)
		return pm_fail(err, PM_ERR_INVALID, "Unsupported default value `%s` for type %s of column \"%s\"",
					   text, pm_type_id_name(t->id), f->name);
	v->nulls[0] = 0;
	v->length = 1;
	*out = v;
	return PM_OK;
}

pm_code
pm_default_values_parse(const pm_schema *s, pm_arena *arena, pm_vector ***out, pm_error *err)
{
	int			nf = s->row_type->nfields;
	pm_vector **d = NULL;

	*out = NULL;
	for (int i = 0; s->default_values != NULL && i < nf; i++)
	{
		if (s->default_values[i] == NULL)
			continue;
		if (d == NULL && (d = pm_arena_zalloc(arena, sizeof(pm_vector *) * (size_t) nf)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(one_default(&s->row_type->fields[i], s->default_values[i], arena, &d[i], err));
	}
	*out = d;
	return PM_OK;
}

pm_code
pm_default_values_apply(const pm_type *row_type, pm_vector *const *defaults,
						const pm_batch *in, pm_arena *arena, pm_batch *out, pm_error *err)
{
	*out = *in;
	/* TableWriteImpl.checkNullability comes first */
	for (int c = 0; c < row_type->nfields; c++)
		if (!row_type->fields[c].type->nullable && in->cols[c].nulls != NULL)
			for (int64_t i = 0; i < in->nrows; i++)
				if (pm_vector_is_null(&in->cols[c], i))
					return pm_fail(err, PM_ERR_INVALID, "Cannot write null to non-null column(%s)",
								   row_type->fields[c].name);
	for (int c = 0; defaults != NULL && c < row_type->nfields; c++)
	{
		const pm_vector *src = &in->cols[c];
		pm_vector_builder b;
		bool		any = false;

		if (defaults[c] == NULL || src->nulls == NULL)
			continue;
		for (int64_t i = 0; i < in->nrows && !any; i++)
			any = src->nulls[i] != 0;
		if (!any)
			continue;
		if (out->cols == in->cols)
		{
			pm_vector  *cols = pm_arena_alloc(arena, sizeof(pm_vector) * (size_t) in->ncols);

			if (cols == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			memcpy(cols, in->cols, sizeof(pm_vector) * (size_t) in->ncols);
			out->cols = cols;
		}
		if (!pm_vector_builder_init(&b, &out->cols[c], src->type, in->nrows > 0 ? in->nrows : 1,
									arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < in->nrows; i++)
			if (!(src->nulls[i] ? pm_vector_builder_append(&b, defaults[c], 0) :
				  pm_vector_builder_append(&b, src, i)))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}
