/*-------------------------------------------------------------------------
 * scan_plan.c
 *	  pm_table_scan_plan: manifests -> live data files -> pruned -> splits.
 *
 *	 1. refuse table options this reader cannot honour (at plan time, so
 *		that opening / IMPORT FOREIGN SCHEMA still work)
 *	 2. read base + delta manifest lists and every manifest, in order
 *	 3. merge ADD/DELETE entries by identifier into the live file set
 *	 4. batch-scan visibility (PK: skip level 0 with DV / first-row; skip
 *		postpone buckets)
 *	 5. prune by partition values (_PARTITION), then by value statistics
 *		(append tables only: for primary-key tables a newer record of a key
 *		may live in a file whose stats do not match)
 *	 6. group by (partition, bucket) into splits; resolve file paths
 *
 * Partition directories are rendered from the _PARTITION values exactly as
 * Java names them (PartitionPathUtils), never parsed back.
 *
 * Spec: ../shared/docs/paimon-format-metadata.md §1.3-1.4, §5, §6.4, §13.1.
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "row/binary_row.h"
#include "row/bucket.h"
#include "table/index_manifest.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/stats_filter.h"
#include "table/table_int.h"

static bool
option_true(const pm_schema *s, const char *key)
{
	const char *v = pm_schema_option(s, key);

	return v != NULL && strcasecmp(v, "true") == 0;
}

static pm_code
check_supported(const pm_table *t, pm_error *err)
{
	const pm_schema *s = t->schema;
	static const char *const refused[] = {
		"data-evolution.enabled", "row-tracking.enabled"
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (option_true(s, refused[i]))
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "tables with option \"%s\" are not supported yet", refused[i]);
	for (int i = 0; i < s->row_type->nfields; i++)
		if (s->row_type->fields[i].type->id == PM_TYPE_BLOB)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "tables with BLOB columns (blob files) are not supported yet");
	return PM_OK;
}

/* ---- partition directory names (PartitionPathUtils) ------------------- */

static bool
needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f || (c < 0x80 && strchr("\"#%'*/:=?\\{}[]^", c) != NULL && c != 0);
}

static bool
append_escaped(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (*len + 4 >= cap)
			return false;
		if (needs_escape(c))
			*len += snprintf(buf + *len, cap - *len, "%%%02X", c);
		else
			buf[(*len)++] = (char) c;
	}
	buf[*len] = '\0';
	return true;
}

static void
civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t		era,
				yoe,
				doy,
				mp;
	unsigned	doe;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned) (z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = (int) (yoe + era * 400 + (*m <= 2));
}

static void
format_java_double(double v, bool is_float, char *out, size_t cap)
{
	/* Java Float/Double.toString: shortest repr, "1.0", "1.0E10" */
	char		tmp[64];
	double		a = fabs(v);

	if (isnan(v))
	{
		snprintf(out, cap, "NaN");
		return;
	}
	if (isinf(v))
	{
		snprintf(out, cap, v > 0 ? "Infinity" : "-Infinity");
		return;
	}
	for (int prec = 1; prec <= 17; prec++)
	{
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (is_float ? (float) strtod(tmp, NULL) == (float) v : strtod(tmp, NULL) == v)
			break;
	}
	if (a == 0 || (a >= 1e-3 && a < 1e7))
	{
		double		parsed = strtod(tmp, NULL);
		int			digits = 1;

		/* plain notation with at least one fraction digit */
		for (; digits < 17; digits++)
		{
			snprintf(out, cap, "%.*f", digits, parsed);
			if (is_float ? (float) strtod(out, NULL) == (float) v : strtod(out, NULL) == v)
				break;
		}
	}
	else
	{
		char	   *e;
		int			exp;

		snprintf(tmp, sizeof(tmp), "%.16e", v);
		for (int prec = 0; prec <= 16; prec++)
		{
			snprintf(tmp, sizeof(tmp), "%.*e", prec, v);
			if (is_float ? (float) strtod(tmp, NULL) == (float) v : strtod(tmp, NULL) == v)
				break;
		}
		e = strchr(tmp, 'e');
		exp = atoi(e + 1);
		*e = '\0';
		if (strchr(tmp, '.') == NULL)
			snprintf(out, cap, "%s.0E%d", tmp, exp);
		else
			snprintf(out, cap, "%sE%d", tmp, exp);
	}
}

static void
format_decimal(pm_int128 v, int scale, char *out, size_t cap)
{
	char		digits[64];
	int			n = 0;
	bool		neg = v < 0;
	unsigned __int128 u = neg ? (unsigned __int128) (-(v + 1)) + 1 : (unsigned __int128) v;
	size_t		len = 0;

	do
	{
		digits[n++] = (char) ('0' + (int) (u % 10));
		u /= 10;
	} while (u > 0 && n < 60);
	while (n <= scale && n < 60)
		digits[n++] = '0';
	if (neg && len + 1 < cap)
		out[len++] = '-';
	for (int i = n - 1; i >= 0 && len + 2 < cap; i--)
	{
		out[len++] = digits[i];
		if (i == scale && scale > 0)
			out[len++] = '.';
	}
	out[len] = '\0';
}

/* Java LocalDateTime.toString of a timestamp value */
static void
format_timestamp(int64_t micros, int nanos, bool legacy, int precision, char *out, size_t cap)
{
	int64_t		days = micros >= 0 ? micros / 86400000000LL : -((-micros + 86399999999LL) / 86400000000LL);
	int64_t		rem = micros - days * 86400000000LL;
	int			y,
				mo,
				d;
	int			h = (int) (rem / 3600000000LL),
				mi = (int) (rem / 60000000LL % 60),
				s = (int) (rem / 1000000 % 60);
	int64_t		frac_ns = (rem % 1000000) * 1000 + nanos;
	size_t		len;

	civil_from_days(days, &y, &mo, &d);
	if (!legacy)
	{
		len = snprintf(out, cap, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, s);
		if (precision > 0 && len < cap)
		{
			char		f[16];

			snprintf(f, sizeof(f), "%09lld", (long long) frac_ns);
			f[precision > 9 ? 9 : precision] = '\0';
			snprintf(out + len, cap - len, ".%s", f);
		}
		return;
	}
	len = snprintf(out, cap, "%04d-%02d-%02dT%02d:%02d", y, mo, d, h, mi);
	if ((s > 0 || frac_ns > 0) && len < cap)
	{
		len += snprintf(out + len, cap - len, ":%02d", s);
		if (frac_ns > 0 && len < cap)
		{
			if (frac_ns % 1000000 == 0)
				snprintf(out + len, cap - len, ".%03lld", (long long) (frac_ns / 1000000));
			else if (frac_ns % 1000 == 0)
				snprintf(out + len, cap - len, ".%06lld", (long long) (frac_ns / 1000));
			else
				snprintf(out + len, cap - len, ".%09lld", (long long) frac_ns);
		}
	}
}

/* The directory name of one partition value; NULL for the default name. */
static const char *
render_value(const pm_type *type, const pm_value *v, bool legacy, char *buf, size_t cap)
{
	if (v->is_null)
		return NULL;
	switch (type->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				int32_t		n = v->u.bytes.len;
				bool		blank = true;

				for (int32_t i = 0; i < n; i++)
					if (v->u.bytes.ptr[i] != ' ' && v->u.bytes.ptr[i] != '\t' &&
						v->u.bytes.ptr[i] != '\n' && v->u.bytes.ptr[i] != '\r')
						blank = false;
				if (blank || n <= 0 || (size_t) n >= cap)
					return n <= 0 || blank ? NULL : "";
				memcpy(buf, v->u.bytes.ptr, n);
				buf[n] = '\0';
				return buf;
			}
		case PM_TYPE_BOOLEAN:
			return v->u.i64 ? "true" : "false";
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_BIGINT:
		case PM_TYPE_TIME:
			snprintf(buf, cap, "%lld", (long long) v->u.i64);
			return buf;
		case PM_TYPE_DATE:
			if (legacy)
				snprintf(buf, cap, "%lld", (long long) v->u.i64);
			else
			{
				int			y,
							m,
							d;

				civil_from_days(v->u.i64, &y, &m, &d);
				snprintf(buf, cap, "%04d-%02d-%02d", y, m, d);
			}
			return buf;
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			format_java_double(v->u.f64, type->id == PM_TYPE_FLOAT, buf, cap);
			return buf;
		case PM_TYPE_DECIMAL:
			format_decimal(v->u.i128, type->scale, buf, cap);
			return buf;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			format_timestamp(v->u.i64, v->nanos, legacy, type->precision, buf, cap);
			return buf;
		default:
			return "";
	}
}

static pm_code
partition_path(const pm_table *t, const pm_value *values, pm_arena *arena, char **out,
			   pm_error *err)
{
	char		path[4096];
	size_t		len = 0;
	const char *legacy_opt = pm_schema_option(t->schema, "partition.legacy-name");
	bool		legacy = legacy_opt == NULL || strcasecmp(legacy_opt, "false") != 0;

	path[0] = '\0';
	for (int i = 0; i < t->npartition; i++)
	{
		const pm_field *f = &t->partition_type->fields[i];
		char		vbuf[1024];
		const char *rendered = render_value(f->type, &values[i], legacy, vbuf, sizeof(vbuf));

		if (rendered == NULL || rendered[0] == '\0')
			rendered = t->partition_default_name;
		if (!append_escaped(path, sizeof(path), &len, f->name, strlen(f->name)) ||
			len + 2 >= sizeof(path))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "partition path too long");
		path[len++] = '=';
		if (!append_escaped(path, sizeof(path), &len, rendered, strlen(rendered)) ||
			len + 2 >= sizeof(path))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "partition path too long");
		path[len++] = '/';
		path[len] = '\0';
	}
	*out = pm_arena_strdup(arena, path);
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

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
	pm_value   *values;
	int32_t		cached_total;	/* total buckets the cached bucket is for */
	int32_t		cached_bucket;
} bucket_filter;

/*
 * With "k = const" for every bucket-key field (default bucket function),
 * the one bucket of each bucket count that can hold matches (§10).
 */
static pm_code
bucket_filter_init(pm_scan *scan, const pm_predicate *filter, bucket_filter **out,
				   pm_error *err)
{
	pm_table   *t = scan->table;
	const pm_schema *s = t->schema;
	const char *keys = pm_schema_option(s, "bucket-key");
	const char *func = pm_schema_option(s, "bucket-function.type");
	int			nkeys = 0;
	int			idx[64];
	pm_field   *fields;
	bucket_filter *bf;

	*out = NULL;
	if (filter == NULL || (func != NULL && strcasecmp(func, "default") != 0))
		return PM_OK;
	if (keys != NULL)
	{
		const char *p = keys;

		while (*p && nkeys < 64)
		{
			const char *end = strchr(p, ',');
			size_t		len = end ? (size_t) (end - p) : strlen(p);
			char		name[256];

			if (len == 0 || len >= sizeof(name))
				return PM_OK;
			memcpy(name, p, len);
			name[len] = '\0';
			idx[nkeys] = pm_type_field_index(s->row_type, name);
			if (idx[nkeys] < 0)
				return PM_OK;
			nkeys++;
			p = end ? end + 1 : p + len;
		}
	}
	else
		for (int i = 0; i < t->ntrimmed_pk && i < 64; i++)
			idx[nkeys++] = t->trimmed_pk[i];
	if (nkeys == 0)
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
	if (bf->cached_total != e->total_buckets)
	{
		if (pm_bucket_of(bf->key_type, bf->values, e->total_buckets, &bf->cached_bucket,
						 &ignored) != PM_OK)
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

static pm_code
read_manifests(pm_scan *scan, const char *list_name, pm_manifest_entry **entries,
			   int *count, int *cap, pm_error *err)
{
	pm_table   *t = scan->table;
	pm_manifest_file_meta *metas;
	int			n;
	char	   *path = pm_arena_sprintf(scan->arena, "%s/manifest/%s", t->path, list_name);

	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_manifest_list_read(t->env, t->io, path, scan->arena, &metas, &n, err));
	for (int i = 0; i < n; i++)
	{
		char	   *mpath = pm_arena_sprintf(scan->arena, "%s/manifest/%s", t->path,
											 metas[i].file_name);

		if (mpath == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_manifest_entries_read(t->env, t->io, mpath, scan->arena, entries, count,
										cap, err));
		scan->stats.manifests_read++;
	}
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
	const char *data_dir = pm_schema_option(t->schema, "data-file.path-directory");
	int			i = 0;

	scan->splits = pm_arena_zalloc(scan->arena, sizeof(pm_split) * (nsel + 1));
	if (scan->splits == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	while (i < nsel)
	{
		pm_manifest_entry *first = sel[i].entry;
		pm_split   *sp = &scan->splits[scan->nsplits];
		int			j = i;
		char	   *ppath;
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
		PM_TRY(partition_path(t, sp->partition_values, scan->arena, &ppath, err));
		if (first->bucket == -2)
			sp->bucket_path = pm_arena_sprintf(scan->arena, "%s/%s%s%sbucket-postpone", t->path,
											   data_dir ? data_dir : "", data_dir ? "/" : "", ppath);
		else
			sp->bucket_path = pm_arena_sprintf(scan->arena, "%s/%s%s%sbucket-%d", t->path,
											   data_dir ? data_dir : "", data_dir ? "/" : "", ppath,
											   (int) first->bucket);
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
	bool		in_data_dir = option_true(t->schema, "index-file-in-data-file-dir");

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
					file->deletion_file = dv;
				}
			}
		}
	}
	return PM_OK;
}

static pm_code
plan(pm_scan *scan, const pm_predicate *filter, pm_error *err)
{
	pm_table   *t = scan->table;
	const pm_schema *s = t->schema;
	pm_manifest_entry *entries = NULL;
	pm_manifest_entry **live;
	int			count = 0,
				cap = 0,
				nlive;
	selected_file *sel;
	int			nsel = 0;
	pm_value  **values_of;
	pm_field_range *ranges;
	int			ntf = s->row_type->nfields;
	bool		pk = s->nprimary_keys > 0;
	bool		skip_level0 = false;
	pm_arena   *tmp;
	pm_code		rc = PM_OK;

	bucket_filter *bf;

	PM_TRY(check_supported(t, err));
	scan->needs_merge = pk;
	if (t->snapshot == NULL)
		return PM_OK;
	PM_TRY(bucket_filter_init(scan, filter, &bf, err));
	if (pk)
	{
		const char *engine = pm_schema_option(s, "merge-engine");

		skip_level0 = (option_true(s, "deletion-vectors.enabled") &&
					   !option_true(s, "deletion-vectors.merge-on-read")) ||
			(engine != NULL && strcmp(engine, "first-row") == 0);
	}
	PM_TRY(read_manifests(scan, t->snapshot->base_manifest_list, &entries, &count, &cap, err));
	PM_TRY(read_manifests(scan, t->snapshot->delta_manifest_list, &entries, &count, &cap, err));
	PM_TRY(pm_manifest_entries_merge(entries, count, scan->arena, &live, &nlive, err));

	sel = pm_arena_zalloc(scan->arena, sizeof(selected_file) * (nlive + 1));
	values_of = pm_arena_zalloc(scan->arena, sizeof(pm_value *) * (nlive + 1));
	ranges = pm_arena_zalloc(scan->arena, sizeof(pm_field_range) * (ntf + 1));
	tmp = pm_arena_create(t->env);
	if (sel == NULL || values_of == NULL || ranges == NULL || tmp == NULL)
	{
		pm_arena_destroy(tmp);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	for (int i = 0; i < nlive && rc == PM_OK; i++)
	{
		pm_manifest_entry *e = live[i];
		pm_value   *pv;

		if (e->bucket == -2)
			continue;			/* postpone bucket: not visible to batch reads */
		if (skip_level0 && e->file.level == 0)
			continue;
		scan->stats.files_total++;
		pv = pm_arena_zalloc(scan->arena, sizeof(pm_value) * (t->npartition + 1));
		if (pv == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			break;
		}
		rc = pm_binary_row_decode_serialized(e->partition, e->partition_len, t->partition_type,
											 pv, err);
		if (rc != PM_OK)
			break;
		values_of[i] = pv;
		if (filter != NULL)
		{
			for (int f = 0; f < ntf; f++)
				memset(&ranges[f], 0, sizeof(pm_field_range));
			for (int k = 0; k < t->npartition; k++)
			{
				pm_field_range *r = &ranges[t->partition_fields[k]];

				r->known = true;
				r->row_count = e->file.row_count;
				r->null_count = pv[k].is_null ? e->file.row_count : 0;
				r->has_min_max = !pv[k].is_null;
				r->min = pv[k];
				r->max = pv[k];
			}
			if (!pm_stats_filter_may_match(filter, s->row_type, ranges, ntf))
			{
				scan->stats.files_pruned_partition++;
				continue;
			}
			if (!bucket_may_match(bf, e))
			{
				scan->stats.files_pruned_bucket++;
				continue;
			}
			pm_arena_reset(tmp);
			rc = pm_stats_filter_file_ranges(t, &e->file, tmp, ranges, err);
			if (rc != PM_OK)
				break;
			if (pk)
			{
				/*
				 * Primary-key tables: only key fields may prune (every
				 * version of a row has the same key; values change).
				 */
				for (int f = 0; f < ntf; f++)
				{
					bool		is_key = false;

					for (int k = 0; k < t->ntrimmed_pk; k++)
						if (t->trimmed_pk[k] == f)
							is_key = true;
					if (!is_key)
						memset(&ranges[f], 0, sizeof(pm_field_range));
				}
			}
			if (!pm_stats_filter_may_match(filter, s->row_type, ranges, ntf))
			{
				scan->stats.files_pruned_stats++;
				continue;
			}
		}
		sel[nsel].entry = e;
		sel[nsel].order = i;
		nsel++;
		scan->stats.files_selected++;
		scan->stats.rows_selected += e->file.row_count;
		scan->stats.bytes_selected += e->file.file_size;
	}
	pm_arena_destroy(tmp);
	if (rc != PM_OK)
		return rc;
	qsort(sel, nsel, sizeof(selected_file), cmp_selected);
	PM_TRY(build_splits(scan, sel, nsel, values_of, err));
	PM_TRY(attach_deletion_vectors(scan, err));
	for (int i = 0; i < scan->nsplits; i++)
		for (int f = 0; f < scan->splits[i].nfiles; f++)
			if (scan->splits[i].files[f]->deletion_file != NULL)
				scan->has_deletion_vectors = true;
	return PM_OK;
}

pm_code
pm_table_scan_plan(pm_table *table, const pm_predicate *filter, pm_scan **out, pm_error *err)
{
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
