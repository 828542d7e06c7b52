/*-------------------------------------------------------------------------
 * split.h
 *	  Splits of a planned scan and reading one data file: what src/lsm/
 *	  (merge-on-read of primary-key tables) builds on.
 *
 * A split is one bucket of one partition: the live data files of that
 * bucket (after partition/stats pruning), in the order the manifests listed
 * them. Everything here lives in the scan's arena and stays valid until
 * pm_scan_free.
 *
 * pm_data_file_reader reads one data file with schema evolution applied
 * (file columns matched to table fields by field id through the file's own
 * schema, _SCHEMA_ID; absent fields NULL; simple widening casts), producing
 * batches in table types.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §6 (DataFileMeta), §3.6;
 * apache/paimon DataFileMeta.java, DataSplit.java, KeyValueFileReaderFactory.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SPLIT_H
#define PM_TABLE_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/value.h"
#include "common/vector.h"
#include "format/format_reader.h"
#include "table/table.h"

/* SimpleStats as stored (§9.1): serialized BinaryRows + null counts. */
typedef struct pm_simple_stats
{
	const uint8_t *min_values;	/* serialized BinaryRow (4-byte arity prefix) */
	int32_t		min_values_len;
	const uint8_t *max_values;
	int32_t		max_values_len;
	int			nnull_counts;	/* -1: _NULL_COUNTS is null (unknown) */
	const int64_t *null_counts; /* nnull_counts entries; -1 = null entry */
} pm_simple_stats;

/*
 * Where a file's deletion vector lives (from the snapshot's index
 * manifest); read it with pm_deletion_vector_read(env, io, path, offset,
 * length, ...) from index/deletion_vector.h.
 */
typedef struct pm_deletion_file
{
	const char *path;			/* local path of the index file */
	int64_t		offset;
	int64_t		length;
	int64_t		cardinality;	/* -1 if unknown */
} pm_deletion_file;

/* One live data file (DataFileMeta, all manifest versions 0.4 .. 2.x). */
typedef struct pm_data_file_meta
{
	const char *file_name;		/* _FILE_NAME */
	const char *path;			/* resolved local path to open */
	pm_file_format format;		/* from the file name's extension */
	int64_t		file_size;
	int64_t		row_count;
	const uint8_t *min_key;		/* serialized BinaryRow of the trimmed PK */
	int32_t		min_key_len;
	const uint8_t *max_key;
	int32_t		max_key_len;
	pm_simple_stats key_stats;
	pm_simple_stats value_stats;
	int64_t		min_sequence_number;
	int64_t		max_sequence_number;
	int64_t		schema_id;		/* _SCHEMA_ID: the schema the file was written with */
	int32_t		level;
	int			nextra_files;
	const char **extra_files;	/* names, as recorded */
	const char **extra_file_paths;	/* resolved local paths (same directory) */
	bool		has_creation_time;
	int64_t		creation_time_millis;	/* writer-local wall clock as epoch ms */
	int64_t		delete_row_count;	/* -1 if null */
	const uint8_t *embedded_file_index; /* NULL if none */
	int32_t		embedded_file_index_len;
	int32_t		file_source;	/* 0 APPEND, 1 COMPACT, -1 null */
	int			nvalue_stats_cols;	/* -1: _VALUE_STATS_COLS null (all columns) */
	const char **value_stats_cols;
	const char *external_path;	/* _EXTERNAL_PATH as recorded, or NULL */
	bool		has_first_row_id;
	int64_t		first_row_id;
	int			nwrite_cols;	/* -1 if null */
	const char **write_cols;
	const pm_deletion_file *deletion_file;	/* NULL: no deletion vector */
} pm_data_file_meta;

/* One bucket of one partition. */
typedef struct pm_split
{
	const uint8_t *partition;	/* serialized partition BinaryRow (_PARTITION) */
	int32_t		partition_len;
	int			npartition_values;	/* = number of partition keys */
	const pm_value *partition_values;	/* decoded, in partition key order */
	int32_t		bucket;
	int32_t		total_buckets;	/* _TOTAL_BUCKETS of the first file */
	const char *bucket_path;	/* local <table>/<partition path>/bucket-<N> */
	int			nfiles;
	const pm_data_file_meta **files;	/* manifest order */
	int64_t		row_count;		/* sum of the files' row counts */
} pm_split;

/* The splits of a planned scan, in plan order (partition, then bucket). */
extern int	pm_scan_split_count(const pm_scan *scan);
extern const pm_split *pm_scan_get_split(const pm_scan *scan, int i);
/* The table a scan was planned on. */
extern pm_table *pm_scan_table(const pm_scan *scan);

/*
 * True for primary-key tables: their splits need merge-on-read (src/lsm/);
 * pm_scan_reader_open refuses them (PM_ERR_UNSUPPORTED) until then.
 */
extern bool pm_scan_needs_merge(const pm_scan *scan);

/*
 * True when some selected file has a deletion vector. pm_scan_reader_open
 * refuses append tables with deletion vectors (it cannot drop rows); a
 * caller that can (src/lsm/ raw-split path) reads such splits file by file.
 */
extern bool pm_scan_has_deletion_vectors(const pm_scan *scan);

/*
 * Primary-key helpers for src/lsm/: the trimmed primary key (primary keys
 * minus partition keys) as indexes into the table schema's fields.
 * *fields lives as long as the table.
 */
extern void pm_table_trimmed_primary_key(const pm_table *table, const int **fields,
										 int *nfields);
/* The environment and FileIO the table was opened with. */
extern const pm_env *pm_table_env(const pm_table *table);
extern pm_fileio *pm_table_fileio(const pm_table *table);
/* The schema with the given id (cached in the table), for files of older schemas. */
extern pm_code pm_table_schema_by_id(pm_table *table, int64_t schema_id,
									 const pm_schema **out, pm_error *err);

/*
 * Statistics pruning inside a data file (Parquet row groups, ORC stripes):
 * a part is skipped when the scan's filter cannot match what its
 * statistics say (table/stats_filter.c decides, as for whole files).
 *
 * value_fields says which fields may prune. Only where no merge needs the
 * skipped rows: append tables, and files read as they are under deletion
 * vectors (no merge: every live row is the only version of its key). A
 * file that takes part in a merge (or a raw read without deletion
 * vectors) prunes by the trimmed primary key fields only: every version
 * of a key has the same key, so a part whose keys cannot match holds no
 * version of a matching key.
 */
typedef struct pm_read_filter
{
	const pm_predicate *pred;	/* over table fields; NULL: read every part */
	const pm_scan *scan;		/* its file-index row selections (value_fields only) */
	bool		parts;			/* skip Parquet row groups and ORC stripes */
	bool		pages;			/* skip Parquet pages */
	bool		value_fields;	/* false: primary-key fields only */
	/*
	 * Point lookups: every row the caller needs satisfies this predicate
	 * over primary-key fields (the looked-up keys), so the reader may drop
	 * the others inside the file even without value_fields (Parquet: the
	 * key columns decoded first, the others only where a key is). NULL:
	 * none.
	 */
	const pm_predicate *rows_pred;
	pm_scan_stats *counts;		/* parts considered / skipped; may be NULL */
	/* also skip the parts this says no to (value_fields only); may be NULL */
	pm_part_keep_fn keep;
	void	   *keep_ctx;
	/* and drop inside the file the rows this says no to (value_fields only,
	 * see pm_scan_set_row_keep); may be NULL */
	pm_row_keep_fn row_keep;
	void	   *row_keep_ctx;
	int			row_keep_field;
	/*
	 * Parallel reads by parts (pm_scan_set_part_units): read only the parts
	 * claim takes; each part is unit (*unit)++, a pruned one too (counted
	 * by the participant that takes it; Parquet numbers the units of the
	 * row groups kept, see format_reader.h unit_claim). A file read
	 * without parts (no column of it requested) is one unit. NULL: read
	 * every part.
	 */
	pm_unit_claim_fn claim;
	void	   *claim_ctx;
	int64_t    *unit;
	/*
	 * With claim: Parquet row groups larger than this are cut into units
	 * of about this many bytes at page boundaries (format_reader.h
	 * unit_claim), each numbered as a part. 0: a row group is one unit.
	 */
	int64_t		unit_bytes;
	/*
	 * Parquet column chunks read into these buffers, shared by the files a
	 * sequential read opens one after another (format/chunk_buffers.h). NULL:
	 * per row group.
	 */
	pm_chunk_buffers *chunk_buffers;
} pm_read_filter;

/* Whether file is read as one unit per part in a parallel read (see table.h). */
extern bool pm_scan_file_has_part_units(const pm_scan *scan, const pm_data_file_meta *file);

/*
 * The scan's in-file filter (pred NULL when there is none or it is off;
 * keep set only with value_fields, see pm_scan_set_part_keep).
 */
extern void pm_scan_read_filter(pm_scan *scan, bool value_fields, pm_read_filter *out);

/*
 * The rows of a selected data file its file indexes leave (bitmap, range
 * bitmap, BSI), NULL for every row; planned with page pruning on only.
 */
extern const pm_row_selection *pm_scan_file_rows(const pm_scan *scan,
												 const pm_data_file_meta *file);

/*
 * Whether that selection is a point lookup's placed keys: the rows of the
 * pages holding them (each row group of it holds one); _exact: their own
 * rows, each of which holds one.
 */
extern bool pm_scan_file_rows_placed(const pm_scan *scan, const pm_data_file_meta *file);
extern bool pm_scan_file_rows_exact(const pm_scan *scan, const pm_data_file_meta *file);

typedef struct pm_data_file_reader pm_data_file_reader;

/*
 * Open one data file of `table`, reading the table fields `fields` (indexes
 * into pm_table_schema(table)'s fields, nfields may be 0).
 *
 * Batch column layout:
 *	 with_key_value_system_fields = false (append tables, or raw files):
 *	   cols[0 .. nfields-1]		the requested table fields, in table types
 *	 with_key_value_system_fields = true (primary-key KV files):
 *	   cols[0 .. nkeys-1]		the trimmed primary key fields (file columns
 *								"_KEY_<name>"), in table types, in
 *								pm_table_trimmed_primary_key order
 *	   cols[nkeys]				_SEQUENCE_NUMBER, BIGINT
 *	   cols[nkeys + 1]			_VALUE_KIND, TINYINT (RowKind byte 0..3)
 *	   cols[nkeys + 2 + i]		requested table field fields[i]
 * batch->first_row is the position in the file of the batch's first row
 * (deletion vectors are positions). Batches are owned by the reader and
 * valid until the next _next or _close. batch_size 0 = default.
 */
extern pm_code pm_data_file_reader_open(pm_table *table, const pm_data_file_meta *file,
										const int *fields, int nfields,
										bool with_key_value_system_fields,
										int batch_size,
										pm_data_file_reader **out, pm_error *err);
/* The same, skipping the parts of the file that filter (may be NULL) excludes. */
extern pm_code pm_data_file_reader_open_filtered(pm_table *table,
												 const pm_data_file_meta *file,
												 const int *fields, int nfields,
												 bool with_key_value_system_fields,
												 int batch_size,
												 const pm_read_filter *filter,
												 pm_data_file_reader **out,
												 pm_error *err);
/*
 * A primary-key data file read for a merge that needs no stored
 * _SEQUENCE_NUMBER or _VALUE_KIND (flags), the same batch layout as
 * with_key_value_system_fields, the column taken from the file's metadata
 * and not read (one column less to decompress and decode per row):
 *	 PM_KV_SEQUENCE_FROM_FILE	every row's _SEQUENCE_NUMBER is the file's
 *								_MAX_SEQUENCE_NUMBER: right where only the
 *								order between files matters (the merged
 *								files' sequence ranges are disjoint)
 *	 PM_KV_KIND_INSERT			every row is +I: right for a file without
 *								retract rows (_DELETE_ROW_COUNT 0) when +I
 *								and +U need not be told apart
 */
#define PM_KV_SEQUENCE_FROM_FILE	1
#define PM_KV_KIND_INSERT			2
extern pm_code pm_data_file_reader_open_kv(pm_table *table, const pm_data_file_meta *file,
										   const int *fields, int nfields, int flags,
										   const pm_read_filter *filter,
										   pm_data_file_reader **out, pm_error *err);
/* Next batch, or *batch = NULL at the end of the file. */
extern pm_code pm_data_file_reader_next(pm_data_file_reader *reader, pm_batch **batch,
										pm_error *err);
extern void pm_data_file_reader_close(pm_data_file_reader *reader);

/*
 * A point lookup's Parquet file whose keys' own rows the key pages placed
 * (a few) is read from the caches alone when they hold everything
 * (format/parquet/parquet_row_fetch.h): the same batches, counted alike,
 * without opening a format reader. On by default; off: always through the
 * reader. Process-wide, for tests and comparisons. pm_data_file_fetches
 * counts the files this process read so.
 */
extern void pm_data_file_fetch_cached(bool on);
extern int64_t pm_data_file_fetches(void);

/*
 * Key sampling, for cutting a bucket into key ranges (key_range_split.h):
 * a piece of a primary-key data file is nrows rows whose first trimmed key
 * field is at least min (table type; bytes in the caller's arena). The
 * pieces are the file's Parquet pages as the page index cuts them (row
 * groups without one count whole; ORC stripes), in file order; only the
 * footer and the page indexes are read. Avro files, and parts whose
 * statistics give no minimum, yield no piece.
 */
typedef struct pm_key_piece
{
	pm_value	min;
	int64_t		nrows;
} pm_key_piece;

extern pm_code pm_data_file_key_pieces(pm_table *table, const pm_data_file_meta *file,
									   pm_arena *arena, pm_key_piece **pieces, int *npieces,
									   pm_error *err);

#endif							/* PM_TABLE_SPLIT_H */
