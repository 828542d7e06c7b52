/*-------------------------------------------------------------------------
 * parquet_writer.c
 *	  Parquet data file writer: what Apache Paimon's Java writer
 *	  (ParquetWriterFactory -> parquet-mr) writes, so Java reads it back.
 *
 * Schema per Paimon type (ParquetSchemaConverter, release-1.4.2): message
 * "paimon_schema"; field_id on every element; REQUIRED/OPTIONAL from the
 * type's nullability; CHAR/VARCHAR BINARY+STRING; BINARY/VARBINARY BINARY;
 * BOOLEAN; TINYINT/SMALLINT INT32+INT(8|16,signed); INT INT32; BIGINT
 * INT64; FLOAT; DOUBLE; DECIMAL INT32 (p <= 9), INT64 (p <= 18), else
 * FIXED_LEN_BYTE_ARRAY of the fewest bytes holding p digits; DATE
 * INT32+DATE; TIME INT32+TIME(MILLIS, utc); TIMESTAMP(_LTZ) INT64 +
 * TIMESTAMP(MILLIS) for p <= 3, INT64 + TIMESTAMP(MICROS) for p <= 6, INT96
 * (no annotation) above, isAdjustedToUTC true only for _LTZ.
 *
 * Values (ParquetRowDataWriter): timestamps as millis / micros; INT96 as
 * nanos-of-day int64 LE then Julian day int32 LE, with Java's truncating
 * division of the epoch millis (nanos-of-day negative before 1970); big
 * decimals as big-endian two's complement, sign-padded.
 *
 * Layout (parquet-mr 1.16 defaults, which Paimon keeps): data pages v1,
 * PLAIN values, RLE/bit-packed repetition and definition levels each with
 * a 4-byte length, page CRC32, codecs zstd (options->zstd_level), snappy,
 * gzip, lz4 (parquet-mr's LZ4 = Hadoop block framing, as Paimon's "lz4"
 * names CompressionCodecName.LZ4) and none; pages of page_bytes (1 MiB) or
 * 20000 rows, row groups of
 * row_group_bytes (128 MiB), chunk statistics (min/max/null_count, also
 * the deprecated min/max for numeric types, none but null_count for
 * INT96), a ColumnIndex (binary bounds cut to 64 bytes, none for INT96
 * or when a float page holds NaN) and OffsetIndex per chunk, TYPE_ORDER column
 * orders. Dictionary encoding as parquet-mr's v1 writer (when
 * options->dictionary; never for BOOLEAN): a DICTIONARY_PAGE of PLAIN
 * values first in the chunk, PLAIN_DICTIONARY data pages (bit width byte +
 * RLE/bit-packed indexes); PLAIN instead when the chunk's first page does
 * not gain from it, and for the rest of the chunk once the dictionary
 * passes 1 MiB (parquet.dictionary.page.size).
 * Page indexes follow their row group's chunks (parquet-mr puts all of
 * them before the footer; readers find them by offset). created_by names
 * this writer: parquet-mr ignores binary statistics only of old parquet-mr
 * versions (CorruptStatistics), so Java trusts ours.
 *
 * Nested types as ParquetSchemaConverter lays them out: ARRAY a LIST group
 * > repeated "list" > "element"; MAP a MAP group > repeated MAP_KEY_VALUE
 * "key_value" > REQUIRED "key", "value"; ROW a plain group; element, key
 * and value ids from SpecialFields (base +/- id * 1024 + depth). Values are
 * shredded into repetition/definition levels (Dremel). MULTISET<T> as Java
 * writes it: MAP<T NOT NULL, INT NOT NULL> from each distinct element to
 * its count (T primitive; a nested T is refused). VARIANT and BLOB are
 * refused at open with PM_ERR_UNSUPPORTED naming the column.
 *
 * Memory: every buffer (page values and levels, the row group's column
 * chunks, the footer) is a pm_byte_buffer reused across pages and row
 * groups; compression output lives in a scratch arena reset per page. No
 * allocation per row.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_writer.h"

#include <math.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "codec/codec.h"
#include "common/byte_buffer.h"
#include "common/floor_div.h"
#include "common/vector_builder.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/thrift_compact_write.h"
#include "format/write_stats.h"

#define PW_DEFAULT_ROW_GROUP_BYTES	((int64_t) 128 << 20)
#define PW_DEFAULT_PAGE_BYTES		((int64_t) 1 << 20)
#define PW_PAGE_ROW_LIMIT			20000	/* parquet-mr page.row.count.limit */
#define PW_SLICE_ROWS				1024	/* rows between row-group size checks */
#define PW_DICT_PAGE_BYTES			((size_t) 1 << 20)	/* parquet.dictionary.page.size */
#define PW_INDEX_TRUNCATE			64	/* parquet.columnindex.truncate.length */
#define PW_CREATED_BY				"paimon_fdw version 0.1 (build parquet-mr compatible writer)"

/* Hadoop's Lz4Codec block (256 KiB buffer less its overhead bufferSize/255 + 16) */
#define PW_HADOOP_LZ4_MAX_INPUT		(262144 - (262144 / 255 + 16))

/* How values of a column compare (statistics). */
typedef enum pw_kind
{
	PW_K_BOOL,
	PW_K_INT,					/* int32/int64 physical, compared as int64 */
	PW_K_FLOAT,
	PW_K_DOUBLE,
	PW_K_DECIMAL,				/* int128 unscaled, any physical */
	PW_K_TS96,					/* micros + nanos, INT96 physical */
	PW_K_BYTES					/* unsigned lexicographic */
} pw_kind;

/*
 * Min/max/nulls of some values of one column (a page, a chunk, the file):
 * pm_write_stats of the leaf type, fed the values as stored (a millis
 * timestamp column its millis).
 */
typedef pm_write_stats pw_stat;

/* One page of the current chunk, for the page indexes. */
typedef struct pw_page
{
	int64_t		offset;			/* from the chunk start */
	int32_t		size;			/* header + compressed body */
	int64_t		first_row;		/* within the row group */
	int64_t		nulls;
	bool		null_page;
	uint32_t	min_off,
				min_len,
				max_off,
				max_len;		/* into the column's page_bounds */
} pw_page;

/*
 * One step from a top-level value down to a leaf value: the type at that
 * level, which child leads on (ROW: field index; MAP: 0 key, 1 value), and
 * whether a NULL is possible there (map keys never are: Parquet keys are
 * REQUIRED, as ParquetSchemaConverter makes them).
 */
typedef struct pw_step
{
	const pm_type *type;
	int			child;
	bool		nullable;
} pw_step;

#define PW_MAX_DEPTH	32		/* nesting of ARRAY/MAP/ROW types */

/* One leaf column of the Parquet schema (a top-level field or below one). */
typedef struct pw_column
{
	const pm_field *field;		/* the top-level field it belongs to */
	const pm_type *type;		/* of the leaf values */
	int			physical;		/* pm_pq_physical */
	int32_t		type_length;	/* FIXED_LEN_BYTE_ARRAY */
	pw_kind		kind;
	int			ts_unit;		/* TIMESTAMP: PM_PQ_UNIT_MILLIS/MICROS, or 0 (INT96) */
	pm_int128	dec_limit;		/* DECIMAL: 10^precision, unscaled values stay below */
	bool		bad_value;		/* a value did not fit its type */
	int			nsteps;
	pw_step		steps[PW_MAX_DEPTH];
	int			npath;
	const char *path[2 * PW_MAX_DEPTH];	/* path_in_schema */
	int			max_def;
	int			max_rep;

	/* the page being filled */
	pm_byte_buffer values;		/* PLAIN values */
	pm_byte_buffer defs;		/* definition level per entry (max_def > 0) */
	pm_byte_buffer reps;		/* repetition level per entry (max_rep > 0) */
	int64_t		page_values;	/* entries (values, NULLs, empty lists) */
	int64_t		page_rows;
	int64_t		bool_bits;		/* BOOLEAN: values bit-packed so far */
	pw_stat		page;

	/* the row group's chunk */
	pm_byte_buffer chunk;		/* page headers + compressed pages */
	int64_t		chunk_values;
	int64_t		chunk_rows;
	int64_t		chunk_uncompressed;	/* headers + uncompressed bodies */
	pw_stat		chunk_stat;
	bool		page_index_ok;	/* a ColumnIndex can be written */

	/*
	 * Dictionary of the chunk (parquet-mr's v1 dictionary writer): distinct
	 * PLAIN-encoded values, an open-addressing hash of them, the page's
	 * indexes. dict_on: values still go in; once the dictionary passes
	 * PW_DICT_PAGE_BYTES (or does not pay on the first page) it stops and
	 * the remaining pages of the chunk are PLAIN.
	 */
	bool		dict_on;
	pm_byte_buffer dict;		/* the dictionary page's PLAIN values */
	uint32_t   *dict_off;		/* dict_n + 1 entry starts */
	int32_t		dict_n;
	int32_t		dict_cap;
	uint32_t   *slots;			/* entry + 1, 0 = empty; nslots a power of 2 */
	uint32_t	nslots;
	pm_byte_buffer idx;			/* uint32 dictionary index per page value */
	int			npages_dict;	/* data pages of the chunk dictionary-encoded */
	pw_page    *pages;
	int			npages;
	int			pages_cap;
	pm_byte_buffer page_bounds;	/* plain-encoded page min/max */

	/* the whole file */
	pw_stat		file_stat;
} pw_column;

typedef struct parquet_writer
{
	pm_format_writer base;
	pm_format_file file;		/* io, out, path, bytes written, failed */
	const pm_env *env;
	const pm_type *schema;
	int			ntop;			/* top-level fields */
	int		   *top_first;		/* ntop + 1: first leaf of each, then ncols */
	int64_t    *top_nulls;		/* NULL top-level values (nested fields' stats) */
	int			ncols;			/* leaves */
	pw_column  *cols;
	int			codec;			/* PM_PQ_CODEC_* */
	int			zstd_level;
	int64_t		row_group_bytes;
	int64_t		page_bytes;
	bool		dictionary;

	int64_t		rg_rows;		/* rows in the current row group */
	int64_t		total_rows;
	int			nrow_groups;
	pm_byte_buffer footer_rgs;	/* serialized RowGroup structs */
	pm_byte_buffer body;		/* scratch: a page body before compression */
	pm_byte_buffer header;		/* scratch: a page header, an index */
	pm_byte_buffer stat_buf;	/* scratch: encoded statistics */
	pm_arena   *scratch;		/* compression output, reset per page */
} parquet_writer;

static const pm_format_writer_ops parquet_writer_ops;

/* ---------------------------------------------------------------- */
/* errors																*/
/* ---------------------------------------------------------------- */

static pm_code
oom(parquet_writer *w, pm_error *err)
{
	return pm_format_file_oom(&w->file, err);
}

/* ---------------------------------------------------------------- */
/* statistics															*/
/* ---------------------------------------------------------------- */

/* a NaN was seen (NaN is above every number: the max) */
static inline bool
stat_nan(const pw_stat *s)
{
	return s->any && (s->type->id == PM_TYPE_FLOAT || s->type->id == PM_TYPE_DOUBLE) &&
		isnan(s->max.u.f64);
}

/* a value other than NaN was seen */
static inline bool
stat_has(const pw_stat *s)
{
	return s->any && !((s->type->id == PM_TYPE_FLOAT || s->type->id == PM_TYPE_DOUBLE) &&
					   isnan(s->min.u.f64));
}

/* Big-endian two's complement of v in n bytes (n <= 16). */
static void
decimal_be(pm_int128 v, int n, uint8_t *out)
{
	unsigned __int128 u = (unsigned __int128) v;

	for (int i = n - 1; i >= 0; i--)
	{
		out[i] = (uint8_t) u;
		u >>= 8;
	}
}

/*
 * Append the PLAIN encoding of a statistic bound (min or max) of column c
 * to b, as parquet-mr's Statistics.getMinBytes/getMaxBytes give it: zero
 * bounds of floats are -0.0 for a min and +0.0 for a max (parquet-format's
 * rule, parquet-mr's FloatStatistics/DoubleStatistics).
 */
static void
encode_bound(const pw_column *c, const pw_stat *s, bool is_max, pm_byte_buffer *b)
{
	switch (c->kind)
	{
		case PW_K_BOOL:
			pm_byte_buffer_put_u8(b, (uint8_t) (is_max ? s->max.u.i64 : s->min.u.i64));
			break;
		case PW_K_INT:
			if (c->physical == PM_PQ_INT32)
				pm_byte_buffer_put_le32(b, (uint32_t) (int32_t) (is_max ? s->max.u.i64 : s->min.u.i64));
			else
				pm_byte_buffer_put_le64(b, (uint64_t) (is_max ? s->max.u.i64 : s->min.u.i64));
			break;
		case PW_K_FLOAT:
			{
				float		f = (float) (is_max ? s->max.u.f64 : s->min.u.f64);
				uint32_t	u;

				if (f == 0.0f)
					f = is_max ? 0.0f : -0.0f;
				memcpy(&u, &f, 4);
				pm_byte_buffer_put_le32(b, u);
				break;
			}
		case PW_K_DOUBLE:
			{
				double		d = is_max ? s->max.u.f64 : s->min.u.f64;
				uint64_t	u;

				if (d == 0.0)
					d = is_max ? 0.0 : -0.0;
				memcpy(&u, &d, 8);
				pm_byte_buffer_put_le64(b, u);
				break;
			}
		case PW_K_DECIMAL:
			{
				pm_int128	q = is_max ? s->max.u.i128 : s->min.u.i128;

				if (c->physical == PM_PQ_INT32)
					pm_byte_buffer_put_le32(b, (uint32_t) (int32_t) q);
				else if (c->physical == PM_PQ_INT64)
					pm_byte_buffer_put_le64(b, (uint64_t) (int64_t) q);
				else
				{
					uint8_t		t[16];

					decimal_be(q, c->type_length, t);
					pm_byte_buffer_append(b, t, (size_t) c->type_length);
				}
				break;
			}
		case PW_K_TS96:
			break;				/* never encoded */
		case PW_K_BYTES:
			{
				const pm_value *v = is_max ? &s->max : &s->min;

				pm_byte_buffer_append(b, v->u.bytes.ptr, (size_t) v->u.bytes.len);
				break;
			}
	}
}

/* ---------------------------------------------------------------- */
/* schema																*/
/* ---------------------------------------------------------------- */

/*
 * Bytes of the FIXED_LEN_BYTE_ARRAY of a decimal: the fewest n with
 * 2^(8n - 1) >= 10^precision (computeMinBytesForDecimalPrecision, there in
 * doubles; no boundary is close enough for them to differ), precision <= 38.
 */
static int
decimal_bytes(int precision)
{
	unsigned __int128 lim = 1;
	int			n = 1;

	for (int i = 0; i < precision; i++)
		lim *= 10;
	while (((unsigned __int128) 1 << (8 * n - 1)) < lim)
		n++;
	return n;
}

/* Physical layout of a primitive Paimon type; false if it has none. */
static bool
leaf_layout(pw_column *c, const pm_type *t)
{
	c->type = t;
	c->type_length = 0;
	c->ts_unit = 0;
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			c->physical = PM_PQ_BOOLEAN;
			c->kind = PW_K_BOOL;
			break;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			c->physical = PM_PQ_INT32;
			c->kind = PW_K_INT;
			break;
		case PM_TYPE_BIGINT:
			c->physical = PM_PQ_INT64;
			c->kind = PW_K_INT;
			break;
		case PM_TYPE_FLOAT:
			c->physical = PM_PQ_FLOAT;
			c->kind = PW_K_FLOAT;
			break;
		case PM_TYPE_DOUBLE:
			c->physical = PM_PQ_DOUBLE;
			c->kind = PW_K_DOUBLE;
			break;
		case PM_TYPE_DECIMAL:
			if (t->precision < 1 || t->precision > 38)
				return false;
			c->kind = PW_K_DECIMAL;
			c->dec_limit = 1;
			for (int k = 0; k < t->precision; k++)
				c->dec_limit *= 10;
			if (t->precision <= 9)
				c->physical = PM_PQ_INT32;
			else if (t->precision <= 18)
				c->physical = PM_PQ_INT64;
			else
			{
				c->physical = PM_PQ_FIXED_LEN_BYTE_ARRAY;
				c->type_length = decimal_bytes(t->precision);
			}
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (t->precision <= 3)
			{
				c->physical = PM_PQ_INT64;
				c->kind = PW_K_INT;
				c->ts_unit = PM_PQ_UNIT_MILLIS;
			}
			else if (t->precision <= 6)
			{
				c->physical = PM_PQ_INT64;
				c->kind = PW_K_INT;
				c->ts_unit = PM_PQ_UNIT_MICROS;
			}
			else
			{
				c->physical = PM_PQ_INT96;
				c->kind = PW_K_TS96;
			}
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			c->physical = PM_PQ_BYTE_ARRAY;
			c->kind = PW_K_BYTES;
			break;
		default:
			return false;
	}
	return true;
}

static pm_code
refuse_type(parquet_writer *w, const pm_field *f, const pm_type *t, pm_error *err)
{
	if (t->id == PM_TYPE_DECIMAL)
		pm_fail(err, PM_ERR_UNSUPPORTED, "column \"%s\": DECIMAL precision %d is not supported",
				f->name, t->precision);
	else
		pm_fail(err, PM_ERR_UNSUPPORTED,
				"column \"%s\": writing %s values to Parquet files is not supported yet",
				f->name, pm_type_id_name(t->id));
	pm_error_set_path(err, w->file.path);
	return err->code;
}

/*
 * Walk the type of top-level field f down to its leaves (in schema order):
 * count them (cols NULL) or fill cols[*n...] with their steps, paths and
 * levels. `c` holds the steps and path so far.
 */
static pm_code
walk_leaves(parquet_writer *w, const pm_field *f, const pm_type *t, const char *name,
			bool nullable, pw_column *c, int def, int rep, pw_column *cols, int *n,
			pm_error *err)
{
	pw_step    *st;

	if (c->nsteps >= PW_MAX_DEPTH || c->npath + 2 > 2 * PW_MAX_DEPTH)
	{
		pm_fail(err, PM_ERR_UNSUPPORTED, "column \"%s\": types nested too deeply", f->name);
		pm_error_set_path(err, w->file.path);
		return err->code;
	}
	st = &c->steps[c->nsteps++];
	st->type = t;
	st->child = 0;
	st->nullable = nullable;
	c->path[c->npath++] = name;
	if (nullable)
		def++;
	switch (t->id)
	{
		case PM_TYPE_ARRAY:
			c->path[c->npath++] = "list";
			PM_TRY(walk_leaves(w, f, t->element, "element", t->element->nullable, c,
							   def + 1, rep + 1, cols, n, err));
			c->npath--;
			break;
		case PM_TYPE_MAP:
			c->path[c->npath++] = "key_value";
			st->child = 0;
			PM_TRY(walk_leaves(w, f, t->element, "key", false, c, def + 1, rep + 1, cols, n, err));
			st->child = 1;
			PM_TRY(walk_leaves(w, f, t->value, "value", t->value->nullable, c, def + 1, rep + 1,
							   cols, n, err));
			c->npath--;
			break;
		case PM_TYPE_MULTISET:
			{
				pw_column	probe;

				/* elements are grouped by value: only primitive ones */
				if (!leaf_layout(&probe, t->element))
					return refuse_type(w, f, t, err);
				c->path[c->npath++] = "key_value";
				st->child = 0;
				PM_TRY(walk_leaves(w, f, t->element, "key", false, c, def + 1, rep + 1, cols, n,
								   err));
				st->child = 1;
				PM_TRY(walk_leaves(w, f, &pm_multiset_count_type, "value", false, c, def + 1, rep + 1,
								   cols, n, err));
				c->npath--;
				break;
			}
		case PM_TYPE_ROW:
			for (int i = 0; i < t->nfields; i++)
			{
				st->child = i;
				PM_TRY(walk_leaves(w, f, t->fields[i].type, t->fields[i].name,
								   t->fields[i].type->nullable, c, def, rep, cols, n, err));
			}
			break;
		default:
			{
				pw_column	probe;

				if (!leaf_layout(&probe, t))
					return refuse_type(w, f, t, err);
				if (cols != NULL)
				{
					pw_column  *leaf = &cols[*n];

					leaf_layout(leaf, t);
					leaf->field = f;
					leaf->nsteps = c->nsteps;
					memcpy(leaf->steps, c->steps, sizeof(pw_step) * (size_t) c->nsteps);
					leaf->npath = c->npath;
					memcpy(leaf->path, c->path, sizeof(char *) * (size_t) c->npath);
					leaf->max_def = def;
					leaf->max_rep = rep;
				}
				(*n)++;
				break;
			}
	}
	c->nsteps--;
	c->npath--;
	return PM_OK;
}

static void
column_buffers_init(parquet_writer *w, pw_column *c)
{
	pm_byte_buffer_init(&c->values, w->env);
	pm_byte_buffer_init(&c->defs, w->env);
	pm_byte_buffer_init(&c->reps, w->env);
	pm_byte_buffer_init(&c->chunk, w->env);
	pm_byte_buffer_init(&c->page_bounds, w->env);
	pm_byte_buffer_init(&c->dict, w->env);
	pm_byte_buffer_init(&c->idx, w->env);
	pm_write_stats_init(&c->page, c->type, w->env);
	pm_write_stats_init(&c->chunk_stat, c->type, w->env);
	pm_write_stats_init(&c->file_stat, c->type, w->env);
	c->page_index_ok = true;
}

/* A TimeUnit union value as field id. */
static void
write_time_unit(pm_thrift_writer *t, int16_t id, int unit)
{
	pm_thrift_write_struct_begin(t, id);
	pm_thrift_write_struct_begin(t, (int16_t) unit);	/* MILLIS 1, MICROS 2 */
	pm_thrift_write_struct_end(t);
	pm_thrift_write_struct_end(t);
}

/* SchemaElement of a primitive column (as a list element). */
static void
write_primitive_element(pm_thrift_writer *t, const char *name, const pm_type *ty,
						bool nullable, int32_t field_id)
{
	pw_column	c_;
	pw_column  *c = &c_;
	int			converted = PM_PQ_CT_NONE;

	leaf_layout(c, ty);			/* checked when the leaves were collected */

	switch (ty->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			converted = PM_PQ_CT_UTF8;
			break;
		case PM_TYPE_TINYINT:
			converted = PM_PQ_CT_INT_8;
			break;
		case PM_TYPE_SMALLINT:
			converted = PM_PQ_CT_INT_16;
			break;
		case PM_TYPE_DECIMAL:
			converted = PM_PQ_CT_DECIMAL;
			break;
		case PM_TYPE_DATE:
			converted = PM_PQ_CT_DATE;
			break;
		case PM_TYPE_TIME:
			converted = PM_PQ_CT_TIME_MILLIS;
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (c->ts_unit == PM_PQ_UNIT_MILLIS)
				converted = PM_PQ_CT_TIMESTAMP_MILLIS;
			else if (c->ts_unit == PM_PQ_UNIT_MICROS)
				converted = PM_PQ_CT_TIMESTAMP_MICROS;
			break;
		default:
			break;
	}

	pm_thrift_write_elem_struct_begin(t);
	pm_thrift_write_i32_field(t, 1, c->physical);
	if (c->physical == PM_PQ_FIXED_LEN_BYTE_ARRAY)
		pm_thrift_write_i32_field(t, 2, c->type_length);
	pm_thrift_write_i32_field(t, 3, nullable ? PM_PQ_OPTIONAL : PM_PQ_REQUIRED);
	pm_thrift_write_binary_field(t, 4, name, (uint32_t) strlen(name));
	if (converted != PM_PQ_CT_NONE)
		pm_thrift_write_i32_field(t, 6, converted);
	if (ty->id == PM_TYPE_DECIMAL)
	{
		pm_thrift_write_i32_field(t, 7, ty->scale);
		pm_thrift_write_i32_field(t, 8, ty->precision);
	}
	pm_thrift_write_i32_field(t, 9, field_id);

	/* LogicalType union */
	switch (ty->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			pm_thrift_write_struct_begin(t, 10);
			pm_thrift_write_struct_begin(t, PM_PQ_LT_STRING);
			pm_thrift_write_struct_end(t);
			pm_thrift_write_struct_end(t);
			break;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
			pm_thrift_write_struct_begin(t, 10);
			pm_thrift_write_struct_begin(t, PM_PQ_LT_INTEGER);
			pm_thrift_write_byte_field(t, 1, ty->id == PM_TYPE_TINYINT ? 8 : 16);
			pm_thrift_write_bool_field(t, 2, true);
			pm_thrift_write_struct_end(t);
			pm_thrift_write_struct_end(t);
			break;
		case PM_TYPE_DECIMAL:
			pm_thrift_write_struct_begin(t, 10);
			pm_thrift_write_struct_begin(t, PM_PQ_LT_DECIMAL);
			pm_thrift_write_i32_field(t, 1, ty->scale);
			pm_thrift_write_i32_field(t, 2, ty->precision);
			pm_thrift_write_struct_end(t);
			pm_thrift_write_struct_end(t);
			break;
		case PM_TYPE_DATE:
			pm_thrift_write_struct_begin(t, 10);
			pm_thrift_write_struct_begin(t, PM_PQ_LT_DATE);
			pm_thrift_write_struct_end(t);
			pm_thrift_write_struct_end(t);
			break;
		case PM_TYPE_TIME:
			pm_thrift_write_struct_begin(t, 10);
			pm_thrift_write_struct_begin(t, PM_PQ_LT_TIME);
			pm_thrift_write_bool_field(t, 1, true);
			write_time_unit(t, 2, PM_PQ_UNIT_MILLIS);
			pm_thrift_write_struct_end(t);
			pm_thrift_write_struct_end(t);
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (c->ts_unit != 0)
			{
				pm_thrift_write_struct_begin(t, 10);
				pm_thrift_write_struct_begin(t, PM_PQ_LT_TIMESTAMP);
				pm_thrift_write_bool_field(t, 1, ty->id == PM_TYPE_TIMESTAMP_LTZ);
				write_time_unit(t, 2, c->ts_unit);
				pm_thrift_write_struct_end(t);
				pm_thrift_write_struct_end(t);
			}
			break;
		default:
			break;
	}
	pm_thrift_write_struct_end(t);
}

/* SchemaElement of a group: converted type and LogicalType member (or -1). */
static void
write_group_element(pm_thrift_writer *t, const char *name, int repetition, int nchildren,
					int converted, int logical, bool has_id, int32_t field_id)
{
	pm_thrift_write_elem_struct_begin(t);
	pm_thrift_write_i32_field(t, 3, repetition);
	pm_thrift_write_binary_field(t, 4, name, (uint32_t) strlen(name));
	pm_thrift_write_i32_field(t, 5, nchildren);
	if (converted != PM_PQ_CT_NONE)
		pm_thrift_write_i32_field(t, 6, converted);
	if (has_id)
		pm_thrift_write_i32_field(t, 9, field_id);
	if (logical > 0)
	{
		pm_thrift_write_struct_begin(t, 10);
		pm_thrift_write_struct_begin(t, (int16_t) logical);
		pm_thrift_write_struct_end(t);
		pm_thrift_write_struct_end(t);
	}
	pm_thrift_write_struct_end(t);
}

/*
 * Paimon's ids of nested elements (SpecialFields, Java int arithmetic):
 * base + id * 1024 + depth for array elements and map values, base - id *
 * 1024 - depth for map keys, base = Integer.MAX_VALUE / 4.
 */
static int32_t
nested_field_id(int32_t field_id, int depth, bool key)
{
	uint32_t	base = (uint32_t) (INT32_MAX / 4);
	uint32_t	off = (uint32_t) field_id * 1024u + (uint32_t) depth;

	return (int32_t) (key ? base - off : base + off);
}

/*
 * The SchemaElements of a field as ParquetSchemaConverter.convertToParquetType
 * (name, type, fieldId, depth) builds them: ARRAY a LIST group holding a
 * repeated group "list" holding "element"; MAP a MAP group holding a
 * repeated MAP_KEY_VALUE group "key_value" with a REQUIRED "key" and a
 * "value"; ROW a group of its fields (with their own ids, depth 0).
 */
static void
write_schema_node(pm_thrift_writer *t, const char *name, const pm_type *ty, bool nullable,
				  int32_t id, int32_t field_id, int depth)
{
	int			repetition = nullable ? PM_PQ_OPTIONAL : PM_PQ_REQUIRED;

	switch (ty->id)
	{
		case PM_TYPE_ARRAY:
			write_group_element(t, name, repetition, 1, PM_PQ_CT_LIST, PM_PQ_LT_LIST, true, id);
			write_group_element(t, "list", PM_PQ_REPEATED, 1, PM_PQ_CT_NONE, 0, false, 0);
			write_schema_node(t, "element", ty->element, ty->element->nullable,
							  nested_field_id(field_id, depth + 1, false), field_id, depth + 1);
			break;
		case PM_TYPE_MAP:
			write_group_element(t, name, repetition, 1, PM_PQ_CT_MAP, PM_PQ_LT_MAP, true, id);
			write_group_element(t, "key_value", PM_PQ_REPEATED, 2, PM_PQ_CT_MAP_KEY_VALUE, 0,
								false, 0);
			write_schema_node(t, "key", ty->element, false,
							  nested_field_id(field_id, depth + 1, true), field_id, depth + 1);
			write_schema_node(t, "value", ty->value, ty->value->nullable,
							  nested_field_id(field_id, depth + 1, false), field_id, depth + 1);
			break;
		case PM_TYPE_MULTISET:
			/* MAP<element NOT NULL, INT NOT NULL> of counts */
			write_group_element(t, name, repetition, 1, PM_PQ_CT_MAP, PM_PQ_LT_MAP, true, id);
			write_group_element(t, "key_value", PM_PQ_REPEATED, 2, PM_PQ_CT_MAP_KEY_VALUE, 0,
								false, 0);
			write_schema_node(t, "key", ty->element, false,
							  nested_field_id(field_id, depth + 1, true), field_id, depth + 1);
			write_schema_node(t, "value", &pm_multiset_count_type, false,
							  nested_field_id(field_id, depth + 1, false), field_id, depth + 1);
			break;
		case PM_TYPE_ROW:
			write_group_element(t, name, repetition, ty->nfields, PM_PQ_CT_NONE, 0, true, id);
			for (int i = 0; i < ty->nfields; i++)
				write_schema_node(t, ty->fields[i].name, ty->fields[i].type,
								  ty->fields[i].type->nullable, ty->fields[i].id,
								  ty->fields[i].id, 0);
			break;
		default:
			write_primitive_element(t, name, ty, nullable, id);
			break;
	}
}

/* Number of SchemaElements write_schema_node writes for a type. */
static int
schema_node_count(const pm_type *ty)
{
	int			n = 1;

	switch (ty->id)
	{
		case PM_TYPE_ARRAY:
			return 2 + schema_node_count(ty->element);
		case PM_TYPE_MAP:
			return 2 + schema_node_count(ty->element) + schema_node_count(ty->value);
		case PM_TYPE_MULTISET:
			return 2 + schema_node_count(ty->element) + 1;
		case PM_TYPE_ROW:
			for (int i = 0; i < ty->nfields; i++)
				n += schema_node_count(ty->fields[i].type);
			return n;
		default:
			return 1;
	}
}

/* ---------------------------------------------------------------- */
/* levels																*/
/* ---------------------------------------------------------------- */

/* Value i of an array of uint8 (levels) or uint32 (dictionary indexes). */
static inline uint32_t
rle_get(const void *v, int elem_size, int64_t i)
{
	return elem_size == 1 ? ((const uint8_t *) v)[i] : ((const uint32_t *) v)[i];
}

static int64_t
run_length(const void *v, int elem_size, int64_t i, int64_t n)
{
	uint32_t	x = rle_get(v, elem_size, i);
	int64_t		j = i + 1;

	while (j < n && rle_get(v, elem_size, j) == x)
		j++;
	return j - i;
}

/* Bits needed for values up to max (parquet's BytesUtils.getWidthFromMaxInt). */
static int
bit_width(uint32_t max)
{
	int			w = 0;

	while (max > 0)
	{
		w++;
		max >>= 1;
	}
	return w;
}

/*
 * RLE / bit-packed hybrid encoding of n values of bit width bw (0..32):
 * runs of 8 or more equal values as RLE runs (value in ceil(bw/8) bytes),
 * the rest as bit-packed groups of 8 values in bw bytes, LSB first (the
 * last group zero-padded). Levels and dictionary indexes both use it.
 */
static void
encode_rle(const void *v, int elem_size, int64_t n, int bw, pm_byte_buffer *out)
{
	int64_t		i = 0;

	while (i < n)
	{
		int64_t		r = run_length(v, elem_size, i, n);
		int64_t		start;
		int64_t		groups;

		if (r >= 8)
		{
			uint32_t	x = rle_get(v, elem_size, i);

			pm_byte_buffer_put_uvarint(out, (uint64_t) r << 1);
			for (int k = 0; k < (bw + 7) / 8; k++)
				pm_byte_buffer_put_u8(out, (uint8_t) (x >> (8 * k)));
			i += r;
			continue;
		}
		start = i;
		do
			i += 8;
		while (i < n && run_length(v, elem_size, i, n) < 8);
		if (i > n)
			i = n;
		groups = (i - start + 7) / 8;
		pm_byte_buffer_put_uvarint(out, ((uint64_t) groups << 1) | 1);
		if (!pm_byte_buffer_reserve(out, (size_t) (groups * bw)))
			return;
		{
			uint64_t	acc = 0;
			int			nbits = 0;

			for (int64_t p = start; p < start + groups * 8; p++)
			{
				uint64_t	x = p < i ? rle_get(v, elem_size, p) : 0;

				acc |= x << nbits;
				nbits += bw;
				while (nbits >= 8)
				{
					out->data[out->len++] = (uint8_t) acc;
					acc >>= 8;
					nbits -= 8;
				}
			}
		}
	}
}

/* ---------------------------------------------------------------- */
/* dictionary															*/
/* ---------------------------------------------------------------- */

/*
 * The dictionary's slot hash of a PLAIN value: 8 bytes at a time, each word
 * multiplied in and its high half folded down (slots take the low bits).
 * Only where entries sit in the hash table depends on it, not the
 * dictionary's order (first occurrence) nor any byte written.
 */
static inline uint64_t
hash_bytes(const uint8_t *p, size_t n)
{
	uint64_t	h = 0x9e3779b97f4a7c15ULL ^ n;
	uint64_t	x;

	for (; n >= 8; p += 8, n -= 8)
	{
		memcpy(&x, p, 8);
		h = (h ^ x) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (n > 0)
	{
		x = 0;
		memcpy(&x, p, n);
		h = (h ^ x) * 0xc4ceb9fe1a85ec53ULL;
		h ^= h >> 32;
	}
	return h ^ (h >> 29);
}

/* Empty the dictionary; on (again) if the options and the type allow it. */
static void
dict_reset(parquet_writer *w, pw_column *c)
{
	pm_byte_buffer_reset(&c->dict);
	c->dict_n = 0;
	if (c->slots != NULL)
		memset(c->slots, 0, sizeof(uint32_t) * c->nslots);
	c->dict_on = w->dictionary && c->kind != PW_K_BOOL;
	c->npages_dict = 0;
}

static bool
dict_grow_slots(parquet_writer *w, pw_column *c)
{
	uint32_t	n = c->nslots == 0 ? 1024 : c->nslots * 2;
	uint32_t   *ns = pm_alloc(w->env, sizeof(uint32_t) * n);

	if (ns == NULL)
		return false;
	memset(ns, 0, sizeof(uint32_t) * n);
	for (int32_t e = 0; e < c->dict_n; e++)
	{
		uint32_t	h = (uint32_t) hash_bytes(c->dict.data + c->dict_off[e],
										  c->dict_off[e + 1] - c->dict_off[e]) & (n - 1);

		while (ns[h] != 0)
			h = (h + 1) & (n - 1);
		ns[h] = (uint32_t) e + 1;
	}
	pm_free(w->env, c->slots);
	c->slots = ns;
	c->nslots = n;
	return true;
}

/*
 * Add the PLAIN encoding p[0..n) of one value to the dictionary and its
 * index to the page's. False on out-of-memory. Turns the dictionary off
 * when it would pass its size limit.
 */
static bool
dict_add(parquet_writer *w, pw_column *c, const uint8_t *p, size_t n)
{
	uint32_t	h;
	uint32_t	e;

	if ((uint64_t) (c->dict_n + 1) * 2 > c->nslots && !dict_grow_slots(w, c))
		return false;
	h = (uint32_t) hash_bytes(p, n) & (c->nslots - 1);
	while ((e = c->slots[h]) != 0)
	{
		uint32_t	o = c->dict_off[e - 1];

		if (c->dict_off[e] - o == n && memcmp(c->dict.data + o, p, n) == 0)
			break;
		h = (h + 1) & (c->nslots - 1);
	}
	if (e == 0)
	{
		if (c->dict.len + n > PW_DICT_PAGE_BYTES)
		{
			c->dict_on = false;	/* full: the rest of the chunk is PLAIN */
			return true;
		}
		if (c->dict_n + 2 > c->dict_cap)
		{
			int32_t		ncap = c->dict_cap == 0 ? 256 : c->dict_cap * 2;
			uint32_t   *no = pm_alloc(w->env, sizeof(uint32_t) * (size_t) ncap);

			if (no == NULL)
				return false;
			if (c->dict_n > 0)
				memcpy(no, c->dict_off, sizeof(uint32_t) * (size_t) (c->dict_n + 1));
			else
				no[0] = 0;
			pm_free(w->env, c->dict_off);
			c->dict_off = no;
			c->dict_cap = ncap;
		}
		if (c->dict_n == 0)
			c->dict_off[0] = 0;
		pm_byte_buffer_append(&c->dict, p, n);
		if (c->dict.failed)
			return false;
		c->dict_n++;
		c->dict_off[c->dict_n] = (uint32_t) c->dict.len;
		e = (uint32_t) c->dict_n;
		c->slots[h] = e;
	}
	{
		uint32_t	index = e - 1;

		pm_byte_buffer_append(&c->idx, &index, sizeof(index));
	}
	return !c->idx.failed;
}

/*
 * dict_add with the lookup of a value already in the dictionary inline (n
 * is a constant at most call sites, so hashing and comparing are a few
 * instructions); new values and growth go through dict_add.
 */
static inline __attribute__((always_inline)) bool
dict_add_inline(parquet_writer *w, pw_column *c, const uint8_t *p, size_t n)
{
	uint32_t	h;
	uint32_t	e;

	if ((uint64_t) (c->dict_n + 1) * 2 > c->nslots)
		return dict_add(w, c, p, n);
	h = (uint32_t) hash_bytes(p, n) & (c->nslots - 1);
	while ((e = c->slots[h]) != 0)
	{
		uint32_t	o = c->dict_off[e - 1];

		if (c->dict_off[e] - o == n && memcmp(c->dict.data + o, p, n) == 0)
		{
			uint32_t	index = e - 1;

			pm_byte_buffer_append(&c->idx, &index, sizeof(index));
			return !c->idx.failed;
		}
		h = (h + 1) & (c->nslots - 1);
	}
	return dict_add(w, c, p, n);
}

/* ---------------------------------------------------------------- */
/* pages, chunks, row groups											*/
/* ---------------------------------------------------------------- */

static pm_code
write_file(parquet_writer *w, const void *p, size_t n, pm_error *err)
{
	return pm_format_file_append(&w->file, p, n, err);
}

/* Compress body into *out (scratch arena). */
static pm_code
compress_page(parquet_writer *w, const uint8_t *src, size_t n, const uint8_t **out,
			  size_t *out_len, pm_error *err)
{
	uint8_t    *o;
	size_t		olen;

	switch (w->codec)
	{
		case PM_PQ_CODEC_UNCOMPRESSED:
			*out = src;
			*out_len = n;
			return PM_OK;
		case PM_PQ_CODEC_SNAPPY:
			PM_TRY(pm_codec_compress(PM_CODEC_SNAPPY, 0, src, n, w->scratch, &o, &olen, err));
			break;
		case PM_PQ_CODEC_GZIP:
			PM_TRY(pm_codec_compress(PM_CODEC_GZIP, 0, src, n, w->scratch, &o, &olen, err));
			break;
		case PM_PQ_CODEC_ZSTD:
			PM_TRY(pm_codec_compress(PM_CODEC_ZSTD, w->zstd_level, src, n, w->scratch,
									 &o, &olen, err));
			break;
		case PM_PQ_CODEC_LZ4:
			{
				/*
				 * Hadoop block framing as parquet-mr's LZ4 codec (Hadoop's
				 * Lz4Codec): per block of at most the codec's input size,
				 * big-endian raw length, big-endian compressed length, raw
				 * lz4 block.
				 */
				size_t		cap = n + n / 255 + 16 + 8 * (n / PW_HADOOP_LZ4_MAX_INPUT + 1) + 64;
				size_t		pos = 0;
				size_t		in = 0;

				o = pm_arena_alloc(w->scratch, cap);
				if (o == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory compressing a page");
				do
				{
					size_t		part = n - in < PW_HADOOP_LZ4_MAX_INPUT ? n - in : PW_HADOOP_LZ4_MAX_INPUT;
					uint8_t    *c;
					size_t		clen;

					PM_TRY(pm_codec_compress(PM_CODEC_LZ4_RAW, 0, src + in, part, w->scratch,
											 &c, &clen, err));
					if (pos + 8 + clen > cap)
						return pm_fail(err, PM_ERR_INVALID, "lz4 output larger than its bound");
					for (int k = 0; k < 4; k++)
						o[pos + (size_t) k] = (uint8_t) (part >> (24 - 8 * k));
					for (int k = 0; k < 4; k++)
						o[pos + 4 + (size_t) k] = (uint8_t) (clen >> (24 - 8 * k));
					memcpy(o + pos + 8, c, clen);
					pos += 8 + clen;
					in += part;
				} while (in < n);
				olen = pos;
				break;
			}
		default:
			return pm_fail(err, PM_ERR_INVALID, "unknown Parquet codec %d", w->codec);
	}
	*out = o;
	*out_len = olen;
	return PM_OK;
}

static bool
column_index_bound_ok(const pw_column *c, const pw_stat *s)
{
	return c->kind != PW_K_TS96 && !stat_nan(s);
}

/*
 * ColumnIndex bounds of binary columns cut to PW_INDEX_TRUNCATE bytes as
 * parquet-mr does (parquet.columnindex.truncate.length): the min to its
 * prefix, the max to its prefix with the last byte below 0xff incremented
 * (still an upper bound), or kept whole when the prefix is all 0xff.
 */
static void
truncate_bounds(uint8_t *bounds, pw_page *pg)
{
	if (pg->min_len > PW_INDEX_TRUNCATE)
		pg->min_len = PW_INDEX_TRUNCATE;
	if (pg->max_len > PW_INDEX_TRUNCATE)
	{
		uint8_t    *m = bounds + pg->max_off;

		for (int k = PW_INDEX_TRUNCATE - 1; k >= 0; k--)
		{
			if (m[k] != 0xff)
			{
				m[k]++;
				pg->max_len = (uint32_t) k + 1;
				break;
			}
		}
	}
}

/* Turn the current page of c into a compressed DATA_PAGE in its chunk. */
static pm_code
flush_page(parquet_writer *w, pw_column *c, pm_error *err)
{
	const uint8_t *comp;
	size_t		comp_len;
	uint32_t	crc;
	pm_thrift_writer t;
	pw_page    *pg;
	int64_t		nulls = c->page.nulls;
	bool		use_dict;

	if (c->page_values == 0)
		return PM_OK;

	/* body: [rep levels] [def levels], each with a 4-byte length, values */
	pm_byte_buffer_reset(&w->body);
	for (int which = 0; which < 2; which++)
	{
		int			max = which == 0 ? c->max_rep : c->max_def;
		size_t		at;
		uint32_t	len;

		if (max == 0)
			continue;
		pm_byte_buffer_put_le32(&w->body, 0);
		at = w->body.len;
		encode_rle(which == 0 ? c->reps.data : c->defs.data, 1, c->page_values,
				   bit_width((uint32_t) max), &w->body);
		if (w->body.failed)
			return oom(w, err);
		len = (uint32_t) (w->body.len - at);
		for (int k = 0; k < 4; k++)
			w->body.data[at - 4 + (size_t) k] = (uint8_t) (len >> (8 * k));
	}
	/*
	 * values: dictionary indexes (bit width byte + RLE/bit-packed) while the
	 * dictionary is on, unless on the chunk's first page they do not beat
	 * PLAIN (parquet-mr's isCompressionSatisfying); else PLAIN.
	 */
	use_dict = c->dict_on;
	if (use_dict)
	{
		size_t		at = w->body.len;
		int			bw = bit_width(c->dict_n > 0 ? (uint32_t) (c->dict_n - 1) : 0);

		pm_byte_buffer_put_u8(&w->body, (uint8_t) bw);
		encode_rle(c->idx.data, 4, (int64_t) (c->idx.len / 4), bw, &w->body);
		if (c->npages == 0 && (w->body.len - at) + c->dict.len >= c->values.len)
		{
			w->body.len = at;
			use_dict = false;
			c->dict_on = false;
		}
	}
	if (!use_dict)
		pm_byte_buffer_append(&w->body, c->values.data, c->values.len);
	if (w->body.failed || w->body.len > INT32_MAX)
	{
		if (!w->body.failed)
		{
			pm_fail(err, PM_ERR_UNSUPPORTED, "a Parquet page of column \"%s\" exceeds 2 GiB",
					c->field->name);
			return pm_format_file_fail(&w->file, err);
		}
		return oom(w, err);
	}

	pm_arena_reset(w->scratch);
	if (compress_page(w, w->body.data, w->body.len, &comp, &comp_len, err) != PM_OK)
	{
		return pm_format_file_fail(&w->file, err);
	}
	crc = (uint32_t) crc32(0L, comp, (uInt) comp_len);

	/* PageHeader */
	pm_byte_buffer_reset(&w->header);
	pm_thrift_writer_init(&t, &w->header);
	pm_thrift_write_i32_field(&t, 1, PM_PQ_PAGE_DATA);
	pm_thrift_write_i32_field(&t, 2, (int32_t) w->body.len);
	pm_thrift_write_i32_field(&t, 3, (int32_t) comp_len);
	pm_thrift_write_i32_field(&t, 4, (int32_t) crc);
	pm_thrift_write_struct_begin(&t, 5);
	pm_thrift_write_i32_field(&t, 1, (int32_t) c->page_values);
	pm_thrift_write_i32_field(&t, 2, use_dict ? PM_PQ_ENC_PLAIN_DICTIONARY : PM_PQ_ENC_PLAIN);
	pm_thrift_write_i32_field(&t, 3, c->max_def > 0 ? PM_PQ_ENC_RLE : PM_PQ_ENC_BIT_PACKED);
	pm_thrift_write_i32_field(&t, 4, c->max_rep > 0 ? PM_PQ_ENC_RLE : PM_PQ_ENC_BIT_PACKED);
	pm_thrift_write_struct_end(&t);
	pm_thrift_write_stop(&t);

	/* the page index entry */
	if (c->npages == c->pages_cap)
	{
		int			ncap = c->pages_cap == 0 ? 16 : c->pages_cap * 2;
		pw_page    *np = pm_alloc(w->env, sizeof(pw_page) * (size_t) ncap);

		if (np == NULL)
			return oom(w, err);
		if (c->npages > 0)
			memcpy(np, c->pages, sizeof(pw_page) * (size_t) c->npages);
		pm_free(w->env, c->pages);
		c->pages = np;
		c->pages_cap = ncap;
	}
	pg = &c->pages[c->npages++];
	pg->offset = (int64_t) c->chunk.len;
	pg->size = (int32_t) (w->header.len + comp_len);
	pg->first_row = c->chunk_rows;
	pg->nulls = nulls;
	pg->null_page = !c->page.any;
	pg->min_off = pg->min_len = pg->max_off = pg->max_len = 0;
	if (!column_index_bound_ok(c, &c->page))
		c->page_index_ok = false;
	else if (stat_has(&c->page))
	{
		pg->min_off = (uint32_t) c->page_bounds.len;
		encode_bound(c, &c->page, false, &c->page_bounds);
		pg->min_len = (uint32_t) c->page_bounds.len - pg->min_off;
		pg->max_off = (uint32_t) c->page_bounds.len;
		encode_bound(c, &c->page, true, &c->page_bounds);
		pg->max_len = (uint32_t) c->page_bounds.len - pg->max_off;
		if (c->kind == PW_K_BYTES && !c->page_bounds.failed)
			truncate_bounds(c->page_bounds.data, pg);
	}

	pm_byte_buffer_append(&c->chunk, w->header.data, w->header.len);
	pm_byte_buffer_append(&c->chunk, comp, comp_len);
	if (w->header.failed || c->chunk.failed || c->page_bounds.failed)
		return oom(w, err);
	c->chunk_values += c->page_values;
	c->chunk_rows += c->page_rows;
	c->chunk_uncompressed += (int64_t) (w->header.len + w->body.len);
	pm_write_stats_merge(&c->chunk_stat, &c->page);

	pm_byte_buffer_reset(&c->values);
	pm_byte_buffer_reset(&c->defs);
	pm_byte_buffer_reset(&c->reps);
	pm_byte_buffer_reset(&c->idx);
	if (use_dict)
		c->npages_dict++;
	c->page_values = 0;
	c->page_rows = 0;
	c->bool_bits = 0;
	pm_write_stats_reset(&c->page);
	return PM_OK;
}

/* Statistics struct of a chunk as field id. */
static void
write_statistics(parquet_writer *w, pm_thrift_writer *t, int16_t id, const pw_column *c)
{
	const pw_stat *s = &c->chunk_stat;
	bool		minmax = stat_has(s) && !stat_nan(s) && c->kind != PW_K_TS96;
	bool		legacy = minmax && c->physical != PM_PQ_BYTE_ARRAY &&
		c->physical != PM_PQ_FIXED_LEN_BYTE_ARRAY;
	size_t		min_len = 0;

	pm_byte_buffer_reset(&w->stat_buf);
	if (minmax)
	{
		encode_bound(c, s, false, &w->stat_buf);
		min_len = w->stat_buf.len;
		encode_bound(c, s, true, &w->stat_buf);
	}
	pm_thrift_write_struct_begin(t, id);
	if (legacy)
	{
		pm_thrift_write_binary_field(t, 1, w->stat_buf.data + min_len,
									 (uint32_t) (w->stat_buf.len - min_len));
		pm_thrift_write_binary_field(t, 2, w->stat_buf.data, (uint32_t) min_len);
	}
	pm_thrift_write_i64_field(t, 3, s->nulls);
	if (minmax)
	{
		pm_thrift_write_binary_field(t, 5, w->stat_buf.data + min_len,
									 (uint32_t) (w->stat_buf.len - min_len));
		pm_thrift_write_binary_field(t, 6, w->stat_buf.data, (uint32_t) min_len);
	}
	pm_thrift_write_struct_end(t);
}

/* Where a chunk and its indexes landed. */
typedef struct pw_chunk_pos
{
	int64_t		start;
	int64_t		dict_len;		/* dictionary page (header + body) at start, or 0 */
	int64_t		ci_offset;
	int32_t		ci_length;		/* 0: no ColumnIndex */
	int64_t		oi_offset;
	int32_t		oi_length;
} pw_chunk_pos;

static pm_code
write_column_index(parquet_writer *w, pw_column *c, pw_chunk_pos *pos, pm_error *err)
{
	pm_thrift_writer t;

	pos->ci_length = 0;
	if (!c->page_index_ok)
		return PM_OK;
	if (!pm_byte_buffer_reserve(&c->page_bounds, 1))	/* data non-NULL when all pages are NULL */
		return oom(w, err);
	pm_byte_buffer_reset(&w->header);
	pm_thrift_writer_init(&t, &w->header);
	pm_thrift_write_list_field(&t, 1, (uint32_t) c->npages, PM_TC_BOOL_TRUE);
	for (int i = 0; i < c->npages; i++)
		pm_thrift_write_bool(&t, c->pages[i].null_page);
	pm_thrift_write_list_field(&t, 2, (uint32_t) c->npages, PM_TC_BINARY);
	for (int i = 0; i < c->npages; i++)
		pm_thrift_write_binary(&t, c->page_bounds.data + c->pages[i].min_off, c->pages[i].min_len);
	pm_thrift_write_list_field(&t, 3, (uint32_t) c->npages, PM_TC_BINARY);
	for (int i = 0; i < c->npages; i++)
		pm_thrift_write_binary(&t, c->page_bounds.data + c->pages[i].max_off, c->pages[i].max_len);
	pm_thrift_write_i32_field(&t, 4, 0);	/* UNORDERED */
	pm_thrift_write_list_field(&t, 5, (uint32_t) c->npages, PM_TC_I64);
	for (int i = 0; i < c->npages; i++)
		pm_thrift_write_i64(&t, c->pages[i].nulls);
	pm_thrift_write_stop(&t);
	if (w->header.failed)
		return oom(w, err);
	pos->ci_offset = w->file.pos;
	pos->ci_length = (int32_t) w->header.len;
	return write_file(w, w->header.data, w->header.len, err);
}

static pm_code
write_offset_index(parquet_writer *w, pw_column *c, pw_chunk_pos *pos, pm_error *err)
{
	pm_thrift_writer t;

	pm_byte_buffer_reset(&w->header);
	pm_thrift_writer_init(&t, &w->header);
	pm_thrift_write_list_field(&t, 1, (uint32_t) c->npages, PM_TC_STRUCT);
	for (int i = 0; i < c->npages; i++)
	{
		pm_thrift_write_elem_struct_begin(&t);
		pm_thrift_write_i64_field(&t, 1, pos->start + pos->dict_len + c->pages[i].offset);
		pm_thrift_write_i32_field(&t, 2, c->pages[i].size);
		pm_thrift_write_i64_field(&t, 3, c->pages[i].first_row);
		pm_thrift_write_struct_end(&t);
	}
	pm_thrift_write_stop(&t);
	if (w->header.failed)
		return oom(w, err);
	pos->oi_offset = w->file.pos;
	pos->oi_length = (int32_t) w->header.len;
	return write_file(w, w->header.data, w->header.len, err);
}

/* ColumnChunk (list element) of c at pos into the footer's row groups. */
static void
write_column_chunk(parquet_writer *w, pm_thrift_writer *t, const pw_column *c,
				   const pw_chunk_pos *pos)
{
	int			npages_plain = c->npages - c->npages_dict;
	int			enc[4];
	int			nenc = 0;

	if (c->npages_dict > 0)
		enc[nenc++] = PM_PQ_ENC_PLAIN_DICTIONARY;
	if (npages_plain > 0)
		enc[nenc++] = PM_PQ_ENC_PLAIN;
	if (c->max_def > 0 || c->max_rep > 0)
		enc[nenc++] = PM_PQ_ENC_RLE;
	enc[nenc++] = PM_PQ_ENC_BIT_PACKED;

	pm_thrift_write_elem_struct_begin(t);
	pm_thrift_write_i64_field(t, 2, pos->start);
	pm_thrift_write_struct_begin(t, 3);
	{
		/* ColumnMetaData */
		pm_thrift_write_i32_field(t, 1, c->physical);
		pm_thrift_write_list_field(t, 2, (uint32_t) nenc, PM_TC_I32);
		for (int k = 0; k < nenc; k++)
			pm_thrift_write_i32(t, enc[k]);
		pm_thrift_write_list_field(t, 3, (uint32_t) c->npath, PM_TC_BINARY);
		for (int k = 0; k < c->npath; k++)
			pm_thrift_write_binary(t, c->path[k], (uint32_t) strlen(c->path[k]));
		pm_thrift_write_i32_field(t, 4, w->codec);
		pm_thrift_write_i64_field(t, 5, c->chunk_values);
		pm_thrift_write_i64_field(t, 6, c->chunk_uncompressed);
		pm_thrift_write_i64_field(t, 7, (int64_t) c->chunk.len + pos->dict_len);
		pm_thrift_write_i64_field(t, 9, pos->start + pos->dict_len);
		if (pos->dict_len > 0)
			pm_thrift_write_i64_field(t, 11, pos->start);
		write_statistics(w, t, 12, c);
		/* encoding_stats: pages per type and encoding */
		pm_thrift_write_list_field(t, 13, (uint32_t) ((c->npages_dict > 0 ? 2 : 0) +
													  (npages_plain > 0 ? 1 : 0)), PM_TC_STRUCT);
		if (c->npages_dict > 0)
		{
			pm_thrift_write_elem_struct_begin(t);
			pm_thrift_write_i32_field(t, 1, PM_PQ_PAGE_DICTIONARY);
			pm_thrift_write_i32_field(t, 2, PM_PQ_ENC_PLAIN_DICTIONARY);
			pm_thrift_write_i32_field(t, 3, 1);
			pm_thrift_write_struct_end(t);
			pm_thrift_write_elem_struct_begin(t);
			pm_thrift_write_i32_field(t, 1, PM_PQ_PAGE_DATA);
			pm_thrift_write_i32_field(t, 2, PM_PQ_ENC_PLAIN_DICTIONARY);
			pm_thrift_write_i32_field(t, 3, c->npages_dict);
			pm_thrift_write_struct_end(t);
		}
		if (npages_plain > 0)
		{
			pm_thrift_write_elem_struct_begin(t);
			pm_thrift_write_i32_field(t, 1, PM_PQ_PAGE_DATA);
			pm_thrift_write_i32_field(t, 2, PM_PQ_ENC_PLAIN);
			pm_thrift_write_i32_field(t, 3, npages_plain);
			pm_thrift_write_struct_end(t);
		}
	}
	pm_thrift_write_struct_end(t);
	pm_thrift_write_i64_field(t, 4, pos->oi_offset);
	pm_thrift_write_i32_field(t, 5, pos->oi_length);
	if (pos->ci_length > 0)
	{
		pm_thrift_write_i64_field(t, 6, pos->ci_offset);
		pm_thrift_write_i32_field(t, 7, pos->ci_length);
	}
	pm_thrift_write_struct_end(t);
}

/* The chunk's DICTIONARY_PAGE (PLAIN values), at pos->start. */
static pm_code
write_dictionary_page(parquet_writer *w, pw_column *c, pw_chunk_pos *pos, pm_error *err)
{
	const uint8_t *comp;
	size_t		comp_len;
	pm_thrift_writer t;

	if (compress_page(w, c->dict.data, c->dict.len, &comp, &comp_len, err) != PM_OK)
	{
		return pm_format_file_fail(&w->file, err);
	}
	pm_byte_buffer_reset(&w->header);
	pm_thrift_writer_init(&t, &w->header);
	pm_thrift_write_i32_field(&t, 1, PM_PQ_PAGE_DICTIONARY);
	pm_thrift_write_i32_field(&t, 2, (int32_t) c->dict.len);
	pm_thrift_write_i32_field(&t, 3, (int32_t) comp_len);
	pm_thrift_write_i32_field(&t, 4, (int32_t) (uint32_t) crc32(0L, comp, (uInt) comp_len));
	pm_thrift_write_struct_begin(&t, 7);
	pm_thrift_write_i32_field(&t, 1, c->dict_n);
	pm_thrift_write_i32_field(&t, 2, PM_PQ_ENC_PLAIN_DICTIONARY);
	pm_thrift_write_struct_end(&t);
	pm_thrift_write_stop(&t);
	if (w->header.failed)
		return oom(w, err);
	PM_TRY(write_file(w, w->header.data, w->header.len, err));
	PM_TRY(write_file(w, comp, comp_len, err));
	pos->dict_len = (int64_t) (w->header.len + comp_len);
	c->chunk_uncompressed += (int64_t) (w->header.len + c->dict.len);
	return PM_OK;
}

static pm_code
flush_row_group(parquet_writer *w, pm_error *err)
{
	pw_chunk_pos *pos;
	pm_thrift_writer t;
	int64_t		uncompressed = 0;
	int64_t		compressed = 0;
	int64_t		rg_start;

	for (int i = 0; i < w->ncols; i++)
		PM_TRY(flush_page(w, &w->cols[i], err));
	if (w->rg_rows == 0)
		return PM_OK;
	if (w->nrow_groups >= INT16_MAX)
	{
		pm_fail(err, PM_ERR_UNSUPPORTED, "too many Parquet row groups in one file");
		return pm_format_file_fail(&w->file, err);
	}

	pm_arena_reset(w->scratch);
	pos = pm_arena_alloc(w->scratch, sizeof(pw_chunk_pos) * (size_t) (w->ncols > 0 ? w->ncols : 1));
	if (pos == NULL)
		return oom(w, err);
	rg_start = w->file.pos;
	for (int i = 0; i < w->ncols; i++)
	{
		pw_column  *c = &w->cols[i];

		pos[i].start = w->file.pos;
		pos[i].dict_len = 0;
		if (c->npages_dict > 0)
			PM_TRY(write_dictionary_page(w, c, &pos[i], err));
		PM_TRY(write_file(w, c->chunk.data, c->chunk.len, err));
		uncompressed += c->chunk_uncompressed;
		compressed += (int64_t) c->chunk.len + pos[i].dict_len;
	}
	for (int i = 0; i < w->ncols; i++)
		PM_TRY(write_column_index(w, &w->cols[i], &pos[i], err));
	for (int i = 0; i < w->ncols; i++)
		PM_TRY(write_offset_index(w, &w->cols[i], &pos[i], err));

	/* RowGroup, appended to the footer's list */
	pm_thrift_writer_init(&t, &w->footer_rgs);
	pm_thrift_write_elem_struct_begin(&t);
	pm_thrift_write_list_field(&t, 1, (uint32_t) w->ncols, PM_TC_STRUCT);
	for (int i = 0; i < w->ncols; i++)
		write_column_chunk(w, &t, &w->cols[i], &pos[i]);
	pm_thrift_write_i64_field(&t, 2, uncompressed);
	pm_thrift_write_i64_field(&t, 3, w->rg_rows);
	pm_thrift_write_i64_field(&t, 5, rg_start);
	pm_thrift_write_i64_field(&t, 6, compressed);
	pm_thrift_write_field(&t, 7, PM_TC_I16);
	pm_byte_buffer_put_zigzag(&w->footer_rgs, w->nrow_groups);
	pm_thrift_write_struct_end(&t);
	if (w->footer_rgs.failed)
		return oom(w, err);

	for (int i = 0; i < w->ncols; i++)
	{
		pw_column  *c = &w->cols[i];

		pm_write_stats_merge(&c->file_stat, &c->chunk_stat);
		pm_write_stats_reset(&c->chunk_stat);
		pm_byte_buffer_reset(&c->chunk);
		pm_byte_buffer_reset(&c->page_bounds);
		c->chunk_values = 0;
		c->chunk_rows = 0;
		c->chunk_uncompressed = 0;
		c->npages = 0;
		c->page_index_ok = true;
		dict_reset(w, c);
	}
	w->nrow_groups++;
	w->total_rows += w->rg_rows;
	w->rg_rows = 0;
	return PM_OK;
}

static int64_t
buffered_bytes(parquet_writer *w)
{
	int64_t		n = 0;

	for (int i = 0; i < w->ncols; i++)
		n += (int64_t) (w->cols[i].chunk.len + w->cols[i].values.len + w->cols[i].dict.len) +
			w->cols[i].page_values / 8;
	return n;
}

/* ---------------------------------------------------------------- */
/* values																*/
/* ---------------------------------------------------------------- */

/* INT96 of a timestamp as ParquetRowDataWriter.timestampToInt96 builds it. */
static void
put_int96(pm_byte_buffer *b, int64_t micros, uint16_t nanos)
{
	int64_t		ms = pm_floor_div(micros, 1000);
	int64_t		nom = pm_floor_mod(micros, 1000) * 1000 + nanos;	/* nano of milli */
	int64_t		day = ms / 86400000;	/* Java's truncating / and % */
	int64_t		nod = (ms % 86400000) * 1000000 + nom;

	pm_byte_buffer_put_le64(b, (uint64_t) nod);
	pm_byte_buffer_put_le32(b, (uint32_t) (int32_t) (day + 2440588));
}

/* Append the PLAIN encoding of value i of leaf vector v to c's page. */
static void
put_value(parquet_writer *w, pw_column *c, const pm_vector *v, int64_t r)
{
	const pm_type *ty = c->type;
	pm_byte_buffer *b = &c->values;
	size_t		start = b->len;

	switch (ty->id)
	{
		case PM_TYPE_BOOLEAN:
			{
				uint8_t		x = PM_VEC_VALUES(v, uint8_t)[r] ? 1 : 0;

				if (c->bool_bits % 8 == 0)
					pm_byte_buffer_put_u8(b, 0);
				if (x && !b->failed)
					b->data[b->len - 1] |= (uint8_t) (1 << (c->bool_bits % 8));
				c->bool_bits++;
				pm_write_stats_add_i64(&c->page, x);
				break;
			}
		case PM_TYPE_TINYINT:
			{
				int32_t		x = PM_VEC_VALUES(v, int8_t)[r];

				pm_byte_buffer_put_le32(b, (uint32_t) x);
				pm_write_stats_add_i64(&c->page, x);
				break;
			}
		case PM_TYPE_SMALLINT:
			{
				int32_t		x = PM_VEC_VALUES(v, int16_t)[r];

				pm_byte_buffer_put_le32(b, (uint32_t) x);
				pm_write_stats_add_i64(&c->page, x);
				break;
			}
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			{
				int32_t		x = PM_VEC_VALUES(v, int32_t)[r];

				pm_byte_buffer_put_le32(b, (uint32_t) x);
				pm_write_stats_add_i64(&c->page, x);
				break;
			}
		case PM_TYPE_BIGINT:
			{
				int64_t		x = PM_VEC_VALUES(v, int64_t)[r];

				pm_byte_buffer_put_le64(b, (uint64_t) x);
				pm_write_stats_add_i64(&c->page, x);
				break;
			}
		case PM_TYPE_FLOAT:
			{
				float		x = PM_VEC_VALUES(v, float)[r];
				uint32_t	u;

				memcpy(&u, &x, 4);
				pm_byte_buffer_put_le32(b, u);
				pm_write_stats_add_f64(&c->page, x);
				break;
			}
		case PM_TYPE_DOUBLE:
			{
				double		x = PM_VEC_VALUES(v, double)[r];
				uint64_t	u;

				memcpy(&u, &x, 8);
				pm_byte_buffer_put_le64(b, u);
				pm_write_stats_add_f64(&c->page, x);
				break;
			}
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = PM_VEC_VALUES(v, pm_int128)[r];

				if (x >= c->dec_limit || x <= -c->dec_limit)
				{
					c->bad_value = true;	/* more digits than the precision */
					x = 0;
				}

				if (c->physical == PM_PQ_INT32)
					pm_byte_buffer_put_le32(b, (uint32_t) (int32_t) x);
				else if (c->physical == PM_PQ_INT64)
					pm_byte_buffer_put_le64(b, (uint64_t) (int64_t) x);
				else
				{
					uint8_t		t[16];

					decimal_be(x, c->type_length, t);
					pm_byte_buffer_append(b, t, (size_t) c->type_length);
				}
				pm_write_stats_add_i128(&c->page, x);
				break;
			}
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		us = PM_VEC_VALUES(v, int64_t)[r];
				uint16_t	ns = v->nanos != NULL ? v->nanos[r] : 0;

				if (c->ts_unit == PM_PQ_UNIT_MILLIS)
				{
					int64_t		ms = pm_floor_div(us, 1000);

					pm_byte_buffer_put_le64(b, (uint64_t) ms);
					pm_write_stats_add_i64(&c->page, ms);
				}
				else if (c->ts_unit == PM_PQ_UNIT_MICROS)
				{
					pm_byte_buffer_put_le64(b, (uint64_t) us);
					pm_write_stats_add_i64(&c->page, us);
				}
				else
				{
					put_int96(b, us, ns);
					pm_write_stats_add_ts(&c->page, us, ns);
				}
				break;
			}
		default:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, r, &len);

				pm_byte_buffer_put_le32(b, (uint32_t) len);
				pm_byte_buffer_append(b, p, (size_t) len);
				pm_write_stats_add_bytes(&c->page, p, (size_t) len);
				break;
			}
	}
	if (c->dict_on && !b->failed && !dict_add(w, c, b->data + start, b->len - start))
		c->dict.failed = true;
}

static pm_code
null_violation(parquet_writer *w, pw_column *c, bool key, pm_error *err)
{
	if (key)
		pm_fail(err, PM_ERR_INVALID, "NULL map key in column \"%s\"", c->field->name);
	else
		pm_fail(err, PM_ERR_INVALID, "NULL value in non-nullable column \"%s\"",
				c->field->name);
	return pm_format_file_fail(&w->file, err);
}

/* One level entry (and the value when defined to the leaf). */
static inline void
emit(parquet_writer *w, pw_column *c, int rep, int def, const pm_vector *v, int64_t i)
{
	if (c->max_rep > 0)
		pm_byte_buffer_put_u8(&c->reps, (uint8_t) rep);
	if (c->max_def > 0)
		pm_byte_buffer_put_u8(&c->defs, (uint8_t) def);
	c->page_values++;
	if (def == c->max_def)
		put_value(w, c, v, i);
	else
		c->page.nulls++;
}

static pm_code shred(parquet_writer *w, pw_column *c, int s, const pm_vector *v, int64_t i,
					 int rep, int def, int rep_here, pm_error *err);

/*
 * A MULTISET value as Java writes it, a map from each distinct element (in
 * order of first occurrence) to its count (pm_multiset_count's grouping).
 */
static pm_code
shred_multiset(parquet_writer *w, pw_column *c, int s, const pm_vector *v, int64_t i,
			   int rep, int def, int rep_here, pm_error *err)
{
	const pw_step *st = &c->steps[s];
	const pm_vector *elems = &v->children[0];
	int32_t		from = v->offsets[i];
	int32_t		to = v->offsets[i + 1];
	bool		first = true;

	if (to == from)
	{
		emit(w, c, rep, def, v, i);
		return PM_OK;
	}
	for (int32_t j = from; j < to; j++)
	{
		int32_t		count = pm_multiset_count(elems, from, to, j);

		if (count == 0)
			continue;
		if (st->child == 0)
			PM_TRY(shred(w, c, s + 1, elems, j, first ? rep : rep_here + 1, def + 1,
						 rep_here + 1, err));
		else
		{
			pm_vector	cv;

			memset(&cv, 0, sizeof(cv));
			cv.type = &pm_multiset_count_type;
			cv.length = 1;
			cv.values = &count;
			emit(w, c, first ? rep : rep_here + 1, def + 1, &cv, 0);
		}
		first = false;
	}
	return PM_OK;
}

/*
 * Dremel shredding of value i of vector v at step s of leaf c: rep is the
 * repetition level of the first entry, def the definition level reached
 * above this step.
 */
static pm_code
shred(parquet_writer *w, pw_column *c, int s, const pm_vector *v, int64_t i, int rep,
	  int def, int rep_here, pm_error *err)
{
	const pw_step *st = &c->steps[s];

	if (pm_vector_is_null(v, i))
	{
		if (!st->nullable)
			return null_violation(w, c, s > 0 && c->steps[s - 1].type->id == PM_TYPE_MAP &&
								  c->steps[s - 1].child == 0, err);
		emit(w, c, rep, def, v, i);
		return PM_OK;
	}
	if (st->nullable)
		def++;
	switch (st->type->id)
	{
		case PM_TYPE_ROW:
			return shred(w, c, s + 1, &v->children[st->child], i, rep, def, rep_here, err);
		case PM_TYPE_MULTISET:
			return shred_multiset(w, c, s, v, i, rep, def, rep_here, err);
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
			{
				int32_t		from = v->offsets[i];
				int32_t		to = v->offsets[i + 1];
				const pm_vector *child = &v->children[st->type->id == PM_TYPE_MAP ? st->child : 0];

				if (to == from)
				{
					emit(w, c, rep, def, v, i);	/* empty: defined up to the group */
					return PM_OK;
				}
				for (int32_t j = from; j < to; j++)
					PM_TRY(shred(w, c, s + 1, child, j, j == from ? rep : rep_here + 1,
								 def + 1, rep_here + 1, err));
				return PM_OK;
			}
		default:
			emit(w, c, rep, def, v, i);
			return PM_OK;
	}
}

/* Append rows [start, start + n) of top-level vector v to leaf c, flushing full pages. */
/* After a row of c: the page ends when it is full. */
#define END_ROW() \
	do { \
		c->page_rows++; \
		if ((int64_t) (c->values.len + (c->defs.len + c->reps.len) / 8) >= w->page_bytes || \
			c->page_rows >= PW_PAGE_ROW_LIMIT) \
		{ \
			if (c->values.failed || c->defs.failed || c->reps.failed || c->dict.failed || \
				c->idx.failed) \
				return oom(w, err); \
			PM_TRY(flush_page(w, c, err)); \
		} \
	} while (0)

/*
 * Rows start..start+n-1 of a top-level primitive column (shred() in short),
 * with PUT the value of row r: one loop per type, so the value's encoding,
 * statistics and dictionary lookup are inline, not a type switch per value.
 */
#define FLAT_LOOP(PUT) \
	for (int64_t r = start; r < start + n; r++) \
	{ \
		if (v->nulls != NULL && v->nulls[r] != 0) \
		{ \
			if (!c->steps[0].nullable) \
				return null_violation(w, c, false, err); \
			pm_byte_buffer_put_u8(&c->defs, 0);	/* max_def is 1 */ \
			c->page_values++; \
			c->page.nulls++; \
		} \
		else \
		{ \
			if (c->max_def > 0) \
				pm_byte_buffer_put_u8(&c->defs, 1); \
			c->page_values++; \
			PUT; \
		} \
		if (c->bad_value) \
			break; \
		END_ROW(); \
	}

/* PLAIN bytes just appended from `at` on: to the dictionary while it is on. */
#define TO_DICT(at, len) \
	do { \
		if (c->dict_on && !b->failed && !dict_add_inline(w, c, b->data + (at), (len))) \
			c->dict.failed = true; \
	} while (0)

/* An INT32 column of ctype values: PLAIN little-endian, stats, dictionary. */
#define FLAT_INT32(ctype) \
	FLAT_LOOP( \
		{ \
			int32_t		x = PM_VEC_VALUES(v, ctype)[r]; \
			size_t		at = b->len; \
			\
			pm_byte_buffer_put_le32(b, (uint32_t) x); \
			pm_write_stats_add_i64(&c->page, x); \
			TO_DICT(at, 4); \
		})

static pm_code
append_flat(parquet_writer *w, pw_column *c, const pm_vector *v, int64_t start, int64_t n,
			pm_error *err)
{
	pm_byte_buffer *b = &c->values;

	switch (c->type->id)
	{
		case PM_TYPE_TINYINT:
			FLAT_INT32(int8_t);
			break;
		case PM_TYPE_SMALLINT:
			FLAT_INT32(int16_t);
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			FLAT_INT32(int32_t);
			break;
		case PM_TYPE_BIGINT:
			FLAT_LOOP(
				{
					int64_t		x = PM_VEC_VALUES(v, int64_t)[r];
					size_t		at = b->len;

					pm_byte_buffer_put_le64(b, (uint64_t) x);
					pm_write_stats_add_i64(&c->page, x);
					TO_DICT(at, 8);
				});
			break;
		case PM_TYPE_DOUBLE:
			FLAT_LOOP(
				{
					double		x = PM_VEC_VALUES(v, double)[r];
					uint64_t	u;
					size_t		at = b->len;

					memcpy(&u, &x, 8);
					pm_byte_buffer_put_le64(b, u);
					pm_write_stats_add_f64(&c->page, x);
					TO_DICT(at, 8);
				});
			break;
		case PM_TYPE_DECIMAL:
			if (c->physical != PM_PQ_INT64)
			{
				FLAT_LOOP(put_value(w, c, v, r));
				break;
			}
			FLAT_LOOP(
				{
					pm_int128	x = PM_VEC_VALUES(v, pm_int128)[r];
					size_t		at = b->len;

					if (x >= c->dec_limit || x <= -c->dec_limit)
					{
						c->bad_value = true;	/* more digits than the precision */
						x = 0;
					}
					pm_byte_buffer_put_le64(b, (uint64_t) (int64_t) x);
					pm_write_stats_add_i128(&c->page, x);
					TO_DICT(at, 8);
				});
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			FLAT_LOOP(
				{
					int32_t		len;
					const uint8_t *p = pm_vector_bytes(v, r, &len);
					size_t		at = b->len;

					if (pm_byte_buffer_reserve(b, 4 + (size_t) len))
					{
						pm_byte_buffer_put_le32(b, (uint32_t) len);
						if (len > 0)
						{
							memcpy(b->data + b->len, p, (size_t) len);
							b->len += (size_t) len;
						}
					}
					pm_write_stats_add_bytes(&c->page, p, (size_t) len);
					TO_DICT(at, b->len - at);
				});
			break;
		default:
			FLAT_LOOP(put_value(w, c, v, r));
			break;
	}
	return PM_OK;
}

static pm_code
append_column(parquet_writer *w, pw_column *c, const pm_vector *v, int64_t start, int64_t n,
			  pm_error *err)
{
	if (c->nsteps == 1)
		PM_TRY(append_flat(w, c, v, start, n, err));
	else
		for (int64_t r = start; r < start + n; r++)
		{
			PM_TRY(shred(w, c, 0, v, r, 0, 0, 0, err));
			if (c->bad_value)
				break;
			END_ROW();
		}
	if (c->values.failed || c->defs.failed || c->reps.failed || c->page.min_bytes.failed ||
		c->page.max_bytes.failed || c->dict.failed || c->idx.failed)
		return oom(w, err);
	if (c->bad_value)
	{
		pm_fail(err, PM_ERR_INVALID, "column \"%s\": value out of range for DECIMAL(%d, %d)",
				c->field->name, c->type->precision, c->type->scale);
		return pm_format_file_fail(&w->file, err);
	}
	return PM_OK;
}

/* ---------------------------------------------------------------- */
/* the writer interface													*/
/* ---------------------------------------------------------------- */

static void
writer_free(parquet_writer *w)
{
	const pm_env *env = w->env;

	if (w->cols != NULL)
	{
		for (int i = 0; i < w->ncols; i++)
		{
			pw_column  *c = &w->cols[i];

			if (c->values.env == NULL)
				continue;		/* buffers never set up */
			pm_byte_buffer_free(&c->values);
			pm_byte_buffer_free(&c->defs);
			pm_byte_buffer_free(&c->reps);
			pm_byte_buffer_free(&c->dict);
			pm_byte_buffer_free(&c->idx);
			pm_free(env, c->dict_off);
			pm_free(env, c->slots);
			pm_byte_buffer_free(&c->chunk);
			pm_byte_buffer_free(&c->page_bounds);
			pm_write_stats_free(&c->page);
			pm_write_stats_free(&c->chunk_stat);
			pm_write_stats_free(&c->file_stat);
			pm_free(env, c->pages);
		}
		pm_free(env, w->cols);
	}
	pm_free(env, w->top_first);
	pm_free(env, w->top_nulls);
	pm_byte_buffer_free(&w->footer_rgs);
	pm_byte_buffer_free(&w->body);
	pm_byte_buffer_free(&w->header);
	pm_byte_buffer_free(&w->stat_buf);
	if (w->scratch != NULL)
		pm_arena_destroy(w->scratch);
	pm_format_file_close(&w->file, env);
	pm_free(env, w);
}

static void
pw_abort(pm_format_writer *base)
{
	writer_free((parquet_writer *) base);
}

/*
 * Rows to append before the next row-group size check: PW_SLICE_ROWS for
 * small rows, fewer when the rows seen so far say that many would pass
 * half the room left in the row group (parquet-mr also checks adaptively),
 * so big rows cannot overshoot row_group_bytes by more than half of it.
 */
static int64_t
slice_rows(parquet_writer *w)
{
	int64_t		buffered = buffered_bytes(w);
	int64_t		per_row;
	int64_t		room;

	if (w->rg_rows > 0)
		per_row = buffered / w->rg_rows + 1;
	else if (w->total_rows > 0)
		per_row = w->file.pos / w->total_rows + 1;
	else
		return 1;				/* nothing known yet: measure one row */
	room = (w->row_group_bytes - buffered) / 2 / per_row;
	return room < 1 ? 1 : (room > PW_SLICE_ROWS ? PW_SLICE_ROWS : room);
}

static pm_code
pw_write(pm_format_writer *base, const pm_batch *batch, pm_error *err)
{
	parquet_writer *w = (parquet_writer *) base;

	if (w->file.failed)
	{
		pm_fail(err, PM_ERR_INVALID, "Parquet writer used after a failure");
		pm_error_set_path(err, w->file.path);
		return err->code;
	}
	if (pm_format_writer_check_batch(w->schema, batch, "a Parquet", err) != PM_OK)
	{
		pm_error_set_path(err, w->file.path);
		return err->code;
	}
	PM_TRY(pm_check_interrupts(w->env, err));
	for (int64_t start = 0, n; start < batch->nrows; start += n)
	{
		n = slice_rows(w);
		if (n > batch->nrows - start)
			n = batch->nrows - start;

		for (int i = 0; i < w->ntop; i++)
		{
			const pm_vector *v = &batch->cols[i];

			if (v->nulls != NULL)
			{
				/* in locals: stores through w may alias (-fno-strict-aliasing) */
				const uint8_t *nulls = v->nulls;
				int64_t		k = 0;

				for (int64_t r = start; r < start + n; r++)
					k += nulls[r] != 0;
				w->top_nulls[i] += k;
			}
			for (int j = w->top_first[i]; j < w->top_first[i + 1]; j++)
				PM_TRY(append_column(w, &w->cols[j], v, start, n, err));
		}
		w->rg_rows += n;
		if (buffered_bytes(w) >= w->row_group_bytes)
			PM_TRY(flush_row_group(w, err));
	}
	return PM_OK;
}

static int64_t
pw_estimated_size(pm_format_writer *base)
{
	parquet_writer *w = (parquet_writer *) base;

	return w->file.pos + buffered_bytes(w);
}

/* A column's file statistics as the result's pm_column_stats. */
static bool
result_stats(const pw_column *c, pm_arena *arena, pm_column_stats *out)
{
	if (!pm_write_stats_result(&c->file_stat, arena, out))
		return false;
	if (!out->has_min_max)
		out->min.is_null = out->max.is_null = true;
	else if (c->ts_unit == PM_PQ_UNIT_MILLIS)
	{
		/* the values as they read back: micros */
		out->min.u.i64 *= 1000;
		out->max.u.i64 *= 1000;
	}
	return true;
}

static pm_code
write_footer(parquet_writer *w, pm_error *err)
{
	pm_byte_buffer *b = &w->body;
	pm_thrift_writer t;
	uint32_t	len;

	pm_byte_buffer_reset(b);
	pm_thrift_writer_init(&t, b);
	pm_thrift_write_i32_field(&t, 1, 1);
	{
		int			nodes = 1;

		for (int i = 0; i < w->ntop; i++)
			nodes += schema_node_count(w->schema->fields[i].type);
		pm_thrift_write_list_field(&t, 2, (uint32_t) nodes, PM_TC_STRUCT);
	}
	pm_thrift_write_elem_struct_begin(&t);
	pm_thrift_write_binary_field(&t, 4, "paimon_schema", 13);
	pm_thrift_write_i32_field(&t, 5, w->ntop);
	pm_thrift_write_struct_end(&t);
	for (int i = 0; i < w->ntop; i++)
	{
		const pm_field *f = &w->schema->fields[i];

		write_schema_node(&t, f->name, f->type, f->type->nullable, f->id, f->id, 0);
	}
	pm_thrift_write_i64_field(&t, 3, w->total_rows);
	pm_thrift_write_list_field(&t, 4, (uint32_t) w->nrow_groups, PM_TC_STRUCT);
	pm_byte_buffer_append(b, w->footer_rgs.data, w->footer_rgs.len);
	pm_thrift_write_binary_field(&t, 6, PW_CREATED_BY, (uint32_t) strlen(PW_CREATED_BY));
	pm_thrift_write_list_field(&t, 7, (uint32_t) w->ncols, PM_TC_STRUCT);
	for (int i = 0; i < w->ncols; i++)
	{
		/* ColumnOrder { TYPE_ORDER: TypeDefinedOrder {} } */
		pm_thrift_write_elem_struct_begin(&t);
		pm_thrift_write_struct_begin(&t, 1);
		pm_thrift_write_struct_end(&t);
		pm_thrift_write_struct_end(&t);
	}
	pm_thrift_write_stop(&t);
	if (b->failed || b->len > UINT32_MAX)
		return oom(w, err);
	len = (uint32_t) b->len;
	pm_byte_buffer_put_le32(b, len);
	pm_byte_buffer_append(b, "PAR1", 4);
	if (b->failed)
		return oom(w, err);
	return write_file(w, b->data, b->len, err);
}

static pm_code
pw_finish(pm_format_writer *base, pm_arena *arena, pm_format_write_result *result,
		  pm_error *err)
{
	parquet_writer *w = (parquet_writer *) base;
	pm_code		rc = PM_OK;

	memset(result, 0, sizeof(*result));
	if (w->file.failed)
	{
		rc = pm_fail(err, PM_ERR_INVALID, "Parquet writer finished after a failure");
		pm_error_set_path(err, w->file.path);
	}
	if (rc == PM_OK)
		rc = flush_row_group(w, err);
	if (rc == PM_OK)
		rc = write_footer(w, err);
	if (rc == PM_OK)
	{
		result->stats = pm_arena_zalloc(arena, sizeof(pm_column_stats) *
										(size_t) (w->ntop > 0 ? w->ntop : 1));
		if (result->stats == NULL)
			rc = oom(w, err);
		for (int i = 0; rc == PM_OK && i < w->ntop; i++)
		{
			const pw_column *c = &w->cols[w->top_first[i]];

			if (w->top_first[i + 1] - w->top_first[i] == 1 && c->nsteps == 1)
			{
				if (!result_stats(c, arena, &result->stats[i]))
					rc = oom(w, err);
			}
			else
			{
				/* nested: no min/max, NULLs of the field itself */
				result->stats[i].has_min_max = false;
				result->stats[i].min.is_null = result->stats[i].max.is_null = true;
				result->stats[i].null_count = w->top_nulls[i];
			}
		}
	}
	if (rc == PM_OK)
		rc = pm_format_file_finish(&w->file, err);
	if (rc != PM_OK)
	{
		memset(result, 0, sizeof(*result));
		pw_abort(base);
		return rc;
	}
	result->row_count = w->total_rows;
	result->file_size = w->file.pos;
	result->ncols = w->ntop;
	writer_free(w);
	return PM_OK;
}

static const pm_format_writer_ops parquet_writer_ops = {
	.write = pw_write,
	.estimated_size = pw_estimated_size,
	.finish = pw_finish,
	.abort = pw_abort,
};

static pm_code
codec_from_name(const char *name, int *codec)
{
	if (name == NULL || name[0] == '\0' || strcasecmp(name, "none") == 0 ||
		strcasecmp(name, "uncompressed") == 0)
		*codec = PM_PQ_CODEC_UNCOMPRESSED;
	else if (strcasecmp(name, "zstd") == 0)
		*codec = PM_PQ_CODEC_ZSTD;
	else if (strcasecmp(name, "snappy") == 0)
		*codec = PM_PQ_CODEC_SNAPPY;
	else if (strcasecmp(name, "gzip") == 0)
		*codec = PM_PQ_CODEC_GZIP;
	else if (strcasecmp(name, "lz4") == 0)
		*codec = PM_PQ_CODEC_LZ4;
	else
		return PM_ERR_UNSUPPORTED;
	return PM_OK;
}

bool
pm_parquet_writer_takes_compression(const char *name)
{
	int			codec;

	return codec_from_name(name, &codec) == PM_OK;
}

pm_code
pm_parquet_writer_open(const pm_env *env, pm_fileio *io, const char *path,
					   const pm_format_write_options *options,
					   pm_format_writer **out, pm_error *err)
{
	parquet_writer *w;
	const pm_type *schema = options->schema;
	pm_code		rc;

	*out = NULL;
	if (schema == NULL || schema->id != PM_TYPE_ROW)
	{
		rc = pm_fail(err, PM_ERR_INVALID, "Parquet writer needs a ROW schema");
		pm_error_set_path(err, path);
		return rc;
	}
	w = pm_alloc(env, sizeof(parquet_writer));
	if (w == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a Parquet writer");
	memset(w, 0, sizeof(*w));
	w->base.ops = &parquet_writer_ops;
	w->env = env;
	if (!pm_format_file_init(&w->file, env, io, path, "a Parquet file"))
	{
		pm_free(env, w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a Parquet writer");
	}
	w->schema = schema;
	pm_byte_buffer_init(&w->footer_rgs, env);
	pm_byte_buffer_init(&w->body, env);
	pm_byte_buffer_init(&w->header, env);
	pm_byte_buffer_init(&w->stat_buf, env);
	w->scratch = pm_arena_create(env);
	w->ntop = schema->nfields;
	w->top_first = pm_alloc(env, sizeof(int) * (size_t) (w->ntop + 1));
	w->top_nulls = pm_alloc(env, sizeof(int64_t) * (size_t) (w->ntop + 1));
	if (w->scratch == NULL || w->top_first == NULL || w->top_nulls == NULL)
	{
		writer_free(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a Parquet writer");
	}
	memset(w->top_nulls, 0, sizeof(int64_t) * (size_t) (w->ntop + 1));

	/* the leaf columns: count, then fill */
	{
		pw_column  *walk = pm_alloc(env, sizeof(pw_column));
		int			n = 0;

		if (walk == NULL)
		{
			writer_free(w);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a Parquet writer");
		}
		memset(walk, 0, sizeof(pw_column));
		for (int pass = 0; pass < 2; pass++)
		{
			n = 0;
			for (int i = 0; i < w->ntop; i++)
			{
				const pm_field *f = &schema->fields[i];

				w->top_first[i] = n;
				rc = walk_leaves(w, f, f->type, f->name, f->type->nullable, walk, 0, 0,
								 pass == 0 ? NULL : w->cols, &n, err);
				if (rc != PM_OK)
				{
					pm_free(env, walk);
					writer_free(w);
					return rc;
				}
			}
			w->top_first[w->ntop] = n;
			if (pass == 0)
			{
				w->cols = pm_alloc(env, sizeof(pw_column) * (size_t) (n > 0 ? n : 1));
				if (w->cols == NULL)
				{
					pm_free(env, walk);
					writer_free(w);
					return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a Parquet writer");
				}
				memset(w->cols, 0, sizeof(pw_column) * (size_t) (n > 0 ? n : 1));
			}
		}
		pm_free(env, walk);
		w->ncols = n;
		for (int i = 0; i < n; i++)
			column_buffers_init(w, &w->cols[i]);
	}

	if (codec_from_name(options->compression, &w->codec) != PM_OK)
	{
		rc = pm_fail(err, PM_ERR_UNSUPPORTED, "compression \"%s\" is not supported for Parquet files",
					 options->compression);
		pm_error_set_path(err, path);
		writer_free(w);
		return rc;
	}
	w->zstd_level = options->zstd_level != 0 ? options->zstd_level : 1;
	w->row_group_bytes = options->row_group_bytes > 0 ? options->row_group_bytes :
		PW_DEFAULT_ROW_GROUP_BYTES;
	w->page_bytes = options->page_bytes > 0 ? options->page_bytes : PW_DEFAULT_PAGE_BYTES;
	w->dictionary = options->dictionary;
	for (int i = 0; i < w->ncols; i++)
		dict_reset(w, &w->cols[i]);

	rc = pm_format_file_create(&w->file, err);
	if (rc == PM_OK)
		rc = write_file(w, "PAR1", 4, err);
	if (rc != PM_OK)
	{
		pw_abort(&w->base);
		return rc;
	}
	*out = &w->base;
	return PM_OK;
}
