/*-------------------------------------------------------------------------
 * test_scan_aggregate.c
 *	  Hash aggregation on batches: groups (NULL keys one group), Postgres'
 *	  transition arithmetic (wrapping int64 sums, exact wide sums across
 *	  the 2^64 carry, float overflow, NaN ordering of min/max), and the
 *	  passes that bound the number of groups.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "row/data_type.h"
#include "table/batch_filter.h"
#include "table/scan_aggregate.h"

/* ROW<k INT, i INT, b BIGINT, d DOUBLE, m DECIMAL(38,2)> */
typedef struct fixture
{
	pm_arena   *arena;
	const pm_type *row;
	const pm_type *types[5];
	pm_vector	cols[5];
	pm_batch	batch;
} fixture;

static fixture fx;

static int
setup(void **state)
{
	pm_error	err;

	(void) state;
	memset(&fx, 0, sizeof(fx));
	fx.arena = pm_arena_create(pm_env_default());
	pm_error_clear(&err);
	if (pm_data_type_parse("ROW<k INT, i INT, b BIGINT, d DOUBLE, m DECIMAL(38,2)>", fx.arena,
						   &fx.row, &err) != PM_OK)
		return -1;
	for (int c = 0; c < 5; c++)
		fx.types[c] = fx.row->fields[c].type;
	return 0;
}

static int
teardown(void **state)
{
	(void) state;
	pm_arena_destroy(fx.arena);
	return 0;
}

/* A batch of n rows, every column with a null byte array. */
static void
batch_of(int64_t n)
{
	for (int c = 0; c < 5; c++)
		assert_true(pm_vector_init(&fx.cols[c], fx.types[c], n, true, fx.arena));
	for (int c = 0; c < 5; c++)
		fx.cols[c].length = n;
	fx.batch.nrows = n;
	fx.batch.ncols = 5;
	fx.batch.cols = fx.cols;
}

static void
test_groups_and_nulls(void **state)
{
	pm_agg_spec specs[] = {{PM_AGG_COUNT_STAR, 0}, {PM_AGG_COUNT, 1}, {PM_AGG_SUM, 1},
	{PM_AGG_MIN, 1}, {PM_AGG_MAX, 1}};
	int			keys[] = {0};
	pm_hash_agg *agg;
	pm_error	err;
	int64_t		found[3] = {0};

	(void) state;
	batch_of(6);
	/* k: 1, 2, NULL, 1, NULL, 2; i: 10, NULL, 5, -3, 7, NULL */
	int32_t		k[] = {1, 2, 0, 1, 0, 2};
	int32_t		i[] = {10, 0, 5, -3, 7, 0};
	uint8_t		kn[] = {0, 0, 1, 0, 1, 0};
	uint8_t		in[] = {0, 1, 0, 0, 0, 1};

	memcpy(fx.cols[0].values, k, sizeof(k));
	memcpy(fx.cols[1].values, i, sizeof(i));
	memcpy(fx.cols[0].nulls, kn, 6);
	memcpy(fx.cols[1].nulls, in, 6);
	pm_error_clear(&err);
	assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 1, keys, 5, specs, 100,
										&agg, &err), PM_OK);
	assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
	assert_int_equal(pm_hash_agg_ngroups(agg), 3);
	for (int64_t g = 0; g < 3; g++)
	{
		int64_t		key;
		int			which = pm_hash_agg_key(agg, g, 0, &key) ? (int) key : 0;

		found[which]++;
		if (which == 1)
		{
			assert_int_equal(pm_hash_agg_state(agg, g, 0)->n, 2);
			assert_int_equal(pm_hash_agg_state(agg, g, 1)->n, 2);
			assert_int_equal(pm_hash_agg_state(agg, g, 2)->v.i64, 7);
			assert_int_equal(pm_hash_agg_state(agg, g, 3)->v.i64, -3);
			assert_int_equal(pm_hash_agg_state(agg, g, 4)->v.i64, 10);
		}
		else if (which == 2)
		{
			/* all inputs NULL: count 0, sum/min/max NULL (n = 0) */
			assert_int_equal(pm_hash_agg_state(agg, g, 0)->n, 2);
			assert_int_equal(pm_hash_agg_state(agg, g, 1)->n, 0);
			assert_int_equal(pm_hash_agg_state(agg, g, 2)->n, 0);
		}
		else
			assert_int_equal(pm_hash_agg_state(agg, g, 2)->v.i64, 12);
	}
	assert_int_equal(found[0], 1);
	assert_int_equal(found[1], 1);
	assert_int_equal(found[2], 1);
	pm_hash_agg_free(agg);
}

/*
 * bool_and / bool_or as MIN / MAX of a BOOLEAN column: NULLs ignored, a
 * group of only NULLs has no result (n = 0), and a nonzero byte other
 * than 1 is true.
 */
static void
test_boolean_min_max(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	const pm_type *row;
	const pm_type *types[2];
	pm_vector	cols[2];
	pm_batch	batch = {0};
	pm_agg_spec specs[] = {{PM_AGG_MIN, 1}, {PM_AGG_MAX, 1}, {PM_AGG_COUNT, 1}};
	int			keys[] = {0};
	pm_hash_agg *agg;
	pm_error	err;
	/* k: 1 1 1 2 2 3 3 4; v: T F NULL T T(2) NULL NULL F */
	int32_t		k[] = {1, 1, 1, 2, 2, 3, 3, 4};
	uint8_t		v[] = {1, 0, 0, 1, 2, 0, 0, 0};
	uint8_t		vn[] = {0, 0, 1, 0, 0, 1, 1, 0};
	/* per key 1..4: min (-1: NULL), max, count */
	int64_t		want[5][3] = {{0}, {0, 1, 2}, {1, 1, 2}, {-1, -1, 0}, {0, 0, 1}};
	int			seen = 0;

	(void) state;
	pm_error_clear(&err);
	assert_int_equal(pm_data_type_parse("ROW<k INT, v BOOLEAN>", arena, &row, &err), PM_OK);
	types[0] = row->fields[0].type;
	types[1] = row->fields[1].type;
	assert_true(pm_agg_supported(PM_AGG_MIN, types[1]));
	assert_false(pm_agg_supported(PM_AGG_SUM, types[1]));
	for (int c = 0; c < 2; c++)
	{
		assert_true(pm_vector_init(&cols[c], types[c], 8, true, arena));
		cols[c].length = 8;
	}
	memcpy(cols[0].values, k, sizeof(k));
	memset(cols[0].nulls, 0, 8);
	memcpy(cols[1].values, v, sizeof(v));
	memcpy(cols[1].nulls, vn, sizeof(vn));
	batch.nrows = 8;
	batch.ncols = 2;
	batch.cols = cols;
	assert_int_equal(pm_hash_agg_create(pm_env_default(), types, 1, keys, 3, specs, 100, &agg,
										&err), PM_OK);
	assert_int_equal(pm_hash_agg_add(agg, &batch, NULL, &err), PM_OK);
	assert_int_equal(pm_hash_agg_ngroups(agg), 4);
	for (int64_t g = 0; g < 4; g++)
	{
		int64_t		key;

		assert_true(pm_hash_agg_key(agg, g, 0, &key));
		assert_true(key >= 1 && key <= 4);
		seen |= 1 << key;
		assert_int_equal(pm_hash_agg_state(agg, g, 2)->n,
						 want[key][2]);
		for (int a = 0; a < 2; a++)
		{
			const pm_agg_state *s = pm_hash_agg_state(agg, g, a);

			if (want[key][a] < 0)
				assert_int_equal(s->n, 0);
			else
			{
				assert_true(s->n > 0);
				assert_int_equal(s->v.i64, want[key][a]);
			}
		}
	}
	assert_int_equal(seen, 0x1e);
	pm_hash_agg_free(agg);
	pm_arena_destroy(arena);
}

static void
test_wide_sum_and_floats(void **state)
{
	pm_agg_spec specs[] = {{PM_AGG_SUM, 2}, {PM_AGG_SUM, 4}, {PM_AGG_MAX, 3}, {PM_AGG_MIN, 3},
	{PM_AGG_SUM, 3}};
	pm_hash_agg *agg;
	pm_error	err;
	const pm_agg_state *s;
	pm_int128	big = ((pm_int128) 1 << 126);

	(void) state;
	batch_of(3);
	PM_VEC_VALUES(&fx.cols[2], int64_t)[0] = INT64_MAX;
	PM_VEC_VALUES(&fx.cols[2], int64_t)[1] = INT64_MAX;
	PM_VEC_VALUES(&fx.cols[2], int64_t)[2] = -5;
	PM_VEC_VALUES(&fx.cols[4], pm_int128)[0] = big;
	PM_VEC_VALUES(&fx.cols[4], pm_int128)[1] = big;
	PM_VEC_VALUES(&fx.cols[4], pm_int128)[2] = big;
	PM_VEC_VALUES(&fx.cols[3], double)[0] = 1.0;
	PM_VEC_VALUES(&fx.cols[3], double)[1] = NAN;
	PM_VEC_VALUES(&fx.cols[3], double)[2] = -INFINITY;
	pm_error_clear(&err);
	assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 0, NULL, 5, specs, 1,
										&agg, &err), PM_OK);
	assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
	assert_int_equal(pm_hash_agg_ngroups(agg), 1);
	s = pm_hash_agg_state(agg, 0, 0);
	/* 2 * (2^63 - 1) - 5 = 2^64 - 7: carry into the high part */
	assert_true(s->v.i128 == 0);
	assert_true(s->w.u64 == UINT64_MAX - 6);
	s = pm_hash_agg_state(agg, 0, 1);
	/* 3 * 2^126 = 2^127 + 2^126: beyond int128, exact as hi * 2^64 + lo */
	assert_true(s->v.i128 == ((pm_int128) 3 << 62));
	assert_true(s->w.u64 == 0);
	assert_true(isnan(pm_hash_agg_state(agg, 0, 2)->v.f8));
	assert_true(pm_hash_agg_state(agg, 0, 3)->v.f8 == -INFINITY);
	assert_true(isnan(pm_hash_agg_state(agg, 0, 4)->v.f8));
	assert_false(pm_hash_agg_overflowed(agg));
	pm_hash_agg_free(agg);

	/* 1e308 + 1e308 overflows from finite operands: Postgres raises */
	specs[0].kind = PM_AGG_SUM;
	specs[0].column = 3;
	PM_VEC_VALUES(&fx.cols[3], double)[0] = 1e308;
	PM_VEC_VALUES(&fx.cols[3], double)[1] = 1e308;
	PM_VEC_VALUES(&fx.cols[3], double)[2] = 0;
	assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 0, NULL, 1, specs, 1,
										&agg, &err), PM_OK);
	assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
	assert_true(pm_hash_agg_overflowed(agg));
	pm_hash_agg_free(agg);
}

/*
 * sum/count of INT without groups and without NULLs (the unrolled sum):
 * every length around the unrolling, negative values, against a reference.
 */
static void
test_int_sum_no_nulls(void **state)
{
	pm_agg_spec specs[] = {{PM_AGG_SUM, 1}, {PM_AGG_COUNT, 1}};
	pm_error	err;

	(void) state;
	pm_error_clear(&err);
	for (int64_t n = 0; n <= 13; n++)
	{
		pm_hash_agg *agg;
		int64_t		ref = 0;

		batch_of(n);
		fx.cols[1].nulls = NULL;
		for (int64_t r = 0; r < n; r++)
		{
			int32_t		x = (r % 3 == 0) ? INT32_MIN + (int32_t) r : INT32_MAX - (int32_t) r;

			PM_VEC_VALUES(&fx.cols[1], int32_t)[r] = x;
			ref += x;
		}
		assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 0, NULL, 2, specs, 1,
											&agg, &err), PM_OK);
		/* twice: the state carries over batches */
		assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
		assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
		assert_int_equal(pm_hash_agg_state(agg, 0, 0)->v.i64, 2 * ref);
		assert_int_equal(pm_hash_agg_state(agg, 0, 0)->n, 2 * n);
		assert_int_equal(pm_hash_agg_state(agg, 0, 1)->n, 2 * n);
		pm_hash_agg_free(agg);
	}
}

static void
test_passes(void **state)
{
	pm_agg_spec specs[] = {{PM_AGG_COUNT_STAR, 0}};
	int			keys[] = {0};
	pm_hash_agg *agg;
	pm_error	err;
	int64_t		total_groups = 0;
	int64_t		total_rows = 0;

	(void) state;
	batch_of(1000);
	for (int r = 0; r < 1000; r++)
		PM_VEC_VALUES(&fx.cols[0], int32_t)[r] = r % 300;
	pm_error_clear(&err);
	assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 1, keys, 1, specs, 100,
										&agg, &err), PM_OK);
	assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
	assert_true(pm_hash_agg_full(agg));
	for (uint32_t p = 0; p < 8; p++)
	{
		pm_hash_agg_set_pass(agg, 8, p);
		assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
		assert_false(pm_hash_agg_full(agg));
		total_groups += pm_hash_agg_ngroups(agg);
		for (int64_t g = 0; g < pm_hash_agg_ngroups(agg); g++)
			total_rows += pm_hash_agg_state(agg, g, 0)->n;
	}
	assert_int_equal(total_groups, 300);
	assert_int_equal(total_rows, 1000);
	pm_hash_agg_free(agg);
}


/*
 * One INT key: groups by direct index while the keys span a small range
 * (the map growing across batches), by hash once a batch's keys spread too
 * far, with NULL keys, null inputs and a row selection; every group's
 * count(*) and sum(i) against a brute-force reference.
 */
static void
test_direct_keys(void **state)
{
	enum
	{
		N = 1000, MAXG = 2000
	};
	pm_agg_spec specs[] = {{PM_AGG_COUNT_STAR, 0}, {PM_AGG_SUM, 1}};
	int			keys[] = {0};
	pm_hash_agg *agg;
	pm_error	err;
	int64_t		ref_key[MAXG];
	bool		ref_null[MAXG];
	int64_t		ref_cnt[MAXG];
	int64_t		ref_sum[MAXG];
	int			nref = 0;
	uint8_t		sel[N];

	(void) state;
	pm_error_clear(&err);
	assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 1, keys, 2, specs, MAXG,
										&agg, &err), PM_OK);
	for (int b = 0; b < 4; b++)
	{
		batch_of(N);
		for (int r = 0; r < N; r++)
		{
			int32_t		k;

			switch (b)
			{
				case 0:
					k = r % 50;
					break;
				case 1:
					k = 1000 + r % 70;	/* the map grows */
					break;
				case 2:
					k = r % 3 == 0 ? INT32_MIN + r : r % 50;	/* too wide: hashed */
					break;
				default:
					k = r % 60;	/* direct maps are off for good */
					break;
			}
			PM_VEC_VALUES(&fx.cols[0], int32_t)[r] = k;
			PM_VEC_VALUES(&fx.cols[1], int32_t)[r] = r * 7 - 3000;
			fx.cols[0].nulls[r] = r % 17 == 0;
			fx.cols[1].nulls[r] = r % 13 == 0;
			sel[r] = b != 1 || r % 5 != 0;
		}
		assert_int_equal(pm_hash_agg_add(agg, &fx.batch, b == 1 ? sel : NULL, &err), PM_OK);
		for (int r = 0; r < N; r++)
		{
			bool		kn = fx.cols[0].nulls[r];
			int64_t		k = kn ? 0 : PM_VEC_VALUES(&fx.cols[0], int32_t)[r];
			int			g;

			if (!sel[r])
				continue;
			for (g = 0; g < nref; g++)
				if (ref_null[g] == kn && ref_key[g] == k)
					break;
			if (g == nref)
			{
				ref_key[g] = k;
				ref_null[g] = kn;
				ref_cnt[g] = ref_sum[g] = 0;
				nref++;
			}
			ref_cnt[g]++;
			if (!fx.cols[1].nulls[r])
				ref_sum[g] += PM_VEC_VALUES(&fx.cols[1], int32_t)[r];
		}
	}
	assert_false(pm_hash_agg_full(agg));
	assert_int_equal(pm_hash_agg_ngroups(agg), nref);
	for (int64_t g = 0; g < pm_hash_agg_ngroups(agg); g++)
	{
		int64_t		key = 0;
		bool		kn = !pm_hash_agg_key(agg, g, 0, &key);
		int			i;

		for (i = 0; i < nref; i++)
			if (ref_null[i] == kn && ref_key[i] == (kn ? 0 : key))
				break;
		assert_true(i < nref);
		assert_int_equal(pm_hash_agg_state(agg, g, 0)->n, ref_cnt[i]);
		assert_int_equal(pm_hash_agg_state(agg, g, 1)->v.i64, ref_sum[i]);
	}
	pm_hash_agg_free(agg);
}

/*
 * Direct keys of batches without NULL keys and without a selection (the
 * one-load-per-row loop): groups found and added, and a batch needing a
 * group beyond max_groups in the middle of that loop marks the groups
 * full; with a larger limit, after a reset, the same batches aggregate
 * right.
 */
static void
test_direct_keys_no_nulls(void **state)
{
	enum
	{
		N = 1000
	};
	pm_agg_spec specs[] = {{PM_AGG_COUNT_STAR, 0}, {PM_AGG_SUM, 1}};
	int			keys[] = {0};
	pm_hash_agg *agg;
	pm_error	err;

	(void) state;
	pm_error_clear(&err);
	assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 1, keys, 2, specs, 40,
										&agg, &err), PM_OK);
	for (int round = 0; round < 2; round++)
	{
		for (int b = 0; b < 2; b++)
		{
			batch_of(N);
			fx.cols[0].nulls = NULL;
			for (int r = 0; r < N; r++)
			{
				PM_VEC_VALUES(&fx.cols[0], int32_t)[r] = 100 + r % (b == 0 ? 30 : 50);
				PM_VEC_VALUES(&fx.cols[1], int32_t)[r] = r;
				fx.cols[1].nulls[r] = 0;
			}
			assert_int_equal(pm_hash_agg_add(agg, &fx.batch, NULL, &err), PM_OK);
			if (b == 0)
			{
				assert_false(pm_hash_agg_full(agg));
				assert_int_equal(pm_hash_agg_ngroups(agg), 30);
			}
		}
		if (round == 0)
		{
			/* the second batch's keys 130..139 fill the 40 groups, 140 is one too many */
			assert_true(pm_hash_agg_full(agg));
			pm_hash_agg_set_max_groups(agg, 100);
			pm_hash_agg_set_pass(agg, 1, 0);
			continue;
		}
		assert_false(pm_hash_agg_full(agg));
		assert_int_equal(pm_hash_agg_ngroups(agg), 50);
		for (int64_t g = 0; g < 50; g++)
		{
			int64_t		key = -1;
			int64_t		cnt = 0,
						sum = 0;

			assert_true(pm_hash_agg_key(agg, g, 0, &key));
			for (int b = 0; b < 2; b++)
				for (int r = 0; r < N; r++)
					if (100 + r % (b == 0 ? 30 : 50) == key)
					{
						cnt++;
						sum += r;
					}
			assert_int_equal(pm_hash_agg_state(agg, g, 0)->n, cnt);
			assert_int_equal(pm_hash_agg_state(agg, g, 1)->v.i64, sum);
		}
	}
	pm_hash_agg_free(agg);
}


/* memcmp, then the shorter first: the "C" collation */
static int
c_order(const char *a, int la, const char *b, int lb)
{
	int			m = la < lb ? la : lb;
	int			c = m > 0 ? memcmp(a, b, (size_t) m) : 0;

	if (c != 0)
		return c;
	return la < lb ? -1 : (la > lb ? 1 : 0);
}

/*
 * min/max of strings against a brute-force reference, in both row orders,
 * with and without groups: strings sharing 8-byte prefixes, shorter than 8
 * bytes, empty, with zero bytes and 0xff bytes (the prefix shortcut must
 * order them as memcmp-then-length does).
 */
static void
test_string_min_max(void **state)
{
	static const struct
	{
		const char *s;
		int			len;
	}			strs[] = {
		{"abcdefgh", 8}, {"", 0}, {"a", 1}, {"a\0", 2}, {"ab", 2}, {"abcdefgh\0", 9},
		{"abcdefghi", 9}, {"abcdefgha", 9}, {"abcdefgh\xff", 9}, {"\xff", 1}, {"zz", 2},
		{"b", 1}, {"abcdefg", 7}, {"abcdefgh\xff\x01", 10}, {"\0", 1}, {"\xff\xff", 2},
		{"abc", 3}, {"abd", 3}, {"abcd", 4}, {"abce", 4}, {"abcde", 5}, {"abcdf\xff", 6},
		{"abcdef", 6}, {"zzzzzz", 6}, {"zzzzz\xff", 6}, {"zzz\0", 4}, {"zz\xff", 3}
	};
	enum
	{
		NS = sizeof(strs) / sizeof(strs[0])
	};
	const pm_type *row;
	const pm_type *types[2];
	pm_vector	cols[2];
	pm_batch	batch;
	pm_error	err;
	pm_agg_spec specs[] = {{PM_AGG_MIN, 1}, {PM_AGG_MAX, 1}};
	int			keys[] = {0};

	(void) state;
	pm_error_clear(&err);
	assert_int_equal(pm_data_type_parse("ROW<k INT, s STRING>", fx.arena, &row, &err), PM_OK);
	types[0] = row->fields[0].type;
	types[1] = row->fields[1].type;
	for (int order = 0; order < 2; order++)
		for (int nkeys = 0; nkeys <= 1; nkeys++)
		{
			pm_hash_agg *agg;
			int32_t		off = 0;

			assert_true(pm_vector_init(&cols[0], types[0], NS, false, fx.arena));
			assert_true(pm_vector_init(&cols[1], types[1], NS, false, fx.arena));
			cols[1].data = pm_arena_alloc(fx.arena, 256);
			cols[1].offsets[0] = 0;
			for (int i = 0; i < NS; i++)
			{
				int			j = order == 0 ? i : NS - 1 - i;

				PM_VEC_VALUES(&cols[0], int32_t)[i] = j % 3;
				memcpy(cols[1].data + off, strs[j].s, (size_t) strs[j].len);
				off += strs[j].len;
				cols[1].offsets[i + 1] = off;
			}
			cols[1].data_size = off;
			cols[0].length = cols[1].length = NS;
			batch.nrows = NS;
			batch.ncols = 2;
			batch.cols = cols;
			assert_int_equal(pm_hash_agg_create(pm_env_default(), types, nkeys, keys, 2, specs,
												10, &agg, &err), PM_OK);
			assert_int_equal(pm_hash_agg_add(agg, &batch, NULL, &err), PM_OK);
			for (int64_t g = 0; g < pm_hash_agg_ngroups(agg); g++)
			{
				int64_t		key = -1;
				int			lo = -1,
							hi = -1;
				const pm_agg_state *mn = pm_hash_agg_state(agg, g, 0);
				const pm_agg_state *mx = pm_hash_agg_state(agg, g, 1);

				if (nkeys > 0)
					assert_true(pm_hash_agg_key(agg, g, 0, &key));
				for (int j = 0; j < NS; j++)
				{
					if (nkeys > 0 && j % 3 != key)
						continue;
					if (lo < 0 || c_order(strs[j].s, strs[j].len, strs[lo].s, strs[lo].len) < 0)
						lo = j;
					if (hi < 0 || c_order(strs[j].s, strs[j].len, strs[hi].s, strs[hi].len) > 0)
						hi = j;
				}
				assert_int_equal(mn->v.str.len, strs[lo].len);
				assert_memory_equal(mn->v.str.bytes, strs[lo].s, (size_t) strs[lo].len);
				assert_int_equal(mx->v.str.len, strs[hi].len);
				assert_memory_equal(mx->v.str.bytes, strs[hi].s, (size_t) strs[hi].len);
			}
			pm_hash_agg_free(agg);
		}
}

/* WHERE (i > 0 AND k IN (1, 2)) OR d IS NULL, evaluated per row, then aggregated */
static void
test_filtered(void **state)
{
	pm_value	zero = {0};
	pm_value	ks[2] = {{0}, {0}};
	pm_predicate gt = {PM_PRED_GT, 1, 1, &zero, 0, NULL};
	pm_predicate in = {PM_PRED_IN, 0, 2, ks, 0, NULL};
	pm_predicate *and_children[] = {&gt, &in};
	pm_predicate and = {PM_PRED_AND, 0, 0, NULL, 2, and_children};
	pm_predicate isnull = {PM_PRED_IS_NULL, 3, 0, NULL, 0, NULL};
	pm_predicate *or_children[] = {&and, &isnull};
	pm_predicate or = {PM_PRED_OR, 0, 0, NULL, 2, or_children};
	int			field_col[] = {0, 1, 2, 3, 4};
	uint8_t		sel[6];
	uint8_t		want[] = {1, 0, 1, 0, 0, 0};
	pm_agg_spec specs[] = {{PM_AGG_COUNT_STAR, 0}, {PM_AGG_SUM, 1}};
	pm_hash_agg *agg;
	pm_error	err;

	(void) state;
	ks[0].u.i64 = 1;
	ks[1].u.i64 = 2;
	batch_of(6);
	/* k: 1, 2, 3, 1, NULL, 2; i: 10, -1, 5, NULL, 7, 0; d NULL in row 2 */
	{
		int32_t		k[] = {1, 2, 3, 1, 0, 2};
		int32_t		i[] = {10, -1, 5, 0, 7, 0};

		memcpy(fx.cols[0].values, k, sizeof(k));
		memcpy(fx.cols[1].values, i, sizeof(i));
		fx.cols[0].nulls[4] = 1;
		fx.cols[1].nulls[3] = 1;
		fx.cols[3].nulls[2] = 1;
	}
	assert_true(pm_batch_filter_supported(&or, fx.row));
	pm_error_clear(&err);
	assert_int_equal(pm_batch_filter(pm_env_default(), &or, &fx.batch, field_col, sel, &err), PM_OK);
	assert_memory_equal(sel, want, 6);
	assert_int_equal(pm_hash_agg_create(pm_env_default(), fx.types, 0, NULL, 2, specs, 1,
										&agg, &err), PM_OK);
	assert_int_equal(pm_hash_agg_add(agg, &fx.batch, sel, &err), PM_OK);
	assert_int_equal(pm_hash_agg_state(agg, 0, 0)->n, 2);
	assert_int_equal(pm_hash_agg_state(agg, 0, 1)->v.i64, 15);
	pm_hash_agg_free(agg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_and_nulls),
		cmocka_unit_test(test_boolean_min_max),
		cmocka_unit_test(test_wide_sum_and_floats),
		cmocka_unit_test(test_int_sum_no_nulls),
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_direct_keys),
		cmocka_unit_test(test_direct_keys_no_nulls),
		cmocka_unit_test(test_string_min_max),
		cmocka_unit_test(test_filtered),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
