/*-------------------------------------------------------------------------
 * range_bitmap_index_write.h
 *	  Serializing a "range-bitmap" file index as Java 1.4.2's
 *	  RangeBitmap.Appender does (index/range_bitmap_index.h reads it).
 *
 * The distinct non-null values sorted by the type's comparator get codes
 * 0..cardinality-1; the ChunkedDictionary holds them in chunks of at most
 * chunk-size key bytes (the first key of a chunk in its header; variable
 * length keys also need 4 bytes of offset each within chunk-size); the
 * BitSliceIndexBitmap holds max(1, bit length of cardinality - 1) slices
 * (64 when there is no value) and the existence bitmap. Types: those of
 * index/index_values_write.h but TIMESTAMP(p > 6) and DECIMAL(p > 18).
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.7; rangebitmap/RangeBitmap.java,
 * BitSliceIndexBitmap.java, dictionary/chunked/.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_RANGE_BITMAP_INDEX_WRITE_H
#define PM_INDEX_RANGE_BITMAP_INDEX_WRITE_H

#include "common/byte_buffer.h"
#include "index/index_values_write.h"

/* Whether Java's KeyFactory takes the type. */
extern bool pm_range_bitmap_write_supported(const pm_type *type);

/* Java's default chunk-size: 16kb, 0b for BOOLEAN, TINYINT, SMALLINT. */
extern int64_t pm_range_bitmap_default_chunk_size(const pm_type *type);

/* Append the index of the collected values to out. */
extern pm_code pm_range_bitmap_index_write(const pm_index_values *iv, int64_t chunk_size,
										   pm_byte_buffer *out, pm_error *err);

#endif							/* PM_INDEX_RANGE_BITMAP_INDEX_WRITE_H */
