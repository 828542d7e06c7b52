/*-------------------------------------------------------------------------
 * range_bitmap_index.h
 *	  The "range-bitmap" file index: a sorted dictionary of a column's
 *	  distinct values (codes 0..cardinality-1) and a bit-sliced index of
 *	  each row's code.
 *
 * Body (big endian; bitmaps portable RoaringBitmap, little endian):
 *	 i32 headerLength | u8 version = 1 | i32 rowCount | i32 cardinality |
 *	 [min key | max key, if cardinality > 0] | i32 dictionaryLength |
 *	 dictionary (ChunkedDictionary) | bit slices (BitSliceIndexBitmap).
 * Dictionary: i32 headerLength | u8 version | i32 chunkCount |
 *	 i32 offsetsLength | i32 chunksLength | chunk offsets | chunk headers |
 *	 keys; a chunk header holds its first key and code, the keys area the
 *	 following ones (fixed width, or i32 offsets then length-prefixed keys).
 * Bit slices: i32 headerLength | u8 version | u8 sliceCount |
 *	 i32 ebmLength | i32 indexesLength | sliceCount x (i32 offset,
 *	 i32 length) | EBM (the rows with a value) | slices.
 * Keys: BOOLEAN/TINYINT 1 byte, SMALLINT 2, INT/DATE/TIME 4, BIGINT,
 * DECIMAL(p <= 18) unscaled, TIMESTAMP(_LTZ)(p <= 6) millis (p <= 3) or
 * micros 8, FLOAT/DOUBLE IEEE, CHAR/VARCHAR i32 length + UTF-8.
 *
 * Answers EQ, NE, LT, LE, GT, GE, IN, IS NULL, IS NOT NULL with the exact
 * row set, comparing as Postgres compares the values the FDW returns
 * (table/predicate.h: -0 = 0, NaN above all, literals between two keys
 * fall between them). Other types (BINARY, DECIMAL(p > 18), TIMESTAMP(p >
 * 6), nested) are PM_ERR_UNSUPPORTED at open, as Java refuses them. The
 * whole body is checked at open: bounds, codes, keys strictly ascending,
 * min/max, every bitmap, every row's code below the cardinality.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.7; apache/paimon
 * paimon-common fileindex/rangebitmap/ (RangeBitmap, BitSliceIndexBitmap,
 * dictionary/chunked/).
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_RANGE_BITMAP_INDEX_H
#define PM_INDEX_RANGE_BITMAP_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "index/file_index.h"
#include "table/predicate.h"

typedef struct pm_range_bitmap_index pm_range_bitmap_index;

/* Decode a "range-bitmap" body of len bytes (string keys point into buf: it must outlive idx). */
extern pm_code pm_range_bitmap_index_open(const pm_env *env, const uint8_t *buf, size_t len,
										  const pm_type *field_type,
										  pm_range_bitmap_index **out, pm_error *err);

/* Rows of the leaf (skip when none); no information for other ops. */
extern pm_code pm_range_bitmap_index_eval(pm_range_bitmap_index *idx, const pm_predicate *leaf,
										  pm_file_index_result *out, pm_error *err);

extern void pm_range_bitmap_index_free(pm_range_bitmap_index *idx);

#endif							/* PM_INDEX_RANGE_BITMAP_INDEX_H */
