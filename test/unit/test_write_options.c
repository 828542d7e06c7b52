/*-------------------------------------------------------------------------
 * test_write_options.c
 *	  The append writer's option parsing and refusals (table/write_options.c).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "common/env.h"
#include "table/write_option_rules.h"
#include "table/write_options.h"

typedef struct fixture
{
	pm_arena   *arena;
	pm_schema	s;
	const char *keys[8];
	const char *vals[8];
} fixture;

static void
setup_schema(fixture *f)
{
	pm_type    *t_int = pm_type_new(f->arena, PM_TYPE_INT, true);
	pm_type    *t_str = pm_type_new(f->arena, PM_TYPE_VARCHAR, true);
	pm_type    *t_arr = pm_type_new_array(f->arena, t_int, true);
	pm_field	fields[4] = {
		{0, "id", t_int, NULL}, {1, "name", t_str, NULL}, {2, "dt", t_str, NULL},
		{3, "tags", t_arr, NULL}
	};

	memset(&f->s, 0, sizeof(f->s));
	f->s.row_type = pm_type_new_row(f->arena, fields, 4, false);
	f->s.option_keys = f->keys;
	f->s.option_values = f->vals;
}

static pm_code
parse_with(fixture *f, int n, const char *const *kv, pm_write_options *o, pm_error *err)
{
	for (int i = 0; i < n; i++)
	{
		f->keys[i] = kv[2 * i];
		f->vals[i] = kv[2 * i + 1];
	}
	f->s.noptions = n;
	return pm_write_options_parse(&f->s, f->arena, o, err);
}

static void
test_defaults(void **state)
{
	fixture		f;
	pm_write_options o;
	pm_error	err;

	(void) state;
	f.arena = pm_arena_create(pm_env_default());
	setup_schema(&f);
	assert_int_equal(parse_with(&f, 0, NULL, &o, &err), PM_OK);
	assert_int_equal(o.format, PM_FORMAT_PARQUET);
	assert_string_equal(o.format_name, "parquet");
	assert_string_equal(o.compression, "zstd");
	assert_int_equal(o.zstd_level, 1);
	assert_int_equal(o.target_file_size, 256LL * 1024 * 1024);
	assert_int_equal(o.write_buffer_size, 256LL * 1024 * 1024);
	assert_string_equal(o.data_file_prefix, "data-");
	assert_string_equal(o.partition_default_name, "__DEFAULT_PARTITION__");
	assert_int_equal(o.bucket, -1);
	assert_int_equal(o.nbucket_keys, 0);
	assert_true(o.stats_dense);
	assert_int_equal(o.stats_modes[1].kind, PM_STATS_MODE_TRUNCATE);
	assert_int_equal(o.stats_modes[1].truncate_length, 16);
	pm_arena_destroy(f.arena);
}

static void
test_fixed_bucket_partitioned(void **state)
{
	fixture		f;
	pm_write_options o;
	pm_error	err;
	static const char *const kv[] = {
		"bucket", "4", "bucket-key", "name,id", "target-file-size", "64 mb",
		"file.compression", "snappy", "data-file.prefix", "part-"
	};
	static const char *partition[] = {"dt"};

	(void) state;
	f.arena = pm_arena_create(pm_env_default());
	setup_schema(&f);
	f.s.npartition_keys = 1;
	f.s.partition_keys = partition;
	assert_int_equal(parse_with(&f, 5, kv, &o, &err), PM_OK);
	assert_int_equal(o.bucket, 4);
	assert_int_equal(o.nbucket_keys, 2);
	assert_int_equal(o.bucket_key_fields[0], 1);	/* option order, not column order */
	assert_int_equal(o.bucket_key_fields[1], 0);
	assert_int_equal(o.npartition_keys, 1);
	assert_int_equal(o.partition_fields[0], 2);
	assert_int_equal(o.target_file_size, 64LL * 1024 * 1024);
	assert_string_equal(o.compression, "snappy");
	assert_string_equal(o.data_file_prefix, "part-");
	pm_arena_destroy(f.arena);
}

static void
expect(fixture *f, int n, const char *const *kv, pm_code code, const char *needle)
{
	pm_write_options o;
	pm_error	err;

	assert_int_equal(parse_with(f, n, kv, &o, &err), code);
	if (strstr(err.message, needle) == NULL)
		fail_msg("\"%s\" does not name \"%s\"", err.message, needle);
}

static void
test_refusals(void **state)
{
	fixture		f;
	static const char *primary[] = {"id"};
	static const char *partition_dt[] = {"dt"};

	(void) state;
	f.arena = pm_arena_create(pm_env_default());
	setup_schema(&f);
	{
		static const char *const kv[] = {"file.format", "csv"};

		expect(&f, 1, kv, PM_ERR_UNSUPPORTED, "file.format");
	}
	{
		/* booleans: true/false in any case, anything else refused as Java */
		static const char *const bad[][2] = {{"write-only", "yes"}, {"write.compaction-skip", "1"},
		{"ignore-delete", " true"}, {"deletion-vectors.enabled", ""}};
		static const char *const good[] = {"write-only", "TRUE", "ignore-delete", "False"};
		pm_write_options o;
		pm_error	err;

		for (int i = 0; i < 4; i++)
			expect(&f, 1, bad[i], PM_ERR_INVALID, bad[i][0]);
		assert_int_equal(parse_with(&f, 2, good, &o, &err), PM_OK);
		assert_true(o.write_only);
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.bloom.filter.columns", "v",
		"orc.bloom.filter.write.version", "original"};

		expect(&f, 3, kv, PM_ERR_UNSUPPORTED, "orc.bloom.filter.write.version");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.dictionary.implementation", "hash"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "orc.dictionary.implementation");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.dictionary.early.check", "false"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "orc.dictionary.early.check");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.bloom.filter.columns", "v",
		"orc.bloom.filter.fpp", "1.5"};

		expect(&f, 3, kv, PM_ERR_INVALID, "orc.bloom.filter.fpp");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.dictionary.key.threshold", "0.5x"};

		expect(&f, 2, kv, PM_ERR_INVALID, "orc.dictionary.key.threshold");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.write.format", "0.11"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "orc.write.format");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "file.compression", "lzo"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "file.compression");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.compress", "LZO"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "orc.compress");
	}
	{
		/* ORC: nested columns are written (orc_nested_write.c) */
		static const char *const kv[] = {"file.format", "orc"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 1, kv, &o, &err), PM_OK);
	}
	/* the ORC cases below: the columns without "tags" */
	f.s.row_type = pm_type_new_row(f.arena, f.s.row_type->fields, 3, false);
	{
		/* orc.row.index.stride: WriterImpl's minimum; no row index is not written */
		static const char *const kv1[] = {"file.format", "orc", "orc.row.index.stride", "999"};
		static const char *const kv2[] = {"file.format", "orc", "orc.row.index.stride", "0"};
		static const char *const kv3[] = {"file.format", "orc", "orc.row.index.stride", "1k"};
		static const char *const kv4[] = {"file.format", "orc", "orc.create.index", "FALSE"};

		expect(&f, 2, kv1, PM_ERR_INVALID, "Row stride must be at least 1000");
		expect(&f, 2, kv2, PM_ERR_UNSUPPORTED, "orc.row.index.stride");
		expect(&f, 2, kv3, PM_ERR_INVALID, "orc.row.index.stride");
		expect(&f, 2, kv4, PM_ERR_UNSUPPORTED, "orc.create.index");
	}
	{
		/* ORC: orc.compress over file.compression, orc.* sizes and levels */
		static const char *const kv[] = {"file.format", "ORC", "file.compression", "snappy",
			"orc.compress", "ZLIB", "orc.stripe.size", "1048576", "parquet.block.size", "4096",
		"orc.compression.zstd.level", "5"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 6, kv, &o, &err), PM_OK);
		assert_int_equal(o.format, PM_FORMAT_ORC);
		assert_string_equal(o.format_name, "orc");
		assert_string_equal(o.compression, "ZLIB");
		assert_int_equal(o.row_group_bytes, 1048576);
		assert_int_equal(o.zstd_level, 5);
		/* OrcConf's defaults: dictionary threshold 0.8, fpp 0.01, no bloom filter */
		assert_true(o.orc.dictionary_threshold == 0.8);
		assert_true(o.orc.bloom_fpp == 0.01);
		assert_null(o.orc.bloom_columns);
		assert_null(o.orc.direct_columns);
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.bloom.filter.columns", "v, id",
			"orc.bloom.filter.fpp", "0.05", "orc.dictionary.key.threshold", " 1e-1 ",
		"orc.column.encoding.direct", "v", "orc.bloom.filter.write.version", "UTF8"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 6, kv, &o, &err), PM_OK);
		assert_string_equal(o.orc.bloom_columns, "v, id");
		assert_true(o.orc.bloom_fpp == 0.05);
		assert_true(o.orc.dictionary_threshold == 0.1);
		assert_string_equal(o.orc.direct_columns, "v");
	}
	{
		static const char *const kv[] = {"file.format", "orc", "file.block-size", "2 mb"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 2, kv, &o, &err), PM_OK);
		assert_string_equal(o.compression, "zstd");
		assert_int_equal(o.row_group_bytes, 2 * 1024 * 1024);
		assert_int_equal(o.orc.row_index_stride, 0);	/* the writer's 10000 */
	}
	{
		static const char *const kv[] = {"file.format", "orc", "orc.row.index.stride", " 1000 ",
		"orc.create.index", "true"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 3, kv, &o, &err), PM_OK);
		assert_int_equal(o.orc.row_index_stride, 1000);
	}
	setup_schema(&f);
	{
		static const char *const kv[] = {"file.format", "avro", "avro.codec", "snappy"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "avro.codec");
	}
	{
		static const char *const kv[] = {"index-file-in-data-file-dir", "true"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 1, kv, &o, &err), PM_OK);
		assert_true(o.index_in_data_dir);
	}
	{
		static const char *const kv[] = {"deletion-vectors.enabled", "FALSE"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 1, kv, &o, &err), PM_OK);
	}
	{
		/* every kind is written (bsi too); a type the kind does not take is refused */
		static const char *const kv[] = {"file-index.bsi.columns", "id"};
		static const char *const kv2[] = {"file-index.bsi.columns", "name"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 1, kv, &o, &err), PM_OK);
		expect(&f, 1, kv2, PM_ERR_INVALID, "the bsi index does not support the type of column name");
	}
	{
		/* external paths: honoured for local roots; strategy none keeps files in the table */
		static const char *const kv[] = {"data-file.external-paths", "file:/x"};
		static const char *const kv2[] = {"data-file.external-paths", "file:/x",
		"data-file.external-paths.strategy", "round-robin"};
		static const char *const kv3[] = {"data-file.external-paths", "s3://b/x",
		"data-file.external-paths.strategy", "round-robin"};
		static const char *const kv4[] = {"data-file.external-paths", "file:/x",
			"data-file.external-paths.strategy", "round-robin",
		"index-file-in-data-file-dir", "true"};
		static const char *const kv5[] = {"data-file.external-paths", "file:/x",
		"data-file.external-paths.strategy", "weighted"};
		pm_write_options o;
		pm_error	err;
		char	   *path;
		char	   *ext;

		assert_int_equal(parse_with(&f, 1, kv, &o, &err), PM_OK);
		assert_null(o.external);
		assert_int_equal(pm_write_options_new_file(&o, "/t/bucket-0", "d.parquet", f.arena, &path,
												   &ext, &err), PM_OK);
		assert_string_equal(path, "/t/bucket-0/d.parquet");
		assert_null(ext);
		assert_int_equal(parse_with(&f, 2, kv2, &o, &err), PM_OK);
		assert_non_null(o.external);
		assert_int_equal(pm_write_options_new_file(&o, "/t/bucket-0", "d.parquet", f.arena, &path,
												   &ext, &err), PM_OK);
		assert_string_equal(path, "/x/bucket-0/d.parquet");
		assert_string_equal(ext, "file:/x/bucket-0/d.parquet");
		expect(&f, 2, kv3, PM_ERR_UNSUPPORTED, "object storage is not supported");
		expect(&f, 3, kv4, PM_ERR_UNSUPPORTED, "index-file-in-data-file-dir");
		expect(&f, 2, kv5, PM_ERR_INVALID, "data-file.external-paths.strategy");
	}
	{
		static const char *const kv[] = {"bucket", "-2"};

		expect(&f, 1, kv, PM_ERR_UNSUPPORTED, "postpone");
	}
	{
		static const char *const kv[] = {"bucket", "0"};

		expect(&f, 1, kv, PM_ERR_INVALID, "greater than 0");
	}
	{
		static const char *const kv[] = {"bucket", "2"};

		expect(&f, 1, kv, PM_ERR_INVALID, "bucket-key");
	}
	{
		static const char *const kv[] = {"bucket-key", "id"};

		expect(&f, 1, kv, PM_ERR_INVALID, "bucket = -1");
	}
	{
		static const char *const kv[] = {"bucket", "2", "bucket-key", "tags"};

		expect(&f, 2, kv, PM_ERR_INVALID, "nested");
	}
	{
		static const char *const kv[] = {"bucket", "2", "bucket-key", "nope"};

		expect(&f, 2, kv, PM_ERR_INVALID, "nope");
	}
	{
		static const char *const kv[] = {"target-file-size", "12 parsecs"};

		expect(&f, 1, kv, PM_ERR_INVALID, "target-file-size");
	}
	{
		static const char *const kv[] = {"metadata.stats-mode", "truncate(0)"};

		expect(&f, 1, kv, PM_ERR_INVALID, "truncate");
	}
	f.s.npartition_keys = 1;
	f.s.partition_keys = partition_dt;
	{
		static const char *const kv[] = {"bucket", "2", "bucket-key", "dt"};

		expect(&f, 2, kv, PM_ERR_INVALID, "partition keys");
	}
	f.s.npartition_keys = 0;
	f.s.nprimary_keys = 1;
	f.s.primary_keys = primary;
	{
		/* a column with a default value: the writer fills NULLs (default_value.h) */
		const char *dflt[8] = {NULL};
		pm_write_options o;
		pm_error	err;

		dflt[1] = "7";
		f.s.default_values = dflt;
		f.s.nprimary_keys = 0;
		assert_int_equal(parse_with(&f, 0, NULL, &o, &err), PM_OK);
		f.s.default_values = NULL;
		f.s.nprimary_keys = 1;
	}
	/* primary-key tables: dynamic buckets by default (bucket -1), the hash of the trimmed key */
	{
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 0, NULL, &o, &err), PM_OK);
		assert_int_equal(o.bucket, -1);
		assert_int_equal(o.nbucket_keys, 1);
		assert_int_equal(o.dynamic_target_rows, 2000000);
		assert_int_equal(o.dynamic_max_buckets, -1);
	}
	{
		static const char *const kv[] = {"dynamic-bucket.target-row-num", "0"};

		expect(&f, 1, kv, PM_ERR_INVALID, "target-row-num");
	}
	{
		static const char *const kv[] = {"bucket", "-1", "dynamic-bucket.max-buckets", "0"};

		expect(&f, 2, kv, PM_ERR_INVALID, "max-buckets");
	}
	{
		static const char *const kv[] = {"global-index.external-path", "file:/x"};

		expect(&f, 1, kv, PM_ERR_UNSUPPORTED, "global-index.external-path");
	}
	{
		/*
		 * postpone buckets: into fixed buckets as Flink's batch sink, unless
		 * told not to (then into the postpone bucket, test_pk_write.c
		 * test_postpone_write; the postpone compaction writes into fixed
		 * buckets all the same)
		 */
		static const char *const kv[] = {"bucket", "-2", "postpone.batch-write-fixed-bucket", "false"};
		static const char *const ok[] = {"bucket", "-2"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 2, kv, &o, &err), PM_OK);
		assert_false(o.postpone_batch_fixed);
		assert_int_equal(parse_with(&f, 1, ok, &o, &err), PM_OK);
		assert_true(o.postpone_batch_fixed);
		assert_int_equal(o.bucket, -2);
		assert_int_equal(o.nbucket_keys, 1);
	}
	{
		static const char *const kv[] = {"bucket", "2", "data-file.thin-mode", "true"};
		pm_write_options o;
		pm_error	err;

		assert_int_equal(parse_with(&f, 2, kv, &o, &err), PM_OK);
		assert_true(o.thin_mode);
	}
	{
		/* a MULTISET (in any format) only of a primitive type, before any row */
		static const char *const formats[] = {"parquet", "orc", "avro"};
		pm_type    *ms = pm_type_new(f.arena, PM_TYPE_MULTISET, true);
		pm_field	fields[2] = {{0, "id", pm_type_new(f.arena, PM_TYPE_INT, true), NULL},
		{1, "r", NULL, NULL}};
		pm_field	inner = {2, "ms", ms, NULL};
		const pm_type *row = f.s.row_type;

		ms->element = pm_type_new_array(f.arena, pm_type_new(f.arena, PM_TYPE_INT, true), true);
		fields[1].type = pm_type_new_row(f.arena, &inner, 1, true);
		f.s.row_type = pm_type_new_row(f.arena, fields, 2, false);
		for (int k = 0; k < 3; k++)
		{
			const char *kv[] = {"file.format", formats[k]};

			expect(&f, 1, kv, PM_ERR_UNSUPPORTED, "column \"r\": MULTISET of ARRAY");
		}
		ms->element = pm_type_new(f.arena, PM_TYPE_INT, true);
		for (int k = 0; k < 3; k++)
		{
			const char *kv[] = {"file.format", formats[k]};
			pm_write_options o;
			pm_error	err;

			assert_int_equal(parse_with(&f, 1, kv, &o, &err), PM_OK);
		}
		f.s.row_type = row;
	}
	pm_arena_destroy(f.arena);
}

static void
test_memory_size(void **state)
{
	int64_t		b;
	pm_error	err;

	(void) state;
	assert_int_equal(pm_parse_memory_size("k", "128", &b, &err), PM_OK);
	assert_int_equal(b, 128);
	assert_int_equal(pm_parse_memory_size("k", " 256 MB ", &b, &err), PM_OK);
	assert_int_equal(b, 256LL << 20);
	assert_int_equal(pm_parse_memory_size("k", "1g", &b, &err), PM_OK);
	assert_int_equal(b, 1LL << 30);
	assert_int_equal(pm_parse_memory_size("k", "2 kibibytes", &b, &err), PM_OK);
	assert_int_equal(b, 2048);
	assert_int_equal(pm_parse_memory_size("k", "mb", &b, &err), PM_ERR_INVALID);
	assert_int_equal(pm_parse_memory_size("k", "99999999999 tb", &b, &err), PM_ERR_INVALID);
}

/* SchemaValidation.validateSequenceField: the primary key lacks a partition key */
static void
test_cross_partition_sequence(void **state)
{
	fixture		f;
	pm_error	err;
	static const char *pk[] = {"id"};
	static const char *pk_dt[] = {"id", "dt"};
	static const char *partition[] = {"dt"};

	(void) state;
	f.arena = pm_arena_create(pm_env_default());
	setup_schema(&f);
	f.keys[0] = "sequence.field";
	f.vals[0] = "name";
	f.s.noptions = 1;
	f.s.nprimary_keys = 1;
	f.s.primary_keys = pk;
	f.s.npartition_keys = 1;
	f.s.partition_keys = partition;
	/* whatever the bucket count, as Java's TableSchema.crossPartitionUpdate */
	assert_int_equal(pm_check_cross_partition_sequence(&f.s, &err), PM_ERR_INVALID);
	assert_string_equal(err.message,
						"You can not use sequence.field in cross partition update case (Primary key constraint '[id]' not include all partition fields '[dt]').");
	/* the key holds the partition key: allowed */
	f.s.nprimary_keys = 2;
	f.s.primary_keys = pk_dt;
	assert_int_equal(pm_check_cross_partition_sequence(&f.s, &err), PM_OK);
	/* no sequence.field: allowed */
	f.s.nprimary_keys = 1;
	f.s.primary_keys = pk;
	f.s.noptions = 0;
	assert_int_equal(pm_check_cross_partition_sequence(&f.s, &err), PM_OK);
	pm_arena_destroy(f.arena);
}

/*
 * Every key of Apache Paimon 1.4.2's CoreOptions (release-1.4.2
 * paimon-api/.../CoreOptions.java, '#' of the callback keys as '*'): the
 * audit in write_option_rules.c must give each a verdict.
 */
static const char *const core_keys_1_4_2[] = {
	"add-column-before-partition", "aggregation.remove-record-on-delete",
	"alter-column-null-to-not-null.disabled", "async-file-write", "auto-create",
	"batch-scan-mode", "blob-as-descriptor", "blob-descriptor-field",
	"blob-external-storage-field", "blob-external-storage-path", "blob-field",
	"blob.split-by-file-size", "blob.target-file-size", "branch", "bucket",
	"bucket-append-ordered", "bucket-function.type", "bucket-key", "cache-page-size",
	"chain-table.chain-partition-keys", "chain-table.enabled", "changelog-file.compression",
	"changelog-file.format", "changelog-file.prefix", "changelog-file.stats-mode",
	"changelog-producer", "changelog-producer.row-deduplicate",
	"changelog-producer.row-deduplicate-ignore-fields", "changelog.num-retained.max",
	"changelog.num-retained.min", "changelog.time-retained", "clustering.columns",
	"clustering.history-partition.idle-to-full-sort", "clustering.history-partition.limit",
	"clustering.incremental", "clustering.incremental.mode",
	"clustering.incremental.optimize-write", "clustering.strategy", "commit.callback.*.param",
	"commit.callbacks", "commit.discard-duplicate-files", "commit.force-compact",
	"commit.force-create-snapshot", "commit.max-retries", "commit.max-retry-wait",
	"commit.min-retry-wait", "commit.strict-mode.last-safe-snapshot", "commit.timeout",
	"commit.user-prefix", "compaction.delete-ratio-threshold", "compaction.file-num-limit",
	"compaction.force-rewrite-all-files", "compaction.force-up-level-0",
	"compaction.incremental-size-threshold", "compaction.max-size-amplification-percent",
	"compaction.min.file-num", "compaction.offpeak-ratio", "compaction.offpeak.end.hour",
	"compaction.offpeak.start.hour", "compaction.optimization-interval",
	"compaction.size-ratio", "compaction.total-size-threshold", "consumer-id",
	"consumer.changelog-only", "consumer.expiration-time", "consumer.ignore-progress",
	"consumer.mode", "continuous.discovery-interval",
	"cross-partition-upsert.bootstrap-parallelism", "cross-partition-upsert.index-ttl",
	"data-evolution.enabled", "data-file.external-paths",
	"data-file.external-paths.specific-fs", "data-file.external-paths.strategy",
	"data-file.external-paths.weights", "data-file.path-directory", "data-file.prefix",
	"data-file.thin-mode", "delete.force-produce-changelog",
	"deletion-vector.index-file.target-size", "deletion-vectors.bitmap64",
	"deletion-vectors.enabled", "deletion-vectors.modifiable",
	"disable-explicit-type-casting", "dynamic-bucket.assigner-parallelism",
	"dynamic-bucket.initial-buckets", "dynamic-bucket.max-buckets",
	"dynamic-bucket.target-row-num", "dynamic-partition-overwrite",
	"end-input.check-partition-expire", "file-index.in-manifest-threshold",
	"file-index.read.enabled", "file-operation.thread-num", "file-reader-async-threshold",
	"file.block-size", "file.compression", "file.compression.per.level",
	"file.compression.zstd-level", "file.format", "file.format.per.level",
	"file.suffix.include.compression", "force-lookup", "format-table.commit-hive-sync-url",
	"format-table.file.compression", "format-table.implementation",
	"format-table.partition-path-only-value", "full-compaction.delta-commits",
	"global-index.build.max-parallelism", "global-index.build.max-shard",
	"global-index.column-update-action", "global-index.enabled", "global-index.external-path",
	"global-index.row-count-per-shard", "global-index.thread-num", "ignore-delete",
	"ignore-update-before", "incremental-between", "incremental-between-scan-mode",
	"incremental-between-tag-to-snapshot", "incremental-between-timestamp",
	"incremental-to-auto-tag", "index-file-in-data-file-dir",
	"key-value.sequence_number.enabled", "local-merge-buffer-size",
	"local-sort.max-num-file-handles", "lookup-compact", "lookup-compact.max-interval",
	"lookup-wait", "lookup.cache-file-retention", "lookup.cache-max-disk-size",
	"lookup.cache-max-memory-size", "lookup.cache-spill-compression",
	"lookup.cache.bloom.filter.enabled", "lookup.cache.bloom.filter.fpp",
	"lookup.cache.high-priority-pool-ratio", "lookup.hash-load-factor",
	"lookup.merge-buffer-size", "lookup.merge-records-threshold",
	"lookup.remote-file.enabled", "lookup.remote-file.level-threshold",
	"manifest.compression", "manifest.delete-file-drop-stats", "manifest.format",
	"manifest.full-compaction-threshold-size", "manifest.merge-min-count",
	"manifest.target-file-size", "materialized-table.definition-query",
	"materialized-table.interval-freshness",
	"materialized-table.interval-freshness.time-unit",
	"materialized-table.logical-refresh-mode", "materialized-table.refresh-handler-bytes",
	"materialized-table.refresh-handler-description", "materialized-table.refresh-mode",
	"materialized-table.refresh-status", "merge-engine", "metadata.stats-dense-store",
	"metadata.stats-keep-first-n-columns", "metadata.stats-mode",
	"metadata.stats-mode.per.level", "metastore.partitioned-table",
	"metastore.tag-to-partition", "metastore.tag-to-partition.preview", "num-levels",
	"num-sorted-run.compaction-trigger", "num-sorted-run.stop-trigger", "overwrite-upgrade",
	"page-size", "parquet.enable.dictionary", "partial-update.remove-record-on-delete",
	"partial-update.remove-record-on-sequence-group", "partition", "partition.default-name",
	"partition.end-input-to-done", "partition.expiration-batch-size",
	"partition.expiration-check-interval", "partition.expiration-max-num",
	"partition.expiration-strategy", "partition.expiration-time",
	"partition.idle-time-to-report-statistic", "partition.legacy-name",
	"partition.mark-done-action", "partition.mark-done-action.custom.class",
	"partition.mark-done-action.http.params", "partition.mark-done-action.http.url",
	"partition.sink-strategy", "partition.timestamp-format.strict",
	"partition.timestamp-formatter", "partition.timestamp-pattern", "path",
	"pk-clustering-override", "postpone.batch-write-fixed-bucket",
	"postpone.batch-write-fixed-bucket.max-parallelism", "postpone.default-bucket-num",
	"primary-key", "query-auth.enabled", "read.batch-size", "record-level.expire-time",
	"record-level.time-field", "row-tracking.enabled", "rowkind.field",
	"scan.bounded.watermark", "scan.creation-time-millis", "scan.fallback-branch",
	"scan.fallback-delta-branch", "scan.fallback-snapshot-branch",
	"scan.file-creation-time-millis", "scan.ignore-corrupt-files", "scan.ignore-lost-files",
	"scan.manifest.parallelism", "scan.max-splits-per-task", "scan.mode",
	"scan.plan-sort-partition", "scan.primary-branch", "scan.snapshot-id", "scan.tag-name",
	"scan.timestamp", "scan.timestamp-millis", "scan.version", "scan.watermark",
	"sequence.field", "sequence.field.sort-order", "sink.process-time-zone",
	"sink.watermark-time-zone", "snapshot.clean-empty-directories",
	"snapshot.expire.execution-mode", "snapshot.expire.limit", "snapshot.ignore-empty-commit",
	"snapshot.num-retained.max", "snapshot.num-retained.min", "snapshot.time-retained",
	"snapshot.watermark-idle-timeout", "sort-compaction.local-sample.magnification",
	"sort-compaction.range-strategy", "sort-engine", "sort-spill-buffer-size",
	"sort-spill-threshold", "source.split.open-file-cost", "source.split.target-size",
	"spill-compression", "spill-compression.zstd-level", "stream-scan-mode",
	"streaming-read-append-overwrite", "streaming-read-overwrite",
	"streaming.read.snapshot.delay", "table-read.sequence-number.enabled",
	"tag.automatic-completion", "tag.automatic-creation", "tag.batch.customized-name",
	"tag.callback.*.param", "tag.callbacks", "tag.create-success-file", "tag.creation-delay",
	"tag.creation-period", "tag.creation-period-duration", "tag.default-time-retained",
	"tag.num-retained-max", "tag.period-formatter", "tag.time-expire-enabled",
	"target-file-size", "type", "upsert-key", "variant.inferShreddingSchema",
	"variant.shredding.maxInferBufferRow", "variant.shredding.maxSchemaDepth",
	"variant.shredding.maxSchemaWidth", "variant.shredding.minFieldCardinalityRatio",
	"variant.shreddingSchema", "vector-field", "vector.file.format",
	"vector.target-file-size", "visibility-callback.check-interval",
	"visibility-callback.enabled", "visibility-callback.timeout", "write-buffer-for-append",
	"write-buffer-size", "write-buffer-spill.max-disk-size", "write-buffer-spillable",
	"write-max-writers-to-spill", "write-only", "write.batch-memory", "write.batch-size",
	"zorder.var-length-contribution",
};

static void
test_every_key_has_a_verdict(void **state)
{
	size_t		n;
	const pm_write_option_rule *r = pm_write_option_rules(&n);

	(void) state;
	assert_int_equal(sizeof(core_keys_1_4_2) / sizeof(core_keys_1_4_2[0]), 282);
	for (size_t i = 0; i < sizeof(core_keys_1_4_2) / sizeof(core_keys_1_4_2[0]); i++)
		if (pm_write_option_rule_of(core_keys_1_4_2[i]) == NULL)
			fail_msg("CoreOptions key \"%s\" has no writer verdict", core_keys_1_4_2[i]);
	for (size_t i = 0; i < n; i++)
	{
		if (i > 0 && strcmp(r[i - 1].key, r[i].key) >= 0)
			fail_msg("rules not sorted at \"%s\"", r[i].key);
		assert_non_null(r[i].why);
		assert_true(r[i].why[0] != '\0');
		if (r[i].verdict != PM_WRITE_REFUSED)
		{
			assert_null(r[i].accepted);
			assert_false(r[i].pk_only);
		}
		else
			assert_null(strchr(r[i].key, '*'));
	}
	/* patterns and fallback keys */
	assert_non_null(pm_write_option_rule_of("commit.callback.a.b.param"));
	assert_null(pm_write_option_rule_of("commit.callback..param"));
	assert_null(pm_write_option_rule_of("no-such-option"));
	assert_int_equal(pm_write_option_rule_of("record-level.expire-time")->verdict, PM_WRITE_HONOURED);
	assert_int_equal(pm_write_option_rule_of("write-only")->verdict, PM_WRITE_HONOURED);
	assert_int_equal(pm_write_option_rule_of("partition.expiration-time")->verdict, PM_WRITE_IGNORED);
}

static void
setup_pk(fixture *f, const char *const *kv, int n)
{
	static const char *primary[] = {"id"};

	setup_schema(f);
	f->s.nprimary_keys = 1;
	f->s.primary_keys = primary;
	for (int i = 0; i < n; i++)
	{
		f->keys[i] = kv[2 * i];
		f->vals[i] = kv[2 * i + 1];
	}
}

/*
 * rowkind.field is written (honoured): it names the column of the row
 * kinds (RowKindGenerator: a string column, else PM_ERR_INVALID), on
 * primary-key and append tables.
 */
static void
test_rowkind_field(void **state)
{
	fixture		f;
	pm_write_options o;
	pm_error	err;
	static const char *const str[] = {"bucket", "2", "rowkind.field", "name"};
	static const char *const num[] = {"bucket", "2", "rowkind.field", "id"};
	static const char *const none[] = {"bucket", "2"};
	const pm_write_option_rule *r = pm_write_option_rule_of("rowkind.field");

	(void) state;
	assert_non_null(r);
	assert_int_equal(r->verdict, PM_WRITE_HONOURED);
	f.arena = pm_arena_create(pm_env_default());
	setup_pk(&f, str, 2);
	f.s.noptions = 2;
	assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
	assert_int_equal(o.rowkind_field, 1);
	setup_pk(&f, none, 1);
	f.s.noptions = 1;
	assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
	assert_int_equal(o.rowkind_field, -1);
	setup_pk(&f, num, 2);
	f.s.noptions = 2;
	assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
	assert_non_null(strstr(err.message, "only support string type for rowkind, but id is"));
	setup_schema(&f);			/* an append table of bucket -1: the same */
	assert_int_equal(parse_with(&f, 1, str + 2, &o, &err), PM_OK);
	assert_int_equal(o.rowkind_field, 1);
	assert_int_equal(parse_with(&f, 1, num + 2, &o, &err), PM_ERR_INVALID);
	pm_arena_destroy(f.arena);
}

/*
 * Each REFUSED rule: a value it does not accept is refused by name
 * (PM_ERR_UNSUPPORTED), on primary-key tables and, unless primary-key
 * only, on append tables; its first accepted value is written; a
 * primary-key-only refusal does not refuse an append table.
 */
static void
test_every_refusal(void **state)
{
	size_t		n;
	const pm_write_option_rule *r = pm_write_option_rules(&n);
	int			refused = 0;

	(void) state;
	for (size_t i = 0; i < n; i++)
	{
		fixture		f;
		pm_write_options o;
		pm_error	err;
		static const char *const base[] = {"bucket", "2"};
		char		first[64];

		if (r[i].verdict != PM_WRITE_REFUSED)
			continue;
		refused++;
		f.arena = pm_arena_create(pm_env_default());
		/* primary-key table, fixed bucket */
		setup_pk(&f, base, 1);
		f.keys[1] = r[i].key;
		f.vals[1] = "surely-not-accepted";
		f.s.noptions = 2;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
		if (strstr(err.message, r[i].key) == NULL)
			fail_msg("\"%s\" does not name \"%s\"", err.message, r[i].key);
		/* append table */
		setup_schema(&f);
		f.keys[0] = r[i].key;
		f.vals[0] = "surely-not-accepted";
		f.s.noptions = 1;
		if (r[i].pk_only)
			assert_int_not_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
		else
		{
			assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
			assert_non_null(strstr(err.message, r[i].key));
		}
		if (r[i].accepted != NULL)
		{
			const char *bar = strchr(r[i].accepted, '|');
			size_t		len = bar ? (size_t) (bar - r[i].accepted) : strlen(r[i].accepted);

			assert_true(len < sizeof(first));
			memcpy(first, r[i].accepted, len);
			first[len] = '\0';
			/* upper case: compared without case, as Java parses enums */
			for (char *c = first; *c; c++)
				if (*c >= 'a' && *c <= 'z')
					*c = (char) (*c - 'a' + 'A');
			setup_pk(&f, base, 1);
			f.keys[1] = r[i].key;
			f.vals[1] = first;
			f.s.noptions = 2;
			if (pm_write_options_parse(&f.s, f.arena, &o, &err) != PM_OK)
				fail_msg("%s = \"%s\" refused: %s", r[i].key, first, err.message);
		}
		pm_arena_destroy(f.arena);
	}
	/* the loop saw the rules' refusals (17 now; fewer as more options are written) */
	assert_true(refused >= 10);
}

/* The options found by the audit, one by one. */
static void
test_audit_verdicts(void **state)
{
	fixture		f;
	pm_write_options o;
	pm_error	err;

	(void) state;
	f.arena = pm_arena_create(pm_env_default());
	{
		static const char *const kv[] = {"bucket", "2", "record-level.expire-time", "1 d",
		"record-level.time-field", "id"};

		/* honoured by the compaction (lsm/record_expire.c) */
		setup_pk(&f, kv, 3);
		f.s.noptions = 3;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
	}
	{
		/* Java's RecordLevelExpire.create / SchemaValidation refusals */
		static const char *const no_field[] = {"bucket", "2", "record-level.expire-time", "1 d"};
		static const char *const unknown[] = {"bucket", "2", "record-level.expire-time", "1 d",
		"record-level.time-field", "nope"};
		static const char *const string_field[] = {"bucket", "2", "record-level.expire-time", "1 d",
		"record-level.time-field", "name"};
		static const char *const bad_duration[] = {"bucket", "2", "record-level.expire-time", "1 fortnight",
		"record-level.time-field", "id"};
		static const char *const dv[] = {"bucket", "2", "record-level.expire-time", "1 d",
		"record-level.time-field", "id", "deletion-vectors.enabled", "true"};

		setup_pk(&f, no_field, 2);
		f.s.noptions = 2;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
		assert_string_equal(err.message, "You should set time field for record-level expire.");
		setup_pk(&f, unknown, 3);
		f.s.noptions = 3;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
		assert_string_equal(err.message, "Can not find time field nope for record level expire.");
		setup_pk(&f, string_field, 3);
		f.s.noptions = 3;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
		assert_non_null(strstr(err.message, "should be one of INT, BIGINT, or TIMESTAMP, but field type is STRING"));
		setup_pk(&f, bad_duration, 3);
		f.s.noptions = 3;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
		/* deletion vectors: the lookup compaction expires records too */
		setup_pk(&f, dv, 4);
		f.s.noptions = 4;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
	}
	{
		/* append tables: Java's append writer has no record-level expiry */
		static const char *const kv[] = {"record-level.expire-time", "1 d",
		"record-level.time-field", "id"};

		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, kv, &o, &err), PM_OK);
	}
	{
		/* file.compression.per.level: primary-key KeyValue files by level */
		static const char *const ok[] = {"bucket", "2", "file.compression.per.level", "0:lz4, 5:'none'"};
		static const char *const orc[] = {"bucket", "2", "file.format", "orc",
		"file.compression.per.level", "0:lz4"};
		static const char *const codec[] = {"bucket", "2", "file.compression.per.level", "0:brotli"};
		static const char *const avro[] = {"bucket", "2", "file.format", "avro",
		"file.compression.per.level", "1:deflate"};
		static const char *const map[] = {"bucket", "2", "file.compression.per.level", "0=lz4"};
		static const char *const level[] = {"bucket", "2", "file.compression.per.level", "x:lz4"};
		static const char *const append[] = {"file.compression.per.level", "0:brotli"};

		setup_pk(&f, ok, 2);
		f.s.noptions = 2;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
		assert_string_equal(pm_write_options_compression(&o, 0), "lz4");
		assert_string_equal(pm_write_options_compression(&o, 5), "none");
		assert_string_equal(pm_write_options_compression(&o, 3), "zstd");
		setup_pk(&f, orc, 3);
		f.s.noptions = 3;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.message, "file.compression.per.level"));
		setup_pk(&f, codec, 2);
		f.s.noptions = 2;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.message, "brotli"));
		setup_pk(&f, avro, 3);
		f.s.noptions = 3;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
		setup_pk(&f, map, 2);
		f.s.noptions = 2;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
		setup_pk(&f, level, 2);
		f.s.noptions = 2;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
		/* append tables: Java's append writer takes file.compression */
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 1, append, &o, &err), PM_OK);
		{
			static const char *const stats[] = {"bucket", "2",
			"metadata.stats-mode.per.level", "0:none,3:truncate(8)"};
			static const char *const bad_stats[] = {"bucket", "2",
			"metadata.stats-mode.per.level", "0:most"};

			setup_pk(&f, stats, 2);
			f.s.noptions = 2;
			assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
			assert_int_equal(o.nstats_mode_levels, 2);
			assert_int_equal(o.stats_mode_levels[1], 3);
			assert_string_equal(o.stats_mode_by_level[1], "truncate(8)");
			setup_pk(&f, bad_stats, 2);
			f.s.noptions = 2;
			assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_INVALID);
		}
		{
			/* file.format.per.level: parquet or avro per level, its compression fitting */
			static const char *const fmt[] = {"bucket", "2", "file.format.per.level", "0:AVRO",
			"file.suffix.include.compression", "true"};
			static const char *const orc[] = {"bucket", "2", "file.format.per.level", "0:orc"};
			static const char *const lz4[] = {"bucket", "2", "file.format.per.level", "0:avro",
			"file.compression", "lz4"};
			static const char *const lz4_level[] = {"bucket", "2", "file.format.per.level", "0:avro",
			"file.compression.per.level", "0:lz4"};
			const char *ext;

			setup_pk(&f, fmt, 3);
			f.s.noptions = 3;
			assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
			assert_int_equal(pm_write_options_format(&o, 0, &ext), PM_FORMAT_AVRO);
			assert_string_equal(ext, "zst.avro");
			assert_int_equal(pm_write_options_format(&o, 4, &ext), PM_FORMAT_PARQUET);
			assert_string_equal(ext, "zst.parquet");
			setup_pk(&f, orc, 2);
			f.s.noptions = 2;
			assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
			assert_non_null(strstr(err.message, "file.format.per.level"));
			setup_pk(&f, lz4, 3);
			f.s.noptions = 3;
			assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
			assert_non_null(strstr(err.message, "file.compression:"));
			setup_pk(&f, lz4_level, 3);
			f.s.noptions = 3;
			assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_ERR_UNSUPPORTED);
			assert_non_null(strstr(err.message, "file.compression.per.level"));
		}
	}
	{
		/* file.suffix.include.compression: DataFilePathFactory.makeExtension */
		static const char *const none[] = {"file.suffix.include.compression", "true",
		"file.compression", "none"};
		static const char *const gz[] = {"file.suffix.include.compression", "true",
		"file.compression", "GZIP", "file.format", "avro"};
		static const char *const defl[] = {"file.suffix.include.compression", "true",
		"file.compression", "deflate", "file.format", "avro"};
		static const char *const zst[] = {"file.suffix.include.compression", "true"};
		static const char *const off[] = {"file.compression", "snappy"};

		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, none, &o, &err), PM_OK);
		assert_string_equal(o.file_extension, "parquet");
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 1, zst, &o, &err), PM_OK);
		assert_string_equal(o.file_extension, "zst.parquet");
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, gz, &o, &err), PM_OK);
		assert_string_equal(o.file_extension, "gz.parquet");
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 3, defl, &o, &err), PM_OK);
		assert_string_equal(o.file_extension, "deflate.avro");
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 1, off, &o, &err), PM_OK);
		assert_string_equal(o.file_extension, "parquet");
		{
			static const char *const dirs[] = {"data/x", "../x", "/abs", "", "a//b"};

			for (int i = 0; i < 5; i++)
			{
				const char *kv[] = {"data-file.path-directory", dirs[i]};

				setup_schema(&f);
				assert_int_equal(parse_with(&f, 1, kv, &o, &err), i == 0 ? PM_OK : PM_ERR_UNSUPPORTED);
			}
		}
	}
	{
		/* process-time: tags made after each commit (table/tag_auto.c) */
		static const char *const kv[] = {"tag.automatic-creation", "process-time",
		"tag.creation-period", "hourly", "tag.num-retained-max", "3",
		"sink.process-time-zone", "Asia/Shanghai"};
		static const char *const callbacks[] = {"tag.automatic-creation", "process-time",
		"tag.callbacks", "my.Callback"};
		static const char *const success[] = {"tag.automatic-creation", "Process-Time",
		"tag.create-success-file", "true"};
		static const char *const retained[] = {"tag.automatic-creation", "process-time",
		"tag.default-time-retained", "1 d"};
		static const char *const bad_retained[] = {"tag.automatic-creation", "process-time",
		"tag.default-time-retained", "1 fortnight"};
		static const char *const zone[] = {"tag.automatic-creation", "process-time",
		"sink.process-time-zone", "Mars/Olympus"};
		static const char *const delay[] = {"tag.automatic-creation", "process-time",
		"tag.creation-delay", "1 d"};
		static const char *const watermark_retained[] = {"tag.automatic-creation", "watermark",
		"tag.default-time-retained", "1 d"};

		setup_schema(&f);
		assert_int_equal(parse_with(&f, 4, kv, &o, &err), PM_OK);
		setup_schema(&f);
		expect(&f, 2, callbacks, PM_ERR_UNSUPPORTED, "tag.callbacks");
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, success, &o, &err), PM_OK);
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, retained, &o, &err), PM_OK);
		setup_schema(&f);
		expect(&f, 2, bad_retained, PM_ERR_INVALID, "tag.default-time-retained");
		setup_schema(&f);
		expect(&f, 2, zone, PM_ERR_INVALID, "sink.process-time-zone");
		setup_schema(&f);
		expect(&f, 2, delay, PM_ERR_INVALID, "tag.creation-delay");
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, watermark_retained, &o, &err), PM_OK);
	}
	{
		/*
		 * watermark: Java's TagAutoCreation tags only snapshots with a
		 * watermark (ours have none); batch: only Flink's batch sink tags.
		 * Neither adds a tag on our commits, so both are written.
		 */
		static const char *const kv[] = {"tag.automatic-creation", "WaterMark",
		"tag.creation-period", "hourly", "tag.num-retained-max", "3"};
		static const char *const kv2[] = {"tag.automatic-creation", "batch"};

		setup_schema(&f);
		assert_int_equal(parse_with(&f, 3, kv, &o, &err), PM_OK);
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 1, kv2, &o, &err), PM_OK);
	}
	{
		/* watermark: Java's commit still builds TagAutoCreation and fails on bad values */
		static const char *const bad_period[] = {"tag.automatic-creation", "watermark",
		"tag.creation-period", "weekly"};
		static const char *const bad_fmt[] = {"tag.automatic-creation", "watermark",
		"tag.period-formatter", "slashes"};
		static const char *const bad_delay[] = {"tag.automatic-creation", "watermark",
		"tag.creation-period", "Hourly", "tag.creation-delay", "1 h"};
		static const char *const bad_duration[] = {"tag.automatic-creation", "watermark",
		"tag.creation-period-duration", "soon"};
		static const char *const ok_delay[] = {"tag.automatic-creation", "watermark",
		"tag.creation-period", "two-hours", "tag.creation-delay", "119 min"};
		static const char *const batch_any[] = {"tag.automatic-creation", "batch",
		"tag.creation-period", "weekly"};

		setup_schema(&f);
		expect(&f, 2, bad_period, PM_ERR_INVALID, "tag.creation-period");
		setup_schema(&f);
		expect(&f, 2, bad_fmt, PM_ERR_INVALID, "tag.period-formatter");
		setup_schema(&f);
		expect(&f, 3, bad_delay, PM_ERR_INVALID, "tag.creation-delay");
		setup_schema(&f);
		expect(&f, 2, bad_duration, PM_ERR_INVALID, "tag.creation-period-duration");
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 3, ok_delay, &o, &err), PM_OK);
		/* batch builds no TagAutoCreation in Java's commit: nothing checked */
		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, batch_any, &o, &err), PM_OK);
	}
	{
		static const char *const kv[] = {"tag.automatic-creation", "none", "commit.callbacks", ""};

		setup_schema(&f);
		assert_int_equal(parse_with(&f, 2, kv, &o, &err), PM_OK);
	}
	{
		/* changelog retention: our commit expires nothing; the next Java commit applies it */
		static const char *const kv[] = {"changelog.num-retained.max", "100",
		"changelog.num-retained.min", "20", "changelog.time-retained", "2 d"};

		setup_schema(&f);
		assert_int_equal(parse_with(&f, 3, kv, &o, &err), PM_OK);
	}
	{
		/* ignored: layout, timing, or the next Java commit's */
		static const char *const kv[] = {"bucket", "2", "write-only", "true",
			"partition.expiration-time", "7 d", "full-compaction.delta-commits", "3",
		"commit.force-compact", "true", "snapshot.ignore-empty-commit", "false"};

		setup_pk(&f, kv, 6);
		f.s.noptions = 6;
		assert_int_equal(pm_write_options_parse(&f.s, f.arena, &o, &err), PM_OK);
		assert_true(o.write_only);
	}
	pm_arena_destroy(f.arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_fixed_bucket_partitioned),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_memory_size),
		cmocka_unit_test(test_cross_partition_sequence),
		cmocka_unit_test(test_every_key_has_a_verdict),
		cmocka_unit_test(test_every_refusal),
		cmocka_unit_test(test_rowkind_field),
		cmocka_unit_test(test_audit_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
