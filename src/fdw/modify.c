/*-------------------------------------------------------------------------
 * modify.c
 *	  INSERT and COPY FROM into Paimon foreign tables.
 *
 * Each INSERT (or COPY, or a row routed to a foreign partition) converts
 * its rows into column batches (row_batch.c) of paimon_fdw.write_batch_size
 * rows and hands every full batch, and the last one at the end of the
 * statement, to the transaction's writer for that Paimon table
 * (xact_write.c), which commits at transaction commit. Postgres' own
 * batching (ExecForeignBatchInsert) uses the same size when no RETURNING,
 * trigger or check option asks for rows one by one.
 *
 * UPDATE and DELETE are refused (0A000) for now, and so are writes to a
 * foreign table that reads a fixed snapshot (snapshot_id, tag or
 * timestamp) and writes to primary-key tables. Writing needs superuser or
 * pg_write_server_files (42501), checked when the statement starts.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "catalog/pg_authid.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "optimizer/planmain.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

typedef struct PaimonFdwModifyState
{
	MemoryContext cxt;			/* the row batch */
	PmfdwXactWriter *writer;
	PmfdwRowBatch *batch;
} PaimonFdwModifyState;

void
pmfdw_check_write_privilege(void)
{
	if (!superuser() && !has_privs_of_role(GetUserId(), ROLE_PG_WRITE_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to write Paimon tables"),
				 errdetail("Only superuser or a role with privileges of the pg_write_server_files role may write Paimon tables.")));
}

int
paimonIsForeignRelUpdatable(Relation rel)
{
	/* UPDATE and DELETE reach PlanForeignModify, which says they are not supported yet */
	return (1 << CMD_INSERT) | (1 << CMD_UPDATE) | (1 << CMD_DELETE);
}

static void
check_writable_options(const PaimonFdwTableOptions *opts, const char *relname)
{
	if (opts->snapshot_id != 0 || opts->tag != NULL || opts->timestamp_millis != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot write to foreign table \"%s\": it reads a fixed snapshot", relname),
				 errdetail("Foreign tables with the option snapshot_id, tag or timestamp are read-only.")));
}

List *
paimonPlanForeignModify(PlannerInfo *root, ModifyTable *plan, Index resultRelation, int subplan_index)
{
	RangeTblEntry *rte = planner_rt_fetch(resultRelation, root);
	PaimonFdwTableOptions opts;

	if (plan->operation == CMD_UPDATE || plan->operation == CMD_DELETE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s on Paimon tables is not supported yet",
						plan->operation == CMD_UPDATE ? "UPDATE" : "DELETE"),
				 errdetail("paimon_fdw writes with INSERT and COPY FROM into append tables.")));
	if (plan->onConflictAction != ONCONFLICT_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("INSERT with ON CONFLICT into Paimon tables is not supported")));
	pmfdw_get_table_options(rte->relid, &opts);
	check_writable_options(&opts, get_rel_name(rte->relid));
	return NIL;
}

/* The state of one INSERT/COPY into one foreign table. */
static void
begin_insert(ResultRelInfo *rinfo, EState *estate)
{
	Relation	rel = rinfo->ri_RelationDesc;
	PaimonFdwModifyState *ms;
	PaimonFdwTableOptions opts;
	MemoryContext old;
	pm_env	   *env;

	pmfdw_check_write_privilege();
	pmfdw_get_table_options(RelationGetRelid(rel), &opts);
	check_writable_options(&opts, RelationGetRelationName(rel));

	ms = palloc0(sizeof(PaimonFdwModifyState));
	ms->writer = pmfdw_xact_writer(&opts);
	ms->cxt = AllocSetContextCreate(estate->es_query_cxt, "paimon_fdw insert",
									ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(ms->cxt);
	env = pmfdw_env_create(ms->cxt);
	ms->batch = pmfdw_row_batch_create(env, pmfdw_xact_writer_row_type(ms->writer), rel,
									   pmfdw_write_batch_size);
	MemoryContextSwitchTo(old);
	rinfo->ri_FdwState = ms;
}

void
paimonBeginForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo, List *fdw_private,
				   int subplan_index, int eflags)
{
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	begin_insert(rinfo, mtstate->ps.state);
}

void
paimonBeginForeignInsert(ModifyTableState *mtstate, ResultRelInfo *rinfo)
{
	/* COPY FROM, or a partition rows are routed to: no PlanForeignModify ran */
	begin_insert(rinfo, mtstate->ps.state);
}

static void
flush(PaimonFdwModifyState *ms)
{
	if (pmfdw_row_batch_rows(ms->batch) == 0)
		return;
	pmfdw_xact_writer_write(ms->writer, pmfdw_row_batch_get(ms->batch));
	pmfdw_row_batch_reset(ms->batch);
}

static void
add_row(PaimonFdwModifyState *ms, TupleTableSlot *slot)
{
	MemoryContext old = MemoryContextSwitchTo(ms->cxt);

	pmfdw_row_batch_add(ms->batch, slot);
	if (pmfdw_row_batch_full(ms->batch))
		flush(ms);
	MemoryContextSwitchTo(old);
}

TupleTableSlot *
paimonExecForeignInsert(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
				  TupleTableSlot *planSlot)
{
	add_row(rinfo->ri_FdwState, slot);
	return slot;
}

TupleTableSlot **
paimonExecForeignBatchInsert(EState *estate, ResultRelInfo *rinfo, TupleTableSlot **slots,
						TupleTableSlot **planSlots, int *numSlots)
{
	PaimonFdwModifyState *ms = rinfo->ri_FdwState;

	for (int i = 0; i < *numSlots; i++)
		add_row(ms, slots[i]);
	return slots;
}

int
paimonGetForeignModifyBatchSize(ResultRelInfo *rinfo)
{
	/* rows one by one when RETURNING, row triggers or check options need them */
	if (rinfo->ri_projectReturning != NULL ||
		rinfo->ri_WithCheckOptions != NIL ||
		(rinfo->ri_TrigDesc != NULL &&
		 (rinfo->ri_TrigDesc->trig_insert_after_row ||
		  rinfo->ri_TrigDesc->trig_insert_before_row)))
		return 1;
	return pmfdw_write_batch_size;
}

void
paimonEndForeignModify(EState *estate, ResultRelInfo *rinfo)
{
	PaimonFdwModifyState *ms = rinfo->ri_FdwState;

	if (ms == NULL)
		return;
	flush(ms);
	MemoryContextDelete(ms->cxt);
	rinfo->ri_FdwState = NULL;
}
