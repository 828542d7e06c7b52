/*-------------------------------------------------------------------------
 * pk_merge_core.c
 *	  The merge read of a primary-key table through the core alone (no
 *	  Postgres): pm_table_read over every split, one process; prints per
 *	  pass the CPU time of the process, the rows read and a checksum of the
 *	  rows (a sum of per-row hashes: compare builds with it).
 *
 *	  usage: pk_merge_core TABLE_PATH PASSES [FIELD...]
 *	  (no FIELD: every field; PK_NO_CHECKSUM=1 in the environment: no
 *	  checksum, for profiling the read alone; PK_RAW=1: every data file
 *	  read in the merge's layout (keys, _SEQUENCE_NUMBER and _VALUE_KIND
 *	  where the merge reads them, the fields) and nothing merged: what the
 *	  merge read costs before merging, its floor; PK_KEY_ORDER=1: the read
 *	  in key order, pm_table_read_open_ordered)
 *	  build: see bench/README.md, "Primary-key merge read".
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>

#include "lsm/table_read.h"
#include "table/split.h"

#include "core_common.h"

static unsigned long long
checksum(const pm_batch *b)
{
	unsigned long long ck = 0;

	for (int64_t r = 0; r < b->nrows; r++)
	{
		unsigned long long h = 17;

		for (int c = 0; c < b->ncols; c++)
		{
			bool		null;

			h = h * 1000003 + (unsigned long long) c;
			(void) bench_hash_value(&b->cols[c], r, &h, &null);
		}
		ck += h;				/* a sum: the same whatever the batches */
	}
	return ck;
}

static double
cpu_s(void)
{
	return bench_cpu_ms(RUSAGE_SELF) / 1e3;
}

int
main(int argc, char **argv)
{
	const pm_env *env = pm_env_default();
	pm_fileio  *io = pm_local_fileio_create(env);
	pm_table_open_options o = {0};
	pm_error	err;
	int			fields[64];
	int			nf = 0;
	int			passes;
	bool		with_ck = getenv("PK_NO_CHECKSUM") == NULL;
	bool		raw = getenv("PK_RAW") != NULL;
	bool		key_order = getenv("PK_KEY_ORDER") != NULL;

	if (argc < 3)
	{
		fprintf(stderr, "usage: %s TABLE_PATH PASSES [FIELD...]\n", argv[0]);
		return 2;
	}
	passes = atoi(argv[2]);
	pm_error_clear(&err);
	for (int p = 0; p < passes; p++)
	{
		pm_table   *table;
		pm_scan    *scan;
		pm_table_read *rd;
		pm_batch   *b;
		const pm_type *row;
		int64_t		rows = 0;
		unsigned long long ck = 0;
		double		c0 = cpu_s();

		if (pm_table_open(env, io, argv[1], &o, &table, &err) != PM_OK ||
			pm_table_scan_plan(table, NULL, &scan, &err) != PM_OK)
			goto fail;
		row = pm_table_schema(table)->row_type;
		nf = 0;
		for (int i = 3; i < argc && nf < 64; i++)
			if ((fields[nf++] = pm_type_field_index(row, argv[i])) < 0)
			{
				fprintf(stderr, "no field %s\n", argv[i]);
				return 1;
			}
		if (argc == 3)
			for (int i = 0; i < row->nfields && nf < 64; i++)
				fields[nf++] = i;
		/* raw: the files as the merge reads them, with keys not asked for as values */
		for (int s = 0; raw && s < pm_scan_split_count(scan); s++)
		{
			const pm_split *sp = pm_scan_get_split(scan, s);
			const int  *keys;
			int			nkeys;
			int			vf[64];
			int			nvf = 0;
			bool		disjoint = true;	/* as table_read.c's sequences_disjoint */

			pm_table_trimmed_primary_key(table, &keys, &nkeys);
			for (int i = 0; i < nf; i++)
			{
				bool		key = false;

				for (int k = 0; k < nkeys; k++)
					key |= keys[k] == fields[i];
				if (!key)
					vf[nvf++] = fields[i];
			}
			for (int i = 0; i < sp->nfiles; i++)
				for (int j = i + 1; j < sp->nfiles; j++)
					disjoint &= sp->files[i]->min_sequence_number > sp->files[j]->max_sequence_number ||
						sp->files[j]->min_sequence_number > sp->files[i]->max_sequence_number;
			for (int i = 0; i < sp->nfiles; i++)
			{
				pm_data_file_reader *fr;
				int			flags = (disjoint ? PM_KV_SEQUENCE_FROM_FILE : 0) |
					(sp->files[i]->delete_row_count == 0 ? PM_KV_KIND_INSERT : 0);

				if (pm_data_file_reader_open_kv(table, sp->files[i], vf, nvf, flags, NULL, &fr,
												&err) != PM_OK)
					goto fail;
				for (;;)
				{
					if (pm_data_file_reader_next(fr, &b, &err) != PM_OK)
						goto fail;
					if (b == NULL)
						break;
					rows += b->nrows;
				}
				pm_data_file_reader_close(fr);
			}
		}
		if (raw)
		{
			pm_scan_free(scan);
			pm_table_close(table);
			printf("pass %d: cpu %.3f s, rows %lld (raw, nothing merged)\n", p + 1,
				   cpu_s() - c0, (long long) rows);
			continue;
		}
		if ((key_order ? pm_table_read_open_ordered(scan, fields, nf, &rd, &err) :
			 pm_table_read_open(scan, fields, nf, &rd, &err)) != PM_OK)
			goto fail;
		for (;;)
		{
			if (pm_table_read_next(rd, &b, &err) != PM_OK)
				goto fail;
			if (b == NULL)
				break;
			rows += b->nrows;
			if (with_ck)
				ck += checksum(b);
		}
		pm_table_read_close(rd);
		pm_scan_free(scan);
		pm_table_close(table);
		printf("pass %d: cpu %.3f s, rows %lld, checksum %016llx\n", p + 1, cpu_s() - c0,
			   (long long) rows, ck);
	}
	return 0;
fail:
	fprintf(stderr, "error: %s\n", err.message);
	return 1;
}
