/*-------------------------------------------------------------------------
 * thrift_compact.h
 *	  A minimal, bounds-checked reader of the Thrift compact protocol, as
 *	  needed to decode Parquet's FileMetaData and PageHeader.
 *
 * Hand-written: the C Thrift libraries (thrift_c_glib) need GLib, generated
 * code and heap objects per field, and none checks hostile input the way a
 * file reader must. This is a pull parser over (buf, len): every read checks
 * the remaining bytes, nesting depth is limited, and the first error sticks
 * (later reads return zeros), so decoders can read a whole struct and check
 * `t->failed` once.
 *
 * Spec: apache/thrift doc/specs/thrift-compact-protocol.md.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_THRIFT_COMPACT_H
#define PM_FORMAT_PARQUET_THRIFT_COMPACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compact protocol type codes (on disk: never renumber). */
#define PM_TC_STOP			0
#define PM_TC_BOOL_TRUE		1
#define PM_TC_BOOL_FALSE	2
#define PM_TC_BYTE			3
#define PM_TC_I16			4
#define PM_TC_I32			5
#define PM_TC_I64			6
#define PM_TC_DOUBLE		7
#define PM_TC_BINARY		8
#define PM_TC_LIST			9
#define PM_TC_SET			10
#define PM_TC_MAP			11
#define PM_TC_STRUCT		12

#define PM_THRIFT_MAX_DEPTH	32

typedef struct pm_thrift_reader
{
	const uint8_t *p;
	const uint8_t *end;
	int			depth;
	bool		failed;
	const char *why;			/* first failure, static text */
	/* field id stack of the struct being read */
	int16_t		last_id[PM_THRIFT_MAX_DEPTH + 1];
	bool		bool_value;		/* value of the last bool field header */
} pm_thrift_reader;

extern void pm_thrift_init(pm_thrift_reader *t, const uint8_t *buf, size_t len);

/* Record a failure (keeps the first one). Always returns false. */
extern bool pm_thrift_fail(pm_thrift_reader *t, const char *why);

/* Enter / leave a struct (depth limit). */
extern bool pm_thrift_struct_begin(pm_thrift_reader *t);
extern void pm_thrift_struct_end(pm_thrift_reader *t);

/*
 * Next field of the current struct: false at STOP or on failure. For bool
 * fields the value is in t->bool_value (no payload to read).
 */
extern bool pm_thrift_field(pm_thrift_reader *t, int16_t *id, int *type);

/* Skip a value of the given type (recursively, depth-limited). */
extern void pm_thrift_skip(pm_thrift_reader *t, int type);

extern uint64_t pm_thrift_varint(pm_thrift_reader *t);
extern int64_t pm_thrift_i64(pm_thrift_reader *t);
extern int32_t pm_thrift_i32(pm_thrift_reader *t);
extern int8_t pm_thrift_byte(pm_thrift_reader *t);

/* Binary/string: pointer into the buffer and length (not NUL-terminated). */
extern const uint8_t *pm_thrift_binary(pm_thrift_reader *t, uint32_t *len);

/*
 * List (or set) header: element count (checked against the remaining bytes,
 * one byte per element at least, except bools) and element type.
 */
extern bool pm_thrift_list(pm_thrift_reader *t, uint32_t *count, int *elem_type);

/*
 * Integer field of a struct whatever its integer width (byte, i16, i32,
 * i64); other types are skipped and give 0. Range-checked into int32 by
 * the _i32 variant (out of range: failure).
 */
extern int64_t pm_thrift_field_int(pm_thrift_reader *t, int type);
extern int32_t pm_thrift_field_i32(pm_thrift_reader *t, int type);

static inline size_t
pm_thrift_consumed(const pm_thrift_reader *t, const uint8_t *start)
{
	return (size_t) (t->p - start);
}

#endif							/* PM_FORMAT_PARQUET_THRIFT_COMPACT_H */
