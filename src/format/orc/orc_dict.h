/*-------------------------------------------------------------------------
 * orc_dict.h
 *	  The string dictionary of one column of one ORC stripe, as ORC 1.9's
 *	  StringBaseTreeWriter keeps it: distinct values in arrival order (id),
 *	  the id of every non-null value, and at stripe end the keys in sorted
 *	  order (unsigned bytes, a prefix first: StringRedBlackTree's order).
 *
 * The writer decides once per file whether the column is dictionary
 * encoded (orc_writer.c); while it has not decided, or when it has chosen
 * the dictionary, values go here. Memory: keys are kept once; lookups go
 * through an open-addressing table of ids hashed with ORC's Murmur3.
 *
 * Not an interface for other layers. Must not include Postgres headers.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_DICT_H
#define PM_FORMAT_ORC_ORC_DICT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/byte_buffer.h"
#include "common/env.h"

typedef struct orc_dict
{
	const pm_env *env;
	pm_byte_buffer keys;		/* the distinct values, concatenated */
	pm_byte_buffer key_offsets; /* uint32_t start of each key, and the end */
	pm_byte_buffer rows;		/* int32_t id of every value added */
	int32_t    *slots;			/* id + 1 per slot, 0 = empty */
	uint32_t	nslots;			/* a power of two, 0 before the first key */
	int32_t		nkeys;
	bool		failed;			/* out of memory (sticky until reset) */
} orc_dict;

extern void orc_dict_init(orc_dict *d, const pm_env *env);
/* forget every key and value (keeps the memory) */
extern void orc_dict_reset(orc_dict *d);
extern void orc_dict_free(orc_dict *d);

/* Add one value; false (and d->failed) when out of memory. */
extern bool orc_dict_add(orc_dict *d, const uint8_t *p, int32_t len);

static inline int64_t
orc_dict_nvalues(const orc_dict *d)
{
	return (int64_t) (d->rows.len / sizeof(int32_t));
}

static inline int32_t
orc_dict_value_id(const orc_dict *d, int64_t i)
{
	int32_t		id;

	memcpy(&id, d->rows.data + (size_t) i * sizeof(int32_t), sizeof(id));
	return id;
}

static inline const uint8_t *
orc_dict_key(const orc_dict *d, int32_t id, int32_t *len)
{
	uint32_t	off[2];

	memcpy(off, d->key_offsets.data + (size_t) id * sizeof(uint32_t), sizeof(off));
	*len = (int32_t) (off[1] - off[0]);
	return d->keys.data + off[0];
}

/* bytes held (for the stripe size check) */
static inline int64_t
orc_dict_bytes(const orc_dict *d)
{
	return (int64_t) (d->keys.len + d->key_offsets.len + d->rows.len);
}

/*
 * The keys in sorted order: sorted[r] = the id of rank r, rank[id] = its
 * rank; both hold nkeys entries, allocated by the caller. False when out
 * of memory.
 */
extern bool orc_dict_sort(orc_dict *d, int32_t *sorted, int32_t *rank);

#endif							/* PM_FORMAT_ORC_ORC_DICT_H */
