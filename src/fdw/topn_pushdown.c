/*-------------------------------------------------------------------------
 * topn_pushdown.c
 *	  ORDER BY ... LIMIT n kept on column batches inside the extension
 *	  (GetForeignUpperPaths, UPPERREL_ORDERED): the scan returns only the
 *	  first n rows (n = LIMIT + OFFSET), in order, from a bounded heap on
 *	  the batches (table/scan_topn.h); Postgres' Limit node above applies
 *	  OFFSET and LIMIT as usual.
 *
 * Pushed when the query is a plain scan of one foreign table with a
 * constant LIMIT (and OFFSET), no WITH TIES, no grouping, DISTINCT,
 * window functions, set-returning functions or row locks (the planner's
 * limit_tuples says so), a WHERE clause the core evaluates exactly on the
 * rows (as for aggregate pushdown), and sort keys that are plain columns
 * mapped exactly from their Paimon type, ordered by the type's default
 * btree operator family: boolean, integers, real/double precision (NaN
 * last, as Postgres), numeric, date, timestamp(tz), and text under the
 * "C" collation in a UTF-8 (or SQL_ASCII) database. NULLS FIRST/LAST and
 * DESC as written. Any table kind (primary-key tables after the merge).
 *
 * Once the heap is full, Parquet row groups and ORC stripes whose
 * statistics show that none of their rows can enter on the first key are
 * skipped (append tables and deletion-vector files; integer, date,
 * timestamp and decimal keys), counted with the row groups pruned by
 * statistics. Late materialization: in the Parquet files whose rows are
 * not merged, the reader decodes the first key's column first, drops the
 * rows of each batch that cannot enter the full heap on it, and decodes the
 * other columns only for the span of rows left (most batches: none);
 * EXPLAIN ANALYZE counts the rows each was decoded for.
 *
 * The plan carries a spec (fdw_private, copyable nodes): the EXPLAIN text,
 * the quals, relid, the limit (String), the keys (IntList: attnum,
 * descending, nulls_first each) and the Vars the scan returns.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "access/stratnum.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "executor/tuptable.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/pg_locale.h"

#include "common/arena.h"
#include "lsm/table_read.h"
#include "table/batch_filter.h"
#include "table/predicate.h"
#include "table/scan_topn.h"

/* The most rows a pushed top-N keeps (larger limits sort as usual). */
#define TOPN_MAX_ROWS 100000

/* The plain column of relid under an ORDER BY expression, or NULL. */
static Var *
key_var(Expr *e, Index relid)
{
	/* a COLLATE clause: the same value (the collation is checked apart) */
	if (IsA(e, RelabelType) &&
		((RelabelType *) e)->resulttype == exprType((Node *) ((RelabelType *) e)->arg))
		e = ((RelabelType *) e)->arg;
	if (!IsA(e, Var))
		return NULL;
	if (((Var *) e)->varno != relid || ((Var *) e)->varlevelsup != 0 ||
		((Var *) e)->varattno <= 0)
		return NULL;
	return (Var *) e;
}

/* The column a pathkey sorts by, when the core orders it as Postgres would. */
static Var *
pathkey_var(PathKey *pk, Index relid, const PmfdwAggRelInfo *info)
{
	EquivalenceClass *ec = pk->pk_eclass;
	ListCell   *lc;

	if (ec->ec_has_volatile || (pk->pk_strategy != BTLessStrategyNumber &&
								pk->pk_strategy != BTGreaterStrategyNumber))
		return NULL;
	foreach(lc, ec->ec_members)
	{
		EquivalenceMember *em = lfirst(lc);
		Var		   *var;
		pm_type		t;
		Oid			opclass;

		if (em->em_is_const || em->em_is_child)
			continue;
		var = key_var(em->em_expr, relid);
		if (var == NULL || !pmfdw_agg_rel_attr_type(info, var->varattno, &t) ||
			!pm_topn_key_supported(&t))
			continue;
		/* the type's own order: its default btree operator family */
		opclass = GetDefaultOpClass(var->vartype, BTREE_AM_OID);
		if (!OidIsValid(opclass) || get_opclass_family(opclass) != pk->pk_opfamily)
			continue;
		/* strings: bytes order only under "C", file bytes only in UTF-8 */
		if ((t.id == PM_TYPE_CHAR || t.id == PM_TYPE_VARCHAR) &&
			(!lc_collate_is_c(ec->ec_collation) ||
			 (GetDatabaseEncoding() != PG_UTF8 && GetDatabaseEncoding() != PG_SQL_ASCII)))
			continue;
		return var;
	}
	return NULL;
}

List *
pmfdw_topn_pushdown_spec(PlannerInfo *root, RelOptInfo *input_rel, Oid relid,
						 const PmfdwAggRelInfo *info, double *rows)
{
	Query	   *parse = root->parse;
	PathTarget *target = root->upper_targets[UPPERREL_ORDERED];
	List	   *keys = NIL;
	List	   *vars;
	List	   *scan_vars = NIL;
	StringInfoData text;
	ListCell   *lc;
	int64		limit;

	if (!pmfdw_enable_topn_pushdown || info == NULL || target == NULL ||
		input_rel->reloptkind != RELOPT_BASEREL || !pmfdw_agg_rel_quals_exact(info) ||
		parse->limitOption == LIMIT_OPTION_WITH_TIES || parse->rowMarks != NIL ||
		parse->hasTargetSRFs || root->sort_pathkeys == NIL ||
		root->limit_tuples <= 0 || root->limit_tuples > TOPN_MAX_ROWS)
		return NIL;
	limit = (int64) root->limit_tuples;
	initStringInfo(&text);
	foreach(lc, root->sort_pathkeys)
	{
		PathKey    *pk = lfirst(lc);
		Var		   *var = pathkey_var(pk, input_rel->relid, info);
		bool		desc = pk->pk_strategy == BTGreaterStrategyNumber;

		if (var == NULL)
			return NIL;
		appendStringInfo(&text, "%s%s%s%s", keys != NIL ? ", " : "",
						 quote_identifier(get_attname(relid, var->varattno, false)),
						 desc ? " DESC" : "",
						 pk->pk_nulls_first != desc ?
						 (pk->pk_nulls_first ? " NULLS FIRST" : " NULLS LAST") : "");
		keys = lappend(keys, list_make3_int(var->varattno, desc, pk->pk_nulls_first));
	}

	/* what the scan returns: plain columns, from which the target is computed */
	vars = pull_var_clause((Node *) target->exprs, PVC_INCLUDE_PLACEHOLDERS);
	foreach(lc, vars)
	{
		Var		   *var = lfirst(lc);

		if (!IsA(var, Var) || var->varno != input_rel->relid || var->varlevelsup != 0 ||
			var->varattno <= 0)
			return NIL;
		if (!list_member(scan_vars, var))
			scan_vars = lappend(scan_vars, var);
	}
	if (scan_vars == NIL)
		return NIL;

	appendStringInfo(&text, " LIMIT " INT64_FORMAT, limit);
	if (input_rel->baserestrictinfo != NIL)
		appendStringInfoString(&text, ", WHERE evaluated on batches");
	*rows = Min((double) limit, input_rel->rows);
	return lappend(list_make5(makeString(text.data),
							  extract_actual_clauses(input_rel->baserestrictinfo, false),
							  makeInteger((int) input_rel->relid),
							  makeString(psprintf(INT64_FORMAT, limit)),
							  keys),
				   scan_vars);
}

const char *
pmfdw_topn_pushdown_text(List *spec)
{
	return strVal(linitial(spec));
}

List *
pmfdw_topn_scan_vars(List *spec)
{
	return (List *) list_nth(spec, 5);
}

/* ---- execution ---- */

struct PmfdwTopnExec
{
	MemoryContext cxt;			/* the top-N */
	MemoryContext row_cxt;		/* converted result rows */
	pm_env	   *env;
	pm_scan    *scan;
	int			nout;			/* columns of the scan tuple */
	int		   *out_col;		/* batch column of each */
	PmfdwColumnConverter *conv;
	int			nfields;
	int		   *fields;			/* Paimon fields read, batch column order */
	const pm_type **col_types;
	int		   *field_col;		/* batch column of each table field, or -1 */
	pm_topn_key *keys;
	int			nkeys;
	int64		limit;
	pm_predicate *pred;			/* the WHERE clause, or NULL */
	PmfdwBatchWhere where;		/* pred on batches */
	pm_topn    *topn;
	const pm_batch *result;
	Datum	  **values;			/* per output column, per result row */
	bool	  **nulls;
	int64		next;
	bool		started;
	/* late materialization (row_keep), summed over (re)scans */
	int64		late_rows;		/* rows whose first key the reader judged */
	int64		late_kept;		/* ... of the spans of rows then decoded whole */
	int64		rows_offered;	/* rows of the batches that reached the top-N */
};

/* The batch column reading table field f (added on first use). */
static int
field_column(PmfdwTopnExec *ex, int f, const pm_type *row_type)
{
	if (ex->field_col[f] < 0)
	{
		ex->field_col[f] = ex->nfields;
		ex->fields[ex->nfields] = f;
		ex->col_types[ex->nfields] = row_type->fields[f].type;
		ex->nfields++;
	}
	return ex->field_col[f];
}

static void
add_pred_fields(PmfdwTopnExec *ex, const pm_predicate *p, const pm_type *row_type)
{
	if (p->op == PM_PRED_AND || p->op == PM_PRED_OR)
	{
		for (int i = 0; i < p->nchildren; i++)
			add_pred_fields(ex, p->children[i], row_type);
		return;
	}
	if (p->op != PM_PRED_FALSE)
		(void) field_column(ex, p->field, row_type);
}

/* Table field of attnum, checked against the plan's view of its type. */
static int
checked_field(Relation rel, const pm_type *row_type, AttrNumber attnum, bool key)
{
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);
	int			f = att->attisdropped ? -1 : pm_type_field_index(row_type, NameStr(att->attname));

	if (f < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of foreign table \"%s\" does not exist in the Paimon table",
						NameStr(att->attname), RelationGetRelationName(rel)),
				 errhint("Foreign table columns are matched to Paimon fields by name.")));
	if (key && (pmfdw_type_oid(row_type->fields[f].type) != att->atttypid ||
				!pm_topn_key_supported(row_type->fields[f].type)))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("column \"%s\" changed type since the query was planned",
						NameStr(att->attname))));
	return f;
}

/* Row groups whose first-key statistics say no row can enter the full heap. */
static bool
part_may_enter(void *ctx, const pm_field_range *ranges, int nfields)
{
	PmfdwTopnExec *ex = ctx;
	int			f = ex->fields[ex->keys[0].column];

	return f >= nfields || pm_topn_part_may_enter(ex->topn, &ranges[f]);
}

/*
 * Late materialization (pm_scan_set_row_keep): the rows of a batch whose
 * first key cannot enter the full heap are dropped before the reader
 * decodes the other columns, which it then decodes only for the span from
 * the first row left to the last.
 */
static void
row_may_enter(void *ctx, const pm_vector *values, int64_t nrows, uint8_t *sel)
{
	PmfdwTopnExec *ex = ctx;
	int64_t		lo = 0,
				hi = nrows;

	(void) pm_topn_filter_first_key(ex->topn, values, nrows, sel);
	while (lo < hi && sel[lo] == 0)
		lo++;
	while (hi > lo && sel[hi - 1] == 0)
		hi--;
	ex->late_rows += nrows;
	ex->late_kept += hi - lo;
}

PmfdwTopnExec *
pmfdw_topn_exec_begin(List *spec, Relation rel, pm_table *table, pm_scan **scan,
					  pm_env *env, MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "paimon_fdw top-N",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	const pm_type *row_type = pm_table_schema(table)->row_type;
	List	   *quals = (List *) lsecond(spec);
	Index		relid = (Index) intVal(lthird(spec));
	List	   *keys = (List *) list_nth(spec, 4);
	List	   *vars = (List *) list_nth(spec, 5);
	int			ntf = row_type->nfields;
	PmfdwTopnExec *ex = palloc0(sizeof(PmfdwTopnExec));
	pm_scan_options options;
	pm_error	err;
	pm_arena   *arena;
	ListCell   *lc;
	int			i;

	ex->cxt = cxt;
	ex->row_cxt = AllocSetContextCreate(cxt, "paimon_fdw top-N rows", ALLOCSET_DEFAULT_SIZES);
	ex->env = env;
	ex->limit = strtoll(strVal(list_nth(spec, 3)), NULL, 10);
	ex->nout = list_length(vars);
	ex->out_col = palloc(sizeof(int) * ex->nout);
	ex->conv = palloc(sizeof(PmfdwColumnConverter) * ex->nout);
	ex->values = palloc0(sizeof(Datum *) * ex->nout);
	ex->nulls = palloc0(sizeof(bool *) * ex->nout);
	ex->fields = palloc(sizeof(int) * (ntf + 1));
	ex->col_types = palloc(sizeof(pm_type *) * (ntf + 1));
	ex->field_col = palloc(sizeof(int) * (ntf + 1));
	for (int f = 0; f < ntf; f++)
		ex->field_col[f] = -1;
	ex->nkeys = list_length(keys);
	ex->keys = palloc(sizeof(pm_topn_key) * ex->nkeys);
	i = 0;
	foreach(lc, keys)
	{
		List	   *k = lfirst(lc);
		int			f = checked_field(rel, row_type, linitial_int(k), true);

		ex->keys[i].column = field_column(ex, f, row_type);
		ex->keys[i].descending = lsecond_int(k) != 0;
		ex->keys[i].nulls_first = lthird_int(k) != 0;
		i++;
	}
	i = 0;
	foreach(lc, vars)
	{
		Var		   *var = lfirst(lc);
		Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), var->varattno - 1);
		int			f = checked_field(rel, row_type, var->varattno, false);

		ex->out_col[i] = field_column(ex, f, row_type);
		pmfdw_converter_init(&ex->conv[i], row_type->fields[f].type, att->atttypid,
							 NameStr(att->attname));
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
	if (pm_topn_create(env, ex->col_types, ex->nfields, ex->keys, ex->nkeys, ex->limit,
					   &ex->topn, &err) != PM_OK)
		pmfdw_error(&err);
	pm_scan_set_part_keep(ex->scan, part_may_enter, ex);
	pm_scan_set_row_keep(ex->scan, ex->fields[ex->keys[0].column], row_may_enter, ex);
	MemoryContextSwitchTo(old);
	return ex;
}

/* Read every row (after the merge and the WHERE clause) into the top-N. */
static void
run_topn(PmfdwTopnExec *ex)
{
	MemoryContext old = MemoryContextSwitchTo(ex->cxt);
	pm_table_read *read;
	pm_batch   *batch;
	const uint8 *sel;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_topn_reset(ex->topn, &err) != PM_OK)
		pmfdw_error(&err);
	if (pm_table_read_open(ex->scan, ex->fields, ex->nfields, &read, &err) != PM_OK)
		pmfdw_error(&err);
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		if ((batch = pmfdw_next_batch_where(&ex->where, read, &sel)) == NULL)
			break;
		ex->rows_offered += batch->nrows;
		if (pm_topn_add(ex->topn, batch, sel, &err) != PM_OK)
		{
			pm_table_read_close(read);
			pmfdw_error(&err);
		}
	}
	pm_table_read_close(read);
	if (pm_topn_result(ex->topn, &ex->result, &err) != PM_OK)
		pmfdw_error(&err);

	/* convert the kept rows once: every output column of every row */
	MemoryContextReset(ex->row_cxt);
	MemoryContextSwitchTo(ex->row_cxt);
	for (int i = 0; i < ex->nout; i++)
	{
		int64		n = Max(ex->result->nrows, 1);

		ex->values[i] = palloc(sizeof(Datum) * n);
		ex->nulls[i] = palloc(sizeof(bool) * n);
		pmfdw_convert_column(&ex->conv[i], &ex->result->cols[ex->out_col[i]],
							 ex->result->nrows, ex->values[i], ex->nulls[i]);
	}
	MemoryContextSwitchTo(old);
}

bool
pmfdw_topn_exec_next(PmfdwTopnExec *ex, TupleTableSlot *slot)
{
	int64		r;

	if (!ex->started)
	{
		ex->started = true;
		run_topn(ex);
		ex->next = 0;
	}
	if (ex->next >= ex->result->nrows)
		return false;
	r = ex->next++;
	for (int i = 0; i < ex->nout; i++)
	{
		slot->tts_values[i] = ex->values[i][r];
		slot->tts_isnull[i] = ex->nulls[i][r];
	}
	return true;
}

const char *
pmfdw_topn_exec_late_text(PmfdwTopnExec *ex)
{
	int64		plain;

	if (ex->late_rows == 0)
		return NULL;
	/* rows read without the row keep: every column decoded */
	plain = Max(ex->rows_offered - ex->late_kept, 0);
	return psprintf("first sort key decoded for " INT64_FORMAT " rows, other columns for "
					INT64_FORMAT, ex->late_rows + plain, ex->rows_offered);
}

void
pmfdw_topn_exec_rescan(PmfdwTopnExec *ex)
{
	ex->started = false;
}
