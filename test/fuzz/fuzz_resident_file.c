/*-------------------------------------------------------------------------
 * fuzz_resident_file.c
 *	  libFuzzer harness of a resident file's slots (src/table/resident_file.c):
 *	  pm_resident_col_open, then every accessor over the rows it admits.
 *
 * Input: a byte (bit 0: the slot, 0 keys, 1 rows), a 4-byte little-endian
 * header length, the header block, then the payload: as a page-cache
 * entry of the shared page store holds them. The table: f0 INT (the key),
 * f1 VARCHAR, f2 BIGINT, f3 DECIMAL(20, 2), f4 TIMESTAMP(9), f5 BOOLEAN
 * (a key slot is read as each integer type: a BIGINT key spans its whole
 * range).
 * Property: a slot that opens answers every row (the first 64) without a
 * read outside its bytes: a key found is at a row holding it, a value
 * copied is a valid vector of one value; one that does not open is never
 * read.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/vector.h"
#include "table/resident_file.h"

#define NFIELDS 6

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *arena;
	const pm_type *types[NFIELDS];
	const pm_type *keys[4];		/* the key slot's integer types */
	pm_resident_col c;
	uint8_t    *meta;
	uint8_t    *payload;
	size_t		meta_len;
	int64_t		nrows = 1;
	int			slot;

	if (size < 5)
		return 0;
	slot = data[0] & 1;
	meta_len = (size_t) ((uint32_t) data[1] | (uint32_t) data[2] << 8 |
						 (uint32_t) data[3] << 16 | (uint32_t) data[4] << 24);
	if (meta_len > size - 5)
		return 0;
	/* malloc'd copies: 16-byte aligned, as the cache's entries */
	meta = malloc(meta_len + 1);
	payload = malloc(size - 5 - meta_len + 8);
	memcpy(meta, data + 5, meta_len);
	memcpy(payload, data + 5 + meta_len, size - 5 - meta_len);
	if (meta_len >= 16)
		memcpy(&nrows, meta + 8, sizeof(nrows));
	arena = pm_arena_create(pm_env_default());
	types[0] = pm_type_new(arena, PM_TYPE_INT, false);
	types[1] = pm_type_new(arena, PM_TYPE_VARCHAR, true);
	types[2] = pm_type_new(arena, PM_TYPE_BIGINT, true);
	types[3] = pm_type_new_decimal(arena, 20, 2, true);
	types[4] = pm_type_new(arena, PM_TYPE_TIMESTAMP, true);
	((pm_type *) types[4])->precision = 9;
	types[5] = pm_type_new(arena, PM_TYPE_BOOLEAN, true);
	keys[0] = pm_type_new(arena, PM_TYPE_TINYINT, false);
	keys[1] = pm_type_new(arena, PM_TYPE_SMALLINT, false);
	keys[2] = types[0];
	keys[3] = pm_type_new(arena, PM_TYPE_BIGINT, false);
	if (pm_resident_col_open(slot, meta, meta_len, payload, size - 5 - meta_len, nrows, NFIELDS,
							 &c))
	{
		for (int64_t row = 0; row < nrows && row < 64; row++)
		{
			pm_vector	v;

			if (slot == PM_RESIDENT_SLOT_KEY)
			{
				/* the key in whichever integer type the slot holds */
				for (int w = 0; w < 4; w++)
				{
					int64_t		key;
					int64_t		found;
					pm_vector	x;

					if (!pm_resident_copy_value(&c, 0, keys[w], row, &v, arena))
						continue;
					if (!pm_vector_valid(&v, 1))
						abort();
					key = pm_vector_int64_at(&v, 0);
					found = pm_resident_col_find(&c, key);
					if (found >= nrows || found < -1)
						abort();
					if (found >= 0 &&
						(!pm_resident_copy_value(&c, 0, keys[w], found, &x, arena) ||
						 pm_vector_int64_at(&x, 0) != key))
						abort();
				}
				(void) pm_resident_col_find(&c, INT64_MIN);
				(void) pm_resident_col_find(&c, INT64_MAX);
				(void) pm_resident_col_find(&c, 0);
				continue;
			}
			(void) pm_resident_row_kind(&c, row);
			for (int f = 0; f < NFIELDS; f++)
				if (pm_resident_copy_value(&c, f, types[f], row, &v, arena) &&
					!pm_vector_valid(&v, 1))
					abort();
		}
		if (slot == PM_RESIDENT_SLOT_ROWS && pm_resident_row_kind(&c, nrows) != -1)
			abort();
	}
	pm_arena_destroy(arena);
	free(meta);
	free(payload);
	return 0;
}
