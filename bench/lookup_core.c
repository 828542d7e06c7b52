/*-------------------------------------------------------------------------
 * lookup_core.c
 *	  Point lookups through the core alone (no Postgres): N random keys of
 *	  a BIGINT first primary-key field, each planned with
 *	  pm_point_lookup_plan on one base scan and read merged, twice (pass 0
 *	  fills the caches, pass 1 is warmer); prints the process CPU time per
 *	  lookup and a checksum of every value read (compare builds with it).
 *
 *	  usage: lookup_core TABLE_PATH N MAX_ID CACHE_MB [STORE_DIR]
 *	  (key and page caches CACHE_MB each, metadata cache 64MB; ids in [0, MAX_ID);
 *	  STORE_DIR: the shared page store, common/page_store.h, budget 4GB: a
 *	  second run starts with the pages the first one decompressed)
 *	  build: see bench/README.md, "Core-level lookups".
 *-------------------------------------------------------------------------
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/env.h"
#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "common/page_store.h"
#include "format/parquet/parquet_key_probe.h"
#include "io/fileio.h"
#include "lsm/table_read.h"
#include "row/value.h"
#include "table/point_lookup.h"
#include "table/split.h"
#include "table/table.h"

static unsigned long long
checksum(unsigned long long ck, const pm_batch *b)
{
	for (int64_t r = 0; r < b->nrows; r++)
		for (int c = 0; c < b->ncols; c++)
		{
			pm_value	x;

			if (!pm_vector_value(&b->cols[c], r, &x))
				continue;
			if (x.is_null)
				ck = ck * 31 + 7;
			else if (pm_type_is_varlen(b->cols[c].type->id))
				for (int q = 0; q < x.u.bytes.len; q++)
					ck = ck * 31 + x.u.bytes.ptr[q];
			else
				ck = ck * 31 + (unsigned long long) x.u.i64;
		}
	return ck;
}

int
main(int argc, char **argv)
{
	pm_table_open_options opts;
	pm_error	err;
	pm_table   *t;
	pm_scan    *base;
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	int			fields[256];
	int			nfields;
	int			n;
	long long	maxid;
	size_t		mb;

	if (argc != 5 && argc != 6)
	{
		fprintf(stderr, "usage: %s TABLE_PATH N MAX_ID CACHE_MB [STORE_DIR]\n", argv[0]);
		return 2;
	}
	n = atoi(argv[2]);
	maxid = atoll(argv[3]);
	mb = (size_t) atoll(argv[4]);
	/* as _PG_init (src/fdw/paimon_fdw.c): freed page buffers stay in the heap */
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
	pm_meta_cache_set_budget((size_t) 64 << 20);
	pm_parquet_key_cache_set_budget(mb << 20);
	pm_page_lru_set_budget(mb << 20);
	if (argc == 6 && !pm_page_store_configure(argv[5], (size_t) 4 << 30))
	{
		fprintf(stderr, "cannot use %s as the page store\n", argv[5]);
		return 1;
	}
	memset(&opts, 0, sizeof(opts));
	pm_error_clear(&err);
	if (pm_table_open(pm_env_default(), io, argv[1], &opts, &t, &err) != PM_OK ||
		pm_table_scan_plan(t, NULL, &base, &err) != PM_OK)
	{
		fprintf(stderr, "%s\n", err.message);
		return 1;
	}
	nfields = pm_table_schema(t)->row_type->nfields;
	for (int f = 0; f < nfields && f < 256; f++)
		fields[f] = f;
	srand(42);
	for (int pass = 0; pass < 2; pass++)
	{
		struct timespec a,
					b;
		long long	rows = 0;
		unsigned long long ck = 0;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		for (int i = 0; i < n; i++)
		{
			pm_value	v = {0};
			pm_predicate leaf = {0};
			pm_scan    *s;
			pm_table_read *rd;
			pm_batch   *bt;

			v.u.i64 = (((long long) rand() << 16) ^ rand()) % maxid;
			leaf.op = PM_PRED_EQ;
			leaf.field = 0;
			leaf.nliterals = 1;
			leaf.literals = &v;
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
				ck = checksum(ck, bt);
			}
			pm_table_read_close(rd);
			pm_scan_free(s);
		}
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		printf("pass %d: %d lookups, %lld rows, checksum %llx, CPU %.4f ms/lookup\n", pass, n,
			   rows, ck, ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / n);
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
