/*-------------------------------------------------------------------------
 * floor_div.h
 *	  Floor division and its remainder of int64 values (C's / and %
 *	  truncate toward zero), as Java's Math.floorDiv / Math.floorMod.
 *
 * Defined for every a and b > 0 without overflow: the remainder is taken
 * with %, never as a - floor_div(a, b) * b (the product leaves int64 for a
 * near INT64_MIN, e.g. a nanosecond timestamp split into micros + nanos).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_FLOOR_DIV_H
#define PM_COMMON_FLOOR_DIV_H

#include <stdint.h>

/* floor(a / b), b > 0 */
static inline int64_t
pm_floor_div(int64_t a, int64_t b)
{
	int64_t		q = a / b;

	return (a % b < 0) ? q - 1 : q;
}

/* a - floor(a / b) * b, in [0, b), b > 0 */
static inline int64_t
pm_floor_mod(int64_t a, int64_t b)
{
	int64_t		r = a % b;

	return r < 0 ? r + b : r;
}

#endif							/* PM_COMMON_FLOOR_DIV_H */
