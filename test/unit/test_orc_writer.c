/*-------------------------------------------------------------------------
 * test_orc_writer.c
 *	  The ORC writer (src/format/orc/orc_writer.c, orc_encode.c,
 *	  orc_proto_write.c).
 *
 * - The stream encoders against the reader's decoders (orc_stream.c):
 *   integer RLE v2 (every sub-encoding we write, every bit width, signed
 *   and unsigned extremes), byte RLE and booleans.
 * - Every flat type with NULLs and extremes, every codec, many stripes:
 *   written, read back by our reader value for value; the file tail
 *   (stripes, types with paimon.id, row count) decoded by orc_proto.c.
 * - Statistics returned to the table layer; refusals and failures leave no
 *   file.
 * - Dictionary encoding: the once-per-file threshold decision (Java's float
 *   ratio at the first row group or stripe end), CHAR dictionaries,
 *   orc.column.encoding.direct, binary never, our reader reading it back.
 * - Bloom filters: ORC's Murmur3 and bit positions for values whose bits
 *   Apache ORC 1.9.2 computed, sizes per fpp, and every value written in
 *   its row group's BLOOM_FILTER_UTF8 filter.
 * The round trip itself is shared with test_avro_writer.c (writer_fixture.c).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/format_writer.h"
#include "format/orc/orc_bloom.h"
#include "format/orc/orc_col_stats.h"
#include "format/orc/orc_encode.h"
#include "format/orc/orc_int.h"
#include "format/orc/orc_reader.h"
#include "format/orc/orc_writer.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "row/data_type.h"
#include "writer_fixture.h"

static uint64_t
next_rand(uint64_t *seed)
{
	uint64_t	r = (*seed += 0x9E3779B97F4A7C15ULL);

	r ^= r >> 31;
	r *= 0xBF58476D1CE4E5B9ULL;
	r ^= r >> 29;
	return r;
}

/* ---------------------------------------------------------------------
 * Encoders against the reader's decoders
 * --------------------------------------------------------------------- */

static void
int_round_trip(const int64_t *v, int n, bool is_signed)
{
	pm_byte_buffer out;
	orc_int_rle_enc *e = malloc(sizeof(orc_int_rle_enc));
	orc_int_rle d;
	int64_t    *got = malloc(sizeof(int64_t) * (size_t) (n + 1));
	int64_t    *lit = malloc(sizeof(int64_t) * ORC_MAX_RUN);
	pm_error	err;

	pm_byte_buffer_init(&out, pm_env_default());
	orc_int_rle_enc_init(e, &out, is_signed);
	for (int i = 0; i < n; i++)
		orc_int_rle_enc_put(e, v[i]);
	orc_int_rle_enc_flush(e);
	assert_false(out.failed);
	orc_int_rle_init(&d, out.data, out.len, true, is_signed);
	d.lit = lit;
	assert_int_equal(orc_int_rle_read(&d, got, n, &err), PM_OK);
	for (int i = 0; i < n; i++)
		if (got[i] != v[i])
			fail_msg("value %d: %lld written, %lld read", i, (long long) v[i], (long long) got[i]);
	/* nothing left over */
	assert_int_not_equal(orc_int_rle_read(&d, got, 1, &err), PM_OK);
	pm_byte_buffer_free(&out);
	free(e);
	free(got);
	free(lit);
}

static void
test_int_rle_v2(void **state)
{
	int64_t    *v = malloc(sizeof(int64_t) * 3000);
	uint64_t	seed = 42;

	(void) state;
	/* short repeats, delta runs, one value, two values */
	for (int n = 1; n <= 600; n = n < 12 ? n + 1 : n * 2)
		for (int s = 0; s < 2; s++)
		{
			for (int i = 0; i < n; i++)
				v[i] = s ? -123456789 : 7;
			int_round_trip(v, n, s != 0);
		}
	/* every bit width, signed and unsigned; runs of 513 cross the 512 cut */
	for (int bits = 1; bits <= 64; bits++)
	{
		for (int i = 0; i < 1100; i++)
		{
			uint64_t	r = next_rand(&seed);

			v[i] = (int64_t) (bits == 64 ? r : r & ((UINT64_C(1) << bits) - 1));
		}
		int_round_trip(v, 1100, false);
		for (int i = 0; i < 1100; i++)
			v[i] = v[i] >> 1 ^ -(v[i] & 1);
		int_round_trip(v, 1100, true);
	}
	/* DELTA: fixed steps, monotonic runs up and down, a zero first step */
	for (int kind = 0; kind < 7; kind++)
		for (int s = 0; s < 2; s++)
		{
			int			n = 1300;

			for (int i = 0; i < n; i++)
			{
				uint64_t	r = next_rand(&seed);

				switch (kind)
				{
					case 0:
						v[i] = 1000 + 7 * i;	/* fixed step */
						break;
					case 1:
						v[i] = 5000000 - 3 * i;	/* fixed negative step */
						break;
					case 2:
						v[i] = i == 0 ? 0 : v[i - 1] + (int64_t) (r % 5);	/* increasing */
						break;
					case 3:
						v[i] = i == 0 ? INT64_C(1) << 40 : v[i - 1] - (int64_t) (r % 3000);
						break;
					case 4:
						v[i] = i < 2 ? 9 : v[i - 1] + (int64_t) (r % 2);	/* first step 0 */
						break;
					case 5:
						v[i] = i % 2 == 0 ? i : -i;	/* not monotonic */
						break;
					default:
						v[i] = i % 3 == 0 ? INT64_MAX - i : INT64_MIN + i;	/* steps overflow */
						break;
				}
			}
			if (!s && (kind == 1 || kind == 3 || kind == 5 || kind == 6))
				continue;		/* unsigned streams hold no negative values */
			int_round_trip(v, n, s != 0);
		}
	/* extremes and runs mixed with literals */
	for (int i = 0; i < 3000; i++)
	{
		uint64_t	r = next_rand(&seed);

		v[i] = (i / 50) % 3 == 0 ? INT64_MIN : (i / 50) % 3 == 1 ? INT64_MAX : (int64_t) r;
	}
	int_round_trip(v, 3000, true);
	free(v);
}

static void
test_byte_and_bool_rle(void **state)
{
	uint8_t    *v = malloc(5000);
	uint8_t    *got = malloc(5000);
	uint64_t	seed = 7;
	pm_error	err;

	(void) state;
	for (int pattern = 0; pattern < 4; pattern++)
	{
		pm_byte_buffer out;
		orc_byte_rle_enc e;
		orc_bool_enc be;
		orc_byte_rle d;
		orc_bool_rle bd;
		int			n = 4999 - pattern * 3;

		for (int i = 0; i < n; i++)
		{
			uint64_t	r = next_rand(&seed);

			switch (pattern)
			{
				case 0:
					v[i] = (uint8_t) r;
					break;
				case 1:
					v[i] = (uint8_t) ((i / 200) * 3);	/* long runs */
					break;
				case 2:
					v[i] = (uint8_t) (r % 3 == 0 ? 9 : (r >> 8) % 2);	/* short runs */
					break;
				default:
					v[i] = (uint8_t) (i % 2 == 0 ? 255 : (i / 7) % 256);
					break;
			}
		}
		pm_byte_buffer_init(&out, pm_env_default());
		orc_byte_rle_enc_init(&e, &out);
		for (int i = 0; i < n; i++)
			orc_byte_rle_enc_put(&e, v[i]);
		orc_byte_rle_enc_flush(&e);
		orc_byte_rle_init(&d, out.data, out.len);
		assert_int_equal(orc_byte_rle_read(&d, got, n, &err), PM_OK);
		assert_memory_equal(got, v, (size_t) n);
		if (pattern == 1)
			assert_true(out.len < (size_t) n / 10);

		/* the same values as booleans */
		pm_byte_buffer_reset(&out);
		orc_bool_enc_init(&be, &out);
		for (int i = 0; i < n; i++)
			orc_bool_enc_put(&be, (v[i] & 1) != 0);
		orc_bool_enc_flush(&be);
		orc_bool_rle_init(&bd, out.data, out.len);
		assert_int_equal(orc_bool_rle_read(&bd, got, n, &err), PM_OK);
		for (int i = 0; i < n; i++)
			assert_int_equal(got[i] != 0, (v[i] & 1) != 0);
		pm_byte_buffer_free(&out);
	}
	free(v);
	free(got);
}

/* ---------------------------------------------------------------------
 * Files
 * --------------------------------------------------------------------- */

static const char *flat_type =
	"ROW<b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
	"dec DECIMAL(38, 10), dec2 DECIMAL(5, 2) NOT NULL, c CHAR(3), vc VARCHAR(20), v STRING, "
	"bin BINARY(2), vb BYTES, dt DATE, tm TIME(3), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6) NOT NULL, "
	"ts9 TIMESTAMP(9), ltz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, "
	"ltz6 TIMESTAMP(6) WITH LOCAL TIME ZONE, allnull INT, konst BIGINT>";

/* The decoded PostScript and Footer of a file (orc_proto.c). */
static size_t
file_tail(pm_fileio *io, const char *path, pm_arena *a, orc_postscript *ps, orc_footer *footer)
{
	uint8_t    *d;
	size_t		len,
				pslen;
	const uint8_t *f;
	size_t		flen;
	pm_error	err;

	assert_int_equal(pm_fileio_read_all(io, path, a, 256 << 20, &d, &len, &err), PM_OK);
	assert_true(len > 4);
	assert_memory_equal(d, "ORC", 3);
	pslen = d[len - 1];
	assert_int_equal(orc_parse_postscript(d + len - 1 - pslen, pslen, ps, &err), PM_OK);
	assert_true(ps->footer_length + pslen + 1 < len);
	assert_int_equal(orc_decompress_stream((int) ps->compression, ps->block_size,
										   d + len - 1 - pslen - ps->footer_length,
										   ps->footer_length, a, 64 << 20, &f, &flen, &err), PM_OK);
	assert_int_equal(orc_parse_footer(f, flen, a, footer, &err), PM_OK);
	return len;
}

static void
test_flat_types_every_codec(void **state)
{
	static const char *codecs[] = {"none", "zstd", "snappy", "lz4", "zlib", "ZSTD"};
	static const int kinds[] = {ORC_C_NONE, ORC_C_ZSTD, ORC_C_SNAPPY, ORC_C_LZ4, ORC_C_ZLIB, ORC_C_ZSTD};
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, flat_type);
	pm_batch	batches[3];
	int64_t		counts[3] = {25000, 1, 5555};

	(void) state;
	for (int k = 0; k < 3; k++)
		writer_fixture_fill_flat(&batches[k], row, counts[k], a, (uint64_t) k * 7919 + 1);
	for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++)
	{
		for (int small = 0; small < 2; small++)
		{
			char		path[64];
			pm_format_write_result res;
			orc_postscript ps;
			orc_footer	footer;
			size_t		file_len;

			snprintf(path, sizeof(path), "/t/flat-%zu-%d.orc", c, small);
			/* small stripes: one per batch at least, often more */
			writer_fixture_write(PM_FORMAT_ORC, io, path, row, codecs[c], small ? 65536 : 0, NULL, batches, 3, &res, a);
			assert_int_equal(res.row_count, 30556);
			assert_int_equal(res.ncols, row->nfields);
			assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, path, row, batches, 3, codecs[c]), 30556);
			file_len = file_tail(io, path, a, &ps, &footer);
			assert_int_equal((int) ps.compression, kinds[c]);
			assert_int_equal((int64_t) footer.nrows, 30556);
			assert_int_equal(footer.ntypes, row->nfields + 1);
			assert_int_equal(footer.types[0].kind, ORC_STRUCT);
			assert_string_equal(footer.types[0].names[0], "b");
			assert_int_equal(footer.types[10].kind, ORC_CHAR);
			assert_int_equal(footer.types[10].max_length, 3);
			assert_int_equal(footer.types[11].kind, ORC_VARCHAR);
			assert_int_equal(footer.types[12].kind, ORC_STRING);
			assert_int_equal(footer.types[8].kind, ORC_DECIMAL);
			assert_int_equal(footer.types[8].precision, 38);
			assert_int_equal(footer.types[8].scale, 10);
			assert_int_equal(footer.types[20].kind, ORC_TIMESTAMP_INSTANT);
			if (small)
				assert_true(footer.nstripes > 3);
			else
				assert_int_equal(footer.nstripes, 1);
			assert_int_equal(res.file_size, (int64_t) file_len);
			/* the stripes tile the file after the magic */
			assert_int_equal((int64_t) footer.stripes[0].offset, 3);
			for (int k = 1; k < footer.nstripes; k++)
				assert_int_equal(footer.stripes[k].offset, footer.stripes[k - 1].offset +
								 footer.stripes[k - 1].index_length +
								 footer.stripes[k - 1].data_length + footer.stripes[k - 1].footer_length);
			/* row indexes: every stripe has its index streams */
			for (int k = 0; k < footer.nstripes; k++)
				assert_true(footer.stripes[k].index_length > 0);
		}
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static void
test_stats(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, flat_type);
	pm_batch	batches[2];
	pm_format_write_result res;

	(void) state;
	writer_fixture_fill_flat(&batches[0], row, 3000, a, 5);
	writer_fixture_fill_flat(&batches[1], row, 17, a, 6);
	writer_fixture_write(PM_FORMAT_ORC, io, "/s.orc", row, "zstd", 8192, NULL, batches, 2, &res, a);
	for (int col = 0; col < row->nfields; col++)
	{
		const pm_type *t = row->fields[col].type;
		int64_t		nulls = 0,
					imin = INT64_MAX,
					imax = INT64_MIN;

		for (int k = 0; k < 2; k++)
			for (int64_t i = 0; i < batches[k].nrows; i++)
			{
				if (pm_vector_is_null(&batches[k].cols[col], i))
				{
					nulls++;
					continue;
				}
				if (t->id == PM_TYPE_BIGINT || t->id == PM_TYPE_TIMESTAMP)
				{
					int64_t		x = PM_VEC_VALUES(&batches[k].cols[col], int64_t)[i];

					imin = x < imin ? x : imin;
					imax = x > imax ? x : imax;
				}
			}
		assert_int_equal(res.stats[col].null_count, nulls);
		assert_int_equal(res.stats[col].has_min_max, strcmp(row->fields[col].name, "allnull") != 0);
		if (t->id == PM_TYPE_BIGINT || t->id == PM_TYPE_TIMESTAMP)
		{
			assert_int_equal(res.stats[col].min.u.i64, imin);
			assert_int_equal(res.stats[col].max.u.i64, imax);
		}
		if (strcmp(row->fields[col].name, "l") == 0)
		{
			assert_int_equal(imin, INT64_MIN);
			assert_int_equal(imax, INT64_MAX);
		}
		if (strcmp(row->fields[col].name, "konst") == 0)
			assert_int_equal(res.stats[col].max.u.i64, 42);
	}
	assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, "/s.orc", row, batches, 2, "stats"), 3017);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static void
test_refusals_leave_no_file(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, "ROW<i INT NOT NULL>");
	pm_format_write_options o;
	pm_format_writer *w;
	pm_batch	b;
	pm_error	err;
	static const char *nested[] = {"ROW<a ARRAY<VARIANT>>", "ROW<m MULTISET<ARRAY<INT>>>",
	"ROW<r ROW<x ROW<y VARIANT>>>", "ROW<v VARIANT>"};

	(void) state;
	memset(&o, 0, sizeof(o));
	o.compression = "zstd";
	for (size_t k = 0; k < sizeof(nested) / sizeof(nested[0]); k++)
	{
		o.schema = writer_fixture_parse_type(a, nested[k]);
		assert_int_equal(pm_orc_writer_open(pm_env_default(), io, "/x.orc", &o, &w, &err),
						 PM_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.message, "cannot be written to ORC"));
		assert_false(io->exists(io, "/x.orc"));
	}
	o.schema = row;
	o.compression = "lzo";
	assert_int_equal(pm_orc_writer_open(pm_env_default(), io, "/x.orc", &o, &w, &err),
					 PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "\"lzo\""));
	assert_false(io->exists(io, "/x.orc"));

	/* NULL in a NOT NULL column */
	o.compression = "zstd";
	assert_int_equal(pm_orc_writer_open(pm_env_default(), io, "/n.orc", &o, &w, &err), PM_OK);
	b.nrows = 2;
	b.ncols = 1;
	b.first_row = 0;
	b.cols = pm_arena_zalloc(a, sizeof(pm_vector));
	assert_true(pm_vector_init(&b.cols[0], row->fields[0].type, 2, true, a));
	b.cols[0].length = 2;
	b.cols[0].nulls[1] = 1;
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "\"i\""));
	pm_format_writer_abort(w);
	assert_false(io->exists(io, "/n.orc"));

	/* a write failure of the file system: finish fails and nothing stays */
	assert_int_equal(pm_orc_writer_open(pm_env_default(), io, "/f.orc", &o, &w, &err), PM_OK);
	b.cols[0].nulls[1] = 0;
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	pm_memory_fileio_fail_write(io, 1, PM_ERR_IO);
	{
		pm_format_write_result res;

		assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_ERR_IO);
	}
	assert_false(io->exists(io, "/f.orc"));
	/* an existing file is not overwritten */
	assert_int_equal(pm_memory_fileio_add(io, "/e.orc", "x", 1, &err), PM_OK);
	assert_int_not_equal(pm_orc_writer_open(pm_env_default(), io, "/e.orc", &o, &w, &err), PM_OK);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}


/* ---------------------------------------------------------------------
 * Dictionary encoding and bloom filters
 * --------------------------------------------------------------------- */

/* A stripe's footer and the decompressed bytes of one of its streams. */
typedef struct stripe_view
{
	const uint8_t *file;
	orc_postscript ps;
	orc_footer	footer;
	orc_stripe_footer sf;
	int			stripe;
} stripe_view;

static void
view_stripe(pm_fileio *io, const char *path, pm_arena *a, int stripe, stripe_view *v)
{
	size_t		len;
	uint8_t    *d;
	const uint8_t *f;
	size_t		flen;
	const orc_stripe_info *si;
	pm_error	err;

	file_tail(io, path, a, &v->ps, &v->footer);
	assert_true(stripe < v->footer.nstripes);
	assert_int_equal(pm_fileio_read_all(io, path, a, 256 << 20, &d, &len, &err), PM_OK);
	v->file = d;
	v->stripe = stripe;
	si = &v->footer.stripes[stripe];
	assert_int_equal(orc_decompress_stream((int) v->ps.compression, v->ps.block_size,
										   d + si->offset + si->index_length + si->data_length,
										   si->footer_length, a, 64 << 20, &f, &flen, &err), PM_OK);
	assert_int_equal(orc_parse_stripe_footer(f, flen, a, &v->sf, &err), PM_OK);
}

/* the stream (kind, column) of the stripe, decompressed; NULL if absent */
static const uint8_t *
view_stream(const stripe_view *v, pm_arena *a, int kind, uint32_t column, size_t *len)
{
	uint64_t	off = v->footer.stripes[v->stripe].offset;
	pm_error	err;

	for (int k = 0; k < v->sf.nstreams; k++)
	{
		const orc_stream_info *st = &v->sf.streams[k];

		if (st->kind == kind && st->column == column)
		{
			const uint8_t *out;

			assert_int_equal(orc_decompress_stream((int) v->ps.compression, v->ps.block_size,
												   v->file + off, st->length, a, 64 << 20,
												   &out, len, &err), PM_OK);
			return out;
		}
		off += st->length;
	}
	return NULL;
}

static uint64_t
pb_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t	v = 0;

	for (int shift = 0; *p < end && shift < 64; shift += 7)
	{
		uint8_t		b = *(*p)++;

		v |= (uint64_t) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return v;
	}
	fail_msg("bad varint");
	return 0;
}

/*
 * The BloomFilterIndex of a BLOOM_FILTER_UTF8 stream: at most max filters,
 * their words in `words` (nwords each, as the utf8bitset holds them).
 */
static int
parse_blooms(const uint8_t *p, size_t len, orc_bloom *out, int max, pm_arena *a)
{
	const uint8_t *end = p + len;
	int			n = 0;

	while (p < end)
	{
		uint64_t	key = pb_varint(&p, end);
		uint64_t	mlen = pb_varint(&p, end);
		const uint8_t *m = p,
				   *mend = p + mlen;

		assert_int_equal(key, (1 << 3) | 2);
		assert_true(n < max);
		memset(&out[n], 0, sizeof(out[n]));
		while (m < mend)
		{
			uint64_t	k = pb_varint(&m, mend);

			if (k == (1 << 3))
				out[n].nhash = (int32_t) pb_varint(&m, mend);
			else
			{
				uint64_t	blen = pb_varint(&m, mend);

				assert_int_equal(k, (3 << 3) | 2);
				assert_int_equal(blen % 8, 0);
				out[n].nbits = (int32_t) (blen * 8);
				out[n].words = pm_arena_alloc(a, blen);
				for (uint64_t w = 0; w < blen / 8; w++)
				{
					uint64_t	x = 0;

					for (int b = 7; b >= 0; b--)
						x = (x << 8) | m[w * 8 + (uint64_t) b];
					out[n].words[w] = x;
				}
				m += blen;
			}
		}
		p = mend;
		n++;
	}
	return n;
}

static void
test_bloom_hash(void **state)
{
	/* Apache ORC 1.9.2 (Murmur3.hash64, new BloomFilterUtf8(10000, 0.01)) */
	static const struct
	{
		const char *s;
		int64_t		hash;
		int32_t		bits[7];
	}			str[] = {
		{"", INT64_C(8404154273843829576), {32960, 36272, 39584, 42896, 53415, 56727, 60039}},
		{"a", INT64_C(-2460741455279943289), {4587, 9532, 69072, 74017, 78962, 90569, 95514}},
		{"hello", INT64_C(4118559451821261121), {2366, 12737, 17470, 27841, 32574, 45761, 50494}},
		{"abcdefgh", INT64_C(729624805048849005), {34857, 41029, 47201, 53373, 59545, 65717, 71889}},
		{"abcdefghi", INT64_C(3101789324417447593), {1169, 13341, 20742, 32914, 38613, 45086, 84869}},
		{"long string number 17 with \xc3\xa9 and \xe4\xb8\x80 zzz", INT64_C(9152991384462754052),
		{51534, 54362, 66212, 69040, 80890, 83718, 95568}},
	};
	static const struct
	{
		int64_t		v;
		int32_t		bits[7];
	}			lng[] = {
		{1, {16951, 21792, 33906, 49851, 50861, 54692, 66806}},
		{-1, {10135, 14580, 17563, 22008, 68448, 88719, 93164}},
		{42, {3604, 37161, 49624, 62087, 74550, 77372, 87013}},
		{INT64_C(123456789012), {11569, 29645, 41589, 53533, 71609, 83553, 95497}},
		{INT64_MIN, {47945, 53869, 63881, 69805, 69824, 75748, 91684}},
	};
	static const struct
	{
		double		v;
		int32_t		bits[7];
	}			dbl[] = {
		{1.5, {13002, 18542, 30170, 35710, 61715, 78883, 84423}},
		{-0.0, {47945, 53869, 63881, 69805, 69824, 75748, 91684}},
		{NAN, {24516, 28470, 32424, 36378, 40332, 75309, 79263}},
		{(double) 0.1f, {471, 1271, 6389, 12307, 85307, 90425, 91225}},
	};
	uint64_t	words[95872 / 64];
	orc_bloom	b = {.words = words};

	(void) state;
	orc_bloom_size(10000, 0.01, &b.nbits, &b.nhash);
	assert_int_equal(b.nbits, 95872);
	assert_int_equal(b.nhash, 7);
	{
		int32_t		m,
					k;

		orc_bloom_size(10000, 0.05, &m, &k);
		assert_int_equal(m, 62400);
		assert_int_equal(k, 4);
		orc_bloom_size(10000, 0.5, &m, &k);
		assert_int_equal(m, 14464);
		assert_int_equal(k, 1);
		orc_bloom_size(10000, 0.001, &m, &k);
		assert_int_equal(m, 143808);
		assert_int_equal(k, 10);
	}
#define CHECK_BITS(expect) \
	do { \
		int nset = 0; \
		for (int32_t pos = 0; pos < b.nbits; pos++) \
			nset += (words[pos >> 6] >> (pos & 63)) & 1; \
		assert_int_equal(nset, 7); \
		for (int j = 0; j < 7; j++) \
			assert_true((words[(expect)[j] >> 6] >> ((expect)[j] & 63)) & 1); \
	} while (0)
	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
	{
		assert_int_equal((int64_t) orc_murmur3_hash64((const uint8_t *) str[i].s, strlen(str[i].s)),
						 str[i].hash);
		memset(words, 0, sizeof(words));
		orc_bloom_add_bytes(&b, (const uint8_t *) str[i].s, strlen(str[i].s));
		CHECK_BITS(str[i].bits);
		assert_true(orc_bloom_test_hash(&b, orc_murmur3_hash64((const uint8_t *) str[i].s,
															   strlen(str[i].s))));
	}
	for (size_t i = 0; i < sizeof(lng) / sizeof(lng[0]); i++)
	{
		memset(words, 0, sizeof(words));
		orc_bloom_add_long(&b, lng[i].v);
		CHECK_BITS(lng[i].bits);
	}
	for (size_t i = 0; i < sizeof(dbl) / sizeof(dbl[0]); i++)
	{
		memset(words, 0, sizeof(words));
		orc_bloom_add_double(&b, dbl[i].v);
		CHECK_BITS(dbl[i].bits);
	}
#undef CHECK_BITS
	/* 0 hashes to 0: only bit 0, whatever k */
	memset(words, 0, sizeof(words));
	orc_bloom_add_long(&b, 0);
	assert_int_equal(words[0], 1);
	for (size_t w = 1; w < sizeof(words) / sizeof(words[0]); w++)
		assert_int_equal(words[w], 0);
	assert_false(orc_bloom_test_hash(&b, orc_bloom_long_hash(42)));
}

static void
set_str(pm_vector *v, int64_t i, const char *s, int64_t *cap, pm_arena *a)
{
	if (s == NULL)
	{
		v->nulls[i] = 1;
		v->offsets[i + 1] = v->offsets[i];
		return;
	}
	assert_true(pm_vector_append_data(v, cap, s, (int32_t) strlen(s), a));
	v->offsets[i + 1] = (int32_t) v->data_size;
}

/*
 * Rows for the dictionary test: the first row group decides. "d79" holds
 * 7999 distinct values in the group's 10000 (ratio 0.7999: dictionary),
 * "d80" 8000 (0.8 as a float is above 0.8 as a double: DIRECT, as in
 * Java), "nul" a few values among NULLs (the ratio counts values only),
 * "ch" CHAR(4) padded values, "direct" a column in
 * orc.column.encoding.direct, "bin" binary (never a dictionary); after
 * the first group every value is new, which does not undo a decision.
 */
static void
fill_dict(pm_batch *b, const pm_type *row, int64_t first, int64_t n, pm_arena *a)
{
	int64_t		caps[8] = {0};

	b->nrows = n;
	b->first_row = 0;
	b->ncols = row->nfields;
	b->cols = pm_arena_zalloc(a, sizeof(pm_vector) * (size_t) row->nfields);
	for (int c = 0; c < row->nfields; c++)
	{
		assert_true(pm_vector_init(&b->cols[c], row->fields[c].type, n, true, a));
		b->cols[c].length = n;
	}
	for (int64_t k = 0; k < n; k++)
	{
		int64_t		i = first + k;
		char		buf[6][40];

		snprintf(buf[0], 40, "v%lld", (long long) (i < 10000 ? i % 7999 : i));
		snprintf(buf[1], 40, "w%lld", (long long) (i < 10000 ? i % 8000 : i));
		snprintf(buf[2], 40, "n%lld", (long long) (i % 3));
		snprintf(buf[3], 40, "c%lld", (long long) (i % 5));
		snprintf(buf[4], 40, "x%lld", (long long) (i % 2));
		snprintf(buf[5], 40, "%c", (char) ('a' + i % 3));
		set_str(&b->cols[0], k, buf[0], &caps[0], a);
		set_str(&b->cols[1], k, buf[1], &caps[1], a);
		set_str(&b->cols[2], k, i % 10 == 0 ? buf[2] : NULL, &caps[2], a);
		set_str(&b->cols[3], k, i % 4 == 1 ? NULL : buf[3], &caps[3], a);
		set_str(&b->cols[4], k, buf[4], &caps[4], a);
		set_str(&b->cols[5], k, buf[5], &caps[5], a);
		set_str(&b->cols[6], k, NULL, &caps[6], a);
	}
}

static void
test_dictionary_threshold(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, "ROW<d79 STRING, d80 VARCHAR(10), nul STRING, "
									"ch CHAR(4), direct STRING, bin BYTES, allnull STRING>");
	pm_batch	batches[3];
	static const char *codecs[] = {"zstd", "none"};
	/* per column: DICTIONARY_V2 (1) or DIRECT_V2 (0) */
	static const int dict[] = {1, 0, 1, 1, 0, 0, 1};
	/* small stripes: the first ends before 10000 rows and decides, all distinct */
	static const int dict_small[] = {0, 0, 1, 1, 0, 0, 1};

	(void) state;
	fill_dict(&batches[0], row, 0, 10000, a);
	fill_dict(&batches[1], row, 10000, 4321, a);
	fill_dict(&batches[2], row, 14321, 20000, a);
	for (size_t c = 0; c < 2; c++)
		for (int small = 0; small < 2; small++)
		{
			pm_orc_write_options oo = {.dictionary_threshold = 0.8,
			.direct_columns = " nosuch , DIRECT.x"};
			char		path[64];
			stripe_view v;

			snprintf(path, sizeof(path), "/d/dict-%zu-%d.orc", c, small);
			writer_fixture_write(PM_FORMAT_ORC, io, path, row, codecs[c], small ? 60000 : 0, &oo, batches, 3, NULL, a);
			assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, path, row, batches, 3, path), 34321);
			view_stripe(io, path, a, 0, &v);
			if (small)
				assert_true(v.footer.nstripes > 2);
			for (int k = 0; k < v.footer.nstripes; k++)
			{
				view_stripe(io, path, a, k, &v);
				assert_int_equal(v.sf.ncolumns, row->nfields + 1);
				for (int col = 0; col < row->nfields; col++)
				{
					size_t		dlen;

					int			want = small ? dict_small[col] : dict[col];

					if (v.sf.encodings[col + 1] != (want ? ORC_E_DICTIONARY_V2 : ORC_E_DIRECT_V2))
						fail_msg("%s stripe %d column %s: encoding %d", path, k,
								 row->fields[col].name, v.sf.encodings[col + 1]);
					assert_int_equal(view_stream(&v, a, ORC_S_DICTIONARY_DATA, (uint32_t) col + 1, &dlen) != NULL,
									 want);
				}
				/* the CHAR(4) dictionary: five values, padded to 4 */
				if (k == 0)
				{
					size_t		dlen;
					const uint8_t *dd = view_stream(&v, a, ORC_S_DICTIONARY_DATA, 4, &dlen);

					assert_int_equal(v.sf.dict_sizes[4], 5);
					assert_int_equal(dlen, 20);
					assert_memory_equal(dd, "c0  c1  c2  c3  c4  ", 20);
					assert_int_equal(v.sf.dict_sizes[3], 3);
					assert_int_equal(v.sf.dict_sizes[7], 0);
				}
			}
		}
	/* threshold 0 (a zeroed struct): no dictionary anywhere; 1: dictionary for all strings */
	for (int t = 0; t < 2; t++)
	{
		pm_orc_write_options oo = {.dictionary_threshold = t};
		stripe_view v;

		writer_fixture_write(PM_FORMAT_ORC, io, t ? "/d/all.orc" : "/d/none.orc", row, "zstd", 0, &oo, batches, 3, NULL, a);
		assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, t ? "/d/all.orc" : "/d/none.orc", row, batches, 3, "t"), 34321);
		view_stripe(io, t ? "/d/all.orc" : "/d/none.orc", a, 0, &v);
		for (int col = 0; col < row->nfields; col++)
			assert_int_equal(v.sf.encodings[col + 1],
							 t && col != 5 ? ORC_E_DICTIONARY_V2 : ORC_E_DIRECT_V2);
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static void
test_bloom_filters(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, flat_type);
	pm_batch	batches[2];
	static const char *codecs[] = {"zlib", "none"};

	(void) state;
	writer_fixture_fill_flat(&batches[0], row, 23456, a, 11);
	writer_fixture_fill_flat(&batches[1], row, 777, a, 12);
	for (size_t c = 0; c < 2; c++)
	{
		pm_orc_write_options oo = {.dictionary_threshold = 0.8,
		.bloom_columns = c == 0 ? "*" : "i, L,v,dec,ts9,d,f,dt,c,bin,b,nosuch"};
		char		path[64];
		stripe_view v;
		int			ngroups = 0;

		snprintf(path, sizeof(path), "/b/bloom-%zu.orc", c);
		writer_fixture_write(PM_FORMAT_ORC, io, path, row, codecs[c], 0, &oo, batches, 2, NULL, a);
		assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, path, row, batches, 2, path), 24233);
		view_stripe(io, path, a, 0, &v);
		assert_int_equal(v.footer.nstripes, 1);
		for (uint32_t col = 0; col <= (uint32_t) row->nfields; col++)
		{
			const char *name = col == 0 ? "" : row->fields[col - 1].name;
			bool		want = c == 0 || strstr(",i,l,v,dec,ts9,d,f,dt,c,bin,b,",
												name[0] ? name : "-") != NULL;
			size_t		blen;
			const uint8_t *bs = view_stream(&v, a, ORC_S_BLOOM_FILTER_UTF8, col, &blen);
			orc_bloom	bl[4];
			char		key[40];

			snprintf(key, sizeof(key), ",%s,", name);
			want = c == 0 || (col > 0 && strstr(",i,l,v,dec,ts9,d,f,dt,c,bin,b,", key) != NULL);
			if ((bs != NULL) != want)
				fail_msg("%s column %u (%s): bloom filter stream %s", path, col, name,
						 bs ? "written" : "missing");
			if (bs == NULL)
				continue;
			ngroups = parse_blooms(bs, blen, bl, 4, a);
			assert_int_equal(ngroups, 3);	/* 10000, 10000, 4233 rows */
			for (int g = 0; g < ngroups; g++)
			{
				assert_int_equal(bl[g].nbits, 95872);
				assert_int_equal(bl[g].nhash, 7);
			}
			if (col == 0 || row->fields[col - 1].type->id == PM_TYPE_BOOLEAN ||
				strcmp(name, "allnull") == 0)
			{
				/* nothing is added: all bits clear */
				for (int g = 0; g < ngroups; g++)
					for (int w = 0; w < bl[g].nbits / 64; w++)
						assert_int_equal(bl[g].words[w], 0);
				continue;
			}
			/* every value of a group tests positive in its group's filter */
			for (int64_t r = 0; r < 24233; r++)
			{
				int			k = r < 23456 ? 0 : 1;
				int64_t		i = k == 0 ? r : r - 23456;
				const pm_vector *vec = &batches[k].cols[col - 1];
				const pm_type *t = row->fields[col - 1].type;
				const orc_bloom *f = &bl[r / 10000];
				uint64_t	h;

				if (pm_vector_is_null(vec, i))
					continue;
				switch (t->id)
				{
					case PM_TYPE_TINYINT:
					case PM_TYPE_SMALLINT:
					case PM_TYPE_INT:
					case PM_TYPE_DATE:
					case PM_TYPE_TIME:
					case PM_TYPE_BIGINT:
						h = orc_bloom_long_hash(pm_vector_int64_at(vec, i));
						break;
					case PM_TYPE_DOUBLE:
					case PM_TYPE_FLOAT:
						{
							double		d = t->id == PM_TYPE_FLOAT ?
								(double) PM_VEC_VALUES(vec, float)[i] : PM_VEC_VALUES(vec, double)[i];
							uint64_t	bits;

							memcpy(&bits, &d, 8);
							if (isnan(d))
								bits = UINT64_C(0x7ff8000000000000);
							h = orc_bloom_long_hash((int64_t) bits);
						}
						break;
					case PM_TYPE_TIMESTAMP:
					case PM_TYPE_TIMESTAMP_LTZ:
						{
							int64_t		secs,
										nanos,
										ms;

							orc_timestamp_parts(vec, i, &secs, &nanos, &ms);
							h = orc_bloom_long_hash(ms);
						}
						break;
					case PM_TYPE_DECIMAL:
						{
							char		text[48];
							size_t		n = orc_decimal_text(PM_VEC_VALUES(vec, pm_int128)[i],
															 t->scale, text);

							h = orc_murmur3_hash64((const uint8_t *) text, n);
						}
						break;
					case PM_TYPE_CHAR:
						{
							/* CHAR(3): padded with spaces */
							int32_t		len;
							const uint8_t *p = pm_vector_bytes(vec, i, &len);
							uint8_t		pad[3] = {' ', ' ', ' '};

							memcpy(pad, p, (size_t) (len < 3 ? len : 3));
							h = orc_murmur3_hash64(pad, 3);
						}
						break;
					default:
						{
							int32_t		len;
							const uint8_t *p = pm_vector_bytes(vec, i, &len);

							h = orc_murmur3_hash64(p, (size_t) len);
						}
						break;
				}
				if (!orc_bloom_test_hash(f, h))
					fail_msg("%s column %s row %lld: not in its row group's bloom filter",
							 path, name, (long long) r);
			}
		}
		assert_true(ngroups == 3);
	}
	/* a name picks the first field it matches, ignoring case ("a" is "A") */
	{
		const pm_type *r3 = writer_fixture_parse_type(a, "ROW<A INT, a INT, b INT>");
		pm_orc_write_options oo = {.bloom_columns = "a, B.x"};
		pm_batch	b3;
		stripe_view v;
		size_t		blen;

		writer_fixture_fill_flat(&b3, r3, 10, a, 3);
		writer_fixture_write(PM_FORMAT_ORC, io, "/b/case.orc", r3, "none", 0, &oo, &b3, 1, NULL, a);
		view_stripe(io, "/b/case.orc", a, 0, &v);
		assert_non_null(view_stream(&v, a, ORC_S_BLOOM_FILTER_UTF8, 1, &blen));
		assert_null(view_stream(&v, a, ORC_S_BLOOM_FILTER_UTF8, 2, &blen));
		assert_non_null(view_stream(&v, a, ORC_S_BLOOM_FILTER_UTF8, 3, &blen));
		assert_null(view_stream(&v, a, ORC_S_BLOOM_FILTER_UTF8, 0, &blen));
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* the top-level entries (field 1 messages) of a RowIndex or BloomFilterIndex */
static int
count_entries(const uint8_t *p, size_t len)
{
	const uint8_t *end = p + len;
	int			n = 0;

	while (p < end)
	{
		uint64_t	key = pb_varint(&p, end);
		uint64_t	mlen = pb_varint(&p, end);

		assert_int_equal(key, (1 << 3) | 2);
		assert_true(mlen <= (uint64_t) (end - p));
		p += mlen;
		n++;
	}
	return n;
}

/*
 * orc.row.index.stride: one row index entry and one bloom filter (sized for
 * the stride, as new BloomFilterUtf8(rowIndexStride, fpp)) per stride rows
 * of a stripe, the stride in the footer; below 1000 is WriterImpl's error.
 */
static void
test_row_index_stride(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, flat_type);
	pm_batch	batches[2];
	pm_orc_write_options oo = {.dictionary_threshold = 0.8, .bloom_columns = "i",
	.row_index_stride = 1000};
	stripe_view v;
	size_t		len;
	const uint8_t *p;
	orc_bloom	bl[4];
	int32_t		nbits,
				nhash;
	pm_format_write_options fo = {0};
	pm_format_writer *w = NULL;
	pm_error	err;
	bool		found = false;

	(void) state;
	writer_fixture_fill_flat(&batches[0], row, 1777, a, 21);
	writer_fixture_fill_flat(&batches[1], row, 723, a, 22);
	writer_fixture_write(PM_FORMAT_ORC, io, "/s/stride.orc", row, "zstd", 0, &oo, batches, 2, NULL, a);
	assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, "/s/stride.orc", row, batches, 2,
											  "/s/stride.orc"), 2500);
	view_stripe(io, "/s/stride.orc", a, 0, &v);
	assert_int_equal(v.footer.nstripes, 1);
	for (uint32_t col = 0; col <= (uint32_t) row->nfields; col++)
	{
		p = view_stream(&v, a, ORC_S_ROW_INDEX, col, &len);
		assert_non_null(p);
		assert_int_equal(count_entries(p, len), 3); /* 1000, 1000, 500 rows */
	}
	p = view_stream(&v, a, ORC_S_BLOOM_FILTER_UTF8, 4, &len);
	assert_non_null(p);
	assert_int_equal(parse_blooms(p, len, bl, 4, a), 3);
	orc_bloom_size(1000, 0.01, &nbits, &nhash);
	assert_int_equal(bl[0].nbits, nbits);
	assert_int_equal(bl[0].nhash, nhash);
	assert_int_not_equal(nbits, 95872);
	/* Footer field 8 (rowIndexStride) = 1000: bytes 0x40 0xe8 0x07 in the plain footer */
	{
		size_t		flen = 0;
		const uint8_t *f;
		uint8_t    *all;
		size_t		alen;
		uint64_t	foot_off;

		assert_int_equal(pm_fileio_read_all(io, "/s/stride.orc", a, 256 << 20, &all, &alen, &err), PM_OK);
		foot_off = alen - 1 - all[alen - 1] - v.ps.footer_length;
		assert_int_equal(orc_decompress_stream((int) v.ps.compression, v.ps.block_size,
											   all + foot_off, v.ps.footer_length, a, 64 << 20,
											   &f, &flen, &err), PM_OK);
		for (size_t i = 0; i + 2 < flen; i++)
			found |= f[i] == 0x40 && f[i + 1] == 0xe8 && f[i + 2] == 0x07;
		assert_true(found);
	}
	/* WriterImpl: "Row stride must be at least 1000" */
	fo.schema = row;
	fo.compression = "none";
	fo.orc.row_index_stride = 999;
	assert_int_equal(pm_format_writer_open(PM_FORMAT_ORC, pm_env_default(), io, "/s/bad.orc", &fo,
										   &w, &err), PM_ERR_INVALID);
	assert_null(w);
	assert_non_null(strstr(err.message, "at least 1000"));
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* ---------------------------------------------------------------------
 * Nested columns
 * --------------------------------------------------------------------- */

/*
 * n values of `type` into v: leaves from writer_fixture_fill_flat, NULLs
 * at every nullable level, empty and NULL lists and maps.
 */
static void
fill_nested(pm_vector *v, const pm_type *type, int64_t n, pm_arena *a, uint64_t seed)
{
	uint64_t	r = seed * 6364136223846793005ULL + 1442695040888963407ULL;

	memset(v, 0, sizeof(*v));
	v->type = type;
	v->length = n;
	if (!pm_type_is_nested(type->id))
	{
		pm_field   *f = pm_arena_zalloc(a, sizeof(pm_field));
		pm_type    *row = pm_arena_zalloc(a, sizeof(pm_type));
		pm_batch	b;

		f->id = 0;
		f->name = "x";
		f->type = type;
		row->id = PM_TYPE_ROW;
		row->nfields = 1;
		row->fields = f;
		writer_fixture_fill_flat(&b, row, n > 0 ? n : 1, a, seed);
		*v = b.cols[0];
		v->length = n;
		return;
	}
	if (type->nullable)
	{
		v->nulls = pm_arena_zalloc(a, (size_t) (n > 0 ? n : 1));
		for (int64_t i = 0; i < n; i++)
			v->nulls[i] = (i + (int64_t) seed) % 6 == 2;
	}
	if (type->id == PM_TYPE_ROW)
	{
		v->nchildren = type->nfields;
		v->children = pm_arena_zalloc(a, sizeof(pm_vector) * (size_t) type->nfields);
		for (int k = 0; k < type->nfields; k++)
			fill_nested(&v->children[k], type->fields[k].type, n, a, seed * 31 + (uint64_t) k + 1);
		return;
	}
	v->offsets = pm_arena_zalloc(a, sizeof(int32_t) * (size_t) (n + 1));
	for (int64_t i = 0; i < n; i++)
	{
		int32_t		len = 0;

		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		if (!pm_vector_is_null(v, i))
			len = (int32_t) ((r >> 33) % 5);	/* 0 .. 4, empty ones included */
		v->offsets[i + 1] = v->offsets[i] + len;
	}
	v->nchildren = type->id == PM_TYPE_MAP ? 2 : 1;
	v->children = pm_arena_zalloc(a, sizeof(pm_vector) * 2);
	fill_nested(&v->children[0], type->element, v->offsets[n], a, seed * 17 + 3);
	if (type->id == PM_TYPE_MAP)
		fill_nested(&v->children[1], type->value, v->offsets[n], a, seed * 19 + 5);
}

static void
fill_nested_batch(pm_batch *b, const pm_type *row, int64_t n, pm_arena *a, uint64_t seed)
{
	memset(b, 0, sizeof(*b));
	b->nrows = n;
	b->ncols = row->nfields;
	b->cols = pm_arena_zalloc(a, sizeof(pm_vector) * (size_t) row->nfields);
	for (int k = 0; k < row->nfields; k++)
		fill_nested(&b->cols[k], row->fields[k].type, n, a, seed * 101 + (uint64_t) k);
}

static void
test_nested_round_trip(void **state)
{
	static const char *codecs[] = {"none", "zstd", "zlib"};
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a,
												   "ROW<id INT NOT NULL, a ARRAY<INT>, s ARRAY<STRING>, "
												   "m MAP<STRING, INT>, r ROW<a INT, b STRING>, "
												   "ar ARRAY<ROW<x BIGINT, y ARRAY<STRING>, z MAP<INT, DECIMAL(10, 2)>>>, "
												   "aa ARRAY<ARRAY<TIMESTAMP(6)>>, v STRING, "
												   "nn ARRAY<INT NOT NULL> NOT NULL>");
	pm_batch	batches[3];
	int64_t		counts[3] = {12345, 1, 3000};
	pm_orc_write_options oo = {.dictionary_threshold = 0.8, .bloom_columns = "ar,m",
	.row_index_stride = 1000};

	(void) state;
	for (int k = 0; k < 3; k++)
	{
		fill_nested_batch(&batches[k], row, counts[k], a, (uint64_t) k + 7);
		/* id, the NOT NULL columns: no NULLs */
		batches[k].cols[0].nulls = NULL;
		batches[k].cols[8].nulls = NULL;
		batches[k].cols[8].children[0].nulls = NULL;
	}
	for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++)
		for (int small = 0; small < 2; small++)
		{
			char		path[64];
			pm_format_write_result res;
			orc_postscript ps;
			orc_footer	footer;

			snprintf(path, sizeof(path), "/n/nested-%zu-%d.orc", c, small);
			writer_fixture_write(PM_FORMAT_ORC, io, path, row, codecs[c], small ? 32768 : 0,
								 small ? &oo : NULL, batches, 3, &res, a);
			assert_int_equal(res.row_count, 15346);
			assert_int_equal(res.ncols, row->nfields);
			assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, path, row, batches, 3,
													  codecs[c]), 15346);
			file_tail(io, path, a, &ps, &footer);
			/* pre-order: root, id, a, a.elem, s, s.elem, m, m.key, m.value, r, r.a, r.b, ar, ... */
			assert_int_equal(footer.types[0].nsubtypes, row->nfields);
			assert_int_equal(footer.types[0].subtypes[2], 4);
			assert_int_equal(footer.types[2].kind, ORC_LIST);
			assert_int_equal(footer.types[2].subtypes[0], 3);
			assert_int_equal(footer.types[6].kind, ORC_MAP);
			assert_int_equal(footer.types[6].subtypes[0], 7);
			assert_int_equal(footer.types[6].subtypes[1], 8);
			assert_int_equal(footer.types[9].kind, ORC_STRUCT);
			assert_string_equal(footer.types[9].names[1], "b");
			assert_int_equal(footer.types[12].kind, ORC_LIST);
			assert_int_equal(footer.types[13].kind, ORC_STRUCT);
			assert_int_equal(footer.types[13].nsubtypes, 3);
			if (small)
				assert_true(footer.nstripes > 2);
		}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/*
 * MULTISET<T> as Java writes it (OrcFileFormat.refineDataType): a map<T,
 * int> of each distinct element to its count, with a map's LENGTH,
 * statistics and bloom filters; read back with each element count times,
 * and rewritten as a compaction does.
 */
static void
test_multiset(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_orc_write_options oo = {.dictionary_threshold = 0.8, .bloom_columns = "mi,ms",
	.row_index_stride = 1000};
	const pm_type *as_map = writer_fixture_parse_type(a, "ROW<id BIGINT NOT NULL, "
													  "ms MAP<STRING, INT NOT NULL>, mi MAP<INT NOT NULL, INT NOT NULL>>");
	orc_postscript ps;
	orc_footer	footer;
	stripe_view sv;
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	static const int kinds[] = {ORC_STRUCT, ORC_LONG, ORC_MAP, ORC_STRING, ORC_INT, ORC_MAP,
	ORC_INT, ORC_INT};

	(void) state;
	writer_fixture_multiset_round_trip(PM_FORMAT_ORC, io, "/ms/a.orc", "/ms/b.orc", NULL, a);
	writer_fixture_multiset_round_trip(PM_FORMAT_ORC, io, "/ms/c.orc", "/ms/d.orc", &oo, a);

	/* root, id, ms map<string,int>, its key and value, mi map<int,int>, its key and value */
	file_tail(io, "/ms/a.orc", a, &ps, &footer);
	assert_int_equal(footer.ntypes, 8);
	for (int t = 0; t < 8; t++)
		assert_int_equal(footer.types[t].kind, kinds[t]);
	assert_int_equal(footer.types[2].subtypes[0], 3);
	assert_int_equal(footer.types[2].subtypes[1], 4);

	/* the map as stored, what Java reads: distinct elements, first occurrence first */
	memset(&ro, 0, sizeof(ro));
	ro.schema = as_map;
	ro.batch_size = 10;
	assert_int_equal(pm_format_reader_open(PM_FORMAT_ORC, pm_env_default(), io, "/ms/a.orc", &ro,
										   &r, &err), PM_OK);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	{
		/* row 3: ms x0, x1, x1 -> {x0: 1, x1: 2}; mi -1, -1, 0 -> {-1: 2, 0: 1} */
		const pm_vector *ms = &b->cols[1];
		const pm_vector *mi = &b->cols[2];
		int32_t		len;
		const uint8_t *p;

		assert_true(pm_vector_is_null(ms, 0));
		assert_int_equal(ms->offsets[4] - ms->offsets[3], 2);
		p = pm_vector_bytes(&ms->children[0], ms->offsets[3], &len);
		assert_int_equal(len, 2);
		assert_memory_equal(p, "x0", 2);
		p = pm_vector_bytes(&ms->children[0], ms->offsets[3] + 1, &len);
		assert_memory_equal(p, "x1", 2);
		assert_int_equal(PM_VEC_VALUES(&ms->children[1], int32_t)[ms->offsets[3]], 1);
		assert_int_equal(PM_VEC_VALUES(&ms->children[1], int32_t)[ms->offsets[3] + 1], 2);
		assert_int_equal(mi->offsets[4] - mi->offsets[3], 2);
		assert_int_equal(PM_VEC_VALUES(&mi->children[0], int32_t)[mi->offsets[3]], -1);
		assert_int_equal(PM_VEC_VALUES(&mi->children[1], int32_t)[mi->offsets[3]], 2);
		assert_int_equal(PM_VEC_VALUES(&mi->children[0], int32_t)[mi->offsets[3] + 1], 0);
		assert_int_equal(PM_VEC_VALUES(&mi->children[1], int32_t)[mi->offsets[3] + 1], 1);
		/* row 0: mi empty */
		assert_int_equal(mi->offsets[1], mi->offsets[0]);
	}
	pm_format_reader_close(r);

	/*
	 * bloom filters as for a map: the map column its lengths (the distinct
	 * elements), the key column the elements, the value column the counts
	 */
	view_stripe(io, "/ms/c.orc", a, 0, &sv);
	for (uint32_t col = 2; col <= 7; col++)
	{
		size_t		blen;
		const uint8_t *bs = view_stream(&sv, a, ORC_S_BLOOM_FILTER_UTF8, col, &blen);
		orc_bloom	bl[4];

		assert_non_null(bs);
		assert_int_equal(parse_blooms(bs, blen, bl, 4, a), 3);	/* 1000, 1000, 500 rows */
		if (col == 3)
		{
			assert_true(orc_bloom_test_hash(&bl[0], orc_murmur3_hash64((const uint8_t *) "x2", 2)));
			assert_false(orc_bloom_test_hash(&bl[0], orc_murmur3_hash64((const uint8_t *) "x3", 2)));
		}
		if (col == 2)
		{
			/* ms: up to 2 distinct elements (i and i + 1 modulo 3) */
			assert_true(orc_bloom_test_hash(&bl[0], orc_bloom_long_hash(2)));
			assert_false(orc_bloom_test_hash(&bl[0], orc_bloom_long_hash(3)));
		}
		if (col == 4 || col == 7)
		{
			/* counts up to 3 (ms row 5: x2, x0, x0, x2, x0; mi row 13: 0, 1 three times) */
			assert_true(orc_bloom_test_hash(&bl[0], orc_bloom_long_hash(3)));
			assert_false(orc_bloom_test_hash(&bl[0], orc_bloom_long_hash(4)));
		}
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_rle_v2),
		cmocka_unit_test(test_byte_and_bool_rle),
		cmocka_unit_test(test_flat_types_every_codec),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_refusals_leave_no_file),
		cmocka_unit_test(test_bloom_hash),
		cmocka_unit_test(test_dictionary_threshold),
		cmocka_unit_test(test_bloom_filters),
		cmocka_unit_test(test_row_index_stride),
		cmocka_unit_test(test_nested_round_trip),
		cmocka_unit_test(test_multiset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
