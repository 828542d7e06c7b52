/*-------------------------------------------------------------------------
 * orc_reader.c
 *	  Read ORC files (Paimon data files and ORC manifests) into column
 *	  batches (common/vector.h), under the contract of format_reader.h.
 *
 * Hand-written: there is no C ORC library (Apache ORC's is C++); the
 * protobuf tail is decoded by orc_proto.c and the stream encodings by
 * orc_stream.c. This file matches the requested ROW type to the file's
 * struct by field name (nested too), reads per stripe only the streams of
 * the requested columns (one pm_file_read_ranges per stripe), and decodes
 * them straight into the batch vectors: values of a column are decoded
 * densely, then spread over the null slots in place.
 *
 * Layout per stripe: [index streams][data streams][stripe footer]; streams
 * are contiguous in the order the stripe footer lists them. Child columns
 * of a STRUCT hold values only for rows where the struct is not null; LIST
 * and MAP children hold sum(lengths) values. A MULTISET is read from the
 * map<element, int> Java writes for it (OrcFileFormat.refineDataType),
 * each element repeated as often as its count (pm_vector_expand_multiset).
 *
 * Timestamps follow ORC's Java TimestampTreeReader (1.9) and Paimon's
 * OrcTimestampColumnVector: seconds are relative to 2015-01-01 00:00:00 in
 * the stripe's writer time zone (UTC for TIMESTAMP_INSTANT), nanos carry
 * trailing-zero compression, negative millis with nanos >= 1 ms move back
 * one second, the ORC reader shifts between writer and reader zones, and
 * Paimon (DateTimeUtils.toInternal, also for legacy TIMESTAMP_LTZ) adds the
 * reader zone's offset to get the value it returns. TIMESTAMP_LTZ: Paimon
 * (>= 0.7) writes TIMESTAMP_INSTANT columns, by default (legacy) holding
 * the UTC wall clock taken as a writer-zone time, i.e. the instant minus the
 * writer's offset, which Java reads back with its JVM zone's offset; with
 * orc.timestamp-ltz.legacy.type = false they hold the instant itself.
 * Paimon < 0.7 wrote TIMESTAMP columns holding the UTC wall clock.
 *
 * Stripes are skipped by their statistics (the part filter) and, for the
 * caller's equality probes, by their BLOOM_FILTER_UTF8 streams (read
 * after the stripe footer, before the data; bloom_skips).
 *
 * Row groups (orc.row.index.stride rows) of a stripe read are skipped by
 * the statistics of their RowIndexEntry (the caller's page filter) and by
 * the caller's row selection, where every requested column is flat: the
 * ROW_INDEX streams are read first, and each column's decoders are put at
 * the next group read by its positions (seek_column, as ORC's readers
 * seek). In a compressed stripe, the chunks of each run of groups read
 * are read and decompressed when it is sought (as far past the next
 * group's position as ORC's reader reads), the others never.
 *
 * Never done: UNION columns, decimal64 (ORCv2) encoding. Must not include
 * Postgres headers.
 *-------------------------------------------------------------------------
 */
#include "format/orc/orc_reader.h"

#include <math.h>
#include <string.h>

#include "common/meta_cache.h"
#include "common/tz.h"
#include "common/vector_builder.h"
#include "format/orc/orc_col_stats.h"
#include "format/orc/orc_int.h"

#define TAIL_GUESS		16384
#define MAX_FOOTER		(64u << 20)
#define MAX_STREAM_OUT	((size_t) 1 << 30)
#define COALESCE_GAP	8192	/* read across gaps up to this many bytes */
/* 2015-01-01 00:00:00 UTC, ORC's timestamp base */
#define ORC_BASE_UTC	INT64_C(1420070400)

typedef struct stream_slot
{
	uint64_t	offset;
	uint64_t	length;
	bool		present;
	int			range;			/* index of the read range holding it */
	const uint8_t *data;		/* decompressed */
	size_t		len;
	/*
	 * Row groups skipped in a compressed stripe: the chunks of each run of
	 * groups read are read and decompressed when the run is sought (data,
	 * len: none before; offset, length: the stream as stored).
	 */
	bool		lazy;
} stream_slot;

typedef struct col_reader col_reader;

struct col_reader
{
	const pm_type *type;		/* requested */
	const char *name;			/* for messages */
	int			col;			/* ORC column id, -1 = absent */
	const orc_type *ot;
	int			nchildren;
	col_reader *children;

	/* per stripe */
	int			encoding;
	bool		has_present;
	orc_bool_rle present;
	orc_bool_rle bools;
	orc_byte_rle bytes;
	orc_int_rle data;
	orc_int_rle length;
	orc_int_rle secondary;
	orc_bytes	raw;
	bool		dict;
	uint32_t	dict_size;
	int64_t    *dict_offsets;	/* dict_size + 1 */
	const uint8_t *dict_data;
	const pm_tz *writer_tz;
};

typedef struct tz_cache
{
	const char *name;
	pm_tz	   *tz;
	struct tz_cache *next;
} tz_cache;

typedef struct orc_reader
{
	pm_format_reader base;
	const pm_env *env;
	pm_fileio  *io;
	pm_file    *file;
	char	   *path;
	pm_arena   *file_arena;
	pm_arena   *stripe_arena;
	pm_arena   *batch_arena;
	uint64_t	file_size;
	orc_postscript ps;
	orc_footer	footer;
	const pm_type *schema;
	int			batch_size;
	int			ncols;
	col_reader *cols;
	const pm_tz *reader_tz;		/* NULL: not given */
	bool		ltz_instant;	/* orc.timestamp-ltz.legacy.type = false */
	tz_cache   *tzs;
	/* iteration */
	int			stripe;			/* current stripe index, -1 before the first */
	uint64_t	stripe_rows;
	uint64_t	stripe_pos;
	int64_t		row_base;		/* file row of the current stripe's first row */
	int64_t		elem_cap;		/* bound on nested elements per batch */
	stream_slot *slots;			/* [ntypes][ORC_NSTREAM_SLOTS] */
	pm_batch	batch;
	/* stripe pruning (format_reader.h); stripe_stats NULL: none usable */
	pm_part_filter_fn part_filter;
	void	   *part_filter_ctx;
	int			nstripe_stats;
	orc_stripe_stats *stripe_stats;
	pm_field_range *ranges;		/* per requested column */
	/* stripe skipping by bloom filters (format_reader.h, the caller's memory) */
	const pm_equal_probe *probes;
	int			nprobes;
	int64_t    *bloom_skipped;
	/*
	 * Row groups (the row index): the caller's group filter and row
	 * selection; per stripe which groups are read (group_sel NULL: all) and
	 * each needed column's RowIndex (by ORC column id) to seek to them.
	 */
	bool		use_row_index;
	pm_part_filter_fn group_filter;
	const pm_row_selection *stripe_sel; /* stripes without its rows are skipped */
	int64_t    *stripes_unselected;
	bool		(*unit_claim) (void *ctx);	/* parallel: who counts an unselected stripe */
	void	   *unit_ctx;
	const pm_row_selection *row_sel;
	int64_t    *groups_total;
	int64_t    *groups_skipped;
	uint64_t	stride;
	int64_t		ngroups;
	uint8_t    *group_sel;
	orc_row_index_entry **row_index;
	int		   *nrow_index;
	bool		need_seek;		/* the decoders are not at a group read yet */
	pm_arena   *run_arena;		/* the decompressed chunks of the run read */
} orc_reader;

static const pm_format_reader_ops orc_ops;

static pm_code
nomem(pm_error *err)
{
	return pm_fail(err, PM_ERR_NOMEM, "out of memory reading orc file");
}

/* ---------------------------------------------------------------------
 * Schema matching
 * ---------------------------------------------------------------------
 */
static bool
kind_matches(pm_type_id id, int kind)
{
	switch (id)
	{
		case PM_TYPE_BOOLEAN:
			return kind == ORC_BOOLEAN;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIME:
			return kind == ORC_BYTE || kind == ORC_SHORT || kind == ORC_INT ||
				kind == ORC_LONG;
		case PM_TYPE_FLOAT:
			return kind == ORC_FLOAT;
		case PM_TYPE_DOUBLE:
			return kind == ORC_DOUBLE || kind == ORC_FLOAT;
		case PM_TYPE_DECIMAL:
			return kind == ORC_DECIMAL;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			return kind == ORC_STRING || kind == ORC_VARCHAR || kind == ORC_CHAR ||
				kind == ORC_BINARY;
		case PM_TYPE_DATE:
			return kind == ORC_DATE;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return kind == ORC_TIMESTAMP || kind == ORC_TIMESTAMP_INSTANT;
		case PM_TYPE_ARRAY:
			return kind == ORC_LIST;
		case PM_TYPE_MAP:
		case PM_TYPE_MULTISET:	/* Java's map<element, int> (OrcFileFormat.refineDataType) */
			return kind == ORC_MAP;
		case PM_TYPE_ROW:
			return kind == ORC_STRUCT;
		default:
			return false;
	}
}

/*
 * Field of an ORC struct by exact name: Paimon reads with ORC's default
 * orc.schema.evolution.case.sensitive = true.
 */
static int
struct_field(const orc_type *st, const char *name)
{
	for (int i = 0; i < st->nsubtypes; i++)
		if (strcmp(st->names[i], name) == 0)
			return i;
	return -1;
}

static pm_code plan_column(orc_reader *r, col_reader *c, const pm_type *type,
						   const char *name, int col, int depth, pm_error *err);

static pm_code
plan_children(orc_reader *r, col_reader *c, int depth, pm_error *err)
{
	const pm_type *t = c->type;
	const orc_type *ot = c->ot;

	if (t->id == PM_TYPE_ROW)
	{
		c->nchildren = t->nfields;
		c->children = pm_arena_zalloc(r->file_arena, sizeof(col_reader) * (t->nfields + 1));
		if (c->children == NULL)
			return nomem(err);
		for (int i = 0; i < t->nfields; i++)
		{
			int			fi = ot ? struct_field(ot, t->fields[i].name) : -1;

			PM_TRY(plan_column(r, &c->children[i], t->fields[i].type, t->fields[i].name,
							   fi >= 0 ? (int) ot->subtypes[fi] : -1, depth + 1, err));
		}
	}
	else if (t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET)
	{
		int			n = t->id == PM_TYPE_ARRAY ? 1 : 2;
		const pm_type *value = t->value;

		if (ot->nsubtypes != n)
			return pm_fail(err, PM_ERR_CORRUPT, "orc %s column \"%s\" has %d subtypes",
						   n == 1 ? "list" : "map", c->name, ot->nsubtypes);
		c->nchildren = n;
		c->children = pm_arena_zalloc(r->file_arena, sizeof(col_reader) * n);
		if (c->children == NULL)
			return nomem(err);
		PM_TRY(plan_column(r, &c->children[0], t->element, c->name,
						   (int) ot->subtypes[0], depth + 1, err));
		/* a MULTISET's counts, read then expanded (pm_vector_expand_multiset) */
		if (t->id == PM_TYPE_MULTISET &&
			(value = pm_type_new(r->file_arena, PM_TYPE_INT, false)) == NULL)
			return nomem(err);
		if (n == 2)
			PM_TRY(plan_column(r, &c->children[1], value, c->name,
							   (int) ot->subtypes[1], depth + 1, err));
	}
	return PM_OK;
}

static pm_code
plan_column(orc_reader *r, col_reader *c, const pm_type *type, const char *name,
			int col, int depth, pm_error *err)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->name = name;
	c->col = col;
	if (depth > 64)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "orc type nesting too deep");
	if (col < 0)
		return PM_OK;
	c->ot = &r->footer.types[col];
	if (!kind_matches(type->id, c->ot->kind))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "orc column \"%s\" of kind %d cannot be read as %s",
					   name, c->ot->kind, pm_type_id_name(type->id));
	c->data.lit = pm_arena_alloc(r->file_arena, sizeof(int64_t) * ORC_MAX_RUN * 3);
	if (c->data.lit == NULL)
		return nomem(err);
	c->length.lit = c->data.lit + ORC_MAX_RUN;
	c->secondary.lit = c->data.lit + 2 * ORC_MAX_RUN;
	return plan_children(r, c, depth, err);
}

/* ---------------------------------------------------------------------
 * Opening: file tail
 * ---------------------------------------------------------------------
 */
static pm_code
read_tail(orc_reader *r, pm_error *err)
{
	uint64_t	size = r->file_size;
	size_t		tail_len = size < TAIL_GUESS ? (size_t) size : TAIL_GUESS;
	uint8_t    *tail;
	size_t		ps_len;
	const uint8_t *fbuf;
	uint64_t	fstart;
	const uint8_t *footer;
	size_t		footer_len;
	pm_meta_bytes *cached;

	if (size < 4)
		return pm_fail(err, PM_ERR_CORRUPT, "orc file too short (%llu bytes)",
					   (unsigned long long) size);
	cached = pm_meta_cache_fetch(PM_META_ORC_TAIL, r->path, (int64_t) size, r->file_arena,
								 pm_meta_bytes_flatten);
	if (cached != NULL && cached->len > 0 && cached->len <= size)
	{
		tail = (uint8_t *) cached->data;	/* footer + postscript, as read before */
		tail_len = cached->len;
	}
	else
	{
		cached = NULL;
		tail = pm_arena_alloc(r->file_arena, tail_len);
		if (tail == NULL)
			return nomem(err);
		PM_TRY(pm_file_pread(r->io, r->file, tail, tail_len, size - tail_len, err));
	}
	ps_len = tail[tail_len - 1];
	if (ps_len == 0 || ps_len + 1 > tail_len)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid orc postscript length %zu", ps_len);
	PM_TRY(orc_parse_postscript(tail + tail_len - 1 - ps_len, ps_len, &r->ps, err));
	if (r->ps.footer_length > MAX_FOOTER ||
		r->ps.footer_length + ps_len + 1 + 3 > size)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid orc footer length %llu",
					   (unsigned long long) r->ps.footer_length);
	if (tail_len == size && memcmp(tail, "ORC", 3) != 0)
		return pm_fail(err, PM_ERR_CORRUPT, "not an orc file: header magic missing");
	fstart = size - 1 - ps_len - r->ps.footer_length;
	if (fstart >= size - tail_len)
		fbuf = tail + (fstart - (size - tail_len));
	else
	{
		uint8_t    *b = pm_arena_alloc(r->file_arena, (size_t) r->ps.footer_length + 1);

		if (b == NULL)
			return nomem(err);
		PM_TRY(pm_file_pread(r->io, r->file, b, (size_t) r->ps.footer_length, fstart, err));
		fbuf = b;
	}
	PM_TRY(orc_decompress_stream((int) r->ps.compression, r->ps.block_size, fbuf,
								 (size_t) r->ps.footer_length, r->file_arena,
								 MAX_STREAM_OUT, &footer, &footer_len, err));
	PM_TRY(orc_parse_footer(footer, footer_len, r->file_arena, &r->footer, err));
	if (r->footer.types[0].kind != ORC_STRUCT)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "orc file root type is not a struct");
	for (int i = 0; i < r->footer.nstripes; i++)
	{
		orc_stripe_info *s = &r->footer.stripes[i];
		uint64_t	end = s->offset + s->index_length + s->data_length + s->footer_length;

		if (s->offset < 3 || s->index_length > size || s->data_length > size ||
			s->footer_length > MAX_FOOTER || end > fstart || end < s->offset)
			return pm_fail(err, PM_ERR_CORRUPT, "orc stripe %d lies outside the file", i);
	}
	if (cached == NULL && pm_meta_cache_enabled())
	{
		/* cache the bytes from the footer to the end: footer, postscript, its length */
		pm_meta_bytes keep;
		uint8_t    *b = pm_arena_alloc(r->file_arena, (size_t) (size - fstart));

		if (b == NULL)
			return nomem(err);
		memcpy(b, fbuf, (size_t) r->ps.footer_length);
		memcpy(b + r->ps.footer_length, tail + tail_len - 1 - ps_len, ps_len + 1);
		keep.data = b;
		keep.len = (size_t) (size - fstart);
		pm_meta_cache_store(PM_META_ORC_TAIL, r->path, (int64_t) size, &keep,
							pm_meta_bytes_flatten);
	}
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Stripes
 * ---------------------------------------------------------------------
 */
static pm_code
get_tz(orc_reader *r, const char *name, const pm_tz **out, pm_error *err)
{
	pm_tz	   *tz;
	tz_cache   *e;

	for (e = r->tzs; e != NULL; e = e->next)
		if (strcmp(e->name, name) == 0)
		{
			*out = e->tz;
			return PM_OK;
		}
	PM_TRY(pm_tz_load(r->file_arena, name, &tz, err));
	e = pm_arena_zalloc(r->file_arena, sizeof(tz_cache));
	if (e == NULL || (e->name = pm_arena_strdup(r->file_arena, name)) == NULL)
		return nomem(err);
	e->tz = tz;
	e->next = r->tzs;
	r->tzs = e;
	*out = tz;
	return PM_OK;
}

static void
mark_needed(const col_reader *c, uint8_t *needed)
{
	if (c->col < 0)
		return;
	needed[c->col] = 1;
	for (int i = 0; i < c->nchildren; i++)
		mark_needed(&c->children[i], needed);
}

static stream_slot *
slot(orc_reader *r, int col, int kind)
{
	return &r->slots[(size_t) col * ORC_NSTREAM_SLOTS + kind];
}

static pm_code
load_dictionary(orc_reader *r, col_reader *c, stream_slot *len_s, stream_slot *dd,
				bool v2, pm_error *err)
{
	orc_int_rle lens;
	int64_t		total = 0;

	if (c->dict_size > dd->len + 1)
		return pm_fail(err, PM_ERR_CORRUPT, "orc dictionary of column \"%s\" too large",
					   c->name);
	c->dict_offsets = pm_arena_alloc(r->stripe_arena, sizeof(int64_t) * (c->dict_size + 1));
	if (c->dict_offsets == NULL)
		return nomem(err);
	lens.lit = c->length.lit;
	orc_int_rle_init(&lens, len_s->data, len_s->len, v2, false);
	if (c->dict_size > 0)
		PM_TRY(orc_int_rle_read(&lens, c->dict_offsets + 1, c->dict_size, err));
	c->dict_offsets[0] = 0;
	for (uint32_t i = 1; i <= c->dict_size; i++)
	{
		int64_t		l = c->dict_offsets[i];

		if (l < 0 || l > (int64_t) dd->len - total)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "orc dictionary lengths of column \"%s\" exceed its data", c->name);
		total += l;
		c->dict_offsets[i] = total;
	}
	c->dict_data = dd->data;
	return PM_OK;
}

static pm_code
init_column(orc_reader *r, col_reader *c, const orc_stripe_footer *sf, pm_error *err)
{
	stream_slot *s;
	int			kind;
	bool		v2;

	if (c->col < 0)
		return PM_OK;
	if (c->col >= sf->ncolumns)
		return pm_fail(err, PM_ERR_CORRUPT, "orc stripe has no encoding for column %d", c->col);
	c->encoding = sf->encodings[c->col];
	if (c->encoding < 0 || c->encoding > ORC_E_DICTIONARY_V2)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid orc column encoding %d", c->encoding);
	v2 = c->encoding == ORC_E_DIRECT_V2 || c->encoding == ORC_E_DICTIONARY_V2;
	kind = c->ot->kind;
	s = slot(r, c->col, ORC_S_PRESENT);
	c->has_present = s->present;
	orc_bool_rle_init(&c->present, s->data, s->len);
	s = slot(r, c->col, ORC_S_DATA);
	c->raw.p = s->data;
	c->raw.end = s->data + s->len;
	orc_bool_rle_init(&c->bools, s->data, s->len);
	orc_byte_rle_init(&c->bytes, s->data, s->len);
	orc_int_rle_init(&c->data, s->data, s->len, v2,
					 !(kind == ORC_STRING || kind == ORC_VARCHAR || kind == ORC_CHAR ||
					   kind == ORC_BINARY));
	s = slot(r, c->col, ORC_S_LENGTH);
	orc_int_rle_init(&c->length, s->data, s->len, v2, false);
	s = slot(r, c->col, ORC_S_SECONDARY);
	orc_int_rle_init(&c->secondary, s->data, s->len, v2, kind == ORC_DECIMAL);
	c->dict = c->encoding == ORC_E_DICTIONARY || c->encoding == ORC_E_DICTIONARY_V2;
	if (c->dict)
	{
		if (!(kind == ORC_STRING || kind == ORC_VARCHAR || kind == ORC_CHAR))
			return pm_fail(err, PM_ERR_CORRUPT, "dictionary encoding on orc column \"%s\"",
						   c->name);
		c->dict_size = sf->dict_sizes[c->col];
		PM_TRY(load_dictionary(r, c, slot(r, c->col, ORC_S_LENGTH),
							   slot(r, c->col, ORC_S_DICTIONARY_DATA), v2, err));
	}
	c->writer_tz = NULL;		/* none recorded: the reader's zone */
	if ((kind == ORC_TIMESTAMP || kind == ORC_TIMESTAMP_INSTANT) && sf->writer_timezone[0])
		PM_TRY(get_tz(r, sf->writer_timezone, &c->writer_tz, err));
	for (int i = 0; i < c->nchildren; i++)
		PM_TRY(init_column(r, &c->children[i], sf, err));
	return PM_OK;
}

/*
 * The hashes ORC's bloom filters hold for value v of requested type t in a
 * column of ORC kind `kind`, as its tree writers add them (orc_writer.c's
 * bloom_add): *n of them (two for a zero: -0.0 equals 0.0 here but not in
 * the filter). False for the pairs not probed: CHAR (padded in the file),
 * timestamps (writer zones), booleans, a kind other than the type's own.
 */
static bool
probe_hashes(const pm_type *t, int kind, const pm_value *v, uint64_t *h, int *n)
{
	*n = 1;
	switch (t->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
			if (kind != ORC_BYTE && kind != ORC_SHORT && kind != ORC_INT && kind != ORC_LONG)
				return false;
			h[0] = orc_bloom_long_hash(v->u.i64);
			return true;
		case PM_TYPE_DATE:
			if (kind != ORC_DATE)
				return false;
			h[0] = orc_bloom_long_hash(v->u.i64);
			return true;
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
			if (t->id == PM_TYPE_VARCHAR ? kind != ORC_STRING && kind != ORC_VARCHAR :
				kind != ORC_BINARY)
				return false;
			if (v->u.bytes.len < 0 || (v->u.bytes.len > 0 && v->u.bytes.ptr == NULL))
				return false;
			h[0] = orc_murmur3_hash64(v->u.bytes.ptr, (size_t) v->u.bytes.len);
			return true;
		case PM_TYPE_DECIMAL:
			{
				char		text[48];
				size_t		len;

				if (kind != ORC_DECIMAL || t->scale < 0 || t->scale > 38)
					return false;
				/* HiveDecimal text: trailing zeros stripped, so any scale */
				len = orc_decimal_text(v->u.i128, t->scale, text);
				h[0] = orc_murmur3_hash64((const uint8_t *) text, len);
				return true;
			}
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			{
				double		d = v->u.f64;
				uint64_t	bits;

				if (kind != (t->id == PM_TYPE_FLOAT ? ORC_FLOAT : ORC_DOUBLE) || isnan(d))
					return false;
				memcpy(&bits, &d, sizeof(bits));
				h[0] = orc_bloom_long_hash((int64_t) bits);
				if (d == 0.0)
				{
					h[1] = orc_bloom_long_hash((int64_t) (bits ^ UINT64_C(0x8000000000000000)));
					*n = 2;
				}
				return true;
			}
		default:
			return false;
	}
}

/*
 * Whether the equality probes skip the stripe whose footer is sf: one of
 * them has no value that any row group's BLOOM_FILTER_UTF8 filter may
 * hold. Columns without such a stream (or with a bloom encoding this code
 * does not know) never skip.
 */
static pm_code
bloom_skips(orc_reader *r, const orc_stripe_footer *sf, bool *skip, pm_error *err)
{
	const orc_stripe_info *si = &r->footer.stripes[r->stripe];

	*skip = false;
	for (int p = 0; p < r->nprobes && !*skip; p++)
	{
		const pm_equal_probe *pr = &r->probes[p];
		const col_reader *c;
		uint64_t	off = si->offset;
		const orc_stream_info *st = NULL;
		uint8_t    *raw;
		const uint8_t *data;
		size_t		len;
		int			nb;
		orc_bloom  *blooms;
		bool		may = false;

		if (pr->field < 0 || pr->field >= r->ncols || pr->nvalues <= 0 || pr->values == NULL)
			continue;
		c = &r->cols[pr->field];
		if (c->col < 0 || c->ot == NULL || c->col >= sf->ncolumns ||
			sf->bloom_encodings[c->col] > 1)
			continue;
		for (int k = 0; k < sf->nstreams; k++)
		{
			if (sf->streams[k].kind == ORC_S_BLOOM_FILTER_UTF8 &&
				sf->streams[k].column == (uint32_t) c->col)
			{
				st = &sf->streams[k];
				break;
			}
			off += sf->streams[k].length;
		}
		if (st == NULL)
			continue;
		if (off - si->offset > si->index_length || st->length > si->index_length - (off - si->offset))
			return pm_fail(err, PM_ERR_CORRUPT, "orc bloom filter stream of stripe %d exceeds its index",
						   r->stripe);
		raw = pm_arena_alloc(r->stripe_arena, (size_t) st->length + 1);
		if (raw == NULL)
			return nomem(err);
		PM_TRY(pm_file_pread(r->io, r->file, raw, (size_t) st->length, off, err));
		PM_TRY(orc_decompress_stream((int) r->ps.compression, r->ps.block_size, raw,
									 (size_t) st->length, r->stripe_arena, MAX_STREAM_OUT,
									 &data, &len, err));
		PM_TRY(orc_parse_bloom_index(data, len, r->stripe_arena, &nb, &blooms, err));
		may = nb == 0;
		for (int v = 0; v < pr->nvalues && !may; v++)
		{
			uint64_t	h[2];
			int			nh;

			if (pr->values[v].is_null)
				continue;		/* = NULL matches no row */
			if (!probe_hashes(c->type, c->ot->kind, &pr->values[v], h, &nh))
			{
				may = true;
				break;
			}
			for (int g = 0; g < nb && !may; g++)
				for (int k = 0; k < nh && !may; k++)
					may = blooms[g].nbits == 0 || orc_bloom_test_hash(&blooms[g], h[k]);
		}
		*skip = !may;
	}
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Row groups: the row index (ROW_INDEX streams)
 * ---------------------------------------------------------------------
 */
static void stats_range(const orc_col_stats *cs, const col_reader *c, uint64_t nrows,
						pm_field_range *out);

/*
 * Whether row groups of column c can be skipped: a flat column whose
 * streams this reader seeks as ORC's tree readers do (absent columns have
 * nothing to seek).
 */
static bool
row_index_usable(const col_reader *c)
{
	if (c->col < 0)
		return true;
	if (c->nchildren > 0 || c->ot == NULL)
		return false;
	switch (c->ot->kind)
	{
		case ORC_BOOLEAN:
		case ORC_BYTE:
		case ORC_SHORT:
		case ORC_INT:
		case ORC_LONG:
		case ORC_DATE:
		case ORC_FLOAT:
		case ORC_DOUBLE:
		case ORC_STRING:
		case ORC_VARCHAR:
		case ORC_CHAR:
		case ORC_BINARY:
		case ORC_DECIMAL:
		case ORC_TIMESTAMP:
		case ORC_TIMESTAMP_INSTANT:
			return true;
		default:
			return false;
	}
}

/*
 * The RowIndex of every needed column of the stripe (sf): *ok false when a
 * column has none or one of another length than the stripe's row groups
 * (then every group is read).
 */
static pm_code
read_row_indexes(orc_reader *r, const orc_stripe_footer *sf, const uint8_t *needed, bool *ok,
				 pm_error *err)
{
	const orc_stripe_info *si = &r->footer.stripes[r->stripe];
	int			ntypes = r->footer.ntypes;
	uint64_t	off = si->offset;
	pm_read_range *ranges;
	int		   *col_of;
	int			nranges = 0;

	*ok = false;
	r->row_index = pm_arena_zalloc(r->stripe_arena, sizeof(orc_row_index_entry *) * (size_t) ntypes);
	r->nrow_index = pm_arena_zalloc(r->stripe_arena, sizeof(int) * (size_t) ntypes);
	ranges = pm_arena_alloc(r->stripe_arena, sizeof(pm_read_range) * (size_t) (sf->nstreams + 1));
	col_of = pm_arena_alloc(r->stripe_arena, sizeof(int) * (size_t) (sf->nstreams + 1));
	if (r->row_index == NULL || r->nrow_index == NULL || ranges == NULL || col_of == NULL)
		return nomem(err);
	for (int i = 0; i < sf->nstreams; i++)
	{
		const orc_stream_info *st = &sf->streams[i];

		if (st->kind == ORC_S_ROW_INDEX && st->column < (uint32_t) ntypes && needed[st->column])
		{
			if (off - si->offset > si->index_length ||
				st->length > si->index_length - (off - si->offset))
				return pm_fail(err, PM_ERR_CORRUPT,
							   "orc row index stream of stripe %d exceeds its index", r->stripe);
			ranges[nranges].offset = off;
			ranges[nranges].length = (size_t) st->length;
			ranges[nranges].buf = pm_arena_alloc(r->stripe_arena, (size_t) st->length + 1);
			if (ranges[nranges].buf == NULL)
				return nomem(err);
			col_of[nranges++] = (int) st->column;
		}
		off += st->length;
	}
	if (nranges > 0)
		PM_TRY(pm_file_read_ranges(r->io, r->file, ranges, nranges, err));
	for (int i = 0; i < nranges; i++)
	{
		const uint8_t *data;
		size_t		len;
		int			col = col_of[i];

		PM_TRY(orc_decompress_stream((int) r->ps.compression, r->ps.block_size, ranges[i].buf,
									 ranges[i].length, r->stripe_arena, MAX_STREAM_OUT,
									 &data, &len, err));
		PM_TRY(orc_parse_row_index(data, len, r->stripe_arena, &r->nrow_index[col],
								   &r->row_index[col], err));
	}
	for (int col = 1; col < ntypes; col++)
		if (needed[col] && r->nrow_index[col] != r->ngroups)
			return PM_OK;
	*ok = true;
	return PM_OK;
}

/*
 * Which row groups of the stripe just opened to read (r->group_sel; NULL:
 * all of them), by the row selection and the group filter over the row
 * index's statistics. *none: no group is read.
 */
static pm_code
select_groups(orc_reader *r, const orc_stripe_footer *sf, const uint8_t *needed, bool *none,
			  pm_error *err)
{
	uint64_t	nrows = r->footer.stripes[r->stripe].nrows;
	int64_t		kept = 0;
	bool		have_index = false;

	*none = false;
	r->group_sel = NULL;
	r->row_index = NULL;
	r->ngroups = (int64_t) ((nrows + r->stride - 1) / r->stride);
	/* an entry takes bytes of the index: more groups than bytes, no index */
	if (r->ngroups <= 0 || (uint64_t) r->ngroups > r->footer.stripes[r->stripe].index_length)
		return PM_OK;
	if ((r->group_sel = pm_arena_alloc(r->stripe_arena, (size_t) r->ngroups)) == NULL)
		return nomem(err);
	/* the positions to seek to are needed whenever a group is skipped */
	PM_TRY(read_row_indexes(r, sf, needed, &have_index, err));
	for (int64_t g = 0; g < r->ngroups; g++)
	{
		uint64_t	start = (uint64_t) g * r->stride;
		uint64_t	grows = nrows - start < r->stride ? nrows - start : r->stride;
		bool		keep = true;

		if (have_index && r->row_sel != NULL)
			keep = pm_row_selection_holds(r->row_sel, r->row_base + (int64_t) start,
								   r->row_base + (int64_t) (start + grows));
		if (keep && have_index && r->group_filter != NULL)
		{
			for (int i = 0; i < r->ncols; i++)
			{
				const col_reader *c = &r->cols[i];
				const orc_row_index_entry *e = c->col >= 0 ? &r->row_index[c->col][g] : NULL;

				stats_range(e != NULL && e->has_stats ? &e->stats : NULL, c, grows, &r->ranges[i]);
			}
			keep = r->group_filter(r->part_filter_ctx, r->ranges, r->ncols, (int64_t) grows);
		}
		r->group_sel[g] = keep;
		kept += keep;
	}
	if (have_index)
	{
		if (r->groups_total != NULL)
			*r->groups_total += r->ngroups;
		if (r->groups_skipped != NULL)
			*r->groups_skipped += r->ngroups - kept;
	}
	if (kept == 0)
		*none = true;
	if (kept == r->ngroups)
		r->group_sel = NULL;	/* every group: no seeks */
	return PM_OK;
}

/*
 * The next stream position of entry eg (the group sought) as a buffer and
 * an offset in it: the stream (no compression), or the chunks from the one
 * eg names to two past the one the next group's entry ee names (NULL: to
 * the stream's end), read and decompressed, as ORC's reader reads them (a
 * run of values may reach past the next group's start).
 */
static pm_code
stream_at(orc_reader *r, const stream_slot *s, const orc_row_index_entry *eg,
		  const orc_row_index_entry *ee, int *k, const uint8_t **buf, size_t *len,
		  uint64_t *off, pm_error *err)
{
	uint64_t	c0,
				u0,
				c1,
				end,
				whole,
				stretch;
	uint8_t    *raw;

	if (r->ps.compression == ORC_C_NONE)
	{
		if (*k + 1 > eg->npos || eg->pos[*k] > s->len)
			goto bad;
		*off = eg->pos[(*k)++];
		*buf = s->data;
		*len = s->len;
		return PM_OK;
	}
	if (!s->lazy || *k + 2 > eg->npos || (ee != NULL && *k + 2 > ee->npos))
		goto bad;
	c0 = eg->pos[*k];
	u0 = eg->pos[*k + 1];
	c1 = ee != NULL ? ee->pos[*k] : s->length;
	*k += 2;
	*buf = (const uint8_t *) "";
	*len = 0;
	*off = 0;
	if (c0 == s->length && u0 == 0)
		return PM_OK;			/* at the stream's end: no value left */
	if (c0 >= s->length || c1 < c0 || c1 > s->length || r->ps.block_size == 0 ||
		r->ps.block_size > (64 << 20))
		goto bad;
	/*
	 * From the chunk at c0 to as far past c1 as ORC's reader reads
	 * (RecordReaderUtils.estimateRgEndOffset: 2 + (512 values x 8 bytes -
	 * 1) / block size chunks of a header and a block each; at least 3 here),
	 * the complete chunks.
	 */
	stretch = 2 + (512 * 8 - 1) / r->ps.block_size;
	if (stretch < 3)
		stretch = 3;
	end = c1 + stretch * (r->ps.block_size + 3);
	if (end > s->length)
		end = s->length;
	raw = pm_arena_alloc(r->run_arena, (size_t) (end - c0) + 1);
	if (raw == NULL)
		return nomem(err);
	PM_TRY(pm_file_pread(r->io, r->file, raw, (size_t) (end - c0), s->offset + c0, err));
	for (whole = 0; end - c0 - whole >= 3;)
	{
		uint64_t	next = whole + 3 + ((uint64_t) (raw[whole] | (raw[whole + 1] << 8) |
												 (raw[whole + 2] << 16)) >> 1);

		if (next > end - c0)
			break;
		whole = next;
	}
	if (whole == 0 || (end == s->length && whole != end - c0))
		goto bad;
	PM_TRY(orc_decompress_stream((int) r->ps.compression, r->ps.block_size, raw, (size_t) whole,
								 r->run_arena, MAX_STREAM_OUT, buf, len, err));
	if (u0 > *len)
		goto bad;
	*off = u0;
	return PM_OK;
bad:
	return pm_fail(err, PM_ERR_CORRUPT, "orc row index positions of stripe %d do not fit its streams",
				   r->stripe);
}

/* The next plain position value of e (values into a run, bits into a byte). */
static pm_code
next_count(orc_reader *r, const orc_row_index_entry *e, int *k, uint64_t *v, pm_error *err)
{
	if (*k >= e->npos)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "orc row index positions of stripe %d do not fit its streams", r->stripe);
	*v = e->pos[(*k)++];
	return PM_OK;
}

/*
 * Put column c's decoders at the start of row group g, from the positions
 * its tree reader would seek with (ORC's TreeReaderFactory: PRESENT when the
 * stripe has it, then the column's streams in the writer's order); groups
 * g..e-1 are read next (e = ngroups: to the stripe's end).
 */
static pm_code
seek_column(orc_reader *r, col_reader *c, int64_t g, int64_t e, pm_error *err)
{
	const orc_row_index_entry *eg,
			   *ee;
	const uint8_t *buf;
	size_t		len;
	uint64_t	off,
				n,
				bits;
	int			k = 0;

	if (c->col < 0)
		return PM_OK;
	eg = &r->row_index[c->col][g];
	ee = e < r->ngroups ? &r->row_index[c->col][e] : NULL;
	if (c->has_present)
	{
		PM_TRY(stream_at(r, slot(r, c->col, ORC_S_PRESENT), eg, ee, &k, &buf, &len, &off, err));
		PM_TRY(next_count(r, eg, &k, &n, err));
		PM_TRY(next_count(r, eg, &k, &bits, err));
		PM_TRY(orc_bool_rle_seek(&c->present, buf, len, off, n, bits, err));
	}
	PM_TRY(stream_at(r, slot(r, c->col, ORC_S_DATA), eg, ee, &k, &buf, &len, &off, err));
	switch (c->ot->kind)
	{
		case ORC_BOOLEAN:
			PM_TRY(next_count(r, eg, &k, &n, err));
			PM_TRY(next_count(r, eg, &k, &bits, err));
			return orc_bool_rle_seek(&c->bools, buf, len, off, n, bits, err);
		case ORC_BYTE:
			PM_TRY(next_count(r, eg, &k, &n, err));
			return orc_byte_rle_seek(&c->bytes, buf, len, off, n, err);
		case ORC_SHORT:
		case ORC_INT:
		case ORC_LONG:
		case ORC_DATE:
			PM_TRY(next_count(r, eg, &k, &n, err));
			return orc_int_rle_seek(&c->data, buf, len, off, n, err);
		case ORC_FLOAT:
		case ORC_DOUBLE:
			c->raw.p = buf + off;
			c->raw.end = buf + len;
			return PM_OK;
		case ORC_STRING:
		case ORC_VARCHAR:
		case ORC_CHAR:
		case ORC_BINARY:
			if (c->dict)
			{
				/* the dictionary's LENGTH is read whole: no position */
				PM_TRY(next_count(r, eg, &k, &n, err));
				return orc_int_rle_seek(&c->data, buf, len, off, n, err);
			}
			c->raw.p = buf + off;
			c->raw.end = buf + len;
			PM_TRY(stream_at(r, slot(r, c->col, ORC_S_LENGTH), eg, ee, &k, &buf, &len, &off, err));
			PM_TRY(next_count(r, eg, &k, &n, err));
			return orc_int_rle_seek(&c->length, buf, len, off, n, err);
		case ORC_DECIMAL:
			c->raw.p = buf + off;
			c->raw.end = buf + len;
			PM_TRY(stream_at(r, slot(r, c->col, ORC_S_SECONDARY), eg, ee, &k, &buf, &len, &off,
							 err));
			PM_TRY(next_count(r, eg, &k, &n, err));
			return orc_int_rle_seek(&c->secondary, buf, len, off, n, err);
		case ORC_TIMESTAMP:
		case ORC_TIMESTAMP_INSTANT:
			PM_TRY(next_count(r, eg, &k, &n, err));
			PM_TRY(orc_int_rle_seek(&c->data, buf, len, off, n, err));
			PM_TRY(stream_at(r, slot(r, c->col, ORC_S_SECONDARY), eg, ee, &k, &buf, &len, &off,
							 err));
			PM_TRY(next_count(r, eg, &k, &n, err));
			return orc_int_rle_seek(&c->secondary, buf, len, off, n, err);
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED, "orc row group seek on column \"%s\"", c->name);
	}
}

/*
 * Whether stream `kind` of column col is sought by row-index positions: the
 * PRESENT, DATA, SECONDARY streams and a direct column's LENGTH (not a
 * dictionary's LENGTH or DICTIONARY_DATA: read whole).
 */
static bool
sought_stream(const orc_stripe_footer *sf, int col, int kind)
{
	bool		dict;

	if (col < 0 || col >= sf->ncolumns)
		return false;
	dict = sf->encodings[col] == ORC_E_DICTIONARY || sf->encodings[col] == ORC_E_DICTIONARY_V2;
	return kind == ORC_S_PRESENT || kind == ORC_S_DATA || kind == ORC_S_SECONDARY ||
		(kind == ORC_S_LENGTH && !dict);
}

static pm_code
load_stripe(orc_reader *r, pm_error *err)
{
	const orc_stripe_info *si = &r->footer.stripes[r->stripe];
	int			ntypes = r->footer.ntypes;
	uint8_t    *needed;
	uint8_t    *fbuf;
	const uint8_t *fdata;
	size_t		flen;
	orc_stripe_footer sf;
	uint64_t	off = si->offset;
	uint64_t	limit = si->offset + si->index_length + si->data_length;
	pm_read_range *ranges;
	int			nranges = 0;
	uint64_t	total = 0;

	pm_arena_reset(r->stripe_arena);
	needed = pm_arena_zalloc(r->stripe_arena, (size_t) ntypes);
	r->slots = pm_arena_zalloc(r->stripe_arena,
							   sizeof(stream_slot) * (size_t) ntypes * ORC_NSTREAM_SLOTS);
	fbuf = pm_arena_alloc(r->stripe_arena, (size_t) si->footer_length + 1);
	if (needed == NULL || r->slots == NULL || fbuf == NULL)
		return nomem(err);
	for (int i = 0; i < r->ncols; i++)
		mark_needed(&r->cols[i], needed);

	PM_TRY(pm_file_pread(r->io, r->file, fbuf, (size_t) si->footer_length, limit, err));
	PM_TRY(orc_decompress_stream((int) r->ps.compression, r->ps.block_size, fbuf,
								 (size_t) si->footer_length, r->stripe_arena,
								 MAX_STREAM_OUT, &fdata, &flen, err));
	PM_TRY(orc_parse_stripe_footer(fdata, flen, r->stripe_arena, &sf, err));
	if (r->nprobes > 0)
	{
		bool		skip;

		PM_TRY(bloom_skips(r, &sf, &skip, err));
		if (skip)
		{
			/* as a pruned stripe: its rows still count for the positions */
			r->stripe_rows = si->nrows;
			r->stripe_pos = si->nrows;
			if (r->bloom_skipped != NULL)
				(*r->bloom_skipped)++;
			return PM_OK;
		}
	}
	r->group_sel = NULL;
	if (r->use_row_index && si->nrows > 0)
	{
		bool		none;

		PM_TRY(select_groups(r, &sf, needed, &none, err));
		if (none)
		{
			/* as a pruned stripe: its rows still count for the positions */
			r->stripe_rows = si->nrows;
			r->stripe_pos = si->nrows;
			return PM_OK;
		}
	}

	/*
	 * The needed streams, coalesced into ranges when they are at most
	 * COALESCE_GAP bytes apart (they usually are adjacent): one read call.
	 */
	ranges = pm_arena_alloc(r->stripe_arena, sizeof(pm_read_range) * (sf.nstreams + 1));
	if (ranges == NULL)
		return nomem(err);
	for (int i = 0; i < sf.nstreams; i++)
	{
		orc_stream_info *st = &sf.streams[i];

		if (st->length > limit - off)
			return pm_fail(err, PM_ERR_CORRUPT, "orc stream %d of stripe %d exceeds the stripe",
						   i, r->stripe);
		if (st->column < (uint32_t) ntypes && needed[st->column] &&
			st->kind >= 0 && st->kind < ORC_NSTREAM_SLOTS && st->kind != ORC_S_DICTIONARY_COUNT)
		{
			stream_slot *s = slot(r, (int) st->column, st->kind);
			pm_read_range *last = nranges > 0 ? &ranges[nranges - 1] : NULL;

			s->offset = off;
			s->length = st->length;
			s->present = true;
			/* streams sought by the row index: read per run of groups */
			if (r->group_sel != NULL && r->ps.compression != ORC_C_NONE &&
				sought_stream(&sf, (int) st->column, st->kind))
			{
				s->lazy = true;
				s->range = -1;
				off += st->length;
				continue;
			}
			if (last != NULL && off >= last->offset + last->length &&
				off - (last->offset + last->length) <= COALESCE_GAP)
				last->length = (size_t) (off + st->length - last->offset);
			else
			{
				ranges[nranges].offset = off;
				ranges[nranges].length = (size_t) st->length;
				nranges++;
			}
			s->range = nranges - 1;
		}
		off += st->length;
	}
	for (int i = 0; i < nranges; i++)
		if ((ranges[i].buf = pm_arena_alloc(r->stripe_arena, ranges[i].length + 1)) == NULL)
			return nomem(err);
	if (nranges > 0)
		PM_TRY(pm_file_read_ranges(r->io, r->file, ranges, nranges, err));
	for (size_t i = 0; i < (size_t) ntypes * ORC_NSTREAM_SLOTS; i++)
	{
		stream_slot *s = &r->slots[i];

		if (s->present && !s->lazy)
			s->data = (const uint8_t *) ranges[s->range].buf +
				(s->offset - ranges[s->range].offset);
	}
	total = 0;
	for (size_t i = 0; i < (size_t) ntypes * ORC_NSTREAM_SLOTS; i++)
	{
		stream_slot *s = &r->slots[i];

		if (!s->present)
		{
			s->data = (const uint8_t *) "";
			continue;
		}
		if (s->lazy)
		{
			s->data = (const uint8_t *) "";
			continue;
		}
		PM_TRY(orc_decompress_stream((int) r->ps.compression, r->ps.block_size, s->data,
									 (size_t) s->length, r->stripe_arena, MAX_STREAM_OUT,
									 &s->data, &s->len, err));
		total += s->len;
	}
	/* a value takes at least ~1/520 byte of some stream (boolean runs) */
	r->elem_cap = (int64_t) (total > (uint64_t) INT32_MAX / 600 ? INT32_MAX :
							 total * 600 + 4096 + (uint64_t) r->batch_size);
	if (r->group_sel != NULL)
	{
		r->elem_cap = INT32_MAX;	/* flat columns only: batches bound the values */
		r->need_seek = true;
	}
	for (int i = 0; i < r->ncols; i++)
		PM_TRY(init_column(r, &r->cols[i], &sf, err));
	r->stripe_rows = si->nrows;
	r->stripe_pos = 0;
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Decoding columns into vectors
 * ---------------------------------------------------------------------
 */

/* Spread k dense values over the n slots of a vector with nulls (in place). */
static void
scatter(void *values, size_t size, const uint8_t *nulls, int64_t n, int64_t k)
{
	uint8_t    *v = values;
	int64_t		j = k - 1;

	for (int64_t i = n - 1; i > j; i--)
	{
		if (nulls[i])
			memset(v + i * size, 0, size);
		else
		{
			memcpy(v + i * size, v + j * size, size);
			j--;
		}
	}
}

/*
 * Read the null flags of n slots. Rows null in the parent take no PRESENT
 * bit. *nulls is NULL when no slot is null; *k counts the non-null ones.
 */
static pm_code
read_nulls(orc_reader *r, col_reader *c, int64_t n, const uint8_t *parent,
		   uint8_t **nulls, int64_t *k, pm_error *err)
{
	uint8_t    *nl;
	int64_t		cnt = 0;

	*nulls = NULL;
	*k = n;
	if (!c->has_present && parent == NULL)
		return PM_OK;
	nl = pm_arena_alloc(r->batch_arena, (size_t) n + 1);
	if (nl == NULL)
		return nomem(err);
	if (parent == NULL)
	{
		PM_TRY(orc_bool_rle_read(&c->present, nl, n, err));
		for (int64_t i = 0; i < n; i++)
		{
			nl[i] = !nl[i];
			cnt += !nl[i];
		}
	}
	else if (!c->has_present)
	{
		memcpy(nl, parent, (size_t) n);
		for (int64_t i = 0; i < n; i++)
			cnt += !nl[i];
	}
	else
	{
		int64_t		m = 0,
					j = 0;
		uint8_t    *bits;

		for (int64_t i = 0; i < n; i++)
			m += !parent[i];
		bits = pm_arena_alloc(r->batch_arena, (size_t) m + 1);
		if (bits == NULL)
			return nomem(err);
		PM_TRY(orc_bool_rle_read(&c->present, bits, m, err));
		for (int64_t i = 0; i < n; i++)
		{
			nl[i] = parent[i] ? 1 : !bits[j++];
			cnt += !nl[i];
		}
	}
	*k = cnt;
	if (cnt < n)
		*nulls = nl;
	return PM_OK;
}

static pm_code
read_ints(orc_reader *r, col_reader *c, int64_t *out, int64_t k, pm_error *err)
{
	(void) r;
	if (c->ot->kind == ORC_BYTE)
	{
		uint8_t    *b = (uint8_t *) out;

		PM_TRY(orc_byte_rle_read(&c->bytes, b, k, err));
		for (int64_t i = k - 1; i >= 0; i--)
			out[i] = (int8_t) b[i];
		return PM_OK;
	}
	return orc_int_rle_read(&c->data, out, k, err);
}

static pm_code
decode_integer(orc_reader *r, col_reader *c, pm_vector *v, int64_t k, pm_error *err)
{
	int			size = pm_type_value_size(c->type->id);
	int64_t    *tmp;

	if (size == 8)
		tmp = v->values;
	else if ((tmp = pm_arena_alloc(r->batch_arena, sizeof(int64_t) * (size_t) (k + 1))) == NULL)
		return nomem(err);
	PM_TRY(read_ints(r, c, tmp, k, err));
	switch (size)
	{
		case 1:
			for (int64_t i = 0; i < k; i++)
				((int8_t *) v->values)[i] = (int8_t) tmp[i];
			break;
		case 2:
			for (int64_t i = 0; i < k; i++)
				((int16_t *) v->values)[i] = (int16_t) tmp[i];
			break;
		case 4:
			for (int64_t i = 0; i < k; i++)
				((int32_t *) v->values)[i] = (int32_t) tmp[i];
			break;
		default:
			break;
	}
	return PM_OK;
}

static pm_code
decode_float(col_reader *c, pm_vector *v, int64_t k, pm_error *err)
{
	size_t		w = c->ot->kind == ORC_FLOAT ? 4 : 8;

	if ((uint64_t) (c->raw.end - c->raw.p) < (uint64_t) k * w)
		return pm_fail(err, PM_ERR_CORRUPT, "orc column \"%s\" has too few values", c->name);
	if (c->type->id == PM_TYPE_DOUBLE && w == 4)
	{
		for (int64_t i = 0; i < k; i++)
		{
			float		f;

			memcpy(&f, c->raw.p + 4 * i, 4);
			((double *) v->values)[i] = f;
		}
	}
	else if (k > 0)
		memcpy(v->values, c->raw.p, (size_t) k * w);
	c->raw.p += (size_t) k * w;
	return PM_OK;
}

static pm_int128
pow10_128(int e)
{
	pm_int128	p = 1;

	for (int i = 0; i < e; i++)
		p *= 10;
	return p;
}

/*
 * Paimon's Decimal.fromBigDecimal returns null for a value with more digits
 * than the requested precision (after rounding to the scale): do the same.
 */
static pm_code
decimal_overflow_to_null(orc_reader *r, col_reader *c, pm_vector *v, pm_error *err)
{
	int			p = c->type->precision;
	pm_int128	lim;

	if (p <= 0 || p > 38)
		p = 38;
	lim = pow10_128(p);
	for (int64_t i = 0; i < v->length; i++)
	{
		pm_int128	x = PM_VEC_VALUES(v, pm_int128)[i];

		if (pm_vector_is_null(v, i) || (x < lim && x > -lim))
			continue;
		if (v->nulls == NULL)
		{
			if ((v->nulls = pm_arena_zalloc(r->batch_arena, (size_t) v->length + 1)) == NULL)
				return nomem(err);
		}
		v->nulls[i] = 1;
		PM_VEC_VALUES(v, pm_int128)[i] = 0;
	}
	return PM_OK;
}

static pm_code
decode_decimal(orc_reader *r, col_reader *c, pm_vector *v, int64_t k, pm_error *err)
{
	pm_int128  *out = v->values;
	int64_t    *scales;
	int			want = c->type->scale;

	scales = pm_arena_alloc(r->batch_arena, sizeof(int64_t) * (size_t) (k + 1));
	if (scales == NULL)
		return nomem(err);
	for (int64_t i = 0; i < k; i++)
		PM_TRY(orc_read_varint128(&c->raw, &out[i], err));
	PM_TRY(orc_int_rle_read(&c->secondary, scales, k, err));
	for (int64_t i = 0; i < k; i++)
	{
		int64_t		s = scales[i];

		if (s == want)
			continue;
		if (s < 0 || s > 38)
			return pm_fail(err, PM_ERR_CORRUPT, "invalid orc decimal scale %lld",
						   (long long) s);
		if (s < want)
		{
			pm_int128	lim = pow10_128(38 - (want - (int) s));

			/* beyond 38 digits: make it overflow the precision (NULL below) */
			if (out[i] >= lim || out[i] <= -lim)
				out[i] = pow10_128(38);
			else
				out[i] *= pow10_128(want - (int) s);
		}
		else
		{
			pm_int128	d = pow10_128((int) s - want);
			pm_int128	q = out[i] / d;
			pm_int128	rem = out[i] % d;

			/* HALF_UP, as HiveDecimal */
			if (rem * 2 >= d)
				q++;
			else if (rem * 2 <= -d)
				q--;
			out[i] = q;
		}
	}
	return PM_OK;
}

static pm_code
decode_timestamp(orc_reader *r, col_reader *c, pm_vector *v, int64_t k, pm_error *err)
{
	int64_t    *out = v->values;
	int64_t    *nanos;
	bool		instant = c->ot->kind == ORC_TIMESTAMP_INSTANT;
	bool		ltz_instant = instant && r->ltz_instant &&
		c->type->id == PM_TYPE_TIMESTAMP_LTZ;
	const pm_tz *w = instant ? pm_tz_utc() : c->writer_tz;
	const pm_tz *rd;
	int64_t		base;
	bool		same;

	/* the zone Java's reader (JVM default) would use; see file header */
	rd = r->reader_tz ? r->reader_tz : (instant ? c->writer_tz : pm_tz_utc());
	if (rd == NULL)
		rd = pm_tz_utc();
	if (w == NULL)
		w = rd;
	base = pm_tz_local_to_utc(w, ORC_BASE_UTC);
	same = instant || pm_tz_same_rules(w, rd);
	nanos = pm_arena_alloc(r->batch_arena, sizeof(int64_t) * (size_t) (k + 1));
	if (nanos == NULL)
		return nomem(err);
	PM_TRY(orc_int_rle_read(&c->data, out, k, err));
	PM_TRY(orc_int_rle_read(&c->secondary, nanos, k, err));
	for (int64_t i = 0; i < k; i++)
	{
		uint64_t	enc = (uint64_t) nanos[i];
		int			zeros = (int) (enc & 7);
		int64_t		ns = (int64_t) (enc >> 3);
		int64_t		millis,
					t,
					wall;

		for (int z = 0; zeros != 0 && z <= zeros && ns <= 999999999; z++)
			ns *= 10;
		if (ns > 999999999 || out[i] > INT64_C(1) << 40 ||
			out[i] < -(INT64_C(1) << 40))
			return pm_fail(err, PM_ERR_CORRUPT, "invalid orc timestamp in column \"%s\"",
						   c->name);
		millis = (out[i] + base) * 1000 + ns / 1000000;
		if (millis < 0 && ns > 999999)
			millis -= 1000;
		t = millis;
		if (!same)
		{
			/* SerializationUtils.convertBetweenTimezones(writer, reader, millis) */
			int64_t		wo = pm_tz_offset_millis(w, millis);
			int64_t		ro = pm_tz_offset_millis(rd, millis);
			int64_t		adj = millis + wo - ro;

			t = millis + wo - pm_tz_offset_millis(rd, adj);
		}
		/*
		 * DateTimeUtils.toInternal: wall clock in the reader zone. Not for
		 * the instants of non-legacy LTZ (Timestamp.fromEpochMillis); an LTZ
		 * column of kind TIMESTAMP (Paimon < 0.7) always holds wall clocks.
		 */
		if (ltz_instant)
			wall = t;
		else
			wall = t + pm_tz_offset_millis(rd, t);
		ns %= 1000000;
		out[i] = wall * 1000 + ns / 1000;
		nanos[i] = ns % 1000;
	}
	if (v->nanos != NULL)
		for (int64_t i = 0; i < k; i++)
			v->nanos[i] = (uint16_t) nanos[i];
	return PM_OK;
}

/* Build offsets over n slots from k dense lengths; returns the total. */
static pm_code
lengths_to_offsets(col_reader *c, const int64_t *lens, const uint8_t *nulls, int64_t n,
				   int32_t *offsets, int64_t cap, int64_t *total, pm_error *err)
{
	int64_t		sum = 0,
				j = 0;

	offsets[0] = 0;
	for (int64_t i = 0; i < n; i++)
	{
		if (nulls == NULL || !nulls[i])
		{
			int64_t		l = lens[j++];

			if (l < 0 || l > cap - sum)
				return pm_fail(err, PM_ERR_CORRUPT, "invalid lengths in orc column \"%s\"",
							   c->name);
			sum += l;
		}
		offsets[i + 1] = (int32_t) sum;
	}
	*total = sum;
	return PM_OK;
}

static pm_code decode_varlen_raw(orc_reader *r, col_reader *c, pm_vector *v, int64_t n,
								 int64_t k, pm_error *err);

/*
 * ORC CHAR(n) values are stored padded with spaces; ORC's Java reader
 * (TreeReaderFactory.CharTreeReader, right trim) and so Paimon return them
 * without the trailing spaces. Copies the column's bytes, trimmed.
 */
static pm_code
trim_char_padding(orc_reader *r, pm_vector *v, int64_t n, pm_error *err)
{
	uint8_t    *out = pm_arena_alloc(r->batch_arena, (size_t) v->data_size + 1);
	int32_t		pos = 0;

	if (out == NULL)
		return nomem(err);
	for (int64_t i = 0; i < n; i++)
	{
		int32_t		start = v->offsets[i];
		int32_t		len = v->offsets[i + 1] - start;

		while (len > 0 && v->data[start + len - 1] == ' ')
			len--;
		if (len > 0)
			memcpy(out + pos, v->data + start, (size_t) len);
		v->offsets[i] = pos;
		pos += len;
	}
	v->offsets[n] = pos;
	v->data = out;
	v->data_size = pos;
	return PM_OK;
}

static pm_code
decode_varlen(orc_reader *r, col_reader *c, pm_vector *v, int64_t n, int64_t k,
			  pm_error *err)
{
	PM_TRY(decode_varlen_raw(r, c, v, n, k, err));
	if (c->ot->kind == ORC_CHAR)
		return trim_char_padding(r, v, n, err);
	return PM_OK;
}

static pm_code
decode_varlen_raw(orc_reader *r, col_reader *c, pm_vector *v, int64_t n, int64_t k,
				  pm_error *err)
{
	int64_t    *tmp = pm_arena_alloc(r->batch_arena, sizeof(int64_t) * (size_t) (k + 1));
	int64_t		total;

	if (tmp == NULL)
		return nomem(err);
	if (!c->dict)
	{
		int64_t		avail = c->raw.end - c->raw.p;

		PM_TRY(orc_int_rle_read(&c->length, tmp, k, err));
		PM_TRY(lengths_to_offsets(c, tmp, v->nulls, n, v->offsets,
								  avail < INT32_MAX ? avail : INT32_MAX, &total, err));
		/* the bytes are contiguous in the stream: point at them */
		v->data = (uint8_t *) c->raw.p;
		v->data_size = total;
		c->raw.p += total;
		return PM_OK;
	}
	PM_TRY(orc_int_rle_read(&c->data, tmp, k, err));
	total = 0;
	for (int64_t i = 0; i < k; i++)
	{
		int64_t		d = tmp[i];

		if (d < 0 || d >= (int64_t) c->dict_size)
			return pm_fail(err, PM_ERR_CORRUPT, "orc dictionary index out of range in \"%s\"",
						   c->name);
		total += c->dict_offsets[d + 1] - c->dict_offsets[d];
		if (total > INT32_MAX)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "orc column \"%s\" has more than 2 GiB of data in one batch",
						   c->name);
	}
	v->data = pm_arena_alloc(r->batch_arena, (size_t) total + 1);
	if (v->data == NULL)
		return nomem(err);
	{
		int64_t		j = 0,
					pos = 0;

		v->offsets[0] = 0;
		for (int64_t i = 0; i < n; i++)
		{
			if (v->nulls == NULL || !v->nulls[i])
			{
				int64_t		d = tmp[j++];
				int64_t		l = c->dict_offsets[d + 1] - c->dict_offsets[d];

				memcpy(v->data + pos, c->dict_data + c->dict_offsets[d], (size_t) l);
				pos += l;
			}
			v->offsets[i + 1] = (int32_t) pos;
		}
	}
	v->data_size = total;
	return PM_OK;
}

static pm_code read_col(orc_reader *r, col_reader *c, pm_vector *v, int64_t n,
						const uint8_t *parent, pm_error *err);

static pm_code
decode_nested(orc_reader *r, col_reader *c, pm_vector *v, int64_t n, int64_t k,
			  pm_error *err)
{
	if (c->type->id == PM_TYPE_ROW)
	{
		for (int i = 0; i < c->nchildren; i++)
			PM_TRY(read_col(r, &c->children[i], &v->children[i], n, v->nulls, err));
		return PM_OK;
	}
	else
	{
		int64_t    *lens = pm_arena_alloc(r->batch_arena, sizeof(int64_t) * (size_t) (k + 1));
		int64_t		total;

		if (lens == NULL)
			return nomem(err);
		PM_TRY(orc_int_rle_read(&c->length, lens, k, err));
		PM_TRY(lengths_to_offsets(c, lens, v->nulls, n, v->offsets,
								  r->elem_cap < INT32_MAX ? r->elem_cap : INT32_MAX,
								  &total, err));
		for (int i = 0; i < c->nchildren; i++)
			PM_TRY(read_col(r, &c->children[i], &v->children[i], total, NULL, err));
		return PM_OK;
	}
}

/* Allocate v for n values of c->type (nulls already decided). */
static pm_code
alloc_vector(orc_reader *r, col_reader *c, pm_vector *v, int64_t n, pm_error *err)
{
	const pm_type *t = c->type;
	int			size = pm_type_value_size(t->id);
	size_t		cap = (size_t) n + 1;

	v->type = t;
	v->length = n;
	if (size > 0 && (v->values = pm_arena_alloc(r->batch_arena, cap * size)) == NULL)
		return nomem(err);
	if ((t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) && t->precision > 6 &&
		(v->nanos = pm_arena_zalloc(r->batch_arena, cap * sizeof(uint16_t))) == NULL)
		return nomem(err);
	if ((pm_type_is_varlen(t->id) || t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MAP ||
		 t->id == PM_TYPE_MULTISET) &&
		(v->offsets = pm_arena_alloc(r->batch_arena, cap * sizeof(int32_t))) == NULL)
		return nomem(err);
	if (c->nchildren > 0)
	{
		v->nchildren = c->nchildren;
		if ((v->children = pm_arena_zalloc(r->batch_arena,
										   sizeof(pm_vector) * c->nchildren)) == NULL)
			return nomem(err);
	}
	return PM_OK;
}

/*
 * A vector of n NULLs of `type`, nested ROW fields included (each of n
 * NULLs); collections have empty children.
 */
static bool
all_null(pm_arena *a, pm_vector *v, const pm_type *t, int64_t n)
{
	int			size = pm_type_value_size(t->id);
	size_t		cap = (size_t) n + 1;

	memset(v, 0, sizeof(*v));
	v->type = t;
	v->length = n;
	if ((v->nulls = pm_arena_alloc(a, cap)) == NULL)
		return false;
	memset(v->nulls, 1, cap);
	if (size > 0 && (v->values = pm_arena_zalloc(a, cap * size)) == NULL)
		return false;
	if ((pm_type_is_varlen(t->id) || t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MULTISET ||
		 t->id == PM_TYPE_MAP) &&
		(v->offsets = pm_arena_zalloc(a, cap * sizeof(int32_t))) == NULL)
		return false;
	if (pm_type_is_varlen(t->id) && (v->data = pm_arena_zalloc(a, 1)) == NULL)
		return false;
	v->nchildren = t->id == PM_TYPE_ROW ? t->nfields :
		t->id == PM_TYPE_MAP ? 2 : (t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MULTISET) ? 1 : 0;
	if (v->nchildren == 0)
		return true;
	if ((v->children = pm_arena_zalloc(a, sizeof(pm_vector) * v->nchildren)) == NULL)
		return false;
	if (t->id == PM_TYPE_ROW)
	{
		for (int i = 0; i < t->nfields; i++)
			if (!all_null(a, &v->children[i], t->fields[i].type, n))
				return false;
		return true;
	}
	if (!all_null(a, &v->children[0], t->element, 0))
		return false;
	return v->nchildren < 2 || all_null(a, &v->children[1], t->value, 0);
}

static pm_code
read_col(orc_reader *r, col_reader *c, pm_vector *v, int64_t n, const uint8_t *parent,
		 pm_error *err)
{
	uint8_t    *nulls;
	int64_t		k;
	int			size;

	memset(v, 0, sizeof(*v));
	if (n > r->elem_cap)
		return pm_fail(err, PM_ERR_CORRUPT, "orc column \"%s\" claims too many values",
					   c->name);
	if (c->col < 0)
	{
		if (!all_null(r->batch_arena, v, c->type, n))
			return nomem(err);
		return PM_OK;
	}
	PM_TRY(read_nulls(r, c, n, parent, &nulls, &k, err));
	PM_TRY(alloc_vector(r, c, v, n, err));
	v->nulls = nulls;
	switch (c->type->id)
	{
		case PM_TYPE_BOOLEAN:
			PM_TRY(orc_bool_rle_read(&c->bools, v->values, k, err));
			break;
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIME:
		case PM_TYPE_DATE:
			PM_TRY(decode_integer(r, c, v, k, err));
			break;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			PM_TRY(decode_float(c, v, k, err));
			break;
		case PM_TYPE_DECIMAL:
			PM_TRY(decode_decimal(r, c, v, k, err));
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			PM_TRY(decode_timestamp(r, c, v, k, err));
			if (nulls != NULL && v->nanos != NULL)
				scatter(v->nanos, sizeof(uint16_t), nulls, n, k);
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
		case PM_TYPE_ROW:
			return decode_nested(r, c, v, n, k, err);
		case PM_TYPE_MULTISET:
			/* each element as often as its count says (NULL, negative: corrupt) */
			PM_TRY(decode_nested(r, c, v, n, k, err));
			return pm_vector_expand_multiset(v, r->batch_arena, err);
		default:
			if (pm_type_is_varlen(c->type->id))
				return decode_varlen(r, c, v, n, k, err);
			return pm_fail(err, PM_ERR_UNSUPPORTED, "orc column \"%s\": type %s unsupported",
						   c->name, pm_type_id_name(c->type->id));
	}
	size = pm_type_value_size(c->type->id);
	if (nulls != NULL && size > 0)
		scatter(v->values, (size_t) size, nulls, n, k);
	if (c->type->id == PM_TYPE_DECIMAL)
		return decimal_overflow_to_null(r, c, v, err);
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * Stripe statistics
 * ---------------------------------------------------------------------
 */

/*
 * The Metadata section (stripe statistics, between the last stripe and the
 * footer). Statistics are an optimisation: a section that cannot be read
 * or decoded leaves every stripe to be read.
 */
static void
read_stripe_stats(orc_reader *r)
{
	uint64_t	ps_and_footer;
	uint64_t	mstart;
	uint8_t    *buf;
	const uint8_t *md;
	size_t		md_len;
	pm_error	err;
	int			n;
	orc_stripe_stats *ss;
	uint8_t		ps_len_byte;

	if (r->ps.metadata_length == 0 || r->ps.metadata_length > MAX_FOOTER)
		return;
	if (pm_file_pread(r->io, r->file, &ps_len_byte, 1, r->file_size - 1, &err) != PM_OK)
		return;
	ps_and_footer = 1 + (uint64_t) ps_len_byte + r->ps.footer_length;
	if (ps_and_footer + r->ps.metadata_length > r->file_size)
		return;
	mstart = r->file_size - ps_and_footer - r->ps.metadata_length;
	buf = pm_arena_alloc(r->file_arena, (size_t) r->ps.metadata_length + 1);
	if (buf == NULL ||
		pm_file_pread(r->io, r->file, buf, (size_t) r->ps.metadata_length, mstart, &err) != PM_OK ||
		orc_decompress_stream((int) r->ps.compression, r->ps.block_size, buf,
							  (size_t) r->ps.metadata_length, r->file_arena, MAX_STREAM_OUT,
							  &md, &md_len, &err) != PM_OK ||
		orc_parse_metadata(md, md_len, r->file_arena, &n, &ss, &err) != PM_OK ||
		n != r->footer.nstripes)
		return;
	r->nstripe_stats = n;
	r->stripe_stats = ss;
}

/* Decimal text ("-12.5") as an unscaled value at scale; false if not exact. */
static bool
decimal_text(const uint8_t *p, uint32_t len, int scale, pm_int128 *out)
{
	pm_int128	v = 0;
	bool		neg = false,
				point = false,
				any = false;
	int			frac = 0,
				digits = 0;

	if (len > 0 && (p[0] == '-' || p[0] == '+'))
	{
		neg = p[0] == '-';
		p++;
		len--;
	}
	for (uint32_t i = 0; i < len; i++)
	{
		if (p[i] == '.' && !point)
		{
			point = true;
			continue;
		}
		if (p[i] < '0' || p[i] > '9')
			return false;
		if (point)
			frac++;
		if (v != 0 || p[i] != '0')
			digits++;
		if (digits > 38)
			return false;
		v = v * 10 + (p[i] - '0');
		any = true;
	}
	if (!any || frac > scale)
		return false;
	for (; frac < scale; frac++)
	{
		if (++digits > 38)
			return false;
		v *= 10;
	}
	*out = neg ? -v : v;
	return true;
}

/*
 * What statistics cs (of a stripe or a row group of nrows rows; NULL: none)
 * say about requested column c.
 */
static void
stats_range(const orc_col_stats *cs, const col_reader *c, uint64_t nrows, pm_field_range *out)
{
	int			kind;

	memset(out, 0, sizeof(*out));
	out->null_count = -1;
	out->row_count = (int64_t) nrows;
	if (c->col < 0)
	{
		out->known = true;
		out->null_count = (int64_t) nrows;
		return;
	}
	if (cs == NULL || c->ot == NULL)
		return;
	kind = c->ot->kind;
	out->known = true;
	if (cs->has_nvalues && cs->nvalues <= nrows)
		out->null_count = (int64_t) (nrows - cs->nvalues);
	switch (c->type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
			if (cs->has_int && (kind == ORC_BYTE || kind == ORC_SHORT || kind == ORC_INT ||
								kind == ORC_LONG))
			{
				out->min.u.i64 = cs->int_min;
				out->max.u.i64 = cs->int_max;
				out->has_min_max = true;
			}
			break;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			if (cs->has_double && (kind == ORC_FLOAT || kind == ORC_DOUBLE))
			{
				out->min.u.f64 = cs->double_min;
				out->max.u.f64 = cs->double_max;
				out->has_min_max = true;
			}
			break;
		case PM_TYPE_VARCHAR:
			/* byte-wise unsigned order (ORC's Text comparison); never CHAR */
			if (cs->str_min != NULL && (kind == ORC_STRING || kind == ORC_VARCHAR))
			{
				out->min.u.bytes.ptr = cs->str_min;
				out->min.u.bytes.len = (int32_t) cs->str_min_len;
				out->max.u.bytes.ptr = cs->str_max;
				out->max.u.bytes.len = (int32_t) cs->str_max_len;
				out->has_min_max = cs->str_min_len <= INT32_MAX && cs->str_max_len <= INT32_MAX;
			}
			break;
		case PM_TYPE_DECIMAL:
			if (cs->dec_min != NULL && kind == ORC_DECIMAL &&
				decimal_text(cs->dec_min, cs->dec_min_len, c->type->scale, &out->min.u.i128) &&
				decimal_text(cs->dec_max, cs->dec_max_len, c->type->scale, &out->max.u.i128))
				out->has_min_max = true;
			break;
		case PM_TYPE_DATE:
			if (cs->has_date && kind == ORC_DATE)
			{
				out->min.u.i64 = cs->date_min;
				out->max.u.i64 = cs->date_max;
				out->has_min_max = true;
			}
			break;
		default:
			/* booleans, binary, timestamps (zones, legacy encodings): unused */
			break;
	}
}

/* What stripe `s`'s statistics say about requested column c. */
static void
stripe_range(const orc_reader *r, int s, const col_reader *c, pm_field_range *out)
{
	const orc_stripe_stats *ss = &r->stripe_stats[s];

	stats_range(c->col >= 0 && c->col < ss->ncols ? &ss->cols[c->col] : NULL, c,
				r->footer.stripes[s].nrows, out);
}

/* Whether stripe s may hold a matching row (no filter or no statistics: yes). */
static bool
stripe_may_match(orc_reader *r, int s)
{
	if (r->part_filter == NULL)
		return true;
	for (int i = 0; i < r->ncols; i++)
	{
		if (r->stripe_stats != NULL)
			stripe_range(r, s, &r->cols[i], &r->ranges[i]);
		else
		{
			memset(&r->ranges[i], 0, sizeof(pm_field_range));
			r->ranges[i].null_count = -1;
			r->ranges[i].row_count = -1;
		}
	}
	return r->part_filter(r->part_filter_ctx, r->ranges, r->ncols,
						  (int64_t) r->footer.stripes[s].nrows);
}

/* ---------------------------------------------------------------------
 * The reader
 * ---------------------------------------------------------------------
 */

/*
 * With some row groups of the stripe skipped: from r->stripe_pos, on to the
 * next group read (seeking every column there when its group is skipped)
 * and *limit the end of the run of groups read it starts; stripe_pos past
 * the stripe when no group after it is read.
 */
static pm_code
next_group_run(orc_reader *r, uint64_t *limit, pm_error *err)
{
	int64_t		g = (int64_t) (r->stripe_pos / r->stride);
	int64_t		e;

	if (!r->group_sel[g])
	{
		while (g < r->ngroups && !r->group_sel[g])
			g++;
		if (g == r->ngroups)
		{
			r->stripe_pos = r->stripe_rows;
			return PM_OK;
		}
		r->need_seek = true;
	}
	for (e = g + 1; e < r->ngroups && r->group_sel[e]; e++)
		;
	if (r->need_seek)
	{
		pm_arena_reset(r->run_arena);
		for (int i = 0; i < r->ncols; i++)
			PM_TRY(seek_column(r, &r->cols[i], g, e, err));
		r->stripe_pos = (uint64_t) g * r->stride;
		r->need_seek = false;
	}
	*limit = (uint64_t) e * r->stride;
	if (*limit > r->stripe_rows)
		*limit = r->stripe_rows;
	return PM_OK;
}

static pm_code
orc_next(pm_format_reader *base, pm_batch **out, pm_error *err)
{
	orc_reader *r = (orc_reader *) base;
	int64_t		n;
	uint64_t	limit;
	pm_code		rc;

	*out = NULL;
	for (;;)
	{
		while (r->stripe < 0 || r->stripe_pos >= r->stripe_rows)
		{
			if (r->stripe >= 0)
				r->row_base += (int64_t) r->stripe_rows;
			if (r->stripe + 1 >= r->footer.nstripes)
				return PM_OK;
			r->stripe++;
			if (r->footer.stripes[r->stripe].nrows > 0 && r->stripe_sel != NULL &&
				!pm_row_selection_holds(r->stripe_sel, r->row_base,
										r->row_base + (int64_t) r->footer.stripes[r->stripe].nrows))
			{
				/* no selected row: not even its statistics are looked at */
				if ((r->unit_claim == NULL || r->unit_claim(r->unit_ctx)) &&
					r->stripes_unselected != NULL)
					(*r->stripes_unselected)++;
				r->stripe_rows = r->footer.stripes[r->stripe].nrows;
				r->stripe_pos = r->stripe_rows;
				continue;
			}
			if (r->footer.stripes[r->stripe].nrows > 0 && !stripe_may_match(r, r->stripe))
			{
				/* skipped: its rows still count for the positions after it */
				r->stripe_rows = r->footer.stripes[r->stripe].nrows;
				r->stripe_pos = r->stripe_rows;
				continue;
			}
			rc = load_stripe(r, err);
			if (rc != PM_OK)
			{
				r->stripe = r->footer.nstripes;
				pm_error_set_path(err, r->path);
				return rc;
			}
		}
		limit = r->stripe_rows;
		if (r->group_sel == NULL)
			break;
		rc = next_group_run(r, &limit, err);
		if (rc != PM_OK)
		{
			r->stripe = r->footer.nstripes;
			r->stripe_rows = 0;
			pm_error_set_path(err, r->path);
			return rc;
		}
		if (r->stripe_pos < r->stripe_rows)
			break;
	}
	n = (int64_t) (limit - r->stripe_pos);
	if (n > r->batch_size)
		n = r->batch_size;
	pm_arena_reset(r->batch_arena);
	r->batch.nrows = n;
	r->batch.first_row = r->row_base + (int64_t) r->stripe_pos;
	r->batch.ncols = r->ncols;
	r->batch.cols = pm_arena_zalloc(r->batch_arena, sizeof(pm_vector) * (r->ncols + 1));
	if (r->batch.cols == NULL)
		return nomem(err);
	for (int i = 0; i < r->ncols; i++)
	{
		rc = read_col(r, &r->cols[i], &r->batch.cols[i], n, NULL, err);
		if (rc != PM_OK)
		{
			/* no partial stripe after an error */
			r->stripe = r->footer.nstripes;
			r->stripe_rows = 0;
			pm_error_set_path(err, r->path);
			return rc;
		}
	}
	r->stripe_pos += (uint64_t) n;
	*out = &r->batch;
	return PM_OK;
}

static int64_t
orc_row_count(pm_format_reader *base)
{
	orc_reader *r = (orc_reader *) base;

	return r->footer.nrows > INT64_MAX ? -1 : (int64_t) r->footer.nrows;
}

static void
orc_close(pm_format_reader *base)
{
	orc_reader *r = (orc_reader *) base;
	const pm_env *env = r->env;
	pm_arena   *fa = r->file_arena;

	if (r->file != NULL)
		pm_file_close(r->io, r->file);
	if (r->batch_arena)
		pm_arena_destroy(r->batch_arena);
	if (r->run_arena)
		pm_arena_destroy(r->run_arena);
	if (r->stripe_arena)
		pm_arena_destroy(r->stripe_arena);
	pm_free(env, r);
	pm_arena_destroy(fa);
}

static const pm_format_reader_ops orc_ops = {orc_next, orc_row_count, orc_close};

pm_code
pm_orc_reader_open(const pm_env *env, pm_fileio *io, const char *path,
				   const pm_format_read_options *options,
				   pm_format_reader **out, pm_error *err)
{
	orc_reader *r;
	pm_code		rc;
	const pm_type *schema = options ? options->schema : NULL;

	*out = NULL;
	if (schema == NULL || schema->id != PM_TYPE_ROW)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_INVALID, "orc reader needs a ROW type to read");
	}
	r = pm_alloc(env, sizeof(orc_reader));
	if (r == NULL)
		return nomem(err);
	memset(r, 0, sizeof(*r));
	r->base.ops = &orc_ops;
	r->env = env;
	r->io = io;
	r->stripe = -1;
	r->schema = schema;
	r->ltz_instant = options->orc_ltz_instant;
	r->batch_size = options->batch_size > 0 ? options->batch_size : PM_DEFAULT_BATCH_SIZE;
	r->file_arena = pm_arena_create(env);
	if (r->file_arena == NULL)
	{
		pm_free(env, r);
		return nomem(err);
	}
	r->stripe_arena = pm_arena_create(env);
	r->batch_arena = pm_arena_create(env);
	r->run_arena = pm_arena_create(env);
	r->path = pm_arena_strdup(r->file_arena, path);
	if (r->stripe_arena == NULL || r->batch_arena == NULL || r->run_arena == NULL ||
		r->path == NULL)
	{
		rc = nomem(err);
		goto fail;
	}
	rc = pm_file_open(io, path, &r->file, err);
	if (rc == PM_OK)
		rc = pm_file_size(io, r->file, &r->file_size, err);
	if (rc == PM_OK)
		rc = read_tail(r, err);
	if (rc == PM_OK && options->orc_reader_timezone != NULL)
		rc = get_tz(r, options->orc_reader_timezone, &r->reader_tz, err);
	if (rc == PM_OK)
	{
		const orc_type *root = &r->footer.types[0];

		r->ncols = schema->nfields;
		r->cols = pm_arena_zalloc(r->file_arena, sizeof(col_reader) * (r->ncols + 1));
		if (r->cols == NULL)
			rc = nomem(err);
		for (int i = 0; rc == PM_OK && i < r->ncols; i++)
		{
			int			fi = struct_field(root, schema->fields[i].name);

			rc = plan_column(r, &r->cols[i], schema->fields[i].type, schema->fields[i].name,
							 fi >= 0 ? (int) root->subtypes[fi] : -1, 0, err);
		}
	}
	r->elem_cap = INT32_MAX;
	r->probes = options->equal_probes;
	r->nprobes = options->equal_probes != NULL ? options->nequal_probes : 0;
	r->bloom_skipped = options->parts_bloom_skipped;
	r->part_filter_ctx = options->part_filter_ctx;
	if (rc == PM_OK && (options->part_filter != NULL || options->page_filter != NULL))
	{
		r->ranges = pm_arena_zalloc(r->file_arena, sizeof(pm_field_range) * (r->ncols + 1));
		if (r->ranges == NULL)
			rc = nomem(err);
	}
	if (rc == PM_OK && options->part_filter != NULL)
	{
		r->part_filter = options->part_filter;
		read_stripe_stats(r);
	}
	r->stripe_sel = options->row_selection;
	r->stripes_unselected = options->parts_unselected;
	r->unit_claim = options->unit_claim;
	r->unit_ctx = options->part_filter_ctx;
	/* row groups: by the group filter or the row selection, flat columns only */
	if (rc == PM_OK && (options->page_filter != NULL || options->row_selection != NULL) &&
		r->footer.row_index_stride > 0 && r->footer.row_index_stride <= INT32_MAX)
	{
		r->use_row_index = true;
		for (int i = 0; i < r->ncols; i++)
			r->use_row_index = r->use_row_index && row_index_usable(&r->cols[i]);
		r->stride = r->footer.row_index_stride;
		r->group_filter = options->page_filter;
		r->row_sel = options->row_selection;
		r->groups_total = options->orc_groups_total;
		r->groups_skipped = options->orc_groups_skipped;
	}
	if (rc == PM_OK)
	{
		*out = &r->base;
		return PM_OK;
	}
fail:
	pm_error_set_path(err, path);
	orc_close(&r->base);
	return rc;
}
