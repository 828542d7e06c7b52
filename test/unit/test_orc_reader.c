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
	pm_format_read_options opt = {schema, 2, NULL};	/* tiny batches: several per file */
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
	pm_format_read_options opt = {NULL, 0, NULL};
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
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_format_read_options opt = {manifest_type(), 0, NULL};
	pm_format_reader *r;
	pm_batch   *b;
	pm_error	err;
	const pm_vector *file;
	int32_t		len;
	const uint8_t *p;

	(void) state;
	unit_require_corpus();
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
	/* _CREATION_TIME: wall clock of the writer (Asia/Shanghai) */
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
	pm_format_read_options opt = {is_list ? manifest_list_type() : manifest_type(), 3, NULL};
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
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	walk_stats	ws = {0};
	char		root[1024];

	(void) state;
	unit_require_corpus();
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
	assert_false(pm_tz_same_rules(sh, ny));
	assert_false(pm_tz_same_rules(sh, gmt));
}

/* ---------------------------------------------------------------------
 * Corruption: every truncation and many byte flips of a real file give an
 * error (never a crash); a truncated tail is PM_ERR_CORRUPT.
 * ---------------------------------------------------------------------
 */
static pm_code
read_all_mem(pm_fileio *io, const char *path, const pm_type *schema, pm_error *err)
{
	pm_format_read_options opt = {schema, 0, NULL};
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

static void
test_corrupt(void **state)
{
	const char *rel = "tables/parquet/append_09.db/append_09/manifest/"
		"manifest-97ddb443-4cd9-42e9-9871-4d51d4fa1b49-0";
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	uint8_t    *buf,
			   *mut;
	long		len;
	FILE	   *f;
	pm_error	err;
	const pm_type *schema = manifest_type();
	int			corrupt = 0;

	(void) state;
	unit_require_corpus();
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
		corrupt += rc == PM_ERR_CORRUPT;
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rle_v2),
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
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
