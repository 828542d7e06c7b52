/*-------------------------------------------------------------------------
 * paimon_fdw.c
 *	  The FDW handler: planning and executing scans of Paimon tables.
 *
 * GetForeignRelSize opens the table once, pushes the WHERE clauses it can
 * translate into a pm_predicate and plans the scan (partition and
 * statistics pruning) to get the row estimate and the pruning funnel that
 * EXPLAIN shows. Every qual stays in the plan for local recheck: pruning is
 * inexact. The executor re-plans with the same quals (plans may be cached
 * and the table may have moved on) at the first row of every scan and
 * rescan, with the values of run-time parameters at that moment (a generic
 * plan's $1, an outer plan's values), then turns column batches into
 * tuples. EXPLAIN ANALYZE adds the funnel of those executed plans when
 * parameters were pushed.
 *
 * fdw_private of the ForeignScan holds only copyable nodes (see
 * FdwScanPrivateIndex); core objects never outlive the memory context of
 * the scan, and files come through VFDs, so an ERROR leaks nothing.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <malloc.h>

#include "access/table.h"
#include "access/xact.h"
#include "commands/defrem.h"
#include "commands/explain.h"
#include "foreign/fdwapi.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "access/parallel.h"
#include "optimizer/cost.h"
#include "port/atomics.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datum.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "common/arena.h"
#include "common/key_set.h"
#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "common/read_timing.h"
#include "lsm/table_read.h"
#include "table/point_lookup.h"
#include "table/scan_min_max.h"
#include "table/split.h"
#include "table/table.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	pmfdw_guc_init();
	pmfdw_stats_hook_init();
	pmfdw_key_join_init();
	/*
	 * Reads allocate page-sized buffers of 100 kB - 1 MB per column and free
	 * them at the end of each statement. With glibc's defaults, each such
	 * block is mmap'd or the heap trimmed on free, so the next statement
	 * page-faults it in again: a quarter of a point lookup's time. Keep
	 * blocks below 32 MB in the heap and up to 64 MB of freed heap.
	 */
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
	mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
}

PG_FUNCTION_INFO_V1(paimon_fdw_handler);

/* What the funnel in fdw_private holds, in order (String nodes). */
enum FunnelIndex
{
	FUNNEL_SNAPSHOT,
	FUNNEL_FILES_TOTAL,
	FUNNEL_PRUNED_PARTITION,
	FUNNEL_PRUNED_BUCKET,
	FUNNEL_PRUNED_STATS,
	FUNNEL_PRUNED_INDEX,
	FUNNEL_FILES_SELECTED,
	FUNNEL_ROWS_SELECTED,
	FUNNEL_SPLITS,
	FUNNEL_PUSHED_QUALS,
	FUNNEL_RUNTIME_QUALS,		/* pushed with run-time values */
	FUNNEL_LOOKUP,				/* point lookup: 0 none, 1 of constant keys, 2 of run-time keys */
	FUNNEL_LOOKUP_KEYS,			/* constant keys: what the lookup found (lookup_path.c) */
	FUNNEL_LOOKUP_BUCKET,		/* the one bucket, or -1 */
	FUNNEL_LOOKUP_BUCKETS,		/* how many buckets (0: no fixed buckets) */
	FUNNEL_LOOKUP_PROBED,
	FUNNEL_LOOKUP_RANGE,
	FUNNEL_LOOKUP_BLOOM,
	FUNNEL_LOOKUP_PAGES,		/* files whose key pages hold none of the keys */
	FUNNEL_LOOKUP_SHADOWED,		/* older than a file the key was found in */
	FUNNEL_LOOKUP_READ,
	FUNNEL_DV_FILES,			/* selected files with a deletion vector */
	FUNNEL_DV_ROWS,				/* ... the rows their DVs delete */
	FUNNEL_COUNT
};

/* fdw_private of a ForeignScan */
enum FdwScanPrivateIndex
{
	FdwScanPrivateRetrievedAttrs,	/* IntList of attnums */
	FdwScanPrivateFunnel,		/* List of String: enum FunnelIndex */
	FdwScanPrivateTableOid,		/* String: the foreign table's OID */
	FdwScanPrivateCountOnly,	/* Boolean-ish String "1": count(*) pushed down */
	FdwScanPrivateAggs,			/* per output column an IntList (AggKind, attnum) */
	FdwScanPrivateAggSpec,		/* aggregates computed on batches (agg_pushdown.c) */
	FdwScanPrivateTopnSpec,		/* ORDER BY ... LIMIT n on batches (topn_pushdown.c) */
	FdwScanPrivateKeyOrder		/* Integer: rows in key order (key_order_attnum), or 0 */
};

/* What a column of a pushed-down aggregate row holds */
typedef enum AggKind
{
	AGG_COUNT_STAR,
	AGG_MIN,
	AGG_MAX,
	AGG_COUNT					/* count(col): the non-null values */
} AggKind;

typedef struct PaimonFdwPlanState
{
	Oid			tableoid;
	bool		count_exact;	/* file row counts are the table's row count */
	Bitmapset  *minmax_exact;	/* attnums whose min/max the metadata knows */
	Bitmapset  *nonnull_exact;	/* attnums whose non-null count it knows */
	PmfdwAggRelInfo *agg_info;	/* the columns' Paimon types, for agg_pushdown.c */
	PaimonFdwTableOptions opts;
	Bitmapset  *attrs_used;
	int64		funnel[FUNNEL_COUNT];
	List	   *key_attnums;	/* point lookups: the trimmed primary key's columns */
	int64		lookup_partitions;	/* partitions a constant lookup reads */
	PmfdwLookupEstimate lookup_est;
	int64		bytes_selected; /* of the selected files */
	AttrNumber	unique_attnum;	/* the primary key when it is one column, else 0 */
	AttrNumber	key_attnum;		/* the trimmed primary key when it is one column, else 0 */
	AttrNumber	key_order_attnum;	/* rows can come in this column's order, else 0 */
	Cost		plain_startup;	/* the plain scan's costs (pmfdw_plain_scan_path) */
	Cost		plain_total;
} PaimonFdwPlanState;

/*
 * A read in key order keeps every split's read open at once, each holding a
 * row group (stripe) of each of its files: offered for up to this many
 * splits, and while that bound of its bytes (a file's size, at most
 * KEY_ORDER_GROUP_BYTES, Paimon's default parquet.block.size, summed over
 * the files) stays within KEY_ORDER_MAX_BYTES. On pk_7col (2 buckets of 5
 * files, 305 MB) the read of every column holds 303 MB, the plain read
 * 154 MB.
 */
#define KEY_ORDER_MAX_SPLITS 16
#define KEY_ORDER_GROUP_BYTES ((int64) 128 * 1024 * 1024)
#define KEY_ORDER_MAX_BYTES ((int64) 1024 * 1024 * 1024)

/*
 * Counts a parallel scan's workers add up for the leader's EXPLAIN ANALYZE:
 * the outer keys' filter of a key join (each row is read by one
 * participant) and the parts of files pruned or read (each counted by one
 * participant, see split_read.c part_may_match), with the key ranges cut.
 */
typedef struct PaimonFdwWorkerCounts
{
	int64		join_rows_read;
	int64		join_rows_kept;
	pm_scan_stats reads;		/* the read counts only (add_read_counts) */
	int64		key_ranges;		/* the most any worker cut */
	int64		workers;		/* that added their counts */
	int64		read_ns;		/* their Read Time, summed */
	pm_read_timing timing;
} PaimonFdwWorkerCounts;

/*
 * Shared by the participants of a parallel scan (dynamic shared memory).
 * Units of work (data files read as they are, splits merged) are numbered
 * the same way by every participant, which plans the same snapshot with
 * the same quals; each takes the next unit number from the counter.
 * Workers read the leader's version of the table, whatever commits landed
 * since the leader opened it.
 */
typedef struct PaimonFdwParallelState
{
	pg_atomic_uint64 next_unit;
	pm_table_version version;	/* the leader's snapshot (0: none) and schema */
	int			participants;	/* planned workers (pm_scan_set_participants) */
	slock_t		mutex;
	PaimonFdwWorkerCounts workers;	/* added by each worker as its scan ends */
} PaimonFdwParallelState;

typedef struct PaimonFdwScanState
{
	MemoryContext cxt;			/* everything the core allocates */
	PaimonFdwTableOptions opts;
	pm_env	   *env;
	pm_fileio  *io;
	pm_table   *table;
	pm_scan    *scan;
	pm_table_read *read;
	bool		key_order;		/* read in key order (pm_table_read_open_ordered) */
	List	   *retrieved_attrs;
	int			nfields;
	int		   *fields;			/* Paimon field index per retrieved attr */
	AttrNumber *attnums;		/* tuple attribute per retrieved attr */
	PmfdwColumnConverter *conv;
	MemoryContext batch_cxt;	/* converted values of the current batch */
	Datum	  **col_values;		/* per retrieved attr: a Datum per batch row */
	bool	  **col_nulls;
	int64		col_capacity;	/* rows col_values can hold */
	bool		started;		/* scan planned and read opened */
	PaimonFdwParallelState *pstate; /* parallel scan, else NULL */
	int64		claimed;		/* unit this participant took last, -1 none */
	bool		count_only;		/* count(*) pushed down: one row of counts */
	bool		count_done;
	List	   *aggs;			/* count(*)/count/min/max pushed down: FdwScanPrivateAggs */
	PmfdwAggExec *agg_exec;		/* aggregates computed on batches, else NULL */
	PmfdwTopnExec *topn_exec;	/* top-N kept on batches, else NULL */
	pm_batch   *batch;
	int64		row;			/* next row of batch */
	bool		done;
	int64		executed_plans; /* scans planned (first scan and rescans) */
	pm_scan_stats executed;		/* their funnels, summed */
	/* point lookups (lookup_path.c) */
	bool		lookup_tried;	/* base_scan planned if the table has a key */
	pm_scan    *base_scan;		/* the files of the snapshot, planned once per scan node */
	bool		base_shared;	/* base_scan is the table cache's (table_cache.c) */
	const struct pm_predicate *key_filter;	/* of fs->scan when it is a lookup */
	pm_point_lookup_stats lookups;	/* executed lookups, summed */
	pm_arena   *resident_arena; /* the row of a resident lookup (pm_point_lookup_resident) */
	pm_batch   *resident_batch; /* ... to hand out, or NULL */
	bool		resident;		/* this (re)scan was answered so: no read */
	int64	   *key_rows;		/* rows of the batch with a looked-up key */
	int64		nkey_rows;		/* -1: every row of the batch */
	int64		key_rows_cap;
	int64		cache_hits;		/* metadata cache lookups of this scan */
	int64		cache_misses;
	int64		page_hits;		/* page cache lookups of this scan */
	int64		page_misses;
	int64		read_ns;		/* in the core (begin, batches): EXPLAIN's Read Time */
	pm_read_timing timing;		/* of which file reads and decompression */
	/* the target of an UPDATE or DELETE on an append table: rows' positions */
	bool		positions;
	const int64_t *batch_positions; /* of the batch's rows */
	int			batch_file;		/* ordinal of the batch's file in row_files */
	const pm_data_file_meta *batch_meta;	/* that file (this plan of the scan) */
	PmfdwRowFile *row_files;	/* every file read, in fs->cxt */
	int			nrow_files;
	int			row_files_cap;
	int64		key_ranges;		/* primary-key buckets cut into key ranges: ranges */
	/* the inner scan of a key join (key_join.c): rows of other keys dropped */
	const pm_key_set *join_keys;
	int			join_key_col;	/* retrieved attr of the key, -1: no filter */
	int64		join_rows_read; /* rows the filter saw */
	int64		join_rows_kept;
	/* a parallel scan's leader: the workers' counts, taken at shutdown */
	PaimonFdwWorkerCounts workers;
	bool		workers_taken;	/* from this pstate (freed after the shutdown) */
	bool		compact;		/* col_values hold the key_rows only, in order */
} PaimonFdwScanState;

/*
 * Open the table at version when one is given (a parallel worker: the
 * leader's), else at the snapshot the options ask for. Without time travel
 * options that is the version this statement or transaction already reads
 * of the table (snapshot_pin.c), else the latest, which is then pinned.
 * Errors are reported.
 */
pm_table *
pmfdw_open_table(const PaimonFdwTableOptions *opts, pm_env *env, pm_fileio *io,
				 const pm_table_version *version)
{
	pm_table_open_options o = {0};
	pm_table   *table;
	pm_error	err;
	bool		latest = opts->snapshot_id == 0 && opts->tag == NULL &&
		opts->timestamp_millis == 0;
	const pm_table_version *pinned = NULL;

	if (version == NULL && latest)
		version = pinned = pmfdw_pinned_version(opts->table_path);
	/* a version this backend read before and still the one to read */
	if (latest && (table = pmfdw_table_cache_open(opts, env, io, version)) != NULL)
	{
		if (version == NULL)
			pmfdw_pin_version(opts->table_path, pm_table_get_version(table));
		return table;
	}
	if (!io->is_dir(io, opts->table_path))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("Paimon table \"%s.%s\" does not exist", opts->database, opts->table),
				 errdetail("Directory \"%s\" was not found.", opts->table_path)));
	pm_error_clear(&err);
	if (version != NULL)
		o.version = version;
	else
	{
		o.snapshot_id = opts->snapshot_id;
		o.tag = opts->tag;
		o.timestamp_millis = opts->timestamp_millis;
	}
	o.external_path_map = opts->external_path_map;
	if (pm_table_open(env, io, opts->table_path, &o, &table, &err) != PM_OK)
	{
		if (pinned != NULL && err.code == PM_ERR_NOT_FOUND)
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("snapshot " INT64_FORMAT " of Paimon table \"%s.%s\" is gone",
							pinned->snapshot_id, opts->database, opts->table),
					 errdetail("This %s reads that snapshot since its first scan of the table: %s",
							   IsolationUsesXactSnapshot() ? "transaction" : "statement",
							   err.message),
					 errhint("Snapshot expiry removed it meanwhile. Run the %s again.",
							 IsolationUsesXactSnapshot() ? "transaction" : "statement")));
		pmfdw_error(&err);
	}
	if (latest && version == NULL)
		pmfdw_pin_version(opts->table_path, pm_table_get_version(table));
	return table;
}

/* Paimon field index of each attribute; ERROR for a column with no field. */
static int
attr_field(Relation rel, const pm_type *row_type, AttrNumber attnum)
{
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);
	int			idx = pm_type_field_index(row_type, NameStr(att->attname));

	if (idx < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of foreign table \"%s\" does not exist in the Paimon table",
						NameStr(att->attname), RelationGetRelationName(rel)),
				 errhint("Foreign table columns are matched to Paimon fields by name.")));
	return idx;
}

/*
 * Whether the row counts recorded for the scan's files add up to its row
 * count: append tables whose files no deletion vector thins out.
 */
static bool
count_is_exact(const pm_scan *scan)
{
	return !pm_scan_needs_merge(scan) && !pm_scan_has_deletion_vectors(scan);
}

/*
 * The attributes in the query's output whose min and max (*minmax) and
 * whose count of non-null values (*nonnull) the scan's file statistics
 * know exactly (planning allocates in the planner's context).
 */
static void
metadata_exact_attrs(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid,
					 pm_table *table, pm_scan *scan, Bitmapset **minmax, Bitmapset **nonnull)
{
	Bitmapset  *attrs = NULL;
	const pm_type *row_type = pm_table_schema(table)->row_type;
	Relation	rel = table_open(foreigntableid, NoLock);
	int			nattrs;
	int		   *fields;
	AttrNumber *attnums;
	pm_field_summary *sum;
	pm_error	err;
	MemoryContext old;
	int			n = 0;
	int			i = -1;

	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid, &attrs);
	nattrs = bms_num_members(attrs);
	fields = palloc(sizeof(int) * (nattrs + 1));
	attnums = palloc(sizeof(AttrNumber) * (nattrs + 1));
	while ((i = bms_next_member(attrs, i)) >= 0)
	{
		AttrNumber	attnum = i + FirstLowInvalidHeapAttributeNumber;
		Form_pg_attribute att;
		int			field;

		if (attnum <= 0)
			continue;
		att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);
		if (att->attisdropped)
			continue;
		field = pm_type_field_index(row_type, NameStr(att->attname));
		if (field < 0 || pmfdw_type_oid(row_type->fields[field].type) != att->atttypid)
			continue;
		fields[n] = field;
		attnums[n++] = attnum;
	}
	table_close(rel, NoLock);
	pm_error_clear(&err);
	if (pm_scan_field_summaries(scan, n, fields, &sum, &err) != PM_OK)
		pmfdw_error(&err);
	old = MemoryContextSwitchTo(root->planner_cxt);
	for (i = 0; i < n; i++)
	{
		if (sum[i].mm.exact)
			*minmax = bms_add_member(*minmax, attnums[i]);
		if (sum[i].count_exact)
			*nonnull = bms_add_member(*nonnull, attnums[i]);
	}
	MemoryContextSwitchTo(old);
}

/*
 * The column whose order a read in key order gives (pm_table_read_order_key:
 * the one integer key field, here an int2/int4/int8 column of its type), if
 * the scan has few enough splits and bytes; else 0.
 */
static AttrNumber
key_order_attnum(Oid foreigntableid, pm_table *table, pm_scan *scan)
{
	const pm_type *row_type = pm_table_schema(table)->row_type;
	int			field;
	Relation	rel;
	AttrNumber	found = 0;
	int64		bytes = 0;

	if (!pmfdw_enable_key_order || pm_scan_split_count(scan) > KEY_ORDER_MAX_SPLITS ||
		(field = pm_table_read_order_key(scan)) < 0)
		return 0;
	for (int s = 0; s < pm_scan_split_count(scan); s++)
	{
		const pm_split *sp = pm_scan_get_split(scan, s);

		for (int f = 0; f < sp->nfiles; f++)
			bytes += Min(sp->files[f]->file_size, KEY_ORDER_GROUP_BYTES);
	}
	if (bytes > KEY_ORDER_MAX_BYTES)
		return 0;
	rel = table_open(foreigntableid, NoLock);
	for (int a = 0; a < RelationGetNumberOfAttributes(rel); a++)
	{
		Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), a);

		if (!att->attisdropped &&
			pm_type_field_index(row_type, NameStr(att->attname)) == field &&
			(att->atttypid == INT2OID || att->atttypid == INT4OID || att->atttypid == INT8OID) &&
			att->atttypid == pmfdw_type_oid(row_type->fields[field].type))
			found = att->attnum;
	}
	table_close(rel, NoLock);
	return found;
}

static void
paimonGetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	PaimonFdwPlanState *fpinfo = palloc0(sizeof(PaimonFdwPlanState));
	MemoryContext cxt;
	MemoryContext old;
	pm_env	   *env;
	pm_fileio  *io;
	pm_table   *table;
	pm_scan    *scan;
	pm_scan    *base = NULL;	/* the scan a point lookup's was planned on */
	pm_arena   *arena;
	pm_predicate *pred;
	pm_scan_options options;
	pm_error	err;
	Relation	rel;
	const pm_scan_stats *st;
	int			npushed;
	int			nruntime;
	ListCell   *lc;
	double		metadata_rows;
	bool		analyzed = baserel->tuples >= 0;	/* pg_class.reltuples, -1 before ANALYZE */
	bool		one_key = false;	/* the quals pin the key to one value ("k = v") */

	/* the plan state and its option strings live in the planner's context */
	fpinfo->tableoid = foreigntableid;
	pmfdw_get_table_options(foreigntableid, &fpinfo->opts);

	/* the core's objects live in cxt, deleted before returning */
	cxt = AllocSetContextCreate(CurrentMemoryContext, "paimon_fdw plan",
								PMFDW_CONTEXT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	env = pmfdw_env_create(cxt);
	io = pmfdw_fileio_create(cxt);
	table = pmfdw_open_table(&fpinfo->opts, env, io, NULL);
	arena = pm_arena_create(env);
	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	rel = table_open(foreigntableid, NoLock);
	pred = NULL;
	npushed = nruntime = 0;
	if (pmfdw_enable_pushdown)
		pred = pmfdw_build_predicate(baserel->baserestrictinfo, rel, baserel->relid,
									 pm_table_schema(table)->row_type, arena, NULL,
									 &npushed, &nruntime);
	fpinfo->agg_info = pmfdw_agg_rel_info(rel, baserel->relid, baserel->baserestrictinfo,
										  pm_table_schema(table)->row_type, old);
	table_close(rel, NoLock);
	pmfdw_scan_options(&options);
	pm_error_clear(&err);
	if (pm_table_scan_plan_with(table, pred, &options, &scan, &err) != PM_OK)
		pmfdw_error(&err);
	st = pm_scan_get_stats(scan);
	if (pmfdw_enable_point_lookup && pmfdw_enable_pushdown && pm_scan_needs_merge(scan))
	{
		pm_scan    *lookup = NULL;
		pm_point_lookup_stats ls = {0};

		rel = table_open(foreigntableid, NoLock);
		MemoryContextSwitchTo(old);	/* the planner's: the list outlives cxt */
		fpinfo->key_attnums = pmfdw_lookup_key_attnums(rel, table);
		MemoryContextSwitchTo(cxt);
		table_close(rel, NoLock);
		fpinfo->lookup_est.files_selected = st->files_selected;
		fpinfo->lookup_est.rows_selected = st->rows_selected;
		fpinfo->lookup_est.splits = st->splits;
		fpinfo->lookup_est.partitions = st->partitions_selected;
		if (fpinfo->key_attnums != NIL && pred != NULL &&
			pm_point_lookup_plan(scan, pred, &lookup, &ls, &err) != PM_OK)
			pmfdw_error(&err);
		one_key = pmfdw_quals_pin_one_key(baserel->baserestrictinfo, baserel->relid,
										  fpinfo->key_attnums);
		if (one_key)
			fpinfo->lookup_est.partitions = 1;	/* one key: one partition */
		if (lookup != NULL)
		{
			/*
			 * Constant keys are costed as the lookup of parameters is
			 * (GetForeignPaths): from the whole table's files per bucket (the
			 * base scan lookups share), not from those the constants'
			 * statistics leave. Else a key in no file makes a prepared
			 * statement's custom plan look cheaper than its generic plan,
			 * and the statement is planned again at every execution.
			 */
			pm_scan    *whole = pmfdw_table_cache_base_scan(&fpinfo->opts, table, &options);

			if (whole != NULL)
			{
				const pm_scan_stats *ws = pm_scan_get_stats(whole);

				fpinfo->lookup_est.files_selected = ws->files_selected;
				fpinfo->lookup_est.rows_selected = ws->rows_selected;
				fpinfo->lookup_est.splits = ws->splits;
			}
			/* the funnel of the files the lookup reads */
			fpinfo->funnel[FUNNEL_LOOKUP] = 1;
			fpinfo->funnel[FUNNEL_LOOKUP_KEYS] = ls.keys;
			fpinfo->funnel[FUNNEL_LOOKUP_BUCKET] = ls.bucket;
			fpinfo->funnel[FUNNEL_LOOKUP_BUCKETS] = ls.buckets;
			fpinfo->funnel[FUNNEL_LOOKUP_PROBED] = ls.files_probed;
			fpinfo->funnel[FUNNEL_LOOKUP_RANGE] = ls.key_range_rejects;
			fpinfo->funnel[FUNNEL_LOOKUP_BLOOM] = ls.bloom_rejects;
			fpinfo->funnel[FUNNEL_LOOKUP_PAGES] = ls.key_page_rejects;
			fpinfo->funnel[FUNNEL_LOOKUP_SHADOWED] = ls.shadowed;
			fpinfo->funnel[FUNNEL_LOOKUP_READ] = ls.files_read;
			base = scan;		/* the lookup's files are its: freed after */
			scan = lookup;
			st = pm_scan_get_stats(scan);
			fpinfo->lookup_partitions = st->partitions_selected;
		}
	}
	/*
	 * a one-column trimmed primary key: a key is a row per partition (key
	 * joins); of an unpartitioned table its values are unique
	 */
	if (pm_table_schema(table)->nprimary_keys > 0)
	{
		List	   *pk;

		rel = table_open(foreigntableid, NoLock);
		pk = pmfdw_lookup_key_attnums(rel, table);
		table_close(rel, NoLock);
		if (list_length(pk) == 1)
			fpinfo->key_attnum = (AttrNumber) linitial_int(pk);
		if (list_length(pk) == 1 && pm_table_schema(table)->npartition_keys == 0 &&
			pm_table_schema(table)->nprimary_keys == 1)
			fpinfo->unique_attnum = (AttrNumber) linitial_int(pk);
		list_free(pk);
	}
	fpinfo->key_order_attnum = key_order_attnum(foreigntableid, table, scan);
	fpinfo->funnel[FUNNEL_SNAPSHOT] = pm_table_snapshot_id(table);
	fpinfo->funnel[FUNNEL_FILES_TOTAL] = st->files_total;
	fpinfo->funnel[FUNNEL_PRUNED_PARTITION] = st->files_pruned_partition;
	fpinfo->funnel[FUNNEL_PRUNED_BUCKET] = st->files_pruned_bucket;
	fpinfo->funnel[FUNNEL_PRUNED_STATS] = st->files_pruned_stats;
	fpinfo->funnel[FUNNEL_PRUNED_INDEX] = st->files_pruned_index;
	fpinfo->funnel[FUNNEL_FILES_SELECTED] = st->files_selected;
	fpinfo->funnel[FUNNEL_ROWS_SELECTED] = st->rows_selected;
	fpinfo->funnel[FUNNEL_SPLITS] = st->splits;
	fpinfo->funnel[FUNNEL_DV_FILES] = st->files_with_dv;
	fpinfo->funnel[FUNNEL_DV_ROWS] = st->rows_deleted;
	fpinfo->funnel[FUNNEL_PUSHED_QUALS] = npushed;
	fpinfo->funnel[FUNNEL_RUNTIME_QUALS] = nruntime;
	fpinfo->bytes_selected = st->bytes_selected;
	metadata_rows = pmfdw_metadata_rows(root, baserel, foreigntableid, table, scan);
	fpinfo->count_exact = count_is_exact(scan);
	/* (every file's statistics per column: only for a query with aggregates) */
	if (fpinfo->count_exact && baserel->baserestrictinfo == NIL && root->parse->hasAggs)
		metadata_exact_attrs(root, baserel, foreigntableid, table, scan, &fpinfo->minmax_exact,
							 &fpinfo->nonnull_exact);
	pm_scan_free(scan);
	if (base != NULL)
		pm_scan_free(base);
	pm_arena_destroy(arena);
	pm_table_close(table);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);

	/* columns the query needs: output and quals */
	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid, &fpinfo->attrs_used);
	foreach(lc, baserel->baserestrictinfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		pull_varattnos((Node *) ri->clause, baserel->relid, &fpinfo->attrs_used);
	}

	/* estimate.c: from the metadata until ANALYZE gives Postgres statistics */
	pmfdw_set_rel_size(root, baserel, analyzed, fpinfo->funnel[FUNNEL_FILES_TOTAL],
					   fpinfo->funnel[FUNNEL_FILES_SELECTED],
					   fpinfo->funnel[FUNNEL_ROWS_SELECTED], metadata_rows);
	/* a lookup finds at most one row per key and partition */
	if (fpinfo->funnel[FUNNEL_LOOKUP] == 1)
		baserel->rows = clamp_row_est(Min(baserel->rows,
										  (double) fpinfo->funnel[FUNNEL_LOOKUP_KEYS] *
										  Max(fpinfo->lookup_partitions, 1)));
	/* ... so does the lookup of one key given at run time ("k = $1": a generic plan) */
	else if (one_key)
		baserel->rows = clamp_row_est(Min(baserel->rows,
										  (double) Max(fpinfo->lookup_est.partitions, 1)));
	baserel->fdw_private = fpinfo;
}

/* rel's plan state when rel is a Paimon foreign table planned here, else NULL. */
static PaimonFdwPlanState *
rel_plan_state(RelOptInfo *rel)
{
	if (rel == NULL || rel->fdwroutine == NULL ||
		rel->fdwroutine->GetForeignRelSize != paimonGetForeignRelSize)
		return NULL;
	return rel->fdw_private;
}

/*
 * The attnum of rel's one-column primary key when rel is a Paimon foreign
 * table planned by GetForeignRelSize, else InvalidAttrNumber (estimate.c).
 */
AttrNumber
pmfdw_rel_unique_attnum(RelOptInfo *rel)
{
	PaimonFdwPlanState *fpinfo = rel_plan_state(rel);

	return fpinfo != NULL ? fpinfo->unique_attnum : InvalidAttrNumber;
}

/*
 * rel's one-column trimmed primary key when rel is a Paimon foreign table
 * and the key an int2/int4/int8 column, else 0 (key_join.c).
 */
AttrNumber
pmfdw_rel_integer_key_attnum(PlannerInfo *root, RelOptInfo *rel)
{
	PaimonFdwPlanState *fpinfo = rel_plan_state(rel);
	AttrNumber	attnum;
	Oid			typid;

	if (fpinfo == NULL || rel->reloptkind != RELOPT_BASEREL ||
		(attnum = fpinfo->key_attnum) <= 0)
		return 0;
	typid = get_atttype(planner_rt_fetch(rel->relid, root)->relid, attnum);
	return typid == INT2OID || typid == INT4OID || typid == INT8OID ? attnum : 0;
}

/*
 * A new path of rel's plain scan (every row, no parameter, no order), as
 * GetForeignPaths costed it: the inner scan of a key join (key_join.c),
 * wanted even when a parallel plan's Gather put it out of rel's pathlist.
 */
Path *
pmfdw_plain_scan_path(PlannerInfo *root, RelOptInfo *rel)
{
	PaimonFdwPlanState *fpinfo = rel->fdw_private;
	ForeignPath *path = create_foreignscan_path(root, rel, NULL, rel->rows,
												fpinfo->plain_startup, fpinfo->plain_total,
												NIL, NULL, NULL, NIL);

	path->path.parallel_safe = false;
	return (Path *) path;
}

/* The pathkeys of rows in ascending order of column attnum (an integer), or NIL. */
static List *
key_order_pathkeys(PlannerInfo *root, RelOptInfo *baserel, AttrNumber attnum)
{
	RangeTblEntry *rte = planner_rt_fetch(baserel->relid, root);
	Oid			typid;
	int32		typmod;
	Oid			collid;
	TypeCacheEntry *tce;
	Var		   *var;

	get_atttypetypmodcoll(rte->relid, attnum, &typid, &typmod, &collid);
	tce = lookup_type_cache(typid, TYPECACHE_LT_OPR);
	if (!OidIsValid(tce->lt_opr))
		return NIL;
	var = makeVar(baserel->relid, attnum, typid, typmod, collid, 0);
	return build_expression_pathkey(root, (Expr *) var, NULL, tce->lt_opr, baserel->relids, true);
}

static void
paimonGetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	PaimonFdwPlanState *fpinfo = baserel->fdw_private;
	int			ncols = Max(bms_num_members(fpinfo->attrs_used), 1);
	Cost		startup = 10;
	Cost		run;
	bool		runtime_lookup;
	ForeignPath *path;
	int64		units;

	/* decoding a column value costs less than a heap tuple's worth of work */
	run = fpinfo->funnel[FUNNEL_ROWS_SELECTED] * (cpu_tuple_cost + 0.25 * cpu_operator_cost * ncols) +
		fpinfo->funnel[FUNNEL_FILES_SELECTED] * 10.0;
	run += baserel->rows * cpu_tuple_cost;
	fpinfo->lookup_est.ncols = ncols;
	/* keys known only at run time ($1): a lookup, not a scan */
	runtime_lookup = pmfdw_enable_point_lookup && fpinfo->funnel[FUNNEL_LOOKUP] == 0 &&
		pmfdw_quals_pin_key(baserel->baserestrictinfo, baserel->relid, fpinfo->key_attnums);

	/*
	 * A lookup of constant keys costs what the lookup of a parameter costs,
	 * not what the files its keys fall in hold: a prepared statement's
	 * custom plans would otherwise look cheaper than its generic plan
	 * whenever a key is in no file, and it would be planned again at every
	 * execution (twice the lookup's time).
	 */
	if (runtime_lookup || fpinfo->funnel[FUNNEL_LOOKUP] != 0)
	{
		Cost		total;

		pmfdw_lookup_cost(&fpinfo->lookup_est, baserel->rows, &startup, &total);
		run = total - startup;
	}
	path = create_foreignscan_path(root, baserel, NULL, baserel->rows,
								   startup, startup + run, NIL, NULL, NULL, NIL);
	fpinfo->plain_startup = startup;
	fpinfo->plain_total = startup + run;

	/*
	 * A plain scan never runs in a parallel worker: the worker would read
	 * the latest snapshot, not the one this statement reads (snapshot_pin.c).
	 * Only the parallel-aware scan below, which gets the leader's version
	 * through the DSM, runs there.
	 */
	path->path.parallel_safe = false;
	add_path(baserel, (Path *) path);

	/*
	 * Rows in key order: the splits' merged reads merged by the key, for
	 * merge joins and ORDER BY the key (ORDER BY ... LIMIT: top-N's).
	 */
	if (fpinfo->key_order_attnum > 0 && !runtime_lookup &&
		!(pmfdw_enable_topn_pushdown && root->parse->limitCount != NULL))	/* top-N's */
	{
		List	   *pathkeys = key_order_pathkeys(root, baserel, fpinfo->key_order_attnum);

		if (pathkeys != NIL)
		{
			/*
			 * every split's read open at once, then a comparison of heads a
			 * row per doubling of splits and a copy of each column (on
			 * pk_7col's 2 buckets, core CPU: +25% for 2 columns, +30% for
			 * 7)
			 */
			Cost		merge = 100.0 + baserel->rows * cpu_operator_cost *
				(log2((double) Max(fpinfo->funnel[FUNNEL_SPLITS], 2)) + 0.25 * ncols);

			path = create_foreignscan_path(root, baserel, NULL, baserel->rows, startup,
										   startup + run + merge, pathkeys, NULL, NULL,
										   list_make1(makeInteger(fpinfo->key_order_attnum)));
			path->path.parallel_safe = false;
			add_path(baserel, (Path *) path);
		}
	}

	/* lookup joins: a path per set of outer rels whose join clauses pin the key */
	if (pmfdw_enable_point_lookup && fpinfo->funnel[FUNNEL_LOOKUP] == 0 && !runtime_lookup)
		pmfdw_add_lookup_paths(root, baserel, fpinfo->key_attnums, &fpinfo->lookup_est);

	/*
	 * A parallel scan: participants take units of work one at a time: data
	 * files (or merged splits), and the row groups / stripes of files of at
	 * least paimon_fdw.parallel_split_size (about one unit per that many
	 * bytes). Worth it with several units; the leader's share shrinks as
	 * workers are added, as in cost_seqscan.
	 */
	units = fpinfo->funnel[FUNNEL_FILES_SELECTED];
	if (pmfdw_parallel_split_size > 0)
		units = Max(units, fpinfo->bytes_selected / ((int64) pmfdw_parallel_split_size * 1024));
	if (baserel->consider_parallel && units > 1 && max_parallel_workers_per_gather > 0 &&
		fpinfo->funnel[FUNNEL_LOOKUP] == 0 && !runtime_lookup)	/* a lookup reads a bucket or so */
	{
		int			workers = (int) Min(units - 1, max_parallel_workers_per_gather);
		double		divisor = workers;
		double		leader = 1.0 - 0.3 * workers;
		ForeignPath *pp;

		if (parallel_leader_participation && leader > 0)
			divisor += leader;
		pp = create_foreignscan_path(root, baserel, NULL, baserel->rows / divisor,
									 startup, startup + run / divisor, NIL, NULL, NULL, NIL);
		pp->path.parallel_aware = true;
		pp->path.parallel_safe = baserel->consider_parallel;
		pp->path.parallel_workers = workers;
		add_partial_path(baserel, (Path *) pp);
	}
}

static ForeignScan *
paimonGetForeignPlan(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid,
					 ForeignPath *best_path, List *tlist, List *scan_clauses,
					 Plan *outer_plan)
{
	PaimonFdwPlanState *fpinfo = baserel->fdw_private;
	List	   *retrieved = NIL;
	List	   *funnel = NIL;
	List	   *fdw_scan_tlist = NIL;
	bool		count_only = baserel->reloptkind == RELOPT_UPPER_REL;
	List	   *aggs = NIL;
	List	   *agg_spec = NIL;
	List	   *topn_spec = NIL;
	Index		scan_relid = baserel->relid;
	int			lookup_kind = 0;
	int			runtime_quals = 0;
	int			key_order = 0;

	if (count_only)
	{
		aggs = (List *) lsecond(best_path->fdw_private);
		if (list_length(best_path->fdw_private) > 2)
			agg_spec = (List *) lthird(best_path->fdw_private);
		if (list_length(best_path->fdw_private) > 3)
			topn_spec = (List *) lfourth(best_path->fdw_private);
		count_only = aggs == NIL && agg_spec == NIL && topn_spec == NIL;
		/* aggregates: the plan produces them; top-N: the columns of its rows */
		fpinfo = (PaimonFdwPlanState *) linitial(best_path->fdw_private);
		scan_relid = 0;
		fdw_scan_tlist = add_to_flat_tlist(NIL, topn_spec != NIL ?
										   pmfdw_topn_scan_vars(topn_spec) :
										   baserel->reltarget->exprs);
		scan_clauses = NIL;
	}
	else
	{
		bool		whole_row = bms_is_member(0 - FirstLowInvalidHeapAttributeNumber,
											  fpinfo->attrs_used);
		Relation	rel = table_open(foreigntableid, NoLock);

		/* a path in key order (paimonGetForeignPaths) reads its key column */
		if (best_path->fdw_private != NIL)
			key_order = intVal(linitial(best_path->fdw_private));
		for (int i = 1; i <= RelationGetNumberOfAttributes(rel); i++)
		{
			if (TupleDescAttr(RelationGetDescr(rel), i - 1)->attisdropped)
				continue;
			if (whole_row || i == key_order ||
				bms_is_member(i - FirstLowInvalidHeapAttributeNumber, fpinfo->attrs_used))
				retrieved = lappend_int(retrieved, i);
		}
		table_close(rel, NoLock);
		/* every qual is rechecked locally: pruning is inexact */
		scan_clauses = extract_actual_clauses(scan_clauses, false);
		/* keys known when the scan runs: $1, an outer row (lookup join) */
		if (pmfdw_enable_point_lookup && fpinfo->funnel[FUNNEL_LOOKUP] == 0 &&
			pmfdw_quals_pin_key(scan_clauses, baserel->relid, fpinfo->key_attnums))
			lookup_kind = 2;
		/* a lookup join's key clauses take the outer row's values at each rescan */
		if (lookup_kind == 2 && best_path->path.param_info != NULL)
			runtime_quals = pmfdw_count_key_quals(best_path->path.param_info->ppi_clauses,
												  baserel->relid, fpinfo->key_attnums);
	}
	for (int i = 0; i < FUNNEL_COUNT; i++)
	{
		int64		v = fpinfo->funnel[i];

		if (i == FUNNEL_LOOKUP && lookup_kind > 0)
			v = lookup_kind;
		else if (i == FUNNEL_RUNTIME_QUALS)
			v += runtime_quals;
		funnel = lappend(funnel, makeString(psprintf(INT64_FORMAT, v)));
	}

	return make_foreignscan(tlist, scan_clauses, scan_relid, NIL,
							lappend(lappend(lappend(list_make5(retrieved, funnel,
															   makeString(psprintf("%u", fpinfo->tableoid)),
															   makeString(count_only ? "1" : "0"), aggs),
													agg_spec),
											topn_spec),
									makeInteger(key_order)),
							fdw_scan_tlist, NIL, outer_plan);
}

/*
 * add_metadata_agg_path
 *		Push SELECT count(*), count(col), min(col), max(col) down when the
 *		metadata knows the answer.
 *
 * Only plain count(*), count(col), min(col) and max(col) (any number of
 * them) over the whole table, no WHERE, GROUP BY or HAVING, on a scan
 * whose file row counts are exact (append table, no deletion vectors)
 * and, for min/max, whose file statistics hold the column's exact min and
 * max, for count(col) its null counts (scan_min_max.h). The executor
 * re-checks exactness on the snapshot it reads and computes the answer by
 * scanning if it no longer holds.
 */

/*
 * The column of a one-argument aggregate whose argument is a plain column of
 * the scanned table that `exact` holds; 0 if not.
 */
static AttrNumber
exact_column_arg(Aggref *agg, Index relid, const Bitmapset *exact)
{
	Var		   *var;

	if (list_length(agg->args) != 1)
		return 0;
	var = (Var *) linitial_node(TargetEntry, agg->args)->expr;
	if (!IsA(var, Var) || var->varno != relid || var->varlevelsup != 0 ||
		var->varattno <= 0 || !bms_is_member(var->varattno, exact))
		return 0;
	return var->varattno;
}

/* The kind of a pushable aggregate and its column (0 for count(*)); -1: not pushable. */
static int
pushable_agg(Aggref *agg, Index relid, const PaimonFdwPlanState *fpinfo, AttrNumber *attnum)
{
	bool		is_min;

	*attnum = 0;
	if (agg->aggfilter != NULL || agg->aggdistinct != NIL || agg->aggorder != NIL ||
		agg->agglevelsup != 0 || agg->aggsplit != AGGSPLIT_SIMPLE)
		return -1;
	if (agg->aggfnoid == F_COUNT_)
		return agg->aggstar ? AGG_COUNT_STAR : -1;
	if (agg->aggfnoid == F_COUNT_ANY)
	{
		*attnum = exact_column_arg(agg, relid, fpinfo->nonnull_exact);
		return *attnum > 0 ? AGG_COUNT : -1;
	}
	switch (agg->aggfnoid)
	{
		case F_MIN_INT2:
		case F_MIN_INT4:
		case F_MIN_INT8:
		case F_MIN_DATE:
		case F_MIN_TIMESTAMP:
		case F_MIN_TIMESTAMPTZ:
		case F_MIN_NUMERIC:
			is_min = true;
			break;
		case F_MAX_INT2:
		case F_MAX_INT4:
		case F_MAX_INT8:
		case F_MAX_DATE:
		case F_MAX_TIMESTAMP:
		case F_MAX_TIMESTAMPTZ:
		case F_MAX_NUMERIC:
			is_min = false;
			break;
		default:
			return -1;
	}
	*attnum = exact_column_arg(agg, relid, fpinfo->minmax_exact);
	if (*attnum == 0 ||
		((Var *) linitial_node(TargetEntry, agg->args)->expr)->vartype != agg->aggtype)
		return -1;
	return is_min ? AGG_MIN : AGG_MAX;
}

static bool
add_metadata_agg_path(PlannerInfo *root, UpperRelationKind stage,
					  RelOptInfo *input_rel, RelOptInfo *output_rel)
{
	PaimonFdwPlanState *fpinfo = input_rel->fdw_private;
	Query	   *parse = root->parse;
	PathTarget *target;
	ForeignPath *upper;
	List	   *aggs = NIL;
	bool		only_count = true;
	ListCell   *lc;

	if (stage != UPPERREL_GROUP_AGG || input_rel->reloptkind != RELOPT_BASEREL ||
		fpinfo == NULL || !fpinfo->count_exact || input_rel->baserestrictinfo != NIL ||
		parse->groupClause != NIL || parse->groupingSets != NIL ||
		parse->havingQual != NULL || output_rel->fdw_private != NULL)
		return false;
	target = root->upper_targets[UPPERREL_GROUP_AGG];
	if (target == NULL || target->exprs == NIL)
		return false;
	foreach(lc, target->exprs)
	{
		Aggref	   *agg = (Aggref *) lfirst(lc);
		AttrNumber	attnum;
		int			kind;

		if (!IsA(agg, Aggref))
			return false;
		kind = pushable_agg(agg, input_rel->relid, fpinfo, &attnum);
		if (kind < 0)
			return false;
		if (kind != AGG_COUNT_STAR)
			only_count = false;
		aggs = lappend(aggs, list_make2_int(kind, attnum));
	}
	output_rel->fdw_private = fpinfo;
	upper = create_foreign_upper_path(root, output_rel, target, 1, 1, 1 + cpu_tuple_cost,
									  NIL, NULL, list_make2(fpinfo, only_count ? NIL : aggs));
	upper->path.parallel_safe = false;	/* as the plain scan: not in a worker */
	add_path(output_rel, (Path *) upper);
	return true;
}

/*
 * add_topn_path
 *		ORDER BY ... LIMIT n kept on batches when topn_pushdown.c can
 *		(paimon_fdw.enable_topn_pushdown): a path of the ordered rel with
 *		the query's sort order, returning at most n rows.
 */
static void
add_topn_path(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel)
{
	PaimonFdwPlanState *fpinfo = input_rel->fdw_private;
	double		rows = 1;
	List	   *spec = pmfdw_topn_pushdown_spec(root, input_rel, fpinfo->tableoid,
											   fpinfo->agg_info, &rows);
	int			ncols = Max(bms_num_members(fpinfo->attrs_used), 1);
	int64		selected = fpinfo->funnel[FUNNEL_ROWS_SELECTED];
	Cost		cost;
	ForeignPath *upper;

	if (spec == NIL)
		return;
	/* decoding the columns and a comparison per row, no tuple per row */
	cost = 10 + selected * 0.1 * cpu_operator_cost * (ncols + 1) +
		fpinfo->funnel[FUNNEL_FILES_SELECTED] * 10.0;
	output_rel->fdw_private = fpinfo;
	upper = create_foreign_upper_path(root, output_rel, root->upper_targets[UPPERREL_ORDERED],
									  rows, cost, cost + rows * cpu_tuple_cost,
									  root->sort_pathkeys, NULL,
									  list_make4(fpinfo, NIL, NIL, spec));
	upper->path.parallel_safe = false;	/* as the plain scan: not in a worker */
	add_path(output_rel, (Path *) upper);
}

/*
 * add_partial_agg_path
 *		The partial aggregation of a parallel plan computed on batches: a
 *		parallel-aware path of the partially grouped rel whose participants
 *		each aggregate the units they claim (as the parallel scan of the
 *		base rel does, with its number of workers) and return transition
 *		states; Postgres gathers them into a Finalize Aggregate.
 */
static void
add_partial_agg_path(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel,
					 GroupPathExtraData *extra)
{
	PaimonFdwPlanState *fpinfo = input_rel->fdw_private;
	Path	   *scan_path;
	List	   *spec;
	ForeignPath *upper;
	double		groups = 1;
	double		divisor;
	double		leader;
	int			workers;
	Cost		run;

	if (extra == NULL || extra->patype != PARTITIONWISE_AGGREGATE_NONE ||
		!output_rel->consider_parallel || input_rel->partial_pathlist == NIL)
		return;
	scan_path = linitial(input_rel->partial_pathlist);
	workers = scan_path->parallel_workers;
	if (!IsA(scan_path, ForeignPath) || workers < 1)
		return;
	spec = pmfdw_agg_pushdown_spec(root, input_rel, output_rel->reltarget, true,
								   fpinfo->tableoid, fpinfo->agg_info, &groups);
	if (spec == NIL)
		return;
	/* as the parallel scan: the leader's share shrinks as workers are added */
	divisor = workers;
	leader = 1.0 - 0.3 * workers;
	if (parallel_leader_participation && leader > 0)
		divisor += leader;
	run = fpinfo->funnel[FUNNEL_ROWS_SELECTED] * 0.1 * cpu_operator_cost +
		fpinfo->funnel[FUNNEL_FILES_SELECTED] * 10.0;
	output_rel->fdw_private = fpinfo;
	upper = create_foreign_upper_path(root, output_rel, output_rel->reltarget,
									  groups, 10 + run / divisor,
									  10 + run / divisor + groups * cpu_tuple_cost,
									  NIL, NULL, list_make3(fpinfo, NIL, spec));
	upper->path.parallel_aware = true;
	upper->path.parallel_safe = true;
	upper->path.parallel_workers = workers;
	add_partial_path(output_rel, (Path *) upper);
}

/*
 * paimonGetForeignUpperPaths
 *		Aggregates from the metadata when it knows them, else computed on
 *		column batches when agg_pushdown.c can (paimon_fdw.enable_aggregate_pushdown);
 *		ORDER BY ... LIMIT n kept on batches (topn_pushdown.c).
 */
static void
paimonGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
						   RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	PaimonFdwPlanState *fpinfo = input_rel->fdw_private;
	List	   *spec;
	ForeignPath *upper;
	int64		rows;
	double		groups = 1;

	if (input_rel->reloptkind != RELOPT_BASEREL || fpinfo == NULL ||
		output_rel->fdw_private != NULL)
		return;
	if (stage == UPPERREL_ORDERED)
	{
		add_topn_path(root, input_rel, output_rel);
		return;
	}
	if (!pmfdw_enable_aggregate_pushdown)
		return;
	if (stage == UPPERREL_PARTIAL_GROUP_AGG)
	{
		add_partial_agg_path(root, input_rel, output_rel, extra);
		return;
	}
	if (stage != UPPERREL_GROUP_AGG)
		return;
	if (add_metadata_agg_path(root, stage, input_rel, output_rel))
		return;
	spec = pmfdw_agg_pushdown_spec(root, input_rel, root->upper_targets[UPPERREL_GROUP_AGG],
								   false, fpinfo->tableoid, fpinfo->agg_info, &groups);
	if (spec == NIL)
		return;
	/* decoding the columns and a few operations per value, no tuple per row */
	rows = fpinfo->funnel[FUNNEL_ROWS_SELECTED];
	output_rel->fdw_private = fpinfo;
	upper = create_foreign_upper_path(root, output_rel, root->upper_targets[UPPERREL_GROUP_AGG],
									  groups, 10 + rows * 0.1 * cpu_operator_cost +
									  fpinfo->funnel[FUNNEL_FILES_SELECTED] * 10.0,
									  10 + rows * 0.1 * cpu_operator_cost +
									  fpinfo->funnel[FUNNEL_FILES_SELECTED] * 10.0 +
									  groups * cpu_tuple_cost,
									  NIL, NULL, list_make3(fpinfo, NIL, spec));
	upper->path.parallel_safe = false;	/* as the plain scan: not in a worker */
	add_path(output_rel, (Path *) upper);
}

static Oid
scan_table_oid(ForeignScan *plan)
{
	return (Oid) strtoul(strVal(list_nth(plan->fdw_private, FdwScanPrivateTableOid)), NULL, 10);
}

/* FUNNEL_LOOKUP of the plan: 0 no point lookup, 1 constant keys, 2 run-time keys */
static int64
scan_lookup_kind(ForeignScan *plan)
{
	List	   *funnel = list_nth(plan->fdw_private, FdwScanPrivateFunnel);

	return strtoll(strVal(list_nth(funnel, FUNNEL_LOOKUP)), NULL, 10);
}

static bool
scan_count_only(ForeignScan *plan)
{
	return strcmp(strVal(list_nth(plan->fdw_private, FdwScanPrivateCountOnly)), "1") == 0;
}

static List *
scan_aggs(ForeignScan *plan)
{
	return (List *) list_nth(plan->fdw_private, FdwScanPrivateAggs);
}

static List *
scan_agg_spec(ForeignScan *plan)
{
	if (list_length(plan->fdw_private) <= FdwScanPrivateAggSpec)
		return NIL;
	return (List *) list_nth(plan->fdw_private, FdwScanPrivateAggSpec);
}

static List *
scan_topn_spec(ForeignScan *plan)
{
	if (list_length(plan->fdw_private) <= FdwScanPrivateTopnSpec)
		return NIL;
	return (List *) list_nth(plan->fdw_private, FdwScanPrivateTopnSpec);
}

/* The column a scan in key order reads its rows in the order of, or 0. */
static AttrNumber
scan_key_order(ForeignScan *plan)
{
	if (list_length(plan->fdw_private) <= FdwScanPrivateKeyOrder)
		return 0;
	return (AttrNumber) intVal(list_nth(plan->fdw_private, FdwScanPrivateKeyOrder));
}

static char *
funnel_text(int64 total, int64 partition, int64 bucket, int64 stats, int64 index, int64 read)
{
	return psprintf(INT64_FORMAT " total, " INT64_FORMAT " pruned by partition, "
					INT64_FORMAT " by bucket, " INT64_FORMAT " by statistics, "
					INT64_FORMAT " by index, " INT64_FORMAT " read",
					total, partition, bucket, stats, index, read);
}

static void add_read_counts(pm_scan_stats *to, const pm_scan_stats *st);
static char *read_time_text(int64 read_ns, const pm_read_timing *t, int64 workers);

/* ", 1 shadowed by a newer file" (nothing when none was) */
static const char *
shadowed_text(int64 shadowed)
{
	return shadowed == 0 ? "" :
		psprintf(", " INT64_FORMAT " shadowed by a newer file", shadowed);
}

/*
 * "bucket 1, 3 files probed, 1 outside key range, 0 bloom rejects, 1 key
 * page rejects[, 1 shadowed by a newer file]"
 */
static char *
lookup_text(int64 keys, int64 bucket, int64 buckets, int64 probed, int64 range, int64 bloom,
			int64 pages, int64 shadowed)
{
	char	   *where;

	if (buckets == 1 && bucket >= 0)
		where = psprintf("bucket " INT64_FORMAT, bucket);
	else if (buckets == 0)
		where = pstrdup("every bucket");
	else
		where = psprintf(INT64_FORMAT " buckets", buckets);
	return psprintf("%s%s, " INT64_FORMAT " files probed, " INT64_FORMAT
					" outside key range, " INT64_FORMAT " bloom rejects, " INT64_FORMAT
					" key page rejects%s",
					keys == 1 ? "" : psprintf(INT64_FORMAT " keys, ", keys), where,
					probed, range, bloom, pages, shadowed_text(shadowed));
}

/* "3 of 40 read (37 pruned by statistics)" */
/*
 * "R of T read (P pruned by statistics)": total parts whose statistics were
 * asked, pruned of them by statistics (by bloom filters: bloom, shown if >
 * 0), unselected skipped before that (no row of the row selection).
 */
static char *
parts_text(int64 total, int64 pruned, int64 bloom, int64 unselected)
{
	StringInfoData s;

	initStringInfo(&s);
	appendStringInfo(&s, INT64_FORMAT " of " INT64_FORMAT " read (" INT64_FORMAT
					 " pruned by statistics", total - pruned - bloom, total + unselected,
					 pruned);
	if (bloom > 0)
		appendStringInfo(&s, ", " INT64_FORMAT " by bloom filters", bloom);
	if (unselected > 0)
		appendStringInfo(&s, ", " INT64_FORMAT " without a selected row", unselected);
	appendStringInfoChar(&s, ')');
	return s.data;
}

static void
paimonExplainForeignScan(ForeignScanState *node, ExplainState *es)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	PaimonFdwScanState *fs = node->fdw_state;
	List	   *funnel = list_nth(plan->fdw_private, FdwScanPrivateFunnel);
	PaimonFdwTableOptions opts;
	int64		v[FUNNEL_COUNT];
	int64		key_ranges = 0; /* this process cut (EXPLAIN ANALYZE) */
	int			i = 0;
	ListCell   *lc;

	foreach(lc, funnel)
		v[i++] = strtoll(strVal(lfirst(lc)), NULL, 10);
	pmfdw_get_table_options(scan_table_oid(plan), &opts);
	ExplainPropertyText("Paimon Table", psprintf("%s.%s", opts.database, opts.table), es);
	if (scan_count_only(plan))
		ExplainPropertyText("Aggregate Pushdown", "count(*) from file metadata", es);
	else if (scan_aggs(plan) != NIL)
		ExplainPropertyText("Aggregate Pushdown", "min/max/count from file metadata", es);
	else if (scan_agg_spec(plan) != NIL)
		ExplainPropertyText("Aggregate Pushdown", pmfdw_agg_pushdown_text(scan_agg_spec(plan)),
							es);
	else if (scan_topn_spec(plan) != NIL)
		ExplainPropertyText("Top-N Pushdown", pmfdw_topn_pushdown_text(scan_topn_spec(plan)), es);
	if (es->analyze && fs != NULL && fs->topn_exec != NULL &&
		pmfdw_topn_exec_late_text(fs->topn_exec) != NULL)
		ExplainPropertyText("Top-N Late Materialization",
							pmfdw_topn_exec_late_text(fs->topn_exec), es);
	/* the funnel is a property of the snapshot: deterministic, so always shown */
	ExplainPropertyInteger("Snapshot", NULL, v[FUNNEL_SNAPSHOT], es);
	ExplainPropertyInteger("Pushed Filters", NULL, v[FUNNEL_PUSHED_QUALS], es);
	/* quals with parameters prune only when the scan runs (EXPLAIN ANALYZE shows it) */
	if (v[FUNNEL_RUNTIME_QUALS] > 0)
		ExplainPropertyInteger("Pushed Run-Time Filters", NULL, v[FUNNEL_RUNTIME_QUALS], es);
	ExplainPropertyText("Data Files",
						funnel_text(v[FUNNEL_FILES_TOTAL], v[FUNNEL_PRUNED_PARTITION],
									v[FUNNEL_PRUNED_BUCKET], v[FUNNEL_PRUNED_STATS],
									v[FUNNEL_PRUNED_INDEX], v[FUNNEL_FILES_SELECTED]), es);
	ExplainPropertyInteger("Splits", NULL, v[FUNNEL_SPLITS], es);
	if (scan_key_order(plan) > 0)
		ExplainPropertyText("Key Order",
							psprintf("%s, the splits merged by it",
									 quote_identifier(get_attname(scan_table_oid(plan),
																  scan_key_order(plan), false))),
							es);
	if (es->analyze && fs != NULL && fs->join_rows_read + fs->workers.join_rows_read > 0)
		ExplainPropertyText("Outer Keys Filter",
							psprintf(INT64_FORMAT " of " INT64_FORMAT " rows kept",
									 fs->join_rows_kept + fs->workers.join_rows_kept,
									 fs->join_rows_read + fs->workers.join_rows_read), es);
	if (v[FUNNEL_DV_FILES] > 0 && v[FUNNEL_DV_ROWS] >= 0)
		ExplainPropertyText("Deletion Vectors",
							psprintf(INT64_FORMAT " files, " INT64_FORMAT " rows deleted",
									 v[FUNNEL_DV_FILES], v[FUNNEL_DV_ROWS]), es);
	else if (v[FUNNEL_DV_FILES] > 0)
		ExplainPropertyText("Deletion Vectors", psprintf(INT64_FORMAT " files", v[FUNNEL_DV_FILES]),
							es);
	if (v[FUNNEL_LOOKUP] == 1)
		ExplainPropertyText("Point Lookup",
							lookup_text(v[FUNNEL_LOOKUP_KEYS], v[FUNNEL_LOOKUP_BUCKET],
										v[FUNNEL_LOOKUP_BUCKETS], v[FUNNEL_LOOKUP_PROBED],
										v[FUNNEL_LOOKUP_RANGE], v[FUNNEL_LOOKUP_BLOOM],
										v[FUNNEL_LOOKUP_PAGES], v[FUNNEL_LOOKUP_SHADOWED]), es);
	else if (v[FUNNEL_LOOKUP] == 2)
		ExplainPropertyText("Point Lookup", "keys known at run time", es);
	if (es->analyze && fs != NULL && fs->lookups.lookups > 0)
		ExplainPropertyText("Point Lookups (executed)",
							psprintf(INT64_FORMAT " lookups of " INT64_FORMAT " keys, "
									 INT64_FORMAT " files probed, " INT64_FORMAT
									 " outside key range, " INT64_FORMAT " bloom rejects, "
									 INT64_FORMAT " key page rejects%s, " INT64_FORMAT " read%s",
									 fs->lookups.lookups, fs->lookups.keys,
									 fs->lookups.files_probed, fs->lookups.key_range_rejects,
									 fs->lookups.bloom_rejects, fs->lookups.key_page_rejects,
									 shadowed_text(fs->lookups.shadowed),
									 fs->lookups.files_read,
									 fs->lookups.resident == 0 ? "" :
									 psprintf(", " INT64_FORMAT " answered by resident files",
											  fs->lookups.resident)), es);
	if (es->analyze && v[FUNNEL_RUNTIME_QUALS] > 0 && fs != NULL && fs->executed_plans > 0)
	{
		/* what the scans pruned with the parameters' values, summed over (re)scans */
		ExplainPropertyInteger("Scans Planned (executed)", NULL, fs->executed_plans, es);
		ExplainPropertyText("Data Files (executed)",
							funnel_text(fs->executed.files_total,
										fs->executed.files_pruned_partition,
										fs->executed.files_pruned_bucket,
										fs->executed.files_pruned_stats,
										fs->executed.files_pruned_index,
										fs->executed.files_selected), es);
	}
	/*
	 * a parallel scan's buckets merged by key range (key_range_split.h): the
	 * most any participant cut (every one that passes a bucket cuts it alike;
	 * the leader may not have taken part)
	 */
	if (fs != NULL && fs->read != NULL)
		key_ranges = Max(fs->key_ranges, pm_table_read_key_ranges(fs->read));
	else if (fs != NULL)
		key_ranges = fs->key_ranges;
	if (fs != NULL && fs->workers_taken)
		key_ranges = Max(key_ranges, fs->workers.key_ranges);
	if (es->analyze && fs != NULL && fs->pstate != NULL && key_ranges > 0)
		ExplainPropertyInteger("Key Ranges", NULL, key_ranges, es);
	/*
	 * Parts of files skipped while reading (EXPLAIN ANALYZE; a parallel
	 * scan's participants summed, see PaimonFdwWorkerCounts). Files of one
	 * part each say nothing the Data Files line does not: shown only when
	 * some file has several parts or a part was skipped. Not where buckets
	 * were cut into key ranges: each range reads (and prunes by its keys)
	 * the parts of every file of its bucket.
	 */
	if (es->analyze && fs != NULL &&
		(fs->pstate == NULL || (fs->workers_taken && key_ranges == 0)))
	{
		pm_scan_stats rd = {0};

		add_read_counts(&rd, &fs->executed);
		if (fs->scan != NULL)
			add_read_counts(&rd, pm_scan_get_stats(fs->scan));
		add_read_counts(&rd, &fs->workers.reads);
		if (rd.row_groups_total + rd.stripes_total > fs->executed.files_selected ||
			rd.row_groups_pruned + rd.stripes_pruned + rd.stripes_bloom_pruned +
			rd.row_groups_unselected + rd.stripes_unselected > 0)
		{
			if (rd.row_groups_total + rd.row_groups_unselected > 0)
				ExplainPropertyText("Row Groups",
									parts_text(rd.row_groups_total, rd.row_groups_pruned, 0,
											   rd.row_groups_unselected), es);
			if (rd.stripes_total + rd.stripes_unselected > 0)
				ExplainPropertyText("Stripes",
									parts_text(rd.stripes_total, rd.stripes_pruned,
											   rd.stripes_bloom_pruned,
											   rd.stripes_unselected), es);
		}
		/* Parquet pages, where their page index was read and skipped some */
		if (rd.pages_pruned > 0)
			ExplainPropertyText("Pages",
								psprintf(INT64_FORMAT " of " INT64_FORMAT " read (" INT64_FORMAT
										 " pruned by page index)",
										 rd.pages_total - rd.pages_pruned, rd.pages_total,
										 rd.pages_pruned), es);
		/* ORC row groups, where their row index was read and skipped some */
		if (rd.orc_groups_pruned > 0)
			ExplainPropertyText("ORC Row Groups",
								psprintf(INT64_FORMAT " of " INT64_FORMAT " read (" INT64_FORMAT
										 " pruned by row index)",
										 rd.orc_groups_total - rd.orc_groups_pruned,
										 rd.orc_groups_total, rd.orc_groups_pruned), es);
	}
	/* lookups depend on what earlier queries of the backend cached: a summary item */
	if (es->analyze && es->summary && fs != NULL && pm_meta_cache_enabled())
		ExplainPropertyText("Metadata Cache",
							psprintf(INT64_FORMAT " hits, " INT64_FORMAT " misses",
									 fs->cache_hits, fs->cache_misses), es);
	if (es->analyze && es->summary && fs != NULL && pm_page_lru_enabled() &&
		fs->page_hits + fs->page_misses > 0)
		ExplainPropertyText("Page Cache",
							psprintf(INT64_FORMAT " hits, " INT64_FORMAT " misses",
									 fs->page_hits, fs->page_misses), es);
	/* where this process's time in the scan went; the workers' summed */
	if (es->analyze && es->timing && fs != NULL && fs->read_ns > 0)
		ExplainPropertyText("Read Time", read_time_text(fs->read_ns, &fs->timing, 0), es);
	if (es->analyze && es->timing && fs != NULL && fs->workers.read_ns > 0)
		ExplainPropertyText("Workers Read Time",
							read_time_text(fs->workers.read_ns, &fs->workers.timing,
										   fs->workers.workers), es);
	if (es->costs)
		ExplainPropertyInteger("Rows In Selected Files", NULL, v[FUNNEL_ROWS_SELECTED], es);
	if (es->verbose)
		ExplainPropertyText("Paimon Path", opts.table_path, es);
}

/*
 * "412.337 ms: file reads ...": a Read Time and what it was spent on; of
 * `workers` processes (summed) when not 0.
 */
static char *
read_time_text(int64 read_ns, const pm_read_timing *t, int64 workers)
{
	return psprintf("%.3f ms%s: file reads %.3f ms (" INT64_FORMAT " calls, " INT64_FORMAT
					" kB), decompression %.3f ms (" INT64_FORMAT
					" kB out), decoding, merging and converting %.3f ms",
					read_ns / 1e6,
					workers > 0 ? psprintf(" in " INT64_FORMAT " worker%s", workers,
										   workers == 1 ? "" : "s") : "",
					t->io_ns / 1e6, t->io_calls, (t->io_bytes + 1023) / 1024,
					t->decompress_ns / 1e6, (t->decompress_bytes + 1023) / 1024,
					Max(read_ns - t->io_ns - t->decompress_ns, 0) / 1e6);
}

/* The Paimon field and converter of each retrieved attribute, in the table's schema. */
static void
bind_columns(PaimonFdwScanState *fs, Relation rel)
{
	const pm_type *row_type = pm_table_schema(fs->table)->row_type;
	int			i = 0;
	ListCell   *lc;

	foreach(lc, fs->retrieved_attrs)
	{
		AttrNumber	attnum = lfirst_int(lc);
		Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);

		fs->attnums[i] = attnum;
		fs->fields[i] = attr_field(rel, row_type, attnum);
		pmfdw_converter_init(&fs->conv[i], row_type->fields[fs->fields[i]].type,
							 att->atttypid, NameStr(att->attname));
		i++;
	}
}

static void
begin_scan(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	Relation	rel = node->ss.ss_currentRelation;
	PaimonFdwScanState *fs;
	MemoryContext old;
	pm_error	err;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;

	fs = palloc0(sizeof(PaimonFdwScanState));
	node->fdw_state = fs;
	fs->join_key_col = -1;
	fs->cxt = AllocSetContextCreate(estate->es_query_cxt, "paimon_fdw scan",
									PMFDW_CONTEXT_SIZES);
	fs->batch_cxt = AllocSetContextCreate(fs->cxt, "paimon_fdw batch",
										  PMFDW_CONTEXT_SIZES);
	old = MemoryContextSwitchTo(fs->cxt);
	pmfdw_get_table_options(scan_table_oid(plan), &fs->opts);
	fs->env = pmfdw_env_create(fs->cxt);
	fs->io = pmfdw_fileio_create(fs->cxt);
	fs->table = pmfdw_open_table(&fs->opts, fs->env, fs->io, NULL);

	if (scan_agg_spec(plan) != NIL)
	{
		Relation	agg_rel = table_open(scan_table_oid(plan), AccessShareLock);

		fs->agg_exec = pmfdw_agg_exec_begin(scan_agg_spec(plan), agg_rel, fs->table, &fs->scan,
											fs->env, fs->cxt);
		table_close(agg_rel, NoLock);
		fs->claimed = -1;		/* a parallel partial aggregation claims units */
		MemoryContextSwitchTo(old);
		return;
	}
	if (scan_topn_spec(plan) != NIL)
	{
		Relation	topn_rel = table_open(scan_table_oid(plan), AccessShareLock);

		fs->topn_exec = pmfdw_topn_exec_begin(scan_topn_spec(plan), topn_rel, fs->table,
											  &fs->scan, fs->env, fs->cxt);
		table_close(topn_rel, NoLock);
		MemoryContextSwitchTo(old);
		return;
	}
	if (scan_count_only(plan) || scan_aggs(plan) != NIL)
	{
		fs->count_only = true;
		fs->aggs = scan_aggs(plan);
		fs->fields = palloc(sizeof(int));
		pm_error_clear(&err);
		if (pm_table_scan_plan(fs->table, NULL, &fs->scan, &err) != PM_OK)
			pmfdw_error(&err);
		MemoryContextSwitchTo(old);
		return;
	}

	fs->retrieved_attrs = (List *) linitial(plan->fdw_private);
	fs->key_order = scan_key_order(plan) > 0;
	fs->nfields = list_length(fs->retrieved_attrs);
	fs->fields = palloc(sizeof(int) * (fs->nfields + 1));
	fs->attnums = palloc(sizeof(AttrNumber) * (fs->nfields + 1));
	fs->conv = palloc(sizeof(PmfdwColumnConverter) * (fs->nfields + 1));
	fs->col_values = palloc0(sizeof(Datum *) * (fs->nfields + 1));
	fs->col_nulls = palloc0(sizeof(bool *) * (fs->nfields + 1));
	bind_columns(fs, rel);

	/* the target of an UPDATE or DELETE: its rows' ctids name their positions */
	fs->positions = (estate->es_plannedstmt->commandType == CMD_UPDATE ||
					 estate->es_plannedstmt->commandType == CMD_DELETE) &&
		list_member_int(estate->es_plannedstmt->resultRelations, (int) plan->scan.scanrelid);
	/* the scan is planned at the first row: a parallel worker learns its snapshot later */
	fs->claimed = -1;
	MemoryContextSwitchTo(old);
}

static bool
parallel_claim(void *ctx, int64_t unit)
{
	PaimonFdwScanState *fs = ctx;

	if (fs->claimed < unit)
		fs->claimed = (int64) pg_atomic_fetch_add_u64(&fs->pstate->next_unit, 1);
	return fs->claimed == unit;
}

static pm_predicate *join_key_range(PaimonFdwScanState *fs, pm_predicate *pred,
									pm_arena *arena);

/*
 * A lookup answered from resident files (pm_point_lookup_resident): its
 * row, if any, waits in fs->resident_batch. False: plan and read it.
 */
static bool
resident_lookup(PaimonFdwScanState *fs, pm_predicate *pred)
{
	int			result;
	pm_error	err;

	if (fs->resident_arena == NULL &&
		(fs->resident_arena = pm_arena_create(fs->env)) == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	pm_arena_reset(fs->resident_arena);
	pm_error_clear(&err);
	if (pm_point_lookup_resident(fs->table, fs->base_scan, pred, fs->fields, fs->nfields,
								 fs->resident_arena, &result, &fs->resident_batch,
								 &fs->lookups, &err) != PM_OK)
		pmfdw_error(&err);
	if (result == PM_RESIDENT_NO)
		return false;
	fs->resident = true;
	fs->scan = NULL;
	fs->read = NULL;
	fs->key_filter = NULL;
	return true;
}

/*
 * Plan the scan with the quals, run-time values as they are now, and open
 * the read (in a parallel scan: our share). The predicate and the values
 * live in a context of their own, gone once the scan is planned: a rescan
 * per outer row must not pile them up.
 */
static void
start_read(ForeignScanState *node, PaimonFdwScanState *fs)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	Relation	rel = node->ss.ss_currentRelation;
	MemoryContext pred_cxt = AllocSetContextCreate(fs->cxt, "paimon_fdw predicate",
												   PMFDW_CONTEXT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(pred_cxt);
	pm_arena   *arena = pm_arena_create(fs->env);
	pm_predicate *pred;
	pm_scan_options options;
	pm_error	err;
	const pm_scan_stats *st;
	int			npushed;
	int			nruntime;

	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	pred = NULL;
	if (pmfdw_enable_pushdown)
		pred = pmfdw_build_predicate(plan->scan.plan.qual, rel, plan->scan.scanrelid,
									 pm_table_schema(fs->table)->row_type, arena, &node->ss.ps,
									 &npushed, &nruntime);
	pmfdw_scan_options(&options);
	pm_error_clear(&err);
	fs->scan = NULL;
	fs->key_filter = NULL;
	if (!fs->lookup_tried && pred != NULL && pmfdw_enable_point_lookup &&
		scan_lookup_kind(plan) > 0)
	{
		/*
		 * A point lookup: the snapshot's files are planned once; each
		 * (re)scan keeps those that may hold its keys. The table cache's
		 * base (every file of the cached version) serves whatever the other
		 * quals are: the lookup prunes partitions and filters rows with the
		 * whole predicate (pm_point_lookup_plan_on), and Postgres rechecks
		 * every qual. Without it, the files of the quals known without
		 * run-time values.
		 */
		pm_predicate *static_pred = pred;

		MemoryContextSwitchTo(fs->cxt);
		if ((fs->base_scan = pmfdw_table_cache_base_scan(&fs->opts, fs->table, &options)) != NULL)
			fs->base_shared = true;
		else
		{
			MemoryContextSwitchTo(pred_cxt);
			if (nruntime > 0)
				static_pred = pmfdw_build_predicate(plan->scan.plan.qual, rel,
													plan->scan.scanrelid,
													pm_table_schema(fs->table)->row_type, arena,
													NULL, &npushed, &nruntime);
			MemoryContextSwitchTo(fs->cxt);
			if (pm_table_scan_plan_with(fs->table, static_pred, &options, &fs->base_scan,
										&err) != PM_OK)
				pmfdw_error(&err);
		}
		fs->lookup_tried = true;
	}
	/*
	 * (not in a parallel scan: the participants number the units of the
	 * files their quals select, the same quals for all)
	 */
	if (fs->join_keys != NULL && pm_key_set_count(fs->join_keys) > 0 && pmfdw_enable_pushdown &&
		fs->pstate == NULL)
		pred = join_key_range(fs, pred, arena);
	MemoryContextSwitchTo(fs->cxt);
	fs->resident = false;
	if (fs->base_scan != NULL && pred != NULL && pmfdw_enable_resident_lookup &&
		!fs->positions && fs->pstate == NULL && fs->join_keys == NULL && !fs->key_order &&
		resident_lookup(fs, pred))
	{
		pm_arena_destroy(arena);
		MemoryContextDelete(pred_cxt);
		fs->batch_meta = NULL;
		fs->started = true;
		MemoryContextSwitchTo(old);
		return;
	}
	if (fs->base_scan != NULL && pred != NULL)
	{
		if (pm_point_lookup_plan_on(fs->table, fs->base_scan, pred, &fs->scan, &fs->lookups,
									&err) != PM_OK)
			pmfdw_error(&err);
		if (fs->scan != NULL)
			fs->key_filter = pm_point_lookup_key_filter(fs->scan);
	}
	if (fs->scan == NULL &&
		pm_table_scan_plan_with(fs->table, pred, &options, &fs->scan, &err) != PM_OK)
		pmfdw_error(&err);
	pm_arena_destroy(arena);
	MemoryContextDelete(pred_cxt);
	st = pm_scan_get_stats(fs->scan);
	fs->executed_plans++;
	fs->executed.files_total += st->files_total;
	fs->executed.files_pruned_partition += st->files_pruned_partition;
	fs->executed.files_pruned_bucket += st->files_pruned_bucket;
	fs->executed.files_pruned_stats += st->files_pruned_stats;
	fs->executed.files_pruned_index += st->files_pruned_index;
	fs->executed.files_selected += st->files_selected;
	fs->batch_meta = NULL;
	if (fs->positions && !pm_scan_needs_merge(fs->scan))
	{
		if (pm_table_read_open_positions(fs->scan, fs->fields, fs->nfields, &fs->read,
										 &err) != PM_OK)
			pmfdw_error(&err);
	}
	else if (fs->key_order)
	{
		if (pm_table_read_open_ordered(fs->scan, fs->fields, fs->nfields, &fs->read,
									   &err) != PM_OK)
			pmfdw_error(&err);
	}
	else if (pm_table_read_open(fs->scan, fs->fields, fs->nfields, &fs->read, &err) != PM_OK)
		pmfdw_error(&err);
	if (fs->pstate != NULL)
	{
		pm_table_read_set_claim(fs->read, parallel_claim, fs);
		pm_scan_set_part_units(fs->scan, (int64) pmfdw_parallel_split_size * 1024);
		pm_scan_set_participants(fs->scan, fs->pstate->participants);
	}
	fs->started = true;
	MemoryContextSwitchTo(old);
}

/*
 * The inner scan of a key join: pred AND key >= the smallest outer key AND
 * key <= the largest (each within the key type's range), so files, row
 * groups and pages outside the outer keys' range are pruned. In arena.
 */
static pm_predicate *
join_key_range(PaimonFdwScanState *fs, pm_predicate *pred, pm_arena *arena)
{
	int			field = fs->fields[fs->join_key_col];
	const pm_type *t = pm_table_schema(fs->table)->row_type->fields[field].type;
	int64_t		type_min = PG_INT64_MIN;
	int64_t		type_max = PG_INT64_MAX;
	int64		lo = pm_key_set_min(fs->join_keys);
	int64		hi = pm_key_set_max(fs->join_keys);
	pm_predicate *and = pm_arena_zalloc(arena, sizeof(pm_predicate));
	pm_predicate **children = pm_arena_zalloc(arena, sizeof(pm_predicate *) * 3);
	int			n = 0;

	if (and == NULL || children == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	pm_type_int_range(t->id, &type_min, &type_max);
	if (pred != NULL)
		children[n++] = pred;
	for (int bound = 0; bound < 2; bound++)
	{
		int64		v = bound == 0 ? lo : hi;
		pm_predicate *leaf;

		/* a bound beyond the type's range is no bound, or no row */
		if ((bound == 0 && v <= type_min) || (bound == 1 && v >= type_max))
			continue;
		leaf = pm_arena_zalloc(arena, sizeof(pm_predicate));
		if (leaf == NULL ||
			(leaf->literals = pm_arena_zalloc(arena, sizeof(pm_value))) == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		leaf->field = field;
		if ((bound == 0 && v > type_max) || (bound == 1 && v < type_min))
			leaf->op = PM_PRED_FALSE;
		else
		{
			leaf->op = bound == 0 ? PM_PRED_GE : PM_PRED_LE;
			leaf->nliterals = 1;
			leaf->literals[0].u.i64 = v;
		}
		children[n++] = leaf;
	}
	if (n == 1)
		return children[0];
	if (n == 0)
		return pred;
	and->op = PM_PRED_AND;
	and->field = -1;
	and->nchildren = n;
	and->children = children;
	return and;
}

/* error context of converting a batch: where its rows came from */
static void
source_context(void *arg)
{
	pm_table_read *read = arg;
	bool		merged;
	const char *path = read != NULL ? pm_table_read_source(read, &merged) : NULL;

	if (path == NULL)
		return;
	if (merged)
		errcontext("rows merged from the Paimon files of bucket \"%s\"", path);
	else
		errcontext("Paimon file \"%s\"", path);
}

/*
 * Before converting n rows of a batch: room for them in the Datum arrays,
 * the last batch's values freed, batch_cxt current (the old context
 * returned) and the error context naming the rows' files pushed.
 */
static MemoryContext
begin_convert(PaimonFdwScanState *fs, int64 n, ErrorContextCallback *errcb)
{
	MemoryContextReset(fs->batch_cxt);
	if (n > fs->col_capacity)
	{
		for (int i = 0; i < fs->nfields; i++)
		{
			if (fs->col_values[i])
				pfree(fs->col_values[i]);
			if (fs->col_nulls[i])
				pfree(fs->col_nulls[i]);
			fs->col_values[i] = MemoryContextAllocHuge(fs->cxt, sizeof(Datum) * n);
			fs->col_nulls[i] = MemoryContextAllocHuge(fs->cxt, sizeof(bool) * n);
		}
		fs->col_capacity = n;
	}
	errcb->callback = source_context;
	errcb->arg = fs->read;
	errcb->previous = error_context_stack;
	error_context_stack = errcb;
	return MemoryContextSwitchTo(fs->batch_cxt);
}

/*
 * Convert every retrieved column of the new batch at once (column at a
 * time is where the per-type loops are tight); rows are then served from
 * the Datum arrays. Values live in batch_cxt until the next batch: the
 * executor only needs a scan tuple until the next call.
 */
static void
convert_batch(PaimonFdwScanState *fs)
{
	int64		n = fs->batch->nrows;
	MemoryContext old;
	ErrorContextCallback errcb;

	fs->compact = false;
	old = begin_convert(fs, n, &errcb);
	for (int i = 0; i < fs->nfields; i++)
		pmfdw_convert_column(&fs->conv[i], &fs->batch->cols[i], n,
							 fs->col_values[i], fs->col_nulls[i]);
	error_context_stack = errcb.previous;
	MemoryContextSwitchTo(old);
}

/*
 * Convert only the batch's rows in fs->key_rows, into the first nkey_rows
 * entries of the Datum arrays: the inner scan of a key join keeps few rows
 * of most batches (1% for 100,000 keys of 10M), and converting the others
 * (strings copied, numerics built) would cost more than the read.
 */
static void
convert_key_rows(PaimonFdwScanState *fs)
{
	int64		n = fs->nkey_rows;
	MemoryContext old;
	ErrorContextCallback errcb;

	fs->compact = true;
	old = begin_convert(fs, n, &errcb);
	for (int i = 0; i < fs->nfields; i++)
		for (int64 k = 0; k < n; k++)
			fs->col_values[i][k] = pmfdw_convert_value(&fs->conv[i], &fs->batch->cols[i],
													   fs->key_rows[k], &fs->col_nulls[i][k]);
	error_context_stack = errcb.previous;
	MemoryContextSwitchTo(old);
}

/*
 * The row count of a pushed-down count(*): from the files' recorded row
 * counts when they are exact for the snapshot being read (checked again
 * here: the plan may be older than the table), else by reading no columns.
 */
static int64
count_rows(PaimonFdwScanState *fs)
{
	pm_table_read *read;
	pm_batch   *batch;
	pm_error	err;
	int64		n = 0;
	MemoryContext old;

	if (count_is_exact(fs->scan))
		return pm_scan_get_stats(fs->scan)->rows_selected;
	pm_error_clear(&err);
	old = MemoryContextSwitchTo(fs->cxt);
	if (pm_table_read_open(fs->scan, fs->fields, 0, &read, &err) != PM_OK)
		pmfdw_error(&err);
	fs->read = read;
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		if (pm_table_read_next(read, &batch, &err) != PM_OK)
			pmfdw_error(&err);
		if (batch == NULL)
			break;
		n += batch->nrows;
	}
	MemoryContextSwitchTo(old);
	return n;
}

/*
 * A min/max statistic of column col as a Datum of the column's type
 * (scan_min_max.h types).
 */
static Datum
stat_datum(const pm_type *type, const pm_value *v, const char *col)
{
	switch (type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
			return Int16GetDatum((int16) v->u.i64);
		case PM_TYPE_INT:
			return Int32GetDatum((int32) v->u.i64);
		case PM_TYPE_BIGINT:
			return Int64GetDatum(v->u.i64);
		case PM_TYPE_DATE:
			return pmfdw_date_datum(v->u.i64, col);
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			/* microseconds, the nanos below them dropped: the floor Postgres reads */
			return pmfdw_timestamp_datum(v->u.i64, col);
		case PM_TYPE_DECIMAL:
			{
				pm_int128	u = v->u.i128;
				bool		neg = u < 0;
				unsigned __int128 a = neg ? -(unsigned __int128) u : (unsigned __int128) u;
				char		digits[64];
				char		text[80];
				int			n = 0;
				int			k = 0;

				do
				{
					digits[n++] = (char) ('0' + (int) (a % 10));
					a /= 10;
				} while (a != 0);
				while (n <= type->scale)
					digits[n++] = '0';
				if (neg)
					text[k++] = '-';
				for (int i = n - 1; i >= 0; i--)
				{
					text[k++] = digits[i];
					if (i == type->scale && i > 0)
						text[k++] = '.';
				}
				text[k] = '\0';
				return DirectFunctionCall3(numeric_in, CStringGetDatum(text),
										   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
			}
		default:
			elog(ERROR, "unexpected Paimon type %s for min/max", pm_type_id_name(type->id));
	}
	return (Datum) 0;
}

/*
 * min/max of the pushed-down aggregates by reading their columns: the
 * snapshot being read no longer lets the metadata answer.
 */
static void
aggregate_by_scanning(PaimonFdwScanState *fs, Relation rel, int *fields, Oid *types,
					  int64 *count, Datum *values, bool *nulls)
{
	int			n = list_length(fs->aggs);
	PmfdwColumnConverter *conv = palloc(sizeof(PmfdwColumnConverter) * n);
	FmgrInfo  **cmp = palloc0(sizeof(FmgrInfo *) * n);
	const pm_type *row_type = pm_table_schema(fs->table)->row_type;
	pm_table_read *read;
	pm_batch   *batch;
	pm_error	err;
	ListCell   *lc;
	int			i = 0;

	foreach(lc, fs->aggs)
	{
		List	   *agg = lfirst(lc);

		nulls[i] = true;
		if (linitial_int(agg) == AGG_COUNT)
		{
			values[i] = Int64GetDatum(0);
			nulls[i] = false;
		}
		else if (linitial_int(agg) != AGG_COUNT_STAR)
		{
			pmfdw_converter_init(&conv[i], row_type->fields[fields[i]].type, types[i],
								 NameStr(TupleDescAttr(RelationGetDescr(rel),
													   lsecond_int(agg) - 1)->attname));
			cmp[i] = &lookup_type_cache(types[i], TYPECACHE_CMP_PROC_FINFO)->cmp_proc_finfo;
			if (!OidIsValid(cmp[i]->fn_oid))
				elog(ERROR, "no comparison function for type %u", types[i]);
		}
		i++;
	}
	*count = 0;
	pm_error_clear(&err);
	if (pm_table_read_open(fs->scan, fields, n, &read, &err) != PM_OK)
		pmfdw_error(&err);
	fs->read = read;
	for (;;)
	{
		MemoryContext old;
		ErrorContextCallback errcb;

		CHECK_FOR_INTERRUPTS();
		if (pm_table_read_next(read, &batch, &err) != PM_OK)
			pmfdw_error(&err);
		if (batch == NULL)
			break;
		*count += batch->nrows;
		MemoryContextReset(fs->batch_cxt);
		old = MemoryContextSwitchTo(fs->batch_cxt);
		errcb.callback = source_context;
		errcb.arg = read;
		errcb.previous = error_context_stack;
		error_context_stack = &errcb;
		i = 0;
		foreach(lc, fs->aggs)
		{
			int			kind = linitial_int((List *) lfirst(lc));

			if (kind == AGG_COUNT)
			{
				int64		n = DatumGetInt64(values[i]);

				for (int64 r = 0; r < batch->nrows; r++)
					n += !pm_vector_is_null(&batch->cols[i], r);
				values[i] = Int64GetDatum(n);
				i++;
				continue;
			}
			for (int64 r = 0; kind != AGG_COUNT_STAR && r < batch->nrows; r++)
			{
				bool		isnull;
				Datum		d = pmfdw_convert_value(&conv[i], &batch->cols[i], r, &isnull);
				int			c;

				if (isnull)
					continue;
				if (!nulls[i])
				{
					c = DatumGetInt32(FunctionCall2Coll(cmp[i], InvalidOid, d, values[i]));
					if (kind == AGG_MIN ? c >= 0 : c <= 0)
						continue;
				}
				MemoryContextSwitchTo(fs->cxt);
				values[i] = datumCopy(d, types[i] != NUMERICOID, types[i] == NUMERICOID ? -1 : 8);
				MemoryContextSwitchTo(fs->batch_cxt);
				nulls[i] = false;
			}
			i++;
		}
		error_context_stack = errcb.previous;
		MemoryContextSwitchTo(old);
	}
}

/*
 * The row of pushed-down count(*)/count/min/max aggregates: from the metadata
 * when it is exact for the snapshot being read (checked again here: the
 * plan may be older than the table), else by reading the columns.
 */
static void
aggregate_row(ForeignScanState *node, PaimonFdwScanState *fs, TupleTableSlot *slot)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	Relation	rel = table_open(scan_table_oid(plan), AccessShareLock);
	const pm_type *row_type = pm_table_schema(fs->table)->row_type;
	int			n = list_length(fs->aggs);
	int		   *fields = palloc0(sizeof(int) * n);
	Oid		   *types = palloc0(sizeof(Oid) * n);
	Datum	   *values = palloc0(sizeof(Datum) * n);
	bool	   *nulls = palloc0(sizeof(bool) * n);
	bool		exact = count_is_exact(fs->scan);
	int64		count = pm_scan_get_stats(fs->scan)->rows_selected;
	MemoryContext old = MemoryContextSwitchTo(fs->cxt);
	pm_field_summary *sum;
	pm_error	err;
	ListCell   *lc;
	int			i = 0;

	foreach(lc, fs->aggs)
	{
		List	   *agg = lfirst(lc);
		Form_pg_attribute att;

		/* count(*) keeps field 0: aggregate_by_scanning reads a column */
		if (linitial_int(agg) != AGG_COUNT_STAR)
		{
			att = TupleDescAttr(RelationGetDescr(rel), lsecond_int(agg) - 1);
			fields[i] = attr_field(rel, row_type, lsecond_int(agg));
			types[i] = att->atttypid;
			if (linitial_int(agg) == AGG_COUNT)
			{
				/* a changed type is counted by reading */
				if (pmfdw_type_oid(row_type->fields[fields[i]].type) != types[i])
					exact = false;
			}
			else if (!pm_min_max_type_supported(row_type->fields[fields[i]].type) ||
					 pmfdw_type_oid(row_type->fields[fields[i]].type) != types[i])
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
						 errmsg("column \"%s\" changed type since the query was planned",
								NameStr(att->attname))));
		}
		i++;
	}
	pm_error_clear(&err);
	if (pm_scan_field_summaries(fs->scan, n, fields, &sum, &err) != PM_OK)
		pmfdw_error(&err);
	i = 0;
	foreach(lc, fs->aggs)
	{
		List	   *agg = lfirst(lc);
		int			kind = linitial_int(agg);

		values[i] = Int64GetDatum(count);
		if (kind == AGG_COUNT)
		{
			exact &= sum[i].count_exact;
			values[i] = Int64GetDatum(sum[i].count);
		}
		else if (kind != AGG_COUNT_STAR)
		{
			const pm_field_min_max *mm = &sum[i].mm;

			if (!mm->exact)
				exact = false;
			else if (mm->all_null)
				nulls[i] = true;
			else
				values[i] = stat_datum(row_type->fields[fields[i]].type,
									   kind == AGG_MIN ? &mm->min : &mm->max,
									   NameStr(TupleDescAttr(RelationGetDescr(rel),
															 lsecond_int(agg) - 1)->attname));
		}
		i++;
	}
	if (exact)
	{
		memcpy(slot->tts_values, values, sizeof(Datum) * n);
		memcpy(slot->tts_isnull, nulls, sizeof(bool) * n);
	}
	else
	{
		aggregate_by_scanning(fs, rel, fields, types, &count, slot->tts_values,
							  slot->tts_isnull);
		i = 0;
		foreach(lc, fs->aggs)
		{
			if (linitial_int((List *) lfirst(lc)) == AGG_COUNT_STAR)
			{
				slot->tts_values[i] = Int64GetDatum(count);
				slot->tts_isnull[i] = false;
			}
			i++;
		}
	}
	MemoryContextSwitchTo(old);
	table_close(rel, NoLock);
}

/* Room in fs->key_rows for a row number per row of the batch. */
static void
key_rows_room(PaimonFdwScanState *fs)
{
	if (fs->batch->nrows > fs->key_rows_cap)
	{
		if (fs->key_rows)
			pfree(fs->key_rows);
		fs->key_rows = MemoryContextAllocHuge(fs->cxt, sizeof(int64) * fs->batch->nrows);
		fs->key_rows_cap = fs->batch->nrows;
	}
}

/*
 * A lookup's batch: the rows of a looked-up key (fs->key_rows), false if
 * none. The merge hands over every key of the files it read; Postgres
 * would drop the others after converting them.
 */
static bool
select_key_rows(PaimonFdwScanState *fs)
{
	MemoryContext old = MemoryContextSwitchTo(fs->cxt);

	key_rows_room(fs);
	fs->nkey_rows = pmfdw_lookup_rows(fs->env, fs->key_filter, pm_table_schema(fs->table)->row_type,
									  fs->batch, fs->fields, fs->nfields, fs->key_rows);
	MemoryContextSwitchTo(old);
	return fs->nkey_rows != 0;
}

/*
 * The inner scan of a key join: the rows of the batch whose key is one of
 * the outer side's (fs->key_rows), false if none. Not converted, the others
 * cost the decoding alone.
 */
static bool
select_join_key_rows(PaimonFdwScanState *fs)
{
	const pm_vector *v = &fs->batch->cols[fs->join_key_col];

	key_rows_room(fs);
	fs->nkey_rows = pm_key_set_select(fs->join_keys, v, fs->batch->nrows, fs->key_rows);
	fs->join_rows_read += fs->batch->nrows;
	fs->join_rows_kept += fs->nkey_rows;
	return fs->nkey_rows != 0;
}

/*
 * key_join.c: the rows this scan returns need only have a key in keys
 * (NULL: every row), the value of column attnum; until the next call. A
 * scan that does not read that column as an integer returns every row.
 */
void
pmfdw_scan_set_join_keys(ForeignScanState *node, AttrNumber attnum, const pm_key_set *keys)
{
	PaimonFdwScanState *fs = node->fdw_state;

	if (fs == NULL)
		return;
	fs->join_keys = NULL;
	fs->join_key_col = -1;
	if (keys == NULL || fs->agg_exec != NULL || fs->topn_exec != NULL || fs->count_only)
		return;
	for (int i = 0; i < fs->nfields; i++)
	{
		const pm_type *t = pm_table_schema(fs->table)->row_type->fields[fs->fields[i]].type;

		if (fs->attnums[i] == attnum &&
			(t->id == PM_TYPE_TINYINT || t->id == PM_TYPE_SMALLINT || t->id == PM_TYPE_INT ||
			 t->id == PM_TYPE_BIGINT))
		{
			fs->join_keys = keys;
			fs->join_key_col = i;
		}
	}
}

/*
 * The batch just read: its rows' positions, and its file's ordinal among
 * the files this scan read (a new entry of fs->row_files for a new file).
 */
static void
note_batch_file(PaimonFdwScanState *fs)
{
	const pm_split *sp;
	const pm_data_file_meta *f;
	MemoryContext old;
	PmfdwRowFile *rf;
	pm_append_dv_file *af;

	fs->batch_positions = pm_table_read_positions(fs->read, &sp, &f);
	if (fs->batch_positions == NULL || f == NULL || sp == NULL)
		elog(ERROR, "paimon_fdw: a batch without row positions");
	if (f == fs->batch_meta)
		return;
	fs->batch_meta = f;
	/* a file read before (a rescan): its entry again */
	for (int i = fs->nrow_files - 1; i >= 0; i--)
	{
		const pm_append_dv_file *e = fs->row_files[i].file;

		if (strcmp(e->file_name, f->file_name) == 0 && e->bucket == sp->bucket &&
			e->partition_len == sp->partition_len &&
			(sp->partition_len == 0 ||
			 memcmp(e->partition, sp->partition, sp->partition_len) == 0))
		{
			fs->batch_file = i;
			return;
		}
	}
	if (fs->nrow_files >= (int) MaxOffsetNumber - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("UPDATE or DELETE of Paimon table \"%s.%s\" reads more than %d data files",
						fs->opts.database, fs->opts.table, (int) MaxOffsetNumber - 2),
				 errhint("Restrict the statement with a WHERE clause on partition columns.")));
	old = MemoryContextSwitchTo(fs->cxt);
	if (fs->nrow_files == fs->row_files_cap)
	{
		fs->row_files_cap = fs->row_files_cap > 0 ? fs->row_files_cap * 2 : 16;
		fs->row_files = fs->row_files == NULL
			? palloc(sizeof(PmfdwRowFile) * fs->row_files_cap)
			: repalloc(fs->row_files, sizeof(PmfdwRowFile) * fs->row_files_cap);
	}
	rf = &fs->row_files[fs->nrow_files];
	af = palloc0(sizeof(pm_append_dv_file));
	af->partition = sp->partition_len > 0 ? memcpy(palloc(sp->partition_len), sp->partition,
												   sp->partition_len) : NULL;
	af->partition_len = sp->partition_len;
	af->bucket = sp->bucket;
	af->bucket_dir = pstrdup(sp->bucket_path);
	af->file_name = pstrdup(f->file_name);
	af->row_count = f->row_count;
	if (f->deletion_file != NULL)
	{
		pm_deletion_file *d = palloc(sizeof(pm_deletion_file));

		*d = *f->deletion_file;
		d->path = pstrdup(f->deletion_file->path);
		af->deletion_file = d;
	}
	rf->file = af;
	rf->snapshot_id = pm_table_snapshot_id(fs->table);
	fs->batch_file = fs->nrow_files++;
	MemoryContextSwitchTo(old);
}

static TupleTableSlot *paimonIterateForeignScan(ForeignScanState *node);

bool
pmfdw_is_scan(PlanState *ps)
{
	return IsA(ps, ForeignScanState) &&
		((ForeignScanState *) ps)->fdwroutine != NULL &&
		((ForeignScanState *) ps)->fdwroutine->IterateForeignScan == paimonIterateForeignScan;
}

const PmfdwRowFile *
pmfdw_scan_row_file(ForeignScanState *node, ItemPointer tid, int64 *pos)
{
	PaimonFdwScanState *fs = node->fdw_state;
	int			ordinal = (int) ItemPointerGetOffsetNumberNoCheck(tid) - 1;

	if (fs == NULL || !fs->positions || ordinal < 0 || ordinal >= fs->nrow_files)
		elog(ERROR, "paimon_fdw: ctid (%u,%u) names no data file of the scan",
			 ItemPointerGetBlockNumberNoCheck(tid), ItemPointerGetOffsetNumberNoCheck(tid));
	*pos = (int64) ItemPointerGetBlockNumberNoCheck(tid);
	return &fs->row_files[ordinal];
}

static TupleTableSlot *
iterate_scan(ForeignScanState *node)
{
	PaimonFdwScanState *fs = node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	int			natts = slot->tts_tupleDescriptor->natts;
	int64		row;

	ExecClearTuple(slot);
	if (fs->agg_exec != NULL)
		return pmfdw_agg_exec_next(fs->agg_exec, slot) ? ExecStoreVirtualTuple(slot) : slot;
	if (fs->topn_exec != NULL)
		return pmfdw_topn_exec_next(fs->topn_exec, slot) ? ExecStoreVirtualTuple(slot) : slot;
	if (!fs->started && !fs->count_only)
		start_read(node, fs);
	if (fs->count_only)
	{
		int64		n;

		if (fs->count_done)
			return slot;
		if (fs->aggs != NIL)
		{
			aggregate_row(node, fs, slot);
			fs->count_done = true;
			return ExecStoreVirtualTuple(slot);
		}
		n = count_rows(fs);
		for (int a = 0; a < natts; a++)
		{
			slot->tts_values[a] = Int64GetDatum(n);
			slot->tts_isnull[a] = false;
		}
		fs->count_done = true;
		return ExecStoreVirtualTuple(slot);
	}
	while (!fs->done && (fs->batch == NULL ||
						 fs->row >= (fs->nkey_rows >= 0 ? fs->nkey_rows : fs->batch->nrows)))
	{
		pm_error	err;
		MemoryContext old;

		CHECK_FOR_INTERRUPTS();
		pm_error_clear(&err);
		old = MemoryContextSwitchTo(fs->cxt);
		if (fs->resident)
		{
			fs->batch = fs->resident_batch;
			fs->resident_batch = NULL;
		}
		else if (pm_table_read_next(fs->read, &fs->batch, &err) != PM_OK)
			pmfdw_error(&err);
		MemoryContextSwitchTo(old);
		fs->row = 0;
		fs->nkey_rows = -1;
		if (fs->batch == NULL)
			fs->done = true;
		else if (fs->key_filter != NULL && !select_key_rows(fs))
			continue;			/* no row of a looked-up key: not even converted */
		else if (fs->key_filter == NULL && fs->join_keys != NULL && !select_join_key_rows(fs))
			continue;			/* no row of an outer key */
		else
		{
			if (fs->positions && !pm_scan_needs_merge(fs->scan))
				note_batch_file(fs);
			if (fs->key_filter == NULL && fs->join_keys != NULL &&
				fs->nkey_rows * 4 < fs->batch->nrows)
				convert_key_rows(fs);
			else
				convert_batch(fs);
		}
	}
	if (fs->done)
		return slot;

	if (fs->compact)
		row = fs->row++;		/* the key_rows' values, in order */
	else
		row = fs->nkey_rows >= 0 ? fs->key_rows[fs->row++] : fs->row++;
	if (fs->nfields < natts)
		memset(slot->tts_isnull, true, sizeof(bool) * natts);
	for (int i = 0; i < fs->nfields; i++)
	{
		int			a = fs->attnums[i] - 1;

		slot->tts_values[a] = fs->col_values[i][row];
		slot->tts_isnull[a] = fs->col_nulls[i][row];
	}
	ExecStoreVirtualTuple(slot);
	if (fs->batch_positions != NULL)
	{
		int64		pos = fs->batch_positions[row];

		if (pos < 0 || pos >= (int64) MaxBlockNumber)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("row position " INT64_FORMAT " of Paimon data file \"%s\" is too large to update or delete",
							pos, fs->row_files[fs->batch_file].file->file_name)));
		ItemPointerSet(&slot->tts_tid, (BlockNumber) pos, (OffsetNumber) (fs->batch_file + 1));
	}
	return slot;
}

/*
 * What begin and iterate did: the metadata cache lookups they made (the
 * table's metadata, manifests and footers), the page cache's, and the time
 * they took, of which file reads and decompression (common/read_timing.h),
 * for EXPLAIN ANALYZE.
 */
typedef struct scan_counters
{
	pm_meta_cache_stats meta;
	pm_page_lru_stats pages;
	pm_read_timing timing;
	int64_t		start_ns;
} scan_counters;

static void
counters_start(scan_counters *c)
{
	pm_meta_cache_get_stats(&c->meta);
	pm_page_lru_get_stats(&c->pages);
	pm_read_timing_get(&c->timing);
	c->start_ns = pm_read_timing_now();
}

static void
counters_add(ForeignScanState *node, const scan_counters *before)
{
	PaimonFdwScanState *fs = node->fdw_state;
	scan_counters after;

	if (fs == NULL)
		return;
	counters_start(&after);
	fs->cache_hits += after.meta.hits - before->meta.hits;
	fs->cache_misses += after.meta.misses - before->meta.misses;
	fs->page_hits += after.pages.hits - before->pages.hits;
	fs->page_misses += after.pages.misses - before->pages.misses;
	fs->read_ns += after.start_ns - before->start_ns;
	fs->timing.io_calls += after.timing.io_calls - before->timing.io_calls;
	fs->timing.io_bytes += after.timing.io_bytes - before->timing.io_bytes;
	fs->timing.io_ns += after.timing.io_ns - before->timing.io_ns;
	fs->timing.decompress_calls += after.timing.decompress_calls - before->timing.decompress_calls;
	fs->timing.decompress_bytes += after.timing.decompress_bytes - before->timing.decompress_bytes;
	fs->timing.decompress_ns += after.timing.decompress_ns - before->timing.decompress_ns;
}

static void
paimonBeginForeignScan(ForeignScanState *node, int eflags)
{
	scan_counters before;

	counters_start(&before);
	begin_scan(node, eflags);
	counters_add(node, &before);
}

static TupleTableSlot *
paimonIterateForeignScan(ForeignScanState *node)
{
	PaimonFdwScanState *fs = node->fdw_state;
	scan_counters before;
	TupleTableSlot *slot;

	/* a row of the current batch: nothing read, nothing to count (calls a row saved) */
	if (fs != NULL && fs->started && !fs->done && fs->batch != NULL &&
		fs->agg_exec == NULL && fs->topn_exec == NULL && !fs->count_only &&
		fs->row < (fs->nkey_rows >= 0 ? fs->nkey_rows : fs->batch->nrows))
		return iterate_scan(node);
	counters_start(&before);
	slot = iterate_scan(node);
	counters_add(node, &before);
	return slot;
}

/* Add what reading the scan's files pruned inside them to fs->executed. */
static void
add_read_counts(pm_scan_stats *to, const pm_scan_stats *st)
{
	to->row_groups_total += st->row_groups_total;
	to->row_groups_pruned += st->row_groups_pruned;
	to->stripes_total += st->stripes_total;
	to->stripes_pruned += st->stripes_pruned;
	to->stripes_bloom_pruned += st->stripes_bloom_pruned;
	to->row_groups_unselected += st->row_groups_unselected;
	to->stripes_unselected += st->stripes_unselected;
	to->pages_total += st->pages_total;
	to->pages_pruned += st->pages_pruned;
	to->orc_groups_total += st->orc_groups_total;
	to->orc_groups_pruned += st->orc_groups_pruned;
}

static void
add_timing(pm_read_timing *to, const pm_read_timing *t)
{
	to->io_calls += t->io_calls;
	to->io_bytes += t->io_bytes;
	to->io_ns += t->io_ns;
	to->decompress_calls += t->decompress_calls;
	to->decompress_bytes += t->decompress_bytes;
	to->decompress_ns += t->decompress_ns;
}

static void
close_scan(PaimonFdwScanState *fs)
{
	if (fs->read != NULL)
		fs->key_ranges = Max(fs->key_ranges, pm_table_read_key_ranges(fs->read));
	pm_table_read_close(fs->read);
	fs->read = NULL;
	if (fs->scan)
	{
		add_read_counts(&fs->executed, pm_scan_get_stats(fs->scan));
		pm_scan_free(fs->scan);
	}
	fs->scan = NULL;
	fs->key_filter = NULL;
}

static void
paimonReScanForeignScan(ForeignScanState *node)
{
	PaimonFdwScanState *fs = node->fdw_state;

	if (fs->agg_exec != NULL)
	{
		pmfdw_agg_exec_rescan(fs->agg_exec);
		fs->claimed = -1;
		return;
	}
	if (fs->topn_exec != NULL)
	{
		pmfdw_topn_exec_rescan(fs->topn_exec);
		return;
	}
	if (fs->count_only)
	{
		fs->count_done = false;
		return;
	}
	close_scan(fs);
	fs->batch_meta = NULL;		/* the files are planned again */
	fs->batch_positions = NULL;
	fs->started = false;		/* re-planned (or looked up) at the next row */
	fs->claimed = -1;
	fs->batch = NULL;
	fs->row = 0;
	fs->done = false;
}

/* ---- parallel scans ---- */

static bool
paimonIsForeignScanParallelSafe(PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte)
{
	return true;
}

static Size
paimonEstimateDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt)
{
	return sizeof(PaimonFdwParallelState);
}

static void
paimonInitializeDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt,
							   void *coordinate)
{
	PaimonFdwScanState *fs = node->fdw_state;
	PaimonFdwParallelState *ps = coordinate;

	pg_atomic_init_u64(&ps->next_unit, 0);
	ps->version = pm_table_get_version(fs->table);
	SpinLockInit(&ps->mutex);
	memset(&ps->workers, 0, sizeof(ps->workers));
	/*
	 * The workers only: a leader that reads also gathers, and taking it as
	 * one more reader cut the buckets of a 2-bucket table read by 2 workers
	 * into key ranges, which cost more than it balanced (bench/README.md).
	 */
	ps->participants = pcxt->nworkers > 0 ? pcxt->nworkers : 1;
	fs->pstate = ps;
	fs->workers_taken = false;
	if (fs->agg_exec != NULL)
	{
		pmfdw_agg_exec_set_claim(fs->agg_exec, parallel_claim, fs,
								 (int64) pmfdw_parallel_split_size * 1024);
		pm_scan_set_participants(fs->scan, ps->participants);
	}
}

static void
paimonReInitializeDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt,
								 void *coordinate)
{
	PaimonFdwParallelState *ps = coordinate;

	pg_atomic_write_u64(&ps->next_unit, 0);
}

static void
paimonInitializeWorkerForeignScan(ForeignScanState *node, shm_toc *toc, void *coordinate)
{
	PaimonFdwScanState *fs = node->fdw_state;
	PaimonFdwParallelState *ps = coordinate;
	pm_table_version mine = pm_table_get_version(fs->table);

	/*
	 * Every participant must number the same units: same snapshot, same
	 * schema. BeginForeignScan opened what this worker found; should a
	 * commit have landed since the leader opened the table, reopen the
	 * leader's version.
	 */
	if (mine.snapshot_id != ps->version.snapshot_id || mine.schema_id != ps->version.schema_id)
	{
		MemoryContext old = MemoryContextSwitchTo(fs->cxt);

		if (fs->agg_exec != NULL)
		{
			pm_scan_free(fs->scan);
			fs->scan = NULL;
		}
		pm_table_close(fs->table);
		fs->table = NULL;
		fs->table = pmfdw_open_table(&fs->opts, fs->env, fs->io, &ps->version);
		if (fs->agg_exec != NULL)
		{
			ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
			Relation	agg_rel = table_open(scan_table_oid(plan), AccessShareLock);

			/* the old one's memory goes with the scan's */
			fs->agg_exec = pmfdw_agg_exec_begin(scan_agg_spec(plan), agg_rel, fs->table,
												&fs->scan, fs->env, fs->cxt);
			table_close(agg_rel, NoLock);
		}
		else
			bind_columns(fs, node->ss.ss_currentRelation);
		MemoryContextSwitchTo(old);
	}
	fs->pstate = ps;
	if (fs->agg_exec != NULL)
	{
		pmfdw_agg_exec_set_claim(fs->agg_exec, parallel_claim, fs,
								 (int64) pmfdw_parallel_split_size * 1024);
		pm_scan_set_participants(fs->scan, ps->participants);
	}
}

static void
paimonEndForeignScan(ForeignScanState *node)
{
	PaimonFdwScanState *fs = node->fdw_state;

	if (fs == NULL)
		return;
	if (fs->agg_exec != NULL)
		pmfdw_agg_exec_rescan(fs->agg_exec);	/* closes its read */
	close_scan(fs);
	/*
	 * A worker's counts go to the leader through the shared state (this
	 * comes before the worker detaches from the leader's tuple queue, so a
	 * leader that read every row shuts down after it)
	 */
	if (fs->pstate != NULL && IsParallelWorker())
	{
		PaimonFdwWorkerCounts *w = &fs->pstate->workers;

		SpinLockAcquire(&fs->pstate->mutex);
		w->join_rows_read += fs->join_rows_read;
		w->join_rows_kept += fs->join_rows_kept;
		add_read_counts(&w->reads, &fs->executed);
		w->key_ranges = Max(w->key_ranges, fs->key_ranges);
		w->workers++;
		w->read_ns += fs->read_ns;
		add_timing(&w->timing, &fs->timing);
		SpinLockRelease(&fs->pstate->mutex);
	}
	if (!fs->base_shared)
		pm_scan_free(fs->base_scan);
	fs->base_scan = NULL;
	if (fs->resident_arena != NULL)
		pm_arena_destroy(fs->resident_arena);
	fs->resident_arena = NULL;
	pm_table_close(fs->table);
	MemoryContextDelete(fs->cxt);
	node->fdw_state = NULL;
}

/*
 * The leader, before the Gather above it waits for the workers and frees
 * the shared state: the workers' counts, for EXPLAIN ANALYZE (all of them
 * once the leader read every row; those that ended so far after a LIMIT).
 */
static void
paimonShutdownForeignScan(ForeignScanState *node)
{
	PaimonFdwScanState *fs = node->fdw_state;
	PaimonFdwWorkerCounts w;

	if (fs == NULL || fs->pstate == NULL || fs->workers_taken || IsParallelWorker())
		return;
	SpinLockAcquire(&fs->pstate->mutex);
	w = fs->pstate->workers;
	SpinLockRelease(&fs->pstate->mutex);
	fs->workers.join_rows_read += w.join_rows_read;
	fs->workers.join_rows_kept += w.join_rows_kept;
	add_read_counts(&fs->workers.reads, &w.reads);
	fs->workers.key_ranges = Max(fs->workers.key_ranges, w.key_ranges);
	fs->workers.workers += w.workers;
	fs->workers.read_ns += w.read_ns;
	add_timing(&fs->workers.timing, &w.timing);
	fs->workers_taken = true;
}

extern List *paimonImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid);

Datum
paimon_fdw_handler(PG_FUNCTION_ARGS)
{
	FdwRoutine *routine = makeNode(FdwRoutine);

	routine->GetForeignRelSize = paimonGetForeignRelSize;
	routine->AnalyzeForeignTable = paimonAnalyzeForeignTable;
	routine->GetForeignPaths = paimonGetForeignPaths;
	routine->GetForeignPlan = paimonGetForeignPlan;
	routine->ExplainForeignScan = paimonExplainForeignScan;
	routine->BeginForeignScan = paimonBeginForeignScan;
	routine->IterateForeignScan = paimonIterateForeignScan;
	routine->ReScanForeignScan = paimonReScanForeignScan;
	routine->EndForeignScan = paimonEndForeignScan;
	routine->GetForeignUpperPaths = paimonGetForeignUpperPaths;
	routine->IsForeignScanParallelSafe = paimonIsForeignScanParallelSafe;
	routine->EstimateDSMForeignScan = paimonEstimateDSMForeignScan;
	routine->InitializeDSMForeignScan = paimonInitializeDSMForeignScan;
	routine->ReInitializeDSMForeignScan = paimonReInitializeDSMForeignScan;
	routine->InitializeWorkerForeignScan = paimonInitializeWorkerForeignScan;
	routine->ShutdownForeignScan = paimonShutdownForeignScan;
	routine->ImportForeignSchema = paimonImportForeignSchema;
	routine->IsForeignRelUpdatable = paimonIsForeignRelUpdatable;
	routine->PlanForeignModify = paimonPlanForeignModify;
	routine->BeginForeignModify = paimonBeginForeignModify;
	routine->ExecForeignInsert = paimonExecForeignInsert;
	routine->AddForeignUpdateTargets = paimonAddForeignUpdateTargets;
	routine->ExecForeignUpdate = paimonExecForeignUpdate;
	routine->ExecForeignDelete = paimonExecForeignDelete;
	routine->EndForeignModify = paimonEndForeignModify;
	routine->BeginForeignInsert = paimonBeginForeignInsert;
	routine->EndForeignInsert = paimonEndForeignModify;	/* same state */
	PG_RETURN_POINTER(routine);
}
