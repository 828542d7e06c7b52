/*-------------------------------------------------------------------------
 * index_rows.h
 *	  The rows a file index leaves (a roaring bitmap of positions in the
 *	  data file, file_index.h) as a row selection for the format readers
 *	  (pm_row_selection, format/format_reader.h): sorted ranges, so that a
 *	  Parquet reader reads only the pages holding them.
 *
 * Ranges closer than max_gap rows are merged: a selection is a superset
 * of the matching rows anyway (every qual is rechecked), and one range per
 * scattered row would cost a batch per row.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_INDEX_ROWS_H
#define PM_INDEX_INDEX_ROWS_H

#include <roaring/roaring.h>

#include "common/arena.h"
#include "format/format_reader.h"

/* Rows closer than this are read as one range. */
#define PM_INDEX_ROWS_MAX_GAP	1024

/*
 * *out = the ranges of rows (positions below row_count), merged across
 * gaps below max_gap, in arena; NULL when they cover every row (nothing
 * to skip). False on out-of-memory.
 */
extern bool pm_index_rows_selection(const roaring_bitmap_t *rows, int64_t row_count,
									int64_t max_gap, pm_arena *arena,
									const pm_row_selection **out);

#endif							/* PM_INDEX_INDEX_ROWS_H */
