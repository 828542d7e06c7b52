/*-------------------------------------------------------------------------
 * snapshot_expire.h
 *	  Expiring snapshots as Java 1.4.2's ExpireSnapshotsImpl does: keep at
 *	  least retain_min and at most retain_max snapshots, never one a
 *	  consumer (consumer/consumer-<id>) still needs, expire at most
 *	  max_deletes per run and only snapshots whose successor is older than
 *	  older_than; delete the data files, changelog files, manifests,
 *	  manifest lists, index files and statistics only expired snapshots
 *	  used (tags keep theirs), the snapshot files, then write EARLIEST.
 *
 * As the expire_snapshots procedure (whose ExpireConfig has no changelog
 * settings), the changelog lifecycle is never decoupled: the changelog
 * files of expired snapshots are deleted with them, consumers protect
 * their snapshots (consumer.changelog-only is false).
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §11.8; apache/paimon
 * ExpireSnapshotsImpl.java, SnapshotDeletion.java, FileDeletionBase.java,
 * CoreOptions (snapshot.*), ProcedureUtils.fillInSnapshotOptions.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SNAPSHOT_EXPIRE_H
#define PM_TABLE_SNAPSHOT_EXPIRE_H

#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "table/table.h"

typedef struct pm_expire_options
{
	int			retain_min;		/* >= 1 */
	int			retain_max;		/* >= retain_min */
	int			max_deletes;	/* >= 1 */
	int64_t		older_than_millis;	/* snapshots committed before may expire */
} pm_expire_options;

/*
 * The table's settings, as Java's CoreOptions.expireConfig:
 * snapshot.num-retained.min (10), snapshot.num-retained.max (2^31-1),
 * snapshot.expire.limit (50), snapshot.time-retained (1 h) before
 * now_millis. PM_ERR_INVALID for a value Java would refuse.
 */
extern pm_code pm_expire_options_from_table(const pm_schema *schema, int64_t now_millis,
											pm_expire_options *out, pm_error *err);

/*
 * Expire snapshots of table (opened on it, at any snapshot): *expired is
 * the number of snapshots deleted (Java's expire() result), *files_deleted
 * the other files removed.
 */
extern pm_code pm_snapshot_expire(pm_table *table, const pm_expire_options *options,
								  pm_arena *arena, int *expired, int64_t *files_deleted,
								  pm_error *err);

#endif							/* PM_TABLE_SNAPSHOT_EXPIRE_H */
