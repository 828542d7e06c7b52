/*-------------------------------------------------------------------------
 * fuzz_parquet.c
 *	  libFuzzer harness of the Parquet reader (pm_parquet_reader_open +
 *	  next).
 *
 * Input: a whole Parquet file, served by the in-memory FileIO. It is read
 * twice: with a fixed ROW type naming the columns of the corpus seeds
 * (maps, lists, rows, INT96/INT64 timestamps, decimals, strings, absent
 * fields) and with the type the file's own footer stands for; each again
 * with a part filter that skips every other row group by its statistics,
 * and once more with a page filter that skips every other piece of a row
 * group by its page index (ColumnIndex/OffsetIndex decoding, page
 * skipping), a row selection and a row filter on the first column that
 * keeps a few rows per batch (late materialization: the other columns
 * decoded for a span, pages before it passed undecoded); that read twice
 * more through the page cache (the second from its pages). Then, with the
 * metadata cache on too, a lookup's few rows (3..5 and 40) of the file's
 * flat columns: read by the reader, which caches their pages, then from
 * the caches alone (parquet_row_fetch.h), which must give the same values.
 * Properties: an error sets err->code and the path; batches never exceed
 * the batch size and number rows consecutively; offsets are monotonic and
 * inside their data / child vectors; nulls are 0/1; nanos stay below 1000.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "format/parquet/parquet_reader.h"
#include "format/parquet/parquet_row_fetch.h"
#include "format/parquet/parquet_schema.h"
#include "io/memory_fileio.h"
#include "part_filter.h"

#define BATCH 50

static void
check_vector(const pm_vector *v, int64_t n)
{
	if (!pm_vector_valid(v, n))
		abort();
}

/* Rows 3..9, 40..99 and from 130 on: a file index's selection. */
static const int64_t sel_start[] = {3, 40, 130};
static const int64_t sel_end[] = {10, 100, INT64_MAX};
static const pm_row_selection selection = {3, sel_start, sel_end};

/* Row filter of the paged read: rows whose file position is 3 mod 7, after a check of the batch. */
static pm_code
keep_some_rows(void *ctx, const pm_batch *b, uint8_t *sel, pm_error *err)
{
	const pm_type *schema = ctx;

	(void) err;
	if (b->nrows <= 0 || b->ncols != schema->nfields || b->cols[0].length != b->nrows)
		abort();
	check_vector(&b->cols[0], b->nrows);
	for (int64_t i = 0; i < b->nrows; i++)
		sel[i] = (b->first_row + i) % 7 == 3;
	return PM_OK;
}

static void
read_with(pm_fileio *io, const pm_type *schema, bool filtered, bool paged)
{
	pm_format_read_options opt = {.schema = schema, .batch_size = BATCH};
	int64_t		pages_total = 0,
				pages_skipped = 0;
	bool	   *first_column = NULL;	/* row filter: the first column */
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		total = 0;
	int64_t		next = 0;		/* first row the next batch may start at */

	if (filtered)
	{
		opt.part_filter = skip_every_other;
		opt.part_filter_ctx = (void *) schema;
		parts_seen = 0;
	}
	if (paged)
	{
		opt.page_filter = skip_every_other_page;
		opt.row_selection = &selection;
		opt.pages_total = &pages_total;
		opt.pages_skipped = &pages_skipped;
		if (schema->nfields > 0 && (first_column = calloc((size_t) schema->nfields, 1)) != NULL)
		{
			first_column[0] = true;
			opt.row_filter = keep_some_rows;
			opt.row_filter_cols = first_column;
		}
	}
	pm_error_clear(&err);
	if (pm_parquet_reader_open(pm_env_default(), io, "/f", &opt, &r, &err) != PM_OK)
	{
		if (err.code == PM_OK || strcmp(err.path, "/f") != 0)
			abort();
		free(first_column);
		return;
	}
	for (int iter = 0; iter < 100000; iter++)
	{
		pm_error_clear(&err);
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
		{
			if (err.code == PM_OK || strcmp(err.path, "/f") != 0)
				abort();
			break;
		}
		if (b == NULL)
		{
			if (filtered ? total > pm_format_reader_row_count(r) : total != pm_format_reader_row_count(r))
				abort();
			break;
		}
		if (b->nrows <= 0 || b->nrows > BATCH || (filtered ? b->first_row < next : b->first_row != total) ||
			b->ncols != schema->nfields)
			abort();
		for (int c = 0; c < b->ncols; c++)
			check_vector(&b->cols[c], b->nrows);
		total += b->nrows;
		next = b->first_row + b->nrows;
	}
	if (pages_skipped < 0 || pages_skipped > pages_total)
		abort();
	pm_format_reader_close(r);
	free(first_column);
}

/* Rows 3..5 and 40: a point lookup's few rows. */
static const int64_t few_start[] = {3, 40};
static const int64_t few_end[] = {6, 41};

/* Row i of a and row j of b hold the same value (flat vectors of one type). */
static bool
same_value(const pm_vector *a, int64_t i, const pm_vector *b, int64_t j)
{
	int			size = pm_type_value_size(a->type->id);
	bool		na = pm_vector_is_null(a, i);

	if (na != pm_vector_is_null(b, j))
		return false;
	if (na)
		return true;
	if ((a->nanos != NULL ? a->nanos[i] : 0) != (b->nanos != NULL ? b->nanos[j] : 0))
		return false;
	if (pm_type_is_varlen(a->type->id))
	{
		int32_t		la = a->offsets[i + 1] - a->offsets[i];

		return la == b->offsets[j + 1] - b->offsets[j] &&
			(la == 0 || memcmp(a->data + a->offsets[i], b->data + b->offsets[j], (size_t) la) == 0);
	}
	return size <= 0 ||
		memcmp((const uint8_t *) a->values + (size_t) i * (size_t) size,
			   (const uint8_t *) b->values + (size_t) j * (size_t) size, (size_t) size) == 0;
}

/* A reader of schema at the few rows (caching what it reads), or NULL. */
static pm_format_reader *
open_few(pm_fileio *io, size_t size, const pm_type *schema, const pm_row_selection *few)
{
	pm_format_read_options opt;
	pm_format_reader *r;
	pm_error	err;

	memset(&opt, 0, sizeof(opt));
	opt.schema = schema;
	opt.batch_size = BATCH;
	opt.row_selection = few;
	opt.file_size = (int64_t) size;
	pm_error_clear(&err);
	if (pm_parquet_reader_open(pm_env_default(), io, "/f", &opt, &r, &err) != PM_OK)
		return NULL;
	return r;
}

/*
 * The file's flat columns (own: its footer's type) at the few rows: read
 * by the reader (caching their footer, page indexes and pages), then from
 * the caches alone, then by the reader again, row by row the same values.
 */
static void
fetch_compare(pm_fileio *io, size_t size, const pm_type *own, pm_arena *a)
{
	pm_field	flat[64];
	int			n = 0;
	const pm_type *schema;
	pm_row_selection few = {2, few_start, few_end};
	pm_format_reader *r;
	pm_batch   *b;
	pm_batch   *fetched = NULL;
	pm_pq_fetch_counts counts = {NULL, NULL, NULL, NULL};
	pm_error	err;

	for (int i = 0; i < own->nfields && n < 64; i++)
		if (!pm_type_is_nested(own->fields[i].type->id))
			flat[n++] = own->fields[i];
	if (n == 0 || (schema = pm_type_new_row(a, flat, n, true)) == NULL ||
		(r = open_few(io, size, schema, &few)) == NULL)
		return;
	do
		pm_error_clear(&err);
	while (pm_format_reader_next(r, &b, &err) == PM_OK && b != NULL);
	pm_format_reader_close(r);

	pm_error_clear(&err);
	if (pm_parquet_fetch_cached(pm_env_default(), "/f", (int64_t) size, schema, &few, &counts,
								a, &fetched, &err) != PM_OK)
	{
		if (err.code == PM_OK)
			abort();
		return;
	}
	if (fetched == NULL || (r = open_few(io, size, schema, &few)) == NULL)
		return;
	for (int k = 0; k < 2; k++)
	{
		if (fetched[k].first_row != few_start[k] || fetched[k].ncols != n ||
			fetched[k].nrows != few_end[k] - few_start[k])
			abort();
		for (int c = 0; c < n; c++)
			check_vector(&fetched[k].cols[c], fetched[k].nrows);
	}
	/* each of the reader's rows is in a fetched range, with the same values */
	for (;;)
	{
		pm_error_clear(&err);
		if (pm_format_reader_next(r, &b, &err) != PM_OK || b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		pos = b->first_row + i;
			int			k = pos < few_end[0] ? 0 : 1;

			if (pos < few_start[k] || pos >= few_end[k])
				abort();
			for (int c = 0; c < n; c++)
				if (!same_value(&b->cols[c], i, &fetched[k].cols[c], pos - few_start[k]))
					abort();
		}
	}
	pm_format_reader_close(r);
}

static pm_type *
T(pm_arena *a, pm_type_id id, int precision)
{
	pm_type    *t = pm_type_new(a, id, true);

	if (precision >= 0)
		t->precision = precision;
	return t;
}

static const pm_type *
ROW(pm_arena *a, int n, const char **names, const pm_type **types)
{
	pm_field	f[16];

	memset(f, 0, sizeof(f));
	for (int i = 0; i < n; i++)
	{
		f[i].id = i;
		f[i].name = names[i];
		f[i].type = types[i];
	}
	return pm_type_new_row(a, f, n, true);
}

/* The columns of the seeds: parquet_append_table, complex tables, timestamps. */
static const pm_type *
fixed_schema(pm_arena *a)
{
	const char *rn[] = {"f0", "f1", "zz"};
	const pm_type *rt[] = {T(a, PM_TYPE_BOOLEAN, -1), T(a, PM_TYPE_BIGINT, -1),
	T(a, PM_TYPE_INT, -1)};
	const pm_type *row = ROW(a, 3, rn, rt);
	const char *names[] = {"f1", "f2", "f3", "f4", "f5", "f6", "f8", "f10", "f11", "ts_nano",
	"ts_milli", "_KEY_f0", "absent"};
	const pm_type *types[] = {
		pm_type_new_map(a, T(a, PM_TYPE_TINYINT, -1), T(a, PM_TYPE_SMALLINT, -1), true),
		pm_type_new_array(a, T(a, PM_TYPE_FLOAT, -1), true),
		row,
		T(a, PM_TYPE_TIMESTAMP, 9),
		T(a, PM_TYPE_DATE, -1),
		pm_type_new_decimal(a, 2, 2, true),
		T(a, PM_TYPE_VARCHAR, -1),
		pm_type_new_map(a, pm_type_new_array(a, T(a, PM_TYPE_FLOAT, -1), true), row, true),
		T(a, PM_TYPE_TIMESTAMP, 9),
		T(a, PM_TYPE_TIMESTAMP, 9),
		T(a, PM_TYPE_TIMESTAMP, 3),
		T(a, PM_TYPE_VARCHAR, -1),
		T(a, PM_TYPE_INT, -1)
	};

	return ROW(a, 13, names, types);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_error	err;
	pm_pq_metadata md;
	const pm_type *own;

	pm_error_clear(&err);
	if (a == NULL || io == NULL || pm_memory_fileio_add(io, "/f", data, size, &err) != PM_OK)
		abort();
	read_with(io, fixed_schema(a), false, false);
	read_with(io, fixed_schema(a), true, false);
	read_with(io, fixed_schema(a), true, true);
	pm_error_clear(&err);
	if (pm_pq_metadata_from_file_bytes(data, size, a, &md, &err) == PM_OK &&
		pm_pq_schema_to_type(&md, a, &own, &err) == PM_OK)
	{
		read_with(io, own, false, false);
		read_with(io, own, true, false);
		read_with(io, own, true, true);

		/*
		 * The paged read again through the page cache, twice: the second
		 * finds the pages of the first (a chunk whose pieces are all
		 * cached gets no buffer). Cleared after: the next input is another
		 * "/f".
		 */
		pm_page_lru_set_budget(16 * 1024 * 1024);
		read_with(io, own, true, true);
		read_with(io, own, true, true);
		pm_meta_cache_set_budget(16 * 1024 * 1024);
		fetch_compare(io, size, own, a);
		pm_meta_cache_set_budget(0);
		pm_page_lru_set_budget(0);
	}
	if (pm_memory_fileio_open_files(io) != 0)
		abort();
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
	return 0;
}
