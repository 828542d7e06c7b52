/*-------------------------------------------------------------------------
 * schema_validation.h
 *	  The option checks of Java 1.4.2's SchemaValidation.validateTableSchema
 *	  that table_create.c's key and bucket checks leave out: a table Java
 *	  would refuse to create is refused at paimon_create_table, not at its
 *	  first write.
 *
 * Spec: apache/paimon release-1.4.2 schema/SchemaValidation.java,
 * CoreOptions (snapshot.*, changelog.*, record-level.*), SpecialFields.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_SCHEMA_VALIDATION_H
#define PM_TABLE_SCHEMA_VALIDATION_H

#include "common/arena.h"
#include "common/error.h"
#include "table/schema.h"

/*
 * record-level.time-field: *index = its column (-1 when the option is
 * unset). PM_ERR_INVALID with Java's message when it names no column or a
 * column that is not INT, BIGINT, TIMESTAMP or TIMESTAMP_LTZ (nullable is
 * fine). arena: scratch for the message. The one home of this check
 * (lsm/record_expire.c calls it at write time).
 */
extern pm_code pm_schema_record_time_field(const pm_schema *schema, pm_arena *arena,
										   int *index, pm_error *err);

/*
 * The remaining create-time refusals of validateTableSchema (PM_ERR_INVALID,
 * Java's message): snapshot.num-retained.min >= 1 and <= max, the same of
 * changelog.num-retained.*, record-level.time-field, partition.expiration-time
 * without partition keys, system column names (_SEQUENCE_NUMBER,
 * _VALUE_KIND, _LEVEL, rowkind, _ROW_ID, _KEY_*), first-row's changelog
 * producers, rowkind.field naming a column, deletion vectors with
 * full-compaction changelogs or first-row, sequence.field naming columns
 * once each and not with first-row, upsert-key with a primary key,
 * streaming-read-overwrite with lookup / full-compaction changelogs or
 * without a primary key, table-read.sequence-number.enabled without one.
 */
extern pm_code pm_schema_validate_options(const pm_schema *schema, pm_error *err);

#endif							/* PM_TABLE_SCHEMA_VALIDATION_H */
