/*-------------------------------------------------------------------------
 * bitmap_index_write.c
 *	  The "bitmap" file index writer (bitmap_index_write.h).
 *-------------------------------------------------------------------------
 */
#include "index/bitmap_index_write.h"

#include <stdlib.h>
#include <string.h>

#include "index/java_hash_map.h"
#include "index/roaring_write.h"

bool
pm_bitmap_index_write_supported(const pm_type *type)
{
	return type->id != PM_TYPE_DECIMAL && pm_index_values_supported(type);
}

static void
put_i32(pm_byte_buffer *b, int32_t v)
{
	uint8_t		t[4];

	pm_put_be32(t, (uint32_t) v);
	pm_byte_buffer_append(b, t, 4);
}

static const pm_index_values *sort_iv;

static int
cmp_value(const void *a, const void *b)
{
	const pm_index_value *x = &sort_iv->values[*(const int32_t *) a];
	const pm_index_value *y = &sort_iv->values[*(const int32_t *) b];

	return pm_index_key_compare(sort_iv->type, x->key, x->len, y->key, y->len);
}

pm_code
pm_bitmap_index_write(const pm_index_values *iv, int version, int64_t block_size,
					  pm_byte_buffer *out, pm_error *err)
{
	const pm_env *env = out->env;
	int32_t		n = iv->nvalues;
	int32_t    *hashes = NULL;
	int32_t    *order = NULL;
	int32_t    *offset = NULL;
	int32_t    *length = NULL;
	uint32_t   *rows;
	int64_t    *start;
	uint32_t   *null_rows = NULL;
	pm_byte_buffer body;
	pm_byte_buffer null_bytes;
	int32_t		null_offset = 0;
	int32_t		off;
	pm_code		rc = PM_OK;

	if (version != 1 && version != 2)
		return pm_fail(err, PM_ERR_INVALID, "invalid bitmap index version: %d", version);
	pm_byte_buffer_init(&body, env);
	pm_byte_buffer_init(&null_bytes, env);
	if (!pm_index_values_rows(iv, &rows, &start) ||
		(hashes = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 1))) == NULL ||
		(order = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 1))) == NULL ||
		(offset = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 1))) == NULL ||
		(length = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 1))) == NULL ||
		(null_rows = pm_arena_alloc(iv->arena, sizeof(uint32_t) * ((size_t) iv->nnull + 1))) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int32_t k = 0; k < n; k++)
		hashes[k] = pm_index_value_java_hash(iv, k);
	if (!pm_java_hash_map_order(env, hashes, n, true, order))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	/* 1. the bitmaps: NULL first (if it has 2 rows or more), then values in map order */
	{
		int64_t		j = 0;

		for (int64_t i = 0; i < iv->nrows; i++)
			if (iv->row_ids[i] < 0)
				null_rows[j++] = (uint32_t) i;
	}
	pm_roaring_write(&null_bytes, null_rows, (size_t) iv->nnull);
	if (iv->nnull == 1)
		null_offset = -1 - (int32_t) null_rows[0];
	off = iv->nnull > 1 ? (int32_t) null_bytes.len : 0;
	if (iv->nnull > 1)
		pm_byte_buffer_append(&body, null_bytes.data, null_bytes.len);
	for (int32_t i = 0; i < n; i++)
	{
		int32_t		k = order[i];
		int64_t		cnt = start[k + 1] - start[k];

		if (cnt == 1)
		{
			offset[k] = -1 - (int32_t) rows[start[k]];
			length[k] = -1;
		}
		else
		{
			size_t		sz = pm_roaring_write(&body, rows + start[k], (size_t) cnt);

			offset[k] = off;
			length[k] = (int32_t) sz;
			off += (int32_t) sz;
		}
	}
	if (body.failed || null_bytes.failed)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}

	/* 2. the meta */
	pm_byte_buffer_put_u8(out, (uint8_t) version);
	put_i32(out, (int32_t) iv->nrows);
	put_i32(out, n);
	pm_byte_buffer_put_u8(out, iv->nnull > 0);
	if (version == 1)
	{
		if (iv->nnull > 0)
			put_i32(out, null_offset);
		for (int32_t i = 0; i < n; i++)
		{
			int32_t		k = order[i];

			pm_byte_buffer_append(out, iv->values[k].key, (size_t) iv->values[k].len);
			put_i32(out, offset[k]);
		}
	}
	else
	{
		int32_t    *sorted = order;	/* reused: map order is no longer needed */
		int32_t		nblocks = 0;
		int32_t    *block_first;
		int32_t    *block_offset;
		int64_t		block_bytes = 4;
		int32_t		block_off = 0;

		if (iv->nnull > 0)
		{
			put_i32(out, null_offset);
			put_i32(out, (int32_t) null_bytes.len);
		}
		for (int32_t k = 0; k < n; k++)
			sorted[k] = k;
		sort_iv = iv;
		qsort(sorted, (size_t) n, sizeof(int32_t), cmp_value);
		block_first = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 2));
		block_offset = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 2));
		if (block_first == NULL || block_offset == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			goto done;
		}
		/* BitmapIndexBlock.tryAdd: 4 + sum(8 + key size) <= index-block-size */
		for (int32_t i = 0; i < n; i++)
		{
			int64_t		e = 8 + iv->values[sorted[i]].len;

			if (4 + e > block_size)
			{
				/* Java: RuntimeException("index fail") */
				rc = pm_fail(err, PM_ERR_INVALID,
							 "bitmap index: a value of %lld bytes does not fit index-block-size %lld",
							 (long long) iv->values[sorted[i]].len, (long long) block_size);
				goto done;
			}
			if (nblocks == 0 || block_bytes + e > block_size)
			{
				if (nblocks > 0)
					block_off += (int32_t) block_bytes;
				block_first[nblocks] = i;
				block_offset[nblocks] = block_off;
				nblocks++;
				block_bytes = 4;
			}
			block_bytes += e;
		}
		block_first[nblocks] = n;
		put_i32(out, nblocks);
		for (int32_t b = 0; b < nblocks; b++)
		{
			const pm_index_value *v = &iv->values[sorted[block_first[b]]];

			pm_byte_buffer_append(out, v->key, (size_t) v->len);
			put_i32(out, block_offset[b]);
		}
		put_i32(out, nblocks > 0 ? block_off + (int32_t) block_bytes : 0);
		for (int32_t b = 0; b < nblocks; b++)
		{
			put_i32(out, block_first[b + 1] - block_first[b]);
			for (int32_t i = block_first[b]; i < block_first[b + 1]; i++)
			{
				int32_t		k = sorted[i];

				pm_byte_buffer_append(out, iv->values[k].key, (size_t) iv->values[k].len);
				put_i32(out, offset[k]);
				put_i32(out, length[k]);
			}
		}
	}
	/* 3. the body */
	pm_byte_buffer_append(out, body.data, body.len);
	if (out->failed)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
done:
	pm_byte_buffer_free(&body);
	pm_byte_buffer_free(&null_bytes);
	return rc;
}
