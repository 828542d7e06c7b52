/*-------------------------------------------------------------------------
 * write_stats.h
 *	  Exact min/max/null-count of one column as a writer sees its values:
 *	  what pm_column_stats (format_writer.h) reports.
 *
 * Order: Java's SimpleStatsCollector Comparable order (FLOAT/DOUBLE as
 * Double.compare: -0.0 below 0.0, NaN above every number; strings and
 * bytes unsigned lexicographic; timestamps with their nanos). Columns of
 * nested types, VARIANT and BLOB get no min/max. Used by the ORC and
 * Avro writers; the Parquet writer keeps its own per-type loops.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_WRITE_STATS_H
#define PM_FORMAT_WRITE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/byte_buffer.h"
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
/* compare value i of v (not null) with a value of the same type: <0, 0, >0 */
extern int	pm_write_stats_compare(const pm_type *t, const pm_vector *v, int64_t i,
								   const pm_value *s);
/* Java's Double.compare */
extern int	pm_java_double_compare(double a, double b);
/* the result, varlen bytes copied into arena; false on out-of-memory */
extern bool pm_write_stats_result(const pm_write_stats *s, pm_arena *arena,
								  pm_column_stats *out);

#endif							/* PM_FORMAT_WRITE_STATS_H */
