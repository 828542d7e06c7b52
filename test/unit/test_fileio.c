/*-------------------------------------------------------------------------
 * test_fileio.c
 *	  Unit tests of src/io/: the local FileIO (with and without io_uring),
 *	  the wrappers, and the in-memory FileIO with failure injection.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include "io/fileio.h"
#include "io/memory_fileio.h"

static char tmpdir[256];

static int
setup_dir(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pm_test_fileio_XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	return 0;
}

static int
teardown_dir(void **state)
{
	char		cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static uint8_t *
pattern(size_t n)
{
	uint8_t    *p = malloc(n);

	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t) (i * 31 + (i >> 8));
	return p;
}

static void
check_local(bool use_uring)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_error	err;
	char		path[512];
	size_t		n = 1 << 20;
	uint8_t    *data = pattern(n);
	pm_file    *f;
	uint64_t	size;
	uint8_t    *all;
	size_t		all_len;
	pm_read_range ranges[150];
	uint8_t    *bufs[150];
	char	  **names;
	int			count;

	pm_uring_set_enabled(use_uring);
	if (!use_uring)
		assert_false(pm_uring_available());
	print_message("io_uring available: %d\n", pm_uring_available());

	snprintf(path, sizeof(path), "%s/sub/dir", tmpdir);
	assert_int_equal(io->mkdirs(io, path, &err), PM_OK);
	assert_true(io->is_dir(io, path));
	assert_int_equal(io->mkdirs(io, path, &err), PM_OK);

	snprintf(path, sizeof(path), "%s/sub/dir/data-%d.bin", tmpdir, (int) use_uring);
	assert_int_equal(io->write_new(io, path, data, n, &err), PM_OK);
	assert_true(io->exists(io, path));
	assert_false(io->is_dir(io, path));
	/* a second write_new conflicts and leaves the file alone */
	pm_error_clear(&err);
	assert_int_equal(io->write_new(io, path, "x", 1, &err), PM_ERR_CONFLICT);
	assert_string_equal(err.path, path);

	assert_int_equal(pm_file_open(io, path, &f, &err), PM_OK);
	assert_int_equal(pm_file_size(io, f, &size, &err), PM_OK);
	assert_int_equal(size, n);

	/* many ranges: more than one ring's worth, one of them empty, one large */
	for (int i = 0; i < 150; i++)
	{
		ranges[i].offset = (uint64_t) i * 6000 + (uint64_t) (i % 7);
		ranges[i].length = (i == 5) ? 0 : (i == 149 ? n - ranges[i].offset : 1000 + (size_t) i);
		bufs[i] = malloc(ranges[i].length + 1);
		ranges[i].buf = bufs[i];
	}
	assert_int_equal(pm_file_read_ranges(io, f, ranges, 150, &err), PM_OK);
	for (int i = 0; i < 150; i++)
	{
		if (ranges[i].length > 0)
			assert_memory_equal(bufs[i], data + ranges[i].offset, ranges[i].length);
	}

	/* a range past the end: truncated, with the path */
	ranges[3].offset = n - 10;
	ranges[3].length = 20;
	pm_error_clear(&err);
	assert_int_equal(pm_file_read_ranges(io, f, ranges, 150, &err), PM_ERR_CORRUPT);
	assert_string_equal(err.path, path);
	assert_non_null(strstr(err.message, "truncated"));
	for (int i = 0; i < 150; i++)
		free(bufs[i]);

	pm_error_clear(&err);
	assert_int_equal(pm_file_pread(io, f, data, 100, n - 50, &err), PM_ERR_CORRUPT);
	assert_string_equal(err.path, path);
	pm_file_close(io, f);

	assert_int_equal(pm_fileio_read_all(io, path, a, n, &all, &all_len, &err), PM_OK);
	assert_int_equal(all_len, n);
	assert_int_equal(all[n], 0);
	assert_int_equal(pm_fileio_read_all(io, path, a, n - 1, &all, &all_len, &err),
					 PM_ERR_CORRUPT);
	assert_string_equal(err.path, path);
	{
		uint8_t    *ref = pattern(n);

		assert_int_equal(pm_fileio_read_all(io, path, a, n, &all, &all_len, &err), PM_OK);
		assert_memory_equal(all, ref, n);
		free(ref);
	}

	/* listing */
	snprintf(path, sizeof(path), "%s/sub/dir", tmpdir);
	assert_int_equal(io->list(io, path, a, &names, &count, &err), PM_OK);
	assert_int_equal(count, 1);
	assert_string_equal(names[0], use_uring ? "data-1.bin" : "data-0.bin");

	/* missing things */
	snprintf(path, sizeof(path), "%s/nope", tmpdir);
	pm_error_clear(&err);
	assert_int_equal(pm_file_open(io, path, &f, &err), PM_ERR_NOT_FOUND);
	assert_string_equal(err.path, path);
	assert_int_equal(io->list(io, path, a, &names, &count, &err), PM_ERR_NOT_FOUND);
	assert_false(io->exists(io, path));
	assert_int_equal(io->remove(io, path, &err), PM_ERR_NOT_FOUND);

	snprintf(path, sizeof(path), "%s/sub/dir/data-%d.bin", tmpdir, (int) use_uring);
	assert_int_equal(io->remove(io, path, &err), PM_OK);
	assert_false(io->exists(io, path));

	free(data);
	pm_arena_destroy(a);
	pm_local_fileio_destroy(io);
	pm_uring_set_enabled(true);
}

static void
test_local_uring(void **state)
{
	check_local(true);
}

static void
test_local_pread(void **state)
{
	check_local(false);
}

static void
test_fd_pread(void **state)
{
	char		path[512];
	FILE	   *fp;
	int			fd;
	pm_error	err;
	char		buf[16];
	pm_read_range r[2];
	char		b1[4],
				b2[4];

	snprintf(path, sizeof(path), "%s/small", tmpdir);
	fp = fopen(path, "wb");
	fputs("0123456789", fp);
	fclose(fp);
	fd = open(path, 0);
	assert_true(fd >= 0);
	assert_int_equal(pm_fd_pread(fd, buf, 4, 3, &err), PM_OK);
	assert_memory_equal(buf, "3456", 4);
	assert_int_equal(pm_fd_pread(fd, buf, 8, 3, &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_fd_pread(fd, buf, 8, UINT64_MAX - 2, &err), PM_ERR_CORRUPT);
	r[0] = (pm_read_range) {1, 3, b1};
	r[1] = (pm_read_range) {7, 3, b2};
	assert_int_equal(pm_fd_read_ranges(fd, r, 2, &err), PM_OK);
	assert_memory_equal(b1, "123", 3);
	assert_memory_equal(b2, "789", 3);
	r[1].offset = 8;
	assert_int_equal(pm_fd_read_ranges(fd, r, 2, &err), PM_ERR_CORRUPT);
	close(fd);
	/* a bad descriptor is an I/O error with errno */
	assert_int_equal(pm_fd_pread(-1, buf, 4, 0, &err), PM_ERR_IO);
	assert_true(err.sys_errno != 0);
	r[1].offset = 7;
	assert_int_equal(pm_fd_read_ranges(-1, r, 2, &err), PM_ERR_IO);
}

static void
test_memory(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_error	err;
	pm_file    *f;
	char		buf[8];
	char	  **names;
	int			count;
	uint8_t    *all;
	size_t		len;
	pm_read_range r[2] = {{0, 2, buf}, {3, 2, buf + 2}};

	assert_int_equal(pm_memory_fileio_add(io, "/t/a/x.txt", "hello", 5, &err), PM_OK);
	assert_int_equal(pm_memory_fileio_add(io, "/t/a/sub/y", "world", 5, &err), PM_OK);
	assert_int_equal(io->mkdirs(io, "/t/empty", &err), PM_OK);
	assert_true(io->is_dir(io, "/t/a"));
	assert_true(io->is_dir(io, "/t/empty"));
	assert_true(io->exists(io, "/t/a/x.txt"));
	assert_false(io->exists(io, "/t/a/x"));

	assert_int_equal(io->list(io, "/t/a", a, &names, &count, &err), PM_OK);
	assert_int_equal(count, 2);
	assert_true((strcmp(names[0], "x.txt") == 0 && strcmp(names[1], "sub") == 0) ||
				(strcmp(names[1], "x.txt") == 0 && strcmp(names[0], "sub") == 0));
	assert_int_equal(io->list(io, "/t/empty", a, &names, &count, &err), PM_OK);
	assert_int_equal(count, 0);
	assert_int_equal(io->list(io, "/t/none", a, &names, &count, &err), PM_ERR_NOT_FOUND);

	assert_int_equal(pm_file_open(io, "/t/a/x.txt", &f, &err), PM_OK);
	assert_int_equal(pm_memory_fileio_open_files(io), 1);
	assert_int_equal(pm_file_pread(io, f, buf, 3, 1, &err), PM_OK);
	assert_memory_equal(buf, "ell", 3);
	assert_int_equal(pm_file_read_ranges(io, f, r, 2, &err), PM_OK);
	assert_memory_equal(buf, "helo", 4);

	/* fail the 2nd read from now */
	pm_memory_fileio_fail_read(io, 2, PM_ERR_IO);
	assert_int_equal(pm_file_pread(io, f, buf, 1, 0, &err), PM_OK);
	pm_error_clear(&err);
	assert_int_equal(pm_file_pread(io, f, buf, 1, 0, &err), PM_ERR_IO);
	assert_string_equal(err.path, "/t/a/x.txt");
	assert_int_equal(err.sys_errno, 5);
	assert_int_equal(pm_file_pread(io, f, buf, 1, 0, &err), PM_OK);
	assert_int_equal(pm_file_pread(io, f, buf, 2, 4, &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_memory_fileio_read_count(io), 6);
	pm_file_close(io, f);
	assert_int_equal(pm_memory_fileio_open_files(io), 0);

	pm_memory_fileio_fail_open(io, "/t/a/x.txt", PM_ERR_IO);
	assert_int_equal(pm_file_open(io, "/t/a/x.txt", &f, &err), PM_ERR_IO);
	pm_memory_fileio_fail_open(io, NULL, PM_OK);

	assert_int_equal(pm_fileio_read_all(io, "/t/a/x.txt", a, 100, &all, &len, &err), PM_OK);
	assert_int_equal(len, 5);
	assert_string_equal((char *) all, "hello");

	assert_int_equal(io->write_new(io, "/t/a/x.txt", "z", 1, &err), PM_ERR_CONFLICT);
	assert_int_equal(io->write_new(io, "/t/b", "z", 1, &err), PM_OK);
	assert_int_equal(io->remove(io, "/t/b", &err), PM_OK);
	assert_false(io->exists(io, "/t/b"));
	pm_error_clear(&err);
	assert_int_equal(pm_file_open(io, "/t/b", &f, &err), PM_ERR_NOT_FOUND);
	assert_string_equal(err.path, "/t/b");

	pm_arena_destroy(a);
	pm_memory_fileio_destroy(io);
}

/* create/append/finish/discard on any FileIO; dir is an existing directory */
static void
check_output(pm_fileio *io, const char *dir)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_error	err;
	char		path[512];
	char		gone[512];
	pm_out_file *f;
	pm_out_file *g;
	size_t		n = 3 << 20;
	uint8_t    *data = pattern(n);
	uint8_t    *all;
	size_t		len;

	snprintf(path, sizeof(path), "%s/out.bin", dir);
	snprintf(gone, sizeof(gone), "%s/gone.bin", dir);
	assert_int_equal(pm_out_file_create(io, path, &f, &err), PM_OK);
	/* a second create of the same name conflicts, while open and after */
	pm_error_clear(&err);
	assert_int_equal(pm_out_file_create(io, path, &g, &err), PM_ERR_CONFLICT);
	assert_null(g);
	assert_string_equal(err.path, path);
	assert_int_equal(pm_out_file_append(io, f, data, 10, &err), PM_OK);
	assert_int_equal(pm_out_file_append(io, f, data + 10, 0, &err), PM_OK);
	assert_int_equal(pm_out_file_append(io, f, data + 10, n - 10, &err), PM_OK);
	assert_int_equal(pm_out_file_finish(io, f, &err), PM_OK);
	assert_int_equal(pm_out_file_create(io, path, &g, &err), PM_ERR_CONFLICT);
	assert_int_equal(pm_fileio_read_all(io, path, a, n, &all, &len, &err), PM_OK);
	assert_int_equal(len, n);
	assert_memory_equal(all, data, n);

	/* discard leaves nothing, and the name can be created again */
	assert_int_equal(pm_out_file_create(io, gone, &f, &err), PM_OK);
	assert_int_equal(pm_out_file_append(io, f, data, 100, &err), PM_OK);
	pm_out_file_discard(io, f);
	assert_false(io->exists(io, gone));
	assert_int_equal(pm_out_file_create(io, gone, &f, &err), PM_OK);
	pm_out_file_discard(io, f);
	assert_false(io->exists(io, gone));
	free(data);
	pm_arena_destroy(a);
}

static void
test_local_output(void **state)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_error	err;
	pm_out_file *f;
	char		path[512];

	check_output(io, tmpdir);
	/* the local FS has no directory-less files: creating below a missing dir fails */
	snprintf(path, sizeof(path), "%s/none/x", tmpdir);
	assert_int_equal(pm_out_file_create(io, path, &f, &err), PM_ERR_NOT_FOUND);
	/* the mode is 0644 (under the usual umask 022) */
	{
		struct stat sb;

		snprintf(path, sizeof(path), "%s/out.bin", tmpdir);
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(sb.st_mode & 0777, 0644 & ~umask(022));
	}
	pm_local_fileio_destroy(io);
}

static void
test_memory_output(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_error	err;
	pm_out_file *f;

	check_output(io, "/m");
	assert_int_equal(pm_memory_fileio_open_files(io), 0);

	/* an injected append failure, then discard: no file */
	assert_int_equal(pm_out_file_create(io, "/m/f1", &f, &err), PM_OK);
	assert_int_equal(pm_memory_fileio_open_files(io), 1);
	pm_memory_fileio_fail_write(io, 2, PM_ERR_IO);
	assert_int_equal(pm_out_file_append(io, f, "ab", 2, &err), PM_OK);
	pm_error_clear(&err);
	assert_int_equal(pm_out_file_append(io, f, "cd", 2, &err), PM_ERR_IO);
	assert_int_equal(err.sys_errno, 5);
	assert_string_equal(err.path, "/m/f1");
	pm_out_file_discard(io, f);
	assert_false(io->exists(io, "/m/f1"));

	/* a failed finish, then discard (the contract): no file */
	assert_int_equal(pm_out_file_create(io, "/m/f2", &f, &err), PM_OK);
	assert_int_equal(pm_out_file_append(io, f, "ab", 2, &err), PM_OK);
	pm_memory_fileio_fail_write(io, 1, PM_ERR_IO);
	assert_int_equal(pm_out_file_finish(io, f, &err), PM_ERR_IO);
	pm_out_file_discard(io, f);
	assert_false(io->exists(io, "/m/f2"));
	assert_int_equal(pm_memory_fileio_open_files(io), 0);
	pm_memory_fileio_destroy(io);
}

/* pm_fileio_remove_quietly: removes, and ignores a missing file and a NULL path */
static void
test_remove_quietly(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_error	err;

	(void) state;
	assert_int_equal(pm_memory_fileio_add(io, "/q/a", "x", 1, &err), PM_OK);
	pm_fileio_remove_quietly(io, "/q/a");
	assert_false(io->exists(io, "/q/a"));
	pm_fileio_remove_quietly(io, "/q/a");	/* gone already */
	pm_fileio_remove_quietly(io, "/q/never");
	pm_fileio_remove_quietly(io, NULL);
	assert_false(io->exists(io, "/q/never"));
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local_uring),
		cmocka_unit_test(test_local_pread),
		cmocka_unit_test(test_fd_pread),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_local_output),
		cmocka_unit_test(test_memory_output),
		cmocka_unit_test(test_remove_quietly),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
