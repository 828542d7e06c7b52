/*-------------------------------------------------------------------------
 * append_compact.h
 *	  Compaction of an append table (no primary key), as Java 1.4.2's
 *	  dedicated compaction (compact procedure) does it: small files are
 *	  read in order and rewritten into files of target-file-size (append
 *	  default 256 MiB), file source COMPACT, level 0, sequence numbers
 *	  counted from the first input's minimum; one COMPACT snapshot deletes
 *	  the inputs and adds the outputs. No merge: the rows stay as they are.
 *
 * What is picked, per table kind:
 *	- fixed buckets (BucketedAppendCompactManager.triggerFullCompaction /
 *	  FullCompactTask), per bucket: its files by minimum sequence number;
 *	  leading files of at least the compaction file size (target / 10 * 7)
 *	  are left alone; the rest is rewritten when it holds at least 3 files
 *	  and more small than large ones (or with
 *	  compaction.force-rewrite-all-files);
 *	- bucket -1 (AppendCompactCoordinator, batch mode), per partition: the
 *	  files under the compaction file size, by size, packed into bins (each
 *	  file counts its size + source.split.open-file-cost, 4 MiB): a bin of
 *	  2+ files reaching 2 x target-file-size is rewritten, and the last bin
 *	  when it holds compaction.min.file-num (5) files. With deletion
 *	  vectors also the files whose DV deletes more than
 *	  compaction.delete-ratio-threshold (0.2) of their rows; the picked
 *	  files with a DV go first, grouped by the index file holding their DV
 *	  (no two tasks share an index file), the groups by size packed into
 *	  bins as above, the last bin rewritten whatever its size; the picked
 *	  files without a DV are then packed as without DVs.
 *
 * Fixed-bucket tables with deletion vectors (FullCompactTask with a
 * BucketedDvMaintainer): every file is rewritten but the large ones
 * without a DV at the head, whatever their number, the rows their DVs
 * delete dropped; the bucket's DV index file is written again without
 * the compacted files' DVs. Bucket-unaware tables with deletion vectors
 * (AppendCompactTask.doCompact + AppendDeleteFileMaintainer): the rows
 * their DVs delete dropped too; each index file that held a DV of a
 * compacted file is deleted, the DVs it holds of other data files written
 * again into a new index file, all in the COMPACT snapshot, whose commit
 * fails with PM_ERR_CONFLICT when a compacted file's DV changed meanwhile.
 * The outputs get the table's file indexes (file-index.*), as the
 * writer's.
 *
 * Spec: apache/paimon release-1.4.2 append/BucketedAppendCompactManager.java,
 * append/AppendCompactCoordinator.java, append/AppendCompactTask.java,
 * deletionvectors/append/AppendDeleteFileMaintainer.java,
 * operation/BaseAppendFileStoreWrite.compactRewrite; CoreOptions.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_APPEND_COMPACT_H
#define PM_TABLE_APPEND_COMPACT_H

#include "common/error.h"
#include "lsm/compact.h"
#include "table/table.h"

/*
 * Compact the append table (opened at its latest snapshot) at table_path;
 * options and result as pm_table_compact (result->buckets: the rewrite
 * tasks, one per bucket or bin).
 */
extern pm_code pm_append_compact(pm_table *table, const char *table_path,
								 const pm_compact_options *options, pm_compact_result *result,
								 pm_error *err);

/* A bucket written to (its partition as a serialized BinaryRow). */
typedef struct pm_append_bucket
{
	const uint8_t *partition;
	int32_t		partition_len;
	int32_t		bucket;
} pm_append_bucket;

/*
 * The compaction an append writer of a fixed-bucket table runs at commit,
 * as Java's batch writer does (AppendOnlyWriter.prepareCommit(waitCompaction
 * = true): BucketedAppendCompactManager.triggerCompaction(false), i.e.
 * pickCompactBefore + AutoCompactTask): in each of the buckets written to,
 * with table opened at or after the APPEND snapshot, the first
 * compaction.min.file-num files (by minimum sequence number) within a
 * window of 2 x target-file-size are rewritten into one COMPACT snapshot
 * committed as commit_user / commit_identifier. Bucket -1 tables: nothing
 * (Java leaves them to the dedicated compaction). PM_ERR_CONFLICT: another
 * commit removed an input first (the files written are removed).
 */
extern pm_code pm_append_compact_at_commit(pm_table *table, const char *table_path,
										   const char *commit_user, int64_t commit_identifier,
										   const pm_append_bucket *buckets, int nbuckets,
										   pm_compact_result *result, pm_error *err);

#endif							/* PM_TABLE_APPEND_COMPACT_H */
