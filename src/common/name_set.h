/*-------------------------------------------------------------------------
 * name_set.h
 *	  A set of byte strings (file names, paths, keys) in an arena.
 *
 * Open addressing with FNV-1a hashes; keys are copied into the arena the
 * set was created in and live as long as it. No removal: callers that need
 * to forget a key keep a flag beside it (pm_name_set_find gives its slot
 * number, stable while the set lives).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_NAME_SET_H
#define PM_COMMON_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"

typedef struct pm_name_set pm_name_set;

/* An empty set in arena; NULL on out-of-memory. */
extern pm_name_set *pm_name_set_create(pm_arena *arena);

/*
 * Add key (len bytes); *index (may be NULL) is its number, in insertion
 * order from 0, whether it was new or not. false on out-of-memory.
 */
extern bool pm_name_set_add(pm_name_set *set, const void *key, size_t len, int *index);
extern bool pm_name_set_add_str(pm_name_set *set, const char *key);

/* Number of key, or -1 if absent. */
extern int	pm_name_set_find(const pm_name_set *set, const void *key, size_t len);
extern bool pm_name_set_contains_str(const pm_name_set *set, const char *key);

/* Number of keys, and key number i (NUL-terminated copy; *len its length). */
extern int	pm_name_set_count(const pm_name_set *set);
extern const char *pm_name_set_key(const pm_name_set *set, int i, size_t *len);

#endif							/* PM_COMMON_NAME_SET_H */
