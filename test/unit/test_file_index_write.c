/*-------------------------------------------------------------------------
 * test_file_index_write.c
 *	  The file index writers (index/..._write.h, table/file_index_options.h)
 *	  against what Java wrote: the raw range-bitmap vector of the corpus,
 *	  and every corpus table with file indexes, whose data files are read
 *	  back, indexed again with the table's options and compared byte for
 *	  byte with the container Java embedded in the manifest or wrote as a
 *	  sidecar. Then round trips through our readers.
 *-------------------------------------------------------------------------
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "corpus_case.h"
#include "format/format_reader.h"
#include "common/vector_builder.h"
#include "index/bitmap_index.h"
#include "index/file_index.h"
#include "index/file_index_write.h"
#include "index/index_values_write.h"
#include "index/range_bitmap_index.h"
#include "index/range_bitmap_index_write.h"
#include "index/roaring_write.h"
#include "io/fileio.h"
#include "table/file_index_options.h"
#include "table/split.h"
#include "table/table.h"
#include "unit.h"

static pm_arena *arena;

static const pm_type t_int = {.id = PM_TYPE_INT, .nullable = true};
static const pm_type t_varchar = {.id = PM_TYPE_VARCHAR, .nullable = true, .length = PM_MAX_VARCHAR_LENGTH};

static uint8_t *
read_corpus_file(const char *rel, size_t *len)
{
	FILE	   *f = fopen(unit_corpus_path(rel), "rb");
	uint8_t    *buf;
	long		n;

	if (f == NULL)
		fail_msg("cannot open %s", rel);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t) n + 1);
	assert_int_equal(fread(buf, 1, (size_t) n, f), (size_t) n);
	fclose(f);
	*len = (size_t) n;
	return buf;
}

static void
assert_bytes_equal(const char *what, const uint8_t *got, size_t got_len, const uint8_t *want,
				   size_t want_len)
{
	size_t		n = got_len < want_len ? got_len : want_len;

	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && getenv("DUMP"))
		{
			for (size_t j = 0; j < got_len; j++)
				fprintf(stderr, "%02x%s", got[j], j % 32 == 31 ? "\n" : " ");
			fprintf(stderr, "\n--\n");
			for (size_t j = 0; j < want_len; j++)
				fprintf(stderr, "%02x%s", want[j], j % 32 == 31 ? "\n" : " ");
			fprintf(stderr, "\n");
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("%s: byte %zu is %02x, Java wrote %02x (lengths %zu / %zu)", what, i,
					 got[i], want[i], got_len, want_len);
	if (got_len != want_len)
		fail_msg("%s: %zu bytes, Java wrote %zu", what, got_len, want_len);
}

/* A nullable INT vector of n values (null where isnull[i]). */
static void
int_vector(pm_vector *v, const int32_t *vals, const bool *isnull, int n)
{
	assert_true(pm_vector_init(v, &t_int, n, true, arena));
	for (int i = 0; i < n; i++)
	{
		PM_VEC_VALUES(v, int32_t)[i] = vals[i];
		v->nulls[i] = isnull != NULL && isnull[i];
	}
	v->length = n;
}

/* ---- RoaringBitmap: Java's container choices ---- */

static void
check_roaring(const uint32_t *v, size_t n, const uint8_t *want, size_t want_len)
{
	pm_byte_buffer b;
	roaring_bitmap_t *r;
	pm_error	err;
	size_t		used;

	pm_byte_buffer_init(&b, pm_env_default());
	assert_int_equal(pm_roaring_write(&b, v, n), b.len);
	if (want != NULL)
		assert_bytes_equal("roaring", b.data, b.len, want, want_len);
	if (pm_file_index_read_bitmap(b.data, b.len, -1, "test", &r, &used, &err) != PM_OK)
		fail_msg("%s", err.message);
	assert_int_equal(used, b.len);
	assert_int_equal(roaring_bitmap_get_cardinality(r), n);
	for (size_t i = 0; i < n; i++)
		assert_true(roaring_bitmap_contains(r, v[i]));
	roaring_bitmap_free(r);
	pm_byte_buffer_free(&b);
}

static void
test_roaring(void **state)
{
	/* {0,1,2}: Java keeps the array (6 bytes, not more than a run's 6) */
	static const uint32_t a3[] = {0, 1, 2};
	static const uint8_t a3_bytes[] = {0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0x10, 0, 0, 0,
	0, 0, 1, 0, 2, 0};
	/* {0,1,2,3,4,7}: runs (the §6.4 example) */
	static const uint32_t r6[] = {0, 1, 2, 3, 4, 7};
	static const uint8_t r6_bytes[] = {0x3b, 0x30, 0, 0, 1, 0, 0, 5, 0, 2, 0, 0, 0, 4, 0, 7, 0, 0, 0};
	uint32_t   *big = malloc(sizeof(uint32_t) * 300000);
	size_t		n = 0;

	check_roaring(a3, 3, a3_bytes, sizeof(a3_bytes));
	check_roaring(r6, 6, r6_bytes, sizeof(r6_bytes));
	check_roaring(NULL, 0, (const uint8_t[]) {0x3a, 0x30, 0, 0, 0, 0, 0, 0}, 8);
	/* a bitmap container (5000 even values), a run container of 70000, arrays; 5 containers */
	for (uint32_t x = 0; x < 10000; x += 2)
		big[n++] = x;
	for (uint32_t x = 65536; x < 65536 + 70000; x++)
		big[n++] = x;
	for (uint32_t x = 200000; x < 260000; x += 7)
		big[n++] = x;
	check_roaring(big, n, NULL, 0);
	free(big);
}

/* ---- range-bitmap: the corpus vector ---- */

static void
test_range_bitmap_vector(void **state)
{
	static const int32_t vals[] = {1, 3, 5, 7, 9, 0, 0, 10};
	static const bool nulls[] = {0, 0, 0, 0, 0, 1, 1, 0};
	pm_index_values iv;
	pm_vector	v;
	pm_byte_buffer b;
	pm_error	err;
	size_t		want_len;
	uint8_t    *want;

	unit_require_corpus();
	want = read_corpus_file("vectors/file_index/rangebitmap.index", &want_len);
	int_vector(&v, vals, nulls, 8);
	pm_index_values_init(&iv, &t_int, arena);
	assert_int_equal(pm_index_values_add(&iv, &v, 8, &err), PM_OK);
	pm_byte_buffer_init(&b, pm_env_default());
	assert_int_equal(pm_range_bitmap_index_write(&iv, pm_range_bitmap_default_chunk_size(&t_int), &b,
												 &err), PM_OK);
	assert_bytes_equal("rangebitmap.index", b.data, b.len, want, want_len);
	pm_byte_buffer_free(&b);
	free(want);
}

/* ---- the corpus tables ---- */

/*
 * Open a corpus table, read every data file of the latest snapshot with
 * the table's columns, build its indexes from the table's options and
 * compare with Java's container (embedded or sidecar, by the threshold).
 */
static void
check_table(const char *rel, int want_files)
{
	pm_table_open_options opts = {0};
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_table   *table;
	pm_scan    *scan;
	pm_error	err;
	const pm_file_index_plan *plan;
	const pm_schema *schema;
	char	   *map;
	int			nfiles = 0;

	unit_require_corpus();
	map = external_map_for(unit_corpus_path(rel));
	opts.external_path_map = map;
	if (pm_table_open(pm_env_default(), io, unit_corpus_path(rel), &opts, &table, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	schema = pm_table_schema(table);
	if (pm_file_index_plan_of_schema(schema, arena, &plan, &err) != PM_OK)
		fail_msg("%s: options: %s", rel, err.message);
	assert_non_null(plan);
	if (pm_table_scan_plan(table, NULL, &scan, &err) != PM_OK)
		fail_msg("%s: plan: %s", rel, err.message);
	for (int s = 0; s < pm_scan_split_count(scan); s++)
	{
		const pm_split *sp = pm_scan_get_split(scan, s);

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *fm = sp->files[f];
			pm_format_read_options ro = {0};
			pm_format_reader *r;
			pm_file_index_writer *w;
			pm_batch   *batch;
			uint8_t    *got;
			size_t		got_len;
			const uint8_t *want;
			size_t		want_len;
			uint8_t    *sidecar = NULL;

			ro.schema = schema->row_type;
			if (pm_format_reader_open(fm->format, pm_env_default(), io, fm->path, &ro, &r, &err) != PM_OK)
				fail_msg("%s: %s", fm->path, err.message);
			assert_int_equal(pm_file_index_writer_open(pm_env_default(), plan, &w, &err), PM_OK);
			for (;;)
			{
				if (pm_format_reader_next(r, &batch, &err) != PM_OK)
					fail_msg("%s: %s", fm->path, err.message);
				if (batch == NULL)
					break;
				if (pm_file_index_writer_write(w, batch, 0, &err) != PM_OK)
					fail_msg("%s: %s", fm->path, err.message);
			}
			pm_format_reader_close(r);
			if (pm_file_index_writer_serialize(w, arena, &got, &got_len, &err) != PM_OK)
				fail_msg("%s: %s", fm->path, err.message);
			pm_file_index_writer_free(w);
			if (fm->embedded_file_index != NULL)
			{
				want = fm->embedded_file_index;
				want_len = (size_t) fm->embedded_file_index_len;
				assert_true((int64_t) got_len <= plan->in_manifest_threshold);
			}
			else
			{
				assert_int_equal(fm->nextra_files, 1);
				if (pm_fileio_read_all(io, fm->extra_file_paths[0], arena, 1 << 26, &sidecar,
									   &want_len, &err) != PM_OK)
					fail_msg("%s", err.message);
				want = sidecar;
				assert_true((int64_t) got_len > plan->in_manifest_threshold);
			}
			assert_bytes_equal(fm->path, got, got_len, want, want_len);
			nfiles++;
		}
	}
	if (want_files >= 0)
		assert_int_equal(nfiles, want_files);
	else
		assert_true(nfiles > 0);
	pm_scan_free(scan);
	pm_table_close(table);
	pm_local_fileio_destroy(io);
	free(map);
}

static void
test_table_bitmap_v2_embedded(void **state)
{
	check_table("tables/parquet/append_with_bitmap.db/append_with_bitmap", 1);
}

static void
test_table_bitmap_v1(void **state)
{
	check_table("tables/parquet/append_with_bitmap_v1.db/append_with_bitmap_v1", 1);
}

static void
test_table_bitmap_sidecar(void **state)
{
	check_table("tables/parquet/append_with_bitmap_no_embedding.db/append_with_bitmap_no_embedding", 1);
}

static void
test_table_bloom_filter(void **state)
{
	check_table("tables/parquet/append_with_bloomfilter.db/append_with_bloomfilter", 1);
}

static void
test_table_range_bitmap(void **state)
{
	check_table("tables/parquet/append_with_rangebitmap.db/append_with_rangebitmap", 1);
}

static void
test_table_range_bitmap_multi_chunk(void **state)
{
	check_table("tables/parquet/append_with_rangebitmap_multi_chunk.db/append_with_rangebitmap_multi_chunk", 1);
}

/* bsi on INT, INT and TIMESTAMP(9) (micros), embedded */
static void
test_table_bsi(void **state)
{
	check_table("tables/parquet/append_with_bsi.db/append_with_bsi", 1);
}

/* ---- round trips through our readers ---- */

#define RT_ROWS 20000

static const pm_type t_double = {.id = PM_TYPE_DOUBLE, .nullable = true};
static const pm_type t_bigint = {.id = PM_TYPE_BIGINT, .nullable = true};
static const pm_type t_ts6 = {.id = PM_TYPE_TIMESTAMP, .nullable = true, .precision = 6};
static const pm_type t_bool = {.id = PM_TYPE_BOOLEAN, .nullable = true};

/* value of row r in each column; NULL every 13th row */
static bool
rt_null(int r, int c)
{
	return (r + c) % 13 == 0;
}

static void
rt_string(int r, char *buf)
{
	snprintf(buf, 32, "k%05d", (r * 7919) % 3001);
}

static double
rt_double(int r)
{
	static const double special[] = {0.0, -0.0, 1.5, -2.25};

	if (r % 97 == 0)
		return NAN;
	return r % 5 == 0 ? special[(r / 5) % 4] : (double) ((r * 31) % 777) / 4;
}

/*
 * Build a batch of RT_ROWS rows (s VARCHAR, i INT, d DOUBLE, b BIGINT, t
 * TIMESTAMP(6), f BOOLEAN), index it with every kind (small blocks and
 * chunks so that V2 has many blocks and range-bitmap many chunks), open
 * the container with our reader and check each index's answers against
 * the rows.
 */
static void
test_round_trip(void **state)
{
	pm_field	fields[] = {{1, "s", &t_varchar, NULL}, {2, "i", &t_int, NULL},
	{3, "d", &t_double, NULL}, {4, "b", &t_bigint, NULL}, {5, "t", &t_ts6, NULL},
	{6, "f", &t_bool, NULL}};
	pm_type		row = {.id = PM_TYPE_ROW, .nfields = 6, .fields = fields};
	pm_file_index_spec specs[] = {
		{.field = 0, .column = "s", .kind = PM_FILE_INDEX_BITMAP, .bitmap_version = 2, .block_size = 64},
		{.field = 0, .column = "s", .kind = PM_FILE_INDEX_RANGE_BITMAP, .chunk_size = 40},
		{.field = 0, .column = "s", .kind = PM_FILE_INDEX_BLOOM_FILTER, .items = 5000, .fpp = 0.01},
		{.field = 1, .column = "i", .kind = PM_FILE_INDEX_BITMAP, .bitmap_version = 1},
		{.field = 1, .column = "i", .kind = PM_FILE_INDEX_RANGE_BITMAP, .chunk_size = 16},
		{.field = 2, .column = "d", .kind = PM_FILE_INDEX_RANGE_BITMAP, .chunk_size = 64},
		{.field = 2, .column = "d", .kind = PM_FILE_INDEX_BITMAP, .bitmap_version = 2, .block_size = 16384},
		{.field = 3, .column = "b", .kind = PM_FILE_INDEX_BLOOM_FILTER, .items = 1000, .fpp = 0.05},
		{.field = 4, .column = "t", .kind = PM_FILE_INDEX_BITMAP, .bitmap_version = 2, .block_size = 16384},
		{.field = 5, .column = "f", .kind = PM_FILE_INDEX_RANGE_BITMAP, .chunk_size = 0},
	};
	pm_file_index_plan plan = {.row_type = &row, .nspecs = 10, .specs = specs,
	.in_manifest_threshold = 500};
	pm_vector	cols[6];
	pm_batch	batch = {.nrows = RT_ROWS, .ncols = 6, .cols = cols};
	pm_file_index_writer *w;
	pm_file_index *fi;
	uint8_t    *bytes;
	size_t		len;
	pm_error	err;
	char		buf[32];
	int64_t		data_cap = 0;

	assert_true(pm_file_index_plan_order(pm_env_default(), &plan, arena));
	assert_true(pm_vector_init(&cols[0], &t_varchar, RT_ROWS, true, arena));
	for (int c = 1; c < 6; c++)
		assert_true(pm_vector_init(&cols[c], fields[c].type, RT_ROWS, true, arena));
	for (int r = 0; r < RT_ROWS; r++)
	{
		rt_string(r, buf);
		cols[0].offsets[r] = (int32_t) cols[0].data_size;
		if (!rt_null(r, 0))
			assert_true(pm_vector_append_data(&cols[0], &data_cap, buf, (int64_t) strlen(buf), arena));
		cols[0].offsets[r + 1] = (int32_t) cols[0].data_size;
		PM_VEC_VALUES(&cols[1], int32_t)[r] = (r * 37) % 1000 - 500;
		PM_VEC_VALUES(&cols[2], double)[r] = rt_double(r);
		PM_VEC_VALUES(&cols[3], int64_t)[r] = (int64_t) r * 1000003;
		PM_VEC_VALUES(&cols[4], int64_t)[r] = INT64_C(1700000000000000) + (r % 50) * 1001;
		PM_VEC_VALUES(&cols[5], uint8_t)[r] = r % 3 == 0;
		for (int c = 0; c < 6; c++)
			cols[c].nulls[r] = rt_null(r, c);
	}
	for (int c = 0; c < 6; c++)
		cols[c].length = RT_ROWS;
	assert_int_equal(pm_file_index_writer_open(pm_env_default(), &plan, &w, &err), PM_OK);
	/* in two batches, as a writer feeds them */
	{
		pm_batch	half = batch;
		pm_vector	tail[6];

		half.nrows = RT_ROWS / 2;
		assert_int_equal(pm_file_index_writer_write(w, &half, 0, &err), PM_OK);
		for (int c = 0; c < 6; c++)
		{
			int64_t		h = RT_ROWS / 2;
			size_t		width = c == 1 ? 4 : c == 5 ? 1 : 8;

			tail[c] = cols[c];
			tail[c].nulls = cols[c].nulls + h;
			if (c == 0)
				tail[c].offsets = cols[c].offsets + h;
			else
				tail[c].values = (uint8_t *) cols[c].values + h * (int64_t) width;
		}
		half.cols = tail;
		assert_int_equal(pm_file_index_writer_write(w, &half, 0, &err), PM_OK);
	}
	assert_int_equal(pm_file_index_writer_serialize(w, arena, &bytes, &len, &err), PM_OK);
	pm_file_index_writer_free(w);
	if (pm_file_index_open(pm_env_default(), bytes, len, &fi, &err) != PM_OK)
		fail_msg("%s", err.message);
	assert_int_equal(pm_file_index_nentries(fi), 10);

	/* equality on every column, for values present and absent */
	for (int probe = 0; probe < 60; probe++)
	{
		int			r = (probe * 331) % RT_ROWS;

		for (int c = 0; c < 6; c++)
		{
			pm_value	lit;
			pm_predicate p = {.op = PM_PRED_EQ, .field = c, .nliterals = 1, .literals = &lit};
			pm_file_index_result res;
			int64_t		matches = 0;

			memset(&lit, 0, sizeof(lit));
			switch (c)
			{
				case 0:
					rt_string(r, buf);
					if (probe % 2 == 0)
						snprintf(buf, sizeof(buf), "z%d", probe);
					lit.u.bytes.ptr = (const uint8_t *) buf;
					lit.u.bytes.len = (int32_t) strlen(buf);
					break;
				case 1:
					lit.u.i64 = probe % 2 ? PM_VEC_VALUES(&cols[1], int32_t)[r] : 600 + probe;
					break;
				case 2:
					lit.u.f64 = rt_double(r);
					if (isnan(lit.u.f64))
						lit.u.f64 = 1.5;
					break;
				case 3:
					lit.u.i64 = probe % 2 ? PM_VEC_VALUES(&cols[3], int64_t)[r] : 7;
					break;
				case 4:
					lit.u.i64 = PM_VEC_VALUES(&cols[4], int64_t)[r] + (probe % 2 ? 0 : 1);
					break;
				case 5:
					lit.u.i64 = probe % 2;
					break;
			}
			if (pm_file_index_eval(fi, fields[c].name, fields[c].type, &p, &res, &err) != PM_OK)
				fail_msg("%s: %s", fields[c].name, err.message);
			for (int x = 0; x < RT_ROWS; x++)
			{
				bool		m;

				if (cols[c].nulls[x])
					continue;
				switch (c)
				{
					case 0:
						{
							int32_t		l;
							const uint8_t *q = pm_vector_bytes(&cols[0], x, &l);

							m = l == lit.u.bytes.len && memcmp(q, lit.u.bytes.ptr, (size_t) l) == 0;
							break;
						}
					case 1:
						m = PM_VEC_VALUES(&cols[1], int32_t)[x] == lit.u.i64;
						break;
					case 2:
						m = PM_VEC_VALUES(&cols[2], double)[x] == lit.u.f64;
						break;
					case 3:
					case 4:
						m = PM_VEC_VALUES(&cols[c], int64_t)[x] == lit.u.i64;
						break;
					default:
						m = PM_VEC_VALUES(&cols[5], uint8_t)[x] == lit.u.i64;
						break;
				}
				if (!m)
					continue;
				matches++;
				/* no index may drop a matching row */
				if (res.skip || (res.rows != NULL && !roaring_bitmap_contains(res.rows, (uint32_t) x)))
					fail_msg("%s = probe %d: row %d dropped", fields[c].name, probe, x);
			}
			/* bitmap and range-bitmap columns answer exactly */
			if (c != 3 && res.rows != NULL)
				assert_int_equal(roaring_bitmap_get_cardinality(res.rows), matches);
			if (c != 3 && matches == 0)
				assert_true(res.skip);
			pm_file_index_result_clear(&res);
		}
	}
	/* ranges through the range-bitmap of i and d */
	for (int v = -520; v <= 520; v += 40)
	{
		pm_value	lit = {.u.i64 = v};
		pm_predicate p = {.op = PM_PRED_LT, .field = 1, .nliterals = 1, .literals = &lit};
		pm_file_index_result res;
		int64_t		matches = 0;

		assert_int_equal(pm_file_index_eval(fi, "i", &t_int, &p, &res, &err), PM_OK);
		for (int x = 0; x < RT_ROWS; x++)
			if (!cols[1].nulls[x] && PM_VEC_VALUES(&cols[1], int32_t)[x] < v)
				matches++;
		if (matches == 0)
			assert_true(res.skip);
		else
			assert_int_equal(roaring_bitmap_get_cardinality(res.rows), matches);
		pm_file_index_result_clear(&res);
	}
	{
		pm_value	lit = {.u.f64 = 0.0};
		pm_predicate p = {.op = PM_PRED_LE, .field = 2, .nliterals = 1, .literals = &lit};
		pm_file_index_result res;
		int64_t		matches = 0;

		assert_int_equal(pm_file_index_eval(fi, "d", &t_double, &p, &res, &err), PM_OK);
		for (int x = 0; x < RT_ROWS; x++)
			if (!cols[2].nulls[x] && PM_VEC_VALUES(&cols[2], double)[x] <= 0.0)
				matches++;
		assert_non_null(res.rows);
		assert_int_equal(roaring_bitmap_get_cardinality(res.rows), matches);
		pm_file_index_result_clear(&res);
	}
	pm_file_index_free(fi);
}

/*
 * bsi on DECIMAL(20, 2): Java maps each value to its unscaled long, so the
 * container equals that of a BIGINT column of the unscaled values; a value
 * beyond a long fails the write (Decimal.toUnscaledLong's longValueExact).
 */
static void
test_bsi_big_decimal(void **state)
{
	static const pm_type t_dec20 = {.id = PM_TYPE_DECIMAL, .nullable = true, .precision = 20,
	.scale = 2};
	uint8_t    *bytes[2];
	size_t		len[2];
	pm_error	err;

	(void) state;
	for (int k = 0; k < 3; k++)
	{
		pm_field	fields[] = {{1, "w", k == 1 ? &t_bigint : &t_dec20, NULL}};
		pm_type		row = {.id = PM_TYPE_ROW, .nfields = 1, .fields = fields};
		pm_file_index_spec spec = {.field = 0, .column = "w", .kind = PM_FILE_INDEX_BSI};
		pm_file_index_plan plan = {.row_type = &row, .nspecs = 1, .specs = &spec,
		.in_manifest_threshold = 500};
		pm_vector	col;
		pm_batch	batch = {.nrows = 500, .ncols = 1, .cols = &col};
		pm_file_index_writer *w;

		assert_true(pm_file_index_plan_order(pm_env_default(), &plan, arena));
		assert_true(pm_vector_init(&col, fields[0].type, 500, true, arena));
		col.length = 500;
		for (int r = 0; r < 500; r++)
		{
			int64_t		v = (int64_t) (r - 250) * INT64_C(36028797018963);

			col.nulls[r] = r % 17 == 0;
			if (k == 1)
				PM_VEC_VALUES(&col, int64_t)[r] = v;
			else
				PM_VEC_VALUES(&col, pm_int128)[r] = k == 2 && r == 321 ?
					(pm_int128) INT64_MAX + 1 : (pm_int128) v;
		}
		assert_int_equal(pm_file_index_writer_open(pm_env_default(), &plan, &w, &err), PM_OK);
		if (k == 2)
		{
			pm_code		rc = pm_file_index_writer_write(w, &batch, 0, &err);

			if (rc == PM_OK)
				rc = pm_file_index_writer_serialize(w, arena, &bytes[0], &len[0], &err);
			assert_int_equal(rc, PM_ERR_INVALID);
			assert_non_null(strstr(err.message, "out of long range"));
			pm_file_index_writer_free(w);
			break;
		}
		assert_int_equal(pm_file_index_writer_write(w, &batch, 0, &err), PM_OK);
		assert_int_equal(pm_file_index_writer_serialize(w, arena, &bytes[k], &len[k], &err), PM_OK);
		pm_file_index_writer_free(w);
	}
	assert_true(len[0] > 100);
	assert_int_equal(len[0], len[1]);
	assert_memory_equal(bytes[0], bytes[1], len[0]);
}

/* ---- options: what Java rejects, and the kinds not written ---- */

static pm_code
plan_of(const char *const *kv, int n, const pm_file_index_plan **plan, pm_error *err)
{
	static const pm_type t_dec20 = {.id = PM_TYPE_DECIMAL, .nullable = true, .precision = 20,
	.scale = 2};
	static pm_field fields[] = {{1, "a", &t_int, NULL}, {2, "s", &t_varchar, NULL},
	{3, "b", &t_bool, NULL}, {4, "w", &t_dec20, NULL}};
	static const pm_type row = {.id = PM_TYPE_ROW, .nfields = 4, .fields = fields};
	pm_schema	schema = {.row_type = &row, .noptions = n};
	const char **keys = pm_arena_alloc(arena, sizeof(char *) * (size_t) n);
	const char **values = pm_arena_alloc(arena, sizeof(char *) * (size_t) n);

	for (int i = 0; i < n; i++)
	{
		keys[i] = kv[2 * i];
		values[i] = kv[2 * i + 1];
	}
	schema.option_keys = keys;
	schema.option_values = values;
	return pm_file_index_plan_of_schema(&schema, arena, plan, err);
}

static void
expect_plan_error(const char *const *kv, int n, pm_code code, const char *text)
{
	const pm_file_index_plan *plan;
	pm_error	err;

	assert_int_equal(plan_of(kv, n, &plan, &err), code);
	if (strstr(err.message, text) == NULL)
		fail_msg("\"%s\" does not say \"%s\"", err.message, text);
}

static void
test_options(void **state)
{
	const pm_file_index_plan *plan;
	pm_error	err;

	/* no index asked for */
	assert_int_equal(plan_of((const char *[]) {"file-index.in-manifest-threshold", "1 kb"}, 1,
							 &plan, &err), PM_OK);
	assert_null(plan);
	/* options and the threshold */
	assert_int_equal(plan_of((const char *[]) {"file-index.bitmap.columns", " a , s",
		"file-index.bitmap.a.version", "1", "file-index.bloom-filter.columns", "s",
		"file-index.bloom-filter.s.items", "100", "file-index.bloom-filter.s.fpp", "0.05",
		"file-index.in-manifest-threshold", "2kb", "file-index.read.enabled", "true",
	"file-index.range-bitmap.columns", "b"}, 8, &plan, &err), PM_OK);
	assert_non_null(plan);
	assert_int_equal(plan->nspecs, 4);
	assert_int_equal(plan->in_manifest_threshold, 2048);
	for (int i = 0; i < plan->nspecs; i++)
	{
		const pm_file_index_spec *s = &plan->specs[i];

		if (s->kind == PM_FILE_INDEX_BITMAP)
			assert_int_equal(s->bitmap_version, strcmp(s->column, "a") == 0 ? 1 : 2);
		if (s->kind == PM_FILE_INDEX_BLOOM_FILTER)
		{
			assert_int_equal(s->items, 100);
			assert_true(s->fpp == 0.05);
		}
		if (s->kind == PM_FILE_INDEX_RANGE_BITMAP)
			assert_int_equal(s->chunk_size, 0);	/* BOOLEAN: 0b */
	}
	assert_int_equal(plan_of((const char *[]) {"file-index.bsi.columns", "a"}, 1, &plan, &err), PM_OK);
	assert_int_equal(plan->nspecs, 1);
	assert_int_equal(plan->specs[0].kind, PM_FILE_INDEX_BSI);
	expect_plan_error((const char *[]) {"file-index.bsi.columns", "s"}, 1, PM_ERR_INVALID,
					  "does not support the type of column s");
	/* bsi: any DECIMAL (toUnscaledLong); range-bitmap: Java's precision check */
	assert_int_equal(plan_of((const char *[]) {"file-index.bsi.columns", "w"}, 1, &plan, &err), PM_OK);
	assert_int_equal(plan->specs[0].kind, PM_FILE_INDEX_BSI);
	expect_plan_error((const char *[]) {"file-index.range-bitmap.columns", "w"}, 1, PM_ERR_INVALID,
					  "The range-bitmap index only supports DECIMAL with a precision in [0, 18].");
	expect_plan_error((const char *[]) {"file-index.bitmap.columns", "w"}, 1, PM_ERR_INVALID,
					  "does not support the type of column w");
	expect_plan_error((const char *[]) {"file-index.bitmap.columns", "s[k]"}, 1, PM_ERR_UNSUPPORTED,
					  "map keys");
	expect_plan_error((const char *[]) {"file-index.btree.columns", "a"}, 1, PM_ERR_INVALID,
					  "no file index kind \"btree\"");
	expect_plan_error((const char *[]) {"file-index.bitmap.columns", "a,,s"}, 1, PM_ERR_INVALID,
					  "empty column");
	expect_plan_error((const char *[]) {"file-index.bitmap.columns", "zz"}, 1, PM_ERR_INVALID,
					  "zz does not exist");
	expect_plan_error((const char *[]) {"file-index.bloom-filter.columns", "b"}, 1, PM_ERR_INVALID,
					  "does not support the type of column b");
	expect_plan_error((const char *[]) {"file-index.bitmap.columns", "a",
	"file-index.bitmap.s.version", "1"}, 2, PM_ERR_INVALID, "column \"s\" is not in file-index.bitmap.columns");
	expect_plan_error((const char *[]) {"file-index.bitmap.columns", "a",
	"file-index.bitmap.a.version", "3"}, 2, PM_ERR_INVALID, "file-index.bitmap.a.version");
	expect_plan_error((const char *[]) {"file-index.bloom-filter.columns", "a",
	"file-index.bloom-filter.a.fpp", "x"}, 2, PM_ERR_INVALID, "not a number");
}

/* KeyValue files: the value columns (read by name) are what Java indexes */
static void
test_table_pk_bitmap_sidecar(void **state)
{
	check_table("tables/parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv", -1);
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
		cmocka_unit_test(test_roaring),
		cmocka_unit_test(test_range_bitmap_vector),
		cmocka_unit_test(test_table_bitmap_v2_embedded),
		cmocka_unit_test(test_table_bitmap_v1),
		cmocka_unit_test(test_table_bitmap_sidecar),
		cmocka_unit_test(test_table_bloom_filter),
		cmocka_unit_test(test_table_range_bitmap),
		cmocka_unit_test(test_table_range_bitmap_multi_chunk),
		cmocka_unit_test(test_table_pk_bitmap_sidecar),
		cmocka_unit_test(test_table_bsi),
		cmocka_unit_test(test_bsi_big_decimal),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_options),
	};

	(void) t_varchar;
	return cmocka_run_group_tests(tests, setup, teardown);
}
