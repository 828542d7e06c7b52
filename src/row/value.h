/*-------------------------------------------------------------------------
 * value.h
 *	  Comparing and printing single values (common/value.h) of Paimon types.
 *
 * Order is Paimon's (Java InternalRowUtils.compare): numbers numerically,
 * FLOAT/DOUBLE as Java's Float.compare/Double.compare (-0.0 < 0.0, NaN
 * above everything and equal to itself), strings and binaries byte-wise
 * unsigned then by length, DECIMAL by unscaled value (same scale), TIMESTAMP
 * by microseconds then nanos, BOOLEAN false < true.
 *-------------------------------------------------------------------------
 */
#ifndef PM_ROW_VALUE_H
#define PM_ROW_VALUE_H

#include "common/arena.h"
#include "common/type.h"
#include "common/value.h"
#include "common/vector.h"

/*
 * <0, 0, >0 as a sorts before, equal to, after b. Both must be non-null and
 * of type. Nested types compare their raw bytes.
 */
extern int	pm_value_compare(const pm_type *type, const pm_value *a, const pm_value *b);

/*
 * Rows of row_type's fields (a[i], b[i] of fields[i].type) compared field
 * by field, NULLs first: the order of Java's generated RecordComparator
 * over a table's key.
 */
extern int	pm_value_row_compare(const pm_type *row_type, const pm_value *a, const pm_value *b);

/*
 * Text form, NUL-terminated, in arena (NULL only on out-of-memory):
 * "NULL", "true", 42, 1.5 (shortest round-trip form), 12.30 (DECIMAL with
 * its scale), 2024-01-31, 13:45:00.123, 2024-01-31 13:45:00.123456 (only
 * the fraction digits needed), strings as is (invalid UTF-8 kept),
 * binaries as \x0a1b.
 */
extern char *pm_value_format(pm_arena *arena, const pm_type *type, const pm_value *value);

/*
 * Value i of a vector of a scalar type (common/vector.h layout to the
 * common/value.h convention; bytes point into the vector). false for
 * nested types (ARRAY/MULTISET/MAP/ROW), which have no single value.
 */
extern bool pm_vector_value(const pm_vector *v, int64_t i, pm_value *out);

/* Days since 1970-01-01 to proleptic Gregorian year, month (1-12), day. */
extern void pm_date_from_days(int64_t days, int64_t *year, int *month, int *day);

/* The inverse: days since 1970-01-01 of a date (month 1-12). */
extern int64_t pm_days_from_date(int64_t year, int month, int day);

#endif							/* PM_ROW_VALUE_H */
