/*-------------------------------------------------------------------------
 * guc.c
 *	  Settings of paimon_fdw (GUCs), so results can be compared with each
 *	  pruning stage on and off:
 *
 *	  paimon_fdw.enable_pushdown		off: no qual is pushed to the scan
 *	  paimon_fdw.enable_stats_pruning	min/max/null-count statistics
 *	  paimon_fdw.enable_file_index		file indexes (bloom, bitmap, ...)
 *	  paimon_fdw.enable_row_group_pruning	Parquet row groups and ORC stripes
 *										by their statistics
 *	  paimon_fdw.enable_page_index		Parquet pages by their ColumnIndex, ORC row groups
 *	  paimon_fdw.enable_aggregate_pushdown	aggregates computed on batches
 *	  paimon_fdw.enable_point_lookup	primary-key lookups (WHERE on the whole
 *										key, lookup joins) read only the files
 *										that may hold the keys
 *	  paimon_fdw.enable_resident_lookup	lookups of one integer key read files
 *										kept decoded in the page cache
 *	  paimon_fdw.enable_topn_pushdown	ORDER BY ... LIMIT n kept on batches
 *	  paimon_fdw.enable_key_order		primary-key tables of one integer key
 *										also offer their rows in key order
 *										(merge joins, ORDER BY the key)
 *	  paimon_fdw.enable_key_join		joins on such a key may hand the
 *										other side's keys to the scan
 *										(key_join.c)
 *
 *	  and one for parallel scans:
 *
 *	  paimon_fdw.parallel_split_size	data files at least this large are
 *										shared by row group / stripe
 *
 *	  and one for the reads themselves:
 *
 *	  paimon_fdw.enable_io_uring		off: plain pread (e.g. under valgrind,
 *										which cannot see io_uring's writes)
 *
 *	  and one for the per-backend cache of immutable metadata (manifest
 *	  lists, manifests, file footers; common/meta_cache.h):
 *
 *	  paimon_fdw.metadata_cache_size	its byte budget (0: off)
 *
 *	  and one for the per-backend LRU of decompressed Parquet pages that
 *	  page indexes picked (common/page_lru.h):
 *
 *	  paimon_fdw.page_cache_size		its byte budget (0: off)
 *
 *	  and two for the store of decompressed pages shared by the server's
 *	  backends (common/page_store.h), superuser only:
 *
 *	  paimon_fdw.shared_page_cache_dir	its directory, on tmpfs ('': off)
 *	  paimon_fdw.shared_page_cache_size	bytes all backends may write there
 *
 *	  and one for the per-backend key cache of point lookups (page indexes
 *	  and decoded pages of Parquet key columns;
 *	  format/parquet/parquet_key_probe.h):
 *
 *	  paimon_fdw.key_cache_size			its byte budget (0: off)
 *
 *	  and one for the per-backend cache of open data files (env.c):
 *
 *	  paimon_fdw.open_file_cache		how many (0: off)
 *
 *	  and one for writing:
 *
 *	  paimon_fdw.write_batch_size		rows per batch handed to the writer
 *	  paimon_fdw.compact_at_commit		on (default): primary-key and
 *										fixed-bucket append writers
 *										compact at commit as Java's do
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "utils/guc.h"

#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "common/page_store.h"
#include "format/parquet/parquet_key_probe.h"
#include "io/fileio.h"
#include "pmfdw.h"

#include <limits.h>

bool		pmfdw_enable_pushdown = true;
bool		pmfdw_enable_stats_pruning = true;
bool		pmfdw_enable_file_index = true;
bool		pmfdw_enable_aggregate_pushdown = true;
bool		pmfdw_enable_topn_pushdown = true;
int			pmfdw_parallel_split_size = 8192;	/* kB */
bool		pmfdw_enable_row_group_pruning = true;
bool		pmfdw_enable_page_index = true;
bool		pmfdw_enable_point_lookup = true;
bool		pmfdw_enable_resident_lookup = true;
bool		pmfdw_enable_key_order = true;
bool		pmfdw_enable_key_join = true;
static bool enable_io_uring = true;

static void
assign_io_uring(bool newval, void *extra)
{
	(void) extra;
	pm_uring_set_enabled(newval);
}
int			pmfdw_write_batch_size = 4096;
bool		pmfdw_compact_at_commit = true;

int			pmfdw_metadata_cache_kb = 64 * 1024;

static void
assign_metadata_cache_size(int newval, void *extra)
{
	(void) extra;
	pm_meta_cache_set_budget((size_t) newval * 1024);
}

static int	page_cache_kb = 64 * 1024;
static int	key_cache_kb = 64 * 1024;

static void
assign_key_cache_size(int newval, void *extra)
{
	(void) extra;
	pm_parquet_key_cache_set_budget((size_t) newval * 1024);
}

static void
assign_page_cache_size(int newval, void *extra)
{
	(void) extra;
	pm_page_lru_set_budget((size_t) newval * 1024);
}

static char *shared_page_cache_dir = NULL;
static int	shared_page_cache_kb = 1024 * 1024;

static bool
check_shared_page_cache_dir(char **newval, void **extra, GucSource source)
{
	(void) extra;
	(void) source;
	if (*newval != NULL && (*newval)[0] != '\0' && (*newval)[0] != '/')
	{
		GUC_check_errdetail("The directory must be an absolute path.");
		return false;
	}
	return true;
}

static void
assign_shared_page_cache_dir(const char *newval, void *extra)
{
	(void) extra;
	(void) pm_page_store_configure(newval, (size_t) shared_page_cache_kb * 1024);
}

static void
assign_shared_page_cache_size(int newval, void *extra)
{
	(void) extra;
	(void) pm_page_store_configure(shared_page_cache_dir, (size_t) newval * 1024);
}

static void
assign_open_file_cache(int newval, void *extra)
{
	(void) extra;
	pmfdw_open_file_cache = newval;
	pmfdw_file_cache_limit_changed();
}

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
	DefineCustomBoolVariable("paimon_fdw.enable_row_group_pruning",
							 "Skips Parquet row groups and ORC stripes by their statistics.",
							 "Only where no merge needs the skipped rows (append tables, files "
							 "of deletion-vector tables; primary-key fields otherwise).",
							 &pmfdw_enable_row_group_pruning, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_page_index",
							 "Skips Parquet pages by their page index (ColumnIndex, OffsetIndex) and ORC row groups by their row index.",
							 "Only where no merge needs the skipped rows, as for row groups.",
							 &pmfdw_enable_page_index, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_io_uring",
							 "Reads Paimon files through io_uring where the kernel allows it.",
							 "When off, files are read with pread.",
							 &enable_io_uring, true, PGC_SUSET, 0,
							 NULL, assign_io_uring, NULL);
	DefineCustomIntVariable("paimon_fdw.write_batch_size",
							"Rows that INSERT and COPY convert into one column batch for the Paimon writer.",
							NULL, &pmfdw_write_batch_size, 4096, 1, 1000000, PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.compact_at_commit",
							 "Compacts the buckets a transaction wrote into a Paimon primary-key "
							 "or fixed-bucket append table at commit, as Paimon's writers do.",
							 "When Paimon's universal compaction picks sorted runs of a bucket "
							 "(num-sorted-run.compaction-trigger), they are compacted and "
							 "committed as a COMPACT snapshot after the APPEND one; in append "
							 "tables, compaction.min.file-num small files of a bucket into one. "
							 "Off: level 0 "
							 "grows until paimon_compact. Tables with write-only = true never "
							 "compact.",
							 &pmfdw_compact_at_commit, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_aggregate_pushdown",
							 "Computes aggregates (count, sum, avg, min, max, GROUP BY) on column "
							 "batches inside paimon_fdw.",
							 "When off, Postgres aggregates the scanned rows itself.",
							 &pmfdw_enable_aggregate_pushdown, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_point_lookup",
							 "Looks primary keys up in Paimon primary-key tables.",
							 "When the quals pin every primary-key column (= or IN, constants, "
							 "parameters or a join's outer values), only the files that may hold "
							 "the keys are read, and joins on the key may rescan the table per "
							 "outer row. When off, such scans plan and read as any other.",
							 &pmfdw_enable_point_lookup, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_resident_lookup",
							 "Answers point lookups from Paimon data files kept decoded in the page cache.",
							 "A lookup of one integer primary key in a deduplicate table reads the "
							 "key's row from the bucket's files decoded whole into the page cache "
							 "(and the shared page store), once lookups came back to those files "
							 "often enough. When off, every lookup reads the files' pages.",
							 &pmfdw_enable_resident_lookup, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_key_order",
							 "Offers the rows of primary-key tables in key order.",
							 "A primary-key table whose key is one integer column can be read "
							 "with its buckets and partitions merged by the key, so a merge join "
							 "or an ORDER BY on the key needs no sort. When off, Postgres sorts.",
							 &pmfdw_enable_key_order, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_key_join",
							 "Joins primary-key tables on their integer key with the other "
							 "side's keys handed to the scan.",
							 "A join whose other side is read first gives its keys to the scan "
							 "of a primary-key table whose key is one integer column, which "
							 "drops the rows of other keys before they reach Postgres. When off, "
							 "Postgres joins as usual.",
							 &pmfdw_enable_key_join, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("paimon_fdw.enable_topn_pushdown",
							 "Keeps the first rows of ORDER BY ... LIMIT n on column batches "
							 "inside paimon_fdw (top-N).",
							 "When off, Postgres sorts the scanned rows itself.",
							 &pmfdw_enable_topn_pushdown, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("paimon_fdw.parallel_split_size",
							"Data files at least this large are shared by Parquet row group "
							"or ORC stripe among the processes of a parallel scan.",
							"Smaller files go whole to one process; 0: every file does. "
							"The planner expects one unit of work per this many bytes.",
							&pmfdw_parallel_split_size, 8192, 0, INT_MAX / 2, PGC_USERSET,
							GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("paimon_fdw.metadata_cache_size",
							"Memory each backend keeps for Paimon metadata that files make "
							"immutable (manifest lists, manifests, Parquet/ORC footers).",
							"Least recently used entries are dropped to stay within it; 0 turns "
							"the cache off (and the table versions and point lookup file lists "
							"kept across statements). Every statement still checks for a newer "
							"snapshot.",
							&pmfdw_metadata_cache_kb, 64 * 1024, 0, INT_MAX / 2, PGC_USERSET,
							GUC_UNIT_KB, NULL, assign_metadata_cache_size, NULL);
	DefineCustomIntVariable("paimon_fdw.page_cache_size",
							"Memory each backend keeps for decompressed Parquet pages that "
							"the page index picked (point lookups, selective filters).",
							"Keyed by data file path, size and page offset (files are never "
							"rewritten under the same name), so never stale; least "
							"recently used pages are dropped to stay within it; 0 turns the "
							"cache off.",
							&page_cache_kb, 64 * 1024, 0, INT_MAX / 2, PGC_USERSET,
							GUC_UNIT_KB, NULL, assign_page_cache_size, NULL);
	DefineCustomStringVariable("paimon_fdw.shared_page_cache_dir",
							   "Directory (on tmpfs, e.g. under /dev/shm) where backends share "
							   "the decompressed Parquet pages of their page caches.",
							   "A backend's page cache then starts warm: a page another backend "
							   "decompressed is mapped from there instead of decompressed again. "
							   "Created mode 0700 when missing; it must be the server user's and "
							   "private to it, else the store stays off. Whole page files are "
							   "evicted by generations (see shared_page_cache_size). "
							   "Empty: off.",
							   &shared_page_cache_dir, "", PGC_SUSET, 0,
							   check_shared_page_cache_dir, assign_shared_page_cache_dir, NULL);
	DefineCustomIntVariable("paimon_fdw.shared_page_cache_size",
							"Bytes all backends together may write into "
							"paimon_fdw.shared_page_cache_dir.",
							"Counted in the directory (its \"state\" file), so across backends "
							"and server restarts: pages go into a generation of half this "
							"size; when it is full a new one starts and the one before the "
							"previous is removed (pages read from the previous one move on).",
							&shared_page_cache_kb, 1024 * 1024, 0, INT_MAX / 2, PGC_SUSET,
							GUC_UNIT_KB, NULL, assign_shared_page_cache_size, NULL);
	DefineCustomIntVariable("paimon_fdw.key_cache_size",
							"Memory each backend keeps for point lookups: the page indexes "
							"and decoded pages of the sorted key columns of Parquet data files.",
							"A lookup then skips the files whose key pages do not hold the "
							"key without opening them. Keyed by file name and size (data files "
							"are never rewritten), so never stale; least recently used entries "
							"are dropped to stay within it; 0 turns the cache off.",
							&key_cache_kb, 64 * 1024, 0, INT_MAX / 2, PGC_USERSET,
							GUC_UNIT_KB, NULL, assign_key_cache_size, NULL);
	DefineCustomIntVariable("paimon_fdw.open_file_cache",
							"Data files each backend keeps open across statements.",
							"Point lookups then skip opening the files they read. Data files "
							"are never rewritten under their name, so a kept file is never "
							"stale; least recently used idle files are closed beyond this "
							"count; 0 closes them all and turns the cache off.",
							&pmfdw_open_file_cache, 64, 0, 100000, PGC_USERSET, 0,
							NULL, assign_open_file_cache, NULL);
	MarkGUCPrefixReserved("paimon_fdw");
}

/* The pruning stages the settings allow, for pm_table_scan_plan_with. */
void
pmfdw_scan_options(pm_scan_options *options)
{
	options->prune_partitions = true;
	options->prune_stats = pmfdw_enable_stats_pruning;
	options->prune_file_index = pmfdw_enable_file_index;
	options->prune_row_groups = pmfdw_enable_row_group_pruning;
	options->prune_pages = pmfdw_enable_page_index;
}
