/*-------------------------------------------------------------------------
 * manifest_write.c
 *	  Manifest files and manifest lists as Apache Paimon 1.4.2 writes them.
 *
 * A manifest holds ManifestEntry rows (ManifestEntrySerializer: _VERSION 2
 * then ManifestEntry.SCHEMA with DataFileMeta.SCHEMA as _FILE); a manifest
 * list ManifestFileMeta rows (ManifestFileMetaSerializer: _VERSION 2 then
 * ManifestFileMeta.SCHEMA). Nullability of every field is Java's, so the
 * Avro schema in the header is Java's byte for byte. The rows are built as
 * column batches of at most CHUNK_ROWS and handed to the format writer.
 *
 * The ManifestFileMeta of a manifest is computed as ManifestFile's
 * ManifestEntryWriter does: added/deleted counts, schema id = the largest
 * of the files' (the given schema id when there are no entries), min/max
 * bucket and level, min/max row id when every file has a first row id, and
 * partition statistics by SimpleStatsCollector in full mode (min, max and
 * null count of every partition field, compared as InternalRowUtils does),
 * serialized by SimpleStatsConverter.toBinaryAllMode.
 *
 * Spec: apache/paimon release-1.4.2 ManifestFile.java, ManifestList.java,
 * ManifestEntry.java, ManifestEntrySerializer.java, DataFileMeta.java,
 * DataFileMetaSerializer.java, ManifestFileMeta.java,
 * ManifestFileMetaSerializer.java, SimpleStats.java, SimpleStatsConverter.java,
 * FileStorePathFactory.java (manifest-<uuid>-<n>, manifest-list-<uuid>-<n>);
 * index manifests: IndexManifestFile.java, IndexManifestEntrySerializer.java
 * (_VERSION 1), IndexManifestEntry.java, DeletionVectorMeta.java,
 * GlobalIndexMeta.java.
 *-------------------------------------------------------------------------
 */
#include "table/manifest_write.h"

#include <string.h>

#include "common/uuid.h"
#include "common/value.h"
#include "common/vector.h"
#include "format/format_writer.h"
#include "row/binary_row.h"
#include "row/data_type.h"
#include "row/value.h"

#define CHUNK_ROWS 1024

#define SIMPLE_STATS_WRITE_TYPE \
	"ROW<_MIN_VALUES BYTES NOT NULL, _MAX_VALUES BYTES NOT NULL, " \
	"_NULL_COUNTS ARRAY<BIGINT>> NOT NULL"

/* _VERSION + ManifestEntry.SCHEMA (DataFileMeta.SCHEMA as _FILE), release-1.4.2 */
#define MANIFEST_ENTRY_WRITE_TYPE \
	"ROW<_VERSION INT NOT NULL, _KIND TINYINT NOT NULL, _PARTITION BYTES NOT NULL, " \
	"_BUCKET INT NOT NULL, _TOTAL_BUCKETS INT NOT NULL, _FILE ROW<" \
	"_FILE_NAME STRING NOT NULL, _FILE_SIZE BIGINT NOT NULL, _ROW_COUNT BIGINT NOT NULL, " \
	"_MIN_KEY BYTES NOT NULL, _MAX_KEY BYTES NOT NULL, " \
	"_KEY_STATS " SIMPLE_STATS_WRITE_TYPE ", _VALUE_STATS " SIMPLE_STATS_WRITE_TYPE ", " \
	"_MIN_SEQUENCE_NUMBER BIGINT NOT NULL, _MAX_SEQUENCE_NUMBER BIGINT NOT NULL, " \
	"_SCHEMA_ID BIGINT NOT NULL, _LEVEL INT NOT NULL, " \
	"_EXTRA_FILES ARRAY<STRING NOT NULL> NOT NULL, _CREATION_TIME TIMESTAMP(3), " \
	"_DELETE_ROW_COUNT BIGINT, _EMBEDDED_FILE_INDEX BYTES, _FILE_SOURCE TINYINT, " \
	"_VALUE_STATS_COLS ARRAY<STRING NOT NULL>, _EXTERNAL_PATH STRING, " \
	"_FIRST_ROW_ID BIGINT, _WRITE_COLS ARRAY<STRING NOT NULL>> NOT NULL> NOT NULL"

/* _VERSION + ManifestFileMeta.SCHEMA, release-1.4.2 */
#define MANIFEST_LIST_WRITE_TYPE \
	"ROW<_VERSION INT NOT NULL, _FILE_NAME STRING NOT NULL, _FILE_SIZE BIGINT NOT NULL, " \
	"_NUM_ADDED_FILES BIGINT NOT NULL, _NUM_DELETED_FILES BIGINT NOT NULL, " \
	"_PARTITION_STATS " SIMPLE_STATS_WRITE_TYPE ", _SCHEMA_ID BIGINT NOT NULL, " \
	"_MIN_BUCKET INT, _MAX_BUCKET INT, _MIN_LEVEL INT, _MAX_LEVEL INT, " \
	"_MIN_ROW_ID BIGINT, _MAX_ROW_ID BIGINT> NOT NULL"

/* _VERSION + IndexManifestEntry.SCHEMA, release-1.4.2 */
#define INDEX_MANIFEST_WRITE_TYPE \
	"ROW<_VERSION INT NOT NULL, _KIND TINYINT NOT NULL, _PARTITION BYTES NOT NULL, " \
	"_BUCKET INT NOT NULL, _INDEX_TYPE STRING NOT NULL, _FILE_NAME STRING NOT NULL, " \
	"_FILE_SIZE BIGINT NOT NULL, _ROW_COUNT BIGINT NOT NULL, " \
	"_DELETIONS_VECTORS_RANGES ARRAY<ROW<f0 STRING NOT NULL, f1 INT NOT NULL, " \
	"f2 INT NOT NULL, _CARDINALITY BIGINT>>, _EXTERNAL_PATH STRING, " \
	"_GLOBAL_INDEX ROW<_ROW_RANGE_START BIGINT NOT NULL, _ROW_RANGE_END BIGINT NOT NULL, " \
	"_INDEX_FIELD_ID INT NOT NULL, _EXTRA_FIELD_IDS ARRAY<INT NOT NULL>, " \
	"_INDEX_META BYTES>> NOT NULL"

/* indexes into the _FILE row */
enum
{
	F_NAME, F_SIZE, F_ROWS, F_MIN_KEY, F_MAX_KEY, F_KEY_STATS, F_VALUE_STATS,
	F_MIN_SEQ, F_MAX_SEQ, F_SCHEMA_ID, F_LEVEL, F_EXTRA, F_CREATION_TIME, F_DELETE_ROWS,
	F_EMBEDDED_INDEX, F_SOURCE, F_STATS_COLS, F_EXTERNAL, F_FIRST_ROW_ID, F_WRITE_COLS,
	F_COUNT
};

/* ---------------------------------------------------------------------
 * Filling vectors row by row
 * --------------------------------------------------------------------- */

typedef struct filler
{
	pm_arena   *arena;
	bool		nomem;
	/* data capacities of the varlen vectors, found by linear search */
	int			n;
	pm_vector  *vecs[64];
	int64_t		caps[64];
} filler;

static int64_t *
cap_of(filler *f, pm_vector *v)
{
	for (int i = 0; i < f->n; i++)
		if (f->vecs[i] == v)
			return &f->caps[i];
	if (f->n == 64)
	{
		f->nomem = true;
		return NULL;
	}
	f->vecs[f->n] = v;
	f->caps[f->n] = 0;
	return &f->caps[f->n++];
}

static void
set_lengths(pm_vector *v, int64_t n)
{
	v->length = n;
	if (v->type->id == PM_TYPE_ROW)
		for (int k = 0; k < v->nchildren; k++)
			set_lengths(&v->children[k], n);
}

/* Vector of n values of type (nulls allocated, ROW fields included). */
static void
vec_init(filler *f, pm_vector *v, const pm_type *type, int64_t n)
{
	if (!pm_vector_init(v, type, n > 0 ? n : 1, true, f->arena))
	{
		f->nomem = true;
		memset(v, 0, sizeof(*v));
		v->type = type;
		return;
	}
	set_lengths(v, n);
}

static void
set_null(pm_vector *v, int64_t i)
{
	if (v->nulls != NULL)
		v->nulls[i] = 1;
	if (v->offsets != NULL)
		v->offsets[i + 1] = v->offsets[i];
}

static void
set_int(pm_vector *v, int64_t i, int64_t x)
{
	if (v->values == NULL)
		return;
	switch (v->type->id)
	{
		case PM_TYPE_TINYINT:
			PM_VEC_VALUES(v, int8_t)[i] = (int8_t) x;
			break;
		case PM_TYPE_INT:
			PM_VEC_VALUES(v, int32_t)[i] = (int32_t) x;
			break;
		default:
			PM_VEC_VALUES(v, int64_t)[i] = x;
			break;
	}
}

static void
set_bytes(filler *f, pm_vector *v, int64_t i, const void *p, int32_t len)
{
	int64_t    *cap;

	if (p == NULL)
	{
		set_null(v, i);
		return;
	}
	if (v->offsets == NULL || (cap = cap_of(f, v)) == NULL ||
		!pm_vector_append_data(v, cap, p, len, f->arena))
	{
		f->nomem = true;
		return;
	}
	v->offsets[i + 1] = (int32_t) v->data_size;
}

static void
set_string(filler *f, pm_vector *v, int64_t i, const char *s)
{
	set_bytes(f, v, i, s, s ? (int32_t) strlen(s) : 0);
}

/*
 * ARRAY<STRING> value i: n strings (n < 0: NULL). The element vector was
 * sized for the whole chunk; *next is its first free slot.
 */
static void
set_strings(filler *f, pm_vector *v, int64_t i, const char *const *s, int n, int64_t *next)
{
	if (n < 0)
	{
		set_null(v, i);
		return;
	}
	for (int k = 0; k < n; k++)
		set_string(f, &v->children[0], (*next)++, s[k]);
	v->offsets[i + 1] = v->offsets[i] + n;
}

/* Size the element vector of an ARRAY vector for `total` elements. */
static void
elems_init(filler *f, pm_vector *v, int64_t total)
{
	if (v->children == NULL)
	{
		f->nomem = true;
		return;
	}
	vec_init(f, &v->children[0], v->type->element, total);
}

/* ---------------------------------------------------------------------
 * SimpleStats
 * --------------------------------------------------------------------- */

typedef struct empty_row
{
	uint8_t    *bytes;			/* serialized BinaryRow of arity 0 (EMPTY_ROW) */
	size_t		len;
} empty_row;

static pm_code
empty_row_make(pm_arena *arena, empty_row *e, pm_error *err)
{
	pm_type    *t = pm_type_new_row(arena, NULL, 0, false);

	if (t == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return pm_binary_row_encode_serialized(arena, t, NULL, &e->bytes, &e->len, err);
}

/* Count the _NULL_COUNTS elements of a stats value (0 if NULL). */
static int64_t
stats_elems(const pm_simple_stats *s)
{
	return s->nnull_counts > 0 ? s->nnull_counts : 0;
}

/* SimpleStats.toRow; NULL min/max bytes are EMPTY_ROW (SimpleStats.EMPTY_STATS). */
static void
set_stats(filler *f, pm_vector *v, int64_t i, const pm_simple_stats *s, const empty_row *e,
		  int64_t *next)
{
	pm_vector  *nc = &v->children[2];

	if (s->min_values != NULL)
		set_bytes(f, &v->children[0], i, s->min_values, s->min_values_len);
	else
		set_bytes(f, &v->children[0], i, e->bytes, (int32_t) e->len);
	if (s->max_values != NULL)
		set_bytes(f, &v->children[1], i, s->max_values, s->max_values_len);
	else
		set_bytes(f, &v->children[1], i, e->bytes, (int32_t) e->len);
	if (s->nnull_counts < 0)
	{
		set_null(nc, i);
		return;
	}
	for (int k = 0; k < s->nnull_counts; k++)
	{
		if (s->null_counts[k] < 0)
			set_null(&nc->children[0], *next);
		else
			set_int(&nc->children[0], *next, s->null_counts[k]);
		(*next)++;
	}
	nc->offsets[i + 1] = nc->offsets[i] + s->nnull_counts;
}

/* ---------------------------------------------------------------------
 * Writing batches
 * --------------------------------------------------------------------- */

typedef struct out_file
{
	pm_format_writer *writer;
	char	   *path;
	char	   *name;
} out_file;

static pm_code
open_out(const pm_env *env, pm_fileio *io, const char *table_path,
		 const pm_manifest_write_options *options, const char *prefix, const pm_type *type,
		 pm_arena *arena, out_file *out, pm_error *err)
{
	char		uuid[PM_UUID_TEXT_LEN + 1];
	char	   *dir;
	pm_format_write_options wo;
	pm_file_format format = options ? options->format : PM_FORMAT_AVRO;
	const char *compression = options && options->compression ? options->compression : "zstd";

	memset(out, 0, sizeof(*out));
	PM_TRY(pm_uuid_random(uuid, err));
	dir = pm_arena_sprintf(arena, "%s/manifest", table_path);
	out->name = pm_arena_sprintf(arena, "%s%s-0", prefix, uuid);
	out->path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, out->name);
	if (dir == NULL || out->name == NULL || out->path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (io->mkdirs != NULL && !io->is_dir(io, dir))
		PM_TRY(io->mkdirs(io, dir, err));
	memset(&wo, 0, sizeof(wo));
	wo.schema = type;
	wo.compression = compression;
	wo.zstd_level = 1;
	return pm_format_writer_open(format, env, io, out->path, &wo, &out->writer, err);
}

/* Builds the batch of n items (manifest entries or manifest file metas) in f->arena. */
typedef pm_code (*batch_fill_fn) (filler *f, const pm_type *type, const void *items, int n,
								  const empty_row *e, pm_batch *b, pm_error *err);

/*
 * Write count items (item_size bytes each) through out, CHUNK_ROWS at a
 * time (each batch built in chunk, reset after it), then finish the file;
 * the writer is gone afterwards whatever the outcome of the finish.
 */
static pm_code
write_batches(out_file *out, const pm_type *type, batch_fill_fn fill, const void *items,
			  size_t item_size, int count, const empty_row *e, pm_arena *chunk,
			  pm_arena *work, pm_format_write_result *res, pm_error *err)
{
	pm_code		rc = PM_OK;

	for (int start = 0; rc == PM_OK && start < count; start += CHUNK_ROWS)
	{
		int			n = count - start < CHUNK_ROWS ? count - start : CHUNK_ROWS;
		filler		f;
		pm_batch	b;

		memset(&f, 0, sizeof(f));
		f.arena = chunk;
		rc = fill(&f, type, (const char *) items + (size_t) start * item_size, n, e, &b, err);
		if (rc == PM_OK)
			rc = pm_format_writer_write(out->writer, &b, err);
		pm_arena_reset(chunk);
	}
	if (rc == PM_OK)
	{
		rc = pm_format_writer_finish(out->writer, work, res, err);
		out->writer = NULL;
	}
	return rc;
}

/* ---------------------------------------------------------------------
 * Manifest files
 * --------------------------------------------------------------------- */

static pm_code
entries_batch(filler *f, const pm_type *type, const void *items, int n,
			  const empty_row *e, pm_batch *b, pm_error *err)
{
	const pm_manifest_entry *entries = items;
	pm_vector  *cols;
	pm_vector  *fv,
			   *c;
	int64_t		n_extra = 0,
				n_kstats = 0,
				n_vstats = 0,
				n_scols = 0,
				n_wcols = 0;
	int64_t		i_extra = 0,
				i_kstats = 0,
				i_vstats = 0,
				i_scols = 0,
				i_wcols = 0;

	cols = pm_arena_zalloc(f->arena, sizeof(pm_vector) * (size_t) type->nfields);
	if (cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	b->nrows = n;
	b->first_row = 0;
	b->ncols = type->nfields;
	b->cols = cols;
	for (int k = 0; k < type->nfields; k++)
		vec_init(f, &cols[k], type->fields[k].type, n);
	if (f->nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	fv = &cols[5];
	c = fv->children;
	for (int i = 0; i < n; i++)
	{
		const pm_data_file_meta *m = &entries[i].file;

		n_extra += m->nextra_files > 0 ? m->nextra_files : 0;
		n_kstats += stats_elems(&m->key_stats);
		n_vstats += stats_elems(&m->value_stats);
		n_scols += m->nvalue_stats_cols > 0 ? m->nvalue_stats_cols : 0;
		n_wcols += m->nwrite_cols > 0 ? m->nwrite_cols : 0;
	}
	elems_init(f, &c[F_EXTRA], n_extra);
	elems_init(f, &c[F_KEY_STATS].children[2], n_kstats);
	elems_init(f, &c[F_VALUE_STATS].children[2], n_vstats);
	elems_init(f, &c[F_STATS_COLS], n_scols);
	elems_init(f, &c[F_WRITE_COLS], n_wcols);

	for (int i = 0; i < n && !f->nomem; i++)
	{
		const pm_manifest_entry *en = &entries[i];
		const pm_data_file_meta *m = &en->file;

		if (en->partition == NULL || m->file_name == NULL)
			return pm_fail(err, PM_ERR_INVALID, "manifest entry without a partition or file name");
		if (en->kind != PM_FILE_KIND_ADD && en->kind != PM_FILE_KIND_DELETE)
			return pm_fail(err, PM_ERR_INVALID, "manifest entry of kind %d", (int) en->kind);
		set_int(&cols[0], i, 2);
		set_int(&cols[1], i, en->kind);
		set_bytes(f, &cols[2], i, en->partition, en->partition_len);
		set_int(&cols[3], i, en->bucket);
		set_int(&cols[4], i, en->total_buckets);

		set_string(f, &c[F_NAME], i, m->file_name);
		set_int(&c[F_SIZE], i, m->file_size);
		set_int(&c[F_ROWS], i, m->row_count);
		if (m->min_key != NULL)
			set_bytes(f, &c[F_MIN_KEY], i, m->min_key, m->min_key_len);
		else
			set_bytes(f, &c[F_MIN_KEY], i, e->bytes, (int32_t) e->len);
		if (m->max_key != NULL)
			set_bytes(f, &c[F_MAX_KEY], i, m->max_key, m->max_key_len);
		else
			set_bytes(f, &c[F_MAX_KEY], i, e->bytes, (int32_t) e->len);
		set_stats(f, &c[F_KEY_STATS], i, &m->key_stats, e, &i_kstats);
		set_stats(f, &c[F_VALUE_STATS], i, &m->value_stats, e, &i_vstats);
		set_int(&c[F_MIN_SEQ], i, m->min_sequence_number);
		set_int(&c[F_MAX_SEQ], i, m->max_sequence_number);
		set_int(&c[F_SCHEMA_ID], i, m->schema_id);
		set_int(&c[F_LEVEL], i, m->level);
		set_strings(f, &c[F_EXTRA], i, m->extra_files, m->nextra_files > 0 ? m->nextra_files : 0, &i_extra);
		if (m->has_creation_time)
			set_int(&c[F_CREATION_TIME], i, m->creation_time_millis * 1000);
		else
			set_null(&c[F_CREATION_TIME], i);
		if (m->delete_row_count >= 0)
			set_int(&c[F_DELETE_ROWS], i, m->delete_row_count);
		else
			set_null(&c[F_DELETE_ROWS], i);
		set_bytes(f, &c[F_EMBEDDED_INDEX], i, m->embedded_file_index, m->embedded_file_index_len);
		if (m->file_source >= 0)
			set_int(&c[F_SOURCE], i, m->file_source);
		else
			set_null(&c[F_SOURCE], i);
		set_strings(f, &c[F_STATS_COLS], i, m->value_stats_cols, m->nvalue_stats_cols, &i_scols);
		set_string(f, &c[F_EXTERNAL], i, m->external_path);
		if (m->has_first_row_id)
			set_int(&c[F_FIRST_ROW_ID], i, m->first_row_id);
		else
			set_null(&c[F_FIRST_ROW_ID], i);
		set_strings(f, &c[F_WRITE_COLS], i, m->write_cols, m->nwrite_cols, &i_wcols);
	}
	if (f->nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

/* SimpleStatsCollector (full mode) over the entries' partitions. */
typedef struct partition_stats
{
	const pm_type *type;
	pm_value   *min;
	pm_value   *max;
	int64_t    *nulls;
	pm_value   *scratch;
} partition_stats;

static pm_code
partition_stats_init(partition_stats *ps, const pm_type *type, pm_arena *arena, pm_error *err)
{
	int			n = type->nfields;

	ps->type = type;
	ps->min = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (n + 1));
	ps->max = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (n + 1));
	ps->scratch = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (n + 1));
	ps->nulls = pm_arena_zalloc(arena, sizeof(int64_t) * (size_t) (n + 1));
	if (ps->min == NULL || ps->max == NULL || ps->scratch == NULL || ps->nulls == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int k = 0; k < n; k++)
	{
		if (pm_type_is_nested(type->fields[k].type->id))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "partition field \"%s\" of type %s",
						   type->fields[k].name, pm_type_id_name(type->fields[k].type->id));
		ps->min[k].is_null = ps->max[k].is_null = true;
	}
	return PM_OK;
}

/* The values point into the entries' partition bytes, which outlive the stats. */
static pm_code
partition_stats_collect(partition_stats *ps, const uint8_t *partition, int32_t len,
						pm_error *err)
{
	PM_TRY(pm_binary_row_decode_serialized(partition, (size_t) len, ps->type, ps->scratch, err));
	for (int k = 0; k < ps->type->nfields; k++)
	{
		const pm_type *t = ps->type->fields[k].type;
		const pm_value *v = &ps->scratch[k];

		if (v->is_null)
		{
			ps->nulls[k]++;
			continue;
		}
		if (ps->min[k].is_null || pm_value_compare(t, v, &ps->min[k]) < 0)
			ps->min[k] = *v;
		if (ps->max[k].is_null || pm_value_compare(t, v, &ps->max[k]) > 0)
			ps->max[k] = *v;
	}
	return PM_OK;
}

/* SimpleStatsConverter.toBinaryAllMode */
static pm_code
partition_stats_result(partition_stats *ps, pm_arena *arena, pm_simple_stats *out,
					   pm_error *err)
{
	uint8_t    *buf;
	size_t		len;
	int			n = ps->type->nfields;
	int64_t    *counts = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (n + 1));

	if (counts == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_binary_row_encode_serialized(arena, ps->type, ps->min, &buf, &len, err));
	out->min_values = buf;
	out->min_values_len = (int32_t) len;
	PM_TRY(pm_binary_row_encode_serialized(arena, ps->type, ps->max, &buf, &len, err));
	out->max_values = buf;
	out->max_values_len = (int32_t) len;
	memcpy(counts, ps->nulls, sizeof(int64_t) * (size_t) n);
	out->null_counts = counts;
	out->nnull_counts = n;
	return PM_OK;
}

pm_code
pm_manifest_file_write(const pm_env *env, pm_fileio *io, const char *table_path,
					   const pm_manifest_write_options *options,
					   const pm_type *partition_type, int64_t schema_id,
					   const pm_manifest_entry *entries, int count,
					   pm_arena *arena, pm_manifest_file_meta *meta,
					   pm_error *err)
{
	pm_arena   *work = pm_arena_create(env);
	pm_arena   *chunk = pm_arena_create(env);
	const pm_type *type;
	empty_row	e;
	partition_stats ps;
	out_file	out;
	pm_format_write_result res;
	int64_t		max_schema = INT64_MIN,
				min_row_id = INT64_MAX,
				max_row_id = INT64_MIN;
	int32_t		min_bucket = INT32_MAX,
				max_bucket = INT32_MIN,
				min_level = INT32_MAX,
				max_level = INT32_MIN;
	bool		row_ids = true;
	int64_t		added = 0,
				deleted = 0;
	pm_code		rc;

	memset(meta, 0, sizeof(*meta));
	memset(&out, 0, sizeof(out));
	if (work == NULL || chunk == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	if (partition_type == NULL || partition_type->id != PM_TYPE_ROW)
	{
		rc = pm_fail(err, PM_ERR_INVALID, "manifest writer needs the partition ROW type");
		goto done;
	}
	rc = pm_data_type_parse(MANIFEST_ENTRY_WRITE_TYPE, work, &type, err);
	if (rc == PM_OK)
		rc = empty_row_make(work, &e, err);
	if (rc == PM_OK)
		rc = partition_stats_init(&ps, partition_type, work, err);
	for (int i = 0; rc == PM_OK && i < count; i++)
	{
		const pm_manifest_entry *en = &entries[i];

		if (en->kind == PM_FILE_KIND_ADD)
			added++;
		else
			deleted++;
		max_schema = en->file.schema_id > max_schema ? en->file.schema_id : max_schema;
		min_bucket = en->bucket < min_bucket ? en->bucket : min_bucket;
		max_bucket = en->bucket > max_bucket ? en->bucket : max_bucket;
		min_level = en->file.level < min_level ? en->file.level : min_level;
		max_level = en->file.level > max_level ? en->file.level : max_level;
		if (!en->file.has_first_row_id)
			row_ids = false;
		else if (row_ids)
		{
			int64_t		last = en->file.first_row_id + en->file.row_count - 1;

			min_row_id = en->file.first_row_id < min_row_id ? en->file.first_row_id : min_row_id;
			max_row_id = last > max_row_id ? last : max_row_id;
		}
		if (en->partition == NULL)
			rc = pm_fail(err, PM_ERR_INVALID, "manifest entry without a partition");
		else
			rc = partition_stats_collect(&ps, en->partition, en->partition_len, err);
	}
	if (rc == PM_OK)
		rc = partition_stats_result(&ps, arena, &meta->partition_stats, err);
	if (rc == PM_OK)
		rc = open_out(env, io, table_path, options, "manifest-", type, arena, &out, err);
	if (rc == PM_OK)
		rc = write_batches(&out, type, entries_batch, entries, sizeof(pm_manifest_entry), count, &e,
						   chunk, work, &res, err);
	if (rc == PM_OK)
	{
		meta->file_name = out.name;
		meta->file_size = res.file_size;
		meta->num_added_files = added;
		meta->num_deleted_files = deleted;
		meta->schema_id = count > 0 ? max_schema : schema_id;
		meta->has_bucket_range = meta->has_level_range = true;
		meta->min_bucket = min_bucket;
		meta->max_bucket = max_bucket;
		meta->min_level = min_level;
		meta->max_level = max_level;
		meta->has_row_id_range = row_ids;
		meta->min_row_id = row_ids ? min_row_id : 0;
		meta->max_row_id = row_ids ? max_row_id : 0;
	}
done:
	pm_format_writer_abort(out.writer);
	if (rc != PM_OK)
	{
		memset(meta, 0, sizeof(*meta));
		if (out.path != NULL)
			pm_error_set_path(err, out.path);
	}
	if (chunk != NULL)
		pm_arena_destroy(chunk);
	if (work != NULL)
		pm_arena_destroy(work);
	return rc;
}

/* ---------------------------------------------------------------------
 * Manifest lists
 * --------------------------------------------------------------------- */

static pm_code
metas_batch(filler *f, const pm_type *type, const void *items, int n,
			const empty_row *e, pm_batch *b, pm_error *err)
{
	const pm_manifest_file_meta *metas = items;
	pm_vector  *cols = pm_arena_zalloc(f->arena, sizeof(pm_vector) * (size_t) type->nfields);
	int64_t		n_stats = 0,
				i_stats = 0;

	if (cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	b->nrows = n;
	b->first_row = 0;
	b->ncols = type->nfields;
	b->cols = cols;
	for (int k = 0; k < type->nfields; k++)
		vec_init(f, &cols[k], type->fields[k].type, n);
	if (f->nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		n_stats += stats_elems(&metas[i].partition_stats);
	elems_init(f, &cols[5].children[2], n_stats);
	for (int i = 0; i < n && !f->nomem; i++)
	{
		const pm_manifest_file_meta *m = &metas[i];

		if (m->file_name == NULL)
			return pm_fail(err, PM_ERR_INVALID, "manifest list entry without a file name");
		set_int(&cols[0], i, 2);
		set_string(f, &cols[1], i, m->file_name);
		set_int(&cols[2], i, m->file_size);
		set_int(&cols[3], i, m->num_added_files);
		set_int(&cols[4], i, m->num_deleted_files);
		set_stats(f, &cols[5], i, &m->partition_stats, e, &i_stats);
		set_int(&cols[6], i, m->schema_id);
		if (m->has_bucket_range)
		{
			set_int(&cols[7], i, m->min_bucket);
			set_int(&cols[8], i, m->max_bucket);
		}
		else
		{
			set_null(&cols[7], i);
			set_null(&cols[8], i);
		}
		if (m->has_level_range)
		{
			set_int(&cols[9], i, m->min_level);
			set_int(&cols[10], i, m->max_level);
		}
		else
		{
			set_null(&cols[9], i);
			set_null(&cols[10], i);
		}
		if (m->has_row_id_range)
		{
			set_int(&cols[11], i, m->min_row_id);
			set_int(&cols[12], i, m->max_row_id);
		}
		else
		{
			set_null(&cols[11], i);
			set_null(&cols[12], i);
		}
	}
	if (f->nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

/*
 * Write count items through fill into a new <table_path>/manifest/<prefix>
 * <uuid>-0 of the ROW type type_text; its name (in arena) and size are
 * returned. Manifest lists and index manifests are written this way.
 */
static pm_code
write_items_file(const pm_env *env, pm_fileio *io, const char *table_path,
				 const pm_manifest_write_options *options, const char *prefix,
				 const char *type_text, batch_fill_fn fill, const void *items,
				 size_t item_size, int count, pm_arena *arena, const char **file_name,
				 int64_t *file_size, pm_error *err)
{
	pm_arena   *work = pm_arena_create(env);
	pm_arena   *chunk = pm_arena_create(env);
	const pm_type *type;
	empty_row	e;
	out_file	out;
	pm_format_write_result res;
	pm_code		rc;

	*file_name = NULL;
	*file_size = 0;
	memset(&out, 0, sizeof(out));
	if (work == NULL || chunk == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	rc = pm_data_type_parse(type_text, work, &type, err);
	if (rc == PM_OK)
		rc = empty_row_make(work, &e, err);
	if (rc == PM_OK)
		rc = open_out(env, io, table_path, options, prefix, type, arena, &out, err);
	if (rc == PM_OK)
		rc = write_batches(&out, type, fill, items, item_size, count, &e, chunk, work, &res, err);
	if (rc == PM_OK)
	{
		*file_name = out.name;
		*file_size = res.file_size;
	}
done:
	pm_format_writer_abort(out.writer);
	if (rc != PM_OK && out.path != NULL)
		pm_error_set_path(err, out.path);
	if (chunk != NULL)
		pm_arena_destroy(chunk);
	if (work != NULL)
		pm_arena_destroy(work);
	return rc;
}

pm_code
pm_manifest_list_write(const pm_env *env, pm_fileio *io, const char *table_path,
					   const pm_manifest_write_options *options,
					   const pm_manifest_file_meta *metas, int count,
					   pm_arena *arena, const char **file_name,
					   int64_t *file_size, pm_error *err)
{
	return write_items_file(env, io, table_path, options, "manifest-list-",
							MANIFEST_LIST_WRITE_TYPE, metas_batch, metas,
							sizeof(pm_manifest_file_meta), count, arena, file_name, file_size,
							err);
}

/* ---------------------------------------------------------------------
 * Index manifests
 * --------------------------------------------------------------------- */

static pm_code
index_entries_batch(filler *f, const pm_type *type, const void *items, int n,
					const empty_row *e, pm_batch *b, pm_error *err)
{
	const pm_index_manifest_entry *entries = items;
	pm_vector  *cols = pm_arena_zalloc(f->arena, sizeof(pm_vector) * (size_t) type->nfields);
	pm_vector  *ranges,
			   *range;
	int64_t		n_ranges = 0,
				next = 0;

	(void) e;
	if (cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	b->nrows = n;
	b->first_row = 0;
	b->ncols = type->nfields;
	b->cols = cols;
	for (int k = 0; k < type->nfields; k++)
		vec_init(f, &cols[k], type->fields[k].type, n);
	if (f->nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		n_ranges += entries[i].nranges > 0 ? entries[i].nranges : 0;
	ranges = &cols[8];
	elems_init(f, ranges, n_ranges);
	if (f->nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	range = &ranges->children[0];
	for (int i = 0; i < n && !f->nomem; i++)
	{
		const pm_index_manifest_entry *x = &entries[i];

		if (x->index_type == NULL || x->file_name == NULL || x->partition == NULL)
			return pm_fail(err, PM_ERR_INVALID, "index manifest entry without a type, file or partition");
		set_int(&cols[0], i, 1);
		set_int(&cols[1], i, x->kind);
		set_bytes(f, &cols[2], i, x->partition, x->partition_len);
		set_int(&cols[3], i, x->bucket);
		set_string(f, &cols[4], i, x->index_type);
		set_string(f, &cols[5], i, x->file_name);
		set_int(&cols[6], i, x->file_size);
		set_int(&cols[7], i, x->row_count);
		if (x->nranges < 0)
			set_null(ranges, i);
		else
		{
			for (int r = 0; r < x->nranges; r++, next++)
			{
				const pm_dv_range *dv = &x->ranges[r];

				if (dv->data_file == NULL)
					return pm_fail(err, PM_ERR_INVALID, "deletion vector range without a data file");
				set_string(f, &range->children[0], next, dv->data_file);
				set_int(&range->children[1], next, dv->offset);
				set_int(&range->children[2], next, dv->length);
				if (dv->cardinality < 0)
					set_null(&range->children[3], next);
				else
					set_int(&range->children[3], next, dv->cardinality);
			}
			ranges->offsets[i + 1] = ranges->offsets[i] + x->nranges;
		}
		if (x->external_path != NULL)
			set_string(f, &cols[9], i, x->external_path);
		else
			set_null(&cols[9], i);
		set_null(&cols[10], i);
	}
	if (f->nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

pm_code
pm_index_manifest_write(const pm_env *env, pm_fileio *io, const char *table_path,
						const pm_manifest_write_options *options,
						const pm_index_manifest_entry *entries, int count,
						pm_arena *arena, const char **file_name,
						int64_t *file_size, pm_error *err)
{
	return write_items_file(env, io, table_path, options, "index-manifest-",
							INDEX_MANIFEST_WRITE_TYPE, index_entries_batch, entries,
							sizeof(pm_index_manifest_entry), count, arena, file_name, file_size,
							err);
}
