/*-------------------------------------------------------------------------
 * orc_int.h
 *	  Internals shared by the ORC reader's files: the decoded file tail
 *	  (orc_proto.c), and the stream decoders (orc_stream.c).
 *
 * Not an interface for other layers: format/orc/orc_reader.h is.
 *
 * Spec: Apache ORC specification v1 (orc.apache.org/specification/ORCv1),
 * orc_proto.proto for the message field numbers.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_INT_H
#define PM_FORMAT_ORC_ORC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/codec.h"
#include "common/arena.h"
#include "common/error.h"
#include "format/orc/orc_bloom.h"

/* orc_proto.proto Type.Kind. On disk: never renumber. */
typedef enum orc_kind
{
	ORC_BOOLEAN = 0,
	ORC_BYTE = 1,
	ORC_SHORT = 2,
	ORC_INT = 3,
	ORC_LONG = 4,
	ORC_FLOAT = 5,
	ORC_DOUBLE = 6,
	ORC_STRING = 7,
	ORC_BINARY = 8,
	ORC_TIMESTAMP = 9,
	ORC_LIST = 10,
	ORC_MAP = 11,
	ORC_STRUCT = 12,
	ORC_UNION = 13,
	ORC_DECIMAL = 14,
	ORC_DATE = 15,
	ORC_VARCHAR = 16,
	ORC_CHAR = 17,
	ORC_TIMESTAMP_INSTANT = 18
} orc_kind;

/* Stream.Kind. On disk: never renumber. */
typedef enum orc_stream_kind
{
	ORC_S_PRESENT = 0,
	ORC_S_DATA = 1,
	ORC_S_LENGTH = 2,
	ORC_S_DICTIONARY_DATA = 3,
	ORC_S_DICTIONARY_COUNT = 4,
	ORC_S_SECONDARY = 5,
	ORC_S_ROW_INDEX = 6,
	ORC_S_BLOOM_FILTER = 7,
	ORC_S_BLOOM_FILTER_UTF8 = 8
} orc_stream_kind;

#define ORC_NSTREAM_SLOTS 6		/* PRESENT..SECONDARY, by kind */

/* ColumnEncoding.Kind. */
typedef enum orc_encoding
{
	ORC_E_DIRECT = 0,
	ORC_E_DICTIONARY = 1,
	ORC_E_DIRECT_V2 = 2,
	ORC_E_DICTIONARY_V2 = 3
} orc_encoding;

/* PostScript.CompressionKind. */
typedef enum orc_compression
{
	ORC_C_NONE = 0,
	ORC_C_ZLIB = 1,
	ORC_C_SNAPPY = 2,
	ORC_C_LZO = 3,
	ORC_C_LZ4 = 4,
	ORC_C_ZSTD = 5
} orc_compression;

typedef struct orc_type
{
	int			kind;			/* orc_kind */
	int			nsubtypes;
	uint32_t   *subtypes;		/* column ids, each > this type's id */
	char	  **names;			/* STRUCT: nsubtypes field names */
	uint32_t	max_length;
	uint32_t	precision;
	uint32_t	scale;
} orc_type;

typedef struct orc_stripe_info
{
	uint64_t	offset;
	uint64_t	index_length;
	uint64_t	data_length;
	uint64_t	footer_length;
	uint64_t	nrows;
} orc_stripe_info;

typedef struct orc_footer
{
	uint64_t	nrows;
	int			nstripes;
	orc_stripe_info *stripes;
	int			ntypes;
	orc_type   *types;
	uint64_t	row_index_stride;	/* 8: rows per row group; 0 = no row index */
} orc_footer;

typedef struct orc_postscript
{
	uint64_t	footer_length;
	uint64_t	compression;	/* orc_compression */
	uint64_t	block_size;
	uint64_t	metadata_length;
} orc_postscript;

typedef struct orc_stream_info
{
	int			kind;			/* orc_stream_kind */
	uint32_t	column;
	uint64_t	length;
} orc_stream_info;

typedef struct orc_stripe_footer
{
	int			nstreams;
	orc_stream_info *streams;
	int			ncolumns;
	int		   *encodings;		/* orc_encoding per column */
	uint32_t   *dict_sizes;		/* per column */
	uint32_t   *bloom_encodings;	/* per column: 0 original, 1 UTF8_UTC */
	char	   *writer_timezone;	/* "" if absent */
} orc_stripe_footer;

/*
 * ColumnStatistics of one column of one stripe, as far as pruning uses
 * them (Metadata.stripeStats[i].colStats[column id]). Bytes point into the
 * decompressed metadata section.
 */
typedef struct orc_col_stats
{
	bool		has_nvalues;
	uint64_t	nvalues;		/* 1: numberOfValues (non-null values) */
	bool		has_int;		/* 2: IntegerStatistics min and max */
	int64_t		int_min;
	int64_t		int_max;
	bool		has_double;		/* 3: DoubleStatistics min and max */
	double		double_min;
	double		double_max;
	const uint8_t *str_min;		/* 4: StringStatistics minimum or lowerBound */
	uint32_t	str_min_len;
	const uint8_t *str_max;		/* maximum or upperBound */
	uint32_t	str_max_len;
	const uint8_t *dec_min;		/* 6: DecimalStatistics, decimal text */
	uint32_t	dec_min_len;
	const uint8_t *dec_max;
	uint32_t	dec_max_len;
	bool		has_date;		/* 7: DateStatistics min and max */
	int32_t		date_min;
	int32_t		date_max;
} orc_col_stats;

typedef struct orc_stripe_stats
{
	int			ncols;
	orc_col_stats *cols;		/* by column id */
} orc_stripe_stats;

/*
 * One RowIndexEntry of a ROW_INDEX stream: where the column's streams stand
 * at the start of a row group (positions, per stream in the order the
 * column's tree reader seeks them) and the group's statistics.
 */
typedef struct orc_row_index_entry
{
	int			npos;
	uint64_t   *pos;
	bool		has_stats;
	orc_col_stats stats;
} orc_row_index_entry;

/* orc_proto.c: hand-written decoders of the protobuf messages above */
/*
 * Metadata (the stripe statistics section): *nstripes entries. Statistics
 * it cannot decode are left absent (pruning then keeps the stripe); only a
 * malformed message structure is an error.
 */
extern pm_code orc_parse_metadata(const uint8_t *buf, size_t len, pm_arena *arena,
								  int *nstripes, orc_stripe_stats **out, pm_error *err);
extern pm_code orc_parse_postscript(const uint8_t *buf, size_t len, orc_postscript *ps,
									pm_error *err);
extern pm_code orc_parse_footer(const uint8_t *buf, size_t len, pm_arena *arena,
								orc_footer *footer, pm_error *err);
extern pm_code orc_parse_stripe_footer(const uint8_t *buf, size_t len, pm_arena *arena,
									   orc_stripe_footer *sf, pm_error *err);
/*
 * A BLOOM_FILTER_UTF8 stream's BloomFilterIndex: *n filters in arena, one
 * per row group. A filter without a usable utf8bitset (missing, empty, not
 * a multiple of 8 bytes, too large) or hash count (0, over 1000) has
 * nbits = 0: it rejects nothing.
 */
extern pm_code orc_parse_bloom_index(const uint8_t *buf, size_t len, pm_arena *arena, int *n,
									 orc_bloom **out, pm_error *err);

/*
 * A ROW_INDEX stream's RowIndex: *n entries in arena, one per row group.
 * Statistics it cannot decode are left absent (has_stats false).
 */
extern pm_code orc_parse_row_index(const uint8_t *buf, size_t len, pm_arena *arena, int *n,
								   orc_row_index_entry **out, pm_error *err);

/*
 * orc_stream.c: the compression framing. Decompress the chunks of one
 * stream (buf, len) into a contiguous buffer in arena; with NONE the input is
 * returned as is. Output is bounded by max_out.
 */
extern pm_code orc_decompress_stream(int compression, uint64_t block_size,
									 const uint8_t *buf, size_t len, pm_arena *arena,
									 size_t max_out, const uint8_t **out, size_t *out_len,
									 pm_error *err);
/* A decompressed stream being read. */
typedef struct orc_bytes
{
	const uint8_t *p;
	const uint8_t *end;
} orc_bytes;

/* Byte run-length decoder (also the base of booleans). */
typedef struct orc_byte_rle
{
	orc_bytes	in;
	int			remaining;		/* values left in the current run */
	bool		repeat;			/* run: `value` repeated; else literals at in.p */
	uint8_t		value;
} orc_byte_rle;

typedef struct orc_bool_rle
{
	orc_byte_rle bytes;
	uint8_t		cur;
	int			bits_left;
} orc_bool_rle;

#define ORC_MAX_RUN 512

/* Integer run-length decoder, version 1 or 2. */
typedef struct orc_int_rle
{
	orc_bytes	in;
	bool		v2;
	bool		is_signed;
	int			nlit;
	int			pos;
	int64_t    *lit;			/* ORC_MAX_RUN values, allocated by the caller */
} orc_int_rle;

extern void orc_byte_rle_init(orc_byte_rle *d, const uint8_t *p, size_t len);
extern pm_code orc_byte_rle_read(orc_byte_rle *d, uint8_t *out, int64_t n, pm_error *err);
extern void orc_bool_rle_init(orc_bool_rle *d, const uint8_t *p, size_t len);
extern pm_code orc_bool_rle_read(orc_bool_rle *d, uint8_t *out, int64_t n, pm_error *err);
extern void orc_int_rle_init(orc_int_rle *d, const uint8_t *p, size_t len, bool v2,
							 bool is_signed);
extern pm_code orc_int_rle_read(orc_int_rle *d, int64_t *out, int64_t n, pm_error *err);

/*
 * Seeks to a RowIndexEntry position: restart the decoder at byte `off` of
 * its stream (p, len), then skip `skip` values (byte RLE, integer RLE) as
 * ORC's readers' seek(PositionProvider) does; booleans skip `skip` bytes of
 * the byte RLE, then `bits` bits of the next byte (BitFieldReader.seek).
 */
extern pm_code orc_byte_rle_seek(orc_byte_rle *d, const uint8_t *p, size_t len, uint64_t off,
								 uint64_t skip, pm_error *err);
extern pm_code orc_bool_rle_seek(orc_bool_rle *d, const uint8_t *p, size_t len, uint64_t off,
								 uint64_t skip, uint64_t bits, pm_error *err);
extern pm_code orc_int_rle_seek(orc_int_rle *d, const uint8_t *p, size_t len, uint64_t off,
								uint64_t skip, pm_error *err);

/* Varints of the DECIMAL DATA stream: zigzag, up to 128 bits. */
extern pm_code orc_read_varint128(orc_bytes *in, __int128 *out, pm_error *err);

#endif							/* PM_FORMAT_ORC_ORC_INT_H */
