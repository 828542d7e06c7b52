/*-------------------------------------------------------------------------
 * fuzz_snapshot.c
 *	  libFuzzer harness for pm_snapshot_parse (src/table/snapshot.c).
 *
 * A snapshot that parses names its base and delta manifest lists, and no
 * manifest list or index manifest name may leave the manifest directory.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/snapshot.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_snapshot *s;
	pm_error	err;

	if (arena == NULL)
		return 0;
	if (pm_snapshot_parse((const char *) data, size, arena, &s, &err) == PM_OK)
	{
		if (s->base_manifest_list == NULL || s->delta_manifest_list == NULL)
			abort();
		if (strchr(s->base_manifest_list, '/') || strchr(s->delta_manifest_list, '/') ||
			(s->index_manifest && strchr(s->index_manifest, '/')))
			abort();
	}
	else if (err.message[0] == '\0')
		abort();
	pm_arena_destroy(arena);
	return 0;
}
