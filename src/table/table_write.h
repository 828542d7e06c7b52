/*-------------------------------------------------------------------------
 * table_write.h
 *	  Writing rows into a Paimon table: route each row to its partition and
 *	  bucket, write data files (rolling at target-file-size), and commit
 *	  them as one snapshot; or abort and remove every file written.
 *
 * Append tables (no primary key): bucket -1 (unaware) or a fixed bucket
 * count hashed on bucket-key, as Java's AppendOnlyWriter. Primary-key
 * tables: the LSM writer in src/lsm/ (sorted level-0 files with _KEY_,
 * _SEQUENCE_NUMBER and _VALUE_KIND). Tables and options the writer does not
 * implement are refused at open with PM_ERR_UNSUPPORTED naming them.
 *
 * Spec: ../shared/docs/paimon-format-data.md §1, §4.7; apache/paimon
 * AppendOnlyWriter.java, RowDataRollingFileWriter.java, MergeTreeWriter.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TABLE_WRITE_H
#define PM_TABLE_TABLE_WRITE_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "table/append_dv_write.h"
#include "table/commit.h"
#include "table/schema.h"
#include "table/tag_auto.h"

/* Row kinds as Paimon's RowKind byte values. */
typedef enum pm_row_kind
{
	PM_ROW_INSERT = 0,			/* +I */
	PM_ROW_UPDATE_BEFORE = 1,	/* -U */
	PM_ROW_UPDATE_AFTER = 2,	/* +U */
	PM_ROW_DELETE = 3			/* -D */
} pm_row_kind;

typedef struct pm_table_writer pm_table_writer;

/*
 * A writer for the table at table_path in its latest schema (loaded by the
 * writer). commit_user names this writer in the snapshots it commits.
 */
extern pm_code pm_table_writer_open(const pm_env *env, pm_fileio *io, const char *table_path,
									const char *commit_user, pm_table_writer **out,
									pm_error *err);

/* The schema rows must follow (all columns, in schema order). */
extern const pm_schema *pm_table_writer_schema(const pm_table_writer *writer);

/*
 * Primary-key tables with rowkind.field: the column whose value ('+I',
 * '-U', '+U', '-D', any case) gives each row's kind, as Java's
 * RowKindGenerator; NULL otherwise (append tables too). With rowkind.field
 * pm_table_writer_write ignores the row_kinds it is given (Java ignores
 * the row's own kind), fails the batch with PM_ERR_INVALID for a NULL or
 * other value, and applies the RowKindFilter to the generated kinds, then
 * pm_table_writer_accepts (primary-key tables) or, on append tables,
 * refuses a -U or -D row (PM_ERR_UNSUPPORTED, as Java's append writer).
 */
extern const char *pm_table_writer_rowkind_field(const pm_table_writer *writer);

/*
 * Write a batch of rows (one vector per column of the schema, in the
 * schema's types, common/vector.h layout). row_kinds: one pm_row_kind per
 * row, or NULL for all INSERT (append tables take only INSERT rows:
 * anything else is PM_ERR_UNSUPPORTED). The writer copies what it keeps;
 * the batch can be reused as soon as this returns. After a failure the
 * writer must be aborted.
 */
/*
 * Whether the table takes rows of this kind, before any is written: PM_OK,
 * or PM_ERR_UNSUPPORTED with the reason Java gives (append tables take only
 * INSERT; a first-row table or 'ignore-delete' refuses -U/-D; a
 * partial-update table refuses -D without 'partial-update.remove-record-on-delete'
 * or sequence groups, ...). The FDW calls it when it plans an UPDATE or
 * DELETE, so the error comes before any row is read.
 */
extern pm_code pm_table_writer_accepts(const pm_table_writer *writer, pm_row_kind kind,
									   pm_error *err);

extern pm_code pm_table_writer_write(pm_table_writer *writer, const pm_batch *batch,
									 const uint8_t *row_kinds, pm_error *err);

/*
 * Flush everything and publish one snapshot (commit_identifier increases
 * per commit of this commit_user). *snapshot_id = 0 if nothing was written.
 * Primary-key tables: when another writer committed sequence numbers at or
 * above ours to a bucket since this writer took its numbers (its first
 * write), our files there are renumbered above them first (commit.h's
 * sequence check, lsm/resequence.h), so the later commit wins. The writer
 * stays usable for the next commit. On failure the files of this commit
 * are removed.
 */
extern pm_code pm_table_writer_commit(pm_table_writer *writer, int64_t commit_identifier,
									  int64_t *snapshot_id, pm_error *err);

/*
 * The postpone-bucket compaction of a bucket = -2 primary-key table
 * (lsm/postpone_compact.h), as Flink's CompactAction does it: a writer
 * that routes rows into real buckets as postpone.batch-write-fixed-bucket
 * does, whatever that option says, where a partition without real-bucket
 * files gets postpone.default-bucket-num buckets; and its commit, one
 * COMPACT snapshot that adds the files written and deletes `replaced`
 * (the postpone bucket's files whose rows were written), as
 * PostponeBucketCommittableRewriter and RemovePostponeBucketFilesOperator
 * make it. PM_ERR_CONFLICT when a replaced file is gone (another
 * compaction moved it first); the files written are removed.
 */
extern pm_code pm_table_writer_open_postpone_compaction(const pm_env *env, pm_fileio *io,
														const char *table_path,
														const char *commit_user,
														pm_table_writer **out, pm_error *err);
extern pm_code pm_table_writer_commit_replacing(pm_table_writer *writer,
												int64_t commit_identifier,
												const pm_commit_change *replaced, int nreplaced,
												int64_t *snapshot_id, pm_error *err);

/* What the last commit added (for a log line). */
typedef struct pm_writer_committed
{
	int			buckets;		/* buckets given files */
	int			files;			/* data files added */
} pm_writer_committed;

extern const pm_writer_committed *pm_table_writer_committed(const pm_table_writer *writer);

/*
 * Append tables with deletion vectors (deletes_by_position): DELETE, and
 * the old row of an UPDATE, mark row pos of a data file deleted; the
 * next commit writes the DV index files (table/append_dv_write.h) in the
 * same snapshot as the rows written, an OVERWRITE snapshot as Java's.
 * base_snapshot: the snapshot the row was read from. *again: an earlier
 * call of this commit deleted the row already (pm_append_dv_delete).
 */
extern bool pm_table_writer_deletes_by_position(const pm_table_writer *writer);
extern pm_code pm_table_writer_delete_position(pm_table_writer *writer,
											   const pm_append_dv_file *file, int64_t pos,
											   int64_t base_snapshot, bool *again, pm_error *err);

/*
 * Compaction at commit (primary-key tables, default on): after the APPEND
 * snapshot, each bucket written to is compacted (its files in the snapshot
 * committed) when the table's universal compaction picks runs
 * (lsm/compact.h), committed as a COMPACT snapshot. Append tables with
 * fixed buckets the same way, by append_compact.h's writer pick (5 small
 * files into one by default). Off: level 0 grows until paimon_compact.
 */
extern void pm_table_writer_set_compaction(pm_table_writer *writer, bool enabled);

/* What the last commit compacted. */
typedef struct pm_writer_compaction
{
	int64_t		snapshot_id;	/* the COMPACT snapshot, 0 if none */
	int			buckets;
	int			files_in;
	int			files_out;
	int64_t		rows;
	bool		failed;			/* the COMPACT commit failed (rows are committed) */
	char		message[256];
} pm_writer_compaction;

extern const pm_writer_compaction *pm_table_writer_compaction(const pm_table_writer *writer);

/*
 * The auto tags the last commit made (tag.automatic-creation =
 * process-time, table/tag_auto.h), or why it could not (the rows are
 * committed; the next commit makes the tags missed).
 */
typedef struct pm_writer_tags
{
	pm_tag_auto_result made;
	bool		failed;
	char		message[256];
} pm_writer_tags;

extern const pm_writer_tags *pm_table_writer_tags(const pm_table_writer *writer);

/* Remove every file written since the last commit and free the writer. */
extern void pm_table_writer_abort(pm_table_writer *writer);

/* Free the writer (after a commit; anything uncommitted is removed). */
extern void pm_table_writer_close(pm_table_writer *writer);

/* Java's LocalDateTime.now() as epoch millis (DataFileMeta creation time). */
extern int64_t pm_local_wall_clock_millis(void);

/*
 * Create a new table: write <table_path>/schema/schema-0 as Java's
 * SchemaManager.createTable would for this schema: the field ids of
 * schema->row_type (nested ROW fields included) are ignored and assigned
 * as Java's Schema.Builder does (a column takes the next id, then the
 * fields of its nested ROWs, each after its own nested fields),
 * highestFieldId the last one; the
 * options "primary-key"/"partition" become the key lists; primary-key
 * columns become NOT NULL; options kept as given; timeMillis now.
 * id and version of `schema` are ignored (0 and 3). Validates as Java's
 * Schema/TableSchema/SchemaValidation do where it decides the files
 * (duplicate or unknown key columns, nested key types, primary key equal
 * to the partition keys, bucket / bucket-key rules, merge-engine values,
 * changelog-producer without primary key, fields.<f>.* naming a column):
 * PM_ERR_INVALID with Java's message. PM_ERR_CONFLICT if the table
 * exists (any schema file, or schema-0 published by someone else first).
 */
extern pm_code pm_table_create(const pm_env *env, pm_fileio *io, const char *table_path,
							   const pm_schema *schema, pm_error *err);

#endif							/* PM_TABLE_TABLE_WRITE_H */
