/*-------------------------------------------------------------------------
 * orc_dict.c
 *	  The string dictionary of an ORC stripe column (see orc_dict.h).
 *
 * Must not include Postgres headers.
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_dict.h"

#include <stdlib.h>
#include <string.h>

#include "format/orc/orc_bloom.h"

void
orc_dict_init(orc_dict *d, const pm_env *env)
{
	memset(d, 0, sizeof(*d));
	d->env = env;
	pm_byte_buffer_init(&d->keys, env);
	pm_byte_buffer_init(&d->key_offsets, env);
	pm_byte_buffer_init(&d->rows, env);
}

void
orc_dict_reset(orc_dict *d)
{
	pm_byte_buffer_reset(&d->keys);
	pm_byte_buffer_reset(&d->key_offsets);
	pm_byte_buffer_reset(&d->rows);
	if (d->slots != NULL)
		memset(d->slots, 0, sizeof(int32_t) * d->nslots);
	d->nkeys = 0;
}

void
orc_dict_free(orc_dict *d)
{
	pm_byte_buffer_free(&d->keys);
	pm_byte_buffer_free(&d->key_offsets);
	pm_byte_buffer_free(&d->rows);
	pm_free(d->env, d->slots);
	d->slots = NULL;
	d->nslots = 0;
}

static inline uint32_t
slot_of(const orc_dict *d, const uint8_t *p, int32_t len)
{
	return (uint32_t) orc_murmur3_hash64(p, (size_t) len) & (d->nslots - 1);
}

/* double the table (or make the first one) and re-insert every key */
static bool
grow_slots(orc_dict *d)
{
	uint32_t	n = d->nslots == 0 ? 1024 : d->nslots * 2;
	int32_t    *s = pm_alloc(d->env, sizeof(int32_t) * n);

	if (s == NULL || n == 0)
	{
		pm_free(d->env, s);
		return false;
	}
	memset(s, 0, sizeof(int32_t) * n);
	pm_free(d->env, d->slots);
	d->slots = s;
	d->nslots = n;
	for (int32_t id = 0; id < d->nkeys; id++)
	{
		int32_t		len;
		const uint8_t *k = orc_dict_key(d, id, &len);
		uint32_t	h = slot_of(d, k, len);

		while (s[h] != 0)
			h = (h + 1) & (n - 1);
		s[h] = id + 1;
	}
	return true;
}

bool
orc_dict_add(orc_dict *d, const uint8_t *p, int32_t len)
{
	uint32_t	h;
	int32_t		id = -1;

	if (d->failed)
		return false;
	if (((uint64_t) d->nkeys + 1) * 2 > d->nslots && !grow_slots(d))
		goto oom;
	/* keys.data never NULL: an empty first key still points somewhere */
	if (d->keys.data == NULL && !pm_byte_buffer_reserve(&d->keys, 256))
		goto oom;
	if (d->nkeys == 0 && d->key_offsets.len == 0)
	{
		uint32_t	zero = 0;

		pm_byte_buffer_append(&d->key_offsets, &zero, sizeof(zero));
	}
	for (h = slot_of(d, p, len); d->slots[h] != 0; h = (h + 1) & (d->nslots - 1))
	{
		int32_t		klen;
		const uint8_t *k = orc_dict_key(d, d->slots[h] - 1, &klen);

		if (klen == len && (len == 0 || memcmp(k, p, (size_t) len) == 0))
		{
			id = d->slots[h] - 1;
			break;
		}
	}
	if (id < 0)
	{
		uint32_t	end;

		if (d->keys.len + (size_t) len > UINT32_MAX)
			goto oom;
		pm_byte_buffer_append(&d->keys, p, (size_t) len);
		end = (uint32_t) d->keys.len;
		pm_byte_buffer_append(&d->key_offsets, &end, sizeof(end));
		if (d->keys.failed || d->key_offsets.failed)
			goto oom;
		id = d->nkeys++;
		d->slots[h] = id + 1;
	}
	pm_byte_buffer_append(&d->rows, &id, sizeof(id));
	if (d->rows.failed)
		goto oom;
	return true;
oom:
	d->failed = true;
	return false;
}

typedef struct sort_key
{
	const uint8_t *p;
	int32_t		len;
	int32_t		id;
} sort_key;

/* DynamicByteArray.compare: unsigned bytes, then the shorter first */
static int
cmp_key(const void *a, const void *b)
{
	const sort_key *x = a,
			   *y = b;
	int32_t		n = x->len < y->len ? x->len : y->len;
	int			c = n > 0 ? memcmp(x->p, y->p, (size_t) n) : 0;

	if (c != 0)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

bool
orc_dict_sort(orc_dict *d, int32_t *sorted, int32_t *rank)
{
	sort_key   *k;

	if (d->nkeys == 0)
		return true;
	k = pm_alloc(d->env, sizeof(sort_key) * (size_t) d->nkeys);
	if (k == NULL)
		return false;
	for (int32_t id = 0; id < d->nkeys; id++)
	{
		k[id].p = orc_dict_key(d, id, &k[id].len);
		k[id].id = id;
	}
	qsort(k, (size_t) d->nkeys, sizeof(sort_key), cmp_key);
	for (int32_t r = 0; r < d->nkeys; r++)
	{
		sorted[r] = k[r].id;
		rank[k[r].id] = r;
	}
	pm_free(d->env, k);
	return true;
}
