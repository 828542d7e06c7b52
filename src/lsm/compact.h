/*-------------------------------------------------------------------------
 * compact.h
 *	  Compaction of a primary-key table (fixed or dynamic buckets): full, as
 *	  Java's dedicated compaction (CompactAction / compact procedure) does
 *	  with CompactStrategy.pickFullCompaction: per partition and bucket,
 *	  every sorted run is merged (merge engine, sequence order, deletion
 *	  vectors applied) into new files at the max level (num-levels - 1,
 *	  default num-sorted-run.compaction-trigger + 1 = 6 levels), retract
 *	  records dropped (the output is the top level), then one COMPACT
 *	  snapshot deletes the inputs and adds the outputs.
 *
 * and at a writer's commit (below). Both compact as MergeTreeCompactTask:
 * key-disjoint sections, large lone files upgraded (same file, new level),
 * the rest merged.
 *
 * A bucket whose files are all at the max level already is left alone
 * (pickFullCompaction: one run at the max level). Output files keep each
 * merged record's sequence number and kind (see
 * pm_merge_reader_set_kv_output), roll at target-file-size, and are
 * written with the latest schema, file source COMPACT.
 *
 * record-level.expire-time (lsm/record_expire.h): records whose time
 * field expired are dropped as compaction reads them, files whose
 * statistics show expired records are rewritten instead of upgraded, and
 * a bucket at the max level already rewrites those files.
 *
 * changelog-producer = full-compaction (FullChangelogMergeTreeCompactRewriter,
 * in paimon_compact and at a writer's commit alike): a unit whose output
 * level is the max level writes changelog files (lsm/lookup_changelog.h,
 * level = max level, file source APPEND) beside its output, per key: the
 * record it had at the max level before, compared with the merged result
 * (+I for a new key, -U/+U for a changed one, unless
 * changelog-producer.row-deduplicate finds them equal, -D for one
 * retracted; a key not changed gives nothing); a file upgraded into the
 * max level without rewrite gives +I for each of its records
 * (CHANGELOG_NO_REWRITE); units into lower levels write no changelog. The
 * COMPACT snapshot holds them in its changelog manifest list.
 *
 * Append tables: table/append_compact.h (pm_table_compact hands them over).
 *
 * Tables with deletion vectors and first-row tables (their batch reads
 * skip level 0, Java compacts them with lookup): pm_table_compact hands
 * them to lsm/lookup_compact.h (pm_lookup_compact_full). Dynamic buckets
 * (bucket = -1): paimon_compact compacts each bucket (its HASH index
 * files untouched); the writer's compaction at commit does not. Postpone
 * buckets (-2): pm_table_compact hands them to lsm/postpone_compact.h (the
 * postpone bucket's files moved into real buckets, as Java's compaction
 * job does); the writer's compaction at commit leaves them alone.
 *
 * Spec: apache/paimon release-1.4.2 mergetree/compact/
 * MergeTreeCompactManager.java, CompactStrategy.java,
 * MergeTreeCompactRewriter.java; CoreOptions.numLevels.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_COMPACT_H
#define PM_LSM_COMPACT_H

#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "table/commit.h"
#include "table/split.h"
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
	int64_t		rows_expired;	/* records dropped by record-level expiry */
	int			changelog_files;	/* changelog-producer = full-compaction */
	int64_t		changelog_records;
} pm_compact_result;

/*
 * Compact the latest snapshot of table (opened at its latest snapshot)
 * whose directory is table_path. PM_ERR_CONFLICT: another commit removed
 * an input first, or its files would overlap another commit's in a level
 * above 0 (Java's LSM key-range check, commit_conflict.h); the files
 * written are removed.
 */
extern pm_code pm_table_compact(pm_table *table, const char *table_path,
								const pm_compact_options *options, pm_compact_result *result,
								pm_error *err);

/*
 * The relative partition directory ("k1=v1/k2=v2/") that a compact
 * procedure's partition "k1=v1,k2=v2" names (every partition key, any
 * order); PM_ERR_INVALID for an unknown or missing key or an unpartitioned
 * table.
 */
extern pm_code pm_compact_partition_path(const pm_schema *schema, pm_arena *arena,
										 const char *spec, char **out, pm_error *err);

/*
 * The compaction a primary-key writer runs at commit, as Java's batch
 * writer does (MergeTreeWriter.prepareCommit(waitCompaction = true): after
 * the flush, one MergeTreeCompactManager.triggerCompaction(false) per
 * bucket and its result waited for): the bucket's files in the snapshot
 * the writer restored plus the level-0 files just written, picked by the
 * table's universal compaction (compact_pick.h), compacted as a
 * MergeTreeCompactTask. The caller commits the written files (APPEND),
 * then the changes (COMPACT), as FileStoreCommitImpl.commit does.
 */
typedef struct pm_compactor pm_compactor;

/* What one bucket's compaction did (for a log line). */
typedef struct pm_compact_trigger_info
{
	int			sorted_runs;	/* runs before */
	bool		compacted;
	int			runs_picked;
	int32_t		output_level;
	int			files_in;
	int			files_out;
	int64_t		rows_out;
} pm_compact_trigger_info;

/*
 * A compactor for writers of table (opened at the snapshot the writer
 * restored its buckets from). *out = NULL with *why set when Java's writer
 * would not compact this table here: write-only (NoopCompactManager),
 * append tables, and tables that need lookup compaction (deletion
 * vectors, first-row, changelog-producer lookup, force-lookup), which are
 * not compacted by this writer.
 */
extern pm_code pm_compactor_open(pm_table *table, pm_compactor **out, const char **why,
								 pm_error *err);

/*
 * One bucket after a write: bucket->files are its files in the restored
 * snapshot (partition, bucket and bucket_path describe it), new_files the
 * level-0 files just written. When the pick finds a unit, it is compacted
 * and *change holds the files deleted and added (upgrades as DELETE + ADD
 * of the same name); else change->ndeleted = nadded = 0. The files stay
 * valid until pm_compactor_close.
 */
extern pm_code pm_compactor_after_write(pm_compactor *c, const pm_split *bucket,
										const pm_data_file_meta *new_files, int nnew,
										pm_commit_change *change,
										pm_compact_trigger_info *info, pm_error *err);

/* Remove every file the compactor wrote (the commit failed, or was not made). */
extern void pm_compactor_remove_written(pm_compactor *c);

extern void pm_compactor_close(pm_compactor *c);

#endif							/* PM_LSM_COMPACT_H */
