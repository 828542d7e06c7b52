/*-------------------------------------------------------------------------
 * tz.h
 *	  Time-zone rules (UTC offsets over time) read from the system's
 *	  compiled tz database (TZif files under /usr/share/zoneinfo).
 *
 * Needed where a file stores wall-clock values relative to a named zone:
 * ORC TIMESTAMP columns are written relative to the writer's time zone
 * (stripe footer writerTimezone), and Java's readers apply java.util.TimeZone
 * offsets. Names Java does not know read as GMT, as TimeZone.getTimeZone
 * does; "UTC", "GMT", "Z" and "GMT+hh[:mm]" need no file.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_TZ_H
#define PM_COMMON_TZ_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"

typedef struct pm_tz pm_tz;

/*
 * Load zone `name` into arena. Unknown names give the UTC zone (Java's
 * behaviour); a present but malformed TZif file is PM_ERR_CORRUPT.
 * $TZDIR overrides /usr/share/zoneinfo.
 */
extern pm_code pm_tz_load(pm_arena *arena, const char *name, pm_tz **out, pm_error *err);

/* The UTC zone (a static object). */
extern const pm_tz *pm_tz_utc(void);

/* Offset from UTC in seconds of the zone at UTC instant `utc_seconds`. */
extern int32_t pm_tz_offset(const pm_tz *tz, int64_t utc_seconds);

/* Offset in milliseconds at a UTC instant in milliseconds (java TimeZone.getOffset). */
extern int64_t pm_tz_offset_millis(const pm_tz *tz, int64_t utc_millis);

/*
 * UTC seconds of local wall-clock time `local_seconds` (seconds since
 * 1970-01-01 00:00 local), resolving gaps and overlaps as
 * java.util.GregorianCalendar does for the standard cases (earlier offset).
 */
extern int64_t pm_tz_local_to_utc(const pm_tz *tz, int64_t local_seconds);

/* True if both zones have the same rules (java TimeZone.hasSameRules, approximately). */
extern bool pm_tz_same_rules(const pm_tz *a, const pm_tz *b);

/*
 * Whether pm_tz_load would find `name` ("Z", a GMT/UTC offset id, or a
 * TZif file), for options Java parses with ZoneId.of, which refuses
 * unknown names.
 */
extern bool pm_tz_known(const char *name);

/* The zone's name as loaded. */
extern const char *pm_tz_name(const pm_tz *tz);

/*
 * The wall clock in this process's local zone (TZ, or /etc/localtime),
 * as nanoseconds since 1970-01-01T00:00 of that zone: what
 * LocalDateTime.now() gives a JVM whose default zone is the process's.
 */
extern int64_t pm_local_now_nanos(void);

/* The wall clock as milliseconds since the epoch (System.currentTimeMillis). */
extern int64_t pm_epoch_millis_now(void);

#endif							/* PM_COMMON_TZ_H */
