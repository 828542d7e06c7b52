/*-------------------------------------------------------------------------
 * lookup_changelog.h
 *	  The changelog records of changelog-producer = lookup, as the lookup
 *	  compaction's merge reader hands them over (pm_merge_changelog_fn),
 *	  written to changelog files. The same sink writes the changelog of
 *	  changelog-producer = full-compaction (lsm/compact.c; before: the
 *	  key's max-level record, FullChangelogMergeFunctionWrapper, whose
 *	  rules below are the same).
 *
 * Per key with a level-0 record (LookupChangelogMergeFunctionWrapper.
 * setChangelog), before the older record, after the merged result:
 *	 - no before, or before a retraction: +I after, if after is an add;
 *	 - before an add, after a retraction: -D before;
 *	 - both adds: -U before, +U after, unless
 *	   changelog-producer.row-deduplicate is true and their values are
 *	   equal (fields named in changelog-producer.row-deduplicate-ignore-
 *	   fields left out; FLOAT/DOUBLE compared with ==, as Java's generated
 *	   RecordEqualiser);
 * each record keeps its own _SEQUENCE_NUMBER. First-row
 * (FirstRowMergeFunctionWrapper): a new key's result as it is.
 *
 * The records go to changelog files (changelog-file.prefix, the data
 * files' format and compression; level = the compaction's output level,
 * file source APPEND: KeyValueFileWriterFactory.
 * createRollingChangelogFileWriter), rolled at target-file-size; one
 * writer per rewrite, as ChangelogMergeTreeRewriter opens one per
 * rewriteOrProduceChangelog call.
 *
 * Spec: apache/paimon release-1.4.2 mergetree/compact/
 * LookupChangelogMergeFunctionWrapper, FirstRowMergeFunctionWrapper,
 * ChangelogMergeTreeRewriter; KeyValueFileStore (logDedupEqualSupplier),
 * utils/ValueEqualiserSupplier.
 *-------------------------------------------------------------------------
 */
#ifndef PM_LSM_LOOKUP_CHANGELOG_H
#define PM_LSM_LOOKUP_CHANGELOG_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/error.h"
#include "io/fileio.h"
#include "lsm/kv_file_writer.h"
#include "lsm/merge_engine.h"

/* The row-deduplicate setting of a table (parsed once). */
typedef struct pm_changelog_dedup
{
	bool		enabled;		/* changelog-producer.row-deduplicate */
	bool	   *ignore;			/* per field: left out of the comparison */
} pm_changelog_dedup;

/*
 * Parse changelog-producer.row-deduplicate(-ignore-fields) of the schema;
 * PM_ERR_UNSUPPORTED for a compared field of a nested type (ARRAY, MAP,
 * MULTISET, ROW, VARIANT, BLOB), whose equality is not implemented.
 */
extern pm_code pm_changelog_dedup_parse(const pm_schema *s, pm_arena *arena,
										pm_changelog_dedup *out, pm_error *err);

typedef struct pm_changelog_sink pm_changelog_sink;

/*
 * A sink writing changelog files of the layout's table into dir; names
 * <changelog-file.prefix><uuid>-<n>.<format>, n from *file_counter; metas
 * in meta_arena. first_row: the table's engine is first-row.
 */
extern pm_code pm_changelog_sink_open(const pm_env *env, pm_fileio *io,
									  const pm_kv_layout *layout, const char *dir,
									  const char *uuid, int64_t *file_counter,
									  pm_arena *meta_arena, const pm_changelog_dedup *dedup,
									  bool first_row, pm_changelog_sink **out, pm_error *err);

/* The level of the changelog files (createRollingChangelogFileWriter(level)): their compression. */
extern void pm_changelog_sink_set_level(pm_changelog_sink *s, int level);

/* pm_merge_changelog_fn (lsm/merge_reader.h): ctx is the sink. */
extern pm_code pm_changelog_sink_add(void *ctx, const pm_kv_record *before,
									 const pm_merge_cell *after, int after_kind,
									 int64_t after_seq, pm_error *err);

/* Records added so far. */
extern int64_t pm_changelog_sink_records(const pm_changelog_sink *sink);

/*
 * Write what is buffered and finish; *files / *nfiles the changelog files
 * made (level 0 in their metas: the caller sets the output level). The
 * sink is freed, also on failure; files made stay for the caller.
 */
extern pm_code pm_changelog_sink_close(pm_changelog_sink *sink, pm_data_file_meta **files,
									   int *nfiles, pm_error *err);

/* Discard what is buffered and free the sink; *files as for close. */
extern void pm_changelog_sink_abort(pm_changelog_sink *sink, pm_data_file_meta **files,
									int *nfiles);

#endif							/* PM_LSM_LOOKUP_CHANGELOG_H */
