/*-------------------------------------------------------------------------
 * key_range_split.c
 *	  Cut a primary-key bucket into key ranges (see key_range_split.h).
 *
 * The pieces of every file of the bucket (first key's minimum, row count)
 * are sorted by minimum; cut i is the minimum of the first piece before
 * which at least i/n of the rows lie. Equal or leading cuts are dropped,
 * so a bucket may get fewer ranges than wanted. Never reads data pages.
 *-------------------------------------------------------------------------
 */
#include "table/key_range_split.h"

#include <string.h>

#include "row/value.h"
#include "table/table_int.h"

bool
pm_key_range_type_ok(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_VARCHAR:
			return true;
		default:
			return false;
	}
}

int
pm_scan_key_ranges_wanted(const pm_scan *scan, const pm_split *sp)
{
	const pm_table *t = scan->table;
	int64_t		bytes = 0;
	int64_t		n;

	if (scan->part_unit_bytes <= 0 || t->ntrimmed_pk == 0 ||
		!pm_key_range_type_ok(t->schema->row_type->fields[t->trimmed_pk[0]].type))
		return 1;
	for (int i = 0; i < sp->nfiles; i++)
		bytes += sp->files[i]->file_size;
	n = (bytes + PM_KEY_RANGE_UNITS * scan->part_unit_bytes - 1) /
		(PM_KEY_RANGE_UNITS * scan->part_unit_bytes);
	return n < 1 ? 1 : (n > PM_KEY_RANGES_MAX ? PM_KEY_RANGES_MAX : (int) n);
}

/* Stable merge sort of pieces by minimum (tmp: room for n). */
static void
sort_pieces(const pm_type *type, pm_key_piece *p, pm_key_piece *tmp, int n)
{
	for (int w = 1; w < n; w *= 2)
	{
		for (int lo = 0; lo < n; lo += 2 * w)
		{
			int			mid = lo + w < n ? lo + w : n;
			int			hi = lo + 2 * w < n ? lo + 2 * w : n;
			int			a = lo,
						b = mid,
						o = lo;

			while (a < mid && b < hi)
				tmp[o++] = pm_value_compare(type, &p[b].min, &p[a].min) < 0 ? p[b++] : p[a++];
			while (a < mid)
				tmp[o++] = p[a++];
			while (b < hi)
				tmp[o++] = p[b++];
		}
		memcpy(p, tmp, sizeof(pm_key_piece) * (size_t) n);
	}
}

pm_code
pm_key_ranges_plan(pm_table *table, const pm_data_file_meta *const *files, int nfiles,
				   int nwanted, pm_arena *arena, pm_key_ranges *out, pm_error *err)
{
	pm_key_piece *all = NULL,
			   *tmp;
	pm_value   *cuts;
	int			n = 0,
				cap = 0,
				ncuts = 0;
	int64_t		total = 0,
				before = 0;
	int			j = 0;

	memset(out, 0, sizeof(*out));
	out->nranges = 1;
	if (table->ntrimmed_pk == 0)
		return PM_OK;
	out->field = table->trimmed_pk[0];
	out->type = table->schema->row_type->fields[out->field].type;
	if (nwanted <= 1 || !pm_key_range_type_ok(out->type))
		return PM_OK;
	for (int f = 0; f < nfiles; f++)
	{
		pm_key_piece *p;
		int			np;

		PM_TRY(pm_data_file_key_pieces(table, files[f], arena, &p, &np, err));
		if (n + np > cap)
		{
			pm_key_piece *na;

			cap = 2 * (n + np) + 16;
			if ((na = pm_arena_alloc(arena, sizeof(pm_key_piece) * (size_t) cap)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory cutting a bucket");
			if (n > 0)
				memcpy(na, all, sizeof(pm_key_piece) * (size_t) n);
			all = na;
		}
		if (np > 0)
			memcpy(all + n, p, sizeof(pm_key_piece) * (size_t) np);
		n += np;
	}
	if (n < 2)
		return PM_OK;
	tmp = pm_arena_alloc(arena, sizeof(pm_key_piece) * (size_t) n);
	cuts = pm_arena_alloc(arena, sizeof(pm_value) * (size_t) nwanted);
	if (tmp == NULL || cuts == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory cutting a bucket");
	sort_pieces(out->type, all, tmp, n);
	for (int i = 0; i < n; i++)
		total += all[i].nrows;
	for (int i = 1; i < nwanted; i++)
	{
		/* the first piece with at least i/nwanted of the rows before it */
		int64_t		target = (int64_t) ((double) total * i / nwanted);
		const pm_value *c;

		while (j < n && before < target)
			before += all[j++].nrows;
		if (j >= n)
			break;
		c = &all[j].min;
		if (pm_value_compare(out->type, c, &all[0].min) <= 0 ||
			(ncuts > 0 && pm_value_compare(out->type, c, &cuts[ncuts - 1]) <= 0))
			continue;
		cuts[ncuts++] = *c;
	}
	out->cuts = cuts;
	out->nranges = ncuts + 1;
	return PM_OK;
}

static pm_predicate *
leaf(pm_arena *arena, pm_pred_op op, int field, const pm_value *v)
{
	pm_predicate *p = pm_arena_zalloc(arena, sizeof(pm_predicate));

	if (p == NULL || (p->literals = pm_arena_alloc(arena, sizeof(pm_value))) == NULL)
		return NULL;
	p->op = op;
	p->field = field;
	p->nliterals = 1;
	p->literals[0] = *v;
	return p;
}

const pm_predicate *
pm_key_range_predicate(pm_arena *arena, const pm_predicate *filter, const pm_key_ranges *kr,
					   int i)
{
	pm_predicate *and;

	if (kr->nranges <= 1)
		return filter;
	and = pm_arena_zalloc(arena, sizeof(pm_predicate));
	if (and == NULL || (and->children = pm_arena_zalloc(arena, sizeof(pm_predicate *) * 3)) == NULL)
		return NULL;
	and->op = PM_PRED_AND;
	if (filter != NULL)
		and->children[and->nchildren++] = (pm_predicate *) filter;
	if (i > 0 && (and->children[and->nchildren++] =
				  leaf(arena, PM_PRED_GE, kr->field, &kr->cuts[i - 1])) == NULL)
		return NULL;
	if (i < kr->nranges - 1)
	{
		/*
		 * The upper bound prunes too: a reader fetches a row group's
		 * column chunks whole, so pages above the range would be read even
		 * though the merge stops at the range's end. Range 0 also holds
		 * NULL keys (ordered first), which the comparison alone would prune.
		 */
		pm_predicate *below = leaf(arena, PM_PRED_LT, kr->field, &kr->cuts[i]);

		if (below == NULL)
			return NULL;
		if (i == 0)
		{
			pm_predicate *or = pm_arena_zalloc(arena, sizeof(pm_predicate));
			pm_predicate *null = pm_arena_zalloc(arena, sizeof(pm_predicate));

			if (or == NULL || null == NULL ||
				(or->children = pm_arena_zalloc(arena, sizeof(pm_predicate *) * 2)) == NULL)
				return NULL;
			null->op = PM_PRED_IS_NULL;
			null->field = kr->field;
			or->op = PM_PRED_OR;
			or->nchildren = 2;
			or->children[0] = below;
			or->children[1] = null;
			below = or;
		}
		and->children[and->nchildren++] = below;
	}
	return and;
}
