/*-------------------------------------------------------------------------
 * deletion_vector.h
 *	  Deletion vectors: row positions of one data file that are deleted.
 *
 * A DV index file holds a version byte and then one blob per data file:
 *	 [4 BE length] [4 magic] [bitmap] [4 BE CRC-32 of magic + bitmap]
 * 32-bit DVs: magic 1581511376 big endian, one portable RoaringBitmap.
 * 64-bit DVs: magic 1681511377 little endian, int64 LE count, then per key
 * (ascending) int32 LE key + portable RoaringBitmap of the low 32 bits.
 * The index manifest gives (file, offset, length); offset points at the
 * length prefix; length is (magic + bitmap) for 32-bit DVs, the whole blob
 * for 64-bit ones. Decoding index manifests is the table layer's job.
 *
 * Bitmaps are held by CRoaring (which allocates with its own malloc); the
 * small struct around them comes from the pm_env, which tracks every live
 * DV (pm_env_release_all frees those a caller abandoned). Bitmaps are
 * checked for malformed containers before CRoaring reads them.
 *
 * Spec: ../shared/docs/paimon-format-data.md §5; apache/paimon
 * DeletionVector.java (read), BitmapDeletionVector.java,
 * Bitmap64DeletionVector.java, OptimizedRoaringBitmap64.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_DELETION_VECTOR_H
#define PM_INDEX_DELETION_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "io/fileio.h"

/* On disk: never change. */
#define PM_DV_MAGIC_32		1581511376
#define PM_DV_MAGIC_64		1681511377

typedef struct pm_deletion_vector pm_deletion_vector;

/*
 * Decode one DV blob. buf points at its 4-byte length prefix; len is the
 * number of bytes available from there (at least the whole blob).
 * expected_length is the index manifest's length (-1: do not check).
 * Checks the magic, the sizes and the CRC. Free with _destroy.
 */
extern pm_code pm_deletion_vector_decode(const pm_env *env, const uint8_t *buf, size_t len,
										 int64_t expected_length,
										 pm_deletion_vector **out, pm_error *err);

/*
 * Read the DV at (path, offset, length) through io, as the index manifest
 * gives them (length's meaning per variant, see above).
 */
extern pm_code pm_deletion_vector_read(const pm_env *env, pm_fileio *io, const char *path,
									   int64_t offset, int64_t length,
									   pm_deletion_vector **out, pm_error *err);

extern void pm_deletion_vector_destroy(pm_deletion_vector *dv);

/*
 * Check a decoded DV against its data file: every deleted position below
 * row_count, and as many positions as the index manifest's cardinality
 * (either -1: not checked). PM_ERR_CORRUPT otherwise.
 */
extern pm_code pm_deletion_vector_check(const pm_deletion_vector *dv, int64_t row_count,
										int64_t cardinality, pm_error *err);

/* Is row position pos deleted? (false for negative positions) */
extern bool pm_deletion_vector_contains(const pm_deletion_vector *dv, int64_t pos);

/* Number of deleted positions. */
extern uint64_t pm_deletion_vector_cardinality(const pm_deletion_vector *dv);

/*
 * Call fn(pos, ctx) for every deleted position, ascending, until it
 * returns false (writers restoring a bucket's DVs).
 */
extern void pm_deletion_vector_iterate(const pm_deletion_vector *dv,
									   bool (*fn) (int64_t pos, void *ctx), void *ctx);

/* True for the 64-bit variant. */
extern bool pm_deletion_vector_is_64bit(const pm_deletion_vector *dv);

/*
 * Apply a DV to a batch whose rows are file positions
 * batch->first_row .. first_row + nrows - 1: selected[i] = 1 if row i is
 * kept, 0 if deleted (selected has nrows bytes, caller-owned). Returns the
 * number of rows kept. dv may be NULL (everything kept).
 */
extern int64_t pm_deletion_vector_apply(const pm_deletion_vector *dv, const pm_batch *batch,
										uint8_t *selected);

#endif							/* PM_INDEX_DELETION_VECTOR_H */
