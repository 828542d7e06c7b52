/*-------------------------------------------------------------------------
 * write_mem_core.c
 *	  Peak memory of the core's primary-key writer (no Postgres): N rows of
 *	  bench/run_write.sh's 7 columns (id BIGINT key, a INT, b BIGINT,
 *	  c DOUBLE, d STRING, e DATE, f DECIMAL(12,2)), keys in order, written
 *	  through pm_table_writer into a new table of BUCKETS buckets
 *	  (deduplicate, Parquet/zstd, write-only) with write-buffer-size WBS,
 *	  one commit. Prints this process's peak RSS (VmHWM) after the writes
 *	  and after the commit, and the CPU time. glibc's malloc is set up as
 *	  in the backend (src/fdw/paimon_fdw.c _PG_init): blocks below 32 MB in
 *	  the heap, up to 64 MB of freed heap kept.
 *
 *	  usage: write_mem_core TABLE_PATH N BUCKETS WBS [PASSES]
 *	  (WBS e.g. "64 mb"; PASSES: the N keys written that many times, column
 *	  b differing by pass, the last pass kept: records merged across spills)
 *	  build: as bench/pk_merge_core.c (bench/README.md).
 *-------------------------------------------------------------------------
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_common.h"
#include "common/env.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "table/schema.h"
#include "table/table_write.h"

#define CHUNK 4096

/* A field of /proc/self/status in KiB (e.g. "VmHWM:"), or -1. */
static long
status_kib(const char *name)
{
	FILE	   *f = fopen("/proc/self/status", "r");
	char		line[256];
	long		v = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, name, strlen(name)) == 0)
		{
			v = atol(line + strlen(name));
			break;
		}
	fclose(f);
	return v;
}

static pm_batch *
make_batch(pm_arena *arena, const pm_type *row, int64_t first, int n, int pass)
{
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));
	int64_t		cap = 0;

	b->nrows = n;
	b->ncols = 7;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * 7);
	for (int c = 0; c < 7; c++)
	{
		if (!pm_vector_init(&b->cols[c], row->fields[c].type, n, true, arena))
			return NULL;
		b->cols[c].length = n;
	}
	for (int j = 0; j < n; j++)
	{
		int64_t		i = first + j;
		char		d[32];
		int			len = snprintf(d, sizeof(d), "word%lld", (long long) (i % 97));

		PM_VEC_VALUES(&b->cols[0], int64_t)[j] = i;
		PM_VEC_VALUES(&b->cols[1], int32_t)[j] = (int32_t) (i % 1000);
		PM_VEC_VALUES(&b->cols[2], int64_t)[j] = (i * 7919) % 1000000000 + pass;
		PM_VEC_VALUES(&b->cols[3], double)[j] = (double) (i % 100000) / 100.0;
		if (!pm_vector_append_data(&b->cols[4], &cap, d, len, arena))
			return NULL;
		b->cols[4].offsets[j + 1] = (int32_t) b->cols[4].data_size;
		PM_VEC_VALUES(&b->cols[5], int32_t)[j] = (int32_t) (17999 + i % 3650);
		PM_VEC_VALUES(&b->cols[6], pm_int128)[j] = (pm_int128) ((i * 31) % 100000000);
	}
	return b;
}

int
main(int argc, char **argv)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_local_fileio_create(env);
	pm_arena   *arena = pm_arena_create(env);
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 7);
	static const char *pk[] = {"id"};
	static const char *keys[] = {"bucket", "write-only", "file.format", "file.compression",
	"write-buffer-size"};
	const char *vals[5];
	pm_table_writer *w;
	pm_error	err;
	int64_t		n,
				sid;
	int			passes;
	double		cpu0 = bench_cpu_ms(RUSAGE_SELF);

	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
	if (argc != 5 && argc != 6)
	{
		fprintf(stderr, "usage: %s TABLE_PATH N BUCKETS WBS [PASSES]\n", argv[0]);
		return 2;
	}
	n = atoll(argv[2]);
	passes = argc == 6 ? atoi(argv[5]) : 1;
	vals[0] = argv[3];
	vals[1] = "true";
	vals[2] = "parquet";
	vals[3] = "zstd";
	vals[4] = argv[4];
	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_BIGINT, false), NULL};
	f[1] = (pm_field) {1, "a", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	f[2] = (pm_field) {2, "b", pm_type_new(arena, PM_TYPE_BIGINT, true), NULL};
	f[3] = (pm_field) {3, "c", pm_type_new(arena, PM_TYPE_DOUBLE, true), NULL};
	f[4] = (pm_field) {4, "d", pm_type_new(arena, PM_TYPE_VARCHAR, true), NULL};
	f[5] = (pm_field) {5, "e", pm_type_new(arena, PM_TYPE_DATE, true), NULL};
	f[6] = (pm_field) {6, "f", pm_type_new_decimal(arena, 12, 2, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 7, false);
	s->nprimary_keys = 1;
	s->primary_keys = pk;
	s->noptions = 5;
	s->option_keys = keys;
	s->option_values = vals;
	pm_error_clear(&err);
	if (pm_table_create(env, io, argv[1], s, &err) != PM_OK ||
		pm_table_writer_open(env, io, argv[1], "write-mem", &w, &err) != PM_OK)
		goto fail;
	for (int pass = 0; pass < passes; pass++)
		for (int64_t done = 0; done < n; done += CHUNK)
		{
			pm_arena   *a = pm_arena_create(env);
			int			k = (int) (n - done < CHUNK ? n - done : CHUNK);
			pm_batch   *b = make_batch(a, pm_table_writer_schema(w)->row_type, done + 1, k,
									   pass);

			if (b == NULL || pm_table_writer_write(w, b, NULL, &err) != PM_OK)
				goto fail;
			pm_arena_destroy(a);
		}
	printf("after writes: VmHWM %ld KiB VmRSS %ld KiB\n", status_kib("VmHWM:"),
		   status_kib("VmRSS:"));
	if (pm_table_writer_commit(w, 1, &sid, &err) != PM_OK)
		goto fail;
	printf("after commit: VmHWM %ld KiB VmRSS %ld KiB cpu %.0f ms\n", status_kib("VmHWM:"),
		   status_kib("VmRSS:"), bench_cpu_ms(RUSAGE_SELF) - cpu0);
	pm_table_writer_close(w);
	return 0;
fail:
	fprintf(stderr, "error: %s\n", err.message);
	return 1;
}
