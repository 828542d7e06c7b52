/*-------------------------------------------------------------------------
 * page_lru.h
 *	  A per-process LRU of decompressed pages, keyed by what was
 *	  decompressed: (codec, compressed bytes) -> decompressed bytes.
 *
 * Decompression is a pure function of its input, so an entry can never be
 * stale: no file name, snapshot or invalidation is involved, and a page
 * that another file holds byte for byte is a hit too. The key is checked
 * exactly (the compressed bytes are kept and compared in full; the hash
 * only finds candidates), so a hit returns what decompressing would.
 *
 * A hit copies the bytes into the caller's buffer: callers never keep
 * pointers into the cache, so eviction may free an entry at any time and
 * an ERROR in the middle of a query leaves nothing dangling. Memory comes
 * from malloc; a failed malloc only skips caching. The charge of the
 * entries (both byte strings and bookkeeping) stays within a byte budget,
 * evicting the least recently used first; budget 0 turns it off and frees
 * everything (common/pm_lru.h). Not thread-safe: one backend, one cache.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_PAGE_LRU_H
#define PM_COMMON_PAGE_LRU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/pm_lru.h"

typedef pm_lru_stats pm_page_lru_stats;

/* Set the byte budget, evicting down to it; 0 turns the cache off and empties it. */
extern void pm_page_lru_set_budget(size_t bytes);
extern bool pm_page_lru_enabled(void);
extern void pm_page_lru_get_stats(pm_page_lru_stats *out);

/*
 * On a hit, copy the out_len decompressed bytes of the n compressed bytes
 * src (codec: the caller's codec number) into out and return true; false
 * on a miss (counted while the cache is on).
 */
extern bool pm_page_lru_fetch(int codec, const uint8_t *src, size_t n, uint8_t *out,
							  size_t out_len);

/* Remember that src (n bytes, codec) decompresses to out (out_len bytes). */
extern void pm_page_lru_store(int codec, const uint8_t *src, size_t n, const uint8_t *out,
							  size_t out_len);

#endif							/* PM_COMMON_PAGE_LRU_H */
