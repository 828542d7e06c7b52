/*-------------------------------------------------------------------------
 * merge_aggregate_int.h
 *	  Internals shared by merge_aggregate.c and merge_aggregate_collection.c
 *	  (not for other files): the collection-valued aggregate functions.
 *
 * Same contract as pm_field_agg_agg / _retract; the caller has already
 * handled the NULL cases the dispatcher handles (see merge_aggregate.c).
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_MERGE_AGGREGATE_INT_H
#define PM_LSM_MERGE_AGGREGATE_INT_H

#include "lsm/merge_aggregate.h"

extern pm_code pm_agg_collect(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
							  pm_arena *arena, pm_merge_cell *out, pm_error *err);
extern pm_code pm_agg_collect_retract(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
									  pm_arena *arena, pm_merge_cell *out, pm_error *err);
/* acc and in non-NULL */
extern pm_code pm_agg_merge_map(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
								bool retract, pm_arena *arena, pm_merge_cell *out,
								pm_error *err);
extern pm_code pm_agg_merge_map_keytime(pm_field_agg *agg, pm_merge_cell acc,
										pm_merge_cell in, pm_arena *arena,
										pm_merge_cell *out, pm_error *err);
/* in non-NULL */
extern pm_code pm_agg_nested_update(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
									bool retract, pm_arena *arena, pm_merge_cell *out,
									pm_error *err);
extern pm_code pm_agg_nested_partial_update(pm_field_agg *agg, pm_merge_cell acc,
											pm_merge_cell in, pm_arena *arena,
											pm_merge_cell *out, pm_error *err);

#endif							/* PM_LSM_MERGE_AGGREGATE_INT_H */
