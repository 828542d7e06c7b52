/*-------------------------------------------------------------------------
 * byte_buffer.c
 *	  Growth of pm_byte_buffer (byte_buffer.h): doubling, through the env.
 *-------------------------------------------------------------------------
 */
#include "common/byte_buffer.h"

void
pm_byte_buffer_init(pm_byte_buffer *b, const pm_env *env)
{
	memset(b, 0, sizeof(*b));
	b->env = env;
}

void
pm_byte_buffer_free(pm_byte_buffer *b)
{
	pm_free(b->env, b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}

bool
pm_byte_buffer_grow(pm_byte_buffer *b, size_t extra)
{
	size_t		need;
	size_t		ncap;
	uint8_t    *nd;

	if (b->failed)
		return false;
	if (extra > SIZE_MAX / 2 - b->len)
	{
		b->failed = true;
		return false;
	}
	need = b->len + extra;
	if (need <= b->cap)
		return true;
	ncap = b->cap < 256 ? 256 : b->cap;
	while (ncap < need)
		ncap *= 2;
	nd = pm_alloc(b->env, ncap);
	if (nd == NULL)
	{
		b->failed = true;
		return false;
	}
	if (b->len > 0)
		memcpy(nd, b->data, b->len);
	pm_free(b->env, b->data);
	b->data = nd;
	b->cap = ncap;
	return true;
}
