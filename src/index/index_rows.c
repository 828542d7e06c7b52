/*-------------------------------------------------------------------------
 * index_rows.c
 *	  A file index's row bitmap as a row selection (see the header).
 *-------------------------------------------------------------------------
 */
#include "index/index_rows.h"

#include <string.h>

bool
pm_index_rows_selection(const roaring_bitmap_t *rows, int64_t row_count, int64_t max_gap,
						pm_arena *arena, const pm_row_selection **out)
{
	roaring_uint32_iterator_t it;
	pm_row_selection *sel;
	int64_t    *start,
			   *end;
	int64_t		n = 0,
				cap = 16;

	*out = NULL;
	if (row_count <= 0)
		return true;
	sel = pm_arena_zalloc(arena, sizeof(*sel));
	start = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) cap);
	end = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) cap);
	if (sel == NULL || start == NULL || end == NULL)
		return false;
	roaring_init_iterator(rows, &it);
	for (; it.has_value && (int64_t) it.current_value < row_count;
		 roaring_advance_uint32_iterator(&it))
	{
		int64_t		r = it.current_value;

		if (n > 0 && r - end[n - 1] < max_gap)
		{
			end[n - 1] = r + 1;
			continue;
		}
		if (n == cap)
		{
			int64_t    *s2 = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) cap * 2);
			int64_t    *e2 = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) cap * 2);

			if (s2 == NULL || e2 == NULL)
				return false;
			memcpy(s2, start, sizeof(int64_t) * (size_t) n);
			memcpy(e2, end, sizeof(int64_t) * (size_t) n);
			start = s2;
			end = e2;
			cap *= 2;
		}
		start[n] = r;
		end[n] = r + 1;
		n++;
	}
	if (n == 1 && start[0] == 0 && end[0] >= row_count)
		return true;			/* every row */
	sel->n = n;
	sel->start = start;
	sel->end = end;
	*out = sel;
	return true;
}
