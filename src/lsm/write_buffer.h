/*-------------------------------------------------------------------------
 * write_buffer.h
 *	  The in-memory write buffer of one bucket of a primary-key table, as
 *	  Java's SortBufferWriteBuffer: records (row, sequence number, row kind)
 *	  are kept as they come; a flush sorts them by (primary key, sequence.field
 *	  fields ascending, _SEQUENCE_NUMBER) and merges the records of each key
 *	  with the table's merge function, a key with a single record passing
 *	  through unchanged (ReducerMergeFunctionWrapper), a key whose merge
 *	  gives nothing (e.g. only retracts under ignore-delete) dropped. A
 *	  merged record carries the key, the sequence number of the key's last
 *	  record in that order (DeduplicateMergeFunction latestKv,
 *	  PartialUpdateMergeFunction / AggregateMergeFunction latestSequenceNumber),
 *	  the kind and the row the merge function gives.
 *
 * Spilling (write-buffer-spillable, Java's default; BinaryExternalSortBuffer):
 * when the writer's memory (write-buffer-size) is full, the buffer's
 * records are sorted and written, unmerged, to a local temporary file of
 * this process's own format (spill_run.h; spill_dir); the flush at commit
 * then merges all spilled runs and the records still in memory (sorted,
 * read from memory) in the same order, so a commit gives one sorted run
 * of level-0 files however much was written, as Java's. Without spilling
 * (write-buffer-spillable = false) the caller flushes a full buffer as its
 * own sorted run instead, as Java does. Spill files are removed after the
 * merge, on clear and on free.
 *
 * Memory: what pm_write_buffer_memory reports is what the buffer's vectors
 * hold from its allocator, room for records to come included (as Java's
 * pool counts a sort buffer's pages); growing moves the records to a new
 * arena (the old one is freed), so it stays within about twice the
 * records' bytes. A spill frees the records' vectors and the sort's
 * scratch (kept, they held memory beyond write-buffer-size that no bucket
 * counted).
 *
 * Spec: apache/paimon release-1.4.2 mergetree/SortBufferWriteBuffer.java,
 * mergetree/MergeTreeWriter.java, mergetree/compact/ReducerMergeFunctionWrapper.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_WRITE_BUFFER_H
#define PM_LSM_WRITE_BUFFER_H

#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "lsm/kv_file_writer.h"
#include "lsm/merge_engine.h"

typedef struct pm_write_buffer pm_write_buffer;

/*
 * A buffer for records of the table of `layout`. engine: the table's
 * merge engine built for every table field (read_fields 0..n-1) at value
 * offset 0; run_engine: the same at value offset nkeys + 2 (the file
 * layout of spilled runs). Both shared by the buffers of a writer
 * (flushes run one at a time). spill_dir: a local directory for spill
 * files (must outlive the buffer).
 */
extern pm_code pm_write_buffer_create(const pm_env *env, const pm_kv_layout *layout,
									  pm_merge_engine *engine, pm_merge_engine *run_engine,
									  const char *spill_dir, pm_write_buffer **out,
									  pm_error *err);

/* Copy row `row` of batch (all table fields) with its sequence number and kind. */
extern pm_code pm_write_buffer_put(pm_write_buffer *buf, const pm_batch *batch, int64_t row,
								   int64_t seq, int kind, pm_error *err);

/*
 * pm_write_buffer_put of rows rows[0..n-1] of batch, in that order, with
 * sequence numbers first_seq, first_seq + 1, ... and kinds
 * row_kinds[rows[i]] (row_kinds NULL: every one +I): the same records,
 * copied column by column.
 */
extern pm_code pm_write_buffer_put_rows(pm_write_buffer *buf, const pm_batch *batch,
										const int64_t *rows, int64_t n, int64_t first_seq,
										const uint8_t *row_kinds, pm_error *err);

/*
 * Records held, and the bytes they take (an empty buffer keeps at most
 * one arena block, and allocates nothing until its first record).
 */
extern int64_t pm_write_buffer_size(const pm_write_buffer *buf);
extern int64_t pm_write_buffer_memory(const pm_write_buffer *buf);

/* Sort the records in memory and write them to a new spill file; frees their memory. */
extern pm_code pm_write_buffer_spill(pm_write_buffer *buf, pm_error *err);

/* Spill files held. */
extern int	pm_write_buffer_spill_count(const pm_write_buffer *buf);

/*
 * Sort, merge and write every record (spilled ones included) to out; the
 * buffer is empty after (also on failure).
 */
extern pm_code pm_write_buffer_flush(pm_write_buffer *buf, pm_kv_file_writer *out,
									 pm_error *err);

/*
 * pm_write_buffer_flush, and first (changelog not NULL: changelog-producer
 * = input) every record in memory, unmerged, in the same sorted order, to
 * changelog (SortBufferWriteBuffer.forEach's rawConsumer). Refused when
 * records were spilled: the caller flushes instead of spilling.
 */
extern pm_code pm_write_buffer_flush_changelog(pm_write_buffer *buf, pm_kv_file_writer *out,
											   pm_kv_file_writer *changelog, pm_error *err);

/*
 * PostponeBucketWriter's order: every record in memory, unsorted and
 * unmerged, in the order it came, each with sequence number seq (Java's
 * postpone files carry KeyValue.UNKNOWN_SEQUENCE, -1), to out; the buffer
 * is empty after (also on failure). Refused when records were spilled.
 */
extern pm_code pm_write_buffer_flush_in_order(pm_write_buffer *buf, pm_kv_file_writer *out,
											  int64_t seq, pm_error *err);

/* Drop every record. */
extern void pm_write_buffer_clear(pm_write_buffer *buf);

extern void pm_write_buffer_free(pm_write_buffer *buf);

#endif							/* PM_LSM_WRITE_BUFFER_H */
