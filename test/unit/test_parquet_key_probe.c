/*-------------------------------------------------------------------------
 * test_parquet_key_probe.c
 *	  The key cache (format/parquet/parquet_key_probe.h) on a file our
 *	  writer wrote with small pages and several row groups: sorted BIGINT
 *	  and STRING columns of the even numbers; every value probed is PRESENT
 *	  at its row (or at no row, never another), every odd one and those
 *	  outside the range ABSENT; repeated probes hit the cache; budget 0,
 *	  an unknown column, a column of another type and a missing file are
 *	  UNKNOWN; a budget too small to keep anything still never answers
 *	  wrong; PLAIN key pages kept in place in the page cache answer the
 *	  same through page-cache evictions. Row groups are binary-searched
 *	  only where their bounds ascend: a file whose values start over in a
 *	  later row group is still answered right. The span of rows a probe
 *	  gives holds every row of the value.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format_writer.h"
#include "common/page_lru.h"
#include "format/parquet/parquet_key_probe.h"
#include "io/memory_fileio.h"
#include "row/data_type.h"

#define NROWS	30000
#define PATH	"/p/keys.parquet"

static void
s_of(int64_t v, char *buf, size_t cap)
{
	snprintf(buf, cap, "key-%08lld", (long long) v);
}

/* write_file: row i holds 2 * (i % wrap_rows) (0: no wrap) */
static int64_t wrap_rows;

static int64_t
value_at(int64_t row)
{
	return 2 * (wrap_rows > 0 ? row % wrap_rows : row);
}

static int64_t
write_file(pm_fileio *io, const pm_type *t, bool dictionary)
{
	pm_format_write_options o;
	pm_format_writer *w;
	pm_format_write_result res;
	pm_error	err;
	pm_arena   *a = pm_arena_create(pm_env_default());
	uint64_t	size;
	pm_file    *f;

	memset(&o, 0, sizeof(o));
	o.schema = t;
	o.compression = "zstd";
	o.zstd_level = 1;
	o.row_group_bytes = 128 * 1024;
	o.page_bytes = 4096;
	o.dictionary = dictionary;
	pm_error_clear(&err);
	if (pm_format_writer_open(PM_FORMAT_PARQUET, pm_env_default(), io, PATH, &o, &w, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	for (int64_t from = 0; from < NROWS; from += 5000)
	{
		pm_arena   *ba = pm_arena_create(pm_env_default());
		pm_batch	b;
		int64_t		n = NROWS - from < 5000 ? NROWS - from : 5000;
		int64_t		cap = 0;

		memset(&b, 0, sizeof(b));
		b.nrows = n;
		b.ncols = 2;
		b.cols = pm_arena_zalloc(ba, sizeof(pm_vector) * 2);
		for (int c = 0; c < 2; c++)
		{
			assert_true(pm_vector_init(&b.cols[c], t->fields[c].type, n, false, ba));
			b.cols[c].length = n;
		}
		for (int64_t i = 0; i < n; i++)
		{
			char		buf[32];

			PM_VEC_VALUES(&b.cols[0], int64_t)[i] = value_at(from + i);
			s_of(value_at(from + i), buf, sizeof(buf));
			assert_true(pm_vector_append_data(&b.cols[1], &cap, buf, strlen(buf), ba));
			b.cols[1].offsets[i + 1] = (int32_t) b.cols[1].data_size;
		}
		if (pm_format_writer_write(w, &b, &err) != PM_OK)
			fail_msg("write: %s", err.message);
		pm_arena_destroy(ba);
	}
	if (pm_format_writer_finish(w, a, &res, &err) != PM_OK)
		fail_msg("finish: %s", err.message);
	assert_int_equal(pm_file_open(io, PATH, &f, &err), PM_OK);
	assert_int_equal(pm_file_size(io, f, &size, &err), PM_OK);
	pm_file_close(io, f);
	pm_arena_destroy(a);
	return (int64_t) size;
}

typedef struct probe_fixture
{
	pm_fileio  *io;
	pm_arena   *arena;
	const pm_type *t;
	int64_t		size;
} probe_fixture;

/* the last probe's span (pm_parquet_key_probe) */
static int64_t last_span[2];

static pm_pq_probe
probe_int(probe_fixture *fx, int64_t v, int64_t *row)
{
	pm_value	k = {0};

	k.u.i64 = v;
	return pm_parquet_key_probe(pm_env_default(), fx->io, PATH, fx->size, "k",
								fx->t->fields[0].type, &k, row, last_span);
}

static pm_pq_probe
probe_str(probe_fixture *fx, int64_t v, int64_t *row)
{
	pm_value	k = {0};
	char		buf[32];

	s_of(v, buf, sizeof(buf));
	k.u.bytes.ptr = (const uint8_t *) buf;
	k.u.bytes.len = (int32_t) strlen(buf);
	return pm_parquet_key_probe(pm_env_default(), fx->io, PATH, fx->size, "s",
								fx->t->fields[1].type, &k, row, last_span);
}

static void
setup_with(probe_fixture *fx, bool dictionary)
{
	pm_error	err;

	fx->io = pm_memory_fileio_create(pm_env_default());
	fx->arena = pm_arena_create(pm_env_default());
	pm_error_clear(&err);
	if (pm_data_type_parse("ROW<k BIGINT NOT NULL, s STRING NOT NULL>", fx->arena, &fx->t,
						   &err) != PM_OK)
		fail_msg("type: %s", err.message);
	fx->size = write_file(fx->io, fx->t, dictionary);
}

static void
setup(probe_fixture *fx)
{
	setup_with(fx, true);
}

static void
teardown(probe_fixture *fx)
{
	pm_parquet_key_cache_set_budget(0);
	pm_arena_destroy(fx->arena);
	assert_int_equal(pm_memory_fileio_open_files(fx->io), 0);
	pm_memory_fileio_destroy(fx->io);
}

/* every row r in steps: present at r (or unplaced), r's odd neighbour absent */
static void
check_all(probe_fixture *fx, int step, bool may_be_unknown, int64_t *placed)
{
	for (int64_t r = 0; r < NROWS; r += step)
	{
		for (int c = 0; c < 2; c++)
		{
			int64_t		row = -2;
			pm_pq_probe p = c == 0 ? probe_int(fx, 2 * r, &row) : probe_str(fx, 2 * r, &row);
			int64_t		p_span[2] = {last_span[0], last_span[1]};
			pm_pq_probe q = c == 0 ? probe_int(fx, 2 * r + 1, NULL) : probe_str(fx, 2 * r + 1, NULL);

			if (may_be_unknown && p == PM_PQ_PROBE_UNKNOWN)
				assert_int_equal(row, -1);
			else
			{
				if (p != PM_PQ_PROBE_PRESENT)
					fail_msg("column %d value %lld: probe %d", c, (long long) (2 * r), p);
				/* the rows of the pages that may hold it hold it */
				if (p_span[0] > r || p_span[1] <= r)
					fail_msg("column %d value %lld: span [%lld, %lld)", c, (long long) (2 * r),
							 (long long) p_span[0], (long long) p_span[1]);
				if (row != -1 && row != r)
					fail_msg("column %d value %lld: row %lld", c, (long long) (2 * r),
							 (long long) row);
				*placed += row == r;
			}
			if (!(may_be_unknown && q == PM_PQ_PROBE_UNKNOWN))
			{
				assert_int_equal(q, PM_PQ_PROBE_ABSENT);
				assert_int_equal(last_span[0], -1);
			}
		}
	}
}

static void
test_probe(void **state)
{
	probe_fixture fx;
	pm_lru_stats st;
	int64_t		placed = 0;
	int64_t		row;
	pm_value	k = {0};

	(void) state;
	setup(&fx);
	/* off: nothing known */
	pm_parquet_key_cache_set_budget(0);
	assert_int_equal(probe_int(&fx, 2, &row), PM_PQ_PROBE_UNKNOWN);
	assert_int_equal(row, -1);

	pm_parquet_key_cache_set_budget((size_t) 64 << 20);
	check_all(&fx, 7, false, &placed);
	/* most rows are inside a page: placed */
	assert_true(placed > (2 * NROWS / 7) / 2);
	/* every row: each row group's first and last among them */
	placed = 0;
	check_all(&fx, 1, false, &placed);
	assert_true(placed > NROWS);
	/* outside the column's range */
	assert_int_equal(probe_int(&fx, -1, NULL), PM_PQ_PROBE_ABSENT);
	assert_int_equal(probe_int(&fx, 2 * NROWS, NULL), PM_PQ_PROBE_ABSENT);
	assert_int_equal(probe_int(&fx, INT64_MAX, NULL), PM_PQ_PROBE_ABSENT);
	assert_int_equal(probe_str(&fx, 2 * NROWS + 2, NULL), PM_PQ_PROBE_ABSENT);
	/* again: from the cache */
	pm_parquet_key_cache_get_stats(&st);
	{
		int64_t		misses = st.misses;

		placed = 0;
		check_all(&fx, 7, false, &placed);
		pm_parquet_key_cache_get_stats(&st);
		assert_int_equal(st.misses, misses);
	}
	/* what cannot be answered */
	k.u.i64 = 2;
	assert_int_equal(pm_parquet_key_probe(pm_env_default(), fx.io, PATH, fx.size, "nope",
										  fx.t->fields[0].type, &k, NULL, NULL),
					 PM_PQ_PROBE_UNKNOWN);
	assert_int_equal(pm_parquet_key_probe(pm_env_default(), fx.io, "/p/missing.parquet", 100,
										  "k", fx.t->fields[0].type, &k, NULL, NULL),
					 PM_PQ_PROBE_UNKNOWN);
	/* the string column asked as BIGINT: another physical type */
	assert_int_equal(pm_parquet_key_probe(pm_env_default(), fx.io, PATH, fx.size, "s",
										  fx.t->fields[0].type, &k, NULL, NULL),
					 PM_PQ_PROBE_UNKNOWN);
	/* a NULL key */
	k.is_null = true;
	assert_int_equal(pm_parquet_key_probe(pm_env_default(), fx.io, PATH, fx.size, "k",
										  fx.t->fields[0].type, &k, NULL, NULL),
					 PM_PQ_PROBE_UNKNOWN);
	/* too small to keep an index: UNKNOWN, never wrong */
	pm_parquet_key_cache_set_budget(0);
	pm_parquet_key_cache_set_budget(512);
	placed = 0;
	check_all(&fx, 101, true, &placed);
	/* a budget that keeps the index but evicts pages all the time */
	pm_parquet_key_cache_set_budget(24 * 1024);
	placed = 0;
	check_all(&fx, 13, true, &placed);
	teardown(&fx);
}

/*
 * Values that start over in a later row group (bounds ascend within each
 * row group, not from one to the next): every value is found at one of its
 * two rows, odd values are absent.
 */
static void
test_probe_groups_unsorted(void **state)
{
	probe_fixture fx;

	(void) state;
	wrap_rows = NROWS / 2;
	setup(&fx);
	wrap_rows = 0;
	pm_parquet_key_cache_set_budget((size_t) 64 << 20);
	for (int64_t r = 0; r < NROWS / 2; r += 3)
	{
		for (int c = 0; c < 2; c++)
		{
			int64_t		row = -2;
			pm_pq_probe p = c == 0 ? probe_int(&fx, 2 * r, &row) : probe_str(&fx, 2 * r, &row);
			int64_t		p_span[2] = {last_span[0], last_span[1]};
			pm_pq_probe q = c == 0 ? probe_int(&fx, 2 * r + 1, NULL) : probe_str(&fx, 2 * r + 1, NULL);

			if (p != PM_PQ_PROBE_PRESENT)
				fail_msg("column %d value %lld: probe %d", c, (long long) (2 * r), p);
			if (row != -1 && row != r && row != r + NROWS / 2)
				fail_msg("column %d value %lld: row %lld", c, (long long) (2 * r), (long long) row);
			/* both rows that hold it: the span reaches over the row groups between */
			if (p_span[0] > r || p_span[1] <= r + NROWS / 2)
				fail_msg("column %d value %lld: span [%lld, %lld)", c, (long long) (2 * r),
						 (long long) p_span[0], (long long) p_span[1]);
			assert_int_equal(q, PM_PQ_PROBE_ABSENT);
		}
	}
	assert_int_equal(probe_int(&fx, NROWS, NULL), PM_PQ_PROBE_ABSENT);
	teardown(&fx);
}

/*
 * PLAIN key pages with the page cache on: the key cache's BIGINT pages
 * point into the page cache's decompressed pages (pinned) instead of
 * copies. Emptying the page cache or evicting from it under the key cache
 * never changes an answer (nor frees a page the key cache still reads:
 * the sanitizers would see it).
 */
static void
test_probe_in_place(void **state)
{
	probe_fixture fx;
	pm_lru_stats st;
	pm_page_lru_stats ps;
	int64_t		placed = 0;
	int64_t		misses;

	(void) state;
	setup_with(&fx, false);
	pm_page_lru_set_budget((size_t) 64 << 20);
	pm_parquet_key_cache_set_budget((size_t) 64 << 20);
	check_all(&fx, 7, false, &placed);
	assert_true(placed > (2 * NROWS / 7) / 2);
	pm_page_lru_get_stats(&ps);
	assert_true(ps.entries > 0);
	/* the page cache emptied: the key cache's pages stay readable, and cached */
	pm_page_lru_set_budget(0);
	pm_parquet_key_cache_get_stats(&st);
	misses = st.misses;
	placed = 0;
	check_all(&fx, 3, false, &placed);
	pm_parquet_key_cache_get_stats(&st);
	assert_int_equal(st.misses, misses);
	/* both caches small: pages evicted from each while the other holds them */
	pm_parquet_key_cache_set_budget(0);
	pm_page_lru_set_budget(24 * 1024);
	pm_parquet_key_cache_set_budget(24 * 1024);
	placed = 0;
	check_all(&fx, 11, true, &placed);
	pm_page_lru_set_budget(0);
	placed = 0;
	check_all(&fx, 17, true, &placed);
	teardown(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_probe_groups_unsorted),
		cmocka_unit_test(test_probe_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
