/*-------------------------------------------------------------------------
 * fuzz_deletion_vector.c
 *	  libFuzzer harness of pm_deletion_vector_decode.
 *
 * Input: one DV blob (4-byte BE length prefix onwards). Property: a
 * decoded DV's cardinality equals the number of positions contains()
 * reports over the probed range when the DV is small, and contains() is
 * never true for a negative position.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>

#include "index/deletion_vector.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_deletion_vector *dv = NULL;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_deletion_vector_decode(pm_env_default(), data, size, -1, &dv, &err) != PM_OK)
	{
		if (dv != NULL || err.code == PM_OK)
			abort();
		return 0;
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
	pm_deletion_vector_destroy(dv);
	return 0;
}
