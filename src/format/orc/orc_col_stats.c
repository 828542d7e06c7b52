/*-------------------------------------------------------------------------
 * orc_col_stats.c
 *	  Column statistics of the ORC writer, as Apache ORC 1.9's
 *	  ColumnStatisticsImpl accumulates and serializes them (see
 *	  orc_col_stats.h).
 *
 * Integers: min, max, sum (none after an overflow). Doubles: the first
 * value, then < and > (DoubleStatisticsImpl.updateDouble), sum. Strings:
 * min/max up to 1024 bytes (StringStatisticsImpl keeps longer ones as
 * bounds; none are written here), sum of lengths. Booleans: the true count.
 * Dates: min, max. Decimals: min/max as HiveDecimal text (no sum).
 * Timestamps: UTC millis and the nanos within them, + 1
 * (TimestampStatisticsImpl.serialize). Binary: sum of lengths.
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_col_stats.h"

#include <string.h>

#include "common/floor_div.h"
#include "format/orc/orc_proto_write.h"

#define OW_MAX_STRING_STAT	1024	/* StringStatisticsImpl.MAX_BYTES_RECORDED */

void
orc_acc_init(orc_acc *a, const pm_type *type, const pm_env *env)
{
	memset(a, 0, sizeof(*a));
	pm_write_stats_init(&a->vals, type, env);
}

void
orc_acc_reset(orc_acc *a)
{
	pm_write_stats vals = a->vals;

	pm_write_stats_reset(&vals);
	memset(a, 0, sizeof(*a));
	a->vals = vals;
}

void
orc_acc_free(orc_acc *a)
{
	pm_write_stats_free(&a->vals);
}

void
orc_timestamp_parts(const pm_vector *v, int64_t i, int64_t *secs, int64_t *nanos, int64_t *millis)
{
	int64_t		us = PM_VEC_VALUES(v, int64_t)[i];
	int64_t		ns_extra = v->nanos ? v->nanos[i] : 0;
	int64_t		ms = pm_floor_div(us, 1000);

	*nanos = pm_floor_mod(ms, 1000) * 1000000 + pm_floor_mod(us, 1000) * 1000 + ns_extra;
	*secs = ms / 1000;
	*millis = *secs * 1000 + *nanos / 1000000;
	if (*millis < 0 && *nanos > 999999)
		*millis -= 1000;
}

void
orc_acc_add(orc_acc *a, const pm_vector *v, int64_t i)
{
	const pm_type *type = a->vals.type;

	a->nvalues++;
	pm_write_stats_add(&a->vals, v, i);
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
			a->true_count += PM_VEC_VALUES(v, uint8_t)[i] != 0;
			break;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
			{
				int64_t		x = type->id == PM_TYPE_TINYINT ? PM_VEC_VALUES(v, int8_t)[i] :
					type->id == PM_TYPE_SMALLINT ? PM_VEC_VALUES(v, int16_t)[i] :
					type->id == PM_TYPE_BIGINT ? PM_VEC_VALUES(v, int64_t)[i] :
					PM_VEC_VALUES(v, int32_t)[i];

				if (!a->sum_overflow && __builtin_add_overflow(a->isum, x, &a->isum))
					a->sum_overflow = true;
			}
			break;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			{
				double		d = type->id == PM_TYPE_FLOAT ?
					(double) PM_VEC_VALUES(v, float)[i] : PM_VEC_VALUES(v, double)[i];

				/* ORC's order: the first value, then < and > (NaN never moves them) */
				if (!a->has_double)
				{
					a->has_double = true;
					a->dmin = a->dmax = d;
				}
				else if (d < a->dmin)
					a->dmin = d;
				else if (d > a->dmax)
					a->dmax = d;
				a->dsum += d;
			}
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			a->total_len += v->offsets[i + 1] - v->offsets[i];
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		secs,
							nanos,
							ms;
				int32_t		ns;

				orc_timestamp_parts(v, i, &secs, &nanos, &ms);
				ns = (int32_t) (nanos % 1000000);
				if (!a->has_ts)
				{
					a->has_ts = true;
					a->ts_min_ms = a->ts_max_ms = ms;
					a->ts_min_ns = a->ts_max_ns = ns;
					break;
				}
				if (a->ts_min_ms >= ms)
				{
					if (a->ts_min_ms > ms || ns < a->ts_min_ns)
						a->ts_min_ns = ns;
					a->ts_min_ms = ms;
				}
				if (a->ts_max_ms <= ms)
				{
					if (a->ts_max_ms < ms || ns > a->ts_max_ns)
						a->ts_max_ns = ns;
					a->ts_max_ms = ms;
				}
			}
			break;
		default:
			break;
	}
}

/*
 * HiveDecimal's text of an unscaled value at `scale`, trailing fraction
 * zeros stripped ("1.5", "-0.05", "0"), into buf (at least 44 bytes).
 */
size_t
orc_decimal_text(pm_int128 u, int scale, char *buf)
{
	char		digits[48];
	int			n = 0;
	size_t		len = 0;
	unsigned __int128 m = u < 0 ? (unsigned __int128) (-(u + 1)) + 1 : (unsigned __int128) u;

	while (scale > 0 && m % 10 == 0)
	{
		m /= 10;
		scale--;
	}
	do
	{
		digits[n++] = (char) ('0' + (int) (m % 10));
		m /= 10;
	} while (m != 0);
	while (n <= scale)
		digits[n++] = '0';
	if (u < 0)
		buf[len++] = '-';
	for (int k = n - 1; k >= 0; k--)
	{
		buf[len++] = digits[k];
		if (k == scale && k > 0)
			buf[len++] = '.';
	}
	return len;
}

void
orc_acc_put(pm_byte_buffer *b, pm_byte_buffer *s, const orc_acc *a)
{
	const pm_type *type = a->vals.type;
	int			field = 0;
	bool		any = a->nvalues > 0 && a->vals.any;

	pm_byte_buffer_reset(s);
	orc_pb_uint(b, 1, (uint64_t) a->nvalues);
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
			{
				uint64_t	t = (uint64_t) a->true_count;

				orc_pb_packed_uint(s, 1, &t, 1);
				field = 5;
			}
			break;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
			if (any)
			{
				orc_pb_sint(s, 1, a->vals.min.u.i64);
				orc_pb_sint(s, 2, a->vals.max.u.i64);
			}
			if (!a->sum_overflow)
				orc_pb_sint(s, 3, a->isum);
			field = 2;
			break;
		case PM_TYPE_DATE:
			if (any)
			{
				orc_pb_sint(s, 1, a->vals.min.u.i64);
				orc_pb_sint(s, 2, a->vals.max.u.i64);
			}
			field = 7;
			break;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			if (a->has_double)
			{
				orc_pb_double(s, 1, a->dmin);
				orc_pb_double(s, 2, a->dmax);
			}
			orc_pb_double(s, 3, a->dsum);
			field = 3;
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			if (any && a->vals.min.u.bytes.len <= OW_MAX_STRING_STAT &&
				a->vals.max.u.bytes.len <= OW_MAX_STRING_STAT)
			{
				orc_pb_bytes(s, 1, a->vals.min.u.bytes.ptr, (size_t) a->vals.min.u.bytes.len);
				orc_pb_bytes(s, 2, a->vals.max.u.bytes.ptr, (size_t) a->vals.max.u.bytes.len);
			}
			orc_pb_sint(s, 3, a->total_len);
			field = 4;
			break;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			orc_pb_sint(s, 1, a->total_len);
			field = 8;
			break;
		case PM_TYPE_DECIMAL:
			/* DecimalStatisticsImpl: min/max as HiveDecimal text; no sum here */
			if (any)
			{
				char		text[48];
				size_t		n;

				n = orc_decimal_text(a->vals.min.u.i128, type->scale, text);
				orc_pb_bytes(s, 1, text, n);
				n = orc_decimal_text(a->vals.max.u.i128, type->scale, text);
				orc_pb_bytes(s, 2, text, n);
			}
			field = 6;
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			/* TimestampStatisticsImpl.serialize: UTC millis, nanos + 1 */
			if (a->has_ts)
			{
				orc_pb_sint(s, 3, a->ts_min_ms);
				orc_pb_sint(s, 4, a->ts_max_ms);
				if (a->ts_min_ns != 0)
					orc_pb_uint(s, 5, (uint64_t) a->ts_min_ns + 1);
				if (a->ts_max_ns != 999999)
					orc_pb_uint(s, 6, (uint64_t) a->ts_max_ns + 1);
			}
			field = 9;
			break;
		default:
			break;
	}
	if (field != 0)
		orc_pb_message(b, field, s);
	orc_pb_uint(b, 10, a->has_null ? 1 : 0);
}
