/*-------------------------------------------------------------------------
 * options.c
 *	  Options of paimon_fdw servers and foreign tables, and their validator.
 *
 * One table of {name, catalog}; unknown names are rejected with a hint
 * naming the closest valid option (as postgres_fdw and file_fdw do).
 * Options naming server files need superuser or pg_read_server_files.
 * Names that become parts of paths (database, table, tag) go through
 * pmfdw_check_name, here and wherever else a user supplies one.
 * A backend keeps each foreign table's parsed options until a syscache
 * invalidation of foreign tables or servers (pmfdw_get_table_options).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <limits.h>

#include "access/reloptions.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_authid.h"
#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/varlena.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "datatype/timestamp.h"

#include "table/catalog.h"

typedef struct PaimonFdwOption
{
	const char *name;
	Oid			context;		/* catalog where the option may appear */
} PaimonFdwOption;

static const PaimonFdwOption valid_options[] = {
	{"warehouse", ForeignServerRelationId},
	{"external_path_map", ForeignServerRelationId},
	{"database", ForeignTableRelationId},
	{"table", ForeignTableRelationId},
	{"snapshot_id", ForeignTableRelationId},
	{"tag", ForeignTableRelationId},
	{"timestamp", ForeignTableRelationId},
	{NULL, InvalidOid}
};

PG_FUNCTION_INFO_V1(paimon_fdw_validator);

static bool
is_valid_option(const char *name, Oid context)
{
	for (const PaimonFdwOption *o = valid_options; o->name; o++)
		if (o->context == context && strcmp(o->name, name) == 0)
			return true;
	return false;
}

static const char *
closest_option(const char *name, Oid context)
{
	const char *best = NULL;
	int			best_d = INT_MAX;

	for (const PaimonFdwOption *o = valid_options; o->name; o++)
	{
		int			d;

		if (o->context != context)
			continue;
		d = varstr_levenshtein(name, strlen(name), o->name, strlen(o->name), 1, 1, 1, false);
		if (d < best_d)
		{
			best_d = d;
			best = o->name;
		}
	}
	/* only suggest something reasonably close */
	if (best != NULL && best_d <= (int) (strlen(name) / 2) + 1)
		return best;
	return NULL;
}

/*
 * ERROR unless name may become one component of a path (no '/', not "."
 * or "..", not empty): a database, table or tag name must not lead outside
 * the warehouse.
 */
void
pmfdw_check_name(const char *kind, const char *name)
{
	if (!pm_catalog_name_valid(name))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("invalid Paimon %s name \"%s\"", kind, name),
				 errdetail("A name must not be empty, contain \"/\" or be \".\" or \"..\".")));
}

int64
pmfdw_parse_snapshot_id(const char *value)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || v <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"snapshot_id\": \"%s\"", value),
				 errhint("A snapshot id is a positive integer.")));
	return (int64) v;
}

/* A timestamptz literal as epoch milliseconds (the snapshot current then). */
int64
pmfdw_parse_timestamp_millis(const char *value)
{
	TimestampTz ts = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in,
															 CStringGetDatum(value),
															 ObjectIdGetDatum(InvalidOid),
															 Int32GetDatum(-1)));

	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"timestamp\": \"%s\"", value)));
	/* Postgres counts microseconds from 2000-01-01 */
	return (ts + UNIX_TO_PG_MICROS) / 1000;
}

static void
check_path_map(const char *value)
{
	char	   *copy = pstrdup(value);
	char	   *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *eq = strchr(tok, '=');

		if (eq == NULL || eq == tok || eq[1] == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
					 errmsg("invalid value for option \"external_path_map\": \"%s\"", value),
					 errhint("Use \"recorded_prefix=local_prefix\" pairs separated by commas.")));
	}
	pfree(copy);
}

Datum
paimon_fdw_validator(PG_FUNCTION_ARGS)
{
	List	   *options = untransformRelOptions(PG_GETARG_DATUM(0));
	Oid			catalog = PG_GETARG_OID(1);
	ListCell   *lc;
	int			time_travel = 0;
	bool		seen_warehouse = false,
				seen_database = false,
				seen_table = false;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		const char *val = defGetString(def);

		if (!is_valid_option(def->defname, catalog))
		{
			const char *hint = closest_option(def->defname, catalog);

			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\"", def->defname),
					 hint ? errhint("Perhaps you meant the option \"%s\".", hint) :
					 errhint("There are no valid options in this context.")));
		}
		if (strcmp(def->defname, "warehouse") == 0)
		{
			if (seen_warehouse)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("conflicting or redundant options")));
			seen_warehouse = true;
			if (!superuser() && !has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("only superuser or a role with privileges of the pg_read_server_files role may specify the warehouse option of a paimon_fdw server")));
			if (val[0] != '/')
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
						 errmsg("warehouse must be an absolute path: \"%s\"", val)));
		}
		else if (strcmp(def->defname, "external_path_map") == 0)
		{
			if (!superuser() && !has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("only superuser or a role with privileges of the pg_read_server_files role may specify the external_path_map option")));
			check_path_map(val);
		}
		else if (strcmp(def->defname, "snapshot_id") == 0)
		{
			(void) pmfdw_parse_snapshot_id(val);
			time_travel++;
		}
		else if (strcmp(def->defname, "tag") == 0)
		{
			pmfdw_check_name("tag", val);
			time_travel++;
		}
		else if (strcmp(def->defname, "timestamp") == 0)
		{
			(void) pmfdw_parse_timestamp_millis(val);
			time_travel++;
		}
		else if (strcmp(def->defname, "database") == 0 || strcmp(def->defname, "table") == 0)
		{
			bool	   *seen = def->defname[0] == 'd' ? &seen_database : &seen_table;

			if (*seen)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("conflicting or redundant options")));
			*seen = true;
			pmfdw_check_name(def->defname, val);
		}
	}
	if (time_travel > 1)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
				 errmsg("options \"snapshot_id\", \"tag\" and \"timestamp\" are mutually exclusive")));
	if (catalog == ForeignServerRelationId && !seen_warehouse)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
				 errmsg("option \"warehouse\" is required for a paimon_fdw server")));
	if (catalog == ForeignTableRelationId && (!seen_database || !seen_table))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
				 errmsg("options \"database\" and \"table\" are required for a paimon_fdw foreign table")));
	PG_RETURN_VOID();
}

static void
read_table_options(Oid foreigntableid, PaimonFdwTableOptions *opts)
{
	ForeignTable *table = GetForeignTable(foreigntableid);
	ForeignServer *server = GetForeignServer(table->serverid);
	List	   *options = list_concat(list_copy(server->options), table->options);
	ListCell   *lc;

	memset(opts, 0, sizeof(*opts));
	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "warehouse") == 0)
			opts->warehouse = defGetString(def);
		else if (strcmp(def->defname, "external_path_map") == 0)
			opts->external_path_map = defGetString(def);
		else if (strcmp(def->defname, "database") == 0)
			opts->database = defGetString(def);
		else if (strcmp(def->defname, "table") == 0)
			opts->table = defGetString(def);
		else if (strcmp(def->defname, "snapshot_id") == 0)
			opts->snapshot_id = pmfdw_parse_snapshot_id(defGetString(def));
		else if (strcmp(def->defname, "tag") == 0)
			opts->tag = defGetString(def);
		else if (strcmp(def->defname, "timestamp") == 0)
			opts->timestamp_millis = pmfdw_parse_timestamp_millis(defGetString(def));
	}
	if (opts->warehouse == NULL || opts->database == NULL || opts->table == NULL)
		elog(ERROR, "paimon_fdw: warehouse, database or table option missing");
	/* checked by the validator too; again here, where they become a path */
	pmfdw_check_name("database", opts->database);
	pmfdw_check_name("table", opts->table);
	if (opts->tag != NULL)
		pmfdw_check_name("tag", opts->tag);
	opts->table_path = psprintf("%s/%s.db/%s", opts->warehouse, opts->database, opts->table);
}

/*
 * The parsed options of each foreign table this backend read, until a
 * change of any foreign table's or server's options (syscache callbacks:
 * ALTER / DROP FOREIGN TABLE, ALTER SERVER, here or in another session)
 * marks them all stale. Saves a lookup's BeginForeignScan the catalog
 * lookups, option lists and path of every execution. Options with a
 * "timestamp" are parsed each time: their meaning follows the TimeZone
 * setting.
 */
typedef struct OptionsCacheEntry
{
	Oid			relid;			/* hash key */
	bool		valid;
	PaimonFdwTableOptions opts; /* strings in options_cxt */
} OptionsCacheEntry;

static HTAB *options_cache = NULL;
static MemoryContext options_cxt = NULL;

static void
options_cache_inval(Datum arg, int cacheid, uint32 hashvalue)
{
	HASH_SEQ_STATUS seq;
	OptionsCacheEntry *e;

	if (options_cache == NULL)
		return;
	hash_seq_init(&seq, options_cache);
	while ((e = hash_seq_search(&seq)) != NULL)
		e->valid = false;
}

static char *
dup_or_null(MemoryContext cxt, const char *s)
{
	return s == NULL ? NULL : MemoryContextStrdup(cxt, s);
}

static void
copy_options(PaimonFdwTableOptions *to, const PaimonFdwTableOptions *from, MemoryContext cxt)
{
	*to = *from;
	to->warehouse = dup_or_null(cxt, from->warehouse);
	to->external_path_map = dup_or_null(cxt, from->external_path_map);
	to->database = dup_or_null(cxt, from->database);
	to->table = dup_or_null(cxt, from->table);
	to->tag = dup_or_null(cxt, from->tag);
	to->table_path = dup_or_null(cxt, from->table_path);
}

static void
free_options(PaimonFdwTableOptions *o)
{
	char	   *strs[] = {o->warehouse, o->external_path_map, o->database, o->table, o->tag,
	o->table_path};

	for (int i = 0; i < (int) lengthof(strs); i++)
		if (strs[i] != NULL)
			pfree(strs[i]);
	memset(o, 0, sizeof(*o));
}

/* The options of a foreign table, in the current memory context. */
void
pmfdw_get_table_options(Oid foreigntableid, PaimonFdwTableOptions *opts)
{
	OptionsCacheEntry *e;
	bool		found;

	if (options_cache == NULL)
	{
		HASHCTL		ctl;

		options_cxt = AllocSetContextCreate(CacheMemoryContext, "paimon_fdw options",
											ALLOCSET_SMALL_SIZES);
		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(OptionsCacheEntry);
		ctl.hcxt = options_cxt;
		options_cache = hash_create("paimon_fdw options", 16, &ctl,
									HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterSyscacheCallback(FOREIGNTABLEREL, options_cache_inval, (Datum) 0);
		CacheRegisterSyscacheCallback(FOREIGNSERVEROID, options_cache_inval, (Datum) 0);
	}
	e = hash_search(options_cache, &foreigntableid, HASH_FIND, NULL);
	if (e != NULL && e->valid)
	{
		/* the caller's own copy: an invalidation may free the entry's */
		copy_options(opts, &e->opts, CurrentMemoryContext);
		return;
	}
	read_table_options(foreigntableid, opts);
	if (opts->timestamp_millis != 0)
		return;
	/* what the catalogs say now (as for the rest of this statement); the next change marks it */
	e = hash_search(options_cache, &foreigntableid, HASH_ENTER, &found);
	if (found)
		free_options(&e->opts);
	copy_options(&e->opts, opts, options_cxt);
	e->valid = true;
}
