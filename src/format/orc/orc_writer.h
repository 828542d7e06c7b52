/*-------------------------------------------------------------------------
 * orc_writer.h
 *	  ORC writer: Paimon data files as Java 1.4.2's OrcFileFormat writes
 *	  them (see format/format_writer.h for the contract).
 *
 * Schema as OrcTypeUtil.convertToOrcSchema: a root STRUCT of the fields
 * (names as in the table schema, attribute paimon.id = field id); CHAR(n)
 * (values padded with spaces to n characters, as ORC's CharTreeWriter),
 * VARCHAR(n) (values cut at n characters; STRING when unbounded), BINARY/VARBINARY as BINARY, DECIMAL
 * with precision and scale, TIME as INT (milliseconds), TIMESTAMP as
 * TIMESTAMP (the wall clock, writer time zone UTC) and TIMESTAMP_LTZ as
 * TIMESTAMP_INSTANT (the instant; with a UTC writer zone this is both
 * Paimon's legacy and non-legacy encoding). Nested types, VARIANT and BLOB
 * are PM_ERR_UNSUPPORTED.
 *
 * Compression: file.compression (zstd, snappy, lz4, zlib, none), chunks of
 * 256 KiB as ORC's default orc.compress.size. Stripes close at
 * options->row_group_bytes of buffered stream bytes (default 64 MiB,
 * orc.stripe.size). Column statistics (file footer, per-stripe metadata
 * and row index entries): value counts and hasNull for every column,
 * min/max/sum of integers, dates, floating point (in ORC's order: the
 * first value, then < and >, so NaN stays only when it came first),
 * strings (min/max only up to 1024 bytes, as ORC), true counts of
 * booleans, decimal min/max (no sum) and timestamp min/max (UTC millis and
 * nanos). The statistics returned by finish are exact, but FLOAT/DOUBLE
 * min/max follow ORC's order above (what Java's OrcSimpleStatsExtractor
 * reads back from the footer). Row indexes as ORC
 * (options->orc.row_index_stride, default 10000 as orc.row.index.stride):
 * one entry per that many rows of a stripe with
 * its start positions and statistics.
 *
 * Strings (STRING, CHAR, VARCHAR; not binary) as StringBaseTreeWriter:
 * DICTIONARY_V2 (the stripe's distinct values sorted by bytes in
 * DICTIONARY_DATA and LENGTH, each value's id in DATA) unless
 * options->orc.dictionary_threshold <= 0 or the column is in
 * orc.column.encoding.direct; the choice is made once per file at the end
 * of the first row group (or stripe): DIRECT_V2 when the distinct values
 * exceed that fraction of the non-null values. Bloom filters
 * (options->orc.bloom_columns; "*" = every column and the root):
 * BLOOM_FILTER_UTF8 streams after each ROW_INDEX, one filter per row group
 * sized for the stride (rows per group) at orc.bloom.filter.fpp (default 0.01), hashed
 * as ORC's BloomFilterUtf8 (orc_bloom.h); bloomEncoding 1 in the column
 * encoding. Dictionaries and bloom bits equal Java's for the same rows
 * (write_orc_check.sh compares them through Java's ORC reader).
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_ORC_ORC_WRITER_H
#define PM_FORMAT_ORC_ORC_WRITER_H

#include "format/format_writer.h"

/* Whether the writer takes this compression name (its open would). */
extern bool pm_orc_writer_takes_compression(const char *name);

extern pm_code pm_orc_writer_open(const pm_env *env, pm_fileio *io, const char *path,
								  const pm_format_write_options *options,
								  pm_format_writer **out, pm_error *err);

#endif							/* PM_FORMAT_ORC_ORC_WRITER_H */
