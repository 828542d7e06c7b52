/*-------------------------------------------------------------------------
 * estimate.c
 *	  Row estimates for the planner, and ANALYZE of a foreign table.
 *
 * GetForeignRelSize plans the scan (paimon_fdw.c); the table's rows are
 * the row counts of its live files. The rows a scan returns:
 *	 - after ANALYZE, Postgres' own selectivity of the quals, which then has
 *	   the sampled statistics (histograms, distinct values, null fractions)
 *	   that joins need too;
 *	 - before it, the rows the files' min/max and null counts say match the
 *	   quals pushed with constants (table/scan_estimate.h), times Postgres'
 *	   selectivity of the other quals.
 * Never more than the files that survive pruning hold.
 *
 * Before ANALYZE, a one-column primary key of an unpartitioned table gets
 * statistics saying its values are distinct (stadistinct -1, no nulls,
 * nothing else) through get_relation_stats_hook: Postgres' default of 200
 * distinct values would make a join on the key 1/200 of the cross product
 * (7M rows for 100 outer rows against 14M), not a row per outer row.
 *
 * ANALYZE reads the table with the normal scan (every column, latest
 * snapshot or the one the options name) and keeps a uniform sample of
 * rows (reservoir sampling, as file_fdw does).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_statistic.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "nodes/pathnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/memutils.h"
#include "utils/sampling.h"

#include "common/arena.h"
#include "lsm/table_read.h"
#include "table/scan_estimate.h"

double
pmfdw_metadata_rows(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid,
					pm_table *table, pm_scan *scan)
{
	const pm_type *row_type = pm_table_schema(table)->row_type;
	pm_arena   *arena = pm_arena_create(pm_table_env(table));
	Relation	rel = table_open(foreigntableid, NoLock);
	List	   *pushed = NIL;
	List	   *rest = NIL;
	ListCell   *lc;
	pm_predicate *pred;
	pm_error	err;
	double		rows;
	int			npushed,
				nruntime;

	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	/* which quals the metadata can estimate: those pushed with constants */
	foreach(lc, baserel->baserestrictinfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		pmfdw_build_predicate(list_make1(ri), rel, baserel->relid, row_type, arena, NULL,
							  &npushed, &nruntime);
		if (npushed == 1)
			pushed = lappend(pushed, ri);
		else
			rest = lappend(rest, ri);
	}
	rows = -1;
	if (pushed != NIL)
	{
		pred = pmfdw_build_predicate(pushed, rel, baserel->relid, row_type, arena, NULL,
									 &npushed, &nruntime);
		pm_error_clear(&err);
		if (pm_scan_estimate_rows(scan, pred, &rows, &err) != PM_OK)
			pmfdw_error(&err);
		/* the other quals at Postgres' selectivity */
		rows *= clauselist_selectivity(root, rest, 0, JOIN_INNER, NULL);
	}
	table_close(rel, NoLock);
	pm_arena_destroy(arena);
	return rows;
}

void
pmfdw_set_rel_size(PlannerInfo *root, RelOptInfo *baserel, bool analyzed, int64 files_total,
				   int64 files_selected, int64 rows_selected, double metadata_rows)
{
	double		rows;

	/* the pruned files' rows are estimated at the kept files' average */
	baserel->tuples = (double) rows_selected;
	if (files_selected > 0)
		baserel->tuples *= (double) files_total / files_selected;
	if (!analyzed && metadata_rows >= 0)
		rows = metadata_rows;
	else
	{
		/*
		 * Pruning and the quals' selectivity estimate the same rows: apply
		 * the selectivity once, to the table's rows.
		 */
		rows = baserel->tuples * clauselist_selectivity(root, baserel->baserestrictinfo, 0,
														JOIN_INNER, NULL);
	}
	baserel->rows = clamp_row_est(Min(rows, (double) rows_selected));
}

/* ---- ANALYZE ------------------------------------------------------------ */

/*
 * Sample rows of the table (every column, in the relation's order):
 * targrows at most, uniformly chosen among all rows read.
 */
static int
acquire_sample_rows(Relation rel, int elevel, HeapTuple *rows, int targrows,
					double *totalrows, double *totaldeadrows)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "paimon_fdw analyze",
											  PMFDW_CONTEXT_SIZES);
	MemoryContext row_cxt = AllocSetContextCreate(cxt, "paimon_fdw analyze row",
												  ALLOCSET_SMALL_SIZES);
	PaimonFdwTableOptions opts;
	pm_env	   *env;
	pm_fileio  *io;
	pm_table   *table;
	pm_scan    *scan;
	pm_table_read *read;
	pm_batch   *batch;
	pm_error	err;
	const pm_type *row_type;
	int		   *fields;
	int		   *attr_of;		/* column of each read field */
	int			nfields = 0;
	PmfdwColumnConverter *conv;
	Datum	   *values;
	bool	   *nulls;
	ReservoirStateData rstate;
	double		rowstoskip = -1;
	double		seen = 0;
	int			numrows = 0;

	MemoryContextSwitchTo(cxt);
	pmfdw_get_table_options(RelationGetRelid(rel), &opts);
	env = pmfdw_env_create(cxt);
	io = pmfdw_fileio_create(cxt);
	table = pmfdw_open_table(&opts, env, io, NULL);
	row_type = pm_table_schema(table)->row_type;
	fields = palloc(sizeof(int) * (tupdesc->natts + 1));
	attr_of = palloc(sizeof(int) * (tupdesc->natts + 1));
	conv = palloc(sizeof(PmfdwColumnConverter) * (tupdesc->natts + 1));
	values = palloc(sizeof(Datum) * (tupdesc->natts + 1));
	nulls = palloc(sizeof(bool) * (tupdesc->natts + 1));
	for (int a = 0; a < tupdesc->natts; a++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, a);
		int			idx;

		if (att->attisdropped)
			continue;
		idx = pm_type_field_index(row_type, NameStr(att->attname));
		if (idx < 0)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column \"%s\" of foreign table \"%s\" does not exist in the Paimon table",
							NameStr(att->attname), RelationGetRelationName(rel)),
					 errhint("Foreign table columns are matched to Paimon fields by name.")));
		fields[nfields] = idx;
		attr_of[nfields] = a;
		pmfdw_converter_init(&conv[nfields], row_type->fields[idx].type, att->atttypid,
							 pstrdup(NameStr(att->attname)));
		nfields++;
	}
	pm_error_clear(&err);
	if (pm_table_scan_plan(table, NULL, &scan, &err) != PM_OK ||
		pm_table_read_open(scan, fields, nfields, &read, &err) != PM_OK)
		pmfdw_error(&err);

	reservoir_init_selection_state(&rstate, targrows);
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		vacuum_delay_point();
		if (pm_table_read_next(read, &batch, &err) != PM_OK)
			pmfdw_error(&err);
		if (batch == NULL)
			break;
		for (int64 r = 0; r < batch->nrows; r++)
		{
			int			slot = -1;

			/* the first targrows rows fill the sample; later ones replace at random */
			if (numrows < targrows)
				slot = numrows++;
			else
			{
				if (rowstoskip < 0)
					rowstoskip = reservoir_get_next_S(&rstate, seen, targrows);
				if (rowstoskip <= 0)
				{
					slot = (int) (targrows * sampler_random_fract(&rstate.randstate));
					heap_freetuple(rows[slot]);
				}
				rowstoskip -= 1;
			}
			seen += 1;
			if (slot < 0)
				continue;
			MemoryContextReset(row_cxt);
			MemoryContextSwitchTo(row_cxt);
			memset(nulls, true, sizeof(bool) * tupdesc->natts);
			for (int i = 0; i < nfields; i++)
				values[attr_of[i]] = pmfdw_convert_value(&conv[i], &batch->cols[i], r,
														 &nulls[attr_of[i]]);
			MemoryContextSwitchTo(caller);
			rows[slot] = heap_form_tuple(tupdesc, values, nulls);
			MemoryContextSwitchTo(cxt);
		}
	}
	pm_table_read_close(read);
	pm_scan_free(scan);
	pm_table_close(table);
	MemoryContextSwitchTo(caller);
	MemoryContextDelete(cxt);

	*totalrows = seen;
	*totaldeadrows = 0;
	ereport(elevel,
			(errmsg("\"%s\": Paimon table read, containing %.0f rows; %d rows in sample",
					RelationGetRelationName(rel), seen, numrows)));
	return numrows;
}

bool
paimonAnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func,
						  BlockNumber *totalpages)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "paimon_fdw analyze size",
											  PMFDW_CONTEXT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PaimonFdwTableOptions opts;
	pm_env	   *env;
	pm_fileio  *io;
	pm_table   *table;
	pm_scan    *scan;
	pm_error	err;
	double		bytes;

	pmfdw_get_table_options(RelationGetRelid(relation), &opts);
	env = pmfdw_env_create(cxt);
	io = pmfdw_fileio_create(cxt);
	table = pmfdw_open_table(&opts, env, io, NULL);
	pm_error_clear(&err);
	if (pm_table_scan_plan(table, NULL, &scan, &err) != PM_OK)
		pmfdw_error(&err);
	bytes = (double) pm_scan_get_stats(scan)->bytes_selected;
	pm_scan_free(scan);
	pm_table_close(table);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);

	/* pg_class.relpages: the data files' size in blocks */
	*totalpages = (BlockNumber) Min(Max(ceil(bytes / BLCKSZ), 1), (double) MaxBlockNumber);
	*func = acquire_sample_rows;
	return true;
}

/* ---- statistics of a primary key before ANALYZE ---- */

static get_relation_stats_hook_type prev_stats_hook = NULL;

static void
free_stats_tuple(HeapTuple tuple)
{
	heap_freetuple(tuple);
}

static bool
pk_stats_hook(PlannerInfo *root, RangeTblEntry *rte, AttrNumber attnum,
			  VariableStatData *vardata)
{
	Datum		values[Natts_pg_statistic];
	bool		nulls[Natts_pg_statistic];
	HeapTuple	real;
	Relation	stat;

	if (prev_stats_hook != NULL && prev_stats_hook(root, rte, attnum, vardata))
		return true;
	if (rte->rtekind != RTE_RELATION || rte->inh || attnum <= 0 ||
		pmfdw_rel_unique_attnum(vardata->rel) != attnum)
		return false;
	/* ANALYZE's statistics, when there are any, are Postgres' to read */
	real = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(rte->relid),
						   Int16GetDatum(attnum), BoolGetDatum(false));
	if (HeapTupleIsValid(real))
	{
		ReleaseSysCache(real);
		return false;
	}
	memset(values, 0, sizeof(values));
	memset(nulls, 0, sizeof(nulls));
	values[Anum_pg_statistic_starelid - 1] = ObjectIdGetDatum(rte->relid);
	values[Anum_pg_statistic_staattnum - 1] = Int16GetDatum(attnum);
	values[Anum_pg_statistic_stainherit - 1] = BoolGetDatum(false);
	values[Anum_pg_statistic_stanullfrac - 1] = Float4GetDatum(0.0f);
	values[Anum_pg_statistic_stawidth - 1] =
		Int32GetDatum(get_typavgwidth(vardata->atttype, vardata->atttypmod));
	values[Anum_pg_statistic_stadistinct - 1] = Float4GetDatum(-1.0f);	/* all distinct */
	for (int k = 0; k < STATISTIC_NUM_SLOTS; k++)
	{
		values[Anum_pg_statistic_stakind1 - 1 + k] = Int16GetDatum(0);
		values[Anum_pg_statistic_staop1 - 1 + k] = ObjectIdGetDatum(InvalidOid);
		values[Anum_pg_statistic_stacoll1 - 1 + k] = ObjectIdGetDatum(InvalidOid);
		nulls[Anum_pg_statistic_stanumbers1 - 1 + k] = true;
		nulls[Anum_pg_statistic_stavalues1 - 1 + k] = true;
	}
	stat = table_open(StatisticRelationId, AccessShareLock);
	vardata->statsTuple = heap_form_tuple(RelationGetDescr(stat), values, nulls);
	table_close(stat, AccessShareLock);
	vardata->freefunc = free_stats_tuple;
	vardata->acl_ok = true;		/* no values in it to hide */
	return true;
}

void
pmfdw_stats_hook_init(void)
{
	prev_stats_hook = get_relation_stats_hook;
	get_relation_stats_hook = pk_stats_hook;
}
