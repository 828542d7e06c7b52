/*-------------------------------------------------------------------------
 * chunk_buffers.c
 *	  Column chunk buffers reused by the readers of one sequential read
 *	  (see chunk_buffers.h).
 *-------------------------------------------------------------------------
 */
#include "format/chunk_buffers.h"

#include <string.h>

#include "common/env.h"


struct pm_chunk_buffers
{
	pm_arena   *arena;			/* the pool and its arrays */
	const pm_env *env;			/* the buffers (freed on growth and destroy) */
	int			n;
	uint8_t   **buf;
	size_t	   *cap;
};

pm_chunk_buffers *
pm_chunk_buffers_create(pm_arena *arena)
{
	pm_chunk_buffers *pool = pm_arena_zalloc(arena, sizeof(pm_chunk_buffers));

	if (pool != NULL)
	{
		pool->arena = arena;
		pool->env = pm_arena_env(arena);
	}
	return pool;
}

uint8_t *
pm_chunk_buffers_get(pm_chunk_buffers *pool, int slot, size_t len)
{
	if (slot < 0)
		return NULL;
	if (slot >= pool->n)
	{
		int			n = slot + 8;
		uint8_t   **buf = pm_arena_zalloc(pool->arena, sizeof(uint8_t *) * (size_t) n);
		size_t	   *cap = pm_arena_zalloc(pool->arena, sizeof(size_t) * (size_t) n);

		if (buf == NULL || cap == NULL)
			return NULL;
		if (pool->n > 0)
		{
			memcpy(buf, pool->buf, sizeof(uint8_t *) * (size_t) pool->n);
			memcpy(cap, pool->cap, sizeof(size_t) * (size_t) pool->n);
		}
		pool->buf = buf;
		pool->cap = cap;
		pool->n = n;
	}
	if (len > pool->cap[slot])
	{
		/* a quarter more: chunks of the next files are about as large */
		size_t		ncap = len + len / 4 + 64;

		/* the slot's old buffer held a finished row group: nobody reads it */
		pm_free(pool->env, pool->buf[slot]);
		pool->cap[slot] = 0;
		if ((pool->buf[slot] = pm_alloc(pool->env, ncap)) == NULL)
			return NULL;
		pool->cap[slot] = ncap;
	}
	return pool->buf[slot];
}

void
pm_chunk_buffers_destroy(pm_chunk_buffers *pool)
{
	if (pool == NULL)
		return;
	for (int i = 0; i < pool->n; i++)
		pm_free(pool->env, pool->buf[i]);
	pool->n = 0;
}
