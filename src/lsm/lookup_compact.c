/*-------------------------------------------------------------------------
 * lookup_compact.c
 *	  Lookup compaction at commit of deletion-vector and first-row tables
 *	  (see lookup_compact.h).
 *
 * Per bucket: the levels (lc_file per live file, min/max keys decoded,
 * restored DV), the unit picked, the task over its sections; merges run
 * through the merge reader (one run per input file, its DV applied) with
 * the lookup hook, whose lookups are served by one forward cursor per
 * level above the output level: keys arrive in ascending order (sections
 * are processed in key order), so each level is read at most once, file
 * by file, skipping files whose key range lies below the key and never
 * opening one that starts above it (LookupUtils' binary search picks the
 * same file).
 *-------------------------------------------------------------------------
 */
#include "lsm/lookup_compact.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/uuid.h"
#include "index/deletion_vector.h"
#include "index/deletion_vector_write.h"
#include "lsm/compact.h"
#include "lsm/key_compare.h"
#include "lsm/kv_file_writer.h"
#include "lsm/lookup_changelog.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_reader.h"
#include "lsm/record_expire.h"
#include "row/binary_row.h"
#include "row/value.h"
#include "table/commit.h"
#include "table/data_file_index.h"
#include "table/data_file_path.h"
#include "table/index_manifest.h"
#include "table/partition_path.h"
#include "table/split.h"
#include "table/table.h"

#define MAX_ATTEMPTS 5

/* One live data file of the bucket. */
typedef struct lc_file
{
	const pm_data_file_meta *meta;
	pm_value   *min;			/* decoded _MIN_KEY / _MAX_KEY (key fields) */
	pm_value   *max;
	pm_deletion_vector *dv;		/* restored DV, NULL if none */
} lc_file;

/* A sorted run of the levels: one level-0 file, or all files of a level >= 1. */
typedef struct lc_run
{
	int			level;
	lc_file   **files;			/* by min key (level >= 1) */
	int			nfiles;
	int64_t		size;
} lc_run;

/* A forward lookup cursor over one level above the output level. */
typedef struct lc_cursor
{
	int			level;
	lc_run	   *run;
	int			fi;				/* current file */
	pm_data_file_reader *reader;	/* open on files[fi], or NULL */
	pm_batch   *batch;
	int64_t		pos;
} lc_cursor;

/* What the whole commit attempt shares. */
typedef struct lc_table
{
	const pm_env *env;
	pm_fileio  *io;
	pm_table   *table;
	const pm_schema *schema;
	const char *table_path;
	pm_arena   *arena;
	pm_write_options opt;
	pm_kv_layout *layout;
	pm_merge_engine *engine;
	int			nfields;
	int		   *all_fields;
	const pm_type **out_types;
	int			options_max_level;	/* numLevels - 1 (the rewriter's maxLevel) */
	int64_t		compaction_file_size;
	char		index_uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		index_counter;
	pm_commit_change *changes;
	int			nchanges;
	pm_lookup_compact_result *res;
	/* record-level.expire-time (lsm/record_expire.h), NULL without it */
	pm_record_expire *expire;
	int64_t		now_seconds;
	/* changelog-producer = lookup (lsm/lookup_changelog.h) */
	bool		changelog;
	pm_changelog_dedup dedup;
	/* pm_lookup_compact_full: pickFullCompaction, not ForceUpLevel0Compaction */
	bool		full;
} lc_table;

/* One bucket being compacted. */
typedef struct lc_bucket
{
	lc_table   *t;
	const pm_split *sp;
	lc_file    *files;
	int			nfiles;
	lc_run	   *runs;			/* Levels.levelSortedRuns order */
	int			nruns;
	int			num_levels;		/* Levels.numberOfLevels */
	int			output_level;
	bool		drop_delete;
	pm_dv_maintainer *dvm;		/* DV tables */
	char		uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		file_counter;
	lc_cursor  *cursors;		/* levels output_level + 1 .. */
	int			ncursors;
	/* the change being built */
	pm_data_file_meta *deleted;
	int			ndeleted;
	int			deleted_cap;
	pm_data_file_meta *added;
	int			nadded;
	int			added_cap;
	pm_data_file_meta *changelog;
	int			nchangelog;
	int			changelog_cap;
} lc_bucket;

bool
pm_lookup_compact_needed(const pm_write_options *opt)
{
	return opt->primary_key && !opt->write_only &&
		(opt->deletion_vectors || opt->first_row || opt->changelog_lookup);
}

/* ---------------------------------------------------------------------
 * keys
 * ---------------------------------------------------------------------
 */

static int
value_key_compare(const lc_table *t, const pm_value *a, const pm_value *b)
{
	return pm_value_row_compare(t->layout->key_type, a, b);
}

/* The key at row `row` of cols[0..nkeys-1] against decoded key values. */
static int
vector_key_compare(const lc_table *t, const pm_batch *b, int64_t row, const pm_value *v)
{
	const pm_type *kt = t->layout->key_type;

	for (int k = 0; k < kt->nfields; k++)
	{
		pm_value	x;
		bool		xnull = pm_vector_is_null(&b->cols[k], row);
		int			c;

		if (xnull || v[k].is_null)
			c = (int) v[k].is_null - (int) xnull;
		else
		{
			if (!pm_vector_value(&b->cols[k], row, &x))
				return 0;
			c = pm_value_compare(kt->fields[k].type, &x, &v[k]);
		}
		if (c != 0)
			return c;
	}
	return 0;
}

static pm_code
decode_key(lc_table *t, const lc_file *f, const uint8_t *buf, int32_t len, pm_value **out,
		   pm_error *err)
{
	const pm_type *kt = t->layout->key_type;
	pm_value   *v = pm_arena_zalloc(t->arena, sizeof(pm_value) * (size_t) (kt->nfields + 1));
	int			arity;

	if (v == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (buf == NULL ||
		pm_binary_row_serialized_arity(buf, (size_t) len, &arity, err) != PM_OK ||
		arity != kt->nfields ||
		pm_binary_row_decode_serialized(buf, (size_t) len, kt, v, err) != PM_OK)
		return pm_fail(err, PM_ERR_CORRUPT, "data file \"%s\": unreadable key range",
					   f->meta->file_name);
	*out = v;
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * levels (Levels.java)
 * ---------------------------------------------------------------------
 */

/* Levels.level0 order: maxSeq desc, minSeq asc, creation time, file name. */
static int
level0_cmp(const void *pa, const void *pb)
{
	const pm_data_file_meta *a = (*(lc_file *const *) pa)->meta;
	const pm_data_file_meta *b = (*(lc_file *const *) pb)->meta;

	if (a->max_sequence_number != b->max_sequence_number)
		return a->max_sequence_number > b->max_sequence_number ? -1 : 1;
	if (a->min_sequence_number != b->min_sequence_number)
		return a->min_sequence_number < b->min_sequence_number ? -1 : 1;
	if (a->creation_time_millis != b->creation_time_millis)
		return a->creation_time_millis < b->creation_time_millis ? -1 : 1;
	return strcmp(a->file_name, b->file_name);
}

static const lc_table *sort_table;	/* qsort context (single-threaded) */

static int
min_key_cmp(const void *pa, const void *pb)
{
	const lc_file *a = *(lc_file *const *) pa;
	const lc_file *b = *(lc_file *const *) pb;
	int			c = value_key_compare(sort_table, a->min, b->min);

	return c != 0 ? c : value_key_compare(sort_table, a->max, b->max);
}

static pm_code
build_levels(lc_bucket *b, pm_error *err)
{
	lc_table   *t = b->t;
	const pm_split *sp = b->sp;
	int			max_file_level = 0;

	b->files = pm_arena_zalloc(t->arena, sizeof(lc_file) * (size_t) (sp->nfiles + 1));
	if (b->files == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < sp->nfiles; i++)
	{
		lc_file    *f = &b->files[b->nfiles++];

		f->meta = sp->files[i];
		PM_TRY(decode_key(t, f, f->meta->min_key, f->meta->min_key_len, &f->min, err));
		PM_TRY(decode_key(t, f, f->meta->max_key, f->meta->max_key_len, &f->max, err));
		if (f->meta->level > max_file_level)
			max_file_level = f->meta->level;
		if (f->meta->level < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "data file \"%s\" has level %d",
						   f->meta->file_name, f->meta->level);
	}
	/* Levels: max(numLevels, highest file level + 1) */
	b->num_levels = t->opt.compact_strategy.num_levels > max_file_level + 1 ?
		t->opt.compact_strategy.num_levels : max_file_level + 1;
	b->runs = pm_arena_zalloc(t->arena, sizeof(lc_run) * (size_t) (b->nfiles + b->num_levels + 1));
	if (b->runs == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	{
		lc_file   **l0 = pm_arena_alloc(t->arena, sizeof(lc_file *) * (size_t) (b->nfiles + 1));
		int			n0 = 0;

		if (l0 == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int i = 0; i < b->nfiles; i++)
			if (b->files[i].meta->level == 0)
				l0[n0++] = &b->files[i];
		qsort(l0, (size_t) n0, sizeof(lc_file *), level0_cmp);
		for (int i = 0; i < n0; i++)
		{
			lc_run	   *r = &b->runs[b->nruns++];

			r->level = 0;
			r->files = &l0[i];
			r->nfiles = 1;
			r->size = l0[i]->meta->file_size;
		}
	}
	for (int level = 1; level < b->num_levels; level++)
	{
		lc_run	   *r = &b->runs[b->nruns];

		r->files = pm_arena_alloc(t->arena, sizeof(lc_file *) * (size_t) (b->nfiles + 1));
		if (r->files == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int i = 0; i < b->nfiles; i++)
			if (b->files[i].meta->level == level)
			{
				r->files[r->nfiles++] = &b->files[i];
				r->size += b->files[i].meta->file_size;
			}
		if (r->nfiles == 0)
			continue;
		r->level = level;
		sort_table = t;
		qsort(r->files, (size_t) r->nfiles, sizeof(lc_file *), min_key_cmp);
		b->nruns++;
	}
	return PM_OK;
}

/* Levels.nonEmptyHighestLevel */
static int
non_empty_highest_level(const lc_bucket *b)
{
	int			highest = -1;

	for (int i = 0; i < b->nruns; i++)
		if (b->runs[i].level > highest)
			highest = b->runs[i].level;
	return highest;
}

/* ---------------------------------------------------------------------
 * picking (UniversalCompaction, ForceUpLevel0Compaction)
 * ---------------------------------------------------------------------
 */

/*
 * ForceUpLevel0Compaction (radical: level 0 is never left behind, its rows
 * being invisible to batch reads until compacted) over UniversalCompaction,
 * as compact_pick.h picks them; false: nothing to compact.
 */
static bool
pick_unit(const lc_bucket *b, int *nruns, int *output_level)
{
	pm_compact_strategy st = b->t->opt.compact_strategy;
	pm_compact_pick_state state;
	pm_compact_run *runs = pm_arena_zalloc(b->t->arena, sizeof(*runs) * (size_t) (b->nruns + 1));
	pm_compact_unit unit;
	int			hour;
	int64_t		now;

	if (runs == NULL)
		return false;
	st.num_levels = b->num_levels;
	st.force_up_level0 = true;
	st.lookup_max_interval = 0;
	memset(&state, 0, sizeof(state));
	for (int i = 0; i < b->nruns; i++)
	{
		runs[i].level = b->runs[i].level;
		runs[i].size = b->runs[i].size;
		runs[i].nfiles = b->runs[i].nfiles;
	}
	pm_compact_clock(&hour, &now);
	if (!pm_compact_pick(&st, &state, runs, b->nruns, hour, now, &unit))
		return false;
	*nruns = unit.nruns;
	*output_level = unit.output_level;
	return true;
}

/*
 * CompactStrategy.pickFullCompaction: every run into the max level
 * (*nruns = b->nruns), or, when the bucket is one run at the max level,
 * *rewrite = its files to rewrite one by one (FileRewriteCompactTask); the
 * DV check reads the files' deletion files (the DV index of the bucket).
 * *nruns = 0: nothing to do.
 */
static pm_code
pick_full(const lc_bucket *b, int *nruns, lc_file ***rewrite, pm_error *err)
{
	lc_table   *t = b->t;
	const lc_run *r = &b->runs[0];
	int			n = 0;

	*nruns = 0;
	*rewrite = NULL;
	if (b->nruns == 0)
		return PM_OK;
	if (b->nruns > 1 || r->level != b->num_levels - 1)
	{
		*nruns = b->nruns;
		return PM_OK;
	}
	*rewrite = pm_arena_zalloc(t->arena, sizeof(lc_file *) * (size_t) (r->nfiles + 1));
	if (*rewrite == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < r->nfiles; i++)
	{
		bool		pick = t->opt.compact_strategy.force_rewrite_all_files;

		if (!pick && t->expire != NULL)
			PM_TRY(pm_record_expire_file(t->expire, t->table, r->files[i]->meta, t->now_seconds,
										 t->arena, &pick, err));
		if (!pick)
			pick = r->files[i]->meta->deletion_file != NULL;
		if (pick)
			(*rewrite)[n++] = r->files[i];
	}
	if (n > 0)
		*nruns = 1;
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * sections (IntervalPartition)
 * ---------------------------------------------------------------------
 */

typedef struct lc_section
{
	lc_run	   *runs;			/* SortedRuns of the section */
	int			nruns;
} lc_section;

/*
 * Partition files (sorted by min key, then max key) into sections of
 * overlapping key ranges, each split into sorted runs as Java's priority
 * queue does (a file joins the run whose last max key is smallest, if it
 * starts after it).
 */
static pm_code
interval_partition(lc_table *t, lc_file **files, int n, lc_section **out, int *nout,
				   pm_error *err)
{
	lc_section *sections = pm_arena_zalloc(t->arena, sizeof(lc_section) * (size_t) (n + 1));
	int			ns = 0;
	int			start = 0;

	if (sections == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	sort_table = t;
	qsort(files, (size_t) n, sizeof(lc_file *), min_key_cmp);
	while (start < n)
	{
		const pm_value *bound = files[start]->max;
		int			end = start + 1;
		lc_section *s = &sections[ns++];

		while (end < n && value_key_compare(t, files[end]->min, bound) <= 0)
		{
			if (value_key_compare(t, files[end]->max, bound) > 0)
				bound = files[end]->max;
			end++;
		}
		s->runs = pm_arena_zalloc(t->arena, sizeof(lc_run) * (size_t) (end - start + 1));
		if (s->runs == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int i = start; i < end; i++)
		{
			int			best = -1;

			/* the run whose last file has the smallest max key (queue.poll) */
			for (int r = 0; r < s->nruns; r++)
			{
				const lc_run *cand = &s->runs[r];

				if (best < 0 ||
					value_key_compare(t, cand->files[cand->nfiles - 1]->max,
									  s->runs[best].files[s->runs[best].nfiles - 1]->max) < 0)
					best = r;
			}
			if (best < 0 ||
				value_key_compare(t, files[i]->min,
								  s->runs[best].files[s->runs[best].nfiles - 1]->max) <= 0)
			{
				lc_run	   *r = &s->runs[s->nruns++];

				r->files = pm_arena_alloc(t->arena, sizeof(lc_file *) * (size_t) (end - start));
				if (r->files == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				best = (int) (r - s->runs);
			}
			s->runs[best].files[s->runs[best].nfiles++] = files[i];
			s->runs[best].size += files[i]->meta->file_size;
			s->runs[best].level = files[i]->meta->level;
		}
		start = end;
	}
	*out = sections;
	*nout = ns;
	return PM_OK;
}

/* ---------------------------------------------------------------------
 * lookup cursors (LookupLevels over the levels above the output)
 * ---------------------------------------------------------------------
 */

static void
cursor_close_file(lc_cursor *c)
{
	pm_data_file_reader_close(c->reader);
	c->reader = NULL;
	c->batch = NULL;
	c->pos = 0;
}

/*
 * Move c to the key of row key_row of key_batch: *found with its record
 * when a live row of the level holds it.
 */
static pm_code
cursor_seek(lc_bucket *b, lc_cursor *c, const pm_batch *kb, int64_t kr, bool *found,
			pm_kv_record *rec, pm_error *err)
{
	lc_table   *t = b->t;
	int			nk = t->layout->nkeys;

	*found = false;
	while (c->fi < c->run->nfiles)
	{
		lc_file    *f = c->run->files[c->fi];

		if (c->reader == NULL)
		{
			if (vector_key_compare(t, kb, kr, f->max) > 0)
			{
				c->fi++;		/* the whole file lies below the key */
				continue;
			}
			if (vector_key_compare(t, kb, kr, f->min) < 0)
				return PM_OK;	/* the key falls between files */
			PM_TRY(pm_data_file_reader_open(t->table, f->meta, t->all_fields, t->nfields, true, 0,
											&c->reader, err));
			c->batch = NULL;
			c->pos = 0;
		}
		for (;;)
		{
			if (c->batch == NULL || c->pos >= c->batch->nrows)
			{
				PM_TRY(pm_data_file_reader_next(c->reader, &c->batch, err));
				c->pos = 0;
				if (c->batch == NULL)
					break;
				continue;
			}
			if (b->dvm != NULL ?
				pm_dv_maintainer_contains(b->dvm, f->meta->file_name, c->batch->first_row + c->pos) :
				pm_deletion_vector_contains(f->dv, c->batch->first_row + c->pos))
			{
				c->pos++;
				continue;
			}
			/*
			 * record-level expiry: the lookup levels read through the expiring
			 * reader (MergeTreeCompactManagerFactory), except first-row's
			 */
			if (t->expire != NULL && !t->opt.first_row &&
				pm_record_expire_row(t->expire, &c->batch->cols[nk + 2 + t->expire->field], c->pos,
									 t->now_seconds))
			{
				c->pos++;
				continue;
			}
			{
				int			cmp = pm_key_compare(c->batch->cols, c->pos, kb->cols, kr, nk);

				if (cmp < 0)
				{
					c->pos++;
					continue;
				}
				if (cmp > 0)
					return PM_OK;
			}
			/* found */
			if (pm_vector_is_null(&c->batch->cols[nk], c->pos) ||
				pm_vector_is_null(&c->batch->cols[nk + 1], c->pos))
				return pm_fail(err, PM_ERR_CORRUPT, "%s: null _SEQUENCE_NUMBER or _VALUE_KIND",
							   f->meta->file_name);
			rec->batch = c->batch;
			rec->row = c->pos;
			rec->seq = PM_VEC_VALUES(&c->batch->cols[nk], int64_t)[c->pos];
			rec->kind = PM_VEC_VALUES(&c->batch->cols[nk + 1], int8_t)[c->pos];
			rec->level = c->level;
			*found = true;
			if (b->dvm != NULL)
			{
				/* LookupChangelogMergeFunctionWrapper: notifyNewDeletion */
				PM_TRY(pm_dv_maintainer_delete(b->dvm, f->meta->file_name,
											   c->batch->first_row + c->pos, err));
				t->res->deletions++;
			}
			return PM_OK;
		}
		cursor_close_file(c);
		c->fi++;
	}
	return PM_OK;
}

/* pm_merge_lookup_fn: LookupUtils.lookup from output level + 1 upwards. */
static pm_code
lookup_key(void *ctx, const pm_batch *kb, int64_t kr, bool *found, pm_kv_record *rec,
		   pm_error *err)
{
	lc_bucket  *b = ctx;

	*found = false;
	for (int i = 0; i < b->ncursors; i++)
	{
		PM_TRY(cursor_seek(b, &b->cursors[i], kb, kr, found, rec, err));
		if (*found)
			return PM_OK;
	}
	return PM_OK;
}

static pm_code
open_cursors(lc_bucket *b, pm_error *err)
{
	b->cursors = pm_arena_zalloc(b->t->arena, sizeof(lc_cursor) * (size_t) (b->nruns + 1));
	if (b->cursors == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < b->nruns; i++)
		if (b->runs[i].level > b->output_level)
		{
			lc_cursor  *c = &b->cursors[b->ncursors++];

			c->level = b->runs[i].level;
			c->run = &b->runs[i];
		}
	return PM_OK;
}

static void
close_cursors(lc_bucket *b)
{
	for (int i = 0; i < b->ncursors; i++)
		cursor_close_file(&b->cursors[i]);
}

/* ---------------------------------------------------------------------
 * rewriting (LookupMergeTreeCompactRewriter)
 * ---------------------------------------------------------------------
 */

typedef struct lc_input
{
	lc_table   *t;
	lc_file    *file;
	pm_data_file_reader *reader;
	pm_arena   *scratch;		/* record-level expiry: the filtered batches */
} lc_input;

static pm_code
input_next(void *state, pm_batch **batch, pm_error *err)
{
	lc_input   *in = state;
	lc_table   *t = in->t;

	*batch = NULL;
	if (in->reader == NULL)
		PM_TRY(pm_data_file_reader_open(t->table, in->file->meta, t->all_fields,
										t->nfields, true, 0, &in->reader, err));
	if (t->expire == NULL)
		return pm_data_file_reader_next(in->reader, batch, err);
	/*
	 * RecordLevelExpire.wrap: expired records dropped as read, the file's
	 * DV applied here too (positions change; the run has no DV then)
	 */
	if (in->scratch == NULL && (in->scratch = pm_arena_create(t->env)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return pm_record_expire_next(t->expire, t->layout->nkeys + 2 + t->expire->field,
								 in->file->dv, in->reader, t->now_seconds, in->scratch, batch,
								 &t->res->rows_expired, err);
}

static void
input_close(void *state)
{
	lc_input   *in = state;

	pm_data_file_reader_close(in->reader);
	in->reader = NULL;
	if (in->scratch != NULL)
		pm_arena_destroy(in->scratch);
	in->scratch = NULL;
}

static pm_code
keep_meta(lc_table *t, pm_data_file_meta **arr, int *n, int *cap, const pm_data_file_meta *m,
		  pm_error *err)
{
	if (*n == *cap)
	{
		int			ncap = *cap ? *cap * 2 : 8;
		pm_data_file_meta *grown = pm_arena_realloc(t->arena, *arr,
													sizeof(pm_data_file_meta) * (size_t) *cap,
													sizeof(pm_data_file_meta) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		*arr = grown;
		*cap = ncap;
	}
	(*arr)[(*n)++] = *m;
	return PM_OK;
}

/*
 * Merge the files (every file its own run): with_lookup through the lookup
 * hook (keys of level 0 involved), else as the plain rewrite (the merge
 * function of the table, LookupMergeFunction around it unless first-row).
 * write: the result becomes new files at the output level replacing the
 * inputs, whose DVs go; else only the lookups' side effects count.
 */
static pm_code
merge_files(lc_bucket *b, lc_file **files, int n, bool with_lookup, bool write, bool drop_delete,
			pm_error *err)
{
	lc_table   *t = b->t;
	const pm_kv_layout *l = t->layout;
	int			nk = l->nkeys;
	pm_run_source *runs = pm_arena_zalloc(t->arena, sizeof(pm_run_source) * (size_t) n);
	lc_input   *ins = pm_arena_zalloc(t->arena, sizeof(lc_input) * (size_t) n);
	pm_vector  *cols = pm_arena_zalloc(t->arena, sizeof(pm_vector) * (size_t) (nk + 2 + t->nfields));
	pm_merge_reader *m = NULL;
	pm_kv_file_writer *w = NULL;
	pm_changelog_sink *cl = NULL;
	pm_data_file_meta *out = NULL;
	int			nout = 0;
	pm_data_file_meta *clout = NULL;
	int			nclout = 0;
	pm_code		rc;

	if (runs == NULL || ins == NULL || cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		ins[i].t = t;
		ins[i].file = files[i];
		runs[i].next = input_next;
		runs[i].close = input_close;
		runs[i].state = &ins[i];
		runs[i].dv = t->expire != NULL ? NULL : files[i]->dv;	/* see input_next */
		runs[i].level = files[i]->meta->level;
	}
	PM_TRY(pm_merge_reader_open(t->env, t->engine, nk, t->out_types, t->nfields, runs, n, 0, &m,
								err));
	pm_merge_reader_set_lookup(m, !t->opt.first_row);
	pm_merge_reader_set_kv_output(m, l->file_type->fields[nk].type,
								  l->file_type->fields[nk + 1].type);
	/* rewriteOrProduceChangelog / rewriteCompaction: !dropDelete keeps retractions */
	pm_merge_reader_set_keep_retracts(m, !drop_delete);
	if (with_lookup)
		pm_merge_reader_set_lookup_fn(m, lookup_key, b);
	rc = write ? pm_kv_file_writer_open(t->env, t->io, l, b->sp->bucket_path, b->uuid,
										&b->file_counter, t->arena, &w, err) : PM_OK;
	if (w != NULL)
		pm_kv_file_writer_set_level(w, b->output_level);
	/* ChangelogMergeTreeRewriter.rewriteOrProduceChangelog: its own changelog writer */
	if (rc == PM_OK && with_lookup && t->changelog)
	{
		rc = pm_changelog_sink_open(t->env, t->io, l, b->sp->bucket_path, b->uuid,
									&b->file_counter, t->arena, &t->dedup, t->opt.first_row,
									&cl, err);
		if (rc == PM_OK)
			pm_changelog_sink_set_level(cl, b->output_level);
		if (rc == PM_OK)
			pm_merge_reader_set_changelog_fn(m, pm_changelog_sink_add, cl);
	}
	while (rc == PM_OK)
	{
		pm_batch   *mb;

		if ((rc = pm_merge_reader_next(m, &mb, err)) != PM_OK || mb == NULL)
			break;
		if (!write)
			continue;
		rc = pm_kv_file_writer_write_merged(w, l, mb, t->nfields, cols, err);
		t->res->rows_written += mb->nrows;
	}
	pm_merge_reader_close(m);
	if (w != NULL)
	{
		if (rc == PM_OK)
			rc = pm_kv_file_writer_close(w, &out, &nout, err);
		else
			pm_kv_file_writer_abort(w, &out, &nout);
	}
	if (cl != NULL)
	{
		t->res->changelog_records += pm_changelog_sink_records(cl);
		if (rc == PM_OK)
			rc = pm_changelog_sink_close(cl, &clout, &nclout, err);
		else
			pm_changelog_sink_abort(cl, &clout, &nclout);
	}
	/* changelog files: createRollingChangelogFileWriter(outputLevel), APPEND */
	for (int i = 0; i < nclout; i++)
	{
		pm_error	e2;
		pm_code		rc2;

		clout[i].level = b->output_level;
		clout[i].file_source = 0;
		rc2 = keep_meta(t, &b->changelog, &b->nchangelog, &b->changelog_cap, &clout[i],
						rc == PM_OK ? err : &e2);
		if (rc == PM_OK)
			rc = rc2;
	}
	t->res->changelog_files += nclout;
	/* outputs recorded even on failure: the caller removes them */
	for (int i = 0; i < nout; i++)
	{
		pm_error	e2;
		pm_code		rc2;

		out[i].level = b->output_level;
		out[i].file_source = 1;	/* COMPACT */
		rc2 = keep_meta(t, &b->added, &b->nadded, &b->added_cap, &out[i], rc == PM_OK ? err : &e2);
		if (rc == PM_OK)
			rc = rc2;
	}
	if (rc != PM_OK || !write)
		return rc;
	for (int i = 0; i < n; i++)
	{
		PM_TRY(keep_meta(t, &b->deleted, &b->ndeleted, &b->deleted_cap, files[i]->meta, err));
		/* notifyRewriteCompactBefore: removeDeletionVectorOf */
		if (b->dvm != NULL)
			pm_dv_maintainer_remove(b->dvm, files[i]->meta->file_name);
	}
	t->res->files_deleted += n;
	t->res->files_added += nout;
	return PM_OK;
}

/* ChangelogMergeTreeRewriter.rewrite: lookup when a level-0 file takes part. */
static pm_code
rewrite_files(lc_bucket *b, lc_file **files, int n, pm_error *err)
{
	bool		level0 = false;

	for (int i = 0; i < n; i++)
		level0 |= files[i]->meta->level == 0;
	return merge_files(b, files, n, b->output_level != 0 && level0, true, b->drop_delete, err);
}

static pm_code
upgrade_meta(lc_bucket *b, lc_file *f, pm_error *err)
{
	pm_data_file_meta up = *f->meta;

	up.level = b->output_level;
	up.deletion_file = NULL;
	PM_TRY(keep_meta(b->t, &b->deleted, &b->ndeleted, &b->deleted_cap, f->meta, err));
	PM_TRY(keep_meta(b->t, &b->added, &b->nadded, &b->added_cap, &up, err));
	b->t->res->files_deleted++;
	b->t->res->files_added++;
	b->t->res->files_upgraded++;
	return PM_OK;
}

static bool
has_delete_rows(const pm_data_file_meta *m)
{
	return m->delete_row_count != 0;	/* null (-1) counts as some */
}

/* LookupMergeTreeCompactRewriter.upgrade (upgradeStrategy). */
static pm_code
rewriter_upgrade(lc_bucket *b, lc_file *f, pm_error *err)
{
	lc_table   *t = b->t;
	bool		rewrite;

	const char *ext0,
			   *ext;

	if (f->meta->level != 0)
		return upgrade_meta(b, f, err);	/* NO_CHANGELOG_NO_REWRITE */
	/* a level-0 file going to a level of another file.format.per.level format */
	if (pm_write_options_format(&t->opt, 0, &ext0) !=
		pm_write_options_format(&t->opt, b->output_level, &ext))
		rewrite = true;
	else if (b->dvm != NULL && has_delete_rows(f->meta))
		rewrite = true;
	else if (b->output_level == t->options_max_level)
		rewrite = false;
	else if (!t->opt.first_row && pm_merge_engine_get_kind(t->engine) == PM_MERGE_DEDUPLICATE &&
			 !t->opt.sequence_field)
		rewrite = false;
	else
		rewrite = true;
	/* ChangelogMergeTreeRewriter.upgrade: dropDelete = forceDropDelete (DV tables) */
	if (rewrite)
		return merge_files(b, &f, 1, true, true, b->dvm != NULL, err);
	/*
	 * CHANGELOG_NO_REWRITE with changelog-producer = lookup: the changelog
	 * produced, the file itself goes up as it is; the lookups also mark
	 * older rows deleted
	 */
	if (t->changelog || (b->dvm != NULL && b->ncursors > 0))
		PM_TRY(merge_files(b, &f, 1, true, false, b->dvm != NULL, err));
	return upgrade_meta(b, f, err);
}

/* MergeTreeCompactTask.upgrade */
static pm_code
task_upgrade(lc_bucket *b, lc_file *f, pm_error *err)
{
	int			max_level = b->num_levels - 1;
	bool		expired = false;

	/* containsExpiredRecords: RecordLevelExpire.isExpireFile */
	if (b->t->expire != NULL)
		PM_TRY(pm_record_expire_file(b->t->expire, b->t->table, f->meta, b->t->now_seconds,
									 b->t->arena, &expired, err));
	/* forceRewriteAllFiles (paimon_compact only; the commit's compaction ignores it) */
	if ((b->output_level == max_level && has_delete_rows(f->meta)) || expired ||
		(b->t->full && b->t->opt.compact_strategy.force_rewrite_all_files))
		return rewrite_files(b, &f, 1, err);
	if (f->meta->level != b->output_level)
		return rewriter_upgrade(b, f, err);
	return PM_OK;
}

/* The candidate sections waiting to be rewritten together. */
typedef struct lc_candidate
{
	lc_section *sections;
	int			n;
} lc_candidate;

/* MergeTreeCompactTask.rewrite */
static pm_code
task_rewrite(lc_bucket *b, lc_candidate *cand, pm_error *err)
{
	lc_table   *t = b->t;
	lc_file   **files;
	int			n = 0;

	if (cand->n == 0)
		return PM_OK;
	if (cand->n == 1 && cand->sections[0].nruns <= 1)
	{
		if (cand->sections[0].nruns == 1)
			for (int i = 0; i < cand->sections[0].runs[0].nfiles; i++)
				PM_TRY(task_upgrade(b, cand->sections[0].runs[0].files[i], err));
		cand->n = 0;
		return PM_OK;
	}
	for (int s = 0; s < cand->n; s++)
		for (int r = 0; r < cand->sections[s].nruns; r++)
			n += cand->sections[s].runs[r].nfiles;
	files = pm_arena_alloc(t->arena, sizeof(lc_file *) * (size_t) (n + 1));
	if (files == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	n = 0;
	for (int s = 0; s < cand->n; s++)
		for (int r = 0; r < cand->sections[s].nruns; r++)
			for (int i = 0; i < cand->sections[s].runs[r].nfiles; i++)
				files[n++] = cand->sections[s].runs[r].files[i];
	cand->n = 0;
	return rewrite_files(b, files, n, err);
}

static pm_code
candidate_add(lc_table *t, lc_candidate *cand, int cap, lc_run *runs, int nruns, pm_error *err)
{
	if (cand->n >= cap)
		return pm_fail(err, PM_ERR_INVALID, "too many compaction candidates");
	cand->sections[cand->n].runs = runs;
	cand->sections[cand->n].nruns = nruns;
	cand->n++;
	(void) t;
	return PM_OK;
}

/* MergeTreeCompactTask.doCompact over the unit's files. */
static pm_code
run_task(lc_bucket *b, int unit_runs, pm_error *err)
{
	lc_table   *t = b->t;
	lc_file   **files;
	int			n = 0;
	lc_section *sections;
	int			nsections;
	lc_candidate cand;
	int			cap;

	for (int i = 0; i < unit_runs; i++)
		n += b->runs[i].nfiles;
	files = pm_arena_alloc(t->arena, sizeof(lc_file *) * (size_t) (n + 1));
	if (files == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	n = 0;
	for (int i = 0; i < unit_runs; i++)
		for (int f = 0; f < b->runs[i].nfiles; f++)
			files[n++] = b->runs[i].files[f];
	PM_TRY(interval_partition(t, files, n, &sections, &nsections, err));
	cap = n + nsections + 1;
	cand.n = 0;
	cand.sections = pm_arena_zalloc(t->arena, sizeof(lc_section) * (size_t) cap);
	if (cand.sections == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int s = 0; s < nsections; s++)
	{
		lc_section *sec = &sections[s];

		if (sec->nruns > 1)
		{
			PM_TRY(candidate_add(t, &cand, cap, sec->runs, sec->nruns, err));
			continue;
		}
		for (int i = 0; i < sec->runs[0].nfiles; i++)
		{
			lc_file    *f = sec->runs[0].files[i];

			if (f->meta->file_size < t->compaction_file_size)
			{
				lc_run	   *single = pm_arena_zalloc(t->arena, sizeof(lc_run));
				lc_file   **one = pm_arena_alloc(t->arena, sizeof(lc_file *));

				if (single == NULL || one == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				one[0] = f;
				single->files = one;
				single->nfiles = 1;
				single->level = f->meta->level;
				single->size = f->meta->file_size;
				PM_TRY(candidate_add(t, &cand, cap, single, 1, err));
			}
			else
			{
				PM_TRY(task_rewrite(b, &cand, err));
				PM_TRY(task_upgrade(b, f, err));
			}
		}
	}
	return task_rewrite(b, &cand, err);
}

/* ---------------------------------------------------------------------
 * one bucket, one attempt
 * ---------------------------------------------------------------------
 */

static pm_code
restore_dvs(lc_bucket *b, pm_error *err)
{
	lc_table   *t = b->t;

	if (t->opt.deletion_vectors)
		PM_TRY(pm_dv_maintainer_create(t->env, t->opt.dv_bitmap64, &b->dvm, err));
	for (int i = 0; i < b->nfiles; i++)
	{
		const pm_deletion_file *df = b->files[i].meta->deletion_file;

		if (df == NULL)
			continue;
		PM_TRY(pm_deletion_vector_read(t->env, t->io, df->path, df->offset, df->length,
									   &b->files[i].dv, err));
		PM_TRY(pm_deletion_vector_check(b->files[i].dv, b->files[i].meta->row_count,
										df->cardinality, err));
		if (b->dvm != NULL)
			PM_TRY(pm_dv_maintainer_restore(b->dvm, b->files[i].meta->file_name, b->files[i].dv,
											err));
	}
	return PM_OK;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* The new DV index file of the bucket (ADD) and the ones it replaces (DELETE). */
static pm_code
index_changes(lc_bucket *b, pm_commit_change *c, pm_error *err)
{
	lc_table   *t = b->t;
	pm_dv_index_file f;
	pm_index_manifest_entry *add;
	pm_index_manifest_entry *del;
	int			ndel = 0;
	char	   *dir;

	if (b->dvm == NULL || !pm_dv_maintainer_modified(b->dvm))
		return PM_OK;
	dir = pm_index_dir_of_bucket(t->table_path, t->opt.index_in_data_dir, b->sp->bucket_path,
								 t->arena);
	if (dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_dv_maintainer_write(b->dvm, t->io, dir, t->index_uuid, &t->index_counter, t->arena,
								  &f, err));
	add = pm_arena_zalloc(t->arena, sizeof(*add));
	del = pm_arena_zalloc(t->arena, sizeof(*del) * (size_t) (b->nfiles + 1));
	if (add == NULL || del == NULL || pm_index_entry_of_dv_file(&f, t->arena, add, err) != PM_OK)
	{
		pm_fileio_remove_quietly(t->io, f.path);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	/* the bucket's DV index files so far (one for primary-key tables) */
	for (int i = 0; i < b->nfiles; i++)
	{
		const pm_deletion_file *df = b->files[i].meta->deletion_file;
		const char *name;
		bool		seen = false;

		if (df == NULL)
			continue;
		name = base_name(df->path);
		for (int k = 0; k < ndel; k++)
			seen |= strcmp(del[k].file_name, name) == 0;
		if (seen)
			continue;
		del[ndel].index_type = "DELETION_VECTORS";
		del[ndel].file_name = name;
		ndel++;
	}
	c->nindex_added = 1;
	c->index_added = add;
	c->nindex_deleted = ndel;
	c->index_deleted = del;
	return PM_OK;
}

static pm_code
compact_bucket(lc_table *t, const pm_split *sp, pm_error *err)
{
	lc_bucket	b;
	int			unit_runs;
	lc_file   **rewrite_only = NULL;	/* FileRewriteCompactTask's files, NULL-ended */
	pm_code		rc;
	pm_commit_change *c;

	memset(&b, 0, sizeof(b));
	b.t = t;
	b.sp = sp;
	if (t->opt.bucket > 0 && sp->total_buckets > 0 && sp->total_buckets != t->opt.bucket)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "bucket %d was written with %d buckets, the table now has %d: rescaled buckets are not compacted",
					   sp->bucket, sp->total_buckets, t->opt.bucket);
	PM_TRY(build_levels(&b, err));
	if (t->full)
	{
		PM_TRY(pick_full(&b, &unit_runs, &rewrite_only, err));
		if (unit_runs == 0)
			return PM_OK;
		b.output_level = b.num_levels - 1;
	}
	else if (!pick_unit(&b, &unit_runs, &b.output_level))
		return PM_OK;
	/* MergeTreeCompactManager.triggerCompaction */
	b.drop_delete = b.output_level != 0 &&
		(b.output_level >= non_empty_highest_level(&b) || t->opt.deletion_vectors);
	rc = pm_uuid_random(b.uuid, err);
	if (rc == PM_OK)
		rc = restore_dvs(&b, err);
	if (rc == PM_OK)
		rc = open_cursors(&b, err);
	if (rc == PM_OK && rewrite_only != NULL)
	{
		/* FileRewriteCompactTask: each file rewritten alone */
		for (int i = 0; rc == PM_OK && rewrite_only[i] != NULL; i++)
			rc = rewrite_files(&b, &rewrite_only[i], 1, err);
	}
	else if (rc == PM_OK)
		rc = run_task(&b, unit_runs, err);
	close_cursors(&b);
	c = &t->changes[t->nchanges++];
	memset(c, 0, sizeof(*c));
	c->partition = sp->partition;
	c->partition_len = sp->partition_len;
	c->bucket = sp->bucket;
	c->total_buckets = t->opt.bucket > 0 ? t->opt.bucket : sp->total_buckets;
	c->nadded = b.nadded;
	c->added = b.added;
	c->ndeleted = b.ndeleted;
	c->deleted = b.deleted;
	c->nchangelog = b.nchangelog;
	c->changelog = b.changelog;
	if (rc == PM_OK)
		rc = index_changes(&b, c, err);
	for (int i = 0; i < b.nfiles; i++)
		pm_deletion_vector_destroy(b.files[i].dv);
	pm_dv_maintainer_free(b.dvm);
	if (rc == PM_OK)
		t->res->buckets++;
	return rc;
}

/* Remove what an attempt wrote: new data files (not upgraded ones) and index files. */
static void
remove_written(lc_table *t)
{
	if (t->io->remove == NULL)
		return;
	for (int i = 0; i < t->nchanges; i++)
	{
		const pm_commit_change *c = &t->changes[i];

		for (int f = 0; f < c->nadded; f++)
		{
			bool		upgraded = false;

			for (int d = 0; d < c->ndeleted; d++)
				upgraded |= strcmp(c->deleted[d].file_name, c->added[f].file_name) == 0;
			if (!upgraded)
				pm_fileio_remove_quietly(t->io, c->added[f].path);
		}
		for (int f = 0; f < c->nchangelog; f++)
			pm_data_file_remove_written(t->io, &c->changelog[f]);
		for (int f = 0; f < c->nindex_added; f++)
			pm_fileio_remove_quietly(t->io, c->index_added[f].path);
	}
}

static pm_code
setup(lc_table *t, pm_error *err)
{
	const pm_schema *s = t->schema;

	if (t->full)
		PM_TRY(pm_write_options_parse_compaction(s, t->arena, &t->opt, err));
	else
		PM_TRY(pm_write_options_parse(s, t->arena, &t->opt, err));
	if (t->opt.bucket == -2 && t->full)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option bucket = -2: compacting postpone-bucket tables is not supported (Java's compaction of them moves the postpone bucket's files into real buckets, a rescale this compaction does not do)");
	/*
	 * at commit: the buckets written, fixed ones (postpone tables write
	 * into fixed buckets per partition, compact_bucket takes their count)
	 */
	if (t->opt.bucket < 1 && !(t->full && t->opt.bucket == -1) &&
		!(!t->full && t->opt.bucket == -2))
		return pm_fail(err, PM_ERR_UNSUPPORTED, "only tables with a fixed bucket count are compacted");
	t->options_max_level = t->opt.compact_strategy.num_levels - 1;
	/* CoreOptions.compactionFileSize */
	t->compaction_file_size = t->opt.target_file_size / 10 * 7;
	t->nfields = s->row_type->nfields;
	t->all_fields = pm_arena_alloc(t->arena, sizeof(int) * (size_t) (t->nfields + 1));
	t->out_types = pm_arena_alloc(t->arena, sizeof(pm_type *) * (size_t) (t->nfields + 1));
	if (t->all_fields == NULL || t->out_types == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < t->nfields; i++)
	{
		t->all_fields[i] = i;
		t->out_types[i] = s->row_type->fields[i].type;
	}
	PM_TRY(pm_kv_layout_create(s, &t->opt, t->arena, &t->layout, err));
	PM_TRY(pm_merge_engine_create(s, t->all_fields, t->nfields, t->layout->nkeys + 2, t->arena,
								  &t->engine, err));
	PM_TRY(pm_record_expire_create(s, t->arena, &t->expire, err));
	t->now_seconds = pm_record_expire_now();
	t->changelog = t->opt.changelog_lookup;
	if (t->changelog)
		PM_TRY(pm_changelog_dedup_parse(s, t->arena, &t->dedup, err));
	return pm_uuid_random(t->index_uuid, err);
}

static bool
is_target(const pm_split *sp, const pm_lookup_compact_target *targets, int n)
{
	for (int i = 0; i < n; i++)
		if (targets[i].bucket == sp->bucket && targets[i].partition_len == sp->partition_len &&
			memcmp(targets[i].partition, sp->partition, (size_t) sp->partition_len) == 0)
			return true;
	return false;
}

/* One plan + compaction + COMPACT commit on the latest snapshot. */
static pm_code
attempt(lc_table *t, const char *commit_user, int64_t commit_identifier,
		const pm_lookup_compact_target *targets, int ntargets, pm_error *err)
{
	pm_scan    *scan = NULL;
	pm_code		rc;
	int			nsplits;

	PM_TRY(pm_table_open(t->env, t->io, t->table_path, NULL, &t->table, err));
	t->schema = pm_table_schema(t->table);
	rc = setup(t, err);
	if (rc == PM_OK)
		rc = pm_table_scan_plan_every_level(t->table, &scan, err);
	nsplits = scan != NULL ? pm_scan_split_count(scan) : 0;
	if (rc == PM_OK &&
		(t->changes = pm_arena_zalloc(t->arena, sizeof(pm_commit_change) * (size_t) (nsplits + 1))) == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; rc == PM_OK && i < nsplits; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		if (is_target(sp, targets, ntargets))
			rc = compact_bucket(t, sp, err);
	}
	if (rc == PM_OK && t->nchanges > 0)
	{
		pm_commit_request req;
		bool		any = false;

		for (int i = 0; i < t->nchanges; i++)
			any |= t->changes[i].nadded > 0 || t->changes[i].ndeleted > 0 ||
				t->changes[i].nindex_added > 0 || t->changes[i].nchangelog > 0;
		memset(&req, 0, sizeof(req));
		req.commit_user = commit_user;
		req.commit_identifier = commit_identifier;
		req.commit_kind = "COMPACT";
		req.schema = t->schema;
		req.nchanges = t->nchanges;
		req.changes = t->changes;
		if (any)
			rc = pm_table_commit(t->env, t->io, t->table_path, &req, t->arena,
								 &t->res->snapshot_id, err);
	}
	if (rc != PM_OK)
		remove_written(t);
	pm_scan_free(scan);
	pm_merge_engine_destroy(t->engine);
	t->engine = NULL;
	pm_table_close(t->table);
	t->table = NULL;
	return rc;
}

pm_code
pm_lookup_compact_commit(const pm_env *env, pm_fileio *io, const char *table_path,
						 const char *commit_user, int64_t commit_identifier,
						 const pm_lookup_compact_target *targets, int ntargets,
						 pm_lookup_compact_result *result, pm_error *err)
{
	pm_code		rc = PM_OK;

	memset(result, 0, sizeof(*result));
	if (ntargets == 0)
		return PM_OK;
	for (int a = 0; a < MAX_ATTEMPTS; a++)
	{
		lc_table	t;

		memset(&t, 0, sizeof(t));
		memset(result, 0, sizeof(*result));
		result->attempts = a + 1;
		t.env = env;
		t.io = io;
		t.table_path = table_path;
		t.res = result;
		t.arena = pm_arena_create(env);
		if (t.arena == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		rc = attempt(&t, commit_user, commit_identifier, targets, ntargets, err);
		pm_arena_destroy(t.arena);
		if (rc != PM_ERR_CONFLICT)
			break;
		pm_error_clear(err);
	}
	if (rc != PM_OK)
		result->snapshot_id = 0;
	return rc;
}

/* ---------------------------------------------------------------------
 * paimon_compact's full compaction
 * ---------------------------------------------------------------------
 */

/* Whether the split lies in the partition directory want (NULL: every one). */
static pm_code
in_partition(lc_table *t, const pm_split *sp, const char *want, bool *in, pm_error *err)
{
	char	   *have;

	*in = true;
	if (want == NULL)
		return PM_OK;
	PM_TRY(pm_partition_path(t->schema, t->opt.partition_type, t->opt.partition_default_name,
							 sp->partition_values, t->arena, &have, err));
	*in = strcmp(have, want) == 0;
	return PM_OK;
}

pm_code
pm_lookup_compact_full(const pm_env *env, pm_fileio *io, const char *table_path,
					   const char *partition,
					   void (*progress) (void *ctx, int done, int total, int64_t rows),
					   void *progress_ctx, pm_lookup_compact_result *result, pm_error *err)
{
	lc_table	t;
	pm_scan    *scan = NULL;
	char	   *want = NULL;
	char		user[PM_UUID_TEXT_LEN + 1];
	int			nsplits = 0,
				total = 0,
				done = 0;
	pm_code		rc;

	memset(result, 0, sizeof(*result));
	memset(&t, 0, sizeof(t));
	result->attempts = 1;
	t.env = env;
	t.io = io;
	t.table_path = table_path;
	t.res = result;
	t.full = true;
	t.arena = pm_arena_create(env);
	if (t.arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_table_open(env, io, table_path, NULL, &t.table, err);
	if (rc == PM_OK)
	{
		t.schema = pm_table_schema(t.table);
		rc = setup(&t, err);
	}
	if (rc == PM_OK && partition != NULL)
		rc = pm_compact_partition_path(t.schema, t.arena, partition, &want, err);
	if (rc == PM_OK)
		rc = pm_table_scan_plan_every_level(t.table, &scan, err);
	nsplits = scan != NULL ? pm_scan_split_count(scan) : 0;
	if (rc == PM_OK &&
		(t.changes = pm_arena_zalloc(t.arena, sizeof(pm_commit_change) * (size_t) (nsplits + 1))) == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; rc == PM_OK && i < nsplits; i++)
	{
		bool		in;

		rc = in_partition(&t, pm_scan_get_split(scan, i), want, &in, err);
		total += rc == PM_OK && in;
	}
	for (int i = 0; rc == PM_OK && i < nsplits; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);
		bool		in;
		int			before = t.nchanges;

		if ((rc = in_partition(&t, sp, want, &in, err)) != PM_OK || !in)
			continue;
		rc = compact_bucket(&t, sp, err);
		/* a bucket with nothing to do adds no change */
		if (rc == PM_OK && t.nchanges > before && t.changes[before].nadded == 0 &&
			t.changes[before].ndeleted == 0 && t.changes[before].nindex_added == 0 &&
			t.changes[before].nchangelog == 0)
			t.nchanges = before;
		if (rc == PM_OK && progress != NULL)
			progress(progress_ctx, ++done, total, result->rows_written);
	}
	if (rc == PM_OK && t.nchanges > 0)
	{
		pm_commit_request req;

		/* a dedicated compaction job: its own commit user, Long.MAX_VALUE */
		rc = pm_uuid_random(user, err);
		memset(&req, 0, sizeof(req));
		req.commit_user = user;
		req.commit_identifier = INT64_MAX;
		req.commit_kind = "COMPACT";
		req.schema = t.schema;
		req.nchanges = t.nchanges;
		req.changes = t.changes;
		if (rc == PM_OK)
			rc = pm_table_commit(env, io, table_path, &req, t.arena, &result->snapshot_id, err);
	}
	if (rc != PM_OK)
	{
		remove_written(&t);
		result->snapshot_id = 0;
	}
	pm_scan_free(scan);
	pm_merge_engine_destroy(t.engine);
	pm_table_close(t.table);
	pm_arena_destroy(t.arena);
	return rc;
}
