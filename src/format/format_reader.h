/*-------------------------------------------------------------------------
 * format_reader.h
 *	  The common interface of the file format readers (Parquet, ORC, Avro).
 *
 * A reader opens one file and yields column batches (common/vector.h) of the
 * columns it is asked for. The request is a ROW type whose fields name the
 * columns as the file's writer named them (the table layer resolves schema
 * evolution by field id and asks by the names of the data file's schema).
 * Nested ROW types in the request may list a subset of the sub-fields.
 *
 * Contract of every reader:
 *	- A requested field absent from the file reads as NULLs.
 *	- File values are converted to the requested type where Paimon's own
 *	  readers would (e.g. Parquet INT32 with INT(8) annotation -> TINYINT);
 *	  anything else is PM_ERR_UNSUPPORTED, naming the column.
 *	- Bytes from disk are checked before use: a corrupt file gives
 *	  PM_ERR_CORRUPT with err->path set, never a crash or a hang.
 *	- A batch and its vectors stay valid until the next call to _next or
 *	  _close; the reader owns them.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_FORMAT_READER_H
#define PM_FORMAT_FORMAT_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/env.h"
#include "common/error.h"
#include "common/type.h"
#include "common/value.h"
#include "common/vector.h"
#include "format/chunk_buffers.h"
#include "io/fileio.h"

typedef enum pm_file_format
{
	PM_FORMAT_PARQUET = 0,
	PM_FORMAT_ORC,
	PM_FORMAT_AVRO
} pm_file_format;

#define PM_DEFAULT_BATCH_SIZE 4096

/*
 * Skipping parts of a file (Parquet row groups, ORC stripes) by their
 * statistics. Before reading a part with rows, the reader calls the
 * filter with what the part's statistics say about each requested column
 * (ranges[i] for field i of the request, min/max in the requested type;
 * known = false where the statistics are missing or cannot be trusted,
 * e.g. nested columns, INT96, unsigned or unknown sort orders) and skips
 * the part when it returns false. Batches keep their file positions
 * (batch->first_row) across skipped parts.
 */
typedef bool (*pm_part_filter_fn) (void *ctx, const pm_field_range *ranges, int nranges,
								   int64_t nrows);

/*
 * Late materialization: sel[i] = 1 where row i of batch may match, else 0
 * (an exact filter: rows it rejects are dropped). Only the columns the
 * reader was told the filter reads are filled in batch.
 */
typedef pm_code (*pm_row_filter_fn) (void *ctx, const pm_batch *batch, uint8_t *sel,
									 pm_error *err);

/*
 * Rows of a file that may match (from a file index), file positions in
 * sorted, disjoint ranges [start[i], end[i]). Readers that can (Parquet,
 * flat columns) read only the pages holding them and return only them;
 * others return every row (the caller filters rows anyway).
 */
typedef struct pm_row_selection
{
	int64_t		n;
	const int64_t *start;
	const int64_t *end;
} pm_row_selection;

/* Whether sel holds a row of file rows [start, end) (ranges sorted, disjoint). */
extern bool pm_row_selection_holds(const pm_row_selection *sel, int64_t start, int64_t end);

/*
 * "Field `field` of the request equals one of `values`" (values of the
 * requested type, none NULL): a conjunct of the scan's filter. ORC: a
 * stripe whose BLOOM_FILTER_UTF8 filters reject every value of one probe
 * in every row group is skipped as the part filter would skip it (integer,
 * DATE, VARCHAR, binary, DECIMAL, FLOAT and DOUBLE fields; others and
 * columns without bloom filters are ignored). Other formats ignore them.
 */
typedef struct pm_equal_probe
{
	int			field;
	int			nvalues;
	const pm_value *values;
} pm_equal_probe;

typedef struct pm_format_read_options
{
	const pm_type *schema;		/* ROW: the columns to read, by name */
	int			batch_size;		/* max rows per batch; 0 = default */
	/*
	 * The file's size when the caller knows it (the manifest's), else 0:
	 * with the metadata cache holding the footer under it, the Parquet
	 * reader opens the file only when it has something to read.
	 */
	int64_t		file_size;
	/* Name of the time zone to read ORC TIMESTAMP (not _LTZ) columns in; NULL = UTC */
	const char *orc_reader_timezone;
	/*
	 * Table option orc.timestamp-ltz.legacy.type = false: TIMESTAMP_LTZ values
	 * in ORC TIMESTAMP_INSTANT columns are the instants themselves. false (the
	 * zero default) = Paimon's default legacy encoding (see orc_reader.h).
	 */
	bool		orc_ltz_instant;
	/* NULL: read every part (Avro ignores it) */
	pm_part_filter_fn part_filter;
	void	   *part_filter_ctx;
	/*
	 * Parquet: the caller knows every row of row_selection matches (a point
	 * lookup's placed keys), so a row group holding one is not judged by
	 * its statistics: part_filter is asked with no ranges (NULL, 0), to
	 * count it (and to claim it).
	 */
	bool		part_filter_no_stats;
	/*
	 * Parquet page pruning (parquet_page_select.h; ORC row groups: see
	 * orc_groups_total below): the filter is asked,
	 * with part_filter_ctx, about pieces of a row group the part filter
	 * kept, with what the pages' ColumnIndex says (nrows: the piece's
	 * rows). NULL: page indexes are not read. Batches then hold rows of
	 * one kept range each (first_row stays the file position).
	 */
	pm_part_filter_fn page_filter;
	/* NULL: every row */
	const pm_row_selection *row_selection;
	/*
	 * Row groups (Parquet) or stripes (ORC) that hold no row of
	 * row_selection are skipped before their statistics are read or the
	 * part filter is asked; if not NULL, incremented for each.
	 */
	int64_t    *parts_unselected;
	/*
	 * Parquet, flat columns only: the columns row_filter_cols[i] marks are
	 * decoded first, row_filter (ctx part_filter_ctx) judges their rows, and
	 * the other columns are decoded only for the span of rows it keeps in
	 * each batch (their pages before it are skipped without decoding); a
	 * batch it rejects whole costs no other column. NULL: off.
	 */
	pm_row_filter_fn row_filter;
	const bool *row_filter_cols;	/* per requested column */
	/*
	 * The filter keeps fewer rows as the read goes on (a top-N's heap):
	 * late materialization stays on even where the first batches kept
	 * most of their rows. false: the reader may turn it off.
	 */
	bool		row_filter_tightens;
	/* if not NULL, incremented: data pages of the columns read in the row
	 * groups read whose OffsetIndex was used, and those of them skipped */
	int64_t    *pages_total;
	int64_t    *pages_skipped;
	/*
	 * ORC: the row groups of the stripes read (flat columns, a row index in
	 * the file) are asked of page_filter, with their RowIndexEntry
	 * statistics, and of row_selection; if not NULL, incremented: the row
	 * groups whose row index was used, and those of them skipped.
	 */
	int64_t    *orc_groups_total;
	int64_t    *orc_groups_skipped;
	/* ORC bloom filters (pm_equal_probe); if parts_bloom_skipped is not
	 * NULL it counts the stripes they skipped */
	const pm_equal_probe *equal_probes;
	int			nequal_probes;
	int64_t    *parts_bloom_skipped;
	/*
	 * Parallel reads by units (Parquet only; others ignore it): the reader
	 * asks unit_claim (ctx part_filter_ctx), in file order, about each unit
	 * of each row group the part filter keeps and reads only the rows of
	 * the units it takes. A row group of flat columns holding more than
	 * unit_bytes compressed bytes, where a requested column has an
	 * OffsetIndex, is cut into about that many bytes' units at the page
	 * boundaries of the requested column with the longest OffsetIndex (the same cuts from the same footer and
	 * page index in every participant); another row group is one unit.
	 * NULL: every row group read.
	 *
	 * So that each part is counted by one participant: a part row_selection
	 * leaves out is asked of unit_claim too (Parquet and ORC; in ORC that
	 * is all it is asked about, the part filter claims its stripes) and
	 * counted in parts_unselected only where taken; a row group's pages
	 * are counted (pages_total, pages_skipped, over the row group's whole
	 * selection) and parts_taken incremented by the reader that takes its
	 * first unit.
	 */
	bool		(*unit_claim) (void *ctx);
	int64_t		unit_bytes;
	int64_t    *parts_taken;	/* if not NULL, incremented as said above */
	/*
	 * Parquet: column chunks read into these reusable buffers (one slot per
	 * requested leaf) instead of memory of the row group. NULL: the latter.
	 */
	pm_chunk_buffers *chunk_buffers;
} pm_format_read_options;

typedef struct pm_format_reader pm_format_reader;

/* What each format implements; embedded first in its reader struct. */
typedef struct pm_format_reader_ops
{
	pm_code		(*next) (pm_format_reader *r, pm_batch **batch, pm_error *err);
	int64_t		(*row_count) (pm_format_reader *r);
	void		(*close) (pm_format_reader *r);
} pm_format_reader_ops;

struct pm_format_reader
{
	const pm_format_reader_ops *ops;
};

/*
 * Open `path` of the given format. Implemented per format as
 * pm_parquet_reader_open / pm_orc_reader_open / pm_avro_reader_open with the
 * same signature; this dispatches on `format`.
 */
extern pm_code pm_format_reader_open(pm_file_format format, const pm_env *env,
									 pm_fileio *io, const char *path,
									 const pm_format_read_options *options,
									 pm_format_reader **out, pm_error *err);

/* Next batch, or *batch = NULL at the end of the file. */
static inline pm_code
pm_format_reader_next(pm_format_reader *r, pm_batch **batch, pm_error *err)
{
	return r->ops->next(r, batch, err);
}

/* Rows in the whole file (from its footer/metadata), -1 if unknown. */
static inline int64_t
pm_format_reader_row_count(pm_format_reader *r)
{
	return r->ops->row_count(r);
}

static inline void
pm_format_reader_close(pm_format_reader *r)
{
	if (r != NULL)
		r->ops->close(r);
}

/* The format of a data file from its extension (".parquet", ".orc", ".avro"). */
extern pm_code pm_file_format_from_path(const char *path, pm_file_format *format,
										pm_error *err);
extern pm_code pm_file_format_from_name(const char *name, pm_file_format *format,
										pm_error *err);
extern const char *pm_file_format_name(pm_file_format format);

#endif							/* PM_FORMAT_FORMAT_READER_H */
