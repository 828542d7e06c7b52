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
#include <string.h>

#include "../oracle_tool.h"

int
main(int argc, char **argv)
{
	oracle_tool t;
	pm_compact_options co;
	pm_compact_result res;

	if (!oracle_tool_open(&t, "compact_table", argc, argv, 2, 3, "<table path> [partition]"))
		return 1;
	memset(&co, 0, sizeof(co));
	co.partition = argc == 3 ? argv[2] : NULL;
	if (pm_table_compact(t.table, argv[1], &co, &res, &t.err) != PM_OK)
		return oracle_tool_fail(&t);
	oracle_tool_print_compacted(&res);
	oracle_tool_close(&t);
	return 0;
}
