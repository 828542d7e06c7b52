/*-------------------------------------------------------------------------
 * page_lru.c
 *	  The per-process LRU of decompressed pages keyed by (file path, file
 *	  size, page offset), entries handed out pinned (see page_lru.h).
 *
 * An entry is one malloc'd block: the struct, the path, the header block
 * and the payload. It is freed when it is neither in the cache
 * (in_cache: pm_lru's free_entry only clears that while pins remain) nor
 * pinned.
 *-------------------------------------------------------------------------
 */
#include "common/page_lru.h"

#include <stdlib.h>
#include <string.h>

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
	uint8_t    *meta;
	uint8_t    *data;
};

typedef struct page_key
{
	const pm_page_file *f;
	int64_t		offset;
	uint64_t	variant;
} page_key;

static void
free_entry(pm_lru_node *node)
{
	pm_page_entry *e = (pm_page_entry *) node;

	e->in_cache = false;
	if (e->refs == 0)
		free(e);
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

pm_page_entry *
pm_page_lru_pin(const pm_page_file *f, int64_t offset, uint64_t variant)
{
	page_key	k = {f, offset, variant};
	pm_page_entry *e;

	if (!pm_lru_enabled(&cache))
		return NULL;
	e = (pm_page_entry *) pm_lru_get(&cache, key_hash(f, offset, variant), match, &k);
	if (e != NULL)
		e->refs++;
	return e;
}

void
pm_page_lru_unpin(pm_page_entry *e)
{
	if (e != NULL && --e->refs == 0 && !e->in_cache)
		free(e);
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

#define ALIGN16(x) (((x) + 15) & ~(size_t) 15)

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
		memcpy(e->meta, meta, meta_len);
	if (alen > 0)
		memcpy(e->data, a, alen);
	if (blen > 0)
		memcpy(e->data + alen, b, blen);
	memset(e->data + alen + blen, 0, 8);
	(void) pm_lru_insert(&cache, &e->node);
}
