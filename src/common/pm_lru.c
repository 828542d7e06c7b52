/*-------------------------------------------------------------------------
 * pm_lru.c
 *	  Hash table + LRU list + byte budget, shared by the per-process caches
 *	  (see pm_lru.h). Chains are singly linked; the table doubles when it
 *	  holds as many entries as buckets.
 *-------------------------------------------------------------------------
 */
#include "common/pm_lru.h"

#include <stdlib.h>
#include <string.h>

static pm_lru_node **
slot_of(pm_lru *lru, uint64_t hash, pm_lru_match_fn match, const void *key)
{
	pm_lru_node **slot = &lru->buckets[hash & (lru->nbuckets - 1)];

	for (; *slot != NULL; slot = &(*slot)->chain)
		if ((*slot)->hash == hash && match(*slot, key))
			break;
	return slot;
}

static void
lru_unlink(pm_lru *lru, pm_lru_node *e)
{
	if (e->newer)
		e->newer->older = e->older;
	else
		lru->newest = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		lru->oldest = e->newer;
	e->newer = e->older = NULL;
}

static void
lru_push(pm_lru *lru, pm_lru_node *e)
{
	e->older = lru->newest;
	e->newer = NULL;
	if (lru->newest)
		lru->newest->newer = e;
	lru->newest = e;
	if (lru->oldest == NULL)
		lru->oldest = e;
}

void
pm_lru_remove(pm_lru *lru, pm_lru_node *e)
{
	pm_lru_node **slot = &lru->buckets[e->hash & (lru->nbuckets - 1)];

	while (*slot != e)
		slot = &(*slot)->chain;
	*slot = e->chain;
	lru_unlink(lru, e);
	lru->used -= e->charge;
	lru->nentries--;
	lru->free_entry(e);
}

static void
evict_to(pm_lru *lru, size_t limit)
{
	while (lru->used > limit && lru->oldest != NULL)
	{
		pm_lru_remove(lru, lru->oldest);
		lru->evictions++;
	}
}

static bool
grow_buckets(pm_lru *lru)
{
	size_t		n = lru->nbuckets ? lru->nbuckets * 2 :
		(lru->min_buckets ? lru->min_buckets : 256);
	pm_lru_node **b = calloc(n, sizeof(pm_lru_node *));

	if (b == NULL)
		return false;
	for (size_t i = 0; i < lru->nbuckets; i++)
		for (pm_lru_node *e = lru->buckets[i], *next; e != NULL; e = next)
		{
			next = e->chain;
			e->chain = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
		}
	free(lru->buckets);
	lru->buckets = b;
	lru->nbuckets = n;
	return true;
}

void
pm_lru_clear(pm_lru *lru)
{
	while (lru->oldest != NULL)
		pm_lru_remove(lru, lru->oldest);
	free(lru->buckets);
	lru->buckets = NULL;
	lru->nbuckets = 0;
}

void
pm_lru_set_budget(pm_lru *lru, size_t bytes)
{
	lru->budget = bytes;
	if (bytes == 0)
		pm_lru_clear(lru);
	else
		evict_to(lru, bytes);
}

void
pm_lru_get_stats(const pm_lru *lru, pm_lru_stats *out)
{
	out->hits = lru->hits;
	out->misses = lru->misses;
	out->evictions = lru->evictions;
	out->entries = lru->nentries;
	out->bytes = lru->used;
	out->budget = lru->budget;
}

pm_lru_node *
pm_lru_peek(pm_lru *lru, uint64_t hash, pm_lru_match_fn match, const void *key)
{
	if (lru->budget == 0 || lru->nbuckets == 0)
		return NULL;
	return *slot_of(lru, hash, match, key);
}

pm_lru_node *
pm_lru_get(pm_lru *lru, uint64_t hash, pm_lru_match_fn match, const void *key)
{
	pm_lru_node *e;

	if (lru->budget == 0)
		return NULL;
	if ((e = pm_lru_peek(lru, hash, match, key)) == NULL)
	{
		lru->misses++;
		return NULL;
	}
	lru->hits++;
	pm_lru_touch(lru, e);
	return e;
}

void
pm_lru_touch(pm_lru *lru, pm_lru_node *e)
{
	lru_unlink(lru, e);
	lru_push(lru, e);
}

bool
pm_lru_insert(pm_lru *lru, pm_lru_node *e)
{
	if (lru->budget == 0 || e->charge > lru->budget)
	{
		lru->free_entry(e);
		return false;
	}
	if ((lru->nbuckets == 0 || lru->nentries >= (int64_t) lru->nbuckets) &&
		!grow_buckets(lru) && lru->nbuckets == 0)
	{
		lru->free_entry(e);
		return false;
	}
	evict_to(lru, lru->budget - e->charge);
	e->chain = lru->buckets[e->hash & (lru->nbuckets - 1)];
	lru->buckets[e->hash & (lru->nbuckets - 1)] = e;
	e->newer = e->older = NULL;
	lru_push(lru, e);
	lru->used += e->charge;
	lru->nentries++;
	return true;
}

uint64_t
pm_lru_hash_bytes(uint64_t h, const void *data, size_t n)
{
	const uint8_t *p = data;
	uint64_t	w;

	/* eight bytes a step (paths are long, and hashed on every lookup) */
	for (; n >= 8; p += 8, n -= 8)
	{
		memcpy(&w, p, 8);
		h = pm_lru_hash_mix(h, w);
	}
	w = (uint64_t) n << 56;
	for (size_t i = 0; i < n; i++)
		w |= (uint64_t) p[i] << (8 * i);
	return pm_lru_hash_mix(h, w);
}
