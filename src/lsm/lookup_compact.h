/*-------------------------------------------------------------------------
 * lookup_compact.h
 *	  The compaction Java's writer runs at commit on tables whose batch
 *	  reads skip level 0 (deletion vectors, first-row) and on those with
 *	  changelog-producer = lookup: level 0 is pushed up to a level >= 1 and
 *	  every key written is looked up in the older levels, so that the
 *	  committed rows are visible to Java at once and, with the lookup
 *	  producer, their changelog is written (lsm/lookup_changelog.h).
 *
 * After our APPEND snapshot, for each bucket the commit wrote, on the
 * latest snapshot (every level, with the bucket's deletion vectors):
 *	 - the sorted runs [level-0 files newest first, level 1, 2, ...] are
 *	   picked as ForceUpLevel0Compaction does (UniversalCompaction's size
 *	   amplification, size ratio and run count rules, else every level-0
 *	   file with the runs the size ratio adds, output level one below the
 *	   first run left out, never 0);
 *	 - the unit is compacted as MergeTreeCompactTask does (IntervalPartition
 *	   sections; files of at least target-file-size / 10 * 7 alone in their
 *	   section are upgraded, the rest rewritten together) with
 *	   LookupMergeTreeCompactRewriter: merges involving level 0 look each key
 *	   up in the levels above the output level; a deletion-vector table
 *	   marks the row found there deleted (and merges its value for engines
 *	   other than deduplicate), a first-row table drops the new key; a
 *	   level-0 file is upgraded without rewrite where Java does (max level,
 *	   or deduplicate without sequence.field, and no delete rows);
 *	 - rewritten input files lose their deletion vectors; if any DV changed,
 *	   the bucket's DVs are written as one new index file replacing the old.
 * With changelog-producer = lookup every merge involving level 0 (also a
 * level-0 file upgraded without rewrite: CHANGELOG_NO_REWRITE) hands its
 * keys' before and after records to a changelog sink, one changelog writer
 * per rewrite; rewrites keep retractions where Java's dropDelete is false
 * (below the highest level; upgrades of tables without DVs).
 * Then one COMPACT snapshot (same commit user and identifier) deletes the
 * inputs, adds the outputs and the changelog files (its changelog manifest
 * list) and swaps the index files. If another commit
 * removed an input first (PM_ERR_CONFLICT), the files written are removed
 * and the compaction is planned again on the new latest snapshot.
 *
 * record-level.expire-time (lsm/record_expire.h): the files read for a
 * rewrite drop expired records (their DV applied with them), the lookups
 * skip expired rows (not first-row's, whose lookup reader does not
 * expire), and a file with an expired minimum is rewritten, not upgraded.
 *
 * Not done as Java: early full compaction and off-peak hours options,
 * lookup-compact = gentle (we always compact, so rows are never left
 * invisible), asynchronous compactions during the write.
 *
 * Spec: apache/paimon release-1.4.2 mergetree/compact/
 * MergeTreeCompactManager, ForceUpLevel0Compaction, UniversalCompaction,
 * MergeTreeCompactTask, IntervalPartition, LookupMergeTreeCompactRewriter,
 * ChangelogMergeTreeRewriter, LookupChangelogMergeFunctionWrapper,
 * FirstRowMergeFunctionWrapper, LookupMergeFunction; mergetree/Levels,
 * LookupLevels, LookupUtils; operation/AbstractFileStoreWrite.prepareCommit,
 * FileStoreCommitImpl.commit (APPEND then COMPACT snapshot).
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_LOOKUP_COMPACT_H
#define PM_LSM_LOOKUP_COMPACT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "io/fileio.h"
#include "table/write_options.h"

/* Whether a writer with these options compacts at commit (and this module applies). */
extern bool pm_lookup_compact_needed(const pm_write_options *opt);

/* A bucket the commit wrote. */
typedef struct pm_lookup_compact_target
{
	const uint8_t *partition;	/* serialized BinaryRow */
	int32_t		partition_len;
	int32_t		bucket;
} pm_lookup_compact_target;

typedef struct pm_lookup_compact_result
{
	int64_t		snapshot_id;	/* the COMPACT snapshot, 0 if nothing changed */
	int			buckets;		/* buckets compacted */
	int			files_deleted;	/* DELETE entries (rewritten and upgraded files) */
	int			files_added;	/* ADD entries */
	int			files_upgraded; /* of them, level changes without rewrite */
	int64_t		rows_written;	/* rows of the rewritten files */
	int64_t		deletions;		/* new deleted positions in older files */
	int64_t		rows_expired;	/* records dropped by record-level expiry */
	int			attempts;		/* plans made (> 1 after conflicts) */
	int			changelog_files;	/* changelog-producer = lookup: files written */
	int64_t		changelog_records;	/* and the records in them */
} pm_lookup_compact_result;

/*
 * Compact the targets on the latest snapshot of the table at table_path
 * and commit the result as COMPACT with commit_user / commit_identifier
 * (those of the APPEND snapshot just committed).
 */
extern pm_code pm_lookup_compact_commit(const pm_env *env, pm_fileio *io, const char *table_path,
										const char *commit_user, int64_t commit_identifier,
										const pm_lookup_compact_target *targets, int ntargets,
										pm_lookup_compact_result *result, pm_error *err);

/*
 * paimon_compact's full compaction of a deletion-vector or first-row table
 * (lsm/compact.h hands them over), as Java's dedicated compaction does
 * (MergeTreeCompactManager.triggerCompaction(true) with the
 * LookupMergeTreeCompactRewriter): per bucket (fixed, or dynamic: bucket =
 * -1, its HASH index files untouched), CompactStrategy.pickFullCompaction
 * picks every sorted run into the max level; a bucket that is one run at
 * the max level already rewrites, file by file (FileRewriteCompactTask),
 * only its files with a deletion vector, expired records or
 * compaction.force-rewrite-all-files, none: nothing to do. Deletes are
 * dropped (the output is the top level), the DVs of the files rewritten
 * are applied and leave the bucket's DV index file (a new one replaces it,
 * holding no DV if none is left, as Java writes it; Java 1.4.2's FileRewriteCompactTask left them as
 * orphan entries, fixed upstream in apache/paimon #8783). No lookup: no
 * level lies above the output. One COMPACT snapshot (own commit user,
 * identifier Long.MAX_VALUE); PM_ERR_CONFLICT as pm_table_compact.
 * partition: NULL, or "k1=v1,k2=v2" (pm_compact_partition_path).
 * progress (may be NULL) is called after each bucket.
 */
extern pm_code pm_lookup_compact_full(const pm_env *env, pm_fileio *io, const char *table_path,
									  const char *partition,
									  void (*progress) (void *ctx, int done, int total,
														int64_t rows),
									  void *progress_ctx, pm_lookup_compact_result *result,
									  pm_error *err);

#endif							/* PM_LSM_LOOKUP_COMPACT_H */
