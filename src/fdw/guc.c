/*-------------------------------------------------------------------------
 * guc.c
 *	  Settings of paimon_fdw (GUCs), so results can be compared with each
 *	  pruning stage on and off:
 *
 *	  paimon_fdw.enable_pushdown		off: no qual is pushed to the scan
 *	  paimon_fdw.enable_stats_pruning	min/max/null-count statistics
 *	  paimon_fdw.enable_file_index		file indexes (bloom, bitmap, ...)
 *	  paimon_fdw.enable_aggregate_pushdown	aggregates computed on batches
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/guc.h"

#include "pmfdw.h"

bool		pmfdw_enable_pushdown = true;
bool		pmfdw_enable_stats_pruning = true;
bool		pmfdw_enable_file_index = true;
bool		pmfdw_enable_aggregate_pushdown = true;

void
pmfdw_guc_init(void)
{
	DefineCustomBoolVariable("paimon_fdw.enable_pushdown",
							 "Prunes Paimon files with the query's quals.",
							 "When off, no qual is used to plan the scan: every live file is read "
							 "and Postgres filters the rows.",
							 &pmfdw_enable_pushdown, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_stats_pruning",
							 "Prunes Paimon files by their min/max/null-count statistics.",
							 NULL, &pmfdw_enable_stats_pruning, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_file_index",
							 "Prunes Paimon files by their file indexes (bloom filter, bitmap, "
							 "range bitmap, BSI).",
							 NULL, &pmfdw_enable_file_index, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_aggregate_pushdown",
							 "Computes aggregates (count, sum, avg, min, max, GROUP BY) on column "
							 "batches inside paimon_fdw.",
							 "When off, Postgres aggregates the scanned rows itself.",
							 &pmfdw_enable_aggregate_pushdown, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("paimon_fdw");
}

/* The pruning stages the settings allow, for pm_table_scan_plan_with. */
void
pmfdw_scan_options(pm_scan_options *options)
{
	options->prune_partitions = true;
	options->prune_stats = pmfdw_enable_stats_pruning;
	options->prune_file_index = pmfdw_enable_file_index;
}
