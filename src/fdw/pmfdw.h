/*-------------------------------------------------------------------------
 * pmfdw.h
 *	  Internal interface between the files of src/fdw/ (the Postgres glue).
 *
 * Only src/fdw/ includes Postgres headers. It hands the core an allocator
 * backed by memory contexts and a FileIO backed by virtual file
 * descriptors, so an ERROR in the middle of a scan leaks neither memory nor
 * file descriptors, and turns core errors into ereport().
 *-------------------------------------------------------------------------
 */
#ifndef PMFDW_H
#define PMFDW_H

#include "postgres.h"

#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "lsm/table_read.h"
#include "nodes/pg_list.h"
#include "table/append_dv_write.h"
#include "table/table.h"
#include "datatype/timestamp.h"
#include "executor/tuptable.h"
#include "foreign/fdwapi.h"
#include "utils/rel.h"

/* ---- options.c ---- */
typedef struct PaimonFdwTableOptions
{
	char	   *warehouse;
	char	   *external_path_map;	/* NULL if unset */
	char	   *database;
	char	   *table;
	int64		snapshot_id;	/* 0: latest */
	char	   *tag;			/* NULL, or read this tag's snapshot */
	int64		timestamp_millis;	/* 0, or read the snapshot current then */
	char	   *table_path;		/* <warehouse>/<database>.db/<table> */
} PaimonFdwTableOptions;

extern void pmfdw_get_table_options(Oid foreigntableid, PaimonFdwTableOptions *opts);
extern int64 pmfdw_parse_snapshot_id(const char *value);
/* ERROR (42602) unless name may become one path component. */
extern void pmfdw_check_name(const char *kind, const char *name);
extern int64 pmfdw_parse_timestamp_millis(const char *value);

/*
 * Open the table a foreign table names (paimon_fdw.c): at version when
 * given, else the pinned or latest version, or the snapshot its options
 * ask for. Errors are reported.
 */
extern pm_table *pmfdw_open_table(const PaimonFdwTableOptions *opts, pm_env *env,
								  pm_fileio *io, const pm_table_version *version);

/* ---- estimate.c: row estimates and ANALYZE ---- */
struct PlannerInfo;
struct RelOptInfo;
struct PathTarget;

/*
 * Rows of the planned scan that the quals keep: those pushed with constants
 * estimated from the files' statistics (scan_estimate.h), the others at
 * Postgres' selectivity; -1 when no qual is pushed.
 */
extern double pmfdw_metadata_rows(struct PlannerInfo *root, struct RelOptInfo *baserel,
								  Oid foreigntableid, pm_table *table, pm_scan *scan);

/*
 * Set baserel->tuples and ->rows: without ANALYZE statistics (analyzed
 * false) metadata_rows when known, else Postgres' selectivity of the quals.
 */
extern void pmfdw_set_rel_size(struct PlannerInfo *root, struct RelOptInfo *baserel,
							   bool analyzed, int64 files_total, int64 files_selected,
							   int64 rows_selected, double metadata_rows);

extern bool paimonAnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func,
									  BlockNumber *totalpages);

/*
 * Before ANALYZE, the planner's statistics of a one-column primary key say
 * its values are distinct (get_relation_stats_hook), so a join on it is
 * estimated at one row per outer row. Installed by _PG_init.
 */
extern void pmfdw_stats_hook_init(void);
/* rel's one-column primary key (paimon_fdw.c), InvalidAttrNumber if none */
extern AttrNumber pmfdw_rel_unique_attnum(struct RelOptInfo *rel);

/* ---- snapshot_pin.c: one version of a table per statement / transaction ---- */
/* The version this statement or transaction reads of table_path, or NULL. */
extern const pm_table_version *pmfdw_pinned_version(const char *table_path);
/* Remember that it reads version (after an open of the latest). */
extern void pmfdw_pin_version(const char *table_path, pm_table_version version);

/* ---- error.c ---- */
extern int	pmfdw_sqlstate(pm_code code);
extern void pmfdw_report(int elevel, const pm_error *err);
/* ereport(ERROR) of a core error; does not return. */
extern void pmfdw_error(const pm_error *err) pg_attribute_noreturn();

/* ---- env.c: allocator and FileIO for the core ---- */
/* A pm_env allocating in cxt (NULL on OOM, never ERROR). Lives in cxt. */
extern pm_env *pmfdw_env_create(MemoryContext cxt);
/* A FileIO over VFDs, reading and writing; lives in cxt. */
extern pm_fileio *pmfdw_fileio_create(MemoryContext cxt);
/* Remove every file this FileIO created (that still exists); how many. */
extern int	pmfdw_fileio_remove_created(pm_fileio *io);
/* Forget the files created so far (they were committed). */
extern void pmfdw_fileio_forget_created(pm_fileio *io);
/*
 * table_cache.c: the table at its latest version (version NULL) or at
 * version, from the backend's cache when that is still it; NULL: open it
 * the usual way. A copy on env and io.
 */
extern pm_table *pmfdw_table_cache_open(const PaimonFdwTableOptions *opts, pm_env *env,
										pm_fileio *io, const pm_table_version *version);
/*
 * The point lookups' base scan of table (a copy the cache handed out) with
 * no quals, kept with the cached version; NULL: plan one. Not to be freed.
 */
extern pm_scan *pmfdw_table_cache_base_scan(const PaimonFdwTableOptions *opts,
											const pm_table *table,
											const pm_scan_options *options);
/* The open-file cache: its limit (GUC) changed; how many files it holds. */
extern int	pmfdw_open_file_cache;
extern void pmfdw_file_cache_limit_changed(void);
extern int	pmfdw_file_cache_count(void);

/*
 * Sizes of the memory contexts the FDW creates. Built with
 * -DPMFDW_UNCACHED_CONTEXTS (test/valgrind/run.sh does), their first block
 * differs from Postgres' defaults, so a deleted context goes back to malloc
 * instead of Postgres' context freelist and valgrind sees any use of its
 * memory after the delete.
 */
#ifdef PMFDW_UNCACHED_CONTEXTS
#define PMFDW_CONTEXT_SIZES 0, 16 * 1024, ALLOCSET_DEFAULT_MAXSIZE
#else
#define PMFDW_CONTEXT_SIZES ALLOCSET_DEFAULT_SIZES
#endif

/* Paimon's dates and timestamps count from 1970-01-01, Postgres' from 2000-01-01 */
#define UNIX_TO_PG_DAYS		((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE))
#define UNIX_TO_PG_MICROS	(UNIX_TO_PG_DAYS * USECS_PER_DAY)

/* ---- typemap.c ---- */
/* Postgres type text for a Paimon type ("bigint", "numeric(10,2)", "jsonb"). */
extern char *pmfdw_type_sql(const pm_type *type);
/* Type OID the column of this Paimon type maps to. */
extern Oid	pmfdw_type_oid(const pm_type *type);

/*
 * Converting vector values to Datums for one target column. Prepared once
 * per scan (type input functions looked up), applied per row.
 */
typedef struct PmfdwColumnConverter
{
	const pm_type *ptype;
	Oid			pgtype;			/* target column type */
	const char *colname;		/* for messages */
	Oid			elemtype;		/* for arrays */
	int16		elemlen;
	bool		elembyval;
	char		elemalign;
} PmfdwColumnConverter;

extern void pmfdw_converter_init(PmfdwColumnConverter *conv, const pm_type *ptype,
								 Oid pgtype, const char *colname);
extern Datum pmfdw_convert_value(PmfdwColumnConverter *conv, const pm_vector *vec,
								 int64 row, bool *isnull);

/*
 * Convert a whole vector (nrows values) into values[]/nulls[] in the
 * current memory context: tight per-type loops, and one allocation for all
 * the text/bytea values of the column. The Datums stay valid as long as
 * that memory context and the vector do.
 */
extern void pmfdw_convert_column(PmfdwColumnConverter *conv, const pm_vector *vec,
								 int64 nrows, Datum *values, bool *nulls);

/* A DECIMAL's unscaled value as numeric with `scale` fraction digits. */
extern Datum pmfdw_numeric_from_decimal(pm_int128 unscaled, int scale);

/*
 * Days / microseconds since 1970-01-01 as a date / timestamp(tz) Datum;
 * ERROR 22008 naming column `col` outside Postgres' range.
 */
extern Datum pmfdw_date_datum(int64 days, const char *col);
extern Datum pmfdw_timestamp_datum(int64 micros, const char *col);

/* ---- row_batch.c: inserted rows into column batches for the writer ---- */
typedef struct PmfdwRowBatch PmfdwRowBatch;

/*
 * A batch of up to capacity rows of row_type (the Paimon schema), filled
 * from the columns of rel matched by name. ERROR when a column has no
 * field or cannot feed it. Lives in the current memory context and env.
 */
extern PmfdwRowBatch *pmfdw_row_batch_create(pm_env *env, const pm_type *row_type,
											 Relation rel, int capacity);
/*
 * Append the slot's row (checked and converted; ERROR on a bad value) with
 * its row kind (a pm_row_kind: PM_ROW_INSERT for INSERT and COPY).
 */
extern void pmfdw_row_batch_add(PmfdwRowBatch *b, TupleTableSlot *slot, uint8 kind);
extern int64 pmfdw_row_batch_rows(const PmfdwRowBatch *b);
extern bool pmfdw_row_batch_full(const PmfdwRowBatch *b);
/* The rows added since the last reset, as a batch for pm_table_writer_write. */
extern const pm_batch *pmfdw_row_batch_get(PmfdwRowBatch *b);
/* Empty the batch, keeping its buffers. */
extern void pmfdw_row_batch_reset(PmfdwRowBatch *b);
/* The row kinds of the rows of the batch, or NULL when all are inserts. */
extern const uint8 *pmfdw_row_batch_kinds(const PmfdwRowBatch *b);
/* The column feeding the Paimon field, InvalidAttrNumber if none. */
extern AttrNumber pmfdw_row_batch_column(const PmfdwRowBatch *b, const char *field_name);

/*
 * Value checks shared by row_batch.c and row_batch_json.c; `col` names the
 * column in errors. A numeric rounded to DECIMAL(p,s) as its unscaled value
 * (22003 on overflow, NaN or infinity); CHAR/VARCHAR/(VAR)BINARY length
 * (22001); a timestamp rounded to the type's precision as microseconds
 * since 1970 (22008 if infinite).
 */
extern pm_int128 pmfdw_decimal_unscaled(Datum numeric, const pm_type *t, const char *col);
extern bool pmfdw_numeric_unscaled_fast(Datum d, int precision, int scale, pm_int128 *out,
										bool *inexact);
extern void pmfdw_check_length(const pm_type *t, const char *data, int len, const char *col);
extern int64 pmfdw_timestamp_micros(int64 pg_timestamp, const pm_type *t, const char *col);
/* An int2, int4 or int8 Datum (pgtype says which) as int64. */
extern int64 pmfdw_datum_int64(Datum d, Oid pgtype);

/* ---- row_batch_json.c: jsonb values into nested (and scalar) vectors ---- */
struct pm_vector_builder;

/*
 * Whether a Paimon type can be written from jsonb: nested types whose
 * leaves are scalars other than BLOB and VARIANT (and such scalars).
 */
extern bool pmfdw_json_writable(const pm_type *t);

/*
 * Append the jsonb value jb to the vector b builds (of any writable type),
 * in the encoding typemap.c reads (ROW object, MAP [[k, v], ...], ARRAY).
 * ERROR with a SQLSTATE naming column `col` on a bad value; string and
 * binary bytes appended are added to *bytes.
 */
extern void pmfdw_json_append(struct pm_vector_builder *b, Datum jb, const char *col,
							  int64 *bytes);

/* ---- xact_write.c: one writer per Paimon table per transaction ---- */
typedef struct PmfdwXactWriter PmfdwXactWriter;

/* The transaction's writer for the table (opened at first use). */
extern PmfdwXactWriter *pmfdw_xact_writer(const PaimonFdwTableOptions *opts);

/*
 * Refuse (0A000) writing new files of a table that puts them under
 * data-file.external-paths through a server with external_path_map: the
 * writer writes at the recorded roots, the server reads them remapped.
 */
extern void pmfdw_refuse_mapped_external_write(const struct pm_schema *schema, const char *path_map,
											   const char *name);
/* The schema rows follow (all fields, in order). */
extern const pm_type *pmfdw_xact_writer_row_type(PmfdwXactWriter *w);
/*
 * Hand a batch of rows to the writer (committed at transaction commit);
 * kinds: a pm_row_kind per row, or NULL for all inserts.
 */
extern void pmfdw_xact_writer_write(PmfdwXactWriter *w, const pm_batch *batch,
									const uint8 *kinds);
/* The table's latest schema, as the writer writes it. */
extern const struct pm_schema *pmfdw_xact_writer_schema(PmfdwXactWriter *w);
/* rowkind.field of a primary-key table (pm_table_writer_rowkind_field), or NULL */
extern const char *pmfdw_xact_writer_rowkind_field(PmfdwXactWriter *w);
/*
 * ERROR (0A000, the core's reason) unless the table takes rows of this
 * kind (a pm_row_kind); what names the statement ("UPDATE", "DELETE").
 */
extern void pmfdw_xact_writer_check_accepts(PmfdwXactWriter *w, uint8 kind, const char *what);

/*
 * Append tables with deletion vectors: UPDATE and DELETE mark the old
 * row's position deleted (table_write.h pm_table_writer_delete_position);
 * false if an earlier statement of the transaction deleted it already.
 */
extern bool pmfdw_xact_writer_deletes_by_position(PmfdwXactWriter *w);
extern bool pmfdw_xact_writer_delete_position(PmfdwXactWriter *w,
											  const pm_append_dv_file *file, int64 pos,
											  int64 base_snapshot);

/*
 * paimon_fdw.c: the scan of the target table of an UPDATE or DELETE on an
 * append table gives each row its data file and position in the file as
 * its ctid: block number = position, offset number = 1 + the ordinal of
 * the file among those the scan read (PmfdwRowFile, kept for the scan's
 * life, rescans included).
 */
typedef struct PmfdwRowFile
{
	pm_append_dv_file *file;
	int64		snapshot_id;	/* the snapshot the scan read */
} PmfdwRowFile;

/* Whether ps is a scan of this FDW. */
extern bool pmfdw_is_scan(PlanState *ps);

/*
 * The inner scan of a key join (key_join.c): its rows need only have a key
 * in keys (NULL: every row), the value of column attnum; the scan may drop
 * the others before converting them. Until the next call.
 */
struct pm_key_set;
extern void pmfdw_scan_set_join_keys(ForeignScanState *node, AttrNumber attnum,
									 const struct pm_key_set *keys);
/* rel's one-column trimmed primary key when it is an int2/int4/int8 column, else 0 */
extern AttrNumber pmfdw_rel_integer_key_attnum(struct PlannerInfo *root, struct RelOptInfo *rel);
/* A new path of the plain scan of rel (a Paimon table's) as GetForeignPaths costed it. */
struct Path;
extern struct Path *pmfdw_plain_scan_path(struct PlannerInfo *root, struct RelOptInfo *rel);
/* The file and position a ctid of the scan names; ERROR if it names none. */
extern const PmfdwRowFile *pmfdw_scan_row_file(ForeignScanState *node, ItemPointer tid,
											   int64 *pos);

/* ---- modify.c: INSERT, COPY FROM, UPDATE and DELETE ---- */
struct PlannerInfo;
struct ModifyTable;
struct ModifyTableState;
struct ResultRelInfo;
struct EState;
/* ERROR (42501) unless the user may write server files. */
extern void pmfdw_check_write_privilege(void);
extern int	paimonIsForeignRelUpdatable(Relation rel);
extern List *paimonPlanForeignModify(struct PlannerInfo *root, struct ModifyTable *plan,
									 Index resultRelation, int subplan_index);
extern void paimonBeginForeignModify(struct ModifyTableState *mtstate,
									 struct ResultRelInfo *rinfo, List *fdw_private,
									 int subplan_index, int eflags);
extern void paimonBeginForeignInsert(struct ModifyTableState *mtstate,
									 struct ResultRelInfo *rinfo);
extern TupleTableSlot *paimonExecForeignInsert(struct EState *estate,
											   struct ResultRelInfo *rinfo,
											   TupleTableSlot *slot, TupleTableSlot *planSlot);
struct RangeTblEntry;
extern void paimonAddForeignUpdateTargets(struct PlannerInfo *root, Index rtindex,
										  struct RangeTblEntry *target_rte,
										  Relation target_relation);
extern TupleTableSlot *paimonExecForeignUpdate(struct EState *estate,
											   struct ResultRelInfo *rinfo,
											   TupleTableSlot *slot, TupleTableSlot *planSlot);
extern TupleTableSlot *paimonExecForeignDelete(struct EState *estate,
											   struct ResultRelInfo *rinfo,
											   TupleTableSlot *slot, TupleTableSlot *planSlot);
/* also EndForeignInsert: COPY and routed partitions keep the same state */
extern void paimonEndForeignModify(struct EState *estate, struct ResultRelInfo *rinfo);

/* ---- import.c ---- */
/*
 * CREATE FOREIGN TABLE <qualified_name> with the columns of schema (as
 * IMPORT FOREIGN SCHEMA makes them); extra_options: ", name 'value'..." or
 * NULL.
 */
struct pm_schema;
extern char *pmfdw_foreign_table_sql(const char *qualified_name, const struct pm_schema *schema,
									 const char *servername, const char *database,
									 const char *table, const char *extra_options);

/* ---- predicate.c ---- */
struct pm_predicate;
struct pm_arena;
struct PlanState;
extern struct pm_predicate *pmfdw_build_predicate(List *quals, Relation rel, Index relid,
												  const pm_type *row_type,
												  struct pm_arena *arena,
												  struct PlanState *ps,
												  int *npushed, int *nruntime);
extern struct pm_predicate *pmfdw_exact_predicate(List *quals, Relation rel, Index relid,
												  const pm_type *row_type,
												  struct pm_arena *arena);

/* ---- lookup_path.c: point lookups and lookup joins ---- */
struct PlannerInfo;
struct RelOptInfo;

/* What a lookup's cost is estimated from (the scan planned with constants). */
typedef struct PmfdwLookupEstimate
{
	int64		files_selected;
	int64		rows_selected;
	int64		splits;
	int64		partitions;
	int			ncols;
} PmfdwLookupEstimate;

extern List *pmfdw_lookup_key_attnums(Relation rel, pm_table *table);
extern bool pmfdw_quals_pin_key(List *quals, Index relid, List *key_attnums);
/* ... each column to one value ("k = v"): one key, at most a row per partition */
extern bool pmfdw_quals_pin_one_key(List *quals, Index relid, List *key_attnums);
extern int	pmfdw_count_key_quals(List *quals, Index relid, List *key_attnums);
extern void pmfdw_lookup_cost(const PmfdwLookupEstimate *est, double rows, Cost *startup,
							  Cost *total);
extern void pmfdw_add_lookup_paths(struct PlannerInfo *root, struct RelOptInfo *baserel,
								   List *key_attnums, const PmfdwLookupEstimate *est);
extern int64 pmfdw_lookup_rows(const pm_env *env, const struct pm_predicate *key_filter,
							   const pm_type *row_type, const pm_batch *b, const int *fields,
							   int nfields, int64 *rows);
extern bool pmfdw_filter_fields_present(const struct pm_predicate *p, const int *col_of_field);

/* ---- key_join.c: joins on an integer key, the outer keys filtering the scan ---- */
/* Install the planner hook and register the custom scan (_PG_init). */
extern void pmfdw_key_join_init(void);

/* ---- guc.c ---- */
extern bool pmfdw_enable_pushdown;
extern bool pmfdw_enable_stats_pruning;
extern bool pmfdw_enable_file_index;
extern bool pmfdw_enable_row_group_pruning;
extern bool pmfdw_enable_page_index;
extern int	pmfdw_write_batch_size;
extern bool pmfdw_compact_at_commit;
extern bool pmfdw_enable_aggregate_pushdown;
extern bool pmfdw_enable_point_lookup;
extern bool pmfdw_enable_resident_lookup;
extern bool pmfdw_enable_key_order;
extern bool pmfdw_enable_key_join;
extern bool pmfdw_enable_topn_pushdown;
extern int	pmfdw_parallel_split_size;	/* kB, 0: files are units */
extern int	pmfdw_metadata_cache_kb;	/* 0: metadata and table caches off */

extern void pmfdw_guc_init(void);
extern void pmfdw_scan_options(pm_scan_options *options);

/* ---- agg_pushdown.c: aggregates computed on batches ---- */

/*
 * The WHERE clause evaluated on batches by the executors of pushed-down
 * aggregates and top-N: the next batch of read and, when pred is set and
 * drops some of its rows, the rows it keeps in *sel (a buffer in cxt, grown
 * as batches need; NULL: every row). NULL at the end. An error closes read
 * and ERRORs.
 */
typedef struct PmfdwBatchWhere
{
	const pm_env *env;
	const pm_predicate *pred;	/* NULL: every row */
	const int  *field_col;		/* batch column of each table field */
	MemoryContext cxt;
	uint8	   *sel;
	int64		sel_cap;
} PmfdwBatchWhere;

extern pm_batch *pmfdw_next_batch_where(PmfdwBatchWhere *where, pm_table_read *read,
										const uint8 **sel);
struct PlannerInfo;
struct RelOptInfo;
struct TupleTableSlot;
typedef struct PmfdwAggRelInfo PmfdwAggRelInfo;
typedef struct PmfdwAggExec PmfdwAggExec;

/*
 * What planning needs of the table's columns and quals (baserestrictinfo
 * of relid), allocated in cxt.
 */
extern PmfdwAggRelInfo *pmfdw_agg_rel_info(Relation rel, Index relid, List *quals,
										   const pm_type *row_type, MemoryContext cxt);
/*
 * The spec of an aggregation of input_rel the core can compute, or NIL;
 * *groups: the estimated number of result rows. partial: the partial
 * aggregation of a parallel plan (UPPERREL_PARTIAL_GROUP_AGG): each
 * participant returns the transition states of the rows it read, target
 * the partial grouping target; else target is the final one.
 */
extern List *pmfdw_agg_pushdown_spec(struct PlannerInfo *root, struct RelOptInfo *input_rel,
									 struct PathTarget *target, bool partial, Oid relid,
									 const PmfdwAggRelInfo *info, double *groups);
/* "count(*), sum(a) GROUP BY b" */
extern const char *pmfdw_agg_pushdown_text(List *spec);
/* Plans the scan (*scan, the caller frees it) with the spec's quals. */
extern PmfdwAggExec *pmfdw_agg_exec_begin(List *spec, Relation rel, pm_table *table,
										  pm_scan **scan, pm_env *env, MemoryContext parent);
/* Fill slot's values with the next result row; false after the last. */
extern bool pmfdw_agg_exec_next(PmfdwAggExec *ex, struct TupleTableSlot *slot);
extern void pmfdw_agg_exec_rescan(PmfdwAggExec *ex);
/*
 * A parallel partial aggregation: read only the units claim grants
 * (the table is the one every participant numbers units of), files of at
 * least part_bytes split into their row groups.
 */
extern void pmfdw_agg_exec_set_claim(PmfdwAggExec *ex, pm_unit_claim_fn claim, void *ctx,
									 int64 part_bytes);
/* Whether the rel's quals are none or all evaluated exactly on batches. */
extern bool pmfdw_agg_rel_quals_exact(const PmfdwAggRelInfo *info);
/*
 * A pm_type standing for the attribute's Paimon type (id and precision
 * only) when the column maps to it exactly; false otherwise.
 */
extern bool pmfdw_agg_rel_attr_type(const PmfdwAggRelInfo *info, AttrNumber attnum,
									pm_type *t);

/* ---- topn_pushdown.c: ORDER BY ... LIMIT n kept on batches ---- */
typedef struct PmfdwTopnExec PmfdwTopnExec;

/*
 * The spec of a top-N of input_rel (UPPERREL_ORDERED) the core can keep,
 * or NIL; *rows: the estimated result rows.
 */
extern List *pmfdw_topn_pushdown_spec(struct PlannerInfo *root, struct RelOptInfo *input_rel,
									  Oid relid, const PmfdwAggRelInfo *info, double *rows);
/* "c DESC NULLS LAST, a LIMIT 10" */
extern const char *pmfdw_topn_pushdown_text(List *spec);
/* The Vars the scan returns (its fdw_scan_tlist, flattened). */
extern List *pmfdw_topn_scan_vars(List *spec);
/* Plans the scan (*scan, the caller frees it) with the spec's quals. */
extern PmfdwTopnExec *pmfdw_topn_exec_begin(List *spec, Relation rel, pm_table *table,
											pm_scan **scan, pm_env *env,
											MemoryContext parent);
/* Fill slot's values with the next row in order; false after the last. */
extern bool pmfdw_topn_exec_next(PmfdwTopnExec *ex, struct TupleTableSlot *slot);
extern void pmfdw_topn_exec_rescan(PmfdwTopnExec *ex);
/* EXPLAIN ANALYZE: rows whose sort key / other columns were decoded, or NULL */
extern const char *pmfdw_topn_exec_late_text(PmfdwTopnExec *ex);

#endif							/* PMFDW_H */
