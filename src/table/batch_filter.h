/*-------------------------------------------------------------------------
 * batch_filter.h
 *	  Evaluate a pushed predicate (table/predicate.h) on every row of a
 *	  batch, exactly: the rows Postgres' WHERE would keep.
 *
 * Leaves compare a field's values with literals as Postgres compares the
 * values the FDW returns: integers, DATE, TIME as numbers; TIMESTAMP by
 * microseconds (sub-microsecond digits dropped); FLOAT/DOUBLE with NaN
 * above every number and equal to itself, -0 = 0; DECIMAL by unscaled
 * value (literals are at the field's scale); strings and binaries as bytes
 * (memcmp, then the shorter first: the FDW pushes string ranges only under
 * the "C" collation, and equality only under deterministic ones). A
 * comparison with a NULL value is not true; AND/OR combine the leaves (the
 * tree has no NOT: the FDW pushes negated operators), so "unknown" counts
 * as false, which is what a WHERE clause does with it.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_BATCH_FILTER_H
#define PM_TABLE_BATCH_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "table/predicate.h"

/* Whether every leaf of pred is on a type this file evaluates. */
extern bool pm_batch_filter_supported(const pm_predicate *pred, const pm_type *row_type);

/*
 * sel[r] = 1 where row r of batch satisfies pred, else 0. Leaf field f is
 * batch column field_col[f].
 */
extern pm_code pm_batch_filter(const pm_env *env, const pm_predicate *pred,
							   const pm_batch *batch, const int *field_col, uint8_t *sel,
							   pm_error *err);

#endif							/* PM_TABLE_BATCH_FILTER_H */
