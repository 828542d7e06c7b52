/*-------------------------------------------------------------------------
 * roaring_portable.h
 *	  Checking a portable RoaringBitmap (the serialized form Java's
 *	  RoaringBitmap writes) before CRoaring reads it.
 *
 * CRoaring 0.2 (Debian 12) has no validate call and its _safe reader checks
 * only sizes: an unsorted or repeated array container, container keys out
 * of order, a bitset whose header cardinality is not its popcount, runs
 * that overlap, descend or pass 65535, or a run container whose runs do
 * not add up to its header cardinality all deserialize and then read as
 * wrong values. Java writes none of them.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_ROARING_PORTABLE_H
#define PM_INDEX_ROARING_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/*
 * Check the portable bitmap at p (at most n bytes): PM_ERR_CORRUPT
 * ("malformed roaring bitmap: <what>") unless container keys and array
 * values are strictly ascending, runs ascending, disjoint and inside their
 * 16-bit range, and every container holds the cardinality its header says.
 * *size = the bytes it takes, *max = its largest value (-1 if empty).
 */
extern pm_code pm_roaring_portable_check(const uint8_t *p, size_t n, size_t *size,
										 int64_t *max, pm_error *err);

#endif							/* PM_INDEX_ROARING_PORTABLE_H */
