/*-------------------------------------------------------------------------
 * data_type.c
 *	  Parse Paimon data types from schema JSON and type strings.
 *
 * Hand-written: the type grammar is Paimon's own (DataTypeJsonParser.java).
 * Keywords are case-insensitive; tokens are identifiers, numbers and the
 * symbols < > ( ) , ; each type may be followed by NULL or NOT NULL.
 * Nesting is bounded (MAX_DEPTH) so hostile input cannot exhaust the stack.
 *-------------------------------------------------------------------------
 */
#include "row/data_type.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH 64

typedef struct lexer
{
	const char *s;
	size_t		pos;
	pm_arena   *arena;
	pm_error   *err;
	int32_t		next_field_id;
} lexer;

typedef enum tok_kind
{
	TOK_END,
	TOK_WORD,
	TOK_NUMBER,
	TOK_SYMBOL
} tok_kind;

typedef struct token
{
	tok_kind	kind;
	const char *start;
	size_t		len;
	char		symbol;
	int64_t		number;
} token;

static void
skip_space(lexer *lx)
{
	while (lx->s[lx->pos] != '\0' && isspace((unsigned char) lx->s[lx->pos]))
		lx->pos++;
}

static token
peek(lexer *lx)
{
	token		t;
	size_t		p;
	const char *s;

	skip_space(lx);
	p = lx->pos;
	s = lx->s;
	memset(&t, 0, sizeof(t));
	t.start = s + p;
	if (s[p] == '\0')
		t.kind = TOK_END;
	else if (isdigit((unsigned char) s[p]))
	{
		t.kind = TOK_NUMBER;
		while (isdigit((unsigned char) s[p + t.len]))
		{
			if (t.number < 100000000000LL)
				t.number = t.number * 10 + (s[p + t.len] - '0');
			t.len++;
		}
	}
	else if (isalpha((unsigned char) s[p]) || s[p] == '_' || s[p] == '`')
	{
		t.kind = TOK_WORD;
		if (s[p] == '`')
		{
			/* quoted identifier (ROW field names in string form) */
			t.len = 1;
			while (s[p + t.len] != '\0' && s[p + t.len] != '`')
				t.len++;
			if (s[p + t.len] == '`')
				t.len++;
		}
		else
			while (isalnum((unsigned char) s[p + t.len]) || s[p + t.len] == '_')
				t.len++;
	}
	else
	{
		t.kind = TOK_SYMBOL;
		t.symbol = s[p];
		t.len = 1;
	}
	return t;
}

static void
advance(lexer *lx, token t)
{
	lx->pos = (size_t) (t.start - lx->s) + t.len;
}

static bool
tok_is(token t, const char *word)
{
	return t.kind == TOK_WORD && strlen(word) == t.len &&
		strncasecmp(t.start, word, t.len) == 0;
}

static bool
accept_word(lexer *lx, const char *word)
{
	token		t = peek(lx);

	if (!tok_is(t, word))
		return false;
	advance(lx, t);
	return true;
}

static bool
accept_symbol(lexer *lx, char c)
{
	token		t = peek(lx);

	if (t.kind != TOK_SYMBOL || t.symbol != c)
		return false;
	advance(lx, t);
	return true;
}

static pm_code
syntax_error(lexer *lx)
{
	return pm_fail(lx->err, PM_ERR_CORRUPT, "invalid data type \"%.100s\"", lx->s);
}

/* "(n)" if present: *value = n; returns false on a syntax error */
static bool
optional_param(lexer *lx, int64_t *value, bool *present)
{
	token		t;

	*present = false;
	if (!accept_symbol(lx, '('))
		return true;
	t = peek(lx);
	if (t.kind != TOK_NUMBER)
		return false;
	advance(lx, t);
	*value = t.number;
	*present = true;
	return accept_symbol(lx, ')');
}

static pm_code parse_type(lexer *lx, int depth, const pm_type **out);

/* NULL / NOT NULL suffix */
static bool
parse_nullability(lexer *lx)
{
	token		t = peek(lx);

	if (tok_is(t, "NOT"))
	{
		lexer		save = *lx;

		advance(lx, t);
		if (accept_word(lx, "NULL"))
			return false;
		*lx = save;
		return true;
	}
	if (tok_is(t, "NULL"))
		advance(lx, t);
	return true;
}

static pm_code
parse_row_fields(lexer *lx, int depth, pm_type **out)
{
	pm_field	fields[1024];
	int			n = 0;

	if (accept_symbol(lx, '>'))
		goto done;
	for (;;)
	{
		token		t = peek(lx);
		const char *name;
		size_t		len;

		if (t.kind != TOK_WORD || n >= 1024)
			return syntax_error(lx);
		advance(lx, t);
		name = t.start;
		len = t.len;
		if (len >= 2 && name[0] == '`')
		{
			name++;
			len -= (name[len - 1] == '`') ? 2 : 1;
		}
		fields[n].name = pm_arena_strndup(lx->arena, name, len);
		if (fields[n].name == NULL)
			return pm_fail(lx->err, PM_ERR_NOMEM, "out of memory");
		fields[n].id = lx->next_field_id++;
		fields[n].description = NULL;
		PM_TRY(parse_type(lx, depth + 1, &fields[n].type));
		/* optional 'description' string literal */
		skip_space(lx);
		if (lx->s[lx->pos] == '\'')
		{
			lx->pos++;
			while (lx->s[lx->pos] != '\0' && lx->s[lx->pos] != '\'')
				lx->pos++;
			if (lx->s[lx->pos] == '\'')
				lx->pos++;
		}
		n++;
		if (accept_symbol(lx, ','))
			continue;
		if (accept_symbol(lx, '>'))
			break;
		return syntax_error(lx);
	}
done:
	*out = pm_type_new_row(lx->arena, fields, n, true);
	if (*out == NULL)
		return pm_fail(lx->err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

static pm_code
parse_type(lexer *lx, int depth, const pm_type **out)
{
	token		t;
	pm_type    *type = NULL;
	int64_t		p1 = 0;
	bool		has1 = false;

	if (depth > MAX_DEPTH)
		return pm_fail(lx->err, PM_ERR_CORRUPT, "data type nested too deeply");
	t = peek(lx);
	if (t.kind != TOK_WORD)
		return syntax_error(lx);
	advance(lx, t);

#define NEW(id) do { type = pm_type_new(lx->arena, (id), true); \
		if (type == NULL) return pm_fail(lx->err, PM_ERR_NOMEM, "out of memory"); } while (0)

	if (tok_is(t, "BOOLEAN"))
		NEW(PM_TYPE_BOOLEAN);
	else if (tok_is(t, "TINYINT"))
		NEW(PM_TYPE_TINYINT);
	else if (tok_is(t, "SMALLINT"))
		NEW(PM_TYPE_SMALLINT);
	else if (tok_is(t, "INT") || tok_is(t, "INTEGER"))
		NEW(PM_TYPE_INT);
	else if (tok_is(t, "BIGINT"))
		NEW(PM_TYPE_BIGINT);
	else if (tok_is(t, "FLOAT"))
		NEW(PM_TYPE_FLOAT);
	else if (tok_is(t, "DOUBLE"))
	{
		accept_word(lx, "PRECISION");
		NEW(PM_TYPE_DOUBLE);
	}
	else if (tok_is(t, "DECIMAL") || tok_is(t, "NUMERIC") || tok_is(t, "DEC"))
	{
		int64_t		p = 10,
					s = 0;

		if (accept_symbol(lx, '('))
		{
			token		n = peek(lx);

			if (n.kind != TOK_NUMBER)
				return syntax_error(lx);
			advance(lx, n);
			p = n.number;
			if (accept_symbol(lx, ','))
			{
				n = peek(lx);
				if (n.kind != TOK_NUMBER)
					return syntax_error(lx);
				advance(lx, n);
				s = n.number;
			}
			if (!accept_symbol(lx, ')'))
				return syntax_error(lx);
		}
		if (p < 1 || p > 38 || s < 0 || s > p)
			return pm_fail(lx->err, PM_ERR_CORRUPT, "invalid decimal precision or scale in \"%.100s\"", lx->s);
		type = pm_type_new_decimal(lx->arena, (int32_t) p, (int32_t) s, true);
		if (type == NULL)
			return pm_fail(lx->err, PM_ERR_NOMEM, "out of memory");
	}
	else if (tok_is(t, "CHAR") || tok_is(t, "VARCHAR") || tok_is(t, "BINARY") ||
			 tok_is(t, "VARBINARY"))
	{
		pm_type_id	id = tok_is(t, "CHAR") ? PM_TYPE_CHAR :
			tok_is(t, "VARCHAR") ? PM_TYPE_VARCHAR :
			tok_is(t, "BINARY") ? PM_TYPE_BINARY : PM_TYPE_VARBINARY;

		if (!optional_param(lx, &p1, &has1))
			return syntax_error(lx);
		NEW(id);
		type->length = 1;
		if (has1)
		{
			if (p1 < 1 || p1 > PM_MAX_VARCHAR_LENGTH)
				return pm_fail(lx->err, PM_ERR_CORRUPT, "invalid length in data type \"%.100s\"", lx->s);
			type->length = (int32_t) p1;
		}
	}
	else if (tok_is(t, "STRING"))
		NEW(PM_TYPE_VARCHAR);
	else if (tok_is(t, "BYTES"))
		NEW(PM_TYPE_VARBINARY);
	else if (tok_is(t, "DATE"))
		NEW(PM_TYPE_DATE);
	else if (tok_is(t, "TIME") || tok_is(t, "TIMESTAMP") || tok_is(t, "TIMESTAMP_LTZ"))
	{
		bool		is_time = tok_is(t, "TIME");
		bool		ltz = tok_is(t, "TIMESTAMP_LTZ");

		if (!optional_param(lx, &p1, &has1))
			return syntax_error(lx);
		if (!has1)
			p1 = is_time ? 0 : 6;
		if (p1 < 0 || p1 > 9)
			return pm_fail(lx->err, PM_ERR_CORRUPT, "invalid precision in data type \"%.100s\"", lx->s);
		if (!ltz)
		{
			token		w = peek(lx);

			if (tok_is(w, "WITHOUT"))
			{
				advance(lx, w);
				if (!accept_word(lx, "TIME") || !accept_word(lx, "ZONE"))
					return syntax_error(lx);
			}
			else if (tok_is(w, "WITH") && !is_time)
			{
				advance(lx, w);
				if (!accept_word(lx, "LOCAL") || !accept_word(lx, "TIME") ||
					!accept_word(lx, "ZONE"))
					return syntax_error(lx);
				ltz = true;
			}
		}
		NEW(is_time ? PM_TYPE_TIME : ltz ? PM_TYPE_TIMESTAMP_LTZ : PM_TYPE_TIMESTAMP);
		type->precision = (int32_t) p1;
	}
	else if (tok_is(t, "VARIANT"))
		NEW(PM_TYPE_VARIANT);
	else if (tok_is(t, "BLOB"))
		NEW(PM_TYPE_BLOB);
	else if (tok_is(t, "ARRAY") || tok_is(t, "MULTISET"))
	{
		const pm_type *elem;
		bool		multiset = tok_is(t, "MULTISET");

		if (!accept_symbol(lx, '<'))
			return syntax_error(lx);
		PM_TRY(parse_type(lx, depth + 1, &elem));
		if (!accept_symbol(lx, '>'))
			return syntax_error(lx);
		type = pm_type_new_array(lx->arena, elem, true);
		if (type == NULL)
			return pm_fail(lx->err, PM_ERR_NOMEM, "out of memory");
		if (multiset)
			type->id = PM_TYPE_MULTISET;
	}
	else if (tok_is(t, "MAP"))
	{
		const pm_type *k,
				   *v;

		if (!accept_symbol(lx, '<'))
			return syntax_error(lx);
		PM_TRY(parse_type(lx, depth + 1, &k));
		if (!accept_symbol(lx, ','))
			return syntax_error(lx);
		PM_TRY(parse_type(lx, depth + 1, &v));
		if (!accept_symbol(lx, '>'))
			return syntax_error(lx);
		type = pm_type_new_map(lx->arena, k, v, true);
		if (type == NULL)
			return pm_fail(lx->err, PM_ERR_NOMEM, "out of memory");
	}
	else if (tok_is(t, "ROW"))
	{
		if (!accept_symbol(lx, '<'))
			return syntax_error(lx);
		PM_TRY(parse_row_fields(lx, depth, &type));
	}
	else
		return pm_fail(lx->err, PM_ERR_UNSUPPORTED, "data type \"%.100s\" is not supported", lx->s);
#undef NEW

	type->nullable = parse_nullability(lx);
	*out = type;
	return PM_OK;
}

pm_code
pm_data_type_parse(const char *text, pm_arena *arena, const pm_type **out, pm_error *err)
{
	lexer		lx;

	lx.s = text;
	lx.pos = 0;
	lx.arena = arena;
	lx.err = err;
	lx.next_field_id = 0;
	PM_TRY(parse_type(&lx, 0, out));
	skip_space(&lx);
	if (lx.s[lx.pos] != '\0')
		return syntax_error(&lx);
	return PM_OK;
}

static pm_code from_json(const json_t *json, pm_arena *arena, int depth,
						 const pm_type **out, pm_error *err);

static pm_code
field_from_json(const json_t *json, pm_arena *arena, int depth, pm_field *out,
				pm_error *err)
{
	const json_t *id = json_object_get(json, "id");
	const json_t *name = json_object_get(json, "name");
	const json_t *type = json_object_get(json, "type");
	const json_t *desc = json_object_get(json, "description");

	if (!json_is_object(json) || !json_is_integer(id) || !json_is_string(name) || type == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "invalid data field in schema");
	if (json_integer_value(id) < INT32_MIN || json_integer_value(id) > INT32_MAX)
		return pm_fail(err, PM_ERR_CORRUPT, "field id out of range in schema");
	out->id = (int32_t) json_integer_value(id);
	out->name = pm_arena_strndup(arena, json_string_value(name), json_string_length(name));
	out->description = json_is_string(desc) ? pm_arena_strdup(arena, json_string_value(desc)) : NULL;
	if (out->name == NULL || (json_is_string(desc) && out->description == NULL))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return from_json(type, arena, depth + 1, &out->type, err);
}

static bool
type_word_is(const char *s, const char *word)
{
	size_t		n = strlen(word);

	while (isspace((unsigned char) *s))
		s++;
	return strncasecmp(s, word, n) == 0;
}

static pm_code
from_json(const json_t *json, pm_arena *arena, int depth, const pm_type **out,
		  pm_error *err)
{
	const json_t *tj;
	const char *ts;
	bool		nullable;
	pm_type    *type;

	if (depth > MAX_DEPTH)
		return pm_fail(err, PM_ERR_CORRUPT, "data type nested too deeply");
	if (json_is_string(json))
	{
		if (strlen(json_string_value(json)) != json_string_length(json))
			return pm_fail(err, PM_ERR_CORRUPT, "invalid data type string");
		return pm_data_type_parse(json_string_value(json), arena, out, err);
	}
	if (!json_is_object(json))
		return pm_fail(err, PM_ERR_CORRUPT, "invalid data type in schema");
	tj = json_object_get(json, "type");
	if (!json_is_string(tj))
		return pm_fail(err, PM_ERR_CORRUPT, "nested data type without \"type\"");
	ts = json_string_value(tj);
	nullable = strstr(ts, "NOT NULL") == NULL;

	if (type_word_is(ts, "ARRAY") || type_word_is(ts, "MULTISET"))
	{
		const pm_type *elem;

		PM_TRY(from_json(json_object_get(json, "element"), arena, depth + 1, &elem, err));
		type = pm_type_new_array(arena, elem, nullable);
		if (type == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (type_word_is(ts, "MULTISET"))
			type->id = PM_TYPE_MULTISET;
	}
	else if (type_word_is(ts, "MAP"))
	{
		const pm_type *k,
				   *v;

		PM_TRY(from_json(json_object_get(json, "key"), arena, depth + 1, &k, err));
		PM_TRY(from_json(json_object_get(json, "value"), arena, depth + 1, &v, err));
		type = pm_type_new_map(arena, k, v, nullable);
		if (type == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	else if (type_word_is(ts, "ROW"))
	{
		const json_t *fj = json_object_get(json, "fields");
		size_t		n,
					i;
		pm_field   *fields;

		if (!json_is_array(fj))
			return pm_fail(err, PM_ERR_CORRUPT, "ROW data type without \"fields\"");
		n = json_array_size(fj);
		if (n > 100000)
			return pm_fail(err, PM_ERR_CORRUPT, "too many fields in ROW data type");
		fields = pm_arena_zalloc(arena, sizeof(pm_field) * (n ? n : 1));
		if (fields == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (i = 0; i < n; i++)
			PM_TRY(field_from_json(json_array_get(fj, i), arena, depth, &fields[i], err));
		type = pm_type_new_row(arena, fields, (int) n, nullable);
		if (type == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	else
		return pm_fail(err, PM_ERR_UNSUPPORTED, "data type \"%.100s\" is not supported", ts);
	*out = type;
	return PM_OK;
}

pm_code
pm_data_type_from_json(const json_t *json, pm_arena *arena, const pm_type **out,
					   pm_error *err)
{
	return from_json(json, arena, 0, out, err);
}

pm_code
pm_data_field_from_json(const json_t *json, pm_arena *arena, pm_field *out, pm_error *err)
{
	return field_from_json(json, arena, 0, out, err);
}

int32_t
pm_data_type_max_field_id(const pm_type *type)
{
	int32_t		max = -1;

	if (type == NULL)
		return -1;
	if (type->id == PM_TYPE_ROW)
	{
		for (int i = 0; i < type->nfields; i++)
		{
			int32_t		sub = pm_data_type_max_field_id(type->fields[i].type);

			if (type->fields[i].id > max)
				max = type->fields[i].id;
			if (sub > max)
				max = sub;
		}
	}
	else if (type->element != NULL)
	{
		int32_t		a = pm_data_type_max_field_id(type->element);
		int32_t		b = pm_data_type_max_field_id(type->value);

		max = a > b ? a : b;
	}
	return max;
}

static void
append(char *buf, size_t cap, size_t *len, const char *s)
{
	size_t		n = strlen(s);

	if (*len + n >= cap)
		n = cap > *len + 1 ? cap - *len - 1 : 0;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

static void
to_string(const pm_type *t, char *buf, size_t cap, size_t *len, int depth)
{
	char		tmp[64];

	if (depth > MAX_DEPTH)
		return;
	switch (t->id)
	{
		case PM_TYPE_DECIMAL:
			snprintf(tmp, sizeof(tmp), "DECIMAL(%d, %d)", t->precision, t->scale);
			append(buf, cap, len, tmp);
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_BINARY:
			snprintf(tmp, sizeof(tmp), "%s(%d)", t->id == PM_TYPE_CHAR ? "CHAR" : "BINARY", t->length);
			append(buf, cap, len, tmp);
			break;
		case PM_TYPE_VARCHAR:
		case PM_TYPE_VARBINARY:
			if (t->length == PM_MAX_VARCHAR_LENGTH)
				append(buf, cap, len, t->id == PM_TYPE_VARCHAR ? "STRING" : "BYTES");
			else
			{
				snprintf(tmp, sizeof(tmp), "%s(%d)", t->id == PM_TYPE_VARCHAR ? "VARCHAR" : "VARBINARY", t->length);
				append(buf, cap, len, tmp);
			}
			break;
		case PM_TYPE_TIME:
			snprintf(tmp, sizeof(tmp), "TIME(%d)", t->precision);
			append(buf, cap, len, tmp);
			break;
		case PM_TYPE_TIMESTAMP:
			snprintf(tmp, sizeof(tmp), "TIMESTAMP(%d)", t->precision);
			append(buf, cap, len, tmp);
			break;
		case PM_TYPE_TIMESTAMP_LTZ:
			snprintf(tmp, sizeof(tmp), "TIMESTAMP(%d) WITH LOCAL TIME ZONE", t->precision);
			append(buf, cap, len, tmp);
			break;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			append(buf, cap, len, t->id == PM_TYPE_ARRAY ? "ARRAY<" : "MULTISET<");
			to_string(t->element, buf, cap, len, depth + 1);
			append(buf, cap, len, ">");
			break;
		case PM_TYPE_MAP:
			append(buf, cap, len, "MAP<");
			to_string(t->element, buf, cap, len, depth + 1);
			append(buf, cap, len, ", ");
			to_string(t->value, buf, cap, len, depth + 1);
			append(buf, cap, len, ">");
			break;
		case PM_TYPE_ROW:
			append(buf, cap, len, "ROW<");
			for (int i = 0; i < t->nfields; i++)
			{
				if (i > 0)
					append(buf, cap, len, ", ");
				append(buf, cap, len, t->fields[i].name);
				append(buf, cap, len, " ");
				to_string(t->fields[i].type, buf, cap, len, depth + 1);
			}
			append(buf, cap, len, ">");
			break;
		default:
			append(buf, cap, len, pm_type_id_name(t->id));
			break;
	}
	if (!t->nullable)
		append(buf, cap, len, " NOT NULL");
}

char *
pm_data_type_to_string(const pm_type *type, pm_arena *arena)
{
	char		buf[4096];
	size_t		len = 0;

	buf[0] = '\0';
	to_string(type, buf, sizeof(buf), &len, 0);
	return pm_arena_strdup(arena, buf);
}

static void
write_json(pm_json_out *out, const pm_type *t, int depth)
{
	const char *suffix = t->nullable ? "" : " NOT NULL";
	char		tag[32];

	if (depth > MAX_DEPTH)
	{
		out->failed = out->too_deep = true;
		return;
	}
	switch (t->id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			snprintf(tag, sizeof(tag), "%s%s", t->id == PM_TYPE_ARRAY ? "ARRAY" : "MULTISET", suffix);
			pm_json_begin_object(out);
			pm_json_field_string(out, "type", tag);
			pm_json_name(out, "element");
			write_json(out, t->element, depth + 1);
			pm_json_end_object(out);
			break;
		case PM_TYPE_MAP:
			snprintf(tag, sizeof(tag), "MAP%s", suffix);
			pm_json_begin_object(out);
			pm_json_field_string(out, "type", tag);
			pm_json_name(out, "key");
			write_json(out, t->element, depth + 1);
			pm_json_name(out, "value");
			write_json(out, t->value, depth + 1);
			pm_json_end_object(out);
			break;
		case PM_TYPE_ROW:
			snprintf(tag, sizeof(tag), "ROW%s", suffix);
			pm_json_begin_object(out);
			pm_json_field_string(out, "type", tag);
			pm_json_name(out, "fields");
			pm_json_begin_array(out);
			for (int i = 0; i < t->nfields; i++)
				pm_data_field_write_json(out, &t->fields[i], NULL);
			pm_json_end_array(out);
			pm_json_end_object(out);
			break;
		default:
			{
				char	   *s = pm_data_type_to_string(t, out->arena);

				if (s == NULL)
					out->failed = true;
				else
					pm_json_string(out, s);
			}
			break;
	}
}

void
pm_data_type_write_json(pm_json_out *out, const pm_type *type)
{
	write_json(out, type, 0);
}

void
pm_data_field_write_json(pm_json_out *out, const pm_field *field, const char *default_value)
{
	pm_json_begin_object(out);
	pm_json_field_int(out, "id", field->id);
	pm_json_field_string(out, "name", field->name);
	pm_json_name(out, "type");
	pm_data_type_write_json(out, field->type);
	if (field->description != NULL)
		pm_json_field_string(out, "description", field->description);
	if (default_value != NULL)
		pm_json_field_string(out, "defaultValue", default_value);
	pm_json_end_object(out);
}
