/*-------------------------------------------------------------------------
 * avro_writer.h
 *	  Avro object container file writer (see format/format_writer.h for the
 *	  contract): Avro data files and, through the same interface, manifests
 *	  and manifest lists.
 *
 * The schema is Paimon's AvroSchemaConverter's (release-1.4.2) for the ROW
 * type; records are encoded as Paimon's FieldWriterFactory does; the file
 * as Avro's DataFileWriter writes it (header with avro.schema and
 * avro.codec, a random 16-byte sync marker, blocks of records flushed when
 * the buffered bytes reach the block target, 64000 by default as Avro's
 * DEFAULT_SYNC_INTERVAL). Codecs: "zstd" -> zstandard (zstd_level),
 * "snappy" (with its CRC32), "deflate", "none"/"null" -> null.
 * MULTISET<T> is written as the converter's map from each distinct element
 * to its count (T primitive; a NULL element is PM_ERR_INVALID). Not written
 * (PM_ERR_UNSUPPORTED naming the column): MULTISET of a nested type,
 * VARIANT, BLOB, TIMESTAMP precision above 6, TIME precision above 3 (Java
 * refuses the last two as well), field names Avro does not accept.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_AVRO_AVRO_WRITER_H
#define PM_FORMAT_AVRO_AVRO_WRITER_H

#include "format/format_writer.h"

/* Whether the writer takes this compression name (its open would). */
extern bool pm_avro_writer_takes_compression(const char *name);

extern pm_code pm_avro_writer_open(const pm_env *env, pm_fileio *io, const char *path,
								   const pm_format_write_options *options,
								   pm_format_writer **out, pm_error *err);

/*
 * The Avro schema JSON of a ROW type exactly as Java's Schema.toString()
 * prints AvroSchemaConverter.convertToSchema(type) (compact, record
 * "org.apache.paimon.avro.generated.record"), in arena.
 */
extern pm_code pm_avro_schema_json(const pm_type *row, pm_arena *arena, char **json,
								   pm_error *err);

#endif
