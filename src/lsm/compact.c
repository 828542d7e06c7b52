/*-------------------------------------------------------------------------
 * compact.c
 *	  Full compaction of a fixed-bucket primary-key table (see compact.h).
 *
 * Per bucket: each live file is one run of a merge reader in compaction
 * mode (records keep sequence number and kind); the merged rows, rebuilt
 * in the KeyValue layout (_KEY_ columns, _SEQUENCE_NUMBER, _VALUE_KIND,
 * the fields), go through a KeyValue file writer into the bucket's
 * directory; its files are then given the max level and file source
 * COMPACT. One commit of kind COMPACT covers every bucket; on any failure
 * the files written are removed.
 *-------------------------------------------------------------------------
 */
#include "lsm/compact.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/arena.h"
#include "common/uuid.h"
#include "index/deletion_vector.h"
#include "lsm/kv_file_writer.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_reader.h"
#include "table/commit.h"
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
	int			nfields;
	int		   *all_fields;
	const pm_type **out_types;
	int32_t		max_level;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		file_counter;
	/* files written so far (removed on failure) */
	pm_commit_change *changes;
	int			nchanges;
} compact_state;

static bool
option_true(const pm_schema *s, const char *key)
{
	const char *v = pm_schema_option(s, key);

	return v != NULL && strcasecmp(v, "true") == 0;
}

static pm_code
int_option(const pm_schema *s, const char *key, int def, int *out, pm_error *err)
{
	const char *v = pm_schema_option(s, key);
	char	   *end;
	long		n;

	*out = def;
	if (v == NULL)
		return PM_OK;
	n = strtol(v, &end, 10);
	if (end == v || *end != '\0' || n < 1 || n > 1000)
		return pm_fail(err, PM_ERR_INVALID, "table option %s = \"%s\" is not a valid level count",
					   key, v);
	*out = (int) n;
	return PM_OK;
}

static pm_code
run_next(void *state, pm_batch **batch, pm_error *err)
{
	compact_run *r = state;

	*batch = NULL;
	if (r->reader == NULL)
		PM_TRY(pm_data_file_reader_open(r->table, r->file, r->fields, r->nfields, true, 0,
										&r->reader, err));
	return pm_data_file_reader_next(r->reader, batch, err);
}

static void
run_close(void *state)
{
	compact_run *r = state;

	pm_data_file_reader_close(r->reader);
	r->reader = NULL;
}

/*
 * The relative partition directory ("k=v/...") the user's "k1=v1,k2=v2"
 * names, in partition key order; PM_ERR_INVALID for a key that is not a
 * partition key or a missing one.
 */
static pm_code
wanted_partition_path(const compact_state *cs, const char *spec, char **out, pm_error *err)
{
	const pm_schema *s = cs->schema;
	int			n = s->npartition_keys;
	const char **vals = pm_arena_zalloc(cs->arena, sizeof(char *) * (size_t) (n + 1));
	char	   *copy = pm_arena_strdup(cs->arena, spec);
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
	path = pm_arena_alloc(cs->arena, len);
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

/* Java's pickFullCompaction: nothing to do when every file is at the max level. */
static bool
bucket_needs_compaction(const compact_state *cs, const pm_split *sp)
{
	for (int i = 0; i < sp->nfiles; i++)
		if (sp->files[i]->level != cs->max_level)
			return true;
	return false;
}

/* Merge the files of one bucket into new files at the max level. */
static pm_code
compact_bucket(compact_state *cs, const pm_split *sp, pm_commit_change *c, int64_t *rows,
			   pm_error *err)
{
	const pm_kv_layout *l = cs->layout;
	int			nk = l->nkeys;
	pm_run_source *runs = pm_arena_zalloc(cs->arena, sizeof(pm_run_source) * (size_t) sp->nfiles);
	compact_run *crs = pm_arena_zalloc(cs->arena, sizeof(compact_run) * (size_t) sp->nfiles);
	pm_data_file_meta *deleted = pm_arena_zalloc(cs->arena,
												 sizeof(pm_data_file_meta) * (size_t) sp->nfiles);
	pm_vector  *cols = pm_arena_zalloc(cs->arena, sizeof(pm_vector) *
									   (size_t) (nk + 2 + cs->nfields));
	pm_merge_reader *m = NULL;
	pm_kv_file_writer *w = NULL;
	pm_data_file_meta *files = NULL;
	int			nfiles = 0;
	pm_code		rc;

	if (runs == NULL || crs == NULL || deleted == NULL || cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory compacting");
	if (sp->total_buckets > 0 && sp->total_buckets != cs->opt.bucket)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "bucket %d was written with %d buckets, the table now has %d: rescaled buckets are not compacted",
					   sp->bucket, sp->total_buckets, cs->opt.bucket);
	for (int i = 0; i < sp->nfiles; i++)
	{
		if (sp->files[i]->deletion_file != NULL)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "data file \"%s\" has a deletion vector: compacting deletion vectors is not supported yet",
						   sp->files[i]->file_name);
		crs[i].table = cs->table;
		crs[i].file = sp->files[i];
		crs[i].fields = cs->all_fields;
		crs[i].nfields = cs->nfields;
		runs[i].next = run_next;
		runs[i].close = run_close;
		runs[i].state = &crs[i];
		runs[i].level = sp->files[i]->level;
		deleted[i] = *sp->files[i];
	}
	PM_TRY(pm_merge_reader_open(cs->env, cs->engine, nk, cs->out_types, cs->nfields, runs,
								sp->nfiles, 0, &m, err));
	pm_merge_reader_set_lookup(m, cs->lookup);
	pm_merge_reader_set_kv_output(m, l->file_type->fields[nk].type,
								  l->file_type->fields[nk + 1].type);
	rc = pm_kv_file_writer_open(cs->env, cs->io, l, sp->bucket_path, cs->uuid,
								&cs->file_counter, cs->arena, &w, err);
	while (rc == PM_OK)
	{
		pm_batch   *b;
		pm_batch	kv;

		if ((rc = pm_merge_reader_next(m, &b, err)) != PM_OK || b == NULL)
			break;
		/* merged output: the fields, then seq and kind; the file: keys, seq, kind, fields */
		for (int k = 0; k < nk; k++)
			cols[k] = b->cols[l->key_fields[k]];
		cols[nk] = b->cols[cs->nfields];
		cols[nk + 1] = b->cols[cs->nfields + 1];
		for (int j = 0; j < cs->nfields; j++)
			cols[nk + 2 + j] = b->cols[j];
		memset(&kv, 0, sizeof(kv));
		kv.nrows = b->nrows;
		kv.ncols = nk + 2 + cs->nfields;
		kv.cols = cols;
		rc = pm_kv_file_writer_write(w, &kv, err);
		*rows += b->nrows;
	}
	pm_merge_reader_close(m);
	if (w != NULL)
	{
		if (rc == PM_OK)
			rc = pm_kv_file_writer_close(w, &files, &nfiles, err);
		else
			pm_kv_file_writer_abort(w, &files, &nfiles);
	}
	/* recorded even on failure, so that the caller removes them */
	for (int i = 0; i < nfiles; i++)
	{
		files[i].level = cs->max_level;
		files[i].file_source = 1;	/* COMPACT */
	}
	c->partition = sp->partition;
	c->partition_len = sp->partition_len;
	c->bucket = sp->bucket;
	c->total_buckets = cs->opt.bucket;
	c->nadded = nfiles;
	c->added = files;
	c->ndeleted = sp->nfiles;
	c->deleted = deleted;
	return rc;
}

static void
remove_written(compact_state *cs)
{
	for (int i = 0; i < cs->nchanges; i++)
		for (int f = 0; f < cs->changes[i].nadded; f++)
			pm_data_file_remove_written(cs->io, &cs->changes[i].added[f]);
}

static pm_code
setup(compact_state *cs, pm_error *err)
{
	const pm_schema *s = cs->schema;
	const char *engine = pm_schema_option(s, "merge-engine");
	const char *producer = pm_schema_option(s, "changelog-producer");
	int			trigger,
				levels;

	if (s->nprimary_keys == 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "compacting append tables is not supported yet (only primary-key tables)");
	if (option_true(s, "deletion-vectors.enabled"))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option deletion-vectors.enabled = \"true\": compacting tables with deletion vectors is not supported yet");
	if (engine != NULL && strcasecmp(engine, "first-row") == 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option merge-engine = \"first-row\": compacting first-row tables is not supported yet");
	PM_TRY(pm_write_options_parse(s, cs->arena, &cs->opt, err));
	if (cs->opt.bucket < 1)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option bucket = %d: only tables with a fixed bucket count are compacted",
					   cs->opt.bucket);
	/* CoreOptions.numLevels: num-levels, else compaction trigger + 1 */
	PM_TRY(int_option(s, "num-sorted-run.compaction-trigger", 5, &trigger, err));
	PM_TRY(int_option(s, "num-levels", trigger + 1, &levels, err));
	if (levels < 2)
		return pm_fail(err, PM_ERR_INVALID, "table option num-levels must be at least 2");
	cs->max_level = levels - 1;
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
		option_true(s, "force-lookup");
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
		PM_TRY(wanted_partition_path(cs, o->partition, &want, err));
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
		if (bucket_needs_compaction(cs, sp))
			total++;
	}
	for (int i = 0; rc == PM_OK && i < nsplits; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);
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
		if (!bucket_needs_compaction(cs, sp))
			continue;
		rc = compact_bucket(cs, sp, &cs->changes[cs->nchanges++], &rows, err);
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

pm_code
pm_table_compact(pm_table *table, const char *table_path, const pm_compact_options *options,
				 pm_compact_result *result, pm_error *err)
{
	compact_state cs;
	pm_code		rc;

	memset(result, 0, sizeof(*result));
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
