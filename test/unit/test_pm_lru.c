/*-------------------------------------------------------------------------
 * test_pm_lru.c
 *	  The cache skeleton (common/pm_lru.h): get finds exactly the entry of
 *	  a key, also among colliding hashes; the least recently used go first
 *	  when the budget is exceeded (get and touch refresh); an entry larger
 *	  than the budget or a cache that is off frees what it is given;
 *	  remove, clear and budget 0 free every entry; counters.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdlib.h>

#include "common/pm_lru.h"

typedef struct int_entry
{
	pm_lru_node node;
	int			key;
} int_entry;

static int	live;				/* entries allocated and not yet freed */

static void
free_int(pm_lru_node *n)
{
	live--;
	free(n);
}

static bool
match_int(const pm_lru_node *n, const void *key)
{
	return ((const int_entry *) n)->key == *(const int *) key;
}

/* colliding hashes for keys of the same parity: chains of many entries */
static uint64_t
hash_int(int k, bool collide)
{
	return collide ? (uint64_t) (k & 1) : pm_lru_hash_bytes(PM_LRU_HASH_SEED, &k, sizeof(k));
}

static bool
put(pm_lru *l, int k, size_t charge, bool collide)
{
	int_entry  *e = calloc(1, sizeof(*e));

	live++;
	e->key = k;
	e->node.hash = hash_int(k, collide);
	e->node.charge = charge;
	return pm_lru_insert(l, &e->node);
}

static bool
has(pm_lru *l, int k, bool collide)
{
	int_entry  *e = (int_entry *) pm_lru_get(l, hash_int(k, collide), match_int, &k);

	return e != NULL && e->key == k;
}

static void
run_lru(bool collide)
{
	pm_lru		l = {.free_entry = free_int, .min_buckets = 4};
	pm_lru_stats st;
	int			k;

	live = 0;
	/* off: nothing held, the entry freed */
	assert_false(put(&l, 1, 10, collide));
	assert_int_equal(live, 0);
	assert_false(has(&l, 1, collide));
	pm_lru_set_budget(&l, 1000);
	for (int i = 0; i < 100; i++)
		assert_true(put(&l, i, 10, collide));
	pm_lru_get_stats(&l, &st);
	assert_int_equal(st.entries, 100);
	assert_int_equal(st.bytes, 1000);
	for (int i = 0; i < 100; i++)
		assert_true(has(&l, i, collide));
	assert_false(has(&l, 100, collide));
	assert_false(has(&l, -1, collide));
	/* refresh 0 (get) and 1 (touch): the next two inserts evict 2 and 3 */
	assert_true(has(&l, 0, collide));
	k = 1;
	pm_lru_touch(&l, pm_lru_peek(&l, hash_int(1, collide), match_int, &k));
	assert_true(put(&l, 200, 10, collide));
	assert_true(put(&l, 201, 10, collide));
	assert_true(has(&l, 0, collide));
	assert_true(has(&l, 1, collide));
	assert_false(has(&l, 2, collide));
	assert_false(has(&l, 3, collide));
	assert_true(has(&l, 4, collide));
	/* a big entry evicts as many as it needs */
	assert_true(put(&l, 300, 55, collide));
	pm_lru_get_stats(&l, &st);
	assert_true(st.bytes <= 1000);
	assert_int_equal(st.evictions, 2 + 6);
	assert_int_equal(live, st.entries);
	/* larger than the budget: refused and freed, nothing evicted */
	assert_false(put(&l, 301, 1001, collide));
	assert_int_equal(live, st.entries);
	/* remove one */
	k = 300;
	pm_lru_remove(&l, pm_lru_peek(&l, hash_int(300, collide), match_int, &k));
	assert_false(has(&l, 300, collide));
	assert_true(has(&l, 99, collide));
	/* shrink the budget: evicts down to it */
	pm_lru_set_budget(&l, 100);
	pm_lru_get_stats(&l, &st);
	assert_int_equal(st.entries, 10);
	assert_int_equal(live, 10);
	assert_true(has(&l, 99, collide));
	pm_lru_clear(&l);
	assert_int_equal(live, 0);
	assert_false(has(&l, 99, collide));
	assert_true(put(&l, 7, 10, collide));
	assert_true(has(&l, 7, collide));
	pm_lru_set_budget(&l, 0);
	assert_int_equal(live, 0);
	pm_lru_get_stats(&l, &st);
	assert_int_equal(st.entries, 0);
	assert_int_equal(st.bytes, 0);
	assert_true(st.hits > 100 && st.misses >= 5);
}

static void
test_lru_spread(void **state)
{
	(void) state;
	run_lru(false);
}

static void
test_lru_colliding(void **state)
{
	(void) state;
	run_lru(true);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_spread),
		cmocka_unit_test(test_lru_colliding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
