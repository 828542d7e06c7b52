/*-------------------------------------------------------------------------
 * tag_auto.h
 *	  The decision of Java 1.4.2's TagAutoCreation (process-time mode):
 *	  which snapshot gets which auto tag, as a pure step function over
 *	  the snapshots' times. No I/O: the caller lists tags, walks the new
 *	  snapshots, converts their commit times to local ms in its zone and
 *	  creates the named tags (not wired to commit yet).
 *
 * Spec: apache/paimon TagAutoCreation.java (constructor, tryToCreateTags),
 * TagPeriodHandler.java (release-1.4.2).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TAG_AUTO_H
#define PM_TABLE_TAG_AUTO_H

#include <stdbool.h>
#include <stdint.h>

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

#endif							/* PM_TABLE_TAG_AUTO_H */
