/*-------------------------------------------------------------------------
 * test_append_dv_write.c
 *	  DELETE by position on append tables with deletion vectors
 *	  (table/append_dv_write.c through table_write.c and commit.c), on the
 *	  memory FileIO: rows are found with the positions read
 *	  (pm_table_read_open_positions), marked deleted, committed as an
 *	  OVERWRITE snapshot, read back without them; a second round merges the
 *	  files' old DVs and rewrites the untouched DVs of the index files it
 *	  replaces; a data file has one DV in the index manifest; a writer
 *	  whose base snapshot's DVs were replaced meanwhile, or whose data file
 *	  a concurrent commit removed, gets PM_ERR_CONFLICT and leaves nothing.
 *	  Bucket-unaware (partitioned) and fixed-bucket (64-bit DVs) tables,
 *	  compacted (pm_append_compact drops the deleted rows and the DVs);
 *	  compaction at commit of a fixed-bucket table drops them too. The
 *	  compaction of a bucket-unaware table keeps the DVs of the files it
 *	  does not pick (in a new index file), picks files deleting more than
 *	  compaction.delete-ratio-threshold, and its commit fails when a
 *	  compacted file's DV changed meanwhile.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "table/append_compact.h"
#include "table/commit.h"
#include "table/index_manifest.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#define DIR "/wh/db.db/t"
#define NROWS 1000

/* id INT, p INT (partition key when partitioned) */
static pm_schema *
make_schema(pm_arena *arena, bool partitioned, int nopt, const char **keys, const char **vals)
{
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 2);
	static const char *pkeys[] = {"p"};

	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	f[1] = (pm_field) {0, "p", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 2, false);
	if (partitioned)
	{
		s->npartition_keys = 1;
		s->partition_keys = pkeys;
	}
	s->noptions = nopt;
	s->option_keys = keys;
	s->option_values = vals;
	return s;
}

/* Table DIR of make_schema's rows created, and a writer of user "u1" on it. */
static pm_table_writer *
create_and_open(pm_fileio *io, pm_arena *arena, bool partitioned, int nopt, const char **keys,
				const char **vals)
{
	pm_table_writer *w;
	pm_error	err;

	assert_int_equal(pm_table_create(pm_env_default(), io, DIR,
									 make_schema(arena, partitioned, nopt, keys, vals), &err),
					 PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, DIR, "u1", &w, &err), PM_OK);
	return w;
}

static void
write_rows(pm_table_writer *w, pm_arena *arena, int start, int n)
{
	const pm_type *row = pm_table_writer_schema(w)->row_type;
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));
	pm_error	err;

	b->nrows = n;
	b->ncols = 2;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * 2);
	for (int c = 0; c < 2; c++)
	{
		assert_true(pm_vector_init(&b->cols[c], row->fields[c].type, n, false, arena));
		b->cols[c].length = n;
	}
	for (int i = 0; i < n; i++)
	{
		PM_VEC_VALUES(&b->cols[0], int32_t)[i] = start + i;
		PM_VEC_VALUES(&b->cols[1], int32_t)[i] = (start + i) % 3;
	}
	if (pm_table_writer_write(w, b, NULL, &err) != PM_OK)
		fail_msg("write: %s", err.message);
}

/*
 * Read the table: count the rows and their id sum; with w, mark the rows
 * whose id % 10 == del deleted through w (their base: the snapshot read).
 */
static void
scan(pm_fileio *io, pm_table_writer *w, int del, int64_t *rows, int64_t *sum)
{
	pm_table   *table;
	pm_scan    *sc;
	pm_table_read *read;
	pm_batch   *b;
	pm_error	err;
	int			fields[1] = {0};

	*rows = *sum = 0;
	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &sc, &err), PM_OK);
	assert_int_equal(pm_table_read_open_positions(sc, fields, 1, &read, &err), PM_OK);
	for (;;)
	{
		const pm_split *sp;
		const pm_data_file_meta *f;
		const int64_t *pos;

		if (pm_table_read_next(read, &b, &err) != PM_OK)
			fail_msg("read: %s", err.message);
		if (b == NULL)
			break;
		pos = pm_table_read_positions(read, &sp, &f);
		assert_non_null(pos);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int32_t		id = PM_VEC_VALUES(&b->cols[0], int32_t)[i];

			(*rows)++;
			*sum += id;
			assert_true(pos[i] >= 0 && pos[i] < f->row_count);
			if (w != NULL && id % 10 == del)
			{
				pm_append_dv_file af = {sp->partition, sp->partition_len, sp->bucket,
				f->file_name, f->row_count, f->deletion_file, sp->bucket_path};

				bool		again;

				if (pm_table_writer_delete_position(w, &af, pos[i], pm_table_snapshot_id(table),
													&again, &err) != PM_OK)
					fail_msg("delete: %s", err.message);
				assert_false(again);
				/* the same row again: noticed */
				assert_int_equal(pm_table_writer_delete_position(w, &af, pos[i],
																 pm_table_snapshot_id(table),
																 &again, &err), PM_OK);
				assert_true(again);
			}
		}
	}
	pm_table_read_close(read);
	pm_scan_free(sc);
	pm_table_close(table);
}

static int64_t
sum_except(int mod_a, int mod_b)
{
	int64_t		s = 0;

	for (int i = 0; i < NROWS; i++)
		if (i % 10 != mod_a && i % 10 != mod_b)
			s += i;
	return s;
}

/* Every DV entry of the latest snapshot: one per data file; the commit kind. */
/* the table being tested has index-file-in-data-file-dir = true */
static bool index_in_data_dir;

static void
check_latest(pm_fileio *io, const char *kind)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot *snap;
	int64_t		id;
	pm_index_manifest_entry *e;
	int			n;
	pm_error	err;

	assert_int_equal(pm_snapshot_latest_id(io, DIR, arena, &id, &err), PM_OK);
	assert_int_equal(pm_snapshot_load(io, DIR, id, arena, &snap, &err), PM_OK);
	assert_string_equal(snap->commit_kind, kind);
	assert_non_null(snap->index_manifest);
	assert_int_equal(pm_index_manifest_read(pm_env_default(), io,
											pm_arena_sprintf(arena, "%s/manifest/%s", DIR,
															 snap->index_manifest),
											arena, &e, &n, &err), PM_OK);
	for (int i = 0; i < n; i++)
	{
		char	   *in_index = pm_arena_sprintf(arena, "%s/index/%s", DIR, e[i].file_name);

		/* index-file-in-data-file-dir: in the bucket directory (scan() reads it there) */
		assert_int_equal(io->exists(io, in_index), !index_in_data_dir);
	}
	for (int i = 0; i < n; i++)
		for (int r = 0; r < e[i].nranges; r++)
			for (int j = i; j < n; j++)
				for (int q = (j == i ? r + 1 : 0); q < e[j].nranges; q++)
					if (strcmp(e[i].ranges[r].data_file, e[j].ranges[q].data_file) == 0)
						fail_msg("data file %s has two deletion vectors", e[i].ranges[r].data_file);
	pm_arena_destroy(arena);
}

static void
run(bool partitioned, int nopt, const char **keys, const char **vals)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table_writer *w;
	pm_table_writer *w2;
	pm_error	err;
	int64_t		sid,
				rows,
				sum;

	w = create_and_open(io, arena, partitioned, nopt, keys, vals);
	assert_true(pm_table_writer_deletes_by_position(w));
	write_rows(w, arena, 0, NROWS / 2);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	write_rows(w, arena, NROWS / 2, NROWS / 2);
	assert_int_equal(pm_table_writer_commit(w, 2, &sid, &err), PM_OK);
	assert_int_equal(sid, 2);

	/* a position outside the file is refused */
	{
		pm_append_dv_file af = {NULL, 0, 0, "nope.parquet", 10, NULL, "/nowhere"};
		bool		again;

		assert_int_equal(pm_table_writer_delete_position(w, &af, 10, 2, &again, &err),
						 PM_ERR_INVALID);
	}

	/* round 1: files without DVs */
	scan(io, w, 0, &rows, &sum);
	assert_int_equal(rows, NROWS);
	assert_int_equal(pm_table_writer_commit(w, 3, &sid, &err), PM_OK);
	assert_int_equal(sid, 3);
	check_latest(io, "OVERWRITE");
	scan(io, NULL, 0, &rows, &sum);
	assert_int_equal(rows, NROWS - NROWS / 10);
	assert_int_equal(sum, sum_except(0, 0));

	/* a second writer reads snapshot 3 and deletes id % 10 == 2 ... */
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, DIR, "u2", &w2, &err), PM_OK);
	scan(io, w2, 2, &rows, &sum);

	/* round 2: every file has a DV, merged with the new deletions */
	scan(io, w, 1, &rows, &sum);
	assert_int_equal(pm_table_writer_commit(w, 4, &sid, &err), PM_OK);
	assert_int_equal(sid, 4);
	check_latest(io, "OVERWRITE");
	scan(io, NULL, 0, &rows, &sum);
	assert_int_equal(rows, NROWS - 2 * NROWS / 10);
	assert_int_equal(sum, sum_except(0, 1));

	/* ... and loses: the DVs it merged with were replaced */
	assert_int_equal(pm_table_writer_commit(w2, 1, &sid, &err), PM_ERR_CONFLICT);
	pm_table_writer_abort(w2);
	scan(io, NULL, 0, &rows, &sum);
	assert_int_equal(rows, NROWS - 2 * NROWS / 10);

	/* nothing deleted: nothing committed */
	assert_int_equal(pm_table_writer_commit(w, 5, &sid, &err), PM_OK);
	assert_int_equal(sid, 0);

	/*
	 * compaction drops the deleted rows and their DVs: fixed buckets, and
	 * bucket-unaware partitions (each one's two files, their DVs in one
	 * index file, one task)
	 */
	{
		pm_table   *table;
		pm_compact_result res;
		pm_scan    *sc;
		pm_code		rc;

		assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
		rc = pm_append_compact(table, DIR, NULL, &res, &err);
		pm_table_close(table);
		{
			assert_int_equal(rc, PM_OK);
			assert_int_equal(res.snapshot_id, 5);
			assert_int_equal(res.files_in, partitioned ? 6 : 4);
			assert_int_equal(res.files_out, partitioned ? 3 : 2);
			assert_int_equal(res.rows_out, NROWS - 2 * NROWS / 10);
			scan(io, NULL, 0, &rows, &sum);
			assert_int_equal(rows, NROWS - 2 * NROWS / 10);
			assert_int_equal(sum, sum_except(0, 1));
			assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
			assert_int_equal(pm_table_scan_plan(table, NULL, &sc, &err), PM_OK);
			assert_false(pm_scan_has_deletion_vectors(sc));
			pm_scan_free(sc);
			pm_table_close(table);
			/* and deleting again works on the compacted files */
			scan(io, w, 3, &rows, &sum);
			assert_int_equal(pm_table_writer_commit(w, 6, &sid, &err), PM_OK);
			assert_int_equal(sid, 6);
			scan(io, NULL, 0, &rows, &sum);
			assert_int_equal(rows, NROWS - 3 * NROWS / 10);
		}
	}
	pm_table_writer_close(w);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_unaware_partitioned(void **state)
{
	static const char *keys[] = {"deletion-vectors.enabled", "file.format"};
	static const char *vals[] = {"true", "parquet"};

	run(true, 2, keys, vals);
}

static void
test_fixed_bucket_bitmap64(void **state)
{
	static const char *keys[] = {"deletion-vectors.enabled", "bucket", "bucket-key",
	"deletion-vectors.bitmap64"};
	static const char *vals[] = {"true", "2", "id", "true"};

	run(false, 4, keys, vals);
}

/* the same two tables with their DV index files in the bucket directories */
static void
test_index_in_data_dir(void **state)
{
	static const char *ukeys[] = {"deletion-vectors.enabled", "index-file-in-data-file-dir",
	"data-file.path-directory"};
	static const char *uvals[] = {"true", "true", "data"};
	static const char *fkeys[] = {"deletion-vectors.enabled", "bucket", "bucket-key",
	"index-file-in-data-file-dir"};
	static const char *fvals[] = {"true", "2", "id", "true"};

	index_in_data_dir = true;
	run(true, 3, ukeys, uvals);
	run(false, 4, fkeys, fvals);
	index_in_data_dir = false;
}

/*
 * Compaction at commit of a fixed-bucket table with DVs (AutoCompactTask
 * with a DV maintainer): three commits, a DELETE of id % 10 == 0, two
 * more commits; the fifth data file makes the writer compact the five
 * into one COMPACT snapshot: the deleted rows dropped, no DV left.
 */
static void
test_fixed_bucket_at_commit(void **state)
{
	static const char *keys[] = {"deletion-vectors.enabled", "bucket", "bucket-key"};
	static const char *vals[] = {"true", "1", "id"};
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table_writer *w;
	pm_table   *table;
	pm_scan    *sc;
	pm_snapshot *snap;
	pm_error	err;
	int64_t		sid,
				rows,
				sum,
				want = 0;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, DIR,
									 make_schema(arena, false, 3, keys, vals), &err), PM_OK);
	for (int c = 0; c < 6; c++)
	{
		const pm_writer_compaction *wc;

		assert_int_equal(pm_table_writer_open(pm_env_default(), io, DIR, "u1", &w, &err), PM_OK);
		if (c == 3)
			scan(io, w, 0, &rows, &sum);
		else
			write_rows(w, arena, c * 100, 100);
		assert_int_equal(pm_table_writer_commit(w, c + 1, &sid, &err), PM_OK);
		assert_int_equal(sid, c + 1);
		wc = pm_table_writer_compaction(w);
		assert_false(wc->failed);
		if (c == 5)
		{
			assert_int_equal(wc->snapshot_id, 7);
			assert_int_equal(wc->files_in, 5);
			assert_int_equal(wc->files_out, 1);
			assert_int_equal(wc->rows, 500 - 30);
		}
		else
			assert_int_equal(wc->snapshot_id, 0);
		pm_table_writer_close(w);
	}
	assert_int_equal(pm_snapshot_load(io, DIR, 7, arena, &snap, &err), PM_OK);
	assert_string_equal(snap->commit_kind, "COMPACT");
	scan(io, NULL, 0, &rows, &sum);
	assert_int_equal(rows, 470);
	/* ids 0..299 (id % 10 == 0 deleted) and 400..599 */
	for (int i = 0; i < 600; i++)
		if (!(i < 300 && i % 10 == 0) && !(i >= 300 && i < 400))
			want += i;
	assert_int_equal(sum, want);
	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &sc, &err), PM_OK);
	assert_false(pm_scan_has_deletion_vectors(sc));
	assert_int_equal(pm_scan_split_count(sc), 1);
	assert_int_equal(pm_scan_get_split(sc, 0)->nfiles, 1);
	pm_scan_free(sc);
	pm_table_close(table);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}


/* The live files of the latest snapshot: name, size, rows, DV cardinality (-1: none). */
typedef struct live_file
{
	char		name[128];
	int64_t		size;
	int64_t		rows;
	int64_t		deleted;
	int32_t		source;
} live_file;

static int
live_files(pm_fileio *io, live_file *out, int max)
{
	pm_table   *table;
	pm_scan    *sc;
	pm_error	err;
	int			n = 0;

	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &sc, &err), PM_OK);
	for (int i = 0; i < pm_scan_split_count(sc); i++)
	{
		const pm_split *sp = pm_scan_get_split(sc, i);

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *m = sp->files[f];

			assert_true(n < max);
			snprintf(out[n].name, sizeof(out[n].name), "%s", m->file_name);
			out[n].size = m->file_size;
			out[n].rows = m->row_count;
			out[n].deleted = m->deletion_file ? m->deletion_file->cardinality : -1;
			out[n].source = m->file_source;
			n++;
		}
	}
	pm_scan_free(sc);
	pm_table_close(table);
	return n;
}

static const live_file *
find_live(const live_file *f, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	return NULL;
}

/* The DV index entries of the latest snapshot. */
static int
dv_entries(pm_fileio *io, pm_arena *arena, pm_index_manifest_entry **e)
{
	pm_snapshot *snap;
	int64_t		id;
	int			n = 0;
	pm_error	err;

	assert_int_equal(pm_snapshot_latest_id(io, DIR, arena, &id, &err), PM_OK);
	assert_int_equal(pm_snapshot_load(io, DIR, id, arena, &snap, &err), PM_OK);
	*e = NULL;
	if (snap->index_manifest != NULL)
		assert_int_equal(pm_index_manifest_read(pm_env_default(), io,
												pm_arena_sprintf(arena, "%s/manifest/%s", DIR,
																 snap->index_manifest),
												arena, e, &n, &err), PM_OK);
	return n;
}

static void
compact_table(pm_fileio *io, pm_compact_result *res)
{
	pm_table   *table;
	pm_error	err;

	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
	if (pm_append_compact(table, DIR, NULL, res, &err) != PM_OK)
		fail_msg("compact: %s", err.message);
	pm_table_close(table);
}

/*
 * A bucket-unaware table with target-file-size 8kb: one commit of 4000
 * rows (files rolled at about 8 KB, all but the last of them "large":
 * over 70% of the target), three of 10 rows. One DELETE of id % 10 == 0:
 * one index file holding the DVs of every file, 10% of each deleted.
 * The compaction (AppendCompactCoordinator with DVs) rewrites the small
 * files only, in one task (one index file), and writes the large files'
 * DVs again (AppendDeleteFileMaintainer.writeUnchangedDeletionVector):
 * the same rows, the large files keep their DVs as they were, the index
 * file replaced. Then a DELETE of most rows of one large file (more than
 * compaction.delete-ratio-threshold): the next compaction picks it too.
 */
static void
test_unaware_keeps_other_dvs(void **state)
{
	static const char *keys[] = {"deletion-vectors.enabled", "target-file-size"};
	static const char *vals[] = {"true", "8kb"};
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid,
				rows,
				sum,
				rows2,
				sum2;
	static live_file before[64],
				after[64];
	int			nbefore,
				nafter,
				nlarge = 0,
				nsmall = 0,
				n;
	pm_compact_result res;
	pm_index_manifest_entry *e;
	const int64_t large = 8 * 1024 / 10 * 7;

	(void) state;
	w = create_and_open(io, arena, false, 2, keys, vals);
	for (int b = 0; b < 3; b++)
		write_rows(w, arena, b * 4000, 4000);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	for (int c = 0; c < 3; c++)
	{
		write_rows(w, arena, 20000 + c * 10, 10);
		assert_int_equal(pm_table_writer_commit(w, 2 + c, &sid, &err), PM_OK);
	}
	scan(io, w, 0, &rows, &sum);
	assert_int_equal(pm_table_writer_commit(w, 5, &sid, &err), PM_OK);
	assert_int_equal(sid, 5);
	scan(io, NULL, 0, &rows, &sum);
	assert_int_equal(rows, 12030 - 1203);
	nbefore = live_files(io, before, 64);
	for (int i = 0; i < nbefore; i++)
	{
		assert_int_equal(before[i].deleted, before[i].rows / 10);
		if (before[i].size >= large)
			nlarge++;
		else
			nsmall++;
	}
	assert_int_equal(nlarge, 3);
	assert_int_equal(nsmall, 3);
	assert_int_equal(dv_entries(io, arena, &e), 1);

	compact_table(io, &res);
	assert_int_equal(res.snapshot_id, 6);
	assert_int_equal(res.files_in, nsmall);
	assert_int_equal(res.files_out, 1);
	scan(io, NULL, 0, &rows2, &sum2);
	assert_int_equal(rows2, rows);
	assert_int_equal(sum2, sum);
	check_latest(io, "COMPACT");
	nafter = live_files(io, after, 64);
	assert_int_equal(nafter, nlarge + 1);
	for (int i = 0; i < nbefore; i++)
	{
		const live_file *a = find_live(after, nafter, before[i].name);

		if (before[i].size >= large)
		{
			assert_non_null(a);
			assert_int_equal(a->deleted, before[i].deleted);
		}
		else
			assert_null(a);
	}
	for (int i = 0; i < nafter; i++)
		if (after[i].source == 1)
		{
			assert_int_equal(after[i].deleted, -1);
			assert_int_equal(after[i].rows, 27);
		}
	/* one new index file: the large files' DVs only */
	n = dv_entries(io, arena, &e);
	assert_int_equal(n, 1);
	assert_int_equal(e[0].nranges, nlarge);

	/* nothing more to do */
	compact_table(io, &res);
	assert_int_equal(res.snapshot_id, 0);

	/*
	 * id % 10 == 1: the large files lose 20% of their rows, not more than
	 * the threshold; the compacted file has a DV now: rewritten alone
	 */
	scan(io, w, 1, &rows, &sum);
	assert_int_equal(pm_table_writer_commit(w, 6, &sid, &err), PM_OK);
	scan(io, NULL, 0, &rows, &sum);
	compact_table(io, &res);
	assert_int_equal(res.snapshot_id, 8);
	assert_int_equal(res.files_in, 1);
	assert_int_equal(res.files_out, 1);
	scan(io, NULL, 0, &rows2, &sum2);
	assert_int_equal(rows2, rows);
	assert_int_equal(sum2, sum);
	nafter = live_files(io, after, 64);
	assert_int_equal(nafter, nlarge + 1);
	for (int i = 0; i < nafter; i++)
		assert_int_equal(after[i].deleted, after[i].source == 1 ? -1 : 800);

	/* id % 10 == 2: 30% of the large files' rows, every file rewritten */
	scan(io, w, 2, &rows, &sum);
	assert_int_equal(pm_table_writer_commit(w, 7, &sid, &err), PM_OK);
	scan(io, NULL, 0, &rows, &sum);
	assert_int_equal(rows, 12030 - 3 * 1203);
	compact_table(io, &res);
	assert_int_equal(res.snapshot_id, 10);
	assert_int_equal(res.files_in, nlarge + 1);
	scan(io, NULL, 0, &rows2, &sum2);
	assert_int_equal(rows2, rows);
	assert_int_equal(sum2, sum);
	nafter = live_files(io, after, 64);
	assert_int_equal(nafter, res.files_out);
	for (int i = 0; i < nafter; i++)
	{
		assert_int_equal(after[i].deleted, -1);
		assert_int_equal(after[i].source, 1);
	}
	assert_int_equal(dv_entries(io, arena, &e), 0);
	pm_table_writer_close(w);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}


/*
 * A COMPACT commit by user of the snapshot table was read at: the first
 * file of its first split removed (a compaction whose output is elsewhere);
 * dv_checked: the bucket-unaware compaction's deleted_files_dv_checked.
 */
static pm_code
commit_compact_of(pm_fileio *io, pm_table *table, pm_arena *arena, const char *user,
				  int64_t ident, bool dv_checked, int64_t *sid, pm_error *err)
{
	pm_scan    *sc;
	const pm_split *sp;
	pm_commit_change ch;
	pm_commit_request req;
	pm_code		rc;

	assert_int_equal(pm_table_scan_plan(table, NULL, &sc, err), PM_OK);
	assert_int_equal(pm_scan_split_count(sc), 1);
	sp = pm_scan_get_split(sc, 0);
	assert_int_equal(sp->nfiles, 1);
	memset(&ch, 0, sizeof(ch));
	ch.partition = sp->partition;
	ch.partition_len = sp->partition_len;
	ch.bucket = sp->bucket;
	ch.total_buckets = -1;
	ch.ndeleted = 1;
	ch.deleted = sp->files[0];
	memset(&req, 0, sizeof(req));
	req.commit_user = user;
	req.commit_identifier = ident;
	req.commit_kind = "COMPACT";
	req.schema = pm_table_schema(table);
	req.nchanges = 1;
	req.changes = &ch;
	req.deleted_files_dv_checked = dv_checked;
	rc = pm_table_commit(pm_env_default(), io, DIR, &req, arena, sid, err);
	pm_scan_free(sc);
	return rc;
}

/*
 * The commit of a bucket-unaware compaction (deleted_files_dv_checked)
 * fails when the DV of a file it deletes changed after its scan
 * (ConflictDetection pairs files with their DV file names): a file read
 * without a DV that a DELETE gave one, a file whose DV a DELETE replaced.
 * Read at the latest snapshot it commits.
 */
static void
test_compact_dv_changed_conflict(void **state)
{
	static const char *keys[] = {"deletion-vectors.enabled"};
	static const char *vals[] = {"true"};
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table_writer *w;
	pm_table   *t1;
	pm_table   *t2;
	pm_table   *t3;
	pm_error	err;
	int64_t		sid,
				rows,
				sum;

	(void) state;
	w = create_and_open(io, arena, false, 1, keys, vals);
	write_rows(w, arena, 0, 100);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &t1, &err), PM_OK);
	scan(io, w, 3, &rows, &sum);
	assert_int_equal(pm_table_writer_commit(w, 2, &sid, &err), PM_OK);
	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &t2, &err), PM_OK);
	scan(io, w, 4, &rows, &sum);
	assert_int_equal(pm_table_writer_commit(w, 3, &sid, &err), PM_OK);
	assert_int_equal(sid, 3);
	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &t3, &err), PM_OK);

	/* read without a DV, now it has one */
	assert_int_equal(commit_compact_of(io, t1, arena, "compactor", INT64_MAX, true, &sid, &err), PM_ERR_CONFLICT);
	assert_non_null(strstr(err.message, "deletion vector"));
	/* read with snapshot 2's DV, replaced by snapshot 3's */
	assert_int_equal(commit_compact_of(io, t2, arena, "compactor", INT64_MAX, true, &sid, &err), PM_ERR_CONFLICT);
	/* read at the latest: commits */
	assert_int_equal(commit_compact_of(io, t3, arena, "compactor", INT64_MAX, true, &sid, &err), PM_OK);
	assert_int_equal(sid, 4);
	pm_table_close(t1);
	pm_table_close(t2);
	pm_table_close(t3);
	pm_table_writer_close(w);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static int
count_index_files(pm_fileio *io)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **names;
	int			n = 0;
	pm_error	err;

	if (io->list(io, DIR "/index", arena, &names, &n, &err) != PM_OK)
		n = 0;
	pm_arena_destroy(arena);
	return n;
}

/*
 * A concurrent commit removes a data file the writer marked rows of (a
 * compaction): the commit fails with PM_ERR_CONFLICT, publishes nothing
 * and leaves no index file behind.
 */
static void
test_file_gone_conflict(void **state)
{
	static const char *keys[] = {"deletion-vectors.enabled"};
	static const char *vals[] = {"true"};
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table_writer *w;
	pm_table   *table;
	pm_error	err;
	int64_t		sid,
				rows,
				sum;
	int			nindex;

	w = create_and_open(io, arena, false, 1, keys, vals);
	write_rows(w, arena, 0, 100);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	scan(io, w, 3, &rows, &sum);
	nindex = count_index_files(io);

	/* "compaction": the data file goes */
	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
	assert_int_equal(commit_compact_of(io, table, arena, "other", 1, false, &sid, &err), PM_OK);
	assert_int_equal(sid, 2);
	pm_table_close(table);

	assert_int_equal(pm_table_writer_commit(w, 2, &sid, &err), PM_ERR_CONFLICT);
	assert_non_null(strstr(err.message, "no longer live"));
	pm_table_writer_abort(w);
	assert_int_equal(count_index_files(io), nindex);
	{
		int64_t		latest;

		assert_int_equal(pm_snapshot_latest_id(io, DIR, arena, &latest, &err), PM_OK);
		assert_int_equal(latest, 2);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_refused_without_dv(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table_writer *w;
	pm_error	err;
	pm_append_dv_file af = {NULL, 0, 0, "f.parquet", 10, NULL, NULL};
	bool		again;

	w = create_and_open(io, arena, false, 0, NULL, NULL);
	assert_false(pm_table_writer_deletes_by_position(w));
	assert_int_equal(pm_table_writer_delete_position(w, &af, 1, 1, &again, &err),
					 PM_ERR_UNSUPPORTED);
	pm_table_writer_close(w);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unaware_partitioned),
		cmocka_unit_test(test_fixed_bucket_bitmap64),
		cmocka_unit_test(test_index_in_data_dir),
		cmocka_unit_test(test_fixed_bucket_at_commit),
		cmocka_unit_test(test_file_gone_conflict),
		cmocka_unit_test(test_unaware_keeps_other_dvs),
		cmocka_unit_test(test_compact_dv_changed_conflict),
		cmocka_unit_test(test_refused_without_dv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
