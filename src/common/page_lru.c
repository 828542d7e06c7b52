/*-------------------------------------------------------------------------
 * page_lru.c
 *	  The per-process LRU of decompressed pages keyed by (file path, file
 *	  size, page offset), entries handed out pinned (see page_lru.h).
 *
 * An entry is one malloc'd block: the struct, the path, the header block
 * and the payload; or, when the shared store (common/page_store.h) is on
 * and the page large enough, the struct and the path, its header block and
 * payload in the store's mapping of the page's file: a miss looks there
 * before it is a miss, and a page stored here goes there. It is freed (and
 * unmapped) when it is neither in the cache (in_cache: pm_lru's free_entry
 * only clears that while pins remain) nor pinned.
 *-------------------------------------------------------------------------
 */
#include "common/page_lru.h"

#include <stdlib.h>
#include <string.h>

#include "common/page_store.h"

struct pm_page_entry
{
	pm_lru_node node;			/* first: the entry is its node */
	int64_t		refs;			/* pins */
	bool		in_cache;
	int64_t		file_size;
	int64_t		offset;
	uint64_t	variant;
	size_t		span;
	size_t		path_len;
	size_t		meta_len;
	size_t		data_len;
	char	   *path;			/* inside the block, not terminated */
	const uint8_t *meta;
	const uint8_t *data;
	pm_page_store_map map;		/* base NULL: meta and data are in the block */
	void	   *aux;			/* pm_page_entry_set_aux's, malloc'd */
};

typedef struct page_key
{
	const pm_page_file *f;
	int64_t		offset;
	uint64_t	variant;
} page_key;

static void
entry_free(pm_page_entry *e)
{
	pm_page_store_unmap(&e->map);
	free(e->aux);
	free(e);
}

static void
free_entry(pm_lru_node *node)
{
	pm_page_entry *e = (pm_page_entry *) node;

	e->in_cache = false;
	if (e->refs == 0)
		entry_free(e);
}

static pm_lru cache = {.free_entry = free_entry, .min_buckets = 1024};

static uint64_t
key_hash(const pm_page_file *f, int64_t offset, uint64_t variant)
{
	uint64_t	h = pm_lru_hash_mix(pm_lru_hash_mix(f->hash, (uint64_t) offset), variant);

	return h ^ (h >> 31);
}

static bool
match(const pm_lru_node *node, const void *key)
{
	const pm_page_entry *e = (const pm_page_entry *) node;
	const page_key *k = key;

	return e->offset == k->offset && e->variant == k->variant && e->file_size == k->f->size &&
		e->path_len == k->f->path_len && memcmp(e->path, k->f->path, e->path_len) == 0;
}

void
pm_page_lru_set_budget(size_t bytes)
{
	pm_lru_set_budget(&cache, bytes);
}

bool
pm_page_lru_enabled(void)
{
	return pm_lru_enabled(&cache);
}

void
pm_page_lru_get_stats(pm_page_lru_stats *out)
{
	pm_lru_get_stats(&cache, out);
}

void
pm_page_file_init(pm_page_file *f, const char *path, int64_t size)
{
	f->path = path;
	f->path_len = strlen(path);
	f->size = size;
	f->hash = pm_lru_hash_mix(pm_lru_hash_bytes(PM_LRU_HASH_SEED, path, f->path_len),
							  (uint64_t) size);
}

#define ALIGN16(x) (((x) + 15) & ~(size_t) 15)

static void
store_key_of(const pm_page_file *f, int64_t offset, uint64_t variant, pm_page_store_key *k)
{
	k->path = f->path;
	k->path_len = f->path_len;
	k->file_size = f->size;
	k->file_hash = f->hash;
	k->offset = offset;
	k->variant = variant;
}

/*
 * A new entry of the page of f at offset whose header block and payload
 * are in map (the entry owns it from here: unmapped if anything fails),
 * taken into the cache; NULL if it was not.
 */
static pm_page_entry *
mapped_entry(const pm_page_file *f, int64_t offset, uint64_t variant, pm_page_store_map *map)
{
	size_t		head = ALIGN16(sizeof(pm_page_entry));
	pm_page_entry *e = malloc(head + f->path_len);

	if (e == NULL)
	{
		pm_page_store_unmap(map);
		return NULL;
	}
	memset(e, 0, sizeof(*e));
	e->node.hash = key_hash(f, offset, variant);
	e->node.charge = head + f->path_len + map->len;
	e->in_cache = true;
	e->file_size = f->size;
	e->offset = offset;
	e->variant = variant;
	e->span = map->span;
	e->path_len = f->path_len;
	e->meta_len = map->meta_len;
	e->data_len = map->data_len;
	e->path = (char *) e + head;
	memcpy(e->path, f->path, f->path_len);
	e->meta = map->meta;
	e->data = map->data;
	e->map = *map;
	/* refused (larger than the budget): freed and unmapped by free_entry */
	return pm_lru_insert(&cache, &e->node) ? e : NULL;
}

/* The page from the shared store, taken into the cache; NULL if not there. */
static pm_page_entry *
from_store(const pm_page_file *f, int64_t offset, uint64_t variant)
{
	pm_page_store_key k;
	pm_page_store_map map;

	store_key_of(f, offset, variant, &k);
	if (!pm_page_store_load(&k, &map))
		return NULL;
	return mapped_entry(f, offset, variant, &map);
}

/* How a pin looks a page up (pm_page_lru_pin, _pin_held, _pin_quiet). */
typedef enum pin_mode
{
	PIN_COUNTED,				/* counted; a miss asks the shared store */
	PIN_HELD,					/* this process's cache only, not counted */
	PIN_QUIET					/* this process's cache, then the store, not counted */
} pin_mode;

/* The page, pinned and made the most recently used, or NULL. */
static pm_page_entry *
pin(const pm_page_file *f, int64_t offset, uint64_t variant, pin_mode mode)
{
	page_key	k = {f, offset, variant};
	uint64_t	h;
	pm_page_entry *e;

	if (!pm_lru_enabled(&cache))
		return NULL;
	h = key_hash(f, offset, variant);
	if (mode != PIN_COUNTED)
	{
		if ((e = (pm_page_entry *) pm_lru_peek(&cache, h, match, &k)) != NULL)
			pm_lru_touch(&cache, &e->node);
		else if (mode == PIN_QUIET && pm_page_store_enabled())
			e = from_store(f, offset, variant);
	}
	else if ((e = (pm_page_entry *) pm_lru_get(&cache, h, match, &k)) == NULL &&
			 pm_page_store_enabled() && (e = from_store(f, offset, variant)) != NULL)
	{
		/* a page the store held: a hit (at the shared level), not a miss */
		cache.misses--;
		cache.hits++;
	}
	if (e != NULL)
		e->refs++;
	return e;
}

pm_page_entry *
pm_page_lru_pin(const pm_page_file *f, int64_t offset, uint64_t variant)
{
	return pin(f, offset, variant, PIN_COUNTED);
}

pm_page_entry *
pm_page_lru_pin_held(const pm_page_file *f, int64_t offset, uint64_t variant)
{
	return pin(f, offset, variant, PIN_HELD);
}

pm_page_entry *
pm_page_lru_pin_quiet(const pm_page_file *f, int64_t offset, uint64_t variant)
{
	return pin(f, offset, variant, PIN_QUIET);
}

void
pm_page_lru_count_hits(int64_t n)
{
	cache.hits += n;
}

void
pm_page_lru_unpin(pm_page_entry *e)
{
	if (e != NULL && --e->refs == 0 && !e->in_cache)
		entry_free(e);
}

const void *
pm_page_entry_aux(const pm_page_entry *e)
{
	return e->aux;
}

bool
pm_page_entry_set_aux(pm_page_entry *e, void *aux)
{
	if (e->aux != NULL)
		return false;
	e->aux = aux;
	return true;
}

size_t
pm_page_entry_span(const pm_page_entry *e)
{
	return e->span;
}

const void *
pm_page_entry_meta(const pm_page_entry *e, size_t *meta_len)
{
	*meta_len = e->meta_len;
	return e->meta;
}

const uint8_t *
pm_page_entry_data(const pm_page_entry *e, size_t *len)
{
	*len = e->data_len;
	return e->data;
}

void
pm_page_lru_store(const pm_page_file *f, int64_t offset, uint64_t variant, size_t span,
				  const void *meta, size_t meta_len, const uint8_t *a, size_t alen,
				  const uint8_t *b, size_t blen)
{
	page_key	k = {f, offset, variant};
	size_t		head = ALIGN16(sizeof(pm_page_entry));
	size_t		meta_at = head + ALIGN16(f->path_len);
	size_t		data_at = meta_at + ALIGN16(meta_len);
	size_t		charge = data_at + alen + blen + 8;
	uint64_t	hash;
	pm_lru_node *held;
	pm_page_entry *e;
	uint8_t    *block;

	if (!pm_lru_enabled(&cache) || charge > cache.budget || charge < alen + blen)
		return;
	hash = key_hash(f, offset, variant);
	if ((held = pm_lru_peek(&cache, hash, match, &k)) != NULL)
	{
		pm_lru_touch(&cache, held);	/* the same page: already held */
		return;
	}
	if (pm_page_store_enabled())
	{
		pm_page_store_key sk;
		pm_page_store_map map;

		store_key_of(f, offset, variant, &sk);
		if (pm_page_store_save(&sk, span, meta, meta_len, a, alen, b, blen, &map))
		{
			(void) mapped_entry(f, offset, variant, &map);
			return;
		}
	}
	if ((block = malloc(charge)) == NULL)
		return;
	e = (pm_page_entry *) block;
	memset(e, 0, sizeof(*e));
	e->node.hash = hash;
	e->node.charge = charge;
	e->in_cache = true;
	e->file_size = f->size;
	e->offset = offset;
	e->variant = variant;
	e->span = span;
	e->path_len = f->path_len;
	e->meta_len = meta_len;
	e->data_len = alen + blen;
	e->path = (char *) block + head;
	e->meta = block + meta_at;
	e->data = block + data_at;
	memcpy(e->path, f->path, f->path_len);
	if (meta_len > 0)
		memcpy(block + meta_at, meta, meta_len);
	if (alen > 0)
		memcpy(block + data_at, a, alen);
	if (blen > 0)
		memcpy(block + data_at + alen, b, blen);
	memset(block + data_at + alen + blen, 0, 8);
	(void) pm_lru_insert(&cache, &e->node);
}
