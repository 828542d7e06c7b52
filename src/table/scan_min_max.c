/*-------------------------------------------------------------------------
 * scan_min_max.c
 *	  The exact min, max and count of fields from the scan's file
 *	  statistics, in one pass over the files.
 *
 * Every selected file must vouch for its rows: a file whose field is all
 * NULL (or was added to the schema after the file was written) contributes
 * nothing; a file with non-null values but no usable min/max (stats mode
 * none or counts, a dense _VALUE_STATS_COLS list without the field, an
 * evolved type) makes the answer unknown. The same files' row and null
 * counts give the exact count of a field's non-null values.
 *-------------------------------------------------------------------------
 */
#include "table/scan_min_max.h"

#include <string.h>

#include "table/stats_filter.h"
#include "table/table_int.h"

bool
pm_min_max_type_supported(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
		case PM_TYPE_DECIMAL:
			return true;
		default:
			return false;
	}
}

static bool
same_type(const pm_type *a, const pm_type *b)
{
	return a->id == b->id && a->precision == b->precision && a->scale == b->scale;
}

bool
pm_count_type_supported(const pm_type *type)
{
	return type->id <= PM_TYPE_TIMESTAMP_LTZ;
}

/* What a selected file holds of a table field. */
typedef enum file_field
{
	FILE_NO_VALUES,				/* no rows, or the field added after it was written */
	FILE_EVOLVED,				/* an older type: its stats are in that type */
	FILE_STATS					/* its stats are the file's ranges of the field */
} file_field;

static file_field
file_field_of(const pm_type *trow, const pm_schema *fs, int field)
{
	const pm_field *tf = &trow->fields[field];
	int			fi = pm_type_field_index_by_id(fs->row_type, tf->id);

	if (fi < 0)
		return FILE_NO_VALUES;
	return same_type(tf->type, fs->row_type->fields[fi].type) ? FILE_STATS : FILE_EVOLVED;
}

/* Adds a file's range of a field to its min/max; false: not exact. */
static bool
add_min_max(const pm_type *type, const pm_field_range *r, int64_t row_count,
			pm_field_min_max *mm)
{
	int			cmin;
	int			cmax;

	if (!r->known)
		return false;
	if (r->null_count >= 0 && r->null_count == row_count)
		return true;			/* all NULL */
	if (!r->has_min_max)
		return false;
	if (mm->all_null)
	{
		mm->min = r->min;
		mm->max = r->max;
		mm->all_null = false;
		return true;
	}
	cmin = pm_stats_value_compare(type, &r->min, &mm->min);
	cmax = pm_stats_value_compare(type, &r->max, &mm->max);
	if (cmin == 2 || cmax == 2)
		return false;
	if (cmin < 0)
		mm->min = r->min;
	if (cmax > 0)
		mm->max = r->max;
	return true;
}

pm_code
pm_scan_field_summaries(pm_scan *scan, int n, const int *fields, pm_field_summary **out,
						pm_error *err)
{
	pm_table   *table = scan->table;
	const pm_type *trow = table->schema->row_type;
	pm_field_summary *sum;
	pm_field_range *ranges;
	int			open = 0;		/* fields some answer of which is still possible */

	sum = pm_arena_alloc(scan->arena, sizeof(pm_field_summary) * (n > 0 ? n : 1));
	ranges = pm_arena_alloc(scan->arena, sizeof(pm_field_range) * (trow->nfields + 1));
	if (sum == NULL || ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(sum, 0, sizeof(pm_field_summary) * (n > 0 ? n : 1));
	*out = sum;
	if (scan->needs_merge || scan->has_deletion_vectors)
		return PM_OK;
	for (int i = 0; i < n; i++)
	{
		if (fields[i] < 0 || fields[i] >= trow->nfields)
			continue;
		/* exact until a file says otherwise */
		sum[i].mm.exact = pm_min_max_type_supported(trow->fields[fields[i]].type);
		sum[i].mm.all_null = sum[i].mm.exact;
		sum[i].count_exact = pm_count_type_supported(trow->fields[fields[i]].type);
		open += sum[i].mm.exact || sum[i].count_exact;
	}
	for (int s = 0; s < scan->nsplits && open > 0; s++)
	{
		const pm_split *sp = &scan->splits[s];

		for (int f = 0; f < sp->nfiles && open > 0; f++)
		{
			const pm_data_file_meta *file = sp->files[f];
			const pm_schema *fs;
			bool		decoded = false;

			if (file->row_count == 0)
				continue;
			PM_TRY(pm_table_schema_by_id(table, file->schema_id, &fs, err));
			for (int i = 0; i < n; i++)
			{
				pm_field_summary *fsum = &sum[i];
				const pm_field_range *r = &ranges[fields[i]];
				file_field	how;

				if (!fsum->mm.exact && !fsum->count_exact)
					continue;
				how = file_field_of(trow, fs, fields[i]);
				if (how == FILE_NO_VALUES)
					continue;
				if (how == FILE_STATS && !decoded)
				{
					PM_TRY(pm_stats_filter_file_ranges(table, file, scan->arena, ranges, err));
					decoded = true;
				}
				/* an evolved type: its stats are in the old type, a cast may make NULLs */
				if (fsum->mm.exact &&
					(how == FILE_EVOLVED ||
					 !add_min_max(trow->fields[fields[i]].type, r, file->row_count, &fsum->mm)))
					fsum->mm.exact = false;
				if (fsum->count_exact)
				{
					if (how == FILE_EVOLVED || !r->known || r->null_count < 0 ||
						r->null_count > file->row_count)
						fsum->count_exact = false;
					else
						fsum->count += file->row_count - r->null_count;
				}
				if (!fsum->mm.exact && !fsum->count_exact)
					open--;
			}
		}
	}
	for (int i = 0; i < n; i++)
	{
		if (!sum[i].mm.exact)
			memset(&sum[i].mm, 0, sizeof(sum[i].mm));
		if (!sum[i].count_exact)
			sum[i].count = 0;
	}
	return PM_OK;
}
