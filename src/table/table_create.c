/*-------------------------------------------------------------------------
 * table_create.c
 *	  pm_table_create (table_write.h): schema/schema-0 as Java 1.4.2's
 *	  SchemaManager.createTable writes it.
 *
 * Java facts (release-1.4.2):
 *	- Schema (paimon-api schema/Schema.java): the options "primary-key" and
 *	  "partition" become the key lists (and leave the options; both ways at
 *	  once is an error); duplicate or unknown columns in them are errors;
 *	  primary-key columns become NOT NULL.
 *	- Field ids (Schema.Builder.column + ReassignFieldId): each top-level
 *	  column takes the next id, then the fields of its nested ROW types in
 *	  order, each after the fields nested in its own type (Java evaluates
 *	  RowType.Builder.field(name, type.accept(visitor)) argument first);
 *	  highestFieldId is the last id given. The ids passed in are ignored.
 *	- SchemaValidation.validateTableSchema: the subset that decides what
 *	  files look like (bucket / bucket-key rules, primitive key columns,
 *	  merge-engine values, changelog-producer needs a primary key,
 *	  fields.<f>.* naming columns), then the option checks of
 *	  schema_validation.c.
 *	- SchemaManager.createTable: "Schema in filesystem exists, creation is
 *	  not allowed." when any schema file exists; the file is published
 *	  with a write that fails if it exists (commit -> tryToWriteAtomic).
 *-------------------------------------------------------------------------
 */
#include "table/table_write.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/tz.h"
#include "table/schema_validation.h"
#include "table/write_options.h"

static pm_code
nomem(pm_error *err)
{
	return pm_fail(err, PM_ERR_NOMEM, "out of memory");
}

/* A copy of t whose nested ROW fields get ids *next, *next + 1, ... */
static pm_type *
reassign(const pm_type *t, pm_arena *arena, int32_t *next)
{
	pm_type    *c = pm_arena_alloc(arena, sizeof(pm_type));

	if (c == NULL)
		return NULL;
	*c = *t;
	switch (t->id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			if ((c->element = reassign(t->element, arena, next)) == NULL)
				return NULL;
			break;
		case PM_TYPE_MAP:
			if ((c->element = reassign(t->element, arena, next)) == NULL ||
				(c->value = reassign(t->value, arena, next)) == NULL)
				return NULL;
			break;
		case PM_TYPE_ROW:
			{
				pm_field   *f = pm_arena_alloc(arena, sizeof(pm_field) * (size_t) (t->nfields + 1));

				if (f == NULL)
					return NULL;
				for (int i = 0; i < t->nfields; i++)
				{
					/* RowType.Builder.field(name, type.accept(this)): the type first */
					f[i] = t->fields[i];
					if ((f[i].type = reassign(t->fields[i].type, arena, next)) == NULL)
						return NULL;
					f[i].id = ++(*next);
				}
				c->fields = f;
				break;
			}
		default:
			break;
	}
	return c;
}

/* "a, b,,c" -> trimmed non-empty names (Java: split(","), trim, drop empty). */
static pm_code
split_names(const char *text, pm_arena *arena, const char ***out, int *n, pm_error *err)
{
	int			cap = 1;
	const char **names;
	const char *p = text;

	for (const char *q = text; *q; q++)
		cap += *q == ',';
	names = pm_arena_alloc(arena, sizeof(char *) * (size_t) cap);
	if (names == NULL)
		return nomem(err);
	*n = 0;
	while (p != NULL)
	{
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);

		while (p < end && (unsigned char) *p <= ' ')
			p++;
		while (end > p && (unsigned char) end[-1] <= ' ')
			end--;
		if (end > p && (names[*n] = pm_arena_strndup(arena, p, (size_t) (end - p))) == NULL)
			return nomem(err);
		if (end > p)
			(*n)++;
		p = comma ? comma + 1 : NULL;
	}
	*out = names;
	return PM_OK;
}

static pm_code
check_keys(const pm_type *row, const char **keys, int n, const char *what, pm_error *err)
{
	for (int i = 0; i < n; i++)
	{
		int			idx = pm_type_field_index(row, keys[i]);

		for (int j = 0; j < i; j++)
			if (strcmp(keys[i], keys[j]) == 0)
				return pm_fail(err, PM_ERR_INVALID,
							   "%s constraint must not contain duplicate columns. Found: [%s]",
							   what, keys[i]);
		if (idx < 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "Table column should include all %s fields: \"%s\" is not a column",
						   what, keys[i]);
		if (pm_type_is_nested(row->fields[idx].type->id))
			return pm_fail(err, PM_ERR_INVALID,
						   "The type %s in %s field %s is unsupported",
						   pm_type_id_name(row->fields[idx].type->id), what, keys[i]);
	}
	return PM_OK;
}

static pm_code
validate(const pm_schema *s, pm_error *err)
{
	const char *v;
	int64_t		bucket = -1;

	for (int i = 0; i < s->row_type->nfields; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(s->row_type->fields[i].name, s->row_type->fields[j].name) == 0)
				return pm_fail(err, PM_ERR_INVALID,
							   "Table column must not contain duplicate fields. Found: [%s]",
							   s->row_type->fields[i].name);
	PM_TRY(check_keys(s->row_type, s->partition_keys, s->npartition_keys, "partition", err));
	PM_TRY(check_keys(s->row_type, s->primary_keys, s->nprimary_keys, "primary key", err));
	if (s->nprimary_keys > 0 && s->npartition_keys > 0 &&
		s->nprimary_keys <= s->npartition_keys)
	{
		/* trimmed primary key empty: every key is a partition key */
		bool		all = true;

		for (int i = 0; i < s->nprimary_keys && all; i++)
		{
			bool		found = false;

			for (int k = 0; k < s->npartition_keys; k++)
				found |= strcmp(s->primary_keys[i], s->partition_keys[k]) == 0;
			all = found;
		}
		if (all)
			return pm_fail(err, PM_ERR_INVALID,
						   "Primary key constraint should not be same with partition fields, this will result in only one record in a partition");
	}

	PM_TRY(pm_check_cross_partition_sequence(s, err));

	if ((v = pm_schema_option(s, "bucket")) != NULL)
	{
		char	   *end;

		bucket = strtoll(v, &end, 10);
		if (end == v || *end != '\0')
			return pm_fail(err, PM_ERR_INVALID, "bucket \"%s\" is not an integer", v);
	}
	v = pm_schema_option(s, "bucket-key");
	if (bucket == -1)
	{
		if (v != NULL)
			return pm_fail(err, PM_ERR_INVALID,
						   "Cannot define 'bucket-key' with bucket = -1, please remove the 'bucket-key' setting or specify a bucket number.");
		if (s->nprimary_keys == 0 && pm_schema_option(s, "full-compaction.delta-commits") != NULL)
			return pm_fail(err, PM_ERR_INVALID,
						   "AppendOnlyTable of unaware or dynamic bucket does not support 'full-compaction.delta-commits'");
	}
	else if (bucket < 1 && !(bucket == -2 && s->nprimary_keys > 0))
		return pm_fail(err, PM_ERR_INVALID, "The number of buckets needs to be greater than 0.");
	else if (s->nprimary_keys == 0 && (v == NULL || *v == '\0'))
		return pm_fail(err, PM_ERR_INVALID, "You should define a 'bucket-key' for bucketed append mode.");
	if (v != NULL)
	{
		/* TableSchema.bucketKeys: must not hold partition keys; PK tables: within the PK */
		const char *p = v;

		while (p != NULL)
		{
			const char *comma = strchr(p, ',');
			size_t		len = comma ? (size_t) (comma - p) : strlen(p);
			char		name[256];
			int			idx;

			if (len >= sizeof(name))
				return pm_fail(err, PM_ERR_INVALID, "bucket-key name too long");
			memcpy(name, p, len);
			name[len] = '\0';
			idx = pm_type_field_index(s->row_type, name);
			if (idx < 0)
				return pm_fail(err, PM_ERR_INVALID,
							   "Field names %s should contains all bucket keys [%s].", "of the table", name);
			if (pm_type_is_nested(s->row_type->fields[idx].type->id))
				return pm_fail(err, PM_ERR_INVALID,
							   "nested type can not in bucket-key, in your table these key are [%s]", name);
			for (int k = 0; k < s->npartition_keys; k++)
				if (strcmp(s->partition_keys[k], name) == 0)
					return pm_fail(err, PM_ERR_INVALID,
								   "Bucket keys [%s] should not be in partition keys.", name);
			if (s->nprimary_keys > 0)
			{
				bool		in_pk = false;

				for (int k = 0; k < s->nprimary_keys; k++)
					in_pk |= strcmp(s->primary_keys[k], name) == 0;
				if (!in_pk)
					return pm_fail(err, PM_ERR_INVALID,
								   "Primary keys should contain all bucket keys: [%s] is not a primary key.", name);
			}
			p = comma ? comma + 1 : NULL;
		}
	}

	if ((v = pm_schema_option(s, "merge-engine")) != NULL &&
		strcasecmp(v, "deduplicate") != 0 && strcasecmp(v, "partial-update") != 0 &&
		strcasecmp(v, "aggregation") != 0 && strcasecmp(v, "first-row") != 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "Could not parse value '%s' for key 'merge-engine' (deduplicate, partial-update, aggregation, first-row)", v);
	if ((v = pm_schema_option(s, "changelog-producer")) != NULL && strcasecmp(v, "none") != 0 &&
		s->nprimary_keys == 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "Can not set changelog-producer on table without primary keys, please define primary keys.");
	for (int i = 0; i < s->noptions; i++)
	{
		const char *k = s->option_keys[i];

		/* validateFieldsPrefix: fields.<f1,f2>.x must name columns (or default-aggregate-function) */
		if (strncmp(k, "fields.", 7) == 0)
		{
			const char *start = k + 7;
			const char *dot = strchr(start, '.');
			const char *p = start;

			if (dot == NULL)
				dot = start + strlen(start);
			while (p < dot)
			{
				const char *comma = memchr(p, ',', (size_t) (dot - p));
				const char *end = comma ? comma : dot;
				char		name[256];

				if ((size_t) (end - p) >= sizeof(name))
					return pm_fail(err, PM_ERR_INVALID, "option %s: field name too long", k);
				memcpy(name, p, (size_t) (end - p));
				name[end - p] = '\0';
				if (strcmp(name, "default-aggregate-function") != 0 &&
					pm_type_field_index(s->row_type, name) < 0)
					return pm_fail(err, PM_ERR_INVALID, "Field %s can not be found in table schema.",
								   name);
				p = comma ? comma + 1 : dot;
			}
		}
	}
	return pm_schema_validate_options(s, err);
}

/* The schema Java's createTable would store for `in` (normalized, ids assigned). */
static pm_code
normalize(const pm_schema *in, pm_arena *arena, pm_schema **out, pm_error *err)
{
	pm_schema  *s = pm_arena_zalloc(arena, sizeof(*s));
	const pm_type *row = in->row_type;
	pm_field   *fields;
	int32_t		next = -1;
	const char **keys,
			  **vals;
	int			nopt = 0;
	const char *pk_opt = NULL,
			   *part_opt = NULL;

	if (s == NULL || row == NULL || row->id != PM_TYPE_ROW)
		return s == NULL ? nomem(err) : pm_fail(err, PM_ERR_INVALID, "a table needs a ROW type");
	*s = *in;
	s->id = 0;
	s->version = 3;
	keys = pm_arena_alloc(arena, sizeof(char *) * (size_t) (in->noptions + 1));
	vals = pm_arena_alloc(arena, sizeof(char *) * (size_t) (in->noptions + 1));
	if (keys == NULL || vals == NULL)
		return nomem(err);
	for (int i = 0; i < in->noptions; i++)
	{
		if (strcmp(in->option_keys[i], "primary-key") == 0)
			pk_opt = in->option_values[i];
		else if (strcmp(in->option_keys[i], "partition") == 0)
			part_opt = in->option_values[i];
		else
		{
			keys[nopt] = in->option_keys[i];
			vals[nopt++] = in->option_values[i];
		}
	}
	s->noptions = nopt;
	s->option_keys = keys;
	s->option_values = vals;
	if (pk_opt != NULL)
	{
		if (in->nprimary_keys > 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "Cannot define primary key on DDL and table options at the same time.");
		PM_TRY(split_names(pk_opt, arena, &s->primary_keys, &s->nprimary_keys, err));
	}
	if (part_opt != NULL)
	{
		if (in->npartition_keys > 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "Cannot define partition on DDL and table options at the same time.");
		PM_TRY(split_names(part_opt, arena, &s->partition_keys, &s->npartition_keys, err));
	}

	fields = pm_arena_alloc(arena, sizeof(pm_field) * (size_t) (row->nfields + 1));
	if (fields == NULL)
		return nomem(err);
	for (int i = 0; i < row->nfields; i++)
	{
		pm_type    *t;
		bool		is_pk = false;

		fields[i] = row->fields[i];
		fields[i].id = ++next;
		if ((t = reassign(row->fields[i].type, arena, &next)) == NULL)
			return nomem(err);
		for (int k = 0; k < s->nprimary_keys; k++)
			is_pk |= strcmp(s->primary_keys[k], fields[i].name) == 0;
		if (is_pk)
			t->nullable = false;
		fields[i].type = t;
	}
	s->row_type = pm_type_new_row(arena, fields, row->nfields, false);
	if (s->row_type == NULL)
		return nomem(err);
	s->highest_field_id = next;
	s->time_millis = pm_epoch_millis_now();
	*out = s;
	return PM_OK;
}

pm_code
pm_table_create(const pm_env *env, pm_fileio *io, const char *table_path,
				const pm_schema *schema, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_schema  *s;
	pm_schema  *existing;
	char	   *json;
	size_t		len;
	char	   *dir;
	char	   *path;
	pm_code		rc;

	if (arena == NULL)
		return nomem(err);
	if (io->write_new == NULL || io->mkdirs == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	}
	rc = normalize(schema, arena, &s, err);
	if (rc == PM_OK)
		rc = validate(s, err);
	if (rc == PM_OK)
	{
		rc = pm_schema_load_latest(io, table_path, arena, &existing, err);
		if (rc == PM_OK)
			rc = pm_fail(err, PM_ERR_CONFLICT,
						 "Schema in filesystem exists, creation is not allowed. (%s)", table_path);
		else if (rc == PM_ERR_NOT_FOUND)
		{
			pm_error_clear(err);
			rc = PM_OK;
		}
	}
	if (rc == PM_OK)
		rc = pm_schema_to_json(s, arena, &json, &len, err);
	if (rc == PM_OK)
	{
		dir = pm_arena_sprintf(arena, "%s/schema", table_path);
		path = pm_arena_sprintf(arena, "%s/schema/schema-0", table_path);
		if (dir == NULL || path == NULL)
			rc = nomem(err);
		else if ((rc = io->mkdirs(io, dir, err)) == PM_OK)
		{
			rc = io->write_new(io, path, json, len, err);
			if (rc == PM_ERR_CONFLICT)
				rc = pm_fail(err, PM_ERR_CONFLICT,
							 "Schema in filesystem exists, creation is not allowed. (%s)", table_path);
		}
	}
	pm_arena_destroy(arena);
	return rc;
}
