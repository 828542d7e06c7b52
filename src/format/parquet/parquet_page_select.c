/*-------------------------------------------------------------------------
 * parquet_page_select.c
 *	  Row ranges of a row group from its ColumnIndex pages and a row
 *	  selection; the pages that hold them (see the header).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_page_select.h"

#include <stdlib.h>
#include <string.h>

#include "format/parquet/parquet_stats.h"

/* Append [s, e) to rows (room for it), merging with the last range. */
static void
rows_add(pm_pq_rows *rows, int64_t s, int64_t e)
{
	if (s >= e)
		return;
	if (rows->n > 0 && rows->end[rows->n - 1] == s)
	{
		rows->end[rows->n - 1] = e;
		return;
	}
	rows->start[rows->n] = s;
	rows->end[rows->n] = e;
	rows->n++;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a;
	int64_t		y = *(const int64_t *) b;

	return x < y ? -1 : x > y ? 1 : 0;
}

bool
pm_pq_select_rows(const pm_pq_metadata *md, const pm_pq_plan *plan, int g,
				  const pm_pq_leaf_index *idx, pm_part_filter_fn filter, void *ctx,
				  pm_field_range *ranges, pm_arena *arena, pm_pq_rows *out)
{
	int64_t		nrows = md->row_groups[g].num_rows;
	int			ncols = plan->ncols;
	pm_field_range *rg_ranges;
	const pm_pq_leaf_index **col_idx;	/* per column: its leaf's indexes, or NULL */
	pm_pq_leaf **col_leaf;
	int		   *cursor;
	int64_t    *bounds;
	int			nbounds = 0;
	int64_t		cap = 1;

	memset(out, 0, sizeof(*out));
	rg_ranges = pm_arena_zalloc(arena, sizeof(pm_field_range) * (size_t) (ncols + 1));
	col_idx = pm_arena_zalloc(arena, sizeof(*col_idx) * (size_t) (ncols + 1));
	col_leaf = pm_arena_zalloc(arena, sizeof(*col_leaf) * (size_t) (ncols + 1));
	cursor = pm_arena_zalloc(arena, sizeof(int) * (size_t) (ncols + 1));
	if (rg_ranges == NULL || col_idx == NULL || col_leaf == NULL || cursor == NULL)
		return false;
	pm_pq_row_group_ranges(md, plan, g, arena, rg_ranges);
	for (int i = 0; i < ncols; i++)
	{
		pm_pq_leaf *lf = pm_pq_flat_leaf_of(plan, plan->cols[i]);
		const pm_pq_leaf_index *li;

		if (lf == NULL || lf->col.target == NULL)
			continue;
		li = &idx[lf->index];
		if (!li->has_oi || !li->has_ci || li->ci.npages != li->oi.npages)
			continue;
		col_idx[i] = li;
		col_leaf[i] = lf;
		cap += li->oi.npages;
	}
	bounds = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (cap + 1));
	out->start = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (cap + 1));
	out->end = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (cap + 1));
	if (bounds == NULL || out->start == NULL || out->end == NULL)
		return false;
	bounds[nbounds++] = 0;
	for (int i = 0; i < ncols; i++)
		if (col_idx[i] != NULL)
			for (int k = 1; k < col_idx[i]->oi.npages; k++)
				bounds[nbounds++] = col_idx[i]->oi.first_row[k];
	qsort(bounds, (size_t) nbounds, sizeof(int64_t), cmp_i64);
	if (nbounds == 1)
	{
		rows_add(out, 0, nrows);
		return true;
	}
	for (int b = 0; b < nbounds; b++)
	{
		int64_t		s = bounds[b];
		int64_t		e = b + 1 < nbounds ? bounds[b + 1] : nrows;

		if (s >= e)
			continue;			/* duplicate boundary */
		for (int i = 0; i < ncols; i++)
		{
			const pm_pq_offset_index *oi;
			int			k;

			if (col_idx[i] == NULL)
			{
				ranges[i] = rg_ranges[i];
				continue;
			}
			oi = &col_idx[i]->oi;
			k = cursor[i];
			while (k + 1 < oi->npages && oi->first_row[k + 1] <= s)
				k++;
			cursor[i] = k;
			pm_pq_page_range(md, col_leaf[i], &col_idx[i]->ci, k,
							 pm_pq_page_rows(oi, k, nrows), arena, &ranges[i]);
		}
		if (filter(ctx, ranges, ncols, e - s))
			rows_add(out, s, e);
	}
	return true;
}

bool
pm_pq_rows_intersect(const pm_pq_rows *rows, const pm_row_selection *sel, int64_t rg_first,
					 pm_arena *arena, pm_pq_rows *out)
{
	int64_t		j0 = 0,
				j;
	int			i = 0;
	int64_t		cap;

	memset(out, 0, sizeof(*out));
	while (j0 < sel->n && sel->end[j0] <= rg_first)
		j0++;
	/* two sorted lists of n and m ranges intersect in at most n + m ranges */
	cap = rows->n;
	for (j = j0; j < sel->n && rows->n > 0 && sel->start[j] - rg_first < rows->end[rows->n - 1]; j++)
		cap++;
	out->start = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (cap + 1));
	out->end = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (cap + 1));
	if (out->start == NULL || out->end == NULL)
		return false;
	j = j0;
	while (i < rows->n && j < sel->n)
	{
		int64_t		ss = sel->start[j] - rg_first;
		int64_t		se = sel->end[j] - rg_first;
		int64_t		a = rows->start[i] > ss ? rows->start[i] : ss;
		int64_t		b = rows->end[i] < se ? rows->end[i] : se;

		if (a < b && out->n < cap)
			rows_add(out, a, b);
		if (rows->end[i] < se)
			i++;
		else
			j++;
	}
	return true;
}

int
pm_pq_select_pages(const pm_pq_offset_index *oi, int64_t rg_rows, const pm_pq_rows *rows,
				   int *pages)
{
	int			n = 0;
	int			r = 0;

	for (int k = 0; k < oi->npages && r < rows->n; k++)
	{
		int64_t		s = oi->first_row[k];
		int64_t		e = s + pm_pq_page_rows(oi, k, rg_rows);

		while (r < rows->n && rows->end[r] <= s)
			r++;
		if (r < rows->n && rows->start[r] < e)
			pages[n++] = k;
	}
	return n;
}
