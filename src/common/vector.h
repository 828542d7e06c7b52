/*-------------------------------------------------------------------------
 * vector.h
 *	  Column vectors and batches: how data moves through the core.
 *
 * Every file format reader produces pm_batch objects: a vector per column,
 * each holding `length` values of one pm_type. The in-memory representation
 * per type (fixed; every reader and consumer relies on it):
 *
 *	 type							values			  notes
 *	 BOOLEAN						uint8_t 0/1
 *	 TINYINT						int8_t
 *	 SMALLINT						int16_t
 *	 INT							int32_t
 *	 DATE							int32_t			  days since 1970-01-01
 *	 TIME(p)						int32_t			  milliseconds of the day
 *	 BIGINT							int64_t
 *	 FLOAT							float
 *	 DOUBLE							double
 *	 DECIMAL(p,s)					pm_int128		  unscaled value, any p
 *	 TIMESTAMP(p), TIMESTAMP_LTZ(p) int64_t			  microseconds since epoch
 *									(+ nanos)		  optional uint16_t nanos
 *													  within the microsecond
 *	 CHAR/VARCHAR/BINARY/VARBINARY	offsets + data	  offsets[length + 1],
 *	 BLOB, VARIANT									  int32, into data
 *	 ARRAY<T>, MULTISET<T>			offsets			  children[0]: elements
 *	 MAP<K,V>						offsets			  children[0] keys,
 *													  children[1] values
 *	 ROW<...>						(none)			  children[i]: field i,
 *													  each of `length` rows
 *
 * `nulls` is a byte per value, 1 meaning NULL, or NULL when no value is null.
 * A NULL value's slot still exists (its fixed slot content is unspecified;
 * for offsets-based types offsets[i] == offsets[i + 1]).
 * Timestamps with sub-microsecond digits keep them in `nanos` (0..999) when
 * the reader is asked for a precision above 6; values are floor-divided so
 * micros * 1000 + nanos is the exact nanosecond value.
 *
 * Vectors live in an arena (usually one per batch) and are reset with it.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_VECTOR_H
#define PM_COMMON_VECTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/type.h"

typedef __int128 pm_int128;

typedef struct pm_vector pm_vector;

struct pm_vector
{
	const pm_type *type;
	int64_t		length;			/* number of values */
	uint8_t    *nulls;			/* NULL: no nulls; else 1 = null */
	void	   *values;			/* fixed-width values (see table above) */
	uint16_t   *nanos;			/* TIMESTAMP: sub-microsecond part, or NULL */
	int32_t    *offsets;		/* varlen, ARRAY, MULTISET, MAP: length + 1 */
	uint8_t    *data;			/* varlen bytes */
	int64_t		data_size;		/* bytes used in data */
	int			nchildren;
	pm_vector  *children;		/* ARRAY/MULTISET: 1, MAP: 2, ROW: nfields */
};

typedef struct pm_batch
{
	int64_t		nrows;
	int64_t		first_row;		/* position in the file of the first row */
	int			ncols;
	pm_vector  *cols;			/* ncols vectors, each of nrows values */
} pm_batch;

static inline bool
pm_vector_is_null(const pm_vector *v, int64_t i)
{
	return v->nulls != NULL && v->nulls[i] != 0;
}

/* Fixed-width accessors; the caller knows the type. */
#define PM_VEC_VALUES(v, ctype)		((ctype *) (v)->values)

/*
 * Value i of an integer-like vector widened to int64: BOOLEAN (0/1),
 * TINYINT, SMALLINT, INT, DATE, TIME (millis), and BIGINT, TIMESTAMP,
 * TIMESTAMP_LTZ (micros) by the default. Only for those types; the slot of
 * a NULL value gives an unspecified number.
 */
static inline int64_t
pm_vector_int64_at(const pm_vector *v, int64_t i)
{
	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
			return PM_VEC_VALUES(v, uint8_t)[i] != 0;
		case PM_TYPE_TINYINT:
			return PM_VEC_VALUES(v, int8_t)[i];
		case PM_TYPE_SMALLINT:
			return PM_VEC_VALUES(v, int16_t)[i];
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return PM_VEC_VALUES(v, int32_t)[i];
		default:
			return PM_VEC_VALUES(v, int64_t)[i];
	}
}

/* Varlen value i: pointer and length. */
static inline const uint8_t *
pm_vector_bytes(const pm_vector *v, int64_t i, int32_t *len)
{
	*len = v->offsets[i + 1] - v->offsets[i];
	return v->data + v->offsets[i];
}

/*
 * Prepare a vector of `type` for `capacity` values in `arena`: allocates
 * values (fixed width), offsets (varlen and collections, zeroed) and the
 * children of ROW/ARRAY/MAP (children of collections get capacity 0; grow
 * them with pm_vector_reserve). `nulls` is allocated zeroed if with_nulls.
 * Returns false on out-of-memory.
 */
extern bool pm_vector_init(pm_vector *v, const pm_type *type, int64_t capacity,
						   bool with_nulls, pm_arena *arena);

/*
 * Make room for `capacity` values, keeping the first `keep` ones
 * (values/nulls/offsets/nanos; varlen data is untouched). Not recursive.
 */
extern bool pm_vector_reserve(pm_vector *v, int64_t keep, int64_t capacity, pm_arena *arena);

/* Ensure `nulls` exists (zeroed for the first `length` values). */
extern bool pm_vector_ensure_nulls(pm_vector *v, int64_t capacity, pm_arena *arena);

/*
 * Make room for len more bytes in a varlen vector's data (grows
 * geometrically; data_size unchanged). False past INT32_MAX or on OOM.
 */
extern bool pm_vector_reserve_data(pm_vector *v, int64_t *data_capacity, int64_t len,
								   pm_arena *arena);

/* Append bytes to a varlen vector's data (grows geometrically). */
extern bool pm_vector_append_data(pm_vector *v, int64_t *data_capacity,
								  const void *bytes, int64_t len, pm_arena *arena);

/*
 * Whether v holds n values laid out as this file says: null bytes 0/1,
 * nanos below 1000, offsets starting at 0, non-decreasing and within the
 * data (or the element vectors), MAP keys and values of one length, ROW
 * fields of n values each; recursively. For tests and fuzzers: readers
 * must never produce a vector that fails it.
 */
extern bool pm_vector_valid(const pm_vector *v, int64_t n);

/* A vector of `length` NULLs (for columns absent from a file). */
extern bool pm_vector_init_all_null(pm_vector *v, const pm_type *type, int64_t length,
									pm_arena *arena);

#endif							/* PM_COMMON_VECTOR_H */
