/*-------------------------------------------------------------------------
 * parquet_schema.h
 *	  The Paimon type a Parquet file's schema stands for (the inverse of
 *	  Paimon's ParquetSchemaConverter), e.g. for tests, fuzzing and tools
 *	  that read a file without its table schema.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_SCHEMA_H
#define PM_FORMAT_PARQUET_PARQUET_SCHEMA_H

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "format/parquet/parquet_metadata.h"

/*
 * ROW type of the file's top-level columns, in arena. Field ids come from
 * the file when present, else are numbered from 0. PM_ERR_UNSUPPORTED for
 * shapes Paimon never writes (e.g. repeated fields outside LIST/MAP).
 */
extern pm_code pm_pq_schema_to_type(const pm_pq_metadata *md, pm_arena *arena,
									const pm_type **out, pm_error *err);

/* Decode a whole file's footer from memory (buf = the entire file). */
extern pm_code pm_pq_metadata_from_file_bytes(const uint8_t *buf, size_t len, pm_arena *arena,
											  pm_pq_metadata *md, pm_error *err);

#endif							/* PM_FORMAT_PARQUET_PARQUET_SCHEMA_H */
