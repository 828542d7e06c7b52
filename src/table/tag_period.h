/*-------------------------------------------------------------------------
 * tag_period.h
 *	  Periods of automatically created tags and their names, as Java
 *	  1.4.2's TagPeriodHandler: daily / hourly / two-hours / a duration
 *	  (tag.creation-period, tag.creation-period-duration) with
 *	  tag.period-formatter; tag name <-> the period's start time.
 *
 * Times are LocalDateTime values as Java's handler uses them: wall-clock
 * milliseconds counted from 1970-01-01 00:00 with no zone ("local ms");
 * the caller converts process time into them with its zone. Names carry
 * a 4-digit year (0000..9999); Java prints later years with a sign and
 * its strict parse refuses them, and no process time reaches them.
 *
 * Spec: apache/paimon TagPeriodHandler.java, CoreOptions.TagCreationPeriod,
 * TagPeriodFormatter (release-1.4.2).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TAG_PERIOD_H
#define PM_TABLE_TAG_PERIOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "table/schema.h"

typedef enum pm_tag_period_kind
{
	PM_TAG_PERIOD_DAILY,
	PM_TAG_PERIOD_HOURLY,
	PM_TAG_PERIOD_TWO_HOURS,
	PM_TAG_PERIOD_DURATION		/* tag.creation-period-duration */
} pm_tag_period_kind;

typedef enum pm_tag_period_format
{
	PM_TAG_FORMAT_WITH_DASHES,	/* "with_dashes" (default) */
	PM_TAG_FORMAT_WITHOUT_DASHES,	/* "without_dashes" */
	PM_TAG_FORMAT_WITHOUT_DASHES_AND_SPACES /* "without_dashes_and_spaces" */
} pm_tag_period_format;

typedef struct pm_tag_period
{
	pm_tag_period_kind kind;
	pm_tag_period_format format;
	int64_t		period_ms;		/* one period, > 0 */
} pm_tag_period;

/* Longest name written: "yyyy-MM-dd HH" / "yyyyMMddHHmm" plus NUL. */
#define PM_TAG_PERIOD_NAME_MAX 16

/*
 * Set up a handler from the option values (NULL = unset, Java's defaults:
 * daily, with_dashes). A duration, when given, wins over the period, as in
 * TagPeriodHandler.create. Unknown values are PM_ERR_INVALID naming the option.
 */
extern pm_code pm_tag_period_init(pm_tag_period *p, const char *creation_period,
								  const char *period_formatter,
								  int64_t duration_ms, bool has_duration,
								  pm_error *err);

/* validateDelay: the delay must be shorter than one period. */
extern bool pm_tag_period_delay_ok(const pm_tag_period *p, int64_t delay_ms);

/* timeToTag; false (no name) for a year outside 0000..9999. */
extern bool pm_tag_period_name(const pm_tag_period *p, int64_t local_ms,
							   char out[PM_TAG_PERIOD_NAME_MAX]);

/* tagToTime with Java's strict parse; false if `name` is not an auto tag. */
extern bool pm_tag_period_parse(const pm_tag_period *p, const char *name,
								int64_t *local_ms);

/* normalizeToPreviousTag: start of the period before the one holding t. */
extern int64_t pm_tag_period_previous_start(const pm_tag_period *p, int64_t local_ms);

/* nextTagTime / previousTagTime */
static inline int64_t
pm_tag_period_next(const pm_tag_period *p, int64_t t)
{
	return t + p->period_ms;
}

static inline int64_t
pm_tag_period_prev(const pm_tag_period *p, int64_t t)
{
	return t - p->period_ms;
}

/*
 * The handler and tag.creation-delay of a table's options (the checks of
 * TagAutoCreation's constructor): PM_ERR_INVALID naming a bad option.
 */
extern pm_code pm_tag_period_from_schema(const pm_schema *s, pm_tag_period *p,
										 int64_t *delay_ms, pm_error *err);

#endif							/* PM_TABLE_TAG_PERIOD_H */
