/*-------------------------------------------------------------------------
 * test_avro_reader.c
 *	  Tests of the Avro object container reader (src/format/avro/).
 *
 * Real files from the shared corpus: manifest lists and manifests of every
 * table whose metadata is Avro (decoded fields checked against the worked
 * examples of paimon-format-metadata.md, live data files that exist on disk,
 * row counts equal to the snapshots' totalRecordCount and to the expected
 * JSON of append tables), index manifests, and the Avro data files of
 * tables/avro/append_multiple.db and append_with_multiple_map.db compared
 * row by row with the expected JSON files. Synthetic files built here cover codecs
 * (null, deflate, snappy with CRC, zstd), unions in any order, enums, fixed,
 * decimals, named references, negative block counts, schema resolution, and
 * corruption (which must give PM_ERR_CORRUPT, never a crash).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

/* paths are built in fixed buffers; the corpus paths are short (gcc only:
 * clang has no such warning) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <zlib.h>

#include "codec/codec.h"
#include "common/arena.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/avro/avro_reader.h"
#include "format/format_reader.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"

static pm_arena *A;				/* types and scratch, per test */

static int
setup(void **state)
{
	(void) state;
	A = pm_arena_create(pm_env_default());
	return A == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void) state;
	pm_arena_destroy(A);
	return 0;
}

/* ---------------------------------------------------------------------
 * Type building
 * ---------------------------------------------------------------------
 */

static const pm_type *
T(pm_type_id id)
{
	return pm_type_new(A, id, true);
}

static const pm_type *
TS(pm_type_id id, int precision)
{
	pm_type    *t = pm_type_new(A, id, true);

	t->precision = precision;
	return t;
}

static const pm_type *
DEC(int p, int s)
{
	return pm_type_new_decimal(A, p, s, true);
}

static const pm_type *
ARR(const pm_type *e)
{
	return pm_type_new_array(A, e, true);
}

static const pm_type *
MAP(const pm_type *k, const pm_type *v)
{
	return pm_type_new_map(A, k, v, true);
}

/* ROW("name", type, "name", type, ..., NULL) */
static const pm_type *
ROW(const char *name,...)
{
	pm_field	fields[64];
	int			n = 0;
	va_list		ap;

	va_start(ap, name);
	while (name != NULL && n < 64)
	{
		fields[n].id = n;
		fields[n].name = name;
		fields[n].type = va_arg(ap, const pm_type *);
		fields[n].description = NULL;
		n++;
		name = va_arg(ap, const char *);
	}
	va_end(ap);
	return pm_type_new_row(A, fields, n, true);
}

static const pm_type *
simple_stats_type(void)
{
	return ROW("_MIN_VALUES", T(PM_TYPE_VARBINARY), "_MAX_VALUES", T(PM_TYPE_VARBINARY),
			   "_NULL_COUNTS", ARR(T(PM_TYPE_BIGINT)), NULL);
}

static const pm_type *
manifest_list_type(void)
{
	return ROW("_VERSION", T(PM_TYPE_INT), "_FILE_NAME", T(PM_TYPE_VARCHAR),
			   "_FILE_SIZE", T(PM_TYPE_BIGINT), "_NUM_ADDED_FILES", T(PM_TYPE_BIGINT),
			   "_NUM_DELETED_FILES", T(PM_TYPE_BIGINT), "_PARTITION_STATS", simple_stats_type(),
			   "_SCHEMA_ID", T(PM_TYPE_BIGINT), "_MIN_BUCKET", T(PM_TYPE_INT),
			   "_MAX_BUCKET", T(PM_TYPE_INT), "_MIN_LEVEL", T(PM_TYPE_INT),
			   "_MAX_LEVEL", T(PM_TYPE_INT), "_MIN_ROW_ID", T(PM_TYPE_BIGINT),
			   "_MAX_ROW_ID", T(PM_TYPE_BIGINT), "_NOT_WRITTEN", T(PM_TYPE_VARCHAR), NULL);
}

static const pm_type *
manifest_entry_type(void)
{
	const pm_type *file =
		ROW("_FILE_NAME", T(PM_TYPE_VARCHAR), "_FILE_SIZE", T(PM_TYPE_BIGINT),
			"_ROW_COUNT", T(PM_TYPE_BIGINT), "_MIN_KEY", T(PM_TYPE_VARBINARY),
			"_MAX_KEY", T(PM_TYPE_VARBINARY), "_KEY_STATS", simple_stats_type(),
			"_VALUE_STATS", simple_stats_type(), "_MIN_SEQUENCE_NUMBER", T(PM_TYPE_BIGINT),
			"_MAX_SEQUENCE_NUMBER", T(PM_TYPE_BIGINT), "_SCHEMA_ID", T(PM_TYPE_BIGINT),
			"_LEVEL", T(PM_TYPE_INT), "_EXTRA_FILES", ARR(T(PM_TYPE_VARCHAR)),
			"_CREATION_TIME", TS(PM_TYPE_TIMESTAMP, 3), "_DELETE_ROW_COUNT", T(PM_TYPE_BIGINT),
			"_EMBEDDED_FILE_INDEX", T(PM_TYPE_VARBINARY), "_FILE_SOURCE", T(PM_TYPE_TINYINT),
			"_VALUE_STATS_COLS", ARR(T(PM_TYPE_VARCHAR)), "_EXTERNAL_PATH", T(PM_TYPE_VARCHAR),
			"_FIRST_ROW_ID", T(PM_TYPE_BIGINT), "_WRITE_COLS", ARR(T(PM_TYPE_VARCHAR)),
			"_WRITE_COLS_SEQUENCES", ARR(T(PM_TYPE_BIGINT)), NULL);

	return ROW("_VERSION", T(PM_TYPE_INT), "_KIND", T(PM_TYPE_TINYINT),
			   "_PARTITION", T(PM_TYPE_VARBINARY), "_BUCKET", T(PM_TYPE_INT),
			   "_TOTAL_BUCKETS", T(PM_TYPE_INT), "_FILE", file, NULL);
}

static const pm_type *
index_manifest_type(void)
{
	const pm_type *range = ROW("f0", T(PM_TYPE_VARCHAR), "f1", T(PM_TYPE_INT),
							   "f2", T(PM_TYPE_INT), "_CARDINALITY", T(PM_TYPE_BIGINT), NULL);

	return ROW("_VERSION", T(PM_TYPE_INT), "_KIND", T(PM_TYPE_TINYINT),
			   "_PARTITION", T(PM_TYPE_VARBINARY), "_BUCKET", T(PM_TYPE_INT),
			   "_INDEX_TYPE", T(PM_TYPE_VARCHAR), "_FILE_NAME", T(PM_TYPE_VARCHAR),
			   "_FILE_SIZE", T(PM_TYPE_BIGINT), "_ROW_COUNT", T(PM_TYPE_BIGINT),
			   "_DELETIONS_VECTORS_RANGES", ARR(range), "_EXTERNAL_PATH", T(PM_TYPE_VARCHAR),
			   NULL);
}

/* ---------------------------------------------------------------------
 * Reading helpers
 * ---------------------------------------------------------------------
 */

static const pm_vector *
col(const pm_batch *b, const pm_type *row, const char *name)
{
	int			i = pm_type_field_index(row, name);

	assert_true(i >= 0 && i < b->ncols);
	return &b->cols[i];
}

static const pm_vector *
child(const pm_vector *v, const char *name)
{
	int			i = pm_type_field_index(v->type, name);

	assert_true(i >= 0 && i < v->nchildren);
	return &v->children[i];
}

static char *
str_at(const pm_vector *v, int64_t i)
{
	int32_t		len;
	const uint8_t *p = pm_vector_bytes(v, i, &len);

	return pm_arena_strndup(A, (const char *) p, (size_t) len);
}

/* Check vector invariants a consumer relies on. */
static void
check_vector(const pm_vector *v, int64_t length)
{
	assert_int_equal(v->length, length);
	switch (v->type->id)
	{
		case PM_TYPE_ROW:
			assert_int_equal(v->nchildren, v->type->nfields);
			for (int c = 0; c < v->nchildren; c++)
				check_vector(&v->children[c], length);
			break;
		case PM_TYPE_ARRAY:
			assert_int_equal(v->offsets[0], 0);
			for (int64_t i = 0; i < length; i++)
				assert_true(v->offsets[i] <= v->offsets[i + 1]);
			check_vector(&v->children[0], v->offsets[length]);
			break;
		case PM_TYPE_MAP:
			assert_int_equal(v->offsets[0], 0);
			for (int64_t i = 0; i < length; i++)
				assert_true(v->offsets[i] <= v->offsets[i + 1]);
			check_vector(&v->children[0], v->offsets[length]);
			check_vector(&v->children[1], v->offsets[length]);
			break;
		default:
			if (pm_type_is_varlen(v->type->id))
			{
				assert_int_equal(v->offsets[0], 0);
				for (int64_t i = 0; i < length; i++)
					assert_true(v->offsets[i] <= v->offsets[i + 1]);
				assert_true(v->offsets[length] <= v->data_size);
			}
			break;
	}
}

typedef void (*batch_fn) (const pm_batch *b, const pm_type *req, void *ctx);

/* Read a whole file, calling fn per batch; returns the code of open/next. */
static pm_code
read_all(pm_fileio *io, const char *path, const pm_type *req, int batch_size,
		 batch_fn fn, void *ctx, int64_t *rows, pm_error *err)
{
	pm_format_read_options opt = {.schema = req, .batch_size = batch_size};
	pm_format_reader *r;
	pm_batch   *b;
	pm_code		rc;
	int64_t		n = 0;

	pm_error_clear(err);
	rc = pm_format_reader_open(PM_FORMAT_AVRO, pm_env_default(), io, path, &opt, &r, err);
	if (rc != PM_OK)
		return rc;
	while ((rc = pm_format_reader_next(r, &b, err)) == PM_OK && b != NULL)
	{
		assert_int_equal(b->first_row, n);
		assert_true(b->nrows > 0);
		assert_true(batch_size <= 0 || b->nrows <= batch_size);
		assert_int_equal(b->ncols, req->nfields);
		for (int c = 0; c < b->ncols; c++)
			check_vector(&b->cols[c], b->nrows);
		if (fn != NULL)
			fn(b, req, ctx);
		n += b->nrows;
	}
	if (rc == PM_OK)
	{
		int64_t		rc_rows = pm_format_reader_row_count(r);

		assert_true(rc_rows == -1 || rc_rows == n);
	}
	pm_format_reader_close(r);
	if (rows != NULL)
		*rows = n;
	return rc;
}

static pm_fileio *
local_io(void)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());

	assert_non_null(io);
	return io;
}

static bool
is_avro_file(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	char		m[4] = {0};
	bool		ok;

	if (f == NULL)
		return false;
	ok = fread(m, 1, 4, f) == 4 && memcmp(m, "Obj\x01", 4) == 0;
	fclose(f);
	return ok;
}

/* ---------------------------------------------------------------------
 * Manifest lists: the worked examples of paimon-format-metadata.md 4.6
 * ---------------------------------------------------------------------
 */

typedef struct list_ctx
{
	int			rows;
	const pm_batch *first;
	char	   *names[64];
	int64_t		sizes[64];
	int64_t		version0;
	int64_t		added0;
	int64_t		deleted0;
	int			min_len0;
	int			null_counts0;
	int64_t		null_count0_value;
	bool		min_bucket_null0;
	int64_t		min_bucket0;
	bool		min_row_id_null0;
	bool		not_written_null0;
} list_ctx;

static void
list_batch(const pm_batch *b, const pm_type *req, void *vctx)
{
	list_ctx   *c = vctx;
	const pm_vector *stats = col(b, req, "_PARTITION_STATS");
	const pm_vector *nc = child(stats, "_NULL_COUNTS");

	for (int64_t i = 0; i < b->nrows; i++, c->rows++)
	{
		if (c->rows < 64)
		{
			c->names[c->rows] = str_at(col(b, req, "_FILE_NAME"), i);
			c->sizes[c->rows] = pm_vector_int64_at(col(b, req, "_FILE_SIZE"), i);
		}
		if (c->rows != 0)
			continue;
		c->version0 = pm_vector_int64_at(col(b, req, "_VERSION"), i);
		c->added0 = pm_vector_int64_at(col(b, req, "_NUM_ADDED_FILES"), i);
		c->deleted0 = pm_vector_int64_at(col(b, req, "_NUM_DELETED_FILES"), i);
		c->min_len0 = child(stats, "_MIN_VALUES")->offsets[i + 1] -
			child(stats, "_MIN_VALUES")->offsets[i];
		assert_false(pm_vector_is_null(nc, i));
		c->null_counts0 = nc->offsets[i + 1] - nc->offsets[i];
		if (c->null_counts0 > 0)
			c->null_count0_value = pm_vector_int64_at(&nc->children[0], nc->offsets[i]);
		c->min_bucket_null0 = pm_vector_is_null(col(b, req, "_MIN_BUCKET"), i);
		if (!c->min_bucket_null0)
			c->min_bucket0 = pm_vector_int64_at(col(b, req, "_MIN_BUCKET"), i);
		c->min_row_id_null0 = pm_vector_is_null(col(b, req, "_MIN_ROW_ID"), i);
		c->not_written_null0 = pm_vector_is_null(col(b, req, "_NOT_WRITTEN"), i);
	}
}

static off_t
file_size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

static void
test_manifest_list_current(void **state)
{
	const char *dir = "tables/parquet/pk_btree_e2e.db/pk_btree_e2e/manifest/";
	char		path[4096];
	pm_fileio  *io;
	pm_error	err;
	list_ctx	c;
	int64_t		rows;

	(void) state;
	unit_require_corpus();
	io = local_io();
	memset(&c, 0, sizeof(c));
	snprintf(path, sizeof(path), "%s", unit_corpus_path(dir));
	strcat(path, "manifest-list-b6b5269a-5837-44e2-94c5-5033b77ca6de-1");
	assert_int_equal(read_all(io, path, manifest_list_type(), 0, list_batch, &c, &rows, &err), PM_OK);
	assert_int_equal(rows, 1);
	assert_int_equal(c.version0, 2);
	assert_string_equal(c.names[0], "manifest-425d391e-cf9c-4770-9241-09facc794f72-0");
	assert_int_equal(c.sizes[0], 2169);
	assert_int_equal(c.added0, 2);
	assert_int_equal(c.deleted0, 0);
	assert_int_equal(c.min_len0, 12);
	assert_int_equal(c.null_counts0, 0);
	assert_false(c.min_bucket_null0);
	assert_int_equal(c.min_bucket0, 0);
	assert_true(c.min_row_id_null0);
	assert_true(c.not_written_null0);
	/* the manifest it names exists with that size */
	snprintf(path, sizeof(path), "%s%s", unit_corpus_path(dir), c.names[0]);
	assert_int_equal(file_size_of(path), 2169);

	/* the base list of snapshot 1 is a header-only file: no rows */
	snprintf(path, sizeof(path), "%s%s", unit_corpus_path(dir),
			 "manifest-list-b6b5269a-5837-44e2-94c5-5033b77ca6de-0");
	assert_int_equal(read_all(io, path, manifest_list_type(), 0, NULL, NULL, &rows, &err), PM_OK);
	assert_int_equal(rows, 0);
	pm_local_fileio_destroy(io);
}

/* Paimon 0.9 writes every record inside ["null", record] unions. */
static void
test_manifest_list_union_wrapped(void **state)
{
	const char *dir = "tables/parquet/pk_09.db/pk_09/manifest";
	char		path[4096];
	pm_fileio  *io;
	pm_error	err;
	DIR		   *d;
	struct dirent *e;
	bool		found = false;

	(void) state;
	unit_require_corpus();
	io = local_io();
	d = opendir(unit_corpus_path(dir));
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
	{
		list_ctx	c;
		int64_t		rows;

		if (strncmp(e->d_name, "manifest-list-c63559b0-", 23) != 0 ||
			e->d_name[strlen(e->d_name) - 1] != '1' || e->d_name[strlen(e->d_name) - 2] != '-')
			continue;
		snprintf(path, sizeof(path), "%s/%s", unit_corpus_path(dir), e->d_name);
		memset(&c, 0, sizeof(c));
		assert_int_equal(read_all(io, path, manifest_list_type(), 0, list_batch, &c, &rows, &err),
						 PM_OK);
		assert_int_equal(rows, 1);
		assert_int_equal(c.version0, 2);
		assert_int_equal(c.sizes[0], 2204);
		assert_int_equal(c.added0, 3);
		assert_int_equal(c.min_len0, 20);
		assert_int_equal(c.null_counts0, 1);
		assert_int_equal(c.null_count0_value, 0);
		assert_true(c.min_bucket_null0);	/* absent in 0.9 files */
		assert_true(c.min_row_id_null0);
		found = true;
	}
	closedir(d);
	assert_true(found);
	pm_local_fileio_destroy(io);
}

/* ---------------------------------------------------------------------
 * Every table with Avro metadata: live files exist, row counts add up
 * ---------------------------------------------------------------------
 */

typedef struct name_set
{
	char	  **names;
	int			n;
	int			cap;
} name_set;

static void
collect_names(name_set *s, const char *dir, int depth)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;

	if (d == NULL || depth > 6)
	{
		if (d != NULL)
			closedir(d);
		return;
	}
	while ((e = readdir(d)) != NULL)
	{
		char		p[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			collect_names(s, p, depth + 1);
		else
		{
			if (s->n == s->cap)
			{
				s->cap = s->cap ? s->cap * 2 : 256;
				s->names = realloc(s->names, sizeof(char *) * (size_t) s->cap);
				assert_non_null(s->names);
			}
			s->names[s->n++] = strdup(e->d_name);
		}
	}
	closedir(d);
}

static bool
has_name(const name_set *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return true;
	return false;
}

static void
free_names(name_set *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
}

/* A live-set entry keyed like FileEntry.Identifier (the parts tests need). */
typedef struct live_entry
{
	char	   *key;
	char	   *name;
	int64_t		rows;
	bool		external;
} live_entry;

typedef struct live_set
{
	live_entry	e[4096];
	int			n;
	int			entries_read;
} live_set;

static void
entry_batch(const pm_batch *b, const pm_type *req, void *vctx)
{
	live_set   *ls = vctx;
	const pm_vector *file = col(b, req, "_FILE");

	for (int64_t i = 0; i < b->nrows; i++)
	{
		int32_t		plen;
		const uint8_t *part = pm_vector_bytes(col(b, req, "_PARTITION"), i, &plen);
		char	   *name = str_at(child(file, "_FILE_NAME"), i);
		char		hex[512] = {0};
		char	   *key;
		int			kind = (int) pm_vector_int64_at(col(b, req, "_KIND"), i);

		assert_int_equal(pm_vector_int64_at(col(b, req, "_VERSION"), i), 2);
		assert_false(pm_vector_is_null(file, i));
		for (int32_t k = 0; k < plen && k < 200; k++)
			sprintf(hex + 2 * k, "%02x", part[k]);
		key = pm_arena_sprintf(A, "%s/%lld/%lld/%s", hex,
							   (long long) pm_vector_int64_at(col(b, req, "_BUCKET"), i),
							   (long long) pm_vector_int64_at(child(file, "_LEVEL"), i), name);
		ls->entries_read++;
		if (kind == 0)
		{
			assert_true(ls->n < 4096);
			ls->e[ls->n].key = key;
			ls->e[ls->n].name = name;
			ls->e[ls->n].rows = pm_vector_int64_at(child(file, "_ROW_COUNT"), i);
			ls->e[ls->n].external = !pm_vector_is_null(child(file, "_EXTERNAL_PATH"), i);
			ls->n++;
		}
		else
		{
			bool		removed = false;

			assert_int_equal(kind, 1);
			for (int k = 0; k < ls->n; k++)
				if (strcmp(ls->e[k].key, key) == 0)
				{
					ls->e[k] = ls->e[--ls->n];
					removed = true;
					break;
				}
			assert_true(removed);
		}
	}
}

/* Apply the manifests of one manifest list (a file name in manifest/). */
static void
apply_list(pm_fileio *io, const char *table, const char *list, live_set *ls)
{
	char		path[4096];
	list_ctx	c;
	pm_error	err;
	int64_t		rows;

	snprintf(path, sizeof(path), "%s/manifest/%s", table, list);
	memset(&c, 0, sizeof(c));
	assert_int_equal(read_all(io, path, manifest_list_type(), 3, list_batch, &c, &rows, &err), PM_OK);
	assert_true(rows <= 64);
	for (int i = 0; i < rows; i++)
	{
		snprintf(path, sizeof(path), "%s/manifest/%s", table, c.names[i]);
		assert_int_equal(file_size_of(path), c.sizes[i]);
		if (read_all(io, path, manifest_entry_type(), 2, entry_batch, ls, NULL, &err) != PM_OK)
			fail_msg("%s: %s", path, err.message);
	}
}

static json_t *
load_json(const char *path)
{
	json_error_t jerr;
	json_t	   *j = json_load_file(path, 0, &jerr);

	if (j == NULL)
		fail_msg("%s: %s", path, jerr.text);
	return j;
}

/* Live files of a snapshot; returns its totalRecordCount. */
static int64_t
snapshot_live_set(pm_fileio *io, const char *table, long snap, live_set *ls)
{
	char		path[4096];
	json_t	   *j;
	int64_t		total;

	snprintf(path, sizeof(path), "%s/snapshot/snapshot-%ld", table, snap);
	j = load_json(path);
	memset(ls, 0, sizeof(*ls));
	apply_list(io, table, json_string_value(json_object_get(j, "baseManifestList")), ls);
	apply_list(io, table, json_string_value(json_object_get(j, "deltaManifestList")), ls);
	total = json_integer_value(json_object_get(j, "totalRecordCount"));
	json_decref(j);
	return total;
}

static int64_t
live_rows(const live_set *ls)
{
	int64_t		sum = 0;

	for (int i = 0; i < ls->n; i++)
		sum += ls->e[i].rows;
	return sum;
}

typedef struct index_ctx
{
	name_set   *names;
	int			rows;
} index_ctx;

static void
index_batch(const pm_batch *b, const pm_type *req, void *vctx)
{
	index_ctx  *c = vctx;

	for (int64_t i = 0; i < b->nrows; i++, c->rows++)
	{
		const char *type = str_at(col(b, req, "_INDEX_TYPE"), i);
		const pm_vector *ranges = col(b, req, "_DELETIONS_VECTORS_RANGES");

		assert_int_equal(pm_vector_int64_at(col(b, req, "_VERSION"), i), 1);
		assert_true(has_name(c->names, str_at(col(b, req, "_FILE_NAME"), i)));
		if (strcmp(type, "DELETION_VECTORS") == 0 && !pm_vector_is_null(ranges, i))
		{
			const pm_vector *r = &ranges->children[0];

			/* every DV range names a data file of the table */
			for (int32_t k = ranges->offsets[i]; k < ranges->offsets[i + 1]; k++)
				assert_true(has_name(c->names, str_at(child(r, "f0"), k)));
		}
	}
}

static void
test_corpus_manifests(void **state)
{
	static const char *const tables[] = {
		"avro/append_multiple.db/append_multiple",
		"avro/append_with_multiple_map.db/append_with_multiple_map",
		"avro/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv",
		"avro/pk_with_multiple_type.db/pk_with_multiple_type",
		"orc/nullable_map_key.db/nullable_map_key",
		"parquet/append_complex_data.db/append_complex_data",
		"parquet/append_table_with_alter_table.db/append_table_with_alter_table",
		"parquet/append_with_bitmap.db/append_with_bitmap",
		"parquet/append_with_rangebitmap.db/append_with_rangebitmap",
		"parquet/pk_09.db/pk_09",
		"parquet/pk_btree_e2e.db/pk_btree_e2e",
		"parquet/pk_compact_lookup.db/pk_compact_lookup",
		"parquet/pk_dv_index_not_in_data_with_external.db/pk_dv_index_not_in_data_with_external",
		"parquet/pk_table_with_dv_cardinality.db/pk_table_with_dv_cardinality",
		"parquet/pk_table_with_alter_table.db/pk_table_with_alter_table",
	};
	pm_fileio  *io;
	int			snapshots = 0;

	(void) state;
	unit_require_corpus();
	io = local_io();
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
	{
		char		table[4096],
					dbdir[4096],
					path[4096];
		name_set	names = {0};
		DIR		   *d;
		struct dirent *e;

		snprintf(table, sizeof(table), "%s", unit_corpus_path("tables/"));
		strcat(table, tables[t]);
		snprintf(dbdir, sizeof(dbdir), "%s", table);
		*strrchr(dbdir, '/') = '\0';
		collect_names(&names, dbdir, 0);
		assert_true(names.n > 0);

		snprintf(path, sizeof(path), "%s/snapshot", table);
		d = opendir(path);
		assert_non_null(d);
		while ((e = readdir(d)) != NULL)
		{
			live_set   *ls;
			long		snap;
			int64_t		total;
			json_t	   *sj;
			const char *index_manifest;

			if (strncmp(e->d_name, "snapshot-", 9) != 0)
				continue;
			snap = atol(e->d_name + 9);
			ls = calloc(1, sizeof(live_set));
			assert_non_null(ls);
			total = snapshot_live_set(io, table, snap, ls);
			if (live_rows(ls) != total)
				fail_msg("%s snapshot %ld: live rows %lld, totalRecordCount %lld", table, snap,
						 (long long) live_rows(ls), (long long) total);
			for (int i = 0; i < ls->n; i++)
				if (!has_name(&names, ls->e[i].name))
					fail_msg("%s snapshot %ld: live file %s not on disk", table, snap,
							 ls->e[i].name);
			snapshots++;

			/* the index manifest, if any */
			snprintf(path, sizeof(path), "%s/snapshot/%s", table, e->d_name);
			sj = load_json(path);
			index_manifest = json_string_value(json_object_get(sj, "indexManifest"));
			if (index_manifest != NULL)
			{
				index_ctx	ic = {&names, 0};
				pm_error	err;

				snprintf(path, sizeof(path), "%s/manifest/%s", table, index_manifest);
				if (is_avro_file(path) &&
					read_all(io, path, index_manifest_type(), 0, index_batch, &ic, NULL, &err) != PM_OK)
					fail_msg("%s: %s", path, err.message);
			}
			json_decref(sj);
			free(ls);
		}
		closedir(d);
		free_names(&names);
	}
	print_message("checked %d snapshots\n", snapshots);
	assert_true(snapshots >= 40);
	pm_local_fileio_destroy(io);
}

/* Append-table cases without predicate: live row counts = expected row_count. */
static void
test_expected_row_counts(void **state)
{
	static const char *const cases[] = {
		"avro_append_multiple_latest", "avro_append_multiple_snap1",
		"avro_append_with_multiple_map_latest", "parquet_rangebitmap_latest",
		"parquet_complex_data_latest", "parquet_complex_data_snap2",
		"parquet_append_alter_latest", "parquet_append_alter_snap1", "parquet_bitmap_latest",
	};
	pm_fileio  *io;
	int			checked = 0;

	(void) state;
	unit_require_corpus();
	io = local_io();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char		path[4096],
					table[4096];
		json_t	   *j;
		live_set   *ls;

		snprintf(path, sizeof(path), "%s", unit_corpus_path("expected/"));
		strcat(path, cases[i]);
		strcat(path, ".json");
		if (file_size_of(path) < 0)
			continue;
		j = load_json(path);
		assert_string_equal(json_string_value(json_object_get(j, "table_kind")), "append");
		assert_true(json_is_null(json_object_get(j, "predicate")));
		snprintf(table, sizeof(table), "%s",
				 unit_corpus_path(json_string_value(json_object_get(j, "table"))));
		ls = calloc(1, sizeof(live_set));
		snapshot_live_set(io, table, (long) json_integer_value(json_object_get(j, "resolved_snapshot")),
						  ls);
		assert_int_equal(live_rows(ls), json_integer_value(json_object_get(j, "row_count")));
		free(ls);
		json_decref(j);
		checked++;
	}
	assert_true(checked >= 5);
	pm_local_fileio_destroy(io);
}

/* Every Avro file of the corpus's manifest dirs reads without error. */
static void
test_all_manifest_files(void **state)
{
	pm_fileio  *io;
	DIR		   *top;
	struct dirent *f;
	int			files = 0;
	static const char *const fmts[] = {"avro", "parquet", "orc", "mixed"};

	(void) state;
	unit_require_corpus();
	io = local_io();
	for (int fi = 0; fi < 4; fi++)
	{
		char		fdir[4096];

		snprintf(fdir, sizeof(fdir), "%s/%s", unit_corpus_path("tables"), fmts[fi]);
		top = opendir(fdir);
		if (top == NULL)
			continue;
		while ((f = readdir(top)) != NULL)
		{
			char		mdir[4096],
						tname[256];
			DIR		   *md;
			struct dirent *m;
			size_t		l = strlen(f->d_name);

			if (l < 4 || strcmp(f->d_name + l - 3, ".db") != 0 || l - 3 >= sizeof(tname))
				continue;
			memcpy(tname, f->d_name, l - 3);
			tname[l - 3] = '\0';
			snprintf(mdir, sizeof(mdir), "%s/%s/%s/manifest", fdir, f->d_name, tname);
			if ((md = opendir(mdir)) == NULL)
				continue;
			while ((m = readdir(md)) != NULL)
			{
				char		path[4096];
				const pm_type *req,
						   *full;
				pm_error	err;
				int64_t		rows,
							rows_full;

				snprintf(path, sizeof(path), "%s/%s", mdir, m->d_name);
				if (m->d_name[0] == '.' || !is_avro_file(path))
					continue;
				if (strncmp(m->d_name, "manifest-list-", 14) == 0)
					req = manifest_list_type();
				else if (strncmp(m->d_name, "index-manifest-", 15) == 0)
					req = index_manifest_type();
				else
					req = manifest_entry_type();
				if (read_all(io, path, req, 0, NULL, NULL, &rows, &err) != PM_OK)
					fail_msg("%s: %s (%s)", path, err.message, err.detail);
				/* all columns, typed from the writer schema: same rows */
				assert_int_equal(pm_avro_file_type(pm_env_default(), io, path, A, &full, &err),
								 PM_OK);
				if (read_all(io, path, full, 0, NULL, NULL, &rows_full, &err) != PM_OK)
					fail_msg("%s: %s (%s)", path, err.message, err.detail);
				assert_int_equal(rows, rows_full);
				files++;
			}
			closedir(md);
		}
		closedir(top);
	}
	print_message("read %d avro metadata files\n", files);
	assert_true(files >= 250);
	pm_local_fileio_destroy(io);
}

/* ---------------------------------------------------------------------
 * Avro data files against expected rows
 * ---------------------------------------------------------------------
 */

static void
civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d)
{
	int64_t		era,
				yy;
	unsigned	doe,
				yoe,
				doy,
				mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned) (z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	yy = (int64_t) yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int) (yy + (*m <= 2));
}

static char *
format_date(int64_t days)
{
	int			y;
	unsigned	m,
				d;

	civil_from_days(days, &y, &m, &d);
	return pm_arena_sprintf(A, "%04d-%02u-%02u", y, m, d);
}

static char *
format_ts(int64_t micros, int precision, bool ltz)
{
	int64_t		secs = micros >= 0 ? micros / 1000000 : -((-micros + 999999) / 1000000);
	int64_t		frac = micros - secs * 1000000;
	int64_t		days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
	int64_t		sod = secs - days * 86400;
	char		fs[16] = "";

	if (precision > 0)
	{
		char		six[8];

		snprintf(six, sizeof(six), "%06lld", (long long) frac);
		fs[0] = '.';
		memcpy(fs + 1, six, (size_t) (precision > 6 ? 6 : precision));
		fs[1 + (precision > 6 ? 6 : precision)] = '\0';
	}
	return pm_arena_sprintf(A, "%sT%02d:%02d:%02d%s%s", format_date(days), (int) (sod / 3600),
							(int) (sod / 60 % 60), (int) (sod % 60), fs, ltz ? "Z" : "");
}

static char *
format_decimal(pm_int128 v, int scale)
{
	char		digits[64];
	int			n = 0;
	bool		neg = v < 0;
	unsigned __int128 u = neg ? -(unsigned __int128) v : (unsigned __int128) v;
	char		out[80];
	int			o = 0;

	do
	{
		digits[n++] = (char) ('0' + (int) (u % 10));
		u /= 10;
	} while (u > 0);
	while (n <= scale)
		digits[n++] = '0';
	if (neg)
		out[o++] = '-';
	for (int i = n - 1; i >= 0; i--)
	{
		out[o++] = digits[i];
		if (i == scale && scale > 0)
			out[o++] = '.';
	}
	out[o] = '\0';
	return pm_arena_strdup(A, out);
}

static bool value_eq(const pm_vector *v, int64_t i, json_t *e);

static bool
str_eq_json(const char *s, json_t *e)
{
	return json_is_string(e) && strcmp(s, json_string_value(e)) == 0;
}

static bool
value_eq(const pm_vector *v, int64_t i, json_t *e)
{
	const pm_type *t = v->type;

	if (pm_vector_is_null(v, i))
		return json_is_null(e);
	if (json_is_null(e))
		return false;
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return json_is_boolean(e) && json_is_true(e) == (PM_VEC_VALUES(v, uint8_t)[i] != 0);
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
			return json_is_integer(e) && json_integer_value(e) == pm_vector_int64_at(v, i);
		case PM_TYPE_FLOAT:
			return json_is_number(e) && (float) json_number_value(e) == PM_VEC_VALUES(v, float)[i];
		case PM_TYPE_DOUBLE:
			return json_is_number(e) && json_number_value(e) == PM_VEC_VALUES(v, double)[i];
		case PM_TYPE_DATE:
			return str_eq_json(format_date(pm_vector_int64_at(v, i)), e);
		case PM_TYPE_DECIMAL:
			return str_eq_json(format_decimal(PM_VEC_VALUES(v, pm_int128)[i], t->scale), e);
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return str_eq_json(format_ts(PM_VEC_VALUES(v, int64_t)[i], t->precision,
										 t->id == PM_TYPE_TIMESTAMP_LTZ), e);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return str_eq_json(str_at(v, i), e);
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);
				char	   *hex = pm_arena_zalloc(A, (size_t) len * 2 + 1);

				for (int32_t k = 0; k < len; k++)
					sprintf(hex + 2 * k, "%02x", p[k]);
				return str_eq_json(hex, e);
			}
		case PM_TYPE_ROW:
			if (!json_is_object(e) || (int) json_object_size(e) != t->nfields)
				return false;
			for (int f = 0; f < t->nfields; f++)
			{
				json_t	   *fe = json_object_get(e, t->fields[f].name);

				if (fe == NULL || !value_eq(&v->children[f], i, fe))
					return false;
			}
			return true;
		case PM_TYPE_ARRAY:
			if (!json_is_array(e) ||
				json_array_size(e) != (size_t) (v->offsets[i + 1] - v->offsets[i]))
				return false;
			for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
				if (!value_eq(&v->children[0], k, json_array_get(e, (size_t) (k - v->offsets[i]))))
					return false;
			return true;
		case PM_TYPE_MAP:
			if (!json_is_array(e) ||
				json_array_size(e) != (size_t) (v->offsets[i + 1] - v->offsets[i]))
				return false;
			for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
			{
				json_t	   *pair = json_array_get(e, (size_t) (k - v->offsets[i]));

				if (!json_is_array(pair) || json_array_size(pair) != 2 ||
					!value_eq(&v->children[0], k, json_array_get(pair, 0)) ||
					!value_eq(&v->children[1], k, json_array_get(pair, 1)))
					return false;
			}
			return true;
		default:
			return false;
	}
}

typedef struct rows_ctx
{
	json_t	   *expected;		/* array of rows */
	bool	   *used;
	int			matched;
	int			seen;
} rows_ctx;

static void
rows_batch(const pm_batch *b, const pm_type *req, void *vctx)
{
	rows_ctx   *c = vctx;

	(void) req;
	for (int64_t i = 0; i < b->nrows; i++, c->seen++)
	{
		bool		ok = false;

		for (size_t r = 0; r < json_array_size(c->expected) && !ok; r++)
		{
			json_t	   *row = json_array_get(c->expected, r);
			bool		eq = !c->used[r];

			for (int k = 0; eq && k < b->ncols; k++)
				eq = value_eq(&b->cols[k], i, json_array_get(row, (size_t) k));
			if (eq)
			{
				c->used[r] = true;
				ok = true;
			}
		}
		if (!ok)
			fail_msg("decoded row %lld of a batch matches no expected row", (long long) i);
		c->matched++;
	}
}

static bool
find_file(const char *dir, const char *name, char *out, size_t outlen, int depth)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;
	bool		found = false;

	if (d == NULL)
		return false;
	while (!found && depth < 6 && (e = readdir(d)) != NULL)
	{
		char		p[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			found = find_file(p, name, out, outlen, depth + 1);
		else if (strcmp(e->d_name, name) == 0)
		{
			snprintf(out, outlen, "%s", p);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* Read every .avro file under table (all live: append-only tables) against a case. */
static void
check_data_files(const char *table_rel, const char *case_name, const pm_type *req, int batch)
{
	char		path[4096],
				table[4096];
	json_t	   *j;
	rows_ctx	c;
	pm_fileio  *io = local_io();
	name_set	files = {0};

	snprintf(table, sizeof(table), "%s", unit_corpus_path(table_rel));
	snprintf(path, sizeof(path), "%s", unit_corpus_path("expected/"));
	strcat(path, case_name);
	strcat(path, ".json");
	j = load_json(path);
	memset(&c, 0, sizeof(c));
	c.expected = json_object_get(j, "rows");
	c.used = calloc(json_array_size(c.expected) + 1, 1);

	{
		/* live data files of the case's snapshot, found under their bucket dirs */
		live_set   *ls = calloc(1, sizeof(live_set));

		snapshot_live_set(io, table, (long) json_integer_value(json_object_get(j, "resolved_snapshot")),
						  ls);
		for (int i = 0; i < ls->n; i++)
		{
			char		found[4096] = "";
			pm_error	err;

			/* locate the file (partition dirs vary); names are unique */
			assert_true(find_file(table, ls->e[i].name, found, sizeof(found), 0));
			if (read_all(io, found, req, batch, rows_batch, &c, NULL, &err) != PM_OK)
				fail_msg("%s: %s (%s)", found, err.message, err.detail);
		}
		free(ls);
	}
	print_message("%s: %d rows matched\n", case_name, c.matched);
	assert_int_equal(c.seen, json_integer_value(json_object_get(j, "row_count")));
	assert_int_equal(c.matched, (int) json_array_size(c.expected));
	free(c.used);
	free_names(&files);
	json_decref(j);
	pm_local_fileio_destroy(io);
}

/* Same type ids and field names, recursively (precisions may differ). */
static bool
same_shape(const pm_type *a, const pm_type *b)
{
	if (a->id != b->id)
		return false;
	switch (a->id)
	{
		case PM_TYPE_ROW:
			if (a->nfields != b->nfields)
				return false;
			for (int i = 0; i < a->nfields; i++)
				if (strcmp(a->fields[i].name, b->fields[i].name) != 0 ||
					!same_shape(a->fields[i].type, b->fields[i].type))
					return false;
			return true;
		case PM_TYPE_ARRAY:
			return same_shape(a->element, b->element);
		case PM_TYPE_MAP:
			return same_shape(a->element, b->element) && same_shape(a->value, b->value);
		default:
			return true;
	}
}

static const pm_type *
append_multiple_type(void)
{
	return ROW("f0", T(PM_TYPE_TINYINT), "f1", T(PM_TYPE_SMALLINT), "f2", T(PM_TYPE_INT),
			   "f3", T(PM_TYPE_BIGINT), "f4", T(PM_TYPE_FLOAT), "f5", T(PM_TYPE_DOUBLE),
			   "f6", T(PM_TYPE_VARCHAR), "f7", T(PM_TYPE_VARBINARY), "f8", T(PM_TYPE_DATE),
			   "f9", DEC(5, 2), "f10", TS(PM_TYPE_TIMESTAMP, 0), "f11", TS(PM_TYPE_TIMESTAMP, 3),
			   "f12", TS(PM_TYPE_TIMESTAMP, 6), "f13", TS(PM_TYPE_TIMESTAMP_LTZ, 0),
			   "f14", TS(PM_TYPE_TIMESTAMP_LTZ, 3), "f15", TS(PM_TYPE_TIMESTAMP_LTZ, 6),
			   "f16", ROW("f0", MAP(T(PM_TYPE_VARCHAR), T(PM_TYPE_INT)),
						  "f1", ARR(T(PM_TYPE_INT)), NULL), NULL);
}

static void
test_data_append_multiple(void **state)
{
	(void) state;
	unit_require_corpus();
	check_data_files("tables/avro/append_multiple.db/append_multiple",
					 "avro_append_multiple_snap1", append_multiple_type(), 0);
	check_data_files("tables/avro/append_multiple.db/append_multiple",
					 "avro_append_multiple_latest", append_multiple_type(), 1);
	{
		pm_fileio  *io = local_io();
		const pm_type *ft;
		pm_error	err;
		char		path[4096];

		snprintf(path, sizeof(path), "%s", unit_corpus_path(
			"tables/avro/append_multiple.db/append_multiple/f1=10/bucket-0/"
			"data-3c670e9a-cc3a-4c29-9ba2-775908cb5650-0.avro"));
		assert_int_equal(pm_avro_file_type(pm_env_default(), io, path, A, &ft, &err), PM_OK);
		/* TINYINT and SMALLINT are written as int: they come back as INT */
		{
			const pm_type *want = append_multiple_type();

			assert_int_equal(ft->nfields, want->nfields);
			assert_int_equal(ft->fields[0].type->id, PM_TYPE_INT);
			assert_int_equal(ft->fields[1].type->id, PM_TYPE_INT);
			for (int i = 2; i < want->nfields; i++)
				assert_true(same_shape(ft->fields[i].type, want->fields[i].type));
		}
		assert_int_equal(ft->fields[15].type->precision, 6);
		pm_local_fileio_destroy(io);
	}
}

static void
test_data_multiple_map(void **state)
{
	const pm_type *req;

	(void) state;
	unit_require_corpus();
	req = ROW("f0", MAP(T(PM_TYPE_INT), T(PM_TYPE_INT)),
			  "f1", MAP(T(PM_TYPE_DOUBLE), T(PM_TYPE_DOUBLE)),
			  "f2", MAP(T(PM_TYPE_VARCHAR), T(PM_TYPE_VARCHAR)),
			  "f3", MAP(T(PM_TYPE_VARCHAR), T(PM_TYPE_BINARY)),
			  "f4", MAP(TS(PM_TYPE_TIMESTAMP, 6), TS(PM_TYPE_TIMESTAMP, 6)),
			  "f5", MAP(T(PM_TYPE_VARCHAR), ARR(T(PM_TYPE_DOUBLE))),
			  "f6", MAP(T(PM_TYPE_VARCHAR), MAP(T(PM_TYPE_DOUBLE), T(PM_TYPE_VARCHAR))),
			  "f7", MAP(T(PM_TYPE_BIGINT), ROW("f0", T(PM_TYPE_INT), "f1", T(PM_TYPE_VARCHAR),
											   "f2", DEC(5, 2), NULL)), NULL);
	check_data_files("tables/avro/append_with_multiple_map.db/append_with_multiple_map",
					 "avro_append_with_multiple_map_latest", req, 0);
	{
		/* the file's own type has the same shape (BINARY(6) is written as bytes) */
		pm_fileio  *io = local_io();
		const pm_type *ft;
		pm_error	err;
		char		path[4096];

		snprintf(path, sizeof(path), "%s", unit_corpus_path(
			"tables/avro/append_with_multiple_map.db/append_with_multiple_map/bucket-0/"
			"data-72442742-e49e-48a4-a736-a2475aac2d2c-0.avro"));
		assert_int_equal(pm_avro_file_type(pm_env_default(), io, path, A, &ft, &err), PM_OK);
		req = ROW("f0", MAP(T(PM_TYPE_INT), T(PM_TYPE_INT)),
				  "f1", MAP(T(PM_TYPE_DOUBLE), T(PM_TYPE_DOUBLE)),
				  "f2", MAP(T(PM_TYPE_VARCHAR), T(PM_TYPE_VARCHAR)),
				  "f3", MAP(T(PM_TYPE_VARCHAR), T(PM_TYPE_VARBINARY)),
				  "f4", MAP(TS(PM_TYPE_TIMESTAMP, 6), TS(PM_TYPE_TIMESTAMP, 6)),
				  "f5", MAP(T(PM_TYPE_VARCHAR), ARR(T(PM_TYPE_DOUBLE))),
				  "f6", MAP(T(PM_TYPE_VARCHAR), MAP(T(PM_TYPE_DOUBLE), T(PM_TYPE_VARCHAR))),
				  "f7", MAP(T(PM_TYPE_BIGINT), ROW("f0", T(PM_TYPE_INT), "f1", T(PM_TYPE_VARCHAR),
												   "f2", DEC(5, 2), NULL)), NULL);
		assert_true(same_shape(ft, req));
		assert_int_equal(ft->fields[4].type->element->precision, 6);
		assert_true(ft->fields[0].type->nullable);
		pm_local_fileio_destroy(io);
	}
}

/* Projection, reordering, absent fields and widening on a real data file. */
typedef struct proj_ctx
{
	int			rows;
	int64_t		sum_f2;
	int			arr_elems;
} proj_ctx;

static void
proj_batch(const pm_batch *b, const pm_type *req, void *vctx)
{
	proj_ctx   *c = vctx;
	const pm_vector *f16 = col(b, req, "f16");
	const pm_vector *arr = child(f16, "f1");

	for (int64_t i = 0; i < b->nrows; i++, c->rows++)
	{
		assert_true(pm_vector_is_null(col(b, req, "absent"), i));
		assert_true(pm_vector_is_null(child(f16, "absent_too"), i));
		assert_false(pm_vector_is_null(f16, i));
		c->sum_f2 += PM_VEC_VALUES(col(b, req, "f2"), int64_t)[i];
		assert_int_equal(arr->offsets[i + 1] - arr->offsets[i], 3);
		for (int32_t k = arr->offsets[i]; k < arr->offsets[i + 1]; k++)
			assert_int_equal(pm_vector_int64_at(&arr->children[0], k), k - arr->offsets[i] + 1);
		c->arr_elems += arr->offsets[i + 1] - arr->offsets[i];
		/* f6 as BYTES (string -> binary) */
		(void) col(b, req, "f6");
	}
}

static void
test_data_projection(void **state)
{
	const char *dir = "tables/avro/append_multiple.db/append_multiple/f1=10/bucket-0/";
	char		path[4096];
	const pm_type *req;
	pm_fileio  *io;
	pm_error	err;
	proj_ctx	c = {0};

	(void) state;
	unit_require_corpus();
	io = local_io();
	req = ROW("f16", ROW("absent_too", T(PM_TYPE_INT), "f1", ARR(T(PM_TYPE_INT)), NULL),
			  "absent", T(PM_TYPE_VARCHAR), "f2", T(PM_TYPE_BIGINT),
			  "f6", T(PM_TYPE_VARBINARY), NULL);
	snprintf(path, sizeof(path), "%s%s", unit_corpus_path(dir),
			 "data-3c670e9a-cc3a-4c29-9ba2-775908cb5650-0.avro");
	assert_int_equal(read_all(io, path, req, 1, proj_batch, &c, NULL, &err), PM_OK);
	assert_true(c.rows > 0);
	assert_int_equal(c.arr_elems, 3 * c.rows);

	/* a type that cannot be read: unsupported, naming the column */
	req = ROW("f6", T(PM_TYPE_INT), NULL);
	assert_int_equal(read_all(io, path, req, 0, NULL, NULL, NULL, &err), PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "f6"));
	assert_non_null(strstr(err.path, "data-3c670e9a"));
	pm_local_fileio_destroy(io);
}

/* ---------------------------------------------------------------------
 * Synthetic files
 * ---------------------------------------------------------------------
 */

typedef struct buf
{
	uint8_t		d[1 << 16];
	size_t		n;
} buf;

static void
put_bytes(buf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->d));
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void
put_long(buf *b, int64_t v)
{
	uint64_t	u = ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);

	while (u >= 0x80)
	{
		uint8_t		c = (uint8_t) (u | 0x80);

		put_bytes(b, &c, 1);
		u >>= 7;
	}
	{
		uint8_t		c = (uint8_t) u;

		put_bytes(b, &c, 1);
	}
}

static void
put_str(buf *b, const char *s)
{
	put_long(b, (int64_t) strlen(s));
	put_bytes(b, s, strlen(s));
}

static const uint8_t SYNC[16] = "0123456789abcdef";

/* A container file with one block of `count` records (raw bytes in data). */
static void
build_file(buf *out, const char *schema, const char *codec, const buf *data, int64_t count)
{
	out->n = 0;
	put_bytes(out, "Obj\x01", 4);
	put_long(out, codec != NULL ? 2 : 1);
	put_str(out, "avro.schema");
	put_str(out, schema);
	if (codec != NULL)
	{
		put_str(out, "avro.codec");
		put_str(out, codec);
	}
	put_long(out, 0);
	put_bytes(out, SYNC, 16);
	if (data == NULL)
		return;
	{
		pm_codec	c = PM_CODEC_NONE;
		uint8_t    *comp = (uint8_t *) data->d;
		size_t		clen = data->n;
		pm_error	err;

		if (codec != NULL && strcmp(codec, "deflate") == 0)
			c = PM_CODEC_DEFLATE;
		else if (codec != NULL && strcmp(codec, "snappy") == 0)
			c = PM_CODEC_SNAPPY;
		else if (codec != NULL && strcmp(codec, "zstandard") == 0)
			c = PM_CODEC_ZSTD;
		if (c != PM_CODEC_NONE)
			assert_int_equal(pm_codec_compress(c, 0, data->d, data->n, A, &comp, &clen, &err), PM_OK);
		put_long(out, count);
		put_long(out, (int64_t) clen + (c == PM_CODEC_SNAPPY ? 4 : 0));
		put_bytes(out, comp, clen);
		if (c == PM_CODEC_SNAPPY)
		{
			/* big-endian CRC32 of the uncompressed bytes */
			uint32_t	crc = (uint32_t) crc32(0, data->d, (unsigned) data->n);
			uint8_t		be[4] = {(uint8_t) (crc >> 24), (uint8_t) (crc >> 16),
			(uint8_t) (crc >> 8), (uint8_t) crc};

			put_bytes(out, be, 4);
		}
		put_bytes(out, SYNC, 16);
	}
}

static pm_code
read_mem(const buf *file, const pm_type *req, batch_fn fn, void *ctx, int64_t *rows,
		 pm_error *err)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_code		rc;

	assert_non_null(io);
	assert_int_equal(pm_memory_fileio_add(io, "/t/f", file->d, file->n, err), PM_OK);
	rc = read_all(io, "/t/f", req, 0, fn, ctx, rows, err);
	assert_int_equal(pm_memory_fileio_open_files(io), 0);
	pm_memory_fileio_destroy(io);
	return rc;
}

static const char *SCHEMA1 =
"{\"type\":\"record\",\"name\":\"r\",\"namespace\":\"ns\",\"fields\":["
"{\"name\":\"a\",\"type\":[\"long\",\"null\"]},"
"{\"name\":\"skipme\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":\"string\"}}},"
"{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"RED\",\"GREEN\"]}},"
"{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F3\",\"size\":3}},"
"{\"name\":\"fx2\",\"type\":\"ns.F3\"},"
"{\"name\":\"dec\",\"type\":{\"type\":\"fixed\",\"name\":\"D\",\"size\":17,\"logicalType\":\"decimal\",\"precision\":38,\"scale\":2}},"
"{\"name\":\"u\",\"type\":[\"int\",\"string\",\"null\"]},"
"{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"items\":\"int\"}},"
"{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"double\"}},"
"{\"name\":\"tm\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}},"
"{\"name\":\"tn\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-nanos\"}},"
"{\"name\":\"f\",\"type\":\"float\"},"
"{\"name\":\"b\",\"type\":\"boolean\"},"
"{\"name\":\"self\",\"type\":[\"null\",\"r\"]}"
"]}";

static const pm_type *
schema1_type(void)
{
	return ROW("u", T(PM_TYPE_VARCHAR), "a", T(PM_TYPE_BIGINT), "e", T(PM_TYPE_VARCHAR),
			   "fx", T(PM_TYPE_BINARY), "fx2", T(PM_TYPE_VARBINARY), "dec", DEC(38, 2),
			   "arr", ARR(T(PM_TYPE_INT)), "m", MAP(T(PM_TYPE_VARCHAR), T(PM_TYPE_DOUBLE)),
			   "tm", T(PM_TYPE_TIME), "tn", TS(PM_TYPE_TIMESTAMP, 9), "f", T(PM_TYPE_DOUBLE),
			   "b", T(PM_TYPE_BOOLEAN), "self", ROW("a", T(PM_TYPE_BIGINT), NULL), NULL);
}

/* Record 0: a=-5; record 1: a=null, negative block counts, nested self. */
static void
schema1_records(buf *d)
{
	uint8_t		dec[17];
	buf			tmp;

	d->n = 0;
	/* record 0 */
	put_long(d, 0);
	put_long(d, -5);			/* a: branch 0 long */
	put_long(d, 1);				/* skipme: one entry */
	put_str(d, "k");
	put_long(d, 2);
	put_str(d, "x");
	put_str(d, "yz");
	put_long(d, 0);
	put_long(d, 0);
	put_long(d, 1);				/* e = GREEN */
	put_bytes(d, "abc", 3);
	put_bytes(d, "def", 3);
	memset(dec, 0xff, sizeof(dec));
	dec[16] = 0x85;				/* -123 */
	put_bytes(d, dec, 17);
	put_long(d, 1);				/* u: string */
	put_str(d, "hello");
	put_long(d, 2);				/* arr: [7, 8] */
	put_long(d, 7);
	put_long(d, 8);
	put_long(d, 0);
	put_long(d, 1);				/* m: {"pi": 3.5} */
	put_str(d, "pi");
	{
		double		v = 3.5;

		put_bytes(d, &v, 8);
	}
	put_long(d, 0);
	put_long(d, 3723004999LL);	/* tm: 01:02:03.004999 -> 3723004 ms */
	put_long(d, -1500);			/* tn: -1.5 us -> micros -2, nanos 500 */
	{
		float		v = 0.25f;

		put_bytes(d, &v, 4);
	}
	put_bytes(d, "\x01", 1);
	put_long(d, 0);				/* self: null */

	/* record 1 */
	put_long(d, 1);				/* a: null */
	/* skipme with a negative block count and byte size */
	tmp.n = 0;
	put_str(&tmp, "k2");
	put_long(&tmp, 0);
	put_long(d, -2);
	put_long(d, (int64_t) tmp.n * 2);
	put_bytes(d, tmp.d, tmp.n);
	put_bytes(d, tmp.d, tmp.n);
	put_long(d, 0);
	put_long(d, 0);				/* e = RED */
	put_bytes(d, "ghi", 3);
	put_bytes(d, "jkl", 3);
	memset(dec, 0, sizeof(dec));
	dec[15] = 0x30;
	dec[16] = 0x39;				/* 12345 */
	put_bytes(d, dec, 17);
	put_long(d, 0);				/* u: int 42 -> not readable as string */
	put_long(d, 42);
	put_long(d, -1);			/* arr: negative count, size */
	put_long(d, 1);
	put_long(d, 9);
	put_long(d, 0);
	put_long(d, 0);				/* m: {} */
	put_long(d, 0);
	put_long(d, 0);
	{
		float		v = -2.0f;

		put_bytes(d, &v, 4);
	}
	put_bytes(d, "\x00", 1);
	put_long(d, 1);				/* self: nested record */
	{
		/* a nested r with all fields minimal */
		put_long(d, 0);
		put_long(d, 77);
		put_long(d, 0);
		put_long(d, 0);
		put_bytes(d, "mno", 3);
		put_bytes(d, "pqr", 3);
		memset(dec, 0, sizeof(dec));
		put_bytes(d, dec, 17);
		put_long(d, 2);			/* u null */
		put_long(d, 0);
		put_long(d, 0);
		put_long(d, 0);
		put_long(d, 0);
		{
			float		v = 0;

			put_bytes(d, &v, 4);
		}
		put_bytes(d, "\x00", 1);
		put_long(d, 0);
	}
}

typedef struct s1_ctx
{
	int			rows;
} s1_ctx;

static void
s1_batch(const pm_batch *b, const pm_type *req, void *vctx)
{
	s1_ctx	   *c = vctx;

	for (int64_t i = 0; i < b->nrows; i++, c->rows++)
	{
		const pm_vector *arr = col(b, req, "arr");
		const pm_vector *m = col(b, req, "m");
		const pm_vector *tn = col(b, req, "tn");
		const pm_vector *self = col(b, req, "self");

		if (c->rows == 0)
		{
			assert_int_equal(PM_VEC_VALUES(col(b, req, "a"), int64_t)[i], -5);
			assert_string_equal(str_at(col(b, req, "e"), i), "GREEN");
			assert_string_equal(str_at(col(b, req, "fx"), i), "abc");
			assert_string_equal(str_at(col(b, req, "fx2"), i), "def");
			assert_true(PM_VEC_VALUES(col(b, req, "dec"), pm_int128)[i] == -123);
			if (pm_type_field_index(req, "u") >= 0)
				assert_string_equal(str_at(col(b, req, "u"), i), "hello");
			assert_int_equal(arr->offsets[i + 1] - arr->offsets[i], 2);
			assert_int_equal(pm_vector_int64_at(&arr->children[0], arr->offsets[i] + 1), 8);
			assert_int_equal(m->offsets[i + 1] - m->offsets[i], 1);
			assert_string_equal(str_at(&m->children[0], m->offsets[i]), "pi");
			assert_true(PM_VEC_VALUES(&m->children[1], double)[m->offsets[i]] == 3.5);
			assert_int_equal(pm_vector_int64_at(col(b, req, "tm"), i), 3723004);
			assert_int_equal(PM_VEC_VALUES(tn, int64_t)[i], -2);
			assert_non_null(tn->nanos);
			assert_int_equal(tn->nanos[i], 500);
			assert_true(PM_VEC_VALUES(col(b, req, "f"), double)[i] == 0.25);
			assert_int_equal(PM_VEC_VALUES(col(b, req, "b"), uint8_t)[i], 1);
			assert_true(pm_vector_is_null(self, i));
			assert_true(pm_vector_is_null(&self->children[0], i));
		}
		else
		{
			assert_true(pm_vector_is_null(col(b, req, "a"), i));
			assert_string_equal(str_at(col(b, req, "e"), i), "RED");
			assert_true(PM_VEC_VALUES(col(b, req, "dec"), pm_int128)[i] == 12345);
			assert_int_equal(arr->offsets[i + 1] - arr->offsets[i], 1);
			assert_int_equal(pm_vector_int64_at(&arr->children[0], arr->offsets[i]), 9);
			assert_false(pm_vector_is_null(self, i));
			assert_int_equal(PM_VEC_VALUES(&self->children[0], int64_t)[i], 77);
		}
	}
}

static void
test_synthetic_schema_features(void **state)
{
	static const char *const codecs[] = {NULL, "null", "deflate", "snappy", "zstandard"};
	buf		   *d = calloc(1, sizeof(buf)),
			   *f = calloc(1, sizeof(buf));
	pm_error	err;
	int64_t		rows;

	(void) state;
	schema1_records(d);
	for (int k = 0; k < 5; k++)
	{
		s1_ctx		c = {0};

		build_file(f, SCHEMA1, codecs[k], d, 2);
		/* record 1 has u = int, which cannot be read as a string */
		assert_int_equal(read_mem(f, schema1_type(), s1_batch, &c, &rows, &err),
						 PM_ERR_UNSUPPORTED);
	}
	/* without u, both rows read */
	{
		const pm_type *full = schema1_type();
		pm_field	fields[32];
		s1_ctx		c = {0};

		for (int i = 1; i < full->nfields; i++)
			fields[i - 1] = full->fields[i];
		for (int k = 0; k < 5; k++)
		{
			const pm_type *req = pm_type_new_row(A, fields, full->nfields - 1, true);

			memset(&c, 0, sizeof(c));
			build_file(f, SCHEMA1, codecs[k], d, 2);
			if (read_mem(f, req, s1_batch, &c, &rows, &err) != PM_OK)
				fail_msg("codec %s: %s (%s)", codecs[k] ? codecs[k] : "none", err.message,
						 err.detail);
			assert_int_equal(rows, 2);
		}
	}
	/* a corrupted snappy CRC is detected */
	build_file(f, SCHEMA1, "snappy", d, 2);
	f->d[f->n - 17] ^= 0x01;
	assert_int_equal(read_mem(f, schema1_type(), NULL, NULL, &rows, &err), PM_ERR_CORRUPT);
	free(d);
	free(f);
}

/*
 * timestamp-nanos at the ends of int64: microseconds are the floor, the
 * nanosecond remainder is in [0, 1000). Near INT64_MIN the remainder was
 * computed as v - floor(v / 1000) * 1000, whose product leaves int64
 * (UBSan: signed integer overflow).
 */
static const int64_t ts_nanos_extremes[] = {INT64_MIN, INT64_MIN + 1, INT64_MIN + 808, -1001,
-1, 0, 999, INT64_MAX};

static void
ts_nanos_batch(const pm_batch *b, const pm_type *req, void *vctx)
{
	int		   *row = vctx;
	const pm_vector *tn = col(b, req, "tn");

	for (int64_t i = 0; i < b->nrows; i++, (*row)++)
	{
		__int128	x = ts_nanos_extremes[*row];
		__int128	want_us = x >= 0 ? x / 1000 : -((-x + 999) / 1000);

		assert_true(PM_VEC_VALUES(tn, int64_t)[i] == want_us);
		assert_true((tn->nanos ? tn->nanos[i] : 0) == x - want_us * 1000);
	}
}

static void
test_timestamp_nanos_extremes(void **state)
{
	buf		   *d = calloc(1, sizeof(buf)),
			   *f = calloc(1, sizeof(buf));
	int			n = (int) (sizeof(ts_nanos_extremes) / sizeof(ts_nanos_extremes[0]));
	int			row = 0;
	pm_error	err;
	int64_t		rows;

	(void) state;
	d->n = 0;
	for (int i = 0; i < n; i++)
		put_long(d, ts_nanos_extremes[i]);
	build_file(f, "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
			   "{\"name\":\"tn\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-nanos\"}}]}",
			   NULL, d, n);
	assert_int_equal(read_mem(f, ROW("tn", TS(PM_TYPE_TIMESTAMP, 9), NULL), ts_nanos_batch, &row,
							  &rows, &err), PM_OK);
	assert_int_equal(rows, n);
	assert_int_equal(row, n);
	free(d);
	free(f);
}

/* Java's files of MULTISET<INT> ms, MULTISET<STRING> ms2: maps of element to count. */
static const char MULTISET_SCHEMA[] =
"{\"type\":\"record\",\"name\":\"r\",\"fields\":["
"{\"name\":\"ms\",\"type\":{\"type\":\"array\",\"logicalType\":\"map\",\"items\":"
"{\"type\":\"record\",\"name\":\"kv\",\"fields\":[{\"name\":\"key\",\"type\":\"int\"},"
"{\"name\":\"value\",\"type\":\"int\"}]}}},"
"{\"name\":\"ms2\",\"type\":{\"type\":\"map\",\"values\":\"int\"}}]}";

/* MULTISET: each element as often as its count says (Java's map of element to count), as Parquet's. */
static void
test_synthetic_multiset(void **state)
{
	buf		   *d = calloc(1, sizeof(buf)),
			   *f = calloc(1, sizeof(buf));
	pm_type    *ms_int = (pm_type *) ARR(T(PM_TYPE_INT));
	pm_type    *ms_str = (pm_type *) ARR(T(PM_TYPE_VARCHAR));
	const pm_type *req;
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_format_read_options opt;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	const pm_vector *v;

	(void) state;
	ms_int->id = PM_TYPE_MULTISET;
	ms_str->id = PM_TYPE_MULTISET;
	req = ROW("ms", ms_int, "ms2", ms_str, NULL);
	d->n = 0;
	put_long(d, 2);				/* ms: {5: 2, 6: 1} */
	put_long(d, 5);
	put_long(d, 2);
	put_long(d, 6);
	put_long(d, 1);
	put_long(d, 0);
	put_long(d, 1);				/* ms2: {"a": 3} */
	put_str(d, "a");
	put_long(d, 3);
	put_long(d, 0);
	build_file(f, MULTISET_SCHEMA, NULL, d, 1);
	opt.schema = req;
	opt.batch_size = 0;
	opt.orc_reader_timezone = NULL;
	assert_int_equal(pm_memory_fileio_add(io, "/m", f->d, f->n, &err), PM_OK);
	assert_int_equal(pm_avro_reader_open(pm_env_default(), io, "/m", &opt, &r, &err), PM_OK);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	assert_non_null(b);
	assert_int_equal(b->nrows, 1);
	v = &b->cols[0];
	assert_int_equal(v->nchildren, 1);
	assert_int_equal(v->offsets[1], 3);
	assert_int_equal(PM_VEC_VALUES(&v->children[0], int32_t)[0], 5);
	assert_int_equal(PM_VEC_VALUES(&v->children[0], int32_t)[1], 5);
	assert_int_equal(PM_VEC_VALUES(&v->children[0], int32_t)[2], 6);
	v = &b->cols[1];
	assert_int_equal(v->offsets[1], 3);
	for (int k = 0; k < 3; k++)
		assert_string_equal(str_at(&v->children[0], k), "a");
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	assert_null(b);
	pm_format_reader_close(r);

	/* hostile counts: a negative one is corrupt, a huge one refused before allocating */
	for (int k = 0; k < 2; k++)
	{
		char		path[8];

		d->n = 0;
		put_long(d, 1);
		put_long(d, 5);
		put_long(d, k == 0 ? -2 : 1 << 30);
		put_long(d, 0);
		put_long(d, 0);			/* ms2: empty */
		build_file(f, MULTISET_SCHEMA, NULL, d, 1);
		snprintf(path, sizeof(path), "/m%d", k);
		assert_int_equal(pm_memory_fileio_add(io, path, f->d, f->n, &err), PM_OK);
		assert_int_equal(pm_avro_reader_open(pm_env_default(), io, path, &opt, &r, &err), PM_OK);
		assert_int_equal(pm_format_reader_next(r, &b, &err),
						 k == 0 ? PM_ERR_CORRUPT : PM_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.message, "MULTISET"));
		pm_format_reader_close(r);
	}
	pm_memory_fileio_destroy(io);
	free(d);
	free(f);
}

/* Every truncation and many byte flips of real and synthetic files: no crash. */
static void
mutate_file(const buf *orig, const pm_type *req, size_t header_size)
{
	buf		   *f = calloc(1, sizeof(buf));
	pm_error	err;
	int64_t		rows;

	for (size_t cut = 0; cut < orig->n; cut++)
	{
		*f = *orig;
		f->n = cut;
		if (cut == header_size)
			assert_int_equal(read_mem(f, req, NULL, NULL, &rows, &err), PM_OK);
		else
			assert_int_equal(read_mem(f, req, NULL, NULL, &rows, &err), PM_ERR_CORRUPT);
	}
	for (size_t pos = 0; pos < orig->n; pos += (orig->n > 3000 ? 3 : 1))
		for (int bit = 0; bit < 8; bit += 3)
		{
			pm_code		rc;

			*f = *orig;
			f->d[pos] ^= (uint8_t) (1 << bit);
			rc = read_mem(f, req, NULL, NULL, &rows, &err);
			assert_true(rc == PM_OK || rc == PM_ERR_CORRUPT || rc == PM_ERR_UNSUPPORTED);
			if (rc != PM_OK)
				assert_true(err.path[0] != '\0');
		}
	free(f);
}

static void
load_buf(buf *b, const char *path)
{
	FILE	   *fp = fopen(path, "rb");

	assert_non_null(fp);
	b->n = fread(b->d, 1, sizeof(b->d), fp);
	fclose(fp);
}

static void
test_corruption(void **state)
{
	buf		   *b,
			   *d;
	pm_error	err;
	int64_t		rows;
	const char *list =
		"tables/parquet/pk_btree_e2e.db/pk_btree_e2e/manifest/manifest-list-b6b5269a-5837-44e2-94c5-5033b77ca6de-1";

	(void) state;
	unit_require_corpus();		/* before allocating: a skip does not free */
	b = calloc(1, sizeof(buf));
	d = calloc(1, sizeof(buf));
	load_buf(b, unit_corpus_path(list));
	assert_int_equal(b->n, 1110);
	assert_int_equal(read_mem(b, manifest_list_type(), NULL, NULL, &rows, &err), PM_OK);
	assert_int_equal(rows, 1);

	/* bad magic */
	b->d[0] = 'X';
	assert_int_equal(read_mem(b, manifest_list_type(), NULL, NULL, &rows, &err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "magic"));
	assert_string_equal(err.path, "/t/f");
	b->d[0] = 'O';
	/* sync marker after the block */
	b->d[b->n - 1] ^= 0xff;
	assert_int_equal(read_mem(b, manifest_list_type(), NULL, NULL, &rows, &err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "sync"));
	b->d[b->n - 1] ^= 0xff;
	/* trailing garbage after the last block */
	b->d[b->n] = 0x7f;
	b->n++;
	assert_int_equal(read_mem(b, manifest_list_type(), NULL, NULL, &rows, &err), PM_ERR_CORRUPT);
	b->n--;

	/* every truncation of a one-block file is corrupt; flips never crash */
	mutate_file(b, manifest_list_type(), 1006);

	/* synthetic null-codec file: flips hit the values themselves */
	{
		const pm_type *full = schema1_type();
		pm_field	fields[32];

		for (int i = 1; i < full->nfields; i++)
			fields[i - 1] = full->fields[i];
		size_t		hdr;

		build_file(b, SCHEMA1, NULL, NULL, 0);
		hdr = b->n;
		schema1_records(d);
		build_file(b, SCHEMA1, NULL, d, 2);
		mutate_file(b, pm_type_new_row(A, fields, full->nfields - 1, true), hdr);
	}

	/* a block claiming more records than it has bytes */
	d->n = 0;
	put_long(d, 1);
	build_file(b, "\"long\"", NULL, d, 1);
	assert_int_equal(read_mem(b, ROW("x", T(PM_TYPE_BIGINT), NULL), NULL, NULL, &rows, &err),
					 PM_ERR_UNSUPPORTED);	/* a long is not a record */
	build_file(b, "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"}]}",
			   NULL, d, 1000000);
	assert_int_equal(read_mem(b, ROW("x", T(PM_TYPE_BIGINT), NULL), NULL, NULL, &rows, &err),
					 PM_ERR_CORRUPT);
	/* an array of nulls claiming 2^40 items: no hang */
	d->n = 0;
	put_long(d, (int64_t) 1 << 40);
	put_long(d, 0);
	build_file(b, "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"x\",\"type\":{\"type\":\"array\",\"items\":\"null\"}}]}",
			   NULL, d, 1);
	assert_int_equal(read_mem(b, ROW("y", T(PM_TYPE_INT), NULL), NULL, NULL, &rows, &err),
					 PM_ERR_CORRUPT);
	/* a recursive schema nested deeper than the limit */
	d->n = 0;
	for (int i = 0; i < 200; i++)
		put_long(d, 1);
	put_long(d, 0);
	build_file(b, "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"n\",\"type\":[\"null\",\"r\"]}]}",
			   NULL, d, 1);
	assert_int_equal(read_mem(b, ROW("y", T(PM_TYPE_INT), NULL), NULL, NULL, &rows, &err),
					 PM_ERR_CORRUPT);
	/* invalid schema JSON, unknown codec */
	build_file(b, "{\"type\":", NULL, NULL, 0);
	assert_int_equal(read_mem(b, ROW("y", T(PM_TYPE_INT), NULL), NULL, NULL, &rows, &err),
					 PM_ERR_CORRUPT);
	build_file(b, "{\"type\":\"record\",\"name\":\"r\",\"fields\":[]}", "bzip2", NULL, 0);
	assert_int_equal(read_mem(b, ROW("y", T(PM_TYPE_INT), NULL), NULL, NULL, &rows, &err),
					 PM_ERR_UNSUPPORTED);
	free(b);
	free(d);
}

/* Many rows over several blocks and small batches: first_row, growth. */
static void
test_batches_and_blocks(void **state)
{
	buf		   *f = calloc(1, sizeof(buf)),
			   *d = calloc(1, sizeof(buf));
	const char *schema = "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
		"{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"s\",\"type\":[\"null\",\"string\"]},"
		"{\"name\":\"l\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"e\","
		"\"fields\":[{\"name\":\"v\",\"type\":\"long\"}]}}}]}";
	const pm_type *req = ROW("i", T(PM_TYPE_INT), "s", T(PM_TYPE_VARCHAR),
							 "l", ARR(ROW("v", T(PM_TYPE_BIGINT), "w", T(PM_TYPE_INT), NULL)), NULL);
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_format_read_options opt = {.schema = req, .batch_size = 7};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		next = 0;

	(void) state;
	pm_error_clear(&err);
	/* header, then 3 blocks of 100 records each */
	build_file(f, schema, NULL, NULL, 0);
	for (int blk = 0; blk < 3; blk++)
	{
		d->n = 0;
		for (int k = 0; k < 100; k++)
		{
			int			v = blk * 100 + k;

			put_long(d, v);
			if (v % 3 == 0)
				put_long(d, 0);
			else
			{
				char		s[16];

				put_long(d, 1);
				snprintf(s, sizeof(s), "v%d", v);
				put_str(d, s);
			}
			put_long(d, v % 4);
			for (int e = 0; e < v % 4; e++)
				put_long(d, v * 10 + e);
			if (v % 4)
				put_long(d, 0);
		}
		put_long(f, 100);
		put_long(f, (int64_t) d->n);
		put_bytes(f, d->d, d->n);
		put_bytes(f, SYNC, 16);
	}
	assert_int_equal(pm_memory_fileio_add(io, "/x", f->d, f->n, &err), PM_OK);
	assert_int_equal(pm_format_reader_open(PM_FORMAT_AVRO, pm_env_default(), io, "/x", &opt, &r, &err),
					 PM_OK);
	assert_int_equal(pm_format_reader_row_count(r), 300);
	while (pm_format_reader_next(r, &b, &err) == PM_OK && b != NULL)
	{
		const pm_vector *l = &b->cols[2];

		assert_int_equal(b->first_row, next);
		assert_true(b->nrows <= 7);
		check_vector(&b->cols[2], b->nrows);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int			v = (int) (next + i);

			assert_int_equal(PM_VEC_VALUES(&b->cols[0], int32_t)[i], v);
			assert_int_equal(pm_vector_is_null(&b->cols[1], i), v % 3 == 0);
			if (v % 3 != 0)
			{
				char		s[16];

				snprintf(s, sizeof(s), "v%d", v);
				assert_string_equal(str_at(&b->cols[1], i), s);
			}
			assert_int_equal(l->offsets[i + 1] - l->offsets[i], v % 4);
			for (int e = 0; e < v % 4; e++)
			{
				const pm_vector *el = &l->children[0];

				assert_int_equal(PM_VEC_VALUES(&el->children[0], int64_t)[l->offsets[i] + e],
								 v * 10 + e);
				assert_true(pm_vector_is_null(&el->children[1], l->offsets[i] + e));
			}
		}
		next += b->nrows;
	}
	assert_int_equal(next, 300);
	assert_int_equal(err.code, PM_OK);
	pm_format_reader_close(r);
	pm_memory_fileio_destroy(io);
	free(f);
	free(d);
}

/* A growable byte buffer for files larger than `buf`. */
typedef struct bigbuf
{
	uint8_t    *d;
	size_t		n;
	size_t		cap;
} bigbuf;

static void
big_put(bigbuf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap)
	{
		b->cap = (b->n + n) * 2;
		b->d = realloc(b->d, b->cap);
		assert_non_null(b->d);
	}
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void
big_long(bigbuf *b, int64_t v)
{
	buf			t;

	t.n = 0;
	put_long(&t, v);
	big_put(b, t.d, t.n);
}

/*
 * Files larger than the reader's 1 MiB window: a header bigger than the
 * window (a 1.5 MiB unknown metadata value), blocks straddling window ends,
 * a block larger than the window; null and zstd codecs.
 */
static void
test_large_file(void **state)
{
	const char *schema = "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
		"{\"name\":\"i\",\"type\":\"long\"},{\"name\":\"s\",\"type\":\"string\"}]}";
	const pm_type *req = ROW("s", T(PM_TYPE_VARCHAR), "i", T(PM_TYPE_BIGINT), NULL);

	(void) state;
	for (int zstd = 0; zstd <= 1; zstd++)
	{
		bigbuf		f = {0};
		size_t		pad = 1536 * 1024;
		char	   *padding = calloc(pad, 1);
		pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
		pm_format_read_options opt = {.schema = req, .batch_size = 1000};
		pm_format_reader *r;
		pm_batch   *b;
		pm_error	err;
		int64_t		next = 0;
		int			nblocks = 0;

		pm_error_clear(&err);
		big_put(&f, "Obj\x01", 4);
		big_long(&f, 3);
		big_long(&f, 11);
		big_put(&f, "avro.schema", 11);
		big_long(&f, (int64_t) strlen(schema));
		big_put(&f, schema, strlen(schema));
		big_long(&f, 10);
		big_put(&f, "avro.codec", 10);
		big_long(&f, zstd ? 9 : 4);
		big_put(&f, zstd ? "zstandard" : "null", zstd ? 9 : 4);
		big_long(&f, 7);
		big_put(&f, "x.extra", 7);
		big_long(&f, (int64_t) pad);
		big_put(&f, padding, pad);
		big_long(&f, 0);
		big_put(&f, SYNC, 16);
		/* blocks of growing size: 1, 2, 4, ... 4096 records of ~300 bytes */
		for (int64_t rows = 1, v = 0; rows <= 4096; rows *= 2, nblocks++)
		{
			bigbuf		d = {0};
			uint8_t    *comp = NULL;
			size_t		clen;

			for (int64_t k = 0; k < rows; k++, v++)
			{
				char		s[300];

				memset(s, 'a' + (int) (v % 26), sizeof(s));
				big_long(&d, v);
				big_long(&d, 290);
				big_put(&d, s, 290);
			}
			if (zstd)
				assert_int_equal(pm_codec_compress(PM_CODEC_ZSTD, 1, d.d, d.n, A, &comp, &clen,
												   &err), PM_OK);
			else
			{
				comp = d.d;
				clen = d.n;
			}
			big_long(&f, rows);
			big_long(&f, (int64_t) clen);
			big_put(&f, comp, clen);
			big_put(&f, SYNC, 16);
			free(d.d);
		}
		assert_true(f.n > 2 * 1024 * 1024 || zstd);
		assert_int_equal(pm_memory_fileio_add(io, "/big", f.d, f.n, &err), PM_OK);
		assert_int_equal(pm_format_reader_open(PM_FORMAT_AVRO, pm_env_default(), io, "/big", &opt,
											   &r, &err), PM_OK);
		while (pm_format_reader_next(r, &b, &err) == PM_OK && b != NULL)
		{
			if (next == 0)		/* mid-stream: scans headers, keeps the block */
				assert_int_equal(pm_format_reader_row_count(r), 8191);
			assert_int_equal(b->first_row, next);
			for (int64_t i = 0; i < b->nrows; i++)
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(&b->cols[0], i, &len);

				assert_int_equal(PM_VEC_VALUES(&b->cols[1], int64_t)[i], next + i);
				assert_int_equal(len, 290);
				assert_int_equal(p[0], 'a' + (int) ((next + i) % 26));
				assert_int_equal(p[289], 'a' + (int) ((next + i) % 26));
			}
			next += b->nrows;
		}
		assert_int_equal(err.code, PM_OK);
		assert_int_equal(next, 8191);
		assert_int_equal(nblocks, 13);
		pm_format_reader_close(r);
		pm_memory_fileio_destroy(io);
		free(padding);
		free(f.d);
	}
}

/* The fuzz seeds made from corpus files (codec rewritten) read fully. */
static void
test_fuzz_seeds(void **state)
{
	static const char *const seeds[] = {
		"data_map_null", "data_map_zstd", "data_multiple_null", "index_v09_null",
		"list_current_null", "list_current_zstd", "list_empty", "list_v09_null",
		"manifest_current_deflate", "manifest_current_null",
	};
	static const int64_t rows[] = {1, 1, 1, 2, 1, 1, 0, 1, 2, 2};
	pm_fileio  *io = local_io();

	(void) state;
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
	{
		char		path[512];
		const pm_type *ft;
		pm_error	err;
		int64_t		n;

		snprintf(path, sizeof(path), "test/fuzz/corpus/avro/%s", seeds[i]);
		if (file_size_of(path) < 0)
			skip();				/* not run from the repository root */
		assert_int_equal(pm_avro_file_type(pm_env_default(), io, path, A, &ft, &err), PM_OK);
		if (read_all(io, path, ft, 0, NULL, NULL, &n, &err) != PM_OK)
			fail_msg("%s: %s (%s)", path, err.message, err.detail);
		if (n != rows[i])
			fail_msg("%s: %lld rows", path, (long long) n);
	}
	pm_local_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_manifest_list_current, setup, teardown),
		cmocka_unit_test_setup_teardown(test_manifest_list_union_wrapped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corpus_manifests, setup, teardown),
		cmocka_unit_test_setup_teardown(test_expected_row_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_manifest_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_data_append_multiple, setup, teardown),
		cmocka_unit_test_setup_teardown(test_data_multiple_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_data_projection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synthetic_schema_features, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synthetic_multiset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timestamp_nanos_extremes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corruption, setup, teardown),
		cmocka_unit_test_setup_teardown(test_batches_and_blocks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz_seeds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_large_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
