/*-------------------------------------------------------------------------
 * bucket_function.h
 *	  The bucket functions of fixed-bucket tables (bucket-function.type):
 *	  default (row/bucket.h), mod and hive.
 *
 * mod (ModBucketFunction): bucket = floorMod(value, n) of the one INT or
 * BIGINT bucket-key field (a NULL reads as 0, the BinaryRow slot's bytes).
 * hive (HiveBucketFunction): h = 31 * h + hash(field) over the fields from
 * h = 0, hash as Hive's ObjectInspectorUtils (HiveHasher): NULL 0, BOOLEAN
 * 1/0, TINYINT..INT, DATE and TIME the int value, BIGINT Long.hashCode,
 * FLOAT / DOUBLE the bits of the value (+0.0 for -0.0, Java's canonical
 * NaN) as int / long, strings and binaries 31 * h + signed byte, DECIMAL
 * BigDecimal.hashCode of the value with trailing zeros stripped (not below
 * scale 0); bucket = (h & INT_MAX) % n. TIMESTAMP and nested types are not
 * hashed by Java (UnsupportedOperationException).
 *
 * Spec: apache/paimon release-1.4.2 bucket/BucketFunction.java,
 * ModBucketFunction.java, HiveBucketFunction.java, HiveHasher.java; the
 * JDK's BigDecimal.hashCode and BigInteger.hashCode.
 *-------------------------------------------------------------------------
 */
#ifndef PM_ROW_BUCKET_FUNCTION_H
#define PM_ROW_BUCKET_FUNCTION_H

#include <stdint.h>

#include "common/error.h"
#include "common/type.h"
#include "common/value.h"

typedef enum pm_bucket_function
{
	PM_BUCKET_FUNCTION_DEFAULT = 0,
	PM_BUCKET_FUNCTION_MOD,
	PM_BUCKET_FUNCTION_HIVE
} pm_bucket_function;

/*
 * bucket-function.type as Java's enum option reads it ("default", "mod",
 * "hive", any case; NULL: default); PM_ERR_INVALID for another value.
 */
extern pm_code pm_bucket_function_parse(const char *value, pm_bucket_function *out,
										pm_error *err);

/*
 * Whether f takes bucket keys of key_row_type, with Java's message when
 * not: mod one INT or BIGINT field (PM_ERR_INVALID, ModBucketFunction's
 * precondition), hive the types it hashes (PM_ERR_UNSUPPORTED).
 */
extern pm_code pm_bucket_function_check(pm_bucket_function f, const pm_type *key_row_type,
										pm_error *err);

/*
 * The bucket of a row whose bucket-key fields (bucket-key order, table
 * types) are key_row_type / key_values under f; num_buckets >= 1.
 * Allocates nothing.
 */
extern pm_code pm_bucket_function_bucket(pm_bucket_function f, const pm_type *key_row_type,
										 const pm_value *key_values, int32_t num_buckets,
										 int32_t *bucket, pm_error *err);

#endif							/* PM_ROW_BUCKET_FUNCTION_H */
