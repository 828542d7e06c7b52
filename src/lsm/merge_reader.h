/*-------------------------------------------------------------------------
 * merge_reader.h
 *	  Merge-on-read of one bucket: a k-way merge of sorted runs by primary
 *	  key, each key's records fed to the table's merge engine.
 *
 * A run is anything that yields key-sorted batches in the KV layout of
 * table/split.h (cols[0..nkeys-1] the trimmed key, cols[nkeys]
 * _SEQUENCE_NUMBER, cols[nkeys+1] _VALUE_KIND, then the value columns the
 * engine was built for); in the table read each data file is one run, and
 * unit tests hand-build runs. Rows whose file position (batch->first_row +
 * i) is in the run's deletion vector are skipped before merging.
 *
 * Output: batches of the first `noutput` value columns, at most batch_size
 * rows, deep copies gathered column by column from the runs' batches, so
 * memory is bounded by one batch per run plus one output batch: the bucket
 * is never materialized.
 * Results whose kind is -U or -D are dropped (DropDeleteReader).
 *
 * Order of a key's records (SortMergeReaderWithMinHeap): user sequence
 * fields, then _SEQUENCE_NUMBER, then retract before add. A key with one
 * record bypasses the engine (ReducerMergeFunctionWrapper).
 *
 * Spec: ../shared/docs/paimon-format-data.md §4.3; apache/paimon
 * mergetree/compact/SortMergeReaderWithMinHeap.java, MergeFileSplitRead.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_MERGE_READER_H
#define PM_LSM_MERGE_READER_H

#include <stdbool.h>

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "index/deletion_vector.h"
#include "lsm/merge_engine.h"

/* One sorted run. */
typedef struct pm_run_source
{
	/* next batch, *batch = NULL at the end; valid until the next call */
	pm_code		(*next) (void *state, pm_batch **batch, pm_error *err);
	void		(*close) (void *state);	/* may be NULL */
	void	   *state;
	const pm_deletion_vector *dv;	/* NULL: no deleted rows */
	int32_t		level;			/* LSM level of the run (0: level 0) */
} pm_run_source;

typedef struct pm_merge_reader pm_merge_reader;

/*
 * Merge only the keys whose first column is in [lo, hi): lo and hi are
 * vectors of that column's type whose row 0 is the bound (NULL:
 * unbounded), compared as pm_key_compare_value does; they must outlive the
 * reader. Rows of other keys are skipped by binary search in each batch
 * (the first key column is sorted in a run), and a run ends at its first
 * key at or above hi. Every record of a key shares its first column, so a
 * key is merged whole or not at all. Set before the first _next call.
 */
extern void pm_merge_reader_set_key_range(pm_merge_reader *m, const pm_vector *lo,
										  const pm_vector *hi);

/*
 * Lookup mode (Java's LookupMergeFunction, used when the table "needs
 * lookup": changelog-producer=lookup, deletion vectors or force-lookup, not
 * first-row). Lookup compaction writes into level L >= 1 the value already
 * merged with everything below it, so a key's records from levels above the
 * lowest non-zero level it appears in must not be merged again: of a key's
 * records only those of level 0 and the one of the lowest level >= 1 go
 * through the merge engine. (A key with a single record is emitted as it
 * is, as in Java's ReducerMergeFunctionWrapper.)
 */
extern void pm_merge_reader_set_lookup(pm_merge_reader *m, bool lookup);

/*
 * Lookup compaction (Java's LookupChangelogMergeFunctionWrapper and
 * FirstRowMergeFunctionWrapper, what LookupMergeTreeCompactRewriter merges
 * level-0 records with): every key, also a key with a single record, goes
 * through the merge engine, and a key none of whose records comes from a
 * level >= 1 is first looked up in the levels above the compaction by fn
 * (keys arrive in ascending order). fn sets *found when an older live
 * record of the key exists there; then, for first-row tables the key is
 * dropped (its first row is already in the table), for the other engines
 * *rec (the record found, valid until the next fn call, level >= 1) is
 * merged with the key's records in merge order, as the record of the
 * lowest level (lookup mode must be on). fn gets the key as row key_row
 * of cols[0 .. nkeys-1] of key_batch.
 */
typedef pm_code (*pm_merge_lookup_fn) (void *ctx, const pm_batch *key_batch, int64_t key_row,
									   bool *found, pm_kv_record *rec, pm_error *err);

extern void pm_merge_reader_set_lookup_fn(pm_merge_reader *m, pm_merge_lookup_fn fn, void *ctx);

/*
 * Lookup changelog (changelog-producer = lookup; only with a lookup hook):
 * fn is called for each key one of whose records comes from level 0,
 * after the merge, with the engine's result (cells of the noutput columns,
 * its kind and sequence number) when there is one, and before: the older
 * record of the key (of the lowest level >= 1 among its records, or the
 * one the lookup found; value columns from nkeys + 2), NULL if none. For
 * first-row only new keys reach fn (none of its records from a level >= 1,
 * none found), with before NULL. Keys arrive in ascending order; before
 * and cells are valid during the call.
 */
typedef pm_code (*pm_merge_changelog_fn) (void *ctx, const pm_kv_record *before,
										  const pm_merge_cell *after, int after_kind,
										  int64_t after_seq, pm_error *err);

extern void pm_merge_reader_set_changelog_fn(pm_merge_reader *m, pm_merge_changelog_fn fn,
											 void *ctx);

/*
 * Full-compaction changelog (changelog-producer = full-compaction, Java's
 * FullChangelogMergeFunctionWrapper; without a lookup hook): fn is called
 * for every key, with before the key's record of max_level (the top
 * level, which only a full compaction writes; NULL if none) and after the
 * merged result (cells, kind, sequence number as the output row) when
 * there is one; a key with a single record calls fn only when it is an
 * add below max_level (before NULL, after the record as it is). Set
 * before the first _next call.
 */
extern pm_code pm_merge_reader_set_full_changelog(pm_merge_reader *m, pm_merge_changelog_fn fn,
												  void *ctx, int32_t max_level, pm_error *err);

/*
 * Compaction: each output row also carries its _SEQUENCE_NUMBER (column
 * noutput, seq_type BIGINT) and _VALUE_KIND (column noutput + 1, kind_type
 * TINYINT) as Java's merge functions set them: the record's own for a key
 * with one record; else the merged kind and the sequence number of the
 * latest record in merge order (the first for first-row). Set before the
 * first _next call.
 */
/*
 * Compaction into a level below the highest non-empty one (Java's
 * dropDelete = false): results of kind -U/-D are output too. Set before
 * the first _next call; only with set_kv_output.
 */
extern void pm_merge_reader_set_keep_retracts(pm_merge_reader *m, bool keep);

extern void pm_merge_reader_set_kv_output(pm_merge_reader *m, const pm_type *seq_type,
										  const pm_type *kind_type);

/*
 * Merge nruns runs (copied; the reader closes them) whose batches carry
 * nkeys key columns and the engine's value columns; output the first
 * noutput value columns, of types output_types. batch_size 0 = 1024.
 * The engine must outlive the reader.
 */
extern pm_code pm_merge_reader_open(const pm_env *env, pm_merge_engine *engine, int nkeys,
									const pm_type *const *output_types, int noutput,
									const pm_run_source *runs, int nruns, int batch_size,
									pm_merge_reader **out, pm_error *err);

/* Next merged batch, or *batch = NULL at the end; valid until the next call. */
extern pm_code pm_merge_reader_next(pm_merge_reader *reader, pm_batch **batch,
									pm_error *err);

/* Close every run and free the reader (safe on NULL). */
extern void pm_merge_reader_close(pm_merge_reader *reader);

#endif							/* PM_LSM_MERGE_READER_H */
