/*-------------------------------------------------------------------------
 * tag.h
 *	  Paimon tags: tag/tag-<name> holds a copy of the tagged snapshot's
 *	  JSON. Listing, creating, deleting (with the files only the tag kept)
 *	  and renaming them as Java 1.4.2's TagManager does.
 *
 * A tag without a retention time is exactly Snapshot.toJson of the
 * snapshot, which every Paimon reader accepts; with one (a time_retained
 * given, e.g. tag.default-time-retained) Tag.toJson adds tagCreateTime
 * (the local wall clock) and tagTimeRetained, and TagTimeExpire deletes
 * the tag once that time has passed. Publishing uses the FileIO's
 * write-if-absent, so two creators of one name cannot both win.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §11.9; apache/paimon
 * TagManager.java, TagDeletion.java, AbstractFileStoreTable.createTag /
 * findSnapshot (release-1.4.2).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TAG_H
#define PM_TABLE_TAG_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "io/fileio.h"
#include "common/env.h"
#include "table/duration.h"
#include "table/schema.h"
#include "table/snapshot.h"
#include "table/table.h"

typedef struct pm_tag
{
	const char *name;
	pm_snapshot *snapshot;
} pm_tag;

/*
 * Every tag of the table, sorted by snapshot id (then name), in arena. A
 * tag file that vanishes while listed is skipped, and so is a directory
 * (tag/tag-success-file: Java's read fails with FileNotFoundException,
 * which TagManager.tags() skips); one that cannot be parsed is an error
 * (as Java's TagManager.tags()).
 */
extern pm_code pm_tag_list(pm_fileio *io, const char *table_path, pm_arena *arena,
						   pm_tag **tags, int *n, pm_error *err);

/*
 * The distinct tagged snapshots, sorted by id (Java taggedSnapshots), from
 * a pm_tag_list result, in arena.
 */
extern pm_code pm_tag_snapshots(const pm_tag *tags, int ntags, pm_arena *arena,
								pm_snapshot ***out, int *n, pm_error *err);

/*
 * Tag snapshot snapshot_id (<= 0: the latest) as name. A snapshot that
 * expired but is tagged may be tagged again (Java findSnapshot).
 * PM_ERR_INVALID for a name that is blank or not one path component,
 * PM_ERR_CONFLICT if the tag exists, PM_ERR_NOT_FOUND if the snapshot
 * does not. *tagged_id: the snapshot id tagged.
 */
extern pm_code pm_tag_create(pm_fileio *io, const char *table_path, const char *name,
							 int64_t snapshot_id, pm_arena *arena, int64_t *tagged_id,
							 pm_error *err);

/*
 * PM_ERR_UNSUPPORTED naming tag.callbacks when s sets it: Java classes
 * Paimon runs at each tag creation and deletion (TagManager), which are
 * not run here.
 */
extern pm_code pm_tag_check_callbacks(const pm_schema *s, pm_error *err);

/* What Java's tag creation takes from the table's options. */
typedef struct pm_tag_options
{
	bool		has_time_retained;	/* tag.default-time-retained */
	pm_duration time_retained;
	bool		success_file;	/* tag.create-success-file (SuccessFileTagCallback) */
} pm_tag_options;

/*
 * The options of s (Table.createTag, TagAutoCreation, TagTimeExpire take
 * the table's current ones). PM_ERR_INVALID for a retention Java's
 * duration parser refuses, PM_ERR_UNSUPPORTED with tag.callbacks
 * (pm_tag_check_callbacks).
 */
extern pm_code pm_tag_options_of_schema(const pm_schema *s, pm_tag_options *out,
										pm_error *err);

/*
 * pm_tag_create with the table's options (NULL: none): a retention time
 * (Tag.fromSnapshotAndTagTtl, created now in the process's local zone),
 * and tag/tag-success-file/<name>_SUCCESS written after the tag
 * (SuccessFileTagCallback.notifyCreation: {creationTime,
 * modificationTime}, the creation time kept when the file exists).
 */
extern pm_code pm_tag_create_with(pm_fileio *io, const char *table_path, const char *name,
								  int64_t snapshot_id, const pm_tag_options *options,
								  pm_arena *arena, int64_t *tagged_id, pm_error *err);

/*
 * TagTimeExpire.expire: delete (pm_tag_delete) every tag whose
 * tagCreateTime plus tagTimeRetained lies before now_local (ns since
 * 1970-01-01T00:00, local: pm_local_now_nanos); tags without both stay.
 * *expired: the tags deleted.
 */
extern pm_code pm_tag_expire_by_time(const pm_env *env, pm_fileio *io, const char *table_path,
									 int64_t now_local, pm_arena *arena, int *expired,
									 pm_error *err);

/*
 * Delete tag name of table (opened on it): the tag file (and its success
 * file with tag.create-success-file, SuccessFileTagCallback
 * .notifyDeletion), and, when its snapshot has expired and no other tag
 * names it, the data files, manifests, index and statistics files neither
 * its neighbour tags nor the earliest snapshot use (TagManager.deleteTag +
 * doClean). A missing tag is not an error (*deleted false), as in Java.
 * *files_deleted counts the files removed besides the tag file.
 */
extern pm_code pm_tag_delete(pm_table *table, const char *name, pm_arena *arena,
							 bool *deleted, int64_t *files_deleted, pm_error *err);

/*
 * Rename tag from to to (the new file written if absent, then the old one
 * removed). PM_ERR_NOT_FOUND if from does not exist, PM_ERR_CONFLICT if to
 * does, PM_ERR_INVALID for a bad name.
 */
extern pm_code pm_tag_rename(pm_fileio *io, const char *table_path, const char *from,
							 const char *to, pm_arena *arena, pm_error *err);

#endif							/* PM_TABLE_TAG_H */
