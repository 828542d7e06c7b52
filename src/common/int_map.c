/*-------------------------------------------------------------------------
 * int_map.c
 *	  int32 -> int32 open-addressing map (int_map.h). The table is kept at
 *	  most half full; keys are spread with the murmur3 finalizer so that
 *	  hash codes with equal low bits (Paimon key hashes) do not cluster.
 *-------------------------------------------------------------------------
 */
#include "common/int_map.h"

#include <string.h>

static size_t
slot_of(int32_t key, size_t capacity)
{
	uint32_t	h = (uint32_t) key;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return (size_t) h & (capacity - 1);
}

void
pm_int_map_init(pm_int_map *m, const pm_env *env)
{
	memset(m, 0, sizeof(*m));
	m->env = env;
}

void
pm_int_map_free(pm_int_map *m)
{
	const pm_env *env = m->env;

	pm_free(env, m->keys);
	pm_free(env, m->values);
	pm_free(env, m->used);
	pm_int_map_init(m, env);
}

static bool
resize(pm_int_map *m, size_t capacity)
{
	int32_t    *keys = pm_alloc(m->env, sizeof(int32_t) * capacity);
	int32_t    *values = pm_alloc(m->env, sizeof(int32_t) * capacity);
	uint8_t    *used = pm_alloc(m->env, capacity);

	if (keys == NULL || values == NULL || used == NULL)
	{
		pm_free(m->env, keys);
		pm_free(m->env, values);
		pm_free(m->env, used);
		return false;
	}
	memset(used, 0, capacity);
	for (size_t i = 0; i < m->capacity; i++)
	{
		size_t		s;

		if (!m->used[i])
			continue;
		for (s = slot_of(m->keys[i], capacity); used[s]; s = (s + 1) & (capacity - 1))
			;
		used[s] = 1;
		keys[s] = m->keys[i];
		values[s] = m->values[i];
	}
	pm_free(m->env, m->keys);
	pm_free(m->env, m->values);
	pm_free(m->env, m->used);
	m->keys = keys;
	m->values = values;
	m->used = used;
	m->capacity = capacity;
	return true;
}

bool
pm_int_map_reserve(pm_int_map *m, size_t n)
{
	size_t		capacity = m->capacity > 0 ? m->capacity : 16;

	while (capacity / 2 < n)
	{
		if (capacity > SIZE_MAX / 8)
			return false;
		capacity *= 2;
	}
	return capacity == m->capacity || resize(m, capacity);
}

bool
pm_int_map_get(const pm_int_map *m, int32_t key, int32_t *value)
{
	if (m->capacity == 0)
		return false;
	for (size_t s = slot_of(key, m->capacity); m->used[s]; s = (s + 1) & (m->capacity - 1))
		if (m->keys[s] == key)
		{
			if (value != NULL)
				*value = m->values[s];
			return true;
		}
	return false;
}

bool
pm_int_map_put(pm_int_map *m, int32_t key, int32_t value, bool *added)
{
	size_t		s;

	if (added != NULL)
		*added = false;
	if (!pm_int_map_reserve(m, m->count + 1))
		return false;
	for (s = slot_of(key, m->capacity); m->used[s]; s = (s + 1) & (m->capacity - 1))
		if (m->keys[s] == key)
		{
			m->values[s] = value;
			return true;
		}
	m->used[s] = 1;
	m->keys[s] = key;
	m->values[s] = value;
	m->count++;
	if (added != NULL)
		*added = true;
	return true;
}

bool
pm_int_map_next(const pm_int_map *m, size_t *pos, int32_t *key, int32_t *value)
{
	while (*pos < m->capacity)
	{
		size_t		s = (*pos)++;

		if (m->used[s])
		{
			*key = m->keys[s];
			if (value != NULL)
				*value = m->values[s];
			return true;
		}
	}
	return false;
}
