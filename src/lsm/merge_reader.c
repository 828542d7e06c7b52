/*-------------------------------------------------------------------------
 * merge_reader.c
 *	  K-way merge of sorted runs through a merge engine (see merge_reader.h).
 *
 * A min-heap holds every run that still has a current row, ordered by that
 * row's key (run index breaks ties, for determinism). Each step looks at
 * the top run and the smallest of the others (the "bound"):
 *	 stretch	the top's key is below the bound: every row of the top run
 *				whose key is below the bound is a key with one record, taken
 *				as it is (retractions dropped) without touching the heap;
 *	 group		the top's key equals the bound's: pop every run at that key
 *				(each run holds a key at most once: Paimon's writer merges
 *				per key before writing a file), sort the records (engine
 *				order), merge, emit unless a retraction, and only then
 *				advance those runs and push them back.
 * Winning rows are not copied one by one: the output keeps (run, row) of
 * each, gathered column by column into the output batch when a run is
 * about to replace its batch (which would invalidate them), before a row
 * the engine computed (partial-update, aggregation), and when the output
 * batch is full. Deduplicate and first-row results are input rows, so
 * they are kept the same way.
 *
 * A whole batch of the top run below every other run's head (a section of
 * one file, a run of keys no other run holds), with no deleted row and no
 * retraction, is passed through: the output batch is a view of its value
 * columns, nothing copied; the run moves on at the next call.
 *
 * With a single integer key and deduplicate (no sequence.field, no
 * lookup) the heap only finds pass-through batches: the rows are merged a
 * window at a time (merge_window: every run's rows up to the smallest last
 * key of the runs' batches, all loaded, merged in one loop over the key
 * arrays), and the heap is rebuilt after each window.
 *
 * Keys: a single integer key (TINYINT..BIGINT, DATE, TIME) is compared as
 * an int64 cached per run; any other key, or a batch with a NULL key,
 * through pm_key_compare (same order on non-NULL integers, so switching
 * mid-merge keeps the heap valid). Every batch's _SEQUENCE_NUMBER and
 * _VALUE_KIND are checked once when it is loaded.
 *-------------------------------------------------------------------------
 */
#include "lsm/merge_reader.h"

#include <string.h>

#include "lsm/key_compare.h"
#include "common/vector_builder.h"

#define DEFAULT_BATCH_SIZE 1024

typedef struct run_state
{
	pm_run_source src;
	pm_batch   *batch;			/* current batch, NULL when exhausted */
	int64_t		pos;			/* current row in batch */
	int64_t		end;			/* rows [pos, end) are in the key range */
	int64_t		key;			/* integer keys: key of row pos */
	uint8_t    *keep;			/* DV: keep[i] = 0 if row i is deleted; NULL: all kept */
	uint8_t    *keep_buf;		/* keep's memory, keep_cap bytes */
	int64_t		keep_cap;
	bool		all_add;		/* every row of batch is +I or +U */
	bool		done;
} run_state;

/* A run in the window merge: its current batch's columns, rows [pos, end). */
typedef struct win_run
{
	int			run;
	int			kw;				/* key width: 1, 2, 4 or 8 bytes */
	run_state  *rs;
	const void *keys;
	const int64_t *seqs;
	const int8_t *kinds;
	const uint8_t *keep;
	bool		all_add;		/* run_state.all_add */
	int64_t		pos;
	int64_t		end;			/* end of its rows in the window */
	int64_t		key;			/* key of row pos */
} win_run;

/* How keys are compared: unknown until the first batch, then fixed (or generic). */
typedef enum key_mode
{
	KEYS_UNKNOWN = 0,
	KEYS_INT,					/* one integer key, cached in run_state.key */
	KEYS_GENERIC				/* pm_key_compare */
} key_mode;

struct pm_merge_reader
{
	const pm_env *env;
	pm_merge_engine *engine;
	bool		picks_record;	/* deduplicate / first-row: the result is an input row */
	int			nkeys;
	int			noutput;
	const pm_type *const *output_types;
	int			batch_size;
	int			nruns;
	run_state  *runs;
	int		   *heap;			/* run indexes */
	int			nheap;
	key_mode	keys;
	bool		started;
	bool		lookup;			/* see pm_merge_reader_set_lookup */
	const pm_type *seq_type;	/* see pm_merge_reader_set_kv_output */
	bool		keep_retracts;	/* see pm_merge_reader_set_keep_retracts */
	/* see pm_merge_reader_set_key_range: NULL vector = unbounded */
	const pm_vector *lo;
	const pm_vector *hi;
	pm_merge_lookup_fn lookup_fn;	/* see pm_merge_reader_set_lookup_fn */
	void	   *lookup_ctx;
	pm_merge_changelog_fn changelog_fn;	/* see pm_merge_reader_set_changelog_fn */
	void	   *changelog_ctx;
	/* see pm_merge_reader_set_full_changelog: changelog_fn for every key */
	bool		full_changelog;
	int32_t		full_max_level;
	pm_merge_cell *cl_cells;	/* noutput: a record's values as cells */
	const pm_type *kind_type;
	int		   *group;			/* runs of the current key */
	pm_kv_record *recs;
	/*
	 * output batch: nout rows, of which the last npending are still row
	 * pending_row[i] of the current batch of run pending_run[i]
	 */
	pm_arena   *out_arena;
	pm_batch	out;
	pm_vector_builder *builders;
	int64_t		nout;
	int32_t    *pending_run;
	int32_t    *pending_row;
	int64_t		npending;
	const pm_vector **src;		/* per run: the column being gathered */
	const void **srcv;			/* per run: its values */
	int			unsettled;		/* run whose batch was passed through, or -1 */
	/* see merge_window: decided at the first batch */
	bool		window;			/* deduplicate, no sequence.field, no lookup */
	bool		ignore_delete;
	struct win_run *win;		/* the window's runs, ascending */
};

static pm_code flush_pending(pm_merge_reader *m, pm_error *err);

/* ---- keys -------------------------------------------------------------- */

static bool
is_int_key_type(pm_type_id id)
{
	return id == PM_TYPE_TINYINT || id == PM_TYPE_SMALLINT || id == PM_TYPE_INT ||
		id == PM_TYPE_BIGINT || id == PM_TYPE_DATE || id == PM_TYPE_TIME;
}

/* Compare the current keys of runs a and b (keys only). */
static inline int
key_cmp(const pm_merge_reader *m, int a, int b)
{
	const run_state *ra = &m->runs[a],
			   *rb = &m->runs[b];

	if (m->keys == KEYS_INT)
		return ra->key < rb->key ? -1 : (ra->key > rb->key ? 1 : 0);
	return pm_key_compare(ra->batch->cols, ra->pos, rb->batch->cols, rb->pos, m->nkeys);
}

/* Heap order: key, then run index. */
static inline bool
run_less(const pm_merge_reader *m, int a, int b)
{
	int			c = key_cmp(m, a, b);

	return c != 0 ? c < 0 : a < b;
}

/* ---- heap ---------------------------------------------------------------- */

static void
heap_push(pm_merge_reader *m, int run)
{
	int			i = m->nheap++;

	while (i > 0)
	{
		int			p = (i - 1) / 2;

		if (!run_less(m, run, m->heap[p]))
			break;
		m->heap[i] = m->heap[p];
		i = p;
	}
	m->heap[i] = run;
}

/* Restore the heap after the top's key grew (or the top was replaced). */
static void
heap_sift_top(pm_merge_reader *m)
{
	int			run = m->heap[0];
	int			i = 0;

	for (;;)
	{
		int			l = 2 * i + 1,
					s;

		if (l >= m->nheap)
			break;
		s = l;
		if (l + 1 < m->nheap && run_less(m, m->heap[l + 1], m->heap[l]))
			s = l + 1;
		if (!run_less(m, m->heap[s], run))
			break;
		m->heap[i] = m->heap[s];
		i = s;
	}
	m->heap[i] = run;
}

static int
heap_pop(pm_merge_reader *m)
{
	int			top = m->heap[0];

	m->heap[0] = m->heap[--m->nheap];
	if (m->nheap > 0)
		heap_sift_top(m);
	return top;
}

/* ---- runs ---------------------------------------------------------------- */

/*
 * A batch just loaded: check the key-value layout and the system columns,
 * settle how keys are compared, mark its deletion-vector rows.
 */
static pm_code
load_batch(pm_merge_reader *m, run_state *r, pm_error *err)
{
	const pm_batch *b = r->batch;
	const pm_vector *seq,
			   *kind;
	const int8_t *kinds;
	uint8_t		bad = 0;

	if (b->ncols < m->nkeys + 2 + m->noutput)
		return pm_fail(err, PM_ERR_INVALID, "run batch does not have the key-value layout");
	seq = &b->cols[m->nkeys];
	kind = &b->cols[m->nkeys + 1];
	if (seq->type->id != PM_TYPE_BIGINT || kind->type->id != PM_TYPE_TINYINT)
		return pm_fail(err, PM_ERR_INVALID, "run batch does not have the key-value layout");
	/* one loop per array (the build aliases every store: no loads hoisted) */
	if (seq->nulls != NULL)
	{
		const uint8_t *nulls = seq->nulls;

		for (int64_t i = 0; i < b->nrows; i++)
			bad |= nulls[i];
	}
	if (kind->nulls != NULL)
	{
		const uint8_t *nulls = kind->nulls;

		for (int64_t i = 0; i < b->nrows; i++)
			bad |= nulls[i];
	}
	if (bad)
		return pm_fail(err, PM_ERR_CORRUPT, "null _SEQUENCE_NUMBER or _VALUE_KIND");
	kinds = PM_VEC_VALUES(kind, int8_t);
	{
		uint8_t		odd = 0;	/* -U (1) and -D (3): the retractions */

		for (int64_t i = 0; i < b->nrows; i++)
		{
			bad |= (uint8_t) kinds[i] > 3;
			odd |= (uint8_t) kinds[i];
		}
		r->all_add = (odd & 1) == 0;
	}
	if (bad)
		for (int64_t i = 0; i < b->nrows; i++)
			if ((uint8_t) kinds[i] > 3)
				return pm_fail(err, PM_ERR_CORRUPT, "invalid _VALUE_KIND %d", kinds[i]);

	if (m->keys != KEYS_GENERIC)
	{
		const pm_vector *k = &b->cols[0];
		bool		int_key = m->nkeys == 1 && is_int_key_type(k->type->id);

		if (int_key && k->nulls != NULL)
			for (int64_t i = 0; i < b->nrows && int_key; i++)
				int_key = k->nulls[i] == 0;
		m->keys = int_key ? KEYS_INT : KEYS_GENERIC;
	}

	r->keep = NULL;
	if (r->src.dv != NULL && b->nrows > 0)
	{
		if (r->keep_cap < b->nrows)
		{
			pm_free(m->env, r->keep_buf);
			r->keep_cap = 0;
			r->keep_buf = pm_alloc(m->env, (size_t) b->nrows);
			if (r->keep_buf == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
			r->keep_cap = b->nrows;
		}
		r->keep = r->keep_buf;
		pm_deletion_vector_apply(r->src.dv, b, r->keep);
	}
	return PM_OK;
}

/* First row of column v in [from, n) not below bound (v sorted ascending). */
static int64_t
lower_bound(const pm_vector *v, int64_t from, int64_t n, const pm_vector *bound)
{
	while (from < n)
	{
		int64_t		mid = from + (n - from) / 2;

		if (pm_key_compare_value(v, mid, bound, 0) < 0)
			from = mid + 1;
		else
			n = mid;
	}
	return from;
}

/*
 * A batch just loaded: its rows in the key range are [pos, end) (the
 * first key column is sorted, being the key's first column).
 */
static void
clip_batch(pm_merge_reader *m, run_state *r)
{
	const pm_vector *k = &r->batch->cols[0];

	r->end = r->batch->nrows;
	if (m->hi != NULL)
		r->end = lower_bound(k, 0, r->end, m->hi);
	if (m->lo != NULL && r->end > 0 && pm_key_compare_value(k, 0, m->lo, 0) < 0)
		r->pos = lower_bound(k, 0, r->end, m->lo);
}

/*
 * Move run r to its first live row at or after pos (skipping deleted
 * rows), loading batches; sets r->done at the end.
 */
static pm_code
run_settle(pm_merge_reader *m, run_state *r, pm_error *err)
{
	for (;;)
	{
		if (r->batch != NULL)
		{
			const uint8_t *keep = r->keep;

			while (r->pos < r->end && keep != NULL && !keep[r->pos])
				r->pos++;
			if (r->pos < r->end)
			{
				if (m->keys == KEYS_INT)
					r->key = pm_vector_int64_at(&r->batch->cols[0], r->pos);
				return PM_OK;
			}
			if (r->end < r->batch->nrows)
			{
				/* past the key range: the rest of the run is another range's */
				r->done = true;
				return PM_OK;
			}
		}
		/* the output may still point into this batch */
		if (r->batch != NULL && m->npending > 0)
			PM_TRY(flush_pending(m, err));
		PM_TRY(r->src.next(r->src.state, &r->batch, err));
		r->pos = 0;
		if (r->batch == NULL)
		{
			r->done = true;
			return PM_OK;
		}
		PM_TRY(load_batch(m, r, err));
		clip_batch(m, r);
	}
}

/* ---- output ---------------------------------------------------------------- */

static pm_code
start_output(pm_merge_reader *m, pm_error *err)
{
	int			ncols = m->noutput + (m->seq_type != NULL ? 2 : 0);

	pm_arena_reset(m->out_arena);
	memset(&m->out, 0, sizeof(m->out));
	m->nout = 0;
	m->npending = 0;
	m->out.ncols = ncols;
	if (ncols == 0)
		return PM_OK;
	m->out.cols = pm_arena_zalloc(m->out_arena, sizeof(pm_vector) * (size_t) ncols);
	m->builders = pm_arena_zalloc(m->out_arena, sizeof(pm_vector_builder) * (size_t) (m->noutput + 1));
	if (m->out.cols == NULL || m->builders == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	for (int j = 0; j < m->noutput; j++)
		if (!pm_vector_builder_init(&m->builders[j], &m->out.cols[j], m->output_types[j],
									m->batch_size, m->out_arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	/* _SEQUENCE_NUMBER and _VALUE_KIND of compaction output: written by index */
	if (m->seq_type != NULL &&
		(!pm_vector_init(&m->out.cols[m->noutput], m->seq_type, m->batch_size, false,
						 m->out_arena) ||
		 !pm_vector_init(&m->out.cols[m->noutput + 1], m->kind_type, m->batch_size, false,
						 m->out_arena)))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	return PM_OK;
}

static inline void
set_kv(pm_merge_reader *m, int64_t seq, int kind)
{
	if (m->seq_type != NULL)
	{
		PM_VEC_VALUES(&m->out.cols[m->noutput], int64_t)[m->nout] = seq;
		PM_VEC_VALUES(&m->out.cols[m->noutput + 1], int8_t)[m->nout] = (int8_t) kind;
	}
}

/* Output row `row` of run's current batch (its value columns). */
static inline void
emit_row(pm_merge_reader *m, int run, int64_t row, int64_t seq, int kind)
{
	set_kv(m, seq, kind);
	m->pending_run[m->npending] = run;
	m->pending_row[m->npending] = (int32_t) row;
	m->npending++;
	m->nout++;
}

/* (locals: the stores could alias m's fields, which would be reloaded per row) */
#define GATHER(ctype) \
	do { \
		ctype	   *dst = (ctype *) v->values + to; \
		for (int64_t i = 0; i < n; i++) \
			dst[i] = ((const ctype *) srcv[prun[i]])[prow[i]]; \
	} while (0)

/* Copy len > 0 bytes; short values without a call (loads within [s, s + len)). */
static inline void
copy_bytes(uint8_t *d, const uint8_t *s, int32_t len)
{
	if (len >= 16)
		memcpy(d, s, (size_t) len);
	else if (len >= 8)
	{
		uint64_t	a,
					b;

		memcpy(&a, s, 8);
		memcpy(&b, s + len - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + len - 8, &b, 8);
	}
	else if (len >= 4)
	{
		uint32_t	a,
					b;

		memcpy(&a, s, 4);
		memcpy(&b, s + len - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + len - 4, &b, 4);
	}
	else
	{
		d[0] = s[0];
		d[len / 2] = s[len / 2];
		d[len - 1] = s[len - 1];
	}
}

/* Copy the pending rows of input column c into builder bld. */
static pm_code
gather_column(pm_merge_reader *m, pm_vector_builder *bld, int c, pm_error *err)
{
	pm_vector  *v = bld->v;
	pm_type_id	id = v->type->id;
	int			size = pm_type_value_size(id);
	int64_t		n = m->npending,
				to = v->length;
	bool		nulls = false;
	bool		nanos = false;
	const int32_t *prun = m->pending_run;
	const int32_t *prow = m->pending_row;
	const pm_vector *const *src = m->src;
	const void *const *srcv = m->srcv;

	if (!pm_vector_builder_reserve(bld, n))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	for (int k = 0; k < m->nruns; k++)
	{
		const pm_batch *b = m->runs[k].batch;

		m->src[k] = b != NULL ? &b->cols[c] : NULL;
		m->srcv[k] = b != NULL ? b->cols[c].values : NULL;
		nulls |= b != NULL && b->cols[c].nulls != NULL;
		nanos |= b != NULL && b->cols[c].nanos != NULL;
	}
	if (size == 0 && !pm_type_is_varlen(id))
	{
		/* nested values: deep copies, value by value */
		for (int64_t i = 0; i < n; i++)
			if (!pm_vector_builder_append(bld, m->src[m->pending_run[i]], m->pending_row[i]))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
		return PM_OK;
	}
	if (nulls)
	{
		uint8_t    *dst = v->nulls + to;

		for (int64_t i = 0; i < n; i++)
		{
			const uint8_t *p = src[prun[i]]->nulls;

			dst[i] = p != NULL ? p[prow[i]] : 0;
		}
	}
	else
		memset(v->nulls + to, 0, (size_t) n);
	switch (size)
	{
		case 0:
			{
				int64_t		total = 0;
				int64_t		at;
				uint8_t    *data;
				int32_t    *offsets;

				for (int64_t i = 0; i < n; i++)
				{
					const int32_t *off = src[prun[i]]->offsets + prow[i];

					total += off[1] - off[0];
				}
				if (!pm_vector_reserve_data(v, &bld->data_capacity, total, bld->arena))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
				at = v->data_size;
				data = v->data;
				offsets = v->offsets + to + 1;
				for (int64_t i = 0; i < n; i++)
				{
					const pm_vector *sv = src[prun[i]];
					const int32_t *off = sv->offsets + prow[i];
					int32_t		len = off[1] - off[0];

					/* NULLs and empty values have no bytes (data may be NULL) */
					if (len > 0)
						copy_bytes(data + at, sv->data + off[0], len);
					at += len;
					offsets[i] = (int32_t) at;
				}
				v->data_size = at;
			}
			break;
		case 1:
			GATHER(uint8_t);
			break;
		case 2:
			GATHER(uint16_t);
			break;
		case 4:
			GATHER(uint32_t);
			break;
		case 8:
			GATHER(uint64_t);
			break;
		default:
			for (int64_t i = 0; i < n; i++)
				memcpy((uint8_t *) v->values + (to + i) * size,
					   (const uint8_t *) m->src[m->pending_run[i]]->values +
					   (int64_t) m->pending_row[i] * size, (size_t) size);
			break;
	}
	if (v->nanos != NULL)
		for (int64_t i = 0; i < n; i++)
		{
			const uint16_t *p = nanos ? m->src[m->pending_run[i]]->nanos : NULL;

			v->nanos[to + i] = p != NULL ? p[m->pending_row[i]] : 0;
		}
	v->length += n;
	return PM_OK;
}

/* Copy every pending row into the output builders. */
static pm_code
flush_pending(pm_merge_reader *m, pm_error *err)
{
	int			voff = m->nkeys + 2;

	for (int j = 0; j < m->noutput; j++)
		PM_TRY(gather_column(m, &m->builders[j], voff + j, err));
	m->npending = 0;
	return PM_OK;
}

/* Output a row the engine computed (cells). */
static pm_code
emit_cells(pm_merge_reader *m, const pm_merge_cell *cells, int64_t seq, int kind,
		   pm_error *err)
{
	if (m->npending > 0)
		PM_TRY(flush_pending(m, err));
	for (int j = 0; j < m->noutput; j++)
		if (!pm_vector_builder_append(&m->builders[j], cells[j].vec, cells[j].row))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	set_kv(m, seq, kind);
	m->nout++;
	return PM_OK;
}

/* ---- merging ---------------------------------------------------------------- */

/*
 * The top run's key is below every other run's (bound: the smallest other
 * run, -1 if none): output its rows while their keys stay below the bound
 * (keys with one record: retractions dropped), then re-place the run.
 */
static pm_code
take_stretch(pm_merge_reader *m, int top, int bound, pm_error *err)
{
	run_state  *r = &m->runs[top];
	const pm_batch *b = r->batch;
	const int8_t *kinds = PM_VEC_VALUES(&b->cols[m->nkeys + 1], int8_t);
	const int64_t *seqs = PM_VEC_VALUES(&b->cols[m->nkeys], int64_t);
	const uint8_t *keep = r->keep;
	int64_t		room = m->batch_size - m->nout;
	int64_t		end = r->end;
	int64_t		i = r->pos;

	/* the rows below the bound: [pos, end) */
	if (bound >= 0)
	{
		const run_state *rb = &m->runs[bound];

		if (m->keys == KEYS_INT)
		{
			const pm_vector *k = &b->cols[0];
			int64_t		limit = rb->key;
			int64_t		j = i + 1;

			if (k->type->id == PM_TYPE_BIGINT)
				while (j < end && PM_VEC_VALUES(k, int64_t)[j] < limit)
					j++;
			else if (pm_type_value_size(k->type->id) == 4)
				while (j < end && PM_VEC_VALUES(k, int32_t)[j] < limit)
					j++;
			else
				while (j < end && pm_vector_int64_at(k, j) < limit)
					j++;
			end = j;
		}
		else
		{
			int64_t		j = i + 1;

			while (j < end &&
				   pm_key_compare(b->cols, j, rb->batch->cols, rb->pos, m->nkeys) < 0)
				j++;
			end = j;
		}
	}
	for (; i < end && room > 0; i++)
	{
		if (keep != NULL && !keep[i])
			continue;
		/* full changelog: a lone record below the top level is new (+I) */
		if (m->full_changelog && r->src.level != m->full_max_level &&
			pm_rowkind_is_add(kinds[i]))
		{
			for (int j = 0; j < m->noutput; j++)
			{
				m->cl_cells[j].vec = &b->cols[m->nkeys + 2 + j];
				m->cl_cells[j].row = i;
			}
			PM_TRY(m->changelog_fn(m->changelog_ctx, NULL, m->cl_cells, kinds[i], seqs[i],
								   err));
		}
		if (pm_rowkind_is_add(kinds[i]) || m->keep_retracts)
		{
			emit_row(m, top, i, seqs[i], kinds[i]);
			room--;
		}
	}
	r->pos = i;
	PM_TRY(run_settle(m, r, err));
	if (r->done)
		heap_pop(m);
	else
		heap_sift_top(m);
	return PM_OK;
}

static void
record_of(pm_merge_reader *m, int run, pm_kv_record *rec)
{
	const run_state *r = &m->runs[run];
	const pm_batch *b = r->batch;

	rec->batch = b;
	rec->row = r->pos;
	rec->seq = PM_VEC_VALUES(&b->cols[m->nkeys], int64_t)[r->pos];
	rec->kind = PM_VEC_VALUES(&b->cols[m->nkeys + 1], int8_t)[r->pos];
	rec->level = r->src.level;
}

/*
 * A key's n records (merge order in m->recs) as a lookup compaction
 * merges them (see pm_merge_reader_set_lookup_fn); appends to the output.
 */
static pm_code
merge_looked_up(pm_merge_reader *m, int n, pm_error *err)
{
	bool		first_row = pm_merge_engine_get_kind(m->engine) == PM_MERGE_FIRST_ROW;
	bool		high = false;
	bool		level0 = false;
	bool		has_row;
	int			kind;
	const pm_merge_cell *cells;
	int			pick = -1;
	bool		found = false;
	pm_kv_record rec;

	for (int i = 0; i < n; i++)
	{
		high |= m->recs[i].level > 0;
		level0 |= m->recs[i].level == 0;
	}
	if (!high)
	{
		memset(&rec, 0, sizeof(rec));
		PM_TRY(m->lookup_fn(m->lookup_ctx, m->recs[0].batch, m->recs[0].row, &found, &rec, err));
		if (found && first_row)
			return PM_OK;		/* FirstRowMergeFunctionWrapper: already in the table */
		if (found)
		{
			/* KeyValueBuffer.insertInto: in sequence order */
			int			k = n++;

			m->recs[k] = rec;
			for (; k > 0 &&
				 pm_merge_engine_compare_records(m->engine, &m->recs[k - 1], &m->recs[k]) > 0; k--)
			{
				pm_kv_record t = m->recs[k];

				m->recs[k] = m->recs[k - 1];
				m->recs[k - 1] = t;
			}
		}
	}
	/* LookupMergeFunction: level-0 records and the one of the lowest level >= 1 */
	if (!first_row)
		for (int i = 0; i < n; i++)
			if (m->recs[i].level > 0 && (pick < 0 || m->recs[i].level < m->recs[pick].level))
				pick = i;
	pm_merge_engine_reset(m->engine);
	for (int i = 0; i < n; i++)
		if (first_row || m->recs[i].level <= 0 || i == pick)
			PM_TRY(pm_merge_engine_add(m->engine, &m->recs[i], err));
	PM_TRY(pm_merge_engine_result(m->engine, &has_row, &kind, &cells, err));
	/*
	 * LookupChangelogMergeFunctionWrapper.setChangelog when a level-0 record
	 * takes part (before: the high-level record picked or looked up);
	 * FirstRowMergeFunctionWrapper: a new key (no high-level record, none
	 * found) is its own changelog
	 */
	if (m->changelog_fn != NULL && has_row && level0 && !(first_row && high))
	{
		int64_t		seq = first_row ? m->recs[0].seq : m->recs[n - 1].seq;

		PM_TRY(m->changelog_fn(m->changelog_ctx, first_row || pick < 0 ? NULL : &m->recs[pick],
							   cells, kind, seq, err));
	}
	if (has_row && (pm_rowkind_is_add(kind) || m->keep_retracts))
	{
		int64_t		seq = first_row ? m->recs[0].seq : m->recs[n - 1].seq;

		PM_TRY(emit_cells(m, cells, seq, kind, err));
	}
	return PM_OK;
}

/* The values of a record as cells (full changelog). */
static const pm_merge_cell *
record_cells(pm_merge_reader *m, const pm_kv_record *r)
{
	for (int j = 0; j < m->noutput; j++)
	{
		m->cl_cells[j].vec = &r->batch->cols[m->nkeys + 2 + j];
		m->cl_cells[j].row = r->row;
	}
	return m->cl_cells;
}

/* Full changelog: the key's record of the top level, NULL if none. */
static const pm_kv_record *
full_top_record(const pm_merge_reader *m, int n)
{
	for (int i = 0; i < n; i++)
		if (m->recs[i].level == m->full_max_level)
			return &m->recs[i];
	return NULL;
}

/* Merge the key at the top of the heap (held by two runs or more; every key with a lookup hook). */
static pm_code
merge_group(pm_merge_reader *m, pm_error *err)
{
	int			n = 0;

	m->group[n++] = heap_pop(m);
	while (m->nheap > 0 && key_cmp(m, m->group[0], m->heap[0]) == 0)
		m->group[n++] = heap_pop(m);
	for (int i = 0; i < n; i++)
	{
		record_of(m, m->group[i], &m->recs[i]);
		/* insertion sort into merge order */
		for (int k = i; k > 0 &&
			 pm_merge_engine_compare_records(m->engine, &m->recs[k - 1], &m->recs[k]) > 0; k--)
		{
			pm_kv_record t = m->recs[k];

			m->recs[k] = m->recs[k - 1];
			m->recs[k - 1] = t;
		}
	}
	if (m->lookup_fn != NULL)
		PM_TRY(merge_looked_up(m, n, err));
	else if (n == 1)
	{
		/* FullChangelogMergeFunctionWrapper: a lone record below the top level is new */
		if (m->full_changelog && m->recs[0].level != m->full_max_level &&
			pm_rowkind_is_add(m->recs[0].kind))
			PM_TRY(m->changelog_fn(m->changelog_ctx, NULL, record_cells(m, &m->recs[0]),
								   m->recs[0].kind, m->recs[0].seq, err));
		if (pm_rowkind_is_add(m->recs[0].kind) || m->keep_retracts)
			emit_row(m, m->group[0], m->recs[0].row, m->recs[0].seq, m->recs[0].kind);
	}
	else
	{
		int			pick = -1;	/* lookup: the record of the lowest level >= 1 */

		/*
		 * The result's sequence number, as Java's merge functions set it:
		 * the first record's for first-row, the latest's otherwise.
		 */
		int64_t		seq = pm_merge_engine_get_kind(m->engine) == PM_MERGE_FIRST_ROW ?
			m->recs[0].seq : m->recs[n - 1].seq;

		if (m->lookup)
			for (int i = 0; i < n; i++)
				if (m->recs[i].level > 0 &&
					(pick < 0 || m->recs[i].level < m->recs[pick].level))
					pick = i;
		pm_merge_engine_reset(m->engine);
		for (int i = 0; i < n; i++)
			if (!m->lookup || m->recs[i].level <= 0 || i == pick)
				PM_TRY(pm_merge_engine_add(m->engine, &m->recs[i], err));
		if (m->picks_record)
		{
			const pm_kv_record *w = pm_merge_engine_picked(m->engine);

			if (w != NULL && m->full_changelog)
				PM_TRY(m->changelog_fn(m->changelog_ctx, full_top_record(m, n),
									   record_cells(m, w), w->kind, seq, err));
			if (w != NULL && (pm_rowkind_is_add(w->kind) || m->keep_retracts))
				for (int i = 0; i < n; i++)
					if (m->runs[m->group[i]].batch == w->batch)
					{
						emit_row(m, m->group[i], w->row, seq, w->kind);
						break;
					}
		}
		else
		{
			bool		has_row;
			int			kind;
			const pm_merge_cell *cells;

			PM_TRY(pm_merge_engine_result(m->engine, &has_row, &kind, &cells, err));
			if (has_row && m->full_changelog)
				PM_TRY(m->changelog_fn(m->changelog_ctx, full_top_record(m, n), cells, kind,
									   seq, err));
			if (has_row && (pm_rowkind_is_add(kind) || m->keep_retracts))
				PM_TRY(emit_cells(m, cells, seq, kind, err));
		}
	}
	/* now the records are in the output: advance their runs */
	for (int i = 0; i < n; i++)
	{
		run_state  *r = &m->runs[m->group[i]];

		r->pos++;
		PM_TRY(run_settle(m, r, err));
		if (!r->done)
			heap_push(m, m->group[i]);
	}
	return PM_OK;
}

/*
 * The window merge: one integer key, deduplicate without sequence.field,
 * no lookup. Every row of every run with a key up to the smallest last key
 * of the runs' current batches (the window) is loaded, so the window is
 * merged in one loop over the runs' key arrays, without the heap and
 * without loading batches: each step finds the smallest and second
 * smallest head key; below the second, the smallest's run gives a stretch
 * of keys with one record; at a tie, the key's records pick the last in
 * merge order (_SEQUENCE_NUMBER, then retract before add, then run index,
 * as merge_group sorts them: the record pm_merge_engine_picked gives).
 * Stops at the window's end or a full output batch; then the runs are
 * settled (batches replaced) and the heap rebuilt.
 */

/* Key i of a window run. */
static inline int64_t
win_key(const win_run *w, int64_t i)
{
	switch (w->kw)
	{
		case 8:
			return ((const int64_t *) w->keys)[i];
		case 4:
			return ((const int32_t *) w->keys)[i];
		case 2:
			return ((const int16_t *) w->keys)[i];
		default:
			return ((const int8_t *) w->keys)[i];
	}
}

/* Move w to its next live row at or after i in the window; false at its end. */
static inline bool
win_advance(win_run *w, int64_t i)
{
	if (w->keep != NULL)
		while (i < w->end && !w->keep[i])
			i++;
	w->pos = i;
	if (i >= w->end)
		return false;
	w->key = win_key(w, i);
	return true;
}

/* First row of [from, n) whose key is above lim. */
static int64_t
win_upper_bound(const win_run *w, int64_t from, int64_t n, int64_t lim)
{
	while (from < n)
	{
		int64_t		mid = from + (n - from) / 2;

		if (win_key(w, mid) <= lim)
			from = mid + 1;
		else
			n = mid;
	}
	return from;
}

/* First row of [i, n) whose key is not below lim (keys ascend). */
static inline int64_t
win_scan_below(const win_run *w, int64_t i, int64_t n, int64_t lim)
{
	switch (w->kw)
	{
		case 8:
			{
				const int64_t *k = w->keys;

				while (i < n && k[i] < lim)
					i++;
				return i;
			}
		case 4:
			{
				const int32_t *k = w->keys;

				while (i < n && k[i] < lim)
					i++;
				return i;
			}
		default:
			while (i < n && win_key(w, i) < lim)
				i++;
			return i;
	}
}

/* Output rows [i, j) of window run w, every one kept and an add (or retractions kept). */
static inline void
emit_rows(pm_merge_reader *m, const win_run *w, int64_t i, int64_t j)
{
	int32_t    *prun = m->pending_run + m->npending;
	int32_t    *prow = m->pending_row + m->npending;
	int			run = w->run;
	int64_t		n = j - i;

	for (int64_t k = 0; k < n; k++)
	{
		prun[k] = run;
		prow[k] = (int32_t) (i + k);
	}
	if (m->seq_type != NULL)
	{
		int64_t    *seq = PM_VEC_VALUES(&m->out.cols[m->noutput], int64_t) + m->nout;
		int8_t	   *kind = PM_VEC_VALUES(&m->out.cols[m->noutput + 1], int8_t) + m->nout;

		memcpy(seq, w->seqs + i, sizeof(int64_t) * (size_t) n);
		memcpy(kind, w->kinds + i, (size_t) n);
	}
	m->npending += (int) n;
	m->nout += (int) n;
}

/* Drop window run a (at its end), keeping run order. */
static inline void
win_drop(win_run *win, int *nact, int a)
{
	win[a].rs->pos = win[a].pos;
	memmove(&win[a], &win[a + 1], sizeof(win_run) * (size_t) (*nact - a - 1));
	(*nact)--;
}

static pm_code
merge_window(pm_merge_reader *m, pm_error *err)
{
	win_run    *win = m->win;
	int			nact = 0;
	int64_t		lim = INT64_MAX;
	int64_t		room = m->batch_size - m->nout;

	for (int i = 0; i < m->nruns; i++)
	{
		run_state  *r = &m->runs[i];
		const pm_batch *b = r->batch;
		win_run    *w = &win[nact];

		if (r->done)
			continue;
		w->run = i;
		w->rs = r;
		w->keys = b->cols[0].values;
		w->kw = pm_type_value_size(b->cols[0].type->id);
		w->seqs = PM_VEC_VALUES(&b->cols[m->nkeys], int64_t);
		w->kinds = PM_VEC_VALUES(&b->cols[m->nkeys + 1], int8_t);
		w->keep = r->keep;
		w->all_add = r->all_add;
		w->pos = r->pos;
		w->end = r->end;
		w->key = r->key;
		if (win_key(w, r->end - 1) < lim)
			lim = win_key(w, r->end - 1);
		nact++;
	}
	/* the runs with rows in the window (the one of the smallest last key has) */
	for (int a = 0, n = nact; a < n; a++)
	{
		win_run    *w = &win[a];

		w->end = win_upper_bound(w, w->pos, w->end, lim);
		if (a == 0)
			nact = 0;
		if (w->end > w->pos)
			win[nact++] = *w;
	}

	while (nact > 0 && room > 0)
	{
		int64_t		k1 = INT64_MAX,
					k2 = INT64_MAX;
		int			a1 = 0;

		for (int a = 0; a < nact; a++)
		{
			int64_t		k = win[a].key;

			if (k < k1)
			{
				k2 = k1;
				k1 = k;
				a1 = a;
			}
			else if (k < k2)
				k2 = k;
		}
		if (k1 < k2)
		{
			/* a stretch of keys with one record: the rows of win[a1] below k2 */
			win_run    *w = &win[a1];
			int64_t		i = w->pos;

			if (w->keep == NULL && (w->all_add || m->keep_retracts))
			{
				/* every row of the stretch is output: find its end, then copy */
				int64_t		n = w->end - i < room ? w->end : i + room;
				int64_t		j = win_scan_below(w, i + 1, n, k2);

				emit_rows(m, w, i, j);
				room -= j - i;
				i = j;
			}
			else
				do
				{
					if ((w->keep == NULL || w->keep[i]) &&
						(pm_rowkind_is_add(w->kinds[i]) || m->keep_retracts))
					{
						emit_row(m, w->run, i, w->seqs[i], w->kinds[i]);
						room--;
					}
					i++;
				} while (i < w->end && room > 0 && win_key(w, i) < k2);
			if (!win_advance(w, i))
				win_drop(win, &nact, a1);
		}
		else
		{
			/* the records of key k1 (two or more), in run order */
			int			pick = -1;
			int64_t		lseq = INT64_MIN,
						pseq = 0;
			int			padd = 0;

			for (int a = a1; a < nact; a++)
			{
				const win_run *w = &win[a];
				int64_t		s;
				int			add;

				if (w->key != k1)
					continue;
				s = w->seqs[w->pos];
				add = pm_rowkind_is_add(w->kinds[w->pos]);
				/* the result's sequence number: the last record's in merge order */
				if (s > lseq)
					lseq = s;
				/* the last in merge order: later runs win ties (a stable sort) */
				if ((add || !m->ignore_delete) &&
					(pick < 0 || s > pseq || (s == pseq && add >= padd)))
				{
					pick = a;
					pseq = s;
					padd = add;
				}
			}
			if (pick >= 0)
			{
				const win_run *w = &win[pick];
				int			kind = w->kinds[w->pos];

				if (pm_rowkind_is_add(kind) || m->keep_retracts)
				{
					emit_row(m, w->run, w->pos, lseq, kind);
					room--;
				}
			}
			/* advance the key's runs; drop those at their window's end */
			for (int a = nact - 1; a >= a1; a--)
				if (win[a].key == k1 && !win_advance(&win[a], win[a].pos + 1))
					win_drop(win, &nact, a);
		}
	}
	for (int a = 0; a < nact; a++)
		win[a].rs->pos = win[a].pos;

	/* settle every run of the window (new batches), rebuild the heap */
	m->nheap = 0;
	for (int i = 0; i < m->nruns; i++)
	{
		run_state  *r = &m->runs[i];

		if (r->done)
			continue;
		PM_TRY(run_settle(m, r, err));
		if (!r->done)
			heap_push(m, i);
	}
	return PM_OK;
}

/*
 * Can the top run's whole current batch be the output as it is? Every row
 * a key with one record (below the bound's head), kept by the DV, an add;
 * value columns of the output types; plain read (no KV output, no lookup).
 */
static bool
can_pass_through(const pm_merge_reader *m, int top, int bound)
{
	const run_state *r = &m->runs[top];
	const pm_batch *b = r->batch;
	const int8_t *kinds;
	uint8_t		retract = 0;

	if (m->seq_type != NULL || m->lookup_fn != NULL || m->full_changelog || m->nout > 0 ||
		m->npending > 0 ||
		r->pos != 0 || r->end != b->nrows || b->nrows == 0 || b->nrows > INT32_MAX)
		return false;
	if (r->keep != NULL && memchr(r->keep, 0, (size_t) b->nrows) != NULL)
		return false;
	for (int j = 0; j < m->noutput; j++)
	{
		const pm_type *t = b->cols[m->nkeys + 2 + j].type;
		pm_type_id	id = m->output_types[j]->id;

		if (t->id != id || (pm_type_value_size(id) == 0 && !pm_type_is_varlen(id)))
			return false;
	}
	if (bound >= 0)
	{
		const run_state *rb = &m->runs[bound];

		if (m->keys == KEYS_INT ?
			pm_vector_int64_at(&b->cols[0], b->nrows - 1) >= rb->key :
			pm_key_compare(b->cols, b->nrows - 1, rb->batch->cols, rb->pos, m->nkeys) >= 0)
			return false;
	}
	kinds = PM_VEC_VALUES(&b->cols[m->nkeys + 1], int8_t);
	for (int64_t i = 0; i < b->nrows; i++)
		retract |= !pm_rowkind_is_add(kinds[i]);
	return !retract;
}

/* ---- API -------------------------------------------------------------------- */

pm_code
pm_merge_reader_open(const pm_env *env, pm_merge_engine *engine, int nkeys,
					 const pm_type *const *output_types, int noutput,
					 const pm_run_source *runs, int nruns, int batch_size,
					 pm_merge_reader **out, pm_error *err)
{
	pm_merge_reader *m;
	size_t		nr = (size_t) (nruns > 0 ? nruns : 1);
	int			bs = batch_size > 0 ? batch_size : DEFAULT_BATCH_SIZE;

	*out = NULL;
	m = pm_alloc(env, sizeof(*m));
	if (m != NULL)
	{
		memset(m, 0, sizeof(*m));
		m->env = env;
		m->runs = pm_alloc(env, sizeof(run_state) * nr);
		if (m->runs != NULL)
			memset(m->runs, 0, sizeof(run_state) * nr);
		m->heap = pm_alloc(env, sizeof(int) * nr);
		m->group = pm_alloc(env, sizeof(int) * nr);
		m->recs = pm_alloc(env, sizeof(pm_kv_record) * (nr + 1));
		m->pending_run = pm_alloc(env, sizeof(int32_t) * (size_t) bs);
		m->pending_row = pm_alloc(env, sizeof(int32_t) * (size_t) bs);
		m->src = pm_alloc(env, sizeof(pm_vector *) * nr);
		m->srcv = pm_alloc(env, sizeof(void *) * nr);
		m->win = pm_alloc(env, sizeof(win_run) * nr);
		m->out_arena = pm_arena_create(env);
	}
	if (m == NULL || m->runs == NULL || m->heap == NULL || m->group == NULL ||
		m->recs == NULL || m->pending_run == NULL || m->pending_row == NULL ||
		m->src == NULL || m->out_arena == NULL || m->win == NULL ||
		m->srcv == NULL)
	{
		/* the runs were not taken over: close them as promised */
		for (int i = 0; i < nruns; i++)
			if (runs[i].close)
				runs[i].close(runs[i].state);
		pm_merge_reader_close(m);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
	}
	m->engine = engine;
	m->picks_record = pm_merge_engine_get_kind(engine) == PM_MERGE_DEDUPLICATE ||
		pm_merge_engine_get_kind(engine) == PM_MERGE_FIRST_ROW;
	m->nkeys = nkeys;
	m->noutput = noutput;
	m->output_types = output_types;
	m->batch_size = bs;
	m->nruns = nruns;
	m->unsettled = -1;
	for (int i = 0; i < nruns; i++)
		m->runs[i].src = runs[i];
	*out = m;
	return PM_OK;
}

void
pm_merge_reader_set_key_range(pm_merge_reader *m, const pm_vector *lo, const pm_vector *hi)
{
	m->lo = lo;
	m->hi = hi;
}

void
pm_merge_reader_set_lookup(pm_merge_reader *m, bool lookup)
{
	m->lookup = lookup;
}

void
pm_merge_reader_set_lookup_fn(pm_merge_reader *m, pm_merge_lookup_fn fn, void *ctx)
{
	m->lookup_fn = fn;
	m->lookup_ctx = ctx;
}

void
pm_merge_reader_set_changelog_fn(pm_merge_reader *m, pm_merge_changelog_fn fn, void *ctx)
{
	m->changelog_fn = fn;
	m->changelog_ctx = ctx;
}

pm_code
pm_merge_reader_set_full_changelog(pm_merge_reader *m, pm_merge_changelog_fn fn, void *ctx,
								   int32_t max_level, pm_error *err)
{
	if (m->cl_cells == NULL)
	{
		m->cl_cells = pm_alloc(m->env, sizeof(pm_merge_cell) * (size_t) (m->noutput + 1));
		if (m->cl_cells == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	m->changelog_fn = fn;
	m->changelog_ctx = ctx;
	m->full_changelog = true;
	m->full_max_level = max_level;
	return PM_OK;
}

void
pm_merge_reader_set_keep_retracts(pm_merge_reader *m, bool keep)
{
	m->keep_retracts = keep;
}

void
pm_merge_reader_set_kv_output(pm_merge_reader *m, const pm_type *seq_type,
							  const pm_type *kind_type)
{
	m->seq_type = seq_type;
	m->kind_type = kind_type;
}

pm_code
pm_merge_reader_next(pm_merge_reader *m, pm_batch **batch, pm_error *err)
{
	*batch = NULL;
	PM_TRY(start_output(m, err));
	if (!m->started)
	{
		const int  *seq_cols;
		int			nseq;
		bool		desc;

		m->started = true;
		pm_merge_engine_sequence_fields(m->engine, &seq_cols, &nseq, &desc);
		m->window = pm_merge_engine_get_kind(m->engine) == PM_MERGE_DEDUPLICATE && nseq == 0 &&
			!m->lookup && m->lookup_fn == NULL && !m->full_changelog;
		m->ignore_delete = pm_merge_engine_ignores_delete(m->engine);
		for (int i = 0; i < m->nruns; i++)
		{
			PM_TRY(run_settle(m, &m->runs[i], err));
			if (!m->runs[i].done)
				heap_push(m, i);
		}
	}
	if (m->unsettled >= 0)
	{
		/* the run whose batch was the last output: on to its next batch */
		run_state  *r = &m->runs[m->unsettled];

		m->unsettled = -1;
		PM_TRY(run_settle(m, r, err));
		if (r->done)
			heap_pop(m);
		else
			heap_sift_top(m);
	}
	while (m->nheap > 0 && m->nout < m->batch_size)
	{
		int			top = m->heap[0];
		int			bound = -1;

		if (m->nheap > 1)
		{
			bound = m->heap[1];
			if (m->nheap > 2 && run_less(m, m->heap[2], bound))
				bound = m->heap[2];
		}
		if (can_pass_through(m, top, bound))
		{
			run_state  *r = &m->runs[top];

			for (int j = 0; j < m->noutput; j++)
				m->out.cols[j] = r->batch->cols[m->nkeys + 2 + j];
			m->out.nrows = r->batch->nrows;
			r->pos = r->end;
			m->unsettled = top;	/* still the heap's top */
			*batch = &m->out;
			return PM_OK;
		}
		if (m->window && m->keys == KEYS_INT)
		{
			PM_TRY(merge_window(m, err));
			continue;
		}
		if ((bound >= 0 && key_cmp(m, top, bound) == 0) || m->lookup_fn != NULL)
			PM_TRY(merge_group(m, err));
		else
			PM_TRY(take_stretch(m, top, bound, err));
	}
	if (m->npending > 0)
		PM_TRY(flush_pending(m, err));
	if (m->nout == 0)
		return PM_OK;
	m->out.nrows = m->nout;
	if (m->seq_type != NULL)
	{
		m->out.cols[m->noutput].length = m->nout;
		m->out.cols[m->noutput + 1].length = m->nout;
	}
	*batch = &m->out;
	return PM_OK;
}

void
pm_merge_reader_close(pm_merge_reader *m)
{
	if (m == NULL)
		return;
	if (m->runs != NULL)
		for (int i = 0; i < m->nruns; i++)
		{
			if (m->runs[i].src.close)
				m->runs[i].src.close(m->runs[i].src.state);
			pm_free(m->env, m->runs[i].keep_buf);
		}
	pm_arena_destroy(m->out_arena);
	pm_free(m->env, m->runs);
	pm_free(m->env, m->heap);
	pm_free(m->env, m->group);
	pm_free(m->env, m->recs);
	pm_free(m->env, m->pending_run);
	pm_free(m->env, m->pending_row);
	pm_free(m->env, m->src);
	pm_free(m->env, m->win);
	pm_free(m->env, m->srcv);
	pm_free(m->env, m->cl_cells);
	pm_free(m->env, m);
}
