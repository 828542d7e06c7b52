/*-------------------------------------------------------------------------
 * bloom_filter_index.h
 *	  The "bloom-filter" file index: a BloomFilter64 over the 64-bit hash
 *	  (FastHash) of every non-null value of a column.
 *
 * Answers EQ and IN: skip when no literal's hash is in the filter, else
 * no information. Other leaves, NULL literals, CHAR columns (Postgres
 * compares bpchar without trailing spaces) and types Java does not hash
 * answer "no information". See index/file_index.h.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.5; apache/paimon
 * BloomFilterFileIndex.java, FastHash.java, utils/BloomFilter64.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_BLOOM_FILTER_INDEX_H
#define PM_INDEX_BLOOM_FILTER_INDEX_H

#include "index/file_index.h"

typedef struct pm_bloom_filter_index pm_bloom_filter_index;

/*
 * Decode the body (int32 BE numHashFunctions, then the bit array, bit i =
 * bit i&7 of byte i>>3) for a column of type field_type. buf must outlive
 * the index. PM_ERR_CORRUPT on bad bytes.
 */
extern pm_code pm_bloom_filter_index_open(const pm_env *env, const uint8_t *buf, size_t len,
										  const pm_type *field_type,
										  pm_bloom_filter_index **out, pm_error *err);
extern pm_code pm_bloom_filter_index_eval(pm_bloom_filter_index *idx, const pm_predicate *leaf,
										  pm_file_index_result *out, pm_error *err);
extern void pm_bloom_filter_index_free(pm_bloom_filter_index *idx);

/* FastHash pieces, exposed for tests: XXH64 (seed 0) and Wang's 64-bit mix. */
extern uint64_t pm_bloom_xxh64(const uint8_t *p, size_t n);
extern int64_t pm_bloom_wang64(int64_t key);

#endif							/* PM_INDEX_BLOOM_FILTER_INDEX_H */
