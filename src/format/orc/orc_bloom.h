/*-------------------------------------------------------------------------
 * orc_bloom.h
 *	  ORC's bloom filters (ORC 1.9 BloomFilter / BloomFilterUtf8, Murmur3):
 *	  sizing, the values each column type adds, and the test a reader asks.
 *
 * A filter has m bits (a multiple of 64, stored as little-endian 64-bit
 * words, as the BLOOM_FILTER_UTF8 stream's utf8bitset holds them) and k
 * hash functions. A value is hashed to 64 bits: bytes (strings, binary,
 * decimal text) with ORC's Murmur3.hash64 (seed 104729, not the x64 128-bit
 * variant's first half), integers (and doubles by their IEEE bits, dates,
 * timestamps in UTC milliseconds) with Thomas Wang's 64-bit integer hash.
 * Bit i (i = 1..k) is (h1 + i * h2) with h1, h2 the low and high 32 bits,
 * flipped when negative, modulo m, in Java's 32-bit int arithmetic.
 *
 * Not an interface for other layers. Spec: apache/orc java/core
 * org.apache.orc.util.BloomFilter, BloomFilterUtf8, BloomFilterIO, Murmur3;
 * orc.apache.org/specification/ORCv1 "Bloom Filter Index".
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_BLOOM_H
#define PM_FORMAT_ORC_ORC_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ORC's default orc.bloom.filter.fpp (OrcConf.BLOOM_FILTER_FPP) */
#define ORC_BLOOM_DEFAULT_FPP 0.01

typedef struct orc_bloom
{
	int32_t		nbits;			/* m, a multiple of 64 */
	int32_t		nhash;			/* k */
	uint64_t   *words;			/* nbits / 64 words, caller-allocated */
} orc_bloom;

/* Murmur3.hash64(data, 0, len) of ORC (seed 104729) */
extern uint64_t orc_murmur3_hash64(const uint8_t *data, size_t len);

/* BloomFilter.getLongHash: Thomas Wang's 64-bit integer hash */
extern uint64_t orc_bloom_long_hash(int64_t v);

/*
 * m and k of new BloomFilter(expected_entries, fpp): m = the optimal bit
 * count rounded up past the next multiple of 64 (a multiple already gets
 * 64 more, as Java does), k = round(m / n * ln 2), at least 1. fpp must be
 * in (0, 1).
 */
extern void orc_bloom_size(int64_t expected_entries, double fpp, int32_t *nbits,
						   int32_t *nhash);

/* the bits of a 64-bit hash (BloomFilter.addHash) */
extern void orc_bloom_add_hash(orc_bloom *b, uint64_t hash64);
/* BloomFilter.testHash */
extern bool orc_bloom_test_hash(const orc_bloom *b, uint64_t hash64);

static inline void
orc_bloom_add_bytes(orc_bloom *b, const uint8_t *p, size_t len)
{
	orc_bloom_add_hash(b, orc_murmur3_hash64(p, len));
}

static inline void
orc_bloom_add_long(orc_bloom *b, int64_t v)
{
	orc_bloom_add_hash(b, orc_bloom_long_hash(v));
}

/* addDouble: Double.doubleToLongBits (every NaN as 0x7ff8000000000000) */
extern void orc_bloom_add_double(orc_bloom *b, double v);

#endif							/* PM_FORMAT_ORC_ORC_BLOOM_H */
