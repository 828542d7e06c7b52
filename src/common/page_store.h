/*-------------------------------------------------------------------------
 * page_store.h
 *	  Decompressed pages shared by every process of one server: a directory
 *	  (on tmpfs, e.g. under /dev/shm) of one immutable file per page, keyed
 *	  as common/page_lru.h keys its entries (data file path and size, page
 *	  offset, variant), mapped read-only by the processes that read it.
 *
 * Each backend's page cache (common/page_lru.h) starts empty, and warming
 * it means decompressing every page again and touching fresh memory for it
 * (on a VM, first-touch page faults cost more than the decompression). With
 * a store, the first process to decompress a page writes it there (built in
 * a shared mapping of a new file, renamed into place whole: readers see a
 * complete file or none); later processes map the file instead, touching
 * memory the kernel already holds.
 *
 * A file repeats its whole key in a header that is checked on every load
 * (a name is a hash), so a file never answers for another page; like the
 * page cache, an entry is never stale (data files are never rewritten
 * under the same name and size). Eviction by generations (page_store.c):
 * files go into the current generation's subdirectory while its bytes
 * stay within half the budget (a counter in the directory's "state" file,
 * shared by every process and across restarts); the save that would pass
 * it starts the next generation and removes the ones before the previous,
 * whole files; a page loaded from the previous generation is linked into
 * the current one. So the directory holds at most the budget (plus files
 * being written), and pages still read stay. The directory must be the
 * caller's, mode 0700 (created so when missing); anything else leaves the
 * store off. Every failure only means "not stored" / "not found".
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_PAGE_STORE_H
#define PM_COMMON_PAGE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Pages below this many bytes stay private (a mapping costs up to a 4 kB
 * page and a VMA), and a process keeps at most PM_PAGE_STORE_MAX_MAPS
 * pages mapped at once (well below Linux's default of 65530 mappings per
 * process, which malloc and Postgres need too); past it, pages are private.
 */
#define PM_PAGE_STORE_MIN_BYTES (8 * 1024)
#define PM_PAGE_STORE_MAX_MAPS 16384

/* The key of a page (as page_lru's): file path, size, its hash, page offset, variant. */
typedef struct pm_page_store_key
{
	const char *path;
	size_t		path_len;
	int64_t		file_size;
	uint64_t	file_hash;
	int64_t		offset;
	uint64_t	variant;
} pm_page_store_key;

/* A page's file, mapped: its parts point into the mapping. */
typedef struct pm_page_store_map
{
	void	   *base;
	size_t		len;
	size_t		span;
	const void *meta;			/* 16-byte aligned */
	size_t		meta_len;
	const uint8_t *data;		/* 16-byte aligned, 8 zero bytes past its end */
	size_t		data_len;
} pm_page_store_map;

/*
 * Use directory dir (NULL or "": off) with a budget of budget bytes for
 * all files kept there (0: off; a page larger than half of it is never
 * stored). Removes generations older than the previous one (left by a
 * crash). Returns whether the store is on.
 */
extern bool pm_page_store_configure(const char *dir, size_t budget);
extern bool pm_page_store_enabled(void);

/* The page of key, mapped (true), or false when the store does not hold it. */
extern bool pm_page_store_load(const pm_page_store_key *key, pm_page_store_map *out);

/*
 * Write the page of key (span bytes in its file, header block meta, payload
 * (a, alen) + (b, blen)) into the store and map it (true); false when it is
 * off, the page is small, the budget is spent or anything fails.
 */
extern bool pm_page_store_save(const pm_page_store_key *key, size_t span,
							   const void *meta, size_t meta_len,
							   const uint8_t *a, size_t alen,
							   const uint8_t *b, size_t blen, pm_page_store_map *out);

extern void pm_page_store_unmap(pm_page_store_map *m);

#endif							/* PM_COMMON_PAGE_STORE_H */
