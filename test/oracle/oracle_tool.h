/*-------------------------------------------------------------------------
 * oracle_tool.h
 *	  The common start and end of the oracle's C tools that work on one
 *	  table (test/oracle/<dir>/<tool>.c, built by check_prologue.sh's
 *	  check_tool): the usage check, the local file IO, opening the table
 *	  at argv[1] at its latest snapshot, the error line, the close; and
 *	  the "COMPACTED ..." line the compaction checks read; a data file's
 *	  file-index container, for the tools that compare them. Header only
 *	  (check_tool builds one source file); include it as "../oracle_tool.h".
 *-------------------------------------------------------------------------
 */
#ifndef PM_ORACLE_TOOL_H
#define PM_ORACLE_TOOL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "io/fileio.h"
#include "lsm/compact.h"
#include "table/split.h"
#include "table/table.h"

typedef struct oracle_tool
{
	const char *name;			/* the tool's name, for its messages */
	const pm_env *env;
	pm_fileio  *io;
	pm_table   *table;			/* argv[1], opened by oracle_tool_open */
	pm_error	err;
} oracle_tool;

/* Close the table (if open) and the file IO. */
static inline void
oracle_tool_close(oracle_tool *t)
{
	if (t->table != NULL)
		pm_table_close(t->table);
	t->table = NULL;
	if (t->io != NULL)
		pm_local_fileio_destroy(t->io);
	t->io = NULL;
}

/* Print "<name>: <error>" to stderr, close, and give the exit status 1. */
static inline int
oracle_tool_fail(oracle_tool *t)
{
	fprintf(stderr, "%s: %s\n", t->name, t->err.message);
	oracle_tool_close(t);
	return 1;
}

/*
 * Check that argc is within [min_argc, max_argc] (else print "usage: <name>
 * <usage>"), then open the table at argv[1]. False when either fails (the
 * message printed, all closed): the tool exits 1.
 */
static inline bool
oracle_tool_open(oracle_tool *t, const char *name, int argc, char **argv,
				 int min_argc, int max_argc, const char *usage)
{
	pm_table_open_options o;

	memset(t, 0, sizeof(*t));
	t->name = name;
	if (argc < min_argc || argc > max_argc)
	{
		fprintf(stderr, "usage: %s %s\n", name, usage);
		return false;
	}
	t->env = pm_env_default();
	t->io = pm_local_fileio_create(t->env);
	memset(&o, 0, sizeof(o));
	pm_error_clear(&t->err);
	if (pm_table_open(t->env, t->io, argv[1], &o, &t->table, &t->err) != PM_OK)
	{
		t->table = NULL;
		oracle_tool_fail(t);
		return false;
	}
	return true;
}

/* The line the compaction checks read after a pm_table_compact. */
static inline void
oracle_tool_print_compacted(const pm_compact_result *res)
{
	printf("COMPACTED snapshot=%lld buckets=%d in=%d out=%d rows=%lld\n",
		   (long long) res->snapshot_id, res->buckets, res->files_in, res->files_out,
		   (long long) res->rows_out);
}

/*
 * The file-index container of data file m: its embedded bytes, else its
 * ".index" sidecar read into arena, else NULL (*len 0).
 */
static inline const uint8_t *
oracle_file_index(pm_fileio *io, const pm_data_file_meta *m, pm_arena *arena, size_t *len)
{
	uint8_t    *data;
	pm_error	err;

	*len = 0;
	if (m->embedded_file_index != NULL)
	{
		*len = (size_t) m->embedded_file_index_len;
		return m->embedded_file_index;
	}
	for (int x = 0; x < m->nextra_files; x++)
		if (strstr(m->extra_files[x], ".index") != NULL &&
			pm_fileio_read_all(io, m->extra_file_paths[x], arena, 1 << 28, &data, len, &err) == PM_OK)
			return data;
	*len = 0;
	return NULL;
}

#endif							/* PM_ORACLE_TOOL_H */
