/*-------------------------------------------------------------------------
 * resequence.c
 *	  Shifting the sequence numbers of uncommitted level-0 KeyValue files
 *	  (resequence.h): read each file in the KeyValue layout, add delta to
 *	  its _SEQUENCE_NUMBER column, write it again through a kv_file_writer.
 *-------------------------------------------------------------------------
 */
#include "lsm/resequence.h"

#include <stdint.h>
#include <string.h>

#include "common/uuid.h"
#include "format/format_reader.h"
#include "table/data_file_index.h"

/* One input file into one output file (out_files grows by one). */
static pm_code
rewrite_one(const pm_env *env, pm_fileio *io, const pm_kv_layout *layout, const char *dir,
			const char *uuid, int64_t *counter, const pm_data_file_meta *in, int64_t delta,
			pm_arena *meta_arena, pm_arena *scratch, pm_data_file_meta *out, pm_error *err)
{
	pm_format_read_options ropt;
	pm_format_reader *reader = NULL;
	pm_kv_file_writer *kw = NULL;
	pm_data_file_meta *made = NULL;
	int			nmade = 0;
	int			seq_col = layout->nkeys;
	pm_code		rc;
	int64_t		rows = 0;

	memset(&ropt, 0, sizeof(ropt));
	ropt.schema = layout->phys_type;
	if ((rc = pm_format_reader_open(in->format, env, io, in->path, &ropt, &reader, err)) != PM_OK)
		return rc;
	if ((rc = pm_kv_file_writer_open(env, io, layout, dir, uuid, counter, meta_arena, &kw,
									 err)) != PM_OK)
	{
		pm_format_reader_close(reader);
		return rc;
	}
	for (;;)
	{
		pm_batch   *b;
		pm_batch	shifted;
		pm_vector  *cols;
		int64_t    *seq;
		const int64_t *src;

		if ((rc = pm_format_reader_next(reader, &b, err)) != PM_OK || b == NULL)
			break;
		if (b->ncols != layout->phys_type->nfields)
		{
			rc = pm_fail(err, PM_ERR_CORRUPT, "%s: not a KeyValue file of this table", in->path);
			break;
		}
		cols = pm_arena_alloc(scratch, sizeof(pm_vector) * (size_t) layout->file_type->nfields);
		seq = pm_arena_alloc(scratch, sizeof(int64_t) * (size_t) (b->nrows + 1));
		if (cols == NULL || seq == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			break;
		}
		/* in file_type's layout (a thin file's keys are value columns), then a copy */
		pm_kv_layout_full_batch(layout, b, cols, &shifted);
		if (shifted.cols != cols)
			memcpy(cols, b->cols, sizeof(pm_vector) * (size_t) b->ncols);
		shifted.cols = cols;
		src = (const int64_t *) cols[seq_col].values;
		for (int64_t i = 0; i < b->nrows && rc == PM_OK; i++)
		{
			if (pm_vector_is_null(&cols[seq_col], i))
				rc = pm_fail(err, PM_ERR_CORRUPT, "%s: a null _SEQUENCE_NUMBER", in->path);
			seq[i] = src[i] + delta;
		}
		if (rc != PM_OK)
			break;
		shifted.cols[seq_col].values = seq;
		rows += b->nrows;
		if ((rc = pm_kv_file_writer_write(kw, &shifted, err)) != PM_OK)
			break;
		pm_arena_reset(scratch);
	}
	pm_format_reader_close(reader);
	if (rc == PM_OK)
		rc = pm_kv_file_writer_close(kw, &made, &nmade, err);
	else
		pm_kv_file_writer_abort(kw, &made, &nmade);
	if (rc == PM_OK && (nmade != 1 || made[0].row_count != in->row_count || rows != in->row_count))
		rc = pm_fail(err, PM_ERR_CORRUPT,
					 "%s: rewriting %lld rows with new sequence numbers gave %d file(s) of %lld rows",
					 in->path, (long long) in->row_count, nmade,
					 (long long) (nmade > 0 ? made[0].row_count : 0));
	if (rc != PM_OK)
	{
		for (int i = 0; i < nmade; i++)
			pm_data_file_remove_written(io, &made[i]);
		return rc;
	}
	*out = made[0];
	return PM_OK;
}

pm_code
pm_resequence_files(const pm_env *env, pm_fileio *io, const pm_kv_layout *layout,
					const char *dir, pm_data_file_meta *files, int nfiles, int64_t delta,
					pm_arena *meta_arena, pm_error *err)
{
	pm_kv_layout one_file = *layout;
	pm_write_options opt = *layout->opt;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		counter = 0;
	pm_data_file_meta *out;
	pm_arena   *scratch;
	pm_code		rc = PM_OK;
	int			done = 0;

	if (nfiles == 0)
		return PM_OK;
	if (delta <= 0)
		return pm_fail(err, PM_ERR_INVALID, "sequence numbers can only be shifted up, not by %lld",
					   (long long) delta);
	for (int i = 0; i < nfiles; i++)
		if (files[i].level != 0 || files[i].max_sequence_number > INT64_MAX - delta)
			return pm_fail(err, PM_ERR_INVALID,
						   "%s: only level-0 files below the sequence number limit are renumbered",
						   files[i].file_name);
	/* the input was rolled already: one output per input */
	opt.target_file_size = INT64_MAX;
	one_file.opt = &opt;
	PM_TRY(pm_uuid_random(uuid, err));
	out = pm_arena_zalloc(meta_arena, sizeof(*out) * (size_t) nfiles);
	scratch = pm_arena_create(env);
	if (out == NULL || scratch == NULL)
	{
		if (scratch)
			pm_arena_destroy(scratch);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	for (; done < nfiles && rc == PM_OK; done++)
	{
		rc = rewrite_one(env, io, &one_file, dir, uuid, &counter, &files[done], delta, meta_arena,
						 scratch, &out[done], err);
		if (rc == PM_OK)
			rc = pm_check_interrupts(env, err);
		pm_arena_reset(scratch);
	}
	pm_arena_destroy(scratch);
	if (rc != PM_OK)
	{
		/* the outputs made (a failed rewrite removed its own, out[] zeroed) */
		for (int i = 0; i < done; i++)
			if (out[i].path != NULL)
				pm_data_file_remove_written(io, &out[i]);
		return rc;
	}
	for (int i = 0; i < nfiles; i++)
	{
		pm_data_file_remove_written(io, &files[i]);
		files[i] = out[i];
	}
	return PM_OK;
}
