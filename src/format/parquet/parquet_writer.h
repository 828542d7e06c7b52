/*-------------------------------------------------------------------------
 * parquet_writer.h
 *	  Parquet data file writer (see format/format_writer.h for the contract).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_WRITER_H
#define PM_FORMAT_PARQUET_PARQUET_WRITER_H

#include "format/format_writer.h"

/* Whether the writer takes this compression name (its open would). */
extern bool pm_parquet_writer_takes_compression(const char *name);

extern pm_code pm_parquet_writer_open(const pm_env *env, pm_fileio *io, const char *path,
									  const pm_format_write_options *options,
									  pm_format_writer **out, pm_error *err);

#endif
