/*-------------------------------------------------------------------------
 * deletion_vector.c
 *	  Decode Paimon deletion vectors (32-bit and 64-bit) and apply them to
 *	  batches of file rows.
 *
 * Bitmaps are CRoaring's (portable format, checked by roaring_portable.c,
 * then deserialized with the _safe reader bounded by the blob size). The 64-bit container
 * (OptimizedRoaringBitmap64) has no CRoaring equivalent in 0.2.x, so it is
 * held here as a sorted array of (high key, 32-bit bitmap).
 * Every length is checked against the bytes available before use; the
 * CRC-32 of magic + bitmap is verified (Java skips it; a mismatch means
 * the bytes are not what Java wrote).
 *
 * Spec: ../shared/docs/paimon-format-data.md §5.1, §5.4.
 *-------------------------------------------------------------------------
 */
#include "index/deletion_vector.h"

#include "index/roaring_portable.h"

#include <string.h>
#include <zlib.h>
#include <roaring/roaring.h>

/* Largest blob we accept (Java refuses > 2 GiB too). */
#define DV_MAX_BLOB		((int64_t) INT32_MAX)

struct pm_deletion_vector
{
	pm_resource resource;		/* tracked by env: bitmaps are CRoaring's malloc */
	const pm_env *env;
	bool		is64;
	uint64_t	cardinality;
	int64_t		max_position;	/* largest deleted position, -1 if none */
	roaring_bitmap_t *bitmap;	/* 32-bit variant */
	int			nparts;			/* 64-bit variant: sorted by key */
	uint32_t   *keys;
	roaring_bitmap_t **parts;
};

static uint32_t
be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

static uint32_t
le32(const uint8_t *p)
{
	return ((uint32_t) p[3] << 24) | ((uint32_t) p[2] << 16) |
		((uint32_t) p[1] << 8) | (uint32_t) p[0];
}

static uint64_t
le64(const uint8_t *p)
{
	return (uint64_t) le32(p) | ((uint64_t) le32(p + 4) << 32);
}

void
pm_deletion_vector_destroy(pm_deletion_vector *dv)
{
	if (dv == NULL)
		return;
	pm_env_untrack(&dv->resource);
	if (dv->bitmap != NULL)
		roaring_bitmap_free(dv->bitmap);
	for (int i = 0; i < dv->nparts; i++)
		if (dv->parts[i] != NULL)
			roaring_bitmap_free(dv->parts[i]);
	pm_free(dv->env, dv->keys);
	pm_free(dv->env, dv->parts);
	pm_free(dv->env, dv);
}

static void
release_dv(pm_resource *r)
{
	pm_deletion_vector_destroy((pm_deletion_vector *) r);
}

/*
 * Deserialize one portable bitmap of at most maxbytes; *used = its size,
 * *max = its largest value (-1 if empty). Checked first (CRoaring 0.2 reads
 * malformed containers as wrong values), then read by CRoaring's _safe
 * reader, which must agree on the size.
 */
static pm_code
read_portable(const uint8_t *p, size_t maxbytes, roaring_bitmap_t **out, size_t *used,
			  int64_t *max, pm_error *err)
{
	size_t		size = 0;
	roaring_bitmap_t *bm;

	*out = NULL;
	PM_TRY(pm_roaring_portable_check(p, maxbytes, &size, max, err));
	if (roaring_bitmap_portable_deserialize_size((const char *) p, maxbytes) != size)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid roaring bitmap in deletion vector");
	bm = roaring_bitmap_portable_deserialize_safe((const char *) p, size);
	if (bm == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid roaring bitmap in deletion vector");
	*out = bm;
	*used = size;
	return PM_OK;
}

static pm_code
decode_64(pm_deletion_vector *dv, const uint8_t *p, size_t n, pm_error *err)
{
	uint64_t	count;
	size_t		pos = 8;
	int64_t		last_key = -1;

	if (n < 8)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated 64-bit deletion vector");
	count = le64(p);
	/* each bitmap takes at least 4 (key) + 8 bytes: bounds the allocation */
	if (count > (n - 8) / 12)
		return pm_fail(err, PM_ERR_CORRUPT, "64-bit deletion vector bitmap count %llu too large",
					   (unsigned long long) count);
	if (count > 0)
	{
		dv->keys = pm_alloc(dv->env, count * sizeof(uint32_t));
		dv->parts = pm_alloc(dv->env, count * sizeof(roaring_bitmap_t *));
		if (dv->keys == NULL || dv->parts == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a deletion vector");
	}
	for (uint64_t i = 0; i < count; i++)
	{
		uint32_t	key;
		size_t		used;
		int64_t		max;
		roaring_bitmap_t *bm;

		if (n - pos < 4)
			return pm_fail(err, PM_ERR_CORRUPT, "truncated 64-bit deletion vector");
		key = le32(p + pos);
		pos += 4;
		if (key > (uint32_t) INT32_MAX - 1 || (int64_t) key <= last_key)
			return pm_fail(err, PM_ERR_CORRUPT, "invalid key %u in 64-bit deletion vector", key);
		last_key = key;
		PM_TRY(read_portable(p + pos, n - pos, &bm, &used, &max, err));
		pos += used;
		dv->keys[dv->nparts] = key;
		dv->parts[dv->nparts++] = bm;
		dv->cardinality += roaring_bitmap_get_cardinality(bm);
		if (max >= 0)
			dv->max_position = ((int64_t) key << 32) | max;
	}
	if (pos != n)
		return pm_fail(err, PM_ERR_CORRUPT, "64-bit deletion vector has %zu trailing bytes",
					   n - pos);
	return PM_OK;
}

pm_code
pm_deletion_vector_decode(const pm_env *env, const uint8_t *buf, size_t len,
						  int64_t expected_length, pm_deletion_vector **out, pm_error *err)
{
	uint32_t	blen;
	uint32_t	magic;
	uint32_t	crc;
	const uint8_t *body;
	size_t		nbody;
	pm_deletion_vector *dv;
	pm_code		rc;

	*out = NULL;
	if (len < 8)
		return pm_fail(err, PM_ERR_CORRUPT, "truncated deletion vector");
	blen = be32(buf);
	magic = be32(buf + 4);
	if (blen < 4 || blen > DV_MAX_BLOB - 8 || (size_t) blen + 8 > len)
		return pm_fail(err, PM_ERR_CORRUPT, "deletion vector length %u out of range", blen);
	if (magic == PM_DV_MAGIC_32)
	{
		if (expected_length >= 0 && expected_length != (int64_t) blen)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "deletion vector size %u does not match the expected %lld",
						   blen, (long long) expected_length);
	}
	else if (le32(buf + 4) == PM_DV_MAGIC_64)
	{
		if (expected_length >= 0 && expected_length - 8 != (int64_t) blen)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "deletion vector size %u does not match the expected %lld",
						   blen, (long long) expected_length - 8);
	}
	else
		return pm_fail(err, PM_ERR_CORRUPT, "invalid deletion vector magic number %d",
					   (int32_t) magic);

	crc = (uint32_t) crc32(0L, buf + 4, blen);
	if (crc != be32(buf + 4 + blen))
		return pm_fail(err, PM_ERR_CORRUPT, "deletion vector checksum mismatch");

	dv = pm_alloc(env, sizeof(*dv));
	if (dv == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a deletion vector");
	memset(dv, 0, sizeof(*dv));
	dv->env = env;
	dv->max_position = -1;
	dv->resource.release = release_dv;
	pm_env_track(env, &dv->resource);
	body = buf + 8;
	nbody = blen - 4;
	if (magic == PM_DV_MAGIC_32)
	{
		size_t		used;

		rc = read_portable(body, nbody, &dv->bitmap, &used, &dv->max_position, err);
		if (rc == PM_OK && used != nbody)
			rc = pm_fail(err, PM_ERR_CORRUPT, "deletion vector has %zu trailing bytes",
						 nbody - used);
		if (rc == PM_OK)
			dv->cardinality = roaring_bitmap_get_cardinality(dv->bitmap);
	}
	else
	{
		dv->is64 = true;
		rc = decode_64(dv, body, nbody, err);
	}
	if (rc != PM_OK)
	{
		pm_deletion_vector_destroy(dv);
		return rc;
	}
	*out = dv;
	return PM_OK;
}

pm_code
pm_deletion_vector_read(const pm_env *env, pm_fileio *io, const char *path,
						int64_t offset, int64_t length, pm_deletion_vector **out,
						pm_error *err)
{
	pm_file    *f = NULL;
	uint64_t	fsize;
	uint8_t    *buf = NULL;
	size_t		n;
	pm_code		rc;

	*out = NULL;
	PM_TRY(pm_file_open(io, path, &f, err));
	rc = pm_file_size(io, f, &fsize, err);
	if (rc != PM_OK)
		goto done;
	if (offset < 0 || length < 0 || (uint64_t) offset > fsize || length > DV_MAX_BLOB)
	{
		rc = pm_fail(err, PM_ERR_CORRUPT, "deletion vector range %lld+%lld outside the file",
					 (long long) offset, (long long) length);
		goto done;
	}
	/* the blob is at most length + 8 bytes (32-bit: + length prefix and CRC) */
	n = (size_t) length + 8;
	if ((uint64_t) n > fsize - (uint64_t) offset)
		n = (size_t) (fsize - (uint64_t) offset);
	buf = pm_alloc(env, n > 0 ? n : 1);
	if (buf == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory reading a deletion vector");
		goto done;
	}
	rc = pm_file_pread(io, f, buf, n, (uint64_t) offset, err);
	if (rc == PM_OK)
		rc = pm_deletion_vector_decode(env, buf, n, length, out, err);
done:
	if (rc != PM_OK)
		pm_error_set_path(err, path);
	pm_free(env, buf);
	pm_file_close(io, f);
	return rc;
}

pm_code
pm_deletion_vector_check(const pm_deletion_vector *dv, int64_t row_count,
						 int64_t cardinality, pm_error *err)
{
	if (dv == NULL)
		return PM_OK;
	if (row_count >= 0 && dv->max_position >= row_count)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "deletion vector deletes row position %lld of a data file of %lld rows",
					   (long long) dv->max_position, (long long) row_count);
	if (cardinality >= 0 && (uint64_t) cardinality != dv->cardinality)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "deletion vector holds %llu positions, its index manifest says %lld",
					   (unsigned long long) dv->cardinality, (long long) cardinality);
	return PM_OK;
}

static const roaring_bitmap_t *
part_of(const pm_deletion_vector *dv, uint32_t key)
{
	int			lo = 0,
				hi = dv->nparts - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (dv->keys[mid] == key)
			return dv->parts[mid];
		if (dv->keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

bool
pm_deletion_vector_contains(const pm_deletion_vector *dv, int64_t pos)
{
	const roaring_bitmap_t *bm;

	if (dv == NULL || pos < 0)
		return false;
	if (!dv->is64)
		return pos <= (int64_t) UINT32_MAX &&
			roaring_bitmap_contains(dv->bitmap, (uint32_t) pos);
	bm = part_of(dv, (uint32_t) ((uint64_t) pos >> 32));
	return bm != NULL && roaring_bitmap_contains(bm, (uint32_t) pos);
}

uint64_t
pm_deletion_vector_cardinality(const pm_deletion_vector *dv)
{
	return dv == NULL ? 0 : dv->cardinality;
}

typedef struct iterate_ctx
{
	uint64_t	high;
	bool		(*fn) (int64_t pos, void *ctx);
	void	   *ctx;
} iterate_ctx;

static bool
iterate_one(uint32_t value, void *param)
{
	iterate_ctx *ic = param;

	return ic->fn((int64_t) (ic->high | value), ic->ctx);
}

void
pm_deletion_vector_iterate(const pm_deletion_vector *dv, bool (*fn) (int64_t pos, void *ctx),
						   void *ctx)
{
	iterate_ctx ic = {0, fn, ctx};

	if (dv == NULL)
		return;
	if (!dv->is64)
	{
		roaring_iterate(dv->bitmap, iterate_one, &ic);
		return;
	}
	for (int i = 0; i < dv->nparts; i++)
	{
		ic.high = (uint64_t) dv->keys[i] << 32;
		if (dv->parts[i] != NULL && !roaring_iterate(dv->parts[i], iterate_one, &ic))
			return;
	}
}

bool
pm_deletion_vector_is_64bit(const pm_deletion_vector *dv)
{
	return dv != NULL && dv->is64;
}

int64_t
pm_deletion_vector_apply(const pm_deletion_vector *dv, const pm_batch *batch,
						 uint8_t *selected)
{
	int64_t		n = batch->nrows;
	int64_t		kept = n;

	memset(selected, 1, (size_t) n);
	if (dv == NULL || dv->cardinality == 0)
		return n;
	for (int64_t i = 0; i < n; i++)
	{
		if (pm_deletion_vector_contains(dv, batch->first_row + i))
		{
			selected[i] = 0;
			kept--;
		}
	}
	return kept;
}
