/*-------------------------------------------------------------------------
 * bsi_index_write.c
 *	  The "bsi" file index writer (bsi_index_write.h).
 *-------------------------------------------------------------------------
 */
#include "index/bsi_index_write.h"

#include <stdlib.h>
#include <string.h>

#include "index/roaring_write.h"

bool
pm_bsi_index_write_supported(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return true;
		case PM_TYPE_DECIMAL:
			/* any precision: BitSliceIndexBitmapFileIndex maps toUnscaledLong */
			return true;
		default:
			return false;
	}
}

/* The key bytes (big endian, 1/2/4/8 bytes) as a signed long. */
static int64_t
key_long(const pm_index_value *v)
{
	uint64_t	x = 0;

	for (int32_t i = 0; i < v->len; i++)
		x = (x << 8) | v->key[i];
	if (v->len < 8 && (v->key[0] & 0x80))
		x |= ~UINT64_C(0) << (8 * v->len);
	return (int64_t) x;
}

static void
put_be64(pm_byte_buffer *b, uint64_t v)
{
	uint8_t		t[8];

	pm_put_be32(t, (uint32_t) (v >> 32));
	pm_put_be32(t + 4, (uint32_t) v);
	pm_byte_buffer_append(b, t, 8);
}

/*
 * BitSliceIndexRoaringBitmap.Appender(0, max).serialize over the rows of
 * one side (mag[k]: the magnitude of value k, side[k]: whether it is on
 * this side). rows and rmag are scratch of nrows entries: the side's rows
 * and their magnitudes, so that each slice is one branch-free pass.
 */
static void
write_side(const pm_index_values *iv, const uint64_t *mag, const bool *side, uint64_t max,
		   uint32_t *rows, uint64_t *rmag, uint32_t *slice, pm_byte_buffer *out)
{
	int			nslices = max == 0 ? 0 : 64 - __builtin_clzll(max);
	size_t		n = 0;
	uint8_t		t[4];

	pm_byte_buffer_append(out, (const uint8_t *) "\x01", 1);
	put_be64(out, 0);			/* min: StatsCollectList starts at 0 */
	put_be64(out, max);
	for (int64_t r = 0; r < iv->nrows; r++)
	{
		int32_t		k = iv->row_ids[r];

		if (k >= 0 && side[k])
		{
			rows[n] = (uint32_t) r;
			rmag[n++] = mag[k];
		}
	}
	pm_roaring_write(out, rows, n);
	pm_put_be32(t, (uint32_t) nslices);
	pm_byte_buffer_append(out, t, 4);
	for (int s = 0; s < nslices; s++)
	{
		size_t		m = 0;

		for (size_t i = 0; i < n; i++)
		{
			slice[m] = rows[i];
			m += (size_t) ((rmag[i] >> s) & 1);
		}
		pm_roaring_write(out, slice, m);
	}
}

pm_code
pm_bsi_index_write(const pm_index_values *iv, pm_byte_buffer *out, pm_error *err)
{
	uint64_t   *mag;
	bool	   *pos,
			   *neg;
	uint32_t   *rows,
			   *slice;
	uint64_t   *rmag;
	uint64_t	pmax = 0,
				nmax = 0;
	bool		has_pos = false,
				has_neg = false;
	uint8_t		t[4];

	if (iv->nrows > INT32_MAX)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "bsi index: more than 2^31 - 1 rows");
	mag = pm_arena_alloc(iv->arena, sizeof(uint64_t) * (size_t) (iv->nvalues + 1));
	pos = pm_arena_alloc(iv->arena, sizeof(bool) * (size_t) (iv->nvalues + 1));
	neg = pm_arena_alloc(iv->arena, sizeof(bool) * (size_t) (iv->nvalues + 1));
	rows = pm_arena_alloc(iv->arena, sizeof(uint32_t) * (size_t) (iv->nrows + 1));
	slice = pm_arena_alloc(iv->arena, sizeof(uint32_t) * (size_t) (iv->nrows + 1));
	rmag = pm_arena_alloc(iv->arena, sizeof(uint64_t) * (size_t) (iv->nrows + 1));
	if (mag == NULL || pos == NULL || neg == NULL || rows == NULL || slice == NULL ||
		rmag == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int32_t k = 0; k < iv->nvalues; k++)
	{
		int64_t		v = key_long(&iv->values[k]);

		if (v == INT64_MIN)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "bsi index: the value -9223372036854775808 has no absolute value (Java refuses it too)");
		pos[k] = v >= 0;
		neg[k] = v < 0;
		mag[k] = v >= 0 ? (uint64_t) v : (uint64_t) -v;
		if (pos[k])
		{
			has_pos = true;
			if (mag[k] > pmax)
				pmax = mag[k];
		}
		else
		{
			has_neg = true;
			if (mag[k] > nmax)
				nmax = mag[k];
		}
	}
	pm_byte_buffer_append(out, (const uint8_t *) "\x01", 1);
	pm_put_be32(t, (uint32_t) iv->nrows);
	pm_byte_buffer_append(out, t, 4);
	pm_byte_buffer_append(out, (const uint8_t *) (has_pos ? "\x01" : "\x00"), 1);
	if (has_pos)
		write_side(iv, mag, pos, pmax, rows, rmag, slice, out);
	pm_byte_buffer_append(out, (const uint8_t *) (has_neg ? "\x01" : "\x00"), 1);
	if (has_neg)
		write_side(iv, mag, neg, nmax, rows, rmag, slice, out);
	if (out->failed)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}
