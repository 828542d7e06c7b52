/*-------------------------------------------------------------------------
 * test_scan_topn.c
 *	  Top-N on batches against a full sort of the same rows (random
 *	  values with NULLs, NaN, -0, ties; ascending/descending, NULLs
 *	  first/last, two keys, limits 0, 1, n, more than the rows), and the
 *	  statistics test that lets a reader skip parts of a file, and the
 *	  first-key filter of late materialization (rows it drops never enter).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "row/data_type.h"
#include "table/scan_topn.h"

/* ROW<d DOUBLE, i INT, s STRING, b BIGINT> */
#define NCOLS 4
#define NROWS 3000
#define BATCH 700

static pm_arena *arena;
static const pm_type *row;
static const pm_type *types[NCOLS];
static pm_vector all[NCOLS];	/* every row, for the reference */
static uint64_t rng = 42;

static uint32_t
next_rand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t) (rng >> 33);
}

static int
setup(void **state)
{
	pm_error	err;
	static const double specials[] = {NAN, -0.0, 0.0, INFINITY, -INFINITY, 1.5};

	(void) state;
	arena = pm_arena_create(pm_env_default());
	pm_error_clear(&err);
	if (pm_data_type_parse("ROW<d DOUBLE, i INT, s STRING, b BIGINT>", arena, &row, &err) != PM_OK)
		return -1;
	for (int c = 0; c < NCOLS; c++)
	{
		types[c] = row->fields[c].type;
		if (!pm_vector_init(&all[c], types[c], NROWS, true, arena))
			return -1;
		all[c].length = NROWS;
	}
	all[2].data = pm_arena_alloc(arena, NROWS * 4);
	for (int64_t r = 0; r < NROWS; r++)
	{
		uint32_t	x = next_rand();
		char		text[4];
		int			len = (int) (x % 4);

		PM_VEC_VALUES(&all[0], double)[r] = x % 7 == 0 ? specials[x % 6] : (double) (int) (x % 50) - 25;
		PM_VEC_VALUES(&all[1], int32_t)[r] = (int32_t) (next_rand() % 40) - 20;
		for (int k = 0; k < len; k++)
			text[k] = (char) ('a' + next_rand() % 3);
		memcpy(all[2].data + all[2].offsets[r], text, (size_t) len);
		all[2].offsets[r + 1] = all[2].offsets[r] + len;
		PM_VEC_VALUES(&all[3], int64_t)[r] = r;	/* unique: makes every order total */
		for (int c = 0; c < 3; c++)
			all[c].nulls[r] = next_rand() % 11 == 0;
	}
	all[2].data_size = all[2].offsets[NROWS];
	return 0;
}

static int
teardown(void **state)
{
	(void) state;
	pm_arena_destroy(arena);
	return 0;
}

/* The reference order: as Postgres sorts (see scan_topn.h), written plainly. */
static const pm_topn_key *ref_keys;
static int	ref_nkeys;

static int
ref_cmp_value(int c, int64_t a, int64_t b)
{
	switch (c)
	{
		case 0:
			{
				double		x = PM_VEC_VALUES(&all[0], double)[a];
				double		y = PM_VEC_VALUES(&all[0], double)[b];

				if (isnan(x) || isnan(y))
					return isnan(x) - isnan(y);
				return (x > y) - (x < y);
			}
		case 1:
			return (PM_VEC_VALUES(&all[1], int32_t)[a] > PM_VEC_VALUES(&all[1], int32_t)[b]) -
				(PM_VEC_VALUES(&all[1], int32_t)[a] < PM_VEC_VALUES(&all[1], int32_t)[b]);
		case 2:
			{
				int32_t		la,
							lb;
				const uint8_t *pa = pm_vector_bytes(&all[2], a, &la);
				const uint8_t *pb = pm_vector_bytes(&all[2], b, &lb);
				int			m = memcmp(pa, pb, (size_t) (la < lb ? la : lb));

				return m != 0 ? (m > 0) - (m < 0) : (la > lb) - (la < lb);
			}
		default:
			return (PM_VEC_VALUES(&all[3], int64_t)[a] > PM_VEC_VALUES(&all[3], int64_t)[b]) -
				(PM_VEC_VALUES(&all[3], int64_t)[a] < PM_VEC_VALUES(&all[3], int64_t)[b]);
	}
}

static int
ref_cmp(const void *pa, const void *pb)
{
	int64_t		a = *(const int64_t *) pa;
	int64_t		b = *(const int64_t *) pb;

	for (int k = 0; k < ref_nkeys; k++)
	{
		int			c = ref_keys[k].column;
		bool		na = all[c].nulls[a];
		bool		nb = all[c].nulls[b];
		int			v;

		if (na != nb)
			return (na ? 1 : -1) * (ref_keys[k].nulls_first ? -1 : 1);
		if (na)
			continue;
		v = ref_cmp_value(c, a, b);
		if (v != 0)
			return ref_keys[k].descending ? -v : v;
	}
	return 0;
}

static int64_t late_offered;	/* rows check_late offered after the filter */
static int64_t late_rows;		/* ... and before */

/*
 * Top-N of every row in batches (every third row deselected when sel).
 * late: as a reader with late materialization (pm_topn_filter_first_key on
 * the first key's column before each batch is offered), and only the rows
 * it leaves are offered: those it drops must be rows that cannot enter.
 */
static void
check_late(const pm_topn_key *keys, int nkeys, int64_t limit, bool with_sel, bool late)
{
	pm_topn    *t;
	pm_error	err;
	const pm_batch *res;
	int64_t    *ref = malloc(sizeof(int64_t) * NROWS);
	int64_t		nref = 0;
	uint8_t		sel[BATCH];

	pm_error_clear(&err);
	assert_int_equal(pm_topn_create(pm_env_default(), types, NCOLS, keys, nkeys, limit, &t, &err),
					 PM_OK);
	for (int64_t start = 0; start < NROWS; start += BATCH)
	{
		pm_vector	cols[NCOLS];
		pm_batch	b;
		int64_t		n = NROWS - start < BATCH ? NROWS - start : BATCH;
		int64_t		seen = nref;	/* rows offered before this batch */

		for (int c = 0; c < NCOLS; c++)
		{
			cols[c] = all[c];
			cols[c].length = n;
			cols[c].nulls = all[c].nulls + start;
			if (c == 2)
				cols[c].offsets = all[c].offsets + start;
			else
				cols[c].values = (uint8_t *) all[c].values + start * pm_type_value_size(types[c]->id);
		}
		for (int64_t r = 0; r < n; r++)
		{
			sel[r] = !with_sel || (start + r) % 3 != 0;
			if (sel[r])
				ref[nref++] = start + r;
		}
		b.nrows = n;
		b.first_row = start;
		b.ncols = NCOLS;
		b.cols = cols;
		if (late)
		{
			int64_t		before = 0,
						after = 0;

			for (int64_t r = 0; r < n; r++)
				before += sel[r];
			/* false exactly while the heap is not full (limit 0: all dropped) */
			assert_int_equal(pm_topn_filter_first_key(t, &cols[keys[0].column], n, sel),
							 limit == 0 || seen >= limit);
			for (int64_t r = 0; r < n; r++)
				after += sel[r];
			assert_true(after <= before);
			late_offered += after;
			late_rows += before;
			assert_int_equal(pm_topn_add(t, &b, sel, &err), PM_OK);
			continue;
		}
		assert_int_equal(pm_topn_add(t, &b, with_sel ? sel : NULL, &err), PM_OK);
	}
	ref_keys = keys;
	ref_nkeys = nkeys;
	qsort(ref, (size_t) nref, sizeof(int64_t), ref_cmp);
	assert_int_equal(pm_topn_result(t, &res, &err), PM_OK);
	assert_int_equal(res->nrows, limit < nref ? limit : nref);
	for (int64_t i = 0; i < res->nrows; i++)
	{
		/* column b is the row number: the rows must be the reference's */
		int64_t		got = PM_VEC_VALUES(&res->cols[3], int64_t)[i];

		if (got != ref[i])
			fail_msg("limit %lld, row %lld: got row %lld, want row %lld", (long long) limit,
					 (long long) i, (long long) got, (long long) ref[i]);
	}
	pm_topn_free(t);
	free(ref);
}

static void
check(const pm_topn_key *keys, int nkeys, int64_t limit, bool with_sel)
{
	check_late(keys, nkeys, limit, with_sel, false);
	check_late(keys, nkeys, limit, with_sel, true);
}

static void
test_against_full_sort(void **state)
{
	static const int64_t limits[] = {0, 1, 10, 999, 5000};

	(void) state;
	for (int desc = 0; desc < 2; desc++)
		for (int nf = 0; nf < 2; nf++)
			for (int first = 0; first < 3; first++)
				for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++)
				{
					/* the first key, then the row number: a total order */
					pm_topn_key keys[3] = {
						{first, desc, nf}, {first == 1 ? 2 : 1, !desc, !nf}, {3, false, false}
					};

					check(keys, 3, limits[l], l % 2 == 0);
				}
	/* the filter dropped rows, never one that belongs to the result */
	assert_true(late_offered < late_rows);
}

/*
 * One key (no later key breaks ties, so the late filter drops the rows that
 * tie with the n-th too): the key values of the result, late or not, are
 * those of the first rows of a full sort.
 */
static void
test_single_key(void **state)
{
	static const int64_t limits[] = {1, 10, 333, 5000};
	int64_t    *ref = malloc(sizeof(int64_t) * NROWS);

	(void) state;
	for (int64_t r = 0; r < NROWS; r++)
		ref[r] = r;
	for (int c = 0; c < 3; c++)
		for (int desc = 0; desc < 2; desc++)
			for (int nf = 0; nf < 2; nf++)
				for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++)
				{
					pm_topn_key key = {c, desc, nf};
					int64_t		dropped = 0;

					ref_keys = &key;
					ref_nkeys = 1;
					qsort(ref, NROWS, sizeof(int64_t), ref_cmp);
					for (int late = 0; late < 2; late++)
					{
						pm_topn    *t;
						pm_error	err;
						const pm_batch *res;
						uint8_t		sel[BATCH];

						pm_error_clear(&err);
						assert_int_equal(pm_topn_create(pm_env_default(), types, NCOLS, &key, 1,
														limits[l], &t, &err), PM_OK);
						for (int64_t start = 0; start < NROWS; start += BATCH)
						{
							pm_vector	cols[NCOLS];
							pm_batch	b;
							int64_t		n = NROWS - start < BATCH ? NROWS - start : BATCH;

							for (int k = 0; k < NCOLS; k++)
							{
								cols[k] = all[k];
								cols[k].length = n;
								cols[k].nulls = all[k].nulls + start;
								if (k == 2)
									cols[k].offsets = all[k].offsets + start;
								else
									cols[k].values = (uint8_t *) all[k].values +
										start * pm_type_value_size(types[k]->id);
							}
							memset(sel, 1, sizeof(sel));
							if (late && pm_topn_filter_first_key(t, &cols[c], n, sel))
								for (int64_t r = 0; r < n; r++)
									dropped += !sel[r];
							b.nrows = n;
							b.first_row = start;
							b.ncols = NCOLS;
							b.cols = cols;
							assert_int_equal(pm_topn_add(t, &b, sel, &err), PM_OK);
						}
						assert_int_equal(pm_topn_result(t, &res, &err), PM_OK);
						assert_int_equal(res->nrows, limits[l] < NROWS ? limits[l] : NROWS);
						for (int64_t i = 0; i < res->nrows; i++)
						{
							int64_t		got = PM_VEC_VALUES(&res->cols[3], int64_t)[i];

							/* a row of the same key value as the reference's i-th */
							if (ref_cmp(&got, &ref[i]) != 0)
								fail_msg("column %d desc %d nf %d limit %lld late %d, row %lld: "
										 "row %lld does not tie with row %lld", c, desc, nf,
										 (long long) limits[l], late, (long long) i,
										 (long long) got, (long long) ref[i]);
						}
						pm_topn_free(t);
					}
					if (limits[l] < NROWS / 2)
						assert_true(dropped > 0);
				}
	free(ref);
}

static void
test_part_may_enter(void **state)
{
	pm_topn_key keys[1] = {{1, true, false}};	/* i DESC NULLS LAST */
	pm_topn    *t;
	pm_error	err;
	pm_batch	b;
	pm_vector	cols[NCOLS];
	pm_field_range r;
	const pm_batch *res;
	int32_t		root;

	(void) state;
	pm_error_clear(&err);
	assert_int_equal(pm_topn_create(pm_env_default(), types, NCOLS, keys, 1, 5, &t, &err), PM_OK);
	memset(&r, 0, sizeof(r));
	r.known = true;
	r.has_min_max = true;
	r.min.u.i64 = -1000;
	r.max.u.i64 = -900;
	r.null_count = 0;
	r.row_count = 10;
	assert_true(pm_topn_part_may_enter(t, &r));	/* not full yet */
	for (int c = 0; c < NCOLS; c++)
		cols[c] = all[c];
	b.nrows = NROWS;
	b.first_row = 0;
	b.ncols = NCOLS;
	b.cols = cols;
	assert_int_equal(pm_topn_add(t, &b, NULL, &err), PM_OK);
	assert_int_equal(pm_topn_result(t, &res, &err), PM_OK);
	root = PM_VEC_VALUES(&res->cols[1], int32_t)[4];
	assert_false(pm_topn_part_may_enter(t, &r));	/* all below the 5th value */
	r.max.u.i64 = root;
	assert_false(pm_topn_part_may_enter(t, &r));	/* a tie cannot enter one key */
	r.max.u.i64 = root + 1;
	assert_true(pm_topn_part_may_enter(t, &r));
	r.max.u.i64 = -900;
	r.null_count = 3;
	assert_false(pm_topn_part_may_enter(t, &r));	/* NULLs last do not enter */
	r.null_count = 10;
	assert_false(pm_topn_part_may_enter(t, &r));
	r.has_min_max = false;
	r.null_count = 0;
	assert_true(pm_topn_part_may_enter(t, &r));
	r.known = false;
	assert_true(pm_topn_part_may_enter(t, &r));
	pm_topn_free(t);

	keys[0].nulls_first = true;
	assert_int_equal(pm_topn_create(pm_env_default(), types, NCOLS, keys, 1, 5, &t, &err), PM_OK);
	assert_int_equal(pm_topn_add(t, &b, NULL, &err), PM_OK);
	memset(&r, 0, sizeof(r));
	r.known = true;
	r.has_min_max = true;
	r.min.u.i64 = r.max.u.i64 = -1000;
	r.row_count = 10;
	r.null_count = 1;
	assert_false(pm_topn_part_may_enter(t, &r));	/* the root is NULL: a NULL ties */
	r.null_count = 0;
	assert_false(pm_topn_part_may_enter(t, &r));	/* non-NULLs sort after NULLs */
	pm_topn_free(t);

	/* floats: NaN may be missing from the statistics, never skipped */
	keys[0].column = 0;
	assert_int_equal(pm_topn_create(pm_env_default(), types, NCOLS, keys, 1, 5, &t, &err), PM_OK);
	assert_int_equal(pm_topn_add(t, &b, NULL, &err), PM_OK);
	r.null_count = 0;
	assert_true(pm_topn_part_may_enter(t, &r));
	pm_topn_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_full_sort),
		cmocka_unit_test(test_part_may_enter),
		cmocka_unit_test(test_single_key),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
