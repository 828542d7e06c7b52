/*-------------------------------------------------------------------------
 * test_spill_run.c
 *	  The write buffer's spill files (src/lsm/spill_run.c): batches of flat
 *	  and nested types (INT, BIGINT, VARCHAR, DECIMAL, TIMESTAMP(9) with
 *	  nanos, ARRAY<INT>, MAP<VARCHAR, INT>, ROW<INT, VARCHAR>), with NULLs,
 *	  come back value for value, block by block, with and without lz4, and
 *	  so do rows gathered from a batch in another order (write_rows); an
 *	  empty run; a truncated file, a file without its end mark, a damaged
 *	  header or block, and a file that is not a spill file are
 *	  PM_ERR_CORRUPT, a missing one PM_ERR_NOT_FOUND.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/vector_builder.h"
#include "lsm/key_compare.h"
#include "lsm/spill_run.h"

#define NCOLS 8

static pm_arena *arena;
static const pm_type *row_type;
static char dir[] = "/tmp/pm_spill_run_test_XXXXXX";
static char path[256];

static const pm_type *
make_row_type(void)
{
	const pm_type *it = pm_type_new(arena, PM_TYPE_INT, true);
	const pm_type *st = pm_type_new(arena, PM_TYPE_VARCHAR, true);
	pm_type    *ts = pm_type_new(arena, PM_TYPE_TIMESTAMP, true);
	pm_field	inner[2] = {{.id = 10, .name = "x", .type = it}, {.id = 11, .name = "y", .type = st}};
	pm_field	f[NCOLS] = {
		{.id = 0, .name = "a", .type = pm_type_new(arena, PM_TYPE_INT, false)},
		{.id = 1, .name = "b", .type = pm_type_new(arena, PM_TYPE_BIGINT, true)},
		{.id = 2, .name = "s", .type = st},
		{.id = 3, .name = "d", .type = pm_type_new_decimal(arena, 20, 2, true)},
		{.id = 4, .name = "t", .type = ts},
		{.id = 5, .name = "arr", .type = pm_type_new_array(arena, it, true)},
		{.id = 6, .name = "m", .type = pm_type_new_map(arena, st, it, true)},
		{.id = 7, .name = "r", .type = pm_type_new_row(arena, inner, 2, true)},
	};

	ts->precision = 9;
	return pm_type_new_row(arena, f, NCOLS, false);
}

/* A one-value vector of type holding v (INT/BIGINT) or the string s. */
static pm_vector *
one(const pm_type *type, int64_t v, const char *s)
{
	pm_vector  *o = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;

	assert_true(pm_vector_builder_init(&b, o, type, 1, arena));
	if (s != NULL)
		assert_true(pm_vector_builder_append_bytes(&b, s, (int32_t) strlen(s)));
	else
	{
		if (type->id == PM_TYPE_BIGINT)
			((int64_t *) o->values)[0] = v;
		else
			((int32_t *) o->values)[0] = (int32_t) v;
		o->nulls[0] = 0;
		o->length = 1;
	}
	return o;
}

/* A batch of n rows, values from `seed`, every seventh value of a nullable column NULL. */
static pm_batch *
make_batch(int n, int seed)
{
	pm_batch   *batch = pm_arena_zalloc(arena, sizeof(pm_batch));
	pm_vector_builder *b = pm_arena_zalloc(arena, sizeof(pm_vector_builder) * NCOLS);
	char		s[64];

	batch->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * NCOLS);
	batch->ncols = NCOLS;
	batch->nrows = n;
	for (int c = 0; c < NCOLS; c++)
		assert_true(pm_vector_builder_init(&b[c], &batch->cols[c], row_type->fields[c].type, 4,
										   arena));
	for (int i = 0; i < n; i++)
	{
		int64_t		k = (int64_t) i * 31 + seed;
		bool		null = i % 7 == 3;

		assert_true(pm_vector_builder_append(&b[0], one(row_type->fields[0].type, k, NULL), 0));
		for (int c = 1; c < NCOLS; c++)
		{
			const pm_type *t = row_type->fields[c].type;

			if (null)
			{
				assert_true(pm_vector_builder_append_null(&b[c]));
				continue;
			}
			switch (t->id)
			{
				case PM_TYPE_BIGINT:
					assert_true(pm_vector_builder_append(&b[c], one(t, k * 1000003, NULL), 0));
					break;
				case PM_TYPE_VARCHAR:
					snprintf(s, sizeof(s), "v%lld%s", (long long) k, i % 3 ? "" : "-longer");
					assert_true(pm_vector_builder_append_bytes(&b[c], s, (int32_t) strlen(s)));
					break;
				case PM_TYPE_DECIMAL:
					{
						pm_vector	d;
						pm_vector_builder db;

						assert_true(pm_vector_builder_init(&db, &d, t, 1, arena));
						((pm_int128 *) d.values)[0] = (pm_int128) k * -123456789 * 1000000007;
						d.nulls[0] = 0;
						d.length = 1;
						assert_true(pm_vector_builder_append(&b[c], &d, 0));
						break;
					}
				case PM_TYPE_TIMESTAMP:
					{
						pm_vector	tv;
						pm_vector_builder tb;

						assert_true(pm_vector_builder_init(&tb, &tv, t, 1, arena));
						((int64_t *) tv.values)[0] = k * 1000;
						tv.nanos[0] = (uint16_t) (k % 1000);
						tv.nulls[0] = 0;
						tv.length = 1;
						assert_true(pm_vector_builder_append(&b[c], &tv, 0));
						break;
					}
				case PM_TYPE_ARRAY:
					{
						pm_vector	av;
						pm_vector_builder ab;
						int			len = i % 4;

						assert_true(pm_vector_builder_init(&ab, &av, t, 1, arena));
						for (int e = 0; e < len; e++)
							assert_true(pm_vector_builder_append(&ab.children[0],
																 one(t->element, k + e, NULL), 0));
						av.offsets[1] = len;
						av.nulls[0] = 0;
						av.length = 1;
						assert_true(pm_vector_builder_append(&b[c], &av, 0));
						break;
					}
				case PM_TYPE_MAP:
					{
						pm_vector	mv;
						pm_vector_builder mb;
						int			len = i % 3;

						assert_true(pm_vector_builder_init(&mb, &mv, t, 1, arena));
						for (int e = 0; e < len; e++)
						{
							snprintf(s, sizeof(s), "key%d", e);
							assert_true(pm_vector_builder_append_bytes(&mb.children[0], s,
																	   (int32_t) strlen(s)));
							assert_true(pm_vector_builder_append(&mb.children[1],
																 one(t->value, k - e, NULL), 0));
						}
						mv.offsets[1] = len;
						mv.nulls[0] = 0;
						mv.length = 1;
						assert_true(pm_vector_builder_append(&b[c], &mv, 0));
						break;
					}
				case PM_TYPE_ROW:
					{
						const pm_vector *fields[2];
						int64_t		rows[2] = {0, 0};

						snprintf(s, sizeof(s), "row%lld", (long long) k);
						fields[0] = one(t->fields[0].type, k, NULL);
						fields[1] = i % 5 == 1 ? NULL : one(t->fields[1].type, 0, s);
						assert_true(pm_vector_builder_append_struct(&b[c], fields, rows));
						break;
					}
				default:
					fail();
			}
		}
	}
	return batch;
}

static void
assert_same_batch(const pm_batch *a, const pm_batch *b)
{
	assert_int_equal(a->nrows, b->nrows);
	assert_int_equal(a->ncols, b->ncols);
	for (int c = 0; c < a->ncols; c++)
	{
		assert_true(pm_vector_valid(&b->cols[c], b->nrows));
		for (int64_t i = 0; i < a->nrows; i++)
		{
			assert_int_equal(pm_vector_is_null(&a->cols[c], i), pm_vector_is_null(&b->cols[c], i));
			assert_int_equal(pm_key_compare_value(&a->cols[c], i, &b->cols[c], i), 0);
			if (a->cols[c].nanos != NULL && !pm_vector_is_null(&a->cols[c], i))
				assert_int_equal(a->cols[c].nanos[i], b->cols[c].nanos[i]);
		}
	}
}

static int
setup(void **state)
{
	arena = pm_arena_create(pm_env_default());
	row_type = make_row_type();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run", dir);
	return 0;
}

static int
teardown(void **state)
{
	unlink(path);
	rmdir(dir);
	pm_arena_destroy(arena);
	return 0;
}

/* got holds rows rows[0..n-1] of src. */
static void
assert_gathered(const pm_batch *src, const int64_t *rows, int64_t n, const pm_batch *got)
{
	assert_int_equal(got->nrows, n);
	for (int c = 0; c < src->ncols; c++)
	{
		assert_true(pm_vector_valid(&got->cols[c], n));
		for (int64_t i = 0; i < n; i++)
		{
			assert_int_equal(pm_vector_is_null(&src->cols[c], rows[i]),
							 pm_vector_is_null(&got->cols[c], i));
			assert_int_equal(pm_key_compare_value(&src->cols[c], rows[i], &got->cols[c], i), 0);
		}
	}
}

static void
round_trip(bool compress)
{
	pm_batch   *batches[3] = {make_batch(1000, 1), make_batch(1, 2), make_batch(4096, 3)};
	int64_t		rows[500];
	pm_spill_run_writer *w;
	pm_spill_run_reader *r;
	pm_batch   *got;
	pm_error	err;

	unlink(path);
	assert_int_equal(pm_spill_run_writer_open(pm_env_default(), path, row_type, compress, &w,
											  &err), PM_OK);
	/* a second writer of the same path fails: the file exists */
	{
		pm_spill_run_writer *w2;

		assert_int_equal(pm_spill_run_writer_open(pm_env_default(), path, row_type, compress,
												  &w2, &err), PM_ERR_IO);
	}
	for (int i = 0; i < 3; i++)
		assert_int_equal(pm_spill_run_writer_write(w, batches[i], &err), PM_OK);
	/* rows gathered from the first batch: every second one, backwards, some twice */
	for (int i = 0; i < 500; i++)
		rows[i] = i % 10 == 9 ? rows[i - 1] : 999 - 2 * i;
	assert_int_equal(pm_spill_run_writer_write_rows(w, batches[0]->cols, rows, 500, &err), PM_OK);
	assert_true(pm_spill_run_writer_bytes(w) > 8);
	assert_int_equal(pm_spill_run_writer_finish(w, &err), PM_OK);
	assert_int_equal(pm_spill_run_reader_open(pm_env_default(), path, row_type, &r, &err), PM_OK);
	for (int i = 0; i < 3; i++)
	{
		assert_int_equal(pm_spill_run_reader_next(r, &got, &err), PM_OK);
		assert_non_null(got);
		assert_same_batch(batches[i], got);
	}
	assert_int_equal(pm_spill_run_reader_next(r, &got, &err), PM_OK);
	assert_non_null(got);
	assert_gathered(batches[0], rows, 500, got);
	assert_int_equal(pm_spill_run_reader_next(r, &got, &err), PM_OK);
	assert_null(got);
	assert_int_equal(pm_spill_run_reader_next(r, &got, &err), PM_OK);
	assert_null(got);
	pm_spill_run_reader_close(r);
}

static void
test_round_trip(void **state)
{
	round_trip(false);
}

static void
test_round_trip_lz4(void **state)
{
	round_trip(true);
}

static void
test_empty_run(void **state)
{
	pm_spill_run_writer *w;
	pm_spill_run_reader *r;
	pm_batch   *got;
	pm_error	err;

	unlink(path);
	assert_int_equal(pm_spill_run_writer_open(pm_env_default(), path, row_type, false, &w, &err),
					 PM_OK);
	assert_int_equal(pm_spill_run_writer_finish(w, &err), PM_OK);
	assert_int_equal(pm_spill_run_reader_open(pm_env_default(), path, row_type, &r, &err), PM_OK);
	assert_int_equal(pm_spill_run_reader_next(r, &got, &err), PM_OK);
	assert_null(got);
	pm_spill_run_reader_close(r);
}

/* Read the whole file at path. */
static uint8_t *
slurp(size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8_t    *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t) ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(*len);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static void
spit(const uint8_t *buf, size_t len)
{
	FILE	   *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

/* Read every block of path: the code of the first failure (PM_OK if none). */
static pm_code
read_all(pm_error *err)
{
	pm_spill_run_reader *r;
	pm_batch   *got;
	pm_code		rc;

	pm_error_clear(err);
	rc = pm_spill_run_reader_open(pm_env_default(), path, row_type, &r, err);

	if (rc != PM_OK)
		return rc;
	do
		rc = pm_spill_run_reader_next(r, &got, err);
	while (rc == PM_OK && got != NULL);
	pm_spill_run_reader_close(r);
	return rc;
}

static void
test_corrupt(void **state)
{
	pm_spill_run_writer *w;
	pm_error	err;
	uint8_t    *good,
			   *bad;
	size_t		len;

	unlink(path);
	assert_int_equal(pm_spill_run_writer_open(pm_env_default(), path, row_type, false, &w, &err),
					 PM_OK);
	assert_int_equal(pm_spill_run_writer_write(w, make_batch(50, 9), &err), PM_OK);
	assert_int_equal(pm_spill_run_writer_finish(w, &err), PM_OK);
	good = slurp(&len);
	bad = malloc(len);
	assert_int_equal(read_all(&err), PM_OK);

	/* frames of whole 4096-byte units: the block's, then the end mark's one */
	assert_int_equal(len % 4096, 0);
	assert_true(len >= 2 * 4096);
	assert_memory_equal(good + len - 4096, "PMSPILL2", 8);
	assert_memory_equal(good, "PMSPILL2", 8);
	/* no end mark */
	spit(good, len - 4096);
	assert_int_equal(read_all(&err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "end mark"));
	assert_non_null(strstr(err.path, "run"));
	/* truncated inside the block (a file of no whole frames: O_DIRECT reads fall back) */
	spit(good, 100);
	assert_int_equal(read_all(&err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "truncated"));
	/* the end mark cut short */
	spit(good, len - 100);
	assert_int_equal(read_all(&err), PM_ERR_CORRUPT);
	assert_non_null(strstr(err.message, "truncated"));
	/* not a spill file */
	memcpy(bad, good, len);
	bad[0] = 'X';
	spit(bad, len);
	assert_int_equal(read_all(&err), PM_ERR_CORRUPT);
	/* a header whose raw length does not match the stored one */
	memcpy(bad, good, len);
	bad[8 + 8] ^= 1;
	spit(bad, len);
	assert_int_equal(read_all(&err), PM_ERR_CORRUPT);
	/* a row count larger than the block holds */
	memcpy(bad, good, len);
	bad[8 + 1] = 1;
	spit(bad, len);
	assert_int_equal(read_all(&err), PM_ERR_CORRUPT);
	/* damaged vector flags of the first column */
	memcpy(bad, good, len);
	bad[8 + 24] = 0x7f;
	spit(bad, len);
	assert_int_equal(read_all(&err), PM_ERR_CORRUPT);
	/* every single byte flipped: a clear error or the same shape, never a crash */
	for (size_t i = 8; i < len; i += 7)
	{
		memcpy(bad, good, len);
		bad[i] ^= 0xA5;
		spit(bad, len);
		(void) read_all(&err);
	}
	free(good);
	free(bad);
	unlink(path);
	assert_int_equal(read_all(&err), PM_ERR_NOT_FOUND);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_lz4),
		cmocka_unit_test(test_empty_run),
		cmocka_unit_test(test_corrupt),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
