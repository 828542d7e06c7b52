/*-------------------------------------------------------------------------
 * parquet_row_fetch.h
 *	  A few rows of a Parquet file read from this process's caches alone:
 *	  the footer and page indexes from the metadata cache, the pages from
 *	  the page cache; no reader opened, no file touched.
 *
 * A point lookup whose key pages placed its keys at rows of a file (a
 * handful of rows) needs, per requested column, only the page that holds
 * each row and the chunk's dictionary head. Once the first lookups of a
 * file have cached those (the Parquet reader caches what it reads by the
 * page index), this reads the rows' values where they lie: the page of a
 * row by the offset index, decoded up to the row (column_reader.c), without
 * the reader's per-open work (plan, row-group planning, batch assembly).
 * When anything is not cached, or a requested column is not a flat leaf of
 * the file, it says so having counted and kept nothing: the caller reads
 * the rows with the Parquet reader instead, which caches them for the next
 * time.
 *
 * Counts as the Parquet reader counts the same selection read to its end:
 * the caches' hits (once everything was found), and where the caller asks,
 * the row groups read and those without a selected row, and the pages of
 * the offset indexes read and skipped.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_ROW_FETCH_H
#define PM_FORMAT_PARQUET_PARQUET_ROW_FETCH_H

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/format_reader.h"

/* The most rows one fetch reads (the reader's "few selected rows"). */
#define PM_PQ_FETCH_MAX_ROWS 64

/* Counters a fetch adds to; any may be NULL (not counted). */
typedef struct pm_pq_fetch_counts
{
	int64_t    *row_groups_read;	/* row groups holding a selected row */
	int64_t    *row_groups_unselected;	/* the others that hold rows */
	int64_t    *pages_total;	/* pages of the columns of the row groups read */
	int64_t    *pages_skipped;	/* ... that hold no selected row */
} pm_pq_fetch_counts;

/*
 * The rows sel selects (file positions; ranges sorted and disjoint, at most
 * PM_PQ_FETCH_MAX_ROWS rows in all) of the Parquet file at path, of
 * file_size bytes, columns `request` (a ROW type whose fields name
 * top-level columns, as pm_parquet_reader_open takes it): *out = sel->n
 * batches in arena, batch i of range i (first_row its start), columns as
 * the reader gives them. *out = NULL, nothing counted: not everything is
 * cached, or a requested column is not a flat leaf of the file (read the
 * rows with the reader). Errors: a corrupt page, out of memory.
 */
extern pm_code pm_parquet_fetch_cached(const pm_env *env, const char *path, int64_t file_size,
									   const pm_type *request, const pm_row_selection *sel,
									   const pm_pq_fetch_counts *counts, pm_arena *arena,
									   pm_batch **out, pm_error *err);

#endif							/* PM_FORMAT_PARQUET_PARQUET_ROW_FETCH_H */
