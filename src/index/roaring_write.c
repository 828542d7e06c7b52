/*-------------------------------------------------------------------------
 * roaring_write.c
 *	  Java RoaringBitmap's serialized form of an ascending set of values
 *	  (roaring_write.h).
 *-------------------------------------------------------------------------
 */
#include "index/roaring_write.h"

#include <stdbool.h>
#include <string.h>

#define COOKIE_NO_RUN	12346
#define COOKIE_RUN		12347
#define NO_OFFSET_THRESHOLD 4

typedef struct container
{
	uint16_t	key;
	size_t		first;			/* index of its first value in v */
	size_t		card;
	size_t		runs;
	int			kind;			/* 0 array, 1 bitmap, 2 run */
} container;

static void
put_le16(pm_byte_buffer *b, uint16_t x)
{
	uint8_t		t[2] = {(uint8_t) x, (uint8_t) (x >> 8)};

	pm_byte_buffer_append(b, t, 2);
}

static size_t
container_bytes(const container *c)
{
	switch (c->kind)
	{
		case 0:
			return 2 * c->card;
		case 1:
			return 8192;
		default:
			return 2 + 4 * c->runs;
	}
}

static void
write_container(pm_byte_buffer *out, const container *c, const uint32_t *v)
{
	const uint32_t *p = v + c->first;

	if (c->kind == 0)
	{
		for (size_t i = 0; i < c->card; i++)
			put_le16(out, (uint16_t) p[i]);
	}
	else if (c->kind == 1)
	{
		uint64_t	words[1024];

		memset(words, 0, sizeof(words));
		for (size_t i = 0; i < c->card; i++)
		{
			uint16_t	low = (uint16_t) p[i];

			words[low >> 6] |= UINT64_C(1) << (low & 63);
		}
		for (int w = 0; w < 1024; w++)
			pm_byte_buffer_put_le64(out, words[w]);
	}
	else
	{
		size_t		i = 0;

		put_le16(out, (uint16_t) c->runs);
		while (i < c->card)
		{
			size_t		j = i;

			while (j + 1 < c->card && p[j + 1] == p[j] + 1)
				j++;
			put_le16(out, (uint16_t) p[i]);
			put_le16(out, (uint16_t) (j - i));
			i = j + 1;
		}
	}
}

size_t
pm_roaring_write(pm_byte_buffer *out, const uint32_t *v, size_t n)
{
	size_t		start = out->len;
	size_t		ncont = 0;
	container  *cs;
	container	small[64];
	bool		has_run = false;
	size_t		offset;

	/* count containers */
	for (size_t i = 0; i < n; i++)
		if (i == 0 || (v[i] >> 16) != (v[i - 1] >> 16))
			ncont++;
	cs = ncont <= 64 ? small : out->env->alloc(out->env->opaque, sizeof(container) * ncont);
	if (cs == NULL)
	{
		out->failed = true;
		return 0;
	}
	ncont = 0;
	for (size_t i = 0; i < n; i++)
	{
		container  *c;

		if (i == 0 || (v[i] >> 16) != (v[i - 1] >> 16))
		{
			c = &cs[ncont++];
			c->key = (uint16_t) (v[i] >> 16);
			c->first = i;
			c->card = 0;
			c->runs = 0;
		}
		c = &cs[ncont - 1];
		if (c->card == 0 || v[i] != v[i - 1] + 1)
			c->runs++;
		c->card++;
	}
	for (size_t k = 0; k < ncont; k++)
	{
		container  *c = &cs[k];

		if (c->card <= 4096)
			c->kind = 2 * c->card > 2 + 4 * c->runs ? 2 : 0;
		else
			c->kind = 8192 > 2 + 4 * c->runs ? 2 : 1;
		has_run |= c->kind == 2;
	}
	if (has_run)
	{
		uint8_t		flags[8192];
		size_t		nflags = (ncont + 7) / 8;

		put_le16(out, COOKIE_RUN);
		put_le16(out, (uint16_t) (ncont - 1));
		memset(flags, 0, nflags);
		for (size_t k = 0; k < ncont; k++)
			if (cs[k].kind == 2)
				flags[k / 8] |= (uint8_t) (1 << (k % 8));
		pm_byte_buffer_append(out, flags, nflags);
		offset = (ncont < NO_OFFSET_THRESHOLD ? 4 + 4 * ncont : 4 + 8 * ncont) + nflags;
	}
	else
	{
		pm_byte_buffer_put_le32(out, COOKIE_NO_RUN);
		pm_byte_buffer_put_le32(out, (uint32_t) ncont);
		offset = 8 + 8 * ncont;
	}
	for (size_t k = 0; k < ncont; k++)
	{
		put_le16(out, cs[k].key);
		put_le16(out, (uint16_t) (cs[k].card - 1));
	}
	if (!has_run || ncont >= NO_OFFSET_THRESHOLD)
		for (size_t k = 0; k < ncont; k++)
		{
			pm_byte_buffer_put_le32(out, (uint32_t) offset);
			offset += container_bytes(&cs[k]);
		}
	for (size_t k = 0; k < ncont; k++)
		write_container(out, &cs[k], v);
	if (cs != small)
		out->env->free(out->env->opaque, cs);
	return out->len - start;
}
