/*-------------------------------------------------------------------------
 * lsm_race.c
 *	  lsm_race <table path> <ready file> <go file>
 *	  A compaction planned from a stale snapshot: opens the table at its
 *	  latest snapshot, creates <ready>, waits until <go> exists (another
 *	  writer commits meanwhile), then compacts what it opened with
 *	  pm_table_compact (the work of SQL paimon_compact). Prints "COMPACTED
 *	  snapshot=<id> ..." (exit 0), "CONFLICT <message>" for PM_ERR_CONFLICT
 *	  (exit 3) or the error (exit 1). Driven by lsm_race.sh; built against
 *	  the unit build of libpaimon.a.
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	pm_code		rc;
	FILE	   *ready;

	if (argc != 4)
	{
		fprintf(stderr, "usage: lsm_race <table path> <ready file> <go file>\n");
		return 1;
	}
	memset(&o, 0, sizeof(o));
	memset(&co, 0, sizeof(co));
	pm_error_clear(&err);
	if (pm_table_open(env, io, argv[1], &o, &table, &err) != PM_OK)
	{
		fprintf(stderr, "lsm_race: %s\n", err.message);
		pm_local_fileio_destroy(io);
		return 1;
	}
	printf("OPENED snapshot=%lld\n", (long long) pm_table_snapshot_id(table));
	fflush(stdout);
	if ((ready = fopen(argv[2], "w")) != NULL)
		fclose(ready);
	while (access(argv[3], F_OK) != 0)
		usleep(20000);
	rc = pm_table_compact(table, argv[1], &co, &res, &err);
	if (rc == PM_OK)
		printf("COMPACTED snapshot=%lld buckets=%d in=%d out=%d rows=%lld\n",
			   (long long) res.snapshot_id, res.buckets, res.files_in, res.files_out,
			   (long long) res.rows_out);
	else
		printf("%s %s\n", rc == PM_ERR_CONFLICT ? "CONFLICT" : "ERROR", err.message);
	pm_table_close(table);
	pm_local_fileio_destroy(io);
	return rc == PM_OK ? 0 : rc == PM_ERR_CONFLICT ? 3 : 1;
}
