/*-------------------------------------------------------------------------
 * key_set.h
 *	  An immutable set of int64 keys, built once from an array and probed
 *	  per row: it filters the rows of a scan of a Paimon table down to the
 *	  keys of the outer side of a join (millions of probes per query).
 *	  Hand-written: a sorted array, a bitmap and a hash table, a few dozen
 *	  lines each, tuned for this one probe loop.
 *
 * Membership is a bitmap over [min, max] when that span is small (at most
 * 2^27 bits and at most 64 times the bytes of the sorted keys), else an
 * open-addressing hash table (capacity a power of two >= 2n, linear
 * probing). The hash table is built in both modes: it maps a key to its
 * index in the sorted distinct keys. Memory comes from the env allocator;
 * the set owns copies of everything it holds.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_KEY_SET_H
#define PM_COMMON_KEY_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"

typedef struct pm_key_set pm_key_set;

/*
 * Sort and deduplicate keys[0..n) in place (n may be 0), then build the set
 * of them; keys may be freed afterwards. NULL and err (PM_ERR_NOMEM) on
 * out-of-memory.
 */
extern pm_key_set *pm_key_set_build(const pm_env *env, int64_t *keys, size_t n,
									pm_error *err);

/* Free the set (NULL is ignored). */
extern void pm_key_set_free(pm_key_set *s);

/* Number of distinct keys. */
extern size_t pm_key_set_count(const pm_key_set *s);

/* Smallest and largest key; only when the count is above 0. */
extern int64_t pm_key_set_min(const pm_key_set *s);
extern int64_t pm_key_set_max(const pm_key_set *s);

/* The distinct keys in ascending order (count of them). */
extern const int64_t *pm_key_set_keys(const pm_key_set *s);

/* Index of k in pm_key_set_keys(), or -1 when k is not in the set. */
extern int64_t pm_key_set_index(const pm_key_set *s, int64_t k);

/* Whether k is in the set. */
extern bool pm_key_set_contains(const pm_key_set *s, int64_t k);

/*
 * The rows r in [0, nrows) of v whose value is not NULL and in the set,
 * written in ascending order to rows[] (room for nrows); returns how many.
 * v is TINYINT, SMALLINT, INT or BIGINT (or DATE, TIME, TIMESTAMP,
 * TIMESTAMP_LTZ, which share their layouts); any other type selects
 * nothing. Allocates nothing.
 */
extern int64_t pm_key_set_select(const pm_key_set *s, const pm_vector *v, int64_t nrows,
								 int64_t *rows);

#endif							/* PM_COMMON_KEY_SET_H */
