/*-------------------------------------------------------------------------
 * scan_min_max.c
 *	  The exact min and max of a field from the scan's file statistics.
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

/* What a selected file holds of a table field. */
typedef enum file_field
{
	FILE_NO_VALUES,				/* no rows, or the field added after it was written */
	FILE_EVOLVED,				/* an older type: its stats are in that type */
	FILE_STATS					/* ranges[field] is the file's */
} file_field;

static pm_code
file_field_stats(pm_scan *scan, const pm_data_file_meta *file, int field, pm_field_range *ranges,
				 file_field *how, pm_error *err)
{
	pm_table   *table = scan->table;
	const pm_field *tf = &table->schema->row_type->fields[field];
	const pm_schema *fs;
	int			fi;

	*how = FILE_NO_VALUES;
	if (file->row_count == 0)
		return PM_OK;
	PM_TRY(pm_table_schema_by_id(table, file->schema_id, &fs, err));
	if ((fi = pm_type_field_index_by_id(fs->row_type, tf->id)) < 0)
		return PM_OK;
	if (!same_type(tf->type, fs->row_type->fields[fi].type))
	{
		*how = FILE_EVOLVED;
		return PM_OK;
	}
	PM_TRY(pm_stats_filter_file_ranges(table, file, scan->arena, ranges, err));
	*how = FILE_STATS;
	return PM_OK;
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
			pm_field_range *r = &ranges[field];
			file_field	how;

			PM_TRY(file_field_stats(scan, file, field, ranges, &how, err));
			if (how == FILE_NO_VALUES)
				continue;
			if (how == FILE_EVOLVED)
				return PM_OK;
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

bool
pm_count_type_supported(const pm_type *type)
{
	return type->id <= PM_TYPE_TIMESTAMP_LTZ;
}

pm_code
pm_scan_field_count(pm_scan *scan, int field, int64_t *count, bool *exact, pm_error *err)
{
	pm_table   *table = scan->table;
	const pm_type *trow = table->schema->row_type;
	pm_field_range *ranges;
	int64_t		n = 0;

	*count = 0;
	*exact = false;
	if (field < 0 || field >= trow->nfields || scan->needs_merge || scan->has_deletion_vectors ||
		!pm_count_type_supported(trow->fields[field].type))
		return PM_OK;
	ranges = pm_arena_alloc(scan->arena, sizeof(pm_field_range) * (trow->nfields + 1));
	if (ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int s = 0; s < scan->nsplits; s++)
	{
		const pm_split *sp = &scan->splits[s];

		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *file = sp->files[f];
			const pm_field_range *r = &ranges[field];
			file_field	how;

			PM_TRY(file_field_stats(scan, file, field, ranges, &how, err));
			if (how == FILE_NO_VALUES)
				continue;
			if (how == FILE_EVOLVED)
				return PM_OK;	/* a cast may also turn values into NULLs */
			if (!r->known || r->null_count < 0 || r->null_count > file->row_count)
				return PM_OK;
			n += file->row_count - r->null_count;
		}
	}
	*count = n;
	*exact = true;
	return PM_OK;
}
