/*-------------------------------------------------------------------------
 * test_cross_partition.c
 *	  Cross-partition upserts: table/cross_partition.c (the key index and
 *	  GlobalIndexAssigner's routing, per merge engine) and the table
 *	  writer on a pk_fixture table partitioned by w whose primary key (id)
 *	  lacks w, read back through pm_table_read.
 *
 * The expected routing is read off apache/paimon 1.4.2
 * crosspartition/GlobalIndexAssigner.java (processInput), BucketAssigner.java
 * and the three ExistingProcessors; test/oracle/write/
 * write_cross_partition_check.sh compares whole tables with Java's.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "table/cross_partition.h"
#include "table/table_write.h"

#include "pk_fixture.h"

static const uint8_t P1[] = {1};
static const uint8_t P2[] = {2};

static const uint8_t *
key_of(int i, uint8_t *buf)
{
	memset(buf, 0, 4);
	buf[0] = (uint8_t) i;
	buf[1] = (uint8_t) (i >> 8);
	return buf;
}

static pm_cross_partition *
make_index(pm_xpart_existing existing, int64_t target)
{
	pm_cross_partition *cp;
	pm_error	err;

	assert_int_equal(pm_cross_partition_create(pm_env_default(), existing, target, &cp, &err), PM_OK);
	return cp;
}

static void
route(pm_cross_partition *cp, int key, const uint8_t *part, pm_xpart_target t[2], int *n)
{
	uint8_t		kb[4];
	pm_error	err;

	assert_int_equal(pm_cross_partition_assign(cp, key_of(key, kb), 4, part, 1, t, n, &err), PM_OK);
}

static void
expect_target(const pm_xpart_target *t, const uint8_t *part, int32_t bucket, bool set_partition,
			  bool retract)
{
	assert_int_equal(t->partition_len, 1);
	assert_int_equal(t->partition[0], part[0]);
	assert_int_equal(t->bucket, bucket);
	assert_int_equal(t->set_partition, set_partition);
	assert_int_equal(t->retract, retract);
}

/* deduplicate: -D in the old partition and bucket, then a new key in the new one */
static void
test_delete_existing(void **state)
{
	pm_cross_partition *cp = make_index(PM_XPART_DELETE_EXISTING, 2);
	pm_xpart_target t[2];
	uint8_t		kb[4];
	pm_error	err;
	int			n;

	(void) state;
	/* bootstrap: keys 1, 2 in P1 bucket 0 (full at 2), key 3 in P1 bucket 1 */
	assert_int_equal(pm_cross_partition_bootstrap(cp, key_of(1, kb), 4, P1, 1, 0, &err), PM_OK);
	assert_int_equal(pm_cross_partition_bootstrap(cp, key_of(2, kb), 4, P1, 1, 0, &err), PM_OK);
	assert_int_equal(pm_cross_partition_bootstrap(cp, key_of(3, kb), 4, P1, 1, 1, &err), PM_OK);
	/* a key twice: Java's bulk load fails */
	assert_int_equal(pm_cross_partition_bootstrap(cp, key_of(3, kb), 4, P2, 1, 0, &err),
					 PM_ERR_CORRUPT);
	assert_int_equal(pm_cross_partition_keys(cp), 3);
	assert_true(pm_cross_partition_memory(cp) > 0);

	/* same partition: its bucket */
	route(cp, 1, P1, t, &n);
	assert_int_equal(n, 1);
	expect_target(&t[0], P1, 0, false, false);
	/* a new key in P1: bucket 0 is full, bucket 1 has room */
	route(cp, 4, P1, t, &n);
	assert_int_equal(n, 1);
	expect_target(&t[0], P1, 1, false, false);
	/* P1 buckets 0 and 1 full: the smallest unused id */
	route(cp, 5, P1, t, &n);
	expect_target(&t[0], P1, 2, false, false);
	/* key 1 moves to P2: retract in P1/0, then bucket 0 of P2 */
	route(cp, 1, P2, t, &n);
	assert_int_equal(n, 2);
	expect_target(&t[0], P1, 0, true, true);
	expect_target(&t[1], P2, 0, false, false);
	/* the index follows the key; P1/0 has room again (decrement) */
	route(cp, 1, P2, t, &n);
	assert_int_equal(n, 1);
	expect_target(&t[0], P2, 0, false, false);
	route(cp, 6, P1, t, &n);
	expect_target(&t[0], P1, 0, false, false);
	/* back to its first partition: retract in P2, a new bucket in P1 (0 and 1 full, 2 has room) */
	route(cp, 1, P1, t, &n);
	assert_int_equal(n, 2);
	expect_target(&t[0], P2, 0, true, true);
	expect_target(&t[1], P1, 2, false, false);
	pm_cross_partition_free(cp);
}

/* partial-update, aggregation: the old partition keeps the key */
static void
test_use_old(void **state)
{
	pm_cross_partition *cp = make_index(PM_XPART_USE_OLD, 10);
	pm_xpart_target t[2];
	uint8_t		kb[4];
	pm_error	err;
	int			n;

	(void) state;
	assert_int_equal(pm_cross_partition_bootstrap(cp, key_of(7, kb), 4, P1, 1, 3, &err), PM_OK);
	route(cp, 7, P2, t, &n);
	assert_int_equal(n, 1);
	expect_target(&t[0], P1, 3, true, false);
	route(cp, 7, P1, t, &n);
	assert_int_equal(n, 1);
	expect_target(&t[0], P1, 3, false, false);
	/* a new key in P2 starts its bucket 0 */
	route(cp, 8, P2, t, &n);
	expect_target(&t[0], P2, 0, false, false);
	pm_cross_partition_free(cp);
}

/* first-row: a key found elsewhere drops the record */
static void
test_skip_new(void **state)
{
	pm_cross_partition *cp = make_index(PM_XPART_SKIP_NEW, 10);
	pm_xpart_target t[2];
	int			n;

	(void) state;
	route(cp, 9, P1, t, &n);
	assert_int_equal(n, 1);
	expect_target(&t[0], P1, 0, false, false);
	route(cp, 9, P2, t, &n);
	assert_int_equal(n, 0);
	route(cp, 9, P1, t, &n);
	assert_int_equal(n, 1);
	pm_cross_partition_free(cp);
}

/* the pk_fixture table partitioned by w (not in the primary key) */
static pm_table_writer *
create_partitioned(pm_fileio *io, pm_arena *arena, const char *dir, int nopt, const char **k,
				   const char **v)
{
	static const char *part[] = {"w"};
	pm_schema  *s = make_schema(arena, nopt, k, v);
	pm_error	err;

	s->npartition_keys = 1;
	s->partition_keys = part;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	return open_writer(io, dir);
}

static int
count_files(pm_fileio *io, pm_arena *arena, const char *dir)
{
	char	  **names;
	int			n;
	pm_error	err;

	if (io->list(io, dir, arena, &names, &n, &err) != PM_OK)
		return -1;
	return n;
}

static void
test_writer_deduplicate(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *k[] = {"bucket", "dynamic-bucket.target-row-num"};
	static const char *v[] = {"-1", "2"};
	const char *dir = "/mem/wh/db.db/xp";
	trow		first[4] = {{10, true, 10, 1}, {11, true, 11, 1}, {12, true, 12, 1}, {13, true, 13, 2}};
	/* 10 moves to w=2, 11 moves to w=2 and back in one commit, 13 deleted naming w=1 */
	trow		second[4] = {{10, true, 100, 2}, {11, true, 110, 2}, {11, true, 111, 1},
	{13, false, INT64_MIN, 1}};
	uint8_t		kinds[4] = {PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_INSERT, PM_ROW_DELETE};
	pm_table_writer *w;
	result		r;
	int			before;

	(void) state;
	w = create_partitioned(io, arena, dir, 2, k, v);
	write_kinds(w, arena, first, NULL, 4);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	/* two keys per bucket: w=1 has buckets 0 and 1, w=2 bucket 0; no HASH index */
	assert_true(io->is_dir(io, "/mem/wh/db.db/xp/w=1/bucket-1"));
	assert_true(io->is_dir(io, "/mem/wh/db.db/xp/w=2/bucket-0"));
	assert_false(io->is_dir(io, "/mem/wh/db.db/xp/index"));
	before = count_files(io, arena, "/mem/wh/db.db/xp/w=1/bucket-0");

	w = open_writer(io, dir);
	write_kinds(w, arena, second, kinds, 4);
	commit(w, 2, 2);
	pm_table_writer_close(w);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 3);
	assert_true(r.present[10]);
	assert_int_equal(r.w[10], 2);
	assert_int_equal(r.v[10], 100);
	assert_int_equal(r.w[11], 1);
	assert_int_equal(r.v[11], 111);
	assert_int_equal(r.w[12], 1);
	/* 13 is in w=2: the -D naming w=1 retracts it there too */
	assert_false(r.present[13]);
	/* the retractions of 10 and 11 are a new file in w=1/bucket-0 */
	assert_int_equal(count_files(io, arena, "/mem/wh/db.db/xp/w=1/bucket-0"), before + 1);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_writer_use_old(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *k[] = {"merge-engine", "fields.v.aggregate-function"};
	static const char *v[] = {"aggregation", "sum"};
	static const char *pk[] = {"merge-engine"};
	static const char *pv[] = {"partial-update"};
	trow		first[2] = {{20, true, 5, 1}, {21, true, 6, 1}};
	/* no names: the fixture checks name = "n<v>", and v is summed */
	trow		afirst[2] = {{20, false, 5, 1}, {21, false, 6, 1}};
	trow		second[2] = {{20, false, 7, 3}, {22, false, 8, 3}};
	trow		psecond[1] = {{21, false, INT64_MIN, 3}};
	pm_table_writer *w;
	result		r;

	(void) state;
	/* aggregation: the sum goes on in the old partition */
	w = create_partitioned(io, arena, "/mem/wh/db.db/agg", 2, k, v);
	write_kinds(w, arena, afirst, NULL, 2);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	w = open_writer(io, "/mem/wh/db.db/agg");
	write_kinds(w, arena, second, NULL, 2);
	commit(w, 2, 2);
	pm_table_writer_close(w);
	read_all(io, "/mem/wh/db.db/agg", &r);
	assert_int_equal(r.nrows, 3);
	assert_int_equal(r.v[20], 12);
	assert_int_equal(r.w[20], 1);
	assert_int_equal(r.w[22], 3);
	assert_false(io->is_dir(io, "/mem/wh/db.db/agg/w=3/bucket-1"));

	/* partial-update: the new non-null fields land in the old partition */
	w = create_partitioned(io, arena, "/mem/wh/db.db/pu", 1, pk, pv);
	write_kinds(w, arena, first, NULL, 2);
	commit(w, 1, 1);
	pm_table_writer_close(w);
	w = open_writer(io, "/mem/wh/db.db/pu");
	write_kinds(w, arena, psecond, NULL, 1);
	commit(w, 2, 2);
	pm_table_writer_close(w);
	read_all(io, "/mem/wh/db.db/pu", &r);
	assert_int_equal(r.nrows, 2);
	assert_int_equal(r.w[21], 1);
	assert_int_equal(r.v[21], 6);
	assert_false(io->is_dir(io, "/mem/wh/db.db/pu/w=3"));
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* a commit after the index was built: the index is stale, the commit conflicts */
static void
test_writer_conflict(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/conflict";
	trow		a[1] = {{30, true, 1, 1}};
	trow		b[1] = {{30, true, 2, 2}};
	pm_table_writer *wa;
	pm_table_writer *wb;
	int64_t		sid;
	pm_error	err;
	result		r;

	(void) state;
	wa = create_partitioned(io, arena, dir, 0, NULL, NULL);
	write_kinds(wa, arena, a, NULL, 1);
	wb = open_writer(io, dir);
	write_kinds(wb, arena, b, NULL, 1);
	commit(wb, 1, 1);
	pm_table_writer_close(wb);
	/* wa's index (from the empty table) does not know key 30 in w=2 */
	assert_int_equal(pm_table_writer_commit(wa, 1, &sid, &err), PM_ERR_CONFLICT);
	assert_non_null(strstr(err.message, "key index"));
	pm_table_writer_abort(wa);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 1);
	assert_int_equal(r.w[30], 2);
	/* a writer's own commits keep its index: a second commit needs no new one */
	wa = open_writer(io, dir);
	write_kinds(wa, arena, a, NULL, 1);
	commit(wa, 2, 2);
	write_kinds(wa, arena, b, NULL, 1);
	commit(wa, 3, 3);
	pm_table_writer_close(wa);
	read_all(io, dir, &r);
	assert_int_equal(r.nrows, 1);
	assert_int_equal(r.w[30], 2);
	assert_int_equal(r.v[30], 2);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* what stays refused, by name */
static void
test_writer_refusals(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *fk[] = {"merge-engine"};
	static const char *fv[] = {"first-row"};
	static const char *tk[] = {"cross-partition-upsert.index-ttl"};
	static const char *tv[] = {"1 h"};
	static const char *pk[] = {"bucket"};
	static const char *pv[] = {"-2"};
	static const char *part[] = {"w"};
	const char **keys[] = {fk, tk, pk};
	const char **vals[] = {fv, tv, pv};
	const char *want[] = {"first-row", "index-ttl", "bucket = -2"};

	(void) state;
	for (int i = 0; i < 3; i++)
	{
		char		dir[64];
		pm_schema  *s = make_schema(arena, 1, keys[i], vals[i]);
		pm_table_writer *w;
		pm_error	err;

		snprintf(dir, sizeof(dir), "/mem/wh/db.db/r%d", i);
		s->npartition_keys = 1;
		s->partition_keys = part;
		assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
		assert_int_equal(pm_table_writer_open(pm_env_default(), io, dir, "u", &w, &err),
						 PM_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.message, want[i]));
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delete_existing),
		cmocka_unit_test(test_use_old),
		cmocka_unit_test(test_skip_new),
		cmocka_unit_test(test_writer_deduplicate),
		cmocka_unit_test(test_writer_use_old),
		cmocka_unit_test(test_writer_conflict),
		cmocka_unit_test(test_writer_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
