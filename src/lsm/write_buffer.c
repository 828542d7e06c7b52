/*-------------------------------------------------------------------------
 * write_buffer.c
 *	  The sorting, merging write buffer of one bucket (write_buffer.h).
 *
 * Records are deep-copied, column by column, into vectors of the buffer's
 * arena (when the vectors are full they move to a new arena with room for
 * twice as many: each growth copies every record and touches new pages, so
 * fewer, larger steps cost less; room allocated but not yet used counts
 * as the buffer's memory, as Java's pool counts a sort buffer's pages). A
 * spill frees the vectors and the sort's scratch (as a flush at commit
 * does, so an idle bucket holds none): kept for the bucket's next records,
 * they were memory beyond write-buffer-size that no bucket counted
 * (pm_write_buffer_spill; figures in bench/README.md "A writer's memory").
 * A flush sorts an index of the records and writes the merged ones in
 * batches of OUT_BATCH rows, keys of one record gathered column by column.
 *-------------------------------------------------------------------------
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* qsort_r */
#endif
#include "lsm/write_buffer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/uuid.h"
#include "common/vector_builder.h"
#include "io/fileio.h"
#include "lsm/key_compare.h"
#include "lsm/spill_run.h"

#define OUT_BATCH 4096
#define START_ROWS 64			/* records a buffer has room for at first */
#define SPILL_LZ4 false			/* compress spill files (lz4: cost more CPU than it saved at 10M rows, bench/README.md) */

struct pm_write_buffer
{
	const pm_env *env;
	const pm_kv_layout *layout;
	pm_merge_engine *engine;
	pm_arena   *arena;			/* the records */
	int			ncols;			/* table fields */
	pm_batch	rows;			/* the records' rows */
	pm_vector_builder *builders;
	int64_t    *seqs;
	uint8_t    *kinds;
	int64_t		n;
	int64_t		cap;			/* 0: not started (nothing allocated) */
	/* the sort's scratch, for the records held (freed by a spill, a flush) */
	int64_t    *sort_idx;
	void	   *sort_pairs;		/* int_key_row[2 * sort_cap] */
	int64_t		sort_cap;
	/* spilled sorted runs (local spill_run.h files of the file layout) */
	pm_merge_engine *run_engine;	/* the engine at value offset nkeys + 2 */
	pm_fileio  *spill_io;
	const char *spill_dir;
	char	  **spills;
	int			nspill;
	int			spill_cap;
};

/*
 * pm_vector_builder_append with the common case inline: a non-NULL value
 * of 4 or 8 bytes (INT, DATE, TIME, FLOAT, BIGINT, DOUBLE) into a vector
 * with room for it; everything else through the builder.
 */
static inline bool
append_value(pm_vector_builder *b, const pm_vector *src, int64_t row)
{
	pm_vector  *v = b->v;

	if (v->length < b->capacity && v->nulls != NULL && !pm_vector_is_null(src, row))
	{
		switch (v->type->id)
		{
			case PM_TYPE_INT:
			case PM_TYPE_DATE:
			case PM_TYPE_TIME:
			case PM_TYPE_FLOAT:
				((uint32_t *) v->values)[v->length] = ((const uint32_t *) src->values)[row];
				v->nulls[v->length++] = 0;
				return true;
			case PM_TYPE_BIGINT:
			case PM_TYPE_DOUBLE:
				((uint64_t *) v->values)[v->length] = ((const uint64_t *) src->values)[row];
				v->nulls[v->length++] = 0;
				return true;
			default:
				break;
		}
	}
	return pm_vector_builder_append(b, src, row);
}

static void remove_spills(pm_write_buffer *buf);

static pm_code
start(pm_write_buffer *buf, pm_error *err)
{
	const pm_type *row = buf->layout->schema->row_type;
	int64_t		cap = START_ROWS;

	buf->rows.nrows = 0;
	buf->rows.first_row = 0;
	buf->rows.ncols = buf->ncols;
	buf->rows.cols = pm_arena_zalloc(buf->arena, sizeof(pm_vector) * (size_t) (buf->ncols + 1));
	buf->builders = pm_arena_zalloc(buf->arena,
									sizeof(pm_vector_builder) * (size_t) (buf->ncols + 1));
	buf->cap = 0;				/* until everything is allocated */
	buf->seqs = pm_arena_alloc(buf->arena, sizeof(int64_t) * (size_t) cap);
	buf->kinds = pm_arena_alloc(buf->arena, (size_t) cap);
	buf->n = 0;
	if (buf->rows.cols == NULL || buf->builders == NULL || buf->seqs == NULL ||
		buf->kinds == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < buf->ncols; c++)
	{
		pm_vector  *v = &buf->rows.cols[c];

		if (!pm_vector_builder_init(&buf->builders[c], v, row->fields[c].type, cap, buf->arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		/* string data never NULL (as after copy_column), even if all are empty */
		if (pm_type_is_varlen(v->type->id) && v->data == NULL)
		{
			if ((v->data = pm_arena_alloc(buf->arena, 256)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			buf->builders[c].data_capacity = 256;
		}
	}
	buf->cap = cap;
	return PM_OK;
}

pm_code
pm_write_buffer_create(const pm_env *env, const pm_kv_layout *layout, pm_merge_engine *engine,
					   pm_merge_engine *run_engine, const char *spill_dir,
					   pm_write_buffer **out, pm_error *err)
{
	pm_write_buffer *buf = pm_alloc(env, sizeof(*buf));

	*out = NULL;
	if (buf == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(buf, 0, sizeof(*buf));
	buf->env = env;
	buf->layout = layout;
	buf->engine = engine;
	buf->ncols = layout->schema->row_type->nfields;
	buf->run_engine = run_engine;
	buf->spill_dir = spill_dir;
	buf->arena = pm_arena_create(env);
	buf->spill_io = pm_local_fileio_create(env);
	if (buf->arena == NULL || buf->spill_io == NULL)
	{
		pm_write_buffer_free(buf);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	*out = buf;
	return PM_OK;
}

/*
 * Copy column vector src (n values) into dst, built by b with room for its
 * capacity: flat vectors by their arrays, their varlen data given room for
 * `grow` times its bytes (the records to come are like those held); nested
 * ones value by value.
 */
static bool
copy_column(pm_vector_builder *b, const pm_vector *src, int64_t n, double grow)
{
	pm_vector  *dst = b->v;
	pm_type_id	id = src->type->id;
	int			size = pm_type_value_size(id);

	if (pm_type_is_nested(id))
	{
		for (int64_t r = 0; r < n; r++)
			if (!pm_vector_builder_append(b, src, r))
				return false;
		return true;
	}
	if (src->nulls)
		memcpy(dst->nulls, src->nulls, (size_t) n);
	else
		memset(dst->nulls, 0, (size_t) n);
	if (size > 0)
		memcpy(dst->values, src->values, (size_t) n * (size_t) size);
	if (dst->nanos != NULL)
	{
		if (src->nanos)
			memcpy(dst->nanos, src->nanos, sizeof(uint16_t) * (size_t) n);
		else
			memset(dst->nanos, 0, sizeof(uint16_t) * (size_t) n);
	}
	if (pm_type_is_varlen(id))
	{
		int64_t		used = src->offsets[n];
		int64_t		room = (int64_t) ((double) used * grow) + 256;

		if (room > INT32_MAX)
			room = INT32_MAX;
		if (room < used)
			room = used;
		memcpy(dst->offsets, src->offsets, sizeof(int32_t) * (size_t) (n + 1));
		dst->data = pm_arena_alloc(b->arena, (size_t) room);
		if (dst->data == NULL)
			return false;
		if (used > 0)
			memcpy(dst->data, src->data, (size_t) used);
		dst->data_size = used;
		b->data_capacity = room;
	}
	dst->length = n;
	return true;
}

/*
 * Room for ncap records: the records move to a new arena with room for
 * ncap, and the old one is freed, so the buffer's memory is what its
 * vectors hold (growing in place would keep every smaller copy: the arena
 * does not reuse space).
 */
static pm_code
regrow(pm_write_buffer *buf, int64_t ncap, pm_error *err)
{
	const pm_type *row = buf->layout->schema->row_type;
	pm_arena   *na = pm_arena_create(buf->env);
	pm_vector  *cols = na ? pm_arena_zalloc(na, sizeof(pm_vector) * (size_t) (buf->ncols + 1))
		: NULL;
	pm_vector_builder *builders = na ? pm_arena_zalloc(na, sizeof(pm_vector_builder) *
													   (size_t) (buf->ncols + 1)) : NULL;
	int64_t    *seqs = na ? pm_arena_alloc(na, sizeof(int64_t) * (size_t) ncap) : NULL;
	uint8_t    *kinds = na ? pm_arena_alloc(na, (size_t) ncap) : NULL;
	bool		ok = cols != NULL && builders != NULL && seqs != NULL && kinds != NULL;

	for (int c = 0; c < buf->ncols && ok; c++)
		ok = pm_vector_builder_init(&builders[c], &cols[c], row->fields[c].type, ncap, na) &&
			copy_column(&builders[c], &buf->rows.cols[c], buf->n,
						buf->n > 0 ? (double) ncap / (double) buf->n : 1.0);
	if (!ok)
	{
		if (na)
			pm_arena_destroy(na);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	memcpy(seqs, buf->seqs, sizeof(int64_t) * (size_t) buf->n);
	memcpy(kinds, buf->kinds, (size_t) buf->n);
	pm_arena_destroy(buf->arena);
	buf->arena = na;
	buf->rows.cols = cols;
	buf->builders = builders;
	buf->seqs = seqs;
	buf->kinds = kinds;
	buf->cap = ncap;
	return PM_OK;
}

pm_code
pm_write_buffer_put(pm_write_buffer *buf, const pm_batch *batch, int64_t row, int64_t seq,
					int kind, pm_error *err)
{
	if (buf->cap == 0)
		PM_TRY(start(buf, err));	/* an idle bucket holds no memory */
	if (buf->n == buf->cap)
		PM_TRY(regrow(buf, buf->cap * 2,
					  err));
	for (int c = 0; c < buf->ncols; c++)
		if (!append_value(&buf->builders[c], &batch->cols[c], row))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	buf->seqs[buf->n] = seq;
	buf->kinds[buf->n] = (uint8_t) kind;
	buf->n++;
	buf->rows.nrows = buf->n;
	return PM_OK;
}

/*
 * Append rows rows[0..n-1] of src to the vector b builds, which has room for
 * them (values, nulls, offsets; not string bytes): fixed-width values and
 * strings in one loop per column, NULL values zeroed as
 * pm_vector_builder_append_null leaves them; other types value by value.
 */
static bool
put_column(pm_vector_builder *b, const pm_vector *src, const int64_t *rows, int64_t n)
{
	pm_vector  *v = b->v;
	int64_t		at = v->length;
	pm_type_id	id = v->type->id;
	int			size = pm_type_value_size(id);
	bool		varlen = id == PM_TYPE_CHAR || id == PM_TYPE_VARCHAR ||
		id == PM_TYPE_BINARY || id == PM_TYPE_VARBINARY;

	if (pm_type_is_nested(id) || v->nulls == NULL || v->nanos != NULL || src->nanos != NULL ||
		at + n > b->capacity || (!varlen && (size <= 0 || pm_type_is_varlen(id))))
	{
		for (int64_t i = 0; i < n; i++)
			if (!pm_vector_builder_append(b, src, rows[i]))
				return false;
		return true;
	}
	if (src->nulls != NULL)
		for (int64_t i = 0; i < n; i++)
			v->nulls[at + i] = src->nulls[rows[i]] != 0;
	else
		memset(v->nulls + at, 0, (size_t) n);
	if (varlen)
	{
		int64_t		bytes = 0;
		int32_t    *offs = v->offsets;

		for (int64_t i = 0; i < n; i++)
			bytes += src->offsets[rows[i] + 1] - src->offsets[rows[i]];
		if (v->data == NULL || v->data_size + bytes > b->data_capacity)
		{
			/* value by value, growing the bytes' room as the builder does */
			for (int64_t i = 0; i < n; i++)
				if (!pm_vector_builder_append(b, src, rows[i]))
					return false;
			return true;
		}
		for (int64_t i = 0; i < n; i++)
		{
			int32_t		o = src->offsets[rows[i]];
			int32_t		len = src->offsets[rows[i] + 1] - o;

			if (len > 0)
				memcpy(v->data + v->data_size, src->data + o, (size_t) len);
			v->data_size += len;
			offs[at + i + 1] = (int32_t) v->data_size;
		}
		v->length = at + n;
		return true;
	}
	switch (size)
	{
		case 1:
			for (int64_t i = 0; i < n; i++)
				((uint8_t *) v->values)[at + i] = ((const uint8_t *) src->values)[rows[i]];
			break;
		case 2:
			for (int64_t i = 0; i < n; i++)
				((uint16_t *) v->values)[at + i] = ((const uint16_t *) src->values)[rows[i]];
			break;
		case 4:
			for (int64_t i = 0; i < n; i++)
				((uint32_t *) v->values)[at + i] = ((const uint32_t *) src->values)[rows[i]];
			break;
		case 8:
			for (int64_t i = 0; i < n; i++)
				((uint64_t *) v->values)[at + i] = ((const uint64_t *) src->values)[rows[i]];
			break;
		default:
			for (int64_t i = 0; i < n; i++)
				memcpy((uint8_t *) v->values + (size_t) (at + i) * size,
					   (const uint8_t *) src->values + (size_t) rows[i] * size, (size_t) size);
			break;
	}
	if (src->nulls != NULL)
		for (int64_t i = 0; i < n; i++)
			if (v->nulls[at + i])
				memset((uint8_t *) v->values + (size_t) (at + i) * size, 0, (size_t) size);
	v->length = at + n;
	return true;
}

pm_code
pm_write_buffer_put_rows(pm_write_buffer *buf, const pm_batch *batch, const int64_t *rows,
						 int64_t n, int64_t first_seq, const uint8_t *row_kinds, pm_error *err)
{
	if (n <= 0)
		return PM_OK;
	if (buf->cap == 0)
		PM_TRY(start(buf, err));
	if (buf->n + n > buf->cap)
	{
		/* the capacities pm_write_buffer_put would grow through */
		int64_t		ncap = buf->cap;

		while (ncap < buf->n + n)
			ncap *= 2;
		PM_TRY(regrow(buf, ncap, err));
	}
	for (int c = 0; c < buf->ncols; c++)
		if (!put_column(&buf->builders[c], &batch->cols[c], rows, n))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t i = 0; i < n; i++)
	{
		buf->seqs[buf->n + i] = first_seq + i;
		buf->kinds[buf->n + i] = row_kinds != NULL ? row_kinds[rows[i]] : 0;
	}
	buf->n += n;
	buf->rows.nrows = buf->n;
	return PM_OK;
}

int64_t
pm_write_buffer_size(const pm_write_buffer *buf)
{
	return buf->n;
}

int64_t
pm_write_buffer_memory(const pm_write_buffer *buf)
{
	/*
	 * all of it, the room for records to come too, as Java's memory pool
	 * counts the pages a sort buffer took: room allocated, not yet used, is
	 * not always untouched (the allocator hands out freed pages again: a
	 * spill's, another bucket's), and not counted it let the buffers hold
	 * up to twice write-buffer-size (10M rows into 4 buckets at 256 MB:
	 * peak RSS 516 MB, with the room counted 382 MB; bench/write_mem_core.c)
	 */
	return (int64_t) pm_arena_bytes(buf->arena);
}

static void
free_sort_scratch(pm_write_buffer *buf)
{
	if (buf->sort_idx)
		pm_free(buf->env, buf->sort_idx);
	if (buf->sort_pairs)
		pm_free(buf->env, buf->sort_pairs);
	buf->sort_idx = NULL;
	buf->sort_pairs = NULL;
	buf->sort_cap = 0;
}

void
pm_write_buffer_clear(pm_write_buffer *buf)
{
	free_sort_scratch(buf);
	remove_spills(buf);
	pm_arena_reset(buf->arena);
	buf->cap = 0;
	buf->n = 0;
}

void
pm_write_buffer_free(pm_write_buffer *buf)
{
	if (buf == NULL)
		return;
	if (buf->spill_io)
	{
		remove_spills(buf);
		pm_local_fileio_destroy(buf->spill_io);
	}
	if (buf->spills)
		pm_free(buf->env, buf->spills);
	free_sort_scratch(buf);
	if (buf->arena)
		pm_arena_destroy(buf->arena);
	pm_free(buf->env, buf);
}

/* ---- flush ------------------------------------------------------------- */

typedef struct sort_ctx
{
	const pm_write_buffer *buf;
	const pm_vector *keys;		/* the key columns, contiguous */
	int			nkeys;
} sort_ctx;

static void
record_of(const pm_write_buffer *buf, int64_t i, pm_kv_record *r)
{
	r->batch = &buf->rows;
	r->row = i;
	r->seq = buf->seqs[i];
	r->kind = buf->kinds[i];
	r->level = 0;
}

/*
 * SortBufferWriteBuffer: key fields, then sequence.field fields (ascending
 * whatever their sort order), then _SEQUENCE_NUMBER.
 */
static int
cmp_records(const void *pa, const void *pb, void *arg)
{
	const sort_ctx *ctx = arg;
	int64_t		a = *(const int64_t *) pa;
	int64_t		b = *(const int64_t *) pb;
	pm_kv_record ra,
				rb;
	int			c = pm_key_compare(ctx->keys, a, ctx->keys, b, ctx->nkeys);

	if (c != 0)
		return c;
	record_of(ctx->buf, a, &ra);
	record_of(ctx->buf, b, &rb);
	return pm_merge_engine_compare_buffered(ctx->buf->engine, &ra, &rb);
}

typedef struct int_key_row
{
	int64_t		key;
	int64_t		row;
} int_key_row;

/*
 * Sort pairs by key, keeping the order of equal keys (they come in row
 * order): an LSD radix sort on the key's bytes (sign bit flipped), a byte
 * skipped when every key has the same one. tmp: room for n pairs.
 */
static void
radix_sort_pairs(int_key_row *pairs, int_key_row *tmp, int64_t n)
{
	int_key_row *src = pairs,
			   *dst = tmp;

	for (int shift = 0; shift < 64; shift += 8)
	{
		int64_t		count[257];

		memset(count, 0, sizeof(count));
		for (int64_t i = 0; i < n; i++)
			count[(((uint64_t) src[i].key ^ ((uint64_t) 1 << 63)) >> shift & 0xFF) + 1]++;
		if (count[(((uint64_t) src[0].key ^ ((uint64_t) 1 << 63)) >> shift & 0xFF) + 1] == n)
			continue;			/* one value of this byte: nothing moves */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (int64_t i = 0; i < n; i++)
			dst[count[((uint64_t) src[i].key ^ ((uint64_t) 1 << 63)) >> shift & 0xFF]++] = src[i];
		{
			int_key_row *t = src;

			src = dst;
			dst = t;
		}
	}
	if (src != pairs)
		memcpy(pairs, src, sizeof(*pairs) * (size_t) n);
}

/*
 * radix_sort_pairs on unsigned 64-bit values alone, by their bytes from
 * bit `first` (a multiple of 8) up: values equal there keep their order
 * (tmp: room for n).
 */
static void
radix_sort_u64(uint64_t *vals, uint64_t *tmp, int64_t n, int first)
{
	uint64_t   *src = vals,
			   *dst = tmp;

	for (int shift = first; shift < 64; shift += 8)
	{
		int64_t		count[257];

		memset(count, 0, sizeof(count));
		for (int64_t i = 0; i < n; i++)
			count[(src[i] >> shift & 0xFF) + 1]++;
		if (count[(src[0] >> shift & 0xFF) + 1] == n)
			continue;			/* one value of this byte: nothing moves */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (int64_t i = 0; i < n; i++)
			dst[count[src[i] >> shift & 0xFF]++] = src[i];
		{
			uint64_t   *t = src;

			src = dst;
			dst = t;
		}
	}
	if (src != vals)
		memcpy(vals, src, sizeof(*vals) * (size_t) n);
}

/*
 * The common case fast: one INT/BIGINT/DATE key without NULLs and no
 * sequence.field. Records are numbered in the order they came, so within a
 * key the buffer position orders them as _SEQUENCE_NUMBER does; the sort
 * is then on (key, position) pairs. False: not this case (or no memory).
 */
static bool
sort_int_key(const pm_write_buffer *buf, const pm_vector *keys, int64_t *idx)
{
	const int  *seq_cols;
	int			nseq;
	bool		desc;
	int_key_row *pairs;
	pm_type_id	t;

	pm_merge_engine_sequence_fields(buf->engine, &seq_cols, &nseq, &desc);
	if (buf->layout->nkeys != 1 || nseq > 0)
		return false;
	t = keys[0].type->id;
	if (t != PM_TYPE_INT && t != PM_TYPE_BIGINT && t != PM_TYPE_DATE)
		return false;
	pairs = buf->sort_pairs;	/* sort_records made room for 2 * n */
#define KEY_AT(i) ((uint64_t) (t == PM_TYPE_BIGINT ? PM_VEC_VALUES(&keys[0], int64_t)[i] \
							   : (int64_t) PM_VEC_VALUES(&keys[0], int32_t)[i]) ^ ((uint64_t) 1 << 63))
	{
		/*
		 * When key - min and the position fit in 64 bits together (keys of
		 * a range narrower than 2^(64 - bits of n, rounded up to bytes)),
		 * sort them packed, by the key's bytes only (the positions come in
		 * order and the sort is stable): half the scratch (pages touched)
		 * and bytes moved of the pairs, the same order.
		 */
		int64_t		n = buf->n;
		uint64_t	lo = UINT64_MAX;
		uint64_t	hi = 0;
		/* the position's bits, rounded up to bytes: the key from a byte on */
		int			rowbits = n > 1 ? (64 - __builtin_clzll((uint64_t) (n - 1)) + 7) & ~7 : 0;
		int			keybits;

		for (int64_t i = 0; i < n; i++)
		{
			uint64_t	k;

			if (pm_vector_is_null(&keys[0], i))
				return false;	/* NULLs first: the general sort */
			k = KEY_AT(i);
			lo = k < lo ? k : lo;
			hi = k > hi ? k : hi;
		}
		keybits = hi > lo ? 64 - __builtin_clzll(hi - lo) : 0;
		if (keybits + rowbits <= 64)
		{
			uint64_t   *packed = (uint64_t *) pairs;
			uint64_t	mask = rowbits == 0 ? 0 : (((uint64_t) 1 << (rowbits - 1)) << 1) - 1;

			for (int64_t i = 0; i < n; i++)
				packed[i] = keybits == 0 ? (uint64_t) i : (KEY_AT(i) - lo) << rowbits | (uint64_t) i;
			radix_sort_u64(packed, packed + n, n, rowbits);
			for (int64_t i = 0; i < n; i++)
				idx[i] = (int64_t) (packed[i] & mask);
			return true;
		}
	}
	for (int64_t i = 0; i < buf->n; i++)
	{
		pairs[i].key = (int64_t) (KEY_AT(i) ^ ((uint64_t) 1 << 63));
		pairs[i].row = i;
	}
#undef KEY_AT
	radix_sort_pairs(pairs, pairs + buf->n, buf->n);
	for (int64_t i = 0; i < buf->n; i++)
		idx[i] = pairs[i].row;
	return true;
}

typedef struct out_batch
{
	pm_arena   *arena;
	pm_batch	b;
	pm_vector_builder *vb;
	int			ncols;
	int64_t		capacity;		/* 0: vectors not allocated yet */
} out_batch;

/*
 * Start an empty batch in the file layout: the first time (or for another
 * capacity) allocate its vectors, afterwards empty them and keep their
 * memory (a flush starts one per OUT_BATCH records, a merge of spills one
 * group per key).
 */
static pm_code
out_start(out_batch *o, const pm_kv_layout *l, int64_t capacity, pm_error *err)
{
	const pm_type *ft = l->file_type;

	if (o->capacity == capacity && o->ncols == ft->nfields)
	{
		for (int c = 0; c < o->ncols; c++)
			pm_vector_builder_reset(&o->vb[c]);
		o->b.nrows = 0;
		return PM_OK;
	}
	o->capacity = 0;
	pm_arena_reset(o->arena);
	o->ncols = ft->nfields;
	o->b.nrows = 0;
	o->b.first_row = 0;
	o->b.ncols = ft->nfields;
	o->b.cols = pm_arena_zalloc(o->arena, sizeof(pm_vector) * (size_t) ft->nfields);
	o->vb = pm_arena_zalloc(o->arena, sizeof(pm_vector_builder) * (size_t) ft->nfields);
	if (o->b.cols == NULL || o->vb == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < ft->nfields; c++)
		if (!pm_vector_builder_init(&o->vb[c], &o->b.cols[c], ft->fields[c].type, capacity,
									o->arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	o->capacity = capacity;
	return PM_OK;
}

/*
 * Append one record in the file layout: the key of row `row` of keys[0..nk-1],
 * seq, kind, and cells, or (cells NULL) row `row` of vals[0..nfields-1].
 */
static pm_code
out_append(out_batch *o, const pm_kv_layout *l, const pm_vector *keys, const pm_vector *vals,
		   int64_t row, int64_t seq, int kind, const pm_merge_cell *cells, pm_error *err)
{
	int			nk = l->nkeys;
	int			ncols = l->schema->row_type->nfields;
	int64_t		n = o->b.nrows;
	bool		ok = true;
	pm_vector  *sv = &o->b.cols[nk];
	pm_vector  *kv = &o->b.cols[nk + 1];

	for (int k = 0; k < nk && ok; k++)
		ok = append_value(&o->vb[k], &keys[k], row);
	/* the fixed-width system columns: append a value, then set it */
	ok = ok && pm_vector_builder_append_null(&o->vb[nk]) &&
		pm_vector_builder_append_null(&o->vb[nk + 1]);
	for (int j = 0; j < ncols && ok; j++)
	{
		if (cells == NULL)
			ok = append_value(&o->vb[nk + 2 + j], &vals[j], row);
		else if (cells[j].vec == NULL)
			ok = pm_vector_builder_append_null(&o->vb[nk + 2 + j]);
		else
			ok = append_value(&o->vb[nk + 2 + j], cells[j].vec, cells[j].row);
	}
	if (!ok)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_VEC_VALUES(sv, int64_t)[n] = seq;
	PM_VEC_VALUES(kv, int8_t)[n] = (int8_t) kind;
	if (sv->nulls)
		sv->nulls[n] = 0;
	if (kv->nulls)
		kv->nulls[n] = 0;
	o->b.nrows = n + 1;
	return PM_OK;
}

/*
 * The buffer's records as columns of the file layout (the key fields,
 * _SEQUENCE_NUMBER, _VALUE_KIND, the row's fields): views of its vectors,
 * in the buffer's arena. NULL on out-of-memory.
 */
static pm_vector *
memory_cols(pm_write_buffer *buf, const pm_vector *keys)
{
	const pm_kv_layout *l = buf->layout;
	pm_vector  *cols = pm_arena_zalloc(buf->arena,
									   sizeof(pm_vector) * (size_t) l->file_type->nfields);

	if (cols == NULL)
		return NULL;
	for (int k = 0; k < l->nkeys; k++)
		cols[k] = keys[k];
	cols[l->nkeys].type = l->file_type->fields[l->nkeys].type;
	cols[l->nkeys].length = buf->n;
	cols[l->nkeys].values = buf->seqs;
	cols[l->nkeys + 1].type = l->file_type->fields[l->nkeys + 1].type;
	cols[l->nkeys + 1].length = buf->n;
	cols[l->nkeys + 1].values = buf->kinds;
	for (int j = 0; j < buf->ncols; j++)
		cols[l->nkeys + 2 + j] = buf->rows.cols[j];
	return cols;
}

/*
 * Append rows idx[0..m-1] of src (columns of o's layout) to o, column by
 * column: fixed-width values in one loop per column, the rest value by
 * value.
 */
static pm_code
out_gather(out_batch *o, const pm_vector *src, const int64_t *idx, int64_t m, pm_error *err)
{
	if (m <= 0)
		return PM_OK;
	for (int c = 0; c < o->ncols; c++)
	{
		pm_vector_builder *b = &o->vb[c];
		pm_vector  *v = b->v;
		const pm_vector *s = &src[c];
		int			size = pm_type_value_size(s->type->id);
		int64_t		at = v->length;

		if (size == 0 || pm_type_is_nested(s->type->id) || v->nulls == NULL)
		{
			for (int64_t i = 0; i < m; i++)
				if (!append_value(b, s, idx[i]))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			continue;
		}
		if (!pm_vector_builder_reserve(b, m))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < m; i++)
			v->nulls[at + i] = s->nulls != NULL ? s->nulls[idx[i]] : 0;
		switch (size)
		{
			case 1:
				for (int64_t i = 0; i < m; i++)
					((uint8_t *) v->values)[at + i] = ((const uint8_t *) s->values)[idx[i]];
				break;
			case 4:
				for (int64_t i = 0; i < m; i++)
					((uint32_t *) v->values)[at + i] = ((const uint32_t *) s->values)[idx[i]];
				break;
			case 8:
				for (int64_t i = 0; i < m; i++)
					((uint64_t *) v->values)[at + i] = ((const uint64_t *) s->values)[idx[i]];
				break;
			default:
				for (int64_t i = 0; i < m; i++)
					memcpy((uint8_t *) v->values + (size_t) (at + i) * size,
						   (const uint8_t *) s->values + (size_t) idx[i] * size, (size_t) size);
				break;
		}
		if (v->nanos != NULL)
			for (int64_t i = 0; i < m; i++)
				v->nanos[at + i] = s->nanos != NULL ? s->nanos[idx[i]] : 0;
		v->length = at + m;
	}
	o->b.nrows += m;
	return PM_OK;
}

static pm_code
flush_sorted(pm_write_buffer *buf, const int64_t *idx, pm_kv_file_writer *out, out_batch *o,
			 const pm_vector *keys, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	int64_t		n = buf->n;
	int64_t		i = 0;
	int64_t		run = 0;		/* keys of one record from here to i: gathered together */
	pm_vector  *cols = memory_cols(buf, keys);

	if (cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(out_start(o, l, OUT_BATCH, err));
	while (i < n)
	{
		int64_t		j = i + 1;
		int64_t		last;

		while (j < n && pm_key_compare(keys, idx[i], keys, idx[j], l->nkeys) == 0)
			j++;
		last = idx[j - 1];
		if (j - i == 1)
		{
			i = j;
			/* output batches of OUT_BATCH records, as record by record */
			if (o->b.nrows + (i - run) < OUT_BATCH)
				continue;
			PM_TRY(out_gather(o, cols, idx + run, i - run, err));
			run = i;
		}
		else
		{
			bool		has_row;
			int			kind;
			const pm_merge_cell *cells;

			PM_TRY(out_gather(o, cols, idx + run, i - run, err));
			pm_merge_engine_reset(buf->engine);
			for (int64_t r = i; r < j; r++)
			{
				pm_kv_record rec;

				record_of(buf, idx[r], &rec);
				PM_TRY(pm_merge_engine_add(buf->engine, &rec, err));
			}
			PM_TRY(pm_merge_engine_result(buf->engine, &has_row, &kind, &cells, err));
			/* FirstRowMergeFunction returns the first record, with its sequence number */
			if (has_row)
				PM_TRY(out_append(o, l, keys, NULL, last,
								  pm_merge_engine_get_kind(buf->engine) == PM_MERGE_FIRST_ROW ?
								  buf->seqs[idx[i]] : buf->seqs[last], kind, cells, err));
			i = run = j;
		}
		if (o->b.nrows >= OUT_BATCH)
		{
			PM_TRY(pm_kv_file_writer_write(out, &o->b, err));
			PM_TRY(out_start(o, l, OUT_BATCH, err));
		}
	}
	PM_TRY(out_gather(o, cols, idx + run, n - run, err));
	if (o->b.nrows > 0)
		PM_TRY(pm_kv_file_writer_write(out, &o->b, err));
	return PM_OK;
}

/* ---- spilling ------------------------------------------------------------ */

/* Write every record, unmerged, in sorted order to a new local spill file. */
static pm_code
spill_sorted(pm_write_buffer *buf, const int64_t *idx, const pm_vector *keys, out_batch *o,
			 pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	pm_spill_run_writer *sw = NULL;
	pm_vector  *cols;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	char	   *path;
	size_t		len;
	pm_code		rc;

	if (buf->nspill == buf->spill_cap)
	{
		int			ncap = buf->spill_cap ? buf->spill_cap * 2 : 4;
		char	  **grown = pm_alloc(buf->env, sizeof(char *) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (buf->nspill > 0)
			memcpy(grown, buf->spills, sizeof(char *) * (size_t) buf->nspill);
		if (buf->spills)
			pm_free(buf->env, buf->spills);
		buf->spills = grown;
		buf->spill_cap = ncap;
	}
	PM_TRY(pm_uuid_random(uuid, err));
	len = strlen(buf->spill_dir) + PM_UUID_TEXT_LEN + 40;
	path = pm_alloc(buf->env, len);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	snprintf(path, len, "%s/paimon-fdw-spill-%s.run", buf->spill_dir, uuid);
	if ((rc = pm_spill_run_writer_open(buf->env, path, l->file_type, SPILL_LZ4, &sw,
									   err)) != PM_OK)
	{
		pm_free(buf->env, path);
		return rc;
	}
	buf->spills[buf->nspill++] = path;	/* removed with the buffer from here on */
	/* the records' columns in the file layout, gathered in sorted order by the writer */
	cols = memory_cols(buf, keys);
	rc = cols == NULL ? pm_fail(err, PM_ERR_NOMEM, "out of memory") : PM_OK;
	for (int64_t i = 0; rc == PM_OK && i < buf->n; i += OUT_BATCH)
		rc = pm_spill_run_writer_write_rows(sw, cols, idx + i,
											buf->n - i < OUT_BATCH ? buf->n - i : OUT_BATCH,
											err);
	if (rc != PM_OK)
	{
		pm_spill_run_writer_abort(sw);
		return rc;
	}
	return pm_spill_run_writer_finish(sw, err);
}

/*
 * One sorted run being merged: a spill file, or (reader NULL) the records
 * still in memory, in the order idx gives, copied into the file layout
 * OUT_BATCH at a time.
 */
typedef struct spill_run
{
	pm_spill_run_reader *reader;
	pm_batch   *b;
	int64_t		i;
	/* the in-memory run */
	const int64_t *idx;
	const pm_vector *cols;		/* memory_cols() */
	int64_t		pos;
	out_batch	mem;
} spill_run;

static void
run_record(const pm_kv_layout *l, const spill_run *r, pm_kv_record *rec)
{
	rec->batch = r->b;
	rec->row = r->i;
	rec->seq = PM_VEC_VALUES(&r->b->cols[l->nkeys], int64_t)[r->i];
	rec->kind = PM_VEC_VALUES(&r->b->cols[l->nkeys + 1], int8_t)[r->i];
	rec->level = 0;
}

/* The write buffer's order on records of two runs. */
static int
cmp_runs(const pm_write_buffer *buf, const spill_run *a, const spill_run *b)
{
	int			c = pm_key_compare(a->b->cols, a->i, b->b->cols, b->i, buf->layout->nkeys);
	pm_kv_record ra,
				rb;

	if (c != 0)
		return c;
	run_record(buf->layout, a, &ra);
	run_record(buf->layout, b, &rb);
	return pm_merge_engine_compare_buffered(buf->run_engine, &ra, &rb);
}

static void
heap_down(const pm_write_buffer *buf, spill_run **heap, int n, int i)
{
	for (;;)
	{
		int			m = i,
					c1 = 2 * i + 1,
					c2 = 2 * i + 2;
		spill_run  *t;

		if (c1 < n && cmp_runs(buf, heap[c1], heap[m]) < 0)
			m = c1;
		if (c2 < n && cmp_runs(buf, heap[c2], heap[m]) < 0)
			m = c2;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

/* The in-memory run's next records into its batch (none at its end). */
static pm_code
mem_fill(pm_write_buffer *buf, spill_run *r, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	int64_t		m = buf->n - r->pos < OUT_BATCH ? buf->n - r->pos : OUT_BATCH;

	PM_TRY(out_start(&r->mem, l, OUT_BATCH, err));
	PM_TRY(out_gather(&r->mem, r->cols, r->idx + r->pos, m, err));
	r->pos += m;
	r->b = &r->mem.b;
	return PM_OK;
}

/* Advance a run to its next record; false at its end. */
static pm_code
run_advance(pm_write_buffer *buf, spill_run *r, bool *more, pm_error *err)
{
	r->i++;
	while (r->b == NULL || r->i >= r->b->nrows)
	{
		if (r->reader != NULL)
			PM_TRY(pm_spill_run_reader_next(r->reader, &r->b, err));
		else if (r->pos < buf->n)
			PM_TRY(mem_fill(buf, r, err));
		else
			r->b = NULL;
		r->i = 0;
		if (r->b == NULL)
		{
			*more = false;
			return PM_OK;
		}
	}
	*more = true;
	return PM_OK;
}

/* Merge the records of one key gathered in g and append the result to o. */
static pm_code
merge_group(pm_write_buffer *buf, out_batch *g, out_batch *o, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	int			nk = l->nkeys;
	int64_t		last = g->b.nrows - 1;
	int64_t		seq = PM_VEC_VALUES(&g->b.cols[nk], int64_t)[last];
	bool		has_row;
	int			kind;
	const pm_merge_cell *cells;

	if (g->b.nrows == 1)
		return out_append(o, l, g->b.cols, g->b.cols + nk + 2, 0, seq,
						  PM_VEC_VALUES(&g->b.cols[nk + 1], int8_t)[0], NULL, err);
	pm_merge_engine_reset(buf->run_engine);
	for (int64_t r = 0; r < g->b.nrows; r++)
	{
		pm_kv_record rec;

		rec.batch = &g->b;
		rec.row = r;
		rec.seq = PM_VEC_VALUES(&g->b.cols[nk], int64_t)[r];
		rec.kind = PM_VEC_VALUES(&g->b.cols[nk + 1], int8_t)[r];
		rec.level = 0;
		PM_TRY(pm_merge_engine_add(buf->run_engine, &rec, err));
	}
	PM_TRY(pm_merge_engine_result(buf->run_engine, &has_row, &kind, &cells, err));
	if (pm_merge_engine_get_kind(buf->run_engine) == PM_MERGE_FIRST_ROW)
		seq = PM_VEC_VALUES(&g->b.cols[nk], int64_t)[0];	/* the first record's */
	return has_row ? out_append(o, l, g->b.cols, NULL, last, seq, kind, cells, err) : PM_OK;
}

/*
 * Whether the heap's top record is the only one of its key: the next
 * record of its run (in the same batch; false at a batch's end) and the
 * current records of the other runs next in the heap order (heap[1],
 * heap[2]: every other record sorts after one of them) have other keys.
 */
static bool
single_record(const pm_kv_layout *l, spill_run **heap, int nheap)
{
	const spill_run *top = heap[0];

	if (top->i + 1 >= top->b->nrows ||
		pm_key_compare(top->b->cols, top->i, top->b->cols, top->i + 1, l->nkeys) == 0)
		return false;
	for (int h = 1; h <= 2 && h < nheap; h++)
		if (pm_key_compare(top->b->cols, top->i, heap[h]->b->cols, heap[h]->i, l->nkeys) == 0)
			return false;
	return true;
}

/*
 * After single_record: how many records of the top run, from its current
 * one on (at most room), are each their key's only record and come before
 * every other run's current one, so they go to the output as they are, in
 * one gather. The run's last record of its block is left to the record by
 * record path (the next block could hold its key again). At least 1.
 */
static int64_t
singles_ahead(const pm_kv_layout *l, spill_run **heap, int nheap, int64_t room)
{
	const spill_run *top = heap[0];
	const pm_vector *k = top->b->cols;
	const spill_run *next = NULL;
	int64_t		end = top->b->nrows - 1;	/* exclusive; a record needs its successor */
	int64_t		lo,
				hi;
	int64_t		m;

	if (end > top->i + room)
		end = top->i + room;
	if (end <= top->i + 1)
		return 1;
	/* the least current key of the other runs: one of the root's children */
	for (int h = 1; h <= 2 && h < nheap; h++)
		if (next == NULL ||
			pm_key_compare(heap[h]->b->cols, heap[h]->i, next->b->cols, next->i, l->nkeys) < 0)
			next = heap[h];
	/* the run is sorted: the records before next's key are a prefix */
	lo = top->i + 1;
	hi = end;
	while (next != NULL && lo < hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;

		if (pm_key_compare(k, mid, next->b->cols, next->i, l->nkeys) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	end = next != NULL ? lo : end;
	/* each with a key of its own */
	for (m = 1; top->i + m < end; m++)
		if (pm_key_compare(k, top->i + m, k, top->i + m + 1, l->nkeys) == 0)
			break;
	return m;
}

/*
 * BinaryExternalSortBuffer + MergeIterator: a k-way merge of the spilled
 * runs and the records still in memory (sorted: idx, keys) in the buffer's
 * order, each key's records merged as in a flush.
 */
static pm_code
merge_spills(pm_write_buffer *buf, const int64_t *idx, const pm_vector *keys,
			 pm_kv_file_writer *out, out_batch *o, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	int			n = buf->nspill + 1;
	spill_run  *runs = pm_alloc(buf->env, sizeof(spill_run) * (size_t) n);
	spill_run **heap = pm_alloc(buf->env, sizeof(spill_run *) * (size_t) n);
	int64_t    *span = pm_alloc(buf->env, sizeof(int64_t) * OUT_BATCH);
	out_batch	g;
	int			nheap = 0;
	pm_code		rc = PM_OK;

	memset(&g, 0, sizeof(g));
	g.arena = pm_arena_create(buf->env);
	if (runs != NULL)
		memset(runs, 0, sizeof(spill_run) * (size_t) n);
	if (runs == NULL || heap == NULL || span == NULL || g.arena == NULL ||
		(runs[n - 1].mem.arena = pm_arena_create(buf->env)) == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	runs[n - 1].idx = idx;
	if (buf->n > 0 && (runs[n - 1].cols = memory_cols(buf, keys)) == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int i = 0; rc == PM_OK && i < n; i++)
	{
		bool		more;

		if (i < buf->nspill)
			rc = pm_spill_run_reader_open(buf->env, buf->spills[i], l->file_type,
										  &runs[i].reader, err);
		runs[i].i = -1;
		if (rc == PM_OK)
			rc = run_advance(buf, &runs[i], &more, err);
		if (rc == PM_OK && more)
			heap[nheap++] = &runs[i];
	}
	for (int i = nheap / 2 - 1; rc == PM_OK && i >= 0; i--)
		heap_down(buf, heap, nheap, i);
	if (rc == PM_OK)
		rc = out_start(o, l, OUT_BATCH, err);
	if (rc == PM_OK)
		rc = out_start(&g, l, 8, err);
	while (rc == PM_OK && nheap > 0)
	{
		spill_run  *top = heap[0];
		bool		more;

		/* a new key: merge the group gathered so far */
		if (g.b.nrows > 0 &&
			pm_key_compare(g.b.cols, 0, top->b->cols, top->i, l->nkeys) != 0)
		{
			rc = merge_group(buf, &g, o, err);
			if (rc == PM_OK && o->b.nrows >= OUT_BATCH)
			{
				rc = pm_kv_file_writer_write(out, &o->b, err);
				if (rc == PM_OK)
					rc = out_start(o, l, OUT_BATCH, err);
			}
			if (rc == PM_OK)
				rc = out_start(&g, l, 8, err);
			if (rc != PM_OK)
				break;
		}
		if (g.b.nrows == 0 && single_record(l, heap, nheap))
		{
			int64_t		m = singles_ahead(l, heap, nheap, OUT_BATCH - o->b.nrows);

			/* the key's only record: to o as it is (what merge_group does with it) */
			if (m > 1)
			{
				/* and the run's next ones that are single and before every other run's */
				for (int64_t k = 0; k < m; k++)
					span[k] = top->i + k;
				rc = out_gather(o, top->b->cols, span, m, err);
				top->i += m - 1;
			}
			else
				rc = out_append(o, l, top->b->cols, top->b->cols + l->nkeys + 2, top->i,
								PM_VEC_VALUES(&top->b->cols[l->nkeys], int64_t)[top->i],
								PM_VEC_VALUES(&top->b->cols[l->nkeys + 1], int8_t)[top->i],
								NULL, err);
			if (rc == PM_OK && o->b.nrows >= OUT_BATCH)
			{
				rc = pm_kv_file_writer_write(out, &o->b, err);
				if (rc == PM_OK)
					rc = out_start(o, l, OUT_BATCH, err);
			}
		}
		else
			rc = out_append(&g, l, top->b->cols, top->b->cols + l->nkeys + 2, top->i,
							PM_VEC_VALUES(&top->b->cols[l->nkeys], int64_t)[top->i],
							PM_VEC_VALUES(&top->b->cols[l->nkeys + 1], int8_t)[top->i], NULL,
							err);
		if (rc == PM_OK)
			rc = run_advance(buf, top, &more, err);
		if (rc != PM_OK)
			break;
		if (!more)
			heap[0] = heap[--nheap];
		heap_down(buf, heap, nheap, 0);
	}
	if (rc == PM_OK && g.b.nrows > 0)
		rc = merge_group(buf, &g, o, err);
	if (rc == PM_OK && o->b.nrows > 0)
		rc = pm_kv_file_writer_write(out, &o->b, err);
done:
	for (int i = 0; runs != NULL && i < n; i++)
	{
		pm_spill_run_reader_close(runs[i].reader);
		if (runs[i].mem.arena)
			pm_arena_destroy(runs[i].mem.arena);
	}
	if (runs)
		pm_free(buf->env, runs);
	if (heap)
		pm_free(buf->env, heap);
	if (span)
		pm_free(buf->env, span);
	if (g.arena)
		pm_arena_destroy(g.arena);
	return rc;
}

static void
remove_spills(pm_write_buffer *buf)
{
	for (int i = 0; i < buf->nspill; i++)
	{
		pm_fileio_remove_quietly(buf->spill_io, buf->spills[i]);
		pm_free(buf->env, buf->spills[i]);
	}
	buf->nspill = 0;
}

/*
 * Sort the buffer's records: idx (n entries, the buffer's sort scratch,
 * valid until the next sort or clear) in the buffer's order; keys the key
 * columns.
 */
static pm_code
sort_records(pm_write_buffer *buf, int64_t **idx_out, pm_vector **keys_out, pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	pm_vector  *keys = pm_arena_alloc(buf->arena, sizeof(pm_vector) * (size_t) (l->nkeys + 1));
	int64_t    *idx;
	sort_ctx	ctx;

	if (buf->n > buf->sort_cap || buf->sort_idx == NULL)
	{
		/* for the records held only: a spill frees it, the next one sizes it anew */
		int64_t		cap = buf->n > 0 ? buf->n : 1;

		free_sort_scratch(buf);
		buf->sort_idx = pm_alloc(buf->env, sizeof(int64_t) * (size_t) cap);
		buf->sort_pairs = pm_alloc(buf->env, sizeof(int_key_row) * (size_t) cap * 2);
		if (buf->sort_idx == NULL || buf->sort_pairs == NULL)
		{
			free_sort_scratch(buf);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		buf->sort_cap = cap;
	}
	idx = buf->sort_idx;
	if (keys == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*idx_out = idx;
	*keys_out = keys;
	if (buf->n == 0)
		return PM_OK;			/* (everything spilled: no vectors) */
	for (int64_t i = 0; i < buf->n; i++)
		idx[i] = i;
	for (int k = 0; k < l->nkeys; k++)
		keys[k] = buf->rows.cols[l->key_fields[k]];
	ctx.buf = buf;
	ctx.keys = keys;
	ctx.nkeys = l->nkeys;
	if (!sort_int_key(buf, keys, idx))
		qsort_r(idx, (size_t) buf->n, sizeof(int64_t), cmp_records, &ctx);
	*idx_out = idx;
	*keys_out = keys;
	return PM_OK;
}

pm_code
pm_write_buffer_spill(pm_write_buffer *buf, pm_error *err)
{
	int64_t    *idx;
	pm_vector  *keys;
	out_batch	o;
	pm_code		rc;

	if (buf->n == 0)
		return PM_OK;
	PM_TRY(sort_records(buf, &idx, &keys, err));
	memset(&o, 0, sizeof(o));
	o.arena = pm_arena_create(buf->env);
	rc = o.arena == NULL ? pm_fail(err, PM_ERR_NOMEM, "out of memory")
		: spill_sorted(buf, idx, keys, &o, err);
	if (o.arena)
		pm_arena_destroy(o.arena);
	/*
	 * the records are on disk now (or the writer is aborted): their vectors
	 * and the sort's scratch are freed, for the other buckets' records to
	 * come, as Java's sort buffer gives its pages back to the writers'
	 * shared pool. Kept, they counted for nothing (room for records to
	 * come), yet held their pages: every bucket that had spilled held its
	 * records' bytes and 40 bytes of scratch a record beyond
	 * write-buffer-size (10M rows into 4 buckets at 64 MB: peak RSS 247 MB
	 * kept, 165 MB freed; bench/write_mem_core.c).
	 */
	free_sort_scratch(buf);
	pm_arena_reset(buf->arena);
	buf->cap = 0;
	buf->rows.nrows = 0;
	buf->n = 0;
	return rc;
}

int
pm_write_buffer_spill_count(const pm_write_buffer *buf)
{
	return buf->nspill;
}

/*
 * The changelog of changelog-producer = input (SortBufferWriteBuffer.forEach
 * rawConsumer): every record in memory, unmerged, in sorted order, as the
 * file layout, OUT_BATCH records a batch.
 */
static pm_code
flush_raw(pm_write_buffer *buf, const int64_t *idx, pm_kv_file_writer *changelog,
		  out_batch *o, const pm_vector *keys, pm_error *err)
{
	pm_vector  *cols = memory_cols(buf, keys);

	if (cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t i = 0; i < buf->n; i += OUT_BATCH)
	{
		int64_t		m = buf->n - i < OUT_BATCH ? buf->n - i : OUT_BATCH;

		PM_TRY(out_start(o, buf->layout, OUT_BATCH, err));
		PM_TRY(out_gather(o, cols, idx + i, m, err));
		PM_TRY(pm_kv_file_writer_write(changelog, &o->b, err));
	}
	return PM_OK;
}

pm_code
pm_write_buffer_flush_in_order(pm_write_buffer *buf, pm_kv_file_writer *out, int64_t seq,
							   pm_error *err)
{
	const pm_kv_layout *l = buf->layout;
	pm_vector  *keys;
	pm_vector  *cols;
	int64_t    *idx;
	out_batch	o;
	pm_code		rc = PM_OK;

	if (buf->nspill > 0)
		return pm_fail(err, PM_ERR_INVALID, "records were spilled: their order is lost");
	if (buf->n == 0)
		return PM_OK;
	memset(&o, 0, sizeof(o));
	o.arena = pm_arena_create(buf->env);
	keys = pm_arena_alloc(buf->arena, sizeof(pm_vector) * (size_t) (l->nkeys + 1));
	idx = pm_arena_alloc(buf->arena, sizeof(int64_t) * OUT_BATCH);
	if (o.arena == NULL || keys == NULL || idx == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	else
	{
		for (int k = 0; k < l->nkeys; k++)
			keys[k] = buf->rows.cols[l->key_fields[k]];
		for (int64_t i = 0; i < buf->n; i++)
			buf->seqs[i] = seq;
		if ((cols = memory_cols(buf, keys)) == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; rc == PM_OK && i < buf->n; i += OUT_BATCH)
		{
			int64_t		m = buf->n - i < OUT_BATCH ? buf->n - i : OUT_BATCH;

			for (int64_t j = 0; j < m; j++)
				idx[j] = i + j;
			if ((rc = out_start(&o, l, OUT_BATCH, err)) == PM_OK &&
				(rc = out_gather(&o, cols, idx, m, err)) == PM_OK)
				rc = pm_kv_file_writer_write(out, &o.b, err);
		}
	}
	if (o.arena)
		pm_arena_destroy(o.arena);
	pm_write_buffer_clear(buf);
	return rc;
}

pm_code
pm_write_buffer_flush(pm_write_buffer *buf, pm_kv_file_writer *out, pm_error *err)
{
	return pm_write_buffer_flush_changelog(buf, out, NULL, err);
}

pm_code
pm_write_buffer_flush_changelog(pm_write_buffer *buf, pm_kv_file_writer *out,
								pm_kv_file_writer *changelog, pm_error *err)
{
	int64_t    *idx = NULL;
	pm_vector  *keys;
	out_batch	o;
	pm_code		rc = PM_OK;

	if (buf->n == 0 && buf->nspill == 0)
		return PM_OK;
	memset(&o, 0, sizeof(o));
	o.arena = pm_arena_create(buf->env);
	if (o.arena == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	else if (changelog != NULL && buf->nspill > 0)
		rc = pm_fail(err, PM_ERR_UNSUPPORTED, "a changelog of spilled records is not written");
	else if ((rc = sort_records(buf, &idx, &keys, err)) == PM_OK &&
			 (changelog == NULL || (rc = flush_raw(buf, idx, changelog, &o, keys, err)) == PM_OK))
	{
		/* what is in memory is one more run, merged from memory */
		if (buf->nspill > 0)
			rc = merge_spills(buf, idx, keys, out, &o, err);
		else
			rc = flush_sorted(buf, idx, out, &o, keys, err);
	}
	if (o.arena)
		pm_arena_destroy(o.arena);
	pm_write_buffer_clear(buf);
	return rc;
}
