/*-------------------------------------------------------------------------
 * test_table_split.c
 *	  The split API src/lsm/ builds on, over every primary-key table of the
 *	  corpus: planning yields splits whose files exist, deletion vectors
 *	  attached from the index manifest are readable, and the key-value
 *	  reader returns _KEY_ columns, _SEQUENCE_NUMBER and _VALUE_KIND in the
 *	  documented layout, consistent with each file's metadata.
 *
 *	  Key-range splits (table/key_range_split.h): a bucket cut into N key
 *	  ranges, each merged by its own reader, gives exactly the rows of the
 *	  serial merged read (as a multiset), for N = 1..8, on every corpus
 *	  primary-key table and on random tables of many small Parquet pages
 *	  (upserts and deletes over several commits: overlapping level-0 runs).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "index/deletion_vector.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "lsm/table_read.h"
#include "row/value.h"
#include "table/key_range_split.h"
#include "table/split.h"
#include "table/table.h"
#include "table/table_write.h"
#include "pk_fixture.h"

static void
check_table(const char *rel, int *ndv, int64_t *nrows)
{
	char	   *dir = strdup(unit_corpus_path(rel));
	char		map[8192];
	const char *db = strstr(dir, ".db/");
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	pm_table_open_options opts = {0};
	pm_table   *t;
	pm_scan    *scan;
	pm_scan_reader *sr;
	pm_error	err;
	const int  *keys;
	int			nkeys;
	const pm_schema *s;
	int		   *all;

	snprintf(map, sizeof(map), "FILE:/tmp/external=%.*s/external", (int) (db + 3 - dir), dir);
	opts.external_path_map = map;
	if (pm_table_open(pm_env_default(), io, dir, &opts, &t, &err) != PM_OK)
		fail_msg("%s: %s", rel, err.message);
	s = pm_table_schema(t);
	assert_true(s->nprimary_keys > 0);
	pm_table_trimmed_primary_key(t, &keys, &nkeys);
	assert_true(nkeys > 0 && nkeys <= s->nprimary_keys);
	if (pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK)
		fail_msg("%s: plan: %s", rel, err.message);
	assert_true(pm_scan_needs_merge(scan));
	assert_int_equal(pm_scan_reader_open(scan, NULL, 0, &sr, &err), PM_ERR_UNSUPPORTED);
	assert_ptr_equal(pm_scan_table(scan), t);
	all = calloc(s->row_type->nfields + 1, sizeof(int));
	for (int i = 0; i < s->row_type->nfields; i++)
		all[i] = i;
	for (int i = 0; i < pm_scan_split_count(scan); i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);

		assert_int_equal(sp->npartition_values, s->npartition_keys);
		for (int f = 0; f < sp->nfiles; f++)
		{
			const pm_data_file_meta *fm = sp->files[f];
			pm_data_file_reader *r;
			pm_batch   *b;
			int64_t		rows = 0;

			if (!io->exists(io, fm->path))
				fail_msg("%s: missing data file %s", rel, fm->path);
			if (fm->deletion_file != NULL)
			{
				pm_deletion_vector *dv;

				if (pm_deletion_vector_read(pm_env_default(), io, fm->deletion_file->path,
											fm->deletion_file->offset, fm->deletion_file->length,
											&dv, &err) != PM_OK)
					fail_msg("%s: dv: %s", rel, err.message);
				assert_true((int64_t) pm_deletion_vector_cardinality(dv) <= fm->row_count);
				pm_deletion_vector_destroy(dv);
				(*ndv)++;
			}
			if (pm_data_file_reader_open(t, fm, all, s->row_type->nfields, true, 0, &r, &err) != PM_OK)
				fail_msg("%s: open %s: %s", rel, fm->path, err.message);
			for (;;)
			{
				if (pm_data_file_reader_next(r, &b, &err) != PM_OK)
					fail_msg("%s: read %s: %s", rel, fm->path, err.message);
				if (b == NULL)
					break;
				assert_int_equal(b->ncols, nkeys + 2 + s->row_type->nfields);
				assert_int_equal(b->first_row, rows);
				assert_int_equal(b->cols[nkeys].type->id, PM_TYPE_BIGINT);
				assert_int_equal(b->cols[nkeys + 1].type->id, PM_TYPE_TINYINT);
				for (int64_t k = 0; k < b->nrows; k++)
				{
					int64_t		seq = PM_VEC_VALUES(&b->cols[nkeys], int64_t)[k];
					int			kind = PM_VEC_VALUES(&b->cols[nkeys + 1], int8_t)[k];

					assert_false(pm_vector_is_null(&b->cols[nkeys], k));
					assert_true(seq >= fm->min_sequence_number && seq <= fm->max_sequence_number);
					assert_true(kind >= 0 && kind <= 3);
					/* key columns equal the same fields among the values */
					for (int c = 0; c < nkeys; c++)
					{
						const pm_vector *kv = &b->cols[c];
						const pm_vector *vv = &b->cols[nkeys + 2 + keys[c]];

						assert_int_equal(pm_vector_is_null(kv, k), pm_vector_is_null(vv, k));
						if (kv->type->id == PM_TYPE_INT && !pm_vector_is_null(kv, k))
							assert_int_equal(PM_VEC_VALUES(kv, int32_t)[k], PM_VEC_VALUES(vv, int32_t)[k]);
						if (pm_type_is_string(kv->type->id) && !pm_vector_is_null(kv, k))
						{
							int32_t		l1,
										l2;
							const uint8_t *p1 = pm_vector_bytes(kv, k, &l1);
							const uint8_t *p2 = pm_vector_bytes(vv, k, &l2);

							assert_int_equal(l1, l2);
							assert_memory_equal(p1, p2, l1);
						}
					}
				}
				rows += b->nrows;
			}
			assert_int_equal(rows, fm->row_count);
			*nrows += rows;
			pm_data_file_reader_close(r);
		}
	}
	free(all);
	pm_scan_free(scan);
	pm_table_close(t);
	pm_local_fileio_destroy(io);
	free(dir);
}

static void
test_pk_tables(void **state)
{
	char	   *edir;
	DIR		   *d;
	struct dirent *de;
	char	  **seen = NULL;
	int			nseen = 0;
	int			ndv = 0;
	int64_t		nrows = 0;

	(void) state;
	unit_require_corpus();		/* before allocating: a skip does not free */
	edir = strdup(unit_corpus_path("expected"));
	d = opendir(edir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
	{
		char		path[4096];
		json_t	   *c;
		json_error_t jerr;
		const char *table;
		bool		dup = false;

		if (strstr(de->d_name, ".json") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", edir, de->d_name);
		c = json_load_file(path, 0, &jerr);
		if (c == NULL || strcmp(json_string_value(json_object_get(c, "table_kind")), "pk") != 0)
		{
			json_decref(c);
			continue;
		}
		table = json_string_value(json_object_get(c, "table"));
		for (int i = 0; i < nseen; i++)
			if (strcmp(seen[i], table) == 0)
				dup = true;
		if (!dup)
		{
			seen = realloc(seen, sizeof(char *) * (nseen + 1));
			seen[nseen++] = strdup(table);
			check_table(table, &ndv, &nrows);
		}
		json_decref(c);
	}
	closedir(d);
	print_message("%d primary-key tables, %lld key-value rows, %d deletion vectors\n",
				  nseen, (long long) nrows, ndv);
	assert_true(nseen >= 10);
	assert_true(ndv > 0);
	for (int i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(edir);
}


/* ---- key-range splits ---------------------------------------------------- */

/* Participant p of n takes the units u with u % n == p. */
typedef struct modulo_claim
{
	int			p;
	int			n;
} modulo_claim;

static bool
claim_modulo(void *ctx, int64_t unit)
{
	const modulo_claim *c = ctx;

	return unit % c->n == c->p;
}

typedef struct rowset
{
	char	  **rows;
	int64_t		n;
	int64_t		cap;
} rowset;

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Append the rows of b, rendered "v1|v2|...". */
static void
add_rows(rowset *rs, const pm_batch *b, const pm_type *const *types, pm_arena *arena)
{
	for (int64_t i = 0; i < b->nrows; i++)
	{
		size_t		len = 1;
		char	   *row;
		char	  **cells = pm_arena_alloc(arena, sizeof(char *) * (size_t) (b->ncols + 1));

		for (int c = 0; c < b->ncols; c++)
		{
			pm_value	v;

			cells[c] = pm_vector_value(&b->cols[c], i, &v) ?
				pm_value_format(arena, types[c], &v) : "<nested>";
			assert_non_null(cells[c]);
			len += strlen(cells[c]) + 1;
		}
		row = malloc(len);
		row[0] = '\0';
		for (int c = 0; c < b->ncols; c++)
		{
			strcat(row, cells[c]);
			strcat(row, "|");
		}
		if (rs->n == rs->cap)
		{
			rs->cap = rs->cap > 0 ? 2 * rs->cap : 256;
			rs->rows = realloc(rs->rows, sizeof(char *) * (size_t) rs->cap);
		}
		rs->rows[rs->n++] = row;
	}
}

static void
rowset_free(rowset *rs)
{
	for (int64_t i = 0; i < rs->n; i++)
		free(rs->rows[i]);
	free(rs->rows);
	memset(rs, 0, sizeof(*rs));
}

/*
 * Read every field of the table at path: serially, then for n = 1..8 by n
 * readers each merging the key ranges (units) u % n == p of buckets cut
 * into about n ranges. Returns the largest number of ranges a bucket got.
 */
static int64_t
check_key_ranges(pm_fileio *io, const char *path, const pm_table_open_options *opts)
{
	const pm_env *env = pm_env_default();
	pm_arena   *arena = pm_arena_create(env);
	pm_table   *t;
	pm_scan    *scan;
	pm_error	err;
	const pm_schema *s;
	int		   *all;
	const pm_type **types;
	rowset		serial = {0};
	int64_t		most = 0,
				max_bytes = 0;

	pm_error_clear(&err);
	if (pm_table_open(env, io, path, opts, &t, &err) != PM_OK)
		fail_msg("%s: %s", path, err.message);
	s = pm_table_schema(t);
	all = pm_arena_alloc(arena, sizeof(int) * (size_t) (s->row_type->nfields + 1));
	types = pm_arena_alloc(arena, sizeof(pm_type *) * (size_t) (s->row_type->nfields + 1));
	for (int i = 0; i < s->row_type->nfields; i++)
	{
		all[i] = i;
		types[i] = s->row_type->fields[i].type;
	}
	for (int n = 0; n <= 8; n++)
	{
		rowset		got = {0};
		int64_t		ranges = 0;

		if (pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK)
			fail_msg("%s: plan: %s", path, err.message);
		if (n == 0)
			for (int i = 0; i < pm_scan_split_count(scan); i++)
			{
				const pm_split *sp = pm_scan_get_split(scan, i);
				int64_t		bytes = 0;

				for (int f = 0; f < sp->nfiles; f++)
					bytes += sp->files[f]->file_size;
				if (bytes > max_bytes)
					max_bytes = bytes;
			}
		else
			/* about n key ranges in the largest bucket */
			pm_scan_set_part_units(scan, max_bytes / (PM_KEY_RANGE_UNITS * n) + 1);
		for (int p = 0; p < (n > 0 ? n : 1); p++)
		{
			pm_table_read *rd;
			pm_batch   *b;
			modulo_claim mc = {p, n};

			if (pm_table_read_open(scan, all, s->row_type->nfields, &rd, &err) != PM_OK)
				fail_msg("%s: read: %s", path, err.message);
			if (n > 0)
				pm_table_read_set_claim(rd, claim_modulo, &mc);
			for (;;)
			{
				if (pm_table_read_next(rd, &b, &err) != PM_OK)
					fail_msg("%s: n=%d p=%d: %s", path, n, p, err.message);
				if (b == NULL)
					break;
				assert_int_equal(b->ncols, s->row_type->nfields);
				add_rows(n == 0 ? &serial : &got, b, types, arena);
			}
			if (p == 0)
				ranges = pm_table_read_key_ranges(rd);
			else
				assert_int_equal(pm_table_read_key_ranges(rd), ranges);	/* same cuts everywhere */
			pm_table_read_close(rd);
		}
		pm_scan_free(scan);
		if (ranges > most)
			most = ranges;
		if (n == 0)
		{
			qsort(serial.rows, (size_t) serial.n, sizeof(char *), cmp_str);
			continue;
		}
		if (n == 1)
			assert_int_equal(ranges, 0);	/* one unit per bucket: never cut */
		qsort(got.rows, (size_t) got.n, sizeof(char *), cmp_str);
		if (got.n != serial.n)
			fail_msg("%s: %d participants (%lld ranges) read %lld rows, serial %lld",
					 path, n, (long long) ranges, (long long) got.n, (long long) serial.n);
		for (int64_t i = 0; i < got.n; i++)
			if (strcmp(got.rows[i], serial.rows[i]) != 0)
				fail_msg("%s: %d participants: row %lld is %s, serial %s", path, n,
						 (long long) i, got.rows[i], serial.rows[i]);
		rowset_free(&got);
		if (n > 0)
		{
			/*
			 * Participants known: one (no more than the merged buckets)
			 * cuts nothing, a thousand cut as unknown; the rows are the same
			 */
			int			parts[2] = {1, 1000};

			for (int k = 0; k < 2; k++)
			{
				rowset		again = {0};
				int64_t		ranges2 = 0;

				if (pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK)
					fail_msg("%s: plan: %s", path, err.message);
				pm_scan_set_part_units(scan, max_bytes / (PM_KEY_RANGE_UNITS * n) + 1);
				pm_scan_set_participants(scan, parts[k]);
				for (int p = 0; p < n; p++)
				{
					pm_table_read *rd;
					pm_batch   *b;
					modulo_claim mc = {p, n};

					if (pm_table_read_open(scan, all, s->row_type->nfields, &rd, &err) != PM_OK)
						fail_msg("%s: read: %s", path, err.message);
					pm_table_read_set_claim(rd, claim_modulo, &mc);
					for (;;)
					{
						if (pm_table_read_next(rd, &b, &err) != PM_OK)
							fail_msg("%s: n=%d p=%d: %s", path, n, p, err.message);
						if (b == NULL)
							break;
						add_rows(&again, b, types, arena);
					}
					ranges2 = pm_table_read_key_ranges(rd);
					pm_table_read_close(rd);
				}
				pm_scan_free(scan);
				assert_int_equal(ranges2, k == 0 ? 0 : ranges);
				qsort(again.rows, (size_t) again.n, sizeof(char *), cmp_str);
				assert_int_equal(again.n, serial.n);
				for (int64_t i = 0; i < again.n; i++)
					assert_string_equal(again.rows[i], serial.rows[i]);
				rowset_free(&again);
			}
		}
	}
	rowset_free(&serial);
	pm_table_close(t);
	pm_arena_destroy(arena);
	return most;
}

static void
test_key_ranges_corpus(void **state)
{
	char	   *edir;
	DIR		   *d;
	struct dirent *de;
	char	  **seen = NULL;
	int			nseen = 0;
	int64_t		most = 0;

	(void) state;
	unit_require_corpus();
	edir = strdup(unit_corpus_path("expected"));
	d = opendir(edir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
	{
		char		path[4096];
		json_t	   *c;
		json_error_t jerr;
		const char *table;
		bool		dup = false;

		if (strstr(de->d_name, ".json") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", edir, de->d_name);
		c = json_load_file(path, 0, &jerr);
		if (c == NULL || strcmp(json_string_value(json_object_get(c, "table_kind")), "pk") != 0)
		{
			json_decref(c);
			continue;
		}
		table = json_string_value(json_object_get(c, "table"));
		for (int i = 0; i < nseen; i++)
			if (strcmp(seen[i], table) == 0)
				dup = true;
		if (!dup)
		{
			char	   *dir = strdup(unit_corpus_path(table));
			const char *db = strstr(dir, ".db/");
			char		map[8192];
			pm_table_open_options opts = {0};
			pm_fileio  *io = pm_local_fileio_create(pm_env_default());
			int64_t		r;

			seen = realloc(seen, sizeof(char *) * (nseen + 1));
			seen[nseen++] = strdup(table);
			snprintf(map, sizeof(map), "FILE:/tmp/external=%.*s/external", (int) (db + 3 - dir), dir);
			opts.external_path_map = map;
			r = check_key_ranges(io, dir, &opts);
			if (r > most)
				most = r;
			pm_local_fileio_destroy(io);
			free(dir);
		}
		json_decref(c);
	}
	closedir(d);
	free(edir);
	print_message("%d corpus primary-key tables, up to %lld key ranges\n", nseen,
				  (long long) most);
	assert_true(nseen >= 10);
	for (int i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
}

static uint64_t rng = 88172645463325252ULL;

static int
rnd(int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (int) (rng % (uint64_t) n);
}

/*
 * Random primary-key tables (id INT key, pk_fixture.h), Parquet pages of a
 * few rows: 1..4 commits of upserts and deletes of random ids, so each
 * bucket holds overlapping level-0 runs; deduplicate and partial-update.
 */
static void
test_key_ranges_random(void **state)
{
	int64_t		most = 0;

	(void) state;
	for (int round = 0; round < 8; round++)
	{
		const pm_env *env = pm_env_default();
		pm_fileio  *io = pm_memory_fileio_create(env);
		pm_arena   *arena = pm_arena_create(env);
		static const char *keys[] = {"bucket", "parquet.page.size", "parquet.block.size",
		"merge-engine"};
		static const char *vals_dedup[] = {"2", "64 b", "2 kb", "deduplicate"};
		static const char *vals_pu[] = {"1", "64 b", "2 kb", "partial-update"};
		bool		pu = round % 2 == 1;
		pm_schema  *s = make_schema(arena, pu ? 3 : 4, keys, pu ? vals_pu : vals_dedup);
		int			commits = 1 + rnd(4);
		int			span = 200 + rnd(3000);
		int64_t		r;
		static trow model[MAXID];	/* deduplicate: the last write of each id */
		static bool live[MAXID];
		static result got;

		if (pu)
			s->noptions = 4;
		pm_error	err;

		assert_int_equal(pm_table_create(env, io, "/wh/db.db/t", s, &err), PM_OK);
		memset(live, 0, sizeof(live));
		for (int c = 0; c < commits; c++)
		{
			pm_table_writer *w = open_writer(io, "/wh/db.db/t");
			int			n = 50 + rnd(c == 0 ? 1500 : 400);
			trow	   *rows = pm_arena_alloc(arena, sizeof(trow) * (size_t) n);
			uint8_t    *kinds = pm_arena_alloc(arena, (size_t) n);

			for (int i = 0; i < n; i++)
			{
				rows[i] = (trow) {rnd(span), rnd(4) != 0, rnd(100000),
				rnd(5) == 0 ? INT64_MIN : rnd(1000)};
				kinds[i] = (!pu && c > 0 && rnd(8) == 0) ? PM_ROW_DELETE : PM_ROW_INSERT;
				model[rows[i].id] = rows[i];
				live[rows[i].id] = kinds[i] == PM_ROW_INSERT;
			}
			write_kinds(w, arena, rows, kinds, n);
			commit(w, c + 1, c + 1);
			pm_table_writer_close(w);
		}
		if (!pu)
		{
			/*
			 * The serial merged read (the ranges' reference) against the
			 * model: level-0 files of successive commits have disjoint
			 * sequence ranges, so _SEQUENCE_NUMBER is not read, nor
			 * _VALUE_KIND of the files without deletes.
			 */
			int			nlive = 0;

			read_all(io, "/wh/db.db/t", &got);
			for (int id = 0; id < span; id++)
			{
				assert_int_equal(got.present[id], live[id]);
				if (!live[id])
					continue;
				nlive++;
				assert_int_equal(got.v[id], model[id].v);
				assert_int_equal(got.w[id], model[id].w);
				assert_int_equal(got.name_null[id], !model[id].has_name);
			}
			assert_int_equal(got.nrows, nlive);
		}
		r = check_key_ranges(io, "/wh/db.db/t", NULL);
		if (r > most)
			most = r;
		pm_arena_destroy(arena);
		pm_memory_fileio_destroy(io);
	}
	print_message("random tables: up to %lld key ranges\n", (long long) most);
	assert_true(most >= 4);		/* the tables are cut, not read whole */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pk_tables),
		cmocka_unit_test(test_key_ranges_corpus),
		cmocka_unit_test(test_key_ranges_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
