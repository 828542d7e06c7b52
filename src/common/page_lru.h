/*-------------------------------------------------------------------------
 * page_lru.h
 *	  A per-process LRU of decompressed pages, keyed by where the page lies:
 *	  (file path, file size, offset of the page in the file).
 *
 * Paimon never rewrites a data file under the same name (names carry a
 * UUID), and the size guards against a name deleted by expiry or rollback
 * and written again (as common/meta_cache.h): an entry is never stale, and
 * a hit needs no read of the file at all. An entry holds the page's span
 * (the bytes it occupies in the file, header included), a small opaque
 * header block (the reader's parsed page header) and the page payload in
 * the form the reader decodes from (decompressed).
 *
 * Hits are handed out pinned, without copying: the caller reads the entry
 * in place until it unpins it. Eviction unlinks a pinned entry from the
 * cache (its charge no longer counts) but frees it only at the last unpin,
 * so nothing a reader holds is freed under it. A reader unpins on closing,
 * ERROR included (its close runs from a memory-context reset callback).
 * Memory comes from malloc; a failed malloc only skips caching. With the
 * shared store on (common/page_store.h), pages large enough for it are
 * mapped from there instead: a miss first looks in the store, a stored
 * page is written to it, so the backends of a server share them. The charge
 * of the entries stays within a byte budget, evicting the least recently
 * used first; budget 0 turns the cache off and drops everything not pinned
 * (common/pm_lru.h). Not thread-safe: one backend, one cache.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_PAGE_LRU_H
#define PM_COMMON_PAGE_LRU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/pm_lru.h"

typedef pm_lru_stats pm_page_lru_stats;

/* A file's identity: its path and size (path not copied: the caller keeps it). */
typedef struct pm_page_file
{
	const char *path;
	size_t		path_len;
	int64_t		size;
	uint64_t	hash;			/* of path and size */
} pm_page_file;

/* A cached page; read it through the accessors, then pm_page_lru_unpin. */
typedef struct pm_page_entry pm_page_entry;

/* Set the byte budget, evicting down to it; 0 turns the cache off and empties it. */
extern void pm_page_lru_set_budget(size_t bytes);
extern bool pm_page_lru_enabled(void);
extern void pm_page_lru_get_stats(pm_page_lru_stats *out);

extern void pm_page_file_init(pm_page_file *f, const char *path, int64_t size);

/*
 * The page of f at offset, pinned (made the most recently used), or NULL on
 * a miss (counted while the cache is on; a page mapped from the shared
 * store counts as a hit). variant tells forms of the same
 * page apart (the caller's numbering: 0 the decompressed page, others e.g.
 * a dictionary converted to a type); part of the key, compared exactly.
 */
extern pm_page_entry *pm_page_lru_pin(const pm_page_file *f, int64_t offset,
									  uint64_t variant);

/*
 * The same for a caller that reads only what this process's cache holds
 * (the shared store is not asked) and counts its hits afterwards, once it
 * knows it had all it needed (pm_page_lru_count_hits): a miss here is
 * not counted, the reader that then reads the page counts it.
 */
extern pm_page_entry *pm_page_lru_pin_held(const pm_page_file *f, int64_t offset,
										   uint64_t variant);
extern void pm_page_lru_count_hits(int64_t n);

/*
 * The same from this process's cache or the shared store, counting
 * nothing: for what is not a page of a read (a resident file's columns,
 * table/resident_file.h), so that EXPLAIN's page counts stay the reads'.
 */
extern pm_page_entry *pm_page_lru_pin_quiet(const pm_page_file *f, int64_t offset,
											uint64_t variant);
extern void pm_page_lru_unpin(pm_page_entry *e);

/* Bytes the page occupies in its file, header included. */
extern size_t pm_page_entry_span(const pm_page_entry *e);
/* The header block stored with it (meta_len bytes, 16-byte aligned). */
extern const void *pm_page_entry_meta(const pm_page_entry *e, size_t *meta_len);
/* The payload (16-byte aligned, 8 readable bytes past its end). */
extern const uint8_t *pm_page_entry_data(const pm_page_entry *e, size_t *len);

/*
 * A block derived from the page that its reader keeps with it (a run index:
 * column_reader.c), or NULL. Set once (false if one is already set: the
 * caller keeps ownership then); malloc'd, freed with the entry; not charged
 * to the budget (the caller keeps it small beside the page).
 */
extern const void *pm_page_entry_aux(const pm_page_entry *e);
extern bool pm_page_entry_set_aux(pm_page_entry *e, void *aux);

/*
 * Remember the page of f at offset in form variant (span bytes in the file): header block
 * meta, payload the concatenation of (a, alen) and (b, blen). Replaces
 * nothing: a page already held is only touched.
 */
extern void pm_page_lru_store(const pm_page_file *f, int64_t offset, uint64_t variant,
							  size_t span,
							  const void *meta, size_t meta_len,
							  const uint8_t *a, size_t alen,
							  const uint8_t *b, size_t blen);

#endif							/* PM_COMMON_PAGE_LRU_H */
