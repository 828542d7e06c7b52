/*-------------------------------------------------------------------------
 * test_page_lru.c
 *	  The page cache (common/page_lru.h): a hit returns exactly the bytes
 *	  stored for the same codec and compressed bytes, and nothing for bytes
 *	  that differ anywhere (also where the hash does not look); byte budget
 *	  and LRU eviction; off at budget 0.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "common/page_lru.h"

#define N 4000
#define OUT 16000

static void
fill(uint8_t *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t) (i * 31 + (size_t) seed * 7 + (i >> 8));
}

static void
test_exact_key(void **state)
{
	uint8_t    *src = malloc(N);
	uint8_t    *out = malloc(OUT);
	uint8_t    *got = malloc(OUT);
	pm_page_lru_stats st;

	(void) state;
	fill(src, N, 1);
	fill(out, OUT, 2);
	pm_page_lru_set_budget(1 << 20);
	assert_false(pm_page_lru_fetch(3, src, N, got, OUT));
	pm_page_lru_store(3, src, N, out, OUT);
	memset(got, 0, OUT);
	assert_true(pm_page_lru_fetch(3, src, N, got, OUT));
	assert_memory_equal(got, out, OUT);
	/* another codec, another length, another decompressed length: misses */
	assert_false(pm_page_lru_fetch(4, src, N, got, OUT));
	assert_false(pm_page_lru_fetch(3, src, N - 1, got, OUT));
	assert_false(pm_page_lru_fetch(3, src, N, got, OUT - 1));
	/* one byte changed, wherever (the hash samples only some words): a miss */
	for (size_t at = 0; at < N; at += 13)
	{
		src[at] ^= 0x40;
		assert_false(pm_page_lru_fetch(3, src, N, got, OUT));
		src[at] ^= 0x40;
	}
	assert_true(pm_page_lru_fetch(3, src, N, got, OUT));
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 1);
	assert_int_equal(st.hits, 2);
	/* tiny pages too */
	pm_page_lru_store(3, src, 5, out, 7);
	assert_true(pm_page_lru_fetch(3, src, 5, got, 7));
	assert_memory_equal(got, out, 7);
	src[4] ^= 1;
	assert_false(pm_page_lru_fetch(3, src, 5, got, 7));
	/* off: empty, nothing kept */
	pm_page_lru_set_budget(0);
	assert_false(pm_page_lru_enabled());
	pm_page_lru_store(3, src, N, out, OUT);
	assert_false(pm_page_lru_fetch(3, src, N, got, OUT));
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 0);
	assert_int_equal(st.bytes, 0);
	free(src);
	free(out);
	free(got);
}

static void
test_budget_and_lru(void **state)
{
	uint8_t    *src[5];
	uint8_t    *out = malloc(OUT);
	uint8_t    *got = malloc(OUT);
	pm_page_lru_stats st;
	size_t		one;

	(void) state;
	fill(out, OUT, 9);
	for (int i = 0; i < 5; i++)
	{
		src[i] = malloc(N);
		fill(src[i], N, 100 + i);
	}
	pm_page_lru_set_budget(1 << 20);
	pm_page_lru_store(1, src[0], N, out, OUT);
	pm_page_lru_get_stats(&st);
	one = st.bytes;
	assert_true(one >= N + OUT && one < N + OUT + 256);
	/* room for three: the fourth evicts the least recently used */
	pm_page_lru_set_budget(one * 3 + one / 2);
	pm_page_lru_store(1, src[1], N, out, OUT);
	pm_page_lru_store(1, src[2], N, out, OUT);
	assert_true(pm_page_lru_fetch(1, src[0], N, got, OUT));	/* 0 is newest now */
	pm_page_lru_store(1, src[3], N, out, OUT);
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 3);
	assert_true(st.bytes <= st.budget);
	assert_int_equal(st.evictions, 1);
	assert_false(pm_page_lru_fetch(1, src[1], N, got, OUT));
	assert_true(pm_page_lru_fetch(1, src[0], N, got, OUT));
	assert_true(pm_page_lru_fetch(1, src[2], N, got, OUT));
	assert_true(pm_page_lru_fetch(1, src[3], N, got, OUT));
	/* storing what is held again keeps one entry */
	pm_page_lru_store(1, src[3], N, out, OUT);
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 3);
	/* larger than the budget: not cached, nothing evicted */
	pm_page_lru_set_budget(one + one / 2);
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 1);
	pm_page_lru_set_budget(100);
	pm_page_lru_store(1, src[4], N, out, OUT);
	assert_false(pm_page_lru_fetch(1, src[4], N, got, OUT));
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 0);
	/* many entries: the table grows, every one is found */
	pm_page_lru_set_budget(64 << 20);
	for (int i = 0; i < 3000; i++)
	{
		uint8_t		s[16];

		memset(s, 0, sizeof(s));
		memcpy(s, &i, sizeof(i));
		pm_page_lru_store(2, s, sizeof(s), (const uint8_t *) &i, sizeof(i));
	}
	for (int i = 0; i < 3000; i++)
	{
		uint8_t		s[16];
		int			v = -1;

		memset(s, 0, sizeof(s));
		memcpy(s, &i, sizeof(i));
		assert_true(pm_page_lru_fetch(2, s, sizeof(s), (uint8_t *) &v, sizeof(v)));
		assert_int_equal(v, i);
	}
	pm_page_lru_set_budget(0);
	for (int i = 0; i < 5; i++)
		free(src[i]);
	free(out);
	free(got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_key),
		cmocka_unit_test(test_budget_and_lru),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
