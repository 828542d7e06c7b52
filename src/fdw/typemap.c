/*-------------------------------------------------------------------------
 * typemap.c
 *	  Paimon types to Postgres types, and vector values to Datums.
 *
 * The mapping (documented in README.md, fixed by sql-surface.md):
 *	 BOOLEAN -> boolean; TINYINT, SMALLINT -> smallint; INT -> integer;
 *	 BIGINT -> bigint; FLOAT -> real; DOUBLE -> double precision;
 *	 DECIMAL(p,s) -> numeric(p,s); CHAR/VARCHAR/STRING -> text;
 *	 BINARY/VARBINARY/BYTES/BLOB -> bytea; DATE -> date; TIME(p) -> time;
 *	 TIMESTAMP(p) -> timestamp; TIMESTAMP_LTZ(p) -> timestamptz;
 *	 ARRAY<scalar> -> scalar[]; ARRAY<nested>, ROW, MAP, MULTISET -> jsonb.
 *
 * jsonb encoding of nested values (the same as the Paimon test corpus):
 * ROW -> {"field": value, ...} in field order; MAP -> [[key, value], ...]
 * in stored order (so non-string and NULL keys survive); ARRAY -> [...];
 * inside JSON, DECIMAL is a string with exactly s fraction digits, BYTES a
 * lowercase hex string, DATE "YYYY-MM-DD", TIMESTAMP "YYYY-MM-DDTHH:MM:SS"
 * with exactly p fraction digits (nanoseconds kept), TIMESTAMP_LTZ the same
 * in UTC with a "Z" suffix.
 *
 * Timestamps with more than 6 fraction digits are truncated to microseconds
 * in timestamp/timestamptz columns (as Paimon's Timestamp.toMicros does).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "common/shortest_dec.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

/* days and microseconds between 1970-01-01 and 2000-01-01 */
#define UNIX_TO_PG_DAYS		((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE))
#define UNIX_TO_PG_MICROS	(UNIX_TO_PG_DAYS * USECS_PER_DAY)

static bool
is_scalar(const pm_type *t)
{
	return !pm_type_is_nested(t->id) && t->id != PM_TYPE_VARIANT;
}

char *
pmfdw_type_sql(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
			return "boolean";
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
			return "smallint";
		case PM_TYPE_INT:
			return "integer";
		case PM_TYPE_BIGINT:
			return "bigint";
		case PM_TYPE_FLOAT:
			return "real";
		case PM_TYPE_DOUBLE:
			return "double precision";
		case PM_TYPE_DECIMAL:
			return psprintf("numeric(%d,%d)", type->precision, type->scale);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return "text";
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			return "bytea";
		case PM_TYPE_DATE:
			return "date";
		case PM_TYPE_TIME:
			return "time";
		case PM_TYPE_TIMESTAMP:
			return "timestamp";
		case PM_TYPE_TIMESTAMP_LTZ:
			return "timestamptz";
		case PM_TYPE_ARRAY:
			if (is_scalar(type->element))
			{
				const char *elem = pmfdw_type_sql(type->element);

				/* numeric(p,s)[] keeps its typmod */
				return psprintf("%s[]", elem);
			}
			return "jsonb";
		case PM_TYPE_MULTISET:
		case PM_TYPE_MAP:
		case PM_TYPE_ROW:
		case PM_TYPE_VARIANT:
			return "jsonb";
	}
	return "text";
}

Oid
pmfdw_type_oid(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
			return BOOLOID;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
			return INT2OID;
		case PM_TYPE_INT:
			return INT4OID;
		case PM_TYPE_BIGINT:
			return INT8OID;
		case PM_TYPE_FLOAT:
			return FLOAT4OID;
		case PM_TYPE_DOUBLE:
			return FLOAT8OID;
		case PM_TYPE_DECIMAL:
			return NUMERICOID;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return TEXTOID;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			return BYTEAOID;
		case PM_TYPE_DATE:
			return DATEOID;
		case PM_TYPE_TIME:
			return TIMEOID;
		case PM_TYPE_TIMESTAMP:
			return TIMESTAMPOID;
		case PM_TYPE_TIMESTAMP_LTZ:
			return TIMESTAMPTZOID;
		case PM_TYPE_ARRAY:
			if (is_scalar(type->element))
				return get_array_type(pmfdw_type_oid(type->element));
			return JSONBOID;
		default:
			return JSONBOID;
	}
}

/* Whether a column declared as pgtype can show values of ptype. */
static bool
compatible(const pm_type *ptype, Oid pgtype)
{
	Oid			natural = pmfdw_type_oid(ptype);

	if (natural == pgtype)
		return true;
	switch (ptype->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
			return pgtype == INT4OID || pgtype == INT8OID;
		case PM_TYPE_INT:
			return pgtype == INT8OID;
		case PM_TYPE_FLOAT:
			return pgtype == FLOAT8OID;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return pgtype == VARCHAROID || pgtype == BPCHAROID;
		default:
			return pgtype == TEXTOID || pgtype == JSONBOID;
	}
}

void
pmfdw_converter_init(PmfdwColumnConverter *conv, const pm_type *ptype, Oid pgtype,
					 const char *colname)
{
	memset(conv, 0, sizeof(*conv));
	conv->ptype = ptype;
	conv->pgtype = pgtype;
	if (!compatible(ptype, pgtype))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of type %s cannot hold Paimon type %s",
						colname, format_type_be(pgtype), pm_type_id_name(ptype->id)),
				 errhint("Declare the column as %s.", pmfdw_type_sql(ptype))));
	if (ptype->id == PM_TYPE_ARRAY && pgtype != JSONBOID && pgtype != TEXTOID)
	{
		conv->elemtype = get_element_type(pgtype);
		get_typlenbyvalalign(conv->elemtype, &conv->elemlen, &conv->elembyval,
							 &conv->elemalign);
	}
}

/* ---- scalar text forms (for numeric and JSON) ---- */

static void
append_int128(StringInfo buf, pm_int128 v)
{
	char		digits[48];
	int			n = 0;
	unsigned __int128 u = v < 0 ? -(unsigned __int128) v : (unsigned __int128) v;

	do
	{
		digits[n++] = '0' + (int) (u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		appendStringInfoChar(buf, '-');
	while (n > 0)
		appendStringInfoChar(buf, digits[--n]);
}

/* unscaled value with `scale` fraction digits, e.g. 12345, 2 -> "123.45" */
static void
append_decimal(StringInfo buf, pm_int128 unscaled, int scale)
{
	StringInfoData d;
	int			len;
	const char *s;
	bool		neg = unscaled < 0;

	initStringInfo(&d);
	append_int128(&d, neg ? -unscaled : unscaled);
	s = d.data;
	len = d.len;
	if (neg)
		appendStringInfoChar(buf, '-');
	if (scale <= 0)
		appendBinaryStringInfo(buf, s, len);
	else if (len > scale)
	{
		appendBinaryStringInfo(buf, s, len - scale);
		appendStringInfoChar(buf, '.');
		appendBinaryStringInfo(buf, s + len - scale, scale);
	}
	else
	{
		appendStringInfoString(buf, "0.");
		for (int i = 0; i < scale - len; i++)
			appendStringInfoChar(buf, '0');
		appendBinaryStringInfo(buf, s, len);
	}
	pfree(d.data);
}

static void
append_date(StringInfo buf, int32 days)
{
	int			y,
				m,
				d;

	j2date(days + UNIX_EPOCH_JDATE, &y, &m, &d);
	if (y <= 0)
		appendStringInfo(buf, "%04d-%02d-%02d BC", 1 - y, m, d);
	else
		appendStringInfo(buf, "%04d-%02d-%02d", y, m, d);
}

/* ISO timestamp with exactly `precision` fraction digits */
static void
append_timestamp(StringInfo buf, int64 micros, int nanos, int precision)
{
	int64		days = micros / USECS_PER_DAY;
	int64		rem = micros % USECS_PER_DAY;
	int64		frac_ns;
	char		fracbuf[16];

	if (rem < 0)
	{
		rem += USECS_PER_DAY;
		days -= 1;
	}
	append_date(buf, (int32) days);
	appendStringInfo(buf, "T%02d:%02d:%02d",
					 (int) (rem / USECS_PER_HOUR),
					 (int) ((rem / USECS_PER_MINUTE) % 60),
					 (int) ((rem / USECS_PER_SEC) % 60));
	if (precision > 0)
	{
		frac_ns = (rem % USECS_PER_SEC) * 1000 + nanos;
		snprintf(fracbuf, sizeof(fracbuf), "%09lld", (long long) frac_ns);
		appendStringInfoChar(buf, '.');
		appendBinaryStringInfo(buf, fracbuf, Min(precision, 9));
	}
}

static void
append_json_string(StringInfo buf, const char *s, int len)
{
	char	   *tmp = pnstrdup(s, len);

	escape_json(buf, tmp);
	pfree(tmp);
}

static void
append_json_value(StringInfo buf, const pm_vector *vec, int64 row);

static void
append_json_scalar(StringInfo buf, const pm_vector *vec, int64 row)
{
	const pm_type *t = vec->type;

	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			appendStringInfoString(buf, PM_VEC_VALUES(vec, uint8_t)[row] ? "true" : "false");
			break;
		case PM_TYPE_TINYINT:
			appendStringInfo(buf, "%d", PM_VEC_VALUES(vec, int8_t)[row]);
			break;
		case PM_TYPE_SMALLINT:
			appendStringInfo(buf, "%d", PM_VEC_VALUES(vec, int16_t)[row]);
			break;
		case PM_TYPE_INT:
			appendStringInfo(buf, "%d", PM_VEC_VALUES(vec, int32_t)[row]);
			break;
		case PM_TYPE_BIGINT:
			appendStringInfo(buf, INT64_FORMAT, PM_VEC_VALUES(vec, int64_t)[row]);
			break;
		case PM_TYPE_FLOAT:
			{
				float		f = PM_VEC_VALUES(vec, float)[row];

				if (isnan(f) || isinf(f))
					append_json_string(buf, isnan(f) ? "NaN" : (f > 0 ? "Infinity" : "-Infinity"), isnan(f) ? 3 : (f > 0 ? 8 : 9));
				else
				{
					char		tmp[32];

					float_to_shortest_decimal_buf(f, tmp);
					appendStringInfoString(buf, tmp);
				}
				break;
			}
		case PM_TYPE_DOUBLE:
			{
				double		f = PM_VEC_VALUES(vec, double)[row];

				if (isnan(f) || isinf(f))
					append_json_string(buf, isnan(f) ? "NaN" : (f > 0 ? "Infinity" : "-Infinity"), isnan(f) ? 3 : (f > 0 ? 8 : 9));
				else
				{
					char		tmp[32];

					double_to_shortest_decimal_buf(f, tmp);
					appendStringInfoString(buf, tmp);
				}
				break;
			}
		case PM_TYPE_DECIMAL:
			{
				StringInfoData d;

				initStringInfo(&d);
				append_decimal(&d, PM_VEC_VALUES(vec, pm_int128)[row], t->scale);
				escape_json(buf, d.data);
				pfree(d.data);
				break;
			}
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32		len;
				const uint8_t *p = pm_vector_bytes(vec, row, &len);

				append_json_string(buf, (const char *) p, len);
				break;
			}
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
		case PM_TYPE_VARIANT:
			{
				int32		len;
				const uint8_t *p = pm_vector_bytes(vec, row, &len);
				static const char hex[] = "0123456789abcdef";

				appendStringInfoChar(buf, '"');
				for (int i = 0; i < len; i++)
				{
					appendStringInfoChar(buf, hex[p[i] >> 4]);
					appendStringInfoChar(buf, hex[p[i] & 15]);
				}
				appendStringInfoChar(buf, '"');
				break;
			}
		case PM_TYPE_DATE:
			appendStringInfoChar(buf, '"');
			append_date(buf, PM_VEC_VALUES(vec, int32_t)[row]);
			appendStringInfoChar(buf, '"');
			break;
		case PM_TYPE_TIME:
			{
				int32		ms = PM_VEC_VALUES(vec, int32_t)[row];

				appendStringInfo(buf, "\"%02d:%02d:%02d", ms / 3600000, (ms / 60000) % 60,
								 (ms / 1000) % 60);
				if (t->precision > 0)
				{
					char		frac[16];

					snprintf(frac, sizeof(frac), "%03d000000", ms % 1000);
					appendStringInfoChar(buf, '.');
					appendBinaryStringInfo(buf, frac, Min(t->precision, 9));
				}
				appendStringInfoChar(buf, '"');
				break;
			}
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			appendStringInfoChar(buf, '"');
			append_timestamp(buf, PM_VEC_VALUES(vec, int64_t)[row],
							 vec->nanos ? vec->nanos[row] : 0, t->precision);
			if (t->id == PM_TYPE_TIMESTAMP_LTZ)
				appendStringInfoChar(buf, 'Z');
			appendStringInfoChar(buf, '"');
			break;
		default:
			elog(ERROR, "unexpected Paimon type %s in JSON", pm_type_id_name(t->id));
	}
}

static void
append_json_value(StringInfo buf, const pm_vector *vec, int64 row)
{
	if (pm_vector_is_null(vec, row))
	{
		appendStringInfoString(buf, "null");
		return;
	}
	pmfdw_append_json(buf, vec, row);
}

void
pmfdw_append_json(StringInfo buf, const pm_vector *vec, int64 row)
{
	const pm_type *t = vec->type;

	switch (t->id)
	{
		case PM_TYPE_ROW:
			appendStringInfoChar(buf, '{');
			for (int i = 0; i < t->nfields; i++)
			{
				if (i > 0)
					appendStringInfoString(buf, ", ");
				escape_json(buf, t->fields[i].name);
				appendStringInfoString(buf, ": ");
				append_json_value(buf, &vec->children[i], row);
			}
			appendStringInfoChar(buf, '}');
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			appendStringInfoChar(buf, '[');
			for (int32 i = vec->offsets[row]; i < vec->offsets[row + 1]; i++)
			{
				if (i > vec->offsets[row])
					appendStringInfoString(buf, ", ");
				append_json_value(buf, &vec->children[0], i);
			}
			appendStringInfoChar(buf, ']');
			break;
		case PM_TYPE_MAP:
			appendStringInfoChar(buf, '[');
			for (int32 i = vec->offsets[row]; i < vec->offsets[row + 1]; i++)
			{
				if (i > vec->offsets[row])
					appendStringInfoString(buf, ", ");
				appendStringInfoChar(buf, '[');
				append_json_value(buf, &vec->children[0], i);
				appendStringInfoString(buf, ", ");
				append_json_value(buf, &vec->children[1], i);
				appendStringInfoChar(buf, ']');
			}
			appendStringInfoChar(buf, ']');
			break;
		default:
			append_json_scalar(buf, vec, row);
			break;
	}
}

static Datum
numeric_from_decimal(pm_int128 unscaled, int scale)
{
	StringInfoData buf;
	Datum		d;

	/* fast paths: fits int64 */
	if (unscaled >= PG_INT64_MIN && unscaled <= PG_INT64_MAX)
	{
		if (scale == 0)
			return NumericGetDatum(int64_to_numeric((int64) unscaled));
#if PG_VERSION_NUM >= 150000
		if (scale > 0 && scale <= 18)
			return NumericGetDatum(int64_div_fast_to_numeric((int64) unscaled, scale));
#endif
	}
	initStringInfo(&buf);
	append_decimal(&buf, unscaled, scale);
	d = DirectFunctionCall3(numeric_in, CStringGetDatum(buf.data),
							ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	pfree(buf.data);
	return d;
}

Datum
pmfdw_numeric_from_decimal(pm_int128 unscaled, int scale)
{
	return numeric_from_decimal(unscaled, scale);
}

static Datum bytes_datum(const uint8_t *p, int32 len)
{
	bytea	   *b = (bytea *) palloc(len + VARHDRSZ);

	SET_VARSIZE(b, len + VARHDRSZ);
	memcpy(VARDATA(b), p, len);
	return PointerGetDatum(b);
}

/* A scalar value as a Datum of its natural Postgres type. */
static Datum
scalar_datum(const pm_vector *vec, int64 row, Oid pgtype)
{
	const pm_type *t = vec->type;

	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return BoolGetDatum(PM_VEC_VALUES(vec, uint8_t)[row] != 0);
		case PM_TYPE_TINYINT:
			if (pgtype == INT4OID)
				return Int32GetDatum(PM_VEC_VALUES(vec, int8_t)[row]);
			if (pgtype == INT8OID)
				return Int64GetDatum(PM_VEC_VALUES(vec, int8_t)[row]);
			return Int16GetDatum(PM_VEC_VALUES(vec, int8_t)[row]);
		case PM_TYPE_SMALLINT:
			if (pgtype == INT4OID)
				return Int32GetDatum(PM_VEC_VALUES(vec, int16_t)[row]);
			if (pgtype == INT8OID)
				return Int64GetDatum(PM_VEC_VALUES(vec, int16_t)[row]);
			return Int16GetDatum(PM_VEC_VALUES(vec, int16_t)[row]);
		case PM_TYPE_INT:
			if (pgtype == INT8OID)
				return Int64GetDatum(PM_VEC_VALUES(vec, int32_t)[row]);
			return Int32GetDatum(PM_VEC_VALUES(vec, int32_t)[row]);
		case PM_TYPE_BIGINT:
			return Int64GetDatum(PM_VEC_VALUES(vec, int64_t)[row]);
		case PM_TYPE_FLOAT:
			if (pgtype == FLOAT8OID)
				return Float8GetDatum(PM_VEC_VALUES(vec, float)[row]);
			return Float4GetDatum(PM_VEC_VALUES(vec, float)[row]);
		case PM_TYPE_DOUBLE:
			return Float8GetDatum(PM_VEC_VALUES(vec, double)[row]);
		case PM_TYPE_DECIMAL:
			return numeric_from_decimal(PM_VEC_VALUES(vec, pm_int128)[row], t->scale);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32		len;
				const uint8_t *p = pm_vector_bytes(vec, row, &len);

				return PointerGetDatum(cstring_to_text_with_len((const char *) p, len));
			}
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			{
				int32		len;
				const uint8_t *p = pm_vector_bytes(vec, row, &len);

				return bytes_datum(p, len);
			}
		case PM_TYPE_DATE:
			return DateADTGetDatum((DateADT) (PM_VEC_VALUES(vec, int32_t)[row] - UNIX_TO_PG_DAYS));
		case PM_TYPE_TIME:
			return TimeADTGetDatum((TimeADT) PM_VEC_VALUES(vec, int32_t)[row] * 1000);
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return TimestampGetDatum(PM_VEC_VALUES(vec, int64_t)[row] - UNIX_TO_PG_MICROS);
		default:
			elog(ERROR, "unexpected Paimon type %s", pm_type_id_name(t->id));
	}
	return (Datum) 0;
}

Datum
pmfdw_convert_value(PmfdwColumnConverter *conv, const pm_vector *vec, int64 row,
					bool *isnull)
{
	if (pm_vector_is_null(vec, row))
	{
		*isnull = true;
		return (Datum) 0;
	}
	*isnull = false;
	if (conv->pgtype == JSONBOID || conv->pgtype == TEXTOID ||
		conv->pgtype == VARCHAROID || conv->pgtype == BPCHAROID)
	{
		if (pm_type_is_string(vec->type->id))
			return scalar_datum(vec, row, TEXTOID);
		if (conv->pgtype == JSONBOID || pm_type_is_nested(vec->type->id))
		{
			StringInfoData buf;
			Datum		d;

			initStringInfo(&buf);
			pmfdw_append_json(&buf, vec, row);
			if (conv->pgtype == JSONBOID)
				d = DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
			else
				d = PointerGetDatum(cstring_to_text_with_len(buf.data, buf.len));
			pfree(buf.data);
			return d;
		}
	}
	if (vec->type->id == PM_TYPE_ARRAY)
	{
		const pm_vector *elems = &vec->children[0];
		int32		lo = vec->offsets[row];
		int			n = vec->offsets[row + 1] - lo;
		Datum	   *values = palloc(sizeof(Datum) * (n > 0 ? n : 1));
		bool	   *nulls = palloc(sizeof(bool) * (n > 0 ? n : 1));
		int			dims[1] = {n};
		int			lbs[1] = {1};

		for (int i = 0; i < n; i++)
		{
			nulls[i] = pm_vector_is_null(elems, lo + i);
			values[i] = nulls[i] ? (Datum) 0 : scalar_datum(elems, lo + i, conv->elemtype);
		}
		return PointerGetDatum(construct_md_array(values, nulls, n > 0 ? 1 : 0, dims, lbs,
												  conv->elemtype, conv->elemlen,
												  conv->elembyval, conv->elemalign));
	}
	return scalar_datum(vec, row, conv->pgtype);
}

/* text/bytea values of a varlen vector, laid out in one allocation */
static void
convert_varlen_column(const pm_vector *vec, int64 nrows, Datum *values, bool *nulls)
{
	Size		total = 0;
	char	   *buf;

	for (int64 i = 0; i < nrows; i++)
		if (!nulls[i])
			total += INTALIGN(VARHDRSZ + (vec->offsets[i + 1] - vec->offsets[i]));
	buf = palloc(total > 0 ? total : 1);
	for (int64 i = 0; i < nrows; i++)
	{
		int32		len;
		const uint8_t *p;

		if (nulls[i])
		{
			values[i] = (Datum) 0;
			continue;
		}
		p = pm_vector_bytes(vec, i, &len);
		SET_VARSIZE(buf, VARHDRSZ + len);
		memcpy(VARDATA(buf), p, len);
		values[i] = PointerGetDatum(buf);
		buf += INTALIGN(VARHDRSZ + len);
	}
}

#define CONVERT_LOOP(ctype, expr) \
	do { \
		const ctype *src_ = (const ctype *) vec->values; \
		for (int64 i = 0; i < nrows; i++) \
		{ \
			ctype		v_ = src_[i]; \
			values[i] = (expr); \
		} \
	} while (0)

void
pmfdw_convert_column(PmfdwColumnConverter *conv, const pm_vector *vec, int64 nrows,
					 Datum *values, bool *nulls)
{
	const pm_type *t = vec->type;
	Oid			pg = conv->pgtype;

	if (vec->nulls != NULL)
		for (int64 i = 0; i < nrows; i++)
			nulls[i] = vec->nulls[i] != 0;
	else
		memset(nulls, 0, sizeof(bool) * nrows);

	/*
	 * Fast paths for the natural mapping of flat types; NULL slots get a
	 * harmless value that is never looked at.
	 */
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			if (pg == BOOLOID)
			{
				CONVERT_LOOP(uint8_t, BoolGetDatum(v_ != 0));
				return;
			}
			break;
		case PM_TYPE_SMALLINT:
			if (pg == INT2OID)
			{
				CONVERT_LOOP(int16_t, Int16GetDatum(v_));
				return;
			}
			break;
		case PM_TYPE_INT:
			if (pg == INT4OID)
			{
				CONVERT_LOOP(int32_t, Int32GetDatum(v_));
				return;
			}
			break;
		case PM_TYPE_BIGINT:
			if (pg == INT8OID)
			{
				CONVERT_LOOP(int64_t, Int64GetDatum(v_));
				return;
			}
			break;
		case PM_TYPE_FLOAT:
			if (pg == FLOAT4OID)
			{
				CONVERT_LOOP(float, Float4GetDatum(v_));
				return;
			}
			break;
		case PM_TYPE_DOUBLE:
			if (pg == FLOAT8OID)
			{
				CONVERT_LOOP(double, Float8GetDatum(v_));
				return;
			}
			break;
		case PM_TYPE_DATE:
			if (pg == DATEOID)
			{
				CONVERT_LOOP(int32_t, DateADTGetDatum((DateADT) (v_ - UNIX_TO_PG_DAYS)));
				return;
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (pg == TIMESTAMPOID || pg == TIMESTAMPTZOID)
			{
				CONVERT_LOOP(int64_t, TimestampGetDatum(v_ - UNIX_TO_PG_MICROS));
				return;
			}
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			if (pg == TEXTOID || pg == VARCHAROID || pg == BPCHAROID)
			{
				convert_varlen_column(vec, nrows, values, nulls);
				return;
			}
			break;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			if (pg == BYTEAOID)
			{
				convert_varlen_column(vec, nrows, values, nulls);
				return;
			}
			break;
		default:
			break;
	}
	for (int64 i = 0; i < nrows; i++)
		values[i] = nulls[i] ? (Datum) 0 : pmfdw_convert_value(conv, vec, i, &nulls[i]);
}
