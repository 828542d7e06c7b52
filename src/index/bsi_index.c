/*-------------------------------------------------------------------------
 * bsi_index.c
 *	  The "bsi" file index reader, and bit-slice arithmetic on row bitmaps.
 *
 * A leaf becomes a closed range [a, b] of column values (as longs, see
 * bsi_index.h); the positive BSI answers its part >= 0, the negative BSI
 * (which stores |v|) the part < 0, each with O'Neil's "greater than" over
 * the slices. A literal between two representable values (a TIMESTAMP(3)
 * column asked with a microsecond literal) narrows the range instead of
 * being rounded, so every answer is the exact row set.
 *-------------------------------------------------------------------------
 */
#include "index/bsi_index.h"

#include <string.h>

#include "index/file_index.h"
#include "index/roaring_portable.h"

#define BSI_VERSION		1

/* Beyond every long: bounds of open ranges, safe to negate in int128. */
#define VALUE_INF		(((pm_int128) 1) << 100)

struct pm_bsi_index
{
	pm_resource resource;		/* tracked by env: bitmaps are CRoaring's malloc */
	const pm_env *env;
	const pm_type *type;
	int32_t		rows;
	bool		has[2];			/* [0] values >= 0, [1] values < 0 (as |v|) */
	int64_t		min[2];
	pm_bit_slices bs[2];
};

static uint32_t
be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

static uint64_t
be64(const uint8_t *p)
{
	return ((uint64_t) be32(p) << 32) | be32(p + 4);
}

/* ---------------------------------------------------------------------
 * Bit slices
 * ---------------------------------------------------------------------
 */

/* Largest value nslices bits hold. */
static uint64_t
slices_max(const pm_bit_slices *b)
{
	return b->nslices >= 64 ? UINT64_MAX : (((uint64_t) 1) << b->nslices) - 1;
}

/* Rows whose v > c (O'Neil). */
static roaring_bitmap_t *
slices_gt(const pm_bit_slices *b, uint64_t c)
{
	roaring_bitmap_t *state;
	int			start;

	if (c >= slices_max(b))
		return roaring_bitmap_create();
	/* the low run of 1-bits of c: nothing above c is decided there */
	start = __builtin_ctzll(~c);
	state = roaring_bitmap_copy(b->slices[start]);
	if (state == NULL)
		return NULL;
	for (int i = start + 1; i < b->nslices; i++)
	{
		if ((c >> i) & 1)
			roaring_bitmap_and_inplace(state, b->slices[i]);
		else
			roaring_bitmap_or_inplace(state, b->slices[i]);
	}
	roaring_bitmap_and_inplace(state, b->ebm);
	return state;
}

static roaring_bitmap_t *
slices_eq(const pm_bit_slices *b, uint64_t c)
{
	roaring_bitmap_t *state;

	if (c > slices_max(b))
		return roaring_bitmap_create();
	state = roaring_bitmap_copy(b->ebm);
	if (state == NULL)
		return NULL;
	for (int i = 0; i < b->nslices; i++)
	{
		if ((c >> i) & 1)
			roaring_bitmap_and_inplace(state, b->slices[i]);
		else
			roaring_bitmap_andnot_inplace(state, b->slices[i]);
	}
	return state;
}

void
pm_bit_slices_free(const pm_env *env, pm_bit_slices *b)
{
	if (b->ebm != NULL)
		roaring_bitmap_free(b->ebm);
	for (int i = 0; i < b->nslices; i++)
		if (b->slices[i] != NULL)
			roaring_bitmap_free(b->slices[i]);
	pm_free(env, b->slices);
}

roaring_bitmap_t *
pm_bit_slices_range(const pm_bit_slices *b, uint64_t lo, uint64_t hi)
{
	uint64_t	top = slices_max(b);
	roaring_bitmap_t *ge;

	if (lo > hi || lo > top)
		return roaring_bitmap_create();
	if (hi > top)
		hi = top;
	if (lo == hi)
		return slices_eq(b, lo);
	ge = lo == 0 ? roaring_bitmap_copy(b->ebm) : slices_gt(b, lo - 1);
	if (ge != NULL && hi < top)
	{
		roaring_bitmap_t *above = slices_gt(b, hi);

		if (above == NULL)
		{
			roaring_bitmap_free(ge);
			return NULL;
		}
		roaring_bitmap_andnot_inplace(ge, above);
		roaring_bitmap_free(above);
	}
	return ge;
}

/* ---------------------------------------------------------------------
 * Reading
 * ---------------------------------------------------------------------
 */

void
pm_bsi_index_free(pm_bsi_index *idx)
{
	if (idx == NULL)
		return;
	pm_env_untrack(&idx->resource);
	for (int s = 0; s < 2; s++)
		pm_bit_slices_free(idx->env, &idx->bs[s]);
	pm_free(idx->env, idx);
}

static void
release_bsi(pm_resource *r)
{
	pm_bsi_index_free((pm_bsi_index *) r);
}

static bool
bsi_type_supported(const pm_type *t)
{
	switch (t->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
		case PM_TYPE_DECIMAL:
			return true;
		default:
			return false;
	}
}

/* One BSI (BitSliceIndexRoaringBitmap.map) at buf[*pos..len). */
static pm_code
read_bsi(pm_bsi_index *idx, int side, const uint8_t *buf, size_t len, size_t *pos,
		 pm_error *err)
{
	pm_bit_slices *b = &idx->bs[side];
	const char *what = side == 0 ? "bsi index (positive values)" : "bsi index (negative values)";
	size_t		p = *pos,
				used;
	int64_t		min,
				max;
	uint32_t	nslices;
	int			expect;

	if (len - p < 17)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated %s", what);
	if (buf[p] != BSI_VERSION)
		return pm_fail(err, PM_ERR_CORRUPT, "%s version %d is not %d", what, buf[p], BSI_VERSION);
	min = (int64_t) be64(buf + p + 1);
	max = (int64_t) be64(buf + p + 9);
	p += 17;
	if (min < 0 || min > max)
		return pm_fail(err, PM_ERR_CORRUPT, "%s min %lld / max %lld out of order", what,
					   (long long) min, (long long) max);
	idx->min[side] = min;
	PM_TRY(pm_file_index_read_bitmap(buf + p, len - p, idx->rows, what, &b->ebm, &used, err));
	p += used;
	if (len - p < 4)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated %s", what);
	nslices = be32(buf + p);
	p += 4;
	/* the writer's slice count: bit length of max - min */
	expect = max == min ? 0 : 64 - __builtin_clzll((uint64_t) (max - min));
	if (nslices != (uint32_t) expect)
		return pm_fail(err, PM_ERR_CORRUPT, "%s has %u slices, max - min needs %d", what,
					   nslices, expect);
	if (nslices > 0)
	{
		b->slices = pm_alloc(idx->env, nslices * sizeof(roaring_bitmap_t *));
		if (b->slices == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		memset(b->slices, 0, nslices * sizeof(roaring_bitmap_t *));
	}
	for (uint32_t i = 0; i < nslices; i++)
	{
		PM_TRY(pm_file_index_read_bitmap(buf + p, len - p, idx->rows, what, &b->slices[i], &used, err));
		b->nslices = (int) i + 1;
		p += used;
	}
	*pos = p;
	return PM_OK;
}

pm_code
pm_bsi_index_open(const pm_env *env, const uint8_t *buf, size_t len, const pm_type *field_type,
				  pm_bsi_index **out, pm_error *err)
{
	pm_bsi_index *idx;
	size_t		p = 0;
	pm_code		rc = PM_OK;

	*out = NULL;
	if (!bsi_type_supported(field_type))
		return pm_fail(err, PM_ERR_UNSUPPORTED, "bsi index on a %s column is not supported",
					   pm_type_id_name(field_type->id));
	if (len < 6)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated bsi index (%zu bytes)", len);
	if (buf[0] != BSI_VERSION)
		return pm_fail(err, PM_ERR_CORRUPT, "bsi index version %d is not %d", buf[0], BSI_VERSION);
	if ((int32_t) be32(buf + 1) < 0)
		return pm_fail(err, PM_ERR_CORRUPT, "bsi index row count %d is negative",
					   (int32_t) be32(buf + 1));

	idx = pm_alloc(env, sizeof(*idx));
	if (idx == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(idx, 0, sizeof(*idx));
	idx->env = env;
	idx->type = field_type;
	idx->rows = (int32_t) be32(buf + 1);
	idx->resource.release = release_bsi;
	pm_env_track(env, &idx->resource);
	p = 5;

	for (int side = 0; side < 2 && rc == PM_OK; side++)
	{
		if (p >= len)
			rc = pm_fail(err, PM_ERR_CORRUPT, "truncated bsi index");
		else if (buf[p] > 1)
			rc = pm_fail(err, PM_ERR_CORRUPT, "bsi index flag %d is not a boolean", buf[p]);
		else
		{
			idx->has[side] = buf[p++] == 1;
			if (idx->has[side])
				rc = read_bsi(idx, side, buf, len, &p, err);
		}
	}
	if (rc == PM_OK && idx->has[0] && idx->has[1] &&
		roaring_bitmap_intersect(idx->bs[0].ebm, idx->bs[1].ebm))
		rc = pm_fail(err, PM_ERR_CORRUPT, "bsi index gives a row both a positive and a negative value");
	if (rc == PM_OK && idx->has[1] && idx->min[1] == 0)
	{
		/* |v| of a negative value is at least 1: a stored 0 would be no value at all */
		roaring_bitmap_t *zero = pm_bit_slices_range(&idx->bs[1], 0, 0);

		if (zero == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		else if (!roaring_bitmap_is_empty(zero))
			rc = pm_fail(err, PM_ERR_CORRUPT, "bsi index holds a negative value of 0");
		if (zero != NULL)
			roaring_bitmap_free(zero);
	}
	if (rc != PM_OK)
	{
		pm_bsi_index_free(idx);
		return rc;
	}
	*out = idx;
	return PM_OK;
}

/*
 * The literal as a column value (long): *f = floor of it, *exact false when
 * it lies strictly between f and f + 1. False: the index cannot decide it.
 */
static bool
literal_value(const pm_bsi_index *idx, const pm_value *lit, pm_int128 *f, bool *exact)
{
	if (lit->is_null)
		return false;
	*exact = true;
	switch (idx->type->id)
	{
		case PM_TYPE_DECIMAL:
			*f = lit->u.i128;
			return true;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (idx->type->precision <= 3)
			{
				/* millis: floor of the microseconds */
				int64_t		us = lit->u.i64;
				int64_t		ms = us / 1000 - (us % 1000 < 0);

				*f = ms;
				*exact = (pm_int128) ms * 1000 == us && lit->nanos == 0;
				return true;
			}
			*f = lit->u.i64;
			if (lit->nanos != 0)
			{
				/* micros (floor): sub-microsecond digits are not stored */
				if (idx->type->precision > 6)
					return false;
				*exact = false;
			}
			return true;
		default:
			*f = lit->u.i64;
			return true;
	}
}

static void
or_free(roaring_bitmap_t *acc, roaring_bitmap_t *x)
{
	roaring_bitmap_or_inplace(acc, x);
	roaring_bitmap_free(x);
}

/* Rows whose value v has a <= v <= b (NULL on out-of-memory). */
static roaring_bitmap_t *
value_range(const pm_bsi_index *idx, pm_int128 a, pm_int128 b)
{
	roaring_bitmap_t *res = roaring_bitmap_create();

	if (res == NULL || a > b)
		return res;
	for (int side = 0; side < 2; side++)
	{
		pm_int128	lo,
					hi;
		roaring_bitmap_t *part;

		if (!idx->has[side])
			continue;
		if (side == 0)
		{
			if (b < 0)
				continue;
			lo = (a < 0 ? 0 : a) - idx->min[0];
			hi = b - idx->min[0];
		}
		else
		{
			/* v in [a, min(b, -1)] <=> |v| in [-min(b, -1), -a] */
			if (a > -1)
				continue;
			lo = -(b < -1 ? b : -1) - idx->min[1];
			hi = -a - idx->min[1];
		}
		if (hi < 0)
			continue;
		if (lo < 0)
			lo = 0;
		if (lo > (pm_int128) UINT64_MAX)
			continue;
		if (hi > (pm_int128) UINT64_MAX)
			hi = UINT64_MAX;
		part = pm_bit_slices_range(&idx->bs[side], (uint64_t) lo, (uint64_t) hi);
		if (part == NULL)
		{
			roaring_bitmap_free(res);
			return NULL;
		}
		or_free(res, part);
	}
	return res;
}

static roaring_bitmap_t *
not_null(const pm_bsi_index *idx)
{
	roaring_bitmap_t *res = roaring_bitmap_create();

	if (res == NULL)
		return NULL;
	for (int side = 0; side < 2; side++)
		if (idx->has[side])
			roaring_bitmap_or_inplace(res, idx->bs[side].ebm);
	return res;
}

/* Rows equal to one literal (exactness known). */
static roaring_bitmap_t *
equal_rows(const pm_bsi_index *idx, pm_int128 f, bool exact)
{
	return exact ? value_range(idx, f, f) : roaring_bitmap_create();
}

pm_code
pm_bsi_index_eval(pm_bsi_index *idx, const pm_predicate *leaf, pm_file_index_result *out,
				  pm_error *err)
{
	roaring_bitmap_t *rows = NULL;
	pm_int128	f = 0;
	bool		exact = true;

	pm_file_index_result_init(out);
	switch (leaf->op)
	{
		case PM_PRED_IS_NULL:
			rows = not_null(idx);
			if (rows != NULL)
				roaring_bitmap_flip_inplace(rows, 0, (uint64_t) idx->rows);
			break;
		case PM_PRED_IS_NOT_NULL:
			rows = not_null(idx);
			break;
		case PM_PRED_IN:
			if (leaf->nliterals < 1)
				return PM_OK;
			for (int k = 0; k < leaf->nliterals; k++)
				if (!literal_value(idx, &leaf->literals[k], &f, &exact))
					return PM_OK;
			rows = roaring_bitmap_create();
			for (int k = 0; k < leaf->nliterals && rows != NULL; k++)
			{
				roaring_bitmap_t *eq;

				literal_value(idx, &leaf->literals[k], &f, &exact);
				eq = equal_rows(idx, f, exact);
				if (eq == NULL)
				{
					roaring_bitmap_free(rows);
					rows = NULL;
				}
				else
					or_free(rows, eq);
			}
			break;
		case PM_PRED_EQ:
		case PM_PRED_NE:
		case PM_PRED_LT:
		case PM_PRED_LE:
		case PM_PRED_GT:
		case PM_PRED_GE:
			if (leaf->nliterals != 1 || !literal_value(idx, &leaf->literals[0], &f, &exact))
				return PM_OK;
			if (leaf->op == PM_PRED_EQ)
				rows = equal_rows(idx, f, exact);
			else if (leaf->op == PM_PRED_NE)
			{
				rows = not_null(idx);
				if (rows != NULL)
				{
					roaring_bitmap_t *eq = equal_rows(idx, f, exact);

					if (eq == NULL)
					{
						roaring_bitmap_free(rows);
						rows = NULL;
					}
					else
					{
						roaring_bitmap_andnot_inplace(rows, eq);
						roaring_bitmap_free(eq);
					}
				}
			}
			else if (leaf->op == PM_PRED_LT)
				rows = value_range(idx, -VALUE_INF, exact ? f - 1 : f);
			else if (leaf->op == PM_PRED_LE)
				rows = value_range(idx, -VALUE_INF, f);
			else if (leaf->op == PM_PRED_GT)
				rows = value_range(idx, f + 1, VALUE_INF);
			else
				rows = value_range(idx, exact ? f : f + 1, VALUE_INF);
			break;
		default:
			return PM_OK;
	}
	if (rows == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (roaring_bitmap_is_empty(rows))
	{
		roaring_bitmap_free(rows);
		out->skip = true;
	}
	else
		out->rows = rows;
	return PM_OK;
}
