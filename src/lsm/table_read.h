/*-------------------------------------------------------------------------
 * table_read.h
 *	  The read facade src/fdw/ calls: rows of a planned scan, merged.
 *
 * For append tables this is the table layer's pm_scan_reader_* (or, when
 * their files carry deletion vectors, a plain read with the DVs applied).
 * For primary-key tables each split (bucket) is read raw when Java would
 * (no level-0 file and no retract rows, ...; DVs applied), else through
 * the LSM merge reader and the table's merge engine (deduplicate,
 * partial-update, aggregation, first-row), DVs applied per file; -U/-D
 * results are dropped. Batches carry one vector per requested field, in
 * table types, exactly like pm_scan_reader_next; rows come split by split
 * in plan order, in key order within a merged split.
 *
 * Errors a merge can raise mid-scan (PM_ERR_INVALID): what Java raises too,
 * e.g. a DELETE record reaching a partial-update table without
 * ignore-delete, integer overflow in sum, retraction of a function that
 * has none. Unimplemented aggregate functions (rbm64, sketches) are
 * PM_ERR_UNSUPPORTED at open, only when their column is read.
 *
 *	 pm_table_read_open		start reading `fields` of a planned scan
 *	 pm_table_read_next		next batch, *batch = NULL at the end
 *	 pm_table_read_close	release everything (safe on NULL)
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_TABLE_READ_H
#define PM_LSM_TABLE_READ_H

#include "common/error.h"
#include "common/vector.h"
#include "table/split.h"
#include "table/table.h"

typedef struct pm_table_read pm_table_read;

/*
 * Open a read of the projected table fields (indexes into the schema's
 * fields, in the order wanted; nfields may be 0: batches then carry only
 * nrows). The scan must outlive the read.
 */
extern pm_code pm_table_read_open(pm_scan *scan, const int *fields, int nfields,
								  pm_table_read **out, pm_error *err);
/* Next batch, or *batch = NULL at the end; valid until the next call. */
extern pm_code pm_table_read_next(pm_table_read *read, pm_batch **batch, pm_error *err);
extern void pm_table_read_close(pm_table_read *read);

/*
 * Reads in key order. pm_table_read_order_key gives the table field whose
 * values order the rows: the single trimmed primary key field, of an
 * integer type (TINYINT to BIGINT), of a primary-key table; -1 if there is
 * none. pm_table_read_open_ordered opens a read like pm_table_read_open's
 * whose rows come in that field's ascending order: each split is merged
 * (never read raw, which concatenates files), and the splits' reads are
 * merged by the key (key_order_merge.h), all open at once. The field must
 * be among `fields` (PM_ERR_UNSUPPORTED otherwise). Rows of equal keys
 * (partitions: the trimmed key leaves out the partition fields) come in
 * no particular order.
 */
extern int	pm_table_read_order_key(pm_scan *scan);
extern pm_code pm_table_read_open_ordered(pm_scan *scan, const int *fields, int nfields,
										  pm_table_read **out, pm_error *err);

/*
 * Row positions (append tables; PM_ERR_UNSUPPORTED for primary-key
 * tables): a read as pm_table_read_open's, every file read as it is with
 * its deletion vector applied, in which pm_table_read_positions gives the
 * rows of the last batch their data file (and its split) and their
 * positions in that file (after the DV: the positions of the rows kept).
 * Valid until the next _next call. UPDATE and DELETE of append tables with
 * deletion vectors mark those positions deleted.
 */
extern pm_code pm_table_read_open_positions(pm_scan *scan, const int *fields, int nfields,
											pm_table_read **out, pm_error *err);
extern const int64_t *pm_table_read_positions(const pm_table_read *read, const pm_split **split,
											  const pm_data_file_meta **file);

/*
 * Where the rows of the last batch came from, for messages: the local path
 * of a data file, or, for rows merged from the files of one bucket
 * (*merged = true), that bucket's directory. NULL before the first batch.
 */
extern const char *pm_table_read_source(const pm_table_read *read, bool *merged);

/*
 * Primary-key tables: the split (partition, bucket) the rows of the last
 * batch came from; NULL for append tables and before the first batch.
 */
extern const struct pm_split *pm_table_read_split(const pm_table_read *read);

/*
 * Parallel reads: read only the units of work (a file read as is, a split
 * merged) that fn claims; see pm_unit_claim_fn in table/table.h. Set before
 * the first _next call.
 */
extern void pm_table_read_set_claim(pm_table_read *read, pm_unit_claim_fn fn, void *ctx);

/*
 * In a parallel read (claim set, pm_scan_set_part_units on), a merged
 * split of more than PM_KEY_RANGE_UNITS part units' bytes is cut into key ranges
 * (table/key_range_split.h), each a unit merged alone: this many ranges
 * so far, over the splits this process has passed (0: none cut).
 */
extern int64_t pm_table_read_key_ranges(const pm_table_read *read);

/*
 * Merged splits are read section by section (key-disjoint groups of files,
 * Java's IntervalPartition) when on (the default); off: every file of a
 * split in one merge. Process-wide, read at pm_table_read_open; for tests
 * and comparisons (both give the same rows).
 */
extern void pm_table_read_merge_sections(bool on);

#endif							/* PM_LSM_TABLE_READ_H */
