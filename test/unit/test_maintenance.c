/*-------------------------------------------------------------------------
 * test_maintenance.c
 *	  Table maintenance on the memory FileIO: snapshot expiry
 *	  (table/snapshot_expire.c), tags (tag.c), rollback (rollback.c) and
 *	  orphan files (orphan_files.c), on a partitioned append table written
 *	  by the core's writer, with a "compaction" commit (DELETE + ADD
 *	  entries) so that expiry has data files to delete.
 *
 * Every test checks files on "disk" (gone or kept) and reads the table
 * back (rows, and time travel to an expired snapshot refused).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "common/name_set.h"
#include "common/tz.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "table/commit.h"
#include "table/orphan_files.h"
#include "table/rollback.h"
#include "table/duration.h"
#include "table/snapshot.h"
#include "table/snapshot_expire.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"
#include "table/tag.h"
#include "table/tag_auto.h"

#define TP "/wh/db.db/t"

/* ---- a table: id INT, dt STRING (partition, NULL for id % 3 == 2) ------- */

static const char *
dt_of(int id)
{
	static const char *const dts[3] = {"2026-12-01", "2026-12-02", NULL};

	return dts[id % 3];
}

static void
create_table_with(pm_fileio *io, pm_arena *arena, int nopts, const char **keys,
				  const char **vals)
{
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 2);
	static const char *pkeys[] = {"dt"};
	pm_error	err;

	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	f[1] = (pm_field) {0, "dt", pm_type_new(arena, PM_TYPE_VARCHAR, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 2, false);
	s->npartition_keys = 1;
	s->partition_keys = pkeys;
	s->noptions = nopts;
	s->option_keys = keys;
	s->option_values = vals;
	if (pm_table_create(pm_env_default(), io, TP, s, &err) != PM_OK)
		fail_msg("create: %s", err.message);
}

static void
create_table(pm_fileio *io, pm_arena *arena)
{
	create_table_with(io, arena, 0, NULL, NULL);
}

/* One commit of rows start .. start+n-1; its snapshot id. */
static int64_t
write_commit(pm_fileio *io, pm_arena *arena, int start, int n, int64_t ident)
{
	pm_table_writer *w;
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));
	int64_t		cap = 0;
	int64_t		sid = 0;
	pm_error	err;

	if (pm_table_writer_open(pm_env_default(), io, TP, "writer", &w, &err) != PM_OK)
		fail_msg("writer: %s", err.message);
	b->nrows = n;
	b->ncols = 2;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * 2);
	for (int c = 0; c < 2; c++)
	{
		assert_true(pm_vector_init(&b->cols[c],
								   pm_table_writer_schema(w)->row_type->fields[c].type, n, true,
								   arena));
		b->cols[c].length = n;
	}
	for (int i = 0; i < n; i++)
	{
		const char *dt = dt_of(start + i);

		PM_VEC_VALUES(&b->cols[0], int32_t)[i] = start + i;
		if (dt != NULL)
			assert_true(pm_vector_append_data(&b->cols[1], &cap, dt, (int64_t) strlen(dt), arena));
		else
			b->cols[1].nulls[i] = 1;
		b->cols[1].offsets[i + 1] = (int32_t) b->cols[1].data_size;
	}
	if (pm_table_writer_write(w, b, NULL, &err) != PM_OK ||
		pm_table_writer_commit(w, ident, &sid, &err) != PM_OK)
		fail_msg("write: %s", err.message);
	pm_table_writer_close(w);
	return sid;
}

/* Rows of the table at snapshot (0: latest) and their id sum; -1 if it cannot open. */
static int64_t
count_rows(pm_fileio *io, int64_t snapshot, int64_t *id_sum, pm_code *open_rc)
{
	pm_table_open_options o;
	pm_table   *t;
	pm_scan    *scan;
	pm_scan_reader *r = NULL;
	pm_batch   *b;
	pm_error	err;
	int			fields[1] = {0};
	int64_t		rows = 0;
	pm_code		rc;

	memset(&o, 0, sizeof(o));
	o.snapshot_id = snapshot;
	*id_sum = 0;
	rc = pm_table_open(pm_env_default(), io, TP, &o, &t, &err);
	if (open_rc != NULL)
		*open_rc = rc;
	if (rc != PM_OK)
		return -1;
	if (pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK ||
		pm_scan_reader_open(scan, fields, 1, &r, &err) != PM_OK)
		fail_msg("plan: %s", err.message);
	while ((rc = pm_scan_reader_next(r, &b, &err)) == PM_OK && b != NULL)
		for (int64_t i = 0; i < b->nrows; i++)
		{
			rows++;
			*id_sum += PM_VEC_VALUES(&b->cols[0], int32_t)[i];
		}
	if (rc != PM_OK)
		fail_msg("read: %s", err.message);
	pm_scan_reader_close(r);
	pm_scan_free(scan);
	pm_table_close(t);
	return rows;
}

/*
 * A compaction commit: the files of the first split of the latest
 * snapshot are replaced by byte copies under new names at level 5
 * (DELETE + ADD entries). The old files' paths go to *old (caller frees).
 */
static int64_t
compact_first_split(pm_fileio *io, pm_arena *arena, char ***old, int *nold)
{
	pm_table   *t;
	pm_scan    *scan;
	const pm_split *sp;
	pm_error	err;
	pm_commit_change ch;
	pm_commit_request req;
	pm_data_file_meta *added;
	pm_data_file_meta *deleted;
	int64_t		sid = 0;

	assert_int_equal(pm_table_open(pm_env_default(), io, TP, NULL, &t, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(t, NULL, &scan, &err), PM_OK);
	assert_true(pm_scan_split_count(scan) > 0);
	sp = pm_scan_get_split(scan, 0);
	added = pm_arena_zalloc(arena, sizeof(*added) * (size_t) sp->nfiles);
	deleted = pm_arena_zalloc(arena, sizeof(*deleted) * (size_t) sp->nfiles);
	*old = calloc((size_t) sp->nfiles + 1, sizeof(char *));
	*nold = sp->nfiles;
	for (int i = 0; i < sp->nfiles; i++)
	{
		uint8_t    *data;
		size_t		len;
		char	   *path;

		deleted[i] = *sp->files[i];
		added[i] = *sp->files[i];
		added[i].file_name = pm_arena_sprintf(arena, "data-compacted-%d-%s", i,
											  sp->files[i]->file_name);
		added[i].level = 5;
		path = pm_arena_sprintf(arena, "%s/%s", sp->bucket_path, added[i].file_name);
		assert_int_equal(pm_fileio_read_all(io, sp->files[i]->path, arena, 1 << 24, &data, &len,
											&err), PM_OK);
		assert_int_equal(io->write_new(io, path, data, len, &err), PM_OK);
		(*old)[i] = strdup(sp->files[i]->path);
	}
	memset(&ch, 0, sizeof(ch));
	ch.partition = sp->partition;
	ch.partition_len = sp->partition_len;
	ch.bucket = sp->bucket;
	ch.total_buckets = sp->total_buckets;
	ch.nadded = ch.ndeleted = sp->nfiles;
	ch.added = added;
	ch.deleted = deleted;
	memset(&req, 0, sizeof(req));
	req.commit_user = "compactor";
	req.commit_identifier = 1;
	req.commit_kind = "COMPACT";
	req.schema = pm_table_schema(t);
	req.nchanges = 1;
	req.changes = &ch;
	if (pm_table_commit(pm_env_default(), io, TP, &req, arena, &sid, &err) != PM_OK)
		fail_msg("compact: %s", err.message);
	pm_scan_free(scan);
	pm_table_close(t);
	return sid;
}

static bool
exists(pm_fileio *io, const char *path)
{
	return io->exists(io, path);
}

static bool
snapshot_exists(pm_fileio *io, int64_t id)
{
	char		path[256];

	snprintf(path, sizeof(path), TP "/snapshot/snapshot-%lld", (long long) id);
	return exists(io, path);
}

/* The text of a hint file, or "" */
static const char *
hint(pm_fileio *io, pm_arena *arena, const char *name)
{
	uint8_t    *data;
	size_t		len;
	pm_error	err;
	char		path[256];

	snprintf(path, sizeof(path), TP "/snapshot/%s", name);
	if (pm_fileio_read_all(io, path, arena, 64, &data, &len, &err) != PM_OK)
		return "";
	return (const char *) data;
}

static pm_table *
open_latest(pm_fileio *io)
{
	pm_table   *t;
	pm_error	err;

	assert_int_equal(pm_table_open(pm_env_default(), io, TP, NULL, &t, &err), PM_OK);
	return t;
}

static pm_expire_options
expire_opts(int retain_min, int retain_max, int64_t older_than)
{
	pm_expire_options o = {retain_min, retain_max, 50, older_than};

	return o;
}

/*
 * Snapshots 1-3 append, 4 compacts the first split (deleting files of
 * snapshots 1-3), 5 appends. *old: the compacted-away files.
 */
static void
build(pm_fileio *io, pm_arena *arena, char ***old, int *nold)
{
	create_table(io, arena);
	assert_int_equal(write_commit(io, arena, 0, 30, 1), 1);
	assert_int_equal(write_commit(io, arena, 30, 30, 2), 2);
	assert_int_equal(write_commit(io, arena, 60, 30, 3), 3);
	assert_int_equal(compact_first_split(io, arena, old, nold), 4);
	assert_int_equal(write_commit(io, arena, 90, 30, 4), 5);
}

static void
free_old(char **old, int n)
{
	for (int i = 0; i < n; i++)
		free(old[i]);
	free(old);
}

/* ---- expiry --------------------------------------------------------------- */

static void
test_expire_deletes_unreferenced(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	pm_table   *t;
	pm_expire_options o;
	int			expired;
	int64_t		files;
	int64_t		sum;
	int64_t		sum_before;
	pm_error	err;
	pm_code		rc;
	pm_snapshot *s1;
	char		path[512];

	build(io, arena, &old, &nold);
	assert_int_equal(count_rows(io, 0, &sum_before, NULL), 120);
	assert_int_equal(pm_snapshot_load(io, TP, 1, arena, &s1, &err), PM_OK);
	for (int i = 0; i < nold; i++)
		assert_true(exists(io, old[i]));

	/* retain_max 2 but retain_min 10 (the default): Java refuses */
	t = open_latest(io);
	o = expire_opts(10, 2, INT64_MAX);
	assert_int_equal(pm_snapshot_expire(t, &o, arena, &expired, &files, &err), PM_ERR_INVALID);

	/* young snapshots are kept by older_than: nothing expires */
	o = expire_opts(1, 100, 0);
	assert_int_equal(pm_snapshot_expire(t, &o, arena, &expired, &files, &err), PM_OK);
	assert_int_equal(expired, 0);
	assert_true(snapshot_exists(io, 1));

	/* retain_max 2: snapshots 1-3 go, whatever their age */
	o = expire_opts(1, 2, 0);
	assert_int_equal(pm_snapshot_expire(t, &o, arena, &expired, &files, &err), PM_OK);
	assert_int_equal(expired, 3);
	for (int64_t id = 1; id <= 3; id++)
		assert_false(snapshot_exists(io, id));
	assert_true(snapshot_exists(io, 4));
	assert_true(snapshot_exists(io, 5));
	assert_string_equal(hint(io, arena, "EARLIEST"), "4");
	/* snapshot 4's delta deleted the compacted files: end = 4 is in (begin, end] */
	for (int i = 0; i < nold; i++)
		assert_false(exists(io, old[i]));
	/* snapshot 1's manifest lists are gone */
	snprintf(path, sizeof(path), TP "/manifest/%s", s1->delta_manifest_list);
	assert_false(exists(io, path));
	snprintf(path, sizeof(path), TP "/manifest/%s", s1->base_manifest_list);
	assert_false(exists(io, path));
	assert_true(files > nold);

	/* the latest rows are intact; time travel to an expired snapshot refuses cleanly */
	assert_int_equal(count_rows(io, 0, &sum, NULL), 120);
	assert_int_equal(sum, sum_before);
	assert_int_equal(count_rows(io, 4, &sum, NULL), 90);
	assert_int_equal(count_rows(io, 2, &sum, &rc), -1);
	assert_int_equal(rc, PM_ERR_NOT_FOUND);

	/* retain_min keeps the rest: a second run expires nothing */
	assert_int_equal(pm_snapshot_expire(t, &o, arena, &expired, &files, &err), PM_OK);
	assert_int_equal(expired, 0);
	pm_table_close(t);
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* A tag on snapshot 3 keeps the files it needs through expiry; deleting it frees them. */
static void
test_tag_protects_files(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	pm_table   *t;
	pm_expire_options o;
	int			expired;
	int64_t		files;
	int64_t		tagged;
	int64_t		sum;
	bool		deleted;
	pm_error	err;
	pm_snapshot *s3;
	pm_table_open_options to;
	pm_table   *tt;
	char		path[512];

	build(io, arena, &old, &nold);
	assert_int_equal(pm_snapshot_load(io, TP, 3, arena, &s3, &err), PM_OK);
	assert_int_equal(pm_tag_create(io, TP, "t3", 3, arena, &tagged, &err), PM_OK);
	assert_int_equal(tagged, 3);

	t = open_latest(io);
	o = expire_opts(1, 1, INT64_MAX);
	assert_int_equal(pm_snapshot_expire(t, &o, arena, &expired, &files, &err), PM_OK);
	assert_int_equal(expired, 4);
	assert_string_equal(hint(io, arena, "EARLIEST"), "5");
	/* the tag still needs the files snapshot 3 saw, and its manifest lists */
	for (int i = 0; i < nold; i++)
		assert_true(exists(io, old[i]));
	snprintf(path, sizeof(path), TP "/manifest/%s", s3->base_manifest_list);
	assert_true(exists(io, path));

	/* reading the tag gives snapshot 3's rows */
	memset(&to, 0, sizeof(to));
	to.tag = "t3";
	assert_int_equal(pm_table_open(pm_env_default(), io, TP, &to, &tt, &err), PM_OK);
	assert_int_equal(pm_table_snapshot_id(tt), 3);
	pm_table_close(tt);

	/* a tag of an expired snapshot can be tagged again (from the tag) */
	assert_int_equal(pm_tag_create(io, TP, "again", 3, arena, &tagged, &err), PM_OK);
	assert_int_equal(tagged, 3);
	/* deleting one of two tags of a snapshot deletes no data */
	assert_int_equal(pm_tag_delete(t, "again", arena, &deleted, &files, &err), PM_OK);
	assert_true(deleted);
	assert_int_equal(files, 0);
	for (int i = 0; i < nold; i++)
		assert_true(exists(io, old[i]));

	/* deleting the last tag of the expired snapshot removes what only it kept */
	assert_int_equal(pm_tag_delete(t, "t3", arena, &deleted, &files, &err), PM_OK);
	assert_true(deleted);
	assert_true(files > 0);
	for (int i = 0; i < nold; i++)
		assert_false(exists(io, old[i]));
	snprintf(path, sizeof(path), TP "/manifest/%s", s3->base_manifest_list);
	assert_false(exists(io, path));
	assert_int_equal(count_rows(io, 0, &sum, NULL), 120);

	/* deleting a missing tag is not an error (as Java) */
	assert_int_equal(pm_tag_delete(t, "t3", arena, &deleted, &files, &err), PM_OK);
	assert_false(deleted);
	pm_table_close(t);
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* ---- tags ----------------------------------------------------------------- */

static void
test_tags(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	int64_t		tagged;
	pm_error	err;
	pm_tag	   *tags;
	int			n;
	uint8_t    *data;
	size_t		len;
	pm_snapshot *s3;
	char	   *json;
	size_t		jlen;

	build(io, arena, &old, &nold);
	/* latest by default; the file is the snapshot's JSON as Java writes it */
	assert_int_equal(pm_tag_create(io, TP, "nightly", 0, arena, &tagged, &err), PM_OK);
	assert_int_equal(tagged, 5);
	assert_int_equal(pm_tag_create(io, TP, "three", 3, arena, &tagged, &err), PM_OK);
	assert_int_equal(pm_fileio_read_all(io, TP "/tag/tag-three", arena, 1 << 20, &data, &len, &err),
					 PM_OK);
	assert_int_equal(pm_snapshot_load(io, TP, 3, arena, &s3, &err), PM_OK);
	assert_int_equal(pm_snapshot_to_json(s3, arena, &json, &jlen, &err), PM_OK);
	assert_int_equal(len, jlen);
	assert_memory_equal(data, json, len);

	/* errors */
	assert_int_equal(pm_tag_create(io, TP, "three", 1, arena, &tagged, &err), PM_ERR_CONFLICT);
	assert_string_equal(err.message, "Tag 'three' already exists.");
	assert_int_equal(pm_tag_create(io, TP, "x", 42, arena, &tagged, &err), PM_ERR_NOT_FOUND);
	assert_int_equal(pm_tag_create(io, TP, "  ", 1, arena, &tagged, &err), PM_ERR_INVALID);
	assert_int_equal(pm_tag_create(io, TP, "../x", 1, arena, &tagged, &err), PM_ERR_INVALID);

	/* rename */
	assert_int_equal(pm_tag_rename(io, TP, "three", "drei", arena, &err), PM_OK);
	assert_false(exists(io, TP "/tag/tag-three"));
	assert_true(exists(io, TP "/tag/tag-drei"));
	assert_int_equal(pm_tag_rename(io, TP, "three", "x", arena, &err), PM_ERR_NOT_FOUND);
	assert_int_equal(pm_tag_rename(io, TP, "drei", "nightly", arena, &err), PM_ERR_CONFLICT);

	/* listed by snapshot id */
	assert_int_equal(pm_tag_list(io, TP, arena, &tags, &n, &err), PM_OK);
	assert_int_equal(n, 2);
	assert_string_equal(tags[0].name, "drei");
	assert_int_equal(tags[0].snapshot->id, 3);
	assert_string_equal(tags[1].name, "nightly");
	assert_int_equal(tags[1].snapshot->id, 5);
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* ---- rollback ------------------------------------------------------------- */

static void
test_rollback(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	int64_t		tagged;
	int			removed;
	int64_t		sum;
	int64_t		latest;
	pm_error	err;
	pm_table   *t;
	pm_expire_options o;
	int			expired;
	int64_t		files;

	build(io, arena, &old, &nold);
	assert_int_equal(pm_tag_create(io, TP, "t2", 2, arena, &tagged, &err), PM_OK);
	assert_int_equal(pm_tag_create(io, TP, "t5", 5, arena, &tagged, &err), PM_OK);

	assert_int_equal(pm_rollback_to_snapshot(io, TP, 42, arena, &removed, &err), PM_ERR_NOT_FOUND);
	assert_string_equal(err.message, "Rollback snapshot '42' doesn't exist.");
	assert_int_equal(pm_rollback_to_tag(io, TP, "nope", arena, &removed, &err), PM_ERR_NOT_FOUND);

	/* to snapshot 3: 4 and 5 and the tag of 5 go; LATEST = 3 */
	assert_int_equal(pm_rollback_to_snapshot(io, TP, 3, arena, &removed, &err), PM_OK);
	assert_int_equal(removed, 2);
	assert_false(snapshot_exists(io, 4));
	assert_false(snapshot_exists(io, 5));
	assert_false(exists(io, TP "/tag/tag-t5"));
	assert_true(exists(io, TP "/tag/tag-t2"));
	assert_string_equal(hint(io, arena, "LATEST"), "3");
	assert_int_equal(pm_snapshot_latest_id(io, TP, arena, &latest, &err), PM_OK);
	assert_int_equal(latest, 3);
	assert_int_equal(count_rows(io, 0, &sum, NULL), 90);
	/* the next commit continues at 4 */
	assert_int_equal(write_commit(io, arena, 200, 3, 9), 4);

	/* to a tag whose snapshot expired: the snapshot is written back from the tag */
	t = open_latest(io);
	o = expire_opts(1, 1, INT64_MAX);
	assert_int_equal(pm_snapshot_expire(t, &o, arena, &expired, &files, &err), PM_OK);
	assert_int_equal(expired, 3);
	pm_table_close(t);
	assert_false(snapshot_exists(io, 2));
	assert_int_equal(pm_rollback_to_snapshot(io, TP, 2, arena, &removed, &err), PM_OK);
	assert_true(snapshot_exists(io, 2));
	assert_false(snapshot_exists(io, 4));
	assert_string_equal(hint(io, arena, "EARLIEST"), "2");
	assert_string_equal(hint(io, arena, "LATEST"), "2");
	assert_int_equal(count_rows(io, 0, &sum, NULL), 60);
	assert_int_equal(sum, 59 * 60 / 2);
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* ---- orphan files --------------------------------------------------------- */

/* Files whose name contains "young" were modified now, the rest long ago. */
static bool
fake_stat(void *opaque, const char *path, int64_t *mtime, int64_t *size)
{
	*mtime = strstr(path, "young") != NULL ? 1000000 : 10;
	*size = 7;
	return true;
}

static void
test_orphan_files(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	pm_table   *t;
	pm_orphan_options o = {1000, true, fake_stat, NULL};
	pm_orphan_file *files;
	int			n;
	int64_t		sum;
	pm_error	err;
	pm_name_set *found = pm_name_set_create(arena);
	char	   *s3_base;
	char	   *s3_delta;
	static const char *const orphans[] = {
		TP "/dt=2026-12-01/bucket-0/data-killed-writer.parquet",
		TP "/dt=__DEFAULT_PARTITION__/bucket-0/.data-x.parquet.123.0.tmp",
		TP "/manifest/manifest-never-published-0",
		TP "/snapshot/.snapshot-9.4242.0.tmp",
		TP "/index/index-lost-0",
	};
	static const char *const kept[] = {
		TP "/dt=2026-12-01/bucket-0/data-young.parquet",	/* too young */
		TP "/snapshot/snapshot-x",	/* a snapshot- name: never touched */
		TP "/schema/.schema-1.tmp", /* not a directory Java cleans */
		TP "/other/data-x.parquet",
	};

	build(io, arena, &old, &nold);
	{
		pm_snapshot *s3;

		assert_int_equal(pm_snapshot_load(io, TP, 3, arena, &s3, &err), PM_OK);
		s3_base = pm_arena_sprintf(arena, TP "/manifest/%s", s3->base_manifest_list);
		s3_delta = pm_arena_sprintf(arena, TP "/manifest/%s", s3->delta_manifest_list);
	}
	for (size_t i = 0; i < sizeof(orphans) / sizeof(orphans[0]); i++)
		assert_int_equal(pm_memory_fileio_add(io, orphans[i], "orphan!", 7, &err), PM_OK);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		assert_int_equal(pm_memory_fileio_add(io, kept[i], "kept!!!", 7, &err), PM_OK);

	t = open_latest(io);
	/* dry run: reported, nothing deleted */
	assert_int_equal(pm_orphan_files_clean(t, &o, arena, &files, &n, &err), PM_OK);
	assert_int_equal(n, (int) (sizeof(orphans) / sizeof(orphans[0])));
	for (int i = 0; i < n; i++)
		assert_true(pm_name_set_add_str(found, files[i].path));
	for (size_t i = 0; i < sizeof(orphans) / sizeof(orphans[0]); i++)
	{
		assert_true(pm_name_set_contains_str(found, orphans[i]));
		assert_true(exists(io, orphans[i]));
	}

	/* expired snapshots' files kept by a tag are used */
	{
		int64_t		tagged;
		pm_expire_options eo = expire_opts(1, 1, INT64_MAX);
		int			expired;
		int64_t		nfiles;

		assert_int_equal(pm_tag_create(io, TP, "t3", 3, arena, &tagged, &err), PM_OK);
		assert_int_equal(pm_snapshot_expire(t, &eo, arena, &expired, &nfiles, &err), PM_OK);
		assert_int_equal(expired, 4);
		assert_int_equal(pm_orphan_files_clean(t, &o, arena, &files, &n, &err), PM_OK);
		assert_int_equal(n, (int) (sizeof(orphans) / sizeof(orphans[0])));
	}
	/*
	 * The tag file lost (no clean-up): the manifest lists only it used are
	 * orphans; the data files it kept are not, as in Java: the manifests of
	 * snapshot 5 still name them (ADD and DELETE entries count alike).
	 */
	assert_int_equal(io->remove(io, TP "/tag/tag-t3", &err), PM_OK);
	assert_int_equal(pm_orphan_files_clean(t, &o, arena, &files, &n, &err), PM_OK);
	assert_int_equal(n, (int) (sizeof(orphans) / sizeof(orphans[0])) + 2);
	found = pm_name_set_create(arena);
	for (int i = 0; i < n; i++)
		assert_true(pm_name_set_add_str(found, files[i].path));
	assert_true(pm_name_set_contains_str(found, s3_base));
	assert_true(pm_name_set_contains_str(found, s3_delta));

	/* for real */
	o.dry_run = false;
	assert_int_equal(pm_orphan_files_clean(t, &o, arena, &files, &n, &err), PM_OK);
	assert_int_equal(n, (int) (sizeof(orphans) / sizeof(orphans[0])) + 2);
	for (size_t i = 0; i < sizeof(orphans) / sizeof(orphans[0]); i++)
		assert_false(exists(io, orphans[i]));
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		assert_true(exists(io, kept[i]));
	for (int i = 0; i < nold; i++)
		assert_true(exists(io, old[i]));
	assert_false(exists(io, s3_base));
	assert_int_equal(count_rows(io, 0, &sum, NULL), 120);
	/* nothing left */
	assert_int_equal(pm_orphan_files_clean(t, &o, arena, &files, &n, &err), PM_OK);
	assert_int_equal(n, 0);

	/* a manifest that cannot be read stops the clean before anything is deleted */
	assert_int_equal(pm_memory_fileio_add(io, TP "/dt=2026-12-01/bucket-0/data-late.parquet",
										  "orphan!", 7, &err), PM_OK);
	{
		pm_snapshot *s5;
		char		path[512];

		assert_int_equal(pm_snapshot_load(io, TP, 5, arena, &s5, &err), PM_OK);
		snprintf(path, sizeof(path), TP "/manifest/%s", s5->delta_manifest_list);
		assert_int_equal(pm_memory_fileio_add(io, path, "garbage", 7, &err), PM_OK);
	}
	assert_int_not_equal(pm_orphan_files_clean(t, &o, arena, &files, &n, &err), PM_OK);
	assert_true(exists(io, TP "/dt=2026-12-01/bucket-0/data-late.parquet"));
	pm_table_close(t);
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* Add "key" : "value" to the options of schema-0. */
static void
add_table_option(pm_fileio *io, pm_arena *arena, const char *key, const char *value)
{
	uint8_t    *data;
	size_t		len;
	char	   *opt;
	char	   *json;
	pm_error	err;

	assert_int_equal(pm_fileio_read_all(io, TP "/schema/schema-0", arena, 1 << 20, &data, &len,
										&err), PM_OK);
	opt = strstr((char *) data, "\"options\" : {");
	assert_non_null(opt);
	opt += strlen("\"options\" : {");
	json = pm_arena_sprintf(arena, "%.*s \"%s\" : \"%s\"%s%s", (int) (opt - (char *) data),
							(char *) data, key, value,
							opt[strspn(opt, " \n")] == '}' ? "" : ",", opt);
	assert_int_equal(pm_memory_fileio_add(io, TP "/schema/schema-0", json, strlen(json), &err),
					 PM_OK);
}

/* A data-file.external-paths root that cannot be mapped locally: refused before deleting anything. */
static void
test_unmappable_external_paths(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	pm_error	err;
	pm_table   *t;
	pm_expire_options o = expire_opts(1, 1, INT64_MAX);
	int			expired;
	int64_t		files;
	bool		deleted;
	int64_t		tagged;

	build(io, arena, &old, &nold);
	assert_int_equal(pm_tag_create(io, TP, "t3", 3, arena, &tagged, &err), PM_OK);
	add_table_option(io, arena, "data-file.external-paths", "s3://bucket/x");
	t = open_latest(io);
	assert_int_equal(pm_snapshot_expire(t, &o, arena, &expired, &files, &err), PM_ERR_UNSUPPORTED);
	assert_int_equal(pm_tag_delete(t, "t3", arena, &deleted, &files, &err), PM_ERR_UNSUPPORTED);
	for (int64_t id = 1; id <= 5; id++)
		assert_true(snapshot_exists(io, id));
	assert_true(exists(io, TP "/tag/tag-t3"));
	for (int i = 0; i < nold; i++)
		assert_true(exists(io, old[i]));
	pm_table_close(t);
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_duration(void **state)
{
	int64_t		ms;
	pm_error	err;

	assert_int_equal(pm_parse_duration_millis("k", "1 h", &ms, &err), PM_OK);
	assert_int_equal(ms, 3600000);
	assert_int_equal(pm_parse_duration_millis("k", "30min", &ms, &err), PM_OK);
	assert_int_equal(ms, 1800000);
	assert_int_equal(pm_parse_duration_millis("k", "2 DAYS", &ms, &err), PM_OK);
	assert_int_equal(ms, 2 * 86400000LL);
	assert_int_equal(pm_parse_duration_millis("k", "250", &ms, &err), PM_OK);
	assert_int_equal(ms, 250);
	assert_int_equal(pm_parse_duration_millis("k", "1 week", &ms, &err), PM_ERR_INVALID);
	assert_int_equal(pm_parse_duration_millis("k", "h", &ms, &err), PM_ERR_INVALID);
	assert_int_equal(pm_parse_duration_millis("k", "99999999999999999999 d", &ms, &err),
					 PM_ERR_INVALID);
	assert_int_equal(pm_parse_duration_millis("k", "1500 µs", &ms, &err), PM_OK);
	assert_int_equal(ms, 1);
}

/* A Duration's seconds and nanos, and its JSON text as Jackson writes it. */
static void
expect_duration(const char *text, int64_t seconds, int32_t nanos, const char *json)
{
	pm_duration d;
	pm_error	err;
	char		buf[48];

	assert_int_equal(pm_parse_duration("k", text, &d, &err), PM_OK);
	assert_int_equal(d.seconds, seconds);
	assert_int_equal(d.nanos, nanos);
	pm_duration_json_text(d, buf, sizeof(buf));
	assert_string_equal(buf, json);
}

static void
test_duration_json(void **state)
{
	pm_duration d;
	pm_error	err;

	expect_duration("2 h", 7200, 0, "7200.000000000");
	expect_duration("93784005 ms", 93784, 5000000, "93784.005000000");
	expect_duration("0 s", 0, 0, "0.0");
	expect_duration("5 ms", 0, 5000000, "0.005000000");
	expect_duration("1 micros", 0, 1000, "0.000001000");
	expect_duration("100 ns", 0, 100, "1.00E-7");
	expect_duration("1 ns", 0, 1, "1E-9");
	expect_duration("1234567890123 ns", 1234, 567890123, "1234.567890123");
	expect_duration("250", 0, 250000000, "0.250000000");
	assert_int_equal(pm_parse_duration("k", "1 fortnight", &d, &err), PM_ERR_INVALID);
}

/* Tags with a retention time: their JSON (Tag.toJson), parsed back, and TagTimeExpire. */
static void
test_tag_retention(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	int64_t		tagged;
	pm_error	err;
	pm_tag	   *tags;
	int			n;
	int			expired;
	pm_tag_options day = {true, {86400, 0}, false};
	pm_tag_options brief = {true, {1, 500000000}, false};
	int64_t		before = pm_local_now_nanos();
	int64_t		created;
	pm_snapshot *s;
	char	   *json;
	size_t		len;
	static const char *const forms[][2] = {
		{"[ 2026, 12, 5, 11, 42 ]", "\"tagCreateTime\" : [ 2026, 12, 5, 11, 42 ]"},
		{"[ 2026, 12, 5, 11, 42, 7 ]", "\"tagCreateTime\" : [ 2026, 12, 5, 11, 42, 7 ]"},
		{"[ 2026, 12, 5, 11, 42, 0, 1000 ]", "\"tagCreateTime\" : [ 2026, 12, 5, 11, 42, 0, 1000 ]"},
		{"\"2026-12-05T11:42:28.5\"", "\"tagCreateTime\" : [ 2026, 12, 5, 11, 42, 28, 500000000 ]"},
	};

	build(io, arena, &old, &nold);
	assert_int_equal(pm_tag_create_with(io, TP, "day", 3, &day, arena, &tagged, &err), PM_OK);
	assert_int_equal(pm_tag_create_with(io, TP, "brief", 0, &brief, arena, &tagged, &err),
					 PM_OK);
	assert_int_equal(pm_tag_create(io, TP, "plain", 4, arena, &tagged, &err), PM_OK);
	assert_int_equal(pm_tag_list(io, TP, arena, &tags, &n, &err), PM_OK);
	assert_int_equal(n, 3);
	/* sorted by snapshot: day (3), plain (4), brief (5) */
	assert_string_equal(tags[0].name, "day");
	assert_true(tags[0].snapshot->has_tag_create_time && tags[0].snapshot->has_tag_time_retained);
	assert_int_equal(tags[0].snapshot->tag_time_retained.seconds, 86400);
	created = tags[0].snapshot->tag_create_time;
	assert_true(created >= before && created <= pm_local_now_nanos());
	assert_false(tags[1].snapshot->has_tag_create_time || tags[1].snapshot->has_tag_time_retained);
	assert_int_equal(tags[2].snapshot->tag_time_retained.nanos, 500000000);
	/* a tag of a tag's snapshot does not carry its times over (trimToSnapshot) */
	assert_int_equal(pm_tag_create(io, TP, "again", 3, arena, &tagged, &err), PM_OK);
	assert_int_equal(pm_snapshot_load_tag(io, TP, "again", arena, &s, &err), PM_OK);
	assert_false(s->has_tag_create_time);

	/* not yet past: nothing; past brief's 1.5 s: brief only; past a day: day too */
	assert_int_equal(pm_tag_expire_by_time(pm_env_default(), io, TP, created + 1000000000, arena,
										   &expired, &err), PM_OK);
	assert_int_equal(expired, 0);
	assert_int_equal(pm_tag_expire_by_time(pm_env_default(), io, TP,
										   pm_local_now_nanos() + 1600000000, arena, &expired,
										   &err), PM_OK);
	assert_int_equal(expired, 1);
	assert_false(exists(io, TP "/tag/tag-brief"));
	assert_int_equal(pm_tag_expire_by_time(pm_env_default(), io, TP,
										   created + 86400 * INT64_C(1000000000), arena,
										   &expired, &err), PM_OK);
	assert_int_equal(expired, 0);	/* not after: equal */
	assert_int_equal(pm_tag_expire_by_time(pm_env_default(), io, TP,
										   created + 86400 * INT64_C(1000000000) + 1, arena,
										   &expired, &err), PM_OK);
	assert_int_equal(expired, 1);
	assert_true(exists(io, TP "/tag/tag-plain") && exists(io, TP "/tag/tag-again"));

	/* LocalDateTime as Jackson writes and reads it; what cannot be one is absent */
	assert_int_equal(pm_snapshot_load_tag(io, TP, "plain", arena, &s, &err), PM_OK);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
	{
		const char *base = "{\"id\":3,\"schemaId\":0,\"baseManifestList\":\"b\","
			"\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitKind\":\"APPEND\","
			"\"tagTimeRetained\":7200.000000000,\"tagCreateTime\":";
		char	   *text = pm_arena_sprintf(arena, "%s%s}", base, forms[i][0]);

		assert_int_equal(pm_snapshot_parse(text, strlen(text), arena, &s, &err), PM_OK);
		assert_true(s->has_tag_create_time);
		assert_int_equal(s->tag_time_retained.seconds, 7200);
		assert_int_equal(pm_snapshot_to_json(s, arena, &json, &len, &err), PM_OK);
		assert_non_null(strstr(json, forms[i][1]));
		assert_non_null(strstr(json, "\"tagTimeRetained\" : 7200.000000000\n}"));
	}
	{
		static const char *const bad[] = {
			"[ 2026, 13, 5, 11, 42 ]", "[ 2026, 2, 30, 1, 1 ]", "[ 2026, 12, 5, 11 ]",
			"\"2026-12-05 11:42\"", "\"yesterday\"", "[ 9999, 1, 1, 0, 0 ]", "17"
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		{
			char	   *text = pm_arena_sprintf(arena, "{\"id\":3,\"schemaId\":0,"
											   "\"baseManifestList\":\"b\",\"deltaManifestList\":\"d\","
											   "\"tagCreateTime\":%s,\"tagTimeRetained\":-1}", bad[i]);

			assert_int_equal(pm_snapshot_parse(text, strlen(text), arena, &s, &err), PM_OK);
			assert_false(s->has_tag_create_time || s->has_tag_time_retained);
		}
	}
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}


/* ---- process-time auto tags (table/tag_auto.c) -------------------------- */

#define H_MS INT64_C(3600000)
/* 2023-07-18 00:00 UTC */
#define D18 INT64_C(1689638400000)

/* Snapshot id's commit time set to utc_ms (as if committed then). */
static void
set_snapshot_time(pm_fileio *io, pm_arena *arena, int64_t id, int64_t utc_ms)
{
	pm_snapshot *s;
	char	   *json;
	size_t		len;
	char		path[256];
	pm_error	err;

	assert_int_equal(pm_snapshot_load(io, TP, id, arena, &s, &err), PM_OK);
	s->time_millis = utc_ms;
	assert_int_equal(pm_snapshot_to_json(s, arena, &json, &len, &err), PM_OK);
	snprintf(path, sizeof(path), TP "/snapshot/snapshot-%lld", (long long) id);
	assert_int_equal(io->remove(io, path, &err), PM_OK);
	assert_int_equal(io->write_new(io, path, json, len, &err), PM_OK);
}

/*
 * tag.create-success-file: <tag>_SUCCESS in tag/tag-success-file/, its
 * creation time kept when written again, removed with the tag; the
 * directory is not a tag to the listing. tag.callbacks: refused.
 */
static void
test_tag_success_file(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	  **old;
	int			nold;
	int64_t		tagged;
	pm_error	err;
	pm_tag	   *tags;
	int			n;
	pm_tag_options o = {false, {0, 0}, true};
	uint8_t    *data;
	size_t		len;
	pm_table   *t;
	bool		deleted;
	int64_t		files;
	const char *old_json = "{\n  \"creationTime\" : 42,\n  \"modificationTime\" : 43\n}";

	build(io, arena, &old, &nold);
	assert_int_equal(pm_tag_create_with(io, TP, "t3", 3, &o, arena, &tagged, &err), PM_OK);
	assert_int_equal(pm_fileio_read_all(io, TP "/tag/tag-success-file/t3_SUCCESS", arena, 1 << 20,
										&data, &len, &err), PM_OK);
	assert_non_null(strstr((const char *) data, "{\n  \"creationTime\" : 1"));
	assert_non_null(strstr((const char *) data, ",\n  \"modificationTime\" : 1"));
	/* written again (a tag of that name made anew): the creation time stays */
	assert_int_equal(io->write_new(io, TP "/tag/tag-success-file/t4_SUCCESS", old_json,
								   strlen(old_json), &err), PM_OK);
	assert_int_equal(pm_tag_create_with(io, TP, "t4", 4, &o, arena, &tagged, &err), PM_OK);
	assert_int_equal(pm_fileio_read_all(io, TP "/tag/tag-success-file/t4_SUCCESS", arena, 1 << 20,
										&data, &len, &err), PM_OK);
	{
		const char *kept = "{\n  \"creationTime\" : 42,\n  \"modificationTime\" : 1";

		assert_memory_equal(data, kept, strlen(kept));
	}
	/* the directory tag-success-file is no tag */
	assert_int_equal(pm_tag_list(io, TP, arena, &tags, &n, &err), PM_OK);
	assert_int_equal(n, 2);
	/* deleting the tag removes its success file (the table's option says so) */
	add_table_option(io, arena, "tag.create-success-file", "true");
	t = open_latest(io);
	assert_int_equal(pm_tag_delete(t, "t3", arena, &deleted, &files, &err), PM_OK);
	assert_true(deleted);
	assert_false(exists(io, TP "/tag/tag-success-file/t3_SUCCESS"));
	assert_true(exists(io, TP "/tag/tag-success-file/t4_SUCCESS"));
	pm_table_close(t);
	/* tag.callbacks: Java classes not run here, so refused */
	add_table_option(io, arena, "tag.callbacks", "my.Callback");
	t = open_latest(io);
	assert_int_equal(pm_tag_options_of_schema(pm_table_schema(t), &o, &err), PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "tag.callbacks"));
	pm_table_close(t);
	free_old(old, nold);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* "name@snapshot,..." of every tag, in snapshot order */
static const char *
tag_text(pm_fileio *io, pm_arena *arena)
{
	pm_tag	   *tags;
	int			n;
	pm_error	err;
	char	   *out = pm_arena_strdup(arena, "");

	assert_int_equal(pm_tag_list(io, TP, arena, &tags, &n, &err), PM_OK);
	for (int i = 0; i < n; i++)
		out = pm_arena_sprintf(arena, "%s%s%s@%lld", out, i ? "," : "", tags[i].name,
							   (long long) tags[i].snapshot->id);
	return out;
}

static pm_code
run_auto(pm_fileio *io, pm_arena *arena, pm_schema *s, int nopts, const char **keys,
		 const char **vals, pm_tag_auto_result *res, pm_error *err)
{
	s->noptions = nopts;
	s->option_keys = keys;
	s->option_values = vals;
	return pm_tag_auto_run(pm_env_default(), io, TP, s, arena, res, err);
}

static void
test_auto_tags(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"tag.automatic-creation", "tag.creation-period",
	"sink.process-time-zone", "tag.num-retained-max"};
	static const char *vals[] = {"process-time", "hourly", "UTC", "2"};
	static const char *vals8[] = {"process-time", "hourly", "GMT+8", "2"};
	static const int64_t times[] = {10 * H_MS + 30 * 60000, 10 * H_MS + 50 * 60000,
	11 * H_MS + 10 * 60000, 13 * H_MS + 5 * 60000, 13 * H_MS + 20 * 60000};
	pm_table   *t;
	pm_schema	s;
	pm_tag_auto_result res;
	pm_error	err;
	int64_t		tagged;

	(void) state;
	create_table(io, arena);
	for (int i = 0; i < 5; i++)
	{
		assert_int_equal(write_commit(io, arena, i * 10, 10, i + 1), i + 1);
		set_snapshot_time(io, arena, i + 1, D18 + times[i]);
	}
	t = open_latest(io);
	s = *pm_table_schema(t);
	pm_table_close(t);

	/* no process-time: nothing */
	assert_int_equal(run_auto(io, arena, &s, 0, NULL, NULL, &res, &err), PM_OK);
	assert_int_equal(res.created, 0);
	assert_string_equal(tag_text(io, arena), "");

	/*
	 * Java's tryToCreateTags: the first snapshot tags the hour before its
	 * own; the next tag waits for a snapshot at or after the end of the
	 * following hour; only two auto tags are kept.
	 */
	assert_int_equal(run_auto(io, arena, &s, 4, keys, vals, &res, &err), PM_OK);
	assert_int_equal(res.created, 3);
	assert_int_equal(res.deleted, 1);
	assert_string_equal(res.last_created, "2023-07-18 12");
	assert_string_equal(tag_text(io, arena), "2023-07-18 10@3,2023-07-18 12@4");

	/* idempotent: nothing new */
	assert_int_equal(run_auto(io, arena, &s, 4, keys, vals, &res, &err), PM_OK);
	assert_int_equal(res.created + res.deleted, 0);

	/* a manual tag is not an auto tag; the next run goes on from the last auto tag */
	assert_int_equal(write_commit(io, arena, 50, 10, 6), 6);
	set_snapshot_time(io, arena, 6, D18 + 15 * H_MS);
	assert_int_equal(pm_tag_create(io, TP, "manual", 5, arena, &tagged, &err), PM_OK);
	assert_int_equal(run_auto(io, arena, &s, 4, keys, vals, &res, &err), PM_OK);
	assert_int_equal(res.created, 1);
	assert_string_equal(tag_text(io, arena), "2023-07-18 12@4,manual@5,2023-07-18 14@6");

	/* another zone: 10:30 UTC is 18:30 at GMT+8 */
	pm_memory_fileio_destroy(io);
	io = pm_memory_fileio_create(pm_env_default());
	create_table(io, arena);
	assert_int_equal(write_commit(io, arena, 0, 10, 1), 1);
	set_snapshot_time(io, arena, 1, D18 + times[0]);
	assert_int_equal(run_auto(io, arena, &s, 4, keys, vals8, &res, &err), PM_OK);
	assert_string_equal(tag_text(io, arena), "2023-07-18 17@1");

	/* wired to the writer's commit: the table's options decide */
	pm_memory_fileio_destroy(io);
	io = pm_memory_fileio_create(pm_env_default());
	create_table_with(io, arena, 4, keys, vals);
	assert_int_equal(write_commit(io, arena, 0, 10, 1), 1);
	{
		pm_snapshot *s1;
		pm_tag_period p;
		char		want[PM_TAG_PERIOD_NAME_MAX];

		assert_int_equal(pm_snapshot_load(io, TP, 1, arena, &s1, &err), PM_OK);
		assert_int_equal(pm_tag_period_init(&p, "hourly", NULL, 0, false, &err), PM_OK);
		assert_true(pm_tag_period_name(&p, pm_tag_period_previous_start(&p, s1->time_millis),
									   want));
		assert_string_equal(tag_text(io, arena), pm_arena_sprintf(arena, "%s@1", want));
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expire_deletes_unreferenced),
		cmocka_unit_test(test_tag_protects_files),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_rollback),
		cmocka_unit_test(test_orphan_files),
		cmocka_unit_test(test_unmappable_external_paths),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_duration_json),
		cmocka_unit_test(test_tag_retention),
		cmocka_unit_test(test_tag_success_file),
		cmocka_unit_test(test_auto_tags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
