/*-------------------------------------------------------------------------
 * value.h
 *	  One scalar value of a Paimon type: literals, partition values, stats.
 *
 * Used where values come one at a time (BinaryRow fields, predicate
 * literals, min/max statistics), never in per-row hot loops (those use
 * vectors). The active member follows the type, as in common/vector.h:
 *	 BOOLEAN, TINYINT..BIGINT, DATE, TIME (ms of day)	i64
 *	 TIMESTAMP(_LTZ)				i64 microseconds + nanos (0..999)
 *	 FLOAT, DOUBLE					f64 (a FLOAT is stored widened)
 *	 DECIMAL						i128 unscaled (scale from the type)
 *	 CHAR..VARBINARY				bytes (not NUL-terminated; not owned)
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_VALUE_H
#define PM_COMMON_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/vector.h"

typedef struct pm_value
{
	bool		is_null;
	uint16_t	nanos;			/* TIMESTAMP only */
	union
	{
		int64_t		i64;
		double		f64;
		pm_int128	i128;
		struct
		{
			const uint8_t *ptr;
			int32_t		len;
		}			bytes;
	}			u;
} pm_value;

/*
 * What is known about one column over a set of rows (a data file, a
 * Parquet row group, an ORC stripe): statistics pruning's input
 * (table/stats_filter.h).
 */
typedef struct pm_field_range
{
	bool		known;			/* false: nothing known, keep */
	bool		has_min_max;	/* min/max valid (and comparable) */
	pm_value	min;
	pm_value	max;
	int64_t		null_count;		/* -1 unknown */
	int64_t		row_count;		/* -1 unknown */
} pm_field_range;

#endif							/* PM_COMMON_VALUE_H */
