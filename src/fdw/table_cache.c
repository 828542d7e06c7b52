/*-------------------------------------------------------------------------
 * table_cache.c
 *	  The latest version of each Paimon table a backend read, kept across
 *	  statements, and a cheap check that it is still the latest.
 *
 * Opening a table at its latest snapshot reads the LATEST hint, lists the
 * schema directory and reads and parses the schema and snapshot JSON: per
 * statement, a tenth of a prepared point lookup. Here the opened table is
 * kept (in a context of its own) with the identity of its snapshot and
 * schema files (device, inode, size, mtime). A statement then reuses it
 * when
 *	 - snapshot-<id+1> and schema-<schema id+1> do not exist (Paimon numbers
 *	   both without gaps and commits a new one by creating that file, so a
 *	   commit by any engine is seen by the very next statement), and
 *	 - snapshot-<id> and schema-<schema id> are the very files it read (a
 *	   rollback deletes or rewrites them),
 * four stat() calls; anything else (a failed stat included) opens the
 * table anew, and that open reports errors. A version pinned by the
 * statement or transaction (snapshot_pin.c) or handed to a parallel worker
 * reuses the entry when it is that version and its snapshot file is still
 * the one it read (one stat(): expiry may have removed it). Statements get a copy of the
 * table object (pm_table_copy) on their own env and FileIO, so errors and
 * cancels release what they opened as before; the snapshot and schemas
 * stay in the entry. An entry replaced by a newer version may still be
 * read by a scan of the running transaction: it is freed when the
 * transaction ends. Off when paimon_fdw.metadata_cache_size is 0.
 *
 * The entry also keeps the base scan of point lookups whose quals leave
 * nothing to prune without run-time values (a prepared "WHERE pk = $1", a
 * lookup join): the files of the version, planned once per version instead
 * of per statement. Each lookup plans its own scan from it on the
 * statement's table (pm_point_lookup_plan_on). A base planned with quals
 * of their own, or of more than MAX_BASE_FILES files, is the statement's,
 * as before.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <errno.h>
#include <sys/stat.h>

#include "access/xact.h"
#include "utils/memutils.h"

#include "table/point_lookup.h"
#include "table/table.h"

/* Most tables kept; the least recently used beyond it is dropped. */
#define MAX_CACHED_TABLES 64
/* Base scans of more files are the statement's (their memory is not budgeted) */
#define MAX_BASE_FILES 20000

/* What identifies one version of a file: it was not replaced. */
typedef struct FileId
{
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	struct timespec mtime;
} FileId;

typedef struct CachedTable
{
	MemoryContext cxt;			/* everything of the entry */
	char	   *table_path;
	char	   *path_map;		/* external_path_map option, or NULL */
	pm_table   *table;
	pm_table_version version;
	FileId		snapshot_file;	/* snapshot-<id> (id > 0) */
	FileId		schema_file;	/* schema-<schema id> */
	pm_scan    *base;			/* the files of the version, planned without quals, or NULL */
	pm_scan_options base_options;	/* ... with these */
	bool		base_too_big;	/* more than MAX_BASE_FILES: not kept */
} CachedTable;

static List *tables = NIL;		/* of CachedTable, most recently used first */
static List *retired = NIL;		/* replaced, freed at transaction end */
static bool callback_registered = false;

static void
free_entry(CachedTable *e)
{
	MemoryContextDelete(e->cxt);
}

static void
free_retired(XactEvent event, void *arg)
{
	ListCell   *lc;

	switch (event)
	{
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			foreach(lc, retired)
				free_entry(lfirst(lc));
			list_free(retired);
			retired = NIL;
			break;
		default:
			break;
	}
}

static void
retire(CachedTable *e)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

	tables = list_delete_ptr(tables, e);
	retired = lappend(retired, e);
	MemoryContextSwitchTo(old);
}

/* stat() of <table>/<dir>/<prefix><id>: 0, or the errno */
static int
stat_versioned(const char *table_path, const char *dir, const char *prefix, int64 id,
			   struct stat *st)
{
	char		path[MAXPGPATH];

	if (snprintf(path, sizeof(path), "%s/%s/%s" INT64_FORMAT, table_path, dir, prefix, id) >=
		(int) sizeof(path))
		return ENAMETOOLONG;
	return stat(path, st) == 0 ? 0 : errno;
}

static bool
file_id(const char *table_path, const char *dir, const char *prefix, int64 id, FileId *out)
{
	struct stat st;

	if (stat_versioned(table_path, dir, prefix, id, &st) != 0)
		return false;
	memset(out, 0, sizeof(FileId));
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	out->size = st.st_size;
	out->mtime = st.st_mtim;
	return true;
}

static bool
same_file(const char *table_path, const char *dir, const char *prefix, int64 id,
		  const FileId *want)
{
	FileId		now;

	return file_id(table_path, dir, prefix, id, &now) &&
		now.dev == want->dev && now.ino == want->ino && now.size == want->size &&
		now.mtime.tv_sec == want->mtime.tv_sec && now.mtime.tv_nsec == want->mtime.tv_nsec;
}

static bool
absent(const char *table_path, const char *dir, const char *prefix, int64 id)
{
	struct stat st;

	return stat_versioned(table_path, dir, prefix, id, &st) == ENOENT;
}

/* Is e's version still the table's latest? */
static bool
still_latest(const CachedTable *e)
{
	const char *p = e->table_path;

	return absent(p, "snapshot", "snapshot-", e->version.snapshot_id + 1) &&
		(e->version.snapshot_id == 0 ||
		 same_file(p, "snapshot", "snapshot-", e->version.snapshot_id, &e->snapshot_file)) &&
		absent(p, "schema", "schema-", e->version.schema_id + 1) &&
		same_file(p, "schema", "schema-", e->version.schema_id, &e->schema_file);
}

/* Open the latest version of the table into a new entry; NULL if that fails. */
static CachedTable *
create_entry(const PaimonFdwTableOptions *opts)
{
	MemoryContext cxt = AllocSetContextCreate(TopMemoryContext, "paimon_fdw cached table",
											  ALLOCSET_SMALL_SIZES);
	CachedTable *e = NULL;

	PG_TRY();
	{
		pm_env	   *env = pmfdw_env_create(cxt);
		pm_fileio  *io = pmfdw_fileio_create(cxt);
		pm_table_open_options o = {0};
		pm_table   *t;
		pm_error	err;

		o.external_path_map = opts->external_path_map;
		pm_error_clear(&err);
		if (pm_table_open(env, io, opts->table_path, &o, &t, &err) == PM_OK)
		{
			e = MemoryContextAllocZero(cxt, sizeof(CachedTable));
			e->cxt = cxt;
			e->table = t;
			e->version = pm_table_get_version(t);
			e->table_path = MemoryContextStrdup(cxt, opts->table_path);
			e->path_map = opts->external_path_map != NULL
				? MemoryContextStrdup(cxt, opts->external_path_map) : NULL;
			/* the files it was read from, as they are now */
			if ((e->version.snapshot_id > 0 &&
				 !file_id(e->table_path, "snapshot", "snapshot-", e->version.snapshot_id,
						  &e->snapshot_file)) ||
				!file_id(e->table_path, "schema", "schema-", e->version.schema_id,
						 &e->schema_file))
				e = NULL;
			else
				/* checked once per entry (an unsupported option fails every scan's plan) */
				(void) pm_table_check_options(t, &err);
		}
	}
	PG_CATCH();
	{
		MemoryContextDelete(cxt);
		PG_RE_THROW();
	}
	PG_END_TRY();
	if (e == NULL)
		MemoryContextDelete(cxt);
	return e;
}

static bool
same_path_map(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static CachedTable *
find_entry(const PaimonFdwTableOptions *opts)
{
	ListCell   *lc;

	foreach(lc, tables)
	{
		CachedTable *c = lfirst(lc);

		if (strcmp(c->table_path, opts->table_path) == 0 &&
			same_path_map(c->path_map, opts->external_path_map))
			return c;
	}
	return NULL;
}

static bool
same_options(const pm_scan_options *a, const pm_scan_options *b)
{
	return a->prune_partitions == b->prune_partitions && a->prune_stats == b->prune_stats &&
		a->prune_file_index == b->prune_file_index &&
		a->prune_row_groups == b->prune_row_groups && a->prune_pages == b->prune_pages;
}

pm_scan *
pmfdw_table_cache_base_scan(const PaimonFdwTableOptions *opts, const pm_table *table,
							const pm_scan_options *options)
{
	CachedTable *e = pmfdw_metadata_cache_kb != 0 ? find_entry(opts) : NULL;
	pm_scan    *base = NULL;
	pm_code		rc = PM_OK;

	/* only for a copy of the entry's table (the same snapshot and schema objects) */
	if (e == NULL || pm_table_schema(e->table) != pm_table_schema(table) ||
		pm_table_snapshot_id(e->table) != pm_table_snapshot_id(table))
		return NULL;
	if (e->base != NULL)
		return same_options(&e->base_options, options) ? e->base : NULL;
	if (e->base_too_big)
		return NULL;
	PG_TRY();
	{
		pm_error	err;

		pm_error_clear(&err);
		rc = pm_table_scan_plan_with(e->table, NULL, options, &base, &err);
	}
	PG_CATCH();
	{
		/* whatever the entry's FileIO holds goes with it at transaction end */
		retire(e);
		PG_RE_THROW();
	}
	PG_END_TRY();
	if (rc != PM_OK)
	{
		retire(e);				/* the statement plans its own and reports */
		return NULL;
	}
	if (pm_scan_get_stats(base)->files_selected > MAX_BASE_FILES)
	{
		pm_scan_free(base);
		e->base_too_big = true;
		return NULL;
	}
	e->base = base;
	e->base_options = *options;
	return base;
}

pm_table *
pmfdw_table_cache_open(const PaimonFdwTableOptions *opts, pm_env *env, pm_fileio *io,
					   const pm_table_version *version)
{
	CachedTable *e;
	pm_table   *t;
	pm_error	err;
	MemoryContext old;

	if (pmfdw_metadata_cache_kb == 0)
		return NULL;
	if (!callback_registered)
	{
		RegisterXactCallback(free_retired, NULL);
		callback_registered = true;
	}
	e = find_entry(opts);
	if (e != NULL && version != NULL)
	{
		/*
		 * Another version, or the snapshot expired meanwhile: opened the
		 * usual way (which reports a pinned snapshot that is gone)
		 */
		if (e->version.snapshot_id != version->snapshot_id ||
			e->version.schema_id != version->schema_id ||
			(version->snapshot_id > 0 &&
			 !same_file(e->table_path, "snapshot", "snapshot-", version->snapshot_id,
						&e->snapshot_file)))
			return NULL;
	}
	else if (e != NULL && !still_latest(e))
	{
		retire(e);
		e = NULL;
	}
	if (e == NULL)
	{
		if (version != NULL || (e = create_entry(opts)) == NULL)
			return NULL;
		if (list_length(tables) >= MAX_CACHED_TABLES)
			retire(llast(tables));
	}
	old = MemoryContextSwitchTo(TopMemoryContext);
	tables = list_delete_ptr(tables, e);
	tables = lcons(e, tables);
	MemoryContextSwitchTo(old);
	pm_error_clear(&err);
	if (pm_table_copy(e->table, env, io, &t, &err) != PM_OK)
		pmfdw_error(&err);
	return t;
}
