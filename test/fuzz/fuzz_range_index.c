/*-------------------------------------------------------------------------
 * fuzz_range_index.c
 *	  libFuzzer harness of the range-bitmap and bsi file index readers.
 *
 * Input: one selector byte (which reader, which column type), then the
 * index body. Properties: a failed open sets an error and no index; on an
 * opened index every leaf answers, and the answers agree with each other
 * as a total order requires: IS NULL and IS NOT NULL split the rows; EQ
 * and NE, LT and GE, LE and GT each split the non-NULL rows; EQ lies in
 * LE and GE; IN (a, b) is EQ a or EQ b.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "index/bsi_index.h"
#include "index/range_bitmap_index.h"

typedef struct target
{
	bool		bsi;
	pm_type_id	id;
	int			precision;
} target;

static const target targets[] = {
	{false, PM_TYPE_INT, 0}, {false, PM_TYPE_BIGINT, 0}, {false, PM_TYPE_FLOAT, 0},
	{false, PM_TYPE_DOUBLE, 0}, {false, PM_TYPE_DATE, 0}, {false, PM_TYPE_VARCHAR, 0},
	{false, PM_TYPE_BOOLEAN, 0}, {false, PM_TYPE_TIMESTAMP, 3}, {false, PM_TYPE_DECIMAL, 10},
	{false, PM_TYPE_TINYINT, 0}, {false, PM_TYPE_SMALLINT, 0},
	{true, PM_TYPE_INT, 0}, {true, PM_TYPE_BIGINT, 0}, {true, PM_TYPE_TIMESTAMP, 9},
	{true, PM_TYPE_TIMESTAMP, 3}, {true, PM_TYPE_DECIMAL, 20},
};

#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

typedef struct idx
{
	bool		bsi;
	void	   *p;
} idx;

/* The answer as a bitmap (skip = empty); NULL for "no information". */
static roaring_bitmap_t *
ask(idx *x, pm_pred_op op, pm_value *lits, int n)
{
	pm_predicate leaf;
	pm_file_index_result res;
	pm_error	err;
	pm_code		rc;

	memset(&leaf, 0, sizeof(leaf));
	leaf.op = op;
	leaf.literals = lits;
	leaf.nliterals = n;
	pm_error_clear(&err);
	rc = x->bsi ? pm_bsi_index_eval(x->p, &leaf, &res, &err)
		: pm_range_bitmap_index_eval(x->p, &leaf, &res, &err);
	if (rc != PM_OK)
		abort();
	if (res.skip)
	{
		if (res.rows != NULL)
			abort();
		return roaring_bitmap_create();
	}
	return res.rows;
}

/*
 * a within b, by set difference: CRoaring 0.2's _equals compares run
 * containers run by run, and a portable bitmap may split a run in two
 * adjacent ones (valid, read as the same set).
 */
static bool
within(const roaring_bitmap_t *a, const roaring_bitmap_t *b)
{
	roaring_bitmap_t *d = roaring_bitmap_andnot(a, b);
	bool		empty = roaring_bitmap_is_empty(d);

	roaring_bitmap_free(d);
	return empty;
}

/* a and b are disjoint and their union is u */
static void
check_split(const roaring_bitmap_t *a, const roaring_bitmap_t *b, const roaring_bitmap_t *u)
{
	roaring_bitmap_t *all;

	if (a == NULL || b == NULL)
		return;
	if (roaring_bitmap_intersect(a, b))
		abort();
	all = roaring_bitmap_or(a, b);
	if (!within(all, u) || !within(u, all))
		abort();
	roaring_bitmap_free(all);
}

static void
check_literal(idx *x, pm_value *lits, const roaring_bitmap_t *notnull)
{
	roaring_bitmap_t *r[6];
	roaring_bitmap_t *in;
	const pm_pred_op ops[6] = {PM_PRED_EQ, PM_PRED_NE, PM_PRED_LT, PM_PRED_LE, PM_PRED_GT,
	PM_PRED_GE};

	for (int i = 0; i < 6; i++)
	{
		r[i] = ask(x, ops[i], lits, 1);
		if (r[i] != NULL && !within(r[i], notnull))
			abort();
	}
	check_split(r[0], r[1], notnull);
	check_split(r[2], r[5], notnull);
	check_split(r[3], r[4], notnull);
	if (r[0] != NULL && r[3] != NULL && !within(r[0], r[3]))
		abort();
	if (r[0] != NULL && r[5] != NULL && !within(r[0], r[5]))
		abort();
	in = ask(x, PM_PRED_IN, lits, 2);
	if (in != NULL && r[0] != NULL)
	{
		roaring_bitmap_t *eq2 = ask(x, PM_PRED_EQ, lits + 1, 1);

		if (eq2 != NULL)
		{
			roaring_bitmap_or_inplace(eq2, r[0]);
			if (!within(eq2, in) || !within(in, eq2))
				abort();
			roaring_bitmap_free(eq2);
		}
	}
	if (in != NULL)
		roaring_bitmap_free(in);
	for (int i = 0; i < 6; i++)
		if (r[i] != NULL)
			roaring_bitmap_free(r[i]);
}

static void
set_literal(pm_value *v, pm_type_id id, int64_t raw, const uint8_t *bytes, int32_t len)
{
	memset(v, 0, sizeof(*v));
	switch (id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			memcpy(&v->u.f64, &raw, 8);
			if (v->u.f64 != v->u.f64)
				v->u.f64 = 0.5;
			break;
		case PM_TYPE_VARCHAR:
			v->u.bytes.ptr = bytes;
			v->u.bytes.len = len;
			break;
		case PM_TYPE_DECIMAL:
			v->u.i128 = (pm_int128) raw * 3;
			break;
		default:
			v->u.i64 = raw;
			break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *arena;
	const target *tg;
	pm_type    *type;
	pm_error	err;
	idx			x;
	pm_code		rc;
	roaring_bitmap_t *null,
			   *notnull;
	const int64_t fixed[] = {0, 1, -1, 3, 5, 17, 100, -2, INT64_MIN, INT64_MAX, 1000, 1001};
	int64_t		tail = 0;

	if (size < 1)
		return 0;
	tg = &targets[data[0] % NTARGETS];
	arena = pm_arena_create(pm_env_default());
	type = pm_type_new(arena, tg->id, true);
	type->precision = tg->precision;
	if (tg->id == PM_TYPE_DECIMAL)
		type->scale = 2;
	pm_error_clear(&err);
	x.bsi = tg->bsi;
	x.p = NULL;
	rc = tg->bsi ? pm_bsi_index_open(pm_env_default(), data + 1, size - 1, type,
									 (pm_bsi_index **) &x.p, &err)
		: pm_range_bitmap_index_open(pm_env_default(), data + 1, size - 1, type,
									 (pm_range_bitmap_index **) &x.p, &err);
	if (rc != PM_OK)
	{
		if (x.p != NULL || err.code == PM_OK)
			abort();
		pm_arena_destroy(arena);
		return 0;
	}
	null = ask(&x, PM_PRED_IS_NULL, NULL, 0);
	notnull = ask(&x, PM_PRED_IS_NOT_NULL, NULL, 0);
	if (null == NULL || notnull == NULL || roaring_bitmap_intersect(null, notnull))
		abort();
	if (size >= 9)
		memcpy(&tail, data + size - 8, 8);
	for (size_t i = 0; i <= sizeof(fixed) / sizeof(fixed[0]); i++)
	{
		pm_value	lits[2];
		int64_t		a = i < sizeof(fixed) / sizeof(fixed[0]) ? fixed[i] : tail;
		int32_t		len = (int32_t) (i % 6);

		if ((size_t) len > size - 1)
			len = 0;
		set_literal(&lits[0], tg->id, a, data + 1, len);
		set_literal(&lits[1], tg->id, (int64_t) ((uint64_t) a + 2), data + 2 < data + size ? data + 2 : data + 1,
					len > 0 ? len - 1 : 0);
		check_literal(&x, lits, notnull);
	}
	roaring_bitmap_free(null);
	roaring_bitmap_free(notnull);
	if (tg->bsi)
		pm_bsi_index_free(x.p);
	else
		pm_range_bitmap_index_free(x.p);
	pm_arena_destroy(arena);
	return 0;
}
