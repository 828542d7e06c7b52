/*-------------------------------------------------------------------------
 * avro_decode.c
 *	  Avro binary decoding into column vectors through a compiled plan.
 *
 * Hand-written (no C library decodes Avro into column batches with Paimon's
 * projection rules). A plan is compiled once per file from the writer schema
 * and the requested ROW type, the way Paimon's FieldReaderFactory builds its
 * readers: record fields are matched by name, writer fields nobody asked for
 * are decoded past (skipped), requested fields the writer lacks read as NULL,
 * values are converted to the requested type (int -> TINYINT/SMALLINT,
 * timestamp-millis -> microseconds, ...). Running the plan is a switch per
 * value with no schema interpretation.
 *
 * Every plan node appends exactly one value (or NULL) to its "sink", the
 * vector of the requested type it feeds; sinks track their capacity and grow
 * geometrically in the batch arena (collections' children start empty).
 *
 * Bytes are hostile: every length and count is checked against what remains
 * of the block, counts of zero-size items are bounded, and nesting is bounded
 * by PM_AVRO_MAX_DEPTH, so a corrupt block gives PM_ERR_CORRUPT, never a
 * crash, a hang or an unbounded allocation.
 *
 * Spec: Apache Avro 1.11 specification, "Binary Encoding"; apache/paimon
 * .../format/avro/FieldReaderFactory.java, AvroSchemaVisitor.java.
 *-------------------------------------------------------------------------
 */
#include "format/avro/avro_int.h"

#include <string.h>

#include "common/floor_div.h"
#include "common/vector_builder.h"

/*
 * Items per array/map value when an item can take zero bytes (e.g. "null"):
 * such counts cannot be checked against the bytes left, and must not let a
 * few bytes produce millions of values.
 */
#define ZERO_SIZE_ITEM_LIMIT	1024

typedef struct sink sink;

/* Where values of one requested (sub)type go in the current batch. */
struct sink
{
	const pm_type *type;
	pm_vector  *vec;			/* bound per batch */
	int64_t		cap;			/* values vec has room for */
	int64_t		data_cap;		/* varlen: bytes allocated for vec->data */
	int			vsize;			/* bytes per fixed-width value, else 0 */
	bool		has_offsets;	/* varlen, ARRAY, MULTISET, MAP */
	int			nchildren;
	sink	   *children;
};

typedef enum plan_op
{
	OP_SKIP,					/* decode past ws, store nothing */
	OP_NULL,					/* union branch "null" */
	OP_FAIL,					/* union branch that cannot be read as the type */
	OP_UNION,
	OP_BOOL,
	OP_INT_I8,
	OP_INT_I16,
	OP_INT_I32,
	OP_INT_I64,
	OP_LONG_I64,
	OP_INT_F32,
	OP_LONG_F32,
	OP_FLOAT_F32,
	OP_INT_F64,
	OP_LONG_F64,
	OP_FLOAT_F64,
	OP_DOUBLE_F64,
	OP_TIME_MICROS,				/* long micros of day -> int32 millis */
	OP_TS_MILLIS,
	OP_TS_MICROS,
	OP_TS_NANOS,
	OP_BYTES,					/* bytes or string -> varlen */
	OP_FIXED_BYTES,
	OP_ENUM_STRING,
	OP_DEC_BYTES,
	OP_DEC_FIXED,
	OP_RECORD,					/* record -> ROW */
	OP_KV_RECORD,				/* {key, value} record -> one map entry */
	OP_ARRAY,
	OP_MAP,						/* Avro map (string keys) -> MAP */
	OP_ARRAY_MAP				/* array of {key, value} records -> MAP */
} plan_op;

typedef struct plan_node plan_node;

struct plan_node
{
	plan_op		op;
	const pm_avro_schema *ws;	/* writer schema of the value */
	sink	   *out;			/* the sink it appends to (map: the MAP) */
	int			nchildren;
	plan_node **children;		/* record: per writer field, NULL = skip;
								 * union: per branch; array/map: [0] */
	int			nmissing;
	sink	  **missing;		/* record: requested fields not written */
	bool		want_nanos;		/* OP_TS_NANOS into a precision > 6 */
	const char *column;			/* for messages */
};

struct pm_avro_plan
{
	const pm_type *request;
	sink		root;
	plan_node  *top;
	pm_vector  *root_vec;
	pm_arena   *batch_arena;
};

typedef struct dctx
{
	const uint8_t *p;
	const uint8_t *end;
	pm_arena   *arena;
	pm_error   *err;
} dctx;

typedef struct cctx
{
	pm_arena   *arena;
	pm_error   *err;
} cctx;

/* ----------------------------------------------------------------------
 * Compiling
 * ----------------------------------------------------------------------
 */

static pm_code
cnomem(cctx *c)
{
	return pm_fail(c->err, PM_ERR_NOMEM, "out of memory compiling avro decode plan");
}

static pm_code
build_sink(cctx *c, sink *s, const pm_type *t, int depth)
{
	pm_type_id	id = t->id;

	if (depth > PM_AVRO_MAX_DEPTH)
		return pm_fail(c->err, PM_ERR_UNSUPPORTED, "requested type nested too deeply");
	memset(s, 0, sizeof(*s));
	s->type = t;
	s->vsize = pm_type_value_size(id);
	s->has_offsets = pm_type_is_varlen(id) || id == PM_TYPE_ARRAY ||
		id == PM_TYPE_MULTISET || id == PM_TYPE_MAP;
	if (id == PM_TYPE_ROW)
		s->nchildren = t->nfields;
	else if (id == PM_TYPE_ARRAY)
		s->nchildren = 1;
	else if (id == PM_TYPE_MAP || id == PM_TYPE_MULTISET)
		s->nchildren = 2;		/* a multiset's counts too (expanded at the batch's end) */
	if (s->nchildren == 0)
		return PM_OK;
	if ((s->children = pm_arena_zalloc(c->arena, sizeof(sink) * (size_t) s->nchildren)) == NULL)
		return cnomem(c);
	if (id == PM_TYPE_ROW)
	{
		for (int i = 0; i < t->nfields; i++)
			PM_TRY(build_sink(c, &s->children[i], t->fields[i].type, depth + 1));
	}
	else
	{
		PM_TRY(build_sink(c, &s->children[0], t->element, depth + 1));
		if (id == PM_TYPE_MAP)
			PM_TRY(build_sink(c, &s->children[1], t->value, depth + 1));
		else if (id == PM_TYPE_MULTISET)
		{
			const pm_type *count = pm_type_new(c->arena, PM_TYPE_INT, false);

			if (count == NULL)
				return cnomem(c);
			PM_TRY(build_sink(c, &s->children[1], count, depth + 1));
		}
	}
	return PM_OK;
}

static plan_node *
new_plan(cctx *c, plan_op op, const pm_avro_schema *ws, sink *out, const char *column)
{
	plan_node  *n = pm_arena_zalloc(c->arena, sizeof(plan_node));

	if (n != NULL)
	{
		n->op = op;
		n->ws = ws;
		n->out = out;
		n->column = column;
	}
	return n;
}

static pm_code
incompatible(cctx *c, const pm_avro_schema *ws, const pm_type *t, const char *column)
{
	return pm_fail(c->err, PM_ERR_UNSUPPORTED,
				   "avro column \"%s\": %s%s cannot be read as %s", column,
				   pm_avro_kind_name(ws->kind), ws->logical != PM_AVRO_LT_NONE ? " (logical)" : "",
				   pm_type_id_name(t->id));
}

static pm_code compile(cctx *c, const pm_avro_schema *ws, sink *out, const char *column,
					   int depth, plan_node **res);

static pm_code
compile_union(cctx *c, const pm_avro_schema *ws, sink *out, const char *column,
			  int depth, plan_node **res)
{
	plan_node  *n = new_plan(c, OP_UNION, ws, out, column);
	bool		any_ok = false;
	bool		any_value = false;

	pm_error	saved = *c->err;	/* trial compiles of branches may fail */

	if (n == NULL ||
		(n->children = pm_arena_zalloc(c->arena, sizeof(plan_node *) * (size_t) ws->nchildren)) == NULL)
		return cnomem(c);
	n->nchildren = ws->nchildren;
	for (int i = 0; i < ws->nchildren; i++)
	{
		const pm_avro_schema *b = ws->children[i];
		pm_code		rc;

		if (b->kind == PM_AVRO_NULL)
		{
			if ((n->children[i] = new_plan(c, OP_NULL, b, out, column)) == NULL)
				return cnomem(c);
			continue;
		}
		any_value = true;
		rc = compile(c, b, out, column, depth + 1, &n->children[i]);
		if (rc == PM_OK)
		{
			any_ok = true;
			continue;
		}
		if (rc != PM_ERR_UNSUPPORTED)
			return rc;
		/* this branch cannot be read as the type: fail if a value uses it */
		if ((n->children[i] = new_plan(c, OP_FAIL, b, out, column)) == NULL)
			return cnomem(c);
	}
	if (any_value && !any_ok)
		return c->err->code == PM_ERR_UNSUPPORTED ? PM_ERR_UNSUPPORTED :
			pm_fail(c->err, PM_ERR_UNSUPPORTED, "avro column \"%s\": no union branch fits", column);
	*c->err = saved;
	*res = n;
	return PM_OK;
}

/* Plan for a record whose fields feed the children of a ROW sink. */
static pm_code
compile_record(cctx *c, const pm_avro_schema *ws, sink *out, const char *column,
			   int depth, plan_node **res)
{
	const pm_type *t = out->type;
	plan_node  *n = new_plan(c, OP_RECORD, ws, out, column);
	bool	   *matched;

	if (n == NULL ||
		(n->children = pm_arena_zalloc(c->arena, sizeof(plan_node *) * (size_t) (ws->nchildren + 1))) == NULL ||
		(n->missing = pm_arena_zalloc(c->arena, sizeof(sink *) * (size_t) (t->nfields + 1))) == NULL ||
		(matched = pm_arena_zalloc(c->arena, (size_t) t->nfields + 1)) == NULL)
		return cnomem(c);
	n->nchildren = ws->nchildren;
	for (int i = 0; i < ws->nchildren; i++)
	{
		int			idx = pm_type_field_index(t, ws->names[i]);
		const char *sub;

		if (idx < 0 || matched[idx])
			continue;			/* not requested (or a duplicate name): skip */
		matched[idx] = true;
		sub = column[0] == '\0' ? ws->names[i] :
			pm_arena_sprintf(c->arena, "%s.%s", column, ws->names[i]);
		if (sub == NULL)
			return cnomem(c);
		PM_TRY(compile(c, ws->children[i], &out->children[idx], sub, depth + 1,
					   &n->children[i]));
	}
	for (int i = 0; i < t->nfields; i++)
		if (!matched[i])
			n->missing[n->nmissing++] = &out->children[i];
	*res = n;
	return PM_OK;
}

/* Plan for one {key, value} entry record of Paimon's array-encoded maps. */
static pm_code
compile_kv_record(cctx *c, const pm_avro_schema *ws, sink *map, const char *column,
				  int depth, plan_node **res)
{
	plan_node  *n = new_plan(c, OP_KV_RECORD, ws, map, column);
	bool		have_key = false,
				have_value = false;	/* a multiset's: its counts */

	if (n == NULL ||
		(n->children = pm_arena_zalloc(c->arena, sizeof(plan_node *) * (size_t) (ws->nchildren + 1))) == NULL ||
		(n->missing = pm_arena_zalloc(c->arena, sizeof(sink *) * 2)) == NULL)
		return cnomem(c);
	n->nchildren = ws->nchildren;
	for (int i = 0; i < ws->nchildren; i++)
	{
		bool		is_key = strcmp(ws->names[i], "key") == 0;
		bool		is_value = strcmp(ws->names[i], "value") == 0;

		if ((is_key && !have_key) || (is_value && !have_value))
		{
			PM_TRY(compile(c, ws->children[i], &map->children[is_key ? 0 : 1], column,
						   depth + 1, &n->children[i]));
			if (is_key)
				have_key = true;
			else
				have_value = true;
		}
	}
	if (!have_key)
		n->missing[n->nmissing++] = &map->children[0];
	if (!have_value)
		n->missing[n->nmissing++] = &map->children[1];
	*res = n;
	return PM_OK;
}

static pm_code
compile_collection(cctx *c, const pm_avro_schema *ws, sink *out, const char *column,
				   int depth, plan_node **res)
{
	const pm_type *t = out->type;
	plan_node  *n;

	if (t->id == PM_TYPE_ARRAY && ws->kind == PM_AVRO_ARRAY)
	{
		if ((n = new_plan(c, OP_ARRAY, ws, out, column)) == NULL ||
			(n->children = pm_arena_zalloc(c->arena, sizeof(plan_node *))) == NULL)
			return cnomem(c);
		n->nchildren = 1;
		PM_TRY(compile(c, ws->children[0], &out->children[0], column, depth + 1,
					   &n->children[0]));
		*res = n;
		return PM_OK;
	}
	if ((t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET) && ws->kind == PM_AVRO_MAP)
	{
		pm_type_id	k = t->element->id;

		if (!pm_type_is_varlen(k) || k == PM_TYPE_VARIANT)
			return pm_fail(c->err, PM_ERR_UNSUPPORTED,
						   "avro column \"%s\": map with string keys cannot be read as MAP with %s keys",
						   column, pm_type_id_name(k));
		if ((n = new_plan(c, OP_MAP, ws, out, column)) == NULL ||
			(n->children = pm_arena_zalloc(c->arena, sizeof(plan_node *))) == NULL)
			return cnomem(c);
		n->nchildren = 1;
		/* the values: a map's, or a multiset's counts */
		PM_TRY(compile(c, ws->children[0], &out->children[1], column, depth + 1,
					   &n->children[0]));
		*res = n;
		return PM_OK;
	}
	if ((t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET) && ws->kind == PM_AVRO_ARRAY &&
		ws->children[0]->kind == PM_AVRO_RECORD)
	{
		if ((n = new_plan(c, OP_ARRAY_MAP, ws, out, column)) == NULL ||
			(n->children = pm_arena_zalloc(c->arena, sizeof(plan_node *))) == NULL)
			return cnomem(c);
		n->nchildren = 1;
		PM_TRY(compile_kv_record(c, ws->children[0], out, column, depth + 1, &n->children[0]));
		*res = n;
		return PM_OK;
	}
	return incompatible(c, ws, t, column);
}

/* The op reading a primitive writer value as the requested type, or -1. */
static int
primitive_op(const pm_avro_schema *ws, const pm_type *t)
{
	pm_avro_kind k = ws->kind;

	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return k == PM_AVRO_BOOLEAN ? OP_BOOL : -1;
		case PM_TYPE_TINYINT:
			return k == PM_AVRO_INT ? OP_INT_I8 : -1;
		case PM_TYPE_SMALLINT:
			return k == PM_AVRO_INT ? OP_INT_I16 : -1;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			return k == PM_AVRO_INT ? OP_INT_I32 : -1;
		case PM_TYPE_TIME:
			if (k == PM_AVRO_INT)
				return OP_INT_I32;
			return k == PM_AVRO_LONG && ws->logical == PM_AVRO_LT_TIME_MICROS ? OP_TIME_MICROS : -1;
		case PM_TYPE_BIGINT:
			return k == PM_AVRO_INT ? OP_INT_I64 : k == PM_AVRO_LONG ? OP_LONG_I64 : -1;
		case PM_TYPE_FLOAT:
			return k == PM_AVRO_INT ? OP_INT_F32 : k == PM_AVRO_LONG ? OP_LONG_F32 :
				k == PM_AVRO_FLOAT ? OP_FLOAT_F32 : -1;
		case PM_TYPE_DOUBLE:
			return k == PM_AVRO_INT ? OP_INT_F64 : k == PM_AVRO_LONG ? OP_LONG_F64 :
				k == PM_AVRO_FLOAT ? OP_FLOAT_F64 : k == PM_AVRO_DOUBLE ? OP_DOUBLE_F64 : -1;
		case PM_TYPE_DECIMAL:
			if (ws->logical == PM_AVRO_LT_DECIMAL && ws->scale != t->scale)
				return -1;		/* XXX: rescaling not implemented */
			return k == PM_AVRO_BYTES ? OP_DEC_BYTES : k == PM_AVRO_FIXED ? OP_DEC_FIXED : -1;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			return k == PM_AVRO_STRING || k == PM_AVRO_BYTES ? OP_BYTES :
				k == PM_AVRO_ENUM ? OP_ENUM_STRING : -1;
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
			return k == PM_AVRO_STRING || k == PM_AVRO_BYTES ? OP_BYTES :
				k == PM_AVRO_FIXED ? OP_FIXED_BYTES : -1;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			if (k != PM_AVRO_LONG)
				return -1;
			switch (ws->logical)
			{
				case PM_AVRO_LT_TIMESTAMP_MILLIS:
					return OP_TS_MILLIS;
				case PM_AVRO_LT_TIMESTAMP_MICROS:
					return OP_TS_MICROS;
				case PM_AVRO_LT_TIMESTAMP_NANOS:
					return OP_TS_NANOS;
				default:
					return -1;
			}
		default:
			return -1;
	}
}

static pm_code
compile(cctx *c, const pm_avro_schema *ws, sink *out, const char *column, int depth,
		plan_node **res)
{
	const pm_type *t = out->type;
	int			op;

	if (depth > PM_AVRO_MAX_DEPTH)
		return pm_fail(c->err, PM_ERR_UNSUPPORTED, "avro column \"%s\" nested too deeply", column);
	if (ws->kind == PM_AVRO_UNION)
		return compile_union(c, ws, out, column, depth, res);
	if (ws->kind == PM_AVRO_NULL)
	{
		/* a field of type "null" reads as NULL whatever was asked for */
		if ((*res = new_plan(c, OP_NULL, ws, out, column)) == NULL)
			return cnomem(c);
		return PM_OK;
	}
	switch (t->id)
	{
		case PM_TYPE_ROW:
			if (ws->kind != PM_AVRO_RECORD)
				return incompatible(c, ws, t, column);
			return compile_record(c, ws, out, column, depth, res);
		case PM_TYPE_ARRAY:
		case PM_TYPE_MAP:
		case PM_TYPE_MULTISET:
			return compile_collection(c, ws, out, column, depth, res);
		case PM_TYPE_VARIANT:
			return pm_fail(c->err, PM_ERR_UNSUPPORTED,
						   "avro column \"%s\": reading %s from avro is not supported", column,
						   pm_type_id_name(t->id));
		default:
			break;
	}
	if ((op = primitive_op(ws, t)) < 0)
		return incompatible(c, ws, t, column);
	if ((*res = new_plan(c, (plan_op) op, ws, out, column)) == NULL)
		return cnomem(c);
	(*res)->want_nanos = op == OP_TS_NANOS && t->precision > 6;
	return PM_OK;
}

pm_code
pm_avro_plan_compile(const pm_avro_schema *writer, const pm_type *request,
					 pm_arena *arena, pm_avro_plan **out, pm_error *err)
{
	cctx		c = {arena, err};
	pm_avro_plan *p;

	if (request == NULL || request->id != PM_TYPE_ROW)
		return pm_fail(err, PM_ERR_INVALID, "avro reader needs a ROW type to read");
	if ((p = pm_arena_zalloc(arena, sizeof(pm_avro_plan))) == NULL)
		return cnomem(&c);
	p->request = request;
	PM_TRY(build_sink(&c, &p->root, request, 0));
	PM_TRY(compile(&c, writer, &p->root, "", 0, &p->top));
	*out = p;
	return PM_OK;
}

/* ----------------------------------------------------------------------
 * Sinks at run time
 * ----------------------------------------------------------------------
 */

static bool
bind_sink(sink *s, pm_vector *v, int64_t cap, pm_arena *arena)
{
	s->vec = v;
	s->cap = cap;
	s->data_cap = 0;
	if (s->type->id == PM_TYPE_MULTISET && v->nchildren == 1)
	{
		/* room for the counts beside the elements */
		pm_vector  *two = pm_arena_zalloc(arena, sizeof(pm_vector) * 2);

		if (two == NULL)
			return false;
		two[0] = v->children[0];
		two[1].type = s->children[1].type;
		v->children = two;
		v->nchildren = 2;
	}
	for (int i = 0; i < s->nchildren; i++)
		if (!bind_sink(&s->children[i], &v->children[i], s->type->id == PM_TYPE_ROW ? cap : 0,
					   arena))
			return false;
	return true;
}

/* Each MULTISET of the batch made the list of its elements (children first). */
static pm_code
expand_multisets(sink *s, pm_arena *arena, pm_error *err)
{
	for (int i = 0; i < s->nchildren; i++)
		PM_TRY(expand_multisets(&s->children[i], arena, err));
	if (s->type->id == PM_TYPE_MULTISET)
		PM_TRY(pm_vector_expand_multiset(s->vec, arena, err));
	return PM_OK;
}

pm_code
pm_avro_plan_begin_batch(pm_avro_plan *plan, int64_t capacity, pm_arena *batch_arena,
						 pm_vector **root, pm_error *err)
{
	pm_vector  *v = pm_arena_zalloc(batch_arena, sizeof(pm_vector));

	if (v == NULL || !pm_vector_init(v, plan->request, capacity, false, batch_arena))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory allocating an avro batch");
	if (!bind_sink(&plan->root, v, capacity, batch_arena))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory allocating an avro batch");
	plan->root_vec = v;
	plan->batch_arena = batch_arena;
	*root = v;
	return PM_OK;
}

static pm_code
sink_grow(dctx *d, sink *s)
{
	int64_t		cap = s->cap < 16 ? 16 : s->cap * 2;

	if (cap > INT32_MAX - 1)
		return pm_fail(d->err, PM_ERR_UNSUPPORTED, "too many avro values in one batch");
	if (!pm_vector_reserve(s->vec, s->vec->length, cap, d->arena))
		return pm_fail(d->err, PM_ERR_NOMEM, "out of memory growing an avro vector");
	s->cap = cap;
	return PM_OK;
}

#define ROOM(d, s) \
	do { if ((s)->vec->length >= (s)->cap) PM_TRY(sink_grow((d), (s))); } while (0)

static pm_code
sink_null(dctx *d, sink *s)
{
	pm_vector  *v = s->vec;
	int64_t		i;

	ROOM(d, s);
	i = v->length;
	if (v->nulls == NULL && !pm_vector_ensure_nulls(v, s->cap, d->arena))
		return pm_fail(d->err, PM_ERR_NOMEM, "out of memory growing an avro vector");
	v->nulls[i] = 1;
	if (s->vsize > 0)
		memset((uint8_t *) v->values + i * s->vsize, 0, (size_t) s->vsize);
	if (v->nanos != NULL)
		v->nanos[i] = 0;
	if (s->has_offsets)
		v->offsets[i + 1] = v->offsets[i];
	if (s->type->id == PM_TYPE_ROW)
		for (int c = 0; c < s->nchildren; c++)
			PM_TRY(sink_null(d, &s->children[c]));
	v->length = i + 1;
	return PM_OK;
}

static pm_code
sink_bytes(dctx *d, sink *s, const uint8_t *bytes, int64_t len)
{
	pm_vector  *v = s->vec;

	ROOM(d, s);
	if (v->data_size + len > INT32_MAX)
		return pm_fail(d->err, PM_ERR_UNSUPPORTED, "avro batch holds more than 2 GiB of bytes");
	if (!pm_vector_append_data(v, &s->data_cap, bytes, len, d->arena))
		return pm_fail(d->err, PM_ERR_NOMEM, "out of memory growing an avro vector");
	v->offsets[v->length + 1] = (int32_t) v->data_size;
	v->length++;
	return PM_OK;
}

#define PUT(d, s, ctype, val) \
	do { \
		ROOM((d), (s)); \
		((ctype *) (s)->vec->values)[(s)->vec->length++] = (val); \
	} while (0)

/* ----------------------------------------------------------------------
 * Primitive reads
 * ----------------------------------------------------------------------
 */

static pm_code
truncated(dctx *d)
{
	return pm_fail(d->err, PM_ERR_CORRUPT, "avro value runs past the end of its block");
}

static inline pm_code
rd_long(dctx *d, int64_t *v)
{
	if (!pm_avro_read_long(&d->p, d->end, v))
		return pm_fail(d->err, PM_ERR_CORRUPT, "invalid or truncated avro varint");
	return PM_OK;
}

static inline pm_code
rd_int(dctx *d, int32_t *v)
{
	int64_t		l;

	PM_TRY(rd_long(d, &l));
	if (l < INT32_MIN || l > INT32_MAX)
		return pm_fail(d->err, PM_ERR_CORRUPT, "avro int out of range: %lld", (long long) l);
	*v = (int32_t) l;
	return PM_OK;
}

/* A length-prefixed bytes/string value. */
static inline pm_code
rd_bytes(dctx *d, const uint8_t **bytes, int64_t *len)
{
	PM_TRY(rd_long(d, len));
	if (*len < 0 || *len > d->end - d->p)
		return pm_fail(d->err, PM_ERR_CORRUPT, "avro bytes length %lld exceeds its block",
					   (long long) *len);
	*bytes = d->p;
	d->p += *len;
	return PM_OK;
}

static inline pm_code
rd_fixed(dctx *d, size_t n, const uint8_t **bytes)
{
	if ((size_t) (d->end - d->p) < n)
		return truncated(d);
	*bytes = d->p;
	d->p += n;
	return PM_OK;
}

static pm_code
rd_float(dctx *d, float *f)
{
	const uint8_t *b;
	uint32_t	u;

	PM_TRY(rd_fixed(d, 4, &b));
	u = (uint32_t) b[0] | (uint32_t) b[1] << 8 | (uint32_t) b[2] << 16 | (uint32_t) b[3] << 24;
	memcpy(f, &u, 4);
	return PM_OK;
}

static pm_code
rd_double(dctx *d, double *f)
{
	const uint8_t *b;
	uint64_t	u = 0;

	PM_TRY(rd_fixed(d, 8, &b));
	for (int i = 7; i >= 0; i--)
		u = u << 8 | b[i];
	memcpy(f, &u, 8);
	return PM_OK;
}

/* Big-endian two's complement (Avro decimal) to an unscaled pm_int128. */
static pm_code
decimal_value(dctx *d, const uint8_t *b, int64_t len, pm_int128 *out)
{
	unsigned __int128 u;
	int64_t		skip = len > 16 ? len - 16 : 0;
	uint8_t		sign;

	if (len == 0)
	{
		*out = 0;
		return PM_OK;
	}
	sign = (b[0] & 0x80) ? 0xff : 0x00;
	for (int64_t i = 0; i < skip; i++)
		if (b[i] != sign)
			return pm_fail(d->err, PM_ERR_CORRUPT, "avro decimal wider than 128 bits");
	if (skip > 0 && ((b[skip] & 0x80) ? 0xff : 0x00) != sign)
		return pm_fail(d->err, PM_ERR_CORRUPT, "avro decimal wider than 128 bits");
	u = sign ? ~(unsigned __int128) 0 : 0;
	for (int64_t i = skip; i < len; i++)
		u = (u << 8) | b[i];
	*out = (pm_int128) u;
	return PM_OK;
}

/* ----------------------------------------------------------------------
 * Skipping (values nobody asked for)
 * ----------------------------------------------------------------------
 */

/*
 * Check a block's item count against the bytes left; *count made positive.
 * *total counts the items of all blocks of the value so far.
 */
static pm_code
block_count(dctx *d, int64_t *count, int32_t item_min_size, int64_t *total)
{
	int64_t		left;

	if (*count < 0)
	{
		int64_t		size;

		if (*count == INT64_MIN)
			return pm_fail(d->err, PM_ERR_CORRUPT, "invalid avro block count");
		*count = -*count;
		PM_TRY(rd_long(d, &size));
		if (size < 0 || size > d->end - d->p)
			return pm_fail(d->err, PM_ERR_CORRUPT, "avro block size %lld exceeds its block",
						   (long long) size);
	}
	left = d->end - d->p;
	if (item_min_size > 0 ? *count > left / item_min_size :
		*count > ZERO_SIZE_ITEM_LIMIT - *total)
		return pm_fail(d->err, PM_ERR_CORRUPT, "avro array or map count %lld exceeds its block",
					   (long long) *count);
	*total += *count;
	return PM_OK;
}

static pm_code
skip_value(dctx *d, const pm_avro_schema *ws, int depth)
{
	const uint8_t *b;
	int64_t		l;

	switch (ws->kind)
	{
		case PM_AVRO_NULL:
			return PM_OK;
		case PM_AVRO_BOOLEAN:
			return rd_fixed(d, 1, &b);
		case PM_AVRO_INT:
		case PM_AVRO_LONG:
		case PM_AVRO_ENUM:
			return rd_long(d, &l);
		case PM_AVRO_FLOAT:
			return rd_fixed(d, 4, &b);
		case PM_AVRO_DOUBLE:
			return rd_fixed(d, 8, &b);
		case PM_AVRO_FIXED:
			return rd_fixed(d, (size_t) ws->size, &b);
		case PM_AVRO_BYTES:
		case PM_AVRO_STRING:
			return rd_bytes(d, &b, &l);
		default:
			break;
	}
	if (depth > PM_AVRO_MAX_DEPTH)
		return pm_fail(d->err, PM_ERR_CORRUPT, "avro value nested deeper than %d levels",
					   PM_AVRO_MAX_DEPTH);
	switch (ws->kind)
	{
		case PM_AVRO_RECORD:
			for (int i = 0; i < ws->nchildren; i++)
				PM_TRY(skip_value(d, ws->children[i], depth + 1));
			return PM_OK;
		case PM_AVRO_UNION:
			PM_TRY(rd_long(d, &l));
			if (l < 0 || l >= ws->nchildren)
				return pm_fail(d->err, PM_ERR_CORRUPT, "avro union branch %lld out of range",
							   (long long) l);
			return skip_value(d, ws->children[l], depth + 1);
		case PM_AVRO_ARRAY:
		case PM_AVRO_MAP:
			{
				bool		is_map = ws->kind == PM_AVRO_MAP;
				int32_t		min = ws->children[0]->min_size + (is_map ? 1 : 0);
				int64_t		total = 0;

				for (;;)
				{
					int64_t		count;

					PM_TRY(rd_long(d, &count));
					if (count == 0)
						return PM_OK;
					PM_TRY(block_count(d, &count, min, &total));
					for (int64_t i = 0; i < count; i++)
					{
						if (is_map)
							PM_TRY(rd_bytes(d, &b, &l));
						PM_TRY(skip_value(d, ws->children[0], depth + 1));
					}
				}
			}
		default:
			return pm_fail(d->err, PM_ERR_CORRUPT, "avro schema node of unknown kind");
	}
}

/* ----------------------------------------------------------------------
 * Decoding
 * ----------------------------------------------------------------------
 */

static pm_code decode(dctx *d, const plan_node *n, int depth);

static pm_code
decode_fields(dctx *d, const plan_node *n, int depth)
{
	for (int i = 0; i < n->nchildren; i++)
	{
		if (n->children[i] != NULL)
			PM_TRY(decode(d, n->children[i], depth + 1));
		else
			PM_TRY(skip_value(d, n->ws->children[i], depth + 1));
	}
	for (int i = 0; i < n->nmissing; i++)
		PM_TRY(sink_null(d, n->missing[i]));
	return PM_OK;
}

/* ARRAY, MAP and array-encoded MAP: blocks of items, then the offset. */
static pm_code
decode_collection(dctx *d, const plan_node *n, int depth)
{
	sink	   *s = n->out;
	sink	   *count_sink = &s->children[0];	/* elements or keys */
	const pm_avro_schema *item = n->ws->children[0];
	int32_t		min = item->min_size + (n->op == OP_MAP ? 1 : 0);
	int64_t		total = 0;

	ROOM(d, s);
	for (;;)
	{
		int64_t		count;

		PM_TRY(rd_long(d, &count));
		if (count == 0)
			break;
		PM_TRY(block_count(d, &count, min, &total));
		if (count_sink->vec->length + count > INT32_MAX - 1)
			return pm_fail(d->err, PM_ERR_UNSUPPORTED, "too many avro values in one batch");
		for (int64_t i = 0; i < count; i++)
		{
			if (n->op == OP_MAP)
			{
				const uint8_t *b;
				int64_t		l;

				PM_TRY(rd_bytes(d, &b, &l));
				PM_TRY(sink_bytes(d, &s->children[0], b, l));
			}
			PM_TRY(decode(d, n->children[0], depth + 1));
		}
	}
	s->vec->offsets[s->vec->length + 1] = (int32_t) count_sink->vec->length;
	s->vec->length++;
	return PM_OK;
}

static pm_code
decode_timestamp(dctx *d, const plan_node *n)
{
	sink	   *s = n->out;
	int64_t		v,
				micros;
	uint16_t	nanos = 0;

	PM_TRY(rd_long(d, &v));
	if (n->op == OP_TS_MILLIS)
	{
		if (__builtin_mul_overflow(v, (int64_t) 1000, &micros))
			return pm_fail(d->err, PM_ERR_CORRUPT, "avro timestamp-millis out of range");
	}
	else if (n->op == OP_TS_MICROS)
		micros = v;
	else
	{
		micros = pm_floor_div(v, 1000);
		nanos = (uint16_t) pm_floor_mod(v, 1000);
	}
	ROOM(d, s);
	if (n->want_nanos && nanos != 0 && s->vec->nanos == NULL &&
		(s->vec->nanos = pm_arena_zalloc(d->arena, sizeof(uint16_t) * (size_t) s->cap)) == NULL)
		return pm_fail(d->err, PM_ERR_NOMEM, "out of memory growing an avro vector");
	if (s->vec->nanos != NULL)
		s->vec->nanos[s->vec->length] = nanos;
	((int64_t *) s->vec->values)[s->vec->length++] = micros;
	return PM_OK;
}

static pm_code
decode(dctx *d, const plan_node *n, int depth)
{
	sink	   *s = n->out;
	int32_t		i32;
	int64_t		i64;
	float		f32;
	double		f64;
	const uint8_t *b;
	pm_int128	dec;

	switch (n->op)
	{
		case OP_SKIP:
			return skip_value(d, n->ws, depth);
		case OP_NULL:
			return sink_null(d, s);
		case OP_FAIL:
			return pm_fail(d->err, PM_ERR_UNSUPPORTED,
						   "avro column \"%s\": union branch %s cannot be read as %s",
						   n->column, pm_avro_kind_name(n->ws->kind),
						   pm_type_id_name(s->type->id));
		case OP_UNION:
			PM_TRY(rd_long(d, &i64));
			if (i64 < 0 || i64 >= n->nchildren)
				return pm_fail(d->err, PM_ERR_CORRUPT, "avro union branch %lld out of range",
							   (long long) i64);
			return decode(d, n->children[i64], depth);
		case OP_BOOL:
			PM_TRY(rd_fixed(d, 1, &b));
			if (*b > 1)
				return pm_fail(d->err, PM_ERR_CORRUPT, "avro boolean byte %u", *b);
			PUT(d, s, uint8_t, *b);
			return PM_OK;
		case OP_INT_I8:
			PM_TRY(rd_int(d, &i32));
			PUT(d, s, int8_t, (int8_t) i32);
			return PM_OK;
		case OP_INT_I16:
			PM_TRY(rd_int(d, &i32));
			PUT(d, s, int16_t, (int16_t) i32);
			return PM_OK;
		case OP_INT_I32:
			PM_TRY(rd_int(d, &i32));
			PUT(d, s, int32_t, i32);
			return PM_OK;
		case OP_INT_I64:
			PM_TRY(rd_int(d, &i32));
			PUT(d, s, int64_t, i32);
			return PM_OK;
		case OP_LONG_I64:
			PM_TRY(rd_long(d, &i64));
			PUT(d, s, int64_t, i64);
			return PM_OK;
		case OP_INT_F32:
			PM_TRY(rd_int(d, &i32));
			PUT(d, s, float, (float) i32);
			return PM_OK;
		case OP_LONG_F32:
			PM_TRY(rd_long(d, &i64));
			PUT(d, s, float, (float) i64);
			return PM_OK;
		case OP_FLOAT_F32:
			PM_TRY(rd_float(d, &f32));
			PUT(d, s, float, f32);
			return PM_OK;
		case OP_INT_F64:
			PM_TRY(rd_int(d, &i32));
			PUT(d, s, double, i32);
			return PM_OK;
		case OP_LONG_F64:
			PM_TRY(rd_long(d, &i64));
			PUT(d, s, double, (double) i64);
			return PM_OK;
		case OP_FLOAT_F64:
			PM_TRY(rd_float(d, &f32));
			PUT(d, s, double, f32);
			return PM_OK;
		case OP_DOUBLE_F64:
			PM_TRY(rd_double(d, &f64));
			PUT(d, s, double, f64);
			return PM_OK;
		case OP_TIME_MICROS:
			PM_TRY(rd_long(d, &i64));
			i64 = pm_floor_div(i64, 1000);
			if (i64 < INT32_MIN || i64 > INT32_MAX)
				return pm_fail(d->err, PM_ERR_CORRUPT, "avro time-micros out of range");
			PUT(d, s, int32_t, (int32_t) i64);
			return PM_OK;
		case OP_TS_MILLIS:
		case OP_TS_MICROS:
		case OP_TS_NANOS:
			return decode_timestamp(d, n);
		case OP_BYTES:
			PM_TRY(rd_bytes(d, &b, &i64));
			return sink_bytes(d, s, b, i64);
		case OP_FIXED_BYTES:
			PM_TRY(rd_fixed(d, (size_t) n->ws->size, &b));
			return sink_bytes(d, s, b, n->ws->size);
		case OP_ENUM_STRING:
			PM_TRY(rd_long(d, &i64));
			if (i64 < 0 || i64 >= n->ws->nsymbols)
				return pm_fail(d->err, PM_ERR_CORRUPT, "avro enum index %lld out of range",
							   (long long) i64);
			return sink_bytes(d, s, (const uint8_t *) n->ws->names[i64],
							  (int64_t) strlen(n->ws->names[i64]));
		case OP_DEC_BYTES:
			PM_TRY(rd_bytes(d, &b, &i64));
			PM_TRY(decimal_value(d, b, i64, &dec));
			PUT(d, s, pm_int128, dec);
			return PM_OK;
		case OP_DEC_FIXED:
			PM_TRY(rd_fixed(d, (size_t) n->ws->size, &b));
			PM_TRY(decimal_value(d, b, n->ws->size, &dec));
			PUT(d, s, pm_int128, dec);
			return PM_OK;
		case OP_RECORD:
			ROOM(d, s);
			PM_TRY(decode_fields(d, n, depth));
			s->vec->length++;
			return PM_OK;
		case OP_KV_RECORD:
			return decode_fields(d, n, depth);
		case OP_ARRAY:
		case OP_MAP:
		case OP_ARRAY_MAP:
			return decode_collection(d, n, depth);
	}
	return pm_fail(d->err, PM_ERR_CORRUPT, "invalid avro decode plan");
}

pm_code
pm_avro_plan_end_batch(pm_avro_plan *plan, pm_error *err)
{
	return expand_multisets(&plan->root, plan->batch_arena, err);
}

pm_code
pm_avro_plan_decode_row(pm_avro_plan *plan, const uint8_t **pos, const uint8_t *end,
						pm_error *err)
{
	dctx		d;
	pm_code		rc;

	d.p = *pos;
	d.end = end;
	d.arena = plan->batch_arena;
	d.err = err;
	rc = decode(&d, plan->top, 0);
	*pos = d.p;
	return rc;
}
