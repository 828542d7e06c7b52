/*-------------------------------------------------------------------------
 * parquet_encoding.h
 *	  Decoders of Parquet's value and level encodings.
 *
 * Each takes (buf, len) and a count, checks every length against what is
 * left, and writes into caller-provided arrays (sized by the caller from
 * counts that were themselves checked against the page size). They return
 * the bytes consumed, or -1 on corrupt input (with *why set).
 *
 * Spec: apache/parquet-format Encodings.md.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_ENCODING_H
#define PM_FORMAT_PARQUET_PARQUET_ENCODING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

/* Bits needed for values 0..max_value. */
static inline int
pm_pq_bit_width(uint32_t max_value)
{
	int			w = 0;

	while (max_value != 0)
	{
		w++;
		max_value >>= 1;
	}
	return w;
}

/*
 * RLE / bit-packed hybrid (levels, dictionary indices, booleans): n values
 * of bit_width (0..32) bits. No length prefix is read here. The _u8 variant
 * requires bit_width <= 8.
 */
extern int64_t pm_pq_rle_decode_u8(const uint8_t *buf, size_t len, int bit_width,
								   int64_t n, uint8_t *out, const char **why);
extern int64_t pm_pq_rle_decode_u32(const uint8_t *buf, size_t len, int bit_width,
									int64_t n, uint32_t *out, const char **why);

/*
 * pm_pq_rle_decode_u32 for dictionary indices: also fails ("dictionary
 * index out of range") when a value is >= limit, checked while decoding
 * (bit-packed runs only when their width can reach limit).
 */
extern int64_t pm_pq_rle_decode_u32_below(const uint8_t *buf, size_t len, int bit_width,
										  int64_t n, uint32_t *out, uint32_t limit,
										  const char **why);

/*
 * pm_pq_rle_decode_u32_below where values [0, skip) will not be read: they
 * may be left unwritten (and unchecked); only out[skip, n) is guaranteed.
 */
/*
 * Where the runs of an RLE/bit-packed hybrid stream start: up to cap marks
 * (value index, byte offset of the run's header), ascending, the first
 * {0, 0}, a new one only where at least `every` values passed since the
 * last. Stops at the end of buf or at a malformed header (the decoder
 * started at a mark checks the rest). Returns the number of marks. A
 * decoder started at mark m decodes values from m.first on as the whole
 * stream would (pm_pq_rle_decode_u32_below_from on buf + m.pos).
 */
typedef struct pm_pq_run_mark
{
	uint32_t	first;
	uint32_t	pos;
} pm_pq_run_mark;

extern int	pm_pq_rle_run_marks(const uint8_t *buf, size_t len, int bit_width, int every,
								pm_pq_run_mark *marks, int cap);

extern int64_t pm_pq_rle_decode_u32_below_from(const uint8_t *buf, size_t len, int bit_width,
											   int64_t skip, int64_t n, uint32_t *out,
											   uint32_t limit, const char **why);

/*
 * Whether the hybrid stream starts with one RLE run of at least n values
 * (*value: that value): levels of a page without nulls, decoded without
 * expanding them.
 */
extern bool pm_pq_rle_is_one_run(const uint8_t *buf, size_t len, int bit_width, int64_t n,
								 uint32_t *value);

/* Legacy BIT_PACKED levels (MSB first, no length prefix). */
extern int64_t pm_pq_bitpacked_legacy_decode(const uint8_t *buf, size_t len, int bit_width,
											 int64_t n, uint8_t *out, const char **why);

/* PLAIN booleans: n bits, LSB first, into bytes 0/1. */
extern int64_t pm_pq_plain_bool_decode(const uint8_t *buf, size_t len, int64_t n,
									   uint8_t *out, const char **why);

/*
 * DELTA_BINARY_PACKED: at most max_n values into out (int64, wrapping
 * arithmetic); *n gets the count the header declares.
 */
extern int64_t pm_pq_delta_decode(const uint8_t *buf, size_t len, int64_t max_n,
								  int64_t *out, int64_t *n, const char **why);

/* BYTE_STREAM_SPLIT: n values of width bytes into out (n * width bytes). */
extern int64_t pm_pq_byte_stream_split_decode(const uint8_t *buf, size_t len, int width,
											  int64_t n, uint8_t *out, const char **why);

#endif							/* PM_FORMAT_PARQUET_PARQUET_ENCODING_H */
