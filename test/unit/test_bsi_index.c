/*-------------------------------------------------------------------------
 * test_bsi_index.c
 *	  The "bsi" file index reader (src/index/bsi_index.c).
 *
 * Against Java-written bytes: the corpus table append_with_bsi (INT
 * columns with negative values and NULLs, TIMESTAMP(9)), whose answers are
 * compared with the data file's own values for every op and many
 * literals. Against bodies built here as BitSliceIndexBitmapFileIndex's
 * writer builds them (TIMESTAMP(3) millis asked with microsecond literals,
 * DECIMAL beyond a long, extremes). Damaged bodies fail cleanly.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "index/bsi_index.h"
#include "range_index_fixture.h"

static pm_arena *arena;

static pm_type *
T(pm_type_id id, int precision)
{
	pm_type    *t = pm_type_new(arena, id, true);

	t->precision = precision;
	return t;
}

static pm_code
eval_bsi(void *idx, const pm_predicate *leaf, pm_file_index_result *out, pm_error *err)
{
	return pm_bsi_index_eval(idx, leaf, out, err);
}

static pm_bsi_index *
open_ok(const uint8_t *body, size_t len, const pm_type *t)
{
	pm_bsi_index *idx = NULL;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_bsi_index_open(pm_env_default(), body, len, t, &idx, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	return idx;
}

/* Every strict prefix fails as corrupt; every single-bit flip fails or answers within the rows. */
static void
check_damage(const uint8_t *body, size_t len, const pm_type *t, int rows)
{
	uint8_t    *copy = malloc(len);
	pm_error	err;
	pm_bsi_index *idx;

	for (size_t n = 0; n < len; n++)
	{
		memcpy(copy, body, n);
		pm_error_clear(&err);
		idx = (pm_bsi_index *) 1;
		assert_int_equal(pm_bsi_index_open(pm_env_default(), copy, n, t, &idx, &err),
						 PM_ERR_CORRUPT);
		assert_null(idx);
	}
	for (size_t bit = 0; bit < len * 8; bit++)
	{
		pm_predicate leaf;
		pm_file_index_result res;
		pm_value	lit;

		memcpy(copy, body, len);
		copy[bit / 8] ^= (uint8_t) (1 << (bit % 8));
		pm_error_clear(&err);
		if (pm_bsi_index_open(pm_env_default(), copy, len, t, &idx, &err) != PM_OK)
		{
			assert_int_not_equal(err.code, PM_OK);
			assert_null(idx);
			continue;
		}
		memset(&leaf, 0, sizeof(leaf));
		memset(&lit, 0, sizeof(lit));
		lit.u.i64 = -2;
		leaf.literals = &lit;
		leaf.nliterals = 1;
		for (int op = PM_PRED_EQ; op <= PM_PRED_IN; op++)
		{
			leaf.op = op;
			assert_int_equal(pm_bsi_index_eval(idx, &leaf, &res, &err), PM_OK);
			if (res.rows != NULL && op != PM_PRED_IS_NULL)
				assert_true(roaring_bitmap_maximum(res.rows) < (uint32_t) rows);
			pm_file_index_result_clear(&res);
		}
		pm_bsi_index_free(idx);
	}
	free(copy);
}

static const pm_type *
corpus_row(void)
{
	const char *names[] = {"f0", "f1", "f2", "f3", "f4"};
	const pm_type *types[] = {T(PM_TYPE_VARCHAR, 0), T(PM_TYPE_INT, 0), T(PM_TYPE_INT, 0),
	T(PM_TYPE_DOUBLE, 0), T(PM_TYPE_TIMESTAMP, 9)};
	pm_field	fields[5];

	((pm_type *) types[0])->length = PM_MAX_VARCHAR_LENGTH;
	for (int i = 0; i < 5; i++)
	{
		fields[i].id = i;
		fields[i].name = names[i];
		fields[i].type = types[i];
		fields[i].description = NULL;
	}
	return pm_type_new_row(arena, fields, 5, false);
}

static void
test_corpus_table(void **state)
{
	ix_table	t;
	const int	cols[] = {1, 2, 4};
	const int64_t f2[] = {-2, -3, 1, 1, -1, 2, -2};

	unit_require_corpus();
	ix_table_load(&t, arena, "tables/parquet/append_with_bsi.db/append_with_bsi", corpus_row());
	assert_int_equal(t.nrows, 8);
	/* the README's f2: both signs and a NULL, so both BSIs are exercised */
	for (int i = 0; i < 7; i++)
		assert_int_equal(t.values[2][i].u.i64, f2[i]);
	assert_true(t.values[2][7].is_null);
	assert_int_not_equal(t.values[4][6].nanos, 0);	/* ...802000123001 ns */
	for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
	{
		int			c = cols[k];
		size_t		len;
		const uint8_t *body = ix_container_body(t.index, t.index_len, t.row->fields[c].name,
												"bsi", &len);
		const pm_type *type = t.row->fields[c].type;
		pm_bsi_index *idx = open_ok(body, len, type);

		assert_true(ix_check_all(idx, eval_bsi, type, t.values[c], t.nrows, arena) > 100);
		pm_bsi_index_free(idx);
		check_damage(body, len, type, 8);
	}
}

/* ---- bodies built as the Java writer builds them --------------------------- */

typedef struct bbuf
{
	uint8_t    *p;
	size_t		n;
	size_t		cap;
} bbuf;

static void
put(bbuf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap)
	{
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
put8(bbuf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void
put32(bbuf *b, uint32_t v)
{
	uint8_t		x[4] = {v >> 24, v >> 16, v >> 8, v};

	put(b, x, 4);
}

static void
put64(bbuf *b, uint64_t v)
{
	put32(b, (uint32_t) (v >> 32));
	put32(b, (uint32_t) v);
}

static void
put_bitmap(bbuf *b, roaring_bitmap_t *bm)
{
	size_t		n;
	char	   *tmp;

	roaring_bitmap_run_optimize(bm);
	n = roaring_bitmap_portable_size_in_bytes(bm);
	tmp = malloc(n);
	roaring_bitmap_portable_serialize(bm, tmp);
	put(b, tmp, n);
	free(tmp);
	roaring_bitmap_free(bm);
}

/* The long a value is indexed as (getValueMapper). */
static int64_t
as_long(const pm_type *t, const pm_value *v)
{
	if (t->id == PM_TYPE_DECIMAL)
		return (int64_t) v->u.i128;
	if ((t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) && t->precision <= 3)
		return v->u.i64 / 1000 - (v->u.i64 % 1000 < 0);
	return v->u.i64;
}

/* BitSliceIndexBitmapFileIndex.Writer.serializedBytes */
static bbuf
build_body(const pm_type *t, const pm_value *vals, int n)
{
	bbuf		out = {0};
	uint64_t	max[2] = {0, 0};
	bool		has[2] = {false, false};

	for (int i = 0; i < n; i++)
		if (!vals[i].is_null)
		{
			int64_t		v = as_long(t, &vals[i]);
			int			side = v < 0;
			uint64_t	a = v < 0 ? (uint64_t) -v : (uint64_t) v;

			has[side] = true;
			if (a > max[side])
				max[side] = a;
		}
	put8(&out, 1);
	put32(&out, n);
	for (int side = 0; side < 2; side++)
	{
		int			nslices = max[side] == 0 ? 0 : 64 - __builtin_clzll(max[side]);
		roaring_bitmap_t *ebm = roaring_bitmap_create();

		put8(&out, has[side]);
		if (!has[side])
		{
			roaring_bitmap_free(ebm);
			continue;
		}
		put8(&out, 1);
		put64(&out, 0);
		put64(&out, max[side]);
		for (int i = 0; i < n; i++)
			if (!vals[i].is_null && (as_long(t, &vals[i]) < 0) == side)
				roaring_bitmap_add(ebm, i);
		put_bitmap(&out, ebm);
		put32(&out, nslices);
		for (int s = 0; s < nslices; s++)
		{
			roaring_bitmap_t *slice = roaring_bitmap_create();

			for (int i = 0; i < n; i++)
				if (!vals[i].is_null)
				{
					int64_t		v = as_long(t, &vals[i]);
					uint64_t	a = v < 0 ? (uint64_t) -v : (uint64_t) v;

					if ((v < 0) == side && ((a >> s) & 1))
						roaring_bitmap_add(slice, i);
				}
			put_bitmap(&out, slice);
		}
	}
	return out;
}

static void
check_built(const pm_type *t, const pm_value *vals, int n)
{
	bbuf		b = build_body(t, vals, n);
	pm_bsi_index *idx = open_ok(b.p, b.n, t);

	assert_true(ix_check_all(idx, eval_bsi, t, vals, n, arena) > 0);
	pm_bsi_index_free(idx);
	free(b.p);
}

static void
test_built(void **state)
{
	int			n = 200;
	pm_value   *vals = calloc(n, sizeof(pm_value));
	unsigned	seed = 11;

	for (int i = 0; i < n; i++)
	{
		vals[i].is_null = i % 9 == 4;
		vals[i].u.i64 = (int64_t) (rand_r(&seed) % 2001) - 1000;
	}
	check_built(T(PM_TYPE_INT, 0), vals, n);
	check_built(T(PM_TYPE_SMALLINT, 0), vals, n);
	check_built(T(PM_TYPE_DATE, 0), vals, n);
	/* only positive, only negative, only zero */
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = rand_r(&seed) % 50;
	check_built(T(PM_TYPE_BIGINT, 0), vals, n);
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = -1 - rand_r(&seed) % 50;
	check_built(T(PM_TYPE_BIGINT, 0), vals, n);
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = 0;
	check_built(T(PM_TYPE_TINYINT, 0), vals, n);
	/* extremes of a long (Java cannot store Long.MIN_VALUE) */
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = i % 3 == 0 ? INT64_MAX - i : i % 3 == 1 ? INT64_MIN + 1 + i : i;
	check_built(T(PM_TYPE_BIGINT, 0), vals, n);
	/* TIMESTAMP(3): millis, asked with microsecond literals (+-500 us between two) */
	for (int i = 0; i < n; i++)
		vals[i].u.i64 = ((int64_t) (rand_r(&seed) % 2000) - 1000) * 1000 * 1000 +
			(int64_t) (rand_r(&seed) % 3) * 1000;
	check_built(T(PM_TYPE_TIMESTAMP, 3), vals, n);
	check_built(T(PM_TYPE_TIMESTAMP_LTZ, 6), vals, n);
	/* DECIMAL(20, 2) with literals beyond a long */
	for (int i = 0; i < n; i++)
		vals[i].u.i128 = (pm_int128) ((int64_t) rand_r(&seed) * 1000003) * (i % 2 ? 1 : -1);
	check_built(pm_type_new_decimal(arena, 20, 2, true), vals, n);
	/* all NULL: neither BSI */
	for (int i = 0; i < n; i++)
		vals[i].is_null = true;
	check_built(T(PM_TYPE_INT, 0), vals, n);
	free(vals);
}

/* TIMESTAMP(9): microseconds (floor) are indexed; a literal with nanos is not decided. */
static void
test_timestamp_nanos_literal(void **state)
{
	pm_value	vals[2];
	bbuf		b;
	pm_bsi_index *idx;
	pm_predicate leaf;
	pm_value	lit;
	pm_file_index_result res;
	pm_error	err;
	const pm_type *t = T(PM_TYPE_TIMESTAMP, 9);

	memset(vals, 0, sizeof(vals));
	vals[0].u.i64 = 1000;
	vals[0].nanos = 5;
	vals[1].u.i64 = 2000;
	b = build_body(t, vals, 2);
	idx = open_ok(b.p, b.n, t);
	memset(&leaf, 0, sizeof(leaf));
	memset(&lit, 0, sizeof(lit));
	lit.u.i64 = 1000;
	lit.nanos = 5;
	leaf.op = PM_PRED_EQ;
	leaf.literals = &lit;
	leaf.nliterals = 1;
	pm_error_clear(&err);
	assert_int_equal(pm_bsi_index_eval(idx, &leaf, &res, &err), PM_OK);
	assert_false(res.skip);
	assert_null(res.rows);
	pm_bsi_index_free(idx);
	free(b.p);
}

static void
test_inconsistent(void **state)
{
	uint8_t		buf[512];
	bbuf		b;
	pm_value	vals[3];
	pm_bsi_index *idx;
	pm_error	err;
	const pm_type *t = T(PM_TYPE_INT, 0);

	memset(vals, 0, sizeof(vals));
	vals[0].u.i64 = 5;
	vals[1].u.i64 = -5;
	vals[2].u.i64 = 6;
	b = build_body(t, vals, 3);
	assert_true(b.n < sizeof(buf));
	/* slice count that does not match max: 6 needs 3 slices */
	memcpy(buf, b.p, b.n);
	assert_int_equal(buf[6], 1);	/* positive BSI version */
	buf[22] ^= 0x10;			/* max 6 -> 22 */
	pm_error_clear(&err);
	assert_int_equal(pm_bsi_index_open(pm_env_default(), buf, b.n, t, &idx, &err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "slices"));
	/* a negative value of 0 (|v| = 0 in the negative BSI): LT 0 and GE 0 would both miss it */
	{
		bbuf		z = {0};

		put8(&z, 1);
		put32(&z, 1);
		put8(&z, 0);			/* no positive BSI */
		put8(&z, 1);
		put8(&z, 1);
		put64(&z, 0);
		put64(&z, 1);
		put_bitmap(&z, roaring_bitmap_from_range(0, 1, 1));	/* row 0 has a value */
		put32(&z, 1);
		put_bitmap(&z, roaring_bitmap_create());	/* whose bits are all 0 */
		pm_error_clear(&err);
		assert_int_equal(pm_bsi_index_open(pm_env_default(), z.p, z.n, t, &idx, &err),
						 PM_ERR_CORRUPT);
		assert_non_null(strstr(err.message, "negative value of 0"));
		free(z.p);
	}
	/* a flag that is not a boolean */
	memcpy(buf, b.p, b.n);
	buf[5] = 2;
	assert_int_equal(pm_bsi_index_open(pm_env_default(), buf, b.n, t, &idx, &err), PM_ERR_CORRUPT);
	/* trailing bytes after both BSIs are ignored, as Java ignores them */
	memcpy(buf, b.p, b.n);
	buf[b.n] = 0x55;
	assert_int_equal(pm_bsi_index_open(pm_env_default(), buf, b.n + 1, t, &idx, &err), PM_OK);
	pm_bsi_index_free(idx);
	free(b.p);
}

static void
test_unsupported_types(void **state)
{
	pm_bsi_index *idx;
	pm_error	err;
	const pm_type *refused[] = {T(PM_TYPE_VARCHAR, 0), T(PM_TYPE_FLOAT, 0), T(PM_TYPE_DOUBLE, 0),
	T(PM_TYPE_BOOLEAN, 0), T(PM_TYPE_BINARY, 0), pm_type_new_array(arena, T(PM_TYPE_INT, 0), true)};
	uint8_t		body[16] = {1};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
	{
		pm_error_clear(&err);
		assert_int_equal(pm_bsi_index_open(pm_env_default(), body, sizeof(body), refused[i],
										   &idx, &err), PM_ERR_UNSUPPORTED);
		assert_null(idx);
	}
}

static void
test_tracked_by_env(void **state)
{
	pm_env		env = *pm_env_default();
	pm_resource head;
	pm_value	vals[3];
	bbuf		b;
	pm_bsi_index *idx[2];
	pm_error	err;
	const pm_type *t = T(PM_TYPE_INT, 0);

	memset(vals, 0, sizeof(vals));
	vals[1].u.i64 = -3;
	vals[2].u.i64 = 3;
	b = build_body(t, vals, 3);
	pm_env_resources_init(&head);
	env.resources = &head;
	pm_error_clear(&err);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pm_bsi_index_open(&env, b.p, b.n, t, &idx[i], &err), PM_OK);
	assert_int_equal(pm_env_tracked_count(&env), 2);
	pm_bsi_index_free(idx[0]);
	assert_int_equal(pm_env_tracked_count(&env), 1);
	pm_env_release_all(&env);	/* ASan: nothing leaks */
	assert_int_equal(pm_env_tracked_count(&env), 0);
	assert_int_equal(pm_bsi_index_open(&env, b.p, b.n - 1, t, &idx[0], &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_env_tracked_count(&env), 0);
	free(b.p);
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
		cmocka_unit_test(test_corpus_table),
		cmocka_unit_test(test_built),
		cmocka_unit_test(test_timestamp_nanos_literal),
		cmocka_unit_test(test_inconsistent),
		cmocka_unit_test(test_unsupported_types),
		cmocka_unit_test(test_tracked_by_env),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
