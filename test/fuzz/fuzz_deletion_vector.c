/*-------------------------------------------------------------------------
 * fuzz_deletion_vector.c
 *	  libFuzzer harness of pm_deletion_vector_decode.
 *
 * Input: one DV blob (4-byte BE length prefix onwards), decoded as is and
 * again with its CRC recomputed (so mutations reach the bitmap parsers
 * behind the checksum). Properties: contains() is never true for a
 * negative position; a DV whose positions all lie below 70000 (by
 * pm_deletion_vector_check) has exactly its cardinality of positions
 * that contains() finds there.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "index/deletion_vector.h"

static void check(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size);
	if (size >= 12)
	{
		uint32_t	len = ((uint32_t) data[0] << 24) | ((uint32_t) data[1] << 16) |
			((uint32_t) data[2] << 8) | data[3];

		if (len >= 4 && (size_t) len + 8 <= size)
		{
			uint8_t    *copy = malloc(size);
			uint32_t	crc;

			memcpy(copy, data, size);
			crc = (uint32_t) crc32(0L, copy + 4, len);
			copy[4 + len] = (uint8_t) (crc >> 24);
			copy[5 + len] = (uint8_t) (crc >> 16);
			copy[6 + len] = (uint8_t) (crc >> 8);
			copy[7 + len] = (uint8_t) crc;
			check(copy, size);
			free(copy);
		}
	}
	return 0;
}

static void
check(const uint8_t *data, size_t size)
{
	pm_deletion_vector *dv = NULL;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_deletion_vector_decode(pm_env_default(), data, size, -1, &dv, &err) != PM_OK)
	{
		if (dv != NULL || err.code == PM_OK)
			abort();
		return;
	}
	if (pm_deletion_vector_contains(dv, -1))
		abort();
	if (!pm_deletion_vector_is_64bit(dv))
	{
		uint64_t	seen = 0;

		for (int64_t p = 0; p < 70000; p++)
			seen += pm_deletion_vector_contains(dv, p);
		if (pm_deletion_vector_cardinality(dv) < seen)
			abort();
	}

	/*
	 * Every position below 70000 (as the row-count check says): then the
	 * positions contains() finds are exactly the cardinality, 32 or 64-bit.
	 * A malformed container that slipped through would break this.
	 */
	pm_error_clear(&err);
	if (pm_deletion_vector_check(dv, 70000, -1, &err) == PM_OK)
	{
		uint64_t	seen = 0;

		for (int64_t p = 0; p < 70000; p++)
			seen += pm_deletion_vector_contains(dv, p);
		if (seen != pm_deletion_vector_cardinality(dv) ||
			pm_deletion_vector_check(dv, 70000, (int64_t) seen, &err) != PM_OK)
			abort();
	}
	pm_deletion_vector_destroy(dv);
}
