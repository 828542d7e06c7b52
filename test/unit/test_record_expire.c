/*-------------------------------------------------------------------------
 * test_record_expire.c
 *	  Record-level expiry (lsm/record_expire.c) and the compactions that
 *	  apply it (lsm/compact.c): a record's time in seconds per type, the
 *	  keep/drop rule and the file rule at their boundaries, the option
 *	  refusals, and primary-key tables of the pk_fixture (time field w,
 *	  BIGINT) whose records of old and new times are compacted: exactly
 *	  the expired ones are dropped (before the merge, as Java drops them:
 *	  an expired update lets the older record show again), by
 *	  paimon_compact's full compaction, by a writer's compaction at commit,
 *	  by the rewrite of a file that would only be upgraded, and by the
 *	  rewrite of the expired files of a bucket at the max level.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/compact.h"
#include "lsm/record_expire.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#include "pk_fixture.h"

/* far from now either way: the clock never decides a test */
#define OLD_SECONDS INT64_C(1000)			/* 1970 */
#define NEW_SECONDS INT64_C(4102444800)		/* 2100-01-01 */
#define OLD_MILLIS INT64_C(1000000000000)	/* 2001, in milliseconds */
#define NEW_MILLIS INT64_C(4102444800000)	/* 2100, in milliseconds */

static pm_vector
one_value(pm_arena *arena, pm_type_id t, int64_t v, bool null)
{
	pm_vector	vec;

	assert_true(pm_vector_init(&vec, pm_type_new(arena, t, true), 1, true, arena));
	vec.length = 1;
	if (t == PM_TYPE_INT)
		PM_VEC_VALUES(&vec, int32_t)[0] = (int32_t) v;
	else
		PM_VEC_VALUES(&vec, int64_t)[0] = v;
	vec.nulls[0] = null;
	return vec;
}

static int64_t
seconds_of(pm_arena *arena, pm_type_id t, int64_t v)
{
	pm_record_expire re = {0, 0, t};
	pm_vector	vec = one_value(arena, t, v, false);
	int64_t		s = -1;

	assert_true(pm_record_expire_seconds(&re, &vec, 0, &s));
	return s;
}

/* createFieldGetterAndConvertToSecond, and wrap's keep rule */
static void
test_seconds_and_rule(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_record_expire re = {100, 0, PM_TYPE_BIGINT};
	pm_vector	vec;
	int64_t		s;

	(void) state;
	assert_int_equal(seconds_of(arena, PM_TYPE_INT, -5), -5);
	assert_int_equal(seconds_of(arena, PM_TYPE_BIGINT, 999999999999), 999999999999);
	assert_int_equal(seconds_of(arena, PM_TYPE_BIGINT, 1000000000000), 1000000000);
	assert_int_equal(seconds_of(arena, PM_TYPE_BIGINT, 1000000001999), 1000000001);
	/* negative millis are not recognized as millis (Java: value >= 10^12 only) */
	assert_int_equal(seconds_of(arena, PM_TYPE_BIGINT, -1000000000000), -1000000000000);
	/* timestamps: micros -> millis (floor) -> seconds (toward zero) */
	assert_int_equal(seconds_of(arena, PM_TYPE_TIMESTAMP, 1999999), 1);
	assert_int_equal(seconds_of(arena, PM_TYPE_TIMESTAMP_LTZ, -1500000), -1);
	assert_int_equal(seconds_of(arena, PM_TYPE_TIMESTAMP, -1), 0);	/* -1 ms / 1000 = 0 */
	assert_int_equal(seconds_of(arena, PM_TYPE_TIMESTAMP, -1000001), -1);

	/* kept while now <= t + E */
	vec = one_value(arena, PM_TYPE_BIGINT, 1000, false);
	assert_false(pm_record_expire_row(&re, &vec, 0, 1100));
	assert_true(pm_record_expire_row(&re, &vec, 0, 1101));
	/* NULL never expires */
	vec = one_value(arena, PM_TYPE_BIGINT, 0, true);
	assert_false(pm_record_expire_seconds(&re, &vec, 0, &s));
	assert_false(pm_record_expire_row(&re, &vec, 0, INT64_MAX));
	/* Java's long wraps: t + E past INT64_MAX is negative, so the record expires */
	vec = one_value(arena, PM_TYPE_BIGINT, INT64_MAX / 1000 * 1000, false);
	re.expire_seconds = INT64_MAX;
	assert_true(pm_record_expire_row(&re, &vec, 0, 0));
	pm_arena_destroy(arena);
}

static pm_code
create_with(pm_arena *arena, int n, const char **keys, const char **vals, pm_record_expire **re,
			pm_error *err)
{
	pm_schema  *s = make_schema(arena, n, keys, vals);

	return pm_record_expire_create(s, arena, re, err);
}

static void
test_create(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_record_expire *re;
	pm_error	err;

	(void) state;
	{
		static const char *k[] = {"record-level.expire-time", "record-level.time-field"};
		static const char *v[] = {"90 min", "w"};

		assert_int_equal(create_with(arena, 2, k, v, &re, &err), PM_OK);
		assert_non_null(re);
		assert_int_equal(re->expire_seconds, 5400);
		assert_int_equal(re->field, 3);
		assert_int_equal(re->type, PM_TYPE_BIGINT);
	}
	{
		/* Duration.getSeconds: whole seconds */
		static const char *k[] = {"record-level.expire-time", "record-level.time-field"};
		static const char *v[] = {"1999 ms", "id"};

		assert_int_equal(create_with(arena, 2, k, v, &re, &err), PM_OK);
		assert_int_equal(re->expire_seconds, 1);
		assert_int_equal(re->type, PM_TYPE_INT);
	}
	{
		static const char *k[] = {"record-level.time-field"};
		static const char *v[] = {"w"};

		assert_int_equal(create_with(arena, 1, k, v, &re, &err), PM_OK);
		assert_null(re);
	}
	{
		/* SchemaValidation checks the field even without an expire time */
		static const char *k[] = {"record-level.time-field"};
		static const char *v[] = {"name"};

		assert_int_equal(create_with(arena, 1, k, v, &re, &err), PM_ERR_INVALID);
		assert_string_equal(err.message,
							"The record level time field type should be one of INT, BIGINT, or TIMESTAMP, but field type is STRING.");
	}
	{
		static const char *k[] = {"record-level.expire-time"};
		static const char *v[] = {"1 d"};

		assert_int_equal(create_with(arena, 1, k, v, &re, &err), PM_ERR_INVALID);
		assert_string_equal(err.message, "You should set time field for record-level expire.");
	}
	{
		static const char *k[] = {"record-level.expire-time", "record-level.time-field"};
		static const char *v[] = {"1 d", "ts"};

		assert_int_equal(create_with(arena, 2, k, v, &re, &err), PM_ERR_INVALID);
		assert_string_equal(err.message, "Can not find time field ts for record level expire.");
	}
	{
		static const char *k[] = {"record-level.expire-time", "record-level.time-field"};
		static const char *v[] = {"soon", "w"};

		assert_int_equal(create_with(arena, 2, k, v, &re, &err), PM_ERR_INVALID);
	}
	{
		static const char *k[] = {"record-level.expire-time", "record-level.time-field",
		"merge-engine"};
		static const char *v[] = {"1 d", "w", "first-row"};

		/* first-row (and deletion-vector) tables: their lookup compaction expires too */
		assert_int_equal(pm_record_expire_check(make_schema(arena, 3, k, v), &err), PM_OK);
	}
	pm_arena_destroy(arena);
}

/* one commit without compaction at commit */
static void
write_commit(pm_fileio *io, const char *dir, pm_arena *arena, const trow *rows, int n,
			 int64_t want_sid)
{
	static uint8_t kinds[MAXID];
	pm_table_writer *w = open_writer(io, dir);

	for (int i = 0; i < n; i++)
		kinds[i] = PM_ROW_INSERT;
	pm_table_writer_set_compaction(w, false);
	write_kinds(w, arena, rows, kinds, n);
	commit(w, want_sid, want_sid);
	pm_table_writer_close(w);
}

/* The time of id in the first commit: old or new, seconds or millis, or NULL. */
static int64_t
time_of(int id)
{
	switch (id % 6)
	{
		case 0:
			return OLD_SECONDS;
		case 1:
			return NEW_SECONDS;
		case 2:
			return OLD_MILLIS;
		case 3:
			return NEW_MILLIS;
		case 4:
			return INT64_MIN;	/* NULL */
		default:
			return -OLD_MILLIS; /* negative: seconds far in the past */
	}
}

static bool
expired(int64_t t)
{
	return t != INT64_MIN && t != NEW_SECONDS && t != NEW_MILLIS;
}

/*
 * One bucket whose file ends in batches of nothing but expired records
 * (ids from 600 on are old): the compaction's read skips them and ends
 * (it once handed the merge the last, emptied batch, freed by then).
 */
static void
test_expired_tail(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/rxtail";
	/* small row groups: a file of several batches */
	static const char *keys[] = {"bucket", "record-level.expire-time", "record-level.time-field",
	"parquet.block.size"};
	static const char *vals[] = {"1", "1 d", "w", "32 kb"};
	pm_schema  *s = make_schema(arena, 4, keys, vals);
	static trow rows[MAXID];
	static result want,
				got;
	pm_compact_result res;
	pm_error	err;
	int			n = MAXID;

	(void) state;
	assert_true(n >= 3000);
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	memset(&want, 0, sizeof(want));
	for (int i = 0; i < n; i++)
	{
		rows[i] = (trow) {i, true, i, i < 600 ? NEW_SECONDS : OLD_SECONDS};
		if (i < 600)
		{
			want.present[i] = true;
			want.v[i] = i;
			want.w[i] = NEW_SECONDS;
			want.nrows++;
		}
	}
	write_commit(io, dir, arena, rows, n, 1);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 2);
	assert_int_equal(res.rows_expired, n - 600);
	assert_int_equal(res.rows_out, 600);
	read_all(io, dir, &got);
	pk_assert_same(&want, &got);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Full compaction of 2 buckets, 2 commits: ids 0..599 with the times
 * above, then ids 0..59 again: even ones old, odd ones new. An expired
 * update of a live record is dropped before the merge, so the older
 * record shows again (Java's RecordLevelExpire.wrap on each file's reader).
 */
static void
test_full_compaction(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/rx";
	static const char *keys[] = {"bucket", "record-level.expire-time", "record-level.time-field"};
	static const char *vals[] = {"2", "1 d", "w"};
	pm_schema  *s = make_schema(arena, 3, keys, vals);
	static trow rows[MAXID];
	static result want,
				got;
	pm_compact_result res;
	pm_error	err;
	int64_t		dropped = 0;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	memset(&want, 0, sizeof(want));
	for (int i = 0; i < 600; i++)
	{
		rows[i] = (trow) {i, true, i, time_of(i)};
		dropped += expired(time_of(i));
	}
	write_commit(io, dir, arena, rows, 600, 1);
	for (int i = 0; i < 60; i++)
	{
		rows[i] = (trow) {i, true, 10000 + i, i % 2 == 0 ? OLD_SECONDS : NEW_SECONDS};
		dropped += i % 2 == 0;
	}
	write_commit(io, dir, arena, rows, 60, 2);
	/* no read filters: every record is there before the compaction */
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, 600);
	for (int i = 0; i < 600; i++)
	{
		int64_t		t = time_of(i);

		if (i < 60 && i % 2 == 1)
		{
			want.present[i] = true;
			want.v[i] = 10000 + i;
			want.w[i] = NEW_SECONDS;
		}
		else if (!expired(t))
		{
			/* also the even ids < 60 whose first record lives */
			want.present[i] = true;
			want.v[i] = i;
			want.w[i] = t;
		}
		want.nrows += want.present[i];
	}
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 3);
	assert_int_equal(res.buckets, 2);
	assert_int_equal(res.rows_expired, dropped);
	assert_int_equal(res.rows_out, want.nrows);
	read_all(io, dir, &got);
	pk_assert_same(&want, &got);
	/* every file at the max level now, none with an expired min: nothing to do */
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 0);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* Replace the expire time in schema-0 (a table's options changed under it). */
static void
set_expire_time(pm_fileio *io, const char *dir, const char *from, const char *to)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	char	   *path = pm_arena_sprintf(arena, "%s/schema/schema-0", dir);
	uint8_t    *data;
	size_t		len;
	pm_error	err;
	char	   *text,
			   *at,
			   *out;

	assert_int_equal(pm_fileio_read_all(io, path, arena, 1 << 20, &data, &len, &err), PM_OK);
	text = pm_arena_strndup(arena, (const char *) data, len);
	at = strstr(text, from);
	assert_non_null(at);
	*at = '\0';
	out = pm_arena_sprintf(arena, "%s%s%s", text, to, at + strlen(from));
	assert_int_equal(io->remove(io, path, &err), PM_OK);
	assert_int_equal(io->write_new(io, path, out, strlen(out), &err), PM_OK);
	pm_arena_destroy(arena);
}

/* Files of the latest snapshot: count, and those whose source is COMPACT. */
static int
count_files(pm_fileio *io, const char *dir, int *compacted)
{
	pk_files	pf;
	int			n;

	*compacted = 0;
	pk_files_open(io, dir, false, &pf);
	for (int f = 0; f < pf.n; f++)
		*compacted += pf.files[f]->file_source == 1;
	n = pf.n;
	pk_files_close(&pf);
	return n;
}

/*
 * Files alone in their section, large enough to be upgraded
 * (target-file-size 1 b): upgraded as they are unless their min time has
 * expired (MergeTreeCompactTask.upgrade); a bucket that is one run at
 * the max level rewrites only its expired files
 * (CompactStrategy.pickFullCompaction).
 */
static void
test_upgrade_and_max_level(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/ru";
	static const char *keys[] = {"bucket", "record-level.expire-time", "record-level.time-field",
	"target-file-size"};
	static const char *vals[] = {"1", "1000000 d", "w", "1 b"};
	pm_schema  *s = make_schema(arena, 4, keys, vals);
	static trow rows[MAXID];
	static result got;
	pm_compact_result res;
	pm_error	err;
	int			compacted;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	/* ids 0..99 new, then 200..299 old; an expire time nothing reaches yet */
	for (int i = 0; i < 100; i++)
		rows[i] = (trow) {i, true, i, NEW_SECONDS};
	write_commit(io, dir, arena, rows, 100, 1);
	for (int i = 0; i < 100; i++)
		rows[i] = (trow) {200 + i, true, i, i == 50 ? NEW_SECONDS : OLD_SECONDS};
	write_commit(io, dir, arena, rows, 100, 2);
	pk_full_compact(io, dir, NULL, &res);
	/* two key-disjoint files, both upgraded: same files, new level */
	assert_int_equal(res.files_in, 2);
	assert_int_equal(res.files_out, 2);
	assert_int_equal(res.rows_out, 0);
	assert_int_equal(count_files(io, dir, &compacted), 2);
	assert_int_equal(compacted, 0);

	/* now 1 d: the file of ids 200.. has an expired min and is rewritten */
	set_expire_time(io, dir, "1000000 d", "1 d");
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 4);
	assert_int_equal(res.files_in, 1);
	assert_int_equal(res.files_out, 1);
	assert_int_equal(res.rows_expired, 99);
	assert_int_equal(res.rows_out, 1);
	assert_int_equal(count_files(io, dir, &compacted), 2);
	assert_int_equal(compacted, 1);
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, 101);
	assert_true(got.present[250]);
	assert_false(got.present[200]);
	assert_true(got.present[0]);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.snapshot_id, 0);

	/* a level-0 file alone in its section, expired: rewritten into nothing */
	for (int i = 0; i < 10; i++)
		rows[i] = (trow) {500 + i, true, i, OLD_SECONDS};
	write_commit(io, dir, arena, rows, 10, 5);
	pk_full_compact(io, dir, NULL, &res);
	assert_int_equal(res.files_in, 1);
	assert_int_equal(res.files_out, 0);
	assert_int_equal(res.rows_expired, 10);
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, 101);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/* A writer's compaction at commit drops expired records too. */
static void
test_at_commit(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/rc";
	static const char *keys[] = {"bucket", "record-level.expire-time", "record-level.time-field",
	"num-sorted-run.compaction-trigger"};
	static const char *vals[] = {"1", "1 d", "w", "2"};
	pm_schema  *s = make_schema(arena, 4, keys, vals);
	static trow rows[MAXID];
	static uint8_t kinds[MAXID];
	static result got;
	pm_table_writer *w;
	const pm_writer_compaction *wc;
	pm_error	err;
	int64_t		sid;

	(void) state;
	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int i = 0; i < 300; i++)
		rows[i] = (trow) {i, true, i, time_of(i)};
	write_commit(io, dir, arena, rows, 300, 1);
	/* a newer run twice as large: the size ratio picks both into the max level */
	for (int i = 0; i < 600; i++)
	{
		rows[i] = (trow) {300 + i, true, i, time_of(300 + i)};
		kinds[i] = PM_ROW_INSERT;
	}
	w = open_writer(io, dir);
	write_kinds(w, arena, rows, kinds, 600);
	if (pm_table_writer_commit(w, 2, &sid, &err) != PM_OK)
		fail_msg("commit: %s", err.message);
	wc = pm_table_writer_compaction(w);
	assert_false(wc->failed);
	assert_int_equal(wc->snapshot_id, 3);
	pm_table_writer_close(w);
	read_all(io, dir, &got);
	for (int i = 0; i < 900; i++)
		assert_int_equal(got.present[i], !expired(time_of(i)));
	assert_int_equal(got.nrows, 450);	/* 3 of every 6 live */
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Deletion-vector and first-row tables: the lookup compaction at commit
 * drops expired records of the files it rewrites (a level-0 file with an
 * expired minimum is rewritten, not upgraded), and, except for first-row,
 * a key whose older record expired is not found by the lookup (no row
 * marked deleted for it; Java's lookup levels read through the expiring
 * reader). ids 0..599 with the times of time_of, then ids 0..59 again:
 * even ones old (dropped), odd ones new.
 */
static void
lookup_tables(bool first_row)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/rl";
	static const char *keys[] = {"bucket", "record-level.expire-time", "record-level.time-field",
	"deletion-vectors.enabled"};
	static const char *dv_vals[] = {"1", "1 d", "w", "true"};
	static const char *fr_vals[] = {"1", "1 d", "w", "first-row"};
	static const char *fr_keys[] = {"bucket", "record-level.expire-time", "record-level.time-field",
	"merge-engine"};
	pm_schema  *s = first_row ? make_schema(arena, 4, fr_keys, fr_vals) :
		make_schema(arena, 4, keys, dv_vals);
	static trow rows[MAXID];
	static result got;
	pm_error	err;

	assert_int_equal(pm_table_create(pm_env_default(), io, dir, s, &err), PM_OK);
	for (int i = 0; i < 600; i++)
		rows[i] = (trow) {i, true, i, time_of(i)};
	/* through the writer (lookup compaction at commit): APPEND, COMPACT */
	pk_commit_rows(io, dir, arena, rows, NULL, 600, 1, 2);
	read_all(io, dir, &got);
	assert_int_equal(got.nrows, 300);
	for (int i = 0; i < 60; i++)
		rows[i] = (trow) {i, true, 10000 + i, i % 2 == 0 ? OLD_SECONDS : NEW_SECONDS};
	pk_commit_rows(io, dir, arena, rows, NULL, 60, 2, 4);
	read_all(io, dir, &got);
	for (int i = 0; i < 600; i++)
	{
		bool		live = !expired(time_of(i));
		bool		newer = i < 60 && i % 2 == 1 && (!first_row || !live);

		assert_int_equal(got.present[i], live || newer);
		if (newer)
			assert_true(got.v[i] == 10000 + i);
		else if (live)
			assert_true(got.v[i] == i);
	}
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_deletion_vectors(void **state)
{
	(void) state;
	lookup_tables(false);
}

static void
test_first_row(void **state)
{
	(void) state;
	lookup_tables(true);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seconds_and_rule),
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_full_compaction),
		cmocka_unit_test(test_expired_tail),
		cmocka_unit_test(test_upgrade_and_max_level),
		cmocka_unit_test(test_at_commit),
		cmocka_unit_test(test_deletion_vectors),
		cmocka_unit_test(test_first_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
