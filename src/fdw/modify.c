/*-------------------------------------------------------------------------
 * modify.c
 *	  INSERT, COPY FROM, UPDATE and DELETE on Paimon foreign tables.
 *
 * Each statement converts its rows into column batches (row_batch.c) of
 * paimon_fdw.write_batch_size rows, each row with its Paimon row kind, and
 * hands every full batch, and the last one at the end of the statement, to
 * the transaction's writer for that Paimon table (xact_write.c), which
 * commits at transaction commit. Rows come one by one (ExecForeignInsert):
 * there is no ExecForeignBatchInsert, since Postgres' own batching would
 * copy every row and its plan row into slots of its own (pinning the
 * source's buffers) before handing them over. UPDATE and DELETE fill the
 * same batches.
 *
 * INSERT and COPY write +I rows: on a primary-key table that is an upsert
 * (the merge engine decides what a second row of a key means).
 * A primary-key table with rowkind.field takes each row's kind from that
 * column instead ('+I', '-U', '+U', '-D': the core's RowKindGenerator), so
 * INSERT and COPY can also retract and delete; UPDATE and DELETE are
 * refused there (0A000), since Java would write the old row with the kind
 * its column holds.
 *
 * UPDATE and DELETE (primary-key tables: the key identifies the row) read
 * the old row through the scan, as a whole-row junk column ("wholerow",
 * which the planner adds for UPDATE and AddForeignUpdateTargets for
 * DELETE), and write:
 *	 - DELETE: -D with the old row's values;
 *	 - UPDATE: +U with the new row, preceded by -U with the old row where
 *	   the merge engine needs the retraction (aggregation), as Java's Flink
 *	   sink writes them; an UPDATE that changes a primary-key or partition
 *	   column writes -D for the old row and +I for the new one.
 * The writer is asked (pm_table_writer_accepts) when the statement starts,
 * before any row is read, whether the table takes these kinds: append
 * tables without deletion vectors, first-row tables, partial-update tables
 * without remove-record-on-delete, ... are refused with 0A000 and the
 * core's reason. UPDATE and DELETE need every field of the Paimon table as
 * a column of the foreign table (the records carry whole rows).
 *
 * Append tables with deletion vectors (pm_table_writer_deletes_by_position)
 * identify the old row by position instead: a junk "ctid" (added for every
 * UPDATE and DELETE; primary-key tables ignore it) that the target table's
 * scan fills with the row's data file and position (pmfdw_scan_row_file);
 * DELETE marks the position deleted, UPDATE too and appends the new row
 * (+I). DELETE only needs the ctid (and the whole row for RETURNING).
 *
 * Writes to a foreign table that reads a fixed snapshot (snapshot_id, tag
 * or timestamp) and INSERT ... ON CONFLICT are refused (0A000). Writing
 * needs superuser or pg_write_server_files (42501), checked when the
 * statement starts.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/appendinfo.h"
#include "optimizer/planmain.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "table/table_write.h"

typedef struct PaimonFdwModifyState
{
	MemoryContext cxt;			/* the row batch */
	PmfdwXactWriter *writer;
	PmfdwRowBatch *batch;
	CmdType		operation;		/* CMD_INSERT for INSERT and COPY */
	/* UPDATE and DELETE */
	AttrNumber	wholerow_attno; /* junk column of the subplan with the old row */
	TupleTableSlot *old_slot;	/* the old row, as a row of the foreign table */
	HeapTupleData old_tuple;	/* old_slot's tuple (the slot points to it) */
	MemoryContext row_cxt;		/* the old row, reset per row */
	bool		retract;		/* UPDATE writes -U before +U */
	int			nkeys;			/* primary-key and partition columns */
	AttrNumber *keys;
	/* append tables with deletion vectors: the old row by its position */
	bool		by_position;
	AttrNumber	ctid_attno;		/* junk ctid of the subplan: file and position */
	ForeignScanState *scan;		/* the scan that gave the ctids */
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
	/* which tables take UPDATE and DELETE is the writer's call, at BeginForeignModify */
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

	if (plan->onConflictAction != ONCONFLICT_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("INSERT with ON CONFLICT into Paimon tables is not supported")));
	pmfdw_get_table_options(rte->relid, &opts);
	check_writable_options(&opts, get_rel_name(rte->relid));
	return NIL;
}

/*
 * UPDATE gets a whole-row junk column from the planner (for the unchanged
 * columns); DELETE needs one too, since its -D record carries the row.
 * The Var is the one the planner makes, so both uses share it.
 */
void
paimonAddForeignUpdateTargets(PlannerInfo *root, Index rtindex, RangeTblEntry *target_rte,
							  Relation target_relation)
{
	/* append tables with deletion vectors: the row's data file and position */
	add_row_identity_var(root,
						 makeVar(rtindex, SelfItemPointerAttributeNumber, TIDOID, -1,
								 InvalidOid, 0),
						 rtindex, "ctid");
	if (root->parse->commandType == CMD_DELETE)
		add_row_identity_var(root,
							 makeVar(rtindex, InvalidAttrNumber, RECORDOID, -1, InvalidOid, 0),
							 rtindex, "wholerow");
}

/* The state of one INSERT, COPY, UPDATE or DELETE on one foreign table. */
static PaimonFdwModifyState *
begin_modify(ResultRelInfo *rinfo, EState *estate, CmdType operation)
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
	ms->operation = operation;
	ms->writer = pmfdw_xact_writer(&opts);
	ms->cxt = AllocSetContextCreate(estate->es_query_cxt, "paimon_fdw modify",
									ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(ms->cxt);
	env = pmfdw_env_create(ms->cxt);
	ms->batch = pmfdw_row_batch_create(env, pmfdw_xact_writer_row_type(ms->writer), rel,
									   pmfdw_write_batch_size);
	MemoryContextSwitchTo(old);
	rinfo->ri_FdwState = ms;
	return ms;
}

static bool
is_updated(Bitmapset *updated, AttrNumber attnum)
{
	return bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, updated);
}

typedef struct FindScan
{
	Index		rti;
	ForeignScanState *found;
} FindScan;

static bool
find_scan(PlanState *ps, void *arg)
{
	FindScan   *fs = arg;

	if (ps == NULL)
		return false;
	if (pmfdw_is_scan(ps) && ((Scan *) ps->plan)->scanrelid == fs->rti)
	{
		fs->found = (ForeignScanState *) ps;
		return true;
	}
	return planstate_tree_walker(ps, find_scan, arg);
}

/*
 * UPDATE and DELETE of an append table with deletion vectors: the old row
 * is named by the ctid its scan gave it (data file and position, see
 * pmfdw_scan_row_file), marked deleted in the file's deletion vector at
 * commit; UPDATE appends the new row (Spark's DELETE and UPDATE on such
 * tables do the same).
 */
static void
begin_by_position(PaimonFdwModifyState *ms, ModifyTableState *mtstate, ResultRelInfo *rinfo)
{
	EState	   *estate = mtstate->ps.state;
	Relation	rel = rinfo->ri_RelationDesc;
	Plan	   *subplan = outerPlanState(mtstate)->plan;
	const pm_type *row_type = pmfdw_xact_writer_schema(ms->writer)->row_type;
	FindScan	fs = {rinfo->ri_RangeTableIndex, NULL};

	ms->by_position = true;
	/* UPDATE writes the whole new row */
	for (int f = 0; ms->operation == CMD_UPDATE && f < row_type->nfields; f++)
		if (pmfdw_row_batch_column(ms->batch, row_type->fields[f].name) == InvalidAttrNumber)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot UPDATE foreign table \"%s\": it has no column for field \"%s\" of the Paimon table",
							RelationGetRelationName(rel), row_type->fields[f].name),
					 errdetail("UPDATE writes whole rows; a foreign table with a subset of the columns can only INSERT and DELETE.")));
	ms->ctid_attno = ExecFindJunkAttributeInTlist(subplan->targetlist, "ctid");
	if (!AttributeNumberIsValid(ms->ctid_attno))
		elog(ERROR, "could not find junk ctid column");
	(void) find_scan(outerPlanState(mtstate), &fs);
	if (fs.found == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot %s Paimon table \"%s\" with this plan: its rows do not come from a scan of the table",
						ms->operation == CMD_UPDATE ? "UPDATE" : "DELETE",
						RelationGetRelationName(rel))));
	ms->scan = fs.found;
	/* DELETE ... RETURNING: the old row */
	ms->wholerow_attno = ExecFindJunkAttributeInTlist(subplan->targetlist, "wholerow");
	ms->old_slot = ExecInitExtraTupleSlot(estate, RelationGetDescr(rel), &TTSOpsHeapTuple);
	ms->row_cxt = AllocSetContextCreate(ms->cxt, "paimon_fdw old row", ALLOCSET_SMALL_SIZES);
}

/*
 * Mark the old row of an UPDATE or DELETE by position deleted. An UPDATE
 * of a row an earlier statement of the transaction updated or deleted is
 * refused: that statement's changes are not visible before the commit,
 * and a second new row would be appended.
 */
static void
delete_by_position(PaimonFdwModifyState *ms, ResultRelInfo *rinfo, TupleTableSlot *planSlot)
{
	bool		isnull;
	Datum		d = ExecGetJunkAttribute(planSlot, ms->ctid_attno, &isnull);
	const PmfdwRowFile *rf;
	int64		pos;

	if (isnull)
		elog(ERROR, "ctid is NULL");
	rf = pmfdw_scan_row_file(ms->scan, (ItemPointer) DatumGetPointer(d), &pos);
	if (!pmfdw_xact_writer_delete_position(ms->writer, rf->file, pos, rf->snapshot_id) &&
		ms->operation == CMD_UPDATE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot UPDATE a row of Paimon table \"%s\" that this transaction already updated or deleted",
						RelationGetRelationName(rinfo->ri_RelationDesc)),
				 errdetail("Changes to append tables become visible when the transaction commits; the row would be written twice.")));
}

/*
 * UPDATE and DELETE: check the table takes the row kinds they write (before
 * any row is read), find the old row's junk column and the key columns.
 */
static void
begin_update_delete(PaimonFdwModifyState *ms, ModifyTableState *mtstate, ResultRelInfo *rinfo)
{
	EState	   *estate = mtstate->ps.state;
	Relation	rel = rinfo->ri_RelationDesc;
	const char *what = ms->operation == CMD_UPDATE ? "UPDATE" : "DELETE";
	const pm_schema *schema = pmfdw_xact_writer_schema(ms->writer);
	const pm_type *row_type = schema->row_type;
	const char *engine = pm_schema_option(schema, "merge-engine");
	Plan	   *subplan = outerPlanState(mtstate)->plan;

	if (pmfdw_xact_writer_deletes_by_position(ms->writer))
	{
		begin_by_position(ms, mtstate, rinfo);
		return;
	}
	if (pmfdw_xact_writer_rowkind_field(ms->writer) != NULL)
	{
		const char *field = pmfdw_xact_writer_rowkind_field(ms->writer);

		/*
		 * Java's writer takes every row's kind from the column, whatever
		 * kind the statement means (a DELETE's old row '+I' would be
		 * written again): refused rather than written as Java would
		 */
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot %s Paimon table \"%s\": its rows' kinds come from column \"%s\" (rowkind.field)",
						what, RelationGetRelationName(rel), field),
				 errhint("Insert a row with %s = '-D' to delete a key, or a new row ('+I' or '+U') to update it.",
						 field)));
	}
	if (ms->operation == CMD_DELETE)
		pmfdw_xact_writer_check_accepts(ms->writer, PM_ROW_DELETE, what);
	else
	{
		Bitmapset  *updated = ExecGetUpdatedCols(rinfo, estate);

		pmfdw_xact_writer_check_accepts(ms->writer, PM_ROW_UPDATE_AFTER, what);
		if (engine != NULL && strcmp(engine, "first-row") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot UPDATE Paimon table \"%s\": the first-row merge engine keeps the first row of each key",
							RelationGetRelationName(rel)),
					 errdetail("An update record would be ignored.")));
		if (engine != NULL && strcmp(engine, "aggregation") == 0)
		{
			/* the old values must be retracted from the aggregates */
			pmfdw_xact_writer_check_accepts(ms->writer, PM_ROW_UPDATE_BEFORE, what);
			ms->retract = true;
		}
		for (int i = 0; i < schema->nprimary_keys + schema->npartition_keys; i++)
		{
			const char *name = i < schema->nprimary_keys ? schema->primary_keys[i]
				: schema->partition_keys[i - schema->nprimary_keys];

			if (is_updated(updated, pmfdw_row_batch_column(ms->batch, name)))
			{
				/* a changed key: -D of the old row, +I of the new one */
				pmfdw_xact_writer_check_accepts(ms->writer, PM_ROW_DELETE, what);
				break;
			}
		}
	}

	/* the records carry whole rows: every field needs its column */
	for (int f = 0; f < row_type->nfields; f++)
		if (pmfdw_row_batch_column(ms->batch, row_type->fields[f].name) == InvalidAttrNumber)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot %s foreign table \"%s\": it has no column for field \"%s\" of the Paimon table",
							what, RelationGetRelationName(rel), row_type->fields[f].name),
					 errdetail("UPDATE and DELETE write whole rows; a foreign table with a subset of the columns can only INSERT.")));

	ms->nkeys = 0;
	ms->keys = MemoryContextAlloc(ms->cxt, sizeof(AttrNumber) *
								  (schema->nprimary_keys + schema->npartition_keys + 1));
	for (int i = 0; i < schema->nprimary_keys + schema->npartition_keys; i++)
	{
		const char *name = i < schema->nprimary_keys ? schema->primary_keys[i]
			: schema->partition_keys[i - schema->nprimary_keys];

		ms->keys[ms->nkeys++] = pmfdw_row_batch_column(ms->batch, name);
	}

	ms->wholerow_attno = ExecFindJunkAttributeInTlist(subplan->targetlist, "wholerow");
	if (!AttributeNumberIsValid(ms->wholerow_attno))
		elog(ERROR, "could not find junk wholerow column");
	ms->old_slot = ExecInitExtraTupleSlot(estate, RelationGetDescr(rel), &TTSOpsHeapTuple);
	ms->row_cxt = AllocSetContextCreate(ms->cxt, "paimon_fdw old row", ALLOCSET_SMALL_SIZES);
}

void
paimonBeginForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo, List *fdw_private,
				   int subplan_index, int eflags)
{
	PaimonFdwModifyState *ms;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	ms = begin_modify(rinfo, mtstate->ps.state, mtstate->operation);
	if (ms->operation == CMD_UPDATE || ms->operation == CMD_DELETE)
		begin_update_delete(ms, mtstate, rinfo);
}

void
paimonBeginForeignInsert(ModifyTableState *mtstate, ResultRelInfo *rinfo)
{
	/* COPY FROM, or a partition rows are routed to: no PlanForeignModify ran */
	begin_modify(rinfo, mtstate->ps.state, CMD_INSERT);
}

static void
flush(PaimonFdwModifyState *ms)
{
	if (pmfdw_row_batch_rows(ms->batch) == 0)
		return;
	pmfdw_xact_writer_write(ms->writer, pmfdw_row_batch_get(ms->batch),
							pmfdw_row_batch_kinds(ms->batch));
	pmfdw_row_batch_reset(ms->batch);
}

static void
add_row(PaimonFdwModifyState *ms, TupleTableSlot *slot, pm_row_kind kind)
{
	MemoryContext old = MemoryContextSwitchTo(ms->cxt);

	pmfdw_row_batch_add(ms->batch, slot, (uint8) kind);
	if (pmfdw_row_batch_full(ms->batch))
		flush(ms);
	MemoryContextSwitchTo(old);
}

TupleTableSlot *
paimonExecForeignInsert(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
				  TupleTableSlot *planSlot)
{
	add_row(rinfo->ri_FdwState, slot, PM_ROW_INSERT);
	return slot;
}

/* The old row of an UPDATE or DELETE, from the whole-row junk column. */
static TupleTableSlot *
old_row(PaimonFdwModifyState *ms, ResultRelInfo *rinfo, TupleTableSlot *planSlot)
{
	HeapTuple	tuple = &ms->old_tuple;
	HeapTupleHeader td;
	MemoryContext old;
	Datum		d;
	bool		isnull;

	ExecClearTuple(ms->old_slot);
	MemoryContextReset(ms->row_cxt);
	d = ExecGetJunkAttribute(planSlot, ms->wholerow_attno, &isnull);
	if (isnull)
		elog(ERROR, "wholerow is NULL");
	old = MemoryContextSwitchTo(ms->row_cxt);
	td = DatumGetHeapTupleHeader(d);
	MemoryContextSwitchTo(old);
	tuple->t_len = HeapTupleHeaderGetDatumLength(td);
	ItemPointerSetInvalid(&tuple->t_self);
	tuple->t_tableOid = RelationGetRelid(rinfo->ri_RelationDesc);
	tuple->t_data = td;
	ExecForceStoreHeapTuple(tuple, ms->old_slot, false);
	return ms->old_slot;
}

/* Whether a primary-key or partition column differs between the rows. */
static bool
key_changed(PaimonFdwModifyState *ms, TupleTableSlot *a, TupleTableSlot *b)
{
	TupleDesc	desc = a->tts_tupleDescriptor;

	for (int i = 0; i < ms->nkeys; i++)
	{
		AttrNumber	attnum = ms->keys[i];
		Form_pg_attribute att = TupleDescAttr(desc, attnum - 1);
		bool		null_a,
					null_b;
		Datum		va = slot_getattr(a, attnum, &null_a);
		Datum		vb = slot_getattr(b, attnum, &null_b);

		if (null_a != null_b)
			return true;
		if (!null_a && !datum_image_eq(va, vb, att->attbyval, att->attlen))
			return true;
	}
	return false;
}

TupleTableSlot *
paimonExecForeignUpdate(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
						TupleTableSlot *planSlot)
{
	PaimonFdwModifyState *ms = rinfo->ri_FdwState;
	TupleTableSlot *old;

	if (ms->by_position)
	{
		delete_by_position(ms, rinfo, planSlot);
		add_row(ms, slot, PM_ROW_INSERT);
		return slot;
	}
	old = old_row(ms, rinfo, planSlot);
	if (key_changed(ms, old, slot))
	{
		add_row(ms, old, PM_ROW_DELETE);
		add_row(ms, slot, PM_ROW_INSERT);
	}
	else
	{
		if (ms->retract)
			add_row(ms, old, PM_ROW_UPDATE_BEFORE);
		add_row(ms, slot, PM_ROW_UPDATE_AFTER);
	}
	return slot;
}

TupleTableSlot *
paimonExecForeignDelete(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
						TupleTableSlot *planSlot)
{
	PaimonFdwModifyState *ms = rinfo->ri_FdwState;
	TupleTableSlot *old;

	if (ms->by_position)
	{
		delete_by_position(ms, rinfo, planSlot);
		if (rinfo->ri_projectReturning != NULL && AttributeNumberIsValid(ms->wholerow_attno))
			ExecCopySlot(slot, old_row(ms, rinfo, planSlot));
		return slot;
	}
	old = old_row(ms, rinfo, planSlot);
	add_row(ms, old, PM_ROW_DELETE);
	if (rinfo->ri_projectReturning != NULL)
		ExecCopySlot(slot, old);
	return slot;
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
