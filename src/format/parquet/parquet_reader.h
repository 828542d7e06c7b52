/*-------------------------------------------------------------------------
 * parquet_reader.h
 *	  Parquet data file reader (see format/format_reader.h for the contract).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_READER_H
#define PM_FORMAT_PARQUET_PARQUET_READER_H

#include "format/format_reader.h"
#include "format/parquet/parquet_metadata.h"

extern pm_code pm_parquet_reader_open(const pm_env *env, pm_fileio *io, const char *path,
									  const pm_format_read_options *options,
									  pm_format_reader **out, pm_error *err);

/*
 * The footer of an open Parquet file, decoded into arena (through the
 * metadata cache, common/meta_cache.h); *file_size gets the file's size.
 * The error's path is left to the caller.
 */
extern pm_code pm_parquet_read_metadata(pm_fileio *io, pm_file *file, const char *path,
										pm_arena *arena, uint64_t *file_size,
										pm_pq_metadata *md, pm_error *err);

#endif
