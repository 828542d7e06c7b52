/*-------------------------------------------------------------------------
 * int_map.h
 *	  A map from int32 keys to int32 values (a set when the values are
 *	  unused): open addressing, linear probing, memory from the env
 *	  allocator (not an arena: the tables of a dynamic-bucket index grow to
 *	  millions of keys and are freed whole when outgrown).
 *
 * No removal. Iteration order is the slot order (arbitrary).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_INT_MAP_H
#define PM_COMMON_INT_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/env.h"

typedef struct pm_int_map
{
	const pm_env *env;
	int32_t    *keys;
	int32_t    *values;
	uint8_t    *used;
	size_t		capacity;		/* a power of two, or 0 before the first put */
	size_t		count;
} pm_int_map;

/* An empty map (allocates nothing until the first put). */
extern void pm_int_map_init(pm_int_map *m, const pm_env *env);

/* Free the tables; the map is empty again. */
extern void pm_int_map_free(pm_int_map *m);

/* Room for n keys without growing; false on out-of-memory. */
extern bool pm_int_map_reserve(pm_int_map *m, size_t n);

/* The value of key, if present. */
extern bool pm_int_map_get(const pm_int_map *m, int32_t key, int32_t *value);

/*
 * Set key to value (replacing an earlier value); *added (may be NULL) says
 * whether key is new. false on out-of-memory (the map is unchanged).
 */
extern bool pm_int_map_put(pm_int_map *m, int32_t key, int32_t value, bool *added);

/*
 * Iterate: start with *pos = 0; each call gives the next key and value and
 * returns false after the last.
 */
extern bool pm_int_map_next(const pm_int_map *m, size_t *pos, int32_t *key, int32_t *value);

#endif							/* PM_COMMON_INT_MAP_H */
