/*-------------------------------------------------------------------------
 * manifest_list.h
 *	  Manifest lists (ManifestFileMeta records) and shared helpers for
 *	  reading Paimon metadata files through the format readers.
 *
 * Metadata files are Avro (any Paimon) or, for tables created with
 * manifest.format=orc/parquet (<= 2.0), ORC/Parquet with the same logical
 * columns; the format is recognised by its magic bytes (§4.1).
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §5; apache/paimon
 * ManifestFileMeta.java, ManifestList.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_MANIFEST_LIST_H
#define PM_TABLE_MANIFEST_LIST_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "table/split.h"

typedef struct pm_manifest_file_meta
{
	const char *file_name;		/* in <table>/manifest/ */
	int64_t		file_size;
	int64_t		num_added_files;
	int64_t		num_deleted_files;
	pm_simple_stats partition_stats;
	int64_t		schema_id;
	bool		has_bucket_range;
	int32_t		min_bucket;
	int32_t		max_bucket;
	bool		has_level_range;
	int32_t		min_level;
	int32_t		max_level;
	bool		has_row_id_range;	/* _MIN_ROW_ID/_MAX_ROW_ID (1.3+) not null */
	int64_t		min_row_id;
	int64_t		max_row_id;
} pm_manifest_file_meta;

/*
 * Read the manifest list at `path` into arena (the list itself, in order).
 * _VERSION other than 2 is PM_ERR_UNSUPPORTED.
 */
extern pm_code pm_manifest_list_read(const pm_env *env, pm_fileio *io, const char *path,
									 pm_arena *arena, pm_manifest_file_meta **out,
									 int *count, pm_error *err);

/*
 * The same through the metadata cache (common/meta_cache.h), keyed by path
 * and file size (-1 when the snapshot does not record it: manifest list
 * names are never reused). A hit copies the cached list into arena.
 */
extern pm_code pm_manifest_list_read_cached(const pm_env *env, pm_fileio *io, const char *path,
											int64_t size, pm_arena *arena,
											pm_manifest_file_meta **out, int *count,
											pm_error *err);

/* Helpers shared with manifest_entry.c: values of row i of a metadata vector. */
extern int64_t pm_meta_vector_int(const pm_vector *v, int64_t i, int64_t if_null);
/* NUL-terminated copy in arena; NULL if the value is null (*nomem on OOM). */
extern char *pm_meta_vector_string(const pm_vector *v, int64_t i, pm_arena *arena, bool *nomem);
/* Copy of bytes in arena; *ptr NULL if null. */
extern bool pm_meta_vector_bytes(const pm_vector *v, int64_t i, pm_arena *arena,
								 const uint8_t **ptr, int32_t *len);
/* ARRAY<STRING> -> n strings (-1 if null). */
extern bool pm_meta_vector_strings(const pm_vector *v, int64_t i, pm_arena *arena,
								   const char ***out, int *n);
/* A SimpleStats ROW<_MIN_VALUES, _MAX_VALUES, _NULL_COUNTS> value. */
extern bool pm_meta_vector_stats(const pm_vector *v, int64_t i, pm_arena *arena,
								 pm_simple_stats *out);

/* Flatten stats (meta_cache.h): into *dst unless measuring (dst NULL). */
struct pm_flat;
extern void pm_simple_stats_flatten(struct pm_flat *f, pm_simple_stats *dst,
									const pm_simple_stats *src);

/* ROW type text of a SimpleStats record as requested from the readers. */
#define PM_SIMPLE_STATS_TYPE \
	"ROW<_MIN_VALUES BYTES, _MAX_VALUES BYTES, _NULL_COUNTS ARRAY<BIGINT>>"

#endif							/* PM_TABLE_MANIFEST_LIST_H */
