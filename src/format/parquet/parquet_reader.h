/*-------------------------------------------------------------------------
 * parquet_reader.h
 *	  Parquet data file reader (see format/format_reader.h for the contract).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_READER_H
#define PM_FORMAT_PARQUET_PARQUET_READER_H

#include "format/format_reader.h"

extern pm_code pm_parquet_reader_open(const pm_env *env, pm_fileio *io, const char *path,
									  const pm_format_read_options *options,
									  pm_format_reader **out, pm_error *err);

#endif
