/*-------------------------------------------------------------------------
 * env.c
 *	  The default (malloc-backed) core environment; interrupt polls and
 *	  the list of tracked resources (env.h).
 *-------------------------------------------------------------------------
 */
#include "common/env.h"

#include <stdlib.h>

static void *
default_alloc(void *opaque, size_t size)
{
	(void) opaque;
	return malloc(size ? size : 1);
}

static void
default_free(void *opaque, void *ptr)
{
	(void) opaque;
	free(ptr);
}

static const pm_env default_env = {default_alloc, default_free, NULL, NULL, NULL};

const pm_env *
pm_env_default(void)
{
	return &default_env;
}

pm_code
pm_check_interrupts(const pm_env *env, pm_error *err)
{
	if (env->interrupted != NULL && env->interrupted(env->opaque))
		return pm_fail(err, PM_ERR_CANCELED, "canceled");
	return PM_OK;
}

void
pm_env_resources_init(pm_resource *head)
{
	head->release = NULL;
	head->prev = head;
	head->next = head;
}

void
pm_env_track(const pm_env *env, pm_resource *r)
{
	pm_resource *head = env->resources;

	if (head == NULL)
	{
		r->prev = r;
		r->next = r;
		return;
	}
	r->prev = head;
	r->next = head->next;
	head->next->prev = r;
	head->next = r;
}

void
pm_env_untrack(pm_resource *r)
{
	if (r->next == NULL || r->next == r)
		return;
	r->prev->next = r->next;
	r->next->prev = r->prev;
	r->prev = r;
	r->next = r;
}

void
pm_env_release_all(const pm_env *env)
{
	pm_resource *head = env->resources;

	if (head == NULL)
		return;
	while (head->next != head)
	{
		pm_resource *r = head->next;

		pm_env_untrack(r);
		r->release(r);
	}
}

int
pm_env_tracked_count(const pm_env *env)
{
	int			n = 0;

	if (env->resources == NULL)
		return 0;
	for (const pm_resource *r = env->resources->next; r != env->resources; r = r->next)
		n++;
	return n;
}
