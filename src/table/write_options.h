/*-------------------------------------------------------------------------
 * write_options.h
 *	  What a table's schema and options mean for writing it: the refusal
 *	  list of the writer and the options it honours, parsed once.
 *
 * The writer implements APPEND tables (no primary key) with bucket -1
 * (unaware: every file in bucket-0, _TOTAL_BUCKETS -1) or a fixed bucket
 * count hashed on bucket-key, and PRIMARY-KEY tables with a fixed bucket
 * count (bucket-key default: the trimmed primary key), dynamic buckets
 * (bucket -1, the primary key holding every partition key) or postpone
 * buckets (-2, written into fixed buckets as Flink's batch sink does), and
 * every merge engine (first-row and deletion-vector tables, fixed bucket
 * only, are compacted by the writer, lsm/lookup_compact.h); Parquet,
 * Avro or ORC data files. Everything that would
 * make Java expect something this writer does not produce is refused with
 * PM_ERR_UNSUPPORTED naming the option (or the table kind).
 *
 * Spec: apache/paimon CoreOptions.java (defaults), DataFilePathFactory.java
 * (file names), BucketMode / SchemaValidation.validateBucket.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_WRITE_OPTIONS_H
#define PM_TABLE_WRITE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "lsm/compact_pick.h"
#include "common/arena.h"
#include "common/error.h"
#include "io/fileio.h"
#include "table/external_path.h"
#include "common/type.h"
#include "format/format_reader.h"
#include "format/format_writer.h"
#include "index/file_index_write.h"
#include "table/schema.h"
#include "row/bucket_function.h"
#include "table/stats_build.h"

typedef struct pm_write_options
{
	pm_file_format format;		/* file.format (default parquet; avro) */
	const char *format_name;	/* "parquet"/"avro"/"orc" */
	/*
	 * The data file name extension: format_name, or with
	 * file.suffix.include.compression "<compression>.<format>" ("zst.parquet")
	 */
	const char *file_extension;
	/* data-file.path-directory: bucket directories under <table>/<it>/ (NULL: none) */
	const char *data_dir;
	const char *compression;	/* file.compression (default zstd) */
	int			zstd_level;		/* file.compression.zstd-level (default 1) */
	/*
	 * file.compression.per.level of primary-key tables (KeyValue files of
	 * those levels; append files take file.compression, as Java's)
	 */
	int			ncompression_levels;
	const int  *compression_levels;
	const char **compression_by_level;
	/* file.format.per.level of primary-key tables, as the above: format and file extension */
	int			nformat_levels;
	const int  *format_levels;
	const pm_file_format *format_by_level;
	const char **extension_by_level;
	/* metadata.stats-mode.per.level of primary-key tables, as the above */
	int			nstats_mode_levels;
	const int  *stats_mode_levels;
	const char **stats_mode_by_level;
	int64_t		row_group_bytes;	/* parquet.block.size, 0 = writer default */
	int64_t		page_bytes;		/* parquet.page.size, 0 = writer default */
	bool		dictionary;		/* parquet.enable.dictionary (default true) */
	pm_orc_write_options orc;	/* orc.* (format/format_writer.h) */
	int64_t		target_file_size;	/* target-file-size (append default 256 MiB) */
	int64_t		write_buffer_size;	/* write-buffer-size (default 256 MiB): memory of open files */
	const char *data_file_prefix;	/* data-file.prefix (default "data-") */
	bool		changelog_input;	/* changelog-producer = input: flushes write changelog files */
	bool		changelog_lookup;	/* changelog-producer = lookup: the compaction at commit writes them */
	bool		changelog_full; /* changelog-producer = full-compaction: compactions into the max level */
	const char *changelog_file_prefix;	/* changelog-file.prefix (default "changelog-") */
	const char *partition_default_name; /* partition.default-name */
	int32_t		bucket;			/* -1 unaware (append) or dynamic (primary key), -2
								 * postpone (primary key), or N >= 1 */
	bool		postpone_batch_fixed;	/* bucket -2 and postpone.batch-write-fixed-bucket */
	int			nbucket_keys;	/* dynamic buckets: the trimmed primary key, hashed */
	const int  *bucket_key_fields;	/* indexes into the row type, option order */
	const pm_type *bucket_key_type; /* ROW of the bucket-key fields */
	pm_bucket_function bucket_function;	/* bucket-function.type (fixed and postpone buckets) */
	int64_t		dynamic_target_rows;	/* dynamic-bucket.target-row-num (2 000 000) */
	int32_t		dynamic_max_buckets;	/* dynamic-bucket.max-buckets (-1: unlimited) */
	bool		index_in_data_dir;	/* index-file-in-data-file-dir (default false) */
	bool		thin_mode;		/* data-file.thin-mode: KeyValue files without _KEY_ columns */
	int			npartition_keys;
	const int  *partition_fields;	/* indexes into the row type */
	const pm_type *partition_type;	/* ROW of the partition fields */
	pm_stats_mode *stats_modes;		/* per field */
	bool		stats_dense;	/* metadata.stats-dense-store (default true) */
	const char *manifest_compression;	/* manifest.compression (default zstd) */
	/* every table: the RowKindFilter and RowKindGenerator */
	bool		ignore_delete;	/* ignore-delete: -U/-D dropped (RowKindFilter) */
	bool		ignore_update_before;	/* ignore-update-before: -U dropped */
	int			rowkind_field;	/* rowkind.field: the CHAR/VARCHAR column whose
								 * value ('+I', '-U', '+U', '-D') is each
								 * row's kind (RowKindGenerator), -1 if unset */
	/* primary-key tables (nprimary_keys > 0 in the schema) */
	bool		primary_key;
	int			ntrimmed_keys;	/* primary keys minus partition keys: the file's key */
	const int  *trimmed_key_fields; /* indexes into the row type */
	bool		write_buffer_spillable; /* write-buffer-spillable (default true) */
	bool		cross_partition;	/* bucket -1, a partition key not in the primary key */
	/*
	 * Lookup compaction at commit (lsm/lookup_compact.h): tables whose batch
	 * reads skip level 0
	 */
	bool		deletion_vectors;	/* deletion-vectors.enabled */
	bool		dv_bitmap64;	/* deletion-vectors.bitmap64 */
	bool		first_row;		/* merge-engine = first-row */
	bool		write_only;		/* write-only: the writer never compacts */
	bool		sequence_field; /* sequence.field is set */
	pm_compact_strategy compact_strategy;	/* the compaction options (lsm/compact_pick.h) */
	/* file-index.* (table/file_index_options.h): NULL when no index is asked for */
	const pm_file_index_plan *file_index;
	/*
	 * data-file.external-paths* (table/external_path.h): where new data and
	 * changelog files go; NULL: their bucket directory. external_components:
	 * the components of a relative bucket path ([data_dir/]<partition
	 * path>bucket-<N>).
	 */
	pm_external_paths *external;
	int			external_components;
} pm_write_options;

/*
 * Check that this writer can write tables of this schema as Java would
 * and parse the options it honours (in arena). PM_ERR_UNSUPPORTED names
 * what is refused; PM_ERR_INVALID an option value Java would reject.
 */
extern pm_code pm_write_options_parse(const pm_schema *schema, pm_arena *arena,
									  pm_write_options *out, pm_error *err);

/*
 * Where a new data or changelog file named name of the bucket directory
 * bucket_dir (<table>/[data_dir/]<partition path>bucket-<N>) is written:
 * *path = bucket_dir/name and *external = NULL, or with
 * data-file.external-paths its local path under an external root and the
 * _EXTERNAL_PATH to record (DataFilePathFactory.newPathFromName). In arena.
 */
extern pm_code pm_write_options_new_file(const pm_write_options *o, const char *bucket_dir,
										 const char *name, pm_arena *arena, char **path,
										 char **external, pm_error *err);

/*
 * Create the directory of a new file (path from pm_write_options_new_file):
 * bucket_dir when first is set (the writer's first file) and the file is
 * not external, the file's own directory when it is external.
 */
extern pm_code pm_write_options_mkdirs(pm_fileio *io, const char *bucket_dir, const char *path,
									   const char *external, bool first, pm_arena *arena,
									   pm_error *err);

/*
 * The same for paimon_compact's full compaction (lsm/lookup_compact.h):
 * deletion-vector, first-row and lookup-changelog tables with dynamic
 * buckets, whose writes are refused (the lookup compaction at commit needs
 * a fixed bucket), are taken (Java writes them; no lookup is needed when
 * every level is compacted into the max level).
 */
extern pm_code pm_write_options_parse_compaction(const pm_schema *schema, pm_arena *arena,
												 pm_write_options *out, pm_error *err);

/*
 * Java's MemorySize.parse: "<number>[ ]<unit>" with units b/bytes,
 * k/kb/kibibytes, m/mb/mebibytes, g/gb/gibibytes, t/tb/tebibytes (any
 * case; powers of 1024), no unit = bytes.
 */
/*
 * Java's SchemaValidation.validateSequenceField for tables whose primary key
 * lacks a partition key: sequence.field is refused (PM_ERR_INVALID).
 */
extern pm_code pm_check_cross_partition_sequence(const pm_schema *schema, pm_error *err);

extern pm_code pm_parse_memory_size(const char *key, const char *text, int64_t *bytes,
									pm_error *err);

/* The format and file extension of a KeyValue file of level (key2Format). */
static inline pm_file_format
pm_write_options_format(const pm_write_options *o, int level, const char **extension)
{
	for (int i = 0; i < o->nformat_levels; i++)
		if (o->format_levels[i] == level)
		{
			*extension = o->extension_by_level[i];
			return o->format_by_level[i];
		}
	*extension = o->file_extension;
	return o->format;
}

/* The compression of a KeyValue file of level (KeyValueFileWriterFactory key2Compress). */
static inline const char *
pm_write_options_compression(const pm_write_options *o, int level)
{
	for (int i = 0; i < o->ncompression_levels; i++)
		if (o->compression_levels[i] == level)
			return o->compression_by_level[i];
	return o->compression;
}

#endif							/* PM_TABLE_WRITE_OPTIONS_H */
