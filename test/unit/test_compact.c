/*-------------------------------------------------------------------------
 * test_compact.c
 *	  Full compaction (lsm/compact.c) of primary-key tables written by the
 *	  core's writer on the memory FileIO: the rows read back are the same,
 *	  every file is at the max level (num-levels - 1) with file source
 *	  COMPACT, no retract rows, sequence ranges kept, rolling at
 *	  target-file-size, a second compaction does nothing, a later write
 *	  still wins, one partition only, and the refusals; the progress
 *	  callback (paimon_compact's NOTICE) is called once per bucket or task;
 *	  the postpone-bucket compaction (lsm/postpone_compact.c).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/compact.h"
#include "lsm/kv_file_writer.h"
#include "lsm/table_read.h"
#include "format/parquet/parquet_metadata.h"
#include "row/binary_row.h"
#include "table/commit.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"
#include "table/write_options.h"

#include "pk_fixture.h"

/* Files of the latest snapshot: count, and all at `level`, COMPACT, no retracts. */
static int
check_files(pm_fileio *io, const char *dir, int level, int64_t *max_seq)
{
	pk_files	pf;
	int			nfiles;

	*max_seq = -1;
	pk_files_open(io, dir, false, &pf);
	for (int f = 0; f < pf.n; f++)
	{
		const pm_data_file_meta *m = pf.files[f];

		assert_int_equal(m->level, level);
		assert_int_equal(m->file_source, 1);
		assert_int_equal(m->delete_row_count, 0);
		if (m->max_sequence_number > *max_seq)
			*max_seq = m->max_sequence_number;
	}
	nfiles = pf.n;
	pk_files_close(&pf);
	return nfiles;
}

/* What a compaction's progress callback saw: one call per bucket (or append task) done. */
typedef struct progress_log
{
	int			ncalls;
	int			done[8];
	int			total[8];
	int64_t		rows[8];
} progress_log;

static void
record_progress(void *ctx, int done, int total, int64_t rows)
{
	progress_log *p = ctx;

	assert_true(p->ncalls < 8);
	p->done[p->ncalls] = done;
	p->total[p->ncalls] = total;
	p->rows[p->ncalls] = rows;
	p->ncalls++;
}

/* pk_full_compact with the progress callback paimon_compact's NOTICE hangs on. */
static void
compact_logged(pm_fileio *io, const char *dir, pm_compact_result *res, progress_log *log)
{
	pm_table   *table;
	pm_error	err;
	pm_compact_options o;

	memset(&o, 0, sizeof(o));
	memset(log, 0, sizeof(*log));
	o.progress = record_progress;
	o.progress_ctx = log;
	if (pm_table_open(pm_env_default(), io, dir, NULL, &table, &err) != PM_OK)
		fail_msg("open %s: %s", dir, err.message);
	if (pm_table_compact(table, dir, &o, res, &err) != PM_OK)
		fail_msg("compact: %s", err.message);
	pm_table_close(table);
}

/* Three commits (inserts, updates, deletes) into 2 buckets, compacted. */
static void
test_dedup_compact(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/c";
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"2"};
	pm_schema  *s = make_schema(arena, 1, keys, vals);
	pm_error	err;
	trow		rows[MAXID];
	uint8_t		kinds[MAXID];
	result		before,
				after;
	pm_compact_result res;
	progress_log log;
	int64_t		max_seq;
	int			n;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int c = 0; c < 3; c++)
	{
		n = 0;
		for (int i = c; i < 400; i += 1 + c)
		{
			rows[n] = (trow) {i, i % 4 != 0, i * 10 + c, c == 1 ? INT64_MIN : c};
			kinds[n++] = PM_ROW_INSERT;
		}
		for (int i = c; i < 400 && n < MAXID; i += 9)
		{
			rows[n] = (trow) {i, false, INT64_MIN, INT64_MIN};
			kinds[n++] = PM_ROW_DELETE;
		}
		pk_commit_rows(io, dir, arena, rows, kinds, n, 1, c + 1);
	}
	read_all(io, dir, &before);
	assert_true(before.nrows > 100);

	compact_logged(io, dir, &res, &log);
	assert_int_equal(res.snapshot_id, 4);
	assert_int_equal(res.buckets, 2);
	/* progress: bucket 1 of 2, then 2 of 2 with every row written */
	assert_int_equal(log.ncalls, 2);
	assert_int_equal(log.done[0], 1);
	assert_int_equal(log.done[1], 2);
	assert_int_equal(log.total[0], 2);
	assert_int_equal(log.total[1], 2);
	assert_true(log.rows[0] > 0 && log.rows[0] < res.rows_out);
	assert_int_equal(log.rows[1], res.rows_out);
	assert_int_equal(res.files_in, 6);
	assert_int_equal(res.files_out, 2);
	assert_int_equal(res.rows_out, before.nrows);
	read_all(io, dir, &after);
	pk_assert_same(&before, &after);
	/* default num-levels: num-sorted-run.compaction-trigger (5) + 1 */
	assert_int_equal(check_files(io, dir, 5, &max_seq), 2);

	/* nothing left to do, nothing to report */
	compact_logged(io, dir, &res, &log);
	assert_int_equal(res.snapshot_id, 0);
	assert_int_equal(res.buckets, 0);
	assert_int_equal(log.ncalls, 0);

	/* a later write wins over the compacted rows: sequence numbers were kept */
	rows[0] = (trow) {1, true, 77777, 1};
	kinds[0] = PM_ROW_INSERT;
	pk_commit_rows(io, dir, arena, rows, kinds, 1, 1, 5);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 6);
	assert_int_equal(res.buckets, 1);
	read_all(io, dir, &after);
	assert_true(after.present[1]);
	assert_true(after.v[1] == 77777);
	assert_int_equal(after.nrows, before.nrows + (before.present[1] ? 0 : 1));
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* num-levels and a small target-file-size: several files at level 2 (rolled per merged batch of 1024 rows). */
static void
test_levels_and_rolling(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/r";
	static const char *keys[] = {"bucket", "num-levels", "target-file-size"};
	static const char *vals[] = {"1", "3", "1 b"};
	pm_schema  *s = make_schema(arena, 3, keys, vals);
	pm_error	err;
	trow		rows[MAXID];
	uint8_t		kinds[MAXID];
	result		before,
				after;
	pm_compact_result res;
	int64_t		max_seq;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int c = 0; c < 2; c++)
	{
		for (int i = 0; i < 3000; i++)
		{
			rows[i] = (trow) {i, true, i + c * 10000, c};
			kinds[i] = PM_ROW_INSERT;
		}
		pk_commit_rows(io, dir, arena, rows, kinds, 3000, 1, c + 1);
	}
	read_all(io, dir, &before);
	pk_full_compact(io, dir, NULL, &res);
	assert_true(res.files_out > 1);
	assert_int_equal(check_files(io, dir, 2, &max_seq), res.files_out);
	assert_int_equal(max_seq, 5999);
	read_all(io, dir, &after);
	pk_assert_same(&before, &after);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}


/* The Parquet codec of every column chunk of every file of the latest snapshot at level; -1 if mixed. */
static int
codec_at_level(pm_fileio *io, const char *dir, int level, int *nfiles)
{
	pk_files	pf;
	int			codec = -2;
	pm_arena   *arena = pm_arena_create(pm_env_default());

	*nfiles = 0;
	pk_files_open(io, dir, true, &pf);
	for (int f = 0; f < pf.n; f++)
	{
		const pm_data_file_meta *m = pf.files[f];
		uint8_t    *data;
		size_t		len;
		uint32_t	flen;
		pm_pq_metadata md;
		pm_error	err;

		if (m->level != level)
			continue;
		(*nfiles)++;
		assert_int_equal(pm_fileio_read_all(io, m->path, arena, 1 << 26, &data, &len, &err), PM_OK);
		assert_true(len > 12);
		memcpy(&flen, data + len - 8, 4);
		assert_int_equal(pm_pq_metadata_parse(data + len - 8 - flen, flen, len, arena, &md, &err),
						 PM_OK);
		for (int g = 0; g < md.nrow_groups; g++)
			for (int c = 0; c < md.row_groups[g].ncolumns; c++)
			{
				int			k = md.row_groups[g].columns[c].codec;

				codec = codec == -2 || codec == k ? k : -1;
			}
	}
	pk_files_close(&pf);
	pm_arena_destroy(arena);
	return codec;
}

/* file.compression.per.level: level-0 files of writes and max-level files of compaction. */
static void
test_compression_per_level(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/pl";
	static const char *keys[] = {"bucket", "file.compression.per.level", "file.compression"};
	static const char *vals[] = {"1", " 0 : snappy , '5:none'", "gzip"};
	pm_schema  *s = make_schema(arena, 3, keys, vals);
	pm_error	err;
	trow		rows[MAXID];
	uint8_t		kinds[MAXID];
	pm_compact_result res;
	int			n;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int c = 0; c < 2; c++)
	{
		for (int i = 0; i < 500; i++)
		{
			rows[i] = (trow) {i, true, i + c, c};
			kinds[i] = PM_ROW_INSERT;
		}
		pk_commit_rows(io, dir, arena, rows, kinds, 500, 1, c + 1);
	}
	assert_int_equal(codec_at_level(io, dir, 0, &n), PM_PQ_CODEC_SNAPPY);
	assert_int_equal(n, 2);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(codec_at_level(io, dir, 5, &n), PM_PQ_CODEC_UNCOMPRESSED);
	assert_int_equal(n, 1);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);

	/* a level the map does not name: file.compression */
	io = pm_memory_fileio_create(pm_env_default());
	arena = pm_arena_create(pm_env_default());
	vals[1] = "5:snappy";
	s = make_schema(arena, 3, keys, vals);
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	pk_commit_rows(io, dir, arena, rows, kinds, 500, 1, 1);
	assert_int_equal(codec_at_level(io, dir, 0, &n), PM_PQ_CODEC_GZIP);
	/* one file is upgraded to the max level, not rewritten: its compression stays */
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(codec_at_level(io, dir, 5, &n), PM_PQ_CODEC_GZIP);
	pk_commit_rows(io, dir, arena, rows, kinds, 500, 1, 3);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(codec_at_level(io, dir, 5, &n), PM_PQ_CODEC_SNAPPY);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
	vals[1] = " 0 : snappy , '5:none'";
}

/* "level:extension,..." of the data files of the latest snapshot (every level), sorted */
static const char *
file_kinds(pm_fileio *io, const char *dir, pm_arena *arena)
{
	pk_files	pf;
	char	   *kinds[64];
	int			n = 0;
	char	   *out = pm_arena_strdup(arena, "");

	pk_files_open(io, dir, true, &pf);
	for (int f = 0; f < pf.n && n < 64; f++)
	{
		const char *dot = strrchr(pf.files[f]->file_name, '.');

		kinds[n++] = pm_arena_sprintf(arena, "%d:%s", pf.files[f]->level, dot ? dot + 1 : "");
	}
	pk_files_close(&pf);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(kinds[j - 1], kinds[j]) > 0; j--)
		{
			char	   *x = kinds[j];

			kinds[j] = kinds[j - 1];
			kinds[j - 1] = x;
		}
	for (int i = 0; i < n; i++)
		out = pm_arena_sprintf(arena, "%s%s%s", out, i ? "," : "", kinds[i]);
	return out;
}

/*
 * file.format.per.level: level-0 files in Avro, compaction output in Parquet;
 * a lookup compaction (deletion vectors) moving a level-0 file to a level of
 * another format rewrites it instead of upgrading it.
 */
static void
test_format_per_level(void **state)
{
	static const char *keys[] = {"bucket", "file.format.per.level", "deletion-vectors.enabled"};
	static const char *vals[] = {"1", "0:avro", "false"};
	trow		rows[MAXID];
	uint8_t		kinds[MAXID];
	pm_compact_result res;

	(void) state;
	for (int dv = 0; dv < 2; dv++)
	{
		pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
		pm_arena   *arena = pm_arena_create(pm_env_default());
		const char *dir = "/mem/wh/db.db/fl";
		pm_error	err;
		result		before,
					after;

		vals[2] = dv ? "true" : "false";
		assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 3, keys, vals),
										 &err), PM_OK);
		for (int c = 0; c < 2; c++)
		{
			for (int i = 0; i < 300; i++)
			{
				rows[i] = (trow) {i * (c + 1), true, i + c, c};
				kinds[i] = PM_ROW_INSERT;
			}
			pk_commit_rows(io, dir, arena, rows, kinds, 300, 1, dv ? 2 * (c + 1) : c + 1);
			/* the first commit's lookup compaction: the one level-0 file rewritten, not upgraded */
			if (dv && c == 0)
				assert_string_equal(file_kinds(io, dir, arena), "5:parquet");
		}
		read_all(io, dir, &before);
		if (dv)
		{
			/* the commits' lookup compactions rewrote every level-0 file into Parquet */
			assert_null(strstr(file_kinds(io, dir, arena), "avro"));
			assert_null(strstr(file_kinds(io, dir, arena), "0:"));
		}
		else
		{
			assert_string_equal(file_kinds(io, dir, arena), "0:avro,0:avro");
			pk_full_compact(io, dir, NULL, &res);
			assert_string_equal(file_kinds(io, dir, arena), "5:parquet");
		}
		read_all(io, dir, &after);
		pk_assert_same(&before, &after);
		pm_arena_destroy(arena);
		pm_memory_fileio_destroy(io);
	}
}

static void
test_refusals(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	/* postpone buckets, deletion vectors, first-row: empty, nothing to do */
	static const char *k1[] = {"bucket", "deletion-vectors.enabled"};
	static const char *v1[] = {"1", "true"};
	static const char *k2[] = {"bucket", "merge-engine"};
	static const char *v2[] = {"1", "first-row"};
	static const char *k4[] = {"bucket"};
	static const char *v4[] = {"-2"};
	static const char *k3[] = {"bucket"};
	static const char *v3[] = {"1"};
	struct
	{
		const char *dir;
		pm_schema  *s;
		const char *partition;
		pm_code		want;
	}			cases[5];
	pm_error	err;

	(void) state;
	cases[0] = (typeof(cases[0])) {"/mem/wh/db.db/dv", make_schema(arena, 2, k1, v1), NULL, PM_OK};
	cases[1] = (typeof(cases[0])) {"/mem/wh/db.db/fr", make_schema(arena, 2, k2, v2), NULL, PM_OK};
	cases[2] = (typeof(cases[0])) {"/mem/wh/db.db/np", make_schema(arena, 1, k3, v3), "a=1", PM_ERR_INVALID};
	cases[3] = (typeof(cases[0])) {"/mem/wh/db.db/pp", make_schema(arena, 1, k4, v4), NULL, PM_OK};
	cases[4] = (typeof(cases[0])) {"/mem/wh/db.db/dvp", make_schema(arena, 2, k1, v1), "a=1", PM_ERR_INVALID};
	for (int i = 0; i < 5; i++)
	{
		pm_table   *table;
		pm_compact_options o;
		pm_compact_result res;

		memset(&o, 0, sizeof(o));
		o.partition = cases[i].partition;
		assert_int_equal(pm_table_create(pm_env_default(), io, cases[i].dir, cases[i].s, &err), PM_OK);
		assert_int_equal(pm_table_open(pm_env_default(), io, cases[i].dir, NULL, &table, &err), PM_OK);
		assert_int_equal(pm_table_compact(table, cases[i].dir, &o, &res, &err), cases[i].want);
		if (cases[i].want == PM_OK)
			assert_int_equal(res.snapshot_id, 0);
		pm_table_close(table);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* Sorted runs of the single bucket of the latest snapshot; levels seen into *levels_mask. */
static int
sorted_runs(pm_fileio *io, const char *dir, unsigned *levels_mask)
{
	pk_files	pf;
	int			runs = 0;
	unsigned	levels = 0;

	pk_files_open(io, dir, false, &pf);
	for (int f = 0; f < pf.n; f++)
	{
		if (pf.files[f]->level == 0)
			runs++;
		levels |= 1u << pf.files[f]->level;
	}
	for (int l = 1; l < 32; l++)
		if (levels & (1u << l))
			runs++;
	*levels_mask |= levels;
	pk_files_close(&pf);
	return runs;
}

/*
 * Compaction at commit: 14 commits of overlapping keys with updates and
 * deletes into one bucket with num-sorted-run.compaction-trigger 3. After
 * every commit the rows are the model's, the sorted runs stay at most 3,
 * a compacting commit publishes APPEND then COMPACT; some compactions are
 * partial (output below the max level, deletes kept there). Without
 * compaction the runs pile up.
 */
static void
at_commit(bool enabled)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/auto";
	static const char *keys[] = {"bucket", "num-sorted-run.compaction-trigger"};
	static const char *vals[] = {"1", "3"};
	pm_schema  *s = make_schema(arena, 2, keys, vals);
	pm_error	err;
	static trow rows[MAXID];
	static uint8_t kinds[MAXID];
	static result model,
				got;
	int64_t		sid = 0;
	int			compactions = 0,
				runs = 0;
	unsigned	levels = 0;

	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	memset(&model, 0, sizeof(model));
	for (int c = 0; c < 14; c++)
	{
		pm_table_writer *w = open_writer(io, dir);
		const pm_writer_compaction *wc;
		int			n = 0;
		int64_t		id;

		pm_table_writer_set_compaction(w, enabled);
		/* a growing-then-shrinking batch: run sizes differ, so size ratio picks partially */
		for (int i = 0; i < 60 + (c % 4) * 150; i++)
		{
			int			key = (c * 37 + i * 3) % 900;

			rows[n] = (trow) {key, true, c * 1000 + key, c};
			kinds[n++] = PM_ROW_INSERT;
			model.present[key] = true;
			model.name_null[key] = false;
			model.v[key] = c * 1000 + key;
			model.w[key] = c;
		}
		for (int key = c; key < 900; key += 41)
		{
			rows[n] = (trow) {key, false, 0, 0};
			kinds[n++] = PM_ROW_DELETE;
			model.present[key] = false;
		}
		write_kinds(w, arena, rows, kinds, n);
		if (pm_table_writer_commit(w, 1, &id, &err) != PM_OK)
			fail_msg("commit: %s", err.message);
		assert_int_equal(id, sid + 1);
		wc = pm_table_writer_compaction(w);
		assert_false(wc->failed);
		if (wc->snapshot_id != 0)
		{
			assert_int_equal(wc->snapshot_id, id + 1);
			assert_true(wc->files_in >= 2);
			compactions++;
			sid = id + 1;
		}
		else
			sid = id;
		pm_table_writer_close(w);
		model.nrows = 0;
		for (int k = 0; k < MAXID; k++)
			model.nrows += model.present[k];
		read_all(io, dir, &got);
		pk_assert_same(&model, &got);
		runs = sorted_runs(io, dir, &levels);
		if (enabled)
			assert_true(runs <= 3);
	}
	if (enabled)
	{
		assert_true(compactions >= 4);
		/* partial compactions: some files went to a level between 1 and the max (3) */
		assert_true((levels & ((1u << 1) | (1u << 2))) != 0);
		assert_true((levels & (1u << 3)) != 0);
	}
	else
	{
		assert_int_equal(compactions, 0);
		assert_int_equal(runs, 14);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_compact_at_commit(void **state)
{
	(void) state;
	at_commit(true);
}

static void
test_no_compact_at_commit(void **state)
{
	(void) state;
	at_commit(false);
}

/* Files of the latest snapshot: count, COMPACT ones, and their sequence range. */
static int
count_files(pm_fileio *io, const char *dir, int *compacted, int64_t *min_seq, int64_t *max_seq)
{
	pk_files	pf;
	int			n;

	*compacted = 0;
	*min_seq = INT64_MAX;
	*max_seq = -1;
	pk_files_open(io, dir, false, &pf);
	for (int f = 0; f < pf.n; f++)
	{
		const pm_data_file_meta *m = pf.files[f];

		assert_int_equal(m->level, 0);
		if (m->file_source == 1)
		{
			(*compacted)++;
			if (m->min_sequence_number < *min_seq)
				*min_seq = m->min_sequence_number;
			if (m->max_sequence_number > *max_seq)
				*max_seq = m->max_sequence_number;
		}
	}
	n = pf.n;
	pk_files_close(&pf);
	return n;
}

/*
 * Append tables: fixed buckets (every bucket of 3+ small files into one
 * file) and bucket -1 (compaction.min.file-num small files of a partition
 * into one); the same rows, fewer files, file source COMPACT, sequence
 * numbers counted from the first input's; too few files: nothing.
 */
static void
append_compact(const char *bucket, int commits, int want_in, int want_out)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/log";
	static const char *keys[] = {"bucket", "bucket-key"};
	const char *vals[] = {bucket, "id"};
	pm_schema  *s = make_schema(arena, strcmp(bucket, "-1") == 0 ? 1 : 2, keys, vals);
	pm_error	err;
	static trow rows[MAXID];
	static result before,
				after;
	pm_compact_result res;
	progress_log log;
	int			compacted;
	int64_t		min_seq,
				max_seq;

	s->nprimary_keys = 0;
	s->primary_keys = NULL;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int c = 0; c < commits; c++)
	{
		pm_table_writer *w = open_writer(io, dir);

		pm_table_writer_set_compaction(w, false);
		for (int i = 0; i < 100; i++)
			rows[i] = (trow) {c * 100 + i, i % 3 != 0, c * 100 + i, c};
		write_kinds(w, arena, rows, NULL, 100);
		commit(w, c + 1, c + 1);
		pm_table_writer_close(w);
	}
	read_all(io, dir, &before);
	assert_int_equal(before.nrows, commits * 100);
	compact_logged(io, dir, &res, &log);
	assert_int_equal(res.files_in, want_in);
	assert_int_equal(res.files_out, want_out);
	/* progress: one call per compaction task, the last with every row written */
	assert_int_equal(log.ncalls, want_in == 0 ? 0 : want_out);
	for (int i = 0; i < log.ncalls; i++)
	{
		assert_int_equal(log.done[i], i + 1);
		assert_true(log.total[i] >= log.ncalls);
	}
	if (log.ncalls > 0)
		assert_int_equal(log.rows[log.ncalls - 1], res.rows_out);
	read_all(io, dir, &after);
	pk_assert_same(&before, &after);
	if (want_in == 0)
	{
		assert_int_equal(res.snapshot_id, 0);
		assert_int_equal(count_files(io, dir, &compacted, &min_seq, &max_seq), commits * (strcmp(bucket, "2") == 0 ? 2 : 1));
	}
	else
	{
		assert_int_equal(res.snapshot_id, commits + 1);
		assert_int_equal(res.rows_out, commits * 100);
		assert_int_equal(count_files(io, dir, &compacted, &min_seq, &max_seq), want_out);
		assert_int_equal(compacted, want_out);
		assert_int_equal(min_seq, 0);
		/* one counter from the first input's minimum over all rows rewritten */
		if (strcmp(bucket, "-1") == 0)
			assert_int_equal(max_seq, commits * 100 - 1);
		else
			assert_true(max_seq > 0 && max_seq < commits * 100 - 1);
		/* again: one file per bucket, nothing to do */
		pk_full_compact(io, dir, NULL, &res);
		assert_int_equal(res.snapshot_id, 0);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_append_compact(void **state)
{
	(void) state;
	append_compact("2", 6, 12, 2);	/* two buckets of 6 files */
	append_compact("2", 1, 0, 0);	/* fewer than 3 files a bucket */
	append_compact("-1", 4, 0, 0);	/* fewer than compaction.min.file-num */
	append_compact("-1", 5, 5, 1);
}

/*
 * Append tables at commit (BucketedAppendCompactManager.pickCompactBefore):
 * one bucket, a commit of 100 rows each; the 5th commit (5 small files)
 * publishes APPEND then COMPACT (its user and identifier) of the 5 files
 * into one, sequence numbers 0..499 kept, the rows unchanged; the 6th
 * (2 files) and the ones before the 5th compact nothing. Bucket -1 and
 * compaction off or write-only: never (Java leaves bucket -1 to the
 * compaction job). With a file index every file has one, the compacted
 * one too (compactRewrite writes it).
 */
static bool
all_files_indexed(pm_fileio *io, const char *dir)
{
	pk_files	pf;
	bool		all = true;

	pk_files_open(io, dir, false, &pf);
	for (int f = 0; f < pf.n; f++)
		if (pf.files[f]->embedded_file_index == NULL && pf.files[f]->nextra_files == 0)
			all = false;
	pk_files_close(&pf);
	return all;
}

static void
append_at_commit(const char *bucket, bool enabled, const char *extra_key, const char *extra_val)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/logc";
	const char *keys[] = {"bucket", "bucket-key", extra_key};
	const char *vals[] = {bucket, "id", extra_val};
	int			nopt = strcmp(bucket, "-1") == 0 ? 1 : 2;
	pm_schema  *s;
	bool		compacts = enabled && strcmp(bucket, "1") == 0 &&
		(extra_key == NULL || strcmp(extra_key, "write-only") != 0);
	pm_error	err;
	static trow rows[MAXID];
	static result model,
				got;
	int64_t		sid = 0;
	int			compacted;
	int64_t		min_seq,
				max_seq;

	if (extra_key != NULL && nopt == 1)
	{
		keys[1] = extra_key;
		vals[1] = extra_val;
	}
	s = make_schema(arena, nopt + (extra_key != NULL), keys, vals);
	s->nprimary_keys = 0;
	s->primary_keys = NULL;
	memset(&model, 0, sizeof(model));
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int c = 0; c < 7; c++)
	{
		pm_table_writer *w = open_writer(io, dir);
		const pm_writer_compaction *wc;
		int64_t		id;
		int			files;

		pm_table_writer_set_compaction(w, enabled);
		for (int i = 0; i < 100; i++)
		{
			int			key = c * 100 + i;

			rows[i] = (trow) {key, true, key * 7, c};
			model.present[key] = true;
			model.name_null[key] = false;
			model.v[key] = key * 7;
			model.w[key] = c;
		}
		model.nrows += 100;
		write_kinds(w, arena, rows, NULL, 100);
		if (pm_table_writer_commit(w, 40 + c, &id, &err) != PM_OK)
			fail_msg("commit: %s", err.message);
		assert_int_equal(id, sid + 1);
		wc = pm_table_writer_compaction(w);
		assert_false(wc->failed);
		if (compacts && c == 4)
		{
			pm_snapshot *snap;

			assert_int_equal(wc->snapshot_id, id + 1);
			assert_int_equal(wc->buckets, 1);
			assert_int_equal(wc->files_in, 5);
			assert_int_equal(wc->files_out, 1);
			assert_int_equal(wc->rows, 500);
			assert_int_equal(pm_snapshot_load(io, dir, id, arena, &snap, &err), PM_OK);
			assert_string_equal(snap->commit_kind, "APPEND");
			assert_int_equal(pm_snapshot_load(io, dir, id + 1, arena, &snap, &err), PM_OK);
			assert_string_equal(snap->commit_kind, "COMPACT");
			assert_int_equal(snap->commit_identifier, 40 + c);
			sid = id + 1;
		}
		else
		{
			assert_int_equal(wc->snapshot_id, 0);
			sid = id;
		}
		pm_table_writer_close(w);
		read_all(io, dir, &got);
		pk_assert_same(&model, &got);
		files = count_files(io, dir, &compacted, &min_seq, &max_seq);
		if (compacts && c >= 4)
		{
			assert_int_equal(files, 1 + c - 4);
			assert_int_equal(compacted, 1);
			assert_int_equal(min_seq, 0);
			assert_int_equal(max_seq, 499);
		}
		else
		{
			assert_int_equal(files, c + 1);
			assert_int_equal(compacted, 0);
		}
		if (extra_key != NULL && strncmp(extra_key, "file-index.", 11) == 0)
			assert_true(all_files_indexed(io, dir));
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_append_compact_at_commit(void **state)
{
	(void) state;
	append_at_commit("1", true, NULL, NULL);
	append_at_commit("1", false, NULL, NULL);
	append_at_commit("-1", true, NULL, NULL);
	append_at_commit("1", true, "write-only", "true");
	append_at_commit("1", true, "file-index.bloom-filter.columns", "v");
}

/*
 * One postpone file of `rows` (kinds, sequence numbers from seq0) in
 * tdir's bucket-postpone directory, its creation time set to `created`,
 * its name from `name` (NULL: from the time); *meta its meta (in arena).
 */
static void
postpone_file_named(pm_fileio *io, pm_arena *arena, const char *tdir, const trow *rows,
					const int8_t *kinds, int n, int64_t seq0, int64_t created, const char *name,
					pm_data_file_meta *meta)
{
	pm_kv_layout *layout;
	int64_t    *seq = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) n);
	char		uuid[40];

	for (int i = 0; i < n; i++)
		seq[i] = seq0 + i;
	if (name != NULL)
		snprintf(uuid, sizeof(uuid), "%s", name);
	else
		snprintf(uuid, sizeof(uuid), "pp-%lld", (long long) created);
	pk_kv_file(io, arena, tdir, pm_arena_sprintf(arena, "%s/bucket-postpone", tdir), uuid, rows,
			   seq, kinds, n, meta, &layout);
	meta->creation_time_millis = created;
}

static void
postpone_file(pm_fileio *io, pm_arena *arena, const char *tdir, const trow *rows,
			  const int8_t *kinds, int n, int64_t seq0, int64_t created, pm_data_file_meta *meta)
{
	postpone_file_named(io, arena, tdir, rows, kinds, n, seq0, created, NULL, meta);
}

/* The number of files in bucket directory `bucket` of tdir (0 when it does not exist). */
static int
count_dir(pm_fileio *io, pm_arena *arena, const char *tdir, int bucket)
{
	char	  **names;
	int			n;
	pm_error	err;

	if (io->list(io, pm_arena_sprintf(arena, "%s/bucket-%d", tdir, bucket), arena, &names, &n,
				 &err) != PM_OK)
		return 0;
	return n;
}

/* Commit postpone files (bucket -2) of the unpartitioned table tdir, in this manifest order. */
static void
commit_postpone(pm_fileio *io, pm_arena *arena, const char *tdir, const pm_data_file_meta *files,
				int n, int64_t want_sid)
{
	const pm_type *empty = pm_type_new_row(arena, NULL, 0, false);
	pm_value	none;
	uint8_t    *part;
	size_t		part_len;
	pm_schema  *s;
	pm_commit_change ch;
	pm_commit_request req;
	int64_t		sid;
	pm_error	err;

	memset(&none, 0, sizeof(none));
	assert_int_equal(pm_binary_row_encode_serialized(arena, empty, &none, &part, &part_len, &err),
					 PM_OK);
	assert_int_equal(pm_schema_load_latest(io, tdir, arena, &s, &err), PM_OK);
	memset(&ch, 0, sizeof(ch));
	ch.partition = part;
	ch.partition_len = (int32_t) part_len;
	ch.bucket = -2;
	ch.total_buckets = -2;
	ch.nadded = n;
	ch.added = files;
	memset(&req, 0, sizeof(req));
	req.commit_user = "flink-postpone";
	req.commit_identifier = want_sid;
	req.commit_kind = "APPEND";
	req.schema = s;
	req.nchanges = 1;
	req.changes = &ch;
	assert_int_equal(pm_table_commit(pm_env_default(), io, tdir, &req, arena, &sid, &err), PM_OK);
	assert_int_equal(sid, want_sid);
}

/*
 * Postpone buckets (bucket = -2): two postpone files, unsorted, committed
 * newest first; the compaction replays them oldest first (creation time)
 * into postpone.default-bucket-num = 3 buckets: a key twice in one file
 * keeps its later record, deletes and updates of the newer file win; one
 * COMPACT snapshot; the postpone files no longer live (a second compaction
 * makes no snapshot); a later postpone file of known keys lands in the same
 * 3 buckets; a compaction that commits after another one moved its files
 * fails (PM_ERR_CONFLICT) and removes what it wrote.
 * postpone.default-bucket-num = 0 is refused, nothing left on disk.
 */
static void
test_postpone_compact(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/pp";
	const char *bad = "/mem/wh/db.db/pp0";
	static const char *keys[] = {"bucket", "postpone.default-bucket-num"};
	static const char *vals[] = {"-2", "3"};
	static const char *vals0[] = {"-2", "0"};
	static trow older[201],
				newer[60];
	static int8_t kold[201],
				knew[60];
	pm_data_file_meta files[2];
	pm_compact_result res;
	pm_table   *table;
	pm_snapshot *snap;
	pk_files	pf;
	result		got,
				want;
	int			nnew = 0;
	pm_error	err;

	(void) state;
	pk_create(io, arena, dir, 2, keys, vals);
	/* older: ids 199..0 (unsorted), then id 5 again; newer: deletes and updates */
	for (int i = 0; i < 200; i++)
	{
		older[i] = (trow) {199 - i, true, 199 - i, i};
		kold[i] = PM_ROW_INSERT;
	}
	older[200] = (trow) {5, true, 555, 1};
	kold[200] = PM_ROW_UPDATE_AFTER;
	for (int i = 0; i < 50; i += 7)
	{
		newer[nnew] = (trow) {i, false, 0, INT64_MIN};
		knew[nnew++] = PM_ROW_DELETE;
	}
	for (int i = 149; i >= 100; i -= 3)
	{
		newer[nnew] = (trow) {i, true, 1000 + i, 7};
		knew[nnew++] = PM_ROW_UPDATE_AFTER;
	}
	/* sequence numbers say nothing across postpone files: the newer restarts at 0 */
	postpone_file(io, arena, dir, newer, knew, nnew, 0, 2000, &files[0]);
	postpone_file(io, arena, dir, older, kold, 201, 0, 1000, &files[1]);
	commit_postpone(io, arena, dir, files, 2, 1);
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, 0);

	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 2);
	assert_int_equal(res.files_in, 2);
	assert_int_equal(res.rows_out, 201 + nnew);
	assert_int_equal(res.buckets, 3);
	assert_int_equal(res.files_out, 3);
	memset(&want, 0, sizeof(want));
	for (int i = 0; i < 200; i++)
	{
		want.present[i] = true;
		want.v[i] = i;
		want.w[i] = 199 - i;
	}
	want.v[5] = 555;
	want.w[5] = 1;
	for (int i = 0; i < nnew; i++)
	{
		want.present[newer[i].id] = knew[i] != PM_ROW_DELETE;
		want.v[newer[i].id] = newer[i].v;
		want.w[newer[i].id] = newer[i].w;
	}
	for (int i = 0; i < 200; i++)
		want.nrows += want.present[i];
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, want.nrows);
	pk_assert_same(&got, &want);
	assert_int_equal(pm_snapshot_load(io, dir, 2, arena, &snap, &err), PM_OK);
	assert_string_equal(snap->commit_kind, "COMPACT");
	pk_files_open(io, dir, true, &pf);
	assert_int_equal(pf.n, 3);
	for (int f = 0; f < pf.n; f++)
		assert_int_equal(pf.files[f]->level, 0);
	pk_files_close(&pf);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 0);

	/* a later postpone file: the known bucket count, newer sequence numbers per bucket */
	for (int i = 0; i < 10; i++)
	{
		newer[i] = (trow) {i * 20, true, -i, 3};
		knew[i] = PM_ROW_INSERT;
		want.present[i * 20] = true;
		want.v[i * 20] = -i;
		want.w[i * 20] = 3;
	}
	want.nrows = 0;
	for (int i = 0; i < 200; i++)
		want.nrows += want.present[i];
	postpone_file(io, arena, dir, newer, knew, 10, 0, 3000, &files[0]);
	commit_postpone(io, arena, dir, files, 1, 3);
	/* a compaction planned now, committing after another one moved the file */
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 4);
	assert_int_equal(res.files_in, 1);
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, want.nrows);
	pk_assert_same(&got, &want);
	{
		int			before = 0,
					after = 0;

		for (int b = 0; b < 3; b++)
			before += count_dir(io, arena, dir, b);
		assert_true(before >= 3);
		assert_int_equal(pm_table_compact(table, dir, NULL, &res, &err), PM_ERR_CONFLICT);
		assert_non_null(strstr(err.message, "no longer live"));
		for (int b = 0; b < 3; b++)
			after += count_dir(io, arena, dir, b);
		assert_int_equal(after, before);	/* what it wrote is removed */
		pm_table_close(table);
		read_all(io, dir, &got);
		pk_assert_same(&got, &want);
	}

	/* postpone.default-bucket-num = 0: refused, the postpone file stays live */
	pk_create(io, arena, bad, 2, keys, vals0);
	postpone_file(io, arena, bad, older, kold, 10, 0, 1000, &files[0]);
	commit_postpone(io, arena, bad, files, 1, 1);
	assert_int_equal(pm_table_open(pm_env_default(), io, bad, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_compact(table, bad, NULL, &res, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "postpone.default-bucket-num"));
	assert_int_equal(pm_table_snapshot_id(table), 1);
	pm_table_close(table);
	assert_false(io->exists(io, "/mem/wh/db.db/pp0/bucket-0"));
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Two postpone files of the same millisecond (two quick statements): they
 * are replayed in commit order, as Java's stable sort by creationTime
 * keeps them, whatever their names say (the later one's name sorts first
 * here).
 */
static void
test_postpone_same_millisecond(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/pp_ms";
	static const char *keys[] = {"bucket", "postpone.default-bucket-num"};
	static const char *vals[] = {"-2", "2"};
	static const trow first[] = {{1, true, 10, 1}, {2, true, 20, 2}};
	static const trow second[] = {{1, true, 11, 3}, {2, true, 22, 4}};
	static const int8_t kinds[] = {PM_ROW_INSERT, PM_ROW_INSERT};
	pm_data_file_meta files[2];
	pm_compact_result res;
	result		got,
				want;

	(void) state;
	pk_create(io, arena, dir, 2, keys, vals);
	postpone_file_named(io, arena, dir, first, kinds, 2, 0, 5000, "pp-z", &files[0]);
	postpone_file_named(io, arena, dir, second, kinds, 2, 0, 5000, "pp-a", &files[1]);
	commit_postpone(io, arena, dir, files, 1, 1);
	commit_postpone(io, arena, dir, files + 1, 1, 2);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.files_in, 2);
	memset(&want, 0, sizeof(want));
	for (int i = 0; i < 2; i++)
	{
		want.present[second[i].id] = true;
		want.v[second[i].id] = second[i].v;
		want.w[second[i].id] = second[i].w;
	}
	want.nrows = 2;
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, 2);
	pk_assert_same(&got, &want);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup_compact),
		cmocka_unit_test(test_levels_and_rolling),
		cmocka_unit_test(test_compression_per_level),
		cmocka_unit_test(test_format_per_level),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_postpone_compact),
		cmocka_unit_test(test_postpone_same_millisecond),
		cmocka_unit_test(test_compact_at_commit),
		cmocka_unit_test(test_no_compact_at_commit),
		cmocka_unit_test(test_append_compact),
		cmocka_unit_test(test_append_compact_at_commit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
