/*-------------------------------------------------------------------------
 * thrift_compact_write.h
 *	  A minimal writer of the Thrift compact protocol, for Parquet's
 *	  PageHeader, FileMetaData, ColumnIndex and OffsetIndex.
 *
 * The counterpart of thrift_compact.h (whose type codes it uses): fields
 * are written in increasing id order with delta headers, structs end with
 * STOP. Bytes go to a pm_byte_buffer; out-of-memory is sticky there.
 *
 * Spec: apache/thrift doc/specs/thrift-compact-protocol.md; booleans in
 * lists are one byte, 1 = true and 2 = false, as Java's TCompactProtocol
 * writes them.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_THRIFT_COMPACT_WRITE_H
#define PM_FORMAT_PARQUET_THRIFT_COMPACT_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/byte_buffer.h"
#include "format/parquet/thrift_compact.h"

typedef struct pm_thrift_writer
{
	pm_byte_buffer *out;
	int			depth;
	int16_t		last_id[PM_THRIFT_MAX_DEPTH + 1];
} pm_thrift_writer;

/* Start writing a top-level struct into out (appending). */
extern void pm_thrift_writer_init(pm_thrift_writer *w, pm_byte_buffer *out);

/* Field header of a struct member (ids increasing within a struct). */
extern void pm_thrift_write_field(pm_thrift_writer *w, int16_t id, int type);

/* Nested struct as field id (header + enter), and its end (STOP + leave). */
extern void pm_thrift_write_struct_begin(pm_thrift_writer *w, int16_t id);
extern void pm_thrift_write_struct_end(pm_thrift_writer *w);

/* A struct as a list element (no field header). */
extern void pm_thrift_write_elem_struct_begin(pm_thrift_writer *w);

/* STOP of the top-level struct. */
extern void pm_thrift_write_stop(pm_thrift_writer *w);

extern void pm_thrift_write_i32_field(pm_thrift_writer *w, int16_t id, int32_t v);
extern void pm_thrift_write_i64_field(pm_thrift_writer *w, int16_t id, int64_t v);
extern void pm_thrift_write_bool_field(pm_thrift_writer *w, int16_t id, bool v);
extern void pm_thrift_write_byte_field(pm_thrift_writer *w, int16_t id, int8_t v);
extern void pm_thrift_write_binary_field(pm_thrift_writer *w, int16_t id,
										 const void *p, uint32_t len);

/* List header as field id, then the elements with the value writers below. */
extern void pm_thrift_write_list_field(pm_thrift_writer *w, int16_t id, uint32_t count,
									   int elem_type);
extern void pm_thrift_write_i32(pm_thrift_writer *w, int32_t v);
extern void pm_thrift_write_i64(pm_thrift_writer *w, int64_t v);
extern void pm_thrift_write_binary(pm_thrift_writer *w, const void *p, uint32_t len);
extern void pm_thrift_write_bool(pm_thrift_writer *w, bool v);

#endif							/* PM_FORMAT_PARQUET_THRIFT_COMPACT_WRITE_H */
