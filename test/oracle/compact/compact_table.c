/*-------------------------------------------------------------------------
 * compact_table.c
 *	  compact_table <table path> [partition]
 *	  Full compaction of a table with the core's pm_table_compact (the work
 *	  of SQL paimon_compact); prints "COMPACTED snapshot=<id> buckets=<n>
 *	  in=<files> out=<files> rows=<n>", or the error and exits 1.
 *	  Driven by compact_check.sh; built against the unit build of
 *	  libpaimon.a.
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "io/fileio.h"
#include "lsm/compact.h"
#include "table/table.h"

int
main(int argc, char **argv)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_local_fileio_create(env);
	pm_table_open_options o;
	pm_compact_options co;
	pm_compact_result res;
	pm_table   *table;
	pm_error	err;

	if (argc != 2 && argc != 3)
	{
		fprintf(stderr, "usage: compact_table <table path> [partition]\n");
		return 1;
	}
	memset(&o, 0, sizeof(o));
	memset(&co, 0, sizeof(co));
	co.partition = argc == 3 ? argv[2] : NULL;
	pm_error_clear(&err);
	if (pm_table_open(env, io, argv[1], &o, &table, &err) != PM_OK ||
		pm_table_compact(table, argv[1], &co, &res, &err) != PM_OK)
	{
		fprintf(stderr, "compact_table: %s\n", err.message);
		pm_local_fileio_destroy(io);
		return 1;
	}
	printf("COMPACTED snapshot=%lld buckets=%d in=%d out=%d rows=%lld\n",
		   (long long) res.snapshot_id, res.buckets, res.files_in, res.files_out,
		   (long long) res.rows_out);
	pm_table_close(table);
	pm_local_fileio_destroy(io);
	return 0;
}
