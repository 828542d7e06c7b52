/*-------------------------------------------------------------------------
 * file_index.h
 *	  Paimon file indexes (data skipping): the container of one data file's
 *	  indexes and the answer any index kind gives about one predicate leaf.
 *
 * A data file's indexes come in one container (FileIndexFormat v1), either
 * embedded in its manifest entry or in a sidecar "<data file>.index"; it
 * lists per column name the index kinds ("bloom-filter", "bitmap",
 * "range-bitmap", "bsi") and each one's body. Each kind has a reader with
 * the same three calls (see the shape below):
 *	 pm_<kind>_index_open(env, buf, len, field_type, &idx, err)
 *		 decode the body (no copy: buf must outlive idx);
 *	 pm_<kind>_index_eval(idx, leaf, &result, err)
 *		 answer one leaf: EQ, NE, LT, LE, GT, GE, IS_NULL, IS_NOT_NULL, IN;
 *		 a leaf the kind cannot decide (any other op, or a literal it
 *		 cannot hash/compare exactly) answers "no information";
 *	 pm_<kind>_index_free(idx).
 *
 * Answers are conservative: skip only when no row of the file can match,
 * rows only as a superset of the matching rows. The FDW rechecks every
 * qual, so "no information" is always a correct answer.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6; apache/paimon
 * paimon-common org/apache/paimon/fileindex/.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_FILE_INDEX_H
#define PM_INDEX_FILE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <roaring/roaring.h>

#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "table/predicate.h"

/* On disk: never change. */
#define PM_FILE_INDEX_MAGIC		INT64_C(1493475289347502)
#define PM_FILE_INDEX_VERSION	1

/*
 * The answer of one index of one file about one predicate leaf.
 *	 skip = true:		no row of the file can match (rows is NULL);
 *	 rows != NULL:		only these rows (0-based positions in the data
 *						file) may match; owned by the result;
 *	 both unset:		no information (every row may match).
 * Initialize with pm_file_index_result_init, release with _clear.
 */
typedef struct pm_file_index_result
{
	bool		skip;
	roaring_bitmap_t *rows;
} pm_file_index_result;

static inline void
pm_file_index_result_init(pm_file_index_result *r)
{
	r->skip = false;
	r->rows = NULL;
}

/* Free rows (if any) and reset to "no information". */
static inline void
pm_file_index_result_clear(pm_file_index_result *r)
{
	if (r->rows != NULL)
		roaring_bitmap_free(r->rows);
	pm_file_index_result_init(r);
}

/*
 * Deserialize one portable RoaringBitmap (Java's serialized form) of at most
 * n bytes at p, checked by pm_roaring_portable_check first; every value must
 * be below limit (a row count; < 0: no bound); *used = the bytes it took (may
 * be NULL). PM_ERR_CORRUPT naming what if malformed. Free the bitmap with
 * roaring_bitmap_free.
 */
extern pm_code pm_file_index_read_bitmap(const uint8_t *p, size_t n, int64_t limit,
										 const char *what, roaring_bitmap_t **out,
										 size_t *used, pm_error *err);

/* One (column, index kind) entry of a container. */
typedef struct pm_file_index_entry
{
	const char *column;			/* NUL-terminated, as written (modified UTF-8) */
	const char *kind;			/* "bitmap", "bloom-filter", "range-bitmap", "bsi", ... */
	bool		empty;			/* start −1: the writer saw no rows (EmptyFileIndexReader) */
	const uint8_t *body;		/* slice of the container's bytes; NULL if empty */
	size_t		len;
} pm_file_index_entry;

typedef struct pm_file_index pm_file_index;

/*
 * Parse a container (the whole embedded_index field, or a whole .index
 * file). No copy of the bodies: buf must outlive the result. Checks magic,
 * version, head length and that every body lies inside buf
 * (PM_ERR_CORRUPT otherwise).
 */
extern pm_code pm_file_index_open(const pm_env *env, const uint8_t *buf, size_t len,
								  pm_file_index **out, pm_error *err);

extern int	pm_file_index_nentries(const pm_file_index *fi);
extern const pm_file_index_entry *pm_file_index_entry_at(const pm_file_index *fi, int i);

/*
 * Answer one leaf on the column named column (the name in the data file's
 * own schema) whose type is field_type: every index of that column is
 * asked and the answers are intersected (skip wins; row sets intersect).
 * Kinds not built in are "no information". A column without entries is
 * "no information"; an empty entry skips EQ, IN, IS_NOT_NULL, LT..GE.
 * A body that fails to decode is PM_ERR_CORRUPT.
 */
extern pm_code pm_file_index_eval(pm_file_index *fi, const char *column,
								  const pm_type *field_type, const pm_predicate *leaf,
								  pm_file_index_result *out, pm_error *err);

extern void pm_file_index_free(pm_file_index *fi);

#endif							/* PM_INDEX_FILE_INDEX_H */
