/*-------------------------------------------------------------------------
 * merge_engine.h
 *	  Paimon merge engines: how the records of one primary key become (at
 *	  most) one row. deduplicate, first-row, partial-update, aggregation.
 *
 * The merge reader feeds the records of a key in merge order (user
 * sequence fields, then _SEQUENCE_NUMBER, then retract before add) and
 * only when a key has two or more records (a single record is returned
 * unchanged, Java's ReducerMergeFunctionWrapper). The engine sees a record
 * as (batch, row): value column j of the record is
 * batch->cols[value_offset + j], column j being table field read_fields[j].
 * A result is a row of cells, each pointing at a value in an input batch
 * or in a value the engine computed (valid until the next reset).
 *
 *	 pm_merge_engine_read_fields	requested fields + the fields merging needs
 *	 pm_merge_engine_create			parse the table options
 *	 pm_merge_engine_reset / _add / _result		one key at a time
 *
 * Spec: ../shared/docs/paimon-format-data.md §4.3-4.6; apache/paimon
 * mergetree/compact/{Deduplicate,FirstRow,PartialUpdate}MergeFunction.java,
 * aggregate/AggregateMergeFunction.java, PrimaryKeyTableUtils.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_MERGE_ENGINE_H
#define PM_LSM_MERGE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/vector.h"
#include "table/schema.h"

/* Row kind byte of primary-key tables (Paimon RowKind). On disk: never renumber. */
typedef enum pm_rowkind
{
	PM_ROWKIND_INSERT = 0,		/* +I */
	PM_ROWKIND_UPDATE_BEFORE = 1,	/* -U */
	PM_ROWKIND_UPDATE_AFTER = 2,	/* +U */
	PM_ROWKIND_DELETE = 3		/* -D */
} pm_rowkind;

static inline bool
pm_rowkind_is_add(int kind)
{
	return kind == PM_ROWKIND_INSERT || kind == PM_ROWKIND_UPDATE_AFTER;
}

typedef enum pm_merge_engine_kind
{
	PM_MERGE_DEDUPLICATE = 0,
	PM_MERGE_FIRST_ROW,
	PM_MERGE_PARTIAL_UPDATE,
	PM_MERGE_AGGREGATION
} pm_merge_engine_kind;

/* One key-value record: row `row` of `batch` (see the column layout above). */
typedef struct pm_kv_record
{
	const pm_batch *batch;
	int64_t		row;
	int64_t		seq;			/* _SEQUENCE_NUMBER */
	int			kind;			/* pm_rowkind */
	int32_t		level;			/* LSM level of the file it came from */
} pm_kv_record;

/* A value: row `row` of vector `vec`; vec NULL means SQL NULL. */
typedef struct pm_merge_cell
{
	const pm_vector *vec;
	int64_t		row;
} pm_merge_cell;

static inline bool
pm_merge_cell_is_null(pm_merge_cell c)
{
	return c.vec == NULL || pm_vector_is_null(c.vec, c.row);
}

typedef struct pm_merge_engine pm_merge_engine;

/*
 * The value columns a merge must read: the requested table fields first
 * (in order), then every sequence field (sequence.field and the sequence
 * fields of sequence groups) not requested. *read_fields in arena.
 */
extern pm_code pm_merge_engine_read_fields(const pm_schema *schema, const int *fields,
										   int nfields, pm_arena *arena, int **read_fields,
										   int *nread, pm_error *err);

/*
 * Build the table's merge engine from its options (merge-engine,
 * ignore-delete, sequence.field, fields.*.sequence-group,
 * fields.*.aggregate-function, ...) for records whose value columns are
 * the table fields read_fields[0..nread-1], at batch column value_offset.
 * Invalid option combinations Java rejects are PM_ERR_INVALID; aggregate
 * functions not implemented here are PM_ERR_UNSUPPORTED naming them.
 * Lives in arena.
 */
extern pm_code pm_merge_engine_create(const pm_schema *schema, const int *read_fields,
									  int nread, int value_offset, pm_arena *arena,
									  pm_merge_engine **out, pm_error *err);

/* Free what the engine holds outside its arena (safe on NULL). */
extern void pm_merge_engine_destroy(pm_merge_engine *engine);

extern pm_merge_engine_kind pm_merge_engine_get_kind(const pm_merge_engine *engine);

/* ignore-delete (or its legacy names): retractions are dropped, not merged. */
extern bool pm_merge_engine_ignores_delete(const pm_merge_engine *engine);

/*
 * The user sequence fields (sequence.field) as value column indexes, and
 * whether they sort descending; *n = 0 when none.
 */
extern void pm_merge_engine_sequence_fields(const pm_merge_engine *engine, const int **cols,
											int *n, bool *descending);

/*
 * Order two records of one key as Java's sort-merge reader does: user
 * sequence fields, then _SEQUENCE_NUMBER, then retract before add.
 */
extern int	pm_merge_engine_compare_records(const pm_merge_engine *engine,
											const pm_kv_record *a, const pm_kv_record *b);

/*
 * The write buffer's order (SortBufferWriteBuffer, also its spilled runs):
 * as pm_merge_engine_compare_records, but the user sequence fields always
 * ascending: Java's buffer sorts on their fields alone and ignores
 * sequence.field.sort-order, so within one write buffer the largest value
 * wins even where reads and compactions keep the smallest.
 */
extern int	pm_merge_engine_compare_buffered(const pm_merge_engine *engine,
											 const pm_kv_record *a, const pm_kv_record *b);

/*
 * Whether records of kind (-U or -D; +I/+U always) can be merged, before
 * any is written, with the reason Java's merge function throws:
 * PM_ERR_UNSUPPORTED. deduplicate takes both; first-row neither (without
 * ignore-delete); partial-update needs ignore-delete,
 * partial-update.remove-record-on-delete or sequence groups; aggregation
 * needs every aggregate function to retract (or ignore-retract), -D also
 * aggregation.remove-record-on-delete.
 */
extern pm_code pm_merge_engine_accepts(const pm_merge_engine *engine, int kind, pm_error *err);

/* Start a new key; drops values computed for the previous one. */
extern void pm_merge_engine_reset(pm_merge_engine *engine);

/* Feed the next record of the key (merge order). */
extern pm_code pm_merge_engine_add(pm_merge_engine *engine, const pm_kv_record *rec,
								   pm_error *err);

/*
 * The merged row: *has_row false when the engine returns nothing (e.g.
 * dedup with ignore-delete saw only retracts); else *kind and cells
 * (nread cells, valid until the next reset).
 */
extern pm_code pm_merge_engine_result(pm_merge_engine *engine, bool *has_row, int *kind,
									  const pm_merge_cell **cells, pm_error *err);

/*
 * deduplicate and first-row: the record the result is (after the key's
 * _add calls), or NULL when there is none (only retractions ignored);
 * the same row and kind _result gives, without building cells. NULL for
 * the other engines.
 */
extern const pm_kv_record *pm_merge_engine_picked(const pm_merge_engine *engine);

#endif							/* PM_LSM_MERGE_ENGINE_H */
