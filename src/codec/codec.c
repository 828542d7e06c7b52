/*-------------------------------------------------------------------------
 * codec.c
 *	  Compression codecs: zstd, snappy, lz4 (raw block and frame), deflate,
 *	  zlib and gzip, over libzstd, libsnappy (C API), liblz4 and zlib.
 *
 * Nothing here is hand-written compression: this file adapts the libraries
 * to one interface and enforces the size contracts (exact size for
 * pm_codec_decompress, max_len for pm_codec_decompress_alloc, so a small
 * hostile input cannot make us allocate without bound). Working memory the
 * libraries allocate internally (zstd/lz4 contexts, zlib state) is theirs.
 *-------------------------------------------------------------------------
 */
#include "codec/codec.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "common/read_timing.h"

/* First guess of the output size when it is unknown: 4x the input. */
#define GUESS_RATIO		4
#define MIN_GUESS		4096

const char *
pm_codec_name(pm_codec codec)
{
	switch (codec)
	{
		case PM_CODEC_NONE:
			return "none";
		case PM_CODEC_ZSTD:
			return "zstd";
		case PM_CODEC_SNAPPY:
			return "snappy";
		case PM_CODEC_LZ4_RAW:
			return "lz4 raw";
		case PM_CODEC_LZ4_FRAME:
			return "lz4 frame";
		case PM_CODEC_DEFLATE:
			return "deflate";
		case PM_CODEC_ZLIB:
			return "zlib";
		case PM_CODEC_GZIP:
			return "gzip";
	}
	return "unknown";
}

/*
 * A growable output buffer in an arena, bounded by max_len.
 */
typedef struct outbuf
{
	pm_arena   *arena;
	uint8_t    *data;
	size_t		len;			/* bytes produced */
	size_t		cap;
	size_t		max_len;
} outbuf;

static pm_code
outbuf_init(outbuf *ob, pm_arena *arena, size_t max_len, size_t guess, pm_error *err)
{
	ob->arena = arena;
	ob->len = 0;
	ob->max_len = max_len;
	if (guess < MIN_GUESS)
		guess = MIN_GUESS;
	if (guess > max_len)
		guess = max_len;
	ob->cap = guess;
	/* one spare byte so that cap == 0 still gives a valid pointer */
	ob->data = pm_arena_alloc(arena, ob->cap + 1);
	if (ob->data == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory allocating %zu bytes for decompression",
					   ob->cap);
	return PM_OK;
}

/*
 * Make room for more output: PM_ERR_CORRUPT if already at max_len.
 */
static pm_code
outbuf_grow(outbuf *ob, pm_codec codec, pm_error *err)
{
	size_t		ncap;
	uint8_t    *nd;

	if (ob->cap >= ob->max_len)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "%s data decompresses to more than %zu bytes",
					   pm_codec_name(codec), ob->max_len);
	ncap = ob->cap > ob->max_len / 2 ? ob->max_len : ob->cap * 2;
	nd = pm_arena_realloc(ob->arena, ob->data, ob->cap + 1, ncap + 1);
	if (nd == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory allocating %zu bytes for decompression",
					   ncap);
	ob->data = nd;
	ob->cap = ncap;
	return PM_OK;
}

static size_t
guess_size(size_t src_len, size_t max_len)
{
	size_t		g;

	if (src_len > SIZE_MAX / GUESS_RATIO)
		g = SIZE_MAX;
	else
		g = src_len * GUESS_RATIO;
	return g > max_len ? max_len : g;
}

/* ---------------------------------------------------------------- zstd */

static pm_code
zstd_decompress(const void *src, size_t src_len, void *dst, size_t dst_len, pm_error *err)
{
	size_t		r;

	/*
	 * ZSTD_decompressDCtx handles concatenated and skippable frames, unknown
	 * sizes; one context per thread, kept for the process's life (the core
	 * starts no threads; ZSTD_decompress would create and free one per page)
	 */
	static __thread ZSTD_DCtx *dctx;

	if (dctx == NULL && (dctx = ZSTD_createDCtx()) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating a zstd context");
	r = ZSTD_decompressDCtx(dctx, dst, dst_len, src, src_len);
	if (ZSTD_isError(r))
		return pm_fail(err, PM_ERR_CORRUPT, "invalid zstd data: %s", ZSTD_getErrorName(r));
	if (r != dst_len)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "zstd data decompresses to %zu bytes, expected %zu", r, dst_len);
	return PM_OK;
}

static pm_code
zstd_decompress_alloc(const void *src, size_t src_len, outbuf *ob, pm_error *err)
{
	ZSTD_DStream *ds;
	ZSTD_inBuffer in = {src, src_len, 0};
	size_t		last = 0;
	pm_code		rc = PM_OK;

	ds = ZSTD_createDStream();
	if (ds == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating a zstd context");
	/*
	 * The frame header chooses the window zstd allocates: bound it by what
	 * the output may hold (but allow 8 MiB, what streaming compressors use
	 * at high levels when they do not know the input size).
	 */
	{
		int			wlog = 23;

		while (wlog < 27 && ((size_t) 1 << wlog) < ob->max_len)
			wlog++;
		ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, wlog);
	}
	if (src_len == 0)
	{
		ZSTD_freeDStream(ds);
		return pm_fail(err, PM_ERR_CORRUPT, "invalid zstd data: empty input");
	}
	while (in.pos < in.size || last != 0)
	{
		ZSTD_outBuffer out;
		size_t		before_in = in.pos;

		if (ob->len == ob->cap)
		{
			rc = outbuf_grow(ob, PM_CODEC_ZSTD, err);
			if (rc != PM_OK)
				break;
		}
		out.dst = ob->data;
		out.size = ob->cap;
		out.pos = ob->len;
		last = ZSTD_decompressStream(ds, &out, &in);
		if (ZSTD_isError(last))
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "invalid zstd data: %s",
						 ZSTD_getErrorName(last));
			break;
		}
		if (in.pos == before_in && out.pos == ob->len && out.pos < out.size)
		{
			/* no progress with room to spare: input ends inside a frame */
			rc = pm_fail(err, PM_ERR_CORRUPT, "truncated zstd data");
			break;
		}
		ob->len = out.pos;
	}
	ZSTD_freeDStream(ds);
	return rc;
}

/* -------------------------------------------------------------- snappy */

static pm_code
snappy_size(const void *src, size_t src_len, size_t *n, pm_error *err)
{
	if (snappy_uncompressed_length(src, src_len, n) != SNAPPY_OK)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid snappy data: bad length header");
	if (snappy_validate_compressed_buffer(src, src_len) != SNAPPY_OK)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid snappy data");
	return PM_OK;
}

static pm_code
snappy_decompress(const void *src, size_t src_len, void *dst, size_t dst_len, pm_error *err)
{
	size_t		n;
	size_t		outn;

	PM_TRY(snappy_size(src, src_len, &n, err));
	if (n != dst_len)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "snappy data decompresses to %zu bytes, expected %zu", n, dst_len);
	outn = dst_len;
	if (snappy_uncompress(src, src_len, dst, &outn) != SNAPPY_OK || outn != dst_len)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid snappy data");
	return PM_OK;
}

static pm_code
snappy_decompress_alloc(const void *src, size_t src_len, outbuf *ob, pm_error *err)
{
	size_t		n;

	PM_TRY(snappy_size(src, src_len, &n, err));
	if (n > ob->max_len)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "snappy data decompresses to more than %zu bytes", ob->max_len);
	if (n > ob->cap)
	{
		uint8_t    *d = pm_arena_alloc(ob->arena, n + 1);

		if (d == NULL)
			return pm_fail(err, PM_ERR_NOMEM,
						   "out of memory allocating %zu bytes for decompression", n);
		ob->data = d;
		ob->cap = n;
	}
	ob->len = n;
	if (snappy_uncompress(src, src_len, (char *) ob->data, &ob->len) != SNAPPY_OK ||
		ob->len != n)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid snappy data");
	return PM_OK;
}

/* ---------------------------------------------------------- lz4 (raw) */

static pm_code
lz4_raw_decompress(const void *src, size_t src_len, void *dst, size_t dst_len, pm_error *err)
{
	int			r;

	if (src_len > INT_MAX || dst_len > INT_MAX)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "lz4 block larger than 2 GiB");
	r = LZ4_decompress_safe(src, dst, (int) src_len, (int) dst_len);
	if (r < 0)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid lz4 data");
	if ((size_t) r != dst_len)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "lz4 data decompresses to %d bytes, expected %zu", r, dst_len);
	return PM_OK;
}

static pm_code
lz4_raw_decompress_alloc(const void *src, size_t src_len, outbuf *ob, pm_error *err)
{
	if (src_len > INT_MAX)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "lz4 block larger than 2 GiB");
	for (;;)
	{
		int			cap = ob->cap > INT_MAX ? INT_MAX : (int) ob->cap;
		int			r = LZ4_decompress_safe(src, (char *) ob->data, (int) src_len, cap);

		if (r >= 0)
		{
			ob->len = (size_t) r;
			return PM_OK;
		}
		/* a raw block does not say its size: retry bigger until max_len */
		if (ob->cap >= ob->max_len || ob->cap >= INT_MAX)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "invalid lz4 data or decompressed size above %zu bytes",
						   ob->max_len);
		PM_TRY(outbuf_grow(ob, PM_CODEC_LZ4_RAW, err));
	}
}

/* -------------------------------------------------------- lz4 (frame) */

/*
 * Decode lz4 frames (one or more, concatenated) into ob; with fixed set,
 * ob is not grown (the exact-size case).
 */
static pm_code
lz4_frame_run(const void *src, size_t src_len, outbuf *ob, bool fixed, pm_error *err)
{
	LZ4F_dctx  *dctx;
	LZ4F_errorCode_t e;
	const uint8_t *in = src;
	size_t		in_pos = 0;
	size_t		hint = 1;
	pm_code		rc = PM_OK;

	e = LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION);
	if (LZ4F_isError(e))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating an lz4 context");
	if (src_len == 0)
		rc = pm_fail(err, PM_ERR_CORRUPT, "invalid lz4 frame data: empty input");
	while (rc == PM_OK && in_pos < src_len)
	{
		size_t		in_n = src_len - in_pos;
		size_t		out_n;

		if (ob->len == ob->cap)
		{
			if (fixed)
			{
				/* check that no more output would come */
				uint8_t		extra[1];

				out_n = 1;
				hint = LZ4F_decompress(dctx, extra, &out_n, in + in_pos, &in_n, NULL);
				if (LZ4F_isError(hint))
					rc = pm_fail(err, PM_ERR_CORRUPT, "invalid lz4 frame data: %s",
								 LZ4F_getErrorName(hint));
				else if (out_n > 0)
					rc = pm_fail(err, PM_ERR_CORRUPT,
								 "lz4 frame data decompresses to more than %zu bytes",
								 ob->cap);
				else if (in_n == 0)
					rc = pm_fail(err, PM_ERR_CORRUPT, "invalid lz4 frame data: no progress");
				in_pos += in_n;
				continue;
			}
			rc = outbuf_grow(ob, PM_CODEC_LZ4_FRAME, err);
			if (rc != PM_OK)
				break;
		}
		out_n = ob->cap - ob->len;
		hint = LZ4F_decompress(dctx, ob->data + ob->len, &out_n, in + in_pos, &in_n, NULL);
		if (LZ4F_isError(hint))
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "invalid lz4 frame data: %s",
						 LZ4F_getErrorName(hint));
			break;
		}
		if (in_n == 0 && out_n == 0)
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "invalid lz4 frame data: no progress");
			break;
		}
		in_pos += in_n;
		ob->len += out_n;
	}
	/* drain output still buffered in the context */
	while (rc == PM_OK && hint != 0)
	{
		size_t		in_n = 0;
		size_t		out_n;
		uint8_t		extra[1];
		uint8_t    *dst;

		if (ob->len == ob->cap && !fixed)
		{
			rc = outbuf_grow(ob, PM_CODEC_LZ4_FRAME, err);
			if (rc != PM_OK)
				break;
		}
		if (ob->len == ob->cap)
		{
			dst = extra;
			out_n = 1;
		}
		else
		{
			dst = ob->data + ob->len;
			out_n = ob->cap - ob->len;
		}
		hint = LZ4F_decompress(dctx, dst, &out_n, NULL, &in_n, NULL);
		if (LZ4F_isError(hint))
			rc = pm_fail(err, PM_ERR_CORRUPT, "invalid lz4 frame data: %s",
						 LZ4F_getErrorName(hint));
		else if (out_n == 0)
		{
			if (hint != 0)
				rc = pm_fail(err, PM_ERR_CORRUPT, "truncated lz4 frame data");
		}
		else if (dst == extra)
			rc = pm_fail(err, PM_ERR_CORRUPT,
						 "lz4 frame data decompresses to more than %zu bytes", ob->cap);
		else
			ob->len += out_n;
	}
	LZ4F_freeDecompressionContext(dctx);
	return rc;
}

/* --------------------------------------------------- deflate/zlib/gzip */

static int
zlib_window_bits(pm_codec codec)
{
	if (codec == PM_CODEC_DEFLATE)
		return -15;
	if (codec == PM_CODEC_ZLIB)
		return 15;
	return 15 + 16;				/* gzip only */
}

/*
 * Inflate src into ob (grown unless fixed). Gzip may hold several members,
 * decoded one after the other (as gunzip does).
 */
static pm_code
zlib_run(pm_codec codec, const void *src, size_t src_len, outbuf *ob, bool fixed,
		 pm_error *err)
{
	z_stream	zs;
	int			zr;
	pm_code		rc = PM_OK;
	bool		ended = false;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, zlib_window_bits(codec)) != Z_OK)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating a zlib context");
	zs.next_in = (Bytef *) src;

	for (;;)
	{
		size_t		remaining = src_len - (size_t) ((const uint8_t *) zs.next_in - (const uint8_t *) src);
		uInt		in_chunk = remaining > UINT_MAX ? UINT_MAX : (uInt) remaining;
		uint8_t		extra[1];
		bool		use_extra = false;
		uInt		out_chunk;
		uLong		before_out;
		size_t		before_in = remaining;

		if (ended)
		{
			/* another gzip member? (skip trailing zero padding like gzip -d) */
			if (codec != PM_CODEC_GZIP || remaining == 0)
				break;
			if (inflateReset(&zs) != Z_OK)
			{
				rc = pm_fail(err, PM_ERR_CORRUPT, "invalid gzip data");
				break;
			}
			ended = false;
		}
		if (ob->len == ob->cap)
		{
			if (fixed)
				use_extra = true;
			else
			{
				rc = outbuf_grow(ob, codec, err);
				if (rc != PM_OK)
					break;
			}
		}
		zs.avail_in = in_chunk;
		if (use_extra)
		{
			zs.next_out = extra;
			out_chunk = 1;
		}
		else
		{
			size_t		room = ob->cap - ob->len;

			zs.next_out = ob->data + ob->len;
			out_chunk = room > UINT_MAX ? UINT_MAX : (uInt) room;
		}
		zs.avail_out = out_chunk;
		before_out = zs.total_out;
		zr = inflate(&zs, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "invalid %s data: %s", pm_codec_name(codec),
						 zs.msg ? zs.msg : "inflate failed");
			break;
		}
		if (zs.total_out != before_out)
		{
			if (use_extra)
			{
				rc = pm_fail(err, PM_ERR_CORRUPT,
							 "%s data decompresses to more than %zu bytes",
							 pm_codec_name(codec), ob->cap);
				break;
			}
			ob->len += (size_t) (zs.total_out - before_out);
		}
		if (zr == Z_STREAM_END)
		{
			ended = true;
			continue;
		}
		remaining = src_len - (size_t) ((const uint8_t *) zs.next_in - (const uint8_t *) src);
		if (zs.total_out == before_out && remaining == before_in)
		{
			/* no progress: either out of input inside a stream, or stuck */
			rc = pm_fail(err, PM_ERR_CORRUPT, "truncated %s data", pm_codec_name(codec));
			break;
		}
	}
	inflateEnd(&zs);
	return rc;
}

/* ----------------------------------------------------------- interface */

static pm_code
decompress_into(pm_codec codec, const void *src, size_t src_len,
				void *dst, size_t dst_len, pm_error *err)
{
	outbuf		ob;
	pm_code		rc;

	switch (codec)
	{
		case PM_CODEC_NONE:
			if (src_len != dst_len)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "uncompressed data has %zu bytes, expected %zu",
							   src_len, dst_len);
			if (dst_len > 0)
				memcpy(dst, src, dst_len);
			return PM_OK;
		case PM_CODEC_ZSTD:
			return zstd_decompress(src, src_len, dst, dst_len, err);
		case PM_CODEC_SNAPPY:
			return snappy_decompress(src, src_len, dst, dst_len, err);
		case PM_CODEC_LZ4_RAW:
			return lz4_raw_decompress(src, src_len, dst, dst_len, err);
		case PM_CODEC_LZ4_FRAME:
		case PM_CODEC_DEFLATE:
		case PM_CODEC_ZLIB:
		case PM_CODEC_GZIP:
			ob.arena = NULL;
			ob.data = dst;
			ob.len = 0;
			ob.cap = dst_len;
			ob.max_len = dst_len;
			if (codec == PM_CODEC_LZ4_FRAME)
				rc = lz4_frame_run(src, src_len, &ob, true, err);
			else
				rc = zlib_run(codec, src, src_len, &ob, true, err);
			if (rc != PM_OK)
				return rc;
			if (ob.len != dst_len)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "%s data decompresses to %zu bytes, expected %zu",
							   pm_codec_name(codec), ob.len, dst_len);
			return PM_OK;
	}
	return pm_fail(err, PM_ERR_UNSUPPORTED, "unknown compression codec %d", (int) codec);
}

static pm_code
decompress_alloc(pm_codec codec, const void *src, size_t src_len,
				 pm_arena *arena, size_t max_len,
				 uint8_t **out, size_t *out_len, pm_error *err)
{
	outbuf		ob;
	pm_code		rc;

	*out = NULL;
	*out_len = 0;
	if (codec == PM_CODEC_NONE)
	{
		if (src_len > max_len)
			return pm_fail(err, PM_ERR_CORRUPT, "uncompressed data above %zu bytes", max_len);
		PM_TRY(outbuf_init(&ob, arena, max_len, src_len, err));
		if (ob.cap < src_len)
		{
			ob.data = pm_arena_alloc(arena, src_len + 1);
			if (ob.data == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		if (src_len > 0)
			memcpy(ob.data, src, src_len);
		ob.len = src_len;
	}
	else
	{
		if (codec != PM_CODEC_SNAPPY)
			PM_TRY(outbuf_init(&ob, arena, max_len, guess_size(src_len, max_len), err));
		else
			PM_TRY(outbuf_init(&ob, arena, max_len, 0, err));
		switch (codec)
		{
			case PM_CODEC_ZSTD:
				rc = zstd_decompress_alloc(src, src_len, &ob, err);
				break;
			case PM_CODEC_SNAPPY:
				rc = snappy_decompress_alloc(src, src_len, &ob, err);
				break;
			case PM_CODEC_LZ4_RAW:
				rc = lz4_raw_decompress_alloc(src, src_len, &ob, err);
				break;
			case PM_CODEC_LZ4_FRAME:
				rc = lz4_frame_run(src, src_len, &ob, false, err);
				break;
			case PM_CODEC_DEFLATE:
			case PM_CODEC_ZLIB:
			case PM_CODEC_GZIP:
				rc = zlib_run(codec, src, src_len, &ob, false, err);
				break;
			default:
				rc = pm_fail(err, PM_ERR_UNSUPPORTED, "unknown compression codec %d",
							 (int) codec);
				break;
		}
		if (rc != PM_OK)
			return rc;
	}
	*out = ob.data;
	*out_len = ob.len;
	return PM_OK;
}

/* The timed entry points (common/read_timing.h): every decompressed block counts. */
pm_code
pm_codec_decompress(pm_codec codec, const void *src, size_t src_len,
					void *dst, size_t dst_len, pm_error *err)
{
	int64_t		t0 = pm_read_timing_now();
	pm_code		rc = decompress_into(codec, src, src_len, dst, dst_len, err);

	pm_read_timing_add_decompress(t0, (int64_t) dst_len);
	return rc;
}

pm_code
pm_codec_decompress_alloc(pm_codec codec, const void *src, size_t src_len,
						  pm_arena *arena, size_t max_len,
						  uint8_t **out, size_t *out_len, pm_error *err)
{
	int64_t		t0 = pm_read_timing_now();
	pm_code		rc = decompress_alloc(codec, src, src_len, arena, max_len, out, out_len, err);

	pm_read_timing_add_decompress(t0, (int64_t) *out_len);
	return rc;
}

static pm_code
zlib_compress(pm_codec codec, int level, const void *src, size_t src_len,
			  pm_arena *arena, uint8_t **out, size_t *out_len, pm_error *err)
{
	z_stream	zs;
	uLong		bound;
	uint8_t    *buf;
	int			zr;

	if (src_len > UINT_MAX)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "input above 4 GiB for %s", pm_codec_name(codec));
	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, level == 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED,
					 zlib_window_bits(codec), 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return pm_fail(err, PM_ERR_INVALID, "cannot start %s compression at level %d",
					   pm_codec_name(codec), level);
	bound = deflateBound(&zs, (uLong) src_len) + 32;
	buf = pm_arena_alloc(arena, bound);
	if (buf == NULL)
	{
		deflateEnd(&zs);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	zs.next_in = (Bytef *) src;
	zs.avail_in = (uInt) src_len;
	zs.next_out = buf;
	zs.avail_out = (uInt) bound;
	zr = deflate(&zs, Z_FINISH);
	if (zr != Z_STREAM_END)
	{
		deflateEnd(&zs);
		return pm_fail(err, PM_ERR_IO, "%s compression failed", pm_codec_name(codec));
	}
	*out = buf;
	*out_len = zs.total_out;
	deflateEnd(&zs);
	return PM_OK;
}

pm_code
pm_codec_compress(pm_codec codec, int level, const void *src, size_t src_len,
				  pm_arena *arena, uint8_t **out, size_t *out_len, pm_error *err)
{
	uint8_t    *buf;
	size_t		bound;

	*out = NULL;
	*out_len = 0;
	switch (codec)
	{
		case PM_CODEC_NONE:
			buf = pm_arena_alloc(arena, src_len + 1);
			if (buf == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			if (src_len > 0)
				memcpy(buf, src, src_len);
			*out = buf;
			*out_len = src_len;
			return PM_OK;
		case PM_CODEC_ZSTD:
			{
				size_t		r;

				bound = ZSTD_compressBound(src_len);
				if (ZSTD_isError(bound))
					return pm_fail(err, PM_ERR_UNSUPPORTED, "input too large for zstd");
				buf = pm_arena_alloc(arena, bound);
				if (buf == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				r = ZSTD_compress(buf, bound, src, src_len, level);
				if (ZSTD_isError(r))
					return pm_fail(err, PM_ERR_INVALID, "zstd compression failed: %s",
								   ZSTD_getErrorName(r));
				*out = buf;
				*out_len = r;
				return PM_OK;
			}
		case PM_CODEC_SNAPPY:
			{
				size_t		n;

				bound = snappy_max_compressed_length(src_len);
				buf = pm_arena_alloc(arena, bound);
				if (buf == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				n = bound;
				if (snappy_compress(src, src_len, (char *) buf, &n) != SNAPPY_OK)
					return pm_fail(err, PM_ERR_IO, "snappy compression failed");
				*out = buf;
				*out_len = n;
				return PM_OK;
			}
		case PM_CODEC_LZ4_RAW:
			{
				int			n;
				int			b;

				if (src_len > LZ4_MAX_INPUT_SIZE)
					return pm_fail(err, PM_ERR_UNSUPPORTED, "input too large for lz4");
				b = LZ4_compressBound((int) src_len);
				buf = pm_arena_alloc(arena, (size_t) b + 1);
				if (buf == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				if (level > 1)
					n = LZ4_compress_fast(src, (char *) buf, (int) src_len, b, 1);
				else
					n = LZ4_compress_default(src, (char *) buf, (int) src_len, b);
				if (n <= 0 && src_len > 0)
					return pm_fail(err, PM_ERR_IO, "lz4 compression failed");
				*out = buf;
				*out_len = (size_t) (n < 0 ? 0 : n);
				return PM_OK;
			}
		case PM_CODEC_LZ4_FRAME:
			{
				LZ4F_preferences_t prefs;
				size_t		r;

				memset(&prefs, 0, sizeof(prefs));
				prefs.compressionLevel = level;
				prefs.frameInfo.contentSize = src_len;
				bound = LZ4F_compressFrameBound(src_len, &prefs);
				buf = pm_arena_alloc(arena, bound);
				if (buf == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				r = LZ4F_compressFrame(buf, bound, src, src_len, &prefs);
				if (LZ4F_isError(r))
					return pm_fail(err, PM_ERR_IO, "lz4 frame compression failed: %s",
								   LZ4F_getErrorName(r));
				*out = buf;
				*out_len = r;
				return PM_OK;
			}
		case PM_CODEC_DEFLATE:
		case PM_CODEC_ZLIB:
		case PM_CODEC_GZIP:
			return zlib_compress(codec, level, src, src_len, arena, out, out_len, err);
	}
	return pm_fail(err, PM_ERR_UNSUPPORTED, "unknown compression codec %d", (int) codec);
}
