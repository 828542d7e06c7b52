/*-------------------------------------------------------------------------
 * snapshot.c
 *	  Read snapshot JSON files and find the latest / earliest snapshot.
 *
 * The LATEST / EARLIEST hint files are only hints (stale, empty or half
 * written): they are verified against the snapshot files and listing the
 * directory is the fallback, as HintFileUtils does. Numbers are parsed as
 * int64 (jansson json_int_t), never through double.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §2.
 *-------------------------------------------------------------------------
 */
#include "table/snapshot.h"

#include <jansson.h>
#include <string.h>

#include "table/catalog.h"
#include "table/table_int.h"

#define MAX_SNAPSHOT_FILE_SIZE (16 * 1024 * 1024)

static const char *
opt_string(const json_t *root, const char *key, pm_arena *arena, bool *nomem)
{
	const json_t *j = json_object_get(root, key);
	char	   *s;

	if (!json_is_string(j))
		return NULL;
	s = pm_arena_strdup(arena, json_string_value(j));
	if (s == NULL)
		*nomem = true;
	return s;
}

static int64_t
opt_int(const json_t *root, const char *key, int64_t dflt)
{
	const json_t *j = json_object_get(root, key);

	return json_is_integer(j) ? (int64_t) json_integer_value(j) : dflt;
}

static pm_code
parse_root(const json_t *root, pm_arena *arena, pm_snapshot *s, pm_error *err)
{
	bool		nomem = false;

	if (!json_is_object(root))
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot is not a JSON object");
	if (!json_is_integer(json_object_get(root, "id")) ||
		!json_is_integer(json_object_get(root, "schemaId")))
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot lacks id or schemaId");
	s->version = (int) opt_int(root, "version", 1);
	s->id = opt_int(root, "id", 0);
	s->schema_id = opt_int(root, "schemaId", 0);
	s->base_manifest_list = opt_string(root, "baseManifestList", arena, &nomem);
	s->delta_manifest_list = opt_string(root, "deltaManifestList", arena, &nomem);
	s->changelog_manifest_list = opt_string(root, "changelogManifestList", arena, &nomem);
	s->index_manifest = opt_string(root, "indexManifest", arena, &nomem);
	s->commit_user = opt_string(root, "commitUser", arena, &nomem);
	s->commit_identifier = opt_int(root, "commitIdentifier", 0);
	s->commit_kind = opt_string(root, "commitKind", arena, &nomem);
	s->time_millis = opt_int(root, "timeMillis", 0);
	s->total_record_count = opt_int(root, "totalRecordCount", -1);
	s->delta_record_count = opt_int(root, "deltaRecordCount", -1);
	s->changelog_record_count = opt_int(root, "changelogRecordCount", -1);
	s->watermark = opt_int(root, "watermark", INT64_MIN);
	s->next_row_id = opt_int(root, "nextRowId", -1);
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (s->base_manifest_list == NULL || s->delta_manifest_list == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot lacks its manifest lists");
	if (!pm_catalog_name_valid(s->base_manifest_list) ||
		!pm_catalog_name_valid(s->delta_manifest_list) ||
		(s->index_manifest && !pm_catalog_name_valid(s->index_manifest)))
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot names a manifest list outside manifest/");
	return PM_OK;
}

pm_code
pm_snapshot_parse(const char *json, size_t len, pm_arena *arena, pm_snapshot **out,
				  pm_error *err)
{
	json_error_t jerr;
	json_t	   *root;
	pm_snapshot *s;
	pm_code		rc;

	*out = NULL;
	root = json_loadb(json, len, 0, &jerr);
	if (root == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid snapshot JSON: %s", jerr.text);
	s = pm_arena_zalloc(arena, sizeof(pm_snapshot));
	rc = s == NULL ? pm_fail(err, PM_ERR_NOMEM, "out of memory") : parse_root(root, arena, s, err);
	json_decref(root);
	if (rc == PM_OK)
		*out = s;
	return rc;
}

pm_code
pm_snapshot_load(pm_fileio *io, const char *table_path, int64_t id, pm_arena *arena,
				 pm_snapshot **out, pm_error *err)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table_path, (long long) id);
	uint8_t    *data;
	size_t		len;
	pm_code		rc;

	*out = NULL;
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_fileio_read_all(io, path, arena, MAX_SNAPSHOT_FILE_SIZE, &data, &len, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_NOT_FOUND, "snapshot %lld does not exist", (long long) id);
	}
	if (rc != PM_OK)
		return rc;
	rc = pm_snapshot_parse((const char *) data, len, arena, out, err);
	if (rc == PM_OK && (*out)->id != id)
		rc = pm_fail(err, PM_ERR_CORRUPT, "snapshot file says id %lld", (long long) (*out)->id);
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	return rc;
}

/* Read a hint file; 0 when absent or unparsable. */
static int64_t
read_hint(pm_fileio *io, const char *table_path, const char *name, pm_arena *arena)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/%s", table_path, name);
	uint8_t    *data;
	size_t		len;
	pm_error	err;
	int64_t		v = 0;

	pm_error_clear(&err);		/* the read may add a path to it */
	if (path == NULL || pm_fileio_read_all(io, path, arena, 64, &data, &len, &err) != PM_OK)
		return 0;
	for (size_t i = 0; i < len; i++)
	{
		if (data[i] < '0' || data[i] > '9' || v > (INT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (data[i] - '0');
	}
	return v;
}

static bool
snapshot_exists(pm_fileio *io, const char *table_path, int64_t id, pm_arena *arena)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table_path, (long long) id);

	return path != NULL && io->exists(io, path);
}

static pm_code
list_extreme(pm_fileio *io, const char *table_path, pm_arena *arena, bool want_max,
			 int64_t *id, pm_error *err)
{
	char	   *dir = pm_arena_sprintf(arena, "%s/snapshot", table_path);
	char	  **names;
	int			n;
	pm_code		rc;

	*id = 0;
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = io->list(io, dir, arena, &names, &n, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		return PM_OK;
	}
	if (rc != PM_OK)
		return rc;
	for (int i = 0; i < n; i++)
	{
		int64_t		v;

		if (!pm_versioned_name_id(names[i], "snapshot-", &v))
			continue;
		if (*id == 0 || (want_max ? v > *id : v < *id))
			*id = v;
	}
	return PM_OK;
}

pm_code
pm_snapshot_latest_id(pm_fileio *io, const char *table_path, pm_arena *arena,
					  int64_t *id, pm_error *err)
{
	int64_t		hint = read_hint(io, table_path, "LATEST", arena);

	if (hint > 0 && hint < INT64_MAX && snapshot_exists(io, table_path, hint, arena) &&
		!snapshot_exists(io, table_path, hint + 1, arena))
	{
		*id = hint;
		return PM_OK;
	}
	return list_extreme(io, table_path, arena, true, id, err);
}

pm_code
pm_snapshot_earliest_id(pm_fileio *io, const char *table_path, pm_arena *arena,
						int64_t *id, pm_error *err)
{
	int64_t		hint = read_hint(io, table_path, "EARLIEST", arena);

	if (hint > 0 && snapshot_exists(io, table_path, hint, arena))
	{
		*id = hint;
		return PM_OK;
	}
	return list_extreme(io, table_path, arena, false, id, err);
}

pm_code
pm_snapshot_load_tag(pm_fileio *io, const char *table_path, const char *tag, pm_arena *arena,
					 pm_snapshot **out, pm_error *err)
{
	char	   *path;
	uint8_t    *data;
	size_t		len;
	pm_code		rc;

	*out = NULL;
	if (!pm_catalog_name_valid(tag))
		return pm_fail(err, PM_ERR_INVALID, "invalid tag name \"%.100s\"", tag);
	path = pm_arena_sprintf(arena, "%s/tag/tag-%s", table_path, tag);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_fileio_read_all(io, path, arena, MAX_SNAPSHOT_FILE_SIZE, &data, &len, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_NOT_FOUND, "tag \"%.100s\" does not exist", tag);
	}
	if (rc == PM_OK)
		rc = pm_snapshot_parse((const char *) data, len, arena, out, err);
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	return rc;
}

pm_code
pm_snapshot_id_at_time(pm_fileio *io, const char *table_path, int64_t millis, pm_arena *arena,
					   int64_t *id, pm_error *err)
{
	int64_t		lo,
				hi,
				found = 0;

	*id = 0;
	PM_TRY(pm_snapshot_earliest_id(io, table_path, arena, &lo, err));
	PM_TRY(pm_snapshot_latest_id(io, table_path, arena, &hi, err));
	if (lo <= 0 || hi <= 0)
		return PM_OK;
	while (lo <= hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;
		pm_snapshot *s;
		pm_code		rc = pm_snapshot_load(io, table_path, mid, arena, &s, err);

		if (rc != PM_OK)
			return rc;
		if (s->time_millis <= millis)
		{
			found = mid;
			lo = mid + 1;
		}
		else
			hi = mid - 1;
	}
	*id = found;
	return PM_OK;
}
