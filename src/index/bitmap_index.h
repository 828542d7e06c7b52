/*-------------------------------------------------------------------------
 * bitmap_index.h
 *	  The "bitmap" file index (versions 1 and 2): one RoaringBitmap of row
 *	  positions per distinct value of a column, and one for NULL.
 *
 * Answers EQ, IN, IS NULL, IS NOT NULL and NE with the exact rows (NE and
 * IS NOT NULL are complements within the file's row count; NE keeps the
 * NULL rows, as Java does, which the recheck removes). Other leaves, CHAR
 * columns (Postgres compares bpchar without trailing spaces) and types the
 * index cannot hold answer "no information". See index/file_index.h.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.6; apache/paimon
 * BitmapFileIndex.java, BitmapFileIndexMeta.java, BitmapFileIndexMetaV2.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_BITMAP_INDEX_H
#define PM_INDEX_BITMAP_INDEX_H

#include "index/file_index.h"

typedef struct pm_bitmap_index pm_bitmap_index;

/*
 * Decode the body of one bitmap index (version byte first) for a column of
 * type field_type (the type in the data file's own schema: the key width
 * follows it). buf must outlive the index. PM_ERR_CORRUPT on bad bytes,
 * PM_ERR_UNSUPPORTED for a version above 2.
 */
extern pm_code pm_bitmap_index_open(const pm_env *env, const uint8_t *buf, size_t len,
									const pm_type *field_type, pm_bitmap_index **out,
									pm_error *err);
extern pm_code pm_bitmap_index_eval(pm_bitmap_index *idx, const pm_predicate *leaf,
									pm_file_index_result *out, pm_error *err);
extern int32_t pm_bitmap_index_row_count(const pm_bitmap_index *idx);
extern void pm_bitmap_index_free(pm_bitmap_index *idx);

#endif							/* PM_INDEX_BITMAP_INDEX_H */
