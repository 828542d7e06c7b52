/*-------------------------------------------------------------------------
 * parquet_page_index.c
 *	  Decoding and checking OffsetIndex and ColumnIndex (see the header).
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_page_index.h"

#include <string.h>

#include "format/parquet/thrift_compact.h"

/* Pages of one chunk at most (a page takes a header of several bytes). */
#define MAX_INDEX_PAGES		(1 << 24)

static pm_code
corrupt(pm_error *err, const char *what, const char *why)
{
	return pm_fail(err, PM_ERR_CORRUPT, "invalid parquet %s: %s", what, why);
}

/* A list header of elements of type et; false on failure or another type. */
static bool
list_of(pm_thrift_reader *t, int et, uint32_t *n)
{
	int			got;

	if (!pm_thrift_list(t, n, &got))
		return false;
	if (got != et && !(et == PM_TC_BOOL_TRUE && got == PM_TC_BOOL_FALSE))
		return pm_thrift_fail(t, "unexpected list element type");
	if (*n > MAX_INDEX_PAGES)
		return pm_thrift_fail(t, "too many pages");
	return true;
}

static void
parse_location(pm_thrift_reader *t, int64_t *offset, int32_t *size, int64_t *first_row,
			   bool *complete)
{
	int16_t		id;
	int			ft;
	int			seen = 0;

	if (!pm_thrift_struct_begin(t))
		return;
	while (pm_thrift_field(t, &id, &ft))
	{
		if (id == 1)
		{
			*offset = pm_thrift_field_int(t, ft);
			seen |= 1;
		}
		else if (id == 2)
		{
			*size = pm_thrift_field_i32(t, ft);
			seen |= 2;
		}
		else if (id == 3)
		{
			*first_row = pm_thrift_field_int(t, ft);
			seen |= 4;
		}
		else
			pm_thrift_skip(t, ft);
	}
	pm_thrift_struct_end(t);
	*complete = seen == 7;
}

pm_code
pm_pq_offset_index_parse(const uint8_t *buf, size_t len, const pm_pq_chunk *ch,
						 int64_t rg_rows, pm_arena *arena, pm_pq_offset_index *out,
						 pm_error *err)
{
	const char *what = "offset index";
	pm_thrift_reader t;
	int16_t		id;
	int			ft;
	bool		have = false;
	bool		complete = true;
	int64_t		chunk_start,
				chunk_end;

	memset(out, 0, sizeof(*out));
	pm_thrift_init(&t, buf, len);
	if (!pm_thrift_struct_begin(&t))
		return corrupt(err, what, "empty");
	while (pm_thrift_field(&t, &id, &ft))
	{
		uint32_t	n;

		if (id != 1 || ft != PM_TC_LIST || have)
		{
			pm_thrift_skip(&t, ft);
			continue;
		}
		if (!list_of(&t, PM_TC_STRUCT, &n))
			break;
		have = true;
		out->npages = (int) n;
		out->offset = pm_arena_alloc(arena, sizeof(int64_t) * (n + 1));
		out->size = pm_arena_alloc(arena, sizeof(int32_t) * (n + 1));
		out->first_row = pm_arena_alloc(arena, sizeof(int64_t) * (n + 1));
		if (out->offset == NULL || out->size == NULL || out->first_row == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet offset index");
		if (!pm_thrift_struct_begin(&t))
			break;
		for (uint32_t k = 0; k < n && !t.failed; k++)
		{
			bool		one = false;

			out->offset[k] = out->first_row[k] = -1;
			out->size[k] = 0;
			parse_location(&t, &out->offset[k], &out->size[k], &out->first_row[k], &one);
			complete &= one;
		}
		pm_thrift_struct_end(&t);
	}
	pm_thrift_struct_end(&t);
	if (t.failed)
		return corrupt(err, what, t.why != NULL ? t.why : "truncated");
	if (!have || out->npages == 0)
		return corrupt(err, what, "no page locations");
	if (!complete)
		return corrupt(err, what, "incomplete page location");
	chunk_start = ch->data_page_offset;
	if (ch->dictionary_page_offset > 0 && ch->dictionary_page_offset < chunk_start)
		chunk_start = ch->dictionary_page_offset;
	chunk_end = chunk_start + ch->total_compressed_size;
	if (out->first_row[0] != 0)
		return corrupt(err, what, "first page does not start at row 0");
	for (int k = 0; k < out->npages; k++)
	{
		if (out->size[k] <= 0 || out->offset[k] < chunk_start ||
			out->offset[k] > chunk_end - out->size[k] ||
			(k > 0 && out->offset[k] < out->offset[k - 1] + out->size[k - 1]))
			return corrupt(err, what, "page outside its column chunk or out of order");
		if (out->first_row[k] >= rg_rows || (k > 0 && out->first_row[k] <= out->first_row[k - 1]))
			return corrupt(err, what, "page first rows out of order");
	}
	return PM_OK;
}

/* list<binary> of n elements into ptrs/lens. */
static void
parse_bounds(pm_thrift_reader *t, int n, const uint8_t **ptrs, uint32_t *lens, bool *have)
{
	uint32_t	got;

	if (!list_of(t, PM_TC_BINARY, &got))
		return;
	if ((int) got != n)
	{
		pm_thrift_fail(t, "bounds disagree with the page count");
		return;
	}
	for (int k = 0; k < n && !t->failed; k++)
		ptrs[k] = pm_thrift_binary(t, &lens[k]);
	*have = true;
}

pm_code
pm_pq_column_index_parse(const uint8_t *buf, size_t len, int npages, pm_arena *arena,
						 pm_pq_column_index *out, pm_error *err)
{
	const char *what = "column index";
	pm_thrift_reader t;
	int16_t		id;
	int			ft;
	bool		have_nulls = false,
				have_min = false,
				have_max = false;
	size_t		n = (size_t) (npages > 0 ? npages : 0) + 1;

	memset(out, 0, sizeof(*out));
	out->npages = npages;
	out->null_page = pm_arena_zalloc(arena, sizeof(bool) * n);
	out->min = pm_arena_zalloc(arena, sizeof(uint8_t *) * n);
	out->max = pm_arena_zalloc(arena, sizeof(uint8_t *) * n);
	out->min_len = pm_arena_zalloc(arena, sizeof(uint32_t) * n);
	out->max_len = pm_arena_zalloc(arena, sizeof(uint32_t) * n);
	if (out->null_page == NULL || out->min == NULL || out->max == NULL ||
		out->min_len == NULL || out->max_len == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet column index");
	pm_thrift_init(&t, buf, len);
	if (!pm_thrift_struct_begin(&t))
		return corrupt(err, what, "empty");
	while (pm_thrift_field(&t, &id, &ft))
	{
		uint32_t	got;

		if (ft != PM_TC_LIST || id < 1 || id > 5 || id == 4)
		{
			pm_thrift_skip(&t, ft);
			continue;
		}
		if (id == 1)
		{
			if (!list_of(&t, PM_TC_BOOL_TRUE, &got))
				break;
			if ((int) got != npages)
			{
				pm_thrift_fail(&t, "null pages disagree with the page count");
				break;
			}
			for (int k = 0; k < npages && !t.failed; k++)
				out->null_page[k] = pm_thrift_byte(&t) == PM_TC_BOOL_TRUE;
			have_nulls = true;
		}
		else if (id == 2)
			parse_bounds(&t, npages, out->min, out->min_len, &have_min);
		else if (id == 3)
			parse_bounds(&t, npages, out->max, out->max_len, &have_max);
		else
		{
			if (!list_of(&t, PM_TC_I64, &got))
				break;
			if ((int) got != npages)
			{
				pm_thrift_fail(&t, "null counts disagree with the page count");
				break;
			}
			out->null_count = pm_arena_alloc(arena, sizeof(int64_t) * n);
			if (out->null_count == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a parquet column index");
			for (int k = 0; k < npages && !t.failed; k++)
			{
				out->null_count[k] = pm_thrift_i64(&t);
				if (out->null_count[k] < 0)
					out->null_count[k] = -1;
			}
		}
	}
	pm_thrift_struct_end(&t);
	if (t.failed)
		return corrupt(err, what, t.why != NULL ? t.why : "truncated");
	if (!have_nulls || !have_min || !have_max)
		return corrupt(err, what, "a required list is missing");
	return PM_OK;
}

void *
pm_pq_chunk_index_flatten(const void *src, pm_flat *f)
{
	const pm_pq_chunk_index *s = src;
	pm_pq_chunk_index *d = pm_flat_take(f, sizeof(pm_pq_chunk_index));
	int			n = s->oi.npages;
	int64_t    *offset = pm_flat_bytes(f, s->oi.offset, sizeof(int64_t) * (size_t) n);
	int32_t    *size = pm_flat_bytes(f, s->oi.size, sizeof(int32_t) * (size_t) n);
	int64_t    *first_row = pm_flat_bytes(f, s->oi.first_row, sizeof(int64_t) * (size_t) n);
	bool	   *null_page = NULL;
	const uint8_t **min = NULL,
			  **max = NULL;
	uint32_t   *min_len = NULL,
			   *max_len = NULL;
	int64_t    *null_count = NULL;

	if (s->has_ci)
	{
		null_page = pm_flat_bytes(f, s->ci.null_page, sizeof(bool) * (size_t) n);
		min_len = pm_flat_bytes(f, s->ci.min_len, sizeof(uint32_t) * (size_t) n);
		max_len = pm_flat_bytes(f, s->ci.max_len, sizeof(uint32_t) * (size_t) n);
		null_count = pm_flat_bytes(f, s->ci.null_count, sizeof(int64_t) * (size_t) n);
		min = pm_flat_take(f, sizeof(uint8_t *) * (size_t) n);
		max = pm_flat_take(f, sizeof(uint8_t *) * (size_t) n);
		for (int k = 0; k < n; k++)
		{
			/* a NULL page's bounds may be empty: keep a non-NULL pointer */
			const uint8_t *lo = pm_flat_bytes(f, s->ci.min[k] != NULL ? s->ci.min[k] :
											  (const uint8_t *) "", s->ci.min_len[k]);
			const uint8_t *hi = pm_flat_bytes(f, s->ci.max[k] != NULL ? s->ci.max[k] :
											  (const uint8_t *) "", s->ci.max_len[k]);

			if (min != NULL)
			{
				min[k] = lo;
				max[k] = hi;
			}
		}
	}
	if (d == NULL)
		return NULL;
	*d = *s;
	d->oi.offset = offset;
	d->oi.size = size;
	d->oi.first_row = first_row;
	if (s->has_ci)
	{
		d->ci.null_page = null_page;
		d->ci.min = min;
		d->ci.max = max;
		d->ci.min_len = min_len;
		d->ci.max_len = max_len;
		d->ci.null_count = null_count;
	}
	return d;
}

/* Decimal digits of v >= 0 at the end of buf (of 12 bytes), returned. */
static char *
decimal_tail(char *end, int v)
{
	do
	{
		*--end = (char) ('0' + v % 10);
		v /= 10;
	} while (v > 0);
	return end;
}

/* Built by hand: printf was a tenth of a warm lookup. */
char *
pm_pq_chunk_index_name(pm_arena *arena, const char *path, size_t path_len, int g, int leaf)
{
	char		gb[12];
	char		lb[12];
	char	   *gs = decimal_tail(gb + sizeof(gb), g < 0 ? 0 : g);
	char	   *ls = decimal_tail(lb + sizeof(lb), leaf < 0 ? 0 : leaf);
	size_t		gl = (size_t) (gb + sizeof(gb) - gs);
	size_t		ll = (size_t) (lb + sizeof(lb) - ls);
	char	   *k = pm_arena_alloc(arena, path_len + gl + ll + 3);

	if (k == NULL)
		return NULL;
	memcpy(k, path, path_len);
	k[path_len] = '#';
	memcpy(k + path_len + 1, gs, gl);
	k[path_len + 1 + gl] = '.';
	memcpy(k + path_len + 2 + gl, ls, ll);
	k[path_len + 2 + gl + ll] = '\0';
	return k;
}
