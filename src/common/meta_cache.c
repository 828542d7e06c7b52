/*-------------------------------------------------------------------------
 * meta_cache.c
 *	  The per-process metadata cache: flattened values in a pm_lru (see
 *	  meta_cache.h).
 *
 * Memory comes from malloc, not from a pm_env: entries outlive every
 * query, and nothing here can raise (a failed malloc just skips caching).
 *-------------------------------------------------------------------------
 */
#include "common/meta_cache.h"

#include <stdlib.h>

typedef struct cache_entry
{
	pm_lru_node node;			/* first: the entry is its node */
	int64_t		refs;			/* pins (pm_meta_cache_pin) */
	bool		in_cache;
	pm_meta_kind kind;
	int64_t		size;
	size_t		len;			/* bytes of block */
	void	   *block;
	pm_meta_free_fn free_fn;	/* owned values: frees block; NULL: free() */
	char		path[];
} cache_entry;

typedef struct meta_key
{
	pm_meta_kind kind;
	const char *path;
	int64_t		size;
} meta_key;

static void
free_block(cache_entry *e)
{
	if (e->free_fn != NULL)
		e->free_fn(e->block);
	else
		free(e->block);
}

static void
free_entry(pm_lru_node *node)
{
	cache_entry *e = (cache_entry *) node;

	e->in_cache = false;
	if (e->refs > 0)
		return;					/* freed at the last unpin */
	free_block(e);
	free(e);
}

static pm_lru cache = {.free_entry = free_entry};

static uint64_t
key_hash(const meta_key *k)
{
	uint64_t	h = pm_lru_hash_bytes(PM_LRU_HASH_SEED, k->path, strlen(k->path));

	h ^= (uint64_t) k->kind * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t) k->size * 0xc2b2ae3d27d4eb4fULL;
	return h ^ (h >> 29);
}

static bool
match(const pm_lru_node *node, const void *key)
{
	const cache_entry *e = (const cache_entry *) node;
	const meta_key *k = key;

	return e->kind == k->kind && e->size == k->size && strcmp(e->path, k->path) == 0;
}

void
pm_meta_cache_clear(void)
{
	pm_lru_clear(&cache);
}

void
pm_meta_cache_set_budget(size_t bytes)
{
	pm_lru_set_budget(&cache, bytes);
}

bool
pm_meta_cache_enabled(void)
{
	return pm_lru_enabled(&cache);
}

void
pm_meta_cache_get_stats(pm_meta_cache_stats *out)
{
	pm_lru_get_stats(&cache, out);
}

void *
pm_meta_cache_fetch(pm_meta_kind kind, const char *path, int64_t size, pm_arena *arena,
					pm_flatten_fn fn)
{
	meta_key	k = {kind, path, size};
	cache_entry *e;
	pm_flat		f;

	if (!pm_lru_enabled(&cache))
		return NULL;
	if ((e = (cache_entry *) pm_lru_peek(&cache, key_hash(&k), match, &k)) == NULL)
	{
		cache.misses++;
		return NULL;
	}
	f.base = pm_arena_alloc(arena, e->len);
	f.used = 0;
	if (f.base == NULL)
	{
		cache.misses++;
		return NULL;
	}
	cache.hits++;
	pm_lru_touch(&cache, &e->node);
	return fn(e->block, &f);
}

const void *
pm_meta_cache_pin(pm_meta_kind kind, const char *path, int64_t size, int count,
				  pm_meta_pin **pin)
{
	meta_key	k = {kind, path, size};
	cache_entry *e;

	*pin = NULL;
	if (!pm_lru_enabled(&cache))
		return NULL;
	if ((e = (cache_entry *) pm_lru_peek(&cache, key_hash(&k), match, &k)) == NULL)
	{
		if (count & PM_META_COUNT_MISS)
			cache.misses++;
		return NULL;
	}
	if (count & PM_META_COUNT_HIT)
		cache.hits++;
	pm_lru_touch(&cache, &e->node);
	e->refs++;
	*pin = (pm_meta_pin *) e;
	return e->block;			/* the root is the block's first take */
}

void
pm_meta_cache_count_hits(int64_t n)
{
	cache.hits += n;
}

void
pm_meta_cache_unpin(pm_meta_pin *pin)
{
	cache_entry *e = (cache_entry *) pin;

	if (e != NULL && --e->refs == 0 && !e->in_cache)
	{
		free_block(e);
		free(e);
	}
}

void
pm_meta_cache_store(pm_meta_kind kind, const char *path, int64_t size, const void *value,
					pm_flatten_fn fn)
{
	meta_key	k = {kind, path, size};
	pm_flat		f = {NULL, 0};
	size_t		plen = strlen(path);
	size_t		charge;
	uint64_t	hash = key_hash(&k);
	pm_lru_node *held;
	cache_entry *e;

	if (!pm_lru_enabled(&cache))
		return;
	fn(value, &f);				/* measure */
	charge = f.used + sizeof(cache_entry) + plen + 1;
	if (charge > cache.budget)
		return;
	if ((held = pm_lru_peek(&cache, hash, match, &k)) != NULL)
		pm_lru_remove(&cache, held);
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
	e->node.hash = hash;
	e->node.charge = charge;
	e->in_cache = true;
	e->kind = kind;
	e->size = size;
	memcpy(e->path, path, plen + 1);
	(void) pm_lru_insert(&cache, &e->node);
}

bool
pm_meta_cache_store_owned(pm_meta_kind kind, const char *path, int64_t size, void *value,
						  size_t charge, pm_meta_free_fn free_fn)
{
	meta_key	k = {kind, path, size};
	size_t		plen = strlen(path);
	uint64_t	hash = key_hash(&k);
	pm_lru_node *held;
	cache_entry *e;

	charge += sizeof(cache_entry) + plen + 1;
	if (!pm_lru_enabled(&cache) || charge > cache.budget ||
		(e = malloc(sizeof(cache_entry) + plen + 1)) == NULL)
		return false;
	if ((held = pm_lru_peek(&cache, hash, match, &k)) != NULL)
		pm_lru_remove(&cache, held);
	memset(e, 0, sizeof(*e));
	e->block = value;
	e->free_fn = free_fn;
	e->node.hash = hash;
	e->node.charge = charge;
	e->in_cache = true;
	e->kind = kind;
	e->size = size;
	memcpy(e->path, path, plen + 1);
	/* on failure (no memory for the table) pm_lru_insert frees it: owned all the same */
	(void) pm_lru_insert(&cache, &e->node);
	return true;
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
