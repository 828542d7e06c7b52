/*-------------------------------------------------------------------------
 * test_parquet_reader.c
 *	  Unit tests of src/format/parquet/: real files written by Java Paimon
 *	  (corpus) decoded and compared with the expected rows, projection,
 *	  absent columns, small batches, type errors, corrupt files.
 *
 * Values are turned into JSON in the encoding of corpus/expected/README.md
 * and compared with the expected rows as multisets.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/type.h"
#include "common/vector.h"
#include "format/parquet/parquet_reader.h"
#include "format/parquet/parquet_schema.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"

/* ------------------------------------------------------------ types */

static pm_arena *targ;

static const pm_type *
T(pm_type_id id)
{
	return pm_type_new(targ, id, true);
}

static const pm_type *
TS(pm_type_id id, int p)
{
	pm_type    *t = pm_type_new(targ, id, true);

	t->precision = p;
	return t;
}

static const pm_type *
DEC(int p, int s)
{
	return pm_type_new_decimal(targ, p, s, true);
}

static const pm_type *
ROW(int n, const char **names, const pm_type **types)
{
	pm_field	f[32];

	for (int i = 0; i < n; i++)
	{
		memset(&f[i], 0, sizeof(f[i]));
		f[i].id = i;
		f[i].name = names[i];
		f[i].type = types[i];
	}
	return pm_type_new_row(targ, f, n, true);
}

/* ------------------------------------------------------- vector -> json */

static void
civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d)
{
	int64_t		era;
	unsigned	doe,
				yoe,
				doy,
				mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned) (z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int) (yoe + era * 400 + (*m <= 2));
}

static json_t *
real_json(double x, bool is_float)
{
	char		buf[64];

	for (int p = 1; p <= 17; p++)
	{
		snprintf(buf, sizeof(buf), "%.*g", p, x);
		if (is_float ? (float) strtod(buf, NULL) == (float) x : strtod(buf, NULL) == x)
			break;
	}
	if (strpbrk(buf, ".eEn") == NULL)
		return json_integer(strtoll(buf, NULL, 10));
	return json_real(strtod(buf, NULL));
}

static json_t *
value_json(const pm_vector *v, int64_t i)
{
	const pm_type *t = v->type;
	char		buf[128];

	if (pm_vector_is_null(v, i))
		return json_null();
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return json_boolean(PM_VEC_VALUES(v, uint8_t)[i]);
		case PM_TYPE_TINYINT:
			return json_integer(PM_VEC_VALUES(v, int8_t)[i]);
		case PM_TYPE_SMALLINT:
			return json_integer(PM_VEC_VALUES(v, int16_t)[i]);
		case PM_TYPE_INT:
			return json_integer(PM_VEC_VALUES(v, int32_t)[i]);
		case PM_TYPE_BIGINT:
			return json_integer(PM_VEC_VALUES(v, int64_t)[i]);
		case PM_TYPE_FLOAT:
			return real_json(PM_VEC_VALUES(v, float)[i], true);
		case PM_TYPE_DOUBLE:
			return real_json(PM_VEC_VALUES(v, double)[i], false);
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				return json_stringn((const char *) p, (size_t) len);
			}
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);
				char	   *hex = malloc((size_t) len * 2 + 1);
				json_t	   *j;

				for (int32_t k = 0; k < len; k++)
					sprintf(hex + 2 * k, "%02x", p[k]);
				hex[2 * len] = 0;
				j = json_string(hex);
				free(hex);
				return j;
			}
		case PM_TYPE_DATE:
			{
				int			y;
				unsigned	m,
							d;

				civil_from_days(PM_VEC_VALUES(v, int32_t)[i], &y, &m, &d);
				snprintf(buf, sizeof(buf), "%04d-%02u-%02u", y, m, d);
				return json_string(buf);
			}
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = PM_VEC_VALUES(v, pm_int128)[i];
				unsigned __int128 u = x < 0 ? -(unsigned __int128) x : (unsigned __int128) x;
				char		digits[64];
				int			n = 0;
				char	   *o = buf;

				do
				{
					digits[n++] = (char) ('0' + (int) (u % 10));
					u /= 10;
				} while (u != 0 || n <= t->scale);
				if (x < 0)
					*o++ = '-';
				for (int k = n - 1; k >= 0; k--)
				{
					*o++ = digits[k];
					if (k == t->scale && k > 0)
						*o++ = '.';
				}
				*o = 0;
				return json_string(buf);
			}
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		us = PM_VEC_VALUES(v, int64_t)[i];
				int64_t		ns_extra = v->nanos ? v->nanos[i] : 0;
				int64_t		days = us >= 0 ? us / 86400000000LL : -((-us + 86399999999LL) / 86400000000LL);
				int64_t		rem = us - days * 86400000000LL;
				int64_t		frac_ns = (rem % 1000000) * 1000 + ns_extra;
				int			y;
				unsigned	m,
							d;
				char		frac[16];
				int			n;

				civil_from_days(days, &y, &m, &d);
				n = snprintf(buf, sizeof(buf), "%04d-%02u-%02uT%02d:%02d:%02d", y, m, d,
							 (int) (rem / 3600000000LL), (int) (rem / 60000000 % 60),
							 (int) (rem / 1000000 % 60));
				snprintf(frac, sizeof(frac), "%09lld", (long long) frac_ns);
				if (t->precision > 0)
					n += snprintf(buf + n, sizeof(buf) - (size_t) n, ".%.*s", t->precision, frac);
				if (t->id == PM_TYPE_TIMESTAMP_LTZ)
					snprintf(buf + n, sizeof(buf) - (size_t) n, "Z");
				return json_string(buf);
			}
		case PM_TYPE_ROW:
			{
				json_t	   *o = json_object();

				for (int k = 0; k < t->nfields; k++)
					json_object_set_new(o, t->fields[k].name, value_json(&v->children[k], i));
				return o;
			}
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			{
				json_t	   *a = json_array();

				for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
					json_array_append_new(a, value_json(&v->children[0], k));
				return a;
			}
		case PM_TYPE_MAP:
			{
				json_t	   *a = json_array();

				for (int32_t k = v->offsets[i]; k < v->offsets[i + 1]; k++)
					json_array_append_new(a, json_pack("[oo]", value_json(&v->children[0], k),
													   value_json(&v->children[1], k)));
				return a;
			}
		default:
			return json_string("?");
	}
}

/* --------------------------------------------------------------- reading */

typedef struct rowset
{
	int			n;
	int			cap;
	char	  **rows;
} rowset;

static void
rowset_add(rowset *rs, char *s)
{
	if (rs->n == rs->cap)
	{
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->rows = realloc(rs->rows, sizeof(char *) * (size_t) rs->cap);
	}
	rs->rows[rs->n++] = s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static void
rowset_free(rowset *rs)
{
	for (int i = 0; i < rs->n; i++)
		free(rs->rows[i]);
	free(rs->rows);
	memset(rs, 0, sizeof(*rs));
}

static char *
dump(json_t *j)
{
	char	   *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);

	json_decref(j);
	return s;
}

/* Read one parquet file into rs; returns the code; checks batch invariants. */
static pm_code
read_file(const char *path, const pm_type *schema, int batch_size, rowset *rs, pm_error *err)
{
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_format_read_options opt = {.schema = schema, .batch_size = batch_size};
	pm_format_reader *r;
	pm_batch   *b;
	pm_code		rc;
	int64_t		expect_first = 0;

	pm_error_clear(err);
	rc = pm_parquet_reader_open(pm_env_default(), io, path, &opt, &r, err);
	if (rc != PM_OK)
	{
		pm_local_fileio_destroy(io);
		return rc;
	}
	while ((rc = pm_format_reader_next(r, &b, err)) == PM_OK && b != NULL)
	{
		assert_int_equal(b->first_row, expect_first);
		assert_int_equal(b->ncols, schema->nfields);
		if (batch_size > 0)
			assert_true(b->nrows <= batch_size);
		expect_first += b->nrows;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			json_t	   *row = json_array();

			for (int c = 0; c < b->ncols; c++)
			{
				assert_int_equal(b->cols[c].length, b->nrows);
				json_array_append_new(row, value_json(&b->cols[c], i));
			}
			rowset_add(rs, dump(row));
		}
	}
	if (rc == PM_OK)
		assert_int_equal(expect_first, pm_format_reader_row_count(r));
	pm_format_reader_close(r);
	pm_local_fileio_destroy(io);
	return rc;
}

/* Whether name contains one of the '|'-separated parts of skip. */
static bool
skipped(const char *name, const char *skip)
{
	char		buf[512];
	char	   *save = NULL;

	if (skip == NULL)
		return false;
	snprintf(buf, sizeof(buf), "%s", skip);
	for (char *tok = strtok_r(buf, "|", &save); tok != NULL; tok = strtok_r(NULL, "|", &save))
		if (strstr(name, tok) != NULL)
			return true;
	return false;
}

/* All data-*.parquet files under dir (recursively), but the skipped ones. */
static void
find_parquet(const char *dir, const char *skip, char ***paths, int *n)
{
	DIR		   *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
	{
		char		p[4096];
		size_t		l = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (strncmp(e->d_name, "data-", 5) == 0 && l > 8 && strcmp(e->d_name + l - 8, ".parquet") == 0)
		{
			if (skipped(e->d_name, skip))
				continue;
			*paths = realloc(*paths, sizeof(char *) * (size_t) (*n + 1));
			(*paths)[(*n)++] = strdup(p);
		}
		else if (e->d_type == DT_DIR)
			find_parquet(p, skip, paths, n);
	}
	closedir(d);
}

static void
expected_rows(const char *case_name, rowset *rs)
{
	char		rel[512];
	json_error_t jerr;
	json_t	   *doc;
	json_t	   *rows;
	size_t		i;
	json_t	   *row;

	snprintf(rel, sizeof(rel), "expected/%s.json", case_name);
	doc = json_load_file(unit_corpus_path(rel), 0, &jerr);
	assert_non_null(doc);
	rows = json_object_get(doc, "rows");
	json_array_foreach(rows, i, row)
		rowset_add(rs, json_dumps(row, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY));
	json_decref(doc);
}

static void
assert_same_rows(rowset *got, rowset *want)
{
	qsort(got->rows, (size_t) got->n, sizeof(char *), cmp_str);
	qsort(want->rows, (size_t) want->n, sizeof(char *), cmp_str);
	if (got->n != want->n)
		print_message("got %d rows, want %d\n", got->n, want->n);
	for (int i = 0; i < got->n && i < want->n; i++)
		if (strcmp(got->rows[i], want->rows[i]) != 0)
			print_message("row %d differs:\n got  %s\n want %s\n", i, got->rows[i], want->rows[i]);
	for (int i = 0; i < got->n && i < want->n; i++)
		assert_string_equal(got->rows[i], want->rows[i]);
	assert_int_equal(got->n, want->n);
}

/* Read every data file of a table and compare with an expected case. */
static void
check_table(const char *table_rel, const char *skip, const pm_type *schema,
			const char *case_name, int batch_size)
{
	char	  **paths = NULL;
	int			n = 0;
	rowset		got = {0};
	rowset		want = {0};

	find_parquet(unit_corpus_path(table_rel), skip, &paths, &n);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
	{
		pm_error	err;
		pm_code		rc = read_file(paths[i], schema, batch_size, &got, &err);

		if (rc != PM_OK)
			print_message("%s: %s\n", paths[i], err.message);
		assert_int_equal(rc, PM_OK);
		free(paths[i]);
	}
	free(paths);
	expected_rows(case_name, &want);
	assert_same_rows(&got, &want);
	rowset_free(&got);
	rowset_free(&want);
}

/* ----------------------------------------------------------------- tests */

static const pm_type *
append_table_schema(void)
{
	const char *rn[] = {"f0", "f1"};
	const pm_type *rt[] = {T(PM_TYPE_BOOLEAN), T(PM_TYPE_BIGINT)};
	const pm_type *map = pm_type_new_map(targ, pm_type_new_array(targ, T(PM_TYPE_FLOAT), true),
										 ROW(2, rn, rt), true);
	const char *names[] = {"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10",
	"f11", "f12", "f13"};
	const pm_type *types[] = {
		T(PM_TYPE_BOOLEAN), T(PM_TYPE_TINYINT), T(PM_TYPE_SMALLINT), T(PM_TYPE_INT),
		T(PM_TYPE_BIGINT), T(PM_TYPE_FLOAT), T(PM_TYPE_DOUBLE), T(PM_TYPE_VARCHAR),
		T(PM_TYPE_VARBINARY), map, TS(PM_TYPE_TIMESTAMP, 9), T(PM_TYPE_DATE), DEC(2, 2)
	};

	return ROW(13, names, types);
}

static void
test_append_table(void **state)
{
	unit_require_corpus();
	check_table("tables/parquet/parquet_append_table.db/parquet_append_table", NULL,
				append_table_schema(), "parquet_append_table_latest", 0);
}

/* Same with batches of 2 rows: batches cross pages and nested values. */
static void
test_append_table_small_batches(void **state)
{
	unit_require_corpus();
	check_table("tables/parquet/parquet_append_table.db/parquet_append_table", NULL,
				append_table_schema(), "parquet_append_table_latest", 2);
}

static const pm_type *
fieldid_schema(void)
{
	const char *rn[] = {"f0", "f1"};
	const pm_type *rt[] = {T(PM_TYPE_BOOLEAN), T(PM_TYPE_BIGINT)};
	const char *names[] = {"f1", "f2", "f3", "f4", "f5", "f6"};
	const pm_type *types[] = {
		pm_type_new_map(targ, T(PM_TYPE_TINYINT), T(PM_TYPE_SMALLINT), true),
		pm_type_new_array(targ, T(PM_TYPE_FLOAT), true),
		ROW(2, rn, rt), TS(PM_TYPE_TIMESTAMP, 9), T(PM_TYPE_DATE), DEC(2, 2)
	};

	return ROW(6, names, types);
}

static void
test_complex_fieldid(void **state)
{
	unit_require_corpus();
	check_table("tables/parquet/append_complex_build_in_fieldid.db/append_complex_build_in_fieldid", NULL,
				fieldid_schema(), "parquet_complex_fieldid_latest", 1);
}

static void
test_timestamps(void **state)
{
	const char *names[] = {"ts_sec", "ts_milli", "ts_micro", "ts_nano", "ts_tz_sec",
	"ts_tz_milli", "ts_tz_micro", "ts_tz_nano"};
	const pm_type *types[] = {
		TS(PM_TYPE_TIMESTAMP, 0), TS(PM_TYPE_TIMESTAMP, 3), TS(PM_TYPE_TIMESTAMP, 6),
		TS(PM_TYPE_TIMESTAMP, 9), TS(PM_TYPE_TIMESTAMP_LTZ, 0), TS(PM_TYPE_TIMESTAMP_LTZ, 3),
		TS(PM_TYPE_TIMESTAMP_LTZ, 6), TS(PM_TYPE_TIMESTAMP_LTZ, 9)
	};

	unit_require_corpus();
	check_table("tables/parquet/append_with_multiple_ts_precision_and_timezone.db/"
				"append_with_multiple_ts_precision_and_timezone", NULL,
				ROW(8, names, types), "parquet_timestamps_latest", 0);
}

static void
test_complex_data(void **state)
{
	const char *names[] = {"f1", "f2", "f3", "f4", "f5", "f6"};
	const pm_type *types[] = {
		T(PM_TYPE_INT), T(PM_TYPE_INT), T(PM_TYPE_DATE), TS(PM_TYPE_TIMESTAMP, 9),
		DEC(23, 5), T(PM_TYPE_VARBINARY)
	};

	unit_require_corpus();
	/* the files of data-35f2719c were compacted into data-f8754699 */
	check_table("tables/parquet/append_complex_data.db/append_complex_data", "35f2719c",
				ROW(6, names, types), "parquet_complex_data_latest", 0);
}

/* Paimon 0.9 files: no field ids, matched by name only. */
static void
test_append_09(void **state)
{
	const char *names[] = {"f0", "f1", "f2", "f3"};
	const pm_type *types[] = {T(PM_TYPE_VARCHAR), T(PM_TYPE_INT), T(PM_TYPE_INT), T(PM_TYPE_DOUBLE)};

	unit_require_corpus();
	/* c07464e4 is the compaction of the four skipped files */
	check_table("tables/parquet/append_09.db/append_09", "7a912f84|864a052b|bb891df7|c0401350",
				ROW(4, names, types),
				"parquet_append_09_latest", 0);
}

#define FIELDID_FILE "tables/parquet/append_complex_build_in_fieldid.db/append_complex_build_in_fieldid/" \
	"bucket-0/data-3570e113-9ede-4c86-bf5d-040085424886-0.parquet"

/* Projection: a nested sub-field, a reordered subset and an absent column. */
static void
test_projection_and_absent(void **state)
{
	const char *rn[] = {"f1", "nope"};
	const pm_type *rt[] = {T(PM_TYPE_BIGINT), T(PM_TYPE_INT)};
	const char *names[] = {"f5", "f3", "missing"};
	const pm_type *types[] = {T(PM_TYPE_DATE), ROW(2, rn, rt), T(PM_TYPE_VARCHAR)};
	rowset		got = {0};
	rowset		want = {0};
	pm_error	err;

	unit_require_corpus();
	assert_int_equal(read_file(unit_corpus_path(FIELDID_FILE), ROW(3, names, types), 0,
							   &got, &err), PM_OK);
	rowset_add(&want, strdup("[\"1976-09-22\",{\"f1\":2,\"nope\":null},null]"));
	rowset_add(&want, strdup("[\"1970-01-25\",{\"f1\":2,\"nope\":null},null]"));
	rowset_add(&want, strdup("[\"1970-09-03\",{\"f1\":2222,\"nope\":null},null]"));
	assert_same_rows(&got, &want);
	rowset_free(&got);
	rowset_free(&want);
}

/* A ROW none of whose requested fields exist still gets its nulls right. */
static void
test_row_of_absent_fields(void **state)
{
	const char *rn[] = {"zz"};
	const pm_type *rt[] = {T(PM_TYPE_INT)};
	const char *names[] = {"f3"};
	const pm_type *types[] = {ROW(1, rn, rt)};
	rowset		got = {0};
	pm_error	err;

	unit_require_corpus();
	assert_int_equal(read_file(unit_corpus_path(FIELDID_FILE), ROW(1, names, types), 0,
							   &got, &err), PM_OK);
	assert_int_equal(got.n, 3);
	for (int i = 0; i < got.n; i++)
		assert_string_equal(got.rows[i], "[{\"zz\":null}]");
	rowset_free(&got);
}

static void
test_type_mismatch(void **state)
{
	const char *names[] = {"f5"};
	const pm_type *types[] = {T(PM_TYPE_VARCHAR)};
	rowset		got = {0};
	pm_error	err;

	unit_require_corpus();
	assert_int_equal(read_file(unit_corpus_path(FIELDID_FILE), ROW(1, names, types), 0,
							   &got, &err), PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "\"f5\""));
	assert_non_null(strstr(err.path, ".parquet"));
	rowset_free(&got);
}

static uint8_t *load(const char *path, size_t *len);

/*
 * Every data file of the corpus, read with the type its own footer stands
 * for, with two batch sizes: no error, all rows, same rows both times.
 */
static void
test_all_corpus_files(void **state)
{
	char	  **paths = NULL;
	int			n = 0;
	int64_t		total = 0;

	unit_require_corpus();
	find_parquet(unit_corpus_path("tables"), NULL, &paths, &n);
	assert_true(n > 100);
	for (int i = 0; i < n; i++)
	{
		size_t		len;
		uint8_t    *bytes = load(paths[i], &len);
		pm_arena   *a = pm_arena_create(pm_env_default());
		pm_pq_metadata md;
		const pm_type *t;
		pm_error	err;
		rowset		r1 = {0};
		rowset		r2 = {0};
		pm_code		rc;

		pm_error_clear(&err);
		assert_int_equal(pm_pq_metadata_from_file_bytes(bytes, len, a, &md, &err), PM_OK);
		assert_int_equal(pm_pq_schema_to_type(&md, a, &t, &err), PM_OK);
		rc = read_file(paths[i], t, 0, &r1, &err);
		if (rc != PM_OK)
			print_message("%s: %s\n", paths[i], err.message);
		assert_int_equal(rc, PM_OK);
		assert_int_equal(read_file(paths[i], t, 3, &r2, &err), PM_OK);
		assert_int_equal(r1.n, md.num_rows);
		assert_int_equal(r2.n, r1.n);
		for (int k = 0; k < r1.n; k++)
			assert_string_equal(r1.rows[k], r2.rows[k]);
		total += r1.n;
		rowset_free(&r1);
		rowset_free(&r2);
		pm_arena_destroy(a);
		free(bytes);
		free(paths[i]);
	}
	free(paths);
	assert_true(total > 0);
}

/* --------------------------------------------------------- corrupt files */

static uint8_t *
load(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8_t    *buf;
	long		n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t) n);
	assert_int_equal(fread(buf, 1, (size_t) n, f), (size_t) n);
	fclose(f);
	*len = (size_t) n;
	return buf;
}

/* Open + read everything from memory; returns the first failing code. */
static pm_code
read_mem(const uint8_t *data, size_t len, pm_error *err)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_format_read_options opt = {.schema = fieldid_schema(), .batch_size = 0};
	pm_format_reader *r;
	pm_batch   *b;
	pm_code		rc;

	pm_error_clear(err);
	assert_int_equal(pm_memory_fileio_add(io, "/m/f.parquet", data, len, err), PM_OK);
	rc = pm_parquet_reader_open(pm_env_default(), io, "/m/f.parquet", &opt, &r, err);
	if (rc == PM_OK)
	{
		while ((rc = pm_format_reader_next(r, &b, err)) == PM_OK && b != NULL)
			;
		pm_format_reader_close(r);
	}
	assert_int_equal(pm_memory_fileio_open_files(io), 0);
	pm_memory_fileio_destroy(io);
	return rc;
}

static void
test_corrupt(void **state)
{
	size_t		len;
	uint8_t    *orig;
	uint8_t    *buf;
	pm_error	err;
	uint32_t	flen;

	unit_require_corpus();
	orig = load(unit_corpus_path(FIELDID_FILE), &len);
	buf = malloc(len);
	assert_int_equal(read_mem(orig, len, &err), PM_OK);

	/* bad magic at the end */
	memcpy(buf, orig, len);
	buf[len - 1] = 'X';
	assert_int_equal(read_mem(buf, len, &err), PM_ERR_CORRUPT);
	assert_string_equal(err.path, "/m/f.parquet");
	/* bad magic at the start */
	memcpy(buf, orig, len);
	buf[0] = 'X';
	assert_int_equal(read_mem(buf, len, &err), PM_ERR_CORRUPT);
	/* truncated: footer length points before the start */
	assert_int_equal(read_mem(orig + len - 200, 200, &err), PM_ERR_CORRUPT);
	/* tiny files */
	assert_int_equal(read_mem(orig, 0, &err), PM_ERR_CORRUPT);
	assert_int_equal(read_mem((const uint8_t *) "PAR1PAR1", 8, &err), PM_ERR_CORRUPT);
	/* huge footer length */
	memcpy(buf, orig, len);
	buf[len - 5] = 0x7f;
	assert_int_equal(read_mem(buf, len, &err), PM_ERR_CORRUPT);
	/* footer cut short: shift its claimed length */
	memcpy(&flen, orig + len - 8, 4);
	memcpy(buf, orig, len);
	flen -= 10;
	memcpy(buf + len - 8, &flen, 4);
	assert_int_equal(read_mem(buf, len, &err), PM_ERR_CORRUPT);
	/* every single byte of the file flipped: never a crash, never a hang */
	for (size_t i = 0; i < len; i++)
	{
		memcpy(buf, orig, len);
		buf[i] ^= 0xff;
		(void) read_mem(buf, len, &err);
	}
	/* garbage in the data pages (not the footer): corrupt, not a crash */
	memcpy(buf, orig, len);
	memset(buf + 4, 0xff, 64);
	assert_int_not_equal(read_mem(buf, len, &err), PM_OK);
	free(buf);
	free(orig);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_table),
		cmocka_unit_test(test_append_table_small_batches),
		cmocka_unit_test(test_complex_fieldid),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_complex_data),
		cmocka_unit_test(test_append_09),
		cmocka_unit_test(test_projection_and_absent),
		cmocka_unit_test(test_row_of_absent_fields),
		cmocka_unit_test(test_type_mismatch),
		cmocka_unit_test(test_all_corpus_files),
		cmocka_unit_test(test_corrupt),
	};
	int			rc;

	targ = pm_arena_create(pm_env_default());
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pm_arena_destroy(targ);
	return rc;
}
