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
#include <string.h>
#include <unistd.h>

#include "../oracle_tool.h"

int
main(int argc, char **argv)
{
	oracle_tool t;
	pm_compact_options co;
	pm_compact_result res;
	pm_code		rc;
	FILE	   *ready;

	if (!oracle_tool_open(&t, "lsm_race", argc, argv, 4, 4,
						  "<table path> <ready file> <go file>"))
		return 1;
	memset(&co, 0, sizeof(co));
	printf("OPENED snapshot=%lld\n", (long long) pm_table_snapshot_id(t.table));
	fflush(stdout);
	if ((ready = fopen(argv[2], "w")) != NULL)
		fclose(ready);
	while (access(argv[3], F_OK) != 0)
		usleep(20000);
	rc = pm_table_compact(t.table, argv[1], &co, &res, &t.err);
	if (rc == PM_OK)
		oracle_tool_print_compacted(&res);
	else
		printf("%s %s\n", rc == PM_ERR_CONFLICT ? "CONFLICT" : "ERROR", t.err.message);
	oracle_tool_close(&t);
	return rc == PM_OK ? 0 : rc == PM_ERR_CONFLICT ? 3 : 1;
}
