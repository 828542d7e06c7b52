/*-------------------------------------------------------------------------
 * maintenance.c
 *	  SQL functions maintaining the Paimon table behind a foreign table, as
 *	  Paimon's procedures of the same names do (Java 1.4.2 is the spec):
 *
 *	  paimon_expire_snapshots(tbl regclass, retain_max int, older_than
 *							  timestamptz, retain_min int, max_deletes int)
 *		  -> number of snapshots expired
 *	  paimon_create_tag(tbl, name text, snapshot_id bigint) -> tagged id
 *	  paimon_delete_tag(tbl, name text) -> whether a tag was deleted
 *	  paimon_rename_tag(tbl, name text, new_name text)
 *	  paimon_rollback(tbl, snapshot_or_tag text) -> snapshot id now latest
 *	  paimon_remove_orphan_files(tbl, older_than timestamptz, dry_run bool)
 *		  -> SETOF (path text, size bigint): the files removed
 *	  paimon_compact(tbl, partition text) -> (snapshot_id, buckets,
 *		  files_deleted, files_added, rows): full compaction of a primary-key
 *		  table (lsm/compact.h) or an append table (table/append_compact.h)
 *
 * The work is the core's (table/snapshot_expire.h, tag.h, rollback.h,
 * orphan_files.h); this file checks privileges, turns arguments into core
 * options and core errors into SQLSTATEs. Every function needs superuser
 * or the privileges of pg_write_server_files (42501) and USAGE on the
 * foreign table's server; the table's time-travel options (snapshot_id,
 * tag, timestamp) do not matter: the functions act on the Paimon table.
 * Tag and snapshot errors: a missing one is 42704 (undefined_object), an
 * existing tag 42710 (duplicate_object), a bad argument 22023.
 *-------------------------------------------------------------------------
 */
#include "pmfdw.h"

#include <sys/stat.h>

#include "catalog/pg_class.h"
#include "fmgr.h"
#include "foreign/foreign.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "common/arena.h"
#include "lsm/compact.h"
#include "table/orphan_files.h"
#include "table/rollback.h"
#include "table/snapshot.h"
#include "table/snapshot_expire.h"
#include "table/tag.h"
#include "table/tag_auto.h"

PG_FUNCTION_INFO_V1(paimon_expire_snapshots);
PG_FUNCTION_INFO_V1(paimon_create_tag);
PG_FUNCTION_INFO_V1(paimon_delete_tag);
PG_FUNCTION_INFO_V1(paimon_rename_tag);
PG_FUNCTION_INFO_V1(paimon_rollback);
PG_FUNCTION_INFO_V1(paimon_remove_orphan_files);
PG_FUNCTION_INFO_V1(paimon_compact);

/* What one call works with; everything lives in cxt. */
typedef struct MaintCall
{
	MemoryContext cxt;
	MemoryContext old;
	PaimonFdwTableOptions opts;
	pm_env	   *env;
	pm_fileio  *io;
	pm_arena   *arena;
	pm_table   *table;			/* opened by maint_open_table */
} MaintCall;

/* The checks, then the table's options, a FileIO and an arena. */
static void
maint_begin(MaintCall *mc, FunctionCallInfo fcinfo)
{
	Oid			relid;
	ForeignTable *ft;
	ForeignServer *server;
	AclResult	acl;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the foreign table must not be NULL")));
	relid = PG_GETARG_OID(0);
	pmfdw_check_write_privilege();
	if (get_rel_relkind(relid) != RELKIND_FOREIGN_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a foreign table", get_rel_name(relid) ?
						get_rel_name(relid) : "?")));
	ft = GetForeignTable(relid);
	server = GetForeignServer(ft->serverid);
	if (strcmp(GetForeignDataWrapper(server->fdwid)->fdwname, "paimon_fdw") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a paimon_fdw foreign table", get_rel_name(relid))));
	acl = pg_foreign_server_aclcheck(server->serverid, GetUserId(), ACL_USAGE);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_FOREIGN_SERVER, server->servername);

	mc->cxt = AllocSetContextCreate(CurrentMemoryContext, "paimon_fdw maintenance",
									ALLOCSET_DEFAULT_SIZES);
	mc->old = MemoryContextSwitchTo(mc->cxt);
	pmfdw_get_table_options(relid, &mc->opts);
	mc->env = pmfdw_env_create(mc->cxt);
	mc->io = pmfdw_fileio_create(mc->cxt);
	mc->arena = pm_arena_create(mc->env);
	mc->table = NULL;
	if (mc->arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
}

static void
maint_end(MaintCall *mc)
{
	if (mc->table != NULL)
		pm_table_close(mc->table);
	pm_arena_destroy(mc->arena);
	MemoryContextSwitchTo(mc->old);
	MemoryContextDelete(mc->cxt);
}

/* A core error, with the SQLSTATEs of tag and snapshot lookups. */
static void
maint_error(const pm_error *err)
{
	if (err->code == PM_ERR_CONFLICT && strstr(err->message, "already exists") != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg_internal("%s", err->message)));
	if (err->code == PM_ERR_NOT_FOUND &&
		(strncmp(err->message, "Tag '", 5) == 0 || strncmp(err->message, "Rollback", 8) == 0 ||
		 strncmp(err->message, "Cannot ", 7) == 0))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg_internal("%s", err->message)));
	pmfdw_error(err);
}

static void
maint_open_table(MaintCall *mc)
{
	pm_table_open_options o;
	pm_error	err;

	memset(&o, 0, sizeof(o));
	o.external_path_map = mc->opts.external_path_map;
	pm_error_clear(&err);
	if (pm_table_open(mc->env, mc->io, mc->opts.table_path, &o, &mc->table, &err) != PM_OK)
		pmfdw_error(&err);
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

static int64
timestamptz_to_millis(TimestampTz ts)
{
	int64		micros = ts + UNIX_TO_PG_MICROS;

	return micros >= 0 ? micros / 1000 : -((-micros + 999) / 1000);
}

static int64
now_millis(void)
{
	return timestamptz_to_millis(GetCurrentTimestamp());
}

static int
positive_int_arg(FunctionCallInfo fcinfo, int arg, const char *name)
{
	int32		v = PG_GETARG_INT32(arg);

	if (v < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be at least 1", name)));
	return v;
}

/*
 * paimon_expire_snapshots(tbl, retain_max, older_than, retain_min,
 * max_deletes): NULL arguments take the table's options
 * (snapshot.num-retained.max / .min, snapshot.expire.limit,
 * snapshot.time-retained before now), as the expire_snapshots procedure.
 */
Datum
paimon_expire_snapshots(PG_FUNCTION_ARGS)
{
	MaintCall	mc;
	pm_expire_options o;
	pm_error	err;
	int			expired;
	int64_t		files;

	maint_begin(&mc, fcinfo);
	maint_open_table(&mc);
	pm_error_clear(&err);
	if (pm_expire_options_from_table(pm_table_schema(mc.table), now_millis(), &o, &err) != PM_OK)
		pmfdw_error(&err);
	if (!PG_ARGISNULL(1))
		o.retain_max = positive_int_arg(fcinfo, 1, "retain_max");
	if (!PG_ARGISNULL(2))
		o.older_than_millis = timestamptz_to_millis(PG_GETARG_TIMESTAMPTZ(2));
	if (!PG_ARGISNULL(3))
		o.retain_min = positive_int_arg(fcinfo, 3, "retain_min");
	if (!PG_ARGISNULL(4))
		o.max_deletes = positive_int_arg(fcinfo, 4, "max_deletes");
	if (pm_snapshot_expire(mc.table, &o, mc.arena, &expired, &files, &err) != PM_OK)
		pmfdw_error(&err);
	maint_end(&mc);
	PG_RETURN_INT32(expired);
}

/* paimon_create_tag(tbl, name, snapshot_id DEFAULT NULL = latest) */
Datum
paimon_create_tag(PG_FUNCTION_ARGS)
{
	MaintCall	mc;
	char	   *name = required_text(fcinfo, 1, "tag name");
	int64		snapshot_id = PG_ARGISNULL(2) ? 0 : PG_GETARG_INT64(2);
	int64_t		tagged;
	pm_error	err;
	pm_tag_options tag_options;

	maint_begin(&mc, fcinfo);
	if (!PG_ARGISNULL(2) && snapshot_id < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("snapshot_id must be at least 1")));
	pmfdw_check_name("tag", name);
	maint_open_table(&mc);
	pm_error_clear(&err);
	/* Table.createTag: tag.default-time-retained, tag.create-success-file */
	if (pm_tag_options_of_schema(pm_table_schema(mc.table), &tag_options, &err) != PM_OK ||
		pm_tag_create_with(mc.io, mc.opts.table_path, name, snapshot_id, &tag_options, mc.arena,
						   &tagged, &err) != PM_OK)
		maint_error(&err);
	maint_end(&mc);
	PG_RETURN_INT64(tagged);
}

/* paimon_delete_tag(tbl, name): false if there was no such tag (Java: a warning). */
Datum
paimon_delete_tag(PG_FUNCTION_ARGS)
{
	MaintCall	mc;
	char	   *name = required_text(fcinfo, 1, "tag name");
	bool		deleted;
	int64_t		files;
	pm_error	err;

	maint_begin(&mc, fcinfo);
	pmfdw_check_name("tag", name);
	maint_open_table(&mc);
	pm_error_clear(&err);
	/* refused with tag.callbacks, whose classes Java's deleteTag runs */
	if (pm_tag_check_callbacks(pm_table_schema(mc.table), &err) != PM_OK ||
		pm_tag_delete(mc.table, name, mc.arena, &deleted, &files, &err) != PM_OK)
		maint_error(&err);
	maint_end(&mc);
	if (!deleted)
		ereport(NOTICE,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("tag \"%s\" does not exist, skipping", name)));
	PG_RETURN_BOOL(deleted);
}

/* paimon_rename_tag(tbl, name, new_name) */
Datum
paimon_rename_tag(PG_FUNCTION_ARGS)
{
	MaintCall	mc;
	char	   *name = required_text(fcinfo, 1, "tag name");
	char	   *new_name = required_text(fcinfo, 2, "new tag name");
	pm_error	err;

	maint_begin(&mc, fcinfo);
	pmfdw_check_name("tag", name);
	pmfdw_check_name("tag", new_name);
	pm_error_clear(&err);
	if (pm_tag_rename(mc.io, mc.opts.table_path, name, new_name, mc.arena, &err) != PM_OK)
		maint_error(&err);
	maint_end(&mc);
	PG_RETURN_VOID();
}

/*
 * paimon_rollback(tbl, snapshot_or_tag): digits only name a snapshot id,
 * anything else a tag (as Spark's rollback procedure reads its version).
 */
Datum
paimon_rollback(PG_FUNCTION_ARGS)
{
	MaintCall	mc;
	char	   *target = required_text(fcinfo, 1, "snapshot_or_tag");
	bool		digits = target[0] != '\0';
	int			removed;
	int64_t		latest;
	pm_error	err;
	pm_code		rc;

	for (const char *p = target; *p; p++)
		digits &= *p >= '0' && *p <= '9';
	maint_begin(&mc, fcinfo);
	if (!digits)
		pmfdw_check_name("tag", target);
	pm_error_clear(&err);
	if (digits)
	{
		char	   *end;
		long long	id;

		errno = 0;
		id = strtoll(target, &end, 10);
		if (errno != 0 || id < 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid snapshot id \"%s\"", target)));
		rc = pm_rollback_to_snapshot(mc.io, mc.opts.table_path, id, mc.arena, &removed, &err);
	}
	else
		rc = pm_rollback_to_tag(mc.io, mc.opts.table_path, target, mc.arena, &removed, &err);
	if (rc != PM_OK)
		maint_error(&err);
	if (pm_snapshot_latest_id(mc.io, mc.opts.table_path, mc.arena, &latest, &err) != PM_OK)
		pmfdw_error(&err);
	maint_end(&mc);
	PG_RETURN_INT64(latest);
}

static bool
stat_file(void *opaque, const char *path, int64_t *mtime_millis, int64_t *size)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	*mtime_millis = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	*size = (int64_t) st.st_size;
	return true;
}

/*
 * paimon_remove_orphan_files(tbl, older_than DEFAULT NULL = a day ago,
 * dry_run DEFAULT false): the files removed (or, dry, that would be).
 */
Datum
paimon_remove_orphan_files(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MaintCall	mc;
	pm_orphan_options o;
	pm_orphan_file *files;
	int			nfiles;
	pm_error	err;
	int64		now = now_millis();

	InitMaterializedSRF(fcinfo, 0);
	maint_begin(&mc, fcinfo);
	memset(&o, 0, sizeof(o));
	o.older_than_millis = PG_ARGISNULL(1) ? now - 24 * 3600 * 1000 :
		timestamptz_to_millis(PG_GETARG_TIMESTAMPTZ(1));
	if (o.older_than_millis > now)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("older_than must not be in the future"),
				 errdetail("Files being written for a commit that has not landed yet would be removed.")));
	o.dry_run = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	o.stat = stat_file;
	maint_open_table(&mc);
	pm_error_clear(&err);
	if (pm_orphan_files_clean(mc.table, &o, mc.arena, &files, &nfiles, &err) != PM_OK)
		pmfdw_error(&err);
	for (int i = 0; i < nfiles; i++)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};

		values[0] = CStringGetTextDatum(files[i].path);
		values[1] = Int64GetDatum(files[i].size);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	maint_end(&mc);
	return (Datum) 0;
}

/* A NOTICE every 10 seconds of a long compaction. */
typedef struct CompactProgress
{
	TimestampTz last;
} CompactProgress;

static void
compact_progress(void *ctx, int done, int total, int64_t rows)
{
	CompactProgress *p = ctx;
	TimestampTz now = GetCurrentTimestamp();

	if (TimestampDifferenceExceeds(p->last, now, 10000) && done < total)
	{
		ereport(NOTICE,
				(errmsg("paimon_compact: %d of %d buckets compacted, %lld rows written",
						done, total, (long long) rows)));
		p->last = now;
	}
}

/*
 * paimon_compact(tbl, partition DEFAULT NULL): full compaction of every
 * bucket (or of one partition, "k1=v1,k2=v2" as Java's compact
 * procedure), one COMPACT snapshot.
 */
Datum
paimon_compact(PG_FUNCTION_ARGS)
{
	MaintCall	mc;
	pm_compact_options o;
	pm_compact_result res;
	CompactProgress progress;
	pm_error	err;
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};
	HeapTuple	tuple;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("paimon_compact must be called in a context that accepts a record")));
	maint_begin(&mc, fcinfo);
	maint_open_table(&mc);
	pmfdw_refuse_mapped_external_write(pm_table_schema(mc.table), mc.opts.external_path_map,
									   mc.opts.table);
	memset(&o, 0, sizeof(o));
	if (!PG_ARGISNULL(1))
		o.partition = text_to_cstring(PG_GETARG_TEXT_PP(1));
	progress.last = GetCurrentTimestamp();
	o.progress = compact_progress;
	o.progress_ctx = &progress;
	pm_error_clear(&err);
	if (pm_table_compact(mc.table, mc.opts.table_path, &o, &res, &err) != PM_OK)
		pmfdw_error(&err);
	/* Java's compact procedures commit through TableCommitImpl: auto tags too */
	if (res.snapshot_id > 0)
	{
		pm_tag_auto_result tags;

		if (pm_tag_auto_run(mc.env, mc.io, mc.opts.table_path, pm_table_schema(mc.table),
							mc.arena, &tags, &err) != PM_OK)
			ereport(WARNING,
					(errmsg("paimon_compact: the automatic tags were not created"),
					 errdetail("%s", err.message),
					 errhint("The compaction is committed. The next commit to the table creates the tags missed.")));
	}
	maint_end(&mc);
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Int64GetDatum(res.snapshot_id);
	nulls[0] = res.snapshot_id == 0;
	values[1] = Int32GetDatum(res.buckets);
	values[2] = Int32GetDatum(res.files_in);
	values[3] = Int32GetDatum(res.files_out);
	values[4] = Int64GetDatum(res.rows_out);
	tuple = heap_form_tuple(tupdesc, values, nulls);
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}
