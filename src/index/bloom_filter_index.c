/*-------------------------------------------------------------------------
 * bloom_filter_index.c
 *	  Reader of the "bloom-filter" file index (BloomFilter64 + FastHash).
 *
 * hash64 per type (FastHash.java): strings and binaries XXH64 (seed 0) of
 * their bytes; TINYINT..BIGINT, DATE, TIME Wang64 of the value widened to
 * int64; FLOAT Wang64 of floatToIntBits widened; DOUBLE of doubleToLongBits;
 * TIMESTAMP(_LTZ) Wang64 of epoch millis (precision <= 3) or micros.
 * Probe (BloomFilter64.testHash): h1 = low 32 bits, h2 = high 32 bits; for
 * i = 1..k: c = h1 + i*h2 (wrapping int32), c < 0 → ~c, bit c % numBits.
 *-------------------------------------------------------------------------
 */
#include "index/bloom_filter_index.h"

#include <string.h>

#include "common/hash_bits.h"

/* Java reads any count; more than this is not a bloom filter Java sized */
#define MAX_HASH_FUNCTIONS	1024

struct pm_bloom_filter_index
{
	const pm_env *env;
	const pm_type *type;
	int32_t		nhash;
	const uint8_t *bits;
	int32_t		nbits;
};

#define P1 UINT64_C(0x9E3779B185EBCA87)
#define P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define P3 UINT64_C(0x165667B19E3779F9)
#define P4 UINT64_C(0x85EBCA77C2B2AE63)
#define P5 UINT64_C(0x27D4EB2F165667C5)

static inline uint64_t
le64(const uint8_t *p)
{
	uint64_t	v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline uint64_t
le32(const uint8_t *p)
{
	return (uint64_t) p[0] | (uint64_t) p[1] << 8 | (uint64_t) p[2] << 16 | (uint64_t) p[3] << 24;
}

static inline uint64_t
xxh_round(uint64_t acc, uint64_t input)
{
	acc += input * P2;
	acc = pm_rotl64(acc, 31);
	return acc * P1;
}

static inline uint64_t
xxh_merge(uint64_t acc, uint64_t val)
{
	acc ^= xxh_round(0, val);
	return acc * P1 + P4;
}

uint64_t
pm_bloom_xxh64(const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;
	uint64_t	h;

	if (n >= 32)
	{
		uint64_t	v1 = P1 + P2,
					v2 = P2,
					v3 = 0,
					v4 = (uint64_t) 0 - P1;

		while (end - p >= 32)
		{
			v1 = xxh_round(v1, le64(p));
			v2 = xxh_round(v2, le64(p + 8));
			v3 = xxh_round(v3, le64(p + 16));
			v4 = xxh_round(v4, le64(p + 24));
			p += 32;
		}
		h = pm_rotl64(v1, 1) + pm_rotl64(v2, 7) + pm_rotl64(v3, 12) + pm_rotl64(v4, 18);
		h = xxh_merge(h, v1);
		h = xxh_merge(h, v2);
		h = xxh_merge(h, v3);
		h = xxh_merge(h, v4);
	}
	else
		h = P5;
	h += (uint64_t) n;
	while (end - p >= 8)
	{
		h ^= xxh_round(0, le64(p));
		h = pm_rotl64(h, 27) * P1 + P4;
		p += 8;
	}
	if (end - p >= 4)
	{
		h ^= le32(p) * P1;
		h = pm_rotl64(h, 23) * P2 + P3;
		p += 4;
	}
	while (p < end)
	{
		h ^= (uint64_t) *p * P5;
		h = pm_rotl64(h, 11) * P1;
		p++;
	}
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

/* Java's >> on long: arithmetic, whatever the compiler does with signed >> */
static inline uint64_t
sar(uint64_t k, int s)
{
	return (k >> s) | ((k >> 63) != 0 ? ~(~UINT64_C(0) >> s) : 0);
}

int64_t
pm_bloom_wang64(int64_t key)
{
	uint64_t	k = (uint64_t) key;

	k = ~k + (k << 21);
	k = k ^ sar(k, 24);
	k = (k + (k << 3)) + (k << 8);
	k = k ^ sar(k, 14);
	k = (k + (k << 2)) + (k << 4);
	k = k ^ sar(k, 28);
	k = k + (k << 31);
	return (int64_t) k;
}

pm_code
pm_bloom_filter_index_open(const pm_env *env, const uint8_t *buf, size_t len,
						   const pm_type *field_type, pm_bloom_filter_index **out, pm_error *err)
{
	pm_bloom_filter_index *idx;
	uint32_t	k;

	*out = NULL;
	if (len <= 4)
		return pm_fail(err, PM_ERR_CORRUPT, "bloom filter index of %zu bytes is too short", len);
	if (len - 4 > (size_t) INT32_MAX / 8)
		return pm_fail(err, PM_ERR_CORRUPT, "bloom filter index of %zu bytes is too long", len);
	/* Java adds the bytes as signed: equal to BE for any sane count */
	k = (uint32_t) ((int64_t) (int8_t) buf[0] * 16777216 + (int64_t) (int8_t) buf[1] * 65536 +
					(int64_t) (int8_t) buf[2] * 256 + (int64_t) (int8_t) buf[3]);
	if ((int32_t) k > MAX_HASH_FUNCTIONS)
		return pm_fail(err, PM_ERR_CORRUPT, "bloom filter index with %d hash functions",
					   (int32_t) k);
	idx = pm_alloc(env, sizeof(pm_bloom_filter_index));
	if (idx == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a bloom filter index");
	idx->env = env;
	idx->type = field_type;
	idx->nhash = (int32_t) k;	/* <= 0: Java's testHash is always true */
	idx->bits = buf + 4;
	idx->nbits = (int32_t) ((len - 4) * 8);
	*out = idx;
	return PM_OK;
}

static bool
test_hash(const pm_bloom_filter_index *idx, uint64_t hash64)
{
	int32_t		h1 = (int32_t) (uint32_t) hash64;
	int32_t		h2 = (int32_t) (uint32_t) (hash64 >> 32);

	for (int32_t i = 1; i <= idx->nhash; i++)
	{
		int32_t		c = (int32_t) ((uint32_t) h1 + (uint32_t) i * (uint32_t) h2);
		int32_t		pos;

		if (c < 0)
			c = ~c;
		pos = c % idx->nbits;
		if ((idx->bits[pos >> 3] & (1u << (pos & 7))) == 0)
			return false;
	}
	return true;
}

/*
 * The hashes a literal may have been written as: up to two (FLOAT/DOUBLE 0
 * is +0 or -0). Returns the count; 0 = no stored value can equal it; -1 =
 * cannot decide.
 */
static int
literal_hashes(const pm_bloom_filter_index *idx, const pm_value *lit, uint64_t h[2])
{
	if (lit->is_null)
		return -1;
	switch (idx->type->id)
	{
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			if (lit->u.bytes.len < 0)
				return -1;
			h[0] = pm_bloom_xxh64(lit->u.bytes.ptr, (size_t) lit->u.bytes.len);
			return 1;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			h[0] = (uint64_t) pm_bloom_wang64(lit->u.i64);
			return 1;
		case PM_TYPE_FLOAT:
			{
				float		f = (float) lit->u.f64;
				int32_t		bits;

				if (f != f)
					return -1;
				if (f == 0)
				{
					h[0] = (uint64_t) pm_bloom_wang64(0);
					h[1] = (uint64_t) pm_bloom_wang64((int32_t) 0x80000000u);
					return 2;
				}
				memcpy(&bits, &f, 4);
				h[0] = (uint64_t) pm_bloom_wang64(bits);
				return 1;
			}
		case PM_TYPE_DOUBLE:
			{
				double		d = lit->u.f64;
				int64_t		bits;

				if (d != d)
					return -1;
				if (d == 0)
				{
					h[0] = (uint64_t) pm_bloom_wang64(0);
					h[1] = (uint64_t) pm_bloom_wang64(INT64_MIN);
					return 2;
				}
				memcpy(&bits, &d, 8);
				h[0] = (uint64_t) pm_bloom_wang64(bits);
				return 1;
			}
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (lit->nanos != 0)
				return -1;
			if (idx->type->precision <= 3)
			{
				if (lit->u.i64 % 1000 != 0)
					return 0;
				h[0] = (uint64_t) pm_bloom_wang64(lit->u.i64 / 1000);
				return 1;
			}
			h[0] = (uint64_t) pm_bloom_wang64(lit->u.i64);
			return 1;
		default:
			/* CHAR (bpchar ignores trailing spaces), BOOLEAN, DECIMAL, ... */
			return -1;
	}
}

pm_code
pm_bloom_filter_index_eval(pm_bloom_filter_index *idx, const pm_predicate *leaf,
						   pm_file_index_result *out, pm_error *err)
{
	pm_file_index_result_init(out);
	if (leaf->op != PM_PRED_EQ && leaf->op != PM_PRED_IN)
		return PM_OK;
	if (leaf->nliterals < 1 || (leaf->op == PM_PRED_EQ && leaf->nliterals != 1))
		return PM_OK;
	for (int l = 0; l < leaf->nliterals; l++)
	{
		uint64_t	h[2];
		int			n = literal_hashes(idx, &leaf->literals[l], h);

		if (n < 0)
			return PM_OK;
		for (int i = 0; i < n; i++)
			if (test_hash(idx, h[i]))
				return PM_OK;
	}
	out->skip = true;
	return PM_OK;
}

void
pm_bloom_filter_index_free(pm_bloom_filter_index *idx)
{
	if (idx != NULL)
		pm_free(idx->env, idx);
}
