/*-------------------------------------------------------------------------
 * postpone_compact.h
 *	  Compaction of a postpone-bucket table (bucket = -2): the postpone
 *	  bucket's files moved into real buckets, as Flink's compaction job
 *	  does (see postpone_compact.c).
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_POSTPONE_COMPACT_H
#define PM_LSM_POSTPONE_COMPACT_H

#include "common/error.h"
#include "lsm/compact.h"
#include "table/table.h"

/*
 * Replay the postpone files of the latest snapshot of table (all
 * partitions, or options->partition) into real buckets and commit one
 * COMPACT snapshot. result: snapshot_id (0: no postpone file), buckets
 * (real buckets written), files_in (postpone files removed), files_out
 * (files added), rows_out (records replayed). options->progress is called
 * after each partition.
 */
extern pm_code pm_postpone_compact(pm_table *table, const char *table_path,
								   const pm_compact_options *options,
								   pm_compact_result *result, pm_error *err);

#endif							/* PM_LSM_POSTPONE_COMPACT_H */
