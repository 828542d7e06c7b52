/*-------------------------------------------------------------------------
 * partition_path.c
 *	  Partition directory names from partition values, as Java names them.
 *
 * Hand-written: PartitionPathUtils / InternalRowPartitionComputer rules
 * (escaping, partition.default-name for NULL/blank values, rendering per
 * partition.legacy-name). Used only to locate files; partition values
 * always come from _PARTITION, never from directory names (§1.3).
 *-------------------------------------------------------------------------
 */
#include "table/partition_path.h"

#include "common/civil_date.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


static bool
needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f || (c < 0x80 && strchr("\"#%'*/:=?\\{}[]^", c) != NULL && c != 0);
}

static bool
append_escaped(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (*len + 4 >= cap)
			return false;
		if (needs_escape(c))
			*len += snprintf(buf + *len, cap - *len, "%%%02X", c);
		else
			buf[(*len)++] = (char) c;
	}
	buf[*len] = '\0';
	return true;
}

static void
format_java_double(double v, bool is_float, char *out, size_t cap)
{
	/* Java Float/Double.toString: shortest repr, "1.0", "1.0E10" */
	char		tmp[64];
	double		a = fabs(v);

	if (isnan(v))
	{
		snprintf(out, cap, "NaN");
		return;
	}
	if (isinf(v))
	{
		snprintf(out, cap, v > 0 ? "Infinity" : "-Infinity");
		return;
	}
	for (int prec = 1; prec <= 17; prec++)
	{
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (is_float ? (float) strtod(tmp, NULL) == (float) v : strtod(tmp, NULL) == v)
			break;
	}
	if (a == 0 || (a >= 1e-3 && a < 1e7))
	{
		double		parsed = strtod(tmp, NULL);
		int			digits = 1;

		/* plain notation with at least one fraction digit */
		for (; digits < 17; digits++)
		{
			snprintf(out, cap, "%.*f", digits, parsed);
			if (is_float ? (float) strtod(out, NULL) == (float) v : strtod(out, NULL) == v)
				break;
		}
	}
	else
	{
		char	   *e;
		int			exp;

		snprintf(tmp, sizeof(tmp), "%.16e", v);
		for (int prec = 0; prec <= 16; prec++)
		{
			snprintf(tmp, sizeof(tmp), "%.*e", prec, v);
			if (is_float ? (float) strtod(tmp, NULL) == (float) v : strtod(tmp, NULL) == v)
				break;
		}
		e = strchr(tmp, 'e');
		exp = atoi(e + 1);
		*e = '\0';
		if (strchr(tmp, '.') == NULL)
			snprintf(out, cap, "%s.0E%d", tmp, exp);
		else
			snprintf(out, cap, "%sE%d", tmp, exp);
	}
}

static void
format_decimal(pm_int128 v, int scale, char *out, size_t cap)
{
	char		digits[64];
	int			n = 0;
	bool		neg = v < 0;
	unsigned __int128 u = neg ? (unsigned __int128) (-(v + 1)) + 1 : (unsigned __int128) v;
	size_t		len = 0;

	do
	{
		digits[n++] = (char) ('0' + (int) (u % 10));
		u /= 10;
	} while (u > 0 && n < 60);
	while (n <= scale && n < 60)
		digits[n++] = '0';
	if (neg && len + 1 < cap)
		out[len++] = '-';
	for (int i = n - 1; i >= 0 && len + 2 < cap; i--)
	{
		out[len++] = digits[i];
		if (i == scale && scale > 0)
			out[len++] = '.';
	}
	out[len] = '\0';
}

/* Java LocalDateTime.toString of a timestamp value */
static void
format_timestamp(int64_t micros, int nanos, bool legacy, int precision, char *out, size_t cap)
{
	int64_t		days = micros >= 0 ? micros / 86400000000LL : -((-micros + 86399999999LL) / 86400000000LL);
	int64_t		rem = micros - days * 86400000000LL;
	int			y,
				mo,
				d;
	int			h = (int) (rem / 3600000000LL),
				mi = (int) (rem / 60000000LL % 60),
				s = (int) (rem / 1000000 % 60);
	int64_t		frac_ns = (rem % 1000000) * 1000 + nanos;
	size_t		len;

	{
		int64_t		y64;

		pm_civil_from_days(days, &y64, &mo, &d);
		y = (int) y64;
	}
	if (!legacy)
	{
		len = snprintf(out, cap, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, s);
		if (precision > 0 && len < cap)
		{
			char		f[16];

			snprintf(f, sizeof(f), "%09lld", (long long) frac_ns);
			f[precision > 9 ? 9 : precision] = '\0';
			snprintf(out + len, cap - len, ".%s", f);
		}
		return;
	}
	len = snprintf(out, cap, "%04d-%02d-%02dT%02d:%02d", y, mo, d, h, mi);
	if ((s > 0 || frac_ns > 0) && len < cap)
	{
		len += snprintf(out + len, cap - len, ":%02d", s);
		if (frac_ns > 0 && len < cap)
		{
			if (frac_ns % 1000000 == 0)
				snprintf(out + len, cap - len, ".%03lld", (long long) (frac_ns / 1000000));
			else if (frac_ns % 1000 == 0)
				snprintf(out + len, cap - len, ".%06lld", (long long) (frac_ns / 1000));
			else
				snprintf(out + len, cap - len, ".%09lld", (long long) frac_ns);
		}
	}
}

/* The directory name of one partition value; NULL for the default name. */
static const char *
render_value(const pm_type *type, const pm_value *v, bool legacy, char *buf, size_t cap)
{
	if (v->is_null)
		return NULL;
	switch (type->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32_t		n = v->u.bytes.len;
				bool		blank = true;

				for (int32_t i = 0; i < n; i++)
					if (v->u.bytes.ptr[i] != ' ' && v->u.bytes.ptr[i] != '\t' &&
						v->u.bytes.ptr[i] != '\n' && v->u.bytes.ptr[i] != '\r')
						blank = false;
				if (blank || n <= 0 || (size_t) n >= cap)
					return n <= 0 || blank ? NULL : "";
				memcpy(buf, v->u.bytes.ptr, n);
				buf[n] = '\0';
				return buf;
			}
		case PM_TYPE_BOOLEAN:
			return v->u.i64 ? "true" : "false";
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIME:
			snprintf(buf, cap, "%lld", (long long) v->u.i64);
			return buf;
		case PM_TYPE_DATE:
			if (legacy)
				snprintf(buf, cap, "%lld", (long long) v->u.i64);
			else
			{
				int			y,
							m,
							d;

				{
					int64_t		y64;

					pm_civil_from_days(v->u.i64, &y64, &m, &d);
					y = (int) y64;
				}
				snprintf(buf, cap, "%04d-%02d-%02d", y, m, d);
			}
			return buf;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			format_java_double(v->u.f64, type->id == PM_TYPE_FLOAT, buf, cap);
			return buf;
		case PM_TYPE_DECIMAL:
			format_decimal(v->u.i128, type->scale, buf, cap);
			return buf;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			format_timestamp(v->u.i64, v->nanos, legacy, type->precision, buf, cap);
			return buf;
		default:
			return "";
	}
}

pm_code
pm_partition_path(const pm_schema *schema, const pm_type *partition_type,
				  const char *default_name, const pm_value *values, pm_arena *arena,
				  char **out, pm_error *err)
{
	char		path[4096];
	size_t		len = 0;
	const char *legacy_opt = pm_schema_option(schema, "partition.legacy-name");
	bool		legacy = legacy_opt == NULL || strcasecmp(legacy_opt, "false") != 0;

	path[0] = '\0';
	for (int i = 0; i < partition_type->nfields; i++)
	{
		const pm_field *f = &partition_type->fields[i];
		char		vbuf[1024];
		const char *rendered = render_value(f->type, &values[i], legacy, vbuf, sizeof(vbuf));

		if (rendered == NULL || rendered[0] == '\0')
			rendered = default_name;
		if (!append_escaped(path, sizeof(path), &len, f->name, strlen(f->name)) ||
			len + 2 >= sizeof(path))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "partition path too long");
		path[len++] = '=';
		if (!append_escaped(path, sizeof(path), &len, rendered, strlen(rendered)) ||
			len + 2 >= sizeof(path))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "partition path too long");
		path[len++] = '/';
		path[len] = '\0';
	}
	*out = pm_arena_strdup(arena, path);
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}
