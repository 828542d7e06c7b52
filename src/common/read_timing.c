/*-------------------------------------------------------------------------
 * read_timing.c
 *	  The per-thread read and decompression counters (see read_timing.h).
 *-------------------------------------------------------------------------
 */
#include "common/read_timing.h"

static _Thread_local pm_read_timing counters;

void
pm_read_timing_get(pm_read_timing *out)
{
	*out = counters;
}

void
pm_read_timing_add_io(int64_t start_ns, int64_t bytes)
{
	counters.io_calls++;
	counters.io_bytes += bytes;
	counters.io_ns += pm_read_timing_now() - start_ns;
}

void
pm_read_timing_add_decompress(int64_t start_ns, int64_t bytes)
{
	counters.decompress_calls++;
	counters.decompress_bytes += bytes;
	counters.decompress_ns += pm_read_timing_now() - start_ns;
}
