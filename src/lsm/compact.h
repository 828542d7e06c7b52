/*-------------------------------------------------------------------------
 * compact.h
 *	  Full compaction of a primary-key table with a fixed bucket count, as
 *	  Java's dedicated compaction (CompactAction / compact procedure) does
 *	  with CompactStrategy.pickFullCompaction: per partition and bucket,
 *	  every sorted run is merged (merge engine, sequence order, deletion
 *	  vectors applied) into new files at the max level (num-levels - 1,
 *	  default num-sorted-run.compaction-trigger + 1 = 6 levels), retract
 *	  records dropped (the output is the top level), then one COMPACT
 *	  snapshot deletes the inputs and adds the outputs.
 *
 * A bucket whose files are all at the max level already is left alone
 * (pickFullCompaction: one run at the max level). Output files keep each
 * merged record's sequence number and kind (see
 * pm_merge_reader_set_kv_output), roll at target-file-size, and are
 * written with the latest schema, file source COMPACT.
 *
 * Not yet: append tables, dynamic / postpone buckets, tables with deletion
 * vectors and first-row tables (their batch reads skip level 0, and Java
 * compacts them with lookup, writing deletion vectors): PM_ERR_UNSUPPORTED.
 *
 * Spec: apache/paimon release-1.4.2 mergetree/compact/
 * MergeTreeCompactManager.java, CompactStrategy.java,
 * MergeTreeCompactRewriter.java; CoreOptions.numLevels.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_COMPACT_H
#define PM_LSM_COMPACT_H

#include <stdint.h>

#include "common/error.h"
#include "table/table.h"

typedef struct pm_compact_options
{
	/*
	 * NULL: every partition; else one partition as Java's compact procedure
	 * names it: "k1=v1,k2=v2" (every partition key, in any order).
	 */
	const char *partition;
	/* called after each bucket compacted (may be NULL) */
	void		(*progress) (void *ctx, int done, int total, int64_t rows);
	void	   *progress_ctx;
} pm_compact_options;

typedef struct pm_compact_result
{
	int64_t		snapshot_id;	/* the COMPACT snapshot, 0 if nothing to do */
	int			buckets;		/* buckets rewritten */
	int			files_in;		/* files deleted */
	int			files_out;		/* files added */
	int64_t		rows_out;		/* rows written */
} pm_compact_result;

/*
 * Compact the latest snapshot of table (opened at its latest snapshot)
 * whose directory is table_path. PM_ERR_CONFLICT: another commit removed
 * an input first (the files written are removed).
 */
extern pm_code pm_table_compact(pm_table *table, const char *table_path,
								const pm_compact_options *options, pm_compact_result *result,
								pm_error *err);

#endif							/* PM_LSM_COMPACT_H */
