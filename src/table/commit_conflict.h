/*-------------------------------------------------------------------------
 * commit_conflict.h
 *	  The conflict checks of Java 1.4.2's ConflictDetection.checkConflicts
 *	  that commit.c runs on every attempt of a commit with DELETE entries
 *	  or of kind COMPACT (Java's detectConflicts), after its own check that
 *	  every deleted file is live.
 *
 * Spec: apache/paimon operation/commit/ConflictDetection.java,
 * manifest/FileEntry.java (mergeEntries).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_COMMIT_CONFLICT_H
#define PM_TABLE_COMMIT_CONFLICT_H

#include "common/arena.h"
#include "common/error.h"
#include "table/commit.h"
#include "table/manifest_entry.h"

/*
 * base: the live entries of the latest snapshot (merged ADD entries);
 * only those of the partitions the request changes are looked at, as
 * Java reads readAllEntriesFromChangedPartitions. PM_ERR_CONFLICT, with
 * Java's message, when:
 *	- the request's entries, merged among themselves, add one file twice
 *	  or delete and add the same file ("File deletion conflicts detected!");
 *	- base and request merged add one file twice (same message);
 *	- a partition's files (base and request, total_buckets > 0) do not all
 *	  have the same total buckets, unless the commit is an OVERWRITE
 *	  ("Total buckets of partition ... changed from A to B without
 *	  overwrite. Give up committing.");
 *	- primary-key tables (without pk-clustering-override): two live files
 *	  of one partition, bucket and level >= 1 after the commit have key
 *	  ranges that meet: sorted by _MIN_KEY, a file's _MAX_KEY >= the next
 *	  one's _MIN_KEY, in the table's key order ("LSM conflicts detected!
 *	  Give up committing."). Level 0 is exempt.
 * A _MIN_KEY/_MAX_KEY that does not decode with the key type is
 * PM_ERR_CORRUPT.
 */
extern pm_code pm_commit_check_conflicts(const pm_commit_request *req,
										 pm_manifest_entry *const *base, int nbase,
										 pm_arena *arena, pm_error *err);

#endif							/* PM_TABLE_COMMIT_CONFLICT_H */
