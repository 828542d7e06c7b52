/*-------------------------------------------------------------------------
 * rollback.c
 *	  Rolling a table back to a snapshot or tag (rollback.h).
 *
 * RollbackHelper.cleanLargerThan(retained), in this order:
 *	1. LATEST := retained; delete snapshot-<i> for i from latest down to
 *	   max(earliest, retained + 1);
 *	2. long-lived changelogs (changelog/changelog-<i>) above retained, and
 *	   their LATEST hint (-1 when none is left);
 *	3. tag files of snapshots above retained.
 * To a tag: then, when snapshot-<retained> does not exist (expired), write
 * it from the tag and EARLIEST := retained.
 *-------------------------------------------------------------------------
 */
#include "table/rollback.h"

#include <stdio.h>
#include <string.h>

#include "table/catalog.h"
#include "table/snapshot.h"
#include "table/snapshot_hint.h"
#include "table/tag.h"
#include "table/table_int.h"

static pm_code
changelog_id_range(pm_fileio *io, const char *table_path, pm_arena *arena, int64_t *lo,
				   int64_t *hi, pm_error *err)
{
	char	   *dir = pm_arena_sprintf(arena, "%s/changelog", table_path);

	*lo = *hi = 0;
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return pm_versioned_id_range(io, dir, "changelog-", arena, lo, hi, err);
}

static pm_code
clean_larger_than(pm_fileio *io, const char *table_path, int64_t retained, pm_arena *arena,
				  int *removed, pm_error *err)
{
	int64_t		earliest;
	int64_t		latest;
	int64_t		to;
	int64_t		clo;
	int64_t		chi;
	pm_tag	   *tags;
	int			ntags;

	*removed = 0;
	if (io->remove == NULL || io->write_new == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	PM_TRY(pm_snapshot_earliest_id(io, table_path, arena, &earliest, err));
	if (earliest <= 0)
		return pm_fail(err, PM_ERR_NOT_FOUND, "Cannot find earliest snapshot.");
	PM_TRY(pm_snapshot_latest_id(io, table_path, arena, &latest, err));
	if (latest <= 0)
		return pm_fail(err, PM_ERR_NOT_FOUND, "Cannot find latest snapshot.");

	/* 1. snapshots */
	pm_snapshot_hint_write(io, table_path, "LATEST", retained, arena);
	to = retained + 1 > earliest ? retained + 1 : earliest;
	for (int64_t i = latest; i >= to; i--)
	{
		char	   *path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table_path,
											(long long) i);

		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (io->exists(io, path))
		{
			pm_fileio_remove_quietly(io, path);
			(*removed)++;
		}
	}

	/* 2. long-lived changelogs */
	PM_TRY(changelog_id_range(io, table_path, arena, &clo, &chi, err));
	if (clo > 0)
	{
		int64_t		cto = retained + 1 > clo ? retained + 1 : clo;

		if (chi >= cto)
		{
			char	   *hint = pm_arena_sprintf(arena, "%s/changelog/LATEST", table_path);
			char		text[32];
			pm_error	ignored;

			if (hint == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			snprintf(text, sizeof(text), "%lld", (long long) (cto == clo ? -1 : cto - 1));
			pm_fileio_remove_quietly(io, hint);
			pm_error_clear(&ignored);
			(void) io->write_new(io, hint, text, strlen(text), &ignored);
		}
		for (int64_t i = chi; i >= cto; i--)
			pm_fileio_remove_quietly(io, pm_arena_sprintf(arena, "%s/changelog/changelog-%lld", table_path,
												(long long) i));
	}

	/* 3. tags of later snapshots */
	PM_TRY(pm_tag_list(io, table_path, arena, &tags, &ntags, err));
	for (int i = ntags - 1; i >= 0 && tags[i].snapshot->id > retained; i--)
		pm_fileio_remove_quietly(io, pm_arena_sprintf(arena, "%s/tag/tag-%s", table_path, tags[i].name));
	return PM_OK;
}

pm_code
pm_rollback_to_tag(pm_fileio *io, const char *table_path, const char *name, pm_arena *arena,
				   int *removed, pm_error *err)
{
	pm_snapshot *tagged;
	char	   *path;
	pm_code		rc;

	*removed = 0;
	rc = pm_snapshot_load_tag(io, table_path, name, arena, &tagged, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		return pm_fail(err, PM_ERR_NOT_FOUND, "Tag '%s' doesn't exist.", name);
	}
	if (rc != PM_OK)
		return rc;
	PM_TRY(clean_larger_than(io, table_path, tagged->id, arena, removed, err));
	/* createSnapshotFileIfNeeded */
	path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table_path,
							(long long) tagged->id);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (!io->exists(io, path))
	{
		char	   *json;
		size_t		len;

		PM_TRY(pm_snapshot_to_json(tagged, arena, &json, &len, err));
		rc = io->write_new(io, path, json, len, err);
		if (rc != PM_OK && rc != PM_ERR_CONFLICT)
			return rc;
		pm_error_clear(err);
		pm_snapshot_hint_write(io, table_path, "EARLIEST", tagged->id, arena);
	}
	return PM_OK;
}

pm_code
pm_rollback_to_snapshot(pm_fileio *io, const char *table_path, int64_t snapshot_id,
						pm_arena *arena, int *removed, pm_error *err)
{
	pm_snapshot *snap;
	pm_code		rc;
	pm_tag	   *tags;
	int			ntags;

	*removed = 0;
	rc = pm_snapshot_load(io, table_path, snapshot_id, arena, &snap, err);
	if (rc == PM_OK)
		return clean_larger_than(io, table_path, snapshot_id, arena, removed, err);
	if (rc != PM_ERR_NOT_FOUND)
		return rc;
	pm_error_clear(err);
	PM_TRY(pm_tag_list(io, table_path, arena, &tags, &ntags, err));
	for (int i = 0; i < ntags; i++)
		if (tags[i].snapshot->id == snapshot_id)
			return pm_rollback_to_tag(io, table_path, tags[i].name, arena, removed, err);
	return pm_fail(err, PM_ERR_NOT_FOUND, "Rollback snapshot '%lld' doesn't exist.",
				   (long long) snapshot_id);
}
