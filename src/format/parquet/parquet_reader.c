/*-------------------------------------------------------------------------
 * parquet_reader.c
 *	  The Parquet pm_format_reader: footer, row groups, batches.
 *
 * open: reads the footer (one pread of the file's tail, a second only for
 * footers above 64 KiB; none when the metadata cache holds the footer bytes
 * of this path and size), decodes it (parquet_metadata.c) and plans the read of the
 * requested columns by name (parquet_assembly.c). next: on entering a row
 * group, reads the column chunks of the requested leaves only, with one
 * pm_file_read_ranges call (io_uring underneath where available); then
 * fills a batch of up to batch_size rows, column by column, crossing page
 * boundaries (column_reader.c) and assembling nested vectors.
 *
 * With a part filter (format_reader.h), a row group whose column-chunk
 * statistics (parquet_stats.c) prove that no row can match is skipped
 * without reading its chunks. With a page filter or a row selection too,
 * and only flat (non-repeated) leaves, the row group's page indexes are
 * read first (one batched read) and narrow it to row ranges
 * (parquet_page_select.c); each leaf then reads its dictionary page and
 * the pages overlapping the ranges only, batches hold rows of one range,
 * and a leaf skips the rows between ranges inside a page. With late
 * materialization, the filter columns' chunks are read on entering a row
 * group and the other columns' only once a batch keeps a row. In a
 * parallel read by units, a big row group is cut into units at the page
 * boundaries of one of its columns (count_units, narrow_to_unit), each
 * unit claimed as the reader reaches it and read as a row group of its
 * own (its columns' dictionary pages again) over the rows it holds.
 *
 * Lifetimes: reader arena (footer, plan) for the reader's life; row-group
 * arena (chunk bytes, dictionaries) reset per row group; batch arena
 * (vectors) reset per batch; each column's page arena reset per page.
 *
 * Spec: apache/parquet-format README.md; Paimon reads Parquet through
 * format/parquet/ParquetReaderFactory.java (columns by name).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_reader.h"

#include <string.h>

#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "format/parquet/column_reader.h"
#include "format/parquet/parquet_assembly.h"
#include "format/parquet/parquet_metadata.h"
#include "format/parquet/parquet_page_select.h"
#include "format/parquet/parquet_row_fetch.h"
#include "format/parquet/parquet_stats.h"

/* Per planned leaf: its page indexes and which pages its chunk buffer holds. */
typedef struct pq_leaf_pages
{
	int		   *sel;			/* page numbers loaded, in order; NULL: every page */
	int			nsel;
	bool		whole_unit;		/* sel is every page of a parallel unit: not cached */
	int			next_sel;		/* of sel: the next page to load */
	int64_t		page_first;		/* row group row of the current page's first entry */
} pq_leaf_pages;

typedef struct pm_parquet_reader
{
	pm_format_reader base;
	const pm_env *env;
	pm_fileio  *io;
	pm_file    *file;			/* NULL until something must be read */
	int64_t		known_size;		/* the caller's file size, 0: unknown */
	bool		size_unchecked; /* the footer came by known_size: check it on open */
	char	   *path;
	uint64_t	file_size;
	pm_page_file page_file;		/* the page cache's name of the file */
	pm_arena   *md_arena;		/* r->md when parsed but not cached, else NULL */
	pm_meta_pin **pins;			/* footer, page indexes used in place from the metadata cache */
	int			npins;
	int			pins_cap;
	int			batch_size;
	pm_arena   *arena;			/* reader lifetime */
	pm_arena   *rg_arena;		/* current row group */
	pm_arena   *batch_arena;	/* current batch */
	pm_pq_metadata md;
	pm_pq_plan	plan;
	const pm_type *request;
	int			rg;				/* current row group, -1 before the first */
	int64_t		rg_first_row;	/* file position of the row group's first row */
	int64_t		rg_done;		/* next row of the row group to return */
	pm_batch	batch;
	bool		failed;
	pm_part_filter_fn part_filter;	/* NULL: read every row group */
	void	   *part_filter_ctx;
	pm_field_range *ranges;		/* per requested column, for part_filter */
	bool		part_no_stats;	/* options->part_filter_no_stats */
	pm_part_filter_fn page_filter;	/* NULL: page indexes unused */
	const pm_row_selection *row_selection;	/* NULL: every row */
	/* row groups without a row of it are skipped (nested columns too) */
	const pm_row_selection *rg_selection;
	int64_t		rg_sel_at;		/* its first range not wholly before the row group */
	int64_t    *parts_unselected;
	bool		all_flat;		/* no repeated leaf: rows can be skipped */
	pm_pq_leaf_index *lidx;		/* by plan leaf index: page indexes of the row group */
	pq_leaf_pages *lpages;		/* by plan leaf index */
	pm_pq_rows	rows;			/* the current row group's ranges to read */
	int			cur_range;
	int64_t    *pages_total;
	int64_t    *pages_skipped;
	/* late materialization (format_reader.h row_filter) */
	bool		late;
	pm_row_filter_fn row_filter;
	bool	   *filter_col;		/* per requested column: the filter reads it */
	bool	   *filter_leaf;	/* per plan leaf: of a filter column */
	int64_t		late_batches;	/* batches judged so far */
	int64_t		late_rows;		/* their rows */
	int64_t		late_kept;		/* rows of the spans they kept */
	bool		late_always;	/* options->row_filter_tightens */
	/* the current row group's reads (plan_row_group), by plan leaf index */
	size_t	   *lens;
	int64_t    *nvalues;
	bool		others_loaded;	/* late: the non-filter leaves' chunks are read */
	bool		index_for_rows; /* page indexes read for the page filter / selection */
	bool		few_rows;		/* ... and the selection left a few rows (select_rows) */
	/* parallel units (format_reader.h unit_claim) */
	bool		(*unit_claim) (void *ctx);
	void	   *unit_ctx;
	int64_t		unit_bytes;		/* 0: a row group is one unit */
	int			unit_leaf;		/* plan leaf whose pages cut the row group, -1: none */
	int			nunits;			/* units of the current row group */
	int			unit_next;		/* ... the next one to ask unit_claim about */
	int64_t    *parts_taken;	/* row groups whose first unit this reader took */
	pm_pq_rows	unit_rows;		/* rows of the current unit (n = 0: the whole row group) */
	pm_chunk_buffers *chunk_buffers;	/* options->chunk_buffers; NULL: rg_arena */
} pm_parquet_reader;

/*
 * Late materialization pays a filter pass per batch and saves decoding
 * only where spans are short: after LATE_PROBE batches, a file whose spans
 * kept more than half of the rows is read plainly from there on.
 */
#define LATE_PROBE	16

static const pm_format_reader_ops parquet_ops;
static pm_code keep_pin(pm_parquet_reader *r, pm_error *err);

static pm_code
fail_path(pm_parquet_reader *r, pm_error *err, pm_code rc)
{
	pm_error_set_path(err, r->path);
	return rc;
}

/*
 * Units of a row group (count_units): at most MAX_UNITS, of at least
 * MIN_UNIT_ROWS rows on average (each unit reads its columns' dictionary
 * pages again).
 */
#define MAX_UNITS		64
#define MIN_UNIT_ROWS	8192

/*
 * A row selection this small in a row group skips the page filter
 * (select_rows): then the pages holding the rows are all that is read, as
 * parquet_row_fetch.c reads them from the caches (and counts them).
 */
#define FEW_SELECTED_ROWS	PM_PQ_FETCH_MAX_ROWS

/* Bytes read from the end of the file at once: most footers fit. */
#define FOOTER_GUESS	(64 * 1024)

/*
 * Footer: one pread of the file's last FOOTER_GUESS bytes (or all of a small
 * file), a second only for larger footers. The leading magic is checked when
 * that read covers it (it carries no information the decoder needs).
 */
pm_code
pm_parquet_read_metadata(pm_fileio *io, pm_file *file, const char *path, pm_arena *arena,
						 uint64_t *file_size, pm_pq_metadata *md, pm_error *err)
{
	uint64_t	size;
	size_t		tail_len;
	uint8_t    *tail;
	const uint8_t *t8;
	uint32_t	flen;
	const uint8_t *foot;
	pm_meta_bytes *cached;
	pm_meta_bytes footer;

	PM_TRY(pm_file_size(io, file, file_size, err));
	size = *file_size;
	if (size < 12)
		return pm_fail(err, PM_ERR_CORRUPT, "file too small to be parquet");
	cached = pm_meta_cache_fetch(PM_META_PARQUET_FOOTER, path, (int64_t) size, arena,
								 pm_meta_bytes_flatten);
	if (cached != NULL)
		return pm_pq_metadata_parse(cached->data, (uint32_t) cached->len,
									size - 8 - cached->len, arena, md, err);
	tail_len = size < FOOTER_GUESS ? (size_t) size : FOOTER_GUESS;
	tail = pm_arena_alloc(arena, tail_len);
	if (tail == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading the parquet footer");
	PM_TRY(pm_file_pread(io, file, tail, tail_len, size - tail_len, err));
	t8 = tail + tail_len - 8;
	if (memcmp(t8 + 4, "PAR1", 4) != 0)
	{
		if (memcmp(t8 + 4, "PARE", 4) == 0)
			return pm_fail(err, PM_ERR_UNSUPPORTED, "encrypted parquet files are not supported");
		return pm_fail(err, PM_ERR_CORRUPT, "bad parquet magic at the end of the file");
	}
	if (tail_len == size && memcmp(tail, "PAR1", 4) != 0)
		return pm_fail(err, PM_ERR_CORRUPT, "bad parquet magic at the start of the file");
	flen = (uint32_t) t8[0] | ((uint32_t) t8[1] << 8) | ((uint32_t) t8[2] << 16) |
		((uint32_t) t8[3] << 24);
	if (flen == 0 || (uint64_t) flen > size - 12 || flen > PM_PQ_MAX_FOOTER_SIZE)
		return pm_fail(err, PM_ERR_CORRUPT, "bad parquet footer length %u", flen);
	if ((size_t) flen + 8 <= tail_len)
		foot = t8 - flen;
	else
	{
		uint8_t    *buf = pm_arena_alloc(arena, flen);

		if (buf == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading the parquet footer");
		PM_TRY(pm_file_pread(io, file, buf, flen, size - 8 - flen, err));
		foot = buf;
	}
	PM_TRY(pm_pq_metadata_parse(foot, flen, size - 8 - flen, arena, md, err));
	footer.data = foot;
	footer.len = flen;
	pm_meta_cache_store(PM_META_PARQUET_FOOTER, path, (int64_t) size, &footer,
						pm_meta_bytes_flatten);
	return PM_OK;
}

static void
free_cached_metadata(void *value)
{
	pm_arena_destroy(((pm_pq_cached_metadata *) value)->arena);	/* value lives in it */
}

/*
 * Open the file if it is not open yet (it is opened only to be read). When
 * the cached footer was taken by the caller's size, the file must have that
 * size: a file written again under its name since (another size) is refused
 * rather than read with the footer of the one it replaced.
 */
static pm_code
ensure_file(pm_parquet_reader *r, pm_error *err)
{
	uint64_t	size;

	if (r->file != NULL)
		return PM_OK;
	PM_TRY(pm_file_open(r->io, r->path, &r->file, err));
	if (!r->size_unchecked)
		return PM_OK;
	r->size_unchecked = false;
	PM_TRY(pm_file_size(r->io, r->file, &size, err));
	if (size != r->file_size)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "parquet file has %llu bytes, its manifest entry says %llu: it was "
					   "written again under its name", (unsigned long long) size,
					   (unsigned long long) r->file_size);
	return PM_OK;
}

/*
 * The footer: with the metadata cache on, parsed once per file (path and
 * size) and used in place from the cache afterwards, pinned until the
 * reader closes (nothing writes to it); else parsed into the reader arena.
 * With the size known (r->known_size) a cached footer needs no open.
 */
static pm_code
read_footer(pm_parquet_reader *r, pm_error *err)
{
	const pm_pq_cached_metadata *hit = NULL;
	pm_pq_cached_metadata *c;
	pm_arena   *a;
	pm_code		rc;

	if (!pm_meta_cache_enabled())
	{
		PM_TRY(ensure_file(r, err));
		return pm_parquet_read_metadata(r->io, r->file, r->path, r->arena, &r->file_size,
										&r->md, err);
	}
	PM_TRY(keep_pin(r, err));
	/* one lookup of the footer as EXPLAIN counts it: a miss counts in the fallback */
	if (r->known_size > 0)
	{
		r->file_size = (uint64_t) r->known_size;
		hit = pm_meta_cache_pin(PM_META_PARQUET_METADATA, r->path, r->known_size,
								PM_META_COUNT_HIT, &r->pins[r->npins]);
	}
	if (hit != NULL)
		r->size_unchecked = true;
	else
	{
		PM_TRY(ensure_file(r, err));
		PM_TRY(pm_file_size(r->io, r->file, &r->file_size, err));
		if ((int64_t) r->file_size != r->known_size)
			hit = pm_meta_cache_pin(PM_META_PARQUET_METADATA, r->path, (int64_t) r->file_size,
									PM_META_COUNT_HIT, &r->pins[r->npins]);
	}
	if (hit == NULL)
	{
		if ((a = pm_arena_create(pm_env_default())) == NULL ||
			(c = pm_arena_zalloc(a, sizeof(pm_pq_cached_metadata))) == NULL)
		{
			if (a != NULL)
				pm_arena_destroy(a);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading the parquet footer");
		}
		c->arena = a;
		rc = pm_parquet_read_metadata(r->io, r->file, r->path, a, &r->file_size, &c->md, err);
		if (rc != PM_OK)
		{
			pm_arena_destroy(a);
			return rc;
		}
		if (!pm_meta_cache_store_owned(PM_META_PARQUET_METADATA, r->path,
									   (int64_t) r->file_size, c, pm_arena_bytes(a),
									   free_cached_metadata))
		{
			r->md_arena = a;	/* not kept (larger than the budget): the reader's */
			r->md = c->md;
			return PM_OK;
		}
		hit = pm_meta_cache_pin(PM_META_PARQUET_METADATA, r->path, (int64_t) r->file_size,
								0, &r->pins[r->npins]);
		if (hit == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading the parquet footer");
	}
	r->npins++;
	r->md = hit->md;
	return PM_OK;
}

/*
 * The metadata cache's name of chunk (g, leaf)'s page indexes, in the row
 * group's arena.
 */
static char *
chunk_index_key(pm_parquet_reader *r, int g, int leaf)
{
	return pm_pq_chunk_index_name(r->rg_arena, r->path, strlen(r->path), g, leaf);
}

/* Room for one more pin in r->pins. */
static pm_code
keep_pin(pm_parquet_reader *r, pm_error *err)
{
	if (r->npins == r->pins_cap)
	{
		int			ncap = r->pins_cap ? r->pins_cap * 2 : 16;
		pm_meta_pin **np = pm_alloc(r->env, sizeof(pm_meta_pin *) * (size_t) ncap);

		if (np == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading parquet page indexes");
		if (r->npins > 0)
			memcpy(np, r->pins, sizeof(pm_meta_pin *) * (size_t) r->npins);
		pm_free(r->env, r->pins);
		r->pins = np;
		r->pins_cap = ncap;
	}
	return PM_OK;
}

/*
 * Read the page indexes of row group g for every planned leaf that has
 * them, into r->lidx: those the metadata cache holds used in place from
 * it (pinned until the reader closes; nothing writes to them), the others
 * in one batch into rg_arena, parsed and then cached (files are immutable
 * by name: an entry is never stale).
 */
static pm_code
load_page_indexes(pm_parquet_reader *r, int g, pm_error *err)
{
	pm_pq_row_group *rg = &r->md.row_groups[g];
	int			n = r->plan.nleaves;
	pm_read_range *ranges;
	int		   *range_of;		/* per leaf: its first range, -1 none or cached */
	int			nr = 0;
	bool		caching = pm_meta_cache_enabled();

	ranges = pm_arena_zalloc(r->rg_arena, sizeof(pm_read_range) * (size_t) (2 * n + 1));
	range_of = pm_arena_zalloc(r->rg_arena, sizeof(int) * (size_t) (n + 1));
	if (ranges == NULL || range_of == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading parquet page indexes");
	for (int i = 0; i < n; i++)
	{
		pm_pq_leaf *lf = r->plan.leaves[i];
		pm_pq_chunk *ch = &rg->columns[lf->col.leaf->leaf_index];

		range_of[i] = -1;
		if (ch->offset_index_length <= 0)
			continue;
		if (caching)
		{
			char	   *key = chunk_index_key(r, g, lf->col.leaf->leaf_index);
			const pm_pq_chunk_index *hit = NULL;

			if (key != NULL && keep_pin(r, err) != PM_OK)
				return PM_ERR_NOMEM;
			if (key != NULL)
				hit = pm_meta_cache_pin(PM_META_PARQUET_PAGE_INDEX, key, (int64_t) r->file_size,
										PM_META_COUNT, &r->pins[r->npins]);
			if (hit != NULL)
			{
				r->npins++;		/* held until the reader closes */
				r->lidx[i].oi = hit->oi;
				r->lidx[i].has_oi = true;
				if (hit->has_ci && lf->col.target != NULL)
				{
					r->lidx[i].ci = hit->ci;
					r->lidx[i].has_ci = true;
				}
				continue;
			}
		}
		range_of[i] = nr;
		ranges[nr].offset = (uint64_t) ch->offset_index_offset;
		ranges[nr].length = (size_t) ch->offset_index_length;
		nr++;
		if (ch->column_index_length > 0)
		{
			ranges[nr].offset = (uint64_t) ch->column_index_offset;
			ranges[nr].length = (size_t) ch->column_index_length;
			nr++;
		}
	}
	for (int k = 0; k < nr; k++)
		if ((ranges[k].buf = pm_arena_alloc(r->rg_arena, ranges[k].length)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading parquet page indexes");
	if (nr > 0)
	{
		PM_TRY(ensure_file(r, err));
		PM_TRY(pm_file_read_ranges(r->io, r->file, ranges, nr, err));
	}
	for (int i = 0; i < n; i++)
	{
		pm_pq_leaf *lf = r->plan.leaves[i];
		pm_pq_chunk *ch = &rg->columns[lf->col.leaf->leaf_index];
		pm_pq_chunk_index ci;
		int			at = range_of[i];

		if (at < 0)
			continue;
		memset(&ci, 0, sizeof(ci));
		PM_TRY(pm_pq_offset_index_parse(ranges[at].buf, ranges[at].length, ch, rg->num_rows,
										r->rg_arena, &ci.oi, err));
		if (ch->column_index_length > 0)
		{
			PM_TRY(pm_pq_column_index_parse(ranges[at + 1].buf, ranges[at + 1].length,
											ci.oi.npages, r->rg_arena, &ci.ci, err));
			ci.has_ci = true;
		}
		r->lidx[i].oi = ci.oi;
		r->lidx[i].has_oi = true;
		if (ci.has_ci && lf->col.target != NULL)
		{
			r->lidx[i].ci = ci.ci;
			r->lidx[i].has_ci = true;
		}
		if (caching)
		{
			char	   *key = chunk_index_key(r, g, lf->col.leaf->leaf_index);

			if (key != NULL)
				pm_meta_cache_store(PM_META_PARQUET_PAGE_INDEX, key, (int64_t) r->file_size,
									&ci, pm_pq_chunk_index_flatten);
		}
	}
	return PM_OK;
}

/*
 * The rows of row group g to read into r->rows: all of them, or (page
 * filter, row selection) those its page indexes and the selection leave.
 * Page indexes are read only then (r->lpages[].idx).
 */
static pm_code
select_rows(pm_parquet_reader *r, int g, pm_error *err)
{
	int64_t		nrows = r->md.row_groups[g].num_rows;

	r->cur_range = 0;
	r->rows.n = 1;
	r->rows.start = pm_arena_alloc(r->rg_arena, sizeof(int64_t));
	r->rows.end = pm_arena_alloc(r->rg_arena, sizeof(int64_t));
	if (r->rows.start == NULL || r->rows.end == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	r->rows.start[0] = 0;
	r->rows.end[0] = nrows;
	if (r->lidx == NULL)
		return PM_OK;
	memset(r->lidx, 0, sizeof(pm_pq_leaf_index) * (size_t) r->plan.nleaves);
	memset(r->lpages, 0, sizeof(pq_leaf_pages) * (size_t) r->plan.nleaves);
	r->index_for_rows = false;
	r->few_rows = false;
	if (r->page_filter == NULL && r->row_selection == NULL)
		return PM_OK;			/* late materialization only: rows skipped, no index */
	PM_TRY(load_page_indexes(r, g, err));
	r->index_for_rows = true;
	/*
	 * A few selected rows (a point lookup's key rows): the pages that hold
	 * them are all there is to read, and judging every piece of the row
	 * group by the page filter (cut at every page boundary of every column)
	 * would cost more than it could save. The filter only prunes: what it
	 * would drop is filtered later anyway.
	 */
	if (r->row_selection != NULL)
	{
		pm_pq_rows	all = r->rows;
		pm_pq_rows	sel;
		int64_t		n = 0;

		if (!pm_pq_rows_intersect(&all, r->row_selection, r->rg_first_row, r->rg_arena, &sel))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
		for (int i = 0; i < sel.n; i++)
			n += sel.end[i] - sel.start[i];
		if (n <= FEW_SELECTED_ROWS)
		{
			r->rows = sel;
			r->few_rows = true;
			return PM_OK;
		}
	}
	if (r->page_filter != NULL &&
		!pm_pq_select_rows(&r->md, &r->plan, g, r->lidx, r->page_filter, r->part_filter_ctx,
						   r->ranges, r->rg_arena, &r->rows))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	if (r->row_selection != NULL)
	{
		pm_pq_rows	all = r->rows;

		if (!pm_pq_rows_intersect(&all, r->row_selection, r->rg_first_row, r->rg_arena,
								  &r->rows))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	}
	return PM_OK;
}

/*
 * Which pages of row group g each planned leaf reads (r->lpages[].sel, NULL:
 * the whole chunk), and so how many bytes and level entries (r->lens,
 * r->nvalues). Counts the row group's pages when count_rows, its whole
 * selection, is given (in parallel, by the reader of its first unit only:
 * the units' pages overlap where the leaves' pages do not line up).
 * Nothing is read yet.
 */
static pm_code
plan_row_group(pm_parquet_reader *r, int g, const pm_pq_rows *count_rows, pm_error *err)
{
	pm_pq_row_group *rg = &r->md.row_groups[g];
	int			n = r->plan.nleaves;

	r->lens = pm_arena_zalloc(r->rg_arena, sizeof(size_t) * (size_t) (n + 1));
	r->nvalues = pm_arena_zalloc(r->rg_arena, sizeof(int64_t) * (size_t) (n + 1));
	if (r->lens == NULL || r->nvalues == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	for (int i = 0; i < n; i++)
	{
		pm_pq_leaf *lf = r->plan.leaves[i];
		pm_pq_chunk *ch = &rg->columns[lf->col.leaf->leaf_index];
		pq_leaf_pages *lp = r->lpages != NULL ? &r->lpages[i] : NULL;
		const pm_pq_offset_index *oi = r->lidx != NULL ? &r->lidx[i].oi : NULL;

		r->nvalues[i] = ch->num_values;
		r->lens[i] = (size_t) ch->total_compressed_size;
		if (lp == NULL || !r->lidx[i].has_oi)
			continue;
		lp->sel = pm_arena_alloc(r->rg_arena, sizeof(int) * (size_t) (oi->npages + 1));
		if (lp->sel == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
		lp->nsel = pm_pq_select_pages(oi, rg->num_rows, &r->rows, lp->sel);
		lp->whole_unit = false;
		{
			int64_t		nread = lp->nsel;	/* of the whole selection */
			bool		unit = r->unit_rows.n > 0;
			bool		other = count_rows != NULL && count_rows != &r->rows;
			int		   *tmp = NULL;

			if ((unit || other) &&
				(tmp = pm_arena_alloc(r->rg_arena, sizeof(int) * (size_t) (oi->npages + 1))) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
			/* the pages of this participant's unit */
			if (unit)
				lp->whole_unit =
					lp->nsel == pm_pq_select_pages(oi, rg->num_rows, &r->unit_rows, tmp);
			if (other)
				nread = pm_pq_select_pages(oi, rg->num_rows, count_rows, tmp);
			if (count_rows != NULL && r->index_for_rows && r->pages_total != NULL)
				*r->pages_total += oi->npages;
			if (count_rows != NULL && r->index_for_rows && r->pages_skipped != NULL)
				*r->pages_skipped += oi->npages - nread;
		}
		/*
		 * Every page: read the chunk whole; but a few selected rows (a
		 * lookup's) read it by pages, which the page cache keeps (a chunk of
		 * one page is common: small files, small row groups).
		 */
		if (lp->nsel == oi->npages && !r->few_rows)
		{
			lp->sel = NULL;
			continue;
		}
		r->lens[i] = (size_t) (oi->offset[0] - pm_pq_chunk_start(ch));
		r->nvalues[i] = 0;
		for (int k = 0; k < lp->nsel; k++)
		{
			r->lens[i] += (size_t) oi->size[lp->sel[k]];
			r->nvalues[i] += pm_pq_page_rows(oi, lp->sel[k], rg->num_rows);
		}
	}
	return PM_OK;
}

/* Which planned leaves load_row_group reads. */
typedef enum pq_load
{
	PQ_LOAD_ALL,
	PQ_LOAD_FILTER,				/* late: the filter columns' leaves */
	PQ_LOAD_OTHERS				/* late: the rest */
} pq_load;

static bool
leaf_in_load(const pm_parquet_reader *r, int i, pq_load which)
{
	return which == PQ_LOAD_ALL || r->filter_leaf[i] == (which == PQ_LOAD_FILTER);
}

/* The buffer leaf i's chunk bytes (r->lens[i]) are read into. */
static uint8_t *
chunk_buffer(pm_parquet_reader *r, int i)
{
	size_t		len = r->lens[i] > 0 ? r->lens[i] : 1;

	if (r->chunk_buffers != NULL)
		return pm_chunk_buffers_get(r->chunk_buffers, i, len);
	return pm_arena_alloc(r->rg_arena, len);
}

/*
 * Read the chunks of row group g (planned by plan_row_group) for the
 * planned leaves `which` says, in one batch: whole chunks, or where the
 * rows to read leave pages out, the bytes before the first data page
 * (dictionary) and the pages overlapping them. Late reads load the other
 * leaves only once a batch keeps a row (read_columns).
 */
static pm_code
load_row_group(pm_parquet_reader *r, int g, pq_load which, pm_error *err)
{
	pm_pq_row_group *rg = &r->md.row_groups[g];
	int			n = r->plan.nleaves;
	pm_read_range *ranges;
	int			nr = 0;
	uint8_t   **bufs;
	int64_t		npieces = n;	/* read ranges: a chunk, or its head and pages */

	if (which != PQ_LOAD_FILTER)
		r->others_loaded = true;
	if (n == 0 || r->rows.n == 0)
		return PM_OK;			/* nothing to read in this row group */
	bufs = pm_arena_zalloc(r->rg_arena, sizeof(uint8_t *) * (size_t) n);
	if (bufs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	for (int i = 0; i < n; i++)
		if (r->lpages != NULL && r->lpages[i].sel != NULL)
			npieces += r->lpages[i].nsel + 1;
	ranges = pm_arena_zalloc(r->rg_arena, sizeof(pm_read_range) * (size_t) (npieces + 1));
	if (ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	for (int i = 0; i < n; i++)
	{
		pm_pq_chunk *ch = &rg->columns[r->plan.leaves[i]->col.leaf->leaf_index];
		pm_pq_column *col = &r->plan.leaves[i]->col;
		pq_leaf_pages *lp = r->lpages != NULL ? &r->lpages[i] : NULL;
		const pm_pq_offset_index *oi = r->lidx != NULL ? &r->lidx[i].oi : NULL;
		size_t		pos = 0;
		bool		prev_read = false;	/* the previous page was read into ranges[nr - 1] */

		if (!leaf_in_load(r, i, which))
			continue;
		pm_pq_column_clear_pieces(col);
		col->page_file = NULL;
		if (lp == NULL || lp->sel == NULL)
		{
			if ((bufs[i] = chunk_buffer(r, i)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
			ranges[nr].offset = (uint64_t) pm_pq_chunk_start(ch);
			ranges[nr].length = r->lens[i];
			ranges[nr].buf = bufs[i];
			nr++;
			continue;
		}

		/*
		 * Pages the page index picked are the ones lookups read again: each
		 * (and the dictionary head) is a piece the page cache may hold, by
		 * file and offset; those it holds are not read. The pages of a
		 * parallel unit read whole are not (a scan would only churn the
		 * cache), its dictionary head is: every unit of the chunk needs it.
		 */
		if (pm_page_lru_enabled())
			col->page_file = &r->page_file;
		for (int k = -1; k < lp->nsel; k++)
		{
			uint64_t	off;
			size_t		len;
			pm_page_entry *hit = NULL;

			if (k < 0)
			{
				if (oi->offset[0] <= pm_pq_chunk_start(ch))
					continue;
				off = (uint64_t) pm_pq_chunk_start(ch);
				len = (size_t) (oi->offset[0] - pm_pq_chunk_start(ch));
			}
			else
			{
				off = (uint64_t) oi->offset[lp->sel[k]];
				len = (size_t) oi->size[lp->sel[k]];
			}
			if (col->page_file != NULL && (k < 0 || !lp->whole_unit))
			{
				hit = pm_page_lru_pin(col->page_file, (int64_t) off, 0);
				if (hit != NULL && pm_page_entry_span(hit) != len)
				{
					pm_page_lru_unpin(hit);
					hit = NULL;
				}
				if (!pm_pq_column_add_piece(col, pos, (int64_t) off, len, hit))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
			}
			/* a chunk whose pieces the page cache all holds needs no buffer */
			if (hit == NULL && bufs[i] == NULL && (bufs[i] = chunk_buffer(r, i)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
			if (hit == NULL)
			{
				if (prev_read && ranges[nr - 1].offset + ranges[nr - 1].length == off)
					ranges[nr - 1].length += len;
				else
				{
					ranges[nr].offset = off;
					ranges[nr].length = len;
					ranges[nr].buf = bufs[i] + pos;
					nr++;
				}
			}
			prev_read = hit == NULL;
			pos += len;
		}
	}
	if (nr > 0)
	{
		PM_TRY(ensure_file(r, err));
		PM_TRY(pm_file_read_ranges(r->io, r->file, ranges, nr, err));
	}
	for (int i = 0; i < n; i++)
	{
		pm_pq_leaf *lf = r->plan.leaves[i];
		pm_pq_chunk *ch = &rg->columns[lf->col.leaf->leaf_index];

		if (!leaf_in_load(r, i, which))
			continue;
		PM_TRY(pm_pq_column_start_chunk(&lf->col, bufs[i], r->lens[i], ch->codec,
										r->nvalues[i], r->rg_arena, err));
		lf->chunk_started = false;
	}
	return PM_OK;
}

static pm_code
short_chunk(pm_pq_leaf *lf, pm_error *err)
{
	return pm_fail(err, PM_ERR_CORRUPT,
				   "parquet column \"%s\" holds fewer rows than its row group", lf->col.name);
}

/*
 * How many entries of page p (from its first) the rows still to read need:
 * up to the end of the last range of r->rows that reaches into the page
 * (every read lies in r->rows, from the current range on, at or after
 * r->rg_done); 0: the whole page. *start: the first entry they need.
 */
static int64_t
page_read_limit(const pm_parquet_reader *r, const pm_pq_offset_index *oi, int p,
				int64_t *start)
{
	int64_t		f = oi->first_row[p];
	int64_t		e = f + pm_pq_page_rows(oi, p, r->md.row_groups[r->rg].num_rows);
	int64_t		lim = 0;

	*start = 0;
	for (int i = r->cur_range; i < r->rows.n && r->rows.start[i] < e; i++)
	{
		if (r->rows.end[i] <= f)
			continue;
		if (lim == 0)
		{
			int64_t		s = r->rows.start[i] > r->rg_done ? r->rows.start[i] : r->rg_done;

			*start = s > f ? s - f : 0;
		}
		lim = (r->rows.end[i] < e ? r->rows.end[i] : e) - f;
	}
	return lim;
}

/*
 * Load the leaf's next data page, keeping track of the row group row it
 * starts at: from the OffsetIndex when only some pages were read (and the
 * page must hold the rows it says), else right after the previous page.
 */
static pm_code
leaf_next_page(pm_parquet_reader *r, pm_pq_leaf *lf, bool *have, pm_error *err)
{
	pm_pq_column *c = &lf->col;
	pq_leaf_pages *lp = r->lpages != NULL ? &r->lpages[lf->index] : NULL;
	int64_t		first = (lp != NULL ? lp->page_first : 0) + c->page_n;
	pm_code		rc;

	if (lp != NULL && lp->sel != NULL && lp->next_sel < lp->nsel)
		c->decode_limit = page_read_limit(r, &r->lidx[lf->index].oi, lp->sel[lp->next_sel],
										  &c->decode_start);
	rc = pm_pq_column_next_page(c, have, err);
	c->decode_limit = 0;
	c->decode_start = 0;
	PM_TRY(rc);
	if (!*have || lp == NULL)
		return PM_OK;
	if (lp->sel != NULL)
	{
		const pm_pq_offset_index *oi = &r->lidx[lf->index].oi;
		int			p;

		if (lp->next_sel >= lp->nsel)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "parquet column \"%s\" has more pages than its offset index", c->name);
		p = lp->sel[lp->next_sel++];
		first = oi->first_row[p];
		if (c->page_total != pm_pq_page_rows(oi, p, r->md.row_groups[r->rg].num_rows))
			return pm_fail(err, PM_ERR_CORRUPT,
						   "page of parquet column \"%s\" disagrees with its offset index",
						   c->name);
	}
	lp->page_first = first;
	return PM_OK;
}

/*
 * Position a flat leaf at row group row `row` (at or after where it is):
 * load pages up to the one holding it, skip the entries before it (and
 * their values).
 */
static pm_code
leaf_seek(pm_parquet_reader *r, pm_pq_leaf *lf, int64_t row, pm_error *err)
{
	pm_pq_column *c = &lf->col;
	pq_leaf_pages *lp = &r->lpages[lf->index];
	int64_t		k;

	while (lp->page_first + c->page_n <= row)
	{
		bool		have;
		int64_t		nv;
		int64_t		next_first = lp->page_first + c->page_n;

		/* a page wholly before the row is passed by undecoded */
		PM_TRY(pm_pq_column_peek_page(c, &nv, &have, err));
		if (!have)
			return short_chunk(lf, err);
		if (lp->sel != NULL)
		{
			const pm_pq_offset_index *oi = &r->lidx[lf->index].oi;

			if (lp->next_sel >= lp->nsel)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "parquet column \"%s\" has more pages than its offset index",
							   c->name);
			next_first = oi->first_row[lp->sel[lp->next_sel]];
		}
		if (next_first + nv <= row)
		{
			if (lp->sel != NULL &&
				nv != pm_pq_page_rows(&r->lidx[lf->index].oi, lp->sel[lp->next_sel++],
									  r->md.row_groups[r->rg].num_rows))
				return pm_fail(err, PM_ERR_CORRUPT,
							   "page of parquet column \"%s\" disagrees with its offset index",
							   c->name);
			PM_TRY(pm_pq_column_skip_page(c, err));
			lp->page_first = next_first;
			continue;
		}
		PM_TRY(leaf_next_page(r, lf, &have, err));
		if (!have)
			return short_chunk(lf, err);
	}
	k = row - (lp->page_first + c->page_pos);
	if (k < 0)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "parquet column \"%s\": offset index out of step with its pages", c->name);
	pm_pq_column_skip_entries(c, k);
	return PM_OK;
}

/* Read the next nrows rows of one leaf into its nodes. */
static pm_code
read_leaf_rows(pm_parquet_reader *r, pm_pq_leaf *lf, int64_t nrows, pm_error *err)
{
	pm_pq_column *c = &lf->col;
	int64_t		started = 0;

	for (;;)
	{
		if (c->page_pos >= c->page_n)
		{
			bool		have;

			if (c->max_rep == 0 && started == nrows)
				break;
			PM_TRY(leaf_next_page(r, lf, &have, err));
			if (!have)
				break;
		}
		if (c->max_rep == 0)
		{
			int64_t		take = c->page_n - c->page_pos;

			if (take > nrows - started)
				take = nrows - started;
			if (take == 0)
				break;
			PM_TRY(pm_pq_assemble(lf, c->page_pos, c->page_pos + take, r->batch_arena, err));
			c->page_pos += take;
			started += take;
		}
		else
		{
			int64_t		e = c->page_pos;
			const uint8_t *rep = c->rep;

			if (!lf->chunk_started && rep[e] != 0)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "parquet column \"%s\" starts in the middle of a row", c->name);
			lf->chunk_started = true;
			while (e < c->page_n)
			{
				if (rep[e] == 0)
				{
					if (started == nrows)
						break;
					started++;
				}
				e++;
			}
			if (e > c->page_pos)
				PM_TRY(pm_pq_assemble(lf, c->page_pos, e, r->batch_arena, err));
			c->page_pos = e;
			if (e < c->page_n)
				break;
		}
	}
	if (started < nrows)
		return short_chunk(lf, err);
	return PM_OK;
}

/*
 * Parallel units of row group g (format_reader.h unit_claim): how many,
 * from the footer alone so that every participant counts the same. Cut
 * only where pages can be skipped (r->lidx) and a planned leaf has an
 * OffsetIndex: that of the longest (most pages) gives the cuts
 * (narrow_to_unit).
 */
static void
count_units(pm_parquet_reader *r, int g)
{
	pm_pq_row_group *rg = &r->md.row_groups[g];
	int64_t		k = 1;

	r->unit_leaf = -1;
	if (r->unit_bytes > 0 && r->lidx != NULL)
	{
		int64_t		bytes = 0,
					longest = -1;

		for (int c = 0; c < rg->ncolumns; c++)
		{
			int64_t		sz = rg->columns[c].total_compressed_size;

			if (sz > 0 && bytes <= INT64_MAX - sz)
				bytes += sz;
		}
		/* the longest OffsetIndex: the most pages, the finest cuts */
		for (int i = 0; i < r->plan.nleaves; i++)
		{
			pm_pq_chunk *ch = &rg->columns[r->plan.leaves[i]->col.leaf->leaf_index];

			if (ch->offset_index_length > 0 && ch->offset_index_length > longest)
			{
				longest = ch->offset_index_length;
				r->unit_leaf = i;
			}
		}
		if (r->unit_leaf >= 0 && bytes > r->unit_bytes)
		{
			k = bytes / r->unit_bytes + (bytes % r->unit_bytes != 0);
			if (k > rg->num_rows / MIN_UNIT_ROWS)
				k = rg->num_rows / MIN_UNIT_ROWS;
			if (k > MAX_UNITS)
				k = MAX_UNITS;
			if (k < 1)
				k = 1;
		}
	}
	r->nunits = (int) k;
	r->unit_next = 0;
}

/*
 * Keep only the rows of unit u of row group g in r->rows. Unit u of k
 * holds the rows from cut u to cut u + 1, where cut u (0 < u < k) is the
 * first row of the unit leaf's page holding row group row u * nrows / k:
 * its pages start there, the other leaves skip rows inside theirs.
 */
static pm_code
narrow_to_unit(pm_parquet_reader *r, int g, int u, pm_error *err)
{
	int64_t		nrows = r->md.row_groups[g].num_rows;
	int			k = r->nunits;
	const pm_pq_offset_index *oi;
	int64_t		cut[2];
	int64_t		file_start,
				file_end;
	pm_row_selection sel;
	pm_pq_rows	all;

	r->unit_rows.n = 0;
	if (k <= 1)
		return PM_OK;
	if (!r->index_for_rows)
		PM_TRY(load_page_indexes(r, g, err));
	if (!r->lidx[r->unit_leaf].has_oi)
		return pm_fail(err, PM_ERR_CORRUPT, "parquet offset index of column \"%s\" missing",
					   r->plan.leaves[r->unit_leaf]->col.name);
	oi = &r->lidx[r->unit_leaf].oi;
	for (int j = 0; j < 2; j++)
	{
		int			v = u + j;
		int			p = 0;
		int64_t		target;

		if (v <= 0 || v >= k)
		{
			cut[j] = v <= 0 ? 0 : nrows;
			continue;
		}
		target = (nrows / k) * v + (nrows % k) * v / k;
		while (p + 1 < oi->npages && oi->first_row[p + 1] <= target)
			p++;
		cut[j] = oi->first_row[p] < 0 ? 0 : oi->first_row[p] > nrows ? nrows : oi->first_row[p];
	}
	r->unit_rows.start = pm_arena_alloc(r->rg_arena, sizeof(int64_t));
	r->unit_rows.end = pm_arena_alloc(r->rg_arena, sizeof(int64_t));
	if (r->unit_rows.start == NULL || r->unit_rows.end == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	if (cut[0] >= cut[1])
	{
		r->rows.n = 0;			/* an empty unit (two cuts in one page) */
		return PM_OK;
	}
	r->unit_rows.start[0] = cut[0];
	r->unit_rows.end[0] = cut[1];
	r->unit_rows.n = 1;
	file_start = r->rg_first_row + cut[0];
	file_end = r->rg_first_row + cut[1];
	sel.n = 1;
	sel.start = &file_start;
	sel.end = &file_end;
	all = r->rows;
	if (!pm_pq_rows_intersect(&all, &sel, r->rg_first_row, r->rg_arena, &r->rows))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet row group");
	return PM_OK;
}

/* The rows of row group g to read (of its next unit when in units), loaded. */
static pm_code
enter_rows(pm_parquet_reader *r, int g, pm_error *err)
{
	r->rows.n = 0;
	r->cur_range = 0;
	r->unit_rows.n = 0;
	if (r->unit_claim != NULL)
	{
		int			u = r->unit_next++;
		pm_pq_rows	whole;

		if (!r->unit_claim(r->unit_ctx))
			return PM_OK;		/* another participant reads it */
		if (u == 0 && r->parts_taken != NULL)
			(*r->parts_taken)++;
		pm_arena_reset(r->rg_arena);
		PM_TRY(select_rows(r, g, err));
		whole = r->rows;
		PM_TRY(narrow_to_unit(r, g, u, err));
		/* one unit: its rows are the row group's (not copied, not selected again) */
		PM_TRY(plan_row_group(r, g, u > 0 ? NULL : r->nunits <= 1 ? &r->rows : &whole, err));
	}
	else
	{
		PM_TRY(select_rows(r, g, err));
		PM_TRY(plan_row_group(r, g, &r->rows, err));
	}
	r->others_loaded = false;
	return load_row_group(r, g, r->late ? PQ_LOAD_FILTER : PQ_LOAD_ALL, err);
}

/*
 * Does row group r->rg hold a row of r->rg_selection? Row groups are
 * visited in order: the selection's ranges wholly before it are passed
 * for good.
 */
static bool
rg_selected(pm_parquet_reader *r)
{
	const pm_row_selection *sel = r->rg_selection;

	while (r->rg_sel_at < sel->n && sel->end[r->rg_sel_at] <= r->rg_first_row)
		r->rg_sel_at++;
	return r->rg_sel_at < sel->n &&
		sel->start[r->rg_sel_at] < r->rg_first_row + r->md.row_groups[r->rg].num_rows;
}

/*
 * Move to the next row to read (r->rg, r->rg_done inside a range of
 * r->rows), entering and loading row groups; *eof at the end of the file.
 */
static pm_code
position(pm_parquet_reader *r, bool *eof, pm_error *err)
{
	*eof = false;
	for (;;)
	{
		if (r->rg >= 0)
		{
			/* the next row to read: in the current range or the next one */
			while (r->cur_range < r->rows.n && r->rows.end[r->cur_range] <= r->rg_done)
				r->cur_range++;
			if (r->cur_range < r->rows.n)
			{
				if (r->rg_done < r->rows.start[r->cur_range])
					r->rg_done = r->rows.start[r->cur_range];
				return PM_OK;
			}
			if (r->unit_claim != NULL && r->unit_next < r->nunits)
			{
				PM_TRY(enter_rows(r, r->rg, err));	/* the row group's next unit */
				continue;
			}
			r->rg_first_row += r->md.row_groups[r->rg].num_rows;
		}
		if (r->rg + 1 >= r->md.nrow_groups)
		{
			*eof = true;
			return PM_OK;
		}
		r->rg++;
		r->rg_done = 0;
		r->rows.n = 0;
		r->cur_range = 0;
		if (r->md.row_groups[r->rg].num_rows == 0)
			continue;
		/*
		 * A row group without a selected row (a point lookup's key rows, a
		 * file index's) is skipped before its statistics are decoded: in a
		 * file of many row groups, that was most of a lookup.
		 */
		if (r->rg_selection != NULL && !rg_selected(r))
		{
			/* in parallel, counted by the participant that takes it */
			if ((r->unit_claim == NULL || r->unit_claim(r->unit_ctx)) &&
				r->parts_unselected != NULL)
				(*r->parts_unselected)++;
			continue;
		}
		pm_arena_reset(r->rg_arena);
		if (r->part_filter != NULL && r->part_no_stats)
		{
			/* it holds a selected row, which matches (a lookup's key) */
			if (!r->part_filter(r->part_filter_ctx, NULL, 0, r->md.row_groups[r->rg].num_rows))
				continue;
		}
		else if (r->part_filter != NULL)
		{
			pm_pq_row_group_ranges(&r->md, &r->plan, r->rg, r->rg_arena, r->ranges);
			if (!r->part_filter(r->part_filter_ctx, r->ranges, r->plan.ncols,
								r->md.row_groups[r->rg].num_rows))
				continue;
		}
		if (r->unit_claim != NULL)
			count_units(r, r->rg);
		PM_TRY(enter_rows(r, r->rg, err));
	}
}

/*
 * Decode row group rows [row, row + n) of the filter columns (filter) or
 * of the others (!filter); of every column when not late.
 */
static pm_code
read_columns(pm_parquet_reader *r, bool filter, int64_t row, int64_t n, pm_error *err)
{
	if (!r->others_loaded && (!filter || !r->late))
		PM_TRY(load_row_group(r, r->rg, PQ_LOAD_OTHERS, err));
	for (int i = 0; i < r->plan.nleaves; i++)
	{
		if (r->late && r->filter_leaf[i] != filter)
			continue;
		if (r->lpages != NULL)
			PM_TRY(leaf_seek(r, r->plan.leaves[i], row, err));
		PM_TRY(read_leaf_rows(r, r->plan.leaves[i], n, err));
	}
	for (int i = 0; i < r->plan.ncols; i++)
	{
		pm_pq_anode *an = r->plan.cols[i];

		if (r->late && r->filter_col[i] != filter)
			continue;
		if (an->kind == PM_PQ_AN_MISSING &&
			!pm_pq_anode_append_nulls(an, n, r->batch_arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory for a parquet batch");
		if (an->vec->length != n || !pm_pq_anode_consistent(an))
			return pm_fail(err, PM_ERR_CORRUPT,
						   "inconsistent levels in parquet column \"%s\" (%lld rows in a batch of %lld)",
						   r->request->fields[i].name, (long long) an->vec->length,
						   (long long) n);
		PM_TRY(pm_pq_anode_expand(an, r->batch_arena, err));
		pm_pq_anode_finish(an);
	}
	return PM_OK;
}

/* Keep values [lo, hi) of a flat vector (late materialization). */
static bool
slice_vector(pm_vector *v, int64_t lo, int64_t hi, pm_arena *arena)
{
	if (v->nulls != NULL)
		v->nulls += lo;
	if (v->nanos != NULL)
		v->nanos += lo;
	if (v->offsets != NULL)
	{
		int32_t    *o = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (hi - lo + 1));
		int32_t		base = v->offsets[lo];

		if (o == NULL)
			return false;
		for (int64_t k = 0; k <= hi - lo; k++)
			o[k] = v->offsets[lo + k] - base;
		if (base > 0)
			v->data += base;
		v->data_size = o[hi - lo];
		v->offsets = o;
	}
	else if (v->values != NULL && lo > 0)
		v->values = (uint8_t *) v->values + lo * pm_type_value_size(v->type->id);
	v->length = hi - lo;
	return true;
}

static pm_code
parquet_next(pm_format_reader *base, pm_batch **out, pm_error *err)
{
	pm_parquet_reader *r = (pm_parquet_reader *) base;
	pm_batch   *b = &r->batch;
	pm_code		rc = PM_OK;

	*out = NULL;
	if (r->failed)
		return fail_path(r, err, pm_fail(err, PM_ERR_INVALID, "parquet reader used after an error"));
	for (;;)
	{
		bool		eof;
		int64_t		nrows,
					lo = 0,
					hi;

		rc = position(r, &eof, err);
		if (rc != PM_OK || eof)
			break;
		nrows = r->rows.end[r->cur_range] - r->rg_done;
		if (nrows > r->batch_size)
			nrows = r->batch_size;
		hi = nrows;
		pm_arena_reset(r->batch_arena);
		memset(b, 0, sizeof(*b));
		b->ncols = r->plan.ncols;
		b->cols = pm_arena_zalloc(r->batch_arena, sizeof(pm_vector) * (size_t) (b->ncols + 1));
		if (b->cols == NULL)
			return fail_path(r, err, pm_fail(err, PM_ERR_NOMEM, "out of memory for a parquet batch"));
		for (int i = 0; i < b->ncols; i++)
			if (!pm_pq_anode_setup(r->plan.cols[i], &b->cols[i], nrows, r->batch_arena))
				return fail_path(r, err, pm_fail(err, PM_ERR_NOMEM, "out of memory for a parquet batch"));
		if (r->late)
		{
			uint8_t    *sel = pm_arena_zalloc(r->batch_arena, (size_t) nrows);

			if (sel == NULL)
				return fail_path(r, err, pm_fail(err, PM_ERR_NOMEM, "out of memory for a parquet batch"));
			rc = read_columns(r, true, r->rg_done, nrows, err);
			if (rc != PM_OK)
				break;
			b->nrows = nrows;
			b->first_row = r->rg_first_row + r->rg_done;
			rc = r->row_filter(r->part_filter_ctx, b, sel, err);
			if (rc != PM_OK)
				break;
			while (lo < nrows && sel[lo] == 0)
				lo++;
			while (hi > lo && sel[hi - 1] == 0)
				hi--;
			if (lo == hi)
			{
				r->rg_done += nrows;	/* no row kept: the other columns are not decoded */
				r->late_batches++;
				r->late_rows += nrows;
				continue;
			}
			for (int i = 0; i < b->ncols; i++)
				if (r->filter_col[i] && !slice_vector(&b->cols[i], lo, hi, r->batch_arena))
					return fail_path(r, err, pm_fail(err, PM_ERR_NOMEM, "out of memory for a parquet batch"));
			rc = read_columns(r, false, r->rg_done + lo, hi - lo, err);
			if (rc != PM_OK)
				break;
			r->late_batches++;
			r->late_rows += nrows;
			r->late_kept += hi - lo;
			if (!r->late_always && r->late_batches >= LATE_PROBE &&
				r->late_kept * 2 > r->late_rows)
				r->late = false;	/* no gain here: every column at once from now on */
			b->nrows = hi - lo;
			b->first_row = r->rg_first_row + r->rg_done + lo;
			r->rg_done += nrows;
			*out = b;
			return PM_OK;
		}
		rc = read_columns(r, false, r->rg_done + lo, hi - lo, err);
		if (rc != PM_OK)
			break;
		b->nrows = hi - lo;
		b->first_row = r->rg_first_row + r->rg_done + lo;
		r->rg_done += nrows;
		*out = b;
		return PM_OK;
	}
	if (rc != PM_OK)
	{
		r->failed = true;
		return fail_path(r, err, rc);
	}
	return PM_OK;
}

static int64_t
parquet_row_count(pm_format_reader *base)
{
	return ((pm_parquet_reader *) base)->md.num_rows;
}

static void
parquet_close(pm_format_reader *base)
{
	pm_parquet_reader *r = (pm_parquet_reader *) base;
	const pm_env *env;

	if (r == NULL)
		return;
	env = r->env;
	for (int i = 0; i < r->npins; i++)
		pm_meta_cache_unpin(r->pins[i]);
	pm_free(env, r->pins);
	if (r->md_arena != NULL)
		pm_arena_destroy(r->md_arena);
	pm_pq_plan_release(&r->plan);
	if (r->file != NULL)
		pm_file_close(r->io, r->file);
	pm_arena_destroy(r->batch_arena);
	pm_arena_destroy(r->rg_arena);
	pm_arena_destroy(r->arena);
	pm_free(env, r);
}

/*
 * Late materialization when every requested column is a flat leaf (or
 * absent) and the filter reads some of them (r->late; else off).
 */
static pm_code
setup_late(pm_parquet_reader *r, const pm_format_read_options *options, pm_error *err)
{
	bool		any = false;

	for (int i = 0; i < r->plan.ncols; i++)
	{
		pm_pq_anode *an = r->plan.cols[i];

		if (an->kind != PM_PQ_AN_MISSING &&
			(an->kind != PM_PQ_AN_LEAF || pm_pq_flat_leaf_of(&r->plan, an) == NULL))
			return PM_OK;
		any |= options->row_filter_cols[i];
	}
	if (!any)
		return PM_OK;
	r->filter_col = pm_arena_zalloc(r->arena, sizeof(bool) * (size_t) (r->plan.ncols + 1));
	r->filter_leaf = pm_arena_zalloc(r->arena, sizeof(bool) * (size_t) (r->plan.nleaves + 1));
	if (r->filter_col == NULL || r->filter_leaf == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a parquet file");
	for (int i = 0; i < r->plan.ncols; i++)
	{
		r->filter_col[i] = options->row_filter_cols[i];
		for (int k = 0; k < r->plan.nleaves; k++)
			if (r->plan.leaves[k]->leaf_an == r->plan.cols[i])
				r->filter_leaf[k] = r->filter_col[i];
	}
	r->row_filter = options->row_filter;
	r->part_filter_ctx = options->part_filter_ctx;
	r->late = true;
	r->late_always = options->row_filter_tightens;
	return PM_OK;
}

static const pm_format_reader_ops parquet_ops = {
	parquet_next,
	parquet_row_count,
	parquet_close
};

pm_code
pm_parquet_reader_open(const pm_env *env, pm_fileio *io, const char *path,
					   const pm_format_read_options *options,
					   pm_format_reader **out, pm_error *err)
{
	pm_parquet_reader *r;
	pm_code		rc;

	*out = NULL;
	if (options == NULL || options->schema == NULL)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_INVALID, "no schema requested from the parquet reader");
	}
	r = pm_alloc(env, sizeof(pm_parquet_reader));
	if (r == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a parquet file");
	memset(r, 0, sizeof(*r));
	r->base.ops = &parquet_ops;
	r->env = env;
	r->io = io;
	r->rg = -1;
	r->request = options->schema;
	r->batch_size = options->batch_size > 0 ? options->batch_size : PM_DEFAULT_BATCH_SIZE;
	r->arena = pm_arena_create(env);
	r->rg_arena = pm_arena_create(env);
	r->batch_arena = pm_arena_create(env);
	if (r->arena == NULL || r->rg_arena == NULL || r->batch_arena == NULL ||
		(r->path = pm_arena_strdup(r->arena, path)) == NULL)
	{
		parquet_close(&r->base);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a parquet file");
	}
	r->known_size = options->file_size;
	rc = read_footer(r, err);
	if (rc == PM_OK)
		pm_page_file_init(&r->page_file, r->path, (int64_t) r->file_size);
	if (rc == PM_OK)
		rc = pm_pq_plan_build(options->schema, &r->md, env, r->arena, &r->plan, err);
	if (rc == PM_OK && options->part_filter != NULL)
	{
		r->part_filter = options->part_filter;
		r->part_filter_ctx = options->part_filter_ctx;
		r->ranges = pm_arena_zalloc(r->arena, sizeof(pm_field_range) * (size_t) (r->plan.ncols + 1));
		if (r->ranges == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory opening a parquet file");
	}
	r->rg_selection = options->row_selection;
	r->part_no_stats = options->part_filter_no_stats && options->row_selection != NULL;
	r->parts_unselected = options->parts_unselected;
	r->unit_claim = options->unit_claim;
	r->unit_ctx = options->part_filter_ctx;
	r->parts_taken = options->parts_taken;
	r->chunk_buffers = options->chunk_buffers;
	if (rc == PM_OK && (options->page_filter != NULL || options->row_selection != NULL ||
						(options->row_filter != NULL && options->row_filter_cols != NULL) ||
						(options->unit_claim != NULL && options->unit_bytes > 0)))
	{
		r->all_flat = true;
		for (int i = 0; i < r->plan.nleaves; i++)
			r->all_flat &= r->plan.leaves[i]->col.max_rep == 0;
		if (r->all_flat && r->plan.nleaves > 0)
		{
			r->page_filter = r->part_filter != NULL ? options->page_filter : NULL;
			r->row_selection = options->row_selection;
			r->pages_total = options->pages_total;
			r->pages_skipped = options->pages_skipped;
			r->unit_bytes = options->unit_claim != NULL ? options->unit_bytes : 0;
			if (options->row_filter != NULL && options->row_filter_cols != NULL)
				rc = setup_late(r, options, err);
			r->lidx = pm_arena_zalloc(r->arena, sizeof(pm_pq_leaf_index) * (size_t) r->plan.nleaves);
			r->lpages = pm_arena_zalloc(r->arena, sizeof(pq_leaf_pages) * (size_t) r->plan.nleaves);
			if (r->lidx == NULL || r->lpages == NULL)
				rc = pm_fail(err, PM_ERR_NOMEM, "out of memory opening a parquet file");
		}
	}
	if (rc != PM_OK)
	{
		pm_error_set_path(err, path);
		parquet_close(&r->base);
		return rc;
	}
	*out = &r->base;
	return PM_OK;
}
