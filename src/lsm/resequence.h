/*-------------------------------------------------------------------------
 * resequence.h
 *	  Renumbering a writer's uncommitted level-0 KeyValue files: every
 *	  _SEQUENCE_NUMBER shifted by one constant, so that the files can be
 *	  committed above records another writer of the same bucket committed
 *	  after this writer took its sequence numbers (table_write.c,
 *	  commit.h's sequence check).
 *
 * Paimon numbers a bucket's records per writer, from the bucket's largest
 * sequence number when the writer starts (MergeTreeWriter), and assumes one
 * writer per bucket. Postgres sessions are several writers: shifting by a
 * constant keeps the order of this writer's own records and puts all of
 * them after the other writer's, i.e. commit order decides, as it would
 * with one Java writer that wrote the statements in commit order.
 *
 * Each file is read whole (format_reader.h, the file layout) and written
 * again by a kv_file_writer (kv_file_writer.h) under a fresh uuid, one file
 * per input (no rolling), so stats, key range, delete count and file
 * indexes are the writer's own; then the old file and its extra files are
 * removed.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_RESEQUENCE_H
#define PM_LSM_RESEQUENCE_H

#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "io/fileio.h"
#include "lsm/kv_file_writer.h"
#include "table/split.h"

/*
 * Rewrite files[0..nfiles) (level-0 KeyValue files in bucket directory dir,
 * written with layout, not committed) with every sequence number plus
 * delta (delta > 0; the result must not overflow). On success files[i] is
 * the new file's meta (in meta_arena) and the old files are removed. On
 * failure files[] and the old files are unchanged and the new files
 * written are removed.
 */
extern pm_code pm_resequence_files(const pm_env *env, pm_fileio *io, const pm_kv_layout *layout,
								   const char *dir, pm_data_file_meta *files, int nfiles,
								   int64_t delta, pm_arena *meta_arena, pm_error *err);

#endif							/* PM_LSM_RESEQUENCE_H */
