/*-------------------------------------------------------------------------
 * column_reader.h
 *	  Reading one Parquet leaf column chunk: pages, levels and values.
 *
 * A pm_pq_column walks the pages of a column chunk already in memory
 * (parquet_reader.c reads all chunks of a row group with one batched read).
 * Each data page is decoded at once into definition/repetition level arrays
 * and a value source (PLAIN values point into the page; other encodings are
 * materialised; dictionary pages are converted once per chunk into a vector
 * of the requested type). pm_pq_column_write_values then moves the next k
 * values into a vector and spreads them over the null slots, in loops that
 * switch on the conversion once per call, not per value.
 *-------------------------------------------------------------------------
 */
#ifndef PM_FORMAT_PARQUET_COLUMN_READER_H
#define PM_FORMAT_PARQUET_COLUMN_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/page_lru.h"
#include "common/type.h"
#include "common/vector.h"
#include "format/parquet/parquet_metadata.h"

/* How file values become vector values (chosen once per column). */
typedef enum pm_pq_conv
{
	PM_PQ_CV_NONE = 0,			/* levels only, no values wanted */
	PM_PQ_CV_BOOL,
	PM_PQ_CV_COPY4,				/* int32/float/date/time-millis as is */
	PM_PQ_CV_COPY8,				/* int64/double as is */
	PM_PQ_CV_I32_I8,
	PM_PQ_CV_I32_I16,
	PM_PQ_CV_I32_I64,
	PM_PQ_CV_F32_F64,
	PM_PQ_CV_I32_DEC,
	PM_PQ_CV_I64_DEC,
	PM_PQ_CV_I64_TIME,			/* int64 time (micros/nanos) -> int32 millis */
	PM_PQ_CV_TS_MILLIS,
	PM_PQ_CV_TS_MICROS,
	PM_PQ_CV_TS_NANOS,
	PM_PQ_CV_TS_INT96,
	PM_PQ_CV_BYTES,				/* BYTE_ARRAY -> varlen */
	PM_PQ_CV_FIXED_BYTES,		/* FIXED_LEN_BYTE_ARRAY -> varlen */
	PM_PQ_CV_BE_DEC				/* big-endian two's complement bytes -> int128 */
} pm_pq_conv;

/* Decoded values of one page (or dictionary), in file representation. */
typedef struct pm_pq_values
{
	int64_t		n;
	const uint8_t *fixed;		/* n * width bytes: INT32/INT64/FLOAT/DOUBLE/INT96/FLBA */
	int			width;
	const uint8_t *bools;		/* BOOLEAN: n bytes 0/1 */
	const uint8_t *base;		/* BYTE_ARRAY value i: base + start[i], len[i] bytes */
	const uint32_t *start;
	const uint32_t *len;
} pm_pq_values;

/* Reusable per-column page buffers (grow only; avoid allocator churn per page). */
#define PM_PQ_SCR_PAGE		0
#define PM_PQ_SCR_DEF		1
#define PM_PQ_SCR_REP		2
#define PM_PQ_SCR_IDX		3
#define PM_PQ_SCR_START		4
#define PM_PQ_SCR_LEN		5
#define PM_PQ_SCR_BOOL		6
#define PM_PQ_NSCRATCH		7

/*
 * A piece of the chunk buffer that is one page at a known file offset
 * (the dictionary head, a page the page index picked): its page can come
 * from common/page_lru.h (hit: pinned, its bytes were never read) or go
 * into it once decompressed.
 */
typedef struct pm_pq_piece
{
	size_t		pos;			/* in the chunk buffer */
	int64_t		file_off;
	size_t		len;			/* bytes in the file: page header + payload */
	pm_page_entry *hit;			/* pinned cached page, or NULL: bytes were read */
} pm_pq_piece;

typedef struct pm_pq_column
{
	/* fixed at open */
	const pm_env *env;
	const pm_pq_node *leaf;
	const char *name;			/* for messages */
	int			physical;
	int32_t		type_length;
	int			max_def;
	int			max_rep;
	const pm_type *target;		/* NULL: levels only */
	pm_pq_conv	conv;
	int64_t		time_div;		/* PM_PQ_CV_I64_TIME divisor to millis */
	bool		want_nanos;
	pm_arena   *page_arena;		/* current page; reset per page */
	void	   *scratch[PM_PQ_NSCRATCH];
	size_t		scratch_cap[PM_PQ_NSCRATCH];

	/* current chunk (row group) */
	pm_arena   *rg_arena;
	const uint8_t *chunk;		/* NULL: only cached pieces (start_chunk) */
	size_t		chunk_len;
	size_t		chunk_pos;
	int			codec;
	int64_t		values_left;	/* level entries the chunk metadata still owes */
	const pm_page_file *page_file;	/* non-NULL: pieces go through common/page_lru.h */
	pm_pq_piece *pieces;		/* sorted by pos; pins held until cleared */
	int			npieces;
	int			pieces_cap;
	int			next_piece;
	pm_pq_piece *cur_piece;		/* the page being read is this piece's */
	bool		cur_hit;		/* ... and comes from the page cache */
	pm_page_entry *cur_entry;	/* that cached page (pinned by its piece) */
	size_t		cur_len;		/* its bytes in the chunk buffer */
	int64_t		cur_off;		/* its file offset when it is one piece, else -1 */
	pm_page_entry *dict_pin;	/* the cached converted dictionary c->dict points into */
	bool		has_dict;
	pm_vector	dict;			/* dictionary converted to the target type */
	int64_t		dict_n;
	int64_t		dict_data_cap;
	bool		seen_data;

	/*
	 * Set by the caller before loading a page (0: none): only the first
	 * decode_limit entries of the next data page will be read, so a flat
	 * column decodes its levels and PLAIN or dictionary values only up to
	 * there (page_n) and leaves the rest of the page undecoded.
	 */
	int64_t		decode_limit;
	int64_t		decode_start;	/* nor the entries before this one (0: all) */

	/* current page */
	int64_t		page_n;			/* level entries decoded (see decode_limit) */
	int64_t		page_total;		/* level entries the page holds */
	int64_t		page_pos;
	uint8_t    *def;			/* page_n levels, NULL if max_def == 0 */
	uint8_t    *rep;			/* page_n levels, NULL if max_rep == 0 */
	int64_t		page_nonnull;
	int64_t		value_pos;
	bool		page_dict;
	uint32_t   *indices;
	pm_pq_values vals;
} pm_pq_column;

/*
 * Set up a column: choose the conversion from the leaf's physical/logical
 * type to `target` (NULL: levels only). PM_ERR_UNSUPPORTED naming the
 * column when Paimon would not read it as that type.
 */
extern pm_code pm_pq_column_init(pm_pq_column *c, const pm_env *env,
								 const pm_pq_node *leaf, const pm_type *target,
								 const char *name, pm_error *err);

/*
 * Start a column chunk of num_values level entries (bytes stay valid for
 * the row group, in rg_arena). chunk may be NULL when every page to read
 * is a piece the page cache holds (pm_pq_column_add_piece): a page
 * outside them is then an error.
 */
extern pm_code pm_pq_column_start_chunk(pm_pq_column *c, const uint8_t *chunk, size_t len,
										int codec, int64_t num_values, pm_arena *rg_arena,
										pm_error *err);

/*
 * Load the next data page (dictionary pages on the way are decoded).
 * *have = false at the end of the chunk.
 */
extern pm_code pm_pq_column_next_page(pm_pq_column *c, bool *have, pm_error *err);

/*
 * Late materialization: look at the next data page without decoding it
 * (dictionary pages on the way are decoded): *have = false at the end of
 * the chunk, else *num_values = its level entries. pm_pq_column_skip_page
 * then passes it by (its entries count as read: page_pos = page_n).
 */
extern pm_code pm_pq_column_peek_page(pm_pq_column *c, int64_t *num_values, bool *have,
									  pm_error *err);
extern pm_code pm_pq_column_skip_page(pm_pq_column *c, pm_error *err);

/*
 * Pass the next k level entries of the decoded page (k <= page_n -
 * page_pos) and the values of the non-null ones among them.
 */
extern void pm_pq_column_skip_entries(pm_pq_column *c, int64_t k);

/*
 * Write the page's next k values into v's slots [slot0, slot0 + nslots):
 * the non-null slots (v->nulls, which must exist if k < nslots) get the
 * values in order. For varlen vectors offsets[slot0] must be set; data goes
 * to v->data (capacity *data_cap, grown in arena).
 */
extern pm_code pm_pq_column_write_values(pm_pq_column *c, int64_t k, pm_vector *v,
										 int64_t slot0, int64_t nslots, int64_t *data_cap,
										 pm_arena *arena, pm_error *err);

/*
 * Pieces of the next chunk (before pm_pq_column_start_chunk), in buffer
 * order: add_piece takes over the pin of hit (false when out of memory:
 * hit is unpinned); clear_pieces unpins every hit.
 */
extern bool pm_pq_column_add_piece(pm_pq_column *c, size_t pos, int64_t file_off, size_t len,
								   pm_page_entry *hit);
extern void pm_pq_column_clear_pieces(pm_pq_column *c);

extern void pm_pq_column_release(pm_pq_column *c);

#endif							/* PM_FORMAT_PARQUET_COLUMN_READER_H */
