/*-------------------------------------------------------------------------
 * parquet_page_select.h
 *	  Which rows of a row group to read, and which pages hold them: page
 *	  pruning by the ColumnIndex (Parquet's ColumnIndexFilter, as row
 *	  ranges) and row selections handed in by the caller.
 *
 * Pages of different columns have different row boundaries. The row
 * group is cut at every page boundary of the columns that have a
 * ColumnIndex; each piece is judged by the part filter with, per
 * requested column, what the page covering the piece says about its
 * column (pm_pq_page_range; the chunk statistics where a column has no
 * ColumnIndex). A page's statistics cover the whole page, a superset of
 * the piece, so a "no row can match" stays true for the piece. Kept
 * pieces, merged, are the row ranges to read; a column then reads only
 * its pages that overlap them (pm_pq_select_pages; its dictionary page
 * always).
 *
 * Spec: apache/parquet-format PageIndex.md; parquet-mr
 * ColumnIndexFilter / RowRanges (facts only).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_PAGE_SELECT_H
#define PM_FORMAT_PARQUET_PARQUET_PAGE_SELECT_H

#include "format/format_reader.h"
#include "format/parquet/parquet_assembly.h"
#include "format/parquet/parquet_page_index.h"

/* Sorted, disjoint, non-empty row ranges [start[i], end[i]) of a row group. */
typedef struct pm_pq_rows
{
	int			n;
	int64_t    *start;
	int64_t    *end;
} pm_pq_rows;

/* The page indexes of one planned leaf in the current row group. */
typedef struct pm_pq_leaf_index
{
	bool		has_oi;
	pm_pq_offset_index oi;
	bool		has_ci;
	pm_pq_column_index ci;
} pm_pq_leaf_index;

/*
 * Rows of row group g that may match: idx[] by the plan's leaf index,
 * filter/ctx the part filter, ranges room for plan->ncols ranges.
 * Allocates in arena (false: out of memory).
 */
extern bool pm_pq_select_rows(const pm_pq_metadata *md, const pm_pq_plan *plan, int g,
							  const pm_pq_leaf_index *idx, pm_part_filter_fn filter,
							  void *ctx, pm_field_range *ranges, pm_arena *arena,
							  pm_pq_rows *out);

/*
 * out = rows intersected with the file rows of sel (sorted) that fall in
 * the row group starting at file row rg_first. False: out of memory.
 */
extern bool pm_pq_rows_intersect(const pm_pq_rows *rows, const pm_row_selection *sel,
								 int64_t rg_first, pm_arena *arena, pm_pq_rows *out);

/*
 * The pages of oi (row group of rg_rows rows) that overlap rows, in
 * order: their numbers into pages (room for oi->npages); returns how many.
 */
extern int	pm_pq_select_pages(const pm_pq_offset_index *oi, int64_t rg_rows,
							   const pm_pq_rows *rows, int *pages);

#endif							/* PM_FORMAT_PARQUET_PARQUET_PAGE_SELECT_H */
