/*-------------------------------------------------------------------------
 * stats_filter.h
 *	  Evaluate a pushed-down predicate against what metadata knows about a
 *	  partition or a data file: exact partition values, min/max/null counts.
 *
 * The answer is "may match" (keep) or "cannot match" (prune). Conservative:
 * anything unknown, incomparable or unsupported keeps the file.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §9 (SimpleStats, dense
 * _VALUE_STATS_COLS), §3.6 (stats evolution by field id);
 * apache/paimon SimpleStatsEvolution.java, predicate/LeafPredicate.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_STATS_FILTER_H
#define PM_TABLE_STATS_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/value.h"
#include "table/predicate.h"
#include "table/split.h"

/*
 * May any row with these per-field ranges (indexed by table field,
 * row_type = the table schema's ROW) satisfy pred? NULL pred: true.
 */
extern bool pm_stats_filter_may_match(const pm_predicate *pred, const pm_type *row_type,
									  const pm_field_range *ranges, int nranges);

/* Three-way comparison of two non-null values of type; 2 if incomparable. */
extern int	pm_stats_value_compare(const pm_type *type, const pm_value *a, const pm_value *b);

/*
 * Whether statistics of a column written as file_type may be compared with
 * literals of table_type (same value representation and order; never
 * CHAR, whose statistics may hold padded values).
 */
extern bool pm_stats_type_compatible(const pm_type *table_type, const pm_type *file_type);

/*
 * Fill ranges[ntable_fields] from a data file's value statistics, mapped to
 * the table schema by field id through the file's schema. Fields whose
 * stats cannot be used stay unknown. Errors only for out-of-memory or a
 * missing schema file; corrupt stats just leave fields unknown.
 */
extern pm_code pm_stats_filter_file_ranges(pm_table *table, const pm_data_file_meta *file,
										   pm_arena *arena, pm_field_range *ranges,
										   pm_error *err);

#endif							/* PM_TABLE_STATS_FILTER_H */
