/*-------------------------------------------------------------------------
 * kv_file_writer.h
 *	  Level-0 KeyValue data files of a primary-key table, as Java's
 *	  KeyValueFileWriterFactory / KeyValueDataFileWriterImpl write them.
 *
 * File columns (KeyValue.schema): _KEY_<k> for each trimmed primary key
 * field (field id + Integer.MAX_VALUE / 2), _SEQUENCE_NUMBER BIGINT NOT
 * NULL (id Integer.MAX_VALUE - 1), _VALUE_KIND TINYINT NOT NULL (id
 * Integer.MAX_VALUE - 2), then every table field as it is in the schema.
 *
 * DataFileMeta of a file: min_key / max_key the serialized BinaryRow of the
 * first / last key written (rows come sorted by key); key stats of the
 * _KEY_ columns in "all mode" (not dense); value stats of the table fields
 * (dense per metadata.stats-dense-store); each column's stats mode from
 * StatsCollectorFactories over the file's column names (_KEY_*,
 * _SEQUENCE_NUMBER and _VALUE_KIND are system fields: truncate(128));
 * sequence range the min/max _SEQUENCE_NUMBER written; delete row count
 * the -U/-D rows; level 0; file source APPEND; name
 * <data-file.prefix><uuid>-<n>.<format>. A file is rolled once it reaches
 * target-file-size (RollingFileWriter).
 *
 * data-file.thin-mode (KeyValueThinDataFileWriterImpl): the file has no
 * _KEY_ columns (the readers take the key fields' value columns); those
 * value columns take truncate(128) statistics uncounted (not in Avro
 * files), and the key stats are theirs. Batches keep the full layout
 * (file_type) everywhere; only the files leave the _KEY_ columns out.
 *
 * Spec: apache/paimon release-1.4.2 KeyValue.java, SpecialFields.java,
 * io/KeyValueFileWriterFactory.java, io/KeyValueDataFileWriter.java,
 * io/KeyValueDataFileWriterImpl.java, utils/StatsCollectorFactories.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_KV_FILE_WRITER_H
#define PM_LSM_KV_FILE_WRITER_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/vector.h"
#include "format/format_writer.h"
#include "io/fileio.h"
#include "table/schema.h"
#include "table/split.h"
#include "table/stats_build.h"
#include "table/write_options.h"

/* The file layout of a table's KeyValue files (built once per writer). */
typedef struct pm_kv_layout
{
	const pm_schema *schema;
	const pm_write_options *opt;
	int			nkeys;			/* trimmed primary key fields */
	const int  *key_fields;		/* indexes into the schema's fields */
	const pm_type *key_type;	/* ROW<_KEY_k ...> */
	const pm_type *file_type;	/* ROW<_KEY_k ..., _SEQUENCE_NUMBER, _VALUE_KIND, fields ...> */
	bool		thin;			/* data-file.thin-mode */
	int			phys_offset;	/* first column of file_type in the files: nkeys if thin */
	const pm_type *phys_type;	/* the files' columns: file_type from phys_offset on */
	pm_stats_mode *modes;		/* per column of phys_type */
	/* the levels with their own stats mode or format, and their modes */
	int			nspecial;
	int		   *special_levels;
	pm_stats_mode **special_modes;
	pm_format_write_options fopt;
} pm_kv_layout;

extern pm_code pm_kv_layout_create(const pm_schema *schema, const pm_write_options *opt,
								   pm_arena *arena, pm_kv_layout **out, pm_error *err);

/*
 * A batch as a file holds it (phys_type) seen in file_type's layout: the
 * key columns of a thin file are its key fields' value columns. cols: room
 * for file_type's columns (phys's own vectors are referenced).
 */
extern void pm_kv_layout_full_batch(const pm_kv_layout *l, const pm_batch *phys,
									pm_vector *cols, pm_batch *out);

/* Files of one bucket, rolled at target-file-size. */
typedef struct pm_kv_file_writer pm_kv_file_writer;

/*
 * A writer for bucket directory dir (created on the first file); file
 * names <prefix><uuid>-<n>.<format> with n taken from and advanced in
 * *file_counter. File metas go to meta_arena.
 */
extern pm_code pm_kv_file_writer_open(const pm_env *env, pm_fileio *io,
									  const pm_kv_layout *layout, const char *dir,
									  const char *uuid, int64_t *file_counter,
									  pm_arena *meta_arena, pm_kv_file_writer **out,
									  pm_error *err);

/*
 * Write rows in file_type's layout, sorted by key after every row written
 * before (the caller merges). The batch can be reused when this returns.
 */
/*
 * Make the writer's files changelog files (changelog-producer = input):
 * named with changelog-file.prefix, otherwise written and described as
 * level-0 data files (same format, compression, stats, file indexes,
 * file source APPEND). Call before the first write.
 */
extern void pm_kv_file_writer_set_changelog(pm_kv_file_writer *w);

/*
 * The level of the files this writer makes (default 0): their format,
 * compression and stats modes (file.format.per.level,
 * file.compression.per.level, metadata.stats-mode.per.level). The caller sets the files' level in their
 * metas. Call before the first write.
 */
extern void pm_kv_file_writer_set_level(pm_kv_file_writer *w, int level);

extern pm_code pm_kv_file_writer_write(pm_kv_file_writer *w, const pm_batch *batch,
									   pm_error *err);

/*
 * Write a batch of merged rows (the schema's nfields fields, then
 * _SEQUENCE_NUMBER and _VALUE_KIND, as the merge reader gives them for
 * compaction) in file_type's layout; cols: room for nkeys + 2 + nfields
 * vectors (the batch's own are referenced, not copied).
 */
extern pm_code pm_kv_file_writer_write_merged(pm_kv_file_writer *w, const pm_kv_layout *l,
											  const pm_batch *merged, int nfields,
											  pm_vector *cols, pm_error *err);

/*
 * Finish the open file; *files / *nfiles: every file this writer made
 * (metas in meta_arena). The writer is freed, also on failure; files it
 * made stay (the caller removes them on abort).
 */
extern pm_code pm_kv_file_writer_close(pm_kv_file_writer *w, pm_data_file_meta **files,
									   int *nfiles, pm_error *err);

/* Discard the open file, free the writer; *files as for close. */
extern void pm_kv_file_writer_abort(pm_kv_file_writer *w, pm_data_file_meta **files,
									int *nfiles);

#endif							/* PM_LSM_KV_FILE_WRITER_H */
