/*-------------------------------------------------------------------------
 * range_bitmap_index_write.c
 *	  The "range-bitmap" file index writer (range_bitmap_index_write.h).
 *-------------------------------------------------------------------------
 */
#include "index/range_bitmap_index_write.h"

#include <stdlib.h>
#include <string.h>

#include "index/roaring_write.h"

bool
pm_range_bitmap_write_supported(const pm_type *type)
{
	if ((type->id == PM_TYPE_TIMESTAMP || type->id == PM_TYPE_TIMESTAMP_LTZ) &&
		type->precision > 6)
		return false;
	/* RangeBitmap's DecimalKeyFactory: precision <= 18 */
	return pm_index_values_supported(type) &&
		(type->id != PM_TYPE_DECIMAL || type->precision <= 18);
}

int64_t
pm_range_bitmap_default_chunk_size(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
			return 0;
		default:
			return 16 * 1024;
	}
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

/* ChunkedDictionary.Appender over the sorted keys. */
static void
write_dictionary(const pm_index_values *iv, const int32_t *sorted, int64_t chunk_size,
				 pm_byte_buffer *out)
{
	bool		varlen = iv->type->id == PM_TYPE_CHAR || iv->type->id == PM_TYPE_VARCHAR;
	pm_byte_buffer offsets,
				chunks,
				keys;
	int32_t		nchunks = 0;
	int32_t		keys_offset = 0;
	int32_t		i = 0;

	pm_byte_buffer_init(&offsets, out->env);
	pm_byte_buffer_init(&chunks, out->env);
	pm_byte_buffer_init(&keys, out->env);
	while (i < iv->nvalues)
	{
		const pm_index_value *first = &iv->values[sorted[i]];
		int32_t		code = i;
		int32_t		size = 0;
		int64_t		used = 0;	/* key bytes */
		int64_t		offs_used = 0;	/* variable: offset bytes */
		size_t		keys_start = keys.len;
		int32_t		j = i + 1;

		/* tryAdd: fixed keys while they fit; variable keys and their offsets too */
		for (; j < iv->nvalues; j++)
		{
			int32_t		len = iv->values[sorted[j]].len;

			if (used + len > chunk_size || (varlen && offs_used + 4 > chunk_size))
				break;
			used += len;
			offs_used += varlen ? 4 : 0;
			size++;
		}
		if (varlen)
		{
			int32_t		cur = 0;

			for (int32_t k = i + 1; k < j; k++)
			{
				put_i32(&keys, cur);
				cur += iv->values[sorted[k]].len;
			}
		}
		for (int32_t k = i + 1; k < j; k++)
			pm_byte_buffer_append(&keys, iv->values[sorted[k]].key,
								  (size_t) iv->values[sorted[k]].len);
		put_i32(&offsets, (int32_t) chunks.len);
		pm_byte_buffer_put_u8(&chunks, 1);
		pm_byte_buffer_append(&chunks, first->key, (size_t) first->len);
		put_i32(&chunks, code);
		put_i32(&chunks, keys_offset);
		put_i32(&chunks, size);
		if (varlen)
		{
			put_i32(&chunks, 4 * size);
			put_i32(&chunks, (int32_t) used);
		}
		else
		{
			put_i32(&chunks, (int32_t) used);
			put_i32(&chunks, first->len);
		}
		keys_offset += (int32_t) (keys.len - keys_start);
		nchunks++;
		i = j;
	}
	put_i32(out, 1 + 4 + 4 + 4);
	pm_byte_buffer_put_u8(out, 1);
	put_i32(out, nchunks);
	put_i32(out, (int32_t) offsets.len);
	put_i32(out, (int32_t) chunks.len);
	pm_byte_buffer_append(out, offsets.data, offsets.len);
	pm_byte_buffer_append(out, chunks.data, chunks.len);
	pm_byte_buffer_append(out, keys.data, keys.len);
	if (offsets.failed || chunks.failed || keys.failed)
		out->failed = true;
	pm_byte_buffer_free(&offsets);
	pm_byte_buffer_free(&chunks);
	pm_byte_buffer_free(&keys);
}

pm_code
pm_range_bitmap_index_write(const pm_index_values *iv, int64_t chunk_size, pm_byte_buffer *out,
							pm_error *err)
{
	int32_t		n = iv->nvalues;
	int32_t    *sorted;
	int32_t    *code_of;
	uint32_t   *rows;
	int		nslices;
	pm_byte_buffer dict,
				bsi,
				bodies;
	size_t		header;
	int32_t		max_code = n - 1;
	pm_code		rc = PM_OK;

	if (chunk_size < 0 || chunk_size > INT32_MAX)
		return pm_fail(err, PM_ERR_INVALID, "range-bitmap index: invalid chunk-size %lld",
					   (long long) chunk_size);
	sorted = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 1));
	code_of = pm_arena_alloc(iv->arena, sizeof(int32_t) * ((size_t) n + 1));
	rows = pm_arena_alloc(iv->arena, sizeof(uint32_t) * ((size_t) iv->nrows + 1));
	if (sorted == NULL || code_of == NULL || rows == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int32_t k = 0; k < n; k++)
		sorted[k] = k;
	sort_iv = iv;
	qsort(sorted, (size_t) n, sizeof(int32_t), cmp_value);
	for (int32_t c = 0; c < n; c++)
		code_of[sorted[c]] = c;
	/* BitSliceIndexBitmap.Appender(0, cardinality - 1) */
	nslices = 64 - (max_code == 0 ? 64 : __builtin_clzll((uint64_t) (int64_t) max_code));
	if (max_code < 0)
		nslices = 64;			/* numberOfLeadingZeros(-1L) = 0 */
	if (nslices < 1)
		nslices = 1;

	pm_byte_buffer_init(&dict, out->env);
	pm_byte_buffer_init(&bsi, out->env);
	pm_byte_buffer_init(&bodies, out->env);
	write_dictionary(iv, sorted, chunk_size, &dict);

	/* bit slices: EBM, then slice i = rows whose code has bit i */
	{
		size_t		m = 0;
		size_t		ebm_len;
		int32_t		off = 0;

		for (int64_t r = 0; r < iv->nrows; r++)
			if (iv->row_ids[r] >= 0)
				rows[m++] = (uint32_t) r;
		ebm_len = pm_roaring_write(&bodies, rows, m);
		put_i32(&bsi, 1 + 1 + 4 + 4 + 8 * nslices);
		pm_byte_buffer_put_u8(&bsi, 1);
		pm_byte_buffer_put_u8(&bsi, (uint8_t) nslices);
		put_i32(&bsi, (int32_t) ebm_len);
		put_i32(&bsi, 8 * nslices);
		for (int s = 0; s < nslices; s++)
		{
			size_t		len;

			m = 0;
			if (s < 32)
				for (int64_t r = 0; r < iv->nrows; r++)
					if (iv->row_ids[r] >= 0 && (code_of[iv->row_ids[r]] >> s) & 1)
						rows[m++] = (uint32_t) r;
			len = pm_roaring_write(&bodies, rows, m);
			put_i32(&bsi, off);
			put_i32(&bsi, (int32_t) len);
			off += (int32_t) len;
		}
		pm_byte_buffer_append(&bsi, bodies.data, bodies.len);
	}

	/* RangeBitmap: header length, header, dictionary, bit slices */
	header = 1 + 4 + 4 + 4;
	if (n > 0)
		header += (size_t) iv->values[sorted[0]].len + (size_t) iv->values[sorted[n - 1]].len;
	put_i32(out, (int32_t) header);
	pm_byte_buffer_put_u8(out, 1);
	put_i32(out, (int32_t) iv->nrows);
	put_i32(out, n);
	if (n > 0)
	{
		pm_byte_buffer_append(out, iv->values[sorted[0]].key, (size_t) iv->values[sorted[0]].len);
		pm_byte_buffer_append(out, iv->values[sorted[n - 1]].key,
							  (size_t) iv->values[sorted[n - 1]].len);
	}
	put_i32(out, (int32_t) dict.len);
	pm_byte_buffer_append(out, dict.data, dict.len);
	pm_byte_buffer_append(out, bsi.data, bsi.len);
	if (out->failed || dict.failed || bsi.failed || bodies.failed)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	pm_byte_buffer_free(&dict);
	pm_byte_buffer_free(&bsi);
	pm_byte_buffer_free(&bodies);
	return rc;
}
