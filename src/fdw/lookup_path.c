/*-------------------------------------------------------------------------
 * lookup_path.c
 *	  Point lookups in the planner and executor: which quals pin the
 *	  primary key, parameterized paths for lookup joins, and dropping the
 *	  rows of other keys from a lookup's batches.
 *
 * A primary-key table is looked up (table/point_lookup.h) when its quals
 * pin every column of the trimmed primary key with "=" or IN, against
 * constants or run-time values. For a join on the key, GetForeignPaths
 * offers a path parameterized by the outer relations (from the rel's join
 * clauses and its equivalence classes, as postgres_fdw does): the key
 * clause then holds an outer Var, which becomes a Param in the plan, so
 * each rescan is a lookup of the outer row's key. Its cost is what one
 * lookup reads (the files of one bucket whose key range may hold the key,
 * their rows decoded), so that the planner prefers it for few outer rows
 * and a hash join over one scan for many.
 *
 * Which quals count is decided here by shape only (Var = Const, Param or
 * an outer Var, with a btree equality operator); whether a qual is pushed
 * is predicate.c's decision when the scan runs: a key it does not push
 * makes that scan an ordinary one, never a wrong one.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "access/stratnum.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/lsyscache.h"

#include "table/batch_filter.h"
#include "table/split.h"

/*
 * The attnums of the trimmed primary key's columns, in key order; NIL when
 * the table has none or a key field has no column.
 */
List *
pmfdw_lookup_key_attnums(Relation rel, pm_table *table)
{
	const pm_type *row = pm_table_schema(table)->row_type;
	const int  *fields;
	int			n;
	List	   *attnums = NIL;

	pm_table_trimmed_primary_key(table, &fields, &n);
	for (int k = 0; k < n; k++)
	{
		AttrNumber	found = InvalidAttrNumber;

		for (int a = 0; a < RelationGetNumberOfAttributes(rel); a++)
		{
			Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), a);

			if (!att->attisdropped &&
				pm_type_field_index(row, NameStr(att->attname)) == fields[k])
				found = att->attnum;
		}
		if (found == InvalidAttrNumber)
		{
			list_free(attnums);
			return NIL;
		}
		attnums = lappend_int(attnums, found);
	}
	return attnums;
}

static bool
is_btree_equality(Oid opno)
{
	List	   *interps = get_op_btree_interpretation(opno);
	ListCell   *lc;
	bool		eq = false;

	foreach(lc, interps)
		if (((OpBtreeInterpretation *) lfirst(lc))->strategy == BTEqualStrategyNumber)
			eq = true;
	list_free_deep(interps);
	return eq;
}

static Node *
strip_relabel(Node *n)
{
	while (n != NULL && IsA(n, RelabelType))
		n = (Node *) ((RelabelType *) n)->arg;
	return n;
}

/* A value a scan (or rescan) knows when it starts: Const, Param or another rel's Var. */
static bool
is_key_value(Node *n, Index relid)
{
	n = strip_relabel(n);
	if (n == NULL)
		return false;
	if (IsA(n, Const) || IsA(n, Param))
		return true;
	if (IsA(n, Var))
		return ((Var *) n)->varno != relid && ((Var *) n)->varlevelsup == 0;
	if (IsA(n, ArrayExpr))
	{
		ListCell   *lc;

		foreach(lc, ((ArrayExpr *) n)->elements)
			if (!is_key_value(lfirst(lc), relid))
				return false;
		return true;
	}
	return false;
}

/* The key column of relid a clause pins ("k = v", "k = ANY(...)"), else 0. */
static AttrNumber
pinned_attnum(Node *clause, Index relid, List *key_attnums)
{
	Node	   *col = NULL;
	Node	   *val = NULL;

	if (clause != NULL && IsA(clause, RestrictInfo))
		clause = (Node *) ((RestrictInfo *) clause)->clause;
	if (clause == NULL)
		return 0;
	if (IsA(clause, OpExpr) && list_length(((OpExpr *) clause)->args) == 2 &&
		is_btree_equality(((OpExpr *) clause)->opno))
	{
		OpExpr	   *op = (OpExpr *) clause;
		Node	   *l = strip_relabel(linitial(op->args));
		Node	   *r = strip_relabel(lsecond(op->args));

		if (l != NULL && IsA(l, Var) && ((Var *) l)->varno == relid)
			col = l, val = r;
		else if (r != NULL && IsA(r, Var) && ((Var *) r)->varno == relid)
			col = r, val = l;
	}
	else if (IsA(clause, ScalarArrayOpExpr) && ((ScalarArrayOpExpr *) clause)->useOr &&
			 is_btree_equality(((ScalarArrayOpExpr *) clause)->opno))
	{
		ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) clause;

		col = strip_relabel(linitial(sa->args));
		val = lsecond(sa->args);
		if (col == NULL || !IsA(col, Var) || ((Var *) col)->varno != relid)
			return 0;
	}
	if (col == NULL || ((Var *) col)->varlevelsup != 0 || !is_key_value(val, relid) ||
		!list_member_int(key_attnums, ((Var *) col)->varattno))
		return 0;
	return ((Var *) col)->varattno;
}

/*
 * Do quals (RestrictInfos or clauses of relid) pin every key column (with
 * one_value, each to one value: "k = v", not "k = ANY(...)")?
 */
static bool
quals_pin_key(List *quals, Index relid, List *key_attnums, bool one_value)
{
	ListCell   *k;

	if (key_attnums == NIL)
		return false;
	foreach(k, key_attnums)
	{
		ListCell   *q;
		bool		pinned = false;

		foreach(q, quals)
		{
			Node	   *c = lfirst(q);

			if (IsA(c, RestrictInfo))
				c = (Node *) ((RestrictInfo *) c)->clause;
			if (pinned_attnum(c, relid, key_attnums) == lfirst_int(k) &&
				(!one_value || IsA(c, OpExpr)))
				pinned = true;
		}
		if (!pinned)
			return false;
	}
	return true;
}

bool
pmfdw_quals_pin_key(List *quals, Index relid, List *key_attnums)
{
	return quals_pin_key(quals, relid, key_attnums, false);
}

bool
pmfdw_quals_pin_one_key(List *quals, Index relid, List *key_attnums)
{
	return quals_pin_key(quals, relid, key_attnums, true);
}

/* How many of quals pin a key column. */
int
pmfdw_count_key_quals(List *quals, Index relid, List *key_attnums)
{
	ListCell   *q;
	int			n = 0;

	foreach(q, quals)
		if (pinned_attnum(lfirst(q), relid, key_attnums) != 0)
			n++;
	return n;
}

/* An equivalence class member that is one of the rel's key columns, one at a time. */
typedef struct KeyMemberArg
{
	Index		relid;
	AttrNumber	attnum;
} KeyMemberArg;

static bool
key_member(PlannerInfo *root, RelOptInfo *rel, EquivalenceClass *ec,
		   EquivalenceMember *em, void *arg)
{
	KeyMemberArg *k = arg;
	Var		   *v = (Var *) strip_relabel((Node *) em->em_expr);

	return v != NULL && IsA(v, Var) && v->varno == k->relid && v->varattno == k->attnum &&
		v->varlevelsup == 0;
}

/*
 * The cost of one lookup: the files of one bucket per partition whose key
 * range may hold the key (at most a few: level 0 and one per level; the
 * key cache drops most of those that do not hold it), each read for one
 * page per column (the page index finds it; the key pages place the row),
 * and that page's values decompressed and decoded.
 *
 * A page holds at most LOOKUP_PAGE_ROWS rows (parquet-mr's row count limit)
 * and is decompressed whole, so a lookup costs about the same on a table
 * of a thousand rows per file as on one of millions: what grows with the
 * table is only the scan it competes with. Calibrated on the 10M-row bench
 * table (bench/run_lookup_join.sh, files in the OS cache, each join in a new
 * backend, CPU time): a lookup per outer row costs 0.43 ms (1000 rows 470-500
 * ms, 5000 rows 2150 ms, with or without JIT since the run-time key is
 * evaluated without JIT), a hash join over one merged scan 930-960 ms: the
 * measured crossover is ~2200 outer rows. For that join (two columns read:
 * 165 per lookup) the costs put it between 2500 and 3000; a SELECT * (324
 * per lookup) near 1500. Kept as is: lowering it (to ~125) would move the
 * crossover further from the measured one.
 */
#define LOOKUP_PAGE_ROWS 20000.0

void
pmfdw_lookup_cost(const PmfdwLookupEstimate *est, double rows, Cost *startup, Cost *total)
{
	double		splits = Max(est->splits, 1);
	double		files_per_bucket = (double) est->files_selected / splits;
	/* key ranges leave about one file per sorted run: guess two */
	double		files = Max(1.0, Min(files_per_bucket, 2.0)) * Max(est->partitions, 1);
	double		rows_per_file = est->files_selected > 0 ?
		(double) est->rows_selected / est->files_selected : 0;
	double		page_rows = Min(rows_per_file, LOOKUP_PAGE_ROWS);
	/* the key columns and the sequence number and row kind come along */
	double		cols = est->ncols + 3;

	*startup = 1.0;
	*total = *startup + files * (2.0 + cols * seq_page_cost +
								 page_rows * cols * 0.3 * cpu_operator_cost) +
		rows * cpu_tuple_cost;
}

/*
 * Offer a path parameterized by each set of outer relations whose join
 * clauses, with the rel's own quals, pin the whole key.
 */
void
pmfdw_add_lookup_paths(PlannerInfo *root, RelOptInfo *baserel, List *key_attnums,
					   const PmfdwLookupEstimate *est)
{
	List	   *candidates = NIL;
	List	   *done = NIL;
	ListCell   *lc;

	if (key_attnums == NIL)
		return;
	/* join clauses that are not equivalences */
	foreach(lc, baserel->joininfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (join_clause_is_movable_to(ri, baserel) &&
			pinned_attnum((Node *) ri, baserel->relid, key_attnums) != 0)
			candidates = lappend(candidates, ri);
	}
	/* equivalences with other rels' members */
	if (baserel->has_eclass_joins)
	{
		foreach(lc, key_attnums)
		{
			KeyMemberArg arg = {baserel->relid, lfirst_int(lc)};

			candidates = list_concat(candidates,
									 generate_implied_equalities_for_column(root, baserel,
																			key_member, &arg,
																			baserel->lateral_referencers));
		}
	}
	foreach(lc, candidates)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		Relids		required_outer;
		ParamPathInfo *ppi;
		List	   *quals;
		Cost		startup,
					total;
		double		rows;
		ForeignPath *path;

		required_outer = bms_union(ri->clause_relids, baserel->lateral_relids);
		required_outer = bms_del_member(required_outer, baserel->relid);
		if (bms_is_empty(required_outer))
			continue;
		ppi = get_baserel_parampathinfo(root, baserel, required_outer);
		if (list_member_ptr(done, ppi))
			continue;
		done = lappend(done, ppi);
		quals = list_concat(list_copy(baserel->baserestrictinfo), ppi->ppi_clauses);
		if (!pmfdw_quals_pin_key(quals, baserel->relid, key_attnums))
			continue;
		/* one row per key and partition at most */
		rows = clamp_row_est(Min(ppi->ppi_rows, (double) Max(est->partitions, 1)));
		pmfdw_lookup_cost(est, rows, &startup, &total);
		path = create_foreignscan_path(root, baserel, NULL, rows, startup, total,
									   NIL, required_outer, NULL, NIL);
		path->path.parallel_safe = false;	/* as the plain scan */
		add_path(baserel, (Path *) path);
	}
}

/*
 * The rows of b whose key is one of the lookup's keys (key_filter, over
 * table fields; fields[i] is the table field of batch column i): their
 * numbers into rows, their count returned. -1 when the filter cannot be
 * evaluated here (a key field not among the columns, a type batch_filter
 * does not take): then every row is kept.
 */
int64
pmfdw_lookup_rows(const pm_env *env, const struct pm_predicate *key_filter,
				  const pm_type *row_type, const pm_batch *b, const int *fields, int nfields,
				  int64 *rows)
{
	int		   *col_of_field = palloc(sizeof(int) * (row_type->nfields + 1));
	uint8_t    *sel;
	pm_error	err;
	int64		n = 0;

	for (int f = 0; f < row_type->nfields; f++)
		col_of_field[f] = -1;
	for (int i = 0; i < nfields; i++)
		col_of_field[fields[i]] = i;
	if (!pm_batch_filter_supported(key_filter, row_type) ||
		!pmfdw_filter_fields_present(key_filter, col_of_field))
	{
		pfree(col_of_field);
		return -1;
	}
	sel = palloc(b->nrows + 1);
	pm_error_clear(&err);
	if (pm_batch_filter(env, key_filter, b, col_of_field, sel, &err) != PM_OK)
		pmfdw_error(&err);
	for (int64 r = 0; r < b->nrows; r++)
		if (sel[r])
			rows[n++] = r;
	pfree(sel);
	pfree(col_of_field);
	return n;
}

/* Is every field a leaf of p names a batch column? */
bool
pmfdw_filter_fields_present(const struct pm_predicate *p, const int *col_of_field)
{
	switch (p->op)
	{
		case PM_PRED_AND:
		case PM_PRED_OR:
			for (int i = 0; i < p->nchildren; i++)
				if (!pmfdw_filter_fields_present(p->children[i], col_of_field))
					return false;
			return true;
		case PM_PRED_FALSE:
			return true;
		default:
			return p->field >= 0 && col_of_field[p->field] >= 0;
	}
}
