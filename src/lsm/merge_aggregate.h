/*-------------------------------------------------------------------------
 * merge_aggregate.h
 *	  Paimon's field aggregate functions (aggregation merge engine and
 *	  aggregated columns of partial-update), on merge cells.
 *
 * Implemented: sum, product, max, min, last_value, last_non_null_value,
 * first_value, first_non_null_value (and the legacy first_not_null_value),
 * listagg, bool_and, bool_or, collect, merge_map, merge_map_with_keytime,
 * rbm32, nested_update, nested_partial_update and the internal primary-key
 * function, each with Java's retraction rules;
 * fields.<f>.ignore-retract wraps any of them. Not implemented (reported as
 * PM_ERR_UNSUPPORTED naming the function): rbm64, hll_sketch, theta_sketch.
 *
 * Values computed by a function are allocated in the arena passed to each
 * call (the merge engine's per-key arena).
 *
 * Spec: ../shared/docs/paimon-format-data.md §4.6; apache/paimon
 * mergetree/compact/aggregate/Field...Agg.java and factory/.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_MERGE_AGGREGATE_H
#define PM_LSM_MERGE_AGGREGATE_H

#include <stdbool.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "lsm/merge_engine.h"
#include "table/schema.h"

typedef enum pm_agg_kind
{
	PM_AGG_PRIMARY_KEY,
	PM_AGG_SUM,
	PM_AGG_PRODUCT,
	PM_AGG_MAX,
	PM_AGG_MIN,
	PM_AGG_LAST_VALUE,
	PM_AGG_LAST_NON_NULL_VALUE,
	PM_AGG_FIRST_VALUE,
	PM_AGG_FIRST_NON_NULL_VALUE,
	PM_AGG_LISTAGG,
	PM_AGG_BOOL_AND,
	PM_AGG_BOOL_OR,
	PM_AGG_COLLECT,
	PM_AGG_MERGE_MAP,
	PM_AGG_RBM32,
	PM_AGG_NESTED_UPDATE,
	PM_AGG_NESTED_PARTIAL_UPDATE,
	PM_AGG_MERGE_MAP_WITH_KEYTIME
} pm_agg_kind;

typedef struct pm_field_agg
{
	pm_agg_kind kind;
	const char *name;			/* function name, for messages */
	const pm_type *type;
	bool		ignore_retract;
	bool		distinct;		/* listagg, collect */
	const char *delimiter;		/* listagg */
	int32_t		delimiter_len;
	bool		initialized;	/* first_value, first_non_null_value */
	/* nested_update: element ROW fields of the key / sequence, limits */
	int			nnested_keys;
	int		   *nested_keys;
	int			nnested_seq;
	int		   *nested_seq;
	int64_t		count_limit;
	int			null_strategy;	/* 0 merge, 1 ignore, 2 error */
	int			ts_field;		/* merge_map_with_keytime: value ROW field */
} pm_field_agg;

/*
 * Set up function `func` for table field field_name of `type`, reading
 * its per-field options from the schema. Unknown names are
 * PM_ERR_INVALID, known but unimplemented ones PM_ERR_UNSUPPORTED, a type
 * the function refuses PM_ERR_INVALID.
 */
extern pm_code pm_field_agg_init(pm_field_agg *agg, const pm_schema *schema,
								 const char *field_name, const pm_type *type,
								 const char *func, pm_arena *arena, pm_error *err);
extern void pm_field_agg_reset(pm_field_agg *agg);

/*
 * Whether retract() takes a record (FieldAggregator.retract does not throw
 * UnsupportedOperationException): the functions with a retract in Java,
 * or any with fields.<f>.ignore-retract.
 */
extern bool pm_field_agg_can_retract(const pm_field_agg *agg);

/* agg(acc, in), aggReversed(acc, in) and retract(acc, in) as in Java. */
extern pm_code pm_field_agg_agg(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
								pm_arena *arena, pm_merge_cell *out, pm_error *err);
extern pm_code pm_field_agg_agg_reversed(pm_field_agg *agg, pm_merge_cell acc,
										 pm_merge_cell in, pm_arena *arena,
										 pm_merge_cell *out, pm_error *err);
extern pm_code pm_field_agg_retract(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
									pm_arena *arena, pm_merge_cell *out, pm_error *err);

#endif							/* PM_LSM_MERGE_AGGREGATE_H */
