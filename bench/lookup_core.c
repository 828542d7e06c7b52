/*-------------------------------------------------------------------------
 * lookup_core.c
 *	  Point lookups through the core alone (no Postgres): N random keys of
 *	  a BIGINT first primary-key field, each planned with
 *	  pm_point_lookup_plan on one base scan and read merged, twice (pass 0
 *	  fills the caches, pass 1 is warmer); prints the process CPU time per
 *	  lookup and a checksum of every value read (compare builds with it).
 *
 *	  usage: lookup_core TABLE_PATH N MAX_ID CACHE_MB [STORE_DIR [STORE_MB]]
 *	  (key and page caches CACHE_MB each, metadata cache 64MB; ids in [0, MAX_ID);
 *	  STORE_DIR: the shared page store, common/page_store.h, budget STORE_MB,
 *	  default 4096: a second run starts with the pages the first one
 *	  decompressed; LOOKUP_IN=k in the environment: each lookup an IN list
 *	  of k random keys; LOOKUP_NO_FETCH: every file read through its reader,
 *	  split.h pm_data_file_fetch_cached; LOOKUP_RESIDENT: each lookup asks
 *	  pm_point_lookup_resident first, the plan and read only when it cannot
 *	  answer)
 *	  Also counts the process's malloc/calloc/realloc calls per lookup (the
 *	  driver interposes them over glibc's): the warm path's allocations.
 *	  build: see bench/README.md, "Core-level lookups".
 *-------------------------------------------------------------------------
 */
#include <malloc.h>
#include <stdlib.h>

#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "common/page_store.h"
#include "format/parquet/parquet_key_probe.h"
#include "lsm/table_read.h"
#include "table/point_lookup.h"
#include "table/split.h"

#include "core_common.h"

/* glibc's own entry points; the definitions below interpose the public ones */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);

static unsigned long long nallocs;

void *
malloc(size_t size)
{
	nallocs++;
	return __libc_malloc(size);
}

void *
calloc(size_t n, size_t size)
{
	nallocs++;
	return __libc_calloc(n, size);
}

void *
realloc(void *ptr, size_t size)
{
	nallocs++;
	return __libc_realloc(ptr, size);
}

int
main(int argc, char **argv)
{
	pm_error	err;
	pm_table   *t;
	pm_scan    *base;
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	int			fields[256];
	int			nfields;
	int			n;
	int			nin = getenv("LOOKUP_IN") != NULL ? atoi(getenv("LOOKUP_IN")) : 1;
	pm_value	vals[64];
	long long	maxid;
	size_t		mb;
	pm_arena   *resident_arena = NULL;
	long long	resident = 0;

	if (argc < 5 || argc > 7)
	{
		fprintf(stderr, "usage: %s TABLE_PATH N MAX_ID CACHE_MB [STORE_DIR [STORE_MB]]\n",
				argv[0]);
		return 2;
	}
	n = atoi(argv[2]);
	if (nin < 1 || nin > 64)
	{
		fprintf(stderr, "LOOKUP_IN: 1 to 64 keys\n");
		return 2;
	}
	maxid = atoll(argv[3]);
	mb = (size_t) atoll(argv[4]);
	/* as _PG_init (src/fdw/paimon_fdw.c): freed page buffers stay in the heap */
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
	pm_meta_cache_set_budget((size_t) 64 << 20);
	pm_data_file_fetch_cached(getenv("LOOKUP_NO_FETCH") == NULL);
	pm_parquet_key_cache_set_budget(mb << 20);
	pm_page_lru_set_budget(mb << 20);
	if (argc >= 6 &&
		!pm_page_store_configure(argv[5], (size_t) (argc == 7 ? atoll(argv[6]) : 4096) << 20))
	{
		fprintf(stderr, "cannot use %s as the page store\n", argv[5]);
		return 1;
	}
	if (bench_open(io, argv[1], &t, &base, &err) != PM_OK)
	{
		fprintf(stderr, "%s\n", err.message);
		return 1;
	}
	nfields = pm_table_schema(t)->row_type->nfields;
	for (int f = 0; f < nfields && f < 256; f++)
		fields[f] = f;
	srand(42);
	if (getenv("LOOKUP_RESIDENT") != NULL && (resident_arena = pm_arena_create(pm_env_default())) == NULL)
		return 1;
	for (int pass = 0; pass < 2; pass++)
	{
		long long	rows = 0;
		unsigned long long ck = 0;
		double		t0 = bench_cpu_ms(RUSAGE_SELF);
		unsigned long long a0 = nallocs;
		int64_t		f0 = pm_data_file_fetches();

		for (int i = 0; i < n; i++)
		{
			pm_predicate leaf = {0};
			pm_scan    *s;
			pm_table_read *rd;
			pm_batch   *bt;

			memset(vals, 0, sizeof(vals));
			for (int k = 0; k < nin; k++)
				vals[k].u.i64 = (((long long) rand() << 16) ^ rand()) % maxid;
			leaf.op = nin == 1 ? PM_PRED_EQ : PM_PRED_IN;
			leaf.field = 0;
			leaf.nliterals = nin;
			leaf.literals = vals;
			if (resident_arena != NULL)
			{
				int			res;

				pm_arena_reset(resident_arena);
				if (pm_point_lookup_resident(pm_scan_table(base), base, &leaf, fields, nfields,
											 resident_arena, &res, &bt, NULL, &err) != PM_OK)
				{
					fprintf(stderr, "resident: %s\n", err.message);
					return 1;
				}
				if (res != PM_RESIDENT_NO)
				{
					resident++;
					if (bt != NULL)
					{
						rows += bt->nrows;
						ck = bench_checksum_rows(ck, bt);
					}
					continue;
				}
			}
			if (pm_point_lookup_plan(base, &leaf, &s, NULL, &err) != PM_OK || s == NULL ||
				pm_table_read_open(s, fields, nfields, &rd, &err) != PM_OK)
			{
				fprintf(stderr, "lookup: %s\n", s == NULL ? "no lookup" : err.message);
				return 1;
			}
			for (;;)
			{
				if (pm_table_read_next(rd, &bt, &err) != PM_OK)
				{
					fprintf(stderr, "read: %s\n", err.message);
					return 1;
				}
				if (bt == NULL)
					break;
				rows += bt->nrows;
				ck = bench_checksum_rows(ck, bt);
			}
			pm_table_read_close(rd);
			pm_scan_free(s);
		}
		printf("pass %d: %d lookups, %lld rows, checksum %llx, CPU %.4f ms/lookup,"
			   " %.1f allocations/lookup, %lld files from the caches alone\n", pass, n, rows,
			   ck, (bench_cpu_ms(RUSAGE_SELF) - t0) / n, (double) (nallocs - a0) / n,
			   (long long) (pm_data_file_fetches() - f0));
		if (resident_arena != NULL)
			printf("  %lld lookups answered by resident files\n", resident);
		{
			pm_lru_stats ks;
			pm_page_lru_stats ps;

			pm_parquet_key_cache_get_stats(&ks);
			pm_page_lru_get_stats(&ps);
			printf("  key cache: %lld hits, %lld misses, %lld entries, %zu MB;"
				   " page cache: %lld hits, %lld misses, %lld entries, %zu MB\n",
				   (long long) ks.hits, (long long) ks.misses, (long long) ks.entries,
				   ks.bytes >> 20, (long long) ps.hits, (long long) ps.misses,
				   (long long) ps.entries, ps.bytes >> 20);
		}
	}
	pm_scan_free(base);
	pm_table_close(t);
	pm_local_fileio_destroy(io);
	return 0;
}
