/*-------------------------------------------------------------------------
 * file_index_write.h
 *	  The file indexes of one data file being written, as Java 1.4.2's
 *	  DataFileIndexWriter builds them: one index per (column, kind) that
 *	  the table's file-index.<kind>.columns options name, fed every row
 *	  of the file in order, serialized into one container
 *	  (FileIndexFormat v1) that goes into the manifest entry
 *	  (DataFileMeta.embeddedIndex) when it is at most
 *	  file-index.in-manifest-threshold bytes, else into the sidecar file
 *	  "<data file>.index" whose name joins DataFileMeta.extraFiles.
 *
 * Kinds written: "bloom-filter", "bitmap" (version 2 unless the column's
 * version option says 1), "range-bitmap", "bsi"; the table layer
 * (table/file_index_options.c) turns the options into a plan and refuses
 * the rest by name. Container order: Java serializes its maps in HashMap
 * order (index/java_hash_map.h); the plan fixes the order of columns and
 * kinds once, following how FileIndexOptions and DataFileIndexWriter
 * fill their maps.
 *
 * Spec: ../shared/docs/paimon-format-data.md §6.1-6.3, 6.10;
 * io/DataFileIndexWriter.java, fileindex/FileIndexFormat.java,
 * fileindex/FileIndexOptions.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_INDEX_FILE_INDEX_WRITE_H
#define PM_INDEX_FILE_INDEX_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "common/vector.h"
#include "io/fileio.h"

typedef enum pm_file_index_kind
{
	PM_FILE_INDEX_BLOOM_FILTER,
	PM_FILE_INDEX_BITMAP,
	PM_FILE_INDEX_RANGE_BITMAP,
	PM_FILE_INDEX_BSI
} pm_file_index_kind;

/* One index of the plan: a column (of the written rows) and a kind with its options. */
typedef struct pm_file_index_spec
{
	int			field;			/* index into the row type the writer is fed */
	const char *column;
	pm_file_index_kind kind;
	int64_t		items;			/* bloom-filter */
	double		fpp;
	int			bitmap_version; /* bitmap */
	int64_t		block_size;
	int64_t		chunk_size;		/* range-bitmap */
} pm_file_index_spec;

typedef struct pm_file_index_plan
{
	const pm_type *row_type;	/* the columns the writer is fed (value columns) */
	int			nspecs;
	pm_file_index_spec *specs;	/* in the container's order */
	int64_t		in_manifest_threshold;
} pm_file_index_plan;

/* The name Java uses for a kind ("bloom-filter", "bitmap", "range-bitmap", "bsi"). */
extern const char *pm_file_index_kind_name(pm_file_index_kind kind);

/*
 * Whether a kind can index a column of this type (Java's writer refuses
 * the others when it is created).
 */
extern bool pm_file_index_kind_supports(pm_file_index_kind kind, const pm_type *type);

/*
 * Order the specs as Java's maps will serialize them. On entry the specs
 * are in the order FileIndexOptions met them (column by column, and kinds
 * of a column in the order of their options); each spec's column must be
 * a field of row_type. false on out-of-memory.
 */
extern bool pm_file_index_plan_order(const pm_env *env, pm_file_index_plan *plan, pm_arena *arena);

/* The indexes of one data file. */
typedef struct pm_file_index_writer pm_file_index_writer;

extern pm_code pm_file_index_writer_open(const pm_env *env, const pm_file_index_plan *plan,
										 pm_file_index_writer **out, pm_error *err);

/*
 * Feed rows: cols[first_col + f] is field f of the plan's row type, for
 * batch->nrows rows.
 */
extern pm_code pm_file_index_writer_write(pm_file_index_writer *w, const pm_batch *batch,
										  int first_col, pm_error *err);

/*
 * Serialize the container. Embedded (size <= threshold): *embedded and
 * *embedded_len (in arena), *extra_file NULL. Else write the sidecar
 * data_file_path + ".index" through io and set *extra_file to its name (in
 * arena) and *extra_path to its path; *embedded NULL. The writer stays
 * to be freed.
 */
extern pm_code pm_file_index_writer_finish(pm_file_index_writer *w, pm_fileio *io,
										   const char *data_file_path, pm_arena *arena,
										   const uint8_t **embedded, int32_t *embedded_len,
										   const char **extra_file, const char **extra_path,
										   pm_error *err);

/* The container bytes alone (tests): in arena. */
extern pm_code pm_file_index_writer_serialize(pm_file_index_writer *w, pm_arena *arena,
											  uint8_t **bytes, size_t *len, pm_error *err);

extern void pm_file_index_writer_free(pm_file_index_writer *w);

#endif							/* PM_INDEX_FILE_INDEX_WRITE_H */
