/*-------------------------------------------------------------------------
 * parquet_schema.c
 *	  Parquet schema tree -> Paimon ROW type (see parquet_schema.h).
 *
 * Inverse of Paimon's format/parquet/ParquetSchemaConverter.java: INT32
 * with INT(8)/INT(16) -> TINYINT/SMALLINT, DATE, TIME, DECIMAL; INT64 with
 * TIMESTAMP(MILLIS/MICROS/NANOS) -> TIMESTAMP(3/6/9) (_LTZ when adjusted to
 * UTC); INT96 -> TIMESTAMP(9); BYTE_ARRAY with STRING -> STRING, else
 * BYTES; LIST -> ARRAY; MAP -> MAP; other groups -> ROW.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_schema.h"

#include <string.h>

static const pm_type *convert(const pm_pq_node *n, pm_arena *arena, int *next_id,
							  const char **why);

static const pm_type *
convert_primitive(const pm_pq_node *n, pm_arena *arena, bool nullable)
{
	pm_type    *t = NULL;
	int32_t		scale = n->logical == PM_PQ_LT_DECIMAL ? n->lt_scale : n->scale;
	int32_t		prec = n->logical == PM_PQ_LT_DECIMAL ? n->lt_precision : n->precision;
	bool		is_dec = n->logical == PM_PQ_LT_DECIMAL || n->converted == PM_PQ_CT_DECIMAL;

	if (is_dec)
	{
		if (prec <= 0 || prec > 38 || scale < 0 || scale > prec)
			prec = 38, scale = scale >= 0 && scale <= 38 ? scale : 0;
		return pm_type_new_decimal(arena, prec, scale, nullable);
	}
	switch (n->physical)
	{
		case PM_PQ_BOOLEAN:
			return pm_type_new(arena, PM_TYPE_BOOLEAN, nullable);
		case PM_PQ_INT32:
			if (n->converted == PM_PQ_CT_INT_8 ||
				(n->logical == PM_PQ_LT_INTEGER && n->lt_bit_width == 8))
				return pm_type_new(arena, PM_TYPE_TINYINT, nullable);
			if (n->converted == PM_PQ_CT_INT_16 ||
				(n->logical == PM_PQ_LT_INTEGER && n->lt_bit_width == 16))
				return pm_type_new(arena, PM_TYPE_SMALLINT, nullable);
			if (n->converted == PM_PQ_CT_DATE || n->logical == PM_PQ_LT_DATE)
				return pm_type_new(arena, PM_TYPE_DATE, nullable);
			if (n->converted == PM_PQ_CT_TIME_MILLIS || n->logical == PM_PQ_LT_TIME)
			{
				t = pm_type_new(arena, PM_TYPE_TIME, nullable);
				if (t)
					t->precision = 3;
				return t;
			}
			return pm_type_new(arena, PM_TYPE_INT, nullable);
		case PM_PQ_INT64:
			if (n->logical == PM_PQ_LT_TIMESTAMP || n->converted == PM_PQ_CT_TIMESTAMP_MILLIS ||
				n->converted == PM_PQ_CT_TIMESTAMP_MICROS)
			{
				int			unit = n->logical == PM_PQ_LT_TIMESTAMP ? n->lt_unit :
					n->converted == PM_PQ_CT_TIMESTAMP_MILLIS ? PM_PQ_UNIT_MILLIS : PM_PQ_UNIT_MICROS;
				bool		ltz = n->logical == PM_PQ_LT_TIMESTAMP && n->lt_utc;

				t = pm_type_new(arena, ltz ? PM_TYPE_TIMESTAMP_LTZ : PM_TYPE_TIMESTAMP, nullable);
				if (t)
					t->precision = unit == PM_PQ_UNIT_MILLIS ? 3 : unit == PM_PQ_UNIT_NANOS ? 9 : 6;
				return t;
			}
			if (n->logical == PM_PQ_LT_TIME || n->converted == PM_PQ_CT_TIME_MICROS)
			{
				t = pm_type_new(arena, PM_TYPE_TIME, nullable);
				if (t)
					t->precision = 6;
				return t;
			}
			return pm_type_new(arena, PM_TYPE_BIGINT, nullable);
		case PM_PQ_INT96:
			t = pm_type_new(arena, PM_TYPE_TIMESTAMP, nullable);
			if (t)
				t->precision = 9;
			return t;
		case PM_PQ_FLOAT:
			return pm_type_new(arena, PM_TYPE_FLOAT, nullable);
		case PM_PQ_DOUBLE:
			return pm_type_new(arena, PM_TYPE_DOUBLE, nullable);
		case PM_PQ_BYTE_ARRAY:
			if (n->converted == PM_PQ_CT_UTF8 || n->logical == PM_PQ_LT_STRING ||
				n->converted == PM_PQ_CT_ENUM || n->converted == PM_PQ_CT_JSON)
				return pm_type_new(arena, PM_TYPE_VARCHAR, nullable);
			return pm_type_new(arena, PM_TYPE_VARBINARY, nullable);
		case PM_PQ_FIXED_LEN_BYTE_ARRAY:
			t = pm_type_new(arena, PM_TYPE_BINARY, nullable);
			if (t)
				t->length = n->type_length;
			return t;
		default:
			return NULL;
	}
}

static const pm_type *
convert_group(const pm_pq_node *n, pm_arena *arena, int *next_id, const char **why)
{
	pm_field   *fields;
	bool		nullable = n->repetition == PM_PQ_OPTIONAL;

	if (n->converted == PM_PQ_CT_LIST || n->logical == PM_PQ_LT_LIST)
	{
		const pm_pq_node *r;
		const pm_type *e;

		if (n->nchildren != 1 || n->children[0]->repetition != PM_PQ_REPEATED)
		{
			*why = "bad list";
			return NULL;
		}
		r = n->children[0];
		if (r->leaf_index < 0 && r->nchildren == 1 && strcmp(r->name, "array") != 0)
			e = convert(r->children[0], arena, next_id, why);
		else if (r->leaf_index >= 0)
			e = convert_primitive(r, arena, false);
		else
		{
			*why = "legacy nested list";
			return NULL;
		}
		return e ? pm_type_new_array(arena, e, nullable) : NULL;
	}
	if (n->converted == PM_PQ_CT_MAP || n->converted == PM_PQ_CT_MAP_KEY_VALUE ||
		n->logical == PM_PQ_LT_MAP)
	{
		const pm_pq_node *kv;
		const pm_type *k;
		const pm_type *v;

		if (n->nchildren != 1 || n->children[0]->nchildren != 2 ||
			n->children[0]->repetition != PM_PQ_REPEATED)
		{
			*why = "bad map";
			return NULL;
		}
		kv = n->children[0];
		k = convert(kv->children[0], arena, next_id, why);
		v = convert(kv->children[1], arena, next_id, why);
		return k && v ? pm_type_new_map(arena, k, v, nullable) : NULL;
	}
	fields = pm_arena_zalloc(arena, sizeof(pm_field) * (size_t) (n->nchildren + 1));
	if (fields == NULL)
		return NULL;
	for (int i = 0; i < n->nchildren; i++)
	{
		const pm_pq_node *c = n->children[i];

		fields[i].name = c->name;
		fields[i].id = c->has_field_id ? c->field_id : (*next_id)++;
		fields[i].type = convert(c, arena, next_id, why);
		if (fields[i].type == NULL)
			return NULL;
	}
	return pm_type_new_row(arena, fields, n->nchildren, nullable);
}

static const pm_type *
convert(const pm_pq_node *n, pm_arena *arena, int *next_id, const char **why)
{
	if (n->repetition == PM_PQ_REPEATED)
	{
		*why = "repeated field outside a list or map";
		return NULL;
	}
	if (n->leaf_index >= 0)
		return convert_primitive(n, arena, n->repetition == PM_PQ_OPTIONAL);
	return convert_group(n, arena, next_id, why);
}

pm_code
pm_pq_schema_to_type(const pm_pq_metadata *md, pm_arena *arena, const pm_type **out,
					 pm_error *err)
{
	int			next_id = 0;
	const char *why = NULL;
	const pm_type *t;

	*out = NULL;
	t = convert_group(md->root, arena, &next_id, &why);
	if (t == NULL)
	{
		if (why == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory converting a parquet schema");
		return pm_fail(err, PM_ERR_UNSUPPORTED, "parquet schema not convertible: %s", why);
	}
	*out = t;
	return PM_OK;
}

pm_code
pm_pq_metadata_from_file_bytes(const uint8_t *buf, size_t len, pm_arena *arena,
							   pm_pq_metadata *md, pm_error *err)
{
	uint32_t	flen;

	if (len < 12 || memcmp(buf + len - 4, "PAR1", 4) != 0 || memcmp(buf, "PAR1", 4) != 0)
		return pm_fail(err, PM_ERR_CORRUPT, "bad parquet magic");
	flen = (uint32_t) buf[len - 8] | ((uint32_t) buf[len - 7] << 8) |
		((uint32_t) buf[len - 6] << 16) | ((uint32_t) buf[len - 5] << 24);
	if ((uint64_t) flen > len - 12)
		return pm_fail(err, PM_ERR_CORRUPT, "bad parquet footer length %u", flen);
	return pm_pq_metadata_parse(buf + len - 8 - flen, flen, len - 8 - flen, arena, md, err);
}
