/*-------------------------------------------------------------------------
 * parquet_encoding.c
 *	  Parquet level and value encodings: RLE/bit-packed hybrid, legacy
 *	  BIT_PACKED, PLAIN booleans, DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT.
 *
 * Hand-written (no C library decodes Parquet encodings; Arrow's are C++).
 * Hot loops read 8 bytes at a time where the buffer allows and fall back to
 * a zero-padded copy near its end, so no read ever passes `len`.
 *
 * Spec: apache/parquet-format Encodings.md.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_encoding.h"

#include <stdbool.h>
#include <string.h>

static inline uint64_t
load64_padded(const uint8_t *buf, size_t len, size_t at)
{
	uint64_t	w = 0;

	if (at + 8 <= len)
		memcpy(&w, buf + at, 8);
	else if (at < len)
		memcpy(&w, buf + at, len - at);
	return w;
}

static inline bool
read_uleb(const uint8_t *buf, size_t len, size_t *pos, uint64_t *v)
{
	uint64_t	r = 0;

	for (int shift = 0; shift < 64; shift += 7)
	{
		uint8_t		b;

		if (*pos >= len)
			return false;
		b = buf[(*pos)++];
		r |= (uint64_t) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
		{
			*v = r;
			return true;
		}
	}
	return false;
}

/*
 * Unpack `count` values of bw bits (LSB first) from in[0..in_len) starting
 * at value 0. in_len must hold ceil(count * bw / 8) bytes.
 */
#define DEFINE_UNPACK(NAME, T) \
static void \
NAME(const uint8_t *in, size_t in_len, int bw, int64_t count, T *out) \
{ \
	uint64_t	mask = bw >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << bw) - 1); \
	int64_t		fast = 0; \
	if (bw == 0) \
	{ \
		memset(out, 0, sizeof(T) * (size_t) count); \
		return; \
	} \
	if (in_len >= 8) \
	{ \
		/* values whose 8-byte window lies inside the buffer */ \
		fast = (int64_t) (((in_len - 8) * 8) / (size_t) bw); \
		if (fast > count) \
			fast = count; \
	} \
	for (int64_t j = 0; j < fast; j++) \
	{ \
		uint64_t	bit = (uint64_t) j * (uint64_t) bw; \
		uint64_t	w; \
		memcpy(&w, in + (bit >> 3), 8); \
		out[j] = (T) ((w >> (bit & 7)) & mask); \
	} \
	for (int64_t j = fast; j < count; j++) \
	{ \
		uint64_t	bit = (uint64_t) j * (uint64_t) bw; \
		uint64_t	w = load64_padded(in, in_len, (size_t) (bit >> 3)); \
		out[j] = (T) ((w >> (bit & 7)) & mask); \
	} \
}

DEFINE_UNPACK(unpack_u8, uint8_t)
DEFINE_UNPACK(unpack_u32, uint32_t)

#define DEFINE_RLE(NAME, T, UNPACK, MAXBW) \
int64_t \
NAME(const uint8_t *buf, size_t len, int bit_width, int64_t n, T *out, \
	 const char **why) \
{ \
	size_t		pos = 0; \
	int64_t		i = 0; \
	int			vbytes = (bit_width + 7) / 8; \
	if (bit_width < 0 || bit_width > MAXBW) \
	{ \
		*why = "bad bit width"; \
		return -1; \
	} \
	while (i < n) \
	{ \
		uint64_t	h; \
		if (!read_uleb(buf, len, &pos, &h)) \
		{ \
			*why = "truncated rle run header"; \
			return -1; \
		} \
		if (h & 1) \
		{ \
			uint64_t	groups = h >> 1; \
			uint64_t	count = groups * 8; \
			uint64_t	take = count < (uint64_t) (n - i) ? count : (uint64_t) (n - i); \
			uint64_t	need = (take * (uint64_t) bit_width + 7) / 8; \
			uint64_t	run_bytes = groups * (uint64_t) bit_width; \
			size_t		avail = len - pos; \
			if (groups == 0 || groups > ((uint64_t) 1 << 40) || need > avail) \
			{ \
				*why = "truncated bit-packed run"; \
				return -1; \
			} \
			UNPACK(buf + pos, run_bytes < avail ? (size_t) run_bytes : avail, \
				   bit_width, (int64_t) take, out + i); \
			pos += run_bytes < avail ? (size_t) run_bytes : avail; \
			i += (int64_t) take; \
		} \
		else \
		{ \
			uint64_t	count = h >> 1; \
			uint64_t	take = count < (uint64_t) (n - i) ? count : (uint64_t) (n - i); \
			uint32_t	v = 0; \
			if (count == 0 || len - pos < (size_t) vbytes) \
			{ \
				*why = "bad rle run"; \
				return -1; \
			} \
			for (int b = 0; b < vbytes; b++) \
				v |= (uint32_t) buf[pos + b] << (8 * b); \
			pos += (size_t) vbytes; \
			if (bit_width < 32 && (v >> bit_width) != 0) \
			{ \
				*why = "rle value wider than its bit width"; \
				return -1; \
			} \
			for (uint64_t j = 0; j < take; j++) \
				out[i + (int64_t) j] = (T) v; \
			i += (int64_t) take; \
		} \
	} \
	return (int64_t) pos; \
}

DEFINE_RLE(pm_pq_rle_decode_u8, uint8_t, unpack_u8, 8)
DEFINE_RLE(pm_pq_rle_decode_u32, uint32_t, unpack_u32, 32)

int64_t
pm_pq_bitpacked_legacy_decode(const uint8_t *buf, size_t len, int bit_width,
							  int64_t n, uint8_t *out, const char **why)
{
	uint64_t	need = ((uint64_t) n * (uint64_t) bit_width + 7) / 8;

	if (bit_width < 0 || bit_width > 8)
	{
		*why = "bad bit width";
		return -1;
	}
	if (need > len)
	{
		*why = "truncated bit-packed levels";
		return -1;
	}
	for (int64_t i = 0; i < n; i++)
	{
		uint32_t	v = 0;
		uint64_t	bit = (uint64_t) i * (uint64_t) bit_width;

		for (int b = 0; b < bit_width; b++, bit++)
			v = (v << 1) | ((buf[bit >> 3] >> (7 - (bit & 7))) & 1);
		out[i] = (uint8_t) v;
	}
	return (int64_t) need;
}

int64_t
pm_pq_plain_bool_decode(const uint8_t *buf, size_t len, int64_t n, uint8_t *out,
						const char **why)
{
	uint64_t	need = ((uint64_t) n + 7) / 8;

	if (need > len)
	{
		*why = "truncated boolean values";
		return -1;
	}
	for (int64_t i = 0; i < n; i++)
		out[i] = (buf[i >> 3] >> (i & 7)) & 1;
	return (int64_t) need;
}

/* Unpack up to 64-bit wide values (delta miniblocks). */
static void
unpack_u64(const uint8_t *in, size_t in_len, int bw, int64_t count, uint64_t *out)
{
	uint64_t	mask = bw >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << bw) - 1);

	if (bw == 0)
	{
		memset(out, 0, sizeof(uint64_t) * (size_t) count);
		return;
	}
	for (int64_t j = 0; j < count; j++)
	{
		uint64_t	bit = (uint64_t) j * (uint64_t) bw;
		size_t		at = (size_t) (bit >> 3);
		int			shift = (int) (bit & 7);
		uint64_t	v = load64_padded(in, in_len, at) >> shift;

		if (shift + bw > 64 && at + 8 < in_len)
			v |= (uint64_t) in[at + 8] << (64 - shift);
		out[j] = v & mask;
	}
}

int64_t
pm_pq_delta_decode(const uint8_t *buf, size_t len, int64_t max_n, int64_t *out,
				   int64_t *n, const char **why)
{
	size_t		pos = 0;
	uint64_t	block_size,
				nmini,
				total,
				first;
	uint64_t	per_mini;
	uint64_t	last;
	int64_t		i;
	uint64_t	tmp[64];

	if (!read_uleb(buf, len, &pos, &block_size) || !read_uleb(buf, len, &pos, &nmini) ||
		!read_uleb(buf, len, &pos, &total) || !read_uleb(buf, len, &pos, &first))
	{
		*why = "truncated delta header";
		return -1;
	}
	if (block_size == 0 || block_size % 128 != 0 || block_size > (1 << 20) ||
		nmini == 0 || block_size % nmini != 0 || (block_size / nmini) % 32 != 0)
	{
		*why = "bad delta block size";
		return -1;
	}
	if (total > (uint64_t) max_n)
	{
		*why = "delta value count above the page's";
		return -1;
	}
	per_mini = block_size / nmini;
	*n = (int64_t) total;
	if (total == 0)
		return (int64_t) pos;
	last = (first >> 1) ^ -(first & 1);
	out[0] = (int64_t) last;
	i = 1;
	while ((uint64_t) i < total)
	{
		uint64_t	zz;
		uint64_t	min_delta;
		const uint8_t *widths;

		if (!read_uleb(buf, len, &pos, &zz))
		{
			*why = "truncated delta block";
			return -1;
		}
		min_delta = (zz >> 1) ^ -(zz & 1);
		if (len - pos < nmini)
		{
			*why = "truncated delta block";
			return -1;
		}
		widths = buf + pos;
		pos += nmini;
		for (uint64_t m = 0; m < nmini && (uint64_t) i < total; m++)
		{
			int			bw = widths[m];
			uint64_t	left = total - (uint64_t) i;
			uint64_t	take = left < per_mini ? left : per_mini;
			uint64_t	mini_bytes = per_mini * (uint64_t) bw / 8;
			uint64_t	need = (take * (uint64_t) bw + 7) / 8;
			size_t		avail = len - pos;
			size_t		have = mini_bytes < avail ? (size_t) mini_bytes : avail;

			if (bw > 64 || need > avail)
			{
				*why = "bad delta miniblock";
				return -1;
			}
			for (uint64_t done = 0; done < take; done += 64)
			{
				uint64_t	cnt = take - done < 64 ? take - done : 64;
				uint64_t	bit0 = done * (uint64_t) bw;

				/* done is a multiple of 64, so bit0 is byte aligned */
				unpack_u64(buf + pos + bit0 / 8, have - (size_t) (bit0 / 8), bw,
						   (int64_t) cnt, tmp);
				for (uint64_t j = 0; j < cnt; j++)
				{
					last += min_delta + tmp[j];
					out[i++] = (int64_t) last;
				}
			}
			pos += have;
		}
	}
	return (int64_t) pos;
}

int64_t
pm_pq_byte_stream_split_decode(const uint8_t *buf, size_t len, int width, int64_t n,
							   uint8_t *out, const char **why)
{
	uint64_t	need = (uint64_t) n * (uint64_t) width;

	if (width <= 0 || need > len)
	{
		*why = "truncated byte-stream-split values";
		return -1;
	}
	for (int b = 0; b < width; b++)
	{
		const uint8_t *stream = buf + (size_t) b * (size_t) n;

		for (int64_t i = 0; i < n; i++)
			out[(size_t) i * (size_t) width + (size_t) b] = stream[i];
	}
	return (int64_t) need;
}
