/*-------------------------------------------------------------------------
 * test_write_options.c
 *	  The append writer's option parsing and refusals (table/write_options.c).
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "common/env.h"
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
		/* ORC: nested columns are refused before any row is written */
		static const char *const kv[] = {"file.format", "orc"};

		expect(&f, 1, kv, PM_ERR_UNSUPPORTED, "\"tags\" of type ARRAY");
	}
	/* the ORC cases below: the columns without "tags" */
	f.s.row_type = pm_type_new_row(f.arena, f.s.row_type->fields, 3, false);
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
	}
	setup_schema(&f);
	{
		static const char *const kv[] = {"file.format", "avro", "avro.codec", "snappy"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "avro.codec");
	}
	{
		static const char *const kv[] = {"index-file-in-data-file-dir", "true"};

		expect(&f, 1, kv, PM_ERR_UNSUPPORTED, "index-file-in-data-file-dir");
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
		static const char *const kv[] = {"data-file.external-paths", "file:/x"};

		expect(&f, 1, kv, PM_ERR_UNSUPPORTED, "data-file.external-paths");
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
		/* a column with a default value: Java writes the default for NULL */
		const char *dflt[8] = {NULL};

		dflt[1] = "7";
		f.s.default_values = dflt;
		f.s.nprimary_keys = 0;
		expect(&f, 0, NULL, PM_ERR_UNSUPPORTED, "default value");
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
		/* postpone buckets: into fixed buckets as Flink's batch sink, unless told not to */
		static const char *const kv[] = {"bucket", "-2", "postpone.batch-write-fixed-bucket", "false"};
		static const char *const ok[] = {"bucket", "-2"};
		pm_write_options o;
		pm_error	err;

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "postpone");
		assert_int_equal(parse_with(&f, 1, ok, &o, &err), PM_OK);
		assert_int_equal(o.bucket, -2);
		assert_int_equal(o.nbucket_keys, 1);
	}
	{
		static const char *const kv[] = {"bucket", "2", "data-file.thin-mode", "true"};

		expect(&f, 2, kv, PM_ERR_UNSUPPORTED, "thin-mode");
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_fixed_bucket_partitioned),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_memory_size),
		cmocka_unit_test(test_cross_partition_sequence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
