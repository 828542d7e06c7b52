/*-------------------------------------------------------------------------
 * parquet_reader.c
 *	  Placeholder until the parquet reader lands.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_reader.h"

pm_code
pm_parquet_reader_open(const pm_env *env, pm_fileio *io, const char *path,
				const pm_format_read_options *options,
				pm_format_reader **out, pm_error *err)
{
	(void) env;
	(void) io;
	(void) options;
	*out = NULL;
	pm_error_set_path(err, path);
	return pm_fail(err, PM_ERR_UNSUPPORTED, "parquet files are not supported yet");
}
