/*-------------------------------------------------------------------------
 * commit.h
 *	  Committing new files as a Paimon snapshot, as Java's
 *	  FileStoreCommitImpl does: a manifest of the changes, a manifest list,
 *	  the snapshot JSON published with rename-without-replace
 *	  (pm_fileio write_new), then the LATEST hint. When another writer
 *	  published the same snapshot id first, re-read the latest snapshot,
 *	  check for conflicts as Java does, and retry.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md (snapshots, commit);
 * apache/paimon FileStoreCommitImpl.java, Snapshot.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_COMMIT_H
#define PM_TABLE_COMMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "io/fileio.h"
#include "table/index_manifest.h"
#include "table/schema.h"
#include "table/split.h"

/* The changed files of one bucket of one partition. */
typedef struct pm_commit_change
{
	const uint8_t *partition;	/* serialized BinaryRow */
	int32_t		partition_len;
	int32_t		bucket;
	int32_t		total_buckets;
	int			nadded;
	const pm_data_file_meta *added; /* ADD entries (new level-0 or compacted files) */
	int			ndeleted;
	const pm_data_file_meta *deleted;	/* DELETE entries (compaction inputs) */

	/*
	 * Index files (deletion vectors, hash index) of this bucket: new ones,
	 * and the ones they replace or that go away. Only index_type, file_name,
	 * file_size, row_count, nranges/ranges and external_path of an entry
	 * are used; kind, partition and bucket are the change's.
	 */
	int			nindex_added;
	const pm_index_manifest_entry *index_added;
	int			nindex_deleted;
	const pm_index_manifest_entry *index_deleted;

	/*
	 * Changelog files (changelog-producer = input): ADD entries of the
	 * snapshot's changelog manifest list (changelogManifestList,
	 * changelogRecordCount: their row counts).
	 */
	int			nchangelog;
	const pm_data_file_meta *changelog;
} pm_commit_change;

typedef struct pm_commit_request
{
	const char *commit_user;	/* one per writer (a UUID), as Java's */
	int64_t		commit_identifier;	/* increasing per commit_user */
	const char *commit_kind;	/* "APPEND", "COMPACT" or "OVERWRITE" */
	const pm_schema *schema;	/* the schema the files were written with */
	int			nchanges;
	const pm_commit_change *changes;

	/*
	 * The sequence check of a primary-key writer (table_write.c), on when
	 * stale_need is not NULL. base_snapshot_id: the snapshot the writer took
	 * its sequence numbers from (0: none). Every attempt, before it
	 * publishes, reads the files ADDed by snapshots base_snapshot_id + 1 ..
	 * latest (latest's live files when one of those has expired); a file
	 * of a change's partition and bucket whose max_sequence_number is at
	 * least the smallest min_sequence_number the change adds makes the
	 * change stale: the commit then fails with PM_ERR_CONFLICT, publishing
	 * nothing, with stale_need[c] (nchanges entries) = the largest such
	 * max + 1 for a stale change, -1 for the others, and *checked_snapshot_id
	 * = the latest snapshot checked. The caller renumbers (lsm/resequence.h)
	 * and commits again with base_snapshot_id = *checked_snapshot_id.
	 */
	int64_t		base_snapshot_id;
	int64_t    *stale_need;
	int64_t    *checked_snapshot_id;

	/*
	 * The deletion vectors added are DELETE/UPDATE's on an append table
	 * (append_dv_write.h): PM_ERR_CONFLICT unless every data file they
	 * name is live in the latest snapshot and no other live DV of that
	 * data file (bucket-unaware) or bucket (fixed buckets) is left beside
	 * them.
	 */
	bool		append_deletion_vectors;

	/*
	 * Compaction of a bucket-unaware append table with deletion vectors
	 * (append_compact.c): each deleted data file's deletion_file is the DV
	 * it was read with (NULL: none). PM_ERR_CONFLICT unless latest's index
	 * manifest holds that file's DV in the same index file (or none), as
	 * Java's ConflictDetection pairs file entries with their DV file names
	 * (buildBaseEntriesWithDV): rows a concurrent DELETE marked in a file
	 * being rewritten must not come back.
	 */
	bool		deleted_files_dv_checked;
} pm_commit_request;

/*
 * Publish the request as the next snapshot of the table at table_path.
 * *snapshot_id is the id it got. Nothing to commit (no change) publishes
 * nothing and sets *snapshot_id to 0. PM_ERR_CONFLICT: a concurrent commit
 * made this one impossible (e.g. a data or index file to delete is gone,
 * or sequence numbers are stale, see above); the files the request names
 * are then the caller's to remove (or renumber).
 *
 * With index changes, the new snapshot's index manifest is the latest
 * snapshot's combined with them as Java's IndexManifestFileHandler does:
 * deletion vectors of bucket-unaware tables by file name, deletion vectors
 * and hash indexes of bucketed tables by (partition, bucket, index type),
 * the new file replacing the old one.
 */
extern pm_code pm_table_commit(const pm_env *env, pm_fileio *io, const char *table_path,
							   const pm_commit_request *request, pm_arena *arena,
							   int64_t *snapshot_id, pm_error *err);

#endif							/* PM_TABLE_COMMIT_H */
