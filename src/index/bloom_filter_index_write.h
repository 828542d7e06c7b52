/*-------------------------------------------------------------------------
 * bloom_filter_index_write.h
 *	  Building a "bloom-filter" file index as Java 1.4.2's
 *	  BloomFilterFileIndex.Writer does (index/bloom_filter_index.h reads it).
 *
 * BloomFilter64(items, fpp): nb = (int) (-items * ln fpp / ln² 2), numBits
 * = nb + 8 - nb % 8, k = max(1, round(numBits / items * ln 2)); each
 * non-null value's FastHash (XXH64 of string/binary bytes, Wang64 of
 * integers, floatToIntBits/doubleToLongBits, timestamp millis (precision
 * <= 3) or micros) sets bits (h1 + i * h2, flipped if negative) % numBits
 * for i = 1..k. Body: i32 BE k, then the bit array.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.5; BloomFilterFileIndex.java,
 * FastHash.java, utils/BloomFilter64.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_BLOOM_FILTER_INDEX_WRITE_H
#define PM_INDEX_BLOOM_FILTER_INDEX_WRITE_H

#include "common/arena.h"
#include "common/byte_buffer.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"

typedef struct pm_bloom_filter_write
{
	const pm_type *type;
	int32_t		nbits;
	int32_t		nhash;
	uint8_t    *bits;
} pm_bloom_filter_write;

/* Whether FastHash takes the type. */
extern bool pm_bloom_filter_write_supported(const pm_type *type);

/* An empty filter for items/fpp (PM_ERR_INVALID for sizes Java cannot build). */
extern pm_code pm_bloom_filter_write_init(pm_bloom_filter_write *bf, const pm_type *type,
										  int64_t items, double fpp, pm_arena *arena,
										  pm_error *err);

/* Add the non-null values among rows [0, n) of v. */
extern void pm_bloom_filter_write_add(pm_bloom_filter_write *bf, const pm_vector *v, int64_t n);

/* Append the body. */
extern void pm_bloom_filter_write_serialize(const pm_bloom_filter_write *bf, pm_byte_buffer *out);

#endif							/* PM_INDEX_BLOOM_FILTER_INDEX_WRITE_H */
