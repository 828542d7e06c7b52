/*-------------------------------------------------------------------------
 * agg_pushdown.c
 *	  Aggregates computed on column batches inside the extension
 *	  (GetForeignUpperPaths, UPPERREL_GROUP_AGG): count(*), count(col),
 *	  sum, avg, min, max over integers, floats, numeric, date and
 *	  timestamp (min/max of text too, under the "C" collation), bool_and,
 *	  every and bool_or (min and max of a boolean), grouped by
 *	  columns of those types (not float, not text), for any table kind,
 *	  without WHERE clause or with one the core evaluates exactly on the
 *	  rows (every qual translated exactly: predicate.c, evaluated per row
 *	  by table/batch_filter.h, constants only): the core reads
 *	  rows after the merge (table_read) and aggregates them
 *	  (table/scan_aggregate.h).
 *
 * Results are built exactly as Postgres' own final functions build them
 * from the same transition states: sum(int2/int4) bigint, sum(int8) and
 * sum(numeric) numeric (exact, the column's scale), avg of integers and
 * numeric as numeric_div(sum, count), avg of floats Sx / N, count 0 and
 * NULL for the others over no input; a float sum overflowing raises
 * 22003 as float4pl/float8pl/float8_accum do.
 *
 * The plan pushes only when the planner's estimate of the groups fits the
 * hash memory budget (hash_mem); should the groups outgrow it at run time,
 * the rows are read again in passes, each aggregating the groups of one
 * slice of key hashes, so memory stays bounded and the query still
 * answers.
 *
 * Parallel plans: the partial aggregation stage (UPPERREL_PARTIAL_GROUP_AGG)
 * is pushed too, as a parallel-aware ForeignScan under the Gather: each
 * participant aggregates the units (files, row groups) it claims, as the
 * parallel scan does, and returns per group the transition states
 * Postgres' own partial aggregate would (count and sum of int2/int4
 * int8, float sums float4/float8, min/max and bool_and/or the value, avg of int2/int4 the
 * int8[] {N, sum}, avg of floats the float8[] {N, Sx, Sxx}, sum/avg of
 * bigint and numeric numeric.c's serialized "internal" state, built by
 * its own transition and combine functions from our exact sum and
 * serialized with our count); the Finalize Aggregate above combines them
 * with the aggregates' combine functions. A participant whose groups outgrow the memory budget
 * returns what it has and starts over with the rest of its rows: the
 * Finalize Aggregate combines rows of one group wherever they come from.
 *
 * The plan carries a spec (fdw_private, copyable nodes): the EXPLAIN text,
 * the quals (their Vars of base relation relid), relid, partial (0/1),
 * then per output column an IntList (role, pm_agg_kind, attnum, oid):
 * role 0 a grouping key (oid: its type), 1 an aggregate (oid: aggfnoid).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "access/table.h"
#include "catalog/pg_type.h"
#include "nodes/execnodes.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/pg_locale.h"
#include "utils/selfuncs.h"
#include "utils/timestamp.h"

#include "common/arena.h"
#include "lsm/table_read.h"
#include "table/batch_filter.h"
#include "table/predicate.h"
#include "table/scan_aggregate.h"

#define ROLE_KEY 0
#define ROLE_AGG 1

/* Per attribute of the foreign table: its Paimon type, as planning saw it. */
struct PmfdwAggRelInfo
{
	bool		quals_ok;		/* no quals, or the core evaluates them exactly */
	int			natts;
	pm_type_id *type_id;		/* per attnum - 1; -1: no field or a type mismatch */
	int		   *precision;
};

PmfdwAggRelInfo *
pmfdw_agg_rel_info(Relation rel, Index relid, List *quals, const pm_type *row_type,
				   MemoryContext cxt)
{
	bool		quals_ok = quals == NIL;
	MemoryContext old;
	TupleDesc	desc = RelationGetDescr(rel);
	PmfdwAggRelInfo *info;

	if (!quals_ok && pmfdw_enable_pushdown)
	{
		/* a throwaway arena in the caller's (short-lived) context */
		pm_arena   *arena = pm_arena_create(pmfdw_env_create(CurrentMemoryContext));
		pm_predicate *pred;

		if (arena == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		pred = pmfdw_exact_predicate(quals, rel, relid, row_type, arena);
		quals_ok = pred != NULL && pm_batch_filter_supported(pred, row_type);
		pm_arena_destroy(arena);
	}
	old = MemoryContextSwitchTo(cxt);
	info = palloc0(sizeof(PmfdwAggRelInfo));
	info->quals_ok = quals_ok;

	info->natts = desc->natts;
	info->type_id = palloc(sizeof(pm_type_id) * Max(desc->natts, 1));
	info->precision = palloc0(sizeof(int) * Max(desc->natts, 1));
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		int			f = att->attisdropped ? -1 :
			pm_type_field_index(row_type, NameStr(att->attname));

		info->type_id[i] = (pm_type_id) -1;
		if (f < 0 || pmfdw_type_oid(row_type->fields[f].type) != att->atttypid)
			continue;
		info->type_id[i] = row_type->fields[f].type->id;
		info->precision[i] = row_type->fields[f].type->precision;
	}
	MemoryContextSwitchTo(old);
	return info;
}

bool
pmfdw_agg_rel_quals_exact(const PmfdwAggRelInfo *info)
{
	return info->quals_ok;
}

/* A type standing for the attribute's Paimon type in the core's checks. */
bool
pmfdw_agg_rel_attr_type(const PmfdwAggRelInfo *info, AttrNumber attnum, pm_type *t)
{
	if (attnum <= 0 || attnum > info->natts || (int) info->type_id[attnum - 1] < 0)
		return false;
	memset(t, 0, sizeof(*t));
	t->id = info->type_id[attnum - 1];
	t->precision = info->precision[attnum - 1];
	return true;
}

/* The pm_agg_kind of a Postgres aggregate we compute, or -1. */
static int
agg_kind_of(Oid fnoid)
{
	switch (fnoid)
	{
		case F_COUNT_:
			return PM_AGG_COUNT_STAR;
		case F_COUNT_ANY:
			return PM_AGG_COUNT;
		case F_SUM_INT2:
		case F_SUM_INT4:
		case F_SUM_INT8:
		case F_SUM_FLOAT4:
		case F_SUM_FLOAT8:
		case F_SUM_NUMERIC:
			return PM_AGG_SUM;
		case F_AVG_INT2:
		case F_AVG_INT4:
		case F_AVG_INT8:
		case F_AVG_FLOAT4:
		case F_AVG_FLOAT8:
		case F_AVG_NUMERIC:
			return PM_AGG_AVG;
		case F_MIN_INT2:
		case F_MIN_INT4:
		case F_MIN_INT8:
		case F_MIN_FLOAT4:
		case F_MIN_FLOAT8:
		case F_MIN_NUMERIC:
		case F_MIN_DATE:
		case F_MIN_TIMESTAMP:
		case F_MIN_TIMESTAMPTZ:
		case F_MIN_TEXT:
		case F_BOOL_AND:
		case F_EVERY:
			return PM_AGG_MIN;
		case F_MAX_INT2:
		case F_MAX_INT4:
		case F_MAX_INT8:
		case F_MAX_FLOAT4:
		case F_MAX_FLOAT8:
		case F_MAX_NUMERIC:
		case F_MAX_DATE:
		case F_MAX_TIMESTAMP:
		case F_MAX_TIMESTAMPTZ:
		case F_MAX_TEXT:
		case F_BOOL_OR:
			return PM_AGG_MAX;
		default:
			return -1;
	}
}

/*
 * Whether the partial state (the transition value) of an aggregate is one
 * agg_partial_state() builds: every one we compute.
 */
static bool
partial_state_supported(Oid fnoid)
{
	return agg_kind_of(fnoid) >= 0;
}

/* The spec entry of a pushable aggregate, appending its EXPLAIN text; NIL if not. */
static List *
agg_entry(Aggref *agg, Index relid, Oid reloid, const PmfdwAggRelInfo *info, bool partial,
		  StringInfo text)
{
	int			kind;
	Var		   *var = NULL;
	pm_type		t;

	if (agg->aggfilter != NULL || agg->aggdistinct != NIL || agg->aggorder != NIL ||
		agg->agglevelsup != 0 ||
		agg->aggsplit != (partial ? AGGSPLIT_INITIAL_SERIAL : AGGSPLIT_SIMPLE) ||
		agg->aggkind != AGGKIND_NORMAL || agg->aggvariadic)
		return NIL;
	kind = agg_kind_of(agg->aggfnoid);
	if (kind < 0 || (partial && !partial_state_supported(agg->aggfnoid)))
		return NIL;
	/* strings compare as bytes: only where the collation does too */
	if ((agg->aggfnoid == F_MIN_TEXT || agg->aggfnoid == F_MAX_TEXT) &&
		!lc_collate_is_c(agg->inputcollid))
		return NIL;
	if (kind == PM_AGG_COUNT_STAR)
	{
		if (!agg->aggstar)
			return NIL;
		appendStringInfoString(text, "count(*)");
		return list_make4_int(ROLE_AGG, kind, 0, agg->aggfnoid);
	}
	if (list_length(agg->args) != 1)
		return NIL;
	var = (Var *) linitial_node(TargetEntry, agg->args)->expr;
	/* a COLLATE clause: the same value, the collation is checked above */
	if (IsA(var, RelabelType) && ((RelabelType *) var)->resulttype == exprType((Node *) ((RelabelType *) var)->arg))
		var = (Var *) ((RelabelType *) var)->arg;
	if (!IsA(var, Var) || var->varno != relid || var->varlevelsup != 0 ||
		!pmfdw_agg_rel_attr_type(info, var->varattno, &t) || !pm_agg_supported(kind, &t))
		return NIL;
	appendStringInfo(text, "%s(%s)", get_func_name(agg->aggfnoid),
					 quote_identifier(get_attname(reloid, var->varattno, false)));
	return list_make4_int(ROLE_AGG, kind, var->varattno, agg->aggfnoid);
}

/* Bytes one group costs in memory, and how many the hash memory holds. */
static int64
max_groups(int nkeys, int naggs)
{
	return (int64) (get_hash_memory_limit() / pm_hash_agg_group_bytes(nkeys, naggs));
}

List *
pmfdw_agg_pushdown_spec(PlannerInfo *root, RelOptInfo *input_rel, PathTarget *target,
						bool partial, Oid relid, const PmfdwAggRelInfo *info, double *groups)
{
	Query	   *parse = root->parse;
	List	   *flat;
	List	   *group_exprs = NIL;
	List	   *spec = NIL;
	StringInfoData aggs_text;
	StringInfoData keys_text;
	int			nkeys = 0;
	int			naggs = 0;
	ListCell   *lc;

	if (!pmfdw_enable_aggregate_pushdown || info == NULL || target == NULL ||
		!info->quals_ok || parse->groupingSets != NIL ||
		(parse->havingQual != NULL && !partial) || !parse->hasAggs)
		return NIL;
	initStringInfo(&aggs_text);
	initStringInfo(&keys_text);

	/* grouping keys: plain columns of supported types */
	foreach(lc, parse->groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Var		   *var = (Var *) get_sortgroupclause_expr(sgc, parse->targetList);
		pm_type		t;

		if (!IsA(var, Var) || var->varno != input_rel->relid || var->varlevelsup != 0 ||
			!pmfdw_agg_rel_attr_type(info, var->varattno, &t) || !pm_agg_key_supported(&t))
			return NIL;
		group_exprs = lappend(group_exprs, var);
	}

	/* output columns: the keys and pushable aggregates, nothing else */
	flat = add_to_flat_tlist(NIL, target->exprs);
	foreach(lc, flat)
	{
		Expr	   *e = lfirst_node(TargetEntry, lc)->expr;
		List	   *entry;

		if (IsA(e, Aggref))
		{
			if (naggs++ > 0)
				appendStringInfoString(&aggs_text, ", ");
			entry = agg_entry((Aggref *) e, input_rel->relid, relid, info, partial,
							  &aggs_text);
			if (entry == NIL)
				return NIL;
		}
		else if (IsA(e, Var) && list_member(group_exprs, e))
		{
			Var		   *var = (Var *) e;

			entry = list_make4_int(ROLE_KEY, 0, var->varattno, var->vartype);
		}
		else
			return NIL;
		spec = lappend(spec, entry);
	}
	foreach(lc, group_exprs)
	{
		Var		   *var = lfirst(lc);

		appendStringInfo(&keys_text, "%s%s", nkeys++ > 0 ? ", " : "",
						 quote_identifier(get_attname(relid, var->varattno, false)));
	}
	if (naggs == 0)
		return NIL;

	/* keys must be output columns too (a key only in GROUP BY is not read) */
	foreach(lc, group_exprs)
	{
		bool		found = false;
		ListCell   *lc2;

		foreach(lc2, spec)
		{
			List	   *entry = lfirst(lc2);

			if (linitial_int(entry) == ROLE_KEY &&
				lthird_int(entry) == ((Var *) lfirst(lc))->varattno)
				found = true;
		}
		if (!found)
			return NIL;
	}

	/* bounded memory: push only when the estimated groups fit */
	*groups = 1;
	if (group_exprs != NIL)
		*groups = estimate_num_groups(root, group_exprs, input_rel->rows, NULL, NULL);
	if (*groups > (double) max_groups(nkeys, naggs))
		return NIL;

	if (nkeys > 0)
		appendStringInfo(&aggs_text, " GROUP BY %s", keys_text.data);
	if (input_rel->baserestrictinfo != NIL)
		appendStringInfoString(&aggs_text, ", WHERE evaluated on batches");
	if (partial)
		appendStringInfoString(&aggs_text, ", partial per worker");
	return lcons(makeString(aggs_text.data),
				 lcons(extract_actual_clauses(input_rel->baserestrictinfo, false),
					   lcons(makeInteger((int) input_rel->relid),
							 lcons(makeInteger(partial ? 1 : 0), spec))));
}

const char *
pmfdw_agg_pushdown_text(List *spec)
{
	return strVal(linitial(spec));
}

/* ---- execution ---- */

struct PmfdwAggExec
{
	MemoryContext cxt;			/* the aggregation */
	MemoryContext row_cxt;		/* Datums of the current output row */
	pm_env	   *env;
	pm_scan    *scan;
	int			nout;
	int		   *role;
	int		   *kind;
	Oid		   *oid;
	int		   *col;			/* batch column (key index for keys) */
	const pm_type **out_type;	/* Paimon type of the column read */
	int			nfields;
	int		   *fields;			/* Paimon fields read, batch column order */
	const pm_type **col_types;
	int			nkeys;
	int		   *key_cols;
	int			naggs;
	pm_agg_spec *specs;
	pm_predicate *pred;			/* the WHERE clause, or NULL */
	int		   *field_col;		/* batch column of each table field, for pred */
	PmfdwBatchWhere where;		/* pred on batches */
	pm_hash_agg *agg;
	bool		partial;		/* transition states of our share of the rows */
	pm_unit_claim_fn claim;		/* parallel: the units this participant reads */
	void	   *claim_ctx;
	pm_table_read *read;		/* partial: the read between result rows */
	bool		emitting;		/* partial: returning the groups */
	AggState   *agg_call;		/* partial: the context numeric.c's functions need */
	bool		started;
	uint32		npasses;
	uint32		pass;
	bool	   *done;			/* per pass: emitted */
	int64		next_group;
};

/* Add the table fields pred reads to the batch columns. */
static void
add_pred_fields(PmfdwAggExec *ex, const pm_predicate *p, const pm_type *row_type)
{
	if (p->op == PM_PRED_AND || p->op == PM_PRED_OR)
	{
		for (int i = 0; i < p->nchildren; i++)
			add_pred_fields(ex, p->children[i], row_type);
		return;
	}
	if (p->op == PM_PRED_FALSE || ex->field_col[p->field] >= 0)
		return;
	ex->field_col[p->field] = ex->nfields;
	ex->fields[ex->nfields] = p->field;
	ex->col_types[ex->nfields] = row_type->fields[p->field].type;
	ex->nfields++;
}

PmfdwAggExec *
pmfdw_agg_exec_begin(List *spec, Relation rel, pm_table *table, pm_scan **scan,
					 pm_env *env, MemoryContext parent)
{
	PmfdwAggExec *ex;
	MemoryContext cxt = AllocSetContextCreate(parent, "paimon_fdw aggregate",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	const pm_type *row_type = pm_table_schema(table)->row_type;
	int			n = list_length(spec) - 4;
	List	   *quals = (List *) lsecond(spec);
	Index		relid = (Index) intVal(lthird(spec));
	ListCell   *lc;
	int			i = 0;
	pm_error	err;
	pm_scan_options options;
	pm_arena   *arena;

	ex = palloc0(sizeof(PmfdwAggExec));
	ex->cxt = cxt;
	ex->row_cxt = AllocSetContextCreate(cxt, "paimon_fdw aggregate row", ALLOCSET_SMALL_SIZES);
	ex->env = env;
	ex->nout = n;
	ex->partial = intVal(lfourth(spec)) != 0;
	ex->role = palloc(sizeof(int) * n);
	ex->kind = palloc(sizeof(int) * n);
	ex->oid = palloc(sizeof(Oid) * n);
	ex->col = palloc(sizeof(int) * n);
	ex->out_type = palloc0(sizeof(pm_type *) * n);
	ex->fields = palloc(sizeof(int) * (n + row_type->nfields + 1));
	ex->col_types = palloc(sizeof(pm_type *) * (n + row_type->nfields + 1));
	ex->field_col = palloc(sizeof(int) * (row_type->nfields + 1));
	for (int f = 0; f < row_type->nfields; f++)
		ex->field_col[f] = -1;
	ex->key_cols = palloc(sizeof(int) * (n + 1));
	ex->specs = palloc(sizeof(pm_agg_spec) * (n + 1));
	for_each_from(lc, spec, 4)
	{
		List	   *entry = lfirst(lc);
		AttrNumber	attnum = lthird_int(entry);
		int			c = -1;

		ex->role[i] = linitial_int(entry);
		ex->kind[i] = lsecond_int(entry);
		ex->oid[i] = (Oid) lfourth_int(entry);
		if (attnum > 0)
		{
			Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);
			int			f = pm_type_field_index(row_type, NameStr(att->attname));

			/* the table may have changed since planning: same checks again */
			if (f < 0 || pmfdw_type_oid(row_type->fields[f].type) != att->atttypid)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
						 errmsg("column \"%s\" changed type since the query was planned",
								NameStr(att->attname))));
			c = ex->field_col[f];
			if (c < 0)
			{
				c = ex->nfields++;
				ex->fields[c] = f;
				ex->col_types[c] = row_type->fields[f].type;
				ex->field_col[f] = c;
			}
			ex->out_type[i] = ex->col_types[c];
		}
		if (ex->role[i] == ROLE_KEY)
		{
			ex->col[i] = ex->nkeys;
			ex->key_cols[ex->nkeys++] = c;
		}
		else
		{
			ex->col[i] = ex->naggs;
			ex->specs[ex->naggs].kind = (pm_agg_kind) ex->kind[i];
			ex->specs[ex->naggs].column = c < 0 ? 0 : c;
			ex->naggs++;
		}
		i++;
	}
	/* the WHERE clause, exact as at planning, prunes and filters the rows */
	arena = pm_arena_create(env);
	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	if (quals != NIL)
	{
		ex->pred = pmfdw_exact_predicate(quals, rel, relid, row_type, arena);
		if (ex->pred == NULL || !pm_batch_filter_supported(ex->pred, row_type))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
					 errmsg("the columns of foreign table \"%s\" changed since the query was planned",
							RelationGetRelationName(rel))));
		add_pred_fields(ex, ex->pred, row_type);
	}
	pmfdw_scan_options(&options);
	pm_error_clear(&err);
	if (pm_table_scan_plan_with(table, ex->pred, &options, scan, &err) != PM_OK)
		pmfdw_error(&err);
	ex->scan = *scan;
	ex->where.env = env;
	ex->where.pred = ex->pred;
	ex->where.field_col = ex->field_col;
	ex->where.cxt = ex->cxt;
	if (pm_hash_agg_create(env, ex->col_types, ex->nkeys, ex->key_cols, ex->naggs, ex->specs,
						   max_groups(ex->nkeys, ex->naggs), &ex->agg, &err) != PM_OK)
		pmfdw_error(&err);
	MemoryContextSwitchTo(old);
	return ex;
}

pm_batch *
pmfdw_next_batch_where(PmfdwBatchWhere *where, pm_table_read *read, const uint8 **sel)
{
	pm_batch   *batch;
	pm_error	err;

	pm_error_clear(&err);
	*sel = NULL;
	if (pm_table_read_next(read, &batch, &err) != PM_OK)
	{
		pm_table_read_close(read);
		pmfdw_error(&err);
	}
	if (batch == NULL || where->pred == NULL)
		return batch;
	if (batch->nrows > where->sel_cap)
	{
		if (where->sel)
			pfree(where->sel);
		where->sel = MemoryContextAllocHuge(where->cxt, batch->nrows);
		where->sel_cap = batch->nrows;
	}
	if (pm_batch_filter(where->env, where->pred, batch, where->field_col, where->sel,
						&err) != PM_OK)
	{
		pm_table_read_close(read);
		pmfdw_error(&err);
	}
	/* every row passes: no selection (the aggregation's loops without one) */
	if (memchr(where->sel, 0, (size_t) batch->nrows) != NULL)
		*sel = where->sel;
	return batch;
}

void
pmfdw_agg_exec_set_claim(PmfdwAggExec *ex, pm_unit_claim_fn claim, void *ctx, int64 part_bytes)
{
	ex->claim = claim;
	ex->claim_ctx = ctx;
	pm_scan_set_part_units(ex->scan, part_bytes);
}

/* Open the read of the aggregated columns (our share of a parallel read). */
static pm_table_read *
open_read(PmfdwAggExec *ex)
{
	pm_table_read *read;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_table_read_open(ex->scan, ex->fields, ex->nfields, &read, &err) != PM_OK)
		pmfdw_error(&err);
	if (ex->claim != NULL)
		pm_table_read_set_claim(read, ex->claim, ex->claim_ctx);
	return read;
}

/*
 * Aggregate the current pass, in more passes from here on whenever its
 * groups outgrow the memory budget (passes already emitted stay done).
 */
static void
run_pass(PmfdwAggExec *ex)
{
	MemoryContext old = MemoryContextSwitchTo(ex->cxt);

	for (;;)
	{
		pm_table_read *read;
		pm_batch   *batch;
		const uint8 *sel;
		pm_error	err;

		pm_hash_agg_set_pass(ex->agg, ex->npasses, ex->pass);
		pm_error_clear(&err);
		read = open_read(ex);
		for (;;)
		{
			CHECK_FOR_INTERRUPTS();
			if ((batch = pmfdw_next_batch_where(&ex->where, read, &sel)) == NULL)
				break;
			if (pm_hash_agg_add(ex->agg, batch, sel, &err) != PM_OK)
			{
				pm_table_read_close(read);
				pmfdw_error(&err);
			}
			if (pm_hash_agg_overflowed(ex->agg))
			{
				pm_table_read_close(read);
				float_overflow_error();
			}
			if (pm_hash_agg_full(ex->agg))
				break;
		}
		pm_table_read_close(read);
		if (!pm_hash_agg_full(ex->agg))
			break;

		/* four times the passes; a slice done stays done in its sub-slices */
		if (ex->npasses >= 4096)
			pm_hash_agg_set_max_groups(ex->agg, PG_INT64_MAX);
		else
		{
			uint32		n = ex->npasses * 4;
			bool	   *done = palloc0(sizeof(bool) * n);

			for (uint32 q = 0; q < n; q++)
				done[q] = ex->done[q % ex->npasses];
			pfree(ex->done);
			ex->done = done;
			ex->npasses = n;
			ex->pass = 0;
			while (ex->done[ex->pass])
				ex->pass++;
		}
	}
	MemoryContextSwitchTo(old);
}

/* A wide exact sum (hi * 2^64 + lo, unscaled) as numeric with `scale` digits. */
static Datum
numeric_from_wide(pm_int128 hi, uint64 lo, int scale)
{
	Datum		d;

	if ((hi == 0 && lo <= (uint64) PG_INT64_MAX) || (hi == -1 && lo > (uint64) PG_INT64_MAX))
		return pmfdw_numeric_from_decimal((pm_int128) (int64) lo, scale);
	d = DirectFunctionCall2(numeric_mul, pmfdw_numeric_from_decimal(hi, 0),
							pmfdw_numeric_from_decimal((pm_int128) 1 << 64, 0));
	d = DirectFunctionCall2(numeric_add, d, pmfdw_numeric_from_decimal((pm_int128) lo, 0));
	if (scale > 0)
		d = DirectFunctionCall2(numeric_mul, d, pmfdw_numeric_from_decimal(1, scale));
	return d;
}

/* A key or min/max value held as int64 (or int128 for DECIMAL) as a Datum. */
static Datum
int_datum(const pm_type *t, pm_int128 v)
{
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return BoolGetDatum(v != 0);
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
			return Int16GetDatum((int16) v);
		case PM_TYPE_INT:
			return Int32GetDatum((int32) v);
		case PM_TYPE_BIGINT:
			return Int64GetDatum((int64) v);
		case PM_TYPE_DATE:
			return DateADTGetDatum((DateADT) ((int64) v - UNIX_TO_PG_DAYS));
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return TimestampGetDatum((int64) v - UNIX_TO_PG_MICROS);
		case PM_TYPE_DECIMAL:
			return pmfdw_numeric_from_decimal(v, t->scale);
		default:
			elog(ERROR, "unexpected Paimon type %s in an aggregate", pm_type_id_name(t->id));
	}
	return (Datum) 0;
}

/* The result of output column i of an aggregate, as its final function builds it. */
static Datum
agg_result(PmfdwAggExec *ex, int i, const pm_agg_state *s, bool *isnull)
{
	const pm_type *t = ex->out_type[i];

	*isnull = false;
	if (ex->kind[i] == PM_AGG_COUNT_STAR || ex->kind[i] == PM_AGG_COUNT)
		return Int64GetDatum(s->n);
	if (s->n == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}
	switch (ex->kind[i])
	{
		case PM_AGG_SUM:
			switch (ex->oid[i])
			{
				case F_SUM_INT2:
				case F_SUM_INT4:
					return Int64GetDatum(s->v.i64);
				case F_SUM_FLOAT4:
					return Float4GetDatum(s->v.f4);
				case F_SUM_FLOAT8:
					return Float8GetDatum(s->v.f8);
				default:		/* int8, numeric */
					return numeric_from_wide(s->v.i128, s->w.u64,
											 t->id == PM_TYPE_DECIMAL ? t->scale : 0);
			}
		case PM_AGG_AVG:
			switch (ex->oid[i])
			{
				case F_AVG_INT2:
				case F_AVG_INT4:
					return DirectFunctionCall2(numeric_div,
											   NumericGetDatum(int64_to_numeric(s->v.i64)),
											   NumericGetDatum(int64_to_numeric(s->n)));
				case F_AVG_FLOAT4:
				case F_AVG_FLOAT8:
					return Float8GetDatum(s->v.f8 / (double) s->n);
				default:		/* int8, numeric */
					return DirectFunctionCall2(numeric_div,
											   numeric_from_wide(s->v.i128, s->w.u64,
																 t->id == PM_TYPE_DECIMAL ? t->scale : 0),
											   NumericGetDatum(int64_to_numeric(s->n)));
			}
		case PM_AGG_MIN:
		case PM_AGG_MAX:
			if (t->id == PM_TYPE_CHAR || t->id == PM_TYPE_VARCHAR)
				return PointerGetDatum(cstring_to_text_with_len((const char *) s->v.str.bytes,
																s->v.str.len));
			if (t->id == PM_TYPE_FLOAT)
				return Float4GetDatum(s->v.f4);
			if (t->id == PM_TYPE_DOUBLE)
				return Float8GetDatum(s->v.f8);
			if (t->id == PM_TYPE_DECIMAL)
				return int_datum(t, s->v.i128);
			return int_datum(t, s->v.i64);
		default:
			elog(ERROR, "unexpected aggregate kind %d", ex->kind[i]);
	}
	return (Datum) 0;
}

/*
 * fn(a, b) (b absent when nargs is 1) called as an aggregate's support
 * function: AggCheckCallContext() finds an aggregate whose memory is the
 * current row's. a may be NULL (isnull_a).
 */
static Datum
call_agg_support(PmfdwAggExec *ex, PGFunction fn, int nargs, Datum a, bool isnull_a, Datum b)
{
	LOCAL_FCINFO(fcinfo, 2);
	Datum		r;

	if (ex->agg_call == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(ex->cxt);

		ex->agg_call = makeNode(AggState);
		ex->agg_call->curaggcontext = makeNode(ExprContext);
		MemoryContextSwitchTo(old);
	}
	ex->agg_call->curaggcontext->ecxt_per_tuple_memory = ex->row_cxt;
	InitFunctionCallInfoData(*fcinfo, NULL, nargs, InvalidOid, (Node *) ex->agg_call, NULL);
	fcinfo->args[0].value = a;
	fcinfo->args[0].isnull = isnull_a;
	fcinfo->args[1].value = b;
	fcinfo->args[1].isnull = false;
	r = fn(fcinfo);
	if (fcinfo->isnull)
		elog(ERROR, "aggregate support function returned NULL");
	return r;
}

/*
 * The serialized state of state, whose count of inputs is `expect`, with
 * that count replaced by n: numeric.c's serialized sum/avg states of
 * int8 and numeric begin with the count (int8, network order). Checked:
 * anything else is an error, not a wrong result.
 */
static Datum
serialized_with_count(PmfdwAggExec *ex, PGFunction serialize, Datum state, int64 expect,
					  int64 n)
{
	bytea	   *b = DatumGetByteaPP(call_agg_support(ex, serialize, 1, state, false, 0));
	uint8	   *p = (uint8 *) VARDATA_ANY(b);
	uint64		v = 0;

	if (VARSIZE_ANY_EXHDR(b) < 8)
		elog(ERROR, "unexpected serialized aggregate state");
	for (int k = 0; k < 8; k++)
		v = (v << 8) | p[k];
	if ((int64) v != expect)
		elog(ERROR, "unexpected serialized aggregate state");
	for (int k = 7; k >= 0; k--, n = (int64) ((uint64) n >> 8))
		p[k] = (uint8) (n & 0xff);
	return PointerGetDatum(b);
}

/*
 * The state of sum/avg(int8) for the exact sum hi * 2^64 + lo: built by
 * int8_avg_accum and int8_avg_combine from int64 inputs (the sum itself,
 * or when it does not fit, 2^62 or -2^62 taken |q| times by doubling plus
 * the rest), then serialized with the count n.
 */
static Datum
int8_sum_state(PmfdwAggExec *ex, pm_int128 sum, int64 n)
{
	const int64 unit = (int64) 1 << 62;
	Datum		st;
	int64		inputs = 1;

	if (sum >= PG_INT64_MIN && sum <= PG_INT64_MAX)
		st = call_agg_support(ex, int8_avg_accum, 2, 0, true, Int64GetDatum((int64) sum));
	else
	{
		pm_int128	q = sum >= 0 ? sum / unit : -((-sum) / unit);
		pm_int128	rest = sum - q * unit;
		uint64		copies = (uint64) (q < 0 ? -q : q);
		Datum		piece = call_agg_support(ex, int8_avg_accum, 2, 0, true,
											 Int64GetDatum(q < 0 ? -unit : unit));
		int64		piece_n = 1;

		st = call_agg_support(ex, int8_avg_accum, 2, 0, true, Int64GetDatum((int64) rest));
		for (; copies > 0; copies >>= 1)
		{
			if (copies & 1)
			{
				st = call_agg_support(ex, int8_avg_combine, 2, st, false, piece);
				inputs += piece_n;
			}
			if (copies > 1)
			{
				Datum		copy = call_agg_support(ex, int8_avg_combine, 2, 0, true, piece);

				piece = call_agg_support(ex, int8_avg_combine, 2, copy, false, piece);
				piece_n *= 2;
			}
		}
	}
	return serialized_with_count(ex, int8_avg_serialize, st, inputs, n);
}

/*
 * The transition state of output column i, as Postgres' own partial
 * aggregate returns it (the type of the partial Aggref: aggtranstype, or
 * bytea for the serialized internal states). Where the state is the
 * result (count, sum of int2/int4/floats, min, max: no final function)
 * that is agg_result.
 */
static Datum
agg_partial_state(PmfdwAggExec *ex, int i, const pm_agg_state *s, bool *isnull)
{
	Datum		d[3];

	switch (ex->oid[i])
	{
		case F_SUM_INT8:
		case F_AVG_INT8:
		case F_SUM_NUMERIC:
		case F_AVG_NUMERIC:
			/* internal states; none (NULL) before the first input */
			*isnull = s->n == 0;
			if (s->n == 0)
				return (Datum) 0;
			if (ex->oid[i] == F_SUM_INT8 || ex->oid[i] == F_AVG_INT8)
				return int8_sum_state(ex, s->v.i128 * ((pm_int128) 1 << 64) + (pm_int128) s->w.u64,
									  s->n);
			return serialized_with_count(ex, numeric_avg_serialize,
										 call_agg_support(ex, numeric_avg_accum, 2, 0, true,
														  numeric_from_wide(s->v.i128, s->w.u64,
																			ex->out_type[i]->scale)),
										 1, s->n);
		default:
			break;
	}
	if (ex->kind[i] != PM_AGG_AVG)
		return agg_result(ex, i, s, isnull);
	*isnull = false;
	switch (ex->oid[i])
	{
		case F_AVG_INT2:
		case F_AVG_INT4:
			/* int4_avg_accum: int8[] {count, sum} */
			d[0] = Int64GetDatum(s->n);
			d[1] = Int64GetDatum(s->n > 0 ? s->v.i64 : 0);
			return PointerGetDatum(construct_array(d, 2, INT8OID, sizeof(int64),
												   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
		case F_AVG_FLOAT4:
		case F_AVG_FLOAT8:
			/* float8_accum: float8[] {N, Sx, Sxx} */
			d[0] = Float8GetDatum((double) s->n);
			d[1] = Float8GetDatum(s->n > 0 ? s->v.f8 : 0.0);
			d[2] = Float8GetDatum(s->n > 0 ? s->w.f8 : 0.0);
			return PointerGetDatum(construct_array(d, 3, FLOAT8OID, sizeof(float8),
												   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
		default:
			elog(ERROR, "no partial state for aggregate %u", ex->oid[i]);
	}
	return (Datum) 0;
}

/* Fill slot with group g: keys, results or (partial) transition states. */
static void
group_row(PmfdwAggExec *ex, int64 g, TupleTableSlot *slot)
{
	MemoryContext old;

	MemoryContextReset(ex->row_cxt);
	old = MemoryContextSwitchTo(ex->row_cxt);
	for (int i = 0; i < ex->nout; i++)
	{
		if (ex->role[i] == ROLE_KEY)
		{
			int64		v;

			slot->tts_isnull[i] = !pm_hash_agg_key(ex->agg, g, ex->col[i], &v);
			slot->tts_values[i] = slot->tts_isnull[i] ? (Datum) 0 :
				int_datum(ex->out_type[i], v);
		}
		else if (ex->partial)
			slot->tts_values[i] = agg_partial_state(ex, i,
													pm_hash_agg_state(ex->agg, g, ex->col[i]),
													&slot->tts_isnull[i]);
		else
			slot->tts_values[i] = agg_result(ex, i,
											 pm_hash_agg_state(ex->agg, g, ex->col[i]),
											 &slot->tts_isnull[i]);
	}
	MemoryContextSwitchTo(old);
}

/*
 * Partial aggregation: aggregate our rows until the groups exceed the
 * memory budget or the rows end, return those groups, and go on from
 * there with no groups (the Finalize Aggregate combines them).
 */
static bool
partial_next(PmfdwAggExec *ex, TupleTableSlot *slot)
{
	int64		budget = max_groups(ex->nkeys, ex->naggs);

	if (!ex->started)
	{
		MemoryContext old = MemoryContextSwitchTo(ex->cxt);

		ex->started = true;
		ex->emitting = false;
		pm_hash_agg_set_pass(ex->agg, 1, 0);
		pm_hash_agg_set_max_groups(ex->agg, PG_INT64_MAX);
		ex->read = open_read(ex);
		MemoryContextSwitchTo(old);
	}
	for (;;)
	{
		MemoryContext old;

		if (ex->emitting)
		{
			if (ex->next_group < pm_hash_agg_ngroups(ex->agg))
			{
				group_row(ex, ex->next_group++, slot);
				return true;
			}
			ex->emitting = false;
			if (ex->read == NULL)
				return false;
			pm_hash_agg_set_pass(ex->agg, 1, 0);	/* no groups (one without keys) */
		}
		if (ex->read == NULL)
			return false;
		old = MemoryContextSwitchTo(ex->cxt);
		for (;;)
		{
			pm_batch   *batch;
			const uint8 *sel;
			pm_error	err;

			CHECK_FOR_INTERRUPTS();
			if ((batch = pmfdw_next_batch_where(&ex->where, ex->read, &sel)) == NULL)
			{
				pm_table_read_close(ex->read);
				ex->read = NULL;
				break;
			}
			pm_error_clear(&err);
			if (pm_hash_agg_add(ex->agg, batch, sel, &err) != PM_OK ||
				pm_hash_agg_overflowed(ex->agg))
			{
				pm_table_read_close(ex->read);
				ex->read = NULL;
				if (err.code != PM_OK)
					pmfdw_error(&err);
				float_overflow_error();
			}
			if (pm_hash_agg_ngroups(ex->agg) > budget)
				break;
		}
		MemoryContextSwitchTo(old);
		ex->emitting = true;
		ex->next_group = 0;
	}
}

bool
pmfdw_agg_exec_next(PmfdwAggExec *ex, TupleTableSlot *slot)
{
	if (ex->partial)
		return partial_next(ex, slot);
	if (!ex->started)
	{
		ex->started = true;
		ex->npasses = 1;
		ex->pass = 0;
		if (ex->done)
			pfree(ex->done);
		ex->done = MemoryContextAllocZero(ex->cxt, sizeof(bool));
		pm_hash_agg_set_max_groups(ex->agg, max_groups(ex->nkeys, ex->naggs));
		run_pass(ex);
		ex->next_group = 0;
	}
	while (ex->next_group >= pm_hash_agg_ngroups(ex->agg))
	{
		ex->done[ex->pass] = true;
		while (ex->pass < ex->npasses && ex->done[ex->pass])
			ex->pass++;
		if (ex->pass >= ex->npasses)
			return false;
		run_pass(ex);
		ex->next_group = 0;
	}
	group_row(ex, ex->next_group++, slot);
	return true;
}

void
pmfdw_agg_exec_rescan(PmfdwAggExec *ex)
{
	if (ex->read != NULL)
		pm_table_read_close(ex->read);
	ex->read = NULL;
	ex->started = false;
}
