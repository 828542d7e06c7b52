/*-------------------------------------------------------------------------
 * test_commit_conflict.c
 *	  The conflict checks of Java's ConflictDetection that commit.c runs on
 *	  COMPACT commits and commits with DELETE entries (commit_conflict.c):
 *	  LSM key ranges of level >= 1 (overlap and touching ranges refused,
 *	  level 0 and different levels exempt), total buckets kept per
 *	  partition (OVERWRITE exempt), a delta that deletes and adds the same
 *	  file or adds a live one. Files are synthetic metas (commit writes only
 *	  manifests) on the memory FileIO of a primary-key table.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "pk_fixture.h"
#include "row/binary_row.h"
#include "table/commit.h"
#include "table/snapshot.h"
#include "table/table_write.h"

#define DIR "/mem/wh/db.db/lsm"

typedef struct fixture
{
	pm_fileio  *io;
	pm_arena   *arena;
	pm_schema  *schema;
	const uint8_t *partition;	/* the empty row */
	int32_t		partition_len;
	int64_t		ident;
} fixture;

static uint8_t *
key_of(fixture *fx, int32_t id, int32_t *len)
{
	pm_field	f = {0, "id", pm_type_new(fx->arena, PM_TYPE_INT, false), NULL};
	const pm_type *kt = pm_type_new_row(fx->arena, &f, 1, false);
	pm_value	v;
	uint8_t    *buf;
	size_t		n;
	pm_error	err;

	memset(&v, 0, sizeof(v));
	v.u.i64 = id;
	assert_int_equal(pm_binary_row_encode_serialized(fx->arena, kt, &v, &buf, &n, &err), PM_OK);
	*len = (int32_t) n;
	return buf;
}

/* A data file of keys [lo, hi] at level. */
static pm_data_file_meta
file_of(fixture *fx, const char *name, int level, int32_t lo, int32_t hi)
{
	pm_data_file_meta m;

	memset(&m, 0, sizeof(m));
	m.file_name = name;
	m.file_size = 100;
	m.row_count = hi - lo + 1;
	m.min_key = key_of(fx, lo, &m.min_key_len);
	m.max_key = key_of(fx, hi, &m.max_key_len);
	m.min_sequence_number = lo;
	m.max_sequence_number = hi;
	m.level = level;
	m.delete_row_count = 0;
	m.file_source = level == 0 ? 0 : 1;
	m.nvalue_stats_cols = -1;
	m.nwrite_cols = -1;
	return m;
}

static void
setup(fixture *fx)
{
	static const char *keys[] = {"bucket"};
	static const char *vals[] = {"2"};
	pm_type    *empty;
	uint8_t    *buf;
	size_t		n;
	pm_error	err;

	memset(fx, 0, sizeof(*fx));
	fx->io = pm_memory_fileio_create(pm_env_default());
	fx->arena = pm_arena_create(pm_env_default());
	fx->schema = make_schema(fx->arena, 1, keys, vals);
	assert_int_equal(pm_table_create(pm_env_default(), fx->io, DIR, fx->schema, &err), PM_OK);
	empty = pm_type_new_row(fx->arena, NULL, 0, false);
	assert_int_equal(pm_binary_row_encode_serialized(fx->arena, empty, NULL, &buf, &n, &err),
					 PM_OK);
	fx->partition = buf;
	fx->partition_len = (int32_t) n;
}

static void
teardown(fixture *fx)
{
	pm_arena_destroy(fx->arena);
	pm_memory_fileio_destroy(fx->io);
}

static int
count_manifests(fixture *fx)
{
	char	  **names;
	int			n;
	pm_error	err;

	if (fx->io->list(fx->io, DIR "/manifest", fx->arena, &names, &n, &err) != PM_OK)
		return 0;
	return n;
}

/* Commit one change of bucket 0 (total_buckets) of kind; the result, *err filled. */
static pm_code
commit_change(fixture *fx, const char *kind, int total_buckets, const pm_data_file_meta *del,
			  int ndel, const pm_data_file_meta *add, int nadd, pm_error *err)
{
	pm_commit_change ch;
	pm_commit_request req;
	int64_t		sid;

	memset(&ch, 0, sizeof(ch));
	ch.partition = fx->partition;
	ch.partition_len = fx->partition_len;
	ch.bucket = 0;
	ch.total_buckets = total_buckets;
	ch.nadded = nadd;
	ch.added = add;
	ch.ndeleted = ndel;
	ch.deleted = del;
	memset(&req, 0, sizeof(req));
	req.commit_user = "conflict-user";
	req.commit_identifier = ++fx->ident;
	req.commit_kind = kind;
	req.schema = fx->schema;
	req.nchanges = 1;
	req.changes = &ch;
	pm_error_clear(err);
	return pm_table_commit(pm_env_default(), fx->io, DIR, &req, fx->arena, &sid, err);
}

static void
expect_ok(fixture *fx, const char *kind, int total_buckets, const pm_data_file_meta *del,
		  int ndel, const pm_data_file_meta *add, int nadd)
{
	pm_error	err;
	pm_code		rc = commit_change(fx, kind, total_buckets, del, ndel, add, nadd, &err);

	if (rc != PM_OK)
		fail_msg("commit failed: %s", err.message);
}

/* A refused commit: PM_ERR_CONFLICT with message containing want, no manifest left behind. */
static void
expect_conflict(fixture *fx, const char *kind, int total_buckets, const pm_data_file_meta *del,
				int ndel, const pm_data_file_meta *add, int nadd, const char *want)
{
	pm_error	err;
	int			before = count_manifests(fx);
	int64_t		latest_before,
				latest_after;
	pm_code		rc = commit_change(fx, kind, total_buckets, del, ndel, add, nadd, &err);

	assert_int_equal(rc, PM_ERR_CONFLICT);
	if (strstr(err.message, want) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", err.message, want);
	assert_int_equal(count_manifests(fx), before);
	assert_int_equal(pm_snapshot_latest_id(fx->io, DIR, fx->arena, &latest_before, &err), PM_OK);
	latest_after = latest_before;
	assert_int_equal(latest_after, fx->ident - 1);
	fx->ident--;				/* nothing was published */
}

/* Overlapping level-1 files are refused; touching ones (max == next min) too, as Java's >= 0. */
static void
test_overlap_and_touching(void **state)
{
	fixture		fx;
	pm_data_file_meta l0[3];
	pm_data_file_meta c;
	pm_data_file_meta d;

	(void) state;
	setup(&fx);
	l0[0] = file_of(&fx, "a-0.parquet", 0, 1, 10);
	l0[1] = file_of(&fx, "b-0.parquet", 0, 5, 20);
	l0[2] = file_of(&fx, "e-0.parquet", 0, 10, 30);
	/* level 0 is exempt: overlapping level-0 files, also added by a COMPACT */
	expect_ok(&fx, "APPEND", 2, NULL, 0, l0, 2);
	expect_ok(&fx, "COMPACT", 2, NULL, 0, &l0[2], 1);
	/* a compacted to level 1 */
	c = file_of(&fx, "c-1.parquet", 1, 1, 10);
	expect_ok(&fx, "COMPACT", 2, &l0[0], 1, &c, 1);
	/* b to level 1 overlaps c: refused */
	d = file_of(&fx, "d-1.parquet", 1, 5, 20);
	expect_conflict(&fx, "COMPACT", 2, &l0[1], 1, &d, 1, "LSM conflicts detected! Give up committing.");
	/* touching: d starts at c's max key */
	d = file_of(&fx, "d-1.parquet", 1, 10, 20);
	expect_conflict(&fx, "COMPACT", 2, &l0[1], 1, &d, 1, "c-1.parquet and d-1.parquet");
	/* b to level 2 over the same keys: another level, accepted */
	d = file_of(&fx, "d-2.parquet", 2, 5, 20);
	expect_ok(&fx, "COMPACT", 2, &l0[1], 1, &d, 1);
	/* e to level 1 starting just after c: accepted */
	d = file_of(&fx, "f-1.parquet", 1, 11, 30);
	expect_ok(&fx, "COMPACT", 2, &l0[2], 1, &d, 1);
	teardown(&fx);
}

/*
 * The race of issue 8: from one base (level-0 files a [1,10], b [5,20], e
 * [15,30]) one writer compacts a and b to level 5 [1,20] and commits; the
 * other upgrades e alone to level 5: its deletion check passes (e is
 * live) but level 5 would hold [1,20] and [15,30].
 */
static void
test_concurrent_compactions(void **state)
{
	fixture		fx;
	pm_data_file_meta l0[3];
	pm_data_file_meta full;
	pm_data_file_meta up;

	(void) state;
	setup(&fx);
	l0[0] = file_of(&fx, "a-0.parquet", 0, 1, 10);
	l0[1] = file_of(&fx, "b-0.parquet", 0, 5, 20);
	l0[2] = file_of(&fx, "e-0.parquet", 0, 15, 30);
	expect_ok(&fx, "APPEND", 2, NULL, 0, l0, 3);
	full = file_of(&fx, "full-5.parquet", 5, 1, 20);
	expect_ok(&fx, "COMPACT", 2, l0, 2, &full, 1);
	up = l0[2];
	up.level = 5;
	expect_conflict(&fx, "COMPACT", 2, &l0[2], 1, &up, 1, "LSM conflicts detected!");
	/* an APPEND commit (no deletes) is not checked, as Java's */
	expect_ok(&fx, "APPEND", 2, NULL, 0, &up, 1);
	teardown(&fx);
}

/* checkBucketKeepSame: a COMPACT of another total bucket count is refused, an OVERWRITE not. */
static void
test_total_buckets(void **state)
{
	fixture		fx;
	pm_data_file_meta a;
	pm_data_file_meta b;

	(void) state;
	setup(&fx);
	a = file_of(&fx, "a-0.parquet", 0, 1, 10);
	expect_ok(&fx, "APPEND", 2, NULL, 0, &a, 1);
	b = file_of(&fx, "b-1.parquet", 1, 1, 10);
	expect_conflict(&fx, "COMPACT", 4, &a, 1, &b, 1,
					"Total buckets of partition changed from 2 to 4 without overwrite");
	expect_ok(&fx, "OVERWRITE", 4, &a, 1, &b, 1);
	teardown(&fx);
}

/* FileEntry.mergeEntries: deleting and adding one file, or adding a live one, is refused. */
static void
test_delta_merge(void **state)
{
	fixture		fx;
	pm_data_file_meta a;
	pm_data_file_meta b;
	pm_data_file_meta two[2];

	(void) state;
	setup(&fx);
	a = file_of(&fx, "a-0.parquet", 0, 1, 10);
	b = file_of(&fx, "b-0.parquet", 0, 11, 20);
	expect_ok(&fx, "APPEND", 2, NULL, 0, &a, 1);
	expect_ok(&fx, "APPEND", 2, NULL, 0, &b, 1);
	/* delete a and add it back at the same level */
	expect_conflict(&fx, "COMPACT", 2, &a, 1, &a, 1, "deletes and adds file a-0.parquet");
	/* delete a, add b (live already) */
	expect_conflict(&fx, "COMPACT", 2, &a, 1, &b, 1, "File deletion conflicts detected!");
	/* add one new file twice */
	two[0] = file_of(&fx, "c-1.parquet", 1, 1, 10);
	two[1] = two[0];
	expect_conflict(&fx, "COMPACT", 2, &a, 1, two, 2, "adds twice file c-1.parquet");
	/* an upgrade (same file, another level) is fine */
	two[0] = a;
	two[0].level = 3;
	expect_ok(&fx, "COMPACT", 2, &a, 1, two, 1);
	teardown(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap_and_touching),
		cmocka_unit_test(test_concurrent_compactions),
		cmocka_unit_test(test_total_buckets),
		cmocka_unit_test(test_delta_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
