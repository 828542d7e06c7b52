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
 *	  Bucket-unaware (partitioned) and fixed-bucket (64-bit DVs) tables;
 *	  the latter compacted (pm_append_compact drops the deleted rows and
 *	  the DVs), the former refused; compaction at commit of a fixed-bucket
 *	  table drops them too.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

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
				f->file_name, f->row_count, f->deletion_file};

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

	assert_int_equal(pm_table_create(pm_env_default(), io, DIR,
									 make_schema(arena, partitioned, nopt, keys, vals), &err),
					 PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, DIR, "u1", &w, &err), PM_OK);
	assert_true(pm_table_writer_deletes_by_position(w));
	write_rows(w, arena, 0, NROWS / 2);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	write_rows(w, arena, NROWS / 2, NROWS / 2);
	assert_int_equal(pm_table_writer_commit(w, 2, &sid, &err), PM_OK);
	assert_int_equal(sid, 2);

	/* a position outside the file is refused */
	{
		pm_append_dv_file af = {NULL, 0, 0, "nope.parquet", 10, NULL};
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

	/* compaction: fixed buckets drop the deleted rows and their DVs */
	{
		pm_table   *table;
		pm_compact_result res;
		pm_scan    *sc;
		pm_code		rc;

		assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
		rc = pm_append_compact(table, DIR, NULL, &res, &err);
		pm_table_close(table);
		if (partitioned)
			assert_int_equal(rc, PM_ERR_UNSUPPORTED);
		else
		{
			assert_int_equal(rc, PM_OK);
			assert_int_equal(res.snapshot_id, 5);
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
	pm_scan    *sc;
	pm_error	err;
	int64_t		sid,
				rows,
				sum;
	const pm_split *sp;
	pm_commit_change ch;
	pm_commit_request req;
	int			nindex;

	assert_int_equal(pm_table_create(pm_env_default(), io, DIR,
									 make_schema(arena, false, 1, keys, vals), &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, DIR, "u1", &w, &err), PM_OK);
	write_rows(w, arena, 0, 100);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	scan(io, w, 3, &rows, &sum);
	nindex = count_index_files(io);

	/* "compaction": the data file goes */
	assert_int_equal(pm_table_open(pm_env_default(), io, DIR, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &sc, &err), PM_OK);
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
	req.commit_user = "other";
	req.commit_identifier = 1;
	req.commit_kind = "COMPACT";
	req.schema = pm_table_schema(table);
	req.nchanges = 1;
	req.changes = &ch;
	assert_int_equal(pm_table_commit(pm_env_default(), io, DIR, &req, arena, &sid, &err), PM_OK);
	assert_int_equal(sid, 2);
	pm_scan_free(sc);
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
	pm_append_dv_file af = {NULL, 0, 0, "f.parquet", 10, NULL};
	bool		again;

	assert_int_equal(pm_table_create(pm_env_default(), io, DIR,
									 make_schema(arena, false, 0, NULL, NULL), &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, DIR, "u1", &w, &err), PM_OK);
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
		cmocka_unit_test(test_fixed_bucket_at_commit),
		cmocka_unit_test(test_file_gone_conflict),
		cmocka_unit_test(test_refused_without_dv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
