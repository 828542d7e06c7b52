/*-------------------------------------------------------------------------
 * file_deletion.h
 *	  Deleting the files of snapshots that go away, as Java's
 *	  FileDeletionBase does for snapshot expiry (SnapshotDeletion) and tag
 *	  deletion (TagDeletion).
 *
 * Data files are identified as Java's skippers do, by (partition, bucket,
 * file name): pm_file_deletion_data_key. Manifest lists, manifests, index
 * manifests, index files and statistics files by name (a "skipping set").
 * Deletion is quiet, as Java's deleteQuietly: a file already gone is fine.
 * Reading failures follow Java: an unreadable manifest list counts as
 * empty, an unreadable manifest cancels the data-file clean of that list,
 * an unreadable skipping snapshot is the caller's error (it then skips
 * that step). Empty bucket/partition directories are not removed
 * (snapshot.clean-empty-directories, false by default, is not honoured).
 *
 * Spec: apache/paimon FileDeletionBase.java, SnapshotDeletion.java,
 * TagDeletion.java (release-1.4.2).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_FILE_DELETION_H
#define PM_TABLE_FILE_DELETION_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/name_set.h"
#include "table/manifest_entry.h"
#include "table/snapshot.h"
#include "table/table.h"

typedef struct pm_file_deletion
{
	pm_table   *table;			/* opened on the table (any snapshot) */
	pm_arena   *arena;			/* everything below lives here */
	int64_t		files_deleted;	/* files this object removed */
} pm_file_deletion;

extern void pm_file_deletion_init(pm_file_deletion *fd, pm_table *table, pm_arena *arena);

/* "<bucket>/<partition hex>/<file name>" of an entry, in arena (NULL: OOM). */
extern char *pm_file_deletion_data_key(pm_arena *arena, const pm_manifest_entry *e);

/*
 * Add the data files live in snapshot (base + delta manifests merged) to
 * set, keyed by pm_file_deletion_data_key (Java addMergedDataFiles).
 */
extern pm_code pm_file_deletion_add_live_files(pm_file_deletion *fd, const pm_snapshot *snapshot,
											   pm_name_set *set, pm_error *err);

/*
 * Java cleanUnusedDataFiles(manifestList, skipper): the files DELETEd in
 * the list's manifests and not re-ADDed there (an upgrade), with their
 * extra files, unless skip (may be NULL) holds their key.
 */
extern pm_code pm_file_deletion_clean_unused_data_files(pm_file_deletion *fd, const char *list,
														const pm_name_set *skip, pm_error *err);

/*
 * TagDeletion.cleanUnusedDataFiles: the live files of snapshot (a tag's)
 * with their extra files, unless skip holds their key.
 */
extern pm_code pm_file_deletion_clean_live_data_files(pm_file_deletion *fd,
													  const pm_snapshot *snapshot,
													  const pm_name_set *skip, pm_error *err);

/* Java deleteAddedDataFiles: every file ADDed in the list's manifests (changelog files). */
extern pm_code pm_file_deletion_delete_added_data_files(pm_file_deletion *fd, const char *list,
														pm_error *err);

/*
 * Java manifestSkippingSet: the names of the manifest lists, manifests,
 * index manifest, index files and statistics file of each snapshot.
 */
extern pm_code pm_file_deletion_manifest_skipping_set(pm_file_deletion *fd,
													  pm_snapshot *const *snapshots, int n,
													  pm_name_set *set, pm_error *err);

/*
 * Java cleanUnusedManifests(snapshot, skippingSet, deleteDataManifestLists,
 * deleteChangelog): its manifest lists and their manifests, its index
 * manifest's index files and the index manifest, its statistics file,
 * unless named in skip (manifests deleted are added to skip).
 */
extern pm_code pm_file_deletion_clean_unused_manifests(pm_file_deletion *fd,
													   const pm_snapshot *snapshot,
													   pm_name_set *skip, bool delete_lists,
													   bool delete_changelog, pm_error *err);

/*
 * Before deleting anything: every root of data-file.external-paths must
 * map to a local path (pm_path_map_resolve), else the error (e.g.
 * PM_ERR_UNSUPPORTED for s3://), so that a clean does not stop half-way.
 */
extern pm_code pm_file_deletion_check_paths(pm_table *table, pm_arena *arena, pm_error *err);

/* Remove path, ignoring a missing file (counted when removed). */
extern void pm_file_deletion_remove(pm_file_deletion *fd, const char *path);

#endif							/* PM_TABLE_FILE_DELETION_H */
