/*-------------------------------------------------------------------------
 * table.c
 *	  Open a Paimon table at a snapshot: snapshot, schema, derived layout.
 *
 * The latest snapshot is read with the latest schema; a snapshot chosen by
 * id with that snapshot's schemaId (what Java does for scan.snapshot-id);
 * a version (what an earlier open found) with its snapshot and schema.
 * Schemas of data files written under older schema ids are loaded on
 * demand and cached in the table's arena (pm_table_schema_by_id).
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §2-3, §13.1.
 *-------------------------------------------------------------------------
 */
#include "table/table.h"

#include <string.h>

#include "table/table_int.h"
#include "table/table_options.h"

static pm_code
derive_layout(pm_table *t, pm_error *err)
{
	const pm_schema *s = t->schema;
	const pm_type *row = s->row_type;
	pm_field   *pfields;
	const char *v;

	t->npartition = s->npartition_keys;
	t->partition_fields = pm_arena_zalloc(t->arena, sizeof(int) * (s->npartition_keys + 1));
	pfields = pm_arena_zalloc(t->arena, sizeof(pm_field) * (s->npartition_keys + 1));
	t->trimmed_pk = pm_arena_zalloc(t->arena, sizeof(int) * (s->nprimary_keys + 1));
	if (t->partition_fields == NULL || pfields == NULL || t->trimmed_pk == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < s->npartition_keys; i++)
	{
		int			idx = pm_type_field_index(row, s->partition_keys[i]);

		if (idx < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "partition key \"%s\" is not a field", s->partition_keys[i]);
		t->partition_fields[i] = idx;
		pfields[i] = row->fields[idx];
	}
	t->partition_type = pm_type_new_row(t->arena, pfields, s->npartition_keys, false);
	if (t->partition_type == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	t->ntrimmed_pk = 0;
	for (int i = 0; i < s->nprimary_keys; i++)
	{
		bool		is_partition = false;
		int			idx;

		for (int k = 0; k < s->npartition_keys; k++)
			if (strcmp(s->partition_keys[k], s->primary_keys[i]) == 0)
				is_partition = true;
		if (is_partition)
			continue;
		idx = pm_type_field_index(row, s->primary_keys[i]);
		if (idx < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "primary key \"%s\" is not a field", s->primary_keys[i]);
		t->trimmed_pk[t->ntrimmed_pk++] = idx;
	}
	v = pm_schema_option(s, "partition.default-name");
	t->partition_default_name = v ? v : "__DEFAULT_PARTITION__";
	return PM_OK;
}

static pm_code
cache_schema(pm_table *t, const pm_schema *s, pm_error *err)
{
	if (t->nschemas == t->schemas_cap)
	{
		int			ncap = t->schemas_cap ? t->schemas_cap * 2 : 8;
		const pm_schema **grown = pm_arena_realloc(t->arena, t->schemas,
												   sizeof(*grown) * t->schemas_cap,
												   sizeof(*grown) * ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		t->schemas = grown;
		t->schemas_cap = ncap;
	}
	t->schemas[t->nschemas++] = s;
	return PM_OK;
}

pm_code
pm_table_schema_by_id(pm_table *table, int64_t schema_id, const pm_schema **out,
					  pm_error *err)
{
	pm_schema  *s;

	for (int i = 0; i < table->nschemas; i++)
		if (table->schemas[i]->id == schema_id)
		{
			*out = table->schemas[i];
			return PM_OK;
		}
	PM_TRY(pm_schema_load(table->io, table->path, schema_id, table->arena, &s, err));
	PM_TRY(cache_schema(table, s, err));
	*out = s;
	return PM_OK;
}

static pm_code
open_table(pm_table *t, const pm_table_open_options *options, pm_error *err)
{
	int64_t		want = options ? options->snapshot_id : 0;
	const char *tag = options ? options->tag : NULL;
	int64_t		at_time = options ? options->timestamp_millis : 0;
	const pm_table_version *version = options ? options->version : NULL;
	pm_schema  *latest;

	PM_TRY(pm_path_map_parse(options ? options->external_path_map : NULL, t->arena,
							 &t->path_map, err));
	if ((want > 0) + (tag != NULL) + (at_time > 0) + (version != NULL) > 1)
		return pm_fail(err, PM_ERR_INVALID,
					   "give at most one of snapshot id, tag, timestamp and version");
	if (at_time > 0)
	{
		PM_TRY(pm_snapshot_id_at_time(t->io, t->path, at_time, t->arena, &want, err));
		if (want <= 0)
			return pm_fail(err, PM_ERR_NOT_FOUND, "no snapshot was committed at or before %lld",
						   (long long) at_time);
	}
	if (version != NULL)
	{
		const pm_schema *s;

		if (version->snapshot_id > 0)
			PM_TRY(pm_snapshot_load(t->io, t->path, version->snapshot_id, t->arena, &t->snapshot,
									err));
		PM_TRY(pm_table_schema_by_id(t, version->schema_id, &s, err));
		t->schema = s;
	}
	else if (tag != NULL)
	{
		const pm_schema *s;

		PM_TRY(pm_snapshot_load_tag(t->io, t->path, tag, t->arena, &t->snapshot, err));
		PM_TRY(pm_table_schema_by_id(t, t->snapshot->schema_id, &s, err));
		t->schema = s;
	}
	else if (want > 0)
	{
		const pm_schema *s;

		PM_TRY(pm_snapshot_load(t->io, t->path, want, t->arena, &t->snapshot, err));
		PM_TRY(pm_table_schema_by_id(t, t->snapshot->schema_id, &s, err));
		t->schema = s;
	}
	else
	{
		int64_t		id;

		PM_TRY(pm_schema_load_latest(t->io, t->path, t->arena, &latest, err));
		PM_TRY(cache_schema(t, latest, err));
		t->schema = latest;
		PM_TRY(pm_snapshot_latest_id(t->io, t->path, t->arena, &id, err));
		if (id > 0)
			PM_TRY(pm_snapshot_load(t->io, t->path, id, t->arena, &t->snapshot, err));
	}
	return derive_layout(t, err);
}

pm_code
pm_table_open(const pm_env *env, pm_fileio *io, const char *table_path,
			  const pm_table_open_options *options, pm_table **out, pm_error *err)
{
	pm_arena   *arena;
	pm_table   *t;
	size_t		len = strlen(table_path);
	pm_code		rc;

	*out = NULL;
	arena = pm_arena_create(env);
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	t = pm_arena_zalloc(arena, sizeof(pm_table));
	while (len > 1 && table_path[len - 1] == '/')
		len--;
	if (t == NULL || (t->path = pm_arena_strndup(arena, table_path, len)) == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	t->env = env;
	t->io = io;
	t->arena = arena;
	rc = open_table(t, options, err);
	if (rc != PM_OK)
	{
		pm_arena_destroy(arena);
		return rc;
	}
	*out = t;
	return PM_OK;
}

pm_code
pm_table_copy(const pm_table *src, const pm_env *env, pm_fileio *io, pm_table **out,
			  pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_table   *t = arena != NULL ? pm_arena_alloc(arena, sizeof(pm_table)) : NULL;

	*out = NULL;
	if (t == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	*t = *src;
	t->env = env;
	t->io = io;
	t->arena = arena;
	/* schemas loaded through the copy are appended in its own arena */
	t->schemas = NULL;
	t->nschemas = t->schemas_cap = 0;
	for (int i = 0; i < src->nschemas; i++)
		if (cache_schema(t, src->schemas[i], err) != PM_OK)
		{
			pm_arena_destroy(arena);
			return err->code;
		}
	*out = t;
	return PM_OK;
}

pm_code
pm_table_check_options(pm_table *table, pm_error *err)
{
	if (table->options_ok == table->schema)
		return PM_OK;
	PM_TRY(pm_table_options_check(table->schema, err));
	table->options_ok = table->schema;
	return PM_OK;
}

void
pm_table_close(pm_table *table)
{
	if (table != NULL)
		pm_arena_destroy(table->arena);
}

const pm_schema *
pm_table_schema(const pm_table *table)
{
	return table->schema;
}

int64_t
pm_table_snapshot_id(const pm_table *table)
{
	return table->snapshot ? table->snapshot->id : 0;
}

pm_table_version
pm_table_get_version(const pm_table *table)
{
	pm_table_version v;

	v.snapshot_id = pm_table_snapshot_id(table);
	v.schema_id = table->schema->id;
	return v;
}

int64_t
pm_table_total_record_count(const pm_table *table)
{
	if (table->snapshot == NULL)
		return 0;
	return table->snapshot->total_record_count;
}

void
pm_table_trimmed_primary_key(const pm_table *table, const int **fields, int *nfields)
{
	*fields = table->trimmed_pk;
	*nfields = table->ntrimmed_pk;
}

const pm_env *
pm_table_env(const pm_table *table)
{
	return table->env;
}

pm_fileio *
pm_table_fileio(const pm_table *table)
{
	return table->io;
}
