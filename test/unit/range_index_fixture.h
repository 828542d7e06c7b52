/*-------------------------------------------------------------------------
 * range_index_fixture.h
 *	  Shared by test_range_bitmap_index.c and test_bsi_index.c: a corpus
 *	  table's data file values and sidecar index, the body of one index in
 *	  a FileIndexFormat container, and a property check of an index reader
 *	  against the values (every op with literals derived from the values,
 *	  answered exactly as Postgres compares).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TEST_RANGE_INDEX_FIXTURE_H
#define PM_TEST_RANGE_INDEX_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/type.h"
#include "common/value.h"
#include "index/file_index.h"
#include "table/predicate.h"

typedef struct ix_table
{
	pm_arena   *arena;
	const pm_type *row;			/* the columns read */
	int			nrows;
	pm_value  **values;			/* [column][row]; bytes copied into arena */
	uint8_t    *index;			/* the data file's sidecar .index container */
	size_t		index_len;
} ix_table;

/*
 * Read bucket-0 of corpus table directory table_rel (its one parquet data
 * file, columns of row, and "<data file>.index").
 */
extern void ix_table_load(ix_table *t, pm_arena *arena, const char *table_rel,
						  const pm_type *row);

/* Body of (column, kind) in a container; fails the test if absent. */
extern const uint8_t *ix_container_body(const uint8_t *buf, size_t len, const char *column,
										const char *kind, size_t *body_len);

/* Does non-NULL-tested value v satisfy the leaf, as Postgres compares? */
extern bool ix_matches(const pm_type *t, const pm_predicate *leaf, const pm_value *v);

typedef pm_code (*ix_eval_fn) (void *idx, const pm_predicate *leaf,
							   pm_file_index_result *out, pm_error *err);

/*
 * Ask idx every op (EQ NE LT LE GT GE IN IS NULL IS NOT NULL) with literals
 * derived from vals (each value, its neighbours, extremes, values between
 * two representable ones) and assert each answer is exactly the rows of
 * vals that satisfy it. Returns the number of leaves checked.
 */
extern int	ix_check_all(void *idx, ix_eval_fn eval, const pm_type *t, const pm_value *vals,
						 int n, pm_arena *arena);

#endif
