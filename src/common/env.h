/*-------------------------------------------------------------------------
 * env.h
 *	  The environment the core runs in: its allocator, an interrupt poll,
 *	  and the resources it holds outside the allocator.
 *
 * The core allocates only through a pm_env. Standalone tools and tests use
 * pm_env_default() (malloc/free, never interrupted, nothing tracked);
 * src/fdw/ hands in one backed by a memory context that returns NULL on
 * out-of-memory instead of raising ERROR, so no longjmp ever crosses core
 * frames.
 *
 * Interrupts: long loops (planning over manifests, reading batches,
 * merging) poll pm_check_interrupts() and give up with PM_ERR_CANCELED when
 * the env's hook says the caller wants to stop (a query cancel). The hook
 * must not raise or longjmp; polls are per batch, manifest or file, never
 * per row.
 *
 * Tracked resources: what the core holds outside the allocator (CRoaring
 * bitmaps, which CRoaring mallocs itself) is linked into the env's list
 * while alive, so that whoever owns the env can release everything still
 * held when it abandons the core's objects without closing them (the FDW
 * does on ERROR, from a memory-context reset callback).
 *-------------------------------------------------------------------------
 */
#ifndef PM_COMMON_ENV_H
#define PM_COMMON_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * A resource held outside the allocator. The owner embeds it, sets release
 * and calls pm_env_track; release() frees the owner (and must untrack it,
 * or not care: pm_env_release_all unlinks it first).
 */
typedef struct pm_resource
{
	void		(*release) (struct pm_resource *self);
	struct pm_resource *prev;
	struct pm_resource *next;
} pm_resource;

typedef struct pm_env
{
	/* returns NULL on failure; never raises; 16-byte aligned (pm_int128) */
	void	   *(*alloc) (void *opaque, size_t size);
	void		(*free) (void *opaque, void *ptr);
	void	   *opaque;

	/* true: stop (PM_ERR_CANCELED). May be NULL. Never raises. */
	bool		(*interrupted) (void *opaque);

	/*
	 * Head of a circular list of tracked resources (pm_env_resources_init),
	 * or NULL: nothing is tracked (the owner frees everything explicitly).
	 */
	pm_resource *resources;
} pm_env;

/* malloc/free; a static object, never freed, never interrupted. */
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

/*
 * PM_ERR_CANCELED ("canceled") if the env's interrupt hook says stop, else
 * PM_OK. Cheap enough for once per batch; not for once per row.
 */
extern pm_code pm_check_interrupts(const pm_env *env, pm_error *err);

/* Make head the (empty) list of tracked resources. */
extern void pm_env_resources_init(pm_resource *head);

/* Link r into env's list (a no-op list of its own if env tracks nothing). */
extern void pm_env_track(const pm_env *env, pm_resource *r);

/* Unlink r (safe on an untracked or already unlinked r). */
extern void pm_env_untrack(pm_resource *r);

/* Release every resource still tracked by env, newest first. */
extern void pm_env_release_all(const pm_env *env);

/* Number of resources env tracks (tests). */
extern int	pm_env_tracked_count(const pm_env *env);

#endif							/* PM_COMMON_ENV_H */
