/*-------------------------------------------------------------------------
 * snapshot_expire.c
 *	  Expiring snapshots as Java's ExpireSnapshotsImpl (snapshot_expire.h).
 *
 *	expire():  latest, earliest; min = max(latest - retain_max + 1, earliest);
 *			   end = min(latest - retain_min + 1, consumers' min nextSnapshot,
 *						 earliest + max_deletes);
 *			   the first id in [min, end) committed at or after older_than
 *			   becomes end; expire [earliest, end).
 *	expireUntil(earliest, end), in this order:
 *	  1. data files DELETEd by the deltas of snapshots (begin, end], unless
 *		 the nearest older tag still holds them;
 *	  2. changelog files ADDed by snapshots [begin, end);
 *	  3. manifest lists, manifests, index manifests, index files and
 *		 statistics of [begin, end) not used by end or a tag in range;
 *	  4. the snapshot files of [begin, end), then EARLIEST = end.
 *	end <= earliest: nothing expires (EARLIEST written if missing).
 *-------------------------------------------------------------------------
 */
#include "table/snapshot_expire.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "table/duration.h"
#include "table/file_deletion.h"
#include "table/snapshot_hint.h"
#include "table/tag.h"
#include "table/table_int.h"

pm_code
pm_expire_options_from_table(const pm_schema *schema, int64_t now_millis, pm_expire_options *out,
							 pm_error *err)
{
	const char *v = pm_schema_option(schema, "snapshot.time-retained");
	int64_t		retain_ms = 3600 * 1000;

	PM_TRY(pm_schema_int_option(schema, "snapshot.num-retained.min", 10, &out->retain_min, err));
	PM_TRY(pm_schema_int_option(schema, "snapshot.num-retained.max", INT_MAX, &out->retain_max, err));
	PM_TRY(pm_schema_int_option(schema, "snapshot.expire.limit", 50, &out->max_deletes, err));
	if (v != NULL)
		PM_TRY(pm_parse_duration_millis("snapshot.time-retained", v, &retain_ms, err));
	out->older_than_millis = retain_ms > now_millis ? INT64_MIN : now_millis - retain_ms;
	return PM_OK;
}

/* ConsumerManager.minNextSnapshot; INT64_MAX without consumers. */
static pm_code
min_next_snapshot(pm_table *t, pm_arena *arena, int64_t *out, pm_error *err)
{
	char	   *dir = pm_arena_sprintf(arena, "%s/consumer", t->path);
	char	  **names;
	int			n;
	pm_code		rc;

	*out = INT64_MAX;
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = t->io->list(t->io, dir, arena, &names, &n, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		return PM_OK;
	}
	if (rc != PM_OK)
		return rc;
	for (int i = 0; i < n; i++)
	{
		char	   *path;
		uint8_t    *data;
		size_t		len;
		json_t	   *root;
		json_t	   *next;

		if (strncmp(names[i], "consumer-", 9) != 0 || names[i][9] == '\0')
			continue;
		path = pm_arena_sprintf(arena, "%s/%s", dir, names[i]);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		rc = pm_fileio_read_all(t->io, path, arena, 1024 * 1024, &data, &len, err);
		if (rc == PM_ERR_NOT_FOUND)
		{
			pm_error_clear(err);
			continue;
		}
		if (rc != PM_OK)
			return rc;
		root = json_loadb((const char *) data, len, 0, NULL);
		next = root ? json_object_get(root, "nextSnapshot") : NULL;
		if (!json_is_integer(next))
		{
			json_decref(root);
			pm_error_set_path(err, path);
			return pm_fail(err, PM_ERR_CORRUPT, "consumer file lacks nextSnapshot");
		}
		if (json_integer_value(next) < *out)
			*out = json_integer_value(next);
		json_decref(root);
	}
	return PM_OK;
}

/* ExpireSnapshotsImpl.findSkippingTags: tags in [begin, end) plus the one before begin. */
static int
skipping_tags(pm_snapshot **tags, int ntags, int64_t begin, int64_t end, pm_snapshot **out)
{
	int			right = -1;
	int			left = -1;
	int			n = 0;

	for (int i = ntags - 1; i >= 0 && right < 0; i--)
		if (tags[i]->id < end)
			right = i;
	if (right < 0)
		return 0;
	for (int i = ntags - 1; i >= 0 && left < 0; i--)
		if (tags[i]->id <= begin)
			left = i;
	for (int i = left < 0 ? 0 : left; i <= right; i++)
		out[n++] = tags[i];
	return n;
}

static pm_code
expire_until(pm_table *t, int64_t earliest, int64_t end, pm_arena *arena, int *expired,
			 int64_t *files_deleted, pm_error *err)
{
	pm_snapshot **snaps;
	int			nsnaps = 0;
	pm_tag	   *tags;
	int			ntags;
	pm_snapshot **tagged;
	int			ntagged;
	pm_file_deletion fd;
	int64_t		cached_tag = 0;
	pm_name_set *tag_files = NULL;
	pm_snapshot **skipping;
	int			nskipping;
	pm_name_set *manifest_skip;
	pm_error	serr;
	pm_code		rc;

	if (end <= earliest)
	{
		if (!pm_snapshot_hint_exists(t->io, t->path, "EARLIEST", arena))
			pm_snapshot_hint_write(t->io, t->path, "EARLIEST", earliest, arena);
		return PM_OK;
	}
	snaps = pm_arena_zalloc(arena, sizeof(pm_snapshot *) * (size_t) (end - earliest + 2));
	if (snaps == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t id = earliest; id <= end; id++)
	{
		rc = pm_snapshot_load(t->io, t->path, id, arena, &snaps[nsnaps], err);
		if (rc == PM_ERR_NOT_FOUND)
		{
			pm_error_clear(err);	/* deleted by another process */
			continue;
		}
		if (rc != PM_OK)
			return rc;
		nsnaps++;
	}
	if (nsnaps == 0)
		return PM_OK;
	PM_TRY(pm_tag_list(t->io, t->path, arena, &tags, &ntags, err));
	PM_TRY(pm_tag_snapshots(tags, ntags, arena, &tagged, &ntagged, err));
	pm_file_deletion_init(&fd, t, arena);

	/* 1. data files deleted by (begin, end], unless the previous tag holds them */
	for (int i = 1; i < nsnaps; i++)
	{
		int			prev = -1;

		PM_TRY(pm_check_interrupts(t->env, err));
		for (int k = ntagged - 1; k >= 0 && prev < 0; k--)
			if (tagged[k]->id < snaps[i]->id)
				prev = k;
		if (prev >= 0 && tagged[prev]->id != cached_tag)
		{
			cached_tag = 0;
			tag_files = pm_name_set_create(arena);
			if (tag_files == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			pm_error_clear(&serr);
			rc = pm_file_deletion_add_live_files(&fd, tagged[prev], tag_files, &serr);
			if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
			{
				*err = serr;
				return rc;
			}
			if (rc != PM_OK)
				continue;		/* "Skip cleaning data files of snapshot" */
			cached_tag = tagged[prev]->id;
		}
		PM_TRY(pm_file_deletion_clean_unused_data_files(&fd, snaps[i]->delta_manifest_list,
														prev >= 0 ? tag_files : NULL, err));
	}

	/* 2. changelog files of [begin, end) */
	for (int i = 0; i < nsnaps; i++)
		if (snaps[i]->id != end && snaps[i]->changelog_manifest_list != NULL)
			PM_TRY(pm_file_deletion_delete_added_data_files(&fd, snaps[i]->changelog_manifest_list,
															err));

	/* 3. manifests not used by end or a tag in range */
	if (snaps[nsnaps - 1]->id != end)
	{
		*files_deleted = fd.files_deleted;
		return PM_OK;			/* the end snapshot is gone: stop here, as Java */
	}
	skipping = pm_arena_zalloc(arena, sizeof(pm_snapshot *) * (size_t) (ntagged + 2));
	manifest_skip = pm_name_set_create(arena);
	if (skipping == NULL || manifest_skip == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	nskipping = skipping_tags(tagged, ntagged, snaps[0]->id, end, skipping);
	skipping[nskipping++] = snaps[nsnaps - 1];
	pm_error_clear(&serr);
	rc = pm_file_deletion_manifest_skipping_set(&fd, skipping, nskipping, manifest_skip, &serr);
	if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
	{
		*err = serr;
		return rc;
	}
	if (rc == PM_OK)
		for (int i = 0; i < nsnaps; i++)
			if (snaps[i]->id != end)
				PM_TRY(pm_file_deletion_clean_unused_manifests(&fd, snaps[i], manifest_skip, true,
															   true, err));

	/* 4. snapshot files, then the EARLIEST hint */
	for (int i = 0; i < nsnaps; i++)
	{
		char	   *path;

		if (snaps[i]->id == end)
			continue;
		path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", t->path,
								(long long) snaps[i]->id);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		pm_fileio_remove_quietly(t->io, path);
		(*expired)++;
	}
	pm_snapshot_hint_write(t->io, t->path, "EARLIEST", end, arena);
	*files_deleted = fd.files_deleted;
	return PM_OK;
}

pm_code
pm_snapshot_expire(pm_table *t, const pm_expire_options *o, pm_arena *arena, int *expired,
				   int64_t *files_deleted, pm_error *err)
{
	int64_t		latest;
	int64_t		earliest;
	int64_t		min;
	int64_t		end;
	int64_t		consumer_min;

	*expired = 0;
	*files_deleted = 0;
	if (o->retain_min < 1)
		return pm_fail(err, PM_ERR_INVALID,
					   "The minimum number of completed snapshots to retain should be >= 1.");
	if (o->retain_max < o->retain_min)
		return pm_fail(err, PM_ERR_INVALID, "retainMax (%d) must not be less than retainMin (%d).",
					   o->retain_max, o->retain_min);
	if (o->max_deletes < 1)
		return pm_fail(err, PM_ERR_INVALID, "the maximum number of snapshots to expire must be >= 1");
	if (t->io->remove == NULL || t->io->write_new == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	PM_TRY(pm_file_deletion_check_paths(t, arena, err));
	PM_TRY(pm_snapshot_latest_id(t->io, t->path, arena, &latest, err));
	if (latest <= 0)
		return PM_OK;
	PM_TRY(pm_snapshot_earliest_id(t->io, t->path, arena, &earliest, err));
	if (earliest <= 0)
		return PM_OK;
	min = latest - o->retain_max + 1;
	if (min < earliest)
		min = earliest;
	end = latest - o->retain_min + 1;
	PM_TRY(min_next_snapshot(t, arena, &consumer_min, err));
	if (consumer_min < end)
		end = consumer_min;
	if (earliest + o->max_deletes < end)
		end = earliest + o->max_deletes;
	for (int64_t id = min; id < end; id++)
	{
		pm_snapshot *s;
		pm_code		rc = pm_snapshot_load(t->io, t->path, id, arena, &s, err);

		if (rc == PM_ERR_NOT_FOUND)
		{
			pm_error_clear(err);
			continue;
		}
		if (rc != PM_OK)
			return rc;
		if (o->older_than_millis <= s->time_millis)
			return expire_until(t, earliest, id, arena, expired, files_deleted, err);
	}
	return expire_until(t, earliest, end, arena, expired, files_deleted, err);
}
