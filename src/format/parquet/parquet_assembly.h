/*-------------------------------------------------------------------------
 * parquet_assembly.h
 *	  Mapping a requested Paimon type onto the Parquet schema, and
 *	  rebuilding nested ROW/ARRAY/MAP vectors from definition/repetition
 *	  levels (record assembly).
 *
 * Each vector of the output (a top-level column, a ROW field, an ARRAY's
 * elements, a MAP's keys and values) is an "assembly node" (pm_pq_anode)
 * that knows, from the file schema, at which levels a new slot of it starts
 * (repetition level <= rep and definition level >= dslot) and when that slot
 * is non-null (definition level >= def_null). Every leaf column walks its
 * level entries once; the first leaf under a node (its owner) appends the
 * node's slots, so shared ancestors are built exactly once.
 *
 * Lists: 3-level LIST (wrapper -> repeated group -> element) and legacy
 * 2-level lists (the repeated field is the element). Maps: MAP ->
 * repeated key_value -> key, value. MULTISET<T> is a map whose keys are
 * read as the elements (counts are not expanded).
 *
 * Spec: apache/parquet-format LogicalTypes.md ("Nested Types"); Paimon's
 * writer: format/parquet/ParquetSchemaConverter.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_ASSEMBLY_H
#define PM_FORMAT_PARQUET_PARQUET_ASSEMBLY_H

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/parquet/column_reader.h"
#include "format/parquet/parquet_metadata.h"

typedef enum pm_pq_anode_kind
{
	PM_PQ_AN_LEAF,
	PM_PQ_AN_ROW,
	PM_PQ_AN_LIST,				/* ARRAY and MULTISET: offsets, one child */
	PM_PQ_AN_MAP,				/* offsets, key and value children */
	PM_PQ_AN_MISSING			/* absent from the file: NULLs */
} pm_pq_anode_kind;

typedef struct pm_pq_anode pm_pq_anode;

struct pm_pq_anode
{
	const pm_type *type;
	pm_pq_anode_kind kind;
	int			def_null;		/* slot non-null iff def >= def_null */
	int			rep;			/* new slot iff rep level <= rep ... */
	int			dslot;			/* ... and def level >= dslot */
	int			owner;			/* index of the column that appends slots */
	pm_pq_anode *coll;			/* collection whose offsets this child drives */
	int			nchildren;
	pm_pq_anode **children;
	bool		want_nanos;
	bool		multiset_counts;	/* MULTISET read as MAP<element, count>:
									 * pm_pq_anode_expand repeats the elements */
	/* per batch */
	pm_vector  *vec;
	int64_t		cap;
	int64_t		data_cap;
	int64_t		data_hint;		/* largest varlen data of a batch so far */
	bool		any_null;
};

/* One leaf column being read and the output nodes on its path. */
typedef struct pm_pq_leaf
{
	pm_pq_column col;
	int			index;			/* in the reader's leaf array */
	int			npath;
	pm_pq_anode **path;			/* top-level node first */
	pm_pq_anode *leaf_an;		/* NULL: read for structure only */
	bool		flat;			/* top-level, non-repeated: fast path */
	bool		chunk_started;
} pm_pq_leaf;

typedef struct pm_pq_plan
{
	int			ncols;			/* requested top-level columns */
	pm_pq_anode **cols;
	int			nleaves;
	int			leaves_cap;
	pm_pq_leaf **leaves;
} pm_pq_plan;

/*
 * Build the plan for reading `request` (a ROW type) from the file schema
 * `md`, matching columns by name. Allocates in arena; the columns'
 * page arenas come from env (release with pm_pq_plan_release).
 */
extern pm_code pm_pq_plan_build(const pm_type *request, const pm_pq_metadata *md,
								const pm_env *env, pm_arena *arena, pm_pq_plan *plan,
								pm_error *err);
extern void pm_pq_plan_release(pm_pq_plan *plan);

/* Prepare the vectors of node `an` (and below) for `cap` slots in arena. */
extern bool pm_pq_anode_setup(pm_pq_anode *an, pm_vector *vec, int64_t cap, pm_arena *arena);

/* Append `n` NULL slots to a node (absent columns). */
extern bool pm_pq_anode_append_nulls(pm_pq_anode *an, int64_t n, pm_arena *arena);

/*
 * After a batch: children of rows as long as the row, children of
 * collections as long as their last offset (levels of sibling leaves
 * agree); false on a corrupt file.
 */
extern bool pm_pq_anode_consistent(const pm_pq_anode *an);

/*
 * After a consistent batch: each MULTISET read with its counts (Java's
 * MAP<element, INT NOT NULL>) becomes the list of its elements, each
 * repeated count times in the stored order (recursively). PM_ERR_CORRUPT
 * on a NULL or negative count.
 */
extern pm_code pm_pq_anode_expand(pm_pq_anode *an, pm_arena *arena, pm_error *err);

/* After a batch: drop all-zero null maps (recursively). */
extern void pm_pq_anode_finish(pm_pq_anode *an);

/*
 * Assemble the level entries [a, b) of the leaf's current page into the
 * nodes on its path and write the leaf values.
 */
extern pm_code pm_pq_assemble(pm_pq_leaf *leaf, int64_t a, int64_t b, pm_arena *arena,
							  pm_error *err);

#endif							/* PM_FORMAT_PARQUET_PARQUET_ASSEMBLY_H */
