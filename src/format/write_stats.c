/*-------------------------------------------------------------------------
 * write_stats.c
 *	  Column min/max/null-count accumulation for file writers (see
 *	  write_stats.h for the order).
 *-------------------------------------------------------------------------
 */
#include "format/write_stats.h"

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

static void
bytes_set(pm_value *s, pm_byte_buffer *owner, const uint8_t *p, size_t n)
{
	pm_byte_buffer_reset(owner);
	if (n > 0)
		pm_byte_buffer_append(owner, p, n);
	else
		(void) pm_byte_buffer_reserve(owner, 1);	/* data non-NULL for empty values */
	s->u.bytes.ptr = owner->data;
	s->u.bytes.len = (int32_t) n;
}

void
pm_write_stats_add_bytes(pm_write_stats *s, const uint8_t *p, size_t n)
{
	if (!s->any)
	{
		bytes_set(&s->min, &s->min_bytes, p, n);
		bytes_set(&s->max, &s->max_bytes, p, n);
		s->any = true;
	}
	else if (pm_cmp_bytes(p, n, s->min.u.bytes.ptr, (size_t) s->min.u.bytes.len) < 0)
		bytes_set(&s->min, &s->min_bytes, p, n);
	else if (pm_cmp_bytes(p, n, s->max.u.bytes.ptr, (size_t) s->max.u.bytes.len) > 0)
		bytes_set(&s->max, &s->max_bytes, p, n);
}

/* fold a value v of s->type (as pm_write_stats holds one) into s */
static void
add_value(pm_write_stats *s, const pm_value *v)
{
	switch (s->type->id)
	{
		case PM_TYPE_FLOAT:
		case PM_TYPE_DOUBLE:
			pm_write_stats_add_f64(s, v->u.f64);
			break;
		case PM_TYPE_DECIMAL:
			pm_write_stats_add_i128(s, v->u.i128);
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			pm_write_stats_add_ts(s, v->u.i64, v->nanos);
			break;
		default:
			if (pm_type_is_varlen(s->type->id))
				pm_write_stats_add_bytes(s, v->u.bytes.ptr, (size_t) v->u.bytes.len);
			else
				pm_write_stats_add_i64(s, v->u.i64);
			break;
	}
}

void
pm_write_stats_merge(pm_write_stats *dst, const pm_write_stats *src)
{
	dst->nulls += src->nulls;
	if (!src->any)
		return;
	add_value(dst, &src->min);
	add_value(dst, &src->max);
}

void
pm_write_stats_add(pm_write_stats *s, const pm_vector *v, int64_t i)
{
	if (!s->minmax)
		return;
	switch (s->type->id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_BIGINT:
			pm_write_stats_add_i64(s, pm_vector_int64_at(v, i));
			break;
		case PM_TYPE_FLOAT:
			pm_write_stats_add_f64(s, PM_VEC_VALUES(v, float)[i]);
			break;
		case PM_TYPE_DOUBLE:
			pm_write_stats_add_f64(s, PM_VEC_VALUES(v, double)[i]);
			break;
		case PM_TYPE_DECIMAL:
			pm_write_stats_add_i128(s, PM_VEC_VALUES(v, pm_int128)[i]);
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			pm_write_stats_add_ts(s, PM_VEC_VALUES(v, int64_t)[i], v->nanos ? v->nanos[i] : 0);
			break;
		default:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(v, i, &len);

				pm_write_stats_add_bytes(s, p, (size_t) len);
			}
			break;
	}
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
