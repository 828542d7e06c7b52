/*-------------------------------------------------------------------------
 * hash_index.h
 *	  The HASH index file of a dynamic-bucket table (index type "HASH"):
 *	  the key hashes of one bucket of one partition.
 *
 * File index-<uuid>-<n> in <table>/index/, no header: big-endian int32
 * values, each BinaryRow.hashCode() of one trimmed primary key stored in
 * the bucket; _ROW_COUNT in the index manifest is the number of ints.
 * One file per (partition, bucket), rewritten whole when the bucket gets
 * new keys. Spec: ../shared/docs/paimon-format-metadata.md §7.3; apache/
 * paimon HashIndexFile.java, IntFileUtils.java,
 * DynamicBucketIndexMaintainer.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_HASH_INDEX_H
#define PM_TABLE_HASH_INDEX_H

#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/int_map.h"
#include "io/fileio.h"

#define PM_HASH_INDEX_TYPE "HASH"

/*
 * Read the hashes of the file at path into arena. row_count is the index
 * manifest's _ROW_COUNT (-1: not checked): a size that is not a multiple of
 * 4 or disagrees with it is PM_ERR_CORRUPT.
 */
extern pm_code pm_hash_index_read(pm_fileio *io, const char *path, int64_t row_count,
								  pm_arena *arena, int32_t **hashes, int64_t *count,
								  pm_error *err);

/*
 * Write the keys of set as a new file at path (failing if it exists);
 * *file_size is its size. On failure nothing is left at path.
 */
extern pm_code pm_hash_index_write(pm_fileio *io, const char *path, const pm_int_map *set,
								   int64_t *file_size, pm_error *err);

#endif							/* PM_TABLE_HASH_INDEX_H */
