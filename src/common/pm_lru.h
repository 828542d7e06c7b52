/*-------------------------------------------------------------------------
 * pm_lru.h
 *	  The skeleton of every per-process cache: a hash table of entries with
 *	  an LRU list and a byte budget (the page cache, the metadata cache,
 *	  the Parquet page-index and decoded-key caches are built on it).
 *
 * Entries are the caller's structs that embed a pm_lru_node (first member
 * or not: the caller converts back). The caller computes the hash and
 * the charge (the bytes the entry holds, bookkeeping included) and says
 * how to compare a key (pm_lru_match_fn) and how to free an entry
 * (pm_lru.free_entry). Eviction frees the least recently used entries
 * until the charge of all is within the budget; budget 0 turns the cache
 * off and frees everything.
 *
 * A pointer pm_lru_get returns stays valid until the next pm_lru_insert,
 * pm_lru_set_budget or pm_lru_clear on the same cache (those may evict):
 * callers use or copy an entry before they insert another. Memory comes
 * from malloc: entries outlive every query, and nothing here can fail but
 * quietly (a cache that cannot grow just holds less). Not thread-safe:
 * one backend, one cache.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_PM_LRU_H
#define PM_COMMON_PM_LRU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pm_lru_node
{
	struct pm_lru_node *chain;	/* next in its hash bucket */
	struct pm_lru_node *newer;	/* LRU list: newest is the most recently used */
	struct pm_lru_node *older;
	uint64_t	hash;
	size_t		charge;
} pm_lru_node;

typedef struct pm_lru_stats
{
	int64_t		hits;
	int64_t		misses;			/* lookups while the cache was on */
	int64_t		evictions;		/* entries dropped to stay within the budget */
	int64_t		entries;
	size_t		bytes;			/* charge of the entries held */
	size_t		budget;
} pm_lru_stats;

/* Frees an entry (the struct that embeds node, and what it owns). */
typedef void (*pm_lru_free_fn) (pm_lru_node *node);

/* Is node the entry of key? (Called only for nodes of key's hash.) */
typedef bool (*pm_lru_match_fn) (const pm_lru_node *node, const void *key);

/*
 * A cache: zero it, set free_entry (and optionally min_buckets, a power
 * of two), then set a budget. Static storage is fine.
 */
typedef struct pm_lru
{
	pm_lru_free_fn free_entry;
	size_t		min_buckets;	/* first table size; 0: 256 */
	size_t		budget;
	size_t		used;
	int64_t		nentries;
	int64_t		hits;
	int64_t		misses;
	int64_t		evictions;
	pm_lru_node **buckets;
	size_t		nbuckets;
	pm_lru_node *newest;
	pm_lru_node *oldest;
} pm_lru;

/* Set the byte budget, evicting down to it; 0 turns the cache off and empties it. */
extern void pm_lru_set_budget(pm_lru *lru, size_t bytes);

static inline bool
pm_lru_enabled(const pm_lru *lru)
{
	return lru->budget > 0;
}

/* Drop every entry (counters stay). */
extern void pm_lru_clear(pm_lru *lru);

extern void pm_lru_get_stats(const pm_lru *lru, pm_lru_stats *out);

/*
 * The entry of key (made the most recently used), or NULL. Counts a hit or
 * a miss while the cache is on.
 */
extern pm_lru_node *pm_lru_get(pm_lru *lru, uint64_t hash, pm_lru_match_fn match,
							   const void *key);

/* The same without counting or touching the LRU order. */
extern pm_lru_node *pm_lru_peek(pm_lru *lru, uint64_t hash, pm_lru_match_fn match,
								const void *key);

/* Make a held entry the most recently used. */
extern void pm_lru_touch(pm_lru *lru, pm_lru_node *node);

/*
 * Take node (hash and charge set by the caller) into the cache, evicting
 * the least recently used entries to make room. The caller has checked
 * that no entry of the same key is held (pm_lru_peek + pm_lru_remove).
 * When the cache is off, the entry is larger than the budget or the table
 * cannot be allocated, node is freed (free_entry) and false returned:
 * either way the caller no longer owns node.
 */
extern bool pm_lru_insert(pm_lru *lru, pm_lru_node *node);

/* Unlink node and free it. */
extern void pm_lru_remove(pm_lru *lru, pm_lru_node *node);

/* Hashes for keys: of bytes (a word at a time), and a mix of one more word. */
extern uint64_t pm_lru_hash_bytes(uint64_t h, const void *data, size_t n);

static inline uint64_t
pm_lru_hash_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

#define PM_LRU_HASH_SEED 0xcbf29ce484222325ULL

#endif							/* PM_COMMON_PM_LRU_H */
