/*-------------------------------------------------------------------------
 * kv_file_writer.c
 *	  Level-0 KeyValue data files of a primary-key table (kv_file_writer.h).
 *-------------------------------------------------------------------------
 */
#include "lsm/kv_file_writer.h"

#include <limits.h>
#include <string.h>

#include "lsm/merge_engine.h"
#include "row/binary_row.h"
#include "row/value.h"
#include "table/data_file_index.h"
#include "table/table_write.h"

/* SpecialFields.java */
#define KEY_FIELD_ID_START (INT32_MAX / 2)
#define SEQUENCE_NUMBER_ID (INT32_MAX - 1)
#define VALUE_KIND_ID (INT32_MAX - 2)

/*
 * The stats modes of the levels with their own stats mode or format (Avro
 * files count their columns alike, createStatsFactoriesForAvro).
 */
static pm_code
special_levels(const pm_schema *schema, const pm_write_options *opt, pm_kv_layout *l,
			   pm_arena *arena, pm_error *err)
{
	int			n = opt->nstats_mode_levels + opt->nformat_levels;

	l->nspecial = 0;
	if (n == 0)
		return PM_OK;
	l->special_levels = pm_arena_alloc(arena, sizeof(int) * (size_t) n);
	l->special_modes = pm_arena_alloc(arena, sizeof(pm_stats_mode *) * (size_t) n);
	if (l->special_levels == NULL || l->special_modes == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int k = 0; k < n; k++)
	{
		int			level = k < opt->nstats_mode_levels ? opt->stats_mode_levels[k]
			: opt->format_levels[k - opt->nstats_mode_levels];
		const char *mode = NULL;
		const char *ext;
		bool		seen = false;

		for (int j = 0; j < l->nspecial; j++)
			seen |= l->special_levels[j] == level;
		if (seen)
			continue;
		for (int j = 0; j < opt->nstats_mode_levels; j++)
			if (opt->stats_mode_levels[j] == level)
				mode = opt->stats_mode_by_level[j];
		l->special_levels[l->nspecial] = level;
		PM_TRY(pm_stats_modes_of_fields_with(schema, l->phys_type,
											 pm_write_options_format(opt, level, &ext) == PM_FORMAT_AVRO,
											 mode, l->thin ? l->key_type : NULL, arena,
											 &l->special_modes[l->nspecial], err));
		l->nspecial++;
	}
	return PM_OK;
}

pm_code
pm_kv_layout_create(const pm_schema *schema, const pm_write_options *opt, pm_arena *arena,
					pm_kv_layout **out, pm_error *err)
{
	const pm_type *row = schema->row_type;
	int			nkeys = opt->ntrimmed_keys;
	int			ncols = nkeys + 2 + row->nfields;
	pm_kv_layout *l = pm_arena_zalloc(arena, sizeof(*l));
	pm_field   *kf = pm_arena_zalloc(arena, sizeof(pm_field) * (size_t) (nkeys + 1));
	pm_field   *ff = pm_arena_zalloc(arena, sizeof(pm_field) * (size_t) ncols);

	if (l == NULL || kf == NULL || ff == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	l->schema = schema;
	l->opt = opt;
	l->nkeys = nkeys;
	l->key_fields = opt->trimmed_key_fields;
	for (int k = 0; k < nkeys; k++)
	{
		const pm_field *f = &row->fields[opt->trimmed_key_fields[k]];

		/* PrimaryKeyTableUtils.addKeyNamePrefix */
		kf[k].id = f->id + KEY_FIELD_ID_START;
		kf[k].name = pm_arena_sprintf(arena, "_KEY_%s", f->name);
		kf[k].type = f->type;
		kf[k].description = f->description;
		if (kf[k].name == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		ff[k] = kf[k];
	}
	ff[nkeys].id = SEQUENCE_NUMBER_ID;
	ff[nkeys].name = "_SEQUENCE_NUMBER";
	ff[nkeys].type = pm_type_new(arena, PM_TYPE_BIGINT, false);
	ff[nkeys + 1].id = VALUE_KIND_ID;
	ff[nkeys + 1].name = "_VALUE_KIND";
	ff[nkeys + 1].type = pm_type_new(arena, PM_TYPE_TINYINT, false);
	for (int i = 0; i < row->nfields; i++)
		ff[nkeys + 2 + i] = row->fields[i];
	l->key_type = pm_type_new_row(arena, kf, nkeys, false);
	l->file_type = pm_type_new_row(arena, ff, ncols, false);
	l->thin = opt->thin_mode;
	l->phys_offset = l->thin ? nkeys : 0;
	l->phys_type = l->thin ? pm_type_new_row(arena, ff + nkeys, ncols - nkeys, false)
		: l->file_type;
	if (ff[nkeys].type == NULL || ff[nkeys + 1].type == NULL || l->key_type == NULL ||
		l->file_type == NULL || l->phys_type == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_stats_modes_of_fields_with(schema, l->phys_type, opt->format == PM_FORMAT_AVRO,
										 NULL, l->thin ? l->key_type : NULL, arena, &l->modes,
										 err));
	PM_TRY(special_levels(schema, opt, l, arena, err));
	l->fopt.schema = l->phys_type;
	l->fopt.compression = opt->compression;
	l->fopt.zstd_level = opt->zstd_level;
	l->fopt.row_group_bytes = opt->row_group_bytes;
	l->fopt.page_bytes = opt->page_bytes;
	l->fopt.dictionary = opt->dictionary;
	l->fopt.orc = opt->orc;
	*out = l;
	return PM_OK;
}

void
pm_kv_layout_full_batch(const pm_kv_layout *l, const pm_batch *phys, pm_vector *cols,
						pm_batch *out)
{
	*out = *phys;
	if (!l->thin)
		return;
	for (int k = 0; k < l->nkeys; k++)
		cols[k] = phys->cols[2 + l->key_fields[k]];
	memcpy(cols + l->nkeys, phys->cols, sizeof(pm_vector) * (size_t) phys->ncols);
	out->cols = cols;
	out->ncols = phys->ncols + l->nkeys;
}

struct pm_kv_file_writer
{
	const pm_env *env;
	pm_fileio  *io;
	const pm_kv_layout *layout;
	pm_arena   *arena;			/* the writer's own */
	pm_arena   *meta_arena;
	const char *dir;
	const char *uuid;
	int64_t    *file_counter;
	const char *prefix;			/* NULL: data-file.prefix; else changelog-file.prefix */
	int			level;			/* of the files: compression and stats (per level) */
	const pm_stats_mode *modes;	/* the level's */
	pm_file_format format;		/* the level's, and its file name extension */
	const char *extension;
	pm_format_write_options fopt;	/* the layout's, with that compression */
	/* the open file */
	pm_format_writer *fw;
	pm_file_index_writer *fiw;	/* its file indexes (NULL: none asked for) */
	char	   *name;
	char	   *path;			/* its local path (in meta_arena) */
	char	   *external;		/* its _EXTERNAL_PATH, or NULL (in meta_arena) */
	int64_t		rows;
	uint8_t    *min_key;		/* in meta_arena */
	int32_t		min_key_len;
	pm_arena   *key_arena;		/* the max key so far (reset per batch) */
	uint8_t    *max_key;
	int32_t		max_key_len;
	int64_t		min_seq;
	int64_t		max_seq;
	int64_t		delete_rows;
	/* files made */
	pm_data_file_meta *files;
	int			nfiles;
	int			cap;
};

pm_code
pm_kv_file_writer_open(const pm_env *env, pm_fileio *io, const pm_kv_layout *layout,
					   const char *dir, const char *uuid, int64_t *file_counter,
					   pm_arena *meta_arena, pm_kv_file_writer **out, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_kv_file_writer *w;

	*out = NULL;
	if (arena == NULL || (w = pm_arena_zalloc(arena, sizeof(*w))) == NULL)
	{
		if (arena)
			pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	w->env = env;
	w->io = io;
	w->layout = layout;
	w->arena = arena;
	w->key_arena = pm_arena_create(env);
	if (w->key_arena == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	w->meta_arena = meta_arena;
	w->dir = dir;
	pm_kv_file_writer_set_level(w, 0);
	w->uuid = uuid;
	w->file_counter = file_counter;
	*out = w;
	return PM_OK;
}

void
pm_kv_file_writer_set_level(pm_kv_file_writer *w, int level)
{
	const pm_write_options *o = w->layout->opt;

	w->level = level;
	w->format = pm_write_options_format(o, level, &w->extension);
	w->modes = w->layout->modes;
	for (int i = 0; i < w->layout->nspecial; i++)
		if (w->layout->special_levels[i] == level)
			w->modes = w->layout->special_modes[i];
}

void
pm_kv_file_writer_set_changelog(pm_kv_file_writer *w)
{
	/* KeyValueFileWriterFactory.createRollingChangelogFileWriter: newChangelogPath */
	w->prefix = w->layout->opt->changelog_file_prefix;
}

/* The key of row i of a batch in the file layout, as a serialized BinaryRow. */
static pm_code
encode_key(const pm_kv_layout *l, const pm_batch *b, int64_t i, pm_arena *arena,
		   uint8_t **buf, int32_t *len, pm_error *err)
{
	pm_value	vals[64];
	pm_value   *v = vals;
	size_t		n;

	if (l->nkeys > 64 && (v = pm_arena_alloc(arena, sizeof(pm_value) * (size_t) l->nkeys)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int k = 0; k < l->nkeys; k++)
		if (!pm_vector_value(&b->cols[k], i, &v[k]))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "nested primary keys are not written");
	PM_TRY(pm_binary_row_encode_serialized(arena, l->key_type, v, buf, &n, err));
	*len = (int32_t) n;
	return PM_OK;
}

static pm_code
open_file(pm_kv_file_writer *w, pm_error *err)
{
	const pm_write_options *o = w->layout->opt;
	char	   *path;

	w->name = pm_arena_sprintf(w->meta_arena, "%s%s-%lld.%s",
							   w->prefix != NULL ? w->prefix : o->data_file_prefix, w->uuid,
							   (long long) *w->file_counter, w->extension);
	if (w->name == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_write_options_new_file(o, w->dir, w->name, w->meta_arena, &w->path, &w->external,
									 err));
	path = w->path;
	PM_TRY(pm_write_options_mkdirs(w->io, w->dir, path, w->external, *w->file_counter == 0,
								   w->arena, err));
	(*w->file_counter)++;
	pm_file_index_writer_free(w->fiw);	/* left by a failed finish */
	w->fiw = NULL;
	if (o->file_index != NULL)
		PM_TRY(pm_file_index_writer_open(w->env, o->file_index, &w->fiw, err));
	w->fopt = w->layout->fopt;
	w->fopt.compression = pm_write_options_compression(o, w->level);
	PM_TRY(pm_format_writer_open(w->format, w->env, w->io, path, &w->fopt, &w->fw, err));
	w->rows = 0;
	w->min_key = NULL;
	w->min_seq = INT64_MAX;
	w->max_seq = INT64_MIN;
	w->delete_rows = 0;
	return PM_OK;
}

static pm_code
finish_file(pm_kv_file_writer *w, pm_error *err)
{
	const pm_kv_layout *l = w->layout;
	const pm_write_options *o = l->opt;
	pm_format_write_result res;
	pm_data_file_meta *m;
	pm_code		rc;
	const char **cols;
	int			ncols;
	int			nk = l->nkeys;
	int			nv = nk - l->phys_offset + 2;	/* the first value column in the file */
	const pm_stats_mode *kmodes = w->modes;
	const pm_column_stats *kstats;
	uint8_t    *max_key;

	if (w->fw == NULL)
		return PM_OK;
	max_key = pm_arena_alloc(w->meta_arena, (size_t) w->max_key_len + 1);
	if (max_key == NULL)
	{
		pm_format_writer_abort(w->fw);
		w->fw = NULL;
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	memcpy(max_key, w->max_key, (size_t) w->max_key_len);
	rc = pm_format_writer_finish(w->fw, w->meta_arena, &res, err);
	w->fw = NULL;
	if (rc != PM_OK)
		return rc;				/* the format writer discarded the file */
	if (w->nfiles == w->cap)
	{
		int			ncap = w->cap ? w->cap * 2 : 4;
		pm_data_file_meta *grown = pm_arena_realloc(w->meta_arena, w->files,
													sizeof(*grown) * (size_t) w->cap,
													sizeof(*grown) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		w->files = grown;
		w->cap = ncap;
	}
	m = &w->files[w->nfiles];
	memset(m, 0, sizeof(*m));
	m->file_name = w->name;
	m->path = w->path;
	m->external_path = w->external;
	w->nfiles++;				/* from here on the caller removes it on abort */
	if (res.row_count != w->rows || res.ncols != l->phys_type->nfields)
		return pm_fail(err, PM_ERR_CORRUPT, "%s: the format writer wrote %lld rows, not %lld",
					   m->path, (long long) res.row_count, (long long) w->rows);
	kstats = res.stats;
	if (l->thin)
	{
		/* KeyValueThinDataFileWriterImpl.fetchKeyValueStats: the value columns' */
		pm_stats_mode *km = pm_arena_alloc(w->arena, sizeof(*km) * (size_t) (nk + 1));
		pm_column_stats *ks = pm_arena_alloc(w->arena, sizeof(*ks) * (size_t) (nk + 1));

		if (km == NULL || ks == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int k = 0; k < nk; k++)
		{
			km[k] = w->modes[nv + l->key_fields[k]];
			ks[k] = res.stats[nv + l->key_fields[k]];
		}
		kmodes = km;
		kstats = ks;
	}
	m->format = w->format;
	m->file_size = res.file_size;
	m->row_count = res.row_count;
	m->min_key = w->min_key;
	m->min_key_len = w->min_key_len;
	m->max_key = max_key;
	m->max_key_len = w->max_key_len;
	/* keyStatsConverter.toBinaryAllMode: every key column, not dense */
	PM_TRY(pm_value_stats_build(l->key_type, kmodes, false, w->format, kstats, w->meta_arena,
								&m->key_stats, &cols, &ncols, err));
	PM_TRY(pm_value_stats_build(l->schema->row_type, w->modes + nv, o->stats_dense, w->format,
								res.stats + nv, w->meta_arena, &m->value_stats, &cols, &ncols,
								err));
	m->value_stats_cols = cols;
	m->nvalue_stats_cols = ncols;
	m->min_sequence_number = w->min_seq;
	m->max_sequence_number = w->max_seq;
	m->schema_id = l->schema->id;
	m->level = 0;
	m->has_creation_time = true;
	m->creation_time_millis = pm_local_wall_clock_millis();
	m->delete_row_count = w->delete_rows;
	m->file_source = 0;			/* APPEND */
	m->nwrite_cols = -1;
	/* KeyValueDataFileWriter: the indexes of kv.value(), the table's columns */
	rc = pm_data_file_index_finish(w->fiw, w->io, m, w->meta_arena, err);
	pm_file_index_writer_free(w->fiw);
	w->fiw = NULL;
	return rc;
}

pm_code
pm_kv_file_writer_write(pm_kv_file_writer *w, const pm_batch *batch, pm_error *err)
{
	const pm_kv_layout *l = w->layout;
	const pm_vector *seq;
	const pm_vector *kind;

	if (batch->nrows == 0)
		return PM_OK;
	if (w->fw == NULL)
	{
		PM_TRY(open_file(w, err));
		PM_TRY(encode_key(l, batch, 0, w->meta_arena, &w->min_key, &w->min_key_len, err));
	}
	seq = &batch->cols[l->nkeys];
	kind = &batch->cols[l->nkeys + 1];
	for (int64_t i = 0; i < batch->nrows; i++)
	{
		int64_t		s = PM_VEC_VALUES(seq, int64_t)[i];
		int			k = PM_VEC_VALUES(kind, int8_t)[i];

		if (s < w->min_seq)
			w->min_seq = s;
		if (s > w->max_seq)
			w->max_seq = s;
		if (!pm_rowkind_is_add(k))
			w->delete_rows++;	/* RowKind.isRetract: -U and -D */
	}
	if (l->thin)
	{
		/* the file leaves the _KEY_ columns out */
		pm_batch	phys = *batch;

		phys.cols = batch->cols + l->nkeys;
		phys.ncols = batch->ncols - l->nkeys;
		PM_TRY(pm_format_writer_write(w->fw, &phys, err));
	}
	else
		PM_TRY(pm_format_writer_write(w->fw, batch, err));
	if (w->fiw != NULL)
		PM_TRY(pm_file_index_writer_write(w->fiw, batch, l->nkeys + 2, err));
	w->rows += batch->nrows;
	pm_arena_reset(w->key_arena);
	PM_TRY(encode_key(l, batch, batch->nrows - 1, w->key_arena, &w->max_key, &w->max_key_len,
					  err));
	if (pm_format_writer_estimated_size(w->fw) >= l->opt->target_file_size)
		PM_TRY(finish_file(w, err));
	return PM_OK;
}

pm_code
pm_kv_file_writer_close(pm_kv_file_writer *w, pm_data_file_meta **files, int *nfiles,
						pm_error *err)
{
	pm_code		rc = finish_file(w, err);

	if (w->fw != NULL)
		pm_format_writer_abort(w->fw);
	pm_file_index_writer_free(w->fiw);
	*files = w->files;
	*nfiles = w->nfiles;
	pm_arena_destroy(w->key_arena);
	pm_arena_destroy(w->arena);
	return rc;
}

void
pm_kv_file_writer_abort(pm_kv_file_writer *w, pm_data_file_meta **files, int *nfiles)
{
	if (w->fw != NULL)
		pm_format_writer_abort(w->fw);
	pm_file_index_writer_free(w->fiw);
	*files = w->files;
	*nfiles = w->nfiles;
	pm_arena_destroy(w->key_arena);
	pm_arena_destroy(w->arena);
}

pm_code
pm_kv_file_writer_write_merged(pm_kv_file_writer *w, const pm_kv_layout *l,
							   const pm_batch *merged, int nfields, pm_vector *cols,
							   pm_error *err)
{
	int			nk = l->nkeys;
	pm_batch	kv;

	/* merged: the fields, then seq and kind; the file: keys, seq, kind, fields */
	for (int k = 0; k < nk; k++)
		cols[k] = merged->cols[l->key_fields[k]];
	cols[nk] = merged->cols[nfields];
	cols[nk + 1] = merged->cols[nfields + 1];
	for (int j = 0; j < nfields; j++)
		cols[nk + 2 + j] = merged->cols[j];
	memset(&kv, 0, sizeof(kv));
	kv.nrows = merged->nrows;
	kv.ncols = nk + 2 + nfields;
	kv.cols = cols;
	return pm_kv_file_writer_write(w, &kv, err);
}
