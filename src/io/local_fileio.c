/*-------------------------------------------------------------------------
 * local_fileio.c
 *	  FileIO on the local file system: POSIX calls, io_uring batched reads.
 *
 * Files are opened O_RDONLY | O_CLOEXEC; reads go through pm_fd_pread /
 * pm_fd_read_ranges (uring.c). write_new gives the "create if absent,
 * atomically" that Paimon commits need: the bytes go to a temporary file
 * in the same directory, are fsynced, and are published with link(2),
 * which fails with EEXIST instead of replacing (rename-without-replace).
 * Streaming output (create/append/finish/discard) writes a new file in
 * place: O_CREAT | O_EXCL (PM_ERR_CONFLICT if it exists), full writes,
 * fsync of the file and its directory at finish, unlink at discard.
 *-------------------------------------------------------------------------
 */
#include "io/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

typedef struct local_state
{
	const pm_env *env;
} local_state;

struct pm_file
{
	int			fd;
	char		path[];			/* for error messages */
};

static pm_code
fail_path(pm_error *err, int e, const char *path, const char *what)
{
	pm_code		rc;

	if (e == ENOENT || e == ENOTDIR)
		rc = pm_fail(err, PM_ERR_NOT_FOUND, "could not %s: no such file or directory", what);
	else
		rc = pm_fail_errno(err, e, "could not %s", what);
	pm_error_set_path(err, path);
	return rc;
}

static pm_code
local_open(pm_fileio *io, const char *path, pm_file **out, pm_error *err)
{
	local_state *st = io->state;
	size_t		plen = strlen(path);
	pm_file    *f;
	int			fd;
	struct stat sb;

	*out = NULL;
	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return fail_path(err, errno, path, "open file");
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode))
	{
		close(fd);
		pm_fail(err, PM_ERR_INVALID, "could not open file: is a directory");
		pm_error_set_path(err, path);
		return PM_ERR_INVALID;
	}
	f = pm_alloc(st->env, sizeof(pm_file) + plen + 1);
	if (f == NULL)
	{
		close(fd);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a file");
	}
	f->fd = fd;
	memcpy(f->path, path, plen + 1);
	*out = f;
	return PM_OK;
}

static pm_code
local_size(pm_fileio *io, pm_file *f, uint64_t *size, pm_error *err)
{
	struct stat sb;

	if (fstat(f->fd, &sb) != 0)
		return fail_path(err, errno, f->path, "stat file");
	*size = (uint64_t) sb.st_size;
	return PM_OK;
}

static pm_code
local_pread(pm_fileio *io, pm_file *f, void *buf, size_t len, uint64_t off, pm_error *err)
{
	pm_code		rc = pm_fd_pread(f->fd, buf, len, off, err);

	if (rc != PM_OK)
		pm_error_set_path(err, f->path);
	return rc;
}

static pm_code
local_read_ranges(pm_fileio *io, pm_file *f, pm_read_range *ranges, int nranges,
				  pm_error *err)
{
	pm_code		rc = pm_fd_read_ranges(f->fd, ranges, nranges, err);

	if (rc != PM_OK)
		pm_error_set_path(err, f->path);
	return rc;
}

static void
local_close(pm_fileio *io, pm_file *f)
{
	local_state *st = io->state;

	if (f == NULL)
		return;
	close(f->fd);
	pm_free(st->env, f);
}

static pm_code
local_list(pm_fileio *io, const char *dir, pm_arena *arena, char ***names, int *count,
		   pm_error *err)
{
	DIR		   *d;
	struct dirent *de;
	char	  **arr = NULL;
	int			n = 0;
	int			cap = 0;

	*names = NULL;
	*count = 0;
	d = opendir(dir);
	if (d == NULL)
		return fail_path(err, errno, dir, "open directory");
	for (;;)
	{
		errno = 0;
		de = readdir(d);
		if (de == NULL)
			break;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap)
		{
			int			ncap = cap == 0 ? 16 : cap * 2;
			char	  **na = pm_arena_realloc(arena, arr, sizeof(char *) * (size_t) cap,
											  sizeof(char *) * (size_t) ncap);

			if (na == NULL)
			{
				closedir(d);
				return pm_fail(err, PM_ERR_NOMEM, "out of memory listing a directory");
			}
			arr = na;
			cap = ncap;
		}
		arr[n] = pm_arena_strdup(arena, de->d_name);
		if (arr[n] == NULL)
		{
			closedir(d);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory listing a directory");
		}
		n++;
	}
	if (errno != 0)
	{
		int			e = errno;

		closedir(d);
		return fail_path(err, e, dir, "read directory");
	}
	closedir(d);
	*names = arr;
	*count = n;
	return PM_OK;
}

static bool
local_exists(pm_fileio *io, const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

static bool
local_is_dir(pm_fileio *io, const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static pm_code
write_all(int fd, const uint8_t *p, size_t len)
{
	while (len > 0)
	{
		ssize_t		n = write(fd, p, len > ((size_t) 1 << 30) ? ((size_t) 1 << 30) : len);

		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			return PM_ERR_IO;
		}
		if (n == 0)
		{
			errno = ENOSPC;		/* no progress: treat as a full disk */
			return PM_ERR_IO;
		}
		p += n;
		len -= (size_t) n;
	}
	return PM_OK;
}

static void
fsync_parent(const char *path)
{
	char		dir[4096];
	const char *slash = strrchr(path, '/');
	size_t		dlen;
	int			fd;

	if (slash == NULL)
		strcpy(dir, ".");
	else
	{
		dlen = (size_t) (slash - path);
		if (dlen == 0)
			dlen = 1;
		if (dlen >= sizeof(dir))
			return;
		memcpy(dir, path, dlen);
		dir[dlen] = '\0';
	}
	fd = open(dir, O_RDONLY | O_CLOEXEC | O_DIRECTORY);
	if (fd >= 0)
	{
		(void) fsync(fd);
		close(fd);
	}
}

static pm_code
local_write_new(pm_fileio *io, const char *path, const void *data, size_t len,
				pm_error *err)
{
	char		tmp[4096];
	int			fd = -1;
	int			e;
	struct timespec ts;

	/* a temporary name in the same directory, unique to this attempt */
	for (int attempt = 0; attempt < 100; attempt++)
	{
		clock_gettime(CLOCK_REALTIME, &ts);
		if (snprintf(tmp, sizeof(tmp), "%s.%ld.%ld.%d.tmp", path, (long) getpid(),
					 (long) ts.tv_nsec, attempt) >= (int) sizeof(tmp))
		{
			pm_fail(err, PM_ERR_INVALID, "path too long");
			pm_error_set_path(err, path);
			return PM_ERR_INVALID;
		}
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return fail_path(err, errno, path, "create temporary file");
	if (write_all(fd, data, len) != PM_OK || fsync(fd) != 0)
	{
		e = errno;
		close(fd);
		unlink(tmp);
		return fail_path(err, e, path, "write file");
	}
	if (close(fd) != 0)
	{
		e = errno;
		unlink(tmp);
		return fail_path(err, e, path, "write file");
	}
	/* publish: link() never replaces an existing file */
	if (link(tmp, path) != 0)
	{
		e = errno;
		unlink(tmp);
		if (e == EEXIST)
		{
			pm_fail(err, PM_ERR_CONFLICT, "file already exists");
			pm_error_set_path(err, path);
			return PM_ERR_CONFLICT;
		}
		return fail_path(err, e, path, "create file");
	}
	unlink(tmp);
	fsync_parent(path);
	return PM_OK;
}

struct pm_out_file
{
	int			fd;
	char		path[];
};

static pm_code
local_create(pm_fileio *io, const char *path, pm_out_file **out, pm_error *err)
{
	local_state *st = io->state;
	size_t		plen = strlen(path);
	pm_out_file *f;
	int			fd;

	*out = NULL;
	f = pm_alloc(st->env, sizeof(pm_out_file) + plen + 1);
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating a file");
	do
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
	{
		int			e = errno;

		pm_free(st->env, f);
		if (e == EEXIST)
		{
			pm_fail(err, PM_ERR_CONFLICT, "file already exists");
			pm_error_set_path(err, path);
			return PM_ERR_CONFLICT;
		}
		return fail_path(err, e, path, "create file");
	}
	f->fd = fd;
	memcpy(f->path, path, plen + 1);
	*out = f;
	return PM_OK;
}

static pm_code
local_append(pm_fileio *io, pm_out_file *f, const void *data, size_t len, pm_error *err)
{
	if (write_all(f->fd, data, len) != PM_OK)
		return fail_path(err, errno, f->path, "write file");
	return PM_OK;
}

static pm_code
local_finish(pm_fileio *io, pm_out_file *f, pm_error *err)
{
	local_state *st = io->state;
	int			e;

	if (fsync(f->fd) != 0)
		return fail_path(err, errno, f->path, "fsync file");
	e = close(f->fd) == 0 ? 0 : errno;
	f->fd = -1;
	if (e != 0)
		return fail_path(err, e, f->path, "close file");
	fsync_parent(f->path);
	pm_free(st->env, f);
	return PM_OK;
}

static void
local_discard(pm_fileio *io, pm_out_file *f)
{
	local_state *st = io->state;

	if (f->fd >= 0)
		close(f->fd);
	unlink(f->path);
	pm_free(st->env, f);
}

static pm_code
local_remove(pm_fileio *io, const char *path, pm_error *err)
{
	if (unlink(path) == 0)
		return PM_OK;
	if (errno == EISDIR || errno == EPERM)
	{
		if (rmdir(path) == 0)
			return PM_OK;
	}
	return fail_path(err, errno, path, "remove file");
}

static pm_code
local_mkdirs(pm_fileio *io, const char *path, pm_error *err)
{
	char		buf[4096];
	size_t		len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
	{
		pm_fail(err, PM_ERR_INVALID, "invalid directory path");
		pm_error_set_path(err, path);
		return PM_ERR_INVALID;
	}
	memcpy(buf, path, len + 1);
	for (size_t i = 1; i <= len; i++)
	{
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return fail_path(err, errno, path, "create directory");
		if (i < len)
			buf[i] = '/';
	}
	if (!local_is_dir(io, path))
	{
		pm_fail(err, PM_ERR_IO, "could not create directory: a file is in the way");
		pm_error_set_path(err, path);
		return PM_ERR_IO;
	}
	return PM_OK;
}

pm_fileio *
pm_local_fileio_create(const pm_env *env)
{
	pm_fileio  *io = pm_alloc(env, sizeof(pm_fileio) + sizeof(local_state));
	local_state *st;

	if (io == NULL)
		return NULL;
	memset(io, 0, sizeof(pm_fileio));
	st = (local_state *) (io + 1);
	st->env = env;
	io->open = local_open;
	io->size = local_size;
	io->pread = local_pread;
	io->read_ranges = local_read_ranges;
	io->close = local_close;
	io->list = local_list;
	io->exists = local_exists;
	io->is_dir = local_is_dir;
	io->write_new = local_write_new;
	io->remove = local_remove;
	io->mkdirs = local_mkdirs;
	io->create = local_create;
	io->append = local_append;
	io->finish = local_finish;
	io->discard = local_discard;
	io->state = st;
	return io;
}

void
pm_local_fileio_destroy(pm_fileio *io)
{
	if (io == NULL)
		return;
	pm_free(((local_state *) io->state)->env, io);
}
