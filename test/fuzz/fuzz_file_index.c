/*-------------------------------------------------------------------------
 * fuzz_file_index.c
 *	  libFuzzer harness of the file-index container and its kind readers
 *	  (src/index/file_index.c, bitmap_index.c, bloom_filter_index.c).
 *
 * Input: byte 0 picks what the rest is (0 a container, 1 a bitmap index
 * body, 2 a bloom filter body); byte 1 picks the column type of a body
 * (a container's entries are asked under every type). Every reader is
 * asked EQ, IN, NE, IS [NOT] NULL and LT with fixed literals and one taken
 * from the input's last bytes. Properties beyond "no crash": a failure is
 * PM_ERR_CORRUPT or PM_ERR_UNSUPPORTED with the result left at "no
 * information"; a result never both skips and lists rows, and never lists
 * an empty row set; EQ x never says more than IN (x, y) (its rows are a
 * subset, IN skips only if EQ does); EQ x and NE x together cover every
 * row of a bitmap index; a bloom filter skips IN (x, y) exactly when it
 * skips both EQs.
 *
 * Seeds (test/fuzz/corpus/file_index/): c_* containers written by Java
 * (the embedded indexes of tables/parquet/append_with_bitmap,
 * append_with_bitmap_v1, append_with_bitmap_alter_table, the .index
 * sidecars of pk_with_bitmap_dv and append_with_rangebitmap) and a
 * hand-built one (c_bloom_empty: column c a 64-byte bloom filter of ints
 * and an empty bitmap, column d a Java bitmap body); b_* bitmap bodies cut
 * out of those containers (v1/v2, strings and ints); f_* a small bloom
 * filter body (ints 10, 20, 30, -1, 7; 512 bits, k = 3).
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <roaring/roaring.h>

#include "index/bitmap_index.h"
#include "index/bloom_filter_index.h"
#include "index/file_index.h"

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static const pm_type types[] = {
	{.id = PM_TYPE_VARCHAR, .nullable = true, .length = PM_MAX_VARCHAR_LENGTH},
	{.id = PM_TYPE_INT, .nullable = true},
	{.id = PM_TYPE_BIGINT, .nullable = true},
	{.id = PM_TYPE_DOUBLE, .nullable = true},
	{.id = PM_TYPE_FLOAT, .nullable = true},
	{.id = PM_TYPE_TINYINT, .nullable = true},
	{.id = PM_TYPE_SMALLINT, .nullable = true},
	{.id = PM_TYPE_BOOLEAN, .nullable = true},
	{.id = PM_TYPE_DATE, .nullable = true},
	{.id = PM_TYPE_TIMESTAMP, .nullable = true, .precision = 3},
	{.id = PM_TYPE_TIMESTAMP_LTZ, .nullable = true, .precision = 6},
	{.id = PM_TYPE_CHAR, .nullable = true, .length = 5},
	{.id = PM_TYPE_VARBINARY, .nullable = true, .length = 100},
	{.id = PM_TYPE_DECIMAL, .nullable = true, .precision = 10, .scale = 2},
};

#define NTYPES ((int) (sizeof(types) / sizeof(types[0])))

/* Two literals for a type: a fixed one and one from the input's tail. */
static void
literals_for(const pm_type *t, const uint8_t *data, size_t size, int which, pm_value *v)
{
	uint64_t	tail = 0;

	memset(v, 0, sizeof(*v));
	for (size_t i = size > 8 ? size - 8 : 0; i < size; i++)
		tail = tail << 8 | data[i];
	switch (t->id)
	{
		case PM_TYPE_VARCHAR:
		case PM_TYPE_CHAR:
		case PM_TYPE_VARBINARY:
			if (which == 0)
			{
				v->u.bytes.ptr = (const uint8_t *) "Bob";
				v->u.bytes.len = 3;
			}
			else
			{
				size_t		n = size < 12 ? size : 12;

				v->u.bytes.ptr = data + size - n;
				v->u.bytes.len = (int32_t) n;
			}
			break;
		case PM_TYPE_DOUBLE:
		case PM_TYPE_FLOAT:
			v->u.f64 = which == 0 ? 0.0 : (double) (int32_t) tail / 8;
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			v->u.i64 = which == 0 ? 20000 : (int64_t) tail;
			break;
		case PM_TYPE_BOOLEAN:
			v->u.i64 = which == 0 ? 1 : (int64_t) (tail & 1);
			break;
		case PM_TYPE_TINYINT:
			v->u.i64 = which == 0 ? 10 : (int8_t) tail;
			break;
		case PM_TYPE_SMALLINT:
			v->u.i64 = which == 0 ? 10 : (int16_t) tail;
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			v->u.i64 = which == 0 ? 20 : (int32_t) tail;
			break;
		default:
			v->u.i64 = which == 0 ? 20 : (int64_t) tail;
			break;
	}
}

typedef pm_code (*eval_fn) (void *ctx, const pm_predicate *leaf, pm_file_index_result *out,
							pm_error *err);

/* Ask one leaf; checks the result's shape. false: the reader refused. */
static bool
ask(eval_fn fn, void *ctx, pm_pred_op op, pm_value *lits, int n, pm_file_index_result *r)
{
	pm_predicate p = {.op = op, .field = 0, .nliterals = n, .literals = lits};
	pm_error	err;
	pm_code		rc;

	pm_error_clear(&err);
	r->skip = true;
	r->rows = (roaring_bitmap_t *) 1;	/* must be overwritten */
	rc = fn(ctx, &p, r, &err);
	if (rc != PM_OK)
	{
		CHECK(rc == PM_ERR_CORRUPT || rc == PM_ERR_UNSUPPORTED);
		CHECK(err.code == rc);
		CHECK(!r->skip && r->rows == NULL);
		return false;
	}
	CHECK(!(r->skip && r->rows != NULL));
	CHECK(r->rows == NULL || !roaring_bitmap_is_empty(r->rows));
	return true;
}

/*
 * The properties over one reader: row_count >= 0 a bitmap index, -1 a bloom
 * filter, -2 a container.
 */
static void
exercise(eval_fn fn, void *ctx, const pm_type *t, const uint8_t *data, size_t size,
		 int64_t row_count)
{
	pm_value	lits[2];
	pm_file_index_result eq,
				in,
				ne,
				other;

	literals_for(t, data, size, 0, &lits[0]);
	literals_for(t, data, size, 1, &lits[1]);
	if (!ask(fn, ctx, PM_PRED_EQ, lits, 1, &eq))
		return;
	if (ask(fn, ctx, PM_PRED_IN, lits, 2, &in))
	{
		if (in.skip)
			CHECK(eq.skip);
		if (eq.rows != NULL && in.rows != NULL)
			CHECK(roaring_bitmap_is_subset(eq.rows, in.rows));
		if (eq.rows != NULL && in.rows == NULL)
			CHECK(!in.skip);
		if (row_count == -1)
		{
			pm_file_index_result eq2;

			if (ask(fn, ctx, PM_PRED_EQ, lits + 1, 1, &eq2))
			{
				CHECK(in.skip == (eq.skip && eq2.skip));
				pm_file_index_result_clear(&eq2);
			}
		}
		pm_file_index_result_clear(&in);
	}
	if (row_count >= 0 && ask(fn, ctx, PM_PRED_NE, lits, 1, &ne))
	{
		/* EQ and NE together cover [0, row_count) */
		if (eq.rows != NULL || eq.skip)
		{
			roaring_bitmap_t *all = roaring_bitmap_create();

			if (eq.rows != NULL)
				roaring_bitmap_or_inplace(all, eq.rows);
			if (ne.rows != NULL)
				roaring_bitmap_or_inplace(all, ne.rows);
			if (row_count > 0 && !ne.skip && ne.rows == NULL)
				roaring_bitmap_add_range(all, 0, (uint64_t) row_count);
			if (row_count > 0)
				CHECK(roaring_bitmap_range_cardinality(all, 0, (uint64_t) row_count) ==
					  (uint64_t) row_count);
			roaring_bitmap_free(all);
		}
		pm_file_index_result_clear(&ne);
	}
	pm_file_index_result_clear(&eq);
	if (ask(fn, ctx, PM_PRED_IS_NULL, NULL, 0, &other))
		pm_file_index_result_clear(&other);
	if (ask(fn, ctx, PM_PRED_IS_NOT_NULL, NULL, 0, &other))
		pm_file_index_result_clear(&other);
	if (ask(fn, ctx, PM_PRED_LT, lits, 1, &other))
		pm_file_index_result_clear(&other);
}

static pm_code
eval_bitmap(void *ctx, const pm_predicate *leaf, pm_file_index_result *out, pm_error *err)
{
	return pm_bitmap_index_eval(ctx, leaf, out, err);
}

static pm_code
eval_bloom(void *ctx, const pm_predicate *leaf, pm_file_index_result *out, pm_error *err)
{
	return pm_bloom_filter_index_eval(ctx, leaf, out, err);
}

typedef struct container_ctx
{
	pm_file_index *fi;
	const char *column;
	const pm_type *type;
} container_ctx;

static pm_code
eval_container(void *ctx, const pm_predicate *leaf, pm_file_index_result *out, pm_error *err)
{
	container_ctx *c = ctx;

	return pm_file_index_eval(c->fi, c->column, c->type, leaf, out, err);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const pm_env *env = pm_env_default();
	const pm_type *t;
	pm_error	err;

	if (size < 2)
		return 0;
	t = &types[data[1] % NTYPES];
	pm_error_clear(&err);
	switch (data[0] % 3)
	{
		case 0:
			{
				pm_file_index *fi;

				if (pm_file_index_open(env, data + 2, size - 2, &fi, &err) != PM_OK)
				{
					CHECK(err.code == PM_ERR_CORRUPT || err.code == PM_ERR_UNSUPPORTED);
					return 0;
				}
				for (int i = 0; i < pm_file_index_nentries(fi); i++)
				{
					const pm_file_index_entry *e = pm_file_index_entry_at(fi, i);

					CHECK(e != NULL && e->column != NULL && e->kind != NULL);
					CHECK(e->empty ? e->body == NULL :
						  (e->body >= data + 2 && e->body + e->len <= data + size));
					for (int k = 0; k < NTYPES; k++)
					{
						container_ctx c = {fi, e->column, &types[k]};

						exercise(eval_container, &c, &types[k], data, size, -2);
					}
				}
				CHECK(pm_file_index_entry_at(fi, pm_file_index_nentries(fi)) == NULL);
				pm_file_index_free(fi);
				break;
			}
		case 1:
			{
				pm_bitmap_index *idx;

				if (pm_bitmap_index_open(env, data + 2, size - 2, t, &idx, &err) != PM_OK)
				{
					CHECK(err.code == PM_ERR_CORRUPT || err.code == PM_ERR_UNSUPPORTED);
					return 0;
				}
				exercise(eval_bitmap, idx, t, data, size, pm_bitmap_index_row_count(idx));
				pm_bitmap_index_free(idx);
				break;
			}
		case 2:
			{
				pm_bloom_filter_index *idx;

				if (pm_bloom_filter_index_open(env, data + 2, size - 2, t, &idx, &err) != PM_OK)
				{
					CHECK(err.code == PM_ERR_CORRUPT || err.code == PM_ERR_UNSUPPORTED);
					return 0;
				}
				exercise(eval_bloom, idx, t, data, size, -1);
				pm_bloom_filter_index_free(idx);
				break;
			}
	}
	return 0;
}
