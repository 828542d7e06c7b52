/*-------------------------------------------------------------------------
 * bucket.c
 *	  Paimon's default bucket function (see bucket.h).
 *
 * Hand-written: Paimon's word-wise Murmur3 is a few lines (and equals
 * MurmurHash3_x86_32 for lengths that are multiples of 4); the row bytes
 * are streamed from pm_binary_row_emit so nothing is allocated (keys of
 * INT, DATE, TIME and BIGINT fields are hashed from their values, without
 * the callbacks: the usual primary key, hashed for every row written).
 * Spec: apache/paimon paimon-common org/apache/paimon/utils/
 * MurmurHashUtils.java, paimon-core org/apache/paimon/bucket/
 * DefaultBucketFunction.java.
 *-------------------------------------------------------------------------
 */
#include "row/bucket.h"

#include "common/hash_bits.h"
#include "row/binary_row.h"

#define MURMUR_SEED		42

typedef struct murmur
{
	uint32_t	h;
	uint8_t		carry[4];
	int			ncarry;
	size_t		len;
} murmur;

static inline void
mix_word(murmur *m, uint32_t k)
{
	m->h = pm_murmur3_mix(m->h, k);
}

static inline uint32_t
le32(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16) |
		((uint32_t) p[3] << 24);
}

static void
murmur_update(void *opaque, const uint8_t *bytes, size_t n)
{
	murmur	   *m = opaque;

	m->len += n;
	while (n > 0 && m->ncarry > 0)
	{
		m->carry[m->ncarry++] = *bytes++;
		n--;
		if (m->ncarry == 4)
		{
			mix_word(m, le32(m->carry));
			m->ncarry = 0;
		}
	}
	while (n >= 4)
	{
		mix_word(m, le32(bytes));
		bytes += 4;
		n -= 4;
	}
	while (n > 0)
	{
		m->carry[m->ncarry++] = *bytes++;
		n--;
	}
}

static int32_t
murmur_final(murmur *m)
{
	return (int32_t) pm_murmur3_final(m->h, (uint32_t) m->len);
}

int32_t
pm_murmur_hash_words(const uint8_t *data, size_t len)
{
	murmur		m = {MURMUR_SEED, {0}, 0, 0};

	murmur_update(&m, data, len & ~(size_t) 3);
	return murmur_final(&m);
}

int32_t
pm_murmur_hash_bytes(const uint8_t *data, size_t len)
{
	murmur		m = {MURMUR_SEED, {0}, 0, 0};
	size_t		aligned = len & ~(size_t) 3;

	murmur_update(&m, data, aligned);
	/* the tail: each byte sign-extended (MemorySegment.get) */
	for (size_t i = aligned; i < len; i++)
		mix_word(&m, (uint32_t) (int32_t) (int8_t) data[i]);
	m.len = len;
	return murmur_final(&m);
}

/*
 * The hash of a key row whose fields all fill their 8-byte slot with no
 * variable part (INT, DATE, TIME, BIGINT) and whose null bits fit the
 * first header word (up to 56 fields), straight from the values: the
 * bytes pm_binary_row_emit would give (header word: row kind 0 and a bit
 * per NULL field from bit 8; a slot per field: the value little-endian,
 * zero-extended, or zero for NULL). The usual primary key (one BIGINT or
 * INT) takes no callbacks. False: another type, use the general path.
 */
static bool
hash_fixed_ints(const pm_type *row_type, const pm_value *values, int32_t *hash)
{
	int			n = row_type != NULL && row_type->id == PM_TYPE_ROW ? row_type->nfields : 0;
	murmur		m = {MURMUR_SEED, {0}, 0, 0};
	uint64_t	header = 0;

	if (n < 1 || n > 56)
		return false;
	for (int i = 0; i < n; i++)
	{
		pm_type_id	id = row_type->fields[i].type->id;

		if (id != PM_TYPE_INT && id != PM_TYPE_DATE && id != PM_TYPE_TIME &&
			id != PM_TYPE_BIGINT)
			return false;
		if (values[i].is_null)
			header |= (uint64_t) 1 << (i + 8);
	}
	mix_word(&m, (uint32_t) header);
	mix_word(&m, (uint32_t) (header >> 32));
	for (int i = 0; i < n; i++)
	{
		uint64_t	slot = 0;

		if (!values[i].is_null)
			slot = row_type->fields[i].type->id == PM_TYPE_BIGINT ? (uint64_t) values[i].u.i64
				: (uint64_t) (uint32_t) values[i].u.i64;
		mix_word(&m, (uint32_t) slot);
		mix_word(&m, (uint32_t) (slot >> 32));
	}
	m.len = 8 + 8 * (size_t) n;
	*hash = murmur_final(&m);
	return true;
}

pm_code
pm_bucket_hash(const pm_type *key_row_type, const pm_value *key_values, int32_t *hash,
			   pm_error *err)
{
	murmur		m = {MURMUR_SEED, {0}, 0, 0};
	size_t		total;

	if (hash_fixed_ints(key_row_type, key_values, hash))
		return PM_OK;
	PM_TRY(pm_binary_row_emit(key_row_type, key_values, murmur_update, &m, &total, err));
	/* rows are a multiple of 8 bytes: no tail */
	*hash = murmur_final(&m);
	return PM_OK;
}

pm_code
pm_bucket_of(const pm_type *key_row_type, const pm_value *key_values, int32_t num_buckets,
			 int32_t *bucket, pm_error *err)
{
	int32_t		h;
	int32_t		b;

	if (num_buckets < 1)
		return pm_fail(err, PM_ERR_INVALID, "number of buckets must be positive, not %d",
					   num_buckets);
	PM_TRY(pm_bucket_hash(key_row_type, key_values, &h, err));
	b = h % num_buckets;
	*bucket = b < 0 ? -b : b;
	return PM_OK;
}
