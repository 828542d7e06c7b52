/*-------------------------------------------------------------------------
 * batch_filter.c
 *	  Pushed predicates evaluated per row on batches (see batch_filter.h).
 *-------------------------------------------------------------------------
 */
#include "table/batch_filter.h"

#include <string.h>

#include "common/compare.h"

static bool
leaf_type_supported(const pm_type *t)
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
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
		case PM_TYPE_DECIMAL:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			return true;
		default:
			return false;
	}
}

bool
pm_batch_filter_supported(const pm_predicate *pred, const pm_type *row_type)
{
	switch (pred->op)
	{
		case PM_PRED_AND:
		case PM_PRED_OR:
			for (int i = 0; i < pred->nchildren; i++)
				if (!pm_batch_filter_supported(pred->children[i], row_type))
					return false;
			return true;
		case PM_PRED_FALSE:
			return true;
		default:
			return pred->field >= 0 && pred->field < row_type->nfields &&
				leaf_type_supported(row_type->fields[pred->field].type);
	}
}

/* Value r of v (not NULL) compared with a literal of its type. */
static inline int
cmp_value(const pm_vector *v, int64_t r, const pm_value *lit)
{
	switch (v->type->id)
	{
		case PM_TYPE_FLOAT:
			return pm_cmp_double_pg((double) PM_VEC_VALUES(v, float)[r], lit->u.f64);
		case PM_TYPE_DOUBLE:
			return pm_cmp_double_pg(PM_VEC_VALUES(v, double)[r], lit->u.f64);
		case PM_TYPE_DECIMAL:
			return pm_cmp_i128(PM_VEC_VALUES(v, pm_int128)[r], lit->u.i128);
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, r, &len);

				return pm_cmp_bytes(p, (size_t) len, lit->u.bytes.ptr, (size_t) lit->u.bytes.len);
			}
		default:
			/* BOOLEAN .. BIGINT, DATE, TIME, TIMESTAMP(_LTZ) micros */
			return pm_cmp_i64(pm_vector_int64_at(v, r), lit->u.i64);
	}
}

static pm_code eval(const pm_env *env, const pm_predicate *p, const pm_batch *b,
					const int *field_col, uint8_t *out, pm_error *err);

static void
eval_leaf(const pm_predicate *p, const pm_vector *v, int64_t n, uint8_t *out)
{
	for (int64_t r = 0; r < n; r++)
	{
		bool		null = pm_vector_is_null(v, r);
		bool		keep = false;

		switch (p->op)
		{
			case PM_PRED_IS_NULL:
				keep = null;
				break;
			case PM_PRED_IS_NOT_NULL:
				keep = !null;
				break;
			case PM_PRED_IN:
				for (int k = 0; !null && !keep && k < p->nliterals; k++)
					keep = !p->literals[k].is_null && cmp_value(v, r, &p->literals[k]) == 0;
				break;
			default:
				if (!null && !p->literals[0].is_null)
				{
					int			c = cmp_value(v, r, &p->literals[0]);

					switch (p->op)
					{
						case PM_PRED_EQ:
							keep = c == 0;
							break;
						case PM_PRED_NE:
							keep = c != 0;
							break;
						case PM_PRED_LT:
							keep = c < 0;
							break;
						case PM_PRED_LE:
							keep = c <= 0;
							break;
						case PM_PRED_GT:
							keep = c > 0;
							break;
						case PM_PRED_GE:
							keep = c >= 0;
							break;
						default:
							break;
					}
				}
				break;
		}
		out[r] = keep;
	}
}

static pm_code
eval(const pm_env *env, const pm_predicate *p, const pm_batch *b, const int *field_col,
	 uint8_t *out, pm_error *err)
{
	int64_t		n = b->nrows;

	switch (p->op)
	{
		case PM_PRED_FALSE:
			memset(out, 0, (size_t) n);
			return PM_OK;
		case PM_PRED_AND:
		case PM_PRED_OR:
			{
				bool		is_and = p->op == PM_PRED_AND;
				uint8_t    *tmp;

				memset(out, is_and ? 1 : 0, (size_t) n);
				if (p->nchildren == 0)
					return PM_OK;
				tmp = pm_alloc(env, (size_t) n + 1);
				if (tmp == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory filtering a batch");
				for (int i = 0; i < p->nchildren; i++)
				{
					pm_code		rc = eval(env, p->children[i], b, field_col, tmp, err);

					if (rc != PM_OK)
					{
						pm_free(env, tmp);
						return rc;
					}
					for (int64_t r = 0; r < n; r++)
						out[r] = is_and ? (out[r] & tmp[r]) : (out[r] | tmp[r]);
				}
				pm_free(env, tmp);
				return PM_OK;
			}
		default:
			eval_leaf(p, &b->cols[field_col[p->field]], n, out);
			return PM_OK;
	}
}

pm_code
pm_batch_filter(const pm_env *env, const pm_predicate *pred, const pm_batch *batch,
				const int *field_col, uint8_t *sel, pm_error *err)
{
	return eval(env, pred, batch, field_col, sel, err);
}
