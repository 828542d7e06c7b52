/*-------------------------------------------------------------------------
 * roaring_portable.c
 *	  Checking a portable RoaringBitmap before CRoaring reads it.
 *
 * Layout (RoaringFormatSpec), all little endian: a cookie (12346 + a
 * 32-bit container count, or 12347 | (count - 1) << 16 followed by a
 * bitset of run containers); per container a 16-bit key and cardinality
 * - 1; 32-bit offsets (skipped by every reader; omitted by run bitmaps of
 * fewer than 4 containers); then the containers: runs (16-bit count, then
 * start and length - 1 pairs), bitsets (cardinality > 4096: 1024 64-bit
 * words) or arrays (the values).
 *
 * Spec: RoaringFormatSpec; org.roaringbitmap RoaringArray.serialize (what
 * Paimon's RoaringBitmap32.serialize writes after runOptimize).
 *-------------------------------------------------------------------------
 */
#include "index/roaring_portable.h"

static uint16_t
le16(const uint8_t *p)
{
	return (uint16_t) (p[0] | (p[1] << 8));
}

static uint32_t
le32(const uint8_t *p)
{
	return ((uint32_t) p[3] << 24) | ((uint32_t) p[2] << 16) |
		((uint32_t) p[1] << 8) | (uint32_t) p[0];
}

/* The portable RoaringBitmap format (RoaringFormatSpec), as Java writes it. */
#define ROARING_COOKIE_NO_RUN	12346
#define ROARING_COOKIE			12347
#define ROARING_NO_OFFSET_MIN	4	/* run bitmaps with fewer containers omit offsets */
#define ROARING_ARRAY_MAX		4096	/* more values: a bitset container */

#define MALFORMED(what) \
	pm_fail(err, PM_ERR_CORRUPT, "malformed roaring bitmap: %s", what)

pm_code
pm_roaring_portable_check(const uint8_t *p, size_t n, size_t *size, int64_t *max,
						  pm_error *err)
{
	uint32_t	cookie;
	uint32_t	ncont;
	const uint8_t *runflags = NULL;
	const uint8_t *header;
	size_t		pos;
	int32_t		prev_key = -1;

	*max = -1;
	if (n < 4)
		return MALFORMED("truncated");
	cookie = le32(p);
	if ((cookie & 0xFFFF) == ROARING_COOKIE)
	{
		ncont = (cookie >> 16) + 1;
		pos = 4;
		if (n - pos < (ncont + 7) / 8)
			return MALFORMED("truncated");
		runflags = p + pos;
		pos += (ncont + 7) / 8;
	}
	else if (cookie == ROARING_COOKIE_NO_RUN)
	{
		if (n < 8)
			return MALFORMED("truncated");
		ncont = le32(p + 4);
		if (ncont > 65536)
			return MALFORMED("too many containers");
		pos = 8;
	}
	else
		return MALFORMED("unknown cookie");
	if ((n - pos) / 4 < ncont)
		return MALFORMED("truncated");
	header = p + pos;
	pos += (size_t) ncont * 4;
	if (runflags == NULL || ncont >= ROARING_NO_OFFSET_MIN)
	{
		if ((n - pos) / 4 < ncont)
			return MALFORMED("truncated");
		pos += (size_t) ncont * 4;
	}
	for (uint32_t k = 0; k < ncont; k++)
	{
		uint16_t	key = le16(header + 4 * k);
		uint32_t	card = (uint32_t) le16(header + 4 * k + 2) + 1;
		uint32_t	last;

		if ((int32_t) key <= prev_key)
			return MALFORMED("container keys not ascending");
		prev_key = key;
		if (runflags != NULL && (runflags[k / 8] >> (k % 8)) & 1)
		{
			uint32_t	nruns;
			uint32_t	total = 0;
			int32_t		prev_end = -1;

			if (n - pos < 2)
				return MALFORMED("truncated");
			nruns = le16(p + pos);
			pos += 2;
			if (nruns == 0)
				return MALFORMED("empty run container");
			if ((n - pos) / 4 < nruns)
				return MALFORMED("truncated");
			for (uint32_t r = 0; r < nruns; r++, pos += 4)
			{
				uint32_t	start = le16(p + pos);
				uint32_t	end = start + le16(p + pos + 2);

				if (end > 0xFFFF)
					return MALFORMED("run past the end of its container");
				if ((int32_t) start <= prev_end)
					return MALFORMED("runs overlap or are not ascending");
				prev_end = (int32_t) end;
				total += end - start + 1;
			}
			if (total != card)
				return MALFORMED("run container cardinality differs from its header");
			last = (uint32_t) prev_end;
		}
		else if (card > ROARING_ARRAY_MAX)
		{
			uint32_t	bits = 0;

			if (n - pos < 8192)
				return MALFORMED("truncated");
			last = 0;
			for (uint32_t w = 0; w < 1024; w++)
			{
				uint64_t	word = (uint64_t) le32(p + pos + 8 * w) |
					((uint64_t) le32(p + pos + 8 * w + 4) << 32);

				if (word != 0)
				{
					bits += (uint32_t) __builtin_popcountll(word);
					last = w * 64 + 63 - (uint32_t) __builtin_clzll(word);
				}
			}
			pos += 8192;
			if (bits != card)
				return MALFORMED("bitset container cardinality differs from its header");
		}
		else
		{
			if ((n - pos) / 2 < card)
				return MALFORMED("truncated");
			for (uint32_t i = 1; i < card; i++)
				if (le16(p + pos + 2 * i) <= le16(p + pos + 2 * (i - 1)))
					return MALFORMED("array container values not ascending");
			last = le16(p + pos + 2 * (card - 1));
			pos += (size_t) card * 2;
		}
		*max = ((int64_t) key << 16) | last;
	}
	*size = pos;
	return PM_OK;
}
