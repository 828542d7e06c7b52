/*-------------------------------------------------------------------------
 * test_merge_sections.c
 *	  Merged splits read section by section (lsm/interval_partition.h,
 *	  table_read.c): a one-bucket table whose level-0 files form disjoint,
 *	  touching and overlapping key ranges, for each merge engine a table
 *	  read reaches, gives the same rows, in key order, with sections as
 *	  with every file in one merge (pm_table_read_merge_sections(false)),
 *	  and the rows Java's merge gives.
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "pk_fixture.h"

#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/interval_partition.h"
#include "lsm/table_read.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

/* A read in key order: ids as they come, and per id the row. */
typedef struct ordered
{
	int			ids[MAXID];
	int			n;
	result		r;
} ordered;

static void
read_ordered(pm_fileio *io, const char *path, bool sections, ordered *o)
{
	memset(o, 0, sizeof(*o));
	pm_table_read_merge_sections(sections);
	/* names unchecked: an aggregation's name is the last one, its v a sum */
	pk_read_rows(io, path, 0, false, &o->r, o->ids);
	pm_table_read_merge_sections(true);
	o->n = o->r.nrows;
	/* one bucket: one merged split, keys ascending */
	for (int i = 1; i < o->n; i++)
		assert_true(o->ids[i] > o->ids[i - 1]);
}

/* The sections the table's one split forms (checked against want). */
static void
check_sections(pm_fileio *io, const char *path, int want)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_table   *table;
	pm_scan    *scan;
	pm_error	err;
	const pm_split *sp;
	pm_field	kf = {0, "id", NULL, NULL};
	int			order[64],
				end[64],
				runs[64],
				nsec;

	assert_int_equal(pm_table_open(pm_env_default(), io, path, NULL, &table, &err), PM_OK);
	assert_int_equal(pm_table_scan_plan(table, NULL, &scan, &err), PM_OK);
	assert_int_equal(pm_scan_split_count(scan), 1);
	sp = pm_scan_get_split(scan, 0);
	assert_true(sp->nfiles <= 64);
	kf.type = pm_type_new(arena, PM_TYPE_INT, false);
	assert_int_equal(pm_interval_partition(arena, pm_type_new_row(arena, &kf, 1, false),
										   (const pm_data_file_meta *const *) sp->files,
										   sp->nfiles, order, end, &nsec, runs, &err), PM_OK);
	assert_int_equal(nsec, want);
	for (int s = 0; s < nsec; s++)
		assert_true(runs[s] >= 1 && runs[s] <= end[s] - (s > 0 ? end[s - 1] : 0));
	assert_int_equal(end[nsec - 1], sp->nfiles);
	pm_scan_free(scan);
	pm_table_close(table);
	pm_arena_destroy(arena);
}

/*
 * Commits (one level-0 file each, write-only: nothing compacted):
 *	 1: ids 0..99			}
 *	 4: ids 50..60			} one section of three runs (overlapping)
 *	 5: ids 10..20			}
 *	 2: ids 200..299		} one section: touching at 299
 *	 3: ids 299..350		}
 *	 6: ids 600..700		a section of one file (deduplicate: 700 deleted in it)
 */
static void
write_table(pm_fileio *io, pm_arena *arena, const char *dir, const char **keys,
			const char **vals, int nopt, bool deletes)
{
	pm_table_writer *w;
	trow		rows[200];
	uint8_t		kinds[200];
	int			n;

	pk_create(io, arena, dir, nopt, keys, vals);
	w = open_writer(io, dir);
	for (n = 0; n < 100; n++)
		rows[n] = (trow) {n, true, n, n};
	write_kinds(w, arena, rows, NULL, n);
	commit(w, 1, 1);
	for (n = 0; n < 100; n++)
		rows[n] = (trow) {200 + n, true, 1200 + n, 5};
	write_kinds(w, arena, rows, NULL, n);
	commit(w, 2, 2);
	for (n = 0; n < 52; n++)
		rows[n] = (trow) {299 + n, n % 2 == 0, 2299 + n, 3};
	write_kinds(w, arena, rows, NULL, n);
	commit(w, 3, 3);
	for (n = 0; n < 11; n++)
		rows[n] = (trow) {50 + n, true, 3050 + n, 7};
	write_kinds(w, arena, rows, NULL, n);
	commit(w, 4, 4);
	for (n = 0; n < 11; n++)
	{
		rows[n] = (trow) {10 + n, true, 4010 + n, 1};
		kinds[n] = deletes ? PM_ROW_DELETE : PM_ROW_UPDATE_AFTER;
	}
	write_kinds(w, arena, rows, kinds, n);
	commit(w, 5, 5);
	for (n = 0; n < 101; n++)
		rows[n] = (trow) {600 + n, true, 5600 + n, 9};
	write_kinds(w, arena, rows, NULL, n);
	if (deletes)
	{
		kinds[0] = PM_ROW_DELETE;
		write_kinds(w, arena, &rows[100], kinds, 1);
	}
	commit(w, 6, 6);
	pm_table_writer_close(w);
}

static void
same_reads(pm_fileio *io, const char *dir, ordered *with)
{
	static ordered without;

	check_sections(io, dir, 3);
	read_ordered(io, dir, false, &without);
	read_ordered(io, dir, true, with);
	assert_int_equal(with->n, without.n);
	assert_memory_equal(with->ids, without.ids, sizeof(int) * (size_t) with->n);
	assert_memory_equal(&with->r, &without.r, sizeof(result));
}

static void
test_deduplicate(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "write-only"};
	static const char *vals[] = {"1", "true"};
	static ordered o;

	(void) state;
	write_table(io, arena, "/mem/wh/db.db/dd", keys, vals, 2, true);
	same_reads(io, "/mem/wh/db.db/dd", &o);
	/* 100 + 100 + 51 + 101 keys, less 11 deleted, less 700 */
	assert_int_equal(o.n, 100 + 100 + 51 + 101 - 11 - 1);
	assert_false(o.r.present[15]);
	assert_int_equal(o.r.v[9], 9);
	assert_int_equal(o.r.v[55], 3055);
	assert_int_equal(o.r.v[299], 2299);	/* the later commit */
	assert_int_equal(o.r.v[350], 2350);
	assert_true(!o.r.name_null[299] && o.r.name_null[300] && o.r.name_null[350]);
	assert_int_equal(o.r.v[650], 5650);
	assert_false(o.r.present[700]);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_sequence_field(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "write-only", "sequence.field"};
	static const char *vals[] = {"1", "true", "w"};
	static ordered o;

	(void) state;
	write_table(io, arena, "/mem/wh/db.db/sf", keys, vals, 3, false);
	same_reads(io, "/mem/wh/db.db/sf", &o);
	assert_int_equal(o.n, 100 + 100 + 51 + 101);
	assert_int_equal(o.r.v[299], 1299);	/* commit 2's w 5 beats commit 3's 3 */
	assert_int_equal(o.r.v[55], 55);	/* commit 1's w 55 beats commit 4's 7 */
	assert_int_equal(o.r.v[5], 5);	/* in commit 1 only */
	assert_int_equal(o.r.v[15], 15);	/* commit 5's w 1 loses to 15 */
	assert_int_equal(o.r.v[300], 2300);	/* in commit 3 only */
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_partial_update(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "write-only", "merge-engine"};
	static const char *vals[] = {"1", "true", "partial-update"};
	static ordered o;

	(void) state;
	write_table(io, arena, "/mem/wh/db.db/pu", keys, vals, 3, false);
	same_reads(io, "/mem/wh/db.db/pu", &o);
	assert_int_equal(o.n, 100 + 100 + 51 + 101);
	assert_int_equal(o.r.v[15], 4015);
	assert_int_equal(o.r.w[15], 1);
	assert_int_equal(o.r.v[299], 2299);
	assert_false(o.r.name_null[299]);	/* commit 3's name of 299 is set */
	assert_true(o.r.name_null[300]);	/* in commit 3 only, without a name */
	assert_false(o.r.name_null[55]);	/* commit 1's and 4's */
	assert_int_equal(o.r.v[700], 5700);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

static void
test_aggregation(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	static const char *keys[] = {"bucket", "write-only", "merge-engine",
	"fields.v.aggregate-function", "fields.w.aggregate-function"};
	static const char *vals[] = {"1", "true", "aggregation", "sum", "max"};
	static ordered o;

	(void) state;
	write_table(io, arena, "/mem/wh/db.db/ag", keys, vals, 5, false);
	same_reads(io, "/mem/wh/db.db/ag", &o);
	assert_int_equal(o.n, 100 + 100 + 51 + 101);
	assert_int_equal(o.r.v[15], 15 + 4015);
	assert_int_equal(o.r.w[15], 15);
	assert_int_equal(o.r.v[55], 55 + 3055);
	assert_int_equal(o.r.v[299], 1299 + 2299);
	assert_int_equal(o.r.w[299], 5);
	assert_int_equal(o.r.v[650], 5650);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deduplicate),
		cmocka_unit_test(test_sequence_field),
		cmocka_unit_test(test_partial_update),
		cmocka_unit_test(test_aggregation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
