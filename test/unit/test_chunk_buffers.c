/*-------------------------------------------------------------------------
 * test_chunk_buffers.c
 *	  The reusable column chunk buffers (format/chunk_buffers.h): a slot
 *	  keeps its buffer while requests fit, grows past it, slots stay apart,
 *	  and slots beyond the first allocation are added.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "format/chunk_buffers.h"

static void
test_reuse_and_grow(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_chunk_buffers *pool = pm_chunk_buffers_create(arena);
	uint8_t    *a,
			   *b,
			   *c;

	(void) state;
	assert_non_null(pool);
	a = pm_chunk_buffers_get(pool, 0, 1000);
	assert_non_null(a);
	memset(a, 0xab, 1000);
	/* the same slot, a request that fits: the same buffer */
	assert_ptr_equal(pm_chunk_buffers_get(pool, 0, 1200), a);
	assert_ptr_equal(pm_chunk_buffers_get(pool, 0, 10), a);
	/* another slot: another buffer, wholly apart */
	b = pm_chunk_buffers_get(pool, 1, 1000);
	assert_non_null(b);
	assert_true(b + 1000 <= a || a + 1250 <= b);
	/* larger than the slot holds: a new buffer of the size asked */
	c = pm_chunk_buffers_get(pool, 0, 100000);
	assert_non_null(c);
	assert_ptr_not_equal(c, a);
	memset(c, 1, 100000);
	assert_ptr_equal(pm_chunk_buffers_get(pool, 0, 100000), c);
	/* slots far beyond the first ones, earlier slots kept */
	assert_non_null(pm_chunk_buffers_get(pool, 40, 16));
	assert_ptr_equal(pm_chunk_buffers_get(pool, 1, 500), b);
	assert_ptr_equal(pm_chunk_buffers_get(pool, 0, 99999), c);
	assert_null(pm_chunk_buffers_get(pool, -1, 16));
	/* the buffers are freed here (ASan reports a leak otherwise) */
	pm_chunk_buffers_destroy(pool);
	pm_chunk_buffers_destroy(NULL);
	pm_arena_destroy(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse_and_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
