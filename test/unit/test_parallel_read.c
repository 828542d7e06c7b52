/*-------------------------------------------------------------------------
 * test_parallel_read.c
 *	  Units of work and the claim hook of pm_table_read (parallel scans).
 *
 * Two readers of the same plan share a counter, as the participants of a
 * parallel scan share one in shared memory, and take turns: together they
 * must return exactly the rows one reader returns alone, each row once,
 * and both must get a share. Checked on an append table (units are files),
 * a primary-key table (units are merged splits and raw files), and one
 * Parquet file of many row groups shared by row group
 * (pm_scan_set_part_units), and one Parquet file of one row group shared
 * by units cut at its page boundaries.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "common/page_lru.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "table/append_dv_write.h"
#include "table/table.h"
#include "table/table_write.h"

typedef struct claimer
{
	int64_t    *counter;		/* shared */
	int64_t		claimed;
} claimer;

static bool
claim(void *ctx, int64_t unit)
{
	claimer    *c = ctx;

	if (c->claimed < unit)
		c->claimed = (*c->counter)++;
	return c->claimed == unit;
}

/* Sum of an INT column and row count of a batch: a cheap fingerprint. */
static void
account(const pm_batch *b, int64_t *rows, int64_t *sum)
{
	*rows += b->nrows;
	for (int64_t i = 0; i < b->nrows; i++)
		if (!pm_vector_is_null(&b->cols[0], i))
			*sum += PM_VEC_VALUES(&b->cols[0], int32_t)[i];
}

/*
 * Read the table alone and by two readers sharing a counter; part_bytes
 * > 0: files of at least that many bytes are shared by part.
 */
static int64_t
check_scan(pm_fileio *io, const char *path, const char *int_field, int64_t part_bytes)
{
	const pm_env *env = pm_env_default();
	pm_table_open_options o = {0};
	pm_table   *table;
	pm_scan    *scan;
	pm_table_read *one,
			   *a,
			   *b;
	pm_error	err;
	int			field;
	int64_t		rows1 = 0,
				sum1 = 0,
				rows_a = 0,
				sum_a = 0,
				rows_b = 0,
				sum_b = 0,
				counter = 0;
	claimer		ca = {&counter, -1},
				cb = {&counter, -1};
	bool		a_done = false,
				b_done = false;
	pm_batch   *batch;

	pm_error_clear(&err);
	assert_int_equal(pm_table_open(env, io, path, &o, &table, &err), PM_OK);
	field = pm_type_field_index(pm_table_schema(table)->row_type, int_field);
	assert_true(field >= 0);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	pm_scan_set_part_units(scan, part_bytes);

	assert_int_equal(pm_table_read_open(scan, &field, 1, &one, &err), PM_OK);
	for (;;)
	{
		assert_int_equal(pm_table_read_next(one, &batch, &err), PM_OK);
		if (batch == NULL)
			break;
		account(batch, &rows1, &sum1);
	}
	pm_table_read_close(one);

	assert_int_equal(pm_table_read_open(scan, &field, 1, &a, &err), PM_OK);
	assert_int_equal(pm_table_read_open(scan, &field, 1, &b, &err), PM_OK);
	pm_table_read_set_claim(a, claim, &ca);
	pm_table_read_set_claim(b, claim, &cb);
	while (!a_done || !b_done)
	{
		if (!a_done)
		{
			assert_int_equal(pm_table_read_next(a, &batch, &err), PM_OK);
			if (batch == NULL)
				a_done = true;
			else
				account(batch, &rows_a, &sum_a);
		}
		if (!b_done)
		{
			assert_int_equal(pm_table_read_next(b, &batch, &err), PM_OK);
			if (batch == NULL)
				b_done = true;
			else
				account(batch, &rows_b, &sum_b);
		}
	}
	pm_table_read_close(a);
	pm_table_read_close(b);
	print_message("%s: %lld rows alone, %lld + %lld shared\n", path,
				  (long long) rows1, (long long) rows_a, (long long) rows_b);
	assert_true(rows1 > 0);
	assert_int_equal(rows_a + rows_b, rows1);
	assert_true(sum_a + sum_b == sum1);
	assert_true(rows_a > 0 && rows_b > 0);

	pm_scan_free(scan);
	pm_table_close(table);
	return rows1;
}

static void
check_table(const char *relpath, const char *int_field)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());

	check_scan(io, unit_corpus_path(relpath), int_field, 0);
	pm_local_fileio_destroy(io);
}

static void
test_append_files(void **state)
{
	unit_require_corpus();
	check_table("tables/parquet/append_09.db/append_09", "f1");
}

static void
test_pk_splits(void **state)
{
	unit_require_corpus();
	check_table("tables/parquet/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor", "f1");
}

/*
 * One Parquet file of 3000 rows in row groups of about 1 kB, written by
 * the table writer: as one unit it goes to one reader (the other gets no
 * row), by parts both readers get rows.
 */
static void
test_one_file_by_row_groups(void **state)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_memory_fileio_create(env);
	pm_arena   *arena = pm_arena_create(env);
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field));
	static const char *keys[] = {"parquet.block.size", "target-file-size"};
	static const char *vals[] = {"1 kb", "1 gb"};
	pm_table_writer *w;
	pm_batch	b;
	pm_vector	col;
	pm_error	err;
	int64_t		sid;

	(void) state;
	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 1, false);
	s->noptions = 2;
	s->option_keys = keys;
	s->option_values = vals;
	pm_error_clear(&err);
	assert_int_equal(pm_table_create(env, io, "/t", s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(env, io, "/t", "user-p", &w, &err), PM_OK);
	assert_true(pm_vector_init(&col, s->row_type->fields[0].type, 100, false, arena));
	col.length = 100;
	b.nrows = 100;
	b.first_row = 0;
	b.ncols = 1;
	b.cols = &col;
	for (int k = 0; k < 30; k++)
	{
		for (int i = 0; i < 100; i++)
			PM_VEC_VALUES(&col, int32_t)[i] = k * 100 + i;
		assert_int_equal(pm_table_writer_write(w, &b, NULL, &err), PM_OK);
	}
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);
	check_scan(io, "/t", "id", 1);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * One Parquet file of ONE row group of 200000 rows in pages of about
 * 1 kB (an int and a string column, so the columns' pages end at
 * different rows), written by the table writer: shared by units cut at
 * page boundaries inside the row group, 2 and 3 pm_scan_readers together
 * read each row once, each gets a share, and none reads it all; with a
 * filter (page pruning and late materialization on), the rows that match
 * are the same as alone.
 */
#define UNIT_ROWS 200000

typedef struct unit_tally
{
	int64_t		rows;			/* rows that pass lo <= id < hi */
	int64_t		sum;
	int64_t		pads;			/* ... with their string */
} unit_tally;

static void
tally(const pm_batch *b, int64_t lo, int64_t hi, unit_tally *t)
{
	for (int64_t i = 0; i < b->nrows; i++)
	{
		int32_t		id = PM_VEC_VALUES(&b->cols[0], int32_t)[i];
		int32_t		len;

		if (pm_vector_is_null(&b->cols[0], i) || id < lo || id >= hi)
			continue;
		t->rows++;
		t->sum += id;
		len = b->cols[1].offsets[i + 1] - b->cols[1].offsets[i];
		if (!pm_vector_is_null(&b->cols[1], i) && len > 3 &&
			memcmp(b->cols[1].data + b->cols[1].offsets[i], "pad", 3) == 0)
			t->pads++;
	}
}

static void
check_units(pm_fileio *io, const pm_predicate *pred, int64_t lo, int64_t hi, int nreaders)
{
	const pm_env *env = pm_env_default();
	pm_table_open_options o = {0};
	pm_table   *table;
	pm_scan    *scan;
	pm_scan_reader *rd[3];
	claimer		cl[3];
	unit_tally	one = {0},
				part[3] = {{0}},
				all = {0};
	bool		done[3] = {false, false, false};
	int			ndone = 0;
	int			fields[2] = {0, 1};
	int64_t		counter = 0;
	pm_batch   *batch;
	pm_error	err;
	pm_scan_stats serial;
	const pm_scan_stats *st;

	pm_error_clear(&err);
	assert_int_equal(pm_table_open(env, io, "/u", &o, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, pred, &scan, &err), PM_OK);
	pm_scan_set_part_units(scan, 64 * 1024);
	assert_int_equal(pm_scan_reader_open(scan, fields, 2, &rd[0], &err), PM_OK);
	for (;;)
	{
		assert_int_equal(pm_scan_reader_next(rd[0], &batch, &err), PM_OK);
		if (batch == NULL)
			break;
		tally(batch, lo, hi, &one);
	}
	pm_scan_reader_close(rd[0]);
	serial = *pm_scan_get_stats(scan);
	for (int k = 0; k < nreaders; k++)
	{
		cl[k].counter = &counter;
		cl[k].claimed = -1;
		assert_int_equal(pm_scan_reader_open(scan, fields, 2, &rd[k], &err), PM_OK);
		pm_scan_reader_set_claim(rd[k], claim, &cl[k]);
	}
	while (ndone < nreaders)
		for (int k = 0; k < nreaders; k++)
		{
			if (done[k])
				continue;
			if (pm_scan_reader_next(rd[k], &batch, &err) != PM_OK)
				fail_msg("reader %d: %s", k, err.message);
			if (batch == NULL)
			{
				done[k] = true;
				ndone++;
			}
			else
				tally(batch, lo, hi, &part[k]);
		}
	for (int k = 0; k < nreaders; k++)
	{
		pm_scan_reader_close(rd[k]);
		all.rows += part[k].rows;
		all.sum += part[k].sum;
		all.pads += part[k].pads;
		print_message("units [%lld, %lld): reader %d of %d: %lld of %lld rows\n",
					  (long long) lo, (long long) hi, k, nreaders,
					  (long long) part[k].rows, (long long) one.rows);
		assert_true(part[k].rows > 0);
		assert_true(part[k].rows < one.rows);
	}
	assert_int_equal(one.rows, hi - lo);
	assert_int_equal(one.pads, one.rows);
	assert_int_equal(all.rows, one.rows);
	assert_true(all.sum == one.sum);
	assert_int_equal(all.pads, one.pads);
	/* more units than readers in the one row group */
	assert_true(counter > nreaders + 1);
	/*
	 * The readers counted the row group and its pages once between them
	 * (the scan's counts now hold the serial read's twice), though their
	 * units share pages of the pad column
	 */
	st = pm_scan_get_stats(scan);
	print_message("units [%lld, %lld): row groups %lld, pages %lld of %lld pruned\n",
				  (long long) lo, (long long) hi, (long long) serial.row_groups_total,
				  (long long) serial.pages_pruned, (long long) serial.pages_total);
	assert_int_equal(st->row_groups_total, 2 * serial.row_groups_total);
	assert_int_equal(st->row_groups_pruned, 2 * serial.row_groups_pruned);
	assert_int_equal(st->pages_total, 2 * serial.pages_total);
	assert_int_equal(st->pages_pruned, 2 * serial.pages_pruned);
	assert_true(pred == NULL || (serial.row_groups_total == 1 && serial.pages_pruned > 0));
	pm_scan_free(scan);
	pm_table_close(table);
}

static void
test_one_row_group_by_pages(void **state)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_memory_fileio_create(env);
	pm_arena   *arena = pm_arena_create(env);
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 2);
	static const char *keys[] = {"parquet.block.size", "parquet.page.size", "target-file-size"};
	static const char *vals[] = {"1 gb", "1 kb", "1 gb"};
	pm_table_writer *w;
	pm_batch	b;
	pm_vector	col[2];
	pm_error	err;
	int64_t		sid;
	pm_value	lit[2];
	pm_predicate ge = {.op = PM_PRED_GE, .field = 0, .nliterals = 1, .literals = &lit[0]};
	pm_predicate lt = {.op = PM_PRED_LT, .field = 0, .nliterals = 1, .literals = &lit[1]};
	pm_predicate *both[2] = {&ge, &lt};
	pm_predicate and = {.op = PM_PRED_AND, .nchildren = 2, .children = both};
	char		buf[32];

	(void) state;
	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	f[1] = (pm_field) {1, "pad", pm_type_new(arena, PM_TYPE_VARCHAR, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 2, false);
	s->noptions = 3;
	s->option_keys = keys;
	s->option_values = vals;
	pm_error_clear(&err);
	assert_int_equal(pm_table_create(env, io, "/u", s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(env, io, "/u", "user-u", &w, &err), PM_OK);
	for (int k = 0; k < UNIT_ROWS / 4000; k++)
	{
		int64_t		cap = 0;

		assert_true(pm_vector_init(&col[0], f[0].type, 4000, false, arena));
		assert_true(pm_vector_init(&col[1], f[1].type, 4000, false, arena));
		for (int i = 0; i < 4000; i++)
		{
			int			id = k * 4000 + i;
			int			n = snprintf(buf, sizeof(buf), "pad%d", (int) ((int64_t) id * 7919 % 100003));

			PM_VEC_VALUES(&col[0], int32_t)[i] = id;
			assert_true(pm_vector_append_data(&col[1], &cap, buf, n, arena));
			col[1].offsets[i + 1] = (int32_t) col[1].data_size;
		}
		col[0].length = 4000;
		col[1].length = 4000;
		b.nrows = 4000;
		b.first_row = 0;
		b.ncols = 2;
		b.cols = col;
		assert_int_equal(pm_table_writer_write(w, &b, NULL, &err), PM_OK);
	}
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);

	check_units(io, NULL, 0, UNIT_ROWS, 2);

	/*
	 * With the page cache on, units read whole keep none of their pages
	 * (a scan would only churn the cache): at most a dictionary head per
	 * column. The file has hundreds of 1 kB pages.
	 */
	{
		pm_page_lru_stats st;

		pm_page_lru_set_budget(64 * 1024 * 1024);
		check_units(io, NULL, 0, UNIT_ROWS, 3);
		pm_page_lru_get_stats(&st);
		print_message("page cache after a 3-reader scan by units: %lld entries\n",
					  (long long) st.entries);
		assert_true(st.entries <= 2);
		pm_page_lru_set_budget(0);
	}
	memset(lit, 0, sizeof(lit));
	lit[0].u.i64 = 31234;
	lit[1].u.i64 = 177777;
	check_units(io, &and, 31234, 177777, 2);
	check_units(io, &and, 31234, 177777, 3);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * The same one-row-group file in a deletion-vector table, every tenth
 * row deleted by position: pm_table_read (raw reads apply the DV by file
 * position) shares the row group by units, each row left read once, by
 * both readers (one row group: more than one unit).
 */
static void
test_one_row_group_with_dv(void **state)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_memory_fileio_create(env);
	pm_arena   *arena = pm_arena_create(env);
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 2);
	static const char *keys[] = {"parquet.block.size", "parquet.page.size", "target-file-size",
	"deletion-vectors.enabled"};
	static const char *vals[] = {"1 gb", "1 kb", "1 gb", "true"};
	pm_table_writer *w;
	pm_batch	b;
	pm_vector	col[2];
	pm_error	err;
	int64_t		sid;
	pm_table   *table;
	pm_scan    *sc;
	pm_table_read *read;
	pm_batch   *bt;
	int			fields[1] = {0};
	int64_t		deleted = 0;

	(void) state;
	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	f[1] = (pm_field) {1, "v", pm_type_new(arena, PM_TYPE_BIGINT, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 2, false);
	s->noptions = 4;
	s->option_keys = keys;
	s->option_values = vals;
	pm_error_clear(&err);
	assert_int_equal(pm_table_create(env, io, "/d", s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(env, io, "/d", "user-d", &w, &err), PM_OK);
	for (int k = 0; k < UNIT_ROWS / 4000; k++)
	{
		assert_true(pm_vector_init(&col[0], f[0].type, 4000, false, arena));
		assert_true(pm_vector_init(&col[1], f[1].type, 4000, false, arena));
		for (int i = 0; i < 4000; i++)
		{
			PM_VEC_VALUES(&col[0], int32_t)[i] = k * 4000 + i;
			PM_VEC_VALUES(&col[1], int64_t)[i] = (int64_t) (k * 4000 + i) * 7919 % 100003;
		}
		col[0].length = col[1].length = 4000;
		b.nrows = 4000;
		b.first_row = 0;
		b.ncols = 2;
		b.cols = col;
		assert_int_equal(pm_table_writer_write(w, &b, NULL, &err), PM_OK);
	}
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);

	/* delete every row with id % 10 == 3, by its file position */
	assert_int_equal(pm_table_writer_open(env, io, "/d", "user-d2", &w, &err), PM_OK);
	assert_int_equal(pm_table_open(env, io, "/d", NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &sc, &err), PM_OK);
	assert_int_equal(pm_table_read_open_positions(sc, fields, 1, &read, &err), PM_OK);
	for (;;)
	{
		const pm_split *sp;
		const pm_data_file_meta *fm;
		const int64_t *pos;

		assert_int_equal(pm_table_read_next(read, &bt, &err), PM_OK);
		if (bt == NULL)
			break;
		pos = pm_table_read_positions(read, &sp, &fm);
		assert_non_null(pos);
		for (int64_t i = 0; i < bt->nrows; i++)
			if (PM_VEC_VALUES(&bt->cols[0], int32_t)[i] % 10 == 3)
			{
				pm_append_dv_file af = {sp->partition, sp->partition_len, sp->bucket,
				fm->file_name, fm->row_count, fm->deletion_file, sp->bucket_path};
				bool		again;

				assert_int_equal(pm_table_writer_delete_position(w, &af, pos[i],
																 pm_table_snapshot_id(table),
																 &again, &err), PM_OK);
				deleted++;
			}
	}
	pm_table_read_close(read);
	pm_scan_free(sc);
	pm_table_close(table);
	assert_int_equal(deleted, UNIT_ROWS / 10);
	assert_int_equal(pm_table_writer_commit(w, 2, &sid, &err), PM_OK);
	pm_table_writer_close(w);

	assert_int_equal(check_scan(io, "/d", "id", 64 * 1024), UNIT_ROWS - UNIT_ROWS / 10);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_files),
		cmocka_unit_test(test_pk_splits),
		cmocka_unit_test(test_one_file_by_row_groups),
		cmocka_unit_test(test_one_row_group_by_pages),
		cmocka_unit_test(test_one_row_group_with_dv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
