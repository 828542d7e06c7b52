/*-------------------------------------------------------------------------
 * schema.h
 *	  A Paimon table schema (schema/schema-N JSON files).
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §3;
 * apache/paimon paimon-api schema/SchemaSerializer.java, TableSchema.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SCHEMA_H
#define PM_TABLE_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "io/fileio.h"

typedef struct pm_schema
{
	int64_t		id;
	int			version;
	const pm_type *row_type;	/* ROW of the table's columns, with field ids */
	/*
	 * "defaultValue" of each top-level field (row_type->nfields entries,
	 * NULL = none), or NULL if no field has one. Default values of nested
	 * ROW fields are not kept.
	 */
	const char **default_values;
	int			npartition_keys;
	const char **partition_keys;
	int			nprimary_keys;
	const char **primary_keys;
	int			noptions;
	const char **option_keys;
	const char **option_values;
	int64_t		highest_field_id;
	const char *comment;		/* NULL if none */
	int64_t		time_millis;
} pm_schema;

/* An option's value as written, or NULL (Java's defaults are the caller's). */
extern const char *pm_schema_option(const pm_schema *schema, const char *key);

/*
 * A boolean option: dflt when unset, else whether it is "true" in any case
 * (Java's OptionsUtils.convertToBoolean). Java refuses a value other than
 * true/false when it reads the option; here such a value reads as false.
 */
extern bool pm_schema_bool_option(const pm_schema *schema, const char *key, bool dflt);

/*
 * Whether an option (dflt when unset; dflt NULL: false when unset) equals
 * value in any case, as Java's enum options read it.
 */
extern bool pm_schema_option_is(const pm_schema *schema, const char *key, const char *dflt,
								const char *value);

/*
 * An int option as Java's Options.get reads it (trailing blanks allowed):
 * dflt when unset; "Could not parse value '<v>' for key '<key>'." when it
 * is not an int.
 */
extern pm_code pm_schema_int_option(const pm_schema *schema, const char *key, int dflt, int *out,
									pm_error *err);

/*
 * A comma list of field names (an option value, or part of an option key)
 * split as Java's String.split(",") does (trailing empty names dropped),
 * each name trimmed as String.trim does when trim, into arena: (*names)[k]
 * the k-th name, (*idx)[k] its index in schema->row_type or -1 when the
 * table has no such field. Fails only when out of memory; reporting an
 * unknown name (in its own words) is the caller's.
 */
extern pm_code pm_schema_field_list(const pm_schema *schema, const char *list, size_t listlen,
									bool trim, pm_arena *arena, const char ***names, int **idx,
									int *n, pm_error *err);

/* Load <table_path>/schema/schema-<id> into arena. */
extern pm_code pm_schema_load(pm_fileio *io, const char *table_path, int64_t id,
							  pm_arena *arena, pm_schema **out, pm_error *err);

/* Load the schema with the highest id (PM_ERR_NOT_FOUND if none). */
extern pm_code pm_schema_load_latest(pm_fileio *io, const char *table_path,
									 pm_arena *arena, pm_schema **out, pm_error *err);

/*
 * Schema JSON as Java 1.4.2's SchemaSerializer writes it (TableSchema:
 * version, id, fields with their types, highestFieldId, partitionKeys,
 * primaryKeys, options, comment, timeMillis), in arena.
 */
extern pm_code pm_schema_to_json(const pm_schema *schema, pm_arena *arena,
								 char **json, size_t *len, pm_error *err);

/* Parse a schema from JSON text (used by _load; exposed for tests and fuzzing). */
extern pm_code pm_schema_parse(const char *json, size_t len, pm_arena *arena,
							   pm_schema **out, pm_error *err);

#endif							/* PM_TABLE_SCHEMA_H */
