/*-------------------------------------------------------------------------
 * fuzz_manifest.c
 *	  libFuzzer harness for the table layer's metadata decoding:
 *	  manifest lists, manifests (+ merge into the live set) and index
 *	  manifests (src/table/manifest_list.c, manifest_entry.c,
 *	  index_manifest.c) on top of the Avro / ORC readers.
 *
 * The input is one metadata file (Avro or ORC by its magic). Whatever
 * decodes must satisfy the invariants the planner relies on: plain file
 * names, non-negative row counts and sizes, in-range DV ranges, and a live
 * set no larger than the entries.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/memory_fileio.h"
#include "table/index_manifest.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"

static void
check_name(const char *s)
{
	if (s == NULL || s[0] == '\0' || strchr(s, '/') != NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_memory_fileio_create(env);
	pm_arena   *arena = pm_arena_create(env);
	pm_error	err;
	const char *path = "/t/manifest/m";

	if (io == NULL || arena == NULL ||
		pm_memory_fileio_add(io, path, data, size, &err) != PM_OK)
		goto done;

	{
		pm_manifest_file_meta *metas;
		int			n;

		if (pm_manifest_list_read(env, io, path, arena, &metas, &n, &err) == PM_OK)
			for (int i = 0; i < n; i++)
				check_name(metas[i].file_name);
	}
	{
		pm_manifest_entry *entries = NULL;
		pm_manifest_entry **live;
		int			count = 0,
					cap = 0,
					nlive;

		if (pm_manifest_entries_read(env, io, path, arena, &entries, &count, &cap, &err) == PM_OK)
		{
			for (int i = 0; i < count; i++)
			{
				const pm_data_file_meta *f = &entries[i].file;

				check_name(f->file_name);
				if (f->row_count < 0 || f->file_size < 0 || f->nextra_files < 0 ||
					entries[i].partition == NULL)
					abort();
				for (int k = 0; k < f->nextra_files; k++)
					check_name(f->extra_files[k]);
			}
			if (pm_manifest_entries_merge(entries, count, arena, &live, &nlive, &err) == PM_OK &&
				(nlive < 0 || nlive > count))
				abort();
		}
	}
	{
		pm_index_manifest_entry *ie;
		int			n;

		if (pm_index_manifest_read(env, io, path, arena, &ie, &n, &err) == PM_OK)
			for (int i = 0; i < n; i++)
			{
				check_name(ie[i].file_name);
				for (int k = 0; k < ie[i].nranges; k++)
					if (ie[i].ranges[k].offset < 0 || ie[i].ranges[k].length < 0 ||
						ie[i].ranges[k].data_file == NULL)
						abort();
			}
	}
done:
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
	return 0;
}
