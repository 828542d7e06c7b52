/*-------------------------------------------------------------------------
 * writer_fixture.h
 *	  The round trip the format writer tests share (test_orc_writer.c,
 *	  test_avro_writer.c): batches of every flat type with NULLs and
 *	  extremes, written through pm_format_writer, read back with the
 *	  format's reader and compared value for value.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TEST_WRITER_FIXTURE_H
#define PM_TEST_WRITER_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/format_reader.h"
#include "format/format_writer.h"
#include "io/fileio.h"

/* A Paimon type string parsed (the test fails if it does not parse). */
extern const pm_type *writer_fixture_parse_type(pm_arena *a, const char *text);

/*
 * Value i of a equal to value j of b (of type t, nested types too); why
 * says how they differ when it can.
 */
extern bool writer_fixture_value_equal(const pm_type *t, const pm_vector *a, int64_t i,
									   const pm_vector *b, int64_t j, char *why,
									   size_t whylen);

/*
 * n rows of the flat ROW type `row` from `seed`: every 5th value an
 * extreme, every 7th (from the 4th) NULL where nullable; a column named
 * "allnull" all NULL, one named "konst" always 42; timestamps within
 * +-71 years (precision > 6 with nanos), strings of up to 40 characters.
 */
extern void writer_fixture_fill_flat(pm_batch *batch, const pm_type *row, int64_t n,
									 pm_arena *a, uint64_t seed);

/*
 * Write the batches to path in `format` (block_bytes: row group / block /
 * stripe target, 0 = default; orc: ORC options or NULL); res may be NULL.
 */
extern void writer_fixture_write(pm_file_format format, pm_fileio *io, const char *path,
								 const pm_type *row, const char *codec, int64_t block_bytes,
								 const pm_orc_write_options *orc, pm_batch *batches,
								 int nbatches, pm_format_write_result *res, pm_arena *a);

/*
 * Read path back with the format's reader (batches of 300 rows) and
 * compare it with the batches row for row; the number of rows read.
 */
extern int64_t writer_fixture_read_back(pm_file_format format, pm_fileio *io, const char *path,
										const pm_type *row, pm_batch *batches, int nbatches,
										const char *label);

/*
 * MULTISET columns with repeated elements (ms MULTISET<STRING>, every 5th
 * NULL; mi MULTISET<INT NOT NULL> NOT NULL, some empty) written to path in
 * `format`, read back with each element as often as written, equal ones
 * together in order of first occurrence; what is read, written again to
 * path2 (as a compaction does), reads back the same (orc: ORC options
 * or NULL). The rows: id i; ms NULL where i % 5 == 0, else i % 6 elements
 * "x" + (i + j * j) % 3; mi i % 7 elements (i * j + j / 2) % 3 - 1.
 */
extern void writer_fixture_multiset_round_trip(pm_file_format format, pm_fileio *io,
											   const char *path, const char *path2,
											   const pm_orc_write_options *orc,
											   pm_arena *a);

#endif							/* PM_TEST_WRITER_FIXTURE_H */
