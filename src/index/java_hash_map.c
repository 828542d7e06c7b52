/*-------------------------------------------------------------------------
 * java_hash_map.c
 *	  HashMap iteration order, String.hashCode, writeUTF (java_hash_map.h).
 *-------------------------------------------------------------------------
 */
#include "index/java_hash_map.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * Next code point of UTF-8 text (invalid bytes count as themselves, as
 * Latin-1: names come from the schema JSON, which is valid UTF-8).
 */
static uint32_t
next_code_point(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp;
	uint32_t	c = p[0];
	int			n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;

	if (n == 0 || end - p <= n)
	{
		*pp = p + 1;
		return c;
	}
	c &= 0x3fu >> n;
	for (int i = 1; i <= n; i++)
		c = (c << 6) | (p[i] & 0x3fu);
	*pp = p + n + 1;
	return c;
}

/* The UTF-16 code units of code point c: 1 or 2. */
static int
utf16_units(uint32_t c, uint16_t *u)
{
	if (c < 0x10000)
	{
		u[0] = (uint16_t) c;
		return 1;
	}
	c -= 0x10000;
	u[0] = (uint16_t) (0xd800 + (c >> 10));
	u[1] = (uint16_t) (0xdc00 + (c & 0x3ff));
	return 2;
}

int32_t
pm_java_string_hash(const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *) s;
	const uint8_t *end = p + len;
	uint32_t	h = 0;

	while (p < end)
	{
		uint16_t	u[2];
		int			n = utf16_units(next_code_point(&p, end), u);

		for (int i = 0; i < n; i++)
			h = 31 * h + u[i];
	}
	return (int32_t) h;
}

typedef struct slot
{
	uint32_t	bucket;
	int32_t		index;
} slot;

static int
cmp_slot(const void *a, const void *b)
{
	const slot *x = a;
	const slot *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

bool
pm_java_hash_map_order(const pm_env *env, const int32_t *hashes, int32_t n,
					   bool compute_if_absent, int32_t *order)
{
	uint32_t	cap = 16;
	slot	   *s;

	while ((uint64_t) n > (uint64_t) cap * 3 / 4 && cap < (UINT32_C(1) << 30))
		cap <<= 1;
	s = env->alloc(env->opaque, sizeof(slot) * (size_t) (n > 0 ? n : 1));
	if (s == NULL)
		return false;
	for (int32_t i = 0; i < n; i++)
	{
		uint32_t	h = (uint32_t) hashes[i];

		s[i].bucket = (h ^ (h >> 16)) & (cap - 1);
		s[i].index = compute_if_absent ? n - 1 - i : i;
	}
	qsort(s, (size_t) n, sizeof(slot), cmp_slot);
	for (int32_t i = 0; i < n; i++)
		order[i] = compute_if_absent ? n - 1 - s[i].index : s[i].index;
	env->free(env->opaque, s);
	return true;
}

static size_t
modified_utf8(const char *s, uint8_t *out)
{
	const uint8_t *p = (const uint8_t *) s;
	const uint8_t *end = p + strlen(s);
	size_t		n = 0;

	while (p < end)
	{
		uint16_t	u[2];
		int			k = utf16_units(next_code_point(&p, end), u);

		for (int i = 0; i < k; i++)
		{
			uint16_t	c = u[i];

			if (c >= 0x0001 && c <= 0x007f)
			{
				if (out)
					out[n] = (uint8_t) c;
				n += 1;
			}
			else if (c <= 0x07ff)
			{
				if (out)
				{
					out[n] = (uint8_t) (0xc0 | (c >> 6));
					out[n + 1] = (uint8_t) (0x80 | (c & 0x3f));
				}
				n += 2;
			}
			else
			{
				if (out)
				{
					out[n] = (uint8_t) (0xe0 | (c >> 12));
					out[n + 1] = (uint8_t) (0x80 | ((c >> 6) & 0x3f));
					out[n + 2] = (uint8_t) (0x80 | (c & 0x3f));
				}
				n += 3;
			}
		}
	}
	return n;
}

size_t
pm_java_utf_size(const char *s)
{
	return 2 + modified_utf8(s, NULL);
}

void
pm_java_write_utf(pm_byte_buffer *out, const char *s)
{
	size_t		n = modified_utf8(s, NULL);

	pm_byte_buffer_put_u8(out, (uint8_t) (n >> 8));
	pm_byte_buffer_put_u8(out, (uint8_t) n);
	if (!pm_byte_buffer_reserve(out, n))
		return;
	modified_utf8(s, out->data + out->len);
	out->len += n;
}
