/*-------------------------------------------------------------------------
 * test_lookup_changelog.c
 *	  changelog-producer = lookup (lsm/lookup_compact.c, lookup_changelog.c,
 *	  the merge reader's changelog hook) on the memory FileIO: each commit
 *	  is an APPEND snapshot without changelog, then a COMPACT snapshot whose
 *	  changelog manifest list holds the lookup changelog, per engine:
 *	  deduplicate (+I, -U/+U, -D; with deletion vectors the same),
 *	  row-deduplicate (an unchanged row gives nothing; an ignored field),
 *	  aggregation (before and after the merged sums), first-row (only new
 *	  keys); changelog files at the output level, file source APPEND; the
 *	  refusals (gentle lookup-compact, bucket -1, nested compared fields).
 *	  changelog-producer = full-compaction (lsm/compact.c with the same sink
 *	  and the merge reader's full-changelog mode): plain commits give no
 *	  changelog; paimon_compact's full compaction and a writer's compaction
 *	  into the max level compare each key with its max-level record
 *	  (+I, -U/+U, -D; row-deduplicate; upgraded files give +I; aggregation
 *	  merges), compactions into lower levels give none; the refusals.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "format/format_reader.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/compact.h"
#include "lsm/merge_engine.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#include "pk_fixture.h"

#define NUL INT64_MIN

/* One changelog record: kind, id, v, seq. */
typedef struct crec
{
	int			kind;
	int			id;
	int64_t		v;
	int64_t		seq;
} crec;

/* One writer, one write, one commit whose COMPACT snapshot must be want_sid. */
static void
write_commit(pm_fileio *io, const char *dir, pm_arena *arena, const trow *rows,
			 const uint8_t *kinds, int n, int64_t want_sid)
{
	pm_table_writer *w = open_writer(io, dir);

	write_kinds(w, arena, rows, kinds, n);
	{
		pm_error	err;
		int64_t		sid;

		if (pm_table_writer_commit(w, 1, &sid, &err) != PM_OK)
			fail_msg("commit: %s", err.message);
		if (pm_table_writer_compaction(w)->failed)
			fail_msg("compaction: %s", pm_table_writer_compaction(w)->message);
		/* the last snapshot: the COMPACT one when the writer compacted */
		if (pm_table_writer_compaction(w)->snapshot_id > 0)
			sid = pm_table_writer_compaction(w)->snapshot_id;
		assert_int_equal(sid, want_sid);
	}
	pm_table_writer_close(w);
}

/*
 * The changelog records of snapshot sid (its changelog manifest list, each
 * file read through the table) into out; -1 when it has none.
 */
static int
read_changelog(pm_fileio *io, const char *dir, int64_t sid, pm_arena *arena, crec *out, int cap,
			   const char *kind)
{
	pm_snapshot *snap;
	pm_manifest_file_meta *metas;
	int			nmetas;
	pm_manifest_entry *e = NULL;
	int			ne = 0,
				ecap = 0;
	pm_error	err;
	char		path[256];
	pm_table   *t;
	int			n = 0;
	static const int fields[] = {0, 1, 2, 3};

	assert_int_equal(pm_snapshot_load(io, dir, sid, arena, &snap, &err), PM_OK);
	assert_string_equal(snap->commit_kind, kind);
	if (snap->changelog_manifest_list == NULL)
	{
		assert_int_equal(snap->changelog_record_count, -1);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/manifest/%s", dir, snap->changelog_manifest_list);
	assert_int_equal(pm_manifest_list_read(pm_env_default(), io, path, arena, &metas, &nmetas,
										   &err), PM_OK);
	for (int m = 0; m < nmetas; m++)
	{
		snprintf(path, sizeof(path), "%s/manifest/%s", dir, metas[m].file_name);
		assert_int_equal(pm_manifest_entries_read(pm_env_default(), io, path, arena, &e, &ne,
												  &ecap, &err), PM_OK);
	}
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &t, &err), PM_OK);
	for (int i = 0; i < ne; i++)
	{
		pm_data_file_meta f = e[i].file;
		pm_data_file_reader *r;
		pm_batch   *b;
		int64_t		before = n;

		assert_int_equal(e[i].kind, PM_FILE_KIND_ADD);
		assert_true(strncmp(f.file_name, "changelog-", 10) == 0);
		/* createRollingChangelogFileWriter(outputLevel): never level 0; APPEND */
		assert_true(f.level >= 1 && f.level <= 5);
		assert_int_equal(f.file_source, 0);
		f.path = pm_arena_sprintf(arena, "%s/bucket-0/%s", dir, f.file_name);
		assert_int_equal(pm_file_format_from_path(f.path, &f.format, &err), PM_OK);
		assert_int_equal(pm_data_file_reader_open(t, &f, fields, 4, true, 0, &r, &err), PM_OK);
		for (;;)
		{
			assert_int_equal(pm_data_file_reader_next(r, &b, &err), PM_OK);
			if (b == NULL)
				break;
			/* key, _SEQUENCE_NUMBER, _VALUE_KIND, id, name, v, w */
			for (int64_t row = 0; row < b->nrows; row++)
			{
				assert_true(n < cap);
				out[n].seq = PM_VEC_VALUES(&b->cols[1], int64_t)[row];
				out[n].kind = PM_VEC_VALUES(&b->cols[2], int8_t)[row];
				out[n].id = PM_VEC_VALUES(&b->cols[3], int32_t)[row];
				out[n].v = pm_vector_is_null(&b->cols[5], row) ? NUL :
					PM_VEC_VALUES(&b->cols[5], int64_t)[row];
				n++;
			}
		}
		pm_data_file_reader_close(r);
		assert_int_equal(n - before, f.row_count);
	}
	pm_table_close(t);
	assert_int_equal(snap->changelog_record_count, n);
	return n;
}

static void
expect(const crec *got, int n, const crec *want, int nwant)
{
	if (n != nwant)
	{
		for (int i = 0; i < n; i++)
			print_message("got %d: kind %d id %d v %lld\n", i, got[i].kind, got[i].id,
						  (long long) got[i].v);
		fail_msg("%d changelog records, want %d", n, nwant);
	}
	for (int i = 0; i < n; i++)
	{
		if (got[i].kind != want[i].kind || got[i].id != want[i].id || got[i].v != want[i].v)
			fail_msg("record %d: kind %d id %d v %lld, want kind %d id %d v %lld", i,
					 got[i].kind, got[i].id, (long long) got[i].v, want[i].kind, want[i].id,
					 (long long) want[i].v);
	}
}

enum
{
	I = PM_ROWKIND_INSERT, UB = PM_ROWKIND_UPDATE_BEFORE, UA = PM_ROWKIND_UPDATE_AFTER,
	D = PM_ROWKIND_DELETE
};

/*
 * Deduplicate (options extra): commit 1 inserts ids 0..9 (v = id); commit 2
 * updates 1 (v 100), deletes 2, writes 3 again unchanged, inserts 20 and
 * deletes 30 (never there).
 */
static void
run_dedup(const char *dir, int nopt, const char **keys, const char **vals, bool row_dedup)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	trow		rows[16];
	uint8_t		kinds[16];
	crec		got[64];
	int			n;

	pk_create(io, arena, dir, nopt, keys, vals);
	for (int i = 0; i < 10; i++)
	{
		rows[i] = (trow) {9 - i, true, 9 - i, NUL};
		kinds[i] = PM_ROW_INSERT;
	}
	pk_commit_rows(io, dir, arena, rows, kinds, 10, 1, 2);
	assert_int_equal(read_changelog(io, dir, 1, arena, got, 64, "APPEND"), -1);
	n = read_changelog(io, dir, 2, arena, got, 64, "COMPACT");
	assert_int_equal(n, 10);
	for (int i = 0; i < 10; i++)
	{
		assert_int_equal(got[i].kind, I);
		assert_int_equal(got[i].id, i);
		assert_int_equal(got[i].v, i);
		/* the record's own sequence number (written in descending id order) */
		assert_int_equal(got[i].seq, 9 - i);
	}

	rows[0] = (trow) {1, true, 100, NUL};
	kinds[0] = PM_ROW_UPDATE_AFTER;
	rows[1] = (trow) {2, false, NUL, NUL};
	kinds[1] = PM_ROW_DELETE;
	rows[2] = (trow) {3, true, 3, NUL};
	kinds[2] = PM_ROW_INSERT;
	rows[3] = (trow) {20, true, 20, NUL};
	kinds[3] = PM_ROW_INSERT;
	rows[4] = (trow) {30, false, NUL, NUL};
	kinds[4] = PM_ROW_DELETE;
	pk_commit_rows(io, dir, arena, rows, kinds, 5, 1, 4);
	n = read_changelog(io, dir, 4, arena, got, 64, "COMPACT");
	if (row_dedup)
	{
		static const crec want[] = {{UB, 1, 1, 0}, {UA, 1, 100, 0}, {D, 2, 2, 0}, {I, 20, 20, 0}};

		expect(got, n, want, 4);
	}
	else
	{
		static const crec want[] = {{UB, 1, 1, 0}, {UA, 1, 100, 0}, {D, 2, 2, 0},
		{UB, 3, 3, 0}, {UA, 3, 3, 0}, {I, 20, 20, 0}};

		expect(got, n, want, 6);
		/* -U keeps the old record's sequence number, +U the new one's */
		assert_int_equal(got[0].seq, 8);
		assert_int_equal(got[1].seq, 10);
	}
	/* a commit without a level-0 change of any key: nothing but +I */
	rows[0] = (trow) {21, true, 21, NUL};
	kinds[0] = PM_ROW_INSERT;
	pk_commit_rows(io, dir, arena, rows, kinds, 1, 1, 6);
	{
		static const crec want[] = {{I, 21, 21, 0}};

		n = read_changelog(io, dir, 6, arena, got, 64, "COMPACT");
		expect(got, n, want, 1);
	}
	{
		result		r;

		read_all(io, dir, &r);
		assert_int_equal(r.nrows, 11);
		assert_false(r.present[2]);
		assert_int_equal(r.v[1], 100);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_dedup(void **state)
{
	static const char *keys[] = {"bucket", "changelog-producer"};
	static const char *vals[] = {"1", "lookup"};

	(void) state;
	run_dedup("/mem/wh/db.db/cl", 2, keys, vals, false);
}

static void
test_dedup_dv(void **state)
{
	static const char *keys[] = {"bucket", "changelog-producer", "deletion-vectors.enabled"};
	static const char *vals[] = {"1", "lookup", "true"};

	(void) state;
	run_dedup("/mem/wh/db.db/cldv", 3, keys, vals, false);
}

static void
test_row_dedup(void **state)
{
	static const char *keys[] = {"bucket", "changelog-producer",
	"changelog-producer.row-deduplicate"};
	static const char *vals[] = {"1", "lookup", "true"};

	(void) state;
	run_dedup("/mem/wh/db.db/clrd", 3, keys, vals, true);
}

/* row-deduplicate with v ignored: a change of v alone gives no changelog */
static void
test_row_dedup_ignore(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/clign";
	static const char *keys[] = {"bucket", "changelog-producer",
		"changelog-producer.row-deduplicate",
	"changelog-producer.row-deduplicate-ignore-fields"};
	static const char *vals[] = {"1", "lookup", "true", "w,v"};
	trow		rows[4];
	uint8_t		kinds[4] = {PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT};
	crec		got[16];
	int			n;
	static const crec want[] = {{UB, 2, 2, 0}, {UA, 2, 7, 0}};

	(void) state;
	pk_create(io, arena, dir, 4, keys, vals);
	rows[0] = (trow) {1, true, 1, NUL};
	rows[1] = (trow) {2, true, 2, NUL};
	pk_commit_rows(io, dir, arena, rows, kinds, 2, 1, 2);
	rows[0] = (trow) {1, true, 1, 5};	/* w changes only: ignored */
	rows[1] = (trow) {2, true, 7, NUL};	/* name n2 -> n7: compared */
	pk_commit_rows(io, dir, arena, rows, kinds, 2, 1, 4);
	n = read_changelog(io, dir, 4, arena, got, 16, "COMPACT");
	expect(got, n, want, 2);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* aggregation (sum of v): before and after are the merged values */
static void
test_aggregation(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/clagg";
	static const char *keys[] = {"bucket", "changelog-producer", "merge-engine",
	"fields.v.aggregate-function"};
	static const char *vals[] = {"1", "lookup", "aggregation", "sum"};
	trow		rows[4];
	uint8_t		kinds[4] = {PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT};
	crec		got[16];
	int			n;

	(void) state;
	pk_create(io, arena, dir, 4, keys, vals);
	rows[0] = (trow) {1, true, 5, NUL};
	rows[1] = (trow) {1, true, 6, NUL};
	pk_commit_rows(io, dir, arena, rows, kinds, 2, 1, 2);
	{
		static const crec want[] = {{I, 1, 11, 0}};

		n = read_changelog(io, dir, 2, arena, got, 16, "COMPACT");
		expect(got, n, want, 1);
	}
	rows[0] = (trow) {1, false, 3, NUL};
	rows[1] = (trow) {2, false, 4, NUL};
	pk_commit_rows(io, dir, arena, rows, kinds, 2, 1, 4);
	{
		static const crec want[] = {{UB, 1, 11, 0}, {UA, 1, 14, 0}, {I, 2, 4, 0}};

		n = read_changelog(io, dir, 4, arena, got, 16, "COMPACT");
		expect(got, n, want, 3);
	}
	rows[0] = (trow) {1, false, 1, NUL};
	pk_commit_rows(io, dir, arena, rows, kinds, 1, 1, 6);
	{
		static const crec want[] = {{UB, 1, 14, 0}, {UA, 1, 15, 0}};

		n = read_changelog(io, dir, 6, arena, got, 16, "COMPACT");
		expect(got, n, want, 2);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* first-row: only keys new to the table, as their first row */
static void
test_first_row(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/clfr";
	static const char *keys[] = {"bucket", "changelog-producer", "merge-engine"};
	static const char *vals[] = {"1", "lookup", "first-row"};
	trow		rows[4];
	uint8_t		kinds[4] = {PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT};
	crec		got[16];
	int			n;

	(void) state;
	pk_create(io, arena, dir, 3, keys, vals);
	rows[0] = (trow) {1, true, 1, NUL};
	rows[1] = (trow) {1, true, 2, NUL};
	rows[2] = (trow) {2, true, 2, NUL};
	pk_commit_rows(io, dir, arena, rows, kinds, 3, 1, 2);
	{
		static const crec want[] = {{I, 1, 1, 0}, {I, 2, 2, 0}};

		n = read_changelog(io, dir, 2, arena, got, 16, "COMPACT");
		expect(got, n, want, 2);
	}
	rows[0] = (trow) {2, true, 9, NUL};
	rows[1] = (trow) {3, true, 3, NUL};
	pk_commit_rows(io, dir, arena, rows, kinds, 2, 1, 4);
	{
		static const crec want[] = {{I, 3, 3, 0}};

		n = read_changelog(io, dir, 4, arena, got, 16, "COMPACT");
		expect(got, n, want, 1);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* refused by name: gentle lookup-compact, bucket -1 */
static void
test_refused(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *gkeys[] = {"bucket", "changelog-producer", "lookup-compact"};
	static const char *gvals[] = {"1", "lookup", "gentle"};
	static const char *dkeys[] = {"bucket", "changelog-producer"};
	static const char *dvals[] = {"-1", "lookup"};

	(void) state;
	pk_open_refused(io, arena, "/mem/wh/db.db/g", 3, gkeys, gvals, "lookup-compact");
	pk_open_refused(io, arena, "/mem/wh/db.db/d", 2, dkeys, dvals, "changelog-producer");
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* full-compaction: the COMPACT snapshot of a full compaction (paimon_compact) */
static int64_t
full_compact(pm_fileio *io, const char *dir, int64_t want_sid, int want_files)
{
	pm_compact_result res;

	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, want_sid);
	assert_int_equal(res.changelog_files, want_files);
	return res.changelog_records;
}

static void
run_full(const char *dir, int nopt, const char **keys, const char **vals, bool row_dedup)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_error	err;
	trow		rows[16];
	uint8_t		kinds[16];
	crec		got[64];
	int			n;

	assert_int_equal(pm_table_create(pm_env_default(), io, dir,
									 make_schema(arena, nopt, keys, vals), &err), PM_OK);
	for (int i = 0; i < 10; i++)
	{
		rows[i] = (trow) {9 - i, true, 9 - i, NUL};
		kinds[i] = PM_ROW_INSERT;
	}
	/* a plain commit: level 0, no compaction, no changelog */
	write_commit(io, dir, arena, rows, kinds, 10, 1);
	assert_int_equal(read_changelog(io, dir, 1, arena, got, 64, "APPEND"), -1);
	/* the level-0 file is upgraded into the max level: each record +I (CHANGELOG_NO_REWRITE) */
	assert_int_equal(full_compact(io, dir, 2, 1), 10);
	n = read_changelog(io, dir, 2, arena, got, 64, "COMPACT");
	assert_int_equal(n, 10);
	for (int i = 0; i < 10; i++)
	{
		assert_int_equal(got[i].kind, I);
		assert_int_equal(got[i].id, i);
		assert_int_equal(got[i].v, i);
		assert_int_equal(got[i].seq, 9 - i);
	}
	rows[0] = (trow) {1, true, 100, NUL};
	kinds[0] = PM_ROW_UPDATE_AFTER;
	rows[1] = (trow) {2, false, NUL, NUL};
	kinds[1] = PM_ROW_DELETE;
	rows[2] = (trow) {3, true, 3, NUL};
	kinds[2] = PM_ROW_INSERT;
	rows[3] = (trow) {20, true, 20, NUL};
	kinds[3] = PM_ROW_INSERT;
	rows[4] = (trow) {30, false, NUL, NUL};
	kinds[4] = PM_ROW_DELETE;
	rows[5] = (trow) {21, true, 21, NUL};
	kinds[5] = PM_ROW_INSERT;
	rows[6] = (trow) {21, false, NUL, NUL};
	kinds[6] = PM_ROW_DELETE;
	write_commit(io, dir, arena, rows, kinds, 7, 3);
	assert_int_equal(read_changelog(io, dir, 3, arena, got, 64, "APPEND"), -1);
	full_compact(io, dir, 4, 1);
	n = read_changelog(io, dir, 4, arena, got, 64, "COMPACT");
	if (row_dedup)
	{
		static const crec want[] = {{UB, 1, 1, 0}, {UA, 1, 100, 0}, {D, 2, 2, 0}, {I, 20, 20, 0}};

		expect(got, n, want, 4);
	}
	else
	{
		static const crec want[] = {{UB, 1, 1, 0}, {UA, 1, 100, 0}, {D, 2, 2, 0},
		{UB, 3, 3, 0}, {UA, 3, 3, 0}, {I, 20, 20, 0}};

		expect(got, n, want, 6);
		/* -U keeps the old record's sequence number, +U the new one's */
		assert_int_equal(got[0].seq, 8);
		assert_int_equal(got[1].seq, 10);
	}
	/* one run at the max level: nothing to do */
	full_compact(io, dir, 0, 0);
	{
		result		r;

		read_all(io, dir, &r);
		assert_int_equal(r.nrows, 10);
		assert_false(r.present[2]);
		assert_false(r.present[21]);
		assert_int_equal(r.v[1], 100);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_full(void **state)
{
	static const char *keys[] = {"bucket", "changelog-producer"};
	static const char *vals[] = {"1", "full-compaction"};

	(void) state;
	run_full("/mem/wh/db.db/fc", 2, keys, vals, false);
}

static void
test_full_row_dedup(void **state)
{
	static const char *keys[] = {"bucket", "changelog-producer",
	"changelog-producer.row-deduplicate"};
	static const char *vals[] = {"1", "full-compaction", "true"};

	(void) state;
	run_full("/mem/wh/db.db/fcrd", 3, keys, vals, true);
}

/*
 * A writer's own compaction (size amplification 0: every commit with two
 * runs compacts them all into the max level) writes the changelog in the
 * commit's COMPACT snapshot; aggregation merges every record of the key.
 */
static void
test_full_writer_aggregation(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/fcagg";
	static const char *keys[] = {"bucket", "changelog-producer", "merge-engine",
		"fields.v.aggregate-function", "num-sorted-run.compaction-trigger",
	"compaction.max-size-amplification-percent"};
	static const char *vals[] = {"1", "full-compaction", "aggregation", "sum", "2", "0"};
	pm_error	err;
	trow		rows[4];
	uint8_t		kinds[4] = {PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT};
	crec		got[16];
	int			n;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 6, keys, vals),
									 &err), PM_OK);
	rows[0] = (trow) {1, true, 5, NUL};
	rows[1] = (trow) {1, true, 6, NUL};
	write_commit(io, dir, arena, rows, kinds, 2, 1);
	rows[0] = (trow) {1, true, 3, NUL};
	rows[1] = (trow) {2, true, 4, NUL};
	/* two runs: compacted into the max level, no record there yet: +I merged */
	write_commit(io, dir, arena, rows, kinds, 2, 3);
	assert_int_equal(read_changelog(io, dir, 2, arena, got, 16, "APPEND"), -1);
	{
		static const crec want[] = {{I, 1, 14, 0}, {I, 2, 4, 0}};

		n = read_changelog(io, dir, 3, arena, got, 16, "COMPACT");
		expect(got, n, want, 2);
	}
	rows[0] = (trow) {1, true, 1, NUL};
	write_commit(io, dir, arena, rows, kinds, 1, 5);
	{
		static const crec want[] = {{UB, 1, 14, 0}, {UA, 1, 15, 0}};

		n = read_changelog(io, dir, 5, arena, got, 16, "COMPACT");
		expect(got, n, want, 2);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * full-compaction refused by name: dynamic bucket, force-lookup (with
 * deletion vectors or first-row Java refuses it at creation)
 */
static void
test_full_refused(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *k1[] = {"bucket", "changelog-producer"};
	static const char *v1[] = {"-1", "full-compaction"};
	static const char *k3[] = {"bucket", "changelog-producer", "force-lookup"};
	static const char *v3[] = {"1", "full-compaction", "true"};
	struct
	{
		const char *dir;
		int			nopt;
		const char **k;
		const char **v;
		const char *word;
	}			cases[] = {
		{"/mem/wh/db.db/r1", 2, k1, v1, "bucket = -1"},
		{"/mem/wh/db.db/r3", 3, k3, v3, "force-lookup"},
	};
	pm_table_writer *w;
	pm_error	err;

	(void) state;
	for (int i = 0; i < 2; i++)
	{
		if (pm_table_create(pm_env_default(), io, cases[i].dir,
							make_schema(arena, cases[i].nopt, cases[i].k, cases[i].v),
							&err) != PM_OK)
			fail_msg("create %s: %s", cases[i].dir, err.message);
		assert_int_equal(pm_table_writer_open(pm_env_default(), io, cases[i].dir, "u", &w, &err),
						 PM_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.message, "full-compaction"));
		assert_non_null(strstr(err.message, cases[i].word));
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_dedup_dv),
		cmocka_unit_test(test_row_dedup),
		cmocka_unit_test(test_row_dedup_ignore),
		cmocka_unit_test(test_aggregation),
		cmocka_unit_test(test_first_row),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_full_row_dedup),
		cmocka_unit_test(test_full_writer_aggregation),
		cmocka_unit_test(test_full_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
