/*-------------------------------------------------------------------------
 * key_order_merge.c
 *	  Merge batch streams in ascending order of an integer column (see
 *	  key_order_merge.h).
 *
 * Each step takes the input of the smallest head key (the first such
 * input at a tie) and takes its rows up to the next smallest head key of
 * the other inputs: a stretch. The output batch lists its rows (input,
 * row) until it is full or an input's batch ends; then each column is
 * gathered in one loop, and only then are ended batches replaced (an
 * input's batch is valid until its next call). The inputs are few (the
 * splits of a scan), so the smallest head is found by a loop.
 *-------------------------------------------------------------------------
 */
#include "lsm/key_order_merge.h"

#include <string.h>

#include "common/vector_builder.h"

typedef struct merge_input
{
	void	   *input;
	pm_batch   *batch;			/* current batch, NULL at the end */
	int64_t		pos;			/* next row of batch */
	int64_t		key;			/* its key */
	int64_t		prev;			/* the key of the row before, for the order check */
	bool		started;
	const pm_vector *keys;		/* the batch's key column */
} merge_input;

struct pm_key_order_merge
{
	const pm_env *env;
	pm_batch_next_fn next;
	merge_input *in;
	int			n;
	int			key_col;
	int			ncols;
	pm_arena   *arena;
	pm_vector  *cols;
	pm_vector_builder *bld;
	pm_batch	out;
	int			last;
	/* the output batch's rows: row src_row[k] of input src_in[k]'s batch */
	int32_t    *src_in;
	int32_t    *src_row;
	/* gather's scratch: per input, a column's values and nulls */
	const uint8_t **vals;
	const uint8_t **nulls;
};

static pm_code
out_of_order(int i, pm_error *err)
{
	return pm_fail(err, PM_ERR_INVALID,
				   "rows of a primary-key split out of key order (input %d) in a read in key order",
				   i);
}

/* Key of row r of in's batch; checks the order. */
static pm_code
load_key(pm_key_order_merge *m, int i, pm_error *err)
{
	merge_input *in = &m->in[i];
	const pm_vector *k = &in->batch->cols[m->key_col];

	if (pm_vector_is_null(k, in->pos))
		return pm_fail(err, PM_ERR_INVALID, "a NULL primary key in a read in key order");
	in->keys = k;
	in->key = pm_vector_int64_at(k, in->pos);
	if (in->started && in->key < in->prev)
		return out_of_order(i, err);
	in->started = true;
	return PM_OK;
}

/* Move input i to a row (its next non-empty batch if needed); batch NULL at its end. */
static pm_code
settle(pm_key_order_merge *m, int i, pm_error *err)
{
	merge_input *in = &m->in[i];

	while (in->batch != NULL && in->pos >= in->batch->nrows)
	{
		PM_TRY(m->next(in->input, &in->batch, err));
		in->pos = 0;
	}
	if (in->batch != NULL)
		PM_TRY(load_key(m, i, err));
	return PM_OK;
}

pm_code
pm_key_order_merge_open(const pm_env *env, pm_batch_next_fn next, void *const *inputs, int n,
						int key_col, const pm_type *const *types, int ncols,
						pm_key_order_merge **out, pm_error *err)
{
	pm_key_order_merge *m;

	*out = NULL;
	if (key_col < 0 || key_col >= ncols || n < 0)
		return pm_fail(err, PM_ERR_INVALID, "key column %d of %d out of range", key_col, ncols);
	m = pm_alloc(env, sizeof(*m));
	if (m == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a read in key order");
	memset(m, 0, sizeof(*m));
	m->env = env;
	m->next = next;
	m->n = n;
	m->key_col = key_col;
	m->ncols = ncols;
	m->last = -1;
	m->arena = pm_arena_create(env);
	if (m->arena == NULL ||
		(m->in = pm_arena_zalloc(m->arena, sizeof(merge_input) * (size_t) (n + 1))) == NULL ||
		(m->cols = pm_arena_zalloc(m->arena, sizeof(pm_vector) * (size_t) (ncols + 1))) == NULL ||
		(m->bld = pm_arena_zalloc(m->arena, sizeof(pm_vector_builder) * (size_t) (ncols + 1))) == NULL ||
		(m->src_in = pm_arena_alloc(m->arena, sizeof(int32_t) * PM_KEY_ORDER_BATCH)) == NULL ||
		(m->src_row = pm_arena_alloc(m->arena, sizeof(int32_t) * PM_KEY_ORDER_BATCH)) == NULL ||
		(m->vals = pm_arena_zalloc(m->arena, sizeof(uint8_t *) * (size_t) (n + 1))) == NULL ||
		(m->nulls = pm_arena_zalloc(m->arena, sizeof(uint8_t *) * (size_t) (n + 1))) == NULL)
	{
		pm_key_order_merge_close(m);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a read in key order");
	}
	for (int c = 0; c < ncols && n > 1; c++)
		if (!pm_vector_builder_init(&m->bld[c], &m->cols[c], types[c], PM_KEY_ORDER_BATCH,
									m->arena))
		{
			pm_key_order_merge_close(m);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a read in key order");
		}
	for (int i = 0; i < n; i++)
		m->in[i].input = inputs[i];
	m->out.ncols = ncols;
	m->out.cols = m->cols;
	*out = m;
	return PM_OK;
}

/*
 * The end of input a's stretch: its rows from pos + 1 on, before end, while
 * below k2 (has_k2); checks that they ascend and have no NULL key.
 */
static inline pm_code
stretch_end(pm_key_order_merge *m, int a, int64_t end, bool has_k2, int64_t k2,
			int64_t *out, pm_error *err)
{
	merge_input *in = &m->in[a];
	const pm_vector *kv = in->keys;
	int64_t		prev = in->key;
	int64_t		r;

	for (r = in->pos + 1; r < end; r++)
	{
		int64_t		k = pm_vector_int64_at(kv, r);

		if (has_k2 && k >= k2)
			break;
		if (k < prev)
			return out_of_order(a, err);
		prev = k;
	}
	if (kv->nulls != NULL)
		for (int64_t i = in->pos; i < r; i++)
			if (kv->nulls[i])
				return pm_fail(err, PM_ERR_INVALID, "a NULL primary key in a read in key order");
	in->prev = prev;
	*out = r;
	return PM_OK;
}

/* Gather a column of bytes (CHAR to VARBINARY): the lengths summed, then one copy each. */
static bool
gather_bytes(pm_key_order_merge *m, int c, int64_t n)
{
	pm_vector_builder *bld = &m->bld[c];
	pm_vector  *v = bld->v;
	const int32_t *in = m->src_in;
	const int32_t *row = m->src_row;
	int64_t		total = 0;
	int64_t		off;

	for (int64_t k = 0; k < n; k++)
	{
		const pm_vector *src = &m->in[in[k]].batch->cols[c];

		if (!pm_vector_is_null(src, row[k]))
			total += src->offsets[row[k] + 1] - src->offsets[row[k]];
	}
	if (!pm_vector_builder_reserve(bld, n) ||
		!pm_vector_reserve_data(v, &bld->data_capacity, total, bld->arena))
		return false;
	off = v->data_size;
	for (int64_t k = 0; k < n; k++)
	{
		const pm_vector *src = &m->in[in[k]].batch->cols[c];
		int64_t		i = v->length + k;

		v->nulls[i] = pm_vector_is_null(src, row[k]);
		if (!v->nulls[i])
		{
			int32_t		len;
			const uint8_t *p = pm_vector_bytes(src, row[k], &len);

			if (len > 0)
				memcpy(v->data + off, p, (size_t) len);
			off += len;
		}
		v->offsets[i + 1] = (int32_t) off;
	}
	v->data_size = off;
	v->length += n;
	return true;
}

/* Gather column c of the output's rows (src_in, src_row) from the inputs' batches. */
static bool
gather(pm_key_order_merge *m, int c, int64_t n)
{
	pm_vector_builder *bld = &m->bld[c];
	pm_vector  *v = bld->v;
	int			size = pm_type_value_size(v->type->id);

	if (size > 0 && v->nanos == NULL && v->nchildren == 0)
	{
		bool		fast = true;

		for (int i = 0; i < m->n && fast; i++)
			if (m->in[i].batch != NULL && m->in[i].batch->cols[c].nanos != NULL)
				fast = false;
		if (fast)
		{
			uint8_t    *dv;
			uint8_t    *dn;
			const int32_t *in = m->src_in;
			const int32_t *row = m->src_row;

			if (!pm_vector_builder_reserve(bld, n))
				return false;
			dv = (uint8_t *) v->values + (size_t) v->length * size;
			dn = v->nulls + v->length;
			for (int i = 0; i < m->n; i++)
			{
				const pm_vector *src = m->in[i].batch != NULL ? &m->in[i].batch->cols[c] : NULL;

				m->vals[i] = src != NULL ? src->values : NULL;
				m->nulls[i] = src != NULL ? src->nulls : NULL;
			}
			switch (size)
			{
				case 8:
					for (int64_t k = 0; k < n; k++)
						((int64_t *) dv)[k] = ((const int64_t *) m->vals[in[k]])[row[k]];
					break;
				case 4:
					for (int64_t k = 0; k < n; k++)
						((int32_t *) dv)[k] = ((const int32_t *) m->vals[in[k]])[row[k]];
					break;
				default:
					for (int64_t k = 0; k < n; k++)
						memcpy(dv + (size_t) k * size,
							   m->vals[in[k]] + (size_t) row[k] * size, (size_t) size);
					break;
			}
			for (int64_t k = 0; k < n; k++)
			{
				const uint8_t *nl = m->nulls[in[k]];

				dn[k] = nl != NULL ? nl[row[k]] : 0;
			}
			v->length += n;
			return true;
		}
	}
	switch (v->type->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			return gather_bytes(m, c, n);
		default:
			break;
	}
	for (int64_t k = 0; k < n; k++)
		if (!pm_vector_builder_append(bld, &m->in[m->src_in[k]].batch->cols[c], m->src_row[k]))
			return false;
	return true;
}

pm_code
pm_key_order_merge_next(pm_key_order_merge *m, pm_batch **batch, pm_error *err)
{
	int64_t		n = 0;
	bool		exhausted = false;

	*batch = NULL;
	if (m->n == 0)
		return PM_OK;
	if (m->n == 1)
	{
		/* one split: its batches as they are (its merge keeps the order) */
		m->last = 0;
		return m->next(m->in[0].input, batch, err);
	}
	if (m->last < 0)
	{
		/* first call: every input's first row */
		for (int i = 0; i < m->n; i++)
		{
			PM_TRY(m->next(m->in[i].input, &m->in[i].batch, err));
			PM_TRY(settle(m, i, err));
		}
		m->last = 0;
	}

	/*
	 * The output's rows, until it is full or an input's batch ends (the
	 * inputs' batches must stay valid until they are gathered).
	 */
	while (n < PM_KEY_ORDER_BATCH && !exhausted)
	{
		int			a = -1;
		int64_t		k2 = INT64_MAX;
		bool		has_k2 = false;
		merge_input *in;
		int64_t		end;

		for (int i = 0; i < m->n; i++)
		{
			if (m->in[i].batch == NULL)
				continue;
			if (a < 0 || m->in[i].key < m->in[a].key)
			{
				if (a >= 0)
				{
					k2 = m->in[a].key;
					has_k2 = true;
				}
				a = i;
			}
			else if (!has_k2 || m->in[i].key < k2)
			{
				k2 = m->in[i].key;
				has_k2 = true;
			}
		}
		if (a < 0)
			break;
		/* the stretch: input a's rows from its head while below k2 (at least the head) */
		in = &m->in[a];
		end = in->pos + (PM_KEY_ORDER_BATCH - n);
		if (end > in->batch->nrows)
			end = in->batch->nrows;
		PM_TRY(stretch_end(m, a, end, has_k2, k2, &end, err));
		for (int64_t r = in->pos; r < end; r++, n++)
		{
			m->src_in[n] = a;
			m->src_row[n] = (int32_t) r;
		}
		m->last = a;
		in->pos = end;
		if (in->pos >= in->batch->nrows)
			exhausted = true;
		else if ((in->key = pm_vector_int64_at(in->keys, in->pos)) < in->prev)
			return out_of_order(a, err);
	}
	for (int c = 0; c < m->ncols; c++)
	{
		pm_vector_builder_reset(&m->bld[c]);
		if (!gather(m, c, n))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory merging splits in key order");
	}
	m->out.nrows = n;
	/* batches gathered: the ended ones are replaced */
	for (int i = 0; i < m->n; i++)
		if (m->in[i].batch != NULL && m->in[i].pos >= m->in[i].batch->nrows)
			PM_TRY(settle(m, i, err));
	if (n > 0)
		*batch = &m->out;
	return PM_OK;
}

int
pm_key_order_merge_last_input(const pm_key_order_merge *m)
{
	return m->last;
}

void
pm_key_order_merge_close(pm_key_order_merge *m)
{
	if (m == NULL)
		return;
	pm_arena_destroy(m->arena);
	pm_free(m->env, m);
}
