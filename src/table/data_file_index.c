/*-------------------------------------------------------------------------
 * data_file_index.c
 *	  File indexes of written data files (data_file_index.h).
 *-------------------------------------------------------------------------
 */
#include "table/data_file_index.h"

pm_code
pm_data_file_index_finish(pm_file_index_writer *w, pm_fileio *io, pm_data_file_meta *m,
						  pm_arena *arena, pm_error *err)
{
	const char *name;
	const char *path;
	const char **names;
	const char **paths;

	if (w == NULL)
		return PM_OK;
	PM_TRY(pm_file_index_writer_finish(w, io, m->path, arena, &m->embedded_file_index,
									   &m->embedded_file_index_len, &name, &path, err));
	if (name == NULL)
		return PM_OK;
	names = pm_arena_alloc(arena, sizeof(char *));
	paths = pm_arena_alloc(arena, sizeof(char *));
	if (names == NULL || paths == NULL)
	{
		pm_fileio_remove_quietly(io, path);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	names[0] = name;
	paths[0] = path;
	m->extra_files = names;
	m->extra_file_paths = paths;
	m->nextra_files = 1;
	return PM_OK;
}

void
pm_data_file_remove_written(pm_fileio *io, const pm_data_file_meta *m)
{
	pm_fileio_remove_quietly(io, m->path);
	for (int x = 0; x < m->nextra_files; x++)
		if (m->extra_file_paths != NULL)
			pm_fileio_remove_quietly(io, m->extra_file_paths[x]);
}
