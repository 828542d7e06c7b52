/*-------------------------------------------------------------------------
 * meta_cache.h
 *	  A per-process cache of decoded metadata that files make immutable:
 *	  manifest lists, manifests' entries, schemas, snapshots, file footers.
 *
 * Keys are (kind, local path, file size): Paimon never rewrites a file
 * under the same name (names carry a UUID, or an id that only grows), and
 * the size guards against a file deleted by expiry or rollback and written
 * again; callers of kinds whose name can come back (snapshot-N, schema-N)
 * also compare the file's bytes (see snapshot.c, schema.c).
 *
 * Values are flattened: one malloc'd block holding a root struct and
 * everything it points to (pm_flat). The cache owns that memory, never a
 * caller's arena or a query's memory context. pm_meta_cache_fetch copies
 * a value into the caller's arena; pm_meta_cache_pin hands out the cached
 * value in place, pinned: eviction then only unlinks it, and the last
 * unpin frees it. So an ERROR in the middle of a query can leave nothing
 * dangling (callers unpin from their close, which runs on ERROR too).
 *
 * The total charge of the entries (blocks + bookkeeping) stays within a
 * byte budget, evicting the least recently used first; budget 0 (the
 * default) turns the cache off and frees it. Not thread-safe: one backend,
 * one cache.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_META_CACHE_H
#define PM_COMMON_META_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/arena.h"
#include "common/pm_lru.h"

typedef enum pm_meta_kind
{
	PM_META_SNAPSHOT,
	PM_META_SCHEMA,
	PM_META_MANIFEST_LIST,
	PM_META_MANIFEST,
	PM_META_PARQUET_FOOTER,
	PM_META_ORC_TAIL,
	PM_META_PARQUET_PAGE_INDEX,	/* path "<file>#<row group>.<leaf>" */
	PM_META_FILE_INDEX,			/* a data file's .index sidecar; size: the data file's */
	PM_META_PARQUET_METADATA	/* a parsed Parquet footer (owned, not flattened) */
} pm_meta_kind;

typedef pm_lru_stats pm_meta_cache_stats;

/* Set the byte budget, evicting down to it; 0 turns the cache off and empties it. */
extern void pm_meta_cache_set_budget(size_t bytes);
extern bool pm_meta_cache_enabled(void);
/* Drop every entry (the counters stay). */
extern void pm_meta_cache_clear(void);
extern void pm_meta_cache_get_stats(pm_meta_cache_stats *out);

/*
 * Flattening: a pm_flat is a bump allocator over one block. With base NULL
 * it only measures (takes return NULL and nothing may be written); with a
 * block of the measured size it copies. A flatten function copies the
 * value `src` through f and returns the copy's root (NULL when measuring);
 * the root must be its first take.
 */
typedef struct pm_flat
{
	uint8_t    *base;
	size_t		used;
} pm_flat;

typedef void *(*pm_flatten_fn) (const void *src, pm_flat *f);

static inline void *
pm_flat_take(pm_flat *f, size_t n)
{
	size_t		at = (f->used + 15) & ~(size_t) 15;

	f->used = at + n;
	return f->base != NULL ? f->base + at : NULL;
}

/* A copy of n bytes of src (NULL stays NULL; also NULL when measuring). */
static inline void *
pm_flat_bytes(pm_flat *f, const void *src, size_t n)
{
	void	   *p;

	if (src == NULL)
		return NULL;
	p = pm_flat_take(f, n);
	if (p != NULL && n > 0)
		memcpy(p, src, n);
	return p;
}

static inline char *
pm_flat_string(pm_flat *f, const char *s)
{
	return s != NULL ? (char *) pm_flat_bytes(f, s, strlen(s) + 1) : NULL;
}

/*
 * A copy in arena of the value cached under the key (its root), or NULL
 * when it is not cached (a miss; also when the cache is off or arena is out
 * of memory). Counts a hit or a miss while the cache is on.
 */
extern void *pm_meta_cache_fetch(pm_meta_kind kind, const char *path, int64_t size,
								 pm_arena *arena, pm_flatten_fn fn);

/*
 * The cached value itself (its root; read-only), without copying, or NULL
 * on a miss. count says what the hit/miss counters of EXPLAIN see
 * (PM_META_COUNT_HIT | PM_META_COUNT_MISS, as pm_meta_cache_fetch counts;
 * less where another lookup counts for the same read). A hit is pinned
 * (*pin): it stays valid, evicted or not, until pm_meta_cache_unpin(*pin),
 * which the caller must call, also on its error paths (unpin(NULL) does
 * nothing).
 */
typedef struct pm_meta_pin pm_meta_pin;

#define PM_META_COUNT_HIT	1
#define PM_META_COUNT_MISS	2
#define PM_META_COUNT		(PM_META_COUNT_HIT | PM_META_COUNT_MISS)

extern const void *pm_meta_cache_pin(pm_meta_kind kind, const char *path, int64_t size,
									 int count, pm_meta_pin **pin);
extern void pm_meta_cache_unpin(pm_meta_pin *pin);
/* Count n hits of pins taken uncounted (count 0) by a caller that used them all. */
extern void pm_meta_cache_count_hits(int64_t n);

/*
 * Cache a flattened copy of value under the key (replacing an older one).
 * Does nothing when the cache is off, the value is larger than the budget
 * or memory is short: caching is never an error.
 */
extern void pm_meta_cache_store(pm_meta_kind kind, const char *path, int64_t size,
								const void *value, pm_flatten_fn fn);

/*
 * Cache value itself, not a copy (a structure with pointers of its own, in
 * memory of its own that does not come from a query: malloc, or an arena
 * of pm_env_default()), charged charge bytes. True: the cache owns it from
 * here on (frees it with free_fn; read it back with pm_meta_cache_pin).
 * False (off, larger than the budget, out of memory): the caller still
 * owns it.
 */
typedef void (*pm_meta_free_fn) (void *value);

extern bool pm_meta_cache_store_owned(pm_meta_kind kind, const char *path, int64_t size,
									  void *value, size_t charge, pm_meta_free_fn free_fn);

/* A byte string as a cacheable value (footers). */
typedef struct pm_meta_bytes
{
	const uint8_t *data;
	size_t		len;
} pm_meta_bytes;

extern void *pm_meta_bytes_flatten(const void *src, pm_flat *f);

#endif							/* PM_COMMON_META_CACHE_H */
