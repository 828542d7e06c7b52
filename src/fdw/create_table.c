/*-------------------------------------------------------------------------
 * create_table.c
 *	  SQL functions creating Paimon databases and tables:
 *
 *	  paimon_create_database(server name, database text,
 *							 if_not_exists boolean DEFAULT false)
 *	  paimon_create_table(server name, database text, table_name text,
 *						  columns text,
 *						  primary_key text[] DEFAULT NULL,
 *						  partition_keys text[] DEFAULT NULL,
 *						  options jsonb DEFAULT NULL,
 *						  foreign_table text DEFAULT NULL)
 *
 * `columns` is a column list as in CREATE TABLE: "name type [NOT NULL],
 * ...". Names follow Postgres' identifier rules (unquoted names are folded
 * to lower case, "Quoted" ones kept). A type is a Paimon type string
 * (STRING, DECIMAL(10, 2), TIMESTAMP(3) WITH LOCAL TIME ZONE, ARRAY<INT>,
 * ROW<a INT, b STRING>, ...; Paimon's reading wins where both systems know
 * the name: FLOAT is 4 bytes, DECIMAL alone is DECIMAL(10, 0), TIME alone
 * is TIME(0)), else a Postgres type mapped back through the type table
 * (text -> STRING, bytea -> BYTES, real -> FLOAT, numeric(p,s) ->
 * DECIMAL(p,s), timestamptz(p) -> TIMESTAMP(p) WITH LOCAL TIME ZONE,
 * integer[] -> ARRAY<INT>, ...). Options are a jsonb object of Paimon
 * table options ({"bucket": "4", "file.format": "parquet"}); an unknown
 * option name is an error naming the closest known one.
 *
 * The schema is the one Java's Schema and SchemaManager.createTable write:
 * field ids in column order with nested ROW fields numbered as
 * ReassignFieldId does, primary-key columns made NOT NULL, "primary-key"
 * and "partition" options turned into keys. With foreign_table, a foreign
 * table of that (optionally schema-qualified) name is created for it in the
 * same transaction, with the columns IMPORT FOREIGN SCHEMA would give it.
 * The Paimon table itself is created last, so an error creating the
 * foreign table leaves no Paimon table; a later ROLLBACK does not remove
 * it (the file system is not transactional).
 *
 * Both need superuser or pg_write_server_files (42501) and USAGE on the
 * server; names go through pmfdw_check_name (42602).
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <ctype.h>
#include <limits.h>

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "parser/parse_type.h"
#include "parser/scansup.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

#include "common/arena.h"
#include "table/catalog.h"
#include "table/table_options.h"
#include "table/table_write.h"

/*
 * From row/data_type.h, which cannot be included here: it includes
 * jansson.h, whose json_object() clashes with Postgres' fmgrprotos.h.
 */
extern pm_code pm_data_type_parse(const char *text, pm_arena *arena,
								  const pm_type **out, pm_error *err);

PG_FUNCTION_INFO_V1(paimon_create_database);
PG_FUNCTION_INFO_V1(paimon_create_table);

/* Java's TableSchema.CURRENT_VERSION (1.4.2) */
#define PAIMON_SCHEMA_VERSION 3

static void
oom(void)
{
	ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
}

static char *
required_server(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("server must not be NULL")));
	return pstrdup(NameStr(*PG_GETARG_NAME(0)));
}

static char *
required_text(FunctionCallInfo fcinfo, int arg, const char *name)
{
	if (PG_ARGISNULL(arg))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", name)));
	return text_to_cstring(PG_GETARG_TEXT_PP(arg));
}

/* The server's warehouse, after the privilege checks. */
static const char *
server_warehouse(const char *servername)
{
	ForeignServer *server = GetForeignServerByName(servername, false);
	AclResult	acl;
	ListCell   *lc;

	pmfdw_check_write_privilege();
	acl = pg_foreign_server_aclcheck(server->serverid, GetUserId(), ACL_USAGE);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_FOREIGN_SERVER, server->servername);
	if (strcmp(GetForeignDataWrapper(server->fdwid)->fdwname, "paimon_fdw") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("server \"%s\" is not a paimon_fdw server", servername)));
	foreach(lc, server->options)
	{
		DefElem    *def = lfirst(lc);

		if (strcmp(def->defname, "warehouse") == 0)
			return defGetString(def);
	}
	elog(ERROR, "paimon_fdw server has no warehouse option");
}

Datum
paimon_create_database(PG_FUNCTION_ARGS)
{
	char	   *servername = required_server(fcinfo);
	char	   *database = required_text(fcinfo, 1, "database");
	bool		if_not_exists = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	const char *warehouse;
	char	   *path;
	pm_fileio  *io;
	pm_error	err;

	pmfdw_check_name("database", database);
	warehouse = server_warehouse(servername);
	path = psprintf("%s/%s.db", warehouse, database);
	io = pmfdw_fileio_create(CurrentMemoryContext);
	if (io->is_dir(io, path))
	{
		if (if_not_exists)
		{
			ereport(NOTICE,
					(errcode(ERRCODE_DUPLICATE_SCHEMA),
					 errmsg("Paimon database \"%s\" already exists, skipping", database)));
			PG_RETURN_VOID();
		}
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_SCHEMA),
				 errmsg("Paimon database \"%s\" already exists", database)));
	}
	pm_error_clear(&err);
	if (io->mkdirs(io, path, &err) != PM_OK)
		pmfdw_error(&err);
	PG_RETURN_VOID();
}

/* ---- column list ---- */

typedef struct ColumnSpec
{
	char	   *name;
	char	   *type_text;
	bool		not_null;
} ColumnSpec;

static void
column_syntax_error(const char *columns, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("invalid column list \"%s\": %s", columns, why),
			 errhint("Write columns as in CREATE TABLE: \"id bigint NOT NULL, name STRING, amount DECIMAL(10, 2)\".")));
}

/* Split at commas outside (), <> and double quotes. */
static List *
split_columns(const char *columns)
{
	List	   *parts = NIL;
	int			depth = 0;
	bool		quoted = false;
	const char *start = columns;

	for (const char *p = columns;; p++)
	{
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted && (*p == '(' || *p == '<'))
			depth++;
		else if (!quoted && (*p == ')' || *p == '>'))
			depth--;
		if (*p == '\0' || (*p == ',' && depth == 0 && !quoted))
		{
			if (depth != 0 || quoted)
				column_syntax_error(columns, "unbalanced brackets or quotes");
			parts = lappend(parts, pnstrdup(start, p - start));
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	return parts;
}

static ColumnSpec *
parse_column(const char *columns, const char *def)
{
	ColumnSpec  *c = palloc0(sizeof(ColumnSpec));
	const char *p = def;
	StringInfoData name;
	char	   *type;
	int			len;

	while (isspace((unsigned char) *p))
		p++;
	initStringInfo(&name);
	if (*p == '"')
	{
		for (p++;; p++)
		{
			if (*p == '\0')
				column_syntax_error(columns, "unterminated quoted name");
			if (*p == '"')
			{
				if (p[1] != '"')
					break;
				p++;
			}
			appendStringInfoChar(&name, *p);
		}
		p++;
		c->name = name.data;
	}
	else
	{
		while (*p && !isspace((unsigned char) *p))
			appendStringInfoChar(&name, *p++);
		c->name = downcase_identifier(name.data, name.len, false, false);
	}
	if (c->name[0] == '\0')
		column_syntax_error(columns, "a column has no name");
	while (isspace((unsigned char) *p))
		p++;
	type = pstrdup(p);
	len = strlen(type);
	while (len > 0 && isspace((unsigned char) type[len - 1]))
		type[--len] = '\0';
	if (len == 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("column \"%s\" has no type", c->name)));
	/* trailing NOT NULL / NULL */
	if (len > 8 && pg_strcasecmp(type + len - 8, "NOT NULL") == 0 &&
		isspace((unsigned char) type[len - 9]))
	{
		c->not_null = true;
		type[len - 8] = '\0';
	}
	else if (len > 4 && pg_strcasecmp(type + len - 4, "NULL") == 0 &&
			 isspace((unsigned char) type[len - 5]))
		type[len - 4] = '\0';
	len = strlen(type);
	while (len > 0 && isspace((unsigned char) type[len - 1]))
		type[--len] = '\0';
	c->type_text = type;
	return c;
}

/* A Paimon type for a Postgres type (the type table read backwards), or NULL. */
static pm_type *
type_from_pg(pm_arena *arena, Oid typid, int32 typmod, const char *colname)
{
	Oid			elem = get_element_type(typid);
	int			precision = typmod >= 0 ? typmod : 6;

	if (OidIsValid(elem) && typid != INT2VECTOROID && typid != OIDVECTOROID)
	{
		pm_type    *e = type_from_pg(arena, elem, typmod, colname);

		return e ? pm_type_new_array(arena, e, true) : NULL;
	}
	switch (typid)
	{
		case BOOLOID:
			return pm_type_new(arena, PM_TYPE_BOOLEAN, true);
		case INT2OID:
			return pm_type_new(arena, PM_TYPE_SMALLINT, true);
		case INT4OID:
			return pm_type_new(arena, PM_TYPE_INT, true);
		case INT8OID:
			return pm_type_new(arena, PM_TYPE_BIGINT, true);
		case FLOAT4OID:
			return pm_type_new(arena, PM_TYPE_FLOAT, true);
		case FLOAT8OID:
			return pm_type_new(arena, PM_TYPE_DOUBLE, true);
		case NUMERICOID:
			{
				int			p = typmod >= VARHDRSZ ? ((typmod - VARHDRSZ) >> 16) & 0xffff : 0;
				int			s = typmod >= VARHDRSZ ? (typmod - VARHDRSZ) & 0xffff : 0;

				if (typmod < VARHDRSZ || p < 1 || p > 38 || s > p)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("column \"%s\": Paimon DECIMAL needs a precision of 1 to 38 and a scale not above it",
									colname),
							 errhint("Write numeric(p,s) or DECIMAL(p, s).")));
				return pm_type_new_decimal(arena, p, s, true);
			}
		case TEXTOID:
			{
				pm_type    *t = pm_type_new(arena, PM_TYPE_VARCHAR, true);

				if (t)
					t->length = PM_MAX_VARCHAR_LENGTH;
				return t;
			}
		case VARCHAROID:
		case BPCHAROID:
			{
				pm_type    *t = pm_type_new(arena, typid == BPCHAROID ? PM_TYPE_CHAR : PM_TYPE_VARCHAR, true);

				if (t)
					t->length = typmod >= VARHDRSZ ? typmod - VARHDRSZ :
						(typid == BPCHAROID ? 1 : PM_MAX_VARCHAR_LENGTH);
				return t;
			}
		case BYTEAOID:
			{
				pm_type    *t = pm_type_new(arena, PM_TYPE_VARBINARY, true);

				if (t)
					t->length = PM_MAX_VARCHAR_LENGTH;
				return t;
			}
		case DATEOID:
			return pm_type_new(arena, PM_TYPE_DATE, true);
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			{
				pm_type    *t = pm_type_new(arena, typid == TIMEOID ? PM_TYPE_TIME :
											typid == TIMESTAMPOID ? PM_TYPE_TIMESTAMP :
											PM_TYPE_TIMESTAMP_LTZ, true);

				if (t)
					t->precision = precision;
				return t;
			}
		default:
			return NULL;
	}
}

static const pm_type *
column_type(pm_arena *arena, const ColumnSpec *c)
{
	const pm_type *t = NULL;
	pm_type    *copy;
	pm_error	err;
	Oid			typid;
	int32		typmod;

	pm_error_clear(&err);
	if (pm_data_type_parse(c->type_text, arena, &t, &err) != PM_OK)
	{
		t = NULL;
		parseTypeString(c->type_text, &typid, &typmod, true);
		if (OidIsValid(typid))
			t = type_from_pg(arena, typid, typmod, c->name);
		if (t == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("column \"%s\": \"%s\" is neither a Paimon type nor a Postgres type that maps to one",
							c->name, c->type_text),
					 errhint("Use a Paimon type such as STRING, DECIMAL(10, 2), TIMESTAMP(3) WITH LOCAL TIME ZONE or ARRAY<INT>, or one of the Postgres types of the type table.")));
	}
	if (!c->not_null)
		return t;
	copy = pm_arena_alloc(arena, sizeof(pm_type));
	if (copy == NULL)
		oom();
	*copy = *t;
	copy->nullable = false;
	return copy;
}

/*
 * A copy of t with the ids of nested ROW fields renumbered from *next, as
 * Java's ReassignFieldId: a field's own type first, then the field.
 */
static const pm_type *
reassign_ids(pm_arena *arena, const pm_type *t, int32 *next)
{
	pm_type    *copy;

	if (!pm_type_is_nested(t->id))
		return t;
	copy = pm_arena_alloc(arena, sizeof(pm_type));
	if (copy == NULL)
		oom();
	*copy = *t;
	if (t->element)
		copy->element = reassign_ids(arena, t->element, next);
	if (t->value)
		copy->value = reassign_ids(arena, t->value, next);
	if (t->id == PM_TYPE_ROW)
	{
		pm_field   *fields = pm_arena_alloc(arena, sizeof(pm_field) * (t->nfields + 1));

		if (fields == NULL)
			oom();
		for (int i = 0; i < t->nfields; i++)
		{
			fields[i] = t->fields[i];
			fields[i].type = reassign_ids(arena, t->fields[i].type, next);
			fields[i].id = (*next)++;
		}
		copy->fields = fields;
	}
	return copy;
}

/* ---- keys and options ---- */

static const char **
text_array(ArrayType *arr, int *n, const char *what)
{
	Datum	   *elems;
	bool	   *nulls;
	const char **out;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, n);
	out = palloc(sizeof(char *) * (*n + 1));
	for (int i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not contain NULL", what)));
		out[i] = TextDatumGetCString(elems[i]);
	}
	return out;
}

/* Comma-separated key list of the "primary-key" / "partition" options. */
static const char **
split_key_option(const char *value, int *n)
{
	List	   *names = NIL;
	char	   *copy = pstrdup(value);
	char	   *save = NULL;
	const char **out;
	int			i = 0;
	ListCell   *lc;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *s = tok;
		int			len;

		while (isspace((unsigned char) *s))
			s++;
		len = strlen(s);
		while (len > 0 && isspace((unsigned char) s[len - 1]))
			s[--len] = '\0';
		if (len > 0)
			names = lappend(names, s);
	}
	out = palloc(sizeof(char *) * (list_length(names) + 1));
	foreach(lc, names)
		out[i++] = lfirst(lc);
	*n = i;
	return out;
}

static const char *
closest_option(const char *name)
{
	int			n;
	const pm_table_option *list = pm_table_options_list(&n);
	const char *best = NULL;
	int			best_d = INT_MAX;

	for (int i = 0; i < n; i++)
	{
		int			d;

		if (strchr(list[i].key, '*') != NULL)
			continue;
		d = varstr_levenshtein(name, strlen(name), list[i].key, strlen(list[i].key),
							   1, 1, 1, false);
		if (d < best_d)
		{
			best_d = d;
			best = list[i].key;
		}
	}
	return best != NULL && best_d <= (int) (strlen(name) / 3) + 1 ? best : NULL;
}

/* The jsonb object's pairs as option keys and values; unknown keys are errors. */
static int
parse_options(Jsonb *jb, const char ***keys, const char ***values)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	int			n = 0;
	int			cap;
	char	   *key = NULL;

	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("options must be a jsonb object of Paimon table options"),
				 errhint("For example '{\"bucket\": \"4\", \"file.format\": \"parquet\"}'.")));
	cap = JB_ROOT_COUNT(jb);
	*keys = palloc(sizeof(char *) * (cap + 1));
	*values = palloc(sizeof(char *) * (cap + 1));
	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
			key = pnstrdup(v.val.string.val, v.val.string.len);
		else if (tok == WJB_VALUE)
		{
			char	   *val;

			if (v.type == jbvString)
				val = pnstrdup(v.val.string.val, v.val.string.len);
			else if (v.type == jbvNumeric)
				val = DatumGetCString(DirectFunctionCall1(numeric_out,
														  NumericGetDatum(v.val.numeric)));
			else if (v.type == jbvBool)
				val = pstrdup(v.val.boolean ? "true" : "false");
			else
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("value of Paimon table option \"%s\" must be a string, number or boolean",
								key)));
			if (pm_table_option_find(key) == NULL)
			{
				const char *hint = closest_option(key);

				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("unknown Paimon table option \"%s\"", key),
						 hint ? errhint("Perhaps you meant the option \"%s\".", hint) : 0));
			}
			(*keys)[n] = key;
			(*values)[n] = val;
			n++;
		}
	}
	return n;
}

static bool
has_column(const pm_field *fields, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(fields[i].name, name) == 0)
			return true;
	return false;
}

static void
check_keys(const char **keys, int nkeys, const pm_field *fields, int nfields, const char *what)
{
	for (int i = 0; i < nkeys; i++)
	{
		if (!has_column(fields, nfields, keys[i]))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("%s column \"%s\" is not a column of the table", what, keys[i])));
		for (int j = 0; j < i; j++)
			if (strcmp(keys[i], keys[j]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_COLUMN),
						 errmsg("%s column \"%s\" appears twice", what, keys[i])));
	}
}

/* Remove option key from the list; its value, or NULL. */
static const char *
take_option(const char **keys, const char **values, int *n, const char *key)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(keys[i], key) == 0)
		{
			const char *v = values[i];

			for (int j = i + 1; j < *n; j++)
			{
				keys[j - 1] = keys[j];
				values[j - 1] = values[j];
			}
			(*n)--;
			return v;
		}
	return NULL;
}

Datum
paimon_create_table(PG_FUNCTION_ARGS)
{
	char	   *servername = required_server(fcinfo);
	char	   *database = required_text(fcinfo, 1, "database");
	char	   *table = required_text(fcinfo, 2, "table_name");
	char	   *columns = required_text(fcinfo, 3, "columns");
	const char *warehouse;
	MemoryContext cxt;
	MemoryContext old;
	pm_env	   *env;
	pm_fileio  *io;
	pm_arena   *arena;
	pm_schema  *schema;
	pm_field   *fields;
	List	   *defs;
	ListCell   *lc;
	int			nfields = 0;
	int32		next_id = 0;
	const char *opt;
	pm_error	err;
	char	   *db_path;
	char	   *table_path;

	pmfdw_check_name("database", database);
	pmfdw_check_name("table", table);
	warehouse = server_warehouse(servername);

	cxt = AllocSetContextCreate(CurrentMemoryContext, "paimon_fdw create table",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	env = pmfdw_env_create(cxt);
	io = pmfdw_fileio_create(cxt);
	arena = pm_arena_create(env);
	if (arena == NULL)
		oom();
	schema = pm_arena_zalloc(arena, sizeof(pm_schema));
	if (schema == NULL)
		oom();

	/* columns, with Java's field ids */
	defs = split_columns(columns);
	fields = pm_arena_zalloc(arena, sizeof(pm_field) * (list_length(defs) + 1));
	if (fields == NULL)
		oom();
	foreach(lc, defs)
	{
		ColumnSpec  *c = parse_column(columns, lfirst(lc));
		const pm_type *t = column_type(arena, c);

		if (has_column(fields, nfields, c->name))
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_COLUMN),
					 errmsg("column \"%s\" specified more than once", c->name)));
		fields[nfields].id = next_id++;
		fields[nfields].name = pm_arena_strdup(arena, c->name);
		fields[nfields].type = reassign_ids(arena, t, &next_id);
		nfields++;
	}

	/* options, keys from the arguments or from the options (not both) */
	if (!PG_ARGISNULL(6))
		schema->noptions = parse_options(PG_GETARG_JSONB_P(6), &schema->option_keys,
										 &schema->option_values);
	else
	{
		schema->option_keys = palloc(sizeof(char *));
		schema->option_values = palloc(sizeof(char *));
	}
	if (!PG_ARGISNULL(4))
		schema->primary_keys = text_array(PG_GETARG_ARRAYTYPE_P(4), &schema->nprimary_keys,
										  "primary_key");
	opt = take_option(schema->option_keys, schema->option_values, &schema->noptions,
					  "primary-key");
	if (opt != NULL)
	{
		if (schema->nprimary_keys > 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot define the primary key in primary_key and in the option \"primary-key\" at the same time")));
		schema->primary_keys = split_key_option(opt, &schema->nprimary_keys);
	}
	if (!PG_ARGISNULL(5))
		schema->partition_keys = text_array(PG_GETARG_ARRAYTYPE_P(5),
											&schema->npartition_keys, "partition_keys");
	opt = take_option(schema->option_keys, schema->option_values, &schema->noptions,
					  "partition");
	if (opt != NULL)
	{
		if (schema->npartition_keys > 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot define partition keys in partition_keys and in the option \"partition\" at the same time")));
		schema->partition_keys = split_key_option(opt, &schema->npartition_keys);
	}
	check_keys(schema->primary_keys, schema->nprimary_keys, fields, nfields, "primary key");
	check_keys(schema->partition_keys, schema->npartition_keys, fields, nfields,
			   "partition key");
	/* primary-key columns are NOT NULL (Java's Schema.normalizeFields) */
	for (int i = 0; i < nfields; i++)
		for (int k = 0; k < schema->nprimary_keys; k++)
			if (strcmp(fields[i].name, schema->primary_keys[k]) == 0 && fields[i].type->nullable)
			{
				pm_type    *copy = pm_arena_alloc(arena, sizeof(pm_type));

				if (copy == NULL)
					oom();
				*copy = *fields[i].type;
				copy->nullable = false;
				fields[i].type = copy;
			}

	schema->id = 0;
	schema->version = PAIMON_SCHEMA_VERSION;
	schema->row_type = pm_type_new_row(arena, fields, nfields, true);
	if (schema->row_type == NULL)
		oom();
	schema->highest_field_id = next_id - 1;
	schema->time_millis = (GetCurrentTimestamp() / 1000) +
		UNIX_TO_PG_DAYS * SECS_PER_DAY * 1000;

	db_path = psprintf("%s/%s.db", warehouse, database);
	if (!io->is_dir(io, db_path))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_SCHEMA_NAME),
				 errmsg("Paimon database \"%s\" does not exist", database),
				 errhint("Create it with paimon_create_database(%s, %s).",
						 quote_literal_cstr(servername), quote_literal_cstr(database))));
	table_path = pm_catalog_table_path(arena, warehouse, database, table);
	if (table_path == NULL)
		oom();
	if (io->exists(io, table_path))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("Paimon table \"%s.%s\" already exists", database, table)));

	/* the foreign table first: an error there leaves no Paimon table */
	if (!PG_ARGISNULL(7))
	{
		char	   *name = NameListToQuotedString(stringToQualifiedNameList(
																		 text_to_cstring(PG_GETARG_TEXT_PP(7))));
		char	   *sql = pmfdw_foreign_table_sql(name, schema, servername, database, table, NULL);

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY)
			elog(ERROR, "could not create foreign table %s", name);
		SPI_finish();
	}

	pm_error_clear(&err);
	if (pm_table_create(env, io, table_path, schema, &err) != PM_OK)
	{
		if (err.code == PM_ERR_CONFLICT)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("Paimon table \"%s.%s\" already exists", database, table)));
		if (err.code == PM_ERR_INVALID)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
					 errmsg_internal("%s", err.message),
					 err.detail[0] ? errdetail_internal("%s", err.detail) : 0));
		pmfdw_error(&err);
	}
	pm_arena_destroy(arena);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	PG_RETURN_VOID();
}
