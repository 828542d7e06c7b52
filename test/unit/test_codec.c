/*-------------------------------------------------------------------------
 * test_codec.c
 *	  Unit tests of src/codec/codec.c: round trips through every codec,
 *	  multi-frame zstd / multi-member gzip, size checks, corrupt input.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "codec/codec.h"

static const pm_codec all_codecs[] = {
	PM_CODEC_NONE, PM_CODEC_ZSTD, PM_CODEC_SNAPPY, PM_CODEC_LZ4_RAW,
	PM_CODEC_LZ4_FRAME, PM_CODEC_DEFLATE, PM_CODEC_ZLIB, PM_CODEC_GZIP
};
#define NCODECS ((int) (sizeof(all_codecs) / sizeof(all_codecs[0])))

static uint8_t *
make_input(size_t n)
{
	uint8_t    *p = malloc(n + 1);
	uint32_t	x = 12345;

	for (size_t i = 0; i < n; i++)
	{
		/* compressible but not trivial */
		x = x * 1103515245 + 12345;
		p[i] = (i % 7 == 0) ? (uint8_t) (x >> 24) : (uint8_t) ("paimon"[i % 6]);
	}
	return p;
}

static void
test_round_trip(void **state)
{
	size_t		sizes[] = {0, 1, 100, 65536, 300001};

	for (int c = 0; c < NCODECS; c++)
	{
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		{
			pm_arena   *a = pm_arena_create(pm_env_default());
			pm_error	err;
			size_t		n = sizes[s];
			uint8_t    *in = make_input(n);
			uint8_t    *comp;
			size_t		comp_len;
			uint8_t    *dec;
			size_t		dec_len;
			uint8_t    *fixed = malloc(n + 1);
			pm_codec	codec = all_codecs[c];

			pm_error_clear(&err);
			assert_int_equal(pm_codec_compress(codec, codec == PM_CODEC_ZSTD ? 1 : 0, in, n,
											   a, &comp, &comp_len, &err), PM_OK);
			if (n > 1000 && codec != PM_CODEC_NONE)
				assert_true(comp_len < n);

			/* exact size */
			assert_int_equal(pm_codec_decompress(codec, comp, comp_len, fixed, n, &err), PM_OK);
			assert_memory_equal(fixed, in, n);

			/* unknown size */
			assert_int_equal(pm_codec_decompress_alloc(codec, comp, comp_len, a, n + 10,
													   &dec, &dec_len, &err), PM_OK);
			assert_int_equal(dec_len, n);
			if (n > 0)
				assert_memory_equal(dec, in, n);

			/* wrong expected size: one less and one more */
			if (n > 0)
			{
				assert_int_equal(pm_codec_decompress(codec, comp, comp_len, fixed, n - 1, &err),
								 PM_ERR_CORRUPT);
				assert_int_equal(err.code, PM_ERR_CORRUPT);
			}
			{
				uint8_t    *big = malloc(n + 2);

				assert_int_equal(pm_codec_decompress(codec, comp, comp_len, big, n + 1, &err),
								 PM_ERR_CORRUPT);
				free(big);
			}

			/* bomb limit */
			if (n > 10)
				assert_int_equal(pm_codec_decompress_alloc(codec, comp, comp_len, a, n - 5,
														   &dec, &dec_len, &err),
								 PM_ERR_CORRUPT);
			free(in);
			free(fixed);
			pm_arena_destroy(a);
		}
	}
}

static void
test_corrupt(void **state)
{
	size_t		n = 50000;
	uint8_t    *in = make_input(n);
	uint8_t    *out = malloc(n);

	for (int c = 1; c < NCODECS; c++)
	{
		pm_codec	codec = all_codecs[c];
		pm_arena   *a = pm_arena_create(pm_env_default());
		pm_error	err;
		uint8_t    *comp;
		size_t		comp_len;
		uint8_t    *dec;
		size_t		dec_len;
		uint8_t    *bad;

		assert_int_equal(pm_codec_compress(codec, 0, in, n, a, &comp, &comp_len, &err), PM_OK);

		/* truncated */
		assert_int_equal(pm_codec_decompress(codec, comp, comp_len / 2, out, n, &err),
						 PM_ERR_CORRUPT);
		assert_int_equal(pm_codec_decompress_alloc(codec, comp, comp_len / 2, a, n * 2,
												   &dec, &dec_len, &err),
						 PM_ERR_CORRUPT);

		/* garbage */
		bad = malloc(comp_len);
		memset(bad, 0xA5, comp_len);
		assert_int_equal(pm_codec_decompress(codec, bad, comp_len, out, n, &err),
						 PM_ERR_CORRUPT);
		assert_int_equal(pm_codec_decompress_alloc(codec, bad, comp_len, a, n * 2,
												   &dec, &dec_len, &err),
						 PM_ERR_CORRUPT);
		/* empty input */
		assert_int_equal(pm_codec_decompress(codec, bad, 0, out, n, &err), PM_ERR_CORRUPT);
		assert_int_equal(pm_codec_decompress_alloc(codec, bad, 0, a, n * 2, &dec, &dec_len,
												   &err), PM_ERR_CORRUPT);

		/* flipped bytes in the middle: an error or (rarely) wrong bytes, never a crash */
		memcpy(bad, comp, comp_len);
		for (size_t i = comp_len / 3; i < comp_len / 3 + 8 && i < comp_len; i++)
			bad[i] ^= 0x5A;
		(void) pm_codec_decompress(codec, bad, comp_len, out, n, &err);
		(void) pm_codec_decompress_alloc(codec, bad, comp_len, a, n * 2, &dec, &dec_len, &err);
		free(bad);
		pm_arena_destroy(a);
	}
	free(in);
	free(out);
}

static void
test_multi_frame(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_error	err;
	const char *p1 = "hello, paimon ";
	const char *p2 = "second frame or member";
	size_t		l1 = strlen(p1);
	size_t		l2 = strlen(p2);
	uint8_t    *c1,
			   *c2;
	size_t		cl1,
				cl2;
	uint8_t		joined[1024];
	uint8_t		out[128];
	uint8_t    *dec;
	size_t		dec_len;
	pm_codec	codecs[] = {PM_CODEC_ZSTD, PM_CODEC_GZIP, PM_CODEC_LZ4_FRAME};

	for (int i = 0; i < 3; i++)
	{
		assert_int_equal(pm_codec_compress(codecs[i], 0, p1, l1, a, &c1, &cl1, &err), PM_OK);
		assert_int_equal(pm_codec_compress(codecs[i], 0, p2, l2, a, &c2, &cl2, &err), PM_OK);
		memcpy(joined, c1, cl1);
		memcpy(joined + cl1, c2, cl2);
		assert_int_equal(pm_codec_decompress(codecs[i], joined, cl1 + cl2, out, l1 + l2, &err),
						 PM_OK);
		assert_memory_equal(out, p1, l1);
		assert_memory_equal(out + l1, p2, l2);
		assert_int_equal(pm_codec_decompress_alloc(codecs[i], joined, cl1 + cl2, a, 1000,
												   &dec, &dec_len, &err), PM_OK);
		assert_int_equal(dec_len, l1 + l2);
		assert_memory_equal(dec, p1, l1);
		assert_memory_equal(dec + l1, p2, l2);
	}
	pm_arena_destroy(a);
}

/* a zstd frame written by streaming, which does not record the content size */
static void
test_zstd_no_content_size(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_error	err;
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t		n = 200000;
	uint8_t    *in = make_input(n);
	uint8_t    *comp = malloc(ZSTD_compressBound(n) + 64);
	ZSTD_inBuffer ib = {in, n, 0};
	ZSTD_outBuffer ob = {comp, ZSTD_compressBound(n) + 64, 0};
	uint8_t    *out = malloc(n);
	uint8_t    *dec;
	size_t		dec_len;

	ZSTD_initCStream(cs, 1);
	assert_false(ZSTD_isError(ZSTD_compressStream(cs, &ob, &ib)));
	assert_int_equal(ZSTD_endStream(cs, &ob), 0);
	assert_int_equal(ZSTD_getFrameContentSize(comp, ob.pos), ZSTD_CONTENTSIZE_UNKNOWN);

	assert_int_equal(pm_codec_decompress(PM_CODEC_ZSTD, comp, ob.pos, out, n, &err), PM_OK);
	assert_memory_equal(out, in, n);
	assert_int_equal(pm_codec_decompress_alloc(PM_CODEC_ZSTD, comp, ob.pos, a, n, &dec,
											   &dec_len, &err), PM_OK);
	assert_int_equal(dec_len, n);
	assert_memory_equal(dec, in, n);
	assert_int_equal(pm_codec_decompress_alloc(PM_CODEC_ZSTD, comp, ob.pos, a, n - 1, &dec,
											   &dec_len, &err), PM_ERR_CORRUPT);
	ZSTD_freeCStream(cs);
	free(in);
	free(comp);
	free(out);
	pm_arena_destroy(a);
}

static void
test_names(void **state)
{
	assert_string_equal(pm_codec_name(PM_CODEC_ZSTD), "zstd");
	assert_string_equal(pm_codec_name(PM_CODEC_GZIP), "gzip");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_multi_frame),
		cmocka_unit_test(test_zstd_no_content_size),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
