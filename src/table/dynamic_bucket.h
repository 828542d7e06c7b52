/*-------------------------------------------------------------------------
 * dynamic_bucket.h
 *	  The hash index side of writing a dynamic-bucket (bucket = -1)
 *	  primary-key table: which bucket a key goes to, and the HASH index
 *	  file of every bucket written, as Java's writer keeps them.
 *
 * - Assigning (HashBucketAssigner, one assigner): the first time a
 *   partition is written, the HASH index files of the partition in the
 *   latest snapshot's index manifest are loaded in manifest order into its
 *   pm_partition_index (bucket_assigner.h); every key hash (BinaryRow hash
 *   of the trimmed primary key) then gets its bucket from it.
 * - Maintaining (DynamicBucketIndexMaintainer): a bucket writer starts from
 *   the hashes of its bucket's live HASH file, adds the hash of every
 *   record it is given, and when the set grew writes the whole set as a
 *   new file index-<uuid>-<n> at commit (in <table>/index/, or in the
 *   bucket directory with index-file-in-data-file-dir), committed as an
 *   ADD replacing the live file (a DELETE of it: commit.c reports a
 *   conflict when a concurrent commit replaced it first).
 *
 * Spec: apache/paimon (1.4.2) index/HashBucketAssigner.java,
 * index/DynamicBucketIndexMaintainer.java, index/HashIndexFile.java,
 * utils/FileStorePathFactory.java (indexFileFactory),
 * operation/AbstractFileStoreWrite.java (prepareCommit: newIndexFiles).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_DYNAMIC_BUCKET_H
#define PM_TABLE_DYNAMIC_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/int_map.h"
#include "io/fileio.h"
#include "table/bucket_assigner.h"
#include "table/index_manifest.h"
#include "table/write_options.h"

typedef struct pm_dynamic_buckets pm_dynamic_buckets;

/* The key hashes of one bucket being written. */
typedef struct pm_bucket_hashes
{
	pm_int_map	set;
	bool		modified;		/* grew since the last commit */
	bool		has_live;		/* live: the bucket's committed HASH file */
	pm_index_manifest_entry live;
	pm_index_manifest_entry *pending;	/* written for the commit under way */
	char	   *pending_path;
} pm_bucket_hashes;

/* The state of one table writer (options from pm_write_options_parse). */
extern pm_code pm_dynamic_buckets_open(const pm_env *env, pm_fileio *io, const char *table_path,
									   const pm_write_options *options,
									   pm_dynamic_buckets **out, pm_error *err);
extern void pm_dynamic_buckets_free(pm_dynamic_buckets *db);

/* The index of a partition (serialized BinaryRow), loaded on first use. */
extern pm_code pm_dynamic_buckets_partition(pm_dynamic_buckets *db, const uint8_t *partition,
											int32_t partition_len, pm_partition_index **out,
											pm_error *err);

/* The bucket of a key hash in a partition. */
extern pm_code pm_dynamic_buckets_assign(pm_dynamic_buckets *db, pm_partition_index *pi,
										 int32_t hash, int32_t *bucket, pm_error *err);

/* A bucket writer's hashes, starting from its bucket's live HASH file. */
extern pm_code pm_dynamic_buckets_restore(pm_dynamic_buckets *db, const uint8_t *partition,
										  int32_t partition_len, int32_t bucket,
										  pm_bucket_hashes *out, pm_error *err);

/* A record's key hash (notifyNewRecord). */
extern pm_code pm_bucket_hashes_add(pm_bucket_hashes *h, int32_t hash, pm_error *err);

/*
 * At commit: when the set grew, write it as a new HASH file (bucket_dir:
 * the bucket's data directory) and set h->pending (in arena).
 */
extern pm_code pm_dynamic_buckets_prepare_commit(pm_dynamic_buckets *db, pm_bucket_hashes *h,
												 const char *bucket_dir, pm_arena *arena,
												 pm_error *err);

/* After the commit: pending becomes live (committed) or is removed. */
extern pm_code pm_dynamic_buckets_committed(pm_dynamic_buckets *db, pm_bucket_hashes *h,
											pm_error *err);
extern void pm_dynamic_buckets_discard(pm_dynamic_buckets *db, pm_bucket_hashes *h);

extern void pm_bucket_hashes_free(pm_bucket_hashes *h);

#endif							/* PM_TABLE_DYNAMIC_BUCKET_H */
