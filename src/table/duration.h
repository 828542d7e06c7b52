/*-------------------------------------------------------------------------
 * duration.h
 *	  Duration options as Java's TimeUtils.parseDuration reads them ("1 h",
 *	  "30min", "10 s", "500" = milliseconds), and a Duration as Paimon's
 *	  JSON (Jackson's JavaTimeModule) writes it, e.g. a tag's
 *	  tagTimeRetained.
 *
 * Spec: apache/paimon release-1.4.2 utils/TimeUtils.java; Jackson
 * jsr310 DurationSerializer (WRITE_DURATIONS_AS_TIMESTAMPS, nanoseconds)
 * and DecimalUtils.toBigDecimal, java.math.BigDecimal.toString.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_DURATION_H
#define PM_TABLE_DURATION_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* java.time.Duration: seconds and 0..999999999 nanoseconds */
typedef struct pm_duration
{
	int64_t		seconds;
	int32_t		nanos;
} pm_duration;

/*
 * Parse text (the value of option key): digits, then optionally a unit
 * (d, h, min/m, s, ms, µs, ns and their long names, any case).
 * PM_ERR_INVALID naming key for anything else or an overflow.
 */
extern pm_code pm_parse_duration(const char *key, const char *text, pm_duration *out,
								 pm_error *err);

/* The same, in milliseconds (Duration.toMillis). */
extern pm_code pm_parse_duration_millis(const char *key, const char *text, int64_t *millis,
										pm_error *err);

/*
 * d as Jackson writes it: a decimal number of seconds with 9 decimals
 * ("7200.000000000", "0.005000000"), "0.0" for zero, BigDecimal's
 * scientific form below a microsecond ("1E-9", "1.00E-7"). buf: at least
 * 32 bytes.
 */
extern void pm_duration_json_text(pm_duration d, char *buf, size_t size);

#endif							/* PM_TABLE_DURATION_H */
