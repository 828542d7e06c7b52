/*-------------------------------------------------------------------------
 * pk_write.c
 *	  pk_write <table path> <ops.jsonl>
 *	  pk_write --compare <Java's table> <our table>
 *	  Apply the oracle's ops (test/oracle/README.md: {"op": "+I"|"-U"|"+U"|
 *	  "-D", "row": [...]} and {"op": "commit"}) to an existing table with
 *	  the core's writer: rows of a commit handed over in batches of up to
 *	  100 with their row kinds, one writer per commit (so every commit
 *	  restores the buckets' sequence numbers). Column types: INT, BIGINT,
 *	  STRING/VARCHAR, DOUBLE, BOOLEAN.
 *	  --compare: the level-0 file metas (and Parquet compression) of both tables' latest snapshots, per
 *	  (partition, bucket) in sequence order, must be equal field by field
 *	  (row count, sequence range, min/max key, key and value stats,
 *	  _VALUE_STATS_COLS, delete row count, level, file source, schema id,
 *	  the file-index container embedded or as a sidecar, byte for byte):
 *	  prints "METAS OK <n>" or the first difference and exits 1.
 *	  pk_write --list-external <table>: the local paths of the live files
 *	  recorded at an external path (data-file.external-paths).
 *	  --compare-postpone: the same for the live files of the postpone bucket
 *	  (bucket -2), in manifest order.
 *	  pk_write --levels <table>: every live file of the latest snapshot (all
 *	  levels, as a writer restores them) per partition and bucket, by level
 *	  and sequence range: row count, file source and the deleted positions
 *	  of its deletion vector (write_dv_check.sh compares Java's and ours).
 *	  pk_write --read <table>: the rows of a batch read, one JSON array per
 *	  row as oracle.sh read prints them (INT, BIGINT, STRING, BOOLEAN).
 *	  pk_write --compare-changelog <Java's table> <our table> <n>: the
 *	  changelog files of snapshots 1..n compared as --compare compares
 *	  data files: prints "CHANGELOG OK <n>" or the first difference;
 *	  --compare-changelog-sparse: the same, snapshots without changelog
 *	  files on both sides allowed (lookup changelogs: APPEND snapshots).
 *	  pk_write --expire <table> <n>: expire all but the last n snapshots
 *	  with the core's snapshot expiry (changelog_check.sh).
 *	  Driven by write_pk_check.sh; built
 *	  against the unit build of libpaimon.a.
 *-------------------------------------------------------------------------
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/civil_date.h"
#include "common/env.h"
#include "format/parquet/parquet_metadata.h"
#include "index/deletion_vector.h"
#include "io/fileio.h"
#include "lsm/table_read.h"
#include "table/split.h"
#include "table/table.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/snapshot.h"
#include "table/snapshot_expire.h"
#include "table/table_write.h"

#include "../oracle_tool.h"

#define BATCH 100

static int
die(const char *what, const char *msg)
{
	fprintf(stderr, "pk_write: %s: %s\n", what, msg);
	exit(1);
}

static pm_batch *
make_batch(pm_arena *arena, const pm_type *row, json_t **rows, int n)
{
	pm_batch   *b = pm_arena_zalloc(arena, sizeof(*b));

	b->nrows = n;
	b->ncols = row->nfields;
	b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) row->nfields);
	for (int c = 0; c < row->nfields; c++)
	{
		pm_vector  *v = &b->cols[c];
		int64_t		cap = 0;

		if (!pm_vector_init(v, row->fields[c].type, n, true, arena))
			die("batch", "out of memory");
		v->length = n;
		for (int i = 0; i < n; i++)
		{
			json_t	   *x = json_array_get(rows[i], (size_t) c);
			bool		null = x == NULL || json_is_null(x);

			if (null)
				v->nulls[i] = 1;
			switch (row->fields[c].type->id)
			{
				case PM_TYPE_INT:
					PM_VEC_VALUES(v, int32_t)[i] = null ? 0 : (int32_t) json_integer_value(x);
					break;
				case PM_TYPE_BIGINT:
					PM_VEC_VALUES(v, int64_t)[i] = null ? 0 : (int64_t) json_integer_value(x);
					break;
				case PM_TYPE_DOUBLE:
					PM_VEC_VALUES(v, double)[i] = null ? 0 : json_number_value(x);
					break;
				case PM_TYPE_FLOAT:
					PM_VEC_VALUES(v, float)[i] = null ? 0 : (float) json_number_value(x);
					break;
				case PM_TYPE_DATE:
					{
						/* "yyyy-mm-dd" (the oracle's form) as days since 1970-01-01 */
						int			y = 1970,
									m = 1,
									d = 1;

						if (!null && sscanf(json_string_value(x) ? json_string_value(x) : "",
											"%d-%d-%d", &y, &m, &d) != 3)
							die("batch", "a DATE value must be a \"yyyy-mm-dd\" string");
						PM_VEC_VALUES(v, int32_t)[i] = (int32_t) pm_days_from_civil(y, m, d);
						break;
					}
				case PM_TYPE_DECIMAL:
					{
						/* "digits[.digits]" with at most the column's scale */
						const char *t = null ? "0" : json_string_value(x);
						pm_int128	u = 0;
						int			frac = -1;
						bool		neg = t != NULL && *t == '-';

						if (t == NULL)
							die("batch", "a DECIMAL value must be a JSON string");
						for (t += neg; *t; t++)
						{
							if (*t == '.')
								frac = 0;
							else
							{
								u = u * 10 + (*t - '0');
								frac += frac >= 0;
							}
						}
						for (int k = frac < 0 ? 0 : frac; k < row->fields[c].type->scale; k++)
							u *= 10;
						PM_VEC_VALUES(v, pm_int128)[i] = neg ? -u : u;
						break;
					}
				case PM_TYPE_BOOLEAN:
					PM_VEC_VALUES(v, bool)[i] = !null && json_is_true(x);
					break;
				case PM_TYPE_VARCHAR:
				case PM_TYPE_CHAR:
					if (!null && !pm_vector_append_data(v, &cap, json_string_value(x),
														(int64_t) json_string_length(x), arena))
						die("batch", "out of memory");
					v->offsets[i + 1] = (int32_t) v->data_size;
					break;
				case PM_TYPE_TIME:
				case PM_TYPE_TIMESTAMP:
					/* NULLs only (columns that take their default) */
					if (!null)
						die("batch", "TIME/TIMESTAMP values are not handled by pk_write");
					break;
				default:
					die("batch", "column type not handled by pk_write");
			}
		}
	}
	return b;
}

static int
cmp_files(const void *a, const void *b)
{
	const pm_data_file_meta *x = *(const pm_data_file_meta *const *) a;
	const pm_data_file_meta *y = *(const pm_data_file_meta *const *) b;

	return x->min_sequence_number < y->min_sequence_number ? -1 :
		x->min_sequence_number > y->min_sequence_number;
}

static bool
same_bytes(const uint8_t *a, int32_t an, const uint8_t *b, int32_t bn)
{
	return an == bn && (an == 0 || memcmp(a, b, (size_t) an) == 0);
}

static bool
same_stats(const pm_simple_stats *a, const pm_simple_stats *b)
{
	if (!same_bytes(a->min_values, a->min_values_len, b->min_values, b->min_values_len) ||
		!same_bytes(a->max_values, a->max_values_len, b->max_values, b->max_values_len) ||
		a->nnull_counts != b->nnull_counts)
		return false;
	for (int i = 0; i < a->nnull_counts; i++)
		if (a->null_counts[i] != b->null_counts[i])
			return false;
	return true;
}

/*
 * An _EXTERNAL_PATH, when recorded, is Path.toString() of a file: URI
 * ending in "/<file name>", with no "//" (the root chosen and the entropy
 * directories differ between two writers, file names being random).
 */
static bool
same_external_shape(const pm_data_file_meta *m)
{
	const char *e = m->external_path;
	size_t		el;
	size_t		nl = strlen(m->file_name);

	if (e == NULL)
		return true;
	el = strlen(e);
	return strncmp(e, "file:/", 6) == 0 && strstr(e, "//") == NULL && el > nl + 1 &&
		e[el - nl - 1] == '/' && strcmp(e + el - nl, m->file_name) == 0;
}

static bool
same_meta(const pm_data_file_meta *a, const pm_data_file_meta *b, const char **what)
{
	*what = "external path";
	if (!same_external_shape(a) || !same_external_shape(b) ||
		(a->external_path == NULL) != (b->external_path == NULL))
		return false;
	*what = "row_count";
	if (a->row_count != b->row_count)
		return false;
	*what = "sequence range";
	if (a->min_sequence_number != b->min_sequence_number ||
		a->max_sequence_number != b->max_sequence_number)
		return false;
	*what = "min_key/max_key";
	if (!same_bytes(a->min_key, a->min_key_len, b->min_key, b->min_key_len) ||
		!same_bytes(a->max_key, a->max_key_len, b->max_key, b->max_key_len))
		return false;
	*what = "key stats";
	if (!same_stats(&a->key_stats, &b->key_stats))
		return false;
	*what = "value stats";
	if (!same_stats(&a->value_stats, &b->value_stats))
		return false;
	*what = "_VALUE_STATS_COLS";
	if (a->nvalue_stats_cols != b->nvalue_stats_cols)
		return false;
	for (int i = 0; i < a->nvalue_stats_cols; i++)
		if (strcmp(a->value_stats_cols[i], b->value_stats_cols[i]) != 0)
			return false;
	*what = "delete row count / level / file source / schema id";
	return a->delete_row_count == b->delete_row_count && a->level == b->level &&
		a->file_source == b->file_source && a->schema_id == b->schema_id;
}

/* Same file indexes, placed alike (embedded or sidecar) and byte for byte. */
static bool
same_index(pm_fileio *io, const pm_data_file_meta *a, const pm_data_file_meta *b)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	size_t		al,
				bl;
	const uint8_t *x = oracle_file_index(io, a, arena, &al);
	const uint8_t *y = oracle_file_index(io, b, arena, &bl);
	bool		same = (a->embedded_file_index != NULL) == (b->embedded_file_index != NULL) &&
		a->nextra_files == b->nextra_files && (x == NULL) == (y == NULL) &&
		same_bytes(x, (int32_t) al, y, (int32_t) bl);

	pm_arena_destroy(arena);
	return same;
}

/* The codec of a Parquet file's first column chunk (file.compression[.per.level]); -1 otherwise. */
static int
parquet_codec(pm_fileio *io, const pm_data_file_meta *m, pm_arena *arena)
{
	uint8_t    *data;
	size_t		len;
	uint32_t	flen;
	pm_pq_metadata md;
	pm_error	err;

	if (m->format != PM_FORMAT_PARQUET ||
		pm_fileio_read_all(io, m->path, arena, (size_t) 1 << 31, &data, &len, &err) != PM_OK ||
		len < 12)
		return -1;
	memcpy(&flen, data + len - 8, 4);
	if (flen > len - 12 ||
		pm_pq_metadata_parse(data + len - 8 - flen, flen, len, arena, &md, &err) != PM_OK ||
		md.nrow_groups == 0 || md.row_groups[0].ncolumns == 0)
		return -1;
	return md.row_groups[0].columns[0].codec;
}

static bool
same_codec(pm_fileio *io, const pm_data_file_meta *a, const pm_data_file_meta *b)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	bool		same = parquet_codec(io, a, arena) == parquet_codec(io, b, arena);

	pm_arena_destroy(arena);
	return same;
}

/*
 * Compares the file metas of two tables' latest snapshots: 0 same, 1
 * different. Files by sequence range, or (in_order: postpone files, whose
 * sequence numbers are all -1) in manifest order.
 */
static int
compare_splits(pm_fileio *io, pm_scan *const *s, bool in_order)
{
	int			nfiles = 0;
	int			nindexed = 0;

	if (pm_scan_split_count(s[0]) != pm_scan_split_count(s[1]))
		return die("compare", "different buckets");
	for (int i = 0; i < pm_scan_split_count(s[0]); i++)
	{
		const pm_split *a = pm_scan_get_split(s[0], i);
		const pm_split *b = pm_scan_get_split(s[1], i);
		const pm_data_file_meta *fa[256],
				   *fb[256];

		if (a->bucket != b->bucket || a->nfiles != b->nfiles || a->nfiles > 256 ||
			!same_bytes(a->partition, a->partition_len, b->partition, b->partition_len))
		{
			printf("METAS DIFF bucket %d: %d files against %d\n", a->bucket, a->nfiles, b->nfiles);
			return 1;
		}
		memcpy(fa, a->files, sizeof(fa[0]) * (size_t) a->nfiles);
		memcpy(fb, b->files, sizeof(fb[0]) * (size_t) b->nfiles);
		if (!in_order)
		{
			qsort(fa, (size_t) a->nfiles, sizeof(fa[0]), cmp_files);
			qsort(fb, (size_t) b->nfiles, sizeof(fb[0]), cmp_files);
		}
		for (int f = 0; f < a->nfiles; f++)
		{
			const char *what;

			if (!same_meta(fa[f], fb[f], &what))
			{
				printf("METAS DIFF bucket %d, %s against %s: %s\n", a->bucket,
					   fa[f]->file_name, fb[f]->file_name, what);
				return 1;
			}
			if (!same_index(io, fa[f], fb[f]))
			{
				printf("METAS DIFF bucket %d, %s against %s: file index\n", a->bucket,
					   fa[f]->file_name, fb[f]->file_name);
				return 1;
			}
			if (!same_codec(io, fa[f], fb[f]))
			{
				printf("METAS DIFF bucket %d, %s against %s: Parquet compression\n", a->bucket,
					   fa[f]->file_name, fb[f]->file_name);
				return 1;
			}
			if (fb[f]->embedded_file_index != NULL || fb[f]->nextra_files > 0)
				nindexed++;
			nfiles++;
		}
	}
	printf("METAS OK %d (%d with file indexes)\n", nfiles, nindexed);
	return 0;
}

/* postpone: the live files of the postpone bucket (bucket -2), which batch reads skip */
static int
compare_tables(pm_fileio *io, const char *java, const char *ours, bool postpone)
{
	pm_table   *t[2];
	pm_scan    *s[2];
	pm_error	err;
	int			rc;

	for (int i = 0; i < 2; i++)
		if (pm_table_open(pm_env_default(), io, i ? ours : java, NULL, &t[i], &err) != PM_OK ||
			(postpone ? pm_table_scan_plan_postpone(t[i], &s[i], &err)
			 : pm_table_scan_plan(t[i], NULL, &s[i], &err)) != PM_OK)
			return die(i ? ours : java, err.message);
	rc = compare_splits(io, s, postpone);
	for (int i = 0; i < 2; i++)
	{
		pm_scan_free(s[i]);
		pm_table_close(t[i]);
	}
	return rc;
}

static int
cmp_levels(const void *a, const void *b)
{
	const pm_data_file_meta *x = *(const pm_data_file_meta *const *) a;
	const pm_data_file_meta *y = *(const pm_data_file_meta *const *) b;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->min_sequence_number < y->min_sequence_number ? -1 :
		x->min_sequence_number > y->min_sequence_number;
}

static bool
print_position(int64_t pos, void *ctx)
{
	int		   *n = ctx;

	printf("%s%lld", (*n)++ ? "," : "", (long long) pos);
	return true;
}

/* The table at path and a plan of every live file, at every level; dies on failure. */
static void
open_every_level(pm_fileio *io, const char *path, pm_table **t, pm_scan **s)
{
	pm_error	err;

	if (pm_table_open(pm_env_default(), io, path, NULL, t, &err) != PM_OK ||
		pm_table_scan_plan_every_level(*t, s, &err) != PM_OK)
		die(path, err.message);
}

/* --list-external: the local path of every live file recorded with an _EXTERNAL_PATH */
static int
list_external(pm_fileio *io, const char *path)
{
	pm_table   *t;
	pm_scan    *s;

	open_every_level(io, path, &t, &s);
	for (int i = 0; i < pm_scan_split_count(s); i++)
	{
		const pm_split *sp = pm_scan_get_split(s, i);

		for (int f = 0; f < sp->nfiles; f++)
			if (sp->files[f]->external_path != NULL)
				printf("%s\n", sp->files[f]->path);
	}
	pm_scan_free(s);
	pm_table_close(t);
	return 0;
}

static int
dump_levels(pm_fileio *io, const char *path)
{
	pm_table   *t;
	pm_scan    *s;
	pm_error	err;

	open_every_level(io, path, &t, &s);
	for (int i = 0; i < pm_scan_split_count(s); i++)
	{
		const pm_split *sp = pm_scan_get_split(s, i);
		const pm_data_file_meta **files = calloc((size_t) sp->nfiles + 1, sizeof(*files));

		memcpy(files, sp->files, sizeof(*files) * (size_t) sp->nfiles);
		qsort(files, (size_t) sp->nfiles, sizeof(*files), cmp_levels);
		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *m = files[f];

			printf("partition ");
			for (int k = 0; k < sp->partition_len; k++)
				printf("%02x", sp->partition[k]);
			printf(" bucket %d level %d rows %lld seq %lld-%lld source %d deleted [",
				   sp->bucket, m->level, (long long) m->row_count,
				   (long long) m->min_sequence_number, (long long) m->max_sequence_number,
				   m->file_source);
			if (m->deletion_file != NULL)
			{
				pm_deletion_vector *dv;
				int			n = 0;

				if (pm_deletion_vector_read(pm_env_default(), io, m->deletion_file->path,
											m->deletion_file->offset, m->deletion_file->length,
											&dv, &err) != PM_OK)
					return die(m->deletion_file->path, err.message);
				pm_deletion_vector_iterate(dv, print_position, &n);
				pm_deletion_vector_destroy(dv);
			}
			printf("]\n");
		}
		free(files);
	}
	pm_scan_free(s);
	pm_table_close(t);
	return 0;
}

static int
read_rows(pm_fileio *io, const char *path)
{
	pm_table   *t;
	pm_scan    *s;
	pm_table_read *rd;
	pm_batch   *b;
	pm_error	err;
	const pm_type *row;
	int		   *fields;

	if (pm_table_open(pm_env_default(), io, path, NULL, &t, &err) != PM_OK ||
		pm_table_scan_plan(t, NULL, &s, &err) != PM_OK)
		return die(path, err.message);
	row = pm_table_schema(t)->row_type;
	fields = calloc((size_t) row->nfields + 1, sizeof(int));
	for (int c = 0; c < row->nfields; c++)
		fields[c] = c;
	if (pm_table_read_open(s, fields, row->nfields, &rd, &err) != PM_OK)
		return die(path, err.message);
	for (;;)
	{
		if (pm_table_read_next(rd, &b, &err) != PM_OK)
			return die(path, err.message);
		if (b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			json_t	   *a = json_array();
			char	   *text;

			for (int c = 0; c < row->nfields; c++)
			{
				const pm_vector *v = &b->cols[c];

				if (pm_vector_is_null(v, i))
					json_array_append_new(a, json_null());
				else if (v->type->id == PM_TYPE_INT)
					json_array_append_new(a, json_integer(PM_VEC_VALUES(v, int32_t)[i]));
				else if (v->type->id == PM_TYPE_BIGINT)
					json_array_append_new(a, json_integer(PM_VEC_VALUES(v, int64_t)[i]));
				else if (v->type->id == PM_TYPE_BOOLEAN)
					json_array_append_new(a, json_boolean(PM_VEC_VALUES(v, uint8_t)[i]));
				else if (v->type->id == PM_TYPE_DOUBLE)
					json_array_append_new(a, json_real(PM_VEC_VALUES(v, double)[i]));
				else if (v->type->id == PM_TYPE_VARCHAR || v->type->id == PM_TYPE_CHAR)
				{
					int32_t		len;
					const uint8_t *p = pm_vector_bytes(v, i, &len);

					json_array_append_new(a, json_stringn((const char *) p, (size_t) len));
				}
				else
					return die(path, "--read: a column type it does not print");
			}
			text = json_dumps(a, JSON_COMPACT);
			printf("%s\n", text);
			free(text);
			json_decref(a);
		}
	}
	pm_table_read_close(rd);
	pm_scan_free(s);
	pm_table_close(t);
	free(fields);
	return 0;
}

static int
cmp_entries(const void *a, const void *b)
{
	const pm_manifest_entry *x = a;
	const pm_manifest_entry *y = b;
	int			c = x->partition_len != y->partition_len ? x->partition_len - y->partition_len :
		memcmp(x->partition, y->partition, (size_t) x->partition_len);

	if (c != 0)
		return c;
	if (x->bucket != y->bucket)
		return x->bucket - y->bucket;
	return x->file.min_sequence_number < y->file.min_sequence_number ? -1 :
		x->file.min_sequence_number > y->file.min_sequence_number;
}

/* The entries of snapshot `id`'s changelog manifest list (none without one). */
static int
changelog_entries(pm_fileio *io, const char *table, int64_t id, pm_arena *arena,
				  pm_manifest_entry **entries)
{
	pm_snapshot *snap;
	pm_manifest_file_meta *metas;
	int			nmetas;
	int			count = 0;
	int			cap = 0;
	pm_error	err;

	*entries = NULL;
	if (pm_snapshot_load(io, table, id, arena, &snap, &err) != PM_OK)
		return die(table, err.message);
	if (snap->changelog_manifest_list == NULL)
		return 0;
	if (pm_manifest_list_read(pm_env_default(), io,
							  pm_arena_sprintf(arena, "%s/manifest/%s", table,
											   snap->changelog_manifest_list),
							  arena, &metas, &nmetas, &err) != PM_OK)
		return die(table, err.message);
	for (int m = 0; m < nmetas; m++)
		if (pm_manifest_entries_read(pm_env_default(), io,
									 pm_arena_sprintf(arena, "%s/manifest/%s", table,
													  metas[m].file_name),
									 arena, entries, &count, &cap, &err) != PM_OK)
			return die(table, err.message);
	qsort(*entries, (size_t) count, sizeof(**entries), cmp_entries);
	return count;
}

/*
 * The changelog files of snapshots 1..n of both tables, per (partition,
 * bucket) in sequence order, field by field as --compare: "CHANGELOG OK <n>".
 */
static int
compare_changelogs(pm_fileio *io, const char *java, const char *ours, int n, bool sparse)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	int			nfiles = 0;

	for (int64_t id = 1; id <= n; id++)
	{
		pm_manifest_entry *a,
				   *b;
		int			na = changelog_entries(io, java, id, arena, &a);
		int			nb = changelog_entries(io, ours, id, arena, &b);

		if (na != nb || (na == 0 && !sparse))
		{
			printf("CHANGELOG DIFF snapshot %lld: %d files against %d\n", (long long) id, na, nb);
			return 1;
		}
		for (int f = 0; f < na; f++)
		{
			const char *what = "partition/bucket/kind";

			if (cmp_entries(&a[f], &b[f]) != 0 || a[f].kind != b[f].kind ||
				!same_meta(&a[f].file, &b[f].file, &what))
			{
				printf("CHANGELOG DIFF snapshot %lld, %s against %s: %s\n", (long long) id,
					   a[f].file.file_name, b[f].file.file_name, what);
				return 1;
			}
			nfiles++;
		}
	}
	printf("CHANGELOG OK %d\n", nfiles);
	pm_arena_destroy(arena);
	return 0;
}

/* Expire all but the last `retain` snapshots with the core's snapshot expiry. */
static int
expire(pm_fileio *io, const char *path, int retain)
{
	pm_table   *table;
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_expire_options o = {retain, retain, 1000, INT64_MAX};
	pm_error	err;
	int			expired;
	int64_t		files;

	if (pm_table_open(pm_env_default(), io, path, NULL, &table, &err) != PM_OK)
		return die(path, err.message);
	if (pm_snapshot_expire(table, &o, arena, &expired, &files, &err) != PM_OK)
		return die("expire", err.message);
	printf("expired %d snapshots, %lld files\n", expired, (long long) files);
	pm_table_close(table);
	pm_arena_destroy(arena);
	return 0;
}

int
main(int argc, char **argv)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io;
	FILE	   *f;
	char		line[1 << 16];
	json_t	   *rows[BATCH];
	uint8_t		kinds[BATCH];
	int			n = 0;
	int64_t		ident = 0;
	pm_table_writer *w = NULL;
	pm_arena   *arena;
	pm_error	err;

	if (argc >= 3 && argv[1][0] == '-')
	{
		int			rc = 2;

		io = pm_local_fileio_create(env);
		if (argc == 4 && strcmp(argv[1], "--compare") == 0)
			rc = compare_tables(io, argv[2], argv[3], false);
		else if (argc == 4 && strcmp(argv[1], "--compare-postpone") == 0)
			rc = compare_tables(io, argv[2], argv[3], true);
		else if (argc == 3 && strcmp(argv[1], "--levels") == 0)
			rc = dump_levels(io, argv[2]);
		else if (argc == 3 && strcmp(argv[1], "--list-external") == 0)
			rc = list_external(io, argv[2]);
		else if (argc == 3 && strcmp(argv[1], "--read") == 0)
			rc = read_rows(io, argv[2]);
		else if (argc == 5 && strcmp(argv[1], "--compare-changelog") == 0)
			rc = compare_changelogs(io, argv[2], argv[3], atoi(argv[4]), false);
		else if (argc == 5 && strcmp(argv[1], "--compare-changelog-sparse") == 0)
			rc = compare_changelogs(io, argv[2], argv[3], atoi(argv[4]), true);
		else if (argc == 4 && strcmp(argv[1], "--expire") == 0)
			rc = expire(io, argv[2], atoi(argv[3]));
		else
			rc = die("usage", "pk_write --compare|--compare-postpone|--levels|--read|--expire <table path>...");
		pm_local_fileio_destroy(io);
		return rc;
	}
	io = pm_local_fileio_create(env);
	arena = pm_arena_create(env);
	if (argc != 3)
		return die("usage", "pk_write <table path> <ops.jsonl>");
	if ((f = fopen(argv[2], "r")) == NULL)
		return die(argv[2], "cannot open");
	while (fgets(line, sizeof(line), f) != NULL)
	{
		json_error_t jerr;
		json_t	   *op = json_loads(line, 0, &jerr);
		const char *kind;
		bool		commit;

		if (op == NULL)
			continue;
		kind = json_string_value(json_object_get(op, "op"));
		commit = kind != NULL && strcmp(kind, "commit") == 0;
		if (w == NULL && pm_table_writer_open(env, io, argv[1], "pk-oracle", &w, &err) != PM_OK)
			return die("open", err.message);
		if (!commit)
		{
			static const char *names[] = {"+I", "-U", "+U", "-D"};
			int			k = -1;

			for (int i = 0; i < 4; i++)
				if (kind != NULL && strcmp(kind, names[i]) == 0)
					k = i;
			if (k < 0)
				return die("op", line);
			rows[n] = json_incref(json_object_get(op, "row"));
			kinds[n++] = (uint8_t) k;
		}
		if (n == BATCH || (commit && n > 0))
		{
			pm_batch   *b = make_batch(arena, pm_table_writer_schema(w)->row_type, rows, n);

			if (pm_table_writer_write(w, b, kinds, &err) != PM_OK)
				return die("write", err.message);
			for (int i = 0; i < n; i++)
				json_decref(rows[i]);
			n = 0;
			pm_arena_reset(arena);
		}
		if (commit)
		{
			int64_t		sid;

			if (pm_table_writer_commit(w, ++ident, &sid, &err) != PM_OK)
				return die("commit", err.message);
			printf("snapshot %lld\n", (long long) sid);
			pm_table_writer_close(w);
			w = NULL;
		}
		json_decref(op);
	}
	fclose(f);
	if (w != NULL)
		pm_table_writer_abort(w);
	pm_arena_destroy(arena);
	pm_local_fileio_destroy(io);
	return 0;
}
