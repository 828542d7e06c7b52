/*-------------------------------------------------------------------------
 * test_table_corrupt.c
 *	  The table layer on damaged tables: every metadata file of a corpus
 *	  table truncated and bit-flipped, and every read failing in turn.
 *	  Open + plan + read must return an error with a message (or succeed),
 *	  never crash, hang or leak (ASan checks at exit). Also reads canceled
 *	  at every interrupt poll in turn (PM_ERR_CANCELED, everything closed),
 *	  and reads abandoned in the middle as an ERROR abandons them (the
 *	  env's release frees what the allocator does not own).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "table/table.h"

typedef struct file_copy
{
	char		path[1024];
	uint8_t    *data;
	size_t		len;
} file_copy;

static int
load_tree(const char *local, const char *prefix, file_copy *files, int n, int max)
{
	DIR		   *d = opendir(local);
	struct dirent *de;

	if (d == NULL)
		return n;
	while ((de = readdir(d)) != NULL && n < max)
	{
		char		lp[4096];
		char		mp[1024];
		FILE	   *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(lp, sizeof(lp), "%s/%s", local, de->d_name);
		snprintf(mp, sizeof(mp), "%s/%s", prefix, de->d_name);
		if (de->d_type == DT_DIR)
		{
			n = load_tree(lp, mp, files, n, max);
			continue;
		}
		f = fopen(lp, "rb");
		if (f == NULL)
			continue;
		files[n].data = malloc(1 << 20);
		files[n].len = fread(files[n].data, 1, 1 << 20, f);
		snprintf(files[n].path, sizeof(files[n].path), "%s", mp);
		fclose(f);
		n++;
	}
	closedir(d);
	return n;
}

/* open + plan + read everything; PM_OK or the first error */
static pm_code
read_all(pm_fileio *io, pm_error *err)
{
	pm_table   *t = NULL;
	pm_scan    *scan = NULL;
	pm_scan_reader *r = NULL;
	pm_batch   *b;
	pm_code		rc;
	int			fields[64];
	int			n;

	pm_error_clear(err);
	rc = pm_table_open(pm_env_default(), io, "/t", NULL, &t, err);
	if (rc != PM_OK)
		return rc;
	n = pm_table_schema(t)->row_type->nfields;
	for (int i = 0; i < n && i < 64; i++)
		fields[i] = i;
	rc = pm_table_scan_plan(t, NULL, &scan, err);
	if (rc == PM_OK)
		rc = pm_scan_reader_open(scan, fields, n < 64 ? n : 64, &r, err);
	while (rc == PM_OK)
	{
		rc = pm_scan_reader_next(r, &b, err);
		if (b == NULL)
			break;
	}
	pm_scan_reader_close(r);
	pm_scan_free(scan);
	pm_table_close(t);
	return rc;
}

static pm_fileio *
build(file_copy *files, int n, int victim, const uint8_t *data, size_t len)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_error	err;

	for (int i = 0; i < n; i++)
		if (i == victim)
			assert_int_equal(pm_memory_fileio_add(io, files[i].path, data, len, &err), PM_OK);
		else
			assert_int_equal(pm_memory_fileio_add(io, files[i].path, files[i].data, files[i].len,
												  &err), PM_OK);
	return io;
}

static void
check_table(const char *rel)
{
	file_copy  *files = calloc(512, sizeof(file_copy));
	int			n = load_tree(unit_corpus_path(rel), "/t", files, 0, 512);
	pm_error	err;
	pm_fileio  *io;
	int			errors = 0,
				runs = 0;

	/* intact */
	io = build(files, n, -1, NULL, 0);
	if (read_all(io, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	pm_memory_fileio_destroy(io);

	for (int v = 0; v < n; v++)
	{
		size_t		len = files[v].len;
		uint8_t    *copy;

		if (strstr(files[v].path, "/schema/") == NULL && strstr(files[v].path, "/snapshot/") == NULL &&
			strstr(files[v].path, "/manifest/") == NULL)
			continue;
		copy = malloc(len + 1);
		for (int m = 0; m < 12; m++)
		{
			size_t		newlen = len;
			pm_code		rc;

			memcpy(copy, files[v].data, len);
			if (m < 4)
				newlen = len * (size_t) m / 4;	/* truncations */
			else if (len > 0)
			{
				size_t		pos = (len * (size_t) (m - 4)) / 8 + (size_t) m;

				copy[pos % len] ^= (uint8_t) (0x5a + m);	/* flips */
			}
			io = build(files, n, v, copy, newlen);
			rc = read_all(io, &err);
			if (rc != PM_OK)
			{
				errors++;
				assert_true(err.message[0] != '\0');
			}
			runs++;
			pm_memory_fileio_destroy(io);
		}
		free(copy);
	}
	/* every read failing in turn */
	for (int k = 1; k < 400; k++)
	{
		pm_code		rc;

		io = build(files, n, -1, NULL, 0);
		pm_memory_fileio_fail_read(io, k, PM_ERR_IO);
		rc = read_all(io, &err);
		assert_int_equal(pm_memory_fileio_open_files(io), 0);
		pm_memory_fileio_destroy(io);
		if (rc == PM_OK)
			break;				/* past the last read */
		assert_int_equal(rc, PM_ERR_IO);
		runs++;
	}
	print_message("%s: %d damaged runs, %d errors\n", rel, runs, errors);
	for (int i = 0; i < n; i++)
		free(files[i].data);
	free(files);
}

static void
test_damaged_tables(void **state)
{
	(void) state;
	unit_require_corpus();
	check_table("tables/parquet/append_10.db/append_10");
	check_table("tables/avro/append_multiple.db/append_multiple");
	check_table("tables/parquet/append_table_with_alter_table.db/append_table_with_alter_table");
	check_table("tables/orc/multi_partition_append_table.db/multi_partition_append_table");
	check_table("tables/parquet/append_with_rangebitmap.db/append_with_rangebitmap");
}

/* ---- interrupts and abandoned reads -------------------------------------- */

/*
 * A test env: its interrupt hook says "stop" from the cancel_at-th poll on
 * (0: never), and it frees every allocation at once (test_env_free_all), as
 * a memory context does when an ERROR abandons a read.
 */
typedef struct chunk
{
	struct chunk *prev;
	struct chunk *next;			/* 16 bytes: keeps the payload 16-aligned */
} chunk;

typedef struct test_env
{
	pm_env		env;
	pm_resource resources;
	chunk		chunks;
	int			polls;
	int			cancel_at;
} test_env;

static void *
region_alloc(void *opaque, size_t size)
{
	test_env   *te = opaque;
	chunk	   *c = malloc(sizeof(chunk) + (size ? size : 1));

	if (c == NULL)
		return NULL;
	c->prev = &te->chunks;
	c->next = te->chunks.next;
	te->chunks.next->prev = c;
	te->chunks.next = c;
	return c + 1;
}

static void
region_free(void *opaque, void *ptr)
{
	chunk	   *c = (chunk *) ptr - 1;

	(void) opaque;
	c->prev->next = c->next;
	c->next->prev = c->prev;
	free(c);
}

static bool
poll_hook(void *opaque)
{
	test_env   *te = opaque;

	te->polls++;
	return te->cancel_at > 0 && te->polls >= te->cancel_at;
}

static void
test_env_init(test_env *te, int cancel_at)
{
	memset(te, 0, sizeof(*te));
	te->env.alloc = region_alloc;
	te->env.free = region_free;
	te->env.opaque = te;
	te->env.interrupted = poll_hook;
	pm_env_resources_init(&te->resources);
	te->env.resources = &te->resources;
	te->chunks.prev = te->chunks.next = &te->chunks;
	te->cancel_at = cancel_at;
}

/* Release what the core abandoned, then free all memory; chunks left over. */
static int
test_env_free_all(test_env *te)
{
	int			left = 0;

	pm_env_release_all(&te->env);
	while (te->chunks.next != &te->chunks)
	{
		region_free(te, te->chunks.next + 1);
		left++;
	}
	return left;
}

/* Open, plan and read the whole table through pm_table_read (merging). */
static pm_code
read_table(const pm_env *env, pm_fileio *io, pm_error *err)
{
	pm_table   *t = NULL;
	pm_scan    *scan = NULL;
	pm_table_read *r = NULL;
	pm_batch   *b;
	pm_code		rc;
	int			fields[64];
	int			n;

	pm_error_clear(err);
	rc = pm_table_open(env, io, "/t", NULL, &t, err);
	if (rc != PM_OK)
		return rc;
	n = pm_table_schema(t)->row_type->nfields;
	for (int i = 0; i < n && i < 64; i++)
		fields[i] = i;
	rc = pm_table_scan_plan(t, NULL, &scan, err);
	if (rc == PM_OK)
		rc = pm_table_read_open(scan, fields, n < 64 ? n : 64, &r, err);
	while (rc == PM_OK)
	{
		rc = pm_table_read_next(r, &b, err);
		if (b == NULL)
			break;
	}
	pm_table_read_close(r);
	pm_scan_free(scan);
	pm_table_close(t);
	return rc;
}

/* Cancel at every poll in turn: PM_ERR_CANCELED, nothing left open. */
static void
check_canceled(const char *rel)
{
	file_copy  *files = calloc(512, sizeof(file_copy));
	int			n = load_tree(unit_corpus_path(rel), "/t", files, 0, 512);
	int			cancels = 0;

	for (int k = 1;; k++)
	{
		test_env	te;
		pm_fileio  *io = build(files, n, -1, NULL, 0);
		pm_error	err;
		pm_code		rc;

		test_env_init(&te, k);
		rc = read_table(&te.env, io, &err);
		assert_int_equal(pm_memory_fileio_open_files(io), 0);
		assert_int_equal(pm_env_tracked_count(&te.env), 0);
		assert_int_equal(test_env_free_all(&te), 0);	/* closed, not abandoned */
		pm_memory_fileio_destroy(io);
		if (rc == PM_OK)
		{
			assert_true(te.polls < k);	/* past the last poll */
			break;
		}
		if (rc != PM_ERR_CANCELED)
			fail_msg("%s, canceled at poll %d: %s %s", rel, k, pm_code_name(rc), err.message);
		assert_string_equal(err.message, "canceled");
		cancels++;
	}
	print_message("%s: canceled at %d polls\n", rel, cancels);
	/* the manifest and at least one batch of every data file are polls */
	assert_true(cancels >= 3);
	for (int i = 0; i < n; i++)
		free(files[i].data);
	free(files);
}

static void
test_canceled_reads(void **state)
{
	(void) state;
	unit_require_corpus();
	check_canceled("tables/parquet/append_10.db/append_10");
	check_canceled("tables/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv");
	check_canceled("tables/parquet/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor");
	check_canceled("tables/parquet/pk_btree_e2e.db/pk_btree_e2e");
}

/*
 * Read up to a batch of a file with a deletion vector, then abandon the
 * read as an ERROR would: the env
 * releases the deletion vectors (CRoaring's malloc; ASan reports them at
 * exit otherwise), the "memory context" everything else.
 */
static void
check_abandoned(const char *rel)
{
	file_copy  *files = calloc(512, sizeof(file_copy));
	int			n = load_tree(unit_corpus_path(rel), "/t", files, 0, 512);
	test_env	te;
	pm_fileio  *io;
	pm_table   *t;
	pm_scan    *scan;
	pm_table_read *r;
	pm_batch   *b;
	pm_error	err;
	int			fields[] = {0};

	test_env_init(&te, 0);
	io = pm_memory_fileio_create(&te.env);
	for (int i = 0; i < n; i++)
		assert_int_equal(pm_memory_fileio_add(io, files[i].path, files[i].data, files[i].len,
											  &err), PM_OK);
	assert_int_equal(pm_table_open(&te.env, io, "/t", NULL, &t, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(t, NULL, &scan, &err), PM_OK);
	assert_int_equal(pm_table_read_open(scan, fields, 1, &r, &err), PM_OK);
	do
		assert_int_equal(pm_table_read_next(r, &b, &err), PM_OK);
	while (b != NULL && pm_env_tracked_count(&te.env) == 0);
	assert_non_null(b);			/* in the middle of a file with a deletion vector */
	assert_true(pm_memory_fileio_open_files(io) > 0);
	assert_true(test_env_free_all(&te) > 0);
	for (int i = 0; i < n; i++)
		free(files[i].data);
	free(files);
}

static void
test_abandoned_reads(void **state)
{
	(void) state;
	unit_require_corpus();
	check_abandoned("tables/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv");
	check_abandoned("tables/parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv");
	check_abandoned("tables/avro/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_damaged_tables),
		cmocka_unit_test(test_canceled_reads),
		cmocka_unit_test(test_abandoned_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
