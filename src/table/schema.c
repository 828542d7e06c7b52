/*-------------------------------------------------------------------------
 * schema.c
 *	  Load and parse schema/schema-N files (JSON, via jansson).
 *
 * Applies the defaults of old schema versions (§3.2): version missing = 1;
 * version <= 1 without "bucket" => bucket=1; version <= 2 without
 * "file.format" => file.format=orc. Everything is copied into the caller's
 * arena; jansson's own allocations are freed before returning.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §3;
 * apache/paimon SchemaSerializer.java, TableSchema.java.
 *-------------------------------------------------------------------------
 */
#include "table/schema.h"

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/json_out.h"
#include "common/meta_cache.h"
#include "row/data_type.h"
#include "table/table_int.h"

#define MAX_SCHEMA_FILE_SIZE (64 * 1024 * 1024)

const char *
pm_schema_option(const pm_schema *schema, const char *key)
{
	/* asked per lookup, mostly for absent keys: the first byte rejects most */
	for (int i = 0; i < schema->noptions; i++)
		if (schema->option_keys[i][0] == key[0] && strcmp(schema->option_keys[i], key) == 0)
			return schema->option_values[i];
	return NULL;
}

bool
pm_schema_bool_option(const pm_schema *schema, const char *key, bool dflt)
{
	const char *v = pm_schema_option(schema, key);

	return v == NULL ? dflt : strcasecmp(v, "true") == 0;
}

bool
pm_schema_option_is(const pm_schema *schema, const char *key, const char *dflt,
					const char *value)
{
	const char *v = pm_schema_option(schema, key);

	if (v == NULL)
		v = dflt;
	return v != NULL && strcasecmp(v, value) == 0;
}

pm_code
pm_schema_int_option(const pm_schema *schema, const char *key, int dflt, int *out, pm_error *err)
{
	const char *v = pm_schema_option(schema, key);
	char	   *end;
	long long	n;

	*out = dflt;
	if (v == NULL)
		return PM_OK;
	n = strtoll(v, &end, 10);
	while (isspace((unsigned char) *end))
		end++;
	if (end == v || *end != '\0' || n < INT_MIN || n > INT_MAX)
		return pm_fail(err, PM_ERR_INVALID, "Could not parse value '%s' for key '%s'.", v, key);
	*out = (int) n;
	return PM_OK;
}

pm_code
pm_schema_field_list(const pm_schema *schema, const char *list, size_t listlen, bool trim,
					 pm_arena *arena, const char ***names, int **idx, int *n, pm_error *err)
{
	int			count = 1;
	size_t		start = 0;

	for (size_t i = 0; i < listlen; i++)
		count += list[i] == ',';
	*names = pm_arena_alloc(arena, sizeof(char *) * (size_t) count);
	*idx = pm_arena_alloc(arena, sizeof(int) * (size_t) count);
	if (*names == NULL || *idx == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory splitting a field list");
	*n = 0;
	for (size_t i = 0; i <= listlen; i++)
	{
		const char *b = list + start;
		size_t		len = i - start;
		char	   *name;

		if (i < listlen && list[i] != ',')
			continue;
		start = i + 1;
		while (trim && len > 0 && (unsigned char) *b <= ' ')
			b++, len--;
		while (trim && len > 0 && (unsigned char) b[len - 1] <= ' ')
			len--;
		if ((name = pm_arena_alloc(arena, len + 1)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory splitting a field list");
		memcpy(name, b, len);
		name[len] = '\0';
		(*names)[*n] = name;
		(*idx)[(*n)++] = pm_type_field_index(schema->row_type, name);
	}
	/* split drops trailing empty strings (before trim), unless nothing matched */
	if (count > 1)
		while (*n > 0 && (listlen == 0 || list[listlen - 1] == ','))
		{
			(*n)--;
			if (listlen > 0)
				listlen--;
		}
	return PM_OK;
}

static pm_code
string_array(const json_t *arr, pm_arena *arena, const char ***out, int *n, pm_error *err)
{
	size_t		count;

	*out = NULL;
	*n = 0;
	if (arr == NULL || json_is_null(arr))
		return PM_OK;
	if (!json_is_array(arr))
		return pm_fail(err, PM_ERR_CORRUPT, "schema key list is not an array");
	count = json_array_size(arr);
	*out = pm_arena_zalloc(arena, sizeof(char *) * (count + 1));
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < count; i++)
	{
		const json_t *s = json_array_get(arr, i);

		if (!json_is_string(s))
			return pm_fail(err, PM_ERR_CORRUPT, "schema key list holds a non-string");
		(*out)[i] = pm_arena_strdup(arena, json_string_value(s));
		if ((*out)[i] == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	*n = (int) count;
	return PM_OK;
}

static pm_code
parse_options(const json_t *obj, int version, pm_arena *arena, pm_schema *s, pm_error *err)
{
	size_t		count = 0;
	const char *key;
	json_t	   *value;
	int			i = 0;
	bool		has_bucket = false,
				has_format = false;

	if (obj != NULL && !json_is_null(obj))
	{
		if (!json_is_object(obj))
			return pm_fail(err, PM_ERR_CORRUPT, "schema options are not an object");
		count = json_object_size(obj);
	}
	s->option_keys = pm_arena_zalloc(arena, sizeof(char *) * (count + 2));
	s->option_values = pm_arena_zalloc(arena, sizeof(char *) * (count + 2));
	if (s->option_keys == NULL || s->option_values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (count > 0)
	{
		json_object_foreach((json_t *) obj, key, value)
		{
			const char *v;

			if (json_is_string(value))
				v = pm_arena_strdup(arena, json_string_value(value));
			else if (json_is_integer(value))
				v = pm_arena_sprintf(arena, "%lld", (long long) json_integer_value(value));
			else if (json_is_boolean(value))
				v = json_is_true(value) ? "true" : "false";
			else
				return pm_fail(err, PM_ERR_CORRUPT, "schema option \"%.100s\" is not a string", key);
			s->option_keys[i] = pm_arena_strdup(arena, key);
			s->option_values[i] = v;
			if (s->option_keys[i] == NULL || v == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			if (strcmp(key, "bucket") == 0)
				has_bucket = true;
			if (strcmp(key, "file.format") == 0)
				has_format = true;
			i++;
		}
	}
	if (version <= 1 && !has_bucket)
	{
		s->option_keys[i] = "bucket";
		s->option_values[i++] = "1";
	}
	if (version <= 2 && !has_format)
	{
		s->option_keys[i] = "file.format";
		s->option_values[i++] = "orc";
	}
	s->noptions = i;
	return PM_OK;
}

static pm_code
parse_root(const json_t *root, pm_arena *arena, pm_schema *s, pm_error *err)
{
	const json_t *j;
	const json_t *fields;
	size_t		nfields;
	pm_field   *f;
	pm_type    *row;

	if (!json_is_object(root))
		return pm_fail(err, PM_ERR_CORRUPT, "schema is not a JSON object");
	j = json_object_get(root, "version");
	s->version = json_is_integer(j) ? (int) json_integer_value(j) : 1;
	j = json_object_get(root, "id");
	if (!json_is_integer(j))
		return pm_fail(err, PM_ERR_CORRUPT, "schema has no id");
	s->id = json_integer_value(j);
	fields = json_object_get(root, "fields");
	if (!json_is_array(fields))
		return pm_fail(err, PM_ERR_CORRUPT, "schema has no fields");
	nfields = json_array_size(fields);
	if (nfields > 100000)
		return pm_fail(err, PM_ERR_CORRUPT, "schema has too many fields");
	f = pm_arena_zalloc(arena, sizeof(pm_field) * (nfields + 1));
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < nfields; i++)
	{
		const json_t *dflt = json_object_get(json_array_get(fields, i), "defaultValue");

		PM_TRY(pm_data_field_from_json(json_array_get(fields, i), arena, &f[i], err));
		if (json_is_string(dflt))
		{
			if (s->default_values == NULL)
				s->default_values = pm_arena_zalloc(arena, sizeof(char *) * (nfields + 1));
			if (s->default_values == NULL ||
				(s->default_values[i] = pm_arena_strdup(arena, json_string_value(dflt))) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		for (size_t k = 0; k < i; k++)
			if (strcmp(f[k].name, f[i].name) == 0 || f[k].id == f[i].id)
				return pm_fail(err, PM_ERR_CORRUPT, "schema has duplicate field \"%.100s\"", f[i].name);
	}
	row = pm_type_new_row(arena, f, (int) nfields, false);
	if (row == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	s->row_type = row;
	PM_TRY(string_array(json_object_get(root, "partitionKeys"), arena,
						&s->partition_keys, &s->npartition_keys, err));
	PM_TRY(string_array(json_object_get(root, "primaryKeys"), arena,
						&s->primary_keys, &s->nprimary_keys, err));
	for (int i = 0; i < s->npartition_keys; i++)
		if (pm_type_field_index(row, s->partition_keys[i]) < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "partition key \"%.100s\" is not a field", s->partition_keys[i]);
	for (int i = 0; i < s->nprimary_keys; i++)
		if (pm_type_field_index(row, s->primary_keys[i]) < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "primary key \"%.100s\" is not a field", s->primary_keys[i]);
	PM_TRY(parse_options(json_object_get(root, "options"), s->version, arena, s, err));
	j = json_object_get(root, "highestFieldId");
	s->highest_field_id = json_is_integer(j) ? json_integer_value(j) :
		pm_data_type_max_field_id(row);
	j = json_object_get(root, "comment");
	s->comment = json_is_string(j) ? pm_arena_strdup(arena, json_string_value(j)) : NULL;
	j = json_object_get(root, "timeMillis");
	s->time_millis = json_is_integer(j) ? json_integer_value(j) : 0;
	return PM_OK;
}

pm_code
pm_schema_parse(const char *json, size_t len, pm_arena *arena, pm_schema **out,
				pm_error *err)
{
	json_error_t jerr;
	json_t	   *root;
	pm_schema  *s;
	pm_code		rc;

	*out = NULL;
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid schema JSON: %s", jerr.text);
	s = pm_arena_zalloc(arena, sizeof(pm_schema));
	if (s == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	else
		rc = parse_root(root, arena, s, err);
	json_decref(root);
	if (rc == PM_OK)
		*out = s;
	return rc;
}

/* ---- through the metadata cache ----------------------------------------- */

/*
 * schema-N may be written again under its name (a table dropped and created
 * again, a rollback): the cached parse is used only for the very bytes it
 * was parsed from, so the file is still read, its parsing saved.
 */
typedef struct cached_schema
{
	const uint8_t *raw;
	size_t		len;
	pm_schema  *schema;
} cached_schema;

static const char **
flatten_strings(pm_flat *f, const char *const *src, int n)
{
	const char **copy;

	if (src == NULL)
		return NULL;
	copy = pm_flat_take(f, sizeof(char *) * (size_t) (n > 0 ? n : 0));
	for (int i = 0; i < n; i++)
	{
		char	   *c = pm_flat_string(f, src[i]);

		if (copy != NULL)
			copy[i] = c;
	}
	return copy;
}

static const pm_type *
type_flatten(pm_flat *f, const pm_type *t)
{
	pm_type    *copy = pm_flat_take(f, sizeof(pm_type));
	const pm_type *element = t->element ? type_flatten(f, t->element) : NULL;
	const pm_type *value = t->value ? type_flatten(f, t->value) : NULL;
	pm_field   *fields = t->fields ? pm_flat_take(f, sizeof(pm_field) * (size_t) t->nfields) : NULL;

	for (int i = 0; t->fields != NULL && i < t->nfields; i++)
	{
		const char *name = pm_flat_string(f, t->fields[i].name);
		const char *description = pm_flat_string(f, t->fields[i].description);
		const pm_type *ftype = t->fields[i].type ? type_flatten(f, t->fields[i].type) : NULL;

		if (fields != NULL)
		{
			fields[i] = t->fields[i];
			fields[i].name = name;
			fields[i].description = description;
			fields[i].type = ftype;
		}
	}
	if (copy == NULL)
		return NULL;
	*copy = *t;
	copy->element = element;
	copy->value = value;
	copy->fields = fields;
	return copy;
}

static void *
schema_flatten(const void *src, pm_flat *f)
{
	const cached_schema *cs = src;
	const pm_schema *s = cs->schema;
	cached_schema *copy = pm_flat_take(f, sizeof(cached_schema));
	pm_schema  *sc = pm_flat_take(f, sizeof(pm_schema));
	const uint8_t *raw = pm_flat_bytes(f, cs->raw, cs->len);
	const pm_type *row = s->row_type ? type_flatten(f, s->row_type) : NULL;
	const char **defaults = flatten_strings(f, s->default_values,
											s->row_type ? s->row_type->nfields : 0);
	const char **pkeys = flatten_strings(f, s->partition_keys, s->npartition_keys);
	const char **prims = flatten_strings(f, s->primary_keys, s->nprimary_keys);
	const char **okeys = flatten_strings(f, s->option_keys, s->noptions);
	const char **ovalues = flatten_strings(f, s->option_values, s->noptions);
	const char *comment = pm_flat_string(f, s->comment);

	if (copy == NULL)
		return NULL;
	*sc = *s;
	sc->row_type = row;
	sc->default_values = defaults;
	sc->partition_keys = pkeys;
	sc->primary_keys = prims;
	sc->option_keys = okeys;
	sc->option_values = ovalues;
	sc->comment = comment;
	copy->raw = raw;
	copy->len = cs->len;
	copy->schema = sc;
	return copy;
}

pm_code
pm_schema_load(pm_fileio *io, const char *table_path, int64_t id, pm_arena *arena,
			   pm_schema **out, pm_error *err)
{
	char	   *path = pm_arena_sprintf(arena, "%s/schema/schema-%lld", table_path, (long long) id);
	uint8_t    *data;
	size_t		len;
	pm_code		rc;

	*out = NULL;
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_fileio_read_all(io, path, arena, MAX_SCHEMA_FILE_SIZE, &data, &len, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_NOT_FOUND, "schema %lld does not exist", (long long) id);
	}
	if (rc != PM_OK)
		return rc;
	{
		cached_schema *hit = pm_meta_cache_fetch(PM_META_SCHEMA, path, (int64_t) len, arena,
												 schema_flatten);

		if (hit != NULL && hit->len == len && memcmp(hit->raw, data, len) == 0)
		{
			*out = hit->schema;
			return PM_OK;
		}
	}
	rc = pm_schema_parse((const char *) data, len, arena, out, err);
	if (rc != PM_OK)
	{
		pm_error_set_path(err, path);
		return rc;
	}
	if ((*out)->id != id)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_CORRUPT, "schema file says id %lld", (long long) (*out)->id);
	}
	{
		cached_schema cs = {data, len, *out};

		pm_meta_cache_store(PM_META_SCHEMA, path, (int64_t) len, &cs, schema_flatten);
	}
	return PM_OK;
}

/* SchemaSerializer.serialize (release-1.4.2), field by field. */
pm_code
pm_schema_to_json(const pm_schema *schema, pm_arena *arena, char **json, size_t *len,
				  pm_error *err)
{
	pm_json_out *out = pm_arena_alloc(arena, sizeof(pm_json_out));
	const pm_type *row = schema->row_type;

	*json = NULL;
	*len = 0;
	if (out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (row == NULL || row->id != PM_TYPE_ROW)
		return pm_fail(err, PM_ERR_INVALID, "schema without a ROW type");
	pm_json_out_init(out, arena);
	pm_json_begin_object(out);
	pm_json_field_int(out, "version", schema->version);
	pm_json_field_int(out, "id", schema->id);
	pm_json_name(out, "fields");
	pm_json_begin_array(out);
	for (int i = 0; i < row->nfields; i++)
		pm_data_field_write_json(out, &row->fields[i],
								 schema->default_values ? schema->default_values[i] : NULL);
	pm_json_end_array(out);
	pm_json_field_int(out, "highestFieldId", schema->highest_field_id);
	pm_json_name(out, "partitionKeys");
	pm_json_begin_array(out);
	for (int i = 0; i < schema->npartition_keys; i++)
		pm_json_string(out, schema->partition_keys[i]);
	pm_json_end_array(out);
	pm_json_name(out, "primaryKeys");
	pm_json_begin_array(out);
	for (int i = 0; i < schema->nprimary_keys; i++)
		pm_json_string(out, schema->primary_keys[i]);
	pm_json_end_array(out);
	pm_json_name(out, "options");
	pm_json_begin_object(out);
	for (int i = 0; i < schema->noptions; i++)
		pm_json_field_string(out, schema->option_keys[i], schema->option_values[i]);
	pm_json_end_object(out);
	if (schema->comment != NULL)
		pm_json_field_string(out, "comment", schema->comment);
	pm_json_field_int(out, "timeMillis", schema->time_millis);
	pm_json_end_object(out);
	return pm_json_out_finish(out, json, len, err);
}

/* "<prefix><decimal long>" -> id; false if the suffix is not a decimal long */
bool
pm_versioned_name_id(const char *name, const char *prefix, int64_t *id)
{
	size_t		plen = strlen(prefix);
	const char *p;
	int64_t		v = 0;

	if (strncmp(name, prefix, plen) != 0 || name[plen] == '\0')
		return false;
	for (p = name + plen; *p; p++)
	{
		if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*p - '0');
	}
	*id = v;
	return true;
}

pm_code
pm_schema_load_latest(pm_fileio *io, const char *table_path, pm_arena *arena,
					  pm_schema **out, pm_error *err)
{
	char	   *dir = pm_arena_sprintf(arena, "%s/schema", table_path);
	char	  **names;
	int			n;
	int64_t		best = -1;
	pm_code		rc;

	*out = NULL;
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = io->list(io, dir, arena, &names, &n, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_set_path(err, table_path);
		return pm_fail(err, PM_ERR_NOT_FOUND, "not a Paimon table: no schema directory");
	}
	if (rc != PM_OK)
		return rc;
	for (int i = 0; i < n; i++)
	{
		int64_t		id;

		if (pm_versioned_name_id(names[i], "schema-", &id) && id > best)
			best = id;
	}
	if (best < 0)
	{
		pm_error_set_path(err, table_path);
		return pm_fail(err, PM_ERR_NOT_FOUND, "not a Paimon table: no schema file");
	}
	return pm_schema_load(io, table_path, best, arena, out, err);
}
