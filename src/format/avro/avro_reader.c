/*-------------------------------------------------------------------------
 * avro_reader.c
 *	  Avro object container file reader: manifests, manifest lists, index
 *	  manifests and Avro data files, as column batches.
 *
 * Hand-written (no C Avro library yields Paimon-style column batches; the
 * codecs are libraries behind codec/codec.h and JSON is jansson). This file
 * owns the container: magic "Obj\x01", the metadata map (avro.schema,
 * avro.codec), the 16-byte sync marker, and the data blocks (object count,
 * byte size, payload, sync marker) with codecs null, deflate (raw),
 * snappy (+ big-endian CRC32 of the uncompressed bytes, checked) and
 * zstandard. Decoding the records is avro_decode.c's job, parsing the schema
 * avro_schema.c's. Reads go through a window buffer, so a small manifest
 * costs one read and a large data file about one read per MiB.
 *
 * Never trusts the file: counts and sizes are checked against the file size
 * and the block, decompressed blocks are bounded (PM_AVRO_MAX_BLOCK), and a
 * block holding more or fewer bytes than its records is corrupt.
 *
 * Spec: Apache Avro 1.11 specification, "Object Container Files";
 * ../shared/docs/paimon-format-metadata.md section 4.
 *-------------------------------------------------------------------------
 */
#include "format/avro/avro_reader.h"

#include <string.h>

#include <zlib.h>

#include "codec/codec.h"
#include "format/avro/avro_int.h"

#define AVRO_SYNC_SIZE		16
#define WINDOW_SIZE			(1024 * 1024)
/* Largest decompressed block we accept (Java writes ~64 KiB blocks). */
#define PM_AVRO_MAX_BLOCK	((size_t) 256 * 1024 * 1024)
/* Most records in a block whose records may take zero bytes. */
#define ZERO_SIZE_ROW_LIMIT	4096

typedef struct pm_avro_reader
{
	pm_format_reader base;
	const pm_env *env;
	pm_fileio  *io;
	pm_file    *file;
	const char *path;
	pm_arena   *arena;			/* reader lifetime: schema, plan, this struct */
	pm_arena   *batch_arena;	/* reset by every next() */
	pm_arena   *block_arena;	/* decompressed block; reset per block */
	uint64_t	file_size;
	uint64_t	header_size;
	uint8_t		sync[AVRO_SYNC_SIZE];
	pm_codec	codec;
	bool		snappy_crc;		/* avro "snappy": CRC32 trailer */
	pm_avro_schema *schema;
	pm_avro_plan *plan;
	int			batch_size;

	/* read window over the file */
	uint8_t    *win;
	size_t		win_cap;
	uint64_t	win_off;
	size_t		win_len;

	/* decoding position */
	uint64_t	pos;			/* offset of the next block */
	uint64_t	block_off;		/* offset of the current block */
	const uint8_t *bp;			/* current block: next record */
	const uint8_t *bend;
	int64_t		block_left;		/* records left in the current block */
	bool		eof;
	bool		failed;
	int64_t		rows_read;
	int64_t		row_count;		/* -1 until known */
	pm_batch	batch;
} pm_avro_reader;

static pm_code avro_next(pm_format_reader *base, pm_batch **batch, pm_error *err);
static int64_t avro_row_count(pm_format_reader *base);
static void avro_close(pm_format_reader *base);

static const pm_format_reader_ops avro_ops = {avro_next, avro_row_count, avro_close};

/*
 * n bytes at file offset off, valid until the next call. Reads at least
 * WINDOW_SIZE bytes (or to the end of the file) when off is not buffered.
 */
static pm_code
window_get(pm_avro_reader *r, uint64_t off, size_t n, const uint8_t **out, pm_error *err)
{
	size_t		want;

	if (off >= r->win_off && off - r->win_off <= r->win_len &&
		n <= r->win_len - (off - r->win_off) && r->win != NULL)
	{
		*out = r->win + (off - r->win_off);
		return PM_OK;
	}
	if (off > r->file_size || n > r->file_size - off)
		return pm_fail(err, PM_ERR_CORRUPT, "avro file truncated: %zu bytes needed at offset %llu",
					   n, (unsigned long long) off);
	want = n > WINDOW_SIZE ? n : WINDOW_SIZE;
	if (want > r->file_size - off)
		want = (size_t) (r->file_size - off);
	if (want > r->win_cap || r->win == NULL)
	{
		pm_free(r->env, r->win);
		r->win_len = 0;
		r->win_cap = 0;
		if ((r->win = pm_alloc(r->env, want + 1)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading %zu bytes of an avro file",
						   want);
		r->win_cap = want;
	}
	r->win_len = 0;
	PM_TRY(pm_file_pread(r->io, r->file, r->win, want, off, err));
	r->win_off = off;
	r->win_len = want;
	*out = r->win;
	return PM_OK;
}

typedef struct header_info
{
	const uint8_t *schema;
	int64_t		schema_len;
	const uint8_t *codec;
	int64_t		codec_len;
	size_t		size;			/* header bytes, sync marker included */
} header_info;

/*
 * Parse the header in buf[0, len). *short_read is set when it runs past
 * len (the caller retries with more of the file).
 */
static pm_code
parse_header(const uint8_t *buf, size_t len, header_info *h, bool *short_read, pm_error *err)
{
	const uint8_t *p = buf + 4;
	const uint8_t *end = buf + len;

	*short_read = false;
	memset(h, 0, sizeof(*h));
	if (len < 4 || memcmp(buf, "Obj\x01", 4) != 0)
		return pm_fail(err, PM_ERR_CORRUPT, "not an avro object container file (bad magic)");
	for (;;)
	{
		int64_t		count;

		if (!pm_avro_read_long(&p, end, &count))
			goto short_or_bad;
		if (count == 0)
			break;
		if (count < 0)
		{
			int64_t		size;

			if (count == INT64_MIN || !pm_avro_read_long(&p, end, &size))
				goto short_or_bad;
			count = -count;
		}
		if (count > (int64_t) len)
			return pm_fail(err, PM_ERR_CORRUPT, "avro metadata map count %lld is invalid",
						   (long long) count);
		for (int64_t i = 0; i < count; i++)
		{
			int64_t		klen,
						vlen;
			const uint8_t *key,
					   *val;

			if (!pm_avro_read_long(&p, end, &klen))
				goto short_or_bad;
			if (klen < 0)
				return pm_fail(err, PM_ERR_CORRUPT, "negative avro metadata key length");
			if (klen > end - p)
				goto short_or_bad;
			key = p;
			p += klen;
			if (!pm_avro_read_long(&p, end, &vlen))
				goto short_or_bad;
			if (vlen < 0)
				return pm_fail(err, PM_ERR_CORRUPT, "negative avro metadata value length");
			if (vlen > end - p)
				goto short_or_bad;
			val = p;
			p += vlen;
			if (klen == 11 && memcmp(key, "avro.schema", 11) == 0)
			{
				h->schema = val;
				h->schema_len = vlen;
			}
			else if (klen == 10 && memcmp(key, "avro.codec", 10) == 0)
			{
				h->codec = val;
				h->codec_len = vlen;
			}
		}
	}
	if (end - p < AVRO_SYNC_SIZE)
		goto short_or_bad;
	h->size = (size_t) (p - buf) + AVRO_SYNC_SIZE;
	if (h->schema == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "avro file has no avro.schema metadata");
	return PM_OK;

short_or_bad:
	*short_read = true;
	return pm_fail(err, PM_ERR_CORRUPT, "avro file header is truncated or invalid");
}

static pm_code
set_codec(pm_avro_reader *r, const uint8_t *name, int64_t len, pm_error *err)
{
	r->snappy_crc = false;
	if (name == NULL || (len == 4 && memcmp(name, "null", 4) == 0))
		r->codec = PM_CODEC_NONE;
	else if (len == 7 && memcmp(name, "deflate", 7) == 0)
		r->codec = PM_CODEC_DEFLATE;
	else if (len == 6 && memcmp(name, "snappy", 6) == 0)
	{
		r->codec = PM_CODEC_SNAPPY;
		r->snappy_crc = true;
	}
	else if (len == 9 && memcmp(name, "zstandard", 9) == 0)
		r->codec = PM_CODEC_ZSTD;
	else
		return pm_fail(err, PM_ERR_UNSUPPORTED, "avro codec \"%.*s\" is not supported",
					   (int) (len > 40 ? 40 : len), (const char *) name);
	return PM_OK;
}

static pm_code
read_header(pm_avro_reader *r, pm_error *err)
{
	size_t		n = r->file_size < WINDOW_SIZE ? (size_t) r->file_size : WINDOW_SIZE;
	const uint8_t *buf;
	header_info h;
	bool		short_read;
	pm_code		rc;

	for (;;)
	{
		PM_TRY(window_get(r, 0, n, &buf, err));
		rc = parse_header(buf, n, &h, &short_read, err);
		if (rc == PM_OK)
			break;
		if (!short_read || n >= r->file_size)
			return rc;
		n = (uint64_t) n * 4 > r->file_size ? (size_t) r->file_size : n * 4;
		pm_error_clear(err);
	}
	memcpy(r->sync, buf + h.size - AVRO_SYNC_SIZE, AVRO_SYNC_SIZE);
	r->header_size = h.size;
	PM_TRY(set_codec(r, h.codec, h.codec_len, err));
	return pm_avro_schema_parse((const char *) h.schema, (size_t) h.schema_len, r->arena,
								&r->schema, err);
}

/* Block header at off: object count, payload size, header length. */
static pm_code
block_header(pm_avro_reader *r, uint64_t off, bool use_window, int64_t *count,
			 int64_t *size, size_t *hdr_len, pm_error *err)
{
	size_t		avail = r->file_size - off < 20 ? (size_t) (r->file_size - off) : 20;
	uint8_t		small[20];
	const uint8_t *h,
			   *p;

	if (use_window)
		PM_TRY(window_get(r, off, avail, &h, err));
	else if (r->win != NULL && off >= r->win_off && off - r->win_off <= r->win_len &&
			 avail <= r->win_len - (off - r->win_off))
		h = r->win + (off - r->win_off);
	else
	{
		/* a small read that leaves the window (and the current block) alone */
		PM_TRY(pm_file_pread(r->io, r->file, small, avail, off, err));
		h = small;
	}
	p = h;
	if (!pm_avro_read_long(&p, h + avail, count) || !pm_avro_read_long(&p, h + avail, size) ||
		*count < 0 || *size < 0)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid avro block header at offset %llu",
					   (unsigned long long) off);
	*hdr_len = (size_t) (p - h);
	if (r->file_size - off - *hdr_len < AVRO_SYNC_SIZE ||
		(uint64_t) *size > r->file_size - off - *hdr_len - AVRO_SYNC_SIZE)
		return pm_fail(err, PM_ERR_CORRUPT, "avro block at offset %llu runs past the end of the file",
					   (unsigned long long) off);
	return PM_OK;
}

static pm_code
decompress_block(pm_avro_reader *r, const uint8_t *data, size_t size,
				 const uint8_t **out, size_t *out_len, pm_error *err)
{
	uint8_t    *dec;
	size_t		dec_len;

	if (r->codec == PM_CODEC_NONE)
	{
		*out = data;
		*out_len = size;
		return PM_OK;
	}
	pm_arena_reset(r->block_arena);
	if (r->snappy_crc)
	{
		uint32_t	want;

		if (size < 4)
			return pm_fail(err, PM_ERR_CORRUPT, "avro snappy block shorter than its crc");
		size -= 4;
		want = (uint32_t) data[size] << 24 | (uint32_t) data[size + 1] << 16 |
			(uint32_t) data[size + 2] << 8 | data[size + 3];
		PM_TRY(pm_codec_decompress_alloc(r->codec, data, size, r->block_arena,
										 PM_AVRO_MAX_BLOCK, &dec, &dec_len, err));
		if ((uint32_t) crc32(crc32(0L, Z_NULL, 0), dec, (uInt) dec_len) != want)
			return pm_fail(err, PM_ERR_CORRUPT, "avro snappy block crc mismatch");
	}
	else
		PM_TRY(pm_codec_decompress_alloc(r->codec, data, size, r->block_arena,
										 PM_AVRO_MAX_BLOCK, &dec, &dec_len, err));
	*out = dec;
	*out_len = dec_len;
	return PM_OK;
}

/* Load the block at r->pos, or set r->eof at the end of the file. */
static pm_code
load_block(pm_avro_reader *r, pm_error *err)
{
	int64_t		count,
				size;
	size_t		hdr,
				dlen;
	const uint8_t *data,
			   *dec;
	int32_t		min = r->schema->min_size;

	if (r->pos >= r->file_size)
	{
		r->eof = true;
		return PM_OK;
	}
	PM_TRY(block_header(r, r->pos, true, &count, &size, &hdr, err));
	PM_TRY(window_get(r, r->pos + hdr, (size_t) size + AVRO_SYNC_SIZE, &data, err));
	if (memcmp(data + size, r->sync, AVRO_SYNC_SIZE) != 0)
		return pm_fail(err, PM_ERR_CORRUPT, "avro sync marker mismatch after block at offset %llu",
					   (unsigned long long) r->pos);
	PM_TRY(decompress_block(r, data, (size_t) size, &dec, &dlen, err));
	if (min > 0 ? (uint64_t) count > dlen / (uint64_t) min : count > ZERO_SIZE_ROW_LIMIT)
		return pm_fail(err, PM_ERR_CORRUPT, "avro block at offset %llu claims %lld records in %zu bytes",
					   (unsigned long long) r->pos, (long long) count, dlen);
	r->block_off = r->pos;
	r->bp = dec;
	r->bend = dec + dlen;
	r->block_left = count;
	r->pos += hdr + (uint64_t) size + AVRO_SYNC_SIZE;
	return PM_OK;
}

static pm_code
fill_batch(pm_avro_reader *r, pm_batch **out, pm_error *err)
{
	pm_vector  *root;
	int64_t		rows = 0;
	int64_t		cap = r->batch_size;

	*out = NULL;
	pm_arena_reset(r->batch_arena);

	/*
	 * Vectors sized by the records of the block at hand when it holds fewer
	 * than a batch (a manifest of a few entries then allocates and zeroes
	 * no vectors of batch_size slots per field); a batch spanning blocks
	 * grows its vectors as it fills.
	 */
	if (r->block_left == 0 && r->bp == r->bend && !r->eof)
		PM_TRY(load_block(r, err));
	if (r->block_left < cap)
		cap = r->block_left > 16 ? r->block_left : 16;
	PM_TRY(pm_avro_plan_begin_batch(r->plan, cap, r->batch_arena, &root, err));
	while (rows < r->batch_size)
	{
		pm_code		rc;

		if (r->block_left == 0)
		{
			if (r->bp != r->bend)
				return pm_fail(err, PM_ERR_CORRUPT,
							   "avro block at offset %llu has %lld bytes after its last record",
							   (unsigned long long) r->block_off, (long long) (r->bend - r->bp));
			if (r->eof)
				break;
			PM_TRY(load_block(r, err));
			continue;
		}
		rc = pm_avro_plan_decode_row(r->plan, &r->bp, r->bend, err);
		if (rc != PM_OK)
		{
			pm_error_detail(err, "Record %lld of the file, in the block at offset %llu.",
							(long long) (r->rows_read + rows),
							(unsigned long long) r->block_off);
			return rc;
		}
		rows++;
		r->block_left--;
	}
	if (r->eof && r->row_count < 0)
		r->row_count = r->rows_read + rows;
	if (rows == 0)
		return PM_OK;
	PM_TRY(pm_avro_plan_end_batch(r->plan, err));
	r->batch.nrows = rows;
	r->batch.first_row = r->rows_read;
	r->batch.ncols = root->nchildren;
	r->batch.cols = root->children;
	r->rows_read += rows;
	*out = &r->batch;
	return PM_OK;
}

static pm_code
avro_next(pm_format_reader *base, pm_batch **batch, pm_error *err)
{
	pm_avro_reader *r = (pm_avro_reader *) base;
	pm_code		rc;

	*batch = NULL;
	if (r->failed)
	{
		pm_error_set_path(err, r->path);
		return pm_fail(err, PM_ERR_INVALID, "avro reader used after an error");
	}
	rc = fill_batch(r, batch, err);
	if (rc != PM_OK)
	{
		r->failed = true;
		*batch = NULL;
		pm_error_set_path(err, r->path);
	}
	return rc;
}

/*
 * Sum the object counts of all blocks without decoding them; -1 on error.
 * Costs one small read per block outside the window (Avro has no footer).
 */
static int64_t
avro_row_count(pm_format_reader *base)
{
	pm_avro_reader *r = (pm_avro_reader *) base;
	uint64_t	off = r->header_size;
	int64_t		total = 0;
	pm_error	err;

	if (r->row_count >= 0)
		return r->row_count;
	pm_error_clear(&err);
	while (off < r->file_size)
	{
		int64_t		count,
					size;
		size_t		hdr;

		if (block_header(r, off, false, &count, &size, &hdr, &err) != PM_OK ||
			count > INT64_MAX - total)
			return -1;
		total += count;
		off += hdr + (uint64_t) size + AVRO_SYNC_SIZE;
	}
	r->row_count = total;
	return total;
}

static void
avro_close(pm_format_reader *base)
{
	pm_avro_reader *r = (pm_avro_reader *) base;

	if (r->file != NULL)
		pm_file_close(r->io, r->file);
	pm_free(r->env, r->win);
	if (r->block_arena != NULL)
		pm_arena_destroy(r->block_arena);
	if (r->batch_arena != NULL)
		pm_arena_destroy(r->batch_arena);
	pm_arena_destroy(r->arena);
}

/* Open the file and read its header and schema (no plan yet). */
static pm_code
open_container(const pm_env *env, pm_fileio *io, const char *path, int batch_size,
			   pm_avro_reader **out, pm_error *err)
{
	pm_arena   *arena;
	pm_avro_reader *r;
	pm_code		rc;

	*out = NULL;
	if ((arena = pm_arena_create(env)) == NULL ||
		(r = pm_arena_zalloc(arena, sizeof(pm_avro_reader))) == NULL)
	{
		if (arena != NULL)
			pm_arena_destroy(arena);
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an avro file");
	}
	r->base.ops = &avro_ops;
	r->env = env;
	r->io = io;
	r->arena = arena;
	r->row_count = -1;
	r->batch_size = batch_size > 0 ? batch_size : PM_DEFAULT_BATCH_SIZE;
	r->path = pm_arena_strdup(arena, path);
	r->batch_arena = pm_arena_create(env);
	r->block_arena = pm_arena_create(env);
	if (r->path == NULL || r->batch_arena == NULL || r->block_arena == NULL)
	{
		avro_close(&r->base);
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening an avro file");
	}
	rc = pm_file_open(io, path, &r->file, err);
	if (rc == PM_OK)
		rc = pm_file_size(io, r->file, &r->file_size, err);
	if (rc == PM_OK && r->file_size < 4 + 1 + AVRO_SYNC_SIZE)
		rc = pm_fail(err, PM_ERR_CORRUPT, "avro file too small (%llu bytes)",
					 (unsigned long long) r->file_size);
	if (rc == PM_OK)
		rc = read_header(r, err);
	if (rc != PM_OK)
	{
		pm_error_set_path(err, path);
		avro_close(&r->base);
		return rc;
	}
	r->pos = r->header_size;
	*out = r;
	return PM_OK;
}

pm_code
pm_avro_reader_open(const pm_env *env, pm_fileio *io, const char *path,
					const pm_format_read_options *options,
					pm_format_reader **out, pm_error *err)
{
	pm_avro_reader *r;
	pm_code		rc;

	*out = NULL;
	if (options == NULL || options->schema == NULL || options->schema->id != PM_TYPE_ROW)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_INVALID, "avro reader needs a ROW type to read");
	}
	PM_TRY(open_container(env, io, path, options->batch_size, &r, err));
	rc = pm_avro_plan_compile(r->schema, options->schema, r->arena, &r->plan, err);
	if (rc != PM_OK)
	{
		pm_error_set_path(err, path);
		avro_close(&r->base);
		return rc;
	}
	*out = &r->base;
	return PM_OK;
}

pm_code
pm_avro_file_type(const pm_env *env, pm_fileio *io, const char *path, pm_arena *arena,
				  const pm_type **out, pm_error *err)
{
	pm_avro_reader *r;
	pm_code		rc;

	*out = NULL;
	PM_TRY(open_container(env, io, path, 0, &r, err));
	rc = pm_avro_schema_to_type(r->schema, arena, out, err);
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	avro_close(&r->base);
	return rc;
}
