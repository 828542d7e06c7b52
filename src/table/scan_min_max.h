/*-------------------------------------------------------------------------
 * scan_min_max.h
 *	  The exact min, max and count of non-null values of fields over a
 *	  planned scan, from the statistics of its data files alone (no data
 *	  file is read).
 *
 * Min and max are exact only where every selected file is read as it is
 * (no merge, no deletion vector) and every file holding a non-null value
 * of the field records untruncated min/max statistics for it, written
 * under the same type. Only types whose statistics are never truncated or
 * approximated: integers, DATE, TIMESTAMP(_LTZ), DECIMAL. Strings
 * (truncate(16) by default), floats (NaN left out) and the rest are never
 * exact here.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §9 (SimpleStats).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SCAN_MIN_MAX_H
#define PM_TABLE_SCAN_MIN_MAX_H

#include <stdbool.h>

#include "common/error.h"
#include "common/value.h"
#include "table/split.h"

typedef struct pm_field_min_max
{
	bool		exact;			/* false: metadata cannot tell, read the rows */
	bool		all_null;		/* exact and no non-null value (or no rows) */
	pm_value	min;			/* exact and !all_null */
	pm_value	max;
} pm_field_min_max;

/* Whether min/max statistics of fields of this type can ever be exact. */
extern bool pm_min_max_type_supported(const pm_type *type);

/*
 * Whether count(field) of this type can be answered from null counts: the
 * atomic types (not ARRAY, MULTISET, MAP, ROW, VARIANT or BLOB, whose
 * statistics writers leave out or count differently).
 */
extern bool pm_count_type_supported(const pm_type *type);

/* What the metadata tells of one field over a planned scan. */
typedef struct pm_field_summary
{
	pm_field_min_max mm;		/* min and max: mm.exact false, read the rows */

	/*
	 * The number of non-null values, from the files' row and null counts:
	 * count_exact is false (read the rows) when some selected file holding
	 * the field records no null count for it (stats mode none, a dense
	 * stats list without it) or when the field's type evolved. A file
	 * written before the field was added holds no value of it.
	 */
	bool		count_exact;
	int64_t		count;
} pm_field_summary;

/*
 * The summaries of table fields fields[0..n) over the scan's selected
 * files, in one pass over their statistics (each file's decoded once).
 * Nothing is exact where rows are merged or deleted (primary-key tables,
 * deletion vectors). *out (n entries) is allocated in the scan's arena.
 * Errors only for out-of-memory or a missing schema file.
 */
extern pm_code pm_scan_field_summaries(pm_scan *scan, int n, const int *fields,
									   pm_field_summary **out, pm_error *err);

#endif							/* PM_TABLE_SCAN_MIN_MAX_H */
