/*-------------------------------------------------------------------------
 * key_join.c
 *	  Joins of a Paimon table on its integer primary key in which the other
 *	  side's keys filter the Paimon scan: the custom scan "PaimonKeyJoin".
 *
 * A hash join of 100,000 Postgres rows with a 10-million-row Paimon table
 * turns every scanned row into a tuple and probes it into the hash table
 * (bench/README, session 33: 43% of its time in the probes' cache misses);
 * a nested loop of point lookups pays a lookup per outer row. This join
 * reads the other (outer) side first, into a tuplestore, hands its distinct
 * keys to the Paimon scan (pmfdw_scan_set_join_keys: a batch's rows of other
 * keys are dropped before they are converted), keeps the Paimon rows that
 * come back by key, and then returns the outer rows in their order, each
 * joined with the Paimon rows of its key. The key equality is the probe
 * itself (integers compared as int64: exact across int2/int4/int8); the
 * join's other clauses are the node's quals, evaluated on the joined row,
 * so the filter only ever drops rows that cannot join.
 *
 * Left joins (the Paimon side nullable), semi joins (EXISTS, IN) and anti
 * joins (NOT EXISTS) with the Paimon table inside work the same way when
 * the key equality is their only join clause (the others, from WHERE, are
 * the node's quals); an IN whose subquery the planner makes unique first
 * (JOIN_UNIQUE_OUTER) is an inner join of the unique rows.
 *
 * Offered for the joins of a SELECT (no row marks) whose Paimon side is a
 * base rel whose primary key, without the partition columns, is one
 * int2/int4/int8 column (a key is at most a row per partition) equated, by
 * an integer btree equality, to an integer Var of the other side; neither
 * side parameterized; the outer keys and the matched Paimon rows estimated
 * to fit hash_mem (they are held in memory; the outer rows go to a
 * tuplestore of work_mem, then disk). More outer keys than expected are
 * joined a batch at a time, the Paimon side read per batch. In a parallel
 * plan (inner joins) each participant reads the outer side whole and joins
 * it with its share of the parallel Paimon scan.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/nodeHash.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "common/key_set.h"

#define KEY_JOIN_NAME "PaimonKeyJoin"

/* custom_private of the plan, in order */
enum KeyJoinPrivate
{
	KeyJoinSides,				/* IntList: per custom_scan_tlist entry, 0 outer, 1 Paimon */
	KeyJoinResnos,				/* IntList: ... its resno in that side's tlist */
	KeyJoinOuterKey,			/* Integer: resno of the outer key */
	KeyJoinOuterType,			/* Integer: its type (int2/int4/int8) */
	KeyJoinInnerKey,			/* Integer: resno of the Paimon key */
	KeyJoinInnerType,
	KeyJoinInnerAttnum,			/* Integer: the key's column of the foreign table */
	KeyJoinKeyName,				/* String: its name, for EXPLAIN */
	KeyJoinType					/* Integer: JOIN_INNER, JOIN_LEFT, JOIN_SEMI or JOIN_ANTI */
};

/* the Paimon rows kept for a key */
typedef struct KeyJoinRow
{
	MinimalTuple tuple;
	struct KeyJoinRow *next;
} KeyJoinRow;

typedef struct KeyJoinState
{
	CustomScanState css;
	int			ncols;			/* of the scan tuple (custom_scan_tlist) */
	int		   *side;
	AttrNumber *resno;
	AttrNumber	outer_key;
	Oid			outer_type;
	AttrNumber	inner_key;
	Oid			inner_type;
	AttrNumber	inner_attnum;
	const char *key_name;
	JoinType	jointype;		/* JOIN_INNER, JOIN_LEFT, JOIN_SEMI or JOIN_ANTI */
	AttrNumber	outer_natts;	/* attributes to deform of each side */
	AttrNumber	inner_natts;
	MemoryContext cxt;			/* what a build holds: reset by a rescan */
	TupleTableSlot *outer_slot;
	TupleTableSlot *inner_slot;
	bool		built;
	Tuplestorestate *store;		/* the outer rows */
	pm_key_set *keys;			/* their distinct keys; NULL: none */
	KeyJoinRow **rows;			/* per key (its index in keys): Paimon rows */
	KeyJoinRow *cur;			/* the current outer row's Paimon rows still to join */
	bool		outer_done;		/* the outer side read to its end */
	int64		batch_keys;		/* outer keys per batch: then the batch is joined */
	/* EXPLAIN ANALYZE, summed over rescans */
	int64		outer_rows;
	int64		outer_keys;
	int64		inner_rows;
	int64		builds;			/* (re)scans */
	int64		batches;		/* batches of outer rows, each a read of the Paimon side */
} KeyJoinState;

static set_join_pathlist_hook_type prev_join_pathlist_hook = NULL;
static CustomPathMethods key_join_path_methods;
static CustomScanMethods key_join_scan_methods;
static CustomExecMethods key_join_exec_methods;

static bool
integer_type(Oid t)
{
	return t == INT2OID || t == INT4OID || t == INT8OID;
}

/*
 * The outer Var of "<Paimon key> = <outer integer Var>" (either order, an
 * equality of the integer btree family), else NULL.
 */
static Var *
key_clause_outer_var(RestrictInfo *ri, Index relid, AttrNumber attnum, Relids outer_relids,
					 Var **inner)
{
	OpExpr	   *op;
	Var		   *l;
	Var		   *r;

	if (ri->pseudoconstant || !IsA(ri->clause, OpExpr))
		return NULL;
	op = (OpExpr *) ri->clause;
	if (list_length(op->args) != 2 ||
		get_op_opfamily_strategy(op->opno, INTEGER_BTREE_FAM_OID) != BTEqualStrategyNumber)
		return NULL;
	l = linitial(op->args);
	r = lsecond(op->args);
	if (!IsA(l, Var) || !IsA(r, Var))
		return NULL;
	if (r->varno == relid)
	{
		Var		   *t = l;

		l = r;
		r = t;
	}
	if (l->varno != relid || l->varattno != attnum || l->varlevelsup != 0 ||
		r->varlevelsup != 0 || !bms_is_member(r->varno, outer_relids) ||
		!integer_type(r->vartype) || !integer_type(l->vartype))
		return NULL;
	*inner = l;
	return r;
}

/* Every Var of exprs is one of outer's or inner's output, and there is nothing else. */
static bool
vars_available(Node *exprs, List *outer_exprs, List *inner_exprs)
{
	List	   *vars = pull_var_clause(exprs, PVC_INCLUDE_PLACEHOLDERS);
	ListCell   *lc;

	foreach(lc, vars)
	{
		Node	   *v = lfirst(lc);

		if (!IsA(v, Var) || ((Var *) v)->varlevelsup != 0 ||
			(!list_member(outer_exprs, v) && !list_member(inner_exprs, v)))
			return false;
	}
	return true;
}

/*
 * A PaimonKeyJoin path of joinrel over outer and inner (a Paimon table's
 * plain or parallel scan): parallel-safe, partial, when inner is parallel.
 */
static Path *
key_join_path(RelOptInfo *joinrel, Path *outer, Path *inner, double rows, Cost startup,
			  Cost total, List *pathkeys, List *path_private)
{
	CustomPath *cp = makeNode(CustomPath);

	cp->path.pathtype = T_CustomScan;
	cp->path.parent = joinrel;
	cp->path.pathtarget = joinrel->reltarget;
	cp->path.param_info = NULL;
	cp->path.parallel_aware = false;
	cp->path.parallel_safe = inner->parallel_aware;
	cp->path.parallel_workers = inner->parallel_aware ? inner->parallel_workers : 0;
	cp->path.rows = rows;
	cp->path.startup_cost = startup;
	cp->path.total_cost = total;
	cp->path.pathkeys = pathkeys;
	cp->flags = 0;
	cp->custom_paths = list_make2(outer, inner);
	cp->custom_private = path_private;
	cp->methods = &key_join_path_methods;
	return (Path *) cp;
}

static void
key_join_paths(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
			   RelOptInfo *innerrel, JoinType jointype, JoinPathExtraData *extra)
{
	AttrNumber	attnum;
	Var		   *outer_var = NULL;
	Var		   *inner_var = NULL;
	Path	   *outer_path;
	Path	   *inner_path = NULL;
	ListCell   *lc;
	List	   *quals = NIL;
	JoinType	kind = jointype;
	QualCost	qc;
	double		n,
				r,
				kept;
	Cost		startup,
				total;
	List	   *path_private;

	if (prev_join_pathlist_hook)
		prev_join_pathlist_hook(root, joinrel, outerrel, innerrel, jointype, extra);
	if (jointype == JOIN_UNIQUE_OUTER)
		kind = JOIN_INNER;		/* of the unique outer rows */
	if (!pmfdw_enable_key_join ||
		(kind != JOIN_INNER && kind != JOIN_LEFT && kind != JOIN_SEMI && kind != JOIN_ANTI) ||
		root->parse->commandType != CMD_SELECT || root->rowMarks != NIL ||
		!bms_is_empty(joinrel->lateral_relids) ||
		(attnum = pmfdw_rel_integer_key_attnum(root, innerrel)) == 0)
		return;
	foreach(lc, extra->restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		Var		   *iv;
		Var		   *ov;
		bool		join_clause;

		if (ri->pseudoconstant)
			return;				/* a gating qual: not here */
		/* a semi join's clauses all join; an outer join's pushed-down ones filter */
		join_clause = kind == JOIN_SEMI ||
			(kind != JOIN_INNER && !RINFO_IS_PUSHED_DOWN(ri, joinrel->relids));
		if (outer_var == NULL && (kind == JOIN_INNER || join_clause) &&
			(ov = key_clause_outer_var(ri, innerrel->relid, attnum, outerrel->relids, &iv)) != NULL)
		{
			outer_var = ov;
			inner_var = iv;
		}
		else if (!join_clause)
			quals = lappend(quals, ri->clause); /* checked on the joined row */
		else
			return;				/* another join clause of a non-inner join */
	}
	if (outer_var == NULL)
		return;
	outer_path = outerrel->cheapest_total_path;
	if (outer_path != NULL && jointype == JOIN_UNIQUE_OUTER)
		outer_path = (Path *) create_unique_path(root, outerrel, outer_path, extra->sjinfo);
	if (outer_path == NULL || PATH_REQ_OUTER(outer_path) != NULL)
		return;
	/* a semi or anti join returns an outer row once: no clause to check per Paimon row */
	if ((kind == JOIN_SEMI || kind == JOIN_ANTI) && quals != NIL)
		return;
	/* the plain scan (not in key order, not a lookup per outer row) */
	inner_path = pmfdw_plain_scan_path(root, innerrel);
	/* the key equality is the probe's, exactly (integers compared as int64) */
	if (!vars_available((Node *) joinrel->reltarget->exprs, outer_path->pathtarget->exprs,
						inner_path->pathtarget->exprs) ||
		!vars_available((Node *) quals, outer_path->pathtarget->exprs,
						inner_path->pathtarget->exprs) ||
		!list_member(outer_path->pathtarget->exprs, outer_var) ||
		!list_member(inner_path->pathtarget->exprs, inner_var))
		return;

	n = outer_path->rows;
	r = inner_path->rows;
	kept = Min(r, kind == JOIN_INNER ? joinrel->rows : n);
	/* the outer keys (array and set) and the kept Paimon rows in memory */
	if (n * 3 * sizeof(int64) + kept * (inner_path->pathtarget->width + 32) >
		(double) get_hash_memory_limit())
		return;

	/*
	 * The outer side read and stored, the Paimon scan with the rows of
	 * other keys dropped before they become tuples (each probed against the
	 * keys), the kept rows stored by key; then a probe per outer row and
	 * the quals per joined row.
	 */
	cost_qual_eval(&qc, quals, root);
	startup = outer_path->total_cost + n * 2 * cpu_operator_cost +
		inner_path->total_cost - (r - kept) * cpu_tuple_cost + r * 0.25 * cpu_operator_cost +
		kept * cpu_operator_cost + qc.startup;
	total = startup + n * cpu_operator_cost + joinrel->rows * (cpu_tuple_cost + qc.per_tuple);

	path_private = list_make5(quals, outer_var, inner_var,
							  makeString(get_attname(planner_rt_fetch(innerrel->relid, root)->relid,
													 attnum, false)),
							  makeInteger((int) kind));
	/* the outer rows come back in their order */
	add_path(joinrel, key_join_path(joinrel, outer_path, inner_path, joinrel->rows, startup,
									total, outer_path->pathkeys, path_private));

	/*
	 * A parallel inner join: every participant reads the outer side whole
	 * and joins it with its share of the Paimon table (as a hash join does
	 * without a shared table). The participants' outer rows are the same
	 * set, so each Paimon row is joined once; a semi, anti or left join
	 * would need every share's matches, and is not offered.
	 */
	if (jointype == JOIN_INNER && joinrel->consider_parallel && innerrel->partial_pathlist != NIL)
	{
		Path	   *pinner = linitial(innerrel->partial_pathlist);
		double		divisor;

		/* the cheapest outer path a participant can run (not a Gather) */
		outer_path = NULL;
		foreach(lc, outerrel->pathlist)
		{
			Path	   *p = lfirst(lc);

			if (p->parallel_safe && p->param_info == NULL &&
				(outer_path == NULL || p->total_cost < outer_path->total_cost))
				outer_path = p;
		}
		if (outer_path == NULL || !IsA(pinner, ForeignPath) || pinner->param_info != NULL ||
			pinner->rows <= 0 || !list_member(pinner->pathtarget->exprs, inner_var) ||
			!list_member(outer_path->pathtarget->exprs, outer_var) ||
			!vars_available((Node *) joinrel->reltarget->exprs, outer_path->pathtarget->exprs,
							pinner->pathtarget->exprs))
			return;
		n = outer_path->rows;
		divisor = Max(inner_path->rows / pinner->rows, 1.0);
		startup = outer_path->total_cost + n * 2 * cpu_operator_cost +
			pinner->total_cost - (pinner->rows - kept / divisor) * cpu_tuple_cost +
			pinner->rows * 0.25 * cpu_operator_cost + kept / divisor * cpu_operator_cost +
			qc.startup;
		total = startup + n * cpu_operator_cost +
			joinrel->rows / divisor * (cpu_tuple_cost + qc.per_tuple);
		add_partial_path(joinrel, key_join_path(joinrel, outer_path, pinner,
												clamp_row_est(joinrel->rows / divisor),
												startup, total, NIL, path_private));
	}
}

static TargetEntry *
side_member(Var *var, List *tlist)
{
	TargetEntry *tle = tlist_member((Expr *) var, tlist);

	if (tle == NULL)
		elog(ERROR, "paimon_fdw: a key join's column is not in its input");
	return tle;
}

static Plan *
key_join_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
			  List *clauses, List *custom_plans)
{
	CustomScan *cs = makeNode(CustomScan);
	List	   *quals = linitial(best_path->custom_private);
	Var		   *outer_var = lsecond(best_path->custom_private);
	Var		   *inner_var = lthird(best_path->custom_private);
	Plan	   *outer_plan = linitial(custom_plans);
	Plan	   *inner_plan = lsecond(custom_plans);
	List	   *vars = NIL;
	List	   *scan_tlist = NIL;
	List	   *sides = NIL;
	List	   *resnos = NIL;
	ListCell   *lc;

	foreach(lc, pull_var_clause((Node *) tlist, 0))
		vars = list_append_unique(vars, lfirst(lc));
	foreach(lc, pull_var_clause((Node *) quals, 0))
		vars = list_append_unique(vars, lfirst(lc));
	foreach(lc, vars)
	{
		Var		   *var = lfirst(lc);
		TargetEntry *tle = tlist_member((Expr *) var, outer_plan->targetlist);
		int			side = 0;

		if (tle == NULL)
		{
			tle = side_member(var, inner_plan->targetlist);
			side = 1;
		}
		sides = lappend_int(sides, side);
		resnos = lappend_int(resnos, tle->resno);
		scan_tlist = lappend(scan_tlist, makeTargetEntry((Expr *) copyObject(var),
														 list_length(scan_tlist) + 1, NULL,
														 false));
	}
	cs->scan.plan.targetlist = tlist;
	cs->scan.plan.qual = quals;
	cs->scan.scanrelid = 0;
	cs->flags = best_path->flags;
	cs->custom_plans = custom_plans;
	cs->custom_exprs = NIL;
	cs->custom_scan_tlist = scan_tlist;
	cs->custom_private = list_make5(sides, resnos,
									makeInteger(side_member(outer_var, outer_plan->targetlist)->resno),
									makeInteger((int) outer_var->vartype),
									makeInteger(side_member(inner_var, inner_plan->targetlist)->resno));
	cs->custom_private = lappend(cs->custom_private, makeInteger((int) inner_var->vartype));
	cs->custom_private = lappend(cs->custom_private, makeInteger(inner_var->varattno));
	cs->custom_private = lappend(cs->custom_private, lfourth(best_path->custom_private));
	cs->custom_private = lappend(cs->custom_private, list_nth(best_path->custom_private, 4));
	cs->methods = &key_join_scan_methods;
	return &cs->scan.plan;
}

static Node *
key_join_create_state(CustomScan *cs)
{
	KeyJoinState *st = palloc0(sizeof(KeyJoinState));
	List	   *sides = list_nth(cs->custom_private, KeyJoinSides);
	List	   *resnos = list_nth(cs->custom_private, KeyJoinResnos);
	int			i = 0;
	ListCell   *ls,
			   *lr;

	NodeSetTag(st, T_CustomScanState);
	st->css.methods = &key_join_exec_methods;
	st->ncols = list_length(sides);
	st->side = palloc(sizeof(int) * (st->ncols + 1));
	st->resno = palloc(sizeof(AttrNumber) * (st->ncols + 1));
	st->outer_key = intVal(list_nth(cs->custom_private, KeyJoinOuterKey));
	st->outer_type = (Oid) intVal(list_nth(cs->custom_private, KeyJoinOuterType));
	st->inner_key = intVal(list_nth(cs->custom_private, KeyJoinInnerKey));
	st->inner_type = (Oid) intVal(list_nth(cs->custom_private, KeyJoinInnerType));
	st->inner_attnum = intVal(list_nth(cs->custom_private, KeyJoinInnerAttnum));
	st->key_name = strVal(list_nth(cs->custom_private, KeyJoinKeyName));
	st->jointype = (JoinType) intVal(list_nth(cs->custom_private, KeyJoinType));
	st->outer_natts = st->outer_key;
	st->inner_natts = st->inner_key;
	forboth(ls, sides, lr, resnos)
	{
		st->side[i] = lfirst_int(ls);
		st->resno[i] = lfirst_int(lr);
		if (st->side[i] == 0)
			st->outer_natts = Max(st->outer_natts, st->resno[i]);
		else
			st->inner_natts = Max(st->inner_natts, st->resno[i]);
		i++;
	}
	return (Node *) st;
}

static void
key_join_begin(CustomScanState *node, EState *estate, int eflags)
{
	KeyJoinState *st = (KeyJoinState *) node;
	CustomScan *cs = (CustomScan *) node->ss.ps.plan;
	/* each side is read once per build: a rescan rescans it */
	int			child_flags = eflags & ~(EXEC_FLAG_REWIND | EXEC_FLAG_BACKWARD | EXEC_FLAG_MARK);
	PlanState  *outer = ExecInitNode(linitial(cs->custom_plans), estate, child_flags);
	PlanState  *inner = ExecInitNode(lsecond(cs->custom_plans), estate, child_flags);

	node->custom_ps = list_make2(outer, inner);

	/*
	 * A batch: what hash_mem holds at about 24 bytes per key, or twice the
	 * outer rows the planner expected (which it found to fit).
	 */
	st->batch_keys = Max((int64) (get_hash_memory_limit() / 24),
						 (int64) (2 * outer->plan->plan_rows));
	st->batch_keys = Max(st->batch_keys, 1024);
	/* a parallel scan's share is read once: no batches (its units are claimed) */
	if (inner->plan->parallel_aware)
		st->batch_keys = PG_INT64_MAX;
	st->cxt = AllocSetContextCreate(estate->es_query_cxt, "paimon_fdw key join",
									PMFDW_CONTEXT_SIZES);
	st->outer_slot = ExecInitExtraTupleSlot(estate, ExecGetResultType(outer),
											&TTSOpsMinimalTuple);
	st->inner_slot = ExecInitExtraTupleSlot(estate, ExecGetResultType(inner),
											&TTSOpsMinimalTuple);
}

/* What a batch held: the Paimon scan no longer sees its keys. */
static void
key_join_clear_batch(KeyJoinState *st)
{
	PlanState  *inner = lsecond(st->css.custom_ps);

	if (pmfdw_is_scan(inner))
		pmfdw_scan_set_join_keys((ForeignScanState *) inner, 0, NULL);
	if (st->store != NULL)
		tuplestore_end(st->store);
	st->store = NULL;
	st->keys = NULL;
	st->rows = NULL;
	st->cur = NULL;
	ExecClearTuple(st->outer_slot);
	ExecClearTuple(st->inner_slot);
	MemoryContextReset(st->cxt);
}

/*
 * Read the next batch of outer rows (up to batch_keys keys), hand their keys
 * to the Paimon scan, keep the Paimon rows by key. A batch is normally the
 * whole outer side; more than the planner thought and hash_mem holds are
 * joined a batch at a time, the Paimon side read once per batch.
 */
static void
key_join_build(KeyJoinState *st)
{
	PlanState  *outer = linitial(st->css.custom_ps);
	PlanState  *inner = lsecond(st->css.custom_ps);
	MemoryContext old;
	int64	   *keys = NULL;
	size_t		nkeys = 0;
	size_t		cap = 0;
	pm_env	   *env;
	pm_error	err;

	key_join_clear_batch(st);
	old = MemoryContextSwitchTo(st->cxt);
	st->store = tuplestore_begin_heap(false, false, work_mem);
	MemoryContextSwitchTo(old);
	while (nkeys < (size_t) st->batch_keys)
	{
		TupleTableSlot *slot = ExecProcNode(outer);
		bool		isnull;
		Datum		d;

		if (TupIsNull(slot))
		{
			st->outer_done = true;
			break;
		}
		CHECK_FOR_INTERRUPTS();
		tuplestore_puttupleslot(st->store, slot);
		st->outer_rows++;
		d = slot_getattr(slot, st->outer_key, &isnull);
		if (isnull)
			continue;			/* joins nothing */
		if (nkeys == cap)
		{
			cap = cap > 0 ? cap * 2 : 1024;
			keys = keys == NULL
				? MemoryContextAllocHuge(st->cxt, sizeof(int64) * cap)
				: repalloc_huge(keys, sizeof(int64) * cap);
		}
		keys[nkeys++] = pmfdw_datum_int64(d, st->outer_type);
	}
	if (!st->built)
		st->builds++;
	st->built = true;
	if (nkeys == 0)
		return;					/* the Paimon side is not read */
	if (st->batches++ > 0)
		ExecReScan(inner);		/* read again for this batch's keys */

	env = pmfdw_env_create(st->cxt);
	pm_error_clear(&err);
	if ((st->keys = pm_key_set_build(env, keys, nkeys, &err)) == NULL)
		pmfdw_error(&err);
	st->outer_keys += pm_key_set_count(st->keys);
	st->rows = MemoryContextAllocHuge(st->cxt, sizeof(KeyJoinRow *) * pm_key_set_count(st->keys));
	memset(st->rows, 0, sizeof(KeyJoinRow *) * pm_key_set_count(st->keys));

	if (pmfdw_is_scan(inner))
		pmfdw_scan_set_join_keys((ForeignScanState *) inner, st->inner_attnum, st->keys);
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(inner);
		bool		isnull;
		Datum		d;
		int64		idx;
		KeyJoinRow *row;

		if (TupIsNull(slot))
			break;
		d = slot_getattr(slot, st->inner_key, &isnull);
		if (isnull ||
			(idx = pm_key_set_index(st->keys, pmfdw_datum_int64(d, st->inner_type))) < 0)
			continue;
		old = MemoryContextSwitchTo(st->cxt);
		row = palloc(sizeof(KeyJoinRow));
		row->tuple = ExecCopySlotMinimalTuple(slot);
		MemoryContextSwitchTo(old);
		row->next = st->rows[idx];
		st->rows[idx] = row;
		st->inner_rows++;
	}
}

/* The scan tuple of the current outer row and Paimon row `row` (NULL: nulls). */
static TupleTableSlot *
joined_row(KeyJoinState *st, TupleTableSlot *scan, KeyJoinRow *row)
{
	ExecClearTuple(scan);
	if (row != NULL)
	{
		ExecStoreMinimalTuple(row->tuple, st->inner_slot, false);
		slot_getsomeattrs(st->inner_slot, st->inner_natts);
	}
	for (int i = 0; i < st->ncols; i++)
	{
		if (st->side[i] == 0)
		{
			scan->tts_values[i] = st->outer_slot->tts_values[st->resno[i] - 1];
			scan->tts_isnull[i] = st->outer_slot->tts_isnull[st->resno[i] - 1];
		}
		else if (row != NULL)
		{
			scan->tts_values[i] = st->inner_slot->tts_values[st->resno[i] - 1];
			scan->tts_isnull[i] = st->inner_slot->tts_isnull[st->resno[i] - 1];
		}
		else
		{
			scan->tts_values[i] = (Datum) 0;
			scan->tts_isnull[i] = true;
		}
	}
	return ExecStoreVirtualTuple(scan);
}

static TupleTableSlot *
key_join_next(CustomScanState *node)
{
	KeyJoinState *st = (KeyJoinState *) node;
	TupleTableSlot *scan = node->ss.ss_ScanTupleSlot;

	if (!st->built)
		key_join_build(st);
	for (;;)
	{
		KeyJoinRow *match = NULL;

		if (st->cur != NULL)
		{
			KeyJoinRow *row = st->cur;

			st->cur = row->next;
			return joined_row(st, scan, row);
		}
		if (!tuplestore_gettupleslot(st->store, true, false, st->outer_slot))
		{
			if (st->outer_done)
				return ExecClearTuple(scan);
			key_join_build(st); /* the next batch */
			continue;
		}
		CHECK_FOR_INTERRUPTS();
		slot_getsomeattrs(st->outer_slot, st->outer_natts);
		if (st->keys != NULL && !st->outer_slot->tts_isnull[st->outer_key - 1])
		{
			int64		idx = pm_key_set_index(st->keys,
											   pmfdw_datum_int64(st->outer_slot->tts_values[st->outer_key - 1],
															 st->outer_type));

			if (idx >= 0)
				match = st->rows[idx];
		}
		switch (st->jointype)
		{
			case JOIN_SEMI:
				if (match != NULL)
					return joined_row(st, scan, NULL);
				break;
			case JOIN_ANTI:
				if (match == NULL)
					return joined_row(st, scan, NULL);
				break;
			case JOIN_LEFT:
				if (match == NULL)
					return joined_row(st, scan, NULL);	/* null-extended */
				/* FALLTHROUGH */
			default:
				st->cur = match;
				break;
		}
	}
}

static bool
key_join_recheck(CustomScanState *node, TupleTableSlot *slot)
{
	return true;				/* no row marks: never an EvalPlanQual recheck */
}

static TupleTableSlot *
key_join_exec(CustomScanState *node)
{
	return ExecScan(&node->ss, (ExecScanAccessMtd) key_join_next,
					(ExecScanRecheckMtd) key_join_recheck);
}

/* Forget what the last (re)scan held. */
static void
key_join_reset(KeyJoinState *st)
{
	key_join_clear_batch(st);
	st->built = false;
	st->outer_done = false;
}

static void
key_join_rescan(CustomScanState *node)
{
	KeyJoinState *st = (KeyJoinState *) node;

	key_join_reset(st);
	ExecReScan(linitial(node->custom_ps));
	ExecReScan(lsecond(node->custom_ps));
}

static void
key_join_end(CustomScanState *node)
{
	KeyJoinState *st = (KeyJoinState *) node;

	key_join_reset(st);
	ExecEndNode(linitial(node->custom_ps));
	ExecEndNode(lsecond(node->custom_ps));
	MemoryContextDelete(st->cxt);
}

static void
key_join_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	KeyJoinState *st = (KeyJoinState *) node;

	static const char *const kinds[] = {
		[JOIN_INNER] = "Inner",[JOIN_LEFT] = "Left",[JOIN_SEMI] = "Semi",[JOIN_ANTI] = "Anti"
	};

	if (st->jointype != JOIN_INNER)
		ExplainPropertyText("Join Type", kinds[st->jointype], es);
	ExplainPropertyText("Join Key",
						psprintf("%s, the outer side's keys handed to the Paimon scan",
								 quote_identifier(st->key_name)), es);
	/*
	 * (in a parallel plan a process's own: each reads the outer side whole
	 * and matches its share of the scan; the scan's Outer Keys Filter sums
	 * the shares)
	 */
	if (es->analyze && st->builds > 0)
		ExplainPropertyText("Outer Keys",
							psprintf(INT64_FORMAT " rows, " INT64_FORMAT " distinct keys, "
									 INT64_FORMAT " Paimon rows matched%s",
									 st->outer_rows, st->outer_keys, st->inner_rows,
									 ((PlanState *) lsecond(st->css.custom_ps))->plan->parallel_aware ?
									 " by the leader" : ""), es);
	/* more outer rows than a batch holds: the Paimon side read once per batch */
	if (es->analyze && st->batches > st->builds)
		ExplainPropertyInteger("Outer Batches", NULL, st->batches, es);
}

void
pmfdw_key_join_init(void)
{
	key_join_path_methods.CustomName = KEY_JOIN_NAME;
	key_join_path_methods.PlanCustomPath = key_join_plan;
	key_join_scan_methods.CustomName = KEY_JOIN_NAME;
	key_join_scan_methods.CreateCustomScanState = key_join_create_state;
	key_join_exec_methods.CustomName = KEY_JOIN_NAME;
	key_join_exec_methods.BeginCustomScan = key_join_begin;
	key_join_exec_methods.ExecCustomScan = key_join_exec;
	key_join_exec_methods.EndCustomScan = key_join_end;
	key_join_exec_methods.ReScanCustomScan = key_join_rescan;
	key_join_exec_methods.ExplainCustomScan = key_join_explain;
	RegisterCustomScanMethods(&key_join_scan_methods);
	prev_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = key_join_paths;
}
