/*-------------------------------------------------------------------------
 * scan_estimate.c
 *	  Row estimates of a predicate from file statistics (scan_estimate.h).
 *
 * Values become positions on a line (double) to interpolate between min
 * and max: numbers as they are, DECIMAL by its unscaled value, strings and
 * binaries by their first bytes after the prefix min and max share.
 *-------------------------------------------------------------------------
 */
#include "table/scan_estimate.h"

#include <math.h>
#include <string.h>

#include "table/stats_filter.h"
#include "table/table_int.h"

#define DEFAULT_EQ_FRACTION		0.005	/* Postgres' DEFAULT_EQ_SEL */
#define DEFAULT_RANGE_FRACTION	(1.0 / 3.0) /* DEFAULT_INEQ_SEL */
#define DEFAULT_NULL_FRACTION	0.005	/* DEFAULT_UNK_SEL for IS NULL */
#define DEFAULT_RANGE_PAIR_FRACTION 0.005	/* DEFAULT_RANGE_INEQ_SEL */

static double
clamp01(double f)
{
	return f < 0 ? 0 : (f > 1 ? 1 : f);
}

static bool
integer_like(const pm_type *t)
{
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_DECIMAL:
			return true;
		default:
			return false;
	}
}

static bool
is_bytes(const pm_type *t)
{
	return t->id == PM_TYPE_CHAR || t->id == PM_TYPE_VARCHAR ||
		t->id == PM_TYPE_BINARY || t->id == PM_TYPE_VARBINARY;
}

/* The first 6 bytes of v after skip bytes, as a number (missing bytes 0). */
static double
bytes_position(const pm_value *v, int32_t skip)
{
	double		d = 0;

	for (int32_t i = skip; i < skip + 6; i++)
		d = d * 256 + (i < v->u.bytes.len ? v->u.bytes.ptr[i] : 0);
	return d;
}

/* Positions of value, min and max on a line; false if the type has none. */
static bool
positions(const pm_type *t, const pm_value *v, const pm_field_range *r,
		  double *pv, double *pmin, double *pmax)
{
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			*pv = (double) v->u.i64;
			*pmin = (double) r->min.u.i64;
			*pmax = (double) r->max.u.i64;
			return true;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			*pv = v->u.f64;
			*pmin = r->min.u.f64;
			*pmax = r->max.u.f64;
			return isfinite(*pv) && isfinite(*pmin) && isfinite(*pmax);
		case PM_TYPE_DECIMAL:
			*pv = (double) v->u.i128;
			*pmin = (double) r->min.u.i128;
			*pmax = (double) r->max.u.i128;
			return true;
		default:
			if (is_bytes(t))
			{
				int32_t		common = 0;

				while (common < r->min.u.bytes.len && common < r->max.u.bytes.len &&
					   r->min.u.bytes.ptr[common] == r->max.u.bytes.ptr[common])
					common++;
				*pv = bytes_position(v, common);
				*pmin = bytes_position(&r->min, common);
				*pmax = bytes_position(&r->max, common);
				return true;
			}
			return false;
	}
}

/* Fraction of the non-null values equal to v. */
static double
eq_fraction(const pm_type *t, const pm_value *v, const pm_field_range *r, int64_t nonnull)
{
	int			cmin,
				cmax;
	double		pv,
				pmin,
				pmax;

	if (!r->known || !r->has_min_max || nonnull <= 0)
		return DEFAULT_EQ_FRACTION;
	cmin = pm_stats_value_compare(t, v, &r->min);
	cmax = pm_stats_value_compare(t, v, &r->max);
	if (cmin == 2 || cmax == 2)
		return DEFAULT_EQ_FRACTION;
	if (cmin < 0 || cmax > 0)
		return 0;
	if (pm_stats_value_compare(t, &r->min, &r->max) == 0)
		return 1;
	if (integer_like(t) && positions(t, v, r, &pv, &pmin, &pmax) && pmax > pmin)
		return 1.0 / fmin((double) nonnull, pmax - pmin + 1);
	/* as many distinct values as rows, but never below Postgres' default */
	return fmax(1.0 / (double) nonnull, DEFAULT_EQ_FRACTION);
}

/* Fraction of the non-null values below v (or at most v when inclusive). */
static double
below_fraction(const pm_type *t, const pm_value *v, bool inclusive, const pm_field_range *r,
			   int64_t nonnull)
{
	int			cmin,
				cmax;
	double		pv,
				pmin,
				pmax,
				f;

	if (!r->known || !r->has_min_max || nonnull <= 0)
		return DEFAULT_RANGE_FRACTION;
	cmin = pm_stats_value_compare(t, v, &r->min);
	cmax = pm_stats_value_compare(t, v, &r->max);
	if (cmin == 2 || cmax == 2)
		return DEFAULT_RANGE_FRACTION;
	if (cmin < 0 || (cmin == 0 && !inclusive))
		return 0;
	if (cmax > 0 || (cmax == 0 && inclusive))
		return 1;
	if (!positions(t, v, r, &pv, &pmin, &pmax) || !(pmax > pmin))
		return DEFAULT_RANGE_FRACTION;
	if (integer_like(t))
		f = (pv - pmin + (inclusive ? 1 : 0)) / (pmax - pmin + 1);
	else
		f = (pv - pmin) / (pmax - pmin);
	return clamp01(f);
}

static bool
is_range(const pm_predicate *p)
{
	return p != NULL && (p->op == PM_PRED_LT || p->op == PM_PRED_LE ||
						 p->op == PM_PRED_GT || p->op == PM_PRED_GE);
}

static bool
is_upper(const pm_predicate *p)
{
	return p->op == PM_PRED_LT || p->op == PM_PRED_LE;
}

/*
 * AND: the product of the children, except that a lower and an upper bound
 * of one field make one range (x > a AND x < b keeps what lies between,
 * not the product of both sides), as Postgres' clauselist_selectivity does.
 */
static double
and_fraction(const pm_predicate *p, const pm_type *row_type, const pm_field_range *ranges,
			 int64_t rows)
{
	double		f = 1;
	bool		paired[64] = {false};

	for (int i = 0; i < p->nchildren; i++)
	{
		const pm_predicate *c = p->children[i];
		int			j = -1;

		if (i < 64 && paired[i])
			continue;
		if (is_range(c))
			for (j = i + 1; j < p->nchildren && j < 64; j++)
				if (!paired[j] && is_range(p->children[j]) &&
					p->children[j]->field == c->field && is_upper(p->children[j]) != is_upper(c))
					break;
		if (j > i && j < p->nchildren && j < 64)
		{
			/* both sides keep the non-null rows inside: their sum beyond one */
			double		a = pm_estimate_fraction(c, row_type, ranges, rows);
			double		b = pm_estimate_fraction(p->children[j], row_type, ranges, rows);
			double		nonnull = 1;

			paired[j] = true;
			if (c->field < 0 || c->field >= row_type->nfields ||
				!ranges[c->field].known || !ranges[c->field].has_min_max)
			{
				f *= DEFAULT_RANGE_PAIR_FRACTION;
				continue;
			}

			if (c->field >= 0 && c->field < row_type->nfields && ranges[c->field].known &&
				ranges[c->field].null_count >= 0 && rows > 0)
				nonnull = clamp01(1 - (double) ranges[c->field].null_count / (double) rows);
			f *= clamp01(a + b - nonnull);
			continue;
		}
		f *= pm_estimate_fraction(c, row_type, ranges, rows);
	}
	return f;
}

double
pm_estimate_fraction(const pm_predicate *p, const pm_type *row_type,
					 const pm_field_range *ranges, int64_t rows)
{
	const pm_field_range *r;
	const pm_type *t;
	double		null_frac = 0;
	double		f;
	int64_t		nonnull;

	if (p == NULL)
		return 1;
	switch (p->op)
	{
		case PM_PRED_FALSE:
			return 0;
		case PM_PRED_AND:
			return and_fraction(p, row_type, ranges, rows);
		case PM_PRED_OR:
			f = 0;
			for (int i = 0; i < p->nchildren; i++)
			{
				double		c = pm_estimate_fraction(p->children[i], row_type, ranges, rows);

				f = f + c - f * c;
			}
			return f;
		default:
			break;
	}
	if (p->field < 0 || p->field >= row_type->nfields)
		return 1;
	r = &ranges[p->field];
	t = row_type->fields[p->field].type;
	if (r->known && r->null_count >= 0 && rows > 0)
		null_frac = clamp01((double) r->null_count / (double) rows);
	nonnull = rows - (r->known && r->null_count >= 0 ? r->null_count : 0);
	switch (p->op)
	{
		case PM_PRED_IS_NULL:
			return r->known && r->null_count >= 0 ? null_frac : DEFAULT_NULL_FRACTION;
		case PM_PRED_IS_NOT_NULL:
			return r->known && r->null_count >= 0 ? 1 - null_frac : 1 - DEFAULT_NULL_FRACTION;
		case PM_PRED_EQ:
			return (1 - null_frac) * eq_fraction(t, &p->literals[0], r, nonnull);
		case PM_PRED_NE:
			return (1 - null_frac) * (1 - eq_fraction(t, &p->literals[0], r, nonnull));
		case PM_PRED_IN:
			f = 0;
			for (int i = 0; i < p->nliterals; i++)
				if (!p->literals[i].is_null)
					f += eq_fraction(t, &p->literals[i], r, nonnull);
			return (1 - null_frac) * clamp01(f);
		case PM_PRED_LT:
			return (1 - null_frac) * below_fraction(t, &p->literals[0], false, r, nonnull);
		case PM_PRED_LE:
			return (1 - null_frac) * below_fraction(t, &p->literals[0], true, r, nonnull);
		case PM_PRED_GT:
			return (1 - null_frac) * (1 - below_fraction(t, &p->literals[0], true, r, nonnull));
		case PM_PRED_GE:
			return (1 - null_frac) * (1 - below_fraction(t, &p->literals[0], false, r, nonnull));
		default:
			return 1;
	}
}

pm_code
pm_scan_estimate_rows(pm_scan *scan, const pm_predicate *pred, double *rows, pm_error *err)
{
	pm_table   *table = scan->table;
	const pm_type *row_type = table->schema->row_type;
	pm_arena   *tmp;
	pm_field_range *ranges;
	double		total = 0;
	pm_code		rc = PM_OK;

	*rows = 0;
	if (pred == NULL)
	{
		for (int s = 0; s < scan->nsplits; s++)
			total += (double) scan->splits[s].row_count;
		*rows = total;
		return PM_OK;
	}
	tmp = pm_arena_create(table->env);
	if (tmp == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int s = 0; s < scan->nsplits && rc == PM_OK; s++)
	{
		const pm_split *sp = &scan->splits[s];

		for (int i = 0; i < sp->nfiles && rc == PM_OK; i++)
		{
			const pm_data_file_meta *file = sp->files[i];

			pm_arena_reset(tmp);
			ranges = pm_arena_zalloc(tmp, sizeof(pm_field_range) * (row_type->nfields + 1));
			if (ranges == NULL)
				rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			else
				rc = pm_stats_filter_file_ranges(table, file, tmp, ranges, err);
			if (rc == PM_OK)
				total += (double) file->row_count *
					pm_estimate_fraction(pred, row_type, ranges, file->row_count);
		}
	}
	pm_arena_destroy(tmp);
	*rows = total;
	return rc;
}
