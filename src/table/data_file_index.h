/*-------------------------------------------------------------------------
 * data_file_index.h
 *	  A written data file's file indexes in its DataFileMeta, and removing
 *	  a written (not committed) data file together with its index sidecar.
 *
 * Java (AppendOnlyWriter's RowDataFileWriter, KeyValueDataFileWriter):
 * the container goes into _EMBEDDED_FILE_INDEX when small enough, else
 * "<data file>.index" is written beside the data file and its name is the
 * one entry of _EXTRA_FILES (index/file_index_write.h).
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_DATA_FILE_INDEX_H
#define PM_TABLE_DATA_FILE_INDEX_H

#include "common/arena.h"
#include "common/error.h"
#include "index/file_index_write.h"
#include "io/fileio.h"
#include "table/split.h"

/*
 * Finish w (NULL: no index) for the data file m->path: embedded index or
 * sidecar recorded in m (in arena).
 */
extern pm_code pm_data_file_index_finish(pm_file_index_writer *w, pm_fileio *io,
										 pm_data_file_meta *m, pm_arena *arena,
										 pm_error *err);

/* Remove a written data file and its extra files (errors ignored). */
extern void pm_data_file_remove_written(pm_fileio *io, const pm_data_file_meta *m);

#endif							/* PM_TABLE_DATA_FILE_INDEX_H */
