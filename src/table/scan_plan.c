/*-------------------------------------------------------------------------
 * scan_plan.c
 *	  pm_table_scan_plan: manifests -> live data files -> pruned -> splits.
 *
 *	 1. refuse table options this reader cannot honour (table_options.c;
 *		at plan time, so that opening / IMPORT FOREIGN SCHEMA still work)
 *	 2. read base + delta manifest lists and their manifests, in order
 *		(append tables with a filter skip manifests whose partition stats
 *		exclude it; their live files still count in the funnel)
 *	 3. merge ADD/DELETE entries by identifier into the live file set
 *	 4. batch-scan visibility (PK: skip level 0 with DV / first-row; skip
 *		postpone buckets)
 *	 5. prune by partition values (_PARTITION), then by value statistics
 *		(append tables only: for primary-key tables a newer record of a key
 *		may live in a file whose stats do not match), then by file indexes
 *		(embedded in the entry or in its .index sidecar; same rule, except
 *		that primary-key tables with deletion vectors, whose visible files
 *		need no merge, use every field, as Java does)
 *	 6. group by (partition, bucket) into splits; resolve file paths
 *
 * Partition directories are rendered from the _PARTITION values
 * (partition_path.c), never parsed back.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §1.3-1.4, §5, §6.4, §13.1.
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/meta_cache.h"
#include "index/file_index.h"
#include "index/index_rows.h"
#include "row/binary_row.h"
#include "row/bucket_function.h"
#include "table/data_file_path.h"
#include "table/index_manifest.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/partition_path.h"
#include "table/stats_filter.h"
#include "table/table_options.h"
#include "table/table_int.h"

/* ---- bucket pruning ----------------------------------------------------- */

/* The literal of "field = lit" among the top-level conjuncts of p, or NULL. */
static const pm_value *
equality_literal(const pm_predicate *p, int field, int depth)
{
	if (p == NULL || depth > 64)
		return NULL;
	if (p->op == PM_PRED_AND)
	{
		for (int i = 0; i < p->nchildren; i++)
		{
			const pm_value *v = equality_literal(p->children[i], field, depth + 1);

			if (v != NULL)
				return v;
		}
		return NULL;
	}
	if (p->field == field && p->literals != NULL && !p->literals[0].is_null &&
		(p->op == PM_PRED_EQ || (p->op == PM_PRED_IN && p->nliterals == 1)))
		return &p->literals[0];
	return NULL;
}

typedef struct bucket_filter
{
	const pm_type *key_type;	/* ROW of the bucket-key fields */
	pm_bucket_function fn;		/* bucket-function.type */
	pm_value   *values;
	int32_t		cached_total;	/* total buckets the cached bucket is for */
	int32_t		cached_bucket;
} bucket_filter;

/*
 * The bucket-key fields (option bucket-key, else the trimmed primary key)
 * as table field indexes, when the default bucket function assigns buckets;
 * false otherwise (or when a name is unknown).
 */
bool
pm_table_bucket_key_fields(const pm_table *t, int *idx, int max, int *n, pm_bucket_function *fn)
{
	const pm_schema *s = t->schema;
	const char *keys = pm_schema_option(s, "bucket-key");
	int			nkeys = 0;
	pm_error	ignored;

	*n = 0;
	if (pm_bucket_function_parse(pm_schema_option(s, "bucket-function.type"), fn,
								 &ignored) != PM_OK)
		return false;
	if (keys != NULL)
	{
		const char *p = keys;

		while (*p)
		{
			const char *end = strchr(p, ',');
			size_t		len = end ? (size_t) (end - p) : strlen(p);
			char		name[256];

			if (len == 0 || len >= sizeof(name) || nkeys >= max)
				return false;
			memcpy(name, p, len);
			name[len] = '\0';
			idx[nkeys] = pm_type_field_index(s->row_type, name);
			if (idx[nkeys] < 0)
				return false;
			nkeys++;
			p = end ? end + 1 : p + len;
		}
	}
	else
	{
		if (t->ntrimmed_pk > max)
			return false;
		for (int i = 0; i < t->ntrimmed_pk; i++)
			idx[nkeys++] = t->trimmed_pk[i];
	}
	*n = nkeys;
	if (nkeys > 0 && *fn != PM_BUCKET_FUNCTION_DEFAULT)
	{
		pm_field	f[64];
		pm_type		row;

		/* the function's precondition on the key's types, as a ROW of them */
		memset(&row, 0, sizeof(row));
		row.id = PM_TYPE_ROW;
		row.nfields = nkeys;
		row.fields = f;
		for (int i = 0; i < nkeys; i++)
			f[i] = s->row_type->fields[idx[i]];
		if (pm_bucket_function_check(*fn, &row, &ignored) != PM_OK)
			return false;
	}
	return nkeys > 0;
}

/*
 * With "k = const" for every bucket-key field, the one bucket of each
 * bucket count that can hold matches (§10), by the table's bucket function.
 */
static pm_code
bucket_filter_init(pm_scan *scan, const pm_predicate *filter, bucket_filter **out,
				   pm_error *err)
{
	pm_table   *t = scan->table;
	const pm_schema *s = t->schema;
	int			nkeys = 0;
	int			idx[64];
	pm_field   *fields;
	bucket_filter *bf;
	pm_bucket_function fn;

	*out = NULL;
	if (filter == NULL || !pm_table_bucket_key_fields(t, idx, 64, &nkeys, &fn))
		return PM_OK;
	bf = pm_arena_zalloc(scan->arena, sizeof(bucket_filter));
	fields = pm_arena_zalloc(scan->arena, sizeof(pm_field) * nkeys);
	if (bf == NULL || fields == NULL ||
		(bf->values = pm_arena_zalloc(scan->arena, sizeof(pm_value) * nkeys)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nkeys; i++)
	{
		const pm_value *v = equality_literal(filter, idx[i], 0);

		if (v == NULL)
			return PM_OK;
		bf->values[i] = *v;
		fields[i] = s->row_type->fields[idx[i]];
	}
	bf->key_type = pm_type_new_row(scan->arena, fields, nkeys, false);
	if (bf->key_type == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	bf->fn = fn;
	bf->cached_total = 0;
	*out = bf;
	return PM_OK;
}

/* false: the entry's bucket cannot hold a matching row */
static bool
bucket_may_match(bucket_filter *bf, const pm_manifest_entry *e)
{
	pm_error	ignored;

	if (bf == NULL || e->total_buckets <= 0 || e->bucket < 0)
		return true;
	pm_error_clear(&ignored);
	if (bf->cached_total != e->total_buckets)
	{
		if (pm_bucket_function_bucket(bf->fn, bf->key_type, bf->values, e->total_buckets,
									  &bf->cached_bucket, &ignored) != PM_OK)
			return true;
		bf->cached_total = e->total_buckets;
	}
	return bf->cached_bucket == e->bucket;
}

/* ---- planning ---------------------------------------------------------- */

typedef struct selected_file
{
	pm_manifest_entry *entry;
	int			order;
} selected_file;

static int
cmp_selected(const void *pa, const void *pb)
{
	const selected_file *a = pa,
			   *b = pb;
	int32_t		la = a->entry->partition_len,
				lb = b->entry->partition_len;
	int			c;

	if (la != lb)
		return la < lb ? -1 : 1;
	c = la > 0 ? memcmp(a->entry->partition, b->entry->partition, la) : 0;
	if (c != 0)
		return c;
	if (a->entry->bucket != b->entry->bucket)
		return a->entry->bucket < b->entry->bucket ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * Can a manifest hold a file of a partition matching the filter? From its
 * _PARTITION_STATS (min/max/null counts over its entries' partitions, §5.1);
 * unknown or undecodable stats keep it.
 */
static bool
manifest_may_match(pm_scan *scan, const pm_manifest_file_meta *m, const pm_predicate *filter,
				   pm_field_range *ranges, pm_arena *tmp)
{
	pm_table   *t = scan->table;
	const pm_type *row = t->schema->row_type;
	const pm_simple_stats *st = &m->partition_stats;
	pm_value   *mins,
			   *maxs;
	int			arity;
	pm_error	ignored;
	int64_t		entries = m->num_added_files + m->num_deleted_files;

	if (filter == NULL || t->npartition == 0 || st->min_values == NULL ||
		st->max_values == NULL || st->nnull_counts != t->npartition)
		return true;
	pm_arena_reset(tmp);
	pm_error_clear(&ignored);
	mins = pm_arena_zalloc(tmp, sizeof(pm_value) * t->npartition);
	maxs = pm_arena_zalloc(tmp, sizeof(pm_value) * t->npartition);
	if (mins == NULL || maxs == NULL ||
		pm_binary_row_serialized_arity(st->min_values, st->min_values_len, &arity, &ignored) != PM_OK ||
		arity != t->npartition ||
		pm_binary_row_decode_serialized(st->min_values, st->min_values_len, t->partition_type,
										mins, &ignored) != PM_OK ||
		pm_binary_row_decode_serialized(st->max_values, st->max_values_len, t->partition_type,
										maxs, &ignored) != PM_OK)
		return true;
	for (int f = 0; f < row->nfields; f++)
		memset(&ranges[f], 0, sizeof(pm_field_range));
	for (int k = 0; k < t->npartition; k++)
	{
		pm_field_range *r = &ranges[t->partition_fields[k]];

		r->known = true;
		r->row_count = entries;
		r->null_count = st->null_counts[k];
		r->has_min_max = !mins[k].is_null && !maxs[k].is_null;
		r->min = mins[k];
		r->max = maxs[k];
	}
	return pm_stats_filter_may_match(filter, row, ranges, row->nfields);
}

/*
 * Read the manifests of one list, skipping (append tables with a filter)
 * those whose partition statistics exclude every matching partition; their
 * entry counts go to *skipped_adds / *skipped_deletes for the funnel.
 */
static pm_code
read_manifests(pm_scan *scan, const char *list_name, int64_t list_size,
			   const pm_predicate *filter,
			   pm_manifest_entry **entries, int *count, int *cap,
			   int64_t *skipped_adds, int64_t *skipped_deletes, pm_error *err)
{
	pm_table   *t = scan->table;
	pm_manifest_file_meta *metas;
	int			n;
	char	   *path = pm_arena_sprintf(scan->arena, "%s/manifest/%s", t->path, list_name);
	pm_field_range *ranges = NULL;
	pm_arena   *tmp = NULL;
	pm_code		rc = PM_OK;

	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_manifest_list_read_cached(t->env, t->io, path, list_size, scan->arena, &metas, &n,
										err));
	if (filter != NULL && !scan->needs_merge && t->npartition > 0 &&
		scan->options.prune_partitions)
	{
		ranges = pm_arena_zalloc(scan->arena, sizeof(pm_field_range) *
								 (t->schema->row_type->nfields + 1));
		tmp = pm_arena_create(t->env);
		if (ranges == NULL || tmp == NULL)
		{
			pm_arena_destroy(tmp);
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
	}
	for (int i = 0; i < n && rc == PM_OK; i++)
	{
		char	   *mpath;

		if ((rc = pm_check_interrupts(t->env, err)) != PM_OK)
			break;
		if (tmp != NULL && metas[i].num_added_files >= 0 && metas[i].num_deleted_files >= 0 &&
			!manifest_may_match(scan, &metas[i], filter, ranges, tmp))
		{
			*skipped_adds += metas[i].num_added_files;
			*skipped_deletes += metas[i].num_deleted_files;
			continue;
		}
		mpath = pm_arena_sprintf(scan->arena, "%s/manifest/%s", t->path, metas[i].file_name);
		if (mpath == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		else
			rc = pm_manifest_entries_read_cached(t->env, t->io, mpath, metas[i].file_size,
												 scan->arena, entries, count, cap, err);
		scan->stats.manifests_read++;
	}
	pm_arena_destroy(tmp);
	return rc;
}

/* <table>/[data-file.path-directory/]<partition path>/bucket-<N> of an entry. */
static pm_code
bucket_path(pm_scan *scan, const pm_manifest_entry *e, const pm_value *partition_values,
			pm_arena *arena, const char **out, pm_error *err)
{
	pm_table   *t = scan->table;
	const char *data_dir = pm_schema_option(t->schema, "data-file.path-directory");
	char	   *ppath;

	PM_TRY(pm_partition_path(t->schema, t->partition_type, t->partition_default_name,
							 partition_values, arena, &ppath, err));
	*out = pm_bucket_dir_path(t->path, data_dir, ppath, e->bucket, arena);
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

static pm_code
resolve_file(pm_scan *scan, const char *bucket_path, pm_data_file_meta *f, pm_error *err)
{
	pm_table   *t = scan->table;
	char	   *dir;

	if (f->external_path != NULL)
	{
		char	   *slash;

		PM_TRY(pm_path_map_resolve(t->path_map, f->external_path, scan->arena,
								   (char **) &f->path, err));
		dir = pm_arena_strdup(scan->arena, f->path);
		if (dir == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		slash = strrchr(dir, '/');
		if (slash != NULL)
			*slash = '\0';
	}
	else
	{
		dir = (char *) bucket_path;
		f->path = pm_arena_sprintf(scan->arena, "%s/%s", bucket_path, f->file_name);
		if (f->path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	if (f->nextra_files > 0)
	{
		const char **paths = pm_arena_zalloc(scan->arena, sizeof(char *) * f->nextra_files);

		if (paths == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int i = 0; i < f->nextra_files; i++)
			if ((paths[i] = pm_arena_sprintf(scan->arena, "%s/%s", dir, f->extra_files[i])) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		f->extra_file_paths = paths;
	}
	{
		pm_error	ferr;

		/* unknown extensions: default to the table's file.format */
		pm_error_clear(&ferr);
		if (pm_file_format_from_path(f->file_name, &f->format, &ferr) != PM_OK)
		{
			const char *fmt = pm_schema_option(t->schema, "file.format");

			PM_TRY(pm_file_format_from_name(fmt ? fmt : "parquet", &f->format, err));
		}
	}
	return PM_OK;
}

static pm_code
build_splits(pm_scan *scan, selected_file *sel, int nsel, pm_value **values_of, pm_error *err)
{
	pm_table   *t = scan->table;
	int			i = 0;

	scan->splits = pm_arena_zalloc(scan->arena, sizeof(pm_split) * (nsel + 1));
	if (scan->splits == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	while (i < nsel)
	{
		pm_manifest_entry *first = sel[i].entry;
		pm_split   *sp = &scan->splits[scan->nsplits];
		int			j = i;
		bool		new_partition;

		while (j < nsel && sel[j].entry->bucket == first->bucket &&
			   sel[j].entry->partition_len == first->partition_len &&
			   (first->partition_len == 0 ||
				memcmp(sel[j].entry->partition, first->partition, first->partition_len) == 0))
			j++;
		new_partition = scan->nsplits == 0 ||
			scan->splits[scan->nsplits - 1].partition_len != first->partition_len ||
			memcmp(scan->splits[scan->nsplits - 1].partition, first->partition,
				   first->partition_len) != 0;
		if (new_partition)
			scan->stats.partitions_selected++;
		sp->partition = first->partition;
		sp->partition_len = first->partition_len;
		sp->npartition_values = t->npartition;
		sp->partition_values = values_of[sel[i].order];
		sp->bucket = first->bucket;
		sp->total_buckets = first->total_buckets;
		PM_TRY(bucket_path(scan, first, sp->partition_values, scan->arena, &sp->bucket_path, err));
		sp->files = pm_arena_zalloc(scan->arena, sizeof(pm_data_file_meta *) * (j - i));
		if (sp->bucket_path == NULL || sp->files == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int k = i; k < j; k++)
		{
			pm_data_file_meta *f = &sel[k].entry->file;

			PM_TRY(resolve_file(scan, sp->bucket_path, f, err));
			sp->files[sp->nfiles++] = f;
			sp->row_count += f->row_count;
		}
		scan->nsplits++;
		i = j;
	}
	scan->stats.splits = scan->nsplits;
	return PM_OK;
}

/*
 * Attach each selected file's deletion vector (index manifest, §7): the
 * range naming the file inside the DELETION_VECTORS index file of the same
 * partition and bucket.
 */
static pm_code
attach_deletion_vectors(pm_scan *scan, pm_error *err)
{
	pm_table   *t = scan->table;
	pm_index_manifest_entry *entries;
	int			n;
	char	   *path;
	bool		in_data_dir = pm_schema_bool_option(t->schema, "index-file-in-data-file-dir", false);

	if (t->snapshot->index_manifest == NULL || scan->nsplits == 0)
		return PM_OK;
	path = pm_arena_sprintf(scan->arena, "%s/manifest/%s", t->path, t->snapshot->index_manifest);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_index_manifest_read(t->env, t->io, path, scan->arena, &entries, &n, err));
	for (int i = 0; i < n; i++)
	{
		pm_index_manifest_entry *e = &entries[i];

		if (e->kind != 0 || strcmp(e->index_type, "DELETION_VECTORS") != 0 || e->nranges <= 0)
			continue;
		for (int s = 0; s < scan->nsplits; s++)
		{
			pm_split   *sp = &scan->splits[s];
			char	   *index_path = NULL;

			if (sp->bucket != e->bucket || sp->partition_len != e->partition_len ||
				(e->partition_len > 0 && memcmp(sp->partition, e->partition, e->partition_len) != 0))
				continue;
			if (e->external_path != NULL)
				PM_TRY(pm_path_map_resolve(t->path_map, e->external_path, scan->arena, &index_path, err));
			else if (in_data_dir)
				index_path = pm_arena_sprintf(scan->arena, "%s/%s", sp->bucket_path, e->file_name);
			else
				index_path = pm_arena_sprintf(scan->arena, "%s/index/%s", t->path, e->file_name);
			if (index_path == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			for (int f = 0; f < sp->nfiles; f++)
			{
				pm_data_file_meta *file = (pm_data_file_meta *) sp->files[f];

				for (int r = 0; r < e->nranges; r++)
				{
					pm_deletion_file *dv;

					if (strcmp(e->ranges[r].data_file, file->file_name) != 0)
						continue;
					dv = pm_arena_zalloc(scan->arena, sizeof(pm_deletion_file));
					if (dv == NULL)
						return pm_fail(err, PM_ERR_NOMEM, "out of memory");
					dv->path = index_path;
					dv->offset = e->ranges[r].offset;
					dv->length = e->ranges[r].length;
					dv->cardinality = e->ranges[r].cardinality;
					if (file->deletion_file == NULL)
						scan->stats.files_with_dv++;
					/* -1 once a cardinality is unknown (index manifests before 1.0) */
					if (dv->cardinality < 0)
						scan->stats.rows_deleted = -1;
					else if (scan->stats.rows_deleted >= 0)
						scan->stats.rows_deleted += dv->cardinality;
					file->deletion_file = dv;
				}
			}
		}
	}
	return PM_OK;
}

/* What pruning needs while it walks the live files. */
typedef struct prune_state
{
	const pm_predicate *filter;
	bucket_filter *bucket;
	pm_field_range *ranges;		/* one per table field */
	pm_arena   *tmp;			/* per-file stats decoding */
} prune_state;

typedef enum prune_result
{
	KEEP,
	PRUNED_PARTITION,
	PRUNED_BUCKET,
	PRUNED_STATS,
	PRUNED_INDEX
} prune_result;

static pm_code index_prune(pm_scan *scan, prune_state *ps, const pm_manifest_entry *e,
						   const pm_value *pv, bool *pruned, pm_error *err);

/*
 * Decide one live file: by its partition values (exact), its bucket, then
 * its statistics (for primary-key tables only the key fields: every
 * version of a row has the same key, but values change between versions).
 */
static pm_code
prune_file(pm_scan *scan, prune_state *ps, const pm_manifest_entry *e, const pm_value *pv,
		   prune_result *result, pm_error *err)
{
	pm_table   *t = scan->table;
	const pm_type *row = t->schema->row_type;
	int			ntf = row->nfields;

	*result = KEEP;
	if (ps->filter == NULL)
		return PM_OK;
	for (int f = 0; f < ntf; f++)
		memset(&ps->ranges[f], 0, sizeof(pm_field_range));
	for (int k = 0; k < t->npartition; k++)
	{
		pm_field_range *r = &ps->ranges[t->partition_fields[k]];

		r->known = true;
		r->row_count = e->file.row_count;
		r->null_count = pv[k].is_null ? e->file.row_count : 0;
		r->has_min_max = !pv[k].is_null;
		r->min = pv[k];
		r->max = pv[k];
	}
	if (scan->options.prune_partitions &&
		!pm_stats_filter_may_match(ps->filter, row, ps->ranges, ntf))
	{
		*result = PRUNED_PARTITION;
		return PM_OK;
	}
	if (scan->options.prune_partitions && !bucket_may_match(ps->bucket, e))
	{
		*result = PRUNED_BUCKET;
		return PM_OK;
	}
	pm_arena_reset(ps->tmp);
	if (scan->options.prune_stats)
	{
		PM_TRY(pm_stats_filter_file_ranges(t, &e->file, ps->tmp, ps->ranges, err));
		if (scan->needs_merge)
			for (int f = 0; f < ntf; f++)
			{
				bool		is_key = false;

				for (int k = 0; k < t->ntrimmed_pk; k++)
					if (t->trimmed_pk[k] == f)
						is_key = true;
				if (!is_key)
					memset(&ps->ranges[f], 0, sizeof(pm_field_range));
			}
		if (!pm_stats_filter_may_match(ps->filter, row, ps->ranges, ntf))
		{
			*result = PRUNED_STATS;
			return PM_OK;
		}
	}
	if (scan->options.prune_file_index)
	{
		bool		pruned;

		PM_TRY(index_prune(scan, ps, e, pv, &pruned, err));
		if (pruned)
			*result = PRUNED_INDEX;
	}
	return PM_OK;
}

/* ---- file-index pruning ------------------------------------------------- */

/* True if some leaf of p is a comparison a file index may answer. */
static bool
has_index_leaf(const pm_predicate *p)
{
	switch (p->op)
	{
		case PM_PRED_AND:
		case PM_PRED_OR:
			for (int i = 0; i < p->nchildren; i++)
				if (has_index_leaf(p->children[i]))
					return true;
			return false;
		case PM_PRED_FALSE:
			return false;
		default:
			return true;
	}
}

/*
 * Whether a literal of the table's field type can be looked up in an index
 * written under the file's type: the same type (and precision), or an
 * integer widened since (every file value fits the literal's type).
 */
static bool
index_type_usable(const pm_type *table_type, const pm_type *file_type)
{
	int			rt = pm_type_int_rank(table_type->id),
				rf = pm_type_int_rank(file_type->id);

	if (rt > 0 && rf > 0)
		return rf <= rt;
	if (table_type->id != file_type->id)
		return false;
	switch (table_type->id)
	{
		case PM_TYPE_TIME:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return table_type->precision == file_type->precision;
		default:
			return true;
	}
}

/* What one file's index is asked with. */
typedef struct index_ask
{
	pm_scan    *scan;
	pm_file_index *fi;
	const pm_schema *file_schema;	/* the schema the file was written with */
	bool		all_fields;		/* false: primary-key fields only (merge reads) */
	int64_t		data_file_size; /* of the data file the sidecar indexes */
	pm_meta_pin *pin;			/* the sidecar's bytes, from the metadata cache */
} index_ask;

/*
 * The field of the file's schema a leaf asks about, if its index may be
 * used: found by field id, of a usable type, and (merge reads) a key field.
 */
static const pm_field *
leaf_file_field(const index_ask *ia, const pm_predicate *p)
{
	pm_table   *t = ia->scan->table;
	const pm_type *frow = ia->file_schema->row_type;
	const pm_field *tf;

	if (p->field < 0 || p->field >= t->schema->row_type->nfields)
		return NULL;
	if (!ia->all_fields)
	{
		bool		is_key = false;

		for (int k = 0; k < t->ntrimmed_pk; k++)
			if (t->trimmed_pk[k] == p->field)
				is_key = true;
		if (!is_key)
			return NULL;
	}
	tf = &t->schema->row_type->fields[p->field];
	for (int i = 0; i < frow->nfields; i++)
		if (frow->fields[i].id == tf->id)
			return index_type_usable(tf->type, frow->fields[i].type) ? &frow->fields[i] : NULL;
	return NULL;
}

/* True if some leaf of p asks about the file's column named column. */
static bool
filter_asks_column(const index_ask *ia, const pm_predicate *p, const char *column)
{
	const pm_field *ff;

	switch (p->op)
	{
		case PM_PRED_AND:
		case PM_PRED_OR:
			for (int i = 0; i < p->nchildren; i++)
				if (filter_asks_column(ia, p->children[i], column))
					return true;
			return false;
		case PM_PRED_FALSE:
			return false;
		default:
			ff = leaf_file_field(ia, p);
			return ff != NULL && strcmp(ff->name, column) == 0;
	}
}

/*
 * Open a .index sidecar reading only its head and the bodies of the
 * columns the filter asks about (a default bloom filter is ~585 KiB per
 * column); the other bodies stay zero and are never evaluated. With the
 * metadata cache on (and the sidecar under a quarter of its budget), the
 * whole sidecar is read once and kept there under
 * (its path, its data file's size): names carry the data file's UUID and
 * are never rewritten, so later asks (point lookups: one per lookup) read
 * nothing and use the cached bytes in place (ia->pin, unpinned by the
 * caller after pm_file_index_free).
 */
static pm_code
open_sidecar(index_ask *ia, const pm_predicate *filter, const char *path, pm_arena *arena,
			 pm_error *err)
{
	pm_fileio  *io = ia->scan->table->io;
	pm_file    *file;
	uint64_t	size;
	uint8_t    *buf = NULL;
	uint32_t	head_len;
	pm_code		rc;

	bool		caching = pm_meta_cache_enabled();

	if (caching)
	{
		/* not counted: EXPLAIN's metadata counts are the table's and footers' */
		const pm_meta_bytes *hit = pm_meta_cache_pin(PM_META_FILE_INDEX, path,
													 ia->data_file_size, 0, &ia->pin);

		if (hit != NULL)
		{
			rc = pm_file_index_open(ia->scan->table->env, hit->data, hit->len, &ia->fi, err);
			if (rc != PM_OK)
			{
				pm_meta_cache_unpin(ia->pin);
				ia->pin = NULL;
			}
			return rc;
		}
	}
	PM_TRY(pm_file_open(io, path, &file, err));
	rc = pm_file_size(io, file, &size, err);
	if (rc == PM_OK && (size < 20 || size > ((uint64_t) 1 << 30)))
		rc = pm_fail(err, PM_ERR_CORRUPT, "file index of %llu bytes", (unsigned long long) size);
	if (rc == PM_OK && (buf = pm_arena_zalloc(arena, (size_t) size)) == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (rc == PM_OK && caching)
	{
		pm_meta_cache_stats st;

		/* a sidecar that would crowd the cache is read in part, as without it */
		pm_meta_cache_get_stats(&st);
		caching = size <= st.budget / 4;
	}
	if (rc == PM_OK && caching)
	{
		pm_meta_bytes whole = {buf, (size_t) size};

		rc = pm_file_pread(io, file, buf, (size_t) size, 0, err);
		if (rc == PM_OK)
			rc = pm_file_index_open(ia->scan->table->env, buf, (size_t) size, &ia->fi, err);
		if (rc == PM_OK)
			pm_meta_cache_store(PM_META_FILE_INDEX, path, ia->data_file_size, &whole,
								pm_meta_bytes_flatten);
		pm_file_close(io, file);
		return rc;
	}
	if (rc == PM_OK)
		rc = pm_file_pread(io, file, buf, 20, 0, err);
	if (rc == PM_OK)
	{
		/* the container checks the head length; read what it claims, within the file */
		head_len = (uint32_t) buf[12] << 24 | (uint32_t) buf[13] << 16 |
			(uint32_t) buf[14] << 8 | buf[15];
		if (head_len > 20)
			rc = pm_file_pread(io, file, buf + 20, (size_t) (head_len < size ? head_len : size) - 20,
							   20, err);
	}
	if (rc == PM_OK)
		rc = pm_file_index_open(ia->scan->table->env, buf, (size_t) size, &ia->fi, err);
	for (int i = 0; rc == PM_OK && i < pm_file_index_nentries(ia->fi); i++)
	{
		const pm_file_index_entry *e = pm_file_index_entry_at(ia->fi, i);

		if (!e->empty && e->len > 0 && filter_asks_column(ia, filter, e->column))
			rc = pm_file_pread(io, file, (uint8_t *) e->body, e->len,
							   (uint64_t) (e->body - buf), err);
	}
	pm_file_close(io, file);
	if (rc != PM_OK && ia->fi != NULL)
	{
		pm_file_index_free(ia->fi);
		ia->fi = NULL;
	}
	return rc;
}

/*
 * What the file's indexes say about p: a leaf asks the index of its field
 * (found by field id in the file's schema, by its name there); AND
 * intersects the row sets its children know (and skips if one child does),
 * OR unites them (knowing nothing if one child knows nothing, skipping if
 * every child does). An empty row set is a skip.
 */
static pm_code
index_rows(index_ask *ia, const pm_predicate *p, pm_file_index_result *out, pm_error *err)
{
	const pm_field *ff;
	pm_file_index_result child;
	bool		is_and = p->op == PM_PRED_AND;

	pm_file_index_result_init(out);
	switch (p->op)
	{
		case PM_PRED_AND:
		case PM_PRED_OR:
			out->skip = !is_and && p->nchildren > 0;	/* OR: until a child may match */
			for (int i = 0; i < p->nchildren; i++)
			{
				pm_code		rc = index_rows(ia, p->children[i], &child, err);

				if (rc != PM_OK || (is_and ? child.skip : child.rows == NULL && !child.skip))
				{
					/* an error; AND: no row; OR: a branch that may match anything */
					pm_file_index_result_clear(out);
					out->skip = rc == PM_OK && is_and;
					return rc;
				}
				if (child.skip || child.rows == NULL)
					continue;	/* OR: adds no row; AND: restricts nothing */
				out->skip = false;
				if (out->rows == NULL)
				{
					out->rows = child.rows;
					child.rows = NULL;
				}
				else if (is_and)
					roaring_bitmap_and_inplace(out->rows, child.rows);
				else
					roaring_bitmap_or_inplace(out->rows, child.rows);
				pm_file_index_result_clear(&child);
			}
			break;
		case PM_PRED_FALSE:
			out->skip = true;
			return PM_OK;
		default:
			if ((ff = leaf_file_field(ia, p)) == NULL)
				return PM_OK;
			PM_TRY(pm_file_index_eval(ia->fi, ff->name, ff->type, p, out, err));
			break;
	}
	if (out->rows != NULL && roaring_bitmap_is_empty(out->rows))
	{
		pm_file_index_result_clear(out);
		out->skip = true;
	}
	return PM_OK;
}

/* Remember the rows the indexes leave in file f (see pm_scan_file_rows). */
static pm_code
keep_file_rows(pm_scan *scan, const pm_data_file_meta *f, const roaring_bitmap_t *rows,
			   pm_error *err)
{
	const pm_row_selection *sel;

	if (!pm_index_rows_selection(rows, f->row_count, PM_INDEX_ROWS_MAX_GAP, scan->arena, &sel))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (sel == NULL)
		return PM_OK;
	if (!pm_arena_array_grow(scan->arena, (void **) &scan->file_rows, &scan->file_rows_cap,
							 scan->nfile_rows, sizeof(pm_file_rows), INT32_MAX / 2))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	scan->file_rows[scan->nfile_rows].file = f;
	scan->file_rows[scan->nfile_rows].rows = sel;
	scan->file_rows[scan->nfile_rows].keys_placed = false;
	scan->file_rows[scan->nfile_rows].rows_exact = false;
	scan->nfile_rows++;
	return PM_OK;
}

static int
cmp_file_rows(const void *pa, const void *pb)
{
	uintptr_t	a = (uintptr_t) ((const pm_file_rows *) pa)->file;
	uintptr_t	b = (uintptr_t) ((const pm_file_rows *) pb)->file;

	return a < b ? -1 : a > b ? 1 : 0;
}

static const pm_file_rows *
find_file_rows(const pm_scan *scan, const pm_data_file_meta *file)
{
	pm_file_rows key;

	if (scan == NULL || scan->nfile_rows == 0)
		return NULL;
	key.file = file;
	return bsearch(&key, scan->file_rows, (size_t) scan->nfile_rows, sizeof(pm_file_rows),
				   cmp_file_rows);
}

const pm_row_selection *
pm_scan_file_rows(const pm_scan *scan, const pm_data_file_meta *file)
{
	const pm_file_rows *hit = find_file_rows(scan, file);

	return hit != NULL ? hit->rows : NULL;
}

bool
pm_scan_file_rows_placed(const pm_scan *scan, const pm_data_file_meta *file)
{
	const pm_file_rows *hit = find_file_rows(scan, file);

	return hit != NULL && hit->keys_placed;
}

bool
pm_scan_file_rows_exact(const pm_scan *scan, const pm_data_file_meta *file)
{
	const pm_file_rows *hit = find_file_rows(scan, file);

	return hit != NULL && hit->keys_placed && hit->rows_exact;
}

/* The name of f's .index sidecar among its extra files (index), or -1. */
static int
sidecar_index(const pm_data_file_meta *f)
{
	size_t		flen = strlen(f->file_name);

	for (int i = 0; i < f->nextra_files; i++)
	{
		const char *x = f->extra_files[i];

		if (strncmp(x, f->file_name, flen) == 0 && strcmp(x + flen, ".index") == 0)
			return i;
	}
	return -1;
}

/*
 * Ask a file's indexes (embedded, else the .index sidecar at sidecar_path,
 * NULL if it has none) whether filter can match; *pruned when they prove
 * not.
 */
static pm_code
file_index_prune(pm_scan *scan, const pm_predicate *filter, const pm_data_file_meta *f,
				 const char *sidecar_path, pm_arena *tmp, bool keep_rows, bool *pruned,
				 pm_error *err)
{
	pm_table   *t = scan->table;
	index_ask	ia;
	pm_code		rc;

	*pruned = false;
	memset(&ia, 0, sizeof(ia));
	ia.scan = scan;
	ia.data_file_size = f->file_size;
	/* Java: indexes of primary-key tables only with deletion vectors */
	ia.all_fields = !scan->needs_merge ||
		(pm_schema_bool_option(t->schema, "deletion-vectors.enabled", false) &&
		 !pm_schema_bool_option(t->schema, "deletion-vectors.merge-on-read", false));
	PM_TRY(pm_table_schema_by_id(t, f->schema_id, &ia.file_schema, err));
	if (f->embedded_file_index != NULL)
		rc = pm_file_index_open(t->env, f->embedded_file_index,
								(size_t) f->embedded_file_index_len, &ia.fi, err);
	else if (sidecar_path != NULL)
		rc = open_sidecar(&ia, filter, sidecar_path, tmp, err);
	else
		return PM_OK;
	if (rc == PM_OK)
	{
		pm_file_index_result r;

		rc = index_rows(&ia, filter, &r, err);
		*pruned = rc == PM_OK && r.skip;
		/* rows of a kept file: a selection for its reader (page skipping) */
		if (keep_rows && rc == PM_OK && !r.skip && r.rows != NULL && scan->options.prune_pages)
			rc = keep_file_rows(scan, f, r.rows, err);
		pm_file_index_result_clear(&r);
		pm_file_index_free(ia.fi);
	}
	pm_meta_cache_unpin(ia.pin);
	if (rc != PM_OK && err->path[0] == '\0')
		snprintf(err->path, sizeof(err->path), "%s", f->file_name);
	return rc;
}

static bool
file_index_read_enabled(const pm_table *t)
{
	const char *v = pm_schema_option(t->schema, "file-index.read.enabled");

	return v == NULL || strcasecmp(v, "false") != 0;
}

/*
 * Ask a kept file's indexes (embedded, else the .index sidecar next to the
 * data file) whether the filter can match; *pruned when they prove not.
 */
static pm_code
index_prune(pm_scan *scan, prune_state *ps, const pm_manifest_entry *e, const pm_value *pv,
			bool *pruned, pm_error *err)
{
	pm_table   *t = scan->table;
	const pm_data_file_meta *f = &e->file;
	char	   *path = NULL;
	int			sidecar;

	*pruned = false;
	if (!file_index_read_enabled(t) || !has_index_leaf(ps->filter))
		return PM_OK;
	if (f->embedded_file_index == NULL)
	{
		const char *dir;

		if ((sidecar = sidecar_index(f)) < 0)
			return PM_OK;
		if (f->external_path != NULL)
		{
			char	   *slash;

			PM_TRY(pm_path_map_resolve(t->path_map, f->external_path, ps->tmp, &path, err));
			if ((slash = strrchr(path, '/')) != NULL)
				*slash = '\0';
			dir = path;
		}
		else
			PM_TRY(bucket_path(scan, e, pv, ps->tmp, &dir, err));
		if ((path = pm_arena_sprintf(ps->tmp, "%s/%s", dir, f->extra_files[sidecar])) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return file_index_prune(scan, ps->filter, f, path, ps->tmp, true, pruned, err);
}

pm_code
pm_scan_file_index_skips(pm_scan *scan, const pm_predicate *filter,
						 const pm_data_file_meta *f, pm_arena *tmp, bool *skips,
						 pm_error *err)
{
	int			sidecar;

	*skips = false;
	/* the file's own indexes first: most files have none (a lookup asks per file) */
	if (f->embedded_file_index == NULL && f->nextra_files == 0)
		return PM_OK;
	if (!scan->options.prune_file_index || !file_index_read_enabled(scan->table) ||
		filter == NULL || !has_index_leaf(filter))
		return PM_OK;
	sidecar = f->embedded_file_index == NULL ? sidecar_index(f) : -1;
	if (f->embedded_file_index == NULL && (sidecar < 0 || f->extra_file_paths == NULL))
		return PM_OK;
	return file_index_prune(scan, filter, f,
							sidecar >= 0 ? f->extra_file_paths[sidecar] : NULL, tmp, false,
							skips, err);
}

/* Batch-scan visibility (§6.4): postpone buckets; level 0 with DV / first-row. */
static bool
batch_visible(const pm_scan *scan, const pm_manifest_entry *e)
{
	const pm_schema *s = scan->table->schema;
	const char *engine;

	if (scan->postpone_only || e->bucket == -2)
		return scan->postpone_only && e->bucket == -2;
	if (!scan->needs_merge || e->file.level != 0 || scan->every_level)
		return true;
	engine = pm_schema_option(s, "merge-engine");
	return !((pm_schema_bool_option(s, "deletion-vectors.enabled", false) &&
			  !pm_schema_bool_option(s, "deletion-vectors.merge-on-read", false)) ||
			 (engine != NULL && strcasecmp(engine, "first-row") == 0));
}

static pm_code
select_files(pm_scan *scan, prune_state *ps, pm_manifest_entry **live, int nlive,
			 selected_file *sel, int *nsel, pm_value **values_of, pm_error *err)
{
	pm_table   *t = scan->table;

	*nsel = 0;
	for (int i = 0; i < nlive; i++)
	{
		pm_manifest_entry *e = live[i];
		pm_value   *pv;
		prune_result result;

		if (!batch_visible(scan, e))
			continue;
		scan->stats.files_total++;
		pv = pm_arena_zalloc(scan->arena, sizeof(pm_value) * (t->npartition + 1));
		if (pv == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_binary_row_decode_serialized(e->partition, e->partition_len,
											   t->partition_type, pv, err));
		values_of[i] = pv;
		PM_TRY(prune_file(scan, ps, e, pv, &result, err));
		switch (result)
		{
			case PRUNED_PARTITION:
				scan->stats.files_pruned_partition++;
				continue;
			case PRUNED_BUCKET:
				scan->stats.files_pruned_bucket++;
				continue;
			case PRUNED_STATS:
				scan->stats.files_pruned_stats++;
				continue;
			case PRUNED_INDEX:
				scan->stats.files_pruned_index++;
				continue;
			case KEEP:
				break;
		}
		sel[*nsel].entry = e;
		sel[*nsel].order = i;
		(*nsel)++;
		scan->stats.files_selected++;
		scan->stats.rows_selected += e->file.row_count;
		scan->stats.bytes_selected += e->file.file_size;
	}
	return PM_OK;
}

static pm_code
plan(pm_scan *scan, const pm_predicate *filter, pm_error *err)
{
	pm_table   *t = scan->table;
	pm_manifest_entry *entries = NULL;
	pm_manifest_entry **live;
	int			count = 0,
				cap = 0,
				nlive,
				nsel;
	selected_file *sel;
	pm_value  **values_of;
	prune_state ps;
	int64_t		skipped_adds = 0,
				skipped_deletes = 0;
	pm_code		rc;

	PM_TRY(pm_table_check_options(t, err));
	scan->needs_merge = t->schema->nprimary_keys > 0;
	if (t->snapshot == NULL)
		return PM_OK;
	memset(&ps, 0, sizeof(ps));
	ps.filter = filter;
	PM_TRY(bucket_filter_init(scan, filter, &ps.bucket, err));
	PM_TRY(read_manifests(scan, t->snapshot->base_manifest_list,
						  t->snapshot->base_manifest_list_size, filter, &entries, &count, &cap,
						  &skipped_adds, &skipped_deletes, err));
	PM_TRY(read_manifests(scan, t->snapshot->delta_manifest_list,
						  t->snapshot->delta_manifest_list_size, filter, &entries, &count, &cap,
						  &skipped_adds, &skipped_deletes, err));
	PM_TRY(pm_manifest_entries_merge(entries, count, scan->arena, &live, &nlive, err));
	if (skipped_adds > 0 || skipped_deletes > 0)
	{
		/*
		 * Live files of skipped manifests, for an honest funnel: all adds
		 * minus all deletes, where the deletes read but left unmatched are
		 * those of files in skipped manifests.
		 */
		int64_t		nadd = 0,
					ndel = 0,
					skipped_live;

		for (int i = 0; i < count; i++)
			(*(entries[i].kind == PM_FILE_KIND_ADD ? &nadd : &ndel))++;
		skipped_live = skipped_adds - skipped_deletes - (ndel - (nadd - nlive));

		/*
		 * Negative when a skipped manifest deletes a file added in a read
		 * one: that file looks live here but sits in an excluded
		 * partition, so it is counted as pruned by partition below.
		 */
		scan->stats.files_total += skipped_live;
		scan->stats.files_pruned_partition += skipped_live;
	}

	sel = pm_arena_zalloc(scan->arena, sizeof(selected_file) * (nlive + 1));
	values_of = pm_arena_zalloc(scan->arena, sizeof(pm_value *) * (nlive + 1));
	ps.ranges = pm_arena_zalloc(scan->arena, sizeof(pm_field_range) *
								(t->schema->row_type->nfields + 1));
	if (sel == NULL || values_of == NULL || ps.ranges == NULL ||
		(ps.tmp = pm_arena_create(t->env)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = select_files(scan, &ps, live, nlive, sel, &nsel, values_of, err);
	pm_arena_destroy(ps.tmp);
	if (rc != PM_OK)
		return rc;
	qsort(sel, nsel, sizeof(selected_file), cmp_selected);
	if (scan->nfile_rows > 1)
		qsort(scan->file_rows, (size_t) scan->nfile_rows, sizeof(pm_file_rows),
			  cmp_file_rows);
	PM_TRY(build_splits(scan, sel, nsel, values_of, err));
	PM_TRY(attach_deletion_vectors(scan, err));
	for (int i = 0; i < scan->nsplits; i++)
		for (int f = 0; f < scan->splits[i].nfiles; f++)
			if (scan->splits[i].files[f]->deletion_file != NULL)
				scan->has_deletion_vectors = true;
	return PM_OK;
}

/*
 * A deep copy of p in arena (the caller's filter may not outlive planning;
 * reads use it later to prune inside files). NULL on out-of-memory or a
 * tree deeper than the evaluator looks.
 */
static pm_predicate *
predicate_copy(pm_arena *arena, const pm_predicate *p, const pm_type *row, int depth)
{
	pm_predicate *c;

	if (depth > 200 || (c = pm_arena_alloc(arena, sizeof(*c))) == NULL)
		return NULL;
	*c = *p;
	c->literals = NULL;
	c->children = NULL;
	if (p->nliterals > 0 && p->literals != NULL)
	{
		if ((c->literals = pm_arena_alloc(arena, sizeof(pm_value) * p->nliterals)) == NULL)
			return NULL;
		for (int i = 0; i < p->nliterals; i++)
		{
			pm_value   *v = &c->literals[i];

			*v = p->literals[i];
			if (!v->is_null && p->field >= 0 && p->field < row->nfields &&
				pm_type_is_varlen(row->fields[p->field].type->id) && v->u.bytes.len > 0)
			{
				uint8_t    *b = pm_arena_alloc(arena, (size_t) v->u.bytes.len);

				if (b == NULL)
					return NULL;
				memcpy(b, v->u.bytes.ptr, (size_t) v->u.bytes.len);
				v->u.bytes.ptr = b;
			}
		}
	}
	if (p->nchildren > 0 && p->children != NULL)
	{
		if ((c->children = pm_arena_alloc(arena, sizeof(pm_predicate *) * p->nchildren)) == NULL)
			return NULL;
		for (int i = 0; i < p->nchildren; i++)
			if ((c->children[i] = predicate_copy(arena, p->children[i], row, depth + 1)) == NULL)
				return NULL;
	}
	return c;
}

pm_predicate *
pm_predicate_copy(pm_arena *arena, const pm_predicate *p, const pm_type *row)
{
	return predicate_copy(arena, p, row, 0);
}

void
pm_scan_read_filter(pm_scan *scan, bool value_fields, pm_read_filter *out)
{
	out->pred = scan->filter;
	out->scan = scan;
	out->chunk_buffers = NULL;
	out->parts = scan->options.prune_row_groups;
	out->pages = scan->options.prune_pages;
	out->value_fields = value_fields;
	out->rows_pred = scan->key_filter;
	out->counts = &scan->stats;
	out->keep = value_fields && scan->options.prune_row_groups ? scan->part_keep : NULL;
	out->keep_ctx = scan->part_keep_ctx;
	out->row_keep = value_fields && scan->options.prune_pages ? scan->row_keep : NULL;
	out->row_keep_ctx = scan->row_keep_ctx;
	out->row_keep_field = scan->row_keep_field;
	out->claim = NULL;
	out->claim_ctx = NULL;
	out->unit = NULL;
	out->unit_bytes = scan->part_unit_bytes;
}

void
pm_scan_set_part_keep(pm_scan *scan, pm_part_keep_fn fn, void *ctx)
{
	scan->part_keep = fn;
	scan->part_keep_ctx = ctx;
}

void
pm_scan_set_row_keep(pm_scan *scan, int field, pm_row_keep_fn fn, void *ctx)
{
	scan->row_keep = fn;
	scan->row_keep_ctx = ctx;
	scan->row_keep_field = field;
}

void
pm_scan_set_part_units(pm_scan *scan, int64_t min_file_bytes)
{
	scan->part_unit_bytes = min_file_bytes > 0 ? min_file_bytes : 0;
}

void
pm_scan_set_participants(pm_scan *scan, int n)
{
	scan->participants = n > 0 ? n : 0;
}

int
pm_scan_participants(const pm_scan *scan)
{
	return scan->participants;
}

bool
pm_scan_file_has_part_units(const pm_scan *scan, const pm_data_file_meta *file)
{
	return scan->part_unit_bytes > 0 && file->format != PM_FORMAT_AVRO &&
		file->file_size >= scan->part_unit_bytes;
}

pm_code
pm_table_scan_plan(pm_table *table, const pm_predicate *filter, pm_scan **out, pm_error *err)
{
	return pm_table_scan_plan_with(table, filter, NULL, out, err);
}

/* which files a scan takes besides the batch-visible ones */
typedef enum scan_files
{
	SCAN_BATCH,					/* what a batch read sees */
	SCAN_EVERY_LEVEL,			/* also the level-0 files it skips */
	SCAN_POSTPONE				/* only the postpone bucket's files */
} scan_files;

static pm_code scan_plan(pm_table *table, const pm_predicate *filter,
						  const pm_scan_options *options, scan_files files, pm_scan **out,
						  pm_error *err);

pm_code
pm_table_scan_plan_with(pm_table *table, const pm_predicate *filter,
						const pm_scan_options *options, pm_scan **out, pm_error *err)
{
	return scan_plan(table, filter, options, SCAN_BATCH, out, err);
}

pm_code
pm_table_scan_plan_every_level(pm_table *table, pm_scan **out, pm_error *err)
{
	return scan_plan(table, NULL, NULL, SCAN_EVERY_LEVEL, out, err);
}

pm_code
pm_table_scan_plan_postpone(pm_table *table, pm_scan **out, pm_error *err)
{
	return scan_plan(table, NULL, NULL, SCAN_POSTPONE, out, err);
}

static pm_code
scan_plan(pm_table *table, const pm_predicate *filter, const pm_scan_options *options,
		  scan_files files, pm_scan **out, pm_error *err)
{
	static const pm_scan_options all_on = {true, true, true, true, true};

	pm_arena   *arena = pm_arena_create(table->env);
	pm_scan    *scan;
	pm_code		rc;

	*out = NULL;
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	scan = pm_arena_zalloc(arena, sizeof(pm_scan));
	if (scan == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	scan->table = table;
	scan->arena = arena;
	scan->options = options != NULL ? *options : all_on;
	scan->every_level = files == SCAN_EVERY_LEVEL;
	scan->postpone_only = files == SCAN_POSTPONE;
	rc = PM_OK;
	if (filter != NULL && (scan->options.prune_row_groups || scan->options.prune_pages) &&
		(scan->filter = predicate_copy(arena, filter, table->schema->row_type, 0)) == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (rc == PM_OK)
		rc = plan(scan, filter, err);
	if (rc != PM_OK)
	{
		pm_arena_destroy(arena);
		return rc;
	}
	*out = scan;
	return PM_OK;
}

const pm_scan_stats *
pm_scan_get_stats(const pm_scan *scan)
{
	return &scan->stats;
}

void
pm_scan_free(pm_scan *scan)
{
	if (scan != NULL)
		pm_arena_destroy(scan->arena);
}

int
pm_scan_split_count(const pm_scan *scan)
{
	return scan->nsplits;
}

const pm_split *
pm_scan_get_split(const pm_scan *scan, int i)
{
	if (i < 0 || i >= scan->nsplits)
		return NULL;
	return &scan->splits[i];
}

pm_table *
pm_scan_table(const pm_scan *scan)
{
	return scan->table;
}

bool
pm_scan_needs_merge(const pm_scan *scan)
{
	return scan->needs_merge;
}

bool
pm_scan_has_deletion_vectors(const pm_scan *scan)
{
	return scan->has_deletion_vectors;
}
