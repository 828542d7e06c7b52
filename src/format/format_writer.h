/*-------------------------------------------------------------------------
 * format_writer.h
 *	  The common interface of the file format writers (Parquet, Avro,
 *	  ORC): column batches in, one file out, with per-column statistics.
 *
 * A writer creates one new file through the FileIO (pm_out_file_create:
 * the name must not exist), takes batches whose columns follow
 * options->schema (a ROW type: names, Paimon field ids and types exactly as
 * the table schema has them; the names and ids are what Java's readers
 * match on), and on finish returns the row count, the file size and, per
 * top-level column, min/max/null count computed from the values written.
 *
 * Statistics are exact and untruncated here; the table layer applies
 * metadata.stats-mode (none/counts/truncate(n)/full) when it builds the
 * manifest's SimpleStats. Columns of nested types (ARRAY/MAP/ROW/MULTISET)
 * report has_min_max = false (the table layer decides what Java would
 * record). FLOAT/DOUBLE order as Java's Float/Double.compare (parquet-mr's
 * comparator, SimpleStatsCollector's Comparable): -0.0 below 0.0, NaN
 * above every number, so a column holding NaN has max NaN (and min NaN
 * when every value is NaN). ORC: in ORC's own order instead (see
 * orc_writer.h), as Java reads them back from an ORC footer.
 *
 * Contract of every writer:
 *	- The bytes are what Apache Paimon's Java writer would accept and read
 *	  back row for row (Java's readers are the judge, not ours alone).
 *	- Every failure leaves no file behind: _abort (or a failed _finish)
 *	  discards the partial file.
 *	- Memory: a writer buffers at most one row group / block (the options
 *	  bound it) and reuses its buffers across row groups.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_FORMAT_WRITER_H
#define PM_FORMAT_FORMAT_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "common/value.h"
#include "common/vector.h"
#include "format/format_reader.h"
#include "io/fileio.h"

/*
 * ORC writer options (orc.* table options as OrcConf reads them); a zeroed
 * struct writes no dictionary and no bloom filter.
 */
typedef struct pm_orc_write_options
{
	/*
	 * orc.dictionary.key.threshold (Java's default 0.8): string columns whose
	 * distinct values in the first row group exceed this fraction of its
	 * non-null values are written DIRECT, the others DICTIONARY_V2; <= 0: none
	 */
	double		dictionary_threshold;
	const char *direct_columns; /* orc.column.encoding.direct: names, commas */
	const char *bloom_columns;	/* orc.bloom.filter.columns: names or "*" */
	double		bloom_fpp;		/* orc.bloom.filter.fpp, in (0, 1); 0 = 0.01 */
	/* orc.row.index.stride: rows per row index entry, >= 1000; 0 = 10000 */
	int32_t		row_index_stride;
} pm_orc_write_options;

typedef struct pm_format_write_options
{
	const pm_type *schema;		/* ROW: the columns of every batch, in order */
	/*
	 * Paimon's file.compression ("zstd", "snappy", "lz4", "gzip", "none"...;
	 * matched case-insensitively); an unknown codec is PM_ERR_UNSUPPORTED.
	 */
	const char *compression;
	int			zstd_level;		/* file.compression.zstd-level (Java default 1) */
	int64_t		row_group_bytes;	/* Parquet row group / Avro block target; 0 = default */
	int64_t		page_bytes;		/* Parquet page target; 0 = default */
	bool		dictionary;		/* Parquet dictionary encoding where it pays */
	pm_orc_write_options orc;	/* ORC only */
} pm_format_write_options;

/* Statistics of one top-level column of a written file. */
typedef struct pm_column_stats
{
	bool		has_min_max;	/* false: unknown (nested types, all NULL) */
	pm_value	min;			/* bytes point into the result's arena */
	pm_value	max;
	int64_t		null_count;
} pm_column_stats;

typedef struct pm_format_write_result
{
	int64_t		row_count;
	int64_t		file_size;
	int			ncols;
	pm_column_stats *stats;		/* ncols entries, in schema order */
} pm_format_write_result;

typedef struct pm_format_writer pm_format_writer;

/* What each format implements; embedded first in its writer struct. */
typedef struct pm_format_writer_ops
{
	pm_code		(*write) (pm_format_writer *w, const pm_batch *batch, pm_error *err);
	/* bytes written so far plus what is buffered (for rolling files) */
	int64_t		(*estimated_size) (pm_format_writer *w);
	pm_code		(*finish) (pm_format_writer *w, pm_arena *arena,
						   pm_format_write_result *result, pm_error *err);
	void		(*abort) (pm_format_writer *w);
} pm_format_writer_ops;

struct pm_format_writer
{
	const pm_format_writer_ops *ops;
};

/*
 * Create `path` and a writer for it. Implemented per format as
 * pm_parquet_writer_open / pm_avro_writer_open / pm_orc_writer_open with
 * this signature.
 */
/*
 * Whether format's writer takes compression name (file.compression,
 * orc.compress, a level's): what its open accepts, for checks before any
 * row is written.
 */
extern bool pm_format_writer_takes_compression(pm_file_format format, const char *name);

extern pm_code pm_format_writer_open(pm_file_format format, const pm_env *env,
									 pm_fileio *io, const char *path,
									 const pm_format_write_options *options,
									 pm_format_writer **out, pm_error *err);

/*
 * For the writers: the file side they share, embedded in each writer
 * struct: the FileIO, the new file, its path (named by every error), the
 * bytes appended so far and whether a step failed (then only abort is
 * left). `what` names the file in messages ("an ORC file").
 */
typedef struct pm_format_file
{
	pm_fileio  *io;
	pm_out_file *out;			/* NULL until created and once finished */
	char	   *path;			/* a copy, freed by pm_format_file_close */
	int64_t		pos;			/* bytes appended */
	bool		failed;
	const char *what;
} pm_format_file;

/* Copy path (false when out of memory); nothing is created yet. */
extern bool pm_format_file_init(pm_format_file *f, const pm_env *env, pm_fileio *io,
								const char *path, const char *what);
/* Create the file (it must not exist); err names the path on failure. */
extern pm_code pm_format_file_create(pm_format_file *f, pm_error *err);
/* A step failed with err: mark the file failed, name it in err; err->code. */
extern pm_code pm_format_file_fail(pm_format_file *f, pm_error *err);
/* PM_ERR_NOMEM "out of memory writing <what>", through pm_format_file_fail */
extern pm_code pm_format_file_oom(pm_format_file *f, pm_error *err);
/* Append n bytes (nothing for n = 0), counted in pos. */
extern pm_code pm_format_file_append(pm_format_file *f, const void *p, size_t n,
									 pm_error *err);
/* Make the file durable and close it. */
extern pm_code pm_format_file_finish(pm_format_file *f, pm_error *err);
/* Discard the file if still open and free the path. */
extern void pm_format_file_close(pm_format_file *f, const pm_env *env);

/*
 * For the writers: PM_ERR_INVALID unless the batch has the columns of
 * `row` with their types. `file` names the format in the message
 * ("a Parquet", "an ORC", ...).
 */
extern pm_code pm_format_writer_check_batch(const pm_type *row, const pm_batch *batch,
											const char *file, pm_error *err);

/* Append a batch (its ncols and types must match options->schema). */
static inline pm_code
pm_format_writer_write(pm_format_writer *w, const pm_batch *batch, pm_error *err)
{
	return w->ops->write(w, batch, err);
}

static inline int64_t
pm_format_writer_estimated_size(pm_format_writer *w)
{
	return w->ops->estimated_size(w);
}

/*
 * Flush, write the footer, make the file durable and free the writer
 * (also on failure, after discarding the file). Statistics go to arena.
 */
static inline pm_code
pm_format_writer_finish(pm_format_writer *w, pm_arena *arena,
						pm_format_write_result *result, pm_error *err)
{
	return w->ops->finish(w, arena, result, err);
}

/* Discard the file and free the writer. NULL is a no-op. */
static inline void
pm_format_writer_abort(pm_format_writer *w)
{
	if (w != NULL)
		w->ops->abort(w);
}

#endif							/* PM_FORMAT_FORMAT_WRITER_H */
