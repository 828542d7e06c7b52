/*-------------------------------------------------------------------------
 * test_resequence.c
 *	  Several writers of one primary-key bucket: renumbering level-0 files
 *	  (lsm/resequence.c) and the commit's sequence check (table/commit.c)
 *	  through table/table_write.c, on the memory FileIO.
 *	  - resequence: rows identical but _SEQUENCE_NUMBER + delta, metas
 *	    updated, the old file gone, nothing else in the directory.
 *	  - the interleaving: writer A numbers from snapshot S, writer B commits
 *	    higher numbers to the same bucket, A commits: A's rows win where
 *	    A's statement came last (commit order), no file left behind; with
 *	    compaction at commit too, and on a partial-update table.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "format/format_reader.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/kv_file_writer.h"
#include "lsm/resequence.h"
#include "table/schema.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"
#include "table/write_options.h"

#include "pk_fixture.h"

#define NROWS 300

static int
count_files(pm_fileio *io, const char *dir, pm_arena *arena)
{
	char	  **names;
	int			n;
	pm_error	err;

	assert_int_equal(io->list(io, dir, arena, &names, &n, &err), PM_OK);
	return n;
}

/*
 * A level-0 file of 300 rows (some -D) renumbered by 1000: every row
 * read back equal but its sequence number; the meta's sequence range
 * shifted, the rest (rows, keys, delete count, level) equal; the old file
 * gone. A delta <= 0 changes nothing.
 */
static void
test_resequence_files(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *tdir = "/mem/wh/db.db/reseq";
	const char *dir = "/mem/wh/db.db/reseq/bucket-0";
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"1"};
	pm_schema  *s = make_schema(arena, 1, keys, vals);
	pm_kv_layout *layout;
	pm_data_file_meta *files = pm_arena_zalloc(arena, sizeof(*files));
	pm_data_file_meta old;
	pm_error	err;
	static trow rows[NROWS];
	static int64_t seq[NROWS];
	static int8_t kind[NROWS];
	pm_format_reader *r;
	pm_format_read_options ropt;
	pm_batch   *b;
	int64_t		at = 0;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, tdir, s, &err), PM_OK);
	for (int i = 0; i < NROWS; i++)
	{
		rows[i] = (trow) {i * 2, i % 3 != 0, i * 7, i % 5 == 0 ? INT64_MIN : -i};
		seq[i] = 40 + (i * 13) % NROWS;	/* any order within the file */
		kind[i] = i % 11 == 0 ? PM_ROW_DELETE : PM_ROW_INSERT;
	}
	pk_kv_file(io, arena, tdir, dir, "u-1", rows, seq, kind, NROWS, files, &layout);
	assert_int_equal(files[0].min_sequence_number, 40);
	assert_int_equal(files[0].max_sequence_number, 40 + NROWS - 1);
	old = files[0];
	assert_int_equal(count_files(io, dir, arena), 1);

	/* refused: nothing changes */
	assert_int_equal(pm_resequence_files(pm_env_default(), io, layout, dir, files, 1, 0, arena,
										 &err), PM_ERR_INVALID);
	assert_string_equal(files[0].file_name, old.file_name);
	assert_true(io->exists(io, old.path));

	assert_int_equal(pm_resequence_files(pm_env_default(), io, layout, dir, files, 1, 1000, arena,
										 &err), PM_OK);
	assert_string_not_equal(files[0].file_name, old.file_name);
	assert_false(io->exists(io, old.path));
	assert_true(io->exists(io, files[0].path));
	assert_int_equal(count_files(io, dir, arena), 1);
	assert_int_equal(files[0].min_sequence_number, 1040);
	assert_int_equal(files[0].max_sequence_number, 1040 + NROWS - 1);
	assert_int_equal(files[0].row_count, NROWS);
	assert_int_equal(files[0].level, 0);
	assert_int_equal(files[0].delete_row_count, old.delete_row_count);
	assert_true(old.delete_row_count > 0);
	assert_int_equal(files[0].min_key_len, old.min_key_len);
	assert_memory_equal(files[0].min_key, old.min_key, (size_t) old.min_key_len);
	assert_int_equal(files[0].max_key_len, old.max_key_len);
	assert_memory_equal(files[0].max_key, old.max_key, (size_t) old.max_key_len);

	memset(&ropt, 0, sizeof(ropt));
	ropt.schema = layout->file_type;
	assert_int_equal(pm_format_reader_open(files[0].format, pm_env_default(), io, files[0].path,
										   &ropt, &r, &err), PM_OK);
	while (pm_format_reader_next(r, &b, &err) == PM_OK && b != NULL)
		for (int64_t i = 0; i < b->nrows; i++, at++)
		{
			const trow *t = &rows[at];

			assert_int_equal(PM_VEC_VALUES(&b->cols[0], int32_t)[i], t->id);
			assert_int_equal(PM_VEC_VALUES(&b->cols[1], int64_t)[i], seq[at] + 1000);
			assert_int_equal(PM_VEC_VALUES(&b->cols[2], int8_t)[i], kind[at]);
			assert_int_equal(PM_VEC_VALUES(&b->cols[3], int32_t)[i], t->id);
			assert_int_equal(pm_vector_is_null(&b->cols[4], i), !t->has_name);
			assert_int_equal(PM_VEC_VALUES(&b->cols[5], int64_t)[i], t->v);
			if (t->w == INT64_MIN)
				assert_true(pm_vector_is_null(&b->cols[6], i));
			else
				assert_int_equal(PM_VEC_VALUES(&b->cols[6], int64_t)[i], t->w);
		}
	pm_format_reader_close(r);
	assert_int_equal(at, NROWS);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* Every file of the bucket directory is live in the latest snapshot, and the reverse. */
static void
assert_no_orphans(pm_fileio *io, const char *tdir, const char *bdir, pm_arena *arena)
{
	pm_table   *table;
	pm_scan    *scan;
	pm_error	err;
	int			live = 0;
	char	  **names;
	int			n;

	assert_int_equal(pm_table_open(pm_env_default(), io, tdir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan_every_level(table, &scan, &err), PM_OK);
	assert_int_equal(io->list(io, bdir, arena, &names, &n, &err), PM_OK);
	for (int i = 0; i < pm_scan_split_count(scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		for (int f = 0; f < sp->nfiles; f++)
		{
			bool		found = false;

			for (int k = 0; k < n && !found; k++)
				found = strcmp(names[k], sp->files[f]->file_name) == 0;
			assert_true(found);
			live++;
		}
	}
	assert_int_equal(n, live);
	pm_scan_free(scan);
	pm_table_close(table);
}

/*
 * Writer A takes its numbers from snapshot 1 (key 1 := 100); writer B,
 * opened later, writes keys 20..24 then key 1 := 200 and commits first,
 * so B's record of key 1 has the higher number A also used for its own
 * key 1. A commits last: A's record must win (commit order), A's files
 * renumbered above B's, nothing left on disk. Without the check B's 200
 * would win (its sequence number is higher).
 */
static void
interleave(bool compact)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/inter";
	static const char *keys[] = {"bucket", "num-sorted-run.compaction-trigger"};
	static const char *vals[] = {"1", "2"};
	pm_schema  *s = make_schema(arena, 2, keys, vals);
	pm_table_writer *w0,
			   *a,
			   *b;
	pm_error	err;
	trow		rows[16];
	uint8_t		kinds[16];
	static result r;
	int64_t		sid;

	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	w0 = open_writer(io, dir);
	pm_table_writer_set_compaction(w0, false);
	for (int i = 0; i < 10; i++)
	{
		rows[i] = (trow) {i, true, i, 0};
		kinds[i] = PM_ROW_INSERT;
	}
	write_kinds(w0, arena, rows, kinds, 10);
	commit(w0, 1, 1);
	pm_table_writer_close(w0);

	a = open_writer(io, dir);
	pm_table_writer_set_compaction(a, compact);
	rows[0] = (trow) {1, true, 100, 1};
	write_kinds(a, arena, rows, kinds, 1);	/* A numbers from snapshot 1: seq 10 */

	b = open_writer(io, dir);
	pm_table_writer_set_compaction(b, false);
	for (int i = 0; i < 5; i++)
		rows[i] = (trow) {20 + i, true, 20 + i, 2};
	rows[5] = (trow) {1, true, 200, 2};
	write_kinds(b, arena, rows, kinds, 6);	/* seq 10..15, key 1 has 15 */
	commit(b, 1, 2);
	pm_table_writer_close(b);

	if (pm_table_writer_commit(a, 1, &sid, &err) != PM_OK)
		fail_msg("commit: %s", err.message);
	assert_int_equal(sid, 3);
	if (compact)
	{
		const pm_writer_compaction *wc = pm_table_writer_compaction(a);

		assert_false(wc->failed);
		assert_int_equal(wc->snapshot_id, 4);
	}
	pm_table_writer_close(a);

	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 15);
	assert_true(r.present[1]);
	assert_int_equal(r.v[1], 100);
	assert_int_equal(r.w[1], 1);
	for (int i = 20; i < 25; i++)
		assert_int_equal(r.v[i], i);
	if (!compact)
	{
		pm_table   *t;
		pm_scan    *scan;
		int64_t		b_max = -1,
					a_min = -1;

		assert_no_orphans(io, dir, "/mem/wh/db.db/inter/bucket-0", arena);
		/* three level-0 files: w0's (0..9), B's (10..15), A's renumbered (16) */
		assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &t, &err), PM_OK);
		assert_int_equal(pm_table_scan_plan_every_level(t, &scan, &err), PM_OK);
		assert_int_equal(pm_scan_split_count(scan), 1);
		assert_int_equal(pm_scan_get_split(scan, 0)->nfiles, 3);
		for (int f = 0; f < 3; f++)
		{
			const pm_data_file_meta *m = pm_scan_get_split(scan, 0)->files[f];

			if (m->row_count == 6)
				b_max = m->max_sequence_number;
			if (m->row_count == 1)
				a_min = m->min_sequence_number;
		}
		assert_int_equal(b_max, 15);
		assert_int_equal(a_min, 16);
		pm_scan_free(scan);
		pm_table_close(t);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_interleave(void **state)
{
	(void) state;
	interleave(false);
}

static void
test_interleave_compact(void **state)
{
	(void) state;
	interleave(true);
}

/*
 * The check when a snapshot after the writer's base has expired: A numbers
 * from snapshot 1, B commits snapshots 2 (key 1 := 200, high number) and 3,
 * snapshot 2's file goes (as expiry would remove it): A's check falls back
 * to snapshot 3's live files, still sees B's numbers, renumbers, and wins.
 */
static void
test_interleave_expired(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/expired";
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"1"};
	pm_schema  *s = make_schema(arena, 1, keys, vals);
	pm_table_writer *w0,
			   *a,
			   *b;
	pm_error	err;
	trow		rows[8];
	uint8_t		kinds[8] = {0};
	static result r;
	int64_t		sid;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	w0 = open_writer(io, dir);
	rows[0] = (trow) {1, true, 1, 0};
	write_kinds(w0, arena, rows, kinds, 1);
	commit(w0, 1, 1);
	pm_table_writer_close(w0);

	a = open_writer(io, dir);
	pm_table_writer_set_compaction(a, false);
	rows[0] = (trow) {1, true, 100, 1};
	write_kinds(a, arena, rows, kinds, 1);
	b = open_writer(io, dir);
	pm_table_writer_set_compaction(b, false);
	for (int i = 0; i < 5; i++)
		rows[i] = (trow) {20 + i, true, 20 + i, 2};
	rows[5] = (trow) {1, true, 200, 2};
	write_kinds(b, arena, rows, kinds, 6);
	commit(b, 1, 2);
	rows[0] = (trow) {30, true, 30, 3};
	write_kinds(b, arena, rows, kinds, 1);
	commit(b, 2, 3);
	pm_table_writer_close(b);
	assert_int_equal(io->remove(io, "/mem/wh/db.db/expired/snapshot/snapshot-2", &err), PM_OK);

	if (pm_table_writer_commit(a, 1, &sid, &err) != PM_OK)
		fail_msg("commit: %s", err.message);
	assert_int_equal(sid, 4);
	pm_table_writer_close(a);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 7);
	assert_int_equal(r.v[1], 100);
	assert_int_equal(r.v[30], 30);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * The wide-table pattern on a partial-update table, compaction at commit
 * on (trigger 2): A, B and C open at the same snapshot; B writes keys
 * 2..6 then w := 5 of key 1, A w := 6 of key 1, C v := 7 of key 1. B
 * commits, then A (renumbered, then compacted), then C (renumbered again).
 * Key 1 ends with v 7 and w 6: each column has its last committed value.
 * Without the check B's w (the highest number) would win.
 */
static void
test_partial_update_sessions(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/wide";
	static const char *keys[] = {"bucket", "merge-engine", "num-sorted-run.compaction-trigger"};
	static const char *vals[] = {"1", "partial-update", "2"};
	pm_schema  *s = make_schema(arena, 3, keys, vals);
	pm_table_writer *a,
			   *b,
			   *c;
	trow		rows[8];
	uint8_t		kinds[8] = {0};
	static result r;
	pm_error	err;
	int64_t		sid;
	int			compactions = 0;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	a = open_writer(io, dir);
	rows[0] = (trow) {1, false, 1, 1};
	write_kinds(a, arena, rows, kinds, 1);
	commit(a, 1, 1);
	pm_table_writer_close(a);

	a = open_writer(io, dir);
	b = open_writer(io, dir);
	c = open_writer(io, dir);
	for (int i = 0; i < 5; i++)
		rows[i] = (trow) {2 + i, false, 2 + i, INT64_MIN};
	rows[5] = (trow) {1, false, INT64_MIN, 5};
	write_kinds(b, arena, rows, kinds, 6);
	rows[0] = (trow) {1, false, INT64_MIN, 6};
	write_kinds(a, arena, rows, kinds, 1);
	rows[0] = (trow) {1, false, 7, INT64_MIN};
	write_kinds(c, arena, rows, kinds, 1);
	if (pm_table_writer_commit(b, 1, &sid, &err) != PM_OK)
		fail_msg("commit b: %s", err.message);
	assert_int_equal(sid, 2);
	compactions += pm_table_writer_compaction(b)->snapshot_id != 0;
	if (pm_table_writer_commit(a, 1, &sid, &err) != PM_OK)
		fail_msg("commit a: %s", err.message);
	compactions += pm_table_writer_compaction(a)->snapshot_id != 0;
	assert_false(pm_table_writer_compaction(a)->failed);
	read_all(io, dir, &r);
	assert_int_equal(r.v[1], 1);
	assert_int_equal(r.w[1], 6);
	if (pm_table_writer_commit(c, 1, &sid, &err) != PM_OK)
		fail_msg("commit c: %s", err.message);
	compactions += pm_table_writer_compaction(c)->snapshot_id != 0;
	assert_false(pm_table_writer_compaction(c)->failed);
	pm_table_writer_close(a);
	pm_table_writer_close(b);
	pm_table_writer_close(c);
	assert_true(compactions >= 1);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 6);
	assert_int_equal(r.v[1], 7);
	assert_int_equal(r.w[1], 6);
	for (int i = 2; i < 7; i++)
		assert_int_equal(r.v[i], i);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resequence_files),
		cmocka_unit_test(test_interleave),
		cmocka_unit_test(test_interleave_compact),
		cmocka_unit_test(test_interleave_expired),
		cmocka_unit_test(test_partial_update_sessions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
