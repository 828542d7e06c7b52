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
 * Unpack values [j0, count) of bw bits (LSB first) from in[0..in_len),
 * one unaligned 8-byte window per value. in_len must hold
 * ceil(count * bw / 8) bytes.
 */
#define DEFINE_UNPACK_GENERIC(NAME, T) \
static void \
NAME(const uint8_t *in, size_t in_len, int bw, int64_t j0, int64_t count, T *out) \
{ \
	uint64_t	mask = bw >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << bw) - 1); \
	int64_t		fast = j0; \
	if (in_len >= 8) \
	{ \
		/* values whose 8-byte window lies inside the buffer */ \
		fast = (int64_t) (((in_len - 8) * 8) / (size_t) bw); \
		if (fast > count) \
			fast = count; \
		if (fast < j0) \
			fast = j0; \
	} \
	for (int64_t j = j0; j < fast; j++) \
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

DEFINE_UNPACK_GENERIC(unpack_generic_u8, uint8_t)
DEFINE_UNPACK_GENERIC(unpack_generic_u32, uint32_t)

/*
 * Whole groups of 8 values (bw bytes each) with bw a compile-time constant
 * at each call site below: every value is one load, a constant shift and a
 * constant mask, and the 8 values of a group are unrolled. Only groups whose
 * last 8-byte window ends inside the buffer.
 */
#define DEFINE_UNPACK_GROUPS(NAME, T) \
static inline __attribute__((always_inline)) void \
NAME(const uint8_t *in, int64_t ngroups, const int bw, T *out) \
{ \
	const uint64_t mask = ((uint64_t) 1 << bw) - 1; \
	for (int64_t g = 0; g < ngroups; g++, in += bw, out += 8) \
		_Pragma("GCC unroll 8") \
		for (int j = 0; j < 8; j++) \
		{ \
			uint64_t	w; \
			memcpy(&w, in + (j * bw) / 8, 8); \
			out[j] = (T) ((w >> ((j * bw) & 7)) & mask); \
		} \
}

DEFINE_UNPACK_GROUPS(unpack_groups_u8, uint8_t)
DEFINE_UNPACK_GROUPS(unpack_groups_u32, uint32_t)

/* Groups [0, n) of a bit-packed run whose windows stay inside in_len bytes. */
static inline int64_t
fast_groups(size_t in_len, int bw, int64_t count)
{
	size_t		tail = (size_t) (7 * bw) / 8 + 8;	/* last window of a group */
	int64_t		g;

	if (in_len < tail)
		return 0;
	g = (int64_t) ((in_len - tail) / (size_t) bw) + 1;
	return g < count / 8 ? g : count / 8;
}

#define UNPACK_CASE(FN, BW) \
	case BW: FN(in, g, BW, out); break;

static void
unpack_u8(const uint8_t *in, size_t in_len, int bw, int64_t count, uint8_t *out)
{
	int64_t		g;

	if (bw == 0)
	{
		memset(out, 0, (size_t) count);
		return;
	}
	g = fast_groups(in_len, bw, count);
	switch (bw)
	{
			UNPACK_CASE(unpack_groups_u8, 1)
			UNPACK_CASE(unpack_groups_u8, 2)
			UNPACK_CASE(unpack_groups_u8, 3)
			UNPACK_CASE(unpack_groups_u8, 4)
			UNPACK_CASE(unpack_groups_u8, 5)
			UNPACK_CASE(unpack_groups_u8, 6)
			UNPACK_CASE(unpack_groups_u8, 7)
			UNPACK_CASE(unpack_groups_u8, 8)
		default:
			g = 0;
	}
	unpack_generic_u8(in, in_len, bw, g * 8, count, out);
}

static void
unpack_u32(const uint8_t *in, size_t in_len, int bw, int64_t count, uint32_t *out)
{
	int64_t		g;

	if (bw == 0)
	{
		memset(out, 0, sizeof(uint32_t) * (size_t) count);
		return;
	}
	g = fast_groups(in_len, bw, count);
	switch (bw)
	{
			UNPACK_CASE(unpack_groups_u32, 1)
			UNPACK_CASE(unpack_groups_u32, 2)
			UNPACK_CASE(unpack_groups_u32, 3)
			UNPACK_CASE(unpack_groups_u32, 4)
			UNPACK_CASE(unpack_groups_u32, 5)
			UNPACK_CASE(unpack_groups_u32, 6)
			UNPACK_CASE(unpack_groups_u32, 7)
			UNPACK_CASE(unpack_groups_u32, 8)
			UNPACK_CASE(unpack_groups_u32, 9)
			UNPACK_CASE(unpack_groups_u32, 10)
			UNPACK_CASE(unpack_groups_u32, 11)
			UNPACK_CASE(unpack_groups_u32, 12)
			UNPACK_CASE(unpack_groups_u32, 13)
			UNPACK_CASE(unpack_groups_u32, 14)
			UNPACK_CASE(unpack_groups_u32, 15)
			UNPACK_CASE(unpack_groups_u32, 16)
			UNPACK_CASE(unpack_groups_u32, 17)
			UNPACK_CASE(unpack_groups_u32, 18)
			UNPACK_CASE(unpack_groups_u32, 19)
			UNPACK_CASE(unpack_groups_u32, 20)
			UNPACK_CASE(unpack_groups_u32, 21)
			UNPACK_CASE(unpack_groups_u32, 22)
			UNPACK_CASE(unpack_groups_u32, 23)
			UNPACK_CASE(unpack_groups_u32, 24)
			UNPACK_CASE(unpack_groups_u32, 25)
			UNPACK_CASE(unpack_groups_u32, 26)
			UNPACK_CASE(unpack_groups_u32, 27)
			UNPACK_CASE(unpack_groups_u32, 28)
			UNPACK_CASE(unpack_groups_u32, 29)
			UNPACK_CASE(unpack_groups_u32, 30)
			UNPACK_CASE(unpack_groups_u32, 31)
			UNPACK_CASE(unpack_groups_u32, 32)
		default:
			g = 0;
	}
	unpack_generic_u32(in, in_len, bw, g * 8, count, out);
}

/* Largest of n values (dictionary index checks). */
static uint32_t
max_u8(const uint8_t *v, int64_t n)
{
	uint8_t		m = 0;

	for (int64_t i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

static uint32_t
max_u32(const uint32_t *v, int64_t n)
{
	uint32_t	m0 = 0,
				m1 = 0,
				m2 = 0,
				m3 = 0;
	int64_t		i = 0;

	for (; i + 4 <= n; i += 4)
	{
		m0 = v[i] > m0 ? v[i] : m0;
		m1 = v[i + 1] > m1 ? v[i + 1] : m1;
		m2 = v[i + 2] > m2 ? v[i + 2] : m2;
		m3 = v[i + 3] > m3 ? v[i + 3] : m3;
	}
	for (; i < n; i++)
		m0 = v[i] > m0 ? v[i] : m0;
	m0 = m1 > m0 ? m1 : m0;
	m2 = m3 > m2 ? m3 : m2;
	return m2 > m0 ? m2 : m0;
}

/*
 * Whether any of n values exceeds lim: the common case of the index check,
 * one compare and an OR per value (no dependency chain through a running
 * maximum, so the loop vectorizes to a compare and an OR per register).
 */
static bool
above_u8(const uint8_t *v, int64_t n, uint32_t lim)
{
	uint8_t		bad = 0;

	for (int64_t i = 0; i < n; i++)
		bad |= (uint8_t) (v[i] > lim);
	return bad != 0;
}

typedef int32_t pm_i32x4 __attribute__((vector_size(16)));

static bool
above_u32(const uint32_t *v, int64_t n, uint32_t lim)
{
	/* unsigned order as signed order of the values with the top bit flipped */
	const int32_t slim = (int32_t) (lim ^ 0x80000000u);
	const pm_i32x4 flip = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
	pm_i32x4	acc0 = {0},
				acc1 = {0};
	uint32_t	bad = 0;
	int64_t		i = 0;

	/* eight at a time, as two vectors of four (SSE2 on x86-64) */
	for (; i + 8 <= n; i += 8)
	{
		pm_i32x4	x0,
					x1;

		memcpy(&x0, v + i, sizeof(x0));
		memcpy(&x1, v + i + 4, sizeof(x1));
		acc0 |= (x0 ^ flip) > slim;
		acc1 |= (x1 ^ flip) > slim;
	}
	acc0 |= acc1;
	bad = (uint32_t) (acc0[0] | acc0[1] | acc0[2] | acc0[3]);
	for (; i < n; i++)
		bad |= (uint32_t) (v[i] > lim);
	return bad != 0;
}

/*
 * The hybrid decoder; *max (when given) gets the largest value decoded
 * (bit-packed runs: only computed when their width can exceed max_ok).
 * Values before skip need not be written (runs wholly before it are only
 * walked over; a bit-packed run reaching past it is unpacked from the
 * 8-value group holding it), and only those written count in *max.
 */
#define DEFINE_RLE(NAME, T, UNPACK, ABOVEFN, MAXFN, MAXBW) \
static int64_t \
NAME(const uint8_t *buf, size_t len, int bit_width, int64_t n, T *out, \
	 uint32_t max_ok, uint32_t *max, int64_t skip, const char **why) \
{ \
	size_t		pos = 0; \
	int64_t		i = 0; \
	int			vbytes = (bit_width + 7) / 8; \
	uint32_t	mx = 0; \
	bool		check = max != NULL && bit_width > 0 && \
		(bit_width >= 32 || ((uint64_t) 1 << bit_width) - 1 > (uint64_t) max_ok); \
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
			if (i + (int64_t) take > skip) \
			{ \
				/* whole groups before skip are passed over */ \
				uint64_t	g0 = skip > i ? (uint64_t) (skip - i) / 8 : 0; \
				size_t		off = (size_t) (g0 * (uint64_t) bit_width); \
				/* windows may read past the run, never past the buffer */ \
				UNPACK(buf + pos + off, avail - off, bit_width, \
					   (int64_t) (take - g0 * 8), out + i + (int64_t) (g0 * 8)); \
				if (check && ABOVEFN(out + i + (int64_t) (g0 * 8), \
									 (int64_t) (take - g0 * 8), max_ok)) \
				{ \
					uint32_t	m = MAXFN(out + i + (int64_t) (g0 * 8), \
										  (int64_t) (take - g0 * 8)); \
					mx = m > mx ? m : mx; \
				} \
			} \
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
			if (i + (int64_t) take > skip) \
			{ \
				uint64_t	j0 = skip > i ? (uint64_t) (skip - i) : 0; \
				mx = v > mx ? v : mx; \
				for (uint64_t j = j0; j < take; j++) \
					out[i + (int64_t) j] = (T) v; \
			} \
			i += (int64_t) take; \
		} \
	} \
	if (max != NULL) \
		*max = mx; \
	return (int64_t) pos; \
}

DEFINE_RLE(rle_decode_u8, uint8_t, unpack_u8, above_u8, max_u8, 8)
DEFINE_RLE(rle_decode_u32, uint32_t, unpack_u32, above_u32, max_u32, 32)

int64_t
pm_pq_rle_decode_u8(const uint8_t *buf, size_t len, int bit_width, int64_t n, uint8_t *out,
					const char **why)
{
	return rle_decode_u8(buf, len, bit_width, n, out, 0, NULL, 0, why);
}

int64_t
pm_pq_rle_decode_u32(const uint8_t *buf, size_t len, int bit_width, int64_t n, uint32_t *out,
					 const char **why)
{
	return rle_decode_u32(buf, len, bit_width, n, out, 0, NULL, 0, why);
}

int64_t
pm_pq_rle_decode_u32_below(const uint8_t *buf, size_t len, int bit_width, int64_t n,
						   uint32_t *out, uint32_t limit, const char **why)
{
	return pm_pq_rle_decode_u32_below_from(buf, len, bit_width, 0, n, out, limit, why);
}

int64_t
pm_pq_rle_decode_u32_below_from(const uint8_t *buf, size_t len, int bit_width, int64_t skip,
								int64_t n, uint32_t *out, uint32_t limit, const char **why)
{
	uint32_t	mx = 0;
	int64_t		r;

	if (n > skip && limit == 0)
	{
		*why = "dictionary index out of range";
		return -1;
	}
	r = rle_decode_u32(buf, len, bit_width, n, out, limit - 1, &mx, skip, why);
	if (r >= 0 && n > skip && mx >= limit)
	{
		*why = "dictionary index out of range";
		return -1;
	}
	return r;
}

int
pm_pq_rle_run_marks(const uint8_t *buf, size_t len, int bit_width, int every,
					pm_pq_run_mark *marks, int cap)
{
	size_t		pos = 0;
	uint64_t	i = 0;
	uint64_t	last = 0;
	int			nm = 0;

	if (bit_width < 0 || bit_width > 32 || cap <= 0)
		return 0;
	marks[nm++] = (pm_pq_run_mark) {0, 0};
	while (pos < len && nm < cap)
	{
		size_t		at = pos;
		uint64_t	h;
		uint64_t	count;
		uint64_t	bytes;

		if (!read_uleb(buf, len, &pos, &h))
			break;
		count = (h >> 1) * ((h & 1) ? 8 : 1);
		bytes = (h & 1) ? (h >> 1) * (uint64_t) bit_width : (uint64_t) (bit_width + 7) / 8;
		if (count == 0 || i + count > UINT32_MAX || bytes > len - pos || at > UINT32_MAX)
			break;
		if (i - last >= (uint64_t) every && i > 0)
		{
			marks[nm++] = (pm_pq_run_mark) {(uint32_t) i, (uint32_t) at};
			last = i;
		}
		pos += (size_t) bytes;
		i += count;
	}
	return nm;
}

bool
pm_pq_rle_is_one_run(const uint8_t *buf, size_t len, int bit_width, int64_t n,
					 uint32_t *value)
{
	size_t		pos = 0;
	uint64_t	h;
	int			vbytes = (bit_width + 7) / 8;
	uint32_t	v = 0;

	if (bit_width < 0 || bit_width > 32 || !read_uleb(buf, len, &pos, &h) || (h & 1) ||
		(h >> 1) < (uint64_t) n || len - pos < (size_t) vbytes)
		return false;
	for (int b = 0; b < vbytes; b++)
		v |= (uint32_t) buf[pos + b] << (8 * b);
	if (bit_width < 32 && (v >> bit_width) != 0)
		return false;
	*value = v;
	return true;
}

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
