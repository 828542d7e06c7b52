/*-------------------------------------------------------------------------
 * pk_fixture.h
 *	  A small primary-key table for the writer and compaction tests
 *	  (test_pk_write.c, test_compact.c, test_lookup_compact.c, ...): id INT
 *	  NOT NULL (primary key), name STRING ("n<v>" or NULL), v BIGINT, w
 *	  BIGINT; batches of it, commits of them, full compactions, the latest
 *	  snapshot's data files, and reading a table of it back through
 *	  pm_table_read, checked per id.
 *-------------------------------------------------------------------------
 */
#ifndef PM_TEST_PK_FIXTURE_H
#define PM_TEST_PK_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/vector.h"
#include "io/fileio.h"
#include "lsm/compact.h"
#include "lsm/kv_file_writer.h"
#include "table/split.h"
#include "table/table.h"
#include "table/schema.h"
#include "table/table_write.h"

#define MAXID 4096

/* A row: id, name ("n<v>" or NULL), v, w (INT64_MIN = NULL). */
typedef struct trow
{
	int			id;
	bool		has_name;
	int64_t		v;
	int64_t		w;
} trow;

/* What a read gives: per id, present and the values. */
typedef struct result
{
	bool		present[MAXID];
	bool		name_null[MAXID];
	int64_t		v[MAXID];		/* INT64_MIN = NULL */
	int64_t		w[MAXID];
	int			nrows;
} result;

/* The table's schema with the given options. */
extern pm_schema *make_schema(pm_arena *arena, int nopt, const char **keys, const char **vals);

/* A batch of n rows. */
extern pm_batch *make_batch(pm_arena *arena, const pm_type *row, const trow *rows, int n);

/* A batch in the KeyValue file layout l: _KEY_id, seq, kind, id, name, v, w. */
extern pm_batch *pk_kv_batch(pm_arena *arena, const pm_kv_layout *l, const pm_schema *s,
							 const trow *rows, const int64_t *seq, const int8_t *kind, int n);

/*
 * One KeyValue file of n rows (sequence numbers seq, kinds kind) written
 * with table tdir's latest schema into directory dir, named from uuid:
 * its meta into *meta, the layout it was written with into *layout (both
 * in arena).
 */
extern void pk_kv_file(pm_fileio *io, pm_arena *arena, const char *tdir, const char *dir,
					   const char *uuid, const trow *rows, const int64_t *seq,
					   const int8_t *kind, int n, pm_data_file_meta *meta,
					   pm_kv_layout **layout);

/* Read the table at path into r (ids shifted by offset); a name is checked to be "n<v>". */
extern void read_all_offset(pm_fileio *io, const char *path, result *r, int offset);
extern void read_all(pm_fileio *io, const char *path, result *r);

/*
 * The same read, ids shifted by offset: with ids, the ids in the order read
 * (r->nrows of them); names checked to be "n<v>" only if check_names.
 */
extern void pk_read_rows(pm_fileio *io, const char *path, int offset, bool check_names,
						 result *r, int *ids);

/* The same read through pm_table_read_open_ordered (ids in the order read). */
extern void pk_read_rows_in_key_order(pm_fileio *io, const char *path, result *r, int *ids);

/* a and b hold the same rows (values of absent ids not compared). */
extern void pk_assert_same(const result *a, const result *b);

/* A writer of commit user "pk-user"; rows with their row kinds; a commit that must get want_sid. */
extern pm_table_writer *open_writer(pm_fileio *io, const char *dir);
extern void write_kinds(pm_table_writer *w, pm_arena *arena, const trow *rows,
						const uint8_t *kinds, int n);
extern void commit(pm_table_writer *w, int64_t ident, int64_t want_sid);

/* Table dir created: the schema of make_schema with these options. */
extern void pk_create(pm_fileio *io, pm_arena *arena, const char *dir, int nopt,
					  const char **keys, const char **vals);

/* Table dir created (pk_create); opening its writer fails PM_ERR_UNSUPPORTED, message has msg. */
extern void pk_open_refused(pm_fileio *io, pm_arena *arena, const char *dir, int nopt,
							const char **keys, const char **vals, const char *msg);

/*
 * One commit through a writer of its own: rows with kinds (NULL: all
 * inserts), identifier ident; the commit must get want_sid.
 */
extern void pk_commit_rows(pm_fileio *io, const char *dir, pm_arena *arena, const trow *rows,
						   const uint8_t *kinds, int n, int64_t ident, int64_t want_sid);

/* paimon_compact's full compaction of dir: partition (NULL: all) into res. */
extern void pk_full_compact(pm_fileio *io, const char *dir, const char *partition,
							pm_compact_result *res);

/*
 * The data files of dir's latest snapshot: those a read plans, or with
 * every_level also those of levels a read skips. Valid until pk_files_close.
 */
typedef struct pk_files
{
	int			n;
	const pm_data_file_meta **files;
	pm_table   *table;
	pm_scan    *scan;
} pk_files;

extern void pk_files_open(pm_fileio *io, const char *dir, bool every_level, pk_files *pf);
extern void pk_files_close(pk_files *pf);

#endif							/* PM_TEST_PK_FIXTURE_H */
