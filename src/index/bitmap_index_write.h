/*-------------------------------------------------------------------------
 * bitmap_index_write.h
 *	  Serializing a "bitmap" file index (version 1 or 2) as Java 1.4.2's
 *	  BitmapFileIndex.Writer does (index/bitmap_index.h reads it).
 *
 * Values in the order of the writer's HashMap (java_hash_map.h, keys
 * hashed as Integer/Long/Float/Double/Boolean/BinaryString hash): V1's
 * entries and both versions' bitmap bodies follow it; V2's entries are
 * sorted by the type's comparator into index blocks of at most
 * index-block-size bytes. A value (or NULL) held by one row is stored as
 * offset -1 - row, without a bitmap. Types: BOOLEAN, TINYINT, SMALLINT,
 * INT, DATE, TIME, BIGINT, FLOAT, DOUBLE, TIMESTAMP(_LTZ), CHAR, VARCHAR.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.6; BitmapFileIndex.java,
 * BitmapFileIndexMeta.java, BitmapFileIndexMetaV2.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_BITMAP_INDEX_WRITE_H
#define PM_INDEX_BITMAP_INDEX_WRITE_H

#include "common/byte_buffer.h"
#include "index/index_values_write.h"

/* Whether Java's bitmap index takes the type (BitmapTypeVisitor). */
extern bool pm_bitmap_index_write_supported(const pm_type *type);

/*
 * Append the index of the collected values to out: version 1 or 2,
 * block_size the V2 index-block-size in bytes.
 */
extern pm_code pm_bitmap_index_write(const pm_index_values *iv, int version, int64_t block_size,
									 pm_byte_buffer *out, pm_error *err);

#endif							/* PM_INDEX_BITMAP_INDEX_WRITE_H */
