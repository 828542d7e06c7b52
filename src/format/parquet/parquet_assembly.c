/*-------------------------------------------------------------------------
 * parquet_assembly.c
 *	  Requested type -> Parquet schema matching, and record assembly of
 *	  nested vectors from definition/repetition levels (see the header).
 *
 * The slot rule, for a node N and a level entry (r, d) of a leaf below it:
 * the entry starts a new slot of N iff r <= N.rep and d >= N.dslot, where
 * N.rep is N's repetition level and N.dslot the definition level of N's
 * nearest repeated ancestor (0 at top level); the slot is NULL iff
 * d < N.def_null (N's own definition level). Entries that start no slot at
 * N start none below it either when d < N.dslot.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_assembly.h"

#include <string.h>

#include "common/vector_builder.h"

/* ------------------------------------------------------------- building */

typedef struct build_ctx
{
	const pm_env *env;
	pm_arena   *arena;
	pm_pq_plan *plan;
	pm_pq_anode *stack[PM_PQ_MAX_SCHEMA_DEPTH * 2 + 8];
	int			depth;
	pm_error   *err;
} build_ctx;

static bool
type_uses_offsets(pm_type_id id)
{
	return pm_type_is_varlen(id) || id == PM_TYPE_ARRAY || id == PM_TYPE_MULTISET ||
		id == PM_TYPE_MAP;
}

static pm_pq_anode *
new_anode(build_ctx *b, const pm_type *t, pm_pq_anode_kind kind)
{
	pm_pq_anode *an = pm_arena_zalloc(b->arena, sizeof(pm_pq_anode));

	if (an == NULL)
		return NULL;
	an->type = t;
	an->kind = kind;
	an->owner = -1;
	an->want_nanos = (t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) &&
		t->precision > 6;
	return an;
}

static pm_code
nomem(build_ctx *b)
{
	return pm_fail(b->err, PM_ERR_NOMEM, "out of memory planning a parquet read");
}

/* A node absent from the file, with absent children mirroring its type. */
static pm_code
build_missing(build_ctx *b, const pm_type *t, pm_pq_anode **out)
{
	pm_pq_anode *an = new_anode(b, t, PM_PQ_AN_MISSING);
	int			n = 0;

	if (an == NULL)
		return nomem(b);
	if (t->id == PM_TYPE_ROW)
		n = t->nfields;
	else if (t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MULTISET)
		n = 1;
	else if (t->id == PM_TYPE_MAP)
		n = 2;
	if (n > 0)
	{
		an->children = pm_arena_zalloc(b->arena, sizeof(pm_pq_anode *) * (size_t) n);
		if (an->children == NULL)
			return nomem(b);
		an->nchildren = n;
		for (int i = 0; i < n; i++)
		{
			const pm_type *ct = t->id == PM_TYPE_ROW ? t->fields[i].type :
				(i == 0 ? t->element : t->value);

			PM_TRY(build_missing(b, ct, &an->children[i]));
		}
	}
	*out = an;
	return PM_OK;
}

static pm_code
add_leaf(build_ctx *b, const pm_pq_node *fn, const pm_type *target, pm_pq_anode *leaf_an,
		 const char *name)
{
	pm_pq_plan *plan = b->plan;
	pm_pq_leaf *lf;

	if (plan->nleaves == plan->leaves_cap)
	{
		int			ncap = plan->leaves_cap ? plan->leaves_cap * 2 : 16;
		pm_pq_leaf **nl = pm_arena_realloc(b->arena, plan->leaves,
										   sizeof(pm_pq_leaf *) * (size_t) plan->leaves_cap,
										   sizeof(pm_pq_leaf *) * (size_t) ncap);

		if (nl == NULL)
			return nomem(b);
		plan->leaves = nl;
		plan->leaves_cap = ncap;
	}
	lf = pm_arena_zalloc(b->arena, sizeof(pm_pq_leaf));
	if (lf == NULL)
		return nomem(b);
	lf->index = plan->nleaves;
	plan->leaves[plan->nleaves++] = lf;
	PM_TRY(pm_pq_column_init(&lf->col, b->env, fn, target, name, b->err));
	lf->npath = b->depth;
	lf->path = pm_arena_alloc(b->arena, sizeof(pm_pq_anode *) * (size_t) (b->depth + 1));
	if (lf->path == NULL)
		return nomem(b);
	memcpy(lf->path, b->stack, sizeof(pm_pq_anode *) * (size_t) b->depth);
	lf->leaf_an = leaf_an;
	lf->flat = leaf_an != NULL && b->depth == 1 && fn->max_rep == 0;
	for (int i = 0; i < b->depth; i++)
		if (b->stack[i]->owner < 0)
			b->stack[i]->owner = lf->index;
	return PM_OK;
}

static const pm_pq_node *
child_by_name(const pm_pq_node *g, const char *name)
{
	for (int i = 0; i < g->nchildren; i++)
		if (strcmp(g->children[i]->name, name) == 0)
			return g->children[i];
	return NULL;
}

static bool
is_list(const pm_pq_node *n)
{
	return n->converted == PM_PQ_CT_LIST || n->logical == PM_PQ_LT_LIST;
}

static bool
is_map(const pm_pq_node *n)
{
	return n->converted == PM_PQ_CT_MAP || n->converted == PM_PQ_CT_MAP_KEY_VALUE ||
		n->logical == PM_PQ_LT_MAP;
}

static pm_code
unsupported(build_ctx *b, const char *name, const pm_type *t)
{
	return pm_fail(b->err, PM_ERR_UNSUPPORTED,
				   "cannot read parquet column \"%s\" as %s: the file's structure differs",
				   name, pm_type_id_name(t->id));
}

static pm_code build_node(build_ctx *b, const pm_type *t, const pm_pq_node *fn, int dslot,
						  pm_pq_anode *coll, const char *name, pm_pq_anode **out);

static pm_code
build_children(build_ctx *b, pm_pq_anode *an, int n)
{
	an->children = pm_arena_zalloc(b->arena, sizeof(pm_pq_anode *) * (size_t) (n + 1));
	if (an->children == NULL)
		return nomem(b);
	an->nchildren = n;
	return PM_OK;
}

static pm_code
build_node(build_ctx *b, const pm_type *t, const pm_pq_node *fn, int dslot,
		   pm_pq_anode *coll, const char *name, pm_pq_anode **out)
{
	pm_pq_anode *an;
	pm_code		rc = PM_OK;

	if (fn == NULL)
		return build_missing(b, t, out);
	if (b->depth >= (int) (sizeof(b->stack) / sizeof(b->stack[0])))
		return pm_fail(b->err, PM_ERR_UNSUPPORTED, "column \"%s\" nested too deeply", name);
	if (fn->repetition == PM_PQ_REPEATED)
		return unsupported(b, name, t);
	an = new_anode(b, t, PM_PQ_AN_LEAF);
	if (an == NULL)
		return nomem(b);
	an->def_null = fn->max_def;
	an->rep = fn->max_rep;
	an->dslot = dslot;
	an->coll = coll;
	*out = an;
	b->stack[b->depth++] = an;

	switch (t->id)
	{
		case PM_TYPE_ROW:
			{
				int			before = b->plan->nleaves;

				if (fn->leaf_index >= 0 || is_list(fn) || is_map(fn))
					return unsupported(b, name, t);
				an->kind = PM_PQ_AN_ROW;
				PM_TRY(build_children(b, an, t->nfields));
				for (int i = 0; i < t->nfields; i++)
				{
					const char *cn = pm_arena_sprintf(b->arena, "%s.%s", name, t->fields[i].name);

					if (cn == NULL)
						return nomem(b);
					PM_TRY(build_node(b, t->fields[i].type, child_by_name(fn, t->fields[i].name),
									  dslot, NULL, cn, &an->children[i]));
				}
				if (b->plan->nleaves == before)
				{
					/* no requested field in the file: read a leaf for the row's nulls */
					const pm_pq_node *l = fn;

					while (l->leaf_index < 0 && l->nchildren > 0)
						l = l->children[0];
					if (l->leaf_index < 0)
						return unsupported(b, name, t);
					PM_TRY(add_leaf(b, l, NULL, NULL, name));
				}
				break;
			}
		case PM_TYPE_ARRAY:
			{
				const pm_pq_node *r;
				const pm_pq_node *elem;
				const char *cn;

				if (fn->leaf_index >= 0 || fn->nchildren != 1 ||
					fn->children[0]->repetition != PM_PQ_REPEATED)
					return unsupported(b, name, t);
				r = fn->children[0];
				elem = r;
				if (r->leaf_index < 0 && r->nchildren == 1 && strcmp(r->name, "array") != 0)
				{
					const char *tuple = pm_arena_sprintf(b->arena, "%s_tuple", fn->name);

					if (tuple == NULL)
						return nomem(b);
					if (strcmp(r->name, tuple) != 0)
						elem = r->children[0];
				}
				an->kind = PM_PQ_AN_LIST;
				PM_TRY(build_children(b, an, 1));
				cn = pm_arena_sprintf(b->arena, "%s.element", name);
				if (cn == NULL)
					return nomem(b);
				if (elem == r)
				{
					/* 2-level list: the repeated node is the element, never null */
					pm_pq_anode *e;

					if (b->depth >= (int) (sizeof(b->stack) / sizeof(b->stack[0])))
						return pm_fail(b->err, PM_ERR_UNSUPPORTED, "column \"%s\" nested too deeply", name);
					e = new_anode(b, t->element, PM_PQ_AN_LEAF);
					if (e == NULL)
						return nomem(b);
					e->def_null = r->max_def;
					e->rep = r->max_rep;
					e->dslot = r->max_def;
					e->coll = an;
					an->children[0] = e;
					if (r->leaf_index < 0 || pm_type_is_nested(t->element->id))
						return pm_fail(b->err, PM_ERR_UNSUPPORTED,
									   "legacy nested list of \"%s\" is not supported", name);
					b->stack[b->depth++] = e;
					rc = add_leaf(b, r, t->element, e, cn);
					b->depth--;
					PM_TRY(rc);
				}
				else
					PM_TRY(build_node(b, t->element, elem, r->max_def, an, cn, &an->children[0]));
				break;
			}
		case PM_TYPE_MAP:
		case PM_TYPE_MULTISET:
			{
				const pm_pq_node *kv;
				const char *kn;
				const char *vn;

				if (fn->leaf_index >= 0 || fn->nchildren != 1)
					return unsupported(b, name, t);
				kv = fn->children[0];
				if (kv->repetition != PM_PQ_REPEATED || kv->leaf_index >= 0 ||
					kv->nchildren < 1 || kv->nchildren > 2 ||
					(t->id == PM_TYPE_MAP && kv->nchildren != 2))
					return unsupported(b, name, t);
				kn = pm_arena_sprintf(b->arena, "%s.key", name);
				vn = pm_arena_sprintf(b->arena, "%s.value", name);
				if (kn == NULL || vn == NULL)
					return nomem(b);
				if (t->id == PM_TYPE_MULTISET && kv->nchildren == 1)
				{
					/* no counts: the distinct elements */
					an->kind = PM_PQ_AN_LIST;
					PM_TRY(build_children(b, an, 1));
					PM_TRY(build_node(b, t->element, kv->children[0], kv->max_def, an, kn,
									  &an->children[0]));
				}
				else if (t->id == PM_TYPE_MULTISET)
				{
					/* Java's MAP<element, INT NOT NULL>: read the counts too */
					const pm_type *count = pm_type_new(b->arena, PM_TYPE_INT, false);

					if (count == NULL)
						return nomem(b);
					an->kind = PM_PQ_AN_MAP;
					an->multiset_counts = true;
					PM_TRY(build_children(b, an, 2));
					PM_TRY(build_node(b, t->element, kv->children[0], kv->max_def, an, kn,
									  &an->children[0]));
					PM_TRY(build_node(b, count, kv->children[1], kv->max_def, NULL, vn,
									  &an->children[1]));
				}
				else
				{
					an->kind = PM_PQ_AN_MAP;
					PM_TRY(build_children(b, an, 2));
					PM_TRY(build_node(b, t->element, kv->children[0], kv->max_def, an, kn,
									  &an->children[0]));
					PM_TRY(build_node(b, t->value, kv->children[1], kv->max_def, NULL, vn,
									  &an->children[1]));
				}
				break;
			}
		default:
			if (fn->leaf_index < 0 || pm_type_is_nested(t->id))
				return unsupported(b, name, t);
			an->kind = PM_PQ_AN_LEAF;
			PM_TRY(add_leaf(b, fn, t, an, name));
			break;
	}
	b->depth--;
	return rc;
}

pm_code
pm_pq_plan_build(const pm_type *request, const pm_pq_metadata *md, const pm_env *env,
				 pm_arena *arena, pm_pq_plan *plan, pm_error *err)
{
	build_ctx	b;

	memset(plan, 0, sizeof(*plan));
	if (request == NULL || request->id != PM_TYPE_ROW)
		return pm_fail(err, PM_ERR_INVALID, "the requested schema must be a ROW type");
	memset(&b, 0, sizeof(b));
	b.env = env;
	b.arena = arena;
	b.plan = plan;
	b.err = err;
	plan->ncols = request->nfields;
	plan->cols = pm_arena_zalloc(arena, sizeof(pm_pq_anode *) * (size_t) (request->nfields + 1));
	if (plan->cols == NULL)
		return nomem(&b);
	for (int i = 0; i < request->nfields; i++)
	{
		const pm_field *f = &request->fields[i];

		PM_TRY(build_node(&b, f->type, child_by_name(md->root, f->name), 0, NULL, f->name,
						  &plan->cols[i]));
	}
	return PM_OK;
}

void
pm_pq_plan_release(pm_pq_plan *plan)
{
	for (int i = 0; i < plan->nleaves; i++)
		if (plan->leaves[i] != NULL)
			pm_pq_column_release(&plan->leaves[i]->col);
}

/* ------------------------------------------------------------- vectors */

bool
pm_pq_anode_setup(pm_pq_anode *an, pm_vector *vec, int64_t cap, pm_arena *arena)
{
	const pm_type *t = an->type;
	int			size = pm_type_value_size(t->id);

	if (cap < 1)
		cap = 1;
	memset(vec, 0, sizeof(*vec));
	an->vec = vec;
	an->cap = cap;
	an->data_cap = 0;
	an->any_null = false;
	vec->type = t;
	if ((vec->nulls = pm_arena_zalloc(arena, (size_t) cap)) == NULL)
		return false;
	if (size > 0 && (vec->values = pm_arena_alloc(arena, (size_t) cap * (size_t) size)) == NULL)
		return false;
	if (an->want_nanos &&
		(vec->nanos = pm_arena_zalloc(arena, sizeof(uint16_t) * (size_t) cap)) == NULL)
		return false;
	if (type_uses_offsets(t->id) &&
		(vec->offsets = pm_arena_zalloc(arena, sizeof(int32_t) * (size_t) (cap + 1))) == NULL)
		return false;
	if (pm_type_is_varlen(t->id) && an->data_hint > 0)
	{
		/* start where the last batch ended: no regrowth and copying */
		int64_t		dc = an->data_hint + an->data_hint / 8;

		if (dc > INT32_MAX)
			dc = INT32_MAX;
		if ((vec->data = pm_arena_alloc(arena, (size_t) dc)) == NULL)
			return false;
		an->data_cap = dc;
	}
	if (an->nchildren > 0)
	{
		vec->nchildren = an->nchildren;
		vec->children = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) an->nchildren);
		if (vec->children == NULL)
			return false;
		for (int i = 0; i < an->nchildren; i++)
			if (!pm_pq_anode_setup(an->children[i], &vec->children[i], cap, arena))
				return false;
	}
	return true;
}

static inline bool
reserve(pm_pq_anode *an, int64_t need, pm_arena *arena)
{
	int64_t		ncap;

	if (need <= an->cap)
		return true;
	ncap = an->cap * 2 > need ? an->cap * 2 : need;
	if (ncap > INT32_MAX)
		return false;
	if (!pm_vector_reserve(an->vec, an->vec->length, ncap, arena))
		return false;
	an->cap = ncap;
	return true;
}

static bool
append_null(pm_pq_anode *an, pm_arena *arena)
{
	pm_vector  *v = an->vec;
	int64_t		s = v->length;

	if (!reserve(an, s + 1, arena))
		return false;
	v->nulls[s] = 1;
	an->any_null = true;
	if (v->offsets != NULL)
		v->offsets[s + 1] = v->offsets[s];
	v->length = s + 1;
	if (an->type->id == PM_TYPE_ROW)
		for (int i = 0; i < an->nchildren; i++)
			if (!append_null(an->children[i], arena))
				return false;
	return true;
}

bool
pm_pq_anode_append_nulls(pm_pq_anode *an, int64_t n, pm_arena *arena)
{
	for (int64_t i = 0; i < n; i++)
		if (!append_null(an, arena))
			return false;
	return true;
}

bool
pm_pq_anode_consistent(const pm_pq_anode *an)
{
	const pm_vector *v = an->vec;
	int64_t		want;

	if (an->nchildren == 0)
		return true;
	if (an->type->id == PM_TYPE_ROW)
		want = v->length;
	else
		want = v->offsets[v->length];
	for (int i = 0; i < an->nchildren; i++)
		if (an->children[i]->vec->length != want || !pm_pq_anode_consistent(an->children[i]))
			return false;
	return true;
}

pm_code
pm_pq_anode_expand(pm_pq_anode *an, pm_arena *arena, pm_error *err)
{
	for (int i = 0; i < an->nchildren; i++)
		PM_TRY(pm_pq_anode_expand(an->children[i], arena, err));
	if (an->multiset_counts)
		PM_TRY(pm_vector_expand_multiset(an->vec, arena, err));
	return PM_OK;
}

void
pm_pq_anode_finish(pm_pq_anode *an)
{
	if (!an->any_null && an->vec != NULL)
		an->vec->nulls = NULL;
	if (an->vec != NULL && an->vec->data_size > an->data_hint)
		an->data_hint = an->vec->data_size;
	for (int i = 0; i < an->nchildren; i++)
		pm_pq_anode_finish(an->children[i]);
}

/* ------------------------------------------------------------ assembly */

static pm_code
assemble_flat(pm_pq_leaf *lf, int64_t a, int64_t b, pm_arena *arena, pm_error *err)
{
	pm_pq_column *c = &lf->col;
	pm_pq_anode *an = lf->leaf_an;
	pm_vector  *v = an->vec;
	int64_t		n = b - a;
	int64_t		s0 = v->length;
	int64_t		k = n;

	if (!reserve(an, s0 + n, arena))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory assembling a parquet batch");
	if (c->def != NULL)
	{
		const uint8_t *d = c->def + a;
		uint8_t    *nl = v->nulls + s0;
		uint8_t		md = (uint8_t) c->max_def;

		k = 0;
		for (int64_t i = 0; i < n; i++)
		{
			uint8_t		isnull = d[i] < md;

			nl[i] = isnull;
			k += !isnull;
		}
		if (k < n)
			an->any_null = true;
	}
	v->length = s0 + n;
	return pm_pq_column_write_values(c, k, v, s0, n, &an->data_cap, arena, err);
}

pm_code
pm_pq_assemble(pm_pq_leaf *lf, int64_t a, int64_t b, pm_arena *arena, pm_error *err)
{
	pm_pq_column *c = &lf->col;
	int			me = lf->index;
	int64_t		n = b - a;
	int64_t		s0 = 0;
	int64_t		k = 0;
	uint8_t		md = (uint8_t) c->max_def;

	if (lf->flat)
		return assemble_flat(lf, a, b, arena, err);
	for (int i = 0; i < lf->npath; i++)
		if (lf->path[i]->owner == me && !reserve(lf->path[i], lf->path[i]->vec->length + n, arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory assembling a parquet batch");
	if (lf->leaf_an != NULL)
		s0 = lf->leaf_an->vec->length;
	for (int64_t e = a; e < b; e++)
	{
		int			d = c->def ? c->def[e] : c->max_def;
		int			r = c->rep ? c->rep[e] : 0;

		for (int i = 0; i < lf->npath; i++)
		{
			pm_pq_anode *an = lf->path[i];
			pm_vector  *v;
			int64_t		s;

			if (r > an->rep)
				continue;
			if (d < an->dslot)
				break;
			if (an->owner != me)
				continue;
			v = an->vec;
			s = v->length++;
			v->nulls[s] = d < an->def_null;
			an->any_null |= d < an->def_null;
			if (an->kind == PM_PQ_AN_LIST || an->kind == PM_PQ_AN_MAP)
				v->offsets[s + 1] = v->offsets[s];
			else if (an->kind == PM_PQ_AN_ROW)
			{
				for (int j = 0; j < an->nchildren; j++)
					if (an->children[j]->kind == PM_PQ_AN_MISSING &&
						!append_null(an->children[j], arena))
						return pm_fail(err, PM_ERR_NOMEM, "out of memory assembling a parquet batch");
			}
			if (an->coll != NULL && an->coll->owner == me)
				an->coll->vec->offsets[an->coll->vec->length] = (int32_t) v->length;
		}
		k += d == md;
	}
	if (lf->leaf_an == NULL)
		return pm_pq_column_write_values(c, k, NULL, 0, 0, NULL, arena, err);
	return pm_pq_column_write_values(c, k, lf->leaf_an->vec, s0,
									 lf->leaf_an->vec->length - s0,
									 &lf->leaf_an->data_cap, arena, err);
}
