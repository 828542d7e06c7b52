/*-------------------------------------------------------------------------
 * record_expire.h
 *	  Record-level expiry of primary-key tables (record-level.expire-time,
 *	  record-level.time-field), as Java's RecordLevelExpire: applied by
 *	  compaction only, never by a read.
 *
 * The time field's value in seconds: INT as is; BIGINT as is, divided by
 * 1000 (toward zero) when at least 10^12 (milliseconds); TIMESTAMP and
 * TIMESTAMP_LTZ the stored epoch milliseconds (floor) divided by 1000
 * toward zero: no time zone is involved (Java's Timestamp.getMillisecond
 * of either type). NULL never expires. With E the expire time in whole
 * seconds (Duration.getSeconds) and now the wall clock in seconds:
 *	 - a record read by compaction is dropped when now > t + E, before it
 *	   is merged (RecordLevelExpire.wrap on the compaction's reader);
 *	 - a file "has expired records" when now - E > the min of the field in
 *	   its value statistics (evolved to the table schema): such a file is
 *	   rewritten where compaction would only upgrade it
 *	   (MergeTreeCompactTask.upgrade), and a bucket that is one run at the
 *	   max level rewrites those files in a full compaction
 *	   (CompactStrategy.pickFullCompaction).
 * Arithmetic wraps as Java's long does.
 *
 * Spec: apache/paimon release-1.4.2 io/RecordLevelExpire.java,
 * schema/SchemaValidation.java, CoreOptions RECORD_LEVEL_*.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_RECORD_EXPIRE_H
#define PM_LSM_RECORD_EXPIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/vector.h"
#include "index/deletion_vector.h"
#include "table/schema.h"
#include "table/split.h"

typedef struct pm_record_expire
{
	int64_t		expire_seconds; /* E */
	int			field;			/* index of the time field in the table row */
	pm_type_id	type;			/* INT, BIGINT, TIMESTAMP or TIMESTAMP_LTZ */
} pm_record_expire;

/*
 * The expiry of a table schema: *out = NULL without record-level.expire-time.
 * PM_ERR_INVALID as Java refuses it: a bad duration, no
 * record-level.time-field, a time field that is not a column or not INT,
 * BIGINT, TIMESTAMP or TIMESTAMP_LTZ (Java checks the time field even
 * without an expire time: so does this).
 */
extern pm_code pm_record_expire_create(const pm_schema *schema, pm_arena *arena,
									   pm_record_expire **out, pm_error *err);

/* A primary-key writer's check (write_option_rules.c): the refusals of pm_record_expire_create. */
extern pm_code pm_record_expire_check(const pm_schema *schema, pm_error *err);

/* The wall clock in seconds (System.currentTimeMillis() / 1000). */
extern int64_t pm_record_expire_now(void);

/* The time of value row of col (the time field's vector) in seconds; false for NULL. */
extern bool pm_record_expire_seconds(const pm_record_expire *re, const pm_vector *col,
									 int64_t row, int64_t *seconds);

/* Whether a record whose time field is value row of col is dropped at now. */
extern bool pm_record_expire_row(const pm_record_expire *re, const pm_vector *col, int64_t row,
								 int64_t now);

/*
 * RecordLevelExpire.isExpireFile: whether file's statistics say it holds
 * records expired at now (table: the table the file belongs to, opened
 * at the schema re was made from; arena: scratch).
 */
extern pm_code pm_record_expire_file(const pm_record_expire *re, pm_table *table,
									 const pm_data_file_meta *file, int64_t now,
									 pm_arena *arena, bool *expired, pm_error *err);

/*
 * The rows of in whose column col is not expired at now, and (dv not
 * NULL) whose file position batch->first_row + i is not in dv: *out = in
 * when none is left out, else a batch built in arena (first_row kept; row
 * positions are then no longer those of the file, so a merge must get the
 * deletion vector applied here). *dropped counts the expired rows left out.
 */
extern pm_code pm_record_expire_filter(const pm_record_expire *re, int col,
									   const pm_deletion_vector *dv, pm_batch *in,
									   int64_t now, pm_arena *arena, pm_batch **out,
									   int64_t *dropped, pm_error *err);

/*
 * The next batch of reader with rows left after pm_record_expire_filter
 * (batches of nothing but left-out rows are skipped), or *out = NULL at
 * the end. scratch is reset first: the batch before is gone then.
 * *expired grows by the expired rows left out.
 */
extern pm_code pm_record_expire_next(const pm_record_expire *re, int col,
									 const pm_deletion_vector *dv,
									 pm_data_file_reader *reader, int64_t now,
									 pm_arena *scratch, pm_batch **out, int64_t *expired,
									 pm_error *err);

#endif							/* PM_LSM_RECORD_EXPIRE_H */
