/*-------------------------------------------------------------------------
 * spill_run.h
 *	  Sorted runs the write buffer spills to local temporary files, and
 *	  reads back in the merge at commit.
 *
 * A private format of this process, never a Paimon file: no other program
 * reads it, and a file lives only from a spill to the end of the commit
 * (or abort) that merges it. Written and read sequentially, block by block:
 * a block is one batch (any pm_type, nested ones included) with every
 * vector's arrays laid end to end, optionally compressed with lz4 (raw
 * block). Reading a block rebuilds the batch's vectors over the block's
 * bytes (no copy); the file is checked as it is read (a block that does not
 * hold valid vectors, a truncated file or one without its end mark is
 * PM_ERR_CORRUPT).
 *
 * Layout: frames, each a whole number of 4096-byte units (so the file is
 * written and read with O_DIRECT, past the page cache, where the file
 * system allows): a 32-byte header ("PMSPILL2", uint32 nrows, uint32 codec
 * 0 none / 1 lz4, uint64 raw length, uint64 stored length, little-endian),
 * the stored bytes, zeros to the frame's end; the end mark is a frame
 * whose header has nrows 0 and both lengths 0.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_SPILL_RUN_H
#define PM_LSM_SPILL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"

typedef struct pm_spill_run_writer pm_spill_run_writer;
typedef struct pm_spill_run_reader pm_spill_run_reader;

/*
 * Create the new local file `path` (it must not exist) for batches of
 * row_type (its fields are the batch's columns). compress: lz4 blocks.
 */
extern pm_code pm_spill_run_writer_open(const pm_env *env, const char *path,
										const pm_type *row_type, bool compress,
										pm_spill_run_writer **out, pm_error *err);

/* Append batch as one block (offsets of its collections must start at 0, as built ones do). */
extern pm_code pm_spill_run_writer_write(pm_spill_run_writer *w, const pm_batch *batch,
										 pm_error *err);

/*
 * Append rows rows[0..n-1] of the vectors cols (one per field of
 * row_type, each at least as long as the largest row) as one block.
 */
extern pm_code pm_spill_run_writer_write_rows(pm_spill_run_writer *w, const pm_vector *cols,
											  const int64_t *rows, int64_t n, pm_error *err);

/* Write the end mark and close (no fsync: the file is temporary); frees w. */
extern pm_code pm_spill_run_writer_finish(pm_spill_run_writer *w, pm_error *err);

/* Close without the end mark (the caller removes the file); frees w. */
extern void pm_spill_run_writer_abort(pm_spill_run_writer *w);

/* Bytes written so far (headers included). */
extern uint64_t pm_spill_run_writer_bytes(const pm_spill_run_writer *w);

/* Open a spill file of row_type for reading. */
extern pm_code pm_spill_run_reader_open(const pm_env *env, const char *path,
										const pm_type *row_type, pm_spill_run_reader **out,
										pm_error *err);

/*
 * The next block's batch (valid until the next call or close), NULL after
 * the last.
 */
extern pm_code pm_spill_run_reader_next(pm_spill_run_reader *r, pm_batch **out, pm_error *err);

extern void pm_spill_run_reader_close(pm_spill_run_reader *r);

/*
 * Decode one block's raw (uncompressed) bytes into a batch of row_type
 * whose vectors point into raw, their structs in arena: what the reader
 * does per block, for the fuzzer.
 */
extern pm_code pm_spill_run_decode_block(const pm_type *row_type, const uint8_t *raw,
										 size_t len, int64_t nrows, pm_arena *arena,
										 pm_batch *out, pm_error *err);

#endif							/* PM_LSM_SPILL_RUN_H */
