/*-------------------------------------------------------------------------
 * agg_core.c
 *	  An aggregate query through the core alone (no Postgres): the columns
 *	  read as the FDW's pushed aggregate reads them (table_read) into a
 *	  hash aggregation (table/scan_aggregate.h), ROUNDS times; prints the
 *	  process CPU time of each round and the groups. For perf and for
 *	  before/after builds of the decoding and aggregation loops.
 *
 *	  usage: agg_core TABLE_PATH ROUNDS KEY|- KIND:FIELD...
 *	  KIND is a pm_agg_kind number (0 count(*), 1 count, 2 sum, 3 avg,
 *	  4 min, 5 max); FIELD is ignored for count(*). E.g. sum(a):
 *	  agg_core DIR 10 - 2:a; a, count(*), sum(c) GROUP BY a:
 *	  agg_core DIR 10 a 0:- 2:c
 *	  build: see bench/README.md, "Timing like DuckDB, and the decoding
 *	  loops of the pushed sums".
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/env.h"
#include "io/fileio.h"
#include "lsm/table_read.h"
#include "table/scan_aggregate.h"
#include "table/table.h"

#define MAX_COLS 16

static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
field_of(const pm_type *row, const char *name)
{
	int			f = pm_type_field_index(row, name);

	if (f < 0)
	{
		fprintf(stderr, "no field %s\n", name);
		exit(2);
	}
	return f;
}

int
main(int argc, char **argv)
{
	pm_table_open_options opts;
	pm_error	err;
	pm_table   *t;
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	const pm_type *row;
	int			fields[MAX_COLS];
	const pm_type *types[MAX_COLS];
	pm_agg_spec specs[MAX_COLS];
	int			nf = 0,
				na = 0,
				nkeys = 0,
				keycol = 0;

	if (argc < 5 || argc - 4 > MAX_COLS - 1)
	{
		fprintf(stderr, "usage: %s TABLE_PATH ROUNDS KEY|- KIND:FIELD...\n", argv[0]);
		return 2;
	}
	memset(&opts, 0, sizeof(opts));
	pm_error_clear(&err);
	if (pm_table_open(pm_env_default(), io, argv[1], &opts, &t, &err) != PM_OK)
		goto fail;
	row = pm_table_schema(t)->row_type;
	if (strcmp(argv[3], "-") != 0)
	{
		fields[nf] = field_of(row, argv[3]);
		types[nf] = row->fields[fields[nf]].type;
		nf++;
		nkeys = 1;
	}
	for (int i = 4; i < argc; i++)
	{
		const char *colon = strchr(argv[i], ':');

		memset(&specs[na], 0, sizeof(specs[na]));
		specs[na].kind = (pm_agg_kind) atoi(argv[i]);
		if (specs[na].kind != PM_AGG_COUNT_STAR)
		{
			if (colon == NULL)
			{
				fprintf(stderr, "bad aggregate %s (KIND:FIELD)\n", argv[i]);
				return 2;
			}
			fields[nf] = field_of(row, colon + 1);
			types[nf] = row->fields[fields[nf]].type;
			specs[na].column = nf++;
		}
		na++;
	}
	for (int round = 0; round < atoi(argv[2]); round++)
	{
		double		t0 = cpu_ms();
		pm_scan    *scan;
		pm_table_read *read;
		pm_batch   *b;
		pm_hash_agg *agg;

		if (pm_hash_agg_create(pm_env_default(), types, nkeys, &keycol, na, specs, INT64_MAX,
							   &agg, &err) != PM_OK ||
			pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK ||
			pm_table_read_open(scan, fields, nf, &read, &err) != PM_OK)
			goto fail;
		for (;;)
		{
			if (pm_table_read_next(read, &b, &err) != PM_OK)
				goto fail;
			if (b == NULL)
				break;
			if (pm_hash_agg_add(agg, b, NULL, &err) != PM_OK)
				goto fail;
		}
		pm_table_read_close(read);
		printf("round %d: %8.1f CPU ms, %lld groups, first state n=%lld v=%lld\n", round,
			   cpu_ms() - t0, (long long) pm_hash_agg_ngroups(agg),
			   (long long) pm_hash_agg_state(agg, 0, 0)->n,
			   (long long) pm_hash_agg_state(agg, 0, 0)->v.i64);
		pm_hash_agg_free(agg);
		pm_scan_free(scan);
	}
	return 0;
fail:
	fprintf(stderr, "error: %s\n", err.message);
	return 1;
}
