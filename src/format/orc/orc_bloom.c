/*-------------------------------------------------------------------------
 * orc_bloom.c
 *	  ORC's bloom filter hashing and bits (see orc_bloom.h).
 *
 * Java's int and long arithmetic wraps; here it is done on unsigned
 * integers and converted back, so no step is undefined behaviour in C.
 * Must not include Postgres headers.
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_bloom.h"

#include <math.h>
#include <string.h>

#include "common/hash_bits.h"

#define MURMUR_SEED		104729
#define C1				UINT64_C(0x87c37b91114253d5)
#define C2				UINT64_C(0x4cf5ad432745937f)
#define N1				UINT64_C(0x52dce729)

uint64_t
orc_murmur3_hash64(const uint8_t *data, size_t len)
{
	uint64_t	hash = MURMUR_SEED;
	size_t		nblocks = len >> 3;
	uint64_t	k1 = 0;
	const uint8_t *tail = data + (nblocks << 3);

	for (size_t i = 0; i < nblocks; i++)
	{
		uint64_t	k = 0;

		for (int b = 7; b >= 0; b--)
			k = (k << 8) | data[i * 8 + (size_t) b];
		k *= C1;
		k = pm_rotl64(k, 31);
		k *= C2;
		hash ^= k;
		hash = pm_rotl64(hash, 27) * 5 + N1;
	}
	switch (len & 7)
	{
		case 7:
			k1 ^= (uint64_t) tail[6] << 48;
			/* FALLTHROUGH */
		case 6:
			k1 ^= (uint64_t) tail[5] << 40;
			/* FALLTHROUGH */
		case 5:
			k1 ^= (uint64_t) tail[4] << 32;
			/* FALLTHROUGH */
		case 4:
			k1 ^= (uint64_t) tail[3] << 24;
			/* FALLTHROUGH */
		case 3:
			k1 ^= (uint64_t) tail[2] << 16;
			/* FALLTHROUGH */
		case 2:
			k1 ^= (uint64_t) tail[1] << 8;
			/* FALLTHROUGH */
		case 1:
			k1 ^= (uint64_t) tail[0];
			k1 *= C1;
			k1 = pm_rotl64(k1, 31);
			k1 *= C2;
			hash ^= k1;
	}
	/* Java: hash ^= length (an int, sign-extended: never negative here) */
	hash ^= (uint64_t) len;
	return pm_fmix64(hash);
}

/* Java's >> on a long: arithmetic */
static inline uint64_t
sar64(uint64_t x, int s)
{
	return (x >> s) | ((x >> 63) ? ~(UINT64_MAX >> s) : 0);
}

uint64_t
orc_bloom_long_hash(int64_t v)
{
	uint64_t	key = (uint64_t) v;

	key = (~key) + (key << 21);
	key = key ^ sar64(key, 24);
	key = (key + (key << 3)) + (key << 8);
	key = key ^ sar64(key, 14);
	key = (key + (key << 2)) + (key << 4);
	key = key ^ sar64(key, 28);
	key = key + (key << 31);
	return key;
}

void
orc_bloom_size(int64_t expected_entries, double fpp, int32_t *nbits, int32_t *nhash)
{
	int64_t		n = expected_entries > 1 ? expected_entries : 1;
	/* optimalNumOfBits: (int) (-n * Math.log(p) / (Math.log(2) * Math.log(2))) */
	int32_t		nb = (int32_t) (-(double) n * log(fpp) / (log(2) * log(2)));
	int32_t		m = nb + (64 - nb % 64);
	/* optimalNumOfHashFunctions: Math.round((double) m / n * Math.log(2)) */
	double		k = floor((double) m / (double) n * log(2) + 0.5);

	*nbits = m;
	*nhash = k < 1 ? 1 : (int32_t) k;
}

/* the k bit positions of a hash, as Java's int arithmetic computes them */
static inline int32_t
bit_pos(const orc_bloom *b, uint64_t hash64, int i)
{
	uint32_t	h1 = (uint32_t) hash64;
	uint32_t	h2 = (uint32_t) (hash64 >> 32);
	int32_t		combined = (int32_t) (h1 + (uint32_t) i * h2);

	if (combined < 0)
		combined = ~combined;
	return combined % b->nbits;
}

void
orc_bloom_add_hash(orc_bloom *b, uint64_t hash64)
{
	for (int i = 1; i <= b->nhash; i++)
	{
		int32_t		pos = bit_pos(b, hash64, i);

		b->words[pos >> 6] |= UINT64_C(1) << (pos & 63);
	}
}

bool
orc_bloom_test_hash(const orc_bloom *b, uint64_t hash64)
{
	for (int i = 1; i <= b->nhash; i++)
	{
		int32_t		pos = bit_pos(b, hash64, i);

		if ((b->words[pos >> 6] & (UINT64_C(1) << (pos & 63))) == 0)
			return false;
	}
	return true;
}

void
orc_bloom_add_double(orc_bloom *b, double v)
{
	uint64_t	bits;

	if (isnan(v))
		bits = UINT64_C(0x7ff8000000000000);
	else
		memcpy(&bits, &v, sizeof(bits));
	orc_bloom_add_long(b, (int64_t) bits);
}
