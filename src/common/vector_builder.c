/*-------------------------------------------------------------------------
 * vector_builder.c
 *	  Append values (deep copies) to growing column vectors.
 *
 * Capacities grow geometrically; a vector's children (ROW fields) grow
 * with it, collection children (ARRAY/MAP elements) by element count.
 *-------------------------------------------------------------------------
 */
#include "common/vector_builder.h"

#include <string.h>

static bool
uses_offsets(pm_type_id id)
{
	return pm_type_is_varlen(id) || id == PM_TYPE_ARRAY ||
		id == PM_TYPE_MULTISET || id == PM_TYPE_MAP;
}

bool
pm_vector_builder_init(pm_vector_builder *b, pm_vector *v, const pm_type *type,
					   int64_t capacity, pm_arena *arena)
{
	if (capacity < 1)
		capacity = 1;
	memset(b, 0, sizeof(*b));
	b->v = v;
	b->arena = arena;
	b->capacity = capacity;
	if (!pm_vector_init(v, type, capacity, true, arena))
		return false;
	if (type->id == PM_TYPE_TIMESTAMP || type->id == PM_TYPE_TIMESTAMP_LTZ)
	{
		v->nanos = pm_arena_zalloc(arena, sizeof(uint16_t) * (size_t) capacity);
		if (v->nanos == NULL)
			return false;
	}
	if (v->nchildren > 0)
	{
		bool		collection = type->id != PM_TYPE_ROW;

		b->nchildren = v->nchildren;
		b->children = pm_arena_zalloc(arena, sizeof(pm_vector_builder) * (size_t) v->nchildren);
		if (b->children == NULL)
			return false;
		for (int i = 0; i < v->nchildren; i++)
			if (!pm_vector_builder_init(&b->children[i], &v->children[i],
										v->children[i].type,
										collection ? 4 : capacity, arena))
				return false;
	}
	return true;
}

void
pm_vector_builder_reset(pm_vector_builder *b)
{
	pm_vector  *v = b->v;

	v->length = 0;
	v->data_size = 0;
	if (v->offsets != NULL)
		v->offsets[0] = 0;
	for (int i = 0; i < b->nchildren; i++)
		pm_vector_builder_reset(&b->children[i]);
}

/* Make room for one more value. */
static bool
grow(pm_vector_builder *b)
{
	pm_vector  *v = b->v;
	int64_t		cap;

	if (v->length < b->capacity)
		return true;
	cap = b->capacity * 2;
	if (!pm_vector_reserve(v, v->length, cap, b->arena))
		return false;
	if (v->nulls == NULL && !pm_vector_ensure_nulls(v, cap, b->arena))
		return false;
	b->capacity = cap;
	return true;
}

bool
pm_vector_builder_reserve(pm_vector_builder *b, int64_t n)
{
	pm_vector  *v = b->v;
	int64_t		cap = b->capacity;

	if (v->length + n <= cap)
		return true;
	while (cap < v->length + n)
		cap *= 2;
	if (!pm_vector_reserve(v, v->length, cap, b->arena))
		return false;
	if (v->nulls == NULL && !pm_vector_ensure_nulls(v, cap, b->arena))
		return false;
	b->capacity = cap;
	return true;
}

static bool
append_null_only(pm_vector_builder *b)
{
	pm_vector  *v = b->v;
	int			size = pm_type_value_size(v->type->id);

	if (!grow(b))
		return false;
	v->nulls[v->length] = 1;
	if (size > 0)
		memset((uint8_t *) v->values + (size_t) v->length * size, 0, (size_t) size);
	if (v->nanos != NULL)
		v->nanos[v->length] = 0;
	if (uses_offsets(v->type->id))
	{
		/* keep offsets[length + 1] == offsets[length] */
		int32_t		end;

		if (pm_type_is_varlen(v->type->id))
			end = (int32_t) v->data_size;
		else
			end = v->offsets[v->length];
		v->offsets[v->length + 1] = end;
	}
	v->length++;
	return true;
}

bool
pm_vector_builder_append_null(pm_vector_builder *b)
{
	if (!append_null_only(b))
		return false;
	if (b->v->type->id == PM_TYPE_ROW)
		for (int i = 0; i < b->nchildren; i++)
			if (!pm_vector_builder_append_null(&b->children[i]))
				return false;
	return true;
}

bool
pm_vector_builder_append_bytes(pm_vector_builder *b, const void *bytes, int32_t len)
{
	pm_vector  *v = b->v;

	if (!grow(b))
		return false;
	if (!pm_vector_append_data(v, &b->data_capacity, bytes, len, b->arena))
		return false;
	v->nulls[v->length] = 0;
	v->offsets[v->length + 1] = (int32_t) v->data_size;
	v->length++;
	return true;
}

bool
pm_vector_builder_append(pm_vector_builder *b, const pm_vector *src, int64_t row)
{
	pm_vector  *v = b->v;
	int			size;

	if (src == NULL || pm_vector_is_null(src, row))
		return pm_vector_builder_append_null(b);
	size = pm_type_value_size(v->type->id);
	switch (v->type->id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
		case PM_TYPE_VARIANT:
			{
				int32_t		len;
				const uint8_t *p = pm_vector_bytes(src, row, &len);

				return pm_vector_builder_append_bytes(b, p, len);
			}
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
		case PM_TYPE_MAP:
			{
				int32_t		start = src->offsets[row];
				int32_t		end = src->offsets[row + 1];
				int32_t		base;

				if (!grow(b))
					return false;
				for (int c = 0; c < b->nchildren && c < src->nchildren; c++)
					for (int32_t e = start; e < end; e++)
						if (!pm_vector_builder_append(&b->children[c], &src->children[c], e))
							return false;
				base = v->offsets[v->length];
				v->nulls[v->length] = 0;
				v->offsets[v->length + 1] = base + (end - start);
				v->length++;
				return true;
			}
		case PM_TYPE_ROW:
			if (!grow(b))
				return false;
			for (int c = 0; c < b->nchildren; c++)
				if (!pm_vector_builder_append(&b->children[c],
											  c < src->nchildren ? &src->children[c] : NULL,
											  row))
					return false;
			v->nulls[v->length] = 0;
			v->length++;
			return true;
		default:
			if (!grow(b))
				return false;
			memcpy((uint8_t *) v->values + (size_t) v->length * size,
				   (const uint8_t *) src->values + (size_t) row * size, (size_t) size);
			if (v->nanos != NULL)
				v->nanos[v->length] = src->nanos != NULL ? src->nanos[row] : 0;
			v->nulls[v->length] = 0;
			v->length++;
			return true;
	}
}

bool
pm_vector_builder_append_struct(pm_vector_builder *b, const pm_vector *const *fields,
								const int64_t *rows)
{
	pm_vector  *v = b->v;

	if (v->type->id != PM_TYPE_ROW || !grow(b))
		return false;
	for (int c = 0; c < b->nchildren; c++)
		if (!pm_vector_builder_append(&b->children[c], fields[c], fields[c] ? rows[c] : 0))
			return false;
	v->nulls[v->length] = 0;
	v->length++;
	return true;
}

pm_vector *
pm_vector_copy_value(pm_arena *arena, const pm_type *type, const pm_vector *src, int64_t row)
{
	pm_vector  *v = pm_arena_zalloc(arena, sizeof(pm_vector));
	pm_vector_builder b;

	if (v == NULL || !pm_vector_builder_init(&b, v, type, 1, arena) ||
		!pm_vector_builder_append(&b, src, row))
		return NULL;
	return v;
}

pm_code
pm_vector_expand_multiset(pm_vector *v, pm_arena *arena, pm_error *err)
{
	const pm_vector *counts;
	pm_vector	elems;
	pm_vector_builder eb;
	int64_t		total = 0;

	if (v->nchildren != 2 || v->children[1].type == NULL ||
		v->children[1].type->id != PM_TYPE_INT)
		return pm_fail(err, PM_ERR_INVALID, "MULTISET vector without its counts");
	counts = &v->children[1];
	for (int32_t j = v->offsets[0]; j < v->offsets[v->length]; j++)
	{
		int32_t		n = PM_VEC_VALUES(counts, int32_t)[j];

		if (pm_vector_is_null(counts, j) || n < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "MULTISET element with a %s count",
						   pm_vector_is_null(counts, j) ? "NULL" : "negative");
		total += n;
		if (total > PM_MULTISET_MAX_EXPANDED)
			break;
	}
	if (total > PM_MULTISET_MAX_EXPANDED)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "MULTISET counts add up to %lld elements in one batch, more than %d",
					   (long long) total, PM_MULTISET_MAX_EXPANDED);
	if (!pm_vector_builder_init(&eb, &elems, v->children[0].type, total, arena))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory expanding a MULTISET");
	for (int64_t i = 0, from = v->offsets[0]; i < v->length; i++)
	{
		int32_t		to = v->offsets[i + 1];	/* read before it is rewritten */

		for (int32_t j = (int32_t) from; j < to; j++)
			for (int32_t k = 0; k < PM_VEC_VALUES(counts, int32_t)[j]; k++)
				if (!pm_vector_builder_append(&eb, &v->children[0], j))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory expanding a MULTISET");
		v->offsets[i + 1] = (int32_t) elems.length;
		from = to;
	}
	v->offsets[0] = 0;
	v->children[0] = elems;
	v->nchildren = 1;
	return PM_OK;
}

const pm_type pm_multiset_count_type = {.id = PM_TYPE_INT, .nullable = false};

bool
pm_vector_values_equal(const pm_vector *v, int64_t j, int64_t k)
{
	bool		nj = pm_vector_is_null(v, j);
	bool		nk = pm_vector_is_null(v, k);
	int			size = pm_type_value_size(v->type->id);

	if (nj || nk)
		return nj == nk;
	if (size == 0)
	{
		int32_t		lj,
					lk;
		const uint8_t *pj = pm_vector_bytes(v, j, &lj);
		const uint8_t *pk = pm_vector_bytes(v, k, &lk);

		return lj == lk && (lj == 0 || memcmp(pj, pk, (size_t) lj) == 0);
	}
	if (v->type->id == PM_TYPE_BOOLEAN)
		return (PM_VEC_VALUES(v, uint8_t)[j] != 0) == (PM_VEC_VALUES(v, uint8_t)[k] != 0);
	if (v->nanos != NULL && v->nanos[j] != v->nanos[k])
		return false;
	return memcmp((const uint8_t *) v->values + (size_t) j * (size_t) size,
				  (const uint8_t *) v->values + (size_t) k * (size_t) size, (size_t) size) == 0;
}

int32_t
pm_multiset_count(const pm_vector *elems, int32_t from, int32_t to, int32_t j)
{
	int32_t		count = 1;

	for (int32_t k = from; k < j; k++)
		if (pm_vector_values_equal(elems, k, j))
			return 0;
	for (int32_t k = j + 1; k < to; k++)
		count += pm_vector_values_equal(elems, k, j);
	return count;
}

bool
pm_vector_collapse_multiset(const pm_vector *v, int64_t start, int64_t end, pm_arena *arena,
							pm_vector *out)
{
	int64_t		n = end - start;
	int32_t		nelems = v->offsets[end] - v->offsets[start];
	pm_vector_builder eb;
	pm_vector  *counts;

	memset(out, 0, sizeof(*out));
	out->type = v->type;
	out->length = n;
	out->nulls = v->nulls != NULL ? v->nulls + start : NULL;
	out->nchildren = 2;
	if ((out->offsets = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (n + 1))) == NULL ||
		(out->children = pm_arena_zalloc(arena, 2 * sizeof(pm_vector))) == NULL ||
		!pm_vector_builder_init(&eb, &out->children[0], v->children[0].type, nelems, arena))
		return false;
	counts = &out->children[1];
	counts->type = &pm_multiset_count_type;
	if ((counts->values = pm_arena_alloc(arena, sizeof(int32_t) *
										 (size_t) (nelems > 0 ? nelems : 1))) == NULL)
		return false;
	out->offsets[0] = 0;
	for (int64_t i = start; i < end; i++)
	{
		int32_t		from = v->offsets[i];
		int32_t		to = v->offsets[i + 1];

		for (int32_t j = from; j < to; j++)
		{
			int32_t		count = pm_multiset_count(&v->children[0], from, to, j);

			if (count == 0)
				continue;
			PM_VEC_VALUES(counts, int32_t)[counts->length++] = count;
			if (!pm_vector_builder_append(&eb, &v->children[0], j))
				return false;
		}
		out->offsets[i - start + 1] = (int32_t) counts->length;
	}
	return true;
}
