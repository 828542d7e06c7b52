/*-------------------------------------------------------------------------
 * parquet_stats.c
 *	  Row-group statistics -> pm_field_range per requested column (see the
 *	  header for which statistics are trusted).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_stats.h"

#include <string.h>

#include "format/parquet/column_values.h"

pm_pq_leaf *
pm_pq_flat_leaf_of(const pm_pq_plan *plan, const pm_pq_anode *an)
{
	for (int i = 0; i < plan->nleaves; i++)
	{
		pm_pq_leaf *lf = plan->leaves[i];

		if (lf->leaf_an == an && lf->flat)
			return lf;
	}
	return NULL;
}

static bool
unsigned_int(const pm_pq_node *n)
{
	if (n->logical == PM_PQ_LT_INTEGER && !n->lt_signed)
		return true;
	return n->converted == PM_PQ_CT_UINT_8 || n->converted == PM_PQ_CT_UINT_16 ||
		n->converted == PM_PQ_CT_UINT_32 || n->converted == PM_PQ_CT_UINT_64;
}

static bool
decimal_annotated(const pm_pq_node *n)
{
	return n->logical == PM_PQ_LT_DECIMAL || n->converted == PM_PQ_CT_DECIMAL;
}

/* Whether min/max in the column's sort order are the Paimon type's order. */
static bool
order_usable(const pm_pq_column *c, bool deprecated)
{
	const pm_pq_node *n = c->leaf;

	if (unsigned_int(n))
		return false;
	switch (c->conv)
	{
		case PM_PQ_CV_NONE:
		case PM_PQ_CV_TS_INT96:	/* INT96 order is undefined */
			return false;
		case PM_PQ_CV_BE_DEC:
			/* signed two's complement order only under a DECIMAL annotation */
			return !deprecated && decimal_annotated(n);
		case PM_PQ_CV_BYTES:
		case PM_PQ_CV_FIXED_BYTES:
			/* deprecated min/max of byte arrays compare signed bytes */
			return !deprecated;
		default:
			return n->physical == PM_PQ_BOOLEAN || n->physical == PM_PQ_INT32 ||
				n->physical == PM_PQ_INT64 || n->physical == PM_PQ_FLOAT ||
				n->physical == PM_PQ_DOUBLE ||
				(!deprecated && n->physical == PM_PQ_FIXED_LEN_BYTE_ARRAY);
	}
}

/* One PLAIN-encoded statistics value (no length prefix) -> *out. */
static bool
decode_value(pm_pq_column *c, const uint8_t *b, uint32_t len, pm_arena *arena, pm_value *out)
{
	pm_pq_values src;
	pm_vector	v;
	uint32_t	start = 0;
	int64_t		data_cap = 0;
	pm_error	err;
	const pm_type *t = c->target;
	int			width = 0;

	memset(&src, 0, sizeof(src));
	memset(out, 0, sizeof(*out));
	src.n = 1;
	switch (c->physical)
	{
		case PM_PQ_BOOLEAN:
			if (len != 1 || b[0] > 1)
				return false;
			src.bools = b;
			break;
		case PM_PQ_INT32:
		case PM_PQ_FLOAT:
			width = 4;
			break;
		case PM_PQ_INT64:
		case PM_PQ_DOUBLE:
			width = 8;
			break;
		case PM_PQ_FIXED_LEN_BYTE_ARRAY:
			if (c->type_length <= 0)
				return false;
			width = c->type_length;
			break;
		case PM_PQ_BYTE_ARRAY:
			src.base = b;
			src.start = &start;
			src.len = &len;
			break;
		default:
			return false;
	}
	if (width > 0)
	{
		if (len != (uint32_t) width)
			return false;
		src.fixed = b;
		src.width = width;
	}
	if (!pm_vector_init(&v, t, 1, false, arena))
		return false;
	if ((t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) && v.nanos == NULL &&
		(v.nanos = pm_arena_zalloc(arena, sizeof(uint16_t))) == NULL)
		return false;
	if (pm_pq_column_convert(c, &src, 0, 1, &v, 0, &data_cap, arena, &err) != PM_OK)
		return false;
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			out->u.i64 = PM_VEC_VALUES(&v, uint8_t)[0];
			break;
		case PM_TYPE_TINYINT:
			out->u.i64 = PM_VEC_VALUES(&v, int8_t)[0];
			break;
		case PM_TYPE_SMALLINT:
			out->u.i64 = PM_VEC_VALUES(&v, int16_t)[0];
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			out->u.i64 = PM_VEC_VALUES(&v, int32_t)[0];
			break;
		case PM_TYPE_BIGINT:
			out->u.i64 = PM_VEC_VALUES(&v, int64_t)[0];
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			out->u.i64 = PM_VEC_VALUES(&v, int64_t)[0];
			out->nanos = v.nanos[0];
			break;
		case PM_TYPE_FLOAT:
			out->u.f64 = PM_VEC_VALUES(&v, float)[0];
			break;
		case PM_TYPE_DOUBLE:
			out->u.f64 = PM_VEC_VALUES(&v, double)[0];
			break;
		case PM_TYPE_DECIMAL:
			out->u.i128 = PM_VEC_VALUES(&v, pm_int128)[0];
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			out->u.bytes.ptr = pm_vector_bytes(&v, 0, &out->u.bytes.len);
			break;
		default:
			return false;
	}
	return true;
}

/* min/max in the column's type order (ColumnIndex bounds, Statistics.min_value/max_value) */
static bool
type_order_bounds(const pm_pq_metadata *md, pm_pq_column *c)
{
	int			li = c->leaf->leaf_index;

	return md->type_defined_order != NULL && li >= 0 && li < md->ncolumn_orders &&
		md->type_defined_order[li] && order_usable(c, false);
}

static void
chunk_range(const pm_pq_metadata *md, pm_pq_leaf *lf, const pm_pq_row_group *rg,
			pm_arena *arena, pm_field_range *r)
{
	pm_pq_column *c = &lf->col;
	int			li = c->leaf->leaf_index;
	const pm_pq_chunk *ch;
	const pm_pq_stats *st;
	const uint8_t *mn = NULL,
			   *mx = NULL;
	uint32_t	mnl = 0,
				mxl = 0;

	if (li < 0 || li >= rg->ncolumns)
		return;
	ch = &rg->columns[li];
	if (!ch->has_stats || c->target == NULL)
		return;
	st = &ch->stats;
	r->known = true;
	r->row_count = rg->num_rows;
	r->null_count = st->null_count >= 0 && st->null_count <= rg->num_rows ? st->null_count : -1;
	if (st->min_value != NULL && st->max_value != NULL)
	{
		if (type_order_bounds(md, c))
		{
			mn = st->min_value;
			mnl = st->min_value_len;
			mx = st->max_value;
			mxl = st->max_value_len;
		}
	}
	else if (st->min != NULL && st->max != NULL && order_usable(c, true))
	{
		mn = st->min;
		mnl = st->min_len;
		mx = st->max;
		mxl = st->max_len;
	}
	if (mn != NULL && decode_value(c, mn, mnl, arena, &r->min) &&
		decode_value(c, mx, mxl, arena, &r->max))
		r->has_min_max = true;
}

void
pm_pq_row_group_ranges(const pm_pq_metadata *md, const pm_pq_plan *plan, int g,
					   pm_arena *arena, pm_field_range *ranges)
{
	const pm_pq_row_group *rg = &md->row_groups[g];

	for (int i = 0; i < plan->ncols; i++)
	{
		pm_field_range *r = &ranges[i];
		const pm_pq_anode *an = plan->cols[i];
		pm_pq_leaf *lf;

		memset(r, 0, sizeof(*r));
		r->null_count = -1;
		r->row_count = -1;
		if (an->kind == PM_PQ_AN_MISSING)
		{
			r->known = true;
			r->row_count = rg->num_rows;
			r->null_count = rg->num_rows;
			continue;
		}
		if (an->kind != PM_PQ_AN_LEAF || (lf = pm_pq_flat_leaf_of(plan, an)) == NULL)
			continue;
		chunk_range(md, lf, rg, arena, r);
	}
}

void
pm_pq_page_range(const pm_pq_metadata *md, pm_pq_leaf *lf, const pm_pq_column_index *ci,
				 int k, int64_t page_rows, pm_arena *arena, pm_field_range *r)
{
	pm_pq_column *c = &lf->col;
	int64_t		nulls = ci->null_count != NULL ? ci->null_count[k] : -1;

	memset(r, 0, sizeof(*r));
	r->null_count = -1;
	r->row_count = -1;
	if (c->target == NULL || k < 0 || k >= ci->npages)
		return;
	r->known = true;
	r->row_count = page_rows;
	if (ci->null_page[k])
	{
		/* only NULLs: the bounds are empty and mean nothing */
		r->null_count = page_rows;
		return;
	}
	r->null_count = nulls >= 0 && nulls <= page_rows ? nulls : -1;
	if (type_order_bounds(md, c) &&
		decode_value(c, ci->min[k], ci->min_len[k], arena, &r->min) &&
		decode_value(c, ci->max[k], ci->max_len[k], arena, &r->max))
		r->has_min_max = true;
}
