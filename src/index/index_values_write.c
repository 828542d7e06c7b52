/*-------------------------------------------------------------------------
 * index_values_write.c
 *	  Distinct values of a column and their rows (index_values_write.h).
 *-------------------------------------------------------------------------
 */
#include "index/index_values_write.h"

#include <math.h>
#include <string.h>

#include "common/compare.h"
#include "common/floor_div.h"
#include "row/bucket.h"

bool
pm_index_values_supported(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return true;
		case PM_TYPE_DECIMAL:
			/* keys: the unscaled long (Decimal.toUnscaledLong; see fixed_key) */
			return true;
		default:
			return false;
	}
}

void
pm_index_values_init(pm_index_values *iv, const pm_type *type, pm_arena *arena)
{
	memset(iv, 0, sizeof(*iv));
	iv->arena = arena;
	iv->type = type;
}

static void
put_be64(uint8_t *p, uint64_t v)
{
	pm_put_be32(p, (uint32_t) (v >> 32));
	pm_put_be32(p + 4, (uint32_t) v);
}

/* Key bytes of row i into buf (fixed types; at most 8 bytes): its length. */
static int32_t
fixed_key(const pm_type *t, const pm_vector *v, int64_t i, uint8_t *buf)
{
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			buf[0] = PM_VEC_VALUES(v, uint8_t)[i] ? 1 : 0;
			return 1;
		case PM_TYPE_TINYINT:
			buf[0] = (uint8_t) PM_VEC_VALUES(v, int8_t)[i];
			return 1;
		case PM_TYPE_SMALLINT:
			{
				uint16_t	x = (uint16_t) PM_VEC_VALUES(v, int16_t)[i];

				buf[0] = (uint8_t) (x >> 8);
				buf[1] = (uint8_t) x;
				return 2;
			}
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			pm_put_be32(buf, (uint32_t) PM_VEC_VALUES(v, int32_t)[i]);
			return 4;
		case PM_TYPE_FLOAT:
			{
				float		f = PM_VEC_VALUES(v, float)[i];
				uint32_t	bits;

				memcpy(&bits, &f, 4);
				if (isnan(f))
					bits = 0x7fc00000u;	/* Float.floatToIntBits */
				pm_put_be32(buf, bits);
				return 4;
			}
		case PM_TYPE_DOUBLE:
			{
				double		d = PM_VEC_VALUES(v, double)[i];
				uint64_t	bits;

				memcpy(&bits, &d, 8);
				if (isnan(d))
					bits = UINT64_C(0x7ff8000000000000);
				put_be64(buf, bits);
				return 8;
			}
		case PM_TYPE_BIGINT:
			put_be64(buf, (uint64_t) PM_VEC_VALUES(v, int64_t)[i]);
			return 8;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		us = PM_VEC_VALUES(v, int64_t)[i];

				put_be64(buf, (uint64_t) (t->precision <= 3 ? pm_floor_div(us, 1000) : us));
				return 8;
			}
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = PM_VEC_VALUES(v, pm_int128)[i];

				/* Decimal.toUnscaledLong: longValueExact above precision 18 */
				if (x < INT64_MIN || x > INT64_MAX)
					return -2;
				put_be64(buf, (uint64_t) (int64_t) x);
				return 8;
			}
		default:
			return -1;
	}
}

static uint32_t
key_hash(const uint8_t *k, int32_t len)
{
	/* FNV-1a: only for this table's slots */
	uint32_t	h = 2166136261u;

	for (int32_t i = 0; i < len; i++)
		h = (h ^ k[i]) * 16777619u;
	return h;
}

static bool
grow_slots(pm_index_values *iv)
{
	int32_t		n = iv->nslots ? iv->nslots * 2 : 64;
	int32_t    *slots = pm_arena_zalloc(iv->arena, sizeof(int32_t) * (size_t) n);
	uint32_t   *hashes = pm_arena_alloc(iv->arena, sizeof(uint32_t) * (size_t) n);

	if (slots == NULL || hashes == NULL)
		return false;
	for (int32_t s = 0; s < iv->nslots; s++)
		if (iv->slots[s] != 0)
		{
			uint32_t	j = iv->slot_hash[s] & (uint32_t) (n - 1);

			while (slots[j] != 0)
				j = (j + 1) & (uint32_t) (n - 1);
			slots[j] = iv->slots[s];
			hashes[j] = iv->slot_hash[s];
		}
	iv->slots = slots;
	iv->slot_hash = hashes;
	iv->nslots = n;
	return true;
}

/* The value number of a key, adding it when new; -2 on out-of-memory. */
static int32_t
intern(pm_index_values *iv, const uint8_t *key, int32_t len)
{
	uint32_t	h = key_hash(key, len);
	uint32_t	j;
	pm_index_value *val;
	uint8_t    *copy;

	if ((int64_t) (iv->nvalues + 1) * 2 > iv->nslots && !grow_slots(iv))
		return -2;
	j = h & (uint32_t) (iv->nslots - 1);
	while (iv->slots[j] != 0)
	{
		pm_index_value *e = &iv->values[iv->slots[j] - 1];

		if (iv->slot_hash[j] == h && e->len == len && memcmp(e->key, key, (size_t) len) == 0)
			return iv->slots[j] - 1;
		j = (j + 1) & (uint32_t) (iv->nslots - 1);
	}
	if (iv->nvalues == iv->values_cap)
	{
		int32_t		ncap = iv->values_cap ? iv->values_cap * 2 : 64;
		pm_index_value *grown = pm_arena_realloc(iv->arena, iv->values,
												 sizeof(*grown) * (size_t) iv->values_cap,
												 sizeof(*grown) * (size_t) ncap);

		if (grown == NULL)
			return -2;
		iv->values = grown;
		iv->values_cap = ncap;
	}
	copy = pm_arena_alloc(iv->arena, (size_t) len + 1);
	if (copy == NULL)
		return -2;
	memcpy(copy, key, (size_t) len);
	val = &iv->values[iv->nvalues];
	val->key = copy;
	val->len = len;
	val->count = 0;
	iv->slots[j] = iv->nvalues + 1;
	iv->slot_hash[j] = h;
	return iv->nvalues++;
}

pm_code
pm_index_values_add(pm_index_values *iv, const pm_vector *v, int64_t n, pm_error *err)
{
	const pm_type *t = iv->type;
	bool		varlen = t->id == PM_TYPE_CHAR || t->id == PM_TYPE_VARCHAR;

	if (iv->nrows + n > INT32_MAX)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "a file index holds at most 2^31-1 rows");
	if (iv->nrows + n > iv->rows_cap)
	{
		int64_t		ncap = iv->rows_cap ? iv->rows_cap : 1024;
		int32_t    *grown;

		while (ncap < iv->nrows + n)
			ncap *= 2;
		grown = pm_arena_realloc(iv->arena, iv->row_ids, sizeof(int32_t) * (size_t) iv->rows_cap,
								 sizeof(int32_t) * (size_t) ncap);
		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		iv->row_ids = grown;
		iv->rows_cap = ncap;
	}
	for (int64_t i = 0; i < n; i++)
	{
		int32_t		id;

		if (pm_vector_is_null(v, i))
		{
			iv->row_ids[iv->nrows++] = -1;
			iv->nnull++;
			continue;
		}
		if (varlen)
		{
			int32_t		len;
			const uint8_t *p = pm_vector_bytes(v, i, &len);
			uint8_t		small[256];
			uint8_t    *k = small;

			if (len > (int32_t) sizeof(small) - 4 &&
				(k = pm_arena_alloc(iv->arena, (size_t) len + 4)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			pm_put_be32(k, (uint32_t) len);
			if (len > 0)
				memcpy(k + 4, p, (size_t) len);
			id = intern(iv, k, len + 4);
		}
		else
		{
			uint8_t		k[8];
			int32_t		len = fixed_key(t, v, i, k);

			if (len == -2)
				return pm_fail(err, PM_ERR_INVALID,
							   "file index on DECIMAL(%d, %d): a value outside the range of a long (Java's Decimal.toUnscaledLong: BigInteger out of long range)",
							   t->precision, t->scale);
			if (len < 0)
				return pm_fail(err, PM_ERR_UNSUPPORTED, "no index keys for this type");
			id = intern(iv, k, len);
		}
		if (id < 0)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		iv->values[id].count++;
		iv->row_ids[iv->nrows++] = id;
	}
	return PM_OK;
}

bool
pm_index_values_rows(const pm_index_values *iv, uint32_t **rows, int64_t **start)
{
	int64_t    *st = pm_arena_alloc(iv->arena, sizeof(int64_t) * ((size_t) iv->nvalues + 1));
	int64_t    *fill = pm_arena_alloc(iv->arena, sizeof(int64_t) * ((size_t) iv->nvalues + 1));
	uint32_t   *r = pm_arena_alloc(iv->arena, sizeof(uint32_t) * (size_t) (iv->nrows + 1));

	if (st == NULL || fill == NULL || r == NULL)
		return false;
	st[0] = 0;
	for (int32_t k = 0; k < iv->nvalues; k++)
		st[k + 1] = st[k] + iv->values[k].count;
	memcpy(fill, st, sizeof(int64_t) * ((size_t) iv->nvalues + 1));
	for (int64_t i = 0; i < iv->nrows; i++)
		if (iv->row_ids[i] >= 0)
			r[fill[iv->row_ids[i]]++] = (uint32_t) i;
	*rows = r;
	*start = st;
	return true;
}

int32_t
pm_index_value_java_hash(const pm_index_values *iv, int32_t k)
{
	const uint8_t *p = iv->values[k].key;
	int32_t		len = iv->values[k].len;

	switch (iv->type->id)
	{
		case PM_TYPE_BOOLEAN:
			return p[0] ? 1231 : 1237;	/* Boolean.hashCode */
		case PM_TYPE_TINYINT:
			return (int8_t) p[0];
		case PM_TYPE_SMALLINT:
			return (int16_t) (((uint16_t) p[0] << 8) | p[1]);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return pm_murmur_hash_bytes(p + 4, (size_t) len - 4);
		default:
			if (len == 4)		/* Integer, Float: the (int) bits */
				return (int32_t) pm_get_be32(p);
			else
			{
				uint64_t	x = pm_get_be64(p);	/* Long, Double */

				return (int32_t) (uint32_t) (x ^ (x >> 32));
			}
	}
}

int
pm_index_key_compare(const pm_type *type, const uint8_t *a, int32_t alen, const uint8_t *b,
					 int32_t blen)
{
	switch (type->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32_t		n = (alen < blen ? alen : blen) - 4;
				int			c = n > 0 ? memcmp(a + 4, b + 4, (size_t) n) : 0;

				if (c != 0)
					return c < 0 ? -1 : 1;
				return alen < blen ? -1 : alen > blen;
			}
		case PM_TYPE_BOOLEAN:
			return a[0] < b[0] ? -1 : a[0] > b[0];
		case PM_TYPE_TINYINT:
			return (int8_t) a[0] < (int8_t) b[0] ? -1 : (int8_t) a[0] > (int8_t) b[0];
		case PM_TYPE_SMALLINT:
			{
				int16_t		x = (int16_t) (((uint16_t) a[0] << 8) | a[1]);
				int16_t		y = (int16_t) (((uint16_t) b[0] << 8) | b[1]);

				return x < y ? -1 : x > y;
			}
		case PM_TYPE_FLOAT:
			{
				uint32_t	xb = pm_get_be32(a),
							yb = pm_get_be32(b);
				float		x,
							y;

				memcpy(&x, &xb, 4);
				memcpy(&y, &yb, 4);
				return pm_cmp_double_java(x, y);	/* Float.compare */
			}
		case PM_TYPE_DOUBLE:
			{
				uint64_t	xb = pm_get_be64(a),
							yb = pm_get_be64(b);
				double		x,
							y;

				memcpy(&x, &xb, 8);
				memcpy(&y, &yb, 8);
				return pm_cmp_double_java(x, y);
			}
		default:
			if (alen == 4)
			{
				int32_t		x = (int32_t) pm_get_be32(a),
							y = (int32_t) pm_get_be32(b);

				return x < y ? -1 : x > y;
			}
			else
			{
				int64_t		x = (int64_t) pm_get_be64(a),
							y = (int64_t) pm_get_be64(b);

				return x < y ? -1 : x > y;
			}
	}
}
