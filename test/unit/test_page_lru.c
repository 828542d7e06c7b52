/*-------------------------------------------------------------------------
 * test_page_lru.c
 *	  The page cache (common/page_lru.h): a hit by (path, file size, offset)
 *	  hands out the stored header block and payload in place; another
 *	  offset, variant, path or size (a file of the same name written again) is a
 *	  miss; byte budget and LRU eviction; a pinned entry outlives its
 *	  eviction until unpinned; off at budget 0; an entry's aux block is set
 *	  once and freed with it.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "common/page_lru.h"

#define OUT 16000

static void
fill(uint8_t *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t) (i * 31 + (size_t) seed * 7 + (i >> 8));
}

static void
check_entry(pm_page_entry *e, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
			const char *meta, size_t span)
{
	size_t		len;
	const uint8_t *d;
	const char *m;

	assert_non_null(e);
	d = pm_page_entry_data(e, &len);
	assert_int_equal(len, alen + blen);
	assert_memory_equal(d, a, alen);
	if (blen > 0)
		assert_memory_equal(d + alen, b, blen);
	m = pm_page_entry_meta(e, &len);
	assert_int_equal(len, strlen(meta) + 1);
	assert_string_equal(m, meta);
	assert_int_equal(pm_page_entry_span(e), span);
}

static void
test_hit_and_miss(void **state)
{
	uint8_t    *out = malloc(OUT);
	pm_page_file f;
	pm_page_file same;
	pm_page_file resized;
	pm_page_file other;
	pm_page_entry *e;
	pm_page_lru_stats st;
	char		path[64];

	(void) state;
	fill(out, OUT, 2);
	pm_page_lru_set_budget(1 << 20);
	pm_page_file_init(&f, "/w/t/bucket-0/data-1.parquet", 5000);
	strcpy(path, "/w/t/bucket-0/data-1.parquet");
	pm_page_file_init(&same, path, 5000);
	pm_page_file_init(&resized, "/w/t/bucket-0/data-1.parquet", 5001);
	pm_page_file_init(&other, "/w/t/bucket-0/data-2.parquet", 5000);
	assert_null(pm_page_lru_pin(&f, 4, 0));
	pm_page_lru_store(&f, 4, 0, 700, "hdr", 4, out, 100, out + 100, OUT - 100);
	/* the same name and size (another string): a hit, the bytes in place */
	e = pm_page_lru_pin(&same, 4, 0);
	check_entry(e, out, 100, out + 100, OUT - 100, "hdr", 700);
	pm_page_lru_unpin(e);
	/* another offset, the same name of another size, another name: misses */
	assert_null(pm_page_lru_pin(&f, 5, 0));
	assert_null(pm_page_lru_pin(&f, 4, 1));	/* another form of the page */
	assert_null(pm_page_lru_pin(&resized, 4, 0));
	assert_null(pm_page_lru_pin(&other, 4, 0));
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 1);
	assert_int_equal(st.hits, 1);
	assert_int_equal(st.misses, 5);
	/* storing the same page again keeps the first */
	pm_page_lru_store(&f, 4, 0, 700, "xyz", 4, out + 1, 10, NULL, 0);
	e = pm_page_lru_pin(&f, 4, 0);
	check_entry(e, out, 100, out + 100, OUT - 100, "hdr", 700);
	pm_page_lru_unpin(e);
	/* the resized file's page is its own entry */
	pm_page_lru_store(&resized, 4, 0, 9, "r", 2, out + 5, 20, NULL, 0);
	e = pm_page_lru_pin(&resized, 4, 0);
	check_entry(e, out + 5, 20, NULL, 0, "r", 9);
	pm_page_lru_unpin(e);
	/* off: empty, nothing kept */
	pm_page_lru_set_budget(0);
	assert_false(pm_page_lru_enabled());
	pm_page_lru_store(&f, 4, 0, 700, "hdr", 4, out, OUT, NULL, 0);
	assert_null(pm_page_lru_pin(&f, 4, 0));
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 0);
	assert_int_equal(st.bytes, 0);
	free(out);
}

static void
test_budget_pins_and_lru(void **state)
{
	uint8_t    *out = malloc(OUT);
	pm_page_file f;
	pm_page_entry *pinned;
	pm_page_entry *e;
	pm_page_lru_stats st;
	size_t		one;

	(void) state;
	fill(out, OUT, 9);
	pm_page_file_init(&f, "data.parquet", 1 << 20);
	pm_page_lru_set_budget(1 << 20);
	pm_page_lru_store(&f, 0, 0, 10, "m", 2, out, OUT, NULL, 0);
	pm_page_lru_get_stats(&st);
	one = st.bytes;
	assert_true(one >= OUT && one < OUT + 512);
	/* room for three: the fourth evicts the least recently used */
	pm_page_lru_set_budget(one * 3 + one / 2);
	pm_page_lru_store(&f, 100, 0, 10, "m", 2, out, OUT, NULL, 0);
	pm_page_lru_store(&f, 200, 0, 10, "m", 2, out, OUT, NULL, 0);
	pinned = pm_page_lru_pin(&f, 0, 0);	/* 0 is newest now, and pinned */
	assert_non_null(pinned);
	pm_page_lru_store(&f, 300, 0, 10, "m", 2, out, OUT, NULL, 0);
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 3);
	assert_true(st.bytes <= st.budget);
	assert_int_equal(st.evictions, 1);
	assert_null(pm_page_lru_pin(&f, 100, 0));
	e = pm_page_lru_pin(&f, 200, 0);
	assert_non_null(e);
	pm_page_lru_unpin(e);
	/* a tiny budget evicts everything, the pinned page stays readable */
	pm_page_lru_set_budget(100);
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.entries, 0);
	assert_int_equal(st.bytes, 0);
	check_entry(pinned, out, OUT, NULL, 0, "m", 10);
	assert_null(pm_page_lru_pin(&f, 0, 0));
	pm_page_lru_unpin(pinned);	/* freed now (ASan would see a leak or a double free) */
	/* larger than the budget: not cached */
	pm_page_lru_store(&f, 400, 0, 10, "m", 2, out, OUT, NULL, 0);
	assert_null(pm_page_lru_pin(&f, 400, 0));
	/* pinned through budget 0 as well; its aux block set once, freed with it */
	pm_page_lru_set_budget(1 << 20);
	pm_page_lru_store(&f, 500, 0, 10, "m", 2, out, 64, NULL, 0);
	pinned = pm_page_lru_pin(&f, 500, 0);
	assert_null(pm_page_entry_aux(pinned));
	{
		char	   *aux = strdup("run index");
		char	   *again = strdup("another");

		assert_true(pm_page_entry_set_aux(pinned, aux));
		assert_false(pm_page_entry_set_aux(pinned, again));
		free(again);
		e = pm_page_lru_pin(&f, 500, 0);
		assert_ptr_equal(e, pinned);
		assert_string_equal(pm_page_entry_aux(e), "run index");
		pm_page_lru_unpin(e);
	}
	pm_page_lru_set_budget(0);
	check_entry(pinned, out, 64, NULL, 0, "m", 10);
	assert_string_equal(pm_page_entry_aux(pinned), "run index");
	pm_page_lru_unpin(pinned);	/* frees the aux block too (ASan: no leak) */
	/* many entries: the table grows, every one is found */
	pm_page_lru_set_budget(64 << 20);
	for (int i = 0; i < 3000; i++)
		pm_page_lru_store(&f, (int64_t) i * 8, 0, 8, "m", 2, (const uint8_t *) &i, sizeof(i),
						  NULL, 0);
	for (int i = 0; i < 3000; i++)
	{
		size_t		len;
		int			v = -1;

		e = pm_page_lru_pin(&f, (int64_t) i * 8, 0);
		assert_non_null(e);
		memcpy(&v, pm_page_entry_data(e, &len), sizeof(v));
		assert_int_equal(v, i);
		pm_page_lru_unpin(e);
	}
	pm_page_lru_set_budget(0);
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_and_miss),
		cmocka_unit_test(test_budget_pins_and_lru),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
