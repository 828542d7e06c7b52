/*-------------------------------------------------------------------------
 * type.c
 *	  Constructing and inspecting in-memory Paimon data types.
 *-------------------------------------------------------------------------
 */
#include "common/type.h"

#include <string.h>

pm_type *
pm_type_new(pm_arena *arena, pm_type_id id, bool nullable)
{
	pm_type    *t = pm_arena_zalloc(arena, sizeof(pm_type));

	if (t == NULL)
		return NULL;
	t->id = id;
	t->nullable = nullable;
	switch (id)
	{
		case PM_TYPE_VARCHAR:
		case PM_TYPE_VARBINARY:
			t->length = PM_MAX_VARCHAR_LENGTH;
			break;
		case PM_TYPE_CHAR:
		case PM_TYPE_BINARY:
			t->length = 1;
			break;
		case PM_TYPE_DECIMAL:
			t->precision = 10;
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			t->precision = 6;
			break;
		default:
			break;
	}
	return t;
}

pm_type *
pm_type_new_decimal(pm_arena *arena, int32_t precision, int32_t scale, bool nullable)
{
	pm_type    *t = pm_type_new(arena, PM_TYPE_DECIMAL, nullable);

	if (t != NULL)
	{
		t->precision = precision;
		t->scale = scale;
	}
	return t;
}

pm_type *
pm_type_new_array(pm_arena *arena, const pm_type *element, bool nullable)
{
	pm_type    *t = pm_type_new(arena, PM_TYPE_ARRAY, nullable);

	if (t != NULL)
		t->element = element;
	return t;
}

pm_type *
pm_type_new_map(pm_arena *arena, const pm_type *key, const pm_type *value, bool nullable)
{
	pm_type    *t = pm_type_new(arena, PM_TYPE_MAP, nullable);

	if (t != NULL)
	{
		t->element = key;
		t->value = value;
	}
	return t;
}

pm_type *
pm_type_new_row(pm_arena *arena, const pm_field *fields, int nfields, bool nullable)
{
	pm_type    *t = pm_type_new(arena, PM_TYPE_ROW, nullable);
	pm_field   *copy;

	if (t == NULL)
		return NULL;
	copy = pm_arena_alloc(arena, sizeof(pm_field) * (nfields > 0 ? nfields : 1));
	if (copy == NULL)
		return NULL;
	if (nfields > 0)
		memcpy(copy, fields, sizeof(pm_field) * nfields);
	t->fields = copy;
	t->nfields = nfields;
	return t;
}

bool
pm_type_is_varlen(pm_type_id id)
{
	switch (id)
	{
		case PM_TYPE_CHAR:
		case PM_TYPE_VARCHAR:
		case PM_TYPE_BINARY:
		case PM_TYPE_VARBINARY:
		case PM_TYPE_BLOB:
		case PM_TYPE_VARIANT:
			return true;
		default:
			return false;
	}
}

bool
pm_type_is_string(pm_type_id id)
{
	return id == PM_TYPE_CHAR || id == PM_TYPE_VARCHAR;
}

bool
pm_type_is_nested(pm_type_id id)
{
	return id == PM_TYPE_ARRAY || id == PM_TYPE_MULTISET ||
		id == PM_TYPE_MAP || id == PM_TYPE_ROW;
}

int
pm_type_value_size(pm_type_id id)
{
	switch (id)
	{
		case PM_TYPE_BOOLEAN:
		case PM_TYPE_TINYINT:
			return 1;
		case PM_TYPE_SMALLINT:
			return 2;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
		case PM_TYPE_FLOAT:
			return 4;
		case PM_TYPE_BIGINT:
		case PM_TYPE_DOUBLE:
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return 8;
		case PM_TYPE_DECIMAL:
			return 16;
		default:
			return 0;
	}
}

const char *
pm_type_id_name(pm_type_id id)
{
	static const char *const names[] = {
		"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
		"DECIMAL", "CHAR", "VARCHAR", "BINARY", "VARBINARY", "DATE", "TIME",
		"TIMESTAMP", "TIMESTAMP_LTZ", "ARRAY", "MULTISET", "MAP", "ROW",
		"VARIANT", "BLOB"
	};

	if ((int) id < 0 || (size_t) id >= sizeof(names) / sizeof(names[0]))
		return "UNKNOWN";
	return names[id];
}

int
pm_type_field_index(const pm_type *row, const char *name)
{
	for (int i = 0; i < row->nfields; i++)
		if (strcmp(row->fields[i].name, name) == 0)
			return i;
	return -1;
}

int
pm_type_field_index_by_id(const pm_type *row, int32_t id)
{
	for (int i = 0; i < row->nfields; i++)
		if (row->fields[i].id == id)
			return i;
	return -1;
}
