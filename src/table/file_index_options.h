/*-------------------------------------------------------------------------
 * file_index_options.h
 *	  Which file indexes a table's options ask the writer for, as Java
 *	  1.4.2's FileIndexOptions reads them: file-index.<kind>.columns
 *	  (comma list), file-index.<kind>.<column>.<option> (bloom-filter
 *	  items/fpp, bitmap version/index-block-size, range-bitmap chunk-size)
 *	  and file-index.in-manifest-threshold (default 500 bytes).
 *
 * Errors as Java's writer raises them (PM_ERR_INVALID): an empty column in
 * a list, a column the table does not have, an option for a (column,
 * kind) no columns option names, a type the kind cannot index, values
 * that do not parse (range-bitmap on DECIMAL(p > 18): Java's
 * DecimalKeyFactory message). Refused by name (PM_ERR_UNSUPPORTED): map-key
 * columns ("col[key]"), which Java writes and this writer does not; any
 * other kind Java has no indexer for is invalid.
 * "bsi" has no per-column options.
 *
 * Spec: paimon-api fileindex/FileIndexOptions.java, paimon-core
 * io/DataFileIndexWriter.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_FILE_INDEX_OPTIONS_H
#define PM_TABLE_FILE_INDEX_OPTIONS_H

#include "common/arena.h"
#include "common/error.h"
#include "index/file_index_write.h"
#include "table/schema.h"

/*
 * The plan for data files whose indexed rows are the schema's fields
 * (append files, and the value part of KeyValue files); *out NULL when
 * the options name no index. All in arena.
 */
extern pm_code pm_file_index_plan_of_schema(const pm_schema *schema, pm_arena *arena,
											const pm_file_index_plan **out, pm_error *err);

#endif							/* PM_TABLE_FILE_INDEX_OPTIONS_H */
