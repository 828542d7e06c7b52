/*-------------------------------------------------------------------------
 * test_write_buffer.c
 *	  The write buffer's memory (src/lsm/write_buffer.c), which
 *	  write-buffer-size bounds: while records come in, the buffer holds (and
 *	  counts, room for records to come included) at most about twice what
 *	  its records take (growing keeps no old copy of its vectors); a spill frees the vectors and the sort's scratch (what
 *	  the buffer holds from its allocator, counted or not, drops to about
 *	  nothing), and the records that come fill new ones; spilled runs plus
 *	  the records still in memory flush to one sorted run with one record
 *	  per key.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/arena.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/kv_file_writer.h"
#include "lsm/merge_engine.h"
#include "lsm/write_buffer.h"
#include "pk_fixture.h"
#include "table/write_options.h"

#define NIDS 50000

/* An allocator that counts the bytes held (malloc, each block's size in a 16-byte header). */
static int64_t held;

static void *
counting_alloc(void *opaque, size_t size)
{
	char	   *p = malloc(size + 16);

	(void) opaque;
	if (p == NULL)
		return NULL;
	*(size_t *) p = size;
	held += (int64_t) size;
	return p + 16;
}

static void
counting_free(void *opaque, void *ptr)
{
	char	   *p = (char *) ptr - 16;

	(void) opaque;
	held -= (int64_t) *(size_t *) p;
	free(p);
}

static const pm_env counting_env = {counting_alloc, counting_free, NULL, NULL, NULL};

/* Bytes the records of a buffer take at least: id, v, w, name offset and bytes, nulls, seq, kind. */
static int64_t
live_bytes(int64_t n)
{
	return n * (4 + 8 + 8 + 4 + 6 + 4 + 8 + 1);
}

static void
test_memory_and_spill(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"1"};
	pm_schema  *s = make_schema(arena, 1, keys, vals);
	pm_write_options opt;
	pm_kv_layout *layout;
	pm_merge_engine *engine,
			   *run_engine;
	int			all[4] = {0, 1, 2, 3};
	pm_write_buffer *buf;
	pm_error	err;
	char		dir[] = "/tmp/pm_write_buffer_test_XXXXXX";
	trow		rows[1000];
	int64_t		seq = 0;
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_kv_file_writer *fw;
	pm_data_file_meta *files;
	int			nfiles;
	int64_t		counter = 0,
				total = 0;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(pm_write_options_parse(s, arena, &opt, &err), PM_OK);
	assert_int_equal(pm_kv_layout_create(s, &opt, arena, &layout, &err), PM_OK);
	assert_int_equal(pm_merge_engine_create(s, all, 4, 0, arena, &engine, &err), PM_OK);
	assert_int_equal(pm_merge_engine_create(s, all, 4, layout->nkeys + 2, arena, &run_engine,
											&err), PM_OK);
	assert_int_equal(pm_write_buffer_create(&counting_env, layout, engine, run_engine, dir,
											&buf, &err), PM_OK);
	assert_int_equal(pm_write_buffer_memory(buf), 0);	/* nothing before the first record */
	held = 0;

	/* 3 rounds of NIDS keys: spill after the first two, the third stays in memory */
	for (int round = 0; round < 3; round++)
	{
		for (int start = 0; start < NIDS; start += 1000)
		{
			pm_batch   *b;

			for (int i = 0; i < 1000; i++)
				rows[i] = (trow) {(start + i) * 7 % NIDS, true, 100000 + round * NIDS + start + i, round};
			b = make_batch(arena, s->row_type, rows, 1000);
			for (int i = 0; i < 1000; i++)
			{
				assert_int_equal(pm_write_buffer_put(buf, b, i, seq++, 0, &err), PM_OK);
				/* after a spill: new vectors with room for few records */
				if (round > 0 && start == 0 && i == 0)
					assert_true(pm_write_buffer_memory(buf) <= 80 * 1024 + live_bytes(1));
			}
			/* the records' bytes at least (room included), at most about twice them */
			assert_true(pm_write_buffer_memory(buf) >= live_bytes(pm_write_buffer_size(buf)));
			assert_true(pm_write_buffer_memory(buf) <=
						2 * live_bytes(pm_write_buffer_size(buf)) + 256 * 1024);
		}
		assert_int_equal(pm_write_buffer_size(buf), NIDS);
		assert_true(held >= live_bytes(NIDS));	/* (the count sees the records) */
		if (round < 2)
		{
			assert_int_equal(pm_write_buffer_spill(buf, &err), PM_OK);
			assert_int_equal(pm_write_buffer_spill_count(buf), round + 1);
			assert_int_equal(pm_write_buffer_size(buf), 0);
			/* the vectors and the sort's scratch are freed: little held, little counted */
			assert_true(pm_write_buffer_memory(buf) <= 80 * 1024);
			assert_true(held <= 256 * 1024);
		}
	}
	assert_int_equal(pm_kv_file_writer_open(pm_env_default(), io, layout, "/mem/t/bucket-0",
											"00000000-0000-0000-0000-000000000000", &counter,
											arena, &fw, &err), PM_OK);
	assert_int_equal(pm_write_buffer_flush(buf, fw, &err), PM_OK);
	assert_int_equal(pm_kv_file_writer_close(fw, &files, &nfiles, &err), PM_OK);
	assert_true(nfiles >= 1);
	for (int f = 0; f < nfiles; f++)
	{
		total += files[f].row_count;
		assert_int_equal(files[f].max_sequence_number, 3 * NIDS - 1);
	}
	assert_int_equal(total, NIDS);	/* one record per key */
	assert_int_equal(pm_write_buffer_spill_count(buf), 0);
	pm_write_buffer_free(buf);
	assert_int_equal(rmdir(dir), 0);	/* every spill file removed */
	pm_merge_engine_destroy(engine);
	pm_merge_engine_destroy(run_engine);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(arena);
}


/*
 * Spilled runs of disjoint key ranges (rows come in key order, the usual
 * bulk load): the merge copies each run's single records in spans
 * (singles_ahead), keys written twice within a run and a key of the first
 * run written again in the last still merge to one record each; the rows
 * go in through pm_write_buffer_put_rows, a bucket's rows in one call.
 */
static void
test_disjoint_runs(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"1"};
	pm_schema  *s = make_schema(arena, 1, keys, vals);
	pm_write_options opt;
	pm_kv_layout *layout;
	pm_merge_engine *engine,
			   *run_engine;
	int			all[4] = {0, 1, 2, 3};
	pm_write_buffer *buf;
	pm_error	err;
	char		dir[] = "/tmp/pm_write_buffer_test_XXXXXX";
	trow		rows[1200];
	int64_t		idx[1200];
	int64_t		seq = 0;
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_kv_file_writer *fw;
	pm_data_file_meta *files;
	int			nfiles;
	int64_t		counter = 0,
				total = 0,
				nput = 0;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(pm_write_options_parse(s, arena, &opt, &err), PM_OK);
	assert_int_equal(pm_kv_layout_create(s, &opt, arena, &layout, &err), PM_OK);
	assert_int_equal(pm_merge_engine_create(s, all, 4, 0, arena, &engine, &err), PM_OK);
	assert_int_equal(pm_merge_engine_create(s, all, 4, layout->nkeys + 2, arena, &run_engine,
											&err), PM_OK);
	assert_int_equal(pm_write_buffer_create(pm_env_default(), layout, engine, run_engine, dir,
											&buf, &err), PM_OK);
	for (int round = 0; round < 3; round++)
	{
		for (int start = 0; start < NIDS; start += 1000)
		{
			int			n = 0;
			pm_batch   *b;

			for (int i = 0; i < 1000; i++)
			{
				int			id = round * NIDS + start + i;

				rows[n++] = (trow) {id, true, id, round};
				if (i % 10 == 3)	/* the key again, right after */
					rows[n++] = (trow) {id, i % 20 == 3, -id, round};
			}
			if (round == 2 && start == 0)
				rows[n++] = (trow) {5, true, 5, round};	/* a key of the first run */
			b = make_batch(arena, s->row_type, rows, n);
			for (int i = 0; i < n; i++)
				idx[i] = i;
			assert_int_equal(pm_write_buffer_put_rows(buf, b, idx, n, seq, NULL, &err), PM_OK);
			seq += n;
			nput += n;
		}
		if (round < 2)
			assert_int_equal(pm_write_buffer_spill(buf, &err), PM_OK);
	}
	assert_int_equal(pm_write_buffer_spill_count(buf), 2);
	assert_int_equal(pm_kv_file_writer_open(pm_env_default(), io, layout, "/mem/t/bucket-0",
											"00000000-0000-0000-0000-000000000000", &counter,
											arena, &fw, &err), PM_OK);
	assert_int_equal(pm_write_buffer_flush(buf, fw, &err), PM_OK);
	assert_int_equal(pm_kv_file_writer_close(fw, &files, &nfiles, &err), PM_OK);
	assert_true(nfiles >= 1);
	for (int f = 0; f < nfiles; f++)
	{
		total += files[f].row_count;
		assert_true(files[f].max_sequence_number <= nput - 1);
	}
	assert_int_equal(files[nfiles - 1].max_sequence_number, nput - 1);
	assert_int_equal(total, 3 * NIDS);	/* one record per key */
	pm_write_buffer_free(buf);
	assert_int_equal(rmdir(dir), 0);
	pm_merge_engine_destroy(engine);
	pm_merge_engine_destroy(run_engine);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_and_spill),
		cmocka_unit_test(test_disjoint_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
