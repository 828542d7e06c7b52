/*-------------------------------------------------------------------------
 * test_compact_pick.c
 *	  Universal compaction picking (lsm/compact_pick.c) against the cases
 *	  of Java 1.4.2's UniversalCompactionTest: output levels, size
 *	  amplification, size ratio, file num, no output to level 0, early full
 *	  compaction (interval, total size), ForceUpLevel0Compaction (radical
 *	  and gentle), plus the option parsing and the manager's filter.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/env.h"
#include "lsm/compact_pick.h"

#define MAXRUNS 32

static pm_compact_strategy
of_testing(int max_size_amp, int size_ratio, int trigger)
{
	pm_compact_strategy s;

	memset(&s, 0, sizeof(s));
	s.max_size_amp = max_size_amp;
	s.size_ratio = size_ratio;
	s.trigger = trigger;
	s.num_levels = trigger + 1;
	s.stop_trigger = trigger + 3;
	s.offpeak_start = s.offpeak_end = -1;
	s.full_interval_millis = s.total_size_threshold = s.incremental_size_threshold = -1;
	return s;
}

static void
runs_of(pm_compact_run *runs, const int *levels, const int64_t *sizes, int n)
{
	for (int i = 0; i < n; i++)
	{
		runs[i].level = levels != NULL ? levels[i] : 0;
		runs[i].size = sizes != NULL ? sizes[i] : 1;
		runs[i].nfiles = 1;
	}
}

/* pick with num_levels; the sizes of the picked runs summed, -1 if none */
static int64_t
pick(pm_compact_strategy *s, pm_compact_pick_state *st, int num_levels, const int *levels,
	 const int64_t *sizes, int n, int64_t now, pm_compact_unit *u)
{
	pm_compact_run runs[MAXRUNS];
	int64_t		total = 0;

	runs_of(runs, levels, sizes, n);
	s->num_levels = num_levels;
	if (!pm_compact_pick(s, st, runs, n, 12, now, u))
		return -1;
	for (int i = 0; i < u->nruns; i++)
		total += sizes[i];
	return total;
}

static void
test_output_level(void **state)
{
	pm_compact_strategy s = of_testing(25, 1, 3);
	pm_compact_pick_state st;
	pm_compact_run runs[5];
	int			levels[] = {0, 0, 1, 3, 4};
	int			want[] = {1, 1, 2, 3, 5};

	memset(&st, 0, sizeof(st));
	runs_of(runs, levels, NULL, 5);
	s.num_levels = 6;			/* createUnit(..., maxLevel 5, ...) */
	for (int c = 1; c <= 5; c++)
		assert_int_equal(pm_compact_create_unit(&s, &st, runs, 5, c).output_level, want[c - 1]);
}

static void
test_pick(void **state)
{
	pm_compact_strategy s = of_testing(25, 1, 3);
	pm_compact_pick_state st;
	pm_compact_unit u;

	memset(&st, 0, sizeof(st));
	/* by size amplification */
	assert_int_equal(pick(&s, &st, 3, NULL, (int64_t[]) {1, 2, 3, 3}, 4, 0, &u), 9);
	assert_int_equal(u.nruns, 4);
	assert_int_equal(u.output_level, 2);
	/* by size ratio */
	assert_int_equal(pick(&s, &st, 4, (int[]) {0, 1, 2, 3}, (int64_t[]) {1, 1, 1, 50}, 4, 0, &u), 3);
	assert_int_equal(u.nruns, 3);
	assert_int_equal(u.output_level, 2);
	/* by file num, extended by size ratio */
	assert_int_equal(pick(&s, &st, 4, (int[]) {0, 1, 2, 3}, (int64_t[]) {1, 2, 3, 50}, 4, 0, &u), 6);
	assert_int_equal(u.nruns, 3);
}

static void
test_no_output_level0(void **state)
{
	pm_compact_strategy s = of_testing(25, 1, 3);
	pm_compact_pick_state st;
	pm_compact_unit u;

	memset(&st, 0, sizeof(st));
	assert_int_equal(pick(&s, &st, 3, (int[]) {0, 0, 1, 2}, (int64_t[]) {1, 1, 1, 50}, 4, 0, &u), 3);
	assert_int_equal(u.output_level, 1);
	assert_int_equal(pick(&s, &st, 3, (int[]) {0, 0, 1, 2}, (int64_t[]) {1, 2, 3, 50}, 4, 0, &u), 6);
	assert_int_equal(u.output_level, 1);
	/* testExtremeCaseNoOutputLevel0 */
	s = of_testing(200, 1, 5);
	assert_int_equal(pick(&s, &st, 6, NULL, (int64_t[]) {1, 1, 1, 1024, 1024 * 1024}, 5, 0, &u),
					 3 + 1024 + 1024 * 1024);
	assert_int_equal(u.output_level, 5);
}

/* UniversalCompactionTest.appendAndPickForSizeAmp: a new run of size 1 each time */
static void
test_size_amplification(void **state)
{
	pm_compact_strategy s = of_testing(25, 0, 1);
	pm_compact_pick_state st;
	static const char *want[] = {"2", "3", "4", "1 4", "6", "1 6", "8", "1 8", "1 1 8", "11",
	"1 11", "1 1 11", "14", "1 14", "1 1 14", "1 1 1 14", "18"};
	int64_t		sizes[MAXRUNS] = {1};
	int			n = 1;

	memset(&st, 0, sizeof(st));
	s.num_levels = 4;
	for (int step = 0; step < (int) (sizeof(want) / sizeof(want[0])); step++)
	{
		pm_compact_run runs[MAXRUNS];
		pm_compact_unit u;
		char		got[128] = "";

		memmove(sizes + 1, sizes, sizeof(int64_t) * n);
		sizes[0] = 1;
		n++;
		runs_of(runs, NULL, sizes, n);
		if (pm_compact_pick_size_amp(&s, &st, runs, n, &u))
		{
			int64_t		total = 0;

			for (int i = 0; i < n; i++)
				total += sizes[i];
			sizes[0] = total;
			n = 1;
		}
		for (int i = 0; i < n; i++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), i ? " %lld" : "%lld",
					 (long long) sizes[i]);
		assert_string_equal(got, want[step]);
	}
}

/* UniversalCompactionTest.appendAndPickForSizeRatio (runs at levels 0, 1, 2, ...) */
static void
test_size_ratio(void **state)
{
	pm_compact_strategy s = of_testing(25, 1, 5);
	pm_compact_pick_state st;
	static const char *want[] = {"5", "1 5", "1 1 5", "1 1 1 5", "4 5", "1 4 5", "1 1 4 5",
		"3 4 5", "1 3 4 5", "2 3 4 5", "1 2 3 4 5", "16", "1 16", "1 1 16", "1 1 1 16",
		"4 16", "1 4 16", "1 1 4 16", "3 4 16", "1 3 4 16", "2 3 4 16", "1 2 3 4 16",
	"11 16"};
	int64_t		sizes[MAXRUNS] = {1, 1, 1, 1};
	int			n = 4;

	memset(&st, 0, sizeof(st));
	for (int step = 0; step < (int) (sizeof(want) / sizeof(want[0])); step++)
	{
		pm_compact_run runs[MAXRUNS];
		pm_compact_unit u;
		char		got[128] = "";

		memmove(sizes + 1, sizes, sizeof(int64_t) * n);
		sizes[0] = 1;
		n++;
		for (int i = 0; i < n; i++)
		{
			runs[i].level = i;
			runs[i].size = sizes[i];
			runs[i].nfiles = 1;
		}
		s.num_levels = n;
		if (n >= s.trigger && pm_compact_pick_size_ratio(&s, &st, runs, n, 1, false, 12, &u))
		{
			int64_t		total = 0;

			for (int i = 0; i < u.nruns; i++)
				total += sizes[i];
			memmove(sizes + 1, sizes + u.nruns, sizeof(int64_t) * (n - u.nruns));
			sizes[0] = total;
			n = n - u.nruns + 1;
		}
		for (int i = 0; i < n; i++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), i ? " %lld" : "%lld",
					 (long long) sizes[i]);
		assert_string_equal(got, want[step]);
	}
}

static void
test_size_ratio_threshold(void **state)
{
	pm_compact_strategy s10 = of_testing(25, 10, 2);
	pm_compact_strategy s20 = of_testing(25, 20, 2);
	pm_compact_pick_state st;
	pm_compact_run runs[3];
	pm_compact_unit u;

	memset(&st, 0, sizeof(st));
	runs_of(runs, (int[]) {0, 1, 2}, (int64_t[]) {8, 9, 10}, 3);
	s10.num_levels = s20.num_levels = 3;
	assert_false(pm_compact_pick_size_ratio(&s10, &st, runs, 3, 1, false, 12, &u));
	assert_true(pm_compact_pick_size_ratio(&s20, &st, runs, 3, 1, false, 12, &u));
	assert_int_equal(u.nruns, 3);
}

static void
test_optimized_interval(void **state)
{
	pm_compact_strategy s = of_testing(100, 1, 3);
	pm_compact_pick_state st;
	pm_compact_unit u;
	int			lv[] = {0, 1, 2};

	memset(&st, 0, sizeof(st));
	s.full_interval_millis = 1000;
	/* first time: full */
	assert_int_equal(pick(&s, &st, 3, lv, (int64_t[]) {1, 3, 5}, 3, 0, &u), 9);
	assert_int_equal(pick(&s, &st, 3, lv, (int64_t[]) {1, 3, 5}, 3, 1001, &u), 9);
	assert_int_equal(pick(&s, &st, 3, lv, (int64_t[]) {1, 3, 5}, 3, 1001, &u), -1);
	/* size amplification, which also counts as a full compaction */
	assert_int_equal(pick(&s, &st, 3, lv, (int64_t[]) {3, 3, 5}, 3, 1500, &u), 11);
	assert_int_equal(pick(&s, &st, 3, lv, (int64_t[]) {1, 3, 5}, 3, 2001, &u), -1);
}

static void
test_total_size_threshold(void **state)
{
	pm_compact_strategy s = of_testing(100, 1, 3);
	pm_compact_pick_state st;
	pm_compact_unit u;
	int			lv[] = {0, 1, 2};

	memset(&st, 0, sizeof(st));
	s.total_size_threshold = 10;
	assert_int_equal(pick(&s, &st, 3, lv, (int64_t[]) {1, 3, 5}, 3, 0, &u), 9);
	assert_int_equal(pick(&s, &st, 3, lv, (int64_t[]) {2, 6, 10}, 3, 0, &u), -1);
	assert_int_equal(pick(&s, &st, 3, (int[]) {3}, (int64_t[]) {5}, 1, 0, &u), -1);
}

static void
test_lookup(void **state)
{
	pm_compact_strategy s = of_testing(25, 1, 3);
	pm_compact_pick_state st;
	pm_compact_unit u;

	memset(&st, 0, sizeof(st));
	s.force_up_level0 = true;
	assert_int_equal(pick(&s, &st, 3, NULL, (int64_t[]) {1, 2, 2, 2}, 4, 0, &u), 7);
	assert_int_equal(u.output_level, 2);
	assert_int_equal(pick(&s, &st, 3, (int[]) {0, 1, 2}, (int64_t[]) {1, 2, 2}, 3, 0, &u), 5);
	assert_int_equal(u.output_level, 2);
	assert_int_equal(pick(&s, &st, 3, (int[]) {0, 2}, (int64_t[]) {1, 2}, 2, 0, &u), 1);
	assert_int_equal(u.output_level, 1);
	/* without the force: nothing */
	s.force_up_level0 = false;
	assert_int_equal(pick(&s, &st, 3, (int[]) {0, 2}, (int64_t[]) {1, 2}, 2, 0, &u), -1);
}

static void
test_force_pick_l0_gentle(void **state)
{
	pm_compact_strategy s = of_testing(25, 1, 5);
	pm_compact_pick_state st;
	pm_compact_unit u;

	memset(&st, 0, sizeof(st));
	s.force_up_level0 = true;
	s.lookup_max_interval = 5;
	for (int i = 1; i <= 5; i++)
	{
		int64_t		got = pick(&s, &st, 3, NULL, (int64_t[]) {1, 2, 2, 2}, 4, 0, &u);

		assert_int_equal(got, i == 5 ? 7 : -1);
	}
	assert_int_equal(u.output_level, 2);
	for (int i = 1; i <= 5; i++)
	{
		int64_t		got = pick(&s, &st, 3, (int[]) {0, 2}, (int64_t[]) {1, 2}, 2, 0, &u);

		assert_int_equal(got, i == 5 ? 1 : -1);
	}
	assert_int_equal(u.output_level, 1);
}

/* the manager drops a pick that leaves a single file at its own level */
static void
test_filter_and_offpeak(void **state)
{
	pm_compact_strategy s = of_testing(25, 1, 1);
	pm_compact_pick_state st;
	pm_compact_run one = {1, 100, 1};
	pm_compact_unit u;
	pm_compact_run runs[3];

	memset(&st, 0, sizeof(st));
	s.num_levels = 2;
	assert_false(pm_compact_pick(&s, &st, &one, 1, 12, 0, &u));
	/* off-peak hours widen the size ratio */
	s = of_testing(200, 0, 3);
	runs_of(runs, (int[]) {0, 1, 2}, (int64_t[]) {10, 15, 100}, 3);
	s.num_levels = 3;
	assert_false(pm_compact_pick_size_ratio(&s, &st, runs, 3, 1, false, 3, &u));
	s.offpeak_start = 22;
	s.offpeak_end = 6;
	s.offpeak_ratio = 60;
	assert_true(pm_compact_pick_size_ratio(&s, &st, runs, 3, 1, false, 3, &u));
	assert_int_equal(u.nruns, 2);
	assert_int_equal(u.output_level, 1);
	assert_false(pm_compact_pick_size_ratio(&s, &st, runs, 3, 1, false, 12, &u));
}

static void
test_parse(void **state)
{
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema	schema;
	pm_compact_strategy s;
	pm_error	err;
	const char *keys[] = {"num-sorted-run.compaction-trigger", "compaction.size-ratio",
	"compaction.optimization-interval", "force-lookup", "lookup-compact"};
	const char *vals[] = {"3", "7", "10 min", "true", "gentle"};

	memset(&schema, 0, sizeof(schema));
	assert_int_equal(pm_compact_strategy_parse(&schema, &s, &err), PM_OK);
	assert_int_equal(s.trigger, 5);
	assert_int_equal(s.num_levels, 6);
	assert_int_equal(s.stop_trigger, 8);
	assert_int_equal(s.max_size_amp, 200);
	assert_int_equal(s.size_ratio, 1);
	assert_false(s.force_up_level0);
	assert_false(s.write_only);
	schema.noptions = 5;
	schema.option_keys = keys;
	schema.option_values = vals;
	assert_int_equal(pm_compact_strategy_parse(&schema, &s, &err), PM_OK);
	assert_int_equal(s.trigger, 3);
	assert_int_equal(s.num_levels, 4);
	assert_int_equal(s.stop_trigger, 6);
	assert_int_equal(s.size_ratio, 7);
	assert_int_equal(s.full_interval_millis, 600000);
	assert_true(s.need_lookup);
	assert_true(s.force_up_level0);
	assert_int_equal(s.lookup_max_interval, 6);
	vals[0] = "x";
	assert_int_equal(pm_compact_strategy_parse(&schema, &s, &err), PM_ERR_INVALID);
	pm_arena_destroy(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_level),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_no_output_level0),
		cmocka_unit_test(test_size_amplification),
		cmocka_unit_test(test_size_ratio),
		cmocka_unit_test(test_size_ratio_threshold),
		cmocka_unit_test(test_optimized_interval),
		cmocka_unit_test(test_total_size_threshold),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_force_pick_l0_gentle),
		cmocka_unit_test(test_filter_and_offpeak),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
