/*-------------------------------------------------------------------------
 * chunk_buffers.h
 *	  Column chunk buffers reused by the readers of one sequential read.
 *
 * A scan reading its files one after another hands each Parquet reader the
 * same pool (pm_format_read_options.chunk_buffers): a column chunk's
 * buffer is allocated, and its pages first touched, once per read instead
 * of once per file and row group.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_CHUNK_BUFFERS_H
#define PM_FORMAT_CHUNK_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

/*
 * Column chunk buffers reused by the readers of one sequential read (a
 * scan reading its files one after another): each buffer is allocated, and
 * its pages first touched, once per read instead of once per file and row
 * group. The pool lives in the arena given at creation, its buffers in
 * that arena's environment until pm_chunk_buffers_destroy; a reader using
 * the pool must be closed (or past the row group) before the next one asks.
 */
typedef struct pm_chunk_buffers pm_chunk_buffers;

/* A pool whose buffers live in arena (NULL when out of memory). */
extern pm_chunk_buffers *pm_chunk_buffers_create(pm_arena *arena);

/*
 * Buffer slot of at least len bytes, its contents undefined; NULL: out of
 * memory. A slot that must grow frees its old buffer.
 */
extern uint8_t *pm_chunk_buffers_get(pm_chunk_buffers *pool, int slot, size_t len);

/* Free the buffers (the pool itself goes with its arena); NULL is a no-op. */
extern void pm_chunk_buffers_destroy(pm_chunk_buffers *pool);

#endif							/* PM_FORMAT_CHUNK_BUFFERS_H */
