/*-------------------------------------------------------------------------
 * test_bucket_function.c
 *	  Unit tests of src/row/bucket_function.c: bucket-function.type parsed
 *	  as Java's enum option, the bucket keys each function takes, and the
 *	  buckets of mod and hive against Apache Paimon 1.4.2's own
 *	  ModBucketFunction and HiveBucketFunction (the expected buckets were
 *	  printed by those classes for the same rows: ints of every width,
 *	  NULLs, -0.0 and NaN, UTF-8 strings, signed bytes, CHAR padding, and
 *	  decimals compact, inflated, negative, with trailing zeros and zero).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "row/bucket_function.h"

static pm_arena *arena;

static int
setup(void **state)
{
	(void) state;
	arena = pm_arena_create(pm_env_default());
	return arena ? 0 : -1;
}

static int
teardown(void **state)
{
	(void) state;
	pm_arena_destroy(arena);
	return 0;
}

static const pm_type *
row_of(const pm_type **types, int n)
{
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * (size_t) n);

	for (int i = 0; i < n; i++)
		f[i] = (pm_field) {i, pm_arena_sprintf(arena, "f%d", i), types[i], NULL};
	return pm_type_new_row(arena, f, n, false);
}

static const pm_type *
simple(pm_type_id id)
{
	return pm_type_new(arena, id, true);
}

static const pm_type *
decimal(int p, int s)
{
	return pm_type_new_decimal(arena, p, s, true);
}

/* an unscaled decimal from its digits ("-123") */
static pm_value
dec(const char *digits)
{
	pm_value	v;
	bool		neg = *digits == '-';
	pm_int128	u = 0;

	memset(&v, 0, sizeof(v));
	for (const char *p = neg ? digits + 1 : digits; *p; p++)
		u = u * 10 + (*p - '0');
	v.u.i128 = neg ? -u : u;
	return v;
}

static pm_value
i64(int64_t x)
{
	pm_value	v;

	memset(&v, 0, sizeof(v));
	v.u.i64 = x;
	return v;
}

static pm_value
f64(double x)
{
	pm_value	v;

	memset(&v, 0, sizeof(v));
	v.u.f64 = x;
	return v;
}

static pm_value
bytes(const char *b, int len)
{
	pm_value	v;

	memset(&v, 0, sizeof(v));
	v.u.bytes.ptr = (const uint8_t *) b;
	v.u.bytes.len = len;
	return v;
}

static pm_value
null_value(void)
{
	pm_value	v;

	memset(&v, 0, sizeof(v));
	v.is_null = true;
	return v;
}

static int32_t
bucket_of(pm_bucket_function f, const pm_type *row, const pm_value *v, int32_t n)
{
	pm_error	err;
	int32_t		b = -1;

	if (pm_bucket_function_bucket(f, row, v, n, &b, &err) != PM_OK)
		fail_msg("bucket: %s", err.message);
	return b;
}

static void
test_parse_and_check(void **state)
{
	pm_bucket_function f;
	pm_error	err;
	const pm_type *two[] = {simple(PM_TYPE_INT), simple(PM_TYPE_INT)};
	const pm_type *str[] = {simple(PM_TYPE_VARCHAR)};
	const pm_type *big[] = {simple(PM_TYPE_BIGINT)};
	const pm_type *ts[] = {simple(PM_TYPE_INT), simple(PM_TYPE_TIMESTAMP)};

	(void) state;
	assert_int_equal(pm_bucket_function_parse(NULL, &f, &err), PM_OK);
	assert_int_equal(f, PM_BUCKET_FUNCTION_DEFAULT);
	assert_int_equal(pm_bucket_function_parse("MOD", &f, &err), PM_OK);
	assert_int_equal(f, PM_BUCKET_FUNCTION_MOD);
	assert_int_equal(pm_bucket_function_parse("Hive", &f, &err), PM_OK);
	assert_int_equal(f, PM_BUCKET_FUNCTION_HIVE);
	assert_int_equal(pm_bucket_function_parse("default", &f, &err), PM_OK);
	assert_int_equal(f, PM_BUCKET_FUNCTION_DEFAULT);
	assert_int_equal(pm_bucket_function_parse("murmur", &f, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "bucket-function.type"));

	assert_int_equal(pm_bucket_function_check(PM_BUCKET_FUNCTION_MOD, row_of(two, 2), &err),
					 PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "exactly one field"));
	assert_int_equal(pm_bucket_function_check(PM_BUCKET_FUNCTION_MOD, row_of(str, 1), &err),
					 PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "INT or BIGINT"));
	assert_int_equal(pm_bucket_function_check(PM_BUCKET_FUNCTION_MOD, row_of(big, 1), &err), PM_OK);
	assert_int_equal(pm_bucket_function_check(PM_BUCKET_FUNCTION_HIVE, row_of(two, 2), &err), PM_OK);
	assert_int_equal(pm_bucket_function_check(PM_BUCKET_FUNCTION_HIVE, row_of(ts, 2), &err),
					 PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "Unsupported type as bucket key type"));
	assert_int_equal(pm_bucket_function_check(PM_BUCKET_FUNCTION_DEFAULT, row_of(ts, 2), &err),
					 PM_OK);
}

/* ModBucketFunction: Math.floorMod; a NULL reads as 0 */
static void
test_mod(void **state)
{
	const pm_type *ti[] = {simple(PM_TYPE_INT)};
	const pm_type *tb[] = {simple(PM_TYPE_BIGINT)};
	const pm_type *ri = row_of(ti, 1);
	const pm_type *rb = row_of(tb, 1);
	pm_value	v;

	(void) state;
	v = i64(17);
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_MOD, ri, &v, 5), 2);
	v = i64(-3);
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_MOD, ri, &v, 5), 2);
	v = null_value();
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_MOD, ri, &v, 5), 0);
	v = i64(INT64_MIN);
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_MOD, rb, &v, 7), 6);
	v = i64(-10000000000LL);
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_MOD, rb, &v, 7), 3);
}

/* HiveBucketFunction, rows as HV.java printed them with Paimon 1.4.2 */
static void
test_hive(void **state)
{
	const pm_type *t4[] = {simple(PM_TYPE_INT), simple(PM_TYPE_VARCHAR),
	simple(PM_TYPE_VARBINARY), decimal(10, 4)};
	const pm_type *tbig[] = {simple(PM_TYPE_BIGINT), simple(PM_TYPE_DOUBLE),
	simple(PM_TYPE_FLOAT), simple(PM_TYPE_BOOLEAN)};
	const pm_type *tdec[] = {decimal(38, 10), decimal(20, 0), decimal(5, 2)};
	const pm_type *tsm[] = {simple(PM_TYPE_TINYINT), simple(PM_TYPE_SMALLINT),
		simple(PM_TYPE_DATE), simple(PM_TYPE_TIME), simple(PM_TYPE_CHAR),
	simple(PM_TYPE_VARBINARY)};
	const pm_type *r4 = row_of(t4, 4);
	const pm_type *rbig = row_of(tbig, 4);
	const pm_type *rdec = row_of(tdec, 3);
	const pm_type *rsm = row_of(tsm, 6);
	pm_value	v[6];

	(void) state;
	/* HiveBucketFunctionTest's row */
	v[0] = i64(7);
	v[1] = bytes("hello", 5);
	v[2] = bytes("\x01\x02\x03", 3);
	v[3] = dec("123400");
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, r4, v, 8), 1);
	v[0] = i64(-7);
	v[1] = bytes("h\xc3\xa9llo\xe4\xb8\x80", 9);
	v[2] = bytes("\xc8\xff\x00", 3);
	v[3] = dec("-999990000");
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, r4, v, 1000003), 106520);

	v[0] = i64(1234567890123LL);
	v[1] = f64(-0.0);
	v[2] = f64(NAN);
	v[3] = i64(1);
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rbig, v, 1000003), 67156);
	v[0] = i64(-1);
	v[1] = f64(3.5);
	v[2] = f64(-2.25);
	v[3] = i64(0);
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rbig, v, 1000003), 264644);
	v[0] = i64(INT64_MIN);
	v[1] = f64(NAN);
	v[2] = f64(0.0);
	v[3] = null_value();
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rbig, v, 1000003), 637951);

	/* decimals: inflated (36 digits), negative, zero at scale 2 */
	v[0] = dec("123456789012345678901234567890000000");
	v[1] = dec("-12345678901234567890");
	v[2] = dec("0");
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rdec, v, 1000003), 607185);
	/* -1E-10, 2^63 (just inflated), -100.10 (a trailing zero) */
	v[0] = dec("-1");
	v[1] = dec("9223372036854775808");
	v[2] = dec("-10010");
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rdec, v, 1000003), 425996);
	/* Long.MAX_VALUE with ten zeros stripped, -2^63 (inflated), 1.00 */
	v[0] = dec("92233720368547758070000000000");
	v[1] = dec("-9223372036854775808");
	v[2] = dec("100");
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rdec, v, 1000003), 523929);

	v[0] = i64(-5);
	v[1] = i64(-300);
	v[2] = i64(19000);
	v[3] = i64(3600000);
	v[4] = bytes("ab ", 3);
	v[5] = bytes("", 0);
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rsm, v, 1000003), 923814);
	for (int i = 0; i < 6; i++)
		v[i] = null_value();
	assert_int_equal(bucket_of(PM_BUCKET_FUNCTION_HIVE, rsm, v, 97), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_check),
		cmocka_unit_test(test_mod),
		cmocka_unit_test(test_hive),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
