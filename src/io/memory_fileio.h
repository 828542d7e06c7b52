/*-------------------------------------------------------------------------
 * memory_fileio.h
 *	  An in-memory FileIO for tests, with failure injection.
 *
 * Files are byte buffers keyed by path; directories exist implicitly (any
 * file below them) or explicitly (mkdirs). Reads can be made to fail to test
 * the error paths of the layers above, and so can writes of files
 * created through the streaming output ops.
 *-------------------------------------------------------------------------
 */
#ifndef PM_IO_MEMORY_FILEIO_H
#define PM_IO_MEMORY_FILEIO_H

#include "io/fileio.h"

/* NULL on out-of-memory. Free with pm_memory_fileio_destroy. */
extern pm_fileio *pm_memory_fileio_create(const pm_env *env);
extern void pm_memory_fileio_destroy(pm_fileio *io);

/* Add (or replace) a file; the bytes are copied. */
extern pm_code pm_memory_fileio_add(pm_fileio *io, const char *path, const void *data,
									size_t len, pm_error *err);

/*
 * Make the nth read from now (1 = the next one; pread and read_ranges calls
 * count one each) fail with code (PM_ERR_IO gets sys_errno EIO). 0 turns
 * the injection off. The failure happens once.
 */
extern void pm_memory_fileio_fail_read(pm_fileio *io, int nth, pm_code code);

/*
 * Make the nth output call from now (1 = the next; append and finish calls
 * count one each) fail with code (PM_ERR_IO gets sys_errno EIO). 0 turns
 * the injection off. The failure happens once.
 */
extern void pm_memory_fileio_fail_write(pm_fileio *io, int nth, pm_code code);

/* Make every open of path fail with code (PM_OK: stop). One path at a time. */
extern void pm_memory_fileio_fail_open(pm_fileio *io, const char *path, pm_code code);

/*
 * Reads (pread + read_ranges calls) so far, and files currently open (for
 * reading, or created and neither finished nor discarded).
 */
extern int	pm_memory_fileio_read_count(pm_fileio *io);
extern int	pm_memory_fileio_open_files(pm_fileio *io);

#endif							/* PM_IO_MEMORY_FILEIO_H */
