/*-------------------------------------------------------------------------
 * write_stats.h
 *	  Exact min/max/null-count of one column as a writer sees its values:
 *	  what pm_column_stats (format_writer.h) reports.
 *
 * Order: Java's SimpleStatsCollector Comparable order (FLOAT/DOUBLE as
 * Double.compare: -0.0 below 0.0, NaN above every number; strings and
 * bytes unsigned lexicographic; timestamps with their nanos). Columns of
 * nested types, VARIANT and BLOB get no min/max. Used by the ORC and
 * Avro writers (values of vectors), and by the Parquet writer (values as
 * stored: per page, folded into chunk and file statistics): one home for
 * the order. As NaN is above every number, a float column has seen a NaN
 * iff its max is NaN, and a number iff its min is not.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_WRITE_STATS_H
#define PM_FORMAT_WRITE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/byte_buffer.h"
#include "common/compare.h"
#include "common/type.h"
#include "common/value.h"
#include "common/vector.h"
#include "format/format_writer.h"

typedef struct pm_write_stats
{
	const pm_type *type;
	bool		minmax;			/* the type has a min/max */
	bool		any;			/* a non-null value was seen */
	int64_t		nulls;
	pm_value	min;
	pm_value	max;
	pm_byte_buffer min_bytes;	/* owns varlen min/max */
	pm_byte_buffer max_bytes;
} pm_write_stats;

extern void pm_write_stats_init(pm_write_stats *s, const pm_type *type, const pm_env *env);
extern void pm_write_stats_free(pm_write_stats *s);
/* forget the values seen (keeps the buffers) */
extern void pm_write_stats_reset(pm_write_stats *s);
/* value i of v (not null) */
extern void pm_write_stats_add(pm_write_stats *s, const pm_vector *v, int64_t i);
/* values 0..n-1 of v, NULLs counted */
extern void pm_write_stats_add_all(pm_write_stats *s, const pm_vector *v, int64_t n);

/*
 * Fold one non-null value into s, the value as s->type holds it in a
 * pm_value: integer types, DATE, TIME and BOOLEAN as int64 (also what a
 * writer stores for a timestamp without nanos), FLOAT/DOUBLE as double,
 * DECIMAL unscaled, timestamps as micros + nanos, the rest as bytes.
 */
static inline void
pm_write_stats_add_i64(pm_write_stats *s, int64_t v)
{
	if (!s->any)
	{
		s->min.u.i64 = s->max.u.i64 = v;
		s->any = true;
	}
	else if (v < s->min.u.i64)
		s->min.u.i64 = v;
	else if (v > s->max.u.i64)
		s->max.u.i64 = v;
}

static inline void
pm_write_stats_add_f64(pm_write_stats *s, double v)
{
	if (!s->any)
	{
		s->min.u.f64 = s->max.u.f64 = v;
		s->any = true;
	}
	else if (v < s->min.u.f64)
		s->min.u.f64 = v;
	else if (v > s->max.u.f64)
		s->max.u.f64 = v;
	else if (!(v > s->min.u.f64 && v < s->max.u.f64))
	{
		/* NaN, or equal to a bound (-0.0 below 0.0): Java's order decides */
		if (pm_cmp_double_java(v, s->min.u.f64) < 0)
			s->min.u.f64 = v;
		else if (pm_cmp_double_java(v, s->max.u.f64) > 0)
			s->max.u.f64 = v;
	}
}

static inline void
pm_write_stats_add_i128(pm_write_stats *s, pm_int128 v)
{
	if (!s->any)
	{
		s->min.u.i128 = s->max.u.i128 = v;
		s->any = true;
	}
	else if (v < s->min.u.i128)
		s->min.u.i128 = v;
	else if (v > s->max.u.i128)
		s->max.u.i128 = v;
}

static inline void
pm_write_stats_add_ts(pm_write_stats *s, int64_t us, uint16_t ns)
{
	if (!s->any)
	{
		s->min.u.i64 = s->max.u.i64 = us;
		s->min.nanos = s->max.nanos = ns;
		s->any = true;
	}
	else if (us < s->min.u.i64 || (us == s->min.u.i64 && ns < s->min.nanos))
	{
		s->min.u.i64 = us;
		s->min.nanos = ns;
	}
	else if (us > s->max.u.i64 || (us == s->max.u.i64 && ns > s->max.nanos))
	{
		s->max.u.i64 = us;
		s->max.nanos = ns;
	}
}

/* the bytes stay in s (min_bytes/max_bytes; never a NULL pointer) */
extern void pm_write_stats_add_bytes(pm_write_stats *s, const uint8_t *p, size_t n);

/* fold src (same type) into dst: its NULLs and its min and max */
extern void pm_write_stats_merge(pm_write_stats *dst, const pm_write_stats *src);
/* the result, varlen bytes copied into arena; false on out-of-memory */
extern bool pm_write_stats_result(const pm_write_stats *s, pm_arena *arena,
								  pm_column_stats *out);

#endif							/* PM_FORMAT_WRITE_STATS_H */
