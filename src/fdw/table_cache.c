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
 * table anew, and that open reports errors.
 *
 * On a local file system (ext4, xfs, btrfs, tmpfs, overlay) the four
 * stat()s are replaced by inotify (one instance per backend): watches on the
 * table directory and its snapshot/ and schema/ directories are set up
 * before the table is opened, so any file created, deleted, renamed or
 * written there afterwards (a commit, a rollback, a schema change, a
 * directory replaced) queues an event. A statement drains the queue (one
 * read()) and reuses an entry no event touched since it was last verified
 * after one stat() of <table>/snapshot: still the directory it watches
 * (a table directory or one above it renamed or replaced changes the
 * inode at that path). An entry an event touched is verified with the four
 * stat()s above (and trusted again when they pass); a watch removed or an
 * event queue overflow sends every entry it may concern there. When the
 * table path is canonical (no symbolic link), the directories above it are
 * watched too (renamed or removed) and the stat() goes: nothing is left to
 * a path walk (a file system mounted over one of them meanwhile is the one
 * change not seen). Without inotify (its per-user limits reached) every
 * check is the four stat()s. Visibility
 * is the same: a commit by any engine that has returned is seen by the
 * next statement. A version pinned by the
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
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "access/xact.h"
#include "utils/memutils.h"

#include "table/point_lookup.h"
#include "table/table.h"

/* Most tables kept; the least recently used beyond it is dropped. */
#define MAX_CACHED_TABLES 64
/* Base scans of more files are the statement's (their memory is not budgeted) */
#define MAX_BASE_FILES 20000

/* Watches per entry: the table directory, snapshot/, schema/, then those above */
#define NDIRWATCH 3
#define MAX_WATCH (NDIRWATCH + 40)

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
	/* inotify watches (-1: none; then every check is the stat() one) */
	int			wd[MAX_WATCH];	/* table dir, snapshot/, schema/, the dirs above */
	bool		watched;		/* the table's three set up */
	bool		whole_path;		/* ... and those above it */
	bool		touched;		/* an event since the last verification */
	dev_t		snapdir_dev;	/* <table>/snapshot as watched */
	ino_t		snapdir_ino;
} CachedTable;

static List *tables = NIL;		/* of CachedTable, most recently used first */
static List *retired = NIL;		/* replaced, freed at transaction end */
static bool callback_registered = false;
static int	notify_fd = -1;		/* the backend's inotify instance; -1: none yet */
static bool notify_failed = false;	/* inotify_init1 failed: stat() checks only */

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

/* <table>/snapshot into buf (truncated paths fail their stat()) */
static const char *
path_of_snapdir(char *buf, size_t size, const char *table_path)
{
	if (snprintf(buf, size, "%s/snapshot", table_path) >= (int) size)
		return "";
	return buf;
}

/*
 * Is path on a local file system, where inotify sees every change? (A
 * network file system changed by another host queues no event.)
 */
static bool
local_fs(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf) != 0)
		return false;
	switch ((unsigned long) sf.f_type)
	{
		case 0xEF53:			/* ext2, ext3, ext4 */
		case 0x58465342:		/* xfs */
		case 0x9123683EUL:		/* btrfs */
		case 0x01021994:		/* tmpfs */
		case 0x794C7630:		/* overlayfs */
			return true;
		default:
			return false;
	}
}

/* Remove the watches in wd[] that no entry in tables uses besides skip. */
static void
release_watches(int *wd, const CachedTable *skip)
{
	for (int i = 0; i < MAX_WATCH; i++)
	{
		bool		shared = false;
		ListCell   *lc;

		if (wd[i] < 0)
			continue;
		foreach(lc, tables)
		{
			const CachedTable *c = lfirst(lc);

			if (c == skip || !c->watched)
				continue;
			for (int j = 0; j < MAX_WATCH; j++)
				shared |= c->wd[j] == wd[i];
		}
		if (!shared && notify_fd >= 0)
			(void) inotify_rm_watch(notify_fd, wd[i]);
		wd[i] = -1;
	}
}

/*
 * Watch the directories above the table (renamed or removed: only when the
 * path is canonical, no symbolic link or "." in it), then the table
 * directory, snapshot/ and schema/, all before the table is read, so that
 * any change after the read queues an event; and note what
 * <table>/snapshot is. False (nothing watched) when inotify or one of the
 * table's directories is not there or the file system is not a local one;
 * *whole_path tells whether the directories above are watched too.
 */
static bool
add_watches(const char *table_path, int *wd, bool *whole_path, dev_t *dev, ino_t *ino)
{
	static const char *const sub[NDIRWATCH] = {"", "/snapshot", "/schema"};
	char		path[MAXPGPATH];
	struct stat st;
	char	   *real;

	for (int i = 0; i < MAX_WATCH; i++)
		wd[i] = -1;
	*whole_path = false;
	if (notify_failed)
		return false;
	if (notify_fd < 0 && (notify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0)
	{
		notify_failed = true;
		return false;
	}
	if (!local_fs(table_path))
		return false;
	/* the directories above, from the parent up to the root */
	if ((real = realpath(table_path, NULL)) != NULL)
	{
		bool		canonical = strcmp(real, table_path) == 0 && strlen(real) < sizeof(path);
		int			k = NDIRWATCH;

		free(real);
		if (canonical)
		{
			strcpy(path, table_path);
			*whole_path = true;
			while (strcmp(path, "/") != 0)
			{
				char	   *slash = strrchr(path, '/');

				if (slash == NULL || k >= MAX_WATCH)
				{
					*whole_path = false;
					break;
				}
				slash[slash == path ? 1 : 0] = '\0';
				if ((wd[k] = inotify_add_watch(notify_fd, path, IN_MOVE_SELF | IN_DELETE_SELF |
											   IN_ONLYDIR | IN_MASK_ADD)) < 0)
				{
					wd[k] = -1;
					*whole_path = false;
					break;
				}
				k++;
			}
			if (!*whole_path)
				release_watches(wd, NULL);
		}
	}
	for (int i = 0; i < NDIRWATCH; i++)
	{
		uint32		mask = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
			IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD;

		if (i > 0)				/* files written, truncated or touched in place */
			mask |= IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB;
		if (snprintf(path, sizeof(path), "%s%s", table_path, sub[i]) >= (int) sizeof(path) ||
			(wd[i] = inotify_add_watch(notify_fd, path, mask)) < 0)
		{
			wd[i] = -1;
			release_watches(wd, NULL);
			*whole_path = false;
			return false;
		}
	}
	if (stat(path_of_snapdir(path, sizeof(path), table_path), &st) != 0)
	{
		release_watches(wd, NULL);
		*whole_path = false;
		return false;
	}
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

/* Mark the entries the event with watch wd (-1: all) concerns. */
static void
mark_touched(int wd, uint32 mask)
{
	ListCell   *lc;

	foreach(lc, tables)
	{
		CachedTable *e = lfirst(lc);

		for (int i = 0; i < MAX_WATCH; i++)
			if (wd < 0 || (mask & IN_Q_OVERFLOW) || e->wd[i] == wd)
			{
				e->touched = true;
				if ((mask & IN_IGNORED) && e->wd[i] == wd)
				{
					/* the watch is gone: stat() checks from now on */
					e->wd[i] = -1;
					e->watched = e->whole_path = false;
				}
			}
	}
}

/* Read every queued event (one read() when there is none). */
static void
drain_events(void)
{
	union
	{
		struct inotify_event ev;
		char		bytes[4096];
	}			buf;

	if (notify_fd < 0)
		return;
	for (;;)
	{
		ssize_t		n = read(notify_fd, buf.bytes, sizeof(buf.bytes));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			mark_touched(-1, 0);	/* cannot tell: verify everything */
		if (n <= 0)
			break;
		for (ssize_t off = 0; off + (ssize_t) sizeof(struct inotify_event) <= n;)
		{
			struct inotify_event ev;

			memcpy(&ev, buf.bytes + off, sizeof(ev));
			mark_touched(ev.wd, ev.mask);
			off += sizeof(struct inotify_event) + ev.len;
		}
	}
}

/*
 * Is e's version still the latest by its watches: no event since it was
 * verified, and <table>/snapshot still the directory watched (known
 * without a stat() when the directories above are watched)?
 */
static bool
unchanged_by_watch(const CachedTable *e)
{
	char		path[MAXPGPATH];
	struct stat st;

	if (!e->watched || e->touched)
		return false;
	return e->whole_path ||
		(stat(path_of_snapdir(path, sizeof(path), e->table_path), &st) == 0 &&
		 st.st_dev == e->snapdir_dev && st.st_ino == e->snapdir_ino);
}

static void
retire(CachedTable *e)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

	release_watches(e->wd, e);
	e->watched = e->whole_path = false;

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
	int			wd[MAX_WATCH];
	dev_t		snapdir_dev = 0;
	ino_t		snapdir_ino = 0;
	bool		watched;
	bool		whole_path;

	/* before the table is read: a change after the read queues an event */
	watched = add_watches(opts->table_path, wd, &whole_path, &snapdir_dev, &snapdir_ino);
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
		release_watches(wd, NULL);
		MemoryContextDelete(cxt);
		PG_RE_THROW();
	}
	PG_END_TRY();
	if (e == NULL)
	{
		release_watches(wd, NULL);
		MemoryContextDelete(cxt);
		return NULL;
	}
	memcpy(e->wd, wd, sizeof(wd));
	e->watched = watched;
	e->whole_path = watched && whole_path;
	e->touched = false;
	e->snapdir_dev = snapdir_dev;
	e->snapdir_ino = snapdir_ino;
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
	drain_events();
	e = find_entry(opts);
	if (e != NULL && version != NULL)
	{
		/*
		 * Another version, or the snapshot expired meanwhile: opened the
		 * usual way (which reports a pinned snapshot that is gone)
		 */
		if (e->version.snapshot_id != version->snapshot_id ||
			e->version.schema_id != version->schema_id ||
			(version->snapshot_id > 0 && !unchanged_by_watch(e) &&
			 !same_file(e->table_path, "snapshot", "snapshot-", version->snapshot_id,
						&e->snapshot_file)))
			return NULL;
	}
	else if (e != NULL && !unchanged_by_watch(e))
	{
		if (still_latest(e))
			e->touched = false; /* verified after the events drained */
		else
		{
			retire(e);
			e = NULL;
		}
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
