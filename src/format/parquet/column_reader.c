/*-------------------------------------------------------------------------
 * column_reader.c
 *	  One Parquet leaf column chunk: page headers, decompression, levels and
 *	  value decoding (see column_reader.h). Conversion into vectors is in
 *	  column_values.c.
 *
 * Memory: page buffers, level arrays and materialised values live in the
 * column's reusable page buffers or its page arena (reset when the next page
 * is loaded); the converted
 * dictionary lives in the row-group arena. Every count and length from the
 * file is checked before it sizes an allocation: a page's level count is
 * bounded by its (checked) size, decompressed sizes by the compressed size.
 *
 * Spec: apache/parquet-format README.md (pages), Encodings.md,
 * LogicalTypes.md; Paimon's writer: format/parquet/ParquetSchemaConverter.java.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/column_reader.h"
#include "format/parquet/column_values.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "common/page_lru.h"
#include "format/parquet/parquet_encoding.h"

/* Decompressed page limits (decompression bombs). */
#define MAX_PAGE_SIZE		((int64_t) 256 << 20)
#define MAX_PAGE_RATIO		32768
/* Level entries per page beyond what its bytes could encode bit by bit. */
#define PAGE_ENTRY_SLACK	((int64_t) 1 << 20)
/* Level entries of one page, whatever its size (level arrays, indices). */
#define MAX_PAGE_ENTRIES	((int64_t) 1 << 26)


pm_code
pm_pq_column_init(pm_pq_column *c, const pm_env *env, const pm_pq_node *leaf,
				  const pm_type *target, const char *name, pm_error *err)
{
	memset(c, 0, sizeof(*c));
	c->env = env;
	c->leaf = leaf;
	c->name = name;
	c->physical = leaf->physical;
	c->type_length = leaf->type_length;
	c->max_def = leaf->max_def;
	c->max_rep = leaf->max_rep;
	c->target = target;
	c->time_div = 1;
	if (c->max_def > 255 || c->max_rep > 255)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "parquet column \"%s\" nested too deeply", name);
	if (target != NULL)
	{
		c->conv = pm_pq_column_choose_conv(leaf, target, &c->time_div);
		if (c->conv == PM_PQ_CV_NONE)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "cannot read parquet column \"%s\" of type %s as %s",
						   name, pm_pq_physical_name(leaf->physical), pm_type_id_name(target->id));
		c->want_nanos = (target->id == PM_TYPE_TIMESTAMP ||
						 target->id == PM_TYPE_TIMESTAMP_LTZ) && target->precision > 6;
	}
	c->page_arena = pm_arena_create(env);
	if (c->page_arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

void
pm_pq_column_clear_pieces(pm_pq_column *c)
{
	for (int i = 0; i < c->npieces; i++)
		pm_page_lru_unpin(c->pieces[i].hit);
	pm_page_lru_unpin(c->dict_pin);
	c->dict_pin = NULL;
	c->npieces = 0;
	c->next_piece = 0;
	c->cur_piece = NULL;
	c->cur_hit = false;
}

bool
pm_pq_column_add_piece(pm_pq_column *c, size_t pos, int64_t file_off, size_t len,
					   pm_page_entry *hit)
{
	if (c->npieces == c->pieces_cap)
	{
		int			ncap = c->pieces_cap ? c->pieces_cap * 2 : 16;
		pm_pq_piece *np = pm_alloc(c->env, sizeof(pm_pq_piece) * (size_t) ncap);

		if (np == NULL)
		{
			pm_page_lru_unpin(hit);
			return false;
		}
		if (c->npieces > 0)
			memcpy(np, c->pieces, sizeof(pm_pq_piece) * (size_t) c->npieces);
		pm_free(c->env, c->pieces);
		c->pieces = np;
		c->pieces_cap = ncap;
	}
	c->pieces[c->npieces].pos = pos;
	c->pieces[c->npieces].file_off = file_off;
	c->pieces[c->npieces].len = len;
	c->pieces[c->npieces].hit = hit;
	c->npieces++;
	return true;
}

void
pm_pq_column_release(pm_pq_column *c)
{
	pm_pq_column_clear_pieces(c);
	pm_free(c->env, c->pieces);
	c->pieces = NULL;
	c->pieces_cap = 0;
	for (int i = 0; i < PM_PQ_NSCRATCH; i++)
	{
		pm_free(c->env, c->scratch[i]);
		c->scratch[i] = NULL;
		c->scratch_cap[i] = 0;
	}
	if (c->page_arena != NULL)
		pm_arena_destroy(c->page_arena);
	c->page_arena = NULL;
}

/* ------------------------------------------------------------- decoding */

static int
fixed_width(const pm_pq_column *c)
{
	switch (c->physical)
	{
		case PM_PQ_INT32:
		case PM_PQ_FLOAT:
			return 4;
		case PM_PQ_INT64:
		case PM_PQ_DOUBLE:
			return 8;
		case PM_PQ_INT96:
			return 12;
		case PM_PQ_FIXED_LEN_BYTE_ARRAY:
			return c->type_length;
		default:
			return 0;
	}
}

static pm_code
corrupt(pm_pq_column *c, pm_error *err, const char *why)
{
	return pm_fail(err, PM_ERR_CORRUPT, "invalid page in parquet column \"%s\": %s",
				   c->name, why);
}

static pm_code
nomem(pm_error *err)
{
	return pm_fail(err, PM_ERR_NOMEM, "out of memory decoding a parquet page");
}

/*
 * A page buffer of at least size bytes from the column's reusable slot, or
 * from arena when slot < 0 (dictionaries, which outlive the page).
 */
static void *
page_buf(pm_pq_column *c, int slot, size_t size, pm_arena *arena)
{
	if (slot < 0)
		return pm_arena_alloc(arena, size);
	if (size > c->scratch_cap[slot])
	{
		size_t		ncap = size + size / 4 + 64;

		pm_free(c->env, c->scratch[slot]);
		c->scratch_cap[slot] = 0;
		c->scratch[slot] = pm_alloc(c->env, ncap);
		if (c->scratch[slot] == NULL)
			return NULL;
		c->scratch_cap[slot] = ncap;
	}
	return c->scratch[slot];
}

/* PLAIN BYTE_ARRAY: n values of (u32 LE length, bytes). */
static pm_code
plain_byte_array(pm_pq_column *c, const uint8_t *p, size_t len, int64_t n,
				 pm_pq_values *out, bool dict, pm_arena *arena, pm_error *err)
{
	uint32_t   *start;
	uint32_t   *lens;
	size_t		pos = 0;

	if ((uint64_t) n > len / 4)
		return corrupt(c, err, "truncated byte array values");
	start = page_buf(c, dict ? -1 : PM_PQ_SCR_START, sizeof(uint32_t) * (size_t) (n + 1), arena);
	lens = page_buf(c, dict ? -1 : PM_PQ_SCR_LEN, sizeof(uint32_t) * (size_t) (n + 1), arena);
	if (start == NULL || lens == NULL)
		return nomem(err);
	for (int64_t i = 0; i < n; i++)
	{
		uint32_t	l;

		if (len - pos < 4)
			return corrupt(c, err, "truncated byte array values");
		memcpy(&l, p + pos, 4);
		pos += 4;
		if (l > len - pos || l > (uint32_t) INT32_MAX)
			return corrupt(c, err, "byte array longer than its page");
		start[i] = (uint32_t) pos;
		lens[i] = l;
		pos += l;
	}
	out->base = p;
	out->start = start;
	out->len = lens;
	return PM_OK;
}

/* DELTA_LENGTH_BYTE_ARRAY; *used gets the bytes consumed. */
static pm_code
delta_length_byte_array(pm_pq_column *c, const uint8_t *p, size_t len, int64_t n,
						pm_pq_values *out, size_t *used, pm_arena *arena, pm_error *err)
{
	int64_t    *l64 = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (n + 1));
	uint32_t   *start = pm_arena_alloc(arena, sizeof(uint32_t) * (size_t) (n + 1));
	uint32_t   *lens = pm_arena_alloc(arena, sizeof(uint32_t) * (size_t) (n + 1));
	int64_t		got;
	const char *why = NULL;
	int64_t		r;
	size_t		pos;

	if (l64 == NULL || start == NULL || lens == NULL)
		return nomem(err);
	r = pm_pq_delta_decode(p, len, n, l64, &got, &why);
	if (r < 0)
		return corrupt(c, err, why);
	if (got != n)
		return corrupt(c, err, "delta length count differs from the value count");
	pos = (size_t) r;
	for (int64_t i = 0; i < n; i++)
	{
		if (l64[i] < 0 || (uint64_t) l64[i] > len - pos)
			return corrupt(c, err, "byte array longer than its page");
		start[i] = (uint32_t) pos;
		lens[i] = (uint32_t) l64[i];
		pos += (size_t) l64[i];
	}
	out->base = p;
	out->start = start;
	out->len = lens;
	*used = pos;
	return PM_OK;
}

static pm_code
delta_byte_array(pm_pq_column *c, const uint8_t *p, size_t len, int64_t n,
				 pm_pq_values *out, pm_arena *arena, pm_error *err)
{
	int64_t    *prefix = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (n + 1));
	pm_pq_values suf;
	int64_t		got;
	const char *why = NULL;
	int64_t		r;
	size_t		used;
	uint64_t	total = 0;
	uint8_t    *buf;
	uint32_t   *start;
	uint32_t   *lens;
	uint64_t	pos = 0;
	uint64_t	prev_len = 0;

	if (prefix == NULL)
		return nomem(err);
	r = pm_pq_delta_decode(p, len, n, prefix, &got, &why);
	if (r < 0)
		return corrupt(c, err, why);
	if (got != n)
		return corrupt(c, err, "delta prefix count differs from the value count");
	memset(&suf, 0, sizeof(suf));
	PM_TRY(delta_length_byte_array(c, p + r, len - (size_t) r, n, &suf, &used, arena, err));
	for (int64_t i = 0; i < n; i++)
	{
		if (prefix[i] < 0 || (uint64_t) prefix[i] > prev_len)
			return corrupt(c, err, "delta prefix longer than the previous value");
		prev_len = (uint64_t) prefix[i] + suf.len[i];
		total += prev_len;
		if (total > (uint64_t) MAX_PAGE_SIZE)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "delta byte array page of parquet column \"%s\" expands beyond %lld bytes",
						   c->name, (long long) MAX_PAGE_SIZE);
	}
	buf = pm_arena_alloc(arena, (size_t) total + 1);
	start = pm_arena_alloc(arena, sizeof(uint32_t) * (size_t) (n + 1));
	lens = pm_arena_alloc(arena, sizeof(uint32_t) * (size_t) (n + 1));
	if (buf == NULL || start == NULL || lens == NULL)
		return nomem(err);
	for (int64_t i = 0; i < n; i++)
	{
		uint64_t	pl = (uint64_t) prefix[i];

		start[i] = (uint32_t) pos;
		if (pl > 0)
			memcpy(buf + pos, buf + start[i - 1], pl);
		memcpy(buf + pos + pl, suf.base + suf.start[i], suf.len[i]);
		lens[i] = (uint32_t) (pl + suf.len[i]);
		pos += lens[i];
	}
	out->base = buf;
	out->start = start;
	out->len = lens;
	if (c->physical == PM_PQ_FIXED_LEN_BYTE_ARRAY)
	{
		/* contiguous and all of type_length: present as fixed */
		for (int64_t i = 0; i < n; i++)
			if (lens[i] != (uint32_t) c->type_length)
				return corrupt(c, err, "fixed-length value of the wrong length");
		out->fixed = buf;
		out->width = c->type_length;
	}
	return PM_OK;
}

/* Decode n (non-null) values of encoding enc from (p, len). */
static pm_code
decode_values(pm_pq_column *c, int enc, const uint8_t *p, size_t len, int64_t n,
			  pm_pq_values *out, bool dict, pm_arena *arena, pm_error *err)
{
	int			w = fixed_width(c);
	const char *why = NULL;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->width = w;
	switch (enc)
	{
		case PM_PQ_ENC_PLAIN:
			if (c->physical == PM_PQ_BOOLEAN)
			{
				uint8_t    *b;

				if ((uint64_t) n > (uint64_t) len * 8)
					return corrupt(c, err, "truncated boolean values");
				b = page_buf(c, dict ? -1 : PM_PQ_SCR_BOOL, (size_t) n + 1, arena);
				if (b == NULL)
					return nomem(err);
				if (pm_pq_plain_bool_decode(p, len, n, b, &why) < 0)
					return corrupt(c, err, why);
				out->bools = b;
				return PM_OK;
			}
			if (c->physical == PM_PQ_BYTE_ARRAY)
				return plain_byte_array(c, p, len, n, out, dict, arena, err);
			if ((uint64_t) n * (uint64_t) w > len)
				return corrupt(c, err, "truncated values");
			out->fixed = p;
			return PM_OK;
		case PM_PQ_ENC_RLE:
			if (c->physical == PM_PQ_BOOLEAN)
			{
				uint32_t	l;
				uint8_t    *b;

				if (len < 4)
					return corrupt(c, err, "truncated boolean values");
				memcpy(&l, p, 4);
				if (l > len - 4)
					return corrupt(c, err, "truncated boolean values");
				b = pm_arena_alloc(arena, (size_t) n + 1);
				if (b == NULL)
					return nomem(err);
				if (pm_pq_rle_decode_u8(p + 4, l, 1, n, b, &why) < 0)
					return corrupt(c, err, why);
				out->bools = b;
				return PM_OK;
			}
			break;
		case PM_PQ_ENC_DELTA_BINARY_PACKED:
			if (c->physical == PM_PQ_INT32 || c->physical == PM_PQ_INT64)
			{
				int64_t    *v = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (n + 1));
				int64_t		got;

				if (v == NULL)
					return nomem(err);
				if (pm_pq_delta_decode(p, len, n, v, &got, &why) < 0)
					return corrupt(c, err, why);
				if (got != n)
					return corrupt(c, err, "delta value count differs from the level count");
				if (c->physical == PM_PQ_INT32)
				{
					int32_t    *v32 = (int32_t *) v;

					/* in place, front to back: v32[i] is below v[i] */
					for (int64_t i = 0; i < n; i++)
						v32[i] = (int32_t) v[i];
				}
				out->fixed = (const uint8_t *) v;
				return PM_OK;
			}
			break;
		case PM_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
			if (c->physical == PM_PQ_BYTE_ARRAY)
			{
				size_t		used;

				return delta_length_byte_array(c, p, len, n, out, &used, arena, err);
			}
			break;
		case PM_PQ_ENC_DELTA_BYTE_ARRAY:
			if (c->physical == PM_PQ_BYTE_ARRAY || c->physical == PM_PQ_FIXED_LEN_BYTE_ARRAY)
				return delta_byte_array(c, p, len, n, out, arena, err);
			break;
		case PM_PQ_ENC_BYTE_STREAM_SPLIT:
			if (w > 0 && c->physical != PM_PQ_INT96)
			{
				uint8_t    *b;

				if ((uint64_t) n * (uint64_t) w > len)
					return corrupt(c, err, "truncated values");
				b = pm_arena_alloc(arena, (size_t) n * (size_t) w + 1);
				if (b == NULL)
					return nomem(err);
				if (pm_pq_byte_stream_split_decode(p, len, w, n, b, &why) < 0)
					return corrupt(c, err, why);
				out->fixed = b;
				return PM_OK;
			}
			break;
		default:
			break;
	}
	return pm_fail(err, PM_ERR_UNSUPPORTED,
				   "parquet encoding %d is not supported for column \"%s\" of type %s",
				   enc, c->name, pm_pq_physical_name(c->physical));
}

/* ---------------------------------------------------------------- pages */

pm_code
pm_pq_column_start_chunk(pm_pq_column *c, const uint8_t *chunk, size_t len, int codec,
						 int64_t num_values, pm_arena *rg_arena, pm_error *err)
{
	switch (codec)
	{
		case PM_PQ_CODEC_UNCOMPRESSED:
		case PM_PQ_CODEC_SNAPPY:
		case PM_PQ_CODEC_GZIP:
		case PM_PQ_CODEC_LZ4:
		case PM_PQ_CODEC_ZSTD:
		case PM_PQ_CODEC_LZ4_RAW:
			break;
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "parquet compression codec %d of column \"%s\" is not supported",
						   codec, c->name);
	}
	c->rg_arena = rg_arena;
	c->chunk = chunk;
	c->chunk_len = len;
	c->chunk_pos = 0;
	c->next_piece = 0;
	c->cur_piece = NULL;
	c->cur_hit = false;
	c->codec = codec;
	c->values_left = num_values;
	c->has_dict = false;
	pm_page_lru_unpin(c->dict_pin);	/* the last chunk's dictionary */
	c->dict_pin = NULL;
	c->cur_off = -1;
	c->dict_n = 0;
	c->dict_data_cap = 0;
	c->seen_data = false;
	c->page_n = 0;
	c->page_total = 0;
	c->page_pos = 0;
	c->page_nonnull = 0;
	c->value_pos = 0;
	c->page_dict = false;
	pm_arena_reset(c->page_arena);
	return PM_OK;
}

static inline uint32_t
be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | p[3];
}

/* parquet-mr's LZ4: Hadoop block framing around raw lz4 blocks. */
static bool
hadoop_lz4(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len)
{
	size_t		in = 0;
	size_t		out = 0;
	pm_error	e;

	while (in < n)
	{
		uint32_t	ulen;
		size_t		block_out = 0;

		if (n - in < 4)
			return false;
		ulen = be32(src + in);
		in += 4;
		if (ulen > dst_len - out)
			return false;
		while (block_out < ulen)
		{
			uint32_t	clen;
			size_t		part;
			int			r;

			if (n - in < 4)
				return false;
			clen = be32(src + in);
			in += 4;
			if (clen > n - in)
				return false;
			part = ulen - block_out;
			/* each compressed piece decodes to what is left of the block or less */
			r = (int) part;
			pm_error_clear(&e);
			if (pm_codec_decompress(PM_CODEC_LZ4_RAW, src + in, clen, dst + out, part, &e) != PM_OK)
				return false;
			(void) r;
			block_out += part;
			out += part;
			in += clen;
		}
	}
	return out == dst_len;
}

static pm_code
decompress(pm_pq_column *c, const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len,
		   pm_error *err)
{
	pm_codec	codec;
	pm_code		rc;

	switch (c->codec)
	{
		case PM_PQ_CODEC_SNAPPY:
			codec = PM_CODEC_SNAPPY;
			break;
		case PM_PQ_CODEC_GZIP:
			codec = PM_CODEC_GZIP;
			break;
		case PM_PQ_CODEC_ZSTD:
			codec = PM_CODEC_ZSTD;
			break;
		case PM_PQ_CODEC_LZ4:
			if (hadoop_lz4(src, n, dst, dst_len))
				return PM_OK;
			codec = PM_CODEC_LZ4_RAW;
			break;
		case PM_PQ_CODEC_LZ4_RAW:
			codec = PM_CODEC_LZ4_RAW;
			break;
		default:
			if (n != dst_len)
				return corrupt(c, err, "uncompressed page size mismatch");
			memcpy(dst, src, n);
			return PM_OK;
	}
	rc = pm_codec_decompress(codec, src, n, dst, dst_len, err);
	if (rc != PM_OK)
		pm_error_detail(err, "In parquet column \"%s\".", c->name);
	return rc;
}

/*
 * Page payload, decompressed: (src, n) -> (*out, out_len). Uncompressed
 * payloads are used in place.
 */
static pm_code
page_payload(pm_pq_column *c, const uint8_t *src, size_t n, int64_t out_len, bool compressed,
			 int slot, pm_arena *arena, const uint8_t **out, pm_error *err)
{
	uint8_t    *buf;

	if (!compressed || c->codec == PM_PQ_CODEC_UNCOMPRESSED || c->cur_hit)
	{
		if ((int64_t) n != out_len)
			return corrupt(c, err, "uncompressed page size mismatch");
		*out = src;
		return PM_OK;
	}
	if (out_len < 0 || out_len > MAX_PAGE_SIZE ||
		out_len > (int64_t) n * MAX_PAGE_RATIO + (1 << 20))
		return corrupt(c, err, "implausible uncompressed page size");
	buf = page_buf(c, slot, (size_t) out_len + 8, arena);
	if (buf == NULL)
		return nomem(err);
	PM_TRY(decompress(c, src, n, buf, (size_t) out_len, err));
	*out = buf;
	return PM_OK;
}

/*
 * The page at chunk_pos: its header and payload, from the page cache when
 * its piece is a hit (payload then decompressed, header saying so), else
 * parsed from the chunk buffer. Sets cur_len (bytes to pass over),
 * cur_hit, and cur_piece when the page is exactly one piece (cacheable).
 */
static pm_code
page_at(pm_pq_column *c, pm_pq_page_header *ph, const uint8_t **payload, pm_error *err)
{
	size_t		left = c->chunk_len - c->chunk_pos;
	pm_pq_piece *p = NULL;

	while (c->next_piece < c->npieces && c->pieces[c->next_piece].pos < c->chunk_pos)
		c->next_piece++;
	if (c->next_piece < c->npieces && c->pieces[c->next_piece].pos == c->chunk_pos)
		p = &c->pieces[c->next_piece];
	c->cur_piece = NULL;
	c->cur_hit = false;
	c->cur_entry = NULL;
	c->cur_off = -1;
	if (p != NULL && p->hit != NULL)
	{
		size_t		ml;
		size_t		dl;
		const void *m = pm_page_entry_meta(p->hit, &ml);

		if (ml != sizeof(*ph) || p->len > left || pm_page_entry_span(p->hit) != p->len)
			return corrupt(c, err, "cached page out of step with its chunk");
		memcpy(ph, m, sizeof(*ph));
		*payload = pm_page_entry_data(p->hit, &dl);
		if ((int64_t) dl != ph->uncompressed_size)
			return corrupt(c, err, "cached page out of step with its chunk");
		c->cur_hit = true;
		c->cur_entry = p->hit;
		c->cur_len = p->len;
		c->cur_off = p->file_off;
		return PM_OK;
	}
	/* no buffer: the chunk's pieces were all cached, and this is none of them */
	if (c->chunk == NULL)
		return corrupt(c, err, "page outside the pages the page index gives");
	PM_TRY(pm_pq_page_header_parse(c->chunk + c->chunk_pos, left, ph, err));
	if ((size_t) ph->compressed_size > left - ph->header_len)
		return corrupt(c, err, "page extends beyond its column chunk");
	*payload = c->chunk + c->chunk_pos + ph->header_len;
	c->cur_len = ph->header_len + (size_t) ph->compressed_size;
	if (p != NULL && p->len == c->cur_len && c->page_file != NULL)
	{
		c->cur_piece = p;
		c->cur_off = p->file_off;
	}
	return PM_OK;
}

/*
 * Keep the page just read (cur_piece, not a hit) in the page cache: its
 * header, marked uncompressed, and its payload (a, alen) + (b, blen)
 * decompressed.
 */
static void
store_page(pm_pq_column *c, const pm_pq_page_header *ph, const uint8_t *a, size_t alen,
		   const uint8_t *b, size_t blen)
{
	pm_pq_page_header h;

	if (c->cur_piece == NULL || c->cur_hit || !pm_page_lru_enabled())
		return;
	h = *ph;
	h.compressed_size = (int32_t) (alen + blen);
	h.is_compressed = false;
	pm_page_lru_store(c->page_file, c->cur_piece->file_off, 0, c->cur_piece->len, &h, sizeof(h),
					  a, alen, b, blen);
}

/*
 * Converted dictionaries in the page cache: the variant of the page's key
 * names the conversion (never 0, the raw page's), the meta block the
 * layout of one buffer holding the vector's arrays.
 */
typedef struct dict_layout
{
	int64_t		n;
	int64_t		data_size;
	size_t		values_at;
	size_t		offsets_at;
	size_t		data_at;
	size_t		nanos_at;
	size_t		total;
	bool		has_offsets;
	bool		has_nanos;
	int			value_size;
} dict_layout;

#define DICT_SLACK 16			/* column_values.c's DATA_SLACK */
#define AL16(x) (((x) + 15) & ~(size_t) 15)

static uint64_t
dict_variant(const pm_pq_column *c)
{
	return 1 | ((uint64_t) c->conv << 8) | ((uint64_t) c->target->id << 16) |
		((uint64_t) c->want_nanos << 24) | ((uint64_t) (uint32_t) c->time_div << 32);
}

static void
dict_layout_of(const pm_pq_column *c, int64_t n, int64_t data_size, dict_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->n = n;
	l->data_size = data_size;
	l->value_size = pm_type_value_size(c->target->id);
	l->has_offsets = c->dict.offsets != NULL;
	l->has_nanos = c->dict.nanos != NULL;
	l->values_at = 0;
	l->offsets_at = AL16((size_t) n * (size_t) l->value_size);
	l->data_at = l->offsets_at + (l->has_offsets ? AL16(sizeof(int32_t) * (size_t) (n + 1)) : 0);
	l->nanos_at = l->data_at + AL16((size_t) data_size + DICT_SLACK);
	l->total = l->nanos_at + (l->has_nanos ? sizeof(uint16_t) * (size_t) (n + 1) : 0);
}

/* The converted dictionary of the page at file offset off, from the cache (pinned). */
static bool
dict_from_cache(pm_pq_column *c, int64_t off, int64_t n)
{
	pm_page_entry *e = pm_page_lru_pin(c->page_file, off, dict_variant(c));
	const dict_layout *l;
	const uint8_t *b;
	size_t		ml;
	size_t		len;

	if (e == NULL)
		return false;
	l = pm_page_entry_meta(e, &ml);
	b = pm_page_entry_data(e, &len);
	if (ml != sizeof(*l) || l->n != n || l->total != len ||
		l->value_size != pm_type_value_size(c->target->id))
	{
		pm_page_lru_unpin(e);
		return false;
	}
	pm_page_lru_unpin(c->dict_pin);
	c->dict_pin = e;
	memset(&c->dict, 0, sizeof(c->dict));
	c->dict.type = c->target;
	c->dict.length = n;
	/* read-only from here on (gather_dict only reads the dictionary) */
	c->dict.values = l->value_size > 0 ? (void *) (b + l->values_at) : NULL;
	c->dict.offsets = l->has_offsets ? (int32_t *) (b + l->offsets_at) : NULL;
	c->dict.data = (uint8_t *) (b + l->data_at);
	c->dict.data_size = l->data_size;
	c->dict.nanos = l->has_nanos ? (uint16_t *) (b + l->nanos_at) : NULL;
	c->has_dict = true;
	c->dict_n = n;
	return true;
}

/* Keep the dictionary just converted (c->dict) in the cache. */
static void
dict_to_cache(pm_pq_column *c, int64_t off, size_t span)
{
	dict_layout l;
	uint8_t    *b;

	dict_layout_of(c, c->dict.length, c->dict.data_size, &l);
	if ((b = pm_alloc(c->env, l.total + 1)) == NULL)
		return;
	memset(b, 0, l.total + 1);
	if (l.value_size > 0 && c->dict.values != NULL)
		memcpy(b + l.values_at, c->dict.values, (size_t) l.n * (size_t) l.value_size);
	if (l.has_offsets)
		memcpy(b + l.offsets_at, c->dict.offsets, sizeof(int32_t) * (size_t) (l.n + 1));
	if (l.data_size > 0)
		memcpy(b + l.data_at, c->dict.data, (size_t) l.data_size);
	if (l.has_nanos)
		memcpy(b + l.nanos_at, c->dict.nanos, sizeof(uint16_t) * (size_t) (l.n + 1));
	pm_page_lru_store(c->page_file, off, dict_variant(c), span, &l, sizeof(l), b, l.total,
					  NULL, 0);
	pm_free(c->env, b);
}

static pm_code
read_dictionary(pm_pq_column *c, const pm_pq_page_header *ph, const uint8_t *payload,
				pm_error *err)
{
	const uint8_t *data;
	pm_pq_values vals;
	int64_t		n = ph->num_values;
	int64_t		off = c->cur_off;	/* the page's file offset, if cacheable */
	size_t		span = c->cur_len;

	if (c->has_dict || c->seen_data)
		return corrupt(c, err, "unexpected dictionary page");
	if (ph->encoding != PM_PQ_ENC_PLAIN && ph->encoding != PM_PQ_ENC_PLAIN_DICTIONARY)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "dictionary encoding %d of column \"%s\"",
					   ph->encoding, c->name);
	if (c->target != NULL && off >= 0 && pm_page_lru_enabled() && dict_from_cache(c, off, n))
		return PM_OK;
	PM_TRY(page_payload(c, payload, (size_t) ph->compressed_size, ph->uncompressed_size, true,
						-1, c->rg_arena, &data, err));
	store_page(c, ph, data, (size_t) ph->uncompressed_size, NULL, 0);
	PM_TRY(decode_values(c, PM_PQ_ENC_PLAIN, data, (size_t) ph->uncompressed_size, n, &vals,
						 true, c->rg_arena, err));
	c->has_dict = true;
	c->dict_n = n;
	if (c->target == NULL)
		return PM_OK;
	if (!pm_vector_init(&c->dict, c->target, n, false, c->rg_arena))
		return nomem(err);
	if (c->want_nanos)
	{
		c->dict.nanos = pm_arena_zalloc(c->rg_arena, sizeof(uint16_t) * (size_t) (n + 1));
		if (c->dict.nanos == NULL)
			return nomem(err);
	}
	c->dict_data_cap = 0;
	PM_TRY(pm_pq_column_convert(c, &vals, 0, n, &c->dict, 0, &c->dict_data_cap, c->rg_arena, err));
	c->dict.length = n;
	if (off >= 0 && pm_page_lru_enabled())
		dict_to_cache(c, off, span);
	return PM_OK;
}

/*
 * Levels of a v1 page (4-byte length prefix for RLE) into out; when
 * all_max is given and the levels are one run of max_level (a page without
 * nulls), *all_max is set and out is left alone.
 */
static pm_code
v1_levels(pm_pq_column *c, int enc, int max_level, const uint8_t **p, size_t *len,
		  int64_t n, int slot, pm_arena *arena, uint8_t **out, bool *all_max, pm_error *err)
{
	int			bw = pm_pq_bit_width((uint32_t) max_level);
	const char *why = NULL;
	int64_t		r;
	uint32_t	v;

	if (all_max != NULL)
		*all_max = false;
	*out = NULL;
	if (enc == PM_PQ_ENC_BIT_PACKED)
	{
		if ((*out = page_buf(c, slot, (size_t) n + 1, arena)) == NULL)
			return nomem(err);
		r = pm_pq_bitpacked_legacy_decode(*p, *len, bw, n, *out, &why);
		if (r < 0)
			return corrupt(c, err, why);
	}
	else
	{
		uint32_t	l;

		if (*len < 4)
			return corrupt(c, err, "truncated levels");
		memcpy(&l, *p, 4);
		if (l > *len - 4)
			return corrupt(c, err, "levels longer than the page");
		/* all at the maximum: no level array at all (nor its allocation) */
		if (all_max != NULL && pm_pq_rle_is_one_run(*p + 4, l, bw, n, &v) &&
			v == (uint32_t) max_level)
			*all_max = true;
		else if ((*out = page_buf(c, slot, (size_t) n + 1, arena)) == NULL)
			return nomem(err);
		else if (pm_pq_rle_decode_u8(*p + 4, l, bw, n, *out, &why) < 0)
			return corrupt(c, err, why);
		r = (int64_t) l + 4;
	}
	*p += r;
	*len -= (size_t) r;
	return PM_OK;
}

static pm_code
check_levels(pm_pq_column *c, const uint8_t *lv, int64_t n, int max, pm_error *err)
{
	uint8_t		m = 0;

	for (int64_t i = 0; i < n; i++)
		m = lv[i] > m ? lv[i] : m;
	if (m > max)
		return corrupt(c, err, "level above the column's maximum");
	return PM_OK;
}

/*
 * Of a flat page's n decoded entries, the values before decode_start
 * (dictionary indices the caller will not read): those need no decoding.
 */
static int64_t
dict_skip(const pm_pq_column *c, int64_t n)
{
	int64_t		start = c->decode_start;
	int64_t		k = 0;

	if (c->max_rep > 0 || start <= 0 || start >= n)
		return 0;
	if (c->def == NULL)
		return start;
	for (int64_t i = 0; i < start; i++)
		k += c->def[i] == (uint8_t) c->max_def;
	return k;
}

/*
 * Run indexes of dictionary-encoded pages in the page cache: a lookup
 * reading one row from entry `skip` of a page walks every run header
 * before it, each a cache miss on a page not in the CPU's caches. The
 * second time a cached page is read so, its run marks are built and kept
 * with the page entry (pm_page_entry_set_aux: no second cache probe); from
 * then on decoding starts at the run that holds the row.
 */
#define RUN_INDEX_MIN_SKIP 1024
#define RUN_INDEX_EVERY 256
#define RUN_INDEX_MAX_MARKS 4096

typedef struct run_index
{
	int			bit_width;
	size_t		len;			/* of the index stream */
	int			n;
	pm_pq_run_mark marks[];
} run_index;

/* The run index of the cached page being read, built on first use; NULL if none. */
static const run_index *
page_run_index(pm_pq_column *c, const uint8_t *buf, size_t len, int bw)
{
	const run_index *ri = pm_page_entry_aux(c->cur_entry);
	pm_pq_run_mark *tmp;
	run_index  *made;
	int			nm;

	if (ri != NULL)
		return ri->bit_width == bw && ri->len == len ? ri : NULL;
	if ((tmp = malloc(sizeof(pm_pq_run_mark) * RUN_INDEX_MAX_MARKS)) == NULL)
		return NULL;
	nm = pm_pq_rle_run_marks(buf, len, bw, RUN_INDEX_EVERY, tmp, RUN_INDEX_MAX_MARKS);
	made = malloc(offsetof(run_index, marks) + sizeof(pm_pq_run_mark) * (size_t) nm);
	if (made != NULL)
	{
		made->bit_width = bw;
		made->len = len;
		made->n = nm;
		memcpy(made->marks, tmp, sizeof(pm_pq_run_mark) * (size_t) nm);
		if (nm == 0 || !pm_page_entry_set_aux(c->cur_entry, made))
		{
			free(made);
			made = NULL;
		}
	}
	free(tmp);
	return made;
}

/*
 * The dictionary indices [skip, nonnull) of the page's index stream
 * (vp, vlen: bit width byte, then the RLE/bit-packed runs) into idx;
 * < 0 with *why when they are bad. A large skip in a page from the page
 * cache starts at the run that holds it (page_run_index).
 */
static int64_t
dict_indices(pm_pq_column *c, const uint8_t *vp, size_t vlen, int64_t skip, int64_t nonnull,
			 uint32_t *idx, const char **why)
{
	const uint8_t *buf = vp + 1;
	size_t		len = vlen - 1;
	int			bw = vp[0];
	const run_index *ri;

	if (skip >= RUN_INDEX_MIN_SKIP && c->cur_hit && c->cur_entry != NULL &&
		(ri = page_run_index(c, buf, len, bw)) != NULL)
	{
		int			lo = 0,
					hi = ri->n - 1;

		/* the last mark at or before skip (marks[0] is {0, 0}) */
		while (lo < hi)
		{
			int			mid = lo + (hi - lo + 1) / 2;

			if ((int64_t) ri->marks[mid].first <= skip)
				lo = mid;
			else
				hi = mid - 1;
		}
		if ((int64_t) ri->marks[lo].first <= nonnull && ri->marks[lo].pos < len)
			return pm_pq_rle_decode_u32_below_from(buf + ri->marks[lo].pos,
												   len - ri->marks[lo].pos, bw,
												   skip - ri->marks[lo].first,
												   nonnull - ri->marks[lo].first,
												   idx + ri->marks[lo].first,
												   (uint32_t) c->dict_n, why);
	}
	return pm_pq_rle_decode_u32_below_from(buf, len, bw, skip, nonnull, idx,
										   (uint32_t) c->dict_n, why);
}

static pm_code
read_data_page(pm_pq_column *c, const pm_pq_page_header *ph, const uint8_t *payload,
			   pm_error *err)
{
	pm_arena   *arena = c->page_arena;
	int64_t		n = ph->num_values;
	const uint8_t *vp;
	size_t		vlen;
	int64_t		nonnull;
	bool		v2 = ph->type == PM_PQ_PAGE_DATA_V2;
	const char *why = NULL;
	bool		all_defined = false;	/* every def level is max_def: no nulls */

	if (n > PAGE_ENTRY_SLACK + (int64_t) ph->uncompressed_size * 8)
		return corrupt(c, err, "more values than the page can hold");
	if (n > c->values_left)
		return corrupt(c, err, "more values than its column chunk declares");
	if (n > MAX_PAGE_ENTRIES)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "page of parquet column \"%s\" holds more than %lld values",
					   c->name, (long long) MAX_PAGE_ENTRIES);
	c->values_left -= n;
	c->def = NULL;
	c->rep = NULL;
	c->page_total = n;

	/*
	 * Only the entries up to the caller's limit will be read: decode levels
	 * and values that far where the encodings allow stopping early (RLE
	 * levels; PLAIN or dictionary values: a prefix of them is a prefix of
	 * the page's rows).
	 */
	if (c->decode_limit > 0 && c->decode_limit < n && c->max_rep == 0 &&
		(ph->encoding == PM_PQ_ENC_PLAIN || ph->encoding == PM_PQ_ENC_PLAIN_DICTIONARY ||
		 ph->encoding == PM_PQ_ENC_RLE_DICTIONARY) &&
		(v2 || c->max_def == 0 || ph->def_encoding == PM_PQ_ENC_RLE))
		n = c->decode_limit;
	if (!v2)
	{
		const uint8_t *data;

		/* decompress first: level arrays are sized only once the page is real */
		PM_TRY(page_payload(c, payload, (size_t) ph->compressed_size, ph->uncompressed_size,
							true, PM_PQ_SCR_PAGE, arena, &data, err));
		store_page(c, ph, data, (size_t) ph->uncompressed_size, NULL, 0);
		vp = data;
		vlen = (size_t) ph->uncompressed_size;
		if (c->max_rep > 0)
			PM_TRY(v1_levels(c, ph->rep_encoding, c->max_rep, &vp, &vlen, n, PM_PQ_SCR_REP,
							 arena, &c->rep, NULL, err));
		if (c->max_def > 0)
			PM_TRY(v1_levels(c, ph->def_encoding, c->max_def, &vp, &vlen, n, PM_PQ_SCR_DEF,
							 arena, &c->def, &all_defined, err));
	}
	else
	{
		size_t		lv = (size_t) ph->rep_levels_len + (size_t) ph->def_levels_len;

		if (lv > (size_t) ph->compressed_size || (int64_t) lv > ph->uncompressed_size)
			return corrupt(c, err, "levels longer than the page");
		if (c->max_rep > 0 &&
			(c->rep = page_buf(c, PM_PQ_SCR_REP, (size_t) n + 1, arena)) == NULL)
			return nomem(err);
		if (c->max_rep > 0 &&
			pm_pq_rle_decode_u8(payload, (size_t) ph->rep_levels_len,
								pm_pq_bit_width((uint32_t) c->max_rep), n, c->rep, &why) < 0)
			return corrupt(c, err, why);
		if (c->max_def > 0)
		{
			int			bw = pm_pq_bit_width((uint32_t) c->max_def);
			uint32_t	v;

			if (pm_pq_rle_is_one_run(payload + ph->rep_levels_len, (size_t) ph->def_levels_len,
									 bw, n, &v) && v == (uint32_t) c->max_def)
				all_defined = true;
			else if ((c->def = page_buf(c, PM_PQ_SCR_DEF, (size_t) n + 1, arena)) == NULL)
				return nomem(err);
			else if (pm_pq_rle_decode_u8(payload + ph->rep_levels_len,
										 (size_t) ph->def_levels_len, bw, n, c->def, &why) < 0)
				return corrupt(c, err, why);
		}
		PM_TRY(page_payload(c, payload + lv, (size_t) ph->compressed_size - lv,
							ph->uncompressed_size - (int64_t) lv, ph->is_compressed,
							PM_PQ_SCR_PAGE, arena, &vp, err));
		vlen = (size_t) (ph->uncompressed_size - (int64_t) lv);
		store_page(c, ph, payload, lv, vp, vlen);
	}
	if (c->rep != NULL)
		PM_TRY(check_levels(c, c->rep, n, c->max_rep, err));
	if (all_defined)
		c->def = NULL;			/* NULL levels mean max_def everywhere */
	if (c->def != NULL)
	{
		const uint8_t *d = c->def;
		uint8_t		md = (uint8_t) c->max_def;

		uint8_t		mx = 0;

		nonnull = 0;
		for (int64_t i = 0; i < n; i++)
		{
			mx = d[i] > mx ? d[i] : mx;
			nonnull += d[i] == md;
		}
		if (mx > md)
			return corrupt(c, err, "level above the column's maximum");
		if (nonnull == n)
			c->def = NULL;
	}
	else
		nonnull = n;

	c->page_dict = false;
	if (c->target == NULL)
		memset(&c->vals, 0, sizeof(c->vals));
	else if (ph->encoding == PM_PQ_ENC_PLAIN_DICTIONARY ||
			 ph->encoding == PM_PQ_ENC_RLE_DICTIONARY)
	{
		uint32_t   *idx;

		if (!c->has_dict)
			return corrupt(c, err, "dictionary-encoded page without a dictionary");
		if (nonnull > 0)
		{
			if (vlen < 1)
				return corrupt(c, err, "truncated dictionary indices");
			idx = page_buf(c, PM_PQ_SCR_IDX, sizeof(uint32_t) * (size_t) (nonnull + 1), arena);
			if (idx == NULL)
				return nomem(err);
			if (c->dict_n > (int64_t) UINT32_MAX)
				return corrupt(c, err, "dictionary too large");
			if (dict_indices(c, vp, vlen, dict_skip(c, n), nonnull, idx, &why) < 0)
				return corrupt(c, err, why);
			c->indices = idx;
		}
		c->page_dict = true;
	}
	else
		PM_TRY(decode_values(c, ph->encoding, vp, vlen, nonnull, &c->vals, false, arena, err));

	c->page_n = n;
	c->page_pos = 0;
	c->page_nonnull = nonnull;
	c->value_pos = 0;
	return PM_OK;
}

pm_code
pm_pq_column_peek_page(pm_pq_column *c, int64_t *num_values, bool *have, pm_error *err)
{
	*have = false;
	*num_values = 0;
	for (;;)
	{
		pm_pq_page_header ph;
		const uint8_t *payload;

		if (c->chunk_len == c->chunk_pos)
			return PM_OK;
		PM_TRY(page_at(c, &ph, &payload, err));
		if ((ph.type == PM_PQ_PAGE_DATA || ph.type == PM_PQ_PAGE_DATA_V2) && ph.num_values > 0)
		{
			*num_values = ph.num_values;
			*have = true;
			return PM_OK;
		}
		c->chunk_pos += c->cur_len;
		if (ph.type == PM_PQ_PAGE_DICTIONARY)
			PM_TRY(read_dictionary(c, &ph, payload, err));
		else if (ph.type == PM_PQ_PAGE_DATA || ph.type == PM_PQ_PAGE_DATA_V2)
			c->seen_data = true;
	}
}

void
pm_pq_column_skip_entries(pm_pq_column *c, int64_t k)
{
	int64_t		nn = k;

	if (c->def != NULL)
	{
		uint8_t		md = (uint8_t) c->max_def;

		nn = 0;
		for (int64_t i = c->page_pos; i < c->page_pos + k; i++)
			nn += c->def[i] == md;
	}
	c->page_pos += k;
	c->value_pos += nn;
}

pm_code
pm_pq_column_skip_page(pm_pq_column *c, pm_error *err)
{
	pm_pq_page_header ph;
	const uint8_t *payload;

	if (c->chunk_len == c->chunk_pos)
		return corrupt(c, err, "no page to skip");
	PM_TRY(page_at(c, &ph, &payload, err));
	if ((ph.type != PM_PQ_PAGE_DATA && ph.type != PM_PQ_PAGE_DATA_V2) || ph.num_values <= 0)
		return corrupt(c, err, "no data page to skip");
	if (ph.num_values > c->values_left)
		return corrupt(c, err, "more values than its column chunk declares");
	c->values_left -= ph.num_values;
	c->chunk_pos += c->cur_len;
	c->seen_data = true;
	pm_arena_reset(c->page_arena);
	c->def = NULL;
	c->rep = NULL;
	c->page_dict = false;
	memset(&c->vals, 0, sizeof(c->vals));
	c->page_n = ph.num_values;
	c->page_total = ph.num_values;
	c->page_pos = ph.num_values;
	c->page_nonnull = 0;
	c->value_pos = 0;
	return PM_OK;
}

pm_code
pm_pq_column_next_page(pm_pq_column *c, bool *have, pm_error *err)
{
	*have = false;
	for (;;)
	{
		pm_pq_page_header ph;
		const uint8_t *payload;

		if (c->chunk_len == c->chunk_pos)
			return PM_OK;
		PM_TRY(page_at(c, &ph, &payload, err));
		c->chunk_pos += c->cur_len;
		switch (ph.type)
		{
			case PM_PQ_PAGE_DICTIONARY:
				PM_TRY(read_dictionary(c, &ph, payload, err));
				break;
			case PM_PQ_PAGE_DATA:
			case PM_PQ_PAGE_DATA_V2:
				c->seen_data = true;
				if (ph.num_values == 0)
					break;
				pm_arena_reset(c->page_arena);
				PM_TRY(read_data_page(c, &ph, payload, err));
				*have = true;
				return PM_OK;
			default:
				/* index pages and unknown page types are skipped */
				break;
		}
	}
}
