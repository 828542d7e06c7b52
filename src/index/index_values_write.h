/*-------------------------------------------------------------------------
 * index_values_write.h
 *	  The distinct values of one column of a data file being written and
 *	  which rows hold each: what the bitmap and range-bitmap index writers
 *	  build from.
 *
 * A value is kept as its key bytes, the big-endian form both indexes
 * write (BitmapFileIndexMeta value writer, rangebitmap KeyFactory
 * serializer): BOOLEAN/TINYINT 1 byte, SMALLINT 2, INT/DATE/TIME 4,
 * BIGINT 8, FLOAT/DOUBLE IEEE with NaN canonical (floatToIntBits),
 * TIMESTAMP(_LTZ) 8 (millis if precision <= 3, else micros), DECIMAL 8
 * (unscaled; any precision, a value beyond a long is PM_ERR_INVALID as
 * Java's Decimal.toUnscaledLong fails), CHAR/VARCHAR i32 length + UTF-8. Two values are one key when
 * their key bytes are equal: as Java's HashMap (equals of Float/Double
 * compares floatToIntBits: -0.0 apart from 0.0, NaNs together) and
 * TreeMap (Float.compare) decide.
 *
 * Each row keeps the number of its value in first-seen order (-1: NULL).
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_INDEX_VALUES_WRITE_H
#define PM_INDEX_INDEX_VALUES_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"

typedef struct pm_index_value
{
	const uint8_t *key;
	int32_t		len;
	int32_t		count;			/* rows holding it */
} pm_index_value;

typedef struct pm_index_values
{
	pm_arena   *arena;
	const pm_type *type;
	int32_t    *row_ids;		/* per row: value number, -1 for NULL */
	int64_t		nrows;
	int64_t		rows_cap;
	pm_index_value *values;		/* first-seen order */
	int32_t		nvalues;
	int32_t		values_cap;
	int32_t    *slots;			/* open addressing: value number + 1, 0 empty */
	uint32_t   *slot_hash;
	int32_t		nslots;
	int32_t		nnull;
} pm_index_values;

/* Whether key bytes are defined for this type (see above). */
extern bool pm_index_values_supported(const pm_type *type);

/* Start an empty collection in arena (which holds everything it makes). */
extern void pm_index_values_init(pm_index_values *iv, const pm_type *type, pm_arena *arena);

/* Add the rows [0, n) of v. */
extern pm_code pm_index_values_add(pm_index_values *iv, const pm_vector *v, int64_t n,
								   pm_error *err);

/*
 * The rows of every value, ascending, by counting sort: rows[start[k] ..
 * start[k + 1]) belong to value k (start has nvalues + 1 entries). In
 * arena; NULL on out-of-memory.
 */
extern bool pm_index_values_rows(const pm_index_values *iv, uint32_t **rows, int64_t **start);

/* The Java hashCode of value k as a HashMap key (Integer, Long, BinaryString, ...). */
extern int32_t pm_index_value_java_hash(const pm_index_values *iv, int32_t k);

/* Java's comparator on two keys (BinaryString.compareTo, Float.compare, ...). */
extern int	pm_index_key_compare(const pm_type *type, const uint8_t *a, int32_t alen,
								 const uint8_t *b, int32_t blen);

/* Big-endian helpers the index writers share. */
static inline void
pm_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

static inline uint32_t
pm_get_be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | p[3];
}

static inline uint64_t
pm_get_be64(const uint8_t *p)
{
	return ((uint64_t) pm_get_be32(p) << 32) | pm_get_be32(p + 4);
}

#endif							/* PM_INDEX_INDEX_VALUES_WRITE_H */
