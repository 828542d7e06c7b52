/*-------------------------------------------------------------------------
 * test_default_value.c
 *	  Column default values on write (table/default_value.c): Java's
 *	  STRING -> type casts of the default and the NULLs they replace.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <math.h>
#include <stdio.h>

#include <string.h>

#include "common/env.h"
#include "table/default_value.h"
#include "writer_fixture.h"

static pm_schema *
schema_of(pm_arena *a, const char *type, const char **defaults)
{
	pm_schema  *s = pm_arena_zalloc(a, sizeof(pm_schema));

	s->row_type = writer_fixture_parse_type(a, type);
	s->default_values = defaults;
	return s;
}

/* the one default of a one-column schema, or the error code */
static pm_code
parse_one(pm_arena *a, const char *type, const char *text, pm_vector **v, pm_error *err)
{
	const char **d = pm_arena_zalloc(a, sizeof(char *) * 2);
	pm_vector **out;
	pm_code		rc;

	d[0] = text;
	rc = pm_default_values_parse(schema_of(a, type, d), a, &out, err);
	if (rc == PM_OK)
	{
		assert_non_null(out);
		assert_int_equal(out[0]->length, 1);
		assert_false(pm_vector_is_null(out[0], 0));
		*v = out[0];
	}
	return rc;
}

static void
test_casts(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_vector  *v;
	pm_error	err;
	/* BinaryStringUtils.toLong: sign, digits, a well-formed fraction dropped */
	static const struct
	{
		const char *type;
		const char *text;
		int64_t		want;
	}			ints[] = {
		{"ROW<x INT>", "7", 7}, {"ROW<x INT>", "'-42'", -42}, {"ROW<x INT>", "+3.99", 3},
		{"ROW<x BIGINT>", "-9223372036854775808", INT64_MIN},
		{"ROW<x BIGINT>", "9223372036854775807", INT64_MAX},
		{"ROW<x TINYINT>", "-128", -128}, {"ROW<x SMALLINT>", "32767", 32767},
		{"ROW<x INT>", "12.", 12},
	};
	static const char *const bad_ints[][2] = {
		{"ROW<x INT>", ""}, {"ROW<x INT>", " 7"}, {"ROW<x INT>", "7 "}, {"ROW<x INT>", "-"},
		{"ROW<x INT>", "1e3"}, {"ROW<x INT>", "2147483648"}, {"ROW<x TINYINT>", "128"},
		{"ROW<x BIGINT>", "9223372036854775808"}, {"ROW<x INT>", "1.2x"}, {"ROW<x INT>", "'"},
		{"ROW<x BOOLEAN>", "maybe"}, {"ROW<x BOOLEAN>", " true"},
	};

	(void) state;
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
	{
		if (parse_one(a, ints[i].type, ints[i].text, &v, &err) != PM_OK)
			fail_msg("%s %s: %s", ints[i].type, ints[i].text, err.message);
		if (pm_vector_int64_at(v, 0) != ints[i].want)
			fail_msg("%s %s: %lld", ints[i].type, ints[i].text, (long long) pm_vector_int64_at(v, 0));
	}
	for (size_t i = 0; i < sizeof(bad_ints) / sizeof(bad_ints[0]); i++)
	{
		if (parse_one(a, bad_ints[i][0], bad_ints[i][1], &v, &err) != PM_ERR_INVALID)
			fail_msg("%s \"%s\" accepted", bad_ints[i][0], bad_ints[i][1]);
		assert_non_null(strstr(err.message, "Unsupported default value"));
	}
	/* BinaryStringUtils.toBoolean */
	assert_int_equal(parse_one(a, "ROW<x BOOLEAN>", "YES", &v, &err), PM_OK);
	assert_int_equal(PM_VEC_VALUES(v, uint8_t)[0], 1);
	assert_int_equal(parse_one(a, "ROW<x BOOLEAN>", "'F'", &v, &err), PM_OK);
	assert_int_equal(PM_VEC_VALUES(v, uint8_t)[0], 0);
	assert_int_equal(parse_one(a, "ROW<x BOOLEAN>", "0", &v, &err), PM_OK);
	assert_int_equal(PM_VEC_VALUES(v, uint8_t)[0], 0);
	/* toCharacterString: cut to the length in characters, CHAR padded */
	assert_int_equal(parse_one(a, "ROW<x VARCHAR(3)>", "h\xc3\xa9llo", &v, &err), PM_OK);
	assert_int_equal(v->offsets[1], 4);
	assert_memory_equal(v->data, "h\xc3\xa9l", 4);
	assert_int_equal(parse_one(a, "ROW<x CHAR(4)>", "'ab'", &v, &err), PM_OK);
	assert_int_equal(v->offsets[1], 4);
	assert_memory_equal(v->data, "ab  ", 4);
	assert_int_equal(parse_one(a, "ROW<x STRING>", "''", &v, &err), PM_OK);
	assert_int_equal(v->offsets[1], 0);
	/* not cast here: refused by name (the JVM's zone would decide) */
	assert_int_equal(parse_one(a, "ROW<x TIMESTAMP_LTZ(3)>", "2026-01-01 00:00:00", &v, &err),
					 PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "\"x\""));
	pm_arena_destroy(a);
}

/* BinaryStringUtils.toTime (DateTimeUtils.parseTime) and toTimestamp */
static void
test_time_casts(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_vector  *v;
	pm_error	err;
	struct
	{
		const char *text;
		int32_t		millis;
	}			times[] = {
		{"10:00:00", 36000000}, {"7:5", 7 * 3600000 + 5 * 60000}, {"23", 23}, {" 23", 23 * 3600000},
		{" 1 : 2 : 3 .4567", 3723457}, {"1:2:3.4564", 3723456}, {"12345", 12345},
		{"-7", -7}, {"10:00:00+01:30", 11 * 3600000 + 30 * 60000},
		{"10:00:00-02", 8 * 3600000}, {"25:00:00", 25 * 3600000},
		{"0:0:0.1", 100}, {"0:0:0.x9", 90}
	};
	const char *bad_times[] = {"", "a", "10:", "10:x", "1.5", ":10", "10:00:00-", "99999999999"};
	struct
	{
		const char *type;
		const char *text;
		int64_t		micros;
		int			nanos;
	}			ts[] = {
		{"TIMESTAMP(6)", "2021-06-01", INT64_C(1622505600000000), 0},
		{"TIMESTAMP(6)", "2021-6-1 7:05:09", INT64_C(1622505600000000) + INT64_C(25509000000), 0},
		{"TIMESTAMP(9)", "2021-06-01 00:00:00.123456789", INT64_C(1622505600123456), 789},
		{"TIMESTAMP(6)", "2021-06-01 00:00:00.123456789", INT64_C(1622505600123456), 0},
		{"TIMESTAMP(3)", "2021-06-01 00:00:00.1239", INT64_C(1622505600123000), 0},
		{"TIMESTAMP(0)", "2021-06-01 00:00:00.9", INT64_C(1622505600000000), 0},
		/* SMART resolution: the last day of February */
		{"TIMESTAMP(3)", "2021-02-30", INT64_C(1614470400000000), 0},
		{"TIMESTAMP(3)", "2020-02-31 01:00:00", INT64_C(1582938000000000), 0},
		/* an epoch in the precision's unit */
		{"TIMESTAMP(3)", "1622505600123", INT64_C(1622505600123000), 0},
		{"TIMESTAMP(0)", "1622505600", INT64_C(1622505600000000), 0},
		{"TIMESTAMP(9)", "-1", -1, 999},
		{"TIMESTAMP(6)", "0001-01-01", INT64_C(-62135596800000000), 0},
	};
	const char *bad_ts[] = {"2021x", "2021-06", "21-06-01", "2021-13-01", "2021-06-00", "2021-06-32",
		"2021-006-01", "2021-06-01 24:00:00", "2021-06-01 10:00", "2021-06-01T10:00:00",
	"2021-06-01 10:00:00.", "2021-06-01 10:00:00.1234567890", "0000-01-01", "2021-06-01 "};

	(void) state;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
	{
		if (parse_one(a, "ROW<x TIME(3)>", times[i].text, &v, &err) != PM_OK)
			fail_msg("TIME \"%s\": %s", times[i].text, err.message);
		assert_int_equal(PM_VEC_VALUES(v, int32_t)[0], times[i].millis);
	}
	for (size_t i = 0; i < sizeof(bad_times) / sizeof(bad_times[0]); i++)
		if (parse_one(a, "ROW<x TIME(3)>", bad_times[i], &v, &err) != PM_ERR_INVALID)
			fail_msg("TIME \"%s\" accepted", bad_times[i]);
	for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
	{
		char		type[64];

		snprintf(type, sizeof(type), "ROW<x %s>", ts[i].type);
		if (parse_one(a, type, ts[i].text, &v, &err) != PM_OK)
			fail_msg("%s \"%s\": %s", ts[i].type, ts[i].text, err.message);
		assert_int_equal(PM_VEC_VALUES(v, int64_t)[0], ts[i].micros);
		assert_int_equal(v->nanos != NULL ? v->nanos[0] : 0, ts[i].nanos);
	}
	for (size_t i = 0; i < sizeof(bad_ts) / sizeof(bad_ts[0]); i++)
		if (parse_one(a, "ROW<x TIMESTAMP(6)>", bad_ts[i], &v, &err) != PM_ERR_INVALID)
			fail_msg("TIMESTAMP \"%s\" accepted", bad_ts[i]);
	pm_arena_destroy(a);
}

/* Double.parseDouble / Float.parseFloat; new BigDecimal + Decimal.fromBigDecimal */
static void
test_numeric_casts(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_vector  *v;
	pm_error	err;
	static const struct
	{
		const char *text;
		double		want;
	}			dbl[] = {
		{"1.5", 1.5}, {" -2.25\t", -2.25}, {"'1e3'", 1000}, {".5", 0.5}, {"5.", 5},
		{"+7d", 7}, {"3F", 3}, {"0x1.8p1", 3}, {"-Infinity", -INFINITY}, {"1e400", INFINITY},
		{"1E-400", 0},
	};
	static const char *const bad_dbl[] = {"", "inf", "nan", "1e", "0x1.8", "1.5x", "--1", "e5", "1 5"};
	static const struct
	{
		const char *type;
		const char *text;
		int64_t		unscaled;
	}			dec[] = {
		{"ROW<x DECIMAL(10, 2)>", "3.14159", 314}, {"ROW<x DECIMAL(10, 2)>", "-2.005", -201},
		{"ROW<x DECIMAL(10, 2)>", "2.004", 200}, {"ROW<x DECIMAL(10, 2)>", "1.5E2", 15000},
		{"ROW<x DECIMAL(10, 2)>", "0.005", 1}, {"ROW<x DECIMAL(10, 2)>", "0.0049", 0},
		{"ROW<x DECIMAL(10, 2)>", "12e-1", 120}, {"ROW<x DECIMAL(5, 0)>", "99999.4", 99999},
		{"ROW<x DECIMAL(10, 2)>", "00012.30", 1230}, {"ROW<x DECIMAL(3, 3)>", ".9994", 999},
		{"ROW<x DECIMAL(10, 2)>", "1.2345678901234567890123456789012345678901234567890", 123},
	};
	static const char *const null_dec[][2] = {
		{"ROW<x DECIMAL(5, 0)>", "99999.5"}, {"ROW<x DECIMAL(5, 2)>", "1000"},
		{"ROW<x DECIMAL(38, 0)>", "1e38"}, {"ROW<x DECIMAL(4, 2)>", "1e999999"},
	};
	static const char *const bad_dec[] = {"", " 1", "1.2.3", "1e", "+", ".", "1e99999999999", "1,5"};

	(void) state;
	for (size_t i = 0; i < sizeof(dbl) / sizeof(dbl[0]); i++)
	{
		if (parse_one(a, "ROW<x DOUBLE>", dbl[i].text, &v, &err) != PM_OK)
			fail_msg("DOUBLE %s: %s", dbl[i].text, err.message);
		if (PM_VEC_VALUES(v, double)[0] != dbl[i].want)
			fail_msg("DOUBLE %s: %g", dbl[i].text, PM_VEC_VALUES(v, double)[0]);
	}
	assert_int_equal(parse_one(a, "ROW<x DOUBLE>", "NaN", &v, &err), PM_OK);
	assert_true(isnan(PM_VEC_VALUES(v, double)[0]));
	/* parseFloat rounds the text to float once */
	assert_int_equal(parse_one(a, "ROW<x FLOAT>", "0.1", &v, &err), PM_OK);
	assert_true(PM_VEC_VALUES(v, float)[0] == 0.1f);
	for (size_t i = 0; i < sizeof(bad_dbl) / sizeof(bad_dbl[0]); i++)
		if (parse_one(a, "ROW<x DOUBLE>", bad_dbl[i], &v, &err) != PM_ERR_INVALID)
			fail_msg("DOUBLE \"%s\" accepted", bad_dbl[i]);
	for (size_t i = 0; i < sizeof(dec) / sizeof(dec[0]); i++)
	{
		if (parse_one(a, dec[i].type, dec[i].text, &v, &err) != PM_OK)
			fail_msg("%s %s: %s", dec[i].type, dec[i].text, err.message);
		if (PM_VEC_VALUES(v, pm_int128)[0] != dec[i].unscaled)
			fail_msg("%s %s: %lld", dec[i].type, dec[i].text, (long long) PM_VEC_VALUES(v, pm_int128)[0]);
	}
	/* 38 nines fit DECIMAL(38, 0) */
	assert_int_equal(parse_one(a, "ROW<x DECIMAL(38, 0)>", "99999999999999999999999999999999999999",
							   &v, &err), PM_OK);
	assert_true(PM_VEC_VALUES(v, pm_int128)[0] > (pm_int128) INT64_MAX * INT64_MAX);
	/* past the precision: fromBigDecimal gives null, so the default is NULL */
	for (size_t i = 0; i < sizeof(null_dec) / sizeof(null_dec[0]); i++)
	{
		const char **d = pm_arena_zalloc(a, sizeof(char *) * 2);
		pm_vector **out;

		d[0] = null_dec[i][1];
		if (pm_default_values_parse(schema_of(a, null_dec[i][0], d), a, &out, &err) != PM_OK)
			fail_msg("%s %s: %s", null_dec[i][0], null_dec[i][1], err.message);
		assert_true(pm_vector_is_null(out[0], 0));
	}
	for (size_t i = 0; i < sizeof(bad_dec) / sizeof(bad_dec[0]); i++)
		if (parse_one(a, "ROW<x DECIMAL(10, 2)>", bad_dec[i], &v, &err) != PM_ERR_INVALID)
			fail_msg("DECIMAL \"%s\" accepted", bad_dec[i]);
	/* BinaryStringUtils.toDate: days, or DateTimeUtils.parseDate */
	{
		static const struct
		{
			const char *text;
			int32_t		days;
		}			dates[] = {
			{"2026-01-01", 20454}, {"'2024-02-29'", 19782}, {"2017-12-12 09:30:00.0", 17512},
			{"2026", 2026}, {"2026-3", 20513}, {" 2026 - 03 - 01 ", 20513}, {"0-1-1", -719528},
			{"9999-12-31", 2932896}, {" 2026-01-01", 20454}, {"-1", -1}, {"20454", 20454}, {"1969-12-31", -1},
		};
		static const char *const bad_dates[] = {"", "-", "2026-02-29", "2026-04-31", "10000-01-01",
			"2026-13-01", "2026-00-10", "2026-01-00", "-2026-01-01", " 2026-01-01 10:00", "2026/01/01", "2026-01-01-01",
		"x", "99999999999-01-01", "2026-1.5"};

		for (size_t i = 0; i < sizeof(dates) / sizeof(dates[0]); i++)
		{
			if (parse_one(a, "ROW<x DATE>", dates[i].text, &v, &err) != PM_OK)
				fail_msg("DATE %s: %s", dates[i].text, err.message);
			if (PM_VEC_VALUES(v, int32_t)[0] != dates[i].days)
				fail_msg("DATE %s: %d", dates[i].text, PM_VEC_VALUES(v, int32_t)[0]);
		}
		for (size_t i = 0; i < sizeof(bad_dates) / sizeof(bad_dates[0]); i++)
			if (parse_one(a, "ROW<x DATE>", bad_dates[i], &v, &err) != PM_ERR_INVALID)
				fail_msg("DATE \"%s\" accepted", bad_dates[i]);
	}
	pm_arena_destroy(a);
}

static void
test_apply(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	static const char *d[] = {NULL, "7", "'x'", NULL};
	pm_schema  *s = schema_of(a, "ROW<id INT NOT NULL, n INT, s STRING, p STRING>", d);
	pm_vector **dv;
	pm_batch	b,
				out;
	pm_error	err;
	int64_t		cap[4] = {0};

	(void) state;
	assert_int_equal(pm_default_values_parse(s, a, &dv, &err), PM_OK);
	assert_null(dv[0]);
	assert_null(dv[3]);
	memset(&b, 0, sizeof(b));
	b.nrows = 3;
	b.ncols = 4;
	b.cols = pm_arena_zalloc(a, sizeof(pm_vector) * 4);
	for (int c = 0; c < 4; c++)
	{
		assert_true(pm_vector_init(&b.cols[c], s->row_type->fields[c].type, 3, true, a));
		b.cols[c].length = 3;
	}
	for (int64_t i = 0; i < 3; i++)
	{
		PM_VEC_VALUES(&b.cols[0], int32_t)[i] = (int32_t) i;
		PM_VEC_VALUES(&b.cols[1], int32_t)[i] = (int32_t) (i * 100);
		b.cols[1].nulls[i] = i == 1;
		for (int c = 2; c < 4; c++)
		{
			b.cols[c].nulls[i] = i != 2;
			if (i == 2)
				assert_true(pm_vector_append_data(&b.cols[c], &cap[c], "zz", 2, a));
			b.cols[c].offsets[i + 1] = (int32_t) b.cols[c].data_size;
		}
	}
	assert_int_equal(pm_default_values_apply(s->row_type, dv, &b, a, &out, &err), PM_OK);
	assert_int_equal(out.nrows, 3);
	/* n: 0, 7 (default), 200 */
	assert_int_equal(pm_vector_int64_at(&out.cols[1], 0), 0);
	assert_int_equal(pm_vector_int64_at(&out.cols[1], 1), 7);
	assert_int_equal(pm_vector_int64_at(&out.cols[1], 2), 200);
	for (int64_t i = 0; i < 3; i++)
	{
		assert_false(pm_vector_is_null(&out.cols[1], i));
		assert_false(pm_vector_is_null(&out.cols[2], i));
		/* p has no default: its NULLs stay */
		assert_int_equal(pm_vector_is_null(&out.cols[3], i), i != 2);
	}
	assert_int_equal(out.cols[2].offsets[1] - out.cols[2].offsets[0], 1);
	assert_memory_equal(out.cols[2].data + out.cols[2].offsets[1], "x", 1);
	assert_memory_equal(out.cols[2].data + out.cols[2].offsets[2], "zz", 2);
	/* the input batch is untouched */
	assert_true(pm_vector_is_null(&b.cols[1], 1));
	/* checkNullability first, Java's message */
	b.cols[0].nulls[2] = 1;
	assert_int_equal(pm_default_values_apply(s->row_type, dv, &b, a, &out, &err), PM_ERR_INVALID);
	assert_string_equal(err.message, "Cannot write null to non-null column(id)");
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_casts),
		cmocka_unit_test(test_numeric_casts),
		cmocka_unit_test(test_time_casts),
		cmocka_unit_test(test_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
