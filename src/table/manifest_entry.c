/*-------------------------------------------------------------------------
 * manifest_entry.c
 *	  Decode manifest files (ManifestEntry + DataFileMeta) and merge them
 *	  into the live file set.
 *
 * One requested ROW type covers every DataFileMeta version from 0.4 to 2.x:
 * fields a writer did not have read as NULL (format reader contract) and
 * get their documented defaults. Identity for merging includes the level (§6.4: a DELETE
 * L0 + ADD L5 of one file name is an upgrade).
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §6.
 *-------------------------------------------------------------------------
 */
#include "table/manifest_entry.h"

#include <string.h>

#include "common/floor_div.h"
#include "common/meta_cache.h"
#include "format/format_reader.h"
#include "row/data_type.h"
#include "table/manifest_list.h"
#include "table/catalog.h"
#include "table/table_int.h"

#define MANIFEST_ENTRY_TYPE \
	"ROW<_VERSION INT, _KIND TINYINT, _PARTITION BYTES, _BUCKET INT, " \
	"_TOTAL_BUCKETS INT, _FILE ROW<" \
	"_FILE_NAME STRING, _FILE_SIZE BIGINT, _ROW_COUNT BIGINT, " \
	"_MIN_KEY BYTES, _MAX_KEY BYTES, " \
	"_KEY_STATS " PM_SIMPLE_STATS_TYPE ", _VALUE_STATS " PM_SIMPLE_STATS_TYPE ", " \
	"_MIN_SEQUENCE_NUMBER BIGINT, _MAX_SEQUENCE_NUMBER BIGINT, _SCHEMA_ID BIGINT, " \
	"_LEVEL INT, _EXTRA_FILES ARRAY<STRING>, _DELETE_ROW_COUNT BIGINT, " \
	"_EMBEDDED_FILE_INDEX BYTES, _FILE_SOURCE TINYINT, _VALUE_STATS_COLS ARRAY<STRING>, " \
	"_EXTERNAL_PATH STRING, _FIRST_ROW_ID BIGINT, _WRITE_COLS ARRAY<STRING>, " \
	"_CREATION_TIME TIMESTAMP(3)>>"

/* indexes into the _FILE row */
enum
{
	F_NAME, F_SIZE, F_ROWS, F_MIN_KEY, F_MAX_KEY, F_KEY_STATS, F_VALUE_STATS,
	F_MIN_SEQ, F_MAX_SEQ, F_SCHEMA_ID, F_LEVEL, F_EXTRA, F_DELETE_ROWS,
	F_EMBEDDED_INDEX, F_SOURCE, F_STATS_COLS, F_EXTERNAL, F_FIRST_ROW_ID,
	F_WRITE_COLS, F_CREATION_TIME, F_COUNT
};

static pm_code
decode_row(const pm_batch *b, int64_t i, pm_arena *arena, pm_manifest_entry *e,
		   pm_error *err)
{
	const pm_vector *fv = &b->cols[5];
	const pm_vector *c;
	pm_data_file_meta *f = &e->file;
	bool		nomem = false;
	int64_t		version = pm_meta_vector_int(&b->cols[0], i, -1);
	int64_t		kind = pm_meta_vector_int(&b->cols[1], i, -1);

	if (version != 2)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "manifest version %lld is not supported",
					   (long long) version);
	if (kind != PM_FILE_KIND_ADD && kind != PM_FILE_KIND_DELETE)
		return pm_fail(err, PM_ERR_CORRUPT, "manifest entry has kind %lld", (long long) kind);
	if (pm_vector_is_null(fv, i) || fv->nchildren != F_COUNT)
		return pm_fail(err, PM_ERR_CORRUPT, "manifest entry has no data file");
	memset(e, 0, sizeof(*e));
	e->kind = (pm_file_kind) kind;
	if (!pm_meta_vector_bytes(&b->cols[2], i, arena, &e->partition, &e->partition_len))
		nomem = true;
	if (e->partition == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "manifest entry has no partition");
	e->bucket = (int32_t) pm_meta_vector_int(&b->cols[3], i, 0);
	e->total_buckets = (int32_t) pm_meta_vector_int(&b->cols[4], i, -1);

	c = fv->children;
	f->file_name = pm_meta_vector_string(&c[F_NAME], i, arena, &nomem);
	f->file_size = pm_meta_vector_int(&c[F_SIZE], i, -1);
	f->row_count = pm_meta_vector_int(&c[F_ROWS], i, -1);
	if (!pm_meta_vector_bytes(&c[F_MIN_KEY], i, arena, &f->min_key, &f->min_key_len) ||
		!pm_meta_vector_bytes(&c[F_MAX_KEY], i, arena, &f->max_key, &f->max_key_len) ||
		!pm_meta_vector_stats(&c[F_KEY_STATS], i, arena, &f->key_stats) ||
		!pm_meta_vector_stats(&c[F_VALUE_STATS], i, arena, &f->value_stats))
		nomem = true;
	f->min_sequence_number = pm_meta_vector_int(&c[F_MIN_SEQ], i, 0);
	f->max_sequence_number = pm_meta_vector_int(&c[F_MAX_SEQ], i, 0);
	f->schema_id = pm_meta_vector_int(&c[F_SCHEMA_ID], i, 0);
	f->level = (int32_t) pm_meta_vector_int(&c[F_LEVEL], i, 0);
	if (!pm_meta_vector_strings(&c[F_EXTRA], i, arena, &f->extra_files, &f->nextra_files))
		nomem = true;
	if (f->nextra_files < 0)
		f->nextra_files = 0;
	f->delete_row_count = pm_meta_vector_int(&c[F_DELETE_ROWS], i, -1);
	if (!pm_meta_vector_bytes(&c[F_EMBEDDED_INDEX], i, arena, &f->embedded_file_index,
							  &f->embedded_file_index_len))
		nomem = true;
	f->file_source = (int32_t) pm_meta_vector_int(&c[F_SOURCE], i, -1);
	if (!pm_meta_vector_strings(&c[F_STATS_COLS], i, arena, &f->value_stats_cols,
								&f->nvalue_stats_cols))
		nomem = true;
	f->external_path = pm_meta_vector_string(&c[F_EXTERNAL], i, arena, &nomem);
	f->has_first_row_id = !pm_vector_is_null(&c[F_FIRST_ROW_ID], i) &&
		c[F_FIRST_ROW_ID].length > i;
	f->first_row_id = pm_meta_vector_int(&c[F_FIRST_ROW_ID], i, 0);
	if (!pm_meta_vector_strings(&c[F_WRITE_COLS], i, arena, &f->write_cols, &f->nwrite_cols))
		nomem = true;
	/* TIMESTAMP(3) as read: microseconds; Java stores the millisecond */
	f->has_creation_time = !pm_vector_is_null(&c[F_CREATION_TIME], i) &&
		c[F_CREATION_TIME].length > i;
	f->creation_time_millis = pm_floor_div(pm_meta_vector_int(&c[F_CREATION_TIME], i, 0), 1000);
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (!pm_catalog_name_valid(f->file_name))
		return pm_fail(err, PM_ERR_CORRUPT, "manifest entry has an invalid file name");
	for (int k = 0; k < f->nextra_files; k++)
		if (!pm_catalog_name_valid(f->extra_files[k]))
			return pm_fail(err, PM_ERR_CORRUPT, "manifest entry has an invalid extra file name");
	if (f->row_count < 0 || f->file_size < 0)
		return pm_fail(err, PM_ERR_CORRUPT, "manifest entry has a negative row count or size");
	return PM_OK;
}

typedef struct entry_reading
{
	pm_arena   *arena;
	pm_manifest_entry **entries;
	int		   *count;
	int		   *cap;
} entry_reading;

static pm_code
entry_row(void *ctx, const pm_batch *b, int64_t i, pm_error *err)
{
	entry_reading *er = ctx;
	pm_code		rc;

	if (!pm_arena_array_grow(er->arena, (void **) er->entries, er->cap, *er->count,
							 sizeof(**er->entries), 1 << 26))
		return *er->cap >= (1 << 25) ?
			pm_fail(err, PM_ERR_CORRUPT, "too many manifest entries") :
			pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = decode_row(b, i, er->arena, &(*er->entries)[*er->count], err);
	if (rc == PM_OK)
		(*er->count)++;
	return rc;
}

pm_code
pm_manifest_entries_read(const pm_env *env, pm_fileio *io, const char *path,
						 pm_arena *arena, pm_manifest_entry **entries, int *count,
						 int *cap, pm_error *err)
{
	entry_reading er = {arena, entries, count, cap};

	return pm_metadata_file_scan(env, io, path, MANIFEST_ENTRY_TYPE, arena, entry_row, &er, err);
}

/* ---- through the metadata cache ----------------------------------------- */

typedef struct cached_entries
{
	int64_t		n;
	pm_manifest_entry *entries;
} cached_entries;

static const char **
flatten_strings(pm_flat *f, const char **src, int n)
{
	const char **copy;

	if (src == NULL)
		return NULL;
	copy = pm_flat_take(f, sizeof(char *) * (size_t) (n > 0 ? n : 0));
	for (int i = 0; i < n; i++)
	{
		char	   *s = pm_flat_string(f, src[i]);

		if (copy != NULL)
			copy[i] = s;
	}
	return copy;
}

/* What decode_row fills; path, format and deletion file come later. */
static void *
entries_flatten(const void *src, pm_flat *f)
{
	const cached_entries *ce = src;
	cached_entries *copy = pm_flat_take(f, sizeof(cached_entries));
	pm_manifest_entry *out = pm_flat_take(f, sizeof(pm_manifest_entry) * (size_t) ce->n);

	for (int64_t i = 0; i < ce->n; i++)
	{
		const pm_manifest_entry *e = &ce->entries[i];
		const pm_data_file_meta *s = &e->file;
		pm_manifest_entry *d = out ? &out[i] : NULL;
		const uint8_t *partition = pm_flat_bytes(f, e->partition, (size_t) e->partition_len);
		const char *name = pm_flat_string(f, s->file_name);
		const uint8_t *min_key = pm_flat_bytes(f, s->min_key, (size_t) s->min_key_len);
		const uint8_t *max_key = pm_flat_bytes(f, s->max_key, (size_t) s->max_key_len);
		const char **extra = flatten_strings(f, s->extra_files, s->nextra_files);
		const uint8_t *index = pm_flat_bytes(f, s->embedded_file_index,
											 (size_t) s->embedded_file_index_len);
		const char **stats_cols = flatten_strings(f, s->value_stats_cols, s->nvalue_stats_cols);
		const char *external = pm_flat_string(f, s->external_path);
		const char **write_cols = flatten_strings(f, s->write_cols, s->nwrite_cols);

		if (d != NULL)
		{
			*d = *e;
			d->partition = partition;
			d->file.file_name = name;
			d->file.min_key = min_key;
			d->file.max_key = max_key;
			d->file.extra_files = extra;
			d->file.embedded_file_index = index;
			d->file.value_stats_cols = stats_cols;
			d->file.external_path = external;
			d->file.write_cols = write_cols;
		}
		pm_simple_stats_flatten(f, d ? &d->file.key_stats : NULL, &s->key_stats);
		pm_simple_stats_flatten(f, d ? &d->file.value_stats : NULL, &s->value_stats);
	}
	if (copy == NULL)
		return NULL;
	copy->n = ce->n;
	copy->entries = out;
	return copy;
}

pm_code
pm_manifest_entries_read_cached(const pm_env *env, pm_fileio *io, const char *path,
								int64_t size, pm_arena *arena, pm_manifest_entry **entries,
								int *count, int *cap, pm_error *err)
{
	cached_entries *hit = pm_meta_cache_fetch(PM_META_MANIFEST, path, size, arena,
											  entries_flatten);
	cached_entries read;
	int			first = *count;

	if (hit != NULL)
	{
		for (int64_t i = 0; i < hit->n; i++)
		{
			if (!pm_arena_array_grow(arena, (void **) entries, cap, *count, sizeof(**entries),
									 1 << 26))
				return *cap >= (1 << 25) ?
					pm_fail(err, PM_ERR_CORRUPT, "too many manifest entries") :
					pm_fail(err, PM_ERR_NOMEM, "out of memory");
			(*entries)[(*count)++] = hit->entries[i];
		}
		return PM_OK;
	}
	PM_TRY(pm_manifest_entries_read(env, io, path, arena, entries, count, cap, err));
	read.n = *count - first;
	read.entries = *entries + first;
	pm_meta_cache_store(PM_META_MANIFEST, path, size, &read, entries_flatten);
	return PM_OK;
}

/* ---- merging by identifier -------------------------------------------- */

static uint64_t
hash_bytes(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
	{
		h ^= b[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t
hash_str(uint64_t h, const char *s)
{
	return s ? hash_bytes(h, s, strlen(s) + 1) : hash_bytes(h, "\xff", 1);
}

static uint64_t
entry_hash(const pm_manifest_entry *e)
{
	uint64_t	h = 14695981039346656037ULL;

	h = hash_bytes(h, e->partition, e->partition_len);
	h = hash_bytes(h, &e->bucket, sizeof(e->bucket));
	h = hash_bytes(h, &e->file.level, sizeof(e->file.level));
	h = hash_str(h, e->file.file_name);
	for (int i = 0; i < e->file.nextra_files; i++)
		h = hash_str(h, e->file.extra_files[i]);
	if (e->file.embedded_file_index)
		h = hash_bytes(h, e->file.embedded_file_index, e->file.embedded_file_index_len);
	h = hash_str(h, e->file.external_path);
	return h;
}

static bool
str_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static bool
entry_same(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
	if (a->partition_len != b->partition_len || a->bucket != b->bucket ||
		a->file.level != b->file.level || !str_eq(a->file.file_name, b->file.file_name) ||
		a->file.nextra_files != b->file.nextra_files ||
		!str_eq(a->file.external_path, b->file.external_path) ||
		(a->file.embedded_file_index == NULL) != (b->file.embedded_file_index == NULL) ||
		a->file.embedded_file_index_len != b->file.embedded_file_index_len)
		return false;
	if (a->partition_len > 0 && memcmp(a->partition, b->partition, a->partition_len) != 0)
		return false;
	for (int i = 0; i < a->file.nextra_files; i++)
		if (strcmp(a->file.extra_files[i], b->file.extra_files[i]) != 0)
			return false;
	if (a->file.embedded_file_index_len > 0 &&
		memcmp(a->file.embedded_file_index, b->file.embedded_file_index,
			   a->file.embedded_file_index_len) != 0)
		return false;
	return true;
}

pm_code
pm_manifest_entries_merge(pm_manifest_entry *entries, int count, pm_arena *arena,
						  pm_manifest_entry ***live, int *nlive, pm_error *err)
{
	size_t		nslots = 16;
	int		   *slots;
	bool	   *alive;
	int			n = 0;

	*live = NULL;
	*nlive = 0;
	while (nslots < (size_t) count * 2 + 1)
		nslots *= 2;
	slots = pm_arena_alloc(arena, sizeof(int) * nslots);
	alive = pm_arena_zalloc(arena, sizeof(bool) * ((size_t) count + 1));
	*live = pm_arena_alloc(arena, sizeof(pm_manifest_entry *) * ((size_t) count + 1));
	if (slots == NULL || alive == NULL || *live == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(slots, 0xff, sizeof(int) * nslots);	/* -1 = empty */

	for (int i = 0; i < count; i++)
	{
		pm_manifest_entry *e = &entries[i];
		size_t		pos = entry_hash(e) & (nslots - 1);
		int			found = -1;

		/* probe; deleted identifiers keep their slot but are not alive */
		while (slots[pos] >= 0)
		{
			if (alive[slots[pos]] && entry_same(&entries[slots[pos]], e))
			{
				found = slots[pos];
				break;
			}
			pos = (pos + 1) & (nslots - 1);
		}
		if (e->kind == PM_FILE_KIND_ADD)
		{
			if (found >= 0)
				return pm_fail(err, PM_ERR_CORRUPT, "data file \"%.200s\" is added twice",
							   e->file.file_name);
			slots[pos] = i;
			alive[i] = true;
		}
		else if (found >= 0)
			alive[found] = false;
	}
	for (int i = 0; i < count; i++)
		if (alive[i])
			(*live)[n++] = &entries[i];
	*nlive = n;
	return PM_OK;
}
