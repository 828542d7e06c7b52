/*-------------------------------------------------------------------------
 * append_dv_write.h
 *	  DELETE (and the delete half of UPDATE) on append tables with
 *	  deletion vectors: collect the deleted row positions per data file,
 *	  then write the DV index files and the index manifest changes that
 *	  publish them, as Java's append DV maintainers do.
 *
 * Positions are positions in the data file (not in the scan's output).
 * At commit (pm_append_dv_prepare), per partition and bucket:
 *	 - bucket-unaware tables (AppendDeleteFileMaintainer): each touched
 *	   data file's new positions merged with its old DV go into one new
 *	   index file; every index file that held an old DV of a touched data
 *	   file is deleted, and its other DVs are written again into a new file
 *	   (writeUnchangedDeletionVector). Index entries carry bucket 0.
 *	 - fixed-bucket tables (BucketedAppendDeleteFileMaintainer, a
 *	   BucketedDvMaintainer): the bucket's DVs restored from its index file,
 *	   the new positions added, the whole bucket written as one new file
 *	   that replaces the old one.
 * The snapshot's old DVs come from the base snapshot (the one the rows
 * were read from), as Spark's DELETE restores them from its read
 * snapshot; the commit (commit.c) refuses with PM_ERR_CONFLICT when a
 * deleted index file or a touched data file is no longer live.
 *
 * Spec: apache/paimon release-1.4.2 deletionvectors/append/
 * AppendDeleteFileMaintainer, BucketedAppendDeleteFileMaintainer,
 * BaseAppendDeleteFileMaintainer; paimon-spark PaimonSparkWriter
 * .persistDeletionVectors (index files only, in a DataIncrement).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_APPEND_DV_WRITE_H
#define PM_TABLE_APPEND_DV_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "io/fileio.h"
#include "table/commit.h"
#include "table/split.h"

typedef struct pm_append_dv pm_append_dv;

/* A data file a deleted row lies in, as the scan saw it. */
typedef struct pm_append_dv_file
{
	const uint8_t *partition;	/* serialized BinaryRow */
	int32_t		partition_len;
	int32_t		bucket;
	const char *file_name;
	int64_t		row_count;
	const pm_deletion_file *deletion_file;	/* its DV when read, NULL: none */
	const char *bucket_dir;		/* the directory it is in (pm_split.bucket_path); NULL:
								 * unknown, refused with index-file-in-data-file-dir */
} pm_append_dv_file;

/*
 * Deletions of one table. unaware: the table's bucket is -1; bitmap64:
 * deletion-vectors.bitmap64; index_in_data_dir: index-file-in-data-file-dir
 * (the index files go to each file's bucket_dir). Memory from env; free
 * with _free.
 */
extern pm_code pm_append_dv_create(const pm_env *env, bool unaware, bool bitmap64,
								   bool index_in_data_dir, pm_append_dv **out, pm_error *err);
extern void pm_append_dv_free(pm_append_dv *a);

/*
 * Mark row pos of file deleted. base_snapshot: the snapshot the row was
 * read from (the first one given is the base of all deletions). *again:
 * the position was deleted before (an earlier statement of the
 * transaction: its deletions are not visible to later reads until the
 * commit). PM_ERR_INVALID for a position outside the file.
 */
extern pm_code pm_append_dv_delete(pm_append_dv *a, const pm_append_dv_file *file, int64_t pos,
								   int64_t base_snapshot, bool *again, pm_error *err);

/* Rows deleted (each once) since create or the last _reset. */
extern int64_t pm_append_dv_count(const pm_append_dv *a);

/* Forget every deletion (after a commit or an abort). */
extern void pm_append_dv_reset(pm_append_dv *a);

/*
 * Write the DV index files of every deletion (into <table_path>/index,
 * made durable; the caller removes them when the commit fails) and return
 * one commit change per partition and bucket, with only index files
 * (added and deleted) set; *changes and everything it points to in arena.
 */
extern pm_code pm_append_dv_prepare(pm_append_dv *a, pm_fileio *io, const char *table_path,
									pm_arena *arena, pm_commit_change **changes, int *nchanges,
									pm_error *err);

#endif							/* PM_TABLE_APPEND_DV_WRITE_H */
