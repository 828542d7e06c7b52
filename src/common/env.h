/*-------------------------------------------------------------------------
 * env.h
 *	  The environment the core runs in: its allocator.
 *
 * The core allocates only through a pm_env. Standalone tools and tests use
 * pm_env_default() (malloc/free); src/fdw/ hands in one backed by a memory
 * context that returns NULL on out-of-memory instead of raising ERROR, so no
 * longjmp ever crosses core frames.
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_ENV_H
#define PM_COMMON_ENV_H

#include <stddef.h>

typedef struct pm_env
{
	/* returns NULL on failure; never raises; 16-byte aligned (pm_int128) */
	void	   *(*alloc) (void *opaque, size_t size);
	void		(*free) (void *opaque, void *ptr);
	void	   *opaque;
} pm_env;

/* malloc/free; a static object, never freed. */
extern const pm_env *pm_env_default(void);

static inline void *
pm_alloc(const pm_env *env, size_t size)
{
	return env->alloc(env->opaque, size);
}

static inline void
pm_free(const pm_env *env, void *ptr)
{
	if (ptr != NULL)
		env->free(env->opaque, ptr);
}

#endif							/* PM_COMMON_ENV_H */
