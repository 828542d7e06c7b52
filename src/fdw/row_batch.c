/*-------------------------------------------------------------------------
 * row_batch.c
 *	  Rows that Postgres inserts, turned into column batches for the core
 *	  writer: the reverse of typemap.c.
 *
 * A PmfdwRowBatch holds one vector per field of the Paimon schema (in
 * schema order), `capacity` rows at most; rows are appended one by one
 * from a tuple slot and the batch is handed to pm_table_writer_write when
 * full (capacity rows, or BATCH_BYTES of string and binary values), then
 * reset and reused (its buffers stay allocated). Each row carries its
 * Paimon row kind (+I for INSERT and COPY; -U/+U/-D for UPDATE and DELETE
 * of primary-key tables), handed to the writer beside the batch.
 *
 * Columns are matched to Paimon fields by name, as on the read side; a
 * field without a column (the foreign table leaves it out) gets NULL. Each
 * value is checked against its Paimon type, with Postgres' own SQLSTATEs:
 *	 - integers out of the field's range, DECIMAL(p,s) overflowing p digits
 *	   after rounding to s digits (numeric(p,s) semantics), NaN or infinite
 *	   decimals, a double that overflows FLOAT: 22003;
 *	 - CHAR(n)/VARCHAR(n) longer than n characters, BINARY(n)/VARBINARY(n)
 *	   longer than n bytes: 22001 (values are stored as given, not padded);
 *	 - infinite dates and timestamps: 22008;
 *	 - NULL in a NOT NULL field: 23502.
 * Timestamps are rounded to the field's precision as timestamp(p) rounds
 * (TIMESTAMP(p) with p > 6 keeps microseconds); timestamptz becomes the
 * UTC instant of TIMESTAMP WITH LOCAL TIME ZONE; TIME keeps milliseconds
 * (Paimon stores TIME as milliseconds of the day; finer digits are
 * dropped). A column declared text (or varchar) for a non-string field is
 * parsed with the input function of the field's natural type.
 * ARRAY<scalar> fields take one-dimensional Postgres arrays. Nested fields
 * (ROW, MAP, MULTISET, ARRAY of nested types, and ARRAY<scalar> declared
 * jsonb) take jsonb (or text parsed as jsonb) in typemap.c's encoding:
 * row_batch_json.c appends them to a pm_vector_builder per such field.
 * BLOB and VARIANT fields (and nested types holding them) are refused
 * (0A000).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "common/arena.h"
#include "common/vector_builder.h"
#include "table/table_write.h"

/*
 * A batch holding this many bytes of string and binary values is full
 * whatever its row count: a vector's values must stay below 2 GiB (int32
 * offsets), and one value is at most 1 GiB.
 */
#define BATCH_BYTES ((int64) 64 << 20)

/* How one Paimon field is filled */
typedef struct FieldWriter
{
	const pm_field *field;
	AttrNumber	attnum;			/* column of the foreign table, 0: none (NULL) */
	Oid			pgtype;			/* the column's type */
	bool		parse_text;		/* text column for a non-string field */
	FmgrInfo	input;			/* natural type's input function (parse_text) */
	Oid			input_ioparam;
	Oid			natural;		/* the field's natural Postgres type */
	int32		natural_typmod;
	Oid			elemtype;		/* ARRAY: element type of the column */
	int16		elemlen;
	bool		elembyval;
	char		elemalign;
	int64		data_cap;		/* varlen data capacity (top level) */
	int64		elem_cap;		/* ARRAY: element capacity */
	int64		elem_data_cap;	/* ARRAY of varlen: element data capacity */
	bool		json;			/* value given as jsonb (row_batch_json.c) */
	pm_vector_builder *builder; /* json: builds the field's vector */
} FieldWriter;

struct PmfdwRowBatch
{
	pm_arena   *arena;
	MemoryContext row_cxt;		/* what converting one row allocates */
	const char *table_name;		/* for messages */
	int			capacity;
	int64		bytes;			/* string and binary bytes in the batch */
	int			nfields;
	FieldWriter *fields;
	pm_batch	batch;
	uint8	   *kinds;			/* pm_row_kind of each row */
	bool		all_inserts;	/* every kind is PM_ROW_INSERT */
};

static void
oom(void)
{
	ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
}

static bool
is_text_type(Oid t)
{
	return t == TEXTOID || t == VARCHAROID || t == BPCHAROID;
}

/* typmod of the field's natural Postgres type, for input functions */
static int32
natural_typmod(const pm_type *t)
{
	switch (t->id)
	{
		case PM_TYPE_DECIMAL:
			return ((t->precision << 16) | t->scale) + VARHDRSZ;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return t->precision < 6 ? t->precision : -1;
		default:
			return -1;
	}
}

static bool
writable_scalar(const pm_type *t)
{
	return !pm_type_is_nested(t->id) && t->id != PM_TYPE_VARIANT && t->id != PM_TYPE_BLOB;
}

/* Bind a field to its column (or none) and check the column can feed it. */
static void
bind_field(FieldWriter *fw, const pm_field *field, Relation rel)
{
	TupleDesc	desc = RelationGetDescr(rel);
	const pm_type *t = field->type;

	memset(fw, 0, sizeof(*fw));
	fw->field = field;
	if (!(writable_scalar(t) || pmfdw_json_writable(t)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("writing Paimon type %s (field \"%s\") is not supported yet",
						pm_type_id_name(t->id), field->name)));
	fw->natural = pmfdw_type_oid(t);
	fw->natural_typmod = natural_typmod(t);
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), field->name) == 0)
		{
			fw->attnum = att->attnum;
			fw->pgtype = att->atttypid;
			break;
		}
	}
	if (fw->attnum == 0)
		return;
	if (pm_type_is_nested(t->id) && (fw->pgtype == JSONBOID || fw->natural == JSONBOID))
	{
		/* ROW, MAP, MULTISET, ARRAY<nested>, or ARRAY<scalar> given as jsonb */
		fw->json = true;
		if (fw->pgtype != JSONBOID)
		{
			Oid			infunc;

			if (!is_text_type(fw->pgtype) && fw->pgtype != JSONOID)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("column \"%s\" of type %s cannot be written to Paimon type %s",
								field->name, format_type_be(fw->pgtype),
								pm_type_id_name(t->id)),
						 errhint("Declare the column as jsonb.")));
			fw->parse_text = true;
			fw->natural = JSONBOID;
			getTypeInputInfo(JSONBOID, &infunc, &fw->input_ioparam);
			fmgr_info(infunc, &fw->input);
		}
		return;
	}
	if (fw->pgtype == fw->natural)
		;
	else if (is_text_type(fw->pgtype) && pm_type_is_string(t->id))
		;
	else if ((t->id == PM_TYPE_TINYINT || t->id == PM_TYPE_SMALLINT || t->id == PM_TYPE_INT) &&
			 (fw->pgtype == INT2OID || fw->pgtype == INT4OID || fw->pgtype == INT8OID))
		;
	else if (t->id == PM_TYPE_FLOAT && fw->pgtype == FLOAT8OID)
		;
	else if (is_text_type(fw->pgtype))
	{
		Oid			infunc;

		fw->parse_text = true;
		getTypeInputInfo(fw->natural, &infunc, &fw->input_ioparam);
		fmgr_info(infunc, &fw->input);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of type %s cannot be written to Paimon type %s",
						field->name, format_type_be(fw->pgtype), pm_type_id_name(t->id)),
				 errhint("Declare the column as %s.", pmfdw_type_sql(t))));
	if (t->id == PM_TYPE_ARRAY)
	{
		fw->elemtype = get_element_type(fw->parse_text ? fw->natural : fw->pgtype);
		get_typlenbyvalalign(fw->elemtype, &fw->elemlen, &fw->elembyval, &fw->elemalign);
	}
}

PmfdwRowBatch *
pmfdw_row_batch_create(pm_env *env, const pm_type *row_type, Relation rel, int capacity)
{
	PmfdwRowBatch *b = palloc0(sizeof(PmfdwRowBatch));

	b->arena = pm_arena_create(env);
	if (b->arena == NULL)
		oom();
	b->row_cxt = AllocSetContextCreate(CurrentMemoryContext, "paimon_fdw row conversion",
									   ALLOCSET_DEFAULT_SIZES);
	b->table_name = pstrdup(RelationGetRelationName(rel));
	b->capacity = capacity;
	b->nfields = row_type->nfields;
	b->fields = palloc0(sizeof(FieldWriter) * (b->nfields + 1));
	for (int i = 0; i < b->nfields; i++)
		bind_field(&b->fields[i], &row_type->fields[i], rel);

	/* every column of the foreign table must be a field */
	for (int i = 0; i < RelationGetDescr(rel)->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), i);

		if (!att->attisdropped && pm_type_field_index(row_type, NameStr(att->attname)) < 0)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column \"%s\" of foreign table \"%s\" does not exist in the Paimon table",
							NameStr(att->attname), RelationGetRelationName(rel)),
					 errhint("Foreign table columns are matched to Paimon fields by name.")));
	}

	b->kinds = palloc(capacity);
	b->all_inserts = true;
	b->batch.ncols = b->nfields;
	b->batch.cols = pm_arena_zalloc(b->arena, sizeof(pm_vector) * (b->nfields + 1));
	if (b->batch.cols == NULL)
		oom();
	for (int i = 0; i < b->nfields; i++)
	{
		pm_vector  *v = &b->batch.cols[i];

		if (b->fields[i].json)
		{
			b->fields[i].builder = pm_arena_zalloc(b->arena, sizeof(pm_vector_builder));
			if (b->fields[i].builder == NULL ||
				!pm_vector_builder_init(b->fields[i].builder, v, row_type->fields[i].type,
										capacity, b->arena))
				oom();
			continue;
		}
		if (!pm_vector_init(v, row_type->fields[i].type, capacity, true, b->arena))
			oom();
		if (v->type->id == PM_TYPE_ARRAY && !pm_vector_ensure_nulls(&v->children[0], 1, b->arena))
			oom();
	}
	return b;
}

int64
pmfdw_row_batch_rows(const PmfdwRowBatch *b)
{
	return b->batch.nrows;
}

bool
pmfdw_row_batch_full(const PmfdwRowBatch *b)
{
	return b->batch.nrows >= b->capacity || b->bytes >= BATCH_BYTES;
}

const pm_batch *
pmfdw_row_batch_get(PmfdwRowBatch *b)
{
	for (int i = 0; i < b->nfields; i++)
		b->batch.cols[i].length = b->batch.nrows;
	return &b->batch;
}

void
pmfdw_row_batch_reset(PmfdwRowBatch *b)
{
	for (int i = 0; i < b->nfields; i++)
	{
		pm_vector  *v = &b->batch.cols[i];

		if (b->fields[i].json)
		{
			pm_vector_builder_reset(b->fields[i].builder);
			continue;
		}
		v->length = 0;
		v->data_size = 0;
		if (v->offsets != NULL)
			v->offsets[0] = 0;
		if (v->type->id == PM_TYPE_ARRAY)
		{
			v->children[0].length = 0;
			v->children[0].data_size = 0;
			if (v->children[0].offsets != NULL)
				v->children[0].offsets[0] = 0;
		}
	}
	b->batch.nrows = 0;
	b->bytes = 0;
	b->all_inserts = true;
}

const uint8 *
pmfdw_row_batch_kinds(const PmfdwRowBatch *b)
{
	return b->all_inserts ? NULL : b->kinds;
}

AttrNumber
pmfdw_row_batch_column(const PmfdwRowBatch *b, const char *field_name)
{
	for (int f = 0; f < b->nfields; f++)
		if (strcmp(b->fields[f].field->name, field_name) == 0)
			return b->fields[f].attnum;
	return InvalidAttrNumber;
}

/* ---- one value ---- */

static void
out_of_range(const FieldWriter *fw, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("%s out of range for Paimon %s column \"%s\"", what,
					pm_type_id_name(fw->field->type->id), fw->field->name)));
}

int64
pmfdw_datum_int64(Datum d, Oid pgtype)
{
	switch (pgtype)
	{
		case INT2OID:
			return DatumGetInt16(d);
		case INT4OID:
			return DatumGetInt32(d);
		default:
			return DatumGetInt64(d);
	}
}

/*
 * The fast path of numeric_unscaled: the unscaled value of a finite numeric
 * rounded to `scale` digits (half away from zero, as numeric(p,s) rounds),
 * read from Postgres' numeric format in place (no copy, no text). False when
 * the rounded value has more than `precision` digits, or the numeric is NaN
 * or infinite: the caller's slow path then raises Postgres' own error.
 *
 * The format (src/backend/utils/adt/numeric.c): a uint16 header, then, in
 * the long form only, an int16 weight, then base-10000 digits (int16), most
 * significant first; the value is sum(digit[i] * 10000^(weight - i)).
 * inexact (if not NULL) tells whether nonzero digits past the scale were
 * rounded away.
 * Header 0xC000 set: NaN or an infinity. 0x8000 set (short form): sign
 * 0x2000, weight in the low 7 bits (0x0040 its sign). Long form: sign 0x4000.
 */
/* 10^k for k in 0..38 (DECIMAL precision is at most 38), filled at first use */
static unsigned __int128 pow10_u128[39];

static inline unsigned __int128
pow10_of(int k)
{
	if (pow10_u128[0] == 0)
	{
		pow10_u128[0] = 1;
		for (int i = 1; i < 39; i++)
			pow10_u128[i] = pow10_u128[i - 1] * 10;
	}
	return pow10_u128[k];
}

bool
pmfdw_numeric_unscaled_fast(Datum d, int precision, int scale, pm_int128 *out, bool *inexact)
{
	static const int pow10_small[5] = {1, 10, 100, 1000, 10000};
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	const char *p;
	int			len;
	uint16		header;
	int			weight;
	bool		neg;
	unsigned __int128 acc = 0;
	unsigned __int128 limit;
	bool		round_up = false;

	if (inexact != NULL)
		*inexact = false;
	if (VARATT_IS_EXTENDED(v) && !VARATT_IS_SHORT(v))
		return false;			/* compressed or external: the slow path detoasts */
	p = VARDATA_ANY(v);
	len = VARSIZE_ANY_EXHDR(v);
	if (len < 2)
		return false;
	memcpy(&header, p, 2);
	if ((header & 0xC000) == 0xC000)
		return false;			/* NaN, +-Infinity */
	if (header & 0x8000)
	{
		neg = (header & 0x2000) != 0;
		weight = (header & 0x0040 ? ~0x003F : 0) | (header & 0x003F);
		p += 2;
		len -= 2;
	}
	else
	{
		int16		w;

		if (len < 4)
			return false;
		neg = (header & 0xC000) == 0x4000;
		memcpy(&w, p + 2, 2);
		weight = w;
		p += 4;
		len -= 4;
	}
	if (precision < 1 || precision > 38)
		return false;
	limit = pow10_of(precision);
	for (int i = 0; i < len / 2; i++)
	{
		int16		digit;
		int			e = 4 * (weight - i) + scale;	/* the digit's power of ten, unscaled */

		memcpy(&digit, p + 2 * i, 2);
		if (digit < 0 || digit >= 10000)
			return false;
		if (e >= 0)
		{
			unsigned __int128 term = (unsigned __int128) digit;

			if (digit == 0)
				continue;
			if (e >= precision)
				return false;	/* at least 10^precision */
			term *= pow10_of(e);	/* < 10^precision: no overflow */
			acc += term;
			if (acc >= limit)
				return false;
		}
		else
		{
			/* the first digit past the scale decides the rounding */
			if (e > -4)
			{
				acc += digit / pow10_small[-e];
				round_up = digit / pow10_small[-e - 1] % 10 >= 5;
				if (inexact != NULL && digit % pow10_small[-e] != 0)
					*inexact = true;
			}
			else
			{
				if (e == -4)
					round_up = digit / 1000 >= 5;
				if (inexact != NULL && digit != 0)
					*inexact = true;
			}
			if (inexact != NULL)
				for (int j = i + 1; j < len / 2; j++)
				{
					memcpy(&digit, p + 2 * j, 2);
					if (digit != 0)
						*inexact = true;
				}
			break;
		}
	}
	if (round_up)
		acc++;
	if (acc >= limit)
		return false;
	*out = neg ? -(pm_int128) acc : (pm_int128) acc;
	return true;
}

/* A numeric rounded to DECIMAL(p,s) as its unscaled value (22003 when it does not fit). */
pm_int128
pmfdw_decimal_unscaled(Datum d, const pm_type *t, const char *col)
{
	Numeric		num;
	char	   *text;
	pm_int128	v = 0;
	bool		neg = false;
	bool		in_frac = false;
	int			frac = 0;

	if (pmfdw_numeric_unscaled_fast(d, t->precision, t->scale, &v, NULL))
		return v;
	num = DatumGetNumeric(d);
	if (numeric_is_nan(num) || numeric_is_inf(num))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s cannot be written to Paimon DECIMAL column \"%s\"",
						numeric_is_nan(num) ? "NaN" : "infinity", col)));
	/* numeric(p,s) semantics: round to s digits, then at most p - s integer digits */
	num = DatumGetNumeric(DirectFunctionCall2(numeric, NumericGetDatum(num),
											  Int32GetDatum(natural_typmod(t))));
	text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
	/* at most 38 digits: the unscaled value fits in 128 bits */
	for (const char *p = text; *p; p++)
	{
		if (*p == '-')
			neg = true;
		else if (*p == '.')
			in_frac = true;
		else
		{
			v = v * 10 + (*p - '0');
			frac += in_frac ? 1 : 0;
		}
	}
	for (; frac < t->scale; frac++)
		v *= 10;
	pfree(text);
	return neg ? -v : v;
}

int64
pmfdw_timestamp_micros(int64 ts, const pm_type *t, const char *col)
{
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite timestamp cannot be written to Paimon column \"%s\"",
						col)));
	if (t->precision < 6)
		AdjustTimestampForTypmod(&ts, t->precision);
	return ts + UNIX_TO_PG_MICROS;
}

/* Check a string or binary value's length against CHAR(n)/VARCHAR(n)/(VAR)BINARY(n). */
void
pmfdw_check_length(const pm_type *t, const char *data, int len, const char *col)
{
	int64		n;

	if (t->length <= 0 || t->length >= PM_MAX_VARCHAR_LENGTH)
		return;
	if (len <= t->length)
		return;					/* fewer bytes than the limit: fewer characters too */
	n = pm_type_is_string(t->id) ? pg_mbstrlen_with_len(data, len) : len;
	if (n > t->length)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
				 errmsg("value too long for Paimon %s(%d) column \"%s\"",
						pm_type_id_name(t->id), t->length, col)));
}

/*
 * Store value d (of Postgres type pgtype) at index i of vector v of
 * Paimon type t. data_cap: v's varlen data capacity.
 */
static void
put_scalar(PmfdwRowBatch *b, const FieldWriter *fw, pm_vector *v, int64 i, Datum d,
		   Oid pgtype, int64 *data_cap)
{
	const pm_type *t = v->type;

	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			PM_VEC_VALUES(v, uint8_t)[i] = DatumGetBool(d) ? 1 : 0;
			break;
		case PM_TYPE_TINYINT:
			{
				int64		x = pmfdw_datum_int64(d, pgtype);

				if (x < INT8_MIN || x > INT8_MAX)
					out_of_range(fw, "value");
				PM_VEC_VALUES(v, int8_t)[i] = (int8_t) x;
				break;
			}
		case PM_TYPE_SMALLINT:
			{
				int64		x = pmfdw_datum_int64(d, pgtype);

				if (x < PG_INT16_MIN || x > PG_INT16_MAX)
					out_of_range(fw, "value");
				PM_VEC_VALUES(v, int16_t)[i] = (int16_t) x;
				break;
			}
		case PM_TYPE_INT:
			{
				int64		x = pmfdw_datum_int64(d, pgtype);

				if (x < PG_INT32_MIN || x > PG_INT32_MAX)
					out_of_range(fw, "value");
				PM_VEC_VALUES(v, int32_t)[i] = (int32_t) x;
				break;
			}
		case PM_TYPE_BIGINT:
			PM_VEC_VALUES(v, int64_t)[i] = pmfdw_datum_int64(d, pgtype);
			break;
		case PM_TYPE_FLOAT:
			if (pgtype == FLOAT8OID)
			{
				double		x = DatumGetFloat8(d);
				float		f = (float) x;

				if (isinf(f) && !isinf(x))
					out_of_range(fw, "value");
				PM_VEC_VALUES(v, float)[i] = f;
			}
			else
				PM_VEC_VALUES(v, float)[i] = DatumGetFloat4(d);
			break;
		case PM_TYPE_DOUBLE:
			PM_VEC_VALUES(v, double)[i] = DatumGetFloat8(d);
			break;
		case PM_TYPE_DECIMAL:
			PM_VEC_VALUES(v, pm_int128)[i] = pmfdw_decimal_unscaled(d, t, fw->field->name);
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				struct varlena *s = (struct varlena *) DatumGetPointer(d);
				const char *data;
				int			len;

				if (VARATT_IS_EXTENDED(s) && !VARATT_IS_SHORT(s))
					s = PG_DETOAST_DATUM_PACKED(d);	/* compressed or external */
				data = VARDATA_ANY(s);
				len = VARSIZE_ANY_EXHDR(s);
				pmfdw_check_length(t, data, len, fw->field->name);
				if (v->data != NULL && v->data_size + len <= *data_cap)
				{
					memcpy(v->data + v->data_size, data, len);
					v->data_size += len;
				}
				else if (!pm_vector_append_data(v, data_cap, data, len, b->arena))
					oom();
				b->bytes += len;
				v->offsets[i + 1] = (int32_t) v->data_size;
				break;
			}
		case PM_TYPE_DATE:
			{
				DateADT		date = DatumGetDateADT(d);

				if (DATE_NOT_FINITE(date))
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
							 errmsg("infinite date cannot be written to Paimon column \"%s\"",
									fw->field->name)));
				PM_VEC_VALUES(v, int32_t)[i] = (int32_t) (date + UNIX_TO_PG_DAYS);
				break;
			}
		case PM_TYPE_TIME:
			PM_VEC_VALUES(v, int32_t)[i] = (int32_t) (DatumGetTimeADT(d) / 1000);
			break;
		case PM_TYPE_TIMESTAMP:
			PM_VEC_VALUES(v, int64_t)[i] = pmfdw_timestamp_micros(DatumGetTimestamp(d), t,
																	fw->field->name);
			break;
		case PM_TYPE_TIMESTAMP_LTZ:
			PM_VEC_VALUES(v, int64_t)[i] = pmfdw_timestamp_micros(DatumGetTimestampTz(d), t,
																	fw->field->name);
			break;
		default:
			elog(ERROR, "paimon_fdw: unexpected type %s", pm_type_id_name(t->id));
	}
}

/* Mark index i of v NULL (varlen: an empty slot). */
static void
put_null(pm_vector *v, int64 i)
{
	v->nulls[i] = 1;
	if (v->offsets != NULL)
		v->offsets[i + 1] = v->offsets[i];
}

/* A one-dimensional array into the ARRAY vector v at row i. */
static void
put_array(PmfdwRowBatch *b, FieldWriter *fw, pm_vector *v, int64 i, Datum d)
{
	ArrayType  *arr = DatumGetArrayTypeP(d);
	pm_vector  *elems = &v->children[0];
	Datum	   *values;
	bool	   *nulls;
	int			n;
	int64		base = elems->length;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("only one-dimensional arrays can be written to Paimon ARRAY column \"%s\"",
						fw->field->name)));
	deconstruct_array(arr, fw->elemtype, fw->elemlen, fw->elembyval, fw->elemalign,
					  &values, &nulls, &n);
	if (base + n > fw->elem_cap)
	{
		int64		cap = Max(fw->elem_cap * 2, base + n);

		cap = Max(cap, 64);
		if (!pm_vector_reserve(elems, base, cap, b->arena))
			oom();
		fw->elem_cap = cap;
	}
	for (int k = 0; k < n; k++)
	{
		if (nulls[k])
		{
			if (!elems->type->nullable)
				ereport(ERROR,
						(errcode(ERRCODE_NOT_NULL_VIOLATION),
						 errmsg("null element in Paimon column \"%s\" whose elements are NOT NULL",
								fw->field->name)));
			put_null(elems, base + k);
		}
		else
		{
			elems->nulls[base + k] = 0;
			put_scalar(b, fw, elems, base + k, values[k], fw->elemtype, &fw->elem_data_cap);
		}
		elems->length = base + k + 1;
	}
	v->offsets[i + 1] = (int32_t) (base + n);
	pfree(values);
	pfree(nulls);
}

/* Error context: the field being converted. */
typedef struct ConvertContext
{
	PmfdwRowBatch *b;
	int			field;
} ConvertContext;

static void
convert_error_context(void *arg)
{
	ConvertContext *c = arg;

	if (c->field >= 0)
		errcontext("writing column \"%s\" of foreign table \"%s\" (Paimon type %s)",
				   c->b->fields[c->field].field->name, c->b->table_name,
				   pm_type_id_name(c->b->fields[c->field].field->type->id));
}

void
pmfdw_row_batch_add(PmfdwRowBatch *b, TupleTableSlot *slot, uint8 kind)
{
	int64		i = b->batch.nrows;
	ConvertContext cc = {b, -1};
	ErrorContextCallback callback;
	MemoryContext old;

	Assert(i < b->capacity);
	slot_getallattrs(slot);
	old = MemoryContextSwitchTo(b->row_cxt);
	callback.callback = convert_error_context;
	callback.arg = &cc;
	callback.previous = error_context_stack;
	error_context_stack = &callback;
	for (int f = 0; f < b->nfields; f++)
	{
		FieldWriter *fw = &b->fields[f];
		pm_vector  *v = &b->batch.cols[f];
		bool		isnull = true;
		Datum		d = (Datum) 0;
		Oid			pgtype = fw->pgtype;

		cc.field = f;

		if (fw->attnum > 0)
		{
			d = slot->tts_values[fw->attnum - 1];
			isnull = slot->tts_isnull[fw->attnum - 1];
		}
		if (isnull)
		{
			if (!fw->field->type->nullable)
				ereport(ERROR,
						(errcode(ERRCODE_NOT_NULL_VIOLATION),
						 errmsg("null value in column \"%s\" of Paimon table \"%s\" violates not-null constraint",
								fw->field->name, b->table_name)));
			if (fw->json)
			{
				if (!pm_vector_builder_append_null(fw->builder))
					oom();
			}
			else
				put_null(v, i);
			continue;
		}
		if (fw->parse_text)
		{
			char	   *s = TextDatumGetCString(d);

			d = InputFunctionCall(&fw->input, s, fw->input_ioparam,
								  fw->json ? -1 : fw->natural_typmod);
			pgtype = fw->natural;
		}
		if (fw->json)
		{
			Assert(v->length == i);
			pmfdw_json_append(fw->builder, d, fw->field->name, &b->bytes);
			continue;
		}
		v->nulls[i] = 0;
		if (v->type->id == PM_TYPE_ARRAY)
			put_array(b, fw, v, i, d);
		else
			put_scalar(b, fw, v, i, d, pgtype, &fw->data_cap);
	}
	error_context_stack = callback.previous;
	MemoryContextSwitchTo(old);
	MemoryContextReset(b->row_cxt);
	b->kinds[i] = kind;
	if (kind != PM_ROW_INSERT)
		b->all_inserts = false;
	b->batch.nrows = i + 1;
}
