/*-------------------------------------------------------------------------
 * interval_partition.c
 *	  Files of a bucket into key-disjoint sections (interval_partition.h).
 *-------------------------------------------------------------------------
 */
#include "lsm/interval_partition.h"

#include "row/binary_row.h"
#include "row/value.h"

typedef struct file_range
{
	int			file;
	pm_value   *min;
	pm_value   *max;
} file_range;

static pm_code
decode_range(pm_arena *arena, const pm_type *kt, const pm_data_file_meta *f, file_range *out,
			 pm_error *err)
{
	out->min = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (kt->nfields + 1));
	out->max = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (kt->nfields + 1));
	if (out->min == NULL || out->max == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (f->min_key == NULL || f->max_key == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "data file \"%s\" has no _MIN_KEY/_MAX_KEY",
					   f->file_name);
	PM_TRY(pm_binary_row_decode_serialized(f->min_key, (size_t) f->min_key_len, kt, out->min,
										   err));
	return pm_binary_row_decode_serialized(f->max_key, (size_t) f->max_key_len, kt, out->max,
										   err);
}

/*
 * IntervalPartition.partition(section): the sorted runs of fr[0..n-1] (in
 * section order). last is scratch of n entries: the last file of each run.
 */
static int
count_runs(const pm_type *key_type, const file_range *fr, int n, int *last)
{
	int			nruns = 0;

	for (int i = 0; i < n; i++)
	{
		int			best = -1;

		for (int k = 0; k < nruns; k++)
			if (best < 0 || pm_value_row_compare(key_type, fr[last[k]].max, fr[last[best]].max) < 0)
				best = k;
		if (best >= 0 && pm_value_row_compare(key_type, fr[i].min, fr[last[best]].max) > 0)
			last[best] = i;
		else
			last[nruns++] = i;
	}
	return nruns;
}

pm_code
pm_interval_partition(pm_arena *arena, const pm_type *key_type,
					  const pm_data_file_meta *const *files, int n, int *order,
					  int *section_end, int *nsections, int *section_runs, pm_error *err)
{
	file_range *fr = pm_arena_zalloc(arena, sizeof(file_range) * (size_t) (n + 1));
	int		   *last = pm_arena_zalloc(arena, sizeof(int) * (size_t) (n + 1));
	int			start = 0;

	*nsections = 0;
	if (fr == NULL || last == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		fr[i].file = i;
		PM_TRY(decode_range(arena, key_type, files[i], &fr[i], err));
	}
	/* by min key, then max key (a stable insertion sort: few files) */
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0; k--)
		{
			int			c = pm_value_row_compare(key_type, fr[k - 1].min, fr[k].min);
			file_range	t;

			if (c == 0)
				c = pm_value_row_compare(key_type, fr[k - 1].max, fr[k].max);
			if (c <= 0)
				break;
			t = fr[k];
			fr[k] = fr[k - 1];
			fr[k - 1] = t;
		}
	while (start < n)
	{
		const pm_value *bound = fr[start].max;
		int			end = start + 1;

		while (end < n && pm_value_row_compare(key_type, fr[end].min, bound) <= 0)
		{
			if (pm_value_row_compare(key_type, fr[end].max, bound) > 0)
				bound = fr[end].max;
			end++;
		}
		if (section_runs != NULL)
			section_runs[*nsections] = count_runs(key_type, fr + start, end - start, last);
		section_end[(*nsections)++] = end;
		start = end;
	}
	for (int i = 0; i < n; i++)
		order[i] = fr[i].file;
	return PM_OK;
}
