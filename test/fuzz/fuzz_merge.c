/*-------------------------------------------------------------------------
 * fuzz_merge.c
 *	  libFuzzer harness of the LSM merge: merge engines, aggregate
 *	  functions and the k-way merge reader over runs built from the input.
 *
 * Input: byte 0 picks a table option set (engine, sequence fields and
 * groups, aggregate functions); then runs of records, each record 8
 * bytes: key step, sequence number, kind, and value seeds for the columns
 * (INT, STRING, ARRAY<INT>, MAP<INT,INT>, DECIMAL, BOOLEAN, DOUBLE). Keys
 * increase within a run, as in real files.
 * Properties: no crash or leak; a merge either fails with an error code
 * and message or yields keys in strictly increasing order.
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_reader.h"
#include "common/vector_builder.h"
#include "table/schema.h"

#define NRUNS 4
#define NVAL 7

static const char *const option_sets[] = {
	"",
	"\"ignore-delete\":\"true\"",
	"\"sequence.field\":\"a\"",
	"\"sequence.field\":\"a,f\",\"sequence.field.sort-order\":\"descending\"",
	"\"merge-engine\":\"first-row\",\"ignore-delete\":\"true\"",
	"\"merge-engine\":\"partial-update\",\"ignore-delete\":\"true\"",
	"\"merge-engine\":\"partial-update\",\"partial-update.remove-record-on-delete\":\"true\"",
	("\"merge-engine\":\"partial-update\",\"fields.a.sequence-group\":\"b,c\",\"fields.f.sequence-group\":\"d,e\","
	"\"fields.c.aggregate-function\":\"collect\",\"fields.e.aggregate-function\":\"sum\","
	"\"partial-update.remove-record-on-sequence-group\":\"a\""),
	("\"merge-engine\":\"aggregation\",\"fields.a.aggregate-function\":\"sum\",\"fields.b.aggregate-function\":\"listagg\","
	"\"fields.c.aggregate-function\":\"collect\",\"fields.d.aggregate-function\":\"merge_map\","
	"\"fields.e.aggregate-function\":\"product\",\"fields.f.aggregate-function\":\"bool_or\","
	"\"fields.g.aggregate-function\":\"max\",\"fields.b.ignore-retract\":\"true\","
	"\"fields.f.ignore-retract\":\"true\",\"fields.g.ignore-retract\":\"true\""),
	("\"merge-engine\":\"aggregation\",\"fields.default-aggregate-function\":\"last_value\","
	"\"fields.c.aggregate-function\":\"collect\",\"fields.c.distinct\":\"true\","
	"\"fields.b.aggregate-function\":\"listagg\",\"fields.b.distinct\":\"true\","
	"\"aggregation.remove-record-on-delete\":\"true\""),
	("\"merge-engine\":\"aggregation\",\"fields.default-aggregate-function\":\"first_non_null_value\","
	"\"fields.a.aggregate-function\":\"min\",\"fields.e.aggregate-function\":\"sum\",\"fields.g.aggregate-function\":\"sum\""),
};

typedef struct fz_run
{
	pm_batch	batch;
	bool		given;
} fz_run;

static pm_code
run_next(void *state, pm_batch **batch, pm_error *err)
{
	fz_run	   *r = state;

	*batch = r->given ? NULL : &r->batch;
	r->given = true;
	return PM_OK;
}

/* Append the value for seed x of column type t (x & 7 == 0: NULL). */
static void
put_value(pm_vector_builder *b, const pm_type *t, uint8_t x, pm_arena *arena)
{
	pm_vector	one;
	pm_vector_builder ob;

	if ((x & 7) == 0 && t->nullable)
	{
		pm_vector_builder_append_null(b);
		return;
	}
	pm_vector_builder_init(&ob, &one, t, 1, arena);
	switch (t->id)
	{
		case PM_TYPE_INT:
			PM_VEC_VALUES(&one, int32_t)[0] = (int32_t) (x >> 3) - 8 + (x == 255 ? INT32_MAX - 40 : 0);
			one.length = 1;
			break;
		case PM_TYPE_DOUBLE:
			PM_VEC_VALUES(&one, double)[0] = (double) (x >> 3) / 4.0;
			one.length = 1;
			break;
		case PM_TYPE_BOOLEAN:
			PM_VEC_VALUES(&one, uint8_t)[0] = x >> 7;
			one.length = 1;
			break;
		case PM_TYPE_DECIMAL:
			PM_VEC_VALUES(&one, pm_int128)[0] = ((pm_int128) (x >> 3) - 4) * 125;
			one.length = 1;
			break;
		case PM_TYPE_VARCHAR:
			{
				static const char *const words[] = {"a", "b,c", " ", "", "a,b", ",", "zz", "c"};

				pm_vector_builder_append_bytes(&ob, words[(x >> 3) & 7],
											   (int32_t) strlen(words[(x >> 3) & 7]));
				break;
			}
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
			{
				int			n = (x >> 3) & 3;

				for (int i = 0; i < n; i++)
				{
					pm_vector	e;
					pm_vector_builder eb;

					pm_vector_builder_init(&eb, &e, one.children[0].type, 1, arena);
					PM_VEC_VALUES(&e, int32_t)[0] = (x >> (2 + i)) & 3;
					e.length = 1;
					e.nulls[0] = 0;
					pm_vector_builder_append(&ob.children[0], &e, 0);
					if (t->id == PM_TYPE_MAP)
					{
						PM_VEC_VALUES(&e, int32_t)[0] = x + i;
						pm_vector_builder_append(&ob.children[1], &e, 0);
					}
				}
				one.nulls[0] = 0;
				one.offsets[0] = 0;
				one.offsets[1] = n;
				one.length = 1;
				break;
			}
		default:
			break;
	}
	if (one.length == 1 && one.nulls != NULL)
		one.nulls[0] = 0;
	pm_vector_builder_append(b, &one, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pm_arena   *arena;
	pm_schema  *schema;
	pm_error	err;
	char		json[4096];
	int			all[NVAL + 1],
			   *read_fields,
				nread;
	pm_merge_engine *engine = NULL;
	pm_merge_reader *reader = NULL;
	pm_run_source sources[NRUNS];
	fz_run		runs[NRUNS];
	const pm_type *out_types[NVAL + 1];
	size_t		pos = 1;
	int			nruns = 0;
	pm_type    *bigint,
			   *tinyint;

	if (size < 1)
		return 0;
	arena = pm_arena_create(pm_env_default());
	pm_error_clear(&err);
	snprintf(json, sizeof(json),
			 "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"k\",\"type\":\"INT NOT NULL\"},"
			 "{\"id\":1,\"name\":\"a\",\"type\":\"INT\"},{\"id\":2,\"name\":\"b\",\"type\":\"STRING\"},"
			 "{\"id\":3,\"name\":\"c\",\"type\":\"ARRAY<INT>\"},{\"id\":4,\"name\":\"d\",\"type\":\"MAP<INT, INT>\"},"
			 "{\"id\":5,\"name\":\"e\",\"type\":\"DECIMAL(10, 2)\"},{\"id\":6,\"name\":\"f\",\"type\":\"BOOLEAN\"},"
			 "{\"id\":7,\"name\":\"g\",\"type\":\"DOUBLE\"}],"
			 "\"highestFieldId\":7,\"partitionKeys\":[],\"primaryKeys\":[\"k\"],\"options\":{%s},\"timeMillis\":0}",
			 option_sets[data[0] % (sizeof(option_sets) / sizeof(option_sets[0]))]);
	if (pm_schema_parse(json, strlen(json), arena, &schema, &err) != PM_OK)
		abort();
	for (int i = 0; i <= NVAL; i++)
		all[i] = i;
	if (pm_merge_engine_read_fields(schema, all, NVAL + 1, arena, &read_fields, &nread, &err) != PM_OK ||
		pm_merge_engine_create(schema, read_fields, nread, 3, arena, &engine, &err) != PM_OK)
		abort();				/* every option set is valid */
	for (int i = 0; i <= NVAL; i++)
		out_types[i] = schema->row_type->fields[i].type;
	bigint = pm_type_new(arena, PM_TYPE_BIGINT, false);
	tinyint = pm_type_new(arena, PM_TYPE_TINYINT, false);

	/* runs separated by a 0xff byte; records of 8 bytes */
	while (pos < size && nruns < NRUNS)
	{
		pm_batch   *b = &runs[nruns].batch;
		pm_vector_builder bld[3 + NVAL + 1];
		int32_t		key = 0;

		memset(&runs[nruns], 0, sizeof(runs[nruns]));
		b->ncols = 3 + nread;
		b->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * (size_t) b->ncols);
		pm_vector_builder_init(&bld[0], &b->cols[0], out_types[0], 4, arena);
		pm_vector_builder_init(&bld[1], &b->cols[1], bigint, 4, arena);
		pm_vector_builder_init(&bld[2], &b->cols[2], tinyint, 4, arena);
		for (int j = 0; j < nread; j++)
			pm_vector_builder_init(&bld[3 + j], &b->cols[3 + j], out_types[read_fields[j]], 4, arena);
		while (pos + 8 <= size && data[pos] != 0xff)
		{
			const uint8_t *r = data + pos;
			pm_vector	one;
			pm_vector_builder ob;

			key += 1 + (r[0] & 3);
			pm_vector_builder_init(&ob, &one, out_types[0], 1, arena);
			PM_VEC_VALUES(&one, int32_t)[0] = key;
			one.length = 1;
			pm_vector_builder_append(&bld[0], &one, 0);
			pm_vector_builder_init(&ob, &one, bigint, 1, arena);
			PM_VEC_VALUES(&one, int64_t)[0] = r[1] >> 2;
			one.length = 1;
			pm_vector_builder_append(&bld[1], &one, 0);
			pm_vector_builder_init(&ob, &one, tinyint, 1, arena);
			PM_VEC_VALUES(&one, int8_t)[0] = (int8_t) (r[1] & 3);
			one.length = 1;
			pm_vector_builder_append(&bld[2], &one, 0);
			for (int j = 0; j < nread; j++)
			{
				if (read_fields[j] == 0)
					pm_vector_builder_append(&bld[3 + j], &b->cols[0], b->nrows);
				else
					put_value(&bld[3 + j], out_types[read_fields[j]],
							  (uint8_t) (r[1 + (read_fields[j] % 7)] * 31 + r[0] + read_fields[j]), arena);
			}
			b->nrows++;
			pos += 8;
		}
		pos++;
		sources[nruns].next = run_next;
		sources[nruns].close = NULL;
		sources[nruns].state = &runs[nruns];
		sources[nruns].dv = NULL;
		nruns++;
	}
	if (pm_merge_reader_open(pm_env_default(), engine, 1, out_types, NVAL + 1, sources, nruns,
							 3, &reader, &err) == PM_OK)
	{
		int64_t		last = INT64_MIN;

		for (;;)
		{
			pm_batch   *b;

			if (pm_merge_reader_next(reader, &b, &err) != PM_OK)
			{
				if (err.code == PM_OK || err.message[0] == '\0')
					abort();
				break;
			}
			if (b == NULL)
				break;
			for (int64_t i = 0; i < b->nrows; i++)
			{
				int32_t		k = PM_VEC_VALUES(&b->cols[0], int32_t)[i];

				if (k <= last)
					abort();
				last = k;
			}
		}
	}
	pm_merge_reader_close(reader);
	pm_merge_engine_destroy(engine);
	pm_arena_destroy(arena);
	return 0;
}
