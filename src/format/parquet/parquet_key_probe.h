/*-------------------------------------------------------------------------
 * parquet_key_probe.h
 *	  Is a value in a sorted column of a Parquet file? A point lookup asks
 *	  it of every file whose key range holds the key, before reading it.
 *
 * The column must be sorted ascending in the file (the first key column
 * of a primary-key table's data file, _KEY_<field>, is: files are written
 * in key order). The probe finds, by the page index (ColumnIndex min/max,
 * OffsetIndex), the pages whose bounds hold the value, and binary-searches
 * their decoded values. Both are kept in a per-process cache (pm_lru,
 * "the key cache") keyed by file path and size: Paimon never rewrites a
 * data file under the same name, so an entry is never stale, and a new
 * snapshot only brings new names. A lookup that hits the cache opens no
 * file and decompresses nothing.
 *
 * Never an error: whatever cannot be answered (no page index, a type not
 * handled, NULLs in the column, a read or decode failure, out of memory)
 * is PM_PQ_PROBE_UNKNOWN, and the caller reads the file, whose reader
 * reports what is wrong with it.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_PARQUET_KEY_PROBE_H
#define PM_FORMAT_PARQUET_PARQUET_KEY_PROBE_H

#include <stdint.h>

#include "common/env.h"
#include "common/pm_lru.h"
#include "common/type.h"
#include "common/value.h"
#include "io/fileio.h"

typedef enum pm_pq_probe
{
	PM_PQ_PROBE_UNKNOWN = 0,	/* cannot tell: read the file */
	PM_PQ_PROBE_ABSENT,			/* no row of the column holds the value */
	PM_PQ_PROBE_PRESENT			/* some row does */
} pm_pq_probe;

/*
 * Does the top-level column `column` (sorted ascending) of the Parquet
 * file at path (file_size bytes) hold key, a value of type (TINYINT,
 * SMALLINT, INT, DATE, BIGINT, VARCHAR/STRING, VARBINARY/BYTES; other
 * types, CHAR(n) and BINARY(n) among them, are UNKNOWN)? When PRESENT:
 *	 - *row (if not NULL) is the position in the file of the row that holds
 *	   it when that is certain (no neighbour holds it, in the page and in the
 *	   pages next to it), else -1;
 *	 - span (if not NULL, two entries) is [first, end) of the file rows of
 *	   the pages whose bounds hold it: every row that holds it is among
 *	   them.
 * Otherwise *row and both ends of span are -1.
 */
extern pm_pq_probe pm_parquet_key_probe(const pm_env *env, pm_fileio *io, const char *path,
										int64_t file_size, const char *column,
										const pm_type *type, const pm_value *key,
										int64_t *row, int64_t *span);

/* The key cache's byte budget (0: off, every probe UNKNOWN) and counters. */
extern void pm_parquet_key_cache_set_budget(size_t bytes);
extern bool pm_parquet_key_cache_enabled(void);
extern void pm_parquet_key_cache_get_stats(pm_lru_stats *out);

#endif							/* PM_FORMAT_PARQUET_PARQUET_KEY_PROBE_H */
