/*-------------------------------------------------------------------------
 * merge_aggregate.c
 *	  Field aggregate functions of the aggregation / partial-update merge
 *	  engines (see merge_aggregate.h).
 *
 * Hand-written after apache/paimon's Field*Agg classes. Null rules follow
 * Java: unless a function says otherwise agg(acc, NULL) = acc and
 * agg(NULL, x) = x. Integer sum/product overflow is an error (Java's
 * exact arithmetic); DECIMAL results that no longer fit the precision
 * become NULL for precisions above 18 (Java's Decimal.fromBigDecimal),
 * compact decimals keep their value as Java's fast path does.
 *
 * Known differences: collect with distinct on primitive elements and
 * merge_map build Java HashSet/HashMap results whose element order is
 * hash order; here the order is first-seen (the multiset is the same).
 * product's DECIMAL retraction rounds half-up where Java's exact
 * BigDecimal.divide would throw on a non-terminating quotient.
 *-------------------------------------------------------------------------
 */
#include "lsm/merge_aggregate.h"
#include "lsm/merge_aggregate_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <roaring/roaring.h>

#include "index/roaring_portable.h"
#include "lsm/key_compare.h"
#include "common/vector_builder.h"

static const pm_merge_cell null_cell = {NULL, 0};

static bool
option_true(const pm_schema *schema, const char *field, const char *suffix)
{
	char		key[512];

	snprintf(key, sizeof(key), "fields.%s.%s", field, suffix);
	return pm_schema_bool_option(schema, key, false);
}

static bool
is_numeric(pm_type_id id)
{
	return id == PM_TYPE_TINYINT || id == PM_TYPE_SMALLINT || id == PM_TYPE_INT ||
		id == PM_TYPE_BIGINT || id == PM_TYPE_FLOAT || id == PM_TYPE_DOUBLE ||
		id == PM_TYPE_DECIMAL;
}

/* Split a comma list of element field names into indexes (in arena). */
static pm_code
nested_fields(const pm_type *row, const char *list, pm_arena *arena, int **out, int *n,
			  pm_error *err)
{
	size_t		len = strlen(list);
	size_t		start = 0;

	*out = pm_arena_alloc(arena, sizeof(int) * (len + 1));
	*n = 0;
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory parsing table options");
	for (size_t i = 0; i <= len; i++)
	{
		if (i == len || list[i] == ',')
		{
			size_t		a = start,
						b = i;
			char		name[256];
			int			f;

			while (a < b && list[a] == ' ')
				a++;
			while (b > a && list[b - 1] == ' ')
				b--;
			snprintf(name, sizeof(name), "%.*s", (int) (b - a), list + a);
			f = pm_type_field_index(row, name);
			if (f < 0)
				return pm_fail(err, PM_ERR_INVALID, "nested field \"%s\" not found", name);
			(*out)[(*n)++] = f;
			start = i + 1;
		}
	}
	return PM_OK;
}

static pm_code
init_nested(pm_field_agg *agg, const pm_schema *schema, const char *field_name,
			pm_arena *arena, pm_error *err)
{
	const pm_type *row = agg->type->element;
	char		key[512];
	const char *v;

	snprintf(key, sizeof(key), "fields.%s.nested-key", field_name);
	if ((v = pm_schema_option(schema, key)) != NULL)
		PM_TRY(nested_fields(row, v, arena, &agg->nested_keys, &agg->nnested_keys, err));
	snprintf(key, sizeof(key), "fields.%s.nested-sequence-field", field_name);
	if ((v = pm_schema_option(schema, key)) != NULL)
		PM_TRY(nested_fields(row, v, arena, &agg->nested_seq, &agg->nnested_seq, err));
	snprintf(key, sizeof(key), "fields.%s.count-limit", field_name);
	agg->count_limit = INT32_MAX;
	if ((v = pm_schema_option(schema, key)) != NULL)
	{
		char	   *end;
		long long	x = strtoll(v, &end, 10);

		if (*end != '\0' || x < 0 || x > INT32_MAX)
			return pm_fail(err, PM_ERR_INVALID, "invalid %s \"%s\"", key, v);
		agg->count_limit = x;
	}
	snprintf(key, sizeof(key), "fields.%s.nested-key-null-strategy", field_name);
	if ((v = pm_schema_option(schema, key)) != NULL)
	{
		if (strcasecmp(v, "merge") == 0)
			agg->null_strategy = 0;
		else if (strcasecmp(v, "ignore") == 0)
			agg->null_strategy = 1;
		else if (strcasecmp(v, "error") == 0)
			agg->null_strategy = 2;
		else
			return pm_fail(err, PM_ERR_INVALID, "invalid %s \"%s\"", key, v);
	}
	return PM_OK;
}

pm_code
pm_field_agg_init(pm_field_agg *agg, const pm_schema *schema, const char *field_name,
				  const pm_type *type, const char *func, pm_arena *arena, pm_error *err)
{
	static const struct
	{
		const char *name;
		pm_agg_kind kind;
	}			known[] = {
		{"primary-key", PM_AGG_PRIMARY_KEY},
		{"sum", PM_AGG_SUM},
		{"product", PM_AGG_PRODUCT},
		{"max", PM_AGG_MAX},
		{"min", PM_AGG_MIN},
		{"last_value", PM_AGG_LAST_VALUE},
		{"last_non_null_value", PM_AGG_LAST_NON_NULL_VALUE},
		{"first_value", PM_AGG_FIRST_VALUE},
		{"first_non_null_value", PM_AGG_FIRST_NON_NULL_VALUE},
		{"first_not_null_value", PM_AGG_FIRST_NON_NULL_VALUE},
		{"listagg", PM_AGG_LISTAGG},
		{"bool_and", PM_AGG_BOOL_AND},
		{"bool_or", PM_AGG_BOOL_OR},
		{"collect", PM_AGG_COLLECT},
		{"merge_map", PM_AGG_MERGE_MAP},
		{"rbm32", PM_AGG_RBM32},
		{"nested_update", PM_AGG_NESTED_UPDATE},
		{"nested_partial_update", PM_AGG_NESTED_PARTIAL_UPDATE},
		{"merge_map_with_keytime", PM_AGG_MERGE_MAP_WITH_KEYTIME},
	};
	static const char *const unsupported[] = {
		"rbm64",
		"hll_sketch", "theta_sketch"
	};
	pm_type_id	id = type->id;
	bool		ok = true;
	char		key[512];

	memset(agg, 0, sizeof(*agg));
	agg->type = type;
	agg->name = func;
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (strcmp(func, unsupported[i]) == 0)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "aggregate function \"%s\" of column \"%s\" is not supported",
						   func, field_name);
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
	{
		if (strcmp(func, known[i].name) == 0)
		{
			agg->kind = known[i].kind;
			agg->name = known[i].name;
			goto found;
		}
	}
	return pm_fail(err, PM_ERR_INVALID,
				   "unknown aggregate function \"%s\" for column \"%s\"", func, field_name);
found:
	switch (agg->kind)
	{
		case PM_AGG_SUM:
		case PM_AGG_PRODUCT:
			ok = is_numeric(id);
			break;
		case PM_AGG_LISTAGG:
			ok = id == PM_TYPE_VARCHAR || id == PM_TYPE_CHAR;
			break;
		case PM_AGG_BOOL_AND:
		case PM_AGG_BOOL_OR:
			ok = id == PM_TYPE_BOOLEAN;
			break;
		case PM_AGG_COLLECT:
			ok = id == PM_TYPE_ARRAY;
			break;
		case PM_AGG_MERGE_MAP:
			ok = id == PM_TYPE_MAP;
			break;
		case PM_AGG_RBM32:
			ok = id == PM_TYPE_VARBINARY || id == PM_TYPE_BINARY;
			break;
		case PM_AGG_MAX:
		case PM_AGG_MIN:
			ok = !pm_type_is_nested(id);
			break;
		case PM_AGG_NESTED_UPDATE:
		case PM_AGG_NESTED_PARTIAL_UPDATE:
			ok = id == PM_TYPE_ARRAY && type->element->id == PM_TYPE_ROW;
			break;
		case PM_AGG_MERGE_MAP_WITH_KEYTIME:
			ok = id == PM_TYPE_MAP && type->value->id == PM_TYPE_ROW && type->value->nfields >= 2;
			break;
		default:
			break;
	}
	if (!ok)
		return pm_fail(err, PM_ERR_INVALID,
					   "aggregate function \"%s\" does not accept column \"%s\" of type %s",
					   func, field_name, pm_type_id_name(id));
	agg->ignore_retract = option_true(schema, field_name, "ignore-retract");
	agg->distinct = option_true(schema, field_name, "distinct");
	snprintf(key, sizeof(key), "fields.%s.list-agg-delimiter", field_name);
	agg->delimiter = pm_schema_option(schema, key);
	if (agg->delimiter == NULL)
		agg->delimiter = ",";
	agg->delimiter_len = (int32_t) strlen(agg->delimiter);
	if (agg->kind == PM_AGG_NESTED_UPDATE || agg->kind == PM_AGG_NESTED_PARTIAL_UPDATE)
	{
		PM_TRY(init_nested(agg, schema, field_name, arena, err));
		if (agg->kind == PM_AGG_NESTED_PARTIAL_UPDATE && agg->nnested_keys == 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "nested_partial_update of column \"%s\" needs fields.%s.nested-key",
						   field_name, field_name);
	}
	if (agg->kind == PM_AGG_MERGE_MAP_WITH_KEYTIME)
	{
		const pm_type *row = type->value;

		snprintf(key, sizeof(key), "fields.%s.ts-field", field_name);
		if (pm_schema_option(schema, key) == NULL)
			agg->ts_field = row->nfields - 1;
		else if ((agg->ts_field = pm_type_field_index(row, pm_schema_option(schema, key))) < 0)
			return pm_fail(err, PM_ERR_INVALID, "timestamp field \"%s\" not found for column \"%s\"",
						   pm_schema_option(schema, key), field_name);
	}
	return PM_OK;
}

void
pm_field_agg_reset(pm_field_agg *agg)
{
	agg->initialized = false;
}

/* ---- scalar helpers ---------------------------------------------------- */

static double
get_double(pm_merge_cell c)
{
	if (c.vec->type->id == PM_TYPE_FLOAT)
		return PM_VEC_VALUES(c.vec, float)[c.row];
	return PM_VEC_VALUES(c.vec, double)[c.row];
}

/* A one-value vector of the function's type in arena. */
static pm_code
new_scalar(pm_field_agg *agg, pm_arena *arena, pm_vector **out, pm_error *err)
{
	pm_vector  *v = pm_arena_zalloc(arena, sizeof(pm_vector));

	if (v == NULL || !pm_vector_init(v, agg->type, 1, false, arena))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	v->length = 1;
	*out = v;
	return PM_OK;
}

static pm_code
put_int(pm_field_agg *agg, int64_t x, pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	pm_vector  *v;
	int64_t		lo,
				hi;

	if (!pm_type_int_range(agg->type->id, &lo, &hi))
		lo = INT64_MIN, hi = INT64_MAX;
	if (x < lo || x > hi)
		return pm_fail(err, PM_ERR_INVALID, "%s overflow in aggregate function %s",
					   pm_type_id_name(agg->type->id), agg->name);
	PM_TRY(new_scalar(agg, arena, &v, err));
	switch (agg->type->id)
	{
		case PM_TYPE_TINYINT:
			PM_VEC_VALUES(v, int8_t)[0] = (int8_t) x;
			break;
		case PM_TYPE_SMALLINT:
			PM_VEC_VALUES(v, int16_t)[0] = (int16_t) x;
			break;
		case PM_TYPE_INT:
			PM_VEC_VALUES(v, int32_t)[0] = (int32_t) x;
			break;
		default:
			PM_VEC_VALUES(v, int64_t)[0] = x;
			break;
	}
	out->vec = v;
	out->row = 0;
	return PM_OK;
}

static pm_code
put_double(pm_field_agg *agg, double x, pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	pm_vector  *v;

	PM_TRY(new_scalar(agg, arena, &v, err));
	if (agg->type->id == PM_TYPE_FLOAT)
		PM_VEC_VALUES(v, float)[0] = (float) x;
	else
		PM_VEC_VALUES(v, double)[0] = x;
	out->vec = v;
	out->row = 0;
	return PM_OK;
}

static pm_int128
pow10_128(int n)
{
	pm_int128	p = 1;

	for (int i = 0; i < n; i++)
		p *= 10;
	return p;
}

/* DECIMAL result: NULL when it overflows (see the file header). */
static pm_code
put_decimal(pm_field_agg *agg, pm_int128 x, bool overflow, pm_arena *arena,
			pm_merge_cell *out, pm_error *err)
{
	pm_vector  *v;
	int			p = agg->type->precision;

	if (!overflow && p > 18 && p <= 38)
	{
		pm_int128	lim = pow10_128(p);

		overflow = x >= lim || x <= -lim;
	}
	else if (!overflow && p <= 18)
		overflow = x > INT64_MAX || x < INT64_MIN;
	if (overflow)
	{
		*out = null_cell;
		return PM_OK;
	}
	PM_TRY(new_scalar(agg, arena, &v, err));
	PM_VEC_VALUES(v, pm_int128)[0] = x;
	out->vec = v;
	out->row = 0;
	return PM_OK;
}

static pm_code
put_bool(pm_field_agg *agg, bool x, pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	pm_vector  *v;

	PM_TRY(new_scalar(agg, arena, &v, err));
	PM_VEC_VALUES(v, uint8_t)[0] = x ? 1 : 0;
	out->vec = v;
	out->row = 0;
	return PM_OK;
}

static pm_code
put_bytes(pm_field_agg *agg, const uint8_t *p, int64_t len, pm_arena *arena,
		  pm_merge_cell *out, pm_error *err)
{
	pm_vector  *v = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;

	if (len > INT32_MAX)
		return pm_fail(err, PM_ERR_INVALID, "aggregate function %s result too long", agg->name);
	if (v == NULL || !pm_vector_builder_init(&b, v, agg->type, 1, arena) ||
		!pm_vector_builder_append_bytes(&b, p, (int32_t) len))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	out->vec = v;
	out->row = 0;
	return PM_OK;
}

/* ---- sum / product ------------------------------------------------------ */

static pm_code
sum_op(pm_field_agg *agg, pm_merge_cell a, pm_merge_cell b, int sign, pm_arena *arena,
	   pm_merge_cell *out, pm_error *err)
{
	switch (agg->type->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			if (agg->type->id == PM_TYPE_FLOAT)
				return put_double(agg, sign > 0 ? (float) get_double(a) + (float) get_double(b) :
								  (float) get_double(a) - (float) get_double(b), arena, out, err);
			return put_double(agg, sign > 0 ? get_double(a) + get_double(b) :
							  get_double(a) - get_double(b), arena, out, err);
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = PM_VEC_VALUES(a.vec, pm_int128)[a.row];
				pm_int128	y = PM_VEC_VALUES(b.vec, pm_int128)[b.row];
				pm_int128	r;
				bool		ovf = sign > 0 ? __builtin_add_overflow(x, y, &r) :
					__builtin_sub_overflow(x, y, &r);

				return put_decimal(agg, r, ovf, arena, out, err);
			}
		default:
			{
				int64_t		x = pm_vector_int64_at(a.vec, a.row),
							y = pm_vector_int64_at(b.vec, b.row),
							r;
				bool		ovf = sign > 0 ? __builtin_add_overflow(x, y, &r) :
					__builtin_sub_overflow(x, y, &r);

				if (ovf)
					return pm_fail(err, PM_ERR_INVALID, "%s overflow in aggregate function %s",
								   pm_type_id_name(agg->type->id), agg->name);
				return put_int(agg, r, arena, out, err);
			}
	}
}

static pm_code
negate(pm_field_agg *agg, pm_merge_cell a, pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	switch (agg->type->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			return put_double(agg, -get_double(a), arena, out, err);
		case PM_TYPE_DECIMAL:
			return put_decimal(agg, -PM_VEC_VALUES(a.vec, pm_int128)[a.row], false, arena, out,
							   err);
		default:
			if (pm_vector_int64_at(a.vec, a.row) == INT64_MIN)
				return pm_fail(err, PM_ERR_INVALID, "BIGINT overflow in aggregate function %s",
							   agg->name);
			return put_int(agg, -pm_vector_int64_at(a.vec, a.row), arena, out, err);
	}
}

/* Round x / 10^n half-up (away from zero), as BigDecimal.setScale(HALF_UP). */
static pm_int128
div_pow10_half_up(pm_int128 x, int n)
{
	pm_int128	d = pow10_128(n);
	pm_int128	q = x / d;
	pm_int128	r = x % d;

	if (r < 0)
		r = -r;
	if (r * 2 >= d)
		q += x < 0 ? -1 : 1;
	return q;
}

static pm_code
product_op(pm_field_agg *agg, pm_merge_cell a, pm_merge_cell b, bool divide,
		   pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	switch (agg->type->id)
	{
		case PM_TYPE_FLOAT:
			return put_double(agg, divide ? (float) get_double(a) / (float) get_double(b) :
							  (float) get_double(a) * (float) get_double(b), arena, out, err);
		case PM_TYPE_DOUBLE:
			return put_double(agg, divide ? get_double(a) / get_double(b) :
							  get_double(a) * get_double(b), arena, out, err);
		case PM_TYPE_DECIMAL:
			{
				pm_int128	x = PM_VEC_VALUES(a.vec, pm_int128)[a.row];
				pm_int128	y = PM_VEC_VALUES(b.vec, pm_int128)[b.row];
				int			s = agg->type->scale;
				pm_int128	r = 0;
				bool		ovf;

				if (!divide)
				{
					ovf = __builtin_mul_overflow(x, y, &r);
					if (!ovf)
						r = div_pow10_half_up(r, s);
				}
				else
				{
					pm_int128	num;

					if (y == 0)
						return pm_fail(err, PM_ERR_INVALID,
									   "division by zero in aggregate function %s", agg->name);
					/* (x / 10^s) / (y / 10^s) at scale s = x * 10^s / y */
					ovf = __builtin_mul_overflow(x, pow10_128(s), &num);
					if (!ovf)
					{
						pm_int128	q = num / y;
						pm_int128	rem = num % y;

						if (rem != 0)
						{
							pm_int128	ar = rem < 0 ? -rem : rem;
							pm_int128	ay = y < 0 ? -y : y;

							if (ar * 2 >= ay)
								q += ((num < 0) != (y < 0)) ? -1 : 1;
						}
						r = q;
					}
				}
				return put_decimal(agg, r, ovf, arena, out, err);
			}
		default:
			{
				int64_t		x = pm_vector_int64_at(a.vec, a.row),
							y = pm_vector_int64_at(b.vec, b.row),
							r;

				if (divide)
				{
					if (y == 0)
						return pm_fail(err, PM_ERR_INVALID,
									   "division by zero in aggregate function %s", agg->name);
					if (x == INT64_MIN && y == -1)
						return pm_fail(err, PM_ERR_INVALID, "BIGINT overflow in aggregate function %s",
									   agg->name);
					r = x / y;
				}
				else if (__builtin_mul_overflow(x, y, &r))
					return pm_fail(err, PM_ERR_INVALID, "%s overflow in aggregate function %s",
								   pm_type_id_name(agg->type->id), agg->name);
				return put_int(agg, r, arena, out, err);
			}
	}
}

/* ---- listagg ------------------------------------------------------------ */

static bool
is_blank(const uint8_t *p, int32_t len)
{
	for (int32_t i = 0; i < len; i++)
		if (!isspace(p[i]) && p[i] != 0x1c && p[i] != 0x1d && p[i] != 0x1e && p[i] != 0x1f)
			return false;
	return true;
}

/* Does token t occur among the delimiter-separated tokens of s? */
static bool
has_token(const uint8_t *s, int32_t slen, const uint8_t *t, int32_t tlen,
		  const char *delim, int32_t dlen)
{
	int32_t		start = 0;

	for (int32_t i = 0; i <= slen; i++)
	{
		bool		at_delim = dlen > 0 && i + dlen <= slen &&
			memcmp(s + i, delim, (size_t) dlen) == 0;

		if (i == slen || at_delim)
		{
			if (i - start == tlen && memcmp(s + start, t, (size_t) tlen) == 0)
				return true;
			if (at_delim)
			{
				i += dlen - 1;
				start = i + 1;
			}
		}
	}
	return false;
}

static pm_code
listagg(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, pm_arena *arena,
		pm_merge_cell *out, pm_error *err)
{
	int32_t		alen,
				ilen;
	const uint8_t *a,
			   *p;
	uint8_t    *buf;
	int64_t		n = 0;
	const char *d = agg->delimiter;
	int32_t		dlen = agg->delimiter_len;

	if (pm_merge_cell_is_null(in))
	{
		*out = acc;
		return PM_OK;
	}
	p = pm_vector_bytes(in.vec, in.row, &ilen);
	if (is_blank(p, ilen))
	{
		*out = acc;
		return PM_OK;
	}
	if (pm_merge_cell_is_null(acc))
	{
		*out = in;
		return PM_OK;
	}
	a = pm_vector_bytes(acc.vec, acc.row, &alen);
	if (is_blank(a, alen))
	{
		*out = in;
		return PM_OK;
	}
	buf = pm_arena_alloc(arena, (size_t) alen + (size_t) ilen * (1 + (size_t) dlen) + (size_t) dlen + 1);
	if (buf == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	memcpy(buf, a, (size_t) alen);
	n = alen;
	if (!agg->distinct)
	{
		memcpy(buf + n, d, (size_t) dlen);
		n += dlen;
		memcpy(buf + n, p, (size_t) ilen);
		n += ilen;
	}
	else
	{
		/* tokens of in (whole separator, empty tokens kept), blank or present skipped */
		int32_t		start = 0;

		for (int32_t i = 0; i <= ilen; i++)
		{
			bool		at_delim = dlen > 0 && i + dlen <= ilen &&
				memcmp(p + i, d, (size_t) dlen) == 0;

			if (i == ilen || at_delim)
			{
				const uint8_t *t = p + start;
				int32_t		tlen = i - start;

				if (!is_blank(t, tlen) && !has_token(buf, (int32_t) n, t, tlen, d, dlen))
				{
					memcpy(buf + n, d, (size_t) dlen);
					n += dlen;
					memcpy(buf + n, t, (size_t) tlen);
					n += tlen;
				}
				if (at_delim)
				{
					i += dlen - 1;
					start = i + 1;
				}
			}
		}
		if (n == alen)
		{
			*out = acc;
			return PM_OK;
		}
	}
	return put_bytes(agg, buf, n, arena, out, err);
}

/* ---- rbm32 -------------------------------------------------------------- */

static pm_code
rbm32_or(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, pm_arena *arena,
		 pm_merge_cell *out, pm_error *err)
{
	int32_t		alen,
				ilen;
	const uint8_t *a = pm_vector_bytes(acc.vec, acc.row, &alen);
	const uint8_t *p = pm_vector_bytes(in.vec, in.row, &ilen);
	roaring_bitmap_t *ra,
			   *ri;
	size_t		n;
	int64_t		max;
	uint8_t    *buf;
	pm_code		rc;

	/* CRoaring 0.2 reads malformed containers as wrong values: check first */
	PM_TRY(pm_roaring_portable_check(a, (size_t) alen, &n, &max, err));
	PM_TRY(pm_roaring_portable_check(p, (size_t) ilen, &n, &max, err));
	ra = roaring_bitmap_portable_deserialize_safe((const char *) a, (size_t) alen);
	ri = roaring_bitmap_portable_deserialize_safe((const char *) p, (size_t) ilen);
	if (ra == NULL || ri == NULL)
	{
		if (ra)
			roaring_bitmap_free(ra);
		if (ri)
			roaring_bitmap_free(ri);
		return pm_fail(err, PM_ERR_CORRUPT, "invalid roaring bitmap in rbm32 column");
	}
	roaring_bitmap_or_inplace(ra, ri);
	roaring_bitmap_free(ri);
	roaring_bitmap_run_optimize(ra);
	n = roaring_bitmap_portable_size_in_bytes(ra);
	buf = pm_arena_alloc(arena, n > 0 ? n : 1);
	if (buf == NULL)
	{
		roaring_bitmap_free(ra);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory aggregating");
	}
	roaring_bitmap_portable_serialize(ra, (char *) buf);
	roaring_bitmap_free(ra);
	rc = put_bytes(agg, buf, (int64_t) n, arena, out, err);
	return rc;
}

/* ---- dispatch ----------------------------------------------------------- */

pm_code
pm_field_agg_agg(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in, pm_arena *arena,
				 pm_merge_cell *out, pm_error *err)
{
	bool		an = pm_merge_cell_is_null(acc),
				inn = pm_merge_cell_is_null(in);

	switch (agg->kind)
	{
		case PM_AGG_PRIMARY_KEY:
		case PM_AGG_LAST_VALUE:
			*out = in;
			return PM_OK;
		case PM_AGG_LAST_NON_NULL_VALUE:
			*out = inn ? acc : in;
			return PM_OK;
		case PM_AGG_FIRST_VALUE:
			if (!agg->initialized)
			{
				agg->initialized = true;
				*out = in;
			}
			else
				*out = acc;
			return PM_OK;
		case PM_AGG_FIRST_NON_NULL_VALUE:
			if (!agg->initialized && !inn)
			{
				agg->initialized = true;
				*out = in;
			}
			else
				*out = acc;
			return PM_OK;
		case PM_AGG_LISTAGG:
			return listagg(agg, acc, in, arena, out, err);
		case PM_AGG_COLLECT:
			return pm_agg_collect(agg, acc, in, arena, out, err);
		case PM_AGG_NESTED_UPDATE:
			if (inn)
			{
				*out = acc;
				return PM_OK;
			}
			return pm_agg_nested_update(agg, acc, in, false, arena, out, err);
		case PM_AGG_NESTED_PARTIAL_UPDATE:
			if (inn)
			{
				*out = acc;
				return PM_OK;
			}
			return pm_agg_nested_partial_update(agg, acc, in, arena, out, err);
		default:
			break;
	}
	/* the rest: a NULL side returns the other */
	if (an || inn)
	{
		*out = an ? in : acc;
		return PM_OK;
	}
	switch (agg->kind)
	{
		case PM_AGG_SUM:
			return sum_op(agg, acc, in, 1, arena, out, err);
		case PM_AGG_PRODUCT:
			return product_op(agg, acc, in, false, arena, out, err);
		case PM_AGG_MAX:
			*out = pm_key_compare_value(acc.vec, acc.row, in.vec, in.row) < 0 ? in : acc;
			return PM_OK;
		case PM_AGG_MIN:
			*out = pm_key_compare_value(acc.vec, acc.row, in.vec, in.row) > 0 ? in : acc;
			return PM_OK;
		case PM_AGG_BOOL_AND:
			return put_bool(agg, PM_VEC_VALUES(acc.vec, uint8_t)[acc.row] &&
							PM_VEC_VALUES(in.vec, uint8_t)[in.row], arena, out, err);
		case PM_AGG_BOOL_OR:
			return put_bool(agg, PM_VEC_VALUES(acc.vec, uint8_t)[acc.row] ||
							PM_VEC_VALUES(in.vec, uint8_t)[in.row], arena, out, err);
		case PM_AGG_MERGE_MAP:
			return pm_agg_merge_map(agg, acc, in, false, arena, out, err);
		case PM_AGG_RBM32:
			return rbm32_or(agg, acc, in, arena, out, err);
		case PM_AGG_MERGE_MAP_WITH_KEYTIME:
			return pm_agg_merge_map_keytime(agg, acc, in, arena, out, err);
		default:
			return pm_fail(err, PM_ERR_INVALID, "bad aggregate function state");
	}
}

pm_code
pm_field_agg_agg_reversed(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
						  pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	/* FieldCollectAgg overrides aggReversed with agg; others swap */
	if (agg->kind == PM_AGG_COLLECT)
		return pm_field_agg_agg(agg, acc, in, arena, out, err);
	return pm_field_agg_agg(agg, in, acc, arena, out, err);
}

bool
pm_field_agg_can_retract(const pm_field_agg *agg)
{
	if (agg->ignore_retract)
		return true;
	switch (agg->kind)
	{
		case PM_AGG_PRIMARY_KEY:
		case PM_AGG_LAST_VALUE:
		case PM_AGG_LAST_NON_NULL_VALUE:
		case PM_AGG_SUM:
		case PM_AGG_PRODUCT:
		case PM_AGG_COLLECT:
		case PM_AGG_NESTED_UPDATE:
		case PM_AGG_MERGE_MAP:
			return true;		/* the cases of pm_field_agg_retract below */
		default:
			return false;
	}
}

pm_code
pm_field_agg_retract(pm_field_agg *agg, pm_merge_cell acc, pm_merge_cell in,
					 pm_arena *arena, pm_merge_cell *out, pm_error *err)
{
	bool		an = pm_merge_cell_is_null(acc),
				inn = pm_merge_cell_is_null(in);

	if (agg->ignore_retract)
	{
		*out = acc;
		return PM_OK;
	}
	switch (agg->kind)
	{
		case PM_AGG_PRIMARY_KEY:
			*out = in;
			return PM_OK;
		case PM_AGG_LAST_VALUE:
			*out = null_cell;
			return PM_OK;
		case PM_AGG_LAST_NON_NULL_VALUE:
			*out = inn ? acc : null_cell;
			return PM_OK;
		case PM_AGG_SUM:
			if (an || inn)
			{
				if (!an)
				{
					*out = acc;
					return PM_OK;
				}
				if (inn)
				{
					*out = null_cell;
					return PM_OK;
				}
				return negate(agg, in, arena, out, err);
			}
			return sum_op(agg, acc, in, -1, arena, out, err);
		case PM_AGG_PRODUCT:
			if (an || inn)
			{
				*out = acc;
				return PM_OK;
			}
			return product_op(agg, acc, in, true, arena, out, err);
		case PM_AGG_COLLECT:
			return pm_agg_collect_retract(agg, acc, in, arena, out, err);
		case PM_AGG_NESTED_UPDATE:
			if (an || inn)
			{
				*out = acc;
				return PM_OK;
			}
			return pm_agg_nested_update(agg, acc, in, true, arena, out, err);
		case PM_AGG_MERGE_MAP:
			if (an)
			{
				*out = null_cell;
				return PM_OK;
			}
			if (inn || in.vec->offsets[in.row] == in.vec->offsets[in.row + 1])
			{
				*out = acc;
				return PM_OK;
			}
			return pm_agg_merge_map(agg, acc, in, true, arena, out, err);
		default:
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "aggregate function \"%s\" does not support retraction", agg->name);
	}
}
