/*-------------------------------------------------------------------------
 * file_index_options.c
 *	  The file indexes a table's options ask for (file_index_options.h).
 *-------------------------------------------------------------------------
 */
#include "table/file_index_options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "index/java_hash_map.h"
#include "index/range_bitmap_index_write.h"
#include "table/write_options.h"

#define PREFIX "file-index."
#define COLUMNS_SUFFIX ".columns"

static bool
kind_of(const char *name, size_t len, pm_file_index_kind *kind)
{
	static const pm_file_index_kind kinds[] = {PM_FILE_INDEX_BLOOM_FILTER, PM_FILE_INDEX_BITMAP,
	PM_FILE_INDEX_RANGE_BITMAP, PM_FILE_INDEX_BSI};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
	{
		const char *k = pm_file_index_kind_name(kinds[i]);

		if (strlen(k) == len && memcmp(k, name, len) == 0)
		{
			*kind = kinds[i];
			return true;
		}
	}
	return false;
}

static pm_code
check_kind(const char *key, const char *name, size_t len, pm_file_index_kind *kind,
		   pm_error *err)
{
	if (kind_of(name, len, kind))
		return PM_OK;
	return pm_fail(err, PM_ERR_INVALID, "table option %s: there is no file index kind \"%.*s\"",
				   key, (int) len, name);
}

static char *
trim(pm_arena *arena, const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char) *s))
	{
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char) s[n - 1]))
		n--;
	return pm_arena_strndup(arena, s, n);
}

static pm_code
parse_int(const char *key, const char *text, int64_t lo, int64_t hi, int64_t *out,
		  pm_error *err)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(text, &end, 10);
	while (*end != '\0' && isspace((unsigned char) *end))
		end++;
	if (end == text || *end != '\0' || errno != 0 || v < lo || v > hi)
		return pm_fail(err, PM_ERR_INVALID, "table option %s = \"%s\": not an integer in [%lld, %lld]",
					   key, text, (long long) lo, (long long) hi);
	*out = v;
	return PM_OK;
}

static pm_code
parse_double(const char *key, const char *text, double *out, pm_error *err)
{
	char	   *end;

	errno = 0;
	*out = strtod(text, &end);
	while (*end != '\0' && isspace((unsigned char) *end))
		end++;
	if (end == text || *end != '\0' || errno != 0 || !isfinite(*out))
		return pm_fail(err, PM_ERR_INVALID, "table option %s = \"%s\": not a number", key, text);
	return PM_OK;
}

static pm_file_index_spec *
find_spec(pm_file_index_plan *plan, const char *column, pm_file_index_kind kind)
{
	for (int i = 0; i < plan->nspecs; i++)
		if (plan->specs[i].kind == kind && strcmp(plan->specs[i].column, column) == 0)
			return &plan->specs[i];
	return NULL;
}

/* One per-column option: file-index.<kind>.<column>.<option>. */
static pm_code
set_option(pm_file_index_plan *plan, const char *key, const char *value, pm_arena *arena,
		   pm_error *err)
{
	const char *rest = key + strlen(PREFIX);
	const char *d1 = strchr(rest, '.');
	const char *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
	pm_file_index_kind kind;
	pm_file_index_spec *spec;
	char	   *column;
	const char *opt;

	/* FileIndexOptions: key.split("\\.") must give exactly 3 parts, else ignored */
	if (d1 == NULL || d2 == NULL || strchr(d2 + 1, '.') != NULL || d1 == rest ||
		d2 == d1 + 1 || d2[1] == '\0')
		return PM_OK;
	if (!kind_of(rest, (size_t) (d1 - rest), &kind))
		return check_kind(key, rest, (size_t) (d1 - rest), &kind, err);
	column = pm_arena_strndup(arena, d1 + 1, (size_t) (d2 - d1 - 1));
	if (column == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	opt = d2 + 1;
	spec = find_spec(plan, column, kind);
	if (spec == NULL)
		return pm_fail(err, PM_ERR_INVALID,
					   "table option %s: column \"%s\" is not in file-index.%s.columns",
					   key, column, pm_file_index_kind_name(kind));
	switch (kind)
	{
		case PM_FILE_INDEX_BLOOM_FILTER:
			if (strcmp(opt, "items") == 0)
				return parse_int(key, value, 1, INT32_MAX, &spec->items, err);
			if (strcmp(opt, "fpp") == 0)
				return parse_double(key, value, &spec->fpp, err);
			break;
		case PM_FILE_INDEX_BITMAP:
			if (strcmp(opt, "version") == 0)
			{
				int64_t		v;

				PM_TRY(parse_int(key, value, 1, 2, &v, err));
				spec->bitmap_version = (int) v;
				return PM_OK;
			}
			if (strcmp(opt, "index-block-size") == 0)
				return pm_parse_memory_size(key, value, &spec->block_size, err);
			break;
		case PM_FILE_INDEX_RANGE_BITMAP:
			if (strcmp(opt, "chunk-size") == 0)
				return pm_parse_memory_size(key, value, &spec->chunk_size, err);
			break;
		case PM_FILE_INDEX_BSI:
			break;				/* no options */
	}
	return PM_OK;				/* Java keeps options no index reads */
}

pm_code
pm_file_index_plan_of_schema(const pm_schema *schema, pm_arena *arena, const pm_file_index_plan **out,
							 pm_error *err)
{
	const pm_env *env = pm_arena_env(arena);
	int			n = schema->noptions;
	int32_t    *hashes = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (n + 1));
	int32_t    *order = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (n + 1));
	pm_file_index_plan *plan = pm_arena_zalloc(arena, sizeof(*plan));
	int			cap = 0;
	const char *v;

	*out = NULL;
	if (hashes == NULL || order == NULL || plan == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	plan->row_type = schema->row_type;
	plan->in_manifest_threshold = 500;
	v = pm_schema_option(schema, "file-index.in-manifest-threshold");
	if (v != NULL)
		PM_TRY(pm_parse_memory_size("file-index.in-manifest-threshold", v,
									&plan->in_manifest_threshold, err));

	/* options in the order Java's HashMap of the table options gives them */
	for (int i = 0; i < n; i++)
		hashes[i] = pm_java_string_hash(schema->option_keys[i], strlen(schema->option_keys[i]));
	if (!pm_java_hash_map_order(env, hashes, n, false, order))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	/* 1. the columns options */
	for (int o = 0; o < n; o++)
	{
		const char *key = schema->option_keys[order[o]];
		const char *value = schema->option_values[order[o]];
		size_t		klen = strlen(key);
		const char *kind_name;
		size_t		kind_len;
		pm_file_index_kind kind;
		const char *p;

		if (strncmp(key, PREFIX, strlen(PREFIX)) != 0 || klen < strlen(PREFIX) + strlen(COLUMNS_SUFFIX) ||
			strcmp(key + klen - strlen(COLUMNS_SUFFIX), COLUMNS_SUFFIX) != 0)
			continue;
		kind_name = key + strlen(PREFIX);
		kind_len = klen - strlen(PREFIX) - strlen(COLUMNS_SUFFIX);
		PM_TRY(check_kind(key, kind_name, kind_len, &kind, err));
		p = value;
		for (;;)
		{
			const char *comma = strchr(p, ',');
			size_t		len = comma ? (size_t) (comma - p) : strlen(p);
			char	   *col = trim(arena, p, len);
			int			field = -1;
			const pm_type *t;
			pm_file_index_spec *s;

			if (col == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			if (col[0] == '\0')
				return pm_fail(err, PM_ERR_INVALID,
							   "table option %s = \"%s\": should not have empty column", key, value);
			if (strchr(col, '[') != NULL && col[strlen(col) - 1] == ']')
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "table option %s = \"%s\": file indexes on map keys (\"%s\") are not written",
							   key, value, col);
			for (int f = 0; f < schema->row_type->nfields; f++)
				if (strcmp(schema->row_type->fields[f].name, col) == 0)
					field = f;
			if (field < 0)
				return pm_fail(err, PM_ERR_INVALID,
							   "table option %s = \"%s\": %s does not exist in column fields",
							   key, value, col);
			t = schema->row_type->fields[field].type;
			/* RangeBitmapFileIndex's DecimalKeyFactory check, its message */
			if (kind == PM_FILE_INDEX_RANGE_BITMAP && t->id == PM_TYPE_DECIMAL && t->precision > 18)
				return pm_fail(err, PM_ERR_INVALID,
							   "table option %s = \"%s\": The range-bitmap index only supports DECIMAL with a precision in [0, 18].",
							   key, value);
			if (!pm_file_index_kind_supports(kind, t))
				return pm_fail(err, PM_ERR_INVALID,
							   "table option %s = \"%s\": the %s index does not support the type of column %s",
							   key, value, pm_file_index_kind_name(kind), col);
			if (find_spec(plan, col, kind) == NULL)
			{
				if (plan->nspecs == cap)
				{
					int			ncap = cap ? cap * 2 : 8;
					pm_file_index_spec *grown = pm_arena_realloc(arena, plan->specs,
																 sizeof(*grown) * (size_t) cap,
																 sizeof(*grown) * (size_t) ncap);

					if (grown == NULL)
						return pm_fail(err, PM_ERR_NOMEM, "out of memory");
					plan->specs = grown;
					cap = ncap;
				}
				s = &plan->specs[plan->nspecs++];
				memset(s, 0, sizeof(*s));
				s->field = field;
				s->column = col;
				s->kind = kind;
				s->items = 1000000;
				s->fpp = 0.1;
				s->bitmap_version = 2;
				s->block_size = 16 * 1024;
				s->chunk_size = pm_range_bitmap_default_chunk_size(t);
			}
			if (comma == NULL)
				break;
			p = comma + 1;
		}
	}
	if (plan->nspecs == 0)
		return PM_OK;

	/* 2. the per-column options */
	for (int o = 0; o < n; o++)
	{
		const char *key = schema->option_keys[order[o]];
		size_t		klen = strlen(key);

		if (strncmp(key, PREFIX, strlen(PREFIX)) != 0 ||
			(klen >= strlen(COLUMNS_SUFFIX) && strcmp(key + klen - strlen(COLUMNS_SUFFIX), COLUMNS_SUFFIX) == 0))
			continue;
		PM_TRY(set_option(plan, key, schema->option_values[order[o]], arena, err));
	}
	if (!pm_file_index_plan_order(env, plan, arena))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*out = plan;
	return PM_OK;
}
