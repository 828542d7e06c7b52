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
 *
 * Values are never trusted: a DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ
 * outside Postgres' range (dates 4714-11-24 BC .. 5874897 AD, timestamps
 * 4714-11-24 BC .. 294276 AD, times 00:00 .. 24:00; a finite file value
 * never becomes +-infinity) is an ERROR 22008, a DECIMAL with more digits
 * than its precision 22003, and strings must be valid UTF-8 (22021; they
 * are converted to the database encoding when it differs). Every error
 * names the column; the scan's error context names the file.
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
#include "mb/pg_wchar.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "common/shortest_dec.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

/* Postgres' ranges in Paimon's units (since 1970-01-01; TIME in ms of day) */
#define MIN_UNIX_DAYS		((int64) DATETIME_MIN_JULIAN - UNIX_EPOCH_JDATE)
#define END_UNIX_DAYS		((int64) DATE_END_JULIAN - UNIX_EPOCH_JDATE)
#define MIN_UNIX_MICROS		(MIN_TIMESTAMP + UNIX_TO_PG_MICROS)
/* END_TIMESTAMP + UNIX_TO_PG_MICROS is beyond int64: checked after the shift */
#define UNIX_MICROS_VALID(us) \
	((us) >= MIN_UNIX_MICROS && IS_VALID_TIMESTAMP((us) - UNIX_TO_PG_MICROS))
#define MAX_TIME_MILLIS		((int64) (USECS_PER_DAY / 1000))

static void pg_attribute_noreturn()
datetime_out_of_range(const char *what, int64 v, const char *unit, const char *col)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("%s out of range in column \"%s\"", what, col),
			 errdetail("The file holds " INT64_FORMAT " %s, outside PostgreSQL's range.",
					   v, unit)));
}

/* days since 1970-01-01 as a date, or ERROR */
Datum
pmfdw_date_datum(int64 days, const char *col)
{
	if (days < MIN_UNIX_DAYS || days >= END_UNIX_DAYS)
		datetime_out_of_range("date", days, "days since 1970-01-01", col);
	return DateADTGetDatum((DateADT) (days - UNIX_TO_PG_DAYS));
}

/* microseconds since 1970-01-01 as a timestamp(tz), or ERROR */
Datum
pmfdw_timestamp_datum(int64 micros, const char *col)
{
	if (!UNIX_MICROS_VALID(micros))
		datetime_out_of_range("timestamp", micros, "microseconds since 1970-01-01", col);
	return TimestampGetDatum(micros - UNIX_TO_PG_MICROS);
}

/* milliseconds of the day as a time, or ERROR */
static Datum
time_datum(int32 ms, const char *col)
{
	if (ms < 0 || ms > MAX_TIME_MILLIS)
		datetime_out_of_range("time", ms, "milliseconds of the day", col);
	return TimeADTGetDatum((TimeADT) ms * 1000);
}

/*
 * A Paimon string is UTF-8 (as Java writes it): an invalid sequence, or a
 * NUL byte, which text cannot hold, is ERROR 22021.
 */
static void
check_utf8(const uint8_t *p, int32 len, const char *col)
{
	int			good = pg_encoding_verifymbstr(PG_UTF8, (const char *) p, len);

	if (good != len)
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("invalid UTF-8 in column \"%s\"", col),
				 p[good] == 0 ?
				 errdetail("A %d-byte string holds a NUL byte at offset %d, which text cannot hold.",
						   len, good) :
				 errdetail("Byte 0x%02x at offset %d of a %d-byte string is not valid UTF-8.",
						   p[good], good, len)));
}

/* whether strings go to the database as they are (after check_utf8) */
static bool
database_takes_utf8(void)
{
	int			db = GetDatabaseEncoding();

	return db == PG_UTF8 || db == PG_SQL_ASCII;
}

/*
 * A Paimon string in the database encoding: checked, and converted when the
 * database is neither UTF-8 nor SQL_ASCII. Returns p itself or a palloc'd
 * copy; *outlen is its length.
 */
static const char *
server_string(const uint8_t *p, int32 len, int32 *outlen, const char *col)
{
	const char *s;

	check_utf8(p, len, col);
	*outlen = len;
	if (database_takes_utf8())
		return (const char *) p;
	s = pg_any_to_server((const char *) p, len, PG_UTF8);
	if (s != (const char *) p)
		*outlen = (int32) strlen(s);
	return s;
}

/* the same, as a text Datum */
static Datum
text_datum(const uint8_t *p, int32 len, const char *col)
{
	int32		n;
	const char *s = server_string(p, len, &n, col);

	return PointerGetDatum(cstring_to_text_with_len(s, n));
}

/*
 * Whether |unscaled| < 10^precision: a DECIMAL(p,s) value of the file
 * within its declared type (Paimon's precision is at most 38).
 */
static void
check_decimal(pm_int128 unscaled, int precision, int scale, const char *col)
{
	unsigned __int128 a = unscaled < 0 ? -(unsigned __int128) unscaled : (unsigned __int128) unscaled;
	unsigned __int128 limit = 1;

	if (precision < 1 || precision > 38)
		return;					/* 10^39 > 2^127: every int128 fits */
	for (int i = 0; i < precision; i++)
		limit *= 10;
	if (a >= limit)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("decimal value out of range in column \"%s\"", col),
				 errdetail("The file holds a value of more than %d digits for DECIMAL(%d,%d).",
						   precision, precision, scale)));
}

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
	conv->colname = pstrdup(colname);
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
append_date(StringInfo buf, int64 days, const char *col)
{
	int			y,
				m,
				d;

	if (days < MIN_UNIX_DAYS || days >= END_UNIX_DAYS)
		datetime_out_of_range("date", days, "days since 1970-01-01", col);
	j2date((int) (days + UNIX_EPOCH_JDATE), &y, &m, &d);
	if (y <= 0)
		appendStringInfo(buf, "%04d-%02d-%02d BC", 1 - y, m, d);
	else
		appendStringInfo(buf, "%04d-%02d-%02d", y, m, d);
}

/* ISO timestamp with exactly `precision` fraction digits */
static void
append_timestamp(StringInfo buf, int64 micros, int nanos, int precision, const char *col)
{
	int64		days = micros / USECS_PER_DAY;
	int64		rem = micros % USECS_PER_DAY;
	int64		frac_ns;
	char		fracbuf[16];

	if (!UNIX_MICROS_VALID(micros))
		datetime_out_of_range("timestamp", micros, "microseconds since 1970-01-01", col);
	if (rem < 0)
	{
		rem += USECS_PER_DAY;
		days -= 1;
	}
	append_date(buf, days, col);
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
append_json_string(StringInfo buf, const uint8_t *p, int32 len, const char *col)
{
	int32		n;
	const char *s = server_string(p, len, &n, col);
	char	   *tmp = pnstrdup(s, n);

	escape_json(buf, tmp);
	pfree(tmp);
}

static void
append_json(StringInfo buf, const pm_vector *vec, int64 row, const char *col);

/* JSON text of a non-finite float: a string, as Paimon's corpus has it */
static void
append_json_nonfinite(StringInfo buf, double f)
{
	escape_json(buf, isnan(f) ? "NaN" : (f > 0 ? "Infinity" : "-Infinity"));
}

static void
append_json_scalar(StringInfo buf, const pm_vector *vec, int64 row, const char *col)
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
					append_json_nonfinite(buf, f);
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
					append_json_nonfinite(buf, f);
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

				check_decimal(PM_VEC_VALUES(vec, pm_int128)[row], t->precision, t->scale, col);
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

				append_json_string(buf, p, len, col);
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
			append_date(buf, PM_VEC_VALUES(vec, int32_t)[row], col);
			appendStringInfoChar(buf, '"');
			break;
		case PM_TYPE_TIME:
			{
				int32		ms = PM_VEC_VALUES(vec, int32_t)[row];

				if (ms < 0 || ms > MAX_TIME_MILLIS)
					datetime_out_of_range("time", ms, "milliseconds of the day", col);
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
							 vec->nanos ? vec->nanos[row] : 0, t->precision, col);
			if (t->id == PM_TYPE_TIMESTAMP_LTZ)
				appendStringInfoChar(buf, 'Z');
			appendStringInfoChar(buf, '"');
			break;
		default:
			elog(ERROR, "unexpected Paimon type %s in JSON", pm_type_id_name(t->id));
	}
}

static void
append_json_value(StringInfo buf, const pm_vector *vec, int64 row, const char *col)
{
	if (pm_vector_is_null(vec, row))
	{
		appendStringInfoString(buf, "null");
		return;
	}
	append_json(buf, vec, row, col);
}

/* JSON text of a value (ROW object, MAP [[k,v],...], ARRAY, scalar) */
static void
append_json(StringInfo buf, const pm_vector *vec, int64 row, const char *col)
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
				append_json_value(buf, &vec->children[i], row, col);
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
				append_json_value(buf, &vec->children[0], i, col);
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
				append_json_value(buf, &vec->children[0], i, col);
				appendStringInfoString(buf, ", ");
				append_json_value(buf, &vec->children[1], i, col);
				appendStringInfoChar(buf, ']');
			}
			appendStringInfoChar(buf, ']');
			break;
		default:
			append_json_scalar(buf, vec, row, col);
			break;
	}
}

static Datum
numeric_from_decimal(pm_int128 unscaled, int precision, int scale, const char *col)
{
	check_decimal(unscaled, precision, scale, col);
	return pmfdw_numeric_from_decimal(unscaled, scale);
}

/* Any unscaled value (e.g. a pushed-down sum) as numeric; no precision bound. */
Datum
pmfdw_numeric_from_decimal(pm_int128 unscaled, int scale)
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

static Datum bytes_datum(const uint8_t *p, int32 len)
{
	bytea	   *b = (bytea *) palloc(len + VARHDRSZ);

	SET_VARSIZE(b, len + VARHDRSZ);
	memcpy(VARDATA(b), p, len);
	return PointerGetDatum(b);
}

/* A scalar value as a Datum of its natural Postgres type. */
static Datum
scalar_datum(const pm_vector *vec, int64 row, Oid pgtype, const char *col)
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
			return numeric_from_decimal(PM_VEC_VALUES(vec, pm_int128)[row], t->precision,
										t->scale, col);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32		len;
				const uint8_t *p = pm_vector_bytes(vec, row, &len);

				return text_datum(p, len, col);
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
			return pmfdw_date_datum(PM_VEC_VALUES(vec, int32_t)[row], col);
		case PM_TYPE_TIME:
			return time_datum(PM_VEC_VALUES(vec, int32_t)[row], col);
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return pmfdw_timestamp_datum(PM_VEC_VALUES(vec, int64_t)[row], col);
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
			return scalar_datum(vec, row, TEXTOID, conv->colname);
		if (conv->pgtype == JSONBOID || pm_type_is_nested(vec->type->id))
		{
			StringInfoData buf;
			Datum		d;

			initStringInfo(&buf);
			append_json(&buf, vec, row, conv->colname);
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
			values[i] = nulls[i] ? (Datum) 0 : scalar_datum(elems, lo + i, conv->elemtype, conv->colname);
		}
		return PointerGetDatum(construct_md_array(values, nulls, n > 0 ? 1 : 0, dims, lbs,
												  conv->elemtype, conv->elemlen,
												  conv->elembyval, conv->elemalign));
	}
	return scalar_datum(vec, row, conv->pgtype, conv->colname);
}

/*
 * text/bytea values of a varlen vector, laid out in one allocation; with
 * utf8_col, each value is checked to be valid UTF-8 (the caller makes sure
 * the database takes UTF-8 as it is).
 */
static void
convert_varlen_column(const pm_vector *vec, int64 nrows, Datum *values, bool *nulls,
					  const char *utf8_col)
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
		if (utf8_col != NULL)
			check_utf8(p, len, utf8_col);
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
				CONVERT_LOOP(int32_t, nulls[i] ? (Datum) 0 : pmfdw_date_datum(v_, conv->colname));
				return;
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (pg == TIMESTAMPOID || pg == TIMESTAMPTZOID)
			{
				CONVERT_LOOP(int64_t,
							 nulls[i] ? (Datum) 0 : pmfdw_timestamp_datum(v_, conv->colname));
				return;
			}
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			if ((pg == TEXTOID || pg == VARCHAROID || pg == BPCHAROID) && database_takes_utf8())
			{
				convert_varlen_column(vec, nrows, values, nulls, conv->colname);
				return;
			}
			break;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			if (pg == BYTEAOID)
			{
				convert_varlen_column(vec, nrows, values, nulls, NULL);
				return;
			}
			break;
		default:
			break;
	}
	for (int64 i = 0; i < nrows; i++)
		values[i] = nulls[i] ? (Datum) 0 : pmfdw_convert_value(conv, vec, i, &nulls[i]);
}
