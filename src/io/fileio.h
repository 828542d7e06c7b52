/*-------------------------------------------------------------------------
 * fileio.h
 *	  FileIO: the one way the core touches files.
 *
 * An interface (a table of functions) so that the core runs on the local
 * file system (local_fileio.c: POSIX + io_uring), inside a Postgres backend
 * (src/fdw/ builds one on virtual file descriptors so an ERROR leaks none),
 * in memory with injected failures (tests), and later on object stores.
 *
 * Paths handed to FileIO are plain local paths: turning Paimon's "file:" /
 * "FILE:" URIs into them, and remapping external paths, is table-layer work.
 *-------------------------------------------------------------------------
 */
#ifndef PM_IO_FILEIO_H
#define PM_IO_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"

typedef struct pm_file pm_file;		/* opaque, owned by the FileIO */
typedef struct pm_out_file pm_out_file;	/* a file being written */

/* One range of a batched read: `length` bytes at `offset` into `buf`. */
typedef struct pm_read_range
{
	uint64_t	offset;
	size_t		length;
	void	   *buf;
} pm_read_range;

typedef struct pm_fileio pm_fileio;

struct pm_fileio
{
	/* PM_ERR_NOT_FOUND if the file does not exist */
	pm_code		(*open) (pm_fileio *io, const char *path, pm_file **out, pm_error *err);
	pm_code		(*size) (pm_fileio *io, pm_file *f, uint64_t *size, pm_error *err);

	/*
	 * Read exactly len bytes at off; a short file is PM_ERR_CORRUPT
	 * ("truncated").
	 */
	pm_code		(*pread) (pm_fileio *io, pm_file *f, void *buf, size_t len,
						  uint64_t off, pm_error *err);

	/*
	 * Read several ranges at once (io_uring where available). May be NULL:
	 * pm_file_read_ranges then loops over pread.
	 */
	pm_code		(*read_ranges) (pm_fileio *io, pm_file *f, pm_read_range *ranges,
								int nranges, pm_error *err);
	void		(*close) (pm_fileio *io, pm_file *f);

	/*
	 * Names (not paths) of the entries of a directory, in no order, in arena.
	 * PM_ERR_NOT_FOUND if it does not exist.
	 */
	pm_code		(*list) (pm_fileio *io, const char *dir, pm_arena *arena,
						 char ***names, int *count, pm_error *err);
	/* false on any error */
	bool		(*exists) (pm_fileio *io, const char *path);
	bool		(*is_dir) (pm_fileio *io, const char *path);

	/*
	 * Write path (may be NULL in read-only FileIOs): create a file with the
	 * given contents, failing with PM_ERR_CONFLICT if it exists (the atomic
	 * rename-without-replace that commits rely on), and delete.
	 */
	pm_code		(*write_new) (pm_fileio *io, const char *path, const void *data,
							  size_t len, pm_error *err);
	pm_code		(*remove) (pm_fileio *io, const char *path, pm_error *err);
	pm_code		(*mkdirs) (pm_fileio *io, const char *path, pm_error *err);

	/*
	 * Streaming output (data and metadata files, whose names are unique):
	 * create fails with PM_ERR_CONFLICT if the path exists (O_EXCL); append
	 * writes at the end; finish makes the bytes durable (fsync) and closes;
	 * discard closes and removes the file. Exactly one of finish/discard is
	 * called per created file (after a failed finish, discard). May be NULL
	 * in read-only FileIOs. Files still open when the owner abandons the
	 * FileIO on ERROR are closed (and removed) by the FileIO's owner.
	 */
	pm_code		(*create) (pm_fileio *io, const char *path, pm_out_file **out, pm_error *err);
	pm_code		(*append) (pm_fileio *io, pm_out_file *f, const void *data, size_t len,
						   pm_error *err);
	pm_code		(*finish) (pm_fileio *io, pm_out_file *f, pm_error *err);
	void		(*discard) (pm_fileio *io, pm_out_file *f);

	void	   *state;			/* the implementation's own */
};

/* Convenience wrappers; errors name the path. */
extern pm_code pm_file_open(pm_fileio *io, const char *path, pm_file **out, pm_error *err);
extern pm_code pm_file_size(pm_fileio *io, pm_file *f, uint64_t *size, pm_error *err);
extern pm_code pm_file_pread(pm_fileio *io, pm_file *f, void *buf, size_t len,
							 uint64_t off, pm_error *err);
extern pm_code pm_file_read_ranges(pm_fileio *io, pm_file *f, pm_read_range *ranges,
								   int nranges, pm_error *err);
extern void pm_file_close(pm_fileio *io, pm_file *f);

/* Output wrappers: PM_ERR_UNSUPPORTED if the FileIO cannot write. */
extern pm_code pm_out_file_create(pm_fileio *io, const char *path, pm_out_file **out,
								  pm_error *err);
extern pm_code pm_out_file_append(pm_fileio *io, pm_out_file *f, const void *data,
								  size_t len, pm_error *err);
extern pm_code pm_out_file_finish(pm_fileio *io, pm_out_file *f, pm_error *err);
extern void pm_out_file_discard(pm_fileio *io, pm_out_file *f);

/*
 * Remove path and ignore any failure (Java's deleteQuietly): for cleanup
 * of files nothing refers to. Nothing happens for a NULL path or a FileIO
 * that cannot remove.
 */
extern void pm_fileio_remove_quietly(pm_fileio *io, const char *path);

/*
 * Read a whole file into arena (plus a terminating NUL not counted in len).
 * Files above max_size are PM_ERR_CORRUPT.
 */
extern pm_code pm_fileio_read_all(pm_fileio *io, const char *path, pm_arena *arena,
								  size_t max_size, uint8_t **data, size_t *len,
								  pm_error *err);

/*
 * The local file system: POSIX open/pread, io_uring for read_ranges when the
 * kernel allows it (else pread). NULL on out-of-memory. Free with
 * pm_local_fileio_destroy.
 */
extern pm_fileio *pm_local_fileio_create(const pm_env *env);
extern void pm_local_fileio_destroy(pm_fileio *io);

/*
 * Batched positional reads on a raw descriptor: io_uring if available, else
 * pread. Shared by the local FileIO and the FDW's VFD-backed one.
 */
extern pm_code pm_fd_read_ranges(int fd, pm_read_range *ranges, int nranges, pm_error *err);
extern pm_code pm_fd_pread(int fd, void *buf, size_t len, uint64_t off, pm_error *err);

/* Whether io_uring is used by pm_fd_read_ranges (false: pread fallback). */
extern bool pm_uring_available(void);
/* Turn io_uring use off or on (a GUC and tests set it). */
extern void pm_uring_set_enabled(bool enabled);

#endif							/* PM_IO_FILEIO_H */
