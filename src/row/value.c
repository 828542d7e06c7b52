/*-------------------------------------------------------------------------
 * value.c
 *	  Comparing and printing single values of Paimon types (see value.h).
 *
 * Order follows apache/paimon paimon-common
 * org/apache/paimon/utils/InternalRowUtils.java (compare, byteArrayCompare).
 * Calendar arithmetic is Howard Hinnant's civil_from_days/days_from_civil
 * (public domain algorithms), hand-written because C has no UTC calendar
 * conversion for 64-bit proleptic Gregorian dates without time zones.
 *-------------------------------------------------------------------------
 */
#include "row/value.h"

#include "common/compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
pm_value_compare(const pm_type *type, const pm_value *a, const pm_value *b)
{
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return pm_cmp_i64(a->u.i64, b->u.i64);
		case PM_TYPE_FLOAT:
			return pm_cmp_double_java((float) a->u.f64, (float) b->u.f64);
		case PM_TYPE_DOUBLE:
			return pm_cmp_double_java(a->u.f64, b->u.f64);
		case PM_TYPE_DECIMAL:
			return pm_cmp_i128(a->u.i128, b->u.i128);
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (a->u.i64 != b->u.i64)
				return pm_cmp_i64(a->u.i64, b->u.i64);
			return pm_cmp_i64(a->nanos, b->nanos);
		default:
			return pm_cmp_bytes(a->u.bytes.ptr, (size_t) a->u.bytes.len,
								b->u.bytes.ptr, (size_t) b->u.bytes.len);
	}
}

int
pm_value_row_compare(const pm_type *row_type, const pm_value *a, const pm_value *b)
{
	for (int k = 0; k < row_type->nfields; k++)
	{
		int			c;

		if (a[k].is_null != b[k].is_null)
			return a[k].is_null ? -1 : 1;
		if (a[k].is_null)
			continue;
		c = pm_value_compare(row_type->fields[k].type, &a[k], &b[k]);
		if (c != 0)
			return c;
	}
	return 0;
}

void
pm_date_from_days(int64_t days, int64_t *year, int *month, int *day)
{
	int64_t		z = days + 719468;
	int64_t		era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t		doe = z - era * 146097;
	int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t		mp = (5 * doy + 2) / 153;
	int64_t		d = doy - (153 * mp + 2) / 5 + 1;
	int64_t		m = mp < 10 ? mp + 3 : mp - 9;

	*year = yoe + era * 400 + (m <= 2);
	*month = (int) m;
	*day = (int) d;
}

int64_t
pm_days_from_date(int64_t year, int month, int day)
{
	int64_t		y = year - (month <= 2);
	int64_t		era = (y >= 0 ? y : y - 399) / 400;
	int64_t		yoe = y - era * 400;
	int64_t		mp = month > 2 ? month - 3 : month + 9;
	int64_t		doy = (153 * mp + 2) / 5 + day - 1;
	int64_t		doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

static char *
format_double(pm_arena *arena, double d, bool is_float)
{
	char		buf[64];

	if (isnan(d))
		return pm_arena_strdup(arena, "NaN");
	if (isinf(d))
		return pm_arena_strdup(arena, d > 0 ? "Infinity" : "-Infinity");
	/* shortest form that reads back to the same value */
	for (int prec = 1; prec <= 17; prec++)
	{
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (is_float ? (strtof(buf, NULL) == (float) d) : (strtod(buf, NULL) == d))
			break;
	}
	return pm_arena_strdup(arena, buf);
}

static char *
format_decimal(pm_arena *arena, pm_int128 v, int scale)
{
	char		digits[64];
	char		out[80];
	int			n = 0;
	bool		neg = v < 0;
	unsigned __int128 u = neg ? -(unsigned __int128) v : (unsigned __int128) v;
	int			o = 0;

	if (scale < 0 || scale > 38)
		scale = 0;
	do
	{
		digits[n++] = (char) ('0' + (int) (u % 10));
		u /= 10;
	} while (u != 0);
	while (n <= scale)
		digits[n++] = '0';
	if (neg)
		out[o++] = '-';
	for (int i = n - 1; i >= 0; i--)
	{
		out[o++] = digits[i];
		if (i == scale && scale > 0)
			out[o++] = '.';
	}
	out[o] = '\0';
	return pm_arena_strdup(arena, out);
}

/* ".123" / ".123456" / ".123456789" with trailing zeros cut, or "" */
static void
format_fraction(char *buf, size_t size, int64_t nanos_of_second)
{
	char		tmp[16];
	int			len;

	if (nanos_of_second == 0)
	{
		buf[0] = '\0';
		return;
	}
	snprintf(tmp, sizeof(tmp), "%09" PRId64, nanos_of_second);
	len = 9;
	while (len > 1 && tmp[len - 1] == '0')
		len--;
	tmp[len] = '\0';
	snprintf(buf, size, ".%s", tmp);
}

static void
split_floor(int64_t v, int64_t d, int64_t *q, int64_t *r)
{
	*q = v / d;
	*r = v % d;
	if (*r < 0)
	{
		*r += d;
		*q -= 1;
	}
}

char *
pm_value_format(pm_arena *arena, const pm_type *type, const pm_value *value)
{
	if (value->is_null)
		return pm_arena_strdup(arena, "NULL");
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
			return pm_arena_strdup(arena, value->u.i64 ? "true" : "false");
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
			return pm_arena_sprintf(arena, "%" PRId64, value->u.i64);
		case PM_TYPE_FLOAT:
			return format_double(arena, value->u.f64, true);
		case PM_TYPE_DOUBLE:
			return format_double(arena, value->u.f64, false);
		case PM_TYPE_DECIMAL:
			return format_decimal(arena, value->u.i128, type->scale);
		case PM_TYPE_DATE:
			{
				int64_t		y;
				int			m,
							d;

				pm_date_from_days(value->u.i64, &y, &m, &d);
				return pm_arena_sprintf(arena, "%04" PRId64 "-%02d-%02d", y, m, d);
			}
		case PM_TYPE_TIME:
			{
				int64_t		s,
							ms;
				char		frac[16];

				split_floor(value->u.i64, 1000, &s, &ms);
				format_fraction(frac, sizeof(frac), ms * 1000000);
				return pm_arena_sprintf(arena, "%02d:%02d:%02d%s", (int) ((s / 3600) % 24),
										(int) ((s / 60) % 60), (int) (s % 60), frac);
			}
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		secs,
							us,
							days,
							sod,
							y;
				int			m,
							d;
				char		frac[16];

				split_floor(value->u.i64, 1000000, &secs, &us);
				split_floor(secs, 86400, &days, &sod);
				pm_date_from_days(days, &y, &m, &d);
				format_fraction(frac, sizeof(frac), us * 1000 + value->nanos % 1000);
				return pm_arena_sprintf(arena, "%04" PRId64 "-%02d-%02d %02d:%02d:%02d%s",
										y, m, d, (int) (sod / 3600), (int) ((sod / 60) % 60),
										(int) (sod % 60), frac);
			}
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return pm_arena_strndup(arena, (const char *) value->u.bytes.ptr,
									value->u.bytes.len > 0 ? (size_t) value->u.bytes.len : 0);
		default:
			{
				static const char hex[] = "0123456789abcdef";
				size_t		n = value->u.bytes.len > 0 ? (size_t) value->u.bytes.len : 0;
				char	   *s = pm_arena_alloc(arena, 2 + 2 * n + 1);

				if (s == NULL)
					return NULL;
				s[0] = '\\';
				s[1] = 'x';
				for (size_t i = 0; i < n; i++)
				{
					s[2 + 2 * i] = hex[value->u.bytes.ptr[i] >> 4];
					s[3 + 2 * i] = hex[value->u.bytes.ptr[i] & 15];
				}
				s[2 + 2 * n] = '\0';
				return s;
			}
	}
}

bool
pm_vector_value(const pm_vector *v, int64_t i, pm_value *out)
{
	memset(out, 0, sizeof(*out));
	if (pm_vector_is_null(v, i))
	{
		out->is_null = true;
		return true;
	}
	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
			out->u.i64 = pm_vector_int64_at(v, i);
			return true;
		case PM_TYPE_FLOAT:
			out->u.f64 = PM_VEC_VALUES(v, float)[i];
			return true;
		case PM_TYPE_DOUBLE:
			out->u.f64 = PM_VEC_VALUES(v, double)[i];
			return true;
		case PM_TYPE_DECIMAL:
			out->u.i128 = PM_VEC_VALUES(v, pm_int128)[i];
			return true;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			out->u.i64 = PM_VEC_VALUES(v, int64_t)[i];
			out->nanos = v->nanos != NULL ? v->nanos[i] : 0;
			return true;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
		case PM_TYPE_MAP:
		case PM_TYPE_ROW:
			return false;
		default:
			out->u.bytes.ptr = pm_vector_bytes(v, i, &out->u.bytes.len);
			return true;
	}
}
