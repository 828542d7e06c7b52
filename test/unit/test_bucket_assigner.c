/*-------------------------------------------------------------------------
 * test_bucket_assigner.c
 *	  Dynamic-bucket writing pieces: common/int_map.c, table/hash_index.c
 *	  (HASH index files round trip, damaged files) and table/
 *	  bucket_assigner.c against vectors from Java.
 *
 * The vectors were printed by Java Paimon 1.4.2's own PartitionIndex
 * (test/oracle/oracle.sh assign-vectors: the HASH index files of each
 * scenario loaded in the order given, as PartitionIndex.loadIndex loads
 * them, then PartitionIndex.assign of each hash with HashBucketAssigner's
 * maxBucketId): a fresh partition, bucket ids colliding in the bins of
 * Java's HashMap (head inserts of compute()), a HashMap resize, a bin
 * reaching the treeify threshold, and dynamic-bucket.max-buckets.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "common/env.h"
#include "common/int_map.h"
#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "table/bucket_assigner.h"
#include "table/hash_index.h"

typedef struct vfile
{
	int32_t		bucket;
	const int32_t *hashes;
	int			n;
} vfile;

typedef struct scenario
{
	const char *name;
	int64_t		target;
	int32_t		max_buckets;
	const vfile *files;
	int			nfiles;
	const int32_t *assign;
	const int32_t *expect;
	int			n;
} scenario;

/* printed by oracle.sh assign-vectors (Java 1.4.2) */
static const vfile fresh_files[] = {{0, NULL, 0}};
static const int32_t fresh_assign[] = {10, 11, 10, 12, 13, -5, 14, 11, 15, 16, 17, 2147483647, INT32_MIN, 18};
static const int32_t fresh_expect[] = {0, 0, 0, 0, 1, 1, 1, 0, 2, 2, 2, 3, 3, 3};
static const int32_t collide_f0[] = {100, 101};
static const int32_t collide_f1[] = {102};
static const int32_t collide_f2[] = {103, 104, 105};
static const int32_t collide_f3[] = {106};
static const int32_t collide_f4[] = {107, 108};
static const vfile collide_files[] = {{5, collide_f0, 2}, {17, collide_f1, 1}, {1, collide_f2, 3}, {33, collide_f3, 1}, {0, collide_f4, 2}};
static const int32_t collide_assign[] = {100, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 102};
static const int32_t collide_expect[] = {5, 0, 33, 33, 17, 17, 5, 2, 2, 2, 3, 3, 3, 17};
static const int32_t resize_f0[] = {2000, 2001};
static const int32_t resize_f1[] = {3000, 3001};
static const int32_t resize_f2[] = {5000};
static const int32_t resize_f3[] = {6000, 6001, 6002};
static const int32_t resize_f4[] = {41000, 41001, 41002};
static const int32_t resize_f5[] = {9000};
static const int32_t resize_f6[] = {10000};
static const int32_t resize_f7[] = {4000};
static const int32_t resize_f8[] = {11000, 11001, 11002};
static const int32_t resize_f9[] = {7000};
static const int32_t resize_f10[] = {12000};
static const int32_t resize_f11[] = {13000, 13001};
static const int32_t resize_f12[] = {8000};
static const int32_t resize_f13[] = {1000};
static const vfile resize_files[] = {{1, resize_f0, 2}, {2, resize_f1, 2}, {4, resize_f2, 1}, {5, resize_f3, 3}, {40, resize_f4, 3}, {8, resize_f5, 1}, {9, resize_f6, 1}, {3, resize_f7, 1}, {10, resize_f8, 3}, {6, resize_f9, 1}, {11, resize_f10, 1}, {12, resize_f11, 2}, {7, resize_f12, 1}, {0, resize_f13, 1}};
static const int32_t resize_assign[] = {50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89};
static const int32_t resize_expect[] = {0, 0, 1, 2, 3, 3, 4, 4, 6, 6, 7, 7, 8, 8, 9, 9, 11, 11, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19, 19, 19};
static const int32_t treeify_f0[] = {5000};
static const int32_t treeify_f1[] = {5001};
static const int32_t treeify_f2[] = {5002};
static const int32_t treeify_f3[] = {5003};
static const int32_t treeify_f4[] = {5004};
static const int32_t treeify_f5[] = {5005};
static const int32_t treeify_f6[] = {5006};
static const int32_t treeify_f7[] = {5007};
static const int32_t treeify_f8[] = {5008};
static const int32_t treeify_f9[] = {5009};
static const vfile treeify_files[] = {{3, treeify_f0, 1}, {19, treeify_f1, 1}, {35, treeify_f2, 1}, {51, treeify_f3, 1}, {67, treeify_f4, 1}, {83, treeify_f5, 1}, {99, treeify_f6, 1}, {115, treeify_f7, 1}, {131, treeify_f8, 1}, {147, treeify_f9, 1}};
static const int32_t treeify_assign[] = {-40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11};
static const int32_t treeify_expect[] = {131, 99, 67, 35, 3, 147, 115, 83, 51, 19, 0, 0, 1, 1, 2, 2, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10};
static const int32_t maxb_f0[] = {7, 8};
static const vfile maxb_files[] = {{2, maxb_f0, 2}};
static const int32_t maxb_assign[] = {1, 2, 3, 4, 5, 6};
static const int32_t maxb_expect[] = {0, 0, 1, 1, 3, 3};
static const scenario scenarios[] = {
	{"fresh", 3, -1, fresh_files, 0, fresh_assign, fresh_expect, 14},
	{"collide", 3, -1, collide_files, 5, collide_assign, collide_expect, 14},
	{"resize", 3, -1, resize_files, 14, resize_assign, resize_expect, 40},
	{"treeify", 2, -1, treeify_files, 10, treeify_assign, treeify_expect, 30},
	{"maxb", 2, 4, maxb_files, 1, maxb_assign, maxb_expect, 6},
};

static void
test_java_vectors(void **state)
{
	pm_error	err;

	for (size_t s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++)
	{
		const scenario *sc = &scenarios[s];
		pm_bucket_assigner *a;
		pm_partition_index *pi;
		static const uint8_t part[] = {0, 0, 0, 0, 0, 0, 0, 0};

		assert_int_equal(pm_bucket_assigner_create(pm_env_default(), sc->target, sc->max_buckets,
												   &a, &err), PM_OK);
		assert_null(pm_bucket_assigner_find(a, part, sizeof(part)));
		assert_int_equal(pm_bucket_assigner_add(a, part, sizeof(part), &pi, &err), PM_OK);
		assert_ptr_equal(pm_bucket_assigner_find(a, part, sizeof(part)), pi);
		for (int f = 0; f < sc->nfiles; f++)
			assert_int_equal(pm_partition_index_load(pi, sc->files[f].bucket, sc->files[f].hashes,
													 sc->files[f].n, &err), PM_OK);
		for (int i = 0; i < sc->n; i++)
		{
			int32_t		b = -1;

			assert_int_equal(pm_bucket_assigner_assign(a, pi, sc->assign[i], &b, &err), PM_OK);
			if (b != sc->expect[i])
				fail_msg("%s: hash %d #%d: bucket %d, Java gives %d", sc->name,
						 (int) sc->assign[i], i, (int) b, (int) sc->expect[i]);
		}
		pm_bucket_assigner_free(a);
	}
}

/* Past max-buckets a new key goes to one of the partition's buckets. */
static void
test_max_buckets_random(void **state)
{
	pm_error	err;
	pm_bucket_assigner *a;
	pm_partition_index *p1;
	pm_partition_index *p2;
	static const uint8_t part1[] = {1};
	static const uint8_t part2[] = {2};
	int			seen[2] = {0, 0};

	assert_int_equal(pm_bucket_assigner_create(pm_env_default(), 2, 2, &a, &err), PM_OK);
	assert_int_equal(pm_bucket_assigner_add(a, part1, 1, &p1, &err), PM_OK);
	assert_int_equal(pm_bucket_assigner_add(a, part2, 1, &p2, &err), PM_OK);
	{
		pm_partition_index *dup;

		assert_int_not_equal(pm_bucket_assigner_add(a, part2, 1, &dup, &err), PM_OK);
	}
	for (int32_t h = 0; h < 200; h++)
	{
		int32_t		b;
		int32_t		again;

		assert_int_equal(pm_bucket_assigner_assign(a, p1, h, &b, &err), PM_OK);
		assert_true(b == 0 || b == 1);
		if (h >= 4)
			seen[b]++;
		/* a hash keeps its bucket */
		assert_int_equal(pm_bucket_assigner_assign(a, p1, h, &again, &err), PM_OK);
		assert_int_equal(again, b);
	}
	assert_true(seen[0] > 0 && seen[1] > 0);
	/* the other partition has its own buckets: its first key goes to bucket 0 */
	{
		int32_t		b;

		assert_int_equal(pm_bucket_assigner_assign(a, p2, 0, &b, &err), PM_OK);
		assert_int_equal(b, 0);
	}
	pm_bucket_assigner_free(a);
	/* option values Java refuses */
	assert_int_equal(pm_bucket_assigner_create(pm_env_default(), 0, -1, &a, &err), PM_ERR_INVALID);
	assert_int_equal(pm_bucket_assigner_create(pm_env_default(), 5, 0, &a, &err), PM_ERR_INVALID);
	assert_int_equal(pm_bucket_assigner_create(pm_env_default(), 5, -2, &a, &err), PM_ERR_INVALID);
}

static void
test_int_map(void **state)
{
	pm_int_map	m;
	int32_t		v;
	bool		added;
	size_t		pos = 0;
	int32_t		k;
	int64_t		sum = 0;
	int			n = 0;

	pm_int_map_init(&m, pm_env_default());
	assert_false(pm_int_map_get(&m, 0, &v));
	for (int32_t i = -50000; i < 50000; i += 2)
	{
		assert_true(pm_int_map_put(&m, i * 4096, i, &added));
		assert_true(added);
	}
	assert_true(pm_int_map_put(&m, 0, 7, &added));
	assert_false(added);
	assert_int_equal(m.count, 50000);
	for (int32_t i = -50000; i < 50000; i++)
	{
		bool		found = pm_int_map_get(&m, i * 4096, &v);

		assert_int_equal(found, i % 2 == 0);
		if (found)
			assert_int_equal(v, i == 0 ? 7 : i);
	}
	while (pm_int_map_next(&m, &pos, &k, &v))
	{
		sum += v;
		n++;
	}
	assert_int_equal(n, 50000);
	assert_int_equal(sum, 7 + (int64_t) -50000);	/* the evens of [-50000, 50000) sum to -50000 */
	pm_int_map_free(&m);
	assert_int_equal(m.count, 0);
	assert_false(pm_int_map_get(&m, 2 * 4096, &v));
}

static void
test_hash_index_round_trip(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_int_map	set;
	pm_error	err;
	int64_t		size;
	int32_t    *hashes;
	int64_t		n;
	uint8_t    *bytes;
	size_t		len;
	static const int32_t values[] = {0, 1, -1, INT32_MAX, INT32_MIN, 0x01020304, 123456789};

	pm_int_map_init(&set, pm_env_default());
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		assert_true(pm_int_map_put(&set, values[i], 0, NULL));
	assert_int_equal(pm_hash_index_write(io, "/t/index/index-a-0", &set, &size, &err), PM_OK);
	assert_int_equal(size, 28);
	/* a second file at the same path is refused */
	assert_int_not_equal(pm_hash_index_write(io, "/t/index/index-a-0", &set, &size, &err), PM_OK);
	/* big-endian int32s, no header */
	assert_int_equal(pm_fileio_read_all(io, "/t/index/index-a-0", arena, 1024, &bytes, &len, &err), PM_OK);
	assert_int_equal(len, 28);
	for (size_t i = 0; i < len; i += 4)
		if (bytes[i] == 1 && bytes[i + 1] == 2)
			assert_memory_equal(&bytes[i], "\x01\x02\x03\x04", 4);
	assert_int_equal(pm_hash_index_read(io, "/t/index/index-a-0", 7, arena, &hashes, &n, &err), PM_OK);
	assert_int_equal(n, 7);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
	{
		bool		found = false;

		for (int64_t j = 0; j < n; j++)
			found |= hashes[j] == values[i];
		assert_true(found);
	}
	/* the manifest's row count must agree; a torn int is corrupt */
	assert_int_equal(pm_hash_index_read(io, "/t/index/index-a-0", 6, arena, &hashes, &n, &err),
					 PM_ERR_CORRUPT);
	assert_int_equal(io->write_new(io, "/t/index/torn", "\0\0\0\1\0\0", 6, &err), PM_OK);
	assert_int_equal(pm_hash_index_read(io, "/t/index/torn", -1, arena, &hashes, &n, &err),
					 PM_ERR_CORRUPT);
	assert_int_equal(pm_hash_index_read(io, "/t/index/missing", -1, arena, &hashes, &n, &err),
					 PM_ERR_NOT_FOUND);
	pm_int_map_free(&set);
	pm_arena_destroy(arena);
	pm_memory_fileio_destroy(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_java_vectors),
		cmocka_unit_test(test_max_buckets_random),
		cmocka_unit_test(test_int_map),
		cmocka_unit_test(test_hash_index_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
