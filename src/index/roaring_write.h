/*-------------------------------------------------------------------------
 * roaring_write.h
 *	  A set of row positions serialized exactly as Paimon's RoaringBitmap32
 *	  serialize() writes it: Java RoaringBitmap 1.2 runOptimize() and then
 *	  the portable format (index/roaring_portable.h reads it back).
 *
 * Container choice as Java makes it for a bitmap built by add():
 * an array container (cardinality <= 4096) becomes a run container when
 * 2 * cardinality > 2 + 4 * runs; a bitmap container (cardinality > 4096)
 * when 8192 > 2 + 4 * runs. CRoaring's run_optimize counts an array's size
 * with a 2-byte header and so picks runs where Java keeps the array (e.g.
 * {0,1,2}); hence this writer. Header: cookie 12346 with offsets when no
 * container is a run; else cookie 12347 | (n - 1) << 16, the run-flag
 * bitset, and offsets only when n >= 4.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.4; RoaringBitmap
 * RoaringArray.serialize, ArrayContainer/BitmapContainer.runOptimize.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_ROARING_WRITE_H
#define PM_INDEX_ROARING_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "common/byte_buffer.h"

/*
 * Append the serialized set of the n strictly ascending values v to out
 * (out->failed on out-of-memory). The size it took is returned.
 */
extern size_t pm_roaring_write(pm_byte_buffer *out, const uint32_t *v, size_t n);

#endif							/* PM_INDEX_ROARING_WRITE_H */
