/*-------------------------------------------------------------------------
 * orc_encode.c
 *	  ORC stream encoders (byte RLE, booleans, integer RLE v2, decimal
 *	  varints) and the compression chunk framing, for the ORC writer.
 *
 * Run boundaries follow Java's RunLengthByteWriter for bytes (runs of 3..130
 * equal bytes, literal groups of up to 128); integer runs are cut every 512
 * values (see orc_encode.h for the sub-encodings used).
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_encode.h"

#include <string.h>

/* ---------------------------------------------------------------------
 * Byte run-length encoding
 * --------------------------------------------------------------------- */

#define BYTE_MIN_REPEAT 3
#define BYTE_MAX_REPEAT (127 + BYTE_MIN_REPEAT)
#define BYTE_MAX_LITERAL 128

void
orc_byte_rle_enc_init(orc_byte_rle_enc *e, pm_byte_buffer *out)
{
	memset(e, 0, sizeof(*e));
	e->out = out;
}

static void
byte_write_values(orc_byte_rle_enc *e)
{
	if (e->n == 0)
		return;
	if (e->repeat)
	{
		pm_byte_buffer_put_u8(e->out, (uint8_t) (e->n - BYTE_MIN_REPEAT));
		pm_byte_buffer_put_u8(e->out, e->lit[0]);
	}
	else
	{
		pm_byte_buffer_put_u8(e->out, (uint8_t) (-e->n));
		pm_byte_buffer_append(e->out, e->lit, (size_t) e->n);
	}
	e->repeat = false;
	e->n = 0;
	e->tail = 0;
}

void
orc_byte_rle_enc_put(orc_byte_rle_enc *e, uint8_t v)
{
	if (e->n == 0)
	{
		e->lit[e->n++] = v;
		e->tail = 1;
	}
	else if (e->repeat)
	{
		if (v == e->lit[0])
		{
			if (++e->n == BYTE_MAX_REPEAT)
				byte_write_values(e);
		}
		else
		{
			byte_write_values(e);
			e->lit[e->n++] = v;
			e->tail = 1;
		}
	}
	else
	{
		if (v == e->lit[e->n - 1])
			e->tail++;
		else
			e->tail = 1;
		if (e->tail == BYTE_MIN_REPEAT)
		{
			if (e->n + 1 == BYTE_MIN_REPEAT)
			{
				e->repeat = true;
				e->n++;
			}
			else
			{
				e->n -= BYTE_MIN_REPEAT - 1;
				byte_write_values(e);
				e->lit[0] = v;
				e->repeat = true;
				e->n = BYTE_MIN_REPEAT;
			}
		}
		else
		{
			e->lit[e->n++] = v;
			if (e->n == BYTE_MAX_LITERAL)
				byte_write_values(e);
		}
	}
}

void
orc_byte_rle_enc_flush(orc_byte_rle_enc *e)
{
	byte_write_values(e);
}

/* ---------------------------------------------------------------------
 * Booleans: bits, most significant first, over byte RLE
 * --------------------------------------------------------------------- */

void
orc_bool_enc_init(orc_bool_enc *e, pm_byte_buffer *out)
{
	orc_byte_rle_enc_init(&e->bytes, out);
	e->cur = 0;
	e->nbits = 0;
}

void
orc_bool_enc_put(orc_bool_enc *e, bool v)
{
	if (v)
		e->cur |= (uint8_t) (0x80 >> e->nbits);
	if (++e->nbits == 8)
	{
		orc_byte_rle_enc_put(&e->bytes, e->cur);
		e->cur = 0;
		e->nbits = 0;
	}
}

void
orc_bool_enc_flush(orc_bool_enc *e)
{
	if (e->nbits > 0)
	{
		orc_byte_rle_enc_put(&e->bytes, e->cur);
		e->cur = 0;
		e->nbits = 0;
	}
	orc_byte_rle_enc_flush(&e->bytes);
}

/* ---------------------------------------------------------------------
 * Integer run-length encoding, version 2
 * --------------------------------------------------------------------- */

void
orc_int_rle_enc_init(orc_int_rle_enc *e, pm_byte_buffer *out, bool is_signed)
{
	e->out = out;
	e->is_signed = is_signed;
	e->n = 0;
}

/* RunLengthIntegerWriterV2's getClosestFixedBits */
int
orc_closest_fixed_bits(int n)
{
	if (n == 0)
		return 1;
	if (n <= 24)
		return n;
	if (n <= 26)
		return 26;
	if (n <= 28)
		return 28;
	if (n <= 30)
		return 30;
	if (n <= 32)
		return 32;
	if (n <= 40)
		return 40;
	if (n <= 48)
		return 48;
	if (n <= 56)
		return 56;
	return 64;
}

/* the 5-bit width code of an orc_closest_fixed_bits() width */
static int
encode_bit_width(int n)
{
	if (n <= 24)
		return n - 1;
	switch (n)
	{
		case 26:
			return 24;
		case 28:
			return 25;
		case 30:
			return 26;
		case 32:
			return 27;
		case 40:
			return 28;
		case 48:
			return 29;
		case 56:
			return 30;
		default:
			return 31;
	}
}

static uint64_t
enc_value(const orc_int_rle_enc *e, int64_t v)
{
	return e->is_signed ? pm_zigzag64(v) : (uint64_t) v;
}

static int
bits_of(uint64_t all)
{
	int			bits = 0;

	while (bits < 64 && (all >> bits) != 0)
		bits++;
	return bits;
}

/* big-endian bit packing of count values in `width` bits each */
static void
pack_bits(pm_byte_buffer *out, const uint64_t *v, int count, int width)
{
	uint64_t	acc = 0;
	int			accbits = 0;

	if (!pm_byte_buffer_reserve(out, ((size_t) count * (size_t) width + 7) / 8))
		return;
	for (int i = 0; i < count; i++)
	{
		uint64_t	u = v[i];
		int			left = width;

		/* emit `left` bits of u, most significant first */
		while (left > 0)
		{
			int			take = 8 - accbits < left ? 8 - accbits : left;
			uint64_t	part = (u >> (left - take)) & ((UINT64_C(1) << take) - 1);

			acc = (acc << take) | part;
			accbits += take;
			left -= take;
			if (accbits == 8)
			{
				pm_byte_buffer_put_u8(out, (uint8_t) acc);
				acc = 0;
				accbits = 0;
			}
		}
	}
	if (accbits > 0)
		pm_byte_buffer_put_u8(out, (uint8_t) (acc << (8 - accbits)));
}

static void
put_base(orc_int_rle_enc *e, int64_t v)
{
	if (e->is_signed)
		pm_byte_buffer_put_zigzag(e->out, v);
	else
		pm_byte_buffer_put_uvarint(e->out, (uint64_t) v);
}

/*
 * DELTA for a monotonic run (n >= 3) when it packs narrower than DIRECT:
 * base value, first delta (its sign gives the direction), then the other
 * deltas' magnitudes in a fixed width (none when all deltas are equal).
 * Returns false when the run is not monotonic or DIRECT is as narrow.
 */
static bool
try_delta(orc_int_rle_enc *e, int direct_width)
{
	int			n = e->n;
	int64_t		d0 = 0;
	bool		inc = true,
				dec = true,
				fixed = true;
	uint64_t	maxd = 0;
	int			width;
	uint64_t	mags[ORC_RLE2_MAX];

	if (n < 3)
		return false;
	for (int i = 1; i < n; i++)
	{
		int64_t		d;

		if (__builtin_sub_overflow(e->lit[i], e->lit[i - 1], &d))
			return false;
		if (i == 1)
			d0 = d;
		else if (d != d0)
			fixed = false;
		if (d < 0)
			inc = false;
		if (d > 0)
			dec = false;
		if (i >= 2)
		{
			mags[i - 2] = d < 0 ? (uint64_t) 0 - (uint64_t) d : (uint64_t) d;
			maxd = mags[i - 2] > maxd ? mags[i - 2] : maxd;
		}
	}
	/* the reader takes a zero or positive first delta as increasing */
	if (!(d0 >= 0 ? inc : dec))
		return false;
	if (fixed)
	{
		pm_byte_buffer_put_u8(e->out, (uint8_t) ((3 << 6) | (((n - 1) >> 8) & 1)));
		pm_byte_buffer_put_u8(e->out, (uint8_t) ((n - 1) & 0xff));
		put_base(e, e->lit[0]);
		pm_byte_buffer_put_zigzag(e->out, d0);
		return true;
	}
	width = orc_closest_fixed_bits(bits_of(maxd));
	if (width == 1)
		width = 2;				/* width code 0 means a fixed delta */
	if (width >= direct_width)
		return false;
	pm_byte_buffer_put_u8(e->out, (uint8_t) ((3 << 6) | (encode_bit_width(width) << 1) |
											 (((n - 1) >> 8) & 1)));
	pm_byte_buffer_put_u8(e->out, (uint8_t) ((n - 1) & 0xff));
	put_base(e, e->lit[0]);
	pm_byte_buffer_put_zigzag(e->out, d0);
	pack_bits(e->out, mags, n - 2, width);
	return true;
}

static void
int_write_values(orc_int_rle_enc *e)
{
	int			n = e->n;
	bool		equal = true;

	if (n == 0)
		return;
	for (int i = 1; i < n && equal; i++)
		equal = e->lit[i] == e->lit[0];
	if (equal && n >= 3 && n <= 10)
	{
		/* SHORT_REPEAT: header, then the value big-endian in w bytes */
		uint64_t	u = enc_value(e, e->lit[0]);
		int			w = 1;

		while (w < 8 && (u >> (8 * w)) != 0)
			w++;
		pm_byte_buffer_put_u8(e->out, (uint8_t) (((w - 1) << 3) | (n - 3)));
		for (int i = w - 1; i >= 0; i--)
			pm_byte_buffer_put_u8(e->out, (uint8_t) (u >> (8 * i)));
	}
	else if (equal && n > 10)
	{
		/* DELTA with width 0: base value, then the fixed delta 0 */
		pm_byte_buffer_put_u8(e->out, (uint8_t) ((3 << 6) | (((n - 1) >> 8) & 1)));
		pm_byte_buffer_put_u8(e->out, (uint8_t) ((n - 1) & 0xff));
		put_base(e, e->lit[0]);
		pm_byte_buffer_put_zigzag(e->out, 0);
	}
	else
	{
		uint64_t	all = 0;
		uint64_t	u[ORC_RLE2_MAX];
		int			width;

		for (int i = 0; i < n; i++)
			all |= (u[i] = enc_value(e, e->lit[i]));
		width = orc_closest_fixed_bits(bits_of(all));
		if (!try_delta(e, width))
		{
			/* DIRECT: fixed-width big-endian bit packing */
			pm_byte_buffer_put_u8(e->out, (uint8_t) ((1 << 6) | (encode_bit_width(width) << 1) |
													 (((n - 1) >> 8) & 1)));
			pm_byte_buffer_put_u8(e->out, (uint8_t) ((n - 1) & 0xff));
			pack_bits(e->out, u, n, width);
		}
	}
	e->n = 0;
}

void
orc_int_rle_enc_put(orc_int_rle_enc *e, int64_t v)
{
	e->lit[e->n++] = v;
	if (e->n == ORC_RLE2_MAX)
		int_write_values(e);
}

void
orc_int_rle_enc_flush(orc_int_rle_enc *e)
{
	int_write_values(e);
}

void
orc_put_varint128(pm_byte_buffer *out, __int128 v)
{
	unsigned __int128 u = ((unsigned __int128) v << 1) ^ (unsigned __int128) (v >> 127);

	while (u >= 0x80)
	{
		pm_byte_buffer_put_u8(out, (uint8_t) (u | 0x80));
		u >>= 7;
	}
	pm_byte_buffer_put_u8(out, (uint8_t) u);
}

/* ---------------------------------------------------------------------
 * Compression framing
 * --------------------------------------------------------------------- */

static void
put_chunk_header(pm_byte_buffer *out, size_t len, bool original)
{
	uint32_t	h = (uint32_t) (len << 1) | (original ? 1u : 0u);

	pm_byte_buffer_put_u8(out, (uint8_t) h);
	pm_byte_buffer_put_u8(out, (uint8_t) (h >> 8));
	pm_byte_buffer_put_u8(out, (uint8_t) (h >> 16));
}

pm_code
orc_compress_stream(pm_codec codec, int level, uint64_t block_size, const uint8_t *data,
					size_t len, pm_arena *scratch, pm_byte_buffer *out, pm_error *err)
{
	size_t		pos = 0;

	if (codec == PM_CODEC_NONE)
	{
		pm_byte_buffer_append(out, data, len);
		return PM_OK;
	}
	while (pos < len)
	{
		size_t		n = len - pos < block_size ? len - pos : (size_t) block_size;
		uint8_t    *c;
		size_t		clen;

		PM_TRY(pm_codec_compress(codec, level, data + pos, n, scratch, &c, &clen, err));
		if (clen < n)
		{
			put_chunk_header(out, clen, false);
			pm_byte_buffer_append(out, c, clen);
		}
		else
		{
			put_chunk_header(out, n, true);
			pm_byte_buffer_append(out, data + pos, n);
		}
		pm_arena_reset(scratch);
		pos += n;
	}
	return PM_OK;
}
