/*-------------------------------------------------------------------------
 * test_orc_reader.c
 *	  ORC reader: stream encodings against the ORC specification's
 *	  examples, data files of the corpus against the expected rows, ORC
 *	  manifests and manifest lists against the files they name, time zones,
 *	  and corrupt files.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "common/tz.h"
#include "format/orc/orc_int.h"
#include "format/orc/orc_reader.h"
#include "io/memory_fileio.h"
#include "row/data_type.h"
#include "writer_fixture.h"

/* ---------------------------------------------------------------------
 * Types
 * ---------------------------------------------------------------------
 */
static pm_arena *arena;

static int
setup(void **state)
{
	(void) state;
	arena = pm_arena_create(pm_env_default());
	return arena ? 0 : -1;
}

static int
teardown(void **state)
{
	(void) state;
	pm_arena_destroy(arena);
	return 0;
}

static const pm_type *
t_(pm_type_id id)
{
	return pm_type_new(arena, id, true);
}

static const pm_type *
t_ts(pm_type_id id, int precision)
{
	pm_type    *t = pm_type_new(arena, id, true);

	t->precision = precision;
	return t;
}

/* ROW from alternating (name, type) pairs, NULL-terminated */
static const pm_type *
t_row(const char *name,...)
{
	pm_field	f[64];
	int			n = 0;
	va_list		ap;

	va_start(ap, name);
	while (name != NULL && n < 64)
	{
		f[n].id = n;
		f[n].name = name;
		f[n].type = va_arg(ap, const pm_type *);
		f[n].description = NULL;
		n++;
		name = va_arg(ap, const char *);
	}
	va_end(ap);
	return pm_type_new_row(arena, f, n, true);
}

/* ---------------------------------------------------------------------
 * Vectors to JSON (the expected/README.md encoding)
 * ---------------------------------------------------------------------
 */
static json_t *
to_json(const pm_vector *v, int64_t i)
{
	if (pm_vector_is_null(v, i))
		return json_null();
	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
			return json_boolean(PM_VEC_VALUES(v, uint8_t)[i]);
		case PM_TYPE_TINYINT:
			return json_integer(PM_VEC_VALUES(v, int8_t)[i]);
		case PM_TYPE_SMALLINT:
			return json_integer(PM_VEC_VALUES(v, int16_t)[i]);
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			return json_integer(PM_VEC_VALUES(v, int32_t)[i]);
		case PM_TYPE_BIGINT:
			return json_integer(PM_VEC_VALUES(v, int64_t)[i]);
		case PM_TYPE_DOUBLE:
			return json_real(PM_VEC_VALUES(v, double)[i]);
		case PM_TYPE_VARCHAR:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				return json_stringn((const char *) p, len);
			}
		case PM_TYPE_ARRAY:
			{
				json_t	   *a = json_array();

				for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
					json_array_append_new(a, to_json(&v->children[0], k));
				return a;
			}
		case PM_TYPE_MAP:
			{
				json_t	   *a = json_array();

				for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
					json_array_append_new(a, json_pack("[oo]", to_json(&v->children[0], k),
													   to_json(&v->children[1], k)));
				return a;
			}
		default:
			fail_msg("type %s not handled by the test", pm_type_id_name(v->type->id));
	}
	return NULL;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Read all rows of `path` with `schema` and append them (as JSON text) to rows. */
static int64_t
read_rows(pm_fileio *io, const char *path, const pm_type *schema, char **rows, int max)
{
	pm_format_read_options opt = {.schema = schema, .batch_size = 2};	/* tiny batches: several per file */
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		n = 0;

	pm_error_clear(&err);
	if (pm_orc_reader_open(pm_env_default(), io, path, &opt, &r, &err) != PM_OK)
		fail_msg("open %s: %s", path, err.message);
	for (;;)
	{
		assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
		if (b == NULL)
			break;
		assert_int_equal(b->ncols, schema->nfields);
		for (int64_t i = 0; i < b->nrows; i++)
		{
			json_t	   *row = json_array();

			for (int c = 0; c < b->ncols; c++)
				json_array_append_new(row, to_json(&b->cols[c], i));
			assert_true(n < max);
			rows[n++] = json_dumps(row, JSON_COMPACT);
			json_decref(row);
		}
	}
	assert_int_equal(pm_format_reader_row_count(r), n);
	pm_format_reader_close(r);
	return n;
}

/*
 * The rows of all ORC files under dir (recursively) equal the expected case
 * (as multisets), reading the expected columns with `schema`.
 */
static void
collect_orc(const char *dir, char paths[][1024], int *npaths)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
	{
		char		p[1024];
		struct stat st;
		size_t		l = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			collect_orc(p, paths, npaths);
		else if (l > 4 && strcmp(e->d_name + l - 4, ".orc") == 0 && *npaths < 32)
			strcpy(paths[(*npaths)++], p);
	}
	closedir(d);
}

/*
 * Schema to read a file with: `alt` when the file has a column named
 * alt_marker (the data file of an older schema, whose names differ).
 */
static const pm_type *
schema_for(pm_fileio *io, const char *path, const pm_type *schema, const pm_type *alt,
		   const char *alt_marker)
{
	pm_format_read_options opt = {.schema = NULL, .batch_size = 0};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	bool		has;

	if (alt == NULL)
		return schema;
	opt.schema = t_row(alt_marker, t_(PM_TYPE_VARCHAR), NULL);
	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, path, &opt, &r, &err), PM_OK);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	assert_non_null(b);
	has = !pm_vector_is_null(&b->cols[0], 0);
	pm_format_reader_close(r);
	return has ? alt : schema;
}

static void
check_case_alt(const char *case_name, const pm_type *schema, int files_subset,
			   const pm_type *alt, const char *alt_marker)
{
	char		rel[256];
	json_error_t jerr;
	json_t	   *exp;
	json_t	   *rows;
	char	   *got[256],
			   *want[256];
	int64_t		ngot = 0;
	size_t		nwant;
	static char paths[32][1024];
	int			npaths = 0;
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	char		table[1024];

	snprintf(rel, sizeof(rel), "expected/%s.json", case_name);
	exp = json_load_file(unit_corpus_path(rel), 0, &jerr);
	assert_non_null(exp);
	snprintf(table, sizeof(table), "%s",
			 unit_corpus_path(json_string_value(json_object_get(exp, "table"))));
	collect_orc(table, paths, &npaths);
	assert_true(npaths > 0);
	for (int i = 0; i < npaths; i++)
		ngot += read_rows(io, paths[i], schema_for(io, paths[i], schema, alt, alt_marker),
						  got + ngot, 256 - (int) ngot);
	rows = json_object_get(exp, "rows");
	nwant = json_array_size(rows);
	for (size_t i = 0; i < nwant; i++)
		want[i] = json_dumps(json_array_get(rows, i), JSON_COMPACT);
	qsort(got, (size_t) ngot, sizeof(char *), cmp_str);
	qsort(want, nwant, sizeof(char *), cmp_str);
	if (!files_subset)
	{
		assert_int_equal(ngot, nwant);
		for (size_t i = 0; i < nwant; i++)
			assert_string_equal(got[i], want[i]);
	}
	else
	{
		/* every decoded row is an expected row (other files are parquet) */
		for (int64_t i = 0; i < ngot; i++)
			assert_non_null(bsearch(&got[i], want, nwant, sizeof(char *), cmp_str));
		assert_true(ngot > 0);
	}
	for (int64_t i = 0; i < ngot; i++)
		free(got[i]);
	for (size_t i = 0; i < nwant; i++)
		free(want[i]);
	json_decref(exp);
	pm_local_fileio_destroy(io);
}

static void
check_case(const char *case_name, const pm_type *schema, int files_subset)
{
	check_case_alt(case_name, schema, files_subset, NULL, NULL);
}

static const pm_type *
f0_f3(void)
{
	return t_row("f0", t_(PM_TYPE_VARCHAR), "f1", t_(PM_TYPE_INT), "f2", t_(PM_TYPE_INT),
				 "f3", t_(PM_TYPE_DOUBLE), NULL);
}

static void
test_data_external_path(void **state)
{
	(void) state;
	unit_require_corpus();
	check_case("orc_append_10_external_path_latest", f0_f3(), 0);
}

static void
test_data_pk_total_buckets(void **state)
{
	(void) state;
	unit_require_corpus();
	/* KV files: _KEY_*, _SEQUENCE_NUMBER, _VALUE_KIND columns are projected away */
	check_case("orc_pk_total_buckets_latest", f0_f3(), 0);
}

static void
test_data_mixed(void **state)
{
	(void) state;
	unit_require_corpus();
	check_case("mixed_format_append_latest", f0_f3(), 1);
}

static void
test_data_nullable_map_key(void **state)
{
	(void) state;
	unit_require_corpus();
	check_case("orc_nullable_map_key_latest",
			   t_row("id", t_(PM_TYPE_INT), "attrs",
					 pm_type_new_map(arena, t_(PM_TYPE_VARCHAR), t_(PM_TYPE_INT), true),
					 NULL), 0);
}

static void
test_data_alter_dense(void **state)
{
	(void) state;
	unit_require_corpus();
	/*
	 * Schema 1 dropped f0, swapped the names of f1 and f2 and added f4: the
	 * table layer asks files of schema 0 by their own names (by field id),
	 * as here; f4 is absent from them and reads as NULL.
	 */
	check_case_alt("orc_append_alter_dense_latest",
				   t_row("key0", t_(PM_TYPE_INT), "f2", t_(PM_TYPE_INT), "f1", t_(PM_TYPE_INT),
						 "f3", t_(PM_TYPE_DOUBLE), "f4", t_(PM_TYPE_INT), NULL), 0,
				   t_row("key0", t_(PM_TYPE_INT), "f1", t_(PM_TYPE_INT), "f2", t_(PM_TYPE_INT),
						 "f3", t_(PM_TYPE_DOUBLE), "f4", t_(PM_TYPE_INT), NULL), "f0");
}

/* ---------------------------------------------------------------------
 * Manifests
 * ---------------------------------------------------------------------
 */
static const pm_type *
stats_type(void)
{
	return t_row("_MIN_VALUES", t_(PM_TYPE_VARBINARY), "_MAX_VALUES", t_(PM_TYPE_VARBINARY),
				 "_NULL_COUNTS", pm_type_new_array(arena, t_(PM_TYPE_BIGINT), true), NULL);
}

static const pm_type *
manifest_type(void)
{
	return t_row("_KIND", t_(PM_TYPE_TINYINT), "_PARTITION", t_(PM_TYPE_VARBINARY),
				 "_BUCKET", t_(PM_TYPE_INT),
				 "_FILE", t_row("_FILE_NAME", t_(PM_TYPE_VARCHAR),
								"_FILE_SIZE", t_(PM_TYPE_BIGINT),
								"_ROW_COUNT", t_(PM_TYPE_BIGINT),
								"_KEY_STATS", stats_type(),
								"_VALUE_STATS", stats_type(),
								"_MIN_SEQUENCE_NUMBER", t_(PM_TYPE_BIGINT),
								"_CREATION_TIME", t_ts(PM_TYPE_TIMESTAMP, 3),
								"_NO_SUCH_FIELD", t_(PM_TYPE_INT),
								"_EXTRA_FILES", pm_type_new_array(arena, t_(PM_TYPE_VARCHAR), true),
								NULL),
				 "_NO_SUCH_COLUMN", stats_type(), NULL);
}

static const pm_type *
manifest_list_type(void)
{
	return t_row("_FILE_NAME", t_(PM_TYPE_VARCHAR), "_FILE_SIZE", t_(PM_TYPE_BIGINT),
				 "_NUM_ADDED_FILES", t_(PM_TYPE_BIGINT),
				 "_NUM_DELETED_FILES", t_(PM_TYPE_BIGINT),
				 "_PARTITION_STATS", stats_type(), "_SCHEMA_ID", t_(PM_TYPE_BIGINT), NULL);
}

static int64_t
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t) st.st_size : -1;
}

/* Find `name` under dir (depth <= 3), return its size or -1. */
static int64_t
find_size(const char *dir, const char *name, int depth)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;
	int64_t		res = -1;

	if (d == NULL)
		return -1;
	while (res < 0 && (e = readdir(d)) != NULL)
	{
		char		p[2048];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (strcmp(e->d_name, name) == 0)
			res = file_size(p);
		else if (depth > 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			res = find_size(p, name, depth - 1);
	}
	closedir(d);
	return res;
}

/* The append_09 manifest of snapshot 1's delta list: one row, values pinned. */
static void
test_manifest_values(void **state)
{
	const char *dir = "tables/parquet/append_09.db/append_09";
	char		path[1024];
	pm_fileio  *io;
	pm_format_read_options opt = {.schema = manifest_type(), .batch_size = 0};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	const pm_vector *file;
	int32_t		len;
	const uint8_t *p;

	(void) state;
	unit_require_corpus();		/* before allocating: a skip does not free */
	io = pm_local_fileio_create(pm_env_default());
	pm_error_clear(&err);
	snprintf(path, sizeof(path), "%s/manifest/manifest-97ddb443-4cd9-42e9-9871-4d51d4fa1b49-0",
			 unit_corpus_path(dir));
	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, path, &opt, &r, &err), PM_OK);
	assert_int_equal(pm_format_reader_row_count(r), 3);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	assert_non_null(b);
	assert_int_equal(b->nrows, 3);
	assert_int_equal(PM_VEC_VALUES(&b->cols[0], int8_t)[0], 0);	/* ADD */
	assert_int_equal(PM_VEC_VALUES(&b->cols[2], int32_t)[0], 0);
	assert_int_equal(PM_VEC_VALUES(&b->cols[2], int32_t)[1], 1);
	p = pm_vector_bytes(&b->cols[1], 2, &len);
	assert_int_equal(len, 20);
	assert_memory_equal(p, "\0\0\0\1\0\0\0\0\0\0\0\0\x14\0\0\0\0\0\0\0", 20);
	file = &b->cols[3];
	assert_null(file->nulls);
	p = pm_vector_bytes(&file->children[0], 0, &len);
	assert_int_equal(len, strlen("data-46e27d5b-4850-4d1e-abb6-b3aabbbc08cb-0.parquet"));
	assert_memory_equal(p, "data-46e27d5b-4850-4d1e-abb6-b3aabbbc08cb-0.parquet", len);
	assert_int_equal(PM_VEC_VALUES(&file->children[1], int64_t)[0], 827);
	assert_int_equal(PM_VEC_VALUES(&file->children[1], int64_t)[1], 919);
	assert_int_equal(PM_VEC_VALUES(&file->children[2], int64_t)[1], 3);
	/* _VALUE_STATS._NULL_COUNTS = [0,0,0,0]; _KEY_STATS._NULL_COUNTS = [] */
	{
		const pm_vector *vs = &file->children[4];
		const pm_vector *nc = &vs->children[2];
		const pm_vector *knc = &file->children[3].children[2];

		assert_int_equal(nc->offsets[0], 0);
		assert_int_equal(nc->offsets[3], 12);
		assert_int_equal(PM_VEC_VALUES(&nc->children[0], int64_t)[5], 0);
		assert_int_equal(knc->offsets[3], 0);
		p = pm_vector_bytes(&vs->children[0], 0, &len);
		assert_int_equal(len, 44);
		/* BinaryRow: arity (BE), null bits, then "Alice" inline in slot 0 */
		assert_memory_equal(p, "\0\0\0\4", 4);
		assert_memory_equal(p + 12, "Alice\0\0\x85", 8);
	}
	/*
	 * _CREATION_TIME: wall clock of the writer (Asia/Shanghai):
	 * 2025-08-21T14:37:41.937, i.e. 0.75 s before snapshot 1's commit
	 * (timeMillis 1755758262687 = 06:37:42.687 UTC = 14:37:42.687 +08:00).
	 */
	assert_int_equal(PM_VEC_VALUES(&file->children[6], int64_t)[0],
					 INT64_C(1755787061937000));
	/* absent fields read as NULL */
	assert_true(pm_vector_is_null(&file->children[7], 0));
	assert_true(pm_vector_is_null(&file->children[7], 2));
	assert_true(pm_vector_is_null(&b->cols[4], 1));
	assert_int_equal(file->children[8].offsets[3], 0);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	assert_null(b);
	pm_format_reader_close(r);
	pm_local_fileio_destroy(io);
}

typedef struct walk_stats
{
	int			manifests;
	int			lists;
	int64_t		entries;
	int64_t		data_files_found;
} walk_stats;

static void
check_manifest_file(pm_fileio *io, const char *table, const char *path, bool is_list,
					walk_stats *ws)
{
	pm_format_read_options opt = {.schema = is_list ? manifest_list_type() : manifest_type(), .batch_size = 3};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		rows = 0;

	pm_error_clear(&err);
	if (pm_orc_reader_open(pm_env_default(), io, path, &opt, &r, &err) != PM_OK)
		fail_msg("open %s: %s", path, err.message);
	for (;;)
	{
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("read %s: %s", path, err.message);
		if (b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			const pm_vector *names = is_list ? &b->cols[0] : &b->cols[3].children[0];
			const pm_vector *sizes = is_list ? &b->cols[1] : &b->cols[3].children[1];
			int32_t		len;
			const uint8_t *p = pm_vector_bytes(names, i, &len);
			char		name[256];
			int64_t		sz;

			assert_false(pm_vector_is_null(names, i));
			assert_true(len > 0 && len < 256);
			memcpy(name, p, len);
			name[len] = '\0';
			if (is_list)
			{
				char		mp[2048];

				/* the manifest it names exists with exactly that size */
				snprintf(mp, sizeof(mp), "%s/manifest/%s", table, name);
				assert_int_equal(file_size(mp), PM_VEC_VALUES(sizes, int64_t)[i]);
			}
			else
			{
				assert_true(strncmp(name, "data-", 5) == 0 ||
							strncmp(name, "changelog-", 10) == 0);
				sz = find_size(table, name, 3);
				if (sz >= 0)
				{
					assert_int_equal(sz, PM_VEC_VALUES(sizes, int64_t)[i]);
					ws->data_files_found++;
				}
				assert_true(PM_VEC_VALUES(&b->cols[3].children[2], int64_t)[i] >= 0);
			}
		}
		rows += b->nrows;
	}
	assert_int_equal(rows, pm_format_reader_row_count(r));
	ws->entries += rows;
	if (is_list)
		ws->lists++;
	else
		ws->manifests++;
	pm_format_reader_close(r);
}

static void
walk_tables(pm_fileio *io, const char *dir, int depth, walk_stats *ws)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
	{
		char		p[2048];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (strcmp(e->d_name, "manifest") == 0)
		{
			DIR		   *md = opendir(p);
			struct dirent *me;

			while (md && (me = readdir(md)) != NULL)
			{
				char		fp[4400];
				FILE	   *f;
				char		magic[3] = {0};
				bool		is_list = strncmp(me->d_name, "manifest-list-", 14) == 0;

				if (strncmp(me->d_name, "manifest-", 9) != 0)
					continue;
				snprintf(fp, sizeof(fp), "%s/%s", p, me->d_name);
				f = fopen(fp, "rb");
				if (f == NULL)
					continue;
				if (fread(magic, 1, 3, f) != 3)
					magic[0] = 0;
				fclose(f);
				if (memcmp(magic, "ORC", 3) == 0)
					check_manifest_file(io, dir, fp, is_list, ws);
			}
			if (md)
				closedir(md);
		}
		else if (depth > 0)
			walk_tables(io, p, depth - 1, ws);
	}
	closedir(d);
}

static void
test_all_orc_manifests(void **state)
{
	pm_fileio  *io;
	walk_stats	ws = {0};
	char		root[1024];

	(void) state;
	unit_require_corpus();		/* before allocating: a skip does not free */
	io = pm_local_fileio_create(pm_env_default());
	snprintf(root, sizeof(root), "%s", unit_corpus_path("tables"));
	walk_tables(io, root, 3, &ws);
	print_message("orc manifests %d, lists %d, entries %lld, data files checked %lld\n",
				  ws.manifests, ws.lists, (long long) ws.entries,
				  (long long) ws.data_files_found);
	assert_true(ws.manifests >= 20);
	assert_true(ws.lists >= 20);
	assert_true(ws.data_files_found >= 20);
	pm_local_fileio_destroy(io);
}

/* ---------------------------------------------------------------------
 * Stream encodings: the examples of the ORC v1 specification
 * ---------------------------------------------------------------------
 */
static void
int_rle(const uint8_t *bytes, size_t len, bool v2, bool sign, const int64_t *want, int n)
{
	int64_t		lit[ORC_MAX_RUN];
	int64_t		got[128];
	orc_int_rle d;
	pm_error	err;

	d.lit = lit;
	orc_int_rle_init(&d, bytes, len, v2, sign);
	assert_int_equal(orc_int_rle_read(&d, got, n, &err), PM_OK);
	for (int i = 0; i < n; i++)
		assert_int_equal(got[i], want[i]);
	/* nothing more */
	assert_int_equal(orc_int_rle_read(&d, got, 1, &err), PM_ERR_CORRUPT);
}

static void
test_rle_v2(void **state)
{
	static const uint8_t sr[] = {0x0a, 0x27, 0x10};
	static const int64_t sr_w[] = {10000, 10000, 10000, 10000, 10000};
	static const uint8_t di[] = {0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef};
	static const int64_t di_w[] = {23713, 43806, 57005, 48879};
	static const uint8_t pb[] = {0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70,
		0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa,
	0xb4, 0xbe, 0xfc, 0xe8};
	static const int64_t pb_w[] = {2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080,
	2090, 2100, 2110, 2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190};
	static const uint8_t de[] = {0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46};
	static const int64_t de_w[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
	/* signed short repeat: zigzag(-1) = 1, 3 times; fixed delta run 5,3,1,-1 */
	static const uint8_t ss[] = {0x00, 0x01};
	static const int64_t ss_w[] = {-1, -1, -1};
	static const uint8_t fd[] = {0xc0, 0x03, 0x0a, 0x03};
	static const int64_t fd_w[] = {5, 3, 1, -1};

	(void) state;
	int_rle(sr, sizeof(sr), true, false, sr_w, 5);
	int_rle(di, sizeof(di), true, false, di_w, 4);
	int_rle(pb, sizeof(pb), true, false, pb_w, 20);
	int_rle(de, sizeof(de), true, false, de_w, 10);
	int_rle(ss, sizeof(ss), true, true, ss_w, 3);
	int_rle(fd, sizeof(fd), true, true, fd_w, 4);
}

static void
test_rle_v1_and_bytes(void **state)
{
	static const uint8_t run[] = {0x61, 0x00, 0x07};
	static const uint8_t lit[] = {0xfb, 0x02, 0x03, 0x04, 0x07, 0x0b};
	static const int64_t lit_w[] = {2, 3, 4, 7, 11};
	static const uint8_t dec[] = {0x61, 0xff, 0x64};
	int64_t		want[100];
	uint8_t		out[100];
	orc_byte_rle br;
	orc_bool_rle bo;
	pm_error	err;
	static const uint8_t b1[] = {0x61, 0x00};
	static const uint8_t b2[] = {0xfe, 0x44, 0x45};
	static const uint8_t bools[] = {0xff, 0x80};

	(void) state;
	for (int i = 0; i < 100; i++)
		want[i] = 7;
	int_rle(run, sizeof(run), false, false, want, 100);
	int_rle(lit, sizeof(lit), false, false, lit_w, 5);
	for (int i = 0; i < 100; i++)
		want[i] = 100 - i;
	int_rle(dec, sizeof(dec), false, false, want, 100);

	orc_byte_rle_init(&br, b1, sizeof(b1));
	assert_int_equal(orc_byte_rle_read(&br, out, 100, &err), PM_OK);
	assert_int_equal(out[99], 0);
	assert_int_equal(orc_byte_rle_read(&br, out, 1, &err), PM_ERR_CORRUPT);
	orc_byte_rle_init(&br, b2, sizeof(b2));
	assert_int_equal(orc_byte_rle_read(&br, out, 2, &err), PM_OK);
	assert_int_equal(out[0], 0x44);
	assert_int_equal(out[1], 0x45);
	/* spec: 0xff 0x80 is one literal byte 0x80: 1 then 7 zeros */
	orc_bool_rle_init(&bo, bools, sizeof(bools));
	assert_int_equal(orc_bool_rle_read(&bo, out, 3, &err), PM_OK);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 0);
	assert_int_equal(orc_bool_rle_read(&bo, out, 5, &err), PM_OK);
	assert_int_equal(out[4], 0);
	assert_int_equal(orc_bool_rle_read(&bo, out, 1, &err), PM_ERR_CORRUPT);
}

static void
test_varint128(void **state)
{
	/* zigzag(-12345678901234567890123) in base 128 */
	unsigned __int128 z = 0;
	__int128	v = -(__int128) 1234567890123456789LL * 10000 - 123;
	uint8_t		buf[20];
	int			n = 0;
	orc_bytes	in;
	__int128	got;
	pm_error	err;

	(void) state;
	z = ((unsigned __int128) v << 1) ^ (unsigned __int128) (v >> 127);
	do
	{
		buf[n++] = (uint8_t) ((z & 0x7f) | (z >= 0x80 ? 0x80 : 0));
		z >>= 7;
	} while (z != 0);
	in.p = buf;
	in.end = buf + n;
	assert_int_equal(orc_read_varint128(&in, &got, &err), PM_OK);
	assert_true(got == v);
	in.p = buf;
	in.end = buf + n - 1;
	assert_int_equal(orc_read_varint128(&in, &got, &err), PM_ERR_CORRUPT);
}

/* ---------------------------------------------------------------------
 * Time zones
 * ---------------------------------------------------------------------
 */
static void
test_tz(void **state)
{
	pm_tz	   *sh,
			   *ny,
			   *gmt,
			   *bogus,
			   *fixed;
	pm_error	err;
	struct stat st;

	(void) state;
	assert_int_equal(pm_tz_load(arena, "GMT", &gmt, &err), PM_OK);
	assert_int_equal(pm_tz_offset(gmt, 1420070400), 0);
	assert_int_equal(pm_tz_load(arena, "GMT+08:00", &fixed, &err), PM_OK);
	assert_int_equal(pm_tz_offset(fixed, 0), 8 * 3600);
	assert_int_equal(pm_tz_load(arena, "../../etc/passwd", &bogus, &err), PM_OK);
	assert_int_equal(pm_tz_offset(bogus, 0), 0);
	assert_true(pm_tz_same_rules(bogus, pm_tz_utc()));
	if (stat("/usr/share/zoneinfo/Asia/Shanghai", &st) != 0)
	{
		print_message("no tz database\n");
		return;
	}
	assert_int_equal(pm_tz_load(arena, "Asia/Shanghai", &sh, &err), PM_OK);
	assert_int_equal(pm_tz_offset(sh, 1420070400), 8 * 3600);
	/* ORC's timestamp base in the writer zone */
	assert_int_equal(pm_tz_local_to_utc(sh, 1420070400), 1420070400 - 8 * 3600);
	/* China had DST in 1988: 1988-07-01 was +9 */
	assert_int_equal(pm_tz_offset(sh, 583718400), 9 * 3600);
	assert_int_equal(pm_tz_load(arena, "America/New_York", &ny, &err), PM_OK);
	assert_int_equal(pm_tz_offset(ny, 1436918400), -4 * 3600);	/* 2015-07-15 */
	assert_int_equal(pm_tz_offset(ny, 1421280000), -5 * 3600);	/* 2015-01-15 */
	/* after the file's last transition (2037): the footer's POSIX rule */
	assert_int_equal(pm_tz_offset(ny, INT64_C(2224713600)), -4 * 3600);	/* 2040-07-01 */
	assert_int_equal(pm_tz_offset(ny, INT64_C(2237932800)), -5 * 3600);	/* 2040-12-01 */
	assert_int_equal(pm_tz_offset(ny, INT64_C(2215061940)), -5 * 3600);	/* 2040-03-11 06:59Z */
	assert_int_equal(pm_tz_offset(ny, INT64_C(2215062000)), -4 * 3600);	/* 07:00Z: EDT */
	assert_int_equal(pm_tz_offset(ny, INT64_C(4118083200)), -4 * 3600);	/* 2100-07-01 */
	assert_int_equal(pm_tz_offset(sh, INT64_C(4118083200)), 8 * 3600);
	{
		pm_tz	   *syd;

		assert_int_equal(pm_tz_load(arena, "Australia/Sydney", &syd, &err), PM_OK);
		assert_int_equal(pm_tz_offset(syd, INT64_C(2210198400)), 11 * 3600);	/* Jan 2040 */
		assert_int_equal(pm_tz_offset(syd, INT64_C(2224713600)), 10 * 3600);	/* Jul 2040 */
	}
	assert_false(pm_tz_same_rules(sh, ny));
	assert_false(pm_tz_same_rules(sh, gmt));
	/*
	 * java.util.TimeZone (JDK 17, checked with getOffset): no history before
	 * 1900-01-01T00:00Z, the raw offset there; Shanghai's LMT (+8:05:43) from
	 * 1900 to 1901; New York's LMT ended in 1883, before the floor.
	 */
	assert_int_equal(pm_tz_offset(sh, INT64_C(-2208988801)), 28800);
	assert_int_equal(pm_tz_offset(sh, INT64_C(-2208988800)), 29143);
	assert_int_equal(pm_tz_offset(sh, INT64_C(-2177481944)), 29143);
	assert_int_equal(pm_tz_offset(sh, INT64_C(-2177481943)), 28800);
	assert_int_equal(pm_tz_offset(sh, INT64_C(-3786825600)), 28800);	/* 1850 */
	assert_int_equal(pm_tz_offset(ny, INT64_C(-3786825600)), -18000);
	assert_int_equal(pm_tz_offset(ny, INT64_C(-2208988800)), -18000);
	{
		pm_tz	   *dub,
				   *ktm;

		/* negative DST (IST standard, GMT "winter time"): Java's raw offset is 0 */
		assert_int_equal(pm_tz_load(arena, "Europe/Dublin", &dub, &err), PM_OK);
		assert_int_equal(pm_tz_offset(dub, INT64_C(-2208988801)), 0);
		assert_int_equal(pm_tz_offset(dub, INT64_C(-2208988800)), -1521);
		assert_int_equal(pm_tz_load(arena, "Asia/Kathmandu", &ktm, &err), PM_OK);
		assert_int_equal(pm_tz_offset(ktm, INT64_C(-2208988801)), 20700);
		assert_int_equal(pm_tz_offset(ktm, INT64_C(-2208988800)), 20476);
	}
}

/* ---------------------------------------------------------------------
 * Corruption: every truncation and many byte flips of a real file give an
 * error (never a crash); a truncated tail is PM_ERR_CORRUPT.
 * ---------------------------------------------------------------------
 */
static pm_code
read_all_mem(pm_fileio *io, const char *path, const pm_type *schema, pm_error *err)
{
	pm_format_read_options opt = {.schema = schema, .batch_size = 0};
	pm_format_reader *r;
	pm_batch   *b;
	pm_code		rc;

	pm_error_clear(err);
	rc = pm_orc_reader_open(pm_env_default(), io, path, &opt, &r, err);
	if (rc != PM_OK)
		return rc;
	do
		rc = pm_format_reader_next(r, &b, err);
	while (rc == PM_OK && b != NULL);
	pm_format_reader_close(r);
	return rc;
}

/*
 * Footer and stripe footer fields with the wrong protobuf wire type or a
 * truncated varint: a clean "invalid orc" error. The parsers used to store
 * the (unset) value of a failed read before checking the failure; valgrind
 * saw the uninitialised reads (parse_type, parse_stream, parse_encoding).
 */
static void
test_proto_bad_fields(void **state)
{
	static const uint8_t footers[][16] = {
		/* 4 types { 1 kind: fixed64 } */
		{0x22, 0x09, 0x09, 1, 0, 0, 0, 0, 0, 0, 0},
		/* 4 types { 1 kind: truncated varint } */
		{0x22, 0x02, 0x08, 0x80},
		/* 4 types { 1 kind = struct, 2 subtype: fixed32 } */
		{0x22, 0x07, 0x08, 0x0c, 0x15, 1, 0, 0, 0},
		/* 4 types { 1 kind = struct, 2 packed subtypes: truncated varint } */
		{0x22, 0x05, 0x08, 0x0c, 0x12, 0x01, 0x80},
		/* 4 types { 1 kind = decimal, 5 precision: bytes } */
		{0x22, 0x04, 0x08, 0x0e, 0x2a, 0x00},
		/* 4 types { 1 kind = decimal, 6 scale: fixed32 } */
		{0x22, 0x07, 0x08, 0x0e, 0x35, 1, 0, 0, 0},
	};
	static const uint8_t stripe_footers[][16] = {
		/* 1 streams { 1 kind: bytes } */
		{0x0a, 0x02, 0x0a, 0x00},
		/* 1 streams { 2 column: fixed64 } */
		{0x0a, 0x09, 0x11, 1, 0, 0, 0, 0, 0, 0, 0},
		/* 2 columns { 1 kind: fixed32 } */
		{0x12, 0x05, 0x0d, 1, 0, 0, 0},
		/* 2 columns { 2 dictionarySize: truncated varint } */
		{0x12, 0x02, 0x10, 0x80},
	};
	pm_error	err;

	(void) state;
	for (size_t i = 0; i < sizeof(footers) / sizeof(footers[0]); i++)
	{
		orc_footer	ft;

		pm_error_clear(&err);
		assert_int_equal(orc_parse_footer(footers[i], 2 + footers[i][1], arena, &ft, &err),
						 PM_ERR_CORRUPT);
		assert_non_null(strstr(err.message, "invalid orc"));
	}
	for (size_t i = 0; i < sizeof(stripe_footers) / sizeof(stripe_footers[0]); i++)
	{
		orc_stripe_footer sf;

		pm_error_clear(&err);
		assert_int_equal(orc_parse_stripe_footer(stripe_footers[i], 2 + stripe_footers[i][1],
												 arena, &sf, &err), PM_ERR_CORRUPT);
		assert_non_null(strstr(err.message, "invalid orc"));
	}
	/* RowIndex: positions packed and not, statistics; then malformed ones */
	{
		/* 1 entry { 1 positions [3, 300] packed, 1 position 7, 2 stats { 1 numberOfValues 5 } } */
		static const uint8_t good[] = {0x0a, 0x0b, 0x0a, 0x03, 0x03, 0xac, 0x02, 0x08, 0x07,
		0x12, 0x02, 0x08, 0x05};
		static const uint8_t bad_index[][8] = {
			/* 1 entry: length past the end */
			{0x0a, 0x05, 0x0a},
			/* 1 entry { 1 packed positions: truncated varint } */
			{0x0a, 0x03, 0x0a, 0x01, 0x80},
			/* 1 entry { 1 position: fixed32 } */
			{0x0a, 0x05, 0x0d, 1, 0, 0, 0},
		};
		static const size_t bad_len[] = {3, 5, 7};
		orc_row_index_entry *e;
		int			n;

		assert_int_equal(orc_parse_row_index(good, sizeof(good), arena, &n, &e, &err), PM_OK);
		assert_int_equal(n, 1);
		assert_int_equal(e[0].npos, 3);
		assert_int_equal(e[0].pos[0], 3);
		assert_int_equal(e[0].pos[1], 300);
		assert_int_equal(e[0].pos[2], 7);
		assert_true(e[0].has_stats && e[0].stats.has_nvalues && e[0].stats.nvalues == 5);
		for (size_t i = 0; i < sizeof(bad_len) / sizeof(bad_len[0]); i++)
		{
			pm_error_clear(&err);
			if (orc_parse_row_index(bad_index[i], bad_len[i], arena, &n, &e, &err) == PM_OK)
			{
				/* a field of another wire type is skipped, never read as positions */
				assert_int_equal(i, 2);
				assert_int_equal(e[0].npos, 0);
			}
			else
				assert_non_null(strstr(err.message, "invalid orc"));
		}
	}
}

static void
test_corrupt(void **state)
{
	const char *rel = "tables/parquet/append_09.db/append_09/manifest/"
		"manifest-97ddb443-4cd9-42e9-9871-4d51d4fa1b49-0";
	pm_fileio  *io;
	uint8_t    *buf,
			   *mut;
	long		len;
	FILE	   *f;
	pm_error	err;
	const pm_type *schema = manifest_type();
	int			corrupt = 0;

	(void) state;
	unit_require_corpus();		/* before allocating: a skip does not free */
	io = pm_memory_fileio_create(pm_env_default());
	f = fopen(unit_corpus_path(rel), "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len);
	mut = malloc(len);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);

	assert_int_equal(pm_memory_fileio_add(io, "/m", buf, len, &err), PM_OK);
	assert_int_equal(read_all_mem(io, "/m", schema, &err), PM_OK);

	/* not ORC at all */
	assert_int_equal(pm_memory_fileio_add(io, "/x", "hello world", 11, &err), PM_OK);
	assert_int_equal(read_all_mem(io, "/x", schema, &err), PM_ERR_CORRUPT);
	assert_string_equal(err.path, "/x");

	/* truncations */
	for (long cut = 0; cut < len; cut += (cut < 64 ? 1 : 37))
	{
		pm_code		rc;

		assert_int_equal(pm_memory_fileio_add(io, "/t", buf, cut, &err), PM_OK);
		rc = read_all_mem(io, "/t", schema, &err);
		assert_int_not_equal(rc, PM_OK);
		assert_int_not_equal(rc, PM_ERR_NOMEM);
		if (rc != PM_ERR_CORRUPT)
			fail_msg("cut %ld: %s: %s", cut, pm_code_name(rc), err.message);
		corrupt++;
	}
	assert_true(corrupt > 10);

	/* byte flips: errors or (harmless) different values, never a crash */
	for (long i = 0; i < len; i += 3)
	{
		memcpy(mut, buf, len);
		mut[i] ^= (uint8_t) (0x5a + i);
		assert_int_equal(pm_memory_fileio_add(io, "/f", mut, len, &err), PM_OK);
		(void) read_all_mem(io, "/f", schema, &err);
	}
	/* the postscript length byte pointing past the file */
	memcpy(mut, buf, len);
	mut[len - 1] = 0xff;
	assert_int_equal(pm_memory_fileio_add(io, "/p", mut, len, &err), PM_OK);
	assert_int_equal(read_all_mem(io, "/p", schema, &err), PM_ERR_CORRUPT);

	/* a type the file cannot give */
	assert_int_equal(read_all_mem(io, "/m", t_row("_BUCKET", t_(PM_TYPE_VARCHAR), NULL), &err),
					 PM_ERR_UNSUPPORTED);
	free(buf);
	free(mut);
	pm_memory_fileio_destroy(io);
}

/* ---------------------------------------------------------------------
 * A synthetic file built here (compression NONE, RLE v1, two stripes):
 * the types the corpus' ORC files lack (timestamps, decimals, dates,
 * dictionary strings, floats, booleans, lists with nulls).
 * ---------------------------------------------------------------------
 */
typedef struct obuf
{
	uint8_t		d[4096];
	size_t		n;
} obuf;

static void
put(obuf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->d));
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void
put_varint(obuf *b, uint64_t v)
{
	do
	{
		uint8_t		c = (v & 0x7f) | (v >= 0x80 ? 0x80 : 0);

		put(b, &c, 1);
		v >>= 7;
	} while (v != 0);
}

static void
pb_u(obuf *b, int field, uint64_t v)
{
	put_varint(b, (uint64_t) field << 3);
	put_varint(b, v);
}

static void
pb_b(obuf *b, int field, const void *p, size_t n)
{
	put_varint(b, ((uint64_t) field << 3) | 2);
	put_varint(b, n);
	put(b, p, n);
}

static uint64_t
zz(int64_t v)
{
	return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

/* RLE v1 literals */
static void
rle1(obuf *b, const int64_t *v, int n, bool sign)
{
	uint8_t		c = (uint8_t) (0x100 - n);

	put(b, &c, 1);
	for (int i = 0; i < n; i++)
		put_varint(b, sign ? zz(v[i]) : (uint64_t) v[i]);
}

/* booleans (n <= 8) as one byte-RLE literal */
static void
bits(obuf *b, const int *v, int n)
{
	uint8_t		c[2] = {0xff, 0};

	for (int i = 0; i < n; i++)
		c[1] |= (uint8_t) ((v[i] ? 1 : 0) << (7 - i));
	put(b, c, 2);
}

typedef struct ostripe
{
	obuf		data;
	obuf		footer;			/* StripeFooter being built */
} ostripe;

static void
stream(ostripe *s, int kind, int column, const obuf *bytes)
{
	obuf		m = {0};

	pb_u(&m, 1, kind);
	pb_u(&m, 2, column);
	pb_u(&m, 3, bytes->n);
	pb_b(&s->footer, 1, m.d, m.n);
	put(&s->data, bytes->d, bytes->n);
}

enum
{
	C_ROOT, C_TS, C_LT, C_DEC, C_DATE, C_STR, C_FLT, C_LIST, C_ELEM, C_BOOL, NCOLS
};

static void
encodings(ostripe *s, const char *tz, int dict_size)
{
	for (int c = 0; c < NCOLS; c++)
	{
		obuf		m = {0};

		pb_u(&m, 1, c == C_STR ? ORC_E_DICTIONARY : ORC_E_DIRECT);
		if (c == C_STR)
			pb_u(&m, 2, dict_size);
		pb_b(&s->footer, 2, m.d, m.n);
	}
	if (tz)
		pb_b(&s->footer, 3, tz, strlen(tz));
}

static void
stripe1(ostripe *s)
{
	obuf		b;
	int64_t		ts_s[] = {0, 1, -1420041602};
	int64_t		ts_n[] = {0, (int64_t) 123456789 << 3, (5 << 3) | 7};
	int64_t		lt_s[] = {-28800},
				lt_n[] = {0};
	int64_t		dec[] = {12345, 5, -12345},
				scale[] = {2, 0, 3};
	int64_t		days[] = {-1, 0, 19000};
	int64_t		idx[] = {1, 0, 1},
				dlen[] = {1, 2};
	float		flt[] = {1.5f, -2.25f, 0};
	int64_t		llen[] = {2, 0},
				elem[] = {1, 2};
	int			p101[] = {1, 0, 1},
				p100[] = {1, 0, 0},
				tf[] = {1, 0};

	memset(s, 0, sizeof(*s));
	b.n = 0; rle1(&b, ts_s, 3, true); stream(s, ORC_S_DATA, C_TS, &b);
	b.n = 0; rle1(&b, ts_n, 3, false); stream(s, ORC_S_SECONDARY, C_TS, &b);
	b.n = 0; bits(&b, p100, 3); stream(s, ORC_S_PRESENT, C_LT, &b);
	b.n = 0; rle1(&b, lt_s, 1, true); stream(s, ORC_S_DATA, C_LT, &b);
	b.n = 0; rle1(&b, lt_n, 1, false); stream(s, ORC_S_SECONDARY, C_LT, &b);
	b.n = 0;
	for (int i = 0; i < 3; i++)
		put_varint(&b, zz(dec[i]));
	stream(s, ORC_S_DATA, C_DEC, &b);
	b.n = 0; rle1(&b, scale, 3, true); stream(s, ORC_S_SECONDARY, C_DEC, &b);
	b.n = 0; rle1(&b, days, 3, true); stream(s, ORC_S_DATA, C_DATE, &b);
	b.n = 0; rle1(&b, idx, 3, false); stream(s, ORC_S_DATA, C_STR, &b);
	b.n = 0; rle1(&b, dlen, 2, false); stream(s, ORC_S_LENGTH, C_STR, &b);
	b.n = 0; put(&b, "abc", 3); stream(s, ORC_S_DICTIONARY_DATA, C_STR, &b);
	b.n = 0; put(&b, flt, sizeof(flt)); stream(s, ORC_S_DATA, C_FLT, &b);
	b.n = 0; bits(&b, p101, 3); stream(s, ORC_S_PRESENT, C_LIST, &b);
	b.n = 0; rle1(&b, llen, 2, false); stream(s, ORC_S_LENGTH, C_LIST, &b);
	b.n = 0; rle1(&b, elem, 2, true); stream(s, ORC_S_DATA, C_ELEM, &b);
	b.n = 0; bits(&b, p101, 3); stream(s, ORC_S_PRESENT, C_BOOL, &b);
	b.n = 0; bits(&b, tf, 2); stream(s, ORC_S_DATA, C_BOOL, &b);
	encodings(s, "Asia/Shanghai", 2);
}

/* two rows; only the timestamps have values, the rest is NULL */
static void
stripe2(ostripe *s)
{
	obuf		b;
	int64_t		ts_s[] = {0, -1420070400};
	int64_t		ts_n[] = {0, (1 << 3) | 2};
	int			none[] = {0, 0};
	static const int cols[] = {C_LT, C_DEC, C_DATE, C_STR, C_FLT, C_LIST, C_BOOL};

	memset(s, 0, sizeof(*s));
	b.n = 0; rle1(&b, ts_s, 2, true); stream(s, ORC_S_DATA, C_TS, &b);
	b.n = 0; rle1(&b, ts_n, 2, false); stream(s, ORC_S_SECONDARY, C_TS, &b);
	for (int i = 0; i < 7; i++)
	{
		b.n = 0;
		bits(&b, none, 2);
		stream(s, ORC_S_PRESENT, cols[i], &b);
	}
	encodings(s, NULL, 0);
}

static void
type_msg(obuf *footer, int kind, const int *sub, const char *const *names, int nsub,
		 int precision, int scale)
{
	obuf		m = {0};

	pb_u(&m, 1, kind);
	for (int i = 0; i < nsub; i++)
		pb_u(&m, 2, sub[i]);
	for (int i = 0; names && i < nsub; i++)
		pb_b(&m, 3, names[i], strlen(names[i]));
	if (precision)
	{
		pb_u(&m, 5, precision);
		pb_u(&m, 6, scale);
	}
	pb_b(footer, 4, m.d, m.n);
}

/* The whole file into out; returns its length. */
static size_t
build_file(uint8_t *out, size_t cap)
{
	static ostripe s[2];
	obuf	   *file = calloc(1, sizeof(obuf));
	obuf		footer = {0},
				ps = {0};
	int			rows[2] = {3, 2};
	static const int sub[] = {C_TS, C_LT, C_DEC, C_DATE, C_STR, C_FLT, C_LIST, C_BOOL};
	static const char *const names[] = {"ts", "lt", "dec", "d", "s", "f", "l", "b"};
	int			elem = C_ELEM;
	size_t		n;

	stripe1(&s[0]);
	stripe2(&s[1]);
	put(file, "ORC", 3);
	pb_u(&footer, 1, 3);
	for (int i = 0; i < 2; i++)
	{
		obuf		si = {0};

		pb_u(&si, 1, file->n);
		pb_u(&si, 2, 0);
		pb_u(&si, 3, s[i].data.n);
		pb_u(&si, 4, s[i].footer.n);
		pb_u(&si, 5, rows[i]);
		put(file, s[i].data.d, s[i].data.n);
		put(file, s[i].footer.d, s[i].footer.n);
		pb_b(&footer, 3, si.d, si.n);
	}
	type_msg(&footer, ORC_STRUCT, sub, names, 8, 0, 0);
	type_msg(&footer, ORC_TIMESTAMP, NULL, NULL, 0, 0, 0);
	type_msg(&footer, ORC_TIMESTAMP_INSTANT, NULL, NULL, 0, 0, 0);
	type_msg(&footer, ORC_DECIMAL, NULL, NULL, 0, 10, 2);
	type_msg(&footer, ORC_DATE, NULL, NULL, 0, 0, 0);
	type_msg(&footer, ORC_STRING, NULL, NULL, 0, 0, 0);
	type_msg(&footer, ORC_FLOAT, NULL, NULL, 0, 0, 0);
	type_msg(&footer, ORC_LIST, &elem, NULL, 1, 0, 0);
	type_msg(&footer, ORC_INT, NULL, NULL, 0, 0, 0);
	type_msg(&footer, ORC_BOOLEAN, NULL, NULL, 0, 0, 0);
	pb_u(&footer, 6, 5);
	put(file, footer.d, footer.n);
	pb_u(&ps, 1, footer.n);
	pb_u(&ps, 2, ORC_C_NONE);
	pb_u(&ps, 3, 262144);
	pb_b(&ps, 8000, "ORC", 3);
	put(file, ps.d, ps.n);
	{
		uint8_t		l = (uint8_t) ps.n;

		put(file, &l, 1);
	}
	n = file->n;
	assert_true(n <= cap);
	memcpy(out, file->d, n);
	free(file);
	return n;
}

static const pm_type *
synthetic_type(void)
{
	return t_row("ts", t_ts(PM_TYPE_TIMESTAMP, 9), "lt", t_ts(PM_TYPE_TIMESTAMP_LTZ, 6),
				 "dec", pm_type_new_decimal(arena, 10, 2, true), "d", t_(PM_TYPE_DATE),
				 "s", t_(PM_TYPE_VARCHAR), "f", t_(PM_TYPE_FLOAT),
				 "l", pm_type_new_array(arena, t_(PM_TYPE_INT), true),
				 "b", t_(PM_TYPE_BOOLEAN), "missing", t_(PM_TYPE_BIGINT), NULL);
}

static void
test_synthetic_types(void **state)
{
	uint8_t		file[4096];
	size_t		len = build_file(file, sizeof(file));
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_format_read_options opt = {.schema = synthetic_type(), .batch_size = 0};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	const pm_vector *v;
	int32_t		l;
	const uint8_t *p;

	(void) state;
	pm_error_clear(&err);
	if (getenv("ORC_SEED_OUT") != NULL)
	{
		/* how test/fuzz/corpus/orc/synthetic_all_types was made */
		FILE	   *f = fopen(getenv("ORC_SEED_OUT"), "wb");

		assert_non_null(f);
		assert_int_equal(fwrite(file, 1, len, f), len);
		fclose(f);
	}
	assert_int_equal(pm_memory_fileio_add(io, "/s.orc", file, len, &err), PM_OK);
	for (int pass = 0; pass < 2; pass++)
	{
		/* pass 1: another reader zone must not change TIMESTAMP wall clocks */
		opt.orc_reader_timezone = pass == 1 ? "America/New_York" : NULL;
		if (pm_orc_reader_open(pm_env_default(), io, "/s.orc", &opt, &r, &err) != PM_OK)
			fail_msg("%s", err.message);
		assert_int_equal(pm_format_reader_row_count(r), 5);
		assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
		assert_non_null(b);
		assert_int_equal(b->nrows, 3);

		/* TIMESTAMP, writer Asia/Shanghai: seconds after 2015-01-01 00:00 local */
		v = &b->cols[0];
		assert_null(v->nulls);
		assert_int_equal(PM_VEC_VALUES(v, int64_t)[0], INT64_C(1420070400000000));
		assert_int_equal(PM_VEC_VALUES(v, int64_t)[1], INT64_C(1420070401123456));
		assert_int_equal(v->nanos[1], 789);
		/* negative millis with nanos >= 1 ms: Java moves one second back */
		assert_int_equal(PM_VEC_VALUES(v, int64_t)[2], INT64_C(28797500000));
		if (pass >= 1)
			goto next;
		/* legacy TIMESTAMP_LTZ: UTC instant shifted back by the writer zone */
		v = &b->cols[1];
		assert_int_equal(PM_VEC_VALUES(v, int64_t)[0], INT64_C(1420070400000000));
		assert_true(pm_vector_is_null(v, 1) && pm_vector_is_null(v, 2));
		/* DECIMAL(10,2): 123.45, 5 -> 5.00, -12.345 -> -12.35 (HALF_UP) */
		v = &b->cols[2];
		assert_true(PM_VEC_VALUES(v, pm_int128)[0] == 12345);
		assert_true(PM_VEC_VALUES(v, pm_int128)[1] == 500);
		assert_true(PM_VEC_VALUES(v, pm_int128)[2] == -1235);
		v = &b->cols[3];
		assert_int_equal(PM_VEC_VALUES(v, int32_t)[0], -1);
		assert_int_equal(PM_VEC_VALUES(v, int32_t)[2], 19000);
		/* dictionary strings */
		v = &b->cols[4];
		p = pm_vector_bytes(v, 0, &l);
		assert_int_equal(l, 2);
		assert_memory_equal(p, "bc", 2);
		p = pm_vector_bytes(v, 1, &l);
		assert_int_equal(l, 1);
		assert_memory_equal(p, "a", 1);
		v = &b->cols[5];
		assert_true(PM_VEC_VALUES(v, float)[1] == -2.25f);
		/* list: [1,2], NULL, [] */
		v = &b->cols[6];
		assert_false(pm_vector_is_null(v, 0));
		assert_true(pm_vector_is_null(v, 1));
		assert_int_equal(v->offsets[1], 2);
		assert_int_equal(v->offsets[2], 2);
		assert_int_equal(v->offsets[3], 2);
		assert_int_equal(v->children[0].length, 2);
		assert_int_equal(PM_VEC_VALUES(&v->children[0], int32_t)[1], 2);
		/* booleans with a null in the middle */
		v = &b->cols[7];
		assert_int_equal(PM_VEC_VALUES(v, uint8_t)[0], 1);
		assert_true(pm_vector_is_null(v, 1));
		assert_int_equal(PM_VEC_VALUES(v, uint8_t)[2], 0);
		assert_true(pm_vector_is_null(&b->cols[8], 0));
next:
		/* stripe 2: no writer zone recorded, so the reader's (UTC by default) */
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("%s", err.message);
		assert_non_null(b);
		assert_int_equal(b->nrows, 2);
		assert_int_equal(b->first_row, 3);
		v = &b->cols[0];
		if (pass == 0)
		{
			assert_int_equal(PM_VEC_VALUES(v, int64_t)[0], INT64_C(1420070400000000));
			assert_int_equal(PM_VEC_VALUES(v, int64_t)[1], 1);
			assert_int_equal(v->nanos[1], 0);
			for (int c = 1; c < 9; c++)
				assert_true(pm_vector_is_null(&b->cols[c], 1));
		}
		assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
		assert_null(b);
		pm_format_reader_close(r);
	}
	pm_memory_fileio_destroy(io);
}

/*
 * TIMESTAMP_LTZ and orc.timestamp-ltz.legacy.type. Stripe 1 (writer zone
 * Asia/Shanghai): "lt" (TIMESTAMP_INSTANT) stores 2014-12-31 16:00:00 UTC,
 * which is the instant itself when the option is false, and in the legacy
 * encoding the UTC wall clock 2015-01-01 00:00 taken as Shanghai time;
 * "ts" (kind TIMESTAMP, as Paimon < 0.7 wrote LTZ) stores the wall clock
 * 2015-01-01 00:00, read as UTC whatever the option says.
 */
static void
test_synthetic_ltz(void **state)
{
	uint8_t		file[4096];
	size_t		len = build_file(file, sizeof(file));
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_format_read_options opt = {.schema = NULL, .batch_size = 0};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;

	(void) state;
	opt.schema = t_row("lt", t_ts(PM_TYPE_TIMESTAMP_LTZ, 6),
					   "ts", t_ts(PM_TYPE_TIMESTAMP_LTZ, 6), NULL);
	assert_int_equal(pm_memory_fileio_add(io, "/s.orc", file, len, &err), PM_OK);
	for (int instant = 0; instant < 2; instant++)
	{
		opt.orc_ltz_instant = instant;
		if (pm_orc_reader_open(pm_env_default(), io, "/s.orc", &opt, &r, &err) != PM_OK)
			fail_msg("%s", err.message);
		assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
		assert_non_null(b);
		assert_int_equal(PM_VEC_VALUES(&b->cols[0], int64_t)[0],
						 instant ? INT64_C(1420041600000000) : INT64_C(1420070400000000));
		assert_int_equal(PM_VEC_VALUES(&b->cols[1], int64_t)[0], INT64_C(1420070400000000));
		pm_format_reader_close(r);
	}
	pm_memory_fileio_destroy(io);
}

/* Batches of 2 rows across the two stripes, with a projection in another order. */
static void
test_synthetic_batches(void **state)
{
	uint8_t		file[4096];
	size_t		len = build_file(file, sizeof(file));
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_format_read_options opt = {.schema = NULL, .batch_size = 2};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		sizes[4] = {0},
				nb = 0;
	int			reads;

	(void) state;
	opt.schema = t_row("d", t_(PM_TYPE_DATE), "ts", t_ts(PM_TYPE_TIMESTAMP, 3), NULL);
	assert_int_equal(pm_memory_fileio_add(io, "/s.orc", file, len, &err), PM_OK);
	reads = pm_memory_fileio_read_count(io);
	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, "/s.orc", &opt, &r, &err), PM_OK);
	for (;;)
	{
		assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
		if (b == NULL)
			break;
		assert_true(nb < 4);
		sizes[nb++] = b->nrows;
		assert_null(b->cols[1].nanos);	/* precision 3: no nanos vector */
		if (nb == 2)
		{
			assert_int_equal(b->first_row, 2);
			assert_int_equal(PM_VEC_VALUES(&b->cols[0], int32_t)[0], 19000);
			assert_int_equal(PM_VEC_VALUES(&b->cols[1], int64_t)[0], INT64_C(28797500000));
		}
	}
	assert_int_equal(nb, 3);
	/* the tail, then per stripe its footer and one batched read of the streams */
	assert_int_equal(pm_memory_fileio_read_count(io) - reads, 1 + 2 * 2);
	pm_format_reader_close(r);

	/* DECIMAL(4,2): 123.45 does not fit and reads as NULL (Decimal.fromBigDecimal) */
	opt.schema = t_row("dec", pm_type_new_decimal(arena, 4, 2, true), NULL);
	opt.batch_size = 0;
	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, "/s.orc", &opt, &r, &err), PM_OK);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	assert_true(pm_vector_is_null(&b->cols[0], 0));
	assert_true(PM_VEC_VALUES(&b->cols[0], pm_int128)[1] == 500);
	assert_true(PM_VEC_VALUES(&b->cols[0], pm_int128)[2] == -1235);
	assert_int_equal(sizes[0], 2);
	assert_int_equal(sizes[1], 1);
	assert_int_equal(sizes[2], 2);
	pm_format_reader_close(r);

	/* uncompressed file truncated in its stripes: corrupt, not a crash */
	for (size_t cut = 3; cut < 60; cut++)
	{
		uint8_t		bad[4096];

		memcpy(bad, file, len);
		bad[cut] ^= 0xff;
		assert_int_equal(pm_memory_fileio_add(io, "/b.orc", bad, len, &err), PM_OK);
		(void) read_all_mem(io, "/b.orc", synthetic_type(), &err);
	}
	pm_memory_fileio_destroy(io);
}


/*
 * Files of our writer with DICTIONARY_V2 strings (several stripes, each
 * with its own dictionary; NULLs; CHAR padded values) and bloom filter
 * streams in the index area: read whole, in batches of 7 that cross the
 * stripes, and with only the dictionary column requested.
 */
static void
test_dictionary_and_bloom_streams(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, "ROW<id INT, s STRING, c CHAR(4)>");
	const pm_type *only_s = writer_fixture_parse_type(a, "ROW<s STRING>");
	pm_orc_write_options oo = {.dictionary_threshold = 0.8, .bloom_columns = "*"};
	pm_batch	b;
	int64_t		n = 30000,
				caps[2] = {0};
	pm_format_read_options opt;
	pm_format_reader *r;
	pm_batch   *got;
	pm_error	err;
	int64_t		seen = 0;

	(void) state;
	memset(&b, 0, sizeof(b));
	b.nrows = n;
	b.ncols = 3;
	b.cols = pm_arena_zalloc(a, sizeof(pm_vector) * 3);
	for (int c = 0; c < 3; c++)
	{
		assert_true(pm_vector_init(&b.cols[c], row->fields[c].type, n, true, a));
		b.cols[c].length = n;
	}
	for (int64_t i = 0; i < n; i++)
	{
		char		t[16];

		PM_VEC_VALUES(&b.cols[0], int32_t)[i] = (int32_t) i;
		for (int c = 1; c < 3; c++)
		{
			pm_vector  *v = &b.cols[c];

			if (i % 11 == c)
			{
				v->nulls[i] = 1;
				v->offsets[i + 1] = v->offsets[i];
				continue;
			}
			snprintf(t, sizeof(t), c == 1 ? "val-%d" : "c%d", (int) (i * 7 % (c == 1 ? 997 : 9)));
			assert_true(pm_vector_append_data(v, &caps[c - 1], t, (int32_t) strlen(t), a));
			v->offsets[i + 1] = (int32_t) v->data_size;
		}
	}
	/* stripes of ~32 KiB: several, each its own dictionary */
	writer_fixture_write(PM_FORMAT_ORC, io, "/d.orc", row, "zstd", 32768, &oo, &b, 1, NULL, a);
	assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, "/d.orc", row, &b, 1, "dict"), n);

	memset(&opt, 0, sizeof(opt));
	opt.schema = only_s;
	opt.batch_size = 7;
	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, "/d.orc", &opt, &r, &err), PM_OK);
	while (pm_format_reader_next(r, &got, &err) == PM_OK && got != NULL)
		for (int64_t i = 0; i < got->nrows; i++, seen++)
		{
			char		why[100] = "";

			assert_int_equal(got->first_row + i, seen);
			if (!writer_fixture_value_equal(only_s->fields[0].type, &b.cols[1], seen,
											&got->cols[0], i, why, sizeof(why)))
				fail_msg("row %lld: %s", (long long) seen, why);
		}
	assert_int_equal(seen, n);
	pm_format_reader_close(r);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}


/* rows read with equality probes (the ORC reader's bloom filter skipping) */
static int64_t
read_probed(pm_fileio *io, const char *path, const pm_type *row, const pm_equal_probe *probes,
			int nprobes, int64_t *skipped, int64_t *first_id)
{
	pm_format_read_options opt;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		n = 0;

	memset(&opt, 0, sizeof(opt));
	opt.schema = row;
	opt.equal_probes = probes;
	opt.nequal_probes = nprobes;
	opt.parts_bloom_skipped = skipped;
	*skipped = 0;
	*first_id = -1;
	if (pm_orc_reader_open(pm_env_default(), io, path, &opt, &r, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	for (;;)
	{
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("read: %s", err.message);
		if (b == NULL)
			break;
		if (*first_id < 0 && b->nrows > 0)
		{
			*first_id = PM_VEC_VALUES(&b->cols[0], int32_t)[0];
			/* positions of the stripes skipped before still count */
			assert_int_equal(b->first_row, *first_id);
		}
		n += b->nrows;
	}
	pm_format_reader_close(r);
	return n;
}

/*
 * Stripes skipped by BLOOM_FILTER_UTF8 filters: four stripes of 1024 rows
 * whose values interleave (min/max could not skip them), each probe value
 * in one stripe only; absent values skip all; -0.0 in the file matches a
 * probe of 0.0; columns without filters and CHAR columns never skip.
 */
static void
test_bloom_filter_skipping(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, "ROW<id INT, k BIGINT, s STRING, "
												   "dec DECIMAL(10, 2), d DOUBLE, c CHAR(3), nb INT>");
	pm_orc_write_options oo = {.dictionary_threshold = 0.8, .bloom_columns = "k,s,dec,d,c"};
	pm_batch	b[4];
	int64_t		skipped,
				first,
				caps[2];
	pm_value	v[3];
	pm_equal_probe pr;

	(void) state;
	for (int k = 0; k < 4; k++)
	{
		int64_t		n = 1024;

		memset(&b[k], 0, sizeof(b[k]));
		b[k].nrows = n;
		b[k].ncols = row->nfields;
		b[k].cols = pm_arena_zalloc(a, sizeof(pm_vector) * (size_t) row->nfields);
		for (int c = 0; c < row->nfields; c++)
		{
			assert_true(pm_vector_init(&b[k].cols[c], row->fields[c].type, n, true, a));
			b[k].cols[c].length = n;
		}
		caps[0] = caps[1] = 0;
		for (int64_t i = 0; i < n; i++)
		{
			int64_t		x = i * 4 + k;	/* stripe k holds the values = k mod 4 */
			char		t[16];

			PM_VEC_VALUES(&b[k].cols[0], int32_t)[i] = (int32_t) (k * n + i);
			PM_VEC_VALUES(&b[k].cols[1], int64_t)[i] = x;
			snprintf(t, sizeof(t), "s%lld", (long long) x);
			assert_true(pm_vector_append_data(&b[k].cols[2], &caps[0], t, (int32_t) strlen(t), a));
			b[k].cols[2].offsets[i + 1] = (int32_t) b[k].cols[2].data_size;
			PM_VEC_VALUES(&b[k].cols[3], pm_int128)[i] = x * 10;	/* x / 10 at scale 2 */
			PM_VEC_VALUES(&b[k].cols[4], double)[i] = k == 2 && i == 7 ? -0.0 : (double) x + 0.5;
			snprintf(t, sizeof(t), "c%d", k);
			assert_true(pm_vector_append_data(&b[k].cols[5], &caps[1], t, (int32_t) strlen(t), a));
			b[k].cols[5].offsets[i + 1] = (int32_t) b[k].cols[5].data_size;
			PM_VEC_VALUES(&b[k].cols[6], int32_t)[i] = (int32_t) x;
		}
	}
	/* a stripe per batch (1024 rows: a write slice; stripe size 1 byte) */
	writer_fixture_write(PM_FORMAT_ORC, io, "/bl.orc", row, "zstd", 1, &oo, b, 4, NULL, a);
	assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, "/bl.orc", row, b, 4, "bl"), 4096);

	memset(v, 0, sizeof(v));
	pr.values = v;
	/* k = 4 * 123 + 2: stripe 2 only */
	pr.field = 1;
	pr.nvalues = 1;
	v[0].u.i64 = 4 * 123 + 2;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 1024);
	assert_int_equal(skipped, 3);
	assert_int_equal(first, 2048);
	/* absent: every stripe skipped */
	v[0].u.i64 = 4 * 123 + 2 + 1000000;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 0);
	assert_int_equal(skipped, 4);
	/* IN (absent, stripe 3, absent) */
	pr.nvalues = 3;
	v[0].u.i64 = -5;
	v[1].u.i64 = 4 * 77 + 3;
	v[2].u.i64 = 99999999;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 1024);
	assert_int_equal(first, 3072);
	/* strings */
	pr.field = 2;
	pr.nvalues = 1;
	v[0].u.bytes.ptr = (const uint8_t *) "s1001";
	v[0].u.bytes.len = 5;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 1024);
	assert_int_equal(first, 1024);
	v[0].u.bytes.ptr = (const uint8_t *) "s1001x";
	v[0].u.bytes.len = 6;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 0);
	/* decimals: 100.00 (x = 1000, stripe 0) hashes as "100" */
	pr.field = 3;
	v[0].u.i128 = 10000;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 1024);
	assert_int_equal(first, 0);
	v[0].u.i128 = 10001;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 0);
	/* doubles: 0.0 finds the -0.0 of stripe 2 */
	pr.field = 4;
	v[0].u.f64 = 0.0;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 1024);
	assert_int_equal(first, 2048);
	v[0].u.f64 = 9.5;			/* x = 9: stripe 1 */
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 1024);
	assert_int_equal(first, 1024);
	/* CHAR: padded in the file, never probed; nb: no bloom filter */
	pr.field = 5;
	v[0].u.bytes.ptr = (const uint8_t *) "zz";
	v[0].u.bytes.len = 2;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 4096);
	assert_int_equal(skipped, 0);
	pr.field = 6;
	v[0].u.i64 = -1;
	assert_int_equal(read_probed(io, "/bl.orc", row, &pr, 1, &skipped, &first), 4096);
	/* two probes: each must find its value */
	{
		pm_equal_probe two[2] = {{.field = 1, .nvalues = 1, .values = &v[0]},
		{.field = 2, .nvalues = 1, .values = &v[1]}};

		v[0].u.i64 = 4 * 5 + 1;
		v[1].u.bytes.ptr = (const uint8_t *) "s22";
		v[1].u.bytes.len = 3;
		assert_int_equal(read_probed(io, "/bl.orc", row, two, 2, &skipped, &first), 0);
		v[1].u.bytes.ptr = (const uint8_t *) "s21";
		assert_int_equal(read_probed(io, "/bl.orc", row, two, 2, &skipped, &first), 1024);
		assert_int_equal(first, 1024);
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* Group filter of test_row_groups: the groups whose id range meets [lo, hi]. */
typedef struct id_window
{
	int64_t		lo;
	int64_t		hi;
	int			asked;
} id_window;

static bool
id_window_meets(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	id_window  *w = ctx;

	(void) nranges;
	(void) nrows;
	w->asked++;
	if (!ranges[0].known || !ranges[0].has_min_max)
		return true;
	return ranges[0].max.u.i64 >= w->lo && ranges[0].min.u.i64 <= w->hi;
}

/* Read with a group filter (w) or a row selection; rows and ids checked. */
static int64_t
read_groups(pm_fileio *io, const char *path, const pm_type *row, id_window *w,
			const pm_row_selection *sel, int64_t *total, int64_t *skipped)
{
	pm_format_read_options opt;
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	int64_t		n = 0;

	memset(&opt, 0, sizeof(opt));
	opt.schema = row;
	opt.batch_size = 300;
	opt.page_filter = w != NULL ? id_window_meets : NULL;
	opt.part_filter_ctx = w;
	opt.row_selection = sel;
	opt.orc_groups_total = total;
	opt.orc_groups_skipped = skipped;
	*total = *skipped = 0;
	if (pm_orc_reader_open(pm_env_default(), io, path, &opt, &r, &err) != PM_OK)
		fail_msg("open: %s", err.message);
	for (;;)
	{
		if (pm_format_reader_next(r, &b, &err) != PM_OK)
			fail_msg("read: %s", err.message);
		if (b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			int64_t		id = b->first_row + i;
			const pm_vector *vb = &b->cols[1];
			const pm_vector *vs = &b->cols[2];
			const pm_vector *vt = &b->cols[3];

			/* every column at the row its position says */
			assert_int_equal(PM_VEC_VALUES(&b->cols[0], int32_t)[i], id);
			if (id % 7 == 0)
				assert_true(vb->nulls != NULL && vb->nulls[i]);
			else
			{
				assert_true(vb->nulls == NULL || !vb->nulls[i]);
				assert_int_equal(PM_VEC_VALUES(vb, uint8_t)[i], id % 3 == 0);
			}
			if (id % 5 == 0)
				assert_true(vs->nulls != NULL && vs->nulls[i]);
			else
			{
				char		t[32];
				int			len = snprintf(t, sizeof(t), "v%lld", (long long) (id * 7919 % 100000));

				assert_int_equal(vs->offsets[i + 1] - vs->offsets[i], len);
				assert_memory_equal(vs->data + vs->offsets[i], t, (size_t) len);
			}
			assert_int_equal(PM_VEC_VALUES(vt, int64_t)[i], (id / 3) * 1000003);
		}
		n += b->nrows;
	}
	pm_format_reader_close(r);
	return n;
}

/*
 * Row groups skipped by the row index: one stripe of 10500 rows in groups
 * of 1000 (a boolean and a direct string with NULLs: PRESENT streams, bits
 * into a byte), with zstd (positions in compression chunks) and none; the
 * groups that meet an id window are read, every column sought to them; a
 * row selection skips the groups it holds no row of.
 */
static void
test_row_groups(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row = writer_fixture_parse_type(a, "ROW<id INT, b BOOLEAN, s STRING, t BIGINT>");
	pm_orc_write_options oo = {.dictionary_threshold = 0.8, .row_index_stride = 1000};
	const char *comps[2] = {"zstd", "none"};
	int64_t		n = 10500;
	pm_batch	b;
	int64_t		cap = 0,
				total,
				skipped;

	(void) state;
	memset(&b, 0, sizeof(b));
	b.nrows = n;
	b.ncols = row->nfields;
	b.cols = pm_arena_zalloc(a, sizeof(pm_vector) * (size_t) row->nfields);
	for (int c = 0; c < row->nfields; c++)
	{
		assert_true(pm_vector_init(&b.cols[c], row->fields[c].type, n, true, a));
		b.cols[c].length = n;
	}
	b.cols[1].nulls = pm_arena_zalloc(a, (size_t) n);
	b.cols[2].nulls = pm_arena_zalloc(a, (size_t) n);
	for (int64_t i = 0; i < n; i++)
	{
		char		t[32];
		int			len = snprintf(t, sizeof(t), "v%lld", (long long) (i * 7919 % 100000));

		PM_VEC_VALUES(&b.cols[0], int32_t)[i] = (int32_t) i;
		b.cols[1].nulls[i] = i % 7 == 0;
		PM_VEC_VALUES(&b.cols[1], uint8_t)[i] = i % 3 == 0;
		b.cols[2].nulls[i] = i % 5 == 0;
		if (i % 5 != 0)
			assert_true(pm_vector_append_data(&b.cols[2], &cap, t, len, a));
		b.cols[2].offsets[i + 1] = (int32_t) b.cols[2].data_size;
		PM_VEC_VALUES(&b.cols[3], int64_t)[i] = (i / 3) * 1000003;
	}
	for (int k = 0; k < 2; k++)
	{
		char		path[32];
		id_window	w;
		int64_t		ss[2] = {2500, 10499},
					se[2] = {2501, 10500};
		pm_row_selection sel = {2, ss, se};

		snprintf(path, sizeof(path), "/rg_%s.orc", comps[k]);
		writer_fixture_write(PM_FORMAT_ORC, io, path, row, comps[k], 0, &oo, &b, 1, NULL, a);
		assert_int_equal(writer_fixture_read_back(PM_FORMAT_ORC, io, path, row, &b, 1, "rg"), n);
		/* inside group 4 */
		w = (id_window) {4100, 4200, 0};
		assert_int_equal(read_groups(io, path, row, &w, NULL, &total, &skipped), 1000);
		assert_int_equal(w.asked, 11);
		assert_int_equal(total, 11);
		assert_int_equal(skipped, 10);
		/* groups 6..8, then the partial last group */
		w = (id_window) {6990, 8010, 0};
		assert_int_equal(read_groups(io, path, row, &w, NULL, &total, &skipped), 3000);
		assert_int_equal(skipped, 8);
		w = (id_window) {10400, 20000, 0};
		assert_int_equal(read_groups(io, path, row, &w, NULL, &total, &skipped), 500);
		/* group 0 only; none (the stripe's statistics do not skip it: no part filter) */
		w = (id_window) {0, 10, 0};
		assert_int_equal(read_groups(io, path, row, &w, NULL, &total, &skipped), 1000);
		w = (id_window) {-10, -1, 0};
		assert_int_equal(read_groups(io, path, row, &w, NULL, &total, &skipped), 0);
		assert_int_equal(skipped, 11);
		/* the row selection: groups 2 and 10 */
		assert_int_equal(read_groups(io, path, row, NULL, &sel, &total, &skipped), 1500);
		assert_int_equal(skipped, 9);
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

static bool
count_stripe(void *ctx, const pm_field_range *ranges, int nranges, int64_t nrows)
{
	(void) ranges;
	(void) nranges;
	(void) nrows;
	(*(int64_t *) ctx)++;
	return true;
}

/*
 * Stripes holding no row of the row selection are skipped before their
 * statistics are asked, and counted; the stripes of the selected rows come
 * back at their positions (a stripe of one row group here: read whole).
 */
static void
test_selection_skips_stripes(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *row;
	pm_batch	batches[10];
	pm_error	err;
	int64_t		ss[2] = {2500, 9999},
				se[2] = {2501, 10000};
	pm_row_selection sel = {2, ss, se};
	int64_t		all_s[1] = {0},
				all_e[1] = {10000};
	pm_row_selection all = {1, all_s, all_e};
	int64_t		nstripes = 0;

	(void) state;
	pm_error_clear(&err);
	assert_int_equal(pm_data_type_parse("ROW<id BIGINT NOT NULL>", a, &row, &err), PM_OK);
	for (int k = 0; k < 10; k++)
	{
		memset(&batches[k], 0, sizeof(batches[k]));
		batches[k].nrows = 1000;
		batches[k].ncols = 1;
		batches[k].cols = pm_arena_zalloc(a, sizeof(pm_vector));
		assert_true(pm_vector_init(&batches[k].cols[0], row->fields[0].type, 1000, false, a));
		batches[k].cols[0].length = 1000;
		for (int i = 0; i < 1000; i++)
			PM_VEC_VALUES(&batches[k].cols[0], int64_t)[i] = k * 1000 + i;
	}
	/* a stripe per batch written */
	writer_fixture_write(PM_FORMAT_ORC, io, "/stripes.orc", row, "zstd", 1, NULL, batches, 10,
						 NULL, a);
	for (int pass = 0; pass < 2; pass++)
	{
		pm_format_read_options opt;
		pm_format_reader *r;
		pm_batch   *b;
		int64_t		asked = 0,
					unselected = 0,
					n = 0;

		memset(&opt, 0, sizeof(opt));
		opt.schema = row;
		opt.batch_size = 300;
		opt.part_filter = count_stripe;
		opt.part_filter_ctx = &asked;
		opt.row_selection = pass == 0 ? &all : &sel;
		opt.parts_unselected = &unselected;
		if (pm_orc_reader_open(pm_env_default(), io, "/stripes.orc", &opt, &r, &err) != PM_OK)
			fail_msg("open: %s", err.message);
		for (;;)
		{
			if (pm_format_reader_next(r, &b, &err) != PM_OK)
				fail_msg("read: %s", err.message);
			if (b == NULL)
				break;
			for (int64_t i = 0; i < b->nrows; i++)
			{
				int64_t		id = PM_VEC_VALUES(&b->cols[0], int64_t)[i];

				assert_int_equal(id, b->first_row + i);
				/* the stripes (here: row groups) of the selected rows, whole */
				assert_true(pass == 0 || id / 1000 == 2 || id / 1000 == 9);
				n++;
			}
		}
		pm_format_reader_close(r);
		if (pass == 0)
		{
			nstripes = asked;
			assert_true(nstripes > 3);
			assert_int_equal(unselected, 0);
			assert_int_equal(n, 10000);
		}
		else
		{
			assert_int_equal(asked, 2);
			assert_int_equal(unselected, nstripes - 2);
			assert_int_equal(n, 2000);
		}
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

/* A file of ROW<id INT NOT NULL, m MAP<INT, INT>, s MAP<STRING, STRING>, l ARRAY<INT>>. */
static void
write_count_maps(pm_fileio *io, const char *path, const pm_type *row, const int32_t *keys,
				 const int32_t *counts, const uint8_t *count_nulls, pm_arena *a)
{
	pm_batch	b;
	pm_vector	v[4];
	int64_t		dcap = 0;

	/* row 0: m {keys[0]: counts[0], ... 3 entries}, row 1: NULL, row 2: {} */
	for (int c = 0; c < 4; c++)
		assert_true(pm_vector_init(&v[c], row->fields[c].type, 3, c > 0, a));
	for (int i = 0; i < 3; i++)
		PM_VEC_VALUES(&v[0], int32_t)[i] = i;
	assert_true(pm_vector_init(&v[1].children[0], row->fields[1].type->element, 3, false, a));
	assert_true(pm_vector_init(&v[1].children[1], row->fields[1].type->value, 3, true, a));
	for (int k = 0; k < 3; k++)
	{
		PM_VEC_VALUES(&v[1].children[0], int32_t)[k] = keys[k];
		PM_VEC_VALUES(&v[1].children[1], int32_t)[k] = counts[k];
		v[1].children[1].nulls[k] = count_nulls[k];
	}
	v[1].children[0].length = v[1].children[1].length = 3;
	v[1].offsets[1] = v[1].offsets[2] = v[1].offsets[3] = 3;
	v[1].nulls[1] = 1;
	/* s {"k": "v"} in row 0; l [1] in row 0 */
	assert_true(pm_vector_init(&v[2].children[0], row->fields[2].type->element, 1, false, a));
	assert_true(pm_vector_init(&v[2].children[1], row->fields[2].type->value, 1, false, a));
	assert_true(pm_vector_append_data(&v[2].children[0], &dcap, "k", 1, a));
	v[2].children[0].offsets[1] = 1;
	dcap = 0;
	assert_true(pm_vector_append_data(&v[2].children[1], &dcap, "v", 1, a));
	v[2].children[1].offsets[1] = 1;
	v[2].children[0].length = v[2].children[1].length = 1;
	v[2].offsets[1] = v[2].offsets[2] = v[2].offsets[3] = 1;
	assert_true(pm_vector_init(&v[3].children[0], row->fields[3].type->element, 1, false, a));
	PM_VEC_VALUES(&v[3].children[0], int32_t)[0] = 1;
	v[3].children[0].length = 1;
	v[3].offsets[1] = v[3].offsets[2] = v[3].offsets[3] = 1;
	for (int c = 0; c < 4; c++)
		v[c].length = 3;
	b.nrows = 3;
	b.first_row = 0;
	b.ncols = 4;
	b.cols = v;
	writer_fixture_write(PM_FORMAT_ORC, io, path, row, "zstd", 0, NULL, &b, 1, NULL, a);
}

/*
 * MULTISET<T> read from the file's map<T, int> (how Java writes it,
 * OrcFileFormat.refineDataType): each key as often as its value says (0:
 * left out); a NULL or negative count is corrupt; a map of other values,
 * or a list, is not a MULTISET.
 */
static void
test_multiset_counts(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const pm_type *file_row = writer_fixture_parse_type(a, "ROW<id INT NOT NULL, m MAP<INT, INT>, "
														"s MAP<STRING, STRING>, l ARRAY<INT>>");
	const pm_type *ms = writer_fixture_parse_type(a, "ROW<id INT NOT NULL, m MULTISET<INT>>");
	static const int32_t keys[3] = {5, 6, 7};
	static const int32_t ok[3] = {2, 0, 1};
	static const int32_t negative[3] = {2, -1, 1};
	static const uint8_t no_nulls[3] = {0, 0, 0};
	static const uint8_t a_null[3] = {0, 0, 1};
	static const char *not_multiset[] = {"ROW<s MULTISET<STRING>>", "ROW<l MULTISET<INT>>"};
	pm_format_read_options ro = {.schema = ms, .batch_size = 0};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	const pm_vector *m;

	(void) state;
	write_count_maps(io, "/ms/ok.orc", file_row, keys, ok, no_nulls, a);
	write_count_maps(io, "/ms/negative.orc", file_row, keys, negative, no_nulls, a);
	write_count_maps(io, "/ms/null.orc", file_row, keys, ok, a_null, a);

	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, "/ms/ok.orc", &ro, &r, &err), PM_OK);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_OK);
	assert_non_null(b);
	assert_int_equal(b->nrows, 3);
	m = &b->cols[1];
	assert_true(pm_vector_valid(m, 3));
	assert_int_equal(m->nchildren, 1);
	assert_int_equal(m->offsets[1] - m->offsets[0], 3);
	assert_int_equal(PM_VEC_VALUES(&m->children[0], int32_t)[m->offsets[0]], 5);
	assert_int_equal(PM_VEC_VALUES(&m->children[0], int32_t)[m->offsets[0] + 1], 5);
	assert_int_equal(PM_VEC_VALUES(&m->children[0], int32_t)[m->offsets[0] + 2], 7);
	assert_true(pm_vector_is_null(m, 1));
	assert_false(pm_vector_is_null(m, 2));
	assert_int_equal(m->offsets[3], m->offsets[2]);
	pm_format_reader_close(r);

	pm_error_clear(&err);
	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, "/ms/negative.orc", &ro, &r, &err),
					 PM_OK);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "negative count"));
	assert_non_null(strstr(err.path, "negative.orc"));
	pm_format_reader_close(r);
	assert_int_equal(pm_orc_reader_open(pm_env_default(), io, "/ms/null.orc", &ro, &r, &err),
					 PM_OK);
	assert_int_equal(pm_format_reader_next(r, &b, &err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "NULL count"));
	pm_format_reader_close(r);

	for (size_t k = 0; k < sizeof(not_multiset) / sizeof(not_multiset[0]); k++)
	{
		ro.schema = writer_fixture_parse_type(a, not_multiset[k]);
		assert_int_equal(pm_orc_reader_open(pm_env_default(), io, "/ms/ok.orc", &ro, &r, &err),
						 PM_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.message, "cannot be read as"));
	}
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rle_v2),
		cmocka_unit_test(test_row_groups),
		cmocka_unit_test(test_selection_skips_stripes),
		cmocka_unit_test(test_rle_v1_and_bytes),
		cmocka_unit_test(test_varint128),
		cmocka_unit_test(test_tz),
		cmocka_unit_test(test_data_external_path),
		cmocka_unit_test(test_data_pk_total_buckets),
		cmocka_unit_test(test_data_mixed),
		cmocka_unit_test(test_data_nullable_map_key),
		cmocka_unit_test(test_data_alter_dense),
		cmocka_unit_test(test_manifest_values),
		cmocka_unit_test(test_all_orc_manifests),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_proto_bad_fields),
		cmocka_unit_test(test_synthetic_types),
		cmocka_unit_test(test_synthetic_ltz),
		cmocka_unit_test(test_synthetic_batches),
		cmocka_unit_test(test_dictionary_and_bloom_streams),
		cmocka_unit_test(test_bloom_filter_skipping),
		cmocka_unit_test(test_multiset_counts),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
