/*-------------------------------------------------------------------------
 * parquet_stats.h
 *	  What a row group's column-chunk statistics say about the requested
 *	  columns, as pm_field_range values of the requested types (input of
 *	  the format reader's part filter, format/format_reader.h).
 *
 * Only statistics whose order is the Paimon type's order are used:
 *	 - min_value/max_value when the footer's column_orders says TYPE_ORDER
 *	   for the column; the deprecated min/max (signed comparison) only for
 *	   BOOLEAN, INT32, INT64, FLOAT and DOUBLE;
 *	 - never for unsigned integers, INT96 timestamps, decimals in byte
 *	   arrays without a DECIMAL annotation, nested or repeated columns;
 *	 - values are converted exactly as the reader converts the column's
 *	   values (column_values.c), so timestamps, times and decimals in every
 *	   physical encoding come out as the reader's vectors would hold them.
 * null_count is used when present (top-level columns only). A column
 * absent from the file is all NULL. The same holds for the pages of a
 * ColumnIndex (pm_pq_page_range).
 *
 * Spec: apache/parquet-format parquet.thrift (Statistics, ColumnOrder),
 * LogicalTypes.md (sort orders).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_STATS_H
#define PM_FORMAT_PARQUET_PARQUET_STATS_H

#include "common/value.h"
#include "format/parquet/parquet_assembly.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/parquet_page_index.h"

/*
 * Fill ranges[plan->ncols] for row group g; values live in arena. Never
 * fails: what cannot be used stays unknown (out of memory included).
 */
extern void pm_pq_row_group_ranges(const pm_pq_metadata *md, const pm_pq_plan *plan, int g,
								   pm_arena *arena, pm_field_range *ranges);

/* The flat leaf read for top-level column an, or NULL (nested, repeated). */
extern pm_pq_leaf *pm_pq_flat_leaf_of(const pm_pq_plan *plan, const pm_pq_anode *an);

/*
 * What page k of a flat leaf's ColumnIndex says about its page_rows rows,
 * under the same rules as the chunk statistics (column order, types); an
 * all-NULL page has no bounds. Binary bounds may be truncated: bounds
 * still, which is all pruning needs.
 */
extern void pm_pq_page_range(const pm_pq_metadata *md, pm_pq_leaf *lf,
							 const pm_pq_column_index *ci, int k, int64_t page_rows,
							 pm_arena *arena, pm_field_range *r);

#endif							/* PM_FORMAT_PARQUET_PARQUET_STATS_H */
