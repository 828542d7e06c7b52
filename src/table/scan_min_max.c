/*-------------------------------------------------------------------------
 * scan_min_max.c
 *	  The exact min and max of a field from the scan's file statistics.
 *
 * Every selected file must vouch for its rows: a file whose field is all
 * NULL (or was added to the schema after the file was written) contributes
 * nothing; a file with non-null values but no usable min/max (stats mode
 * none or counts, a dense _VALUE_STATS_COLS list without the field, an
 * evolved type) makes the answer unknown.
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

pm_code
pm_scan_field_min_max(pm_scan *scan, int field, pm_field_min_max *out, pm_error *err)
{
	pm_table   *table = scan->table;
	const pm_type *trow = table->schema->row_type;
	const pm_type *ttype;
	pm_field_range *ranges;

	memset(out, 0, sizeof(*out));
	if (field < 0 || field >= trow->nfields || scan->needs_merge || scan->has_deletion_vectors)
		return PM_OK;
	ttype = trow->fields[field].type;
	if (!pm_min_max_type_supported(ttype))
		return PM_OK;
	ranges = pm_arena_alloc(scan->arena, sizeof(pm_field_range) * (trow->nfields + 1));
	if (ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	out->all_null = true;
	for (int s = 0; s < scan->nsplits; s++)
	{
		const pm_split *sp = &scan->splits[s];

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *file = sp->files[f];
			const pm_schema *fs;
			int			fi;
			pm_field_range *r = &ranges[field];

			if (file->row_count == 0)
				continue;
			PM_TRY(pm_table_schema_by_id(table, file->schema_id, &fs, err));
			fi = pm_type_field_index_by_id(fs->row_type, trow->fields[field].id);
			if (fi < 0)
				continue;		/* added after the file was written: all NULL */
			if (!same_type(ttype, fs->row_type->fields[fi].type))
				return PM_OK;	/* evolved type: the file's stats are in its old type */
			PM_TRY(pm_stats_filter_file_ranges(table, file, scan->arena, ranges, err));
			if (!r->known)
				return PM_OK;
			if (r->null_count >= 0 && r->null_count == file->row_count)
				continue;		/* all NULL */
			if (!r->has_min_max)
				return PM_OK;
			if (out->all_null)
			{
				out->min = r->min;
				out->max = r->max;
				out->all_null = false;
				continue;
			}
			{
				int			cmin = pm_stats_value_compare(ttype, &r->min, &out->min);
				int			cmax = pm_stats_value_compare(ttype, &r->max, &out->max);

				if (cmin == 2 || cmax == 2)
					return PM_OK;
				if (cmin < 0)
					out->min = r->min;
				if (cmax > 0)
					out->max = r->max;
			}
		}
	}
	out->exact = true;
	return PM_OK;
}
