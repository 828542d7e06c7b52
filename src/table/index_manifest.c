/*-------------------------------------------------------------------------
 * index_manifest.c
 *	  Decode index manifests through the format readers (Avro, or ORC for
 *	  manifest.format=orc tables), copying everything into the arena.
 *
 * _GLOBAL_INDEX (1.4+ global indexes) is not read. Spec: §7.1.
 *-------------------------------------------------------------------------
 */
#include "table/index_manifest.h"

#include <string.h>

#include "format/format_reader.h"
#include "row/data_type.h"
#include "table/catalog.h"
#include "table/manifest_list.h"
#include "table/table_int.h"

#define INDEX_MANIFEST_TYPE \
	"ROW<_VERSION INT, _KIND TINYINT, _PARTITION BYTES, _BUCKET INT, _INDEX_TYPE STRING, " \
	"_FILE_NAME STRING, _FILE_SIZE BIGINT, _ROW_COUNT BIGINT, " \
	"_DELETIONS_VECTORS_RANGES ARRAY<ROW<f0 STRING, f1 INT, f2 INT, _CARDINALITY BIGINT>>, " \
	"_EXTERNAL_PATH STRING>"

static pm_code
decode_ranges(const pm_vector *v, int64_t i, pm_arena *arena, pm_index_manifest_entry *e,
			  pm_error *err)
{
	const pm_vector *rows;
	int32_t		start,
				end;

	e->nranges = -1;
	e->ranges = NULL;
	if (pm_vector_is_null(v, i) || v->offsets == NULL || v->nchildren < 1)
		return PM_OK;
	rows = &v->children[0];
	start = v->offsets[i];
	end = v->offsets[i + 1];
	if (start < 0 || end < start || end > rows->length || rows->nchildren != 4)
		return pm_fail(err, PM_ERR_CORRUPT, "malformed deletion vector ranges");
	e->ranges = pm_arena_zalloc(arena, sizeof(pm_dv_range) * ((size_t) (end - start) + 1));
	if (e->ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	e->nranges = 0;
	for (int32_t k = start; k < end; k++)
	{
		pm_dv_range *r = &e->ranges[e->nranges];
		bool		nomem = false;

		if (pm_vector_is_null(rows, k))
			continue;
		r->data_file = pm_meta_vector_string(&rows->children[0], k, arena, &nomem);
		r->offset = (int32_t) pm_meta_vector_int(&rows->children[1], k, -1);
		r->length = (int32_t) pm_meta_vector_int(&rows->children[2], k, -1);
		r->cardinality = pm_meta_vector_int(&rows->children[3], k, -1);
		if (nomem)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (r->data_file == NULL || r->offset < 0 || r->length < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "malformed deletion vector range");
		e->nranges++;
	}
	return PM_OK;
}

typedef struct index_reading
{
	pm_arena   *arena;
	pm_index_manifest_entry *entries;
	int			n;
	int			cap;
} index_reading;

static pm_code
index_row(void *ctx, const pm_batch *b, int64_t i, pm_error *err)
{
	index_reading *ir = ctx;
	pm_arena   *arena = ir->arena;
	pm_index_manifest_entry *e;
	bool		nomem = false;
	int64_t		version = pm_meta_vector_int(&b->cols[0], i, -1);
	pm_code		rc;

	if (version != 1)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "index manifest version %lld is not supported",
					   (long long) version);
	if (!pm_arena_array_grow(arena, (void **) &ir->entries, &ir->cap, ir->n,
							 sizeof(*ir->entries), 1 << 26))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	e = &ir->entries[ir->n];
	memset(e, 0, sizeof(*e));
	e->kind = (int) pm_meta_vector_int(&b->cols[1], i, 0);
	if (!pm_meta_vector_bytes(&b->cols[2], i, arena, &e->partition, &e->partition_len))
		nomem = true;
	e->bucket = (int32_t) pm_meta_vector_int(&b->cols[3], i, 0);
	e->index_type = pm_meta_vector_string(&b->cols[4], i, arena, &nomem);
	e->file_name = pm_meta_vector_string(&b->cols[5], i, arena, &nomem);
	e->file_size = pm_meta_vector_int(&b->cols[6], i, -1);
	e->row_count = pm_meta_vector_int(&b->cols[7], i, -1);
	e->external_path = pm_meta_vector_string(&b->cols[9], i, arena, &nomem);
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (e->partition == NULL || e->index_type == NULL || !pm_catalog_name_valid(e->file_name))
		return pm_fail(err, PM_ERR_CORRUPT, "index manifest entry is incomplete");
	rc = decode_ranges(&b->cols[8], i, arena, e, err);
	if (rc == PM_OK)
		ir->n++;
	return rc;
}

pm_code
pm_index_manifest_read(const pm_env *env, pm_fileio *io, const char *path, pm_arena *arena,
					   pm_index_manifest_entry **out, int *count, pm_error *err)
{
	index_reading ir = {arena, NULL, 0, 0};

	*out = NULL;
	*count = 0;
	PM_TRY(pm_metadata_file_scan(env, io, path, INDEX_MANIFEST_TYPE, arena, index_row, &ir, err));
	*out = ir.entries;
	*count = ir.n;
	return PM_OK;
}

pm_code
pm_index_entry_of_dv_file(const pm_dv_index_file *f, pm_arena *arena,
						  pm_index_manifest_entry *add, pm_error *err)
{
	memset(add, 0, sizeof(*add));
	add->index_type = "DELETION_VECTORS";
	add->file_name = f->file_name;
	add->path = f->path;
	add->file_size = f->file_size;
	add->row_count = f->nranges;
	add->nranges = f->nranges;
	add->ranges = pm_arena_zalloc(arena, sizeof(pm_dv_range) * (size_t) (f->nranges + 1));
	if (add->ranges == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < f->nranges; i++)
	{
		add->ranges[i].data_file = f->ranges[i].data_file;
		add->ranges[i].offset = f->ranges[i].offset;
		add->ranges[i].length = f->ranges[i].length;
		add->ranges[i].cardinality = f->ranges[i].cardinality;
	}
	return PM_OK;
}
