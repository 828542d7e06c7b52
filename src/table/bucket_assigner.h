/*-------------------------------------------------------------------------
 * bucket_assigner.h
 *	  Assigning key hashes to buckets in a dynamic-bucket (bucket = -1)
 *	  primary-key table, as Java's HashBucketAssigner and PartitionIndex
 *	  do for one assigner (numAssigners = 1: every bucket is ours).
 *
 * Per partition: the hashes of the partition's HASH index files (loaded
 * file by file in index manifest order) keep their bucket; a new hash goes
 * to the first bucket, in the iteration order of Java's HashMap<Integer,
 * Long> of bucket row counts, that holds fewer than target-row-num hashes
 * (buckets found full are dropped from that map); when none does, to the
 * smallest bucket id not used yet (up to dynamic-bucket.max-buckets); past
 * that limit to a random bucket of the partition (ListUtils.pickRandomly).
 * The iteration order of java.util.HashMap is emulated (bins by bucket &
 * (capacity - 1), compute() inserting at the head of a bin, put() at its
 * tail, resizes as Java does them); bins turned into trees (9 or more
 * bucket ids equal modulo a capacity of at least 64, impossible with the
 * dense ids one assigner creates) are not.
 *
 * Spec: apache/paimon (1.4.2) index/HashBucketAssigner.java,
 * index/PartitionIndex.java, index/BucketAssigner.java,
 * utils/ListUtils.java; java.util.HashMap (OpenJDK 8-21).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_BUCKET_ASSIGNER_H
#define PM_TABLE_BUCKET_ASSIGNER_H

#include <stdint.h>

#include "common/env.h"
#include "common/error.h"

typedef struct pm_bucket_assigner pm_bucket_assigner;
typedef struct pm_partition_index pm_partition_index;

/*
 * target_row_num: dynamic-bucket.target-row-num (> 0); max_buckets:
 * dynamic-bucket.max-buckets (-1 unlimited, else > 0).
 */
extern pm_code pm_bucket_assigner_create(const pm_env *env, int64_t target_row_num,
										 int32_t max_buckets, pm_bucket_assigner **out,
										 pm_error *err);
extern void pm_bucket_assigner_free(pm_bucket_assigner *a);

/* The index of a partition (serialized BinaryRow), or NULL if not added yet. */
extern pm_partition_index *pm_bucket_assigner_find(pm_bucket_assigner *a,
												   const uint8_t *partition, int32_t len);

/*
 * Add an empty index for a partition; load its HASH index files into it
 * with pm_partition_index_load before the first assign.
 */
extern pm_code pm_bucket_assigner_add(pm_bucket_assigner *a, const uint8_t *partition,
									  int32_t len, pm_partition_index **out, pm_error *err);

/* One HASH index file of the partition: its bucket and hashes (loadIndex). */
extern pm_code pm_partition_index_load(pm_partition_index *pi, int32_t bucket,
									   const int32_t *hashes, int64_t n, pm_error *err);

/* The bucket of a key hash (PartitionIndex.assign). */
extern pm_code pm_bucket_assigner_assign(pm_bucket_assigner *a, pm_partition_index *pi,
										 int32_t hash, int32_t *bucket, pm_error *err);

#endif							/* PM_TABLE_BUCKET_ASSIGNER_H */
