/*-------------------------------------------------------------------------
 * bucket.h
 *	  Paimon's default bucket function (fixed-bucket tables).
 *
 * bucket = |hash % n| where hash is MurmurHash3 x86 32 (seed 42) over the
 * BinaryRow bytes of the bucket-key fields (MurmurHashUtils.hashBytesByWords
 * via BinaryRow.hashCode). Spec: paimon-format-metadata.md §10.3; apache/
 * paimon paimon-core org/apache/paimon/bucket/DefaultBucketFunction.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_ROW_BUCKET_H
#define PM_ROW_BUCKET_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/type.h"
#include "common/value.h"

/*
 * Bucket of a row whose bucket-key fields (in bucket-key order, with their
 * table types) are key_row_type / key_values. num_buckets >= 1. Allocates
 * nothing.
 */
extern pm_code pm_bucket_of(const pm_type *key_row_type, const pm_value *key_values,
							int32_t num_buckets, int32_t *bucket, pm_error *err);

/* BinaryRow.hashCode of the encoded key row (the hash before the modulo). */
extern pm_code pm_bucket_hash(const pm_type *key_row_type, const pm_value *key_values,
							  int32_t *hash, pm_error *err);

/* MurmurHashUtils.hashBytesByWords(seed 42): len must be a multiple of 4. */
extern int32_t pm_murmur_hash_words(const uint8_t *data, size_t len);

/*
 * MurmurHashUtils.hashBytes(seed 42), any length: the hashCode of a
 * BinaryString (BinarySection.hashCode) over its UTF-8 bytes.
 */
extern int32_t pm_murmur_hash_bytes(const uint8_t *data, size_t len);

#endif							/* PM_ROW_BUCKET_H */
