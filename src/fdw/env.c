/*-------------------------------------------------------------------------
 * env.c
 *	  The core's environment inside a backend: memory contexts, VFDs and
 *	  query cancel.
 *
 * Allocation returns NULL on out-of-memory (MCXT_ALLOC_NO_OOM) so the core
 * reports PM_ERR_NOMEM instead of being longjmp'd over. Files are opened
 * with PathNameOpenFile; batched reads go through the raw descriptor to
 * pm_fd_read_ranges (io_uring or pread; a ring never outlives its call).
 *
 * An ERROR in the middle of a scan abandons the core's objects without
 * closing them, and neither VFDs (PathNameOpenFile is not tied to a
 * resource owner) nor CRoaring's malloc'd bitmaps go away with memory. So
 * the env and the FileIO each register a reset callback on their memory
 * context: when the context is reset or deleted (at the latest when the
 * aborted query's portal goes), the FileIO closes every VFD still open and
 * the env releases every resource the core still tracks
 * (pm_env_release_all). On the normal path everything is closed before
 * and the callbacks find nothing.
 *
 * Writing: files are created with PathNameOpenFilePerm(O_EXCL), written
 * with FileWrite and made durable with FileSync, so an ERROR closes them
 * too (the reset callback closes and removes a file still being written).
 * Their mode follows the directory they land in (a file gets the parent's
 * read/write bits, a directory the parent's bits): the postmaster's umask
 * would otherwise make them readable by the server's own user only, while
 * the other engines of the lake (Flink, Spark, Java) must read them.
 * The FileIO remembers the path of every file it created (create and
 * write_new), so that the owner of a transaction's writes can remove
 * whatever is left of them when the transaction aborts
 * (pmfdw_fileio_remove_created) or forget them once committed
 * (pmfdw_fileio_forget_created).
 *
 * Open data files are cached across statements (paimon_fdw.open_file_cache
 * of them, per backend): a point lookup opens a few data files per
 * statement, and opening, sizing and closing them was a tenth of its time.
 * Only data files are cached (data-* and changelog-* names: Paimon never
 * rewrites a file by that name, so a cached descriptor and size stay
 * right; a file deleted meanwhile is read as it was, as by a scan that
 * opened it before). Entries in use by a scan are never closed; idle ones
 * are closed least recently used first beyond the limit, and all of them
 * when the setting goes to 0. VFDs do not belong to a resource owner, so a
 * cached one survives transactions; an ERROR releases the scan's use of it
 * through the same reset callback that closes uncached files.
 *
 * The interrupt hook tells the core to stop (PM_ERR_CANCELED) when a query
 * cancel or termination is pending and could be served; it never raises:
 * pmfdw_error() then runs CHECK_FOR_INTERRUPTS() so that Postgres raises
 * the proper error (57014 for statement_timeout and pg_cancel_backend).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/ilist.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

/*
 * The core stores 128-bit decimals (pm_int128), which need 16-byte
 * alignment; palloc guarantees only MAXALIGN (8). Over-allocate and keep
 * the chunk's own pointer just below the aligned one.
 */
#define PMFDW_ALIGN 16

static void *
pmfdw_alloc(void *opaque, size_t size)
{
	char	   *raw;
	char	   *aligned;

	/* NULL on OOM: the core returns PM_ERR_NOMEM instead of being longjmp'd over */
	raw = MemoryContextAllocExtended((MemoryContext) opaque, size + PMFDW_ALIGN,
									 MCXT_ALLOC_NO_OOM | MCXT_ALLOC_HUGE);
	if (raw == NULL)
		return NULL;
	aligned = (char *) TYPEALIGN(PMFDW_ALIGN, raw + sizeof(void *));
	((void **) aligned)[-1] = raw;
	return aligned;
}

static void
pmfdw_free(void *opaque, void *ptr)
{
	(void) opaque;
	pfree(((void **) ptr)[-1]);
}

/* Would CHECK_FOR_INTERRUPTS() raise (cancel or die)? Never raises itself. */
static bool
pmfdw_interrupted(void *opaque)
{
	(void) opaque;
	if (!InterruptPending)
		return false;
	if (ProcDiePending && InterruptHoldoffCount == 0 && CritSectionCount == 0)
		return true;
	return QueryCancelPending && INTERRUPTS_CAN_BE_PROCESSED();
}

typedef struct PmfdwEnv
{
	pm_env		env;
	pm_resource resources;		/* head of the core's tracked resources */
	MemoryContextCallback on_reset;
} PmfdwEnv;

/* The context goes away: free what the core abandoned (an ERROR mid-scan). */
static void
release_env_resources(void *arg)
{
	pm_env_release_all(&((PmfdwEnv *) arg)->env);
}

pm_env *
pmfdw_env_create(MemoryContext cxt)
{
	PmfdwEnv   *e = MemoryContextAllocZero(cxt, sizeof(PmfdwEnv));

	e->env.alloc = pmfdw_alloc;
	e->env.free = pmfdw_free;
	e->env.opaque = cxt;
	e->env.interrupted = pmfdw_interrupted;
	pm_env_resources_init(&e->resources);
	e->env.resources = &e->resources;
	e->on_reset.func = release_env_resources;
	e->on_reset.arg = e;
	MemoryContextRegisterResetCallback(cxt, &e->on_reset);
	return &e->env;
}

/* The FileIO's state: its context and the VFDs it has open. */
typedef struct VfdState
{
	MemoryContext cxt;
	dlist_head	open_files;
	dlist_head	out_files;		/* files being written */
	dlist_head	created;		/* CreatedFile: every file created */
	MemoryContextCallback on_reset;
} VfdState;

/* ---- the open-file cache ---- */

/* An open data file kept across statements (key: its path) */
typedef struct CachedFile
{
	char		path[MAXPGPATH];
	File		vfd;
	off_t		size;
	int			refs;			/* pm_files of scans using it now */
	dlist_node	idle;			/* refs == 0: in idle_files, most recent first */
} CachedFile;

int			pmfdw_open_file_cache = 64;
static HTAB *file_cache;
static dlist_head idle_files = DLIST_STATIC_INIT(idle_files);
static int	nidle;

/* Data files only: Paimon writes each of them once, under a unique name. */
static bool
cacheable(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strlen(path) < MAXPGPATH &&
		(strncmp(base, "data-", 5) == 0 || strncmp(base, "changelog-", 10) == 0);
}

/* Close idle entries, least recently used first, until at most limit entries remain. */
static void
trim_file_cache(int limit)
{
	while (file_cache != NULL && nidle > 0 && hash_get_num_entries(file_cache) > limit)
	{
		CachedFile *c = dlist_container(CachedFile, idle, dlist_tail_node(&idle_files));

		dlist_delete(&c->idle);
		nidle--;
		FileClose(c->vfd);
		hash_search(file_cache, c->path, HASH_REMOVE, NULL);
	}
}

void
pmfdw_file_cache_limit_changed(void)
{
	trim_file_cache(pmfdw_open_file_cache);
}

int
pmfdw_file_cache_count(void)
{
	return file_cache != NULL ? (int) hash_get_num_entries(file_cache) : 0;
}

/* The cached entry of path, opened if it was not (refs taken); NULL: not cached. */
static CachedFile *
file_cache_get(const char *path, int *open_errno)
{
	CachedFile *c;
	bool		found;
	File		vfd;
	off_t		size;

	*open_errno = 0;
	if (pmfdw_open_file_cache <= 0 || !cacheable(path))
		return NULL;
	if (file_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = MAXPGPATH;
		ctl.entrysize = sizeof(CachedFile);
		file_cache = hash_create("paimon_fdw open files", 64, &ctl, HASH_ELEM | HASH_STRINGS);
	}
	c = hash_search(file_cache, path, HASH_FIND, NULL);
	if (c != NULL)
	{
		if (c->refs++ == 0)
		{
			dlist_delete(&c->idle);
			nidle--;
		}
		return c;
	}
	vfd = PathNameOpenFile(path, O_RDONLY | PG_BINARY);
	if (vfd < 0)
	{
		*open_errno = errno;
		return NULL;
	}
	size = FileSize(vfd);
	if (size < 0)
	{
		*open_errno = errno;
		FileClose(vfd);
		return NULL;
	}
	c = hash_search(file_cache, path, HASH_ENTER_NULL, &found);
	if (c == NULL)
	{
		FileClose(vfd);
		*open_errno = ENOMEM;
		return NULL;
	}
	c->vfd = vfd;
	c->size = size;
	c->refs = 1;
	trim_file_cache(pmfdw_open_file_cache);
	return c;
}

/* A scan is done with c: idle from now, closed if beyond the limit. */
static void
file_cache_release(CachedFile *c)
{
	Assert(c->refs > 0);
	if (--c->refs > 0)
		return;
	dlist_push_head(&idle_files, &c->idle);
	nidle++;
	trim_file_cache(pmfdw_open_file_cache);
}

/* A VFD-backed open file */
struct pm_file
{
	File		vfd;
	char	   *path;
	CachedFile *cached;			/* the cache's entry, else NULL (vfd is ours) */
	dlist_node	node;			/* in VfdState.open_files */
};

/* Close f's VFD, or give its cache entry back. */
static void
file_close(pm_file *f)
{
	if (f->cached != NULL)
		file_cache_release(f->cached);
	else
		FileClose(f->vfd);
}

static pm_code
vfd_open(pm_fileio *io, const char *path, pm_file **out, pm_error *err)
{
	VfdState   *st = io->state;
	MemoryContext cxt = st->cxt;
	File		vfd;
	pm_file    *f;
	int			e;
	CachedFile *cached = file_cache_get(path, &e);

	*out = NULL;
	if (cached != NULL)
		vfd = cached->vfd;
	else if (e != 0)
		vfd = -1;
	else
	{
		vfd = PathNameOpenFile(path, O_RDONLY | PG_BINARY);
		e = errno;
	}
	if (vfd < 0)
	{
		pm_error_set_path(err, path);
		if (e == ENOENT)
			return pm_fail(err, PM_ERR_NOT_FOUND, "file does not exist");
		return pm_fail_errno(err, e, "could not open file");
	}
	f = MemoryContextAllocExtended(cxt, sizeof(pm_file), MCXT_ALLOC_NO_OOM);
	if (f == NULL)
	{
		if (cached != NULL)
			file_cache_release(cached);
		else
			FileClose(vfd);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	f->vfd = vfd;
	f->cached = cached;
	if ((f->path = cached != NULL ? cached->path : MemoryContextStrdup(cxt, path)) == NULL)
	{
		FileClose(vfd);
		pfree(f);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	dlist_push_head(&st->open_files, &f->node);
	*out = f;
	return PM_OK;
}

static pm_code
vfd_size(pm_fileio *io, pm_file *f, uint64_t *size, pm_error *err)
{
	off_t		s = f->cached != NULL ? f->cached->size : FileSize(f->vfd);

	if (s < 0)
	{
		pm_error_set_path(err, f->path);
		return pm_fail_errno(err, errno, "could not get file size");
	}
	*size = (uint64_t) s;
	return PM_OK;
}

/*
 * The raw descriptor of a VFD, reopening it if the VFD cache closed it
 * (FileSize reopens; FileGetRawDesc alone does not).
 */
static int
raw_fd(pm_file *f)
{
	if (FileSize(f->vfd) < 0)
		return -1;
	return FileGetRawDesc(f->vfd);
}

static pm_code
vfd_pread(pm_fileio *io, pm_file *f, void *buf, size_t len, uint64_t off, pm_error *err)
{
	int			fd = raw_fd(f);

	if (fd < 0)
	{
		pm_error_set_path(err, f->path);
		return pm_fail_errno(err, errno, "could not reopen file");
	}
	if (pm_fd_pread(fd, buf, len, off, err) != PM_OK)
	{
		pm_error_set_path(err, f->path);
		return err->code;
	}
	return PM_OK;
}

static pm_code
vfd_read_ranges(pm_fileio *io, pm_file *f, pm_read_range *ranges, int nranges, pm_error *err)
{
	int			fd = raw_fd(f);

	if (fd < 0)
	{
		pm_error_set_path(err, f->path);
		return pm_fail_errno(err, errno, "could not reopen file");
	}
	if (pm_fd_read_ranges(fd, ranges, nranges, err) != PM_OK)
	{
		pm_error_set_path(err, f->path);
		return err->code;
	}
	return PM_OK;
}

static void
vfd_close(pm_fileio *io, pm_file *f)
{
	if (f != NULL)
	{
		dlist_delete(&f->node);
		file_close(f);
		if (f->cached == NULL)
			pfree(f->path);
		pfree(f);
	}
}

static pm_code
vfd_list(pm_fileio *io, const char *dir, pm_arena *arena, char ***names, int *count,
		 pm_error *err)
{
	DIR		   *d;
	struct dirent *e;
	int			n = 0,
				cap = 16;
	char	  **list;

	*names = NULL;
	*count = 0;
	d = AllocateDir(dir);
	if (d == NULL)
	{
		int			en = errno;

		pm_error_set_path(err, dir);
		if (en == ENOENT)
			return pm_fail(err, PM_ERR_NOT_FOUND, "directory does not exist");
		return pm_fail_errno(err, en, "could not open directory");
	}
	list = pm_arena_alloc(arena, sizeof(char *) * cap);
	while (list != NULL && (e = readdir(d)) != NULL)
	{
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap)
		{
			list = pm_arena_realloc(arena, list, sizeof(char *) * cap, sizeof(char *) * cap * 2);
			cap *= 2;
			if (list == NULL)
				break;
		}
		if ((list[n] = pm_arena_strdup(arena, e->d_name)) == NULL)
		{
			list = NULL;
			break;
		}
		n++;
	}
	FreeDir(d);
	if (list == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*names = list;
	*count = n;
	return PM_OK;
}

static bool
vfd_exists(pm_fileio *io, const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static bool
vfd_is_dir(pm_fileio *io, const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- writing ---- */

/* A file being written */
struct pm_out_file
{
	File		vfd;
	char	   *path;
	off_t		size;			/* bytes written so far */
	dlist_node	node;			/* in VfdState.out_files */
};

/* Largest chunk handed to one FileWrite (its length is an int). */
#define WRITE_CHUNK (1 << 30)

static pm_code
fail_path(pm_error *err, int e, const char *path, const char *what)
{
	pm_fail_errno(err, e, "could not %s", what);
	pm_error_set_path(err, path);
	return err->code;
}

/* Mode bits of path's parent directory, or 0755 if it cannot be read. */
static mode_t
parent_mode(const char *path)
{
	char		dir[MAXPGPATH];
	char	   *slash;
	struct stat st;

	strlcpy(dir, path, sizeof(dir));
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return 0755;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) != 0)
		return 0755;
	return st.st_mode & 0777;
}

/* The path of a file this FileIO created */
typedef struct CreatedFile
{
	dlist_node	node;			/* in VfdState.created */
	char		path[FLEXIBLE_ARRAY_MEMBER];
} CreatedFile;

/* Remember a created file (the path outlives the pm_out_file); never raises. */
static bool
remember_created(VfdState *st, const char *path)
{
	size_t		len = strlen(path);
	CreatedFile *c = MemoryContextAllocExtended(st->cxt, offsetof(CreatedFile, path) + len + 1,
												MCXT_ALLOC_NO_OOM);

	if (c == NULL)
		return false;
	memcpy(c->path, path, len + 1);
	dlist_push_tail(&st->created, &c->node);
	return true;
}

/* Open path for writing, new (O_EXCL), with the mode its directory suggests. */
static pm_code
open_new(const char *path, File *vfd, pm_error *err)
{
	int			fd;

	*vfd = PathNameOpenFilePerm(path, O_WRONLY | O_CREAT | O_EXCL | PG_BINARY, 0600);
	if (*vfd < 0)
	{
		if (errno == EEXIST)
		{
			pm_fail(err, PM_ERR_CONFLICT, "file already exists");
			pm_error_set_path(err, path);
			return PM_ERR_CONFLICT;
		}
		return fail_path(err, errno, path, "create file");
	}
	fd = FileGetRawDesc(*vfd);
	if (fd >= 0)
		(void) fchmod(fd, parent_mode(path) & 0666);
	return PM_OK;
}

/* Write len bytes at off, in chunks, retrying short writes. */
static pm_code
write_at(File vfd, const char *path, const void *data, size_t len, off_t off, pm_error *err)
{
	const char *p = data;

	while (len > 0)
	{
		int			chunk = len > WRITE_CHUNK ? WRITE_CHUNK : (int) len;
		int			n;

		errno = 0;
		n = FileWrite(vfd, (char *) p, chunk, off, WAIT_EVENT_DATA_FILE_WRITE);
		if (n <= 0)
			return fail_path(err, errno != 0 ? errno : ENOSPC, path, "write file");
		p += n;
		off += n;
		len -= n;
	}
	return PM_OK;
}

static pm_code
vfd_create(pm_fileio *io, const char *path, pm_out_file **out, pm_error *err)
{
	VfdState   *st = io->state;
	pm_out_file *f;
	File		vfd;

	*out = NULL;
	f = MemoryContextAllocExtended(st->cxt, sizeof(pm_out_file), MCXT_ALLOC_NO_OOM);
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	f->path = MemoryContextAllocExtended(st->cxt, strlen(path) + 1, MCXT_ALLOC_NO_OOM);
	if (f->path == NULL)
	{
		pfree(f);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	strcpy(f->path, path);
	if (open_new(path, &vfd, err) != PM_OK)
	{
		pfree(f->path);
		pfree(f);
		return err->code;
	}
	if (!remember_created(st, path))
	{
		FileClose(vfd);
		(void) unlink(path);
		pfree(f->path);
		pfree(f);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	f->vfd = vfd;
	f->size = 0;
	dlist_push_head(&st->out_files, &f->node);
	*out = f;
	return PM_OK;
}

static pm_code
vfd_append(pm_fileio *io, pm_out_file *f, const void *data, size_t len, pm_error *err)
{
	if (write_at(f->vfd, f->path, data, len, f->size, err) != PM_OK)
		return err->code;
	f->size += len;
	return PM_OK;
}

static void
free_out_file(pm_out_file *f)
{
	dlist_delete(&f->node);
	FileClose(f->vfd);
	pfree(f->path);
	pfree(f);
}

static pm_code
vfd_finish(pm_fileio *io, pm_out_file *f, pm_error *err)
{
	if (FileSync(f->vfd, WAIT_EVENT_DATA_FILE_SYNC) != 0)
		return fail_path(err, errno, f->path, "fsync file");
	free_out_file(f);
	return PM_OK;
}

static void
vfd_discard(pm_fileio *io, pm_out_file *f)
{
	if (f == NULL)
		return;
	(void) unlink(f->path);
	free_out_file(f);
}

/*
 * Create path with these contents, atomically, failing if it exists: the
 * bytes go to a temporary file beside it, are fsynced, and are published
 * with link(2), which never replaces an existing file.
 */
static pm_code
vfd_write_new(pm_fileio *io, const char *path, const void *data, size_t len, pm_error *err)
{
	VfdState   *st = io->state;
	char		tmp[MAXPGPATH];
	File		vfd = -1;
	int			e;

	/*
	 * A hidden name beside it (".<name>.<pid>.<n>.tmp"), as Java's
	 * tryToWriteAtomic: one left by a crash must not look like a snapshot-*
	 * file, which Java parses as a version number.
	 */
	const char *slash = strrchr(path, '/');
	int			dirlen = slash != NULL ? (int) (slash - path + 1) : 0;

	for (int attempt = 0; attempt < 100; attempt++)
	{
		if (snprintf(tmp, sizeof(tmp), "%.*s.%s.%d.%d.tmp", dirlen, path, path + dirlen,
					 MyProcPid, attempt) >= (int) sizeof(tmp))
		{
			pm_fail(err, PM_ERR_INVALID, "path too long");
			pm_error_set_path(err, path);
			return PM_ERR_INVALID;
		}
		if (open_new(tmp, &vfd, err) == PM_OK || err->code != PM_ERR_CONFLICT)
			break;
		pm_error_clear(err);
	}
	if (vfd < 0)
		return err->code != PM_OK ? err->code : fail_path(err, EEXIST, path, "create temporary file");
	if (write_at(vfd, path, data, len, 0, err) != PM_OK)
	{
		FileClose(vfd);
		(void) unlink(tmp);
		return err->code;
	}
	if (FileSync(vfd, WAIT_EVENT_DATA_FILE_SYNC) != 0)
	{
		e = errno;
		FileClose(vfd);
		(void) unlink(tmp);
		return fail_path(err, e, path, "fsync file");
	}
	FileClose(vfd);
	if (link(tmp, path) != 0)
	{
		e = errno;
		(void) unlink(tmp);
		if (e == EEXIST)
		{
			pm_fail(err, PM_ERR_CONFLICT, "file already exists");
			pm_error_set_path(err, path);
			return PM_ERR_CONFLICT;
		}
		return fail_path(err, e, path, "create file");
	}
	(void) unlink(tmp);
	if (!remember_created(st, path))
	{
		(void) unlink(path);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}

static pm_code
vfd_remove(pm_fileio *io, const char *path, pm_error *err)
{
	if (unlink(path) == 0)
		return PM_OK;
	if ((errno == EISDIR || errno == EPERM) && rmdir(path) == 0)
		return PM_OK;
	return fail_path(err, errno, path, "remove file");
}

static pm_code
vfd_mkdirs(pm_fileio *io, const char *path, pm_error *err)
{
	char		buf[MAXPGPATH];
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
		if (mkdir(buf, 0700) == 0)
			(void) chmod(buf, parent_mode(buf));
		else if (errno != EEXIST)
			return fail_path(err, errno, path, "create directory");
		if (i < len)
			buf[i] = '/';
	}
	if (!vfd_is_dir(io, path))
	{
		pm_fail(err, PM_ERR_IO, "could not create directory: a file is in the way");
		pm_error_set_path(err, path);
		return PM_ERR_IO;
	}
	return PM_OK;
}

int
pmfdw_fileio_remove_created(pm_fileio *io)
{
	VfdState   *st = io->state;
	dlist_mutable_iter it;
	int			removed = 0;

	dlist_foreach_modify(it, &st->created)
	{
		CreatedFile *c = dlist_container(CreatedFile, node, it.cur);

		if (unlink(c->path) == 0)
			removed++;
		dlist_delete(&c->node);
		pfree(c);
	}
	return removed;
}

void
pmfdw_fileio_forget_created(pm_fileio *io)
{
	VfdState   *st = io->state;
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &st->created)
	{
		CreatedFile *c = dlist_container(CreatedFile, node, it.cur);

		dlist_delete(&c->node);
		pfree(c);
	}
}

/*
 * The context goes away: close the VFDs the core abandoned (an ERROR
 * mid-scan), and close and remove the files it was writing.
 */
static void
close_open_files(void *arg)
{
	VfdState   *st = arg;
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &st->open_files)
	{
		pm_file    *f = dlist_container(pm_file, node, it.cur);

		dlist_delete(&f->node);
		file_close(f);
	}
	dlist_foreach_modify(it, &st->out_files)
	{
		pm_out_file *f = dlist_container(pm_out_file, node, it.cur);

		dlist_delete(&f->node);
		FileClose(f->vfd);
		(void) unlink(f->path);
	}
}

pm_fileio *
pmfdw_fileio_create(MemoryContext cxt)
{
	pm_fileio  *io = MemoryContextAllocZero(cxt, sizeof(pm_fileio));
	VfdState   *st = MemoryContextAllocZero(cxt, sizeof(VfdState));

	st->cxt = cxt;
	dlist_init(&st->open_files);
	dlist_init(&st->out_files);
	dlist_init(&st->created);
	st->on_reset.func = close_open_files;
	st->on_reset.arg = st;
	MemoryContextRegisterResetCallback(cxt, &st->on_reset);
	io->open = vfd_open;
	io->size = vfd_size;
	io->pread = vfd_pread;
	io->read_ranges = vfd_read_ranges;
	io->close = vfd_close;
	io->list = vfd_list;
	io->exists = vfd_exists;
	io->is_dir = vfd_is_dir;
	io->write_new = vfd_write_new;
	io->remove = vfd_remove;
	io->mkdirs = vfd_mkdirs;
	io->create = vfd_create;
	io->append = vfd_append;
	io->finish = vfd_finish;
	io->discard = vfd_discard;
	io->state = st;
	return io;
}
