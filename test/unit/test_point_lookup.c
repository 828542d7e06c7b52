/*-------------------------------------------------------------------------
 * test_point_lookup.c
 *	  pm_point_lookup_plan on the corpus' fixed-bucket primary-key tables:
 *	  every key of the table looked up alone (on a base scan planned
 *	  without a filter, as a lookup join's rescans use it, and on one
 *	  planned with the key) gives exactly that key's row of a full merged
 *	  scan; a key that is not there gives none; IN lists give the rows of
 *	  their keys; the lookups read fewer files than the table has. All of
 *	  it three times: with the key cache (parquet_key_probe.h) off, on, and
 *	  on with a budget so small that entries are evicted at once or refused;
 *	  with it on, some files are rejected by their key pages. The page cache
 *	  (common/page_lru.h) is on in the second run, where lookups must hit it
 *	  (the corpus' chunks are single pages: a lookup's few rows read them by
 *	  pages all the same, which the cache keeps), and evicting at once in
 *	  the third. The metadata cache is on in the second run too: then keys
 *	  looked up again are read from the caches alone (split.h
 *	  pm_data_file_fetch_cached), and must be, for some files. A lookup join's
 *	  lookups share their base scan's decoded file key ranges. Resident
 *	  lookups (pm_point_lookup_resident) answer as the merged scan does.
 *-------------------------------------------------------------------------
 */
#include "unit.h"
#include "corpus_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/env.h"
#include "common/meta_cache.h"
#include "common/page_lru.h"
#include "format/parquet/parquet_key_probe.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "row/value.h"
#include "table/point_lookup.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"

#include "pk_fixture.h"

#define MAX_ROWS 4096

static int64_t key_page_rejects;	/* over a run of the tests */
static bool key_cache_roomy;	/* the key cache holds every key page */

typedef struct table_rows
{
	int			n;
	char	   *row[MAX_ROWS];	/* every field's text, '|'-separated */
	char	   *key[MAX_ROWS];	/* the primary key's text */
	pm_value   *keyv[MAX_ROWS]; /* the primary key's values (bytes copied) */
} table_rows;

typedef struct lookup_table
{
	pm_table   *table;
	pm_fileio  *io;
	pm_arena   *arena;
	const pm_type *row;
	int			npk;
	int			pk[16];			/* primary-key fields (partition keys included) */
	int			nfields;
	int			fields[256];
} lookup_table;

static void
open_lookup_table(lookup_table *lt, const char *rel)
{
	pm_table_open_options opts;
	pm_error	err;
	const pm_schema *s;

	memset(lt, 0, sizeof(*lt));
	unit_require_corpus();
	lt->io = pm_local_fileio_create(pm_env_default());
	lt->arena = pm_arena_create(pm_env_default());
	memset(&opts, 0, sizeof(opts));
	pm_error_clear(&err);
	if (pm_table_open(pm_env_default(), lt->io, unit_corpus_path(rel), &opts, &lt->table,
					  &err) != PM_OK)
		fail_msg("%s: open: %s", rel, err.message);
	s = pm_table_schema(lt->table);
	lt->row = s->row_type;
	for (int i = 0; i < s->nprimary_keys; i++)
	{
		lt->pk[lt->npk] = pm_type_field_index(lt->row, s->primary_keys[i]);
		assert_true(lt->pk[lt->npk] >= 0);
		lt->npk++;
	}
	for (int f = 0; f < lt->row->nfields; f++)
		lt->fields[lt->nfields++] = f;
}

static void
close_lookup_table(lookup_table *lt)
{
	pm_table_close(lt->table);
	pm_arena_destroy(lt->arena);
	pm_local_fileio_destroy(lt->io);
}

static char *
row_text(const pm_batch *b, const int *cols, int ncols, int64_t i)
{
	sbuf		sb = {0};

	for (int c = 0; c < ncols; c++)
	{
		if (c > 0)
			sb_str(&sb, "|");
		fmt_value(&sb, &b->cols[cols[c]], i);
	}
	return sb.s;
}

/* The rows of scan (merged); with key != NULL only those of that key text. */
static void
lookup_rows(lookup_table *lt, pm_scan *scan, table_rows *out, const char *key)
{
	pm_table_read *read;
	pm_batch   *b;
	pm_error	err;
	int			all[256];
	int			pkcol[16];

	for (int f = 0; f < lt->nfields; f++)
		all[f] = f;
	for (int k = 0; k < lt->npk; k++)
		pkcol[k] = lt->pk[k];
	out->n = 0;
	pm_error_clear(&err);
	if (pm_table_read_open(scan, lt->fields, lt->nfields, &read, &err) != PM_OK)
		fail_msg("read open: %s", err.message);
	for (;;)
	{
		if (pm_table_read_next(read, &b, &err) != PM_OK)
			fail_msg("read: %s %s", err.message, err.path);
		if (b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			char	   *kt = row_text(b, pkcol, lt->npk, i);

			if (key != NULL && strcmp(kt, key) != 0)
			{
				free(kt);
				continue;
			}
			assert_true(out->n < MAX_ROWS);
			out->key[out->n] = kt;
			out->row[out->n] = row_text(b, all, lt->nfields, i);
			out->keyv[out->n] = pm_arena_zalloc(lt->arena, sizeof(pm_value) * lt->npk);
			for (int k = 0; k < lt->npk; k++)
			{
				pm_value   *v = &out->keyv[out->n][k];

				assert_true(pm_vector_value(&b->cols[lt->pk[k]], i, v));
				if (!v->is_null && pm_type_is_varlen(lt->row->fields[lt->pk[k]].type->id))
				{
					uint8_t    *copy = pm_arena_alloc(lt->arena, (size_t) v->u.bytes.len + 1);

					memcpy(copy, v->u.bytes.ptr, (size_t) v->u.bytes.len);
					v->u.bytes.ptr = copy;
				}
			}
			out->n++;
		}
	}
	pm_table_read_close(read);
}

static void
free_rows(table_rows *r)
{
	for (int i = 0; i < r->n; i++)
	{
		free(r->row[i]);
		free(r->key[i]);
	}
	r->n = 0;
}

/* "pk1 = v1 AND ..." with the last key field IN (in_values) when nin > 0. */
static pm_predicate *
key_pred(lookup_table *lt, const pm_value *key, const pm_value *in_values, int nin)
{
	pm_predicate *and = pm_arena_zalloc(lt->arena, sizeof(pm_predicate));

	and->op = PM_PRED_AND;
	and->children = pm_arena_zalloc(lt->arena, sizeof(pm_predicate *) * lt->npk);
	for (int k = 0; k < lt->npk; k++)
	{
		pm_predicate *leaf = pm_arena_zalloc(lt->arena, sizeof(pm_predicate));

		leaf->field = lt->pk[k];
		if (k == lt->npk - 1 && nin > 0)
		{
			leaf->op = PM_PRED_IN;
			leaf->nliterals = nin;
			leaf->literals = (pm_value *) in_values;
		}
		else
		{
			leaf->op = PM_PRED_EQ;
			leaf->nliterals = 1;
			leaf->literals = (pm_value *) &key[k];
		}
		and->children[and->nchildren++] = leaf;
	}
	return and;
}

static pm_scan *
plan(lookup_table *lt, const pm_predicate *pred)
{
	pm_scan    *scan;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_table_scan_plan(lt->table, pred, &scan, &err) != PM_OK)
		fail_msg("plan: %s", err.message);
	return scan;
}

static pm_scan *
lookup(pm_scan *base, const pm_predicate *pred, pm_point_lookup_stats *st)
{
	pm_scan    *scan;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_point_lookup_plan(base, pred, &scan, st, &err) != PM_OK)
		fail_msg("lookup: %s", err.message);
	assert_non_null(scan);
	return scan;
}

static void
check_table(const char *rel, bool expect_fewer_files)
{
	lookup_table lt;
	table_rows *all = calloc(1, sizeof(table_rows));
	table_rows *got = calloc(1, sizeof(table_rows));
	pm_scan    *base;
	pm_point_lookup_stats st = {0};
	int64_t		files_total;

	open_lookup_table(&lt, rel);
	base = plan(&lt, NULL);
	files_total = pm_scan_get_stats(base)->files_selected;
	lookup_rows(&lt, base, all, NULL);
	assert_true(all->n > 0);

	/* each key alone: on the unfiltered base, and on a base planned with it */
	for (int i = 0; i < all->n; i++)
	{
		pm_predicate *p = key_pred(&lt, all->keyv[i], NULL, 0);
		pm_scan    *ls = lookup(base, p, &st);
		pm_scan    *kbase = plan(&lt, p);
		pm_scan    *ls2 = lookup(kbase, p, NULL);

		/* Parquet: the key's row alone (the reader drops the rows of other keys) */
		lookup_rows(&lt, ls, got, strstr(rel, "/parquet/") != NULL ? NULL : all->key[i]);
		if (got->n != 1 || strcmp(got->row[0], all->row[i]) != 0)
			fail_msg("%s: key %s: %d rows, first %s, want %s", rel, all->key[i], got->n,
					 got->n > 0 ? got->row[0] : "-", all->row[i]);
		free_rows(got);
		lookup_rows(&lt, ls2, got, all->key[i]);
		assert_int_equal(got->n, 1);
		assert_string_equal(got->row[0], all->row[i]);
		free_rows(got);
		pm_scan_free(ls2);
		pm_scan_free(kbase);
		pm_scan_free(ls);
	}
	assert_int_equal(st.lookups, all->n);
	assert_int_equal(st.files_probed, st.key_range_rejects + st.bloom_rejects +
					 st.key_page_rejects + st.shadowed + st.files_read);
	if (!pm_parquet_key_cache_enabled())
		assert_int_equal(st.key_page_rejects, 0);
	key_page_rejects += st.key_page_rejects;
	print_message("%s: %d keys, %lld files, probed %lld, key range rejects %lld, "
				  "bloom rejects %lld, key page rejects %lld, read %lld\n", rel, all->n,
				  (long long) files_total, (long long) st.files_probed,
				  (long long) st.key_range_rejects, (long long) st.bloom_rejects,
				  (long long) st.key_page_rejects, (long long) st.files_read);
	if (expect_fewer_files)
		assert_true(st.files_read < (int64_t) all->n * files_total);

	/* a key that is not there: the last key field past every value */
	{
		pm_value   *k = pm_arena_zalloc(lt.arena, sizeof(pm_value) * lt.npk);
		const pm_type *lastt = lt.row->fields[lt.pk[lt.npk - 1]].type;
		pm_scan    *ls;
		table_rows *none = calloc(1, sizeof(table_rows));

		memcpy(k, all->keyv[0], sizeof(pm_value) * lt.npk);
		if (lastt->id == PM_TYPE_INT || lastt->id == PM_TYPE_BIGINT ||
			lastt->id == PM_TYPE_SMALLINT)
		{
			k[lt.npk - 1].u.i64 = lastt->id == PM_TYPE_SMALLINT ? 32767 : 2147483647;
			ls = lookup(base, key_pred(&lt, k, NULL, 0), NULL);
			lookup_rows(&lt, ls, none, NULL);
			/* whatever came along belongs to other keys */
			for (int i = 0; i < none->n; i++)
			{
				char	   *last = strrchr(none->key[i], '|');

				assert_false(last != NULL ? strcmp(last + 1, "2147483647") == 0 ||
							 strcmp(last + 1, "32767") == 0 : false);
			}
			free_rows(none);
			pm_scan_free(ls);
		}
		free(none);
	}

	/* IN: the first key's other fields, the last field IN the first rows' values */
	{
		int			nin = all->n < 5 ? all->n : 5;
		pm_value   *in = pm_arena_zalloc(lt.arena, sizeof(pm_value) * nin);
		pm_scan    *ls;
		int			want = 0;

		for (int i = 0; i < nin; i++)
			in[i] = all->keyv[i][lt.npk - 1];
		ls = lookup(base, key_pred(&lt, all->keyv[0], in, nin), NULL);
		lookup_rows(&lt, ls, got, NULL);
		/* every row of a matching key came, as the full scan has it */
		for (int j = 0; j < all->n; j++)
		{
			bool		match = true;
			bool		found = false;

			for (int k = 0; k + 1 < lt.npk && match; k++)
				match = pm_value_compare(lt.row->fields[lt.pk[k]].type, &all->keyv[j][k],
										 &all->keyv[0][k]) == 0;
			if (match)
			{
				match = false;
				for (int i = 0; i < nin; i++)
					if (pm_value_compare(lt.row->fields[lt.pk[lt.npk - 1]].type,
										 &all->keyv[j][lt.npk - 1], &in[i]) == 0)
						match = true;
			}
			if (!match)
				continue;
			want++;
			for (int i = 0; i < got->n; i++)
				if (strcmp(got->row[i], all->row[j]) == 0)
					found = true;
			if (!found)
				fail_msg("%s: IN lookup lost row %s", rel, all->row[j]);
		}
		assert_true(want >= 1);
		free_rows(got);
		pm_scan_free(ls);
	}

	/* not a point lookup: a key field left open */
	if (lt.npk > 1)
	{
		pm_predicate *p = key_pred(&lt, all->keyv[0], NULL, 0);
		pm_scan    *ls;
		pm_error	err;

		p->nchildren--;
		pm_error_clear(&err);
		assert_int_equal(pm_point_lookup_plan(base, p, &ls, NULL, &err), PM_OK);
		/* the open field may be a partition key: then it still pins the trimmed key */
		if (pm_table_schema(lt.table)->npartition_keys == 0)
			assert_null(ls);
		pm_scan_free(ls);
	}

	free_rows(all);
	free(all);
	free(got);
	pm_scan_free(base);
	close_lookup_table(&lt);
}

/*
 * A lookup planned on a copy of the base's table (pm_point_lookup_plan_on,
 * as the FDW does with a base kept across statements) is that table's scan
 * and reads through its FileIO, not the base's.
 */
static void
test_lookup_on_table_copy(void **state)
{
	lookup_table lt;
	table_rows *all = calloc(1, sizeof(table_rows));
	table_rows *got = calloc(1, sizeof(table_rows));
	pm_fileio  *io2 = pm_local_fileio_create(pm_env_default());
	pm_fileio  *empty = pm_memory_fileio_create(pm_env_default());
	pm_table   *copy;
	pm_table   *nowhere;
	pm_scan    *base;
	pm_scan    *ls;
	pm_error	err;
	pm_code		rc;

	(void) state;
	open_lookup_table(&lt, "tables/parquet/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor");
	base = plan(&lt, NULL);
	lookup_rows(&lt, base, all, NULL);
	assert_true(all->n > 0);
	pm_error_clear(&err);
	assert_int_equal(pm_table_copy(lt.table, pm_env_default(), io2, &copy, &err), PM_OK);
	for (int i = 0; i < all->n; i++)
	{
		pm_error_clear(&err);
		assert_int_equal(pm_point_lookup_plan_on(copy, base, key_pred(&lt, all->keyv[i], NULL, 0),
												 &ls, NULL, &err), PM_OK);
		assert_non_null(ls);
		assert_ptr_equal(pm_scan_table(ls), copy);
		lookup_rows(&lt, ls, got, all->key[i]);
		assert_int_equal(got->n, 1);
		assert_string_equal(got->row[0], all->row[i]);
		free_rows(got);
		pm_scan_free(ls);
	}
	pm_table_close(copy);

	/*
	 * a copy whose FileIO holds no file: planning or reading the lookup fails
	 * (once the footers are no longer cached: with them and the pages cached,
	 * a lookup reads no file at all)
	 */
	pm_meta_cache_clear();
	assert_int_equal(pm_table_copy(lt.table, pm_env_default(), empty, &nowhere, &err), PM_OK);
	pm_error_clear(&err);
	rc = pm_point_lookup_plan_on(nowhere, base, key_pred(&lt, all->keyv[0], NULL, 0), &ls, NULL,
								 &err);
	if (rc == PM_OK)
	{
		pm_table_read *read;
		pm_batch   *b = NULL;

		assert_non_null(ls);
		rc = pm_table_read_open(ls, lt.fields, lt.nfields, &read, &err);
		if (rc == PM_OK)
		{
			do
				rc = pm_table_read_next(read, &b, &err);
			while (rc == PM_OK && b != NULL);
			pm_table_read_close(read);
		}
		pm_scan_free(ls);
	}
	assert_int_equal(rc, PM_ERR_NOT_FOUND);
	pm_table_close(nowhere);

	free_rows(all);
	free(all);
	free(got);
	pm_scan_free(base);
	close_lookup_table(&lt);
	pm_memory_fileio_destroy(empty);
	pm_local_fileio_destroy(io2);
}

static void
test_mor_partitioned(void **state)
{
	check_table("tables/parquet/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor", true);
}

static void
test_partial_update(void **state)
{
	check_table("tables/parquet/pk_table_partial_update.db/pk_table_partial_update", false);
}

static void
test_dv(void **state)
{
	check_table("tables/parquet/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv", false);
}

static void
test_first_row(void **state)
{
	check_table("tables/parquet/pk_table_scan_and_read_first_row.db/pk_table_scan_and_read_first_row",
				false);
}

static void
test_total_buckets_orc(void **state)
{
	check_table("tables/orc/pk_table_with_total_buckets.db/pk_table_with_total_buckets", true);
}

static void
test_aggregation(void **state)
{
	check_table("tables/parquet/pk_compact_lookup.db/pk_compact_lookup", false);
}

static void
test_many_rows(void **state)
{
	check_table("tables/parquet/pk_btree_e2e.db/pk_btree_e2e", false);
}

static void
test_schema_evolution(void **state)
{
	check_table("tables/parquet/pk_table_with_alter_table.db/pk_table_with_alter_table", false);
}

static void
test_avro_types(void **state)
{
	check_table("tables/avro/pk_with_multiple_type.db/pk_with_multiple_type", false);
}

static void
test_bitmap_dv(void **state)
{
	check_table("tables/parquet/pk_with_bitmap_dv.db/pk_with_bitmap_dv", false);
}

/* An append table is never a point lookup. */
/* lt: the table pk_fixture wrote at dir (key id), every field read. */
static void
open_written(lookup_table *lt, pm_fileio *io, const char *dir)
{
	pm_error	err;

	pm_error_clear(&err);
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, NULL, &lt->table, &err), PM_OK);
	lt->row = pm_table_schema(lt->table)->row_type;
	lt->npk = 1;
	lt->pk[0] = 0;
	for (int f = 0; f < lt->row->nfields; f++)
		lt->fields[lt->nfields++] = f;
}

/*
 * Many overlapping level-0 files (12 commits upserting and deleting keys
 * all over the range of a first one): every key, present or deleted, looked
 * up alone gives the full merged scan's answer, probing the files newest
 * first: once the key is surely in one, the older files are shadowed
 * without a probe.
 */
static void
test_newest_first_many_files(void **state)
{
	/* write-only: the writer does not compact the level-0 files away */
	static const char *keys[] = {"bucket", "write-only"};
	static const char *vals[] = {"1", "true"};
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	const char *dir = "/mem/wh/db.db/many";
	lookup_table lt;
	table_rows *all = calloc(1, sizeof(table_rows));
	table_rows *got = calloc(1, sizeof(table_rows));
	trow		rows[100];
	uint8_t		kinds[11];
	pm_point_lookup_stats st = {0};
	pm_scan    *base;
	int			found = 0;

	(void) state;
	memset(&lt, 0, sizeof(lt));
	lt.arena = pm_arena_create(pm_env_default());
	pk_create(io, lt.arena, dir, 2, keys, vals);
	for (int i = 0; i < 100; i++)
		rows[i] = (trow) {i, true, i, i};
	pk_commit_rows(io, dir, lt.arena, rows, NULL, 100, 1, 1);
	for (int c = 2; c <= 13; c++)
	{
		for (int j = 0; j < 10; j++)
		{
			rows[j] = (trow) {(c * 7 + j * 13) % 100, true, c * 1000 + j, c};
			kinds[j] = PM_ROW_UPDATE_AFTER;
		}
		rows[10] = (trow) {(c * 11 + 5) % 100, false, 0, INT64_MIN};
		kinds[10] = PM_ROW_DELETE;
		/* a key both upserted and deleted in one commit: keep the upsert */
		for (int j = 0; j < 10; j++)
			if (rows[j].id == rows[10].id)
				rows[10].id = (rows[10].id + 1) % 100;
		pk_commit_rows(io, dir, lt.arena, rows, kinds, 11, c, c);
	}
	open_written(&lt, io, dir);
	base = plan(&lt, NULL);
	lookup_rows(&lt, base, all, NULL);
	assert_true(all->n > 50 && all->n < 100);
	for (int id = 0; id < 100; id++)
	{
		pm_value	k = {0};
		pm_scan    *ls;
		char		want[16];
		int			at = -1;

		k.u.i64 = id;
		snprintf(want, sizeof(want), "%d", id);
		for (int i = 0; i < all->n; i++)
			if (strcmp(all->key[i], want) == 0)
				at = i;
		ls = lookup(base, key_pred(&lt, &k, NULL, 0), &st);
		lookup_rows(&lt, ls, got, want);
		assert_int_equal(got->n, at >= 0 ? 1 : 0);
		if (at >= 0)
		{
			assert_string_equal(got->row[0], all->row[at]);
			found++;
		}
		free_rows(got);
		pm_scan_free(ls);
	}
	assert_int_equal(found, all->n);
	assert_int_equal(st.files_probed, st.key_range_rejects + st.bloom_rejects +
					 st.key_page_rejects + st.shadowed + st.files_read);
	print_message("many files: probed %lld, key page rejects %lld, shadowed %lld, read %lld\n",
				  (long long) st.files_probed, (long long) st.key_page_rejects,
				  (long long) st.shadowed, (long long) st.files_read);
	if (key_cache_roomy)
	{
		/*
		 * A key is read from the newest file that holds it; the older files
		 * are shadowed unprobed, so they outnumber the newer files whose
		 * key pages reject it (probed in file order: 132 and 941).
		 */
		assert_int_equal(st.files_read, 100);
		assert_true(st.shadowed > st.key_page_rejects);
	}

	/*
	 * IN lists of 5 keys (ids 5g .. 5g + 4): the rows of those keys, each
	 * key apart shadowing the files older than the newest holding it, so
	 * at most one file is read per key.
	 */
	memset(&st, 0, sizeof(st));
	for (int g = 0; g < 20; g++)
	{
		pm_value	in[5];
		pm_scan    *ls;
		int			want = 0;

		memset(in, 0, sizeof(in));
		for (int j = 0; j < 5; j++)
			in[j].u.i64 = 5 * g + j;
		ls = lookup(base, key_pred(&lt, NULL, in, 5), &st);
		lookup_rows(&lt, ls, got, NULL);
		for (int i = 0; i < all->n; i++)
			if (atoi(all->key[i]) / 5 == g)
			{
				bool		same = false;

				for (int r = 0; r < got->n; r++)
					same |= strcmp(got->row[r], all->row[i]) == 0;
				assert_true(same);
				want++;
			}
		assert_int_equal(got->n, want);
		free_rows(got);
		pm_scan_free(ls);
	}
	assert_int_equal(st.files_probed, st.key_range_rejects + st.bloom_rejects +
					 st.key_page_rejects + st.shadowed + st.files_read);
	print_message("IN lists: probed %lld, key page rejects %lld, shadowed %lld, read %lld\n",
				  (long long) st.files_probed, (long long) st.key_page_rejects,
				  (long long) st.shadowed, (long long) st.files_read);
	if (key_cache_roomy)
	{
		/* without shadowing per key: 0 shadowed, 141 read */
		assert_true(st.files_read <= 100);
		assert_true(st.shadowed > 0);
	}
	free_rows(all);
	free(all);
	free(got);
	pm_scan_free(base);
	pm_table_close(lt.table);
	pm_arena_destroy(lt.arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Two commits into the table at dir: ids 0..99 (name, v = w = id); then
 * updates of 10..19 (+U, v = 1000 + i, w = 7) and a delete of 20.
 */
static void
commit_updates_and_delete(pm_fileio *io, const char *dir, pm_arena *arena)
{
	trow		rows[100];
	uint8_t		kinds[11];

	for (int i = 0; i < 100; i++)
		rows[i] = (trow) {i, true, i, i};
	pk_commit_rows(io, dir, arena, rows, NULL, 100, 1, 1);
	for (int i = 0; i < 10; i++)
	{
		rows[i] = (trow) {10 + i, true, 1000 + i, 7};
		kinds[i] = PM_ROW_UPDATE_AFTER;
	}
	rows[10] = (trow) {20, false, 0, INT64_MIN};
	kinds[10] = PM_ROW_DELETE;
	pk_commit_rows(io, dir, arena, rows, kinds, 11, 2, 2);
}

/*
 * The newest record decides (deduplicate): a key updated or deleted by a
 * later commit is read from the newer file alone, the older file counted
 * as shadowed (when the key cache places the key); the rows are those of
 * the full merged scan. With ignore-delete every file is read.
 */
static void
test_newest_record_decides(void **state)
{
	static const char *keys[] = {"bucket", "ignore-delete"};
	static const char *vals[] = {"1", "true"};

	(void) state;
	for (int variant = 0; variant < 2; variant++)
	{
		pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
		const char *dir = "/mem/wh/db.db/newest";
		lookup_table lt;
		table_rows *all = calloc(1, sizeof(table_rows));
		table_rows *got = calloc(1, sizeof(table_rows));
		pm_point_lookup_stats st = {0};
		pm_scan    *base;

		memset(&lt, 0, sizeof(lt));
		lt.arena = pm_arena_create(pm_env_default());
		pk_create(io, lt.arena, dir, variant == 0 ? 1 : 2, keys, vals);
		commit_updates_and_delete(io, dir, lt.arena);

		open_written(&lt, io, dir);
		base = plan(&lt, NULL);
		lookup_rows(&lt, base, all, NULL);
		assert_int_equal(all->n, variant == 0 ? 99 : 100);
		for (int i = 0; i < all->n; i++)
		{
			pm_scan    *ls = lookup(base, key_pred(&lt, all->keyv[i], NULL, 0), &st);

			lookup_rows(&lt, ls, got, all->key[i]);
			assert_int_equal(got->n, 1);
			assert_string_equal(got->row[0], all->row[i]);
			free_rows(got);
			pm_scan_free(ls);
		}
		/* the deleted key: nothing, from the newer file alone */
		{
			pm_value	k = {0};
			pm_scan    *ls;

			k.u.i64 = 20;
			ls = lookup(base, key_pred(&lt, &k, NULL, 0), &st);
			lookup_rows(&lt, ls, got, NULL);
			assert_int_equal(got->n, variant == 0 ? 0 : 1);
			free_rows(got);
			pm_scan_free(ls);
		}
		assert_int_equal(st.files_probed, st.key_range_rejects + st.bloom_rejects +
						 st.key_page_rejects + st.shadowed + st.files_read);
		print_message("newest record decides (%s): shadowed %lld, read %lld\n",
					  variant == 0 ? "deduplicate" : "ignore-delete", (long long) st.shadowed,
					  (long long) st.files_read);
		if (variant == 1 || !pm_parquet_key_cache_enabled())
			assert_int_equal(st.shadowed, 0);
		else if (key_cache_roomy)
			assert_int_equal(st.shadowed, 11);	/* ids 10..19 and the deleted 20 */
		free_rows(all);
		free(all);
		free(got);
		pm_scan_free(base);
		pm_table_close(lt.table);
		pm_arena_destroy(lt.arena);
		pm_memory_fileio_destroy(io);
	}
}

/*
 * Resident lookups (pm_point_lookup_resident) on a table of three commits:
 * inserts of ids 0..99; updates of 10..19 and a delete of 20; an update of
 * 15 to NULLs, a delete of 16 and an insert of 150. Every id from -1 to
 * 160, three rounds: a row found equals the merged scan's row of the id,
 * an id answered absent has none, and "no answer" is always allowed (the
 * plan and read then). With the page cache roomy the files become
 * resident in the first round and answer the later ones (with it tiny,
 * only files of a few rows fit); with it off, and for ignore-delete (an
 * older record may be the row), nothing is answered.
 */
static void
test_resident_lookup(void **state)
{
	static const char *keys[] = {"bucket", "ignore-delete"};
	static const char *vals[] = {"1", "true"};

	(void) state;
	for (int variant = 0; variant < 2; variant++)
	{
		pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
		const char *dir = "/mem/wh/db.db/resident";
		lookup_table lt;
		table_rows *all = calloc(1, sizeof(table_rows));
		trow		rows[100];
		uint8_t		kinds[11];
		pm_point_lookup_stats st = {0};
		pm_arena   *ra = pm_arena_create(pm_env_default());
		pm_page_lru_stats ps;
		pm_scan    *base;
		int64_t		found = 0,
					absent = 0;

		memset(&lt, 0, sizeof(lt));
		lt.arena = pm_arena_create(pm_env_default());
		pk_create(io, lt.arena, dir, variant == 0 ? 1 : 2, keys, vals);
		commit_updates_and_delete(io, dir, lt.arena);
		rows[0] = (trow) {15, false, 5, INT64_MIN};
		kinds[0] = PM_ROW_UPDATE_AFTER;
		rows[1] = (trow) {16, false, 0, INT64_MIN};
		kinds[1] = PM_ROW_DELETE;
		rows[2] = (trow) {150, true, 150, 150};
		kinds[2] = PM_ROW_INSERT;
		pk_commit_rows(io, dir, lt.arena, rows, kinds, 3, 3, 3);

		open_written(&lt, io, dir);
		base = plan(&lt, NULL);
		lookup_rows(&lt, base, all, NULL);
		assert_int_equal(all->n, variant == 0 ? 99 : 101);
		for (int round = 0; round < 3; round++)
			for (int id = -1; id <= 160; id++)
			{
				pm_value	k = {0};
				pm_batch   *b;
				pm_error	err;
				int			res;
				int			want = -1;

				for (int i = 0; i < all->n; i++)
					if (all->keyv[i][0].u.i64 == id)
						want = i;
				k.u.i64 = id;
				pm_arena_reset(ra);
				pm_error_clear(&err);
				assert_int_equal(pm_point_lookup_resident(lt.table, base,
														  key_pred(&lt, &k, NULL, 0),
														  lt.fields, lt.nfields, ra, &res, &b,
														  &st, &err), PM_OK);
				if (res == PM_RESIDENT_FOUND)
				{
					char	   *text;

					assert_non_null(b);
					assert_int_equal(b->nrows, 1);
					assert_int_equal(b->ncols, lt.nfields);
					if (want < 0)
						fail_msg("id %d: resident row, the scan has none", id);
					text = row_text(b, lt.fields, lt.nfields, 0);
					if (strcmp(text, all->row[want]) != 0)
						fail_msg("id %d: resident row %s, want %s", id, text, all->row[want]);
					free(text);
					found++;
				}
				else if (res == PM_RESIDENT_ABSENT)
				{
					if (want >= 0)
						fail_msg("id %d: resident says absent, the scan has %s", id,
								 all->row[want]);
					absent++;
				}
				else
					assert_int_equal(res, PM_RESIDENT_NO);
			}
		pm_page_lru_get_stats(&ps);
		print_message("resident lookups (%s, page cache %zu bytes): %lld found, %lld absent\n",
					  variant == 0 ? "deduplicate" : "ignore-delete", ps.budget,
					  (long long) found, (long long) absent);
		assert_int_equal(st.resident, found + absent);
		if (variant == 1 || ps.budget == 0)
			assert_int_equal(found + absent, 0);
		else if (ps.budget >= ((size_t) 1 << 20))
		{
			/* the later rounds from resident files: the deleted 16 and 20 absent */
			assert_true(found >= 2 * 99);
			assert_true(absent >= 2 * (162 - 99));
		}
		free_rows(all);
		free(all);
		pm_scan_free(base);
		pm_table_close(lt.table);
		pm_arena_destroy(ra);
		pm_arena_destroy(lt.arena);
		pm_memory_fileio_destroy(io);
	}
}

static void
test_append_table(void **state)
{
	lookup_table lt;
	pm_scan    *base,
			   *ls;
	pm_predicate leaf = {0};
	pm_value	v = {0};
	pm_error	err;

	open_lookup_table(&lt, "tables/parquet/append_with_bitmap.db/append_with_bitmap");
	base = plan(&lt, NULL);
	v.u.i64 = 1;
	leaf.op = PM_PRED_EQ;
	leaf.field = 1;
	leaf.nliterals = 1;
	leaf.literals = &v;
	pm_error_clear(&err);
	assert_int_equal(pm_point_lookup_plan(base, &leaf, &ls, NULL, &err), PM_OK);
	assert_null(ls);
	pm_scan_free(base);
	close_lookup_table(&lt);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mor_partitioned),
		cmocka_unit_test(test_lookup_on_table_copy),
		cmocka_unit_test(test_partial_update),
		cmocka_unit_test(test_dv),
		cmocka_unit_test(test_first_row),
		cmocka_unit_test(test_total_buckets_orc),
		cmocka_unit_test(test_aggregation),
		cmocka_unit_test(test_many_rows),
		cmocka_unit_test(test_schema_evolution),
		cmocka_unit_test(test_avro_types),
		cmocka_unit_test(test_bitmap_dv),
		cmocka_unit_test(test_newest_record_decides),
		cmocka_unit_test(test_newest_first_many_files),
		cmocka_unit_test(test_resident_lookup),
		cmocka_unit_test(test_append_table),
	};

	int			failed;
	pm_lru_stats cs;
	int64_t		fetches;

	print_message("== key cache off\n");
	pm_parquet_key_cache_set_budget(0);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	print_message("== key cache on (64 MB)\n");
	key_page_rejects = 0;
	pm_parquet_key_cache_set_budget((size_t) 64 << 20);
	pm_page_lru_set_budget((size_t) 64 << 20);
	pm_meta_cache_set_budget((size_t) 64 << 20);
	key_cache_roomy = true;
	fetches = pm_data_file_fetches();
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	key_cache_roomy = false;
	/* keys looked up again found their files' footers, page indexes and pages cached */
	fetches = pm_data_file_fetches() - fetches;
	print_message("files read from the caches alone: %lld\n", (long long) fetches);
	if (fetches == 0 && unit_input_required())
		failed++;
	{
		pm_page_lru_stats ps;

		pm_page_lru_get_stats(&ps);
		print_message("page cache: %lld hits, %lld misses, %lld entries\n",
					  (long long) ps.hits, (long long) ps.misses, (long long) ps.entries);
		if (ps.hits == 0 && unit_input_required())
			failed++;			/* repeated lookups read their pages from it */
	}
	pm_parquet_key_cache_get_stats(&cs);
	print_message("key cache: %lld hits, %lld misses, %lld entries; %lld key page rejects\n",
				  (long long) cs.hits, (long long) cs.misses, (long long) cs.entries,
				  (long long) key_page_rejects);
	if (key_page_rejects == 0 && unit_input_required())
		failed++;				/* the corpus has overlapping files: some must go */
	print_message("== key cache on (2 kB: evicting)\n");
	pm_parquet_key_cache_set_budget(2048);
	pm_page_lru_set_budget(4096);
	pm_meta_cache_set_budget(4096);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	pm_parquet_key_cache_set_budget(0);
	pm_page_lru_set_budget(0);
	pm_meta_cache_set_budget(0);
	return failed;
}
