/*-------------------------------------------------------------------------
 * hash_bits.h
 *	  The 64-bit building blocks of the hash functions the formats use
 *	  (Murmur3 in ORC's bloom filters, xxHash64 in Paimon's bloom filter
 *	  index) and of our own hash tables: rotate left, and Murmur3's fmix64
 *	  finalizer (Austin Appleby's public-domain MurmurHash3).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_HASH_BITS_H
#define PM_COMMON_HASH_BITS_H

#include <stdint.h>

/* x rotated left by r bits, 0 < r < 64 */
static inline uint64_t
pm_rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* Murmur3's fmix64: every input bit affects every output bit */
static inline uint64_t
pm_fmix64(uint64_t h)
{
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

#endif							/* PM_COMMON_HASH_BITS_H */
