/*-------------------------------------------------------------------------
 * test_deletion_vector_write.c
 *	  Writing deletion vectors (index/deletion_vector_write.c): the blob
 *	  bytes Java writes (the examples of paimon-format-data.md §5.1, taken
 *	  from index files Java wrote), read back by our reader in both
 *	  variants, and a bucket's index file: restore, new deletions, removal,
 *	  the ranges the index manifest records, the 1-byte file when every DV
 *	  is gone, and the order of Java's HashMap.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/env.h"
#include "index/deletion_vector.h"
#include "index/deletion_vector_write.h"
#include "io/memory_fileio.h"

/* §5.1: positions {0} (index file of pk_table_scan_and_read_dv.db, after the version byte) */
static const uint8_t BLOB_0[] = {
	0x00, 0x00, 0x00, 0x16, 0x5e, 0x43, 0xf2, 0xd0, 0x3a, 0x30, 0x00, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe3, 0x30,
	0x60, 0xd3
};

/* §5.1 second example: positions {0, 4}, bitmap bytes only */
static const uint8_t BITMAP_0_4[] = {
	0x3a, 0x30, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x04, 0x00
};

static void
test_blob_bytes(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_error	err;
	uint8_t    *blob;
	size_t		len;
	int32_t		len_field;
	int64_t		pos0[] = {0};
	int64_t		pos04[] = {0, 4};

	(void) state;
	assert_int_equal(pm_dv_serialize(pos0, 1, false, arena, &blob, &len, &len_field, &err), PM_OK);
	assert_int_equal(len, sizeof(BLOB_0));
	assert_memory_equal(blob, BLOB_0, sizeof(BLOB_0));
	assert_int_equal(len_field, 22);

	assert_int_equal(pm_dv_serialize(pos04, 2, false, arena, &blob, &len, &len_field, &err), PM_OK);
	assert_int_equal(len_field, 24);
	assert_int_equal(len, 4 + 24 + 4);
	assert_memory_equal(blob + 8, BITMAP_0_4, sizeof(BITMAP_0_4));

	/* a run: 0..9999 becomes a run container (runOptimize), read back */
	{
		int64_t    *many = pm_arena_alloc(arena, sizeof(int64_t) * 10000);
		pm_deletion_vector *dv;

		for (int i = 0; i < 10000; i++)
			many[i] = i;
		assert_int_equal(pm_dv_serialize(many, 10000, false, arena, &blob, &len, &len_field, &err),
						 PM_OK);
		assert_true(len < 64);	/* one run, not 10000 values */
		assert_int_equal(pm_deletion_vector_decode(pm_env_default(), blob, len, len_field, &dv, &err),
						 PM_OK);
		assert_int_equal(pm_deletion_vector_cardinality(dv), 10000);
		assert_true(pm_deletion_vector_contains(dv, 9999));
		assert_false(pm_deletion_vector_contains(dv, 10000));
		pm_deletion_vector_destroy(dv);
	}

	/* 64-bit: magic little endian, the manifest length is the whole blob */
	{
		pm_deletion_vector *dv;

		assert_int_equal(pm_dv_serialize(pos04, 2, true, arena, &blob, &len, &len_field, &err),
						 PM_OK);
		assert_int_equal(len_field, (int32_t) len);
		assert_int_equal(blob[4], 0xd1);
		assert_int_equal(blob[7], 0x64);
		assert_int_equal(pm_deletion_vector_decode(pm_env_default(), blob, len, len_field, &dv, &err),
						 PM_OK);
		assert_true(pm_deletion_vector_is_64bit(dv));
		assert_int_equal(pm_deletion_vector_cardinality(dv), 2);
		assert_true(pm_deletion_vector_contains(dv, 4));
		pm_deletion_vector_destroy(dv);
	}

	/* Java refuses positions a 32-bit bitmap cannot hold */
	{
		int64_t		big[] = {(int64_t) INT32_MAX + 1};

		assert_int_equal(pm_dv_serialize(big, 1, false, arena, &blob, &len, &len_field, &err),
						 PM_ERR_INVALID);
	}
	pm_arena_destroy(arena);
}

static pm_deletion_vector *
read_range(pm_fileio *io, const char *path, const pm_dv_written_range *r)
{
	pm_deletion_vector *dv;
	pm_error	err;

	if (pm_deletion_vector_read(pm_env_default(), io, path, r->offset, r->length, &dv, &err) != PM_OK)
		fail_msg("read %s: %s", r->data_file, err.message);
	assert_int_equal(pm_deletion_vector_cardinality(dv), r->cardinality);
	return dv;
}

static const pm_dv_written_range *
range_of(const pm_dv_index_file *f, const char *name)
{
	for (int i = 0; i < f->nranges; i++)
		if (strcmp(f->ranges[i].data_file, name) == 0)
			return &f->ranges[i];
	return NULL;
}

static void
test_bucket_file(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_dv_maintainer *m;
	pm_dv_index_file f1,
				f2,
				f3;
	pm_deletion_vector *dv;
	pm_error	err;
	int64_t		counter = 0;
	const char *uuid = "6c1e0e3a-52a5-4d8e-9a55-93b0f0a3c001";

	(void) state;
	assert_int_equal(pm_dv_maintainer_create(pm_env_default(), false, &m, &err), PM_OK);
	assert_false(pm_dv_maintainer_modified(m));
	assert_int_equal(pm_dv_maintainer_delete(m, "data-a-0.parquet", 3, &err), PM_OK);
	assert_int_equal(pm_dv_maintainer_delete(m, "data-a-0.parquet", 7, &err), PM_OK);
	assert_int_equal(pm_dv_maintainer_delete(m, "data-b-0.parquet", 0, &err), PM_OK);
	assert_true(pm_dv_maintainer_modified(m));
	assert_true(pm_dv_maintainer_contains(m, "data-a-0.parquet", 7));
	assert_false(pm_dv_maintainer_contains(m, "data-a-0.parquet", 4));
	assert_int_equal(pm_dv_maintainer_write(m, io, "/mem/t/index", uuid, &counter, arena, &f1, &err),
					 PM_OK);
	assert_false(pm_dv_maintainer_modified(m));
	assert_int_equal(counter, 1);
	assert_string_equal(f1.file_name, "index-6c1e0e3a-52a5-4d8e-9a55-93b0f0a3c001-0");
	assert_int_equal(f1.nranges, 2);
	assert_int_equal(f1.ranges[0].offset, 1);
	assert_int_equal(f1.ranges[1].offset, 1 + 4 + f1.ranges[0].length + 4);
	assert_int_equal(f1.file_size, 1 + 8 + f1.ranges[0].length + 8 + f1.ranges[1].length);
	dv = read_range(io, f1.path, range_of(&f1, "data-a-0.parquet"));
	assert_true(pm_deletion_vector_contains(dv, 3) && pm_deletion_vector_contains(dv, 7));
	assert_int_equal(pm_deletion_vector_cardinality(dv), 2);
	pm_deletion_vector_destroy(dv);

	/* a deletion already there changes nothing */
	assert_int_equal(pm_dv_maintainer_delete(m, "data-b-0.parquet", 0, &err), PM_OK);
	assert_false(pm_dv_maintainer_modified(m));
	pm_dv_maintainer_free(m);

	/* restore from the file, add to one, drop the other */
	assert_int_equal(pm_dv_maintainer_create(pm_env_default(), false, &m, &err), PM_OK);
	for (int i = 0; i < f1.nranges; i++)
	{
		dv = read_range(io, f1.path, &f1.ranges[i]);
		assert_int_equal(pm_dv_maintainer_restore(m, f1.ranges[i].data_file, dv, &err), PM_OK);
		pm_deletion_vector_destroy(dv);
	}
	assert_false(pm_dv_maintainer_modified(m));
	assert_int_equal(pm_dv_maintainer_cardinality(m, "data-a-0.parquet"), 2);
	assert_int_equal(pm_dv_maintainer_delete(m, "data-a-0.parquet", 100, &err), PM_OK);
	pm_dv_maintainer_remove(m, "data-b-0.parquet");
	pm_dv_maintainer_remove(m, "data-c-0.parquet");	/* none: nothing */
	assert_int_equal(pm_dv_maintainer_write(m, io, "/mem/t/index", uuid, &counter, arena, &f2, &err),
					 PM_OK);
	assert_int_equal(f2.nranges, 1);
	assert_string_equal(f2.ranges[0].data_file, "data-a-0.parquet");
	assert_int_equal(f2.ranges[0].cardinality, 3);
	dv = read_range(io, f2.path, &f2.ranges[0]);
	assert_true(pm_deletion_vector_contains(dv, 100));
	pm_deletion_vector_destroy(dv);

	/* every DV gone: a file of the version byte only */
	pm_dv_maintainer_remove(m, "data-a-0.parquet");
	assert_true(pm_dv_maintainer_modified(m));
	assert_int_equal(pm_dv_maintainer_write(m, io, "/mem/t/index", uuid, &counter, arena, &f3, &err),
					 PM_OK);
	assert_int_equal(f3.nranges, 0);
	assert_int_equal(f3.file_size, 1);
	assert_string_equal(f3.file_name, "index-6c1e0e3a-52a5-4d8e-9a55-93b0f0a3c001-2");
	pm_dv_maintainer_free(m);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

/*
 * Java's HashMap<String, DV> order: with 16 slots, "b" (98) is slot 2 and
 * "a" (97) slot 1, whatever the insertion order; equal slots keep
 * insertion order ("a" and "q" (113) share slot 1).
 */
static void
test_hash_order(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_dv_maintainer *m;
	pm_dv_index_file f;
	pm_error	err;
	int64_t		counter = 0;

	(void) state;
	assert_int_equal(pm_dv_maintainer_create(pm_env_default(), false, &m, &err), PM_OK);
	assert_int_equal(pm_dv_maintainer_delete(m, "b", 1, &err), PM_OK);
	assert_int_equal(pm_dv_maintainer_delete(m, "q", 1, &err), PM_OK);
	assert_int_equal(pm_dv_maintainer_delete(m, "a", 1, &err), PM_OK);
	assert_int_equal(pm_dv_maintainer_write(m, io, "/mem/t/index", "u", &counter, arena, &f, &err),
					 PM_OK);
	assert_int_equal(f.nranges, 3);
	assert_string_equal(f.ranges[0].data_file, "q");
	assert_string_equal(f.ranges[1].data_file, "a");
	assert_string_equal(f.ranges[2].data_file, "b");
	pm_dv_maintainer_free(m);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blob_bytes),
		cmocka_unit_test(test_bucket_file),
		cmocka_unit_test(test_hash_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
