/*-------------------------------------------------------------------------
 * page_lru.c
 *	  The per-process LRU of decompressed pages: entries (compressed bytes,
 *	  decompressed bytes) in a pm_lru (see page_lru.h).
 *
 * The hash reads the lengths, the codec and up to 64 words spread over
 * the compressed bytes (cheap for pages of any size); a candidate with
 * the same hash is a hit only when its compressed bytes are all equal.
 *-------------------------------------------------------------------------
 */
#include "common/page_lru.h"

#include <stdlib.h>
#include <string.h>

typedef struct page_entry
{
	pm_lru_node node;			/* first: the entry is its node */
	int			codec;
	size_t		n;				/* compressed bytes, at data */
	size_t		out_len;		/* decompressed bytes, at data + n */
	uint8_t		data[];
} page_entry;

typedef struct page_key
{
	int			codec;
	const uint8_t *src;
	size_t		n;
	size_t		out_len;
} page_key;

static void
free_entry(pm_lru_node *node)
{
	free(node);
}

static pm_lru cache = {.free_entry = free_entry, .min_buckets = 1024};

#define SAMPLE_WORDS 64

static uint64_t
key_hash(const page_key *k)
{
	uint64_t	h = pm_lru_hash_mix(pm_lru_hash_mix(PM_LRU_HASH_SEED, (uint64_t) k->codec),
									(uint64_t) k->n);

	h = pm_lru_hash_mix(h, (uint64_t) k->out_len);
	if (k->n < 8)
	{
		for (size_t i = 0; i < k->n; i++)
			h = pm_lru_hash_mix(h, k->src[i]);
	}
	else
	{
		size_t		step = (k->n - 8) / (SAMPLE_WORDS - 1);

		for (int i = 0; i < SAMPLE_WORDS; i++)
		{
			uint64_t	w;
			size_t		at = step > 0 ? (size_t) i * step : (size_t) i;

			if (at > k->n - 8)
				at = k->n - 8;
			memcpy(&w, k->src + at, 8);
			h = pm_lru_hash_mix(h, w);
		}
	}
	return h ^ (h >> 31);
}

static bool
match(const pm_lru_node *node, const void *key)
{
	const page_entry *e = (const page_entry *) node;
	const page_key *k = key;

	return e->codec == k->codec && e->n == k->n && e->out_len == k->out_len &&
		memcmp(e->data, k->src, k->n) == 0;
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

bool
pm_page_lru_fetch(int codec, const uint8_t *src, size_t n, uint8_t *out, size_t out_len)
{
	page_key	k = {codec, src, n, out_len};
	page_entry *e;

	if (!pm_lru_enabled(&cache))
		return false;
	if ((e = (page_entry *) pm_lru_get(&cache, key_hash(&k), match, &k)) == NULL)
		return false;
	memcpy(out, e->data + e->n, out_len);
	return true;
}

void
pm_page_lru_store(int codec, const uint8_t *src, size_t n, const uint8_t *out, size_t out_len)
{
	page_key	k = {codec, src, n, out_len};
	size_t		charge = sizeof(page_entry) + n + out_len;
	uint64_t	hash;
	pm_lru_node *held;
	page_entry *e;

	if (!pm_lru_enabled(&cache) || charge > cache.budget || charge < n)
		return;
	hash = key_hash(&k);
	if ((held = pm_lru_peek(&cache, hash, match, &k)) != NULL)
	{
		pm_lru_touch(&cache, held);	/* the same bytes: already held */
		return;
	}
	if ((e = malloc(charge)) == NULL)
		return;
	memset(e, 0, sizeof(*e));
	e->node.hash = hash;
	e->node.charge = charge;
	e->codec = codec;
	e->n = n;
	e->out_len = out_len;
	memcpy(e->data, src, n);
	memcpy(e->data + n, out, out_len);
	(void) pm_lru_insert(&cache, &e->node);
}
