/*-------------------------------------------------------------------------
 * gen_pk_recent.c
 *	  A primary-key table as streaming writers leave it (for the merge-read
 *	  benchmark, bench/README.md "Primary-key merge read"): commit 1 writes
 *	  keys 0..N-1, then UPDATES commits each write N/10 new keys above
 *	  every earlier one plus upserts of 1% of the keys of the commit before
 *	  (recent keys). Level-0 files of disjoint or nearly disjoint key
 *	  ranges: what sections (lsm/interval_partition.h) read without a
 *	  k-way merge. write-only, nothing compacted; written through the
 *	  core's own writer.
 *
 *	  table: id BIGINT NOT NULL (primary key), a INT, b BIGINT, d STRING;
 *	  options bucket, write-only = true, file.compression = zstd.
 *	  usage: gen_pk_recent TABLE_PATH N BUCKETS UPDATES
 *	  build: as bench/pk_merge_core.c.
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "table/schema.h"
#include "table/table_write.h"

#define CHUNK 65536

static pm_batch *
make_batch(pm_arena *arena, const pm_type *row, int64_t first, int64_t step, int n, int64_t ver)
{
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));
	int64_t		cap = 0;

	b->nrows = n;
	b->ncols = 4;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * 4);
	for (int c = 0; c < 4; c++)
	{
		if (!pm_vector_init(&b->cols[c], row->fields[c].type, n, true, arena))
			return NULL;
		b->cols[c].length = n;
	}
	for (int i = 0; i < n; i++)
	{
		int64_t		id = first + i * step;
		char		d[48];
		int			len = snprintf(d, sizeof(d), "row %lld version %lld", (long long) id,
								   (long long) ver);

		PM_VEC_VALUES(&b->cols[0], int64_t)[i] = id;
		PM_VEC_VALUES(&b->cols[1], int32_t)[i] = (int32_t) (id * 7 + ver);
		PM_VEC_VALUES(&b->cols[2], int64_t)[i] = id * 31 + ver;
		if (!pm_vector_append_data(&b->cols[3], &cap, d, len, arena))
			return NULL;
		b->cols[3].offsets[i + 1] = (int32_t) b->cols[3].data_size;
	}
	return b;
}

static int
write_range(pm_table_writer *w, int64_t first, int64_t step, int64_t n, int64_t ver,
			pm_error *err)
{
	for (int64_t done = 0; done < n; done += CHUNK)
	{
		pm_arena   *arena = pm_arena_create(pm_env_default());
		int			k = (int) (n - done < CHUNK ? n - done : CHUNK);
		pm_batch   *b = make_batch(arena, pm_table_writer_schema(w)->row_type,
								   first + done * step, step, k, ver);

		if (b == NULL || pm_table_writer_write(w, b, NULL, err) != PM_OK)
			return 1;
		pm_arena_destroy(arena);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_local_fileio_create(env);
	pm_arena   *arena = pm_arena_create(env);
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * 4);
	static const char *pk[] = {"id"};
	static const char *keys[] = {"bucket", "write-only", "file.compression"};
	const char *vals[3];
	pm_table_writer *w;
	pm_error	err;
	int64_t		n,
				next,
				sid;
	int			updates;

	if (argc != 5)
	{
		fprintf(stderr, "usage: %s TABLE_PATH N BUCKETS UPDATES\n", argv[0]);
		return 2;
	}
	n = atoll(argv[2]);
	vals[0] = argv[3];
	vals[1] = "true";
	vals[2] = "zstd";
	updates = atoi(argv[4]);
	f[0] = (pm_field) {0, "id", pm_type_new(arena, PM_TYPE_BIGINT, false), NULL};
	f[1] = (pm_field) {1, "a", pm_type_new(arena, PM_TYPE_INT, true), NULL};
	f[2] = (pm_field) {2, "b", pm_type_new(arena, PM_TYPE_BIGINT, true), NULL};
	f[3] = (pm_field) {3, "d", pm_type_new(arena, PM_TYPE_VARCHAR, true), NULL};
	s->row_type = pm_type_new_row(arena, f, 4, false);
	s->nprimary_keys = 1;
	s->primary_keys = pk;
	s->noptions = 3;
	s->option_keys = keys;
	s->option_values = vals;
	pm_error_clear(&err);
	if (pm_table_create(env, io, argv[1], s, &err) != PM_OK ||
		pm_table_writer_open(env, io, argv[1], "gen-pk-recent", &w, &err) != PM_OK ||
		write_range(w, 0, 1, n, 0, &err) != 0 ||
		pm_table_writer_commit(w, 1, &sid, &err) != PM_OK)
		goto fail;
	next = n;
	for (int u = 1; u <= updates; u++)
	{
		int64_t		prev = next - n / 10;

		/* 1% of the previous commit's keys upserted, then N/10 new keys */
		if (write_range(w, prev + 3, 97, n / 10 / 97, u, &err) != 0 ||
			write_range(w, next, 1, n / 10, u, &err) != 0 ||
			pm_table_writer_commit(w, 1 + u, &sid, &err) != PM_OK)
			goto fail;
		next += n / 10;
	}
	pm_table_writer_close(w);
	printf("%lld keys written\n", (long long) next);
	return 0;
fail:
	fprintf(stderr, "error: %s\n", err.message);
	return 1;
}
