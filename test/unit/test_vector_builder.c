/*-------------------------------------------------------------------------
 * test_vector_builder.c
 *	  pm_vector_builder_reset (src/common/vector_builder.c): a builder that
 *	  was filled, reset and filled again holds what a fresh builder filled
 *	  the second way holds, for flat, string, ARRAY and ROW vectors, with
 *	  NULLs and growth past the first capacity on both sides.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/vector_builder.h"

static pm_arena *arena;

/* Equal contents of the first a->length values (and their children). */
static void
assert_same_vector(const pm_vector *a, const pm_vector *b)
{
	int			size = pm_type_value_size(a->type->id);

	assert_int_equal(a->length, b->length);
	assert_int_equal(a->data_size, b->data_size);
	for (int64_t i = 0; i < a->length; i++)
	{
		assert_int_equal(pm_vector_is_null(a, i), pm_vector_is_null(b, i));
		if (size > 0 && !pm_vector_is_null(a, i))
			assert_memory_equal((const uint8_t *) a->values + i * size,
								(const uint8_t *) b->values + i * size, size);
	}
	if (a->offsets != NULL)
		assert_memory_equal(a->offsets, b->offsets, sizeof(int32_t) * (size_t) (a->length + 1));
	if (a->data_size > 0)
		assert_memory_equal(a->data, b->data, (size_t) a->data_size);
	assert_int_equal(a->nchildren, b->nchildren);
	for (int c = 0; c < a->nchildren; c++)
		assert_same_vector(&a->children[c], &b->children[c]);
}

/* A source vector of `type`, n values, every fifth NULL. */
static pm_vector *
source(const pm_type *type, int n)
{
	pm_vector  *v = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;
	char		s[32];

	assert_true(pm_vector_builder_init(&b, v, type, 4, arena));
	for (int i = 0; i < n; i++)
	{
		if (i % 5 == 3)
		{
			assert_true(pm_vector_builder_append_null(&b));
			continue;
		}
		switch (type->id)
		{
			case PM_TYPE_INT:
				{
					pm_vector	one;
					pm_vector_builder ob;

					assert_true(pm_vector_builder_init(&ob, &one, type, 1, arena));
					((int32_t *) one.values)[0] = i * 7 - 100;
					one.nulls[0] = 0;
					one.length = 1;
					assert_true(pm_vector_builder_append(&b, &one, 0));
					break;
				}
			case PM_TYPE_VARCHAR:
				snprintf(s, sizeof(s), "value %d%s", i, i % 3 ? "" : " with a longer tail");
				assert_true(pm_vector_builder_append_bytes(&b, s, (int32_t) strlen(s)));
				break;
			default:
				fail();
		}
	}
	return v;
}

static void
check_type(const pm_type *type, const pm_vector *src)
{
	pm_vector	reused,
				fresh;
	pm_vector_builder rb,
				fb;

	assert_true(pm_vector_builder_init(&rb, &reused, type, 8, arena));
	assert_true(pm_vector_builder_init(&fb, &fresh, type, 8, arena));
	for (int64_t i = 0; i < 30; i++)
		assert_true(pm_vector_builder_append(&rb, src, i));
	pm_vector_builder_reset(&rb);
	assert_int_equal(reused.length, 0);
	for (int64_t i = 10; i < src->length; i++)
	{
		assert_true(pm_vector_builder_append(&rb, src, i));
		assert_true(pm_vector_builder_append(&fb, src, i));
	}
	assert_same_vector(&reused, &fresh);
	/* a second reset with fewer values than before */
	pm_vector_builder_reset(&rb);
	pm_vector_builder_reset(&fb);
	for (int64_t i = 40; i < 45; i++)
	{
		assert_true(pm_vector_builder_append(&rb, src, i));
		assert_true(pm_vector_builder_append(&fb, src, i));
	}
	assert_same_vector(&reused, &fresh);
}

static void
test_flat(void **state)
{
	const pm_type *t = pm_type_new(arena, PM_TYPE_INT, true);

	check_type(t, source(t, 60));
	t = pm_type_new(arena, PM_TYPE_VARCHAR, true);
	check_type(t, source(t, 60));
}

static void
test_nested(void **state)
{
	const pm_type *it = pm_type_new(arena, PM_TYPE_INT, true);
	const pm_type *st = pm_type_new(arena, PM_TYPE_VARCHAR, true);
	const pm_type *at = pm_type_new_array(arena, st, true);
	pm_field	fields[2] = {{.id = 0, .name = "i", .type = it}, {.id = 1, .name = "s", .type = st}};
	const pm_type *rt = pm_type_new_row(arena, fields, 2, true);
	pm_vector  *ints = source(it, 60);
	pm_vector  *strs = source(st, 60);
	pm_vector	arr,
				row;
	pm_vector_builder ab,
				rowb;

	/* ARRAY<VARCHAR>: row i holds strings i .. i + i % 4 - 1 (empty for i % 4 == 0) */
	assert_true(pm_vector_builder_init(&ab, &arr, at, 60, arena));
	for (int i = 0; i < 60; i++)
	{
		if (i % 7 == 5)
		{
			assert_true(pm_vector_builder_append_null(&ab));
			continue;
		}
		for (int k = 0; k < i % 4; k++)
			assert_true(pm_vector_builder_append(&ab.children[0], strs, (i + k) % 60));
		arr.nulls[arr.length] = 0;
		arr.offsets[arr.length + 1] = (int32_t) arr.children[0].length;
		arr.length++;
	}
	check_type(at, &arr);

	/* ROW<INT, VARCHAR> */
	assert_true(pm_vector_builder_init(&rowb, &row, rt, 4, arena));
	for (int i = 0; i < 60; i++)
	{
		const pm_vector *fv[2] = {ints, strs};
		int64_t		rows[2] = {i, 59 - i};

		if (i % 9 == 4)
			assert_true(pm_vector_builder_append_null(&rowb));
		else
			assert_true(pm_vector_builder_append_struct(&rowb, fv, rows));
	}
	check_type(rt, &row);
}

/*
 * A MULTISET value grouped as Java writes it (pm_multiset_count,
 * pm_vector_collapse_multiset: distinct elements, first occurrence first,
 * with counts) and expanded back (pm_vector_expand_multiset).
 */
static void
test_multiset_group(void **state)
{
	pm_type		et = {.id = PM_TYPE_BIGINT, .nullable = false};
	pm_type		mt = {.id = PM_TYPE_MULTISET, .nullable = true, .element = &et};
	static const int64_t elems[] = {4, 9, 4, 4, 1, 9, 7, 7};
	static const int32_t counts[] = {3, 2, 1, 2};
	static const int64_t distinct[] = {4, 9, 1, 7};
	static const int64_t expanded[] = {4, 4, 4, 9, 9, 1, 7, 7};
	pm_vector	v,
				m;
	pm_error	err;

	(void) state;
	/* values 0..3: [], [4 9 4 4 1 9], NULL, [7 7] */
	assert_true(pm_vector_init(&v, &mt, 4, true, arena));
	assert_true(pm_vector_init(&v.children[0], &et, 8, false, arena));
	memcpy(v.children[0].values, elems, sizeof(elems));
	v.children[0].length = 8;
	memcpy(v.offsets, ((const int32_t[]) {0, 0, 6, 6, 8}), 5 * sizeof(int32_t));
	v.nulls[2] = 1;
	v.length = 4;
	assert_int_equal(pm_multiset_count(&v.children[0], 0, 6, 0), 3);
	assert_int_equal(pm_multiset_count(&v.children[0], 0, 6, 2), 0);
	assert_int_equal(pm_multiset_count(&v.children[0], 0, 6, 1), 2);
	assert_int_equal(pm_multiset_count(&v.children[0], 0, 6, 4), 1);

	/* values 1..3: [4 9 4 4 1 9], NULL, [7 7] */
	assert_true(pm_vector_collapse_multiset(&v, 1, 4, arena, &m));
	assert_int_equal(m.length, 3);
	assert_int_equal(m.nchildren, 2);
	assert_memory_equal(m.offsets, ((const int32_t[]) {0, 3, 3, 4}), 4 * sizeof(int32_t));
	assert_false(pm_vector_is_null(&m, 0));
	assert_true(pm_vector_is_null(&m, 1));
	assert_int_equal(m.children[0].length, 4);
	assert_memory_equal(m.children[0].values, distinct, sizeof(distinct));
	assert_int_equal(m.children[1].type->id, PM_TYPE_INT);
	assert_memory_equal(m.children[1].values, counts, sizeof(counts));

	assert_int_equal(pm_vector_expand_multiset(&m, arena, &err), PM_OK);
	assert_int_equal(m.nchildren, 1);
	assert_memory_equal(m.offsets, ((const int32_t[]) {0, 6, 6, 8}), 4 * sizeof(int32_t));
	assert_memory_equal(m.children[0].values, expanded, sizeof(expanded));
}

static int
setup(void **state)
{
	arena = pm_arena_create(pm_env_default());
	return 0;
}

static int
teardown(void **state)
{
	pm_arena_destroy(arena);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_multiset_group),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
