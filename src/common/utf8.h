/*-------------------------------------------------------------------------
 * utf8.h
 *	  UTF-8 code points as Apache Paimon's BinaryString counts them
 *	  (numBytesForFirstByte, numChars, substring), and the plain encoding
 *	  and decoding of one code point. Hand-written: a few lines whose exact
 *	  rule for malformed lead bytes (Java's) no library offers.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_UTF8_H
#define PM_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bytes of the character whose first byte is b, as Java 1.4.2's
 * BinaryString.numBytesForFirstByte: 110xxxxx (not C0/C1) 2, 1110xxxx 3,
 * 11110xxx 4, ASCII and every byte not allowed first in UTF-8 1.
 */
static inline int
pm_utf8_char_bytes(uint8_t b)
{
	if (b < 0x80)
		return 1;
	if ((b & 0xE0) == 0xC0 && (b & 0x1E) != 0)
		return 2;
	if ((b & 0xF0) == 0xE0)
		return 3;
	if ((b & 0xF8) == 0xF0)
		return 4;
	return 1;
}

/*
 * Bytes of the first `chars` characters of s[0..n) (BinaryString.substring
 * (0, chars)); *counted gets how many characters that is (fewer when s
 * ends first). A character cut by the end of s counts, up to the end.
 */
static inline size_t
pm_utf8_prefix(const uint8_t *s, size_t n, int64_t chars, int64_t *counted)
{
	size_t		i = 0;
	int64_t		c = 0;

	while (i < n && c < chars)
	{
		i += (size_t) pm_utf8_char_bytes(s[i]);
		c++;
	}
	*counted = c;
	return i < n ? i : n;
}

/* The code point of the n-byte (1..4) sequence at s; no validation. */
static inline uint32_t
pm_utf8_decode(const uint8_t *s, int n)
{
	switch (n)
	{
		case 1:
			return s[0];
		case 2:
			return ((uint32_t) (s[0] & 0x1F) << 6) | (s[1] & 0x3F);
		case 3:
			return ((uint32_t) (s[0] & 0x0F) << 12) | ((uint32_t) (s[1] & 0x3F) << 6) |
				(s[2] & 0x3F);
		default:
			return ((uint32_t) (s[0] & 0x07) << 18) | ((uint32_t) (s[1] & 0x3F) << 12) |
				((uint32_t) (s[2] & 0x3F) << 6) | (s[3] & 0x3F);
	}
}

/* Writes code point cp (up to U+10FFFF) at out; returns its bytes (1..4). */
static inline int
pm_utf8_encode(uint32_t cp, uint8_t *out)
{
	if (cp < 0x80)
	{
		out[0] = (uint8_t) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		out[0] = (uint8_t) (0xC0 | (cp >> 6));
		out[1] = (uint8_t) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		out[0] = (uint8_t) (0xE0 | (cp >> 12));
		out[1] = (uint8_t) (0x80 | ((cp >> 6) & 0x3F));
		out[2] = (uint8_t) (0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (uint8_t) (0xF0 | (cp >> 18));
	out[1] = (uint8_t) (0x80 | ((cp >> 12) & 0x3F));
	out[2] = (uint8_t) (0x80 | ((cp >> 6) & 0x3F));
	out[3] = (uint8_t) (0x80 | (cp & 0x3F));
	return 4;
}

#endif							/* PM_COMMON_UTF8_H */
