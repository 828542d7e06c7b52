/*-------------------------------------------------------------------------
 * merge_tree_writer.c
 *	  One bucket of a primary-key table: sequence numbers, write buffer,
 *	  level-0 flushes (merge_tree_writer.h).
 *-------------------------------------------------------------------------
 */
#include "lsm/merge_tree_writer.h"

#include <string.h>

#include "lsm/write_buffer.h"
#include "table/data_file_index.h"

struct pm_merge_tree_writer
{
	const pm_env *env;
	pm_fileio  *io;
	const pm_kv_layout *layout;
	pm_arena   *arena;			/* dir, uuid */
	pm_arena   *meta_arena;		/* metas of the files since the last commit */
	char	   *dir;
	char	   *uuid;
	int64_t		file_counter;
	int64_t		next_seq;
	pm_write_buffer *buffer;
	pm_data_file_meta *files;
	int			nfiles;
	int			cap;
	/* changelog-producer = input: the changelog files since the last commit */
	bool		changelog;
	pm_data_file_meta *cfiles;
	int			ncfiles;
	int			ccap;
	/* postpone mode: the rolling file writer open until the commit */
	bool		postpone;
	pm_kv_file_writer *open_fw;
};

pm_code
pm_merge_tree_writer_open(const pm_env *env, pm_fileio *io, const pm_kv_layout *layout,
						  pm_merge_engine *engine, pm_merge_engine *run_engine,
						  const char *spill_dir, const char *dir, const char *uuid,
						  int64_t next_seq, pm_merge_tree_writer **out, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_merge_tree_writer *w = arena ? pm_arena_zalloc(arena, sizeof(*w)) : NULL;
	pm_code		rc;

	*out = NULL;
	if (w == NULL)
	{
		if (arena)
			pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	w->env = env;
	w->io = io;
	w->layout = layout;
	w->arena = arena;
	w->meta_arena = pm_arena_create(env);
	w->dir = pm_arena_strdup(arena, dir);
	w->uuid = pm_arena_strdup(arena, uuid);
	w->next_seq = next_seq;
	w->changelog = layout->opt->changelog_input;
	if (w->meta_arena == NULL || w->dir == NULL || w->uuid == NULL)
	{
		pm_merge_tree_writer_free(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	if ((rc = pm_write_buffer_create(env, layout, engine, run_engine, spill_dir, &w->buffer,
									 err)) != PM_OK)
	{
		pm_merge_tree_writer_free(w);
		return rc;
	}
	*out = w;
	return PM_OK;
}

void
pm_merge_tree_writer_set_postpone(pm_merge_tree_writer *w)
{
	w->postpone = true;
}

pm_code
pm_merge_tree_writer_write(pm_merge_tree_writer *w, const pm_batch *batch, int64_t row,
						   int kind, pm_error *err)
{
	/* MergeTreeWriter.write: newSequenceNumber() */
	return pm_write_buffer_put(w->buffer, batch, row, w->next_seq++, kind, err);
}

pm_code
pm_merge_tree_writer_write_rows(pm_merge_tree_writer *w, const pm_batch *batch,
								const int64_t *rows, int64_t n, const uint8_t *row_kinds,
								pm_error *err)
{
	/* a sequence number per record, in the order given (as n calls of the above) */
	pm_code		rc = pm_write_buffer_put_rows(w->buffer, batch, rows, n, w->next_seq, row_kinds,
											  err);

	w->next_seq += n;
	return rc;
}

int64_t
pm_merge_tree_writer_memory(const pm_merge_tree_writer *w)
{
	return pm_write_buffer_size(w->buffer) > 0 ? pm_write_buffer_memory(w->buffer) : 0;
}

static pm_code
keep_in(pm_merge_tree_writer *w, pm_data_file_meta **arr, int *narr, int *cap,
		const pm_data_file_meta *files, int n, pm_error *err)
{
	if (*narr + n > *cap)
	{
		int			ncap = (*narr + n) * 2;
		pm_data_file_meta *grown = pm_arena_realloc(w->meta_arena, *arr,
													sizeof(*grown) * (size_t) *cap,
													sizeof(*grown) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		*arr = grown;
		*cap = ncap;
	}
	memcpy(*arr + *narr, files, sizeof(*files) * (size_t) n);
	*narr += n;
	return PM_OK;
}

static pm_code
keep_files(pm_merge_tree_writer *w, const pm_data_file_meta *files, int n, pm_error *err)
{
	return keep_in(w, &w->files, &w->nfiles, &w->cap, files, n, err);
}

/*
 * Close fw after writing into it gave rc (abort it when rc is a failure)
 * and keep every file it made, so that an abort removes them.
 */
static pm_code
end_writer(pm_merge_tree_writer *w, pm_kv_file_writer *fw, pm_code rc, pm_error *err)
{
	pm_data_file_meta *files;
	int			n;

	if (rc == PM_OK)
		rc = pm_kv_file_writer_close(fw, &files, &n, err);
	else
		pm_kv_file_writer_abort(fw, &files, &n);
	if (n > 0)
	{
		pm_error	e2;
		pm_code		rc2 = keep_files(w, files, n, rc == PM_OK ? err : &e2);

		if (rc == PM_OK)
			rc = rc2;
	}
	return rc;
}

/*
 * Postpone mode: the buffer's records, in the order they came, into the
 * open file writer (opened first if need be); with finish, the writer is
 * closed and its files kept for the commit.
 */
static pm_code
postpone_write(pm_merge_tree_writer *w, bool finish, pm_error *err)
{
	pm_kv_file_writer *fw;
	pm_code		rc = PM_OK;

	if (w->open_fw == NULL && pm_write_buffer_size(w->buffer) > 0)
		PM_TRY(pm_kv_file_writer_open(w->env, w->io, w->layout, w->dir, w->uuid,
									  &w->file_counter, w->meta_arena, &w->open_fw, err));
	if (w->open_fw != NULL)
		rc = pm_write_buffer_flush_in_order(w->buffer, w->open_fw, -1, err);
	if (w->open_fw == NULL || (rc == PM_OK && !finish))
		return rc;
	fw = w->open_fw;
	w->open_fw = NULL;
	return end_writer(w, fw, rc, err);
}

pm_code
pm_merge_tree_writer_spill(pm_merge_tree_writer *w, pm_error *err)
{
	if (w->postpone)
		return postpone_write(w, false, err);
	/* the changelog is the buffer's records in sorted order: flush them as a run instead */
	if (w->changelog)
		return pm_merge_tree_writer_flush(w, err);
	return pm_write_buffer_spill(w->buffer, err);
}

/*
 * changelog-producer = input (MergeTreeWriter.flushWriteBuffer): the
 * buffer's records, unmerged, to changelog files, and merged to level-0
 * data files; every file made is kept, so an abort removes it.
 */
static pm_code
flush_with_changelog(pm_merge_tree_writer *w, pm_error *err)
{
	pm_kv_file_writer *fw;
	pm_kv_file_writer *cw;
	pm_data_file_meta *files;
	int			n;
	pm_error	e2;
	pm_code		rc;
	pm_code		rc2;

	PM_TRY(pm_kv_file_writer_open(w->env, w->io, w->layout, w->dir, w->uuid, &w->file_counter,
								  w->meta_arena, &cw, err));
	pm_kv_file_writer_set_changelog(cw);
	if ((rc = pm_kv_file_writer_open(w->env, w->io, w->layout, w->dir, w->uuid, &w->file_counter,
									 w->meta_arena, &fw, err)) != PM_OK)
	{
		pm_kv_file_writer_abort(cw, &files, &n);
		return rc;
	}
	rc = pm_write_buffer_flush_changelog(w->buffer, fw, cw, err);
	if (rc == PM_OK)
		rc = pm_kv_file_writer_close(cw, &files, &n, err);
	else
		pm_kv_file_writer_abort(cw, &files, &n);
	if (n > 0)
	{
		rc2 = keep_in(w, &w->cfiles, &w->ncfiles, &w->ccap, files, n, rc == PM_OK ? err : &e2);
		if (rc == PM_OK)
			rc = rc2;
	}
	return end_writer(w, fw, rc, err);
}

pm_code
pm_merge_tree_writer_flush(pm_merge_tree_writer *w, pm_error *err)
{
	pm_kv_file_writer *fw;

	if (w->postpone)
		return postpone_write(w, true, err);
	if (pm_write_buffer_size(w->buffer) == 0 && pm_write_buffer_spill_count(w->buffer) == 0)
		return PM_OK;
	if (w->changelog)
		return flush_with_changelog(w, err);
	PM_TRY(pm_kv_file_writer_open(w->env, w->io, w->layout, w->dir, w->uuid, &w->file_counter,
								  w->meta_arena, &fw, err));
	return end_writer(w, fw, pm_write_buffer_flush(w->buffer, fw, err), err);
}

void
pm_merge_tree_writer_files(const pm_merge_tree_writer *w, pm_data_file_meta **files,
						   int *nfiles)
{
	*files = w->files;
	*nfiles = w->nfiles;
}

void
pm_merge_tree_writer_changelog_files(const pm_merge_tree_writer *w, pm_data_file_meta **files,
									 int *nfiles)
{
	*files = w->cfiles;
	*nfiles = w->ncfiles;
}

/* Postpone mode: discard the open file writer, its files removed. */
static void
postpone_discard(pm_merge_tree_writer *w)
{
	pm_data_file_meta *files;
	int			n;

	if (w->open_fw == NULL)
		return;
	pm_kv_file_writer_abort(w->open_fw, &files, &n);
	w->open_fw = NULL;
	for (int i = 0; i < n; i++)
		pm_data_file_remove_written(w->io, &files[i]);
}

void
pm_merge_tree_writer_forget_files(pm_merge_tree_writer *w, bool remove)
{
	if (remove)
	{
		postpone_discard(w);
		for (int i = 0; i < w->nfiles; i++)
			pm_data_file_remove_written(w->io, &w->files[i]);
		for (int i = 0; i < w->ncfiles; i++)
			pm_data_file_remove_written(w->io, &w->cfiles[i]);
		pm_write_buffer_clear(w->buffer);
	}
	w->files = NULL;
	w->nfiles = 0;
	w->cap = 0;
	w->cfiles = NULL;
	w->ncfiles = 0;
	w->ccap = 0;
	pm_arena_reset(w->meta_arena);
}

void
pm_merge_tree_writer_free(pm_merge_tree_writer *w)
{
	if (w == NULL)
		return;
	postpone_discard(w);
	pm_write_buffer_free(w->buffer);
	if (w->meta_arena)
		pm_arena_destroy(w->meta_arena);
	pm_arena_destroy(w->arena);
}
