/*-------------------------------------------------------------------------
 * format_writer.c
 *	  Dispatch to the Parquet, Avro and ORC writers.
 *-------------------------------------------------------------------------
 */
#include "format/format_writer.h"

#include "format/avro/avro_writer.h"
#include "format/orc/orc_writer.h"
#include "format/parquet/parquet_writer.h"

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
