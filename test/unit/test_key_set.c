/*-------------------------------------------------------------------------
 * test_key_set.c
 *	  common/key_set.c: building, probing (bitmap and hash modes, the
 *	  extreme keys), index lookups and selecting rows of integer vectors,
 *	  checked against a sorted array searched by brute force.
 *
 * The mode is not visible through the API; the key sets are chosen to
 * fall on either side of it: keys over a span of at most 4096 bits per key
 * (and under 2^27 bits) get a bitmap, wider ones only the hash table.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/key_set.h"
#include "common/type.h"
#include "common/vector.h"

/* A reproducible generator (xorshift64*) */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t	x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545f4914f6cdd1d);
}

static int
cmp_int64(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a;
	int64_t		y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

/* Index of k in sorted distinct ref[0..n), or -1: the reference answer */
static int64_t
ref_index(const int64_t *ref, size_t n, int64_t k)
{
	const int64_t *p = n > 0 ? bsearch(&k, ref, n, sizeof(int64_t), cmp_int64) : NULL;

	return p != NULL ? p - ref : -1;
}

static void
check_probe(const pm_key_set *s, const int64_t *ref, size_t n, int64_t k)
{
	int64_t		want = ref_index(ref, n, k);

	assert_int_equal(pm_key_set_index(s, k), want);
	assert_int_equal(pm_key_set_contains(s, k), want >= 0);
}

/*
 * Build a set of keys[0..n) and check everything against the sorted,
 * deduplicated copy: count, min, max, keys, index and contains of every
 * key, its neighbours, the extremes and nprobes random values in and
 * around [min, max].
 */
static void
check_set(const int64_t *keys, size_t n, uint64_t *rnd, int nprobes)
{
	int64_t    *work = malloc(sizeof(int64_t) * (n + 1));
	int64_t    *ref = malloc(sizeof(int64_t) * (n + 1));
	size_t		nref = 0;
	pm_error	err;
	pm_key_set *s;

	if (n > 0)
	{
		memcpy(work, keys, sizeof(int64_t) * n);
		memcpy(ref, keys, sizeof(int64_t) * n);
		qsort(ref, n, sizeof(int64_t), cmp_int64);
	}
	for (size_t i = 0; i < n; i++)
		if (nref == 0 || ref[nref - 1] != ref[i])
			ref[nref++] = ref[i];

	pm_error_clear(&err);
	s = pm_key_set_build(pm_env_default(), work, n, &err);
	assert_non_null(s);
	assert_int_equal(pm_key_set_count(s), nref);
	/* the input array was sorted and deduplicated in place */
	assert_memory_equal(work, ref, sizeof(int64_t) * nref);
	if (nref > 0)
	{
		assert_int_equal(pm_key_set_min(s), ref[0]);
		assert_int_equal(pm_key_set_max(s), ref[nref - 1]);
		assert_memory_equal(pm_key_set_keys(s), ref, sizeof(int64_t) * nref);
	}
	for (size_t i = 0; i < nref; i++)
	{
		assert_int_equal(pm_key_set_index(s, ref[i]), (int64_t) i);
		assert_true(pm_key_set_contains(s, ref[i]));
		if (ref[i] > INT64_MIN)
			check_probe(s, ref, nref, ref[i] - 1);
		if (ref[i] < INT64_MAX)
			check_probe(s, ref, nref, ref[i] + 1);
	}
	check_probe(s, ref, nref, INT64_MIN);
	check_probe(s, ref, nref, INT64_MIN + 1);
	check_probe(s, ref, nref, INT64_MAX);
	check_probe(s, ref, nref, 0);
	check_probe(s, ref, nref, -1);
	for (int i = 0; i < nprobes && nref > 0; i++)
	{
		uint64_t	span = (uint64_t) ref[nref - 1] - (uint64_t) ref[0] + 21;
		uint64_t	off = span != 0 ? next_random(rnd) % span : next_random(rnd);

		check_probe(s, ref, nref, (int64_t) ((uint64_t) ref[0] - 10 + off));
	}
	pm_key_set_free(s);
	free(work);
	free(ref);
}

static void
test_empty(void **state)
{
	pm_error	err;
	pm_key_set *s = pm_key_set_build(pm_env_default(), NULL, 0, &err);
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_vector	v;
	int64_t		rows[4];
	uint64_t	rnd = 1;

	assert_non_null(s);
	assert_int_equal(pm_key_set_count(s), 0);
	assert_false(pm_key_set_contains(s, 0));
	assert_false(pm_key_set_contains(s, INT64_MIN));
	assert_false(pm_key_set_contains(s, INT64_MAX));
	assert_int_equal(pm_key_set_index(s, INT64_MIN), -1);
	assert_int_equal(pm_key_set_index(s, 0), -1);
	assert_true(pm_vector_init(&v, pm_type_new(arena, PM_TYPE_BIGINT, true), 4, false, arena));
	for (int i = 0; i < 4; i++)
		PM_VEC_VALUES(&v, int64_t)[i] = (i == 0) ? INT64_MIN : i;
	v.length = 4;
	assert_int_equal(pm_key_set_select(s, &v, 4, rows), 0);
	pm_key_set_free(s);
	pm_key_set_free(NULL);
	pm_arena_destroy(arena);
	check_set(NULL, 0, &rnd, 10);
}

static void
test_duplicates(void **state)
{
	int64_t		keys[] = {5, 3, 5, 5, 3, -1, 5};
	int64_t		one[] = {42, 42, 42};
	uint64_t	rnd = 2;

	check_set(keys, 7, &rnd, 100);
	check_set(one, 3, &rnd, 100);
}

/* INT64_MIN is the empty-slot marker of the hash table */
static void
test_extremes(void **state)
{
	int64_t		all[] = {INT64_MAX, 0, INT64_MIN, -1, INT64_MIN, 1};
	int64_t		no_min[] = {INT64_MIN + 1, INT64_MAX, 0, -1};
	int64_t		only_min[] = {INT64_MIN};
	int64_t		min_dense[] = {INT64_MIN + 5, INT64_MIN, INT64_MIN + 1, INT64_MIN + 64};
	int64_t		min_sparse[] = {INT64_MIN, 7, -3};
	int64_t		max_dense[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX - 100};
	int64_t		high_bits[64];
	uint64_t	rnd = 3;

	check_set(all, 6, &rnd, 1000);
	check_set(no_min, 4, &rnd, 1000);
	check_set(only_min, 1, &rnd, 10);
	check_set(min_dense, 4, &rnd, 1000);
	check_set(min_sparse, 3, &rnd, 1000);
	check_set(max_dense, 3, &rnd, 1000);
	/* keys differing only in their high 32 bits */
	for (int i = 0; i < 64; i++)
		high_bits[i] = (int64_t) ((uint64_t) (i * 37) << 32);
	check_set(high_bits, 64, &rnd, 1000);
}

static void
test_random(void **state)
{
	uint64_t	rnd = 0x9e3779b97f4a7c15;
	size_t		n = 20000;
	int64_t    *keys = malloc(sizeof(int64_t) * n);

	for (int round = 0; round < 4; round++)
	{
		/* dense: bitmap mode */
		for (size_t i = 0; i < n; i++)
			keys[i] = (int64_t) (next_random(&rnd) % 60000) - 30000;
		check_set(keys, n, &rnd, 20000);
		/* sparse over all of int64: hash mode */
		for (size_t i = 0; i < n; i++)
			keys[i] = (int64_t) next_random(&rnd);
		check_set(keys, n, &rnd, 20000);
		/* clustered within a span too wide for the bitmap: hash mode */
		for (size_t i = 0; i < n / 4; i++)
			keys[i] = (int64_t) (next_random(&rnd) % (UINT64_C(1) << 28));
		check_set(keys, n / 4, &rnd, 20000);
		/* a run of consecutive keys far apart from one outlier: hash mode */
		for (size_t i = 0; i < n; i++)
			keys[i] = (int64_t) i * (round + 1);
		keys[n - 1] = INT64_C(1) << 40;
		check_set(keys, n, &rnd, 20000);
		/* small sets */
		for (size_t m = 1; m < 40; m++)
		{
			for (size_t i = 0; i < m; i++)
				keys[i] = (int64_t) (next_random(&rnd) % 100) - 50;
			check_set(keys, m, &rnd, 300);
		}
	}
	free(keys);
}

/*
 * select over a vector of `id` holding nrows random values (some of them
 * keys, every 7th row NULL with a key in its slot), against the brute force.
 */
static void
check_select(pm_type_id id, const int64_t *keys, size_t n, bool with_nulls, uint64_t *rnd)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	int64_t    *work = malloc(sizeof(int64_t) * (n + 1));
	int64_t		nrows = 3000;
	int64_t    *rows = malloc(sizeof(int64_t) * nrows);
	int64_t    *want = malloc(sizeof(int64_t) * nrows);
	int64_t		nwant = 0;
	int64_t		nprefix;
	int			bits = 8 * pm_type_value_size(id);
	pm_vector	v;
	pm_error	err;
	pm_key_set *s;

	if (n > 0)
		memcpy(work, keys, sizeof(int64_t) * n);
	s = pm_key_set_build(pm_env_default(), work, n, &err);
	assert_non_null(s);
	assert_true(pm_vector_init(&v, pm_type_new(arena, id, true), nrows, with_nulls, arena));
	v.length = nrows;
	for (int64_t r = 0; r < nrows; r++)
	{
		uint64_t	x = next_random(rnd);
		int64_t		k;

		if (x % 3 == 0 && n > 0)
			k = keys[(x >> 8) % n];
		else if (bits == 64)
			k = (int64_t) (x >> 2) - (INT64_C(1) << 61);
		else
			k = (int64_t) ((x >> 8) % (UINT64_C(1) << bits)) - (INT64_C(1) << (bits - 1));
		if (with_nulls && r % 7 == 3)
			v.nulls[r] = 1;
		switch (id)
		{
			case PM_TYPE_TINYINT:
				PM_VEC_VALUES(&v, int8_t)[r] = (int8_t) k;
				break;
			case PM_TYPE_SMALLINT:
				PM_VEC_VALUES(&v, int16_t)[r] = (int16_t) k;
				break;
			case PM_TYPE_INT:
				PM_VEC_VALUES(&v, int32_t)[r] = (int32_t) k;
				break;
			default:
				PM_VEC_VALUES(&v, int64_t)[r] = k;
				break;
		}
		/* work: the sorted distinct keys */
		if (!pm_vector_is_null(&v, r) &&
			ref_index(work, pm_key_set_count(s), pm_vector_int64_at(&v, r)) >= 0)
			want[nwant++] = r;
	}
	assert_int_equal(pm_key_set_select(s, &v, nrows, rows), nwant);
	if (nwant > 0)
		assert_memory_equal(rows, want, sizeof(int64_t) * nwant);
	/* a prefix of the rows, and none */
	for (nprefix = 0; nprefix < nwant && want[nprefix] < nrows / 2; nprefix++)
		;
	assert_int_equal(pm_key_set_select(s, &v, nrows / 2, rows), nprefix);
	if (nprefix > 0)
		assert_memory_equal(rows, want, sizeof(int64_t) * nprefix);
	assert_int_equal(pm_key_set_select(s, &v, 0, rows), 0);
	pm_key_set_free(s);
	pm_arena_destroy(arena);
	free(work);
	free(rows);
	free(want);
}

static void
test_select(void **state)
{
	static const pm_type_id ids[] = {PM_TYPE_TINYINT, PM_TYPE_SMALLINT, PM_TYPE_INT,
	PM_TYPE_BIGINT};
	int64_t		dense[] = {-128, -5, 0, 3, 17, 100, 127, -1};
	int64_t		sparse[] = {-100, 50, 0, INT64_C(1) << 40, INT64_MIN, -1, 127, 32767};
	int64_t		wide[64];
	uint64_t	rnd = 7;

	for (int i = 0; i < 64; i++)
		wide[i] = (int64_t) (next_random(&rnd) % 200) - 100;
	for (int t = 0; t < 4; t++)
		for (int nulls = 0; nulls < 2; nulls++)
		{
			check_select(ids[t], dense, 8, nulls, &rnd);
			check_select(ids[t], sparse, 8, nulls, &rnd);
			check_select(ids[t], wide, 64, nulls, &rnd);
			check_select(ids[t], sparse, 0, nulls, &rnd);
		}
}

/* An allocator failing after `left` allocations */
static int	alloc_left;

static void *
failing_alloc(void *opaque, size_t size)
{
	return alloc_left-- > 0 ? malloc(size) : NULL;
}

static void
failing_free(void *opaque, void *ptr)
{
	free(ptr);
}

static void
test_out_of_memory(void **state)
{
	pm_env		env = {failing_alloc, failing_free, NULL, NULL, NULL};
	int64_t		keys[] = {1, 2, 3, INT64_C(1) << 50};
	int64_t		dense[] = {1, 2, 3, 4};
	pm_error	err;

	/* the hash set needs 4 allocations, the bitmap one 5 */
	for (int left = 0; left <= 5; left++)
		for (int sparse = 0; sparse < 2; sparse++)
		{
			pm_key_set *s;

			pm_error_clear(&err);
			alloc_left = left;
			s = pm_key_set_build(&env, sparse ? keys : dense, 4, &err);
			if (left < 5 - sparse)
			{
				assert_null(s);
				assert_int_equal(err.code, PM_ERR_NOMEM);
			}
			else
			{
				assert_non_null(s);
				assert_true(pm_key_set_contains(s, 3));
				assert_false(pm_key_set_contains(s, 5));
			}
			pm_key_set_free(s);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
