/*-------------------------------------------------------------------------
 * compact_core.c
 *	  A full compaction through the core alone (no Postgres): creates a
 *	  primary-key table (id, v, w BIGINT; bucket 1, write-only) at DIR with
 *	  changelog-producer PRODUCER, writes ROWS keys and fully compacts them
 *	  (into one max-level file), then writes an upsert of every 100th key
 *	  and prints the CPU and wall time of the second full compaction (the
 *	  max-level file merged with the level-0 one) with its changelog
 *	  records.
 *
 *	  usage: compact_core DIR ROWS none|full-compaction
 *	  build: see bench/README.md, "Full compaction with changelog".
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>

#include "lsm/compact.h"
#include "table/table_write.h"

#include "core_common.h"

#define BATCH 65536

static void
die(const char *what, const pm_error *err)
{
	fprintf(stderr, "compact_core: %s: %s\n", what, err->message);
	exit(1);
}

/* Rows id = first, first + step, ... (n of them), v = id * mul, w = id. */
static void
write_rows(pm_table_writer *w, pm_arena *arena, int64_t first, int64_t step, int64_t n,
		   int64_t mul)
{
	const pm_type *rt = pm_table_writer_schema(w)->row_type;
	pm_error	err;

	for (int64_t done = 0; done < n;)
	{
		int64_t		k = n - done < BATCH ? n - done : BATCH;
		pm_batch	b;
		pm_vector	cols[3];

		memset(&b, 0, sizeof(b));
		for (int c = 0; c < 3; c++)
			if (!pm_vector_init(&cols[c], rt->fields[c].type, k, false, arena))
				exit(1);
		for (int64_t i = 0; i < k; i++)
		{
			int64_t		id = first + (done + i) * step;

			PM_VEC_VALUES(&cols[0], int64_t)[i] = id;
			PM_VEC_VALUES(&cols[1], int64_t)[i] = id * mul;
			PM_VEC_VALUES(&cols[2], int64_t)[i] = id;
		}
		for (int c = 0; c < 3; c++)
			cols[c].length = k;
		b.nrows = k;
		b.ncols = 3;
		b.cols = cols;
		if (pm_table_writer_write(w, &b, NULL, &err) != PM_OK)
			die("write", &err);
		done += k;
	}
}

static void
commit_rows(pm_fileio *io, const char *dir, int64_t first, int64_t step, int64_t n, int64_t mul)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table_writer *w;
	pm_error	err;
	int64_t		sid;

	if (pm_table_writer_open(pm_env_default(), io, dir, "bench", &w, &err) != PM_OK)
		die("writer", &err);
	write_rows(w, arena, first, step, n, mul);
	if (pm_table_writer_commit(w, 1, &sid, &err) != PM_OK)
		die("commit", &err);
	pm_table_writer_close(w);
	pm_arena_destroy(arena);
}

static void
full_compact(pm_fileio *io, const char *dir, bool report)
{
	pm_table   *t;
	pm_compact_options o;
	pm_compact_result res;
	pm_error	err;
	double		cpu,
				wall;

	memset(&o, 0, sizeof(o));
	if (pm_table_open(pm_env_default(), io, dir, NULL, &t, &err) != PM_OK)
		die("open", &err);
	cpu = bench_cpu_ms(RUSAGE_SELF);
	wall = bench_wall_ms();
	if (pm_table_compact(t, dir, &o, &res, &err) != PM_OK)
		die("compact", &err);
	cpu = bench_cpu_ms(RUSAGE_SELF) - cpu;
	wall = bench_wall_ms() - wall;
	pm_table_close(t);
	if (report)
		printf("compact: cpu %.1f ms, wall %.1f ms, files in %d out %d, rows %lld, changelog files %d records %lld\n",
			   cpu, wall, res.files_in, res.files_out, (long long) res.rows_out,
			   res.changelog_files, (long long) res.changelog_records);
}

int
main(int argc, char **argv)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_field	f[3];
	pm_schema	s;
	static const char *pk[] = {"id"};
	const char *keys[] = {"bucket", "write-only", "changelog-producer"};
	const char *vals[] = {"1", "true", NULL};
	pm_error	err;
	int64_t		rows;

	if (argc != 4)
	{
		fprintf(stderr, "usage: compact_core DIR ROWS none|full-compaction\n");
		return 2;
	}
	rows = atoll(argv[2]);
	vals[2] = argv[3];
	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_BIGINT, false), NULL};
	f[1] = (pm_field) {1, "v", pm_type_new(arena, PM_TYPE_BIGINT, true), NULL};
	f[2] = (pm_field) {2, "w", pm_type_new(arena, PM_TYPE_BIGINT, true), NULL};
	memset(&s, 0, sizeof(s));
	s.row_type = pm_type_new_row(arena, f, 3, false);
	s.nprimary_keys = 1;
	s.primary_keys = pk;
	s.noptions = 3;
	s.option_keys = keys;
	s.option_values = vals;
	if (pm_table_create(pm_env_default(), io, argv[1], &s, &err) != PM_OK)
		die("create", &err);
	commit_rows(io, argv[1], 0, 1, rows, 1);
	full_compact(io, argv[1], false);
	commit_rows(io, argv[1], 0, 100, rows / 100, 7);
	full_compact(io, argv[1], true);
	pm_local_fileio_destroy(io);
	pm_arena_destroy(arena);
	return 0;
}
