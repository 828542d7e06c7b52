/*-------------------------------------------------------------------------
 * data_file_path.h
 *	  Where the files a manifest names live, as Java's FileStorePathFactory,
 *	  DataFilePathFactory and IndexPathFactory place them: data files in
 *	  <table>/[data-file.path-directory/]<partition path>/bucket-<N>/ (or at
 *	  their recorded external path), extra files (file-index sidecars)
 *	  beside their data file, index files in <table>/index/ (or the bucket
 *	  directory with index-file-in-data-file-dir, or their external path).
 *
 * Used by the maintenance code (snapshot expiry, tag deletion, orphan
 * files), which deletes what it finds there: every name comes from
 * metadata and is checked with pm_catalog_name_valid before it becomes a
 * path component.
 *
 * Spec: apache/paimon FileStorePathFactory.java (bucketPath),
 * DataFilePathFactory.java (toPath, toAlignedPath), IndexPathFactory.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_DATA_FILE_PATH_H
#define PM_TABLE_DATA_FILE_PATH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "table/table.h"

/*
 * <table_path>/[data_dir/]<partition_path>bucket-<N> (bucket-postpone for
 * -2): FileStorePathFactory.relativeBucketPath. partition_path ends in "/"
 * or is empty; data_dir: data-file.path-directory or NULL. In arena; NULL:
 * out of memory.
 */
extern char *pm_bucket_dir_path(const char *table_path, const char *data_dir,
								const char *partition_path, int32_t bucket, pm_arena *arena);

/*
 * Local directory of (partition, bucket) of table (opened at any snapshot:
 * its schema gives the partition keys and options), in arena.
 */
extern pm_code pm_data_file_bucket_dir(pm_table *table, const uint8_t *partition,
									   int32_t partition_len, int32_t bucket, pm_arena *arena,
									   char **out, pm_error *err);

/*
 * Local path of a data file (file_name in the bucket directory, or its
 * external path resolved through the table's path map) and of the
 * directory its extra files are in, in arena.
 */
extern pm_code pm_data_file_local_path(pm_table *table, const uint8_t *partition,
									   int32_t partition_len, int32_t bucket,
									   const char *file_name, const char *external_path,
									   pm_arena *arena, char **path, char **dir, pm_error *err);

/* Local path of an index file (deletion vectors, hash index) of an index manifest entry. */
extern pm_code pm_index_file_local_path(pm_table *table, const uint8_t *partition,
										int32_t partition_len, int32_t bucket,
										const char *file_name, const char *external_path,
										pm_arena *arena, char **path, pm_error *err);

/*
 * The directory a writer puts the new index files (deletion vectors, hash
 * index) of a bucket in: bucket_dir (the bucket's data file directory)
 * with index-file-in-data-file-dir, else <table_path>/index
 * (FileStorePathFactory.indexFileFactory). In arena; NULL: out of memory.
 */
extern char *pm_index_dir_of_bucket(const char *table_path, bool in_data_dir,
									const char *bucket_dir, pm_arena *arena);

#endif							/* PM_TABLE_DATA_FILE_PATH_H */
