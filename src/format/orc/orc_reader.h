/*-------------------------------------------------------------------------
 * orc_reader.h
 *	  ORC data file reader (see format/format_reader.h for the contract).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_READER_H
#define PM_FORMAT_ORC_ORC_READER_H

#include "format/format_reader.h"

extern pm_code pm_orc_reader_open(const pm_env *env, pm_fileio *io, const char *path,
									  const pm_format_read_options *options,
									  pm_format_reader **out, pm_error *err);

#endif
