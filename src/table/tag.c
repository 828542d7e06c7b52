/*-------------------------------------------------------------------------
 * tag.c
 *	  Listing, creating, deleting and renaming Paimon tags (tag.h).
 *-------------------------------------------------------------------------
 */
#include "table/tag.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_out.h"
#include "common/name_set.h"
#include "common/tz.h"
#include "table/catalog.h"
#include "table/file_deletion.h"
#include "table/table_int.h"

#define TAG_PREFIX "tag-"
#define SUCCESS_DIR "tag-success-file"
#define SUCCESS_SUFFIX "_SUCCESS"
#define MAX_TAG_FILE_SIZE (16 * 1024 * 1024)

static pm_code
check_tag_name(const char *name, pm_error *err)
{
	bool		blank = true;

	for (const char *p = name; *p; p++)
		blank &= isspace((unsigned char) *p) != 0;
	if (blank)
		return pm_fail(err, PM_ERR_INVALID, "Tag name shouldn't be blank.");
	if (!pm_catalog_name_valid(name))
		return pm_fail(err, PM_ERR_INVALID, "invalid tag name \"%.100s\"", name);
	return PM_OK;
}

static char *
tag_path(pm_arena *arena, const char *table_path, const char *name)
{
	return pm_arena_sprintf(arena, "%s/tag/" TAG_PREFIX "%s", table_path, name);
}

static int
compare_tags(const void *a, const void *b)
{
	const pm_tag *x = a;
	const pm_tag *y = b;

	if (x->snapshot->id != y->snapshot->id)
		return x->snapshot->id < y->snapshot->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

pm_code
pm_tag_list(pm_fileio *io, const char *table_path, pm_arena *arena, pm_tag **tags, int *n,
			pm_error *err)
{
	char	   *dir = pm_arena_sprintf(arena, "%s/tag", table_path);
	char	  **names;
	int			count;
	pm_tag	   *out;
	int			k = 0;
	pm_code		rc;

	*tags = NULL;
	*n = 0;
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = io->list(io, dir, arena, &names, &count, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		return PM_OK;
	}
	if (rc != PM_OK)
		return rc;
	out = pm_arena_zalloc(arena, sizeof(pm_tag) * (size_t) (count + 1));
	if (out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < count; i++)
	{
		const char *name;
		pm_snapshot *s;

		if (strncmp(names[i], TAG_PREFIX, strlen(TAG_PREFIX)) != 0)
			continue;
		name = names[i] + strlen(TAG_PREFIX);
		if (!pm_catalog_name_valid(name))
			continue;
		rc = pm_snapshot_load_tag(io, table_path, name, arena, &s, err);
		if (rc == PM_ERR_NOT_FOUND ||
			(rc != PM_OK && rc != PM_ERR_NOMEM && io->is_dir != NULL &&
			 io->is_dir(io, tag_path(arena, table_path, name))))
		{
			pm_error_clear(err);	/* deleted meanwhile, or tag-success-file/ */
			continue;
		}
		if (rc != PM_OK)
			return rc;
		out[k].name = name;
		out[k].snapshot = s;
		k++;
	}
	qsort(out, (size_t) k, sizeof(pm_tag), compare_tags);
	*tags = out;
	*n = k;
	return PM_OK;
}

pm_code
pm_tag_snapshots(const pm_tag *tags, int ntags, pm_arena *arena, pm_snapshot ***out, int *n,
				 pm_error *err)
{
	pm_snapshot **s = pm_arena_zalloc(arena, sizeof(pm_snapshot *) * (size_t) (ntags + 1));
	int			k = 0;

	if (s == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < ntags; i++)
		if (k == 0 || s[k - 1]->id != tags[i].snapshot->id)
			s[k++] = tags[i].snapshot;
	*out = s;
	*n = k;
	return PM_OK;
}

pm_code
pm_tag_create(pm_fileio *io, const char *table_path, const char *name, int64_t snapshot_id,
			  pm_arena *arena, int64_t *tagged_id, pm_error *err)
{
	return pm_tag_create_with(io, table_path, name, snapshot_id, NULL, arena, tagged_id, err);
}

static char *
success_file_path(pm_arena *arena, const char *table_path, const char *name)
{
	return pm_arena_sprintf(arena, "%s/tag/" SUCCESS_DIR "/%s" SUCCESS_SUFFIX, table_path, name);
}

/* SuccessFileTagCallback.notifyCreation */
static pm_code
write_success_file(pm_fileio *io, const char *table_path, const char *name, pm_arena *arena,
				   pm_error *err)
{
	char	   *dir = pm_arena_sprintf(arena, "%s/tag/" SUCCESS_DIR, table_path);
	char	   *path = success_file_path(arena, table_path, name);
	int64_t		now = pm_epoch_millis_now();
	int64_t		created = now;
	uint8_t    *data;
	size_t		len;
	pm_json_out out;
	char	   *json;
	pm_code		rc;

	if (dir == NULL || path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(io->mkdirs(io, dir, err));
	/* an existing file keeps its creation time (SuccessFile.updateModificationTime) */
	rc = pm_fileio_read_all(io, path, arena, MAX_TAG_FILE_SIZE, &data, &len, err);
	if (rc == PM_OK)
	{
		json_error_t jerr;
		json_t	   *root = json_loadb((const char *) data, len, 0, &jerr);
		json_t	   *c = root != NULL ? json_object_get(root, "creationTime") : NULL;

		if (json_is_integer(c))
			created = json_integer_value(c);
		json_decref(root);
	}
	else if (rc != PM_ERR_NOT_FOUND)
		return rc;
	pm_error_clear(err);
	pm_json_out_init(&out, arena);
	pm_json_begin_object(&out);
	pm_json_field_int(&out, "creationTime", created);
	pm_json_field_int(&out, "modificationTime", now);
	pm_json_end_object(&out);
	PM_TRY(pm_json_out_finish(&out, &json, &len, err));
	/* fileIO.overwriteFileUtf8 */
	if (rc == PM_OK)
		PM_TRY(io->remove(io, path, err));
	return io->write_new(io, path, json, len, err);
}

pm_code
pm_tag_check_callbacks(const pm_schema *s, pm_error *err)
{
	const char *callbacks = pm_schema_option(s, "tag.callbacks");

	if (callbacks != NULL && callbacks[0] != '\0')
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option tag.callbacks = \"%s\": the Java classes Paimon runs when a tag is created or deleted are not run",
					   callbacks);
	return PM_OK;
}

pm_code
pm_tag_options_of_schema(const pm_schema *s, pm_tag_options *out, pm_error *err)
{
	const char *v = pm_schema_option(s, "tag.default-time-retained");

	memset(out, 0, sizeof(*out));
	PM_TRY(pm_tag_check_callbacks(s, err));
	out->success_file = pm_schema_bool_option(s, "tag.create-success-file", false);
	out->has_time_retained = v != NULL;
	if (v == NULL)
		return PM_OK;
	return pm_parse_duration("tag.default-time-retained", v, &out->time_retained, err);
}

pm_code
pm_tag_create_with(pm_fileio *io, const char *table_path, const char *name, int64_t snapshot_id,
				   const pm_tag_options *options, pm_arena *arena, int64_t *tagged_id,
				   pm_error *err)
{
	const pm_duration *time_retained = options != NULL && options->has_time_retained ?
		&options->time_retained : NULL;
	pm_snapshot *snap = NULL;
	pm_snapshot tag;
	char	   *path;
	char	   *json;
	size_t		len;
	pm_code		rc;

	*tagged_id = 0;
	PM_TRY(check_tag_name(name, err));
	if (io->write_new == NULL || io->mkdirs == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	path = tag_path(arena, table_path, name);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (io->exists(io, path))
		return pm_fail(err, PM_ERR_CONFLICT, "Tag '%s' already exists.", name);
	if (snapshot_id <= 0)
	{
		int64_t		latest;

		PM_TRY(pm_snapshot_latest_id(io, table_path, arena, &latest, err));
		if (latest <= 0)
			return pm_fail(err, PM_ERR_NOT_FOUND,
						   "Cannot create tag because latest snapshot doesn't exist.");
		PM_TRY(pm_snapshot_load(io, table_path, latest, arena, &snap, err));
	}
	else
	{
		rc = pm_snapshot_load(io, table_path, snapshot_id, arena, &snap, err);
		if (rc == PM_ERR_NOT_FOUND)
		{
			/* findSnapshot: an expired snapshot still held by a tag */
			pm_tag	   *tags;
			int			n;

			pm_error_clear(err);
			snap = NULL;
			PM_TRY(pm_tag_list(io, table_path, arena, &tags, &n, err));
			for (int i = 0; i < n && snap == NULL; i++)
				if (tags[i].snapshot->id == snapshot_id)
					snap = tags[i].snapshot;
			if (snap == NULL)
				return pm_fail(err, PM_ERR_NOT_FOUND,
							   "Cannot create tag because given snapshot #%lld doesn't exist.",
							   (long long) snapshot_id);
		}
		else if (rc != PM_OK)
			return rc;
	}
	/* trimToSnapshot (a tag's own times are not carried over), then fromSnapshotAndTagTtl */
	tag = *snap;
	tag.has_tag_create_time = time_retained != NULL;
	tag.has_tag_time_retained = time_retained != NULL;
	if (time_retained != NULL)
	{
		tag.tag_create_time = pm_local_now_nanos();
		tag.tag_time_retained = *time_retained;
	}
	PM_TRY(pm_snapshot_to_json(&tag, arena, &json, &len, err));
	{
		char	   *dir = pm_arena_sprintf(arena, "%s/tag", table_path);

		if (dir == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(io->mkdirs(io, dir, err));
	}
	rc = io->write_new(io, path, json, len, err);
	if (rc == PM_ERR_CONFLICT)
	{
		pm_error_clear(err);
		return pm_fail(err, PM_ERR_CONFLICT, "Tag '%s' already exists.", name);
	}
	if (rc != PM_OK)
		return rc;
	*tagged_id = snap->id;
	if (options != NULL && options->success_file)
		return write_success_file(io, table_path, name, arena, err);
	return PM_OK;
}

pm_code
pm_tag_expire_by_time(const pm_env *env, pm_fileio *io, const char *table_path,
					  int64_t now_local, pm_arena *arena, int *expired, pm_error *err)
{
	pm_tag	   *tags;
	int			n;
	pm_table   *table = NULL;
	pm_code		rc = PM_OK;

	*expired = 0;
	PM_TRY(pm_tag_list(io, table_path, arena, &tags, &n, err));
	for (int i = 0; rc == PM_OK && i < n; i++)
	{
		const pm_snapshot *s = tags[i].snapshot;
		int64_t		until;
		bool		deleted;
		int64_t		files;

		if (!s->has_tag_create_time || !s->has_tag_time_retained)
			continue;
		/* now.isAfter(createTime.plus(timeRetained)); past int64 ns: never */
		if (__builtin_mul_overflow(s->tag_time_retained.seconds, INT64_C(1000000000), &until) ||
			__builtin_add_overflow(until, (int64_t) s->tag_time_retained.nanos, &until) ||
			__builtin_add_overflow(until, s->tag_create_time, &until) || now_local <= until)
			continue;
		if (table == NULL)
			rc = pm_table_open(env, io, table_path, NULL, &table, err);
		if (rc == PM_OK)
			rc = pm_tag_delete(table, tags[i].name, arena, &deleted, &files, err);
		if (rc == PM_OK && deleted)
			(*expired)++;
	}
	if (table != NULL)
		pm_table_close(table);
	return rc;
}

/* TagManager.doClean: files only the deleted tag kept. */
static pm_code
clean_tag_files(pm_table *table, const pm_snapshot *tagged, pm_snapshot **tagged_snapshots,
				int ntagged, pm_arena *arena, int64_t *files_deleted, pm_error *err)
{
	pm_file_deletion fd;
	pm_snapshot *skipped[2];
	int			nskipped = 0;
	int			index = -1;
	int64_t		earliest_id;
	pm_snapshot *right = NULL;
	pm_name_set *data_skip;
	pm_name_set *manifest_skip;
	pm_error	serr;
	pm_code		rc;

	for (int i = 0; i < ntagged; i++)
		if (tagged_snapshots[i]->id == tagged->id)
			index = i;
	if (index < 0)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "Didn't find tag with snapshot id '%lld'. This is unexpected.",
					   (long long) tagged->id);
	if (index - 1 >= 0)
		skipped[nskipped++] = tagged_snapshots[index - 1];
	PM_TRY(pm_snapshot_earliest_id(table->io, table->path, arena, &earliest_id, err));
	if (earliest_id > 0)
		PM_TRY(pm_snapshot_load(table->io, table->path, earliest_id, arena, &right, err));
	if (index + 1 < ntagged &&
		(right == NULL || tagged_snapshots[index + 1]->id < right->id))
		right = tagged_snapshots[index + 1];
	if (right != NULL)
		skipped[nskipped++] = right;

	pm_file_deletion_init(&fd, table, arena);
	data_skip = pm_name_set_create(arena);
	manifest_skip = pm_name_set_create(arena);
	if (data_skip == NULL || manifest_skip == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	/* data files: skipped when the skipping set cannot be built */
	pm_error_clear(&serr);
	rc = PM_OK;
	for (int i = 0; i < nskipped && rc == PM_OK; i++)
		rc = pm_file_deletion_add_live_files(&fd, skipped[i], data_skip, &serr);
	if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
	{
		*err = serr;
		return rc;
	}
	if (rc == PM_OK)
		PM_TRY(pm_file_deletion_clean_live_data_files(&fd, tagged, data_skip, err));

	/* manifests */
	pm_error_clear(&serr);
	rc = pm_file_deletion_manifest_skipping_set(&fd, skipped, nskipped, manifest_skip, &serr);
	if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
	{
		*err = serr;
		return rc;
	}
	if (rc == PM_OK)
		PM_TRY(pm_file_deletion_clean_unused_manifests(&fd, tagged, manifest_skip, true, false,
													   err));
	*files_deleted = fd.files_deleted;
	return PM_OK;
}

/* deleteTagMetaFile: the tag file, then SuccessFileTagCallback.notifyDeletion */
static pm_code
remove_tag_file(pm_table *table, const char *path, const char *name, pm_arena *arena,
				pm_error *err)
{
	char	   *success;

	PM_TRY(table->io->remove(table->io, path, err));
	if (!pm_schema_bool_option(table->schema, "tag.create-success-file", false))
		return PM_OK;
	success = success_file_path(arena, table->path, name);
	if (success == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	pm_fileio_remove_quietly(table->io, success);
	return PM_OK;
}

pm_code
pm_tag_delete(pm_table *table, const char *name, pm_arena *arena, bool *deleted,
			  int64_t *files_deleted, pm_error *err)
{
	char	   *path;
	pm_snapshot *tagged;
	pm_tag	   *tags;
	int			ntags;
	pm_snapshot **tagged_snapshots;
	int			ntagged;
	int			same = 0;
	pm_code		rc;
	char	   *snap_path;

	*deleted = false;
	*files_deleted = 0;
	PM_TRY(check_tag_name(name, err));
	if (table->io->remove == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	PM_TRY(pm_file_deletion_check_paths(table, arena, err));
	path = tag_path(arena, table->path, name);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_snapshot_load_tag(table->io, table->path, name, arena, &tagged, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);	/* "Tag '{}' doesn't exist." is a warning in Java */
		return PM_OK;
	}
	if (rc != PM_OK)
		return rc;
	snap_path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table->path,
								 (long long) tagged->id);
	if (snap_path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (table->io->exists(table->io, snap_path))
	{
		/* the snapshot still exists: it keeps its files */
		PM_TRY(remove_tag_file(table, path, name, arena, err));
		*deleted = true;
		return PM_OK;
	}
	/* FileIO discovers tags by tag file: read them all before deleting */
	PM_TRY(pm_tag_list(table->io, table->path, arena, &tags, &ntags, err));
	PM_TRY(remove_tag_file(table, path, name, arena, err));
	*deleted = true;
	for (int i = 0; i < ntags; i++)
		same += tags[i].snapshot->id == tagged->id;
	if (same > 1)
		return PM_OK;			/* another tag keeps this snapshot's files */
	PM_TRY(pm_tag_snapshots(tags, ntags, arena, &tagged_snapshots, &ntagged, err));
	return clean_tag_files(table, tagged, tagged_snapshots, ntagged, arena, files_deleted, err);
}

pm_code
pm_tag_rename(pm_fileio *io, const char *table_path, const char *from, const char *to,
			  pm_arena *arena, pm_error *err)
{
	char	   *from_path;
	char	   *to_path;
	uint8_t    *data;
	size_t		len;
	pm_code		rc;

	PM_TRY(check_tag_name(from, err));
	PM_TRY(check_tag_name(to, err));
	if (io->write_new == NULL || io->remove == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	from_path = tag_path(arena, table_path, from);
	to_path = tag_path(arena, table_path, to);
	if (from_path == NULL || to_path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_fileio_read_all(io, from_path, arena, MAX_TAG_FILE_SIZE, &data, &len, err);
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		return pm_fail(err, PM_ERR_NOT_FOUND, "Tag '%s' doesn't exist.", from);
	}
	if (rc != PM_OK)
		return rc;
	if (io->exists(io, to_path))
		return pm_fail(err, PM_ERR_CONFLICT, "Tag '%s' already exists.", to);
	rc = io->write_new(io, to_path, data, len, err);
	if (rc == PM_ERR_CONFLICT)
	{
		pm_error_clear(err);
		return pm_fail(err, PM_ERR_CONFLICT, "Tag '%s' already exists.", to);
	}
	if (rc != PM_OK)
		return rc;
	return io->remove(io, from_path, err);
}
