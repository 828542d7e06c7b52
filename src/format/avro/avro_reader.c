/*-------------------------------------------------------------------------
 * avro_reader.c
 *	  Placeholder until the avro reader lands.
 *-------------------------------------------------------------------------
 */
#include "format/avro/avro_reader.h"

pm_code
pm_avro_reader_open(const pm_env *env, pm_fileio *io, const char *path,
				const pm_format_read_options *options,
				pm_format_reader **out, pm_error *err)
{
	(void) env;
	(void) io;
	(void) options;
	*out = NULL;
	pm_error_set_path(err, path);
	return pm_fail(err, PM_ERR_UNSUPPORTED, "avro files are not supported yet");
}
