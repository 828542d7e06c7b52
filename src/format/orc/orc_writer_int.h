/*-------------------------------------------------------------------------
 * orc_writer_int.h
 *	  The ORC writer's private state, shared by its two halves:
 *	  orc_column_write.c (a column's setup and the encoding of its values
 *	  into per-stripe stream buffers, stats and bloom filters) and
 *	  orc_writer.c (stripe, index and file assembly). Not for other callers:
 *	  they use orc_writer.h.
 *
 * Must not include Postgres headers.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_WRITER_INT_H
#define PM_FORMAT_ORC_WRITER_INT_H

#include "codec/codec.h"
#include "common/byte_buffer.h"
#include "format/orc/orc_bloom.h"
#include "format/orc/orc_col_stats.h"
#include "format/orc/orc_dict.h"
#include "format/orc/orc_encode.h"
#include "format/orc/orc_int.h"
#include "format/orc/orc_writer.h"
#include "format/write_stats.h"

#define OW_BLOCK_SIZE		(256 * 1024)	/* orc.compress.size */
#define OW_STRIPE_BYTES		(INT64_C(64) * 1024 * 1024) /* orc.stripe.size */
#define OW_BASE_SECONDS		INT64_C(1420070400) /* 2015-01-01 00:00:00 UTC */
#define OW_WRITER_VERSION	9	/* OrcFile.WriterVersion.ORC_14 (ORC 1.9) */
#define OW_CALENDAR_JULIAN_GREGORIAN 1
#define OW_SLICE_ROWS		1024	/* write-batch-size: rows between size checks */
#define OW_ROW_INDEX_STRIDE	10000	/* orc.row.index.stride default */
#define OW_MIN_ROW_INDEX_STRIDE 1000	/* WriterImpl.MIN_ROW_INDEX_STRIDE */
#define OW_MAX_POSITIONS	14		/* PRESENT 4 + DATA 4 + LENGTH/SECONDARY 3 + 3 */
#define OW_BLOOM_ENCODING	1	/* BloomFilterIO.Encoding.CURRENT (UTF8_UTC) */

/*
 * Where a row group starts in a column's streams: uncompressed offsets and
 * the encoders' state (values buffered in the current run, bits of the
 * current boolean byte), as ORC's getPosition records them; turned into
 * RowIndexEntry positions once the stripe's streams are compressed.
 */
typedef struct orc_group_pos
{
	uint64_t	present_u;
	int32_t		present_n;
	int32_t		present_bits;
	uint64_t	data_u;
	int32_t		data_n;
	int32_t		data_bits;
	uint64_t	length_u;
	int32_t		length_n;
	uint64_t	secondary_u;
	int32_t		secondary_n;
	int64_t		dict_values;	/* dictionary: values of the stripe before */
	uint32_t	stats_off;		/* the group's ColumnStatistics in group_stats */
	uint32_t	stats_len;
} orc_group_pos;

/* the compressed streams of a column in the stripe buffer */
enum
{
	OW_PRESENT, OW_DATA, OW_LENGTH, OW_SECONDARY, OW_NSTREAMS
};

/* a string column's encoding (StringBaseTreeWriter.useDictionaryEncoding) */
enum
{
	DICT_NO,					/* DIRECT_V2 */
	DICT_UNDECIDED,				/* values kept in the dictionary until the check */
	DICT_YES					/* DICTIONARY_V2 */
};

typedef struct orc_col
{
	const pm_type *type;
	const char *name;			/* ROW field name; NULL for elements, keys, values */
	int32_t		paimon_id;		/* attribute paimon.id (OrcTypeUtil.convertToOrcType) */
	int			subtree;		/* columns of its subtree, itself included */
	int			kind;			/* orc_kind */
	int			encoding;		/* orc_encoding */
	pm_byte_buffer present;
	pm_byte_buffer data;
	pm_byte_buffer length;
	pm_byte_buffer secondary;
	bool		has_length;
	bool		has_secondary;
	orc_bool_enc present_enc;
	bool		stripe_nulls;	/* a NULL in this stripe: PRESENT is written */
	orc_bool_enc bool_enc;
	orc_byte_rle_enc byte_enc;
	orc_int_rle_enc *ienc;		/* DATA integers */
	orc_int_rle_enc *lenc;		/* LENGTH */
	orc_int_rle_enc *senc;		/* SECONDARY */
	orc_acc		stripe_acc;
	orc_acc		file_acc;
	orc_acc		group_acc;
	orc_group_pos cur;			/* where the open row group starts */
	pm_byte_buffer groups;		/* orc_group_pos of the stripe's closed groups */
	pm_byte_buffer group_stats;
	size_t		soff[OW_NSTREAMS];	/* compressed streams in stripe_buf */
	size_t		slen[OW_NSTREAMS];
	pm_byte_buffer fit;			/* a CHAR/VARCHAR value padded or cut */
	int32_t		fit_offsets[2];
	pm_vector	fit_vec;
	/* STRING/CHAR/VARCHAR: the stripe's dictionary, once per file decided */
	int			dict_state;		/* DICT_* */
	orc_dict	dict;
	orc_int_rle_enc *dict_enc;	/* DATA of DICTIONARY_V2: the sorted ids */
	pm_byte_buffer dict_data;	/* DICTIONARY_DATA */
	/* orc.bloom.filter.columns: the open row group's filter */
	bool		bloom;
	orc_bloom	bf;
	pm_byte_buffer blooms;		/* the stripe's BloomFilter messages */
} orc_col;

typedef struct orc_writer
{
	pm_format_writer base;
	pm_format_file file;		/* io, out, path, bytes written, failed */
	const pm_env *env;
	const pm_type *schema;
	pm_codec	codec;
	int			compression;	/* orc_compression */
	int			level;
	int64_t		stripe_bytes;
	int			ncols;			/* every column but the root, in pre-order */
	orc_col    *cols;			/* cols[i] is ORC column i + 1 */
	int			nfields;		/* the schema's fields */
	int		   *top;			/* the column of each field */
	int64_t		stripe_rows;
	int64_t		group_rows;		/* rows of the open row group */
	int64_t		stride;			/* orc.row.index.stride: rows per row group */
	pm_byte_buffer root_groups; /* int64_t rows of each closed group */
	pm_byte_buffer index_buf;	/* the stripe's index streams */
	int64_t		total_rows;
	bool		has_timestamp;
	pm_byte_buffer stripe_buf;	/* the stripe being written */
	pm_byte_buffer msg;			/* message scratch */
	pm_byte_buffer sub;			/* nested message scratch */
	pm_byte_buffer stripe_infos;	/* Footer field 3, encoded */
	pm_byte_buffer stripe_stats;	/* Metadata field 1, encoded */
	pm_arena   *scratch;
	pm_arena   *multiset_arena; /* MULTISET values as maps, reset per slice */
	double		dict_threshold; /* orc.dictionary.key.threshold */
	bool		root_bloom;		/* orc.bloom.filter.columns = "*": the root too */
	orc_bloom	root_bf;		/* stays empty: a struct adds no value */
	pm_byte_buffer root_blooms;
	int32_t		bloom_nbits;
	int32_t		bloom_nhash;
} orc_writer;

/* Free a column's buffers and encoders (not c itself). */
extern void orc_col_free(const pm_env *env, orc_col *c);

/* Whether any of a column's buffers failed to grow (out of memory). */
extern bool orc_col_buffers_failed(const orc_col *c);

/*
 * OrcUtils.includeColumns for the fields: whether field `field` of
 * `schema` is named by `list` ("*" or comma-separated names).
 */
extern bool orc_field_listed(const char *list, const pm_type *schema, int field);

/*
 * Set up one column of type `type` (c->name, c->paimon_id set by the
 * caller): its ORC kind, encoders, stats and bloom filter; `direct`: no
 * dictionary (orc.column.encoding.direct), `bloom`: a bloom filter.
 * PM_OK, PM_ERR_UNSUPPORTED for types not written, PM_ERR_NOMEM.
 */
extern pm_code orc_col_init(orc_writer *w, orc_col *c, const pm_type *type, bool direct,
							bool bloom, pm_error *err);

/*
 * Encode rows [start, end) of v into the streams, stats and bloom filter
 * of a column of a flat type (not STRUCT, LIST or MAP).
 */
extern void orc_col_write(orc_col *c, const pm_vector *v, int64_t start, int64_t end);
/*
 * Row i of v into the column's PRESENT stream; a NULL is counted in the
 * row group's, stripe's and file's statistics. Returns whether it is a value.
 */
extern bool orc_col_put_present(orc_col *c, const pm_vector *v, int64_t i);

/* orc_nested_write.c: is an ORC kind one of STRUCT, LIST, MAP */
static inline bool
orc_kind_nested(int kind)
{
	return kind == ORC_STRUCT || kind == ORC_LIST || kind == ORC_MAP;
}

/*
 * Set up w->cols, w->top (w->ncols, w->nfields) for w->schema: the
 * columns in pre-order, as ORC numbers them. PM_OK, PM_ERR_UNSUPPORTED,
 * PM_ERR_NOMEM.
 */
extern pm_code orc_cols_init(orc_writer *w, const pm_orc_write_options *oo, pm_error *err);

/*
 * Whether the nested vectors under v (n rows of field `name`) hold
 * together: children present, offsets rising within their children.
 */
extern pm_code orc_check_vector(const pm_vector *v, const pm_type *type, int64_t n,
								const char *name, pm_error *err);

/*
 * Encode rows [start, end) of v into column ci and its subtree (children
 * get the values of the non-null rows, as ORC's Struct/List/MapTreeWriter).
 */
extern void orc_tree_write(orc_writer *w, int ci, const pm_vector *v, int64_t start,
						   int64_t end);

#endif							/* PM_FORMAT_ORC_WRITER_INT_H */
