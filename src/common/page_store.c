/*-------------------------------------------------------------------------
 * page_store.c
 *	  The store of decompressed pages shared by a server's processes: one
 *	  file per page in a private directory, mapped read-only (see
 *	  page_store.h).
 *
 * A file: a header (magic, its own length, the page's key and the sizes of
 * its parts), the data file path, the header block, the payload and 8 zero
 * bytes, each part 16-byte aligned. It is written whole with one pwritev
 * to a temporary name and renamed to "<hash of path and size>-<offset>-
 * <variant>" (hex): a name is either absent or a complete file. Writing
 * with pwritev rather than through a mapping means a full file system is
 * an error (ENOSPC), never a SIGBUS.
 *
 * Eviction by generations: files are written into the directory "g<gen>"
 * (hex) of the current generation, while its bytes stay within half the
 * budget. The "state" file holds one word, shared by every process (mapped,
 * changed by compare-and-swap): the current generation (high 24 bits) and
 * the bytes reserved in it (low 40). A save that would pass the half starts
 * the next generation (counting only its own file) and removes every
 * generation directory but the new one and the one before it, file by
 * file. A load looks in the current generation, then in the previous one;
 * a page found there is linked into the current one (when it has room
 * without starting another), so pages still read survive the next
 * rotation: an LRU by generation, whole files removed. Mappings outlive an
 * unlink, so a process keeps reading a removed page it holds. Nothing
 * needs a lock or a clean shutdown: a crash leaves at most temporary files
 * or a half-removed directory, both removed with their generation at a
 * later rotation (or when a process configures the store).
 *-------------------------------------------------------------------------
 */
#include "common/page_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define STORE_MAGIC 0x3152545347504d50ULL	/* "PMPGSTR1" */
#define AL16(x) (((x) + 15) & ~(size_t) 15)
#define USED_BITS 40
#define USED_MASK ((UINT64_C(1) << USED_BITS) - 1)
#define GEN_MASK UINT64_C(0xffffff)
#define GEN_OF(w) ((w) >> USED_BITS)

typedef struct store_header
{
	uint64_t	magic;
	uint64_t	total;			/* bytes of the file */
	int64_t		file_size;
	int64_t		offset;
	uint64_t	variant;
	uint64_t	span;
	uint64_t	path_len;
	uint64_t	meta_len;
	uint64_t	data_len;
} store_header;

typedef struct store_layout
{
	size_t		path_at;
	size_t		meta_at;
	size_t		data_at;
	size_t		total;
} store_layout;

static char *store_dir;			/* NULL: off */
static size_t store_budget;
static uint64_t *store_state;	/* shared: generation << 40 | bytes reserved in it */
static uint64_t tmp_counter;
static int	live_maps;			/* pages this process has mapped */

static void
layout_of(size_t path_len, size_t meta_len, size_t data_len, store_layout *l)
{
	l->path_at = AL16(sizeof(store_header));
	l->meta_at = l->path_at + AL16(path_len);
	l->data_at = l->meta_at + AL16(meta_len);
	l->total = l->data_at + data_len + 8;
}

static void
store_off(void)
{
	if (store_state != NULL)
		munmap(store_state, sizeof(uint64_t));
	store_state = NULL;
	free(store_dir);
	store_dir = NULL;
}

/* Remove directory dir/name and the files in it (what can be removed). */
static void
remove_generation(const char *name)
{
	char		path[4096];
	DIR		   *d;
	struct dirent *de;
	int			n = snprintf(path, sizeof(path), "%s/%s", store_dir, name);

	if (n <= 0 || (size_t) n >= sizeof(path) || (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(path);
}

/* Remove every generation directory but gen's and the one before it. */
static void
remove_old_generations(uint64_t gen)
{
	DIR		   *d = opendir(store_dir);
	struct dirent *de;
	char		names[64][24];
	int			n = 0;

	if (d == NULL)
		return;
	/* collect first: removing while reading the directory may skip entries */
	while ((de = readdir(d)) != NULL && n < 64)
	{
		char	   *end;
		uint64_t	g;

		if (de->d_name[0] != 'g' || de->d_name[1] == '\0' || strlen(de->d_name) >= 24)
			continue;
		errno = 0;
		g = strtoull(de->d_name + 1, &end, 16);
		if (errno != 0 || *end != '\0' || g == gen || g == ((gen - 1) & GEN_MASK))
			continue;
		strcpy(names[n++], de->d_name);
	}
	closedir(d);
	for (int i = 0; i < n; i++)
		remove_generation(names[i]);
}

/*
 * Reserve total bytes in the current generation; when it has no room and
 * may_rotate, start the next one (and remove the older ones). The
 * generation reserved in, or -1.
 */
static int64_t
reserve(size_t total, bool may_rotate)
{
	uint64_t	half = store_budget / 2;
	uint64_t	w = __atomic_load_n(store_state, __ATOMIC_RELAXED);

	if (total > half || total > USED_MASK)
		return -1;
	for (;;)
	{
		uint64_t	gen = GEN_OF(w);
		uint64_t	used = w & USED_MASK;
		uint64_t	nw;
		bool		rotate = used + total > half;

		if (rotate && !may_rotate)
			return -1;
		if (rotate)
			gen = (gen + 1) & GEN_MASK;
		nw = (gen << USED_BITS) | ((rotate ? 0 : used) + total);
		if (__atomic_compare_exchange_n(store_state, &w, nw, false, __ATOMIC_ACQ_REL,
										__ATOMIC_RELAXED))
		{
			if (rotate)
				remove_old_generations(gen);
			return (int64_t) gen;
		}
	}
}

/* Give back what reserve took, unless its generation has passed. */
static void
unreserve(int64_t gen, size_t total)
{
	uint64_t	w = __atomic_load_n(store_state, __ATOMIC_RELAXED);

	while (GEN_OF(w) == (uint64_t) gen && (w & USED_MASK) >= total)
		if (__atomic_compare_exchange_n(store_state, &w, w - total, false, __ATOMIC_ACQ_REL,
										__ATOMIC_RELAXED))
			return;
}

bool
pm_page_store_configure(const char *dir, size_t budget)
{
	struct stat st;
	char	   *path;
	size_t		n;
	int			fd;
	void	   *m;

	store_off();
	store_budget = budget;
	if (dir == NULL || dir[0] != '/' || budget == 0)
		return false;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return false;
	/* the caller's own directory, private to it, not a link */
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		(st.st_mode & 077) != 0)
		return false;
	n = strlen(dir) + sizeof("/state");
	if ((path = malloc(n)) == NULL)
		return false;
	snprintf(path, n, "%s/state", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(path);
	if (fd < 0)
		return false;
	/* allocated, not sparse: a full file system fails here, not in a store */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
		(st.st_size < (off_t) sizeof(uint64_t) &&
		 posix_fallocate(fd, 0, sizeof(uint64_t)) != 0))
	{
		close(fd);
		return false;
	}
	m = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return false;
	if ((store_dir = strdup(dir)) == NULL)
	{
		munmap(m, sizeof(uint64_t));
		return false;
	}
	store_state = m;
	remove_old_generations(GEN_OF(__atomic_load_n(store_state, __ATOMIC_RELAXED)));
	return true;
}

bool
pm_page_store_enabled(void)
{
	return store_dir != NULL;
}

/* dir/g<gen>/name of key into buf (cap bytes); false if it does not fit. */
static bool
name_of(const pm_page_store_key *key, uint64_t gen, char *buf, size_t cap)
{
	int			n = snprintf(buf, cap, "%s/g%" PRIx64 "/%016" PRIx64 "-%" PRIx64 "-%" PRIx64,
							 store_dir, gen, key->file_hash, (uint64_t) key->offset,
							 key->variant);

	return n > 0 && (size_t) n < cap;
}

/* Fill out from the mapping (base, len) of a file whose header is h. */
static void
map_parts(void *base, size_t len, const store_header *h, const store_layout *l,
		  pm_page_store_map *out)
{
	out->base = base;
	out->len = len;
	out->span = (size_t) h->span;
	out->meta = (const uint8_t *) base + l->meta_at;
	out->meta_len = (size_t) h->meta_len;
	out->data = (const uint8_t *) base + l->data_at;
	out->data_len = (size_t) h->data_len;
}

/* Map the file name if it is key's page (its header says so). */
static bool
map_file(const pm_page_store_key *key, const char *name, pm_page_store_map *out)
{
	struct stat st;
	const store_header *h;
	store_layout l;
	void	   *m;
	int			fd;

	if ((fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
		st.st_size < (off_t) AL16(sizeof(store_header)))
	{
		close(fd);
		return false;
	}
	m = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return false;
	h = m;
	/* the whole key and the sizes, checked: the name is only a hash */
	if (h->magic != STORE_MAGIC || h->total != (uint64_t) st.st_size ||
		h->file_size != key->file_size || h->offset != key->offset ||
		h->variant != key->variant || h->path_len != key->path_len ||
		h->meta_len > h->total || h->data_len > h->total)
		goto bad;
	layout_of(key->path_len, (size_t) h->meta_len, (size_t) h->data_len, &l);
	if (l.total != (size_t) st.st_size ||
		memcmp((const uint8_t *) m + l.path_at, key->path, key->path_len) != 0)
		goto bad;
	map_parts(m, (size_t) st.st_size, h, &l, out);
	live_maps++;
	return true;
bad:
	munmap(m, (size_t) st.st_size);
	return false;
}

/* Create generation gen's directory (it may exist). */
static void
make_generation(uint64_t gen)
{
	char		path[4096];
	int			n = snprintf(path, sizeof(path), "%s/g%" PRIx64, store_dir, gen);

	if (n > 0 && (size_t) n < sizeof(path))
		mkdir(path, 0700);
}

bool
pm_page_store_load(const pm_page_store_key *key, pm_page_store_map *out)
{
	char		name[4096];
	char		prev[4096];
	uint64_t	gen;
	int64_t		g;

	if (store_dir == NULL || live_maps >= PM_PAGE_STORE_MAX_MAPS)
		return false;
	gen = GEN_OF(__atomic_load_n(store_state, __ATOMIC_RELAXED));
	if (!name_of(key, gen, name, sizeof(name)) ||
		!name_of(key, (gen - 1) & GEN_MASK, prev, sizeof(prev)))
		return false;
	if (map_file(key, name, out))
		return true;
	if (!map_file(key, prev, out))
		return false;
	/* still read: into the current generation, if it has room */
	if ((g = reserve(out->len, false)) >= 0)
	{
		bool		ok = name_of(key, (uint64_t) g, name, sizeof(name));

		if (ok && link(prev, name) != 0)
		{
			make_generation((uint64_t) g);
			ok = link(prev, name) == 0;
		}
		if (!ok)
			unreserve(g, out->len);
	}
	return true;
}

bool
pm_page_store_save(const pm_page_store_key *key, size_t span, const void *meta,
				   size_t meta_len, const uint8_t *a, size_t alen, const uint8_t *b,
				   size_t blen, pm_page_store_map *out)
{
	static const uint8_t zeros[16];
	char		name[4096];
	char		tmp[4096];
	store_header h;
	store_layout l;
	struct iovec iov[8];
	int			niov = 0;
	size_t		data_len = alen + blen;
	void	   *m;
	int			fd;
	ssize_t		w;
	int64_t		gen;

	if (store_dir == NULL || data_len < PM_PAGE_STORE_MIN_BYTES || data_len < alen ||
		live_maps >= PM_PAGE_STORE_MAX_MAPS)
		return false;
	layout_of(key->path_len, meta_len, data_len, &l);
	/* the budget, shared by every process: reserve first, give back on failure */
	if ((gen = reserve(l.total, true)) < 0)
		return false;
	if (!name_of(key, (uint64_t) gen, name, sizeof(name)) ||
		snprintf(tmp, sizeof(tmp), "%s/g%" PRIx64 "/tmp-%ld-%" PRIu64, store_dir,
				 (uint64_t) gen, (long) getpid(), tmp_counter++) >= (int) sizeof(tmp))
		goto unreserve;
	memset(&h, 0, sizeof(h));
	h.magic = STORE_MAGIC;
	h.total = l.total;
	h.file_size = key->file_size;
	h.offset = key->offset;
	h.variant = key->variant;
	h.span = span;
	h.path_len = key->path_len;
	h.meta_len = meta_len;
	h.data_len = data_len;
	iov[niov++] = (struct iovec) {&h, sizeof(h)};
	iov[niov++] = (struct iovec) {(void *) zeros, l.path_at - sizeof(h)};
	iov[niov++] = (struct iovec) {(void *) key->path, key->path_len};
	iov[niov++] = (struct iovec) {(void *) zeros, l.meta_at - l.path_at - key->path_len};
	iov[niov++] = (struct iovec) {(void *) meta, meta_len};
	iov[niov++] = (struct iovec) {(void *) zeros, l.data_at - l.meta_at - meta_len};
	iov[niov++] = (struct iovec) {(void *) a, alen};
	iov[niov++] = (struct iovec) {(void *) b, blen};
	if ((fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
	{
		/* its first file (not a generation passed and removed meanwhile) */
		if (GEN_OF(__atomic_load_n(store_state, __ATOMIC_RELAXED)) != (uint64_t) gen)
			goto unreserve;
		make_generation((uint64_t) gen);
		if ((fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
			goto unreserve;
	}
	/* the 8 zero bytes past the payload: the file's length, never written */
	if (posix_fallocate(fd, 0, (off_t) l.total) != 0 ||
		(w = pwritev(fd, iov, niov, 0)) != (ssize_t) (l.total - 8))
	{
		close(fd);
		unlink(tmp);
		goto unreserve;
	}
	m = mmap(NULL, l.total, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED || rename(tmp, name) != 0)
	{
		unlink(tmp);
		if (m != MAP_FAILED)
			munmap(m, l.total);
		goto unreserve;
	}
	map_parts(m, l.total, &h, &l, out);
	live_maps++;
	return true;
unreserve:
	unreserve(gen, l.total);
	return false;
}

void
pm_page_store_unmap(pm_page_store_map *m)
{
	if (m->base != NULL)
	{
		munmap(m->base, m->len);
		live_maps--;
	}
	m->base = NULL;
}
