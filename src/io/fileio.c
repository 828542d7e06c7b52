/*-------------------------------------------------------------------------
 * fileio.c
 *	  Convenience wrappers over the FileIO interface (fileio.h).
 *
 * They call through the function table, make sure every error names the
 * file, and supply the generic fallbacks (read_ranges as a loop of preads,
 * reading a whole file into an arena).
 *-------------------------------------------------------------------------
 */
#include "io/fileio.h"

#include <string.h>

#include "common/read_timing.h"

pm_code
pm_file_open(pm_fileio *io, const char *path, pm_file **out, pm_error *err)
{
	pm_code		rc;

	*out = NULL;
	rc = io->open(io, path, out, err);
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	return rc;
}

pm_code
pm_file_size(pm_fileio *io, pm_file *f, uint64_t *size, pm_error *err)
{
	return io->size(io, f, size, err);
}

pm_code
pm_file_pread(pm_fileio *io, pm_file *f, void *buf, size_t len, uint64_t off,
			  pm_error *err)
{
	int64_t		t0;
	pm_code		rc;

	if (len == 0)
		return PM_OK;
	t0 = pm_read_timing_now();
	rc = io->pread(io, f, buf, len, off, err);
	pm_read_timing_add_io(t0, (int64_t) len);
	return rc;
}

static pm_code
read_ranges(pm_fileio *io, pm_file *f, pm_read_range *ranges, int nranges, pm_error *err)
{
	if (io->read_ranges != NULL)
		return io->read_ranges(io, f, ranges, nranges, err);
	for (int i = 0; i < nranges; i++)
	{
		if (ranges[i].length == 0)
			continue;
		PM_TRY(io->pread(io, f, ranges[i].buf, ranges[i].length, ranges[i].offset, err));
	}
	return PM_OK;
}

pm_code
pm_file_read_ranges(pm_fileio *io, pm_file *f, pm_read_range *ranges, int nranges,
					pm_error *err)
{
	int64_t		t0;
	int64_t		bytes = 0;
	pm_code		rc;

	if (nranges < 0)
		return pm_fail(err, PM_ERR_INVALID, "negative number of read ranges");
	if (nranges == 0)
		return PM_OK;
	for (int i = 0; i < nranges; i++)
		bytes += (int64_t) ranges[i].length;
	t0 = pm_read_timing_now();
	rc = read_ranges(io, f, ranges, nranges, err);
	pm_read_timing_add_io(t0, bytes);
	return rc;
}

void
pm_file_close(pm_fileio *io, pm_file *f)
{
	if (f != NULL)
		io->close(io, f);
}

pm_code
pm_out_file_create(pm_fileio *io, const char *path, pm_out_file **out, pm_error *err)
{
	*out = NULL;
	if (io->create == NULL)
	{
		pm_fail(err, PM_ERR_UNSUPPORTED, "this file system cannot write files");
		pm_error_set_path(err, path);
		return PM_ERR_UNSUPPORTED;
	}
	return io->create(io, path, out, err);
}

pm_code
pm_out_file_append(pm_fileio *io, pm_out_file *f, const void *data, size_t len,
				   pm_error *err)
{
	return io->append(io, f, data, len, err);
}

pm_code
pm_out_file_finish(pm_fileio *io, pm_out_file *f, pm_error *err)
{
	return io->finish(io, f, err);
}

void
pm_out_file_discard(pm_fileio *io, pm_out_file *f)
{
	if (f != NULL)
		io->discard(io, f);
}

void
pm_fileio_remove_quietly(pm_fileio *io, const char *path)
{
	pm_error	ignored;

	pm_error_clear(&ignored);
	if (path != NULL && io->remove != NULL)
		(void) io->remove(io, path, &ignored);
}

pm_code
pm_fileio_read_all(pm_fileio *io, const char *path, pm_arena *arena, size_t max_size,
				   uint8_t **data, size_t *len, pm_error *err)
{
	pm_file    *f;
	uint64_t	size;
	uint8_t    *buf;
	pm_code		rc;

	*data = NULL;
	*len = 0;
	PM_TRY(pm_file_open(io, path, &f, err));
	rc = pm_file_size(io, f, &size, err);
	if (rc == PM_OK && size > (uint64_t) max_size)
		rc = pm_fail(err, PM_ERR_CORRUPT, "file of %llu bytes is larger than the %zu allowed",
					 (unsigned long long) size, max_size);
	if (rc == PM_OK)
	{
		buf = pm_arena_alloc(arena, (size_t) size + 1);
		if (buf == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory reading a file of %llu bytes",
						 (unsigned long long) size);
	}
	if (rc == PM_OK)
		rc = pm_file_pread(io, f, buf, (size_t) size, 0, err);
	pm_file_close(io, f);
	if (rc != PM_OK)
	{
		pm_error_set_path(err, path);
		return rc;
	}
	buf[size] = '\0';
	*data = buf;
	*len = (size_t) size;
	return PM_OK;
}
