/*-------------------------------------------------------------------------
 * fuzz_binary_row.c
 *	  libFuzzer harness for src/row/binary_row.c (and value.c, bucket.c).
 *
 * Input: byte 0 picks one of a few fixed row types (low bits) and the
 * serialized form with its arity prefix (bit 7); the rest is the row.
 * A row that decodes must re-encode, decode again to equal values, hash,
 * compare and format without trouble.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "row/binary_row.h"
#include "row/bucket.h"
#include "row/value.h"

#define NTYPES 6

static const pm_type *
mk(pm_arena *a, pm_type_id id, int precision)
{
	pm_type    *t = pm_type_new(a, id, true);

	if (t != NULL && id != PM_TYPE_DECIMAL)
		t->precision = precision;
	else if (t != NULL)
	{
		t->precision = precision;
		t->scale = precision / 3;
	}
	return t;
}

static const pm_type *
row_of(pm_arena *a, const pm_type **types, int n)
{
	pm_field   *f = pm_arena_zalloc(a, sizeof(pm_field) * (size_t) (n > 0 ? n : 1));

	for (int i = 0; i < n; i++)
	{
		f[i].id = i;
		f[i].name = "f";
		f[i].type = types[i];
	}
	return pm_type_new_row(a, f, n, false);
}

static const pm_type *
pick_type(pm_arena *a, int which)
{
	const pm_type *t[64];
	int			n = 0;

	switch (which)
	{
		case 0:
			t[n++] = mk(a, PM_TYPE_INT, 0);
			break;
		case 1:
			t[n++] = mk(a, PM_TYPE_VARCHAR, 0);
			t[n++] = mk(a, PM_TYPE_INT, 0);
			break;
		case 2:
			t[n++] = mk(a, PM_TYPE_INT, 0);
			t[n++] = mk(a, PM_TYPE_INT, 0);
			t[n++] = mk(a, PM_TYPE_DATE, 0);
			t[n++] = mk(a, PM_TYPE_TIMESTAMP, 9);
			t[n++] = mk(a, PM_TYPE_DECIMAL, 23);
			t[n++] = mk(a, PM_TYPE_VARBINARY, 0);
			break;
		case 3:
			for (int p = 0; p <= 9; p += 3)
			{
				t[n++] = mk(a, PM_TYPE_TIMESTAMP, p);
				t[n++] = mk(a, PM_TYPE_TIMESTAMP_LTZ, p);
			}
			t[n++] = mk(a, PM_TYPE_TIME, 3);
			break;
		case 4:
			t[n++] = mk(a, PM_TYPE_BOOLEAN, 0);
			t[n++] = mk(a, PM_TYPE_TINYINT, 0);
			t[n++] = mk(a, PM_TYPE_SMALLINT, 0);
			t[n++] = mk(a, PM_TYPE_BIGINT, 0);
			t[n++] = mk(a, PM_TYPE_FLOAT, 0);
			t[n++] = mk(a, PM_TYPE_DOUBLE, 0);
			t[n++] = mk(a, PM_TYPE_DECIMAL, 10);
			t[n++] = mk(a, PM_TYPE_DECIMAL, 38);
			t[n++] = mk(a, PM_TYPE_CHAR, 0);
			t[n++] = mk(a, PM_TYPE_BINARY, 0);
			t[n++] = pm_type_new_array(a, mk(a, PM_TYPE_INT, 0), true);
			t[n++] = mk(a, PM_TYPE_VARIANT, 0);
			break;
		default:
			/* wide row: 16-byte header */
			for (int i = 0; i < 60; i++)
				t[n++] = mk(a, (i % 3) == 0 ? PM_TYPE_VARCHAR : PM_TYPE_INT, 0);
			break;
	}
	for (int i = 0; i < n; i++)
		if (t[i] == NULL)
			return NULL;
	return row_of(a, t, n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *a;
	const pm_type *rt;
	pm_value	v[64];
	pm_value	w[64];
	pm_error	err;
	pm_code		rc;
	bool		serialized;

	if (size < 1)
		return 0;
	a = pm_arena_create(pm_env_default());
	if (a == NULL)
		return 0;
	rt = pick_type(a, (data[0] & 0x7F) % NTYPES);
	serialized = (data[0] & 0x80) != 0;
	if (rt == NULL)
		goto done;
	if (serialized)
	{
		int			arity;

		(void) pm_binary_row_serialized_arity(data + 1, size - 1, &arity, &err);
		rc = pm_binary_row_decode_serialized(data + 1, size - 1, rt, v, &err);
	}
	else
		rc = pm_binary_row_decode(data + 1, size - 1, rt, v, &err);
	if (rc == PM_OK)
	{
		uint8_t    *buf;
		size_t		len;
		int32_t		bucket;

		if (pm_binary_row_encode(a, rt, v, &buf, &len, &err) != PM_OK)
			abort();
		if (len % 8 != 0)
			abort();
		if (pm_binary_row_decode(buf, len, rt, w, &err) != PM_OK)
			abort();
		for (int i = 0; i < rt->nfields; i++)
		{
			const pm_type *t = rt->fields[i].type;

			if (v[i].is_null != w[i].is_null)
				abort();
			if (pm_value_format(a, t, &v[i]) == NULL)
				abort();
			if (!v[i].is_null && pm_value_compare(t, &v[i], &w[i]) != 0)
				abort();
		}
		if (pm_bucket_of(rt, v, 7, &bucket, &err) != PM_OK || bucket < 0 || bucket >= 7)
			abort();
		/* encoding is canonical: a second round gives the same bytes */
		{
			uint8_t    *buf2;
			size_t		len2;

			if (pm_binary_row_encode(a, rt, w, &buf2, &len2, &err) != PM_OK ||
				len2 != len || memcmp(buf, buf2, len) != 0)
				abort();
		}
	}
done:
	pm_arena_destroy(a);
	return 0;
}
