/*-------------------------------------------------------------------------
 * test_binary_row.c
 *	  Unit tests of src/row/binary_row.c, value.c and bucket.c: the worked
 *	  examples of paimon-format-metadata.md §8.4 and §10.4 (bytes taken from
 *	  real manifests), and Java's bucket ids for the 3 x 5000 rows of the
 *	  corpus vectors (vectors/README.md).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "row/binary_row.h"
#include "row/bucket.h"
#include "row/value.h"

static pm_arena *arena;

static int
setup(void **state)
{
	arena = pm_arena_create(pm_env_default());
	return arena ? 0 : -1;
}

static int
teardown(void **state)
{
	pm_arena_destroy(arena);
	return 0;
}

/* hex with spaces and '|' ignored -> bytes in arena */
static uint8_t *
unhex(const char *s, size_t *len)
{
	uint8_t    *out = pm_arena_alloc(arena, strlen(s) / 2 + 1);
	size_t		n = 0;
	int			hi = -1;

	for (; *s; s++)
	{
		int			v;

		if (!isxdigit((unsigned char) *s))
			continue;
		v = isdigit((unsigned char) *s) ? *s - '0' : (tolower((unsigned char) *s) - 'a' + 10);
		if (hi < 0)
			hi = v;
		else
		{
			out[n++] = (uint8_t) (hi * 16 + v);
			hi = -1;
		}
	}
	*len = n;
	return out;
}

static const pm_type *
simple(pm_type_id id)
{
	return pm_type_new(arena, id, true);
}

static const pm_type *
with_precision(pm_type_id id, int p)
{
	pm_type    *t = pm_type_new(arena, id, true);

	t->precision = p;
	return t;
}

static const pm_type *
row_of(const pm_type **types, int n)
{
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * (size_t) (n > 0 ? n : 1));

	for (int i = 0; i < n; i++)
	{
		f[i].id = i;
		f[i].name = pm_arena_sprintf(arena, "f%d", i);
		f[i].type = types[i];
	}
	return pm_type_new_row(arena, f, n, false);
}

static void
assert_str(const pm_value *v, const char *s)
{
	assert_false(v->is_null);
	assert_int_equal(v->u.bytes.len, strlen(s));
	assert_memory_equal(v->u.bytes.ptr, s, strlen(s));
}

/* re-encoding a decoded serialized row gives the same bytes */
static void
assert_reencodes(const pm_type *rt, const pm_value *vals, const uint8_t *bytes, size_t len)
{
	uint8_t    *out;
	size_t		olen;
	pm_error	err;

	assert_int_equal(pm_binary_row_encode_serialized(arena, rt, vals, &out, &olen, &err), PM_OK);
	assert_int_equal(olen, len);
	assert_memory_equal(out, bytes, len);
}

static void
test_e1_e2_e3(void **state)
{
	pm_error	err;
	pm_value	v[4];
	size_t		len;
	const uint8_t *b;
	const pm_type *t1[] = {simple(PM_TYPE_INT)};
	const pm_type *t3[] = {simple(PM_TYPE_VARCHAR), simple(PM_TYPE_INT)};
	const pm_type *r1 = row_of(t1, 1);
	const pm_type *r0 = row_of(NULL, 0);
	const pm_type *r3 = row_of(t3, 2);

	b = unhex("00000001 | 00 00 00 00 00 00 00 00 | 0a 00 00 00 00 00 00 00", &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r1, v, &err), PM_OK);
	assert_false(v[0].is_null);
	assert_int_equal(v[0].u.i64, 10);
	assert_reencodes(r1, v, b, len);
	/* arity mismatch */
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r3, v, &err), PM_ERR_CORRUPT);

	b = unhex("00000000 | 00 00 00 00 00 00 00 00", &len);
	assert_int_equal(len, 12);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r0, v, &err), PM_OK);
	assert_reencodes(r0, v, b, len);

	b = unhex("00000002 | 0000000000000000 | 41 6c 69 63 65 00 00 85 | 01 00 00 00 00 00 00 00",
			  &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r3, v, &err), PM_OK);
	assert_str(&v[0], "Alice");
	assert_int_equal(v[1].u.i64, 1);
	assert_reencodes(r3, v, b, len);
}

static void
test_e4_e5_e6(void **state)
{
	pm_error	err;
	pm_value	v[4];
	size_t		len;
	const uint8_t *b;
	const char *poem = "Two roads diverged in a wood, and I took the one less traveled by, "
		"And that has made all the difference.";
	const char *hero = "Whether I shall turn out to be the hero of my own life.";
	const pm_type *t4[] = {simple(PM_TYPE_VARCHAR), simple(PM_TYPE_INT)};
	const pm_type *r4 = row_of(t4, 2);
	const pm_type *t5[] = {simple(PM_TYPE_VARCHAR)};
	const pm_type *r5 = row_of(t5, 1);
	const pm_type *t6[] = {simple(PM_TYPE_VARCHAR), simple(PM_TYPE_INT), simple(PM_TYPE_INT),
	simple(PM_TYPE_DOUBLE)};
	const pm_type *r6 = row_of(t6, 4);
	char		hex[1024];
	int			o;

	assert_int_equal(strlen(poem), 104);
	o = snprintf(hex, sizeof(hex),
				 "00000002 0000000000000000 6800000018000000 0100000000000000");
	for (size_t i = 0; i < 104; i++)
		o += snprintf(hex + o, sizeof(hex) - (size_t) o, "%02x", (unsigned char) poem[i]);
	b = unhex(hex, &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r4, v, &err), PM_OK);
	assert_str(&v[0], poem);
	assert_int_equal(v[1].u.i64, 1);
	assert_reencodes(r4, v, b, len);

	/* E5: 55 bytes padded to 56 */
	assert_int_equal(strlen(hero), 55);
	o = snprintf(hex, sizeof(hex), "00000001 0000000000000000 3700000010000000");
	for (size_t i = 0; i < 55; i++)
		o += snprintf(hex + o, sizeof(hex) - (size_t) o, "%02x", (unsigned char) hero[i]);
	snprintf(hex + o, sizeof(hex) - (size_t) o, "00");
	b = unhex(hex, &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r5, v, &err), PM_OK);
	assert_str(&v[0], hero);
	assert_reencodes(r5, v, b, len);

	b = unhex("00000004 | 0000000000000000 | 416c696365000085 | 0a00000000000000 | "
			  "0100000000000000 | 0000000000002640", &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r6, v, &err), PM_OK);
	assert_str(&v[0], "Alice");
	assert_int_equal(v[1].u.i64, 10);
	assert_int_equal(v[2].u.i64, 1);
	assert_true(v[3].u.f64 == 11.0);
	assert_reencodes(r6, v, b, len);
}

static void
test_e7_decimal_timestamp(void **state)
{
	pm_error	err;
	pm_value	v[6];
	size_t		len;
	const uint8_t *b;
	pm_type    *dec = pm_type_new_decimal(arena, 23, 5, true);
	const pm_type *t[] = {simple(PM_TYPE_INT), simple(PM_TYPE_INT), simple(PM_TYPE_DATE),
	with_precision(PM_TYPE_TIMESTAMP, 9), dec, simple(PM_TYPE_VARBINARY)};
	const pm_type *r = row_of(t, 6);
	pm_int128	big;

	b = unhex("00000006 0028000000000000 0a00000000000000 0100000000000000 d204000000000000 "
			  "0000000038000000 0300000040000000 0000000000000000 0000000000000000 "
			  "12c4b000000000000000000000000000", &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r, v, &err), PM_OK);
	assert_int_equal(v[0].u.i64, 10);
	assert_int_equal(v[1].u.i64, 1);
	assert_int_equal(v[2].u.i64, 1234);
	assert_true(v[3].is_null);
	assert_false(v[4].is_null);
	assert_true(v[4].u.i128 == 1230000);
	assert_true(v[5].is_null);
	assert_string_equal(pm_value_format(arena, dec, &v[4]), "12.30000");
	assert_string_equal(pm_value_format(arena, t[2], &v[2]), "1973-05-19");
	assert_reencodes(r, v, b, len);

	/* _MAX_VALUES: f3 = 19909, f5 = 123456789987654321.45678 (10 bytes) */
	b = unhex("00000006 0028000000000000 0a00000000000000 0100000000000000 c54d000000000000 "
			  "0000000038000000 0a00000040000000 0000000000000000 0000000000000000 "
			  "029d42b6a72a9dc7070e000000000000", &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r, v, &err), PM_OK);
	assert_int_equal(v[2].u.i64, 19909);
	big = (pm_int128) 1234567899876543214LL * 10000 + 5678;
	assert_true(v[4].u.i128 == big);
	assert_string_equal(pm_value_format(arena, dec, &v[4]), "123456789987654321.45678");
	assert_reencodes(r, v, b, len);

	/* negative non-compact decimal round trip */
	v[4].u.i128 = -big;
	{
		uint8_t    *out;
		size_t		olen;
		pm_value	w[6];

		assert_int_equal(pm_binary_row_encode(arena, r, v, &out, &olen, &err), PM_OK);
		assert_int_equal(pm_binary_row_decode(out, olen, r, w, &err), PM_OK);
		assert_true(w[4].u.i128 == -big);
		assert_string_equal(pm_value_format(arena, dec, &w[4]), "-123456789987654321.45678");
	}
}

static void
test_e8_timestamps(void **state)
{
	pm_error	err;
	pm_value	v[10];
	size_t		len;
	const uint8_t *b;
	const pm_type *t[10];
	const pm_type *r;
	int			prec[] = {0, 3, 6, 9};

	for (int i = 0; i < 4; i++)
	{
		t[i] = with_precision(PM_TYPE_TIMESTAMP, prec[i]);
		t[4 + i] = with_precision(PM_TYPE_TIMESTAMP_LTZ, prec[i]);
	}
	t[8] = simple(PM_TYPE_INT);
	t[9] = simple(PM_TYPE_INT);
	r = row_of(t, 10);
	b = unhex("0000000a 0088000000000000 "
			  "e803000000000000 0100000000000000 e803000058000000 0000000060000000 "
			  "d007000000000000 0200000000000000 d007000068000000 0000000070000000 "
			  "ffffffff00000000 ffffffff00000000 "
			  "0000000000000000 0000000000000000 0000000000000000 0000000000000000", &len);
	assert_int_equal(pm_binary_row_decode_serialized(b, len, r, v, &err), PM_OK);
	assert_int_equal(v[0].u.i64, 1000000);	/* 1000 ms */
	assert_int_equal(v[1].u.i64, 1000);
	assert_int_equal(v[2].u.i64, 1);	/* 0 ms + 1000 ns */
	assert_int_equal(v[2].nanos, 0);
	assert_true(v[3].is_null);
	assert_int_equal(v[4].u.i64, 2000000);
	assert_int_equal(v[5].u.i64, 2000);
	assert_int_equal(v[6].u.i64, 2);
	assert_true(v[7].is_null);
	assert_int_equal(v[8].u.i64, -1);
	assert_int_equal(v[9].u.i64, -1);
	assert_string_equal(pm_value_format(arena, t[2], &v[2]), "1970-01-01 00:00:00.000001");
	assert_reencodes(r, v, b, len);
}

static void
test_e9_and_hashes(void **state)
{
	pm_error	err;
	pm_value	v[13];
	size_t		len;
	const uint8_t *b;
	const pm_type *t[] = {simple(PM_TYPE_BOOLEAN), simple(PM_TYPE_TINYINT),
		simple(PM_TYPE_SMALLINT), simple(PM_TYPE_INT), simple(PM_TYPE_BIGINT),
		simple(PM_TYPE_FLOAT), simple(PM_TYPE_DOUBLE), simple(PM_TYPE_DATE),
		with_precision(PM_TYPE_TIMESTAMP, 9), pm_type_new_decimal(arena, 5, 2, true),
	pm_type_new_decimal(arena, 30, 2, true), simple(PM_TYPE_VARCHAR), simple(PM_TYPE_VARBINARY)};
	const pm_type *r = row_of(t, 13);
	uint8_t    *out;
	size_t		olen;
	int32_t		h,
				bucket;

	memset(v, 0, sizeof(v));
	for (int i = 0; i < 13; i++)
		v[i].is_null = true;
	assert_int_equal(pm_binary_row_encode(arena, r, v, &out, &olen, &err), PM_OK);
	assert_int_equal(olen, 136);
	b = unhex("00ff1f0000000000 0000000000000000 0000000000000000 0000000000000000 "
			  "0000000000000000 0000000000000000 0000000000000000 0000000000000000 "
			  "0000000000000000 0000000070000000 0000000000000000 0000000078000000 "
			  "0000000000000000 0000000000000000 0000000000000000 0000000000000000 "
			  "0000000000000000", &len);
	assert_int_equal(len, 136);
	assert_memory_equal(out, b, 136);
	assert_int_equal(pm_bucket_hash(r, v, &h, &err), PM_OK);
	assert_int_equal(h, 318091933);
	assert_int_equal(pm_murmur_hash_words(out, olen), 318091933);
	assert_int_equal(pm_bucket_of(r, v, 12345, &bucket, &err), PM_OK);
	assert_int_equal(bucket, 10663);
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_OK);
	for (int i = 0; i < 13; i++)
		assert_true(v[i].is_null);
}

static void
test_bucket_examples(void **state)
{
	pm_error	err;
	pm_value	v[3];
	int32_t		h,
				bucket;
	const pm_type *ti[] = {simple(PM_TYPE_INT)};
	const pm_type *ts[] = {simple(PM_TYPE_VARCHAR)};
	const pm_type *t5[] = {simple(PM_TYPE_INT), simple(PM_TYPE_VARCHAR), simple(PM_TYPE_BIGINT)};
	const pm_type *ri = row_of(ti, 1);
	const pm_type *rs = row_of(ts, 1);
	const pm_type *r5 = row_of(t5, 3);
	uint8_t    *out;
	size_t		olen;
	size_t		len;
	const uint8_t *b;

	memset(v, 0, sizeof(v));
	v[0].u.i64 = 1;
	assert_int_equal(pm_bucket_hash(ri, v, &h, &err), PM_OK);
	assert_int_equal(h, 1465514398);
	assert_int_equal(pm_bucket_of(ri, v, 2, &bucket, &err), PM_OK);
	assert_int_equal(bucket, 0);
	v[0].u.i64 = 0;
	assert_int_equal(pm_bucket_hash(ri, v, &h, &err), PM_OK);
	assert_int_equal(h, -300363099);
	assert_int_equal(pm_bucket_of(ri, v, 2, &bucket, &err), PM_OK);
	assert_int_equal(bucket, 1);

	v[0].u.bytes.ptr = (const uint8_t *) "Alice";
	v[0].u.bytes.len = 5;
	assert_int_equal(pm_bucket_hash(rs, v, &h, &err), PM_OK);
	assert_int_equal(h, 1285337400);
	assert_int_equal(pm_bucket_of(rs, v, 10, &bucket, &err), PM_OK);
	assert_int_equal(bucket, 0);

	v[0].u.bytes.ptr = (const uint8_t *) "hello world";
	v[0].u.bytes.len = 11;
	assert_int_equal(pm_binary_row_encode(arena, rs, v, &out, &olen, &err), PM_OK);
	b = unhex("0000000000000000 0b00000010000000 68656c6c6f20776f 726c640000000000", &len);
	assert_int_equal(olen, len);
	assert_memory_equal(out, b, len);
	assert_int_equal(pm_bucket_hash(rs, v, &h, &err), PM_OK);
	assert_int_equal(h, 161593394);
	assert_int_equal(pm_bucket_of(rs, v, 10, &bucket, &err), PM_OK);
	assert_int_equal(bucket, 4);

	memset(v, 0, sizeof(v));
	v[0].u.i64 = 7;
	v[1].is_null = true;
	v[2].u.i64 = 123456789012LL;
	assert_int_equal(pm_bucket_hash(r5, v, &h, &err), PM_OK);
	assert_int_equal(h, 1892041693);
	assert_int_equal(pm_bucket_of(r5, v, 16, &bucket, &err), PM_OK);
	assert_int_equal(bucket, 13);
	assert_int_equal(pm_bucket_of(r5, v, 0, &bucket, &err), PM_ERR_INVALID);
}

/*
 * Keys of INT, DATE, TIME and BIGINT fields are hashed from their values
 * (bucket.c): the same hash as Murmur3 over the encoded row, for NULLs,
 * negative and extreme values, 1 to 57 fields (57: null bits in a second
 * header word, the general path).
 */
static void
test_bucket_fixed_ints(void **state)
{
	pm_error	err;
	pm_value	v[57];
	const pm_type *t[57];
	const pm_type *kinds[] = {simple(PM_TYPE_INT), simple(PM_TYPE_BIGINT),
	simple(PM_TYPE_DATE), simple(PM_TYPE_TIME)};
	const int64_t samples[] = {0, 1, -1, 42, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN,
	123456789012LL, -98765};
	const int	arities[] = {1, 2, 3, 7, 56, 57};
	uint64_t	seed = 12345;
	int			checked = 0;

	for (size_t a = 0; a < sizeof(arities) / sizeof(arities[0]); a++)
		for (int trial = 0; trial < 200; trial++)
		{
			int			n = arities[a];
			const pm_type *r;
			uint8_t    *out;
			size_t		olen;
			int32_t		h;

			for (int i = 0; i < n; i++)
			{
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				t[i] = kinds[(seed >> 33) % 4];
				v[i].is_null = (seed >> 40) % 5 == 0;
				v[i].u.i64 = samples[(seed >> 45) % 10];
				if (t[i]->id != PM_TYPE_BIGINT)
					v[i].u.i64 = (int32_t) v[i].u.i64;
			}
			r = row_of(t, n);
			assert_int_equal(pm_binary_row_encode(arena, r, v, &out, &olen, &err), PM_OK);
			assert_int_equal(pm_bucket_hash(r, v, &h, &err), PM_OK);
			assert_int_equal(h, pm_murmur_hash_words(out, olen));
			checked++;
		}
	assert_int_equal(checked, 1200);
	/* a known one: INT 1 (test_bucket_examples) */
	{
		int32_t		h;

		t[0] = simple(PM_TYPE_INT);
		v[0].is_null = false;
		v[0].u.i64 = 1;
		assert_int_equal(pm_bucket_hash(row_of(t, 1), v, &h, &err), PM_OK);
		assert_int_equal(h, 1465514398);
	}
}

/* ------------------------------------------------ Java bucket vectors */

static pm_int128
parse_decimal(const char *s, int scale)
{
	bool		neg = false;
	pm_int128	v = 0;
	int			frac = -1;

	if (*s == '-')
	{
		neg = true;
		s++;
	}
	for (; *s; s++)
	{
		if (*s == '.')
		{
			frac = 0;
			continue;
		}
		v = v * 10 + (*s - '0');
		if (frac >= 0)
			frac++;
	}
	if (frac < 0)
		frac = 0;
	for (; frac < scale; frac++)
		v *= 10;
	return neg ? -v : v;
}

/* "1842-04-18T18:36:11.481263403" -> micros + nanos */
static void
parse_iso(const char *s, pm_value *v)
{
	long long	y;
	int			mo,
				d,
				h,
				mi,
				se;
	int			n = 0;
	int64_t		ns = 0;
	int			digits = 0;

	/* LocalDateTime.toString omits zero seconds: "1812-09-26T13:12" */
	if (sscanf(s, "%lld-%d-%dT%d:%d:%d%n", &y, &mo, &d, &h, &mi, &se, &n) < 6)
	{
		se = 0;
		assert_int_equal(sscanf(s, "%lld-%d-%dT%d:%d%n", &y, &mo, &d, &h, &mi, &n), 5);
	}
	s += n;
	if (*s == '.')
	{
		for (s++; isdigit((unsigned char) *s); s++, digits++)
			ns = ns * 10 + (*s - '0');
		for (; digits < 9; digits++)
			ns *= 10;
	}
	v->u.i64 = (pm_days_from_date(y, mo, d) * 86400 + h * 3600 + mi * 60 + se) * 1000000 +
		ns / 1000;
	v->nanos = (uint16_t) (ns % 1000);
}

static void
floor_div(int64_t a, int64_t b, int64_t *q, int64_t *r)
{
	*q = a / b;
	*r = a % b;
	if (*r < 0)
	{
		*r += b;
		*q -= 1;
	}
}

static int
check_vectors(const char *file, const pm_type *rt)
{
	const char *path = unit_corpus_path(file);
	FILE	   *f = fopen(path, "rb");
	long		size;
	char	   *text;
	json_t	   *root;
	json_error_t jerr;
	pm_value   *v;
	int			rows = 0;
	pm_arena   *scratch = pm_arena_create(pm_env_default());

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = malloc((size_t) size + 2);
	assert_int_equal(fread(text + 1, 1, (size_t) size, f), size);
	fclose(f);
	/* "[...],\n[...],\n" -> "[[...],\n[...]]" */
	text[0] = '[';
	assert_true(size > 2 && text[size - 1 + 1] == '\n' && text[size - 2 + 1] == ',');
	text[size - 1] = ']';
	root = json_loadb(text, (size_t) size, 0, &jerr);
	if (root == NULL)
		fail_msg("%s: %s line %d", file, jerr.text, jerr.line);
	v = calloc((size_t) rt->nfields, sizeof(pm_value));
	for (size_t r = 0; r < json_array_size(root); r++)
	{
		json_t	   *row = json_array_get(root, r);
		pm_error	err;
		int32_t		bucket;
		int64_t		expect;

		assert_int_equal(json_array_size(row), (size_t) rt->nfields + 1);
		for (int i = 0; i < rt->nfields; i++)
		{
			json_t	   *j = json_array_get(row, (size_t) i);
			const pm_type *t = rt->fields[i].type;

			memset(&v[i], 0, sizeof(v[i]));
			if (json_is_null(j))
			{
				v[i].is_null = true;
				continue;
			}
			switch (t->id)
			{
				case PM_TYPE_BOOLEAN:
					v[i].u.i64 = json_is_true(j);
					break;
				case PM_TYPE_FLOAT:
				case PM_TYPE_DOUBLE:
					v[i].u.f64 = json_number_value(j);
					break;
				case PM_TYPE_DECIMAL:
					v[i].u.i128 = parse_decimal(json_string_value(j), t->scale);
					break;
				case PM_TYPE_VARCHAR:
				case PM_TYPE_VARBINARY:
					v[i].u.bytes.ptr = (const uint8_t *) json_string_value(j);
					v[i].u.bytes.len = (int32_t) json_string_length(j);
					break;
				case PM_TYPE_TIMESTAMP:
				case PM_TYPE_TIMESTAMP_LTZ:
					if (json_is_string(j))
						parse_iso(json_string_value(j), &v[i]);
					else
					{
						int64_t		us,
									ns;

						floor_div(json_integer_value(j), 1000, &us, &ns);
						v[i].u.i64 = us;
						v[i].nanos = (uint16_t) ns;
					}
					break;
				default:
					v[i].u.i64 = json_integer_value(j);
					break;
			}
		}
		expect = json_integer_value(json_array_get(row, (size_t) rt->nfields));
		assert_int_equal(pm_bucket_of(rt, v, 12345, &bucket, &err), PM_OK);
		if (bucket != expect)
			fail_msg("%s row %zu: bucket %d, Java %lld", file, r, bucket, (long long) expect);

		/* and the encoded row decodes back to the same values */
		{
			uint8_t    *out;
			size_t		olen;
			pm_value   *w = calloc((size_t) rt->nfields, sizeof(pm_value));

			assert_int_equal(pm_binary_row_encode(scratch, rt, v, &out, &olen, &err), PM_OK);
			assert_int_equal(pm_binary_row_decode(out, olen, rt, w, &err), PM_OK);
			for (int i = 0; i < rt->nfields; i++)
			{
				assert_int_equal(w[i].is_null, v[i].is_null);
				if (!v[i].is_null)
					assert_int_equal(pm_value_compare(rt->fields[i].type, &v[i], &w[i]), 0);
			}
			free(w);
		}
		rows++;
		pm_arena_reset(scratch);
	}
	pm_arena_destroy(scratch);
	free(v);
	json_decref(root);
	free(text);
	return rows;
}

static void
test_java_vectors(void **state)
{
	const pm_type *t1[12];
	const pm_type *t2[13];
	const pm_type *t3[8];
	const pm_type *r1,
			   *r2,
			   *r3;
	pm_type_id	base[] = {PM_TYPE_BOOLEAN, PM_TYPE_TINYINT, PM_TYPE_SMALLINT, PM_TYPE_INT,
	PM_TYPE_BIGINT, PM_TYPE_FLOAT, PM_TYPE_DOUBLE, PM_TYPE_DATE};
	int			prec[] = {0, 3, 6, 9};

	unit_require_corpus();
	for (int i = 0; i < 8; i++)
		t1[i] = t2[i] = simple(base[i]);
	t1[8] = t2[8] = with_precision(PM_TYPE_TIMESTAMP, 9);
	t1[9] = pm_type_new_decimal(arena, 30, 20, true);
	t1[10] = simple(PM_TYPE_VARCHAR);
	t1[11] = simple(PM_TYPE_VARBINARY);
	t2[9] = pm_type_new_decimal(arena, 5, 2, true);
	t2[10] = pm_type_new_decimal(arena, 30, 2, true);
	t2[11] = simple(PM_TYPE_VARCHAR);
	t2[12] = simple(PM_TYPE_VARBINARY);
	for (int i = 0; i < 4; i++)
	{
		t3[i] = with_precision(PM_TYPE_TIMESTAMP, prec[i]);
		t3[4 + i] = with_precision(PM_TYPE_TIMESTAMP_LTZ, prec[i]);
	}
	r1 = row_of(t1, 12);
	r2 = row_of(t2, 13);
	r3 = row_of(t3, 8);
	assert_int_equal(check_vectors("vectors/record_for_bucket_id.data", r1), 5000);
	assert_int_equal(check_vectors("vectors/record_with_null_for_bucket_id.data", r2), 5000);
	assert_int_equal(check_vectors("vectors/record_with_timestamp_for_bucket_id.data", r3), 5000);
}

/* --------------------------------------------------------- corruption */

static void
test_corrupt(void **state)
{
	pm_error	err;
	pm_value	v[3];
	size_t		len;
	uint8_t    *b;
	const pm_type *t[] = {simple(PM_TYPE_VARCHAR), pm_type_new_decimal(arena, 30, 2, true),
	with_precision(PM_TYPE_TIMESTAMP, 6)};
	const pm_type *r = row_of(t, 3);

	/* well formed: "hello world", 1.00, ts */
	b = unhex("0000000000000000 0b00000020000000 0100000030000000 e803000040000000 "
			  "68656c6c6f20776f 726c640000000000 6400000000000000 0000000000000000 "
			  "0100000000000000", &len);
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_OK);
	assert_str(&v[0], "hello world");
	assert_true(v[1].u.i128 == 100);
	assert_int_equal(v[2].u.i64, 1001);
	assert_int_equal(v[2].nanos, 0);

	/* too short for the fixed part */
	assert_int_equal(pm_binary_row_decode(b, 31, r, v, &err), PM_ERR_CORRUPT);
	/* string past the end */
	assert_int_equal(pm_binary_row_decode(b, 40, r, v, &err), PM_ERR_CORRUPT);
	/* huge offset */
	b[12] = 0xff;
	b[15] = 0x7f;
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_ERR_CORRUPT);
	b[12] = 0x20;
	b[15] = 0;
	/* decimal of 17 bytes */
	b[16] = 17;
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_ERR_CORRUPT);
	b[16] = 0;
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_ERR_CORRUPT);
	b[16] = 1;
	/* nano of milli out of range */
	b[24] = 0x40;
	b[25] = 0x42;
	b[26] = 0x0f;
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_ERR_CORRUPT);
	b[24] = 0xe8;
	b[25] = 0x03;
	b[26] = 0;
	/* timestamp area past the end */
	b[28] = 0x48;
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_ERR_CORRUPT);
	b[28] = 0x40;
	assert_int_equal(pm_binary_row_decode(b, len, r, v, &err), PM_OK);
	/* serialized with no prefix / wrong arity */
	assert_int_equal(pm_binary_row_decode_serialized(b, 3, r, v, &err), PM_ERR_CORRUPT);
	/* not a row type */
	assert_int_equal(pm_binary_row_decode(b, len, t[0], v, &err), PM_ERR_INVALID);
}

static void
test_compare_format(void **state)
{
	pm_value	a,
				b;
	const pm_type *s = simple(PM_TYPE_VARCHAR);
	const pm_type *d = simple(PM_TYPE_DOUBLE);
	const pm_type *fl = simple(PM_TYPE_FLOAT);
	const pm_type *ts = with_precision(PM_TYPE_TIMESTAMP, 9);
	const pm_type *bin = simple(PM_TYPE_VARBINARY);

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.u.bytes.ptr = (const uint8_t *) "ab";
	a.u.bytes.len = 2;
	b.u.bytes.ptr = (const uint8_t *) "ab\xc3";
	b.u.bytes.len = 3;
	assert_true(pm_value_compare(s, &a, &b) < 0);
	a.u.bytes.ptr = (const uint8_t *) "\xc3";
	a.u.bytes.len = 1;
	assert_true(pm_value_compare(s, &a, &b) > 0);	/* unsigned bytes */
	assert_string_equal(pm_value_format(arena, bin, &a), "\\xc3");

	a.u.f64 = -0.0;
	b.u.f64 = 0.0;
	assert_true(pm_value_compare(d, &a, &b) < 0);
	a.u.f64 = NAN;
	b.u.f64 = INFINITY;
	assert_true(pm_value_compare(d, &a, &b) > 0);
	b.u.f64 = NAN;
	assert_int_equal(pm_value_compare(d, &a, &b), 0);
	a.u.f64 = 0.1;
	assert_string_equal(pm_value_format(arena, d, &a), "0.1");
	a.u.f64 = (float) 0.7815346;
	assert_string_equal(pm_value_format(arena, fl, &a), "0.7815346");

	a.u.i64 = -1;				/* 1969-12-31 23:59:59.999999 */
	a.nanos = 5;
	assert_string_equal(pm_value_format(arena, ts, &a), "1969-12-31 23:59:59.999999005");
	b.u.i64 = -1;
	b.nanos = 6;
	assert_true(pm_value_compare(ts, &a, &b) < 0);
	a.u.i64 = 0;
	a.nanos = 0;
	assert_string_equal(pm_value_format(arena, ts, &a), "1970-01-01 00:00:00");

	a.is_null = true;
	assert_string_equal(pm_value_format(arena, ts, &a), "NULL");
	{
		int64_t		y;
		int			m,
					dd;

		pm_date_from_days(-719162, &y, &m, &dd);	/* 0001-01-01 */
		assert_int_equal(y, 1);
		assert_int_equal(m, 1);
		assert_int_equal(dd, 1);
		assert_int_equal(pm_days_from_date(2024, 2, 29), 19782);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_e1_e2_e3),
		cmocka_unit_test(test_e4_e5_e6),
		cmocka_unit_test(test_e7_decimal_timestamp),
		cmocka_unit_test(test_e8_timestamps),
		cmocka_unit_test(test_e9_and_hashes),
		cmocka_unit_test(test_bucket_examples),
		cmocka_unit_test(test_java_vectors),
		cmocka_unit_test(test_bucket_fixed_ints),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_compare_format),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
