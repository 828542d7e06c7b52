/*-------------------------------------------------------------------------
 * spill_run.c
 *	  The write buffer's private spill file format (spill_run.h).
 *
 * Each block is a frame starting at a multiple of FRAME_ALIGN bytes (its
 * header, its stored bytes, zero padding), written and read in whole
 * frames from FRAME_ALIGN-aligned buffers, so the file can be opened with
 * O_DIRECT: the records go from the buffer to the disk and back without
 * a copy into the page cache (the kernel's copy into new page-cache pages
 * cost more CPU than everything else of a spill, bench/README.md "Round
 * 4"). Where the file system refuses O_DIRECT (at open or at a read or
 * write: EINVAL), the file falls back to buffered I/O, same bytes.
 *
 * A block's raw bytes are, per column and recursively per child, the
 * vector's arrays, each padded to 16 bytes so the rebuilt vectors can point
 * into the (16-byte aligned) block buffer: a flags word (bit 0 nulls,
 * bit 1 nanos), then nulls, values, nanos, offsets and, for varlen types,
 * the data length and data. Children follow their parent: a ROW's fields
 * with its rows, an ARRAY's elements or a MAP's keys and values with the
 * parent's last offset as their length.
 *-------------------------------------------------------------------------
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* O_DIRECT */
#endif
#include "lsm/spill_run.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "codec/codec.h"
#include "common/vector_builder.h"

#define MAGIC "PMSPILL2"
#define MAGIC_LEN 8
#define HEADER_LEN 32			/* a multiple of 16: the raw block after it stays aligned */
#define FRAME_ALIGN ((size_t) 4096)	/* O_DIRECT: offsets, lengths and buffers */
#define IO_CHUNK ((size_t) 1 << 20)	/* bytes written or read per system call */
#define MAX_BLOCK ((uint64_t) 1 << 31)	/* raw bytes of one block */

#define PAD16(n) (((n) + 15) & ~(size_t) 15)
#define PAD_FRAME(n) (((n) + FRAME_ALIGN - 1) & ~(FRAME_ALIGN - 1))

typedef struct growbuf
{
	const pm_env *env;
	void	   *base;			/* what pm_alloc gave */
	uint8_t    *data;			/* FRAME_ALIGN-aligned, in base */
	size_t		len;
	size_t		cap;
} growbuf;

struct pm_spill_run_writer
{
	const pm_env *env;
	const pm_type *row_type;
	bool		compress;
	int			fd;
	char	   *path;
	growbuf		raw;			/* the frame being encoded: header room, raw block */
	growbuf		frame;			/* lz4: the frame of the compressed block */
	pm_arena   *zarena;			/* the compressed block */
	uint64_t	bytes;
};

struct pm_spill_run_reader
{
	const pm_env *env;
	const pm_type *row_type;
	int			fd;
	char	   *path;
	growbuf		stored;			/* the frame read (the batch points here, uncompressed) */
	growbuf		raw;			/* lz4: the decompressed block (the batch points here) */
	pm_arena   *arena;			/* the batch's vectors */
	pm_batch	batch;
	bool		done;
};

static bool
grow(growbuf *g, size_t need)
{
	size_t		cap;
	void	   *base;
	uint8_t    *d;

	if (g->len + need <= g->cap)
		return true;
	cap = g->cap ? g->cap : 64 * 1024;
	while (cap < g->len + need)
		cap *= 2;
	base = pm_alloc(g->env, cap + FRAME_ALIGN);
	if (base == NULL)
		return false;
	d = (uint8_t *) (((uintptr_t) base + FRAME_ALIGN - 1) & ~(uintptr_t) (FRAME_ALIGN - 1));
	if (g->len > 0)
		memcpy(d, g->data, g->len);
	if (g->base)
		pm_free(g->env, g->base);
	g->base = base;
	g->data = d;
	g->cap = cap;
	return true;
}

static void
growbuf_free(growbuf *g)
{
	if (g->base)
		pm_free(g->env, g->base);
	g->base = NULL;
	g->data = NULL;
	g->len = g->cap = 0;
}

/* Ask for O_DIRECT on fd; it stays buffered where the file system refuses. */
static void
try_direct(int fd)
{
	int			flags = fcntl(fd, F_GETFL);

	if (flags >= 0)
		(void) fcntl(fd, F_SETFL, flags | O_DIRECT);
}

/* After EINVAL from a read or write: buffered from here on. False if fd was not O_DIRECT. */
static bool
drop_direct(int fd)
{
	int			flags = fcntl(fd, F_GETFL);

	if (flags < 0 || !(flags & O_DIRECT))
		return false;
	return fcntl(fd, F_SETFL, flags & ~O_DIRECT) == 0;
}

static void
put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static uint64_t
get_u64(const uint8_t *p)
{
	uint64_t	v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

static void
put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static uint32_t
get_u32(const uint8_t *p)
{
	return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
		(uint32_t) p[3] << 24;
}

static bool
uses_offsets(pm_type_id id)
{
	return pm_type_is_varlen(id) || id == PM_TYPE_ARRAY || id == PM_TYPE_MULTISET ||
		id == PM_TYPE_MAP;
}

/* ---- writing ------------------------------------------------------------- */

/* Room for len bytes (padded to 16) at the end of g, zeroed padding; NULL on out-of-memory. */
static uint8_t *
reserve(growbuf *g, size_t len)
{
	size_t		padded = PAD16(len);
	uint8_t    *p;

	if (!grow(g, padded))
		return NULL;
	p = g->data + g->len;
	memset(p + len, 0, padded - len);
	g->len += padded;
	return p;
}

#define ROW(i) (rows != NULL ? rows[i] : (i))

/* Gather the fixed-width values rows[0..n-1] (or 0..n-1) of src. */
static void
gather_values(uint8_t *dst, const void *src, int size, const int64_t *rows, int64_t n)
{
	switch (size)
	{
		case 1:
			for (int64_t i = 0; i < n; i++)
				dst[i] = ((const uint8_t *) src)[ROW(i)];
			break;
		case 2:
			for (int64_t i = 0; i < n; i++)
				((uint16_t *) dst)[i] = ((const uint16_t *) src)[ROW(i)];
			break;
		case 4:
			for (int64_t i = 0; i < n; i++)
				((uint32_t *) dst)[i] = ((const uint32_t *) src)[ROW(i)];
			break;
		case 8:
			for (int64_t i = 0; i < n; i++)
				((uint64_t *) dst)[i] = ((const uint64_t *) src)[ROW(i)];
			break;
		default:
			for (int64_t i = 0; i < n; i++)
				memcpy(dst + (size_t) i * size, (const uint8_t *) src + (size_t) ROW(i) * size,
					   (size_t) size);
			break;
	}
}

/*
 * Encode values rows[0..n-1] (rows NULL: 0..n-1) of v. Nested vectors
 * with rows are first gathered into a vector of scratch.
 */
static pm_code
encode_vector(growbuf *g, const pm_vector *v, const int64_t *rows, int64_t n,
			  pm_arena *scratch, pm_error *err)
{
	pm_type_id	id = v->type->id;
	int			size = pm_type_value_size(id);
	bool		any_null = false;
	uint64_t	flags;
	uint8_t    *p;
	int64_t		nchild = n;

	if (rows != NULL && pm_type_is_nested(id))
	{
		pm_vector	tmp;
		pm_vector_builder b;

		if (!pm_vector_builder_init(&b, &tmp, v->type, n, scratch))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < n; i++)
			if (!pm_vector_builder_append(&b, v, rows[i]))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		return encode_vector(g, &tmp, NULL, n, scratch, err);
	}
	for (int64_t i = 0; v->nulls != NULL && i < n && !any_null; i++)
		any_null = v->nulls[ROW(i)] != 0;
	flags = (any_null ? 1 : 0) | (v->nanos != NULL ? 2 : 0);
	if ((p = reserve(g, sizeof(flags))) == NULL)
		goto nomem;
	memcpy(p, &flags, sizeof(flags));
	if (any_null)
	{
		if ((p = reserve(g, (size_t) n)) == NULL)
			goto nomem;
		gather_values(p, v->nulls, 1, rows, n);
	}
	if (size > 0)
	{
		if ((p = reserve(g, (size_t) n * (size_t) size)) == NULL)
			goto nomem;
		gather_values(p, v->values, size, rows, n);
	}
	if (v->nanos != NULL)
	{
		if ((p = reserve(g, sizeof(uint16_t) * (size_t) n)) == NULL)
			goto nomem;
		gather_values(p, v->nanos, 2, rows, n);
	}
	if (pm_type_is_varlen(id))
	{
		int32_t    *offs;
		uint64_t	dlen;
		uint8_t    *d;

		if ((p = reserve(g, sizeof(int32_t) * (size_t) (n + 1))) == NULL)
			goto nomem;
		offs = (int32_t *) p;
		offs[0] = 0;
		for (int64_t i = 0; i < n; i++)
		{
			int64_t		r = ROW(i);
			int64_t		end = (int64_t) offs[i] + (v->offsets[r + 1] - v->offsets[r]);

			if (end > INT32_MAX)
				return pm_fail(err, PM_ERR_INVALID, "spill run: a block of too many bytes");
			offs[i + 1] = (int32_t) end;
		}
		dlen = (uint64_t) offs[n];
		if ((p = reserve(g, sizeof(dlen))) == NULL)
			goto nomem;
		memcpy(p, &dlen, sizeof(dlen));
		/* (offs may move with the buffer: read the lengths from v again) */
		if ((d = reserve(g, (size_t) dlen)) == NULL)
			goto nomem;
		for (int64_t i = 0; i < n; i++)
		{
			int64_t		r = ROW(i);
			int32_t		len = v->offsets[r + 1] - v->offsets[r];

			memcpy(d, v->data + v->offsets[r], (size_t) len);
			d += len;
		}
	}
	else if (id == PM_TYPE_ARRAY || id == PM_TYPE_MULTISET || id == PM_TYPE_MAP)
	{
		/* rows is NULL here */
		if (v->offsets[0] != 0)
			return pm_fail(err, PM_ERR_INVALID, "spill run: a vector's offsets must start at 0");
		if ((p = reserve(g, sizeof(int32_t) * (size_t) (n + 1))) == NULL)
			goto nomem;
		memcpy(p, v->offsets, sizeof(int32_t) * (size_t) (n + 1));
		nchild = v->offsets[n];
	}
	for (int c = 0; c < v->nchildren; c++)
		PM_TRY(encode_vector(g, &v->children[c], NULL, nchild, scratch, err));
	return PM_OK;
nomem:
	return pm_fail(err, PM_ERR_NOMEM, "out of memory");
}

static pm_code
write_all(int fd, const char *path, const uint8_t *p, size_t len, pm_error *err)
{
	while (len > 0)
	{
		ssize_t		w = write(fd, p, len < IO_CHUNK ? len : IO_CHUNK);

		if (w < 0 && (errno == EINTR || (errno == EINVAL && drop_direct(fd))))
			continue;
		if (w <= 0)
		{
			pm_fail_errno(err, w < 0 ? errno : ENOSPC, "could not write spill file");
			pm_error_set_path(err, path);
			return PM_ERR_IO;
		}
		p += w;
		len -= (size_t) w;
	}
	return PM_OK;
}

/*
 * Write f as one frame: f holds HEADER_LEN bytes of room, then the stored
 * bytes (stored_len); the header is filled in and the frame zero-padded to
 * FRAME_ALIGN.
 */
static pm_code
write_frame(pm_spill_run_writer *w, growbuf *f, uint32_t nrows, uint32_t codec,
			uint64_t raw_len, uint64_t stored_len, pm_error *err)
{
	size_t		padded = PAD_FRAME(f->len);

	if (!grow(f, padded - f->len))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(f->data + f->len, 0, padded - f->len);
	f->len = padded;
	memcpy(f->data, MAGIC, MAGIC_LEN);
	put_u32(f->data + 8, nrows);
	put_u32(f->data + 12, codec);
	put_u64(f->data + 16, raw_len);
	put_u64(f->data + 24, stored_len);
	w->bytes += padded;
	return write_all(w->fd, w->path, f->data, padded, err);
}

pm_code
pm_spill_run_writer_open(const pm_env *env, const char *path, const pm_type *row_type,
						 bool compress, pm_spill_run_writer **out, pm_error *err)
{
	pm_spill_run_writer *w = pm_alloc(env, sizeof(*w));
	size_t		plen = strlen(path) + 1;

	*out = NULL;
	if (w == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(w, 0, sizeof(*w));
	w->env = env;
	w->row_type = row_type;
	w->compress = compress;
	w->raw.env = env;
	w->frame.env = env;
	w->fd = -1;
	w->path = pm_alloc(env, plen);
	w->zarena = pm_arena_create(env);
	if (w->path == NULL || w->zarena == NULL)
	{
		pm_spill_run_writer_abort(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	memcpy(w->path, path, plen);
	w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (w->fd < 0)
	{
		pm_fail_errno(err, errno, "could not create spill file");
		pm_error_set_path(err, path);
		pm_spill_run_writer_abort(w);
		return PM_ERR_IO;
	}
	try_direct(w->fd);
	*out = w;
	return PM_OK;
}

/* Encode cols (rows, or 0..n-1) as one block and write it. */
static pm_code
write_block(pm_spill_run_writer *w, const pm_vector *cols, const int64_t *rows, int64_t n,
			pm_error *err)
{
	size_t		raw_len;
	uint8_t    *z;
	size_t		zlen;

	if (n <= 0)
		return PM_OK;
	if (n > INT32_MAX)
		return pm_fail(err, PM_ERR_INVALID, "spill run: a block of %lld rows", (long long) n);
	/* the raw block after the header's room (16-byte aligned, as the reader's) */
	w->raw.len = 0;
	if (reserve(&w->raw, HEADER_LEN) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	pm_arena_reset(w->zarena);
	for (int c = 0; c < w->row_type->nfields; c++)
		PM_TRY(encode_vector(&w->raw, &cols[c], rows, n, w->zarena, err));
	raw_len = w->raw.len - HEADER_LEN;
	if (raw_len > MAX_BLOCK)
		return pm_fail(err, PM_ERR_INVALID, "spill run: a block of %zu bytes", raw_len);
	if (!w->compress)
		return write_frame(w, &w->raw, (uint32_t) n, 0, raw_len, raw_len, err);
	PM_TRY(pm_codec_compress(PM_CODEC_LZ4_RAW, 0, w->raw.data + HEADER_LEN, raw_len, w->zarena,
							 &z, &zlen, err));
	w->frame.len = 0;
	if (!grow(&w->frame, HEADER_LEN + zlen))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memcpy(w->frame.data + HEADER_LEN, z, zlen);
	w->frame.len = HEADER_LEN + zlen;
	return write_frame(w, &w->frame, (uint32_t) n, 1, raw_len, zlen, err);
}

pm_code
pm_spill_run_writer_write(pm_spill_run_writer *w, const pm_batch *batch, pm_error *err)
{
	if (batch->ncols != w->row_type->nfields)
		return pm_fail(err, PM_ERR_INVALID, "spill run: a batch of %d columns", batch->ncols);
	return write_block(w, batch->cols, NULL, batch->nrows, err);
}

pm_code
pm_spill_run_writer_write_rows(pm_spill_run_writer *w, const pm_vector *cols,
							   const int64_t *rows, int64_t n, pm_error *err)
{
	return write_block(w, cols, rows, n, err);
}

uint64_t
pm_spill_run_writer_bytes(const pm_spill_run_writer *w)
{
	return w->bytes;
}

pm_code
pm_spill_run_writer_finish(pm_spill_run_writer *w, pm_error *err)
{
	pm_code		rc;

	/* the end mark: a frame of no rows */
	w->raw.len = 0;
	rc = grow(&w->raw, HEADER_LEN) ? PM_OK : pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (rc == PM_OK)
	{
		memset(w->raw.data, 0, HEADER_LEN);
		w->raw.len = HEADER_LEN;
		rc = write_frame(w, &w->raw, 0, 0, 0, 0, err);
	}

	if (rc == PM_OK && close(w->fd) != 0)
	{
		rc = pm_fail_errno(err, errno, "could not close spill file");
		pm_error_set_path(err, w->path);
	}
	else if (rc != PM_OK)
		close(w->fd);
	w->fd = -1;
	pm_spill_run_writer_abort(w);
	return rc;
}

void
pm_spill_run_writer_abort(pm_spill_run_writer *w)
{
	if (w == NULL)
		return;
	if (w->fd >= 0)
		close(w->fd);
	growbuf_free(&w->raw);
	growbuf_free(&w->frame);
	if (w->zarena)
		pm_arena_destroy(w->zarena);
	if (w->path)
		pm_free(w->env, w->path);
	pm_free(w->env, w);
}

/* ---- reading ------------------------------------------------------------- */

typedef struct cursor
{
	const uint8_t *p;
	size_t		len;
	size_t		pos;
} cursor;

/* The next section of len bytes (padded to 16), or NULL if the block is shorter. */
static const uint8_t *
take(cursor *c, size_t len)
{
	size_t		padded = PAD16(len);
	const uint8_t *p;

	if (len > c->len || padded > c->len - c->pos)
		return NULL;
	p = c->p + c->pos;
	c->pos += padded;
	return p;
}

static pm_code
corrupt(pm_error *err, const char *what)
{
	return pm_fail(err, PM_ERR_CORRUPT, "spill run: %s", what);
}

static pm_code
decode_vector(cursor *c, const pm_type *type, int64_t n, pm_arena *arena, pm_vector *v,
			  int depth, pm_error *err)
{
	pm_type_id	id = type->id;
	int			size = pm_type_value_size(id);
	const uint8_t *p;
	uint64_t	flags;
	int64_t		nchild = n;

	memset(v, 0, sizeof(*v));
	v->type = type;
	v->length = n;
	if (depth > 64)
		return corrupt(err, "nesting too deep");
	if ((p = take(c, sizeof(uint64_t))) == NULL)
		return corrupt(err, "block truncated");
	flags = get_u64(p);
	if (flags > 3 || ((flags & 2) && id != PM_TYPE_TIMESTAMP && id != PM_TYPE_TIMESTAMP_LTZ))
		return corrupt(err, "bad vector flags");
	if ((flags & 1) && (v->nulls = (uint8_t *) take(c, (size_t) n)) == NULL)
		return corrupt(err, "block truncated");
	for (int64_t i = 0; v->nulls != NULL && i < n; i++)
		if (v->nulls[i] > 1)
			return corrupt(err, "bad null flag");
	if (size > 0 && (v->values = (void *) take(c, (size_t) n * (size_t) size)) == NULL)
		return corrupt(err, "block truncated");
	if ((flags & 2) && (v->nanos = (uint16_t *) take(c, sizeof(uint16_t) * (size_t) n)) == NULL)
		return corrupt(err, "block truncated");
	for (int64_t i = 0; v->nanos != NULL && i < n; i++)
		if (v->nanos[i] >= 1000)
			return corrupt(err, "bad nanoseconds");
	if (uses_offsets(id))
	{
		if ((v->offsets = (int32_t *) take(c, sizeof(int32_t) * (size_t) (n + 1))) == NULL)
			return corrupt(err, "block truncated");
		if (v->offsets[0] != 0)
			return corrupt(err, "offsets do not start at 0");
		for (int64_t i = 0; i < n; i++)
			if (v->offsets[i + 1] < v->offsets[i])
				return corrupt(err, "offsets decrease");
		nchild = v->offsets[n];
		if (pm_type_is_varlen(id))
		{
			uint64_t	dlen;

			if ((p = take(c, sizeof(uint64_t))) == NULL)
				return corrupt(err, "block truncated");
			dlen = get_u64(p);
			if (dlen != (uint64_t) v->offsets[n] || (v->data = (uint8_t *) take(c, dlen)) == NULL)
				return corrupt(err, "bad varlen data length");
			v->data_size = (int64_t) dlen;
		}
	}
	switch (id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			v->nchildren = 1;
			break;
		case PM_TYPE_MAP:
			v->nchildren = 2;
			break;
		case PM_TYPE_ROW:
			v->nchildren = type->nfields;
			break;
		default:
			return PM_OK;
	}
	v->children = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) (v->nchildren + 1));
	if (v->children == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < v->nchildren; i++)
	{
		const pm_type *ct = id == PM_TYPE_ROW ? type->fields[i].type
			: i == 0 ? type->element : type->value;

		PM_TRY(decode_vector(c, ct, nchild, arena, &v->children[i], depth + 1, err));
	}
	return PM_OK;
}

pm_code
pm_spill_run_decode_block(const pm_type *row_type, const uint8_t *raw, size_t len,
						  int64_t nrows, pm_arena *arena, pm_batch *out, pm_error *err)
{
	cursor		c = {raw, len, 0};

	memset(out, 0, sizeof(*out));
	if (nrows <= 0 || nrows > INT32_MAX)
		return corrupt(err, "bad row count");
	out->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) (row_type->nfields + 1));
	if (out->cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < row_type->nfields; i++)
		PM_TRY(decode_vector(&c, row_type->fields[i].type, nrows, arena, &out->cols[i], 0, err));
	if (c.pos != len)
		return corrupt(err, "bytes after the block's vectors");
	out->nrows = nrows;
	out->ncols = row_type->nfields;
	return PM_OK;
}

/* Read len bytes; *got: how many there were (fewer at the end of the file). */
static pm_code
read_exact(pm_spill_run_reader *r, void *buf, size_t len, size_t *got_out, pm_error *err)
{
	uint8_t    *p = buf;
	size_t		got = 0;

	*got_out = 0;
	while (got < len)
	{
		size_t		want = len - got < IO_CHUNK ? len - got : IO_CHUNK;
		ssize_t		n = read(r->fd, p + got, want);

		/* EINVAL: O_DIRECT refused (or a short file's unaligned end): buffered */
		if (n < 0 && (errno == EINTR || (errno == EINVAL && drop_direct(r->fd))))
			continue;
		if (n < 0)
		{
			pm_fail_errno(err, errno, "could not read spill file");
			pm_error_set_path(err, r->path);
			return PM_ERR_IO;
		}
		if (n == 0)
			break;
		got += (size_t) n;
	}
	*got_out = got;
	return PM_OK;
}

pm_code
pm_spill_run_reader_open(const pm_env *env, const char *path, const pm_type *row_type,
						 pm_spill_run_reader **out, pm_error *err)
{
	pm_spill_run_reader *r = pm_alloc(env, sizeof(*r));
	size_t		plen = strlen(path) + 1;

	*out = NULL;
	if (r == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(r, 0, sizeof(*r));
	r->env = env;
	r->row_type = row_type;
	r->stored.env = env;
	r->raw.env = env;
	r->fd = -1;
	r->path = pm_alloc(env, plen);
	r->arena = pm_arena_create(env);
	if (r->path == NULL || r->arena == NULL)
	{
		pm_spill_run_reader_close(r);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	memcpy(r->path, path, plen);
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
	{
		pm_code		rc = errno == ENOENT ? pm_fail(err, PM_ERR_NOT_FOUND, "spill file not found")
			: pm_fail_errno(err, errno, "could not open spill file");

		pm_error_set_path(err, path);
		pm_spill_run_reader_close(r);
		return rc;
	}
	try_direct(r->fd);
	*out = r;
	return PM_OK;
}

static pm_code
reader_fail(pm_spill_run_reader *r, pm_code rc, pm_error *err)
{
	pm_error_set_path(err, r->path);
	return rc;
}

pm_code
pm_spill_run_reader_next(pm_spill_run_reader *r, pm_batch **out, pm_error *err)
{
	const uint8_t *h;
	uint32_t	nrows,
				codec;
	uint64_t	raw_len,
				stored_len;
	size_t		frame_len;
	size_t		got;
	const uint8_t *block;
	pm_code		rc;

	*out = NULL;
	if (r->done)
		return PM_OK;
	pm_arena_reset(r->arena);
	/* the frame's first FRAME_ALIGN bytes: its header and the start of the block */
	r->stored.len = 0;
	if (!grow(&r->stored, FRAME_ALIGN))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(read_exact(r, r->stored.data, FRAME_ALIGN, &got, err));
	if (got == 0)
		return reader_fail(r, corrupt(err, "file truncated (no end mark)"), err);
	if (got < FRAME_ALIGN)
		return reader_fail(r, corrupt(err, "file truncated"), err);
	h = r->stored.data;
	if (memcmp(h, MAGIC, MAGIC_LEN) != 0)
		return reader_fail(r, corrupt(err, "not a spill file"), err);
	nrows = get_u32(h + 8);
	codec = get_u32(h + 12);
	raw_len = get_u64(h + 16);
	stored_len = get_u64(h + 24);
	if (nrows == 0)
	{
		if (codec != 0 || raw_len != 0 || stored_len != 0)
			return reader_fail(r, corrupt(err, "bad end mark"), err);
		r->done = true;
		return PM_OK;
	}
	if (codec > 1 || raw_len > MAX_BLOCK || stored_len > MAX_BLOCK ||
		(codec == 0 && stored_len != raw_len))
		return reader_fail(r, corrupt(err, "bad block header"), err);
	frame_len = PAD_FRAME(HEADER_LEN + (size_t) stored_len);
	r->stored.len = FRAME_ALIGN;
	if (!grow(&r->stored, frame_len - FRAME_ALIGN))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(read_exact(r, r->stored.data + FRAME_ALIGN, frame_len - FRAME_ALIGN, &got, err));
	if (got < frame_len - FRAME_ALIGN)
		return reader_fail(r, corrupt(err, "file truncated"), err);
	block = r->stored.data + HEADER_LEN;
	if (codec == 1)
	{
		r->raw.len = 0;
		if (!grow(&r->raw, (size_t) raw_len))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if ((rc = pm_codec_decompress(PM_CODEC_LZ4_RAW, block, (size_t) stored_len,
									  r->raw.data, (size_t) raw_len, err)) != PM_OK)
			return reader_fail(r, rc, err);
		block = r->raw.data;
	}
	if ((rc = pm_spill_run_decode_block(r->row_type, block, (size_t) raw_len, nrows,
										r->arena, &r->batch, err)) != PM_OK)
		return reader_fail(r, rc, err);
	*out = &r->batch;
	return PM_OK;
}

void
pm_spill_run_reader_close(pm_spill_run_reader *r)
{
	if (r == NULL)
		return;
	if (r->fd >= 0)
		close(r->fd);
	growbuf_free(&r->stored);
	growbuf_free(&r->raw);
	if (r->arena)
		pm_arena_destroy(r->arena);
	if (r->path)
		pm_free(r->env, r->path);
	pm_free(r->env, r);
}
