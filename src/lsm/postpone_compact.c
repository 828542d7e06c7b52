/*-------------------------------------------------------------------------
 * postpone_compact.c
 *	  The compaction of a postpone-bucket table (bucket = -2): the records
 *	  Flink's postpone sink wrote into bucket-postpone (unsorted files that
 *	  batch reads skip) are replayed into the real buckets, and one COMPACT
 *	  snapshot adds what they became and deletes them.
 *
 * As Flink's CompactAction.buildForPostponeBucketCompaction (Apache Paimon
 * 1.4.2), on one process:
 *	- per partition holding postpone files, the bucket count is the one of
 *	  its real-bucket files, else postpone.default-bucket-num (default 1);
 *	- the partition's postpone files are replayed in creationTime order
 *	  (PostponeBucketCompactSplitSource: "we must replay the written records
 *	  in exact order"; a stable sort: files of one millisecond in the
 *	  order the scan lists them, the order of their commits), each
 *	  file's records in file order, without merging, with their row kinds
 *	  (MergeFileSplitRead.createNoMergeReader for bucket -2), the values in
 *	  the latest schema;
 *	- the records go through the table's normal writer for that bucket count
 *	  (FixedBucketSink: the bucket hash, the write buffer's merge, sequence
 *	  numbers above each bucket's, level-0 files, the lookup compaction of
 *	  deletion-vector and first-row tables);
 *	- one COMPACT commit by its own commit user with identifier
 *	  Long.MAX_VALUE: the written files as compactAfter
 *	  (PostponeBucketCommittableRewriter), the postpone files as compactBefore
 *	  (RemovePostponeBucketFilesOperator). When another compaction moved a
 *	  postpone file first, the commit fails (the file is no longer live) and
 *	  what was written is removed.
 * Java refuses a partition filter here; ours compacts the one partition.
 *
 * Spec: apache/paimon release-1.4.2 flink/action/CompactAction.java,
 * the classes of flink/postpone/, postpone/PostponeBucketFileStoreWrite.java.
 *-------------------------------------------------------------------------
 */
#include "lsm/postpone_compact.h"

#include <stdlib.h>
#include <string.h>

#include "common/uuid.h"
#include "table/partition_path.h"
#include "table/split.h"
#include "table/table_write.h"
#include "table/write_options.h"

/* A postpone file and where the scan listed it. */
typedef struct replay_file_pos
{
	const pm_data_file_meta *file;
	int			pos;
} replay_file_pos;

/*
 * creationTime order, stable as Java's List.sort: files of the same
 * millisecond keep the order the scan lists them in (manifest order, the
 * order they were committed in)
 */
static int
replay_order(const void *pa, const void *pb)
{
	const replay_file_pos *a = pa;
	const replay_file_pos *b = pb;

	if (a->file->creation_time_millis != b->file->creation_time_millis)
		return a->file->creation_time_millis < b->file->creation_time_millis ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Write every record of one postpone file, in file order, with its row kind. */
static pm_code
replay_file(pm_table *table, pm_table_writer *w, const pm_data_file_meta *file,
			const int *fields, int nfields, uint8_t **kinds, int64_t *kinds_cap,
			int64_t *rows, pm_error *err)
{
	pm_data_file_reader *r;
	pm_batch   *b;
	pm_code		rc;

	PM_TRY(pm_data_file_reader_open(table, file, fields, nfields, true, 0, &r, err));
	while ((rc = pm_data_file_reader_next(r, &b, err)) == PM_OK && b != NULL)
	{
		int			nkeys = b->ncols - 2 - nfields;
		const int8_t *kind;
		pm_batch	values;

		if (b->nrows == 0)
			continue;
		if (nkeys < 0)
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "%s: no key-value layout", file->file_name);
			break;
		}
		if (b->nrows > *kinds_cap)
		{
			uint8_t    *grown = realloc(*kinds, (size_t) b->nrows);

			if (grown == NULL)
			{
				rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
				break;
			}
			*kinds = grown;
			*kinds_cap = b->nrows;
		}
		kind = b->cols[nkeys + 1].values;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			if (pm_vector_is_null(&b->cols[nkeys + 1], i) || kind[i] < 0 || kind[i] > 3)
			{
				rc = pm_fail(err, PM_ERR_CORRUPT, "%s: row %lld has no valid _VALUE_KIND",
							 file->file_name, (long long) (b->first_row + i));
				break;
			}
			(*kinds)[i] = (uint8_t) kind[i];
		}
		if (rc != PM_OK)
			break;
		values.nrows = b->nrows;
		values.first_row = b->first_row;
		values.ncols = nfields;
		values.cols = &b->cols[nkeys + 2];
		if ((rc = pm_table_writer_write(w, &values, *kinds, err)) != PM_OK)
			break;
		*rows += b->nrows;
	}
	pm_data_file_reader_close(r);
	return rc;
}

/* The partition directory of a split, for the partition filter. */
static pm_code
split_partition_path(const pm_schema *s, const pm_write_options *opt, const pm_split *sp,
					 pm_arena *arena, char **out, pm_error *err)
{
	return pm_partition_path(s, opt->partition_type, opt->partition_default_name,
							 sp->partition_values, arena, out, err);
}

static pm_code
compact(pm_table *table, const char *table_path, const pm_compact_options *o, pm_arena *arena,
		pm_scan *scan, pm_compact_result *res, pm_error *err)
{
	const pm_schema *s = pm_table_schema(table);
	int			nfields = s->row_type->nfields;
	int			nsplits = pm_scan_split_count(scan);
	int		   *fields = pm_arena_alloc(arena, sizeof(int) * (size_t) (nfields + 1));
	pm_commit_change *replaced = pm_arena_zalloc(arena, sizeof(*replaced) * (size_t) (nsplits + 1));
	pm_write_options opt;
	pm_table_writer *w = NULL;
	char		user[PM_UUID_TEXT_LEN + 1];
	char	   *want = NULL;
	uint8_t    *kinds = NULL;
	int64_t		kinds_cap = 0;
	int			nreplaced = 0;
	pm_code		rc;

	if (fields == NULL || replaced == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nfields; i++)
		fields[i] = i;
	PM_TRY(pm_write_options_parse(s, arena, &opt, err));
	if (o != NULL && o->partition != NULL)
		PM_TRY(pm_compact_partition_path(s, arena, o->partition, &want, err));
	/* the splits to replay: those of the partition asked for */
	for (int i = 0; i < nsplits; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);
		pm_commit_change *c = &replaced[nreplaced];
		replay_file_pos *order;
		pm_data_file_meta *files;

		if (want != NULL)
		{
			char	   *have;

			PM_TRY(split_partition_path(s, &opt, sp, arena, &have, err));
			if (strcmp(have, want) != 0)
				continue;
		}
		order = pm_arena_alloc(arena, sizeof(*order) * (size_t) (sp->nfiles + 1));
		files = pm_arena_alloc(arena, sizeof(*files) * (size_t) (sp->nfiles + 1));
		if (order == NULL || files == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int f = 0; f < sp->nfiles; f++)
		{
			order[f].file = sp->files[f];
			order[f].pos = f;
		}
		qsort(order, (size_t) sp->nfiles, sizeof(*order), replay_order);
		for (int f = 0; f < sp->nfiles; f++)
			files[f] = *order[f].file;
		c->partition = sp->partition;
		c->partition_len = sp->partition_len;
		c->bucket = sp->bucket;
		c->total_buckets = sp->total_buckets;
		c->ndeleted = sp->nfiles;
		c->deleted = files;
		nreplaced++;
	}
	if (nreplaced == 0)
		return PM_OK;

	PM_TRY(pm_uuid_random(user, err));
	PM_TRY(pm_table_writer_open_postpone_compaction(pm_table_env(table), pm_table_fileio(table),
													table_path, user, &w, err));
	rc = PM_OK;
	for (int i = 0; rc == PM_OK && i < nreplaced; i++)
	{
		for (int f = 0; rc == PM_OK && f < replaced[i].ndeleted; f++)
			rc = replay_file(table, w, &replaced[i].deleted[f], fields, nfields, &kinds,
							 &kinds_cap, &res->rows_out, err);
		res->files_in += replaced[i].ndeleted;
		if (rc == PM_OK && o != NULL && o->progress != NULL)
			o->progress(o->progress_ctx, i + 1, nreplaced, res->rows_out);
	}
	free(kinds);
	/* Long.MAX_VALUE: a dedicated compaction job's identifier */
	if (rc == PM_OK)
		rc = pm_table_writer_commit_replacing(w, INT64_MAX, replaced, nreplaced,
											  &res->snapshot_id, err);
	if (rc != PM_OK)
	{
		pm_table_writer_abort(w);
		return rc;
	}
	res->buckets = pm_table_writer_committed(w)->buckets;
	res->files_out = pm_table_writer_committed(w)->files;
	pm_table_writer_close(w);
	return PM_OK;
}

pm_code
pm_postpone_compact(pm_table *table, const char *table_path, const pm_compact_options *options,
					pm_compact_result *result, pm_error *err)
{
	pm_arena   *arena;
	pm_scan    *scan = NULL;
	pm_code		rc;

	memset(result, 0, sizeof(*result));
	PM_TRY(pm_table_scan_plan_postpone(table, &scan, err));
	arena = pm_arena_create(pm_table_env(table));
	if (arena == NULL)
	{
		pm_scan_free(scan);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	rc = compact(table, table_path, options, arena, scan, result, err);
	pm_arena_destroy(arena);
	pm_scan_free(scan);
	return rc;
}
