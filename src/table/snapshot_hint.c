/*-------------------------------------------------------------------------
 * snapshot_hint.c
 *	  Writing the LATEST / EARLIEST hint files (snapshot_hint.h).
 *-------------------------------------------------------------------------
 */
#include "table/snapshot_hint.h"

#include <stdio.h>
#include <string.h>

void
pm_snapshot_hint_write(pm_fileio *io, const char *table_path, const char *hint, int64_t id,
					   pm_arena *arena)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/%s", table_path, hint);
	char		text[32];
	pm_error	ignored;

	if (path == NULL || io->write_new == NULL || io->remove == NULL)
		return;
	snprintf(text, sizeof(text), "%lld", (long long) id);
	pm_error_clear(&ignored);
	if (io->exists(io, path))
		(void) io->remove(io, path, &ignored);
	pm_error_clear(&ignored);
	(void) io->write_new(io, path, text, strlen(text), &ignored);
}

bool
pm_snapshot_hint_exists(pm_fileio *io, const char *table_path, const char *hint, pm_arena *arena)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/%s", table_path, hint);

	return path != NULL && io->exists(io, path);
}
