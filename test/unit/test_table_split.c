/*-------------------------------------------------------------------------
 * test_table_split.c
 *	  The split API src/lsm/ builds on, over every primary-key table of the
 *	  corpus: planning yields splits whose files exist, deletion vectors
 *	  attached from the index manifest are readable, and the key-value
 *	  reader returns _KEY_ columns, _SEQUENCE_NUMBER and _VALUE_KIND in the
 *	  documented layout, consistent with each file's metadata.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "index/deletion_vector.h"
#include "io/fileio.h"
#include "table/split.h"
#include "table/table.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pk_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
