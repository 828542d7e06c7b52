/*-------------------------------------------------------------------------
 * cross_partition.h
 *	  The global key index of a cross-partition upsert table (a
 *	  primary-key table with bucket = -1 whose primary key lacks a
 *	  partition key: Java's KEY_DYNAMIC bucket mode), and what becomes of
 *	  each record written to it, as Java's GlobalIndexAssigner decides
 *	  with one assigner.
 *
 * - Bootstrap (IndexBootstrap): every live key of the latest snapshot
 *   with the partition and bucket that hold it; each one also counts in
 *   its bucket's row count (BucketAssigner.bootstrapBucket). A key found
 *   twice is an error, as Java's RocksDB bulk load fails then.
 * - Each record (GlobalIndexAssigner.processInput, after bootstrap): the
 *   key is the full primary key (RowPartitionAllPrimaryKeyExtractor), the
 *   partition the record's. A key not in the index is new: the first
 *   bucket of its partition (ascending ids) with fewer than target-row-num
 *   keys, else the smallest unused bucket id (crosspartition/
 *   BucketAssigner.java; dynamic-bucket.max-buckets is not looked at);
 *   the index then maps the key there. A key in the index in the same
 *   partition goes to its bucket. A key in another partition goes where
 *   the merge engine's ExistingProcessor says:
 *     deduplicate (DeleteExistingProcessor): a -D of the record with the
 *       old partition's values goes to the old bucket (whose count drops
 *       by one), then the record is placed as a new key in its partition;
 *     partial-update, aggregation (UseOldExistingProcessor): the record,
 *       with the old partition's values and row kind +I (Java builds a new
 *       GenericRow, whose kind is INSERT), goes to the old bucket;
 *     first-row (SkipNewExistingProcessor): the record is dropped.
 *   Row kinds play no part: a -D of an unknown key is placed like an +I.
 *
 * Memory: the index is in memory (Java keeps it in RocksDB on local
 * disk): per key a slot of 24 bytes in a table at most half full, plus a
 * copy of its serialized BinaryRow (4 + 8 bytes of header and 8 per key
 * field, plus the bytes of strings longer than 7); 1 000 000 INT keys take
 * 71 MB. Per partition its BinaryRow and bucket counts. Nothing bounds
 * it; pm_cross_partition_memory says how much it holds.
 *
 * Spec: apache/paimon (1.4.2) crosspartition/GlobalIndexAssigner.java,
 * IndexBootstrap.java, BucketAssigner.java, ExistingProcessor.java and its
 * three implementations, utils/ProjectToRowFunction.java, IDMapping.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_CROSS_PARTITION_H
#define PM_TABLE_CROSS_PARTITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"

/* ExistingProcessor.create by merge engine. */
typedef enum pm_xpart_existing
{
	PM_XPART_DELETE_EXISTING,	/* deduplicate */
	PM_XPART_USE_OLD,			/* partial-update, aggregation */
	PM_XPART_SKIP_NEW			/* first-row */
} pm_xpart_existing;

typedef struct pm_cross_partition pm_cross_partition;

/* Where one record goes (one input record gives 0, 1 or 2 of these). */
typedef struct pm_xpart_target
{
	const uint8_t *partition;	/* serialized BinaryRow; valid while the index lives */
	int32_t		partition_len;
	int32_t		bucket;
	bool		set_partition;	/* write the record with this partition's values */
	bool		retract;		/* ... and as -D (else, with set_partition, as +I) */
} pm_xpart_target;

/* target_row_num: dynamic-bucket.target-row-num (cast to int32 as Java does). */
extern pm_code pm_cross_partition_create(const pm_env *env, pm_xpart_existing existing,
										 int64_t target_row_num, pm_cross_partition **out,
										 pm_error *err);
extern void pm_cross_partition_free(pm_cross_partition *cp);

/* Room for nkeys keys (the rows of the base snapshot's files: an upper bound). */
extern pm_code pm_cross_partition_reserve(pm_cross_partition *cp, int64_t nkeys, pm_error *err);

/*
 * One live key of the base snapshot (key: serialized BinaryRow of the
 * primary key; partition: serialized partition BinaryRow). Before any
 * pm_cross_partition_assign. PM_ERR_CORRUPT if the key is already there.
 */
extern pm_code pm_cross_partition_bootstrap(pm_cross_partition *cp, const uint8_t *key,
											int32_t key_len, const uint8_t *partition,
											int32_t partition_len, int32_t bucket,
											pm_error *err);

/*
 * Route one record: its targets in out[0 .. *nout - 1] (at most 2), in
 * the order they are to be written.
 */
extern pm_code pm_cross_partition_assign(pm_cross_partition *cp, const uint8_t *key,
										 int32_t key_len, const uint8_t *partition,
										 int32_t partition_len, pm_xpart_target out[2],
										 int *nout, pm_error *err);

/* Keys in the index, and the bytes the index holds. */
extern int64_t pm_cross_partition_keys(const pm_cross_partition *cp);
extern size_t pm_cross_partition_memory(const pm_cross_partition *cp);

#endif							/* PM_TABLE_CROSS_PARTITION_H */
