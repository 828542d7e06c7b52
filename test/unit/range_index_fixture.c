/*-------------------------------------------------------------------------
 * range_index_fixture.c
 *	  Corpus values, container bodies and the property check of the
 *	  range-bitmap and BSI index tests (see range_index_fixture.h).
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "range_index_fixture.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/vector.h"
#include "corpus_case.h"
#include "format/format_reader.h"
#include "format/parquet/parquet_reader.h"
#include "io/fileio.h"
#include "row/value.h"

void
ix_table_load(ix_table *t, pm_arena *arena, const char *table_rel, const pm_type *row)
{
	char		dir[4096],
				data[4608],
				index[4700];
	DIR		   *d;
	struct dirent *e;
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_format_read_options opt = {.schema = row};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int			cap = 0;

	memset(t, 0, sizeof(*t));
	t->arena = arena;
	t->row = row;
	snprintf(dir, sizeof(dir), "%s/bucket-0", unit_corpus_path(table_rel));
	d = opendir(dir);
	assert_non_null(d);
	data[0] = '\0';
	while ((e = readdir(d)) != NULL)
	{
		size_t		n = strlen(e->d_name);

		if (n > 8 && strcmp(e->d_name + n - 8, ".parquet") == 0)
		{
			assert_true(data[0] == '\0');	/* one data file */
			snprintf(data, sizeof(data), "%s/%s", dir, e->d_name);
		}
	}
	closedir(d);
	assert_true(data[0] != '\0');
	snprintf(index, sizeof(index), "%s.index", data);

	pm_error_clear(&err);
	assert_int_equal(pm_fileio_read_all(io, index, arena, 1 << 20, &t->index, &t->index_len,
										&err), PM_OK);
	assert_int_equal(pm_parquet_reader_open(pm_env_default(), io, data, &opt, &r, &err), PM_OK);
	t->values = pm_arena_zalloc(arena, row->nfields * sizeof(pm_value *));
	while (pm_format_reader_next(r, &b, &err) == PM_OK && b != NULL)
	{
		if (t->nrows + b->nrows > cap)
		{
			int			ncap = (t->nrows + (int) b->nrows) * 2;

			for (int c = 0; c < row->nfields; c++)
				t->values[c] = pm_arena_realloc(arena, t->values[c], cap * sizeof(pm_value),
												ncap * sizeof(pm_value));
			cap = ncap;
		}
		for (int c = 0; c < row->nfields; c++)
			for (int64_t i = 0; i < b->nrows; i++)
			{
				pm_value	v = vector_value(&b->cols[c], i);

				if (!v.is_null && pm_type_is_varlen(row->fields[c].type->id))
				{
					uint8_t    *copy = pm_arena_alloc(arena, v.u.bytes.len + 1);

					memcpy(copy, v.u.bytes.ptr, v.u.bytes.len);
					v.u.bytes.ptr = copy;
				}
				t->values[c][t->nrows + i] = v;
			}
		t->nrows += (int) b->nrows;
	}
	assert_int_equal(err.code, PM_OK);
	assert_int_equal(t->nrows, pm_format_reader_row_count(r));
	pm_format_reader_close(r);
	pm_local_fileio_destroy(io);
}

static uint32_t
be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | p[3];
}

/* FileIndexFormat v1 (../shared/docs/paimon-format-data.md §6.3), just enough to find a body. */
const uint8_t *
ix_container_body(const uint8_t *buf, size_t len, const char *column, const char *kind,
				  size_t *body_len)
{
	size_t		p = 20;
	uint32_t	ncols;

	assert_true(len >= 20);
	assert_int_equal(be32(buf), 0x00054E4E);
	assert_int_equal(be32(buf + 4), 0xD01A35AE);
	assert_int_equal(be32(buf + 8), 1);
	ncols = be32(buf + 16);
	for (uint32_t c = 0; c < ncols; c++)
	{
		size_t		nlen = ((size_t) buf[p] << 8) | buf[p + 1];
		bool		col_match = nlen == strlen(column) && memcmp(buf + p + 2, column, nlen) == 0;
		uint32_t	nidx;

		p += 2 + nlen;
		nidx = be32(buf + p);
		p += 4;
		for (uint32_t k = 0; k < nidx; k++)
		{
			size_t		klen = ((size_t) buf[p] << 8) | buf[p + 1];
			bool		match = col_match && klen == strlen(kind) &&
				memcmp(buf + p + 2, kind, klen) == 0;
			int32_t		start,
						length;

			p += 2 + klen;
			start = (int32_t) be32(buf + p);
			length = (int32_t) be32(buf + p + 4);
			p += 8;
			assert_true(p <= len);
			if (match)
			{
				assert_true(start >= 0 && (size_t) start + length <= len);
				*body_len = (size_t) length;
				return buf + start;
			}
		}
	}
	fail_msg("no %s index on column %s", kind, column);
	return NULL;
}

/* Postgres' comparison of a value with a literal (table/predicate.h). */
static int
pg_compare(const pm_type *t, const pm_value *v, const pm_value *lit)
{
	switch (t->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			if (isnan(v->u.f64))
				return isnan(lit->u.f64) ? 0 : 1;
			if (isnan(lit->u.f64))
				return -1;
			return v->u.f64 < lit->u.f64 ? -1 : v->u.f64 > lit->u.f64 ? 1 : 0;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			/* the value truncated to the microsecond */
			if (v->u.i64 != lit->u.i64)
				return v->u.i64 < lit->u.i64 ? -1 : 1;
			return lit->nanos > 0 ? -1 : 0;
		default:
			return pm_value_compare(t, v, lit);
	}
}

bool
ix_matches(const pm_type *t, const pm_predicate *leaf, const pm_value *v)
{
	int			c;

	if (leaf->op == PM_PRED_IS_NULL)
		return v->is_null;
	if (leaf->op == PM_PRED_IS_NOT_NULL)
		return !v->is_null;
	if (v->is_null)
		return false;
	if (leaf->op == PM_PRED_IN)
	{
		for (int k = 0; k < leaf->nliterals; k++)
			if (pg_compare(t, v, &leaf->literals[k]) == 0)
				return true;
		return false;
	}
	c = pg_compare(t, v, &leaf->literals[0]);
	switch (leaf->op)
	{
		case PM_PRED_EQ:
			return c == 0;
		case PM_PRED_NE:
			return c != 0;
		case PM_PRED_LT:
			return c < 0;
		case PM_PRED_LE:
			return c <= 0;
		case PM_PRED_GT:
			return c > 0;
		case PM_PRED_GE:
			return c >= 0;
		default:
			fail_msg("unexpected op %d", leaf->op);
			return false;
	}
}

static void
add_lit(pm_value *out, int *n, int max, pm_value v)
{
	if (*n < max)
		out[(*n)++] = v;
}

/* Literals for a column: each value, its neighbours, between values, extremes. */
static int
literals_for(const pm_type *t, const pm_value *vals, int nvals, pm_value *out, int max,
			 pm_arena *arena)
{
	int			n = 0;
	pm_value	x;

	memset(&x, 0, sizeof(x));
	switch (t->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			{
				const double fixed[] = {0.0, -0.0, INFINITY, -INFINITY, 1e300, -1e300};

				for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
				{
					x.u.f64 = fixed[i];
					add_lit(out, &n, max, x);
				}
				break;
			}
		case PM_TYPE_VARCHAR:
		case PM_TYPE_CHAR:
			x.u.bytes.ptr = (const uint8_t *) "";
			x.u.bytes.len = 0;
			add_lit(out, &n, max, x);
			x.u.bytes.ptr = (const uint8_t *) "\xff\xff";
			x.u.bytes.len = 2;
			add_lit(out, &n, max, x);
			break;
		case PM_TYPE_DECIMAL:
			x.u.i128 = -((pm_int128) 1 << 120);
			add_lit(out, &n, max, x);
			x.u.i128 = (pm_int128) 1 << 120;
			add_lit(out, &n, max, x);
			break;
		default:
			x.u.i64 = INT64_MIN;
			add_lit(out, &n, max, x);
			x.u.i64 = INT64_MAX;
			add_lit(out, &n, max, x);
			x.u.i64 = INT32_MIN;
			add_lit(out, &n, max, x);
			x.u.i64 = INT32_MAX;
			add_lit(out, &n, max, x);
			x.u.i64 = 0;
			add_lit(out, &n, max, x);
			break;
	}
	for (int i = 0; i < nvals; i++)
	{
		const pm_value *v = &vals[i];

		if (v->is_null)
			continue;
		/* the FDW never pushes NaN (predicate.h); its neighbours are numbers anyway */
		if ((t->id == PM_TYPE_FLOAT || t->id == PM_TYPE_DOUBLE) && isnan(v->u.f64))
			continue;
		x = *v;
		x.nanos = 0;
		add_lit(out, &n, max, x);
		switch (t->id)
		{
			case PM_TYPE_FLOAT:
				x.u.f64 = nextafter(v->u.f64, INFINITY);	/* between two floats */
				add_lit(out, &n, max, x);
				x.u.f64 = nextafter(v->u.f64, -INFINITY);
				add_lit(out, &n, max, x);
				x.u.f64 = nextafterf((float) v->u.f64, INFINITY);
				add_lit(out, &n, max, x);
				x.u.f64 = nextafterf((float) v->u.f64, -INFINITY);
				add_lit(out, &n, max, x);
				break;
			case PM_TYPE_DOUBLE:
				x.u.f64 = nextafter(v->u.f64, INFINITY);
				add_lit(out, &n, max, x);
				x.u.f64 = nextafter(v->u.f64, -INFINITY);
				add_lit(out, &n, max, x);
				break;
			case PM_TYPE_VARCHAR:
			case PM_TYPE_CHAR:
				if (v->u.bytes.len > 0)
				{
					x.u.bytes.len = v->u.bytes.len - 1;
					add_lit(out, &n, max, x);
				}
				{
					uint8_t    *s = pm_arena_alloc(arena, v->u.bytes.len + 1);

					memcpy(s, v->u.bytes.ptr, v->u.bytes.len);
					s[v->u.bytes.len] = 0;
					x.u.bytes.ptr = s;
					x.u.bytes.len = v->u.bytes.len + 1;
					add_lit(out, &n, max, x);
				}
				break;
			case PM_TYPE_DECIMAL:
				x.u.i128 = v->u.i128 - 1;
				add_lit(out, &n, max, x);
				x.u.i128 = v->u.i128 + 1;
				add_lit(out, &n, max, x);
				break;
			case PM_TYPE_TIMESTAMP:
			case PM_TYPE_TIMESTAMP_LTZ:
				{
					const int64_t d[] = {-1000, -500, -1, 1, 500, 1000};

					for (size_t k = 0; k < sizeof(d) / sizeof(d[0]); k++)
					{
						x.u.i64 = v->u.i64 + d[k];
						add_lit(out, &n, max, x);
					}
					break;
				}
			case PM_TYPE_BOOLEAN:
				x.u.i64 = !v->u.i64;
				add_lit(out, &n, max, x);
				break;
			default:
				if (!__builtin_sub_overflow(v->u.i64, 1, &x.u.i64))
					add_lit(out, &n, max, x);
				if (!__builtin_add_overflow(v->u.i64, 1, &x.u.i64))
					add_lit(out, &n, max, x);
				break;
		}
	}
	return n;
}

static void
check_leaf(void *idx, ix_eval_fn eval, const pm_type *t, const pm_value *vals, int n,
		   const pm_predicate *leaf, int lit_no)
{
	pm_file_index_result res;
	pm_error	err;
	int			want = 0;

	pm_error_clear(&err);
	assert_int_equal(eval(idx, leaf, &res, &err), PM_OK);
	if (res.skip)
		assert_null(res.rows);
	else if (res.rows == NULL)
		fail_msg("op %d literal #%d: no answer", leaf->op, lit_no);
	for (int i = 0; i < n; i++)
	{
		bool		expected = ix_matches(t, leaf, &vals[i]);
		bool		got = res.rows != NULL && roaring_bitmap_contains(res.rows, (uint32_t) i);

		if (expected != got)
			fail_msg("op %d literal #%d: row %d expected %s, got %s", leaf->op, lit_no, i,
					 expected ? "in" : "out", got ? "in" : "out");
		want += expected;
	}
	if (res.rows != NULL)
		assert_int_equal(roaring_bitmap_get_cardinality(res.rows), want);
	else
		assert_int_equal(want, 0);
	pm_file_index_result_clear(&res);
}

int
ix_check_all(void *idx, ix_eval_fn eval, const pm_type *t, const pm_value *vals, int n,
			 pm_arena *arena)
{
	const pm_pred_op ops[] = {PM_PRED_EQ, PM_PRED_NE, PM_PRED_LT, PM_PRED_LE, PM_PRED_GT,
	PM_PRED_GE};
	pm_value	lits[512];
	int			nlits = literals_for(t, vals, n, lits, 512, arena);
	pm_predicate leaf;
	int			checks = 0;

	memset(&leaf, 0, sizeof(leaf));
	leaf.op = PM_PRED_IS_NULL;
	check_leaf(idx, eval, t, vals, n, &leaf, -1);
	leaf.op = PM_PRED_IS_NOT_NULL;
	check_leaf(idx, eval, t, vals, n, &leaf, -1);
	checks += 2;
	for (int l = 0; l < nlits; l++)
	{
		for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
		{
			leaf.op = ops[o];
			leaf.nliterals = 1;
			leaf.literals = &lits[l];
			check_leaf(idx, eval, t, vals, n, &leaf, l);
			checks++;
		}
		/* IN of this literal and the next two */
		leaf.op = PM_PRED_IN;
		leaf.nliterals = nlits - l < 3 ? nlits - l : 3;
		leaf.literals = &lits[l];
		check_leaf(idx, eval, t, vals, n, &leaf, l);
		checks++;
	}
	return checks;
}
