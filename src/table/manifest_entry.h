/*-------------------------------------------------------------------------
 * manifest_entry.h
 *	  Manifest files: ManifestEntry + DataFileMeta records, and merging
 *	  ADD/DELETE entries into the live file set.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §6; apache/paimon
 * ManifestEntry.java, DataFileMeta.java, FileEntry.java (mergeEntries).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_MANIFEST_ENTRY_H
#define PM_TABLE_MANIFEST_ENTRY_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "io/fileio.h"
#include "table/split.h"

typedef enum pm_file_kind
{
	PM_FILE_KIND_ADD = 0,		/* on disk: never renumber */
	PM_FILE_KIND_DELETE = 1
} pm_file_kind;

typedef struct pm_manifest_entry
{
	pm_file_kind kind;
	const uint8_t *partition;	/* serialized BinaryRow */
	int32_t		partition_len;
	int32_t		bucket;
	int32_t		total_buckets;
	pm_data_file_meta file;		/* path / format not resolved yet */
} pm_manifest_entry;

/*
 * Append the entries of the manifest at `path` to *entries (grown in
 * arena; *count and *cap updated).
 */
extern pm_code pm_manifest_entries_read(const pm_env *env, pm_fileio *io, const char *path,
										pm_arena *arena, pm_manifest_entry **entries,
										int *count, int *cap, pm_error *err);

/*
 * The same through the metadata cache (common/meta_cache.h), keyed by path
 * and the file size the manifest list records. A hit appends copies in
 * arena.
 */
extern pm_code pm_manifest_entries_read_cached(const pm_env *env, pm_fileio *io,
											   const char *path, int64_t size,
											   pm_arena *arena, pm_manifest_entry **entries,
											   int *count, int *cap, pm_error *err);

/*
 * Merge entries (in manifest order) by identifier (partition, bucket,
 * level, file name, extra files, embedded index, external path): the live
 * ADD entries, in order, as pointers into `entries`. An ADD of a live
 * identifier is PM_ERR_CORRUPT; unmatched DELETEs are dropped.
 */
extern pm_code pm_manifest_entries_merge(pm_manifest_entry *entries, int count,
										 pm_arena *arena, pm_manifest_entry ***live,
										 int *nlive, pm_error *err);

#endif							/* PM_TABLE_MANIFEST_ENTRY_H */
