/*-------------------------------------------------------------------------
 * format_writer.c
 *	  Dispatch to the Parquet, Avro and ORC writers, and what they share:
 *	  the batch check and the file side (pm_format_file: create, append,
 *	  fail, finish, discard).
 *-------------------------------------------------------------------------
 */
#include "format/format_writer.h"

#include <string.h>

#include "format/avro/avro_writer.h"
#include "format/orc/orc_writer.h"
#include "format/parquet/parquet_writer.h"

bool
pm_format_writer_takes_compression(pm_file_format format, const char *name)
{
	switch (format)
	{
		case PM_FORMAT_PARQUET:
			return pm_parquet_writer_takes_compression(name);
		case PM_FORMAT_AVRO:
			return pm_avro_writer_takes_compression(name);
		case PM_FORMAT_ORC:
			return pm_orc_writer_takes_compression(name);
	}
	return false;
}

pm_code
pm_format_writer_open(pm_file_format format, const pm_env *env, pm_fileio *io,
					  const char *path, const pm_format_write_options *options,
					  pm_format_writer **out, pm_error *err)
{
	pm_code		rc;

	*out = NULL;
	switch (format)
	{
		case PM_FORMAT_PARQUET:
			return pm_parquet_writer_open(env, io, path, options, out, err);
		case PM_FORMAT_AVRO:
			return pm_avro_writer_open(env, io, path, options, out, err);
		case PM_FORMAT_ORC:
			return pm_orc_writer_open(env, io, path, options, out, err);
	}
	rc = pm_fail(err, PM_ERR_INVALID, "unknown file format %d", (int) format);
	pm_error_set_path(err, path);
	return rc;
}

pm_code
pm_format_writer_check_batch(const pm_type *row, const pm_batch *batch, const char *file,
							 pm_error *err)
{
	if (batch->ncols != row->nfields)
		return pm_fail(err, PM_ERR_INVALID, "batch of %d columns written to %s file of %d",
					   batch->ncols, file, row->nfields);
	for (int c = 0; c < row->nfields; c++)
		if (batch->cols[c].type == NULL || batch->cols[c].type->id != row->fields[c].type->id)
			return pm_fail(err, PM_ERR_INVALID, "column \"%s\": batch vector of another type",
						   row->fields[c].name);
	return PM_OK;
}

bool
pm_format_file_init(pm_format_file *f, const pm_env *env, pm_fileio *io, const char *path,
					const char *what)
{
	size_t		plen = strlen(path);

	memset(f, 0, sizeof(*f));
	f->io = io;
	f->what = what;
	f->path = pm_alloc(env, plen + 1);
	if (f->path == NULL)
		return false;
	memcpy(f->path, path, plen + 1);
	return true;
}

pm_code
pm_format_file_create(pm_format_file *f, pm_error *err)
{
	if (pm_out_file_create(f->io, f->path, &f->out, err) != PM_OK)
	{
		f->out = NULL;
		return pm_format_file_fail(f, err);
	}
	return PM_OK;
}

pm_code
pm_format_file_fail(pm_format_file *f, pm_error *err)
{
	f->failed = true;
	pm_error_set_path(err, f->path);
	return err->code;
}

pm_code
pm_format_file_oom(pm_format_file *f, pm_error *err)
{
	pm_fail(err, PM_ERR_NOMEM, "out of memory writing %s", f->what);
	return pm_format_file_fail(f, err);
}

pm_code
pm_format_file_append(pm_format_file *f, const void *p, size_t n, pm_error *err)
{
	if (n == 0)
		return PM_OK;
	if (pm_out_file_append(f->io, f->out, p, n, err) != PM_OK)
		return pm_format_file_fail(f, err);
	f->pos += (int64_t) n;
	return PM_OK;
}

pm_code
pm_format_file_finish(pm_format_file *f, pm_error *err)
{
	if (pm_out_file_finish(f->io, f->out, err) != PM_OK)
		return pm_format_file_fail(f, err);
	f->out = NULL;
	return PM_OK;
}

void
pm_format_file_close(pm_format_file *f, const pm_env *env)
{
	if (f->out != NULL)
		pm_out_file_discard(f->io, f->out);
	f->out = NULL;
	pm_free(env, f->path);
	f->path = NULL;
}
