/*-------------------------------------------------------------------------
 * orc_reader.h
 *	  ORC reader: Paimon data files and ORC manifests / manifest lists
 *	  (see format/format_reader.h for the contract).
 *
 * Columns are matched by exact name against the file's struct field names,
 * nested ROW fields too (ORC's default case-sensitive schema evolution);
 * absent fields read as NULL at every nesting level. Integer kinds widen or
 * narrow to the requested integer type, FLOAT reads as DOUBLE, decimals are
 * rescaled HALF_UP to the requested scale and read as NULL beyond its
 * precision (as Paimon's Decimal.fromBigDecimal).
 *
 * Timestamps reproduce Java (ORC TimestampTreeReader + Paimon
 * OrcTimestampColumnVector): TIMESTAMP columns give the writer's wall clock
 * (stripe footer writerTimezone); options->orc_reader_timezone is the JVM
 * zone Java would read in (NULL = UTC), which changes results only around
 * DST gaps. TIMESTAMP_LTZ gives the instant: from a TIMESTAMP_INSTANT
 * column as the table option says (options->orc_ltz_instant: the stored
 * value is the instant; else Paimon's default legacy encoding, read with the
 * writer's zone as the JVM zone unless a reader zone is given); from a
 * TIMESTAMP column (Paimon < 0.7) always the stored wall clock as UTC.
 * Nanoseconds are kept when the requested precision is above 6.
 *
 * Per stripe, only the streams of requested columns are read, with one
 * pm_file_read_ranges call. Batches never span stripes.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_READER_H
#define PM_FORMAT_ORC_ORC_READER_H

#include "format/format_reader.h"

extern pm_code pm_orc_reader_open(const pm_env *env, pm_fileio *io, const char *path,
									  const pm_format_read_options *options,
									  pm_format_reader **out, pm_error *err);

#endif
