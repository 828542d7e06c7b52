/*-------------------------------------------------------------------------
 * maint_tool.c
 *	  Command-line driver of the core's table maintenance (for check.sh, so
 *	  that Java can check what it does to tables Java wrote):
 *
 *	  maint_tool <table> expire <retain_min> <retain_max> <older_than_ms>
 *	  maint_tool <table> tag-create <name> [<snapshot id>]  (the table's tag options)
 *	  maint_tool <table> tag-create-retained <name> <duration>  (the latest)
 *	  maint_tool <table> tag-expire  (TagTimeExpire, now)
 *	  maint_tool <table> tag-delete <name>
 *	  maint_tool <table> tag-rename <name> <new name>
 *	  maint_tool <table> rollback <snapshot id | tag>
 *	  maint_tool <table> orphans <older_than_ms | now> [dry]
 *
 * Prints what was done on stdout; errors on stderr with exit status 1.
 * Built by check.sh against the unit build of libpaimon.
 *-------------------------------------------------------------------------
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/env.h"
#include "common/tz.h"
#include "io/fileio.h"
#include "table/duration.h"
#include "table/orphan_files.h"
#include "table/rollback.h"
#include "table/snapshot_expire.h"
#include "table/tag.h"

#include "../oracle_tool.h"

static int
die(const pm_error *err)
{
	fprintf(stderr, "error: %s%s%s\n", err->message, err->path[0] ? " in " : "", err->path);
	return 1;
}

static bool
stat_file(void *opaque, const char *path, int64_t *mtime, int64_t *size)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	*mtime = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	*size = (int64_t) st.st_size;
	return true;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run command cmd (argv[2]) on table t at path: 0 done, 1 failed, 2 bad usage. */
static int
run_command(pm_fileio *io, pm_arena *arena, pm_table *t, const char *path, const char *cmd,
			int argc, char **argv)
{
	pm_error	err;

	pm_error_clear(&err);
	if (strcmp(cmd, "expire") == 0 && argc == 6)
	{
		pm_expire_options o = {atoi(argv[3]), atoi(argv[4]), 50, strtoll(argv[5], NULL, 10)};
		int			expired;
		int64_t		files;

		if (pm_snapshot_expire(t, &o, arena, &expired, &files, &err) != PM_OK)
			return die(&err);
		printf("expired %d snapshots, %lld files\n", expired, (long long) files);
	}
	else if (strcmp(cmd, "tag-create") == 0 && (argc == 4 || argc == 5))
	{
		int64_t		id;
		pm_tag_options o;

		/* as paimon_create_tag: with the table's tag options */
		if (pm_tag_options_of_schema(pm_table_schema(t), &o, &err) != PM_OK ||
			pm_tag_create_with(io, path, argv[3], argc == 5 ? strtoll(argv[4], NULL, 10) : 0, &o,
							   arena, &id, &err) != PM_OK)
			return die(&err);
		printf("tagged snapshot %lld\n", (long long) id);
	}
	else if (strcmp(cmd, "tag-create-retained") == 0 && argc == 5)
	{
		int64_t		id;
		pm_tag_options o = {true, {0, 0}, false};

		if (pm_parse_duration("time retained", argv[4], &o.time_retained, &err) != PM_OK ||
			pm_tag_create_with(io, path, argv[3], 0, &o, arena, &id, &err) != PM_OK)
			return die(&err);
		printf("tagged snapshot %lld\n", (long long) id);
	}
	else if (strcmp(cmd, "tag-expire") == 0 && argc == 3)
	{
		int			expired;

		if (pm_tag_expire_by_time(pm_env_default(), io, path, pm_local_now_nanos(), arena,
								  &expired, &err) != PM_OK)
			return die(&err);
		printf("expired %d tags\n", expired);
	}
	else if (strcmp(cmd, "tag-delete") == 0 && argc == 4)
	{
		bool		deleted;
		int64_t		files;

		if (pm_tag_delete(t, argv[3], arena, &deleted, &files, &err) != PM_OK)
			return die(&err);
		printf("deleted %d, %lld files\n", deleted, (long long) files);
	}
	else if (strcmp(cmd, "tag-rename") == 0 && argc == 5)
	{
		if (pm_tag_rename(io, path, argv[3], argv[4], arena, &err) != PM_OK)
			return die(&err);
		printf("renamed\n");
	}
	else if (strcmp(cmd, "rollback") == 0 && argc == 4)
	{
		int			removed;
		char	   *end;
		long long	id = strtoll(argv[3], &end, 10);
		pm_code		rc = *end == '\0' && end != argv[3] ?
			pm_rollback_to_snapshot(io, path, id, arena, &removed, &err) :
			pm_rollback_to_tag(io, path, argv[3], arena, &removed, &err);

		if (rc != PM_OK)
			return die(&err);
		printf("removed %d snapshots\n", removed);
	}
	else if (strcmp(cmd, "orphans") == 0 && (argc == 4 || argc == 5))
	{
		pm_orphan_options o = {strcmp(argv[3], "now") == 0 ? now_ms() : strtoll(argv[3], NULL, 10),
		argc == 5, stat_file, NULL};
		pm_orphan_file *files;
		int			n;

		if (pm_orphan_files_clean(t, &o, arena, &files, &n, &err) != PM_OK)
			return die(&err);
		for (int i = 0; i < n; i++)
			printf("%s\n", files[i].path);
	}
	else
	{
		fprintf(stderr, "maint_tool: bad command or arguments\n");
		return 2;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	oracle_tool ot;
	pm_arena   *arena;
	int			rc;

	if (!oracle_tool_open(&ot, "maint_tool", argc, argv, 3, INT_MAX, "<table> <command> [args]"))
		return 1;
	arena = pm_arena_create(ot.env);
	if (arena == NULL)
	{
		oracle_tool_close(&ot);
		return 1;
	}
	rc = run_command(ot.io, arena, ot.table, argv[1], argv[2], argc, argv);
	pm_arena_destroy(arena);
	oracle_tool_close(&ot);
	return rc;
}
