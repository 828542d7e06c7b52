/*-------------------------------------------------------------------------
 * merge_fixture.c
 *	  Hand-built runs for the merge tests (see merge_fixture.h).
 *-------------------------------------------------------------------------
 */
#include "merge_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <roaring/roaring.h>
#include <zlib.h>

#include "common/arena.h"
#include "index/deletion_vector.h"
#include "lsm/key_compare.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_reader.h"
#include "common/vector_builder.h"

#define MAXCOLS 16
#define MAXROWS 128

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

static bool next_reference;
static const char *next_key_type;
static int	next_batch_rows;
static int	next_output_rows;
static bool next_kv_output;

void
merge_fixture_next(bool reference, const char *key_type, int batch_rows, int output_rows,
				   bool kv_output)
{
	next_reference = reference;
	next_key_type = key_type;
	next_batch_rows = batch_rows;
	next_output_rows = output_rows;
	next_kv_output = kv_output;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

/* A 32-bit deletion vector of the positions (BitmapDeletionVector layout). */
static pm_deletion_vector *
make_dv(const int *pos, int npos)
{
	roaring_bitmap_t *bm = roaring_bitmap_create();
	uint8_t		buf[4096];
	size_t		n;
	pm_deletion_vector *dv = NULL;
	pm_error	err;

	for (int i = 0; i < npos; i++)
		roaring_bitmap_add(bm, (uint32_t) pos[i]);
	n = 8 + roaring_bitmap_portable_serialize(bm, (char *) buf + 8);
	roaring_bitmap_free(bm);
	put_be32(buf + 4, PM_DV_MAGIC_32);
	put_be32(buf, (uint32_t) (n - 4));
	put_be32(buf + n, (uint32_t) crc32(0L, buf + 4, (uInt) (n - 4)));
	if (pm_deletion_vector_decode(pm_env_default(), buf, n + 4, -1, &dv, &err) != PM_OK)
		return NULL;
	return dv;
}

static void
append_text(char *out, size_t cap, const char *s)
{
	size_t		n = strlen(out);

	snprintf(out + n, cap - n, "%s", s);
}

/* The reference merge: one record of the naive merge. */
typedef struct ref_record
{
	pm_kv_record rec;
	int			run;
} ref_record;

static const pm_merge_engine *ref_engine;

static int
ref_compare(const void *pa, const void *pb)
{
	const ref_record *a = pa,
			   *b = pb;
	int			c = pm_key_compare(a->rec.batch->cols, a->rec.row, b->rec.batch->cols,
								   b->rec.row, 1);

	if (c == 0)
		c = pm_merge_engine_compare_records(ref_engine, &a->rec, &b->rec);
	if (c == 0)
		c = a->run - b->run;
	return c;
}

static void
ref_render(char *out, size_t cap, const pm_merge_cell *cells, const pm_kv_record *single,
		   int nfields, int64_t seq, int kind)
{
	if (out[0])
		append_text(out, cap, ";");
	for (int c = 0; c < nfields; c++)
	{
		if (c > 0)
			append_text(out, cap, "|");
		if (single != NULL)
			render(out, cap, &single->batch->cols[3 + c], single->row);
		else if (cells[c].vec == NULL)
			append_text(out, cap, "null");
		else
			render(out, cap, cells[c].vec, cells[c].row);
	}
	if (next_kv_output)
	{
		char		t[64];

		snprintf(t, sizeof(t), "|%lld|%d", (long long) seq, kind);
		append_text(out, cap, t);
	}
}

static pm_code
reference_merge(char *out, size_t cap, pm_merge_engine *engine, fixture_run *fr, int nruns,
				pm_deletion_vector **dvs, const int *levels, int nfields, pm_error *err)
{
	static ref_record recs[16 * MAXROWS];
	int			n = 0;

	for (int r = 0; r < nruns; r++)
		for (int bi = 0; bi < fr[r].nbatches; bi++)
		{
			const pm_batch *b = &fr[r].batches[bi];

			for (int64_t i = 0; i < b->nrows; i++)
			{
				ref_record *x = &recs[n];

				if (dvs[r] != NULL && pm_deletion_vector_contains(dvs[r], b->first_row + i))
					continue;
				x->rec.batch = b;
				x->rec.row = i;
				x->rec.seq = PM_VEC_VALUES(&b->cols[1], int64_t)[i];
				x->rec.kind = PM_VEC_VALUES(&b->cols[2], int8_t)[i];
				x->rec.level = levels != NULL ? levels[r] : 0;
				x->run = r;
				n++;
			}
		}
	ref_engine = engine;
	qsort(recs, (size_t) n, sizeof(recs[0]), ref_compare);
	for (int g = 0; g < n;)
	{
		int			e = g + 1;

		while (e < n && pm_key_compare(recs[g].rec.batch->cols, recs[g].rec.row,
									   recs[e].rec.batch->cols, recs[e].rec.row, 1) == 0)
			e++;
		if (e - g == 1)
		{
			if (pm_rowkind_is_add(recs[g].rec.kind))
				ref_render(out, cap, NULL, &recs[g].rec, nfields, recs[g].rec.seq,
						   recs[g].rec.kind);
		}
		else
		{
			int			pick = -1;
			bool		has_row;
			int			kind;
			const pm_merge_cell *cells;
			int64_t		seq = pm_merge_engine_get_kind(engine) == PM_MERGE_FIRST_ROW ?
				recs[g].rec.seq : recs[e - 1].rec.seq;

			if (levels != NULL)
				for (int i = g; i < e; i++)
					if (recs[i].rec.level > 0 &&
						(pick < 0 || recs[i].rec.level < recs[pick].rec.level))
						pick = i;
			pm_merge_engine_reset(engine);
			for (int i = g; i < e; i++)
				if (levels == NULL || recs[i].rec.level <= 0 || i == pick)
					PM_TRY(pm_merge_engine_add(engine, &recs[i].rec, err));
			PM_TRY(pm_merge_engine_result(engine, &has_row, &kind, &cells, err));
			if (has_row && pm_rowkind_is_add(kind))
				ref_render(out, cap, cells, NULL, nfields, seq, kind);
		}
		g = e;
	}
	return PM_OK;
}

const char *
merge_fixture_run(const char *fields_json, const char *options_json,
				  const char *const *const *runs, const int *fields, int nfields,
				  bool row_per_batch)
{
	static char out[65536];
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
	pm_deletion_vector *dvs[16] = {0};
	bool		reference = next_reference;
	const char *key_type = next_key_type != NULL ? next_key_type : "INT NOT NULL";
	int			batch_rows = next_batch_rows;
	int			output_rows = next_output_rows > 0 ? next_output_rows : 2;
	bool		kv_output = next_kv_output;
	const int  *levels = lookup_levels;

	merge_fixture_next(false, NULL, 0, 0, false);
	next_kv_output = kv_output;	/* read by ref_render */
	lookup_levels = NULL;

	out[0] = '\0';
	pm_error_clear(&err);
	snprintf(json, sizeof(json),
			 "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"k\",\"type\":\"%s\"}%s%s],"
			 "\"highestFieldId\":20,\"partitionKeys\":[],\"primaryKeys\":[\"k\"],"
			 "\"options\":{%s},\"timeMillis\":0}",
			 key_type, fields_json[0] ? "," : "", fields_json, options_json);
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

		int			per_batch;
		int			deleted[MAXROWS];
		int			ndeleted = 0;

		while (rows[nrows] != NULL)
			nrows++;
		per_batch = batch_rows > 0 ? batch_rows : (row_per_batch ? 1 : (nrows > 0 ? nrows : 1));
		r->nbatches = (nrows + per_batch - 1) / per_batch;
		for (int bi = 0; bi < r->nbatches; bi++)
		{
			pm_batch   *batch = &r->batches[bi];
			int			ncols = 3 + nread;
			pm_vector_builder *bld = pm_arena_zalloc(arena, sizeof(pm_vector_builder) * ncols);
			int			from = bi * per_batch;
			int			to = from + per_batch < nrows ? from + per_batch : nrows;

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
				const char *row = rows[ri];

				if (s[0] == 'x')
				{
					deleted[ndeleted++] = ri;
					s++;
					row++;
				}
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
						parse_value(&bld[3 + j], batch->cols[3 + j].type, row, arena);
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
		dvs[nruns] = ndeleted > 0 ? make_dv(deleted, ndeleted) : NULL;
		sources[nruns].dv = dvs[nruns];
		sources[nruns].level = levels ? levels[nruns] : 0;
	}
	if (reference)
	{
		rc = reference_merge(out, sizeof(out), engine, fr, nruns, dvs, levels, nfields, &err);
		if (rc != PM_OK)
			goto fail;
		goto done;
	}
	rc = pm_merge_reader_open(pm_env_default(), engine, 1, out_types, nfields, sources, nruns,
							  output_rows, &reader, &err);
	if (rc != PM_OK)
		goto fail;
	pm_merge_reader_set_lookup(reader, levels != NULL);
	if (kv_output)
		pm_merge_reader_set_kv_output(reader, pm_type_new(arena, PM_TYPE_BIGINT, false),
									  pm_type_new(arena, PM_TYPE_TINYINT, false));
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
done:
	pm_merge_reader_close(reader);
	pm_merge_engine_destroy(engine);
	for (int i = 0; i < nruns; i++)
		pm_deletion_vector_destroy(dvs[i]);
	pm_arena_destroy(arena);
	return out;
fail:
	snprintf(out, sizeof(out), "ERROR %s: %s", pm_code_name(rc), err.message);
	pm_merge_reader_close(reader);
	pm_merge_engine_destroy(engine);
	for (int i = 0; i < nruns; i++)
		pm_deletion_vector_destroy(dvs[i]);
	pm_arena_destroy(arena);
	return out;
}
