/*-------------------------------------------------------------------------
 * write_buffer.c
 *	  The sorting, merging write buffer of one bucket (write_buffer.h).
 *
 * Records are deep-copied, column by column, into vectors of the buffer's
 * arena (whose size is the buffer's memory); a flush sorts an index of the
 * records and writes the merged ones in batches of OUT_BATCH rows.
 *-------------------------------------------------------------------------
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* qsort_r */
#endif
#include "lsm/write_buffer.h"

#include <stdlib.h>
#include <string.h>

#include "common/vector_builder.h"
#include "lsm/key_compare.h"

#define OUT_BATCH 4096
#define START_ROWS 64			/* records a buffer has room for at first */

struct pm_write_buffer
{
	const pm_env *env;
	const pm_kv_layout *layout;
	pm_merge_engine *engine;
	pm_arena   *arena;			/* the records */
	int			ncols;			/* table fields */
	pm_batch	rows;			/* the records' rows */
	pm_vector_builder *builders;
	int64_t    *seqs;
	uint8_t    *kinds;
	int64_t		n;
	int64_t		cap;			/* 0: not started (nothing allocated) */
};

static pm_code
start(pm_write_buffer *buf, pm_error *err)
{
	const pm_type *row = buf->layout->schema->row_type;

	buf->rows.nrows = 0;
	buf->rows.first_row = 0;
	buf->rows.ncols = buf->ncols;
	buf->rows.cols = pm_arena_zalloc(buf->arena, sizeof(pm_vector) * (size_t) (buf->ncols + 1));
	buf->builders = pm_arena_zalloc(buf->arena,
									sizeof(pm_vector_builder) * (size_t) (buf->ncols + 1));
	buf->cap = 0;				/* until everything is allocated */
	buf->seqs = pm_arena_alloc(buf->arena, sizeof(int64_t) * START_ROWS);
	buf->kinds = pm_arena_alloc(buf->arena, START_ROWS);
	buf->n = 0;
	if (buf->rows.cols == NULL || buf->builders == NULL || buf->seqs == NULL ||
		buf->kinds == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < buf->ncols; c++)
		if (!pm_vector_builder_init(&buf->builders[c], &buf->rows.cols[c], row->fields[c].type,
									START_ROWS, buf->arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	buf->cap = START_ROWS;
	return PM_OK;
}

pm_code
pm_write_buffer_create(const pm_env *env, const pm_kv_layout *layout, pm_merge_engine *engine,
					   pm_write_buffer **out, pm_error *err)
{
	pm_write_buffer *buf = pm_alloc(env, sizeof(*buf));

	*out = NULL;
	if (buf == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(buf, 0, sizeof(*buf));
	buf->env = env;
	buf->layout = layout;
	buf->engine = engine;
	buf->ncols = layout->schema->row_type->nfields;
	buf->arena = pm_arena_create(env);
	if (buf->arena == NULL)
	{
		pm_free(env, buf);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	*out = buf;
	return PM_OK;
}

pm_code
pm_write_buffer_put(pm_write_buffer *buf, const pm_batch *batch, int64_t row, int64_t seq,
					int kind, pm_error *err)
{
	if (buf->cap == 0)
		PM_TRY(start(buf, err));	/* an idle bucket holds no memory */
	if (buf->n == buf->cap)
	{
		int64_t		ncap = buf->cap * 2;
		int64_t    *s = pm_arena_realloc(buf->arena, buf->seqs, sizeof(int64_t) * (size_t) buf->cap,
										 sizeof(int64_t) * (size_t) ncap);
		uint8_t    *k = s == NULL ? NULL
			: pm_arena_realloc(buf->arena, buf->kinds, (size_t) buf->cap, (size_t) ncap);

		if (s == NULL || k == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		buf->seqs = s;
		buf->kinds = k;
		buf->cap = ncap;
	}
	for (int c = 0; c < buf->ncols; c++)
		if (!pm_vector_builder_append(&buf->builders[c], &batch->cols[c], row))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	buf->seqs[buf->n] = seq;
	buf->kinds[buf->n] = (uint8_t) kind;
	buf->n++;
	buf->rows.nrows = buf->n;
	return PM_OK;
}

int64_t
pm_write_buffer_size(const pm_write_buffer *buf)
{
	return buf->n;
}

int64_t
pm_write_buffer_memory(const pm_write_buffer *buf)
{
	return (int64_t) pm_arena_bytes(buf->arena);
}

void
pm_write_buffer_clear(pm_write_buffer *buf)
{
	pm_arena_reset(buf->arena);
	buf->cap = 0;
	buf->n = 0;
}

void
pm_write_buffer_free(pm_write_buffer *buf)
{
	if (buf == NULL)
		return;
	if (buf->arena)
		pm_arena_destroy(buf->arena);
	pm_free(buf->env, buf);
}

/* ---- flush ------------------------------------------------------------- */

typedef struct sort_ctx
{
	const pm_write_buffer *buf;
	const pm_vector *keys;		/* the key columns, contiguous */
	int			nkeys;
} sort_ctx;

static void
record_of(const pm_write_buffer *buf, int64_t i, pm_kv_record *r)
{
	r->batch = &buf->rows;
	r->row = i;
	r->seq = buf->seqs[i];
	r->kind = buf->kinds[i];
	r->level = 0;
}

/* SortBufferWriteBuffer: key fields, then sequence.field fields, then _SEQUENCE_NUMBER. */
static int
cmp_records(const void *pa, const void *pb, void *arg)
{
	const sort_ctx *ctx = arg;
	int64_t		a = *(const int64_t *) pa;
	int64_t		b = *(const int64_t *) pb;
	pm_kv_record ra,
				rb;
	int			c = pm_key_compare(ctx->keys, a, ctx->keys, b, ctx->nkeys);

	if (c != 0)
		return c;
	record_of(ctx->buf, a, &ra);
	record_of(ctx->buf, b, &rb);
	return pm_merge_engine_compare_records(ctx->buf->engine, &ra, &rb);
}

typedef struct int_key_row
{
	int64_t		key;
	int64_t		row;
} int_key_row;

static int
cmp_int_key_rows(const void *pa, const void *pb)
{
	const int_key_row *a = pa;
	const int_key_row *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/*
 * The common case fast: one INT/BIGINT/DATE key without NULLs and no
 * sequence.field. Records are numbered in the order they came, so within a
 * key the buffer position orders them as _SEQUENCE_NUMBER does; the sort
 * is then on (key, position) pairs. False: not this case (or no memory).
 */
static bool
sort_int_key(const pm_write_buffer *buf, const pm_vector *keys, int64_t *idx)
{
	const int  *seq_cols;
	int			nseq;
	bool		desc;
	int_key_row *pairs;
	pm_type_id	t;

	pm_merge_engine_sequence_fields(buf->engine, &seq_cols, &nseq, &desc);
	if (buf->layout->nkeys != 1 || nseq > 0)
		return false;
	t = keys[0].type->id;
	if (t != PM_TYPE_INT && t != PM_TYPE_BIGINT && t != PM_TYPE_DATE)
		return false;
	pairs = pm_alloc(buf->env, sizeof(*pairs) * (size_t) buf->n);
	if (pairs == NULL)
		return false;
	for (int64_t i = 0; i < buf->n; i++)
	{
		if (pm_vector_is_null(&keys[0], i))
		{
			pm_free(buf->env, pairs);
			return false;		/* NULLs first: the general sort */
		}
		pairs[i].key = t == PM_TYPE_BIGINT ? PM_VEC_VALUES(&keys[0], int64_t)[i]
			: PM_VEC_VALUES(&keys[0], int32_t)[i];
		pairs[i].row = i;
	}
	qsort(pairs, (size_t) buf->n, sizeof(*pairs), cmp_int_key_rows);
	for (int64_t i = 0; i < buf->n; i++)
		idx[i] = pairs[i].row;
	pm_free(buf->env, pairs);
	return true;
}

typedef struct out_batch
{
	pm_arena   *arena;
	pm_batch	b;
	pm_vector_builder *vb;
	int			ncols;
} out_batch;

static pm_code
out_start(out_batch *o, const pm_kv_layout *l, pm_error *err)
{
	const pm_type *ft = l->file_type;

	pm_arena_reset(o->arena);
	o->ncols = ft->nfields;
	o->b.nrows = 0;
	o->b.first_row = 0;
	o->b.ncols = ft->nfields;
	o->b.cols = pm_arena_zalloc(o->arena, sizeof(pm_vector) * (size_t) ft->nfields);
	o->vb = pm_arena_zalloc(o->arena, sizeof(pm_vector_builder) * (size_t) ft->nfields);
	if (o->b.cols == NULL || o->vb == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < ft->nfields; c++)
		if (!pm_vector_builder_init(&o->vb[c], &o->b.cols[c], ft->fields[c].type, OUT_BATCH,
									o->arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

/* Append one output record: key of buffered row key_row, seq, kind, cells (or the row). */
static pm_code
out_append(out_batch *o, const pm_write_buffer *buf, int64_t key_row, int64_t seq, int kind,
		   const pm_merge_cell *cells, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	int			nk = l->nkeys;
	int64_t		n = o->b.nrows;
	bool		ok = true;
	pm_vector  *sv = &o->b.cols[nk];
	pm_vector  *kv = &o->b.cols[nk + 1];

	for (int k = 0; k < nk && ok; k++)
		ok = pm_vector_builder_append(&o->vb[k], &buf->rows.cols[l->key_fields[k]], key_row);
	/* the fixed-width system columns: append a value, then set it */
	ok = ok && pm_vector_builder_append_null(&o->vb[nk]) &&
		pm_vector_builder_append_null(&o->vb[nk + 1]);
	for (int j = 0; j < buf->ncols && ok; j++)
	{
		if (cells == NULL)
			ok = pm_vector_builder_append(&o->vb[nk + 2 + j], &buf->rows.cols[j], key_row);
		else if (cells[j].vec == NULL)
			ok = pm_vector_builder_append_null(&o->vb[nk + 2 + j]);
		else
			ok = pm_vector_builder_append(&o->vb[nk + 2 + j], cells[j].vec, cells[j].row);
	}
	if (!ok)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_VEC_VALUES(sv, int64_t)[n] = seq;
	PM_VEC_VALUES(kv, int8_t)[n] = (int8_t) kind;
	if (sv->nulls)
		sv->nulls[n] = 0;
	if (kv->nulls)
		kv->nulls[n] = 0;
	o->b.nrows = n + 1;
	return PM_OK;
}

static pm_code
flush_sorted(pm_write_buffer *buf, const int64_t *idx, pm_kv_file_writer *out, out_batch *o,
			 const pm_vector *keys, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	int64_t		n = buf->n;
	int64_t		i = 0;

	PM_TRY(out_start(o, l, err));
	while (i < n)
	{
		int64_t		j = i + 1;
		int64_t		last;

		while (j < n && pm_key_compare(keys, idx[i], keys, idx[j], l->nkeys) == 0)
			j++;
		last = idx[j - 1];
		if (j - i == 1)
			PM_TRY(out_append(o, buf, last, buf->seqs[last], buf->kinds[last], NULL, err));
		else
		{
			bool		has_row;
			int			kind;
			const pm_merge_cell *cells;

			pm_merge_engine_reset(buf->engine);
			for (int64_t r = i; r < j; r++)
			{
				pm_kv_record rec;

				record_of(buf, idx[r], &rec);
				PM_TRY(pm_merge_engine_add(buf->engine, &rec, err));
			}
			PM_TRY(pm_merge_engine_result(buf->engine, &has_row, &kind, &cells, err));
			if (has_row)
				PM_TRY(out_append(o, buf, last, buf->seqs[last], kind, cells, err));
		}
		i = j;
		if (o->b.nrows >= OUT_BATCH)
		{
			PM_TRY(pm_kv_file_writer_write(out, &o->b, err));
			PM_TRY(out_start(o, l, err));
		}
	}
	if (o->b.nrows > 0)
		PM_TRY(pm_kv_file_writer_write(out, &o->b, err));
	return PM_OK;
}

pm_code
pm_write_buffer_flush(pm_write_buffer *buf, pm_kv_file_writer *out, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	int64_t    *idx;
	pm_vector  *keys;
	sort_ctx	ctx;
	out_batch	o;
	pm_code		rc;

	if (buf->n == 0)
		return PM_OK;
	idx = pm_alloc(buf->env, sizeof(int64_t) * (size_t) buf->n);
	keys = pm_arena_alloc(buf->arena, sizeof(pm_vector) * (size_t) (l->nkeys + 1));
	memset(&o, 0, sizeof(o));
	o.arena = pm_arena_create(buf->env);
	if (idx == NULL || keys == NULL || o.arena == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int64_t i = 0; i < buf->n; i++)
		idx[i] = i;
	for (int k = 0; k < l->nkeys; k++)
		keys[k] = buf->rows.cols[l->key_fields[k]];
	ctx.buf = buf;
	ctx.keys = keys;
	ctx.nkeys = l->nkeys;
	if (!sort_int_key(buf, keys, idx))
		qsort_r(idx, (size_t) buf->n, sizeof(int64_t), cmp_records, &ctx);
	rc = flush_sorted(buf, idx, out, &o, keys, err);
done:
	if (idx)
		pm_free(buf->env, idx);
	if (o.arena)
		pm_arena_destroy(o.arena);
	pm_write_buffer_clear(buf);
	return rc;
}
