/*-------------------------------------------------------------------------
 * merge_aggregate_collection.c
 *	  The collection-valued aggregate functions: collect, merge_map,
 *	  merge_map_with_keytime, nested_update, nested_partial_update.
 *
 * Hand-written after apache/paimon FieldCollectAgg, FieldMergeMapAgg,
 * FieldMergeMapWithKeyTimeAgg, FieldNestedUpdateAgg and
 * FieldNestedPartialUpdateAgg. Results are one-value vectors built in the
 * per-key arena. Java builds several of these through HashSet/HashMap, so
 * its element order is hash order; here it is first-seen order (the same
 * multiset). Element equality is the key comparator's (byte content for
 * strings and binary, as BinaryMapKeys).
 *-------------------------------------------------------------------------
 */
#include "lsm/merge_aggregate_int.h"

#include <string.h>

#include "lsm/key_compare.h"
#include "common/vector_builder.h"

static const pm_merge_cell null_cell = {NULL, 0};

/* ---- collect / merge_map ------------------------------------------------ */

static bool
element_equal(const pm_vector *a, int64_t ia, const pm_vector *b, int64_t ib)
{
	bool		na = pm_vector_is_null(a, ia),
				nb = pm_vector_is_null(b, ib);

	if (na || nb)
		return na && nb;
	return pm_key_compare_value(a, ia, b, ib) == 0;
}

/* Start a one-row collection vector; elements go to b->children. */
static pm_code
collection_begin(pm_field_agg *agg, pm_arena *arena, pm_vector **v, pm_vector_builder *b,
				 pm_error *err)
{
	*v = pm_arena_zalloc(arena, sizeof(pm_vector));
	if (*v == NULL || !pm_vector_builder_init(b, *v, agg->type, 1, arena))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	return PM_OK;
}

static void
collection_end(pm_vector *v, pm_vector_builder *b, pm_merge_cell *out)
{
	v->nulls[0] = 0;
	v->offsets[0] = 0;
	v->offsets[1] = (int32_t) b->children[0].v->length;
	v->length = 1;
	out->vec = v;
	out->row = 0;
}

static bool
built_contains(pm_vector_builder *b, const pm_vector *src, int64_t e)
{
	const pm_vector *el = b->children[0].v;

	for (int64_t i = 0; i < el->length; i++)
		if (element_equal(el, i, src, e))
			return true;
	return false;
}

pm_code
pm_agg_collect(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, pm_arena *arena,
		pm_merge_cell *out, pm_error *err)
{
	bool		an = pm_merge_cell_is_null(acc),
				inn = pm_merge_cell_is_null(in);
	pm_vector  *v;
	pm_vector_builder b;
	const pm_merge_cell parts[2] = {acc, in};
	/* Java: with an equaliser (strings, binary, nested) acc is kept as is */
	pm_type_id	et = agg->type->element->id;
	bool		equaliser = pm_type_is_varlen(et) || pm_type_is_nested(et);

	if (an && inn)
	{
		*out = null_cell;
		return PM_OK;
	}
	if ((an || inn) && !agg->distinct)
	{
		*out = an ? in : acc;
		return PM_OK;
	}
	PM_TRY(collection_begin(agg, arena, &v, &b, err));
	for (int p = 0; p < 2; p++)
	{
		const pm_vector *src;

		if (pm_merge_cell_is_null(parts[p]))
			continue;
		src = &parts[p].vec->children[0];
		for (int32_t e = parts[p].vec->offsets[parts[p].row];
			 e < parts[p].vec->offsets[parts[p].row + 1]; e++)
		{
			if (agg->distinct && !(equaliser && p == 0) && built_contains(&b, src, e))
				continue;
			if (!pm_vector_builder_append(&b.children[0], src, e))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
		}
	}
	collection_end(v, &b, out);
	return PM_OK;
}

pm_code
pm_agg_collect_retract(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, pm_arena *arena,
				pm_merge_cell *out, pm_error *err)
{
	const pm_vector *rv,
			   *av;
	int32_t		rs,
				re;
	uint8_t    *used;
	pm_vector  *v;
	pm_vector_builder b;

	if (pm_merge_cell_is_null(acc))
	{
		*out = null_cell;
		return PM_OK;
	}
	if (pm_merge_cell_is_null(in) || in.vec->offsets[in.row] == in.vec->offsets[in.row + 1])
	{
		*out = acc;
		return PM_OK;
	}
	rv = &in.vec->children[0];
	rs = in.vec->offsets[in.row];
	re = in.vec->offsets[in.row + 1];
	av = &acc.vec->children[0];
	used = pm_arena_zalloc(arena, (size_t) (re - rs));
	if (used == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	PM_TRY(collection_begin(agg, arena, &v, &b, err));
	for (int32_t e = acc.vec->offsets[acc.row]; e < acc.vec->offsets[acc.row + 1]; e++)
	{
		bool		removed = false;

		for (int32_t r = rs; r < re && !removed; r++)
			if (!used[r - rs] && element_equal(rv, r, av, e))
				used[r - rs] = 1, removed = true;
		if (!removed && !pm_vector_builder_append(&b.children[0], av, e))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	}
	collection_end(v, &b, out);
	return PM_OK;
}

/*
 * merge_map: keys of acc (values replaced by in's where in has the key),
 * then in's new keys; retract removes in's keys. Duplicate keys collapse
 * to their last value, as a Java HashMap would.
 */
pm_code
pm_agg_merge_map(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, bool retract,
		  pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	pm_vector  *v;
	pm_vector_builder b;
	const pm_vector *ak = &acc.vec->children[0],
			   *avv = &acc.vec->children[1];
	const pm_vector *ik = &in.vec->children[0],
			   *ivv = &in.vec->children[1];
	int32_t		as = acc.vec->offsets[acc.row],
				ae = acc.vec->offsets[acc.row + 1];
	int32_t		is = in.vec->offsets[in.row],
				ie = in.vec->offsets[in.row + 1];

	PM_TRY(collection_begin(agg, arena, &v, &b, err));
	for (int32_t e = as; e < ae; e++)
	{
		const pm_vector *vsrc = avv;
		int64_t		vrow = e;
		bool		skip = false;

		/* a later duplicate key in acc wins */
		for (int32_t f = e + 1; f < ae && !skip; f++)
			skip = element_equal(ak, f, ak, e);
		for (int32_t f = is; f < ie && !skip; f++)
		{
			if (element_equal(ik, f, ak, e))
			{
				if (retract)
					skip = true;
				else
					vsrc = ivv, vrow = f;
			}
		}
		if (skip)
			continue;
		if (!pm_vector_builder_append(&b.children[0], ak, e) ||
			!pm_vector_builder_append(&b.children[1], vsrc, vrow))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	}
	for (int32_t f = is; f < ie && !retract; f++)
	{
		bool		skip = false;

		for (int32_t e = as; e < ae && !skip; e++)
			skip = element_equal(ak, e, ik, f);
		for (int32_t g = f + 1; g < ie && !skip; g++)
			skip = element_equal(ik, g, ik, f);
		if (skip)
			continue;
		if (!pm_vector_builder_append(&b.children[0], ik, f) ||
			!pm_vector_builder_append(&b.children[1], ivv, f))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	}
	collection_end(v, &b, out);
	return PM_OK;
}

/* ---- nested_update ------------------------------------------------------ */

/* A nested row: element e of an ARRAY<ROW> vector. */
typedef struct nested_ref
{
	const pm_vector *rows;		/* the ROW element vector */
	int64_t		e;
} nested_ref;

static bool
nested_key_equal(const pm_field_agg *agg, nested_ref a, nested_ref b)
{
	for (int i = 0; i < agg->nnested_keys; i++)
	{
		int			f = agg->nested_keys[i];

		if (!element_equal(&a.rows->children[f], a.e, &b.rows->children[f], b.e))
			return false;
	}
	return true;
}

/* false: skip the row (ignore strategy); error strategy fails */
static pm_code
nested_key_ok(const pm_field_agg *agg, nested_ref r, bool *keep, pm_error *err)
{
	*keep = true;
	for (int i = 0; i < agg->nnested_keys; i++)
	{
		if (pm_vector_is_null(&r.rows->children[agg->nested_keys[i]], r.e))
		{
			if (agg->null_strategy == 1)
				*keep = false;
			else if (agg->null_strategy == 2)
				return pm_fail(err, PM_ERR_INVALID,
							   "nested key contains null values, primary key fields must not be null");
			return PM_OK;
		}
	}
	return PM_OK;
}

/* compare(new, old) on the nested sequence fields, ascending, NULLs first */
static int
nested_seq_compare(const pm_field_agg *agg, nested_ref a, nested_ref b)
{
	for (int i = 0; i < agg->nnested_seq; i++)
	{
		int			f = agg->nested_seq[i];
		int			c = pm_key_compare_value(&a.rows->children[f], a.e,
											 &b.rows->children[f], b.e);

		if (c != 0)
			return c;
	}
	return 0;
}

static pm_code
nested_emit(pm_field_agg *agg, nested_ref *refs, int64_t n, pm_arena *arena,
			pm_merge_cell *out, pm_error *err)
{
	pm_vector  *v;
	pm_vector_builder b;

	PM_TRY(collection_begin(agg, arena, &v, &b, err));
	for (int64_t i = 0; i < n; i++)
		if (!pm_vector_builder_append(&b.children[0], refs[i].rows, refs[i].e))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	collection_end(v, &b, out);
	return PM_OK;
}

/*
 * FieldNestedUpdateAgg. Keyed: rows of acc, then rows of in upserted by
 * nested key (a newer-or-equal nested sequence replaces; new keys up to
 * count-limit). Java keeps them in a HashMap (hash order); here the order
 * is first-seen. Unkeyed: concatenation of non-NULL rows up to the limit.
 * retract: keyed removes the keys, unkeyed every equal row.
 */
static pm_code
nested_unkeyed(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, bool retract,
			   pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	bool		an = pm_merge_cell_is_null(acc);
	int64_t		na = an ? 0 : acc.vec->offsets[acc.row + 1] - acc.vec->offsets[acc.row];
	int64_t		ni = in.vec->offsets[in.row + 1] - in.vec->offsets[in.row];
	nested_ref *refs;
	int64_t		n = 0;
	int64_t		limit;

	if (!retract && !an && na >= agg->count_limit)
	{
		*out = acc;
		return PM_OK;
	}
	refs = pm_arena_alloc(arena, sizeof(nested_ref) * (size_t) (na + ni + 1));
	if (refs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	for (int64_t i = 0; i < na; i++)
	{
		nested_ref	r = {&acc.vec->children[0], acc.vec->offsets[acc.row] + i};

		if (!pm_vector_is_null(r.rows, r.e))
			refs[n++] = r;
	}
	limit = an ? agg->count_limit : agg->count_limit - na;
	for (int64_t i = 0, added = 0; i < ni; i++)
	{
		nested_ref	r = {&in.vec->children[0], in.vec->offsets[in.row] + i};

		if (pm_vector_is_null(r.rows, r.e))
			continue;
		if (retract)
		{
			int64_t		w = 0;

			for (int64_t k = 0; k < n; k++)
				if (!element_equal(refs[k].rows, refs[k].e, r.rows, r.e))
					refs[w++] = refs[k];
			n = w;
		}
		else if (added++ < limit)
			refs[n++] = r;
	}
	return nested_emit(agg, refs, n, arena, out, err);
}

/*
 * FieldNestedUpdateAgg. Keyed: rows of acc, then rows of in upserted by
 * nested key (a newer-or-equal nested sequence replaces; new keys only up
 * to count-limit). Java keeps them in a HashMap (hash order); here the
 * order is first-seen. Unkeyed: see nested_unkeyed. Retract (keyed)
 * removes the retracted keys.
 */
pm_code
pm_agg_nested_update(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, bool retract,
			  pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	int64_t		na = pm_merge_cell_is_null(acc) ? 0 :
		acc.vec->offsets[acc.row + 1] - acc.vec->offsets[acc.row];
	int64_t		ni = in.vec->offsets[in.row + 1] - in.vec->offsets[in.row];
	nested_ref *refs;
	int64_t		n = 0;

	if (agg->nnested_keys == 0)
		return nested_unkeyed(agg, acc, in, retract, arena, out, err);
	refs = pm_arena_alloc(arena, sizeof(nested_ref) * (size_t) (na + ni + 1));
	if (refs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	for (int p = 0; p < 2; p++)
	{
		pm_merge_cell c = p == 0 ? acc : in;
		int64_t		cnt = p == 0 ? na : ni;

		for (int64_t i = 0; i < cnt; i++)
		{
			nested_ref	r = {&c.vec->children[0], c.vec->offsets[c.row] + i};
			bool		keep;
			int64_t		k;

			if (pm_vector_is_null(r.rows, r.e))
				continue;
			PM_TRY(nested_key_ok(agg, r, &keep, err));
			if (!keep)
				continue;
			for (k = 0; k < n && !nested_key_equal(agg, refs[k], r); k++)
				;
			if (p == 1 && retract)
			{
				if (k < n)
				{
					memmove(&refs[k], &refs[k + 1], sizeof(nested_ref) * (size_t) (n - k - 1));
					n--;
				}
			}
			else if (k < n)
			{
				/* Java's retract builds acc's map with plain puts */
				if ((p == 0 && retract) || agg->nnested_seq == 0 ||
					nested_seq_compare(agg, r, refs[k]) >= 0)
					refs[k] = r;
			}
			else if (p == 0 || n < agg->count_limit)
				refs[n++] = r;
		}
	}
	return nested_emit(agg, refs, n, arena, out, err);
}

/*
 * FieldNestedPartialUpdateAgg: rows of acc then of in, grouped by nested
 * key; each group's row takes, per field, the last non-NULL value. Java
 * groups in a HashMap (hash order); here groups are in first-seen order.
 */
pm_code
pm_agg_nested_partial_update(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
					  pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	int			nf = agg->type->element->nfields;
	int64_t		na = pm_merge_cell_is_null(acc) ? 0 :
		acc.vec->offsets[acc.row + 1] - acc.vec->offsets[acc.row];
	int64_t		ni = in.vec->offsets[in.row + 1] - in.vec->offsets[in.row];
	int64_t		cap = na + ni + 1;
	nested_ref *reps = pm_arena_alloc(arena, sizeof(nested_ref) * (size_t) cap);
	const pm_vector **src = pm_arena_zalloc(arena, sizeof(pm_vector *) * (size_t) (cap * nf));
	int64_t    *srow = pm_arena_zalloc(arena, sizeof(int64_t) * (size_t) (cap * nf));
	int64_t		ng = 0;
	pm_vector  *v;
	pm_vector_builder b;

	if (reps == NULL || src == NULL || srow == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	for (int p = 0; p < 2; p++)
	{
		pm_merge_cell c = p == 0 ? acc : in;
		int64_t		cnt = p == 0 ? na : ni;

		for (int64_t i = 0; i < cnt; i++)
		{
			nested_ref	r = {&c.vec->children[0], c.vec->offsets[c.row] + i};
			bool		keep;
			int64_t		g;

			if (pm_vector_is_null(r.rows, r.e))
				continue;
			PM_TRY(nested_key_ok(agg, r, &keep, err));
			if (!keep)
				continue;
			for (g = 0; g < ng && !nested_key_equal(agg, reps[g], r); g++)
				;
			if (g == ng)
				reps[ng++] = r;
			for (int f = 0; f < nf; f++)
				if (!pm_vector_is_null(&r.rows->children[f], r.e))
				{
					src[g * nf + f] = &r.rows->children[f];
					srow[g * nf + f] = r.e;
				}
		}
	}
	PM_TRY(collection_begin(agg, arena, &v, &b, err));
	for (int64_t g = 0; g < ng; g++)
		if (!pm_vector_builder_append_struct(&b.children[0], &src[g * nf], &srow[g * nf]))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	collection_end(v, &b, out);
	return PM_OK;
}

/* ---- merge_map_with_keytime -------------------------------------------- */

/* ts of value row e compared as strings (bytewise) when textual */
static int
keytime_compare(const pm_vector *a, int64_t ia, const pm_vector *b, int64_t ib)
{
	return pm_key_compare_value(a, ia, b, ib);
}

/*
 * FieldMergeMapWithKeyTimeAgg: acc's entries, then each entry of in: a
 * NULL value removes the key, a NULL timestamp is ignored, otherwise it
 * replaces an entry whose timestamp is NULL or smaller (string order).
 * Entry order: first-seen (Java: HashMap order).
 */
pm_code
pm_agg_merge_map_keytime(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, pm_arena *arena,
				  pm_merge_cell *out, pm_error *err)
{
	const pm_vector *ak = &acc.vec->children[0],
			   *av = &acc.vec->children[1];
	const pm_vector *ik = &in.vec->children[0],
			   *iv = &in.vec->children[1];
	int32_t		as = acc.vec->offsets[acc.row],
				ae = acc.vec->offsets[acc.row + 1];
	int32_t		is = in.vec->offsets[in.row],
				ie = in.vec->offsets[in.row + 1];
	int64_t		cap = (int64_t) (ae - as) + (ie - is) + 1;
	const pm_vector **ks = pm_arena_alloc(arena, sizeof(pm_vector *) * (size_t) cap);
	const pm_vector **vs = pm_arena_alloc(arena, sizeof(pm_vector *) * (size_t) cap);
	int64_t    *kr = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) cap);
	int64_t    *vr = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) cap);
	bool	   *dead = pm_arena_zalloc(arena, sizeof(bool) * (size_t) cap);
	int64_t		n = 0;
	int			ts = agg->ts_field;
	pm_vector  *v;
	pm_vector_builder b;

	if (ks == NULL || vs == NULL || kr == NULL || vr == NULL || dead == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	for (int p = 0; p < 2; p++)
	{
		const pm_vector *kv = p == 0 ? ak : ik,
				   *vv = p == 0 ? av : iv;
		int32_t		s = p == 0 ? as : is,
					e = p == 0 ? ae : ie;

		for (int32_t i = s; i < e; i++)
		{
			int64_t		k;

			for (k = 0; k < n && (dead[k] || !element_equal(ks[k], kr[k], kv, i)); k++)
				;
			if (p == 1)
			{
				if (pm_vector_is_null(vv, i))
				{
					if (k < n)
						dead[k] = true;
					continue;
				}
				if (pm_vector_is_null(&vv->children[ts], i))
					continue;
				if (k < n && !pm_vector_is_null(vs[k], vr[k]) &&
					!pm_vector_is_null(&vs[k]->children[ts], vr[k]) &&
					keytime_compare(&vv->children[ts], i, &vs[k]->children[ts], vr[k]) <= 0)
					continue;
			}
			if (k == n)
			{
				ks[n] = kv;
				kr[n] = i;
				n++;
			}
			vs[k] = vv;
			vr[k] = i;
		}
	}
	PM_TRY(collection_begin(agg, arena, &v, &b, err));
	{
		int64_t		count = 0;

		for (int64_t k = 0; k < n; k++)
		{
			if (dead[k])
				continue;
			if (!pm_vector_builder_append(&b.children[0], ks[k], kr[k]) ||
				!pm_vector_builder_append(&b.children[1], vs[k], vr[k]))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
			count++;
		}
		v->nulls[0] = 0;
		v->offsets[0] = 0;
		v->offsets[1] = (int32_t) count;
		v->length = 1;
		out->vec = v;
		out->row = 0;
	}
	return PM_OK;
}
