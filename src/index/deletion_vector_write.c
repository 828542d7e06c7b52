/*-------------------------------------------------------------------------
 * deletion_vector_write.c
 *	  A bucket's deletion vectors being changed, and their index file
 *	  (deletion_vector_write.h).
 *
 * Entries live in an array (a bucket has few data files); the file order
 * is computed at write time from each name's Java String.hashCode, the
 * capacity Java's HashMap would have reached and the insertion order
 * (HashMap keeps insertion order inside a bucket, also across resizes).
 * Bitmaps are CRoaring's; positions are held in 32 bits (64-bit DVs of
 * files beyond 2^32 rows are refused).
 *-------------------------------------------------------------------------
 */
#include "index/deletion_vector_write.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <roaring/roaring.h>

#include "common/byte_buffer.h"

/* RoaringBitmap32.MAX_VALUE: BitmapDeletionVector.checkPosition */
#define DV32_MAX_POSITION	((int64_t) INT32_MAX)

typedef struct dv_entry
{
	char	   *data_file;		/* malloc'd by env */
	uint32_t	hash;			/* Java HashMap.hash(key) */
	int64_t		inserted;		/* insertion order (re-insertions count anew) */
	roaring_bitmap_t *bitmap;	/* NULL: removed */
} dv_entry;

struct pm_dv_maintainer
{
	const pm_env *env;
	bool		bitmap64;
	dv_entry   *entries;
	int			n;
	int			cap_entries;
	int			nlive;
	int64_t		next_insert;
	int64_t		capacity;		/* Java HashMap table length, 0 = not allocated */
	bool		sized;			/* restore finished: capacity computed */
	bool		modified;
	int			last;			/* entry of the last lookup, -1 */
};

/* String.hashCode of an ASCII/UTF-8 name as Java sees it (UTF-16 units). */
static uint32_t
java_string_hash(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;
	uint32_t	h = 0;

	while (*p)
	{
		uint32_t	cp;
		int			extra;

		/* decode UTF-8 into code points, then UTF-16 units */
		if (*p < 0x80)
		{
			cp = *p++;
			extra = 0;
		}
		else if ((*p & 0xE0) == 0xC0)
		{
			cp = *p++ & 0x1F;
			extra = 1;
		}
		else if ((*p & 0xF0) == 0xE0)
		{
			cp = *p++ & 0x0F;
			extra = 2;
		}
		else
		{
			cp = *p++ & 0x07;
			extra = 3;
		}
		while (extra-- > 0 && (*p & 0xC0) == 0x80)
			cp = (cp << 6) | (*p++ & 0x3F);
		if (cp >= 0x10000)
		{
			cp -= 0x10000;
			h = 31 * h + (0xD800 + (cp >> 10));
			h = 31 * h + (0xDC00 + (cp & 0x3FF));
		}
		else
			h = 31 * h + cp;
	}
	/* HashMap.hash: h ^ (h >>> 16) */
	return h ^ (h >> 16);
}

/* HashMap.tableSizeFor */
static int64_t
table_size_for(int64_t c)
{
	int64_t		n = 1;

	while (n < c)
		n <<= 1;
	return n;
}

pm_code
pm_dv_maintainer_create(const pm_env *env, bool bitmap64, pm_dv_maintainer **out,
						pm_error *err)
{
	pm_dv_maintainer *m = pm_alloc(env, sizeof(*m));

	*out = NULL;
	if (m == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(m, 0, sizeof(*m));
	m->env = env;
	m->bitmap64 = bitmap64;
	m->last = -1;
	*out = m;
	return PM_OK;
}

void
pm_dv_maintainer_free(pm_dv_maintainer *m)
{
	if (m == NULL)
		return;
	for (int i = 0; i < m->n; i++)
	{
		if (m->entries[i].bitmap != NULL)
			roaring_bitmap_free(m->entries[i].bitmap);
		pm_free(m->env, m->entries[i].data_file);
	}
	pm_free(m->env, m->entries);
	pm_free(m->env, m);
}

static int
find_entry(const pm_dv_maintainer *m, const char *data_file)
{
	if (m->last >= 0 && m->last < m->n && strcmp(m->entries[m->last].data_file, data_file) == 0)
		return m->last;
	for (int i = 0; i < m->n; i++)
		if (strcmp(m->entries[i].data_file, data_file) == 0)
		{
			((pm_dv_maintainer *) m)->last = i;
			return i;
		}
	return -1;
}

/* The capacity of `new HashMap<>(restored)`, once, before the first change. */
static void
finish_restore(pm_dv_maintainer *m)
{
	if (m->sized)
		return;
	m->sized = true;
	if (m->nlive > 0)
		m->capacity = table_size_for((int64_t) ((float) m->nlive / 0.75f + 1.0f));
}

/* A live entry for data_file (created empty, as computeIfAbsent). */
static pm_code
live_entry(pm_dv_maintainer *m, const char *data_file, int *out, pm_error *err)
{
	int			i = find_entry(m, data_file);
	dv_entry   *e;

	if (i >= 0 && m->entries[i].bitmap != NULL)
	{
		*out = i;
		return PM_OK;
	}
	if (i < 0)
	{
		if (m->n == m->cap_entries)
		{
			int			ncap = m->cap_entries ? m->cap_entries * 2 : 8;
			dv_entry   *grown = pm_alloc(m->env, sizeof(dv_entry) * (size_t) ncap);

			if (grown == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			if (m->n > 0)
				memcpy(grown, m->entries, sizeof(dv_entry) * (size_t) m->n);
			pm_free(m->env, m->entries);
			m->entries = grown;
			m->cap_entries = ncap;
		}
		e = &m->entries[m->n];
		memset(e, 0, sizeof(*e));
		e->data_file = pm_alloc(m->env, strlen(data_file) + 1);
		if (e->data_file == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		strcpy(e->data_file, data_file);
		e->hash = java_string_hash(data_file);
		i = m->n++;
	}
	e = &m->entries[i];
	e->bitmap = roaring_bitmap_create();
	if (e->bitmap == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	e->inserted = m->next_insert++;
	m->nlive++;
	/* HashMap.putVal: allocate (16) or double when size exceeds 3/4 */
	if (m->sized)
	{
		if (m->capacity == 0)
			m->capacity = 16;
		if (m->nlive > m->capacity * 3 / 4)
			m->capacity *= 2;
	}
	m->last = i;
	*out = i;
	return PM_OK;
}

typedef struct restore_ctx
{
	roaring_bitmap_t *bitmap;
	bool		too_large;
} restore_ctx;

static bool
restore_one(int64_t pos, void *ctx)
{
	restore_ctx *rc = ctx;

	if (pos < 0 || pos > (int64_t) UINT32_MAX)
	{
		rc->too_large = true;
		return false;
	}
	roaring_bitmap_add(rc->bitmap, (uint32_t) pos);
	return true;
}

pm_code
pm_dv_maintainer_restore(pm_dv_maintainer *m, const char *data_file,
						 const pm_deletion_vector *dv, pm_error *err)
{
	restore_ctx rc;
	int			i;

	if (m->sized)
		return pm_fail(err, PM_ERR_INVALID, "deletion vectors restored after a change");
	if (pm_deletion_vector_is_64bit(dv) != m->bitmap64)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "data file \"%s\" has a %s deletion vector, the table writes %s ones (deletion-vectors.bitmap64)",
					   data_file, pm_deletion_vector_is_64bit(dv) ? "64-bit" : "32-bit",
					   m->bitmap64 ? "64-bit" : "32-bit");
	PM_TRY(live_entry(m, data_file, &i, err));
	rc.bitmap = m->entries[i].bitmap;
	rc.too_large = false;
	pm_deletion_vector_iterate(dv, restore_one, &rc);
	if (rc.too_large)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "the deletion vector of \"%s\" holds positions beyond 2^32: not written",
					   data_file);
	return PM_OK;
}

pm_code
pm_dv_maintainer_delete(pm_dv_maintainer *m, const char *data_file, int64_t pos, pm_error *err)
{
	int			i;

	if (pos < 0 || pos > (m->bitmap64 ? (int64_t) UINT32_MAX : DV32_MAX_POSITION))
		return pm_fail(err, PM_ERR_INVALID,
					   "The file has too many rows, RoaringBitmap32 only supports files with row count not exceeding 2147483647.");
	finish_restore(m);
	PM_TRY(live_entry(m, data_file, &i, err));
	if (roaring_bitmap_add_checked(m->entries[i].bitmap, (uint32_t) pos))
		m->modified = true;
	return PM_OK;
}

void
pm_dv_maintainer_remove(pm_dv_maintainer *m, const char *data_file)
{
	int			i = find_entry(m, data_file);

	finish_restore(m);
	if (i < 0 || m->entries[i].bitmap == NULL)
		return;
	roaring_bitmap_free(m->entries[i].bitmap);
	m->entries[i].bitmap = NULL;
	m->nlive--;
	m->modified = true;
}

bool
pm_dv_maintainer_contains(const pm_dv_maintainer *m, const char *data_file, int64_t pos)
{
	int			i = find_entry(m, data_file);

	return i >= 0 && m->entries[i].bitmap != NULL && pos >= 0 && pos <= (int64_t) UINT32_MAX &&
		roaring_bitmap_contains(m->entries[i].bitmap, (uint32_t) pos);
}

int64_t
pm_dv_maintainer_cardinality(const pm_dv_maintainer *m, const char *data_file)
{
	int			i = find_entry(m, data_file);

	return i >= 0 && m->entries[i].bitmap != NULL ?
		(int64_t) roaring_bitmap_get_cardinality(m->entries[i].bitmap) : 0;
}

bool
pm_dv_maintainer_modified(const pm_dv_maintainer *m)
{
	return m->modified;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
	p[2] = (uint8_t) (v >> 16);
	p[3] = (uint8_t) (v >> 24);
}

/* Append one blob of bitmap (run-optimized here) to buf; *len_field as recorded. */
static pm_code
append_blob(pm_byte_buffer *buf, roaring_bitmap_t *bitmap, bool bitmap64, int32_t *len_field,
			pm_error *err)
{
	size_t		bsize;
	size_t		data_len;
	uint8_t    *p;
	uLong		crc;

	roaring_bitmap_run_optimize(bitmap);
	bsize = roaring_bitmap_portable_size_in_bytes(bitmap);
	/* 64-bit: count + (key + bitmap) for key 0 when not empty */
	data_len = 4 + (bitmap64 ? 8 + (roaring_bitmap_is_empty(bitmap) ? 0 : 4 + bsize) : bsize);
	if (data_len + 8 > (size_t) INT32_MAX)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "Can't serialize index > 2GB");
	if (!pm_byte_buffer_grow(buf, data_len + 8))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	p = buf->data + buf->len;
	put_be32(p, (uint32_t) data_len);
	if (!bitmap64)
	{
		put_be32(p + 4, (uint32_t) PM_DV_MAGIC_32);
		roaring_bitmap_portable_serialize(bitmap, (char *) p + 8);
		*len_field = (int32_t) data_len;
	}
	else
	{
		uint64_t	count = roaring_bitmap_is_empty(bitmap) ? 0 : 1;

		put_le32(p + 4, (uint32_t) PM_DV_MAGIC_64);
		put_le32(p + 8, (uint32_t) count);
		put_le32(p + 12, (uint32_t) (count >> 32));
		if (count > 0)
		{
			put_le32(p + 16, 0);
			roaring_bitmap_portable_serialize(bitmap, (char *) p + 20);
		}
		*len_field = (int32_t) (data_len + 8);
	}
	crc = crc32(0L, p + 4, (uInt) data_len);
	put_be32(p + 4 + data_len, (uint32_t) crc);
	buf->len += data_len + 8;
	return PM_OK;
}

pm_code
pm_dv_serialize(const int64_t *positions, int64_t n, bool bitmap64, pm_arena *arena,
				uint8_t **out, size_t *out_len, int32_t *len_field, pm_error *err)
{
	roaring_bitmap_t *bm = roaring_bitmap_create();
	pm_byte_buffer buf;
	pm_code		rc = PM_OK;

	*out = NULL;
	*out_len = 0;
	if (bm == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	pm_byte_buffer_init(&buf, pm_env_default());
	for (int64_t i = 0; i < n && rc == PM_OK; i++)
	{
		if (positions[i] < 0 || positions[i] > (bitmap64 ? (int64_t) UINT32_MAX : DV32_MAX_POSITION))
			rc = pm_fail(err, PM_ERR_INVALID, "deletion vector position %lld out of range",
						 (long long) positions[i]);
		else
			roaring_bitmap_add(bm, (uint32_t) positions[i]);
	}
	if (rc == PM_OK)
		rc = append_blob(&buf, bm, bitmap64, len_field, err);
	if (rc == PM_OK)
	{
		*out = pm_arena_alloc(arena, buf.len);
		if (*out == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		else
		{
			memcpy(*out, buf.data, buf.len);
			*out_len = buf.len;
		}
	}
	roaring_bitmap_free(bm);
	pm_byte_buffer_free(&buf);
	return rc;
}

typedef struct order_key
{
	int64_t		slot;
	int64_t		inserted;
	int			entry;
} order_key;

static int
order_cmp(const void *a, const void *b)
{
	const order_key *x = a,
			   *y = b;

	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->inserted < y->inserted ? -1 : (x->inserted > y->inserted ? 1 : 0);
}

pm_code
pm_dv_maintainer_write(pm_dv_maintainer *m, pm_fileio *io, const char *index_dir,
					   const char *uuid, int64_t *counter, pm_arena *arena,
					   pm_dv_index_file *out, pm_error *err)
{
	pm_byte_buffer buf;
	order_key  *order = NULL;
	int			nlive = 0;
	pm_out_file *f = NULL;
	pm_code		rc = PM_OK;
	int64_t		cap;

	memset(out, 0, sizeof(*out));
	if (io->create == NULL || io->mkdirs == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	finish_restore(m);
	cap = m->capacity > 0 ? m->capacity : 16;
	out->file_name = pm_arena_sprintf(arena, "index-%s-%lld", uuid, (long long) *counter);
	out->path = out->file_name ? pm_arena_sprintf(arena, "%s/%s", index_dir, out->file_name) : NULL;
	out->ranges = pm_arena_zalloc(arena, sizeof(pm_dv_written_range) * (size_t) (m->nlive + 1));
	order = pm_alloc(m->env, sizeof(order_key) * (size_t) (m->n + 1));
	if (out->file_name == NULL || out->path == NULL || out->ranges == NULL || order == NULL)
	{
		pm_free(m->env, order);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	(*counter)++;
	for (int i = 0; i < m->n; i++)
		if (m->entries[i].bitmap != NULL)
		{
			order[nlive].slot = (int64_t) (m->entries[i].hash & (uint32_t) (cap - 1));
			order[nlive].inserted = m->entries[i].inserted;
			order[nlive].entry = i;
			nlive++;
		}
	qsort(order, (size_t) nlive, sizeof(order_key), order_cmp);
	pm_byte_buffer_init(&buf, m->env);
	if (!pm_byte_buffer_grow(&buf, 1))
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	else
		buf.data[buf.len++] = 1;	/* VERSION_ID_V1 */
	for (int k = 0; rc == PM_OK && k < nlive; k++)
	{
		dv_entry   *e = &m->entries[order[k].entry];
		pm_dv_written_range *r = &out->ranges[out->nranges];
		size_t		start = buf.len;

		if (start > (size_t) INT32_MAX)
		{
			rc = pm_fail(err, PM_ERR_UNSUPPORTED, "Can't serialize index > 2GB");
			break;
		}
		r->data_file = pm_arena_strdup(arena, e->data_file);
		if (r->data_file == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			break;
		}
		r->offset = (int32_t) start;
		r->cardinality = (int64_t) roaring_bitmap_get_cardinality(e->bitmap);
		rc = append_blob(&buf, e->bitmap, m->bitmap64, &r->length, err);
		if (rc == PM_OK)
			out->nranges++;
	}
	pm_free(m->env, order);
	if (rc == PM_OK)
		rc = io->mkdirs(io, index_dir, err);
	if (rc == PM_OK)
		rc = io->create(io, out->path, &f, err);
	if (rc == PM_OK)
	{
		rc = io->append(io, f, buf.data, buf.len, err);
		if (rc == PM_OK)
			rc = io->finish(io, f, err);
		if (rc != PM_OK)
			io->discard(io, f);
	}
	out->file_size = (int64_t) buf.len;
	pm_byte_buffer_free(&buf);
	if (rc == PM_OK)
		m->modified = false;
	return rc;
}
