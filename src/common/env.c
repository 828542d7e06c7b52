/*-------------------------------------------------------------------------
 * env.c
 *	  The default (malloc-backed) core environment.
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

static const pm_env default_env = {default_alloc, default_free, NULL};

const pm_env *
pm_env_default(void)
{
	return &default_env;
}
