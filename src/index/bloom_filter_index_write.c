/*-------------------------------------------------------------------------
 * bloom_filter_index_write.c
 *	  The "bloom-filter" file index writer (bloom_filter_index_write.h).
 *-------------------------------------------------------------------------
 */
#include "index/bloom_filter_index_write.h"

#include <math.h>
#include <string.h>

#include "common/floor_div.h"
#include "index/bloom_filter_index.h"

bool
pm_bloom_filter_write_supported(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return true;
		default:
			return false;
	}
}

pm_code
pm_bloom_filter_write_init(pm_bloom_filter_write *bf, const pm_type *type, int64_t items,
						   double fpp, pm_arena *arena, pm_error *err)
{
	double		nbd;
	int32_t		nb;
	double		k;

	memset(bf, 0, sizeof(*bf));
	bf->type = type;
	if (items <= 0 || !(fpp > 0 && fpp < 1))
		return pm_fail(err, PM_ERR_INVALID,
					   "bloom-filter index: items must be positive and fpp between 0 and 1 (items %lld, fpp %g)",
					   (long long) items, fpp);
	nbd = -(double) items * log(fpp) / (log(2) * log(2));
	if (!(nbd < (double) INT32_MAX - 8))
		return pm_fail(err, PM_ERR_INVALID,
					   "bloom-filter index: items %lld with fpp %g need more than 2^31 bits",
					   (long long) items, fpp);
	nb = (int32_t) nbd;
	bf->nbits = nb + (8 - nb % 8);
	k = floor((double) bf->nbits / (double) items * log(2) + 0.5);	/* Math.round */
	bf->nhash = k < 1 ? 1 : (int32_t) k;
	bf->bits = pm_arena_zalloc(arena, (size_t) bf->nbits / 8);
	if (bf->bits == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

static inline void
add_hash(pm_bloom_filter_write *bf, uint64_t hash64)
{
	int32_t		h1 = (int32_t) (uint32_t) hash64;
	int32_t		h2 = (int32_t) (uint32_t) (hash64 >> 32);

	for (int32_t i = 1; i <= bf->nhash; i++)
	{
		int32_t		c = (int32_t) ((uint32_t) h1 + (uint32_t) i * (uint32_t) h2);
		int32_t		pos;

		if (c < 0)
			c = ~c;
		pos = c % bf->nbits;
		bf->bits[pos >> 3] |= (uint8_t) (1u << (pos & 7));
	}
}

void
pm_bloom_filter_write_add(pm_bloom_filter_write *bf, const pm_vector *v, int64_t n)
{
	const pm_type *t = bf->type;

	for (int64_t i = 0; i < n; i++)
	{
		int64_t		key;

		if (pm_vector_is_null(v, i))
			continue;
		switch (t->id)
		{
			case PM_TYPE_CHAR:
			case PM_TYPE_VARCHAR:
			case PM_TYPE_BINARY:
			case PM_TYPE_VARBINARY:
				{
					int32_t		len;
					const uint8_t *p = pm_vector_bytes(v, i, &len);

					add_hash(bf, pm_bloom_xxh64(p, (size_t) len));
					continue;
				}
			case PM_TYPE_TINYINT:
			case PM_TYPE_SMALLINT:
			case PM_TYPE_INT:
			case PM_TYPE_DATE:
			case PM_TYPE_TIME:
				key = pm_vector_int64_at(v, i);
				break;
			case PM_TYPE_FLOAT:
				{
					float		f = PM_VEC_VALUES(v, float)[i];
					int32_t		bits;

					memcpy(&bits, &f, 4);
					if (isnan(f))
						bits = 0x7fc00000;	/* Float.floatToIntBits */
					key = bits;
					break;
				}
			case PM_TYPE_DOUBLE:
				{
					double		d = PM_VEC_VALUES(v, double)[i];

					memcpy(&key, &d, 8);
					if (isnan(d))
						key = INT64_C(0x7ff8000000000000);
					break;
				}
			case PM_TYPE_TIMESTAMP:
			case PM_TYPE_TIMESTAMP_LTZ:
				key = PM_VEC_VALUES(v, int64_t)[i];
				if (t->precision <= 3)
					key = pm_floor_div(key, 1000);
				break;
			default:			/* BIGINT */
				key = PM_VEC_VALUES(v, int64_t)[i];
				break;
		}
		add_hash(bf, (uint64_t) pm_bloom_wang64(key));
	}
}

void
pm_bloom_filter_write_serialize(const pm_bloom_filter_write *bf, pm_byte_buffer *out)
{
	uint8_t		k[4] = {(uint8_t) (bf->nhash >> 24), (uint8_t) (bf->nhash >> 16),
	(uint8_t) (bf->nhash >> 8), (uint8_t) bf->nhash};

	pm_byte_buffer_append(out, k, 4);
	pm_byte_buffer_append(out, bf->bits, (size_t) bf->nbits / 8);
}
