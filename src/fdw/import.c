/*-------------------------------------------------------------------------
 * import.c
 *	  IMPORT FOREIGN SCHEMA: one foreign table per Paimon table of a database.
 *
 * The remote schema name is the Paimon database (<warehouse>/<db>.db/).
 * Columns come from the latest schema, or with OPTIONS (snapshot_id 'N')
 * from that snapshot's schema (and the tables read that snapshot). Types
 * follow typemap.c; NOT NULL fields become NOT NULL columns. LIMIT TO and
 * EXCEPT are honoured (the core filters them too, by Postgres' rules).
 * The remote schema, LIMIT TO / EXCEPT and tag names are checked like the
 * table options (pmfdw_check_name) before any of them becomes a path.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "nodes/parsenodes.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "common/arena.h"
#include "table/catalog.h"
#include "table/table.h"

List	   *paimonImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid);

/* CREATE FOREIGN TABLE for a Paimon schema (the columns IMPORT gives). */
char *
pmfdw_foreign_table_sql(const char *qualified_name, const pm_schema *schema,
						const char *servername, const char *database, const char *table,
						const char *extra_options)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "CREATE FOREIGN TABLE %s (\n", qualified_name);
	for (int f = 0; f < schema->row_type->nfields; f++)
	{
		const pm_field *field = &schema->row_type->fields[f];

		appendStringInfo(&buf, "%s  %s %s%s", f > 0 ? ",\n" : "",
						 quote_identifier(field->name), pmfdw_type_sql(field->type),
						 field->type->nullable ? "" : " NOT NULL");
	}
	appendStringInfo(&buf, "\n) SERVER %s OPTIONS (database %s, table %s%s)",
					 quote_identifier(servername), quote_literal_cstr(database),
					 quote_literal_cstr(table), extra_options ? extra_options : "");
	return buf.data;
}

static bool
table_wanted(ImportForeignSchemaStmt *stmt, const char *name)
{
	ListCell   *lc;

	if (stmt->list_type == FDW_IMPORT_SCHEMA_ALL)
		return true;
	foreach(lc, stmt->table_list)
	{
		RangeVar   *rv = (RangeVar *) lfirst(lc);

		if (strcmp(rv->relname, name) == 0)
			return stmt->list_type == FDW_IMPORT_SCHEMA_LIMIT_TO;
	}
	return stmt->list_type == FDW_IMPORT_SCHEMA_EXCEPT;
}

List *
paimonImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid)
{
	ForeignServer *server = GetForeignServer(serverOid);
	const char *warehouse = NULL;
	const char *path_map = NULL;
	int64		snapshot_id = 0;
	const char *tag = NULL;
	const char *timestamp = NULL;
	int			time_travel = 0;
	MemoryContext cxt;
	MemoryContext old;
	pm_env	   *env;
	pm_fileio  *io;
	pm_arena   *arena;
	pm_error	err;
	char	  **names;
	int			count;
	List	   *commands = NIL;
	ListCell   *lc;

	foreach(lc, server->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "warehouse") == 0)
			warehouse = defGetString(def);
		else if (strcmp(def->defname, "external_path_map") == 0)
			path_map = defGetString(def);
	}
	foreach(lc, stmt->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "snapshot_id") == 0)
		{
			snapshot_id = pmfdw_parse_snapshot_id(defGetString(def));
			time_travel++;
		}
		else if (strcmp(def->defname, "tag") == 0)
		{
			tag = defGetString(def);
			pmfdw_check_name("tag", tag);
			time_travel++;
		}
		else if (strcmp(def->defname, "timestamp") == 0)
		{
			timestamp = defGetString(def);
			(void) pmfdw_parse_timestamp_millis(timestamp);
			time_travel++;
		}
		else
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\"", def->defname),
					 errhint("IMPORT FOREIGN SCHEMA of paimon_fdw accepts the options \"snapshot_id\", \"tag\" and \"timestamp\".")));
	}
	if (time_travel > 1)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
				 errmsg("options \"snapshot_id\", \"tag\" and \"timestamp\" are mutually exclusive")));
	if (warehouse == NULL)
		elog(ERROR, "paimon_fdw server has no warehouse option");
	pmfdw_check_name("database", stmt->remote_schema);
	foreach(lc, stmt->table_list)
		pmfdw_check_name("table", ((RangeVar *) lfirst(lc))->relname);

	cxt = AllocSetContextCreate(CurrentMemoryContext, "paimon_fdw import",
								PMFDW_CONTEXT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	env = pmfdw_env_create(cxt);
	io = pmfdw_fileio_create(cxt);
	arena = pm_arena_create(env);
	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	pm_error_clear(&err);
	if (pm_catalog_list_tables(io, warehouse, stmt->remote_schema, arena, &names, &count,
							   &err) != PM_OK)
	{
		if (err.code == PM_ERR_NOT_FOUND)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_SCHEMA_NOT_FOUND),
					 errmsg("Paimon database \"%s\" does not exist", stmt->remote_schema),
					 errdetail("Directory \"%s/%s.db\" was not found.", warehouse,
							   stmt->remote_schema)));
		pmfdw_error(&err);
	}

	for (int i = 0; i < count; i++)
	{
		pm_table_open_options o = {0};
		pm_table   *table;
		const pm_schema *schema;
		StringInfoData buf;
		char	   *path;
		char	   *sql;

		if (!table_wanted(stmt, names[i]))
			continue;
		path = pm_catalog_table_path(arena, warehouse, stmt->remote_schema, names[i]);
		if (path == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		o.snapshot_id = snapshot_id;
		o.tag = tag;
		o.timestamp_millis = timestamp ? pmfdw_parse_timestamp_millis(timestamp) : 0;
		o.external_path_map = path_map;
		pm_error_clear(&err);
		if (pm_table_open(env, io, path, &o, &table, &err) != PM_OK)
			pmfdw_error(&err);
		schema = pm_table_schema(table);

		initStringInfo(&buf);
		if (snapshot_id > 0)
			appendStringInfo(&buf, ", snapshot_id '" INT64_FORMAT "'", snapshot_id);
		if (tag != NULL)
			appendStringInfo(&buf, ", tag %s", quote_literal_cstr(tag));
		if (timestamp != NULL)
			appendStringInfo(&buf, ", \"timestamp\" %s", quote_literal_cstr(timestamp));
		sql = pmfdw_foreign_table_sql(quote_identifier(names[i]), schema, server->servername,
									  stmt->remote_schema, names[i], buf.data);
		pm_table_close(table);

		MemoryContextSwitchTo(old);
		commands = lappend(commands, pstrdup(sql));
		MemoryContextSwitchTo(cxt);
	}
	pm_arena_destroy(arena);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return commands;
}
