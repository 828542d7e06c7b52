/*-------------------------------------------------------------------------
 * table.h
 *	  An opened Paimon table at one snapshot, and reading it.
 *
 * This is the interface src/fdw/ uses; everything below it (snapshots,
 * manifests, pruning, file formats, merge) is hidden behind it.
 *
 *	 pm_table_open			snapshot (latest or given) + its schema + options
 *	 pm_table_scan_plan		manifests -> pruned data files -> splits
 *	 pm_scan_reader_*		batches of the projected columns, in table types
 *
 * The reader returns, per batch, one vector per requested table field, of
 * that field's type in the table's schema (the snapshot's schema when
 * reading an older snapshot), schema evolution by field id applied.
 *
 * Paths: table_path is a local directory. Paths recorded in metadata as
 * "file:/x" or "FILE:/x" are local; external_path_map remaps prefixes of
 * recorded external paths: "FILE:/tmp/external=/data/ext[,from=to...]"
 * (the longest matching "from" wins; no match keeps the recorded path).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TABLE_H
#define PM_TABLE_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "table/predicate.h"
#include "table/schema.h"

/*
 * The state of a table an open found: its snapshot (0 when the table had
 * none) and the schema it read with. Opening with a version reads that
 * state again, however many commits have landed since: the FDW uses it to
 * read one state of a table in all scans of a statement or transaction,
 * and to give parallel workers the leader's state.
 */
typedef struct pm_table_version
{
	int64_t		snapshot_id;
	int64_t		schema_id;
} pm_table_version;

typedef struct pm_table_open_options
{
	int64_t		snapshot_id;	/* <= 0: the latest snapshot */
	const char *external_path_map;	/* NULL or "from=to[,from=to...]" */
	/* Time travel alternatives to snapshot_id (at most one may be set): */
	const char *tag;			/* NULL or a tag name (tag/tag-<name>) */
	int64_t		timestamp_millis;	/* > 0: the last snapshot committed at or
									 * before this epoch-ms time */
	/* non-NULL: read this version (none of the above may be set) */
	const pm_table_version *version;
} pm_table_open_options;

typedef struct pm_table pm_table;

/*
 * Open the table at table_path. A table with no snapshot yet opens fine
 * (latest schema, no rows). A snapshot_id, tag or time with no snapshot is
 * PM_ERR_NOT_FOUND; time travel reads with that snapshot's schema, the
 * latest snapshot with the latest schema, a version with its schema (a
 * version whose snapshot has expired since is PM_ERR_NOT_FOUND). Options a
 * reader must honour but this version does not (table_options.h: data
 * evolution, blob files, stored scan modes, ...) are reported by
 * pm_table_scan_plan as PM_ERR_UNSUPPORTED naming the option and its value,
 * so that IMPORT FOREIGN SCHEMA still works on such tables.
 */
extern pm_code pm_table_open(const pm_env *env, pm_fileio *io, const char *table_path,
							 const pm_table_open_options *options, pm_table **out,
							 pm_error *err);
extern void pm_table_close(pm_table *table);
/*
 * A table object for another env and FileIO (a statement's) that shares
 * src's snapshot, schemas and layout: src must outlive it and stay
 * unchanged (schemas loaded later go to the copy's own arena). Cheaper
 * than opening the table again when its version is known to be current.
 */
extern pm_code pm_table_copy(const pm_table *src, const pm_env *env, pm_fileio *io,
							 pm_table **out, pm_error *err);
/* pm_table_options_check of the reading schema, once per table object. */
extern pm_code pm_table_check_options(pm_table *table, pm_error *err);

extern const pm_schema *pm_table_schema(const pm_table *table);
/* 0 when the table has no snapshot */
extern int64_t pm_table_snapshot_id(const pm_table *table);
/* The version the table was opened at (to open it there again). */
extern pm_table_version pm_table_get_version(const pm_table *table);
/* Rows in the snapshot according to its metadata (totalRecordCount), -1 if unknown. */
extern int64_t pm_table_total_record_count(const pm_table *table);

/* What planning did: the pruning funnel EXPLAIN shows. */
typedef struct pm_scan_stats
{
	int64_t		manifests_read;
	int64_t		files_total;	/* live data files in the snapshot */
	int64_t		files_pruned_partition;
	int64_t		files_pruned_stats; /* by min/max/null-count statistics */
	int64_t		files_pruned_index; /* by file indexes (bloom, bitmap, ...) */
	int64_t		files_selected;
	int64_t		rows_selected;	/* sum of row counts of selected files */
	int64_t		bytes_selected;
	int64_t		splits;
	int64_t		partitions_selected;
	int64_t		files_pruned_bucket;	/* by bucket (equality on the bucket key) */
	int64_t		files_with_dv;	/* selected files with a deletion vector */
	int64_t		rows_deleted;	/* ... the positions their DVs delete, -1 if unknown */
	/* counted while the files are read (see pm_read_filter in split.h) */
	int64_t		row_groups_total;	/* Parquet row groups with rows considered */
	int64_t		row_groups_pruned;	/* ... skipped by their statistics */
	int64_t		stripes_total;	/* ORC stripes with rows considered */
	int64_t		stripes_pruned;
	int64_t		stripes_bloom_pruned;	/* ... skipped by their bloom filters */
	/*
	 * Row groups / stripes skipped because they hold no row of the file's
	 * row selection (a lookup's key rows, a file index's), before their
	 * statistics were read: not in the totals above
	 */
	int64_t		row_groups_unselected;
	int64_t		stripes_unselected;
	/*
	 * Parquet data pages of the columns read, in the row groups read, whose
	 * OffsetIndex was used; those skipped by the ColumnIndex
	 */
	int64_t		pages_total;
	int64_t		pages_pruned;
	/* ORC row groups of the stripes read whose row index was used; skipped */
	int64_t		orc_groups_total;
	int64_t		orc_groups_pruned;
} pm_scan_stats;

typedef struct pm_scan pm_scan;

/*
 * Plan a read of the table's snapshot. filter may be NULL; it is used only
 * to prune (the caller rechecks rows). The scan lives until pm_scan_free.
 */
extern pm_code pm_table_scan_plan(pm_table *table, const pm_predicate *filter,
								  pm_scan **out, pm_error *err);

/*
 * Which pruning stages may use the filter (tests compare results with a
 * stage on and off). NULL options: every stage on.
 */
typedef struct pm_scan_options
{
	bool		prune_partitions;	/* partitions, manifests and buckets */
	bool		prune_stats;	/* min/max/null-count statistics */
	bool		prune_file_index;	/* bloom, bitmap, range bitmap, BSI */
	bool		prune_row_groups;	/* Parquet row groups, ORC stripes by statistics */
	bool		prune_pages;	/* Parquet pages by their ColumnIndex */
} pm_scan_options;

extern pm_code pm_table_scan_plan_with(pm_table *table, const pm_predicate *filter,
									   const pm_scan_options *options,
									   pm_scan **out, pm_error *err);
extern const pm_scan_stats *pm_scan_get_stats(const pm_scan *scan);

/*
 * Every live file, with its deletion vector, also the level-0 files a
 * batch read of a deletion-vector or first-row table skips: what a writer
 * restores a bucket from (Java's writer restores all levels).
 */
extern pm_code pm_table_scan_plan_every_level(pm_table *table, pm_scan **out, pm_error *err);

/*
 * Only the files of the postpone bucket (bucket -2, which batch reads
 * skip), one split per partition, files in manifest order: what the
 * postpone compaction moves into real buckets (lsm/postpone_compact.h).
 */
extern pm_code pm_table_scan_plan_postpone(pm_table *table, pm_scan **out, pm_error *err);

/*
 * A caller's own test of the parts of files (Parquet row groups, ORC
 * stripes) from their statistics: ranges[f] for table field f (known =
 * false where nothing is known), as the scan's filter sees them. Asked
 * only where the skipped rows are nobody else's (no merge needs them) and
 * when row-group pruning is on, after the filter; a part it says false to
 * is skipped and counted as pruned by statistics. E.g. a top-N whose heap
 * is full (scan_topn.h).
 */
typedef bool (*pm_part_keep_fn) (void *ctx, const pm_field_range *ranges, int nfields);

/* Set before reading (fn NULL: none). */
extern void pm_scan_set_part_keep(pm_scan *scan, pm_part_keep_fn fn, void *ctx);

/*
 * Late materialization for a caller (a top-N, scan_topn.h): where the rows
 * of a Parquet file are nobody else's (no merge needs them) and it holds
 * table field `field` as the table reads it, the reader decodes that
 * column first, batch by batch, and fn clears sel[r] for the rows the
 * caller will not want (sel comes 1 for the rows the scan's own filter
 * keeps); the other columns are decoded only for the span of rows left
 * (format_reader.h row_filter). A hint: rows it clears may still be
 * returned (inside a span, or by other formats). Only with page pruning
 * on (pm_scan_options.prune_pages), as the scan filter's own late
 * materialization.
 */
typedef void (*pm_row_keep_fn) (void *ctx, const pm_vector *values, int64_t nrows,
								uint8_t *sel);

/* Set before reading (fn NULL: none). */
extern void pm_scan_set_row_keep(pm_scan *scan, int field, pm_row_keep_fn fn, void *ctx);
extern void pm_scan_free(pm_scan *scan);

typedef struct pm_scan_reader pm_scan_reader;

/*
 * Read the projected table fields (indexes into the schema's fields, in
 * the order wanted; nfields may be 0, e.g. for count(*): batches then carry
 * only nrows). Splits are read in plan order.
 */
extern pm_code pm_scan_reader_open(pm_scan *scan, const int *fields, int nfields,
								   pm_scan_reader **out, pm_error *err);
/* Next batch or *batch = NULL at the end; valid until the next call. */
extern pm_code pm_scan_reader_next(pm_scan_reader *reader, pm_batch **batch, pm_error *err);
extern void pm_scan_reader_close(pm_scan_reader *reader);
/* Local path of the data file the last batch came from (NULL before any). */
extern const char *pm_scan_reader_source(const pm_scan_reader *reader);

/*
 * Parallel reads. A read is made of units of work: each data file read as
 * it is, each split merged. Units are numbered 0, 1, ... in plan order,
 * the same in every process that planned the same snapshot with the same
 * filter. With a claim function set, a reader asks it about each unit in
 * turn and reads the unit only when it returns true; participants that
 * share a counter (fetch-and-add) thus split the work between them.
 */
typedef bool (*pm_unit_claim_fn) (void *ctx, int64_t unit);

/* Set before the first _next call. */
extern void pm_scan_reader_set_claim(pm_scan_reader *reader, pm_unit_claim_fn fn, void *ctx);

/*
 * Finer units: a Parquet or ORC data file of at least min_file_bytes that
 * is read as it is (no merge) is not one unit but one per part (row group,
 * stripe) that the scan's filter keeps, numbered in file order, so that
 * the participants share even a single large file. Every participant then
 * opens such files (their footers) to number the parts. 0 (the default):
 * every file is one unit. Set before reading.
 */
extern void pm_scan_set_part_units(pm_scan *scan, int64_t min_file_bytes);

/*
 * The number of workers sharing a parallel read (0, the default: unknown).
 * With at least as many merged splits (buckets) as workers, merged splits
 * are not cut into key ranges: each is one unit and the participants share
 * the splits (a cut re-reads each range's dictionary and edge pages).
 * Every participant must set the same value, before reading.
 */
extern void pm_scan_set_participants(pm_scan *scan, int n);
extern int	pm_scan_participants(const pm_scan *scan);

#endif							/* PM_TABLE_TABLE_H */
