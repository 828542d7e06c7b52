/*-------------------------------------------------------------------------
 * bitmap_index.c
 *	  Reader of the "bitmap" file index, versions 1 and 2.
 *
 * Body (big endian), after a version byte:
 *	 V1: int32 rowCount | int32 n | bool hasNull | [int32 nullOffset]
 *		 n × (key, int32 offset)				then the bitmaps (bodyStart)
 *	 V2: int32 rowCount | int32 n | bool hasNull | [int32 nullOffset, int32 nullLength]
 *		 int32 nblocks | nblocks × (key, int32 blockOffset) | int32 bodyOffset
 *		 blocks at indexBlockStart + blockOffset: int32 m | m × (key, int32 offset, int32 length)
 *		 bitmaps at indexBlockStart + bodyOffset (indexBlockStart = just after bodyOffset)
 * key: BOOLEAN/TINYINT 1 byte, SMALLINT 2, INT/DATE/TIME/FLOAT 4, BIGINT/
 * DOUBLE/TIMESTAMP 8 (epoch millis if precision <= 3, else micros),
 * strings int32 length + bytes. offset < 0: the value's only row is
 * -1 - offset; otherwise a portable RoaringBitmap at bodyStart + offset.
 *
 * Every entry is decoded at open (V2 blocks too) and looked up by a linear
 * scan, which needs no trust in the order Java sorted the keys in.
 *-------------------------------------------------------------------------
 */
#include "index/bitmap_index.h"

#include <string.h>

typedef enum key_kind
{
	KEY_NONE,					/* the index cannot hold this type */
	KEY_BOOL,
	KEY_I8,
	KEY_I16,
	KEY_I32,
	KEY_I64,
	KEY_F32,
	KEY_F64,
	KEY_STRING
} key_kind;

typedef struct bm_entry
{
	uint64_t	key;			/* fixed-width keys: value (bits for floats) */
	const uint8_t *str;			/* KEY_STRING */
	int32_t		strlen;
	int32_t		offset;
	int32_t		length;			/* -1: unknown (read to the end) */
} bm_entry;

struct pm_bitmap_index
{
	const pm_env *env;
	const pm_type *type;
	key_kind	kind;
	const uint8_t *buf;
	size_t		len;
	int			version;
	int32_t		row_count;
	bool		has_null;
	int32_t		null_offset;
	int32_t		null_length;
	size_t		body_start;
	int32_t		nentries;
	bm_entry   *entries;
};

static key_kind
key_kind_of(const pm_type *t)
{
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return KEY_BOOL;
		case PM_TYPE_TINYINT:
			return KEY_I8;
		case PM_TYPE_SMALLINT:
			return KEY_I16;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return KEY_I32;
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return KEY_I64;
		case PM_TYPE_FLOAT:
			return KEY_F32;
		case PM_TYPE_DOUBLE:
			return KEY_F64;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return KEY_STRING;
		default:
			return KEY_NONE;
	}
}

/* A bounds-checked big-endian cursor. */
typedef struct cursor
{
	const uint8_t *p;
	size_t		n;
	size_t		pos;
	bool		bad;
} cursor;

static const uint8_t *
take(cursor *c, size_t k)
{
	const uint8_t *r;

	if (c->bad || c->n - c->pos < k)
	{
		c->bad = true;
		return NULL;
	}
	r = c->p + c->pos;
	c->pos += k;
	return r;
}

static int32_t
get32(cursor *c)
{
	const uint8_t *p = take(c, 4);

	if (p == NULL)
		return 0;
	return (int32_t) ((uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
					  (uint32_t) p[2] << 8 | (uint32_t) p[3]);
}

static uint64_t
get64(cursor *c)
{
	uint64_t	hi = (uint32_t) get32(c);

	return hi << 32 | (uint32_t) get32(c);
}

/* One key of the index's kind into e. */
static void
get_key(cursor *c, key_kind kind, bm_entry *e)
{
	const uint8_t *p;

	e->str = NULL;
	e->strlen = 0;
	e->key = 0;
	switch (kind)
	{
		case KEY_BOOL:
			p = take(c, 1);
			e->key = p != NULL && p[0] != 0;
			break;
		case KEY_I8:
			p = take(c, 1);
			e->key = p != NULL ? (uint64_t) (int64_t) (int8_t) p[0] : 0;
			break;
		case KEY_I16:
			p = take(c, 2);
			e->key = p != NULL ? (uint64_t) (int64_t) (int16_t) ((uint16_t) p[0] << 8 | p[1]) : 0;
			break;
		case KEY_I32:
			e->key = (uint64_t) (int64_t) get32(c);
			break;
		case KEY_F32:
			e->key = (uint32_t) get32(c);
			break;
		case KEY_I64:
		case KEY_F64:
			e->key = get64(c);
			break;
		case KEY_STRING:
			e->strlen = get32(c);
			if (e->strlen < 0)
				c->bad = true;
			else
				e->str = take(c, (size_t) e->strlen);
			break;
		case KEY_NONE:
			c->bad = true;
			break;
	}
}

static pm_code
parse(pm_bitmap_index *idx, pm_error *err)
{
	cursor		c = {idx->buf, idx->len, 0, false};
	const uint8_t *v = take(&c, 1);
	int32_t		n;

	if (v == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "empty bitmap index");
	idx->version = v[0];
	if (idx->version != 1 && idx->version != 2)
		return pm_fail(err, idx->version > 2 ? PM_ERR_UNSUPPORTED : PM_ERR_CORRUPT,
					   "bitmap index version %d is not supported", idx->version);
	idx->row_count = get32(&c);
	n = get32(&c);
	v = take(&c, 1);
	idx->has_null = v != NULL && v[0] != 0;
	idx->null_length = -1;
	if (idx->has_null)
	{
		idx->null_offset = get32(&c);
		if (idx->version == 2)
			idx->null_length = get32(&c);
	}
	if (c.bad)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated bitmap index");
	/* every entry takes at least 5 bytes (a 1-byte key and an offset) */
	if (idx->row_count < 0 || n < 0 || (size_t) n > (idx->len - c.pos) / 5)
		return pm_fail(err, PM_ERR_CORRUPT, "bitmap index counts out of range (%d rows, %d values)",
					   idx->row_count, n);
	if (n > 0)
	{
		idx->entries = pm_alloc(idx->env, sizeof(bm_entry) * (size_t) n);
		if (idx->entries == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a bitmap index");
	}

	if (idx->version == 1)
	{
		for (int32_t i = 0; i < n && !c.bad; i++)
		{
			get_key(&c, idx->kind, &idx->entries[i]);
			idx->entries[i].offset = get32(&c);
			idx->entries[i].length = -1;
		}
		idx->nentries = n;
		idx->body_start = c.pos;
	}
	else
	{
		int32_t		nblocks = get32(&c);
		size_t		block_keys,
					index_block_start;
		int32_t		body_offset;

		if (c.bad || nblocks < 0 || (size_t) nblocks > (idx->len - c.pos) / 5)
			return pm_fail(err, PM_ERR_CORRUPT, "bitmap index block count out of range");
		block_keys = c.pos;
		/* skip the block keys to find where the blocks start */
		for (int32_t b = 0; b < nblocks && !c.bad; b++)
		{
			bm_entry	k;

			get_key(&c, idx->kind, &k);
			(void) get32(&c);
		}
		body_offset = get32(&c);
		if (c.bad || body_offset < 0 || (size_t) body_offset > idx->len - c.pos)
			return pm_fail(err, PM_ERR_CORRUPT, "truncated bitmap index");
		index_block_start = c.pos;
		idx->body_start = index_block_start + (size_t) body_offset;

		c.pos = block_keys;
		for (int32_t b = 0; b < nblocks && !c.bad; b++)
		{
			bm_entry	k;
			int32_t		block_offset;
			cursor		bc;
			int32_t		m;

			get_key(&c, idx->kind, &k);
			block_offset = get32(&c);
			if (c.bad || block_offset < 0 || (size_t) block_offset > idx->len - index_block_start)
				return pm_fail(err, PM_ERR_CORRUPT, "bitmap index block offset out of range");
			bc = (cursor) {idx->buf, idx->len, index_block_start + (size_t) block_offset, false};
			m = get32(&bc);
			if (bc.bad || m < 0 || m > n - idx->nentries)
				return pm_fail(err, PM_ERR_CORRUPT, "bitmap index block of %d values out of range", m);
			for (int32_t i = 0; i < m && !bc.bad; i++)
			{
				bm_entry   *e = &idx->entries[idx->nentries++];

				get_key(&bc, idx->kind, e);
				e->offset = get32(&bc);
				e->length = get32(&bc);
			}
			if (bc.bad)
				c.bad = true;
		}
		if (!c.bad && idx->nentries != n)
			return pm_fail(err, PM_ERR_CORRUPT, "bitmap index blocks hold %d values, not %d",
						   idx->nentries, n);
	}
	if (c.bad)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated bitmap index");
	if (idx->body_start > idx->len)
		return pm_fail(err, PM_ERR_CORRUPT, "bitmap index body outside its bytes");
	return PM_OK;
}

pm_code
pm_bitmap_index_open(const pm_env *env, const uint8_t *buf, size_t len, const pm_type *field_type,
					 pm_bitmap_index **out, pm_error *err)
{
	pm_bitmap_index *idx;
	pm_code		rc;

	*out = NULL;
	idx = pm_alloc(env, sizeof(pm_bitmap_index));
	if (idx == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a bitmap index");
	memset(idx, 0, sizeof(*idx));
	idx->env = env;
	idx->type = field_type;
	idx->kind = key_kind_of(field_type);
	idx->buf = buf;
	idx->len = len;
	if (idx->kind == KEY_NONE)
	{
		/* Java writes no bitmap index for this type: keep no information */
		*out = idx;
		return PM_OK;
	}
	if ((rc = parse(idx, err)) != PM_OK)
	{
		pm_bitmap_index_free(idx);
		return rc;
	}
	*out = idx;
	return PM_OK;
}

int32_t
pm_bitmap_index_row_count(const pm_bitmap_index *idx)
{
	return idx->row_count;
}

/* OR the rows of the bitmap at (offset, length) into acc. */
static pm_code
add_rows(pm_bitmap_index *idx, int32_t offset, int32_t length, roaring_bitmap_t *acc,
		 pm_error *err)
{
	roaring_bitmap_t *bm;
	size_t		at,
				avail;

	if (offset < 0)
	{
		roaring_bitmap_add(acc, (uint32_t) (-1 - (int64_t) offset));
		return PM_OK;
	}
	at = idx->body_start + (size_t) offset;
	if (at > idx->len)
		return pm_fail(err, PM_ERR_CORRUPT, "bitmap index offset %d outside its bytes", offset);
	avail = idx->len - at;
	if (length >= 0)
	{
		if ((size_t) length > avail)
			return pm_fail(err, PM_ERR_CORRUPT, "bitmap index length %d outside its bytes", length);
		avail = (size_t) length;
	}
	PM_TRY(pm_file_index_read_bitmap(idx->buf + at, avail, -1, "bitmap index", &bm, NULL, err));
	roaring_bitmap_or_inplace(acc, bm);
	roaring_bitmap_free(bm);
	return PM_OK;
}

/*
 * The keys a literal equals: up to two (FLOAT/DOUBLE 0 is +0 and -0, two
 * keys in Java's HashMap). Returns the count; 0 = no row can equal it;
 * -1 = cannot decide (no information).
 */
static int
literal_keys(const pm_bitmap_index *idx, const pm_value *lit, bm_entry keys[2])
{
	memset(keys, 0, sizeof(bm_entry) * 2);
	if (lit->is_null)
		return -1;
	switch (idx->kind)
	{
		case KEY_BOOL:
			keys[0].key = lit->u.i64 != 0;
			return 1;
		case KEY_I8:
		case KEY_I16:
		case KEY_I32:
			keys[0].key = (uint64_t) lit->u.i64;
			return 1;
		case KEY_I64:
			if (idx->type->id == PM_TYPE_TIMESTAMP || idx->type->id == PM_TYPE_TIMESTAMP_LTZ)
			{
				if (lit->nanos != 0)
					return -1;
				if (idx->type->precision <= 3)
				{
					if (lit->u.i64 % 1000 != 0)
						return 0;
					keys[0].key = (uint64_t) (lit->u.i64 / 1000);
					return 1;
				}
			}
			keys[0].key = (uint64_t) lit->u.i64;
			return 1;
		case KEY_F32:
			{
				float		f = (float) lit->u.f64;
				uint32_t	bits;

				if (f != f)
					return -1;
				memcpy(&bits, &f, 4);
				keys[0].key = bits;
				if (f == 0)
				{
					keys[0].key = 0;
					keys[1].key = 0x80000000u;
					return 2;
				}
				return 1;
			}
		case KEY_F64:
			{
				double		d = lit->u.f64;
				uint64_t	bits;

				if (d != d)
					return -1;
				memcpy(&bits, &d, 8);
				keys[0].key = bits;
				if (d == 0)
				{
					keys[0].key = 0;
					keys[1].key = UINT64_C(0x8000000000000000);
					return 2;
				}
				return 1;
			}
		case KEY_STRING:
			/* bpchar compares without trailing spaces: leave CHAR alone */
			if (idx->type->id == PM_TYPE_CHAR)
				return -1;
			keys[0].str = lit->u.bytes.ptr;
			keys[0].strlen = lit->u.bytes.len;
			return 1;
		case KEY_NONE:
			return -1;
	}
	return -1;
}

static bool
key_equal(key_kind kind, const bm_entry *a, const bm_entry *b)
{
	if (kind == KEY_STRING)
		return a->strlen == b->strlen &&
			(a->strlen == 0 || memcmp(a->str, b->str, (size_t) a->strlen) == 0);
	return a->key == b->key;
}

/* OR the rows of every literal into acc; false: some literal undecidable. */
static pm_code
rows_of_literals(pm_bitmap_index *idx, const pm_value *lits, int nlits, roaring_bitmap_t *acc,
				 bool *decided, pm_error *err)
{
	*decided = true;
	for (int l = 0; l < nlits; l++)
	{
		bm_entry	keys[2];
		int			nkeys = literal_keys(idx, &lits[l], keys);

		if (nkeys < 0)
		{
			*decided = false;
			return PM_OK;
		}
		for (int k = 0; k < nkeys; k++)
			for (int32_t i = 0; i < idx->nentries; i++)
				if (key_equal(idx->kind, &idx->entries[i], &keys[k]))
				{
					PM_TRY(add_rows(idx, idx->entries[i].offset, idx->entries[i].length, acc, err));
					break;
				}
	}
	return PM_OK;
}

pm_code
pm_bitmap_index_eval(pm_bitmap_index *idx, const pm_predicate *leaf, pm_file_index_result *out,
					 pm_error *err)
{
	roaring_bitmap_t *rows;
	bool		decided = true;
	bool		complement = false;
	pm_code		rc = PM_OK;

	pm_file_index_result_init(out);
	if (idx->kind == KEY_NONE)
		return PM_OK;
	switch (leaf->op)
	{
		case PM_PRED_EQ:
		case PM_PRED_IN:
		case PM_PRED_NE:
		case PM_PRED_IS_NULL:
		case PM_PRED_IS_NOT_NULL:
			break;
		default:
			return PM_OK;
	}
	if ((leaf->op == PM_PRED_EQ || leaf->op == PM_PRED_NE) && leaf->nliterals != 1)
		return PM_OK;

	rows = roaring_bitmap_create();
	if (rows == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory evaluating a bitmap index");
	switch (leaf->op)
	{
		case PM_PRED_NE:
			complement = true;
			/* FALLTHROUGH */
		case PM_PRED_EQ:
		case PM_PRED_IN:
			rc = rows_of_literals(idx, leaf->literals, leaf->nliterals, rows, &decided, err);
			break;
		case PM_PRED_IS_NOT_NULL:
			complement = true;
			/* FALLTHROUGH */
		case PM_PRED_IS_NULL:
			if (idx->has_null)
				rc = add_rows(idx, idx->null_offset, idx->null_length, rows, err);
			break;
		default:
			break;
	}
	if (rc != PM_OK || !decided)
	{
		roaring_bitmap_free(rows);
		return rc;
	}
	if (complement)
		roaring_bitmap_flip_inplace(rows, 0, (uint64_t) idx->row_count);
	if (roaring_bitmap_is_empty(rows))
	{
		roaring_bitmap_free(rows);
		out->skip = true;
	}
	else
		out->rows = rows;
	return PM_OK;
}

void
pm_bitmap_index_free(pm_bitmap_index *idx)
{
	if (idx == NULL)
		return;
	pm_free(idx->env, idx->entries);
	pm_free(idx->env, idx);
}
