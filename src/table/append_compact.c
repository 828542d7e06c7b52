/*-------------------------------------------------------------------------
 * append_compact.c
 *	  Compaction of append tables (see append_compact.h): pick the files
 *	  per bucket or per partition as Java does, rewrite each pick through a
 *	  rolling format writer (the files' rows in pick order, all columns of
 *	  the latest schema), commit one COMPACT snapshot.
 *
 * The output files are described as Java's RowDataFileWriter describes
 * them (DataFileMeta.forAppend with FileSource.COMPACT): empty min/max key
 * and key statistics, value statistics by metadata.stats-mode, sequence
 * numbers [first, first + rows - 1] counted on from the pick's first
 * file's minimum, level 0, schema id of the latest schema.
 *-------------------------------------------------------------------------
 */
#include "table/append_compact.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/name_set.h"
#include "common/uuid.h"
#include "common/vector_builder.h"
#include "format/format_writer.h"
#include "index/deletion_vector.h"
#include "index/deletion_vector_write.h"
#include "row/binary_row.h"
#include "table/commit.h"
#include "table/data_file_index.h"
#include "table/data_file_path.h"
#include "table/index_manifest.h"
#include "table/partition_path.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/stats_build.h"
#include "table/table_write.h"
#include "table/write_options.h"

/* BucketedAppendCompactManager.FULL_COMPACT_MIN_FILE */
#define FULL_COMPACT_MIN_FILE 3

typedef struct append_compact
{
	pm_table   *table;
	const pm_env *env;
	pm_fileio  *io;
	const pm_schema *schema;
	pm_arena   *arena;
	pm_write_options opt;
	pm_format_write_options fopt;
	int64_t		compaction_file_size;	/* target / 10 * 7 */
	int64_t		open_file_cost; /* source.split.open-file-cost */
	int			min_file_num;	/* compaction.min.file-num */
	bool		force_rewrite_all;	/* compaction.force-rewrite-all-files */
	double		delete_ratio;	/* compaction.delete-ratio-threshold */
	int		   *all_fields;
	uint8_t    *empty_row;
	int32_t		empty_row_len;
	pm_commit_change *changes;
	int			nchanges;
	int			cap;
	/* fixed-bucket tables with deletion vectors */
	const char *table_path;
	bool		dv;
	char		index_uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		index_counter;
	/* bucket-unaware tables with deletion vectors: the snapshot's index manifest */
	pm_index_manifest_entry *index_entries;
	int			nindex_entries;
	/* at commit (pm_append_compact_at_commit): these buckets, picked as the writer does */
	const pm_append_bucket *only;
	int			nonly;
	const char *commit_user;	/* NULL: a fresh one */
	int64_t		commit_identifier;
} append_compact;

static pm_code
setup(append_compact *ac, pm_error *err)
{
	const pm_schema *s = ac->schema;
	const char *v;
	pm_value	none;
	size_t		len;
	const pm_type *empty;

	PM_TRY(pm_write_options_parse(s, ac->arena, &ac->opt, err));
	ac->dv = pm_schema_bool_option(s, "deletion-vectors.enabled", false);
	ac->compaction_file_size = ac->opt.target_file_size / 10 * 7;
	ac->open_file_cost = 4LL * 1024 * 1024;
	if ((v = pm_schema_option(s, "source.split.open-file-cost")) != NULL)
		PM_TRY(pm_parse_memory_size("source.split.open-file-cost", v, &ac->open_file_cost, err));
	ac->min_file_num = 5;
	if ((v = pm_schema_option(s, "compaction.min.file-num")) != NULL)
	{
		char	   *end;
		long		n = strtol(v, &end, 10);

		if (end == v || *end != '\0' || n < 1 || n > 1000000)
			return pm_fail(err, PM_ERR_INVALID,
						   "invalid value \"%.100s\" for option \"compaction.min.file-num\"", v);
		ac->min_file_num = (int) n;
	}
	ac->force_rewrite_all = pm_schema_bool_option(s, "compaction.force-rewrite-all-files", false);
	ac->delete_ratio = 0.2;
	if ((v = pm_schema_option(s, "compaction.delete-ratio-threshold")) != NULL)
	{
		char	   *end;
		double		d = strtod(v, &end);

		/* Java takes any double; a ratio out of [0, 1] means always or never */
		if (end == v || *end != '\0' || !isfinite(d))
			return pm_fail(err, PM_ERR_INVALID,
						   "invalid value \"%.100s\" for option \"compaction.delete-ratio-threshold\"", v);
		ac->delete_ratio = d;
	}
	ac->fopt.schema = s->row_type;
	ac->fopt.compression = ac->opt.compression;
	ac->fopt.zstd_level = ac->opt.zstd_level;
	ac->fopt.row_group_bytes = ac->opt.row_group_bytes;
	ac->fopt.page_bytes = ac->opt.page_bytes;
	ac->fopt.dictionary = ac->opt.dictionary;
	ac->fopt.orc = ac->opt.orc;
	ac->all_fields = pm_arena_alloc(ac->arena, sizeof(int) * (size_t) (s->row_type->nfields + 1));
	empty = pm_type_new_row(ac->arena, NULL, 0, false);
	if (ac->all_fields == NULL || empty == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < s->row_type->nfields; i++)
		ac->all_fields[i] = i;
	memset(&none, 0, sizeof(none));
	PM_TRY(pm_binary_row_encode_serialized(ac->arena, empty, &none, &ac->empty_row, &len, err));
	ac->empty_row_len = (int32_t) len;
	return PM_OK;
}

/* The rolling writer of one pick. */
typedef struct rewriter
{
	append_compact *ac;
	const pm_split *sp;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		counter;		/* file name counter */
	int64_t		next_seq;
	pm_format_writer *fw;
	pm_file_index_writer *fiw;	/* the table's file indexes (NULL: none) */
	char	   *name;
	char	   *path;			/* the open file's local path */
	char	   *external;		/* its _EXTERNAL_PATH, or NULL */
	int64_t		rows;
	pm_data_file_meta *files;
	int			nfiles;
	int			cap;
} rewriter;

static pm_code
finish_file(rewriter *rw, pm_error *err)
{
	append_compact *ac = rw->ac;
	pm_format_write_result res;
	pm_data_file_meta *m;
	const char **cols;
	int			ncols;
	pm_code		rc;

	if (rw->fw == NULL)
		return PM_OK;
	rc = pm_format_writer_finish(rw->fw, ac->arena, &res, err);
	rw->fw = NULL;
	if (rc != PM_OK)
	{
		pm_file_index_writer_free(rw->fiw);
		rw->fiw = NULL;
		return rc;				/* the format writer discarded the file */
	}
	if (rw->nfiles == rw->cap)
	{
		int			ncap = rw->cap * 2 + 4;
		pm_data_file_meta *grown = pm_arena_zalloc(ac->arena, sizeof(*grown) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (rw->nfiles > 0)
			memcpy(grown, rw->files, sizeof(*grown) * (size_t) rw->nfiles);
		rw->files = grown;
		rw->cap = ncap;
	}
	m = &rw->files[rw->nfiles];
	memset(m, 0, sizeof(*m));
	m->file_name = rw->name;
	m->path = rw->path;
	m->external_path = rw->external;
	rw->nfiles++;				/* from here on a failure removes it */
	if (res.row_count != rw->rows)
		return pm_fail(err, PM_ERR_CORRUPT, "%s: the format writer wrote %lld rows, not %lld",
					   m->path, (long long) res.row_count, (long long) rw->rows);
	m->format = ac->opt.format;
	m->file_size = res.file_size;
	m->row_count = res.row_count;
	m->min_key = m->max_key = ac->empty_row;
	m->min_key_len = m->max_key_len = ac->empty_row_len;
	m->key_stats.min_values = m->key_stats.max_values = ac->empty_row;
	m->key_stats.min_values_len = m->key_stats.max_values_len = ac->empty_row_len;
	PM_TRY(pm_value_stats_build(ac->schema->row_type, ac->opt.stats_modes, ac->opt.stats_dense,
								ac->opt.format, res.stats, ac->arena, &m->value_stats, &cols,
								&ncols, err));
	m->value_stats_cols = cols;
	m->nvalue_stats_cols = ncols;
	m->min_sequence_number = rw->next_seq - rw->rows;
	m->max_sequence_number = rw->next_seq - 1;
	m->schema_id = ac->schema->id;
	m->level = 0;
	m->has_creation_time = true;
	m->creation_time_millis = pm_local_wall_clock_millis();
	m->delete_row_count = 0;
	m->file_source = 1;			/* COMPACT */
	m->nwrite_cols = -1;
	/* compactRewrite's RowDataRollingFileWriter writes the table's file indexes too */
	rc = pm_data_file_index_finish(rw->fiw, ac->io, m, ac->arena, err);
	pm_file_index_writer_free(rw->fiw);
	rw->fiw = NULL;
	return rc;
}

static pm_code
write_batch(rewriter *rw, const pm_batch *b, pm_error *err)
{
	append_compact *ac = rw->ac;

	if (rw->fw == NULL)
	{
		char	   *path;

		rw->name = pm_arena_sprintf(ac->arena, "%s%s-%lld.%s", ac->opt.data_file_prefix,
									rw->uuid, (long long) rw->counter++, ac->opt.file_extension);
		if (rw->name == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		/* the compaction's DataFilePathFactory: external paths too */
		PM_TRY(pm_write_options_new_file(&ac->opt, rw->sp->bucket_path, rw->name, ac->arena,
										 &rw->path, &rw->external, err));
		path = rw->path;
		PM_TRY(pm_write_options_mkdirs(ac->io, rw->sp->bucket_path, path, rw->external, false,
									   ac->arena, err));
		if (ac->opt.file_index != NULL)
			PM_TRY(pm_file_index_writer_open(ac->env, ac->opt.file_index, &rw->fiw, err));
		if (pm_format_writer_open(ac->opt.format, ac->env, ac->io, path, &ac->fopt, &rw->fw,
								  err) != PM_OK)
		{
			pm_file_index_writer_free(rw->fiw);
			rw->fiw = NULL;
			return err->code;
		}
		rw->rows = 0;
	}
	PM_TRY(pm_format_writer_write(rw->fw, b, err));
	if (rw->fiw != NULL)
		PM_TRY(pm_file_index_writer_write(rw->fiw, b, 0, err));
	rw->rows += b->nrows;
	rw->next_seq += b->nrows;
	if (pm_format_writer_estimated_size(rw->fw) >= ac->opt.target_file_size)
		PM_TRY(finish_file(rw, err));
	return PM_OK;
}

static pm_code
read_dv(append_compact *ac, const pm_data_file_meta *f, pm_deletion_vector **dv, pm_error *err)
{
	const pm_deletion_file *d = f->deletion_file;
	pm_code		rc;

	PM_TRY(pm_deletion_vector_read(ac->env, ac->io, d->path, d->offset, d->length, dv, err));
	rc = pm_deletion_vector_check(*dv, f->row_count, d->cardinality, err);
	if (rc != PM_OK)
	{
		pm_deletion_vector_destroy(*dv);
		*dv = NULL;
	}
	return rc;
}

/* The rows of b that dv keeps, as a new batch in ac->arena. */
static pm_code
dv_filter(append_compact *ac, const pm_deletion_vector *dv, pm_batch *b, pm_batch **out,
		  pm_error *err)
{
	uint8_t    *sel = pm_arena_alloc(ac->arena, (size_t) b->nrows);
	pm_batch   *nb = pm_arena_zalloc(ac->arena, sizeof(*nb));
	pm_vector_builder bld;

	if (sel == NULL || nb == NULL ||
		(nb->cols = pm_arena_zalloc(ac->arena, sizeof(pm_vector) * (size_t) (b->ncols + 1))) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	nb->ncols = b->ncols;
	nb->first_row = b->first_row;
	nb->nrows = pm_deletion_vector_apply(dv, b, sel);
	if (nb->nrows == b->nrows)
	{
		*out = b;
		return PM_OK;
	}
	for (int c = 0; c < b->ncols; c++)
	{
		if (!pm_vector_builder_init(&bld, &nb->cols[c], b->cols[c].type, nb->nrows, ac->arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < b->nrows; i++)
			if (sel[i] && !pm_vector_builder_append(&bld, &b->cols[c], i))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	*out = nb;
	return PM_OK;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* Write m as a new index file of sp's bucket (*f). */
static pm_code
write_index_file(append_compact *ac, const pm_split *sp, pm_dv_maintainer *m,
				 pm_dv_index_file *f, pm_error *err)
{
	char	   *dir = pm_index_dir_of_bucket(ac->table_path, ac->opt.index_in_data_dir,
											 sp->bucket_path, ac->arena);

	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (ac->index_uuid[0] == '\0')
		PM_TRY(pm_uuid_random(ac->index_uuid, err));
	return pm_dv_maintainer_write(m, ac->io, dir, ac->index_uuid, &ac->index_counter, ac->arena,
								  f, err);
}

/*
 * The bucket's DVs (BucketedDvMaintainer restored from its files) without
 * those of the compacted files, written as the bucket's new index file
 * (CompactDeletionFile.generateFiles), replacing the old one.
 */
static pm_code
dv_index_changes(append_compact *ac, const pm_split *sp, const pm_data_file_meta **files, int n,
				 pm_commit_change *c, pm_error *err)
{
	pm_dv_maintainer *m;
	pm_dv_index_file f;
	pm_index_manifest_entry *add;
	pm_index_manifest_entry *del;
	int			ndel = 0;
	pm_code		rc = PM_OK;

	del = pm_arena_zalloc(ac->arena, sizeof(*del) * (size_t) (sp->nfiles + 1));
	add = pm_arena_zalloc(ac->arena, sizeof(*add));
	if (del == NULL || add == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_dv_maintainer_create(ac->env, ac->opt.dv_bitmap64, &m, err));
	for (int i = 0; rc == PM_OK && i < sp->nfiles; i++)
	{
		const pm_deletion_file *d = sp->files[i]->deletion_file;
		pm_deletion_vector *dv;
		bool		seen = false;

		if (d == NULL)
			continue;
		rc = read_dv(ac, sp->files[i], &dv, err);
		if (rc != PM_OK)
			break;
		rc = pm_dv_maintainer_restore(m, sp->files[i]->file_name, dv, err);
		pm_deletion_vector_destroy(dv);
		for (int k = 0; k < ndel; k++)
			seen |= strcmp(del[k].file_name, base_name(d->path)) == 0;
		if (!seen)
		{
			del[ndel].index_type = "DELETION_VECTORS";
			del[ndel].file_name = base_name(d->path);
			ndel++;
		}
	}
	for (int i = 0; rc == PM_OK && i < n; i++)
		pm_dv_maintainer_remove(m, files[i]->file_name);
	if (rc == PM_OK && pm_dv_maintainer_modified(m))
	{
		rc = write_index_file(ac, sp, m, &f, err);
		if (rc == PM_OK)
		{
			c->nindex_added = 1;
			c->index_added = add;	/* from here on a failure removes it */
			rc = pm_index_entry_of_dv_file(&f, ac->arena, add, err);
			c->nindex_deleted = ndel;
			c->index_deleted = del;
		}
	}
	pm_dv_maintainer_free(m);
	return rc;
}

/*
 * AppendDeleteFileMaintainer of a bucket-unaware partition after
 * AppendCompactTask.doCompact notified the removal of the compacted
 * files' DVs (persist, writeUnchangedDeletionVector): every index file
 * holding a DV of a compacted file is deleted, and the DVs it holds of
 * other data files are written again into a new index file (their bytes
 * as they were: restored, not re-deleted). No other index file changes.
 */
static pm_code
unaware_dv_index_changes(append_compact *ac, const pm_split *sp, const pm_data_file_meta **files,
						 int n, pm_commit_change *c, pm_error *err)
{
	pm_index_manifest_entry *add;
	pm_index_manifest_entry *del;
	int			nadd = 0,
				ndel = 0;
	pm_name_set *compacted = pm_name_set_create(ac->arena);
	pm_code		rc = PM_OK;

	add = pm_arena_zalloc(ac->arena, sizeof(*add) * (size_t) (n + 1));
	del = pm_arena_zalloc(ac->arena, sizeof(*del) * (size_t) (n + 1));
	if (add == NULL || del == NULL || compacted == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		if (!pm_name_set_add_str(compacted, files[i]->file_name))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		const pm_deletion_file *d = files[i]->deletion_file;
		const char *name;
		const pm_index_manifest_entry *e = NULL;
		bool		seen = false;
		int			kept = 0;

		if (d == NULL)
			continue;
		name = base_name(d->path);
		for (int k = 0; k < ndel && !seen; k++)
			seen = strcmp(del[k].file_name, name) == 0;
		if (seen)
			continue;
		for (int k = 0; k < ac->nindex_entries && e == NULL; k++)
		{
			const pm_index_manifest_entry *x = &ac->index_entries[k];

			if (x->kind == 0 && strcmp(x->index_type, "DELETION_VECTORS") == 0 &&
				strcmp(x->file_name, name) == 0 && x->partition_len == sp->partition_len &&
				memcmp(x->partition, sp->partition, (size_t) sp->partition_len) == 0)
				e = x;
		}
		if (e == NULL)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "deletion vector index file \"%s\" of data file \"%s\" is not in the snapshot's index manifest",
						   name, files[i]->file_name);
		for (int r = 0; r < e->nranges; r++)
			kept += !pm_name_set_contains_str(compacted, e->ranges[r].data_file);
		if (kept > 0)
		{
			pm_dv_maintainer *m;
			pm_dv_index_file f;

			PM_TRY(pm_dv_maintainer_create(ac->env, ac->opt.dv_bitmap64, &m, err));
			/* the index file is the one d->path names (resolved as the scan resolved it) */
			for (int r = 0; rc == PM_OK && r < e->nranges; r++)
			{
				const pm_dv_range *range = &e->ranges[r];
				pm_deletion_vector *dv;

				if (pm_name_set_contains_str(compacted, range->data_file))
					continue;
				rc = pm_deletion_vector_read(ac->env, ac->io, d->path, range->offset,
											 range->length, &dv, err);
				if (rc == PM_OK)
				{
					rc = pm_deletion_vector_check(dv, -1, range->cardinality, err);
					if (rc == PM_OK)
						rc = pm_dv_maintainer_restore(m, range->data_file, dv, err);
					pm_deletion_vector_destroy(dv);
				}
			}
			if (rc == PM_OK)
				rc = write_index_file(ac, sp, m, &f, err);
			pm_dv_maintainer_free(m);
			PM_TRY(rc);
			/* on the change before its entries are filled: a failure below removes it */
			add[nadd].path = f.path;
			c->index_added = add;
			c->nindex_added = ++nadd;
			PM_TRY(pm_index_entry_of_dv_file(&f, ac->arena, &add[nadd - 1], err));
		}
		del[ndel++] = *e;
	}
	c->nindex_added = nadd;
	c->index_added = add;
	c->nindex_deleted = ndel;
	c->index_deleted = del;
	return PM_OK;
}

/* BaseAppendFileStoreWrite.compactRewrite of files (in this order) of split sp. */
static pm_code
rewrite(append_compact *ac, const pm_split *sp, const pm_data_file_meta **files, int n,
		pm_compact_result *res, pm_error *err)
{
	rewriter	rw;
	pm_commit_change *c;
	pm_data_file_meta *deleted;
	pm_code		rc = PM_OK;

	if (ac->nchanges == ac->cap)
	{
		int			ncap = ac->cap * 2 + 8;
		pm_commit_change *grown = pm_arena_zalloc(ac->arena, sizeof(*grown) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (ac->nchanges > 0)
			memcpy(grown, ac->changes, sizeof(*grown) * (size_t) ac->nchanges);
		ac->changes = grown;
		ac->cap = ncap;
	}
	deleted = pm_arena_zalloc(ac->arena, sizeof(*deleted) * (size_t) n);
	if (deleted == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(&rw, 0, sizeof(rw));
	rw.ac = ac;
	rw.sp = sp;
	rw.next_seq = files[0]->min_sequence_number;
	PM_TRY(pm_uuid_random(rw.uuid, err));
	for (int i = 0; rc == PM_OK && i < n; i++)
	{
		pm_data_file_reader *r = NULL;

		pm_deletion_vector *dv = NULL;

		if (files[i]->deletion_file != NULL && !ac->dv)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "data file \"%s\" has a deletion vector: compacting deletion vectors is not supported yet",
						   files[i]->file_name);
		deleted[i] = *files[i];
		if (files[i]->deletion_file != NULL)
			rc = read_dv(ac, files[i], &dv, err);
		if (rc == PM_OK)
			rc = pm_data_file_reader_open(ac->table, files[i], ac->all_fields,
										  ac->schema->row_type->nfields, false, 0, &r, err);
		while (rc == PM_OK)
		{
			pm_batch   *b;

			if ((rc = pm_data_file_reader_next(r, &b, err)) != PM_OK || b == NULL)
				break;
			/* the rows the file's deletion vector keeps */
			if (dv != NULL && b->nrows > 0)
				rc = dv_filter(ac, dv, b, &b, err);
			if (rc == PM_OK && b->nrows > 0)
				rc = write_batch(&rw, b, err);
		}
		pm_data_file_reader_close(r);
		pm_deletion_vector_destroy(dv);
	}
	if (rc == PM_OK)
		rc = finish_file(&rw, err);
	else if (rw.fw != NULL)
	{
		pm_format_writer_abort(rw.fw);
		rw.fw = NULL;
	}
	pm_file_index_writer_free(rw.fiw);
	c = &ac->changes[ac->nchanges++];
	c->partition = sp->partition;
	c->partition_len = sp->partition_len;
	c->bucket = sp->bucket;
	c->total_buckets = ac->opt.bucket > 0 ? ac->opt.bucket : -1;
	c->nadded = rw.nfiles;
	c->added = rw.files;
	c->ndeleted = rc == PM_OK ? n : 0;
	c->deleted = deleted;
	/*
	 * The inputs' DVs go: BucketedAppendCompactManager.compact (the bucket's
	 * file), AppendCompactTask.doCompact (the index files holding them)
	 */
	if (rc == PM_OK && ac->dv)
		rc = ac->opt.bucket > 0 ? dv_index_changes(ac, sp, files, n, c, err) :
			unaware_dv_index_changes(ac, sp, files, n, c, err);
	if (rc == PM_OK)
	{
		for (int i = 0; i < rw.nfiles; i++)
			res->rows_out += rw.files[i].row_count;
		res->buckets++;
		res->files_in += n;
		res->files_out += rw.nfiles;
	}
	return rc;
}

/* FullCompactTask: the files of a fixed bucket by minimum sequence number. */
static pm_code
compact_fixed_bucket(append_compact *ac, const pm_split *sp, pm_compact_result *res,
					 bool *done, pm_error *err)
{
	const pm_data_file_meta **f = pm_arena_zalloc(ac->arena, sizeof(void *) * (size_t) (sp->nfiles + 1));
	int			n = sp->nfiles,
				start = 0,
				big = 0,
				small = 0;

	*done = false;
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		int			k = i;

		for (; k > 0 && f[k - 1]->min_sequence_number > sp->files[i]->min_sequence_number; k--)
			f[k] = f[k - 1];
		f[k] = sp->files[i];
	}
	if (ac->dv)
	{
		/* FullCompactTask with DVs: large files without one at the head stay, the rest is rewritten */
		while (!ac->force_rewrite_all && start < n &&
			   f[start]->file_size >= ac->compaction_file_size && f[start]->deletion_file == NULL)
			start++;
		if (n - start == 0)
			return PM_OK;
		*done = true;
		return rewrite(ac, sp, f + start, n - start, res, err);
	}
	if (!ac->force_rewrite_all && n < FULL_COMPACT_MIN_FILE)
		return PM_OK;			/* triggerFullCompaction: too few files */
	/* remove large files at the head */
	while (!ac->force_rewrite_all && start < n && f[start]->file_size >= ac->compaction_file_size)
		start++;
	for (int i = start; i < n; i++)
	{
		if (f[i]->file_size >= ac->compaction_file_size)
			big++;
		else
			small++;
	}
	if (!ac->force_rewrite_all && !(small > big && n - start >= FULL_COMPACT_MIN_FILE))
		return PM_OK;
	if (n - start == 0)
		return PM_OK;
	*done = true;
	return rewrite(ac, sp, f + start, n - start, res, err);
}

/*
 * At commit (AppendOnlyWriter.flush, then triggerCompaction(false)):
 * BucketedAppendCompactManager.pickCompactBefore over the bucket's files
 * by minimum sequence number, a window sliding right while it holds
 * 2 x target-file-size; the first one of compaction.min.file-num files is
 * rewritten (AutoCompactTask: no large file left out; with deletion
 * vectors, the picked files' DVs go).
 */
static pm_code
compact_pick_before(append_compact *ac, const pm_split *sp, pm_compact_result *res,
					bool *done, pm_error *err)
{
	const pm_data_file_meta **f = pm_arena_zalloc(ac->arena, sizeof(void *) * (size_t) (sp->nfiles + 1));
	int			n = sp->nfiles,
				start = 0;
	int64_t		total = 0;

	*done = false;
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		int			k = i;

		for (; k > 0 && f[k - 1]->min_sequence_number > sp->files[i]->min_sequence_number; k--)
			f[k] = f[k - 1];
		f[k] = sp->files[i];
	}
	for (int i = 0; i < n; i++)
	{
		total += f[i]->file_size;
		if (i - start + 1 >= ac->min_file_num)
		{
			*done = true;
			return rewrite(ac, sp, f + start, i - start + 1, res, err);
		}
		if (total >= ac->opt.target_file_size * 2)
			total -= f[start++]->file_size;
	}
	return PM_OK;
}

static bool
is_written(const append_compact *ac, const pm_split *sp)
{
	for (int i = 0; i < ac->nonly; i++)
		if (ac->only[i].bucket == sp->bucket && ac->only[i].partition_len == sp->partition_len &&
			memcmp(ac->only[i].partition, sp->partition, (size_t) sp->partition_len) == 0)
			return true;
	return false;
}

/*
 * AppendCompactCoordinator.SubCoordinator.pack: files (which it sorts by
 * size, stably) packed into bins, each file counting its size +
 * source.split.open-file-cost; a bin of 2+ files reaching 2 x
 * target-file-size is rewritten, and the last bin when it holds
 * compaction.min.file-num files.
 */
static pm_code
pack(append_compact *ac, const pm_split *sp, const pm_data_file_meta **f, int n,
	 pm_compact_result *res, int *tasks, pm_error *err)
{
	int			bin_start = 0;
	int64_t		total = 0;

	for (int i = 1; i < n; i++)
	{
		const pm_data_file_meta *x = f[i];
		int			k = i;

		for (; k > 0 && f[k - 1]->file_size > x->file_size; k--)
			f[k] = f[k - 1];
		f[k] = x;
	}
	for (int i = 0; i < n; i++)
	{
		total += f[i]->file_size + ac->open_file_cost;
		/* enoughContent: more than one file and 2 x target-file-size */
		if (i - bin_start + 1 > 1 && total >= ac->opt.target_file_size * 2)
		{
			PM_TRY(rewrite(ac, sp, f + bin_start, i - bin_start + 1, res, err));
			(*tasks)++;
			bin_start = i + 1;
			total = 0;
		}
	}
	/* enoughInputFiles: the rest when it has compaction.min.file-num files */
	if (n - bin_start >= ac->min_file_num && n - bin_start > 1)
	{
		PM_TRY(rewrite(ac, sp, f + bin_start, n - bin_start, res, err));
		(*tasks)++;
	}
	return PM_OK;
}

/*
 * AppendCompactCoordinator.shouldCompact: under the compaction file size,
 * or (tooHighDeleteRatio) a DV deleting more than
 * compaction.delete-ratio-threshold of the file's rows.
 */
static bool
should_compact(const append_compact *ac, const pm_data_file_meta *f)
{
	const pm_deletion_file *d = f->deletion_file;

	if (f->file_size < ac->compaction_file_size)
		return true;
	return d != NULL && (d->cardinality < 0 ||
						 (double) d->cardinality > (double) f->row_count * ac->delete_ratio);
}

/*
 * AppendCompactCoordinator.packInDeletionVectorVMode: the picked files
 * with a DV grouped by the index file holding it (a compaction rewrites
 * the index files of its inputs' DVs: no two tasks may share one), the
 * groups by total size, packed into bins group by group (a bin of 2+
 * files reaching 2 x target-file-size is rewritten), the last bin
 * rewritten whatever its size ("for file with deletion vectors, must do
 * compaction"); the picked files without a DV packed as without DVs when
 * there are 2 or more.
 */
static pm_code
pack_dv(append_compact *ac, const pm_split *sp, const pm_data_file_meta **f, int n,
		pm_compact_result *res, int *tasks, pm_error *err)
{
	const pm_data_file_meta **bin = pm_arena_zalloc(ac->arena, sizeof(void *) * (size_t) (n + 1));
	const pm_data_file_meta **rest = pm_arena_zalloc(ac->arena, sizeof(void *) * (size_t) (n + 1));
	const char **group = pm_arena_zalloc(ac->arena, sizeof(char *) * (size_t) (n + 1));
	int64_t    *size = pm_arena_zalloc(ac->arena, sizeof(int64_t) * (size_t) (n + 1));
	int			ngroups = 0,
				nrest = 0,
				nbin = 0;
	int64_t		total = 0;

	if (bin == NULL || rest == NULL || group == NULL || size == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		const char *name;
		int			g = 0;

		if (f[i]->deletion_file == NULL)
		{
			rest[nrest++] = f[i];
			continue;
		}
		name = base_name(f[i]->deletion_file->path);
		while (g < ngroups && strcmp(group[g], name) != 0)
			g++;
		if (g == ngroups)
			group[ngroups++] = name;
		size[g] += f[i]->file_size;
	}
	/* the groups by total size (stable) */
	for (int i = 1; i < ngroups; i++)
	{
		const char *gn = group[i];
		int64_t		gs = size[i];
		int			k = i;

		for (; k > 0 && size[k - 1] > gs; k--)
		{
			group[k] = group[k - 1];
			size[k] = size[k - 1];
		}
		group[k] = gn;
		size[k] = gs;
	}
	for (int g = 0; g < ngroups; g++)
	{
		for (int i = 0; i < n; i++)
			if (f[i]->deletion_file != NULL &&
				strcmp(base_name(f[i]->deletion_file->path), group[g]) == 0)
			{
				bin[nbin++] = f[i];
				total += f[i]->file_size + ac->open_file_cost;
			}
		if (nbin > 1 && total >= ac->opt.target_file_size * 2)
		{
			PM_TRY(rewrite(ac, sp, bin, nbin, res, err));
			(*tasks)++;
			bin += nbin;		/* the files rewritten stay where rewrite saw them */
			nbin = 0;
			total = 0;
		}
	}
	if (nbin > 0)
	{
		PM_TRY(rewrite(ac, sp, bin, nbin, res, err));
		(*tasks)++;
	}
	if (nrest > 1)
		PM_TRY(pack(ac, sp, rest, nrest, res, tasks, err));
	return PM_OK;
}

/* AppendCompactCoordinator (batch) for one partition of a bucket -1 table. */
static pm_code
compact_unaware_partition(append_compact *ac, const pm_split *sp, pm_compact_result *res,
						  int *tasks, pm_error *err)
{
	const pm_data_file_meta **f = pm_arena_zalloc(ac->arena, sizeof(void *) * (size_t) (sp->nfiles + 1));
	int			n = 0;

	*tasks = 0;
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < sp->nfiles; i++)
		if (should_compact(ac, sp->files[i]))
			f[n++] = sp->files[i];
	if (ac->dv)
		return pack_dv(ac, sp, f, n, res, tasks, err);
	return pack(ac, sp, f, n, res, tasks, err);
}

static void
remove_written(append_compact *ac)
{
	for (int i = 0; i < ac->nchanges; i++)
		for (int f = 0; f < ac->changes[i].nadded; f++)
		{
			if (ac->changes[i].added[f].path != NULL)
				pm_data_file_remove_written(ac->io, &ac->changes[i].added[f]);
		}
	for (int i = 0; i < ac->nchanges; i++)
		for (int f = 0; f < ac->changes[i].nindex_added; f++)
			pm_fileio_remove_quietly(ac->io, ac->changes[i].index_added[f].path);
}

/*
 * The index manifest of the table's snapshot (what Java's
 * AppendDeleteFileMaintainer.forUnawareAppend reads per partition).
 */
static pm_code
load_index_manifest(append_compact *ac, const char *table_path, pm_error *err)
{
	int64_t		id = pm_table_snapshot_id(ac->table);
	pm_snapshot *snap;
	char	   *path;

	if (id <= 0)
		return PM_OK;
	PM_TRY(pm_snapshot_load(ac->io, table_path, id, ac->arena, &snap, err));
	if (snap->index_manifest == NULL)
		return PM_OK;
	path = pm_arena_sprintf(ac->arena, "%s/manifest/%s", table_path, snap->index_manifest);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return pm_index_manifest_read(ac->env, ac->io, path, ac->arena, &ac->index_entries,
								  &ac->nindex_entries, err);
}

static pm_code
compact_all(append_compact *ac, const char *table_path, const pm_compact_options *o,
			pm_compact_result *res, pm_error *err)
{
	pm_scan    *scan = NULL;
	char	   *want = NULL;
	int			nsplits,
				done = 0;
	pm_code		rc;

	PM_TRY(setup(ac, err));
	if (ac->only != NULL && ac->opt.bucket < 1)
		return PM_OK;			/* bucket -1: left to the dedicated compaction */
	if (ac->dv && ac->opt.bucket < 1)
		PM_TRY(load_index_manifest(ac, table_path, err));
	if (o != NULL && o->partition != NULL)
		PM_TRY(pm_compact_partition_path(ac->schema, ac->arena, o->partition, &want, err));
	PM_TRY(pm_table_scan_plan(ac->table, NULL, &scan, err));
	nsplits = pm_scan_split_count(scan);
	rc = PM_OK;
	for (int i = 0; rc == PM_OK && i < nsplits; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);
		int			tasks = 0;

		if (ac->only != NULL && !is_written(ac, sp))
			continue;
		if (want != NULL)
		{
			char	   *have;

			rc = pm_partition_path(ac->schema, ac->opt.partition_type,
								   ac->opt.partition_default_name, sp->partition_values,
								   ac->arena, &have, err);
			if (rc != PM_OK || strcmp(have, want) != 0)
				continue;
		}
		if (sp->total_buckets > 0 && ac->opt.bucket > 0 && sp->total_buckets != ac->opt.bucket)
		{
			rc = pm_fail(err, PM_ERR_UNSUPPORTED,
						 "bucket %d was written with %d buckets, the table now has %d: rescaled buckets are not compacted",
						 sp->bucket, sp->total_buckets, ac->opt.bucket);
			break;
		}
		if (ac->only != NULL)
		{
			bool		compacted;

			rc = compact_pick_before(ac, sp, res, &compacted, err);
			tasks = compacted ? 1 : 0;
		}
		else if (ac->opt.bucket > 0)
		{
			bool		compacted;

			rc = compact_fixed_bucket(ac, sp, res, &compacted, err);
			tasks = compacted ? 1 : 0;
		}
		else
			rc = compact_unaware_partition(ac, sp, res, &tasks, err);
		if (rc == PM_OK && tasks > 0 && o != NULL && o->progress != NULL)
			o->progress(o->progress_ctx, ++done, nsplits, res->rows_out);
	}
	if (rc == PM_OK && ac->nchanges > 0)
	{
		pm_commit_request req;
		char		user[PM_UUID_TEXT_LEN + 1];

		rc = pm_uuid_random(user, err);
		memset(&req, 0, sizeof(req));
		req.commit_user = ac->commit_user != NULL ? ac->commit_user : user;
		req.commit_identifier = ac->commit_user != NULL ? ac->commit_identifier : INT64_MAX;
		req.commit_kind = "COMPACT";
		req.deleted_files_dv_checked = ac->dv && ac->opt.bucket < 1;
		req.schema = ac->schema;
		req.nchanges = ac->nchanges;
		req.changes = ac->changes;
		if (rc == PM_OK)
			rc = pm_table_commit(ac->env, ac->io, table_path, &req, ac->arena,
								 &res->snapshot_id, err);
	}
	if (rc != PM_OK)
	{
		remove_written(ac);
		memset(res, 0, sizeof(*res));
	}
	pm_scan_free(scan);
	return rc;
}

static pm_code
run(pm_table *table, const char *table_path, const pm_compact_options *options,
	append_compact *at_commit, pm_compact_result *result, pm_error *err)
{
	append_compact ac;
	pm_code		rc;

	memset(result, 0, sizeof(*result));
	memset(&ac, 0, sizeof(ac));
	if (at_commit != NULL)
		ac = *at_commit;
	ac.table = table;
	ac.env = pm_table_env(table);
	ac.io = pm_table_fileio(table);
	ac.schema = pm_table_schema(table);
	ac.table_path = table_path;
	ac.arena = pm_arena_create(ac.env);
	if (ac.arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = compact_all(&ac, table_path, options, result, err);
	pm_arena_destroy(ac.arena);
	return rc;
}

pm_code
pm_append_compact(pm_table *table, const char *table_path, const pm_compact_options *options,
				  pm_compact_result *result, pm_error *err)
{
	return run(table, table_path, options, NULL, result, err);
}

pm_code
pm_append_compact_at_commit(pm_table *table, const char *table_path, const char *commit_user,
							int64_t commit_identifier, const pm_append_bucket *buckets,
							int nbuckets, pm_compact_result *result, pm_error *err)
{
	append_compact ac;

	memset(&ac, 0, sizeof(ac));
	ac.only = buckets;
	ac.nonly = nbuckets;
	ac.commit_user = commit_user;
	ac.commit_identifier = commit_identifier;
	if (nbuckets == 0)
	{
		memset(result, 0, sizeof(*result));
		return PM_OK;
	}
	return run(table, table_path, NULL, &ac, result, err);
}
