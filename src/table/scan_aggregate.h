/*-------------------------------------------------------------------------
 * scan_aggregate.h
 *	  Hash aggregation on column batches: count(*), count, sum, avg, min,
 *	  max per group of fixed-width keys, with the transition arithmetic of
 *	  Postgres' own aggregates, so the FDW can build results identical to
 *	  what Postgres computes from the same rows.
 *
 * Batches come from pm_table_read (any table kind: rows after the merge).
 * Each aggregate reads one column of the batch (count(*) none); each key is
 * one column. States, per aggregate and group (pm_agg_state):
 *
 *	 kind		column type					state
 *	 COUNT(*)	-							n = rows
 *	 COUNT		any							n = non-null values
 *	 SUM, AVG	TINYINT, SMALLINT, INT		v.i64: wrapping int64 sum (int4_sum,
 *											int4_avg_accum)
 *	 SUM, AVG	BIGINT, DECIMAL				exact: v.i128 * 2^64 + w.u64
 *											(unscaled for DECIMAL)
 *	 SUM		FLOAT						v.f4: float sum (float4pl)
 *	 SUM		DOUBLE						v.f8: double sum (float8pl)
 *	 AVG		FLOAT, DOUBLE				v.f8 = Sx, w.f8 = Sxx (float8_accum)
 *	 MIN, MAX	integers, DATE, TIMESTAMP	v.i64 (TIMESTAMP: microseconds,
 *											sub-microsecond digits dropped)
 *	 MIN, MAX	BOOLEAN						v.i64: 0 or 1 (bool_and, bool_or)
 *	 MIN, MAX	FLOAT / DOUBLE				v.f4 / v.f8, NaN above every number,
 *											ties keep the later value
 *	 MIN, MAX	DECIMAL						v.i128 unscaled
 *	 MIN, MAX	CHAR, VARCHAR				v.str: bytes (owned by the
 *											aggregation), ordered as memcmp then
 *											length: Postgres' "C" collation
 *
 * and n counts the non-null inputs of every kind (0: the result is NULL
 * except for counts). Float sums whose result overflows to infinity from
 * finite operands set pm_hash_agg_overflowed(), where Postgres raises
 * "value out of range: overflow".
 *
 * Keys: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, DATE, TIMESTAMP(_LTZ)
 * (microseconds), DECIMAL up to precision 18 (unscaled), as int64; NULL is
 * a key value of its own (GROUP BY puts NULLs in one group). Without keys
 * there is exactly one group, even with no rows.
 *
 * Memory is bounded: once max_groups groups exist, a batch that would add
 * one sets pm_hash_agg_full() and is dropped; the caller then reads again
 * in more passes, each aggregating only the groups whose key hash falls in
 * that pass (pm_hash_agg_set_pass).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SCAN_AGGREGATE_H
#define PM_TABLE_SCAN_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"

typedef enum pm_agg_kind
{
	PM_AGG_COUNT_STAR,
	PM_AGG_COUNT,
	PM_AGG_SUM,
	PM_AGG_AVG,
	PM_AGG_MIN,
	PM_AGG_MAX
} pm_agg_kind;

typedef struct pm_agg_spec
{
	pm_agg_kind kind;
	int			column;			/* batch column; ignored for COUNT(*) */
} pm_agg_spec;

typedef struct pm_agg_state
{
	int64_t		n;
	union
	{
		int64_t		i64;
		float		f4;
		double		f8;
		pm_int128	i128;
		struct
		{
			uint8_t    *bytes;
			int32_t		len;
			int32_t		cap;
		}			str;
	}			v;
	union
	{
		uint64_t	u64;
		double		f8;
	}			w;
} pm_agg_state;

typedef struct pm_hash_agg pm_hash_agg;

/* Whether aggregate kind can run on a column of this type. */
extern bool pm_agg_supported(pm_agg_kind kind, const pm_type *type);

/* Whether a column of this type can be a grouping key. */
extern bool pm_agg_key_supported(const pm_type *type);

/*
 * An aggregation over batches whose column i has type col_types[i]; keys
 * are batch columns key_cols[0..nkeys-1] (at most 32), aggregates specs.
 * Types must be supported (checked: PM_ERR_UNSUPPORTED).
 */
extern pm_code pm_hash_agg_create(const pm_env *env, const pm_type *const *col_types,
								  int nkeys, const int *key_cols,
								  int naggs, const pm_agg_spec *specs,
								  int64_t max_groups, pm_hash_agg **out, pm_error *err);

/*
 * Aggregate the rows of a batch, only those with sel[r] != 0 when sel is
 * given (a full aggregation ignores the batch).
 */
extern pm_code pm_hash_agg_add(pm_hash_agg *agg, const pm_batch *batch, const uint8_t *sel,
							   pm_error *err);

/*
 * Drop every group and aggregate only the groups whose key hash is
 * `pass` modulo npasses (a power of two) from now on.
 */
extern void pm_hash_agg_set_pass(pm_hash_agg *agg, uint32_t npasses, uint32_t pass);

/* Raise the group limit (a caller that stops splitting into passes). */
extern void pm_hash_agg_set_max_groups(pm_hash_agg *agg, int64_t max_groups);

/* Whether a batch needed a group beyond max_groups (the groups are incomplete). */
extern bool pm_hash_agg_full(const pm_hash_agg *agg);

/* Whether a float sum overflowed (Postgres raises an error there). */
extern bool pm_hash_agg_overflowed(const pm_hash_agg *agg);

extern int64_t pm_hash_agg_ngroups(const pm_hash_agg *agg);

/* Key k of group g; false when it is NULL. */
extern bool pm_hash_agg_key(const pm_hash_agg *agg, int64_t g, int k, int64_t *value);

extern const pm_agg_state *pm_hash_agg_state(const pm_hash_agg *agg, int64_t g, int a);

/* Bytes a group costs (keys and states), for sizing max_groups. */
extern int64_t pm_hash_agg_group_bytes(int nkeys, int naggs);

extern void pm_hash_agg_free(pm_hash_agg *agg);

#endif							/* PM_TABLE_SCAN_AGGREGATE_H */
