/*-------------------------------------------------------------------------
 * test_range_bitmap_index.c
 *	  The "range-bitmap" file index reader (src/index/range_bitmap_index.c).
 *
 * Against Java-written bytes: the paimon-cpp vector (INT rows 1, 3, 5, 7,
 * 9, NULL, NULL, 10, as ../shared/docs/paimon-format-data.md §6.7 decodes
 * it) and the corpus tables append_with_rangebitmap (one chunk) and
 * append_with_rangebitmap_multi_chunk (chunk-size 16B), whose answers are
 * compared with the data file's own values for every op and many literals.
 * Against bodies built here the way RangeBitmap.Appender builds them (for
 * types the corpus lacks: strings over many chunks, -0.0/NaN, booleans,
 * timestamps in millis, decimals, all-NULL). Damaged bodies fail cleanly.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "index/range_bitmap_index.h"
#include "io/fileio.h"
#include "range_index_fixture.h"

static pm_arena *arena;

static pm_type *
T(pm_type_id id, int precision)
{
	pm_type    *t = pm_type_new(arena, id, true);

	t->precision = precision;
	return t;
}

static pm_code
eval_rb(void *idx, const pm_predicate *leaf, pm_file_index_result *out, pm_error *err)
{
	return pm_range_bitmap_index_eval(idx, leaf, out, err);
}

static pm_range_bitmap_index *
open_ok(const uint8_t *body, size_t len, const pm_type *t)
{
	pm_range_bitmap_index *idx = NULL;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_range_bitmap_index_open(pm_env_default(), body, len, t, &idx, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	return idx;
}

/* Chunks in a body's dictionary (header length, then the dictionary header). */
static int
dictionary_chunks(const uint8_t *body)
{
	uint32_t	hl = ((uint32_t) body[0] << 24) | (body[1] << 16) | (body[2] << 8) | body[3];
	const uint8_t *d = body + 4 + hl + 4 + 1;

	return (int) (((uint32_t) d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3]);
}

/* Every strict prefix fails as corrupt; every single-bit flip fails or answers within the rows. */
static void
check_damage(const uint8_t *body, size_t len, const pm_type *t)
{
	uint8_t    *copy = malloc(len);
	pm_error	err;
	pm_range_bitmap_index *idx;

	for (size_t n = 0; n < len; n++)
	{
		memcpy(copy, body, n);
		pm_error_clear(&err);
		idx = (pm_range_bitmap_index *) 1;
		assert_int_equal(pm_range_bitmap_index_open(pm_env_default(), copy, n, t, &idx, &err),
						 PM_ERR_CORRUPT);
		assert_null(idx);
	}
	for (size_t bit = 0; bit < len * 8; bit++)
	{
		pm_predicate leaf;
		pm_file_index_result res;
		pm_value	lit;

		memcpy(copy, body, len);
		copy[bit / 8] ^= (uint8_t) (1 << (bit % 8));
		pm_error_clear(&err);
		if (pm_range_bitmap_index_open(pm_env_default(), copy, len, t, &idx, &err) != PM_OK)
		{
			assert_int_not_equal(err.code, PM_OK);
			assert_null(idx);
			continue;
		}
		memset(&leaf, 0, sizeof(leaf));
		memset(&lit, 0, sizeof(lit));
		lit.u.i64 = 5;
		leaf.literals = &lit;
		leaf.nliterals = 1;
		for (int op = PM_PRED_EQ; op <= PM_PRED_IS_NOT_NULL; op++)
		{
			leaf.op = op;
			assert_int_equal(pm_range_bitmap_index_eval(idx, &leaf, &res, &err), PM_OK);
			/* (a flipped row count may widen IS NULL, nothing else) */
			if (res.rows != NULL && op != PM_PRED_IS_NULL)
				assert_true(roaring_bitmap_maximum(res.rows) < 8);
			pm_file_index_result_clear(&res);
		}
		pm_range_bitmap_index_free(idx);
	}
	free(copy);
}

/* ---- Java-written bytes ---------------------------------------------------- */

static void
test_vector(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	uint8_t    *body;
	size_t		len;
	pm_error	err;
	const pm_type *t = T(PM_TYPE_INT, 0);
	pm_value	vals[8];
	const int64_t ints[8] = {1, 3, 5, 7, 9, 0, 0, 10};
	pm_range_bitmap_index *idx;

	unit_require_corpus();
	pm_error_clear(&err);
	assert_int_equal(pm_fileio_read_all(io, unit_corpus_path("vectors/file_index/rangebitmap.index"),
										arena, 1 << 20, &body, &len, &err), PM_OK);
	assert_int_equal(len, 210);
	memset(vals, 0, sizeof(vals));
	for (int i = 0; i < 8; i++)
	{
		vals[i].u.i64 = ints[i];
		vals[i].is_null = i == 5 || i == 6;
	}
	idx = open_ok(body, len, t);
	assert_true(ix_check_all(idx, eval_rb, t, vals, 8, arena) > 100);
	pm_range_bitmap_index_free(idx);
	check_damage(body, len, t);
	pm_local_fileio_destroy(io);
}

static const pm_type *
corpus_row(void)
{
	const char *names[] = {"f0", "f1", "f2", "f3", "f4", "f5"};
	const pm_type_id ids[] = {PM_TYPE_INT, PM_TYPE_BIGINT, PM_TYPE_FLOAT, PM_TYPE_DOUBLE,
	PM_TYPE_DATE, PM_TYPE_VARCHAR};
	pm_field	fields[6];

	for (int i = 0; i < 6; i++)
	{
		pm_type    *t = T(ids[i], 0);

		if (ids[i] == PM_TYPE_VARCHAR)
			t->length = PM_MAX_VARCHAR_LENGTH;
		fields[i].id = i;
		fields[i].name = names[i];
		fields[i].type = t;
		fields[i].description = NULL;
	}
	return pm_type_new_row(arena, fields, 6, false);
}

static void
check_corpus_table(const char *rel, bool multi_chunk)
{
	ix_table	t;

	unit_require_corpus();
	ix_table_load(&t, arena, rel, corpus_row());
	assert_int_equal(t.nrows, 8);
	for (int c = 0; c < 5; c++)
	{
		size_t		len;
		const uint8_t *body = ix_container_body(t.index, t.index_len, t.row->fields[c].name,
												"range-bitmap", &len);
		const pm_type *type = t.row->fields[c].type;
		pm_range_bitmap_index *idx = open_ok(body, len, type);

		/* 7 distinct values: the 16B chunks of the multi-chunk table hold fewer */
		if (multi_chunk)
			assert_true(dictionary_chunks(body) >= 2);
		else
			assert_int_equal(dictionary_chunks(body), 1);
		assert_true(ix_check_all(idx, eval_rb, type, t.values[c], t.nrows, arena) > 100);
		pm_range_bitmap_index_free(idx);
		if (c == 0 || c == 2)
			check_damage(body, len, type);
	}
}

static void
test_corpus_table(void **state)
{
	check_corpus_table("tables/parquet/append_with_rangebitmap.db/append_with_rangebitmap", false);
}

static void
test_corpus_table_multi_chunk(void **state)
{
	check_corpus_table("tables/parquet/append_with_rangebitmap_multi_chunk.db/"
					   "append_with_rangebitmap_multi_chunk", true);
}

/* ---- bodies built as RangeBitmap.Appender builds them ---------------------- */

typedef struct bbuf
{
	uint8_t    *p;
	size_t		n;
	size_t		cap;
} bbuf;

static void
put(bbuf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap)
	{
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
	}
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
put8(bbuf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void
put32(bbuf *b, uint32_t v)
{
	uint8_t		x[4] = {v >> 24, v >> 16, v >> 8, v};

	put(b, x, 4);
}

static void
put_bitmap(bbuf *b, roaring_bitmap_t *bm)
{
	size_t		n;
	char	   *tmp;

	roaring_bitmap_run_optimize(bm);
	n = roaring_bitmap_portable_size_in_bytes(bm);
	tmp = malloc(n);
	roaring_bitmap_portable_serialize(bm, tmp);
	put(b, tmp, n);
	free(tmp);
}

/* The key bytes of value v (KeyFactory serializers). */
static void
put_key(bbuf *b, const pm_type *t, const pm_value *v)
{
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
			put8(b, (uint8_t) v->u.i64);
			break;
		case PM_TYPE_SMALLINT:
			put8(b, (uint8_t) (v->u.i64 >> 8));
			put8(b, (uint8_t) v->u.i64);
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			put32(b, (uint32_t) v->u.i64);
			break;
		case PM_TYPE_FLOAT:
			{
				float		f = (float) v->u.f64;
				uint32_t	bits;

				memcpy(&bits, &f, 4);
				put32(b, bits);
				break;
			}
		case PM_TYPE_DOUBLE:
			{
				uint64_t	bits;

				memcpy(&bits, &v->u.f64, 8);
				put32(b, (uint32_t) (bits >> 32));
				put32(b, (uint32_t) bits);
				break;
			}
		case PM_TYPE_VARCHAR:
			put32(b, (uint32_t) v->u.bytes.len);
			put(b, v->u.bytes.ptr, v->u.bytes.len);
			break;
		default:
			{
				int64_t		k = t->id == PM_TYPE_DECIMAL ? (int64_t) v->u.i128
					: (t->id == PM_TYPE_TIMESTAMP && t->precision <= 3) ? v->u.i64 / 1000
					: v->u.i64;

				put32(b, (uint32_t) ((uint64_t) k >> 32));
				put32(b, (uint32_t) k);
				break;
			}
	}
}

/* Java's order of two values (the TreeMap of the writer). */
static int
java_order(const pm_type *t, const pm_value *a, const pm_value *b)
{
	switch (t->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			if (isnan(a->u.f64) || isnan(b->u.f64))
				return isnan(a->u.f64) == isnan(b->u.f64) ? 0 : isnan(a->u.f64) ? 1 : -1;
			if (a->u.f64 != b->u.f64)
				return a->u.f64 < b->u.f64 ? -1 : 1;
			return (signbit(b->u.f64) != 0) - (signbit(a->u.f64) != 0);
		case PM_TYPE_VARCHAR:
			{
				int			la = a->u.bytes.len,
							lb = b->u.bytes.len;
				int			c = memcmp(a->u.bytes.ptr, b->u.bytes.ptr, la < lb ? la : lb);

				return c != 0 ? (c < 0 ? -1 : 1) : (la < lb ? -1 : la > lb);
			}
		case PM_TYPE_DECIMAL:
			return a->u.i128 < b->u.i128 ? -1 : a->u.i128 > b->u.i128;
		default:
			return a->u.i64 < b->u.i64 ? -1 : a->u.i64 > b->u.i64;
	}
}

static const pm_type *sort_type;

static int
qsort_values(const void *a, const void *b)
{
	return java_order(sort_type, a, b);
}

/*
 * A range-bitmap body for vals (RangeBitmap.Appender.serialize with
 * chunk-size limit): sorted distinct keys, chunked dictionary, bit slices.
 */
static bbuf
build_body(const pm_type *t, const pm_value *vals, int n, int limit)
{
	pm_value   *keys = malloc(sizeof(pm_value) * (n + 1));
	int			card = 0;
	bbuf		out = {0},
				dict = {0},
				offsets = {0},
				chunks = {0},
				keyarea = {0},
				bsi = {0};
	int			nchunks = 0;
	roaring_bitmap_t *ebm = roaring_bitmap_create();
	roaring_bitmap_t *slices[64];
	int			nslices;
	bool		fixed = t->id != PM_TYPE_VARCHAR;

	for (int i = 0; i < n; i++)
		if (!vals[i].is_null)
			keys[card++] = vals[i];
	sort_type = t;
	qsort(keys, card, sizeof(pm_value), qsort_values);
	{
		int			m = 0;

		for (int i = 0; i < card; i++)
			if (m == 0 || java_order(t, &keys[m - 1], &keys[i]) != 0)
				keys[m++] = keys[i];
		card = m;
	}

	/* ChunkedDictionary.Appender */
	for (int k = 0; k < card;)
	{
		bbuf		first = {0},
					koffs = {0},
					kbytes = {0},
					hdr = {0};
		int			code = k,
					size = 0,
					width;

		put_key(&first, t, &keys[k]);
		width = (int) first.n;
		for (k++; k < card; k++)
		{
			bbuf		kb = {0};

			put_key(&kb, t, &keys[k]);
			if (fixed ? (size_t) width > limit - kbytes.n
				: kb.n > limit - kbytes.n || 4 > limit - koffs.n)
			{
				free(kb.p);
				break;
			}
			if (!fixed)
				put32(&koffs, (uint32_t) kbytes.n);
			put(&kbytes, kb.p, kb.n);
			free(kb.p);
			size++;
		}
		put8(&hdr, 1);
		put(&hdr, first.p, first.n);
		put32(&hdr, code);
		put32(&hdr, (uint32_t) keyarea.n);
		put32(&hdr, size);
		if (fixed)
		{
			put32(&hdr, (uint32_t) kbytes.n);
			put32(&hdr, width);
		}
		else
		{
			put32(&hdr, (uint32_t) koffs.n);
			put32(&hdr, (uint32_t) kbytes.n);
		}
		put32(&offsets, (uint32_t) chunks.n);
		put(&chunks, hdr.p, hdr.n);
		put(&keyarea, koffs.p, koffs.n);
		put(&keyarea, kbytes.p, kbytes.n);
		nchunks++;
		free(first.p);
		free(koffs.p);
		free(kbytes.p);
		free(hdr.p);
	}
	put32(&dict, 13);
	put8(&dict, 1);
	put32(&dict, nchunks);
	put32(&dict, (uint32_t) offsets.n);
	put32(&dict, (uint32_t) chunks.n);
	put(&dict, offsets.p, offsets.n);
	put(&dict, chunks.p, chunks.n);
	put(&dict, keyarea.p, keyarea.n);

	/* BitSliceIndexBitmap.Appender(0, card - 1) */
	nslices = card - 1 <= 0 ? (card == 0 ? 64 : 1) : 32 - __builtin_clz((uint32_t) (card - 1));
	for (int i = 0; i < nslices; i++)
		slices[i] = roaring_bitmap_create();
	for (int r = 0; r < n; r++)
	{
		int			code;

		if (vals[r].is_null)
			continue;
		for (code = 0; java_order(t, &keys[code], &vals[r]) != 0; code++)
			;
		roaring_bitmap_add(ebm, r);
		for (int i = 0; i < nslices; i++)
			if ((code >> i) & 1)
				roaring_bitmap_add(slices[i], r);
	}
	{
		bbuf		body = {0},
					ebmb = {0};
		uint32_t	off = 0;

		put_bitmap(&ebmb, ebm);
		put32(&bsi, 10 + 8 * nslices);
		put8(&bsi, 1);
		put8(&bsi, (uint8_t) nslices);
		put32(&bsi, (uint32_t) ebmb.n);
		put32(&bsi, 8 * nslices);
		for (int i = 0; i < nslices; i++)
		{
			size_t		before = body.n;

			put_bitmap(&body, slices[i]);
			put32(&bsi, off);
			put32(&bsi, (uint32_t) (body.n - before));
			off += (uint32_t) (body.n - before);
			roaring_bitmap_free(slices[i]);
		}
		put(&bsi, ebmb.p, ebmb.n);
		put(&bsi, body.p, body.n);
		free(body.p);
		free(ebmb.p);
	}

	/* RangeBitmap header */
	{
		bbuf		h = {0};

		put8(&h, 1);
		put32(&h, n);
		put32(&h, card);
		if (card > 0)
		{
			put_key(&h, t, &keys[0]);
			put_key(&h, t, &keys[card - 1]);
		}
		put32(&h, (uint32_t) dict.n);
		put32(&out, (uint32_t) h.n);
		put(&out, h.p, h.n);
		free(h.p);
	}
	put(&out, dict.p, dict.n);
	put(&out, bsi.p, bsi.n);
	roaring_bitmap_free(ebm);
	free(keys);
	free(dict.p);
	free(offsets.p);
	free(chunks.p);
	free(keyarea.p);
	free(bsi.p);
	return out;
}

static void
check_built(const pm_type *t, const pm_value *vals, int n, int limit, int min_chunks)
{
	bbuf		b = build_body(t, vals, n, limit);
	pm_range_bitmap_index *idx = open_ok(b.p, b.n, t);

	assert_true(dictionary_chunks(b.p) >= min_chunks);
	assert_true(ix_check_all(idx, eval_rb, t, vals, n, arena) > 0);
	pm_range_bitmap_index_free(idx);
	free(b.p);
}

static void
test_strings(void **state)
{
	const char *s[] = {"banana", "", "apple", NULL, "b", "\xff", "apple", "ba", "cherry", "banana",
		"zz", NULL, "a\x00", "\xc3\xa9t\xc3\xa9", "apple pie with a long name", "b"};
	int			n = sizeof(s) / sizeof(s[0]);
	pm_value   *vals = calloc(n, sizeof(pm_value));
	pm_type    *t = T(PM_TYPE_VARCHAR, 0);

	for (int i = 0; i < n; i++)
	{
		vals[i].is_null = s[i] == NULL;
		if (s[i] != NULL)
		{
			vals[i].u.bytes.ptr = (const uint8_t *) s[i];
			vals[i].u.bytes.len = i == 12 ? 2 : (int32_t) strlen(s[i]);
		}
	}
	check_built(t, vals, n, 16 * 1024, 1);
	check_built(t, vals, n, 16, 4); /* a few keys per chunk */
	check_built(t, vals, n, 0, 11); /* one key per chunk (11 distinct) */
	free(vals);
}

static void
test_floats(void **state)
{
	const double d[] = {1.5, -0.0, 0.0, NAN, -2.25, INFINITY, 0.1, -INFINITY, 0.0, -0.0, NAN,
	1e-30, 3.0e38};
	int			n = sizeof(d) / sizeof(d[0]) + 1;
	pm_value   *vals = calloc(n, sizeof(pm_value));

	for (int i = 0; i + 1 < n; i++)
		vals[i].u.f64 = d[i];
	vals[n - 1].is_null = true;
	check_built(T(PM_TYPE_DOUBLE, 0), vals, n, 16 * 1024, 1);
	check_built(T(PM_TYPE_DOUBLE, 0), vals, n, 16, 3);
	for (int i = 0; i + 1 < n; i++)
		vals[i].u.f64 = (float) d[i];
	check_built(T(PM_TYPE_FLOAT, 0), vals, n, 16 * 1024, 1);
	check_built(T(PM_TYPE_FLOAT, 0), vals, n, 8, 4);
	free(vals);
}

static void
test_integers_and_times(void **state)
{
	int			n = 300;
	pm_value   *vals = calloc(n, sizeof(pm_value));
	unsigned	seed = 7;

	/* booleans, one key per chunk (chunk-size 0b, the default for them) */
	for (int i = 0; i < n; i++)
	{
		vals[i].is_null = i % 7 == 3;
		vals[i].u.i64 = (i * 5) % 3 == 0;
	}
	check_built(T(PM_TYPE_BOOLEAN, 0), vals, n, 0, 2);
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = (int8_t) (rand_r(&seed) % 256 - 128);
	check_built(T(PM_TYPE_TINYINT, 0), vals, n, 0, 50);
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = (int16_t) (rand_r(&seed) % 2000 - 1000);
	check_built(T(PM_TYPE_SMALLINT, 0), vals, n, 32, 10);
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = (int64_t) (rand_r(&seed) % 100) * 86400000000LL * 3 - 1000000000000LL +
			(int64_t) (rand_r(&seed) % 1000) * 1000;
	check_built(T(PM_TYPE_TIMESTAMP, 3), vals, n, 64, 3);
	check_built(T(PM_TYPE_TIMESTAMP_LTZ, 6), vals, n, 16 * 1024, 1);
	for (int i = 0; i < n; i++)
		vals[i].u.i128 = (pm_int128) (rand_r(&seed) % 100000) - 50000;
	{
		pm_type    *dec = pm_type_new_decimal(arena, 10, 2, true);

		check_built(dec, vals, n, 40, 10);
	}
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = (int64_t) rand_r(&seed) * (rand_r(&seed) % 2 ? 1 : -1) * 4294967296LL;
	check_built(T(PM_TYPE_BIGINT, 0), vals, n, 16 * 1024, 1);
	free(vals);
}

/* No value at all: cardinality 0, 64 empty slices; and a file of no rows. */
static void
test_all_null_and_empty(void **state)
{
	pm_value	vals[5];

	memset(vals, 0, sizeof(vals));
	for (int i = 0; i < 5; i++)
		vals[i].is_null = true;
	check_built(T(PM_TYPE_INT, 0), vals, 5, 16 * 1024, 0);
	check_built(T(PM_TYPE_VARCHAR, 0), vals, 0, 16 * 1024, 0);
	vals[2].is_null = false;
	vals[2].u.i64 = 42;
	check_built(T(PM_TYPE_INT, 0), vals, 5, 16 * 1024, 1);
}

/* Keys out of order or repeated, min/max that disagree, codes beyond the keys. */
static void
test_inconsistent(void **state)
{
	pm_value	vals[4];
	bbuf		b;
	pm_range_bitmap_index *idx;
	pm_error	err;
	const pm_type *t = T(PM_TYPE_INT, 0);

	memset(vals, 0, sizeof(vals));
	vals[0].u.i64 = 10;
	vals[1].u.i64 = 20;
	vals[2].u.i64 = 30;
	vals[3].u.i64 = 40;
	b = build_body(t, vals, 4, 16 * 1024);
	/* header 4 + 1 + 4 + 4, min at 13, max at 17; dictionary keys follow its chunk header */
	b.p[16] = 11;				/* min 11 != first key 10 */
	pm_error_clear(&err);
	assert_int_equal(pm_range_bitmap_index_open(pm_env_default(), b.p, b.n, t, &idx, &err),
					 PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "min/max"));
	b.p[16] = 10;
	for (size_t i = 0; i + 8 <= b.n; i++)
		if (memcmp(b.p + i, "\0\0\0\x14\0\0\0\x1e", 8) == 0)	/* keys 20, 30 -> 30, 20 */
		{
			b.p[i + 3] = 0x1e;
			b.p[i + 7] = 0x14;
			break;
		}
	pm_error_clear(&err);
	assert_int_equal(pm_range_bitmap_index_open(pm_env_default(), b.p, b.n, t, &idx, &err),
					 PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "out of order"));
	free(b.p);
}

static void
test_unsupported_types(void **state)
{
	pm_range_bitmap_index *idx;
	pm_error	err;
	const pm_type *refused[] = {T(PM_TYPE_BINARY, 0), T(PM_TYPE_VARBINARY, 0),
		pm_type_new_decimal(arena, 19, 0, true), T(PM_TYPE_TIMESTAMP, 7),
	T(PM_TYPE_TIMESTAMP_LTZ, 9), pm_type_new_array(arena, T(PM_TYPE_INT, 0), true)};
	uint8_t		body[16] = {0};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
	{
		pm_error_clear(&err);
		assert_int_equal(pm_range_bitmap_index_open(pm_env_default(), body, sizeof(body),
													refused[i], &idx, &err), PM_ERR_UNSUPPORTED);
		assert_null(idx);
	}
}

/* Open indexes are tracked by their env (CRoaring bitmaps outside the allocator). */
static void
test_tracked_by_env(void **state)
{
	pm_env		env = *pm_env_default();
	pm_resource head;
	pm_value	vals[3];
	bbuf		b;
	pm_range_bitmap_index *idx[2];
	pm_error	err;
	const pm_type *t = T(PM_TYPE_INT, 0);

	memset(vals, 0, sizeof(vals));
	vals[1].u.i64 = 3;
	b = build_body(t, vals, 3, 16 * 1024);
	pm_env_resources_init(&head);
	env.resources = &head;
	pm_error_clear(&err);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pm_range_bitmap_index_open(&env, b.p, b.n, t, &idx[i], &err), PM_OK);
	assert_int_equal(pm_env_tracked_count(&env), 2);
	pm_range_bitmap_index_free(idx[0]);
	assert_int_equal(pm_env_tracked_count(&env), 1);
	pm_env_release_all(&env);	/* ASan: nothing leaks */
	assert_int_equal(pm_env_tracked_count(&env), 0);
	assert_int_equal(pm_range_bitmap_index_open(&env, b.p, b.n - 1, t, &idx[0], &err),
					 PM_ERR_CORRUPT);
	assert_int_equal(pm_env_tracked_count(&env), 0);
	free(b.p);
}

static int
setup(void **state)
{
	arena = pm_arena_create(pm_env_default());
	return 0;
}

static int
teardown(void **state)
{
	pm_arena_destroy(arena);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_corpus_table),
		cmocka_unit_test(test_corpus_table_multi_chunk),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_floats),
		cmocka_unit_test(test_integers_and_times),
		cmocka_unit_test(test_all_null_and_empty),
		cmocka_unit_test(test_inconsistent),
		cmocka_unit_test(test_unsupported_types),
		cmocka_unit_test(test_tracked_by_env),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
