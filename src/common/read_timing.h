/*-------------------------------------------------------------------------
 * read_timing.h
 *	  Where a reading process's time goes: file reads (every pm_file_pread
 *	  and pm_file_read_ranges call, io/fileio.c) and decompression (every
 *	  pm_codec_decompress / _alloc call, codec/codec.c), counted per
 *	  process (per thread) since it started. Callers that want the share
 *	  of one operation take the counters before and after it (the FDW's
 *	  EXPLAIN ANALYZE: "Read Time").
 *
 * A monotonic clock read costs ~25 ns (vDSO); it is taken twice per read
 * call or decompressed block (a chunk or page, kilobytes to megabytes),
 * never per row.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_READ_TIMING_H
#define PM_COMMON_READ_TIMING_H

#include <stdint.h>
#include <time.h>

typedef struct pm_read_timing
{
	int64_t		io_calls;		/* read calls (a call may read several ranges) */
	int64_t		io_bytes;
	int64_t		io_ns;
	int64_t		decompress_calls;
	int64_t		decompress_bytes;	/* bytes out */
	int64_t		decompress_ns;
} pm_read_timing;

/* The counters of this thread, since it started. */
extern void pm_read_timing_get(pm_read_timing *out);

extern void pm_read_timing_add_io(int64_t start_ns, int64_t bytes);
extern void pm_read_timing_add_decompress(int64_t start_ns, int64_t bytes);

/* Nanoseconds of the monotonic clock. */
static inline int64_t
pm_read_timing_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif							/* PM_COMMON_READ_TIMING_H */
