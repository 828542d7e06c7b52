/*-------------------------------------------------------------------------
 * copy_table.c
 *	  copy_table <src table> <dst table> [--parquet]
 *	  Create dst with src's schema (pm_table_create; --parquet: with
 *	  file.format parquet whatever src has), read every row of src
 *	  (latest snapshot) and write them into dst with the core's append
 *	  writer, one commit. Then print, for each (partition, bucket) holding
 *	  exactly one file in both tables, whether Java's value stats of src
 *	  equal ours of dst byte for byte ("STATS OK"/"STATS DIFF ..."); exit 1
 *	  if any differ (or, without --parquet, if none could be compared).
 *	  The same files' file-index containers (embedded or sidecar) must be
 *	  Java's bytes too ("INDEX OK"/"INDEX DIFF"), and embedded where Java
 *	  embedded them. --parquet keeps the file-index options.
 *	  Driven by write_check.sh; built against the unit build of libpaimon.a.
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "io/fileio.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#include "../oracle_tool.h"

static void
hex(const char *what, const uint8_t *p, int32_t n)
{
	printf("  %s ", what);
	for (int32_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static int
die(const char *what, const pm_error *err)
{
	fprintf(stderr, "copy_table: %s: %s\n", what, err->message);
	return 1;
}

int
main(int argc, char **argv)
{
	oracle_tool ot;
	const pm_env *env;
	pm_fileio  *io;
	pm_table   *src,
			   *dst;
	pm_scan    *ss,
			   *ds;
	pm_scan_reader *reader;
	pm_table_writer *w;
	pm_batch   *b;
	pm_error	err;
	int		   *fields;
	int			nf;
	int64_t		sid;
	int			bad = 0,
				compared = 0;

	bool		parquet = argc > 3 && strcmp(argv[3], "--parquet") == 0;
	pm_schema	schema;
	const char **keys = NULL;
	const char **vals = NULL;

	if (!oracle_tool_open(&ot, "copy_table", argc, argv, 3, 4, "<src> <dst> [--parquet]"))
		return 1;
	env = ot.env;
	io = ot.io;
	src = ot.table;
	schema = *pm_table_schema(src);
	if (parquet)
	{
		/* parquet data files, a Parquet codec, the same file indexes */
		int			n = 0;

		keys = calloc((size_t) schema.noptions + 1, sizeof(char *));
		vals = calloc((size_t) schema.noptions + 1, sizeof(char *));

		for (int i = 0; i < schema.noptions; i++)
		{
			const char *k = schema.option_keys[i];
			const char *v = schema.option_values[i];

			if (strcmp(k, "file.format") == 0)
				v = "parquet";
			if (strcmp(k, "file.compression") == 0 && strcmp(v, "zstd") != 0 &&
				strcmp(v, "snappy") != 0 && strcmp(v, "gzip") != 0 && strcmp(v, "lz4") != 0)
				v = "zstd";		/* ORC's zlib, Avro's null/deflate, ... */
			keys[n] = k;
			vals[n++] = v;
		}
		schema.noptions = n;
		schema.option_keys = keys;
		schema.option_values = vals;
	}
	if (pm_table_create(env, io, argv[2], &schema, &err) != PM_OK)
		return die("create dst", &err);
	free(keys);
	free(vals);
	if (pm_table_writer_open(env, io, argv[2], "copy-table", &w, &err) != PM_OK)
		return die("writer", &err);
	nf = pm_table_schema(src)->row_type->nfields;
	fields = calloc((size_t) nf, sizeof(int));
	for (int i = 0; i < nf; i++)
		fields[i] = i;
	if (pm_table_scan_plan(src, NULL, &ss, &err) != PM_OK ||
		pm_scan_reader_open(ss, fields, nf, &reader, &err) != PM_OK)
		return die("read src", &err);
	for (;;)
	{
		if (pm_scan_reader_next(reader, &b, &err) != PM_OK)
			return die("read", &err);
		if (b == NULL)
			break;
		if (pm_table_writer_write(w, b, NULL, &err) != PM_OK)
			return die("write", &err);
	}
	pm_scan_reader_close(reader);
	if (pm_table_writer_commit(w, 1, &sid, &err) != PM_OK)
		return die("commit", &err);
	pm_table_writer_close(w);
	printf("committed snapshot %lld\n", (long long) sid);

	if (pm_table_open(env, io, argv[2], NULL, &dst, &err) != PM_OK ||
		pm_table_scan_plan(dst, NULL, &ds, &err) != PM_OK)
		return die("open dst", &err);
	for (int i = 0; i < pm_scan_split_count(ss); i++)
	{
		const pm_split *a = pm_scan_get_split(ss, i);

		for (int j = 0; j < pm_scan_split_count(ds); j++)
		{
			const pm_split *c = pm_scan_get_split(ds, j);
			const pm_simple_stats *x,
					   *y;
			bool		same;

			if (a->bucket != c->bucket || a->partition_len != c->partition_len ||
				memcmp(a->partition, c->partition, (size_t) a->partition_len) != 0 ||
				a->nfiles != 1 || c->nfiles != 1 ||
				a->files[0]->format != c->files[0]->format ||
				a->files[0]->schema_id != c->files[0]->schema_id)
				continue;
			x = &a->files[0]->value_stats;
			y = &c->files[0]->value_stats;
			same = x->min_values_len == y->min_values_len &&
				memcmp(x->min_values, y->min_values, (size_t) x->min_values_len) == 0 &&
				x->max_values_len == y->max_values_len &&
				memcmp(x->max_values, y->max_values, (size_t) x->max_values_len) == 0 &&
				x->nnull_counts == y->nnull_counts &&
				a->files[0]->nvalue_stats_cols == c->files[0]->nvalue_stats_cols;
			for (int k = 0; same && k < x->nnull_counts; k++)
				same = x->null_counts[k] == y->null_counts[k];
			for (int k = 0; same && k < a->files[0]->nvalue_stats_cols; k++)
				same = strcmp(a->files[0]->value_stats_cols[k], c->files[0]->value_stats_cols[k]) == 0;
			compared++;
			if (same)
				printf("STATS OK bucket %d\n", a->bucket);
			else
			{
				bad++;
				printf("STATS DIFF bucket %d (java, ours)\n", a->bucket);
				hex("min", x->min_values, x->min_values_len);
				hex("min", y->min_values, y->min_values_len);
				hex("max", x->max_values, x->max_values_len);
				hex("max", y->max_values, y->max_values_len);
				printf("  stats cols %d %d\n", a->files[0]->nvalue_stats_cols, c->files[0]->nvalue_stats_cols);
				for (int k = 0; k < x->nnull_counts || k < y->nnull_counts; k++)
					printf("  nulls[%d] %lld %lld\n", k,
						   (long long) (k < x->nnull_counts ? x->null_counts[k] : -9),
						   (long long) (k < y->nnull_counts ? y->null_counts[k] : -9));
			}
		}
	}
	printf("compared %d files, %d differ\n", compared, bad);
	/* the file indexes of the same files */
	{
		pm_arena   *arena = pm_arena_create(env);
		int			indexes = 0;

		for (int i = 0; i < pm_scan_split_count(ss); i++)
			for (int j = 0; j < pm_scan_split_count(ds); j++)
			{
				const pm_split *a = pm_scan_get_split(ss, i);
				const pm_split *c = pm_scan_get_split(ds, j);
				const uint8_t *x,
						   *y;
				size_t		xl = 0,
							yl = 0;
				bool		xe,
							ye;

				if (a->bucket != c->bucket || a->partition_len != c->partition_len ||
					memcmp(a->partition, c->partition, (size_t) a->partition_len) != 0 ||
					a->nfiles != 1 || c->nfiles != 1 ||
					a->files[0]->schema_id != c->files[0]->schema_id)
					continue;
				x = oracle_file_index(io, a->files[0], arena, &xl);
				y = oracle_file_index(io, c->files[0], arena, &yl);
				xe = a->files[0]->embedded_file_index != NULL;
				ye = c->files[0]->embedded_file_index != NULL;
				if (x == NULL && y == NULL)
					continue;
				indexes++;
				if (x != NULL && y != NULL && xl == yl && xe == ye && memcmp(x, y, xl) == 0)
					printf("INDEX OK bucket %d (%zu bytes, %s)\n", a->bucket, xl,
						   xe ? "embedded" : "sidecar");
				else
				{
					bad++;
					printf("INDEX DIFF bucket %d: java %zu bytes %s, ours %zu bytes %s\n", a->bucket,
						   xl, x == NULL ? "none" : xe ? "embedded" : "sidecar",
						   yl, y == NULL ? "none" : ye ? "embedded" : "sidecar");
					if (x != NULL && y != NULL && xl < 4096 && yl < 4096)
					{
						hex("java", x, (int32_t) xl);
						hex("ours", y, (int32_t) yl);
					}
				}
			}
		printf("compared %d file indexes\n", indexes);
		pm_arena_destroy(arena);
	}
	pm_scan_free(ds);
	pm_scan_free(ss);
	pm_table_close(dst);
	oracle_tool_close(&ot);
	free(fields);
	return bad == 0 && (compared > 0 || parquet) ? 0 : 1;
}
