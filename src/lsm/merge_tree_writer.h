/*-------------------------------------------------------------------------
 * merge_tree_writer.h
 *	  The writer of one bucket of a primary-key table (Java's
 *	  MergeTreeWriter without compaction): numbers each record with the
 *	  bucket's next sequence number (restored max + 1), buffers it in the
 *	  write buffer, and flushes the buffer as one sorted run of level-0
 *	  files at commit (prepareCommit), or when the writer's memory is needed
 *	  and the table does not spill (write-buffer-spillable = false). Files made since the last commit are kept until the
 *	  commit takes them (or an abort removes them).
 *
 * Postpone mode (bucket = -2 written into the postpone bucket, Java's
 * PostponeBucketWriter with its DirectSinkWriter): records are written as
 * they came, unsorted and unmerged, each with sequence number -1
 * (KeyValue.UNKNOWN_SEQUENCE), through one rolling file writer that stays
 * open until the commit; a spill or a flush for memory writes the buffer's
 * records into it.
 *
 * Spec: apache/paimon release-1.4.2 mergetree/MergeTreeWriter.java
 * (write, flushWriteBuffer, prepareCommit), postpone/PostponeBucketWriter.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_MERGE_TREE_WRITER_H
#define PM_LSM_MERGE_TREE_WRITER_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "lsm/kv_file_writer.h"
#include "lsm/merge_engine.h"
#include "table/split.h"

typedef struct pm_merge_tree_writer pm_merge_tree_writer;

/*
 * A writer for the bucket directory dir, file names from uuid, sequence
 * numbers from next_seq on. engine as for pm_write_buffer_create.
 */
extern pm_code pm_merge_tree_writer_open(const pm_env *env, pm_fileio *io,
										 const pm_kv_layout *layout, pm_merge_engine *engine,
										 pm_merge_engine *run_engine, const char *spill_dir,
										 const char *dir, const char *uuid, int64_t next_seq,
										 pm_merge_tree_writer **out, pm_error *err);

/* Postpone mode (above); call before the first write. */
extern void pm_merge_tree_writer_set_postpone(pm_merge_tree_writer *w);

/* Buffer row `row` of batch (all table fields) as a record of `kind`. */
extern pm_code pm_merge_tree_writer_write(pm_merge_tree_writer *w, const pm_batch *batch,
										  int64_t row, int kind, pm_error *err);

/*
 * Buffer rows rows[0..n-1] of batch, in that order, each a record of kind
 * row_kinds[rows[i]] (row_kinds NULL: +I): as n calls of the above.
 */
extern pm_code pm_merge_tree_writer_write_rows(pm_merge_tree_writer *w, const pm_batch *batch,
											   const int64_t *rows, int64_t n,
											   const uint8_t *row_kinds, pm_error *err);

/* Bytes held by the write buffer. */
extern int64_t pm_merge_tree_writer_memory(const pm_merge_tree_writer *w);

/* Spill the write buffer's records to a local file (write_buffer.h). */
extern pm_code pm_merge_tree_writer_spill(pm_merge_tree_writer *w, pm_error *err);

/* Flush the write buffer (and what it spilled) as level-0 files (nothing if it is empty). */
extern pm_code pm_merge_tree_writer_flush(pm_merge_tree_writer *w, pm_error *err);

/* The files made since the last _forget_files (valid until then). */
extern void pm_merge_tree_writer_files(const pm_merge_tree_writer *w, pm_data_file_meta **files,
									   int *nfiles);

/*
 * changelog-producer = input (the layout's write options): the changelog
 * files made since the last _forget_files, holding every record written,
 * unmerged (valid until then). The writer then flushes instead of spilling.
 */
extern void pm_merge_tree_writer_changelog_files(const pm_merge_tree_writer *w,
												 pm_data_file_meta **files, int *nfiles);

/*
 * After a commit: the files are the table's now. remove: also delete
 * them (abort) and drop what is buffered.
 */
extern void pm_merge_tree_writer_forget_files(pm_merge_tree_writer *w, bool remove);

extern void pm_merge_tree_writer_free(pm_merge_tree_writer *w);

#endif							/* PM_LSM_MERGE_TREE_WRITER_H */
