/*-------------------------------------------------------------------------
 * test_parquet_pages.c
 *	  End-to-end tests of the Parquet reader on files built here, byte by
 *	  byte, for what Java Paimon never writes but other writers do: data
 *	  page v2 (uncompressed levels, is_compressed), DELTA_BINARY_PACKED,
 *	  DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE
 *	  booleans, RLE_DICTIONARY, the SNAPPY / GZIP / LZ4_RAW / Hadoop-LZ4
 *	  codecs, INT64 nanosecond timestamps, FIXED_LEN_BYTE_ARRAY decimals,
 *	  several row groups, and a list whose rows span v1 pages.
 *
 * A tiny Thrift compact writer and level/delta encoders live below; they
 * follow parquet.thrift and Encodings.md and are only as general as the
 * tests need.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/parquet_reader.h"
#include "io/memory_fileio.h"

/* ------------------------------------------------------------ buffers */

typedef struct wbuf
{
	uint8_t    *p;
	size_t		n;
	size_t		cap;
} wbuf;

static void
put(wbuf *w, const void *b, size_t n)
{
	if (n == 0)
		return;
	if (w->n + n > w->cap)
	{
		w->cap = (w->n + n) * 2 + 64;
		w->p = realloc(w->p, w->cap);
	}
	memcpy(w->p + w->n, b, n);
	w->n += n;
}

static void
put8(wbuf *w, uint8_t b)
{
	put(w, &b, 1);
}

static void
put32le(wbuf *w, uint32_t v)
{
	put(w, &v, 4);
}

static void
uleb(wbuf *w, uint64_t v)
{
	while (v >= 0x80)
	{
		put8(w, (uint8_t) (v | 0x80));
		v >>= 7;
	}
	put8(w, (uint8_t) v);
}

static void
zz(wbuf *w, int64_t v)
{
	uleb(w, ((uint64_t) v << 1) ^ (uint64_t) (v >> 63));
}

/* ------------------------------------------------------ thrift writer */

typedef struct tw
{
	wbuf	   *w;
	int16_t		last[32];
	int			depth;
} tw;

static void
tw_field(tw *t, int16_t id, int type)
{
	int			d = id - t->last[t->depth];

	if (d > 0 && d <= 15)
		put8(t->w, (uint8_t) ((d << 4) | type));
	else
	{
		put8(t->w, (uint8_t) type);
		zz(t->w, id);
	}
	t->last[t->depth] = id;
}

static void
tw_i32(tw *t, int16_t id, int64_t v)
{
	tw_field(t, id, 5);
	zz(t->w, v);
}

static void
tw_i64(tw *t, int16_t id, int64_t v)
{
	tw_field(t, id, 6);
	zz(t->w, v);
}

static void
tw_bool(tw *t, int16_t id, bool v)
{
	tw_field(t, id, v ? 1 : 2);
}

static void
tw_str(tw *t, int16_t id, const char *s)
{
	tw_field(t, id, 8);
	uleb(t->w, strlen(s));
	put(t->w, s, strlen(s));
}

static void
tw_struct_begin(tw *t, int16_t id)
{
	if (id > 0)
		tw_field(t, id, 12);
	t->last[++t->depth] = 0;
}

static void
tw_struct_end(tw *t)
{
	put8(t->w, 0);
	t->depth--;
}

static void
tw_list(tw *t, int16_t id, int elem_type, int n)
{
	tw_field(t, id, 9);
	if (n < 15)
		put8(t->w, (uint8_t) ((n << 4) | elem_type));
	else
	{
		put8(t->w, (uint8_t) (0xf0 | elem_type));
		uleb(t->w, (uint64_t) n);
	}
}

/* ------------------------------------------------------------ encoders */

/* RLE runs only (valid hybrid encoding), no length prefix. */
static void
rle_encode(wbuf *w, const int *v, int n, int bw)
{
	int			i = 0;

	while (i < n)
	{
		int			j = i;

		while (j < n && v[j] == v[i])
			j++;
		uleb(w, (uint64_t) (j - i) << 1);
		for (int b = 0; b < (bw + 7) / 8; b++)
			put8(w, (uint8_t) (v[i] >> (8 * b)));
		i = j;
	}
}

/* DELTA_BINARY_PACKED, block 128, 4 miniblocks of 32. */
static void
delta_encode(wbuf *w, const int64_t *v, int n)
{
	uleb(w, 128);
	uleb(w, 4);
	uleb(w, (uint64_t) n);
	zz(w, n > 0 ? v[0] : 0);
	for (int start = 1; start < n; start += 128)
	{
		int			cnt = n - start < 128 ? n - start : 128;
		int64_t		deltas[128];
		int64_t		mn = INT64_MAX;
		uint8_t		widths[4] = {0};

		for (int i = 0; i < cnt; i++)
		{
			deltas[i] = v[start + i] - v[start + i - 1];
			mn = deltas[i] < mn ? deltas[i] : mn;
		}
		zz(w, mn);
		for (int m = 0; m < 4; m++)
			for (int i = m * 32; i < cnt && i < m * 32 + 32; i++)
			{
				uint64_t	u = (uint64_t) (deltas[i] - mn);
				int			bw = 0;

				while (bw < 64 && (u >> bw) != 0)
					bw++;
				widths[m] = (uint8_t) (bw > widths[m] ? bw : widths[m]);
			}
		put(w, widths, 4);
		for (int m = 0; m < 4 && m * 32 < cnt; m++)
		{
			uint8_t		mb[32 * 8];
			uint64_t	bit = 0;

			memset(mb, 0, sizeof(mb));
			for (int i = 0; i < 32; i++)
			{
				uint64_t	u = m * 32 + i < cnt ? (uint64_t) (deltas[m * 32 + i] - mn) : 0;

				for (int b = 0; b < widths[m]; b++, bit++)
					if ((u >> b) & 1)
						mb[bit >> 3] |= (uint8_t) (1 << (bit & 7));
			}
			put(w, mb, (size_t) widths[m] * 4);
		}
	}
}

/* ---------------------------------------------------------- file builder */

typedef struct col_spec
{
	const char *name;
	int			physical;
	int			repetition;
	int			converted;		/* -1 none */
	int			type_length;
	int			scale;
	int			precision;
	int			lt_timestamp_unit;	/* 0 none, else TimeUnit id */
	int			codec;
} col_spec;

typedef struct page_spec
{
	int			type;			/* PM_PQ_PAGE_* */
	int			num_values;
	int			encoding;
	int			num_nulls;		/* v2 */
	int			num_rows;		/* v2 */
	wbuf		rep;			/* v2: levels, uncompressed */
	wbuf		def;
	wbuf		body;			/* v1: levels + values; v2: values; dictionary: values */
	bool		v2_compressed;
	int64_t		fake_uncompressed;	/* > 0: header lies about the size */
} page_spec;

static pm_arena *carena;

static void
compress_into(int codec, const wbuf *src, wbuf *dst)
{
	uint8_t    *out;
	size_t		out_len;
	pm_error	err;
	pm_codec	c;

	pm_error_clear(&err);
	switch (codec)
	{
		case PM_PQ_CODEC_UNCOMPRESSED:
			put(dst, src->p, src->n);
			return;
		case PM_PQ_CODEC_SNAPPY:
			c = PM_CODEC_SNAPPY;
			break;
		case PM_PQ_CODEC_GZIP:
			c = PM_CODEC_GZIP;
			break;
		case PM_PQ_CODEC_ZSTD:
			c = PM_CODEC_ZSTD;
			break;
		default:
			c = PM_CODEC_LZ4_RAW;
			break;
	}
	assert_int_equal(pm_codec_compress(c, 0, src->p, src->n, carena, &out, &out_len, &err), PM_OK);
	if (codec == PM_PQ_CODEC_LZ4)
	{
		/* Hadoop framing: BE uncompressed length, BE compressed length */
		uint8_t		h[8] = {(uint8_t) (src->n >> 24), (uint8_t) (src->n >> 16),
			(uint8_t) (src->n >> 8), (uint8_t) src->n, (uint8_t) (out_len >> 24),
		(uint8_t) (out_len >> 16), (uint8_t) (out_len >> 8), (uint8_t) out_len};

		put(dst, h, 8);
	}
	put(dst, out, out_len);
}

/* Append one page (header + payload) to chunk. */
static void
write_page(wbuf *chunk, const col_spec *c, page_spec *p)
{
	wbuf		payload = {0};
	wbuf		hdr = {0};
	tw			t = {&hdr, {0}, 0};
	size_t		uncompressed;

	if (p->type == PM_PQ_PAGE_DATA_V2)
	{
		put(&payload, p->rep.p, p->rep.n);
		put(&payload, p->def.p, p->def.n);
		if (p->v2_compressed)
			compress_into(c->codec, &p->body, &payload);
		else
			put(&payload, p->body.p, p->body.n);
		uncompressed = p->rep.n + p->def.n + p->body.n;
	}
	else
	{
		compress_into(c->codec, &p->body, &payload);
		uncompressed = p->body.n;
	}
	tw_struct_begin(&t, 0);
	tw_i32(&t, 1, p->type);
	tw_i32(&t, 2, p->fake_uncompressed > 0 ? p->fake_uncompressed : (int64_t) uncompressed);
	tw_i32(&t, 3, (int64_t) payload.n);
	if (p->type == PM_PQ_PAGE_DATA)
	{
		tw_struct_begin(&t, 5);
		tw_i32(&t, 1, p->num_values);
		tw_i32(&t, 2, p->encoding);
		tw_i32(&t, 3, PM_PQ_ENC_RLE);
		tw_i32(&t, 4, PM_PQ_ENC_RLE);
		tw_struct_end(&t);
	}
	else if (p->type == PM_PQ_PAGE_DICTIONARY)
	{
		tw_struct_begin(&t, 7);
		tw_i32(&t, 1, p->num_values);
		tw_i32(&t, 2, PM_PQ_ENC_PLAIN);
		tw_struct_end(&t);
	}
	else
	{
		tw_struct_begin(&t, 8);
		tw_i32(&t, 1, p->num_values);
		tw_i32(&t, 2, p->num_nulls);
		tw_i32(&t, 3, p->num_rows);
		tw_i32(&t, 4, p->encoding);
		tw_i32(&t, 5, (int64_t) p->def.n);
		tw_i32(&t, 6, (int64_t) p->rep.n);
		tw_bool(&t, 7, p->v2_compressed);
		tw_struct_end(&t);
	}
	tw_struct_end(&t);
	put(chunk, hdr.p, hdr.n);
	put(chunk, payload.p, payload.n);
	free(hdr.p);
	free(payload.p);
	free(p->rep.p);
	free(p->def.p);
	free(p->body.p);
	memset(p, 0, sizeof(*p));
}

/* One schema element. */
static void
write_element(tw *t, const char *name, int physical, int repetition, int nchildren,
			  int converted, const col_spec *c)
{
	tw_struct_begin(t, 0);
	if (physical >= 0)
		tw_i32(t, 1, physical);
	if (c != NULL && c->type_length > 0)
		tw_i32(t, 2, c->type_length);
	if (repetition >= 0)
		tw_i32(t, 3, repetition);
	tw_str(t, 4, name);
	if (nchildren > 0)
		tw_i32(t, 5, nchildren);
	if (converted >= 0)
		tw_i32(t, 6, converted);
	if (c != NULL && c->precision > 0)
	{
		tw_i32(t, 7, c->scale);
		tw_i32(t, 8, c->precision);
	}
	if (c != NULL && c->lt_timestamp_unit > 0)
	{
		tw_struct_begin(t, 10);
		tw_struct_begin(t, 8);	/* TIMESTAMP */
		tw_bool(t, 1, false);
		tw_struct_begin(t, 2);
		tw_struct_begin(t, (int16_t) c->lt_timestamp_unit);
		tw_struct_end(t);
		tw_struct_end(t);
		tw_struct_end(t);
		tw_struct_end(t);
	}
	tw_struct_end(t);
}

/*
 * A file of flat columns (or, with list_col >= 0, column list_col is a
 * 3-level LIST of the given element), with the chunks given per row group.
 */
typedef struct file_spec
{
	int			ncols;
	col_spec	cols[8];
	int			list_col;
	int			nrg;
	int64_t		rg_rows[4];
	wbuf		chunks[4][8];
	int64_t		chunk_values[4][8];
	const char *created_by;		/* NULL: a short one */
} file_spec;

static wbuf
build_file(file_spec *f)
{
	wbuf		out = {0};
	wbuf		foot = {0};
	tw			t = {&foot, {0}, 0};
	int64_t		offsets[4][8];
	int64_t		total = 0;
	int			nelems = 1 + f->ncols + (f->list_col >= 0 ? 2 : 0);

	put(&out, "PAR1", 4);
	for (int g = 0; g < f->nrg; g++)
		for (int c = 0; c < f->ncols; c++)
		{
			offsets[g][c] = (int64_t) out.n;
			put(&out, f->chunks[g][c].p, f->chunks[g][c].n);
		}
	tw_struct_begin(&t, 0);
	tw_i32(&t, 1, 1);
	tw_list(&t, 2, 12, nelems);
	t.last[++t.depth] = 0;
	t.depth--;
	{
		tw			e = {&foot, {0}, 0};

		write_element(&e, "schema", -1, -1, f->ncols, -1, NULL);
		for (int c = 0; c < f->ncols; c++)
		{
			col_spec   *cs = &f->cols[c];

			if (c == f->list_col)
			{
				write_element(&e, cs->name, -1, PM_PQ_OPTIONAL, 1, PM_PQ_CT_LIST, NULL);
				write_element(&e, "list", -1, PM_PQ_REPEATED, 1, -1, NULL);
				write_element(&e, "element", cs->physical, cs->repetition, 0, cs->converted, cs);
			}
			else
				write_element(&e, cs->name, cs->physical, cs->repetition, 0, cs->converted, cs);
		}
	}
	for (int g = 0; g < f->nrg; g++)
		total += f->rg_rows[g];
	tw_i64(&t, 3, total);
	tw_list(&t, 4, 12, f->nrg);
	for (int g = 0; g < f->nrg; g++)
	{
		tw			r = {&foot, {0}, 0};

		tw_struct_begin(&r, 0);
		tw_list(&r, 1, 12, f->ncols);
		for (int c = 0; c < f->ncols; c++)
		{
			tw			cc = {&foot, {0}, 0};

			tw_struct_begin(&cc, 0);
			tw_i64(&cc, 2, offsets[g][c]);
			tw_struct_begin(&cc, 3);
			tw_i32(&cc, 1, f->cols[c].physical);
			tw_list(&cc, 2, 5, 1);
			zz(&foot, 0);
			tw_list(&cc, 3, 8, 1);
			uleb(&foot, strlen(f->cols[c].name));
			put(&foot, f->cols[c].name, strlen(f->cols[c].name));
			tw_i32(&cc, 4, f->cols[c].codec);
			tw_i64(&cc, 5, f->chunk_values[g][c]);
			tw_i64(&cc, 6, (int64_t) f->chunks[g][c].n);
			tw_i64(&cc, 7, (int64_t) f->chunks[g][c].n);
			tw_i64(&cc, 9, offsets[g][c]);
			tw_struct_end(&cc);
			tw_struct_end(&cc);
		}
		tw_i64(&r, 2, 100);
		tw_i64(&r, 3, f->rg_rows[g]);
		tw_struct_end(&r);
	}
	tw_str(&t, 6, f->created_by ? f->created_by : "paimon_fdw test writer");
	tw_struct_end(&t);
	put(&out, foot.p, foot.n);
	put32le(&out, (uint32_t) foot.n);
	put(&out, "PAR1", 4);
	free(foot.p);
	for (int g = 0; g < f->nrg; g++)
		for (int c = 0; c < f->ncols; c++)
			free(f->chunks[g][c].p);
	return out;
}

/* ---------------------------------------------------------------- reading */

typedef struct result
{
	pm_fileio  *io;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
} result;

static pm_code
open_file(result *res, wbuf *file, const pm_type *schema, int batch_size)
{
	pm_format_read_options opt = {.schema = schema, .batch_size = batch_size};

	memset(res, 0, sizeof(*res));
	res->io = pm_memory_fileio_create(pm_env_default());
	assert_int_equal(pm_memory_fileio_add(res->io, "/t.parquet", file->p, file->n, &res->err), PM_OK);
	free(file->p);
	return pm_parquet_reader_open(pm_env_default(), res->io, "/t.parquet", &opt, &res->r, &res->err);
}

static void
close_file(result *res)
{
	pm_format_reader_close(res->r);
	pm_memory_fileio_destroy(res->io);
}

static const pm_type *
row_of(int n, const char **names, const pm_type **types)
{
	pm_field	f[8];

	memset(f, 0, sizeof(f));
	for (int i = 0; i < n; i++)
	{
		f[i].id = i;
		f[i].name = names[i];
		f[i].type = types[i];
	}
	return pm_type_new_row(carena, f, n, true);
}

static pm_type *
typ(pm_type_id id, int precision)
{
	pm_type    *t = pm_type_new(carena, id, true);

	if (precision >= 0)
		t->precision = precision;
	return t;
}

/* ------------------------------------------------------------------ tests */

/*
 * v2 pages: INT64 required DELTA_BINARY_PACKED (uncompressed values);
 * INT32 optional PLAIN with SNAPPY-compressed values; BOOLEAN optional RLE.
 * Two pages per column, two row groups.
 */
static void
test_v2_delta_snappy_rle_bool(void **state)
{
	file_spec	f;
	const int	n = 300;			/* rows per row group, 150 per page */
	result		res;
	const char *names[] = {"id", "v", "flag"};
	const pm_type *types[] = {typ(PM_TYPE_BIGINT, -1), typ(PM_TYPE_INT, -1), typ(PM_TYPE_BOOLEAN, -1)};
	int64_t		seen = 0;

	memset(&f, 0, sizeof(f));
	f.ncols = 3;
	f.list_col = -1;
	f.cols[0] = (col_spec) {"id", PM_PQ_INT64, PM_PQ_REQUIRED, -1, 0, 0, 0, 0, PM_PQ_CODEC_UNCOMPRESSED};
	f.cols[1] = (col_spec) {"v", PM_PQ_INT32, PM_PQ_OPTIONAL, -1, 0, 0, 0, 0, PM_PQ_CODEC_SNAPPY};
	f.cols[2] = (col_spec) {"flag", PM_PQ_BOOLEAN, PM_PQ_OPTIONAL, -1, 0, 0, 0, 0, PM_PQ_CODEC_UNCOMPRESSED};
	f.nrg = 2;
	for (int g = 0; g < 2; g++)
	{
		f.rg_rows[g] = n;
		for (int half = 0; half < 2; half++)
		{
			int			base = g * n + half * 150;
			page_spec	p;
			int64_t		ids[150];
			int			defs[150];
			int			bools[150];
			int			nn = 0;
			int			nb = 0;

			/* id: strictly increasing with jumps, some negative deltas */
			memset(&p, 0, sizeof(p));
			for (int i = 0; i < 150; i++)
				ids[i] = (int64_t) (base + i) * 1000 - ((base + i) % 7 == 0 ? 5000000000LL : 0);
			p.type = PM_PQ_PAGE_DATA_V2;
			p.num_values = p.num_rows = 150;
			p.encoding = PM_PQ_ENC_DELTA_BINARY_PACKED;
			delta_encode(&p.body, ids, 150);
			write_page(&f.chunks[g][0], &f.cols[0], &p);

			/* v: null every 5th */
			memset(&p, 0, sizeof(p));
			for (int i = 0; i < 150; i++)
			{
				defs[i] = (base + i) % 5 != 0;
				if (defs[i])
				{
					int32_t		x = (base + i) * 3;

					put(&p.body, &x, 4);
					nn++;
				}
			}
			p.type = PM_PQ_PAGE_DATA_V2;
			p.num_values = p.num_rows = 150;
			p.num_nulls = 150 - nn;
			p.encoding = PM_PQ_ENC_PLAIN;
			p.v2_compressed = true;
			rle_encode(&p.def, defs, 150, 1);
			write_page(&f.chunks[g][1], &f.cols[1], &p);

			/* flag: RLE booleans (length prefix), null every 3rd */
			memset(&p, 0, sizeof(p));
			{
				wbuf		vals = {0};

				for (int i = 0; i < 150; i++)
				{
					defs[i] = (base + i) % 3 != 0;
					if (defs[i])
						bools[nb++] = ((base + i) / 4) % 2;
				}
				rle_encode(&vals, bools, nb, 1);
				put32le(&p.body, (uint32_t) vals.n);
				put(&p.body, vals.p, vals.n);
				free(vals.p);
			}
			p.type = PM_PQ_PAGE_DATA_V2;
			p.num_values = p.num_rows = 150;
			p.num_nulls = 150 - nb;
			p.encoding = PM_PQ_ENC_RLE;
			rle_encode(&p.def, defs, 150, 1);
			write_page(&f.chunks[g][2], &f.cols[2], &p);
		}
		f.chunk_values[g][0] = f.chunk_values[g][1] = f.chunk_values[g][2] = n;
	}
	{
		wbuf		file = build_file(&f);

		assert_int_equal(open_file(&res, &file, row_of(3, names, types), 128), PM_OK);
	}
	while (pm_format_reader_next(res.r, &res.b, &res.err) == PM_OK && res.b != NULL)
	{
		pm_batch   *b = res.b;

		assert_int_equal(b->first_row, seen);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		row = seen + i;

			assert_int_equal(PM_VEC_VALUES(&b->cols[0], int64_t)[i],
							 row * 1000 - (row % 7 == 0 ? 5000000000LL : 0));
			assert_int_equal(pm_vector_is_null(&b->cols[1], i), row % 5 == 0);
			if (row % 5 != 0)
				assert_int_equal(PM_VEC_VALUES(&b->cols[1], int32_t)[i], row * 3);
			assert_int_equal(pm_vector_is_null(&b->cols[2], i), row % 3 == 0);
			if (row % 3 != 0)
				assert_int_equal(PM_VEC_VALUES(&b->cols[2], uint8_t)[i], (row / 4) % 2);
		}
		seen += b->nrows;
	}
	assert_int_equal(res.err.code, PM_OK);
	assert_int_equal(seen, 600);
	close_file(&res);
}

static const char *const words[] = {"apple", "applesauce", "apply", "banana", "band", "", "bandana"};

/*
 * Strings: DELTA_LENGTH_BYTE_ARRAY (GZIP), DELTA_BYTE_ARRAY (LZ4_RAW),
 * dictionary + RLE_DICTIONARY v2 pages (Hadoop LZ4), in three columns.
 */
static void
test_strings_delta_dict(void **state)
{
	file_spec	f;
	const int	n = 70;
	result		res;
	const char *names[] = {"a", "b", "c"};
	const pm_type *types[] = {typ(PM_TYPE_VARCHAR, -1), typ(PM_TYPE_VARCHAR, -1), typ(PM_TYPE_VARBINARY, -1)};
	int64_t		seen = 0;

	memset(&f, 0, sizeof(f));
	f.ncols = 3;
	f.list_col = -1;
	f.cols[0] = (col_spec) {"a", PM_PQ_BYTE_ARRAY, PM_PQ_OPTIONAL, PM_PQ_CT_UTF8, 0, 0, 0, 0, PM_PQ_CODEC_GZIP};
	f.cols[1] = (col_spec) {"b", PM_PQ_BYTE_ARRAY, PM_PQ_REQUIRED, PM_PQ_CT_UTF8, 0, 0, 0, 0, PM_PQ_CODEC_LZ4_RAW};
	f.cols[2] = (col_spec) {"c", PM_PQ_BYTE_ARRAY, PM_PQ_OPTIONAL, -1, 0, 0, 0, 0, PM_PQ_CODEC_LZ4};
	f.nrg = 1;
	f.rg_rows[0] = n;
	f.chunk_values[0][0] = f.chunk_values[0][1] = f.chunk_values[0][2] = n;
	{
		/* a: v1 page, def levels (4-byte length + RLE), DELTA_LENGTH_BYTE_ARRAY */
		page_spec	p;
		int			defs[70];
		int64_t		lens[70];
		int			nn = 0;
		wbuf		lv = {0};

		memset(&p, 0, sizeof(p));
		for (int i = 0; i < n; i++)
		{
			defs[i] = i % 4 != 1;
			if (defs[i])
				lens[nn++] = (int64_t) strlen(words[i % 7]);
		}
		rle_encode(&lv, defs, n, 1);
		put32le(&p.body, (uint32_t) lv.n);
		put(&p.body, lv.p, lv.n);
		free(lv.p);
		delta_encode(&p.body, lens, nn);
		for (int i = 0; i < n; i++)
			if (defs[i])
				put(&p.body, words[i % 7], strlen(words[i % 7]));
		p.type = PM_PQ_PAGE_DATA;
		p.num_values = n;
		p.encoding = PM_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY;
		write_page(&f.chunks[0][0], &f.cols[0], &p);
	}
	{
		/* b: required, DELTA_BYTE_ARRAY (prefix lengths + DELTA_LENGTH suffixes) */
		page_spec	p;
		int64_t		pre[70];
		int64_t		suf[70];
		const char *prev = "";

		memset(&p, 0, sizeof(p));
		for (int i = 0; i < n; i++)
		{
			const char *w = words[i % 7];
			int64_t		k = 0;

			while (prev[k] && w[k] && prev[k] == w[k])
				k++;
			pre[i] = k;
			suf[i] = (int64_t) strlen(w) - k;
			prev = w;
		}
		delta_encode(&p.body, pre, n);
		delta_encode(&p.body, suf, n);
		for (int i = 0; i < n; i++)
			put(&p.body, words[i % 7] + pre[i], (size_t) suf[i]);
		p.type = PM_PQ_PAGE_DATA;
		p.num_values = n;
		p.encoding = PM_PQ_ENC_DELTA_BYTE_ARRAY;
		write_page(&f.chunks[0][1], &f.cols[1], &p);
	}
	{
		/* c: dictionary of the 7 words, then two v2 RLE_DICTIONARY pages */
		page_spec	p;

		memset(&p, 0, sizeof(p));
		for (int w = 0; w < 7; w++)
		{
			put32le(&p.body, (uint32_t) strlen(words[w]));
			put(&p.body, words[w], strlen(words[w]));
		}
		p.type = PM_PQ_PAGE_DICTIONARY;
		p.num_values = 7;
		write_page(&f.chunks[0][2], &f.cols[2], &p);
		for (int half = 0; half < 2; half++)
		{
			int			defs[35];
			int			idx[35];
			int			nn = 0;

			memset(&p, 0, sizeof(p));
			for (int i = 0; i < 35; i++)
			{
				int			row = half * 35 + i;

				defs[i] = row % 6 != 0;
				if (defs[i])
					idx[nn++] = (row * 3) % 7;
			}
			rle_encode(&p.def, defs, 35, 1);
			put8(&p.body, 3);	/* bit width */
			rle_encode(&p.body, idx, nn, 3);
			p.type = PM_PQ_PAGE_DATA_V2;
			p.num_values = p.num_rows = 35;
			p.num_nulls = 35 - nn;
			p.encoding = PM_PQ_ENC_RLE_DICTIONARY;
			p.v2_compressed = true;
			write_page(&f.chunks[0][2], &f.cols[2], &p);
		}
	}
	{
		wbuf		file = build_file(&f);

		assert_int_equal(open_file(&res, &file, row_of(3, names, types), 16), PM_OK);
	}
	while (pm_format_reader_next(res.r, &res.b, &res.err) == PM_OK && res.b != NULL)
	{
		pm_batch   *b = res.b;

		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		row = seen + i;
			int32_t		len;
			const uint8_t *s;

			assert_int_equal(pm_vector_is_null(&b->cols[0], i), row % 4 == 1);
			if (row % 4 != 1)
			{
				s = pm_vector_bytes(&b->cols[0], i, &len);
				assert_int_equal(len, strlen(words[row % 7]));
				assert_memory_equal(s, words[row % 7], (size_t) len);
			}
			s = pm_vector_bytes(&b->cols[1], i, &len);
			assert_int_equal(len, strlen(words[row % 7]));
			assert_memory_equal(s, words[row % 7], (size_t) len);
			assert_int_equal(pm_vector_is_null(&b->cols[2], i), row % 6 == 0);
			if (row % 6 != 0)
			{
				s = pm_vector_bytes(&b->cols[2], i, &len);
				assert_int_equal(len, strlen(words[(row * 3) % 7]));
				assert_memory_equal(s, words[(row * 3) % 7], (size_t) len);
			}
		}
		seen += b->nrows;
	}
	assert_int_equal(res.err.code, PM_OK);
	assert_int_equal(seen, n);
	close_file(&res);
}

/*
 * DOUBLE in BYTE_STREAM_SPLIT (ZSTD), INT64 TIMESTAMP(NANOS) read as
 * TIMESTAMP(9), FIXED_LEN_BYTE_ARRAY(9) DECIMAL(20, 2), INT32 TIME_MILLIS.
 */
static void
test_bss_nanos_flba_time(void **state)
{
	file_spec	f;
	const int	n = 40;
	result		res;
	const char *names[] = {"d", "ts", "dec", "t"};
	const pm_type *types[] = {typ(PM_TYPE_DOUBLE, -1), typ(PM_TYPE_TIMESTAMP, 9),
	pm_type_new_decimal(carena, 20, 2, true), typ(PM_TYPE_TIME, 3)};
	int64_t		seen = 0;

	memset(&f, 0, sizeof(f));
	f.ncols = 4;
	f.list_col = -1;
	/* a footer above 64 KiB: read with a second pread */
	{
		char	   *big = pm_arena_alloc(carena, 70001);

		memset(big, 'x', 70000);
		big[70000] = 0;
		f.created_by = big;
	}
	f.cols[0] = (col_spec) {"d", PM_PQ_DOUBLE, PM_PQ_REQUIRED, -1, 0, 0, 0, 0, PM_PQ_CODEC_ZSTD};
	f.cols[1] = (col_spec) {"ts", PM_PQ_INT64, PM_PQ_REQUIRED, -1, 0, 0, 0, PM_PQ_UNIT_NANOS, PM_PQ_CODEC_UNCOMPRESSED};
	f.cols[2] = (col_spec) {"dec", PM_PQ_FIXED_LEN_BYTE_ARRAY, PM_PQ_REQUIRED, PM_PQ_CT_DECIMAL, 9, 2, 20, 0, PM_PQ_CODEC_UNCOMPRESSED};
	f.cols[3] = (col_spec) {"t", PM_PQ_INT32, PM_PQ_REQUIRED, PM_PQ_CT_TIME_MILLIS, 0, 0, 0, 0, PM_PQ_CODEC_UNCOMPRESSED};
	f.nrg = 1;
	f.rg_rows[0] = n;
	for (int c = 0; c < 4; c++)
		f.chunk_values[0][c] = n;
	{
		page_spec	p;
		double		d[40];

		memset(&p, 0, sizeof(p));
		for (int i = 0; i < n; i++)
			d[i] = i * 1.25 - 7;
		for (int b = 0; b < 8; b++)
			for (int i = 0; i < n; i++)
				put8(&p.body, ((uint8_t *) &d[i])[b]);
		p.type = PM_PQ_PAGE_DATA;
		p.num_values = n;
		p.encoding = PM_PQ_ENC_BYTE_STREAM_SPLIT;
		write_page(&f.chunks[0][0], &f.cols[0], &p);

		memset(&p, 0, sizeof(p));
		for (int i = 0; i < n; i++)
		{
			int64_t		ns = (int64_t) (i - 20) * 1000000123LL + 7;

			put(&p.body, &ns, 8);
		}
		p.type = PM_PQ_PAGE_DATA;
		p.num_values = n;
		p.encoding = PM_PQ_ENC_PLAIN;
		write_page(&f.chunks[0][1], &f.cols[1], &p);

		memset(&p, 0, sizeof(p));
		for (int i = 0; i < n; i++)
		{
			__int128	v = ((__int128) (i - 20) * 1000000000000000000LL) * 100 + i;
			uint8_t		be[9];

			for (int b = 0; b < 9; b++)
				be[8 - b] = (uint8_t) (v >> (8 * b));
			put(&p.body, be, 9);
		}
		p.type = PM_PQ_PAGE_DATA;
		p.num_values = n;
		p.encoding = PM_PQ_ENC_PLAIN;
		write_page(&f.chunks[0][2], &f.cols[2], &p);

		memset(&p, 0, sizeof(p));
		for (int i = 0; i < n; i++)
		{
			int32_t		ms = i * 3600000 + 123;

			put(&p.body, &ms, 4);
		}
		p.type = PM_PQ_PAGE_DATA;
		p.num_values = n;
		p.encoding = PM_PQ_ENC_PLAIN;
		write_page(&f.chunks[0][3], &f.cols[3], &p);
	}
	{
		wbuf		file = build_file(&f);

		assert_int_equal(open_file(&res, &file, row_of(4, names, types), 0), PM_OK);
	}
	while (pm_format_reader_next(res.r, &res.b, &res.err) == PM_OK && res.b != NULL)
	{
		pm_batch   *b = res.b;

		assert_non_null(b->cols[1].nanos);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		row = seen + i;
			int64_t		ns = (row - 20) * 1000000123LL + 7;
			__int128	want = ((__int128) (row - 20) * 1000000000000000000LL) * 100 + row;

			assert_true(PM_VEC_VALUES(&b->cols[0], double)[i] == row * 1.25 - 7);
			assert_int_equal(PM_VEC_VALUES(&b->cols[1], int64_t)[i] * 1000 + b->cols[1].nanos[i], ns);
			assert_true(b->cols[1].nanos[i] < 1000);
			assert_true(PM_VEC_VALUES(&b->cols[2], pm_int128)[i] == want);
			assert_int_equal(PM_VEC_VALUES(&b->cols[3], int32_t)[i], row * 3600000 + 123);
		}
		seen += b->nrows;
	}
	assert_int_equal(res.err.code, PM_OK);
	assert_int_equal(seen, n);
	close_file(&res);
}

/*
 * INT64 TIMESTAMP(NANOS) at the ends of int64: microseconds are the floor,
 * the nanosecond remainder is in [0, 1000). Near INT64_MIN the remainder
 * used to be computed as x - floor(x / 1000) * 1000, whose product leaves
 * int64 (UBSan: signed integer overflow, found by fuzz_parquet).
 */
static void
test_nanos_int64_extremes(void **state)
{
	static const int64_t vals[] = {INT64_MIN, INT64_MIN + 1, INT64_MIN + 808, -1001, -1, 0,
	999, INT64_MAX};
	const int	n = (int) (sizeof(vals) / sizeof(vals[0]));
	file_spec	f;
	page_spec	p;
	result		res;
	const char *names[] = {"ts"};
	const pm_type *types[] = {typ(PM_TYPE_TIMESTAMP, 9)};
	int64_t		seen = 0;

	memset(&f, 0, sizeof(f));
	f.ncols = 1;
	f.list_col = -1;
	f.cols[0] = (col_spec) {"ts", PM_PQ_INT64, PM_PQ_REQUIRED, -1, 0, 0, 0, PM_PQ_UNIT_NANOS, PM_PQ_CODEC_UNCOMPRESSED};
	f.nrg = 1;
	f.rg_rows[0] = n;
	f.chunk_values[0][0] = n;
	memset(&p, 0, sizeof(p));
	put(&p.body, vals, sizeof(vals));
	p.type = PM_PQ_PAGE_DATA;
	p.num_values = n;
	p.encoding = PM_PQ_ENC_PLAIN;
	write_page(&f.chunks[0][0], &f.cols[0], &p);
	{
		wbuf		file = build_file(&f);

		if (getenv("PARQUET_SEED_OUT") != NULL)
		{
			/* how test/fuzz/corpus/parquet/ub_nanos_int64_min was made */
			FILE	   *out = fopen(getenv("PARQUET_SEED_OUT"), "wb");

			assert_non_null(out);
			assert_int_equal(fwrite(file.p, 1, file.n, out), file.n);
			fclose(out);
		}
		assert_int_equal(open_file(&res, &file, row_of(1, names, types), 0), PM_OK);
	}
	while (pm_format_reader_next(res.r, &res.b, &res.err) == PM_OK && res.b != NULL)
	{
		for (int64_t i = 0; i < res.b->nrows; i++)
		{
			__int128	x = vals[seen + i];
			__int128	want_us = x >= 0 ? x / 1000 : -((-x + 999) / 1000);

			assert_true(PM_VEC_VALUES(&res.b->cols[0], int64_t)[i] == want_us);
			assert_true(res.b->cols[0].nanos[i] == x - want_us * 1000);
		}
		seen += res.b->nrows;
	}
	assert_int_equal(res.err.code, PM_OK);
	assert_int_equal(seen, n);
	close_file(&res);
}

/*
 * LIST<INT32> (optional list, optional elements) in v1 pages that split
 * rows: row r has r % 4 elements (r % 4 == 0: null list for r % 8 == 0,
 * empty otherwise); element j of row r is null when (r + j) % 3 == 0.
 */
static void
test_list_rows_span_pages(void **state)
{
	file_spec	f;
	const int	n = 50;
	result		res;
	const char *names[] = {"l", "k"};
	const pm_type *types[] = {pm_type_new_array(carena, typ(PM_TYPE_INT, -1), true),
	typ(PM_TYPE_INT, -1)};
	int			reps[400];
	int			defs[400];
	int32_t		vals[400];
	int			ne = 0;
	int			nv = 0;
	int64_t		seen = 0;

	for (int r = 0; r < n; r++)
	{
		int			cnt = r % 4;

		if (cnt == 0)
		{
			reps[ne] = 0;
			defs[ne++] = r % 8 == 0 ? 0 : 1;
			continue;
		}
		for (int j = 0; j < cnt; j++)
		{
			reps[ne] = j == 0 ? 0 : 1;
			defs[ne] = (r + j) % 3 == 0 ? 2 : 3;
			if (defs[ne] == 3)
				vals[nv++] = r * 100 + j;
			ne++;
		}
	}
	memset(&f, 0, sizeof(f));
	f.ncols = 2;
	f.list_col = 0;
	f.cols[0] = (col_spec) {"l", PM_PQ_INT32, PM_PQ_OPTIONAL, -1, 0, 0, 0, 0, PM_PQ_CODEC_SNAPPY};
	f.cols[1] = (col_spec) {"k", PM_PQ_INT32, PM_PQ_REQUIRED, -1, 0, 0, 0, 0, PM_PQ_CODEC_UNCOMPRESSED};
	f.nrg = 1;
	f.rg_rows[0] = n;
	f.chunk_values[0][0] = ne;
	f.chunk_values[0][1] = n;
	{
		/* pages of 7 entries, cutting rows anywhere */
		int			vi = 0;

		for (int s = 0; s < ne; s += 7)
		{
			int			cnt = ne - s < 7 ? ne - s : 7;
			page_spec	p;
			wbuf		lv = {0};

			memset(&p, 0, sizeof(p));
			rle_encode(&lv, reps + s, cnt, 1);
			put32le(&p.body, (uint32_t) lv.n);
			put(&p.body, lv.p, lv.n);
			lv.n = 0;
			rle_encode(&lv, defs + s, cnt, 2);
			put32le(&p.body, (uint32_t) lv.n);
			put(&p.body, lv.p, lv.n);
			free(lv.p);
			for (int e = s; e < s + cnt; e++)
				if (defs[e] == 3)
					put(&p.body, &vals[vi++], 4);
			p.type = PM_PQ_PAGE_DATA;
			p.num_values = cnt;
			p.encoding = PM_PQ_ENC_PLAIN;
			write_page(&f.chunks[0][0], &f.cols[0], &p);
		}
		{
			page_spec	p;

			memset(&p, 0, sizeof(p));
			for (int r = 0; r < n; r++)
			{
				int32_t		x = -r;

				put(&p.body, &x, 4);
			}
			p.type = PM_PQ_PAGE_DATA;
			p.num_values = n;
			p.encoding = PM_PQ_ENC_PLAIN;
			write_page(&f.chunks[0][1], &f.cols[1], &p);
		}
	}
	{
		wbuf		file = build_file(&f);

		assert_int_equal(open_file(&res, &file, row_of(2, names, types), 3), PM_OK);
	}
	while (pm_format_reader_next(res.r, &res.b, &res.err) == PM_OK && res.b != NULL)
	{
		pm_batch   *b = res.b;
		const pm_vector *l = &b->cols[0];
		const pm_vector *el = &l->children[0];

		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		r = seen + i;
			int			cnt = (int) (r % 4);

			assert_int_equal(PM_VEC_VALUES(&b->cols[1], int32_t)[i], -r);
			assert_int_equal(pm_vector_is_null(l, i), r % 8 == 0);
			assert_int_equal(l->offsets[i + 1] - l->offsets[i], cnt);
			for (int j = 0; j < cnt; j++)
			{
				int64_t		e = l->offsets[i] + j;

				assert_int_equal(pm_vector_is_null(el, e), (r + j) % 3 == 0);
				if ((r + j) % 3 != 0)
					assert_int_equal(PM_VEC_VALUES(el, int32_t)[e], r * 100 + j);
			}
		}
		seen += b->nrows;
	}
	assert_int_equal(res.err.code, PM_OK);
	assert_int_equal(seen, n);
	close_file(&res);
}

/*
 * A dictionary index past the dictionary (0), a page past its chunk (1),
 * fewer values than rows (2), a huge uncompressed size (3), a huge value
 * count (4), a huge dictionary (5): all corrupt, none allocates much.
 */
static void
test_bad_pages(void **state)
{
	for (int variant = 0; variant < 6; variant++)
	{
		file_spec	f;
		result		res;
		const char *names[] = {"c"};
		const pm_type *types[] = {typ(PM_TYPE_INT, -1)};
		page_spec	p;
		pm_code		rc;

		memset(&f, 0, sizeof(f));
		f.ncols = 1;
		f.list_col = -1;
		f.cols[0] = (col_spec) {"c", PM_PQ_INT32, PM_PQ_REQUIRED, -1, 0, 0, 0, 0,
		variant >= 3 ? PM_PQ_CODEC_SNAPPY : PM_PQ_CODEC_UNCOMPRESSED};
		f.nrg = 1;
		f.rg_rows[0] = 4;
		f.chunk_values[0][0] = 4;
		memset(&p, 0, sizeof(p));
		put32le(&p.body, 11);
		put32le(&p.body, 22);
		p.type = PM_PQ_PAGE_DICTIONARY;
		p.num_values = variant == 5 ? 0x3fffffff : 2;
		write_page(&f.chunks[0][0], &f.cols[0], &p);
		memset(&p, 0, sizeof(p));
		put8(&p.body, 2);
		{
			int			idx[4] = {0, 1, variant == 0 ? 3 : 1, 0};

			rle_encode(&p.body, idx, 4, 2);
		}
		p.type = PM_PQ_PAGE_DATA;
		p.num_values = variant == 2 ? 3 : variant == 4 ? 0x7fffffff : 4;
		if (variant == 3)
			p.fake_uncompressed = 0x7fffffff;
		p.encoding = PM_PQ_ENC_PLAIN_DICTIONARY;
		write_page(&f.chunks[0][0], &f.cols[0], &p);
		if (variant == 1)
			f.chunks[0][0].n -= 1;	/* page cut short by its chunk */
		{
			wbuf		file = build_file(&f);

			assert_int_equal(open_file(&res, &file, row_of(1, names, types), 0), PM_OK);
		}
		while ((rc = pm_format_reader_next(res.r, &res.b, &res.err)) == PM_OK && res.b != NULL)
			;
		assert_int_equal(rc, PM_ERR_CORRUPT);
		assert_string_equal(res.err.path, "/t.parquet");
		close_file(&res);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2_delta_snappy_rle_bool),
		cmocka_unit_test(test_strings_delta_dict),
		cmocka_unit_test(test_bss_nanos_flba_time),
		cmocka_unit_test(test_nanos_int64_extremes),
		cmocka_unit_test(test_list_rows_span_pages),
		cmocka_unit_test(test_bad_pages),
	};
	int			rc;

	carena = pm_arena_create(pm_env_default());
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pm_arena_destroy(carena);
	return rc;
}
