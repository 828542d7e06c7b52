/*-------------------------------------------------------------------------
 * range_bitmap_index.c
 *	  The "range-bitmap" file index reader.
 *
 * Open decodes the whole dictionary into one array of keys indexed by code
 * and checks it against the spec (bounds, dense codes, keys strictly
 * ascending in Java's order, min/max) and the bit slices. A leaf is then
 * two binary searches: lo = the number of keys below the literal, hi = the
 * number at or below it (as Postgres compares: the keys' Java order is a
 * refinement of it, e.g. -0.0 < 0.0 are one Postgres value, so equal keys
 * are neighbours), and a range of codes to rows by the bit slices:
 *	 EQ [lo, hi)  LT [0, lo)  LE [0, hi)  GT [hi, card)  GE [lo, card).
 *-------------------------------------------------------------------------
 */
#include "index/range_bitmap_index.h"

#include <math.h>
#include <string.h>

#include "common/compare.h"
#include "index/bsi_index.h"
#include "index/file_index.h"

#define RANGE_BITMAP_VERSION	1

typedef enum key_kind
{
	KEY_BOOL,
	KEY_INT8,
	KEY_INT16,
	KEY_INT32,
	KEY_INT64,
	KEY_FLOAT,
	KEY_DOUBLE,
	KEY_STRING
} key_kind;

/* One decoded key: integers (and booleans) in i, floats in f, strings in s/len. */
typedef struct rb_key
{
	union
	{
		int64_t		i;
		double		f;
		const uint8_t *s;
	}			u;
	int32_t		len;
} rb_key;

struct pm_range_bitmap_index
{
	pm_resource resource;		/* tracked by env: bitmaps are CRoaring's malloc */
	const pm_env *env;
	const pm_type *type;
	key_kind	kind;
	int			key_size;		/* fixed-width keys; 0 for strings */
	int64_t		unit;			/* microseconds per key unit (TIMESTAMP), else 1 */
	int32_t		rows;
	int32_t		card;
	rb_key	   *keys;			/* card keys, by code */
	pm_bit_slices bs;
};

/* A bounded big-endian reader over one region. */
typedef struct rd
{
	const uint8_t *p;
	size_t		n;
	size_t		pos;
} rd;

static uint32_t
be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

static bool
rd_u8(rd *r, uint8_t *v)
{
	if (r->n - r->pos < 1)
		return false;
	*v = r->p[r->pos++];
	return true;
}

static bool
rd_i32(rd *r, int32_t *v)
{
	if (r->n - r->pos < 4)
		return false;
	*v = (int32_t) be32(r->p + r->pos);
	r->pos += 4;
	return true;
}

/* A non-negative i32. */
static bool
rd_len(rd *r, int32_t *v)
{
	return rd_i32(r, v) && *v >= 0;
}

/* One key of the index's kind (KeyFactory deserializers). */
static bool
rd_key(rd *r, key_kind kind, rb_key *k)
{
	const uint8_t *p = r->p + r->pos;
	size_t		avail = r->n - r->pos;
	uint64_t	bits;

	k->len = 0;
	switch (kind)
	{
		case KEY_BOOL:
		case KEY_INT8:
			if (avail < 1)
				return false;
			k->u.i = kind == KEY_BOOL ? (p[0] == 1) : (int8_t) p[0];
			r->pos += 1;
			return true;
		case KEY_INT16:
			if (avail < 2)
				return false;
			k->u.i = (int16_t) (((uint16_t) p[0] << 8) | p[1]);
			r->pos += 2;
			return true;
		case KEY_INT32:
			if (avail < 4)
				return false;
			k->u.i = (int32_t) be32(p);
			r->pos += 4;
			return true;
		case KEY_FLOAT:
			{
				uint32_t	b32;
				float		fl;

				if (avail < 4)
					return false;
				b32 = be32(p);
				memcpy(&fl, &b32, 4);
				k->u.f = fl;
				r->pos += 4;
				return true;
			}
		case KEY_INT64:
		case KEY_DOUBLE:
			if (avail < 8)
				return false;
			bits = ((uint64_t) be32(p) << 32) | be32(p + 4);
			if (kind == KEY_INT64)
				k->u.i = (int64_t) bits;
			else
				memcpy(&k->u.f, &bits, 8);
			r->pos += 8;
			return true;
		case KEY_STRING:
			{
				int32_t		len;

				if (avail < 4)
					return false;
				len = (int32_t) be32(p);
				if (len < 0 || (size_t) len > avail - 4)
					return false;
				k->u.s = p + 4;
				k->len = len;
				r->pos += 4 + (size_t) len;
				return true;
			}
	}
	return false;
}


/* The writer's order (Java comparators: Float.compare, BinaryString.compareTo). */
static int
java_cmp(key_kind kind, const rb_key *a, const rb_key *b)
{
	switch (kind)
	{
		case KEY_FLOAT:
		case KEY_DOUBLE:
			return pm_cmp_double_java(a->u.f, b->u.f);
		case KEY_STRING:
			return pm_cmp_bytes(a->u.s, (size_t) a->len, b->u.s, (size_t) b->len);
		default:
			return a->u.i < b->u.i ? -1 : a->u.i > b->u.i ? 1 : 0;
	}
}

/* Key versus literal as Postgres compares them (table/predicate.h). */
static int
pg_cmp(const pm_range_bitmap_index *idx, const rb_key *k, const pm_value *lit)
{
	switch (idx->type->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			return pm_cmp_double_pg(k->u.f, lit->u.f64);	/* lit is no NaN */
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return pm_cmp_bytes(k->u.s, (size_t) k->len, lit->u.bytes.ptr,
								(size_t) lit->u.bytes.len);
		case PM_TYPE_DECIMAL:
			return (pm_int128) k->u.i < lit->u.i128 ? -1 : (pm_int128) k->u.i > lit->u.i128 ? 1 : 0;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				pm_int128	us = (pm_int128) k->u.i * idx->unit;

				if (us != lit->u.i64)
					return us < lit->u.i64 ? -1 : 1;
				return lit->nanos > 0 ? -1 : 0;
			}
		default:
			return k->u.i < lit->u.i64 ? -1 : k->u.i > lit->u.i64 ? 1 : 0;
	}
}

static bool
literal_usable(const pm_range_bitmap_index *idx, const pm_value *lit)
{
	if (lit->is_null)
		return false;
	switch (idx->type->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			return !isnan(lit->u.f64);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return lit->u.bytes.len >= 0 && (lit->u.bytes.len == 0 || lit->u.bytes.ptr != NULL);
		default:
			return true;
	}
}

/* Key kind of a column type (KeyFactory.create); false: Java refuses it. */
static bool
key_kind_of(const pm_type *t, key_kind *kind, int *size, int64_t *unit)
{
	*unit = 1;
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			*kind = KEY_BOOL, *size = 1;
			return true;
		case PM_TYPE_TINYINT:
			*kind = KEY_INT8, *size = 1;
			return true;
		case PM_TYPE_SMALLINT:
			*kind = KEY_INT16, *size = 2;
			return true;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			*kind = KEY_INT32, *size = 4;
			return true;
		case PM_TYPE_BIGINT:
			*kind = KEY_INT64, *size = 8;
			return true;
		case PM_TYPE_DECIMAL:
			*kind = KEY_INT64, *size = 8;
			return t->precision <= 18;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			*kind = KEY_INT64, *size = 8;
			*unit = t->precision <= 3 ? 1000 : 1;
			return t->precision <= 6;
		case PM_TYPE_FLOAT:
			*kind = KEY_FLOAT, *size = 4;
			return true;
		case PM_TYPE_DOUBLE:
			*kind = KEY_DOUBLE, *size = 8;
			return true;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			*kind = KEY_STRING, *size = 0;
			return true;
		default:
			return false;
	}
}

#define CORRUPT(...) pm_fail(err, PM_ERR_CORRUPT, "range-bitmap index: " __VA_ARGS__)

/* One chunk (FixedLengthChunk / VariableLengthChunk) into idx->keys. */
static pm_code
read_chunk(pm_range_bitmap_index *idx, rd *h, const uint8_t *keys_area, size_t keys_len,
		   int32_t *next_code, pm_error *err)
{
	uint8_t		version;
	rb_key		first;
	int32_t		code,
				keys_offset,
				size,
				a,
				b;

	if (!rd_u8(h, &version) || !rd_key(h, idx->kind, &first) || !rd_i32(h, &code) ||
		!rd_len(h, &keys_offset) || !rd_len(h, &size) || !rd_len(h, &a) || !rd_len(h, &b))
		return CORRUPT("truncated dictionary chunk");
	if (version != 1)
		return CORRUPT("dictionary chunk version %d is not 1", version);
	if (code != *next_code || (int64_t) code + 1 + size > idx->card)
		return CORRUPT("dictionary chunk codes %d..%lld do not follow %d of %d", code,
					   (long long) code + size, *next_code, idx->card);
	idx->keys[code] = first;
	if (idx->kind != KEY_STRING)
	{
		/* a = keysLength, b = fixedLength */
		rd			k;

		if (b != idx->key_size)
			return CORRUPT("dictionary key width %d is not %d", b, idx->key_size);
		if ((size_t) keys_offset > keys_len || (size_t) a > keys_len - keys_offset ||
			(int64_t) size * b > a)
			return CORRUPT("dictionary chunk keys out of bounds");
		k.p = keys_area + keys_offset;
		k.n = (size_t) a;
		k.pos = 0;
		for (int32_t j = 0; j < size; j++)
			if (!rd_key(&k, idx->kind, &idx->keys[code + 1 + j]))
				return CORRUPT("truncated dictionary key");
	}
	else
	{
		/* a = offsetsLength, b = keysLength */
		const uint8_t *offs;

		if ((size_t) keys_offset > keys_len || (size_t) a > keys_len - keys_offset ||
			(size_t) b > keys_len - keys_offset - a || (int64_t) size * 4 > a)
			return CORRUPT("dictionary chunk keys out of bounds");
		offs = keys_area + keys_offset;
		for (int32_t j = 0; j < size; j++)
		{
			int32_t		o = (int32_t) be32(offs + 4 * (size_t) j);
			rd			k;

			if (o < 0 || o > b)
				return CORRUPT("dictionary key offset %d out of bounds", o);
			k.p = offs + a + o;
			k.n = (size_t) (b - o);
			k.pos = 0;
			if (!rd_key(&k, idx->kind, &idx->keys[code + 1 + j]))
				return CORRUPT("truncated dictionary key");
		}
	}
	*next_code = code + 1 + size;
	return PM_OK;
}

/* ChunkedDictionary at buf[0..len) into idx->keys. */
static pm_code
read_dictionary(pm_range_bitmap_index *idx, const uint8_t *buf, size_t len, pm_error *err)
{
	rd			r = {buf, len, 0};
	rd			h;
	int32_t		hl,
				nchunks,
				offsets_len,
				chunks_len,
				next = 0;
	uint8_t		version;
	const uint8_t *offsets,
			   *chunks,
			   *keys_area;
	size_t		keys_len;

	if (!rd_len(&r, &hl) || (size_t) hl > len - 4)
		return CORRUPT("dictionary header out of bounds");
	h.p = buf + 4;
	h.n = (size_t) hl;
	h.pos = 0;
	if (!rd_u8(&h, &version) || !rd_len(&h, &nchunks) || !rd_len(&h, &offsets_len) ||
		!rd_len(&h, &chunks_len))
		return CORRUPT("truncated dictionary header");
	if (version != 1)
		return CORRUPT("dictionary version %d is not 1", version);
	if ((int64_t) nchunks * 4 > offsets_len ||
		(int64_t) offsets_len + chunks_len > (int64_t) (len - 4 - hl))
		return CORRUPT("dictionary of %d chunks out of bounds", nchunks);
	if ((nchunks == 0) != (idx->card == 0))
		return CORRUPT("%d dictionary chunks for %d keys", nchunks, idx->card);
	offsets = buf + 4 + hl;
	chunks = offsets + offsets_len;
	keys_area = chunks + chunks_len;
	keys_len = len - 4 - hl - (size_t) offsets_len - (size_t) chunks_len;
	for (int32_t i = 0; i < nchunks; i++)
	{
		int32_t		start = (int32_t) be32(offsets + 4 * (size_t) i);
		int32_t		end = 4 * (int64_t) (i + 1) == offsets_len ? chunks_len
			: (int32_t) be32(offsets + 4 * (size_t) (i + 1));
		rd			c;

		if (start < 0 || start > end || end > chunks_len)
			return CORRUPT("dictionary chunk %d out of bounds", i);
		c.p = chunks + start;
		c.n = (size_t) (end - start);
		c.pos = 0;
		PM_TRY(read_chunk(idx, &c, keys_area, keys_len, &next, err));
	}
	if (next != idx->card)
		return CORRUPT("dictionary holds %d keys, header says %d", next, idx->card);
	for (int32_t c = 1; c < idx->card; c++)
		if (java_cmp(idx->kind, &idx->keys[c - 1], &idx->keys[c]) >= 0)
			return CORRUPT("dictionary keys %d and %d out of order", c - 1, c);
	return PM_OK;
}

/* BitSliceIndexBitmap at buf[0..len) into idx->bs. */
static pm_code
read_slices(pm_range_bitmap_index *idx, const uint8_t *buf, size_t len, pm_error *err)
{
	rd			r = {buf, len, 0};
	rd			h;
	int32_t		hl,
				ebm_len,
				indexes_len;
	uint8_t		version,
				nslices;
	const uint8_t *body;
	size_t		body_len,
				used;
	int			need;

	if (!rd_len(&r, &hl) || (size_t) hl > len - 4)
		return CORRUPT("bit slice header out of bounds");
	h.p = buf + 4;
	h.n = (size_t) hl;
	h.pos = 0;
	if (!rd_u8(&h, &version) || !rd_u8(&h, &nslices) || !rd_len(&h, &ebm_len) ||
		!rd_len(&h, &indexes_len))
		return CORRUPT("truncated bit slice header");
	if (version != 1)
		return CORRUPT("bit slice version %d is not 1", version);
	/* codes 0..card-1 need the bit length of card - 1 (at least 1 slice) */
	need = idx->card <= 1 ? 1 : 32 - __builtin_clz((uint32_t) (idx->card - 1));
	if (nslices > 64 || (idx->card > 0 && nslices < need))
		return CORRUPT("%d bit slices for %d keys", nslices, idx->card);
	if ((int64_t) nslices * 8 > indexes_len || (size_t) indexes_len > h.n - h.pos)
		return CORRUPT("bit slice indexes out of bounds");
	body = buf + 4 + hl;
	body_len = len - 4 - hl;
	if ((size_t) ebm_len > body_len)
		return CORRUPT("existence bitmap out of bounds");
	PM_TRY(pm_file_index_read_bitmap(body, ebm_len, idx->rows, "range-bitmap index", &idx->bs.ebm,
								 &used, err));
	if (nslices > 0)
	{
		idx->bs.slices = pm_alloc(idx->env, nslices * sizeof(roaring_bitmap_t *));
		if (idx->bs.slices == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		memset(idx->bs.slices, 0, nslices * sizeof(roaring_bitmap_t *));
	}
	for (int i = 0; i < nslices; i++)
	{
		int32_t		off,
					slen;

		if (!rd_len(&h, &off) || !rd_len(&h, &slen) ||
			(size_t) off > body_len - ebm_len || (size_t) slen > body_len - ebm_len - off)
			return CORRUPT("bit slice %d out of bounds", i);
		PM_TRY(pm_file_index_read_bitmap(body + ebm_len + off, slen, idx->rows, "range-bitmap index",
									 &idx->bs.slices[i], &used, err));
		idx->bs.nslices = i + 1;
	}
	idx->bs.nslices = nslices;
	return PM_OK;
}

void
pm_range_bitmap_index_free(pm_range_bitmap_index *idx)
{
	if (idx == NULL)
		return;
	pm_env_untrack(&idx->resource);
	pm_bit_slices_free(idx->env, &idx->bs);
	pm_free(idx->env, idx->keys);
	pm_free(idx->env, idx);
}

static void
release_range_bitmap(pm_resource *r)
{
	pm_range_bitmap_index_free((pm_range_bitmap_index *) r);
}

static pm_code
decode(pm_range_bitmap_index *idx, const uint8_t *buf, size_t len, pm_error *err)
{
	rd			r = {buf, len, 0};
	rd			h;
	int32_t		hl,
				dict_len;
	uint8_t		version;
	rb_key		min,
				max;
	size_t		dict_start;
	roaring_bitmap_t *beyond;
	bool		bad;

	memset(&min, 0, sizeof(min));
	memset(&max, 0, sizeof(max));
	if (!rd_len(&r, &hl) || (size_t) hl > len - 4)
		return CORRUPT("header out of bounds");
	h.p = buf + 4;
	h.n = (size_t) hl;
	h.pos = 0;
	if (!rd_u8(&h, &version) || !rd_len(&h, &idx->rows) || !rd_len(&h, &idx->card))
		return CORRUPT("truncated header");
	if (version != RANGE_BITMAP_VERSION)
		return CORRUPT("version %d is not %d", version, RANGE_BITMAP_VERSION);
	if (idx->card > 0 && (!rd_key(&h, idx->kind, &min) || !rd_key(&h, idx->kind, &max)))
		return CORRUPT("truncated min/max");
	if (!rd_len(&h, &dict_len))
		return CORRUPT("truncated header");
	dict_start = 4 + (size_t) hl;
	if ((size_t) dict_len > len - dict_start)
		return CORRUPT("dictionary out of bounds");
	/* every key takes at least one byte: bounds the allocation */
	if ((size_t) idx->card > len || idx->card > idx->rows)
		return CORRUPT("%d keys for %d rows in %zu bytes", idx->card, idx->rows, len);
	if (idx->card > 0)
	{
		idx->keys = pm_alloc(idx->env, (size_t) idx->card * sizeof(rb_key));
		if (idx->keys == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	PM_TRY(read_dictionary(idx, buf + dict_start, dict_len, err));
	if (idx->card > 0 &&
		(java_cmp(idx->kind, &min, &idx->keys[0]) != 0 ||
		 java_cmp(idx->kind, &max, &idx->keys[idx->card - 1]) != 0))
		return CORRUPT("min/max differ from the dictionary's first and last keys");
	PM_TRY(read_slices(idx, buf + dict_start + dict_len, len - dict_start - dict_len, err));
	/* every row with a value has a code of the dictionary */
	beyond = pm_bit_slices_range(&idx->bs, (uint64_t) idx->card, UINT64_MAX);
	if (beyond == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	bad = !roaring_bitmap_is_empty(beyond);
	roaring_bitmap_free(beyond);
	if (bad)
		return CORRUPT("a row's code is beyond the %d keys", idx->card);
	return PM_OK;
}

pm_code
pm_range_bitmap_index_open(const pm_env *env, const uint8_t *buf, size_t len,
						   const pm_type *field_type, pm_range_bitmap_index **out,
						   pm_error *err)
{
	pm_range_bitmap_index *idx;
	key_kind	kind;
	int			size;
	int64_t		unit;
	pm_code		rc;

	*out = NULL;
	if (!key_kind_of(field_type, &kind, &size, &unit))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "range-bitmap index on a %s(%d) column is not supported",
					   pm_type_id_name(field_type->id), field_type->precision);
	if (len < 4)
		return CORRUPT("truncated (%zu bytes)", len);
	idx = pm_alloc(env, sizeof(*idx));
	if (idx == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(idx, 0, sizeof(*idx));
	idx->env = env;
	idx->type = field_type;
	idx->kind = kind;
	idx->key_size = size;
	idx->unit = unit;
	idx->resource.release = release_range_bitmap;
	pm_env_track(env, &idx->resource);
	rc = decode(idx, buf, len, err);
	if (rc != PM_OK)
	{
		pm_range_bitmap_index_free(idx);
		return rc;
	}
	*out = idx;
	return PM_OK;
}

/* Number of keys below lit (strict) or at or below it (!strict). */
static int32_t
count_keys(const pm_range_bitmap_index *idx, const pm_value *lit, bool strict)
{
	int32_t		lo = 0,
				hi = idx->card;

	while (lo < hi)
	{
		int32_t		mid = lo + (hi - lo) / 2;
		int			c = pg_cmp(idx, &idx->keys[mid], lit);

		if (c < 0 || (!strict && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Rows whose code is in [a, b). */
static roaring_bitmap_t *
code_rows(const pm_range_bitmap_index *idx, int32_t a, int32_t b)
{
	if (a >= b)
		return roaring_bitmap_create();
	return pm_bit_slices_range(&idx->bs, (uint64_t) a, (uint64_t) b - 1);
}

pm_code
pm_range_bitmap_index_eval(pm_range_bitmap_index *idx, const pm_predicate *leaf,
						   pm_file_index_result *out, pm_error *err)
{
	roaring_bitmap_t *rows = NULL;

	pm_file_index_result_init(out);
	switch (leaf->op)
	{
		case PM_PRED_IS_NULL:
			rows = roaring_bitmap_copy(idx->bs.ebm);
			if (rows != NULL)
				roaring_bitmap_flip_inplace(rows, 0, (uint64_t) idx->rows);
			break;
		case PM_PRED_IS_NOT_NULL:
			rows = roaring_bitmap_copy(idx->bs.ebm);
			break;
		case PM_PRED_IN:
			if (leaf->nliterals < 1)
				return PM_OK;
			for (int k = 0; k < leaf->nliterals; k++)
				if (!literal_usable(idx, &leaf->literals[k]))
					return PM_OK;
			rows = roaring_bitmap_create();
			for (int k = 0; k < leaf->nliterals && rows != NULL; k++)
			{
				roaring_bitmap_t *eq = code_rows(idx, count_keys(idx, &leaf->literals[k], true),
												 count_keys(idx, &leaf->literals[k], false));

				if (eq == NULL)
				{
					roaring_bitmap_free(rows);
					rows = NULL;
					break;
				}
				roaring_bitmap_or_inplace(rows, eq);
				roaring_bitmap_free(eq);
			}
			break;
		case PM_PRED_EQ:
		case PM_PRED_NE:
		case PM_PRED_LT:
		case PM_PRED_LE:
		case PM_PRED_GT:
		case PM_PRED_GE:
			{
				int32_t		below,
							upto;

				if (leaf->nliterals != 1 || !literal_usable(idx, &leaf->literals[0]))
					return PM_OK;
				below = count_keys(idx, &leaf->literals[0], true);
				upto = count_keys(idx, &leaf->literals[0], false);
				if (leaf->op == PM_PRED_EQ)
					rows = code_rows(idx, below, upto);
				else if (leaf->op == PM_PRED_NE)
				{
					roaring_bitmap_t *eq = code_rows(idx, below, upto);

					rows = eq == NULL ? NULL : roaring_bitmap_copy(idx->bs.ebm);
					if (rows != NULL)
						roaring_bitmap_andnot_inplace(rows, eq);
					if (eq != NULL)
						roaring_bitmap_free(eq);
				}
				else if (leaf->op == PM_PRED_LT)
					rows = code_rows(idx, 0, below);
				else if (leaf->op == PM_PRED_LE)
					rows = code_rows(idx, 0, upto);
				else if (leaf->op == PM_PRED_GT)
					rows = code_rows(idx, upto, idx->card);
				else
					rows = code_rows(idx, below, idx->card);
				break;
			}
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
