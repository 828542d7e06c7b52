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

/* The type of a MULTISET element's count in the files: Java's INT NOT NULL */
extern const pm_type pm_multiset_count_type;

/*
 * Whether values j and k of a vector of a primitive (not nested) type are
 * equal as Java's equals compares them: bitwise (bytes, fixed-width
 * values and nanos); two NULLs are equal.
 */
extern bool pm_vector_values_equal(const pm_vector *v, int64_t j, int64_t k);

/*
 * The grouping of a MULTISET value as Java writes it, the map from each
 * distinct element to its count: among elements [from, to) of elems
 * (primitive), the count of element j, or 0 when an earlier element of
 * the range equals it. Walking j from `from` to `to` and skipping the
 * zeros gives the distinct elements in order of first occurrence with
 * their counts. Quadratic in the value's elements; allocates nothing.
 */
extern int32_t pm_multiset_count(const pm_vector *elems, int32_t from, int32_t to, int32_t j);

/*
 * Values [start, end) of MULTISET vector v (primitive elements, listed
 * each as often as it occurs) as the map Java writes, the inverse of
 * pm_vector_expand_multiset: out gets end - start values of v's type with
 * v's nulls and nchildren 2, children[0] the distinct elements of each
 * value (pm_multiset_count's order), children[1] their counts
 * (pm_multiset_count_type). Memory from arena; false on out-of-memory.
 */
extern bool pm_vector_collapse_multiset(const pm_vector *v, int64_t start, int64_t end,
										pm_arena *arena, pm_vector *out);

#endif							/* PM_COMMON_VECTOR_BUILDER_H */
