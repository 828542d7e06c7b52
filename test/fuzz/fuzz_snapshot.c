/*-------------------------------------------------------------------------
 * fuzz_snapshot.c
 *	  libFuzzer harness for pm_snapshot_parse (src/table/snapshot.c).
 *
 * A snapshot that parses names its base and delta manifest lists, and no
 * manifest list or index manifest name may leave the manifest directory.
 * Written back (pm_snapshot_to_json) it parses again with the same id and
 * the same tag times (tagCreateTime; tagTimeRetained present or not).
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
		/* written back and read again: a tag's times survive */
		if (s->commit_user != NULL && s->commit_kind != NULL)
		{
			char	   *json;
			size_t		len;
			pm_snapshot *again;

			if (pm_snapshot_to_json(s, arena, &json, &len, &err) == PM_OK)
			{
				if (pm_snapshot_parse(json, len, arena, &again, &err) != PM_OK ||
					again->id != s->id ||
					again->has_tag_create_time != s->has_tag_create_time ||
					again->tag_create_time != s->tag_create_time ||
					again->has_tag_time_retained != s->has_tag_time_retained)
					abort();
			}
		}
	}
	else if (err.message[0] == '\0')
		abort();
	pm_arena_destroy(arena);
	return 0;
}
