/*-------------------------------------------------------------------------
 * table_int.h
 *	  Internals shared by the files of src/table/ (not for other layers).
 *
 * pm_table: an opened table at one snapshot. All table-lifetime memory
 * lives in table->arena; schemas of older schema ids are loaded lazily and
 * cached there (files carry the schema they were written with).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_TABLE_INT_H
#define PM_TABLE_TABLE_INT_H

#include "row/bucket_function.h"
#include "table/path_map.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"

struct pm_table
{
	const pm_env *env;
	pm_fileio  *io;
	pm_arena   *arena;
	char	   *path;			/* table directory, no trailing slash */
	pm_path_map *path_map;
	pm_snapshot *snapshot;		/* NULL: no snapshot yet */
	const pm_schema *schema;	/* the reading schema */
	int			nschemas;		/* cache of schemas by id */
	int			schemas_cap;
	const pm_schema **schemas;
	int			npartition;		/* partition keys as table field indexes */
	int		   *partition_fields;
	const pm_type *partition_type;	/* ROW of the partition fields */
	int			ntrimmed_pk;
	int		   *trimmed_pk;
	const char *partition_default_name;
	const pm_schema *options_ok;	/* schema whose options passed pm_table_options_check */
};

struct pm_scan
{
	pm_table   *table;
	pm_arena   *arena;
	pm_scan_stats stats;
	int			nsplits;
	pm_split   *splits;
	bool		needs_merge;	/* primary-key table: src/lsm/ must merge */
	bool		has_deletion_vectors;	/* some selected file has a DV */
	pm_scan_options options;	/* pruning stages in use */
	bool		every_level;	/* also the level-0 files batch reads skip */
	bool		postpone_only;	/* only the postpone bucket's (-2) files */
	const pm_predicate *filter; /* copy of the planning filter (in arena) */
	const pm_predicate *key_filter; /* point lookups: the keys (point_lookup.h) */
	const pm_value *max_key;	/* ... and the largest of them in key order */
	/* rows the file indexes leave in kept files, sorted by file (pm_scan_file_rows) */
	int			nfile_rows;
	int			file_rows_cap;
	struct pm_file_rows *file_rows;
	pm_part_keep_fn part_keep;	/* pm_scan_set_part_keep, or NULL */
	void	   *part_keep_ctx;
	pm_row_keep_fn row_keep;	/* pm_scan_set_row_keep, or NULL */
	void	   *row_keep_ctx;
	int			row_keep_field;
	int64_t		part_unit_bytes;	/* pm_scan_set_part_units; 0: files are units */
	int			participants;	/* pm_scan_set_participants; 0: unknown */
	/*
	 * Point lookups planned on this scan (point_lookup.c), per split: each
	 * file's [_MIN_KEY, _MAX_KEY] decoded once with the key types of schema
	 * lookup_schema, the files newest first (in arena); NULL until a
	 * lookup asks.
	 */
	struct pm_lookup_split *lookup_splits;
	int64_t		lookup_schema;
	/* resident lookups on this scan (point_lookup.c): NULL until one asks */
	struct resident_base *resident;
};

/*
 * The row selection of one kept data file: file-index row bitmaps, or a
 * point lookup's key rows (keys_placed: the rows of the pages that hold
 * the keys' first fields, or with rows_exact, the keys' own rows, each
 * holding a key).
 */
typedef struct pm_file_rows
{
	const pm_data_file_meta *file;
	const pm_row_selection *rows;
	bool		keys_placed;
	bool		rows_exact;
} pm_file_rows;

/* "<prefix><decimal long>" -> id (schema.c); false if not of that form. */
extern bool pm_versioned_name_id(const char *name, const char *prefix, int64_t *id);

/*
 * The smallest and largest id of the "<prefix><id>" files in dir (0, 0 if
 * none or no dir).
 */
extern pm_code pm_versioned_id_range(pm_fileio *io, const char *dir, const char *prefix,
									 pm_arena *arena, int64_t *lo, int64_t *hi, pm_error *err);

/* The format of a metadata file from its magic bytes (Avro, ORC or Parquet). */
extern pm_code pm_metadata_file_format(pm_fileio *io, const char *path,
									   pm_file_format *format, pm_error *err);

/*
 * Called for row `row` of a batch of a metadata file; anything but PM_OK
 * stops the scan.
 */
typedef pm_code (*pm_metadata_row_fn) (void *ctx, const pm_batch *b, int64_t row,
									   pm_error *err);

/*
 * Read a metadata file (manifest list, manifest, index manifest: Avro or
 * ORC, told apart by their magic) as rows of the Paimon ROW type written as
 * type_text, handing every row to fn. Errors name the file.
 */
extern pm_code pm_metadata_file_scan(const pm_env *env, pm_fileio *io, const char *path,
									 const char *type_text, pm_arena *arena,
									 pm_metadata_row_fn fn, void *ctx, pm_error *err);

/*
 * Make room for one more element in an arena array of *cap elements of
 * elem_size holding n; false on out-of-memory or past max_elems.
 */
extern bool pm_arena_array_grow(pm_arena *arena, void **array, int *cap, int n,
								size_t elem_size, int max_elems);

/*
 * The bucket-key fields (bucket-key option, else the trimmed primary key)
 * as table field indexes, at most max, and the table's bucket function
 * (bucket-function.type); false when a name or the function is unknown,
 * or the function does not take those fields' types (scan_plan.c).
 */
extern bool pm_table_bucket_key_fields(const pm_table *t, int *idx, int max, int *n,
									   pm_bucket_function *fn);

/*
 * Whether a planned file's indexes (embedded, or its resolved .index
 * sidecar) prove that filter matches no row (*skips), under the same rules
 * as planning: key fields only for files that are merged, nothing when the
 * scan's file-index stage is off (scan_plan.c).
 */
extern pm_code pm_scan_file_index_skips(pm_scan *scan, const pm_predicate *filter,
										const pm_data_file_meta *f, pm_arena *tmp,
										bool *skips, pm_error *err);

/*
 * A deep copy of p in arena (literals' bytes included), NULL on
 * out-of-memory or a tree too deep (scan_plan.c).
 */
extern pm_predicate *pm_predicate_copy(pm_arena *arena, const pm_predicate *p,
									   const pm_type *row);

#endif							/* PM_TABLE_TABLE_INT_H */
