/*-------------------------------------------------------------------------
 * key_range_split.h
 *	  Cut one bucket of a primary-key table into key ranges, so that the
 *	  participants of a parallel scan can merge parts of one bucket.
 *
 * A bucket's sorted runs all hold keys of the same key space. Cutting it at
 * values c_0 < c_1 < ... of the first trimmed key field gives the ranges
 * [-inf, c_0), [c_0, c_1), ..., [c_last, +inf): every record of a key has
 * the same first key field, so all of a key's records, from every run,
 * fall in one range, and merging each range alone gives exactly the rows
 * of merging the bucket, range by range in key order. Any cut values are
 * correct; the pieces of the files (split.h, pm_data_file_key_pieces: the
 * minimum of the first key field per Parquet page or row group, with its
 * row count) place them so that the ranges hold about equal row counts.
 * The cuts depend on the files only, so every process of a parallel scan
 * computes the same ones.
 *
 * Only first key fields whose order in the statistics filter is the
 * merge's key order (integers, DATE, TIME, VARCHAR/STRING) are cut; other
 * buckets stay one range.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_KEY_RANGE_SPLIT_H
#define PM_TABLE_KEY_RANGE_SPLIT_H

#include "common/arena.h"
#include "common/error.h"
#include "common/value.h"
#include "table/predicate.h"
#include "table/split.h"

#define PM_KEY_RANGES_MAX 64

/*
 * A range holds about this many part units (pm_scan_set_part_units) of a
 * bucket's bytes. Each range re-opens the bucket's files, reads their
 * page indexes and dictionary pages and decodes the pages at its edges
 * again: 39 ranges of 8 MB cost the 10M-row bench/run_pk.sh table 30%
 * more CPU than one merge, 10 ranges of 32 MB 5%.
 */
#define PM_KEY_RANGE_UNITS 4

typedef struct pm_key_ranges
{
	int			nranges;		/* ncuts + 1; 1: not cut */
	int			field;			/* table field of the first trimmed key */
	const pm_type *type;		/* its type */
	const pm_value *cuts;		/* nranges - 1 values, ascending, distinct */
} pm_key_ranges;

/* Whether buckets of a first key field of this type may be cut. */
extern bool pm_key_range_type_ok(const pm_type *type);

/*
 * How many ranges a parallel scan wants for split sp: one per
 * PM_KEY_RANGE_UNITS part units (pm_scan_set_part_units) of its files'
 * bytes, at most PM_KEY_RANGES_MAX;
 * 1 when part units are off or the key cannot be cut.
 */
extern int	pm_scan_key_ranges_wanted(const pm_scan *scan, const pm_split *sp);

/*
 * Cut the files (the visible files of one bucket) into at most nwanted
 * ranges of about equal row counts. Everything in arena.
 */
extern pm_code pm_key_ranges_plan(pm_table *table, const pm_data_file_meta *const *files,
								  int nfiles, int nwanted, pm_arena *arena,
								  pm_key_ranges *out, pm_error *err);

/*
 * filter (may be NULL) AND the first key field in range i (range 0: or
 * NULL), for pruning row groups and pages of the range's files; in arena
 * (NULL: out of memory).
 */
extern const pm_predicate *pm_key_range_predicate(pm_arena *arena, const pm_predicate *filter,
												  const pm_key_ranges *kr, int i);

#endif							/* PM_TABLE_KEY_RANGE_SPLIT_H */
