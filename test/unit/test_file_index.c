/*-------------------------------------------------------------------------
 * test_file_index.c
 *	  Unit tests of src/index/file_index.c, bitmap_index.c and
 *	  bloom_filter_index.c: the Java-written bitmap index blobs of the
 *	  corpus, the index containers of the corpus tables (embedded in the
 *	  manifest and in .index sidecars), hand-built containers, bitmaps and
 *	  bloom filters, and corrupt bytes.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include <roaring/roaring.h>

#include "common/arena.h"
#include "common/meta_cache.h"
#include "index/bitmap_index.h"
#include "index/bloom_filter_index.h"
#include "index/file_index.h"
#include "io/fileio.h"
#include "table/split.h"
#include "table/table.h"

static const pm_type t_varchar = {.id = PM_TYPE_VARCHAR, .nullable = true, .length = PM_MAX_VARCHAR_LENGTH};
static const pm_type t_char = {.id = PM_TYPE_CHAR, .nullable = true, .length = 5};
static const pm_type t_int = {.id = PM_TYPE_INT, .nullable = true};
static const pm_type t_bigint = {.id = PM_TYPE_BIGINT, .nullable = true};
static const pm_type t_double = {.id = PM_TYPE_DOUBLE, .nullable = true};
static const pm_type t_float = {.id = PM_TYPE_FLOAT, .nullable = true};
static const pm_type t_ts3 = {.id = PM_TYPE_TIMESTAMP, .nullable = true, .precision = 3};
static const pm_type t_ts9 = {.id = PM_TYPE_TIMESTAMP, .nullable = true, .precision = 9};
static const pm_type t_decimal = {.id = PM_TYPE_DECIMAL, .nullable = true, .precision = 10, .scale = 2};

/* ---- building leaves ---- */

static pm_value lits[8];

static pm_predicate
leaf(pm_pred_op op, int n)
{
	pm_predicate p = {.op = op, .field = 0, .nliterals = n, .literals = lits};

	return p;
}

static void
str_lit(int i, const char *s)
{
	memset(&lits[i], 0, sizeof(pm_value));
	lits[i].u.bytes.ptr = (const uint8_t *) s;
	lits[i].u.bytes.len = (int32_t) strlen(s);
}

static void
int_lit(int i, int64_t v)
{
	memset(&lits[i], 0, sizeof(pm_value));
	lits[i].u.i64 = v;
}

static void
dbl_lit(int i, double v)
{
	memset(&lits[i], 0, sizeof(pm_value));
	lits[i].u.f64 = v;
}

/* ---- checking results ---- */

/* rows must be exactly want[0..n) (n = 0: skip) */
static void
assert_rows(const pm_file_index_result *r, const uint32_t *want, int n, const char *what)
{
	if (n == 0)
	{
		if (!r->skip || r->rows != NULL)
			fail_msg("%s: expected skip", what);
		return;
	}
	if (r->skip || r->rows == NULL)
		fail_msg("%s: expected %d rows, got %s", what, n, r->skip ? "skip" : "no information");
	if (roaring_bitmap_get_cardinality(r->rows) != (uint64_t) n)
		fail_msg("%s: expected %d rows, got %llu", what, n,
				 (unsigned long long) roaring_bitmap_get_cardinality(r->rows));
	for (int i = 0; i < n; i++)
		if (!roaring_bitmap_contains(r->rows, want[i]))
			fail_msg("%s: row %u missing", what, want[i]);
}

static void
assert_no_info(const pm_file_index_result *r, const char *what)
{
	if (r->skip || r->rows != NULL)
		fail_msg("%s: expected no information", what);
}

/* ---- the Java-written bitmap blobs (vectors/README.md) ---- */

static uint8_t *
slurp(const char *rel, size_t *len)
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

static const uint32_t rows_2500[] = {3127, 18654, 23615, 43768, 62555, 63261, 66284, 74708, 99268};
static const uint32_t rows_5000[] = {2269, 21292, 23667, 35066, 42377, 46085, 64811, 79062, 96161};
static const uint32_t rows_7500[] = {14856, 50768, 60230, 68792, 72208, 73800, 78261, 81346, 86520,
87420, 88501, 95131, 99401};

static void
check_vector_blob(const char *rel, int version)
{
	size_t		len;
	uint8_t    *buf;
	pm_bitmap_index *idx;
	pm_file_index_result r;
	pm_predicate p;
	pm_error	err;
	uint32_t	both[9 + 13];
	uint64_t	nnull,
				nnotnull;

	unit_require_corpus();
	buf = slurp(rel, &len);
	assert_int_equal(buf[0], version);
	if (pm_bitmap_index_open(pm_env_default(), buf, len, &t_varchar, &idx, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	assert_int_equal(pm_bitmap_index_row_count(idx), 100000);

	p = leaf(PM_PRED_EQ, 1);
	str_lit(0, "asdfghjkl123_2500");
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_rows(&r, rows_2500, 9, "= _2500");
	pm_file_index_result_clear(&r);
	str_lit(0, "asdfghjkl123_5000");
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_rows(&r, rows_5000, 9, "= _5000");
	pm_file_index_result_clear(&r);
	str_lit(0, "asdfghjkl123_7500");
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_rows(&r, rows_7500, 13, "= _7500");
	pm_file_index_result_clear(&r);
	str_lit(0, "no such value");
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_rows(&r, NULL, 0, "= absent");

	/* IN = union */
	p = leaf(PM_PRED_IN, 3);
	str_lit(0, "asdfghjkl123_2500");
	str_lit(1, "nope");
	str_lit(2, "asdfghjkl123_7500");
	memcpy(both, rows_2500, sizeof(rows_2500));
	memcpy(both + 9, rows_7500, sizeof(rows_7500));
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_rows(&r, both, 22, "IN");
	pm_file_index_result_clear(&r);

	/* NE = complement within the row count */
	p = leaf(PM_PRED_NE, 1);
	str_lit(0, "asdfghjkl123_2500");
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_non_null(r.rows);
	assert_int_equal(roaring_bitmap_get_cardinality(r.rows), 100000 - 9);
	assert_false(roaring_bitmap_contains(r.rows, 3127));
	assert_true(roaring_bitmap_contains(r.rows, 3128));
	assert_int_equal(roaring_bitmap_maximum(r.rows), 99999);
	pm_file_index_result_clear(&r);

	/* IS NULL and IS NOT NULL partition the rows */
	p = leaf(PM_PRED_IS_NULL, 0);
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_false(!r.skip && r.rows == NULL);
	nnull = r.rows ? roaring_bitmap_get_cardinality(r.rows) : 0;
	pm_file_index_result_clear(&r);
	p = leaf(PM_PRED_IS_NOT_NULL, 0);
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	nnotnull = r.rows ? roaring_bitmap_get_cardinality(r.rows) : 0;
	assert_int_equal(nnull + nnotnull, 100000);
	pm_file_index_result_clear(&r);

	/* ranges: no information */
	p = leaf(PM_PRED_LT, 1);
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_no_info(&r, "LT");
	pm_bitmap_index_free(idx);

	/* every truncation is refused or answers, never crashes (ASan) */
	for (size_t cut = 0; cut < len; cut += (cut < 4096 ? 1 : 997))
	{
		pm_predicate q = leaf(PM_PRED_EQ, 1);

		str_lit(0, "asdfghjkl123_7500");
		if (pm_bitmap_index_open(pm_env_default(), buf, cut, &t_varchar, &idx, &err) == PM_OK)
		{
			if (pm_bitmap_index_eval(idx, &q, &r, &err) == PM_OK)
				pm_file_index_result_clear(&r);
			pm_bitmap_index_free(idx);
		}
	}
	free(buf);
}

static void
test_vector_bitmap_v1(void **state)
{
	check_vector_blob("vectors/file_index/bitmap-index-v1", 1);
}

static void
test_vector_bitmap_v2(void **state)
{
	check_vector_blob("vectors/file_index/bitmap-index-v2", 2);
}

/* ---- the corpus tables: index bytes found through the manifest ---- */

typedef struct table_index
{
	pm_arena   *arena;
	pm_table   *table;
	pm_scan    *scan;
	pm_fileio  *io;
	int			nfiles;
	const pm_data_file_meta *files[8];
	pm_file_index *fi[8];
} table_index;

/* Open the table's latest snapshot and every file's index container. */
static void
open_table_index(const char *rel, table_index *ti, bool want_embedded)
{
	pm_table_open_options opts = {0};
	pm_error	err;

	unit_require_corpus();
	memset(ti, 0, sizeof(*ti));
	ti->io = pm_local_fileio_create(pm_env_default());
	ti->arena = pm_arena_create(pm_env_default());
	if (pm_table_open(pm_env_default(), ti->io, unit_corpus_path(rel), &opts, &ti->table, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	if (pm_table_scan_plan(ti->table, NULL, &ti->scan, &err) != PM_OK)
		fail_msg("%s: plan: %s", rel, err.message);
	for (int s = 0; s < pm_scan_split_count(ti->scan); s++)
	{
		const pm_split *sp = pm_scan_get_split(ti->scan, s);

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *fm = sp->files[f];
			const uint8_t *bytes = NULL;
			size_t		len = 0;

			assert_true(ti->nfiles < 8);
			if (fm->embedded_file_index != NULL)
			{
				assert_true(want_embedded);
				bytes = fm->embedded_file_index;
				len = (size_t) fm->embedded_file_index_len;
			}
			else
			{
				uint8_t    *data;

				assert_false(want_embedded);
				assert_int_equal(fm->nextra_files, 1);
				assert_non_null(strstr(fm->extra_files[0], ".index"));
				if (pm_fileio_read_all(ti->io, fm->extra_file_paths[0], ti->arena, 1 << 26,
									   &data, &len, &err) != PM_OK)
					fail_msg("%s: %s", fm->extra_file_paths[0], err.message);
				bytes = data;
			}
			if (pm_file_index_open(pm_env_default(), bytes, len, &ti->fi[ti->nfiles], &err) != PM_OK)
				fail_msg("%s: %s", rel, err.message);
			ti->files[ti->nfiles++] = fm;
		}
	}
	assert_true(ti->nfiles > 0);
}

static void
close_table_index(table_index *ti)
{
	for (int i = 0; i < ti->nfiles; i++)
		pm_file_index_free(ti->fi[i]);
	pm_scan_free(ti->scan);
	pm_table_close(ti->table);
	pm_arena_destroy(ti->arena);
	pm_local_fileio_destroy(ti->io);
}

static void
eval_col(pm_file_index *fi, const char *col, const pm_type *t, pm_predicate *p,
		 pm_file_index_result *r)
{
	pm_error	err;

	if (pm_file_index_eval(fi, col, t, p, r, &err) != PM_OK)
		fail_msg("%s: %s", col, err.message);
}

/*
 * append_with_bitmap*: one file of 8 rows
 *	 f0: Alice Bob Emily Tony Lucy Bob Tony Alice
 *	 f1: 10 10 10 10 20 10 20 20
 *	 f2: 1 1 0 0 1 1 0 NULL
 */
static void
check_append_bitmap(const char *rel, bool embedded, int version)
{
	table_index ti;
	pm_file_index *fi;
	pm_file_index_result r;
	pm_predicate p;
	int			seen = 0;

	open_table_index(rel, &ti, embedded);
	assert_int_equal(ti.nfiles, 1);
	fi = ti.fi[0];
	assert_int_equal(pm_file_index_nentries(fi), 3);
	for (int i = 0; i < 3; i++)
	{
		const pm_file_index_entry *e = pm_file_index_entry_at(fi, i);

		assert_string_equal(e->kind, "bitmap");
		assert_false(e->empty);
		assert_int_equal(e->body[0], version);
		seen |= 1 << (e->column[1] - '0');
	}
	assert_int_equal(seen, 7);

	p = leaf(PM_PRED_EQ, 1);
	str_lit(0, "Bob");
	eval_col(fi, "f0", &t_varchar, &p, &r);
	assert_rows(&r, (uint32_t[]) {1, 5}, 2, "f0 = Bob");
	pm_file_index_result_clear(&r);
	str_lit(0, "Alice");
	eval_col(fi, "f0", &t_varchar, &p, &r);
	assert_rows(&r, (uint32_t[]) {0, 7}, 2, "f0 = Alice");
	pm_file_index_result_clear(&r);
	str_lit(0, "Zed");
	eval_col(fi, "f0", &t_varchar, &p, &r);
	assert_rows(&r, NULL, 0, "f0 = Zed");
	/* CHAR: Postgres ignores trailing spaces, so no information */
	str_lit(0, "Bob");
	eval_col(fi, "f0", &t_char, &p, &r);
	assert_no_info(&r, "f0 CHAR = Bob");
	int_lit(0, 20);
	eval_col(fi, "f1", &t_int, &p, &r);
	assert_rows(&r, (uint32_t[]) {4, 6, 7}, 3, "f1 = 20");
	pm_file_index_result_clear(&r);
	int_lit(0, 0);
	eval_col(fi, "f2", &t_int, &p, &r);
	assert_rows(&r, (uint32_t[]) {2, 3, 6}, 3, "f2 = 0");
	pm_file_index_result_clear(&r);
	int_lit(0, 30);
	eval_col(fi, "f1", &t_int, &p, &r);
	assert_rows(&r, NULL, 0, "f1 = 30");
	/* no index on f3; unknown column */
	dbl_lit(0, 11.1);
	eval_col(fi, "f3", &t_double, &p, &r);
	assert_no_info(&r, "f3 = 11.1");

	p = leaf(PM_PRED_IN, 2);
	str_lit(0, "Lucy");
	str_lit(1, "Bob");
	eval_col(fi, "f0", &t_varchar, &p, &r);
	assert_rows(&r, (uint32_t[]) {1, 4, 5}, 3, "f0 IN (Lucy, Bob)");
	pm_file_index_result_clear(&r);

	p = leaf(PM_PRED_NE, 1);
	int_lit(0, 10);
	eval_col(fi, "f1", &t_int, &p, &r);
	assert_rows(&r, (uint32_t[]) {4, 6, 7}, 3, "f1 <> 10");
	pm_file_index_result_clear(&r);

	p = leaf(PM_PRED_IS_NULL, 0);
	eval_col(fi, "f2", &t_int, &p, &r);
	assert_rows(&r, (uint32_t[]) {7}, 1, "f2 IS NULL");
	pm_file_index_result_clear(&r);
	eval_col(fi, "f1", &t_int, &p, &r);
	assert_rows(&r, NULL, 0, "f1 IS NULL");
	p = leaf(PM_PRED_IS_NOT_NULL, 0);
	eval_col(fi, "f2", &t_int, &p, &r);
	assert_rows(&r, (uint32_t[]) {0, 1, 2, 3, 4, 5, 6}, 7, "f2 IS NOT NULL");
	pm_file_index_result_clear(&r);

	p = leaf(PM_PRED_GT, 1);
	int_lit(0, 10);
	eval_col(fi, "f1", &t_int, &p, &r);
	assert_no_info(&r, "f1 > 10");
	close_table_index(&ti);
}

static void
test_table_bitmap_v2_embedded(void **state)
{
	check_append_bitmap("tables/parquet/append_with_bitmap.db/append_with_bitmap", true, 2);
}

static void
test_table_bitmap_v1_embedded(void **state)
{
	check_append_bitmap("tables/parquet/append_with_bitmap_v1.db/append_with_bitmap_v1", true, 1);
}

static void
test_table_bitmap_sidecar(void **state)
{
	check_append_bitmap("tables/parquet/append_with_bitmap_no_embedding.db/append_with_bitmap_no_embedding",
						false, 2);
}

/*
 * pk_with_bitmap_dv: the index of a primary-key file covers its rows in
 * file order (sorted by key): keys 0..7 are f0 Alice Bob Emily Tony Lucy
 * Bob Tony Alice. Every file with 8 rows answers like the append table;
 * the file that holds the deletes of keys 0 and 4 holds 2 rows.
 */
static void
test_table_pk_bitmap_dv(void **state)
{
	table_index ti;
	pm_file_index_result r;
	pm_predicate p = leaf(PM_PRED_EQ, 1);
	int			nfull = 0;

	open_table_index("tables/parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv", &ti, false);
	for (int i = 0; i < ti.nfiles; i++)
	{
		if (ti.files[i]->row_count != 8)
			continue;
		nfull++;
		str_lit(0, "Alice");
		eval_col(ti.fi[i], "f0", &t_varchar, &p, &r);
		assert_rows(&r, (uint32_t[]) {0, 7}, 2, "pk f0 = Alice");
		pm_file_index_result_clear(&r);
		int_lit(0, 20);
		eval_col(ti.fi[i], "f1", &t_int, &p, &r);
		assert_rows(&r, (uint32_t[]) {4, 6, 7}, 3, "pk f1 = 20");
		pm_file_index_result_clear(&r);
		str_lit(0, "Zed");
		eval_col(ti.fi[i], "f0", &t_varchar, &p, &r);
		assert_rows(&r, NULL, 0, "pk f0 = Zed");
	}
	assert_int_equal(nfull, 1);
	close_table_index(&ti);
}

/* ---- bloom filter ---- */

static void
test_bloom_hashes(void **state)
{
	assert_true(pm_bloom_xxh64((const uint8_t *) "Alice", 5) == UINT64_C(0xd4a957e0cf31160b));
	/* XXH64 reference values (xxhsum -H64, seed 0) */
	assert_true(pm_bloom_xxh64((const uint8_t *) "", 0) == UINT64_C(0xef46db3751d8e999));
	assert_true((uint64_t) pm_bloom_wang64(100) == UINT64_C(0xdb216d4eb642d87e));
}

static void
bloom_expect(pm_file_index *fi, const char *col, const pm_type *t, pm_predicate *p, bool skip,
			 const char *what)
{
	pm_file_index_result r;

	eval_col(fi, col, t, p, &r);
	assert_null(r.rows);
	if (r.skip != skip)
		fail_msg("%s: expected %s", what, skip ? "skip" : "no information");
}

static void
test_table_bloom(void **state)
{
	table_index ti;
	pm_file_index *fi;
	pm_predicate p = leaf(PM_PRED_EQ, 1);

	open_table_index("tables/parquet/append_with_bloomfilter.db/append_with_bloomfilter", &ti, false);
	assert_int_equal(ti.nfiles, 1);
	fi = ti.fi[0];
	assert_int_equal(pm_file_index_nentries(fi), 5);
	for (int i = 0; i < 5; i++)
	{
		assert_string_equal(pm_file_index_entry_at(fi, i)->kind, "bloom-filter");
		assert_int_equal(pm_file_index_entry_at(fi, i)->len, 599071);
	}

	for (int i = 0; i < 5; i++)
	{
		static const char *const present[] = {"Alice", "Bob", "Emily", "Tony", "Lucy"};

		str_lit(0, present[i]);
		bloom_expect(fi, "f0", &t_varchar, &p, false, present[i]);
	}
	str_lit(0, "Zed");
	bloom_expect(fi, "f0", &t_varchar, &p, true, "f0 = Zed");
	str_lit(0, "Carol");
	bloom_expect(fi, "f0", &t_varchar, &p, true, "f0 = Carol");
	str_lit(0, "Alice");
	bloom_expect(fi, "f0", &t_char, &p, false, "CHAR: no information");

	int_lit(0, 100);
	bloom_expect(fi, "f1", &t_int, &p, false, "f1 = 100");
	int_lit(0, 7);
	bloom_expect(fi, "f1", &t_int, &p, true, "f1 = 7");
	int_lit(0, 999);
	bloom_expect(fi, "f1", &t_int, &p, true, "f1 = 999");
	int_lit(0, -3);
	bloom_expect(fi, "f2", &t_int, &p, false, "f2 = -3");
	dbl_lit(0, 11.1);
	bloom_expect(fi, "f3", &t_double, &p, false, "f3 = 11.1");
	dbl_lit(0, 19.5);
	bloom_expect(fi, "f3", &t_double, &p, true, "f3 = 19.5");
	int_lit(0, INT64_C(1745542802000123));
	bloom_expect(fi, "f4", &t_ts9, &p, false, "f4 = ...123 us");
	int_lit(0, INT64_C(1745542802000124));
	bloom_expect(fi, "f4", &t_ts9, &p, true, "f4 = ...124 us");
	int_lit(0, -1744877);	/* -1744877000 ns */
	bloom_expect(fi, "f4", &t_ts9, &p, false, "f4 negative");

	/* absent values are mostly skipped: fpp 0.1 at 8 of 1e6 items is ~0 */
	{
		int			skipped = 0;

		for (int v = 1000; v < 2000; v++)
		{
			pm_file_index_result r;

			int_lit(0, v);
			eval_col(fi, "f1", &t_int, &p, &r);
			skipped += r.skip;
		}
		assert_true(skipped >= 990);
	}

	p = leaf(PM_PRED_IN, 2);
	str_lit(0, "Zed");
	str_lit(1, "Bob");
	bloom_expect(fi, "f0", &t_varchar, &p, false, "IN (Zed, Bob)");
	str_lit(1, "Carol");
	bloom_expect(fi, "f0", &t_varchar, &p, true, "IN (Zed, Carol)");
	p = leaf(PM_PRED_IS_NULL, 0);
	bloom_expect(fi, "f2", &t_int, &p, false, "IS NULL");
	p = leaf(PM_PRED_LT, 1);
	int_lit(0, 0);
	bloom_expect(fi, "f1", &t_int, &p, false, "LT");
	close_table_index(&ti);
}

/* Java's BloomFilter64.addHash, to build synthetic filters */
static void
bloom_add(uint8_t *bits, int32_t nbits, int k, uint64_t h)
{
	int32_t		h1 = (int32_t) (uint32_t) h,
				h2 = (int32_t) (uint32_t) (h >> 32);

	for (int i = 1; i <= k; i++)
	{
		int32_t		c = (int32_t) ((uint32_t) h1 + (uint32_t) i * (uint32_t) h2);

		if (c < 0)
			c = ~c;
		bits[(c % nbits) >> 3] |= (uint8_t) (1u << ((c % nbits) & 7));
	}
}

static void
test_bloom_synthetic(void **state)
{
	/* (100, 0.05): 624 bits, k = 4 */
	uint8_t		buf[4 + 78] = {0, 0, 0, 4};
	pm_bloom_filter_index *idx;
	pm_file_index_result r;
	pm_predicate p = leaf(PM_PRED_EQ, 1);
	pm_error	err;
	int			false_pos = 0;
	double		negzero = -0.0;
	int64_t		nz;
	float		f = 2.5f;
	int32_t		fbits;

	for (int v = 0; v < 100; v++)
		bloom_add(buf + 4, 624, 4, (uint64_t) pm_bloom_wang64(v * 7));
	assert_int_equal(pm_bloom_filter_index_open(pm_env_default(), buf, sizeof(buf), &t_bigint, &idx, &err), PM_OK);
	for (int v = 0; v < 700; v++)
	{
		int_lit(0, v);
		assert_int_equal(pm_bloom_filter_index_eval(idx, &p, &r, &err), PM_OK);
		if (v % 7 == 0)
			assert_false(r.skip);	/* never a false negative */
		else
			false_pos += !r.skip;
	}
	assert_true(false_pos < 600 * 0.15);
	assert_true(false_pos > 0);
	pm_bloom_filter_index_free(idx);

	/* a DOUBLE -0.0 stored answers = 0 (Postgres: -0 = 0) */
	memset(buf + 4, 0, 78);
	memcpy(&nz, &negzero, 8);
	bloom_add(buf + 4, 624, 4, (uint64_t) pm_bloom_wang64(nz));
	memcpy(&fbits, &f, 4);
	assert_int_equal(pm_bloom_filter_index_open(pm_env_default(), buf, sizeof(buf), &t_double, &idx, &err), PM_OK);
	dbl_lit(0, 0.0);
	assert_int_equal(pm_bloom_filter_index_eval(idx, &p, &r, &err), PM_OK);
	assert_false(r.skip);
	dbl_lit(0, 1.0);
	assert_int_equal(pm_bloom_filter_index_eval(idx, &p, &r, &err), PM_OK);
	assert_true(r.skip);
	pm_bloom_filter_index_free(idx);

	/* FLOAT hashes floatToIntBits widened; TIMESTAMP(3) hashes millis */
	memset(buf + 4, 0, 78);
	bloom_add(buf + 4, 624, 4, (uint64_t) pm_bloom_wang64(fbits));
	assert_int_equal(pm_bloom_filter_index_open(pm_env_default(), buf, sizeof(buf), &t_float, &idx, &err), PM_OK);
	dbl_lit(0, 2.5);
	assert_int_equal(pm_bloom_filter_index_eval(idx, &p, &r, &err), PM_OK);
	assert_false(r.skip);
	pm_bloom_filter_index_free(idx);
	memset(buf + 4, 0, 78);
	bloom_add(buf + 4, 624, 4, (uint64_t) pm_bloom_wang64(-1500));
	assert_int_equal(pm_bloom_filter_index_open(pm_env_default(), buf, sizeof(buf), &t_ts3, &idx, &err), PM_OK);
	int_lit(0, -1500000);
	assert_int_equal(pm_bloom_filter_index_eval(idx, &p, &r, &err), PM_OK);
	assert_false(r.skip);
	int_lit(0, -1500001);		/* not a whole millisecond: no TIMESTAMP(3) equals it */
	assert_int_equal(pm_bloom_filter_index_eval(idx, &p, &r, &err), PM_OK);
	assert_true(r.skip);
	pm_bloom_filter_index_free(idx);

	/* types Java does not hash: no information */
	assert_int_equal(pm_bloom_filter_index_open(pm_env_default(), buf, sizeof(buf), &t_decimal, &idx, &err), PM_OK);
	assert_int_equal(pm_bloom_filter_index_eval(idx, &p, &r, &err), PM_OK);
	assert_no_info(&r, "DECIMAL");
	pm_bloom_filter_index_free(idx);

	/* corrupt: too short, absurd hash count */
	assert_int_equal(pm_bloom_filter_index_open(pm_env_default(), buf, 4, &t_int, &idx, &err), PM_ERR_CORRUPT);
	buf[1] = 1;
	assert_int_equal(pm_bloom_filter_index_open(pm_env_default(), buf, sizeof(buf), &t_int, &idx, &err), PM_ERR_CORRUPT);
}

/* ---- hand-built containers and bitmap bodies ---- */

typedef struct wbuf
{
	uint8_t		b[4096];
	size_t		n;
} wbuf;

static void
w8(wbuf *w, int v)
{
	w->b[w->n++] = (uint8_t) v;
}

static void
w32(wbuf *w, int64_t v)
{
	for (int s = 24; s >= 0; s -= 8)
		w8(w, (int) ((uint32_t) v >> s));
}

static void
w64(wbuf *w, int64_t v)
{
	w32(w, (int64_t) ((uint64_t) v >> 32));
	w32(w, v);
}

static void
wutf(wbuf *w, const char *s)
{
	w8(w, (int) (strlen(s) >> 8));
	w8(w, (int) (strlen(s) & 255));
	memcpy(w->b + w->n, s, strlen(s));
	w->n += strlen(s);
}

/* a container of one column "c" with entries (kind, body) */
static void
build_container(wbuf *w, int n, const char *const *kinds, const wbuf *bodies)
{
	int			head = 8 + 4 + 4 + 4 + 8 * n + 4 + 4 + 3;
	int			at;

	for (int i = 0; i < n; i++)
		head += 2 + (int) strlen(kinds[i]);
	w->n = 0;
	w64(w, PM_FILE_INDEX_MAGIC);
	w32(w, 1);
	w32(w, head);
	w32(w, 1);
	wutf(w, "c");
	w32(w, n);
	at = head;
	for (int i = 0; i < n; i++)
	{
		wutf(w, kinds[i]);
		w32(w, bodies[i].n == 0 ? -1 : at);
		w32(w, (int64_t) bodies[i].n);
		at += (int) bodies[i].n;
	}
	w32(w, 0);
	assert_int_equal(w->n, head);
	for (int i = 0; i < n; i++)
	{
		memcpy(w->b + w->n, bodies[i].b, bodies[i].n);
		w->n += bodies[i].n;
	}
}

/* a V1 bitmap body over BIGINT keys, every value in one row (offset -1-row) */
static void
build_bitmap_v1_single_rows(wbuf *w, int32_t rows, const int64_t *keys, int n, int null_row)
{
	w->n = 0;
	w8(w, 1);
	w32(w, rows);
	w32(w, n);
	w8(w, null_row >= 0);
	if (null_row >= 0)
		w32(w, -1 - null_row);
	for (int i = 0; i < n; i++)
	{
		w64(w, keys[i]);
		w32(w, -1 - i);
	}
}

static void
test_container_synthetic(void **state)
{
	static const char *const kinds[] = {"bitmap", "no-such-kind", "bitmap"};
	const int64_t keys[] = {10, 20, 30};
	wbuf		bodies[3] = {0};
	wbuf		w;
	pm_file_index *fi;
	pm_file_index_result r;
	pm_predicate p = leaf(PM_PRED_EQ, 1);
	pm_error	err;

	/* bitmap (rows 0,1,2 = 10,20,30; row 3 null) + unknown kind + empty */
	build_bitmap_v1_single_rows(&bodies[0], 4, keys, 3, 3);
	bodies[1].n = 3;			/* an unknown kind's body: never read */
	build_container(&w, 3, kinds, bodies);
	/* third entry empty (start -1) too */
	assert_int_equal(pm_file_index_open(pm_env_default(), w.b, w.n, &fi, &err), PM_OK);
	assert_int_equal(pm_file_index_nentries(fi), 3);
	assert_true(pm_file_index_entry_at(fi, 2)->empty);
	assert_null(pm_file_index_entry_at(fi, 3));
	/* the empty entry skips EQ even where the bitmap has the value */
	int_lit(0, 20);
	eval_col(fi, "c", &t_bigint, &p, &r);
	assert_rows(&r, NULL, 0, "empty entry skips EQ");
	/* and gives no information for IS NULL: the bitmap's answer stands */
	p = leaf(PM_PRED_IS_NULL, 0);
	eval_col(fi, "c", &t_bigint, &p, &r);
	assert_rows(&r, (uint32_t[]) {3}, 1, "IS NULL");
	pm_file_index_result_clear(&r);
	p = leaf(PM_PRED_NE, 1);
	eval_col(fi, "c", &t_bigint, &p, &r);
	assert_rows(&r, (uint32_t[]) {0, 2, 3}, 3, "NE 20");
	pm_file_index_result_clear(&r);
	eval_col(fi, "other", &t_bigint, &p, &r);
	assert_no_info(&r, "column without index");
	pm_file_index_free(fi);

	/* only the bitmap: exact rows; a literal the bitmap lacks skips */
	build_container(&w, 1, kinds, bodies);
	assert_int_equal(pm_file_index_open(pm_env_default(), w.b, w.n, &fi, &err), PM_OK);
	p = leaf(PM_PRED_IN, 2);
	int_lit(0, 30);
	int_lit(1, 10);
	eval_col(fi, "c", &t_bigint, &p, &r);
	assert_rows(&r, (uint32_t[]) {0, 2}, 2, "IN (30, 10)");
	pm_file_index_result_clear(&r);
	p = leaf(PM_PRED_EQ, 1);
	int_lit(0, 40);
	eval_col(fi, "c", &t_bigint, &p, &r);
	assert_rows(&r, NULL, 0, "= 40");
	pm_file_index_free(fi);

	/* only the unknown kind: no information */
	build_container(&w, 1, kinds + 1, bodies + 1);
	assert_int_equal(pm_file_index_open(pm_env_default(), w.b, w.n, &fi, &err), PM_OK);
	int_lit(0, 20);
	eval_col(fi, "c", &t_bigint, &p, &r);
	assert_no_info(&r, "unknown kind");
	pm_file_index_free(fi);

	/* TIMESTAMP(3) keys are millis: micros 20000 is key 20 */
	build_container(&w, 1, kinds, bodies);
	assert_int_equal(pm_file_index_open(pm_env_default(), w.b, w.n, &fi, &err), PM_OK);
	int_lit(0, 20000);
	eval_col(fi, "c", &t_ts3, &p, &r);
	assert_rows(&r, (uint32_t[]) {1}, 1, "ts3 = 20 ms");
	pm_file_index_result_clear(&r);
	int_lit(0, 20001);
	eval_col(fi, "c", &t_ts3, &p, &r);
	assert_rows(&r, NULL, 0, "ts3 = 20.001 ms");
	pm_file_index_free(fi);

	/* corrupt containers */
	build_container(&w, 1, kinds, bodies);
	w.b[0] ^= 1;
	assert_int_equal(pm_file_index_open(pm_env_default(), w.b, w.n, &fi, &err), PM_ERR_CORRUPT);
	w.b[0] ^= 1;
	w.b[11] = 2;				/* version 2 */
	assert_int_equal(pm_file_index_open(pm_env_default(), w.b, w.n, &fi, &err), PM_ERR_UNSUPPORTED);
	w.b[11] = 1;
	for (size_t cut = 0; cut < w.n; cut++)
	{
		pm_code		rc = pm_file_index_open(pm_env_default(), w.b, cut, &fi, &err);

		/* the head checks every body against the bytes there are */
		assert_int_equal(rc, PM_ERR_CORRUPT);
	}
	w.b[8 + 4 + 4 + 4 + 3 + 4 + 8 + 4 + 3] += 1;	/* the body's length runs past the end */
	assert_int_equal(pm_file_index_open(pm_env_default(), w.b, w.n, &fi, &err), PM_ERR_CORRUPT);

	/* a bitmap body with a malformed roaring bitmap is refused */
	{
		wbuf		bm;
		pm_bitmap_index *idx;

		bm.n = 0;
		w8(&bm, 1);
		w32(&bm, 10);
		w32(&bm, 1);
		w8(&bm, 0);
		w64(&bm, 5);
		w32(&bm, 0);
		/* cookie 12346, 1 container, key 0, card 2 (values 7, 3: unsorted) */
		{
			static const uint8_t rb[] = {0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 16, 0, 0, 0, 7, 0, 3, 0};

			memcpy(bm.b + bm.n, rb, sizeof(rb));
			bm.n += sizeof(rb);
		}
		assert_int_equal(pm_bitmap_index_open(pm_env_default(), bm.b, bm.n, &t_bigint, &idx, &err), PM_OK);
		p = leaf(PM_PRED_EQ, 1);
		int_lit(0, 5);
		assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_ERR_CORRUPT);
		assert_no_info(&r, "corrupt");
		/* sorted, it reads */
		bm.b[bm.n - 4] = 3;
		bm.b[bm.n - 2] = 7;
		assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
		assert_rows(&r, (uint32_t[]) {3, 7}, 2, "hand-built bitmap");
		pm_file_index_result_clear(&r);
		pm_bitmap_index_free(idx);
		bm.b[0] = 3;
		assert_int_equal(pm_bitmap_index_open(pm_env_default(), bm.b, bm.n, &t_bigint, &idx, &err), PM_ERR_UNSUPPORTED);
	}
}

/* float keys: -0.0 and 0.0 are two keys in Java; = 0 must find both */
static void
test_bitmap_float_zero(void **state)
{
	wbuf		w;
	pm_bitmap_index *idx;
	pm_file_index_result r;
	pm_predicate p = leaf(PM_PRED_EQ, 1);
	pm_error	err;

	w.n = 0;
	w8(&w, 1);
	w32(&w, 3);
	w32(&w, 3);
	w8(&w, 0);
	w32(&w, 0x80000000);		/* -0.0f in row 0 */
	w32(&w, -1);
	w32(&w, 0);					/* 0.0f in row 1 */
	w32(&w, -2);
	w32(&w, 0x3f800000);		/* 1.0f in row 2 */
	w32(&w, -3);
	assert_int_equal(pm_bitmap_index_open(pm_env_default(), w.b, w.n, &t_float, &idx, &err), PM_OK);
	dbl_lit(0, 0.0);
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_rows(&r, (uint32_t[]) {0, 1}, 2, "float = 0");
	pm_file_index_result_clear(&r);
	dbl_lit(0, 1.0);
	assert_int_equal(pm_bitmap_index_eval(idx, &p, &r, &err), PM_OK);
	assert_rows(&r, (uint32_t[]) {2}, 1, "float = 1");
	pm_file_index_result_clear(&r);
	pm_bitmap_index_free(idx);
}

/* ---- planning: files dropped by their indexes ---- */

/*
 * Plan rel with "field op literal" (lits[0..n)) and return the files kept
 * and pruned by index; *by_stats = pruned by statistics.
 */
static const char *override_key;	/* set this table option ... */
static const char *override_value;	/* ... to this before planning */

static void
plan_counts(const char *rel, pm_pred_op op, int field, int n, int64_t *kept, int64_t *by_index,
			int64_t *by_stats)
{
	pm_table_open_options opts = {0};
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_predicate p = {.op = op, .field = field, .nliterals = n, .literals = lits};
	pm_table   *t;
	pm_scan    *scan;
	pm_error	err;
	const pm_scan_stats *st;

	unit_require_corpus();
	if (pm_table_open(pm_env_default(), io, unit_corpus_path(rel), &opts, &t, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	if (override_key != NULL)
	{
		const pm_schema *sc = pm_table_schema(t);
		bool		found = false;

		for (int i = 0; i < sc->noptions; i++)
			if (strcmp(sc->option_keys[i], override_key) == 0)
			{
				sc->option_values[i] = override_value;
				found = true;
			}
		assert_true(found);
	}
	if (pm_table_scan_plan(t, &p, &scan, &err) != PM_OK)
		fail_msg("%s: plan: %s", rel, err.message);
	st = pm_scan_get_stats(scan);
	*kept = st->files_selected;
	*by_index = st->files_pruned_index;
	*by_stats = st->files_pruned_stats;
	pm_scan_free(scan);
	pm_table_close(t);
	pm_local_fileio_destroy(io);
}

#define EXPECT_PLAN(rel, op, field, n, k, i, s) do { \
	int64_t kept_, idx_, st_; \
	plan_counts(rel, op, field, n, &kept_, &idx_, &st_); \
	if (kept_ != (k) || idx_ != (i) || st_ != (s)) \
		fail_msg("%s line %d: kept %lld by index %lld by stats %lld", rel, __LINE__, \
				 (long long) kept_, (long long) idx_, (long long) st_); \
} while (0)

static void
test_plan_prunes_by_index(void **state)
{
	const char *bm = "tables/parquet/append_with_bitmap.db/append_with_bitmap";
	const char *bm1 = "tables/parquet/append_with_bitmap_v1.db/append_with_bitmap_v1";
	const char *side = "tables/parquet/append_with_bitmap_no_embedding.db/append_with_bitmap_no_embedding";
	const char *bf = "tables/parquet/append_with_bloomfilter.db/append_with_bloomfilter";
	const char *pk = "tables/parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv";
	const char *alt = "tables/parquet/append_with_bitmap_alter_table.db/append_with_bitmap_alter_table";

	/* f0 = 'Carol': inside [Alice, Tony], so only the index can drop it */
	str_lit(0, "Carol");
	EXPECT_PLAN(bm, PM_PRED_EQ, 0, 1, 0, 1, 0);
	EXPECT_PLAN(bm1, PM_PRED_EQ, 0, 1, 0, 1, 0);
	EXPECT_PLAN(side, PM_PRED_EQ, 0, 1, 0, 1, 0);
	EXPECT_PLAN(bf, PM_PRED_EQ, 0, 1, 0, 1, 0);
	EXPECT_PLAN(pk, PM_PRED_EQ, 1, 1, 0, 1, 0);
	str_lit(0, "Bob");
	EXPECT_PLAN(bm, PM_PRED_EQ, 0, 1, 1, 0, 0);
	EXPECT_PLAN(bf, PM_PRED_EQ, 0, 1, 1, 0, 0);
	EXPECT_PLAN(pk, PM_PRED_EQ, 1, 1, 1, 0, 0);
	/* beyond the max: statistics drop it first */
	str_lit(0, "Zed");
	EXPECT_PLAN(bm, PM_PRED_EQ, 0, 1, 0, 0, 1);
	/* IN: kept if one literal may match */
	str_lit(0, "Carol");
	str_lit(1, "Lucy");
	EXPECT_PLAN(bm, PM_PRED_IN, 0, 2, 1, 0, 0);
	str_lit(1, "Dave");
	EXPECT_PLAN(bm, PM_PRED_IN, 0, 2, 0, 1, 0);
	/* f1 = 15 (f1 in [10, 20]); bloom f1 = 150 (f1 in [20, 500]) */
	int_lit(0, 15);
	EXPECT_PLAN(bm, PM_PRED_EQ, 1, 1, 0, 1, 0);
	int_lit(0, 150);
	EXPECT_PLAN(bf, PM_PRED_EQ, 1, 1, 0, 1, 0);
	int_lit(0, 200);
	EXPECT_PLAN(bf, PM_PRED_EQ, 1, 1, 1, 0, 0);
	/* f1 IS NULL: no row of f1 is null (stats drop it as well) */
	EXPECT_PLAN(bm, PM_PRED_IS_NULL, 1, 0, 0, 0, 1);
	/* f2 IS NULL: row 7 */
	EXPECT_PLAN(bm, PM_PRED_IS_NULL, 2, 0, 1, 0, 0);

	/*
	 * After the alter: f1 INT -> BIGINT (field 0), f0 renamed f4 (field 1).
	 * Old file: f0 Alice Bob Emily Tony Lucy Bob Tony Alice, f1 10/20;
	 * new file: f4 Alice Emily Bob David, f1 30 20 10 30.
	 */
	str_lit(0, "Carol");
	EXPECT_PLAN(alt, PM_PRED_EQ, 1, 1, 0, 2, 0);
	str_lit(0, "Tony");
	EXPECT_PLAN(alt, PM_PRED_EQ, 1, 1, 1, 0, 1);
	str_lit(0, "Bob");
	EXPECT_PLAN(alt, PM_PRED_EQ, 1, 1, 2, 0, 0);
	int_lit(0, 15);
	EXPECT_PLAN(alt, PM_PRED_EQ, 0, 1, 0, 2, 0);
	int_lit(0, 20);
	EXPECT_PLAN(alt, PM_PRED_EQ, 0, 1, 2, 0, 0);
}

/*
 * The safety rule of primary-key tables: with deletion vectors (no merge
 * of the visible files) value fields prune; without, they must not (a
 * newer version of a row may shadow an older one in another file).
 * file-index.read.enabled = false turns index pruning off.
 */
static void
test_plan_index_rules(void **state)
{
	const char *pk = "tables/parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv";
	const char *bm = "tables/parquet/append_with_bitmap.db/append_with_bitmap";
	int64_t		kept,
				by_index,
				by_stats;

	str_lit(0, "Carol");
	EXPECT_PLAN(pk, PM_PRED_EQ, 1, 1, 0, 1, 0);
	override_key = "deletion-vectors.enabled";
	override_value = "false";
	plan_counts(pk, PM_PRED_EQ, 1, 1, &kept, &by_index, &by_stats);
	assert_int_equal(by_index, 0);
	assert_true(kept >= 1);
	override_key = "file-index.read.enabled";
	plan_counts(pk, PM_PRED_EQ, 1, 1, &kept, &by_index, &by_stats);
	assert_int_equal(by_index, 0);
	assert_int_equal(kept, 1);
	override_key = NULL;
	EXPECT_PLAN(bm, PM_PRED_EQ, 0, 1, 0, 1, 0);
	override_key = "file-index.read.enabled";
	override_value = "FALSE";
	EXPECT_PLAN(bm, PM_PRED_EQ, 0, 1, 1, 0, 0);
	override_value = "true";
	EXPECT_PLAN(bm, PM_PRED_EQ, 0, 1, 0, 1, 0);
	override_key = NULL;
}

/*
 * With the metadata cache on, a .index sidecar is read once and kept whole
 * under (its path, the data file's size): planning again prunes the same
 * from the cached bytes, and the entry is there to pin.
 */
static void
test_sidecar_cached(void **state)
{
	const char *side = "tables/parquet/append_with_bitmap_no_embedding.db/append_with_bitmap_no_embedding";
	const char *data = "/bucket-0/data-783929b2-49d4-4006-a898-194a62e3278d-0.parquet";
	char		path[4096];
	char		ipath[4200];
	FILE	   *fp;
	long		data_size;
	pm_meta_pin *pin;
	const pm_meta_bytes *b;
	pm_meta_cache_stats before;
	pm_meta_cache_stats after;
	size_t		budget;

	(void) state;
	unit_require_corpus();
	pm_meta_cache_get_stats(&before);
	budget = before.budget;
	snprintf(path, sizeof(path), "%s%s", unit_corpus_path(side), data);
	snprintf(ipath, sizeof(ipath), "%s.index", path);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	data_size = ftell(fp);
	fclose(fp);
	pm_meta_cache_set_budget((size_t) 64 << 20);
	str_lit(0, "Carol");
	EXPECT_PLAN(side, PM_PRED_EQ, 0, 1, 0, 1, 0);
	b = pm_meta_cache_pin(PM_META_FILE_INDEX, ipath, data_size, PM_META_COUNT, &pin);
	assert_non_null(b);
	assert_true(b->len > 20);
	pm_meta_cache_unpin(pin);
	/* other size of the data file: not the cached sidecar */
	assert_null(pm_meta_cache_pin(PM_META_FILE_INDEX, ipath, data_size + 1, PM_META_COUNT, &pin));
	pm_meta_cache_get_stats(&before);
	EXPECT_PLAN(side, PM_PRED_EQ, 0, 1, 0, 1, 0);
	str_lit(0, "Bob");
	EXPECT_PLAN(side, PM_PRED_EQ, 0, 1, 1, 0, 0);
	pm_meta_cache_get_stats(&after);
	assert_true(after.hits > before.hits);
	pm_meta_cache_set_budget(budget);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector_bitmap_v1),
		cmocka_unit_test(test_vector_bitmap_v2),
		cmocka_unit_test(test_table_bitmap_v2_embedded),
		cmocka_unit_test(test_table_bitmap_v1_embedded),
		cmocka_unit_test(test_table_bitmap_sidecar),
		cmocka_unit_test(test_table_pk_bitmap_dv),
		cmocka_unit_test(test_bloom_hashes),
		cmocka_unit_test(test_table_bloom),
		cmocka_unit_test(test_bloom_synthetic),
		cmocka_unit_test(test_container_synthetic),
		cmocka_unit_test(test_bitmap_float_zero),
		cmocka_unit_test(test_plan_prunes_by_index),
		cmocka_unit_test(test_plan_index_rules),
		cmocka_unit_test(test_sidecar_cached),
	};
	int			failed;

	failed = cmocka_run_group_tests(tests, NULL, NULL);
	/* planning again with the metadata cache on (sidecars from it the second time) */
	pm_meta_cache_set_budget((size_t) 64 << 20);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	pm_meta_cache_set_budget(0);
	return failed;
}
