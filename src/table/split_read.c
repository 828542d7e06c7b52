/*-------------------------------------------------------------------------
 * split_read.c
 *	  Read data files with schema evolution, and pm_scan_reader over the
 *	  splits of an append table.
 *
 * A data file is read by asking its format reader for the columns the
 * wanted table fields had in the file's own schema (_SCHEMA_ID): matched by
 * field id, requested by the file's names and types (§3.6). A field the
 * file lacks is all NULL; a type that changed since is cast where Java's
 * CastExecutors would for the simple cases (integer widening, integer ->
 * FLOAT/DOUBLE, FLOAT -> DOUBLE, DECIMAL scale-up, DATE -> TIMESTAMP,
 * CHAR <-> VARCHAR, BINARY <-> VARBINARY, timestamp precision, integer /
 * BOOLEAN / DECIMAL / DATE -> STRING); anything
 * else is PM_ERR_UNSUPPORTED naming the column. Nested ROW fields are
 * matched by field id as well.
 *
 * Must not merge (src/lsm/ does) nor apply deletion vectors (src/index/).
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "format/parquet/parquet_row_fetch.h"
#include "table/batch_filter.h"
#include "table/split.h"
#include "table/stats_filter.h"
#include "table/table_int.h"
#include "table/table_options.h"

#define KEY_FIELD_PREFIX "_KEY_"

struct pm_data_file_reader
{
	pm_table   *table;
	const pm_data_file_meta *file;
	pm_arena   *arena;			/* reader lifetime */
	pm_arena   *batch_arena;	/* reset per batch */
	pm_format_reader *reader;	/* NULL: only row counts are wanted */
	int			nout;
	const pm_type **out_types;	/* table types */
	int		   *out_src;		/* column of the reader's batch, -1 = NULL */
	const char **out_names;		/* for messages */
	int			nrequest;
	const pm_type **request_types;	/* file types of the requested columns */
	int		   *out_field;		/* table field of each output, -1 = system */
	pm_read_filter filter;		/* pred NULL: no pruning inside the file */
	bool	   *prunes;			/* per table field: may prune parts */
	pm_field_range *table_ranges;	/* per table field, for part_may_match */
	int		   *filter_col;		/* per table field: its column in the reader's batch */
	const pm_predicate *row_pred;	/* late materialization's filter */
	int			row_keep_col;	/* filter.row_keep's column in the reader's batch */
	pm_batch	batch;
	int64_t		position;
	int			batch_size;
	struct key_sampler *sampler;	/* pm_data_file_key_pieces only */
	int			kv_flags;		/* PM_KV_* of pm_data_file_reader_open_kv */
	bool		reader_claims;	/* the format reader claims the units (Parquet) */
	/* rows fetched from the caches instead (fetch_placed): one batch per range */
	pm_batch   *fetched;
	int64_t		nfetched;
	int64_t		next_fetched;
};

static bool fetch_cached = true;
static int64_t fetches;

void
pm_data_file_fetch_cached(bool on)
{
	fetch_cached = on;
}

int64_t
pm_data_file_fetches(void)
{
	return fetches;
}

/* out_src of system columns taken from the file's metadata, not read */
#define SRC_NULL			(-1)
#define SRC_FILE_SEQUENCE	(-2)	/* the file's _MAX_SEQUENCE_NUMBER */
#define SRC_KIND_INSERT		(-3)	/* +I */

/*
 * Table option orc.timestamp-ltz.legacy.type (Paimon's OrcOptions, default
 * true; parsed as Java's Options: true/false, any case): false means the
 * ORC files hold TIMESTAMP_LTZ values as plain instants.
 */
static pm_code
orc_ltz_instant(const pm_schema *s, bool *out, pm_error *err)
{
	const char *key = "orc.timestamp-ltz.legacy.type";
	const char *v = pm_schema_option(s, key);

	*out = v != NULL && strcasecmp(v, "false") == 0;
	if (v != NULL && !*out && strcasecmp(v, "true") != 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "table option \"%s\" must be true or false, not \"%s\"", key, v);
	return PM_OK;
}

/* ---- casts ------------------------------------------------------------- */

static bool
same_repr(const pm_type *a, const pm_type *b)
{
	if (pm_type_is_string(a->id) && pm_type_is_string(b->id))
		return true;
	if ((a->id == PM_TYPE_BINARY || a->id == PM_TYPE_VARBINARY) &&
		(b->id == PM_TYPE_BINARY || b->id == PM_TYPE_VARBINARY))
		return true;
	if (a->id != b->id)
		return false;
	if (a->id == PM_TYPE_DECIMAL)
		return a->scale == b->scale;
	return true;
}

/* Text of one value as Java's CastExecutors write it (numeric/date -> string). */
static int
value_text(const pm_vector *v, int64_t i, char *buf, size_t cap)
{
	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
			return snprintf(buf, cap, "%s", PM_VEC_VALUES(v, uint8_t)[i] ? "true" : "false");
		case PM_TYPE_DATE:
			{
				int64_t		z = (int64_t) PM_VEC_VALUES(v, int32_t)[i] + 719468;
				int64_t		era = (z >= 0 ? z : z - 146096) / 146097;
				int64_t		doe = z - era * 146097;
				int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
				int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
				int64_t		mp = (5 * doy + 2) / 153;
				int			d = (int) (doy - (153 * mp + 2) / 5 + 1);
				int			m = (int) (mp < 10 ? mp + 3 : mp - 9);

				return snprintf(buf, cap, "%04lld-%02d-%02d", (long long) (yoe + era * 400 + (m <= 2)), m, d);
			}
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = PM_VEC_VALUES(v, pm_int128)[i];
				unsigned __int128 u = x < 0 ? (unsigned __int128) (-(x + 1)) + 1 : (unsigned __int128) x;
				char		digits[64];
				int			n = 0,
							len = 0,
							scale = v->type->scale;

				do
				{
					digits[n++] = (char) ('0' + (int) (u % 10));
					u /= 10;
				} while (u > 0 && n < 60);
				while (n <= scale && n < 60)
					digits[n++] = '0';
				if (x < 0)
					buf[len++] = '-';
				for (int k = n - 1; k >= 0 && (size_t) len + 2 < cap; k--)
				{
					buf[len++] = digits[k];
					if (k == scale && scale > 0)
						buf[len++] = '.';
				}
				buf[len] = '\0';
				return len;
			}
		default:
			return snprintf(buf, cap, "%lld", (long long) pm_vector_int64_at(v, i));
	}
}

static pm_code
cast_to_string(const pm_vector *src, pm_arena *arena, pm_vector *dst, pm_error *err)
{
	int64_t		n = src->length;
	int64_t		cap = 0;

	dst->values = NULL;
	dst->data = NULL;
	dst->data_size = 0;
	dst->offsets = pm_arena_zalloc(arena, sizeof(int32_t) * (size_t) (n + 1));
	if (dst->offsets == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t i = 0; i < n; i++)
	{
		char		text[96];
		int			len = 0;

		if (!pm_vector_is_null(src, i))
			len = value_text(src, i, text, sizeof(text));
		if (len > 0 && !pm_vector_append_data(dst, &cap, text, len, arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		dst->offsets[i + 1] = (int32_t) dst->data_size;
	}
	return PM_OK;
}

static pm_code cast_vector(const pm_vector *src, const pm_type *to, pm_arena *arena,
						   pm_vector *dst, const char *column, int depth, pm_error *err);

static pm_code
cast_children(const pm_vector *src, const pm_type *to, pm_arena *arena, pm_vector *dst,
			  const char *column, int depth, pm_error *err)
{
	const pm_type *from = src->type;

	if (to->id == PM_TYPE_ROW)
	{
		dst->nchildren = to->nfields;
		dst->children = pm_arena_zalloc(arena, sizeof(pm_vector) * (to->nfields + 1));
		if (dst->children == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int j = 0; j < to->nfields; j++)
		{
			int			k = pm_type_field_index_by_id(from, to->fields[j].id);

			if (k < 0 || k >= src->nchildren)
			{
				if (!pm_vector_init_all_null(&dst->children[j], to->fields[j].type,
											 src->length, arena))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			}
			else
				PM_TRY(cast_vector(&src->children[k], to->fields[j].type, arena,
								   &dst->children[j], column, depth + 1, err));
		}
		return PM_OK;
	}
	if (to->id == PM_TYPE_ARRAY || to->id == PM_TYPE_MULTISET || to->id == PM_TYPE_MAP)
	{
		int			n = to->id == PM_TYPE_MAP ? 2 : 1;

		if (src->nchildren != n)
			return pm_fail(err, PM_ERR_CORRUPT, "column \"%s\" has a malformed nested vector", column);
		dst->nchildren = n;
		dst->children = pm_arena_zalloc(arena, sizeof(pm_vector) * n);
		if (dst->children == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(cast_vector(&src->children[0], to->element, arena, &dst->children[0], column,
						   depth + 1, err));
		if (n == 2)
			PM_TRY(cast_vector(&src->children[1], to->value, arena, &dst->children[1], column,
							   depth + 1, err));
	}
	return PM_OK;
}

static pm_code
cast_vector(const pm_vector *src, const pm_type *to, pm_arena *arena, pm_vector *dst,
			const char *column, int depth, pm_error *err)
{
	const pm_type *from = src->type;
	int64_t		n = src->length;

	if (depth > 64)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "column \"%s\" is nested too deeply", column);
	if (same_repr(from, to))
	{
		*dst = *src;
		dst->type = to;
		if (pm_type_is_nested(to->id))
			return cast_children(src, to, arena, dst, column, depth, err);
		return PM_OK;
	}
	*dst = *src;
	dst->type = to;
	dst->nanos = NULL;
	if (pm_type_int_rank(from->id) > 0 && pm_type_int_rank(to->id) > pm_type_int_rank(from->id))
	{
		int			size = pm_type_value_size(to->id);

		dst->values = pm_arena_alloc(arena, (size_t) (n > 0 ? n : 1) * size);
		if (dst->values == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < n; i++)
		{
			int64_t		v = pm_vector_int64_at(src, i);

			switch (to->id)
			{
				case PM_TYPE_SMALLINT:
					PM_VEC_VALUES(dst, int16_t)[i] = (int16_t) v;
					break;
				case PM_TYPE_INT:
					PM_VEC_VALUES(dst, int32_t)[i] = (int32_t) v;
					break;
				default:
					PM_VEC_VALUES(dst, int64_t)[i] = v;
					break;
			}
		}
		return PM_OK;
	}
	if ((pm_type_int_rank(from->id) > 0 || from->id == PM_TYPE_FLOAT) &&
		(to->id == PM_TYPE_FLOAT || to->id == PM_TYPE_DOUBLE) && from->id != to->id)
	{
		dst->values = pm_arena_alloc(arena, (size_t) (n > 0 ? n : 1) * 8);
		if (dst->values == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < n; i++)
		{
			double		v = from->id == PM_TYPE_FLOAT ? (double) PM_VEC_VALUES(src, float)[i] :
				(double) pm_vector_int64_at(src, i);

			if (to->id == PM_TYPE_FLOAT)
				PM_VEC_VALUES(dst, float)[i] = (float) v;
			else
				PM_VEC_VALUES(dst, double)[i] = v;
		}
		return PM_OK;
	}
	if (from->id == PM_TYPE_DECIMAL && to->id == PM_TYPE_DECIMAL && to->scale > from->scale &&
		to->scale - from->scale <= 38)
	{
		pm_int128	mul = 1;

		for (int k = 0; k < to->scale - from->scale; k++)
			mul *= 10;
		dst->values = pm_arena_alloc(arena, (size_t) (n > 0 ? n : 1) * sizeof(pm_int128));
		if (dst->values == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < n; i++)
			PM_VEC_VALUES(dst, pm_int128)[i] = PM_VEC_VALUES(src, pm_int128)[i] * mul;
		return PM_OK;
	}
	if (from->id == PM_TYPE_DATE && to->id == PM_TYPE_TIMESTAMP)
	{
		dst->values = pm_arena_alloc(arena, (size_t) (n > 0 ? n : 1) * 8);
		if (dst->values == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < n; i++)
			PM_VEC_VALUES(dst, int64_t)[i] = (int64_t) PM_VEC_VALUES(src, int32_t)[i] * 86400000000LL;
		return PM_OK;
	}
	if (pm_type_is_string(to->id) &&
		(pm_type_int_rank(from->id) > 0 || from->id == PM_TYPE_BOOLEAN || from->id == PM_TYPE_DECIMAL ||
		 from->id == PM_TYPE_DATE))
		return cast_to_string(src, arena, dst, err);
	return pm_fail(err, PM_ERR_UNSUPPORTED,
				   "column \"%s\": reading %s data as %s is not supported", column,
				   pm_type_id_name(from->id), pm_type_id_name(to->id));
}

/* ---- data file reader -------------------------------------------------- */

static pm_code
add_request(pm_data_file_reader *r, pm_field *request, const char *name, const pm_type *type,
			int32_t id, int *index, pm_error *err)
{
	/* names differ where field ids do (a key's "_KEY_x" shares x's id) */
	for (int k = 0; k < r->nrequest; k++)
		if (request[k].id == id && strcmp(request[k].name, name) == 0)
		{
			*index = k;
			return PM_OK;
		}
	request[r->nrequest].name = name;
	request[r->nrequest].type = type;
	r->request_types[r->nrequest] = type;
	request[r->nrequest].id = id;
	request[r->nrequest].description = NULL;
	*index = r->nrequest++;
	return PM_OK;
}

/*
 * The format reader's part filter: the part's statistics of the requested
 * columns become ranges of the table fields read from them (a field the
 * file lacks is all NULL; min/max only where the file's type compares
 * like the table's), then the scan's filter decides.
 */
static void
fill_table_ranges(pm_data_file_reader *r, const pm_field_range *ranges, int nranges,
				  int64_t nrows)
{
	const pm_type *trow = r->table->schema->row_type;
	pm_field_range *tr = r->table_ranges;

	for (int f = 0; f < trow->nfields; f++)
	{
		memset(&tr[f], 0, sizeof(pm_field_range));
		tr[f].null_count = -1;
		tr[f].row_count = -1;
	}
	for (int o = 0; o < r->nout; o++)
	{
		int			f = r->out_field[o];
		int			src = r->out_src[o];

		if (f < 0 || f >= trow->nfields || !r->prunes[f])
			continue;
		if (src < 0)
		{
			tr[f].known = true;
			tr[f].row_count = nrows;
			tr[f].null_count = nrows;
			continue;
		}
		if (src >= nranges || !ranges[src].known)
			continue;
		tr[f] = ranges[src];
		if (!pm_stats_type_compatible(r->out_types[o], r->request_types[src]))
			tr[f].has_min_max = false;
	}
}

static bool
ranges_may_match(pm_data_file_reader *r, const pm_field_range *ranges, int nranges,
				 int64_t nrows)
{
	const pm_type *trow = r->table->schema->row_type;

	fill_table_ranges(r, ranges, nranges, nrows);
	return r->filter.pred == NULL ||
		pm_stats_filter_may_match(r->filter.pred, trow, r->table_ranges, trow->nfields);
}

/*
 * Whether the parts of the file (row groups, stripes) are counted: where a
 * stage could skip them (not for the page index alone).
 */
static bool
counts_parts(const pm_data_file_reader *r)
{
	return r->filter.counts != NULL &&
		((r->filter.parts && r->filter.pred != NULL) || r->filter.keep != NULL);
}

/*
 * Row groups and stripes: the scan's filter (when row-group pruning is on),
 * then the caller's keep test (top-N), then the parallel claim; counted
 * (EXPLAIN ANALYZE).
 *
 * In parallel every participant tests every part, in the same order and
 * with the same result (no keep test: top-N is not parallel), and each
 * part is counted by one of them: a pruned part takes a unit number too,
 * counted by the participant that takes it; a kept stripe by the one that
 * reads it; a kept row group by the Parquet reader that takes its first
 * unit (parts_taken).
 */
static bool
part_may_match(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	pm_data_file_reader *r = ctx;
	const pm_type *trow = r->table->schema->row_type;
	bool		keep = true;

	if (ranges == NULL)
		keep = true;			/* part_filter_no_stats: it holds a lookup's key */
	else if (r->filter.parts && r->filter.pred != NULL)
		keep = ranges_may_match(r, ranges, nranges, nrows);
	else if (r->filter.keep != NULL)
		fill_table_ranges(r, ranges, nranges, nrows);
	if (keep && r->filter.keep != NULL)
		keep = r->filter.keep(r->filter.keep_ctx, r->table_ranges, trow->nfields);
	if (keep && r->reader_claims)
		return true;
	if (r->filter.claim != NULL && !r->filter.claim(r->filter.claim_ctx, (*r->filter.unit)++))
		return false;			/* another participant's to read or to count */
	if (counts_parts(r))
	{
		if (r->file->format == PM_FORMAT_ORC)
		{
			r->filter.counts->stripes_total++;
			r->filter.counts->stripes_pruned += keep ? 0 : 1;
		}
		else
		{
			r->filter.counts->row_groups_total++;
			r->filter.counts->row_groups_pruned += keep ? 0 : 1;
		}
	}
	return keep;
}

/*
 * A unit of a Parquet row group the part filter kept, or a part the row
 * selection leaves out (format_reader.h unit_claim).
 */
static bool
unit_may_read(void *ctx)
{
	pm_data_file_reader *r = ctx;

	return r->filter.claim(r->filter.claim_ctx, (*r->filter.unit)++);
}

/* Pieces of Parquet row groups by their pages' ColumnIndex (counted by the reader). */
static bool
page_may_match(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	return ranges_may_match(ctx, ranges, nranges, nrows);
}

/*
 * Whether a leaf of p compares a TIMESTAMP(7..9) field. Such leaves compare
 * whole microseconds (predicate.h), and so do the batch filter and the
 * file indexes' row sets (a BSI keeps microseconds); a caller comparing
 * nanoseconds would judge rows with sub-microsecond digits otherwise.
 * Rows are dropped inside the scan (late materialization, index rows)
 * only without such leaves; files and pages are pruned either way.
 */
static bool
reads_sub_micros(const pm_predicate *p, const pm_type *trow, int depth)
{
	const pm_type *t;

	if (depth > 64)
		return true;
	if (p->op == PM_PRED_AND || p->op == PM_PRED_OR)
	{
		for (int i = 0; i < p->nchildren; i++)
			if (reads_sub_micros(p->children[i], trow, depth + 1))
				return true;
		return false;
	}
	if (p->op == PM_PRED_FALSE || p->field < 0 || p->field >= trow->nfields)
		return false;
	t = trow->fields[p->field].type;
	return (t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) && t->precision > 6;
}

/* Late materialization: its filter (setup_row_filter), exactly, on the filter columns. */
static pm_code
row_may_match(void *ctx, const pm_batch *batch, uint8_t *sel, pm_error *err)
{
	pm_data_file_reader *r = ctx;

	return pm_batch_filter(r->table->env, r->row_pred, batch, r->filter_col, sel, err);
}

/* Mark the table fields the leaves of p read; false if one is not read as stored. */
static bool
filter_fields(pm_data_file_reader *r, const pm_predicate *p, bool *cols, int depth)
{
	if (depth > 64)
		return false;
	if (p->op == PM_PRED_AND || p->op == PM_PRED_OR)
	{
		for (int i = 0; i < p->nchildren; i++)
			if (!filter_fields(r, p->children[i], cols, depth + 1))
				return false;
		return true;
	}
	if (p->op == PM_PRED_FALSE)
		return true;
	for (int o = 0; o < r->nout; o++)
	{
		int			src = r->out_src[o];

		if (r->out_field[o] != p->field)
			continue;
		/* values as the file holds them, in the table's representation */
		if (src < 0 || src >= r->nrequest || !same_repr(r->out_types[o], r->request_types[src]) ||
			r->out_types[o]->id != r->request_types[src]->id)
			return false;
		r->filter_col[p->field] = src;
		cols[src] = true;
		return true;
	}
	return false;
}

/*
 * Late materialization (Parquet): where the filter is exact on vectors and
 * reads columns stored as the table reads them, the reader decodes them
 * first and the others only for the rows it keeps. Only where no merge
 * needs the other rows.
 */
static pm_code
setup_row_filter(pm_data_file_reader *r, const pm_predicate *pred, pm_format_read_options *opts,
				 pm_error *err)
{
	const pm_type *trow = r->table->schema->row_type;
	bool	   *cols;

	if (!pm_batch_filter_supported(pred, trow))
		return PM_OK;
	cols = pm_arena_zalloc(r->arena, sizeof(bool) * (size_t) (r->nrequest + 1));
	r->filter_col = pm_arena_zalloc(r->arena, sizeof(int) * (size_t) (trow->nfields + 1));
	if (cols == NULL || r->filter_col == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (!filter_fields(r, pred, cols, 0))
		return PM_OK;
	r->row_pred = pred;
	opts->row_filter = row_may_match;
	opts->part_filter_ctx = r;	/* also the row filter's (set even without a part filter) */
	opts->row_filter_cols = cols;
	return PM_OK;
}

/* Late materialization with a caller's row keep: the scan's filter, then it. */
static pm_code
row_may_be_kept(void *ctx, const pm_batch *batch, uint8_t *sel, pm_error *err)
{
	pm_data_file_reader *r = ctx;

	if (r->row_pred != NULL)
		PM_TRY(pm_batch_filter(r->table->env, r->row_pred, batch, r->filter_col, sel, err));
	else
		memset(sel, 1, (size_t) batch->nrows);
	r->filter.row_keep(r->filter.row_keep_ctx, &batch->cols[r->row_keep_col], batch->nrows,
					   sel);
	return PM_OK;
}

/*
 * The caller's row keep (pm_scan_set_row_keep; Parquet): where the file
 * holds its field as the table reads it, that column joins the filter
 * columns (setup_row_filter's, if any) and the keep judges their rows too.
 */
static pm_code
setup_row_keep(pm_data_file_reader *r, pm_format_read_options *opts, pm_error *err)
{
	bool	   *cols;
	int			src = -1;

	if (r->filter.row_keep == NULL || r->file->format != PM_FORMAT_PARQUET ||
		r->sampler != NULL || (opts->row_filter != NULL && opts->row_filter != row_may_match))
		return PM_OK;
	for (int o = 0; o < r->nout; o++)
	{
		int			s = r->out_src[o];

		if (r->out_field[o] != r->filter.row_keep_field)
			continue;
		if (s >= 0 && s < r->nrequest && same_repr(r->out_types[o], r->request_types[s]) &&
			r->out_types[o]->id == r->request_types[s]->id)
			src = s;
		break;
	}
	if (src < 0)
		return PM_OK;
	cols = pm_arena_zalloc(r->arena, sizeof(bool) * (size_t) (r->nrequest + 1));
	if (cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (opts->row_filter_cols != NULL)
		memcpy(cols, opts->row_filter_cols, sizeof(bool) * (size_t) r->nrequest);
	cols[src] = true;
	r->row_keep_col = src;
	opts->row_filter = row_may_be_kept;
	opts->part_filter_ctx = r;
	opts->row_filter_cols = cols;
	opts->row_filter_tightens = true;	/* the caller's heap only tightens */
	return PM_OK;
}

/*
 * ORC bloom filters: the scan filter's top-level `=` / IN conjuncts on
 * fields that may prune, read as the table reads them, become the reader's
 * equality probes (format_reader.h), counted apart (EXPLAIN ANALYZE).
 */
static pm_code
setup_equal_probes(pm_data_file_reader *r, pm_format_read_options *opts, pm_error *err)
{
	const pm_predicate *p = r->filter.pred;
	const pm_predicate *const *leaves = &p;
	int			nleaves = 1;
	pm_equal_probe *probes;
	int			n = 0;

	if (p->op == PM_PRED_AND)
	{
		leaves = (const pm_predicate *const *) p->children;
		nleaves = p->nchildren;
	}
	probes = pm_arena_zalloc(r->arena, sizeof(pm_equal_probe) * (size_t) (nleaves + 1));
	if (probes == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nleaves; i++)
	{
		const pm_predicate *l = leaves[i];

		if ((l->op != PM_PRED_EQ && l->op != PM_PRED_IN) || l->nliterals < 1 ||
			l->literals == NULL || l->field < 0 ||
			l->field >= r->table->schema->row_type->nfields || !r->prunes[l->field])
			continue;
		for (int o = 0; o < r->nout; o++)
		{
			int			src = r->out_src[o];

			if (r->out_field[o] != l->field)
				continue;
			if (src >= 0 && src < r->nrequest && same_repr(r->out_types[o], r->request_types[src]) &&
				r->out_types[o]->id == r->request_types[src]->id)
			{
				probes[n].field = src;
				probes[n].nvalues = l->nliterals;
				probes[n].values = l->literals;
				n++;
			}
			break;
		}
	}
	opts->equal_probes = probes;
	opts->nequal_probes = n;
	if (r->filter.counts != NULL)
		opts->parts_bloom_skipped = &r->filter.counts->stripes_bloom_pruned;
	return PM_OK;
}

static pm_code
setup_part_filter(pm_data_file_reader *r, pm_format_read_options *opts, pm_error *err)
{
	pm_table   *t = r->table;
	int			ntf = t->schema->row_type->nfields;

	r->prunes = pm_arena_zalloc(r->arena, sizeof(bool) * (size_t) (ntf + 1));
	r->table_ranges = pm_arena_zalloc(r->arena, sizeof(pm_field_range) * (size_t) (ntf + 1));
	if (r->prunes == NULL || r->table_ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int f = 0; f < ntf; f++)
		r->prunes[f] = r->filter.value_fields;
	for (int k = 0; k < t->ntrimmed_pk; k++)
		r->prunes[t->trimmed_pk[k]] = true;
	opts->part_filter = part_may_match;
	opts->part_filter_ctx = r;
	if (r->filter.claim != NULL)
	{
		/*
		 * Parquet: the reader numbers the units of the row groups kept. Both
		 * formats ask it about the parts the row selection leaves out.
		 */
		opts->unit_claim = unit_may_read;
		opts->unit_bytes = r->filter.unit_bytes;
		r->reader_claims = r->file->format == PM_FORMAT_PARQUET;
		if (r->reader_claims && counts_parts(r))
			opts->parts_taken = &r->filter.counts->row_groups_total;
	}
	if (r->file->format == PM_FORMAT_ORC && r->filter.parts && r->filter.pred != NULL)
		PM_TRY(setup_equal_probes(r, opts, err));
	if (r->filter.pages && r->filter.pred != NULL)
	{
		opts->page_filter = page_may_match;
		if (r->filter.counts != NULL)
		{
			opts->pages_total = &r->filter.counts->pages_total;
			opts->pages_skipped = &r->filter.counts->pages_pruned;
			opts->orc_groups_total = &r->filter.counts->orc_groups_total;
			opts->orc_groups_skipped = &r->filter.counts->orc_groups_pruned;
		}
	}
	return PM_OK;
}

/*
 * Key sampling (pm_data_file_key_pieces): the format reader's part filter
 * and page filter record, per row group / stripe and per piece of a row
 * group cut at page boundaries, the lower bound of the first key field and
 * the row count, and skip them all, so that nothing but the footer and the
 * page indexes is read. A row group without page pieces (no ColumnIndex,
 * or a single page) counts as one piece.
 */
typedef struct key_sampler
{
	pm_arena   *arena;			/* the caller's: pieces and their values */
	int			field;			/* table field of the first key */
	pm_key_piece *pieces;
	int			n;
	int			cap;
	bool		parts_only;		/* skip whole parts: no page pieces */
	bool		have_part;		/* part pending: its pieces not yet known */
	int			part_pieces;
	pm_key_piece part;
	bool		oom;
} key_sampler;

static void
sample_add(key_sampler *ks, const pm_key_piece *p)
{
	if (ks->n == ks->cap)
	{
		int			cap = ks->cap > 0 ? 2 * ks->cap : 64;
		pm_key_piece *np = pm_arena_alloc(ks->arena, sizeof(pm_key_piece) * (size_t) cap);

		if (np == NULL)
		{
			ks->oom = true;
			return;
		}
		if (ks->n > 0)
			memcpy(np, ks->pieces, sizeof(pm_key_piece) * (size_t) ks->n);
		ks->pieces = np;
		ks->cap = cap;
	}
	ks->pieces[ks->n++] = *p;
}

/* A piece from the table ranges just filled: its first key's minimum (copied). */
static bool
sample_piece(pm_data_file_reader *r, int64_t nrows, pm_key_piece *out)
{
	key_sampler *ks = r->sampler;
	const pm_field_range *fr = &r->table_ranges[ks->field];
	pm_value	v = fr->min;

	if (!fr->known || !fr->has_min_max || v.is_null || nrows <= 0)
		return false;
	if (pm_type_is_string(r->table->schema->row_type->fields[ks->field].type->id))
	{
		uint8_t    *copy = pm_arena_alloc(ks->arena, (size_t) (v.u.bytes.len > 0 ? v.u.bytes.len : 1));

		if (copy == NULL)
		{
			ks->oom = true;
			return false;
		}
		if (v.u.bytes.len > 0)
			memcpy(copy, v.u.bytes.ptr, (size_t) v.u.bytes.len);
		v.u.bytes.ptr = copy;
	}
	out->min = v;
	out->nrows = nrows;
	return true;
}

/* The part before: its own statistics count when it had no page pieces. */
static void
sample_close_part(key_sampler *ks)
{
	if (ks->have_part && ks->part_pieces == 0)
		sample_add(ks, &ks->part);
	ks->have_part = false;
}

static bool
sample_part(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	pm_data_file_reader *r = ctx;
	key_sampler *ks = r->sampler;

	sample_close_part(ks);
	fill_table_ranges(r, ranges, nranges, nrows);
	ks->have_part = sample_piece(r, nrows, &ks->part);
	ks->part_pieces = 0;
	return !ks->parts_only && ks->have_part;
}

static bool
sample_page(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	pm_data_file_reader *r = ctx;
	key_sampler *ks = r->sampler;
	pm_key_piece p;

	fill_table_ranges(r, ranges, nranges, nrows);
	if (sample_piece(r, nrows, &p))
	{
		sample_add(ks, &p);
		ks->part_pieces++;
	}
	else if (ks->have_part)
	{
		/* a piece without a usable bound: the part's bound covers it */
		p = ks->part;
		p.nrows = nrows;
		sample_add(ks, &p);
		ks->part_pieces++;
	}
	return false;
}

/*
 * A lookup's placed rows of a Parquet file (the rows_pred branch of setup,
 * part_filter_no_stats), when each holds a key, from the caches alone when
 * they hold everything: r->fetched, counted where the reader would count.
 * Not in parallel reads nor with a part keep test (the reader handles
 * those).
 */
static pm_code
fetch_placed(pm_data_file_reader *r, const pm_type *request, const pm_format_read_options *opts,
			 pm_error *err)
{
	pm_pq_fetch_counts counts = {NULL, NULL, NULL, NULL};

	if (!fetch_cached || !opts->part_filter_no_stats || opts->row_selection == NULL ||
		r->file->format != PM_FORMAT_PARQUET || r->file->file_size <= 0 ||
		r->filter.claim != NULL || r->filter.keep != NULL || r->sampler != NULL)
		return PM_OK;
	/* the keys' own rows only: the reader's row filter would drop none of them */
	if (!pm_scan_file_rows_exact(r->filter.scan, r->file))
		return PM_OK;
	if (counts_parts(r))
	{
		counts.row_groups_read = &r->filter.counts->row_groups_total;
		counts.row_groups_unselected = &r->filter.counts->row_groups_unselected;
	}
	counts.pages_total = opts->pages_total;
	counts.pages_skipped = opts->pages_skipped;
	PM_TRY(pm_parquet_fetch_cached(r->table->env, r->file->path, r->file->file_size, request,
								   opts->row_selection, &counts, r->arena, &r->fetched, err));
	if (r->fetched != NULL)
	{
		r->nfetched = opts->row_selection->n;
		fetches++;
	}
	return PM_OK;
}

static pm_code
setup(pm_data_file_reader *r, const int *fields, int nfields, bool kv, pm_error *err)
{
	pm_table   *t = r->table;
	const pm_type *trow = t->schema->row_type;
	const pm_schema *fs;
	const pm_type *frow;
	pm_field   *request;
	int			nkeys = kv ? t->ntrimmed_pk : 0;
	int			o = 0;
	pm_type    *big,
			   *tiny;
	bool		thin;

	PM_TRY(pm_table_schema_by_id(t, r->file->schema_id, &fs, err));
	thin = pm_schema_thin_mode(fs);
	frow = fs->row_type;
	r->nout = nfields + (kv ? nkeys + 2 : 0);
	r->out_types = pm_arena_zalloc(r->arena, sizeof(pm_type *) * (r->nout + 1));
	r->out_src = pm_arena_zalloc(r->arena, sizeof(int) * (r->nout + 1));
	r->out_names = pm_arena_zalloc(r->arena, sizeof(char *) * (r->nout + 1));
	r->out_field = pm_arena_zalloc(r->arena, sizeof(int) * (r->nout + 1));
	r->request_types = pm_arena_zalloc(r->arena, sizeof(pm_type *) * (r->nout + 1));
	request = pm_arena_zalloc(r->arena, sizeof(pm_field) * (r->nout + 1));
	big = pm_type_new(r->arena, PM_TYPE_BIGINT, false);
	tiny = pm_type_new(r->arena, PM_TYPE_TINYINT, false);
	if (r->out_types == NULL || r->out_src == NULL || r->out_names == NULL ||
		r->out_field == NULL || r->request_types == NULL ||
		request == NULL || big == NULL || tiny == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	for (int k = 0; k < nkeys; k++)
	{
		const pm_field *tf = &trow->fields[t->trimmed_pk[k]];
		int			fi = pm_type_field_index_by_id(frow, tf->id);
		const char *name;

		r->out_types[o] = tf->type;
		r->out_names[o] = tf->name;
		r->out_src[o] = -1;
		r->out_field[o] = t->trimmed_pk[k];
		if (fi >= 0)
		{
			/* a thin file's key is its value column (one request for both) */
			name = thin ? frow->fields[fi].name
				: pm_arena_sprintf(r->arena, KEY_FIELD_PREFIX "%s", frow->fields[fi].name);
			if (name == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			PM_TRY(add_request(r, request, name, frow->fields[fi].type,
							   frow->fields[fi].id, &r->out_src[o], err));
		}
		o++;
	}
	if (kv)
	{
		r->out_types[o] = big;
		r->out_names[o] = "_SEQUENCE_NUMBER";
		r->out_field[o] = -1;
		if (r->kv_flags & PM_KV_SEQUENCE_FROM_FILE)
			r->out_src[o] = SRC_FILE_SEQUENCE;
		else
			PM_TRY(add_request(r, request, "_SEQUENCE_NUMBER", big, -1, &r->out_src[o], err));
		o++;
		r->out_types[o] = tiny;
		r->out_names[o] = "_VALUE_KIND";
		r->out_field[o] = -1;
		if (r->kv_flags & PM_KV_KIND_INSERT)
			r->out_src[o] = SRC_KIND_INSERT;
		else
			PM_TRY(add_request(r, request, "_VALUE_KIND", tiny, -2, &r->out_src[o], err));
		o++;
	}
	for (int i = 0; i < nfields; i++)
	{
		const pm_field *tf;
		int			fi;

		if (fields[i] < 0 || fields[i] >= trow->nfields)
			return pm_fail(err, PM_ERR_INVALID, "field index %d out of range", fields[i]);
		tf = &trow->fields[fields[i]];
		fi = pm_type_field_index_by_id(frow, tf->id);
		r->out_types[o] = tf->type;
		r->out_names[o] = tf->name;
		r->out_src[o] = -1;
		r->out_field[o] = fields[i];
		if (fi >= 0)
			PM_TRY(add_request(r, request, frow->fields[fi].name, frow->fields[fi].type,
							   frow->fields[fi].id, &r->out_src[o], err));
		o++;
	}
	r->batch.cols = pm_arena_zalloc(r->arena, sizeof(pm_vector) * (r->nout + 1));
	if (r->batch.cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	r->batch.ncols = r->nout;
	if (r->nrequest > 0)
	{
		pm_format_read_options opts;
		pm_type    *rt = pm_type_new_row(r->arena, request, r->nrequest, false);

		if (rt == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		memset(&opts, 0, sizeof(opts));
		opts.schema = rt;
		opts.batch_size = r->batch_size;
		opts.file_size = r->file->file_size;	/* a cached footer then needs no open */
		opts.chunk_buffers = r->filter.chunk_buffers;
		if (r->file->format == PM_FORMAT_ORC)
			PM_TRY(orc_ltz_instant(t->schema, &opts.orc_ltz_instant, err));
		if (r->filter.pred != NULL || r->filter.keep != NULL || r->filter.claim != NULL ||
			r->sampler != NULL)
			PM_TRY(setup_part_filter(r, &opts, err));
		if (r->sampler != NULL)
		{
			opts.part_filter = sample_part;
			opts.page_filter = sample_page;
		}
		/* rows dropped inside the file: only where no merge needs the others */
		if (r->filter.pred != NULL && r->filter.value_fields && r->filter.pages &&
			!reads_sub_micros(r->filter.pred, t->schema->row_type, 0))
		{
			opts.row_selection = pm_scan_file_rows(r->filter.scan, r->file);
			if (r->file->format == PM_FORMAT_PARQUET)
				PM_TRY(setup_row_filter(r, r->filter.pred, &opts, err));
		}
		/* a lookup's merged file: rows of other keys are not needed */
		else if (r->filter.rows_pred != NULL && r->filter.pages &&
				 r->file->format == PM_FORMAT_PARQUET &&
				 !reads_sub_micros(r->filter.rows_pred, t->schema->row_type, 0))
		{
			/* the keys' rows when the key pages placed them (point_lookup.c) */
			opts.row_selection = pm_scan_file_rows(r->filter.scan, r->file);
			/* ... which need no look at the statistics of their row groups */
			opts.part_filter_no_stats = r->filter.keep == NULL &&
				pm_scan_file_rows_placed(r->filter.scan, r->file);
			PM_TRY(setup_row_filter(r, r->filter.rows_pred, &opts, err));
		}
		/* counted with the parts part_may_match counts (those it could skip) */
		if (opts.row_selection != NULL && counts_parts(r))
			opts.parts_unselected = r->file->format == PM_FORMAT_ORC ?
				&r->filter.counts->stripes_unselected : &r->filter.counts->row_groups_unselected;
		PM_TRY(setup_row_keep(r, &opts, err));
		PM_TRY(fetch_placed(r, rt, &opts, err));
		if (r->fetched == NULL)
			PM_TRY(pm_format_reader_open(r->file->format, t->env, t->io, r->file->path, &opts,
										 &r->reader, err));
	}
	else if (r->filter.claim != NULL &&
			 !r->filter.claim(r->filter.claim_ctx, (*r->filter.unit)++))
		r->position = r->file->row_count;	/* another participant's: no rows */
	return PM_OK;
}

pm_code
pm_data_file_reader_open(pm_table *table, const pm_data_file_meta *file, const int *fields,
						 int nfields, bool with_key_value_system_fields, int batch_size,
						 pm_data_file_reader **out, pm_error *err)
{
	return pm_data_file_reader_open_filtered(table, file, fields, nfields,
											 with_key_value_system_fields, batch_size, NULL,
											 out, err);
}

static pm_code open_reader(pm_table *table, const pm_data_file_meta *file, const int *fields,
						   int nfields, bool kv, int kv_flags, int batch_size,
						   const pm_read_filter *filter, pm_data_file_reader **out,
						   pm_error *err);

pm_code
pm_data_file_reader_open_filtered(pm_table *table, const pm_data_file_meta *file,
								  const int *fields, int nfields,
								  bool with_key_value_system_fields, int batch_size,
								  const pm_read_filter *filter, pm_data_file_reader **out,
								  pm_error *err)
{
	return open_reader(table, file, fields, nfields, with_key_value_system_fields, 0,
					   batch_size, filter, out, err);
}

pm_code
pm_data_file_reader_open_kv(pm_table *table, const pm_data_file_meta *file, const int *fields,
							int nfields, int flags, const pm_read_filter *filter,
							pm_data_file_reader **out, pm_error *err)
{
	return open_reader(table, file, fields, nfields, true, flags, 0, filter, out, err);
}

static pm_code
open_reader(pm_table *table, const pm_data_file_meta *file, const int *fields, int nfields,
			bool kv, int kv_flags, int batch_size, const pm_read_filter *filter,
			pm_data_file_reader **out, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(table->env);
	pm_data_file_reader *r;
	pm_code		rc;

	*out = NULL;
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	r = pm_arena_zalloc(arena, sizeof(*r));
	if (r == NULL || (r->batch_arena = pm_arena_create(table->env)) == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	r->table = table;
	r->file = file;
	r->arena = arena;
	r->batch_size = batch_size > 0 ? batch_size : PM_DEFAULT_BATCH_SIZE;
	if (filter != NULL)
		r->filter = *filter;
	r->kv_flags = kv_flags;
	rc = setup(r, fields, nfields, kv, err);
	if (rc != PM_OK)
	{
		pm_error_set_path(err, file->path);
		pm_data_file_reader_close(r);
		return rc;
	}
	*out = r;
	return PM_OK;
}

pm_code
pm_data_file_reader_next(pm_data_file_reader *r, pm_batch **batch, pm_error *err)
{
	pm_batch   *in = NULL;
	int64_t		nrows;

	*batch = NULL;
	/* every batch of every read (plain, raw, merged) passes here: poll once per batch */
	PM_TRY(pm_check_interrupts(r->table->env, err));
	pm_arena_reset(r->batch_arena);
	if (r->fetched != NULL)
	{
		if (r->next_fetched == r->nfetched)
			return PM_OK;
		in = &r->fetched[r->next_fetched++];
		nrows = in->nrows;
	}
	else if (r->reader == NULL)
	{
		/* nothing to read from the file: row counts from the metadata */
		nrows = r->file->row_count - r->position;
		if (nrows <= 0)
			return PM_OK;
		if (nrows > r->batch_size)
			nrows = r->batch_size;
	}
	else
	{
		pm_code		rc = pm_format_reader_next(r->reader, &in, err);

		if (rc != PM_OK)
		{
			pm_error_set_path(err, r->file->path);
			return rc;
		}
		if (in == NULL)
			return PM_OK;
		nrows = in->nrows;
		if (in->ncols != r->nrequest)
		{
			pm_error_set_path(err, r->file->path);
			return pm_fail(err, PM_ERR_CORRUPT, "format reader returned %d columns, expected %d",
						   in->ncols, r->nrequest);
		}
	}
	for (int o = 0; o < r->nout; o++)
	{
		pm_vector  *dst = &r->batch.cols[o];

		if (r->out_src[o] == SRC_FILE_SEQUENCE || r->out_src[o] == SRC_KIND_INSERT)
		{
			if (!pm_vector_init(dst, r->out_types[o], nrows > 0 ? nrows : 1, false,
								r->batch_arena))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			if (r->out_src[o] == SRC_KIND_INSERT)
				memset(dst->values, 0, (size_t) nrows);	/* RowKind +I */
			else
				for (int64_t i = 0; i < nrows; i++)
					PM_VEC_VALUES(dst, int64_t)[i] = r->file->max_sequence_number;
			dst->length = nrows;
		}
		else if (r->out_src[o] < 0)
		{
			if (!pm_vector_init_all_null(dst, r->out_types[o], nrows, r->batch_arena))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		else
		{
			const pm_vector *src = &in->cols[r->out_src[o]];
			pm_code		rc;

			if (src->length != nrows)
			{
				pm_error_set_path(err, r->file->path);
				return pm_fail(err, PM_ERR_CORRUPT, "column \"%s\" has %lld values in a batch of %lld rows",
							   r->out_names[o], (long long) src->length, (long long) nrows);
			}
			rc = cast_vector(src, r->out_types[o], r->batch_arena, dst, r->out_names[o], 0, err);
			if (rc != PM_OK)
			{
				pm_error_set_path(err, r->file->path);
				return rc;
			}
		}
	}
	r->batch.nrows = nrows;
	/* the format reader's position: parts it skipped are not counted */
	r->batch.first_row = in != NULL ? in->first_row : r->position;
	r->position = r->batch.first_row + nrows;
	*batch = &r->batch;
	return PM_OK;
}

void
pm_data_file_reader_close(pm_data_file_reader *r)
{
	if (r == NULL)
		return;
	pm_format_reader_close(r->reader);
	pm_arena_destroy(r->batch_arena);
	pm_arena_destroy(r->arena);
}

pm_code
pm_data_file_key_pieces(pm_table *table, const pm_data_file_meta *file, pm_arena *arena,
						pm_key_piece **pieces, int *npieces, pm_error *err)
{
	key_sampler ks;
	pm_data_file_reader *r = NULL;
	pm_arena   *ra;
	pm_code		rc;

	*pieces = NULL;
	*npieces = 0;
	if (table->ntrimmed_pk == 0 || file->format == PM_FORMAT_AVRO)
		return PM_OK;			/* Avro: no parts, nothing to learn without reading */
	memset(&ks, 0, sizeof(ks));
	ks.arena = arena;
	ks.field = table->trimmed_pk[0];
	/* ORC stripes are parts without pages: never read one */
	ks.parts_only = file->format != PM_FORMAT_PARQUET;
	if ((ra = pm_arena_create(table->env)) == NULL ||
		(r = pm_arena_zalloc(ra, sizeof(*r))) == NULL ||
		(r->batch_arena = pm_arena_create(table->env)) == NULL)
	{
		pm_arena_destroy(ra);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	r->table = table;
	r->file = file;
	r->arena = ra;
	r->batch_size = PM_DEFAULT_BATCH_SIZE;
	r->sampler = &ks;
	rc = setup(r, NULL, 0, true, err);
	while (rc == PM_OK && r->reader != NULL)
	{
		pm_batch   *b;

		rc = pm_data_file_reader_next(r, &b, err);
		if (rc != PM_OK || b == NULL)
			break;
		/* a row group read whole (no page pieces): skip the later ones */
		ks.parts_only = true;
	}
	if (rc != PM_OK)
		pm_error_set_path(err, file->path);
	pm_data_file_reader_close(r);
	PM_TRY(rc);
	sample_close_part(&ks);
	if (ks.oom)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*pieces = ks.pieces;
	*npieces = ks.n;
	return PM_OK;
}

/* ---- scan reader (append tables) -------------------------------------- */

struct pm_scan_reader
{
	pm_scan    *scan;
	pm_arena   *arena;
	int		   *fields;
	int			nfields;
	int			split;
	int			file;
	pm_data_file_reader *current;
	pm_unit_claim_fn claim;		/* NULL: read every unit */
	void	   *claim_ctx;
	int64_t		unit;			/* number of the next unit (file) */
	pm_chunk_buffers *buffers;	/* the files' column chunks, one file at a time */
};

pm_code
pm_scan_reader_open(pm_scan *scan, const int *fields, int nfields, pm_scan_reader **out,
					pm_error *err)
{
	pm_arena   *arena;
	pm_scan_reader *r;
	int			ntf = scan->table->schema->row_type->nfields;

	*out = NULL;
	if (scan->needs_merge)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "primary-key tables (merge-on-read) are not supported yet");
	if (scan->has_deletion_vectors)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "append tables with deletion vectors (option \"deletion-vectors.enabled\") are not supported yet");
	if (nfields < 0)
		return pm_fail(err, PM_ERR_INVALID, "negative field count");
	for (int i = 0; i < nfields; i++)
		if (fields[i] < 0 || fields[i] >= ntf)
			return pm_fail(err, PM_ERR_INVALID, "field index %d out of range", fields[i]);
	arena = pm_arena_create(scan->table->env);
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	r = pm_arena_zalloc(arena, sizeof(*r));
	if (r == NULL || (r->fields = pm_arena_alloc(arena, sizeof(int) * (nfields + 1))) == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	if (nfields > 0)
		memcpy(r->fields, fields, sizeof(int) * nfields);
	r->scan = scan;
	r->arena = arena;
	r->nfields = nfields;
	*out = r;
	return PM_OK;
}

pm_code
pm_scan_reader_next(pm_scan_reader *r, pm_batch **batch, pm_error *err)
{
	*batch = NULL;
	for (;;)
	{
		const pm_split *sp;

		if (r->current != NULL)
		{
			PM_TRY(pm_data_file_reader_next(r->current, batch, err));
			if (*batch != NULL)
			{
				if ((*batch)->nrows == 0)
					continue;
				return PM_OK;
			}
			pm_data_file_reader_close(r->current);
			r->current = NULL;
			r->file++;
		}
		if (r->split >= r->scan->nsplits)
			return PM_OK;
		sp = &r->scan->splits[r->split];
		if (r->file >= sp->nfiles)
		{
			r->split++;
			r->file = 0;
			continue;
		}
		{
			pm_read_filter filter;

			/* append table: no merge, every field may prune */
			pm_scan_read_filter(r->scan, true, &filter);
			if (r->buffers == NULL && (r->buffers = pm_chunk_buffers_create(r->arena)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a data file");
			filter.chunk_buffers = r->buffers;
			if (r->claim != NULL && pm_scan_file_has_part_units(r->scan, sp->files[r->file]))
			{
				/* the participants share its parts */
				filter.claim = r->claim;
				filter.claim_ctx = r->claim_ctx;
				filter.unit = &r->unit;
			}
			else if (r->claim != NULL && !r->claim(r->claim_ctx, r->unit++))
			{
				r->file++;		/* another participant reads this file */
				continue;
			}
			PM_TRY(pm_data_file_reader_open_filtered(r->scan->table, sp->files[r->file],
													 r->fields, r->nfields, false, 0,
													 &filter, &r->current, err));
		}
	}
}

const char *
pm_scan_reader_source(const pm_scan_reader *r)
{
	return r->current != NULL ? r->current->file->path : NULL;
}

void
pm_scan_reader_set_claim(pm_scan_reader *r, pm_unit_claim_fn fn, void *ctx)
{
	r->claim = fn;
	r->claim_ctx = ctx;
}

void
pm_scan_reader_close(pm_scan_reader *r)
{
	if (r == NULL)
		return;
	pm_data_file_reader_close(r->current);
	pm_chunk_buffers_destroy(r->buffers);
	pm_arena_destroy(r->arena);
}
