/*-------------------------------------------------------------------------
 * scan_estimate.h
 *	  How many rows of a planned scan satisfy a predicate, estimated from
 *	  the selected files' metadata alone: row counts, min/max and null
 *	  counts of their value statistics.
 *
 * For the planner (no data file is read). Per file, values are taken to
 * spread evenly between the file's min and max: a range keeps the part of
 * [min, max] it covers, an equality 1 / (distinct values the range can
 * hold) for integer-like types; null tests use the null counts. Where a
 * file says nothing about a field, Postgres' default selectivities apply
 * (0.005 for =, 1/3 for ranges). AND multiplies, OR adds the parts not
 * shared (independence), as Postgres does without extended statistics.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SCAN_ESTIMATE_H
#define PM_TABLE_SCAN_ESTIMATE_H

#include "common/error.h"
#include "table/predicate.h"
#include "table/split.h"

/*
 * Estimated rows of the scan's selected files satisfying pred (NULL: all
 * their rows). Errors only for out-of-memory or a missing schema file.
 */
extern pm_code pm_scan_estimate_rows(pm_scan *scan, const pm_predicate *pred, double *rows,
									 pm_error *err);

/* Fraction of rows of one file (its field ranges, rows) satisfying pred (tests). */
extern double pm_estimate_fraction(const pm_predicate *pred, const pm_type *row_type,
								   const pm_field_range *ranges, int64_t rows);

#endif							/* PM_TABLE_SCAN_ESTIMATE_H */
