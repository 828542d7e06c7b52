/*-------------------------------------------------------------------------
 * key_set.c
 *	  Immutable int64 key set (key_set.h). Hand-written.
 *
 * Every probe first rejects a key outside [min, max] with one unsigned
 * compare of k - min against max - min. Inside the range the bitmap (when
 * there is one) answers with one load, else the hash table does: at most
 * half full, a key's home slot is the top bits of its product with 2^64 /
 * phi after folding its high half into its low half (Fibonacci hashing
 * spreads runs of consecutive keys over distinct slots).
 *
 * An empty slot holds INT64_MIN, which is never stored. A probe for
 * INT64_MIN stops at the first empty slot and sees a slot holding the key
 * it looks for: the right answer whenever the range check passed, since
 * then INT64_MIN is the smallest key (index 0).
 *
 * select works a block of rows at a time: one widening loop per value
 * type into an int64 block, then a branch-free bitmap loop, or a hash loop
 * that prefetches the home slots of the whole block before probing.
 *-------------------------------------------------------------------------
 */
#include "common/key_set.h"

#include <stdlib.h>
#include <string.h>

#include "common/compare.h"

#define EMPTY_SLOT INT64_MIN
#define BITMAP_MAX_BITS (UINT64_C(1) << 27)
#define BITMAP_MAX_RATIO 64		/* bitmap bytes / sorted key bytes */
#define BLOCK 64				/* rows per block of select */

struct pm_key_set
{
	const pm_env *env;
	size_t		count;
	int64_t		min;
	int64_t		max;
	uint64_t	span;			/* max - min, as unsigned */
	int64_t    *keys;			/* count sorted distinct keys */
	uint64_t   *bits;			/* bit k - min set for each key, or NULL */
	int64_t    *slot_keys;		/* capacity slots, EMPTY_SLOT if free */
	uint32_t   *slot_index;		/* index into keys of slot_keys[i] */
	size_t		mask;			/* capacity - 1 */
	int			shift;			/* 64 - log2(capacity) */
};

static inline size_t
home_slot(const pm_key_set *s, int64_t k)
{
	uint64_t	x = (uint64_t) k;

	x ^= x >> 32;
	return (size_t) ((x * UINT64_C(0x9e3779b97f4a7c15)) >> s->shift);
}

/* The slot holding k, else the empty slot ending k's probe sequence */
static inline size_t
find_slot(const pm_key_set *s, int64_t k, size_t i)
{
	while (s->slot_keys[i] != k && s->slot_keys[i] != EMPTY_SLOT)
		i = (i + 1) & s->mask;
	return i;
}

/* Membership of a key at offset off (<= span) from min */
static inline uint64_t
bit_has(const uint64_t *bits, uint64_t off)
{
	return (bits[off >> 6] >> (off & 63)) & 1;
}

static int
cmp_int64(const void *a, const void *b)
{
	return pm_cmp_i64(*(const int64_t *) a, *(const int64_t *) b);
}

/* Sort (unless sorted) and deduplicate keys[0..n) in place; the new n */
static size_t
sort_unique(int64_t *keys, size_t n)
{
	size_t		m = 0;

	for (size_t i = 1; i < n; i++)
		if (keys[i - 1] > keys[i])
		{
			qsort(keys, n, sizeof(int64_t), cmp_int64);
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (m == 0 || keys[m - 1] != keys[i])
			keys[m++] = keys[i];
	return m;
}

pm_key_set *
pm_key_set_build(const pm_env *env, int64_t *keys, size_t n, pm_error *err)
{
	pm_key_set *s = NULL;
	size_t		capacity = 16;
	int			log2cap = 4;

	n = sort_unique(keys, n);
	if (n > UINT32_MAX / 4 || (s = pm_alloc(env, sizeof(pm_key_set))) == NULL)
		goto nomem;
	for (; capacity < 2 * n; capacity *= 2)
		log2cap++;
	memset(s, 0, sizeof(*s));
	s->env = env;
	s->count = n;
	s->mask = capacity - 1;
	s->shift = 64 - log2cap;
	s->keys = pm_alloc(env, sizeof(int64_t) * (n > 0 ? n : 1));
	s->slot_keys = pm_alloc(env, sizeof(int64_t) * capacity);
	s->slot_index = pm_alloc(env, sizeof(uint32_t) * capacity);
	if (s->keys == NULL || s->slot_keys == NULL || s->slot_index == NULL)
		goto nomem;
	for (size_t i = 0; i < capacity; i++)
		s->slot_keys[i] = EMPTY_SLOT;
	for (size_t i = 0; i < n; i++)
	{
		size_t		slot = find_slot(s, keys[i], home_slot(s, keys[i]));

		s->keys[i] = s->slot_keys[slot] = keys[i];	/* INT64_MIN: stays empty */
		s->slot_index[slot] = (uint32_t) i;
	}
	if (n == 0)
		return s;
	s->min = keys[0];
	s->max = keys[n - 1];
	s->span = (uint64_t) s->max - (uint64_t) s->min;
	if (s->span < BITMAP_MAX_BITS &&
		(s->span + 1) / 8 <= BITMAP_MAX_RATIO * sizeof(int64_t) * n)
	{
		size_t		nwords = (size_t) (s->span >> 6) + 1;

		if ((s->bits = pm_alloc(env, sizeof(uint64_t) * nwords)) == NULL)
			goto nomem;
		memset(s->bits, 0, sizeof(uint64_t) * nwords);
		for (size_t i = 0; i < n; i++)
		{
			uint64_t	off = (uint64_t) keys[i] - (uint64_t) s->min;

			s->bits[off >> 6] |= UINT64_C(1) << (off & 63);
		}
	}
	return s;

nomem:
	pm_key_set_free(s);
	pm_fail(err, PM_ERR_NOMEM, "out of memory building a set of %zu keys", n);
	return NULL;
}

void
pm_key_set_free(pm_key_set *s)
{
	if (s == NULL)
		return;
	pm_free(s->env, s->keys);
	pm_free(s->env, s->bits);
	pm_free(s->env, s->slot_keys);
	pm_free(s->env, s->slot_index);
	pm_free(s->env, s);
}

size_t
pm_key_set_count(const pm_key_set *s)
{
	return s->count;
}

int64_t
pm_key_set_min(const pm_key_set *s)
{
	return s->min;
}

int64_t
pm_key_set_max(const pm_key_set *s)
{
	return s->max;
}

const int64_t *
pm_key_set_keys(const pm_key_set *s)
{
	return s->keys;
}

int64_t
pm_key_set_index(const pm_key_set *s, int64_t k)
{
	size_t		slot;

	if (s->count == 0 || (uint64_t) k - (uint64_t) s->min > s->span)
		return -1;
	if (k == EMPTY_SLOT)
		return 0;
	slot = find_slot(s, k, home_slot(s, k));
	return s->slot_keys[slot] == k ? (int64_t) s->slot_index[slot] : -1;
}

bool
pm_key_set_contains(const pm_key_set *s, int64_t k)
{
	uint64_t	off = (uint64_t) k - (uint64_t) s->min;

	if (s->count == 0 || off > s->span)
		return false;
	if (s->bits != NULL)
		return bit_has(s->bits, off);
	return s->slot_keys[find_slot(s, k, home_slot(s, k))] == k;
}

/*
 * Rows [base, base + cnt) of values k[0..cnt) and null bytes nulls[0..cnt)
 * (or none): rows[m] is written for each candidate, kept on a hit.
 */
static int64_t
select_block(const pm_key_set *s, const int64_t *k, int cnt, int64_t base,
			 const uint8_t *nulls, int64_t *rows, int64_t m)
{
	uint64_t	umin = (uint64_t) s->min;
	size_t		slot[BLOCK];

	if (s->bits != NULL)
	{
		for (int j = 0; j < cnt; j++)
		{
			uint64_t	off = (uint64_t) k[j] - umin;
			uint64_t	in = off <= s->span;	/* off is read as 0 if not */

			rows[m] = base + j;
			m += in & bit_has(s->bits, off & (0 - in)) & (nulls == NULL || nulls[j] == 0);
		}
		return m;
	}
	for (int j = 0; j < cnt; j++)
	{
		uint64_t	in = (uint64_t) k[j] - umin <= s->span;	/* else slot 0 */

		slot[j] = home_slot(s, k[j]) & (0 - (size_t) in);
		__builtin_prefetch(&s->slot_keys[slot[j]]);
	}
	for (int j = 0; j < cnt; j++)
	{
		if ((uint64_t) k[j] - umin > s->span)
			continue;
		rows[m] = base + j;
		m += (s->slot_keys[find_slot(s, k[j], slot[j])] == k[j]) &
			(nulls == NULL || nulls[j] == 0);
	}
	return m;
}

#define SELECT_TYPE(ctype) \
	do { \
		const ctype *vals = PM_VEC_VALUES(v, ctype); \
		for (int64_t r = 0; r < nrows; r += BLOCK) \
		{ \
			int			cnt = nrows - r < BLOCK ? (int) (nrows - r) : BLOCK; \
			if (v->nulls == NULL) \
				for (int j = 0; j < cnt; j++) \
					k[j] = vals[r + j]; \
			else \
				for (int j = 0; j < cnt; j++) \
				{ \
					/* a NULL row's value is undefined: probe min instead */ \
					int64_t		null = -(int64_t) (v->nulls[r + j] != 0); \
					k[j] = ((int64_t) vals[r + j] & ~null) | (s->min & null); \
				} \
			m = select_block(s, k, cnt, r, v->nulls ? v->nulls + r : NULL, rows, m); \
		} \
	} while (0)

int64_t
pm_key_set_select(const pm_key_set *s, const pm_vector *v, int64_t nrows, int64_t *rows)
{
	int64_t		k[BLOCK];
	int64_t		m = 0;

	if (s->count == 0)
		return 0;
	switch (v->type->id)
	{
		case PM_TYPE_TINYINT:
			SELECT_TYPE(int8_t);
			break;
		case PM_TYPE_SMALLINT:
			SELECT_TYPE(int16_t);
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			SELECT_TYPE(int32_t);
			break;
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			SELECT_TYPE(int64_t);
			break;
		default:
			break;
	}
	return m;
}
