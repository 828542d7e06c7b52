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
	MemoryContextCallback on_reset;
} VfdState;

/* A VFD-backed open file */
struct pm_file
{
	File		vfd;
	char	   *path;
	dlist_node	node;			/* in VfdState.open_files */
};

static pm_code
vfd_open(pm_fileio *io, const char *path, pm_file **out, pm_error *err)
{
	VfdState   *st = io->state;
	MemoryContext cxt = st->cxt;
	File		vfd;
	pm_file    *f;

	*out = NULL;
	vfd = PathNameOpenFile(path, O_RDONLY | PG_BINARY);
	if (vfd < 0)
	{
		int			e = errno;

		pm_error_set_path(err, path);
		if (e == ENOENT)
			return pm_fail(err, PM_ERR_NOT_FOUND, "file does not exist");
		return pm_fail_errno(err, e, "could not open file");
	}
	f = MemoryContextAllocExtended(cxt, sizeof(pm_file), MCXT_ALLOC_NO_OOM);
	if (f == NULL || (f->path = MemoryContextStrdup(cxt, path)) == NULL)
	{
		FileClose(vfd);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	f->vfd = vfd;
	dlist_push_head(&st->open_files, &f->node);
	*out = f;
	return PM_OK;
}

static pm_code
vfd_size(pm_fileio *io, pm_file *f, uint64_t *size, pm_error *err)
{
	off_t		s = FileSize(f->vfd);

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
		FileClose(f->vfd);
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

/* The context goes away: close the VFDs the core abandoned (an ERROR mid-scan). */
static void
close_open_files(void *arg)
{
	VfdState   *st = arg;
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &st->open_files)
	{
		pm_file    *f = dlist_container(pm_file, node, it.cur);

		dlist_delete(&f->node);
		FileClose(f->vfd);
	}
}

pm_fileio *
pmfdw_fileio_create(MemoryContext cxt)
{
	pm_fileio  *io = MemoryContextAllocZero(cxt, sizeof(pm_fileio));
	VfdState   *st = MemoryContextAllocZero(cxt, sizeof(VfdState));

	st->cxt = cxt;
	dlist_init(&st->open_files);
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
	io->state = st;
	return io;
}
