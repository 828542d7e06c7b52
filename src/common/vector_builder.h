/*-------------------------------------------------------------------------
 * vector_builder.h
 *	  Grow a column vector value by value, deep-copying from other vectors.
 *
 * The merge reader (src/lsm/) assembles its output batches row by row from values
 * scattered over the input batches (and from values the merge engine
 * computed), the table writer routes rows to partitions and buckets;
 * this is the one place that knows how to copy a value of any
 * type, nested ones included, into a growing pm_vector. All memory comes
 * from the arena given at init (reset it to drop the vector).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_VECTOR_BUILDER_H
#define PM_COMMON_VECTOR_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/vector.h"

typedef struct pm_vector_builder pm_vector_builder;

struct pm_vector_builder
{
	pm_vector  *v;				/* the vector being built */
	int64_t		capacity;		/* values allocated */
	int64_t		data_capacity;	/* bytes allocated in v->data */
	int			nchildren;
	pm_vector_builder *children;
	pm_arena   *arena;
};

/*
 * Start building v (caller-owned struct) of `type` with room for
 * `capacity` values; v->length starts at 0 and nulls are allocated.
 * False on out-of-memory.
 */
extern bool pm_vector_builder_init(pm_vector_builder *b, pm_vector *v, const pm_type *type,
								   int64_t capacity, pm_arena *arena);

/*
 * Empty the built vector (and its children) for reuse, keeping its memory:
 * what it holds afterwards is what a fresh builder of the same capacity
 * would hold after the same appends.
 */
extern void pm_vector_builder_reset(pm_vector_builder *b);

/*
 * Append value `row` of src (same type as the built vector; NULL src
 * appends a NULL). Deep copy: nested values and bytes are copied.
 */
extern bool pm_vector_builder_append(pm_vector_builder *b, const pm_vector *src, int64_t row);
extern bool pm_vector_builder_append_null(pm_vector_builder *b);

/*
 * Make room for n more values (values, nulls, offsets, nanos; not varlen
 * data nor collection elements), for callers that then write the vector's
 * arrays themselves. False on out-of-memory.
 */
extern bool pm_vector_builder_reserve(pm_vector_builder *b, int64_t n);

/*
 * Append a non-NULL ROW whose field i is value rows[i] of fields[i]
 * (fields[i] NULL: a NULL field). The built vector must be a ROW.
 */
extern bool pm_vector_builder_append_struct(pm_vector_builder *b,
											const pm_vector *const *fields,
											const int64_t *rows);

/* Append raw bytes to a varlen vector (CHAR..VARBINARY). */
extern bool pm_vector_builder_append_bytes(pm_vector_builder *b, const void *bytes,
										   int32_t len);

/*
 * A fresh vector of `type` holding one value copied from (src, row), or
 * one NULL when src is NULL: for values that must outlive src's batch.
 * NULL on out-of-memory.
 */
extern pm_vector *pm_vector_copy_value(pm_arena *arena, const pm_type *type,
									   const pm_vector *src, int64_t row);

/* The elements a batch's MULTISET vector may expand to: a hostile count allocates no more */
#define PM_MULTISET_MAX_EXPANDED (1 << 24)

/*
 * A MULTISET vector read with its counts, children[1] (INT: the files hold
 * Java's MAP<element, INT NOT NULL>), made the list of its elements, each
 * repeated count times in the stored order (count 0: left out); nchildren
 * becomes 1, the new elements live in arena. PM_ERR_CORRUPT on a NULL or
 * negative count, PM_ERR_UNSUPPORTED past PM_MULTISET_MAX_EXPANDED elements.
 */
extern pm_code pm_vector_expand_multiset(pm_vector *v, pm_arena *arena, pm_error *err);

#endif							/* PM_COMMON_VECTOR_BUILDER_H */
