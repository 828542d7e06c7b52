/*-------------------------------------------------------------------------
 * parquet_metadata.h
 *	  Parquet footer (FileMetaData) and page headers decoded into C structs.
 *
 * Only what the reader uses is kept: the schema tree (with definition and
 * repetition levels per node), row groups and their column chunks with
 * their statistics (raw bytes, interpreted by parquet_stats.c), where
 * their page indexes lie (decoded by parquet_page_index.c) and the file's
 * column orders. The rest (key/value metadata, ...) is skipped.
 *
 * Spec: apache/parquet-format src/main/thrift/parquet.thrift.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_METADATA_H
#define PM_FORMAT_PARQUET_PARQUET_METADATA_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"

/* parquet.thrift enums (on disk: never renumber) */
typedef enum pm_pq_physical
{
	PM_PQ_BOOLEAN = 0,
	PM_PQ_INT32 = 1,
	PM_PQ_INT64 = 2,
	PM_PQ_INT96 = 3,
	PM_PQ_FLOAT = 4,
	PM_PQ_DOUBLE = 5,
	PM_PQ_BYTE_ARRAY = 6,
	PM_PQ_FIXED_LEN_BYTE_ARRAY = 7
} pm_pq_physical;

#define PM_PQ_REQUIRED	0
#define PM_PQ_OPTIONAL	1
#define PM_PQ_REPEATED	2

/* ConvertedType */
#define PM_PQ_CT_NONE				(-1)
#define PM_PQ_CT_UTF8				0
#define PM_PQ_CT_MAP				1
#define PM_PQ_CT_MAP_KEY_VALUE		2
#define PM_PQ_CT_LIST				3
#define PM_PQ_CT_ENUM				4
#define PM_PQ_CT_DECIMAL			5
#define PM_PQ_CT_DATE				6
#define PM_PQ_CT_TIME_MILLIS		7
#define PM_PQ_CT_TIME_MICROS		8
#define PM_PQ_CT_TIMESTAMP_MILLIS	9
#define PM_PQ_CT_TIMESTAMP_MICROS	10
#define PM_PQ_CT_UINT_8				11
#define PM_PQ_CT_UINT_16			12
#define PM_PQ_CT_UINT_32			13
#define PM_PQ_CT_UINT_64			14
#define PM_PQ_CT_INT_8				15
#define PM_PQ_CT_INT_16				16
#define PM_PQ_CT_INT_32				17
#define PM_PQ_CT_INT_64				18
#define PM_PQ_CT_JSON				19

/* LogicalType union member ids */
#define PM_PQ_LT_NONE		0
#define PM_PQ_LT_STRING		1
#define PM_PQ_LT_MAP		2
#define PM_PQ_LT_LIST		3
#define PM_PQ_LT_ENUM		4
#define PM_PQ_LT_DECIMAL	5
#define PM_PQ_LT_DATE		6
#define PM_PQ_LT_TIME		7
#define PM_PQ_LT_TIMESTAMP	8
#define PM_PQ_LT_INTEGER	10
#define PM_PQ_LT_UNKNOWN	11
#define PM_PQ_LT_JSON		12

/* TimeUnit */
#define PM_PQ_UNIT_NONE		0
#define PM_PQ_UNIT_MILLIS	1
#define PM_PQ_UNIT_MICROS	2
#define PM_PQ_UNIT_NANOS	3

/* Encoding */
#define PM_PQ_ENC_PLAIN					0
#define PM_PQ_ENC_PLAIN_DICTIONARY		2
#define PM_PQ_ENC_RLE					3
#define PM_PQ_ENC_BIT_PACKED			4
#define PM_PQ_ENC_DELTA_BINARY_PACKED	5
#define PM_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY 6
#define PM_PQ_ENC_DELTA_BYTE_ARRAY		7
#define PM_PQ_ENC_RLE_DICTIONARY		8
#define PM_PQ_ENC_BYTE_STREAM_SPLIT		9

/* CompressionCodec */
#define PM_PQ_CODEC_UNCOMPRESSED	0
#define PM_PQ_CODEC_SNAPPY			1
#define PM_PQ_CODEC_GZIP			2
#define PM_PQ_CODEC_LZO				3
#define PM_PQ_CODEC_BROTLI			4
#define PM_PQ_CODEC_LZ4				5
#define PM_PQ_CODEC_ZSTD			6
#define PM_PQ_CODEC_LZ4_RAW			7

/* PageType */
#define PM_PQ_PAGE_DATA			0
#define PM_PQ_PAGE_INDEX		1
#define PM_PQ_PAGE_DICTIONARY	2
#define PM_PQ_PAGE_DATA_V2		3

/* Limits on what a footer may describe (hostile input). */
#define PM_PQ_MAX_SCHEMA_DEPTH	64
#define PM_PQ_MAX_FOOTER_SIZE	((uint32_t) 256 << 20)

typedef struct pm_pq_node pm_pq_node;

struct pm_pq_node
{
	const char *name;			/* NUL-terminated */
	int			physical;		/* pm_pq_physical, -1 for a group */
	int32_t		type_length;	/* FIXED_LEN_BYTE_ARRAY */
	int			repetition;		/* PM_PQ_REQUIRED/OPTIONAL/REPEATED */
	int			converted;		/* PM_PQ_CT_*, or PM_PQ_CT_NONE */
	int32_t		scale;
	int32_t		precision;
	bool		has_field_id;
	int32_t		field_id;
	/* logical type annotation */
	int			logical;		/* PM_PQ_LT_* */
	int			lt_unit;		/* TIME/TIMESTAMP: PM_PQ_UNIT_* */
	bool		lt_utc;
	int			lt_bit_width;	/* INTEGER */
	bool		lt_signed;
	int32_t		lt_scale;
	int32_t		lt_precision;
	/* tree */
	pm_pq_node *parent;
	int			nchildren;
	pm_pq_node **children;
	int			depth;			/* root 0 */
	int			max_def;		/* non-REQUIRED nodes from root (excl.) to here */
	int			max_rep;		/* REPEATED nodes from root (excl.) to here */
	int			leaf_index;		/* column index for leaves, else -1 */
};

/* Statistics of a column chunk as stored (PLAIN bytes; NULL = absent). */
typedef struct pm_pq_stats
{
	const uint8_t *min_value;	/* 6: min_value, in the column order */
	uint32_t	min_value_len;
	const uint8_t *max_value;	/* 5: max_value */
	uint32_t	max_value_len;
	const uint8_t *min;			/* 2: deprecated min, signed comparison */
	uint32_t	min_len;
	const uint8_t *max;			/* 1: deprecated max */
	uint32_t	max_len;
	int64_t		null_count;		/* 3: -1 if absent */
} pm_pq_stats;

typedef struct pm_pq_chunk
{
	int			physical;
	int			codec;			/* PM_PQ_CODEC_* */
	int64_t		num_values;
	int64_t		total_compressed_size;
	int64_t		data_page_offset;
	int64_t		dictionary_page_offset;	/* 0 if none */
	bool		has_meta;
	bool		has_stats;
	pm_pq_stats stats;
	/* page indexes (ColumnChunk fields 4..7): length 0 = absent */
	int64_t		offset_index_offset;
	int32_t		offset_index_length;
	int64_t		column_index_offset;
	int32_t		column_index_length;
} pm_pq_chunk;

typedef struct pm_pq_row_group
{
	int64_t		num_rows;
	int			ncolumns;
	pm_pq_chunk *columns;		/* by leaf index */
} pm_pq_row_group;

typedef struct pm_pq_metadata
{
	int32_t		version;
	int64_t		num_rows;
	pm_pq_node *root;
	int			nnodes;
	int			nleaves;
	pm_pq_node **leaves;		/* by leaf index */
	int			nrow_groups;
	pm_pq_row_group *row_groups;
	const char *created_by;		/* may be NULL */
	/*
	 * column_orders: per leaf, true when its order is TYPE_ORDER (the only
	 * one defined); NULL when the footer has none (min_value/max_value
	 * then mean nothing).
	 */
	int			ncolumn_orders;
	const bool *type_defined_order;
} pm_pq_metadata;

/*
 * A parsed footer as the metadata cache keeps it (PM_META_PARQUET_METADATA,
 * by path and size), in an arena of its own (of pm_env_default(): it
 * outlives every query).
 */
typedef struct pm_pq_cached_metadata
{
	pm_arena   *arena;
	pm_pq_metadata md;
} pm_pq_cached_metadata;

/* First byte of a chunk (its dictionary page, if any, comes first). */
static inline int64_t
pm_pq_chunk_start(const pm_pq_chunk *ch)
{
	int64_t		start = ch->data_page_offset;

	if (ch->dictionary_page_offset > 0 && ch->dictionary_page_offset < start)
		start = ch->dictionary_page_offset;
	return start;
}

typedef struct pm_pq_page_header
{
	int			type;			/* PM_PQ_PAGE_* */
	int32_t		uncompressed_size;
	int32_t		compressed_size;
	int32_t		num_values;
	int			encoding;
	int			def_encoding;
	int			rep_encoding;
	/* DATA_PAGE_V2 */
	int32_t		num_nulls;
	int32_t		num_rows;
	int32_t		def_levels_len;
	int32_t		rep_levels_len;
	bool		is_compressed;
	bool		has_data_header;
	size_t		header_len;		/* bytes of the Thrift header */
} pm_pq_page_header;

/*
 * Decode the footer `buf` (the Thrift FileMetaData, len bytes) into arena.
 * `file_size` bounds the chunk offsets. PM_ERR_CORRUPT on anything the
 * spec does not allow; err->path is left to the caller.
 */
extern pm_code pm_pq_metadata_parse(const uint8_t *buf, size_t len, uint64_t file_size,
									pm_arena *arena, pm_pq_metadata *md, pm_error *err);

/* Decode a page header at buf (at most len bytes). */
extern pm_code pm_pq_page_header_parse(const uint8_t *buf, size_t len,
									   pm_pq_page_header *ph, pm_error *err);

#endif							/* PM_FORMAT_PARQUET_PARQUET_METADATA_H */
