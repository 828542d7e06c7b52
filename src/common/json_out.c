/*-------------------------------------------------------------------------
 * json_out.c
 *	  Jackson-pretty-printer-compatible JSON text (see json_out.h).
 *
 * Spec: jackson-core DefaultPrettyPrinter (writeStartObject,
 * writeObjectEntrySeparator ",", DefaultIndenter "\n" + 2 spaces per open
 * object (arrays are inline and do not count),
 * writeObjectFieldValueSeparator " : ", FixedSpaceIndenter " " for arrays,
 * empty containers "{ }" / "[ ]") and CharTypes.sOutputEscapes128.
 *-------------------------------------------------------------------------
 */
#include "common/json_out.h"

#include <stdio.h>
#include <string.h>

void
pm_json_out_init(pm_json_out *out, pm_arena *arena)
{
	memset(out, 0, sizeof(*out));
	out->arena = arena;
}

static void
put(pm_json_out *out, const char *s, size_t n)
{
	if (out->failed)
		return;
	if (out->len + n + 1 > out->cap)
	{
		size_t		cap = out->cap ? out->cap : 1024;
		char	   *nb;

		while (out->len + n + 1 > cap)
			cap *= 2;
		nb = pm_arena_realloc(out->arena, out->buf, out->cap, cap);
		if (nb == NULL)
		{
			out->failed = true;
			return;
		}
		out->buf = nb;
		out->cap = cap;
	}
	memcpy(out->buf + out->len, s, n);
	out->len += n;
	out->buf[out->len] = '\0';
}

static void
puts_(pm_json_out *out, const char *s)
{
	put(out, s, strlen(s));
}

static void
newline_indent(pm_json_out *out, int level)
{
	put(out, "\n", 1);
	for (int i = 0; i < level; i++)
		put(out, "  ", 2);
}

/* What precedes any value: the array separator, or nothing after a name. */
static void
before_value(pm_json_out *out)
{
	if (out->after_name)
	{
		out->after_name = false;
		return;
	}
	if (out->depth > 0 && out->is_array[out->depth - 1])
	{
		put(out, out->count[out->depth - 1] > 0 ? ", " : " ", out->count[out->depth - 1] > 0 ? 2 : 1);
		out->count[out->depth - 1]++;
	}
}

static void
begin(pm_json_out *out, bool array)
{
	before_value(out);
	put(out, array ? "[" : "{", 1);
	if (out->depth >= PM_JSON_MAX_DEPTH)
	{
		out->failed = out->too_deep = true;
		return;
	}
	out->is_array[out->depth] = array;
	out->count[out->depth] = 0;
	out->depth++;
	if (!array)
		out->nesting++;
}

void
pm_json_begin_object(pm_json_out *out)
{
	begin(out, false);
}

void
pm_json_begin_array(pm_json_out *out)
{
	begin(out, true);
}

void
pm_json_end_object(pm_json_out *out)
{
	if (out->failed || out->depth == 0)
		return;
	out->depth--;
	out->nesting--;
	if (out->count[out->depth] > 0)
		newline_indent(out, out->nesting);
	else
		put(out, " ", 1);
	put(out, "}", 1);
}

void
pm_json_end_array(pm_json_out *out)
{
	if (out->failed || out->depth == 0)
		return;
	out->depth--;
	put(out, " ]", 2);
}

static void
quoted(pm_json_out *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *run = s;

	put(out, "\"", 1);
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;
		char		esc[7];
		size_t		n = 2;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(out, run, (size_t) (s - run));
		run = s + 1;
		esc[0] = '\\';
		switch (c)
		{
			case '"':
				esc[1] = '"';
				break;
			case '\\':
				esc[1] = '\\';
				break;
			case '\b':
				esc[1] = 'b';
				break;
			case '\t':
				esc[1] = 't';
				break;
			case '\n':
				esc[1] = 'n';
				break;
			case '\f':
				esc[1] = 'f';
				break;
			case '\r':
				esc[1] = 'r';
				break;
			default:
				memcpy(esc + 1, "u00", 3);
				esc[4] = hex[c >> 4];
				esc[5] = hex[c & 15];
				n = 6;
				break;
		}
		put(out, esc, n);
	}
	put(out, run, (size_t) (s - run));
	put(out, "\"", 1);
}

void
pm_json_name(pm_json_out *out, const char *name)
{
	if (out->failed || out->depth == 0)
		return;
	if (out->count[out->depth - 1] > 0)
		put(out, ",", 1);
	out->count[out->depth - 1]++;
	newline_indent(out, out->nesting);
	quoted(out, name);
	put(out, " : ", 3);
	out->after_name = true;
}

void
pm_json_string(pm_json_out *out, const char *value)
{
	before_value(out);
	quoted(out, value);
}

void
pm_json_int(pm_json_out *out, int64_t value)
{
	char		tmp[32];

	before_value(out);
	snprintf(tmp, sizeof(tmp), "%lld", (long long) value);
	puts_(out, tmp);
}

void
pm_json_number_text(pm_json_out *out, const char *text)
{
	before_value(out);
	puts_(out, text);
}

void
pm_json_field_string(pm_json_out *out, const char *name, const char *value)
{
	pm_json_name(out, name);
	pm_json_string(out, value);
}

void
pm_json_field_int(pm_json_out *out, const char *name, int64_t value)
{
	pm_json_name(out, name);
	pm_json_int(out, value);
}

pm_code
pm_json_out_finish(pm_json_out *out, char **json, size_t *len, pm_error *err)
{
	*json = NULL;
	*len = 0;
	if (!out->failed && out->buf == NULL)
		put(out, "", 0);
	if (out->too_deep)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "JSON nested deeper than %d levels", PM_JSON_MAX_DEPTH);
	if (out->failed)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*json = out->buf;
	*len = out->len;
	return PM_OK;
}
