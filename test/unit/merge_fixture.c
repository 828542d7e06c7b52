/*-------------------------------------------------------------------------
 * merge_fixture.c
 *	  Hand-built runs for the merge tests (see merge_fixture.h).
 *-------------------------------------------------------------------------
 */
#include "merge_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_reader.h"
#include "common/vector_builder.h"

#define MAXCOLS 16
#define MAXROWS 64

typedef struct fixture_run
{
	int			nbatches;
	pm_batch	batches[MAXROWS];
	int			next;
} fixture_run;

static pm_code
run_next(void *state, pm_batch **batch, pm_error *err)
{
	fixture_run *r = state;

	*batch = r->next < r->nbatches ? &r->batches[r->next++] : NULL;
	return PM_OK;
}

/* Append text value s (up to its end) of type t to builder b. */
static const char *
parse_value(pm_vector_builder *b, const pm_type *t, const char *s, pm_arena *arena);

static const char *
skip_token(const char *s)
{
	int			depth = 0;

	for (; *s; s++)
	{
		if (*s == '[' || *s == '{' || *s == '(')
			depth++;
		else if (*s == ']' || *s == '}' || *s == ')')
		{
			if (depth == 0)
				return s;
			depth--;
		}
		else if (depth == 0 && (*s == '|' || *s == ',' || *s == ':'))
			return s;
	}
	return s;
}

static const char *
parse_value(pm_vector_builder *b, const pm_type *t, const char *s, pm_arena *arena)
{
	const char *end = skip_token(s);
	size_t		len = (size_t) (end - s);
	char		tok[256];
	pm_vector	one;
	pm_vector_builder ob;

	snprintf(tok, sizeof(tok), "%.*s", (int) len, s);
	if (strcmp(tok, "null") == 0)
	{
		pm_vector_builder_append_null(b);
		return end;
	}
	if (t->id == PM_TYPE_ROW)
	{
		/* (v1,v2,...): each field parsed into its own one-value vector */
		const pm_vector *fields[MAXCOLS];
		int64_t		rows[MAXCOLS] = {0};

		s++;
		for (int f = 0; f < t->nfields && f < MAXCOLS; f++)
		{
			pm_vector  *fv = pm_arena_zalloc(arena, sizeof(pm_vector));
			pm_vector_builder fb;

			pm_vector_builder_init(&fb, fv, t->fields[f].type, 1, arena);
			s = parse_value(&fb, t->fields[f].type, s, arena);
			if (*s == ',')
				s++;
			fields[f] = fv;
		}
		pm_vector_builder_append_struct(b, fields, rows);
		return s + 1;
	}
	if (t->id == PM_TYPE_ARRAY || t->id == PM_TYPE_MAP)
	{
		pm_vector  *v = b->v;
		int64_t		count = 0;

		s++;					/* [ or { */
		while (*s != ']' && *s != '}')
		{
			s = parse_value(&b->children[0], b->children[0].v->type, s, arena);
			if (t->id == PM_TYPE_MAP)
				s = parse_value(&b->children[1], b->children[1].v->type, s + 1, arena);
			count++;
			if (*s == ',')
				s++;
		}
		/* parent slot: use a null append to grow, then fix it up */
		{
			int32_t		base = v->offsets[v->length];

			pm_vector_builder_append_null(b);
			v->nulls[v->length - 1] = 0;
			v->offsets[v->length] = base + (int32_t) count;
		}
		return s + 1;
	}
	pm_vector_builder_init(&ob, &one, t, 1, arena);
	one.length = 1;
	one.nulls[0] = 0;
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			PM_VEC_VALUES(&one, uint8_t)[0] = strcmp(tok, "true") == 0;
			break;
		case PM_TYPE_TINYINT:
			PM_VEC_VALUES(&one, int8_t)[0] = (int8_t) atoi(tok);
			break;
		case PM_TYPE_SMALLINT:
			PM_VEC_VALUES(&one, int16_t)[0] = (int16_t) atoi(tok);
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			PM_VEC_VALUES(&one, int32_t)[0] = atoi(tok);
			break;
		case PM_TYPE_BIGINT:
			PM_VEC_VALUES(&one, int64_t)[0] = atoll(tok);
			break;
		case PM_TYPE_FLOAT:
			PM_VEC_VALUES(&one, float)[0] = strtof(tok, NULL);
			break;
		case PM_TYPE_DOUBLE:
			PM_VEC_VALUES(&one, double)[0] = strtod(tok, NULL);
			break;
		case PM_TYPE_DECIMAL:
			{
				pm_int128	u = 0;
				int			frac = -1;
				bool		neg = tok[0] == '-';

				for (const char *p = tok + neg; *p; p++)
				{
					if (*p == '.')
						frac = 0;
					else
					{
						u = u * 10 + (*p - '0');
						if (frac >= 0)
							frac++;
					}
				}
				for (int i = frac < 0 ? 0 : frac; i < t->scale; i++)
					u *= 10;
				PM_VEC_VALUES(&one, pm_int128)[0] = neg ? -u : u;
				break;
			}
		default:
			one.length = 0;
			if ((t->id == PM_TYPE_BINARY || t->id == PM_TYPE_VARBINARY) &&
				strncmp(tok, "0x", 2) == 0)
			{
				/* binary as hex: 0x3a30... */
				uint8_t		bytes[128];
				size_t		nb = 0;

				for (const char *h = tok + 2; h[0] && h[1] && nb < sizeof(bytes); h += 2)
				{
					unsigned	byte;

					sscanf(h, "%2x", &byte);
					bytes[nb++] = (uint8_t) byte;
				}
				pm_vector_builder_append_bytes(&ob, bytes, (int32_t) nb);
				break;
			}
			pm_vector_builder_append_bytes(&ob, tok, (int32_t) len);
			break;
	}
	pm_vector_builder_append(b, &one, 0);
	return end;
}

static void
render(char *out, size_t cap, const pm_vector *v, int64_t i)
{
	size_t		n = strlen(out);

	if (pm_vector_is_null(v, i))
	{
		snprintf(out + n, cap - n, "null");
		return;
	}
	switch (v->type->id)
	{
		case PM_TYPE_BOOLEAN:
			snprintf(out + n, cap - n, "%s", PM_VEC_VALUES(v, uint8_t)[i] ? "true" : "false");
			break;
		case PM_TYPE_TINYINT:
			snprintf(out + n, cap - n, "%d", PM_VEC_VALUES(v, int8_t)[i]);
			break;
		case PM_TYPE_SMALLINT:
			snprintf(out + n, cap - n, "%d", PM_VEC_VALUES(v, int16_t)[i]);
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			snprintf(out + n, cap - n, "%d", PM_VEC_VALUES(v, int32_t)[i]);
			break;
		case PM_TYPE_BIGINT:
			snprintf(out + n, cap - n, "%lld", (long long) PM_VEC_VALUES(v, int64_t)[i]);
			break;
		case PM_TYPE_FLOAT:
			snprintf(out + n, cap - n, "%g", PM_VEC_VALUES(v, float)[i]);
			break;
		case PM_TYPE_DOUBLE:
			snprintf(out + n, cap - n, "%g", PM_VEC_VALUES(v, double)[i]);
			break;
		case PM_TYPE_DECIMAL:
			{
				pm_int128	u = PM_VEC_VALUES(v, pm_int128)[i];
				char		digits[64];
				int			nd = 0;
				bool		neg = u < 0;
				int			s = v->type->scale;

				if (neg)
					u = -u;
				do
				{
					digits[nd++] = (char) ('0' + (int) (u % 10));
					u /= 10;
				} while (u > 0 || nd <= s);
				if (neg)
					out[n++] = '-';
				for (int d = nd - 1; d >= 0; d--)
				{
					out[n++] = digits[d];
					if (d == s && s > 0)
						out[n++] = '.';
				}
				out[n] = '\0';
				break;
			}
		case PM_TYPE_ROW:
			strcat(out, "(");
			for (int f = 0; f < v->nchildren; f++)
			{
				if (f > 0)
					strcat(out, ",");
				render(out, cap, &v->children[f], i);
			}
			strcat(out, ")");
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
			{
				bool		map = v->type->id == PM_TYPE_MAP;

				strcat(out, map ? "{" : "[");
				for (int32_t e = v->offsets[i]; e < v->offsets[i + 1]; e++)
				{
					if (e > v->offsets[i])
						strcat(out, ",");
					render(out, cap, &v->children[0], e);
					if (map)
					{
						strcat(out, ":");
						render(out, cap, &v->children[1], e);
					}
				}
				strcat(out, map ? "}" : "]");
				break;
			}
		default:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				if (v->type->id == PM_TYPE_BINARY || v->type->id == PM_TYPE_VARBINARY)
				{
					n += (size_t) snprintf(out + n, cap - n, "0x");
					for (int32_t k = 0; k < len && n + 2 < cap; k++)
						n += (size_t) snprintf(out + n, cap - n, "%02x", p[k]);
				}
				else
					snprintf(out + n, cap - n, "%.*s", (int) len, (const char *) p);
			}
	}
}

static const int *lookup_levels;	/* for the next run only */

void
merge_fixture_lookup_levels(const int *levels)
{
	lookup_levels = levels;
}

const char *
merge_fixture_run(const char *fields_json, const char *options_json,
				  const char *const *const *runs, const int *fields, int nfields,
				  bool row_per_batch)
{
	static char out[8192];
	char		json[4096];
	pm_arena   *arena = pm_arena_create(pm_env_default());
	pm_schema  *schema;
	pm_error	err;
	pm_code		rc;
	int		   *read_fields,
				nread;
	int			all[MAXCOLS];
	pm_merge_engine *engine = NULL;
	pm_merge_reader *reader = NULL;
	pm_run_source sources[16];
	fixture_run *fr;
	int			nruns = 0;
	const pm_type *out_types[MAXCOLS];
	pm_batch   *b;

	out[0] = '\0';
	pm_error_clear(&err);
	snprintf(json, sizeof(json),
			 "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"k\",\"type\":\"INT NOT NULL\"}%s%s],"
			 "\"highestFieldId\":20,\"partitionKeys\":[],\"primaryKeys\":[\"k\"],"
			 "\"options\":{%s},\"timeMillis\":0}",
			 fields_json[0] ? "," : "", fields_json, options_json);
	rc = pm_schema_parse(json, strlen(json), arena, &schema, &err);
	if (rc != PM_OK)
		goto fail;
	if (fields == NULL)
	{
		nfields = schema->row_type->nfields;
		for (int i = 0; i < nfields; i++)
			all[i] = i;
		fields = all;
	}
	rc = pm_merge_engine_read_fields(schema, fields, nfields, arena, &read_fields, &nread, &err);
	if (rc != PM_OK)
		goto fail;
	rc = pm_merge_engine_create(schema, read_fields, nread, 3, arena, &engine, &err);
	if (rc != PM_OK)
		goto fail;
	for (int i = 0; i < nfields; i++)
		out_types[i] = schema->row_type->fields[fields[i]].type;

	fr = pm_arena_zalloc(arena, sizeof(fixture_run) * 16);
	for (; runs[nruns] != NULL; nruns++)
	{
		const char *const *rows = runs[nruns];
		fixture_run *r = &fr[nruns];
		int			nrows = 0;
		pm_type    *bigint = pm_type_new(arena, PM_TYPE_BIGINT, false);
		pm_type    *tinyint = pm_type_new(arena, PM_TYPE_TINYINT, false);

		while (rows[nrows] != NULL)
			nrows++;
		r->nbatches = row_per_batch ? nrows : (nrows > 0);
		for (int bi = 0; bi < r->nbatches; bi++)
		{
			pm_batch   *batch = &r->batches[bi];
			int			ncols = 3 + nread;
			pm_vector_builder *bld = pm_arena_zalloc(arena, sizeof(pm_vector_builder) * ncols);
			int			from = row_per_batch ? bi : 0;
			int			to = row_per_batch ? bi + 1 : nrows;

			batch->ncols = ncols;
			batch->first_row = from;
			batch->cols = pm_arena_zalloc(arena, sizeof(pm_vector) * ncols);
			pm_vector_builder_init(&bld[0], &batch->cols[0], schema->row_type->fields[0].type, 4, arena);
			pm_vector_builder_init(&bld[1], &batch->cols[1], bigint, 4, arena);
			pm_vector_builder_init(&bld[2], &batch->cols[2], tinyint, 4, arena);
			for (int j = 0; j < nread; j++)
				pm_vector_builder_init(&bld[3 + j], &batch->cols[3 + j],
									   schema->row_type->fields[read_fields[j]].type, 4, arena);
			for (int ri = from; ri < to; ri++)
			{
				const char *s = rows[ri];
				const char *vals[MAXCOLS];
				int			nv = 0;
				const char *kind;
				static const char *const kinds[] = {"+I", "-U", "+U", "-D"};

				/* key|seq|kind|values... */
				s = parse_value(&bld[0], batch->cols[0].type, s, arena) + 1;
				s = parse_value(&bld[1], bigint, s, arena) + 1;
				kind = s;
				for (int kk = 0; kk < 4; kk++)
					if (strncmp(kind, kinds[kk], 2) == 0)
					{
						char		num[16];

						snprintf(num, sizeof(num), "%d", kk);
						parse_value(&bld[2], tinyint, num, arena);
					}
				s += 2;
				while (*s == '|')
				{
					vals[nv++] = s + 1;
					s = skip_token(s + 1);
				}
				for (int j = 0; j < nread; j++)
				{
					int			f = read_fields[j];

					if (f == 0)
						parse_value(&bld[3 + j], batch->cols[3 + j].type, rows[ri], arena);
					else if (f - 1 < nv)
						parse_value(&bld[3 + j], batch->cols[3 + j].type, vals[f - 1], arena);
					else
						pm_vector_builder_append_null(&bld[3 + j]);
				}
				batch->nrows++;
			}
		}
		sources[nruns].next = run_next;
		sources[nruns].close = NULL;
		sources[nruns].state = r;
		sources[nruns].dv = NULL;
		sources[nruns].level = lookup_levels ? lookup_levels[nruns] : 0;
	}
	rc = pm_merge_reader_open(pm_env_default(), engine, 1, out_types, nfields, sources, nruns,
							  2, &reader, &err);
	if (rc != PM_OK)
		goto fail;
	pm_merge_reader_set_lookup(reader, lookup_levels != NULL);
	lookup_levels = NULL;
	for (;;)
	{
		rc = pm_merge_reader_next(reader, &b, &err);
		if (rc != PM_OK)
			goto fail;
		if (b == NULL)
			break;
		for (int64_t i = 0; i < b->nrows; i++)
		{
			if (out[0])
				strcat(out, ";");
			for (int c = 0; c < b->ncols; c++)
			{
				if (c > 0)
					strcat(out, "|");
				render(out, sizeof(out), &b->cols[c], i);
			}
		}
	}
	pm_merge_reader_close(reader);
	pm_merge_engine_destroy(engine);
	pm_arena_destroy(arena);
	return out;
fail:
	snprintf(out, sizeof(out), "ERROR %s: %s", pm_code_name(rc), err.message);
	pm_merge_reader_close(reader);
	pm_merge_engine_destroy(engine);
	pm_arena_destroy(arena);
	return out;
}
