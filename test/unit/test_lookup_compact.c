/*-------------------------------------------------------------------------
 * test_lookup_compact.c
 *	  Writing deletion-vector and first-row tables (lsm/lookup_compact.c
 *	  through the table writer) on the memory FileIO, the table of
 *	  pk_fixture.h (names NULL): every commit is an APPEND and a COMPACT
 *	  snapshot after which no level-0 file is left, the
 *	  batch read (which skips level 0) sees the rows of the commit at once,
 *	  the deletion vectors mark exactly the older rows overwritten, the
 *	  first row of a key wins across and within commits, partial-update
 *	  merges the older row's values, and refusals; paimon_compact's full
 *	  compaction of such tables (pm_lookup_compact_full): DVs applied and
 *	  dropped from the DV index, FileRewriteCompactTask when forced.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "index/deletion_vector.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "table/index_manifest.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#include "pk_fixture.h"

#define NUL INT64_MIN

/* One writer, one write (kinds or NULL), one commit that must get want_sid. */
static void
write_commit(pm_fileio *io, const char *dir, pm_arena *arena, const trow *rows,
			 const uint8_t *kinds, int n, int64_t want_sid)
{
	pm_table_writer *w = open_writer(io, dir);

	write_kinds(w, arena, rows, kinds, n);
	commit(w, 1, want_sid);
	pm_table_writer_close(w);
}

/* Files of the latest snapshot (every level): counts per level and total DV cardinality. */
typedef struct file_state
{
	int			per_level[8];
	int			nfiles;
	int64_t		dv_positions;
	int			ndv_files;
	int64_t		dv_rows_deleted_in_l5;
} file_state;

static void
files_of(pm_fileio *io, const char *dir, file_state *fs)
{
	pm_table   *table;
	pm_scan    *scan;
	pm_error	err;

	memset(fs, 0, sizeof(*fs));
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan_every_level(table, &scan, &err), PM_OK);
	for (int i = 0; i < pm_scan_split_count(scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *m = sp->files[f];

			assert_true(m->level >= 0 && m->level < 8);
			fs->per_level[m->level]++;
			fs->nfiles++;
			if (m->deletion_file != NULL)
			{
				pm_deletion_vector *dv;

				assert_int_equal(pm_deletion_vector_read(pm_env_default(), io, m->deletion_file->path,
														 m->deletion_file->offset,
														 m->deletion_file->length, &dv, &err),
								 PM_OK);
				assert_int_equal(pm_deletion_vector_check(dv, m->row_count,
														  m->deletion_file->cardinality, &err),
								 PM_OK);
				fs->dv_positions += (int64_t) pm_deletion_vector_cardinality(dv);
				fs->ndv_files++;
				pm_deletion_vector_destroy(dv);
			}
		}
	}
	pm_scan_free(scan);
	pm_table_close(table);
}

static const char *
commit_kind(pm_fileio *io, const char *dir, int64_t id)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot *snap;
	pm_error	err;
	static char kind[32];

	if (pm_snapshot_load(io, dir, id, arena, &snap, &err) != PM_OK)
		fail_msg("snapshot %lld: %s", (long long) id, err.message);
	snprintf(kind, sizeof(kind), "%s", snap->commit_kind);
	pm_arena_destroy(arena);
	return kind;
}

static void
test_dv_dedup(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/dv";
	static const char *keys[] = {"bucket", "deletion-vectors.enabled"};
	static const char *vals[] = {"1", "true"};
	pm_error	err;
	trow		rows[MAXID];
	uint8_t		kinds[MAXID];
	result		r;
	file_state	fs;
	int			n = 0;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 2, keys, vals),
									 &err), PM_OK);
	for (int i = 0; i < 100; i++)
	{
		rows[n] = (trow) {i, false, i, 1};
		kinds[n++] = PM_ROW_INSERT;
	}
	write_commit(io, dir, arena, rows, kinds, n, 2);
	assert_string_equal(commit_kind(io, dir, 1), "APPEND");
	assert_string_equal(commit_kind(io, dir, 2), "COMPACT");
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 100);
	assert_true(r.v[42] == 42);
	/* the level-0 file went up to the max level (5) as it was */
	files_of(io, dir, &fs);
	assert_int_equal(fs.nfiles, 1);
	assert_int_equal(fs.per_level[5], 1);
	assert_int_equal(fs.ndv_files, 0);

	/* update 0..49, delete 90..94, in one commit */
	n = 0;
	for (int i = 0; i < 50; i++)
	{
		rows[n] = (trow) {i, false, 1000 + i, 2};
		kinds[n++] = PM_ROW_INSERT;
	}
	for (int i = 90; i < 95; i++)
	{
		rows[n] = (trow) {i, false, NUL, NUL};
		kinds[n++] = PM_ROW_DELETE;
	}
	write_commit(io, dir, arena, rows, kinds, n, 4);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 95);
	assert_true(r.v[0] == 1000 && r.w[0] == 2);
	assert_true(r.v[49] == 1049);
	assert_true(r.v[50] == 50 && r.w[50] == 1);
	assert_false(r.present[92]);
	files_of(io, dir, &fs);
	assert_int_equal(fs.per_level[0], 0);
	assert_int_equal(fs.per_level[5], 1);
	assert_int_equal(fs.per_level[4], 1);	/* rewritten (it had delete rows), without them */
	assert_int_equal(fs.ndv_files, 1);
	assert_int_equal(fs.dv_positions, 55);

	/* a key of level 4 and one of level 5 again, a new key */
	n = 0;
	rows[n] = (trow) {10, false, 7777, 3};
	kinds[n++] = PM_ROW_INSERT;
	rows[n] = (trow) {60, false, 6060, 3};
	kinds[n++] = PM_ROW_INSERT;
	rows[n] = (trow) {500, false, 5, 3};
	kinds[n++] = PM_ROW_INSERT;
	write_commit(io, dir, arena, rows, kinds, n, 6);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 96);
	assert_true(r.v[10] == 7777 && r.v[60] == 6060 && r.v[500] == 5 && r.v[11] == 1011);
	files_of(io, dir, &fs);
	assert_int_equal(fs.per_level[0], 0);
	/* 55 + the row of 60 in level 5 (10 is in level 4, merged with level 0 into level 3) */
	assert_int_equal(fs.dv_positions, 56 + (fs.per_level[4] == 1 ? 1 : 0));
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_first_row(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/fr";
	static const char *keys[] = {"bucket", "merge-engine"};
	static const char *vals[] = {"2", "first-row"};
	pm_error	err;
	trow		rows[MAXID];
	result		r;
	file_state	fs;
	pm_table_writer *w;
	int			n = 0;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 2, keys, vals),
									 &err), PM_OK);
	for (int i = 0; i < 100; i++)
		rows[n++] = (trow) {i, false, i, 1};
	rows[n++] = (trow) {7, false, 700, 1};	/* within the commit: the first wins */
	write_commit(io, dir, arena, rows, NULL, n, 2);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 100);
	assert_true(r.v[7] == 7);

	n = 0;
	for (int i = 50; i < 150; i++)
		rows[n++] = (trow) {i, false, 1000 + i, 2};
	write_commit(io, dir, arena, rows, NULL, n, 4);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 150);
	assert_true(r.v[60] == 60 && r.w[60] == 1);
	assert_true(r.v[120] == 1120 && r.w[120] == 2);
	files_of(io, dir, &fs);
	assert_int_equal(fs.per_level[0], 0);
	assert_int_equal(fs.ndv_files, 0);

	/*
	 * Java's FirstRowMergeFunction keeps the first record with its own
	 * sequence number: 0, 1, 2, then 0 again (seq 3, dropped) make a file
	 * of sequence range 0-2 (seen 0-3 before the write buffer knew)
	 */
	{
		static const char *k1[] = {"bucket", "merge-engine"};
		static const char *v1[] = {"1", "first-row"};
		pm_table   *table;
		pm_scan    *scan;
		const pm_split *sp;

		assert_int_equal(pm_table_create(pm_env_default(), io, "/mem/wh/db.db/fr1",
										 make_schema(arena, 2, k1, v1), &err), PM_OK);
		rows[0] = (trow) {0, false, 0, 0};
		rows[1] = (trow) {1, false, 1, 0};
		rows[2] = (trow) {2, false, 2, 0};
		rows[3] = (trow) {0, false, 9, 9};
		write_commit(io, "/mem/wh/db.db/fr1", arena, rows, NULL, 4, 2);
		assert_int_equal(pm_table_open(pm_env_default(), io, "/mem/wh/db.db/fr1", NULL, &table, &err),
						 PM_OK);
		assert_int_equal(pm_table_scan_plan_every_level(table, &scan, &err), PM_OK);
		assert_int_equal(pm_scan_split_count(scan), 1);
		sp = pm_scan_get_split(scan, 0);
		assert_int_equal(sp->nfiles, 1);
		assert_int_equal(sp->files[0]->min_sequence_number, 0);
		assert_int_equal(sp->files[0]->max_sequence_number, 2);
		assert_int_equal(sp->files[0]->row_count, 3);
		pm_scan_free(scan);
		pm_table_close(table);
		read_all(io, "/mem/wh/db.db/fr1", &r);
		assert_true(r.v[0] == 0);
	}

	/* first-row takes no deletes */
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "u", &w, &err), PM_OK);
	assert_int_equal(pm_table_writer_accepts(w, PM_ROW_DELETE, &err), PM_ERR_UNSUPPORTED);
	pm_table_writer_close(w);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* partial-update with DVs: the older row's values are merged in (PersistValueAndPos). */
static void
test_dv_partial_update(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/pu";
	static const char *keys[] = {"bucket", "deletion-vectors.enabled", "merge-engine"};
	static const char *vals[] = {"1", "true", "partial-update"};
	pm_error	err;
	trow		rows[MAXID];
	result		r;
	file_state	fs;
	int			n = 0;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 3, keys, vals),
									 &err), PM_OK);
	for (int i = 0; i < 20; i++)
		rows[n++] = (trow) {i, false, i, NUL};
	write_commit(io, dir, arena, rows, NULL, n, 2);
	n = 0;
	for (int i = 0; i < 10; i++)
		rows[n++] = (trow) {i, false, NUL, 100 + i};
	write_commit(io, dir, arena, rows, NULL, n, 4);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 20);
	assert_true(r.v[3] == 3 && r.w[3] == 103);
	assert_true(r.v[15] == 15 && r.w[15] == NUL);
	files_of(io, dir, &fs);
	assert_int_equal(fs.per_level[0], 0);
	assert_int_equal(fs.dv_positions, 10);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}


/* The DV index entries of the latest snapshot: ranges in total, and every range names a live file. */
static int
dv_index_ranges(pm_fileio *io, const char *dir)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot *snap;
	pm_index_manifest_entry *e;
	pk_files	pf;
	int			n,
				ranges = 0;
	int64_t		latest;
	pm_error	err;

	assert_int_equal(pm_snapshot_latest_id(io, dir, arena, &latest, &err), PM_OK);
	assert_int_equal(pm_snapshot_load(io, dir, latest, arena, &snap, &err), PM_OK);
	if (snap->index_manifest == NULL)
	{
		pm_arena_destroy(arena);
		return -1;
	}
	assert_int_equal(pm_index_manifest_read(pm_env_default(), io,
											pm_arena_sprintf(arena, "%s/manifest/%s", dir,
															 snap->index_manifest),
											arena, &e, &n, &err), PM_OK);
	pk_files_open(io, dir, true, &pf);
	for (int i = 0; i < n; i++)
	{
		if (strcmp(e[i].index_type, "DELETION_VECTORS") != 0)
			continue;
		assert_int_equal(e[i].kind, 0);
		for (int r = 0; r < e[i].nranges; r++)
		{
			bool		live = false;

			for (int f = 0; f < pf.n; f++)
				live |= strcmp(pf.files[f]->file_name, e[i].ranges[r].data_file) == 0;
			assert_true(live);
			ranges++;
		}
	}
	pk_files_close(&pf);
	pm_arena_destroy(arena);
	return ranges;
}

/*
 * paimon_compact (pm_table_compact -> pm_lookup_compact_full) of a DV
 * table: levels 4 and 5 with a DV on level 5 become one file at level 5,
 * the DVs applied and gone from the DV index; a second compaction has
 * nothing to do; with compaction.force-rewrite-all-files a bucket of one
 * run at the max level is rewritten file by file (FileRewriteCompactTask).
 */
static void
test_dv_full_compact(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "deletion-vectors.enabled",
	"compaction.force-rewrite-all-files"};
	static const char *vals[] = {"1", "true", "false"};
	pm_error	err;
	trow		rows[MAXID];
	uint8_t		kinds[MAXID];
	result		before,
				after;
	file_state	fs;
	pm_compact_result res;

	(void) state;
	for (int force = 0; force < 2; force++)
	{
		const char *dir = force ? "/mem/wh/db.db/dvf2" : "/mem/wh/db.db/dvf";
		int			n = 0;

		vals[2] = force ? "true" : "false";
		assert_int_equal(pm_table_create(pm_env_default(), io, dir,
										 make_schema(arena, 3, keys, vals), &err), PM_OK);
		for (int i = 0; i < 100; i++)
		{
			rows[n] = (trow) {i, false, i, 1};
			kinds[n++] = PM_ROW_INSERT;
		}
		write_commit(io, dir, arena, rows, kinds, n, 2);
		n = 0;
		for (int i = 0; i < 50; i++)
		{
			rows[n] = (trow) {i, false, 1000 + i, 2};
			kinds[n++] = PM_ROW_INSERT;
		}
		for (int i = 90; i < 95; i++)
		{
			rows[n] = (trow) {i, false, NUL, NUL};
			kinds[n++] = PM_ROW_DELETE;
		}
		write_commit(io, dir, arena, rows, kinds, n, 4);
		files_of(io, dir, &fs);
		assert_int_equal(fs.per_level[4], 1);
		assert_int_equal(fs.per_level[5], 1);
		assert_int_equal(fs.dv_positions, 55);
		assert_int_equal(dv_index_ranges(io, dir), 1);
		read_all(io, dir, &before);
		assert_int_equal(before.nrows, 95);

		pk_full_compact(io, dir, NULL, &res);
		assert_int_equal(res.snapshot_id, 5);
		assert_string_equal(commit_kind(io, dir, 5), "COMPACT");
		assert_int_equal(res.buckets, 1);
		assert_int_equal(res.files_in, 2);
		assert_int_equal(res.files_out, 1);
		assert_int_equal(res.rows_out, 95);
		read_all(io, dir, &after);
		pk_assert_same(&before, &after);
		assert_true(after.v[0] == 1000 && after.v[60] == 60 && !after.present[92]);
		files_of(io, dir, &fs);
		assert_int_equal(fs.nfiles, 1);
		assert_int_equal(fs.per_level[5], 1);
		assert_int_equal(fs.ndv_files, 0);
		/* the rewritten file's DV left the index (a new index file, no range) */
		assert_int_equal(dv_index_ranges(io, dir), 0);

		/* one run at the max level, no DV: nothing to do, unless forced */
		pk_full_compact(io, dir, NULL, &res);
		if (!force)
		{
			assert_int_equal(res.snapshot_id, 0);
			assert_int_equal(res.buckets, 0);
		}
		else
		{
			assert_int_equal(res.snapshot_id, 6);
			assert_int_equal(res.files_in, 1);
			assert_int_equal(res.files_out, 1);
			assert_int_equal(res.rows_out, 95);
			read_all(io, dir, &after);
			pk_assert_same(&before, &after);
			files_of(io, dir, &fs);
			assert_int_equal(fs.nfiles, 1);
			assert_int_equal(fs.per_level[5], 1);
		}
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * first-row with ignore-delete: the full compaction keeps each key's first
 * value (the commits' lookup compaction dropped the later ones already).
 */
static void
test_first_row_full_compact(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/frf";
	static const char *keys[] = {"bucket", "merge-engine", "ignore-delete", "num-levels"};
	static const char *vals[] = {"2", "first-row", "true", "3"};
	pm_error	err;
	trow		rows[MAXID];
	uint8_t		kinds[MAXID];
	result		before,
				after;
	file_state	fs;
	pm_compact_result res;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 4, keys, vals),
									 &err), PM_OK);
	for (int c = 0; c < 3; c++)
	{
		int			n = 0;

		for (int i = c * 20; i < 100 + c * 20; i++)
		{
			rows[n] = (trow) {i, false, i * 10 + c, c};
			kinds[n++] = PM_ROW_INSERT;
		}
		rows[n] = (trow) {c, false, NUL, NUL};
		kinds[n++] = PM_ROW_DELETE;
		write_commit(io, dir, arena, rows, kinds, n, 2 * c + 2);
	}
	read_all(io, dir, &before);
	assert_int_equal(before.nrows, 140);
	assert_true(before.v[50] == 500 && before.v[110] == 1101 && before.present[0]);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 7);
	read_all(io, dir, &after);
	pk_assert_same(&before, &after);
	files_of(io, dir, &fs);
	assert_int_equal(fs.nfiles, fs.per_level[2]);
	assert_int_equal(fs.nfiles, 2);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_refusals(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "deletion-vectors.enabled", "merge-engine"};
	static const char *vals[] = {"1", "true", "first-row"};
	pm_table_writer *w;
	pm_error	err;

	char	   *json;
	size_t		len;
	pm_schema  *s;

	(void) state;
	/* Java's SchemaValidation refuses the pair at creation (test_schema_validation.c) ... */
	assert_int_equal(pm_table_create(pm_env_default(), io, "/mem/wh/db.db/x",
									 make_schema(arena, 3, keys, vals), &err), PM_ERR_INVALID);
	/* ... and the writer refuses a schema file that has it anyway */
	s = make_schema(arena, 3, keys, vals);
	for (int i = 0; i < s->row_type->nfields; i++)
		((pm_field *) s->row_type->fields)[i].id = i;
	s->highest_field_id = s->row_type->nfields - 1;
	assert_int_equal(pm_schema_to_json(s, arena, &json, &len, &err), PM_OK);
	assert_int_equal(io->mkdirs(io, "/mem/wh/db.db/x/schema", &err), PM_OK);
	assert_int_equal(io->write_new(io, "/mem/wh/db.db/x/schema/schema-0", json, len, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, "/mem/wh/db.db/x", "u", &w, &err),
					 PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "merge engine does not need deletion vectors"));
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dv_dedup),
		cmocka_unit_test(test_first_row),
		cmocka_unit_test(test_dv_partial_update),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_dv_full_compact),
		cmocka_unit_test(test_first_row_full_compact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
