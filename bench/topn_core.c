/*-------------------------------------------------------------------------
 * topn_core.c
 *	  ORDER BY <field> [DESC] LIMIT n through the core alone (no Postgres):
 *	  every field of a table read into a top-N (table/scan_topn.h) as the
 *	  FDW's pushed top-N reads it (row-group skipping by statistics), with
 *	  late materialization (pm_scan_set_row_keep) off and on in alternating
 *	  rounds; prints the process CPU time of each and a checksum of the
 *	  rows kept (the two must agree).
 *
 *	  usage: topn_core TABLE_PATH FIELD desc|asc LIMIT ROUNDS
 *	  (environment TOPN_LATE_ONLY set: the late rounds only, for perf)
 *	  build: see bench/README.md, "Top-N pushdown and row-group parallelism".
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <strings.h>

#include "lsm/table_read.h"
#include "table/scan_topn.h"

#include "core_common.h"

typedef struct run_ctx
{
	pm_topn    *topn;
	int			key_field;
	int64_t		offered;
} run_ctx;

static bool
part_may_enter(void *ctx, const pm_field_range *ranges, int nfields)
{
	run_ctx    *c = ctx;

	return c->key_field >= nfields || pm_topn_part_may_enter(c->topn, &ranges[c->key_field]);
}

static void
row_may_enter(void *ctx, const pm_vector *values, int64_t nrows, uint8_t *sel)
{
	(void) pm_topn_filter_first_key(((run_ctx *) ctx)->topn, values, nrows, sel);
}

static int
run(pm_table *t, int key_field, bool desc, int64_t limit, bool late, unsigned long long *ck,
	int64_t *offered)
{
	const pm_type *row = pm_table_schema(t)->row_type;
	const pm_type *types[256];
	int			fields[256];
	int			n = row->nfields;
	pm_topn_key key = {0, desc, !desc};	/* Postgres' defaults */
	run_ctx		c = {NULL, key_field, 0};
	pm_scan    *scan;
	pm_table_read *read;
	pm_batch   *b;
	const pm_batch *res;
	pm_error	err;

	pm_error_clear(&err);
	/* the key first, then the others, as the FDW orders its batch columns */
	fields[0] = key_field;
	types[0] = row->fields[key_field].type;
	for (int f = 0, i = 1; f < n; f++)
		if (f != key_field)
		{
			fields[i] = f;
			types[i++] = row->fields[f].type;
		}
	if (pm_topn_create(pm_env_default(), types, n, &key, 1, limit, &c.topn, &err) != PM_OK ||
		pm_table_scan_plan(t, NULL, &scan, &err) != PM_OK)
		goto fail;
	pm_scan_set_part_keep(scan, part_may_enter, &c);
	if (late)
		pm_scan_set_row_keep(scan, key_field, row_may_enter, &c);
	if (pm_table_read_open(scan, fields, n, &read, &err) != PM_OK)
		goto fail;
	for (;;)
	{
		if (pm_table_read_next(read, &b, &err) != PM_OK)
			goto fail;
		if (b == NULL)
			break;
		c.offered += b->nrows;
		if (pm_topn_add(c.topn, b, NULL, &err) != PM_OK)
			goto fail;
	}
	pm_table_read_close(read);
	if (pm_topn_result(c.topn, &res, &err) != PM_OK)
		goto fail;
	*ck = bench_checksum_rows(0, res);
	*offered = c.offered;
	pm_topn_free(c.topn);
	pm_scan_free(scan);
	return 0;
fail:
	fprintf(stderr, "error: %s\n", err.message);
	return 1;
}

int
main(int argc, char **argv)
{
	pm_error	err;
	pm_table   *t;
	pm_fileio  *io = pm_local_fileio_create(pm_env_default());
	int			key_field;

	if (argc != 6)
	{
		fprintf(stderr, "usage: %s TABLE_PATH FIELD desc|asc LIMIT ROUNDS\n", argv[0]);
		return 2;
	}
	if (bench_open(io, argv[1], &t, NULL, &err) != PM_OK)
	{
		fprintf(stderr, "error: %s\n", err.message);
		return 1;
	}
	key_field = pm_type_field_index(pm_table_schema(t)->row_type, argv[2]);
	if (key_field < 0 || pm_table_schema(t)->row_type->nfields > 256)
	{
		fprintf(stderr, "no field %s (or more than 256)\n", argv[2]);
		return 2;
	}
	for (int round = 0; round < atoi(argv[5]); round++)
		for (int late = getenv("TOPN_LATE_ONLY") != NULL; late <= 1; late++)
		{
			unsigned long long ck;
			int64_t		offered;
			double		t0 = bench_cpu_ms(RUSAGE_SELF);

			if (run(t, key_field, strcasecmp(argv[3], "desc") == 0, atoll(argv[4]), late,
					&ck, &offered) != 0)
				return 1;
			printf("round %d late %s: %8.1f CPU ms, %lld rows decoded whole, checksum %llx\n",
				   round, late ? "on " : "off", bench_cpu_ms(RUSAGE_SELF) - t0, (long long) offered, ck);
		}
	return 0;
}
