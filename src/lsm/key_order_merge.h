/*-------------------------------------------------------------------------
 * key_order_merge.h
 *	  Merge batch streams, each in ascending order of an integer column,
 *	  into one stream in that order.
 *
 * A table read in key order (table_read.h, pm_table_read_open_ordered)
 * reads each split merged, in key order, and merges the splits' streams
 * here: a Postgres merge join or ORDER BY on the key then needs no sort.
 * Keys are compared as integers (TINYINT to BIGINT); rows of equal keys
 * from different inputs come in input order. Output batches are copies
 * (vector_builder.h) of up to PM_KEY_ORDER_BATCH rows; a single input's
 * batches are passed on as they are.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_KEY_ORDER_MERGE_H
#define PM_LSM_KEY_ORDER_MERGE_H

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"

#define PM_KEY_ORDER_BATCH 1024

typedef struct pm_key_order_merge pm_key_order_merge;

/* Next batch of an input, *batch = NULL at its end; valid until the next call. */
typedef pm_code (*pm_batch_next_fn) (void *input, pm_batch **batch, pm_error *err);

/*
 * Merge inputs[0..n) (their batches: ncols columns of `types`, column
 * key_col ascending within each input), read with next. The inputs stay
 * the caller's.
 */
extern pm_code pm_key_order_merge_open(const pm_env *env, pm_batch_next_fn next,
									   void *const *inputs, int n, int key_col,
									   const pm_type *const *types, int ncols,
									   pm_key_order_merge **out, pm_error *err);

/*
 * Next batch, *batch = NULL at the end; valid until the next call.
 * PM_ERR_INVALID if an input's keys descend or one is NULL.
 */
extern pm_code pm_key_order_merge_next(pm_key_order_merge *m, pm_batch **batch, pm_error *err);

/* The input the last batch's last row came from; -1 before the first. */
extern int	pm_key_order_merge_last_input(const pm_key_order_merge *m);

extern void pm_key_order_merge_close(pm_key_order_merge *m);

#endif							/* PM_LSM_KEY_ORDER_MERGE_H */
