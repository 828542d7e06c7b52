/*-------------------------------------------------------------------------
 * row_batch_json.c
 *	  jsonb values into column vectors of nested Paimon types: the write
 *	  side of typemap.c's JSON encoding.
 *
 * ROW <- {"field": value, ...} matched by field name (a missing key is
 * NULL; a key naming no field is an ERROR 22023); MAP <- [[key, value],
 * ...] (or an object, whose keys are JSON strings: for key types written
 * from strings, STRING, DECIMAL, DATE...; an INT key is then 22023);
 * ARRAY and MULTISET <- [...]. Leaves as typemap.c writes them:
 * integers and floats as numbers (range checked, 22003; a fraction in an
 * integer is 22P02), FLOAT/DOUBLE also "NaN", "Infinity", "-Infinity";
 * DECIMAL as a number or a string, rounded as numeric(p,s) (22003 past p
 * digits); strings with CHAR/VARCHAR lengths checked (22001); BINARY and
 * BYTES as hex strings (22P02 if not hex); DATE, TIME, TIMESTAMP as strings
 * read by Postgres' input functions ("YYYY-MM-DDTHH:MM:SS.fffffffff";
 * up to 9 fraction digits kept for TIMESTAMP(7..9)); TIMESTAMP_LTZ the
 * same with "Z" or an offset (without one, the session time zone). A JSON
 * value of the wrong kind is 22023, a JSON null in a NOT NULL place 23502
 * (a NULL MULTISET element 22004: the files key a map by the elements);
 * errors name the column and the ROW field.
 *
 * The jsonb is walked once with a JsonbIterator (no copy of the document);
 * values are appended to the field's pm_vector_builder, each child vector
 * growing independently (ROW fields in key order, then NULLs for the
 * missing ones).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <math.h>

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "common/vector_builder.h"

/* A date, time or timestamp string is at most this long */
#define DATETIME_MAX_LEN	64

typedef struct JsonCursor
{
	JsonbIterator *it;
	JsonbValue	v;				/* the current token's value */
	JsonbIteratorToken tok;
	const char *col;			/* column, for errors */
	const char *field;			/* innermost ROW field, for errors (or NULL) */
	int64	   *bytes;
} JsonCursor;

static void put_value(JsonCursor *c, pm_vector_builder *b);

bool
pmfdw_json_writable(const pm_type *t)
{
	switch (t->id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			return pmfdw_json_writable(t->element);
		case PM_TYPE_MAP:
			return pmfdw_json_writable(t->element) && pmfdw_json_writable(t->value);
		case PM_TYPE_ROW:
			for (int i = 0; i < t->nfields; i++)
				if (!pmfdw_json_writable(t->fields[i].type))
					return false;
			return true;
		case PM_TYPE_BLOB:
		case PM_TYPE_VARIANT:
			return false;
		default:
			return true;
	}
}

static void
oom(void)
{
	ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
}

static void
next(JsonCursor *c)
{
	c->tok = JsonbIteratorNext(&c->it, &c->v, false);
}

/* " (field "f")" when inside a ROW field */
static const char *
where(const JsonCursor *c)
{
	return c->field != NULL ? psprintf(" (field \"%s\")", c->field) : "";
}

static const char *
kind_name(const JsonCursor *c)
{
	if (c->tok == WJB_BEGIN_ARRAY)
		return "an array";
	if (c->tok == WJB_BEGIN_OBJECT)
		return "an object";
	switch (c->v.type)
	{
		case jbvNull:
			return "null";
		case jbvString:
			return "a string";
		case jbvNumeric:
			return "a number";
		case jbvBool:
			return "a boolean";
		default:
			return "a JSON value";
	}
}

static void pg_attribute_noreturn()
wrong_kind(const JsonCursor *c, const pm_type *t, const char *expected)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("expected %s for Paimon %s in column \"%s\"%s, found %s",
					expected, pm_type_id_name(t->id), c->col, where(c), kind_name(c))));
}

static void pg_attribute_noreturn()
out_of_range(const JsonCursor *c, const pm_type *t)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("value out of range for Paimon %s in column \"%s\"%s",
					pm_type_id_name(t->id), c->col, where(c))));
}

static void
append_null(JsonCursor *c, pm_vector_builder *b)
{
	if (!b->v->type->nullable)
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("null value for NOT NULL Paimon %s in column \"%s\"%s",
						pm_type_id_name(b->v->type->id), c->col, where(c))));
	if (!pm_vector_builder_append_null(b))
		oom();
}

/* The current string token, NUL-terminated in buf (of DATETIME_MAX_LEN + 1). */
static char *
short_string(JsonCursor *c, const pm_type *t, char *buf)
{
	int			len;

	if (c->tok == WJB_BEGIN_ARRAY || c->tok == WJB_BEGIN_OBJECT || c->v.type != jbvString)
		wrong_kind(c, t, "a string");
	len = c->v.val.string.len;
	if (len > DATETIME_MAX_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
				 errmsg("invalid %s value in column \"%s\"%s: string too long",
						pm_type_id_name(t->id), c->col, where(c))));
	memcpy(buf, c->v.val.string.val, len);
	buf[len] = '\0';
	return buf;
}

/* An integral JSON number as int64 (22003 beyond, 22P02 with a fraction). */
static int64
json_int(JsonCursor *c, const pm_type *t, int64 lo, int64 hi)
{
	pm_int128	x;
	bool		inexact;

	if (c->tok == WJB_BEGIN_ARRAY || c->tok == WJB_BEGIN_OBJECT || c->v.type != jbvNumeric)
		wrong_kind(c, t, "a number");
	if (!pmfdw_numeric_unscaled_fast(NumericGetDatum(c->v.val.numeric), 19, 0, &x, &inexact))
		out_of_range(c, t);
	if (inexact)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("expected an integer for Paimon %s in column \"%s\"%s, found %s",
						pm_type_id_name(t->id), c->col, where(c),
						DatumGetCString(DirectFunctionCall1(numeric_out,
															NumericGetDatum(c->v.val.numeric))))));
	if (x < lo || x > hi)
		out_of_range(c, t);
	return (int64) x;
}

/* A JSON number, or "NaN"/"Infinity"/"-Infinity", as a double. */
static double
json_double(JsonCursor *c, const pm_type *t)
{
	if (c->tok != WJB_BEGIN_ARRAY && c->tok != WJB_BEGIN_OBJECT)
	{
		if (c->v.type == jbvNumeric)
			return DatumGetFloat8(DirectFunctionCall1(numeric_float8,
													  NumericGetDatum(c->v.val.numeric)));
		if (c->v.type == jbvString)
		{
			const char *s = c->v.val.string.val;
			int			len = c->v.val.string.len;

			if (len == 3 && memcmp(s, "NaN", 3) == 0)
				return get_float8_nan();
			if (len == 8 && memcmp(s, "Infinity", 8) == 0)
				return get_float8_infinity();
			if (len == 9 && memcmp(s, "-Infinity", 9) == 0)
				return -get_float8_infinity();
		}
	}
	wrong_kind(c, t, "a number (or \"NaN\", \"Infinity\", \"-Infinity\")");
}

static int
hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* A hex string into a BINARY/VARBINARY vector. */
static void
put_hex(JsonCursor *c, pm_vector_builder *b)
{
	pm_vector  *v = b->v;
	const pm_type *t = v->type;
	const char *s;
	int			len;
	int			n;
	uint8	   *out;

	if (c->tok == WJB_BEGIN_ARRAY || c->tok == WJB_BEGIN_OBJECT || c->v.type != jbvString)
		wrong_kind(c, t, "a hex string");
	s = c->v.val.string.val;
	len = c->v.val.string.len;
	if (len % 2 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid hexadecimal data for Paimon %s in column \"%s\"%s: odd number of digits",
						pm_type_id_name(t->id), c->col, where(c))));
	n = len / 2;
	if (t->length > 0 && t->length < PM_MAX_VARCHAR_LENGTH && n > t->length)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
				 errmsg("value too long for Paimon %s(%d) column \"%s\"%s",
						pm_type_id_name(t->id), t->length, c->col, where(c))));
	if (!pm_vector_builder_reserve(b, 1) ||
		!pm_vector_reserve_data(v, &b->data_capacity, n, b->arena))
		oom();
	out = v->data + v->data_size;
	for (int i = 0; i < n; i++)
	{
		int			hi = hex_digit(s[2 * i]);
		int			lo = hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid hexadecimal digit in Paimon %s value in column \"%s\"%s",
							pm_type_id_name(t->id), c->col, where(c))));
		out[i] = (uint8) (hi << 4 | lo);
	}
	v->data_size += n;
	v->nulls[v->length] = 0;
	v->offsets[v->length + 1] = (int32_t) v->data_size;
	v->length++;
	*c->bytes += n;
}

/*
 * A timestamp string: micros since 1970 and the nanoseconds within the
 * microsecond (TIMESTAMP(7..9); digits past the 9th are dropped).
 */
static int64
json_timestamp(JsonCursor *c, const pm_type *t, uint16 *nanos)
{
	char		buf[DATETIME_MAX_LEN + 1];
	char	   *s = short_string(c, t, buf);
	Datum		d;

	*nanos = 0;
	if (t->precision > 6)
	{
		char	   *dot = strchr(s, '.');

		if (dot != NULL)
		{
			char	   *p = dot + 1;
			int			ndig = 0;
			int			ns = 0;

			while (p[ndig] >= '0' && p[ndig] <= '9')
				ndig++;
			if (ndig > 6)
			{
				for (int k = 6; k < 9; k++)
					ns = ns * 10 + (k < ndig ? p[k] - '0' : 0);
				/* drop the digits past the microsecond for the input function */
				memmove(p + 6, p + ndig, strlen(p + ndig) + 1);
				*nanos = (uint16) ns;
			}
		}
	}
	if (t->id == PM_TYPE_TIMESTAMP_LTZ)
		d = DirectFunctionCall3(timestamptz_in, CStringGetDatum(s), ObjectIdGetDatum(InvalidOid),
								Int32GetDatum(-1));
	else
		d = DirectFunctionCall3(timestamp_in, CStringGetDatum(s), ObjectIdGetDatum(InvalidOid),
								Int32GetDatum(-1));
	return pmfdw_timestamp_micros(DatumGetInt64(d), t, c->col);
}

/*
 * A plain decimal string ("-123.4500", as typemap.c writes DECIMAL) as the
 * unscaled value of DECIMAL(p,s), rounded half away from zero as
 * numeric(p,s) rounds. False for any other form (exponents, blanks, NaN,
 * too many digits): the caller then goes through numeric_in.
 */
static bool
decimal_string_fast(const char *s, int len, const pm_type *t, pm_int128 *out)
{
	pm_int128	acc = 0;
	pm_int128	limit = 1;
	int			i = 0;
	int			frac = -1;		/* fraction digits seen, -1 before the point */
	int			ndigits = 0;
	bool		neg = false;
	bool		round_up = false;

	if (t->precision < 1 || t->precision > 38)
		return false;
	for (int k = 0; k < t->precision; k++)
		limit *= 10;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < len; i++)
	{
		char		ch = s[i];

		if (ch == '.' && frac < 0)
		{
			frac = 0;
			continue;
		}
		if (ch < '0' || ch > '9')
			return false;
		ndigits++;
		if (frac >= 0 && frac >= t->scale)
		{
			/* past the scale: the first such digit rounds */
			if (frac == t->scale)
				round_up = ch >= '5';
			frac++;
			continue;
		}
		if (frac >= 0)
			frac++;
		acc = acc * 10 + (ch - '0');
		if (acc >= limit)
			return false;		/* too big: numeric_in reports it */
	}
	if (ndigits == 0)
		return false;
	for (int k = frac < 0 ? 0 : Min(frac, t->scale); k < t->scale; k++)
		acc *= 10;
	if (round_up)
		acc++;
	if (acc >= limit)
		return false;
	*out = neg ? -acc : acc;
	return true;
}

/* A non-NULL scalar (the current token) into b. */
static void
put_scalar(JsonCursor *c, pm_vector_builder *b)
{
	pm_vector  *v = b->v;
	const pm_type *t = v->type;
	int64		i;

	if (pm_type_is_varlen(t->id))
	{
		if (t->id == PM_TYPE_BINARY || t->id == PM_TYPE_VARBINARY)
		{
			put_hex(c, b);
			return;
		}
		if (c->tok == WJB_BEGIN_ARRAY || c->tok == WJB_BEGIN_OBJECT || c->v.type != jbvString)
			wrong_kind(c, t, "a string");
		pmfdw_check_length(t, c->v.val.string.val, c->v.val.string.len, c->col);
		if (!pm_vector_builder_append_bytes(b, c->v.val.string.val, c->v.val.string.len))
			oom();
		*c->bytes += c->v.val.string.len;
		return;
	}
	if (!pm_vector_builder_reserve(b, 1))
		oom();
	i = v->length;
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			if (c->tok == WJB_BEGIN_ARRAY || c->tok == WJB_BEGIN_OBJECT || c->v.type != jbvBool)
				wrong_kind(c, t, "true or false");
			PM_VEC_VALUES(v, uint8_t)[i] = c->v.val.boolean ? 1 : 0;
			break;
		case PM_TYPE_TINYINT:
			PM_VEC_VALUES(v, int8_t)[i] = (int8_t) json_int(c, t, INT8_MIN, INT8_MAX);
			break;
		case PM_TYPE_SMALLINT:
			PM_VEC_VALUES(v, int16_t)[i] = (int16_t) json_int(c, t, PG_INT16_MIN, PG_INT16_MAX);
			break;
		case PM_TYPE_INT:
			PM_VEC_VALUES(v, int32_t)[i] = (int32_t) json_int(c, t, PG_INT32_MIN, PG_INT32_MAX);
			break;
		case PM_TYPE_BIGINT:
			PM_VEC_VALUES(v, int64_t)[i] = json_int(c, t, PG_INT64_MIN, PG_INT64_MAX);
			break;
		case PM_TYPE_FLOAT:
			{
				double		x = json_double(c, t);
				float		f = (float) x;

				if (isinf(f) && !isinf(x))
					out_of_range(c, t);
				PM_VEC_VALUES(v, float)[i] = f;
				break;
			}
		case PM_TYPE_DOUBLE:
			PM_VEC_VALUES(v, double)[i] = json_double(c, t);
			break;
		case PM_TYPE_DECIMAL:
			{
				Datum		num;

				if (c->tok == WJB_BEGIN_ARRAY || c->tok == WJB_BEGIN_OBJECT)
					wrong_kind(c, t, "a number or a string");
				if (c->v.type == jbvNumeric)
					num = NumericGetDatum(c->v.val.numeric);
				else if (c->v.type == jbvString &&
						 decimal_string_fast(c->v.val.string.val, c->v.val.string.len, t,
											 &PM_VEC_VALUES(v, pm_int128)[i]))
					break;
				else if (c->v.type == jbvString)
					num = DirectFunctionCall3(numeric_in,
											  CStringGetDatum(pnstrdup(c->v.val.string.val,
																	   c->v.val.string.len)),
											  ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
				else
					wrong_kind(c, t, "a number or a string");
				PM_VEC_VALUES(v, pm_int128)[i] = pmfdw_decimal_unscaled(num, t, c->col);
				break;
			}
		case PM_TYPE_DATE:
			{
				char		buf[DATETIME_MAX_LEN + 1];
				DateADT		date;

				date = DatumGetDateADT(DirectFunctionCall1(date_in,
														   CStringGetDatum(short_string(c, t, buf))));
				if (DATE_NOT_FINITE(date))
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
							 errmsg("infinite date cannot be written to Paimon column \"%s\"%s",
									c->col, where(c))));
				PM_VEC_VALUES(v, int32_t)[i] = (int32_t) (date + UNIX_TO_PG_DAYS);
				break;
			}
		case PM_TYPE_TIME:
			{
				char		buf[DATETIME_MAX_LEN + 1];
				Datum		d;

				d = DirectFunctionCall3(time_in, CStringGetDatum(short_string(c, t, buf)),
										ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
				PM_VEC_VALUES(v, int32_t)[i] = (int32_t) (DatumGetTimeADT(d) / 1000);
				break;
			}
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				uint16		ns;

				PM_VEC_VALUES(v, int64_t)[i] = json_timestamp(c, t, &ns);
				if (v->nanos != NULL)
					v->nanos[i] = ns;
				break;
			}
		default:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("writing Paimon type %s in column \"%s\" is not supported",
							pm_type_id_name(t->id), c->col)));
	}
	v->nulls[i] = 0;
	v->length = i + 1;
}

/* A ROW from an object (the current token is WJB_BEGIN_OBJECT). */
static void
put_row(JsonCursor *c, pm_vector_builder *b)
{
	const pm_type *t = b->v->type;
	const char *outer = c->field;
	bool		seen_small[64];
	bool	   *seen = t->nfields <= 64 ? seen_small : palloc(sizeof(bool) * t->nfields);

	memset(seen, 0, sizeof(bool) * t->nfields);
	for (next(c); c->tok == WJB_KEY; next(c))
	{
		const char *key = c->v.val.string.val;
		int			len = c->v.val.string.len;
		int			f = -1;

		for (int k = 0; k < t->nfields; k++)
			if ((int) strlen(t->fields[k].name) == len &&
				memcmp(t->fields[k].name, key, len) == 0)
			{
				f = k;
				break;
			}
		if (f < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("field \"%.*s\" does not exist in the Paimon ROW of column \"%s\"%s",
							len, key, c->col, where(c)),
					 errhint("ROW values are objects keyed by field name.")));
		seen[f] = true;
		next(c);
		c->field = t->fields[f].name;
		put_value(c, &b->children[f]);
		c->field = outer;
	}
	Assert(c->tok == WJB_END_OBJECT);
	for (int k = 0; k < t->nfields; k++)
		if (!seen[k])
		{
			c->field = t->fields[k].name;
			append_null(c, &b->children[k]);
			c->field = outer;
		}
	if (!pm_vector_builder_reserve(b, 1))
		oom();
	b->v->nulls[b->v->length] = 0;
	b->v->length++;
}

/* Close a collection of n elements (keys/values already appended). */
static void
end_collection(pm_vector_builder *b, int64 n)
{
	pm_vector  *v = b->v;
	int64		end;

	if (!pm_vector_builder_reserve(b, 1))
		oom();
	end = (int64) v->offsets[v->length] + n;
	if (end > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many nested elements in one batch")));
	v->offsets[v->length + 1] = (int32_t) end;
	v->nulls[v->length] = 0;
	v->length++;
}

/* A MAP from [[k, v], ...] or {"k": v, ...}. */
static void
put_map(JsonCursor *c, pm_vector_builder *b)
{
	const pm_type *t = b->v->type;
	int64		n = 0;

	if (c->tok == WJB_BEGIN_OBJECT)
	{
		for (next(c); c->tok == WJB_KEY; next(c))
		{
			put_value(c, &b->children[0]);
			next(c);
			put_value(c, &b->children[1]);
			n++;
		}
		end_collection(b, n);
		return;
	}
	for (next(c); c->tok != WJB_END_ARRAY; next(c))
	{
		if (c->tok != WJB_BEGIN_ARRAY)
			wrong_kind(c, t, "[key, value] pairs");
		next(c);
		if (c->tok == WJB_END_ARRAY)
			wrong_kind(c, t, "[key, value] pairs");
		put_value(c, &b->children[0]);
		next(c);
		if (c->tok == WJB_END_ARRAY)
			wrong_kind(c, t, "[key, value] pairs");
		put_value(c, &b->children[1]);
		next(c);
		if (c->tok != WJB_END_ARRAY)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("expected [key, value] pairs for Paimon MAP in column \"%s\"%s, found an array of more than 2 elements",
							c->col, where(c))));
		n++;
	}
	end_collection(b, n);
}

/*
 * The value starting at the current token into b; on return the value's
 * last token is the current one.
 */
static void
put_value(JsonCursor *c, pm_vector_builder *b)
{
	const pm_type *t = b->v->type;

	check_stack_depth();
	if ((c->tok == WJB_ELEM || c->tok == WJB_VALUE || c->tok == WJB_KEY) &&
		c->v.type == jbvNull)
	{
		append_null(c, b);
		return;
	}
	switch (t->id)
	{
		case PM_TYPE_ROW:
			if (c->tok != WJB_BEGIN_OBJECT)
				wrong_kind(c, t, "an object");
			put_row(c, b);
			break;
		case PM_TYPE_MAP:
			if (c->tok != WJB_BEGIN_ARRAY && c->tok != WJB_BEGIN_OBJECT)
				wrong_kind(c, t, "an array of [key, value] pairs");
			put_map(c, b);
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			{
				int64		n = 0;

				if (c->tok != WJB_BEGIN_ARRAY)
					wrong_kind(c, t, "an array");
				for (next(c); c->tok != WJB_END_ARRAY; next(c))
				{
					/* a MULTISET is stored as a map keyed by its elements */
					if (t->id == PM_TYPE_MULTISET && c->tok == WJB_ELEM && c->v.type == jbvNull)
						ereport(ERROR,
								(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
								 errmsg("null element in Paimon MULTISET in column \"%s\"%s",
										c->col, where(c)),
								 errdetail("MULTISET values are written as maps keyed by their elements.")));
					put_value(c, &b->children[0]);
					n++;
				}
				end_collection(b, n);
				break;
			}
		default:
			put_scalar(c, b);
			break;
	}
}

void
pmfdw_json_append(pm_vector_builder *b, Datum jb, const char *col, int64 *bytes)
{
	Jsonb	   *j = DatumGetJsonbP(jb);
	JsonCursor	c;

	memset(&c, 0, sizeof(c));
	c.col = col;
	c.bytes = bytes;
	c.it = JsonbIteratorInit(&j->root);
	next(&c);
	if (c.tok == WJB_BEGIN_ARRAY && c.v.val.array.rawScalar)
		next(&c);				/* a scalar document: its one element */
	put_value(&c, b);
}
