/*-------------------------------------------------------------------------
 * test_parquet_encoding.c
 *	  Unit tests of the Parquet decoders that the corpus files do not reach:
 *	  RLE/bit-packed hybrid edge cases, legacy BIT_PACKED levels,
 *	  DELTA_BINARY_PACKED (examples of parquet-format Encodings.md),
 *	  BYTE_STREAM_SPLIT, and Thrift compact page headers (real bytes from
 *	  a Paimon file, plus truncations and hostile lengths).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "format/parquet/parquet_encoding.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/thrift_compact.h"

static void
test_rle_hybrid(void **state)
{
	/* bit-packed run of 8 values 0..7, bit width 3 (Encodings.md) */
	const uint8_t bp[] = {0x03, 0x88, 0xc6, 0xfa};
	/* rle run: 5 x 4, bit width 3 */
	const uint8_t rle[] = {0x0a, 0x04};
	/* rle run with a value wider than the bit width */
	const uint8_t bad[] = {0x0a, 0x09};
	uint8_t		out8[16];
	uint32_t	out32[16];
	const char *why = NULL;

	assert_int_equal(pm_pq_rle_decode_u8(bp, sizeof(bp), 3, 8, out8, &why), 4);
	for (int i = 0; i < 8; i++)
		assert_int_equal(out8[i], i);
	/* fewer values than the run holds */
	assert_int_equal(pm_pq_rle_decode_u32(bp, sizeof(bp), 3, 5, out32, &why), 4);
	assert_int_equal(out32[4], 4);
	assert_int_equal(pm_pq_rle_decode_u8(rle, sizeof(rle), 3, 5, out8, &why), 2);
	for (int i = 0; i < 5; i++)
		assert_int_equal(out8[i], 4);
	/* more values wanted than present */
	assert_int_equal(pm_pq_rle_decode_u8(rle, sizeof(rle), 3, 6, out8, &why), -1);
	assert_int_equal(pm_pq_rle_decode_u8(bad, sizeof(bad), 3, 5, out8, &why), -1);
	/* truncated bit-packed run */
	assert_int_equal(pm_pq_rle_decode_u8(bp, 2, 3, 8, out8, &why), -1);
	/* bad widths */
	assert_int_equal(pm_pq_rle_decode_u8(bp, sizeof(bp), 9, 1, out8, &why), -1);
	assert_int_equal(pm_pq_rle_decode_u32(bp, sizeof(bp), 33, 1, out32, &why), -1);
	/* a zero-length rle run is corrupt (no progress) */
	{
		const uint8_t zero[] = {0x00, 0x00};

		assert_int_equal(pm_pq_rle_decode_u8(zero, sizeof(zero), 1, 1, out8, &why), -1);
	}
	/* 32-bit wide rle value */
	{
		const uint8_t w32[] = {0x02, 0x78, 0x56, 0x34, 0x12};

		assert_int_equal(pm_pq_rle_decode_u32(w32, sizeof(w32), 32, 1, out32, &why), 5);
		assert_int_equal(out32[0], 0x12345678u);
	}
	/* bit width 0: all zeros without value bytes */
	{
		const uint8_t z[] = {0x10};

		assert_int_equal(pm_pq_rle_decode_u8(z, sizeof(z), 0, 8, out8, &why), 1);
		for (int i = 0; i < 8; i++)
			assert_int_equal(out8[i], 0);
	}
}

/* Long bit-packed runs exercise the 8-byte fast path and its tail. */
static void
test_rle_long_bitpacked(void **state)
{
	uint8_t		buf[2 + 17 * 64];
	uint32_t	out[8 * 64];
	const char *why = NULL;
	int			bw = 17;

	memset(buf, 0, sizeof(buf));
	buf[0] = (uint8_t) ((64 << 1) | 1);	/* 64 groups: needs a 2-byte varint */
	{
		uint8_t		hdr[2] = {(uint8_t) (((64 << 1) | 1) & 0x7f) | 0x80, (uint8_t) (((64 << 1) | 1) >> 7)};
		uint8_t    *p = buf + 2;
		uint64_t	bit = 0;

		memcpy(buf, hdr, 2);
		for (int i = 0; i < 8 * 64; i++)
		{
			uint32_t	v = (uint32_t) (i * 2654435761u) & ((1u << bw) - 1);

			for (int b = 0; b < bw; b++, bit++)
				if (v & (1u << b))
					p[bit >> 3] |= (uint8_t) (1 << (bit & 7));
		}
		assert_int_equal(pm_pq_rle_decode_u32(buf, 2 + 17 * 64, bw, 8 * 64, out, &why),
						 2 + 17 * 64);
		for (int i = 0; i < 8 * 64; i++)
			assert_int_equal(out[i], (uint32_t) (i * 2654435761u) & ((1u << bw) - 1));
	}
}


/* Reference: value j of a bit-packed stream, bit by bit. */
static uint32_t
ref_unpack(const uint8_t *p, int bw, int64_t j)
{
	uint32_t	v = 0;

	for (int b = 0; b < bw; b++)
	{
		uint64_t	bit = (uint64_t) j * (uint64_t) bw + (uint64_t) b;

		v |= (uint32_t) ((p[bit >> 3] >> (bit & 7)) & 1) << b;
	}
	return v;
}

static void
put_bits(uint8_t *p, int bw, int64_t j, uint32_t v)
{
	for (int b = 0; b < bw; b++)
	{
		uint64_t	bit = (uint64_t) j * (uint64_t) bw + (uint64_t) b;

		if ((v >> b) & 1)
			p[bit >> 3] |= (uint8_t) (1 << (bit & 7));
	}
}

/*
 * The unrolled per-width group decoders against the bit-by-bit reference,
 * for every width 0..32: a bit-packed run ending exactly at the end of the
 * buffer (no slack for 8-byte windows), fewer values wanted than the run
 * holds, and a bit-packed run followed by an RLE run.
 */
static void
test_rle_all_widths(void **state)
{
	enum
	{
		GROUPS = 37, NV = GROUPS * 8
	};
	uint8_t		buf[8 + 32 * GROUPS + 16];
	uint32_t	out32[NV + 16];
	uint8_t		out8[NV + 16];
	const char *why = NULL;

	(void) state;
	for (int bw = 0; bw <= 32; bw++)
	{
		uint64_t	mask = bw == 32 ? UINT32_MAX : ((UINT64_C(1) << bw) - 1);
		size_t		hl;
		size_t		len;
		uint8_t    *data;
		uint32_t	h = (GROUPS << 1) | 1;

		memset(buf, 0, sizeof(buf));
		/* varint header */
		hl = 0;
		while (h >= 0x80)
		{
			buf[hl++] = (uint8_t) (h | 0x80);
			h >>= 7;
		}
		buf[hl++] = (uint8_t) h;
		data = buf + hl;
		for (int64_t j = 0; j < NV; j++)
			put_bits(data, bw, j, (uint32_t) ((uint64_t) (j * 2654435761u + 12345) & mask));
		len = hl + (size_t) GROUPS * (size_t) bw;

		/* all values, the run ending at the buffer's end */
		assert_int_equal(pm_pq_rle_decode_u32(buf, len, bw, NV, out32, &why), (int64_t) len);
		for (int64_t j = 0; j < NV; j++)
			assert_int_equal(out32[j], ref_unpack(data, bw, j));
		/* fewer values than the run holds */
		memset(out32, 0xee, sizeof(out32));
		assert_true(pm_pq_rle_decode_u32(buf, len, bw, NV - 3, out32, &why) >= 0);
		for (int64_t j = 0; j < NV - 3; j++)
			assert_int_equal(out32[j], ref_unpack(data, bw, j));
		assert_int_equal(out32[NV - 3], 0xeeeeeeeeu);
		/* followed by an RLE run of 5 x (mask / 2) */
		{
			uint32_t	v = (uint32_t) (mask / 2);
			size_t		l2 = len;

			buf[l2++] = 5 << 1;
			for (int b = 0; b < (bw + 7) / 8; b++)
				buf[l2++] = (uint8_t) (v >> (8 * b));
			assert_int_equal(pm_pq_rle_decode_u32(buf, l2, bw, NV + 5, out32, &why), (int64_t) l2);
			for (int64_t j = 0; j < NV; j++)
				assert_int_equal(out32[j], ref_unpack(data, bw, j));
			for (int64_t j = NV; j < NV + 5; j++)
				assert_int_equal(out32[j], v);
		}
		if (bw <= 8)
		{
			assert_int_equal(pm_pq_rle_decode_u8(buf, len, bw, NV, out8, &why), (int64_t) len);
			for (int64_t j = 0; j < NV; j++)
				assert_int_equal(out8[j], ref_unpack(data, bw, j));
		}
	}
}

/* Dictionary indices checked against the dictionary size while decoding. */
static void
test_rle_below(void **state)
{
	/* bit-packed run of 8 values 0..7, bit width 3 */
	const uint8_t bp[] = {0x03, 0x88, 0xc6, 0xfa};
	/* rle run: 5 x 4, bit width 3 */
	const uint8_t rle[] = {0x0a, 0x04};
	uint32_t	out[16];
	const char *why = NULL;

	(void) state;
	assert_int_equal(pm_pq_rle_decode_u32_below(bp, sizeof(bp), 3, 8, out, 8, &why), 4);
	assert_int_equal(pm_pq_rle_decode_u32_below(bp, sizeof(bp), 3, 8, out, 7, &why), -1);
	assert_string_equal(why, "dictionary index out of range");
	/* only the values taken count: 0..5 are below 6 */
	assert_int_equal(pm_pq_rle_decode_u32_below(bp, sizeof(bp), 3, 6, out, 6, &why), 4);
	assert_int_equal(pm_pq_rle_decode_u32_below(rle, sizeof(rle), 3, 5, out, 5, &why), 2);
	assert_int_equal(pm_pq_rle_decode_u32_below(rle, sizeof(rle), 3, 5, out, 4, &why), -1);
	assert_int_equal(pm_pq_rle_decode_u32_below(rle, sizeof(rle), 3, 5, out, 0, &why), -1);
	/* no values: nothing to check */
	assert_int_equal(pm_pq_rle_decode_u32_below(rle, sizeof(rle), 3, 0, out, 0, &why), 0);
}

/*
 * The index check over long bit-packed runs (the vectorized compare: eight
 * values a step, then the tail): an index equal to the dictionary size is
 * refused wherever it sits in the run, and values read back exact.
 */
static void
test_rle_below_wide(void **state)
{
	enum {NV = 1003, BW = 10};
	uint8_t		buf[2 + (NV + 7) / 8 * BW + 8];
	uint32_t	vals[(NV + 7) / 8 * 8];
	uint32_t	out[(NV + 7) / 8 * 8];
	const char *why = NULL;
	const int	probes[] = {0, 3, 7, 8, 500, 991, 992, 995, 999, 1000, 1002};

	(void) state;
	for (int p = -1; p < (int) (sizeof(probes) / sizeof(probes[0])); p++)
	{
		size_t		len;

		memset(buf, 0, sizeof(buf));
		for (int j = 0; j < (int) (sizeof(vals) / sizeof(vals[0])); j++)
			vals[j] = (uint32_t) (j * 7919) % 1000;
		if (p >= 0)
			vals[probes[p]] = 1000;
		/* header: (126 groups << 1) | 1 as a ULEB128 */
		buf[0] = (uint8_t) ((((NV + 7) / 8) << 1 | 1) & 0x7f) | 0x80;
		buf[1] = (uint8_t) ((((NV + 7) / 8) << 1 | 1) >> 7);
		for (int j = 0; j < (NV + 7) / 8 * 8; j++)
			for (int b = 0; b < BW; b++)
				if (vals[j] >> b & 1)
					buf[2 + (j * BW + b) / 8] |= (uint8_t) (1 << ((j * BW + b) % 8));
		len = 2 + (NV + 7) / 8 * BW;
		if (p < 0)
		{
			assert_int_equal(pm_pq_rle_decode_u32_below(buf, len, BW, NV, out, 1000, &why),
							 (int64_t) len);
			for (int j = 0; j < NV; j++)
				assert_int_equal(out[j], vals[j]);
			/* a dictionary one entry short: the largest index (999) is refused */
			assert_int_equal(pm_pq_rle_decode_u32_below(buf, len, BW, NV, out, 999, &why), -1);
		}
		else
		{
			assert_int_equal(pm_pq_rle_decode_u32_below(buf, len, BW, NV, out, 1000, &why), -1);
			assert_string_equal(why, "dictionary index out of range");
			assert_int_equal(pm_pq_rle_decode_u32_below(buf, len, BW, NV, out, 1001, &why),
							 (int64_t) len);
		}
	}
}

/*
 * Decoding dictionary indices from a skip on: every value from the skip on
 * is what the full decode gives, for every skip (before, inside and after
 * a bit-packed run, inside RLE runs); values before it are never checked
 * against the dictionary size, values from it are.
 */
static void
test_rle_below_from(void **state)
{
	uint8_t		buf[64];
	uint32_t	ref[47];
	uint32_t	out[48];
	const char *why = NULL;
	size_t		len = 0;
	int64_t		full;

	(void) state;
	memset(buf, 0, sizeof(buf));
	buf[len++] = 5 << 1;		/* RLE: 5 x 30 */
	buf[len++] = 30;
	buf[len++] = (4 << 1) | 1;	/* bit-packed: 4 groups of width 5 */
	for (int j = 0; j < 32; j++)
		put_bits(buf + len, 5, j, (uint32_t) (j * 7) % 32);
	len += 4 * 5;
	buf[len++] = 10 << 1;		/* RLE: 10 x 9 */
	buf[len++] = 9;
	full = pm_pq_rle_decode_u32_below(buf, len, 5, 47, ref, 32, &why);
	assert_int_equal(full, (int64_t) len);
	for (int64_t skip = 0; skip <= 47; skip++)
	{
		for (int64_t n = skip; n <= 47; n += 5)
		{
			memset(out, 0xff, sizeof(out));
			assert_int_equal(pm_pq_rle_decode_u32_below_from(buf, len, 5, skip, n, out, 32, &why) >= 0,
							 true);
			for (int64_t i = skip; i < n; i++)
				assert_int_equal(out[i], ref[i]);
			assert_int_equal(out[n], 0xffffffffu);
		}
	}
	/* 30 is out of range for a dictionary of 20: seen only when decoded */
	assert_int_equal(pm_pq_rle_decode_u32_below_from(buf, len, 5, 0, 47, out, 20, &why), -1);
	assert_int_equal(pm_pq_rle_decode_u32_below_from(buf, len, 5, 5, 5, out, 20, &why) >= 0, true);
	assert_int_equal(pm_pq_rle_decode_u32_below_from(buf, len, 5, 37, 47, out, 10, &why), (int64_t) len);
	assert_int_equal(pm_pq_rle_decode_u32_below_from(buf, len, 5, 36, 47, out, 10, &why), -1);
	/* truncated runs are still errors where skipped */
	assert_int_equal(pm_pq_rle_decode_u32_below_from(buf, 10, 5, 40, 47, out, 32, &why), -1);
}

/*
 * Run marks (where each run of a hybrid stream starts): decoding from any
 * mark at or before a skip gives what decoding the whole stream gives, for
 * every skip; marks are at least `every` values apart; a truncated stream
 * yields marks only for what is there.
 */
static void
test_rle_run_marks(void **state)
{
	uint8_t		buf[512];
	uint32_t	ref[460];
	uint32_t	out[461];
	pm_pq_run_mark marks[64];
	const char *why = NULL;
	size_t		len = 0;
	int64_t		total = 0;
	int			nm;

	(void) state;
	memset(buf, 0, sizeof(buf));
	/* alternating RLE runs (7 x v) and bit-packed runs (2 groups, width 6) */
	for (int r = 0; r < 20; r++)
	{
		buf[len++] = 7 << 1;
		buf[len++] = (uint8_t) (r % 50);
		total += 7;
		buf[len++] = (2 << 1) | 1;
		for (int j = 0; j < 16; j++)
			put_bits(buf + len, 6, j, (uint32_t) (j * 5 + r) % 50);
		len += 2 * 6;
		total += 16;
	}
	assert_int_equal(pm_pq_rle_decode_u32_below(buf, len, 6, total, ref, 50, &why), (int64_t) len);
	for (int every = 1; every <= 64; every *= 4)
	{
		nm = pm_pq_rle_run_marks(buf, len, 6, every, marks, 64);
		assert_true(nm >= 2);
		assert_int_equal(marks[0].first, 0);
		assert_int_equal(marks[0].pos, 0);
		for (int m = 1; m < nm; m++)
		{
			assert_true(marks[m].first - marks[m - 1].first >= (uint32_t) every);
			assert_true(marks[m].pos > marks[m - 1].pos);
		}
		for (int m = 0; m < nm; m++)
			for (int64_t skip = marks[m].first; skip < total; skip += 3)
			{
				memset(out, 0xff, sizeof(out));
				assert_true(pm_pq_rle_decode_u32_below_from(buf + marks[m].pos, len - marks[m].pos,
															6, skip - marks[m].first,
															total - marks[m].first,
															out + marks[m].first, 50, &why) >= 0);
				for (int64_t i = skip; i < total; i++)
					assert_int_equal(out[i], ref[i]);
				assert_int_equal(out[total], 0xffffffffu);
			}
	}
	/* every run marked with every = 1: 40 runs */
	assert_int_equal(pm_pq_rle_run_marks(buf, len, 6, 1, marks, 64), 40);
	/* the cap holds */
	assert_int_equal(pm_pq_rle_run_marks(buf, len, 6, 1, marks, 5), 5);
	/* cut inside the 4th run's payload: runs whose bytes are all there */
	assert_int_equal(pm_pq_rle_run_marks(buf, 2 + 13 + 2 + 5, 6, 1, marks, 64), 3);
	/* nothing sensible: the first mark only */
	assert_int_equal(pm_pq_rle_run_marks(buf, 0, 6, 1, marks, 64), 1);
	assert_int_equal(pm_pq_rle_run_marks(buf, len, 33, 1, marks, 64), 0);
}

/* A level stream that is one RLE run (a page without nulls) is seen as such. */
static void
test_rle_one_run(void **state)
{
	const uint8_t one[] = {0x90, 0x4e, 0x01};	/* 5000 x 1, width 1 */
	const uint8_t two[] = {0x0a, 0x01, 0x03, 0x00};	/* 5 x 1, then a bit-packed run */
	uint32_t	v = 99;

	(void) state;
	assert_true(pm_pq_rle_is_one_run(one, sizeof(one), 1, 5000, &v));
	assert_int_equal(v, 1);
	assert_true(pm_pq_rle_is_one_run(one, sizeof(one), 1, 20, &v));
	assert_false(pm_pq_rle_is_one_run(one, sizeof(one), 1, 5001, &v));
	assert_false(pm_pq_rle_is_one_run(one, 2, 1, 100, &v));
	assert_false(pm_pq_rle_is_one_run(two, sizeof(two), 1, 8, &v));
	assert_true(pm_pq_rle_is_one_run(two, sizeof(two), 1, 5, &v));
	/* a value wider than the width is not a run of levels */
	assert_false(pm_pq_rle_is_one_run((const uint8_t[]) {0x0a, 0x02}, 2, 1, 5, &v));
}

static void
test_legacy_bitpacked(void **state)
{
	/* MSB first: values 0..7 at width 3 -> 000 001 010 011 100 101 110 111 */
	const uint8_t buf[] = {0x05, 0x39, 0x77};
	uint8_t		out[8];
	const char *why = NULL;

	assert_int_equal(pm_pq_bitpacked_legacy_decode(buf, sizeof(buf), 3, 8, out, &why), 3);
	for (int i = 0; i < 8; i++)
		assert_int_equal(out[i], i);
	assert_int_equal(pm_pq_bitpacked_legacy_decode(buf, 2, 3, 8, out, &why), -1);
}

static void
test_plain_bool(void **state)
{
	const uint8_t buf[] = {0xa5, 0x01};
	uint8_t		out[9];
	const char *why = NULL;
	const uint8_t want[] = {1, 0, 1, 0, 0, 1, 0, 1, 1};

	assert_int_equal(pm_pq_plain_bool_decode(buf, sizeof(buf), 9, out, &why), 2);
	assert_memory_equal(out, want, 9);
	assert_int_equal(pm_pq_plain_bool_decode(buf, 1, 9, out, &why), -1);
}

static void
test_delta_binary_packed(void **state)
{
	/* Encodings.md example 1: 1, 2, 3, 4, 5 */
	const uint8_t ex1[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
	/* example 2: 7, 5, 3, 1, 2, 3, 4, 5 (min delta -2, bit width 2) */
	const uint8_t ex2[] = {0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0x00, 0x00, 0x00,
	0xc0, 0x3f, 0, 0, 0, 0, 0, 0};
	int64_t		out[16];
	int64_t		n;
	const char *why = NULL;
	const int64_t want2[] = {7, 5, 3, 1, 2, 3, 4, 5};

	assert_int_equal(pm_pq_delta_decode(ex1, sizeof(ex1), 16, out, &n, &why), (int64_t) sizeof(ex1));
	assert_int_equal(n, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(out[i], i + 1);
	assert_int_equal(pm_pq_delta_decode(ex2, sizeof(ex2), 16, out, &n, &why), (int64_t) sizeof(ex2));
	assert_int_equal(n, 8);
	assert_memory_equal(out, want2, sizeof(want2));
	/* more values than allowed, truncated miniblock, bad block size */
	assert_int_equal(pm_pq_delta_decode(ex2, sizeof(ex2), 4, out, &n, &why), -1);
	assert_int_equal(pm_pq_delta_decode(ex2, 10, 16, out, &n, &why), -1);
	{
		uint8_t		bad[sizeof(ex1)];

		memcpy(bad, ex1, sizeof(ex1));
		bad[0] = 0x81;			/* block size 129 */
		assert_int_equal(pm_pq_delta_decode(bad, sizeof(bad), 16, out, &n, &why), -1);
	}
	/* a single value: header only */
	{
		const uint8_t one[] = {0x80, 0x01, 0x04, 0x01, 0x7f};

		assert_int_equal(pm_pq_delta_decode(one, sizeof(one), 16, out, &n, &why), 5);
		assert_int_equal(n, 1);
		assert_int_equal(out[0], -64);
	}
}

static void
test_byte_stream_split(void **state)
{
	float		in[3] = {1.5f, -2.25f, 1e10f};
	uint8_t		split[12];
	float		out[3];
	const char *why = NULL;

	for (int i = 0; i < 3; i++)
		for (int b = 0; b < 4; b++)
			split[b * 3 + i] = ((uint8_t *) &in[i])[b];
	assert_int_equal(pm_pq_byte_stream_split_decode(split, sizeof(split), 4, 3,
													(uint8_t *) out, &why), 12);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(pm_pq_byte_stream_split_decode(split, 11, 4, 3, (uint8_t *) out, &why), -1);
}

static void
test_page_header(void **state)
{
	/* pk_table_scan_and_read_dv data file, first page (paimon-format-data.md 2.3) */
	const uint8_t hdr[] = {0x15, 0x00, 0x15, 0x52, 0x15, 0x6a, 0x15, 0x89, 0x85, 0xe8, 0xc1,
		0x0e, 0x1c, 0x15, 0x0a, 0x15, 0x00, 0x15, 0x08, 0x15, 0x08, 0x00, 0x00, 0xaa};
	pm_pq_page_header ph;
	pm_error	err;

	pm_error_clear(&err);
	assert_int_equal(pm_pq_page_header_parse(hdr, sizeof(hdr), &ph, &err), PM_OK);
	assert_int_equal(ph.type, PM_PQ_PAGE_DATA);
	assert_int_equal(ph.uncompressed_size, 41);
	assert_int_equal(ph.compressed_size, 53);
	assert_int_equal(ph.num_values, 5);
	assert_int_equal(ph.encoding, PM_PQ_ENC_PLAIN);
	assert_int_equal(ph.def_encoding, PM_PQ_ENC_BIT_PACKED);
	assert_int_equal(ph.header_len, sizeof(hdr) - 1);
	/* every truncation fails cleanly */
	for (size_t n = 0; n < sizeof(hdr) - 1; n++)
		assert_int_equal(pm_pq_page_header_parse(hdr, n, &ph, &err), PM_ERR_CORRUPT);
	/* negative sizes */
	{
		uint8_t		neg[sizeof(hdr)];

		memcpy(neg, hdr, sizeof(hdr));
		neg[3] = 0x53;			/* zigzag -42 */
		assert_int_equal(pm_pq_page_header_parse(neg, sizeof(neg), &ph, &err), PM_ERR_CORRUPT);
	}
}

static void
test_thrift_limits(void **state)
{
	pm_thrift_reader t;
	uint8_t		deep[200];
	uint32_t	n;
	int			et;

	/* a struct nested 200 deep: fails on depth, not on the stack */
	for (int i = 0; i < 200; i++)
		deep[i] = 0x1c;			/* field +1, type struct */
	pm_thrift_init(&t, deep, sizeof(deep));
	assert_true(pm_thrift_struct_begin(&t));
	pm_thrift_skip(&t, PM_TC_STRUCT);
	assert_true(t.failed);
	/* a list claiming more elements than bytes */
	{
		const uint8_t lst[] = {0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};

		pm_thrift_init(&t, lst, sizeof(lst));
		assert_false(pm_thrift_list(&t, &n, &et));
		assert_true(t.failed);
	}
	/* a binary longer than the buffer */
	{
		const uint8_t bin[] = {0x80, 0x80, 0x04, 'a'};

		pm_thrift_init(&t, bin, sizeof(bin));
		assert_null(pm_thrift_binary(&t, &n));
		assert_true(t.failed);
	}
	/* an over-long varint */
	{
		const uint8_t v[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};

		pm_thrift_init(&t, v, sizeof(v));
		(void) pm_thrift_varint(&t);
		assert_true(t.failed);
	}
}

static void
test_footer_garbage(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_pq_metadata md;
	pm_error	err;
	/* FileMetaData with a schema list of 3 elements whose root claims 5 children */
	const uint8_t f[] = {0x15, 0x02, 0x19, 0x3c, 0x48, 0x01, 'r', 0x15, 0x0a, 0x00,
		0x15, 0x02, 0x48, 0x01, 'a', 0x00, 0x15, 0x02, 0x48, 0x01, 'b', 0x00, 0x00};

	pm_error_clear(&err);
	assert_int_equal(pm_pq_metadata_parse(f, sizeof(f), 1000, a, &md, &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_pq_metadata_parse(f, 5, 1000, a, &md, &err), PM_ERR_CORRUPT);
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rle_hybrid),
		cmocka_unit_test(test_rle_long_bitpacked),
		cmocka_unit_test(test_rle_all_widths),
		cmocka_unit_test(test_rle_below),
		cmocka_unit_test(test_rle_below_wide),
		cmocka_unit_test(test_rle_below_from),
		cmocka_unit_test(test_rle_run_marks),
		cmocka_unit_test(test_rle_one_run),
		cmocka_unit_test(test_legacy_bitpacked),
		cmocka_unit_test(test_plain_bool),
		cmocka_unit_test(test_delta_binary_packed),
		cmocka_unit_test(test_byte_stream_split),
		cmocka_unit_test(test_page_header),
		cmocka_unit_test(test_thrift_limits),
		cmocka_unit_test(test_footer_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
