/*-------------------------------------------------------------------------
 * test_parquet_page_index.c
 *	  Page pruning and row selections in the Parquet reader: files written
 *	  by our writer with small pages (different page boundaries per
 *	  column, a dictionary-encoded column, NULLs, several row groups) read
 *	  with a page filter and with row selections; every row returned must
 *	  be the row at its position, every matching row must come back, and
 *	  pages must be skipped. A Java-written corpus file checks the
 *	  truncated ColumnIndex bounds of parquet-mr. Run with the metadata
 *	  cache off, then twice with it on: the second run takes every page
 *	  index from the cache (PM_META_PARQUET_PAGE_INDEX) and must read the
 *	  same. Then twice with the page cache (common/page_lru.h) on: the
 *	  second run takes the selected pages from it, unread, and must read
 *	  the same; and once with a page cache so small that it evicts at once;
 *	  single rows deep in large dictionary pages read again from the page
 *	  cache (each page's run index);
 *	  and once with a metadata cache too small to keep a parsed footer.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "format/format_reader.h"
#include "format/format_writer.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/parquet_page_index.h"
#include "index/index_rows.h"
#include "io/memory_fileio.h"
#include "row/data_type.h"

#define NROWS	50000
#define PATH	"/p/pages.parquet"

/* k: row (sorted); v: scattered, NULL every 10th; s: distinct strings; c: 5 values (dictionary) */
static int32_t
v_of(int64_t row)
{
	return (int32_t) ((row * 7919) % 1000);
}

static void
s_of(int64_t row, char *buf, size_t cap)
{
	snprintf(buf, cap, "s-%07lld-%s", (long long) row, row % 3 == 0 ? "long-tail-text" : "x");
}

static void
c_of(int64_t row, char *buf, size_t cap)
{
	snprintf(buf, cap, "cat%d", (int) (row % 5));
}

static const pm_type *
schema(pm_arena *a)
{
	const pm_type *t;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_data_type_parse("ROW<k BIGINT NOT NULL, v INT, s STRING, c STRING>", a, &t, &err) != PM_OK)
		fail_msg("type: %s", err.message);
	return t;
}

/* write_rows' row group size */
static int64_t row_group_bytes = 256 * 1024;

static void
write_rows(pm_fileio *io, const pm_type *t, int64_t nrows, int64_t page_bytes, const char *codec)
{
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_error	err;
	pm_arena   *a = pm_arena_create(pm_env_default());

	memset(&o, 0, sizeof(o));
	o.schema = t;
	o.compression = codec;
	o.zstd_level = 1;
	o.row_group_bytes = row_group_bytes;
	o.page_bytes = page_bytes;
	o.dictionary = true;
	pm_error_clear(&err);
	if (pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, PATH, &o, &w, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	for (int64_t from = 0; from < nrows; from += 5000)
	{
		pm_arena   *ba = pm_arena_create(pm_env_default());
		pm_batch	b;
		int64_t		n = nrows - from < 5000 ? nrows - from : 5000;

		memset(&b, 0, sizeof(b));
		b.nrows = n;
		b.ncols = 4;
		b.cols = pm_arena_zalloc(ba, sizeof(pm_vector) * 4);
		for (int c = 0; c < 4; c++)
		{
			assert_true(pm_vector_init(&b.cols[c], t->fields[c].type, n, c == 1, ba));
			b.cols[c].length = n;
		}
		for (int c = 2; c < 4; c++)
		{
			int64_t		cap = 0;

			for (int64_t i = 0; i < n; i++)
			{
				char		buf[64];

				if (c == 2)
					s_of(from + i, buf, sizeof(buf));
				else
					c_of(from + i, buf, sizeof(buf));
				assert_true(pm_vector_append_data(&b.cols[c], &cap, buf, strlen(buf), ba));
				b.cols[c].offsets[i + 1] = (int32_t) b.cols[c].data_size;
			}
		}
		for (int64_t i = 0; i < n; i++)
		{
			PM_VEC_VALUES(&b.cols[0], int64_t)[i] = from + i;
			PM_VEC_VALUES(&b.cols[1], int32_t)[i] = v_of(from + i);
			b.cols[1].nulls[i] = (from + i) % 10 == 0;
		}
		if (pm_format_writer_write(w, &b, &err) != PM_OK)
			fail_msg("write: %s", err.message);
		pm_arena_destroy(ba);
	}
	if (pm_format_writer_finish(w, a, &res, &err) != PM_OK)
		fail_msg("finish: %s", err.message);
	pm_arena_destroy(a);
}

static void
write_file(pm_fileio *io, const pm_type *t)
{
	write_rows(io, t, NROWS, 2048, "zstd");
}

/* Filter: column col (BIGINT or INT) may hold a value in [lo, hi]. */
typedef struct range_filter
{
	int			col;
	int64_t		lo;
	int64_t		hi;
	int			calls;
} range_filter;

static bool
may_match(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	range_filter *f = ctx;
	const pm_field_range *r = &ranges[f->col];

	(void) nrows;
	f->calls++;
	assert_true(f->col < nranges);
	if (!r->known)
		return true;
	if (r->null_count >= 0 && r->null_count == r->row_count)
		return false;			/* only NULLs: no value in range */
	if (!r->has_min_max)
		return true;
	return !(r->max.u.i64 < f->lo || r->min.u.i64 > f->hi);
}

/* Row filter: the exact predicate of may_match on column col of the batch. */
static range_filter *row_ctx_seen;

static pm_code
row_in_range(void *ctx, const pm_batch *b, uint8_t *sel, pm_error *err)
{
	range_filter *f = ctx;
	const pm_vector *v = &b->cols[f->col];

	(void) err;
	row_ctx_seen = f;
	assert_int_equal(v->length, b->nrows);
	for (int64_t i = 0; i < b->nrows; i++)
	{
		int64_t		x;

		if (pm_vector_is_null(v, i))
		{
			sel[i] = 0;
			continue;
		}
		x = f->col == 0 ? PM_VEC_VALUES(v, int64_t)[i] : PM_VEC_VALUES(v, int32_t)[i];
		sel[i] = x >= f->lo && x <= f->hi;
	}
	return PM_OK;
}

static bool
keep_all(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	(void) ctx;
	(void) ranges;
	(void) nranges;
	(void) nrows;
	return true;
}

typedef struct read_result
{
	int64_t		rows;			/* rows returned */
	int64_t		matching;		/* of them, in the filter's range */
	int64_t		pages_total;
	int64_t		pages_skipped;
	int64_t		last_pos;
} read_result;

/* read_file's row_filter_tightens */
static bool read_tightens;

/* Read the file; check every returned row against its position. */
static read_result
read_file(pm_fileio *io, const pm_type *t, pm_row_filter_fn rowf, pm_part_filter_fn part,
		  pm_part_filter_fn page, range_filter *ctx, const pm_row_selection *sel)
{
	static const bool filter_cols[4][4] = {{true}, {false, true}};
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	read_result res;

	memset(&res, 0, sizeof(res));
	res.last_pos = -1;
	memset(&ro, 0, sizeof(ro));
	ro.schema = t;
	ro.batch_size = 1000;
	ro.part_filter = part;
	ro.part_filter_ctx = ctx;
	ro.page_filter = page;
	ro.row_selection = sel;
	ro.row_filter = rowf;
	ro.row_filter_cols = ctx != NULL ? filter_cols[ctx->col] : NULL;
	ro.row_filter_tightens = read_tightens;
	ro.pages_total = &res.pages_total;
	ro.pages_skipped = &res.pages_skipped;
	pm_error_clear(&err);
	if (pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, PATH, &ro, &r, &err) != PM_OK)
		fail_msg("reader open: %s", err.message);
	for (;;)
	{
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("reader next: %s", err.message);
		if (b == NULL)
			break;
		assert_int_equal(b->ncols, 4);
		assert_true(b->nrows > 0);
		assert_true(b->first_row > res.last_pos);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		pos = b->first_row + i;
			char		want[64];
			int32_t		len;
			const uint8_t *got;

			assert_int_equal(PM_VEC_VALUES(&b->cols[0], int64_t)[i], pos);
			if (pos % 10 == 0)
				assert_true(pm_vector_is_null(&b->cols[1], i));
			else
			{
				assert_false(pm_vector_is_null(&b->cols[1], i));
				assert_int_equal(PM_VEC_VALUES(&b->cols[1], int32_t)[i], v_of(pos));
			}
			s_of(pos, want, sizeof(want));
			got = pm_vector_bytes(&b->cols[2], i, &len);
			assert_int_equal(len, (int32_t) strlen(want));
			assert_memory_equal(got, want, (size_t) len);
			c_of(pos, want, sizeof(want));
			got = pm_vector_bytes(&b->cols[3], i, &len);
			assert_int_equal(len, (int32_t) strlen(want));
			assert_memory_equal(got, want, (size_t) len);
			if (ctx != NULL)
			{
				int64_t		x = ctx->col == 0 ? pos : v_of(pos);

				if (!(ctx->col == 1 && pos % 10 == 0) && x >= ctx->lo && x <= ctx->hi)
					res.matching++;
			}
		}
		res.rows += b->nrows;
		res.last_pos = b->first_row + b->nrows - 1;
	}
	pm_format_reader_close(r);
	return res;
}

static pm_fileio *
fixture(pm_arena *a, const pm_type **t)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());

	*t = schema(a);
	write_file(io, *t);
	return io;
}

/* A 1% range of the sorted column: only the pages around it are read. */
static void
test_sorted_range(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_fileio  *io = fixture(a, &t);
	range_filter f = {0, 20000, 20499, 0};
	read_result res;

	(void) state;
	res = read_file(io, t, NULL, may_match, may_match, &f, NULL);
	assert_int_equal(res.matching, 500);
	assert_true(res.rows >= 500);
	assert_true(res.rows < 3000);
	assert_true(res.pages_total > 100);
	assert_true(res.pages_skipped > res.pages_total * 9 / 10);
	/* without the page filter: the row groups around the range, whole */
	f.calls = 0;
	res = read_file(io, t, NULL, may_match, NULL, &f, NULL);
	assert_int_equal(res.matching, 500);
	assert_true(res.rows >= 5000);
	assert_int_equal(res.pages_total, 0);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* Ranges at the start, the end, and across row groups; nothing; everything. */
static void
test_range_edges(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_fileio  *io = fixture(a, &t);
	static const int64_t cases[][2] = {
		{0, 0}, {NROWS - 1, NROWS - 1}, {0, 5}, {NROWS - 3, NROWS + 10},
		{12345, 31234}, {-5, -1}, {NROWS, NROWS + 5}, {0, NROWS}
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		range_filter f = {0, cases[i][0], cases[i][1], 0};
		int64_t		lo = cases[i][0] < 0 ? 0 : cases[i][0];
		int64_t		hi = cases[i][1] >= NROWS ? NROWS - 1 : cases[i][1];
		read_result res = read_file(io, t, NULL, may_match, may_match, &f, NULL);

		assert_int_equal(res.matching, hi >= lo ? hi - lo + 1 : 0);
		if (hi < lo)
			assert_int_equal(res.rows, 0);
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* Unsorted column: pages by their own min/max; nothing matching is lost. */
static void
test_unsorted_column(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_fileio  *io = fixture(a, &t);
	range_filter f = {1, 500, 500, 0};
	range_filter none = {1, 5000, 6000, 0};
	read_result res;
	int64_t		want = 0;

	(void) state;
	for (int64_t r = 0; r < NROWS; r++)
		want += r % 10 != 0 && v_of(r) == 500;
	res = read_file(io, t, NULL, may_match, may_match, &f, NULL);
	assert_int_equal(res.matching, want);
	res = read_file(io, t, NULL, may_match, may_match, &none, NULL);
	assert_int_equal(res.rows, 0);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* A page filter that keeps everything returns every row, in order. */
static void
test_keep_all(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_fileio  *io = fixture(a, &t);
	read_result res;

	(void) state;
	res = read_file(io, t, NULL, keep_all, keep_all, NULL, NULL);
	assert_int_equal(res.rows, NROWS);
	assert_int_equal(res.last_pos, NROWS - 1);
	assert_true(res.pages_total > 100);
	assert_int_equal(res.pages_skipped, 0);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* Row selections (a file index's rows) without and with a page filter. */
static void
test_row_selection(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_fileio  *io = fixture(a, &t);
	static const int64_t start[] = {0, 5, 12345, 20000, 49990};
	static const int64_t end[] = {1, 6, 12400, 40000, 50000};
	pm_row_selection sel = {5, start, end};
	pm_row_selection empty = {0, start, end};
	range_filter f = {0, 30000, 30009, 0};
	read_result res;

	(void) state;
	res = read_file(io, t, NULL, NULL, NULL, NULL, &sel);
	assert_int_equal(res.rows, 1 + 1 + 55 + 20000 + 10);
	assert_true(res.pages_skipped > 0);
	res = read_file(io, t, NULL, NULL, NULL, NULL, &empty);
	assert_int_equal(res.rows, 0);
	/* intersected with the page filter's ranges */
	res = read_file(io, t, NULL, may_match, may_match, &f, &sel);
	assert_int_equal(res.matching, 10);
	assert_true(res.rows < 2000);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static bool
count_part(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	(void) ranges;
	(void) nranges;
	(void) nrows;
	(*(int64_t *) ctx)++;
	return true;
}

typedef struct sel_read
{
	int64_t		rows;
	int64_t		parts;			/* row groups whose statistics were asked */
	int64_t		unselected;		/* row groups skipped without a selected row */
} sel_read;

/* Read the file with selection sel; every row returned must be selected. */
static sel_read
read_selected(pm_fileio *io, const pm_type *t, const pm_row_selection *sel)
{
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	sel_read	res = {0};

	memset(&ro, 0, sizeof(ro));
	ro.schema = t;
	ro.batch_size = 1000;
	ro.part_filter = count_part;
	ro.part_filter_ctx = &res.parts;
	ro.row_selection = sel;
	ro.parts_unselected = &res.unselected;
	pm_error_clear(&err);
	if (pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, PATH, &ro, &r, &err) != PM_OK)
		fail_msg("reader open: %s", err.message);
	for (;;)
	{
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("reader next: %s", err.message);
		if (b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		pos = PM_VEC_VALUES(&b->cols[0], int64_t)[i];

			assert_int_equal(pos, b->first_row + i);
			assert_true(pm_row_selection_holds(sel, pos, pos + 1));
		}
		res.rows += b->nrows;
	}
	pm_format_reader_close(r);
	return res;
}

/*
 * Row groups holding no selected row are skipped before their statistics
 * are asked (a lookup in a file of many row groups), and counted; a few
 * selected rows are read by pages, which the page cache keeps: a second
 * lookup of the same row reads nothing from the file.
 */
static void
test_selection_skips_row_groups(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_fileio  *io;
	static const int64_t all_s[] = {0};
	static const int64_t all_e[] = {NROWS};
	static const int64_t one_s[] = {12345};
	static const int64_t one_e[] = {12346};
	static const int64_t ends_s[] = {0, NROWS - 1};
	static const int64_t ends_e[] = {1, NROWS};
	pm_row_selection all = {1, all_s, all_e};
	pm_row_selection one = {1, one_s, one_e};
	pm_row_selection ends = {2, ends_s, ends_e};
	pm_page_lru_stats before,
				after;
	sel_read	res;
	int64_t		nrg;

	(void) state;
	/* many row groups (one per write of 5000 rows), of one page per column */
	row_group_bytes = 8 * 1024;
	t = schema(a);
	io = pm_memory_fileio_create(pm_env_default());
	write_rows(io, t, NROWS, 1 << 20, "zstd");
	row_group_bytes = 256 * 1024;
	res = read_selected(io, t, &all);
	nrg = res.parts;
	assert_true(nrg > 3);
	assert_int_equal(res.unselected, 0);
	assert_int_equal(res.rows, NROWS);
	res = read_selected(io, t, &ends);
	assert_int_equal(res.rows, 2);
	assert_int_equal(res.parts, 2);
	assert_int_equal(res.unselected, nrg - 2);

	pm_page_lru_set_budget((size_t) 64 << 20);
	res = read_selected(io, t, &one);
	assert_int_equal(res.rows, 1);
	assert_int_equal(res.parts, 1);
	assert_int_equal(res.unselected, nrg - 1);
	pm_page_lru_get_stats(&before);
	res = read_selected(io, t, &one);
	assert_int_equal(res.rows, 1);
	pm_page_lru_get_stats(&after);
	/* every piece of the second read came from the page cache */
	assert_true(after.hits > before.hits);
	assert_int_equal(after.misses, before.misses);
	pm_page_lru_set_budget(0);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/*
 * Java's file (parquet-mr 1.15): the ColumnIndex max of _KEY_f0 is its
 * 64-byte prefix incremented; a page range built from it must still hold
 * the full 104-byte value, so the row is read.
 */
static void
test_java_truncated_bounds(void **state)
{
	const char *dir = unit_corpus_path("tables/parquet/pk_09.db");
	char		cmd[1024];
	char		path[1024] = {0};
	FILE	   *p;
	pm_fileio  *io;
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_format_read_options ro;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		rows = 0,
				total = 0,
				skipped = 0;
	bool		found = false;

	(void) state;
	snprintf(cmd, sizeof(cmd), "ls %s/pk_09/*/bucket-*/data-0f3a001e-*-0.parquet 2>/dev/null",
			 dir);
	p = popen(cmd, "r");
	if (p != NULL)
	{
		if (fgets(path, sizeof(path), p) != NULL)
			path[strcspn(path, "\n")] = '\0';
		pclose(p);
	}
	if (path[0] == '\0')
	{
		pm_arena_destroy(a);
		unit_missing_input("corpus pk_09 data file data-0f3a001e-...-0.parquet");
		return;
	}
	io = pm_local_fileio_create(pm_env_default());
	pm_error_clear(&err);
	assert_int_equal(pm_data_type_parse("ROW<_KEY_f0 STRING NOT NULL>", a, &t, &err), PM_OK);
	memset(&ro, 0, sizeof(ro));
	ro.schema = t;
	ro.part_filter = keep_all;
	ro.page_filter = keep_all;
	ro.pages_total = &total;
	ro.pages_skipped = &skipped;
	if (pm_format_reader_open(PM_FORMAT_PARQUET, pm_env_default(), io, path, &ro, &r, &err) != PM_OK)
		fail_msg("open %s: %s", path, err.message);
	while (pm_format_reader_next(r, &b, &err) == PM_OK && b != NULL)
	{
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int32_t		len;
			const uint8_t *v = pm_vector_bytes(&b->cols[0], i, &len);

			found |= len == 104 && memcmp(v, "Two roads", 9) == 0;
		}
		rows += b->nrows;
	}
	assert_int_equal(err.code, PM_OK);
	assert_int_equal(rows, pm_format_reader_row_count(r));
	assert_true(found);
	assert_true(total > 0);		/* Java wrote an OffsetIndex, and it was read */
	assert_int_equal(skipped, 0);
	pm_format_reader_close(r);
	pm_local_fileio_destroy(io);
	pm_arena_destroy(a);
}

/*
 * Late materialization: the filter column first, the others only for the
 * span of kept rows of each batch. v = 123 holds in one row of every 1000
 * (batches of 1000 rows): exactly the matching rows come back.
 */
static void
test_late_materialization(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_fileio  *io = fixture(a, &t);
	range_filter f = {1, 123, 123, 0};
	range_filter g = {0, 777, 1776, 0};
	range_filter none = {1, 5000, 6000, 0};
	read_result res;
	int64_t		want = 0;

	(void) state;
	for (int64_t r = 0; r < NROWS; r++)
		want += r % 10 != 0 && v_of(r) == 123;
	assert_true(want > 10);
	res = read_file(io, t, row_in_range, NULL, NULL, &f, NULL);
	assert_true(row_ctx_seen == &f);
	assert_int_equal(res.matching, want);
	assert_int_equal(res.rows, want);
	/* with page pruning too, on the sorted column: a span of 1000 rows */
	res = read_file(io, t, row_in_range, may_match, may_match, &g, NULL);
	assert_int_equal(res.matching, 1000);
	assert_int_equal(res.rows, 1000);
	/* nothing kept: no batch */
	res = read_file(io, t, row_in_range, NULL, NULL, &none, NULL);
	assert_int_equal(res.rows, 0);
	/*
	 * almost every row kept: after 16 batches (of 1000 rows, each losing
	 * its first row, a NULL) the rest of the file is read plainly
	 */
	{
		range_filter all = {1, 0, 999, 0};

		res = read_file(io, t, row_in_range, NULL, NULL, &all, NULL);
		assert_int_equal(res.matching, NROWS - NROWS / 10);
		assert_int_equal(res.rows, NROWS - 16);
		/*
		 * unless the filter tightens (a top-N): every batch (at most 1000
		 * rows, also cut where a row group ends) loses its first row
		 */
		read_tightens = true;
		res = read_file(io, t, row_in_range, NULL, NULL, &all, NULL);
		read_tightens = false;
		assert_int_equal(res.matching, NROWS - NROWS / 10);
		assert_true(res.rows <= NROWS - NROWS / 1000 && res.rows > NROWS - NROWS / 500);
	}
	/* with a row selection */
	{
		static const int64_t start[] = {10000, 30000};
		static const int64_t end[] = {20000, 30500};
		pm_row_selection sel = {2, start, end};
		int64_t		want_sel = 0;

		for (int64_t r = 0; r < NROWS; r++)
			want_sel += ((r >= 10000 && r < 20000) || (r >= 30000 && r < 30500)) &&
				r % 10 != 0 && v_of(r) == 123;
		res = read_file(io, t, row_in_range, NULL, NULL, &f, &sel);
		assert_int_equal(res.matching, want_sel);
		assert_int_equal(res.rows, want_sel);
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/*
 * A small uncompressed file of many pages (the fuzz seed
 * test/fuzz/corpus/parquet/seed_page_index; written to
 * $PM_PAGE_INDEX_KEEP/seed_page_index when set): rows 300..309 read
 * through its page index alone.
 */
static void
test_small_file(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t = schema(a);
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	range_filter f = {0, 300, 309, 0};
	read_result res;
	const char *keep = getenv("PM_PAGE_INDEX_KEEP");

	(void) state;
	write_rows(io, t, 600, 256, "none");
	res = read_file(io, t, NULL, may_match, may_match, &f, NULL);
	assert_int_equal(res.matching, 10);
	assert_true(res.rows < 100);
	assert_true(res.pages_skipped > 0);
	if (keep != NULL)
	{
		char		out[512];
		uint8_t    *data;
		size_t		len;
		pm_error	err;
		FILE	   *fp;

		assert_int_equal(pm_fileio_read_all(io, PATH, a, (size_t) 1 << 20, &data, &len, &err), PM_OK);
		snprintf(out, sizeof(out), "%s/seed_page_index", keep);
		fp = fopen(out, "wb");
		assert_non_null(fp);
		assert_int_equal(fwrite(data, 1, len, fp), len);
		fclose(fp);
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* A file index's row bitmap as ranges: gaps below max_gap merged, rows past the file dropped. */
static void
test_index_rows(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	roaring_bitmap_t *b = roaring_bitmap_create();
	const pm_row_selection *sel;
	static const uint32_t rows[] = {5, 6, 7, 2000, 2001, 2100, 9999, 10000, 12000};

	(void) state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		roaring_bitmap_add(b, rows[i]);
	assert_true(pm_index_rows_selection(b, 10000, 64, a, &sel));
	assert_non_null(sel);
	assert_int_equal(sel->n, 4);
	assert_int_equal(sel->start[0], 5);
	assert_int_equal(sel->end[0], 8);
	assert_int_equal(sel->start[1], 2000);
	assert_int_equal(sel->end[1], 2002);
	assert_int_equal(sel->start[2], 2100);
	assert_int_equal(sel->end[2], 2101);
	assert_int_equal(sel->start[3], 9999);
	assert_int_equal(sel->end[3], 10000);
	/* a wider gap merges the first three */
	assert_true(pm_index_rows_selection(b, 10000, 2100, a, &sel));
	assert_int_equal(sel->n, 2);
	assert_int_equal(sel->end[0], 2101);
	/* every row: no selection */
	roaring_bitmap_add_range(b, 0, 10000);
	assert_true(pm_index_rows_selection(b, 10000, 64, a, &sel));
	assert_null(sel);
	roaring_bitmap_free(b);
	pm_arena_destroy(a);
}

/*
 * Single rows deep inside large dictionary-encoded pages, read twice with
 * the page cache on: the second read takes the pages from the cache and
 * starts decoding each dictionary page's indices at the run that holds the
 * row (column_reader.c's run index); every row must be the one at its
 * position (read_file checks all four columns).
 */
static void
test_deep_rows_cached(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t = schema(a);
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	static const int64_t start[] = {0, 1500, 3001, 17777, 31234, 45000, 49998};
	static const int64_t end[] = {1, 1501, 3003, 17778, 31235, 45001, 50000};
	pm_row_selection sel = {7, start, end};
	pm_page_lru_stats before;
	pm_page_lru_stats after;
	size_t		budget;
	read_result res;

	(void) state;
	pm_page_lru_get_stats(&before);
	budget = before.budget;
	pm_page_lru_set_budget((size_t) 64 << 20);
	write_rows(io, t, 50000, 16384, "zstd");
	for (int pass = 0; pass < 3; pass++)
	{
		pm_page_lru_get_stats(&before);
		res = read_file(io, t, NULL, NULL, NULL, NULL, &sel);
		assert_int_equal(res.rows, 1 + 1 + 2 + 1 + 1 + 1 + 2);
		pm_page_lru_get_stats(&after);
		if (pass > 0)
			assert_true(after.hits > before.hits);
	}
	pm_page_lru_set_budget(0);
	pm_page_lru_set_budget(budget);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_range),
		cmocka_unit_test(test_range_edges),
		cmocka_unit_test(test_unsorted_column),
		cmocka_unit_test(test_keep_all),
		cmocka_unit_test(test_row_selection),
		cmocka_unit_test(test_selection_skips_row_groups),
		cmocka_unit_test(test_java_truncated_bounds),
		cmocka_unit_test(test_small_file),
		cmocka_unit_test(test_index_rows),
		cmocka_unit_test(test_late_materialization),
		cmocka_unit_test(test_deep_rows_cached),
	};

	int			failed;
	pm_meta_cache_stats st;

	pm_meta_cache_set_budget(0);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	pm_meta_cache_set_budget((size_t) 64 << 20);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	pm_meta_cache_get_stats(&st);
	print_message("metadata cache: %lld hits, %lld misses, %lld entries\n",
				  (long long) st.hits, (long long) st.misses, (long long) st.entries);
	if (st.hits == 0)
		failed++;
	{
		pm_page_lru_stats ps;

		pm_page_lru_set_budget((size_t) 64 << 20);
		failed += cmocka_run_group_tests(tests, NULL, NULL);
		failed += cmocka_run_group_tests(tests, NULL, NULL);
		pm_page_lru_get_stats(&ps);
		print_message("page cache: %lld hits, %lld misses, %lld entries\n",
					  (long long) ps.hits, (long long) ps.misses, (long long) ps.entries);
		if (ps.hits == 0 || ps.misses == 0)
			failed++;
		pm_page_lru_set_budget(3000);	/* smaller than most pages: evicting */
		failed += cmocka_run_group_tests(tests, NULL, NULL);
		pm_page_lru_set_budget(0);
	}
	/* a metadata cache too small for a parsed footer: the reader keeps its own */
	pm_meta_cache_set_budget(2048);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	pm_meta_cache_set_budget(0);
	return failed;
}
