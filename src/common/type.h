/*-------------------------------------------------------------------------
 * type.h
 *	  Paimon logical data types as the core holds them in memory.
 *
 * A pm_type describes a column (or a nested value): its Paimon type id,
 * nullability and parameters. ROW types carry fields with their Paimon field
 * ids. Types live in an arena and are never modified once built. Parsing the
 * JSON/text form of the schema files is src/row/data_type.c's job; this file
 * only defines the structure (it sits in common/ because every file format
 * reader produces vectors of these types).
 *
 * Spec: apache/paimon paimon-api org/apache/paimon/types/DataTypeRoot.java.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_TYPE_H
#define PM_COMMON_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"

typedef enum pm_type_id
{
	PM_TYPE_BOOLEAN = 0,
	PM_TYPE_TINYINT,
	PM_TYPE_SMALLINT,
	PM_TYPE_INT,
	PM_TYPE_BIGINT,
	PM_TYPE_FLOAT,
	PM_TYPE_DOUBLE,
	PM_TYPE_DECIMAL,
	PM_TYPE_CHAR,
	PM_TYPE_VARCHAR,			/* STRING is VARCHAR(2147483647) */
	PM_TYPE_BINARY,
	PM_TYPE_VARBINARY,			/* BYTES is VARBINARY(2147483647) */
	PM_TYPE_DATE,
	PM_TYPE_TIME,
	PM_TYPE_TIMESTAMP,			/* TIMESTAMP(p) WITHOUT TIME ZONE */
	PM_TYPE_TIMESTAMP_LTZ,		/* TIMESTAMP(p) WITH LOCAL TIME ZONE */
	PM_TYPE_ARRAY,
	PM_TYPE_MULTISET,
	PM_TYPE_MAP,
	PM_TYPE_ROW,
	PM_TYPE_VARIANT,
	PM_TYPE_BLOB
} pm_type_id;

#define PM_MAX_VARCHAR_LENGTH	2147483647

typedef struct pm_type pm_type;

typedef struct pm_field
{
	int32_t		id;				/* Paimon field id */
	const char *name;
	const pm_type *type;
	const char *description;	/* may be NULL */
} pm_field;

struct pm_type
{
	pm_type_id	id;
	bool		nullable;
	int32_t		length;			/* CHAR/VARCHAR/BINARY/VARBINARY */
	int32_t		precision;		/* DECIMAL; TIME/TIMESTAMP(_LTZ) fraction digits */
	int32_t		scale;			/* DECIMAL */
	const pm_type *element;		/* ARRAY and MULTISET element; MAP key */
	const pm_type *value;		/* MAP value */
	int			nfields;		/* ROW */
	const pm_field *fields;		/* ROW */
};

/*
 * Width rank of an integer type (TINYINT 1 .. BIGINT 4), 0 for any other
 * type: a widening from a to b is rank(a) > 0 && rank(b) > rank(a).
 */
static inline int
pm_type_int_rank(pm_type_id id)
{
	switch (id)
	{
		case PM_TYPE_TINYINT:
			return 1;
		case PM_TYPE_SMALLINT:
			return 2;
		case PM_TYPE_INT:
			return 3;
		case PM_TYPE_BIGINT:
			return 4;
		default:
			return 0;
	}
}

/*
 * The values of an integer type (TINYINT .. BIGINT) as [*min, *max]; false
 * (and nothing set) for any other type.
 */
static inline bool
pm_type_int_range(pm_type_id id, int64_t *min, int64_t *max)
{
	static const int64_t rank_max[] = {0, INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX};
	int			rank = pm_type_int_rank(id);

	if (rank == 0)
		return false;
	*max = rank_max[rank];
	*min = -*max - 1;
	return true;
}

/* Build a type in an arena; NULL on out-of-memory. */
extern pm_type *pm_type_new(pm_arena *arena, pm_type_id id, bool nullable);
extern pm_type *pm_type_new_decimal(pm_arena *arena, int32_t precision, int32_t scale, bool nullable);
extern pm_type *pm_type_new_array(pm_arena *arena, const pm_type *element, bool nullable);
extern pm_type *pm_type_new_map(pm_arena *arena, const pm_type *key, const pm_type *value, bool nullable);
/* fields are copied (the array, not the names or types) */
extern pm_type *pm_type_new_row(pm_arena *arena, const pm_field *fields, int nfields, bool nullable);

/* True for CHAR/VARCHAR/BINARY/VARBINARY/BLOB/VARIANT: offsets + bytes vectors. */
extern bool pm_type_is_varlen(pm_type_id id);
extern bool pm_type_is_string(pm_type_id id);	/* CHAR/VARCHAR */
extern bool pm_type_is_nested(pm_type_id id);	/* ARRAY/MULTISET/MAP/ROW */

/* Bytes per value in a fixed-width vector (0 for varlen and nested types). */
extern int	pm_type_value_size(pm_type_id id);

/* Paimon's name of a type id ("INT", "TIMESTAMP_LTZ", ...). */
extern const char *pm_type_id_name(pm_type_id id);

/* Index of the field called name in a ROW type, or -1. */
extern int	pm_type_field_index(const pm_type *row, const char *name);

/* Index of the field with Paimon field id, or -1. */
extern int	pm_type_field_index_by_id(const pm_type *row, int32_t id);

#endif							/* PM_COMMON_TYPE_H */
