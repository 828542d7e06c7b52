/*-------------------------------------------------------------------------
 * test_table_corrupt.c
 *	  The table layer on damaged tables: every metadata file of a corpus
 *	  table truncated and bit-flipped, and every read failing in turn.
 *	  Open + plan + read must return an error with a message (or succeed),
 *	  never crash, hang or leak (ASan checks at exit).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileio.h"
#include "io/memory_fileio.h"
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_damaged_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
