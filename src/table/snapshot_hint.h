/*-------------------------------------------------------------------------
 * snapshot_hint.h
 *	  Writing the snapshot/LATEST and snapshot/EARLIEST hint files as
 *	  Java's HintFileUtils.commitHint does: the decimal id, no newline,
 *	  replacing the old hint.
 *
 * Hints are only hints (snapshot.c verifies them when reading), so a
 * failure to write one is not an error; the replacement is remove +
 * write-if-absent, and a reader in between falls back to listing.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §2.4; apache/paimon
 * HintFileUtils.java, SnapshotManager.commitLatestHint/commitEarliestHint.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SNAPSHOT_HINT_H
#define PM_TABLE_SNAPSHOT_HINT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "io/fileio.h"

/* Write <table_path>/snapshot/<hint> (LATEST or EARLIEST) := id. */
extern void pm_snapshot_hint_write(pm_fileio *io, const char *table_path, const char *hint,
								   int64_t id, pm_arena *arena);

/* Whether <table_path>/snapshot/<hint> exists. */
extern bool pm_snapshot_hint_exists(pm_fileio *io, const char *table_path, const char *hint,
									pm_arena *arena);

#endif							/* PM_TABLE_SNAPSHOT_HINT_H */
