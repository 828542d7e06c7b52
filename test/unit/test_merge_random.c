/*-------------------------------------------------------------------------
 * test_merge_random.c
 *	  The merge reader (its stretch, integer-key and column-gather fast
 *	  paths) against a naive reference merge (merge_fixture_next reference:
 *	  every record sorted, each key's records fed to the engine) on random
 *	  sorted runs: keys shared by several runs, equal sequence numbers,
 *	  every row kind, deletion-vector rows, NULL values, every merge
 *	  engine, sequence.field and sequence groups, lookup levels, INT,
 *	  BIGINT and STRING keys (the generic comparator), input and output
 *	  batches of every size, compaction output (_SEQUENCE_NUMBER,
 *	  _VALUE_KIND); a base run with ties against sparse runs.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge_fixture.h"

#define MAXRUNS 5
#define MAXRUNROWS 60

static uint64_t rng = 88172645463325252ULL;

static int
rnd(int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (int) (rng % (uint64_t) n);
}

static const char *const FIELDS = "{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},"
"{\"id\":2,\"name\":\"b\",\"type\":\"STRING\"},"
"{\"id\":3,\"name\":\"s\",\"type\":\"INT\"}";

static const char *const ENGINES[] = {
	"",
	"\"ignore-delete\":\"true\"",
	"\"sequence.field\":\"s\"",
	"\"sequence.field\":\"s\",\"sequence.field.sort-order\":\"descending\"",
	"\"merge-engine\":\"first-row\",\"ignore-delete\":\"true\"",
	"\"merge-engine\":\"partial-update\",\"ignore-delete\":\"true\"",
	"\"merge-engine\":\"partial-update\",\"fields.s.sequence-group\":\"a,b\"",
	"\"merge-engine\":\"aggregation\",\"fields.a.aggregate-function\":\"sum\","
	"\"fields.b.aggregate-function\":\"max\",\"fields.b.ignore-retract\":\"true\","
	"\"fields.s.aggregate-function\":\"min\",\"fields.s.ignore-retract\":\"true\"",
	NULL
};

static const char *const KEY_TYPES[] = {"INT NOT NULL", "BIGINT NOT NULL", "STRING NOT NULL"};

/* One random run: sorted distinct keys below nkeys, as fixture rows. */
static int
random_run(char rows[][64], int nkeys, int key_type, int *seq)
{
	static const char *const kinds[] = {"+I", "+I", "+I", "+I", "+U", "-U", "-D"};
	int			n = 0;
	int			density = 1 + rnd(4);	/* 1 of density keys */

	for (int k = 0; k < nkeys && n < MAXRUNROWS; k++)
	{
		char		key[32],
					a[16],
					b[16],
					s[16];

		if (rnd(density) != 0)
			continue;
		if (key_type == 2)
			snprintf(key, sizeof(key), "k%04d", k);
		else
			snprintf(key, sizeof(key), "%d", key_type == 1 ? k - 20 : k);
		snprintf(a, sizeof(a), rnd(6) == 0 ? "null" : "%d", rnd(100) - 50);
		snprintf(b, sizeof(b), rnd(6) == 0 ? "null" : "v%d", rnd(30));
		snprintf(s, sizeof(s), rnd(6) == 0 ? "null" : "%d", rnd(5));
		/* sequence numbers mostly growing, sometimes equal to another run's */
		*seq += rnd(3);
		snprintf(rows[n], 64, "%s%s|%d|%s|%s|%s|%s", rnd(10) == 0 ? "x" : "", key, *seq,
				 kinds[rnd(7)], a, b, s);
		n++;
	}
	return n;
}

static void
test_random_against_reference(void **state)
{
	int			compared = 0;

	for (int e = 0; ENGINES[e] != NULL; e++)
		for (int iter = 0; iter < 150; iter++)
		{
			static char rows[MAXRUNS][MAXRUNROWS][64];
			const char *rowp[MAXRUNS][MAXRUNROWS + 1];
			const char *const *runs[MAXRUNS + 1];
			int			levels[MAXRUNS];
			int			nruns = 1 + rnd(MAXRUNS);
			int			nkeys = 1 + rnd(40);
			int			key_type = rnd(3);
			bool		lookup = rnd(4) == 0;
			int			batch_rows = rnd(3) == 0 ? 0 : 1 + rnd(7);
			int			output_rows = rnd(3) == 0 ? 1024 : 1 + rnd(5);
			bool		kv = rnd(4) == 0;
			int			seq = 0;
			char		want[65536];
			const char *got;

			for (int r = 0; r < nruns; r++)
			{
				int			n = random_run(rows[r], nkeys, key_type, &seq);

				for (int i = 0; i < n; i++)
					rowp[r][i] = rows[r][i];
				rowp[r][n] = NULL;
				runs[r] = rowp[r];
				levels[r] = rnd(4);
				seq -= rnd(4);	/* the next run overlaps these sequence numbers */
				if (seq < 0)
					seq = 0;
			}
			runs[nruns] = NULL;

			if (lookup)
				merge_fixture_lookup_levels(levels);
			merge_fixture_next(true, KEY_TYPES[key_type], batch_rows, output_rows, kv);
			snprintf(want, sizeof(want), "%s",
					 merge_fixture_run(FIELDS, ENGINES[e], runs, NULL, 0, false));
			if (lookup)
				merge_fixture_lookup_levels(levels);
			merge_fixture_next(false, KEY_TYPES[key_type], batch_rows, output_rows, kv);
			got = merge_fixture_run(FIELDS, ENGINES[e], runs, NULL, 0, false);
			if (strcmp(got, want) != 0)
			{
				for (int r = 0; r < nruns; r++)
				{
					fprintf(stderr, "run %d (level %d):", r, levels[r]);
					for (int i = 0; rowp[r][i] != NULL; i++)
						fprintf(stderr, " %s", rowp[r][i]);
					fprintf(stderr, "\n");
				}
				fail_msg("options {%s} key %s lookup %d batch_rows %d output_rows %d kv %d\n"
						 "   got  %s\n   want %s", ENGINES[e], KEY_TYPES[key_type], lookup,
						 batch_rows, output_rows, kv, got, want);
			}
			compared += want[0] != '\0' && strncmp(want, "ERROR", 5) != 0;
		}
	/* the runs must mostly merge into rows, not errors or nothing */
	assert_true(compared > 800);
}

/*
 * A base run (compacted: every key) and sparse runs holding
 * some of its keys with the same sequence number: the later run wins the
 * tie, whichever of them is the base (the window merge's groups), with
 * and without ignore-delete, per input and output batch size.
 */
static void
test_base_run_ties(void **state)
{
	static char rows[3][40][64];
	const char *rowp[3][41];

	for (int order = 0; order < 2; order++)
		for (int e = 0; e < 2; e++)
			for (int batch_rows = 0; batch_rows < 8; batch_rows += 3)
				for (int output_rows = 1; output_rows <= 1024; output_rows *= 8)
				{
					const char *const *runs[4];
					char		want[8192];
					const char *got;
					int			n[3] = {0, 0, 0};
					int			base = order == 0 ? 0 : 2;

					for (int k = 0; k < 40; k++)
					{
						snprintf(rows[base][n[base]++], 64, "%d|5|+I|%d|base|1", k, k);
						if (k % 7 == 3)
							snprintf(rows[1][n[1]++], 64, "%d|5|%s|%d|mid|1", k,
									 k % 14 == 3 ? "-D" : "+U", 100 + k);
						if (k % 5 == 1)
							snprintf(rows[2 - base][n[2 - base]++], 64, "%d|%d|+I|%d|top|1", k,
									 k % 10 == 1 ? 5 : 4, 200 + k);
					}
					for (int r = 0; r < 3; r++)
					{
						for (int i = 0; i < n[r]; i++)
							rowp[r][i] = rows[r][i];
						rowp[r][n[r]] = NULL;
						runs[r] = rowp[r];
					}
					runs[3] = NULL;
					merge_fixture_next(true, "BIGINT NOT NULL", batch_rows, output_rows, false);
					snprintf(want, sizeof(want), "%s",
							 merge_fixture_run(FIELDS, ENGINES[e], runs, NULL, 0, false));
					merge_fixture_next(false, "BIGINT NOT NULL", batch_rows, output_rows, false);
					got = merge_fixture_run(FIELDS, ENGINES[e], runs, NULL, 0, false);
					/* base last: it wins every tie; base first: the others win theirs */
					assert_true((strstr(want, "top") != NULL) == (order == 0));
					assert_true((strstr(want, "mid") != NULL) == (order == 0));
					assert_string_equal(got, want);
				}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_base_run_ties),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
