/*-------------------------------------------------------------------------
 * index_manifest.h
 *	  The index manifest (IndexManifestEntry + IndexFileMeta): where the
 *	  deletion vectors and hash indexes of a snapshot live.
 *
 * The file named by snapshot.indexManifest is the full state (§7.2): no
 * base/delta split, every entry ADD.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §7; apache/paimon
 * IndexManifestEntry.java, IndexFileMeta.java, DeletionVectorMeta.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_INDEX_MANIFEST_H
#define PM_TABLE_INDEX_MANIFEST_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "index/deletion_vector_write.h"
#include "io/fileio.h"

typedef struct pm_dv_range
{
	const char *data_file;		/* f0: data file name */
	int32_t		offset;			/* f1 */
	int32_t		length;			/* f2 */
	int64_t		cardinality;	/* -1 if null */
} pm_dv_range;

typedef struct pm_index_manifest_entry
{
	int			kind;			/* 0 ADD, 1 DELETE */
	const uint8_t *partition;	/* serialized BinaryRow */
	int32_t		partition_len;
	int32_t		bucket;
	const char *index_type;		/* DELETION_VECTORS, HASH, ... */
	const char *file_name;
	int64_t		file_size;
	int64_t		row_count;
	int			nranges;		/* -1: _DELETIONS_VECTORS_RANGES null */
	pm_dv_range *ranges;
	const char *external_path;	/* NULL if none */
	const char *path;			/* a file this process wrote: its local path (to
								 * remove it when the commit fails); NULL if read */
} pm_index_manifest_entry;

/* Read the index manifest at path into arena. */
extern pm_code pm_index_manifest_read(const pm_env *env, pm_fileio *io, const char *path,
									  pm_arena *arena, pm_index_manifest_entry **out,
									  int *count, pm_error *err);

/*
 * *add = the ADD entry of f, a DELETION_VECTORS index file this process
 * wrote (its path kept for removal); ranges in arena. Partition and bucket
 * are left zero for the caller.
 */
extern pm_code pm_index_entry_of_dv_file(const pm_dv_index_file *f, pm_arena *arena,
										 pm_index_manifest_entry *add, pm_error *err);

#endif							/* PM_TABLE_INDEX_MANIFEST_H */
