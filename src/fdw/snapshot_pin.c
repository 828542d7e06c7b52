/*-------------------------------------------------------------------------
 * snapshot_pin.c
 *	  One state of each Paimon table per statement, or per transaction.
 *
 * A foreign table without time travel options reads the latest snapshot.
 * So that every scan of one statement reads the same snapshot of a table
 * (a self-join, a subquery over the same table, the planner and the
 * executor), the first open of a table path remembers the version it
 * found (pm_table_version: snapshot and schema) and later opens read that
 * version while the memory lasts:
 *	 - REPEATABLE READ and SERIALIZABLE: until the transaction ends, as
 *	   Postgres keeps one snapshot for the whole transaction;
 *	 - READ COMMITTED: until the next statement from the client starts
 *	   (its statement_timestamp() differs), and at most until the
 *	   transaction ends.
 * Tables are pinned one by one, at their first scan: Paimon has no
 * snapshot across tables. Parallel workers do not look here: the leader
 * hands them its version through the DSM (paimon_fdw.c).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "utils/memutils.h"

typedef struct PinnedTable
{
	char	   *table_path;
	pm_table_version version;
} PinnedTable;

static MemoryContext pin_cxt = NULL;	/* holds pins; reset to forget them */
static List *pins = NIL;		/* of PinnedTable, in pin_cxt */
static TimestampTz pins_statement;	/* statement start the pins belong to */
static bool callback_registered = false;

static void
forget_pins(void)
{
	pins = NIL;
	if (pin_cxt != NULL)
		MemoryContextReset(pin_cxt);
}

static void
pin_xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			forget_pins();
			break;
		default:
			break;
	}
}

/* Forget the pins of an earlier statement when each statement reads anew. */
static void
expire_statement_pins(void)
{
	TimestampTz now = GetCurrentStatementStartTimestamp();

	if (!IsolationUsesXactSnapshot() && pins_statement != now)
		forget_pins();
	pins_statement = now;
}

const pm_table_version *
pmfdw_pinned_version(const char *table_path)
{
	ListCell   *lc;

	if (IsParallelWorker())
		return NULL;
	expire_statement_pins();
	foreach(lc, pins)
	{
		PinnedTable *p = lfirst(lc);

		if (strcmp(p->table_path, table_path) == 0)
			return &p->version;
	}
	return NULL;
}

void
pmfdw_pin_version(const char *table_path, pm_table_version version)
{
	MemoryContext old;
	PinnedTable *p;

	if (IsParallelWorker())
		return;
	if (!callback_registered)
	{
		RegisterXactCallback(pin_xact_callback, NULL);
		callback_registered = true;
	}
	if (pin_cxt == NULL)
		pin_cxt = AllocSetContextCreate(TopMemoryContext, "paimon_fdw snapshot pins",
										ALLOCSET_SMALL_SIZES);
	expire_statement_pins();
	old = MemoryContextSwitchTo(pin_cxt);
	p = palloc(sizeof(PinnedTable));
	p->table_path = pstrdup(table_path);
	p->version = version;
	pins = lappend(pins, p);
	MemoryContextSwitchTo(old);
}
