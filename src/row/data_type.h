/*-------------------------------------------------------------------------
 * data_type.h
 *	  Paimon data types in their schema-file form: JSON and type strings.
 *
 * Atomic types are strings ("INT NOT NULL", "DECIMAL(5, 2)",
 * "TIMESTAMP(6) WITH LOCAL TIME ZONE"); nested types are JSON objects
 * ({"type": "ARRAY", "element": ...}, MAP key/value, ROW fields with ids).
 * Types outside common/type.h (VECTOR, GEOMETRY, ...) are
 * PM_ERR_UNSUPPORTED.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §3.3-3.4;
 * apache/paimon paimon-api types/DataTypeJsonParser.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_ROW_DATA_TYPE_H
#define PM_ROW_DATA_TYPE_H

#include <jansson.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/json_out.h"
#include "common/type.h"

/*
 * Parse a type string (atomic, or the SQL-ish nested forms ARRAY<t>,
 * MAP<k, v>, MULTISET<t>, ROW<name t, ...> whose ROW fields get ids 0..n-1).
 */
extern pm_code pm_data_type_parse(const char *text, pm_arena *arena,
								  const pm_type **out, pm_error *err);

/* Parse a schema-file type: a string or a nested-type object. */
extern pm_code pm_data_type_from_json(const json_t *json, pm_arena *arena,
									  const pm_type **out, pm_error *err);

/* Parse one DataField object {"id", "name", "type", "description"?}. */
extern pm_code pm_data_field_from_json(const json_t *json, pm_arena *arena,
									   pm_field *out, pm_error *err);

/* Largest field id in a ROW type, nested ROW fields included (-1 if none). */
extern int32_t pm_data_type_max_field_id(const pm_type *type);

/* SQL-ish text of a type as Paimon writes it ("DECIMAL(5, 2) NOT NULL"), in arena. */
extern char *pm_data_type_to_string(const pm_type *type, pm_arena *arena);

/*
 * Write a type / a DataField as Java 1.4.2 serializes them into schema
 * files: atomic types as their SQL string, ARRAY/MULTISET {"type",
 * "element"}, MAP {"type", "key", "value"}, ROW {"type", "fields"} with
 * "... NOT NULL" in "type" when not nullable; a field is {"id", "name",
 * "type", "description"?, "defaultValue"?} (DataType/ArrayType/MapType/
 * MultisetType/RowType/DataField.serializeJson).
 */
extern void pm_data_type_write_json(pm_json_out *out, const pm_type *type);
extern void pm_data_field_write_json(pm_json_out *out, const pm_field *field,
									 const char *default_value);

#endif							/* PM_ROW_DATA_TYPE_H */
