/*-------------------------------------------------------------------------
 * avro_schema.c
 *	  Parse an Avro writer schema (JSON, via jansson) into pm_avro_schema nodes.
 *
 * Hand-written because the C Avro library (libavro) is not a dependency we
 * want and its reader cannot do Paimon's projection into column vectors; the
 * JSON itself is parsed by jansson. Handles primitive names, named type
 * references (with namespaces; recursion allowed), records, enums, arrays,
 * maps, unions, fixed, and the logical types Paimon writes. Invalid logical
 * type annotations are ignored, as the Avro specification requires. Must not
 * trust the JSON: nesting is bounded by PM_AVRO_MAX_DEPTH.
 *
 * Spec: Apache Avro 1.11 specification, "Schema Declaration", "Names",
 * "Logical Types"; apache/paimon .../format/avro/AvroSchemaConverter.java.
 *-------------------------------------------------------------------------
 */
#include "format/avro/avro_int.h"

#include <string.h>

#include <jansson.h>

typedef struct parse_ctx
{
	pm_arena   *arena;
	pm_error   *err;
	pm_avro_schema **named;		/* named types seen so far */
	int			nnamed;
	int			named_cap;
} parse_ctx;

static pm_code parse_node(parse_ctx *c, json_t *j, const char *ns, int depth,
						  pm_avro_schema **out);

const char *
pm_avro_kind_name(pm_avro_kind kind)
{
	static const char *const names[] = {
		"null", "boolean", "int", "long", "float", "double", "bytes", "string",
		"record", "enum", "array", "map", "union", "fixed"
	};

	if ((int) kind < 0 || (size_t) kind >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[kind];
}

static pm_code
nomem(parse_ctx *c)
{
	return pm_fail(c->err, PM_ERR_NOMEM, "out of memory parsing avro schema");
}

static pm_avro_schema *
new_node(parse_ctx *c, pm_avro_kind kind)
{
	pm_avro_schema *s = pm_arena_zalloc(c->arena, sizeof(pm_avro_schema));

	if (s == NULL)
		return NULL;
	s->kind = kind;
	switch (kind)
	{
		case PM_AVRO_NULL:
			s->min_size = 0;
			break;
		case PM_AVRO_FLOAT:
			s->min_size = 4;
			break;
		case PM_AVRO_DOUBLE:
			s->min_size = 8;
			break;
		default:
			s->min_size = 1;	/* record and fixed are set by their parser */
			break;
	}
	return s;
}

/* Primitive type name -> kind; -1 if not a primitive name. */
static int
primitive_kind(const char *name)
{
	static const struct
	{
		const char *name;
		pm_avro_kind kind;
	}			prims[] = {
		{"null", PM_AVRO_NULL}, {"boolean", PM_AVRO_BOOLEAN}, {"int", PM_AVRO_INT},
		{"long", PM_AVRO_LONG}, {"float", PM_AVRO_FLOAT}, {"double", PM_AVRO_DOUBLE},
		{"bytes", PM_AVRO_BYTES}, {"string", PM_AVRO_STRING}
	};

	for (size_t i = 0; i < sizeof(prims) / sizeof(prims[0]); i++)
		if (strcmp(prims[i].name, name) == 0)
			return (int) prims[i].kind;
	return -1;
}

static pm_avro_schema *
find_named(parse_ctx *c, const char *fullname)
{
	for (int i = 0; i < c->nnamed; i++)
		if (strcmp(c->named[i]->name, fullname) == 0)
			return c->named[i];
	return NULL;
}

static pm_code
register_named(parse_ctx *c, pm_avro_schema *s)
{
	if (find_named(c, s->name) != NULL)
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro schema defines type \"%s\" twice", s->name);
	if (c->nnamed == c->named_cap)
	{
		int			cap = c->named_cap > 0 ? c->named_cap * 2 : 16;
		pm_avro_schema **n = pm_arena_realloc(c->arena, c->named,
											  sizeof(*n) * (size_t) c->named_cap,
											  sizeof(*n) * (size_t) cap);

		if (n == NULL)
			return nomem(c);
		c->named = n;
		c->named_cap = cap;
	}
	c->named[c->nnamed++] = s;
	return PM_OK;
}

/*
 * Full name of a named type from its "name" and "namespace" (or the
 * enclosing namespace); *new_ns receives the namespace it defines.
 */
static pm_code
full_name(parse_ctx *c, json_t *j, const char *ns, const char **fullname,
		  const char **new_ns)
{
	const char *name = json_string_value(json_object_get(j, "name"));
	json_t	   *jns = json_object_get(j, "namespace");
	const char *dot;

	if (name == NULL || name[0] == '\0')
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro named type without a name");
	if ((dot = strrchr(name, '.')) != NULL)
	{
		*fullname = pm_arena_strdup(c->arena, name);
		*new_ns = pm_arena_strndup(c->arena, name, (size_t) (dot - name));
		if (*new_ns == NULL)
			return nomem(c);
	}
	else
	{
		if (json_is_string(jns))
			ns = json_string_value(jns);
		*new_ns = ns;
		if (ns != NULL && ns[0] != '\0')
			*fullname = pm_arena_sprintf(c->arena, "%s.%s", ns, name);
		else
			*fullname = pm_arena_strdup(c->arena, name);
	}
	if (*fullname == NULL)
		return nomem(c);
	return PM_OK;
}

/* A type given by name: a primitive or a named type defined earlier. */
static pm_code
parse_name_ref(parse_ctx *c, const char *name, const char *ns, pm_avro_schema **out)
{
	int			prim = primitive_kind(name);
	pm_avro_schema *s = NULL;

	if (prim >= 0)
	{
		if ((*out = new_node(c, (pm_avro_kind) prim)) == NULL)
			return nomem(c);
		return PM_OK;
	}
	if (strchr(name, '.') == NULL && ns != NULL && ns[0] != '\0')
	{
		char	   *full = pm_arena_sprintf(c->arena, "%s.%s", ns, name);

		if (full == NULL)
			return nomem(c);
		s = find_named(c, full);
	}
	if (s == NULL)
		s = find_named(c, name);
	if (s == NULL)
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro schema references unknown type \"%.100s\"",
					   name);
	*out = s;
	return PM_OK;
}

static bool
json_small_int(json_t *j, int32_t lo, int32_t hi, int32_t *out)
{
	json_int_t	v;

	if (!json_is_integer(j))
		return false;
	v = json_integer_value(j);
	if (v < lo || v > hi)
		return false;
	*out = (int32_t) v;
	return true;
}

/* Apply a "logicalType" annotation; invalid ones are ignored (Avro spec). */
static void
apply_logical(pm_avro_schema *s, json_t *j)
{
	const char *lt = json_string_value(json_object_get(j, "logicalType"));

	if (lt == NULL)
		return;
	switch (s->kind)
	{
		case PM_AVRO_INT:
			if (strcmp(lt, "date") == 0)
				s->logical = PM_AVRO_LT_DATE;
			else if (strcmp(lt, "time-millis") == 0)
				s->logical = PM_AVRO_LT_TIME_MILLIS;
			break;
		case PM_AVRO_LONG:
			if (strcmp(lt, "time-micros") == 0)
				s->logical = PM_AVRO_LT_TIME_MICROS;
			else
			{
				const char *t = lt;

				if (strncmp(t, "local-", 6) == 0)
				{
					s->local = true;
					t += 6;
				}
				if (strcmp(t, "timestamp-millis") == 0)
					s->logical = PM_AVRO_LT_TIMESTAMP_MILLIS;
				else if (strcmp(t, "timestamp-micros") == 0)
					s->logical = PM_AVRO_LT_TIMESTAMP_MICROS;
				else if (strcmp(t, "timestamp-nanos") == 0)
					s->logical = PM_AVRO_LT_TIMESTAMP_NANOS;
				else
					s->local = false;
			}
			break;
		case PM_AVRO_BYTES:
		case PM_AVRO_FIXED:
			if (strcmp(lt, "decimal") == 0)
			{
				int32_t		p,
							sc = 0;
				json_t	   *jsc = json_object_get(j, "scale");

				if (!json_small_int(json_object_get(j, "precision"), 1, 1000, &p))
					break;
				if (jsc != NULL && !json_small_int(jsc, 0, p, &sc))
					break;
				s->logical = PM_AVRO_LT_DECIMAL;
				s->precision = p;
				s->scale = sc;
			}
			break;
		case PM_AVRO_ARRAY:
			if (strcmp(lt, "map") == 0)
				s->logical = PM_AVRO_LT_MAP;
			break;
		default:
			break;
	}
}

static pm_code
parse_record(parse_ctx *c, json_t *j, const char *ns, int depth, pm_avro_schema *s)
{
	json_t	   *fields = json_object_get(j, "fields");
	size_t		n;
	int64_t		min = 0;

	if (!json_is_array(fields))
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro record \"%s\" has no fields list", s->name);
	n = json_array_size(fields);
	if (n > 100000)
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro record \"%s\" has too many fields", s->name);
	s->children = pm_arena_zalloc(c->arena, sizeof(pm_avro_schema *) * (n + 1));
	s->names = pm_arena_zalloc(c->arena, sizeof(char *) * (n + 1));
	if (s->children == NULL || s->names == NULL)
		return nomem(c);
	s->min_size = 0;			/* while parsing (recursive references) */
	for (size_t i = 0; i < n; i++)
	{
		json_t	   *f = json_array_get(fields, i);
		const char *fname = json_string_value(json_object_get(f, "name"));
		json_t	   *ftype = json_object_get(f, "type");

		if (fname == NULL || ftype == NULL)
			return pm_fail(c->err, PM_ERR_CORRUPT,
						   "avro record \"%s\" has a field without name or type", s->name);
		if ((s->names[i] = pm_arena_strdup(c->arena, fname)) == NULL)
			return nomem(c);
		PM_TRY(parse_node(c, ftype, ns, depth + 1, &s->children[i]));
		s->nchildren = (int) i + 1;
		min += s->children[i]->min_size;
		if (min > (1 << 30))
			min = 1 << 30;
	}
	s->min_size = (int32_t) min;
	return PM_OK;
}

static pm_code
parse_named(parse_ctx *c, json_t *j, const char *type, const char *ns, int depth,
			pm_avro_schema **out)
{
	pm_avro_schema *s;
	const char *new_ns;
	pm_avro_kind kind;

	if (strcmp(type, "record") == 0 || strcmp(type, "error") == 0)
		kind = PM_AVRO_RECORD;
	else if (strcmp(type, "enum") == 0)
		kind = PM_AVRO_ENUM;
	else
		kind = PM_AVRO_FIXED;
	if ((s = new_node(c, kind)) == NULL)
		return nomem(c);
	PM_TRY(full_name(c, j, ns, &s->name, &new_ns));
	PM_TRY(register_named(c, s));
	*out = s;
	if (kind == PM_AVRO_RECORD)
		return parse_record(c, j, new_ns, depth, s);
	if (kind == PM_AVRO_FIXED)
	{
		if (!json_small_int(json_object_get(j, "size"), 0, 1 << 30, &s->size))
			return pm_fail(c->err, PM_ERR_CORRUPT, "avro fixed \"%s\" has no valid size", s->name);
		s->min_size = s->size;
		apply_logical(s, j);
		return PM_OK;
	}
	else
	{
		json_t	   *syms = json_object_get(j, "symbols");
		size_t		n;

		if (!json_is_array(syms) || (n = json_array_size(syms)) > 1000000)
			return pm_fail(c->err, PM_ERR_CORRUPT, "avro enum \"%s\" has no valid symbols",
						   s->name);
		if ((s->names = pm_arena_zalloc(c->arena, sizeof(char *) * (n + 1))) == NULL)
			return nomem(c);
		for (size_t i = 0; i < n; i++)
		{
			const char *sym = json_string_value(json_array_get(syms, i));

			if (sym == NULL)
				return pm_fail(c->err, PM_ERR_CORRUPT, "avro enum \"%s\" has a non-string symbol",
							   s->name);
			if ((s->names[i] = pm_arena_strdup(c->arena, sym)) == NULL)
				return nomem(c);
		}
		s->nsymbols = (int) n;
		return PM_OK;
	}
}

static pm_code
parse_union(parse_ctx *c, json_t *j, const char *ns, int depth, pm_avro_schema **out)
{
	size_t		n = json_array_size(j);
	pm_avro_schema *s = new_node(c, PM_AVRO_UNION);

	if (s == NULL)
		return nomem(c);
	if (n == 0 || n > 10000)
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro union with %zu branches", n);
	if ((s->children = pm_arena_zalloc(c->arena, sizeof(pm_avro_schema *) * n)) == NULL)
		return nomem(c);
	for (size_t i = 0; i < n; i++)
	{
		PM_TRY(parse_node(c, json_array_get(j, i), ns, depth + 1, &s->children[i]));
		if (s->children[i]->kind == PM_AVRO_UNION)
			return pm_fail(c->err, PM_ERR_CORRUPT, "avro union directly inside a union");
		s->nchildren = (int) i + 1;
	}
	*out = s;
	return PM_OK;
}

static pm_code
parse_object(parse_ctx *c, json_t *j, const char *ns, int depth, pm_avro_schema **out)
{
	json_t	   *jt = json_object_get(j, "type");
	const char *type;
	int			prim;

	if (jt == NULL)
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro schema object without \"type\"");
	if (!json_is_string(jt))
		return parse_node(c, jt, ns, depth + 1, out);	/* {"type": {...}} */
	type = json_string_value(jt);
	if ((prim = primitive_kind(type)) >= 0)
	{
		if ((*out = new_node(c, (pm_avro_kind) prim)) == NULL)
			return nomem(c);
		apply_logical(*out, j);
		return PM_OK;
	}
	if (strcmp(type, "record") == 0 || strcmp(type, "error") == 0 ||
		strcmp(type, "enum") == 0 || strcmp(type, "fixed") == 0)
		return parse_named(c, j, type, ns, depth, out);
	if (strcmp(type, "array") == 0 || strcmp(type, "map") == 0)
	{
		bool		is_array = type[0] == 'a';
		json_t	   *inner = json_object_get(j, is_array ? "items" : "values");
		pm_avro_schema *s = new_node(c, is_array ? PM_AVRO_ARRAY : PM_AVRO_MAP);

		if (s == NULL || (s->children = pm_arena_zalloc(c->arena, sizeof(pm_avro_schema *))) == NULL)
			return nomem(c);
		if (inner == NULL)
			return pm_fail(c->err, PM_ERR_CORRUPT, "avro %s without %s", type,
						   is_array ? "items" : "values");
		PM_TRY(parse_node(c, inner, ns, depth + 1, &s->children[0]));
		s->nchildren = 1;
		apply_logical(s, j);
		*out = s;
		return PM_OK;
	}
	/* a reference written as {"type": "SomeName"} */
	return parse_name_ref(c, type, ns, out);
}

static pm_code
parse_node(parse_ctx *c, json_t *j, const char *ns, int depth, pm_avro_schema **out)
{
	if (depth > PM_AVRO_MAX_DEPTH)
		return pm_fail(c->err, PM_ERR_CORRUPT, "avro schema nested deeper than %d levels",
					   PM_AVRO_MAX_DEPTH);
	if (json_is_string(j))
		return parse_name_ref(c, json_string_value(j), ns, out);
	if (json_is_array(j))
		return parse_union(c, j, ns, depth, out);
	if (json_is_object(j))
		return parse_object(c, j, ns, depth, out);
	return pm_fail(c->err, PM_ERR_CORRUPT, "avro schema has a value that is not a type");
}

pm_code
pm_avro_schema_parse(const char *json, size_t len, pm_arena *arena,
					 pm_avro_schema **out, pm_error *err)
{
	json_error_t jerr;
	json_t	   *root;
	parse_ctx	c;
	pm_code		rc;

	memset(&c, 0, sizeof(c));
	c.arena = arena;
	c.err = err;
	root = json_loadb(json, len, JSON_DECODE_ANY, &jerr);
	if (root == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "avro schema is not valid json: %.120s", jerr.text);
	rc = parse_node(&c, root, NULL, 0, out);
	json_decref(root);
	return rc;
}

/* ----------------------------------------------------------------------
 * Writer schema -> Paimon type (the inverse of AvroSchemaConverter)
 * ----------------------------------------------------------------------
 */

/* Depth beyond which recursive records are cut off (their field omitted). */
#define TYPE_MAX_DEPTH 16

static pm_code
type_of(const pm_avro_schema *s, bool nullable, pm_arena *arena, int depth,
		const pm_type **out, pm_error *err);

static pm_code
type_nomem(pm_error *err)
{
	return pm_fail(err, PM_ERR_NOMEM, "out of memory converting an avro schema");
}

static pm_code
record_type(const pm_avro_schema *s, bool nullable, pm_arena *arena, int depth,
			const pm_type **out, pm_error *err)
{
	pm_field   *fields = pm_arena_zalloc(arena, sizeof(pm_field) * (size_t) (s->nchildren + 1));
	int			n = 0;

	if (fields == NULL)
		return type_nomem(err);
	for (int i = 0; i < s->nchildren; i++)
	{
		const pm_type *ft = NULL;

		PM_TRY(type_of(s->children[i], false, arena, depth + 1, &ft, err));
		if (ft == NULL)
			continue;			/* cut-off recursion */
		fields[n].id = i;
		fields[n].name = pm_arena_strdup(arena, s->names[i]);
		fields[n].type = ft;
		if (fields[n].name == NULL)
			return type_nomem(err);
		n++;
	}
	if ((*out = pm_type_new_row(arena, fields, n, nullable)) == NULL)
		return type_nomem(err);
	return PM_OK;
}

/* The Paimon type of an Avro value; *out = NULL when cut off by depth. */
static pm_code
type_of(const pm_avro_schema *s, bool nullable, pm_arena *arena, int depth,
		const pm_type **out, pm_error *err)
{
	pm_type    *t = NULL;
	const pm_type *inner = NULL;

	*out = NULL;
	if (depth > TYPE_MAX_DEPTH)
		return PM_OK;
	switch (s->kind)
	{
		case PM_AVRO_UNION:
			{
				const pm_avro_schema *first = NULL;
				bool		has_null = false;

				for (int i = 0; i < s->nchildren; i++)
				{
					if (s->children[i]->kind == PM_AVRO_NULL)
						has_null = true;
					else if (first == NULL)
						first = s->children[i];
				}
				if (first == NULL)
					return type_of(s->children[0], true, arena, depth, out, err);
				return type_of(first, nullable || has_null, arena, depth, out, err);
			}
		case PM_AVRO_NULL:
			t = pm_type_new(arena, PM_TYPE_INT, true);
			break;
		case PM_AVRO_BOOLEAN:
			t = pm_type_new(arena, PM_TYPE_BOOLEAN, nullable);
			break;
		case PM_AVRO_INT:
			t = pm_type_new(arena, s->logical == PM_AVRO_LT_DATE ? PM_TYPE_DATE :
							s->logical == PM_AVRO_LT_TIME_MILLIS ? PM_TYPE_TIME : PM_TYPE_INT,
							nullable);
			if (t != NULL && s->logical == PM_AVRO_LT_TIME_MILLIS)
				t->precision = 3;
			break;
		case PM_AVRO_LONG:
			if (s->logical == PM_AVRO_LT_TIME_MICROS)
			{
				if ((t = pm_type_new(arena, PM_TYPE_TIME, nullable)) != NULL)
					t->precision = 3;
			}
			else if (s->logical == PM_AVRO_LT_TIMESTAMP_MILLIS ||
					 s->logical == PM_AVRO_LT_TIMESTAMP_MICROS ||
					 s->logical == PM_AVRO_LT_TIMESTAMP_NANOS)
			{
				t = pm_type_new(arena, s->local ? PM_TYPE_TIMESTAMP_LTZ : PM_TYPE_TIMESTAMP,
								nullable);
				if (t != NULL)
					t->precision = s->logical == PM_AVRO_LT_TIMESTAMP_MILLIS ? 3 :
						s->logical == PM_AVRO_LT_TIMESTAMP_MICROS ? 6 : 9;
			}
			else
				t = pm_type_new(arena, PM_TYPE_BIGINT, nullable);
			break;
		case PM_AVRO_FLOAT:
			t = pm_type_new(arena, PM_TYPE_FLOAT, nullable);
			break;
		case PM_AVRO_DOUBLE:
			t = pm_type_new(arena, PM_TYPE_DOUBLE, nullable);
			break;
		case PM_AVRO_BYTES:
		case PM_AVRO_FIXED:
			if (s->logical == PM_AVRO_LT_DECIMAL && s->precision <= 38)
				t = pm_type_new_decimal(arena, s->precision, s->scale, nullable);
			else if (s->kind == PM_AVRO_FIXED)
			{
				if ((t = pm_type_new(arena, PM_TYPE_BINARY, nullable)) != NULL)
					t->length = s->size;
			}
			else if ((t = pm_type_new(arena, PM_TYPE_VARBINARY, nullable)) != NULL)
				t->length = PM_MAX_VARCHAR_LENGTH;
			break;
		case PM_AVRO_STRING:
		case PM_AVRO_ENUM:
			if ((t = pm_type_new(arena, PM_TYPE_VARCHAR, nullable)) != NULL)
				t->length = PM_MAX_VARCHAR_LENGTH;
			break;
		case PM_AVRO_RECORD:
			return record_type(s, nullable, arena, depth, out, err);
		case PM_AVRO_ARRAY:
			{
				const pm_avro_schema *it = s->children[0];
				int			k = -1,
							v = -1;

				if (it->kind == PM_AVRO_RECORD && s->logical == PM_AVRO_LT_MAP)
					for (int i = 0; i < it->nchildren; i++)
					{
						if (strcmp(it->names[i], "key") == 0)
							k = i;
						else if (strcmp(it->names[i], "value") == 0)
							v = i;
					}
				if (k >= 0 && v >= 0)
				{
					const pm_type *kt,
							   *vt;

					PM_TRY(type_of(it->children[k], false, arena, depth + 1, &kt, err));
					PM_TRY(type_of(it->children[v], false, arena, depth + 1, &vt, err));
					if (kt == NULL || vt == NULL)
						return PM_OK;
					t = pm_type_new_map(arena, kt, vt, nullable);
					break;
				}
				PM_TRY(type_of(it, false, arena, depth + 1, &inner, err));
				if (inner == NULL)
					return PM_OK;
				t = pm_type_new_array(arena, inner, nullable);
				break;
			}
		case PM_AVRO_MAP:
			{
				pm_type    *kt = pm_type_new(arena, PM_TYPE_VARCHAR, false);

				if (kt == NULL)
					return type_nomem(err);
				kt->length = PM_MAX_VARCHAR_LENGTH;
				PM_TRY(type_of(s->children[0], false, arena, depth + 1, &inner, err));
				if (inner == NULL)
					return PM_OK;
				t = pm_type_new_map(arena, kt, inner, nullable);
				break;
			}
	}
	if (t == NULL)
		return type_nomem(err);
	*out = t;
	return PM_OK;
}

pm_code
pm_avro_schema_to_type(const pm_avro_schema *schema, pm_arena *arena, const pm_type **out,
					   pm_error *err)
{
	const pm_avro_schema *s = schema;

	if (s->kind == PM_AVRO_UNION)
		for (int i = 0; i < s->nchildren; i++)
			if (s->children[i]->kind == PM_AVRO_RECORD)
			{
				s = s->children[i];
				break;
			}
	if (s->kind != PM_AVRO_RECORD)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "avro file holds %s values, not records",
					   pm_avro_kind_name(s->kind));
	return record_type(s, false, arena, 0, out, err);
}
