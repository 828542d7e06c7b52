/*-------------------------------------------------------------------------
 * vector.c
 *	  Allocating column vectors in an arena.
 *-------------------------------------------------------------------------
 */
#include "common/vector.h"

#include <string.h>

static bool
uses_offsets(pm_type_id id)
{
	return pm_type_is_varlen(id) || id == PM_TYPE_ARRAY ||
		id == PM_TYPE_MULTISET || id == PM_TYPE_MAP;
}

bool
pm_vector_init(pm_vector *v, const pm_type *type, int64_t capacity,
			   bool with_nulls, pm_arena *arena)
{
	int			size = pm_type_value_size(type->id);
	int64_t		cap = capacity > 0 ? capacity : 1;

	memset(v, 0, sizeof(*v));
	v->type = type;
	if (capacity < 0)
		return false;
	if (with_nulls && (v->nulls = pm_arena_zalloc(arena, (size_t) cap)) == NULL)
		return false;
	if (size > 0 && (v->values = pm_arena_alloc(arena, (size_t) cap * size)) == NULL)
		return false;
	if (uses_offsets(type->id) &&
		(v->offsets = pm_arena_zalloc(arena, sizeof(int32_t) * (size_t) (cap + 1))) == NULL)
		return false;
	switch (type->id)
	{
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			v->nchildren = 1;
			v->children = pm_arena_zalloc(arena, sizeof(pm_vector));
			if (v->children == NULL ||
				!pm_vector_init(&v->children[0], type->element, 0, false, arena))
				return false;
			break;
		case PM_TYPE_MAP:
			v->nchildren = 2;
			v->children = pm_arena_zalloc(arena, 2 * sizeof(pm_vector));
			if (v->children == NULL ||
				!pm_vector_init(&v->children[0], type->element, 0, false, arena) ||
				!pm_vector_init(&v->children[1], type->value, 0, false, arena))
				return false;
			break;
		case PM_TYPE_ROW:
			v->nchildren = type->nfields;
			v->children = pm_arena_zalloc(arena, sizeof(pm_vector) * (type->nfields + 1));
			if (v->children == NULL)
				return false;
			for (int i = 0; i < type->nfields; i++)
				if (!pm_vector_init(&v->children[i], type->fields[i].type, capacity,
									with_nulls, arena))
					return false;
			break;
		default:
			break;
	}
	return true;
}

bool
pm_vector_reserve(pm_vector *v, int64_t keep, int64_t capacity, pm_arena *arena)
{
	int			size = pm_type_value_size(v->type->id);

	if (capacity < 1)
		capacity = 1;
	if (keep > capacity)
		keep = capacity;
	if (v->nulls != NULL)
	{
		uint8_t    *n = pm_arena_zalloc(arena, (size_t) capacity);

		if (n == NULL)
			return false;
		memcpy(n, v->nulls, (size_t) keep);
		v->nulls = n;
	}
	if (size > 0)
	{
		void	   *p = pm_arena_alloc(arena, (size_t) capacity * size);

		if (p == NULL)
			return false;
		if (v->values != NULL && keep > 0)
			memcpy(p, v->values, (size_t) keep * size);
		v->values = p;
	}
	if (v->nanos != NULL)
	{
		uint16_t   *p = pm_arena_zalloc(arena, sizeof(uint16_t) * (size_t) capacity);

		if (p == NULL)
			return false;
		memcpy(p, v->nanos, sizeof(uint16_t) * (size_t) keep);
		v->nanos = p;
	}
	if (uses_offsets(v->type->id))
	{
		int32_t    *o = pm_arena_zalloc(arena, sizeof(int32_t) * (size_t) (capacity + 1));

		if (o == NULL)
			return false;
		if (v->offsets != NULL)
			memcpy(o, v->offsets, sizeof(int32_t) * (size_t) (keep + 1));
		v->offsets = o;
	}
	return true;
}

bool
pm_vector_ensure_nulls(pm_vector *v, int64_t capacity, pm_arena *arena)
{
	if (v->nulls != NULL)
		return true;
	v->nulls = pm_arena_zalloc(arena, (size_t) (capacity > 0 ? capacity : 1));
	return v->nulls != NULL;
}

bool
pm_vector_reserve_data(pm_vector *v, int64_t *data_capacity, int64_t len, pm_arena *arena)
{
	if (len < 0 || v->data_size + len > INT32_MAX)
		return false;
	if (v->data == NULL || v->data_size + len > *data_capacity)
	{
		int64_t		cap = *data_capacity > 0 ? *data_capacity : 256;
		uint8_t    *p;

		while (cap < v->data_size + len)
			cap *= 2;
		p = pm_arena_alloc(arena, (size_t) cap);
		if (p == NULL)
			return false;
		if (v->data_size > 0)
			memcpy(p, v->data, (size_t) v->data_size);
		v->data = p;
		*data_capacity = cap;
	}
	return true;
}

bool
pm_vector_append_data(pm_vector *v, int64_t *data_capacity,
					  const void *bytes, int64_t len, pm_arena *arena)
{
	if (!pm_vector_reserve_data(v, data_capacity, len, arena))
		return false;
	if (len > 0)
		memcpy(v->data + v->data_size, bytes, (size_t) len);
	v->data_size += len;
	return true;
}

/* Mark `length` values of v (and, for ROW, of every nested field) NULL. */
static void
mark_all_null(pm_vector *v, int64_t length)
{
	v->length = length;
	memset(v->nulls, 1, (size_t) (length > 0 ? length : 1));
	if (v->type->id == PM_TYPE_ROW)
		for (int i = 0; i < v->nchildren; i++)
			mark_all_null(&v->children[i], length);
}

bool
pm_vector_init_all_null(pm_vector *v, const pm_type *type, int64_t length,
						pm_arena *arena)
{
	if (!pm_vector_init(v, type, length, true, arena))
		return false;
	mark_all_null(v, length);
	return true;
}

bool
pm_vector_valid(const pm_vector *v, int64_t n)
{
	pm_type_id	id = v->type->id;

	if (v->length != n || n < 0)
		return false;
	if (v->nulls != NULL)
		for (int64_t i = 0; i < n; i++)
			if (v->nulls[i] > 1)
				return false;
	if (v->nanos != NULL)
		for (int64_t i = 0; i < n; i++)
			if (v->nanos[i] > 999)
				return false;
	if (uses_offsets(id))
	{
		int64_t		limit = pm_type_is_varlen(id) ? v->data_size :
			(v->nchildren > 0 ? v->children[0].length : 0);

		if (v->offsets == NULL || v->offsets[0] != 0)
			return false;
		for (int64_t i = 0; i < n; i++)
			if (v->offsets[i + 1] < v->offsets[i] || v->offsets[i + 1] > limit)
				return false;
		if (pm_type_is_varlen(id) && n > 0 && v->offsets[n] > 0)
		{
			/* touch the last byte: a dangling data pointer shows under ASan */
			volatile uint8_t last = v->data[v->offsets[n] - 1];

			(void) last;
		}
	}
	if (id == PM_TYPE_MAP &&
		(v->nchildren != 2 || v->children[1].length != v->children[0].length))
		return false;
	if (id == PM_TYPE_ROW && v->nchildren != v->type->nfields)
		return false;
	for (int c = 0; c < v->nchildren; c++)
		if (!pm_vector_valid(&v->children[c], id == PM_TYPE_ROW ? n : v->children[c].length))
			return false;
	return true;
}
