/*-------------------------------------------------------------------------
 * table_read.c
 *	  The read facade: append tables through pm_scan_reader_*, primary-key
 *	  tables split by split through the LSM merge (see table_read.h).
 *
 * Per primary-key split (one bucket):
 *	 raw		when Java would read it without merging (§4.3 "raw shortcut":
 *				no level-0 file, no retract rows, and DV table / first-row /
 *				a single level; or a single file without retract rows): each
 *				file read as is, deletion-vector rows removed;
 *	 merge		otherwise: the files are grouped into sections of
 *				overlapping key ranges (Java's IntervalPartition,
 *				interval_partition.h), merged section after section; in a
 *				section every data file is one sorted run (its DV
 *				applied), merged by pm_merge_reader with the table's engine
 *				(a section of one file is read through it too: a key with
 *				one record is emitted as it is, retractions dropped);
 *				the value columns of primary key fields are not read, the
 *				_KEY_ columns (same values) stand in for them;
 *				_SEQUENCE_NUMBER is not read when the files' sequence
 *				ranges are disjoint, _VALUE_KIND not for files without
 *				retract rows (sequences_disjoint, PM_KV_* in split.h).
 * In a parallel read a large merged split is cut into key ranges
 * (table/key_range_split.h), each a unit of work merged alone: its files
 * pruned to the range, the merge clipped to it (start_split_merge).
 * Statistics pruning inside files (pm_read_filter, split.h): every field
 * for append tables and for the raw files of deletion-vector tables (no
 * merge needs the skipped rows), the primary key fields only for files
 * that are merged or read raw without deletion vectors.
 * Which levels are visible (level 0 skipped for DV and first-row tables)
 * is decided by scan planning (src/table/scan_plan.c), per §4.8, and
 * checked again here. Append tables go through pm_scan_reader, except when
 * their files carry deletion vectors (it does not apply them): then every
 * split takes the raw path.
 *
 * Spec: ../shared/docs/paimon-format-data.md §4.3, §4.8, §5.4;
 * apache/paimon MergeFileSplitRead.java, MergeTreeSplitGenerator.java.
 *-------------------------------------------------------------------------
 */
#include "lsm/table_read.h"

#include <string.h>
#include <strings.h>

#include "common/env.h"
#include "index/deletion_vector.h"
#include "row/value.h"
#include "lsm/interval_partition.h"
#include "lsm/key_order_merge.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_reader.h"
#include "common/vector_builder.h"
#include "table/batch_filter.h"
#include "table/key_range_split.h"
#include "table/point_lookup.h"
#include "table/split.h"

/* One data file as a sorted run of the merge. */
typedef struct file_run
{
	pm_table_read *read;
	const pm_data_file_meta *file;
	pm_data_file_reader *reader;	/* opened on first use */
	pm_deletion_vector *dv;
	pm_arena   *keyed_arena;	/* point lookups: the batch of the looked-up keys */
	pm_batch	keyed;
	bool		past_keys;		/* the file (sorted by key) is past every key */
	pm_batch	spliced;		/* the KV batch with key fields' values from the key */
	int			kv_flags;		/* PM_KV_*: system columns not read (split.h) */
} file_run;

struct pm_table_read
{
	const pm_env *env;
	pm_scan    *scan;
	pm_table   *table;
	pm_scan_reader *reader;		/* append tables: the pass-through */

	/* primary-key tables */
	pm_arena   *arena;			/* read lifetime */
	const pm_schema *schema;
	int			nfields;
	int		   *read_fields;	/* requested fields, then merge-only ones */
	int			nread;
	/*
	 * Merged files: value columns of primary key fields are not read, the
	 * key columns (same values) stand in for them: the file is read for
	 * file_fields, and value column j of the merge is batch column
	 * value_col[j] of what the file reader returns.
	 */
	int		   *file_fields;
	int			nfile_fields;
	int		   *value_col;
	bool		splice;			/* some value column comes from a key column */
	const pm_type **out_types;
	int			nkeys;
	pm_merge_engine *engine;
	bool		dv_enabled;
	bool		first_row;
	bool		lookup;			/* Java wraps the engine in LookupMergeFunction */
	bool		snapshot_ordering;	/* sequence.snapshot-ordering */
	bool		skip_level0;	/* §4.8: DV (not merge-on-read) and first-row tables */
	bool		append_dv;		/* append table with deletion vectors: all raw */
	int			split;			/* next split to start */
	int			split_end;		/* > 0: the splits read end before it; 0: at the last */
	bool		key_order;		/* every split merged: its rows in key order */
	/* pm_table_read_open_ordered: one read per split, merged by key */
	pm_table_read **children;
	int			nchildren;
	pm_key_order_merge *ordered;
	pm_merge_reader *merge;		/* current split, merge path */
	const char *merge_path;		/* its bucket directory */
	const pm_split *merge_split;	/* and its split */
	/* current split, raw path */
	const pm_split *raw_split;
	int			raw_file;
	pm_data_file_reader *raw_reader;
	const char *raw_path;		/* raw_reader's file */
	pm_deletion_vector *raw_dv;
	pm_arena   *raw_arena;		/* DV-filtered batches */
	pm_batch	raw_batch;
	const pm_data_file_meta *raw_meta;	/* raw_reader's file */
	pm_chunk_buffers *raw_buffers;	/* chunk buffers the raw files share (lazily) */
	/* pm_table_read_open_positions: each row's position in raw_meta */
	bool		want_positions;
	int64_t    *positions;
	int64_t		positions_cap;
	/* parallel reads: units (raw files, merged splits) this process reads */
	pm_unit_claim_fn claim;
	void	   *claim_ctx;
	int64_t		unit;			/* number of the next unit */
	/*
	 * parallel reads of merged splits cut by key range: each range is a
	 * unit (key_range_split.h); range_split's ranges from next_range on
	 * are still to be offered
	 */
	const pm_split *range_split;
	pm_key_ranges ranges;
	int			next_range;
	pm_arena   *range_arena;	/* the current cut split's ranges */
	const pm_predicate *range_pred; /* the merged range's file filter, or NULL */
	int64_t		nranges_cut;	/* ranges of the splits cut so far */
	int64_t		merged_bytes;	/* bytes of the scan's merged splits (-1: not counted) */
	/* point lookups: only the looked-up keys' records are merged */
	const pm_predicate *key_filter;
	int		   *key_col_of_field;	/* table field -> key column of a KV batch */
	const pm_value *max_key;	/* the largest looked-up key */
	const pm_type *const *key_types;	/* of the trimmed key fields */
	/*
	 * the current merged split's sections: files sec_runs[sec_end[s-1] ..
	 * sec_end[s]) form section s; next_sec is the next to merge
	 */
	const pm_type *key_row;		/* ROW of the trimmed key; NULL: no sections */
	pm_run_source *sec_runs;
	int		   *sec_end;
	int			nsec;
	int			next_sec;
	const pm_vector *sec_lo;	/* the merge's key range (see start_merge) */
	const pm_vector *sec_hi;
};

static bool merge_sections = true;

void
pm_table_read_merge_sections(bool on)
{
	merge_sections = on;
}

/* Whether this process reads the next unit of work (always, if not parallel). */
static bool
claim_unit(pm_table_read *r)
{
	return r->claim == NULL || r->claim(r->claim_ctx, r->unit++);
}

static pm_code
load_dv(pm_table_read *r, const pm_data_file_meta *f, pm_deletion_vector **dv, pm_error *err)
{
	const pm_deletion_file *d = f->deletion_file;

	*dv = NULL;
	if (d == NULL)
		return PM_OK;
	PM_TRY(pm_deletion_vector_read(r->env, pm_table_fileio(r->table), d->path, d->offset,
								   d->length, dv, err));
	if (pm_deletion_vector_check(*dv, f->row_count, d->cardinality, err) != PM_OK)
	{
		pm_deletion_vector_destroy(*dv);
		*dv = NULL;
		pm_error_detail(err, "The deletion vector at offset %lld belongs to data file \"%s\".",
						(long long) d->offset, f->file_name);
		pm_error_set_path(err, d->path);
		return err->code;
	}
	return PM_OK;
}

/* ---- merge path: runs ---------------------------------------------------- */

/*
 * A point lookup's run: of each batch only the records of the looked-up
 * keys, deletion-vector rows dropped here (the merge then gets no DV:
 * positions no longer hold), batches without such a record skipped. Every
 * record of a key stays, so merging them gives the key's row.
 */
/* Is the key of row i of a KV batch above the largest looked-up key? */
static bool
past_max_key(const pm_table_read *r, const pm_batch *b, int64_t i)
{
	for (int k = 0; k < r->nkeys; k++)
	{
		pm_value	v;
		int			c;

		if (!pm_vector_value(&b->cols[k], i, &v) || v.is_null)
			return false;
		c = pm_value_compare(r->key_types[k], &v, &r->max_key[k]);
		if (c != 0)
			return c > 0;
	}
	return false;
}

static pm_code
keyed_rows(file_run *fr, pm_batch **batch, pm_error *err)
{
	const pm_table_read *r = fr->read;

	while (*batch != NULL)
	{
		const pm_batch *b = *batch;
		uint8_t    *sel,
				   *keep;
		pm_vector_builder *bld;
		int64_t		n = 0;

		if (b->nrows > 0 && past_max_key(r, b, b->nrows - 1))
			fr->past_keys = true;	/* this batch is the last that may hold a key */
		if (fr->keyed_arena == NULL && (fr->keyed_arena = pm_arena_create(r->env)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory in a point lookup");
		pm_arena_reset(fr->keyed_arena);
		sel = pm_arena_alloc(fr->keyed_arena, (size_t) (b->nrows > 0 ? b->nrows : 1));
		keep = pm_arena_alloc(fr->keyed_arena, (size_t) (b->nrows > 0 ? b->nrows : 1));
		if (sel == NULL || keep == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory in a point lookup");
		PM_TRY(pm_batch_filter(r->env, r->key_filter, b, r->key_col_of_field, sel, err));
		if (fr->dv != NULL && pm_deletion_vector_cardinality(fr->dv) > 0)
		{
			pm_deletion_vector_apply(fr->dv, b, keep);
			for (int64_t i = 0; i < b->nrows; i++)
				sel[i] &= keep[i];
		}
		for (int64_t i = 0; i < b->nrows; i++)
			n += sel[i] != 0;
		if (n == 0)
		{
			if (fr->past_keys)
				*batch = NULL;
			else
				PM_TRY(pm_data_file_reader_next(fr->reader, batch, err));
			continue;
		}
		memset(&fr->keyed, 0, sizeof(fr->keyed));
		fr->keyed.cols = pm_arena_zalloc(fr->keyed_arena, sizeof(pm_vector) * (size_t) (b->ncols + 1));
		bld = pm_arena_zalloc(fr->keyed_arena, sizeof(pm_vector_builder) * (size_t) (b->ncols + 1));
		if (fr->keyed.cols == NULL || bld == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory in a point lookup");
		fr->keyed.ncols = b->ncols;
		fr->keyed.first_row = b->first_row;
		fr->keyed.nrows = n;
		for (int c = 0; c < b->ncols; c++)
		{
			if (!pm_vector_builder_init(&bld[c], &fr->keyed.cols[c], b->cols[c].type, n,
										fr->keyed_arena))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory in a point lookup");
			for (int64_t i = 0; i < b->nrows; i++)
				if (sel[i] && !pm_vector_builder_append(&bld[c], &b->cols[c], i))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory in a point lookup");
		}
		*batch = &fr->keyed;
		return PM_OK;
	}
	return PM_OK;
}

static pm_code
file_run_next(void *state, pm_batch **batch, pm_error *err)
{
	file_run   *fr = state;
	const pm_table_read *r = fr->read;

	*batch = NULL;
	if (fr->past_keys)
		return PM_OK;
	if (fr->reader == NULL)
	{
		pm_read_filter filter;

		if (r->snapshot_ordering && fr->file->file_source < 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "sequence.snapshot-ordering requires data files with fileSource metadata");

		/* a merged file: only parts whose keys cannot match are skipped */
		pm_scan_read_filter(r->scan, false, &filter);
		if (r->range_pred != NULL)
			filter.pred = r->range_pred;
		if (fr->kv_flags != 0)
			PM_TRY(pm_data_file_reader_open_kv(r->table, fr->file, r->file_fields,
											   r->nfile_fields, fr->kv_flags, &filter,
											   &fr->reader, err));
		else
			PM_TRY(pm_data_file_reader_open_filtered(r->table, fr->file, r->file_fields,
													 r->nfile_fields, true, 0, &filter,
													 &fr->reader, err));
	}
	PM_TRY(pm_data_file_reader_next(fr->reader, batch, err));
	if (r->key_filter != NULL)
		PM_TRY(keyed_rows(fr, batch, err));
	if (*batch != NULL && r->splice)
	{
		const pm_batch *b = *batch;
		int			nsys = r->nkeys + 2;

		if (fr->spliced.cols == NULL &&
			(fr->spliced.cols = pm_arena_zalloc(r->arena, sizeof(pm_vector) *
												(size_t) (nsys + r->nread))) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory reading a merged file");
		fr->spliced.ncols = nsys + r->nread;
		fr->spliced.nrows = b->nrows;
		fr->spliced.first_row = b->first_row;
		for (int c = 0; c < nsys; c++)
			fr->spliced.cols[c] = b->cols[c];
		for (int j = 0; j < r->nread; j++)
			fr->spliced.cols[nsys + j] = b->cols[r->value_col[j]];
		*batch = &fr->spliced;
	}

	/*
	 * sequence.snapshot-ordering: records of APPEND files take the file's
	 * _MIN_SEQUENCE_NUMBER (the commit's snapshot id), as
	 * KeyValueFileReaderFactory does; COMPACT files are used as stored.
	 */
	if (*batch != NULL && r->snapshot_ordering && fr->file->file_source == 0)
	{
		pm_vector  *seq = &(*batch)->cols[r->nkeys];

		for (int64_t i = 0; i < (*batch)->nrows; i++)
			PM_VEC_VALUES(seq, int64_t)[i] = fr->file->min_sequence_number;
	}
	return PM_OK;
}

static void
file_run_close(void *state)
{
	file_run   *fr = state;

	pm_data_file_reader_close(fr->reader);
	fr->reader = NULL;
	pm_deletion_vector_destroy(fr->dv);
	fr->dv = NULL;
	pm_arena_destroy(fr->keyed_arena);
	fr->keyed_arena = NULL;
}

/*
 * Can this split be read without merging? MergeTreeSplitGenerator: no
 * level-0 file and no retract rows, and (DVs, first-row, or one level);
 * or one file without retract rows.
 */
/*
 * Batch scans never see level 0 of DV and first-row tables (§4.8). Scan
 * planning already drops those files; checked again here so that a split
 * handed over with them still reads like Java.
 */
static bool
file_visible(const pm_table_read *r, const pm_data_file_meta *f)
{
	return !(r->skip_level0 && f->level == 0);
}

static bool
split_is_raw(const pm_table_read *r, const pm_split *sp)
{
	bool		no_l0_no_delete = true;
	bool		one_level = true;
	int			nvisible = 0;
	const pm_data_file_meta *only = NULL;
	int32_t		first_level = -1;

	for (int i = 0; i < sp->nfiles; i++)
	{
		const pm_data_file_meta *f = sp->files[i];

		if (!file_visible(r, f))
			continue;
		if (nvisible++ == 0)
			first_level = f->level;
		only = f;
		if (f->level == 0 || f->delete_row_count > 0)
			no_l0_no_delete = false;
		if (f->level != first_level)
			one_level = false;
	}
	/* delete_row_count -1 (null, old files) counts as none, as in Java */
	if (nvisible == 1 && only->delete_row_count <= 0)
		return true;
	return no_l0_no_delete && (r->dv_enabled || r->first_row || one_level);
}

/*
 * Whether the visible files of sp have pairwise disjoint sequence number
 * ranges (as level-0 files of successive commits and a compacted base
 * below them do). Then the order of a key's records, one per file, is the
 * order of their files' ranges, and each file's _MAX_SEQUENCE_NUMBER can
 * stand for its records' own (PM_KV_SEQUENCE_FROM_FILE): the column need
 * not be read. Not with sequence.snapshot-ordering (sequence numbers
 * replaced by the file's) nor for files of unknown ranges.
 */
static bool
sequences_disjoint(const pm_table_read *r, const pm_split *sp)
{
	if (r->snapshot_ordering)
		return false;
	for (int i = 0; i < sp->nfiles; i++)
	{
		const pm_data_file_meta *a = sp->files[i];

		if (!file_visible(r, a))
			continue;
		if (a->min_sequence_number > a->max_sequence_number)
			return false;
		for (int j = i + 1; j < sp->nfiles; j++)
		{
			const pm_data_file_meta *b = sp->files[j];

			if (file_visible(r, b) && a->min_sequence_number <= b->max_sequence_number &&
				b->min_sequence_number <= a->max_sequence_number)
				return false;
		}
	}
	return true;
}

/* A vector of the first key's type holding v in row 0 (for the merge's bounds). */
static const pm_vector *
bound_vector(pm_arena *arena, const pm_type *type, const pm_value *v)
{
	pm_vector  *vec = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;

	if (vec == NULL || !pm_vector_builder_init(&b, vec, type, 1, arena))
		return NULL;
	if (pm_type_is_string(type->id))
		return pm_vector_builder_append_bytes(&b, v->u.bytes.ptr, v->u.bytes.len) ? vec : NULL;
	if (!pm_vector_builder_reserve(&b, 1))
		return NULL;
	switch (pm_type_value_size(type->id))
	{
		case 1:
			PM_VEC_VALUES(vec, int8_t)[0] = (int8_t) v->u.i64;
			break;
		case 2:
			PM_VEC_VALUES(vec, int16_t)[0] = (int16_t) v->u.i64;
			break;
		case 4:
			PM_VEC_VALUES(vec, int32_t)[0] = (int32_t) v->u.i64;
			break;
		default:
			PM_VEC_VALUES(vec, int64_t)[0] = v->u.i64;
			break;
	}
	if (vec->nulls != NULL)
		vec->nulls[0] = 0;
	vec->length = 1;
	return vec;
}

/*
 * Order the n runs (frs/runs, one file each) into key-disjoint sections
 * (r->sec_end, r->nsec), as IntervalPartition does.
 */
static pm_code
partition_runs(pm_table_read *r, file_run *frs, pm_run_source *runs, int n, pm_error *err)
{
	const pm_data_file_meta **files = pm_arena_alloc(r->arena, sizeof(void *) * (size_t) n);
	pm_run_source *sorted = pm_arena_alloc(r->arena, sizeof(pm_run_source) * (size_t) n);
	int		   *order = pm_arena_alloc(r->arena, sizeof(int) * (size_t) n);

	if (files == NULL || sorted == NULL || order == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
	for (int i = 0; i < n; i++)
	{
		files[i] = frs[i].file;
		if (files[i]->min_key == NULL || files[i]->max_key == NULL)
			return PM_OK;		/* key ranges unknown: one section */
	}
	PM_TRY(pm_interval_partition(r->arena, r->key_row, files, n, order, r->sec_end, &r->nsec,
								 NULL, err));
	/* the run sources point at frs[]: only their order changes */
	for (int i = 0; i < n; i++)
		sorted[i] = runs[order[i]];
	memcpy(runs, sorted, sizeof(pm_run_source) * (size_t) n);
	return PM_OK;
}

/*
 * Open the merge of the next section of the current split; the merge
 * reader owns (and closes) its runs from here, even on failure.
 */
static pm_code
start_section(pm_table_read *r, pm_error *err)
{
	int			s = r->next_sec++;
	int			from = s > 0 ? r->sec_end[s - 1] : 0;

	PM_TRY(pm_merge_reader_open(r->env, r->engine, r->nkeys, r->out_types, r->nfields,
								r->sec_runs + from, r->sec_end[s] - from, 0, &r->merge, err));
	pm_merge_reader_set_lookup(r->merge, r->lookup);
	pm_merge_reader_set_key_range(r->merge, r->sec_lo, r->sec_hi);
	return PM_OK;
}

/* Close the runs of the sections of the current split not merged yet. */
static void
drop_sections(pm_table_read *r)
{
	int			from = r->next_sec > 0 && r->next_sec <= r->nsec ? r->sec_end[r->next_sec - 1] : 0;

	if (r->next_sec < r->nsec)
		for (int i = from; i < r->sec_end[r->nsec - 1]; i++)
			if (r->sec_runs[i].close)
				r->sec_runs[i].close(r->sec_runs[i].state);
	r->nsec = 0;
	r->next_sec = 0;
}

/*
 * Merge split sp, or (range >= 0) only the keys of its key range `range`
 * (r->ranges): files pruned and the merge clipped to the range.
 */
static pm_code
start_merge(pm_table_read *r, const pm_split *sp, int range, pm_error *err)
{
	const pm_vector *lo = NULL,
			   *hi = NULL;

	pm_run_source *runs;
	file_run   *frs;
	pm_code		rc = PM_OK;
	int			n = sp->nfiles;
	bool		seq_from_file = sequences_disjoint(r, sp);

	runs = pm_arena_zalloc(r->arena, sizeof(pm_run_source) * (size_t) (n + 1));
	frs = pm_arena_zalloc(r->arena, sizeof(file_run) * (size_t) (n + 1));
	if (runs == NULL || frs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
	r->range_pred = NULL;
	if (range >= 0)
	{
		const pm_key_ranges *kr = &r->ranges;
		pm_read_filter f;

		pm_scan_read_filter(r->scan, false, &f);
		if ((r->range_pred = pm_key_range_predicate(r->range_arena, f.pred, kr, range)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
		if (range > 0 &&
			(lo = bound_vector(r->range_arena, kr->type, &kr->cuts[range - 1])) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
		if (range < kr->nranges - 1 &&
			(hi = bound_vector(r->range_arena, kr->type, &kr->cuts[range])) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
	}
	n = 0;
	for (int i = 0; i < sp->nfiles; i++)
	{
		if (!file_visible(r, sp->files[i]))
			continue;
		frs[n].read = r;
		frs[n].file = sp->files[i];
		/* neither stored column is needed: the file's order, no retractions */
		frs[n].kv_flags = (seq_from_file ? PM_KV_SEQUENCE_FROM_FILE : 0) |
			(sp->files[i]->delete_row_count == 0 ? PM_KV_KIND_INSERT : 0);
		runs[n].next = file_run_next;
		runs[n].close = file_run_close;
		runs[n].state = &frs[n];
		if (rc == PM_OK)
			rc = load_dv(r, sp->files[i], &frs[n].dv, err);
		/* a lookup's runs drop deleted rows themselves (keyed_rows) */
		runs[n].dv = r->key_filter != NULL ? NULL : frs[n].dv;
		runs[n].level = sp->files[i]->level;
		n++;
	}
	if (rc != PM_OK)
	{
		for (int i = 0; i < n; i++)
			file_run_close(&frs[i]);
		return rc;
	}
	r->sec_runs = runs;
	r->sec_lo = lo;
	r->sec_hi = hi;
	r->nsec = 1;
	r->next_sec = 0;
	r->sec_end = pm_arena_alloc(r->arena, sizeof(int) * (size_t) (n + 1));
	if (r->sec_end == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory opening a merge");
	r->sec_end[0] = n;
	if (rc == PM_OK && n > 1 && r->key_row != NULL)
		rc = partition_runs(r, frs, runs, n, err);
	if (rc != PM_OK)
	{
		for (int i = 0; i < n; i++)
			file_run_close(&frs[i]);
		r->nsec = 0;
		return rc;
	}
	return start_section(r, err);
}

/* The bytes of a split's data files. */
static int64_t
split_bytes(const pm_split *sp)
{
	int64_t		bytes = 0;

	for (int i = 0; i < sp->nfiles; i++)
		bytes += sp->files[i]->file_size;
	return bytes;
}

/*
 * A merged split in a parallel read: cut it into key ranges, one unit
 * each, when it is large enough (pm_scan_key_ranges_wanted); else it is
 * one unit. Every participant cuts it the same way.
 */
static pm_code
start_split_merge(pm_table_read *r, const pm_split *sp, pm_error *err)
{
	int			wanted = 1;

	if (r->claim != NULL && r->key_filter == NULL && r->merged_bytes < 0)
	{
		r->merged_bytes = 0;
		for (int i = 0; i < pm_scan_split_count(r->scan); i++)
		{
			const pm_split *s = pm_scan_get_split(r->scan, i);

			if (s->nfiles > 0 && !r->append_dv && !split_is_raw(r, s))
				r->merged_bytes += split_bytes(s);
		}
	}

	/*
	 * With the workers known, a merged split up to 1.5 times their fair
	 * share of all merged splits is read whole: two buckets for two workers
	 * are shared uncut (cuts re-read dictionaries and edge pages, ~15% more
	 * CPU for pk_7col); one bucket, or one much larger than the others, is
	 * cut.
	 */
	if (r->claim != NULL && r->key_filter == NULL &&
		(pm_scan_participants(r->scan) <= 0 ||
		 split_bytes(sp) * pm_scan_participants(r->scan) * 2 > r->merged_bytes * 3))
		wanted = pm_scan_key_ranges_wanted(r->scan, sp);
	if (wanted > 1)
	{
		const pm_data_file_meta **files;
		int			n = 0;

		if (r->range_arena == NULL && (r->range_arena = pm_arena_create(r->env)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory cutting a bucket");
		pm_arena_reset(r->range_arena);
		files = pm_arena_alloc(r->range_arena, sizeof(*files) * (size_t) (sp->nfiles + 1));
		if (files == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory cutting a bucket");
		for (int i = 0; i < sp->nfiles; i++)
			if (file_visible(r, sp->files[i]))
				files[n++] = sp->files[i];
		PM_TRY(pm_key_ranges_plan(r->table, files, n, wanted, r->range_arena, &r->ranges, err));
		if (r->ranges.nranges > 1)
		{
			r->range_split = sp;
			r->next_range = 0;
			r->nranges_cut += r->ranges.nranges;
			return PM_OK;
		}
	}
	if (claim_unit(r))
	{
		r->merge_path = sp->bucket_path;
		r->merge_split = sp;
		PM_TRY(start_merge(r, sp, -1, err));
	}
	return PM_OK;
}

/* ---- raw path ------------------------------------------------------------ */

static void
close_raw_file(pm_table_read *r)
{
	pm_data_file_reader_close(r->raw_reader);
	r->raw_reader = NULL;
	pm_deletion_vector_destroy(r->raw_dv);
	r->raw_dv = NULL;
}

/* Copy the rows of b that the DV keeps into r->raw_batch. */
static pm_code
filter_batch(pm_table_read *r, const pm_batch *b, pm_batch **out, pm_error *err)
{
	uint8_t    *sel;
	pm_vector_builder *bld;

	pm_arena_reset(r->raw_arena);
	sel = pm_arena_alloc(r->raw_arena, (size_t) (b->nrows > 0 ? b->nrows : 1));
	bld = pm_arena_zalloc(r->raw_arena, sizeof(pm_vector_builder) * (size_t) (b->ncols + 1));
	memset(&r->raw_batch, 0, sizeof(r->raw_batch));
	r->raw_batch.cols = pm_arena_zalloc(r->raw_arena, sizeof(pm_vector) * (size_t) (b->ncols + 1));
	if (sel == NULL || bld == NULL || r->raw_batch.cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory applying a deletion vector");
	r->raw_batch.ncols = b->ncols;
	r->raw_batch.first_row = b->first_row;
	r->raw_batch.nrows = pm_deletion_vector_apply(r->raw_dv, b, sel);
	for (int c = 0; c < b->ncols; c++)
	{
		if (!pm_vector_builder_init(&bld[c], &r->raw_batch.cols[c], b->cols[c].type,
									r->raw_batch.nrows, r->raw_arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory applying a deletion vector");
		for (int64_t i = 0; i < b->nrows; i++)
			if (sel[i] && !pm_vector_builder_append(&bld[c], &b->cols[c], i))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory applying a deletion vector");
	}
	*out = &r->raw_batch;
	return PM_OK;
}

/* The file position of each row of b the DV keeps (as filter_batch keeps them). */
static pm_code
note_positions(pm_table_read *r, const pm_batch *b, pm_error *err)
{
	int64_t		n = 0;
	bool		dv = r->raw_dv != NULL && pm_deletion_vector_cardinality(r->raw_dv) > 0;

	if (b->nrows > r->positions_cap)
	{
		int64_t		cap = b->nrows > 2 * r->positions_cap ? b->nrows : 2 * r->positions_cap;
		int64_t    *p = pm_arena_realloc(r->arena, r->positions,
										 sizeof(int64_t) * (size_t) r->positions_cap,
										 sizeof(int64_t) * (size_t) cap);

		if (p == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		r->positions = p;
		r->positions_cap = cap;
	}
	for (int64_t i = 0; i < b->nrows; i++)
		if (!dv || !pm_deletion_vector_contains(r->raw_dv, b->first_row + i))
			r->positions[n++] = b->first_row + i;
	return PM_OK;
}

static pm_code
raw_next(pm_table_read *r, pm_batch **batch, pm_error *err)
{
	*batch = NULL;
	while (r->raw_split != NULL)
	{
		pm_batch   *b;

		if (r->raw_reader == NULL)
		{
			const pm_data_file_meta *f;
			pm_read_filter filter;
			bool		parts;

			if (r->raw_file >= r->raw_split->nfiles)
			{
				r->raw_split = NULL;
				return PM_OK;
			}
			f = r->raw_split->files[r->raw_file++];
			/* a large file read as it is: the participants share its parts */
			parts = r->claim != NULL && pm_scan_file_has_part_units(r->scan, f);
			if (!file_visible(r, f) || (!parts && !claim_unit(r)))
				continue;
			PM_TRY(load_dv(r, f, &r->raw_dv, err));
			r->raw_path = f->path;
			r->raw_meta = f;
			/* no merge: every field of append tables and DV tables may prune */
			pm_scan_read_filter(r->scan, r->append_dv || (r->dv_enabled && r->skip_level0),
								&filter);
			if (parts)
			{
				filter.claim = r->claim;
				filter.claim_ctx = r->claim_ctx;
				filter.unit = &r->unit;
			}
			/* one file open at a time: its chunks reuse the previous file's buffers */
			if (r->raw_buffers == NULL &&
				(r->raw_buffers = pm_chunk_buffers_create(r->arena)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a data file");
			filter.chunk_buffers = r->raw_buffers;
			PM_TRY(pm_data_file_reader_open_filtered(r->table, f, r->read_fields, r->nfields,
													 false, 0, &filter, &r->raw_reader, err));
		}
		PM_TRY(pm_data_file_reader_next(r->raw_reader, &b, err));
		if (b == NULL)
		{
			close_raw_file(r);
			continue;
		}
		if (r->want_positions)
			PM_TRY(note_positions(r, b, err));
		if (r->raw_dv != NULL && pm_deletion_vector_cardinality(r->raw_dv) > 0)
			PM_TRY(filter_batch(r, b, &b, err));
		if (b->nrows == 0)
			continue;
		*batch = b;
		return PM_OK;
	}
	return PM_OK;
}

/* ---- facade ---------------------------------------------------------------- */

static bool
scan_has_deletion_files(const pm_scan *scan)
{
	for (int i = 0; i < pm_scan_split_count(scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		for (int f = 0; f < sp->nfiles; f++)
			if (sp->files[f]->deletion_file != NULL)
				return true;
	}
	return false;
}

/*
 * Append table whose files carry deletion vectors: pm_scan_reader does
 * not apply DVs, so every split goes through the raw path here. All
 * levels are read (the level-0 rule is for primary-key tables only).
 */
static pm_code
open_append_dv(pm_table_read *r, const int *fields, int nfields, pm_error *err)
{
	const pm_schema *s = pm_table_schema(r->table);

	r->schema = s;
	r->nfields = nfields;
	r->append_dv = true;
	r->arena = pm_arena_create(r->env);
	r->raw_arena = pm_arena_create(r->env);
	if (r->arena == NULL || r->raw_arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	r->read_fields = pm_arena_alloc(r->arena, sizeof(int) * (size_t) (nfields + 1));
	if (r->read_fields == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	for (int i = 0; i < nfields; i++)
	{
		if (fields[i] < 0 || fields[i] >= s->row_type->nfields)
			return pm_fail(err, PM_ERR_INVALID, "field index %d out of range", fields[i]);
		r->read_fields[i] = fields[i];
	}
	r->nread = nfields;
	return PM_OK;
}

static pm_code
open_pk(pm_table_read *r, const int *fields, int nfields, pm_error *err)
{
	const pm_schema *s = pm_table_schema(r->table);
	const int  *keys;
	const char *engine;

	r->schema = s;
	r->nfields = nfields;
	r->arena = pm_arena_create(r->env);
	r->raw_arena = pm_arena_create(r->env);
	if (r->arena == NULL || r->raw_arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	for (int i = 0; i < nfields; i++)
		if (fields[i] < 0 || fields[i] >= s->row_type->nfields)
			return pm_fail(err, PM_ERR_INVALID, "field index %d out of range", fields[i]);
	PM_TRY(pm_merge_engine_read_fields(s, fields, nfields, r->arena, &r->read_fields,
									   &r->nread, err));
	pm_table_trimmed_primary_key(r->table, &keys, &r->nkeys);
	r->file_fields = pm_arena_alloc(r->arena, sizeof(int) * (size_t) (r->nread + 1));
	r->value_col = pm_arena_alloc(r->arena, sizeof(int) * (size_t) (r->nread + 1));
	if (r->file_fields == NULL || r->value_col == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	r->nfile_fields = 0;
	for (int j = 0; j < r->nread; j++)
	{
		int			key = -1;

		for (int k = 0; k < r->nkeys; k++)
			if (keys[k] == r->read_fields[j])
				key = k;
		if (key >= 0)
			r->value_col[j] = key;
		else
		{
			r->value_col[j] = r->nkeys + 2 + r->nfile_fields;
			r->file_fields[r->nfile_fields++] = r->read_fields[j];
		}
		r->splice |= key >= 0;
	}
	PM_TRY(pm_merge_engine_create(s, r->read_fields, r->nread, r->nkeys + 2, r->arena,
								  &r->engine, err));
	r->out_types = pm_arena_alloc(r->arena, sizeof(pm_type *) * (size_t) (nfields + 1));
	if (r->out_types == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	for (int i = 0; i < nfields; i++)
		r->out_types[i] = s->row_type->fields[fields[i]].type;
	/*
	 * Sections need the files' key ranges compared in the merge's order:
	 * not for floating-point or nested keys (NaN, -0.0: not worth the risk).
	 */
	if (merge_sections && r->nkeys > 0)
	{
		pm_field   *kf = pm_arena_zalloc(r->arena, sizeof(pm_field) * (size_t) r->nkeys);
		bool		ok = kf != NULL;

		for (int k = 0; ok && k < r->nkeys; k++)
		{
			pm_type_id	id;

			kf[k] = s->row_type->fields[keys[k]];
			id = kf[k].type->id;
			ok = id != PM_TYPE_FLOAT && id != PM_TYPE_DOUBLE && id < PM_TYPE_ARRAY;
		}
		if (ok)
			r->key_row = pm_type_new_row(r->arena, kf, r->nkeys, false);
	}
	r->dv_enabled = pm_schema_bool_option(s, "deletion-vectors.enabled", false);
	r->snapshot_ordering = pm_schema_bool_option(s, "sequence.snapshot-ordering", false);
	engine = pm_schema_option(s, "merge-engine");
	r->first_row = engine != NULL && strcasecmp(engine, "first-row") == 0;

	/*
	 * CoreOptions.needLookup + PrimaryKeyFileStoreTable: lookup changelog,
	 * deletion vectors or force-lookup wrap every engine but first-row in
	 * LookupMergeFunction, for reads too.
	 */
	{
		const char *producer = pm_schema_option(s, "changelog-producer");

		r->lookup = !r->first_row &&
			((producer != NULL && strcasecmp(producer, "lookup") == 0) || r->dv_enabled ||
			 pm_schema_bool_option(s, "force-lookup", false));
	}
	r->skip_level0 = (r->dv_enabled &&
					  !pm_schema_bool_option(s, "deletion-vectors.merge-on-read", false)) ||
		r->first_row;
	r->key_filter = pm_point_lookup_key_filter(r->scan);
	if (r->key_filter != NULL)
	{
		r->key_col_of_field = pm_arena_alloc(r->arena, sizeof(int) *
											 (size_t) (s->row_type->nfields + 1));
		if (r->key_col_of_field == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
		for (int f = 0; f < s->row_type->nfields; f++)
			r->key_col_of_field[f] = -1;
		for (int k = 0; k < r->nkeys; k++)
			r->key_col_of_field[keys[k]] = k;
		if (!pm_batch_filter_supported(r->key_filter, s->row_type))
			r->key_filter = NULL;
		r->max_key = pm_point_lookup_max_key(r->scan);
		{
			const pm_type **kt = pm_arena_alloc(r->arena, sizeof(pm_type *) * (size_t) (r->nkeys + 1));

			if (kt == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
			for (int k = 0; k < r->nkeys; k++)
				kt[k] = s->row_type->fields[keys[k]].type;
			r->key_types = kt;
		}
	}
	return PM_OK;
}

pm_code
pm_table_read_open(pm_scan *scan, const int *fields, int nfields,
				   pm_table_read **out, pm_error *err)
{
	pm_table   *table = pm_scan_table(scan);
	const pm_env *env = pm_table_env(table);
	pm_table_read *read;
	pm_code		rc;

	*out = NULL;
	if (nfields < 0)
		return pm_fail(err, PM_ERR_INVALID, "negative field count");
	read = pm_alloc(env, sizeof(*read));
	if (read == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	memset(read, 0, sizeof(*read));
	read->merged_bytes = -1;
	read->env = env;
	read->scan = scan;
	read->table = table;
	if (pm_scan_needs_merge(scan))
		rc = open_pk(read, fields, nfields, err);
	else if (scan_has_deletion_files(scan))
		rc = open_append_dv(read, fields, nfields, err);
	else
		rc = pm_scan_reader_open(scan, fields, nfields, &read->reader, err);
	if (rc != PM_OK)
	{
		pm_table_read_close(read);
		return rc;
	}
	*out = read;
	return PM_OK;
}

/* A split's read as an input of the key-order merge. */
static pm_code
split_read_next(void *input, pm_batch **batch, pm_error *err)
{
	return pm_table_read_next(input, batch, err);
}

/*
 * The single trimmed key field of a primary-key scan whose values order as
 * integers (TINYINT to BIGINT), or -1.
 */
int
pm_table_read_order_key(pm_scan *scan)
{
	pm_table   *table = pm_scan_table(scan);
	const int  *keys;
	int			nkeys;
	pm_type_id	id;

	if (!pm_scan_needs_merge(scan))
		return -1;
	pm_table_trimmed_primary_key(table, &keys, &nkeys);
	if (nkeys != 1)
		return -1;
	id = pm_table_schema(table)->row_type->fields[keys[0]].type->id;
	return id == PM_TYPE_TINYINT || id == PM_TYPE_SMALLINT || id == PM_TYPE_INT ||
		id == PM_TYPE_BIGINT ? keys[0] : -1;
}

pm_code
pm_table_read_open_ordered(pm_scan *scan, const int *fields, int nfields,
						   pm_table_read **out, pm_error *err)
{
	int			key = pm_table_read_order_key(scan);
	int			key_col = -1;
	int			nsplits = pm_scan_split_count(scan);
	pm_table_read *r;

	*out = NULL;
	for (int i = 0; i < nfields && key >= 0; i++)
		if (fields[i] == key)
			key_col = i;
	if (key_col < 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "a read in key order needs a primary-key table with one integer key "
					   "field among the fields read");
	PM_TRY(pm_table_read_open(scan, fields, nfields, &r, err));
	r->children = pm_alloc(r->env, sizeof(pm_table_read *) * (size_t) (nsplits + 1));
	if (r->children == NULL)
	{
		pm_table_read_close(r);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a read in key order");
	}
	for (int s = 0; s < nsplits; s++)
	{
		pm_table_read *c;
		pm_code		rc;

		if (pm_scan_get_split(scan, s)->nfiles == 0)
			continue;
		if ((rc = pm_table_read_open(scan, fields, nfields, &c, err)) != PM_OK)
		{
			pm_table_read_close(r);
			return rc;
		}
		c->split = s;
		c->split_end = s + 1;
		c->key_order = true;
		r->children[r->nchildren++] = c;
	}
	if (pm_key_order_merge_open(r->env, split_read_next, (void *const *) r->children,
								r->nchildren, key_col, r->out_types, nfields, &r->ordered,
								err) != PM_OK)
	{
		pm_table_read_close(r);
		return err->code;
	}
	*out = r;
	return PM_OK;
}

pm_code
pm_table_read_open_positions(pm_scan *scan, const int *fields, int nfields,
							 pm_table_read **out, pm_error *err)
{
	pm_table   *table = pm_scan_table(scan);
	const pm_env *env = pm_table_env(table);
	pm_table_read *read;
	pm_code		rc;

	*out = NULL;
	if (nfields < 0)
		return pm_fail(err, PM_ERR_INVALID, "negative field count");
	if (pm_scan_needs_merge(scan))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "rows of primary-key tables have no position: they are merged");
	read = pm_alloc(env, sizeof(*read));
	if (read == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a table read");
	memset(read, 0, sizeof(*read));
	read->merged_bytes = -1;
	read->env = env;
	read->scan = scan;
	read->table = table;
	read->want_positions = true;
	rc = open_append_dv(read, fields, nfields, err);
	if (rc != PM_OK)
	{
		pm_table_read_close(read);
		return rc;
	}
	*out = read;
	return PM_OK;
}

const int64_t *
pm_table_read_positions(const pm_table_read *r, const pm_split **split,
						const pm_data_file_meta **file)
{
	*split = r->raw_split;
	*file = r->raw_meta;
	return r->want_positions ? r->positions : NULL;
}

pm_code
pm_table_read_next(pm_table_read *r, pm_batch **batch, pm_error *err)
{
	*batch = NULL;
	if (r->reader != NULL)
		return pm_scan_reader_next(r->reader, batch, err);
	if (r->ordered != NULL)
		return pm_key_order_merge_next(r->ordered, batch, err);
	if (r->engine == NULL && !r->append_dv)
		return PM_OK;
	for (;;)
	{
		const pm_split *sp;

		if (r->merge != NULL)
		{
			PM_TRY(pm_merge_reader_next(r->merge, batch, err));
			if (*batch != NULL)
				return PM_OK;
			pm_merge_reader_close(r->merge);
			r->merge = NULL;
			if (r->next_sec < r->nsec)
			{
				PM_TRY(start_section(r, err));
				continue;
			}
		}
		if (r->raw_split != NULL)
		{
			PM_TRY(raw_next(r, batch, err));
			if (*batch != NULL)
				return PM_OK;
		}
		if (r->range_split != NULL)
		{
			if (r->next_range < r->ranges.nranges)
			{
				int			range = r->next_range++;

				if (claim_unit(r))
				{
					r->merge_path = r->range_split->bucket_path;
					r->merge_split = r->range_split;
					PM_TRY(start_merge(r, r->range_split, range, err));
				}
				continue;
			}
			r->range_split = NULL;
		}
		if (r->split >= pm_scan_split_count(r->scan) ||
			(r->split_end > 0 && r->split >= r->split_end))
			return PM_OK;
		sp = pm_scan_get_split(r->scan, r->split++);
		if (sp->nfiles == 0)
			continue;
		if (r->append_dv || (!r->key_order && split_is_raw(r, sp)))
		{
			r->raw_split = sp;
			r->raw_file = 0;
		}
		else
			PM_TRY(start_split_merge(r, sp, err));
	}
}

const char *
pm_table_read_source(const pm_table_read *r, bool *merged)
{
	*merged = false;
	if (r->reader != NULL)
		return pm_scan_reader_source(r->reader);
	if (r->ordered != NULL)
	{
		int			c = pm_key_order_merge_last_input(r->ordered);

		return c >= 0 ? pm_table_read_source(r->children[c], merged) : NULL;
	}
	if (r->merge != NULL)
	{
		*merged = true;
		return r->merge_path;
	}
	return r->raw_reader != NULL ? r->raw_path : NULL;
}

const pm_split *
pm_table_read_split(const pm_table_read *r)
{
	if (r->reader != NULL || r->append_dv)
		return NULL;
	if (r->ordered != NULL)
	{
		int			c = pm_key_order_merge_last_input(r->ordered);

		return c >= 0 ? pm_table_read_split(r->children[c]) : NULL;
	}
	return r->merge != NULL ? r->merge_split : r->raw_split;
}

void
pm_table_read_set_claim(pm_table_read *r, pm_unit_claim_fn fn, void *ctx)
{
	r->claim = fn;
	r->claim_ctx = ctx;
	if (r->reader != NULL)
		pm_scan_reader_set_claim(r->reader, fn, ctx);
}

int64_t
pm_table_read_key_ranges(const pm_table_read *r)
{
	return r->nranges_cut;
}

void
pm_table_read_close(pm_table_read *read)
{
	if (read == NULL)
		return;
	pm_key_order_merge_close(read->ordered);
	for (int i = 0; i < read->nchildren; i++)
		pm_table_read_close(read->children[i]);
	pm_free(read->env, read->children);
	pm_scan_reader_close(read->reader);
	pm_merge_reader_close(read->merge);
	drop_sections(read);
	pm_arena_destroy(read->range_arena);
	close_raw_file(read);
	pm_chunk_buffers_destroy(read->raw_buffers);
	pm_merge_engine_destroy(read->engine);
	pm_arena_destroy(read->raw_arena);
	pm_arena_destroy(read->arena);
	pm_free(read->env, read);
}
