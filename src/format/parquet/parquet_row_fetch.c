/*-------------------------------------------------------------------------
 * parquet_row_fetch.c
 *	  A few rows of a Parquet file from the caches alone (see the header).
 *
 * For each row group holding selected rows and each requested column: the
 * chunk's page indexes (metadata cache), the pages holding the rows and
 * the dictionary head before the first data page (page cache), laid out
 * as the pieces of a chunk the way the Parquet reader lays out the pages
 * it selects (parquet_reader.c load_row_group). Everything is pinned
 * first, without counting; only then is anything decoded (each selected
 * row's page up to the last selected row it holds, the row's entry written
 * to its batch) and the hits counted, so a fetch that finds something
 * missing leaves the caches as if it had not run (the dictionaries it would
 * have converted and cached included).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_row_fetch.h"

#include <string.h>

#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "format/parquet/column_reader.h"
#include "format/parquet/column_values.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/parquet_page_index.h"

/* One selected row: its file position and where its values go. */
typedef struct fetch_row
{
	int64_t		pos;
	int			batch;
	int64_t		slot;
} fetch_row;

/* A page of a chunk as the page cache holds it, pinned. */
typedef struct fetch_piece
{
	int64_t		off;
	size_t		len;
	pm_page_entry *hit;			/* NULL once the column reader took it over */
} fetch_piece;

/* One column of one row group holding selected rows: what it reads. */
typedef struct fetch_chunk
{
	int			g;
	int			c;				/* requested column */
	int64_t		first;			/* file row of the row group's first row */
	int			r0;				/* its rows: rows[r0 .. r0 + n) */
	int			n;
	const pm_pq_offset_index *oi;
	int		   *page_of;		/* per row: its page */
	fetch_piece *pieces;		/* the dictionary head, then each page with a row */
	int			npieces;
	int64_t		nvalues;		/* entries of those pages */
} fetch_chunk;

typedef struct fetch
{
	const pm_env *env;
	const char *path;
	size_t		path_len;
	int64_t		file_size;
	pm_page_file pf;
	const pm_pq_metadata *md;
	pm_arena   *arena;
	const pm_type *request;
	int			ncols;
	const pm_pq_node **leaves;	/* per requested column */
	pm_pq_column *cols;			/* per requested column, set up on first use */
	bool	   *col_ready;
	pm_batch   *batches;
	int64_t    *data_cap;		/* per batch and column */
	fetch_row  *rows;
	int			nrows;
	fetch_chunk *chunks;
	int			nchunks;
	pm_meta_pin **pins;			/* page indexes held */
	int			npins;
	int64_t		page_hits;		/* pins of the page cache, as the reader counts them */
	int64_t		pages_total;
	int64_t		pages_skipped;
} fetch;

/* The top-level flat leaf named name of the file md describes, or NULL. */
static const pm_pq_node *
flat_leaf(const pm_pq_metadata *md, const char *name)
{
	const pm_pq_node *root = md->root;

	for (int i = 0; i < root->nchildren; i++)
	{
		const pm_pq_node *n = root->children[i];

		if (strcmp(n->name, name) == 0)
			return n->leaf_index >= 0 && n->repetition != PM_PQ_REPEATED && n->max_rep == 0 &&
				n->leaf_index < md->nleaves ? n : NULL;
	}
	return NULL;
}

/* Page of offset index oi holding row group row `row` (first_row ascending). */
static int
page_of_row(const pm_pq_offset_index *oi, int64_t row)
{
	int			lo = 0;
	int			hi = oi->npages - 1;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo + 1) / 2;

		if (oi->first_row[mid] <= row)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* The cached page of fx's file at off, of span len, pinned; NULL if not held. */
static pm_page_entry *
held_page(fetch *fx, int64_t off, size_t len)
{
	pm_page_entry *hit = pm_page_lru_pin_held(&fx->pf, off, 0);

	if (hit != NULL && pm_page_entry_span(hit) != len)
	{
		pm_page_lru_unpin(hit);
		hit = NULL;
	}
	return hit;
}

/*
 * The chunk of column c in row group g for rows[r0 .. r0 + n) (first: the
 * row group's first file row): its page index and pages pinned, counted
 * into fx->pages_*. *missing when one is not cached.
 */
static pm_code
gather_chunk(fetch *fx, int g, int c, int64_t first, int r0, int n, bool *missing,
			 pm_error *err)
{
	const pm_pq_row_group *rg = &fx->md->row_groups[g];
	const pm_pq_chunk *ch = &rg->columns[fx->leaves[c]->leaf_index];
	fetch_chunk *k = &fx->chunks[fx->nchunks];
	const pm_pq_chunk_index *ix;
	char	   *name;
	int64_t		head;
	int			distinct = 0;

	*missing = true;
	if (ch->offset_index_length <= 0)
		return PM_OK;			/* the reader would read the whole chunk */
	name = pm_pq_chunk_index_name(fx->arena, fx->path, fx->path_len, g,
								  fx->leaves[c]->leaf_index);
	if (name == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	ix = pm_meta_cache_pin(PM_META_PARQUET_PAGE_INDEX, name, fx->file_size, 0,
						   &fx->pins[fx->npins]);
	if (ix == NULL)
		return PM_OK;
	fx->npins++;
	if (ix->oi.npages <= 0)
		return PM_OK;
	memset(k, 0, sizeof(*k));
	k->g = g;
	k->c = c;
	k->first = first;
	k->r0 = r0;
	k->n = n;
	k->oi = &ix->oi;
	k->page_of = pm_arena_alloc(fx->arena, sizeof(int) * (size_t) n);
	k->pieces = pm_arena_alloc(fx->arena, sizeof(fetch_piece) * (size_t) (n + 1));
	if (k->page_of == NULL || k->pieces == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	fx->nchunks++;				/* its pins are released with fx's */

	/* the dictionary head, then each page holding a row, once */
	head = k->oi->offset[0] - pm_pq_chunk_start(ch);
	if (head > 0)
	{
		fetch_piece *pc = &k->pieces[k->npieces];

		pc->off = pm_pq_chunk_start(ch);
		pc->len = (size_t) head;
		if ((pc->hit = held_page(fx, pc->off, pc->len)) == NULL)
			return PM_OK;
		k->npieces++;
	}
	for (int i = 0; i < n; i++)
	{
		int			p = page_of_row(k->oi, fx->rows[r0 + i].pos - first);
		fetch_piece *pc = &k->pieces[k->npieces];

		k->page_of[i] = p;
		if (i > 0 && k->page_of[i - 1] == p)
			continue;
		distinct++;
		pc->off = k->oi->offset[p];
		pc->len = (size_t) k->oi->size[p];
		if ((pc->hit = held_page(fx, pc->off, pc->len)) == NULL)
			return PM_OK;
		k->npieces++;
		k->nvalues += pm_pq_page_rows(k->oi, p, rg->num_rows);
	}
	fx->page_hits += k->npieces;
	fx->pages_total += k->oi->npages;
	fx->pages_skipped += k->oi->npages - distinct;
	*missing = false;
	return PM_OK;
}

/*
 * The values of chunk k's rows into their batches: its pinned pages laid
 * out as the pieces of the column's chunk, each decoded up to its last
 * selected row.
 */
static pm_code
decode_chunk(fetch *fx, fetch_chunk *k, pm_error *err)
{
	const pm_pq_row_group *rg = &fx->md->row_groups[k->g];
	const pm_pq_chunk *ch = &rg->columns[fx->leaves[k->c]->leaf_index];
	pm_pq_column *col = &fx->cols[k->c];
	const fetch_row *rows = fx->rows + k->r0;
	size_t		pos = 0;
	int			loaded = -1;	/* the page decoded, -1 none */
	int64_t		page_first = 0;

	if (!fx->col_ready[k->c])
	{
		PM_TRY(pm_pq_column_init(col, fx->env, fx->leaves[k->c], fx->request->fields[k->c].type,
								 fx->request->fields[k->c].name, err));
		fx->col_ready[k->c] = true;
	}
	pm_pq_column_clear_pieces(col);
	col->page_file = &fx->pf;
	for (int i = 0; i < k->npieces; i++)
	{
		fetch_piece *pc = &k->pieces[i];
		pm_page_entry *hit = pc->hit;

		pc->hit = NULL;			/* the column's from here, unpinned if this fails */
		if (!pm_pq_column_add_piece(col, pos, pc->off, pc->len, hit))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		pos += pc->len;
	}
	PM_TRY(pm_pq_column_start_chunk(col, NULL, pos, ch->codec, k->nvalues, fx->arena, err));

	for (int i = 0; i < k->n; i++)
	{
		int			p = k->page_of[i];
		int64_t		r;

		if (p != loaded)
		{
			bool		have;
			int			last = i;
			pm_code		rc;

			while (last + 1 < k->n && k->page_of[last + 1] == p)
				last++;
			page_first = k->oi->first_row[p];
			/* decode only up to the page's last selected row, from its first */
			col->decode_limit = rows[last].pos - k->first - page_first + 1;
			col->decode_start = rows[i].pos - k->first - page_first;
			rc = pm_pq_column_next_page(col, &have, err);
			col->decode_limit = 0;
			col->decode_start = 0;
			PM_TRY(rc);
			if (!have || col->page_total != pm_pq_page_rows(k->oi, p, rg->num_rows))
				return pm_fail(err, PM_ERR_CORRUPT,
							   "page of parquet column \"%s\" disagrees with its offset index",
							   col->name);
			loaded = p;
		}
		r = rows[i].pos - k->first - page_first;
		if (r < col->page_pos || r >= col->page_n)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "parquet column \"%s\": offset index out of step with its pages",
						   col->name);
		/* pass the entries before the row (their values too) */
		pm_pq_column_skip_entries(col, r - col->page_pos);
		{
			pm_vector  *v = &fx->batches[rows[i].batch].cols[k->c];
			int64_t		s = rows[i].slot;
			bool		isnull = col->def != NULL && col->def[r] < (uint8_t) col->max_def;

			v->nulls[s] = isnull;
			PM_TRY(pm_pq_column_write_values(col, isnull ? 0 : 1, v, s, 1,
											 &fx->data_cap[(int64_t) rows[i].batch * fx->ncols + k->c],
											 fx->arena, err));
			col->page_pos++;
		}
	}
	return PM_OK;
}

/*
 * Whether the reader would set up every requested column (a conversion it
 * refuses is its to report).
 */
static bool
columns_readable(fetch *fx)
{
	for (int c = 0; c < fx->ncols; c++)
	{
		int64_t		div = 1;

		if (pm_pq_column_choose_conv(fx->leaves[c], fx->request->fields[c].type, &div) ==
			PM_PQ_CV_NONE || fx->leaves[c]->max_def > 255)
			return false;
	}
	return true;
}

/* Empty vectors of the request's types for each range's batch. */
static bool
make_batches(fetch *fx, const pm_row_selection *sel)
{
	fx->batches = pm_arena_zalloc(fx->arena, sizeof(pm_batch) * (size_t) sel->n);
	fx->data_cap = pm_arena_zalloc(fx->arena, sizeof(int64_t) * (size_t) (sel->n * fx->ncols + 1));
	if (fx->batches == NULL || fx->data_cap == NULL)
		return false;
	for (int64_t i = 0; i < sel->n; i++)
	{
		pm_batch   *b = &fx->batches[i];
		int64_t		len = sel->end[i] - sel->start[i];

		b->nrows = len;
		b->first_row = sel->start[i];
		b->ncols = fx->ncols;
		if ((b->cols = pm_arena_zalloc(fx->arena, sizeof(pm_vector) * (size_t) (fx->ncols + 1))) == NULL)
			return false;
		for (int c = 0; c < fx->ncols; c++)
		{
			const pm_type *t = fx->request->fields[c].type;
			pm_vector  *v = &b->cols[c];

			if (!pm_vector_init(v, t, len, true, fx->arena))
				return false;
			if ((t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) && t->precision > 6 &&
				(v->nanos = pm_arena_zalloc(fx->arena, sizeof(uint16_t) * (size_t) len)) == NULL)
				return false;
			v->length = len;
		}
	}
	return true;
}

/* Vectors without a NULL carry no null array, as the reader's. */
static void
finish_batches(fetch *fx, int64_t nbatches)
{
	for (int64_t i = 0; i < nbatches; i++)
		for (int c = 0; c < fx->ncols; c++)
		{
			pm_vector  *v = &fx->batches[i].cols[c];
			bool		any = false;

			for (int64_t s = 0; s < v->length && !any; s++)
				any = v->nulls[s] != 0;
			if (!any)
				v->nulls = NULL;
		}
}

pm_code
pm_parquet_fetch_cached(const pm_env *env, const char *path, int64_t file_size,
						const pm_type *request, const pm_row_selection *sel,
						const pm_pq_fetch_counts *counts, pm_arena *arena, pm_batch **out,
						pm_error *err)
{
	fetch		fx;
	pm_meta_pin *footer_pin = NULL;
	const pm_pq_cached_metadata *cm;
	fetch_row  *rows;
	int			nrows = 0;
	int64_t		rg_read = 0;
	int64_t		rg_unselected = 0;
	bool		missing = false;
	pm_code		rc = PM_OK;

	*out = NULL;
	if (request == NULL || request->id != PM_TYPE_ROW || request->nfields == 0 ||
		sel == NULL || sel->n <= 0 || !pm_meta_cache_enabled() || !pm_page_lru_enabled())
		return PM_OK;
	for (int64_t i = 0; i < sel->n; i++)
	{
		if (sel->start[i] < 0 || sel->end[i] <= sel->start[i] ||
			(i > 0 && sel->start[i] < sel->end[i - 1]) ||
			sel->end[i] - sel->start[i] > PM_PQ_FETCH_MAX_ROWS - nrows)
			return PM_OK;
		nrows += (int) (sel->end[i] - sel->start[i]);
	}
	cm = pm_meta_cache_pin(PM_META_PARQUET_METADATA, path, file_size, 0, &footer_pin);
	if (cm == NULL)
		return PM_OK;

	memset(&fx, 0, sizeof(fx));
	fx.env = env;
	fx.path = path;
	fx.path_len = strlen(path);
	fx.file_size = file_size;
	pm_page_file_init(&fx.pf, path, file_size);
	fx.md = &cm->md;
	fx.arena = arena;
	fx.request = request;
	fx.ncols = request->nfields;
	fx.leaves = pm_arena_zalloc(arena, sizeof(pm_pq_node *) * (size_t) fx.ncols);
	fx.cols = pm_arena_zalloc(arena, sizeof(pm_pq_column) * (size_t) fx.ncols);
	fx.col_ready = pm_arena_zalloc(arena, sizeof(bool) * (size_t) fx.ncols);
	fx.pins = pm_arena_zalloc(arena, sizeof(pm_meta_pin *) * (size_t) (fx.ncols * nrows + 1));
	fx.chunks = pm_arena_zalloc(arena, sizeof(fetch_chunk) * (size_t) (fx.ncols * nrows + 1));
	fx.rows = rows = pm_arena_alloc(arena, sizeof(fetch_row) * (size_t) nrows);
	if (fx.leaves == NULL || fx.cols == NULL || fx.col_ready == NULL || fx.pins == NULL ||
		fx.chunks == NULL || rows == NULL || !make_batches(&fx, sel))
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int c = 0; c < fx.ncols; c++)
	{
		const pm_field *f = &request->fields[c];

		if (pm_type_is_nested(f->type->id) || (fx.leaves[c] = flat_leaf(fx.md, f->name)) == NULL)
			goto done;			/* missing: not flat, or absent */
	}
	if (!columns_readable(&fx))
		goto done;
	nrows = 0;
	for (int64_t i = 0; i < sel->n; i++)
		for (int64_t p = sel->start[i]; p < sel->end[i]; p++)
		{
			rows[nrows].pos = p;
			rows[nrows].batch = (int) i;
			rows[nrows].slot = p - sel->start[i];
			nrows++;
		}

	fx.nrows = nrows;

	/*
	 * First every chunk's page index and pages pinned, row group by row
	 * group as the reader goes, to the end of the file; then the values.
	 */
	{
		int64_t		first = 0;
		int			at = 0;

		for (int g = 0; g < fx.md->nrow_groups; g++)
		{
			int64_t		n = fx.md->row_groups[g].num_rows;
			int			k = at;

			while (k < nrows && rows[k].pos < first + n)
				k++;
			if (k > at)
			{
				rg_read++;
				for (int c = 0; c < fx.ncols; c++)
				{
					rc = gather_chunk(&fx, g, c, first, at, k - at, &missing, err);
					if (rc != PM_OK || missing)
						goto done;
				}
			}
			else if (n > 0)
				rg_unselected++;
			at = k;
			first += n;
		}
		if (at < nrows)
			goto done;			/* rows past the end of the file: let the reader say */
	}
	for (int i = 0; i < fx.nchunks; i++)
		if ((rc = decode_chunk(&fx, &fx.chunks[i], err)) != PM_OK)
			goto done;

	/* everything found: count as the reader would */
	finish_batches(&fx, sel->n);
	pm_meta_cache_count_hits(1 + fx.npins);
	pm_page_lru_count_hits(fx.page_hits);
	if (counts->row_groups_read != NULL)
		*counts->row_groups_read += rg_read;
	if (counts->row_groups_unselected != NULL)
		*counts->row_groups_unselected += rg_unselected;
	if (counts->pages_total != NULL)
		*counts->pages_total += fx.pages_total;
	if (counts->pages_skipped != NULL)
		*counts->pages_skipped += fx.pages_skipped;
	*out = fx.batches;

done:
	for (int i = 0; i < fx.nchunks; i++)
		for (int j = 0; j < fx.chunks[i].npieces; j++)
			pm_page_lru_unpin(fx.chunks[i].pieces[j].hit);
	for (int c = 0; c < fx.ncols; c++)
		if (fx.col_ready != NULL && fx.col_ready[c])
			pm_pq_column_release(&fx.cols[c]);
	for (int i = 0; i < fx.npins; i++)
		pm_meta_cache_unpin(fx.pins[i]);
	pm_meta_cache_unpin(footer_pin);
	return rc;
}
