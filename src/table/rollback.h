/*-------------------------------------------------------------------------
 * rollback.h
 *	  Rolling a table back to a snapshot or a tag, as Java 1.4.2's
 *	  FileStoreTable.rollbackTo and RollbackHelper do on a filesystem
 *	  catalog: LATEST := the target, the snapshot files after it deleted
 *	  (newest first), the long-lived changelogs after it deleted, and the
 *	  tags of later snapshots deleted; rolling back to a tag whose snapshot
 *	  has expired writes that snapshot back from the tag (and EARLIEST).
 *
 * Like Java since 1.2 ("Simplify rollback to only clean snapshots"), the
 * data files, manifests and index files only the dropped snapshots used
 * are left on disk: they are orphan files now, which
 * pm_orphan_files_clean removes once they are old enough.
 *
 * Spec: apache/paimon AbstractFileStoreTable.rollbackTo, RollbackHelper.java
 * (release-1.4.2).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_ROLLBACK_H
#define PM_TABLE_ROLLBACK_H

#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "io/fileio.h"

/*
 * Roll back to snapshot snapshot_id (an expired snapshot still held by a
 * tag counts: rolled back to that tag). PM_ERR_NOT_FOUND: "Rollback
 * snapshot '<id>' doesn't exist." *removed: snapshot files deleted.
 */
extern pm_code pm_rollback_to_snapshot(pm_fileio *io, const char *table_path, int64_t snapshot_id,
									   pm_arena *arena, int *removed, pm_error *err);

/* Roll back to tag name. PM_ERR_NOT_FOUND: "Tag '<name>' doesn't exist." */
extern pm_code pm_rollback_to_tag(pm_fileio *io, const char *table_path, const char *name,
								  pm_arena *arena, int *removed, pm_error *err);

#endif							/* PM_TABLE_ROLLBACK_H */
