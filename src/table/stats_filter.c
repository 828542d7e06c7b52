/*-------------------------------------------------------------------------
 * stats_filter.c
 *	  Partition and min/max/null-count pruning of data files.
 *
 * Hand-written: Paimon's predicate "test(rowCount, min, max, nullCounts)"
 * rules (LeafPredicate / LeafFunction subclasses) over our pm_value. Never
 * prunes on doubt: incomparable values (NaN, nested types, a field whose
 * type changed since the file was written) are unknown.
 *-------------------------------------------------------------------------
 */
#include "table/stats_filter.h"

#include <math.h>
#include <string.h>

#include "format/format_reader.h"
#include "row/binary_row.h"
#include "table/table_int.h"

int
pm_stats_value_compare(const pm_type *type, const pm_value *a, const pm_value *b)
{
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return a->u.i64 < b->u.i64 ? -1 : a->u.i64 > b->u.i64 ? 1 : 0;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (a->u.i64 != b->u.i64)
				return a->u.i64 < b->u.i64 ? -1 : 1;
			return a->nanos < b->nanos ? -1 : a->nanos > b->nanos ? 1 : 0;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			if (isnan(a->u.f64) || isnan(b->u.f64))
				return 2;
			return a->u.f64 < b->u.f64 ? -1 : a->u.f64 > b->u.f64 ? 1 : 0;
		case PM_TYPE_DECIMAL:
			return a->u.i128 < b->u.i128 ? -1 : a->u.i128 > b->u.i128 ? 1 : 0;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		la = a->u.bytes.len,
							lb = b->u.bytes.len;
				int			c = 0;

				if (la < 0 || lb < 0)
					return 2;
				if (la > 0 && lb > 0)
					c = memcmp(a->u.bytes.ptr, b->u.bytes.ptr, la < lb ? la : lb);
				if (c != 0)
					return c < 0 ? -1 : 1;
				return la < lb ? -1 : la > lb ? 1 : 0;
			}
		default:
			return 2;
	}
}

/*
 * Can some non-null value v in [min, max] satisfy "v op lit"?
 *
 * As Postgres compares: a float field may hold NaN above a max that leaves
 * it out (Parquet and ORC writers skip NaN), and NaN > x, NaN >= x,
 * NaN <> x hold for every number x, so those never prune a float field.
 * TIMESTAMP values compare truncated to the microsecond (floor is
 * monotonic: the bounds of the truncated values are the truncated bounds).
 */
static bool
leaf_may_match_value(pm_pred_op op, const pm_type *type, const pm_field_range *r,
					 const pm_value *lit)
{
	pm_value	min,
				max;
	int			cmin,
				cmax;

	if (lit->is_null)
		return false;			/* comparisons with NULL are never true */
	if (!r->has_min_max)
		return true;
	if ((type->id == PM_TYPE_FLOAT || type->id == PM_TYPE_DOUBLE) &&
		(op == PM_PRED_GT || op == PM_PRED_GE || op == PM_PRED_NE || isnan(lit->u.f64)))
		return true;
	min = r->min;
	max = r->max;
	if (type->id == PM_TYPE_TIMESTAMP || type->id == PM_TYPE_TIMESTAMP_LTZ)
		min.nanos = max.nanos = 0;
	cmin = pm_stats_value_compare(type, &min, lit);	/* min vs lit */
	cmax = pm_stats_value_compare(type, &max, lit);	/* max vs lit */
	if (cmin == 2 || cmax == 2)
		return true;
	switch (op)
	{
		case PM_PRED_EQ:
		case PM_PRED_IN:
			return cmin <= 0 && cmax >= 0;
		case PM_PRED_NE:
			return !(cmin == 0 && cmax == 0);
		case PM_PRED_LT:
			return cmin < 0;
		case PM_PRED_LE:
			return cmin <= 0;
		case PM_PRED_GT:
			return cmax > 0;
		case PM_PRED_GE:
			return cmax >= 0;
		default:
			return true;
	}
}

static bool
all_null(const pm_field_range *r)
{
	return r->null_count >= 0 && r->row_count >= 0 && r->null_count >= r->row_count;
}

static bool
may_match(const pm_predicate *p, const pm_type *row_type, const pm_field_range *ranges,
		  int nranges, int depth)
{
	const pm_field_range *r;
	const pm_type *type;

	if (p == NULL || depth > 200)
		return true;
	switch (p->op)
	{
		case PM_PRED_FALSE:
			return false;
		case PM_PRED_AND:
			for (int i = 0; i < p->nchildren; i++)
				if (!may_match(p->children[i], row_type, ranges, nranges, depth + 1))
					return false;
			return true;
		case PM_PRED_OR:
			if (p->nchildren <= 0)
				return true;
			for (int i = 0; i < p->nchildren; i++)
				if (may_match(p->children[i], row_type, ranges, nranges, depth + 1))
					return true;
			return false;
		default:
			break;
	}
	if (p->field < 0 || p->field >= nranges || p->field >= row_type->nfields)
		return true;
	r = &ranges[p->field];
	if (!r->known)
		return true;
	type = row_type->fields[p->field].type;
	switch (p->op)
	{
		case PM_PRED_IS_NULL:
			return !(r->null_count == 0);
		case PM_PRED_IS_NOT_NULL:
			return !all_null(r);
		case PM_PRED_EQ:
		case PM_PRED_NE:
		case PM_PRED_LT:
		case PM_PRED_LE:
		case PM_PRED_GT:
		case PM_PRED_GE:
			if (p->nliterals < 1 || p->literals == NULL)
				return true;
			if (all_null(r))
				return false;
			return leaf_may_match_value(p->op, type, r, &p->literals[0]);
		case PM_PRED_IN:
			if (p->nliterals < 1 || p->literals == NULL)
				return true;
			if (all_null(r))
				return false;
			for (int i = 0; i < p->nliterals; i++)
				if (leaf_may_match_value(PM_PRED_IN, type, r, &p->literals[i]))
					return true;
			return false;
		default:
			return true;
	}
}

bool
pm_stats_filter_may_match(const pm_predicate *pred, const pm_type *row_type,
						  const pm_field_range *ranges, int nranges)
{
	return may_match(pred, row_type, ranges, nranges, 0);
}

bool
pm_stats_type_compatible(const pm_type *table_type, const pm_type *file_type)
{
	if (pm_type_is_nested(table_type->id) || pm_type_is_nested(file_type->id))
		return false;

	/*
	 * CHAR(n) statistics may hold the values padded with spaces (ORC's
	 * column statistics do), while readers return them trimmed: they would
	 * prune files that match. Found by the oracle (difftest seed 110).
	 */
	if (table_type->id == PM_TYPE_CHAR || file_type->id == PM_TYPE_CHAR)
		return false;
	if (pm_type_is_string(table_type->id) && pm_type_is_string(file_type->id))
		return true;
	if (table_type->id != file_type->id)
		return false;
	if (table_type->id == PM_TYPE_DECIMAL)
		return table_type->scale == file_type->scale;
	return true;
}

/*
 * May a FLOAT/DOUBLE field's bounds in file's value statistics leave out
 * values of the file other than NaN? Yes for Parquet and ORC files, whose
 * statistics Java Paimon takes from the format:
 *
 * - Parquet: ParquetUtil.extractColumnStats merges the row groups'
 *   statistics as parquet-mr reads them from the footer, and parquet-mr
 *   drops a row group's min/max when either is NaN (Statistics
 *   DoubleBuilder/FloatBuilder: "NaN ordering is undefined"); the writer's
 *   comparator orders NaN last, so every row group holding a NaN has max
 *   NaN, and its other values are missing from the file's bounds (Paimon
 *   1.3's Java reader then skips such a file for x = v, a wrong answer).
 * - ORC: the writer merges stripe statistics with < and >, so a stripe
 *   whose first value was NaN (bounds NaN) adds nothing to the file's.
 *
 * Avro files' bounds come from Paimon's own collector (Double.compare: a
 * NaN makes max NaN, which compares as unknown here): those are kept.
 */
static bool
float_bounds_partial(const pm_data_file_meta *file, const pm_type *type)
{
	pm_file_format format;
	pm_error	ignored;

	if (type->id != PM_TYPE_FLOAT && type->id != PM_TYPE_DOUBLE)
		return false;
	pm_error_clear(&ignored);
	return file->file_name == NULL ||
		pm_file_format_from_path(file->file_name, &format, &ignored) != PM_OK ||
		format != PM_FORMAT_AVRO;
}

pm_code
pm_stats_filter_file_ranges(pm_table *table, const pm_data_file_meta *file, pm_arena *arena,
							pm_field_range *ranges, pm_error *err)
{
	const pm_type *trow = table->schema->row_type;
	const pm_schema *fs;
	const pm_type *frow;
	int			ncols;
	int		   *col_of_field;	/* file field index -> stats column, or -1 */
	pm_field   *sfields;
	pm_type    *stype;
	pm_value   *mins,
			   *maxs;
	bool		have_values = true;
	const pm_simple_stats *st = &file->value_stats;
	int			arity;
	pm_error	ignored;

	pm_error_clear(&ignored);
	for (int i = 0; i < trow->nfields; i++)
		memset(&ranges[i], 0, sizeof(pm_field_range));
	PM_TRY(pm_table_schema_by_id(table, file->schema_id, &fs, err));
	frow = fs->row_type;
	col_of_field = pm_arena_alloc(arena, sizeof(int) * (frow->nfields + 1));
	sfields = pm_arena_zalloc(arena, sizeof(pm_field) * (frow->nfields + 1));
	if (col_of_field == NULL || sfields == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	ncols = 0;
	for (int fi = 0; fi < frow->nfields; fi++)
	{
		col_of_field[fi] = -1;
		if (file->nvalue_stats_cols < 0)
			col_of_field[fi] = fi;
		else
			for (int k = 0; k < file->nvalue_stats_cols; k++)
				if (strcmp(file->value_stats_cols[k], frow->fields[fi].name) == 0)
					col_of_field[fi] = k;
	}
	if (file->nvalue_stats_cols < 0)
	{
		ncols = frow->nfields;
		for (int fi = 0; fi < ncols; fi++)
			sfields[fi] = frow->fields[fi];
	}
	else
	{
		ncols = file->nvalue_stats_cols;
		if (ncols > frow->nfields)
			return PM_OK;		/* stats name columns the schema lacks: unknown */
		for (int k = 0; k < ncols; k++)
		{
			int			fi = pm_type_field_index(frow, file->value_stats_cols[k]);

			if (fi < 0)
				return PM_OK;
			sfields[k] = frow->fields[fi];
		}
	}
	stype = pm_type_new_row(arena, sfields, ncols, false);
	mins = pm_arena_zalloc(arena, sizeof(pm_value) * (ncols + 1));
	maxs = pm_arena_zalloc(arena, sizeof(pm_value) * (ncols + 1));
	if (stype == NULL || mins == NULL || maxs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (st->min_values == NULL || st->max_values == NULL ||
		pm_binary_row_serialized_arity(st->min_values, st->min_values_len, &arity, &ignored) != PM_OK ||
		arity != ncols ||
		pm_binary_row_decode_serialized(st->min_values, st->min_values_len, stype, mins, &ignored) != PM_OK ||
		pm_binary_row_decode_serialized(st->max_values, st->max_values_len, stype, maxs, &ignored) != PM_OK)
		have_values = false;

	for (int ti = 0; ti < trow->nfields; ti++)
	{
		pm_field_range *r = &ranges[ti];
		int			fi = pm_type_field_index_by_id(frow, trow->fields[ti].id);
		int			col;

		r->row_count = file->row_count;
		r->null_count = -1;
		if (fi < 0)
		{
			/* field added after the file was written: all NULL */
			r->known = true;
			r->null_count = file->row_count;
			continue;
		}
		col = col_of_field[fi];
		if (col < 0 || col >= ncols)
			continue;			/* stats mode none: unknown */
		r->known = true;
		if (st->nnull_counts == ncols && st->null_counts[col] >= 0)
			r->null_count = st->null_counts[col];
		if (have_values && !mins[col].is_null && !maxs[col].is_null &&
			pm_stats_type_compatible(trow->fields[ti].type, frow->fields[fi].type) &&
			!float_bounds_partial(file, frow->fields[fi].type))
		{
			r->has_min_max = true;
			r->min = mins[col];
			r->max = maxs[col];
		}
	}
	return PM_OK;
}
