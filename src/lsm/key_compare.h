/*-------------------------------------------------------------------------
 * key_compare.h
 *	  Compare primary keys (and sequence fields) held in column vectors,
 *	  with the order Java Paimon's generated record comparator uses.
 *
 * Ascending, NULLs first. Per type: integers / DATE / TIME signed;
 * FLOAT/DOUBLE as Java Float.compare/Double.compare (-0.0 < +0.0, NaN
 * greatest, all NaNs equal); CHAR/VARCHAR and BINARY/VARBINARY unsigned
 * bytewise then shorter first; DECIMAL numeric (same scale on both sides);
 * TIMESTAMP(_LTZ) by instant (micros, then nanos); BOOLEAN false < true;
 * ROW field by field, ARRAY element-wise then shorter first. The per-type
 * compares are common/compare.h's.
 *
 * Spec: ../shared/docs/paimon-format-data.md §4.2; paimon-codegen
 * GenerateUtils.scala generateCompare (nullIsLast = false),
 * common: data/BinaryString.java compareTo, utils/SortUtil.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_KEY_COMPARE_H
#define PM_LSM_KEY_COMPARE_H

#include <stdint.h>

#include "common/vector.h"

/*
 * Compare value ia of vector a with value ib of vector b. Both vectors
 * have the same type (their type ids must match; scale of DECIMAL is taken
 * as equal). Returns <0, 0, >0.
 */
extern int	pm_key_compare_value(const pm_vector *a, int64_t ia, const pm_vector *b,
								 int64_t ib);

/*
 * Compare keys made of nkeys columns: a[k] row ia against b[k] row ib for
 * k = 0 .. nkeys-1, first difference wins.
 */
extern int	pm_key_compare(const pm_vector *a, int64_t ia, const pm_vector *b, int64_t ib,
						   int nkeys);

#endif							/* PM_LSM_KEY_COMPARE_H */
