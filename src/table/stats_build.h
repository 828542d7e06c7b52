/*-------------------------------------------------------------------------
 * stats_build.h
 *	  The manifest's value statistics (SimpleStats) of a written data file,
 *	  from the format writer's per-column statistics, as Java 1.4.2 records
 *	  them for Parquet data files.
 *
 * Per column a mode (StatsCollectorFactories.createStatsFactories):
 * fields.<f>.stats-mode if set; else truncate(128) for system field names
 * (_KEY_*, _SEQUENCE_NUMBER, _VALUE_KIND, _LEVEL, rowkind, _ROW_ID); else
 * none once metadata.stats-keep-first-n-columns columns have a mode; else
 * metadata.stats-mode (default truncate(16)).
 *
 * What the Parquet footer gives Java (ParquetSimpleStatsExtractor): no
 * statistics at all for nested columns (their leaf paths never match the
 * field name: the column is "none" whatever the mode); null min/max for
 * BINARY/VARBINARY, VARIANT/BLOB, TIMESTAMP(p > 6) (INT96) and for columns
 * without a non-null value; the mode then converts (collector.convert):
 * none drops everything, counts keeps the null count, truncate(n) cuts
 * strings to n code points (max: last code point incremented, or null
 * min/max when impossible), full keeps the values.
 *
 * FLOAT/DOUBLE with NaN: parquet-mr 1.16 (Java 1.4.2) orders NaN above
 * every number (Float/Double.compare): max NaN if any value is NaN, min the
 * smallest number (NaN if all are NaN), in the footer and so in the
 * manifest; SimpleStatsCollector (Avro) the same by Float/Double.compareTo.
 * The format writers report these bounds (format_writer.h) and they are
 * recorded as they are.
 *
 * Avro data files (RollingFileWriter.createStatsProducer: SimpleStatsCollector
 * over every record): values that are not Comparable in Java (BINARY/
 * VARBINARY, ARRAY/MAP/MULTISET/ROW, VARIANT) keep only their null count
 * (not "none"); all other types their min/max, TIMESTAMP(p > 6) included.
 * Collecting with truncate(n) gives the same bounds as truncating the
 * exact min/max (truncation is monotone, and a max that cannot be
 * truncated fails either way). All modes none: every column "none".
 *
 * Dense store (metadata.stats-dense-store, default true; SimpleStatsConverter):
 * "none" columns are left out and _VALUE_STATS_COLS names the kept ones
 * (NULL when all are kept).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_STATS_BUILD_H
#define PM_TABLE_STATS_BUILD_H

#include <stdbool.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "format/format_writer.h"
#include "table/schema.h"
#include "table/split.h"

typedef enum pm_stats_mode_kind
{
	PM_STATS_MODE_NONE,
	PM_STATS_MODE_COUNTS,
	PM_STATS_MODE_TRUNCATE,
	PM_STATS_MODE_FULL
} pm_stats_mode_kind;

typedef struct pm_stats_mode
{
	pm_stats_mode_kind kind;
	int			truncate_length;	/* TRUNCATE only, > 0 */
} pm_stats_mode;

/* Parse "none" / "counts" / "full" / "truncate(<n>)" (any case), as Java. */
extern pm_code pm_stats_mode_parse(const char *text, pm_stats_mode *out, pm_error *err);

/* The value-stats mode of every field of schema->row_type (in arena). */
extern pm_code pm_stats_modes_of_schema(const pm_schema *schema, pm_arena *arena,
										pm_stats_mode **modes, pm_error *err);

/*
 * The stats mode of every field of `row` (the columns a data file is
 * written with, e.g. a KeyValue file's _KEY_<pk>, _SEQUENCE_NUMBER,
 * _VALUE_KIND and value columns) under schema's options: Java's
 * StatsCollectorFactories.createStatsFactories, or, for Avro data files,
 * createStatsFactoriesForAvro (no truncate(128) for system fields, every
 * column counted for metadata.stats-keep-first-n-columns).
 */
extern pm_code pm_stats_modes_of_fields(const pm_schema *schema, const pm_type *row, bool avro,
										pm_arena *arena, pm_stats_mode **modes,
										pm_error *err);

/*
 * The same with default_mode (a metadata.stats-mode.per.level value) in
 * place of metadata.stats-mode; fields.<f>.stats-mode still wins. NULL:
 * metadata.stats-mode. thin_keys (NULL: none): the _KEY_ fields of a
 * thin-mode KeyValue file, whose value columns then take truncate(128)
 * uncounted, as system fields do (not in Avro files).
 */
extern pm_code pm_stats_modes_of_fields_with(const pm_schema *schema, const pm_type *row,
											 bool avro, const char *default_mode,
											 const pm_type *thin_keys, pm_arena *arena,
											 pm_stats_mode **modes, pm_error *err);

/*
 * Build the value stats of one data file (PARQUET, AVRO or ORC) whose columns
 * are row_type's fields: out->min/max rows and null counts, and the dense
 * column list (*nstats_cols = -1 and *stats_cols NULL when all columns are
 * kept). All in arena.
 */
extern pm_code pm_value_stats_build(const pm_type *row_type, const pm_stats_mode *modes,
									bool dense, pm_file_format format,
									const pm_column_stats *columns, pm_arena *arena,
									pm_simple_stats *out, const char ***stats_cols,
									int *nstats_cols, pm_error *err);

/*
 * Java's TruncateSimpleColStatsCollector on a UTF-8 string: the min bound
 * (first n code points) and the max bound (unchanged if it has at most n
 * code points; else the prefix with its last incrementable code point
 * incremented and what follows it dropped; *max_ok false when none can
 * be). Results point into s or into arena.
 */
extern bool pm_stats_truncate_string(const uint8_t *s, int32_t len, int n, pm_arena *arena,
									 const uint8_t **min, int32_t *min_len,
									 const uint8_t **max, int32_t *max_len, bool *max_ok);

#endif							/* PM_TABLE_STATS_BUILD_H */
