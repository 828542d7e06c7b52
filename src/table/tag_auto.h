/*-------------------------------------------------------------------------
 * tag_auto.h
 *	  Java 1.4.2's TagAutoCreation (process-time mode): which snapshot
 *	  gets which auto tag, as a pure step function over the snapshots'
 *	  times (pm_tag_auto_init / _step), and the run a commit makes after
 *	  it published (pm_tag_auto_run): the snapshots after the newest
 *	  auto-tagged one walked, their tags created, the oldest auto tags
 *	  past tag.num-retained-max deleted.
 *
 * Process time is the snapshot's commit time (timeMillis) in
 * sink.process-time-zone, or else in the process's local zone (libc's,
 * from TZ or /etc/localtime), as Java takes the JVM's default zone.
 *
 * Spec: apache/paimon TagAutoCreation.java (constructor, run,
 * tryToCreateTags), TagTimeExtractor.ProcessTimeExtractor,
 * TagPeriodHandler.java, TagManager.createTag / deleteTag,
 * TableCommitImpl.maintain (release-1.4.2).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TAG_AUTO_H
#define PM_TABLE_TAG_AUTO_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "io/fileio.h"
#include "table/schema.h"
#include "table/tag_period.h"

typedef struct pm_tag_auto
{
	pm_tag_period period;
	int64_t		delay_ms;		/* tag.creation-delay */
	bool		completion;		/* tag.automatic-completion */
	bool		has_next;		/* nextTag != null */
	int64_t		next_tag;		/* local ms of the next tag's period start */
} pm_tag_auto;

/*
 * Start as the constructor: last_auto_tag is the name of the auto tag of
 * the newest tagged snapshot (NULL: no auto tag yet). false if that name
 * is not an auto tag of this period (the caller filters with
 * pm_tag_period_parse, as Java's isAutoTag).
 */
extern bool pm_tag_auto_init(pm_tag_auto *a, const pm_tag_period *period, int64_t delay_ms,
							 bool completion, const char *last_auto_tag);

/*
 * tryToCreateTags for one snapshot whose time is local_ms: true and the
 * tag name in out when the snapshot gets a tag (the state advances);
 * false otherwise.
 */
extern bool pm_tag_auto_step(pm_tag_auto *a, int64_t local_ms,
							 char out[PM_TAG_PERIOD_NAME_MAX]);

/*
 * With tag.automatic-creation = process-time: PM_ERR_UNSUPPORTED naming an
 * option set that this writer's tags would not honour (tag.callbacks),
 * PM_ERR_INVALID for a bad
 * sink.process-time-zone, tag.num-retained-max or
 * tag.default-time-retained. With process-time or watermark,
 * PM_ERR_INVALID for a bad period, formatter, duration or delay (Java's
 * commit fails then, so ours must not succeed). Other modes: PM_OK.
 */
extern pm_code pm_tag_auto_check_schema(const pm_schema *s, pm_error *err);

/* What a run did. */
typedef struct pm_tag_auto_result
{
	int			created;
	int			deleted;		/* past tag.num-retained-max */
	int			expired;		/* past their tagTimeRetained (TagTimeExpire) */
	char		last_created[PM_TAG_PERIOD_NAME_MAX];
} pm_tag_auto_result;

/*
 * TagAutoManager.run for the table at table_path, whose options are s's,
 * after a commit. With tag.automatic-creation = process-time,
 * TagAutoCreation: starts after the newest snapshot holding an auto tag
 * (or at the earliest snapshot), tags each snapshot the period handler
 * picks (with tag.default-time-retained; a tag that exists already, e.g.
 * made by a concurrent writer, is left as it is), and after each new tag
 * deletes the oldest auto tags beyond tag.num-retained-max (with the files
 * only they kept, pm_tag_delete). Then, unless tag.time-expire-enabled is
 * false, TagTimeExpire (pm_tag_expire_by_time, whatever the mode).
 * Idempotent: a run that fails half way is finished by the next one.
 */
extern pm_code pm_tag_auto_run(const pm_env *env, pm_fileio *io, const char *table_path,
							   const pm_schema *s, pm_arena *arena, pm_tag_auto_result *res,
							   pm_error *err);

#endif							/* PM_TABLE_TAG_AUTO_H */
