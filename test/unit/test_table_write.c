/*-------------------------------------------------------------------------
 * test_table_write.c
 *	  Writing append tables (table/table_write.c, commit.c, table_create.c)
 *	  and reading them back through the scan code: partitioned and
 *	  unaware-bucket, fixed buckets (Paimon's hash, sequence numbers
 *	  continued), two commits, a lost snapshot race retried, a DELETE
 *	  conflict, abort leaving no file, on the local and the memory FileIO.
 *
 * PAIMON_WRITE_OUT=<warehouse>: the local-FileIO tables are also written to
 * <warehouse>/tw.db/<name> and kept, for test/oracle (Java reads them).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "row/binary_row.h"
#include "row/bucket.h"
#include "row/value.h"
#include "table/commit.h"
#include "table/index_manifest.h"
#include "table/manifest_list.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#define NPART 3

/* ---- a schema and its rows ---------------------------------------------- */

/* id INT, name STRING, dt STRING (partition key unless unpartitioned), amount DOUBLE */
static pm_schema *
make_schema(pm_arena *arena, bool partitioned, int nopt, const char **keys, const char **vals)
{
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 4);
	static const char *pkeys[] = {"dt"};

	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	f[1] = (pm_field) {0, "name", pm_type_new(arena, PM_TYPE_VARCHAR, true), NULL};
	f[2] = (pm_field) {0, "dt", pm_type_new(arena, PM_TYPE_VARCHAR, true), NULL};
	f[3] = (pm_field) {0, "amount", pm_type_new(arena, PM_TYPE_DOUBLE, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 4, false);
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

static const char *
dt_of(int id)
{
	static const char *const dts[NPART] = {"2026-12-01", "2026-12-02", NULL};

	return dts[id % NPART];
}

/* Rows start .. start+n-1: id, "name-<id>", dt_of(id), id * 0.5 (NULL when id % 7 == 0). */
static pm_batch *
make_batch(pm_arena *arena, const pm_type *row, int start, int n)
{
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));
	int64_t		cap[4] = {0};

	b->nrows = n;
	b->ncols = 4;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * 4);
	for (int c = 0; c < 4; c++)
	{
		assert_true(pm_vector_init(&b->cols[c], row->fields[c].type, n, true, arena));
		b->cols[c].length = n;
	}
	for (int i = 0; i < n; i++)
	{
		int			id = start + i;
		char		name[32];
		const char *dt = dt_of(id);

		PM_VEC_VALUES(&b->cols[0], int32_t)[i] = id;
		snprintf(name, sizeof(name), "name-%d", id);
		assert_true(pm_vector_append_data(&b->cols[1], &cap[1], name, (int64_t) strlen(name), arena));
		b->cols[1].offsets[i + 1] = (int32_t) b->cols[1].data_size;
		if (dt != NULL)
			assert_true(pm_vector_append_data(&b->cols[2], &cap[2], dt, (int64_t) strlen(dt), arena));
		else
			b->cols[2].nulls[i] = 1;
		b->cols[2].offsets[i + 1] = (int32_t) b->cols[2].data_size;
		if (id % 7 == 0)
			b->cols[3].nulls[i] = 1;
		else
			PM_VEC_VALUES(&b->cols[3], double)[i] = id * 0.5;
	}
	return b;
}

/* ---- reading back --------------------------------------------------------- */

typedef struct readback
{
	int64_t		rows;
	int64_t		id_sum;
	int64_t		null_dt;
	int64_t		null_amount;
	bool		names_ok;
	bool		dt_ok;
	int64_t		snapshot_id;
	int64_t		total_record_count;
	int			nfiles;
} readback;

static readback
read_back(pm_fileio *io, const char *path)
{
	readback	r;
	pm_table   *table;
	pm_scan    *scan;
	pm_scan_reader *reader;
	pm_batch   *b;
	pm_error	err;
	int			fields[4] = {0, 1, 2, 3};
	pm_code		rc;

	memset(&r, 0, sizeof(r));
	r.names_ok = r.dt_ok = true;
	if (pm_table_open(pm_env_default(), io, path, NULL, &table, &err) != PM_OK)
		fail_msg("open %s: %s", path, err.message);
	r.snapshot_id = pm_table_snapshot_id(table);
	r.total_record_count = pm_table_total_record_count(table);
	if (pm_table_scan_plan(table, NULL, &scan, &err) != PM_OK)
		fail_msg("plan: %s", err.message);
	r.nfiles = (int) pm_scan_get_stats(scan)->files_selected;
	if (pm_scan_reader_open(scan, fields, 4, &reader, &err) != PM_OK)
		fail_msg("reader: %s", err.message);
	while ((rc = pm_scan_reader_next(reader, &b, &err)) == PM_OK && b != NULL)
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int32_t		id = PM_VEC_VALUES(&b->cols[0], int32_t)[i];
			char		want[32];
			int32_t		len;
			const uint8_t *p = pm_vector_bytes(&b->cols[1], i, &len);
			const char *dt = dt_of(id);

			r.rows++;
			r.id_sum += id;
			snprintf(want, sizeof(want), "name-%d", id);
			if ((size_t) len != strlen(want) || memcmp(p, want, (size_t) len) != 0)
				r.names_ok = false;
			if (pm_vector_is_null(&b->cols[2], i))
			{
				r.null_dt++;
				r.dt_ok &= dt == NULL;
			}
			else
			{
				p = pm_vector_bytes(&b->cols[2], i, &len);
				r.dt_ok &= dt != NULL && (size_t) len == strlen(dt) && memcmp(p, dt, (size_t) len) == 0;
			}
			if (pm_vector_is_null(&b->cols[3], i))
				r.null_amount++;
			else if (PM_VEC_VALUES(&b->cols[3], double)[i] != id * 0.5)
				r.names_ok = false;
		}
	if (rc != PM_OK)
		fail_msg("read: %s", err.message);
	pm_scan_reader_close(reader);
	pm_scan_free(scan);
	pm_table_close(table);
	return r;
}

static int64_t
id_sum(int start, int n)
{
	int64_t		s = 0;

	for (int i = start; i < start + n; i++)
		s += i;
	return s;
}

/* ---- directories ------------------------------------------------------- */

static char *
table_dir(const char *name)
{
	const char *out = getenv("PAIMON_WRITE_OUT");
	char	   *dir = malloc(4096);

	if (out != NULL && *out != '\0')
		snprintf(dir, 4096, "%s/tw.db/%s", out, name);
	else
	{
		char		tmpl[] = "/tmp/pm_table_write_XXXXXX";

		assert_non_null(mkdtemp(tmpl));
		snprintf(dir, 4096, "%s/%s", tmpl, name);
	}
	return dir;
}

static bool
keep_tables(void)
{
	const char *out = getenv("PAIMON_WRITE_OUT");

	return out != NULL && *out != '\0';
}

static void
remove_tree(const char *path)
{
	DIR		   *d = opendir(path);
	struct dirent *e;

	if (d == NULL)
	{
		unlink(path);
		return;
	}
	while ((e = readdir(d)) != NULL)
	{
		char		sub[4096];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		remove_tree(sub);
	}
	closedir(d);
	rmdir(path);
}

static void
drop_dir(char *dir)
{
	if (!keep_tables())
	{
		char	   *slash = strrchr(dir, '/');

		*slash = '\0';
		remove_tree(dir);		/* the mkdtemp directory */
	}
	free(dir);
}

/* Number of regular files under path (recursively), name containing `part`. */
static int
count_files(const char *path, const char *part)
{
	DIR		   *d = opendir(path);
	struct dirent *e;
	int			n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
	{
		char		sub[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			n += count_files(sub, part);
		else if (strstr(e->d_name, part) != NULL)
			n++;
	}
	closedir(d);
	return n;
}

/* ---- tests ------------------------------------------------------------- */

static void
write_rows(pm_table_writer *w, pm_arena *arena, int start, int n, int chunk)
{
	pm_error	err;

	for (int i = start; i < start + n; i += chunk)
	{
		int			k = start + n - i < chunk ? start + n - i : chunk;
		pm_batch   *b = make_batch(arena, pm_table_writer_schema(w)->row_type, i, k);

		if (pm_table_writer_write(w, b, NULL, &err) != PM_OK)
			fail_msg("write: %s", err.message);
	}
}

static void
roundtrip(pm_fileio *io, const char *dir, bool partitioned, int nopt, const char **keys,
		  const char **vals)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = make_schema(arena, partitioned, nopt, keys, vals);
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	readback	r;

	if (pm_table_create(pm_env_default(), io, dir, s, &err) != PM_OK)
		fail_msg("create: %s", err.message);
	/* creating it again is a conflict */
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_ERR_CONFLICT);

	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "user-1", &w, &err), PM_OK);
	write_rows(w, arena, 0, 1000, 128);
	if (pm_table_writer_commit(w, 1, &sid, &err) != PM_OK)
		fail_msg("commit: %s", err.message);
	assert_int_equal(sid, 1);
	r = read_back(io, dir);
	assert_int_equal(r.snapshot_id, 1);
	assert_int_equal(r.rows, 1000);
	assert_int_equal(r.total_record_count, 1000);
	assert_int_equal(r.id_sum, id_sum(0, 1000));
	assert_int_equal(r.null_amount, 143);	/* 0, 7, ..., 994 */
	assert_true(r.names_ok);
	assert_true(r.dt_ok);
	if (partitioned)
		assert_int_equal(r.null_dt, 333);
	{
		/* hints: LATEST and, with the first snapshot, EARLIEST */
		pm_arena   *ha = pm_arena_create(pm_env_default());
		char	   *p = pm_arena_sprintf(ha, "%s/snapshot/EARLIEST", dir);
		uint8_t    *text;
		size_t		len;

		assert_int_equal(pm_fileio_read_all(io, p, ha, 64, &text, &len, &err), PM_OK);
		assert_string_equal((char *) text, "1");
		p = pm_arena_sprintf(ha, "%s/snapshot/LATEST", dir);
		assert_int_equal(pm_fileio_read_all(io, p, ha, 64, &text, &len, &err), PM_OK);
		assert_string_equal((char *) text, "1");
		pm_arena_destroy(ha);
	}

	/* an empty commit publishes nothing; the next commit is snapshot 2 */
	assert_int_equal(pm_table_writer_commit(w, 2, &sid, &err), PM_OK);
	assert_int_equal(sid, 0);
	write_rows(w, arena, 1000, 10, 10);
	assert_int_equal(pm_table_writer_commit(w, 3, &sid, &err), PM_OK);
	assert_int_equal(sid, 2);
	r = read_back(io, dir);
	{
		pm_arena   *ha = pm_arena_create(pm_env_default());
		uint8_t    *text;
		size_t		len;

		assert_int_equal(pm_fileio_read_all(io, pm_arena_sprintf(ha, "%s/snapshot/LATEST", dir),
											ha, 64, &text, &len, &err), PM_OK);
		assert_string_equal((char *) text, "2");
		assert_int_equal(pm_fileio_read_all(io, pm_arena_sprintf(ha, "%s/snapshot/EARLIEST", dir),
											ha, 64, &text, &len, &err), PM_OK);
		assert_string_equal((char *) text, "1");
		pm_arena_destroy(ha);
	}
	assert_int_equal(r.rows, 1010);
	assert_int_equal(r.total_record_count, 1010);
	assert_int_equal(r.id_sum, id_sum(0, 1010));
	pm_table_writer_close(w);
	pm_arena_destroy(arena);
}

static void
test_append_partitioned_local(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("append_partitioned");

	(void) state;
	roundtrip(io, dir, true, 0, NULL, NULL);
	/* unaware bucket: every file in bucket-0 of its partition */
	{
		char		p[4200];

		snprintf(p, sizeof(p), "%s/dt=2026-12-01/bucket-0", dir);
		assert_true(count_files(p, ".parquet") >= 2);
		snprintf(p, sizeof(p), "%s/dt=__DEFAULT_PARTITION__/bucket-0", dir);
		assert_true(count_files(p, ".parquet") >= 2);
	}
	drop_dir(dir);
	pm_local_fileio_destroy(io);
}

/*
 * data-file.external-paths (round-robin over two roots, one written
 * "file://<dir>/"): every data file under <root>/dt=<d>/bucket-0/, none in
 * the table, each meta recording "file:" and its local path.
 */
static void
test_append_external_paths(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("append_external");
	char		base[4096];
	char		roots[8400];
	char		p[4200];
	const char *keys[] = {"data-file.external-paths", "data-file.external-paths.strategy"};
	const char *vals[] = {roots, "round-robin"};
	pm_table   *t;
	pm_scan    *scan;
	pm_error	err;
	int			nfiles = 0;
	int			in_root[2] = {0, 0};

	(void) state;
	snprintf(base, sizeof(base), "%s", dir);
	*strrchr(base, '/') = '\0';
	snprintf(roots, sizeof(roots), "file:%s/ext_a, file://%s/ext_b/", base, base);
	roundtrip(io, dir, true, 2, keys, vals);
	assert_int_equal(count_files(dir, ".parquet"), 0);
	snprintf(p, sizeof(p), "%s/ext_a/dt=2026-12-01/bucket-0", base);
	in_root[0] = count_files(p, ".parquet");
	snprintf(p, sizeof(p), "%s/ext_b/dt=2026-12-01/bucket-0", base);
	in_root[1] = count_files(p, ".parquet");
	assert_true(in_root[0] >= 1 && in_root[1] >= 1);	/* two files there, one per root */
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &t, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan_every_level(t, &scan, &err), PM_OK);
	for (int i = 0; i < pm_scan_split_count(scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *m = sp->files[f];
			size_t		bl = strlen(base);

			assert_non_null(m->external_path);
			assert_int_equal(strncmp(m->external_path, "file:", 5), 0);
			assert_string_equal(m->external_path + 5, m->path);
			assert_int_equal(strncmp(m->path, base, bl), 0);
			assert_true(strncmp(m->path + bl, "/ext_a/dt=", 10) == 0 ||
						strncmp(m->path + bl, "/ext_b/dt=", 10) == 0);
			assert_non_null(strstr(m->path, "/bucket-0/data-"));
			assert_non_null(strstr(m->path, m->file_name));
			nfiles++;
		}
	}
	assert_int_equal(nfiles, count_files(base, ".parquet"));
	assert_true(nfiles >= 4);
	pm_scan_free(scan);
	pm_table_close(t);
	drop_dir(dir);
	pm_local_fileio_destroy(io);
}

static void
test_append_unpartitioned_memory(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	static const char *keys[] = {"file.compression", "metadata.stats-mode"};
	static const char *vals[] = {"snappy", "full"};

	(void) state;
	roundtrip(io, "/mem/wh/db.db/t", false, 2, keys, vals);
	pm_memory_fileio_destroy(io);
}

static void
test_append_avro_memory(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	static const char *keys[] = {"file.format"};
	static const char *vals[] = {"avro"};

	(void) state;
	roundtrip(io, "/mem/wh/db.db/avro", true, 1, keys, vals);
	pm_memory_fileio_destroy(io);
}

/* Fixed buckets: rows in the bucket Paimon's hash gives; sequence numbers continue. */
static void
test_fixed_bucket(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("append_fixed_bucket");
	static const char *keys[] = {"bucket", "3", "bucket-key"};
	static const char *vals[] = {"3", "id"};
	const char *k2[] = {keys[0], keys[2]};
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = make_schema(arena, true, 2, k2, vals);
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	pm_table   *table;
	pm_scan    *scan;
	int64_t		max_seq_first[NPART + 1][3];

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int round = 0; round < 2; round++)
	{
		assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "user-b", &w, &err), PM_OK);
		write_rows(w, arena, round * 500, 500, 100);
		assert_int_equal(pm_table_writer_commit(w, round + 1, &sid, &err), PM_OK);
		assert_int_equal(sid, round + 1);
		pm_table_writer_close(w);

		assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
		assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
		for (int i = 0; i < pm_scan_split_count(scan); i++)
		{
			const pm_split *sp = pm_scan_get_split(scan, i);
			int			fields[1] = {0};
			int			pidx = sp->partition_values[0].is_null ? NPART : (sp->partition_values[0].u.bytes.ptr[9] - '1');

			assert_int_equal(sp->total_buckets, 3);
			assert_int_equal(sp->nfiles, round + 1);
			for (int f = 0; f < sp->nfiles; f++)
			{
				const pm_data_file_meta *fm = sp->files[f];
				pm_data_file_reader *rd;
				pm_batch   *b;

				assert_int_equal(fm->level, 0);
				assert_int_equal(fm->max_sequence_number - fm->min_sequence_number + 1, fm->row_count);
				if (round == 0)
				{
					assert_int_equal(fm->min_sequence_number, 0);
					max_seq_first[pidx][sp->bucket] = fm->max_sequence_number;
				}
				else if (f == 1)
					assert_int_equal(fm->min_sequence_number, max_seq_first[pidx][sp->bucket] + 1);
				assert_int_equal(pm_data_file_reader_open(table, fm, fields, 1, false, 0, &rd, &err), PM_OK);
				while (pm_data_file_reader_next(rd, &b, &err) == PM_OK && b != NULL)
					for (int64_t r = 0; r < b->nrows; r++)
					{
						pm_value	v;
						int32_t		bucket;
						pm_field	kf = pm_table_schema(table)->row_type->fields[0];
						pm_type    *kt = pm_type_new_row(arena, &kf, 1, false);

						assert_true(pm_vector_value(&b->cols[0], r, &v));
						assert_int_equal(pm_bucket_of(kt, &v, 3, &bucket, &err), PM_OK);
						assert_int_equal(bucket, sp->bucket);
					}
				pm_data_file_reader_close(rd);
			}
		}
		pm_scan_free(scan);
		pm_table_close(table);
	}
	{
		readback	r = read_back(io, dir);

		assert_int_equal(r.rows, 1000);
		assert_int_equal(r.id_sum, id_sum(0, 1000));
	}
	pm_arena_destroy(arena);
	drop_dir(dir);
	pm_local_fileio_destroy(io);
}

/* A FileIO that lets another writer commit just before our snapshot publish. */
typedef struct racing_io
{
	pm_fileio	io;				/* first: the ops we expose */
	pm_fileio  *inner;
	const char *table;
	bool		raced;
} racing_io;

static pm_code
racing_write_new(pm_fileio *io, const char *path, const void *data, size_t len, pm_error *err)
{
	racing_io  *r = (racing_io *) io;

	if (!r->raced && strstr(path, "/snapshot/snapshot-") != NULL)
	{
		pm_table_writer *other;
		pm_arena   *arena = pm_arena_create(pm_env_default());
		int64_t		sid;

		r->raced = true;
		assert_int_equal(pm_table_writer_open(pm_env_default(), r->inner, r->table, "rival", &other, err), PM_OK);
		write_rows(other, arena, 5000, 5, 5);
		assert_int_equal(pm_table_writer_commit(other, 1, &sid, err), PM_OK);
		pm_table_writer_close(other);
		pm_arena_destroy(arena);
	}
	return r->inner->write_new(r->inner, path, data, len, err);
}

static void
test_race_retry(void **state)
{
	pm_fileio  *inner = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("append_race");
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = make_schema(arena, true, 0, NULL, NULL);
	racing_io	rio;
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	readback	r;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), inner, dir, s, &err), PM_OK);
	rio.io = *inner;
	rio.io.write_new = racing_write_new;
	rio.inner = inner;
	rio.table = dir;
	rio.raced = false;
	assert_int_equal(pm_table_writer_open(pm_env_default(), &rio.io, dir, "user-r", &w, &err), PM_OK);
	write_rows(w, arena, 0, 100, 100);
	/* the rival takes snapshot 1 in between: we retry and get 2 */
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	assert_true(rio.raced);
	assert_int_equal(sid, 2);
	pm_table_writer_close(w);
	r = read_back(inner, dir);
	assert_int_equal(r.snapshot_id, 2);
	assert_int_equal(r.rows, 105);
	assert_int_equal(r.total_record_count, 105);
	assert_int_equal(r.id_sum, id_sum(0, 100) + id_sum(5000, 5));
	{
		/* the lost attempt's base list was removed: 2 snapshots x (base + delta) lists */
		char		p[4200];

		snprintf(p, sizeof(p), "%s/manifest", dir);
		assert_int_equal(count_files(p, "manifest-list-"), 4);
	}
	pm_arena_destroy(arena);
	drop_dir(dir);
	pm_local_fileio_destroy(inner);
}

/* Deleting a file that is not live is a conflict; nothing is left behind. */
static void
test_delete_conflict(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("append_delete_conflict");
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = make_schema(arena, false, 0, NULL, NULL);
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	pm_table   *table;
	pm_scan    *scan;
	pm_commit_change change;
	pm_commit_request req;
	pm_data_file_meta gone;
	char		mdir[4200];
	int			before;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "user-d", &w, &err), PM_OK);
	write_rows(w, arena, 0, 10, 10);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);

	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	assert_int_equal(pm_scan_split_count(scan), 1);
	gone = *pm_scan_get_split(scan, 0)->files[0];
	gone.file_name = "data-00000000-0000-0000-0000-000000000000-0.parquet";
	memset(&change, 0, sizeof(change));
	change.partition = pm_scan_get_split(scan, 0)->partition;
	change.partition_len = pm_scan_get_split(scan, 0)->partition_len;
	change.bucket = 0;
	change.total_buckets = -1;
	change.ndeleted = 1;
	change.deleted = &gone;
	memset(&req, 0, sizeof(req));
	req.commit_user = "user-d";
	req.commit_identifier = 2;
	req.commit_kind = "OVERWRITE";
	req.schema = pm_table_schema(table);
	req.nchanges = 1;
	req.changes = &change;
	snprintf(mdir, sizeof(mdir), "%s/manifest", dir);
	before = count_files(mdir, "manifest");
	assert_int_equal(pm_table_commit(pm_env_default(), io, dir, &req, arena, &sid, &err),
					 PM_ERR_CONFLICT);
	assert_non_null(strstr(err.message, "File deletion conflicts detected"));
	assert_int_equal(count_files(mdir, "manifest"), before);
	/* deleting the live file works */
	change.deleted = pm_scan_get_split(scan, 0)->files[0];
	assert_int_equal(pm_table_commit(pm_env_default(), io, dir, &req, arena, &sid, &err), PM_OK);
	assert_int_equal(sid, 2);
	pm_scan_free(scan);
	pm_table_close(table);
	{
		readback	r = read_back(io, dir);

		assert_int_equal(r.rows, 0);
		assert_int_equal(r.total_record_count, 0);
	}
	pm_arena_destroy(arena);
	drop_dir(dir);
	pm_local_fileio_destroy(io);
}

/* The index manifest of snapshot sid, sorted by file name. */
static int
index_state(pm_fileio *io, const char *dir, int64_t sid, pm_arena *arena,
			pm_index_manifest_entry **out)
{
	pm_snapshot *snap;
	pm_error	err;
	char		path[4200];
	int			n;

	assert_int_equal(pm_snapshot_load(io, dir, sid, arena, &snap, &err), PM_OK);
	if (snap->index_manifest == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/manifest/%s", dir, snap->index_manifest);
	assert_int_equal(pm_index_manifest_read(pm_env_default(), io, path, arena, out, &n, &err),
					 PM_OK);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (strcmp((*out)[j].file_name, (*out)[i].file_name) < 0)
			{
				pm_index_manifest_entry t = (*out)[i];

				(*out)[i] = (*out)[j];
				(*out)[j] = t;
			}
	return n;
}

/*
 * Index changes: the index manifest is the previous state combined as
 * Java's BucketedCombiner does (a new file of a bucket and type replaces
 * the old one); deleting an index file that is not live is a conflict.
 */
static void
test_index_changes(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("index_changes");
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *keys[] = {"bucket", "bucket-key"};
	const char *vals[] = {"2", "id"};
	pm_schema  *s = make_schema(arena, false, 2, keys, vals);
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	uint8_t    *part;
	size_t		part_len;
	pm_commit_change change;
	pm_commit_request req;
	pm_dv_range ranges[2] = {{"data-a.parquet", 1, 20, 3}, {"data-b.parquet", 21, 10, -1}};
	pm_index_manifest_entry hash_a = {0, NULL, 0, 0, "HASH", "index-a", 40, 10, -1, NULL, NULL, NULL};
	pm_index_manifest_entry dv = {0, NULL, 0, 0, "DELETION_VECTORS", "index-dv", 31, 4, 2,
	ranges, NULL, NULL};
	pm_index_manifest_entry hash_b = {0, NULL, 0, 0, "HASH", "index-b", 44, 11, -1, NULL, NULL, NULL};
	pm_index_manifest_entry missing = {0, NULL, 0, 0, "HASH", "index-zzz", 1, 1, -1, NULL, NULL, NULL};
	pm_index_manifest_entry added[2] = {hash_a, dv};
	pm_index_manifest_entry *st;
	char		mdir[4200];
	int			before;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "user-i", &w, &err), PM_OK);
	write_rows(w, arena, 0, 10, 10);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);
	assert_int_equal(index_state(io, dir, 1, arena, &st), -1);

	assert_int_equal(pm_binary_row_encode_serialized(arena, pm_type_new_row(arena, NULL, 0, false),
													 NULL, &part, &part_len, &err), PM_OK);
	memset(&change, 0, sizeof(change));
	change.partition = part;
	change.partition_len = (int32_t) part_len;
	change.bucket = 1;
	change.total_buckets = 2;
	change.nindex_added = 2;
	change.index_added = added;
	memset(&req, 0, sizeof(req));
	req.commit_user = "user-i";
	req.commit_identifier = 2;
	req.commit_kind = "APPEND";
	req.schema = s;
	req.nchanges = 1;
	req.changes = &change;
	assert_int_equal(pm_table_commit(pm_env_default(), io, dir, &req, arena, &sid, &err), PM_OK);
	assert_int_equal(sid, 2);
	assert_int_equal(index_state(io, dir, 2, arena, &st), 2);
	assert_string_equal(st[0].file_name, "index-a");
	assert_string_equal(st[0].index_type, "HASH");
	assert_int_equal(st[0].bucket, 1);
	assert_int_equal(st[0].kind, 0);
	assert_int_equal(st[0].file_size, 40);
	assert_int_equal(st[0].row_count, 10);
	assert_int_equal(st[0].nranges, -1);
	assert_string_equal(st[1].file_name, "index-dv");
	assert_int_equal(st[1].nranges, 2);
	assert_string_equal(st[1].ranges[0].data_file, "data-a.parquet");
	assert_int_equal(st[1].ranges[0].offset, 1);
	assert_int_equal(st[1].ranges[0].length, 20);
	assert_int_equal(st[1].ranges[0].cardinality, 3);
	assert_string_equal(st[1].ranges[1].data_file, "data-b.parquet");
	assert_int_equal(st[1].ranges[1].cardinality, -1);

	/* a new HASH file of bucket 1 replaces index-a; the DV file stays */
	change.nindex_added = 1;
	change.index_added = &hash_b;
	req.commit_identifier = 3;
	assert_int_equal(pm_table_commit(pm_env_default(), io, dir, &req, arena, &sid, &err), PM_OK);
	assert_int_equal(index_state(io, dir, 3, arena, &st), 2);
	assert_string_equal(st[0].file_name, "index-b");
	assert_string_equal(st[1].file_name, "index-dv");

	/* the same file in bucket 0 is another bucket's: kept beside */
	change.bucket = 0;
	change.index_added = &hash_a;
	req.commit_identifier = 4;
	assert_int_equal(pm_table_commit(pm_env_default(), io, dir, &req, arena, &sid, &err), PM_OK);
	assert_int_equal(index_state(io, dir, 4, arena, &st), 3);

	/* deleting an index file that is not live: conflict, nothing written */
	change.nindex_added = 0;
	change.nindex_deleted = 1;
	change.index_deleted = &missing;
	req.commit_identifier = 5;
	snprintf(mdir, sizeof(mdir), "%s/manifest", dir);
	before = count_files(mdir, "manifest");
	assert_int_equal(pm_table_commit(pm_env_default(), io, dir, &req, arena, &sid, &err),
					 PM_ERR_CONFLICT);
	assert_non_null(strstr(err.message, "Index file deletion conflicts detected"));
	assert_int_equal(count_files(mdir, "manifest"), before);

	/* deleting a live one */
	change.bucket = 1;
	change.index_deleted = &dv;
	assert_int_equal(pm_table_commit(pm_env_default(), io, dir, &req, arena, &sid, &err), PM_OK);
	assert_int_equal(sid, 5);
	assert_int_equal(index_state(io, dir, 5, arena, &st), 2);
	assert_string_equal(st[0].file_name, "index-a");
	assert_int_equal(st[0].bucket, 0);
	assert_string_equal(st[1].file_name, "index-b");
	{
		readback	r = read_back(io, dir);

		assert_int_equal(r.rows, 10);
	}
	pm_arena_destroy(arena);
	drop_dir(dir);
	pm_local_fileio_destroy(io);
}

/* Abort removes every data file written; rolling makes several files. */
static void
test_abort_and_roll(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("append_abort");
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"target-file-size", "parquet.block.size"};
	static const char *vals[] = {"1 kb", "1 kb"};
	pm_schema  *s = make_schema(arena, true, 2, keys, vals);
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	readback	r;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "user-a", &w, &err), PM_OK);
	write_rows(w, arena, 0, 3000, 100);
	assert_true(count_files(dir, ".parquet") > 3);
	pm_table_writer_abort(w);
	assert_int_equal(count_files(dir, ".parquet"), 0);
	assert_int_equal(count_files(dir, "snapshot-"), 0);

	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "user-a", &w, &err), PM_OK);
	write_rows(w, arena, 0, 3000, 100);
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);
	r = read_back(io, dir);
	assert_int_equal(r.rows, 3000);
	assert_true(r.nfiles > 3);
	assert_int_equal(r.id_sum, id_sum(0, 3000));
	pm_arena_destroy(arena);
	drop_dir(dir);
	pm_local_fileio_destroy(io);
}

static void
test_create_refusals(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_error	err;
	static const char *k1[] = {"bucket"};
	static const char *v1[] = {"4"};
	static const char *k2[] = {"merge-engine"};
	static const char *v2[] = {"last-row"};
	static const char *k3[] = {"fields.nope.stats-mode"};
	static const char *v3[] = {"none"};
	static const char *pk[] = {"dt"};
	pm_schema  *s;
	pm_table_writer *w;

	(void) state;
	s = make_schema(arena, false, 1, k1, v1);
	assert_int_equal(pm_table_create(pm_env_default(), io, "/t1", s, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "bucket-key"));
	s = make_schema(arena, false, 1, k2, v2);
	assert_int_equal(pm_table_create(pm_env_default(), io, "/t2", s, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "merge-engine"));
	s = make_schema(arena, false, 1, k3, v3);
	assert_int_equal(pm_table_create(pm_env_default(), io, "/t3", s, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "nope"));
	/* primary key = partition key */
	s = make_schema(arena, true, 0, NULL, NULL);
	s->nprimary_keys = 1;
	s->primary_keys = pk;
	assert_int_equal(pm_table_create(pm_env_default(), io, "/t4", s, &err), PM_ERR_INVALID);
	/* a primary-key table without 'bucket': dynamic buckets, written */
	s = make_schema(arena, false, 0, NULL, NULL);
	s->nprimary_keys = 1;
	s->primary_keys = pk;
	assert_int_equal(pm_table_create(pm_env_default(), io, "/t5", s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, "/t5", "u", &w, &err), PM_OK);
	pm_table_writer_close(w);
	{
		/* ids assigned as Java's Schema.Builder; PK column NOT NULL */
		pm_schema  *back;

		assert_int_equal(pm_schema_load(io, "/t5", 0, arena, &back, &err), PM_OK);
		assert_int_equal(back->row_type->fields[3].id, 3);
		assert_int_equal(back->highest_field_id, 3);
		assert_false(back->row_type->fields[2].type->nullable);
		assert_true(back->row_type->fields[1].type->nullable);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* 300 partitions in one batch: at most 16 files open, every row lands. */
static void
test_many_partitions(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = make_schema(arena, false, 0, NULL, NULL);
	static const char *by_name[] = {"name"};
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	readback	r;

	(void) state;
	s->npartition_keys = 1;
	s->partition_keys = by_name;
	assert_int_equal(pm_table_create(pm_env_default(), io, "/wh/db.db/many", s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, "/wh/db.db/many", "u", &w, &err), PM_OK);
	write_rows(w, arena, 0, 300, 300);
	write_rows(w, arena, 0, 300, 300);	/* the same partitions again: reopened */
	assert_int_equal(pm_table_writer_commit(w, 1, &sid, &err), PM_OK);
	pm_table_writer_close(w);
	r = read_back(io, "/wh/db.db/many");
	assert_int_equal(r.rows, 600);
	assert_int_equal(r.id_sum, 2 * id_sum(0, 300));
	assert_true(r.names_ok);
	assert_int_equal(r.nfiles, 600);	/* each partition's file was closed for the others */
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* Field ids as Java's Schema.Builder + ReassignFieldId give them. */
static void
test_create_field_ids(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_type    *t_int = pm_type_new(arena, PM_TYPE_INT, true);
	pm_field	inner[1] = {{77, "x", t_int, NULL}};
	pm_field	mid[2] = {{77, "a", NULL, NULL}, {77, "b", t_int, NULL}};
	pm_field	cols[3] = {{77, "c0", t_int, NULL}, {77, "r", NULL, NULL}, {77, "c2", NULL, NULL}};
	pm_schema	s;
	pm_schema  *back;
	pm_error	err;
	const pm_type *r,
			   *arr_row;

	(void) state;
	mid[0].type = pm_type_new_row(arena, inner, 1, true);
	cols[1].type = pm_type_new_row(arena, mid, 2, true);
	cols[2].type = pm_type_new_array(arena, pm_type_new_row(arena, inner, 1, true), true);
	memset(&s, 0, sizeof(s));
	s.row_type = pm_type_new_row(arena, cols, 3, false);
	assert_int_equal(pm_table_create(pm_env_default(), io, "/ids", &s, &err), PM_OK);
	assert_int_equal(pm_schema_load(io, "/ids", 0, arena, &back, &err), PM_OK);
	/* c0 0; r 1 { a { x 2 } 3, b 4 }; c2 5 ARRAY<ROW<x 6>> */
	assert_int_equal(back->row_type->fields[0].id, 0);
	assert_int_equal(back->row_type->fields[1].id, 1);
	r = back->row_type->fields[1].type;
	assert_int_equal(r->fields[0].type->fields[0].id, 2);
	assert_int_equal(r->fields[0].id, 3);
	assert_int_equal(r->fields[1].id, 4);
	assert_int_equal(back->row_type->fields[2].id, 5);
	arr_row = back->row_type->fields[2].type->element;
	assert_int_equal(arr_row->fields[0].id, 6);
	assert_int_equal(back->highest_field_id, 6);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* 35 one-row commits: the base manifest list is merged once 30 manifests pile up. */
static void
test_manifest_merge(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char	   *dir = table_dir("append_manifest_merge");
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *s = make_schema(arena, true, 0, NULL, NULL);
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;
	int			most = 0;
	readback	r;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "u", &w, &err), PM_OK);
	for (int c = 0; c < 35; c++)
	{
		pm_snapshot *snap;
		pm_manifest_file_meta *metas;
		int			n;

		write_rows(w, arena, c, 1, 1);
		assert_int_equal(pm_table_writer_commit(w, c + 1, &sid, &err), PM_OK);
		assert_int_equal(pm_snapshot_load(io, dir, sid, arena, &snap, &err), PM_OK);
		assert_int_equal(pm_manifest_list_read(pm_env_default(), io,
											   pm_arena_sprintf(arena, "%s/manifest/%s", dir, snap->base_manifest_list),
											   arena, &metas, &n, &err), PM_OK);
		if (n > most)
			most = n;
		if (sid == 31)
			assert_int_equal(n, 1);	/* 30 manifests merged into one */
	}
	assert_int_equal(most, 29);
	pm_table_writer_close(w);
	r = read_back(io, dir);
	assert_int_equal(r.rows, 35);
	assert_int_equal(r.id_sum, id_sum(0, 35));
	assert_true(r.dt_ok);
	pm_arena_destroy(arena);
	drop_dir(dir);
	pm_local_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_partitioned_local),
		cmocka_unit_test(test_append_external_paths),
		cmocka_unit_test(test_append_unpartitioned_memory),
		cmocka_unit_test(test_append_avro_memory),
		cmocka_unit_test(test_fixed_bucket),
		cmocka_unit_test(test_race_retry),
		cmocka_unit_test(test_delete_conflict),
		cmocka_unit_test(test_index_changes),
		cmocka_unit_test(test_abort_and_roll),
		cmocka_unit_test(test_create_refusals),
		cmocka_unit_test(test_many_partitions),
		cmocka_unit_test(test_create_field_ids),
		cmocka_unit_test(test_manifest_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
