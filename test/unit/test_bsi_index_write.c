/*-------------------------------------------------------------------------
 * test_bsi_index_write.c
 *	  The "bsi" file index writer (src/index/bsi_index_write.c) through our
 *	  reader (src/index/bsi_index.c): columns with NULLs, both signs,
 *	  extremes, runs and more than 4096 rows, every integer-like type, are
 *	  written and every op's answer checked against the values; the bodies
 *	  of an all-NULL and an all-zero column byte for byte; Long.MIN_VALUE
 *	  refused. (Java's own bytes: test_file_index_write, append_with_bsi.)
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/byte_buffer.h"
#include "common/env.h"
#include "index/bsi_index.h"
#include "index/bsi_index_write.h"
#include "index/index_values_write.h"
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

/* A vector of type t of the n values v (null[i]: NULL), and the same as pm_values. */
static pm_vector *
make_vector(const pm_type *t, const int64_t *v, const bool *null, int n, pm_value **vals)
{
	pm_vector  *vec = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_value   *pv = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) n);

	assert_true(pm_vector_init(vec, t, n, true, arena));
	for (int i = 0; i < n; i++)
	{
		vec->nulls[i] = null[i];
		pv[i].is_null = null[i];
		if (t->id == PM_TYPE_DECIMAL)
			pv[i].u.i128 = (pm_int128) v[i];
		else
			pv[i].u.i64 = v[i];
		switch (t->id)
		{
			case PM_TYPE_TINYINT:
				PM_VEC_VALUES(vec, int8_t)[i] = (int8_t) v[i];
				break;
			case PM_TYPE_SMALLINT:
				PM_VEC_VALUES(vec, int16_t)[i] = (int16_t) v[i];
				break;
			case PM_TYPE_INT:
			case PM_TYPE_DATE:
			case PM_TYPE_TIME:
				PM_VEC_VALUES(vec, int32_t)[i] = (int32_t) v[i];
				break;
			case PM_TYPE_DECIMAL:
				PM_VEC_VALUES(vec, pm_int128)[i] = (pm_int128) v[i];
				break;
			default:
				PM_VEC_VALUES(vec, int64_t)[i] = v[i];
				break;
		}
	}
	vec->length = n;
	*vals = pv;
	return vec;
}

/* Write the bsi body of the values; rc is what the writer returns. */
static pm_code
write_body(const pm_type *t, const int64_t *v, const bool *null, int n, pm_value **vals,
		   pm_byte_buffer *out, pm_error *err)
{
	pm_index_values iv;
	pm_vector  *vec = make_vector(t, v, null, n, vals);

	assert_true(pm_bsi_index_write_supported(t));
	pm_index_values_init(&iv, t, arena);
	/* in two pieces, as batches come */
	assert_int_equal(pm_index_values_add(&iv, vec, n / 2, err), PM_OK);
	{
		pm_vector	tail = *vec;
		size_t		width = t->id == PM_TYPE_TINYINT ? 1 : t->id == PM_TYPE_SMALLINT ? 2 :
			(t->id == PM_TYPE_INT || t->id == PM_TYPE_DATE || t->id == PM_TYPE_TIME) ? 4 :
			t->id == PM_TYPE_DECIMAL ? sizeof(pm_int128) : 8;

		tail.nulls = vec->nulls + n / 2;
		tail.values = (uint8_t *) vec->values + (size_t) (n / 2) * width;
		tail.length = n - n / 2;
		assert_int_equal(pm_index_values_add(&iv, &tail, n - n / 2, err), PM_OK);
	}
	assert_int_equal(iv.nrows, n);
	pm_byte_buffer_init(out, pm_env_default());
	return pm_bsi_index_write(&iv, out, err);
}

/* Write, read back, and check every op against the values. */
static void
round_trip(const pm_type *t, const int64_t *v, const bool *null, int n)
{
	pm_byte_buffer b;
	pm_error	err;
	pm_value   *vals;
	pm_bsi_index *idx = NULL;

	pm_error_clear(&err);
	if (write_body(t, v, null, n, &vals, &b, &err) != PM_OK)
		fail_msg("write: %s", err.message);
	assert_false(b.failed);
	if (pm_bsi_index_open(pm_env_default(), b.data, b.len, t, &idx, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	assert_true(ix_check_all(idx, eval_bsi, t, vals, n, arena) > 10);
	pm_bsi_index_free(idx);
	pm_byte_buffer_free(&b);
}

#define BIG 6000

/* INT: >4096 rows (bitmap containers), a long run, both signs, extremes, NULLs */
static void
test_int_many_rows(void **state)
{
	int64_t    *v = malloc(sizeof(int64_t) * BIG);
	bool	   *null = malloc(sizeof(bool) * BIG);

	for (int r = 0; r < BIG; r++)
	{
		if (r < 2000)
			v[r] = (r * 37) % 1000 - 500;
		else if (r < 4000)
			v[r] = 7;
		else
			v[r] = r - 5000;
		null[r] = r % 11 == 3;
	}
	v[17] = INT32_MIN;
	v[18] = INT32_MAX;
	round_trip(T(PM_TYPE_INT, 0), v, null, BIG);
	free(v);
	free(null);
}

static void
test_bigint_extremes(void **state)
{
	const int64_t v[] = {INT64_MAX, INT64_MIN + 1, 0, -1, 1, 0, INT64_MAX - 1, -(INT64_C(1) << 40),
	INT64_C(1) << 62, 5};
	const bool	null[] = {false, false, false, false, false, true, false, false, false, true};

	round_trip(T(PM_TYPE_BIGINT, 0), v, null, 10);
}

/* the narrow types are sign-extended: -1 is 1 in the negative BSI */
static void
test_narrow_types(void **state)
{
	const int64_t v8[] = {-128, 127, -1, 0, 1, 3, -3, 100};
	const int64_t v16[] = {-32768, 32767, -1, 0, 1, 300, -300, 1000};
	const bool	null[] = {false, false, false, false, true, false, false, false};

	round_trip(T(PM_TYPE_TINYINT, 0), v8, null, 8);
	round_trip(T(PM_TYPE_SMALLINT, 0), v16, null, 8);
	round_trip(T(PM_TYPE_DATE, 0), v16, null, 8);
	round_trip(T(PM_TYPE_TIME, 0), v16, null, 8);
}

/* DECIMAL unscaled; TIMESTAMP(3) as millis, TIMESTAMP(6) as micros */
static void
test_decimal_timestamp(void **state)
{
	const int64_t dec[] = {12345, -12345, 0, 999999999999999999, -999999999999999999, 1, 42};
	const int64_t ts[] = {1745542802000000, -1744877000, -1000, 0, 1000, 1745542902123000,
	-62135596800000000};
	const int64_t ts6[] = {1745542802000123, -1744877, -1, 0, 1, 1745542902123456,
	-62135596800000000};
	const bool	null[] = {false, true, false, false, false, false, false};

	round_trip(pm_type_new_decimal(arena, 18, 2, true), dec, null, 7);
	round_trip(T(PM_TYPE_TIMESTAMP, 3), ts, null, 7);
	round_trip(T(PM_TYPE_TIMESTAMP_LTZ, 3), ts, null, 7);
	round_trip(T(PM_TYPE_TIMESTAMP, 6), ts6, null, 7);
	/* any DECIMAL precision, as BitSliceIndexBitmapFileIndex (toUnscaledLong) */
	assert_true(pm_bsi_index_write_supported(pm_type_new_decimal(arena, 38, 2, true)));
	assert_false(pm_bsi_index_write_supported(T(PM_TYPE_DOUBLE, 0)));
	assert_false(pm_bsi_index_write_supported(T(PM_TYPE_VARCHAR, 0)));
	assert_false(pm_bsi_index_write_supported(T(PM_TYPE_BOOLEAN, 0)));
}

/* all NULL: version, rows, no positive, no negative (Java's isNotEmpty) */
static void
test_all_null(void **state)
{
	int64_t		v[300] = {0};
	bool		null[300];
	const uint8_t want[] = {1, 0, 0, 1, 44, 0, 0};
	pm_byte_buffer b;
	pm_error	err;
	pm_value   *vals;
	pm_bsi_index *idx;

	for (int i = 0; i < 300; i++)
		null[i] = true;
	assert_int_equal(write_body(T(PM_TYPE_INT, 0), v, null, 300, &vals, &b, &err), PM_OK);
	assert_int_equal(b.len, sizeof(want));
	assert_memory_equal(b.data, want, sizeof(want));
	assert_int_equal(pm_bsi_index_open(pm_env_default(), b.data, b.len, T(PM_TYPE_INT, 0), &idx,
									   &err), PM_OK);
	assert_true(ix_check_all(idx, eval_bsi, T(PM_TYPE_INT, 0), vals, 300, arena) >= 2);
	pm_bsi_index_free(idx);
	pm_byte_buffer_free(&b);
	round_trip(T(PM_TYPE_INT, 0), v, null, 300);
}

/*
 * All zero but a NULL: positive BSI min 0, max 0, no slice; the EBM
 * {0, 2} as an array container (cookie 12346, 1 container, key 0,
 * cardinality - 1 = 1, offset 16, values).
 */
static void
test_all_zero(void **state)
{
	const int64_t v[] = {0, 0, 0};
	const bool	null[] = {false, true, false};
	const uint8_t want[] = {1, 0, 0, 0, 3,
		1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 16, 0, 0, 0, 0, 0, 2, 0,
		0, 0, 0, 0,
	0};
	pm_byte_buffer b;
	pm_error	err;
	pm_value   *vals;

	assert_int_equal(write_body(T(PM_TYPE_BIGINT, 0), v, null, 3, &vals, &b, &err), PM_OK);
	if (b.len != sizeof(want) || memcmp(b.data, want, sizeof(want)) != 0)
	{
		for (size_t i = 0; i < b.len; i++)
			fprintf(stderr, "%02x ", b.data[i]);
		fail_msg("body differs (%zu bytes)", b.len);
	}
	pm_byte_buffer_free(&b);
	round_trip(T(PM_TYPE_BIGINT, 0), v, null, 3);
}

/* Java's Appender refuses Math.abs(Long.MIN_VALUE) < 0; so do we */
static void
test_long_min_refused(void **state)
{
	const int64_t v[] = {1, INT64_MIN, -1};
	const bool	null[] = {false, false, false};
	pm_byte_buffer b;
	pm_error	err;
	pm_value   *vals;

	pm_error_clear(&err);
	assert_int_equal(write_body(T(PM_TYPE_BIGINT, 0), v, null, 3, &vals, &b, &err),
					 PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "-9223372036854775808"));
	pm_byte_buffer_free(&b);
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
		cmocka_unit_test_setup_teardown(test_int_many_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bigint_extremes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_narrow_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decimal_timestamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_null, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_min_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
