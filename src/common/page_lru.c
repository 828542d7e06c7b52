/*-------------------------------------------------------------------------
 * page_lru.c
 *	  The per-process LRU of decompressed pages: a hash table of entries
 *	  (compressed bytes, decompressed bytes) with an LRU list and a byte
 *	  budget (see page_lru.h).
 *
 * The hash reads the lengths, the codec and up to 64 words spread over
 * the compressed bytes (cheap for pages of any size); a candidate with
 * the same hash is a hit only when its compressed bytes are all equal.
 *-------------------------------------------------------------------------
 */
#include "common/page_lru.h"

#include <stdlib.h>
#include <string.h>

typedef struct lru_entry
{
	struct lru_entry *chain;	/* next in its hash bucket */
	struct lru_entry *newer;	/* LRU list: head is the newest */
	struct lru_entry *older;
	uint64_t	hash;
	int			codec;
	size_t		n;				/* compressed bytes, at data */
	size_t		out_len;		/* decompressed bytes, at data + n */
	size_t		charge;
	uint8_t		data[];
} lru_entry;

static size_t budget;
static size_t used;
static int64_t nentries;
static int64_t hits;
static int64_t misses;
static int64_t evictions;
static lru_entry **buckets;
static size_t nbuckets;
static lru_entry *newest;
static lru_entry *oldest;

#define SAMPLE_WORDS 64

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static uint64_t
key_hash(int codec, const uint8_t *src, size_t n, size_t out_len)
{
	uint64_t	h = mix(mix(0xcbf29ce484222325ULL, (uint64_t) codec), (uint64_t) n);

	h = mix(h, (uint64_t) out_len);
	if (n < 8)
	{
		for (size_t i = 0; i < n; i++)
			h = mix(h, src[i]);
	}
	else
	{
		size_t		step = (n - 8) / (SAMPLE_WORDS - 1);

		for (int k = 0; k < SAMPLE_WORDS; k++)
		{
			uint64_t	w;
			size_t		at = step > 0 ? (size_t) k * step : (size_t) k;

			if (at > n - 8)
				at = n - 8;
			memcpy(&w, src + at, 8);
			h = mix(h, w);
		}
	}
	return h ^ (h >> 31);
}

static lru_entry **
find_slot(uint64_t hash, int codec, const uint8_t *src, size_t n, size_t out_len)
{
	lru_entry **slot = &buckets[hash & (nbuckets - 1)];

	for (; *slot != NULL; slot = &(*slot)->chain)
	{
		lru_entry  *e = *slot;

		if (e->hash == hash && e->codec == codec && e->n == n && e->out_len == out_len &&
			memcmp(e->data, src, n) == 0)
			break;
	}
	return slot;
}

static void
lru_unlink(lru_entry *e)
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
lru_push(lru_entry *e)
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
remove_entry(lru_entry *e)
{
	lru_entry **slot = &buckets[e->hash & (nbuckets - 1)];

	while (*slot != e)
		slot = &(*slot)->chain;
	*slot = e->chain;
	lru_unlink(e);
	used -= e->charge;
	nentries--;
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
	size_t		n = nbuckets ? nbuckets * 2 : 1024;
	lru_entry **b = calloc(n, sizeof(lru_entry *));

	if (b == NULL)
		return false;
	for (size_t i = 0; i < nbuckets; i++)
		for (lru_entry *e = buckets[i], *next; e != NULL; e = next)
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
pm_page_lru_set_budget(size_t bytes)
{
	budget = bytes;
	if (bytes > 0)
	{
		evict_to(bytes);
		return;
	}
	while (oldest != NULL)
		remove_entry(oldest);
	free(buckets);
	buckets = NULL;
	nbuckets = 0;
}

bool
pm_page_lru_enabled(void)
{
	return budget > 0;
}

void
pm_page_lru_get_stats(pm_page_lru_stats *out)
{
	out->hits = hits;
	out->misses = misses;
	out->evictions = evictions;
	out->entries = nentries;
	out->bytes = used;
	out->budget = budget;
}

bool
pm_page_lru_fetch(int codec, const uint8_t *src, size_t n, uint8_t *out, size_t out_len)
{
	lru_entry  *e;

	if (budget == 0)
		return false;
	if (nbuckets == 0 ||
		(e = *find_slot(key_hash(codec, src, n, out_len), codec, src, n, out_len)) == NULL)
	{
		misses++;
		return false;
	}
	hits++;
	memcpy(out, e->data + e->n, out_len);
	lru_unlink(e);
	lru_push(e);
	return true;
}

void
pm_page_lru_store(int codec, const uint8_t *src, size_t n, const uint8_t *out, size_t out_len)
{
	size_t		charge = sizeof(lru_entry) + n + out_len;
	uint64_t	hash;
	lru_entry **slot;
	lru_entry  *e;

	if (budget == 0 || charge > budget || charge < n)
		return;
	if (nbuckets == 0 || nentries >= (int64_t) nbuckets)
		if (!grow_buckets() && nbuckets == 0)
			return;
	hash = key_hash(codec, src, n, out_len);
	slot = find_slot(hash, codec, src, n, out_len);
	if (*slot != NULL)
	{
		lru_unlink(*slot);		/* the same bytes: already held */
		lru_push(*slot);
		return;
	}
	if ((e = malloc(charge)) == NULL)
		return;
	memset(e, 0, sizeof(*e));
	e->hash = hash;
	e->codec = codec;
	e->n = n;
	e->out_len = out_len;
	e->charge = charge;
	memcpy(e->data, src, n);
	memcpy(e->data + n, out, out_len);
	evict_to(budget - charge);
	/* eviction may have changed the bucket's chain: link at its head */
	e->chain = buckets[hash & (nbuckets - 1)];
	buckets[hash & (nbuckets - 1)] = e;
	lru_push(e);
	used += charge;
	nentries++;
}
