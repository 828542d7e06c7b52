/*-------------------------------------------------------------------------
 * memory_fileio.c
 *	  An in-memory FileIO for tests, with failure injection.
 *
 * A linked list of entries (files and explicit directories); fine for the
 * tens of files a test holds. Removed entries stay allocated (marked dead)
 * until destroy so that open handles stay valid.
 *-------------------------------------------------------------------------
 */
#include "io/memory_fileio.h"

#include <errno.h>
#include <string.h>

typedef struct mem_entry
{
	struct mem_entry *next;
	bool		dead;
	bool		is_dir;
	uint8_t    *data;
	size_t		len;
	size_t		cap;			/* allocated bytes of data (files being written) */
	char		path[];
} mem_entry;

typedef struct mem_state
{
	const pm_env *env;
	mem_entry  *entries;
	int			reads;
	int			fail_at;		/* read number that fails, 0: none */
	pm_code		fail_code;
	char	   *fail_open_path;
	pm_code		fail_open_code;
	int			open_files;
	int			writes;
	int			fail_write_at;	/* output call number that fails, 0: none */
	pm_code		fail_write_code;
} mem_state;

struct pm_file
{
	mem_entry  *entry;
};

struct pm_out_file
{
	mem_entry  *entry;
};

static mem_entry *
find(mem_state *st, const char *path)
{
	for (mem_entry *e = st->entries; e != NULL; e = e->next)
		if (!e->dead && strcmp(e->path, path) == 0)
			return e;
	return NULL;
}

/* any live entry strictly below dir? */
static bool
has_children(mem_state *st, const char *dir)
{
	size_t		dl = strlen(dir);

	for (mem_entry *e = st->entries; e != NULL; e = e->next)
		if (!e->dead && strncmp(e->path, dir, dl) == 0 && e->path[dl] == '/')
			return true;
	return false;
}

static mem_entry *
add_entry(mem_state *st, const char *path, const void *data, size_t len, bool is_dir)
{
	size_t		pl = strlen(path);
	mem_entry  *e = pm_alloc(st->env, sizeof(mem_entry) + pl + 1);

	if (e == NULL)
		return NULL;
	memset(e, 0, sizeof(mem_entry));
	memcpy(e->path, path, pl + 1);
	e->is_dir = is_dir;
	if (!is_dir)
	{
		e->data = pm_alloc(st->env, len + 1);
		if (e->data == NULL)
		{
			pm_free(st->env, e);
			return NULL;
		}
		if (len > 0)
			memcpy(e->data, data, len);
		e->len = len;
		e->cap = len + 1;
	}
	e->next = st->entries;
	st->entries = e;
	return e;
}

static pm_code
count_read(mem_state *st, pm_file *f, pm_error *err)
{
	st->reads++;
	if (st->fail_at > 0 && st->reads == st->fail_at)
	{
		pm_code		code = st->fail_code;

		st->fail_at = 0;
		if (code == PM_ERR_IO)
			pm_fail_errno(err, EIO, "injected read failure");
		else
			pm_fail(err, code, "injected read failure");
		pm_error_set_path(err, f->entry->path);
		return code;
	}
	return PM_OK;
}

static pm_code
mem_open(pm_fileio *io, const char *path, pm_file **out, pm_error *err)
{
	mem_state  *st = io->state;
	mem_entry  *e;
	pm_file    *f;

	*out = NULL;
	if (st->fail_open_path != NULL && strcmp(st->fail_open_path, path) == 0)
	{
		if (st->fail_open_code == PM_ERR_IO)
			pm_fail_errno(err, EIO, "injected open failure");
		else
			pm_fail(err, st->fail_open_code, "injected open failure");
		pm_error_set_path(err, path);
		return st->fail_open_code;
	}
	e = find(st, path);
	if (e == NULL || e->is_dir)
	{
		pm_fail(err, e == NULL ? PM_ERR_NOT_FOUND : PM_ERR_INVALID,
				e == NULL ? "could not open file: no such file or directory" :
				"could not open file: is a directory");
		pm_error_set_path(err, path);
		return err->code;
	}
	f = pm_alloc(st->env, sizeof(pm_file));
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory opening a file");
	f->entry = e;
	st->open_files++;
	*out = f;
	return PM_OK;
}

static pm_code
mem_size(pm_fileio *io, pm_file *f, uint64_t *size, pm_error *err)
{
	*size = f->entry->len;
	return PM_OK;
}

static pm_code
read_one(pm_file *f, void *buf, size_t len, uint64_t off, pm_error *err)
{
	if (off > f->entry->len || len > f->entry->len - off)
	{
		pm_fail(err, PM_ERR_CORRUPT,
				"truncated: wanted %zu bytes at offset %llu, file has %zu",
				len, (unsigned long long) off, f->entry->len);
		pm_error_set_path(err, f->entry->path);
		return PM_ERR_CORRUPT;
	}
	if (len > 0)
		memcpy(buf, f->entry->data + off, len);
	return PM_OK;
}

static pm_code
mem_pread(pm_fileio *io, pm_file *f, void *buf, size_t len, uint64_t off, pm_error *err)
{
	PM_TRY(count_read(io->state, f, err));
	return read_one(f, buf, len, off, err);
}

static pm_code
mem_read_ranges(pm_fileio *io, pm_file *f, pm_read_range *ranges, int nranges,
				pm_error *err)
{
	PM_TRY(count_read(io->state, f, err));
	for (int i = 0; i < nranges; i++)
		PM_TRY(read_one(f, ranges[i].buf, ranges[i].length, ranges[i].offset, err));
	return PM_OK;
}

static void
mem_close(pm_fileio *io, pm_file *f)
{
	mem_state  *st = io->state;

	if (f == NULL)
		return;
	st->open_files--;
	pm_free(st->env, f);
}

static pm_code
mem_list(pm_fileio *io, const char *dir, pm_arena *arena, char ***names, int *count,
		 pm_error *err)
{
	mem_state  *st = io->state;
	size_t		dl = strlen(dir);
	char	  **arr = NULL;
	int			n = 0;
	int			cap = 0;
	mem_entry  *self = find(st, dir);

	*names = NULL;
	*count = 0;
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	if ((self == NULL || !self->is_dir) && !has_children(st, dir))
	{
		pm_fail(err, PM_ERR_NOT_FOUND, "could not open directory: no such file or directory");
		pm_error_set_path(err, dir);
		return PM_ERR_NOT_FOUND;
	}
	for (mem_entry *e = st->entries; e != NULL; e = e->next)
	{
		const char *rest;
		const char *slash;
		size_t		nl;
		bool		dup = false;

		if (e->dead || strncmp(e->path, dir, dl) != 0 || e->path[dl] != '/')
			continue;
		rest = e->path + dl + 1;
		slash = strchr(rest, '/');
		nl = slash ? (size_t) (slash - rest) : strlen(rest);
		if (nl == 0)
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = strlen(arr[i]) == nl && memcmp(arr[i], rest, nl) == 0;
		if (dup)
			continue;
		if (n == cap)
		{
			int			ncap = cap == 0 ? 16 : cap * 2;
			char	  **na = pm_arena_realloc(arena, arr, sizeof(char *) * (size_t) cap,
											  sizeof(char *) * (size_t) ncap);

			if (na == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory listing a directory");
			arr = na;
			cap = ncap;
		}
		arr[n] = pm_arena_strndup(arena, rest, nl);
		if (arr[n] == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory listing a directory");
		n++;
	}
	*names = arr;
	*count = n;
	return PM_OK;
}

static bool
mem_is_dir(pm_fileio *io, const char *path)
{
	mem_state  *st = io->state;
	mem_entry  *e = find(st, path);

	if (e != NULL)
		return e->is_dir;
	return has_children(st, path);
}

static bool
mem_exists(pm_fileio *io, const char *path)
{
	return find(io->state, path) != NULL || has_children(io->state, path);
}

static pm_code
mem_write_new(pm_fileio *io, const char *path, const void *data, size_t len,
			  pm_error *err)
{
	mem_state  *st = io->state;

	if (mem_exists(io, path))
	{
		pm_fail(err, PM_ERR_CONFLICT, "file already exists");
		pm_error_set_path(err, path);
		return PM_ERR_CONFLICT;
	}
	if (add_entry(st, path, data, len, false) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory writing a file");
	return PM_OK;
}

static pm_code
mem_remove(pm_fileio *io, const char *path, pm_error *err)
{
	mem_entry  *e = find(io->state, path);

	if (e == NULL)
	{
		pm_fail(err, PM_ERR_NOT_FOUND, "could not remove file: no such file or directory");
		pm_error_set_path(err, path);
		return PM_ERR_NOT_FOUND;
	}
	e->dead = true;
	return PM_OK;
}

static pm_code
mem_create(pm_fileio *io, const char *path, pm_out_file **out, pm_error *err)
{
	mem_state  *st = io->state;
	pm_out_file *f;

	*out = NULL;
	if (mem_exists(io, path))
	{
		pm_fail(err, PM_ERR_CONFLICT, "file already exists");
		pm_error_set_path(err, path);
		return PM_ERR_CONFLICT;
	}
	f = pm_alloc(st->env, sizeof(pm_out_file));
	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating a file");
	f->entry = add_entry(st, path, NULL, 0, false);
	if (f->entry == NULL)
	{
		pm_free(st->env, f);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating a file");
	}
	st->open_files++;
	*out = f;
	return PM_OK;
}

static pm_code
count_write(mem_state *st, pm_out_file *f, pm_error *err)
{
	st->writes++;
	if (st->fail_write_at > 0 && st->writes == st->fail_write_at)
	{
		pm_code		code = st->fail_write_code;

		st->fail_write_at = 0;
		if (code == PM_ERR_IO)
			pm_fail_errno(err, EIO, "injected write failure");
		else
			pm_fail(err, code, "injected write failure");
		pm_error_set_path(err, f->entry->path);
		return code;
	}
	return PM_OK;
}

static pm_code
mem_append(pm_fileio *io, pm_out_file *f, const void *data, size_t len, pm_error *err)
{
	mem_state  *st = io->state;
	mem_entry  *e = f->entry;

	PM_TRY(count_write(st, f, err));
	if (len > e->cap - e->len)
	{
		size_t		ncap = e->cap * 2 > e->len + len ? e->cap * 2 : e->len + len;
		uint8_t    *nd = pm_alloc(st->env, ncap);

		if (nd == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory writing a file");
		if (e->len > 0)
			memcpy(nd, e->data, e->len);
		pm_free(st->env, e->data);
		e->data = nd;
		e->cap = ncap;
	}
	if (len > 0)
		memcpy(e->data + e->len, data, len);
	e->len += len;
	return PM_OK;
}

static pm_code
mem_finish(pm_fileio *io, pm_out_file *f, pm_error *err)
{
	mem_state  *st = io->state;

	PM_TRY(count_write(st, f, err));
	st->open_files--;
	pm_free(st->env, f);
	return PM_OK;
}

static void
mem_discard(pm_fileio *io, pm_out_file *f)
{
	mem_state  *st = io->state;

	f->entry->dead = true;
	st->open_files--;
	pm_free(st->env, f);
}

static pm_code
mem_mkdirs(pm_fileio *io, const char *path, pm_error *err)
{
	mem_state  *st = io->state;
	mem_entry  *e = find(st, path);

	if (e != NULL)
	{
		if (e->is_dir)
			return PM_OK;
		pm_fail(err, PM_ERR_IO, "could not create directory: a file is in the way");
		pm_error_set_path(err, path);
		return PM_ERR_IO;
	}
	if (add_entry(st, path, NULL, 0, true) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory creating a directory");
	return PM_OK;
}

pm_fileio *
pm_memory_fileio_create(const pm_env *env)
{
	pm_fileio  *io = pm_alloc(env, sizeof(pm_fileio) + sizeof(mem_state));
	mem_state  *st;

	if (io == NULL)
		return NULL;
	memset(io, 0, sizeof(pm_fileio) + sizeof(mem_state));
	st = (mem_state *) (io + 1);
	st->env = env;
	io->open = mem_open;
	io->size = mem_size;
	io->pread = mem_pread;
	io->read_ranges = mem_read_ranges;
	io->close = mem_close;
	io->list = mem_list;
	io->exists = mem_exists;
	io->is_dir = mem_is_dir;
	io->write_new = mem_write_new;
	io->remove = mem_remove;
	io->mkdirs = mem_mkdirs;
	io->create = mem_create;
	io->append = mem_append;
	io->finish = mem_finish;
	io->discard = mem_discard;
	io->state = st;
	return io;
}

void
pm_memory_fileio_destroy(pm_fileio *io)
{
	mem_state  *st;
	mem_entry  *e;

	if (io == NULL)
		return;
	st = io->state;
	e = st->entries;
	while (e != NULL)
	{
		mem_entry  *next = e->next;

		pm_free(st->env, e->data);
		pm_free(st->env, e);
		e = next;
	}
	pm_free(st->env, st->fail_open_path);
	pm_free(st->env, io);
}

pm_code
pm_memory_fileio_add(pm_fileio *io, const char *path, const void *data, size_t len,
					 pm_error *err)
{
	mem_state  *st = io->state;
	mem_entry  *e = find(st, path);

	if (e != NULL)
		e->dead = true;
	if (add_entry(st, path, data, len, false) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory adding a file");
	return PM_OK;
}

void
pm_memory_fileio_fail_read(pm_fileio *io, int nth, pm_code code)
{
	mem_state  *st = io->state;

	st->fail_at = nth > 0 ? st->reads + nth : 0;
	st->fail_code = code;
}

void
pm_memory_fileio_fail_write(pm_fileio *io, int nth, pm_code code)
{
	mem_state  *st = io->state;

	st->fail_write_at = nth > 0 ? st->writes + nth : 0;
	st->fail_write_code = code;
}

void
pm_memory_fileio_fail_open(pm_fileio *io, const char *path, pm_code code)
{
	mem_state  *st = io->state;
	size_t		pl;

	pm_free(st->env, st->fail_open_path);
	st->fail_open_path = NULL;
	if (code == PM_OK || path == NULL)
		return;
	pl = strlen(path);
	st->fail_open_path = pm_alloc(st->env, pl + 1);
	if (st->fail_open_path == NULL)
		return;
	memcpy(st->fail_open_path, path, pl + 1);
	st->fail_open_code = code;
}

int
pm_memory_fileio_read_count(pm_fileio *io)
{
	return ((mem_state *) io->state)->reads;
}

int
pm_memory_fileio_open_files(pm_fileio *io)
{
	return ((mem_state *) io->state)->open_files;
}
