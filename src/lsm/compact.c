/*-------------------------------------------------------------------------
 * compact.c
 *	  Compaction of a fixed-bucket primary-key table (see compact.h): the
 *	  full compaction of paimon_compact, and the universal compaction a
 *	  writer runs at commit (compact_pick.h).
 *
 * A compaction unit (files, output level) runs as Java's
 * MergeTreeCompactTask: the files are split into key-disjoint sections
 * (IntervalPartition); a section of several runs is merged; a lone file
 * is upgraded (same file, new level) when it is at least the compaction
 * file size (target-file-size / 10 * 7), else rewritten with the sections
 * queued before it. A merge reads each file as one run of a merge reader
 * in compaction mode (records keep sequence number and kind; -U/-D results
 * dropped when dropDelete); the merged rows, rebuilt in the KeyValue layout
 * (_KEY_ columns, _SEQUENCE_NUMBER, _VALUE_KIND, the fields), go through a
 * KeyValue file writer into the bucket's directory, file source COMPACT,
 * at the output level. On any failure the files written are removed.
 *-------------------------------------------------------------------------
 */
#include "lsm/compact.h"


#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/arena.h"
#include "common/uuid.h"
#include "index/deletion_vector.h"
#include "lsm/compact_pick.h"
#include "lsm/interval_partition.h"
#include "lsm/kv_file_writer.h"
#include "lsm/lookup_changelog.h"
#include "lsm/lookup_compact.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_reader.h"
#include "lsm/postpone_compact.h"
#include "lsm/record_expire.h"
#include "table/commit.h"
#include "table/append_compact.h"
#include "table/data_file_index.h"
#include "table/partition_path.h"
#include "table/split.h"
#include "table/write_options.h"

/* One data file as a run of the merge. */
typedef struct compact_run
{
	pm_table   *table;
	const pm_data_file_meta *file;
	const int  *fields;
	int			nfields;
	pm_data_file_reader *reader;
	/* record-level expiry: rows dropped as read (RecordLevelExpire.wrap) */
	const pm_record_expire *expire;
	int			expire_col;		/* the time field's batch column */
	int64_t		now;
	pm_arena   *scratch;		/* filtered batches */
	int64_t    *expired;		/* rows dropped, summed over the runs */
} compact_run;

typedef struct compact_state
{
	pm_table   *table;
	const pm_env *env;
	pm_fileio  *io;
	const pm_schema *schema;
	pm_arena   *arena;
	pm_write_options opt;
	pm_kv_layout *layout;
	pm_merge_engine *engine;
	bool		lookup;
	/* changelog-producer = full-compaction (see compact.h) */
	bool		full_changelog;
	pm_changelog_dedup dedup;
	int			changelog_files;
	int64_t		changelog_records;
	int			nfields;
	int		   *all_fields;
	const pm_type **out_types;
	int32_t		max_level;
	int64_t		compaction_file_size;	/* CoreOptions.compactionFileSize(true) */
	pm_compact_strategy strategy;
	pm_record_expire *expire;	/* NULL: no record-level.expire-time */
	int64_t		now_seconds;	/* the expiry's clock */
	int64_t		expired_rows;	/* records dropped by the expiry */
	char		uuid[PM_UUID_TEXT_LEN + 1]; /* of the bucket being compacted */
	int64_t		file_counter;
	/* files written so far (removed on failure) */
	pm_commit_change *changes;
	int			nchanges;
} compact_state;

static pm_code
run_next(void *state, pm_batch **batch, pm_error *err)
{
	compact_run *r = state;

	*batch = NULL;
	if (r->reader == NULL)
		PM_TRY(pm_data_file_reader_open(r->table, r->file, r->fields, r->nfields, true, 0,
										&r->reader, err));
	if (r->expire == NULL)
		return pm_data_file_reader_next(r->reader, batch, err);
	if (r->scratch == NULL && (r->scratch = pm_arena_create(pm_table_env(r->table))) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	/* the rows of the next batch that keep at least one record */
	return pm_record_expire_next(r->expire, r->expire_col, NULL, r->reader, r->now, r->scratch,
								 batch, r->expired, err);
}

static void
run_close(void *state)
{
	compact_run *r = state;

	pm_data_file_reader_close(r->reader);
	r->reader = NULL;
	if (r->scratch != NULL)
		pm_arena_destroy(r->scratch);
	r->scratch = NULL;
}

/*
 * The relative partition directory ("k=v/...") the user's "k1=v1,k2=v2"
 * names, in partition key order; PM_ERR_INVALID for a key that is not a
 * partition key or a missing one.
 */
pm_code
pm_compact_partition_path(const pm_schema *s, pm_arena *arena, const char *spec, char **out,
						  pm_error *err)
{
	int			n = s->npartition_keys;
	const char **vals = pm_arena_zalloc(arena, sizeof(char *) * (size_t) (n + 1));
	char	   *copy = pm_arena_strdup(arena, spec);
	size_t		len = 1;
	char	   *path;

	if (vals == NULL || copy == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (n == 0)
		return pm_fail(err, PM_ERR_INVALID, "the table is not partitioned: no partition to compact");
	for (char *tok = strtok(copy, ","); tok != NULL; tok = strtok(NULL, ","))
	{
		char	   *eq = strchr(tok, '=');
		int			k;

		if (eq == NULL)
			return pm_fail(err, PM_ERR_INVALID,
						   "partition \"%s\": expected key=value pairs separated by commas", spec);
		*eq = '\0';
		for (k = 0; k < n; k++)
			if (strcmp(s->partition_keys[k], tok) == 0)
				break;
		if (k == n)
			return pm_fail(err, PM_ERR_INVALID, "partition \"%s\": \"%s\" is not a partition key",
						   spec, tok);
		vals[k] = eq + 1;
	}
	for (int k = 0; k < n; k++)
	{
		if (vals[k] == NULL)
			return pm_fail(err, PM_ERR_INVALID, "partition \"%s\": no value for partition key \"%s\"",
						   spec, s->partition_keys[k]);
		len += strlen(s->partition_keys[k]) + strlen(vals[k]) + 2;
	}
	path = pm_arena_alloc(arena, len);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	path[0] = '\0';
	for (int k = 0; k < n; k++)
	{
		strcat(path, s->partition_keys[k]);
		strcat(path, "=");
		strcat(path, vals[k]);
		strcat(path, "/");
	}
	*out = path;
	return PM_OK;
}

/*
 * Levels: as many levels as num-levels, or more when a file sits higher
 * (the option was lowered): its max level.
 */
static int32_t
bucket_max_level(const compact_state *cs, const pm_data_file_meta **files, int n)
{
	int32_t		max = cs->strategy.num_levels - 1;

	for (int i = 0; i < n; i++)
		if (files[i]->level > max)
			max = files[i]->level;
	return max;
}

/* RecordLevelExpire.isExpireFile, false without the option */
static pm_code
file_expired(compact_state *cs, const pm_data_file_meta *f, bool *expired, pm_error *err)
{
	*expired = false;
	if (cs->expire == NULL)
		return PM_OK;
	return pm_record_expire_file(cs->expire, cs->table, f, cs->now_seconds, cs->arena, expired,
								 err);
}

/*
 * Java's pickFullCompaction: every file into the max level; but when the
 * bucket is one run at the max level already, only its files that
 * compaction.force-rewrite-all-files or record-level expiry (min of the
 * time field expired) name (no deletion vectors here), none: nothing to
 * do. *in / *n: the files of the unit.
 */
static pm_code
full_compaction_files(compact_state *cs, const pm_split *sp, const pm_data_file_meta ***in,
					  int *n, pm_error *err)
{
	const pm_data_file_meta **picked;
	bool		one_max_run = true;

	cs->max_level = bucket_max_level(cs, sp->files, sp->nfiles);
	*in = sp->files;
	*n = sp->nfiles;
	if (sp->nfiles == 0 || cs->strategy.force_rewrite_all_files)
		return PM_OK;
	for (int i = 0; i < sp->nfiles; i++)
		if (sp->files[i]->level != cs->max_level)
			one_max_run = false;
	if (!one_max_run)
		return PM_OK;
	*n = 0;
	if (cs->expire == NULL)
		return PM_OK;
	picked = pm_arena_zalloc(cs->arena, sizeof(void *) * (size_t) (sp->nfiles + 1));
	if (picked == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < sp->nfiles; i++)
	{
		bool		expired;

		PM_TRY(file_expired(cs, sp->files[i], &expired, err));
		if (expired)
			picked[(*n)++] = sp->files[i];
	}
	*in = picked;
	return PM_OK;
}

/* The output of one unit: files deleted and added (arena arrays). */
typedef struct unit_result
{
	pm_data_file_meta *before;
	int			nbefore;
	pm_data_file_meta *after;
	int			nafter;
	int			cap;
	int64_t		rows;
	pm_data_file_meta *changelog;	/* full-compaction changelog files */
	int			nchangelog;
	int			changelog_cap;
} unit_result;

static pm_code
result_add(compact_state *cs, unit_result *r, const pm_data_file_meta *before, int nbefore,
		   const pm_data_file_meta *after, int nafter, pm_error *err)
{
	int			need = (r->nbefore > r->nafter ? r->nbefore : r->nafter) +
		(nbefore > nafter ? nbefore : nafter);

	if (need > r->cap)
	{
		int			ncap = need * 2 + 4;
		pm_data_file_meta *b = pm_arena_zalloc(cs->arena, sizeof(*b) * (size_t) ncap);
		pm_data_file_meta *a = pm_arena_zalloc(cs->arena, sizeof(*a) * (size_t) ncap);

		if (a == NULL || b == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (r->nbefore > 0)
			memcpy(b, r->before, sizeof(*b) * (size_t) r->nbefore);
		if (r->nafter > 0)
			memcpy(a, r->after, sizeof(*a) * (size_t) r->nafter);
		r->before = b;
		r->after = a;
		r->cap = ncap;
	}
	for (int i = 0; i < nbefore; i++)
		r->before[r->nbefore++] = before[i];
	for (int i = 0; i < nafter; i++)
		r->after[r->nafter++] = after[i];
	return PM_OK;
}

static pm_code
result_add_changelog(compact_state *cs, unit_result *r, const pm_data_file_meta *files, int n,
					 pm_error *err)
{
	if (r->nchangelog + n > r->changelog_cap)
	{
		int			ncap = (r->nchangelog + n) * 2 + 4;
		pm_data_file_meta *c = pm_arena_zalloc(cs->arena, sizeof(*c) * (size_t) ncap);

		if (c == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (r->nchangelog > 0)
			memcpy(c, r->changelog, sizeof(*c) * (size_t) r->nchangelog);
		r->changelog = c;
		r->changelog_cap = ncap;
	}
	for (int i = 0; i < n; i++)
		r->changelog[r->nchangelog++] = files[i];
	return PM_OK;
}

/*
 * MergeTreeCompactRewriter.rewrite: merge files into new files at
 * output_level (recorded in r even on failure, so that they are removed).
 * Full-compaction changelog into the max level
 * (ChangelogMergeTreeRewriter.rewriteOrProduceChangelog): the merge also
 * writes the changelog; with rewrite false (upgrade, CHANGELOG_NO_REWRITE)
 * only the changelog is written.
 */
static pm_code
rewrite_files_impl(compact_state *cs, const pm_split *sp, const pm_data_file_meta **in, int n,
				   int32_t output_level, bool drop_delete, bool rewrite, unit_result *r,
				   pm_error *err)
{
	const pm_kv_layout *l = cs->layout;
	int			nk = l->nkeys;
	pm_run_source *runs = pm_arena_zalloc(cs->arena, sizeof(pm_run_source) * (size_t) n);
	compact_run *crs = pm_arena_zalloc(cs->arena, sizeof(compact_run) * (size_t) n);
	pm_data_file_meta *deleted = pm_arena_zalloc(cs->arena, sizeof(pm_data_file_meta) * (size_t) n);
	pm_vector  *cols = pm_arena_zalloc(cs->arena, sizeof(pm_vector) *
									   (size_t) (nk + 2 + cs->nfields));
	pm_merge_reader *m = NULL;
	pm_kv_file_writer *w = NULL;
	pm_data_file_meta *files = NULL;
	int			nfiles = 0;
	pm_changelog_sink *cl = NULL;
	pm_data_file_meta *clfiles = NULL;
	int			nclfiles = 0;
	pm_code		rc;

	if (runs == NULL || crs == NULL || deleted == NULL || cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory compacting");
	for (int i = 0; i < n; i++)
	{
		if (in[i]->deletion_file != NULL)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "data file \"%s\" has a deletion vector: compacting deletion vectors is not supported yet",
						   in[i]->file_name);
		crs[i].table = cs->table;
		crs[i].file = in[i];
		crs[i].fields = cs->all_fields;
		crs[i].nfields = cs->nfields;
		crs[i].expire = cs->expire;
		crs[i].expire_col = cs->expire != NULL ? nk + 2 + cs->expire->field : 0;
		crs[i].now = cs->now_seconds;
		crs[i].expired = &cs->expired_rows;
		runs[i].next = run_next;
		runs[i].close = run_close;
		runs[i].state = &crs[i];
		runs[i].level = in[i]->level;
		deleted[i] = *in[i];
	}
	PM_TRY(pm_merge_reader_open(cs->env, cs->engine, nk, cs->out_types, cs->nfields, runs,
								n, 0, &m, err));
	pm_merge_reader_set_lookup(m, cs->lookup);
	pm_merge_reader_set_kv_output(m, l->file_type->fields[nk].type,
								  l->file_type->fields[nk + 1].type);
	pm_merge_reader_set_keep_retracts(m, !drop_delete);
	rc = PM_OK;
	/* FullChangelogMergeTreeCompactRewriter.rewriteChangelog: into the max level only */
	if (cs->full_changelog && output_level == cs->max_level)
	{
		rc = pm_changelog_sink_open(cs->env, cs->io, l, sp->bucket_path, cs->uuid,
									&cs->file_counter, cs->arena, &cs->dedup, false, &cl, err);
		if (rc == PM_OK)
			pm_changelog_sink_set_level(cl, output_level);
		if (rc == PM_OK)
			rc = pm_merge_reader_set_full_changelog(m, pm_changelog_sink_add, cl,
													cs->max_level, err);
	}
	if (rc == PM_OK && rewrite)
		rc = pm_kv_file_writer_open(cs->env, cs->io, l, sp->bucket_path, cs->uuid,
									&cs->file_counter, cs->arena, &w, err);
	if (w != NULL)
		pm_kv_file_writer_set_level(w, output_level);
	while (rc == PM_OK)
	{
		pm_batch   *b;

		if ((rc = pm_merge_reader_next(m, &b, err)) != PM_OK || b == NULL)
			break;
		if (w != NULL)
		{
			rc = pm_kv_file_writer_write_merged(w, l, b, cs->nfields, cols, err);
			r->rows += b->nrows;
		}
	}
	pm_merge_reader_close(m);
	if (cl != NULL)
	{
		cs->changelog_records += pm_changelog_sink_records(cl);
		if (rc == PM_OK)
			rc = pm_changelog_sink_close(cl, &clfiles, &nclfiles, err);
		else
			pm_changelog_sink_abort(cl, &clfiles, &nclfiles);
		/* createRollingChangelogFileWriter(outputLevel): level set, file source APPEND */
		for (int i = 0; i < nclfiles; i++)
			clfiles[i].level = output_level;
		cs->changelog_files += nclfiles;
		PM_TRY(result_add_changelog(cs, r, clfiles, nclfiles, err));
	}
	if (w != NULL)
	{
		if (rc == PM_OK)
			rc = pm_kv_file_writer_close(w, &files, &nfiles, err);
		else
			pm_kv_file_writer_abort(w, &files, &nfiles);
	}
	for (int i = 0; i < nfiles; i++)
	{
		files[i].level = output_level;
		files[i].file_source = 1;	/* COMPACT */
	}
	if (rewrite)
		PM_TRY(result_add(cs, r, deleted, rc == PM_OK ? n : 0, files, nfiles, err));
	return rc;
}

static pm_code
rewrite_files(compact_state *cs, const pm_split *sp, const pm_data_file_meta **in, int n,
			  int32_t output_level, bool drop_delete, unit_result *r, pm_error *err)
{
	return rewrite_files_impl(cs, sp, in, n, output_level, drop_delete, true, r, err);
}

/* MergeTreeCompactTask.upgrade */
static pm_code
upgrade_file(compact_state *cs, const pm_split *sp, const pm_data_file_meta *f,
			 int32_t output_level, bool drop_delete, unit_result *r, pm_error *err)
{
	pm_data_file_meta up;
	bool		expired;

	/* containsDeleteRecords: a null delete row count counts as "may have" */
	PM_TRY(file_expired(cs, f, &expired, err));
	if ((output_level == cs->max_level && f->delete_row_count != 0) ||
		cs->strategy.force_rewrite_all_files || expired)
		return rewrite_files(cs, sp, &f, 1, output_level, drop_delete, r, err);
	if (f->level == output_level)
		return PM_OK;
	/* FullChangelogMergeTreeCompactRewriter.upgradeStrategy: CHANGELOG_NO_REWRITE */
	if (cs->full_changelog && output_level == cs->max_level)
		PM_TRY(rewrite_files_impl(cs, sp, &f, 1, output_level, false, false, r, err));
	up = *f;
	up.level = output_level;	/* DataFileMeta.upgrade: same file, new level */
	return result_add(cs, r, f, 1, &up, 1, err);
}

/* Sections queued for a rewrite (MergeTreeCompactTask's candidate). */
typedef struct candidate
{
	const pm_data_file_meta **files;
	int			nfiles;
	int			nsections;
	bool		last_single;	/* the only section is one run of one file */
} candidate;

/* MergeTreeCompactTask.rewrite */
static pm_code
flush_candidate(compact_state *cs, const pm_split *sp, candidate *c, int32_t output_level,
				bool drop_delete, unit_result *r, pm_error *err)
{
	pm_code		rc = PM_OK;

	if (c->nsections == 0)
		return PM_OK;
	if (c->nsections == 1 && c->last_single)
	{
		for (int i = 0; rc == PM_OK && i < c->nfiles; i++)
			rc = upgrade_file(cs, sp, c->files[i], output_level, drop_delete, r, err);
	}
	else
		rc = rewrite_files(cs, sp, c->files, c->nfiles, output_level, drop_delete, r, err);
	c->nfiles = 0;
	c->nsections = 0;
	return rc;
}

static void
candidate_add(candidate *c, const pm_data_file_meta **files, int n, bool single)
{
	for (int i = 0; i < n; i++)
		c->files[c->nfiles++] = files[i];
	c->nsections++;
	c->last_single = single;
}

/*
 * Compact files (a unit) of one bucket into output_level as
 * MergeTreeCompactTask.doCompact; *change gets the files deleted and added.
 */
static pm_code
compact_unit(compact_state *cs, const pm_split *sp, const pm_data_file_meta **in, int n,
			 int32_t output_level, bool drop_delete, pm_commit_change *change, int64_t *rows,
			 pm_error *err)
{
	int		   *order = pm_arena_zalloc(cs->arena, sizeof(int) * (size_t) (n + 1));
	int		   *sec_end = pm_arena_zalloc(cs->arena, sizeof(int) * (size_t) (n + 1));
	int		   *sec_runs = pm_arena_zalloc(cs->arena, sizeof(int) * (size_t) (n + 1));
	const pm_data_file_meta **sec = pm_arena_zalloc(cs->arena, sizeof(void *) * (size_t) (n + 1));
	candidate	cand;
	unit_result r;
	pm_code		rc = PM_OK;
	int			nsec;

	memset(&r, 0, sizeof(r));
	memset(&cand, 0, sizeof(cand));
	cand.files = pm_arena_zalloc(cs->arena, sizeof(void *) * (size_t) (n + 1));
	if (order == NULL || sec_end == NULL || sec_runs == NULL || sec == NULL || cand.files == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (cs->opt.bucket > 0 && sp->total_buckets > 0 && sp->total_buckets != cs->opt.bucket)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "bucket %d was written with %d buckets, the table now has %d: rescaled buckets are not compacted",
					   sp->bucket, sp->total_buckets, cs->opt.bucket);
	PM_TRY(pm_uuid_random(cs->uuid, err));	/* a rewriter per bucket: its own file names */
	cs->file_counter = 0;
	/* IntervalPartition: files by (min key, max key), sections of overlapping ranges */
	PM_TRY(pm_interval_partition(cs->arena, cs->layout->key_type, in, n, order, sec_end, &nsec,
								 sec_runs, err));
	for (int s = 0, start = 0; rc == PM_OK && s < nsec; start = sec_end[s++])
	{
		int			end = sec_end[s];

		for (int i = start; i < end; i++)
			sec[i - start] = in[order[i]];
		if (sec_runs[s] > 1)
			candidate_add(&cand, sec, end - start, false);
		else
		{
			/* one run: files in key order, small ones queued, large ones upgraded */
			for (int i = 0; rc == PM_OK && i < end - start; i++)
			{
				if (sec[i]->file_size < cs->compaction_file_size)
					candidate_add(&cand, &sec[i], 1, true);
				else
				{
					rc = flush_candidate(cs, sp, &cand, output_level, drop_delete, &r, err);
					if (rc == PM_OK)
						rc = upgrade_file(cs, sp, sec[i], output_level, drop_delete, &r, err);
				}
			}
		}
	}
	if (rc == PM_OK)
		rc = flush_candidate(cs, sp, &cand, output_level, drop_delete, &r, err);
	/* recorded even on failure, so that the caller removes the files written */
	change->partition = sp->partition;
	change->partition_len = sp->partition_len;
	change->bucket = sp->bucket;
	change->total_buckets = cs->opt.bucket > 0 ? cs->opt.bucket : sp->total_buckets;
	change->nadded = r.nafter;
	change->added = r.after;
	change->ndeleted = r.nbefore;
	change->deleted = r.before;
	change->nchangelog = r.nchangelog;
	change->changelog = r.changelog;
	*rows += r.rows;
	return rc;
}

/* Full compaction of one bucket's unit into the max level, deletes dropped. */
static pm_code
compact_bucket(compact_state *cs, const pm_split *sp, const pm_data_file_meta **in, int n,
			   pm_commit_change *c, int64_t *rows, pm_error *err)
{
	/*
	 * changelog-producer = lookup: Java's compaction of level-0 files writes
	 * their changelog (lsm/lookup_compact.c does, at our commits, not here)
	 */
	if (cs->opt.changelog_lookup)
		for (int i = 0; i < n; i++)
			if (in[i]->level == 0)
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "table option changelog-producer = \"lookup\": level-0 files (written with write-only or by another writer) are not compacted here, as their changelog would be missing");
	return compact_unit(cs, sp, in, n, cs->max_level, true, c, rows, err);
}

static void
remove_written(compact_state *cs)
{
	for (int i = 0; i < cs->nchanges; i++)
		for (int f = 0; f < cs->changes[i].nadded; f++)
		{
			bool		upgraded = false;

			/* an upgraded file is an input under a new level: never removed */
			for (int d = 0; d < cs->changes[i].ndeleted && !upgraded; d++)
				upgraded = strcmp(cs->changes[i].deleted[d].file_name,
								  cs->changes[i].added[f].file_name) == 0;
			if (!upgraded)
				pm_data_file_remove_written(cs->io, &cs->changes[i].added[f]);
		}
	for (int i = 0; i < cs->nchanges; i++)
		for (int f = 0; f < cs->changes[i].nchangelog; f++)
			pm_data_file_remove_written(cs->io, &cs->changes[i].changelog[f]);
}

/*
 * Fixed and dynamic buckets, for paimon_compact and the writer's compaction
 * at commit (pm_compactor_open); a dynamic-bucket table is compacted per
 * bucket: keys never move, so its HASH index files stay as they are.
 */
static pm_code
setup(compact_state *cs, pm_error *err)
{
	const pm_schema *s = cs->schema;
	const char *engine = pm_schema_option(s, "merge-engine");
	const char *producer = pm_schema_option(s, "changelog-producer");

	/* paimon_compact hands these to lsm/lookup_compact.c (pm_lookup_compact_full) */
	if (pm_schema_bool_option(s, "deletion-vectors.enabled", false))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option deletion-vectors.enabled = \"true\": compacted by lookup");
	if (engine != NULL && strcasecmp(engine, "first-row") == 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option merge-engine = \"first-row\": compacted by lookup");
	PM_TRY(pm_write_options_parse(s, cs->arena, &cs->opt, err));
	if (cs->opt.bucket == -2)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option bucket = -2: compacting postpone-bucket tables is not supported (Java's compaction of them moves the postpone bucket's files into real buckets, a rescale this compaction does not do)");
	if (cs->opt.bucket < 1 && cs->opt.bucket != -1)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option bucket = %d: only tables with a fixed bucket count are compacted",
					   cs->opt.bucket);
	PM_TRY(pm_compact_strategy_parse(s, &cs->strategy, err));
	PM_TRY(pm_record_expire_create(s, cs->arena, &cs->expire, err));
	cs->now_seconds = pm_record_expire_now();
	cs->max_level = cs->strategy.num_levels - 1;
	cs->compaction_file_size = cs->opt.target_file_size / 10 * 7;
	cs->nfields = s->row_type->nfields;
	cs->all_fields = pm_arena_alloc(cs->arena, sizeof(int) * (size_t) (cs->nfields + 1));
	cs->out_types = pm_arena_alloc(cs->arena, sizeof(pm_type *) * (size_t) (cs->nfields + 1));
	if (cs->all_fields == NULL || cs->out_types == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < cs->nfields; i++)
	{
		cs->all_fields[i] = i;
		cs->out_types[i] = s->row_type->fields[i].type;
	}
	PM_TRY(pm_kv_layout_create(s, &cs->opt, cs->arena, &cs->layout, err));
	PM_TRY(pm_merge_engine_create(s, cs->all_fields, cs->nfields, cs->layout->nkeys + 2,
								  cs->arena, &cs->engine, err));
	/* CoreOptions.needLookup (deletion vectors refused above) */
	cs->lookup = (producer != NULL && strcasecmp(producer, "lookup") == 0) ||
		pm_schema_bool_option(s, "force-lookup", false);
	/* MergeTreeCompactManagerFactory.createRewriter: FullChangelogMergeTreeCompactRewriter */
	cs->full_changelog = cs->opt.changelog_full;
	if (cs->full_changelog)
		PM_TRY(pm_changelog_dedup_parse(s, cs->arena, &cs->dedup, err));
	return pm_uuid_random(cs->uuid, err);
}

static pm_code
compact_all(compact_state *cs, const char *table_path, const pm_compact_options *o,
			pm_compact_result *res, pm_error *err)
{
	pm_scan    *scan = NULL;
	char	   *want = NULL;
	int			nsplits,
				total = 0,
				done = 0;
	pm_commit_request req;
	char		user[PM_UUID_TEXT_LEN + 1];
	pm_code		rc;

	PM_TRY(setup(cs, err));
	if (o != NULL && o->partition != NULL)
		PM_TRY(pm_compact_partition_path(cs->schema, cs->arena, o->partition, &want, err));
	PM_TRY(pm_table_scan_plan(cs->table, NULL, &scan, err));
	nsplits = pm_scan_split_count(scan);
	cs->changes = pm_arena_zalloc(cs->arena, sizeof(pm_commit_change) * (size_t) (nsplits + 1));
	if (cs->changes == NULL)
	{
		pm_scan_free(scan);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	rc = PM_OK;
	for (int i = 0; i < nsplits; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		if (want != NULL)
		{
			char	   *have;

			rc = pm_partition_path(cs->schema, cs->opt.partition_type,
								   cs->opt.partition_default_name, sp->partition_values,
								   cs->arena, &have, err);
			if (rc != PM_OK)
				break;
			if (strcmp(have, want) != 0)
				continue;
		}
		{
			const pm_data_file_meta **in;
			int			n;

			rc = full_compaction_files(cs, sp, &in, &n, err);
			if (rc != PM_OK)
				break;
			if (n > 0)
				total++;
		}
	}
	for (int i = 0; rc == PM_OK && i < nsplits; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);
		const pm_data_file_meta **in;
		int			n;
		int64_t		rows = 0;

		if (want != NULL)
		{
			char	   *have;

			rc = pm_partition_path(cs->schema, cs->opt.partition_type,
								   cs->opt.partition_default_name, sp->partition_values,
								   cs->arena, &have, err);
			if (rc != PM_OK || strcmp(have, want) != 0)
				continue;
		}
		if ((rc = full_compaction_files(cs, sp, &in, &n, err)) != PM_OK)
			break;
		if (n == 0)
			continue;
		rc = compact_bucket(cs, sp, in, n, &cs->changes[cs->nchanges++], &rows, err);
		res->rows_out += rows;
		if (rc == PM_OK && o != NULL && o->progress != NULL)
			o->progress(o->progress_ctx, ++done, total, res->rows_out);
	}
	if (rc == PM_OK && cs->nchanges > 0)
	{
		/* a dedicated compaction job: its own commit user, Long.MAX_VALUE */
		rc = pm_uuid_random(user, err);
		memset(&req, 0, sizeof(req));
		req.commit_user = user;
		req.commit_identifier = INT64_MAX;
		req.commit_kind = "COMPACT";
		req.schema = cs->schema;
		req.nchanges = cs->nchanges;
		req.changes = cs->changes;
		if (rc == PM_OK)
			rc = pm_table_commit(cs->env, cs->io, table_path, &req, cs->arena,
								 &res->snapshot_id, err);
	}
	if (rc == PM_OK)
	{
		res->buckets = cs->nchanges;
		res->rows_expired = cs->expired_rows;
		res->changelog_files = cs->changelog_files;
		res->changelog_records = cs->changelog_records;
		for (int i = 0; i < cs->nchanges; i++)
		{
			res->files_in += cs->changes[i].ndeleted;
			res->files_out += cs->changes[i].nadded;
		}
	}
	else
		remove_written(cs);
	pm_scan_free(scan);
	return rc;
}

/* Deletion-vector and first-row tables: compacted by lsm/lookup_compact.c. */
static bool
needs_lookup(const pm_schema *s)
{
	const char *engine = pm_schema_option(s, "merge-engine");

	return pm_schema_bool_option(s, "deletion-vectors.enabled", false) ||
		(engine != NULL && strcasecmp(engine, "first-row") == 0);
}

static pm_code
compact_by_lookup(pm_table *table, const char *table_path, const pm_compact_options *o,
				  pm_compact_result *res, pm_error *err)
{
	pm_lookup_compact_result lr;

	PM_TRY(pm_lookup_compact_full(pm_table_env(table), pm_table_fileio(table), table_path,
								  o != NULL ? o->partition : NULL,
								  o != NULL ? o->progress : NULL,
								  o != NULL ? o->progress_ctx : NULL, &lr, err));
	res->snapshot_id = lr.snapshot_id;
	res->buckets = lr.buckets;
	res->files_in = lr.files_deleted;
	res->files_out = lr.files_added;
	res->rows_out = lr.rows_written;
	res->rows_expired = lr.rows_expired;
	res->changelog_files = lr.changelog_files;
	res->changelog_records = lr.changelog_records;
	return PM_OK;
}

pm_code
pm_table_compact(pm_table *table, const char *table_path, const pm_compact_options *options,
				 pm_compact_result *result, pm_error *err)
{
	compact_state cs;
	int			bucket;
	pm_code		rc;

	memset(result, 0, sizeof(*result));
	if (pm_table_schema(table)->nprimary_keys == 0)
		return pm_append_compact(table, table_path, options, result, err);
	PM_TRY(pm_schema_int_option(pm_table_schema(table), "bucket", -1, &bucket, err));
	if (bucket == -2)
		return pm_postpone_compact(table, table_path, options, result, err);
	if (needs_lookup(pm_table_schema(table)))
		return compact_by_lookup(table, table_path, options, result, err);
	memset(&cs, 0, sizeof(cs));
	cs.table = table;
	cs.env = pm_table_env(table);
	cs.io = pm_table_fileio(table);
	cs.schema = pm_table_schema(table);
	cs.arena = pm_arena_create(cs.env);
	if (cs.arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = compact_all(&cs, table_path, options, result, err);
	pm_merge_engine_destroy(cs.engine);
	pm_arena_destroy(cs.arena);
	return rc;
}

/* ---------------------------------------------------------------------
 * The compaction of a writer at commit
 * ---------------------------------------------------------------------
 */
struct pm_compactor
{
	compact_state cs;
	pm_compact_pick_state pick;
	int			hour;			/* local hour (off-peak hours) */
	int64_t		now_millis;
	int			cap;
};

pm_code
pm_compactor_open(pm_table *table, pm_compactor **out, const char **why, pm_error *err)
{
	const pm_env *env = pm_table_env(table);
	pm_arena   *arena;
	pm_compactor *c;
	compact_state *cs;
	pm_compact_strategy st;
	pm_code		rc;

	*out = NULL;
	*why = NULL;
	PM_TRY(pm_compact_strategy_parse(pm_table_schema(table), &st, err));
	if (pm_table_schema(table)->nprimary_keys == 0)
		*why = "append table";
	else if (st.write_only)
		*why = "write-only";
	else if (st.need_lookup)
		*why = "lookup compaction (deletion vectors, first-row, changelog-producer lookup or force-lookup)";
	if (*why != NULL)
		return PM_OK;
	arena = pm_arena_create(env);
	if (arena == NULL || (c = pm_arena_zalloc(arena, sizeof(*c))) == NULL)
	{
		if (arena != NULL)
			pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	cs = &c->cs;
	cs->table = table;
	cs->env = env;
	cs->io = pm_table_fileio(table);
	cs->schema = pm_table_schema(table);
	cs->arena = arena;
	if ((rc = setup(cs, err)) != PM_OK)
	{
		pm_merge_engine_destroy(cs->engine);
		pm_arena_destroy(arena);
		if (rc != PM_ERR_UNSUPPORTED)
			return rc;
		/* a table kind this compaction does not handle (postpone buckets): not compacted */
		pm_error_clear(err);
		*why = "a table kind not compacted at commit (see paimon_compact)";
		return PM_OK;
	}
	pm_compact_clock(&c->hour, &c->now_millis);
	*out = c;
	return PM_OK;
}

/* Levels.level0's order: max sequence number descending, then min ascending, time, name. */
static int
level0_order(const pm_data_file_meta *a, const pm_data_file_meta *b)
{
	if (a->max_sequence_number != b->max_sequence_number)
		return a->max_sequence_number > b->max_sequence_number ? -1 : 1;
	if (a->min_sequence_number != b->min_sequence_number)
		return a->min_sequence_number < b->min_sequence_number ? -1 : 1;
	if (a->creation_time_millis != b->creation_time_millis)
		return a->creation_time_millis < b->creation_time_millis ? -1 : 1;
	return strcmp(a->file_name, b->file_name);
}

pm_code
pm_compactor_after_write(pm_compactor *c, const pm_split *bucket,
						 const pm_data_file_meta *new_files, int nnew,
						 pm_commit_change *change, pm_compact_trigger_info *info, pm_error *err)
{
	compact_state *cs = &c->cs;
	int			n = bucket->nfiles + nnew;
	const pm_data_file_meta **in = pm_arena_zalloc(cs->arena, sizeof(void *) * (size_t) (n + 1));
	const pm_data_file_meta **all = pm_arena_zalloc(cs->arena, sizeof(void *) * (size_t) (n + 1));
	pm_compact_run *runs = pm_arena_zalloc(cs->arena, sizeof(pm_compact_run) * (size_t) (n + 1));
	pm_compact_strategy st = cs->strategy;
	pm_compact_unit unit;
	int			m = 0,
				nruns = 0,
				nunit = 0,
				highest = -1;
	int64_t		rows = 0;
	pm_code		rc;

	memset(change, 0, sizeof(*change));
	memset(info, 0, sizeof(*info));
	if (in == NULL || all == NULL || runs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < bucket->nfiles; i++)
		in[i] = bucket->files[i];
	for (int i = 0; i < nnew; i++)
		in[bucket->nfiles + i] = &new_files[i];
	cs->max_level = bucket_max_level(cs, in, n);
	st.num_levels = cs->max_level + 1;
	/* Levels.levelSortedRuns: level-0 files newest first, then each non-empty level */
	for (int i = 0; i < n; i++)
		if (in[i]->level == 0)
		{
			int			k = m++;

			for (; k > 0 && level0_order(all[k - 1], in[i]) > 0; k--)
				all[k] = all[k - 1];
			all[k] = in[i];
		}
	for (int32_t lv = 1; lv <= cs->max_level; lv++)
		for (int i = 0; i < n; i++)
			if (in[i]->level == lv)
				all[m++] = in[i];
	for (int i = 0; i < n; i++)
	{
		if (all[i]->level == 0 || nruns == 0 || runs[nruns - 1].level != all[i]->level)
		{
			runs[nruns].level = all[i]->level;
			runs[nruns].size = 0;
			runs[nruns].nfiles = 0;
			nruns++;
		}
		runs[nruns - 1].size += all[i]->file_size;
		runs[nruns - 1].nfiles++;
		if (all[i]->level > highest)
			highest = all[i]->level;
	}
	info->sorted_runs = nruns;
	if (!pm_compact_pick(&st, &c->pick, runs, nruns, c->hour, c->now_millis, &unit))
		return PM_OK;
	for (int i = 0; i < unit.nruns; i++)
		nunit += runs[i].nfiles;
	/* remembered for pm_compactor_remove_written, also on failure */
	if (cs->nchanges == c->cap)
	{
		int			ncap = c->cap * 2 + 8;
		pm_commit_change *grown = pm_arena_zalloc(cs->arena, sizeof(*grown) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (cs->nchanges > 0)
			memcpy(grown, cs->changes, sizeof(*grown) * (size_t) cs->nchanges);
		cs->changes = grown;
		c->cap = ncap;
	}
	/* MergeTreeCompactManager: dropDelete when nothing older stays below the output */
	rc = compact_unit(cs, bucket, all, nunit, unit.output_level,
					  unit.output_level != 0 && unit.output_level >= highest,
					  &cs->changes[cs->nchanges], &rows, err);
	*change = cs->changes[cs->nchanges++];
	if (rc == PM_OK)
	{
		info->compacted = true;
		info->runs_picked = unit.nruns;
		info->output_level = unit.output_level;
		info->files_in = change->ndeleted;
		info->files_out = change->nadded;
		info->rows_out = rows;
	}
	return rc;
}

void
pm_compactor_remove_written(pm_compactor *c)
{
	if (c == NULL)
		return;
	remove_written(&c->cs);
	c->cs.nchanges = 0;
}

void
pm_compactor_close(pm_compactor *c)
{
	if (c == NULL)
		return;
	pm_merge_engine_destroy(c->cs.engine);
	pm_arena_destroy(c->cs.arena);
}
