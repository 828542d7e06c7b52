/*-------------------------------------------------------------------------
 * test_changelog_write.c
 *	  changelog-producer = input (lsm/merge_tree_writer.c, write_buffer.c,
 *	  table/commit.c) on the memory FileIO: a commit's changelog files hold
 *	  every record written, unmerged, listed as ADD entries of the
 *	  snapshot's changelog manifest list with changelogRecordCount; the data
 *	  files stay merged; a table without the option gets no changelog; an
 *	  aborted write leaves no changelog file; a tiny write buffer flushes
 *	  (changelog included) instead of spilling; changelog-file.format is
 *	  refused by name.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "table/external_path.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/snapshot.h"
#include "table/table.h"
#include "table/table_write.h"

#include "pk_fixture.h"

/* The ADD entries of a snapshot's manifest list `list`. */
static int
list_entries(pm_fileio *io, const char *dir, const char *list, pm_arena *arena,
			 pm_manifest_entry **entries)
{
	pm_manifest_file_meta *metas;
	int			nmetas;
	int			count = 0;
	int			cap = 0;
	pm_error	err;
	char		path[256];

	*entries = NULL;
	snprintf(path, sizeof(path), "%s/manifest/%s", dir, list);
	assert_int_equal(pm_manifest_list_read(pm_env_default(), io, path, arena, &metas, &nmetas,
										   &err), PM_OK);
	for (int m = 0; m < nmetas; m++)
	{
		snprintf(path, sizeof(path), "%s/manifest/%s", dir, metas[m].file_name);
		assert_int_equal(pm_manifest_entries_read(pm_env_default(), io, path, arena, entries,
												  &count, &cap, &err), PM_OK);
	}
	return count;
}

/* Files of a bucket directory whose names start with prefix. */
static int
count_files(pm_fileio *io, const char *dir, const char *prefix, pm_arena *arena)
{
	char	  **names;
	int			n;
	int			found = 0;
	pm_error	err;

	if (io->list(io, dir, arena, &names, &n, &err) != PM_OK)
		return 0;
	for (int i = 0; i < n; i++)
		found += strncmp(names[i], prefix, strlen(prefix)) == 0;
	return found;
}

/*
 * 1 bucket, input changelog: 200 inserts (ids descending), 50 of them
 * updated (-U/+U) and 20 deleted in the same commit; then a second commit.
 */
static void
test_input_changelog(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/cl";
	static const char *keys[] = {"bucket", "changelog-producer", "changelog-file.prefix"};
	static const char *vals[] = {"1", "input", "clog-"};
	pm_schema  *s = make_schema(arena, 3, keys, vals);
	pm_table_writer *w;
	pm_error	err;
	trow		rows[400];
	uint8_t		kinds[400];
	int			n = 0;
	result		r;
	pm_snapshot *snap;
	pm_manifest_entry *e;
	int			ne;
	int64_t		cl_rows = 0;
	int64_t		min_seq = INT64_MAX,
				max_seq = INT64_MIN;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	w = open_writer(io, dir);
	for (int i = 199; i >= 0; i--)
	{
		rows[n] = (trow) {i, true, i, INT64_MIN};
		kinds[n++] = PM_ROW_INSERT;
	}
	for (int i = 0; i < 50; i++)
	{
		rows[n] = (trow) {i * 2, true, i * 2, INT64_MIN};
		kinds[n++] = PM_ROW_UPDATE_BEFORE;
		rows[n] = (trow) {i * 2, true, 1000 + i, 5};
		kinds[n++] = PM_ROW_UPDATE_AFTER;
	}
	for (int i = 0; i < 20; i++)
	{
		rows[n] = (trow) {i * 7 + 1, false, INT64_MIN, INT64_MIN};
		kinds[n++] = PM_ROW_DELETE;
	}
	write_kinds(w, arena, rows, kinds, n);
	commit(w, 1, 1);
	pm_table_writer_close(w);

	assert_int_equal(pm_snapshot_load(io, dir, 1, arena, &snap, &err), PM_OK);
	assert_non_null(snap->changelog_manifest_list);
	assert_true(snap->changelog_manifest_list_size > 0);
	assert_int_equal(snap->changelog_record_count, n);
	/* the data files are merged: one record per key (the -D records kept) */
	assert_int_equal(snap->delta_record_count, 200);
	ne = list_entries(io, dir, snap->changelog_manifest_list, arena, &e);
	assert_true(ne >= 1);
	for (int i = 0; i < ne; i++)
	{
		char		path[256];

		assert_int_equal(e[i].kind, PM_FILE_KIND_ADD);
		assert_int_equal(e[i].bucket, 0);
		assert_int_equal(e[i].file.level, 0);
		assert_int_equal(e[i].file.file_source, 0);
		assert_true(strncmp(e[i].file.file_name, "clog-", 5) == 0);
		snprintf(path, sizeof(path), "%s/bucket-0/%s", dir, e[i].file.file_name);
		assert_true(io->exists(io, path));
		cl_rows += e[i].file.row_count;
		if (e[i].file.min_sequence_number < min_seq)
			min_seq = e[i].file.min_sequence_number;
		if (e[i].file.max_sequence_number > max_seq)
			max_seq = e[i].file.max_sequence_number;
		/* -U and -D records count as deletes */
		assert_int_equal(e[i].file.delete_row_count, 70);
	}
	assert_int_equal(cl_rows, n);
	/* every record's own sequence number */
	assert_int_equal(min_seq, 0);
	assert_int_equal(max_seq, n - 1);
	/* the delta lists no changelog file */
	ne = list_entries(io, dir, snap->delta_manifest_list, arena, &e);
	for (int i = 0; i < ne; i++)
		assert_true(strncmp(e[i].file.file_name, "data-", 5) == 0);

	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 180);
	for (int i = 0; i < 200; i++)
		if (i % 7 == 1 && i / 7 < 20)
			assert_false(r.present[i]);
		else if (i % 2 == 0 && i / 2 < 50)
			assert_int_equal(r.v[i], 1000 + i / 2);
		else
			assert_int_equal(r.v[i], i);

	/* a second commit: its own changelog, sequence numbers continue */
	w = open_writer(io, dir);
	rows[0] = (trow) {3, true, 33, INT64_MIN};
	kinds[0] = PM_ROW_INSERT;
	write_kinds(w, arena, rows, kinds, 1);
	commit(w, 2, 2);
	pm_table_writer_close(w);
	assert_int_equal(pm_snapshot_load(io, dir, 2, arena, &snap, &err), PM_OK);
	assert_int_equal(snap->changelog_record_count, 1);
	ne = list_entries(io, dir, snap->changelog_manifest_list, arena, &e);
	assert_int_equal(ne, 1);
	assert_int_equal(e[0].file.min_sequence_number, n);
	assert_int_equal(count_files(io, "/mem/wh/db.db/cl/bucket-0", "clog-", arena), 2);

	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * data-file.external-paths, entropy-inject over one root: the data and
 * changelog files of a write and the files of a full compaction go to
 * /mem/ext/bucket-0/<entropy dirs of the name>/, recorded as "file:" URIs;
 * nothing is written into the table's bucket directory.
 */
static void
test_external_paths(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/ext";
	static const char *keys[] = {"bucket", "changelog-producer", "data-file.external-paths",
	"data-file.external-paths.strategy"};
	static const char *vals[] = {"1", "input", "file:///mem/ext/", "Entropy-Inject"};
	pm_schema  *s = make_schema(arena, 4, keys, vals);
	pm_error	err;
	trow		rows[100];
	pm_snapshot *snap;
	pm_manifest_entry *e;
	int			ne;
	pk_files	pf;
	pm_compact_result cres;
	result		r;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int c = 0; c < 2; c++)
	{
		for (int i = 0; i < 100; i++)
			rows[i] = (trow) {i, true, i + c * 1000, INT64_MIN};
		pk_commit_rows(io, dir, arena, rows, NULL, 100, c + 1, c + 1);
	}
	/* the changelog files of the second commit */
	assert_int_equal(pm_snapshot_load(io, dir, 2, arena, &snap, &err), PM_OK);
	ne = list_entries(io, dir, snap->changelog_manifest_list, arena, &e);
	assert_int_equal(ne, 1);
	assert_true(strncmp(e[0].file.file_name, "changelog-", 10) == 0);
	assert_string_equal(e[0].file.external_path,
						pm_arena_sprintf(arena, "file:/mem/ext/bucket-0/%s/%s",
										 pm_entropy_dirs(e[0].file.file_name, arena),
										 e[0].file.file_name));
	assert_true(io->exists(io, e[0].file.external_path + 5));
	/* the data files */
	pk_files_open(io, dir, true, &pf);
	assert_int_equal(pf.n, 2);
	for (int i = 0; i < pf.n; i++)
	{
		assert_string_equal(pf.files[i]->external_path,
							pm_arena_sprintf(arena, "file:/mem/ext/bucket-0/%s/%s",
											 pm_entropy_dirs(pf.files[i]->file_name, arena),
											 pf.files[i]->file_name));
		assert_string_equal(pf.files[i]->external_path + 5, pf.files[i]->path);
		assert_true(io->exists(io, pf.files[i]->path));
	}
	pk_files_close(&pf);
	/* a full compaction writes there too */
	pk_full_compact(io, dir, NULL, &cres);
	pk_files_open(io, dir, true, &pf);
	assert_int_equal(pf.n, 1);
	assert_true(pf.files[0]->level > 0);
	assert_true(strncmp(pf.files[0]->external_path, "file:/mem/ext/bucket-0/", 23) == 0);
	assert_true(io->exists(io, pf.files[0]->path));
	pk_files_close(&pf);
	assert_int_equal(count_files(io, "/mem/wh/db.db/ext/bucket-0", "", arena), 0);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 100);
	assert_int_equal(r.v[7], 1007);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* Without changelog-producer: no changelog manifest list, no changelog file. */
static void
test_no_changelog(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/nocl";
	static const char *keys[] = {"bucket", "changelog-producer"};
	static const char *vals[] = {"1", "none"};
	pm_table_writer *w;
	pm_error	err;
	trow		row = {1, true, 1, 1};
	uint8_t		kind = PM_ROW_INSERT;
	pm_snapshot *snap;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 2, keys, vals),
									 &err), PM_OK);
	w = open_writer(io, dir);
	write_kinds(w, arena, &row, &kind, 1);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	assert_int_equal(pm_snapshot_load(io, dir, 1, arena, &snap, &err), PM_OK);
	assert_null(snap->changelog_manifest_list);
	assert_int_equal(snap->changelog_record_count, -1);
	assert_int_equal(count_files(io, "/mem/wh/db.db/nocl/bucket-0", "changelog-", arena), 0);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * A write buffer smaller than the commit's records: flushed as several
 * runs (not spilled), each with its changelog; every record in the
 * changelog, the rows merged.
 */
static void
test_small_buffer(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/clsmall";
	static const char *keys[] = {"bucket", "changelog-producer", "write-buffer-size"};
	static const char *vals[] = {"1", "input", "16 kb"};
	pm_table_writer *w;
	pm_error	err;
	static trow rows[3000];
	static uint8_t kinds[3000];
	pm_snapshot *snap;
	pm_manifest_entry *e;
	int			ne;
	int64_t		total = 0;
	result		r;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 3, keys, vals),
									 &err), PM_OK);
	w = open_writer(io, dir);
	for (int i = 0; i < 3000; i++)
	{
		rows[i] = (trow) {(i * 7) % 1000, true, i, INT64_MIN};
		kinds[i] = PM_ROW_INSERT;
	}
	for (int i = 0; i < 3000; i += 100)
		write_kinds(w, arena, rows + i, kinds + i, 100);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	assert_int_equal(pm_snapshot_load(io, dir, 1, arena, &snap, &err), PM_OK);
	assert_int_equal(snap->changelog_record_count, 3000);
	ne = list_entries(io, dir, snap->changelog_manifest_list, arena, &e);
	assert_true(ne > 1);
	for (int i = 0; i < ne; i++)
		total += e[i].file.row_count;
	assert_int_equal(total, 3000);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 1000);
	/* the last write of each key wins */
	for (int k = 0; k < 1000; k++)
		assert_true(r.v[k] >= 2000 && (r.v[k] * 7) % 1000 == k);

	/* flushed runs of a write that aborts: their changelog files go too */
	{
		int			before = count_files(io, "/mem/wh/db.db/clsmall/bucket-0", "changelog-",
										 arena);

		assert_int_equal(before, ne);
		w = open_writer(io, dir);
		for (int i = 0; i < 3000; i += 100)
			write_kinds(w, arena, rows + i, kinds + i, 100);
		assert_true(count_files(io, "/mem/wh/db.db/clsmall/bucket-0", "changelog-", arena) >
					before);
		pm_table_writer_abort(w);
		assert_int_equal(count_files(io, "/mem/wh/db.db/clsmall/bucket-0", "changelog-", arena),
						 before);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * changelog files in another format than the data files, full-compaction
 * changelogs with dynamic buckets: refused by name
 */
static void
test_refused(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/clfmt";
	static const char *keys[] = {"bucket", "changelog-producer", "changelog-file.format"};
	static const char *vals[] = {"1", "input", "avro"};
	static const char *lkeys[] = {"bucket", "changelog-producer"};
	static const char *lvals[] = {"-1", "full-compaction"};

	(void) state;
	pk_open_refused(io, arena, dir, 3, keys, vals, "changelog-file.format");
	pk_open_refused(io, arena, "/mem/wh/db.db/clfull", 2, lkeys, lvals, "changelog-producer");
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_changelog),
		cmocka_unit_test(test_no_changelog),
		cmocka_unit_test(test_small_buffer),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_external_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
