/*-------------------------------------------------------------------------
 * scan_topn.h
 *	  Top-N on column batches: the first `limit` rows of the batches added
 *	  so far in the order of some sort keys, kept in a bounded heap, so
 *	  that ORDER BY ... LIMIT n needs neither a tuple per row nor a sort
 *	  of the whole table.
 *
 * Batches come from pm_table_read (any table kind: rows after the merge);
 * every batch has the same columns, col_types[i] for column i. A key is
 * one column, ascending or descending, with NULLs first or last. Values
 * compare as Postgres compares the values the FDW returns:
 *
 *	 BOOLEAN, integers, DATE		as numbers (false < true)
 *	 TIMESTAMP(_LTZ)				by microseconds (sub-microsecond digits
 *									dropped, as Postgres reads them)
 *	 FLOAT, DOUBLE					NaN above every number and equal to
 *									itself, -0 = 0 (float4/8_cmp)
 *	 DECIMAL						by unscaled value (one scale per column)
 *	 CHAR, VARCHAR					memcmp, then the shorter first: the
 *									"C" collation
 *
 * Rows that tie on every key with the current n-th row do not replace it
 * (any n rows with the top values are a right answer wherever the keys
 * tie). The kept rows are deep copies, so batches may go away.
 *
 * pm_topn_part_may_enter says, from the statistics of a part of a file
 * (Parquet row group, ORC stripe) for the first key's column, whether a
 * row of it could still enter the heap; a reader skips the part when not.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SCAN_TOPN_H
#define PM_TABLE_SCAN_TOPN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/value.h"
#include "common/vector.h"

typedef struct pm_topn_key
{
	int			column;			/* batch column */
	bool		descending;
	bool		nulls_first;
} pm_topn_key;

typedef struct pm_topn pm_topn;

/* Whether a column of this type can be a sort key. */
extern bool pm_topn_key_supported(const pm_type *type);

/*
 * A top-N over batches of ncols columns of col_types (any types; keys of
 * supported ones, checked: PM_ERR_UNSUPPORTED); limit >= 0, nkeys >= 1.
 */
extern pm_code pm_topn_create(const pm_env *env, const pm_type *const *col_types, int ncols,
							  const pm_topn_key *keys, int nkeys, int64_t limit,
							  pm_topn **out, pm_error *err);

/* Offer the rows of a batch (only those with sel[r] != 0 when sel is given). */
extern pm_code pm_topn_add(pm_topn *t, const pm_batch *batch, const uint8_t *sel,
						   pm_error *err);

/*
 * Late materialization: v holds nrows values of the first key's column (its
 * type, as batches hold it). Clears sel[r] for the rows that cannot enter
 * the heap as it is now (their first key sorts strictly after the n-th
 * row's; ties are kept, a later key may decide), leaving other entries as
 * they are; the heap only tightens, so they cannot enter later either.
 * False (sel untouched) while the heap is not full.
 */
extern bool pm_topn_filter_first_key(const pm_topn *t, const pm_vector *v, int64_t nrows,
									 uint8_t *sel);

/*
 * Whether a row of a part whose first-key column has these statistics
 * (min/max in the column's type, as the format readers report them)
 * could enter: false only when the heap is full and every row of the part
 * sorts strictly after the current n-th row on the first key.
 */
extern bool pm_topn_part_may_enter(const pm_topn *t, const pm_field_range *first_key);

/*
 * The kept rows in sort order: a batch of min(limit, rows offered) rows,
 * valid until the next call on t.
 */
extern pm_code pm_topn_result(pm_topn *t, const pm_batch **out, pm_error *err);

/* Forget every row (a rescan). */
extern pm_code pm_topn_reset(pm_topn *t, pm_error *err);

extern void pm_topn_free(pm_topn *t);

#endif							/* PM_TABLE_SCAN_TOPN_H */
