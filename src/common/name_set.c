/*-------------------------------------------------------------------------
 * name_set.c
 *	  A set of byte strings in an arena (name_set.h).
 *-------------------------------------------------------------------------
 */
#include "common/name_set.h"

#include <stdint.h>
#include <string.h>

typedef struct name_key
{
	const char *data;			/* NUL-terminated copy */
	size_t		len;
	uint64_t	hash;
} name_key;

struct pm_name_set
{
	pm_arena   *arena;
	int		   *slots;			/* key number + 1; 0 = empty */
	int			nslots;			/* power of two */
	name_key   *keys;
	int			nkeys;
	int			keys_cap;
};

static uint64_t
fnv1a(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t	h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
	{
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

pm_name_set *
pm_name_set_create(pm_arena *arena)
{
	pm_name_set *set = pm_arena_zalloc(arena, sizeof(pm_name_set));

	if (set == NULL)
		return NULL;
	set->arena = arena;
	set->nslots = 64;
	set->slots = pm_arena_zalloc(arena, sizeof(int) * (size_t) set->nslots);
	return set->slots != NULL ? set : NULL;
}

static int
probe(const pm_name_set *set, const void *key, size_t len, uint64_t hash, int *slot)
{
	size_t		mask = (size_t) set->nslots - 1;

	for (size_t i = (size_t) hash & mask;; i = (i + 1) & mask)
	{
		int			k = set->slots[i] - 1;

		if (k < 0)
		{
			*slot = (int) i;
			return -1;
		}
		if (set->keys[k].hash == hash && set->keys[k].len == len &&
			memcmp(set->keys[k].data, key, len) == 0)
		{
			*slot = (int) i;
			return k;
		}
	}
}

static bool
grow(pm_name_set *set)
{
	int			nslots = set->nslots * 2;
	int		   *slots = pm_arena_zalloc(set->arena, sizeof(int) * (size_t) nslots);
	size_t		mask = (size_t) nslots - 1;

	if (slots == NULL)
		return false;
	for (int k = 0; k < set->nkeys; k++)
	{
		size_t		i = (size_t) set->keys[k].hash & mask;

		while (slots[i] != 0)
			i = (i + 1) & mask;
		slots[i] = k + 1;
	}
	set->slots = slots;
	set->nslots = nslots;
	return true;
}

bool
pm_name_set_add(pm_name_set *set, const void *key, size_t len, int *index)
{
	uint64_t	hash = fnv1a(key, len);
	int			slot;
	int			k = probe(set, key, len, hash, &slot);
	char	   *copy;

	if (k >= 0)
	{
		if (index != NULL)
			*index = k;
		return true;
	}
	if ((set->nkeys + 1) * 2 > set->nslots)
	{
		if (!grow(set))
			return false;
		(void) probe(set, key, len, hash, &slot);
	}
	if (set->nkeys == set->keys_cap)
	{
		int			ncap = set->keys_cap ? set->keys_cap * 2 : 32;
		name_key   *grown = pm_arena_realloc(set->arena, set->keys,
											 sizeof(name_key) * (size_t) set->keys_cap,
											 sizeof(name_key) * (size_t) ncap);

		if (grown == NULL)
			return false;
		set->keys = grown;
		set->keys_cap = ncap;
	}
	copy = pm_arena_alloc(set->arena, len + 1);
	if (copy == NULL)
		return false;
	memcpy(copy, key, len);
	copy[len] = '\0';
	set->keys[set->nkeys] = (name_key) {copy, len, hash};
	set->slots[slot] = set->nkeys + 1;
	if (index != NULL)
		*index = set->nkeys;
	set->nkeys++;
	return true;
}

bool
pm_name_set_add_str(pm_name_set *set, const char *key)
{
	return pm_name_set_add(set, key, strlen(key), NULL);
}

int
pm_name_set_find(const pm_name_set *set, const void *key, size_t len)
{
	int			slot;

	return probe(set, key, len, fnv1a(key, len), &slot);
}

bool
pm_name_set_contains_str(const pm_name_set *set, const char *key)
{
	return pm_name_set_find(set, key, strlen(key)) >= 0;
}

int
pm_name_set_count(const pm_name_set *set)
{
	return set->nkeys;
}

const char *
pm_name_set_key(const pm_name_set *set, int i, size_t *len)
{
	if (len != NULL)
		*len = set->keys[i].len;
	return set->keys[i].data;
}
