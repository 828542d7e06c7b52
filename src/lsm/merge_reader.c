/*-------------------------------------------------------------------------
 * merge_reader.c
 *	  K-way merge of sorted runs through a merge engine (see merge_reader.h).
 *
 * State machine of one _next call:
 *	 1. the min-heap holds every run that still has a current row, ordered
 *		by that row's key (run index breaks ties, for determinism);
 *	 2. pop every run whose current key equals the smallest: these are the
 *		key's records (each run holds a key at most once: Paimon's writer
 *		merges per key before writing a file);
 *	 3. sort them (engine order), merge, append the result to the output
 *		builders unless it is a retraction;
 *	 4. only then advance those runs (advancing may replace a run's batch,
 *		which would invalidate the records) and push them back.
 * Repeat until the output batch is full or the heap is empty.
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
	bool		done;
	bool		opened;
} run_state;

struct pm_merge_reader
{
	const pm_env *env;
	pm_merge_engine *engine;
	int			nkeys;
	int			noutput;
	const pm_type *const *output_types;
	int			batch_size;
	int			nruns;
	run_state  *runs;
	int		   *heap;			/* run indexes */
	int			nheap;
	bool		started;
	bool		lookup;			/* see pm_merge_reader_set_lookup */
	pm_merge_lookup_fn lookup_fn;	/* see pm_merge_reader_set_lookup_fn */
	void	   *lookup_ctx;
	const pm_type *seq_type;	/* see pm_merge_reader_set_kv_output */
	bool		keep_retracts;	/* see pm_merge_reader_set_keep_retracts */
	const pm_type *kind_type;
	int		   *group;			/* runs of the current key */
	pm_kv_record *recs;
	pm_arena   *out_arena;
	pm_batch	out;
	pm_vector_builder *builders;
};

/* Move run r to its next live row (skipping DV-deleted rows), loading batches. */
static pm_code
run_advance(run_state *r, bool first, pm_error *err)
{
	if (!first)
		r->pos++;
	for (;;)
	{
		while (r->batch != NULL && r->pos < r->batch->nrows)
		{
			if (r->src.dv == NULL ||
				!pm_deletion_vector_contains(r->src.dv, r->batch->first_row + r->pos))
				return PM_OK;
			r->pos++;
		}
		PM_TRY(r->src.next(r->src.state, &r->batch, err));
		r->pos = 0;
		if (r->batch == NULL)
		{
			r->done = true;
			return PM_OK;
		}
	}
}

static int
run_compare(const pm_merge_reader *m, int a, int b)
{
	const run_state *ra = &m->runs[a],
			   *rb = &m->runs[b];
	int			c = pm_key_compare(ra->batch->cols, ra->pos, rb->batch->cols, rb->pos, m->nkeys);

	return c != 0 ? c : (a < b ? -1 : (a > b ? 1 : 0));
}

static void
heap_push(pm_merge_reader *m, int run)
{
	int			i = m->nheap++;

	m->heap[i] = run;
	while (i > 0)
	{
		int			p = (i - 1) / 2;
		int			t;

		if (run_compare(m, m->heap[p], m->heap[i]) <= 0)
			break;
		t = m->heap[p];
		m->heap[p] = m->heap[i];
		m->heap[i] = t;
		i = p;
	}
}

static int
heap_pop(pm_merge_reader *m)
{
	int			top = m->heap[0];
	int			i = 0;

	m->heap[0] = m->heap[--m->nheap];
	for (;;)
	{
		int			l = 2 * i + 1,
					r = l + 1,
					s = i,
					t;

		if (l < m->nheap && run_compare(m, m->heap[l], m->heap[s]) < 0)
			s = l;
		if (r < m->nheap && run_compare(m, m->heap[r], m->heap[s]) < 0)
			s = r;
		if (s == i)
			break;
		t = m->heap[s];
		m->heap[s] = m->heap[i];
		m->heap[i] = t;
		i = s;
	}
	return top;
}

pm_code
pm_merge_reader_open(const pm_env *env, pm_merge_engine *engine, int nkeys,
					 const pm_type *const *output_types, int noutput,
					 const pm_run_source *runs, int nruns, int batch_size,
					 pm_merge_reader **out, pm_error *err)
{
	pm_merge_reader *m;
	size_t		nr = (size_t) (nruns > 0 ? nruns : 1);

	*out = NULL;
	m = pm_alloc(env, sizeof(*m));
	if (m != NULL)
	{
		memset(m, 0, sizeof(*m));
		m->env = env;
		m->runs = pm_alloc(env, sizeof(run_state) * nr);
		m->heap = pm_alloc(env, sizeof(int) * nr);
		m->group = pm_alloc(env, sizeof(int) * nr);
		m->recs = pm_alloc(env, sizeof(pm_kv_record) * (nr + 1));
		m->out_arena = pm_arena_create(env);
	}
	if (m == NULL || m->runs == NULL || m->heap == NULL || m->group == NULL ||
		m->recs == NULL || m->out_arena == NULL)
	{
		/* the runs were not taken over: close them as promised */
		for (int i = 0; i < nruns; i++)
			if (runs[i].close)
				runs[i].close(runs[i].state);
		pm_merge_reader_close(m);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
	}
	m->engine = engine;
	m->nkeys = nkeys;
	m->noutput = noutput;
	m->output_types = output_types;
	m->batch_size = batch_size > 0 ? batch_size : DEFAULT_BATCH_SIZE;
	memset(m->runs, 0, sizeof(run_state) * nr);
	m->nruns = nruns;
	for (int i = 0; i < nruns; i++)
		m->runs[i].src = runs[i];
	*out = m;
	return PM_OK;
}

static pm_code
start_output(pm_merge_reader *m, pm_error *err)
{
	int			ncols = m->noutput + (m->seq_type != NULL ? 2 : 0);

	pm_arena_reset(m->out_arena);
	memset(&m->out, 0, sizeof(m->out));
	m->out.ncols = ncols;
	if (ncols == 0)
		return PM_OK;
	m->out.cols = pm_arena_zalloc(m->out_arena, sizeof(pm_vector) * (size_t) ncols);
	m->builders = pm_arena_zalloc(m->out_arena, sizeof(pm_vector_builder) * (size_t) ncols);
	if (m->out.cols == NULL || m->builders == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	for (int j = 0; j < ncols; j++)
	{
		const pm_type *t = j < m->noutput ? m->output_types[j] :
			(j == m->noutput ? m->seq_type : m->kind_type);

		if (!pm_vector_builder_init(&m->builders[j], &m->out.cols[j], t,
									m->batch_size, m->out_arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	}
	return PM_OK;
}

static pm_code
emit(pm_merge_reader *m, const pm_merge_cell *cells, const pm_kv_record *single,
	 int64_t seq, int kind, pm_error *err)
{
	int			voff = m->nkeys + 2;

	for (int j = 0; j < m->noutput; j++)
	{
		bool		ok;

		if (single != NULL)
			ok = pm_vector_builder_append(&m->builders[j], &single->batch->cols[voff + j],
										  single->row);
		else
			ok = pm_vector_builder_append(&m->builders[j], cells[j].vec, cells[j].row);
		if (!ok)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	}
	if (m->seq_type != NULL)
	{
		int8_t		k = (int8_t) kind;
		pm_vector	sv = {.type = m->seq_type, .length = 1, .values = &seq};
		pm_vector	kv = {.type = m->kind_type, .length = 1, .values = &k};

		if (!pm_vector_builder_append(&m->builders[m->noutput], &sv, 0) ||
			!pm_vector_builder_append(&m->builders[m->noutput + 1], &kv, 0))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory merging");
	}
	m->out.nrows++;
	return PM_OK;
}

static pm_code
record_of(pm_merge_reader *m, int run, pm_kv_record *rec, pm_error *err)
{
	const run_state *r = &m->runs[run];
	const pm_batch *b = r->batch;
	const pm_vector *seq = &b->cols[m->nkeys];
	const pm_vector *kind = &b->cols[m->nkeys + 1];

	if (b->ncols < m->nkeys + 2 + m->noutput || seq->type->id != PM_TYPE_BIGINT ||
		kind->type->id != PM_TYPE_TINYINT)
		return pm_fail(err, PM_ERR_INVALID, "run batch does not have the key-value layout");
	if (pm_vector_is_null(seq, r->pos) || pm_vector_is_null(kind, r->pos))
		return pm_fail(err, PM_ERR_CORRUPT, "null _SEQUENCE_NUMBER or _VALUE_KIND");
	rec->batch = b;
	rec->row = r->pos;
	rec->seq = PM_VEC_VALUES(seq, int64_t)[r->pos];
	rec->kind = PM_VEC_VALUES(kind, int8_t)[r->pos];
	rec->level = r->src.level;
	if (rec->kind < 0 || rec->kind > 3)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid _VALUE_KIND %d", rec->kind);
	return PM_OK;
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
	bool		has_row;
	int			kind;
	const pm_merge_cell *cells;
	int			pick = -1;

	for (int i = 0; i < n; i++)
		high |= m->recs[i].level > 0;
	if (!high)
	{
		bool		found = false;
		pm_kv_record rec;

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
	if (has_row && pm_rowkind_is_add(kind))
	{
		int64_t		seq = first_row ? m->recs[0].seq : m->recs[n - 1].seq;

		PM_TRY(emit(m, cells, NULL, seq, kind, err));
	}
	return PM_OK;
}

/* Merge the key at the top of the heap; appends to the output. */
static pm_code
merge_one_key(pm_merge_reader *m, pm_error *err)
{
	int			n = 0;

	m->group[n++] = heap_pop(m);
	while (m->nheap > 0)
	{
		const run_state *a = &m->runs[m->group[0]];
		const run_state *b = &m->runs[m->heap[0]];

		if (pm_key_compare(a->batch->cols, a->pos, b->batch->cols, b->pos, m->nkeys) != 0)
			break;
		m->group[n++] = heap_pop(m);
	}
	for (int i = 0; i < n; i++)
	{
		PM_TRY(record_of(m, m->group[i], &m->recs[i], err));
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
		if (pm_rowkind_is_add(m->recs[0].kind) || m->keep_retracts)
			PM_TRY(emit(m, NULL, &m->recs[0], m->recs[0].seq, m->recs[0].kind, err));
	}
	else
	{
		bool		has_row;
		int			kind;
		const pm_merge_cell *cells;

		int			pick = -1;	/* lookup: the record of the lowest level >= 1 */

		if (m->lookup)
			for (int i = 0; i < n; i++)
				if (m->recs[i].level > 0 &&
					(pick < 0 || m->recs[i].level < m->recs[pick].level))
					pick = i;
		pm_merge_engine_reset(m->engine);
		for (int i = 0; i < n; i++)
			if (!m->lookup || m->recs[i].level <= 0 || i == pick)
				PM_TRY(pm_merge_engine_add(m->engine, &m->recs[i], err));
		PM_TRY(pm_merge_engine_result(m->engine, &has_row, &kind, &cells, err));
		if (has_row && (pm_rowkind_is_add(kind) || m->keep_retracts))
		{
			/*
			 * The result's sequence number, as Java's merge functions set
			 * it: the first record's for first-row, the latest's otherwise.
			 */
			int64_t		seq = pm_merge_engine_get_kind(m->engine) == PM_MERGE_FIRST_ROW ?
				m->recs[0].seq : m->recs[n - 1].seq;

			PM_TRY(emit(m, cells, NULL, seq, kind, err));
		}
	}
	/* now the records are copied: advance their runs */
	for (int i = 0; i < n; i++)
	{
		run_state  *r = &m->runs[m->group[i]];

		PM_TRY(run_advance(r, false, err));
		if (!r->done)
			heap_push(m, m->group[i]);
	}
	return PM_OK;
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
	if (!m->started)
	{
		m->started = true;
		for (int i = 0; i < m->nruns; i++)
		{
			m->runs[i].opened = true;
			PM_TRY(run_advance(&m->runs[i], true, err));
			if (!m->runs[i].done)
				heap_push(m, i);
		}
	}
	if (m->nheap == 0)
		return PM_OK;
	PM_TRY(start_output(m, err));
	while (m->nheap > 0 && m->out.nrows < m->batch_size)
		PM_TRY(merge_one_key(m, err));
	if (m->out.nrows == 0)
		return PM_OK;
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
			if (m->runs[i].src.close)
				m->runs[i].src.close(m->runs[i].src.state);
	pm_arena_destroy(m->out_arena);
	pm_free(m->env, m->runs);
	pm_free(m->env, m->heap);
	pm_free(m->env, m->group);
	pm_free(m->env, m->recs);
	pm_free(m->env, m);
}
