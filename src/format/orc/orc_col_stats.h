/*-------------------------------------------------------------------------
 * orc_col_stats.h
 *	  The ORC writer's column statistics (ORC 1.9's ColumnStatisticsImpl):
 *	  accumulated per row group, stripe and file, and encoded as the
 *	  ColumnStatistics message of the row index, the stripe statistics and
 *	  the file footer.
 *
 * Not an interface for other layers (orc_writer.c is their entry point).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_COL_STATS_H
#define PM_FORMAT_ORC_ORC_COL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/byte_buffer.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/write_stats.h"

/* ORC statistics of one column over a row group, a stripe or the file */
typedef struct orc_acc
{
	int64_t		nvalues;		/* non-null values */
	bool		has_null;
	pm_write_stats vals;		/* exact min/max, null count */
	bool		has_double;		/* dmin/dmax: DoubleStatisticsImpl.updateDouble */
	double		dmin;
	double		dmax;
	bool		has_ts;			/* TimestampStatisticsImpl.updateTimestamp */
	int64_t		ts_min_ms;
	int32_t		ts_min_ns;		/* nanos within the millisecond */
	int64_t		ts_max_ms;
	int32_t		ts_max_ns;
	bool		sum_overflow;
	int64_t		isum;
	double		dsum;
	int64_t		true_count;
	int64_t		total_len;
} orc_acc;

extern void orc_acc_init(orc_acc *a, const pm_type *type, const pm_env *env);
/* forget the values (keeps the buffers) */
extern void orc_acc_reset(orc_acc *a);
extern void orc_acc_free(orc_acc *a);
/* non-null value i of v (a vector of the accumulator's type) */
extern void orc_acc_add(orc_acc *a, const pm_vector *v, int64_t i);
/* the ColumnStatistics fields of a field column into b; s: scratch */
extern void orc_acc_put(pm_byte_buffer *b, pm_byte_buffer *s, const orc_acc *a);

/*
 * Value i of a TIMESTAMP(_LTZ) vector as ORC's writer sees the
 * java.sql.Timestamp: seconds (getTime() / 1000, truncated), nanos of the
 * second, and the milliseconds it rebuilds from them for the statistics.
 */
extern void orc_timestamp_parts(const pm_vector *v, int64_t i, int64_t *secs,
								int64_t *nanos, int64_t *millis);

/*
 * HiveDecimal's text of an unscaled value at `scale`, trailing fraction
 * zeros stripped ("1.5", "-0.05", "0"), into buf (at least 44 bytes); what
 * the statistics and the bloom filters of DECIMAL columns hold.
 */
extern size_t orc_decimal_text(pm_int128 u, int scale, char *buf);

#endif							/* PM_FORMAT_ORC_ORC_COL_STATS_H */
