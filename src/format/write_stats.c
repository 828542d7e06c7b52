/*-------------------------------------------------------------------------
 * write_stats.c
 *	  Column min/max/null-count accumulation for file writers (see
 *	  write_stats.h for the order).
 *-------------------------------------------------------------------------
 */
#include "format/write_stats.h"

#include <math.h>
#include <string.h>

void
pm_write_stats_init(pm_write_stats *s, const pm_type *type, const pm_env *env)
{
	memset(s, 0, sizeof(*s));
	s->type = type;
	s->minmax = !pm_type_is_nested(type->id) && type->id != PM_TYPE_VARIANT &&
		type->id != PM_TYPE_BLOB;
	pm_byte_buffer_init(&s->min_bytes, env);
	pm_byte_buffer_init(&s->max_bytes, env);
}

void
pm_write_stats_free(pm_write_stats *s)
{
	pm_byte_buffer_free(&s->min_bytes);
	pm_byte_buffer_free(&s->max_bytes);
}

void
pm_write_stats_reset(pm_write_stats *s)
{
	s->any = false;
	s->nulls = 0;
	memset(&s->min, 0, sizeof(s->min));
	memset(&s->max, 0, sizeof(s->max));
	pm_byte_buffer_reset(&s->min_bytes);
	pm_byte_buffer_reset(&s->max_bytes);
}

int
pm_java_double_compare(double a, double b)
{
	int64_t		x,
				y;

	if (a < b)
		return -1;
	if (a > b)
		return 1;
	/* equal, or NaN: compare doubleToLongBits (NaN canonical, positive) */
	memcpy(&x, &a, 8);
	memcpy(&y, &b, 8);
	if (isnan(a))
		x = INT64_C(0x7ff8000000000000);
	if (isnan(b))
		y = INT64_C(0x7ff8000000000000);
	return (x > y) - (x < y);
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

int
pm_write_stats_compare(const pm_type *t, const pm_vector *v, int64_t i, const pm_value *s)
{
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			return CMP((int64_t) PM_VEC_VALUES(v, uint8_t)[i], s->u.i64);
		case PM_TYPE_TINYINT:
			return CMP((int64_t) PM_VEC_VALUES(v, int8_t)[i], s->u.i64);
		case PM_TYPE_SMALLINT:
			return CMP((int64_t) PM_VEC_VALUES(v, int16_t)[i], s->u.i64);
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			return CMP((int64_t) PM_VEC_VALUES(v, int32_t)[i], s->u.i64);
		case PM_TYPE_BIGINT:
			return CMP(PM_VEC_VALUES(v, int64_t)[i], s->u.i64);
		case PM_TYPE_FLOAT:
			return pm_java_double_compare(PM_VEC_VALUES(v, float)[i], s->u.f64);
		case PM_TYPE_DOUBLE:
			return pm_java_double_compare(PM_VEC_VALUES(v, double)[i], s->u.f64);
		case PM_TYPE_DECIMAL:
			return CMP(PM_VEC_VALUES(v, pm_int128)[i], s->u.i128);
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			{
				int64_t		us = PM_VEC_VALUES(v, int64_t)[i];
				uint16_t	ns = v->nanos ? v->nanos[i] : 0;

				if (us != s->u.i64)
					return CMP(us, s->u.i64);
				return CMP(ns, s->nanos);
			}
		default:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);
				int32_t		n = len < s->u.bytes.len ? len : s->u.bytes.len;
				int			c = n > 0 ? memcmp(p, s->u.bytes.ptr, (size_t) n) : 0;

				return c != 0 ? c : CMP(len, s->u.bytes.len);
			}
	}
}

static void
value_set(const pm_type *t, const pm_vector *v, int64_t i, pm_value *s, pm_byte_buffer *owner)
{
	memset(s, 0, sizeof(*s));
	switch (t->id)
	{
		case PM_TYPE_BOOLEAN:
			s->u.i64 = PM_VEC_VALUES(v, uint8_t)[i];
			break;
		case PM_TYPE_TINYINT:
			s->u.i64 = PM_VEC_VALUES(v, int8_t)[i];
			break;
		case PM_TYPE_SMALLINT:
			s->u.i64 = PM_VEC_VALUES(v, int16_t)[i];
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			s->u.i64 = PM_VEC_VALUES(v, int32_t)[i];
			break;
		case PM_TYPE_BIGINT:
			s->u.i64 = PM_VEC_VALUES(v, int64_t)[i];
			break;
		case PM_TYPE_FLOAT:
			s->u.f64 = PM_VEC_VALUES(v, float)[i];
			break;
		case PM_TYPE_DOUBLE:
			s->u.f64 = PM_VEC_VALUES(v, double)[i];
			break;
		case PM_TYPE_DECIMAL:
			s->u.i128 = PM_VEC_VALUES(v, pm_int128)[i];
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			s->u.i64 = PM_VEC_VALUES(v, int64_t)[i];
			s->nanos = v->nanos ? v->nanos[i] : 0;
			break;
		default:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				pm_byte_buffer_reset(owner);
				pm_byte_buffer_append(owner, p, (size_t) len);
				s->u.bytes.ptr = owner->data;
				s->u.bytes.len = len;
			}
			break;
	}
}

void
pm_write_stats_add(pm_write_stats *s, const pm_vector *v, int64_t i)
{
	if (!s->minmax)
		return;
	if (!s->any)
	{
		value_set(s->type, v, i, &s->min, &s->min_bytes);
		value_set(s->type, v, i, &s->max, &s->max_bytes);
		s->any = true;
		return;
	}
	if (pm_write_stats_compare(s->type, v, i, &s->min) < 0)
		value_set(s->type, v, i, &s->min, &s->min_bytes);
	else if (pm_write_stats_compare(s->type, v, i, &s->max) > 0)
		value_set(s->type, v, i, &s->max, &s->max_bytes);
}

void
pm_write_stats_add_all(pm_write_stats *s, const pm_vector *v, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
	{
		if (pm_vector_is_null(v, i))
			s->nulls++;
		else
			pm_write_stats_add(s, v, i);
	}
}

bool
pm_write_stats_result(const pm_write_stats *s, pm_arena *arena, pm_column_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->null_count = s->nulls;
	out->has_min_max = s->minmax && s->any && !s->min_bytes.failed && !s->max_bytes.failed;
	if (!out->has_min_max)
		return true;
	out->min = s->min;
	out->max = s->max;
	if (pm_type_is_varlen(s->type->id))
	{
		uint8_t    *a = pm_arena_alloc(arena, (size_t) s->min.u.bytes.len + 1);
		uint8_t    *b = pm_arena_alloc(arena, (size_t) s->max.u.bytes.len + 1);

		if (a == NULL || b == NULL)
			return false;
		if (s->min.u.bytes.len > 0)
			memcpy(a, s->min.u.bytes.ptr, (size_t) s->min.u.bytes.len);
		if (s->max.u.bytes.len > 0)
			memcpy(b, s->max.u.bytes.ptr, (size_t) s->max.u.bytes.len);
		out->min.u.bytes.ptr = a;
		out->max.u.bytes.ptr = b;
	}
	return true;
}
