/*-------------------------------------------------------------------------
 * orc_stream.c
 *	  ORC stream decoding: the compression chunk framing, byte and boolean
 *	  run-length encoding, integer run-length encoding versions 1 and 2
 *	  (short repeat, direct, patched base, delta) and 128-bit varints.
 *
 * Hand-written: no C library implements ORC's encodings (the Apache ORC
 * C++ library is C++ and not installed). Decompression itself goes through
 * codec/codec.h. Every decoder reads from a bounded (p, end) buffer and
 * fails with PM_ERR_CORRUPT when a run claims more bytes than remain; runs
 * are decoded into a caller-provided buffer of ORC_MAX_RUN values, never
 * allocated per value.
 *
 * Spec: ORC v1 specification, "Compression", "Run Length Encoding";
 * Java reference org.apache.orc.impl.RunLengthIntegerReaderV2.
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_int.h"
#include "format/orc/orc_encode.h"

#include <string.h>

static pm_code
exhausted(pm_error *err)
{
	return pm_fail(err, PM_ERR_CORRUPT, "orc stream ends before its values");
}

/* ---------------------------------------------------------------------
 * Compression framing: each chunk has a 3-byte little-endian header,
 * (length << 1) | original. Original chunks are stored uncompressed.
 * ---------------------------------------------------------------------
 */
static pm_codec
codec_of(int compression)
{
	switch (compression)
	{
		case ORC_C_ZLIB:
			return PM_CODEC_DEFLATE;
		case ORC_C_SNAPPY:
			return PM_CODEC_SNAPPY;
		case ORC_C_LZ4:
			return PM_CODEC_LZ4_RAW;
		case ORC_C_ZSTD:
			return PM_CODEC_ZSTD;
		default:
			return PM_CODEC_NONE;
	}
}

typedef struct chunk
{
	const uint8_t *p;
	size_t		len;
} chunk;

pm_code
orc_decompress_stream(int compression, uint64_t block_size, const uint8_t *buf,
					  size_t len, pm_arena *arena, size_t max_out,
					  const uint8_t **out, size_t *out_len, pm_error *err)
{
	size_t		nchunks = 0,
				pos = 0,
				total = 0;
	chunk	   *chunks;
	uint8_t    *dst;

	if (compression == ORC_C_NONE)
	{
		*out = buf;
		*out_len = len;
		return PM_OK;
	}
	if (compression == ORC_C_LZO)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "orc compression lzo is not supported");
	if (codec_of(compression) == PM_CODEC_NONE)
		return pm_fail(err, PM_ERR_CORRUPT, "unknown orc compression kind %d", compression);
	if (block_size == 0 || block_size > (64 << 20))
		return pm_fail(err, PM_ERR_CORRUPT, "invalid orc compression block size %llu",
					   (unsigned long long) block_size);

	/* count chunks and validate their headers */
	while (pos < len)
	{
		size_t		clen;

		if (len - pos < 3)
			return pm_fail(err, PM_ERR_CORRUPT, "truncated orc compression chunk header");
		clen = (size_t) (buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16)) >> 1;
		pos += 3;
		if (clen > len - pos)
			return pm_fail(err, PM_ERR_CORRUPT, "orc compression chunk exceeds its stream");
		pos += clen;
		nchunks++;
	}
	*out = buf;
	*out_len = 0;
	if (nchunks == 0)
		return PM_OK;
	chunks = pm_arena_alloc(arena, sizeof(chunk) * nchunks);
	if (chunks == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory decompressing orc stream");
	pos = 0;
	for (size_t i = 0; i < nchunks; i++)
	{
		uint32_t	h = buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16);
		size_t		clen = h >> 1;

		pos += 3;
		if (h & 1)
		{
			chunks[i].p = buf + pos;
			chunks[i].len = clen;
		}
		else
		{
			uint8_t    *o;
			size_t		olen;

			PM_TRY(pm_codec_decompress_alloc(codec_of(compression), buf + pos, clen,
											 arena, (size_t) block_size, &o, &olen, err));
			chunks[i].p = o;
			chunks[i].len = olen;
		}
		if (chunks[i].len > block_size && !(h & 1))
			return pm_fail(err, PM_ERR_CORRUPT, "orc chunk larger than the block size");
		pos += clen;
		total += chunks[i].len;
		if (total > max_out)
			return pm_fail(err, PM_ERR_CORRUPT, "orc stream decompresses beyond %zu bytes",
						   max_out);
	}
	if (nchunks == 1)
	{
		*out = chunks[0].p;
		*out_len = chunks[0].len;
		return PM_OK;
	}
	dst = pm_arena_alloc(arena, total + 1);
	if (dst == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory decompressing orc stream");
	pos = 0;
	for (size_t i = 0; i < nchunks; i++)
	{
		if (chunks[i].len > 0)
			memcpy(dst + pos, chunks[i].p, chunks[i].len);
		pos += chunks[i].len;
	}
	*out = dst;
	*out_len = total;
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Byte RLE: control byte c < 0x80: run of c + 3 copies of the next byte;
 * else 0x100 - c literal bytes follow.
 * ---------------------------------------------------------------------
 */
void
orc_byte_rle_init(orc_byte_rle *d, const uint8_t *p, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->in.p = p;
	d->in.end = p + len;
}

pm_code
orc_byte_rle_read(orc_byte_rle *d, uint8_t *out, int64_t n, pm_error *err)
{
	while (n > 0)
	{
		int64_t		take;

		if (d->remaining == 0)
		{
			uint8_t		c;

			if (d->in.p >= d->in.end)
				return exhausted(err);
			c = *d->in.p++;
			if (c < 0x80)
			{
				if (d->in.p >= d->in.end)
					return exhausted(err);
				d->repeat = true;
				d->remaining = c + 3;
				d->value = *d->in.p++;
			}
			else
			{
				d->repeat = false;
				d->remaining = 0x100 - c;
				if (d->in.end - d->in.p < d->remaining)
					return exhausted(err);
			}
		}
		take = n < d->remaining ? n : d->remaining;
		if (d->repeat)
			memset(out, d->value, (size_t) take);
		else
		{
			memcpy(out, d->in.p, (size_t) take);
			d->in.p += take;
		}
		out += take;
		n -= take;
		d->remaining -= (int) take;
	}
	return PM_OK;
}

/* Booleans: byte RLE of bytes holding 8 values each, most significant bit first. */
void
orc_bool_rle_init(orc_bool_rle *d, const uint8_t *p, size_t len)
{
	orc_byte_rle_init(&d->bytes, p, len);
	d->cur = 0;
	d->bits_left = 0;
}

pm_code
orc_bool_rle_read(orc_bool_rle *d, uint8_t *out, int64_t n, pm_error *err)
{
	int64_t		i = 0;

	while (i < n)
	{
		if (d->bits_left == 0)
		{
			/* whole bytes at once when aligned */
			while (n - i >= 8)
			{
				uint8_t		b;

				PM_TRY(orc_byte_rle_read(&d->bytes, &b, 1, err));
				for (int k = 0; k < 8; k++)
					out[i + k] = (b >> (7 - k)) & 1;
				i += 8;
			}
			if (i == n)
				break;
			PM_TRY(orc_byte_rle_read(&d->bytes, &d->cur, 1, err));
			d->bits_left = 8;
		}
		out[i++] = (d->cur >> 7) & 1;
		d->cur <<= 1;
		d->bits_left--;
	}
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Integer RLE
 * ---------------------------------------------------------------------
 */
void
orc_int_rle_init(orc_int_rle *d, const uint8_t *p, size_t len, bool v2, bool is_signed)
{
	d->in.p = p;
	d->in.end = p + len;
	d->v2 = v2;
	d->is_signed = is_signed;
	d->nlit = 0;
	d->pos = 0;
}

static inline int64_t
unzigzag(uint64_t v)
{
	return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

static bool
read_uvarint(orc_bytes *in, uint64_t *v)
{
	uint64_t	r = 0;

	for (int shift = 0; shift < 64; shift += 7)
	{
		uint8_t		c;

		if (in->p >= in->end)
			return false;
		c = *in->p++;
		r |= (uint64_t) (c & 0x7f) << shift;
		if ((c & 0x80) == 0)
		{
			*v = r;
			return true;
		}
	}
	return false;
}

static bool
read_varint(orc_bytes *in, bool is_signed, int64_t *v)
{
	uint64_t	u;

	if (!read_uvarint(in, &u))
		return false;
	*v = is_signed ? unzigzag(u) : (int64_t) u;
	return true;
}

pm_code
orc_read_varint128(orc_bytes *in, __int128 *out, pm_error *err)
{
	unsigned __int128 r = 0;

	for (int shift = 0; shift < 128; shift += 7)
	{
		uint8_t		c;

		if (in->p >= in->end)
			return exhausted(err);
		c = *in->p++;
		r |= (unsigned __int128) (c & 0x7f) << shift;
		if ((c & 0x80) == 0)
		{
			*out = (__int128) (r >> 1) ^ -(__int128) (r & 1);
			return PM_OK;
		}
	}
	return pm_fail(err, PM_ERR_CORRUPT, "orc decimal varint longer than 128 bits");
}

/* RLE v1: c < 0x80: run of c + 3 values, signed byte delta, varint base; else literals */
static pm_code
next_run_v1(orc_int_rle *d, pm_error *err)
{
	uint8_t		c;

	if (d->in.p >= d->in.end)
		return exhausted(err);
	c = *d->in.p++;
	d->pos = 0;
	if (c < 0x80)
	{
		int8_t		delta;
		int64_t		base;

		if (d->in.p >= d->in.end)
			return exhausted(err);
		delta = (int8_t) *d->in.p++;
		if (!read_varint(&d->in, d->is_signed, &base))
			return exhausted(err);
		d->nlit = c + 3;
		for (int i = 0; i < d->nlit; i++)
			d->lit[i] = (int64_t) ((uint64_t) base + (uint64_t) ((int64_t) i * delta));
	}
	else
	{
		d->nlit = 0x100 - c;
		for (int i = 0; i < d->nlit; i++)
			if (!read_varint(&d->in, d->is_signed, &d->lit[i]))
				return exhausted(err);
	}
	return PM_OK;
}

/* 5-bit width code of RLE v2 to a bit width */
static int
decode_width(int code)
{
	static const int wide[] = {26, 28, 30, 32, 40, 48, 56, 64};

	return code < 24 ? code + 1 : wide[code - 24];
}

/* Unpack n big-endian values of `width` bits, starting byte-aligned. */
static pm_code
unpack(orc_bytes *in, int64_t *out, int n, int width, pm_error *err)
{
	uint64_t	bits = (uint64_t) n * (uint64_t) width;
	size_t		bytes = (size_t) ((bits + 7) / 8);
	const uint8_t *p = in->p;
	int			avail = 0;		/* bits held in acc */
	unsigned __int128 acc = 0;

	if ((size_t) (in->end - in->p) < bytes)
		return exhausted(err);
	for (int i = 0; i < n; i++)
	{
		while (avail < width)
		{
			acc = (acc << 8) | *p++;
			avail += 8;
		}
		avail -= width;
		out[i] = (int64_t) (uint64_t) ((acc >> avail) &
									   (width == 64 ? ~(uint64_t) 0 :
										(((uint64_t) 1 << width) - 1)));
		acc &= (((unsigned __int128) 1) << avail) - 1;
	}
	in->p += bytes;
	return PM_OK;
}

static pm_code
read_be(orc_bytes *in, int nbytes, uint64_t *v, pm_error *err)
{
	uint64_t	r = 0;

	if (in->end - in->p < nbytes)
		return exhausted(err);
	for (int i = 0; i < nbytes; i++)
		r = (r << 8) | *in->p++;
	*v = r;
	return PM_OK;
}

static pm_code
patched_base(orc_int_rle *d, uint8_t first, pm_error *err)
{
	int			width = decode_width((first >> 1) & 0x1f);
	int			len;
	uint8_t		b2,
				b3;
	int			base_bytes,
				patch_width,
				gap_width,
				npatch,
				cfb;
	uint64_t	ubase;
	int64_t		base;
	int64_t		patches[32];
	int			pidx = 0;
	int64_t		gap = 0,
				patch = 0;
	uint64_t	pmask;

	if (d->in.end - d->in.p < 3)
		return exhausted(err);
	len = (((first & 1) << 8) | *d->in.p++) + 1;
	b2 = *d->in.p++;
	b3 = *d->in.p++;
	base_bytes = ((b2 >> 5) & 7) + 1;
	patch_width = decode_width(b2 & 0x1f);
	gap_width = ((b3 >> 5) & 7) + 1;
	npatch = b3 & 0x1f;
	if (patch_width + gap_width > 64 || npatch == 0)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid orc patched base run");
	PM_TRY(read_be(&d->in, base_bytes, &ubase, err));
	{
		uint64_t	sign = (uint64_t) 1 << (base_bytes * 8 - 1);

		if (ubase & sign)
			base = -(int64_t) (ubase & ~sign);
		else
			base = (int64_t) ubase;
	}
	PM_TRY(unpack(&d->in, d->lit, len, width, err));
	cfb = orc_closest_fixed_bits(patch_width + gap_width);
	PM_TRY(unpack(&d->in, patches, npatch, cfb, err));
	pmask = patch_width == 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << patch_width) - 1);

#define NEXT_PATCH() \
	do { \
		gap = 0; \
		for (;;) \
		{ \
			int64_t g_ = (int64_t) ((uint64_t) patches[pidx] >> patch_width); \
			patch = (int64_t) ((uint64_t) patches[pidx] & pmask); \
			if (g_ == 255 && patch == 0 && pidx + 1 < npatch) \
			{ \
				gap += 255; \
				pidx++; \
				continue; \
			} \
			gap += g_; \
			break; \
		} \
	} while (0)

	NEXT_PATCH();
	for (int i = 0; i < len; i++)
	{
		if (i == gap && pidx < npatch)
		{
			uint64_t	v = (uint64_t) d->lit[i];

			if (width < 64)
				v |= (uint64_t) patch << width;
			d->lit[i] = (int64_t) ((uint64_t) base + v);
			pidx++;
			if (pidx < npatch)
			{
				NEXT_PATCH();
				gap += i;
			}
		}
		else
			d->lit[i] = (int64_t) ((uint64_t) base + (uint64_t) d->lit[i]);
	}
#undef NEXT_PATCH
	d->nlit = len;
	return PM_OK;
}

static pm_code
next_run_v2(orc_int_rle *d, pm_error *err)
{
	uint8_t		first;
	int			enc;

	if (d->in.p >= d->in.end)
		return exhausted(err);
	first = *d->in.p++;
	enc = first >> 6;
	d->pos = 0;
	if (enc == 0)
	{
		/* short repeat: width bytes (3 bits), count - 3 (3 bits) */
		int			nbytes = ((first >> 3) & 7) + 1;
		int			count = (first & 7) + 3;
		uint64_t	v;
		int64_t		sv;

		PM_TRY(read_be(&d->in, nbytes, &v, err));
		sv = d->is_signed ? unzigzag(v) : (int64_t) v;
		for (int i = 0; i < count; i++)
			d->lit[i] = sv;
		d->nlit = count;
	}
	else if (enc == 1)
	{
		/* direct */
		int			width = decode_width((first >> 1) & 0x1f);
		int			len;

		if (d->in.p >= d->in.end)
			return exhausted(err);
		len = (((first & 1) << 8) | *d->in.p++) + 1;
		PM_TRY(unpack(&d->in, d->lit, len, width, err));
		if (d->is_signed)
			for (int i = 0; i < len; i++)
				d->lit[i] = unzigzag((uint64_t) d->lit[i]);
		d->nlit = len;
	}
	else if (enc == 2)
		return patched_base(d, first, err);
	else
	{
		/* delta */
		int			code = (first >> 1) & 0x1f;
		int			width = code == 0 ? 0 : decode_width(code);
		int			len;
		int64_t		base,
					delta;

		if (d->in.p >= d->in.end)
			return exhausted(err);
		len = ((first & 1) << 8) | *d->in.p++;	/* run length - 1 */
		if (!read_varint(&d->in, d->is_signed, &base) ||
			!read_varint(&d->in, true, &delta))
			return exhausted(err);
		d->lit[0] = base;
		if (width == 0)
		{
			for (int i = 1; i <= len; i++)
				d->lit[i] = (int64_t) ((uint64_t) d->lit[i - 1] + (uint64_t) delta);
		}
		else
		{
			if (len < 1)
				return pm_fail(err, PM_ERR_CORRUPT, "invalid orc delta run");
			d->lit[1] = (int64_t) ((uint64_t) base + (uint64_t) delta);
			PM_TRY(unpack(&d->in, d->lit + 2, len - 1, width, err));
			for (int i = 2; i <= len; i++)
			{
				if (delta < 0)
					d->lit[i] = (int64_t) ((uint64_t) d->lit[i - 1] - (uint64_t) d->lit[i]);
				else
					d->lit[i] = (int64_t) ((uint64_t) d->lit[i - 1] + (uint64_t) d->lit[i]);
			}
		}
		d->nlit = len + 1;
	}
	return PM_OK;
}

pm_code
orc_int_rle_read(orc_int_rle *d, int64_t *out, int64_t n, pm_error *err)
{
	while (n > 0)
	{
		int64_t		take;

		if (d->pos >= d->nlit)
			PM_TRY(d->v2 ? next_run_v2(d, err) : next_run_v1(d, err));
		take = d->nlit - d->pos;
		if (take > n)
			take = n;
		memcpy(out, d->lit + d->pos, sizeof(int64_t) * (size_t) take);
		d->pos += (int) take;
		out += take;
		n -= take;
	}
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Seeks to row-group positions (RowIndexEntry)
 * ---------------------------------------------------------------------
 */
pm_code
orc_byte_rle_seek(orc_byte_rle *d, const uint8_t *p, size_t len, uint64_t off, uint64_t skip,
				  pm_error *err)
{
	uint8_t		scratch[256];

	if (off > len)
		return pm_fail(err, PM_ERR_CORRUPT, "orc row index position past its stream");
	orc_byte_rle_init(d, p + off, len - off);
	while (skip > 0)
	{
		uint64_t	n = skip < sizeof(scratch) ? skip : sizeof(scratch);

		PM_TRY(orc_byte_rle_read(d, scratch, (int64_t) n, err));
		skip -= n;
	}
	return PM_OK;
}

pm_code
orc_bool_rle_seek(orc_bool_rle *d, const uint8_t *p, size_t len, uint64_t off, uint64_t skip,
				  uint64_t bits, pm_error *err)
{
	PM_TRY(orc_byte_rle_seek(&d->bytes, p, len, off, skip, err));
	d->cur = 0;
	d->bits_left = 0;
	if (bits > 8)
		return pm_fail(err, PM_ERR_CORRUPT, "orc row index position past a boolean byte");
	if (bits > 0)
	{
		PM_TRY(orc_byte_rle_read(&d->bytes, &d->cur, 1, err));
		d->cur = (uint8_t) (d->cur << bits);
		d->bits_left = 8 - (int) bits;
	}
	return PM_OK;
}

pm_code
orc_int_rle_seek(orc_int_rle *d, const uint8_t *p, size_t len, uint64_t off, uint64_t skip,
				 pm_error *err)
{
	if (off > len)
		return pm_fail(err, PM_ERR_CORRUPT, "orc row index position past its stream");
	orc_int_rle_init(d, p + off, len - off, d->v2, d->is_signed);
	while (skip > 0)
	{
		uint64_t	take;

		if (d->pos >= d->nlit)
			PM_TRY(d->v2 ? next_run_v2(d, err) : next_run_v1(d, err));
		take = (uint64_t) (d->nlit - d->pos);
		if (take > skip)
			take = skip;
		d->pos += (int) take;
		skip -= take;
	}
	return PM_OK;
}
