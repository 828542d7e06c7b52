/*-------------------------------------------------------------------------
 * compare.h
 *	  Three-way compares of two values of one type: the one home of each
 *	  order, inlined for the per-row loops (key merge, filters, top-N).
 *
 * Each returns -1, 0 or 1. Two float orders exist and both are needed:
 *	 java: Float.compare / Double.compare (-0.0 < 0.0, NaN above all and
 *		   equal to itself): Paimon's key order and its min/max statistics.
 *	 pg:   Postgres' float4_cmp / float8_cmp (NaN above all and equal to
 *		   itself, -0.0 == 0.0): SQL predicates and ORDER BY.
 * Bytes (CHAR..VARBINARY) compare unsigned byte-wise, then shorter first
 * (Java BinaryString.compareTo, Postgres bytea and C-collation text).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_COMPARE_H
#define PM_COMMON_COMPARE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/vector.h"

static inline int
pm_cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static inline int
pm_cmp_i128(pm_int128 a, pm_int128 b)
{
	return (a > b) - (a < b);
}

static inline int
pm_cmp_bytes(const uint8_t *a, size_t la, const uint8_t *b, size_t lb)
{
	size_t		n = la < lb ? la : lb;
	int			c = n > 0 ? memcmp(a, b, n) : 0;

	if (c != 0)
		return c < 0 ? -1 : 1;
	return (la > lb) - (la < lb);
}

/*
 * Java Double.compare: ties, NaNs and zeros by doubleToLongBits. Also
 * Float.compare for floats widened (exact: the same order, zeros and NaNs).
 */
static inline int
pm_cmp_double_java(double a, double b)
{
	int64_t		x,
				y;

	if (a < b)
		return -1;
	if (a > b)
		return 1;
	memcpy(&x, &a, sizeof(x));
	memcpy(&y, &b, sizeof(y));
	if (isnan(a))
		x = INT64_C(0x7ff8000000000000);	/* canonical NaN */
	if (isnan(b))
		y = INT64_C(0x7ff8000000000000);
	return (x > y) - (x < y);
}

/* Postgres float8_cmp (float4 values compare widened: the same order). */
static inline int
pm_cmp_double_pg(double a, double b)
{
	if (isnan(a))
		return isnan(b) ? 0 : 1;
	if (isnan(b))
		return -1;
	return (a > b) - (a < b);
}

#endif							/* PM_COMMON_COMPARE_H */
