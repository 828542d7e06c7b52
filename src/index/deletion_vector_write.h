/*-------------------------------------------------------------------------
 * deletion_vector_write.h
 *	  The deletion vectors of one bucket while a writer changes them, and
 *	  the DV index file that publishes them (Java's BucketedDvMaintainer +
 *	  DeletionVectorsIndexFile.writeSingleFile).
 *
 * A maintainer maps data file names to deleted row positions: restored
 * from the bucket's current DVs, then changed by compaction (a new
 * deletion of an older row; the DV of a rewritten input file dropped).
 * When something changed, the whole bucket is written as one new index
 * file (a 1-byte file when no DV is left), which replaces the bucket's
 * previous one in the index manifest.
 *
 * File layout (paimon-format-data.md §5.1): version byte 1, then per data
 * file [4 BE length][magic][portable RoaringBitmap after runOptimize]
 * [4 BE CRC-32 of magic + bitmap]. 32-bit DVs: magic BE, the manifest's
 * length = magic + bitmap; 64-bit DVs (deletion-vectors.bitmap64): magic
 * LE, int64 LE bitmap count, per key int32 LE key + bitmap, length = the
 * whole blob. Blobs are in the order Java's HashMap<String, DV> iterates
 * its keys (String.hashCode, table capacity as the map grew), so that a
 * file equals Java's for the same deletions.
 *
 * Spec: apache/paimon release-1.4.2 deletionvectors/BucketedDvMaintainer,
 * DeletionVectorsIndexFile, DeletionVectorIndexFileWriter,
 * DeletionFileWriter, BitmapDeletionVector, Bitmap64DeletionVector;
 * utils/FileStorePathFactory (index-<uuid>-<n> in <table>/index/).
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_DELETION_VECTOR_WRITE_H
#define PM_INDEX_DELETION_VECTOR_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "index/deletion_vector.h"
#include "io/fileio.h"

typedef struct pm_dv_maintainer pm_dv_maintainer;

/* An empty maintainer (bitmap64: write 64-bit DVs). */
extern pm_code pm_dv_maintainer_create(const pm_env *env, bool bitmap64,
									   pm_dv_maintainer **out, pm_error *err);

extern void pm_dv_maintainer_free(pm_dv_maintainer *m);

/*
 * Restore: data_file's DV as the bucket's index file holds it (call for
 * every DV restored, before any change; the map's capacity is then sized
 * as Java's HashMap copy constructor sizes it).
 */
extern pm_code pm_dv_maintainer_restore(pm_dv_maintainer *m, const char *data_file,
										const pm_deletion_vector *dv, pm_error *err);

/*
 * notifyNewDeletion: mark row pos of data_file deleted. PM_ERR_INVALID for
 * a position a 32-bit DV cannot hold (Java refuses files of more rows).
 */
extern pm_code pm_dv_maintainer_delete(pm_dv_maintainer *m, const char *data_file, int64_t pos,
									   pm_error *err);

/* removeDeletionVectorOf: data_file was rewritten by a compaction. */
extern void pm_dv_maintainer_remove(pm_dv_maintainer *m, const char *data_file);

/* Is row pos of data_file deleted? */
extern bool pm_dv_maintainer_contains(const pm_dv_maintainer *m, const char *data_file,
									  int64_t pos);

/* The number of positions of data_file deleted (0 if it has no DV). */
extern int64_t pm_dv_maintainer_cardinality(const pm_dv_maintainer *m, const char *data_file);

/* Whether a deletion or removal changed something since the restore / last write. */
extern bool pm_dv_maintainer_modified(const pm_dv_maintainer *m);

/* Where one data file's DV lies in a written index file (DeletionVectorMeta). */
typedef struct pm_dv_written_range
{
	const char *data_file;
	int32_t		offset;
	int32_t		length;
	int64_t		cardinality;
} pm_dv_written_range;

/* A written DV index file (IndexFileMeta of type DELETION_VECTORS). */
typedef struct pm_dv_index_file
{
	const char *file_name;		/* index-<uuid>-<n> */
	const char *path;			/* index_dir/file_name */
	int64_t		file_size;
	int			nranges;		/* = _ROW_COUNT */
	pm_dv_written_range *ranges;	/* in file order */
} pm_dv_index_file;

/*
 * Serialize every DV of the bucket into a new file index_dir/index-<uuid>-
 * <*counter> (the directory is created; *counter advanced), durable before
 * this returns; out and its strings in arena. Clears the modified flag.
 */
extern pm_code pm_dv_maintainer_write(pm_dv_maintainer *m, pm_fileio *io, const char *index_dir,
									  const char *uuid, int64_t *counter, pm_arena *arena,
									  pm_dv_index_file *out, pm_error *err);

/*
 * One DV blob (length prefix to CRC) of the given sorted positions, as
 * Java's serializeTo writes it; *len_field = the length the index manifest
 * records. For tests and the writer above. *out in arena.
 */
extern pm_code pm_dv_serialize(const int64_t *positions, int64_t n, bool bitmap64,
							   pm_arena *arena, uint8_t **out, size_t *out_len,
							   int32_t *len_field, pm_error *err);

#endif							/* PM_INDEX_DELETION_VECTOR_WRITE_H */
