/*-------------------------------------------------------------------------
 * test_parquet_writer.c
 *	  Unit tests of the Parquet writer (src/format/parquet/parquet_writer.c)
 *	  through the format writer facade: every supported type with NULLs and
 *	  extremes, many pages and row groups, every codec, read back value by
 *	  value with our reader; footer facts (schema, codec, row groups);
 *	  statistics; failures leave no file.
 *
 * PM_PARQUET_WRITER_KEEP=dir keeps copies of the written files in dir, to
 * check them with other readers (pyarrow, Paimon's Java reader) by hand.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/type.h"
#include "common/vector.h"
#include "format/format_reader.h"
#include "format/format_writer.h"
#include "format/parquet/parquet_metadata.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"

/* ------------------------------------------------------------ schema */

typedef struct colspec
{
	const char *name;
	pm_type_id	id;
	int			p;
	int			s;
	bool		nullable;
} colspec;

static const colspec COLS[] = {
	{"b", PM_TYPE_BOOLEAN, 0, 0, true},
	{"t", PM_TYPE_TINYINT, 0, 0, true},
	{"sm", PM_TYPE_SMALLINT, 0, 0, true},
	{"i", PM_TYPE_INT, 0, 0, true},
	{"l", PM_TYPE_BIGINT, 0, 0, true},
	{"f", PM_TYPE_FLOAT, 0, 0, true},
	{"d", PM_TYPE_DOUBLE, 0, 0, true},
	{"dec9", PM_TYPE_DECIMAL, 9, 2, true},
	{"dec18", PM_TYPE_DECIMAL, 18, 4, true},
	{"dec38", PM_TYPE_DECIMAL, 38, 10, true},
	{"dec20", PM_TYPE_DECIMAL, 20, 0, true},
	{"str", PM_TYPE_VARCHAR, 0, 0, true},
	{"ch", PM_TYPE_CHAR, 0, 0, true},
	{"bin", PM_TYPE_VARBINARY, 0, 0, true},
	{"dt", PM_TYPE_DATE, 0, 0, true},
	{"tm", PM_TYPE_TIME, 3, 0, true},
	{"ts3", PM_TYPE_TIMESTAMP, 3, 0, true},
	{"ts6", PM_TYPE_TIMESTAMP, 6, 0, true},
	{"ts9", PM_TYPE_TIMESTAMP, 9, 0, true},
	{"ltz3", PM_TYPE_TIMESTAMP_LTZ, 3, 0, true},
	{"ltz6", PM_TYPE_TIMESTAMP_LTZ, 6, 0, true},
	{"ltz9", PM_TYPE_TIMESTAMP_LTZ, 9, 0, true},
	{"req_i", PM_TYPE_INT, 0, 0, false},
	{"req_s", PM_TYPE_VARCHAR, 0, 0, false},
	{"req_ts9", PM_TYPE_TIMESTAMP, 9, 0, false},
};
#define NCOLS ((int) (sizeof(COLS) / sizeof(COLS[0])))

static pm_type *
make_type(pm_arena *a, const colspec *c)
{
	pm_type    *t;

	if (c->id == PM_TYPE_DECIMAL)
		return pm_type_new_decimal(a, c->p, c->s, c->nullable);
	t = pm_type_new(a, c->id, c->nullable);
	t->precision = c->p;
	if (c->id == PM_TYPE_VARCHAR || c->id == PM_TYPE_VARBINARY)
		t->length = 2147483647;
	if (c->id == PM_TYPE_CHAR)
		t->length = 5;
	return t;
}

static const pm_type *
make_schema(pm_arena *a)
{
	pm_field	f[NCOLS];

	for (int i = 0; i < NCOLS; i++)
	{
		memset(&f[i], 0, sizeof(f[i]));
		f[i].id = 100 + i;
		f[i].name = COLS[i].name;
		f[i].type = make_type(a, &COLS[i]);
	}
	return pm_type_new_row(a, f, NCOLS, false);
}

/* ------------------------------------------------------------ values */

static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static pm_int128
pow10_128(int p)
{
	pm_int128	v = 1;

	for (int i = 0; i < p; i++)
		v *= 10;
	return v;
}

/*
 * Expected value of column c at row r, as written (timestamps in the
 * vector's micros + nanos). Row 1 holds minimums, row 2 maximums, row 3
 * zeros, -0.0 and empty strings; nullable columns are NULL every 11 rows.
 */
/*
 * Low cardinality (dictionary pages): rows from 4 on below g_low_until
 * repeat g_card distinct values; later rows are all distinct.
 */
static int64_t g_card;
static int64_t g_low_until;

static pm_value
gen(int c, int64_t r, uint8_t *buf)
{
	const colspec *cs = &COLS[c];
	uint64_t	h;
	pm_value	v;

	if (g_card > 0 && r > 3 && r < g_low_until)
		r = 4 + r % g_card;
	h = mix((uint64_t) r * 131 + (uint64_t) c);

	memset(&v, 0, sizeof(v));
	if (cs->nullable && r % 11 == 0)
	{
		v.is_null = true;
		return v;
	}
	switch (cs->id)
	{
		case PM_TYPE_BOOLEAN:
			v.u.i64 = r == 1 ? 0 : r == 2 ? 1 : (int64_t) (h & 1);
			break;
		case PM_TYPE_TINYINT:
			v.u.i64 = r == 1 ? INT8_MIN : r == 2 ? INT8_MAX : r == 3 ? 0 : (int8_t) h;
			break;
		case PM_TYPE_SMALLINT:
			v.u.i64 = r == 1 ? INT16_MIN : r == 2 ? INT16_MAX : r == 3 ? 0 : (int16_t) h;
			break;
		case PM_TYPE_INT:
			v.u.i64 = r == 1 ? INT32_MIN : r == 2 ? INT32_MAX : r == 3 ? 0 : (int32_t) h;
			break;
		case PM_TYPE_BIGINT:
			v.u.i64 = r == 1 ? INT64_MIN : r == 2 ? INT64_MAX : r == 3 ? 0 : (int64_t) h;
			break;
		case PM_TYPE_FLOAT:
			v.u.f64 = r == 1 ? -FLT_MAX : r == 2 ? FLT_MAX : r == 3 ? -0.0 :
				(double) (float) ((double) (int32_t) h / 1000.0);
			break;
		case PM_TYPE_DOUBLE:
			v.u.f64 = r == 1 ? -DBL_MAX : r == 2 ? DBL_MAX : r == 3 ? -0.0 :
				(double) (int64_t) h / 1e6;
			break;
		case PM_TYPE_DECIMAL:
			{
				pm_int128	lim = pow10_128(cs->p);
				pm_int128	x = ((pm_int128) (int64_t) h * (pm_int128) mix(h)) % lim;

				v.u.i128 = r == 1 ? -(lim - 1) : r == 2 ? lim - 1 : r == 3 ? 0 : x;
				break;
			}
		case PM_TYPE_VARCHAR:
		case PM_TYPE_CHAR:
		case PM_TYPE_VARBINARY:
			{
				int			n;

				if (r == 3)
					n = 0;
				else if (cs->id == PM_TYPE_CHAR)
					n = 5;
				else
					n = (int) (h % 40);
				for (int k = 0; k < n; k++)
				{
					uint8_t		x = (uint8_t) mix(h + (uint64_t) k);

					if (cs->id != PM_TYPE_VARBINARY)
						x = (uint8_t) ('a' + x % 26);
					buf[k] = x;
				}
				if (cs->id == PM_TYPE_VARCHAR && n >= 2 && r % 5 == 0)
				{
					buf[0] = 0xc3;	/* é */
					buf[1] = 0xa9;
				}
				if (cs->id == PM_TYPE_VARBINARY && r == 2)
				{
					n = 3;
					buf[0] = buf[1] = buf[2] = 0xff;
				}
				v.u.bytes.ptr = buf;
				v.u.bytes.len = n;
				break;
			}
		case PM_TYPE_DATE:
			v.u.i64 = r == 1 ? -719162 : r == 2 ? 2932896 : (int64_t) (h % 100000) - 50000;
			break;
		case PM_TYPE_TIME:
			v.u.i64 = r == 1 ? 0 : r == 2 ? 86399999 : (int64_t) (h % 86400000);
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			/* year 0001 .. 9999; about half before 1970 */
			v.u.i64 = r == 1 ? -62135596800000000LL : r == 2 ? 253402300799999999LL :
				r == 3 ? -1 : (int64_t) (h % 80000000000000000ULL) - 40000000000000000LL;
			v.nanos = cs->p > 6 ? (uint16_t) (mix(h) % 1000) : 0;
			if (r == 3 && cs->p > 6)
				v.nanos = 999;
			break;
		default:
			fail();
	}
	return v;
}

/* What the reader gives back for a written value. */
static pm_value
as_read(int c, pm_value v)
{
	const colspec *cs = &COLS[c];

	if (!v.is_null && (cs->id == PM_TYPE_TIMESTAMP || cs->id == PM_TYPE_TIMESTAMP_LTZ) &&
		cs->p <= 3)
	{
		int64_t		q = v.u.i64 / 1000;

		if (v.u.i64 % 1000 < 0)
			q--;
		v.u.i64 = q * 1000;		/* millis: floor */
	}
	if (cs->id == PM_TYPE_FLOAT && !v.is_null)
		v.u.f64 = (double) (float) v.u.f64;
	return v;
}

/* Fill batch rows [from, from + n) with gen(). */
static void
fill_batch(pm_batch *b, const pm_type *schema, int64_t from, int64_t n, pm_arena *a)
{
	uint8_t		buf[64];

	b->nrows = n;
	b->first_row = 0;
	b->ncols = NCOLS;
	b->cols = pm_arena_zalloc(a, sizeof(pm_vector) * NCOLS);
	for (int c = 0; c < NCOLS; c++)
	{
		pm_vector  *v = &b->cols[c];
		int64_t		dcap = 0;

		assert_true(pm_vector_init(v, schema->fields[c].type, n, true, a));
		v->length = n;
		if (COLS[c].p > 6)
			v->nanos = pm_arena_zalloc(a, sizeof(uint16_t) * (size_t) n);
		for (int64_t i = 0; i < n; i++)
		{
			pm_value	x = gen(c, from + i, buf);

			if (x.is_null)
			{
				v->nulls[i] = 1;
				if (v->offsets != NULL)
					v->offsets[i + 1] = v->offsets[i];
				continue;
			}
			switch (COLS[c].id)
			{
				case PM_TYPE_BOOLEAN:
					PM_VEC_VALUES(v, uint8_t)[i] = (uint8_t) x.u.i64;
					break;
				case PM_TYPE_TINYINT:
					PM_VEC_VALUES(v, int8_t)[i] = (int8_t) x.u.i64;
					break;
				case PM_TYPE_SMALLINT:
					PM_VEC_VALUES(v, int16_t)[i] = (int16_t) x.u.i64;
					break;
				case PM_TYPE_INT:
				case PM_TYPE_DATE:
				case PM_TYPE_TIME:
					PM_VEC_VALUES(v, int32_t)[i] = (int32_t) x.u.i64;
					break;
				case PM_TYPE_BIGINT:
				case PM_TYPE_TIMESTAMP:
				case PM_TYPE_TIMESTAMP_LTZ:
					PM_VEC_VALUES(v, int64_t)[i] = x.u.i64;
					if (v->nanos != NULL)
						v->nanos[i] = x.nanos;
					break;
				case PM_TYPE_FLOAT:
					PM_VEC_VALUES(v, float)[i] = (float) x.u.f64;
					break;
				case PM_TYPE_DOUBLE:
					PM_VEC_VALUES(v, double)[i] = x.u.f64;
					break;
				case PM_TYPE_DECIMAL:
					PM_VEC_VALUES(v, pm_int128)[i] = x.u.i128;
					break;
				default:
					assert_true(pm_vector_append_data(v, &dcap, x.u.bytes.ptr, x.u.bytes.len, a));
					v->offsets[i + 1] = v->offsets[i] + x.u.bytes.len;
					break;
			}
		}
		if (!COLS[c].nullable)
			v->nulls = NULL;
	}
}

/* Compare value i of a read vector with the expectation. */
static void
check_value(int c, const pm_vector *v, int64_t i, pm_value want, int64_t row)
{
	char		where[96];

	snprintf(where, sizeof(where), "column %s row %lld", COLS[c].name, (long long) row);
	if (want.is_null != pm_vector_is_null(v, i))
		fail_msg("%s: null %d, expected %d", where, (int) pm_vector_is_null(v, i),
				 (int) want.is_null);
	if (want.is_null)
		return;
	switch (COLS[c].id)
	{
		case PM_TYPE_BOOLEAN:
			if (PM_VEC_VALUES(v, uint8_t)[i] != want.u.i64)
				fail_msg("%s", where);
			break;
		case PM_TYPE_TINYINT:
			if (PM_VEC_VALUES(v, int8_t)[i] != want.u.i64)
				fail_msg("%s", where);
			break;
		case PM_TYPE_SMALLINT:
			if (PM_VEC_VALUES(v, int16_t)[i] != want.u.i64)
				fail_msg("%s", where);
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			if (PM_VEC_VALUES(v, int32_t)[i] != want.u.i64)
				fail_msg("%s: %d != %lld", where, PM_VEC_VALUES(v, int32_t)[i],
						 (long long) want.u.i64);
			break;
		case PM_TYPE_BIGINT:
			if (PM_VEC_VALUES(v, int64_t)[i] != want.u.i64)
				fail_msg("%s", where);
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				uint16_t	ns = v->nanos != NULL ? v->nanos[i] : 0;

				if (PM_VEC_VALUES(v, int64_t)[i] != want.u.i64 || ns != want.nanos)
					fail_msg("%s: %lld.%03u != %lld.%03u", where,
							 (long long) PM_VEC_VALUES(v, int64_t)[i], ns,
							 (long long) want.u.i64, want.nanos);
				break;
			}
		case PM_TYPE_FLOAT:
			{
				float		got = PM_VEC_VALUES(v, float)[i];
				float		exp = (float) want.u.f64;

				if (memcmp(&got, &exp, 4) != 0)
					fail_msg("%s: %g != %g", where, got, exp);
				break;
			}
		case PM_TYPE_DOUBLE:
			if (memcmp(&PM_VEC_VALUES(v, double)[i], &want.u.f64, 8) != 0)
				fail_msg("%s", where);
			break;
		case PM_TYPE_DECIMAL:
			if (PM_VEC_VALUES(v, pm_int128)[i] != want.u.i128)
				fail_msg("%s", where);
			break;
		default:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				if (len != want.u.bytes.len ||
					(len > 0 && memcmp(p, want.u.bytes.ptr, (size_t) len) != 0))
					fail_msg("%s: bytes differ (len %d vs %d)", where, len, want.u.bytes.len);
				break;
			}
	}
}

/* ------------------------------------------------------------ helpers */

static pm_format_write_options
options(const pm_type *schema, const char *codec, int64_t rg, int64_t page)
{
	pm_format_write_options o;

	memset(&o, 0, sizeof(o));
	o.schema = schema;
	o.compression = codec;
	o.zstd_level = 3;
	o.row_group_bytes = rg;
	o.page_bytes = page;
	o.dictionary = true;
	return o;
}

/* Write nrows rows in batches of `batch` rows; returns the result. */
static pm_format_write_result
write_file(pm_fileio *io, const char *path, const pm_type *schema,
		   const pm_format_write_options *o, int64_t nrows, int64_t batch, pm_arena *a)
{
	pm_format_writer *w;
	pm_format_write_result res;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, path, o, &w, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	for (int64_t from = 0; from < nrows; from += batch)
	{
		pm_arena   *ba = pm_arena_create(pm_env_default());
		pm_batch	b;

		fill_batch(&b, schema, from, nrows - from < batch ? nrows - from : batch, ba);
		if (pm_format_writer_write(w, &b, &err) != PM_OK)
			fail_msg("write: %s", err.message);
		pm_arena_destroy(ba);
	}
	assert_true(pm_format_writer_estimated_size(w) > 0);
	if (pm_format_writer_finish(w, a, &res, &err) != PM_OK)
		fail_msg("finish: %s", err.message);
	return res;
}

/* Read the whole file back and compare every value. */
static void
read_back(pm_fileio *io, const char *path, const pm_type *schema, int64_t nrows)
{
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		row = 0;
	uint8_t		buf[64];

	memset(&ro, 0, sizeof(ro));
	ro.schema = schema;
	ro.batch_size = 777;
	pm_error_clear(&err);
	if (pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, path, &ro, &r, &err) != PM_OK)
		fail_msg("reader open: %s", err.message);
	assert_int_equal(pm_format_reader_row_count(r), nrows);
	for (;;)
	{
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("reader next: %s", err.message);
		if (b == NULL)
			break;
		assert_int_equal(b->ncols, NCOLS);
		for (int c = 0; c < NCOLS; c++)
			for (int64_t i = 0; i < b->nrows; i++)
				check_value(c, &b->cols[c], i, as_read(c, gen(c, row + i, buf)), row + i);
		row += b->nrows;
	}
	assert_int_equal(row, nrows);
	pm_format_reader_close(r);
}

static void
parse_footer(pm_fileio *io, const char *path, pm_arena *a, pm_pq_metadata *md)
{
	uint8_t    *data;
	size_t		len;
	uint32_t	flen;
	pm_error	err;

	assert_int_equal(pm_fileio_read_all(io, path, a, (size_t) 1 << 30, &data, &len, &err), PM_OK);
	assert_true(len > 12);
	assert_memory_equal(data, "PAR1", 4);
	assert_memory_equal(data + len - 4, "PAR1", 4);
	memcpy(&flen, data + len - 8, 4);
	assert_int_equal(pm_pq_metadata_parse(data + len - 8 - flen, flen, len, a, md, &err), PM_OK);
}

static char *keep_dir;

static void
keep_copy(pm_fileio *io, const char *path, const char *name, pm_arena *a)
{
	char		out[512];
	uint8_t    *data;
	size_t		len;
	pm_error	err;
	FILE	   *f;

	if (keep_dir == NULL)
		return;
	assert_int_equal(pm_fileio_read_all(io, path, a, (size_t) 1 << 30, &data, &len, &err), PM_OK);
	snprintf(out, sizeof(out), "%s/%s%s.parquet", keep_dir, name,
			 g_card > 0 ? (g_low_until == INT64_MAX ? "-dict" : "-dictfull") : "");
	f = fopen(out, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* ------------------------------------------------------------ tests */

static void
roundtrip(const char *codec, int pq_codec, int64_t nrows, int64_t rg, int64_t page,
		  int64_t batch, int min_row_groups)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *schema = make_schema(a);
	pm_format_write_options o = options(schema, codec, rg, page);
	pm_format_write_result res;
	pm_pq_metadata md;

	res = write_file(io, "/w/data.parquet", schema, &o, nrows, batch, a);
	assert_int_equal(res.row_count, nrows);
	assert_int_equal(res.ncols, NCOLS);
	assert_int_equal(pm_memory_fileio_open_files(io), 0);
	read_back(io, "/w/data.parquet", schema, nrows);

	parse_footer(io, "/w/data.parquet", a, &md);
	assert_int_equal(md.num_rows, nrows);
	assert_true(md.nrow_groups >= min_row_groups);
	assert_string_equal(md.root->name, "paimon_schema");
	assert_int_equal(md.nleaves, NCOLS);
	for (int c = 0; c < NCOLS; c++)
	{
		assert_string_equal(md.leaves[c]->name, COLS[c].name);
		assert_true(md.leaves[c]->has_field_id);
		assert_int_equal(md.leaves[c]->field_id, 100 + c);
		assert_int_equal(md.leaves[c]->repetition,
						 COLS[c].nullable ? PM_PQ_OPTIONAL : PM_PQ_REQUIRED);
	}
	/* FIXED_LEN_BYTE_ARRAY widths of DECIMAL(38) and DECIMAL(20) */
	assert_int_equal(md.leaves[9]->physical, PM_PQ_FIXED_LEN_BYTE_ARRAY);
	assert_int_equal(md.leaves[9]->type_length, 16);
	assert_int_equal(md.leaves[10]->type_length, 9);
	for (int g = 0; g < md.nrow_groups; g++)
		for (int c = 0; c < NCOLS; c++)
			assert_int_equal(md.row_groups[g].columns[c].codec, pq_codec);
	keep_copy(io, "/w/data.parquet", codec, a);
	if (keep_dir != NULL && g_card > 0)
	{
		/* the same rows without dictionary, for comparing with another reader */
		char		name[64];

		o.dictionary = false;
		res = write_file(io, "/w/plain.parquet", schema, &o, nrows, batch, a);
		read_back(io, "/w/plain.parquet", schema, nrows);
		snprintf(name, sizeof(name), "%s-plain", codec);
		keep_copy(io, "/w/plain.parquet", name, a);
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static void
test_roundtrip_none_multi(void **state)
{
	/* small pages and row groups: many of each */
	roundtrip("none", PM_PQ_CODEC_UNCOMPRESSED, 9000, 96 << 10, 2048, 1000, 3);
}

static void
test_roundtrip_zstd(void **state)
{
	roundtrip("zstd", PM_PQ_CODEC_ZSTD, 9000, 96 << 10, 4096, 4096, 2);
	/* defaults: one row group */
	roundtrip("ZSTD", PM_PQ_CODEC_ZSTD, 3000, 0, 0, 3000, 1);
}

static void
test_roundtrip_snappy(void **state)
{
	roundtrip("snappy", PM_PQ_CODEC_SNAPPY, 5000, 128 << 10, 8192, 999, 2);
}

static void
test_roundtrip_gzip(void **state)
{
	roundtrip("gzip", PM_PQ_CODEC_GZIP, 5000, 128 << 10, 8192, 5000, 2);
}

static void
test_roundtrip_lz4(void **state)
{
	/* pages above Hadoop's 256 KiB lz4 block: several blocks per page */
	roundtrip("lz4", PM_PQ_CODEC_LZ4, 30000, 0, 1 << 20, 10000, 1);
}

/* Dictionary pages: low-cardinality values, then a dictionary that fills up mid-chunk. */
static void
test_roundtrip_dictionary(void **state)
{
	g_card = 37;
	g_low_until = INT64_MAX;
	roundtrip("zstd", PM_PQ_CODEC_ZSTD, 20000, 32 << 10, 8192, 4096, 2);
	g_low_until = 4000;
	roundtrip("snappy", PM_PQ_CODEC_SNAPPY, 60000, 0, 64 << 10, 8192, 1);
	g_card = 0;
}

static void
test_empty_file(void **state)
{
	roundtrip("zstd", PM_PQ_CODEC_ZSTD, 0, 0, 0, 1, 0);
}

/* Statistics returned by finish: exact; all-NULL gives none; NaN is the greatest double. */
static void
test_stats(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *schema = make_schema(a);
	pm_format_write_options o = options(schema, "zstd", 0, 0);
	pm_format_write_result res;
	uint8_t		buf[64];
	int			ci = 4;			/* l BIGINT */

	res = write_file(io, "/w/s.parquet", schema, &o, 50, 50, a);
	for (int c = 0; c < NCOLS; c++)
	{
		pm_column_stats *s = &res.stats[c];
		int64_t		nulls = 0;

		for (int64_t r = 0; r < 50; r++)
			nulls += gen(c, r, buf).is_null;
		assert_int_equal(s->null_count, nulls);
		assert_true(s->has_min_max);
	}
	assert_int_equal(res.stats[ci].min.u.i64, INT64_MIN);
	assert_int_equal(res.stats[ci].max.u.i64, INT64_MAX);
	assert_true(res.stats[9].min.u.i128 == -(pow10_128(38) - 1));
	assert_true(res.stats[9].max.u.i128 == pow10_128(38) - 1);
	/* strings: unsigned byte order, so 0xff.. is the max of the binary column */
	assert_int_equal(res.stats[13].max.u.bytes.len, 3);
	assert_memory_equal(res.stats[13].max.u.bytes.ptr, "\xff\xff\xff", 3);
	assert_int_equal(res.stats[11].min.u.bytes.len, 0);	/* the empty string */
	/* timestamps: micros (millis columns as read back) */
	assert_int_equal(res.stats[16].min.u.i64, -62135596800000000LL);
	assert_int_equal(res.stats[18].max.u.i64, 253402300799999999LL);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static void
test_stats_nan_and_nulls(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_field	f[2] = {{1, "x", NULL, NULL}, {2, "y", NULL, NULL}};
	const pm_type *schema;
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_batch	b;
	pm_vector	v[2];
	pm_error	err;
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *rb;

	f[0].type = pm_type_new(a, PM_TYPE_DOUBLE, true);
	f[1].type = pm_type_new(a, PM_TYPE_INT, true);
	schema = pm_type_new_row(a, f, 2, false);
	o = options(schema, "snappy", 0, 0);
	assert_true(pm_vector_init(&v[0], f[0].type, 3, true, a));
	assert_true(pm_vector_init(&v[1], f[1].type, 3, true, a));
	PM_VEC_VALUES(&v[0], double)[0] = 1.5;
	PM_VEC_VALUES(&v[0], double)[1] = NAN;
	PM_VEC_VALUES(&v[0], double)[2] = -2.5;
	v[1].nulls[0] = v[1].nulls[1] = v[1].nulls[2] = 1;
	v[0].length = v[1].length = 3;
	b.nrows = 3;
	b.first_row = 0;
	b.ncols = 2;
	b.cols = v;
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/n.parquet",
										   &o, &w, &err), PM_OK);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);
	/* Java (parquet-mr's Double.compare): min the smallest number, max NaN */
	assert_true(res.stats[0].has_min_max);
	assert_true(res.stats[0].min.u.f64 == -2.5);
	assert_true(isnan(res.stats[0].max.u.f64));
	assert_int_equal(res.stats[0].null_count, 0);
	assert_false(res.stats[1].has_min_max);
	assert_int_equal(res.stats[1].null_count, 3);

	memset(&ro, 0, sizeof(ro));
	ro.schema = schema;
	assert_int_equal(pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/n.parquet",
										   &ro, &r, &err), PM_OK);
	assert_int_equal(pm_format_reader_next(r, &rb, &err), PM_OK);
	assert_int_equal(rb->nrows, 3);
	assert_true(PM_VEC_VALUES(&rb->cols[0], double)[0] == 1.5);
	assert_true(isnan(PM_VEC_VALUES(&rb->cols[0], double)[1]));
	assert_true(PM_VEC_VALUES(&rb->cols[0], double)[2] == -2.5);
	for (int i = 0; i < 3; i++)
		assert_true(pm_vector_is_null(&rb->cols[1], i));
	pm_format_reader_close(r);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* A write failure at any point leaves no file behind. */
static void
test_write_failure(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *schema = make_schema(a);
	pm_format_write_options o = options(schema, "zstd", 64 << 10, 4096);
	int			failures = 0;

	for (int nth = 1; nth < 40; nth += 3)
	{
		pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
		pm_format_writer *w;
		pm_format_write_result res;
		pm_error	err;
		pm_code		rc;

		pm_error_clear(&err);
		pm_memory_fileio_fail_write(io, nth, PM_ERR_IO);
		rc = pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/f.parquet",
								   &o, &w, &err);
		if (rc != PM_OK)
		{
			/* the first write (the magic) failed */
			assert_int_equal(rc, PM_ERR_IO);
			assert_null(w);
			assert_false(io->exists(io, "/w/f.parquet"));
			assert_int_equal(pm_memory_fileio_open_files(io), 0);
			pm_memory_fileio_destroy(io);
			failures++;
			continue;
		}
		for (int64_t from = 0; from < 6000 && rc == PM_OK; from += 1000)
		{
			pm_arena   *ba = pm_arena_create(pm_env_default());
			pm_batch	b;

			fill_batch(&b, schema, from, 1000, ba);
			rc = pm_format_writer_write(w, &b, &err);
			pm_arena_destroy(ba);
		}
		if (rc != PM_OK)
		{
			assert_int_equal(rc, PM_ERR_IO);
			assert_string_equal(err.path, "/w/f.parquet");
			pm_format_writer_abort(w);
			failures++;
		}
		else
		{
			rc = pm_format_writer_finish(w, a, &res, &err);
			if (rc != PM_OK)
				failures++;
		}
		if (rc != PM_OK)
			assert_false(io->exists(io, "/w/f.parquet"));
		assert_int_equal(pm_memory_fileio_open_files(io), 0);
		pm_memory_fileio_destroy(io);
	}
	assert_true(failures > 5);
	pm_arena_destroy(a);
}

/* Refusals: nested types, unknown codec, NULL in a NOT NULL column, ORC, existing file. */
static void
test_refusals(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_field	f[2] = {{1, "ok", NULL, NULL}, {2, "arr", NULL, NULL}};
	const pm_type *schema;
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_error	err;
	pm_batch	b;
	pm_vector	v;

	f[0].type = pm_type_new(a, PM_TYPE_INT, false);
	{
		pm_type    *ms = pm_type_new(a, PM_TYPE_MULTISET, true);

		/* a multiset of a nested type */
		ms->element = pm_type_new_array(a, pm_type_new(a, PM_TYPE_INT, true), true);
		f[1].type = ms;
		f[1].name = "ms";
	}
	schema = pm_type_new_row(a, f, 2, false);
	o = options(schema, "zstd", 0, 0);
	pm_error_clear(&err);
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/x.parquet",
										   &o, &w, &err), PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "\"ms\""));
	assert_false(io->exists(io, "/w/x.parquet"));

	schema = pm_type_new_row(a, f, 1, false);
	o = options(schema, "brotli", 0, 0);
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/x.parquet",
										   &o, &w, &err), PM_ERR_UNSUPPORTED);
	assert_false(io->exists(io, "/w/x.parquet"));

	o = options(schema, "zstd", 0, 0);
	/* ORC is written (test_orc_writer.c); an aborted writer leaves no file */
	assert_int_equal(pm_format_writer_open(PM_FORMAT_ORC, pm_env_default(), io, "/w/x.orc",
										   &o, &w, &err), PM_OK);
	pm_format_writer_abort(w);
	assert_false(io->exists(io, "/w/x.orc"));

	assert_int_equal(pm_memory_fileio_add(io, "/w/exists.parquet", "x", 1, &err), PM_OK);
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io,
										   "/w/exists.parquet", &o, &w, &err), PM_ERR_CONFLICT);

	/* NULL in a NOT NULL column */
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/x.parquet",
										   &o, &w, &err), PM_OK);
	assert_true(pm_vector_init(&v, f[0].type, 2, true, a));
	v.length = 2;
	v.nulls[1] = 1;
	b.nrows = 2;
	b.first_row = 0;
	b.ncols = 1;
	b.cols = &v;
	pm_error_clear(&err);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "ok"));
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_ERR_INVALID);
	assert_false(io->exists(io, "/w/x.parquet"));
	assert_int_equal(pm_memory_fileio_open_files(io), 0);

	/* a batch that is not the schema's, in every format (pm_format_writer_check_batch) */
	{
		static const pm_file_format formats[] = {PM_FORMAT_PARQUET, PM_FORMAT_AVRO, PM_FORMAT_ORC};
		pm_vector	two[2];
		pm_vector	wide;

		v.nulls = NULL;
		two[0] = v;
		two[1] = v;
		assert_true(pm_vector_init(&wide, pm_type_new(a, PM_TYPE_BIGINT, false), 2, false, a));
		wide.length = 2;
		for (int k = 0; k < 3; k++)
		{
			assert_int_equal(pm_format_writer_open(formats[k], pm_env_default(), io, "/w/m.x",
												   &o, &w, &err), PM_OK);
			b.ncols = 2;
			b.cols = two;
			assert_int_equal(pm_format_writer_write(w, &b, &err), PM_ERR_INVALID);
			assert_non_null(strstr(err.message, "batch of 2 columns written to"));
			pm_format_writer_abort(w);
			assert_int_equal(pm_format_writer_open(formats[k], pm_env_default(), io, "/w/m.x",
												   &o, &w, &err), PM_OK);
			b.ncols = 1;
			b.cols = &wide;
			assert_int_equal(pm_format_writer_write(w, &b, &err), PM_ERR_INVALID);
			assert_string_equal(err.message, "column \"ok\": batch vector of another type");
			pm_format_writer_abort(w);
			assert_false(io->exists(io, "/w/m.x"));
		}
	}
	assert_int_equal(pm_memory_fileio_open_files(io), 0);

	/* a NULL map key */
	{
		pm_field	mf[1] = {{9, "mp", NULL, NULL}};
		pm_type    *kt = pm_type_new(a, PM_TYPE_INT, true);
		pm_vector	mv;

		mf[0].type = pm_type_new_map(a, kt, pm_type_new(a, PM_TYPE_INT, true), true);
		schema = pm_type_new_row(a, mf, 1, false);
		o = options(schema, "zstd", 0, 0);
		assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io,
											   "/w/k.parquet", &o, &w, &err), PM_OK);
		assert_true(pm_vector_init(&mv, mf[0].type, 1, true, a));
		assert_true(pm_vector_init(&mv.children[0], kt, 2, true, a));
		assert_true(pm_vector_init(&mv.children[1], mf[0].type->value, 2, true, a));
		mv.length = 1;
		mv.offsets[1] = 2;
		mv.children[0].length = mv.children[1].length = 2;
		mv.children[0].nulls[1] = 1;
		b.nrows = 1;
		b.cols = &mv;
		pm_error_clear(&err);
		assert_int_equal(pm_format_writer_write(w, &b, &err), PM_ERR_INVALID);
		assert_non_null(strstr(err.message, "NULL map key"));
		pm_format_writer_abort(w);
		assert_false(io->exists(io, "/w/k.parquet"));
		b.nrows = 2;
		b.cols = &v;
	}

	/* a DECIMAL(9, 2) value of 10 digits */
	f[0].type = pm_type_new_decimal(a, 9, 2, false);
	f[0].name = "amount";
	schema = pm_type_new_row(a, f, 1, false);
	o = options(schema, "zstd", 0, 0);
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/d.parquet",
										   &o, &w, &err), PM_OK);
	assert_true(pm_vector_init(&v, f[0].type, 2, false, a));
	v.length = 2;
	PM_VEC_VALUES(&v, pm_int128)[0] = 999999999;
	PM_VEC_VALUES(&v, pm_int128)[1] = -1000000000;
	pm_error_clear(&err);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "amount"));
	pm_format_writer_abort(w);
	assert_false(io->exists(io, "/w/d.parquet"));
	assert_int_equal(pm_memory_fileio_open_files(io), 0);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static bool
contains(const uint8_t *hay, size_t n, const uint8_t *needle, size_t m)
{
	for (size_t i = 0; i + m <= n; i++)
		if (memcmp(hay + i, needle, m) == 0)
			return true;
	return false;
}

/*
 * INT96 bytes as Java's ParquetRowDataWriter.timestampToInt96 writes them,
 * from real Java files (append_with_bloomfilter.db, see
 * docs/paimon-format-data.md 2.4): truncating division, so before 1970 the
 * nanos of the day are negative and the Julian day is not decremented.
 */
static void
test_int96_bytes(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_field	f[1] = {{7, "ts", NULL, NULL}};
	pm_type    *t = pm_type_new(a, PM_TYPE_TIMESTAMP, false);
	const pm_type *schema;
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_batch	b;
	pm_vector	v;
	pm_error	err;
	uint8_t    *data;
	size_t		len;
	static const uint8_t after[12] = {0x78, 0x14, 0xf0, 0xa7, 0x46, 0x03, 0x00, 0x00,
	0x77, 0x8c, 0x25, 0x00};
	static const uint8_t before[12] = {0x38, 0x4a, 0xff, 0x97, 0xff, 0xff, 0xff, 0xff,
	0x8c, 0x3d, 0x25, 0x00};
	static const uint8_t one_ns[12] = {0x01, 0, 0, 0, 0, 0, 0, 0, 0x8c, 0x3d, 0x25, 0x00};

	t->precision = 9;
	f[0].type = t;
	schema = pm_type_new_row(a, f, 1, false);
	o = options(schema, "none", 0, 0);
	assert_true(pm_vector_init(&v, t, 3, false, a));
	v.nanos = pm_arena_zalloc(a, sizeof(uint16_t) * 3);
	v.length = 3;
	/* 1745542802000 ms + 123000 ns */
	PM_VEC_VALUES(&v, int64_t)[0] = 1745542802000123LL;
	/* (ms = -1745, nano of milli = 123000) */
	PM_VEC_VALUES(&v, int64_t)[1] = -1744877;
	/* 1 ns after the epoch */
	PM_VEC_VALUES(&v, int64_t)[2] = 0;
	v.nanos[2] = 1;
	b.nrows = 3;
	b.first_row = 0;
	b.ncols = 1;
	b.cols = &v;
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/t.parquet",
										   &o, &w, &err), PM_OK);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);
	assert_int_equal(pm_fileio_read_all(io, "/w/t.parquet", a, 1 << 20, &data, &len, &err), PM_OK);
	assert_true(contains(data, len, after, 12));
	assert_true(contains(data, len, before, 12));
	assert_true(contains(data, len, one_ns, 12));
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* ------------------------------------------------------------ nested */

/* Render value i of v (any type used below) into out, for comparisons. */
static void
render(const pm_vector *v, int64_t i, char *out, size_t cap)
{
	size_t		n = strlen(out);

#define PUT(...) snprintf(out + strlen(out), cap - strlen(out), __VA_ARGS__)
	(void) n;
	if (pm_vector_is_null(v, i))
	{
		PUT("null");
		return;
	}
	switch (v->type->id)
	{
		case PM_TYPE_INT:
			PUT("%d", PM_VEC_VALUES(v, int32_t)[i]);
			break;
		case PM_TYPE_BIGINT:
			PUT("%lld", (long long) PM_VEC_VALUES(v, int64_t)[i]);
			break;
		case PM_TYPE_DOUBLE:
			PUT("%.17g", PM_VEC_VALUES(v, double)[i]);
			break;
		case PM_TYPE_BOOLEAN:
			PUT("%s", PM_VEC_VALUES(v, uint8_t)[i] ? "t" : "f");
			break;
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = PM_VEC_VALUES(v, pm_int128)[i];

				PUT("%llx:%llx", (unsigned long long) ((unsigned __int128) x >> 64),
					(unsigned long long) x);
				break;
			}
		case PM_TYPE_TIMESTAMP:
			PUT("%lld.%u", (long long) PM_VEC_VALUES(v, int64_t)[i],
				v->nanos != NULL ? v->nanos[i] : 0);
			break;
		case PM_TYPE_VARCHAR:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				PUT("'%.*s'", (int) len, (const char *) p);
				break;
			}
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			PUT("[");
			for (int32_t j = v->offsets[i]; j < v->offsets[i + 1]; j++)
			{
				render(&v->children[0], j, out, cap);
				PUT(",");
			}
			PUT("]");
			break;
		case PM_TYPE_MAP:
			PUT("{");
			for (int32_t j = v->offsets[i]; j < v->offsets[i + 1]; j++)
			{
				render(&v->children[0], j, out, cap);
				PUT(":");
				render(&v->children[1], j, out, cap);
				PUT(",");
			}
			PUT("}");
			break;
		case PM_TYPE_ROW:
			PUT("(");
			for (int k = 0; k < v->nchildren; k++)
			{
				render(&v->children[k], i, out, cap);
				PUT(";");
			}
			PUT(")");
			break;
		default:
			PUT("?");
	}
#undef PUT
}

static void
put_str(pm_vector *v, int64_t i, const char *s, int64_t *dcap, pm_arena *a)
{
	int32_t		len = (int32_t) strlen(s);

	assert_true(pm_vector_append_data(v, dcap, s, len, a));
	v->offsets[i + 1] = v->offsets[i] + len;
}

static void
set_null(pm_vector *v, int64_t i)
{
	v->nulls[i] = 1;
	if (v->offsets != NULL)
		v->offsets[i + 1] = v->offsets[i];
}

/* A vector of `type` with room for cap values (and NULLs), children too. */
static void
vinit(pm_vector *v, const pm_type *type, int64_t cap, pm_arena *a)
{
	assert_true(pm_vector_init(v, type, cap, true, a));
}

#define NN 2500
#define CAP (NN * 8)

static const pm_type *
nested_schema(pm_arena *a)
{
	pm_type    *str = pm_type_new(a, PM_TYPE_VARCHAR, true);
	pm_type    *str_nn = pm_type_new(a, PM_TYPE_VARCHAR, false);
	pm_type    *i32 = pm_type_new(a, PM_TYPE_INT, true);
	pm_field	inner_c[1] = {{11, "x", NULL, NULL}};
	pm_field	rf[3] = {{12, "a", NULL, NULL}, {13, "b", NULL, NULL}, {14, "c", NULL, NULL}};
	pm_field	kv[2] = {{15, "k", NULL, NULL}, {16, "v", NULL, NULL}};
	pm_field	f[7] = {{1, "arr", NULL, NULL}, {2, "tags", NULL, NULL}, {3, "m", NULL, NULL},
	{4, "r", NULL, NULL}, {5, "aa", NULL, NULL}, {6, "ar", NULL, NULL}, {7, "id", NULL, NULL}};

	str->length = str_nn->length = 2147483647;
	inner_c[0].type = str;
	rf[0].type = i32;
	rf[1].type = pm_type_new_array(a, pm_type_new(a, PM_TYPE_DOUBLE, true), true);
	rf[2].type = pm_type_new_row(a, inner_c, 1, true);
	kv[0].type = i32;
	kv[1].type = str;
	f[0].type = pm_type_new_array(a, i32, true);
	f[1].type = pm_type_new_array(a, str_nn, false);
	f[2].type = pm_type_new_map(a, str_nn, pm_type_new(a, PM_TYPE_BIGINT, true), true);
	f[3].type = pm_type_new_row(a, rf, 3, true);
	f[4].type = pm_type_new_array(a, pm_type_new_array(a, i32, true), true);
	f[5].type = pm_type_new_array(a, pm_type_new_row(a, kv, 2, true), true);
	f[6].type = pm_type_new(a, PM_TYPE_BIGINT, false);
	return pm_type_new_row(a, f, 7, false);
}

static void
nested_batch(pm_batch *b, const pm_type *schema, pm_arena *a)
{
	pm_vector  *c = pm_arena_zalloc(a, sizeof(pm_vector) * 7);
	int64_t		dc[16] = {0};
	char		s[64];
	int32_t		e1 = 0,
				e2 = 0,
				e3 = 0,
				e4 = 0,
				e5i = 0,
				e6 = 0;

	for (int k = 0; k < 7; k++)
	{
		vinit(&c[k], schema->fields[k].type, NN, a);
		c[k].length = NN;
	}
	vinit(&c[0].children[0], c[0].type->element, CAP, a);
	vinit(&c[1].children[0], c[1].type->element, CAP, a);
	vinit(&c[2].children[0], c[2].type->element, CAP, a);
	vinit(&c[2].children[1], c[2].type->value, CAP, a);
	vinit(&c[3].children[1].children[0], c[3].children[1].type->element, CAP, a);
	vinit(&c[4].children[0], c[4].type->element, CAP, a);
	vinit(&c[4].children[0].children[0], c[4].type->element->element, CAP, a);
	vinit(&c[5].children[0], c[5].type->element, CAP, a);
	for (int64_t r = 0; r < NN; r++)
	{
		/* arr ARRAY<INT>: NULL, empty, or elements some NULL */
		if (r % 7 == 0)
			set_null(&c[0], r);
		else
		{
			int			n = r % 7 == 1 ? 0 : (int) (r % 5);

			for (int j = 0; j < n; j++, e1++)
			{
				if ((r + j) % 4 == 0)
					c[0].children[0].nulls[e1] = 1;
				else
					PM_VEC_VALUES(&c[0].children[0], int32_t)[e1] = (int32_t) (r * 10 + j);
			}
			c[0].offsets[r + 1] = e1;
		}
		/* tags ARRAY<STRING NOT NULL> NOT NULL */
		for (int j = 0; j < r % 3; j++, e2++)
		{
			snprintf(s, sizeof(s), "t%lld_%d", (long long) r, j);
			put_str(&c[1].children[0], e2, s, &dc[0], a);
		}
		c[1].offsets[r + 1] = e2;
		/* m MAP<STRING NOT NULL, BIGINT> */
		if (r % 6 == 0)
			set_null(&c[2], r);
		else
		{
			for (int j = 0; j < r % 4; j++, e3++)
			{
				snprintf(s, sizeof(s), "k%d", j);
				put_str(&c[2].children[0], e3, s, &dc[1], a);
				if (j == 1)
					c[2].children[1].nulls[e3] = 1;
				else
					PM_VEC_VALUES(&c[2].children[1], int64_t)[e3] = r * j;
			}
			c[2].offsets[r + 1] = e3;
		}
		/* r ROW<a INT, b ARRAY<DOUBLE>, c ROW<x STRING>> */
		{
			pm_vector  *rv = &c[3];
			pm_vector  *bv = &rv->children[1];
			pm_vector  *cv = &rv->children[2];

			if (r % 9 == 0)
			{
				set_null(rv, r);
				rv->children[0].nulls[r] = 1;
				set_null(bv, r);
				set_null(cv, r);
				set_null(&cv->children[0], r);
			}
			else
			{
				if (r % 5 == 0)
					rv->children[0].nulls[r] = 1;
				else
					PM_VEC_VALUES(&rv->children[0], int32_t)[r] = (int32_t) r;
				if (r % 8 == 0)
					set_null(bv, r);
				else
				{
					for (int j = 0; j < r % 3; j++, e4++)
						PM_VEC_VALUES(&bv->children[0], double)[e4] = r + j / 4.0;
					bv->offsets[r + 1] = e4;
				}
				if (r % 10 == 3)
				{
					set_null(cv, r);
					set_null(&cv->children[0], r);
				}
				else
				{
					snprintf(s, sizeof(s), "x%lld", (long long) r);
					put_str(&cv->children[0], r, s, &dc[2], a);
				}
			}
		}
		/* aa ARRAY<ARRAY<INT>> */
		{
			pm_vector  *inner = &c[4].children[0];
			int32_t		outer_n = (int32_t) (r % 4);
			int32_t		base = c[4].offsets[r];

			for (int j = 0; j < outer_n; j++)
			{
				int32_t		ei = base + j;

				if (j == 2)
					set_null(inner, ei);
				else
				{
					for (int k = 0; k < j; k++, e5i++)
						PM_VEC_VALUES(&inner->children[0], int32_t)[e5i] = (int32_t) (r + j + k);
					inner->offsets[ei + 1] = e5i;
				}
			}
			c[4].offsets[r + 1] = base + outer_n;
			inner->length = c[4].offsets[r + 1];
		}
		/* ar ARRAY<ROW<k INT, v STRING>> */
		for (int j = 0; j < r % 3; j++, e6++)
		{
			pm_vector  *rw = &c[5].children[0];

			PM_VEC_VALUES(&rw->children[0], int32_t)[e6] = j;
			if (j == 1)
				set_null(&rw->children[1], e6);
			else
				put_str(&rw->children[1], e6, "v", &dc[3], a);
		}
		c[5].offsets[r + 1] = e6;
		/* id */
		PM_VEC_VALUES(&c[6], int64_t)[r] = r;
	}
	c[6].nulls = NULL;
	c[1].nulls = NULL;
	b->nrows = NN;
	b->first_row = 0;
	b->ncols = 7;
	b->cols = c;
}

/* Nested types in the 3-level LIST / MAP layout, read back with our reader. */
static void
test_nested_roundtrip(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *schema = nested_schema(a);
	pm_format_write_options o = options(schema, "zstd", 32 << 10, 1024);
	pm_format_writer *w;
	pm_format_write_result res;
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch	b;
	pm_batch   *rb;
	pm_error	err;
	pm_pq_metadata md;
	int64_t		row = 0;
	char	   *want = malloc(1 << 16);
	char	   *got = malloc(1 << 16);

	nested_batch(&b, schema, a);
	pm_error_clear(&err);
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/n.parquet",
										   &o, &w, &err), PM_OK);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	if (pm_format_writer_finish(w, a, &res, &err) != PM_OK)
		fail_msg("finish: %s", err.message);
	assert_int_equal(res.row_count, NN);
	assert_int_equal(res.ncols, 7);
	assert_false(res.stats[0].has_min_max);
	assert_int_equal(res.stats[0].null_count, (NN + 6) / 7);
	assert_int_equal(res.stats[2].null_count, (NN + 5) / 6);
	assert_true(res.stats[6].has_min_max);
	assert_int_equal(res.stats[6].max.u.i64, NN - 1);

	parse_footer(io, "/w/n.parquet", a, &md);
	assert_true(md.nrow_groups > 1);
	/* ids as ParquetSchemaConverter gives them */
	assert_int_equal(md.nleaves, 11);
	assert_string_equal(md.leaves[0]->name, "element");
	assert_int_equal(md.leaves[0]->field_id, 536870911 + 1 * 1024 + 1);
	assert_string_equal(md.leaves[0]->parent->name, "list");
	assert_int_equal(md.leaves[0]->parent->parent->converted, PM_PQ_CT_LIST);
	assert_string_equal(md.leaves[2]->name, "key");
	assert_int_equal(md.leaves[2]->repetition, PM_PQ_REQUIRED);
	assert_int_equal(md.leaves[2]->field_id, 536870911 - 3 * 1024 - 1);
	assert_int_equal(md.leaves[3]->field_id, 536870911 + 3 * 1024 + 1);
	assert_int_equal(md.leaves[2]->parent->converted, PM_PQ_CT_MAP_KEY_VALUE);
	assert_int_equal(md.leaves[7]->field_id, 536870911 + 5 * 1024 + 2);	/* aa element.element */

	memset(&ro, 0, sizeof(ro));
	ro.schema = schema;
	ro.batch_size = 301;
	assert_int_equal(pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/n.parquet",
										   &ro, &r, &err), PM_OK);
	for (;;)
	{
		if (pm_format_reader_next(r, &rb, &err) != PM_OK)
			fail_msg("next: %s", err.message);
		if (rb == NULL)
			break;
		for (int64_t i = 0; i < rb->nrows; i++, row++)
			for (int k = 0; k < 7; k++)
			{
				want[0] = got[0] = '\0';
				render(&b.cols[k], row, want, 1 << 16);
				render(&rb->cols[k], i, got, 1 << 16);
				if (strcmp(want, got) != 0)
					fail_msg("row %lld col %d: wrote %s read %s", (long long) row, k, want, got);
			}
	}
	assert_int_equal(row, NN);
	pm_format_reader_close(r);
	keep_copy(io, "/w/n.parquet", "nested", a);
	free(want);
	free(got);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/*
 * Values larger than a page (a page holds one), long strings whose column
 * index bounds are cut to 64 bytes (a max of 0xff bytes is kept whole),
 * row groups bounded when rows are big.
 */
static void
test_big_values(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_field	f[2] = {{1, "s", NULL, NULL}, {2, "b", NULL, NULL}};
	pm_type    *st = pm_type_new(a, PM_TYPE_VARCHAR, true);
	pm_type    *bt = pm_type_new(a, PM_TYPE_VARBINARY, false);
	const pm_type *schema;
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch	b;
	pm_batch   *rb;
	pm_vector	v[2];
	pm_error	err;
	int64_t		dc[2] = {0, 0};
	size_t		big = (size_t) 3 << 20;
	uint8_t    *buf = malloc(big);
	int			nrows = 6;
	int64_t		row = 0;

	st->length = bt->length = 2147483647;
	f[0].type = st;
	f[1].type = bt;
	schema = pm_type_new_row(a, f, 2, false);
	o = options(schema, "none", 8 << 20, 256 << 10);
	assert_true(pm_vector_init(&v[0], st, nrows, true, a));
	assert_true(pm_vector_init(&v[1], bt, nrows, false, a));
	for (int i = 0; i < nrows; i++)
	{
		size_t		n = i % 2 == 0 ? big - (size_t) i : (size_t) 100 + (size_t) i;

		memset(buf, 'a' + i, n);
		assert_true(pm_vector_append_data(&v[0], &dc[0], buf, (int64_t) n, a));
		v[0].offsets[i + 1] = v[0].offsets[i] + (int32_t) n;
		memset(buf, i == 3 ? 0xff : i, n);
		assert_true(pm_vector_append_data(&v[1], &dc[1], buf, (int64_t) n, a));
		v[1].offsets[i + 1] = v[1].offsets[i] + (int32_t) n;
	}
	v[0].length = v[1].length = nrows;
	b.nrows = nrows;
	b.first_row = 0;
	b.ncols = 2;
	b.cols = v;
	pm_error_clear(&err);
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/big.parquet",
										   &o, &w, &err), PM_OK);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);
	assert_int_equal(res.row_count, 2 * nrows);
	assert_int_equal(res.stats[0].max.u.bytes.len, 105);	/* 'f' x 105 */
	assert_int_equal(res.stats[0].max.u.bytes.ptr[0], 'f');
	assert_int_equal(res.stats[0].min.u.bytes.len, (int32_t) big);	/* 'a' x 3 MiB */
	{
		pm_pq_metadata md;

		/*
		 * 12 rows of 3 MiB or 100 bytes (twice), row groups of 8 MiB: the
		 * second batch is cut into slices by the size of the rows seen.
		 */
		parse_footer(io, "/w/big.parquet", a, &md);
		assert_true(md.nrow_groups >= 3);
		for (int g = 0; g < md.nrow_groups; g++)
			assert_true(md.row_groups[g].num_rows <= 6);
	}

	memset(&ro, 0, sizeof(ro));
	ro.schema = schema;
	assert_int_equal(pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/big.parquet",
										   &ro, &r, &err), PM_OK);
	for (;;)
	{
		assert_int_equal(pm_format_reader_next(r, &rb, &err), PM_OK);
		if (rb == NULL)
			break;
		for (int64_t i = 0; i < rb->nrows; i++, row++)
			for (int k = 0; k < 2; k++)
			{
				int32_t		l1,
							l2;
				const uint8_t *p1 = pm_vector_bytes(&v[k], row % nrows, &l1);
				const uint8_t *p2 = pm_vector_bytes(&rb->cols[k], i, &l2);

				assert_int_equal(l1, l2);
				assert_memory_equal(p1, p2, (size_t) l1);
			}
	}
	assert_int_equal(row, 2 * nrows);
	pm_format_reader_close(r);
	keep_copy(io, "/w/big.parquet", "big", a);
	free(buf);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* Stats of one DOUBLE column holding vals[0..n). */
static pm_column_stats
double_stats(const double *vals, int n, pm_arena *a)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_field	f[1] = {{1, "x", NULL, NULL}};
	const pm_type *schema;
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_batch	b;
	pm_vector	v;
	pm_error	err;

	f[0].type = pm_type_new(a, PM_TYPE_DOUBLE, false);
	schema = pm_type_new_row(a, f, 1, false);
	o = options(schema, "none", 0, 0);
	assert_true(pm_vector_init(&v, f[0].type, n, false, a));
	memcpy(v.values, vals, sizeof(double) * (size_t) n);
	v.length = n;
	b.nrows = n;
	b.first_row = 0;
	b.ncols = 1;
	b.cols = &v;
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/z.parquet",
										   &o, &w, &err), PM_OK);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);
	pm_memory_fileio_destroy(io);
	return res.stats[0];
}

/* Float statistics are exact in Java's Double.compare order: -0.0 < 0.0. */
static void
test_float_zero_stats(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	double		pos[2] = {0.0, 0.0};
	double		mixed[3] = {0.0, -0.0, 0.0};
	double		neg[1] = {-0.0};
	pm_column_stats s;

	s = double_stats(pos, 2, a);
	assert_true(s.has_min_max);
	assert_false(signbit(s.min.u.f64));
	assert_false(signbit(s.max.u.f64));
	s = double_stats(mixed, 3, a);
	assert_true(signbit(s.min.u.f64));
	assert_false(signbit(s.max.u.f64));
	s = double_stats(neg, 1, a);
	assert_true(signbit(s.min.u.f64));
	assert_true(signbit(s.max.u.f64));
	pm_arena_destroy(a);
}

/* ------------------------------------------------------------ random */

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	rng_state = mix(rng_state);
	return rng_state;
}

static int32_t next_field_id;

/* A random type: leaves at depth 3, nested types less likely deeper. */
static const pm_type *
random_type(pm_arena *a, int depth, bool nullable)
{
	int			k = (int) (rnd() % (depth >= 3 ? 9 : 13));
	pm_type    *t;

	switch (k)
	{
		case 0:
			return pm_type_new(a, PM_TYPE_INT, nullable);
		case 1:
			return pm_type_new(a, PM_TYPE_BIGINT, nullable);
		case 2:
			return pm_type_new(a, PM_TYPE_DOUBLE, nullable);
		case 3:
		case 4:
			t = pm_type_new(a, PM_TYPE_VARCHAR, nullable);
			t->length = 2147483647;
			return t;
		case 5:
			return pm_type_new(a, PM_TYPE_BOOLEAN, nullable);
		case 6:
			return pm_type_new_decimal(a, rnd() % 2 ? 38 : 10, 2, nullable);
		case 7:
		case 8:
			t = pm_type_new(a, PM_TYPE_TIMESTAMP, nullable);
			t->precision = rnd() % 2 ? 9 : 3;
			return t;
		case 9:
		case 10:
			return pm_type_new_array(a, random_type(a, depth + 1, rnd() % 3 != 0), nullable);
		case 11:
			{
				pm_type    *key = pm_type_new(a, rnd() % 2 ? PM_TYPE_INT : PM_TYPE_VARCHAR, false);

				key->length = 2147483647;
				return pm_type_new_map(a, key, random_type(a, depth + 1, rnd() % 3 != 0),
									   nullable);
			}
		default:
			{
				pm_field	f[3];
				int			n = 1 + (int) (rnd() % 3);
				static const char *names[3] = {"f0", "f1", "f2"};

				for (int i = 0; i < n; i++)
				{
					memset(&f[i], 0, sizeof(f[i]));
					f[i].id = next_field_id++;
					f[i].name = names[i];
					f[i].type = random_type(a, depth + 1, rnd() % 3 != 0);
				}
				return pm_type_new_row(a, f, n, nullable);
			}
	}
}

/*
 * Fill v with n random values of its type: `card` distinct values per leaf
 * (0: all distinct), NULLs with probability null_pct % where allowed.
 */
static void
random_vector(pm_vector *v, const pm_type *t, int64_t n, int card, int null_pct, pm_arena *a)
{
	int64_t		dcap = 0;
	int64_t		total = 0;

	assert_true(pm_vector_init(v, t, n, true, a));
	v->length = n;
	if (t->id == PM_TYPE_TIMESTAMP && t->precision > 6)
		v->nanos = pm_arena_zalloc(a, sizeof(uint16_t) * (size_t) (n > 0 ? n : 1));
	for (int64_t i = 0; i < n; i++)
	{
		uint64_t	x = card > 0 ? mix(rnd() % (uint64_t) card + (uint64_t) t->id) : rnd();
		bool		null = t->nullable && (int) (rnd() % 100) < null_pct;

		if (null)
		{
			v->nulls[i] = 1;
			if (v->offsets != NULL)
				v->offsets[i + 1] = v->offsets[i];
			continue;
		}
		switch (t->id)
		{
			case PM_TYPE_INT:
				PM_VEC_VALUES(v, int32_t)[i] = (int32_t) x;
				break;
			case PM_TYPE_BIGINT:
				PM_VEC_VALUES(v, int64_t)[i] = (int64_t) x;
				break;
			case PM_TYPE_DOUBLE:
				PM_VEC_VALUES(v, double)[i] = (double) (int64_t) x / 7.0;
				break;
			case PM_TYPE_BOOLEAN:
				PM_VEC_VALUES(v, uint8_t)[i] = (uint8_t) (x & 1);
				break;
			case PM_TYPE_DECIMAL:
				PM_VEC_VALUES(v, pm_int128)[i] = (pm_int128) (int64_t) x % (t->precision > 18 ?
																		   INT64_MAX : 10000000000LL);
				break;
			case PM_TYPE_TIMESTAMP:
				{
					int64_t		us = (int64_t) (x % 4000000000000000ULL) - 2000000000000000LL;

					if (t->precision <= 3)
						us -= ((us % 1000) + 1000) % 1000;	/* whole millis */
					PM_VEC_VALUES(v, int64_t)[i] = us;
					if (v->nanos != NULL)
						v->nanos[i] = (uint16_t) ((x >> 40) % 1000);
					break;
				}
			case PM_TYPE_VARCHAR:
				{
					char		s[32];
					int			len = snprintf(s, sizeof(s), "%llx", (unsigned long long) (x % 100000000));

					len = (int) (x % 7 == 0 ? 0 : len);
					assert_true(pm_vector_append_data(v, &dcap, s, len, a));
					v->offsets[i + 1] = v->offsets[i] + len;
					break;
				}
			case PM_TYPE_ARRAY:
			case PM_TYPE_MAP:
				total += (int64_t) (rnd() % 4);
				v->offsets[i + 1] = (int32_t) total;
				break;
			default:
				break;
		}
	}
	if (t->id == PM_TYPE_ARRAY)
		random_vector(&v->children[0], t->element, total, card, null_pct, a);
	else if (t->id == PM_TYPE_MAP)
	{
		random_vector(&v->children[0], t->element, total, 0, 0, a);
		random_vector(&v->children[1], t->value, total, card, null_pct, a);
	}
	else if (t->id == PM_TYPE_ROW)
		for (int k = 0; k < t->nfields; k++)
			random_vector(&v->children[k], t->fields[k].type, n, card, null_pct, a);
}

/*
 * Random schemas (nested up to 3 levels), cardinalities, NULL rates, page
 * and row-group sizes, codecs and dictionary on/off: what our reader reads
 * back renders the same as what was written.
 */
static void
test_random_roundtrip(void **state)
{
	static const char *codecs[] = {"none", "zstd", "snappy", "gzip", "lz4"};
	static const int cards[] = {1, 2, 37, 0};
	static const int null_pcts[] = {0, 10, 50, 100};
	char	   *want = malloc(1 << 16);
	char	   *got = malloc(1 << 16);

	for (int iter = 0; iter < 60; iter++)
	{
		pm_arena   *a = pm_arena_create(pm_env_default());
		pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
		pm_field	f[6];
		int			ncols;
		int64_t		nrows;
		const pm_type *schema;
		pm_format_write_options o;
		pm_format_writer *w;
		pm_format_write_result res;
		pm_format_read_options ro;
		pm_format_reader *r;
		pm_batch	b;
		pm_batch   *rb;
		pm_error	err;
		int64_t		row = 0;
		int			card;
		int			null_pct;

		rng_state = (uint64_t) iter * 7919 + 1;
		next_field_id = 1000;
		ncols = 1 + (int) (rnd() % 6);
		nrows = (int64_t) (rnd() % 3000);
		card = cards[rnd() % 4];
		null_pct = null_pcts[rnd() % 4];
		for (int i = 0; i < ncols; i++)
		{
			static const char *names[6] = {"c0", "c1", "c2", "c3", "c4", "c5"};

			memset(&f[i], 0, sizeof(f[i]));
			f[i].id = i;
			f[i].name = names[i];
			f[i].type = random_type(a, 0, rnd() % 4 != 0);
		}
		schema = pm_type_new_row(a, f, ncols, false);
		o = options(schema, codecs[rnd() % 5], (int64_t) (2 + rnd() % 64) << 10,
					(int64_t) (256 + rnd() % 8192));
		o.dictionary = rnd() % 4 != 0;
		b.nrows = nrows;
		b.first_row = 0;
		b.ncols = ncols;
		b.cols = pm_arena_zalloc(a, sizeof(pm_vector) * (size_t) ncols);
		for (int i = 0; i < ncols; i++)
			random_vector(&b.cols[i], f[i].type, nrows, card, null_pct, a);

		pm_error_clear(&err);
		assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io,
											   "/w/r.parquet", &o, &w, &err), PM_OK);
		if (pm_format_writer_write(w, &b, &err) != PM_OK ||
			pm_format_writer_finish(w, a, &res, &err) != PM_OK)
			fail_msg("iteration %d: %s", iter, err.message);
		assert_int_equal(res.row_count, nrows);

		memset(&ro, 0, sizeof(ro));
		ro.schema = schema;
		ro.batch_size = 1 + (int) (rnd() % 1000);
		if (pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/r.parquet", &ro,
								  &r, &err) != PM_OK)
			fail_msg("iteration %d: open: %s", iter, err.message);
		for (;;)
		{
			if (pm_format_reader_next(r, &rb, &err) != PM_OK)
				fail_msg("iteration %d: next: %s", iter, err.message);
			if (rb == NULL)
				break;
			for (int64_t i = 0; i < rb->nrows; i++, row++)
				for (int k = 0; k < ncols; k++)
				{
					want[0] = got[0] = '\0';
					render(&b.cols[k], row, want, 1 << 16);
					render(&rb->cols[k], i, got, 1 << 16);
					if (strcmp(want, got) != 0)
						fail_msg("iteration %d row %lld col %d (%s): wrote %s read %s", iter,
								 (long long) row, k, pm_type_id_name(f[k].type->id), want, got);
				}
		}
		assert_int_equal(row, nrows);
		pm_format_reader_close(r);
		{
			char		name[32];

			snprintf(name, sizeof(name), "random-%02d", iter);
			keep_copy(io, "/w/r.parquet", name, a);
		}
		pm_memory_fileio_destroy(io);
		pm_arena_destroy(a);
	}
	free(want);
	free(got);
}

/*
 * MULTISET<T> is written as Java writes it, MAP<T, INT> from distinct
 * elements to counts; our reader gives back each element count times, the
 * distinct ones in order of first occurrence.
 */
static void
test_multiset(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_field	f[3] = {{1, "id", NULL, NULL}, {2, "ms", NULL, NULL}, {3, "mi", NULL, NULL}};
	pm_type    *ms = pm_type_new(a, PM_TYPE_MULTISET, true);
	pm_type    *mi = pm_type_new(a, PM_TYPE_MULTISET, false);
	pm_type    *str = pm_type_new(a, PM_TYPE_VARCHAR, false);
	const pm_type *schema;
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch	b;
	pm_batch   *rb;
	pm_vector	v[3];
	pm_error	err;
	pm_pq_metadata md;
	int64_t		dcap = 0;
	int			n = 400;
	int32_t		es = 0,
				ei = 0;
	int64_t		row = 0;
	char		want[256];
	char		got[256];
	static char first[400][2][64];	/* the first read, per row and column */
	pm_format_writer *w2;

	str->length = 2147483647;
	ms->element = str;
	mi->element = pm_type_new(a, PM_TYPE_INT, false);
	f[0].type = pm_type_new(a, PM_TYPE_BIGINT, false);
	f[1].type = ms;
	f[2].type = mi;
	schema = pm_type_new_row(a, f, 3, false);
	o = options(schema, "zstd", 0, 1024);
	assert_true(pm_vector_init(&v[0], f[0].type, n, false, a));
	assert_true(pm_vector_init(&v[1], ms, n, true, a));
	assert_true(pm_vector_init(&v[2], mi, n, false, a));
	assert_true(pm_vector_init(&v[1].children[0], str, n * 6, false, a));
	assert_true(pm_vector_init(&v[2].children[0], mi->element, n * 5, false, a));
	for (int i = 0; i < n; i++)
	{
		PM_VEC_VALUES(&v[0], int64_t)[i] = i;
		if (i % 5 == 0)
		{
			v[1].nulls[i] = 1;
			v[1].offsets[i + 1] = es;
		}
		else
		{
			for (int j = 0; j < i % 6; j++, es++)
			{
				char		s[8];
				int			len = snprintf(s, sizeof(s), "x%d", (i + j * j) % 3);

				assert_true(pm_vector_append_data(&v[1].children[0], &dcap, s, len, a));
				v[1].children[0].offsets[es + 1] = v[1].children[0].offsets[es] + len;
			}
			v[1].offsets[i + 1] = es;
		}
		for (int j = 0; j < i % 5; j++, ei++)
			PM_VEC_VALUES(&v[2].children[0], int32_t)[ei] = (i * j) % 2;
		v[2].offsets[i + 1] = ei;
	}
	v[0].length = v[1].length = v[2].length = n;
	b.nrows = n;
	b.first_row = 0;
	b.ncols = 3;
	b.cols = v;
	pm_error_clear(&err);
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/m.parquet",
										   &o, &w, &err), PM_OK);
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);
	assert_false(res.stats[1].has_min_max);
	assert_int_equal(res.stats[1].null_count, n / 5);

	/* the layout: MAP > key_value > REQUIRED key, REQUIRED INT32 value */
	parse_footer(io, "/w/m.parquet", a, &md);
	assert_int_equal(md.nleaves, 5);
	assert_string_equal(md.leaves[1]->name, "key");
	assert_int_equal(md.leaves[1]->repetition, PM_PQ_REQUIRED);
	assert_int_equal(md.leaves[1]->parent->parent->converted, PM_PQ_CT_MAP);
	assert_string_equal(md.leaves[2]->name, "value");
	assert_int_equal(md.leaves[2]->physical, PM_PQ_INT32);
	assert_int_equal(md.leaves[2]->repetition, PM_PQ_REQUIRED);
	assert_int_equal(md.leaves[2]->field_id, 536870911 + 2 * 1024 + 1);

	memset(&ro, 0, sizeof(ro));
	ro.schema = schema;
	assert_int_equal(pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, "/w/m.parquet",
										   &ro, &r, &err), PM_OK);
	/* what is read is written again (as a compaction does): the counts must survive */
	assert_int_equal(pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io,
										   "/w/m2.parquet", &o, &w2, &err), PM_OK);
	for (;;)
	{
		assert_int_equal(pm_format_reader_next(r, &rb, &err), PM_OK);
		if (rb == NULL)
			break;
		assert_int_equal(pm_format_writer_write(w2, rb, &err), PM_OK);
		for (int64_t i = 0; i < rb->nrows; i++, row++)
		{
			/* each element count times, in order of first occurrence */
			want[0] = '\0';
			if (row % 5 == 0)
				snprintf(want, sizeof(want), "null");
			else
			{
				int			count[3] = {0, 0, 0};
				int			order[3];
				int			ndistinct = 0;

				strcat(want, "[");
				for (int j = 0; j < row % 6; j++)
				{
					int			e = (int) ((row + j * j) % 3);

					if (count[e]++ == 0)
						order[ndistinct++] = e;
				}
				for (int d = 0; d < ndistinct; d++)
					for (int k = 0; k < count[order[d]]; k++)
						snprintf(want + strlen(want), sizeof(want) - strlen(want), "'x%d',",
								 order[d]);
				strcat(want, "]");
			}
			got[0] = '\0';
			render(&rb->cols[1], i, got, sizeof(got));
			assert_string_equal(got, want);
			snprintf(first[row][0], sizeof(first[row][0]), "%s", got);
			got[0] = '\0';
			render(&rb->cols[2], i, got, sizeof(got));
			snprintf(first[row][1], sizeof(first[row][1]), "%s", got);
			{
				/* (row * j) % 2 for j < row % 5: 0 first, then 1 where both are odd */
				int			ones = 0;

				for (int j = 0; j < row % 5; j++)
					ones += (int) ((row * j) % 2);
				want[0] = '\0';
				strcat(want, "[");
				for (int k = 0; k < row % 5 - ones; k++)
					strcat(want, "0,");
				for (int k = 0; k < ones; k++)
					strcat(want, "1,");
				strcat(want, "]");
				assert_string_equal(got, want);
			}
		}
	}
	assert_int_equal(row, n);
	pm_format_reader_close(r);
	assert_int_equal(pm_format_writer_finish(w2, a, &res, &err), PM_OK);
	assert_int_equal(pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io,
										   "/w/m2.parquet", &ro, &r, &err), PM_OK);
	row = 0;
	for (;;)
	{
		assert_int_equal(pm_format_reader_next(r, &rb, &err), PM_OK);
		if (rb == NULL)
			break;
		for (int64_t i = 0; i < rb->nrows; i++, row++)
			for (int c = 0; c < 2; c++)
			{
				got[0] = '\0';
				render(&rb->cols[c + 1], i, got, sizeof(got));
				assert_string_equal(got, first[row][c]);
			}
	}
	assert_int_equal(row, n);
	pm_format_reader_close(r);
	keep_copy(io, "/w/m.parquet", "multiset", a);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_none_multi),
		cmocka_unit_test(test_roundtrip_zstd),
		cmocka_unit_test(test_roundtrip_snappy),
		cmocka_unit_test(test_roundtrip_gzip),
		cmocka_unit_test(test_roundtrip_lz4),
		cmocka_unit_test(test_roundtrip_dictionary),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_stats_nan_and_nulls),
		cmocka_unit_test(test_write_failure),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_int96_bytes),
		cmocka_unit_test(test_nested_roundtrip),
		cmocka_unit_test(test_big_values),
		cmocka_unit_test(test_float_zero_stats),
		cmocka_unit_test(test_random_roundtrip),
		cmocka_unit_test(test_multiset),
	};

	keep_dir = getenv("PM_PARQUET_WRITER_KEEP");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
