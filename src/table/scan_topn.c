/*-------------------------------------------------------------------------
 * scan_topn.c
 *	  Top-N on column batches (see scan_topn.h).
 *
 * The kept rows are copied into a store (a vector per column, grown with
 * vector builders in an arena); a max-heap of store row numbers has the
 * row that sorts last at its root. Once the heap holds `limit` rows, a
 * row enters only when it sorts strictly before the root, replacing it.
 * Replaced rows stay in the store until it holds about twice the limit;
 * the store is then rebuilt with the heap's rows only (in a new arena).
 * When the heap is full, a first pass over the batch compares only the
 * first key with the root's (a tight loop per type) and sends the rows
 * that may beat it to the full comparison.
 *-------------------------------------------------------------------------
 */
#include "table/scan_topn.h"

#include <math.h>
#include <string.h>

#include "common/arena.h"
#include "common/compare.h"
#include "common/vector_builder.h"

struct pm_topn
{
	const pm_env *env;
	int			ncols;
	const pm_type **col_types;
	int			nkeys;
	pm_topn_key *keys;
	int64_t		limit;

	pm_arena   *arena;			/* the store */
	pm_vector  *store;			/* ncols vectors */
	pm_vector_builder *bld;
	int64_t		nstore;			/* rows in the store */

	int64_t    *heap;			/* store rows, root = the row sorting last */
	int64_t		nheap;

	uint8_t    *cand;			/* per batch row: may beat the root */
	int64_t		cand_cap;

	pm_arena   *result_arena;
	pm_batch	result;
};

bool
pm_topn_key_supported(const pm_type *type)
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
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
		case PM_TYPE_DECIMAL:
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return true;
		default:
			return false;
	}
}

/* Two non-NULL values of one type, ascending. */
static int
cmp_values(const pm_vector *va, int64_t a, const pm_vector *vb, int64_t b)
{
	switch (va->type->id)
	{
		case PM_TYPE_FLOAT:
			return pm_cmp_double_pg(PM_VEC_VALUES(va, float)[a], PM_VEC_VALUES(vb, float)[b]);
		case PM_TYPE_DOUBLE:
			return pm_cmp_double_pg(PM_VEC_VALUES(va, double)[a], PM_VEC_VALUES(vb, double)[b]);
		case PM_TYPE_DECIMAL:
			return pm_cmp_i128(PM_VEC_VALUES(va, pm_int128)[a], PM_VEC_VALUES(vb, pm_int128)[b]);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32_t		la,
							lb;
				const uint8_t *pa = pm_vector_bytes(va, a, &la);
				const uint8_t *pb = pm_vector_bytes(vb, b, &lb);

				return pm_cmp_bytes(pa, (size_t) la, pb, (size_t) lb);
			}
		default:
			return pm_cmp_i64(pm_vector_int64_at(va, a), pm_vector_int64_at(vb, b));
	}
}

/* Row a of batch columns ca against row b of ca's twin cb, in key order. */
static int
cmp_rows(const pm_topn *t, const pm_vector *ca, int64_t a, const pm_vector *cb, int64_t b)
{
	for (int k = 0; k < t->nkeys; k++)
	{
		const pm_topn_key *key = &t->keys[k];
		const pm_vector *va = &ca[key->column];
		const pm_vector *vb = &cb[key->column];
		bool		na = pm_vector_is_null(va, a);
		bool		nb = pm_vector_is_null(vb, b);
		int			c;

		if (na || nb)
		{
			if (na && nb)
				continue;
			c = na ? 1 : -1;	/* NULLs last */
			if (key->nulls_first)
				c = -c;
			return c;
		}
		c = cmp_values(va, a, vb, b);
		if (c != 0)
			return key->descending ? -c : c;
	}
	return 0;
}

static pm_code
init_store(pm_topn *t, pm_error *err)
{
	int64_t		cap = t->limit < 1024 ? t->limit + 1 : 1024;

	t->arena = pm_arena_create(t->env);
	if (t->arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	t->store = pm_arena_zalloc(t->arena, sizeof(pm_vector) * (size_t) (t->ncols + 1));
	t->bld = pm_arena_zalloc(t->arena, sizeof(pm_vector_builder) * (size_t) (t->ncols + 1));
	if (t->store == NULL || t->bld == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	for (int c = 0; c < t->ncols; c++)
		if (!pm_vector_builder_init(&t->bld[c], &t->store[c], t->col_types[c], cap, t->arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	t->nstore = 0;
	return PM_OK;
}

pm_code
pm_topn_create(const pm_env *env, const pm_type *const *col_types, int ncols,
			   const pm_topn_key *keys, int nkeys, int64_t limit, pm_topn **out,
			   pm_error *err)
{
	pm_topn    *t;

	*out = NULL;
	if (nkeys < 1 || ncols < 1 || limit < 0)
		return pm_fail(err, PM_ERR_INVALID, "a top-N needs a key, a column and a limit >= 0");
	for (int k = 0; k < nkeys; k++)
	{
		if (keys[k].column < 0 || keys[k].column >= ncols)
			return pm_fail(err, PM_ERR_INVALID, "top-N key column %d out of range",
						   keys[k].column);
		if (!pm_topn_key_supported(col_types[keys[k].column]))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "cannot sort by a %s column",
						   pm_type_id_name(col_types[keys[k].column]->id));
	}
	t = pm_alloc(env, sizeof(pm_topn));
	if (t == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	memset(t, 0, sizeof(*t));
	t->env = env;
	t->ncols = ncols;
	t->nkeys = nkeys;
	t->limit = limit;
	t->col_types = pm_alloc(env, sizeof(pm_type *) * (size_t) ncols);
	t->keys = pm_alloc(env, sizeof(pm_topn_key) * (size_t) nkeys);
	t->heap = pm_alloc(env, sizeof(int64_t) * (size_t) (limit + 1));
	if (t->col_types == NULL || t->keys == NULL || t->heap == NULL)
	{
		pm_topn_free(t);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	}
	memcpy(t->col_types, col_types, sizeof(pm_type *) * (size_t) ncols);
	memcpy(t->keys, keys, sizeof(pm_topn_key) * (size_t) nkeys);
	if (init_store(t, err) != PM_OK)
	{
		pm_topn_free(t);
		return err->code;
	}
	*out = t;
	return PM_OK;
}

/* Copy row r of cols into the store; its store row number. */
static pm_code
store_row(pm_topn *t, const pm_vector *cols, int64_t r, int64_t *at, pm_error *err)
{
	for (int c = 0; c < t->ncols; c++)
		if (!pm_vector_builder_append(&t->bld[c], &cols[c], r))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	*at = t->nstore++;
	return PM_OK;
}

/* Heap order: a parent sorts after (or ties with) its children. */
static inline bool
heap_after(const pm_topn *t, int64_t x, int64_t y)
{
	return cmp_rows(t, t->store, x, t->store, y) > 0;
}

static void
sift_up(pm_topn *t, int64_t i)
{
	while (i > 0)
	{
		int64_t		p = (i - 1) / 2;
		int64_t		tmp;

		if (!heap_after(t, t->heap[i], t->heap[p]))
			break;
		tmp = t->heap[i];
		t->heap[i] = t->heap[p];
		t->heap[p] = tmp;
		i = p;
	}
}

static void
sift_down(pm_topn *t, int64_t i, int64_t n)
{
	for (;;)
	{
		int64_t		l = 2 * i + 1;
		int64_t		m = i;
		int64_t		tmp;

		if (l < n && heap_after(t, t->heap[l], t->heap[m]))
			m = l;
		if (l + 1 < n && heap_after(t, t->heap[l + 1], t->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = t->heap[i];
		t->heap[i] = t->heap[m];
		t->heap[m] = tmp;
		i = m;
	}
}

/* Rebuild the store with the heap's rows only. */
static pm_code
compact(pm_topn *t, pm_error *err)
{
	pm_arena   *old_arena = t->arena;
	pm_vector  *old = t->store;

	t->arena = NULL;
	if (init_store(t, err) != PM_OK)
	{
		pm_arena_destroy(t->arena);
		t->arena = old_arena;
		t->store = old;
		return err->code;
	}
	for (int64_t i = 0; i < t->nheap; i++)
	{
		int64_t		at;

		if (store_row(t, old, t->heap[i], &at, err) != PM_OK)
		{
			pm_arena_destroy(old_arena);
			return err->code;
		}
		t->heap[i] = at;
	}
	pm_arena_destroy(old_arena);
	return PM_OK;
}

/*
 * Clear cand[r] for the rows of v (values of the first key's column) whose
 * first key sorts strictly after the root's: they cannot enter; with one
 * key, those that tie with it too (a row enters only sorting strictly
 * before the root). Rows already 0 stay 0. The heap must be full.
 */
static void
first_key_filter(const pm_topn *t, const pm_vector *v, int64_t n, uint8_t *cand)
{
	const pm_topn_key *key = &t->keys[0];
	const pm_vector *rv = &t->store[key->column];
	int64_t		root = t->heap[0];
	const uint8_t *nulls = v->nulls;
	bool		nf = key->nulls_first;
	bool		desc = key->descending;
	bool		strict = t->nkeys == 1;	/* no later key can break a tie */

	if (pm_vector_is_null(rv, root))
	{
		/*
		 * NULL root: NULLs tie with it; with NULLs last every non-NULL beats
		 * it, with NULLs first none
		 */
		for (int64_t r = 0; r < n; r++)
			cand[r] &= pm_vector_is_null(v, r) ? !strict : !nf;
		return;
	}

	/*
	 * cond: the row's (non-NULL) value may beat (or, unless strict, tie)
	 * the root's. NULL rows: with NULLs first they beat a non-NULL root,
	 * else they cannot. cond is computed for NULL rows too, whose values are
	 * undefined and masked out: no branch on it (| rather than ||).
	 */
#define FIRST_KEY_LOOP(cond) \
	do { \
		if (nulls == NULL) \
			for (int64_t r = 0; r < n; r++) \
				cand[r] &= (uint8_t) (cond); \
		else if (nf) \
			for (int64_t r = 0; r < n; r++) \
				cand[r] &= (uint8_t) ((cond) | (nulls[r] != 0)); \
		else \
			for (int64_t r = 0; r < n; r++) \
				cand[r] &= (uint8_t) ((cond) & (nulls[r] == 0)); \
	} while (0)

	switch (v->type->id)
	{
		case PM_TYPE_DOUBLE:
			{
				double		x = PM_VEC_VALUES(rv, double)[root];
				const double *vals = PM_VEC_VALUES(v, double);

				if (isnan(x))
					break;
				/* NaN sorts above every number (x is not NaN) */
				if (desc && strict)
					FIRST_KEY_LOOP((vals[r] > x) | (isnan(vals[r]) != 0));
				else if (desc)
					FIRST_KEY_LOOP(!(vals[r] < x));
				else if (strict)
					FIRST_KEY_LOOP(vals[r] < x);
				else
					FIRST_KEY_LOOP(!((vals[r] > x) | (isnan(vals[r]) != 0)));
				return;
			}
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		x = PM_VEC_VALUES(rv, int64_t)[root];
				const int64_t *vals = PM_VEC_VALUES(v, int64_t);

				if (desc && strict)
					FIRST_KEY_LOOP(vals[r] > x);
				else if (desc)
					FIRST_KEY_LOOP(vals[r] >= x);
				else if (strict)
					FIRST_KEY_LOOP(vals[r] < x);
				else
					FIRST_KEY_LOOP(vals[r] <= x);
				return;
			}
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			{
				int32_t		x = PM_VEC_VALUES(rv, int32_t)[root];
				const int32_t *vals = PM_VEC_VALUES(v, int32_t);

				if (desc && strict)
					FIRST_KEY_LOOP(vals[r] > x);
				else if (desc)
					FIRST_KEY_LOOP(vals[r] >= x);
				else if (strict)
					FIRST_KEY_LOOP(vals[r] < x);
				else
					FIRST_KEY_LOOP(vals[r] <= x);
				return;
			}
		default:
			break;
	}
	/* other types (and a NaN root): the NULLs, then a comparison per row left */
	FIRST_KEY_LOOP(1);
#undef FIRST_KEY_LOOP
	for (int64_t r = 0; r < n; r++)
	{
		int			c;

		if (!cand[r] || (nulls != NULL && nulls[r]))
			continue;
		c = cmp_values(v, r, rv, root);
		if (desc)
			c = -c;
		cand[r] = strict ? c < 0 : c <= 0;
	}
}

/* t->cand for a batch: sel (or every row) less those first_key_filter drops. */
static void
prefilter(pm_topn *t, const pm_batch *b, const uint8_t *sel)
{
	int64_t		n = b->nrows;
	uint8_t    *cand = t->cand;

	for (int64_t r = 0; r < n; r++)
		cand[r] = sel == NULL || sel[r];
	first_key_filter(t, &b->cols[t->keys[0].column], n, cand);
}

bool
pm_topn_filter_first_key(const pm_topn *t, const pm_vector *v, int64_t nrows, uint8_t *sel)
{
	if (t->limit == 0)
	{
		memset(sel, 0, (size_t) nrows);
		return true;
	}
	if (t->nheap < t->limit)
		return false;
	first_key_filter(t, v, nrows, sel);
	return true;
}

pm_code
pm_topn_add(pm_topn *t, const pm_batch *b, const uint8_t *sel, pm_error *err)
{
	int64_t		r = 0;

	if (t->limit == 0)
		return PM_OK;
	if (t->arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	/* fill the heap */
	for (; r < b->nrows && t->nheap < t->limit; r++)
	{
		int64_t		at;

		if (sel != NULL && !sel[r])
			continue;
		PM_TRY(store_row(t, b->cols, r, &at, err));
		t->heap[t->nheap] = at;
		sift_up(t, t->nheap);
		t->nheap++;
	}
	if (r >= b->nrows)
		return PM_OK;
	if (b->nrows > t->cand_cap)
	{
		uint8_t    *c = pm_alloc(t->env, (size_t) b->nrows);

		if (c == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
		if (t->cand != NULL)
			pm_free(t->env, t->cand);
		t->cand = c;
		t->cand_cap = b->nrows;
	}
	prefilter(t, b, sel);
	for (; r < b->nrows; r++)
	{
		int64_t		at;

		if (!t->cand[r] || cmp_rows(t, b->cols, r, t->store, t->heap[0]) >= 0)
			continue;
		PM_TRY(store_row(t, b->cols, r, &at, err));
		t->heap[0] = at;
		sift_down(t, 0, t->nheap);
		/*
		 * The new root sorts no later than the old one: rows the prefilter
		 * dropped still cannot enter.
		 */
		if (t->nstore >= 2 * t->limit + 1024)
			PM_TRY(compact(t, err));
	}
	return PM_OK;
}

/* A store value of the first key as a pm_value of its type (non-NULL). */
static int
cmp_stat(const pm_topn *t, const pm_value *stat, int64_t row)
{
	const pm_vector *v = &t->store[t->keys[0].column];

	if (v->type->id == PM_TYPE_DECIMAL)
	{
		pm_int128	x = PM_VEC_VALUES(v, pm_int128)[row];

		return stat->u.i128 < x ? -1 : (stat->u.i128 > x ? 1 : 0);
	}
	else
	{
		int64_t		x = pm_vector_int64_at(v, row);

		return stat->u.i64 < x ? -1 : (stat->u.i64 > x ? 1 : 0);
	}
}

bool
pm_topn_part_may_enter(const pm_topn *t, const pm_field_range *range)
{
	const pm_topn_key *key = &t->keys[0];
	const pm_vector *rv;
	int64_t		root;
	bool		root_null;
	int			c;

	if (t->limit == 0)
		return false;
	if (t->nheap < t->limit || range == NULL || !range->known)
		return true;
	rv = &t->store[key->column];
	/*
	 * Only types whose statistics compare as the rows do: not floats (NaN
	 * may be left out of them) nor strings (truncated), not booleans.
	 */
	switch (rv->type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
		case PM_TYPE_DECIMAL:
			break;
		default:
			return true;
	}
	root = t->heap[0];
	root_null = pm_vector_is_null(rv, root);
	/*
	 * NULL rows enter when they sort first (before a non-NULL root), or
	 * tie with a NULL root and a later key may decide.
	 */
	if (range->null_count != 0 && (root_null ? t->nkeys > 1 : key->nulls_first))
		return true;
	if (range->row_count >= 0 && range->null_count == range->row_count)
		return false;			/* only NULLs, and they cannot enter */
	if (root_null)
		return !key->nulls_first;	/* non-NULLs beat a NULL root iff NULLs last */
	if (!range->has_min_max)
		return true;
	/* the part's best value against the root's: a tie enters through later keys */
	c = key->descending ? -cmp_stat(t, &range->max, root) : cmp_stat(t, &range->min, root);
	return c < 0 || (c == 0 && t->nkeys > 1);
}

pm_code
pm_topn_result(pm_topn *t, const pm_batch **out, pm_error *err)
{
	int64_t		n = t->nheap;
	int64_t    *order;
	pm_vector_builder *bld;

	*out = NULL;
	/* pop the root (the row sorting last) n times: sorted from the end */
	for (int64_t i = n - 1; i > 0; i--)
	{
		int64_t		tmp = t->heap[0];

		t->heap[0] = t->heap[i];
		t->heap[i] = tmp;
		sift_down(t, 0, i);
	}
	/* the heap array is now in sort order; restore nothing: rebuild below */
	if (t->result_arena != NULL)
		pm_arena_destroy(t->result_arena);
	t->result_arena = pm_arena_create(t->env);
	if (t->result_arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	order = t->heap;
	memset(&t->result, 0, sizeof(t->result));
	t->result.ncols = t->ncols;
	t->result.cols = pm_arena_zalloc(t->result_arena, sizeof(pm_vector) * (size_t) (t->ncols + 1));
	bld = pm_arena_zalloc(t->result_arena, sizeof(pm_vector_builder) * (size_t) (t->ncols + 1));
	if (t->result.cols == NULL || bld == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	for (int c = 0; c < t->ncols; c++)
	{
		if (!pm_vector_builder_init(&bld[c], &t->result.cols[c], t->col_types[c], n,
									t->result_arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
		for (int64_t i = 0; i < n; i++)
			if (!pm_vector_builder_append(&bld[c], &t->store[c], order[i]))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory in a top-N");
	}
	t->result.nrows = n;
	/* a sorted array is a valid heap only reversed: put the heap back */
	for (int64_t i = 0; i < n / 2; i++)
	{
		int64_t		tmp = order[i];

		order[i] = order[n - 1 - i];
		order[n - 1 - i] = tmp;
	}
	*out = &t->result;
	return PM_OK;
}

pm_code
pm_topn_reset(pm_topn *t, pm_error *err)
{
	t->nheap = 0;
	pm_arena_destroy(t->arena);
	t->arena = NULL;
	if (init_store(t, err) != PM_OK)
	{
		pm_arena_destroy(t->arena);
		t->arena = NULL;
		return err->code;
	}
	return PM_OK;
}

void
pm_topn_free(pm_topn *t)
{
	if (t == NULL)
		return;
	pm_arena_destroy(t->arena);
	pm_arena_destroy(t->result_arena);
	if (t->cand)
		pm_free(t->env, t->cand);
	if (t->heap)
		pm_free(t->env, t->heap);
	if (t->keys)
		pm_free(t->env, t->keys);
	if (t->col_types)
		pm_free(t->env, (void *) t->col_types);
	pm_free(t->env, t);
}
