/*-------------------------------------------------------------------------
 * meta_cache.c
 *	  The per-process metadata cache: a hash table of flattened values with
 *	  an LRU list and a byte budget (see meta_cache.h).
 *
 * Memory comes from malloc, not from a pm_env: entries outlive every
 * query, and nothing here can raise (a failed malloc just skips caching).
 *-------------------------------------------------------------------------
 */
#include "common/meta_cache.h"

#include <stdlib.h>

typedef struct cache_entry
{
	struct cache_entry *chain;	/* next in its hash bucket */
	struct cache_entry *newer;	/* LRU list: head is the newest */
	struct cache_entry *older;
	uint64_t	hash;
	pm_meta_kind kind;
	int64_t		size;
	size_t		len;			/* bytes of block */
	size_t		charge;			/* len + this struct + path */
	void	   *block;
	char		path[];
} cache_entry;

static size_t budget;
static size_t used;
static int64_t nentries;
static int64_t hits;
static int64_t misses;
static int64_t evictions;
static cache_entry **buckets;
static size_t nbuckets;
static cache_entry *newest;
static cache_entry *oldest;

static uint64_t
key_hash(pm_meta_kind kind, const char *path, int64_t size)
{
	uint64_t	h = 14695981039346656037ULL;

	for (const char *p = path; *p; p++)
	{
		h ^= (uint8_t) *p;
		h *= 1099511628211ULL;
	}
	h ^= (uint64_t) kind * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t) size * 0xc2b2ae3d27d4eb4fULL;
	return h ^ (h >> 29);
}

static cache_entry **
find_slot(uint64_t hash, pm_meta_kind kind, const char *path, int64_t size)
{
	cache_entry **slot = &buckets[hash & (nbuckets - 1)];

	for (; *slot != NULL; slot = &(*slot)->chain)
	{
		cache_entry *e = *slot;

		if (e->hash == hash && e->kind == kind && e->size == size && strcmp(e->path, path) == 0)
			break;
	}
	return slot;
}

static void
lru_unlink(cache_entry *e)
{
	if (e->newer)
		e->newer->older = e->older;
	else
		newest = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		oldest = e->newer;
	e->newer = e->older = NULL;
}

static void
lru_push(cache_entry *e)
{
	e->older = newest;
	e->newer = NULL;
	if (newest)
		newest->newer = e;
	newest = e;
	if (oldest == NULL)
		oldest = e;
}

static void
remove_entry(cache_entry *e)
{
	cache_entry **slot = find_slot(e->hash, e->kind, e->path, e->size);

	*slot = e->chain;
	lru_unlink(e);
	used -= e->charge;
	nentries--;
	free(e->block);
	free(e);
}

static void
evict_to(size_t limit)
{
	while (used > limit && oldest != NULL)
	{
		remove_entry(oldest);
		evictions++;
	}
}

static bool
grow_buckets(void)
{
	size_t		n = nbuckets ? nbuckets * 2 : 256;
	cache_entry **b = calloc(n, sizeof(cache_entry *));

	if (b == NULL)
		return false;
	for (size_t i = 0; i < nbuckets; i++)
		for (cache_entry *e = buckets[i], *next; e != NULL; e = next)
		{
			next = e->chain;
			e->chain = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
		}
	free(buckets);
	buckets = b;
	nbuckets = n;
	return true;
}

void
pm_meta_cache_clear(void)
{
	while (oldest != NULL)
		remove_entry(oldest);
	free(buckets);
	buckets = NULL;
	nbuckets = 0;
}

void
pm_meta_cache_set_budget(size_t bytes)
{
	budget = bytes;
	if (bytes == 0)
		pm_meta_cache_clear();
	else
		evict_to(bytes);
}

bool
pm_meta_cache_enabled(void)
{
	return budget > 0;
}

void
pm_meta_cache_get_stats(pm_meta_cache_stats *out)
{
	out->hits = hits;
	out->misses = misses;
	out->evictions = evictions;
	out->entries = nentries;
	out->bytes = used;
	out->budget = budget;
}

void *
pm_meta_cache_fetch(pm_meta_kind kind, const char *path, int64_t size, pm_arena *arena,
					pm_flatten_fn fn)
{
	cache_entry *e;
	pm_flat		f;

	if (budget == 0)
		return NULL;
	if (nbuckets == 0 ||
		(e = *find_slot(key_hash(kind, path, size), kind, path, size)) == NULL)
	{
		misses++;
		return NULL;
	}
	f.base = pm_arena_alloc(arena, e->len);
	f.used = 0;
	if (f.base == NULL)
	{
		misses++;
		return NULL;
	}
	hits++;
	lru_unlink(e);
	lru_push(e);
	return fn(e->block, &f);
}

void
pm_meta_cache_store(pm_meta_kind kind, const char *path, int64_t size, const void *value,
					pm_flatten_fn fn)
{
	pm_flat		f = {NULL, 0};
	size_t		plen = strlen(path);
	size_t		charge;
	uint64_t	hash = key_hash(kind, path, size);
	cache_entry **slot;
	cache_entry *e;

	if (budget == 0)
		return;
	fn(value, &f);				/* measure */
	charge = f.used + sizeof(cache_entry) + plen + 1;
	if (charge > budget)
		return;
	if (nbuckets == 0 || nentries >= (int64_t) nbuckets)
		if (!grow_buckets() && nbuckets == 0)
			return;
	slot = find_slot(hash, kind, path, size);
	if (*slot != NULL)
		remove_entry(*slot);
	e = malloc(sizeof(cache_entry) + plen + 1);
	if (e == NULL)
		return;
	memset(e, 0, sizeof(*e));
	e->block = malloc(f.used > 0 ? f.used : 1);
	if (e->block == NULL)
	{
		free(e);
		return;
	}
	e->len = f.used;
	f.base = e->block;
	f.used = 0;
	fn(value, &f);				/* copy */
	e->hash = hash;
	e->kind = kind;
	e->size = size;
	e->charge = charge;
	memcpy(e->path, path, plen + 1);
	evict_to(budget - charge);
	/* eviction may have changed the bucket's chain: link at its head */
	e->chain = buckets[hash & (nbuckets - 1)];
	buckets[hash & (nbuckets - 1)] = e;
	lru_push(e);
	used += charge;
	nentries++;
}

void *
pm_meta_bytes_flatten(const void *src, pm_flat *f)
{
	const pm_meta_bytes *b = src;
	pm_meta_bytes *copy = pm_flat_take(f, sizeof(pm_meta_bytes));
	void	   *data = pm_flat_bytes(f, b->data, b->len);

	if (copy == NULL)
		return NULL;
	copy->data = data;
	copy->len = b->len;
	return copy;
}
