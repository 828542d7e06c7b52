/*-------------------------------------------------------------------------
 * orphan_files.h
 *	  Removing orphan files as Java 1.4.2's LocalOrphanFilesClean does:
 *	  files in the table's manifest/, index/, statistics/ and bucket
 *	  directories (under the partition directories; also under
 *	  data-file.external-paths) whose name no snapshot, tag or long-lived
 *	  changelog references, plus files in snapshot/ and changelog/ that are
 *	  not snapshots, changelogs or hints (e.g. temporary files of an
 *	  interrupted atomic write); only files last modified before a
 *	  threshold (Java's default: one day ago), so that files being written
 *	  for a commit that has not landed yet are safe.
 *
 * This covers the files a killed writer leaves: data files never
 * committed, manifests of a commit that did not publish, and the hidden
 * temporary files of write-if-absent (".<name>.<pid>.<n>.tmp").
 *
 * The FileIO has no modification times: the caller supplies a stat
 * function. Files referenced are collected by name, as Java does. Any
 * failure to read a snapshot, tag, manifest list or manifest other than
 * "not found" (a snapshot expired meanwhile) stops the clean before
 * anything is deleted. Empty directories are left in place.
 *
 * Spec: apache/paimon OrphanFilesClean.java, LocalOrphanFilesClean.java
 * (release-1.4.2). Branches (branch/) are not supported: a table with
 * branches is refused with PM_ERR_UNSUPPORTED.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TABLE_ORPHAN_FILES_H
#define PM_TABLE_ORPHAN_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "table/table.h"

/* false: cannot stat (the file is then never a candidate). */
typedef bool (*pm_file_stat_fn) (void *opaque, const char *path, int64_t *mtime_millis,
								 int64_t *size);

typedef struct pm_orphan_options
{
	int64_t		older_than_millis;	/* only files modified before this */
	bool		dry_run;		/* report, delete nothing */
	pm_file_stat_fn stat;
	void	   *stat_opaque;
} pm_orphan_options;

typedef struct pm_orphan_file
{
	const char *path;
	int64_t		size;
} pm_orphan_file;

/*
 * Find (and unless dry_run delete) the orphan files of table (opened on
 * it at any snapshot). *files: what was (or would be) deleted, in arena.
 */
extern pm_code pm_orphan_files_clean(pm_table *table, const pm_orphan_options *options,
									 pm_arena *arena, pm_orphan_file **files, int *nfiles,
									 pm_error *err);

#endif							/* PM_TABLE_ORPHAN_FILES_H */
