/*-------------------------------------------------------------------------
 * data_file_path.c
 *	  Local paths of data, extra and index files (data_file_path.h).
 *-------------------------------------------------------------------------
 */
#include "table/data_file_path.h"

#include <string.h>

#include "row/binary_row.h"
#include "table/catalog.h"
#include "table/partition_path.h"
#include "table/path_map.h"
#include "table/table_int.h"

char *
pm_bucket_dir_path(const char *table_path, const char *data_dir, const char *partition_path,
				   int32_t bucket, pm_arena *arena)
{
	if (bucket == -2)
		return pm_arena_sprintf(arena, "%s/%s%s%sbucket-postpone", table_path,
								data_dir ? data_dir : "", data_dir ? "/" : "", partition_path);
	return pm_arena_sprintf(arena, "%s/%s%s%sbucket-%d", table_path, data_dir ? data_dir : "",
							data_dir ? "/" : "", partition_path, (int) bucket);
}

pm_code
pm_data_file_bucket_dir(pm_table *t, const uint8_t *partition, int32_t partition_len,
						int32_t bucket, pm_arena *arena, char **out, pm_error *err)
{
	const char *data_dir = pm_schema_option(t->schema, "data-file.path-directory");
	pm_value   *values = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (t->npartition + 1));
	char	   *ppath;

	if (values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_binary_row_decode_serialized(partition, (size_t) partition_len, t->partition_type,
										   values, err));
	PM_TRY(pm_partition_path(t->schema, t->partition_type, t->partition_default_name, values,
							 arena, &ppath, err));
	*out = pm_bucket_dir_path(t->path, data_dir, ppath, bucket, arena);
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

static pm_code
check_name(const char *name, pm_error *err)
{
	if (!pm_catalog_name_valid(name))
		return pm_fail(err, PM_ERR_CORRUPT, "metadata names a file \"%.200s\" outside its directory",
					   name);
	return PM_OK;
}

pm_code
pm_data_file_local_path(pm_table *t, const uint8_t *partition, int32_t partition_len,
						int32_t bucket, const char *file_name, const char *external_path,
						pm_arena *arena, char **path, char **dir, pm_error *err)
{
	PM_TRY(check_name(file_name, err));
	if (external_path != NULL)
	{
		char	   *slash;

		PM_TRY(pm_path_map_resolve(t->path_map, external_path, arena, path, err));
		*dir = pm_arena_strdup(arena, *path);
		if (*dir == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		slash = strrchr(*dir, '/');
		if (slash != NULL)
			*slash = '\0';
		return PM_OK;
	}
	PM_TRY(pm_data_file_bucket_dir(t, partition, partition_len, bucket, arena, dir, err));
	*path = pm_arena_sprintf(arena, "%s/%s", *dir, file_name);
	if (*path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

char *
pm_index_dir_of_bucket(const char *table_path, bool in_data_dir, const char *bucket_dir,
					   pm_arena *arena)
{
	if (in_data_dir)
		return pm_arena_strdup(arena, bucket_dir);
	return pm_arena_sprintf(arena, "%s/index", table_path);
}

pm_code
pm_index_file_local_path(pm_table *t, const uint8_t *partition, int32_t partition_len,
						 int32_t bucket, const char *file_name, const char *external_path,
						 pm_arena *arena, char **path, pm_error *err)
{
	PM_TRY(check_name(file_name, err));
	if (external_path != NULL)
		return pm_path_map_resolve(t->path_map, external_path, arena, path, err);
	if (pm_schema_bool_option(t->schema, "index-file-in-data-file-dir", false))
	{
		char	   *dir;

		PM_TRY(pm_data_file_bucket_dir(t, partition, partition_len, bucket, arena, &dir, err));
		*path = pm_arena_sprintf(arena, "%s/%s", dir, file_name);
	}
	else
		*path = pm_arena_sprintf(arena, "%s/index/%s", t->path, file_name);
	if (*path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}
