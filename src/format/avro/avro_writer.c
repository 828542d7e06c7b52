/*-------------------------------------------------------------------------
 * avro_writer.c
 *	  Avro object container files as Apache Paimon 1.4.2 writes them.
 *
 * Schema: AvroSchemaConverter.convertToSchema (release-1.4.2): TINYINT,
 * SMALLINT, INT -> int; BIGINT -> long; CHAR/VARCHAR -> string;
 * BINARY/VARBINARY -> bytes; DATE -> int+date; TIME(p<=3) ->
 * int+time-millis; TIMESTAMP(p) -> long+timestamp-millis (p<=3) or
 * timestamp-micros (p<=6), TIMESTAMP_LTZ the local-timestamp-* ones;
 * DECIMAL -> bytes+decimal(precision, scale); ROW -> record named
 * <parent name>_<field name> (top: org.apache.paimon.avro.generated.record),
 * nullable fields with "default":null; ARRAY -> array; MAP with CHAR/VARCHAR
 * keys -> map; other keys -> array (logicalType map) of record
 * <name>{key, value}; MULTISET<T> as the map of each distinct element to
 * its count, exactly as a MAP<T, INT> (the count nullable: the converter
 * takes `new IntType()`), its elements primitive and not NULL; every
 * nullable type -> ["null", T]. The JSON is
 * what org.apache.avro.Schema.toString() prints for that schema (compact;
 * a nested record's namespace is left out when it equals its parent's).
 *
 * Records: FieldWriterFactory (union index 0 = null, 1 = value; arrays and
 * maps as one block of n items then 0, or just 0 when empty; a MULTISET
 * one item per distinct element in order of first occurrence,
 * pm_multiset_count's grouping; decimals as
 * the unscaled BigInteger.toByteArray(); timestamps as epoch millis (floor)
 * or micros). Container: Avro DataFileWriter (magic "Obj" 1, metadata map
 * {avro.schema, avro.codec}, 16-byte sync marker, blocks of
 * <count><size><data><sync>, a block written once the buffered records
 * reach the sync interval).
 *-------------------------------------------------------------------------
 */
#include "format/avro/avro_writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "codec/codec.h"
#include "common/byte_buffer.h"
#include "common/floor_div.h"
#include "common/random.h"
#include "common/vector_builder.h"
#include "format/write_stats.h"

#define AW_DEFAULT_BLOCK_BYTES 64000	/* DataFileConstants.DEFAULT_SYNC_INTERVAL */
#define AW_MAX_DEPTH 64
#define AW_TOP_NAMESPACE "org.apache.paimon.avro.generated"
#define AW_TOP_NAME "record"

/* AvroSchemaConverter.extractValueTypeToAvroMap of a MULTISET: new IntType(), nullable */
static const pm_type aw_count_type = {.id = PM_TYPE_INT, .nullable = true};

typedef struct avro_writer
{
	pm_format_writer base;
	pm_format_file file;		/* io, out, path, bytes written, failed */
	const pm_env *env;
	const pm_type *schema;
	pm_codec	codec;
	int			level;
	int64_t		block_bytes;
	uint8_t		sync[16];
	pm_byte_buffer block;		/* encoded records of the open block */
	int64_t		block_rows;
	pm_byte_buffer frame;		/* block header being written */
	pm_arena   *scratch;		/* compressed blocks; reset per block */
	int64_t		total_rows;
	pm_write_stats *stats;		/* per top-level column (format/write_stats.h) */
} avro_writer;

/* ---------------------------------------------------------------------
 * The schema
 * --------------------------------------------------------------------- */

typedef struct schema_builder
{
	pm_byte_buffer json;
	pm_arena   *arena;
	const char **names;			/* full names of the records made so far */
	int			nnames;
	int			cap;
} schema_builder;

static void
put_str(pm_byte_buffer *b, const char *s)
{
	pm_byte_buffer_append(b, s, strlen(s));
}

/* Avro's Schema.validateName: [A-Za-z_][A-Za-z0-9_]* (non-ASCII letters pass). */
static bool
avro_name_valid(const char *s)
{
	if (s == NULL || s[0] == '\0' || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (const unsigned char *p = (const unsigned char *) s; *p; p++)
		if (*p < 0x80 && !(*p == '_' || (*p >= 'a' && *p <= 'z') ||
						   (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

static pm_code
unsupported_type(const pm_type *t, const char *column, pm_error *err)
{
	return pm_fail(err, PM_ERR_UNSUPPORTED, "column \"%s\": type %s cannot be written to Avro files",
				   column, pm_type_id_name(t->id));
}

static pm_code type_json(schema_builder *sb, const pm_type *t, const char *row_name,
						 const char *column, int depth, pm_error *err);

/* A record named row_name ("<ns>.<name>") with fields; namespace printed at the top only. */
static pm_code
record_json(schema_builder *sb, const char *row_name, int nfields, const char *const *names,
			const pm_type *const *types, const bool *defaults, const char *column,
			int depth, pm_error *err)
{
	const char *simple = strrchr(row_name, '.') + 1;

	for (int i = 0; i < sb->nnames; i++)
		if (strcmp(sb->names[i], row_name) == 0)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "column \"%s\": Avro record name \"%s\" would be defined twice",
						   column, simple);
	if (sb->nnames == sb->cap)
	{
		int			ncap = sb->cap ? sb->cap * 2 : 16;
		const char **nn = pm_arena_realloc(sb->arena, (void *) sb->names,
										   sizeof(char *) * (size_t) sb->cap,
										   sizeof(char *) * (size_t) ncap);

		if (nn == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		sb->names = nn;
		sb->cap = ncap;
	}
	sb->names[sb->nnames++] = row_name;
	put_str(&sb->json, "{\"type\":\"record\",\"name\":\"");
	put_str(&sb->json, simple);
	put_str(&sb->json, "\"");
	if (depth == 0)
		put_str(&sb->json, ",\"namespace\":\"" AW_TOP_NAMESPACE "\"");
	put_str(&sb->json, ",\"fields\":[");
	for (int i = 0; i < nfields; i++)
	{
		char	   *child;

		if (!avro_name_valid(names[i]))
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "column \"%s\": field name \"%s\" is not a valid Avro name",
						   column, names[i]);
		child = pm_arena_sprintf(sb->arena, "%s_%s", row_name, names[i]);
		if (child == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (i > 0)
			put_str(&sb->json, ",");
		put_str(&sb->json, "{\"name\":\"");
		put_str(&sb->json, names[i]);
		put_str(&sb->json, "\",\"type\":");
		PM_TRY(type_json(sb, types[i], child, depth == 0 ? names[i] : column, depth + 1, err));
		if (defaults[i])
			put_str(&sb->json, ",\"default\":null");
		put_str(&sb->json, "}");
	}
	put_str(&sb->json, "]}");
	return PM_OK;
}

static pm_code
type_json(schema_builder *sb, const pm_type *t, const char *row_name, const char *column,
		  int depth, pm_error *err)
{
	char		tmp[128];

	if (depth > AW_MAX_DEPTH)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "column \"%s\": type nested too deeply", column);
	if (t->nullable)
		put_str(&sb->json, "[\"null\",");
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			put_str(&sb->json, "\"boolean\"");
			break;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
			put_str(&sb->json, "\"int\"");
			break;
		case PM_TYPE_BIGINT:
			put_str(&sb->json, "\"long\"");
			break;
		case PM_TYPE_FLOAT:
			put_str(&sb->json, "\"float\"");
			break;
		case PM_TYPE_DOUBLE:
			put_str(&sb->json, "\"double\"");
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			put_str(&sb->json, "\"string\"");
			break;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			put_str(&sb->json, "\"bytes\"");
			break;
		case PM_TYPE_DATE:
			put_str(&sb->json, "{\"type\":\"int\",\"logicalType\":\"date\"}");
			break;
		case PM_TYPE_TIME:
			if (t->precision > 3)
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "column \"%s\": Avro files hold TIME of precision up to 3, not %d",
							   column, t->precision);
			put_str(&sb->json, "{\"type\":\"int\",\"logicalType\":\"time-millis\"}");
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (t->precision > 6)
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "column \"%s\": Avro files hold timestamps of precision up to 6, not %d",
							   column, t->precision);
			snprintf(tmp, sizeof(tmp), "{\"type\":\"long\",\"logicalType\":\"%stimestamp-%s\"}",
					 t->id == PM_TYPE_TIMESTAMP_LTZ ? "local-" : "",
					 t->precision <= 3 ? "millis" : "micros");
			put_str(&sb->json, tmp);
			break;
		case PM_TYPE_DECIMAL:
			snprintf(tmp, sizeof(tmp),
					 "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":%d,\"scale\":%d}",
					 t->precision, t->scale);
			put_str(&sb->json, tmp);
			break;
		case PM_TYPE_ARRAY:
			put_str(&sb->json, "{\"type\":\"array\",\"items\":");
			PM_TRY(type_json(sb, t->element, row_name, column, depth + 1, err));
			put_str(&sb->json, "}");
			break;
		case PM_TYPE_MAP:
		case PM_TYPE_MULTISET:
			/* extractValueTypeToAvroMap: a MULTISET's counts are `new IntType()`, nullable */
			if (t->id == PM_TYPE_MULTISET && pm_type_is_nested(t->element->id))
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "column \"%s\": MULTISET of %s cannot be written to Avro files",
							   column, pm_type_id_name(t->element->id));
			if (pm_type_is_string(t->element->id))
			{
				put_str(&sb->json, "{\"type\":\"map\",\"values\":");
				PM_TRY(type_json(sb, t->id == PM_TYPE_MAP ? t->value : &aw_count_type, row_name,
								 column, depth + 1, err));
				put_str(&sb->json, "}");
			}
			else
			{
				const char *names[2] = {"key", "value"};
				const pm_type *value = t->id == PM_TYPE_MAP ? t->value : &aw_count_type;
				const pm_type *types[2] = {t->element, value};
				bool		defaults[2] = {false, value->nullable};

				/* key: noDefault(); value: default null if nullable */
				put_str(&sb->json, "{\"type\":\"array\",\"items\":");
				PM_TRY(record_json(sb, row_name, 2, names, types, defaults, column, depth + 1, err));
				put_str(&sb->json, ",\"logicalType\":\"map\"}");
			}
			break;
		case PM_TYPE_ROW:
			{
				const char **names = pm_arena_alloc(sb->arena, sizeof(char *) * (size_t) (t->nfields + 1));
				const pm_type **types = pm_arena_alloc(sb->arena, sizeof(pm_type *) * (size_t) (t->nfields + 1));
				bool	   *defaults = pm_arena_alloc(sb->arena, sizeof(bool) * (size_t) (t->nfields + 1));

				if (names == NULL || types == NULL || defaults == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				for (int i = 0; i < t->nfields; i++)
				{
					names[i] = t->fields[i].name;
					types[i] = t->fields[i].type;
					defaults[i] = t->fields[i].type->nullable;
				}
				PM_TRY(record_json(sb, row_name, t->nfields, names, types, defaults, column,
								   depth, err));
			}
			break;
		default:
			return unsupported_type(t, column, err);
	}
	if (t->nullable)
		put_str(&sb->json, "]");
	return PM_OK;
}

pm_code
pm_avro_schema_json(const pm_type *row, pm_arena *arena, char **json, pm_error *err)
{
	schema_builder sb;
	pm_code		rc;

	*json = NULL;
	if (row == NULL || row->id != PM_TYPE_ROW)
		return pm_fail(err, PM_ERR_INVALID, "Avro writer needs a ROW schema");
	memset(&sb, 0, sizeof(sb));
	sb.arena = arena;
	pm_byte_buffer_init(&sb.json, pm_arena_env(arena));
	{
		/* the top record is never nullable in the file (Paimon passes the row type as is) */
		pm_type		top = *row;

		top.nullable = false;
		rc = type_json(&sb, &top, AW_TOP_NAMESPACE "." AW_TOP_NAME, "", 0, err);
	}
	if (rc == PM_OK && sb.json.failed)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (rc == PM_OK)
	{
		*json = pm_arena_strndup(arena, (const char *) sb.json.data, sb.json.len);
		if (*json == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	pm_byte_buffer_free(&sb.json);
	return rc;
}

/* ---------------------------------------------------------------------
 * Records
 * --------------------------------------------------------------------- */

/* BigInteger.toByteArray(): minimal big-endian two's complement. */
static void
put_decimal(pm_byte_buffer *b, pm_int128 v)
{
	uint8_t		be[16];
	int			start = 0;

	for (int i = 0; i < 16; i++)
		be[15 - i] = (uint8_t) ((unsigned __int128) v >> (8 * i));
	while (start < 15 &&
		   ((be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
			(be[start] == 0xff && (be[start + 1] & 0x80) != 0)))
		start++;
	pm_byte_buffer_put_zigzag(b, 16 - start);
	pm_byte_buffer_append(b, be + start, (size_t) (16 - start));
}

static pm_code
encode(avro_writer *w, const pm_type *t, const pm_vector *v, int64_t i, const char *column,
	   int depth, pm_error *err)
{
	pm_byte_buffer *b = &w->block;

	if (depth > AW_MAX_DEPTH)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "column \"%s\": value nested too deeply", column);
	if (pm_vector_is_null(v, i))
	{
		if (!t->nullable)
			return pm_fail(err, PM_ERR_INVALID, "column \"%s\": NULL in a NOT NULL field", column);
		pm_byte_buffer_put_u8(b, 0);	/* union branch 0: null */
		return PM_OK;
	}
	if (t->nullable)
		pm_byte_buffer_put_u8(b, 2);	/* zig-zag 1: the value branch */
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			pm_byte_buffer_put_u8(b, PM_VEC_VALUES(v, uint8_t)[i] ? 1 : 0);
			break;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
			pm_byte_buffer_put_zigzag(b, pm_vector_int64_at(v, i));
			break;
		case PM_TYPE_FLOAT:
			{
				uint32_t	bits;

				memcpy(&bits, &PM_VEC_VALUES(v, float)[i], 4);
				pm_byte_buffer_put_le32(b, bits);
			}
			break;
		case PM_TYPE_DOUBLE:
			{
				uint64_t	bits;

				memcpy(&bits, &PM_VEC_VALUES(v, double)[i], 8);
				pm_byte_buffer_put_le64(b, bits);
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		us = PM_VEC_VALUES(v, int64_t)[i];

				pm_byte_buffer_put_zigzag(b, t->precision <= 3 ? pm_floor_div(us, 1000) : us);
			}
			break;
		case PM_TYPE_DECIMAL:
			put_decimal(b, PM_VEC_VALUES(v, pm_int128)[i]);
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				pm_byte_buffer_put_zigzag(b, len);
				pm_byte_buffer_append(b, p, (size_t) len);
			}
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
			{
				int32_t		start = v->offsets[i],
							end = v->offsets[i + 1];
				bool		string_map = t->id == PM_TYPE_MAP && pm_type_is_string(t->element->id);

				if (end > start)
					pm_byte_buffer_put_zigzag(b, end - start);
				for (int32_t k = start; k < end; k++)
				{
					if (t->id == PM_TYPE_ARRAY)
						PM_TRY(encode(w, t->element, &v->children[0], k, column, depth + 1, err));
					else
					{
						if (string_map)
						{
							/* an Avro map key is a plain string */
							int32_t		len;
							const uint8_t *p;

							if (pm_vector_is_null(&v->children[0], k))
								return pm_fail(err, PM_ERR_INVALID,
											   "column \"%s\": NULL map key", column);
							p = pm_vector_bytes(&v->children[0], k, &len);
							pm_byte_buffer_put_zigzag(b, len);
							pm_byte_buffer_append(b, p, (size_t) len);
						}
						else
							PM_TRY(encode(w, t->element, &v->children[0], k, column, depth + 1, err));
						PM_TRY(encode(w, t->value, &v->children[1], k, column, depth + 1, err));
					}
				}
				pm_byte_buffer_put_u8(b, 0);
			}
			break;
		case PM_TYPE_MULTISET:
			{
				const pm_vector *elems = &v->children[0];
				int32_t		start = v->offsets[i],
							end = v->offsets[i + 1],
							n = 0;
				bool		string_map = pm_type_is_string(t->element->id);

				for (int32_t k = start; k < end; k++)
				{
					if (pm_vector_is_null(elems, k))
						return pm_fail(err, PM_ERR_INVALID, "column \"%s\": NULL MULTISET element",
									   column);
					n += pm_multiset_count(elems, start, k + 1, k) > 0;
				}
				if (n > 0)
					pm_byte_buffer_put_zigzag(b, n);
				for (int32_t k = start; k < end; k++)
				{
					int32_t		count = pm_multiset_count(elems, start, end, k);

					if (count == 0)
						continue;
					if (string_map)
					{
						int32_t		len;
						const uint8_t *p = pm_vector_bytes(elems, k, &len);

						pm_byte_buffer_put_zigzag(b, len);
						pm_byte_buffer_append(b, p, (size_t) len);
					}
					else
						PM_TRY(encode(w, t->element, elems, k, column, depth + 1, err));
					pm_byte_buffer_put_u8(b, 2);	/* the count's union: the value branch */
					pm_byte_buffer_put_zigzag(b, count);
				}
				pm_byte_buffer_put_u8(b, 0);
			}
			break;
		case PM_TYPE_ROW:
			for (int f = 0; f < t->nfields; f++)
				PM_TRY(encode(w, t->fields[f].type, &v->children[f], i, column, depth + 1, err));
			break;
		default:
			return unsupported_type(t, column, err);
	}
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * The container
 * --------------------------------------------------------------------- */

static const char *
codec_name(pm_codec codec)
{
	switch (codec)
	{
		case PM_CODEC_ZSTD:
			return "zstandard";
		case PM_CODEC_SNAPPY:
			return "snappy";
		case PM_CODEC_DEFLATE:
			return "deflate";
		default:
			return "null";
	}
}

static pm_code
flush_block(avro_writer *w, pm_error *err)
{
	const uint8_t *data = w->block.data;
	size_t		len = w->block.len;
	uint8_t    *comp = NULL;
	size_t		clen = 0;
	uint8_t		crc[4];

	if (w->block_rows == 0)
		return PM_OK;
	if (w->block.failed)
		return pm_format_file_oom(&w->file, err);
	if (w->codec != PM_CODEC_NONE)
	{
		if (pm_codec_compress(w->codec, w->level, data, len, w->scratch, &comp, &clen, err) != PM_OK)
			return pm_format_file_fail(&w->file, err);
		data = comp;
		len = clen;
	}
	pm_byte_buffer_reset(&w->frame);
	pm_byte_buffer_put_zigzag(&w->frame, w->block_rows);
	pm_byte_buffer_put_zigzag(&w->frame, (int64_t) len + (w->codec == PM_CODEC_SNAPPY ? 4 : 0));
	if (w->frame.failed)
		return pm_format_file_oom(&w->file, err);
	PM_TRY(pm_format_file_append(&w->file, w->frame.data, w->frame.len, err));
	PM_TRY(pm_format_file_append(&w->file, data, len, err));
	if (w->codec == PM_CODEC_SNAPPY)
	{
		/* Avro's SnappyCodec: CRC32 of the uncompressed bytes, big-endian */
		uint32_t	c = (uint32_t) crc32(crc32(0L, Z_NULL, 0), w->block.data, (uInt) w->block.len);

		crc[0] = (uint8_t) (c >> 24);
		crc[1] = (uint8_t) (c >> 16);
		crc[2] = (uint8_t) (c >> 8);
		crc[3] = (uint8_t) c;
		PM_TRY(pm_format_file_append(&w->file, crc, 4, err));
	}
	PM_TRY(pm_format_file_append(&w->file, w->sync, 16, err));
	pm_byte_buffer_reset(&w->block);
	w->block_rows = 0;
	pm_arena_reset(w->scratch);
	return PM_OK;
}

static void
writer_free(avro_writer *w)
{
	const pm_env *env = w->env;

	if (w->stats != NULL)
	{
		for (int i = 0; i < w->schema->nfields; i++)
			pm_write_stats_free(&w->stats[i]);
		pm_free(env, w->stats);
	}
	pm_byte_buffer_free(&w->block);
	pm_byte_buffer_free(&w->frame);
	if (w->scratch != NULL)
		pm_arena_destroy(w->scratch);
	pm_format_file_close(&w->file, env);
	pm_free(env, w);
}

static void
aw_abort(pm_format_writer *base)
{
	writer_free((avro_writer *) base);
}

static pm_code
aw_write(pm_format_writer *base, const pm_batch *batch, pm_error *err)
{
	avro_writer *w = (avro_writer *) base;
	const pm_type *row = w->schema;

	if (w->file.failed)
	{
		pm_fail(err, PM_ERR_INVALID, "Avro writer used after a failure");
		return pm_format_file_fail(&w->file, err);
	}
	if (pm_format_writer_check_batch(row, batch, "an Avro", err) != PM_OK)
		return pm_format_file_fail(&w->file, err);
	if (pm_check_interrupts(w->env, err) != PM_OK)
		return pm_format_file_fail(&w->file, err);
	for (int64_t i = 0; i < batch->nrows; i++)
	{
		for (int c = 0; c < row->nfields; c++)
		{
			const pm_type *t = row->fields[c].type;

			/* the top-level fields are the record's: a union only when nullable */
			if (encode(w, t, &batch->cols[c], i, row->fields[c].name, 0, err) != PM_OK)
				return pm_format_file_fail(&w->file, err);
		}
		w->block_rows++;
		w->total_rows++;
		if (w->block.failed)
			return pm_format_file_oom(&w->file, err);
		if ((int64_t) w->block.len >= w->block_bytes)
			PM_TRY(flush_block(w, err));
	}
	for (int c = 0; c < row->nfields; c++)
		pm_write_stats_add_all(&w->stats[c], &batch->cols[c], batch->nrows);
	return PM_OK;
}

static int64_t
aw_estimated_size(pm_format_writer *base)
{
	avro_writer *w = (avro_writer *) base;

	return w->file.pos + (int64_t) w->block.len;
}

static pm_code
aw_finish(pm_format_writer *base, pm_arena *arena, pm_format_write_result *result,
		  pm_error *err)
{
	avro_writer *w = (avro_writer *) base;
	int			ncols = w->schema->nfields;
	pm_code		rc = PM_OK;

	memset(result, 0, sizeof(*result));
	if (w->file.failed)
	{
		pm_fail(err, PM_ERR_INVALID, "Avro writer finished after a failure");
		rc = pm_format_file_fail(&w->file, err);
	}
	if (rc == PM_OK)
		rc = flush_block(w, err);
	if (rc == PM_OK)
	{
		result->stats = pm_arena_zalloc(arena, sizeof(pm_column_stats) * (size_t) (ncols > 0 ? ncols : 1));
		if (result->stats == NULL)
			rc = pm_format_file_oom(&w->file, err);
		for (int c = 0; rc == PM_OK && c < ncols; c++)
			if (!pm_write_stats_result(&w->stats[c], arena, &result->stats[c]))
				rc = pm_format_file_oom(&w->file, err);
	}
	if (rc == PM_OK)
		rc = pm_format_file_finish(&w->file, err);
	if (rc != PM_OK)
	{
		memset(result, 0, sizeof(*result));
		aw_abort(base);
		return rc;
	}
	result->row_count = w->total_rows;
	result->file_size = w->file.pos;
	result->ncols = ncols;
	writer_free(w);
	return PM_OK;
}

static const pm_format_writer_ops avro_writer_ops = {
	.write = aw_write,
	.estimated_size = aw_estimated_size,
	.finish = aw_finish,
	.abort = aw_abort,
};

/* Paimon's compression name -> Avro codec (AvroFileFormat.createCodecFactory). */
static bool
codec_from_name(const char *name, pm_codec *codec)
{
	if (name == NULL || name[0] == '\0' || strcasecmp(name, "none") == 0 ||
		strcasecmp(name, "null") == 0)
		*codec = PM_CODEC_NONE;
	else if (strcasecmp(name, "zstd") == 0 || strcasecmp(name, "zstandard") == 0)
		*codec = PM_CODEC_ZSTD;
	else if (strcasecmp(name, "snappy") == 0)
		*codec = PM_CODEC_SNAPPY;
	else if (strcasecmp(name, "deflate") == 0)
		*codec = PM_CODEC_DEFLATE;
	else
		return false;
	return true;
}

bool
pm_avro_writer_takes_compression(const char *name)
{
	pm_codec	codec;

	return codec_from_name(name, &codec);
}

static void
put_avro_string(pm_byte_buffer *b, const char *s, size_t n)
{
	pm_byte_buffer_put_zigzag(b, (int64_t) n);
	pm_byte_buffer_append(b, s, n);
}

pm_code
pm_avro_writer_open(const pm_env *env, pm_fileio *io, const char *path,
					const pm_format_write_options *options, pm_format_writer **out,
					pm_error *err)
{
	const pm_type *schema = options->schema;
	avro_writer *w;
	char	   *json;
	const char *cname;
	pm_code		rc;
	pm_byte_buffer *h;

	*out = NULL;
	if (schema == NULL || schema->id != PM_TYPE_ROW)
	{
		rc = pm_fail(err, PM_ERR_INVALID, "Avro writer needs a ROW schema");
		pm_error_set_path(err, path);
		return rc;
	}
	w = pm_alloc(env, sizeof(avro_writer));
	if (w == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an Avro writer");
	memset(w, 0, sizeof(*w));
	w->base.ops = &avro_writer_ops;
	w->env = env;
	if (!pm_format_file_init(&w->file, env, io, path, "an Avro file"))
	{
		pm_free(env, w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an Avro writer");
	}
	w->schema = schema;
	pm_byte_buffer_init(&w->block, env);
	pm_byte_buffer_init(&w->frame, env);
	w->scratch = pm_arena_create(env);
	w->stats = pm_alloc(env, sizeof(pm_write_stats) * (size_t) (schema->nfields > 0 ? schema->nfields : 1));
	if (w->scratch == NULL || w->stats == NULL)
	{
		writer_free(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an Avro writer");
	}
	for (int c = 0; c < schema->nfields; c++)
		pm_write_stats_init(&w->stats[c], schema->fields[c].type, env);
	if (!codec_from_name(options->compression, &w->codec))
	{
		rc = pm_fail(err, PM_ERR_UNSUPPORTED, "compression \"%s\" is not supported for Avro files",
					 options->compression);
		pm_error_set_path(err, path);
		writer_free(w);
		return rc;
	}
	w->level = w->codec == PM_CODEC_ZSTD ? (options->zstd_level != 0 ? options->zstd_level : 1) : 0;
	w->block_bytes = options->row_group_bytes > 0 ? options->row_group_bytes : AW_DEFAULT_BLOCK_BYTES;
	if (pm_avro_schema_json(schema, w->scratch, &json, err) != PM_OK)
	{
		pm_error_set_path(err, path);
		writer_free(w);
		return err->code;
	}
	if ((rc = pm_random_bytes(w->sync, sizeof(w->sync), err)) != PM_OK)
	{
		writer_free(w);
		return rc;
	}

	/* header: magic, metadata {avro.schema, avro.codec}, sync */
	h = &w->frame;
	pm_byte_buffer_append(h, "Obj\x01", 4);
	pm_byte_buffer_put_zigzag(h, 2);
	put_avro_string(h, "avro.schema", 11);
	put_avro_string(h, json, strlen(json));
	cname = codec_name(w->codec);
	put_avro_string(h, "avro.codec", 10);
	put_avro_string(h, cname, strlen(cname));
	pm_byte_buffer_put_u8(h, 0);
	pm_byte_buffer_append(h, w->sync, 16);
	pm_arena_reset(w->scratch);
	if (h->failed)
	{
		writer_free(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an Avro writer");
	}
	rc = pm_format_file_create(&w->file, err);
	if (rc == PM_OK)
		rc = pm_format_file_append(&w->file, h->data, h->len, err);
	if (rc != PM_OK)
	{
		aw_abort(&w->base);
		return rc;
	}
	*out = &w->base;
	return PM_OK;
}
