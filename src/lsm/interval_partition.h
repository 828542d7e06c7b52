/*-------------------------------------------------------------------------
 * interval_partition.h
 *	  Java's IntervalPartition: the data files of a bucket grouped into
 *	  sections of overlapping key ranges.
 *
 * Files are ordered by (_MIN_KEY, _MAX_KEY); a new section starts at a file
 * whose min key is above the largest max key of the section so far (a min
 * key equal to it, a touching range, stays in the section). Every record
 * of a key is thus in one section, and the sections follow each other in
 * key order: merging each section alone gives the bucket's merge.
 *
 *	 pm_interval_partition	order the files, give each its section (and
 *							the number of sorted runs of each)
 *
 * Spec: apache/paimon mergetree/compact/IntervalPartition.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_INTERVAL_PARTITION_H
#define PM_LSM_INTERVAL_PARTITION_H

#include "common/arena.h"
#include "common/error.h"
#include "common/type.h"
#include "table/split.h"

/*
 * Partition files[0..n-1] whose keys are rows of key_type (the trimmed
 * primary key: their _MIN_KEY/_MAX_KEY BinaryRows). order[0..n-1] gets
 * the file indexes in section order (each section's files by min key, then
 * max key), section_end[s] the end (exclusive, in order) of section s, and
 * *nsections their number; section_runs[s], unless section_runs is NULL,
 * the number of sorted runs IntervalPartition.partition packs section s
 * into (a file joins the run whose last max key is the smallest if its min
 * key is above it, else starts a run). Scratch memory from arena. A file
 * without _MIN_KEY/_MAX_KEY: PM_ERR_CORRUPT.
 */
extern pm_code pm_interval_partition(pm_arena *arena, const pm_type *key_type,
									 const pm_data_file_meta *const *files, int n, int *order,
									 int *section_end, int *nsections, int *section_runs,
									 pm_error *err);

#endif							/* PM_LSM_INTERVAL_PARTITION_H */
