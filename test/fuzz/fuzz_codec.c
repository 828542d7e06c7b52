/*-------------------------------------------------------------------------
 * fuzz_codec.c
 *	  libFuzzer harness for src/codec/codec.c.
 *
 * Input: byte 0 picks the codec (low 3 bits), bytes 1-2 an expected size
 * (big endian) for pm_codec_decompress; the rest is compressed data. It is
 * also decompressed with pm_codec_decompress_alloc (1 MiB limit); when both
 * succeed with the same size they must agree, and the output must survive
 * a compress / decompress round trip.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *a;
	pm_codec	codec;
	size_t		want;
	uint8_t    *fixed;
	uint8_t    *out = NULL;
	size_t		out_len = 0;
	pm_error	err;
	pm_code		rc_fixed;
	pm_code		rc_alloc;

	if (size < 3)
		return 0;
	codec = (pm_codec) (data[0] & 7);
	want = ((size_t) data[1] << 8) | data[2];
	data += 3;
	size -= 3;
	a = pm_arena_create(pm_env_default());
	if (a == NULL)
		return 0;
	fixed = malloc(want + 1);
	rc_fixed = pm_codec_decompress(codec, data, size, fixed, want, &err);
	if (rc_fixed != PM_OK && rc_fixed != PM_ERR_CORRUPT && rc_fixed != PM_ERR_UNSUPPORTED &&
		rc_fixed != PM_ERR_NOMEM)
		abort();
	rc_alloc = pm_codec_decompress_alloc(codec, data, size, a, 1 << 20, &out, &out_len, &err);
	if (rc_alloc == PM_OK)
	{
		uint8_t    *c;
		size_t		cl;
		uint8_t    *back = malloc(out_len + 1);

		if (out_len > (1 << 20))
			abort();
		if (rc_fixed == PM_OK && out_len == want && memcmp(out, fixed, want) != 0)
			abort();
		if (pm_codec_compress(codec, 0, out, out_len, a, &c, &cl, &err) != PM_OK)
			abort();
		if (pm_codec_decompress(codec, c, cl, back, out_len, &err) != PM_OK ||
			(out_len > 0 && memcmp(back, out, out_len) != 0))
			abort();
		free(back);
	}
	free(fixed);
	pm_arena_destroy(a);
	return 0;
}
