/*-------------------------------------------------------------------------
 * bsi_index.h
 *	  The "bsi" file index (bit-sliced index of a numeric column), and the
 *	  bit-slice arithmetic it shares with the "range-bitmap" index.
 *
 * Body (all big endian, bitmaps portable RoaringBitmap, little endian):
 *	 u8 version = 1 | i32 rowCount
 *	 u8 hasPositive | [BSI of the values >= 0]
 *	 u8 hasNegative | [BSI of |value| of the values < 0]
 *	 BSI: u8 version = 1 | i64 min | i64 max | EBM | i32 sliceCount |
 *		  sliceCount bitmaps; slice i holds the rows whose (v - min) has bit
 *		  i set, the EBM the rows that have a value.
 * Values are the column's as longs: integers, DATE days, TIME millis,
 * TIMESTAMP millis (precision <= 3) or micros (floor, any precision above),
 * DECIMAL unscaled. NULL rows are in neither EBM.
 *
 * Answers EQ, NE, LT, LE, GT, GE, IN, IS NULL, IS NOT NULL with the exact
 * row set (literals compare as Postgres compares the values the FDW
 * returns, see table/predicate.h). Types: TINYINT, SMALLINT, INT, BIGINT,
 * DATE, TIME, TIMESTAMP(_LTZ) of any precision, DECIMAL; anything else is
 * PM_ERR_UNSUPPORTED at open.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.8; apache/paimon
 * paimon-common fileindex/bsi/BitSliceIndexBitmapFileIndex.java,
 * utils/BitSliceIndexRoaringBitmap.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_BSI_INDEX_H
#define PM_INDEX_BSI_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include <roaring/roaring.h>

#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "index/file_index.h"
#include "table/predicate.h"

typedef struct pm_bsi_index pm_bsi_index;

/* Decode a "bsi" body of len bytes (no copy kept: buf may go after open). */
extern pm_code pm_bsi_index_open(const pm_env *env, const uint8_t *buf, size_t len,
								 const pm_type *field_type, pm_bsi_index **out,
								 pm_error *err);

/* Rows of the leaf (skip when none); no information for other ops. */
extern pm_code pm_bsi_index_eval(pm_bsi_index *idx, const pm_predicate *leaf,
								 pm_file_index_result *out, pm_error *err);

extern void pm_bsi_index_free(pm_bsi_index *idx);

/*
 * Bit slices: stored values v (unsigned, < 2^nslices) per row; the rows
 * without a value are not in ebm. Shared with range_bitmap_index.c.
 */
typedef struct pm_bit_slices
{
	roaring_bitmap_t *ebm;
	int			nslices;		/* 0..64 */
	roaring_bitmap_t **slices;
} pm_bit_slices;

/* Free the bitmaps and the slice array (allocated from env); b may be partly built. */
extern void pm_bit_slices_free(const pm_env *env, pm_bit_slices *b);

/* Rows (in ebm) whose v satisfies lo <= v <= hi; NULL on out-of-memory. */
extern roaring_bitmap_t *pm_bit_slices_range(const pm_bit_slices *b, uint64_t lo, uint64_t hi);

#endif							/* PM_INDEX_BSI_INDEX_H */
