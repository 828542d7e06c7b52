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
#include "nodes/pg_list.h"
#include "table/table.h"
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
/* A FileIO over VFDs; lives in cxt. */
extern pm_fileio *pmfdw_fileio_create(MemoryContext cxt);

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

/* JSON text of a nested value (ROW object, MAP [[k,v],...], ARRAY). */
extern void pmfdw_append_json(StringInfo buf, const pm_vector *vec, int64 row);

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

/* ---- guc.c ---- */
extern bool pmfdw_enable_pushdown;
extern bool pmfdw_enable_stats_pruning;
extern bool pmfdw_enable_file_index;
extern bool pmfdw_enable_aggregate_pushdown;

extern void pmfdw_guc_init(void);
extern void pmfdw_scan_options(pm_scan_options *options);

/* ---- agg_pushdown.c: aggregates computed on batches ---- */
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
 * *groups: the estimated number of result rows.
 */
extern List *pmfdw_agg_pushdown_spec(struct PlannerInfo *root, struct RelOptInfo *input_rel,
									 struct RelOptInfo *output_rel, Oid relid,
									 const PmfdwAggRelInfo *info, double *groups);
/* "count(*), sum(a) GROUP BY b" */
extern const char *pmfdw_agg_pushdown_text(List *spec);
/* Plans the scan (*scan, the caller frees it) with the spec's quals. */
extern PmfdwAggExec *pmfdw_agg_exec_begin(List *spec, Relation rel, pm_table *table,
										  pm_scan **scan, pm_env *env, MemoryContext parent);
/* Fill slot's values with the next result row; false after the last. */
extern bool pmfdw_agg_exec_next(PmfdwAggExec *ex, struct TupleTableSlot *slot);
extern void pmfdw_agg_exec_rescan(PmfdwAggExec *ex);

#endif							/* PMFDW_H */
