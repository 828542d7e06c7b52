/*-------------------------------------------------------------------------
 * hash_bits.h
 *	  The building blocks of the hash functions the formats use (Murmur3 in
 *	  ORC's bloom filters, xxHash64 in Paimon's bloom filter index,
 *	  MurmurHash3_x86_32 in Paimon's bucket hash and Guava's murmur3_32 of
 *	  entropy-injected paths) and of our own hash tables: rotate left,
 *	  Murmur3's 32-bit block mixing and its fmix32 / fmix64 finalizers
 *	  (Austin Appleby's public-domain MurmurHash3).
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

/* x rotated left by r bits, 0 < r < 32 */
static inline uint32_t
pm_rotl32(uint32_t x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* MurmurHash3_x86_32's mixing of one 4-byte block k into h */
static inline uint32_t
pm_murmur3_mix(uint32_t h, uint32_t k)
{
	k *= 0xcc9e2d51u;
	k = pm_rotl32(k, 15);
	k *= 0x1b873593u;
	h ^= k;
	h = pm_rotl32(h, 13);
	return h * 5 + 0xe6546b64u;
}

/* MurmurHash3_x86_32's end: the length folded in, then fmix32 */
static inline uint32_t
pm_murmur3_final(uint32_t h, uint32_t len)
{
	h ^= len;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

#endif							/* PM_COMMON_HASH_BITS_H */
