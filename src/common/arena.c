/*-------------------------------------------------------------------------
 * arena.c
 *	  Region allocator over a pm_env: a list of blocks, bump allocation.
 *
 * Blocks grow: the first two are just under 8 kB with their headers (and
 * the allocator's: the FDW's env adds 16 bytes), each next one twice the
 * last, up to 64 kB. Most arenas hold little (a column reader's page, a
 * lookup's plan) and are created and destroyed per lookup: a block under
 * 8 kB is a cheap allocation (in the FDW a palloc that Postgres' memory
 * context serves from its own blocks; above 8 kB every palloc is a malloc
 * of its own, slow on a backend whose heap the caches fragmented) and
 * touches few new pages. An arena that outgrows its first block by a
 * little (a lookup's reader: its plan, then the row's batches) so still
 * makes no malloc; a busy one reaches 64 kB blocks after four. Large
 * requests get a block of their own so a reset does not keep them; a reset
 * keeps the current (largest) block.
 *
 * Under AddressSanitizer a reset poisons the block it keeps and each
 * allocation unpoisons what it hands out, so a pointer kept across a reset
 * is caught even when its memory was not given back to malloc.
 *-------------------------------------------------------------------------
 */
#include "common/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#if !defined(ARENA_ASAN) && defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define ARENA_POISON(p, n)		ASAN_POISON_MEMORY_REGION((p), (n))
#define ARENA_UNPOISON(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ARENA_POISON(p, n)		((void) (p), (void) (n))
#define ARENA_UNPOISON(p, n)	((void) (p), (void) (n))
#endif

#define ARENA_BLOCK_SIZE	(64 * 1024) /* the largest growing block */
#define ARENA_FIRST_BLOCK	(8 * 1024 - 64 - BLOCK_HEADER)	/* under 8 kB with headers */
#define ARENA_ALIGN			16
#define ARENA_MAX_ALLOC		((size_t) 1 << 40)

typedef struct arena_block
{
	struct arena_block *next;
	size_t		size;			/* usable bytes after the header */
	size_t		used;
	int			own;			/* a large request's block of its own */
	/* data follows, aligned */
} arena_block;

#define BLOCK_HEADER	((sizeof(arena_block) + ARENA_ALIGN - 1) & ~(size_t) (ARENA_ALIGN - 1))
#define BLOCK_DATA(b)	((char *) (b) + BLOCK_HEADER)

struct pm_arena
{
	const pm_env *env;
	arena_block *head;			/* current block first */
	size_t		bytes;
	size_t		next_size;		/* of the next growing block */
	int			nblocks;		/* growing blocks made */
};

pm_arena *
pm_arena_create(const pm_env *env)
{
	pm_arena   *arena = pm_alloc(env, sizeof(pm_arena));

	if (arena == NULL)
		return NULL;
	arena->env = env;
	arena->head = NULL;
	arena->bytes = 0;
	arena->next_size = ARENA_FIRST_BLOCK;
	arena->nblocks = 0;
	return arena;
}

void
pm_arena_destroy(pm_arena *arena)
{
	arena_block *b;

	if (arena == NULL)
		return;
	b = arena->head;
	while (b != NULL)
	{
		arena_block *next = b->next;

		pm_free(arena->env, b);
		b = next;
	}
	pm_free(arena->env, arena);
}

void
pm_arena_reset(pm_arena *arena)
{
	arena_block *keep = NULL;
	arena_block *b = arena->head;

	while (b != NULL)
	{
		arena_block *next = b->next;

		if (keep == NULL && !b->own)
			keep = b;
		else
			pm_free(arena->env, b);
		b = next;
	}
	arena->head = keep;
	arena->bytes = 0;
	if (keep != NULL)
	{
		keep->next = NULL;
		keep->used = 0;
		arena->bytes = BLOCK_HEADER + keep->size;
		ARENA_POISON(BLOCK_DATA(keep), keep->size);
	}
}

static arena_block *
new_block(pm_arena *arena, size_t size)
{
	arena_block *b = pm_alloc(arena->env, BLOCK_HEADER + size);

	if (b == NULL)
		return NULL;
	b->size = size;
	b->used = 0;
	b->own = 0;
	arena->bytes += BLOCK_HEADER + size;
	return b;
}

void *
pm_arena_alloc(pm_arena *arena, size_t size)
{
	arena_block *b = arena->head;
	size_t		need;

	if (size > ARENA_MAX_ALLOC)
		return NULL;
	need = (size + ARENA_ALIGN - 1) & ~(size_t) (ARENA_ALIGN - 1);
	if (need == 0)
		need = ARENA_ALIGN;
	if (b != NULL && b->size - b->used >= need)
	{
		void	   *p = BLOCK_DATA(b) + b->used;

		b->used += need;
		ARENA_UNPOISON(p, need);
		return p;
	}
	if (need > ARENA_BLOCK_SIZE / 4)
	{
		/* a block of its own, behind the current one */
		arena_block *big = new_block(arena, need);

		if (big == NULL)
			return NULL;
		big->used = need;
		big->own = 1;
		if (b != NULL)
		{
			big->next = b->next;
			b->next = big;
		}
		else
		{
			big->next = NULL;
			arena->head = big;
		}
		return BLOCK_DATA(big);
	}
	while (arena->next_size < need)
		arena->next_size *= 2;
	b = new_block(arena, arena->next_size);
	if (b == NULL)
		return NULL;
	/* the second block is the first's size (see the header) */
	if (arena->nblocks++ > 0 || arena->next_size > ARENA_FIRST_BLOCK)
		arena->next_size = arena->next_size * 2 < ARENA_BLOCK_SIZE ? arena->next_size * 2 :
			ARENA_BLOCK_SIZE;
	b->next = arena->head;
	arena->head = b;
	b->used = need;
	return BLOCK_DATA(b);
}

void *
pm_arena_zalloc(pm_arena *arena, size_t size)
{
	void	   *p = pm_arena_alloc(arena, size);

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

void *
pm_arena_realloc(pm_arena *arena, void *ptr, size_t old_size, size_t new_size)
{
	void	   *p;

	if (new_size <= old_size && ptr != NULL)
		return ptr;
	p = pm_arena_alloc(arena, new_size);
	if (p != NULL && ptr != NULL && old_size > 0)
		memcpy(p, ptr, old_size);
	return p;
}

char *
pm_arena_strndup(pm_arena *arena, const char *s, size_t n)
{
	char	   *p = pm_arena_alloc(arena, n + 1);

	if (p == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
pm_arena_strdup(pm_arena *arena, const char *s)
{
	return pm_arena_strndup(arena, s, strlen(s));
}

char *
pm_arena_sprintf(pm_arena *arena, const char *fmt,...)
{
	va_list		ap;
	int			n;
	char	   *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	p = pm_arena_alloc(arena, (size_t) n + 1);
	if (p == NULL)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t) n + 1, fmt, ap);
	va_end(ap);
	return p;
}

const pm_env *
pm_arena_env(pm_arena *arena)
{
	return arena->env;
}

size_t
pm_arena_bytes(pm_arena *arena)
{
	return arena->bytes;
}
