/*-------------------------------------------------------------------------
 * core_common.h
 *	  What the core-level bench drivers (bench/<name>_core.c) share: opening a
 *	  table and planning its latest snapshot, fields named on the command
 *	  line, CPU and wall time, and the hashing of values behind their
 *	  checksums (compare builds with them).
 *
 * Header only (static inline): a driver builds as before, from its one .c
 * file and the core's objects (bench/README.md).
 *-------------------------------------------------------------------------
 */
#ifndef PM_BENCH_CORE_COMMON_H
#define PM_BENCH_CORE_COMMON_H

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "common/env.h"
#include "io/fileio.h"
#include "row/value.h"
#include "table/table.h"

/* CPU time in ms, user + system, of this process (RUSAGE_SELF) or of its waited-for children */
static inline double
bench_cpu_ms(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* Wall time in ms (monotonic). */
static inline double
bench_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The table at path opened on io (default options); with scan, its latest snapshot planned. */
static inline pm_code
bench_open(pm_fileio *io, const char *path, pm_table **table, pm_scan **scan, pm_error *err)
{
	pm_table_open_options o;
	pm_code		rc;

	memset(&o, 0, sizeof(o));
	pm_error_clear(err);
	rc = pm_table_open(pm_env_default(), io, path, &o, table, err);
	if (rc == PM_OK && scan != NULL && (rc = pm_table_scan_plan(*table, NULL, scan, err)) != PM_OK)
		pm_table_close(*table);
	return rc;
}

/*
 * Fields named by names[0..n-1] of row into fields (at most max), or every
 * field when n is 0: their count, or -1 (said on stderr) for an unknown name.
 */
static inline int
bench_fields(const pm_type *row, int n, char **names, int *fields, int max)
{
	int			nf = 0;

	for (int i = 0; i < n && nf < max; i++)
		if ((fields[nf++] = pm_type_field_index(row, names[i])) < 0)
		{
			fprintf(stderr, "no field %s\n", names[i]);
			return -1;
		}
	if (n == 0)
		for (int i = 0; i < row->nfields && nf < max; i++)
			fields[nf++] = i;
	return nf;
}

/*
 * Value r of v folded into *h (bytes one by one, else the value's 64-bit
 * integer or bits), unless NULL (*null set, *h unchanged). False where
 * pm_vector_value gives no value (nested types): nothing folded.
 */
static inline bool
bench_hash_value(const pm_vector *v, int64_t r, unsigned long long *h, bool *null)
{
	pm_value	x;

	if (!pm_vector_value(v, r, &x))
		return false;
	*null = x.is_null;
	if (x.is_null)
		return true;
	if (pm_type_is_varlen(v->type->id))
		for (int32_t q = 0; q < x.u.bytes.len; q++)
			*h = *h * 31 + x.u.bytes.ptr[q];
	else
		*h = *h * 31 + (unsigned long long) x.u.i64;
	return true;
}

/* ck continued over the values of b in row order (a NULL counts 7): same batches, same sum. */
static inline unsigned long long
bench_checksum_rows(unsigned long long ck, const pm_batch *b)
{
	for (int64_t r = 0; r < b->nrows; r++)
		for (int c = 0; c < b->ncols; c++)
		{
			bool		null;

			if (bench_hash_value(&b->cols[c], r, &ck, &null) && null)
				ck = ck * 31 + 7;
		}
	return ck;
}

#endif							/* PM_BENCH_CORE_COMMON_H */
