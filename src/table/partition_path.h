/*-------------------------------------------------------------------------
 * partition_path.h
 *	  The directory of a partition: "<k1>=<v1>/<k2>=<v2>/" (§1.3).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_PARTITION_PATH_H
#define PM_TABLE_PARTITION_PATH_H

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "common/value.h"
#include "table/schema.h"

/*
 * Relative directory of the partition with values[partition_type->nfields]
 * (with a trailing slash; "" for unpartitioned tables), in arena.
 */
extern pm_code pm_partition_path(const pm_schema *schema, const pm_type *partition_type,
								 const char *default_name, const pm_value *values,
								 pm_arena *arena, char **out, pm_error *err);

#endif							/* PM_TABLE_PARTITION_PATH_H */
