/*-------------------------------------------------------------------------
 * parquet_writer.c
 *	  Parquet data file writer (placeholder until the writer lands).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_writer.h"

pm_code
pm_parquet_writer_open(const pm_env *env, pm_fileio *io, const char *path,
					   const pm_format_write_options *options,
					   pm_format_writer **out, pm_error *err)
{
	pm_code		rc;

	*out = NULL;
	rc = pm_fail(err, PM_ERR_UNSUPPORTED, "writing Parquet files is not supported yet");
	pm_error_set_path(err, path);
	return rc;
}
