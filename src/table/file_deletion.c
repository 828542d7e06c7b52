/*-------------------------------------------------------------------------
 * file_deletion.c
 *	  Deleting the files of snapshots that go away (file_deletion.h).
 *-------------------------------------------------------------------------
 */
#include "table/file_deletion.h"

#include <stdio.h>
#include <string.h>

#include "table/catalog.h"
#include "table/data_file_path.h"
#include "table/index_manifest.h"
#include "table/manifest_list.h"
#include "table/path_map.h"
#include "table/table_int.h"

void
pm_file_deletion_init(pm_file_deletion *fd, pm_table *table, pm_arena *arena)
{
	memset(fd, 0, sizeof(*fd));
	fd->table = table;
	fd->arena = arena;
}

void
pm_file_deletion_remove(pm_file_deletion *fd, const char *path)
{
	pm_fileio  *io = fd->table->io;
	pm_error	ignored;

	pm_error_clear(&ignored);
	if (path != NULL && io->remove != NULL && io->exists(io, path) &&
		io->remove(io, path, &ignored) == PM_OK)
		fd->files_deleted++;
}

pm_code
pm_file_deletion_check_paths(pm_table *table, pm_arena *arena, pm_error *err)
{
	const char *roots = pm_schema_option(table->schema, "data-file.external-paths");
	char	   *copy;
	char	   *save = NULL;

	if (roots == NULL)
		return PM_OK;
	copy = pm_arena_strdup(arena, roots);
	if (copy == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *local;

		while (*tok == ' ')
			tok++;
		if (*tok != '\0')
			PM_TRY(pm_path_map_resolve(table->path_map, tok, arena, &local, err));
	}
	return PM_OK;
}

char *
pm_file_deletion_data_key(pm_arena *arena, const pm_manifest_entry *e)
{
	static const char hex[] = "0123456789abcdef";
	size_t		nlen = strlen(e->file.file_name);
	char	   *key = pm_arena_alloc(arena, (size_t) e->partition_len * 2 + nlen + 16);
	char	   *p;

	if (key == NULL)
		return NULL;
	p = key + sprintf(key, "%d/", (int) e->bucket);
	for (int32_t i = 0; i < e->partition_len; i++)
	{
		*p++ = hex[e->partition[i] >> 4];
		*p++ = hex[e->partition[i] & 15];
	}
	*p++ = '/';
	memcpy(p, e->file.file_name, nlen + 1);
	return key;
}

static char *
manifest_path(pm_file_deletion *fd, const char *name)
{
	if (name == NULL || !pm_catalog_name_valid(name))
		return NULL;
	return pm_arena_sprintf(fd->arena, "%s/manifest/%s", fd->table->path, name);
}

/*
 * Java tryReadManifestList: a list that cannot be read (gone, damaged)
 * counts as empty; only out-of-memory and cancel are errors.
 */
static pm_code
try_read_list(pm_file_deletion *fd, const char *list, pm_manifest_file_meta **metas, int *n,
			  pm_error *err)
{
	char	   *path = manifest_path(fd, list);
	pm_error	rerr;
	pm_code		rc;

	*metas = NULL;
	*n = 0;
	if (path == NULL)
		return list != NULL && pm_catalog_name_valid(list) ?
			pm_fail(err, PM_ERR_NOMEM, "out of memory") : PM_OK;
	pm_error_clear(&rerr);
	rc = pm_manifest_list_read(pm_arena_env(fd->arena), fd->table->io, path, fd->arena, metas, n,
							   &rerr);
	if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
	{
		*err = rerr;
		return rc;
	}
	if (rc != PM_OK)
	{
		*metas = NULL;
		*n = 0;
	}
	return PM_OK;
}

/* The entries of the manifests of a list, in order (manifest errors are returned). */
static pm_code
read_entries(pm_file_deletion *fd, const pm_manifest_file_meta *metas, int n,
			 pm_manifest_entry **entries, int *count, pm_error *err)
{
	int			cap = 0;

	*entries = NULL;
	*count = 0;
	for (int i = 0; i < n; i++)
	{
		char	   *path = manifest_path(fd, metas[i].file_name);

		if (path == NULL)
			return pm_fail(err, PM_ERR_CORRUPT, "manifest list names an invalid manifest \"%.200s\"",
						   metas[i].file_name);
		PM_TRY(pm_manifest_entries_read(pm_arena_env(fd->arena), fd->table->io, path, fd->arena,
										entries, count, &cap, err));
	}
	return PM_OK;
}

/* base + delta manifests of snapshot merged into its live files (readMergedDataFiles). */
static pm_code
live_entries(pm_file_deletion *fd, const pm_snapshot *s, pm_manifest_entry ***live, int *nlive,
			 pm_error *err)
{
	pm_manifest_file_meta *all = NULL;
	int			nall = 0;
	const char *lists[2] = {s->base_manifest_list, s->delta_manifest_list};
	pm_manifest_entry *entries;
	int			count;

	for (int l = 0; l < 2; l++)
	{
		pm_manifest_file_meta *metas;
		int			n;
		char	   *path = manifest_path(fd, lists[l]);
		pm_manifest_file_meta *grown;

		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		/* readDataManifests: failures are errors here (skipping sets) */
		PM_TRY(pm_manifest_list_read(pm_arena_env(fd->arena), fd->table->io, path, fd->arena,
									 &metas, &n, err));
		grown = pm_arena_realloc(fd->arena, all, sizeof(*all) * (size_t) nall,
								 sizeof(*all) * (size_t) (nall + n + 1));
		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		all = grown;
		if (n > 0)
			memcpy(all + nall, metas, sizeof(*all) * (size_t) n);
		nall += n;
	}
	PM_TRY(read_entries(fd, all, nall, &entries, &count, err));
	*live = NULL;
	*nlive = 0;
	if (count == 0)
		return PM_OK;
	return pm_manifest_entries_merge(entries, count, fd->arena, live, nlive, err);
}

pm_code
pm_file_deletion_add_live_files(pm_file_deletion *fd, const pm_snapshot *snapshot,
								pm_name_set *set, pm_error *err)
{
	pm_manifest_entry **live;
	int			nlive;

	PM_TRY(live_entries(fd, snapshot, &live, &nlive, err));
	for (int i = 0; i < nlive; i++)
	{
		char	   *key = pm_file_deletion_data_key(fd->arena, live[i]);

		if (key == NULL || !pm_name_set_add_str(set, key))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}

/* Delete an entry's data file and its extra files. */
static pm_code
delete_data_file(pm_file_deletion *fd, const pm_manifest_entry *e, pm_error *err)
{
	char	   *path;
	char	   *dir;

	PM_TRY(pm_data_file_local_path(fd->table, e->partition, e->partition_len, e->bucket,
								   e->file.file_name, e->file.external_path, fd->arena, &path,
								   &dir, err));
	pm_file_deletion_remove(fd, path);
	for (int x = 0; x < e->file.nextra_files; x++)
	{
		char	   *extra;

		if (!pm_catalog_name_valid(e->file.extra_files[x]))
			return pm_fail(err, PM_ERR_CORRUPT, "manifest names an invalid extra file \"%.200s\"",
						   e->file.extra_files[x]);
		extra = pm_arena_sprintf(fd->arena, "%s/%s", dir, e->file.extra_files[x]);
		if (extra == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		pm_file_deletion_remove(fd, extra);
	}
	return PM_OK;
}

static bool
skipped(pm_file_deletion *fd, const pm_name_set *skip, const pm_manifest_entry *e, bool *nomem)
{
	char	   *key;

	if (skip == NULL)
		return false;
	key = pm_file_deletion_data_key(fd->arena, e);
	if (key == NULL)
	{
		*nomem = true;
		return true;
	}
	return pm_name_set_contains_str(skip, key);
}

pm_code
pm_file_deletion_clean_unused_data_files(pm_file_deletion *fd, const char *list,
										 const pm_name_set *skip, pm_error *err)
{
	pm_manifest_file_meta *metas;
	int			n;
	pm_manifest_entry *entries = NULL;
	int			count = 0;
	pm_name_set *paths;
	const pm_manifest_entry **by_path;
	pm_error	rerr;
	pm_code		rc;
	bool		nomem = false;

	PM_TRY(try_read_list(fd, list, &metas, &n, err));
	pm_error_clear(&rerr);
	rc = read_entries(fd, metas, n, &entries, &count, &rerr);
	if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
	{
		*err = rerr;
		return rc;
	}
	if (rc != PM_OK)
		return PM_OK;			/* "Failed to read some manifest files. Cancel deletion." */
	paths = pm_name_set_create(fd->arena);
	by_path = pm_arena_zalloc(fd->arena, sizeof(*by_path) * (size_t) (count + 1));
	if (paths == NULL || by_path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	/* a DELETE may be undone by an ADD of the same path (an upgrade) */
	for (int i = 0; i < count; i++)
	{
		const pm_manifest_entry *e = &entries[i];
		char	   *path;
		char	   *dir;
		int			idx;

		PM_TRY(pm_data_file_local_path(fd->table, e->partition, e->partition_len, e->bucket,
									   e->file.file_name, e->file.external_path, fd->arena,
									   &path, &dir, err));
		if (e->kind == PM_FILE_KIND_ADD)
		{
			idx = pm_name_set_find(paths, path, strlen(path));
			if (idx >= 0)
				by_path[idx] = NULL;
			continue;
		}
		if (!pm_name_set_add(paths, path, strlen(path), &idx))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		by_path[idx] = e;
	}
	for (int i = 0; i < pm_name_set_count(paths); i++)
	{
		if (by_path[i] == NULL || skipped(fd, skip, by_path[i], &nomem))
			continue;
		PM_TRY(delete_data_file(fd, by_path[i], err));
	}
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

pm_code
pm_file_deletion_clean_live_data_files(pm_file_deletion *fd, const pm_snapshot *snapshot,
									   const pm_name_set *skip, pm_error *err)
{
	pm_manifest_entry **live;
	int			nlive;
	pm_error	rerr;
	pm_code		rc;
	bool		nomem = false;

	pm_error_clear(&rerr);
	rc = live_entries(fd, snapshot, &live, &nlive, &rerr);
	if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
	{
		*err = rerr;
		return rc;
	}
	if (rc != PM_OK)
		return PM_OK;			/* "Skip data file clean for the tag" */
	for (int i = 0; i < nlive; i++)
	{
		if (skipped(fd, skip, live[i], &nomem))
			continue;
		PM_TRY(delete_data_file(fd, live[i], err));
	}
	if (nomem)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

pm_code
pm_file_deletion_delete_added_data_files(pm_file_deletion *fd, const char *list, pm_error *err)
{
	pm_manifest_file_meta *metas;
	int			n;

	PM_TRY(try_read_list(fd, list, &metas, &n, err));
	for (int m = 0; m < n; m++)
	{
		pm_manifest_entry *entries = NULL;
		int			count = 0;
		pm_error	rerr;
		pm_code		rc;

		pm_error_clear(&rerr);
		rc = read_entries(fd, &metas[m], 1, &entries, &count, &rerr);
		if (rc == PM_ERR_NOMEM || rc == PM_ERR_CANCELED)
		{
			*err = rerr;
			return rc;
		}
		if (rc != PM_OK)
			continue;			/* "Failed to read manifest ... Ignore it." */
		for (int i = 0; i < count; i++)
		{
			char	   *path;
			char	   *dir;

			if (entries[i].kind != PM_FILE_KIND_ADD)
				continue;
			PM_TRY(pm_data_file_local_path(fd->table, entries[i].partition,
										   entries[i].partition_len, entries[i].bucket,
										   entries[i].file.file_name,
										   entries[i].file.external_path, fd->arena, &path,
										   &dir, err));
			pm_file_deletion_remove(fd, path);
		}
	}
	return PM_OK;
}

static pm_code
index_manifest_entries(pm_file_deletion *fd, const char *name, pm_index_manifest_entry **out,
					   int *n, pm_error *err)
{
	char	   *path = manifest_path(fd, name);

	if (path == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "snapshot names an invalid index manifest");
	return pm_index_manifest_read(pm_arena_env(fd->arena), fd->table->io, path, fd->arena, out,
								  n, err);
}

static bool
add_name(pm_name_set *set, const char *name)
{
	return name == NULL || pm_name_set_add_str(set, name);
}

pm_code
pm_file_deletion_manifest_skipping_set(pm_file_deletion *fd, pm_snapshot *const *snapshots,
									   int n, pm_name_set *set, pm_error *err)
{
	for (int s = 0; s < n; s++)
	{
		const pm_snapshot *snap = snapshots[s];
		const char *lists[2] = {snap->base_manifest_list, snap->delta_manifest_list};

		for (int l = 0; l < 2; l++)
		{
			pm_manifest_file_meta *metas;
			int			nm;
			char	   *path = manifest_path(fd, lists[l]);

			if (path == NULL || !add_name(set, lists[l]))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			PM_TRY(pm_manifest_list_read(pm_arena_env(fd->arena), fd->table->io, path, fd->arena,
										 &metas, &nm, err));
			for (int m = 0; m < nm; m++)
				if (!add_name(set, metas[m].file_name))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		if (snap->index_manifest != NULL)
		{
			pm_index_manifest_entry *entries;
			int			ne;

			if (!add_name(set, snap->index_manifest))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			PM_TRY(index_manifest_entries(fd, snap->index_manifest, &entries, &ne, err));
			for (int i = 0; i < ne; i++)
				if (!add_name(set, entries[i].file_name))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		if (!add_name(set, snap->statistics))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}

/* Java cleanUnusedManifestList. */
static pm_code
clean_manifest_list(pm_file_deletion *fd, const char *list, pm_name_set *skip, pm_error *err)
{
	pm_manifest_file_meta *metas;
	int			n;

	if (list == NULL)
		return PM_OK;
	PM_TRY(try_read_list(fd, list, &metas, &n, err));
	for (int m = 0; m < n; m++)
	{
		if (pm_name_set_contains_str(skip, metas[m].file_name))
			continue;
		pm_file_deletion_remove(fd, manifest_path(fd, metas[m].file_name));
		if (!pm_name_set_add_str(skip, metas[m].file_name))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	if (!pm_name_set_contains_str(skip, list))
		pm_file_deletion_remove(fd, manifest_path(fd, list));
	return PM_OK;
}

pm_code
pm_file_deletion_clean_unused_manifests(pm_file_deletion *fd, const pm_snapshot *snapshot,
										pm_name_set *skip, bool delete_lists,
										bool delete_changelog, pm_error *err)
{
	if (delete_lists)
	{
		PM_TRY(clean_manifest_list(fd, snapshot->base_manifest_list, skip, err));
		PM_TRY(clean_manifest_list(fd, snapshot->delta_manifest_list, skip, err));
	}
	if (delete_changelog)
		PM_TRY(clean_manifest_list(fd, snapshot->changelog_manifest_list, skip, err));
	if (snapshot->index_manifest != NULL)
	{
		pm_index_manifest_entry *entries;
		int			ne;
		pm_error	rerr;
		pm_code		rc;

		pm_error_clear(&rerr);
		rc = index_manifest_entries(fd, snapshot->index_manifest, &entries, &ne, &rerr);
		if (rc == PM_ERR_NOT_FOUND)
			ne = 0;				/* deleted by another snapshot's clean */
		else if (rc != PM_OK)
		{
			*err = rerr;
			return rc;
		}
		for (int i = 0; rc == PM_OK && i < ne; i++)
		{
			char	   *path;

			if (pm_name_set_contains_str(skip, entries[i].file_name))
				continue;
			PM_TRY(pm_index_file_local_path(fd->table, entries[i].partition,
											entries[i].partition_len, entries[i].bucket,
											entries[i].file_name, entries[i].external_path,
											fd->arena, &path, err));
			pm_file_deletion_remove(fd, path);
		}
		if (rc == PM_OK && !pm_name_set_contains_str(skip, snapshot->index_manifest))
			pm_file_deletion_remove(fd, manifest_path(fd, snapshot->index_manifest));
	}
	if (snapshot->statistics != NULL && !pm_name_set_contains_str(skip, snapshot->statistics) &&
		pm_catalog_name_valid(snapshot->statistics))
		pm_file_deletion_remove(fd, pm_arena_sprintf(fd->arena, "%s/statistics/%s",
													 fd->table->path, snapshot->statistics));
	return PM_OK;
}
