/*-------------------------------------------------------------------------
 * resident_file.c
 *	  A primary-key data file's columns decoded whole, as two page-cache
 *	  entries of the file (see resident_file.h).
 *
 * The key slot: its header (the entry's header block), then the keys
 * (nrows x width, padded to 8) and, when the keys span at most 64 values
 * per row, a bitmap of [first key, last key] (bit k - first set: key k is
 * there).
 * The rows slot: its header and a pm_resident_field per table field (the
 * header block), then nrows rows of stride bytes (the _VALUE_KIND byte, a
 * null byte per field, each field's value: fixed-width values as
 * common/vector.h has them, strings and bytes as an int32 offset into the
 * heap and an int32 length, the nanos of timestamps of more than 6 digits
 * after them), then the heap.
 *-------------------------------------------------------------------------
 */
#include "table/resident_file.h"

#include <stdlib.h>
#include <string.h>

#include "table/table_int.h"

#define RESIDENT_MAGIC 0x52534432u	/* "RSD2" */
/* a key bitmap: at most this many bits per row */
#define RESIDENT_BITS_PER_ROW 64

typedef struct pm_resident_header
{
	uint32_t	magic;
	int32_t		slot;
	int64_t		nrows;
	/* key slot */
	int32_t		key_type;
	int32_t		key_width;
	int64_t		bits_at;		/* payload offset of the bitmap; bits_len 0: none */
	int64_t		bits_len;
	int64_t		bits_min;		/* the key of bit 0 */
	/* rows slot */
	int32_t		nfields;
	int32_t		stride;
	int64_t		heap_at;
	int64_t		heap_len;
} pm_resident_header;

typedef struct pm_resident_field
{
	int32_t		type_id;		/* -1: not in the rows (the key's field) */
	int32_t		width;			/* bytes of the value; 0: offset and length into the heap */
	int32_t		off;			/* of the value in the row */
	int32_t		null_off;
	int32_t		nanos_off;		/* -1: none */
	int32_t		pad;
} pm_resident_field;

#define KIND_OFF 0
#define ALIGN8(n) (((n) + 7) & ~(size_t) 7)

/* The page-cache key of a slot: offsets below every page's, the schema in the variant. */
static int64_t
slot_offset(int slot)
{
	return -1 - (int64_t) slot;
}

static uint64_t
slot_variant(const pm_table *t)
{
	return 0x7265736964656e74ull ^ ((uint64_t) t->schema->id * 0x9E3779B97F4A7C15ull);
}

static bool
key_type_ok(pm_type_id id)
{
	return id == PM_TYPE_TINYINT || id == PM_TYPE_SMALLINT || id == PM_TYPE_INT ||
		id == PM_TYPE_BIGINT;
}

static bool
has_nanos(const pm_type *ty)
{
	return (ty->id == PM_TYPE_TIMESTAMP || ty->id == PM_TYPE_TIMESTAMP_LTZ) && ty->precision > 6;
}

/*
 * The rows slot's layout for t (fields[] of nfields, the key's field not
 * in the rows); the stride.
 */
static int32_t
row_layout(const pm_table *t, pm_resident_field *fields)
{
	const pm_type *row = t->schema->row_type;
	int32_t		off = KIND_OFF + 1;

	for (int i = 0; i < row->nfields; i++)
	{
		memset(&fields[i], 0, sizeof(fields[i]));
		fields[i].type_id = -1;
		fields[i].nanos_off = -1;
		if (i == t->trimmed_pk[0])
			continue;
		fields[i].type_id = (int32_t) row->fields[i].type->id;
		fields[i].null_off = off++;
	}
	for (int i = 0; i < row->nfields; i++)
	{
		const pm_type *ty = row->fields[i].type;

		if (fields[i].type_id < 0)
			continue;
		fields[i].width = pm_type_is_varlen(ty->id) ? 0 : pm_type_value_size(ty->id);
		fields[i].off = off;
		off += fields[i].width > 0 ? fields[i].width : 8;
		if (has_nanos(ty))
		{
			fields[i].nanos_off = off;
			off += 2;
		}
	}
	return (int32_t) ALIGN8((size_t) off);
}

bool
pm_resident_file_eligible(pm_table *t, const pm_data_file_meta *f, size_t *fixed_bytes)
{
	const pm_type *row = t->schema->row_type;
	pm_resident_field *fields;
	int32_t		stride;
	int			key_width;

	if (t->ntrimmed_pk != 1 || f->deletion_file != NULL || f->row_count <= 0 ||
		f->row_count >= INT32_MAX ||
		!key_type_ok(row->fields[t->trimmed_pk[0]].type->id))
		return false;
	for (int i = 0; i < row->nfields; i++)
		if (pm_type_is_nested(row->fields[i].type->id))
			return false;
	if ((fields = malloc(sizeof(pm_resident_field) * (size_t) (row->nfields + 1))) == NULL)
		return false;
	stride = row_layout(t, fields);
	free(fields);
	key_width = pm_type_value_size(row->fields[t->trimmed_pk[0]].type->id);
	*fixed_bytes = ((size_t) stride + (size_t) key_width + RESIDENT_BITS_PER_ROW / 8) *
		(size_t) f->row_count;
	return true;
}

/* Rows [pos, pos + n) of field i from vector v into the rows; false: heap too large. */
static bool
rows_append(uint8_t *rows, int32_t stride, const pm_resident_field *fd, const pm_vector *v,
			int64_t pos, int64_t n, uint8_t **heap, size_t *heap_len, size_t *heap_cap)
{
	uint8_t    *r = rows + (size_t) pos * (size_t) stride;

	for (int64_t i = 0; i < n; i++, r += stride)
	{
		if (v->nulls != NULL && v->nulls[i])
		{
			r[fd->null_off] = 1;
			continue;
		}
		if (fd->width > 0)
		{
			memcpy(r + fd->off, (const uint8_t *) v->values + (size_t) i * (size_t) fd->width,
				   (size_t) fd->width);
			if (fd->nanos_off >= 0 && v->nanos != NULL)
				memcpy(r + fd->nanos_off, &v->nanos[i], sizeof(uint16_t));
		}
		else
		{
			int32_t		len = v->offsets[i + 1] - v->offsets[i];
			int32_t		at;

			if (len < 0 || *heap_len + (size_t) len >= INT32_MAX)
				return false;
			if (*heap_len + (size_t) len > *heap_cap)
			{
				size_t		cap = *heap_cap > 0 ? *heap_cap : 65536;
				uint8_t    *grown;

				while (cap < *heap_len + (size_t) len)
					cap *= 2;
				if ((grown = realloc(*heap, cap)) == NULL)
					return false;
				*heap = grown;
				*heap_cap = cap;
			}
			memcpy(*heap + *heap_len, v->data + v->offsets[i], (size_t) len);
			at = (int32_t) *heap_len;
			memcpy(r + fd->off, &at, sizeof(int32_t));
			memcpy(r + fd->off + 4, &len, sizeof(int32_t));
			*heap_len += (size_t) len;
		}
	}
	return true;
}

pm_code
pm_resident_file_build(pm_table *t, const pm_data_file_meta *f, size_t max_bytes, bool *stored,
					   pm_error *err)
{
	const pm_type *row = t->schema->row_type;
	int			pk = t->trimmed_pk[0];
	const pm_type *key_type = row->fields[pk].type;
	int			key_width = pm_type_value_size(key_type->id);
	size_t		keys_len = ALIGN8((size_t) key_width * (size_t) f->row_count);
	int		   *fields = NULL;
	int			nfields = 0;
	pm_resident_field *layout = NULL;
	uint8_t    *keys = NULL;
	uint8_t    *rows = NULL;
	uint8_t    *heap = NULL;
	size_t		heap_len = 0;
	size_t		heap_cap = 0;
	size_t		fixed_bytes;
	int32_t		stride;
	pm_data_file_reader *reader = NULL;
	pm_page_file pf;
	int64_t		pos = 0;
	bool		ok = true;
	pm_code		rc = PM_OK;

	*stored = false;
	if (!pm_resident_file_eligible(t, f, &fixed_bytes) || fixed_bytes > max_bytes)
		return PM_OK;
	fields = malloc(sizeof(int) * (size_t) (row->nfields + 1));
	layout = malloc(sizeof(pm_resident_field) * (size_t) (row->nfields + 1));
	if (fields == NULL || layout == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	stride = row_layout(t, layout);
	keys = calloc(1, keys_len + 8);
	rows = calloc((size_t) f->row_count, (size_t) stride);
	if (keys == NULL || rows == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int i = 0; i < row->nfields; i++)
		if (i != pk)
			fields[nfields++] = i;
	if ((rc = pm_data_file_reader_open(t, f, fields, nfields, true, 0, &reader, err)) != PM_OK)
		goto done;
	for (;;)
	{
		pm_batch   *b;

		if ((rc = pm_check_interrupts(t->env, err)) != PM_OK ||
			(rc = pm_data_file_reader_next(reader, &b, err)) != PM_OK)
			goto done;
		if (b == NULL)
			break;
		if (b->nrows <= 0)
			continue;
		/* key, _SEQUENCE_NUMBER, _VALUE_KIND, the fields */
		if (b->ncols != nfields + 3 || pos + b->nrows > f->row_count ||
			(b->cols[0].nulls != NULL && memchr(b->cols[0].nulls, 1, (size_t) b->nrows) != NULL) ||
			(b->cols[2].nulls != NULL && memchr(b->cols[2].nulls, 1, (size_t) b->nrows) != NULL))
		{
			ok = false;
			break;
		}
		memcpy(keys + (size_t) pos * (size_t) key_width, b->cols[0].values,
			   (size_t) b->nrows * (size_t) key_width);
		for (int64_t i = 0; i < b->nrows; i++)
			rows[(size_t) (pos + i) * (size_t) stride + KIND_OFF] =
				(uint8_t) pm_vector_int64_at(&b->cols[2], i);
		for (int j = 0; ok && j < nfields; j++)
			ok = rows_append(rows, stride, &layout[fields[j]], &b->cols[3 + j], pos, b->nrows,
							 &heap, &heap_len, &heap_cap);
		pos += b->nrows;
		if (!ok || fixed_bytes + heap_len > max_bytes)
		{
			ok = false;
			break;
		}
	}
	if (!ok || pos != f->row_count)
		goto done;
	pm_page_file_init(&pf, f->path, f->file_size);
	{
		pm_vector	kv = {0};
		pm_resident_header h = {0};
		int64_t		first,
					last;
		uint8_t    *bits = NULL;
		size_t		bits_len = 0;

		/* keys strictly ascending: one record per key, found by search */
		kv.type = key_type;
		kv.values = keys;
		for (int64_t i = 1; i < pos; i++)
			if (pm_vector_int64_at(&kv, i - 1) >= pm_vector_int64_at(&kv, i))
				goto done;
		first = pm_vector_int64_at(&kv, 0);
		last = pm_vector_int64_at(&kv, pos - 1);
		if (((uint64_t) last - (uint64_t) first) / RESIDENT_BITS_PER_ROW < (uint64_t) pos)
		{
			bits_len = ALIGN8((size_t) (((uint64_t) last - (uint64_t) first) / 8 + 1));
			if ((bits = calloc(1, bits_len)) == NULL)
			{
				rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
				goto done;
			}
			for (int64_t i = 0; i < pos; i++)
			{
				uint64_t	b = (uint64_t) pm_vector_int64_at(&kv, i) - (uint64_t) first;

				bits[b >> 3] |= (uint8_t) (1u << (b & 7));
			}
		}
		h.magic = RESIDENT_MAGIC;
		h.slot = PM_RESIDENT_SLOT_KEY;
		h.nrows = f->row_count;
		h.key_type = (int32_t) key_type->id;
		h.key_width = key_width;
		h.bits_at = (int64_t) keys_len;
		h.bits_len = (int64_t) bits_len;
		h.bits_min = first;
		pm_page_lru_store(&pf, slot_offset(PM_RESIDENT_SLOT_KEY), slot_variant(t), 0, &h,
						  sizeof(h), keys, keys_len, bits, bits_len);
		free(bits);
	}
	{
		size_t		meta_len = sizeof(pm_resident_header) +
			sizeof(pm_resident_field) * (size_t) row->nfields;
		pm_resident_header *h = calloc(1, meta_len);

		if (h == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			goto done;
		}
		h->magic = RESIDENT_MAGIC;
		h->slot = PM_RESIDENT_SLOT_ROWS;
		h->nrows = f->row_count;
		h->nfields = row->nfields;
		h->stride = stride;
		h->heap_at = (int64_t) ((size_t) stride * (size_t) f->row_count);
		h->heap_len = (int64_t) heap_len;
		memcpy(h + 1, layout, sizeof(pm_resident_field) * (size_t) row->nfields);
		pm_page_lru_store(&pf, slot_offset(PM_RESIDENT_SLOT_ROWS), slot_variant(t), 0, h,
						  meta_len, rows, (size_t) h->heap_at, heap, heap_len);
		free(h);
	}
	/* both held (the cache may have refused one, or evicted it for the other) */
	*stored = true;
	for (int s = PM_RESIDENT_SLOT_KEY; s <= PM_RESIDENT_SLOT_ROWS && *stored; s++)
	{
		pm_resident_col c;

		if (!pm_resident_col_pin(t, f, &pf, s, &c))
			*stored = false;
		else
			pm_resident_col_unpin(&c);
	}
done:
	if (reader != NULL)
		pm_data_file_reader_close(reader);
	free(keys);
	free(rows);
	free(heap);
	free(layout);
	free(fields);
	return rc;
}

/* Does the key slot's header add up (its own entry, never trusted blindly)? */
static bool
key_slot_ok(const pm_resident_header *h, size_t meta_len, size_t payload_len)
{
	size_t		keys_len;

	if (meta_len != sizeof(*h) || (h->key_width != 1 && h->key_width != 2 &&
								   h->key_width != 4 && h->key_width != 8) ||
		h->bits_len < 0 || h->nrows > INT32_MAX)
		return false;
	keys_len = ALIGN8((size_t) h->key_width * (size_t) h->nrows);
	return h->bits_at == (int64_t) keys_len && (size_t) h->bits_len <= payload_len &&
		payload_len - (size_t) h->bits_len == keys_len;
}

static bool
rows_slot_ok(const pm_resident_header *h, size_t meta_len, size_t payload_len, int nfields)
{
	const pm_resident_field *fd = (const pm_resident_field *) (h + 1);

	if (h->nfields != nfields || h->nrows > INT32_MAX ||
		meta_len != sizeof(*h) + sizeof(pm_resident_field) * (size_t) nfields ||
		h->stride <= KIND_OFF || h->stride > (1 << 20) || h->heap_len < 0 ||
		h->heap_at != (int64_t) h->stride * h->nrows ||
		(size_t) h->heap_len > payload_len || payload_len - (size_t) h->heap_len != (size_t) h->heap_at)
		return false;
	for (int i = 0; i < h->nfields; i++)
	{
		if (fd[i].type_id < 0)
			continue;
		if (fd[i].width < 0 || fd[i].width > 16 || fd[i].off <= KIND_OFF ||
			fd[i].off > h->stride - (fd[i].width > 0 ? fd[i].width : 8) ||
			fd[i].null_off <= KIND_OFF || fd[i].null_off >= h->stride ||
			fd[i].nanos_off < -1 || fd[i].nanos_off > h->stride - 2)
			return false;
	}
	return true;
}

bool
pm_resident_col_open(int slot, const void *meta, size_t meta_len, const uint8_t *payload,
					 size_t payload_len, int64_t nrows, int nfields, pm_resident_col *out)
{
	const pm_resident_header *h = meta;

	out->h = NULL;
	out->fields = NULL;
	out->payload = payload;
	out->payload_len = payload_len;
	if (meta == NULL || meta_len < sizeof(*h) || h->magic != RESIDENT_MAGIC || h->slot != slot ||
		h->nrows != nrows || nrows <= 0 ||
		!(slot == PM_RESIDENT_SLOT_KEY ? key_slot_ok(h, meta_len, payload_len) :
		  slot == PM_RESIDENT_SLOT_ROWS && rows_slot_ok(h, meta_len, payload_len, nfields)))
		return false;
	out->h = h;
	out->fields = slot == PM_RESIDENT_SLOT_ROWS ? (const pm_resident_field *) (h + 1) : NULL;
	return true;
}

bool
pm_resident_col_pin(pm_table *t, const pm_data_file_meta *f, const pm_page_file *pf, int slot,
					pm_resident_col *out)
{
	size_t		meta_len;
	size_t		payload_len;
	const void *meta;
	const uint8_t *payload;
	pm_page_entry *e;

	memset(out, 0, sizeof(*out));
	if ((e = pm_page_lru_pin_quiet(pf, slot_offset(slot), slot_variant(t))) == NULL)
		return false;
	meta = pm_page_entry_meta(e, &meta_len);
	payload = pm_page_entry_data(e, &payload_len);
	if (!pm_resident_col_open(slot, meta, meta_len, payload, payload_len, f->row_count,
							  t->schema->row_type->nfields, out))
	{
		pm_page_lru_unpin(e);
		memset(out, 0, sizeof(*out));
		return false;
	}
	out->entry = e;
	return true;
}

void
pm_resident_col_unpin(pm_resident_col *c)
{
	if (c->entry != NULL)
		pm_page_lru_unpin(c->entry);
	c->entry = NULL;
	c->h = NULL;
}

/*
 * The row of value among one width's keys (strictly ascending), or -1.
 * Keys are integers, one per row: k[i] >= k[lo] + (i - lo), which bounds
 * the row from both ends (dense keys pin it at once); then interpolation
 * (uniform keys, such as a hash's bucket, take a step or two), up to 4
 * steps, then bisection.
 */
#define FIND_IN(ctype) \
	do { \
		const ctype *k = (const ctype *) key->payload; \
		int64_t		lo = 0, hi = key->h->nrows - 1; \
		int			steps = 0; \
		while (lo <= hi) \
		{ \
			int64_t		klo = k[lo], khi = k[hi], mid, m; \
			uint64_t	below, above; \
			if (value < klo || value > khi) \
				return -1; \
			/* unsigned: keys may span all of BIGINT */ \
			below = (uint64_t) value - (uint64_t) klo; \
			above = (uint64_t) khi - (uint64_t) value; \
			if (below < (uint64_t) (hi - lo)) \
				hi = lo + (int64_t) below; \
			if (above < (uint64_t) (hi - lo)) \
				lo = hi - (int64_t) above; \
			if (lo == hi) \
				return k[lo] == value ? lo : -1; \
			klo = k[lo]; \
			khi = k[hi]; \
			if (steps++ < 4 && khi > klo && value >= klo && value <= khi) \
				mid = lo + (int64_t) (((unsigned __int128) ((uint64_t) value - (uint64_t) klo) * \
									   (uint64_t) (hi - lo)) / \
									  ((uint64_t) khi - (uint64_t) klo)); \
			else \
				mid = lo + (hi - lo) / 2; \
			m = k[mid]; \
			if (m == value) \
				return mid; \
			if (m < value) \
				lo = mid + 1; \
			else \
				hi = mid - 1; \
		} \
		return -1; \
	} while (0)

int64_t
pm_resident_col_find(const pm_resident_col *key, int64_t value)
{
	const pm_resident_header *h = key->h;

	/* the bitmap: a key that is not there, at the price of one line */
	if (h->bits_len > 0)
	{
		uint64_t	b = (uint64_t) value - (uint64_t) h->bits_min;

		if (value < h->bits_min || b / 8 >= (uint64_t) h->bits_len ||
			(key->payload[h->bits_at + (int64_t) (b >> 3)] & (1u << (b & 7))) == 0)
			return -1;
	}
	switch (h->key_width)
	{
		case 1:
			FIND_IN(int8_t);
		case 2:
			FIND_IN(int16_t);
		case 4:
			FIND_IN(int32_t);
		case 8:
			FIND_IN(int64_t);
		default:
			return -1;
	}
}

int
pm_resident_row_kind(const pm_resident_col *rows, int64_t row)
{
	if (row < 0 || row >= rows->h->nrows)
		return -1;
	return rows->payload[(size_t) row * (size_t) rows->h->stride + KIND_OFF];
}

bool
pm_resident_copy_value(const pm_resident_col *c, int field, const pm_type *type, int64_t row,
					   pm_vector *out, pm_arena *arena)
{
	const pm_resident_header *h = c->h;
	const pm_resident_field *fd;
	const uint8_t *r;

	if (row < 0 || row >= h->nrows)
		return false;
	if (h->slot == PM_RESIDENT_SLOT_KEY)
	{
		if (h->key_type != (int32_t) type->id || h->key_width != pm_type_value_size(type->id) ||
			!pm_vector_init(out, type, 1, false, arena))
			return false;
		out->length = 1;
		memcpy(out->values, c->payload + (size_t) row * (size_t) h->key_width,
			   (size_t) h->key_width);
		return true;
	}
	if (field < 0 || field >= h->nfields)
		return false;
	fd = &c->fields[field];
	r = c->payload + (size_t) row * (size_t) h->stride;
	if (fd->type_id != (int32_t) type->id || pm_type_is_nested(type->id) ||
		fd->width != (pm_type_is_varlen(type->id) ? 0 : pm_type_value_size(type->id)) ||
		!pm_vector_init(out, type, 1, r[fd->null_off] != 0, arena))
		return false;
	out->length = 1;
	if (r[fd->null_off] != 0)
	{
		out->nulls[0] = 1;
		return true;
	}
	if (fd->width > 0)
	{
		memcpy(out->values, r + fd->off, (size_t) fd->width);
		if (fd->nanos_off >= 0)
		{
			if ((out->nanos = pm_arena_alloc(arena, sizeof(uint16_t))) == NULL)
				return false;
			memcpy(out->nanos, r + fd->nanos_off, sizeof(uint16_t));
			if (out->nanos[0] > 999)
				return false;	/* not a timestamp's sub-microsecond part */
		}
	}
	else
	{
		int32_t		at,
					len;

		memcpy(&at, r + fd->off, sizeof(int32_t));
		memcpy(&len, r + fd->off + 4, sizeof(int32_t));
		if (at < 0 || len < 0 || (int64_t) at + len > h->heap_len ||
			(out->data = pm_arena_alloc(arena, (size_t) len + 1)) == NULL)
			return false;
		memcpy(out->data, c->payload + h->heap_at + at, (size_t) len);
		out->offsets[0] = 0;
		out->offsets[1] = len;
		out->data_size = len;
	}
	return true;
}
