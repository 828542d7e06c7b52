/*-------------------------------------------------------------------------
 * predicate.h
 *	  Predicates pushed down to scan planning, in terms of table fields.
 *
 * The FDW translates WHERE clauses it understands into a pm_predicate tree;
 * planning uses it to drop partitions, files (min/max/null-count stats) and,
 * later, to ask file indexes. Pruning is inexact and conservative: the FDW
 * still rechecks every qual, so a predicate may only ever drop data that
 * cannot match. An unknown or unsupported shape must keep everything.
 *
 * Leaves compare one table field (index into the table schema's fields)
 * with literals of that field's type (common/value.h), exactly as Postgres
 * compares the values the FDW returns:
 *  - a literal is an exact value of the field's type; the FDW decides or
 *	  drops comparisons with a literal the type cannot hold (PM_PRED_FALSE,
 *	  IS NOT NULL) and never pushes a NaN literal;
 *  - FLOAT/DOUBLE order as in Postgres: NaN above every number, -0 = 0;
 *	  statistics may leave NaN out of max (Parquet, ORC), so a float field
 *	  is never pruned from above;
 *  - TIMESTAMP literals are whole microseconds and compare with the value
 *	  truncated to the microsecond (what Postgres sees of TIMESTAMP(7..9)).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_PREDICATE_H
#define PM_TABLE_PREDICATE_H

#include <stdbool.h>

#include "common/arena.h"
#include "common/value.h"

typedef enum pm_pred_op
{
	PM_PRED_EQ,
	PM_PRED_NE,
	PM_PRED_LT,
	PM_PRED_LE,
	PM_PRED_GT,
	PM_PRED_GE,
	PM_PRED_IS_NULL,
	PM_PRED_IS_NOT_NULL,
	PM_PRED_IN,					/* field = any of literals */
	PM_PRED_AND,
	PM_PRED_OR,
	PM_PRED_FALSE				/* no row: a comparison decided by its literal */
} pm_pred_op;

typedef struct pm_predicate pm_predicate;

struct pm_predicate
{
	pm_pred_op	op;
	int			field;			/* leaf: index in the table schema's fields */
	int			nliterals;		/* leaf: 1 for comparisons, n for IN, 0 for null tests */
	pm_value   *literals;
	int			nchildren;		/* AND / OR */
	pm_predicate **children;
};

#endif							/* PM_TABLE_PREDICATE_H */
