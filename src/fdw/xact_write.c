/*-------------------------------------------------------------------------
 * xact_write.c
 *	  One Paimon writer per table per transaction, committed when the
 *	  Postgres transaction commits.
 *
 * The first INSERT, COPY, UPDATE or DELETE on a Paimon table (append or
 * primary-key) in a transaction opens a pm_table_writer on it (foreign
 * tables naming the same Paimon table share it); every statement hands it
 * its rows with their row kinds. At XACT_EVENT_PRE_COMMIT each
 * writer publishes one snapshot (pm_table_writer_commit); an error there
 * aborts the transaction. Paimon has no transaction across tables: a
 * transaction writing two Paimon tables commits them one after the other,
 * and when the second fails the first stays committed.
 *
 * At XACT_EVENT_ABORT (ROLLBACK, an ERROR, a failed commit) every writer
 * still open is aborted: the core removes the files it wrote, and the
 * writer's FileIO removes whatever else it created (pmfdw_fileio_*). No
 * snapshot is published. A backend killed meanwhile leaves its data files
 * as orphans that no snapshot references.
 *
 * Rows handed to a writer cannot be taken back: when a subtransaction
 * that handed rows to a writer rolls back (ROLLBACK TO SAVEPOINT, an
 * exception caught by PL/pgSQL), the transaction can no longer commit
 * them; further writes and the commit fail with SQLSTATE 0A000, and only
 * ROLLBACK remains. PREPARE TRANSACTION is refused when the transaction
 * wrote Paimon rows.
 *
 * A transaction does not see its own writes: they become a snapshot only
 * at commit. After the commit the read side's snapshot pins are dropped
 * (snapshot_pin.c), so the next statement reads the new snapshot.
 *
 * Writers and their files live in a memory context under
 * TopTransactionContext, with a FileIO over VFDs: everything is gone by
 * the end of the transaction, whatever happens.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "access/xact.h"
#include "utils/memutils.h"

#include "common/uuid.h"
#include "table/external_path.h"
#include "table/table_write.h"

/* Batch-mode commits in Java use this identifier (BatchWriteBuilder.COMMIT_IDENTIFIER). */
#define BATCH_COMMIT_IDENTIFIER INT64_MAX

struct PmfdwXactWriter
{
	char	   *table_path;
	char	   *name;			/* "database.table", for messages */
	MemoryContext cxt;
	pm_env	   *env;
	pm_fileio  *io;
	pm_table_writer *writer;
	int64		rows;			/* handed to the writer */
	SubTransactionId last_write_subid;	/* subtransaction of the last write */
	bool		doomed;			/* rows were rolled back to a savepoint */
};

static MemoryContext writers_cxt = NULL;	/* under TopTransactionContext */
static List *writers = NIL;		/* of PmfdwXactWriter, in writers_cxt */
static bool callbacks_registered = false;

static void xact_callback(XactEvent event, void *arg);
static void subxact_callback(SubXactEvent event, SubTransactionId mySubid,
							 SubTransactionId parentSubid, void *arg);

static void
doomed_error(PmfdwXactWriter *w)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("rows written to Paimon table \"%s\" in this transaction were rolled back to a savepoint",
					w->name),
			 errdetail("Rows handed to a Paimon writer cannot be taken back."),
			 errhint("Roll back the whole transaction.")));
}

PmfdwXactWriter *
pmfdw_xact_writer(const PaimonFdwTableOptions *opts)
{
	ListCell   *lc;
	PmfdwXactWriter *w;
	MemoryContext old;
	pm_arena   *arena;
	pm_schema  *schema;
	pm_error	err;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	const char *prefix;
	char	   *commit_user;

	foreach(lc, writers)
	{
		w = lfirst(lc);
		if (strcmp(w->table_path, opts->table_path) == 0)
		{
			if (w->doomed)
				doomed_error(w);
			return w;
		}
	}
	if (!callbacks_registered)
	{
		RegisterXactCallback(xact_callback, NULL);
		RegisterSubXactCallback(subxact_callback, NULL);
		callbacks_registered = true;
	}
	if (writers_cxt == NULL)
		writers_cxt = AllocSetContextCreate(TopTransactionContext, "paimon_fdw writers",
											ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(writers_cxt);
	w = palloc0(sizeof(PmfdwXactWriter));
	w->table_path = pstrdup(opts->table_path);
	w->name = psprintf("%s.%s", opts->database, opts->table);
	w->cxt = AllocSetContextCreate(writers_cxt, "paimon_fdw writer", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(w->cxt);
	w->env = pmfdw_env_create(w->cxt);
	w->io = pmfdw_fileio_create(w->cxt);
	MemoryContextSwitchTo(old);

	if (!w->io->is_dir(w->io, w->table_path))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("Paimon table \"%s\" does not exist", w->name),
				 errdetail("Directory \"%s\" was not found.", w->table_path)));

	arena = pm_arena_create(w->env);
	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	pm_error_clear(&err);
	if (pm_schema_load_latest(w->io, w->table_path, arena, &schema, &err) != PM_OK)
		pmfdw_error(&err);

	pmfdw_refuse_mapped_external_write(schema, opts->external_path_map, w->name);

	/* the commit user as Java's CoreOptions.createCommitUser makes it */
	if (pm_uuid_random(uuid, &err) != PM_OK)
		pmfdw_error(&err);
	prefix = pm_schema_option(schema, "commit.user-prefix");
	commit_user = prefix ? psprintf("%s_%s", prefix, uuid) : pstrdup(uuid);
	pm_arena_destroy(arena);

	if (pm_table_writer_open(w->env, w->io, w->table_path, commit_user, &w->writer, &err) != PM_OK)
		pmfdw_error(&err);

	old = MemoryContextSwitchTo(writers_cxt);
	writers = lappend(writers, w);
	MemoryContextSwitchTo(old);
	return w;
}

void
pmfdw_refuse_mapped_external_write(const pm_schema *schema, const char *path_map,
								   const char *name)
{
	if (path_map != NULL && path_map[0] != '\0' &&
		pm_external_paths_active(pm_schema_option(schema, "data-file.external-paths"),
								 pm_schema_option(schema, "data-file.external-paths.strategy")))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot write Paimon table \"%s\": table option data-file.external-paths is not written through a server with external_path_map", name),
				 errdetail("New files go to the recorded roots, which the server reads remapped.")));
}

const pm_type *
pmfdw_xact_writer_row_type(PmfdwXactWriter *w)
{
	return pm_table_writer_schema(w->writer)->row_type;
}

const pm_schema *
pmfdw_xact_writer_schema(PmfdwXactWriter *w)
{
	return pm_table_writer_schema(w->writer);
}

const char *
pmfdw_xact_writer_rowkind_field(PmfdwXactWriter *w)
{
	return pm_table_writer_rowkind_field(w->writer);
}

void
pmfdw_xact_writer_check_accepts(PmfdwXactWriter *w, uint8 kind, const char *what)
{
	pm_error	err;

	pm_error_clear(&err);
	if (pm_table_writer_accepts(w->writer, (pm_row_kind) kind, &err) != PM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot %s Paimon table \"%s\": %s", what, w->name, err.message),
				 err.detail[0] ? errdetail("%s", err.detail) : 0));
}

void
pmfdw_xact_writer_write(PmfdwXactWriter *w, const pm_batch *batch, const uint8 *kinds)
{
	pm_error	err;

	if (w->doomed)
		doomed_error(w);
	if (batch->nrows == 0)
		return;
	w->last_write_subid = Max(w->last_write_subid, GetCurrentSubTransactionId());
	pm_error_clear(&err);
	if (pm_table_writer_write(w->writer, batch, kinds, &err) != PM_OK)
		pmfdw_error(&err);
	w->rows += batch->nrows;
}

/*
 * What the commit compacted: a DEBUG1 line (the cost of compacting at
 * commit), or a WARNING when the COMPACT snapshot could not be committed
 * (the rows are committed; the compaction is dropped).
 */
static void
report_compaction(PmfdwXactWriter *w, const pm_writer_compaction *c)
{
	if (c->failed)
		ereport(WARNING,
				(errmsg("paimon_fdw: the compaction of Paimon table \"%s\" at commit was not committed",
						w->name),
				 errdetail("%s", c->message),
				 errhint("The rows are committed. paimon_compact() compacts the table.")));
	else if (c->snapshot_id != 0)
		elog(DEBUG1, "paimon_fdw: compacted %d bucket(s) of %s at commit: %d files into %d, "
			 INT64_FORMAT " rows, snapshot " INT64_FORMAT,
			 c->buckets, w->name, c->files_in, c->files_out, c->rows, c->snapshot_id);
}

/*
 * The auto tags the commit made (tag.automatic-creation = process-time): a
 * DEBUG1 line, or a WARNING when they could not be made (the rows are
 * committed; the next commit makes the tags missed, as Java's next one).
 */
static void
report_tags(PmfdwXactWriter *w, const pm_writer_tags *t)
{
	if (t->failed)
		ereport(WARNING,
				(errmsg("paimon_fdw: the automatic tags of Paimon table \"%s\" were not created or expired",
						w->name),
				 errdetail("%s", t->message),
				 errhint("The rows are committed. The next commit to the table creates and expires the tags missed.")));
	else if (t->made.created > 0 || t->made.deleted > 0 || t->made.expired > 0)
		elog(DEBUG1, "paimon_fdw: %d automatic tag(s) of %s created (the last %s), %d deleted, %d expired by time",
			 t->made.created, w->name, t->made.last_created, t->made.deleted, t->made.expired);
}

/* Commit every writer: one snapshot per table (two when it compacts). ERROR aborts the transaction. */
static void
commit_writers(void)
{
	while (writers != NIL)
	{
		PmfdwXactWriter *w = linitial(writers);
		int64		snapshot_id = 0;
		pm_error	err;

		if (w->doomed)
			doomed_error(w);
		pm_error_clear(&err);
		/* the setting at commit decides (Java's writer compacts in prepareCommit) */
		pm_table_writer_set_compaction(w->writer, pmfdw_compact_at_commit);
		if (pm_table_writer_commit(w->writer, BATCH_COMMIT_IDENTIFIER, &snapshot_id, &err) != PM_OK)
			pmfdw_error(&err);
		report_compaction(w, pm_table_writer_compaction(w->writer));
		report_tags(w, pm_table_writer_tags(w->writer));
		/* committed: its files belong to the snapshot now */
		pmfdw_fileio_forget_created(w->io);
		pm_table_writer_close(w->writer);
		w->writer = NULL;
		writers = list_delete_first(writers);
		elog(DEBUG1, "paimon_fdw: committed " INT64_FORMAT " rows to %s as snapshot " INT64_FORMAT,
			 w->rows, w->name, snapshot_id);
	}
}

/* Abort every writer left: remove what they wrote. Never raises. */
static void
abort_writers(void)
{
	ListCell   *lc;

	foreach(lc, writers)
	{
		PmfdwXactWriter *w = lfirst(lc);

		if (w->writer != NULL)
			pm_table_writer_abort(w->writer);
		w->writer = NULL;
		(void) pmfdw_fileio_remove_created(w->io);
	}
	writers = NIL;
}

static void
xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
			commit_writers();
			break;
		case XACT_EVENT_PRE_PREPARE:
			if (writers != NIL)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot prepare a transaction that wrote to Paimon table \"%s\"",
								((PmfdwXactWriter *) linitial(writers))->name)));
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
			abort_writers();
			writers_cxt = NULL;	/* goes with TopTransactionContext */
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PREPARE:
			writers = NIL;
			writers_cxt = NULL;
			break;
		default:
			break;
	}
}

/*
 * A subtransaction that handed rows to a writer rolls back: those rows
 * cannot be taken back, so the transaction must not commit. Subtransaction
 * ids grow; every subtransaction begun while mySubid was open is inside it.
 */
static void
subxact_callback(SubXactEvent event, SubTransactionId mySubid,
				 SubTransactionId parentSubid, void *arg)
{
	ListCell   *lc;

	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	foreach(lc, writers)
	{
		PmfdwXactWriter *w = lfirst(lc);

		if (w->last_write_subid >= mySubid)
			w->doomed = true;
	}
}

bool
pmfdw_xact_writer_deletes_by_position(PmfdwXactWriter *w)
{
	return pm_table_writer_deletes_by_position(w->writer);
}

bool
pmfdw_xact_writer_delete_position(PmfdwXactWriter *w, const pm_append_dv_file *file, int64 pos,
								  int64 base_snapshot)
{
	pm_error	err;
	bool		again;

	if (w->doomed)
		doomed_error(w);
	w->last_write_subid = Max(w->last_write_subid, GetCurrentSubTransactionId());
	pm_error_clear(&err);
	if (pm_table_writer_delete_position(w->writer, file, pos, base_snapshot, &again,
										&err) != PM_OK)
		pmfdw_error(&err);
	w->rows++;
	return !again;
}
