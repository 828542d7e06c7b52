/*-------------------------------------------------------------------------
 * parallel_core.c
 *	  A parallel append scan through the core alone (no Postgres): NPROC
 *	  forked processes share one unit counter (as the participants of a
 *	  parallel scan share one in shared memory) and read the table's
 *	  fields with pm_scan_reader, files of at least PART_KB kB shared by
 *	  part; prints the wall time, the CPU time of all processes, the rows
 *	  each read and a checksum of the rows (compare builds with it).
 *
 *	  usage: parallel_core TABLE_PATH NPROC PART_KB [FIELD...]
 *	  (no FIELD: every field)
 *	  build: see bench/README.md, "Units inside a row group".
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core_common.h"

typedef struct shared
{
	int64_t		next_unit;
	int64_t		rows[64];
	unsigned long long ck[64];
} shared;

typedef struct claimer
{
	shared	   *sh;
	int64_t		claimed;
} claimer;

static bool
claim(void *ctx, int64_t unit)
{
	claimer    *c = ctx;

	if (c->claimed < unit)
		c->claimed = __atomic_fetch_add(&c->sh->next_unit, 1, __ATOMIC_SEQ_CST);
	return c->claimed == unit;
}

/* Per value, its row, column and value hashed; a sum: the same whatever the batches or units. */
static unsigned long long
checksum(const pm_batch *b)
{
	unsigned long long ck = 0;

	for (int64_t r = 0; r < b->nrows; r++)
		for (int c = 0; c < b->ncols; c++)
		{
			unsigned long long h = (unsigned long long) (b->first_row + r) * 1000003 + c;
			bool		null;

			if (bench_hash_value(&b->cols[c], r, &h, &null) && !null)
				ck += h;
		}
	return ck;
}

static int
run(const char *path, int k, int64_t part_bytes, int argc, char **argv, shared *sh)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_table   *table;
	pm_scan    *scan;
	pm_scan_reader *rd;
	pm_error	err;
	int			fields[64];
	int			nf;
	claimer		cl = {sh, -1};
	pm_batch   *b;

	if (bench_open(io, path, &table, &scan, &err) != PM_OK)
		goto fail;
	if ((nf = bench_fields(pm_table_schema(table)->row_type, argc, argv, fields, 64)) < 0)
		return 1;
	pm_scan_set_part_units(scan, part_bytes);
	if (pm_scan_reader_open(scan, fields, nf, &rd, &err) != PM_OK)
		goto fail;
	pm_scan_reader_set_claim(rd, claim, &cl);
	for (;;)
	{
		if (pm_scan_reader_next(rd, &b, &err) != PM_OK)
			goto fail;
		if (b == NULL)
			break;
		sh->rows[k] += b->nrows;
		sh->ck[k] += checksum(b);
	}
	pm_scan_reader_close(rd);
	pm_scan_free(scan);
	pm_table_close(table);
	return 0;
fail:
	fprintf(stderr, "error: %s\n", err.message);
	return 1;
}

int
main(int argc, char **argv)
{
	shared	   *sh;
	int			nproc;
	double		t0;
	int64_t		rows = 0;
	unsigned long long ck = 0;
	int			bad = 0;

	if (argc < 4)
	{
		fprintf(stderr, "usage: %s TABLE_PATH NPROC PART_KB [FIELD...]\n", argv[0]);
		return 2;
	}
	nproc = atoi(argv[2]);
	if (nproc < 1 || nproc > 64)
		return 2;
	sh = mmap(NULL, sizeof(shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	memset(sh, 0, sizeof(*sh));
	t0 = bench_wall_ms();
	for (int k = 0; k < nproc; k++)
		if (fork() == 0)
			_exit(run(argv[1], k, (int64_t) atoll(argv[3]) * 1024, argc - 4, argv + 4, sh));
	for (int k = 0; k < nproc; k++)
	{
		int			st;

		wait(&st);
		bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	printf("nproc %d: wall %.1f ms, cpu %.1f ms, units %lld, rows", nproc,
		   bench_wall_ms() - t0, bench_cpu_ms(RUSAGE_CHILDREN), (long long) sh->next_unit);
	for (int k = 0; k < nproc; k++)
	{
		rows += sh->rows[k];
		ck += sh->ck[k];
		printf(" %lld", (long long) sh->rows[k]);
	}
	printf(" = %lld, checksum %llx\n", (long long) rows, ck);
	return bad;
}
