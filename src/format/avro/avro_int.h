/*-------------------------------------------------------------------------
 * avro_int.h
 *	  Internals shared by the files of the Avro reader (not for other layers).
 *
 * avro_schema.c turns the writer schema (the JSON in the file's "avro.schema"
 * metadata) into a graph of pm_avro_schema nodes; avro_decode.c compiles a
 * decode plan from (writer schema x requested pm_type) and runs it over the
 * bytes of a block; avro_reader.c handles the object container (header,
 * blocks, codecs, sync markers) and the pm_format_reader interface.
 *
 * Spec: Apache Avro 1.11 specification, "Binary Encoding" and "Object
 * Container Files"; apache/paimon paimon-format .../format/avro/
 * AvroSchemaConverter.java, FieldReaderFactory.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_AVRO_AVRO_INT_H
#define PM_FORMAT_AVRO_AVRO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"

/* Deepest nesting of schemas we accept (JSON and data alike). */
#define PM_AVRO_MAX_DEPTH	64

typedef enum pm_avro_kind
{
	PM_AVRO_NULL = 0,
	PM_AVRO_BOOLEAN,
	PM_AVRO_INT,
	PM_AVRO_LONG,
	PM_AVRO_FLOAT,
	PM_AVRO_DOUBLE,
	PM_AVRO_BYTES,
	PM_AVRO_STRING,
	PM_AVRO_RECORD,
	PM_AVRO_ENUM,
	PM_AVRO_ARRAY,
	PM_AVRO_MAP,
	PM_AVRO_UNION,
	PM_AVRO_FIXED
} pm_avro_kind;

typedef enum pm_avro_logical
{
	PM_AVRO_LT_NONE = 0,
	PM_AVRO_LT_DATE,			/* int */
	PM_AVRO_LT_TIME_MILLIS,		/* int */
	PM_AVRO_LT_TIME_MICROS,		/* long */
	PM_AVRO_LT_TIMESTAMP_MILLIS,	/* long, also local-timestamp-millis */
	PM_AVRO_LT_TIMESTAMP_MICROS,	/* long, also local-timestamp-micros */
	PM_AVRO_LT_TIMESTAMP_NANOS, /* long, also local-timestamp-nanos */
	PM_AVRO_LT_DECIMAL,			/* bytes or fixed */
	PM_AVRO_LT_MAP				/* array of {key, value} records (Paimon) */
} pm_avro_logical;

typedef struct pm_avro_schema pm_avro_schema;

/*
 * One writer-schema node. Named types referenced twice (or recursively) are
 * the same node, so the graph may have cycles: walk it with a depth bound.
 */
struct pm_avro_schema
{
	pm_avro_kind kind;
	pm_avro_logical logical;
	bool		local;			/* local-timestamp-* (vs timestamp-*) */
	int32_t		precision;		/* decimal */
	int32_t		scale;			/* decimal */
	int32_t		size;			/* fixed: bytes per value */
	const char *name;			/* full name of record/enum/fixed, else NULL */
	int			nchildren;		/* record fields, union branches, 1 for array/map */
	pm_avro_schema **children;	/* array: items, map: values */
	const char **names;			/* record: field names; enum: symbols */
	int			nsymbols;		/* enum */
	int32_t		min_size;		/* lower bound of the encoded size in bytes */
};

/*
 * Parse the writer schema JSON (json, len bytes) into nodes in arena.
 * PM_ERR_CORRUPT for invalid JSON or an invalid schema.
 */
extern pm_code pm_avro_schema_parse(const char *json, size_t len, pm_arena *arena,
									pm_avro_schema **out, pm_error *err);

/*
 * The Paimon ROW type of the records of a writer schema (the inverse of
 * Paimon's AvroSchemaConverter), in arena. Recursive records are cut off
 * below a fixed depth. PM_ERR_UNSUPPORTED if the file does not hold records.
 */
extern pm_code pm_avro_schema_to_type(const pm_avro_schema *schema, pm_arena *arena,
									  const pm_type **out, pm_error *err);

/* Printable name of a node's kind ("record", "long", ...). */
extern const char *pm_avro_kind_name(pm_avro_kind kind);

/*
 * A decode plan: writer schema x requested ROW type, compiled once per file.
 * Built in arena; bound to fresh vectors for every batch.
 */
typedef struct pm_avro_plan pm_avro_plan;

/*
 * Compile the plan reading records of `writer` as rows of `request` (a ROW).
 * PM_ERR_UNSUPPORTED (naming the column) when a requested field cannot be
 * read as its requested type.
 */
extern pm_code pm_avro_plan_compile(const pm_avro_schema *writer, const pm_type *request,
									pm_arena *arena, pm_avro_plan **out, pm_error *err);

/*
 * Start a batch: allocate the vectors of the requested columns for up to
 * capacity rows in batch_arena; *cols receives the ROW vector whose children
 * are the columns.
 */
extern pm_code pm_avro_plan_begin_batch(pm_avro_plan *plan, int64_t capacity,
										pm_arena *batch_arena, pm_vector **root,
										pm_error *err);

/*
 * After the last row of a batch: each MULTISET, read as Java's map of
 * element to count, made the list of its elements, each repeated count times.
 */
extern pm_code pm_avro_plan_end_batch(pm_avro_plan *plan, pm_error *err);

/*
 * Decode one record from [*pos, end) into the current batch, advancing *pos.
 * PM_ERR_CORRUPT for bytes that contradict the schema or run past end.
 */
extern pm_code pm_avro_plan_decode_row(pm_avro_plan *plan, const uint8_t **pos,
									   const uint8_t *end, pm_error *err);

/* Zig-zag varint long at *pos (advancing it); false if truncated or invalid. */
static inline bool
pm_avro_read_long(const uint8_t **pos, const uint8_t *end, int64_t *out)
{
	const uint8_t *p = *pos;
	uint64_t	v = 0;
	int			shift = 0;

	for (;;)
	{
		uint8_t		b;

		if (p >= end)
			return false;
		b = *p++;
		if (shift == 63 && (b & 0xfe) != 0)
			return false;		/* more than 64 bits */
		v |= (uint64_t) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			break;
		shift += 7;
		if (shift > 63)
			return false;
	}
	*pos = p;
	*out = (int64_t) ((v >> 1) ^ (~(v & 1) + 1));
	return true;
}

#endif							/* PM_FORMAT_AVRO_AVRO_INT_H */
