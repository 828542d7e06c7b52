/*-------------------------------------------------------------------------
 * parquet_page_index.h
 *	  Parquet page indexes: the OffsetIndex (where each data page of a
 *	  column chunk lies and which row it starts with) and the ColumnIndex
 *	  (per page: all-NULL flag, min and max in the column's order, null
 *	  count), decoded and checked.
 *
 * A chunk's indexes lie outside the chunk (parquet-mr writes them after
 * the row groups, our writer after each row group); the footer's
 * ColumnChunk gives their offsets and lengths (parquet_metadata.h).
 * Bounds stay raw PLAIN bytes pointing into the buffer parsed; what they
 * mean for a requested column is parquet_stats.c's business
 * (pm_pq_page_range). Binary bounds may be truncated (parquet-mr cuts them
 * to 64 bytes: a prefix for the min, an incremented prefix for the max):
 * still bounds, never exact values.
 *
 * Spec: apache/parquet-format PageIndex.md, parquet.thrift (ColumnIndex,
 * OffsetIndex, PageLocation).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_PAGE_INDEX_H
#define PM_FORMAT_PARQUET_PARQUET_PAGE_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/meta_cache.h"
#include "format/parquet/parquet_metadata.h"

typedef struct pm_pq_offset_index
{
	int			npages;
	int64_t    *offset;			/* file offset of page k's header */
	int32_t    *size;			/* its bytes (header + compressed payload) */
	int64_t    *first_row;		/* its first row in the row group */
} pm_pq_offset_index;

typedef struct pm_pq_column_index
{
	int			npages;
	bool	   *null_page;		/* page k holds only NULLs (bounds empty) */
	const uint8_t **min;
	uint32_t   *min_len;
	const uint8_t **max;
	uint32_t   *max_len;
	int64_t    *null_count;		/* NULL when absent; -1 for a bad entry */
} pm_pq_column_index;

/*
 * Decode the OffsetIndex of chunk ch in a row group of rg_rows rows:
 * PM_ERR_CORRUPT unless its pages start at row 0 with strictly increasing
 * first rows below rg_rows, and lie in order, without overlap, inside the
 * chunk after its dictionary page.
 */
extern pm_code pm_pq_offset_index_parse(const uint8_t *buf, size_t len, const pm_pq_chunk *ch,
										int64_t rg_rows, pm_arena *arena,
										pm_pq_offset_index *out, pm_error *err);

/*
 * Decode a ColumnIndex of npages pages (the OffsetIndex's count):
 * PM_ERR_CORRUPT when its lists disagree with it.
 */
extern pm_code pm_pq_column_index_parse(const uint8_t *buf, size_t len, int npages,
										pm_arena *arena, pm_pq_column_index *out,
										pm_error *err);

/*
 * The decoded page indexes of one column chunk, as the metadata cache
 * (common/meta_cache.h, kind PM_META_PARQUET_PAGE_INDEX) keeps them: read
 * and parsed once per backend, not per statement.
 */
typedef struct pm_pq_chunk_index
{
	pm_pq_offset_index oi;
	bool		has_ci;
	pm_pq_column_index ci;
} pm_pq_chunk_index;

/* Flatten a pm_pq_chunk_index (pm_flatten_fn; bounds' bytes copied). */
extern void *pm_pq_chunk_index_flatten(const void *src, pm_flat *f);

/*
 * The metadata cache's name of the page indexes of chunk (row group g,
 * leaf) of the file at path (path_len bytes): "<path>#<g>.<leaf>", in
 * arena; NULL when out of memory.
 */
extern char *pm_pq_chunk_index_name(pm_arena *arena, const char *path, size_t path_len, int g,
									int leaf);

/* Rows of page k of a row group of rg_rows rows. */
static inline int64_t
pm_pq_page_rows(const pm_pq_offset_index *oi, int k, int64_t rg_rows)
{
	return (k + 1 < oi->npages ? oi->first_row[k + 1] : rg_rows) - oi->first_row[k];
}

#endif							/* PM_FORMAT_PARQUET_PARQUET_PAGE_INDEX_H */
