/*-------------------------------------------------------------------------
 * avro_reader.h
 *	  Avro object container file reader (see format/format_reader.h for the contract).
 *
 * Reads manifest lists, manifests, index manifests and Avro data files.
 * Requested ROW fields are matched by name against the writer's record
 * fields at every nesting level; absent ones read as NULL, unrequested ones
 * are skipped. Codecs: null, deflate, snappy (CRC checked), zstandard.
 * MAP<K, V> reads Avro maps (string K) and Paimon's arrays of {key, value}
 * records; MULTISET<T> reads the same encodings as its distinct elements
 * (the counts are skipped, as the Parquet reader does). VARIANT is not
 * supported; DECIMAL needs the writer's scale.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_AVRO_AVRO_READER_H
#define PM_FORMAT_AVRO_AVRO_READER_H

#include "format/format_reader.h"

extern pm_code pm_avro_reader_open(const pm_env *env, pm_fileio *io, const char *path,
									  const pm_format_read_options *options,
									  pm_format_reader **out, pm_error *err);

/*
 * The writer schema of an Avro file as a Paimon ROW type, in arena (the
 * inverse of Paimon's AvroSchemaConverter: int+date -> DATE, long +
 * timestamp-millis -> TIMESTAMP(3), local-timestamp-* -> TIMESTAMP_LTZ,
 * bytes+decimal -> DECIMAL, array of {key, value} with logicalType map ->
 * MAP, ["null", T] -> nullable T). Reading a file with this type reads
 * every column. PM_ERR_UNSUPPORTED if the file holds no records.
 */
extern pm_code pm_avro_file_type(const pm_env *env, pm_fileio *io, const char *path,
								 pm_arena *arena, const pm_type **out, pm_error *err);

#endif
