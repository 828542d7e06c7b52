/*-------------------------------------------------------------------------
 * test_avro_writer.c
 *	  The Avro writer (src/format/avro/avro_writer.c).
 *
 * - The schema JSON is what Java 1.4.2 put in the header of a data file of
 *   a fresh table (test/oracle/oracle.sh, ORACLE_PAIMON_VERSION=1.4.2).
 * - Every flat type with NULLs and extremes, every codec, many blocks:
 *   written, read back by our reader value for value; statistics.
 * - Every Avro file of the Java-written corpus (data files, manifests,
 *   manifest lists): read with our reader, written by the writer with the
 *   same codec, read back equal, and the header schema equal to Java's.
 * - Refusals and failures leave no file.
 *-------------------------------------------------------------------------
 */
#define _XOPEN_SOURCE 700
#include "unit.h"

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/avro/avro_int.h"
#include "format/avro/avro_reader.h"
#include "format/avro/avro_writer.h"
#include "format/format_writer.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "row/data_type.h"
#include "writer_fixture.h"

/* avro.schema of dt=2026-12-01/bucket-0/data-*.avro written by Java 1.4.2 */
static const char java142_data_schema[] =
	"{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
	"\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
	"{\"name\":\"v\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,\"scale\":2}],\"default\":null},"
	"{\"name\":\"tags\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"string\"]}],\"default\":null},"
	"{\"name\":\"m\",\"type\":[\"null\",{\"type\":\"map\",\"values\":[\"null\",\"int\"]}],\"default\":null},"
	"{\"name\":\"m2\",\"type\":[\"null\",{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"record_m2\","
	"\"fields\":[{\"name\":\"key\",\"type\":[\"null\",\"int\"]},{\"name\":\"value\",\"type\":[\"null\",\"string\"],\"default\":null}]},"
	"\"logicalType\":\"map\"}],\"default\":null},"
	"{\"name\":\"r\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"record_r\",\"fields\":["
	"{\"name\":\"a\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"b\",\"type\":[\"null\",\"string\"],\"default\":null}]}],\"default\":null},"
	"{\"name\":\"ts\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}],\"default\":null},"
	"{\"name\":\"tl\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}],\"default\":null},"
	"{\"name\":\"d\",\"type\":[\"null\",{\"type\":\"int\",\"logicalType\":\"date\"}],\"default\":null},"
	"{\"name\":\"b\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
	"{\"name\":\"dt\",\"type\":[\"null\",\"string\"],\"default\":null}]}";

static void
test_schema_as_java142(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	char	   *json;
	pm_error	err;
	const pm_type *t = writer_fixture_parse_type(a, "ROW<id BIGINT NOT NULL, v DECIMAL(10, 2), tags ARRAY<STRING>, "
								  "m MAP<STRING, INT>, m2 MAP<INT, STRING>, r ROW<a INT, b STRING>, "
								  "ts TIMESTAMP(6), tl TIMESTAMP(3) WITH LOCAL TIME ZONE, d DATE, "
								  "b BYTES, dt STRING>");

	(void) state;
	assert_int_equal(pm_avro_schema_json(t, a, &json, &err), PM_OK);
	assert_string_equal(json, java142_data_schema);
	pm_arena_destroy(a);
}

/*
 * MULTISET as AvroSchemaConverter.convertToSchema makes it: the map of its
 * element to `new IntType()` (nullable: ["null","int"], default null in
 * the key/value record), an Avro map for CHAR/VARCHAR elements, otherwise
 * an array (logicalType map) of record <parent>_<field>{key, value}.
 */
static const char *java_multiset_schema =
	"{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
	"\"fields\":[{\"name\":\"ms\",\"type\":[\"null\",{\"type\":\"map\",\"values\":[\"null\",\"int\"]}],\"default\":null},"
	"{\"name\":\"mi\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"record_mi\","
	"\"fields\":[{\"name\":\"key\",\"type\":\"int\"},{\"name\":\"value\",\"type\":[\"null\",\"int\"],\"default\":null}]},"
	"\"logicalType\":\"map\"}},"
	"{\"name\":\"r\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"record_r\",\"fields\":["
	"{\"name\":\"c\",\"type\":[\"null\",{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"record_r_c\","
	"\"fields\":[{\"name\":\"key\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":5,\"scale\":1}]},"
	"{\"name\":\"value\",\"type\":[\"null\",\"int\"],\"default\":null}]},\"logicalType\":\"map\"}],\"default\":null}]}],"
	"\"default\":null}]}";

static void
test_multiset_schema_as_java(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	char	   *json;
	pm_error	err;
	const pm_type *t = writer_fixture_parse_type(a, "ROW<ms MULTISET<STRING>, "
												 "mi MULTISET<INT NOT NULL> NOT NULL, "
												 "r ROW<c MULTISET<DECIMAL(5, 1)>>>");

	(void) state;
	assert_int_equal(pm_avro_schema_json(t, a, &json, &err), PM_OK);
	assert_string_equal(json, java_multiset_schema);
	pm_arena_destroy(a);
}

/* MULTISET values: each distinct element with its count, read back as often as written. */
static void
test_multiset(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());

	(void) state;
	writer_fixture_multiset_round_trip(PM_FORMAT_AVRO, io, "/ms/a.avro", "/ms/b.avro", NULL, a);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* ---------------------------------------------------------------------
 * Comparing vectors value by value
 * --------------------------------------------------------------------- */

/*
 * Compare files a (read with type) and b row by row: both readers advance
 * in step, batch sizes differ, so compare through cursors.
 */
static void
assert_same_rows(pm_fileio *ioa, const char *a, pm_fileio *iob, const char *b,
				 const pm_type *type, int64_t *nrows)
{
	pm_format_read_options o;
	pm_format_reader *ra,
			   *rb;
	pm_batch   *ba = NULL,
			   *bb = NULL;
	int64_t		ia = 0,
				ib = 0,
				n = 0;
	pm_error	err;

	memset(&o, 0, sizeof(o));
	o.schema = type;
	o.batch_size = 77;
	assert_int_equal(pm_avro_reader_open(pm_env_default(), ioa, a, &o, &ra, &err), PM_OK);
	o.batch_size = 1000;
	assert_int_equal(pm_avro_reader_open(pm_env_default(), iob, b, &o, &rb, &err), PM_OK);
	for (;;)
	{
		if (ba == NULL || ia == ba->nrows)
		{
			assert_int_equal(pm_format_reader_next(ra, &ba, &err), PM_OK);
			ia = 0;
		}
		if (bb == NULL || ib == bb->nrows)
		{
			assert_int_equal(pm_format_reader_next(rb, &bb, &err), PM_OK);
			ib = 0;
		}
		if (ba == NULL || bb == NULL)
		{
			assert_true(ba == NULL && bb == NULL);
			break;
		}
		if (ba->nrows == 0 || bb->nrows == 0)
			continue;
		for (int c = 0; c < type->nfields; c++)
		{
			char		why[200] = "";

			if (!writer_fixture_value_equal(type->fields[c].type, &ba->cols[c], ia, &bb->cols[c], ib, why, sizeof(why)))
				fail_msg("%s row %lld column %s differs: %s", a, (long long) n, type->fields[c].name, why);
		}
		ia++;
		ib++;
		n++;
	}
	pm_format_reader_close(ra);
	pm_format_reader_close(rb);
	*nrows = n;
}

/* ---------------------------------------------------------------------
 * Writing a batch of every flat type
 * --------------------------------------------------------------------- */

static const char *flat_type =
	"ROW<b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
	"dec DECIMAL(38, 10), dec2 DECIMAL(5, 2) NOT NULL, c CHAR(3), v STRING, bin BINARY(2), vb BYTES, "
	"dt DATE, tm TIME(3), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6) NOT NULL, "
	"ltz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, ltz6 TIMESTAMP(6) WITH LOCAL TIME ZONE>";

static void
test_flat_types_every_codec(void **state)
{
	static const char *codecs[] = {"none", "zstd", "snappy", "deflate", "ZSTD"};
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, flat_type);
	pm_batch	batches[3];
	int64_t		counts[3] = {1000, 1, 555};

	(void) state;
	for (int k = 0; k < 3; k++)
		writer_fixture_fill_flat(&batches[k], row, counts[k], a, (uint64_t) k * 7919);
	for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++)
	{
		char		path[64];
		pm_format_write_result res;

		snprintf(path, sizeof(path), "/t/flat-%zu.avro", c);
		/* small blocks: many blocks per file */
		writer_fixture_write(PM_FORMAT_AVRO, io, path, row, codecs[c], c == 0 ? 0 : 4096, NULL,
							 batches, 3, &res, a);
		assert_int_equal(res.row_count, 1556);
		assert_int_equal(res.ncols, row->nfields);
		assert_int_equal(writer_fixture_read_back(PM_FORMAT_AVRO, io, path, row, batches, 3,
												  codecs[c]), 1556);
	}

	/* statistics of the last file: null counts and exact min/max */
	{
		pm_format_write_result res;
		const pm_type *t;

		writer_fixture_write(PM_FORMAT_AVRO, io, "/t/stats.avro", row, "zstd", 0, NULL, batches, 3,
							 &res, a);
		for (int col = 0; col < row->nfields; col++)
		{
			int64_t		nulls = 0;
			int64_t		imin = INT64_MAX,
						imax = INT64_MIN;

			t = row->fields[col].type;
			for (int k = 0; k < 3; k++)
				for (int64_t i = 0; i < batches[k].nrows; i++)
				{
					if (pm_vector_is_null(&batches[k].cols[col], i))
					{
						nulls++;
						continue;
					}
					if (t->id == PM_TYPE_BIGINT)
					{
						int64_t		x = PM_VEC_VALUES(&batches[k].cols[col], int64_t)[i];

						imin = x < imin ? x : imin;
						imax = x > imax ? x : imax;
					}
				}
			assert_int_equal(res.stats[col].null_count, nulls);
			assert_true(res.stats[col].has_min_max);
			if (t->id == PM_TYPE_BIGINT)
			{
				assert_int_equal(res.stats[col].min.u.i64, imin);
				assert_int_equal(res.stats[col].max.u.i64, imax);
				assert_int_equal(imin, INT64_MIN);
			}
		}
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* ---------------------------------------------------------------------
 * Corpus files: read, write, read back
 * --------------------------------------------------------------------- */

/* The avro.schema and avro.codec of a file (our own tiny header parse). */
static void
header_of(pm_fileio *io, const char *path, pm_arena *a, char **schema, char **codec)
{
	uint8_t    *d;
	size_t		len,
				p = 4;
	pm_error	err;

	*schema = *codec = NULL;
	assert_int_equal(pm_fileio_read_all(io, path, a, 64 << 20, &d, &len, &err), PM_OK);
	assert_memory_equal(d, "Obj\x01", 4);
	for (;;)
	{
		int64_t		n;
		const uint8_t *q = d + p;

		assert_true(pm_avro_read_long(&q, d + len, &n));
		p = (size_t) (q - d);
		if (n == 0)
			break;
		if (n < 0)
		{
			int64_t		skip;

			assert_true(pm_avro_read_long(&q, d + len, &skip));
			p = (size_t) (q - d);
			n = -n;
		}
		for (int64_t i = 0; i < n; i++)
		{
			int64_t		kl,
						vl;
			char	   *k,
					   *v;

			q = d + p;
			assert_true(pm_avro_read_long(&q, d + len, &kl));
			k = pm_arena_strndup(a, (const char *) q, (size_t) kl);
			q += kl;
			assert_true(pm_avro_read_long(&q, d + len, &vl));
			v = pm_arena_strndup(a, (const char *) q, (size_t) vl);
			q += vl;
			p = (size_t) (q - d);
			if (strcmp(k, "avro.schema") == 0)
				*schema = v;
			else if (strcmp(k, "avro.codec") == 0)
				*codec = v;
		}
	}
}

static int	n_files,
			n_same_schema,
			n_old_top_union;
static pm_fileio *corpus_io,
		   *mem_io;

static int
visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	pm_arena   *a;
	char	   *schema,
			   *codec,
			   *ours,
			   *ocodec;
	const pm_type *type;
	pm_error	err;
	char		out[64];
	int64_t		nrows = 0;
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *b;
	pm_format_write_result res;

	(void) st;
	if (flag != FTW_F)
		return 0;
	{
		FILE	   *f = fopen(path, "rb");
		char		magic[4] = {0};

		if (f == NULL)
			return 0;
		if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "Obj\x01", 4) != 0)
		{
			fclose(f);
			return 0;
		}
		fclose(f);
	}
	(void) base;
	a = pm_arena_create(pm_env_default());
	header_of(corpus_io, path, a, &schema, &codec);
	assert_non_null(schema);
	if (pm_avro_file_type(pm_env_default(), corpus_io, path, a, &type, &err) != PM_OK)
		fail_msg("%s: %s", path, err.message);

	/* write what our reader read, batch by batch, with the file's codec */
	snprintf(out, sizeof(out), "/copy/%d", n_files);
	memset(&o, 0, sizeof(o));
	o.schema = type;
	o.compression = codec == NULL || strcmp(codec, "zstandard") == 0 ? "zstd" : codec;
	o.row_group_bytes = 512;
	assert_int_equal(pm_avro_writer_open(pm_env_default(), mem_io, out, &o, &w, &err), PM_OK);
	memset(&ro, 0, sizeof(ro));
	ro.schema = type;
	assert_int_equal(pm_avro_reader_open(pm_env_default(), corpus_io, path, &ro, &r, &err), PM_OK);
	while (pm_format_reader_next(r, &b, &err) == PM_OK && b != NULL)
		if (pm_format_writer_write(w, b, &err) != PM_OK)
			fail_msg("%s: %s", path, err.message);
	pm_format_reader_close(r);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);

	assert_same_rows(corpus_io, path, mem_io, out, type, &nrows);
	assert_int_equal(nrows, res.row_count);
	header_of(mem_io, out, a, &ours, &ocodec);
	assert_string_equal(ocodec, codec ? codec : "null");
	if (strcmp(ours, schema) == 0)
		n_same_schema++;
	else if (schema[0] == '[')
		n_old_top_union++;		/* Paimon 0.9 wrapped the top record in ["null", ...] */
	else
		fail_msg("%s: schema differs from Java's\n java: %s\n ours: %s", path, schema, ours);
	n_files++;
	pm_arena_destroy(a);
	return 0;
}

static void
test_corpus_files_round_trip(void **state)
{
	(void) state;
	unit_require_corpus();
	corpus_io = pm_local_fileio_create(pm_env_default());
	mem_io = pm_memory_fileio_create(pm_env_default());
	n_files = n_same_schema = n_old_top_union = 0;
	assert_int_equal(nftw(unit_corpus_path("tables"), visit, 16, FTW_PHYS), 0);
	printf("corpus: %d Avro files written again, %d with Java's schema JSON byte for byte, "
		   "%d of Paimon 0.9 (top-level union)\n", n_files, n_same_schema, n_old_top_union);
	assert_true(n_files >= 100);
	assert_int_equal(n_same_schema + n_old_top_union, n_files);
	assert_true(n_same_schema >= 200);
	pm_memory_fileio_destroy(mem_io);
	pm_local_fileio_destroy(corpus_io);
}

/* ---------------------------------------------------------------------
 * Refusals
 * --------------------------------------------------------------------- */

static void
expect_refused(const char *type_text, const char *codec, pm_code code, const char *needle)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_format_write_options o;
	pm_format_writer *w;
	pm_error	err;

	memset(&o, 0, sizeof(o));
	o.schema = writer_fixture_parse_type(a, type_text);
	o.compression = codec;
	assert_int_equal(pm_avro_writer_open(pm_env_default(), io, "/x.avro", &o, &w, &err), code);
	assert_null(w);
	if (strstr(err.message, needle) == NULL)
		fail_msg("\"%s\" does not name \"%s\"", err.message, needle);
	assert_false(io->exists(io, "/x.avro"));
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static void
test_refusals(void **state)
{
	(void) state;
	/* elements are grouped by value: only primitive ones */
	expect_refused("ROW<a INT, m MULTISET<ARRAY<INT>>>", "zstd", PM_ERR_UNSUPPORTED, "\"m\"");
	expect_refused("ROW<a INT, r ROW<x TIMESTAMP(9)>>", "zstd", PM_ERR_UNSUPPORTED, "\"r\"");
	expect_refused("ROW<t TIME(6)>", "zstd", PM_ERR_UNSUPPORTED, "\"t\"");
	expect_refused("ROW<v VARIANT>", "zstd", PM_ERR_UNSUPPORTED, "VARIANT");
	expect_refused("ROW<`a b` INT>", "zstd", PM_ERR_UNSUPPORTED, "a b");
	expect_refused("ROW<a INT>", "lz4", PM_ERR_UNSUPPORTED, "lz4");
	/* a nested record name defined twice (Java's SchemaBuilder refuses it too) */
	expect_refused("ROW<a ROW<b ROW<x INT>>, a_b ROW<y INT>>", "zstd", PM_ERR_UNSUPPORTED, "record_a_b");
}

/* A NULL in a NOT NULL column fails the write; abort leaves no file. */
static void
test_null_in_not_null_leaves_no_file(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, "ROW<i INT NOT NULL>");
	pm_format_write_options o;
	pm_format_writer *w;
	pm_batch	b;
	pm_error	err;

	(void) state;
	memset(&o, 0, sizeof(o));
	o.schema = row;
	o.compression = "zstd";
	assert_int_equal(pm_avro_writer_open(pm_env_default(), io, "/n.avro", &o, &w, &err), PM_OK);
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
	assert_false(io->exists(io, "/n.avro"));

	/* a write failure of the file system: finish fails and nothing stays */
	assert_int_equal(pm_avro_writer_open(pm_env_default(), io, "/f.avro", &o, &w, &err), PM_OK);
	b.cols[0].nulls[1] = 0;
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	pm_memory_fileio_fail_write(io, 1, PM_ERR_IO);
	{
		pm_format_write_result res;

		assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_ERR_IO);
	}
	assert_false(io->exists(io, "/f.avro"));
	/* an existing file is not overwritten */
	assert_int_equal(pm_memory_fileio_add(io, "/e.avro", "x", 1, &err), PM_OK);
	assert_int_not_equal(pm_avro_writer_open(pm_env_default(), io, "/e.avro", &o, &w, &err), PM_OK);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/*
 * Float statistics in SimpleStatsCollector's order (Float/Double.compareTo):
 * NaN above every number, -0.0 below 0.0; a column of NaN only has NaN
 * bounds.
 */
static void
test_float_stats_nan(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, "ROW<d DOUBLE, f FLOAT, z DOUBLE, n DOUBLE>");
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_batch	b;
	pm_error	err;
	const double d[] = {1.5, NAN, -2.5, 0.0};
	const float f[] = {NAN, 3.0f, -1.0f, NAN};
	const double z[] = {0.0, -0.0, 0.0, 1.0};

	(void) state;
	memset(&o, 0, sizeof(o));
	o.schema = row;
	o.compression = "zstd";
	assert_int_equal(pm_avro_writer_open(pm_env_default(), io, "/nan.avro", &o, &w, &err), PM_OK);
	b.nrows = 4;
	b.ncols = 4;
	b.first_row = 0;
	b.cols = pm_arena_zalloc(a, sizeof(pm_vector) * 4);
	for (int c = 0; c < 4; c++)
	{
		assert_true(pm_vector_init(&b.cols[c], row->fields[c].type, 4, false, a));
		b.cols[c].length = 4;
	}
	for (int i = 0; i < 4; i++)
	{
		PM_VEC_VALUES(&b.cols[0], double)[i] = d[i];
		PM_VEC_VALUES(&b.cols[1], float)[i] = f[i];
		PM_VEC_VALUES(&b.cols[2], double)[i] = z[i];
		PM_VEC_VALUES(&b.cols[3], double)[i] = NAN;
	}
	assert_int_equal(pm_format_writer_write(w, &b, &err), PM_OK);
	assert_int_equal(pm_format_writer_finish(w, a, &res, &err), PM_OK);
	assert_true(res.stats[0].has_min_max);
	assert_true(res.stats[0].min.u.f64 == -2.5);
	assert_true(isnan(res.stats[0].max.u.f64));
	assert_true(res.stats[1].has_min_max);
	assert_true(res.stats[1].min.u.f64 == -1.0);
	assert_true(isnan(res.stats[1].max.u.f64));
	assert_true(res.stats[2].min.u.f64 == 0.0 && signbit(res.stats[2].min.u.f64));
	assert_true(res.stats[2].max.u.f64 == 1.0);
	assert_true(res.stats[3].has_min_max);
	assert_true(isnan(res.stats[3].min.u.f64) && isnan(res.stats[3].max.u.f64));
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_as_java142),
		cmocka_unit_test(test_multiset_schema_as_java),
		cmocka_unit_test(test_multiset),
		cmocka_unit_test(test_flat_types_every_codec),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_null_in_not_null_leaves_no_file),
		cmocka_unit_test(test_float_stats_nan),
		cmocka_unit_test(test_corpus_files_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
