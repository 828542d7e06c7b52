/*-------------------------------------------------------------------------
 * arena.h
 *	  Region allocator: many small allocations freed together.
 *
 * Lifetimes in the core are named by arenas (scan, split, file, batch): a
 * batch's vectors live in the batch arena and vanish on pm_arena_reset. All
 * memory comes from the pm_env the arena was created with. Allocation
 * failure returns NULL (callers return PM_ERR_NOMEM).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_ARENA_H
#define PM_COMMON_ARENA_H

#include <stddef.h>

#include "common/env.h"

typedef struct pm_arena pm_arena;

/* NULL on out-of-memory. */
extern pm_arena *pm_arena_create(const pm_env *env);
extern void pm_arena_destroy(pm_arena *arena);

/* Free everything allocated since creation; keeps one block for reuse. */
extern void pm_arena_reset(pm_arena *arena);

/* 16-byte aligned; NULL on out-of-memory (also for absurd sizes). */
extern void *pm_arena_alloc(pm_arena *arena, size_t size);
extern void *pm_arena_zalloc(pm_arena *arena, size_t size);

/* Grow an allocation made in this arena (copies; the old space is not reused). */
extern void *pm_arena_realloc(pm_arena *arena, void *ptr, size_t old_size, size_t new_size);

extern char *pm_arena_strdup(pm_arena *arena, const char *s);
extern char *pm_arena_strndup(pm_arena *arena, const char *s, size_t n);
extern char *pm_arena_sprintf(pm_arena *arena, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/* The environment the arena allocates from. */
extern const pm_env *pm_arena_env(pm_arena *arena);

/* Bytes currently held from the environment (for accounting and tests). */
extern size_t pm_arena_bytes(pm_arena *arena);

#endif							/* PM_COMMON_ARENA_H */
