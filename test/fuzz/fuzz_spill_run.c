/*-------------------------------------------------------------------------
 * fuzz_spill_run.c
 *	  libFuzzer harness of pm_spill_run_decode_block (src/lsm/spill_run.c).
 *
 * Input: a 4-byte little-endian row count, then one block's raw bytes,
 * decoded as a batch of ROW<a INT, b BIGINT, s VARCHAR, d DECIMAL(20, 2),
 * t TIMESTAMP(9), arr ARRAY<INT>, m MAP<VARCHAR, INT>, r ROW<x INT,
 * y VARCHAR>>. Property: a block that decodes holds valid vectors
 * (pm_vector_valid) whose every value can be read; one that does not is a
 * clear error.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "lsm/key_compare.h"
#include "lsm/spill_run.h"

static const pm_type *
row_type(pm_arena *arena)
{
	const pm_type *it = pm_type_new(arena, PM_TYPE_INT, true);
	const pm_type *st = pm_type_new(arena, PM_TYPE_VARCHAR, true);
	pm_type    *ts = pm_type_new(arena, PM_TYPE_TIMESTAMP, true);
	pm_field	inner[2] = {{.id = 10, .name = "x", .type = it}, {.id = 11, .name = "y", .type = st}};
	pm_field	f[8] = {
		{.id = 0, .name = "a", .type = pm_type_new(arena, PM_TYPE_INT, false)},
		{.id = 1, .name = "b", .type = pm_type_new(arena, PM_TYPE_BIGINT, true)},
		{.id = 2, .name = "s", .type = st},
		{.id = 3, .name = "d", .type = pm_type_new_decimal(arena, 20, 2, true)},
		{.id = 4, .name = "t", .type = ts},
		{.id = 5, .name = "arr", .type = pm_type_new_array(arena, it, true)},
		{.id = 6, .name = "m", .type = pm_type_new_map(arena, st, it, true)},
		{.id = 7, .name = "r", .type = pm_type_new_row(arena, inner, 2, true)},
	};

	ts->precision = 9;
	return pm_type_new_row(arena, f, 8, false);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *arena;
	const pm_type *rt;
	uint8_t    *raw;
	int64_t		nrows;
	pm_batch	batch;
	pm_error	err;

	if (size < 4)
		return 0;
	nrows = (int64_t) ((uint32_t) data[0] | (uint32_t) data[1] << 8 |
					   (uint32_t) data[2] << 16 | (uint32_t) data[3] << 24);
	arena = pm_arena_create(pm_env_default());
	rt = row_type(arena);
	raw = malloc(size - 4 + 1);	/* malloc: 16-byte aligned, as the reader's buffer */
	memcpy(raw, data + 4, size - 4);
	pm_error_clear(&err);
	if (pm_spill_run_decode_block(rt, raw, size - 4, nrows, arena, &batch, &err) == PM_OK)
	{
		if (batch.nrows != nrows || batch.ncols != 8)
			abort();
		for (int c = 0; c < batch.ncols; c++)
		{
			if (!pm_vector_valid(&batch.cols[c], nrows))
				abort();
			for (int64_t i = 0; i < nrows; i++)
				if (pm_key_compare_value(&batch.cols[c], i, &batch.cols[c], i) != 0)
					abort();
		}
	}
	else if (err.code == PM_OK || err.message[0] == '\0')
		abort();
	free(raw);
	pm_arena_destroy(arena);
	return 0;
}
