/*-------------------------------------------------------------------------
 * manifest_list.c
 *	  Decode a Paimon manifest list into pm_manifest_file_meta entries.
 *
 * Reads the list and nothing else: reading manifests is manifest_entry.c's
 * job, choosing which to skip is scan_plan.c's. The file is read through
 * the format readers (format/format_reader.h), asking for the columns by
 * name; fields absent in old lists (_MIN_BUCKET ...) read as NULL. Every
 * value is copied into the caller's arena.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §4.1, §5.
 *-------------------------------------------------------------------------
 */
#include "table/manifest_list.h"

#include <string.h>

#include "common/meta_cache.h"
#include "format/format_reader.h"
#include "row/data_type.h"
#include "table/catalog.h"
#include "table/table_int.h"

#define MANIFEST_LIST_TYPE \
	"ROW<_VERSION INT, _FILE_NAME STRING, _FILE_SIZE BIGINT, " \
	"_NUM_ADDED_FILES BIGINT, _NUM_DELETED_FILES BIGINT, " \
	"_PARTITION_STATS " PM_SIMPLE_STATS_TYPE ", _SCHEMA_ID BIGINT, " \
	"_MIN_BUCKET INT, _MAX_BUCKET INT, _MIN_LEVEL INT, _MAX_LEVEL INT, " \
	"_MIN_ROW_ID BIGINT, _MAX_ROW_ID BIGINT>"

int64_t
pm_meta_vector_int(const pm_vector *v, int64_t i, int64_t if_null)
{
	if (v == NULL || i >= v->length || pm_vector_is_null(v, i) || v->values == NULL)
		return if_null;
	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return pm_vector_int64_at(v, i);
		default:
			return if_null;
	}
}

bool
pm_meta_vector_bytes(const pm_vector *v, int64_t i, pm_arena *arena,
					 const uint8_t **ptr, int32_t *len)
{
	const uint8_t *src;
	int32_t		n;
	uint8_t    *copy;

	*ptr = NULL;
	*len = 0;
	if (v == NULL || i >= v->length || pm_vector_is_null(v, i) || v->offsets == NULL)
		return true;
	src = pm_vector_bytes(v, i, &n);
	if (n < 0)
		return true;
	copy = pm_arena_alloc(arena, (size_t) n + 1);
	if (copy == NULL)
		return false;
	if (n > 0)
		memcpy(copy, src, n);
	copy[n] = 0;
	*ptr = copy;
	*len = n;
	return true;
}

char *
pm_meta_vector_string(const pm_vector *v, int64_t i, pm_arena *arena, bool *nomem)
{
	const uint8_t *p;
	int32_t		n;

	if (!pm_meta_vector_bytes(v, i, arena, &p, &n))
	{
		*nomem = true;
		return NULL;
	}
	return (char *) p;
}

bool
pm_meta_vector_strings(const pm_vector *v, int64_t i, pm_arena *arena,
					   const char ***out, int *n)
{
	int32_t		start,
				end;
	const pm_vector *elems;
	const char **arr;

	*out = NULL;
	*n = -1;
	if (v == NULL || i >= v->length || pm_vector_is_null(v, i) || v->offsets == NULL ||
		v->nchildren < 1)
		return true;
	start = v->offsets[i];
	end = v->offsets[i + 1];
	elems = &v->children[0];
	if (start < 0 || end < start || end > elems->length)
		return true;
	arr = pm_arena_zalloc(arena, sizeof(char *) * ((size_t) (end - start) + 1));
	if (arr == NULL)
		return false;
	for (int32_t k = start; k < end; k++)
	{
		bool		nomem = false;

		arr[k - start] = pm_meta_vector_string(elems, k, arena, &nomem);
		if (nomem)
			return false;
		if (arr[k - start] == NULL)
			arr[k - start] = "";
	}
	*out = arr;
	*n = end - start;
	return true;
}

bool
pm_meta_vector_stats(const pm_vector *v, int64_t i, pm_arena *arena, pm_simple_stats *out)
{
	const pm_vector *nc;

	memset(out, 0, sizeof(*out));
	out->nnull_counts = -1;
	if (v == NULL || i >= v->length || pm_vector_is_null(v, i) || v->nchildren < 3)
		return true;
	if (!pm_meta_vector_bytes(&v->children[0], i, arena, &out->min_values, &out->min_values_len) ||
		!pm_meta_vector_bytes(&v->children[1], i, arena, &out->max_values, &out->max_values_len))
		return false;
	nc = &v->children[2];
	if (!pm_vector_is_null(nc, i) && nc->offsets != NULL && nc->nchildren >= 1)
	{
		int32_t		start = nc->offsets[i],
					end = nc->offsets[i + 1];
		int64_t    *counts;

		if (start < 0 || end < start || end > nc->children[0].length)
			return true;
		counts = pm_arena_alloc(arena, sizeof(int64_t) * ((size_t) (end - start) + 1));
		if (counts == NULL)
			return false;
		for (int32_t k = start; k < end; k++)
			counts[k - start] = pm_meta_vector_int(&nc->children[0], k, -1);
		out->null_counts = counts;
		out->nnull_counts = end - start;
	}
	return true;
}

pm_code
pm_metadata_file_scan(const pm_env *env, pm_fileio *io, const char *path,
					  const char *type_text, pm_arena *arena,
					  pm_metadata_row_fn fn, void *ctx, pm_error *err)
{
	const pm_type *type;
	pm_format_read_options opts;
	pm_format_reader *reader = NULL;
	pm_file_format format;
	pm_code		rc;

	PM_TRY(pm_data_type_parse(type_text, arena, &type, err));
	PM_TRY(pm_metadata_file_format(io, path, &format, err));
	memset(&opts, 0, sizeof(opts));
	opts.schema = type;
	rc = pm_format_reader_open(format, env, io, path, &opts, &reader, err);
	while (rc == PM_OK)
	{
		pm_batch   *b;

		rc = pm_format_reader_next(reader, &b, err);
		if (rc != PM_OK || b == NULL)
			break;
		if (b->ncols != type->nfields)
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "format reader returned %d columns, expected %d",
						 b->ncols, type->nfields);
			break;
		}
		for (int64_t i = 0; i < b->nrows && rc == PM_OK; i++)
			rc = fn(ctx, b, i, err);
	}
	pm_format_reader_close(reader);
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	return rc;
}

bool
pm_arena_array_grow(pm_arena *arena, void **array, int *cap, int n, size_t elem_size,
					int max_elems)
{
	int			ncap;
	void	   *grown;

	if (n < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 16;
	if (ncap > max_elems)
		return false;
	grown = pm_arena_realloc(arena, *array, elem_size * (size_t) *cap, elem_size * (size_t) ncap);
	if (grown == NULL)
		return false;
	*array = grown;
	*cap = ncap;
	return true;
}

pm_code
pm_metadata_file_format(pm_fileio *io, const char *path, pm_file_format *format,
						pm_error *err)
{
	pm_file    *f;
	uint64_t	size;
	uint8_t		magic[4];
	pm_code		rc;

	PM_TRY(pm_file_open(io, path, &f, err));
	rc = pm_file_size(io, f, &size, err);
	if (rc == PM_OK && size < 4)
		rc = pm_fail(err, PM_ERR_CORRUPT, "metadata file too short");
	if (rc == PM_OK)
		rc = pm_file_pread(io, f, magic, 4, 0, err);
	pm_file_close(io, f);
	if (rc != PM_OK)
	{
		pm_error_set_path(err, path);
		return rc;
	}
	if (memcmp(magic, "Obj\x01", 4) == 0)
		*format = PM_FORMAT_AVRO;
	else if (memcmp(magic, "ORC", 3) == 0)
		*format = PM_FORMAT_ORC;
	else if (memcmp(magic, "PAR1", 4) == 0)
		*format = PM_FORMAT_PARQUET;
	else
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_CORRUPT, "metadata file is neither Avro, ORC nor Parquet");
	}
	return PM_OK;
}

typedef struct list_reading
{
	pm_arena   *arena;
	pm_manifest_file_meta *metas;
	int			n;
	int			cap;
} list_reading;

static pm_code
list_row(void *ctx, const pm_batch *b, int64_t i, pm_error *err)
{
	list_reading *lr = ctx;
	pm_arena   *arena = lr->arena;
	pm_manifest_file_meta *m;
	bool		nomem = false;
	int64_t		version = pm_meta_vector_int(&b->cols[0], i, -1);

	if (version != 2)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "manifest list version %lld is not supported", (long long) version);
	if (!pm_arena_array_grow(arena, (void **) &lr->metas, &lr->cap, lr->n, sizeof(*lr->metas),
							 1 << 26))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	m = &lr->metas[lr->n];
	memset(m, 0, sizeof(*m));
	m->file_name = pm_meta_vector_string(&b->cols[1], i, arena, &nomem);
	m->file_size = pm_meta_vector_int(&b->cols[2], i, -1);
	m->num_added_files = pm_meta_vector_int(&b->cols[3], i, 0);
	m->num_deleted_files = pm_meta_vector_int(&b->cols[4], i, 0);
	if (!pm_meta_vector_stats(&b->cols[5], i, arena, &m->partition_stats))
		nomem = true;
	m->schema_id = pm_meta_vector_int(&b->cols[6], i, 0);
	m->has_bucket_range = !pm_vector_is_null(&b->cols[7], i) && !pm_vector_is_null(&b->cols[8], i);
	m->min_bucket = (int32_t) pm_meta_vector_int(&b->cols[7], i, 0);
	m->max_bucket = (int32_t) pm_meta_vector_int(&b->cols[8], i, 0);
	m->has_level_range = !pm_vector_is_null(&b->cols[9], i) && !pm_vector_is_null(&b->cols[10], i);
	m->min_level = (int32_t) pm_meta_vector_int(&b->cols[9], i, 0);
	m->max_level = (int32_t) pm_meta_vector_int(&b->cols[10], i, 0);
	m->has_row_id_range = !pm_vector_is_null(&b->cols[11], i) && !pm_vector_is_null(&b->cols[12], i);
	m->min_row_id = pm_meta_vector_int(&b->cols[11], i, 0);
	m->max_row_id = pm_meta_vector_int(&b->cols[12], i, 0);
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (!pm_catalog_name_valid(m->file_name))
		return pm_fail(err, PM_ERR_CORRUPT, "manifest list entry has an invalid file name");
	lr->n++;
	return PM_OK;
}

pm_code
pm_manifest_list_read(const pm_env *env, pm_fileio *io, const char *path,
					  pm_arena *arena, pm_manifest_file_meta **out, int *count,
					  pm_error *err)
{
	list_reading lr = {arena, NULL, 0, 0};

	*out = NULL;
	*count = 0;
	PM_TRY(pm_metadata_file_scan(env, io, path, MANIFEST_LIST_TYPE, arena, list_row, &lr, err));
	*out = lr.metas;
	*count = lr.n;
	return PM_OK;
}

/* ---- through the metadata cache ----------------------------------------- */

typedef struct cached_list
{
	int64_t		n;
	pm_manifest_file_meta *metas;
} cached_list;

void
pm_simple_stats_flatten(pm_flat *f, pm_simple_stats *dst, const pm_simple_stats *src)
{
	const uint8_t *min = pm_flat_bytes(f, src->min_values, (size_t) src->min_values_len);
	const uint8_t *max = pm_flat_bytes(f, src->max_values, (size_t) src->max_values_len);
	const int64_t *nc = pm_flat_bytes(f, src->null_counts,
									  sizeof(int64_t) * (src->nnull_counts > 0 ? src->nnull_counts : 0));

	if (dst == NULL)
		return;
	*dst = *src;
	dst->min_values = min;
	dst->max_values = max;
	dst->null_counts = nc;
}

static void *
list_flatten(const void *src, pm_flat *f)
{
	const cached_list *l = src;
	cached_list *copy = pm_flat_take(f, sizeof(cached_list));
	pm_manifest_file_meta *metas = pm_flat_take(f, sizeof(pm_manifest_file_meta) * (size_t) l->n);

	for (int64_t i = 0; i < l->n; i++)
	{
		const pm_manifest_file_meta *m = &l->metas[i];
		char	   *name = pm_flat_string(f, m->file_name);

		if (metas != NULL)
		{
			metas[i] = *m;
			metas[i].file_name = name;
		}
		pm_simple_stats_flatten(f, metas ? &metas[i].partition_stats : NULL, &m->partition_stats);
	}
	if (copy == NULL)
		return NULL;
	copy->n = l->n;
	copy->metas = metas;
	return copy;
}

pm_code
pm_manifest_list_read_cached(const pm_env *env, pm_fileio *io, const char *path, int64_t size,
							 pm_arena *arena, pm_manifest_file_meta **out, int *count,
							 pm_error *err)
{
	cached_list *hit = pm_meta_cache_fetch(PM_META_MANIFEST_LIST, path, size, arena, list_flatten);
	cached_list l;

	if (hit != NULL)
	{
		*out = hit->metas;
		*count = (int) hit->n;
		return PM_OK;
	}
	PM_TRY(pm_manifest_list_read(env, io, path, arena, out, count, err));
	l.n = *count;
	l.metas = *out;
	pm_meta_cache_store(PM_META_MANIFEST_LIST, path, size, &l, list_flatten);
	return PM_OK;
}
