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
 * with literals of that field's type (common/value.h).
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
	PM_PRED_OR
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
