/*-------------------------------------------------------------------------
 * hash_index.c
 *	  Reading and writing HASH index files (hash_index.h): big-endian int32
 *	  values without a header (IntFileUtils.readInts / writeInts). Java's
 *	  reader stops at the first incomplete int; a file whose size is not a
 *	  multiple of 4, or whose int count is not the manifest's _ROW_COUNT,
 *	  is reported as corrupt here instead.
 *-------------------------------------------------------------------------
 */
#include "table/hash_index.h"

#include <string.h>

#define WRITE_CHUNK 16384		/* ints per append */

pm_code
pm_hash_index_read(pm_fileio *io, const char *path, int64_t row_count, pm_arena *arena,
				   int32_t **hashes, int64_t *count, pm_error *err)
{
	uint8_t    *data;
	size_t		len;
	int32_t    *out;
	int64_t		n;

	*hashes = NULL;
	*count = 0;
	PM_TRY(pm_fileio_read_all(io, path, arena, (size_t) 1 << 34, &data, &len, err));
	if (len % 4 != 0)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "hash index file %s: %zu bytes, not a whole number of 4-byte hashes",
					   path, len);
	n = (int64_t) (len / 4);
	if (row_count >= 0 && n != row_count)
		return pm_fail(err, PM_ERR_CORRUPT,
					   "hash index file %s holds %lld hashes, its index manifest entry says %lld",
					   path, (long long) n, (long long) row_count);
	out = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (n + 1));
	if (out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t i = 0; i < n; i++)
	{
		const uint8_t *p = data + 4 * i;

		out[i] = (int32_t) (((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
							((uint32_t) p[2] << 8) | (uint32_t) p[3]);
	}
	*hashes = out;
	*count = n;
	return PM_OK;
}

pm_code
pm_hash_index_write(pm_fileio *io, const char *path, const pm_int_map *set,
					int64_t *file_size, pm_error *err)
{
	uint8_t		buf[WRITE_CHUNK * 4];
	size_t		used = 0;
	size_t		pos = 0;
	int32_t		key;
	pm_out_file *f;
	pm_code		rc = PM_OK;

	*file_size = 0;
	PM_TRY(pm_out_file_create(io, path, &f, err));
	while (rc == PM_OK && pm_int_map_next(set, &pos, &key, NULL))
	{
		uint32_t	v = (uint32_t) key;

		buf[used++] = (uint8_t) (v >> 24);
		buf[used++] = (uint8_t) (v >> 16);
		buf[used++] = (uint8_t) (v >> 8);
		buf[used++] = (uint8_t) v;
		if (used == sizeof(buf))
		{
			rc = pm_out_file_append(io, f, buf, used, err);
			used = 0;
		}
	}
	if (rc == PM_OK && used > 0)
		rc = pm_out_file_append(io, f, buf, used, err);
	if (rc == PM_OK)
		rc = pm_out_file_finish(io, f, err);
	if (rc != PM_OK)
	{
		pm_out_file_discard(io, f);	/* also after a failed finish */
		pm_error_set_path(err, path);
		return rc;
	}
	*file_size = (int64_t) set->count * 4;
	return PM_OK;
}
