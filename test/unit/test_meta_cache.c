/*-------------------------------------------------------------------------
 * test_meta_cache.c
 *	  The metadata cache (common/meta_cache.h): byte budget and LRU
 *	  eviction, keys by path and size, off at budget 0; and through the
 *	  table layer on corpus tables copied into an in-memory FileIO: a second
 *	  plan and read of the same snapshot hits (manifest lists, manifests,
 *	  footers) and reads fewer bytes, with the same result; a data file
 *	  rewritten under its name with another size is read anew, never with
 *	  the footer cached for the old bytes.
 *-------------------------------------------------------------------------
 */
#define _XOPEN_SOURCE 700
#include "unit.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/meta_cache.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "table/schema.h"
#include "table/snapshot.h"
#include "table/table.h"

static pm_meta_bytes
bytes_of(const char *s)
{
	pm_meta_bytes b;

	b.data = (const uint8_t *) s;
	b.len = strlen(s) + 1;
	return b;
}

/* The cached string under (path, size), copied into arena; NULL on a miss. */
static const char *
fetch_string(pm_arena *arena, const char *path, int64_t size)
{
	pm_meta_bytes *b = pm_meta_cache_fetch(PM_META_PARQUET_FOOTER, path, size, arena,
										   pm_meta_bytes_flatten);

	return b != NULL ? (const char *) b->data : NULL;
}

static void
store_string(const char *path, int64_t size, const char *s)
{
	pm_meta_bytes b = bytes_of(s);

	pm_meta_cache_store(PM_META_PARQUET_FOOTER, path, size, &b, pm_meta_bytes_flatten);
}

/*
 * pm_meta_cache_pin: the cached value in place; a pinned value outlives its
 * eviction, its replacement and budget 0 until unpinned (ASan sees a use
 * after free or a leak otherwise).
 */
static void
test_pinned(void **state)
{
	pm_meta_pin *pin;
	pm_meta_pin *pin2;
	const pm_meta_bytes *v;
	const pm_meta_bytes *v2;
	pm_meta_cache_stats st;

	(void) state;
	pm_meta_cache_set_budget(1 << 20);
	assert_null(pm_meta_cache_pin(PM_META_PARQUET_FOOTER, "/p/a", 7, PM_META_COUNT, &pin));
	assert_null(pin);
	store_string("/p/a", 7, "first");
	assert_null(pm_meta_cache_pin(PM_META_PARQUET_FOOTER, "/p/a", 8, PM_META_COUNT, &pin));	/* other size */
	assert_null(pm_meta_cache_pin(PM_META_PARQUET_PAGE_INDEX, "/p/a", 7, PM_META_COUNT, &pin));	/* kind */
	v = pm_meta_cache_pin(PM_META_PARQUET_FOOTER, "/p/a", 7, PM_META_COUNT, &pin);
	assert_non_null(v);
	assert_non_null(pin);
	assert_string_equal((const char *) v->data, "first");
	v2 = pm_meta_cache_pin(PM_META_PARQUET_FOOTER, "/p/a", 7, PM_META_COUNT, &pin2);
	assert_ptr_equal(v, v2);	/* in place: the same block */
	/* replaced under the same key: the pinned value stays as it was */
	store_string("/p/a", 7, "second");
	assert_string_equal((const char *) v->data, "first");
	pm_meta_cache_unpin(pin2);
	v2 = pm_meta_cache_pin(PM_META_PARQUET_FOOTER, "/p/a", 7, PM_META_COUNT, &pin2);
	assert_string_equal((const char *) v2->data, "second");
	/* budget 0 drops both from the cache; both stay readable while pinned */
	pm_meta_cache_set_budget(0);
	pm_meta_cache_get_stats(&st);
	assert_int_equal(st.entries, 0);
	assert_string_equal((const char *) v->data, "first");
	assert_string_equal((const char *) v2->data, "second");
	pm_meta_cache_unpin(pin);
	pm_meta_cache_unpin(pin2);
	pm_meta_cache_unpin(NULL);
}

/* Owned values: kept as they are, freed by their function once neither cached nor pinned. */
static int	owned_freed;

static void
free_owned(void *v)
{
	owned_freed++;
	free(v);
}

static void
test_owned(void **state)
{
	pm_meta_pin *pin1;
	pm_meta_pin *pin2;
	pm_meta_pin *none;
	int		   *v = malloc(sizeof(int));
	const int  *got;
	pm_meta_cache_stats st;
	pm_meta_cache_stats st2;

	(void) state;
	owned_freed = 0;
	*v = 42;
	pm_meta_cache_set_budget(1 << 20);
	assert_true(pm_meta_cache_store_owned(PM_META_PARQUET_METADATA, "/o/a", 3, v, sizeof(int),
										  free_owned));
	pm_meta_cache_get_stats(&st);
	got = pm_meta_cache_pin(PM_META_PARQUET_METADATA, "/o/a", 3, 0, &pin1);
	assert_ptr_equal(got, v);	/* the value itself */
	/* count 0 counts nothing; COUNT_HIT leaves a miss uncounted */
	assert_null(pm_meta_cache_pin(PM_META_PARQUET_METADATA, "/o/b", 3, PM_META_COUNT_HIT, &none));
	assert_null(none);
	pm_meta_cache_get_stats(&st2);
	assert_int_equal(st2.hits, st.hits);
	assert_int_equal(st2.misses, st.misses);
	got = pm_meta_cache_pin(PM_META_PARQUET_METADATA, "/o/a", 3, PM_META_COUNT_HIT, &pin2);
	pm_meta_cache_get_stats(&st2);
	assert_int_equal(st2.hits, st.hits + 1);
	/* dropped from the cache while pinned twice: freed at the last unpin */
	pm_meta_cache_clear();
	assert_int_equal(*got, 42);
	pm_meta_cache_unpin(pin1);
	assert_int_equal(owned_freed, 0);
	assert_int_equal(*got, 42);
	pm_meta_cache_unpin(pin2);
	assert_int_equal(owned_freed, 1);
	/* off, or larger than the budget: not taken, the caller still owns it */
	v = malloc(sizeof(int));
	pm_meta_cache_set_budget(100);
	assert_false(pm_meta_cache_store_owned(PM_META_PARQUET_METADATA, "/o/c", 3, v, 1000,
										   free_owned));
	pm_meta_cache_set_budget(0);
	assert_false(pm_meta_cache_store_owned(PM_META_PARQUET_METADATA, "/o/c", 3, v, sizeof(int),
										   free_owned));
	assert_int_equal(owned_freed, 1);
	free(v);
}

static void
test_budget_and_lru(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_meta_cache_stats st;
	char		value[1000];
	char		path[32];
	size_t		one;

	(void) state;
	memset(value, 'v', sizeof(value) - 1);
	value[sizeof(value) - 1] = 0;
	pm_meta_cache_set_budget(1 << 20);
	store_string("/t/a", 1, value);
	pm_meta_cache_get_stats(&st);
	assert_int_equal(st.entries, 1);
	one = st.bytes;
	assert_true(one > sizeof(value) && one < sizeof(value) + 512);

	/* room for three entries: the fourth evicts the least recently used */
	pm_meta_cache_set_budget(one * 3 + one / 2);
	store_string("/t/b", 1, value);
	store_string("/t/c", 1, value);
	assert_non_null(fetch_string(arena, "/t/a", 1));	/* a is now newest */
	store_string("/t/d", 1, value);
	pm_meta_cache_get_stats(&st);
	assert_int_equal(st.entries, 3);
	assert_true(st.bytes <= st.budget);
	assert_int_equal(st.evictions, 1);
	assert_null(fetch_string(arena, "/t/b", 1));
	assert_string_equal(fetch_string(arena, "/t/a", 1), value);
	assert_non_null(fetch_string(arena, "/t/c", 1));
	assert_non_null(fetch_string(arena, "/t/d", 1));

	/* shrinking the budget evicts down to it */
	pm_meta_cache_set_budget(one + one / 2);
	pm_meta_cache_get_stats(&st);
	assert_int_equal(st.entries, 1);
	assert_true(st.bytes <= one + one / 2);

	/* a value larger than the whole budget is not cached, nothing is evicted */
	{
		char	   *big = malloc(4 * sizeof(value));

		memset(big, 'x', 4 * sizeof(value) - 1);
		big[4 * sizeof(value) - 1] = 0;
		store_string("/t/big", 1, big);
		free(big);
	}
	pm_meta_cache_get_stats(&st);
	assert_int_equal(st.entries, 1);
	assert_null(fetch_string(arena, "/t/big", 1));

	/* many entries: the hash table grows, every one is found */
	pm_meta_cache_set_budget(64 << 20);
	for (int i = 0; i < 2000; i++)
	{
		snprintf(path, sizeof(path), "/t/many-%d", i);
		store_string(path, i, path);
	}
	for (int i = 0; i < 2000; i++)
	{
		snprintf(path, sizeof(path), "/t/many-%d", i);
		assert_string_equal(fetch_string(arena, path, i), path);
	}
	pm_meta_cache_set_budget(0);
	pm_arena_destroy(arena);
}

static void
test_key_is_path_and_size(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_meta_cache_stats before,
				after;

	(void) state;
	pm_meta_cache_set_budget(1 << 20);
	store_string("/t/x", 100, "old");
	assert_string_equal(fetch_string(arena, "/t/x", 100), "old");
	/* the same name with another size (deleted and written again) misses */
	assert_null(fetch_string(arena, "/t/x", 101));
	assert_null(fetch_string(arena, "/t/x2", 100));
	store_string("/t/x", 101, "new");
	assert_string_equal(fetch_string(arena, "/t/x", 101), "new");
	assert_string_equal(fetch_string(arena, "/t/x", 100), "old");
	/* storing the same key again replaces the value */
	store_string("/t/x", 100, "older");
	assert_string_equal(fetch_string(arena, "/t/x", 100), "older");

	/* budget 0: off, empty, lookups not even counted */
	pm_meta_cache_set_budget(0);
	pm_meta_cache_get_stats(&before);
	assert_int_equal(before.entries, 0);
	assert_int_equal(before.bytes, 0);
	store_string("/t/x", 100, "old");
	assert_null(fetch_string(arena, "/t/x", 100));
	pm_meta_cache_get_stats(&after);
	assert_int_equal(after.entries, 0);
	assert_int_equal(after.misses, before.misses);
	assert_int_equal(after.hits, before.hits);
	pm_arena_destroy(arena);
}

/* ---- through the table layer -------------------------------------------- */

static pm_fileio *tree_io;

static int
add_file(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	FILE	   *f;
	uint8_t    *buf;
	size_t		n;
	pm_error	err;

	(void) ftw;
	if (type != FTW_F)
		return 0;
	buf = malloc((size_t) sb->st_size + 1);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, (size_t) sb->st_size, f);
	fclose(f);
	assert_int_equal(n, (size_t) sb->st_size);
	assert_int_equal(pm_memory_fileio_add(tree_io, path, buf, n, &err), PM_OK);
	free(buf);
	return 0;
}

/* The corpus table rel copied into a memory FileIO; its path in *dir. */
static pm_fileio *
load_table(const char *rel, char **dir)
{
	unit_require_corpus();
	*dir = strdup(unit_corpus_path(rel));
	tree_io = pm_memory_fileio_create(pm_env_default());
	assert_int_equal(nftw(*dir, add_file, 16, FTW_PHYS), 0);
	return tree_io;
}

/* Rows of every field of the latest snapshot, and a checksum of the batches' null counts. */
typedef struct read_result
{
	int64_t		rows;
	int64_t		nonnull;
	int64_t		manifests_read;
	int			reads;			/* FileIO reads the plan and read took */
	int64_t		hits;
	int64_t		misses;
	pm_code		code;			/* of the read */
	char		message[256];
} read_result;

static read_result
plan_and_read_code(pm_fileio *io, const char *dir)
{
	read_result r = {0};
	pm_table   *t;
	pm_scan    *scan;
	pm_scan_reader *reader;
	pm_batch   *b;
	pm_error	err;
	int			fields[64];
	int			nfields;
	int			reads_before = pm_memory_fileio_read_count(io);
	pm_meta_cache_stats before,
				after;

	pm_meta_cache_get_stats(&before);
	pm_error_clear(&err);
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &t, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(t, NULL, &scan, &err), PM_OK);
	r.manifests_read = pm_scan_get_stats(scan)->manifests_read;
	nfields = pm_table_schema(t)->row_type->nfields;
	assert_true(nfields <= 64);
	for (int i = 0; i < nfields; i++)
		fields[i] = i;
	assert_int_equal(pm_scan_reader_open(scan, fields, nfields, &reader, &err), PM_OK);
	while (pm_scan_reader_next(reader, &b, &err) == PM_OK && b != NULL)
	{
		r.rows += b->nrows;
		for (int c = 0; c < b->ncols; c++)
			for (int64_t i = 0; i < b->nrows; i++)
				r.nonnull += !pm_vector_is_null(&b->cols[c], i);
	}
	r.code = err.code;
	snprintf(r.message, sizeof(r.message), "%s", err.message);
	pm_scan_reader_close(reader);
	pm_scan_free(scan);
	pm_table_close(t);
	pm_meta_cache_get_stats(&after);
	r.reads = pm_memory_fileio_read_count(io) - reads_before;
	r.hits = after.hits - before.hits;
	r.misses = after.misses - before.misses;
	return r;
}

static read_result
plan_and_read(pm_fileio *io, const char *dir)
{
	read_result r = plan_and_read_code(io, dir);

	if (r.code != PM_OK)
		fail_msg("read: %s", r.message);
	return r;
}

static void
check_second_read_hits(const char *rel)
{
	char	   *dir;
	pm_fileio  *io = load_table(rel, &dir);
	read_result off,
				first,
				second;

	pm_meta_cache_set_budget(0);
	off = plan_and_read(io, dir);
	assert_true(off.rows > 0);
	assert_int_equal(off.hits + off.misses, 0);

	pm_meta_cache_set_budget(8 << 20);
	first = plan_and_read(io, dir);
	second = plan_and_read(io, dir);
	/* the first read fills the cache: list(s), manifest(s), one footer per file */
	assert_int_equal(first.hits, 0);
	assert_true(first.misses >= 3);
	assert_int_equal(second.misses, 0);
	/* (fewer hits than misses before when manifests are ORC: their tails are not looked up) */
	assert_true(second.hits >= 3 && second.hits <= first.misses);
	assert_true(second.reads < first.reads);
	assert_int_equal(first.reads, off.reads);
	/* same answers with the cache off, filling it and hitting it */
	assert_int_equal(first.rows, off.rows);
	assert_int_equal(second.rows, off.rows);
	assert_int_equal(first.nonnull, off.nonnull);
	assert_int_equal(second.nonnull, off.nonnull);
	assert_int_equal(second.manifests_read, off.manifests_read);
	pm_meta_cache_set_budget(0);
	pm_memory_fileio_destroy(io);
	free(dir);
}

static void
test_table_hits_parquet(void **state)
{
	(void) state;
	check_second_read_hits("tables/parquet/append_table_with_alter_table.db/append_table_with_alter_table");
}

static void
test_table_hits_orc(void **state)
{
	(void) state;
	check_second_read_hits("tables/orc/multi_partition_append_table.db/multi_partition_append_table");
}

/*
 * A data file replaced under its name by another file of the table (another
 * size) while the manifest still names the old one: read through a warm
 * cache, the answer is what a cold read of the new bytes gives, or (Parquet,
 * whose reader takes the footer by the manifest's size: refused) an error
 * saying the file was written again; never the old footer applied to new
 * bytes.
 */
static void
check_rewritten_file(const char *rel, const char *victim, const char *donor, bool refused)
{
	char	   *dir;
	pm_fileio  *io = load_table(rel, &dir);
	char		vpath[4096],
				dpath[4096];
	pm_arena   *arena = pm_arena_create(pm_env_default());
	uint8_t    *data;
	size_t		len;
	pm_error	err;
	read_result warm,
				cold,
				before;

	snprintf(vpath, sizeof(vpath), "%s/%s", dir, victim);
	snprintf(dpath, sizeof(dpath), "%s/%s", dir, donor);
	pm_meta_cache_set_budget(8 << 20);
	before = plan_and_read(io, dir);
	assert_int_equal(pm_fileio_read_all(io, dpath, arena, 1 << 20, &data, &len, &err), PM_OK);
	assert_int_equal(pm_memory_fileio_add(io, vpath, data, len, &err), PM_OK);
	warm = plan_and_read_code(io, dir);
	assert_true(warm.hits > 0);
	if (refused)
	{
		assert_int_equal(warm.code, PM_ERR_CORRUPT);
		assert_non_null(strstr(warm.message, "written again under its name"));
	}
	else
		assert_true(warm.misses >= 1);	/* the rewritten file's footer */
	pm_meta_cache_set_budget(0);
	cold = plan_and_read(io, dir);
	if (!refused)
	{
		assert_int_equal(warm.code, PM_OK);
		assert_int_equal(warm.rows, cold.rows);
		assert_int_equal(warm.nonnull, cold.nonnull);
	}
	assert_true(cold.rows != before.rows || cold.nonnull != before.nonnull);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
	free(dir);
}

static void
test_rewritten_parquet_file(void **state)
{
	(void) state;
	check_rewritten_file("tables/parquet/parquet_append_table.db/parquet_append_table",
						 "bucket-0/data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-1.parquet",
						 "bucket-0/data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-0.parquet", true);
}

static void
test_rewritten_orc_file(void **state)
{
	(void) state;
	check_rewritten_file("tables/orc/multi_partition_append_table.db/multi_partition_append_table",
						 "f1=10/f2=0/bucket-0/data-0074785c-ead5-47e4-b2a9-92ee261b13ca-0.orc",
						 "f1=10/f2=0/bucket-0/data-1c547e5f-48b2-4917-a996-71d306377661-0.orc", false);
}

/* The file at path with every `from` replaced by `to` (same length). */
static void
rewrite_same_size(pm_fileio *io, const char *path, const char *from, const char *to)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	uint8_t    *data;
	size_t		len;
	pm_error	err;
	char	   *text;
	char	   *at;

	assert_int_equal(strlen(from), strlen(to));
	assert_int_equal(pm_fileio_read_all(io, path, arena, 1 << 20, &data, &len, &err), PM_OK);
	text = pm_arena_strndup(arena, (const char *) data, len);
	at = strstr(text, from);
	assert_non_null(at);
	memcpy(at, to, strlen(to));
	assert_int_equal(pm_memory_fileio_add(io, path, text, len, &err), PM_OK);
	pm_arena_destroy(arena);
}

/*
 * Snapshot and schema files come back under their names (rollback, a table
 * created again), possibly with the same size: the cached parse serves only
 * the bytes it was parsed from.
 */
static void
test_snapshot_and_schema_rewritten(void **state)
{
	char	   *dir;
	pm_fileio  *io = load_table("tables/parquet/append_09.db/append_09", &dir);
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot *snap;
	pm_schema  *schema;
	pm_error	err;
	pm_meta_cache_stats before,
				after;
	char		path[4096];

	(void) state;
	pm_meta_cache_set_budget(8 << 20);
	assert_int_equal(pm_snapshot_load(io, dir, 1, arena, &snap, &err), PM_OK);
	assert_int_equal(pm_schema_load(io, dir, 0, arena, &schema, &err), PM_OK);
	pm_meta_cache_get_stats(&before);
	assert_int_equal(pm_snapshot_load(io, dir, 1, arena, &snap, &err), PM_OK);
	assert_int_equal(pm_schema_load(io, dir, 0, arena, &schema, &err), PM_OK);
	pm_meta_cache_get_stats(&after);
	assert_int_equal(after.hits - before.hits, 2);
	assert_string_equal(snap->commit_user, "2b0fd84f-219b-4aab-a45b-114a80e1f448");
	assert_int_equal(snap->total_record_count, 5);
	assert_string_equal(schema->row_type->fields[3].name, "f3");
	assert_string_equal(pm_schema_option(schema, "bucket-key"), "f2");
	assert_int_equal(schema->npartition_keys, 1);
	assert_string_equal(schema->partition_keys[0], "f1");

	snprintf(path, sizeof(path), "%s/snapshot/snapshot-1", dir);
	rewrite_same_size(io, path, "2b0fd84f-219b", "0123456789abc");
	rewrite_same_size(io, path, "\"totalRecordCount\" : 5", "\"totalRecordCount\" : 7");
	snprintf(path, sizeof(path), "%s/schema/schema-0", dir);
	rewrite_same_size(io, path, "\"bucket-key\" : \"f2\"", "\"bucket-key\" : \"f1\"");
	assert_int_equal(pm_snapshot_load(io, dir, 1, arena, &snap, &err), PM_OK);
	assert_int_equal(pm_schema_load(io, dir, 0, arena, &schema, &err), PM_OK);
	assert_string_equal(snap->commit_user, "0123456789abc-4aab-a45b-114a80e1f448");
	assert_int_equal(snap->total_record_count, 7);
	assert_string_equal(pm_schema_option(schema, "bucket-key"), "f1");
	/* and the new parse is what is cached now */
	assert_int_equal(pm_snapshot_load(io, dir, 1, arena, &snap, &err), PM_OK);
	assert_int_equal(snap->total_record_count, 7);
	pm_meta_cache_set_budget(0);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_and_lru),
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_owned),
		cmocka_unit_test(test_key_is_path_and_size),
		cmocka_unit_test(test_table_hits_parquet),
		cmocka_unit_test(test_table_hits_orc),
		cmocka_unit_test(test_rewritten_parquet_file),
		cmocka_unit_test(test_rewritten_orc_file),
		cmocka_unit_test(test_snapshot_and_schema_rewritten),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
