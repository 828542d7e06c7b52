/*-------------------------------------------------------------------------
 * codec.h
 *	  One interface over the compression codecs Paimon's files use.
 *
 * Wraps zstd, snappy, lz4 and zlib (libraries, not hand-written). Framing
 * that belongs to a file format (ORC's 3-byte chunk headers, Avro-snappy's
 * CRC32 trailer, Hadoop's LZ4 block framing of parquet-mr) stays with that
 * format's reader; this layer decodes one compressed buffer.
 *-------------------------------------------------------------------------
 */
#ifndef PM_CODEC_CODEC_H
#define PM_CODEC_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"

typedef enum pm_codec
{
	PM_CODEC_NONE = 0,
	PM_CODEC_ZSTD,				/* zstd frame(s) */
	PM_CODEC_SNAPPY,			/* raw snappy block */
	PM_CODEC_LZ4_RAW,			/* raw lz4 block */
	PM_CODEC_LZ4_FRAME,			/* lz4 frame format */
	PM_CODEC_DEFLATE,			/* raw deflate (no header), as Avro and ORC */
	PM_CODEC_ZLIB,				/* zlib header */
	PM_CODEC_GZIP				/* gzip member(s), as Parquet GZIP */
} pm_codec;

extern const char *pm_codec_name(pm_codec codec);

/*
 * Decompress src into dst whose size is exactly the expected decompressed
 * size (Parquet pages, ORC chunks know it). A different size is
 * PM_ERR_CORRUPT.
 */
extern pm_code pm_codec_decompress(pm_codec codec, const void *src, size_t src_len,
								   void *dst, size_t dst_len, pm_error *err);

/*
 * Decompress when the size is not known up front (Avro blocks): the result
 * goes to arena. Output above max_len is PM_ERR_CORRUPT (decompression bombs).
 */
extern pm_code pm_codec_decompress_alloc(pm_codec codec, const void *src, size_t src_len,
										 pm_arena *arena, size_t max_len,
										 uint8_t **out, size_t *out_len, pm_error *err);

/*
 * Compress src into arena with the codec's level (0 = the codec's default;
 * for zstd Paimon uses 1).
 */
extern pm_code pm_codec_compress(pm_codec codec, int level, const void *src, size_t src_len,
								 pm_arena *arena, uint8_t **out, size_t *out_len,
								 pm_error *err);

#endif							/* PM_CODEC_CODEC_H */
