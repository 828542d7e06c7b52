/*-------------------------------------------------------------------------
 * orc_column_write.c
 *	  The ORC writer's columns: OrcTypeUtil.convertToOrcType and each tree
 *	  writer's streams and encoders (orc_col_init), and the encoding of
 *	  values into the stripe's uncompressed stream buffers, row group /
 *	  stripe / file stats and BloomFilterUtf8 (orc_col_write): timestamps
 *	  as TimestampTreeWriter (seconds since 2015-01-01 UTC, nanos with
 *	  trailing-zero compression), decimals as DecimalTreeWriter on
 *	  HiveDecimal, CHAR padded and CHAR/VARCHAR cut as Char/VarcharTreeWriter.
 *	  Stripe, index and file assembly: orc_writer.c.
 *
 * Must not include Postgres headers. Spec: orc.apache.org/specification/
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_writer_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

void
orc_col_free(const pm_env *env, orc_col *c)
{
	pm_byte_buffer_free(&c->present);
	pm_byte_buffer_free(&c->data);
	pm_byte_buffer_free(&c->length);
	pm_byte_buffer_free(&c->secondary);
	pm_byte_buffer_free(&c->fit);
	pm_byte_buffer_free(&c->groups);
	pm_byte_buffer_free(&c->group_stats);
	orc_acc_free(&c->group_acc);
	pm_free(env, c->ienc);
	pm_free(env, c->lenc);
	pm_free(env, c->senc);
	pm_free(env, c->dict_enc);
	orc_dict_free(&c->dict);
	pm_byte_buffer_free(&c->dict_data);
	pm_byte_buffer_free(&c->blooms);
	pm_free(env, c->bf.words);
	orc_acc_free(&c->stripe_acc);
	orc_acc_free(&c->file_acc);
}

bool
orc_col_buffers_failed(const orc_col *c)
{
	return c->present.failed || c->data.failed || c->length.failed || c->secondary.failed ||
		c->fit.failed || c->groups.failed || c->group_stats.failed ||
		c->dict.failed || c->dict_data.failed || c->blooms.failed ||
		c->group_acc.vals.min_bytes.failed || c->group_acc.vals.max_bytes.failed ||
		c->stripe_acc.vals.min_bytes.failed || c->stripe_acc.vals.max_bytes.failed ||
		c->file_acc.vals.min_bytes.failed || c->file_acc.vals.max_bytes.failed;
}

/* ---------------------------------------------------------------------
 * Column setup: OrcTypeUtil.convertToOrcType and the tree writers' streams
 * --------------------------------------------------------------------- */

static orc_int_rle_enc *
new_int_enc(const pm_env *env, pm_byte_buffer *out, bool is_signed)
{
	orc_int_rle_enc *e = pm_alloc(env, sizeof(orc_int_rle_enc));

	if (e != NULL)
		orc_int_rle_enc_init(e, out, is_signed);
	return e;
}

/*
 * OrcUtils.includeColumns for a flat schema: whether column `col` of
 * `schema` is named by `list`. "*" names every column; otherwise each
 * comma-separated name, trimmed, is matched up to its first '.' (findColumn
 * walks into structs only) against the field names ignoring case
 * (equalsIgnoreCase; ASCII here), and names the first field it matches.
 * Unknown names are ignored, as ORC does.
 */
bool
orc_field_listed(const char *list, const pm_type *schema, int col)
{
	if (list == NULL)
		return false;
	if (strcmp(list, "*") == 0)
		return true;
	for (const char *p = list;;)
	{
		const char *end = strchr(p, ',');
		const char *e = end != NULL ? end : p + strlen(p);
		const char *dot;

		while (p < e && (unsigned char) *p <= ' ')
			p++;
		while (e > p && (unsigned char) e[-1] <= ' ')
			e--;
		dot = memchr(p, '.', (size_t) (e - p));
		if (dot != NULL)
			e = dot;
		for (int k = 0; e > p && k < schema->nfields; k++)
		{
			const char *name = schema->fields[k].name;

			if (strlen(name) == (size_t) (e - p) && strncasecmp(p, name, (size_t) (e - p)) == 0)
			{
				if (k == col)
					return true;
				break;			/* the first match is the one */
			}
		}
		if (end == NULL)
			return false;
		p = end + 1;
	}
}

/* PM_OK, PM_ERR_UNSUPPORTED for types not written, PM_ERR_NOMEM */
pm_code
orc_col_init(orc_writer *w, orc_col *c, const pm_type *type, bool direct, bool bloom,
			 pm_error *err)
{
	const pm_env *env = w->env;
	bool		ok = true;

	c->type = type;
	pm_byte_buffer_init(&c->present, env);
	pm_byte_buffer_init(&c->data, env);
	pm_byte_buffer_init(&c->length, env);
	pm_byte_buffer_init(&c->secondary, env);
	pm_byte_buffer_init(&c->fit, env);
	pm_byte_buffer_init(&c->groups, env);
	pm_byte_buffer_init(&c->group_stats, env);
	pm_byte_buffer_init(&c->dict_data, env);
	pm_byte_buffer_init(&c->blooms, env);
	orc_dict_init(&c->dict, env);
	orc_acc_init(&c->group_acc, type, env);
	orc_acc_init(&c->stripe_acc, type, env);
	orc_acc_init(&c->file_acc, type, env);
	orc_bool_enc_init(&c->present_enc, &c->present);
	c->encoding = ORC_E_DIRECT_V2;
	switch (type->id)
	{
		case PM_TYPE_ROW:
			c->kind = ORC_STRUCT;
			c->encoding = ORC_E_DIRECT;
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
		case PM_TYPE_MULTISET:
			/*
			 * ListTreeWriter / MapTreeWriter: PRESENT and LENGTH, DIRECT_V2
			 * (a MULTISET is the map refineDataType makes of it)
			 */
			c->kind = type->id == PM_TYPE_ARRAY ? ORC_LIST : ORC_MAP;
			c->has_length = true;
			ok = (c->lenc = new_int_enc(env, &c->length, false)) != NULL;
			break;
		case PM_TYPE_BOOLEAN:
			c->kind = ORC_BOOLEAN;
			c->encoding = ORC_E_DIRECT;
			orc_bool_enc_init(&c->bool_enc, &c->data);
			break;
		case PM_TYPE_TINYINT:
			c->kind = ORC_BYTE;
			c->encoding = ORC_E_DIRECT;
			orc_byte_rle_enc_init(&c->byte_enc, &c->data);
			break;
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
			c->kind = type->id == PM_TYPE_SMALLINT ? ORC_SHORT :
				type->id == PM_TYPE_BIGINT ? ORC_LONG :
				type->id == PM_TYPE_DATE ? ORC_DATE : ORC_INT;
			ok = (c->ienc = new_int_enc(env, &c->data, true)) != NULL;
			break;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			c->kind = type->id == PM_TYPE_FLOAT ? ORC_FLOAT : ORC_DOUBLE;
			c->encoding = ORC_E_DIRECT;
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			c->kind = type->id == PM_TYPE_CHAR ? ORC_CHAR :
				type->id == PM_TYPE_VARCHAR ?
				(type->length == PM_MAX_VARCHAR_LENGTH ? ORC_STRING : ORC_VARCHAR) :
				ORC_BINARY;
			c->has_length = true;
			ok = (c->lenc = new_int_enc(env, &c->length, false)) != NULL;
			/*
			 * StringBaseTreeWriter (STRING, CHAR, VARCHAR; BINARY is always
			 * direct): no dictionary with a threshold <= 0, which
			 * orc.column.encoding.direct sets for its columns
			 */
			if (c->kind != ORC_BINARY && w->dict_threshold > 0.0 && !direct)
			{
				c->dict_state = DICT_UNDECIDED;
				ok = ok && (c->dict_enc = new_int_enc(env, &c->data, false)) != NULL;
			}
			break;
		case PM_TYPE_DECIMAL:
			c->kind = ORC_DECIMAL;
			c->has_secondary = true;
			ok = (c->senc = new_int_enc(env, &c->secondary, true)) != NULL;
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			c->kind = type->id == PM_TYPE_TIMESTAMP ? ORC_TIMESTAMP : ORC_TIMESTAMP_INSTANT;
			c->has_secondary = true;
			w->has_timestamp = true;
			ok = (c->ienc = new_int_enc(env, &c->data, true)) != NULL &&
				(c->senc = new_int_enc(env, &c->secondary, false)) != NULL;
			break;
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "column \"%s\" of type %s cannot be written to ORC files",
						   c->name != NULL ? c->name : "(element)", pm_type_id_name(type->id));
	}
	if (ok && bloom)
	{
		c->bloom = true;
		c->bf.nbits = w->bloom_nbits;
		c->bf.nhash = w->bloom_nhash;
		c->bf.words = pm_alloc(env, sizeof(uint64_t) * (size_t) (w->bloom_nbits / 64));
		if ((ok = c->bf.words != NULL))
			memset(c->bf.words, 0, sizeof(uint64_t) * (size_t) (w->bloom_nbits / 64));
	}
	if (!ok)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an ORC writer");
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Values
 * --------------------------------------------------------------------- */

/* TimestampTreeWriter.formatNanos */
static uint64_t
format_nanos(int64_t nanos)
{
	int			zeros = 1;

	if (nanos == 0)
		return 0;
	if (nanos % 100 != 0)
		return (uint64_t) nanos << 3;
	nanos /= 100;
	while (nanos % 10 == 0 && zeros < 7)
	{
		nanos /= 10;
		zeros++;
	}
	return ((uint64_t) nanos << 3) | (uint64_t) zeros;
}

/* Encode value i of v (not null) into the column's streams. */
static void
encode_value(orc_col *c, const pm_vector *v, int64_t i)
{
	switch (c->type->id)
	{
		case PM_TYPE_BOOLEAN:
			orc_bool_enc_put(&c->bool_enc, PM_VEC_VALUES(v, uint8_t)[i] != 0);
			break;
		case PM_TYPE_TINYINT:
			orc_byte_rle_enc_put(&c->byte_enc, (uint8_t) PM_VEC_VALUES(v, int8_t)[i]);
			break;
		case PM_TYPE_SMALLINT:
			orc_int_rle_enc_put(c->ienc, PM_VEC_VALUES(v, int16_t)[i]);
			break;
		case PM_TYPE_INT:
		case PM_TYPE_TIME:
		case PM_TYPE_DATE:
			orc_int_rle_enc_put(c->ienc, PM_VEC_VALUES(v, int32_t)[i]);
			break;
		case PM_TYPE_BIGINT:
			orc_int_rle_enc_put(c->ienc, PM_VEC_VALUES(v, int64_t)[i]);
			break;
		case PM_TYPE_FLOAT:
			{
				uint32_t	bits;

				memcpy(&bits, &PM_VEC_VALUES(v, float)[i], 4);
				pm_byte_buffer_put_le32(&c->data, bits);
			}
			break;
		case PM_TYPE_DOUBLE:
			{
				uint64_t	bits;

				memcpy(&bits, &PM_VEC_VALUES(v, double)[i], 8);
				pm_byte_buffer_put_le64(&c->data, bits);
			}
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				if (c->dict_state != DICT_NO)
					orc_dict_add(&c->dict, p, len);
				else
				{
					pm_byte_buffer_append(&c->data, p, (size_t) len);
					orc_int_rle_enc_put(c->lenc, len);
				}
			}
			break;
		case PM_TYPE_DECIMAL:
			{
				pm_int128	u = PM_VEC_VALUES(v, pm_int128)[i];
				int			scale = c->type->scale;

				/* HiveDecimal.create normalizes: trailing zeros stripped */
				while (scale > 0 && u % 10 == 0)
				{
					u /= 10;
					scale--;
				}
				if (u == 0)
					scale = 0;
				orc_put_varint128(&c->data, u);
				orc_int_rle_enc_put(c->senc, scale);
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		secs,
							nanos,
							ms;

				orc_timestamp_parts(v, i, &secs, &nanos, &ms);
				orc_int_rle_enc_put(c->ienc, secs - OW_BASE_SECONDS);
				orc_int_rle_enc_put(c->senc, (int64_t) format_nanos(nanos));
			}
			break;
		default:
			break;
	}
}

/*
 * CharTreeWriter / VarcharTreeWriter: a CHAR(n) value padded with spaces to
 * n characters, CHAR(n) and VARCHAR(n) values cut at n characters (UTF-8
 * characters counted by their lead bytes, Utf8Utils). Sets *vp, *ip to a
 * one-value vector of the result when it differs from value i of v.
 */
static void
fit_string(orc_col *c, const pm_vector **vp, int64_t *ip)
{
	const pm_vector *v = *vp;
	int32_t		len;
	const uint8_t *p = pm_vector_bytes(v, *ip, &len);
	int32_t		max = c->type->length;
	int32_t		chars = 0,
				cut = len;

	for (int32_t k = 0; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
		{
			if (chars == max)
			{
				cut = k;
				break;
			}
			chars++;
		}
	if (cut == len && (c->kind != ORC_CHAR || chars >= max))
		return;
	pm_byte_buffer_reset(&c->fit);
	pm_byte_buffer_append(&c->fit, p, (size_t) cut);
	if (c->kind == ORC_CHAR)
		for (int32_t k = chars; k < max; k++)
			pm_byte_buffer_put_u8(&c->fit, ' ');
	if (c->fit.failed)
		return;					/* reported by col_buffers_failed */
	c->fit_offsets[0] = 0;
	c->fit_offsets[1] = (int32_t) c->fit.len;
	memset(&c->fit_vec, 0, sizeof(c->fit_vec));
	c->fit_vec.type = v->type;
	c->fit_vec.length = 1;
	c->fit_vec.offsets = c->fit_offsets;
	c->fit_vec.data = c->fit.data;
	c->fit_vec.data_size = (int64_t) c->fit.len;
	*vp = &c->fit_vec;
	*ip = 0;
}

/*
 * What each ORC tree writer adds to its BloomFilterUtf8 for value i of v:
 * integers, dates and TIME millis as longs, FLOAT/DOUBLE as doubles,
 * strings (padded or cut) and binary as bytes, decimals as HiveDecimal
 * text, timestamps as UTC milliseconds; booleans add nothing.
 */
static void
bloom_add(orc_col *c, const pm_vector *v, int64_t i)
{
	orc_bloom  *b = &c->bf;

	switch (c->type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_TIME:
		case PM_TYPE_DATE:
		case PM_TYPE_BIGINT:
			orc_bloom_add_long(b, pm_vector_int64_at(v, i));
			break;
		case PM_TYPE_FLOAT:
			orc_bloom_add_double(b, (double) PM_VEC_VALUES(v, float)[i]);
			break;
		case PM_TYPE_DOUBLE:
			orc_bloom_add_double(b, PM_VEC_VALUES(v, double)[i]);
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				orc_bloom_add_bytes(b, p, (size_t) len);
			}
			break;
		case PM_TYPE_DECIMAL:
			{
				char		text[48];
				size_t		n = orc_decimal_text(PM_VEC_VALUES(v, pm_int128)[i],
												 c->type->scale, text);

				orc_bloom_add_bytes(b, (const uint8_t *) text, n);
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		secs,
							nanos,
							ms;

				orc_timestamp_parts(v, i, &secs, &nanos, &ms);
				orc_bloom_add_long(b, ms);
			}
			break;
		default:
			break;
	}
}

bool
orc_col_put_present(orc_col *c, const pm_vector *v, int64_t i)
{
	bool		is_null = pm_vector_is_null(v, i);

	orc_bool_enc_put(&c->present_enc, !is_null);
	if (is_null)
	{
		c->stripe_nulls = true;
		c->group_acc.has_null = true;
		c->stripe_acc.has_null = true;
		c->file_acc.has_null = true;
		c->group_acc.vals.nulls++;
		c->stripe_acc.vals.nulls++;
		c->file_acc.vals.nulls++;
	}
	return !is_null;
}

void
orc_col_write(orc_col *c, const pm_vector *v, int64_t start, int64_t end)
{
	for (int64_t i = start; i < end; i++)
	{
		if (!orc_col_put_present(c, v, i))
			continue;
		{
			const pm_vector *fv = v;
			int64_t		fi = i;

			if (c->kind == ORC_CHAR || c->kind == ORC_VARCHAR)
				fit_string(c, &fv, &fi);
			encode_value(c, fv, fi);
			if (c->bloom)
				bloom_add(c, fv, fi);
			orc_acc_add(&c->group_acc, fv, fi);
			orc_acc_add(&c->stripe_acc, fv, fi);
			orc_acc_add(&c->file_acc, fv, fi);
		}
	}
}
