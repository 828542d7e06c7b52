/*-------------------------------------------------------------------------
 * default_value.c
 *	  Column default values on write (default_value.h): Java 1.4.2's
 *	  DefaultValueRow.create / DefaultValueUtils.convertDefaultValue and
 *	  BinaryStringUtils' STRING -> BOOLEAN, integer and character casts.
 *-------------------------------------------------------------------------
 */
#include "table/default_value.h"

#include "common/utf8.h"
#include "common/vector_builder.h"

#include <string.h>

/* BinaryStringUtils.toLong (Hive's LazyLong.parseLong): no blanks */
static bool
java_to_long(const char *s, size_t n, int64_t *out)
{
	size_t		i = 0;
	bool		negative;
	int64_t		result = 0;
	const int64_t stop = INT64_MIN / 10;

	if (n == 0)
		return false;
	negative = s[0] == '-';
	if (negative || s[0] == '+')
	{
		i++;
		if (n == 1)
			return false;
	}
	while (i < n)
	{
		char		b = s[i++];

		if (b == '.')
			break;
		if (b < '0' || b > '9')
			return false;
		if (result < stop)
			return false;
		result = result * 10 - (b - '0');
		if (result > 0)
			return false;
	}
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	if (!negative)
	{
		if (result == INT64_MIN)
			return false;
		result = -result;
	}
	*out = result;
	return true;
}

/* BinaryStringUtils.toBoolean: ASCII lower case against its lists */
static bool
java_to_boolean(const char *s, size_t n, bool *out)
{
	static const char *const t[] = {"t", "true", "y", "yes", "1"};
	static const char *const f[] = {"f", "false", "n", "no", "0"};
	char		low[8];

	if (n >= sizeof(low))
		return false;
	for (size_t i = 0; i < n; i++)
		low[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char) (s[i] - 'A' + 'a') : s[i];
	low[n] = '\0';
	for (int i = 0; i < 5; i++)
	{
		if (strcmp(low, t[i]) == 0)
			return (*out = true), true;
		if (strcmp(low, f[i]) == 0)
			return (*out = false), true;
	}
	return false;
}

static pm_code
one_default(const pm_field *f, const char *text, pm_arena *arena, pm_vector **out,
			pm_error *err)
{
	const pm_type *t = f->type;
	size_t		n = strlen(text);
	const char *s = text;
	pm_vector  *v = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;
	int64_t		l = 0;
	bool		ok = true;

	if (v == NULL || !pm_vector_builder_init(&b, v, t, 1, arena) ||
		!pm_vector_builder_reserve(&b, 1))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	/* convertDefaultValue: one pair of enclosing quotes ("'" alone: Java fails) */
	if (n > 0 && s[0] == '\'' && s[n - 1] == '\'')
	{
		if (n == 1)
			ok = false;
		s++;
		n = n >= 2 ? n - 2 : 0;
	}
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			{
				bool		x = false;

				ok = ok && java_to_boolean(s, n, &x);
				PM_VEC_VALUES(v, uint8_t)[0] = x ? 1 : 0;
				break;
			}
		case PM_TYPE_TINYINT:
			ok = ok && java_to_long(s, n, &l) && l >= INT8_MIN && l <= INT8_MAX;
			PM_VEC_VALUES(v, int8_t)[0] = (int8_t) l;
			break;
		case PM_TYPE_SMALLINT:
			ok = ok && java_to_long(s, n, &l) && l >= INT16_MIN && l <= INT16_MAX;
			PM_VEC_VALUES(v, int16_t)[0] = (int16_t) l;
			break;
		case PM_TYPE_INT:
			ok = ok && java_to_long(s, n, &l) && l >= INT32_MIN && l <= INT32_MAX;
			PM_VEC_VALUES(v, int32_t)[0] = (int32_t) l;
			break;
		case PM_TYPE_BIGINT:
			ok = ok && java_to_long(s, n, &l);
			PM_VEC_VALUES(v, int64_t)[0] = l;
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
			{
				/* toCharacterString: cut to the length, CHAR padded with blanks */
				int64_t		chars;
				size_t		keep = pm_utf8_prefix((const uint8_t *) s, n, t->length, &chars);
				char	   *buf;
				int64_t		pad = t->id == PM_TYPE_CHAR && chars < t->length ? t->length - chars : 0;

				if (!ok)
					break;
				buf = pm_arena_alloc(arena, keep + (size_t) pad + 1);
				if (buf == NULL)
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				memcpy(buf, s, keep);
				memset(buf + keep, ' ', (size_t) pad);
				if (!pm_vector_builder_append_bytes(&b, buf, (int32_t) (keep + (size_t) pad)))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				*out = v;
				return PM_OK;
			}
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "column \"%s\" has a default value (%s): default values of %s columns are not written yet",
						   f->name, text, pm_type_id_name(t->id));
	}
	if (!ok)
		return pm_fail(err, PM_ERR_INVALID, "Unsupported default value `%s` for type %s of column \"%s\"",
					   text, pm_type_id_name(t->id), f->name);
	v->nulls[0] = 0;
	v->length = 1;
	*out = v;
	return PM_OK;
}

pm_code
pm_default_values_parse(const pm_schema *s, pm_arena *arena, pm_vector ***out, pm_error *err)
{
	int			nf = s->row_type->nfields;
	pm_vector **d = NULL;

	*out = NULL;
	for (int i = 0; s->default_values != NULL && i < nf; i++)
	{
		if (s->default_values[i] == NULL)
			continue;
		if (d == NULL && (d = pm_arena_zalloc(arena, sizeof(pm_vector *) * (size_t) nf)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(one_default(&s->row_type->fields[i], s->default_values[i], arena, &d[i], err));
	}
	*out = d;
	return PM_OK;
}

pm_code
pm_default_values_apply(const pm_type *row_type, pm_vector *const *defaults,
						const pm_batch *in, pm_arena *arena, pm_batch *out, pm_error *err)
{
	*out = *in;
	/* TableWriteImpl.checkNullability comes first */
	for (int c = 0; c < row_type->nfields; c++)
		if (!row_type->fields[c].type->nullable && in->cols[c].nulls != NULL)
			for (int64_t i = 0; i < in->nrows; i++)
				if (pm_vector_is_null(&in->cols[c], i))
					return pm_fail(err, PM_ERR_INVALID, "Cannot write null to non-null column(%s)",
								   row_type->fields[c].name);
	for (int c = 0; defaults != NULL && c < row_type->nfields; c++)
	{
		const pm_vector *src = &in->cols[c];
		pm_vector_builder b;
		bool		any = false;

		if (defaults[c] == NULL || src->nulls == NULL)
			continue;
		for (int64_t i = 0; i < in->nrows && !any; i++)
			any = src->nulls[i] != 0;
		if (!any)
			continue;
		if (out->cols == in->cols)
		{
			pm_vector  *cols = pm_arena_alloc(arena, sizeof(pm_vector) * (size_t) in->ncols);

			if (cols == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			memcpy(cols, in->cols, sizeof(pm_vector) * (size_t) in->ncols);
			out->cols = cols;
		}
		if (!pm_vector_builder_init(&b, &out->cols[c], src->type, in->nrows > 0 ? in->nrows : 1,
									arena))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < in->nrows; i++)
			if (!(src->nulls[i] ? pm_vector_builder_append(&b, defaults[c], 0) :
				  pm_vector_builder_append(&b, src, i)))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}
