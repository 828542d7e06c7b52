/*-------------------------------------------------------------------------
 * merge_fixture.h
 *	  Hand-built sorted runs for the merge tests (test_merge_*.c).
 *
 * A table is given as schema JSON fields + options; a run as rows of text
 * "key|seq|kind|v1|v2|..." (kind +I -U +U -D; values "null", integers,
 * decimals "1.50", true/false, strings, arrays "[1,2]", maps "{1:2,3:4}").
 * Every table has one INT key "k" (field 0); the row's values are the
 * fields after k, in schema order (k itself is taken from the key). Merged output is rendered the same way, rows
 * joined by ";".
 *-------------------------------------------------------------------------
 */
#ifndef PM_TEST_MERGE_FIXTURE_H
#define PM_TEST_MERGE_FIXTURE_H

#include "common/error.h"
#include "table/schema.h"

/*
 * Merge the runs (NULL-terminated arrays of row strings, runs array
 * NULL-terminated) of a table with fields_json (the JSON array body of
 * "fields" after k) and options_json (object body), reading fields
 * `fields` (NULL: all). row_per_batch puts each row in its own batch.
 * Returns the rendered rows (static buffer) or "ERROR <code>: <message>".
 */
extern const char *merge_fixture_run(const char *fields_json, const char *options_json,
									  const char *const *const *runs, const int *fields,
									  int nfields, bool row_per_batch);

/*
 * Make the next merge_fixture_run read its runs as LSM levels levels[i]
 * (one per run) in lookup mode (pm_merge_reader_set_lookup).
 */
extern void merge_fixture_lookup_levels(const int *levels);

/*
 * Settings for the next merge_fixture_run only:
 *	 reference		merge naively instead of through pm_merge_reader: every
 *					record sorted by key, merge order and run, each key's
 *					records fed to the engine (the oracle of the random tests)
 *	 key_type		type of the key "k" (default "INT NOT NULL")
 *	 batch_rows		rows per input batch (0: as row_per_batch says)
 *	 output_rows	rows per output batch of the reader (default 2)
 *	 kv_output		also render each row's _SEQUENCE_NUMBER and _VALUE_KIND
 * A row written "x<row>" is in its run's deletion vector.
 */
extern void merge_fixture_next(bool reference, const char *key_type, int batch_rows,
							   int output_rows, bool kv_output);

#endif
