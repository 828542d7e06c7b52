/*-------------------------------------------------------------------------
 * orphan_files.c
 *	  Removing orphan files (orphan_files.h).
 *
 *	1. snapshot/ and changelog/: files that are not snapshot-* /
 *	   changelog-* or a hint, old enough: orphans (cleanSnapshotDir).
 *	2. Candidates: the files, old enough, of manifest/, index/,
 *	   statistics/ and the bucket directories found under
 *	   [data-file.path-directory/] and every data-file.external-paths
 *	   root, descending one "k=v" level per partition key (listFileDirs).
 *	3. Used names: for every snapshot, tag and long-lived changelog, its
 *	   manifest lists, their manifests, its index manifest and index files,
 *	   its statistics file; then the data and extra file names of every
 *	   entry of those manifests (getUsedFiles).
 *	4. Candidates whose name is not used are orphans.
 *-------------------------------------------------------------------------
 */
#include "table/orphan_files.h"

#include <string.h>

#include "common/name_set.h"
#include "table/catalog.h"
#include "table/index_manifest.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/path_map.h"
#include "table/snapshot.h"
#include "table/tag.h"
#include "table/table_int.h"

#define MAX_SNAPSHOT_FILE_SIZE (16 * 1024 * 1024)

typedef struct orphan_state
{
	pm_table   *t;
	const pm_orphan_options *o;
	pm_arena   *arena;
	pm_orphan_file *found;		/* orphans (step 1) and candidates (step 2) */
	const char **names;			/* file name of each */
	int			nfound;
	int			cap;
	int			nsure;			/* found[0..nsure) are orphans already */
	pm_name_set *used;
	pm_name_set *manifests;
} orphan_state;

static pm_code
add_found(orphan_state *st, const char *path, const char *name, int64_t size, pm_error *err)
{
	if (st->nfound == st->cap)
	{
		int			ncap = st->cap ? st->cap * 2 : 64;
		pm_orphan_file *f = pm_arena_realloc(st->arena, st->found,
											 sizeof(*f) * (size_t) st->cap,
											 sizeof(*f) * (size_t) ncap);
		const char **n = pm_arena_realloc(st->arena, st->names, sizeof(*n) * (size_t) st->cap,
										  sizeof(*n) * (size_t) ncap);

		if (f == NULL || n == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		st->found = f;
		st->names = n;
		st->cap = ncap;
	}
	st->found[st->nfound].path = path;
	st->found[st->nfound].size = size;
	st->names[st->nfound] = name;
	st->nfound++;
	return PM_OK;
}

static pm_code
list_dir(orphan_state *st, const char *dir, char ***names, int *n, pm_error *err)
{
	pm_code		rc = st->t->io->list(st->t->io, dir, st->arena, names, n, err);

	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		*names = NULL;
		*n = 0;
		return PM_OK;
	}
	return rc;
}

/* Files of dir that are old enough and pass keep() == false, added to found. */
static pm_code
collect_files(orphan_state *st, const char *dir, bool (*keep) (const char *name),
			  pm_error *err)
{
	char	  **names;
	int			n;

	PM_TRY(list_dir(st, dir, &names, &n, err));
	for (int i = 0; i < n; i++)
	{
		char	   *path;
		int64_t		mtime;
		int64_t		size;

		if (keep != NULL && keep(names[i]))
			continue;
		path = pm_arena_sprintf(st->arena, "%s/%s", dir, names[i]);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (st->t->io->is_dir(st->t->io, path) ||
			!st->o->stat(st->o->stat_opaque, path, &mtime, &size) ||
			mtime >= st->o->older_than_millis)
			continue;
		PM_TRY(add_found(st, path, names[i], size, err));
	}
	return PM_OK;
}

static bool
is_snapshot_file(const char *name)
{
	return strncmp(name, "snapshot-", 9) == 0 || strcmp(name, "EARLIEST") == 0 ||
		strcmp(name, "LATEST") == 0;
}

static bool
is_changelog_file(const char *name)
{
	return strncmp(name, "changelog-", 10) == 0 || strcmp(name, "EARLIEST") == 0 ||
		strcmp(name, "LATEST") == 0;
}

/* listFileDirs: bucket directories `level` partition levels below dir. */
static pm_code
collect_data_dirs(orphan_state *st, const char *dir, int level, pm_error *err)
{
	char	  **names;
	int			n;

	PM_TRY(list_dir(st, dir, &names, &n, err));
	for (int i = 0; i < n; i++)
	{
		char	   *path;

		if (level == 0 ? strncmp(names[i], "bucket-", 7) != 0 : strchr(names[i], '=') == NULL)
			continue;
		path = pm_arena_sprintf(st->arena, "%s/%s", dir, names[i]);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (!st->t->io->is_dir(st->t->io, path))
			continue;
		if (level == 0)
			PM_TRY(collect_files(st, path, NULL, err));
		else
			PM_TRY(collect_data_dirs(st, path, level - 1, err));
	}
	return PM_OK;
}

static pm_code
use(orphan_state *st, const char *name, pm_error *err)
{
	if (name != NULL && !pm_name_set_add_str(st->used, name))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

/* Read a metadata file; not found is "nothing" (*found false), anything else an error. */
static pm_code
tolerate_missing(pm_code rc, bool *found, pm_error *err)
{
	*found = rc == PM_OK;
	if (rc == PM_ERR_NOT_FOUND)
	{
		pm_error_clear(err);
		return PM_OK;
	}
	return rc;
}

/* collectWithoutDataFile: the metadata files of one snapshot. */
static pm_code
collect_snapshot(orphan_state *st, const pm_snapshot *s, pm_error *err)
{
	const char *lists[3] = {s->changelog_manifest_list, s->delta_manifest_list,
	s->base_manifest_list};

	for (int l = 0; l < 3; l++)
	{
		char	   *path;
		pm_manifest_file_meta *metas;
		int			n;
		bool		found;

		if (lists[l] == NULL)
			continue;
		PM_TRY(use(st, lists[l], err));
		if (!pm_catalog_name_valid(lists[l]))
			continue;
		path = pm_arena_sprintf(st->arena, "%s/manifest/%s", st->t->path, lists[l]);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(tolerate_missing(pm_manifest_list_read(st->t->env, st->t->io, path, st->arena,
													  &metas, &n, err), &found, err));
		for (int m = 0; found && m < n; m++)
		{
			PM_TRY(use(st, metas[m].file_name, err));
			if (!pm_name_set_add_str(st->manifests, metas[m].file_name))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
	}
	if (s->index_manifest != NULL)
	{
		char	   *path = pm_arena_sprintf(st->arena, "%s/manifest/%s", st->t->path,
											s->index_manifest);
		pm_index_manifest_entry *entries;
		int			n;
		bool		found;

		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (st->t->io->exists(st->t->io, path))
		{
			PM_TRY(use(st, s->index_manifest, err));
			PM_TRY(tolerate_missing(pm_index_manifest_read(st->t->env, st->t->io, path, st->arena,
														   &entries, &n, err), &found, err));
			for (int i = 0; found && i < n; i++)
				PM_TRY(use(st, entries[i].file_name, err));
		}
	}
	return use(st, s->statistics, err);
}

/* Every snapshot-<id> (or changelog-<id>) of dir that can still be read. */
static pm_code
collect_snapshot_dir(orphan_state *st, const char *dir, const char *prefix, pm_error *err)
{
	char	  **names;
	int			n;

	PM_TRY(list_dir(st, dir, &names, &n, err));
	for (int i = 0; i < n; i++)
	{
		int64_t		id;
		char	   *path;
		uint8_t    *data;
		size_t		len;
		pm_snapshot *s;
		bool		found;

		if (!pm_versioned_name_id(names[i], prefix, &id))
			continue;
		PM_TRY(pm_check_interrupts(st->t->env, err));
		path = pm_arena_sprintf(st->arena, "%s/%s", dir, names[i]);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(tolerate_missing(pm_fileio_read_all(st->t->io, path, st->arena,
												   MAX_SNAPSHOT_FILE_SIZE, &data, &len, err),
								&found, err));
		if (!found)
			continue;			/* expired meanwhile */
		if (pm_snapshot_parse((const char *) data, len, st->arena, &s, err) != PM_OK)
		{
			pm_error_set_path(err, path);
			return err->code;
		}
		PM_TRY(collect_snapshot(st, s, err));
	}
	return PM_OK;
}

/* getUsedFiles: the data and extra files of every manifest collected. */
static pm_code
collect_data_files(orphan_state *st, pm_error *err)
{
	for (int m = 0; m < pm_name_set_count(st->manifests); m++)
	{
		const char *name = pm_name_set_key(st->manifests, m, NULL);
		char	   *path;
		pm_manifest_entry *entries = NULL;
		int			count = 0;
		int			cap = 0;
		bool		found;

		PM_TRY(pm_check_interrupts(st->t->env, err));
		if (!pm_catalog_name_valid(name))
			continue;
		path = pm_arena_sprintf(st->arena, "%s/manifest/%s", st->t->path, name);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(tolerate_missing(pm_manifest_entries_read(st->t->env, st->t->io, path, st->arena,
														 &entries, &count, &cap, err),
								&found, err));
		for (int i = 0; found && i < count; i++)
		{
			PM_TRY(use(st, entries[i].file.file_name, err));
			for (int x = 0; x < entries[i].file.nextra_files; x++)
				PM_TRY(use(st, entries[i].file.extra_files[x], err));
		}
	}
	return PM_OK;
}

/* Data directories: the table's (or data-file.path-directory) and the external roots. */
static pm_code
collect_all_data_dirs(orphan_state *st, pm_error *err)
{
	const char *data_dir = pm_schema_option(st->t->schema, "data-file.path-directory");
	const char *external = pm_schema_option(st->t->schema, "data-file.external-paths");
	char	   *root = data_dir ? pm_arena_sprintf(st->arena, "%s/%s", st->t->path, data_dir) :
		st->t->path;

	if (root == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(collect_data_dirs(st, root, st->t->npartition, err));
	if (external != NULL)
	{
		char	   *copy = pm_arena_strdup(st->arena, external);
		char	   *save = NULL;

		if (copy == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		{
			char	   *local;

			while (*tok == ' ')
				tok++;
			if (*tok == '\0')
				continue;
			PM_TRY(pm_path_map_resolve(st->t->path_map, tok, st->arena, &local, err));
			PM_TRY(collect_data_dirs(st, local, st->t->npartition, err));
		}
	}
	return PM_OK;
}

static pm_code
refuse_branches(orphan_state *st, pm_error *err)
{
	char	   *dir = pm_arena_sprintf(st->arena, "%s/branch", st->t->path);
	char	  **names;
	int			n;

	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(list_dir(st, dir, &names, &n, err));
	for (int i = 0; i < n; i++)
		if (strncmp(names[i], "branch-", 7) == 0)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "removing orphan files of a table with branches is not supported (branch \"%.100s\")",
						   names[i] + 7);
	return PM_OK;
}

pm_code
pm_orphan_files_clean(pm_table *table, const pm_orphan_options *o, pm_arena *arena,
					  pm_orphan_file **files, int *nfiles, pm_error *err)
{
	orphan_state st;
	pm_tag	   *tags;
	int			ntags;
	char	   *dir;
	int			n = 0;
	pm_orphan_file *out;

	*files = NULL;
	*nfiles = 0;
	if (o->stat == NULL)
		return pm_fail(err, PM_ERR_INVALID, "no stat function for orphan files");
	if (!o->dry_run && table->io->remove == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	memset(&st, 0, sizeof(st));
	st.t = table;
	st.o = o;
	st.arena = arena;
	st.used = pm_name_set_create(arena);
	st.manifests = pm_name_set_create(arena);
	if (st.used == NULL || st.manifests == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(refuse_branches(&st, err));

	/* 1. the snapshot and changelog directories */
	if ((dir = pm_arena_sprintf(arena, "%s/snapshot", table->path)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(collect_files(&st, dir, is_snapshot_file, err));
	if ((dir = pm_arena_sprintf(arena, "%s/changelog", table->path)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(collect_files(&st, dir, is_changelog_file, err));
	st.nsure = st.nfound;

	/* 2. candidates */
	{
		static const char *const meta_dirs[] = {"manifest", "index", "statistics"};

		for (int i = 0; i < 3; i++)
		{
			if ((dir = pm_arena_sprintf(arena, "%s/%s", table->path, meta_dirs[i])) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			PM_TRY(collect_files(&st, dir, NULL, err));
		}
	}
	PM_TRY(collect_all_data_dirs(&st, err));

	/* 3. used names */
	if ((dir = pm_arena_sprintf(arena, "%s/snapshot", table->path)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(collect_snapshot_dir(&st, dir, "snapshot-", err));
	PM_TRY(pm_tag_list(table->io, table->path, arena, &tags, &ntags, err));
	for (int i = 0; i < ntags; i++)
		PM_TRY(collect_snapshot(&st, tags[i].snapshot, err));
	if ((dir = pm_arena_sprintf(arena, "%s/changelog", table->path)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(collect_snapshot_dir(&st, dir, "changelog-", err));
	PM_TRY(collect_data_files(&st, err));

	/* 4. the orphans */
	out = pm_arena_zalloc(arena, sizeof(pm_orphan_file) * (size_t) (st.nfound + 1));
	if (out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < st.nfound; i++)
	{
		if (i >= st.nsure && pm_name_set_contains_str(st.used, st.names[i]))
			continue;
		out[n++] = st.found[i];
		if (!o->dry_run)
			pm_fileio_remove_quietly(table->io, st.found[i].path);
	}
	*files = out;
	*nfiles = n;
	return PM_OK;
}
