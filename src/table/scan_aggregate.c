/*-------------------------------------------------------------------------
 * scan_aggregate.c
 *	  Hash aggregation on column batches (see scan_aggregate.h).
 *
 * Per batch: the keys of every row are gathered column by column into
 * int64 slots, each row gets a group number from an open-addressing hash
 * table (linear probing on the hash's middle bits; the low bits pick the
 * pass), then every aggregate runs a tight loop over its column with the
 * group numbers. Without keys the loops accumulate into a local state.
 *-------------------------------------------------------------------------
 */
#include "table/scan_aggregate.h"

#include <math.h>
#include <string.h>

#include "common/compare.h"
#include "common/hash_bits.h"

#define PM_AGG_MAX_KEYS 32

struct pm_hash_agg
{
	const pm_env *env;
	const pm_type *const *col_types;
	int			nkeys;
	int			key_cols[PM_AGG_MAX_KEYS];
	int			naggs;
	pm_agg_spec *specs;
	int64_t		max_groups;

	int64_t		ngroups;
	int64_t		cap;			/* groups the arrays below hold */
	int64_t    *keys;			/* cap * nkeys */
	uint32_t   *key_nulls;		/* per group: bit k = key k is NULL */
	uint64_t   *hashes;
	pm_agg_state **states;		/* per aggregate: cap states */

	int32_t    *slots;			/* group + 1, 0 = empty */
	uint64_t	nslots;			/* power of two */

	/* per-batch scratch */
	int64_t		scratch_cap;
	int64_t    *row_keys;		/* scratch_cap * nkeys */
	uint32_t   *row_nulls;
	int32_t    *gid;

	/*
	 * One integer key whose values span a small range: group numbers by
	 * direct index, dmap[key - dbase] = group + 1 (0: not seen yet), over
	 * [dbase, dbase + dspan). The hash table still holds every group.
	 */
	bool		direct_ok;		/* off for good once the keys spread too far */
	int32_t    *dmap;
	int64_t		dbase;
	int64_t		dspan;

	uint32_t	npasses;
	uint32_t	pass;
	bool		full;
	bool		overflow;
};

/* Key range a direct map may cover (entries of 4 bytes). */
#define PM_AGG_DIRECT_SPAN	((int64_t) 1 << 16)

bool
pm_agg_key_supported(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return true;
		case PM_TYPE_DECIMAL:
			return type->precision <= 18;
		default:
			return false;
	}
}

bool
pm_agg_supported(pm_agg_kind kind, const pm_type *type)
{
	bool		number;

	if (kind == PM_AGG_COUNT_STAR)
		return true;
	if (type == NULL)
		return false;
	number = type->id == PM_TYPE_TINYINT || type->id == PM_TYPE_SMALLINT ||
		type->id == PM_TYPE_INT || type->id == PM_TYPE_BIGINT ||
		type->id == PM_TYPE_FLOAT || type->id == PM_TYPE_DOUBLE ||
		type->id == PM_TYPE_DECIMAL;
	switch (kind)
	{
		case PM_AGG_COUNT_STAR:
		case PM_AGG_COUNT:
			return true;
		case PM_AGG_SUM:
		case PM_AGG_AVG:
			return number;
		case PM_AGG_MIN:
		case PM_AGG_MAX:
			return number || type->id == PM_TYPE_BOOLEAN || type->id == PM_TYPE_DATE ||
				type->id == PM_TYPE_TIMESTAMP || type->id == PM_TYPE_TIMESTAMP_LTZ ||
				type->id == PM_TYPE_CHAR || type->id == PM_TYPE_VARCHAR;
	}
	return false;
}

int64_t
pm_hash_agg_group_bytes(int nkeys, int naggs)
{
	/* keys, null mask, hash, states, two hash slots */
	return (int64_t) nkeys * 8 + 4 + 8 + (int64_t) naggs * (int64_t) sizeof(pm_agg_state) + 8;
}

static void *
agg_alloc(pm_hash_agg *agg, size_t size, pm_error *err)
{
	void	   *p = pm_alloc(agg->env, size == 0 ? 1 : size);

	if (p == NULL)
		pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating %zu bytes", size);
	return p;
}

/* Grow the per-group arrays to hold cap groups. */
static pm_code
grow_groups(pm_hash_agg *agg, int64_t cap, pm_error *err)
{
	int64_t    *keys = NULL;
	uint32_t   *key_nulls;
	uint64_t   *hashes;

	if (agg->nkeys > 0 &&
		(keys = agg_alloc(agg, sizeof(int64_t) * agg->nkeys * cap, err)) == NULL)
		return err->code;
	if ((key_nulls = agg_alloc(agg, sizeof(uint32_t) * cap, err)) == NULL ||
		(hashes = agg_alloc(agg, sizeof(uint64_t) * cap, err)) == NULL)
		return err->code;
	if (agg->ngroups > 0)
	{
		if (keys != NULL)
			memcpy(keys, agg->keys, sizeof(int64_t) * agg->nkeys * agg->ngroups);
		memcpy(key_nulls, agg->key_nulls, sizeof(uint32_t) * agg->ngroups);
		memcpy(hashes, agg->hashes, sizeof(uint64_t) * agg->ngroups);
	}
	if (agg->keys)
		pm_free(agg->env, agg->keys);
	if (agg->key_nulls)
		pm_free(agg->env, agg->key_nulls);
	if (agg->hashes)
		pm_free(agg->env, agg->hashes);
	agg->keys = keys;
	agg->key_nulls = key_nulls;
	agg->hashes = hashes;
	for (int a = 0; a < agg->naggs; a++)
	{
		pm_agg_state *s = agg_alloc(agg, sizeof(pm_agg_state) * cap, err);

		if (s == NULL)
			return err->code;
		if (agg->ngroups > 0)
			memcpy(s, agg->states[a], sizeof(pm_agg_state) * agg->ngroups);
		if (agg->states[a])
			pm_free(agg->env, agg->states[a]);
		agg->states[a] = s;
	}
	agg->cap = cap;
	return PM_OK;
}

static inline uint64_t
slot_of(const pm_hash_agg *agg, uint64_t h)
{
	return (h >> 16) & (agg->nslots - 1);
}

static pm_code
rehash(pm_hash_agg *agg, uint64_t nslots, pm_error *err)
{
	int32_t    *slots = agg_alloc(agg, sizeof(int32_t) * nslots, err);

	if (slots == NULL)
		return err->code;
	memset(slots, 0, sizeof(int32_t) * nslots);
	if (agg->slots)
		pm_free(agg->env, agg->slots);
	agg->slots = slots;
	agg->nslots = nslots;
	for (int64_t g = 0; g < agg->ngroups; g++)
	{
		uint64_t	i = slot_of(agg, agg->hashes[g]);

		while (slots[i] != 0)
			i = (i + 1) & (nslots - 1);
		slots[i] = (int32_t) (g + 1);
	}
	return PM_OK;
}

/* A new group with zeroed states; -1 when full. */
static int64_t
new_group(pm_hash_agg *agg, const int64_t *keys, uint32_t nulls, uint64_t h, pm_error *err)
{
	int64_t		g = agg->ngroups;

	if (g >= agg->max_groups && agg->nkeys > 0)
	{
		agg->full = true;
		return -1;
	}
	if (g >= agg->cap && grow_groups(agg, agg->cap * 2, err) != PM_OK)
		return -2;
	if (agg->nkeys > 0)
		memcpy(&agg->keys[g * agg->nkeys], keys, sizeof(int64_t) * agg->nkeys);
	agg->key_nulls[g] = nulls;
	agg->hashes[g] = h;
	for (int a = 0; a < agg->naggs; a++)
		memset(&agg->states[a][g], 0, sizeof(pm_agg_state));
	agg->ngroups++;
	return g;
}

pm_code
pm_hash_agg_create(const pm_env *env, const pm_type *const *col_types, int nkeys,
				   const int *key_cols, int naggs, const pm_agg_spec *specs,
				   int64_t max_groups, pm_hash_agg **out, pm_error *err)
{
	pm_hash_agg *agg;

	*out = NULL;
	if (nkeys > PM_AGG_MAX_KEYS)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "aggregation by more than %d keys",
					   PM_AGG_MAX_KEYS);
	for (int k = 0; k < nkeys; k++)
		if (!pm_agg_key_supported(col_types[key_cols[k]]))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "grouping by %s",
						   pm_type_id_name(col_types[key_cols[k]]->id));
	for (int a = 0; a < naggs; a++)
		if (!pm_agg_supported(specs[a].kind,
							  specs[a].kind == PM_AGG_COUNT_STAR ? NULL :
							  col_types[specs[a].column]))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "aggregate %d of %s", (int) specs[a].kind,
						   pm_type_id_name(col_types[specs[a].column]->id));
	agg = pm_alloc(env, sizeof(pm_hash_agg));
	if (agg == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(agg, 0, sizeof(*agg));
	agg->env = env;
	agg->col_types = col_types;
	agg->nkeys = nkeys;
	if (nkeys > 0)
		memcpy(agg->key_cols, key_cols, sizeof(int) * nkeys);
	agg->naggs = naggs;
	agg->max_groups = max_groups < 1 ? 1 : max_groups;
	agg->npasses = 1;
	agg->direct_ok = nkeys == 1;
	*out = agg;
	if ((agg->specs = agg_alloc(agg, sizeof(pm_agg_spec) * naggs, err)) == NULL ||
		(agg->states = agg_alloc(agg, sizeof(pm_agg_state *) * (naggs + 1), err)) == NULL)
		return err->code;
	memcpy(agg->specs, specs, sizeof(pm_agg_spec) * naggs);
	memset(agg->states, 0, sizeof(pm_agg_state *) * (naggs + 1));
	PM_TRY(grow_groups(agg, 64, err));
	PM_TRY(rehash(agg, 256, err));
	if (nkeys == 0 && new_group(agg, NULL, 0, 0, err) < 0)
		return err->code;
	return PM_OK;
}

static bool
is_string_agg(const pm_hash_agg *agg, int a)
{
	const pm_agg_spec *sp = &agg->specs[a];
	pm_type_id	t;

	if (sp->kind != PM_AGG_MIN && sp->kind != PM_AGG_MAX)
		return false;
	t = agg->col_types[sp->column]->id;
	return t == PM_TYPE_CHAR || t == PM_TYPE_VARCHAR;
}

/* Free the bytes string min/max states own. */
static void
free_strings(pm_hash_agg *agg)
{
	for (int a = 0; a < agg->naggs; a++)
		if (is_string_agg(agg, a))
			for (int64_t g = 0; g < agg->ngroups; g++)
				if (agg->states[a][g].v.str.bytes != NULL)
				{
					pm_free(agg->env, agg->states[a][g].v.str.bytes);
					agg->states[a][g].v.str.bytes = NULL;
				}
}

void
pm_hash_agg_set_pass(pm_hash_agg *agg, uint32_t npasses, uint32_t pass)
{
	free_strings(agg);
	agg->npasses = npasses;
	agg->pass = pass;
	agg->full = false;
	agg->ngroups = 0;
	memset(agg->slots, 0, sizeof(int32_t) * agg->nslots);
	if (agg->dmap != NULL)
		memset(agg->dmap, 0, sizeof(int32_t) * (size_t) agg->dspan);
	if (agg->nkeys == 0)
	{
		pm_error	err;

		pm_error_clear(&err);
		(void) new_group(agg, NULL, 0, 0, &err);	/* capacity exists: cannot fail */
	}
}

void
pm_hash_agg_set_max_groups(pm_hash_agg *agg, int64_t max_groups)
{
	agg->max_groups = max_groups < 1 ? 1 : max_groups;
}

bool
pm_hash_agg_full(const pm_hash_agg *agg)
{
	return agg->full;
}

bool
pm_hash_agg_overflowed(const pm_hash_agg *agg)
{
	return agg->overflow;
}

int64_t
pm_hash_agg_ngroups(const pm_hash_agg *agg)
{
	return agg->ngroups;
}

bool
pm_hash_agg_key(const pm_hash_agg *agg, int64_t g, int k, int64_t *value)
{
	if (agg->key_nulls[g] & (UINT32_C(1) << k))
		return false;
	*value = agg->keys[g * agg->nkeys + k];
	return true;
}

const pm_agg_state *
pm_hash_agg_state(const pm_hash_agg *agg, int64_t g, int a)
{
	return &agg->states[a][g];
}

void
pm_hash_agg_free(pm_hash_agg *agg)
{
	if (agg == NULL)
		return;
	if (agg->states != NULL && agg->specs != NULL)
		free_strings(agg);
	for (int a = 0; a < agg->naggs && agg->states; a++)
		if (agg->states[a])
			pm_free(agg->env, agg->states[a]);
	if (agg->states)
		pm_free(agg->env, agg->states);
	if (agg->specs)
		pm_free(agg->env, agg->specs);
	if (agg->keys)
		pm_free(agg->env, agg->keys);
	if (agg->key_nulls)
		pm_free(agg->env, agg->key_nulls);
	if (agg->hashes)
		pm_free(agg->env, agg->hashes);
	if (agg->slots)
		pm_free(agg->env, agg->slots);
	if (agg->row_keys)
		pm_free(agg->env, agg->row_keys);
	if (agg->row_nulls)
		pm_free(agg->env, agg->row_nulls);
	if (agg->gid)
		pm_free(agg->env, agg->gid);
	if (agg->dmap)
		pm_free(agg->env, agg->dmap);
	pm_free(agg->env, agg);
}

/* ---- group numbers of a batch's rows ---- */

static pm_code
reserve_scratch(pm_hash_agg *agg, int64_t n, pm_error *err)
{
	if (n <= agg->scratch_cap)
		return PM_OK;
	if (agg->row_keys)
		pm_free(agg->env, agg->row_keys);
	if (agg->row_nulls)
		pm_free(agg->env, agg->row_nulls);
	if (agg->gid)
		pm_free(agg->env, agg->gid);
	agg->row_keys = NULL;
	agg->row_nulls = NULL;
	agg->gid = NULL;
	agg->scratch_cap = 0;
	if ((agg->row_keys = agg_alloc(agg, sizeof(int64_t) * agg->nkeys * n, err)) == NULL ||
		(agg->row_nulls = agg_alloc(agg, sizeof(uint32_t) * n, err)) == NULL ||
		(agg->gid = agg_alloc(agg, sizeof(int32_t) * n, err)) == NULL)
		return err->code;
	agg->scratch_cap = n;
	return PM_OK;
}

/* Key column k of every row into row_keys (stride nkeys), NULLs into row_nulls. */
static void
gather_key(pm_hash_agg *agg, const pm_vector *v, int k, int64_t n)
{
	int64_t    *out = agg->row_keys + k;
	int			stride = agg->nkeys;

	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
			for (int64_t r = 0; r < n; r++)
				out[r * stride] = PM_VEC_VALUES(v, uint8_t)[r];
			break;
		case PM_TYPE_TINYINT:
			for (int64_t r = 0; r < n; r++)
				out[r * stride] = PM_VEC_VALUES(v, int8_t)[r];
			break;
		case PM_TYPE_SMALLINT:
			for (int64_t r = 0; r < n; r++)
				out[r * stride] = PM_VEC_VALUES(v, int16_t)[r];
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			for (int64_t r = 0; r < n; r++)
				out[r * stride] = PM_VEC_VALUES(v, int32_t)[r];
			break;
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			for (int64_t r = 0; r < n; r++)
				out[r * stride] = PM_VEC_VALUES(v, int64_t)[r];
			break;
		case PM_TYPE_DECIMAL:
			for (int64_t r = 0; r < n; r++)
				out[r * stride] = (int64_t) PM_VEC_VALUES(v, pm_int128)[r];
			break;
		default:
			break;
	}
	if (v->nulls != NULL)
		for (int64_t r = 0; r < n; r++)
			if (v->nulls[r])
			{
				out[r * stride] = 0;	/* a NULL's slot content is unspecified */
				agg->row_nulls[r] |= UINT32_C(1) << k;
			}
}

/*
 * The group of a key (nkeys values, NULL mask, hash h): found or added.
 * -1: the groups are full; -2: error.
 */
static inline int64_t
find_group(pm_hash_agg *agg, const int64_t *key, uint32_t nulls, uint64_t h, pm_error *err)
{
	int			nk = agg->nkeys;
	uint64_t	i = slot_of(agg, h);

	for (;;)
	{
		int32_t		s = agg->slots[i];
		int64_t		g;

		if (s == 0)
		{
			g = new_group(agg, key, nulls, h, err);
			if (g < 0)
				return g;
			agg->slots[i] = (int32_t) (g + 1);
			if ((uint64_t) agg->ngroups * 2 > agg->nslots &&
				rehash(agg, agg->nslots * 2, err) != PM_OK)
				return -2;
			return g;
		}
		g = s - 1;
		if (agg->hashes[g] == h && agg->key_nulls[g] == nulls &&
			memcmp(&agg->keys[g * nk], key, sizeof(int64_t) * nk) == 0)
			return g;
		i = (i + 1) & (agg->nslots - 1);
	}
}

static inline uint64_t
key_hash(const int64_t *key, int nk, uint32_t nulls)
{
	uint64_t	h = pm_fmix64(nulls + UINT64_C(0x9e3779b97f4a7c15));

	for (int k = 0; k < nk; k++)
		h = pm_fmix64(h ^ (uint64_t) key[k]) + (uint64_t) k;
	return h;
}

/*
 * Make the direct map cover [lo, hi] (and what it covered), or return
 * false (and give up direct maps) when that is wider than
 * PM_AGG_DIRECT_SPAN.
 */
static pm_code
direct_cover(pm_hash_agg *agg, int64_t lo, int64_t hi, bool *ok, pm_error *err)
{
	int64_t		nlo = lo,
				nhi = hi;
	int32_t    *map;

	*ok = false;
	if (agg->dmap != NULL)
	{
		if (lo >= agg->dbase && hi < agg->dbase + agg->dspan)
		{
			*ok = true;
			return PM_OK;
		}
		nlo = agg->dbase < lo ? agg->dbase : lo;
		nhi = agg->dbase + agg->dspan - 1 > hi ? agg->dbase + agg->dspan - 1 : hi;
	}
	/* both ends are int64: compare without overflowing */
	if ((uint64_t) nhi - (uint64_t) nlo >= (uint64_t) PM_AGG_DIRECT_SPAN)
	{
		agg->direct_ok = false;
		return PM_OK;
	}
	if ((map = agg_alloc(agg, sizeof(int32_t) * (size_t) (nhi - nlo + 1), err)) == NULL)
		return err->code;
	memset(map, 0, sizeof(int32_t) * (size_t) (nhi - nlo + 1));
	if (agg->dmap != NULL)
	{
		memcpy(map + (agg->dbase - nlo), agg->dmap, sizeof(int32_t) * (size_t) agg->dspan);
		pm_free(agg->env, agg->dmap);
	}
	agg->dmap = map;
	agg->dbase = nlo;
	agg->dspan = nhi - nlo + 1;
	*ok = true;
	return PM_OK;
}

/*
 * The group of row r's key in the direct map's slot (not yet known there):
 * found or added by hashing, and remembered in the slot unless the key is
 * NULL. -1: the groups are full; -2: error.
 */
static int64_t
direct_miss(pm_hash_agg *agg, int64_t r, int32_t *slot, pm_error *err)
{
	const int64_t *key = &agg->row_keys[r];
	uint32_t	knull = agg->row_nulls[r];
	int64_t		g = find_group(agg, key, knull, key_hash(key, 1, knull), err);

	if (g >= 0 && knull == 0)
		*slot = (int32_t) (g + 1);
	return g;
}

/*
 * Group numbers by direct index (one key, one pass); *done false when the
 * batch's keys do not fit a direct map (the caller hashes). has_nulls:
 * whether any key of the batch is NULL. The common case (no NULL key, no
 * selection, the group seen before) is one load and one store per row.
 */
static pm_code
assign_direct(pm_hash_agg *agg, int64_t n, const uint8_t *sel, bool has_nulls, bool *done,
			  pm_error *err)
{
	const int64_t *restrict keys = agg->row_keys;
	const uint32_t *restrict knull = agg->row_nulls;
	int32_t    *restrict gid = agg->gid;
	int32_t    *dmap;
	int64_t		base;
	int64_t		lo0 = INT64_MAX,
				lo1 = INT64_MAX,
				hi0 = INT64_MIN,
				hi1 = INT64_MIN;
	int64_t		r;
	bool		ok;

	*done = false;
	/* NULL keys hold 0: a harmless widening of the range */
	for (r = 0; r + 1 < n; r += 2)
	{
		lo0 = keys[r] < lo0 ? keys[r] : lo0;
		hi0 = keys[r] > hi0 ? keys[r] : hi0;
		lo1 = keys[r + 1] < lo1 ? keys[r + 1] : lo1;
		hi1 = keys[r + 1] > hi1 ? keys[r + 1] : hi1;
	}
	if (r < n)
	{
		lo0 = keys[r] < lo0 ? keys[r] : lo0;
		hi0 = keys[r] > hi0 ? keys[r] : hi0;
	}
	PM_TRY(direct_cover(agg, lo0 < lo1 ? lo0 : lo1, hi0 > hi1 ? hi0 : hi1, &ok, err));
	if (!ok)
		return PM_OK;
	dmap = agg->dmap;
	base = agg->dbase;
	if (sel == NULL && !has_nulls)
	{
		for (r = 0; r < n; r++)
		{
			int32_t    *slot = &dmap[keys[r] - base];
			int64_t		g = (int64_t) *slot - 1;

			if (g < 0 && (g = direct_miss(agg, r, slot, err)) < 0)
				break;
			gid[r] = (int32_t) g;
		}
	}
	else
	{
		for (r = 0; r < n; r++)
		{
			int32_t    *slot = &dmap[keys[r] - base];
			int64_t		g = (int64_t) *slot - 1;

			if (sel != NULL && !sel[r])
			{
				gid[r] = -1;
				continue;
			}
			if ((g < 0 || knull[r] != 0) && (g = direct_miss(agg, r, slot, err)) < 0)
				break;
			gid[r] = (int32_t) g;
		}
	}
	if (r < n && !agg->full)
		return err->code;		/* -2: an error */
	*done = true;				/* or full: the caller reads again in more passes */
	return PM_OK;
}

static pm_code
assign_groups(pm_hash_agg *agg, const pm_batch *batch, const uint8_t *sel, pm_error *err)
{
	int64_t		n = batch->nrows;
	int			nk = agg->nkeys;

	PM_TRY(reserve_scratch(agg, n, err));
	memset(agg->row_nulls, 0, sizeof(uint32_t) * n);
	for (int k = 0; k < nk; k++)
		gather_key(agg, &batch->cols[agg->key_cols[k]], k, n);
	if (agg->direct_ok && agg->npasses == 1)
	{
		bool		done;

		PM_TRY(assign_direct(agg, n, sel, batch->cols[agg->key_cols[0]].nulls != NULL,
							 &done, err));
		if (done)
			return PM_OK;
	}
	for (int64_t r = 0; r < n; r++)
	{
		const int64_t *key = &agg->row_keys[r * nk];
		uint32_t	nulls = agg->row_nulls[r];
		uint64_t	h;
		int64_t		g;

		if (sel != NULL && !sel[r])
		{
			agg->gid[r] = -1;
			continue;
		}
		h = key_hash(key, nk, nulls);
		if ((h & (agg->npasses - 1)) != agg->pass)
		{
			agg->gid[r] = -1;
			continue;
		}
		g = find_group(agg, key, nulls, h, err);
		if (g == -2)
			return err->code;
		if (g < 0)
			return PM_OK;		/* full: the caller reads again in more passes */
		agg->gid[r] = (int32_t) g;
	}
	return PM_OK;
}

/* ---- transition functions (Postgres' arithmetic) ---- */

static inline void
wide_add(pm_agg_state *s, int64_t hi, uint64_t lo)
{
	uint64_t	sum = s->w.u64 + lo;

	s->v.i128 += (pm_int128) hi + (sum < lo);
	s->w.u64 = sum;
}

/* float8_accum (float4_accum converts to double first) */
static inline void
float_accum(pm_hash_agg *agg, pm_agg_state *s, double x)
{
	double		n = (double) s->n;	/* inputs before this one */
	double		sx = s->v.f8 + x;
	double		sxx = s->w.f8;

	if (s->n > 0)
	{
		double		tmp = x * (n + 1.0) - sx;

		sxx += tmp * tmp / ((n + 1.0) * n);
		if (isinf(sx) || isinf(sxx))
		{
			if (!isinf(s->v.f8) && !isinf(x))
				agg->overflow = true;
			sxx = NAN;
		}
	}
	else if (isnan(x) || isinf(x))
		sxx = NAN;
	s->v.f8 = sx;
	s->w.f8 = sxx;
	s->n++;
}

/*
 * The loop over the rows of one aggregate's column: each non-null value x
 * (of C type T) of a row in this pass updates state s of its group. The
 * tests that do not change within a batch (groups, nulls) are taken out of
 * the loops, so the common case (no groups, no nulls) is a plain loop over
 * the values.
 */
#define AGG_LOOP(T, BODY) \
	do { \
		const T *vals_ = (const T *) v->values; \
		if (gid == NULL) \
		{ \
			pm_agg_state local_ = st[0]; \
			pm_agg_state *s = &local_; \
			if (nulls == NULL) \
				for (int64_t r = 0; r < n; r++) \
				{ \
					T x = vals_[r]; \
					BODY; \
				} \
			else \
				for (int64_t r = 0; r < n; r++) \
				{ \
					T x = vals_[r]; \
					if (nulls[r]) \
						continue; \
					BODY; \
				} \
			st[0] = local_; \
		} \
		else if (nulls == NULL) \
			for (int64_t r = 0; r < n; r++) \
			{ \
				pm_agg_state *s; \
				T x = vals_[r]; \
				if (gid[r] < 0) \
					continue; \
				s = &st[gid[r]]; \
				BODY; \
			} \
		else \
			for (int64_t r = 0; r < n; r++) \
			{ \
				pm_agg_state *s; \
				T x = vals_[r]; \
				if (gid[r] < 0 || nulls[r]) \
					continue; \
				s = &st[gid[r]]; \
				BODY; \
			} \
	} while (0)

/*
 * Wrapping sum of n integers: four independent accumulators (the build
 * does not vectorize loops that need an epilogue; one accumulator is a
 * chain of dependent adds).
 */
#define DEFINE_SUM_NO_NULLS(T) \
static inline uint64_t \
sum_no_nulls_##T(const T *restrict v, int64_t n) \
{ \
	uint64_t	a0 = 0, \
				a1 = 0, \
				a2 = 0, \
				a3 = 0; \
	int64_t		r = 0; \
	for (; r + 4 <= n; r += 4) \
	{ \
		a0 += (uint64_t) (int64_t) v[r]; \
		a1 += (uint64_t) (int64_t) v[r + 1]; \
		a2 += (uint64_t) (int64_t) v[r + 2]; \
		a3 += (uint64_t) (int64_t) v[r + 3]; \
	} \
	for (; r < n; r++) \
		a0 += (uint64_t) (int64_t) v[r]; \
	return a0 + a1 + a2 + a3; \
}

DEFINE_SUM_NO_NULLS(int8_t)
DEFINE_SUM_NO_NULLS(int16_t)
DEFINE_SUM_NO_NULLS(int32_t)

/*
 * Integer sums without groups: one accumulator in a register, the null
 * slots masked out (their contents are unspecified) instead of branched
 * around, the count from the null bytes.
 */
#define SUM_INT_NOGROUP(T) \
	do { \
		const T *vals_ = (const T *) v->values; \
		uint64_t	acc = 0; \
		int64_t		cnt = n; \
		if (nulls == NULL) \
			acc = sum_no_nulls_##T(vals_, n); \
		else \
			for (int64_t r = 0; r < n; r++) \
			{ \
				acc += (uint64_t) (int64_t) vals_[r] & ((uint64_t) nulls[r] - 1); \
				cnt -= nulls[r]; \
			} \
		st[0].v.i64 = (int64_t) ((uint64_t) st[0].v.i64 + acc); \
		st[0].n += cnt; \
	} while (0)

#define SUM_I64(T) \
	do { \
		if (gid == NULL) \
			SUM_INT_NOGROUP(T); \
		else \
			AGG_LOOP(T, { s->v.i64 = (int64_t) ((uint64_t) s->v.i64 + (uint64_t) (int64_t) x); s->n++; }); \
	} while (0)
#define MIN_I64(T)	AGG_LOOP(T, { if (s->n == 0 || (int64_t) x < s->v.i64) s->v.i64 = x; s->n++; })
#define MAX_I64(T)	AGG_LOOP(T, { if (s->n == 0 || (int64_t) x > s->v.i64) s->v.i64 = x; s->n++; })

/* The first 8 bytes of a string, big-endian, zero-padded. */
static inline uint64_t
str_prefix(const uint8_t *p, int32_t len)
{
	uint64_t	w = 0;

	if (len >= 8)
	{
		memcpy(&w, p, 8);		/* one load */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		return w;
	}
	if (len >= 4)
	{
		/* bytes 0..3 and len-4..len-1 (overlapping), each big-endian */
		uint64_t	a = ((uint64_t) p[0] << 24) | ((uint64_t) p[1] << 16) |
			((uint64_t) p[2] << 8) | p[3];
		const uint8_t *q = p + len - 4;
		uint64_t	b = ((uint64_t) q[0] << 24) | ((uint64_t) q[1] << 16) |
			((uint64_t) q[2] << 8) | q[3];

		return (a << 32) | (b << (64 - 8 * len));
	}
	if (len > 0)
		w = ((uint64_t) p[0] << 56) | ((uint64_t) p[len >> 1] << (56 - 8 * (len >> 1))) |
			((uint64_t) p[len - 1] << (56 - 8 * (len - 1)));
	return w;
}

/*
 * min/max of strings: memcmp, then the shorter first (varstr_cmp under the
 * "C" collation); the state keeps its own copy of the bytes, and in w.u64
 * their first 8 bytes as str_prefix(). A value whose prefix is strictly
 * beyond the state's on the losing side loses without a memcmp (the first
 * differing padded byte is a real byte of the larger string, so the
 * prefixes order the strings as memcmp-then-length does).
 */
static pm_code
update_string(pm_hash_agg *agg, bool is_min, pm_agg_state *st, const pm_vector *v, int64_t n,
			  const int32_t *gid, pm_error *err)
{
	for (int64_t r = 0; r < n; r++)
	{
		pm_agg_state *s;
		int32_t		len;
		const uint8_t *p;
		int			c;
		uint64_t	pre;

		if ((gid != NULL && gid[r] < 0) || pm_vector_is_null(v, r))
			continue;
		s = &st[gid != NULL ? gid[r] : 0];
		p = pm_vector_bytes(v, r, &len);
		pre = str_prefix(p, len);
		if (s->n > 0)
		{
			if (is_min ? pre > s->w.u64 : pre < s->w.u64)
			{
				s->n++;
				continue;
			}
			if (pre == s->w.u64)
			{
				int32_t		m = len < s->v.str.len ? len : s->v.str.len;

				c = m > 0 ? memcmp(p, s->v.str.bytes, (size_t) m) : 0;
				if (c == 0)
					c = len < s->v.str.len ? -1 : (len > s->v.str.len ? 1 : 0);
				if (is_min ? c >= 0 : c <= 0)
				{
					s->n++;
					continue;
				}
			}
		}
		if (len > s->v.str.cap || s->v.str.bytes == NULL)
		{
			int32_t		cap = len < 16 ? 16 : len;
			uint8_t    *b = agg_alloc(agg, (size_t) cap, err);

			if (b == NULL)
				return err->code;
			if (s->v.str.bytes != NULL)
				pm_free(agg->env, s->v.str.bytes);
			s->v.str.bytes = b;
			s->v.str.cap = cap;
		}
		if (len > 0)
			memcpy(s->v.str.bytes, p, (size_t) len);
		s->v.str.len = len;
		s->w.u64 = pre;
		s->n++;
	}
	return PM_OK;
}

static void
update(pm_hash_agg *agg, const pm_agg_spec *spec, pm_agg_state *st, const pm_batch *batch,
	   const int32_t *gid)
{
	int64_t		n = batch->nrows;
	const pm_vector *v;
	const uint8_t *nulls;
	pm_type_id	t;

	if (spec->kind == PM_AGG_COUNT_STAR)
	{
		if (gid == NULL)
			st[0].n += n;
		else
			for (int64_t r = 0; r < n; r++)
				if (gid[r] >= 0)
					st[gid[r]].n++;
		return;
	}
	v = &batch->cols[spec->column];
	nulls = v->nulls;
	t = v->type->id;
	if (spec->kind == PM_AGG_COUNT)
	{
		if (gid == NULL)
		{
			int64_t		c = n;

			if (nulls != NULL)
				for (int64_t r = 0; r < n; r++)
					c -= nulls[r];
			st[0].n += c;
		}
		else if (nulls == NULL)
			for (int64_t r = 0; r < n; r++)
			{
				if (gid[r] >= 0)
					st[gid[r]].n++;
			}
		else
			for (int64_t r = 0; r < n; r++)
				if (gid[r] >= 0 && !nulls[r])
					st[gid[r]].n++;
		return;
	}
	switch (spec->kind)
	{
		case PM_AGG_SUM:
		case PM_AGG_AVG:
			switch (t)
			{
				case PM_TYPE_TINYINT:
					SUM_I64(int8_t);
					break;
				case PM_TYPE_SMALLINT:
					SUM_I64(int16_t);
					break;
				case PM_TYPE_INT:
					SUM_I64(int32_t);
					break;
				case PM_TYPE_BIGINT:
					AGG_LOOP(int64_t, { wide_add(s, x < 0 ? -1 : 0, (uint64_t) x); s->n++; });
					break;
				case PM_TYPE_DECIMAL:
					AGG_LOOP(pm_int128, { wide_add(s, (int64_t) (x >> 64), (uint64_t) x); s->n++; });
					break;
				case PM_TYPE_FLOAT:
					if (spec->kind == PM_AGG_AVG)
						AGG_LOOP(float, float_accum(agg, s, (double) x));
					else
						AGG_LOOP(float, {
							float		y = s->n == 0 ? x : s->v.f4 + x;

							if (isinf(y) && s->n > 0 && !isinf(s->v.f4) && !isinf(x))
								agg->overflow = true;
							s->v.f4 = y;
							s->n++;
						});
					break;
				case PM_TYPE_DOUBLE:
					if (spec->kind == PM_AGG_AVG)
						AGG_LOOP(double, float_accum(agg, s, x));
					else
						AGG_LOOP(double, {
							double		y = s->n == 0 ? x : s->v.f8 + x;

							if (isinf(y) && s->n > 0 && !isinf(s->v.f8) && !isinf(x))
								agg->overflow = true;
							s->v.f8 = y;
							s->n++;
						});
					break;
				default:
					break;
			}
			break;
		case PM_AGG_MIN:
		case PM_AGG_MAX:
			{
				bool		is_min = spec->kind == PM_AGG_MIN;

				switch (t)
				{
					case PM_TYPE_BOOLEAN:
						/* bool_and / bool_or: any nonzero byte is true */
						if (is_min)
							AGG_LOOP(uint8_t, { if (s->n == 0 || x == 0) s->v.i64 = x != 0; s->n++; });
						else
							AGG_LOOP(uint8_t, { if (s->n == 0 || x != 0) s->v.i64 = x != 0; s->n++; });
						break;
					case PM_TYPE_TINYINT:
						if (is_min)
							MIN_I64(int8_t);
						else
							MAX_I64(int8_t);
						break;
					case PM_TYPE_SMALLINT:
						if (is_min)
							MIN_I64(int16_t);
						else
							MAX_I64(int16_t);
						break;
					case PM_TYPE_INT:
					case PM_TYPE_DATE:
						if (is_min)
							MIN_I64(int32_t);
						else
							MAX_I64(int32_t);
						break;
					case PM_TYPE_BIGINT:
					case PM_TYPE_TIMESTAMP:
					case PM_TYPE_TIMESTAMP_LTZ:
						if (is_min)
							MIN_I64(int64_t);
						else
							MAX_I64(int64_t);
						break;
					case PM_TYPE_DECIMAL:
						if (is_min)
							AGG_LOOP(pm_int128, { if (s->n == 0 || x < s->v.i128) s->v.i128 = x; s->n++; });
						else
							AGG_LOOP(pm_int128, { if (s->n == 0 || x > s->v.i128) s->v.i128 = x; s->n++; });
						break;
					case PM_TYPE_FLOAT:
						/* float4smaller/larger: keep the state only when strictly better */
						if (is_min)
							AGG_LOOP(float, { if (s->n == 0 || pm_cmp_double_pg(s->v.f4, x) >= 0) s->v.f4 = x; s->n++; });
						else
							AGG_LOOP(float, { if (s->n == 0 || pm_cmp_double_pg(s->v.f4, x) <= 0) s->v.f4 = x; s->n++; });
						break;
					case PM_TYPE_DOUBLE:
						if (is_min)
							AGG_LOOP(double, { if (s->n == 0 || pm_cmp_double_pg(s->v.f8, x) >= 0) s->v.f8 = x; s->n++; });
						else
							AGG_LOOP(double, { if (s->n == 0 || pm_cmp_double_pg(s->v.f8, x) <= 0) s->v.f8 = x; s->n++; });
						break;
					default:
						break;
				}
				break;
			}
		default:
			break;
	}
}

pm_code
pm_hash_agg_add(pm_hash_agg *agg, const pm_batch *batch, const uint8_t *sel, pm_error *err)
{
	const int32_t *gid = NULL;

	if (agg->full || batch->nrows == 0)
		return PM_OK;
	if (agg->nkeys > 0)
	{
		PM_TRY(assign_groups(agg, batch, sel, err));
		if (agg->full)
			return PM_OK;
		gid = agg->gid;
	}
	else if (sel != NULL)
	{
		PM_TRY(reserve_scratch(agg, batch->nrows, err));
		for (int64_t r = 0; r < batch->nrows; r++)
			agg->gid[r] = sel[r] ? 0 : -1;
		gid = agg->gid;
	}
	for (int a = 0; a < agg->naggs; a++)
	{
		if (is_string_agg(agg, a))
			PM_TRY(update_string(agg, agg->specs[a].kind == PM_AGG_MIN, agg->states[a],
								 &batch->cols[agg->specs[a].column], batch->nrows, gid, err));
		else
			update(agg, &agg->specs[a], agg->states[a], batch, gid);
	}
	return PM_OK;
}
