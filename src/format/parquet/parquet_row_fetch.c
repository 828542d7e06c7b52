/*-------------------------------------------------------------------------
 * parquet_row_fetch.c
 *	  A few rows of a Parquet file from the caches alone (see the header).
 *
 * For each row group holding selected rows and each requested column: the
 * chunk's page indexes (metadata cache), the pages holding the rows and
 * the dictionary head before the first data page (page cache), laid out
 * as the pieces of a chunk the way the Parquet reader lays out the pages
 * it selects (parquet_reader.c load_row_group); then each selected row's
 * page is decoded up to the last selected row it holds and the row's entry
 * written to its batch. Every pin is taken without counting and the hits
 * are counted at the end, so a fetch that finds something missing leaves
 * the caches' counts as if it had not run.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_row_fetch.h"

#include <string.h>

#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "format/parquet/column_reader.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/parquet_page_index.h"

/* One selected row: its file position and where its values go. */
typedef struct fetch_row
{
	int64_t		pos;
	int			batch;
	int64_t		slot;
} fetch_row;

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
	pm_meta_pin **pins;			/* page indexes held */
	int			npins;
	int64_t		page_hits;		/* pins of the page cache, as the reader counts them */
	int		   *page_of;		/* scratch: page of each row of a row group */
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

/*
 * Column c's values of rows[0..n) (of row group g, whose first file row is
 * first; their pages in fx->page_of) into their batches: *missing when a
 * page is not cached.
 */
static pm_code
fetch_column(fetch *fx, int c, int g, int64_t first, const fetch_row *rows, int n,
			 const pm_pq_offset_index *oi, bool *missing, pm_error *err)
{
	const pm_pq_row_group *rg = &fx->md->row_groups[g];
	const pm_pq_chunk *ch = &rg->columns[fx->leaves[c]->leaf_index];
	pm_pq_column *col = &fx->cols[c];
	int64_t		head = oi->offset[0] - pm_pq_chunk_start(ch);
	size_t		pos = 0;
	int64_t		nvalues = 0;
	int			loaded = -1;	/* the page decoded, -1 none */
	int64_t		page_first = 0;
	int			at;

	*missing = false;
	if (!fx->col_ready[c])
	{
		pm_error	ierr;

		pm_error_clear(&ierr);
		/* a column the reader would refuse: let it say why */
		if (pm_pq_column_init(col, fx->env, fx->leaves[c], fx->request->fields[c].type,
							  fx->request->fields[c].name, &ierr) != PM_OK)
		{
			*missing = true;
			return ierr.code == PM_ERR_NOMEM ? pm_fail(err, PM_ERR_NOMEM, "out of memory") : PM_OK;
		}
		fx->col_ready[c] = true;
	}
	pm_pq_column_clear_pieces(col);
	col->page_file = &fx->pf;

	/* the dictionary head, then each page holding a row, once */
	for (int i = -1; i < n; i++)
	{
		int64_t		off;
		size_t		len;
		pm_page_entry *hit;

		if (i < 0)
		{
			if (head <= 0)
				continue;
			off = pm_pq_chunk_start(ch);
			len = (size_t) head;
		}
		else
		{
			int			p = fx->page_of[i];

			if (i > 0 && fx->page_of[i - 1] == p)
				continue;
			off = oi->offset[p];
			len = (size_t) oi->size[p];
			nvalues += pm_pq_page_rows(oi, p, rg->num_rows);
		}
		hit = pm_page_lru_pin_held(&fx->pf, off, 0);
		if (hit != NULL && pm_page_entry_span(hit) != len)
		{
			pm_page_lru_unpin(hit);
			hit = NULL;
		}
		if (hit == NULL)
		{
			*missing = true;
			return PM_OK;
		}
		if (!pm_pq_column_add_piece(col, pos, off, len, hit))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		fx->page_hits++;
		pos += len;
	}
	PM_TRY(pm_pq_column_start_chunk(col, NULL, pos, ch->codec, nvalues, fx->arena, err));

	for (int i = 0; i < n; i = at)
	{
		int			p = fx->page_of[i];
		int64_t		r;

		if (p != loaded)
		{
			bool		have;
			int			last = i;

			while (last + 1 < n && fx->page_of[last + 1] == p)
				last++;
			page_first = oi->first_row[p];
			/* decode only up to the page's last selected row, from its first */
			col->decode_limit = rows[last].pos - first - page_first + 1;
			col->decode_start = rows[i].pos - first - page_first;
			{
				pm_code		rc = pm_pq_column_next_page(col, &have, err);

				col->decode_limit = 0;
				col->decode_start = 0;
				PM_TRY(rc);
			}
			if (!have || col->page_total != pm_pq_page_rows(oi, p, rg->num_rows))
				return pm_fail(err, PM_ERR_CORRUPT,
							   "page of parquet column \"%s\" disagrees with its offset index",
							   col->name);
			loaded = p;
		}
		at = i + 1;
		r = rows[i].pos - first - page_first;
		if (r < col->page_pos || r >= col->page_n)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "parquet column \"%s\": offset index out of step with its pages",
						   col->name);
		/* pass the entries before the row (their values too) */
		if (r > col->page_pos)
		{
			int64_t		nn = r - col->page_pos;

			if (col->def != NULL)
			{
				uint8_t		md = (uint8_t) col->max_def;

				nn = 0;
				for (int64_t e = col->page_pos; e < r; e++)
					nn += col->def[e] == md;
			}
			col->page_pos = r;
			col->value_pos += nn;
		}
		{
			pm_batch   *b = &fx->batches[rows[i].batch];
			pm_vector  *v = &b->cols[c];
			int64_t		s = rows[i].slot;
			bool		isnull = col->def != NULL && col->def[r] < (uint8_t) col->max_def;

			v->nulls[s] = isnull;
			PM_TRY(pm_pq_column_write_values(col, isnull ? 0 : 1, v, s, 1,
											 &fx->data_cap[(int64_t) rows[i].batch * fx->ncols + c],
											 fx->arena, err));
			col->page_pos++;
		}
	}
	return PM_OK;
}

/*
 * Row group g's rows[0..n) (first: its first file row), every column; its
 * pages counted into *pages_total, *pages_skipped.
 */
static pm_code
fetch_row_group(fetch *fx, int g, int64_t first, const fetch_row *rows, int n,
				int64_t *pages_total, int64_t *pages_skipped, bool *missing, pm_error *err)
{
	const pm_pq_row_group *rg = &fx->md->row_groups[g];

	*missing = false;
	for (int c = 0; c < fx->ncols; c++)
	{
		const pm_pq_chunk *ch = &rg->columns[fx->leaves[c]->leaf_index];
		const pm_pq_chunk_index *ix;
		char	   *key;
		int			distinct = 0;

		if (ch->offset_index_length <= 0)
		{
			*missing = true;	/* the reader would read the whole chunk */
			return PM_OK;
		}
		key = pm_pq_chunk_index_name(fx->arena, fx->path, fx->path_len, g,
									 fx->leaves[c]->leaf_index);
		if (key == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		ix = pm_meta_cache_pin(PM_META_PARQUET_PAGE_INDEX, key, fx->file_size, 0,
							   &fx->pins[fx->npins]);
		if (ix == NULL)
		{
			*missing = true;
			return PM_OK;
		}
		fx->npins++;
		if (ix->oi.npages <= 0)
		{
			*missing = true;
			return PM_OK;
		}
		for (int i = 0; i < n; i++)
		{
			fx->page_of[i] = page_of_row(&ix->oi, rows[i].pos - first);
			distinct += i == 0 || fx->page_of[i] != fx->page_of[i - 1];
		}
		PM_TRY(fetch_column(fx, c, g, first, rows, n, &ix->oi, missing, err));
		if (*missing)
			return PM_OK;
		*pages_total += ix->oi.npages;
		*pages_skipped += ix->oi.npages - distinct;
	}
	return PM_OK;
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
	int64_t		pages_total = 0;
	int64_t		pages_skipped = 0;
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
	fx.page_of = pm_arena_alloc(arena, sizeof(int) * (size_t) nrows);
	rows = pm_arena_alloc(arena, sizeof(fetch_row) * (size_t) nrows);
	if (fx.leaves == NULL || fx.cols == NULL || fx.col_ready == NULL || fx.pins == NULL ||
		fx.page_of == NULL || rows == NULL || !make_batches(&fx, sel))
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
	nrows = 0;
	for (int64_t i = 0; i < sel->n; i++)
		for (int64_t p = sel->start[i]; p < sel->end[i]; p++)
		{
			rows[nrows].pos = p;
			rows[nrows].batch = (int) i;
			rows[nrows].slot = p - sel->start[i];
			nrows++;
		}

	/* row group by row group, as the reader goes, to the end of the file */
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
				rc = fetch_row_group(&fx, g, first, rows + at, k - at, &pages_total,
									 &pages_skipped, &missing, err);
				if (rc != PM_OK || missing)
					goto done;
			}
			else if (n > 0)
				rg_unselected++;
			at = k;
			first += n;
		}
		if (at < nrows)
			goto done;			/* rows past the end of the file: let the reader say */
	}

	/* everything found: count as the reader would */
	finish_batches(&fx, sel->n);
	pm_meta_cache_count_hits(1 + fx.npins);
	pm_page_lru_count_hits(fx.page_hits);
	if (counts->row_groups_read != NULL)
		*counts->row_groups_read += rg_read;
	if (counts->row_groups_unselected != NULL)
		*counts->row_groups_unselected += rg_unselected;
	if (counts->pages_total != NULL)
		*counts->pages_total += pages_total;
	if (counts->pages_skipped != NULL)
		*counts->pages_skipped += pages_skipped;
	*out = fx.batches;

done:
	for (int c = 0; c < fx.ncols; c++)
		if (fx.col_ready != NULL && fx.col_ready[c])
			pm_pq_column_release(&fx.cols[c]);
	for (int i = 0; i < fx.npins; i++)
		pm_meta_cache_unpin(fx.pins[i]);
	pm_meta_cache_unpin(footer_pin);
	return rc;
}
