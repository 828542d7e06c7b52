/*-------------------------------------------------------------------------
 * test_deletion_vector.c
 *	  Unit tests of src/index/deletion_vector.c: real DV index files
 *	  written by Java Paimon, a hand-built 64-bit DV, corrupt blobs, and
 *	  applying a DV to a batch.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include <roaring/roaring.h>
#include <zlib.h>

#include "index/deletion_vector.h"

typedef struct dv_case
{
	const char *path;
	int64_t		offset;
	int64_t		length;
	int			npos;
	int64_t		pos[4];
} dv_case;

static const dv_case cases[] = {
	{"tables/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv/index/index-16bec1d6-fa31-49bd-a240-deadcfff6003-0", 1, 22, 1, {0}},
	{"tables/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv/index/index-16bec1d6-fa31-49bd-a240-deadcfff6003-1", 1, 22, 1, {4}},
	{"tables/parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv/index/index-daed25d2-8e68-45ba-aaad-ff342666ef27-0", 1, 24, 2, {0, 4}},
	{"tables/parquet/pk_table_with_alter_table.db/pk_table_with_alter_table/index/index-c93829f3-1a72-4d88-8401-70663ce46426-1", 1, 26, 3, {2, 3, 6}},
	{"tables/parquet/pk_btree_e2e.db/pk_btree_e2e/index/index-5561631d-80ef-45bc-8b87-3d1a2876816d-0", 1, 24, 2, {9, 19}},
	{"tables/parquet/pk_09.db/pk_09/index/index-ff7801ad-df90-49b2-9619-586eab9c68e3-0", 1, 22, 1, {0}},
	{"tables/parquet/pk_09.db/pk_09/index/index-ff7801ad-df90-49b2-9619-586eab9c68e3-0", 31, 22, 1, {0}},
	{"tables/avro/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv/index/index-3be0d042-692a-41cc-8d24-449ebfd0370a-1", 1, 22, 1, {4}},
};

static void
test_corpus_files(void **state)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io;

	unit_require_corpus();
	io = pm_local_fileio_create(env);
	assert_non_null(io);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		const dv_case *dc = &cases[c];
		pm_deletion_vector *dv = NULL;
		pm_error	err;
		pm_code		rc;

		pm_error_clear(&err);
		rc = pm_deletion_vector_read(env, io, unit_corpus_path(dc->path), dc->offset,
									 dc->length, &dv, &err);
		if (rc != PM_OK)
			fail_msg("%s: %s", dc->path, err.message);
		assert_false(pm_deletion_vector_is_64bit(dv));
		assert_int_equal(pm_deletion_vector_cardinality(dv), dc->npos);
		for (int64_t p = -1; p < 40; p++)
		{
			bool		want = false;

			for (int i = 0; i < dc->npos; i++)
				want |= dc->pos[i] == p;
			if (pm_deletion_vector_contains(dv, p) != want)
				fail_msg("case %zu position %lld", c, (long long) p);
		}
		pm_deletion_vector_destroy(dv);

		/* a wrong manifest length is refused */
		rc = pm_deletion_vector_read(env, io, unit_corpus_path(dc->path), dc->offset,
									 dc->length + 1, &dv, &err);
		assert_int_equal(rc, PM_ERR_CORRUPT);
		assert_null(dv);
	}
	pm_local_fileio_destroy(io);
}

static size_t
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
	return 4;
}

static size_t
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
	return 4;
}

/* Build a 64-bit DV blob of positions (sorted), as Bitmap64DeletionVector writes it. */
static size_t
build_dv64(uint8_t *out, const int64_t *pos, int npos)
{
	size_t		n = 4;
	uint32_t	maxkey = npos ? (uint32_t) (pos[npos - 1] >> 32) : 0;
	uint64_t	count = npos ? maxkey + 1 : 0;

	n += put_le32(out + n, PM_DV_MAGIC_64);
	n += put_le32(out + n, (uint32_t) count);
	n += put_le32(out + n, (uint32_t) (count >> 32));
	for (uint32_t k = 0; k < count; k++)
	{
		roaring_bitmap_t *bm = roaring_bitmap_create();

		for (int i = 0; i < npos; i++)
			if ((uint32_t) (pos[i] >> 32) == k)
				roaring_bitmap_add(bm, (uint32_t) pos[i]);
		roaring_bitmap_run_optimize(bm);
		n += put_le32(out + n, k);
		n += roaring_bitmap_portable_serialize(bm, (char *) out + n);
		roaring_bitmap_free(bm);
	}
	put_be32(out, (uint32_t) (n - 4));
	put_be32(out + n, (uint32_t) crc32(0L, out + 4, (uInt) (n - 4)));
	return n + 4;
}

static void
test_64bit(void **state)
{
	const pm_env *env = pm_env_default();
	int64_t		pos[] = {3, 7, 100000, (int64_t) 2 << 32 | 5};
	uint8_t		buf[4096];
	size_t		n = build_dv64(buf, pos, 4);
	pm_deletion_vector *dv;
	pm_error	err;

	pm_error_clear(&err);
	assert_int_equal(pm_deletion_vector_decode(env, buf, n, (int64_t) n, &dv, &err), PM_OK);
	assert_true(pm_deletion_vector_is_64bit(dv));
	assert_int_equal(pm_deletion_vector_cardinality(dv), 4);
	assert_true(pm_deletion_vector_contains(dv, 3));
	assert_true(pm_deletion_vector_contains(dv, 100000));
	assert_true(pm_deletion_vector_contains(dv, ((int64_t) 2 << 32) | 5));
	assert_false(pm_deletion_vector_contains(dv, ((int64_t) 1 << 32) | 5));
	assert_false(pm_deletion_vector_contains(dv, 5));
	pm_deletion_vector_destroy(dv);

	/* 64-bit length = whole blob: the 32-bit meaning is refused */
	assert_int_equal(pm_deletion_vector_decode(env, buf, n, (int64_t) n - 8, &dv, &err),
					 PM_ERR_CORRUPT);
	/* any flipped byte is caught (checksum, magic or structure) */
	for (size_t i = 0; i < n; i++)
	{
		buf[i] ^= 0x40;
		assert_int_not_equal(pm_deletion_vector_decode(env, buf, n, -1, &dv, &err), PM_OK);
		assert_null(dv);
		buf[i] ^= 0x40;
	}
	/* every truncation is refused */
	for (size_t len = 0; len < n; len++)
		assert_int_equal(pm_deletion_vector_decode(env, buf, len, -1, &dv, &err),
						 PM_ERR_CORRUPT);
}

static void
test_corrupt_32(void **state)
{
	const pm_env *env = pm_env_default();
	/* pk_with_bitmap_dv blob: {0, 4} */
	uint8_t		blob[] = {0x00, 0x00, 0x00, 0x18, 0x5e, 0x43, 0xf2, 0xd0, 0x3a, 0x30, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x04, 0x00, 0x2d, 0xd0, 0xa8, 0x71};
	pm_deletion_vector *dv;
	pm_error	err;

	pm_error_clear(&err);
	assert_int_equal(pm_deletion_vector_decode(env, blob, sizeof(blob), 24, &dv, &err), PM_OK);
	pm_deletion_vector_destroy(dv);
	blob[27] = 0x05;			/* value 4 -> 1284: checksum no longer matches */
	assert_int_equal(pm_deletion_vector_decode(env, blob, sizeof(blob), 24, &dv, &err),
					 PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "checksum"));
	blob[27] = 0x00;
	blob[5] = 0x44;				/* magic */
	assert_int_equal(pm_deletion_vector_decode(env, blob, sizeof(blob), 24, &dv, &err),
					 PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "magic"));
}

static void
test_apply(void **state)
{
	const pm_env *env = pm_env_default();
	int64_t		pos[] = {0, 4, 5, 9};
	uint8_t		buf[1024];
	size_t		n = build_dv64(buf, pos, 4);
	pm_deletion_vector *dv;
	pm_error	err;
	pm_batch	batch;
	uint8_t		sel[6];

	pm_error_clear(&err);
	assert_int_equal(pm_deletion_vector_decode(env, buf, n, -1, &dv, &err), PM_OK);
	memset(&batch, 0, sizeof(batch));
	batch.nrows = 6;
	batch.first_row = 4;		/* rows 4..9 */
	assert_int_equal(pm_deletion_vector_apply(dv, &batch, sel), 3);
	assert_int_equal(sel[0], 0);
	assert_int_equal(sel[1], 0);
	assert_int_equal(sel[2], 1);
	assert_int_equal(sel[3], 1);
	assert_int_equal(sel[4], 1);
	assert_int_equal(sel[5], 0);
	assert_int_equal(pm_deletion_vector_apply(NULL, &batch, sel), 6);
	pm_deletion_vector_destroy(dv);
}

/* ---- malformed bitmaps behind a good checksum ---------------------------- */

/* Wrap a portable bitmap into a 32-bit DV blob with a good length and CRC. */
static size_t
wrap_dv32(uint8_t *out, const uint8_t *bitmap, size_t nbitmap)
{
	size_t		n = 4;

	n += put_be32(out + n, PM_DV_MAGIC_32);
	memcpy(out + n, bitmap, nbitmap);
	n += nbitmap;
	put_be32(out, (uint32_t) (n - 4));
	put_be32(out + n, (uint32_t) crc32(0L, out + 4, (uInt) (n - 4)));
	return n + 4;
}

static size_t
put_le16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	return 2;
}

/* Portable bitmap without run containers: one container key 0, card values. */
static size_t
array_bitmap(uint8_t *p, const uint16_t *values, int card)
{
	size_t		n = 0;

	n += put_le32(p + n, 12346);
	n += put_le32(p + n, 1);
	n += put_le16(p + n, 0);
	n += put_le16(p + n, (uint16_t) (card - 1));
	n += put_le32(p + n, 16);	/* offset of the container */
	for (int i = 0; i < card; i++)
		n += put_le16(p + n, values[i]);
	return n;
}

/* Portable bitmap with one run container (key 0): runs as (start, length - 1). */
static size_t
run_bitmap(uint8_t *p, const uint16_t *runs, int nruns, uint16_t card)
{
	size_t		n = 0;

	n += put_le32(p + n, 12347);	/* cookie, 1 container */
	p[n++] = 0x01;				/* container 0 is a run container */
	n += put_le16(p + n, 0);
	n += put_le16(p + n, (uint16_t) (card - 1));
	n += put_le16(p + n, (uint16_t) nruns);
	for (int i = 0; i < 2 * nruns; i++)
		n += put_le16(p + n, runs[i]);
	return n;
}

/* Portable bitmap with one bitset container (key 0): bits set, header card. */
static size_t
bitset_bitmap(uint8_t *p, int bits, uint16_t card)
{
	size_t		n = 0;

	n += put_le32(p + n, 12346);
	n += put_le32(p + n, 1);
	n += put_le16(p + n, 0);
	n += put_le16(p + n, (uint16_t) (card - 1));
	n += put_le32(p + n, 16);
	memset(p + n, 0, 8192);
	for (int i = 0; i < bits; i++)
		p[n + i / 8] |= (uint8_t) (1 << (i % 8));
	return n + 8192;
}

static pm_code
decode_bitmap(const uint8_t *bitmap, size_t n, pm_deletion_vector **dv, pm_error *err)
{
	static uint8_t blob[16384];
	size_t		len = wrap_dv32(blob, bitmap, n);

	pm_error_clear(err);
	return pm_deletion_vector_decode(pm_env_default(), blob, len, (int64_t) len - 8, dv, err);
}

static void
expect_malformed(const uint8_t *bitmap, size_t n, const char *what)
{
	pm_deletion_vector *dv = NULL;
	pm_error	err;
	pm_code		rc = decode_bitmap(bitmap, n, &dv, &err);

	if (rc != PM_ERR_CORRUPT || strstr(err.message, what) == NULL)
		fail_msg("expected \"%s\", got %s: %s", what, pm_code_name(rc), err.message);
	assert_null(dv);
}

static void
test_malformed_bitmaps(void **state)
{
	uint8_t		b[9000];
	pm_deletion_vector *dv;
	pm_error	err;
	size_t		n;

	/* well-formed: array, run and bitset containers */
	{
		uint16_t	v[] = {1, 5, 9};

		n = array_bitmap(b, v, 3);
		assert_int_equal(decode_bitmap(b, n, &dv, &err), PM_OK);
		assert_int_equal(pm_deletion_vector_cardinality(dv), 3);
		assert_true(pm_deletion_vector_contains(dv, 5));
		assert_int_equal(pm_deletion_vector_check(dv, 10, 3, &err), PM_OK);
		pm_deletion_vector_destroy(dv);
	}
	{
		uint16_t	r[] = {0, 9, 20, 0};	/* 0..9, 20 */

		n = run_bitmap(b, r, 2, 11);
		assert_int_equal(decode_bitmap(b, n, &dv, &err), PM_OK);
		assert_true(pm_deletion_vector_contains(dv, 20));
		assert_false(pm_deletion_vector_contains(dv, 19));
		assert_int_equal(pm_deletion_vector_check(dv, 21, 11, &err), PM_OK);
		pm_deletion_vector_destroy(dv);
	}
	n = bitset_bitmap(b, 5000, 5000);
	assert_int_equal(decode_bitmap(b, n, &dv, &err), PM_OK);
	assert_int_equal(pm_deletion_vector_cardinality(dv), 5000);
	assert_int_equal(pm_deletion_vector_check(dv, 5000, -1, &err), PM_OK);
	pm_deletion_vector_destroy(dv);

	/* array values out of order or repeated: binary search would miss them */
	{
		uint16_t	unsorted[] = {5, 3, 9};
		uint16_t	repeated[] = {3, 3, 9};

		n = array_bitmap(b, unsorted, 3);
		expect_malformed(b, n, "array container values not ascending");
		n = array_bitmap(b, repeated, 3);
		expect_malformed(b, n, "array container values not ascending");
	}
	/* container keys out of order */
	n = 0;
	n += put_le32(b + n, 12346);
	n += put_le32(b + n, 2);
	n += put_le16(b + n, 1);
	n += put_le16(b + n, 0);
	n += put_le16(b + n, 0);
	n += put_le16(b + n, 0);
	n += put_le32(b + n, 24);
	n += put_le32(b + n, 26);
	n += put_le16(b + n, 7);
	n += put_le16(b + n, 7);
	expect_malformed(b, n, "container keys not ascending");
	/* bitset whose header cardinality is not its popcount */
	n = bitset_bitmap(b, 4100, 5000);
	expect_malformed(b, n, "bitset container cardinality differs");
	/* runs: overlapping, descending, past 65535, wrong cardinality, none */
	{
		uint16_t	overlap[] = {10, 5, 12, 3};
		uint16_t	descending[] = {20, 0, 10, 0};
		uint16_t	overflow[] = {0xFFF0, 0x20};
		uint16_t	one[] = {0, 9};

		n = run_bitmap(b, overlap, 2, 10);
		expect_malformed(b, n, "runs overlap or are not ascending");
		n = run_bitmap(b, descending, 2, 2);
		expect_malformed(b, n, "runs overlap or are not ascending");
		n = run_bitmap(b, overflow, 1, 0x21);
		expect_malformed(b, n, "run past the end of its container");
		n = run_bitmap(b, one, 1, 5);
		expect_malformed(b, n, "run container cardinality differs");
		n = run_bitmap(b, one, 0, 1);
		expect_malformed(b, n, "empty run container");
	}
	/* an unknown cookie */
	memset(b, 0, 16);
	expect_malformed(b, 16, "unknown cookie");
}

/* ---- positions against the data file ------------------------------------ */

static void
test_check_against_file(void **state)
{
	const pm_env *env = pm_env_default();
	int64_t		pos32[] = {0, 4};
	int64_t		pos64[] = {3, ((int64_t) 2 << 32) | 5};
	uint8_t		buf[1024];
	size_t		n;
	pm_deletion_vector *dv;
	pm_error	err;

	pm_error_clear(&err);
	n = build_dv64(buf, pos32, 2);
	assert_int_equal(pm_deletion_vector_decode(env, buf, n, -1, &dv, &err), PM_OK);
	assert_int_equal(pm_deletion_vector_check(dv, 5, 2, &err), PM_OK);
	assert_int_equal(pm_deletion_vector_check(dv, -1, -1, &err), PM_OK);
	/* position 4 in a file of 4 rows */
	assert_int_equal(pm_deletion_vector_check(dv, 4, -1, &err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "row position 4 of a data file of 4 rows"));
	/* the index manifest's cardinality disagrees */
	pm_error_clear(&err);
	assert_int_equal(pm_deletion_vector_check(dv, 5, 3, &err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "holds 2 positions"));
	pm_deletion_vector_destroy(dv);

	n = build_dv64(buf, pos64, 2);
	assert_int_equal(pm_deletion_vector_decode(env, buf, n, -1, &dv, &err), PM_OK);
	assert_int_equal(pm_deletion_vector_check(dv, ((int64_t) 2 << 32) | 6, 2, &err), PM_OK);
	assert_int_equal(pm_deletion_vector_check(dv, 1000, -1, &err), PM_ERR_CORRUPT);
	pm_deletion_vector_destroy(dv);

	/* a 32-bit DV {0, 4} */
	{
		uint16_t	v[] = {0, 4};
		uint8_t		b[64];

		n = array_bitmap(b, v, 2);
		assert_int_equal(decode_bitmap(b, n, &dv, &err), PM_OK);
		assert_int_equal(pm_deletion_vector_check(dv, 4, 2, &err), PM_ERR_CORRUPT);
		assert_int_equal(pm_deletion_vector_check(dv, 5, 2, &err), PM_OK);
		pm_deletion_vector_destroy(dv);
	}
}

/* ---- live DVs are tracked by their env ----------------------------------- */

static void
test_tracked_by_env(void **state)
{
	pm_env		env = *pm_env_default();
	pm_resource head;
	int64_t		pos[] = {1, 70000, 140000};
	uint8_t		buf[1024];
	size_t		n = build_dv64(buf, pos, 3);
	pm_deletion_vector *dv[3];
	pm_error	err;

	pm_env_resources_init(&head);
	env.resources = &head;
	pm_error_clear(&err);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pm_deletion_vector_decode(&env, buf, n, -1, &dv[i], &err), PM_OK);
	assert_int_equal(pm_env_tracked_count(&env), 3);
	pm_deletion_vector_destroy(dv[1]);
	assert_int_equal(pm_env_tracked_count(&env), 2);

	/* abandoned (an ERROR in the caller): releasing the env frees them (ASan checks) */
	pm_env_release_all(&env);
	assert_int_equal(pm_env_tracked_count(&env), 0);

	/* a failed decode leaves nothing tracked */
	buf[n - 1] ^= 1;
	assert_int_equal(pm_deletion_vector_decode(&env, buf, n, -1, &dv[0], &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_env_tracked_count(&env), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_files),
		cmocka_unit_test(test_64bit),
		cmocka_unit_test(test_corrupt_32),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_malformed_bitmaps),
		cmocka_unit_test(test_check_against_file),
		cmocka_unit_test(test_tracked_by_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
