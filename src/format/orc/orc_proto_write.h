/*-------------------------------------------------------------------------
 * orc_proto_write.h
 *	  A small hand-written protobuf (proto2 wire format) encoder for the ORC
 *	  writer's messages: PostScript, Footer, Metadata, StripeFooter, Type,
 *	  ColumnStatistics.
 *
 * Hand-written because the messages are few and fixed and no protobuf
 * runtime is a dependency of the core (the reader's orc_proto.c decodes
 * them by hand too). Fields go into a pm_byte_buffer in the order the
 * caller writes them; a nested message is built in its own buffer and
 * appended with orc_pb_message. Out-of-memory is the buffer's sticky
 * `failed` flag: callers check once at the end.
 *
 * Spec: Apache ORC orc_proto.proto (field numbers), protobuf encoding
 * (protobuf.dev/programming-guides/encoding).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_PROTO_WRITE_H
#define PM_FORMAT_ORC_ORC_PROTO_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "common/byte_buffer.h"

/* varint field (uint32/uint64/enum/bool) */
extern void orc_pb_uint(pm_byte_buffer *b, int field, uint64_t v);
/* sint32/sint64 field (zig-zag varint) */
extern void orc_pb_sint(pm_byte_buffer *b, int field, int64_t v);
/* double field (fixed64, little-endian) */
extern void orc_pb_double(pm_byte_buffer *b, int field, double v);
/* string/bytes field */
extern void orc_pb_bytes(pm_byte_buffer *b, int field, const void *p, size_t n);
extern void orc_pb_string(pm_byte_buffer *b, int field, const char *s);
/* embedded message field: msg's bytes (msg->failed propagates) */
extern void orc_pb_message(pm_byte_buffer *b, int field, const pm_byte_buffer *msg);
/* packed repeated varint field (nothing written when n == 0) */
extern void orc_pb_packed_uint(pm_byte_buffer *b, int field, const uint64_t *v, int n);

#endif							/* PM_FORMAT_ORC_ORC_PROTO_WRITE_H */
