/*-------------------------------------------------------------------------
 * test_manifest_write.c
 *	  Manifest and manifest list writers (src/table/manifest_write.c).
 *
 * For every manifest list of the Java-written corpus: every manifest it
 * names is read (pm_manifest_entries_read), written again by
 * pm_manifest_file_write and read back equal field by field; the
 * ManifestFileMeta we compute for it equals the one Java wrote in the list
 * (added/deleted counts, schema id, bucket and level ranges, partition
 * statistics byte for byte); the list itself is written again by
 * pm_manifest_list_write and read back equal. The Avro schemas in the
 * headers are the ones Java 1.4.2 writes (a fresh table of
 * test/oracle/oracle.sh with ORACLE_PAIMON_VERSION=1.4.2). Every manifest
 * and list is also written as Parquet and as ORC (manifest.format) and read
 * back equal.
 *-------------------------------------------------------------------------
 */
#define _XOPEN_SOURCE 700
#include "unit.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "common/type.h"
#include "format/avro/avro_int.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/manifest_write.h"
#include "table/schema.h"

/* avro.schema of a manifest and a manifest list written by Java 1.4.2 */
static const char java142_manifest_schema[] =
	"{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
	"{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_KIND\",\"type\":\"int\"},{\"name\":\"_PARTITION\",\"type\":\"bytes\"},"
	"{\"name\":\"_BUCKET\",\"type\":\"int\"},{\"name\":\"_TOTAL_BUCKETS\",\"type\":\"int\"},"
	"{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE\",\"fields\":["
	"{\"name\":\"_FILE_NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},"
	"{\"name\":\"_MIN_KEY\",\"type\":\"bytes\"},{\"name\":\"_MAX_KEY\",\"type\":\"bytes\"},"
	"{\"name\":\"_KEY_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE__KEY_STATS\",\"fields\":["
	"{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},"
	"{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
	"{\"name\":\"_VALUE_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE__VALUE_STATS\",\"fields\":["
	"{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},"
	"{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
	"{\"name\":\"_MIN_SEQUENCE_NUMBER\",\"type\":\"long\"},{\"name\":\"_MAX_SEQUENCE_NUMBER\",\"type\":\"long\"},"
	"{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},{\"name\":\"_LEVEL\",\"type\":\"int\"},"
	"{\"name\":\"_EXTRA_FILES\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
	"{\"name\":\"_CREATION_TIME\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}],\"default\":null},"
	"{\"name\":\"_DELETE_ROW_COUNT\",\"type\":[\"null\",\"long\"],\"default\":null},"
	"{\"name\":\"_EMBEDDED_FILE_INDEX\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
	"{\"name\":\"_FILE_SOURCE\",\"type\":[\"null\",\"int\"],\"default\":null},"
	"{\"name\":\"_VALUE_STATS_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null},"
	"{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null},"
	"{\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},"
	"{\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null}]}}]}";

static const char java142_list_schema[] =
	"{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
	"{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_FILE_NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
	"{\"name\":\"_NUM_ADDED_FILES\",\"type\":\"long\"},{\"name\":\"_NUM_DELETED_FILES\",\"type\":\"long\"},"
	"{\"name\":\"_PARTITION_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__PARTITION_STATS\",\"fields\":["
	"{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},"
	"{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
	"{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},{\"name\":\"_MIN_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},"
	"{\"name\":\"_MAX_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_MIN_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null},"
	"{\"name\":\"_MAX_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_MIN_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},"
	"{\"name\":\"_MAX_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null}]}";

/* ---------------------------------------------------------------------
 * Equality
 * --------------------------------------------------------------------- */

static void
assert_bytes_eq(const uint8_t *a, int32_t alen, const uint8_t *b, int32_t blen)
{
	assert_int_equal(a == NULL, b == NULL);
	if (a == NULL)
		return;
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, (size_t) alen);
}

static void
assert_str_eq(const char *a, const char *b)
{
	assert_int_equal(a == NULL, b == NULL);
	if (a != NULL)
		assert_string_equal(a, b);
}

static void
assert_strs_eq(const char *const *a, int an, const char *const *b, int bn)
{
	assert_int_equal(an, bn);
	for (int i = 0; i < an; i++)
		assert_string_equal(a[i], b[i]);
}

static void
assert_stats_eq(const pm_simple_stats *a, const pm_simple_stats *b)
{
	assert_bytes_eq(a->min_values, a->min_values_len, b->min_values, b->min_values_len);
	assert_bytes_eq(a->max_values, a->max_values_len, b->max_values, b->max_values_len);
	assert_int_equal(a->nnull_counts, b->nnull_counts);
	for (int i = 0; i < a->nnull_counts; i++)
		assert_int_equal(a->null_counts[i], b->null_counts[i]);
}

static void
assert_entry_eq(const pm_manifest_entry *x, const pm_manifest_entry *y)
{
	const pm_data_file_meta *a = &x->file,
			   *b = &y->file;

	assert_int_equal(x->kind, y->kind);
	assert_bytes_eq(x->partition, x->partition_len, y->partition, y->partition_len);
	assert_int_equal(x->bucket, y->bucket);
	assert_int_equal(x->total_buckets, y->total_buckets);
	assert_string_equal(a->file_name, b->file_name);
	assert_int_equal(a->file_size, b->file_size);
	assert_int_equal(a->row_count, b->row_count);
	assert_bytes_eq(a->min_key, a->min_key_len, b->min_key, b->min_key_len);
	assert_bytes_eq(a->max_key, a->max_key_len, b->max_key, b->max_key_len);
	assert_stats_eq(&a->key_stats, &b->key_stats);
	assert_stats_eq(&a->value_stats, &b->value_stats);
	assert_int_equal(a->min_sequence_number, b->min_sequence_number);
	assert_int_equal(a->max_sequence_number, b->max_sequence_number);
	assert_int_equal(a->schema_id, b->schema_id);
	assert_int_equal(a->level, b->level);
	assert_strs_eq(a->extra_files, a->nextra_files, b->extra_files, b->nextra_files);
	assert_int_equal(a->has_creation_time, b->has_creation_time);
	if (a->has_creation_time)
		assert_int_equal(a->creation_time_millis, b->creation_time_millis);
	assert_int_equal(a->delete_row_count, b->delete_row_count);
	assert_bytes_eq(a->embedded_file_index, a->embedded_file_index_len,
					b->embedded_file_index, b->embedded_file_index_len);
	assert_int_equal(a->file_source, b->file_source);
	assert_strs_eq(a->value_stats_cols, a->nvalue_stats_cols, b->value_stats_cols, b->nvalue_stats_cols);
	assert_str_eq(a->external_path, b->external_path);
	assert_int_equal(a->has_first_row_id, b->has_first_row_id);
	if (a->has_first_row_id)
		assert_int_equal(a->first_row_id, b->first_row_id);
	assert_strs_eq(a->write_cols, a->nwrite_cols, b->write_cols, b->nwrite_cols);
}

static void
assert_meta_eq(const pm_manifest_file_meta *a, const pm_manifest_file_meta *b, bool name_and_size)
{
	if (name_and_size)
	{
		assert_string_equal(a->file_name, b->file_name);
		assert_int_equal(a->file_size, b->file_size);
	}
	assert_int_equal(a->num_added_files, b->num_added_files);
	assert_int_equal(a->num_deleted_files, b->num_deleted_files);
	assert_stats_eq(&a->partition_stats, &b->partition_stats);
	assert_int_equal(a->schema_id, b->schema_id);
	assert_int_equal(a->has_bucket_range, b->has_bucket_range);
	if (a->has_bucket_range)
	{
		assert_int_equal(a->min_bucket, b->min_bucket);
		assert_int_equal(a->max_bucket, b->max_bucket);
	}
	assert_int_equal(a->has_level_range, b->has_level_range);
	if (a->has_level_range)
	{
		assert_int_equal(a->min_level, b->min_level);
		assert_int_equal(a->max_level, b->max_level);
	}
	assert_int_equal(a->has_row_id_range, b->has_row_id_range);
	if (a->has_row_id_range)
	{
		assert_int_equal(a->min_row_id, b->min_row_id);
		assert_int_equal(a->max_row_id, b->max_row_id);
	}
}

/* The avro.schema of an Avro file. */
static char *
avro_schema_of(pm_fileio *io, const char *path, pm_arena *a)
{
	uint8_t    *d;
	size_t		len;
	const uint8_t *q,
			   *end;
	int64_t		n;
	pm_error	err;

	assert_int_equal(pm_fileio_read_all(io, path, a, 64 << 20, &d, &len, &err), PM_OK);
	assert_memory_equal(d, "Obj\x01", 4);
	q = d + 4;
	end = d + len;
	assert_true(pm_avro_read_long(&q, end, &n));
	for (int64_t i = 0; i < n; i++)
	{
		int64_t		kl,
					vl;
		const char *k;

		assert_true(pm_avro_read_long(&q, end, &kl));
		k = (const char *) q;
		q += kl;
		assert_true(pm_avro_read_long(&q, end, &vl));
		if (kl == 11 && memcmp(k, "avro.schema", 11) == 0)
			return pm_arena_strndup(a, (const char *) q, (size_t) vl);
		q += vl;
	}
	fail_msg("%s has no avro.schema", path);
	return NULL;
}

/* ---------------------------------------------------------------------
 * The corpus
 * --------------------------------------------------------------------- */

static int	n_lists,
			n_manifests,
			n_entries,
			n_java_meta,
			n_other;
static pm_fileio *corpus_io,
		   *mem_io;

static const pm_type *
partition_type_of(const char *table, pm_arena *a)
{
	pm_schema  *s;
	pm_error	err;
	pm_field   *f;

	assert_int_equal(pm_schema_load_latest(corpus_io, table, a, &s, &err), PM_OK);
	f = pm_arena_zalloc(a, sizeof(pm_field) * (size_t) (s->npartition_keys + 1));
	for (int i = 0; i < s->npartition_keys; i++)
		f[i] = s->row_type->fields[pm_type_field_index(s->row_type, s->partition_keys[i])];
	return pm_type_new_row(a, f, s->npartition_keys, false);
}

static int
visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	char	   *table;
	pm_arena   *a;
	const pm_type *ptype;
	pm_manifest_file_meta *metas,
			   *ours,
			   *back;
	int			nmetas,
				nback;
	const char *list_name;
	int64_t		list_size;
	pm_error	err;
	pm_manifest_write_options o = {PM_FORMAT_AVRO, NULL};

	(void) st;
	if (flag != FTW_F || strncmp(base, "manifest-list-", 14) != 0 ||
		strstr(path, "/manifest/") == NULL)
		return 0;
	a = pm_arena_create(pm_env_default());
	table = pm_arena_strndup(a, path, (size_t) (strstr(path, "/manifest/") - path));
	ptype = partition_type_of(table, a);
	if (pm_manifest_list_read(pm_env_default(), corpus_io, path, a, &metas, &nmetas, &err) != PM_OK)
		fail_msg("%s: %s", path, err.message);
	ours = pm_arena_zalloc(a, sizeof(*ours) * (size_t) (nmetas + 1));
	for (int m = 0; m < nmetas; m++)
	{
		char	   *mpath = pm_arena_sprintf(a, "%s/manifest/%s", table, metas[m].file_name);
		pm_manifest_entry *in = NULL,
				   *out = NULL;
		int			nin = 0,
					cin = 0,
					nout = 0,
					cout = 0;
		char	   *opath;

		if (pm_manifest_entries_read(pm_env_default(), corpus_io, mpath, a, &in, &nin, &cin, &err) != PM_OK)
			fail_msg("%s: %s", mpath, err.message);
		if (pm_manifest_file_write(pm_env_default(), mem_io, "/t", &o, ptype, metas[m].schema_id,
								   in, nin, a, &ours[m], &err) != PM_OK)
			fail_msg("%s: %s", mpath, err.message);
		assert_true(strncmp(ours[m].file_name, "manifest-", 9) == 0);
		assert_int_equal(strlen(ours[m].file_name), 9 + 36 + 2);
		assert_string_equal(ours[m].file_name + 9 + 36, "-0");
		opath = pm_arena_sprintf(a, "/t/manifest/%s", ours[m].file_name);
		assert_string_equal(avro_schema_of(mem_io, opath, a), java142_manifest_schema);
		assert_int_equal(pm_manifest_entries_read(pm_env_default(), mem_io, opath, a, &out, &nout, &cout, &err), PM_OK);
		assert_int_equal(nin, nout);
		for (int i = 0; i < nin; i++)
			assert_entry_eq(&in[i], &out[i]);
		n_entries += nin;
		n_manifests++;

		/* manifest.format = parquet and orc: the same entries, read back equal */
		for (int fmt = 0; fmt < 2; fmt++)
		{
			pm_manifest_write_options po = {fmt == 0 ? PM_FORMAT_PARQUET : PM_FORMAT_ORC, NULL};
			pm_manifest_file_meta pmeta;
			uint8_t    *head;
			size_t		hlen;

			if (pm_manifest_file_write(pm_env_default(), mem_io, "/t", &po, ptype,
									   metas[m].schema_id, in, nin, a, &pmeta, &err) != PM_OK)
				fail_msg("%s as %s: %s", mpath, fmt == 0 ? "parquet" : "orc", err.message);
			opath = pm_arena_sprintf(a, "/t/manifest/%s", pmeta.file_name);
			assert_int_equal(pm_fileio_read_all(mem_io, opath, a, 64 << 20, &head, &hlen, &err),
							 PM_OK);
			assert_true(hlen > 8);
			assert_memory_equal(head, fmt == 0 ? "PAR1" : "ORC", fmt == 0 ? 4 : 3);
			nout = cout = 0;
			out = NULL;
			assert_int_equal(pm_manifest_entries_read(pm_env_default(), mem_io, opath, a, &out,
													  &nout, &cout, &err), PM_OK);
			assert_int_equal(nin, nout);
			for (int i = 0; i < nin; i++)
				assert_entry_eq(&in[i], &out[i]);
			assert_int_equal(pmeta.num_added_files, ours[m].num_added_files);
			assert_int_equal(pmeta.num_deleted_files, ours[m].num_deleted_files);
			assert_stats_eq(&pmeta.partition_stats, &ours[m].partition_stats);
			n_other += fmt == 0;
		}

		/* the ManifestFileMeta Java wrote for this manifest */
		assert_int_equal(ours[m].num_added_files, metas[m].num_added_files);
		assert_int_equal(ours[m].num_deleted_files, metas[m].num_deleted_files);
		assert_int_equal(ours[m].schema_id, metas[m].schema_id);
		assert_stats_eq(&ours[m].partition_stats, &metas[m].partition_stats);
		if (metas[m].has_bucket_range)
		{
			assert_int_equal(ours[m].min_bucket, metas[m].min_bucket);
			assert_int_equal(ours[m].max_bucket, metas[m].max_bucket);
			assert_int_equal(ours[m].min_level, metas[m].min_level);
			assert_int_equal(ours[m].max_level, metas[m].max_level);
			n_java_meta++;
		}
		if (metas[m].has_row_id_range)
		{
			assert_true(ours[m].has_row_id_range);
			assert_int_equal(ours[m].min_row_id, metas[m].min_row_id);
			assert_int_equal(ours[m].max_row_id, metas[m].max_row_id);
		}
	}

	/* the list: Java's metas written again and read back */
	if (pm_manifest_list_write(pm_env_default(), mem_io, "/t", &o, metas, nmetas, a,
							   &list_name, &list_size, &err) != PM_OK)
		fail_msg("%s: %s", path, err.message);
	assert_true(strncmp(list_name, "manifest-list-", 14) == 0);
	{
		char	   *lpath = pm_arena_sprintf(a, "/t/manifest/%s", list_name);

		assert_string_equal(avro_schema_of(mem_io, lpath, a), java142_list_schema);
		assert_int_equal(pm_manifest_list_read(pm_env_default(), mem_io, lpath, a, &back, &nback, &err), PM_OK);
		assert_int_equal(nback, nmetas);
		for (int m = 0; m < nmetas; m++)
			assert_meta_eq(&metas[m], &back[m], true);
	}
	/* and as Parquet and ORC */
	for (int fmt = 0; fmt < 2; fmt++)
	{
		pm_manifest_write_options po = {fmt == 0 ? PM_FORMAT_PARQUET : PM_FORMAT_ORC, NULL};
		char	   *lpath;

		if (pm_manifest_list_write(pm_env_default(), mem_io, "/t", &po, metas, nmetas, a,
								   &list_name, &list_size, &err) != PM_OK)
			fail_msg("%s as %s: %s", path, fmt == 0 ? "parquet" : "orc", err.message);
		lpath = pm_arena_sprintf(a, "/t/manifest/%s", list_name);
		assert_int_equal(pm_manifest_list_read(pm_env_default(), mem_io, lpath, a, &back, &nback,
											   &err), PM_OK);
		assert_int_equal(nback, nmetas);
		for (int m = 0; m < nmetas; m++)
			assert_meta_eq(&metas[m], &back[m], true);
	}
	/* and ours (names and sizes of our manifests) */
	assert_int_equal(pm_manifest_list_write(pm_env_default(), mem_io, "/t", &o, ours, nmetas, a,
											&list_name, &list_size, &err), PM_OK);
	{
		char	   *lpath = pm_arena_sprintf(a, "/t/manifest/%s", list_name);

		assert_int_equal(pm_manifest_list_read(pm_env_default(), mem_io, lpath, a, &back, &nback, &err), PM_OK);
		for (int m = 0; m < nmetas; m++)
			assert_meta_eq(&ours[m], &back[m], true);
	}
	n_lists++;
	pm_arena_destroy(a);
	return 0;
}

static void
test_corpus_manifests_round_trip(void **state)
{
	(void) state;
	unit_require_corpus();
	corpus_io = pm_local_fileio_create(pm_env_default());
	mem_io = pm_memory_fileio_create(pm_env_default());
	n_lists = n_manifests = n_entries = n_java_meta = n_other = 0;
	assert_int_equal(nftw(unit_corpus_path("tables"), visit, 16, FTW_PHYS), 0);
	printf("corpus: %d manifest lists, %d manifests (%d entries) written and read back "
		   "(and %d manifests as Parquet and as ORC); %d metas with bucket/level ranges equal to Java's\n",
		   n_lists, n_manifests, n_entries, n_other, n_java_meta);
	assert_true(n_lists >= 100);
	assert_true(n_manifests >= 100);
	assert_int_equal(n_other, n_manifests);
	pm_memory_fileio_destroy(mem_io);
	pm_local_fileio_destroy(corpus_io);
}

/* No entries: Java's sentinels; defaults for absent keys and stats. */
static void
test_empty_and_defaults(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_manifest_write_options o = {PM_FORMAT_AVRO, "snappy"};
	pm_type    *ptype = pm_type_new_row(a, NULL, 0, false);
	pm_manifest_file_meta meta;
	pm_manifest_entry e;
	pm_manifest_entry *back = NULL;
	int			n = 0,
				cap = 0;
	pm_error	err;
	char	   *path;

	(void) state;
	assert_int_equal(pm_manifest_file_write(pm_env_default(), io, "/t", &o, ptype, 7, NULL, 0, a,
											&meta, &err), PM_OK);
	assert_int_equal(meta.schema_id, 7);
	assert_int_equal(meta.min_bucket, INT32_MAX);
	assert_int_equal(meta.max_bucket, INT32_MIN);
	assert_true(meta.has_row_id_range);
	assert_int_equal(meta.partition_stats.nnull_counts, 0);

	/* NULL keys and stats are written as Java's EMPTY_ROW / EMPTY_STATS */
	memset(&e, 0, sizeof(e));
	e.kind = PM_FILE_KIND_ADD;
	e.partition = meta.partition_stats.min_values;	/* the empty row */
	e.partition_len = meta.partition_stats.min_values_len;
	e.bucket = 3;
	e.total_buckets = 4;
	e.file.file_name = "data-x-0.parquet";
	e.file.row_count = 5;
	e.file.key_stats.nnull_counts = 0;
	e.file.value_stats.nnull_counts = -1;
	e.file.delete_row_count = -1;
	e.file.file_source = 0;
	e.file.nvalue_stats_cols = -1;
	e.file.nwrite_cols = -1;
	e.file.has_creation_time = true;
	e.file.creation_time_millis = -1;
	assert_int_equal(pm_manifest_file_write(pm_env_default(), io, "/t", &o, ptype, 7, &e, 1, a,
											&meta, &err), PM_OK);
	assert_int_equal(meta.min_bucket, 3);
	assert_false(meta.has_row_id_range);
	path = pm_arena_sprintf(a, "/t/manifest/%s", meta.file_name);
	assert_int_equal(pm_manifest_entries_read(pm_env_default(), io, path, a, &back, &n, &cap, &err), PM_OK);
	assert_int_equal(n, 1);
	assert_int_equal(back[0].file.min_key_len, 12);
	assert_memory_equal(back[0].file.min_key, meta.partition_stats.min_values, 12);
	assert_int_equal(back[0].file.key_stats.nnull_counts, 0);
	assert_int_equal(back[0].file.value_stats.nnull_counts, -1);
	assert_int_equal(back[0].file.creation_time_millis, -1);
	assert_int_equal(back[0].file.file_source, 0);

	/* refusals */
	o.compression = "brotli";
	assert_int_equal(pm_manifest_file_write(pm_env_default(), io, "/t", &o, ptype, 7, &e, 1, a,
											&meta, &err), PM_ERR_UNSUPPORTED);
	o.compression = NULL;
	e.partition = NULL;
	assert_int_equal(pm_manifest_file_write(pm_env_default(), io, "/t", &o, ptype, 7, &e, 1, a,
											&meta, &err), PM_ERR_INVALID);
	pm_memory_fileio_destroy(io);
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_defaults),
		cmocka_unit_test(test_corpus_manifests_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
