/*-------------------------------------------------------------------------
 * manifest_write.h
 *	  Writing manifests and manifest lists as Apache Paimon 1.4.2 writes
 *	  them: Avro object container files, or Parquet or ORC files
 *	  (manifest.format, default avro), compressed with manifest.compression
 *	  (default zstd), records built as column batches of the ManifestEntry /
 *	  ManifestFileMeta row types and written through the format writer
 *	  (format/format_writer.h).
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §5-§6; apache/paimon
 * ManifestFile.java, ManifestList.java, ManifestEntrySerializer.java,
 * DataFileMetaSerializer.java, ManifestFileMetaSerializer.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_MANIFEST_WRITE_H
#define PM_TABLE_MANIFEST_WRITE_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "format/format_reader.h"
#include "io/fileio.h"
#include "table/index_manifest.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"

typedef struct pm_manifest_write_options
{
	pm_file_format format;		/* manifest.format: AVRO, PARQUET or ORC */
	const char *compression;	/* manifest.compression; NULL = "zstd" */
} pm_manifest_write_options;

/*
 * Write `entries` (in order) to a new <table_path>/manifest/manifest-<uuid>-0
 * (the directory is created if missing) and describe it in *meta as Java's
 * ManifestEntryWriter does (file name and size, added/deleted counts,
 * partition stats over `partition_type` in full mode, schema id = the
 * largest of the files' or `schema_id` when there are none, bucket and
 * level ranges, row id range when every file has a first row id; with no
 * entries the ranges are Java's MAX/MIN sentinels), all in arena.
 * In an entry, NULL min/max keys and NULL stats min/max values are written
 * as Java's EMPTY_ROW (DataFileMeta.EMPTY_MIN_KEY, SimpleStats.EMPTY_STATS);
 * the other "absent" conventions are pm_data_file_meta's (-1 counts and
 * file source, has_* flags, NULL strings). A file of the table written by
 * Java 1.4.2 has the same Avro schema byte for byte.
 */
extern pm_code pm_manifest_file_write(const pm_env *env, pm_fileio *io, const char *table_path,
									  const pm_manifest_write_options *options,
									  const pm_type *partition_type, int64_t schema_id,
									  const pm_manifest_entry *entries, int count,
									  pm_arena *arena, pm_manifest_file_meta *meta,
									  pm_error *err);

/*
 * Write `metas` (in order) to a new <table_path>/manifest/manifest-list-<uuid>-0
 * (a fresh uuid per list); its name (in arena) and size are returned.
 * _MIN/_MAX_BUCKET, _LEVEL and _ROW_ID are NULL where the has_* flag is false.
 */
extern pm_code pm_manifest_list_write(const pm_env *env, pm_fileio *io, const char *table_path,
									  const pm_manifest_write_options *options,
									  const pm_manifest_file_meta *metas, int count,
									  pm_arena *arena, const char **file_name,
									  int64_t *file_size, pm_error *err);

/*
 * Write `entries` (the full index state of a snapshot: every entry's kind is
 * ADD) to a new <table_path>/manifest/index-manifest-<uuid>-0 as Java
 * 1.4.2's IndexManifestFile.writeWithoutRolling does (_VERSION 1 then
 * IndexManifestEntry.SCHEMA; _GLOBAL_INDEX is written NULL); its name (in
 * arena) and size are returned. An entry's nranges < 0 writes
 * _DELETIONS_VECTORS_RANGES NULL; a range's cardinality < 0 writes NULL.
 */
extern pm_code pm_index_manifest_write(const pm_env *env, pm_fileio *io, const char *table_path,
									   const pm_manifest_write_options *options,
									   const pm_index_manifest_entry *entries, int count,
									   pm_arena *arena, const char **file_name,
									   int64_t *file_size, pm_error *err);

#endif							/* PM_TABLE_MANIFEST_WRITE_H */
