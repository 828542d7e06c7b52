/*-------------------------------------------------------------------------
 * test_pk_write.c
 *	  Writing primary-key tables (lsm/merge_tree_writer.c, write_buffer.c,
 *	  kv_file_writer.c through table/table_write.c) on the memory FileIO,
 *	  read back through our own merge-on-read (pm_table_read): records of
 *	  one key merged at flush, sequence numbers above the bucket's max,
 *	  -D rows, a small write-buffer-size flushing several level-0 files,
 *	  partial-update and aggregation, the file metas (level 0, min/max key,
 *	  sequence range, key stats), and the refusals.
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
#include "lsm/table_read.h"
#include "row/binary_row.h"
#include "table/index_manifest.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#include "pk_fixture.h"

/* keys of the tests below (at most MAXID) */
#define NKEYS 512

/*
 * Deduplicate, 2 buckets: 300 keys written twice in one commit (the
 * second value wins), 50 of them deleted; then a second commit updates
 * 100 keys. File metas checked.
 */
static void
test_dedup(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/dedup";
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"2"};
	pm_schema  *s = make_schema(arena, 1, keys, vals);
	pm_table_writer *w;
	pm_error	err;
	trow		rows[700];
	uint8_t		kinds[700];
	int			n = 0;
	result		r;
	pm_table   *table;
	pm_scan    *scan;
	int64_t		max_seq[2] = {-1, -1};

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	w = open_writer(io, dir);
	/* descending ids first, so the buffer has to sort */
	for (int i = 299; i >= 0; i--)
	{
		rows[n] = (trow) {i, true, i, i % 5 == 0 ? INT64_MIN : -i};
		kinds[n++] = PM_ROW_INSERT;
	}
	for (int i = 0; i < 300; i++)
	{
		rows[n] = (trow) {i, i % 3 != 0, 1000 + i, 7};
		kinds[n++] = PM_ROW_UPDATE_AFTER;
	}
	for (int i = 0; i < 50; i++)
	{
		rows[n] = (trow) {i * 6, false, INT64_MIN, INT64_MIN};
		kinds[n++] = PM_ROW_DELETE;
	}
	write_kinds(w, arena, rows, kinds, 400);
	write_kinds(w, arena, rows + 400, kinds + 400, n - 400);
	commit(w, 1, 1);
	pm_table_writer_close(w);

	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 250);
	for (int i = 0; i < 300; i++)
	{
		assert_int_equal(r.present[i], i % 6 != 0);
		if (i % 6 != 0)
		{
			assert_int_equal(r.v[i], 1000 + i);
			assert_int_equal(r.w[i], 7);
			assert_int_equal(r.name_null[i], i % 3 == 0);
		}
	}

	/* one level-0 file per bucket, one row per key (-D kept), sorted keys */
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	assert_int_equal(pm_scan_split_count(scan), 2);
	{
		int64_t		total = 0,
					deletes = 0;

		for (int i = 0; i < 2; i++)
		{
			const pm_split *sp = pm_scan_get_split(scan, i);
			const pm_data_file_meta *m;
			pm_value	kmin,
						kmax;
			pm_arena   *a = pm_arena_create(pm_env_default());
			const pm_type *kt;
			pm_field	kf = {0, "_KEY_id", pm_type_new(a, PM_TYPE_INT, false), NULL};

			assert_int_equal(sp->nfiles, 1);
			assert_int_equal(sp->total_buckets, 2);
			m = sp->files[0];
			assert_int_equal(m->level, 0);
			assert_int_equal(m->file_source, 0);
			assert_true(strncmp(m->file_name, "data-", 5) == 0);
			total += m->row_count;
			deletes += m->delete_row_count;
			/* 650 records numbered 0..649 over both buckets */
			assert_true(m->min_sequence_number >= 0 && m->max_sequence_number <= 649);
			max_seq[sp->bucket] = m->max_sequence_number;
			kt = pm_type_new_row(a, &kf, 1, false);
			assert_int_equal(pm_binary_row_decode_serialized(m->min_key, (size_t) m->min_key_len, kt, &kmin, &err), PM_OK);
			assert_int_equal(pm_binary_row_decode_serialized(m->max_key, (size_t) m->max_key_len, kt, &kmax, &err), PM_OK);
			assert_true(kmin.u.i64 <= 1 && kmax.u.i64 >= 298);
			/* key stats: min/max of _KEY_id equal the keys */
			{
				pm_value	smin,
							smax;

				assert_int_equal(pm_binary_row_decode_serialized(m->key_stats.min_values, (size_t) m->key_stats.min_values_len, kt, &smin, &err), PM_OK);
				assert_int_equal(pm_binary_row_decode_serialized(m->key_stats.max_values, (size_t) m->key_stats.max_values_len, kt, &smax, &err), PM_OK);
				assert_int_equal(smin.u.i64, kmin.u.i64);
				assert_int_equal(smax.u.i64, kmax.u.i64);
				assert_int_equal(m->key_stats.nnull_counts, 1);
			}
			pm_arena_destroy(a);
		}
		assert_int_equal(total, 300);
		assert_int_equal(deletes, 50);
	}
	pm_scan_free(scan);
	pm_table_close(table);

	/* second commit: sequence numbers continue above each bucket's max */
	w = open_writer(io, dir);
	n = 0;
	for (int i = 0; i < 100; i++)
	{
		rows[n] = (trow) {i * 3, true, 5000 + i, INT64_MIN};
		kinds[n++] = PM_ROW_INSERT;
	}
	write_kinds(w, arena, rows, kinds, n);
	commit(w, 2, 2);
	pm_table_writer_close(w);
	read_all(io, dir, &r);
	for (int i = 0; i < 300; i++)
	{
		if (i % 3 == 0 && i / 3 < 100)
		{
			assert_true(r.present[i]);
			assert_int_equal(r.v[i], 5000 + i / 3);
			assert_int_equal(r.w[i], INT64_MIN);
		}
		else
			assert_int_equal(r.present[i], i % 6 != 0);
	}
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	for (int i = 0; i < pm_scan_split_count(scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		assert_int_equal(sp->nfiles, 2);
		for (int f = 0; f < 2; f++)
			if (sp->files[f]->min_sequence_number > max_seq[sp->bucket])
				assert_int_equal(sp->files[f]->min_sequence_number, max_seq[sp->bucket] + 1);
	}
	pm_scan_free(scan);
	pm_table_close(table);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * A tiny write-buffer-size: spilled to local files and merged at commit into
 * one level-0 file (write-buffer-spillable, the default), or flushed as
 * several level-0 files (write-buffer-spillable = false); same rows, and
 * no spill file left behind.
 */
static void
small_buffer(bool spillable)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/small";
	static const char *keys[] = {"bucket", "write-buffer-size", "write-buffer-spillable"};
	static const char *vals[] = {"1", "64 kb", "false"};
	pm_schema  *s = make_schema(arena, spillable ? 2 : 3, keys, vals);
	pm_table_writer *w;
	pm_error	err;
	trow		rows[NKEYS];
	result		r;
	pm_table   *table;
	pm_scan    *scan;
	char		tmp[] = "/tmp/pm_spill_test_XXXXXX";

	assert_non_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	w = open_writer(io, dir);
	/* count the level-0 files flushed, not what a compaction at commit makes of them */
	pm_table_writer_set_compaction(w, false);
	for (int round = 0; round < 20; round++)
	{
		for (int i = 0; i < NKEYS; i++)
			rows[i] = (trow) {(i * 7 + round) % NKEYS, true, round * 10000 + (i * 7 + round) % NKEYS, round};
		write_kinds(w, arena, rows, NULL, NKEYS);
	}
	commit(w, 1, 1);
	pm_table_writer_close(w);
	unsetenv("TMPDIR");
	assert_int_equal(rmdir(tmp), 0);	/* empty: every spill file removed */
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, NKEYS);
	for (int i = 0; i < NKEYS; i++)
	{
		assert_int_equal(r.v[i], 19 * 10000 + i);
		assert_int_equal(r.w[i], 19);
	}
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	if (spillable)
		assert_int_equal(pm_scan_get_split(scan, 0)->nfiles, 1);
	else
		assert_true(pm_scan_get_split(scan, 0)->nfiles > 2);
	pm_scan_free(scan);
	pm_table_close(table);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_small_buffer_spill(void **state)
{
	(void) state;
	small_buffer(true);
}

static void
test_small_buffer_flush(void **state)
{
	(void) state;
	small_buffer(false);
}

/* partial-update: column subsets merge; aggregation: sum and max. */
static void
test_partial_update_and_aggregation(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *pkeys[] = {"bucket", "merge-engine"};
	static const char *pvals[] = {"2", "partial-update"};
	static const char *akeys[] = {"bucket", "merge-engine", "fields.v.aggregate-function",
	"fields.w.aggregate-function"};
	static const char *avals[] = {"3", "aggregation", "sum", "max"};
	pm_table_writer *w;
	pm_error	err;
	trow		rows[200];
	uint8_t		kinds[200];
	result		r;

	(void) state;
	pk_create(io, arena, "/mem/wh/db.db/pu", 2, pkeys, pvals);
	w = open_writer(io, "/mem/wh/db.db/pu");
	for (int i = 0; i < 100; i++)
	{
		rows[i] = (trow) {i, false, i, INT64_MIN};	/* v only */
		rows[100 + i] = (trow) {i, false, INT64_MIN, -i};	/* w only */
	}
	write_kinds(w, arena, rows, NULL, 200);
	/* DELETE is refused before anything is written */
	assert_int_equal(pm_table_writer_accepts(w, PM_ROW_DELETE, &err), PM_ERR_UNSUPPORTED);
	assert_int_equal(pm_table_writer_accepts(w, PM_ROW_UPDATE_AFTER, &err), PM_OK);
	kinds[0] = PM_ROW_DELETE;
	assert_int_equal(pm_table_writer_write(w, make_batch(arena, pm_table_writer_schema(w)->row_type, rows, 1), kinds, &err),
					 PM_ERR_UNSUPPORTED);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	read_all(io, "/mem/wh/db.db/pu", &r);
	assert_int_equal(r.nrows, 100);
	for (int i = 0; i < 100; i++)
	{
		assert_int_equal(r.v[i], i);
		assert_int_equal(r.w[i], -i);
	}

	pk_create(io, arena, "/mem/wh/db.db/agg", 4, akeys, avals);
	for (int c = 0; c < 2; c++)
	{
		w = open_writer(io, "/mem/wh/db.db/agg");
		for (int i = 0; i < 200; i++)
		{
			rows[i] = (trow) {i % 50, false, i, i % 7 == 0 ? INT64_MIN : i * (c + 1)};
			kinds[i] = PM_ROW_INSERT;
		}
		write_kinds(w, arena, rows, kinds, 200);
		/* max cannot retract */
		assert_int_equal(pm_table_writer_accepts(w, PM_ROW_UPDATE_BEFORE, &err), PM_ERR_UNSUPPORTED);
		assert_true(strstr(err.message, "max") != NULL);
		commit(w, c + 1, c + 1);
		pm_table_writer_close(w);
	}
	read_all(io, "/mem/wh/db.db/agg", &r);
	assert_int_equal(r.nrows, 50);
	for (int k = 0; k < 50; k++)
	{
		int64_t		sum = 0,
					max = INT64_MIN;

		for (int c = 0; c < 2; c++)
			for (int i = k; i < 200; i += 50)
			{
				sum += i;
				if (i % 7 != 0 && i * (c + 1) > max)
					max = i * (c + 1);
			}
		assert_int_equal(r.v[k], sum);
		assert_int_equal(r.w[k], max);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
expect_refused(pm_fileio *io, pm_arena *arena, const char *name, int nopt, const char **keys,
			   const char **vals, bool partitioned, const char *msg)
{
	char		dir[128];
	pm_schema  *s = make_schema(arena, nopt, keys, vals);
	pm_table_writer *w;
	pm_error	err;

	if (partitioned)
	{
		static const char *pks[] = {"name"};

		s->npartition_keys = 1;
		s->partition_keys = pks;
	}
	snprintf(dir, sizeof(dir), "/mem/wh/db.db/%s", name);
	if (pm_table_create(pm_env_default(), io, dir, s, &err) != PM_OK)
		fail_msg("create %s: %s", name, err.message);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "u", &w, &err),
					 PM_ERR_UNSUPPORTED);
	if (strstr(err.message, msg) == NULL)
		fail_msg("%s: \"%s\" lacks \"%s\"", name, err.message, msg);
}

static void
test_refusals(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *k1[] = {"bucket"};
	static const char *dyn[] = {"-1"};
	static const char *kfr[] = {"bucket", "merge-engine", "deletion-vectors.enabled"};
	static const char *vfr[] = {"2", "first-row", "true"};
	static const char *kdyndv[] = {"bucket", "deletion-vectors.enabled"};
	static const char *vdyndv[] = {"-1", "true"};
	static const char *kdynfr[] = {"merge-engine"};
	static const char *vdynfr[] = {"first-row"};
	static const char *kcl[] = {"bucket", "changelog-producer"};
	static const char *vcl[] = {"-1", "full-compaction"};
	static const char *two[] = {"2"};
	static const char *kid[] = {"bucket", "ignore-delete"};
	static const char *vid[] = {"2", "true"};
	pm_table_writer *w;
	pm_error	err;

	(void) state;
	/* a primary key without the partition key is written (test_cross_partition.c) */
	for (int i = 0; i < 2; i++)
	{
		pm_schema  *s = make_schema(arena, 1, k1, i == 0 ? dyn : two);
		static const char *pks[] = {"name"};
		const char *dir = i == 0 ? "/mem/wh/db.db/dyncross" : "/mem/wh/db.db/crosspart";

		s->npartition_keys = 1;
		s->partition_keys = pks;
		assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
		assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "u", &w, &err), PM_OK);
		pm_table_writer_close(w);
	}
	/* Java's SchemaValidation refuses this pair at creation (first-row and DV tables are written: test_lookup_compact.c) */
	assert_int_equal(pm_table_create(pm_env_default(), io, "/mem/wh/db.db/firstrow_dv",
									 make_schema(arena, 3, kfr, vfr), &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "merge engine does not need deletion vectors"));
	/* the lookup compaction at commit needs a fixed bucket */
	expect_refused(io, arena, "dyn_dv", 2, kdyndv, vdyndv, false, "fixed bucket");
	expect_refused(io, arena, "dyn_firstrow", 1, kdynfr, vdynfr, false, "fixed bucket");
	/* lookup and full-compaction are written (test_lookup_changelog.c), not with bucket -1 */
	expect_refused(io, arena, "changelog", 2, kcl, vcl, false, "changelog-producer");

	/* deduplicate takes every kind; ignore-delete drops -U/-D silently */
	pk_create(io, arena, "/mem/wh/db.db/ign", 2, kid, vid);
	w = open_writer(io, "/mem/wh/db.db/ign");
	for (int k = PM_ROW_INSERT; k <= PM_ROW_DELETE; k++)
		assert_int_equal(pm_table_writer_accepts(w, (pm_row_kind) k, &err), PM_OK);
	{
		trow		rows[2] = {{1, true, 1, 1}, {1, false, INT64_MIN, INT64_MIN}};
		uint8_t		kinds[2] = {PM_ROW_INSERT, PM_ROW_DELETE};
		result		r;

		write_kinds(w, arena, rows, kinds, 2);
		{
			/* TableWriteImpl.checkNullability: also for a -D row */
			pm_batch   *nb = make_batch(arena, pm_table_writer_schema(w)->row_type, rows, 2);

			nb->cols[0].nulls[1] = 1;
			assert_int_equal(pm_table_writer_write(w, nb, kinds, &err), PM_ERR_INVALID);
			assert_non_null(strstr(err.message, "Cannot write null to non-null column(id)"));
		}
		commit(w, 1, 1);
		pm_table_writer_close(w);
		read_all(io, "/mem/wh/db.db/ign", &r);
		assert_int_equal(r.nrows, 1);
		assert_int_equal(r.v[1], 1);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * A batch of the fixture's rows whose name column holds the given strings
 * (NULL: a NULL name): the rowkind.field tests below.
 */
static pm_batch *
batch_with_names(pm_table_writer *w, pm_arena *arena, const trow *rows, const char **names, int n)
{
	pm_batch   *b = make_batch(arena, pm_table_writer_schema(w)->row_type, rows, n);
	pm_vector  *c = &b->cols[1];
	int64_t		cap = 0;

	assert_true(pm_vector_init(c, pm_table_writer_schema(w)->row_type->fields[1].type, n, true,
							   arena));
	c->length = n;
	for (int i = 0; i < n; i++)
	{
		if (names[i] != NULL)
			assert_true(pm_vector_append_data(c, &cap, names[i], (int64_t) strlen(names[i]),
											  arena));
		else
			c->nulls[i] = 1;
		c->offsets[i + 1] = (int32_t) c->data_size;
	}
	return b;
}

/* One write of a bad row kind into a fresh writer of dir: the code and the message. */
static void
rowkind_write_fails(pm_fileio *io, pm_arena *arena, const char *dir, const char *name,
					pm_code code, const char *msg)
{
	pm_table_writer *w = open_writer(io, dir);
	trow		rows[2] = {{1, true, 1, 1}, {2, true, 2, 2}};
	const char *names[2] = {"+I", name};
	pm_error	err;

	assert_int_equal(pm_table_writer_write(w, batch_with_names(w, arena, rows, names, 2), NULL,
										   &err), code);
	if (strstr(err.message, msg) == NULL)
		fail_msg("\"%s\" lacks \"%s\"", err.message, msg);
	pm_table_writer_abort(w);
}

/*
 * rowkind.field = name (RowKindGenerator): each row's kind is its name,
 * '+I', '-U', '+U' or '-D' in any case, whatever row_kinds says; the
 * column is stored as written. Deduplicate: -D and -U remove the key.
 * NULL and other values fail the write (Java's messages); the generated
 * kinds go through the RowKindFilter (ignore-delete) and the merge
 * engine's acceptance (first-row refuses -D); a non-string column is
 * refused when the writer opens.
 */
static void
test_rowkind_field(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/rowkind";
	static const char *k[] = {"bucket", "rowkind.field"};
	static const char *v[] = {"2", "name"};
	static const char *kfr[] = {"bucket", "rowkind.field", "merge-engine"};
	static const char *vfr[] = {"2", "name", "first-row"};
	static const char *kfri[] = {"bucket", "rowkind.field", "merge-engine", "ignore-delete"};
	static const char *vfri[] = {"2", "name", "first-row", "true"};
	static const char *kint[] = {"bucket", "rowkind.field"};
	static const char *vint[] = {"2", "v"};
	trow		rows[200];
	const char *names[200];
	uint8_t		kinds[200];
	int			n = 0;
	pm_table_writer *w;
	pm_error	err;
	result		r;
	pk_files	pf;
	int64_t		deletes = 0;

	(void) state;
	pk_create(io, arena, dir, 2, k, v);
	w = open_writer(io, dir);
	assert_string_equal(pm_table_writer_rowkind_field(w), "name");
	for (int i = 0; i < 100; i++)
	{
		rows[n] = (trow) {i, true, i, i};
		names[n++] = i % 2 ? "+I" : "+i";
	}
	for (int i = 0; i < 20; i++)
	{
		rows[n] = (trow) {i, true, -1, -1};
		names[n++] = i % 2 ? "-D" : "-d";
	}
	for (int i = 20; i < 40; i++)
	{
		rows[n] = (trow) {i, true, 1000 + i, 7};
		names[n++] = "+U";
	}
	for (int i = 40; i < 50; i++)
	{
		rows[n] = (trow) {i, true, -1, -1};
		names[n++] = "-U";
	}
	/* the kinds given are ignored: the column decides */
	memset(kinds, PM_ROW_DELETE, sizeof(kinds));
	assert_int_equal(pm_table_writer_write(w, batch_with_names(w, arena, rows, names, n), kinds,
										   &err), PM_OK);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	pk_read_rows(io, dir, 0, false, &r, NULL);
	assert_int_equal(r.nrows, 70);
	for (int i = 0; i < 100; i++)
	{
		assert_int_equal(r.present[i], i >= 20 && (i < 40 || i >= 50));
		if (r.present[i])
		{
			assert_int_equal(r.v[i], i < 40 ? 1000 + i : i);
			assert_int_equal(r.w[i], i < 40 ? 7 : i);
			assert_false(r.name_null[i]);
		}
	}
	/* one record per key at flush: the 20 -D and 10 -U kept as retractions */
	pk_files_open(io, dir, true, &pf);
	for (int f = 0; f < pf.n; f++)
		deletes += pf.files[f]->delete_row_count;
	pk_files_close(&pf);
	assert_int_equal(deletes, 30);

	/* NULL and other values: Java's RuntimeException / fromShortString */
	rowkind_write_fails(io, arena, dir, NULL, PM_ERR_INVALID, "Row kind cannot be null.");
	rowkind_write_fails(io, arena, dir, "+X", PM_ERR_INVALID,
						"Unsupported short string '+X' for row kind.");
	rowkind_write_fails(io, arena, dir, "+I ", PM_ERR_INVALID,
						"Unsupported short string '+I ' for row kind.");
	rowkind_write_fails(io, arena, dir, "", PM_ERR_INVALID, "Unsupported short string ''");

	/* first-row refuses -D; with ignore-delete the -D row is dropped */
	pk_create(io, arena, "/mem/wh/db.db/rowkind_fr", 3, kfr, vfr);
	rowkind_write_fails(io, arena, "/mem/wh/db.db/rowkind_fr", "-D", PM_ERR_UNSUPPORTED,
						"first-row");
	pk_create(io, arena, "/mem/wh/db.db/rowkind_fri", 4, kfri, vfri);
	w = open_writer(io, "/mem/wh/db.db/rowkind_fri");
	{
		trow		frows[3] = {{1, true, 1, 1}, {1, true, 2, 2}, {2, true, 3, 3}};
		const char *fnames[3] = {"+I", "-D", "+U"};

		assert_int_equal(pm_table_writer_write(w, batch_with_names(w, arena, frows, fnames, 3),
											   NULL, &err), PM_OK);
	}
	commit(w, 1, 2);			/* APPEND, then the lookup compaction's COMPACT */
	pm_table_writer_close(w);
	pk_read_rows(io, "/mem/wh/db.db/rowkind_fri", 0, false, &r, NULL);
	assert_int_equal(r.nrows, 2);
	assert_int_equal(r.v[1], 1);
	assert_int_equal(r.v[2], 3);

	/*
	 * Append tables (AppendOnlyFileStoreTable): +I and +U rows are written,
	 * -D refused, unless ignore-delete drops it (and -U)
	 */
	for (int ign = 0; ign < 2; ign++)
	{
		static const char *ka[] = {"rowkind.field", "ignore-delete"};
		static const char *va[] = {"name", "true"};
		const char *adir = ign ? "/mem/wh/db.db/rowkind_append_ign" : "/mem/wh/db.db/rowkind_append";
		pm_schema  *as = make_schema(arena, 1 + ign, ka, va);
		trow		arows[4] = {{1, true, 1, 1}, {2, true, 2, 2}, {3, true, 3, 3}, {4, true, 4, 4}};
		const char *anames[4] = {"+I", "+u", "-D", "-U"};
		pm_batch   *ab;

		as->nprimary_keys = 0;
		assert_int_equal(pm_table_create(pm_env_default(), io, adir, as, &err), PM_OK);
		w = open_writer(io, adir);
		assert_null(pm_table_writer_rowkind_field(w));	/* UPDATE/DELETE go their own way */
		ab = batch_with_names(w, arena, arows, anames, 4);
		if (!ign)
		{
			assert_int_equal(pm_table_writer_write(w, ab, NULL, &err), PM_ERR_UNSUPPORTED);
			assert_string_equal(err.message,
								"Append only writer can not accept row with RowKind DELETE");
			pm_table_writer_abort(w);
			continue;
		}
		assert_int_equal(pm_table_writer_write(w, ab, NULL, &err), PM_OK);
		commit(w, 1, 1);
		pm_table_writer_close(w);
		pk_read_rows(io, adir, 0, false, &r, NULL);
		assert_int_equal(r.nrows, 2);
		assert_true(r.present[1] && r.present[2]);
		assert_int_equal(r.v[2], 2);
	}

	/* RowKindGenerator: only string columns */
	pk_create(io, arena, "/mem/wh/db.db/rowkind_int", 2, kint, vint);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, "/mem/wh/db.db/rowkind_int", "u",
										  &w, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "only support string type for rowkind, but v is"));
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* The HASH entries of the latest snapshot's index manifest: bucket -> row count. */
static int
hash_entries(pm_fileio *io, pm_arena *arena, const char *table, int64_t *rows_by_bucket, int n)
{
	pm_snapshot *snap;
	pm_index_manifest_entry *e;
	int			count;
	int64_t		id;
	pm_error	err;
	char		path[256];

	memset(rows_by_bucket, 0, sizeof(int64_t) * (size_t) n);
	assert_int_equal(pm_snapshot_latest_id(io, table, arena, &id, &err), PM_OK);
	assert_int_equal(pm_snapshot_load(io, table, id, arena, &snap, &err), PM_OK);
	assert_non_null(snap->index_manifest);
	snprintf(path, sizeof(path), "%s/manifest/%s", table, snap->index_manifest);
	assert_int_equal(pm_index_manifest_read(pm_env_default(), io, path, arena, &e, &count, &err),
					 PM_OK);
	for (int i = 0; i < count; i++)
	{
		assert_string_equal(e[i].index_type, "HASH");
		assert_true(e[i].bucket >= 0 && e[i].bucket < n);
		assert_int_equal(rows_by_bucket[e[i].bucket], 0);	/* one file per bucket */
		rows_by_bucket[e[i].bucket] = e[i].row_count;
	}
	return count;
}

/*
 * Dynamic buckets (bucket -1, target-row-num 2): new keys fill bucket 0,
 * 1, 2 in turn, each bucket's HASH file lists its key hashes; a later
 * writer (which reloads the index) keeps existing keys in their bucket
 * (read_all fails on a key read twice) and puts a new one into the bucket
 * with room, replacing only that bucket's HASH file.
 */
static void
test_dynamic_bucket(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *k[] = {"bucket", "dynamic-bucket.target-row-num"};
	static const char *v[] = {"-1", "2"};
	const char *dir = "/mem/wh/db.db/dyn";
	trow		first[5] = {{10, true, 10, 1}, {11, true, 11, 1}, {12, true, 12, 1},
	{13, true, 13, 1}, {14, true, 14, 1}};
	trow		second[3] = {{12, true, 100, 2}, {15, true, 15, 2}, {10, false, INT64_MIN, INT64_MIN}};
	uint8_t		kinds[3] = {PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_DELETE};
	int64_t		rows[4];
	pm_error	err;
	result		r;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, make_schema(arena, 2, k, v), &err),
					 PM_OK);
	pk_commit_rows(io, dir, arena, first, NULL, 5, 1, 1);
	assert_true(io->is_dir(io, "/mem/wh/db.db/dyn/bucket-0"));
	assert_true(io->is_dir(io, "/mem/wh/db.db/dyn/bucket-2"));
	assert_false(io->is_dir(io, "/mem/wh/db.db/dyn/bucket-3"));
	assert_int_equal(hash_entries(io, arena, dir, rows, 4), 3);
	assert_int_equal(rows[0], 2);
	assert_int_equal(rows[1], 2);
	assert_int_equal(rows[2], 1);

	pk_commit_rows(io, dir, arena, second, kinds, 3, 2, 2);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 5);
	assert_false(r.present[10]);
	assert_int_equal(r.v[12], 100);
	assert_true(r.present[15]);
	assert_int_equal(hash_entries(io, arena, dir, rows, 4), 3);
	assert_int_equal(rows[0], 2);
	assert_int_equal(rows[1], 2);
	assert_int_equal(rows[2], 2);
	{
		/* old HASH files stay on disk (snapshot 1 uses them) until expiry: 3 + 1 */
		char	  **names;
		int			n;

		assert_int_equal(io->list(io, "/mem/wh/db.db/dyn/index", arena, &names, &n, &err), PM_OK);
		assert_int_equal(n, 4);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * sequence.field: the larger w wins whatever the order of writing; with
 * sequence.field.sort-order = descending the smaller one between files (reads
 * and compactions), but within one write buffer still the larger one: Java's
 * SortBufferWriteBuffer sorts on the sequence fields ascending whatever
 * their order. A NULL w sorts first in both orders (Java's RecordComparator:
 * nulls first, the order's sign only on values), so any value beats it.
 * Checked after each of three commits and after a full compaction.
 */
static void
test_sequence_field(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "sequence.field", "sequence.field.sort-order"};
	static const char *vals[] = {"2", "w", "ascending"};
	static const char *dvals[] = {"2", "w", "descending"};

	(void) state;
	for (int desc = 0; desc < 2; desc++)
	{
		const char *dir = desc ? "/mem/wh/db.db/seqdesc" : "/mem/wh/db.db/seq";
		trow		rows[300];
		result		r;
		pm_compact_result cr;

		pk_create(io, arena, dir, 3, keys, desc ? dvals : vals);
		for (int i = 0; i < 100; i++)
		{
			rows[i] = (trow) {i, true, 1, 50};
			rows[100 + i] = (trow) {i, true, 2, i % 2 ? 100 : 10};
			rows[200 + i] = (trow) {i, true, 3, i % 5 == 0 ? INT64_MIN : 40};
		}
		pk_commit_rows(io, dir, arena, rows, NULL, 300, 1, 1);
		/* keys < 50 get w = 30 in a second commit, keys 50..59 w = 200 in a third */
		for (int i = 0; i < 50; i++)
			rows[i] = (trow) {i, true, 4, 30};
		pk_commit_rows(io, dir, arena, rows, NULL, 50, 2, 2);
		for (int i = 0; i < 10; i++)
			rows[i] = (trow) {50 + i, true, 5, 200};
		pk_commit_rows(io, dir, arena, rows, NULL, 10, 3, 3);
		for (int pass = 0; pass < 2; pass++)
		{
			if (pass == 1)
				pk_full_compact(io, dir, NULL, &cr);
			read_all(io, dir, &r);
			assert_int_equal(r.nrows, 100);
			for (int i = 0; i < 100; i++)
			{
				/* the first commit's buffer keeps the largest w either way */
				int64_t		want_w = i % 2 ? 100 : 50;
				int64_t		want_v = i % 2 ? 2 : 1;

				if (desc && i < 50)
					want_w = 30, want_v = 4;	/* 30 beats 100 and 50 */
				else if (!desc && i >= 50 && i < 60)
					want_w = 200, want_v = 5;	/* 200 beats 100 and 50 */
				assert_int_equal(r.w[i], want_w);
				assert_int_equal(r.v[i], want_v);
			}
		}
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Postpone buckets written as Java's streaming sink
 * (postpone.batch-write-fixed-bucket = false, PostponeBucketWriter): every
 * record in bucket-postpone, unsorted and unmerged (a key twice and a
 * delete kept), sequence number -1, Avro without statistics, named
 * data--u-<commit user>-s-<write id>-w-<uuid>-<n>.avro, total buckets -2;
 * batch reads see nothing until the postpone compaction, which gives the
 * merged rows (within a file the later record of a key wins; a newer
 * commit's file wins over an older one's).
 */
static void
test_postpone_write(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/ppw";
	static const char *keys[] = {"bucket", "postpone.batch-write-fixed-bucket",
	"postpone.default-bucket-num"};
	static const char *vals[] = {"-2", "false", "2"};
	static trow rows[102];
	static uint8_t kinds[102];
	static trow spill_rows[NKEYS];
	pm_table   *table;
	pm_scan    *scan;
	pm_compact_result cr;
	result		r;
	pm_error	err;

	(void) state;
	pk_create(io, arena, dir, 3, keys, vals);
	for (int i = 0; i < 100; i++)
	{
		rows[i] = (trow) {99 - i, true, 99 - i, i};
		kinds[i] = PM_ROW_INSERT;
	}
	rows[100] = (trow) {5, true, 555, 1};
	kinds[100] = PM_ROW_UPDATE_AFTER;
	rows[101] = (trow) {7, false, 0, INT64_MIN};
	kinds[101] = PM_ROW_DELETE;
	pk_commit_rows(io, dir, arena, rows, kinds, 102, 1, 1);
	for (int i = 0; i < 10; i++)
	{
		rows[i] = (trow) {i * 3, true, -i, 3};
		kinds[i] = PM_ROW_INSERT;
	}
	pk_commit_rows(io, dir, arena, rows, kinds, 10, 2, 2);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 0);

	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan_postpone(table, &scan, &err), PM_OK);
	assert_int_equal(pm_scan_split_count(scan), 1);
	{
		const pm_split *sp = pm_scan_get_split(scan, 0);
		int64_t		rows_in[2] = {102, 10};

		assert_int_equal(sp->bucket, -2);
		assert_int_equal(sp->total_buckets, -2);
		assert_int_equal(sp->nfiles, 2);
		assert_non_null(strstr(sp->bucket_path, "/bucket-postpone"));
		for (int f = 0; f < 2; f++)
		{
			const pm_data_file_meta *m = sp->files[f];
			size_t		len = strlen(m->file_name);

			assert_int_equal(m->row_count, rows_in[f]);
			assert_int_equal(m->delete_row_count, f == 0 ? 1 : 0);
			assert_int_equal(m->min_sequence_number, -1);
			assert_int_equal(m->max_sequence_number, -1);
			assert_int_equal(m->level, 0);
			assert_int_equal(m->file_source, 0);
			assert_int_equal(m->format, PM_FORMAT_AVRO);
			if (strncmp(m->file_name, "data--u-pk-user-s-", 18) != 0)
				fail_msg("postpone file name %s", m->file_name);
			assert_non_null(strstr(m->file_name, "-w-"));
			assert_string_equal(m->file_name + len - 5, ".avro");
			/* metadata.stats-mode none: no value statistics, key statistics all NULL */
			assert_int_equal(m->nvalue_stats_cols, 0);
			assert_int_equal(m->key_stats.nnull_counts, 1);
			assert_int_equal(m->key_stats.null_counts[0], -1);
			/* min and max key: the first and last record, not sorted */
			assert_int_equal(m->min_key_len, m->max_key_len);
		}
		/* the first commit's first record is id 99, its last id 7 */
		{
			pm_value	v;
			pm_field	kf = {0, "_KEY_id", pm_type_new(arena, PM_TYPE_INT, false), NULL};
			const pm_type *kt = pm_type_new_row(arena, &kf, 1, false);

			assert_int_equal(pm_binary_row_decode_serialized(sp->files[0]->min_key,
															 (size_t) sp->files[0]->min_key_len,
															 kt, &v, &err), PM_OK);
			assert_int_equal(v.u.i64, 99);
			assert_int_equal(pm_binary_row_decode_serialized(sp->files[0]->max_key,
															 (size_t) sp->files[0]->max_key_len,
															 kt, &v, &err), PM_OK);
			assert_int_equal(v.u.i64, 7);
		}
	}
	pm_scan_free(scan);
	pm_table_close(table);

	pk_full_compact(io, dir, NULL, &cr);
	assert_int_equal(cr.files_in, 2);
	assert_int_equal(cr.buckets, 2);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 99);
	for (int id = 0; id < 100; id++)
	{
		if (id == 7)
		{
			assert_false(r.present[id]);
			continue;
		}
		assert_true(r.present[id]);
		if (id % 3 == 0 && id < 30)
			assert_int_equal(r.v[id], -(id / 3));
		else
			assert_int_equal(r.v[id], id == 5 ? 555 : id);
	}

	/*
	 * a write buffer of 64 kb: what fills it is written into the open file
	 * (no spill run, no new file), in the order the rows came
	 */
	{
		static const char *skeys[] = {"bucket", "postpone.batch-write-fixed-bucket",
		"write-buffer-size"};
		static const char *svals[] = {"-2", "false", "64 kb"};
		const char *sdir = "/mem/wh/db.db/ppspill";
		pm_table_writer *w;

		pk_create(io, arena, sdir, 3, skeys, svals);
		w = open_writer(io, sdir);
		for (int round = 0; round < 20; round++)
		{
			for (int i = 0; i < NKEYS; i++)
				spill_rows[i] = (trow) {(i * 7 + round) % NKEYS, true, round * 1000 + i, round};
			write_kinds(w, arena, spill_rows, NULL, NKEYS);
		}
		commit(w, 1, 1);
		pm_table_writer_close(w);
		assert_int_equal(pm_table_open(pm_env_default(), io, sdir, NULL, &table, &err), PM_OK);
		assert_int_equal(pm_table_scan_plan_postpone(table, &scan, &err), PM_OK);
		assert_int_equal(pm_scan_split_count(scan), 1);
		assert_int_equal(pm_scan_get_split(scan, 0)->nfiles, 1);
		assert_int_equal(pm_scan_get_split(scan, 0)->files[0]->row_count, 20 * NKEYS);
		pm_scan_free(scan);
		pm_table_close(table);
		pk_full_compact(io, sdir, NULL, &cr);
		read_all(io, sdir, &r);
		assert_int_equal(r.nrows, NKEYS);
		/* the last round wrote every key: its row wins */
		for (int i = 0; i < NKEYS; i++)
			assert_int_equal(r.v[(i * 7 + 19) % NKEYS], 19 * 1000 + i);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Negative and positive keys (the radix sort of one integer key flips the
 * sign bit): every key's last record wins, files sorted by key.
 */
static void
test_negative_keys(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"1"};
	pm_table_writer *w;
	pm_error	err;
	trow		rows[2 * NKEYS];
	result		r;

	(void) state;
	pk_create(io, arena, "/mem/wh/db.db/neg", 1, keys, vals);
	w = open_writer(io, "/mem/wh/db.db/neg");
	for (int i = 0; i < 2 * NKEYS; i++)
	{
		int			id = (i * 37) % NKEYS - NKEYS / 2;

		rows[i] = (trow) {id, true, i < NKEYS ? id : 100000 + id, i};
	}
	write_kinds(w, arena, rows, NULL, 2 * NKEYS);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	read_all_offset(io, "/mem/wh/db.db/neg", &r, NKEYS / 2);
	assert_int_equal(r.nrows, NKEYS);
	for (int k = 0; k < NKEYS; k++)
		assert_int_equal(r.v[k], 100000 + k - NKEYS / 2);
	{
		pm_table   *table;
		pm_scan    *scan;
		const pm_data_file_meta *m;
		pm_field	kf = {0, "_KEY_id", pm_type_new(arena, PM_TYPE_INT, false), NULL};
		const pm_type *kt = pm_type_new_row(arena, &kf, 1, false);
		pm_value	kmin,
					kmax;

		assert_int_equal(pm_table_open(pm_env_default(), io, "/mem/wh/db.db/neg", NULL, &table, &err), PM_OK);
		assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
		m = pm_scan_get_split(scan, 0)->files[0];
		assert_int_equal(pm_binary_row_decode_serialized(m->min_key, (size_t) m->min_key_len, kt, &kmin, &err), PM_OK);
		assert_int_equal(pm_binary_row_decode_serialized(m->max_key, (size_t) m->max_key_len, kt, &kmax, &err), PM_OK);
		assert_int_equal(kmin.u.i64, -NKEYS / 2);
		assert_int_equal(kmax.u.i64, NKEYS / 2 - 1);
		pm_scan_free(scan);
		pm_table_close(table);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * sequence.field through spilled runs: per key the largest w wins, ties
 * to the later record, as without spilling; partial-update through spilled
 * runs keeps every key's last non-NULL values.
 */
static void
test_spill_merges(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "write-buffer-size", "sequence.field"};
	static const char *vals[] = {"1", "64 kb", "w"};
	static const char *pkeys[] = {"bucket", "write-buffer-size", "merge-engine"};
	static const char *pvals[] = {"1", "64 kb", "partial-update"};
	pm_table_writer *w;
	trow		rows[NKEYS];
	result		r;
	int64_t		best_w[NKEYS],
				best_v[NKEYS];

	(void) state;
	pk_create(io, arena, "/mem/wh/db.db/spseq", 3, keys, vals);
	pk_create(io, arena, "/mem/wh/db.db/sppu", 3, pkeys, pvals);
	for (int t = 0; t < 2; t++)
	{
		w = open_writer(io, t == 0 ? "/mem/wh/db.db/spseq" : "/mem/wh/db.db/sppu");
		for (int k = 0; k < NKEYS; k++)
			best_w[k] = -1;
		for (int round = 0; round < 20; round++)
		{
			for (int i = 0; i < NKEYS; i++)
			{
				int			id = (i * 5 + round) % NKEYS;
				int64_t		wv = (round * 7 + id) % 20;

				if (t == 0)
					rows[i] = (trow) {id, true, round * 1000 + id, wv};
				else			/* v in even rounds, w in odd ones */
					rows[i] = (trow) {id, false, round % 2 ? INT64_MIN : round * 1000 + id,
									  round % 2 ? round : INT64_MIN};
				if (t == 0 && wv >= best_w[id])
				{
					best_w[id] = wv;
					best_v[id] = round * 1000 + id;
				}
			}
			write_kinds(w, arena, rows, NULL, NKEYS);
		}
		commit(w, 1, 1);
		pm_table_writer_close(w);
		read_all(io, t == 0 ? "/mem/wh/db.db/spseq" : "/mem/wh/db.db/sppu", &r);
		assert_int_equal(r.nrows, NKEYS);
		for (int k = 0; k < NKEYS; k++)
		{
			if (t == 0)
			{
				assert_int_equal(r.w[k], best_w[k]);
				assert_int_equal(r.v[k], best_v[k]);
			}
			else
			{
				assert_int_equal(r.v[k], 18 * 1000 + k);
				assert_int_equal(r.w[k], 19);
			}
		}
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* An abort after spilling removes the spill files and leaves no snapshot. */
static void
test_spill_abort(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "write-buffer-size"};
	static const char *vals[] = {"2", "64 kb"};
	pm_table_writer *w;
	pm_error	err;
	trow		rows[NKEYS];
	char		tmp[] = "/tmp/pm_spill_abort_XXXXXX";
	pm_table   *table;

	(void) state;
	assert_non_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	pk_create(io, arena, "/mem/wh/db.db/spab", 2, keys, vals);
	w = open_writer(io, "/mem/wh/db.db/spab");
	for (int round = 0; round < 20; round++)
	{
		for (int i = 0; i < NKEYS; i++)
			rows[i] = (trow) {i, true, round, round};
		write_kinds(w, arena, rows, NULL, NKEYS);
	}
	assert_int_not_equal(rmdir(tmp), 0);	/* spill files are there */
	pm_table_writer_abort(w);
	unsetenv("TMPDIR");
	assert_int_equal(rmdir(tmp), 0);
	assert_int_equal(pm_table_open(pm_env_default(), io, "/mem/wh/db.db/spab", NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_snapshot_id(table), 0);
	pm_table_close(table);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_small_buffer_spill),
		cmocka_unit_test(test_small_buffer_flush),
		cmocka_unit_test(test_partial_update_and_aggregation),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_rowkind_field),
		cmocka_unit_test(test_dynamic_bucket),
		cmocka_unit_test(test_sequence_field),
		cmocka_unit_test(test_postpone_write),
		cmocka_unit_test(test_negative_keys),
		cmocka_unit_test(test_spill_merges),
		cmocka_unit_test(test_spill_abort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
