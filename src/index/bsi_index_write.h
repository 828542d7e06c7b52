/*-------------------------------------------------------------------------
 * bsi_index_write.h
 *	  Serializing a "bsi" file index as Java 1.4.2's
 *	  BitSliceIndexBitmapFileIndex.Writer does (index/bsi_index.h reads it).
 *
 * Each row's value as a long (the key bytes of index_values_write.h,
 * sign-extended: integers, DATE days, TIME millis, TIMESTAMP millis or
 * micros, DECIMAL unscaled, any precision); values >= 0 go to the positive
 * BitSliceIndexRoaringBitmap, the others as |value| to the negative one.
 * Java's StatsCollectList starts min and max at 0, so each side has min 0
 * and max = the largest (|)value(|) or 0, and 64 - nlz(max) slices.
 * Long.MIN_VALUE is refused, as Java's Appender refuses it (abs < 0).
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.8;
 * fileindex/bsi/BitSliceIndexBitmapFileIndex.java,
 * utils/BitSliceIndexRoaringBitmap.java (Appender.serialize).
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_BSI_INDEX_WRITE_H
#define PM_INDEX_BSI_INDEX_WRITE_H

#include "common/byte_buffer.h"
#include "index/index_values_write.h"

/* Whether Java's getValueMapper takes the type (and we have its longs). */
extern bool pm_bsi_index_write_supported(const pm_type *type);

/* Append the index of the collected values to out. */
extern pm_code pm_bsi_index_write(const pm_index_values *iv, pm_byte_buffer *out,
								  pm_error *err);

#endif							/* PM_INDEX_BSI_INDEX_WRITE_H */
