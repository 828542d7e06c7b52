/*-------------------------------------------------------------------------
 * test_page_store.c
 *	  The shared page store (common/page_store.h): a page saved by one
 *	  process is loaded, byte for byte, by another (a forked child through
 *	  the page cache, common/page_lru.h); another offset, variant, file size
 *	  or path (a file under another key's name) is not found; truncated or
 *	  damaged files are not found; small pages are not stored; the budget is
 *	  shared through the directory and survives reconfiguring; generations
 *	  evict whole files and keep the pages still read, also with processes
 *	  saving and loading at once; a relative,
 *	  foreign or group-readable directory and budget 0 leave it off.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/page_lru.h"
#include "common/page_store.h"

#define PAGE (PM_PAGE_STORE_MIN_BYTES + 1000)

static char dir[512];

static void
fill(uint8_t *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t) (i * 31 + (size_t) seed * 7 + (i >> 8));
}

static void
key_of(pm_page_store_key *k, const char *path, int64_t size, int64_t offset, uint64_t variant)
{
	pm_page_file f;

	pm_page_file_init(&f, path, size);
	k->path = path;
	k->path_len = strlen(path);
	k->file_size = size;
	k->file_hash = f.hash;
	k->offset = offset;
	k->variant = variant;
}

static void
make_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/pm_page_store_XXXXXX", t != NULL && t[0] ? t : P_tmpdir);
	assert_non_null(mkdtemp(dir));
}

/* Remove path, a file or a directory of files and directories. */
static void
remove_tree(const char *path)
{
	DIR		   *d = opendir(path);
	struct dirent *de;
	char		p[1024];

	if (d == NULL)
	{
		assert_int_equal(unlink(path), 0);
		return;
	}
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
		{
			snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
			remove_tree(p);
		}
	closedir(d);
	assert_int_equal(rmdir(path), 0);
}

static void
remove_dir(void)
{
	remove_tree(dir);
}

/* The name a key's file has in generation gen (page_store.c's naming). */
static void
gen_file_name(const pm_page_store_key *k, int gen, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s/g%x/%016" PRIx64 "-%" PRIx64 "-%" PRIx64, dir, gen, k->file_hash,
			 (uint64_t) k->offset, k->variant);
}

static void
file_name(const pm_page_store_key *k, char *buf, size_t cap)
{
	gen_file_name(k, 0, buf, cap);
}

static bool
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Files (not directories) under dir, recursively. */
static int
count_files(const char *path)
{
	DIR		   *d = opendir(path);
	struct dirent *de;
	char		p[1024];
	int			n = 0;

	if (d == NULL)
		return 1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
		{
			snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
			n += count_files(p);
		}
	closedir(d);
	return n;
}

static void
copy_file(const char *from, const char *to, size_t truncate_to, long flip_at)
{
	FILE	   *in = fopen(from, "rb");
	FILE	   *out;
	uint8_t    *buf = malloc(1 << 20);
	size_t		n;

	assert_non_null(in);
	n = fread(buf, 1, 1 << 20, in);
	fclose(in);
	assert_true(n > (size_t) PAGE);
	if (truncate_to > 0 && truncate_to < n)
		n = truncate_to;
	if (flip_at >= 0)
		buf[flip_at] ^= 0x55;
	out = fopen(to, "wb");
	assert_non_null(out);
	assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(out);
	free(buf);
}

static void
test_save_and_load(void **state)
{
	uint8_t    *a = malloc(PAGE);
	uint8_t    *b = malloc(100);
	const char *meta = "header block";
	pm_page_store_key k;
	pm_page_store_key o;
	pm_page_store_map m;
	char		name[1024];
	char		other[1024];

	(void) state;
	fill(a, PAGE, 1);
	fill(b, 100, 2);
	make_dir();
	/* off */
	assert_false(pm_page_store_configure("relative/dir", 1 << 30));
	assert_false(pm_page_store_configure(dir, 0));
	assert_false(pm_page_store_enabled());
	chmod(dir, 0750);
	assert_false(pm_page_store_configure(dir, 1 << 30));
	chmod(dir, 0700);
	assert_true(pm_page_store_configure(dir, 1 << 30));
	assert_true(pm_page_store_enabled());

	key_of(&k, "/w/db.db/t/bucket-0/data-1.parquet", 123456, 4096, 0);
	assert_false(pm_page_store_load(&k, &m));
	/* too small to share */
	assert_false(pm_page_store_save(&k, 77, meta, strlen(meta) + 1, a, 1000, NULL, 0, &m));
	assert_true(pm_page_store_save(&k, 777, meta, strlen(meta) + 1, a, PAGE, b, 100, &m));
	assert_int_equal(m.data_len, PAGE + 100);
	assert_memory_equal(m.data, a, PAGE);
	pm_page_store_unmap(&m);
	/* as another process: configured anew */
	assert_true(pm_page_store_configure(dir, 1 << 30));
	assert_true(pm_page_store_load(&k, &m));
	assert_int_equal(m.span, 777);
	assert_int_equal(m.meta_len, strlen(meta) + 1);
	assert_string_equal((const char *) m.meta, meta);
	assert_int_equal(m.data_len, PAGE + 100);
	assert_memory_equal(m.data, a, PAGE);
	assert_memory_equal(m.data + PAGE, b, 100);
	assert_int_equal(((uintptr_t) m.meta | (uintptr_t) m.data) & 15, 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(m.data[PAGE + 100 + i], 0);
	pm_page_store_unmap(&m);

	/* other keys */
	key_of(&o, k.path, k.file_size, 8192, 0);
	assert_false(pm_page_store_load(&o, &m));
	key_of(&o, k.path, k.file_size, k.offset, 1);
	assert_false(pm_page_store_load(&o, &m));
	key_of(&o, k.path, k.file_size + 1, k.offset, 0);
	assert_false(pm_page_store_load(&o, &m));
	/* k's file under another path's name: the header's path tells them apart */
	key_of(&o, "/w/db.db/t/bucket-0/data-2.parquet", k.file_size, k.offset, 0);
	file_name(&k, name, sizeof(name));
	file_name(&o, other, sizeof(other));
	copy_file(name, other, 0, -1);
	assert_false(pm_page_store_load(&o, &m));
	/* truncated, damaged header: not found */
	copy_file(name, other, 100, -1);
	assert_false(pm_page_store_load(&o, &m));
	copy_file(name, name, 0, -1);
	assert_true(pm_page_store_load(&k, &m));
	pm_page_store_unmap(&m);
	copy_file(name, name, 0, 3);
	assert_false(pm_page_store_load(&k, &m));
	pm_page_store_configure(NULL, 0);
	remove_dir();
	free(a);
	free(b);
}

static void
test_budget(void **state)
{
	uint8_t    *a = malloc(PAGE);
	pm_page_store_key k;
	pm_page_store_map m;

	(void) state;
	fill(a, PAGE, 3);
	make_dir();
	/* a page larger than half the budget is never stored */
	assert_true(pm_page_store_configure(dir, PAGE + 4096));
	key_of(&k, "/w/f.parquet", 1000000, 4, 0);
	assert_false(pm_page_store_save(&k, PAGE, "", 0, a, PAGE, NULL, 0, &m));
	/* room for one page (and its header) per generation */
	assert_true(pm_page_store_configure(dir, 2 * (PAGE + 4096)));
	assert_true(pm_page_store_save(&k, PAGE, "", 0, a, PAGE, NULL, 0, &m));
	pm_page_store_unmap(&m);
	/* the usage is the directory's: another process's save starts generation 1 */
	assert_true(pm_page_store_configure(dir, 2 * (PAGE + 4096)));
	key_of(&k, "/w/f.parquet", 1000000, 8, 0);
	assert_true(pm_page_store_save(&k, PAGE, "", 0, a, PAGE, NULL, 0, &m));
	pm_page_store_unmap(&m);
	{
		char		name[1024];

		gen_file_name(&k, 1, name, sizeof(name));
		assert_true(exists(name));
		gen_file_name(&k, 0, name, sizeof(name));
		assert_false(exists(name));
	}
	pm_page_store_configure(NULL, 0);
	remove_dir();
	free(a);
}

/*
 * Generations: a full generation starts the next, the one before the
 * previous is removed (the directory never holds more than the budget);
 * a page read from the previous generation is linked into the current one
 * and survives; a mapping outlives the removal of its file; a generation
 * left over (a crash) is removed when a process configures the store.
 */
static void
test_generations(void **state)
{
	uint8_t    *a = malloc(PAGE);
	pm_page_store_key k[8];
	pm_page_store_map m;
	pm_page_store_map held;
	char		name[1024];
	char		stale[1024];
	size_t		budget = 4 * (PAGE + 4096);	/* two pages per generation */

	(void) state;
	fill(a, PAGE, 5);
	make_dir();
	assert_true(pm_page_store_configure(dir, budget));
	for (int i = 0; i < 8; i++)
		key_of(&k[i], "/w/db.db/t/bucket-0/data-7.parquet", 5000000, 4096 * (i + 1), 0);
	/* generation 0: pages 0, 1; page 0 stays mapped */
	assert_true(pm_page_store_save(&k[0], PAGE, "", 0, a, PAGE, NULL, 0, &held));
	assert_true(pm_page_store_save(&k[1], PAGE, "", 0, a, PAGE, NULL, 0, &m));
	pm_page_store_unmap(&m);
	/* generation 1: pages 2, 3 (0 and 1 still found in the previous one) */
	assert_true(pm_page_store_save(&k[2], PAGE, "", 0, a, PAGE, NULL, 0, &m));
	pm_page_store_unmap(&m);
	gen_file_name(&k[2], 1, name, sizeof(name));
	assert_true(exists(name));
	/* page 1 read again: linked into generation 1, which has room for it */
	assert_true(pm_page_store_load(&k[1], &m));
	assert_memory_equal(m.data, a, PAGE);
	pm_page_store_unmap(&m);
	gen_file_name(&k[1], 1, name, sizeof(name));
	assert_true(exists(name));
	/* generation 1 is full (pages 2 and 1): page 3 starts generation 2, removing 0 */
	assert_true(pm_page_store_save(&k[3], PAGE, "", 0, a, PAGE, NULL, 0, &m));
	pm_page_store_unmap(&m);
	snprintf(name, sizeof(name), "%s/g0", dir);
	assert_false(exists(name));
	assert_false(pm_page_store_load(&k[0], &m));
	/* page 0's mapping outlives its file */
	assert_memory_equal(held.data, a, PAGE);
	pm_page_store_unmap(&held);
	/* 1 and 2 found in generation 1 (1 kept by its read), 3 in 2 */
	assert_true(pm_page_store_load(&k[1], &m));
	pm_page_store_unmap(&m);
	assert_true(pm_page_store_load(&k[3], &m));
	pm_page_store_unmap(&m);
	/* more pages: never more files than the budget holds (4 pages) */
	for (int i = 4; i < 8; i++)
	{
		assert_true(pm_page_store_save(&k[i], PAGE, "", 0, a, PAGE, NULL, 0, &m));
		pm_page_store_unmap(&m);
		assert_true(count_files(dir) <= 1 + 4);
	}
	assert_false(pm_page_store_load(&k[2], &m));
	assert_true(pm_page_store_load(&k[7], &m));
	pm_page_store_unmap(&m);
	/* a generation left behind (a crash mid-removal): removed on configure */
	snprintf(stale, sizeof(stale), "%s/g1", dir);
	assert_int_equal(mkdir(stale, 0700), 0);
	snprintf(name, sizeof(name), "%s/g1/tmp-1-1", dir);
	{
		FILE	   *f = fopen(name, "w");

		assert_non_null(f);
		fclose(f);
	}
	assert_true(pm_page_store_configure(dir, budget));
	assert_false(exists(stale));
	assert_true(pm_page_store_load(&k[7], &m));
	pm_page_store_unmap(&m);
	pm_page_store_configure(NULL, 0);
	remove_dir();
	free(a);
}

/*
 * Processes saving and loading at once through rotations: every page
 * found has its own bytes, the directory never ends with more than the
 * budget holds, and no temporary file is left.
 */
static void
test_generations_concurrent(void **state)
{
	enum
	{
		NPROC = 4, NPAGES = 40
	};
	size_t		budget = 6 * (PAGE + 4096);	/* four page files per generation */
	pid_t		pids[NPROC];

	(void) state;
	make_dir();
	assert_true(pm_page_store_configure(dir, budget));
	for (int p = 0; p < NPROC; p++)
	{
		pids[p] = fork();
		assert_true(pids[p] >= 0);
		if (pids[p] == 0)
		{
			uint8_t    *a = malloc(PAGE);
			uint8_t    *want = malloc(PAGE);
			bool		ok = a != NULL && want != NULL &&
				pm_page_store_configure(dir, budget);

			for (int i = 0; ok && i < NPAGES; i++)
			{
				pm_page_store_key k;
				pm_page_store_map m;
				int			page = (i * 7 + p) % NPAGES;

				/* pages are shared between processes: the bytes depend on the page only */
				fill(a, PAGE, page);
				key_of(&k, "/w/db.db/t/bucket-0/data-c.parquet", 9000000, 4096 * (page + 1), 0);
				if (pm_page_store_load(&k, &m) ||
					pm_page_store_save(&k, PAGE, "", 0, a, PAGE, NULL, 0, &m))
				{
					fill(want, PAGE, page);
					ok = m.data_len == PAGE && memcmp(m.data, want, PAGE) == 0;
					pm_page_store_unmap(&m);
				}
			}
			_exit(ok ? 0 : 1);
		}
	}
	for (int p = 0; p < NPROC; p++)
	{
		int			status;

		assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	/*
	 * two generations of four page files at most (a file is PAGE and its
	 * header: 4 fit in half the budget, 5 do not), and the state file;
	 * configured anew first: a writer racing a removal may have left an
	 * older generation, which the next rotation or configure removes
	 */
	assert_true(pm_page_store_configure(dir, budget));
	assert_true(count_files(dir) <= 1 + 8);
	pm_page_store_configure(NULL, 0);
	remove_dir();
}

/* A page stored through a child's page cache is a hit in the parent's. */
static void
test_through_page_lru(void **state)
{
	uint8_t    *a = malloc(PAGE);
	const char *meta = "ph";
	const char *path = "/w/db.db/t/bucket-1/data-9.parquet";
	pm_page_file f;
	pm_page_entry *e;
	pid_t		pid;
	int			status;
	size_t		len;
	pm_page_lru_stats st;

	(void) state;
	fill(a, PAGE, 4);
	make_dir();
	pm_page_file_init(&f, path, 999999);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
	{
		bool		ok;

		pm_page_lru_set_budget(1 << 20);
		ok = pm_page_store_configure(dir, 1 << 30);
		pm_page_lru_store(&f, 4096, 0, PAGE + 10, meta, 3, a, 100, a + 100, PAGE - 100);
		e = pm_page_lru_pin(&f, 4096, 0);
		ok = ok && e != NULL && memcmp(pm_page_entry_data(e, &len), a, PAGE) == 0;
		pm_page_lru_unpin(e);
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pm_page_lru_set_budget(1 << 20);
	/* off: a miss */
	assert_null(pm_page_lru_pin(&f, 4096, 0));
	assert_true(pm_page_store_configure(dir, 1 << 30));
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.misses, 1);
	e = pm_page_lru_pin(&f, 4096, 0);
	assert_non_null(e);
	/* mapped from the store: a hit */
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.misses, 1);
	assert_int_equal(st.hits, 1);
	assert_int_equal(pm_page_entry_span(e), PAGE + 10);
	assert_string_equal((const char *) pm_page_entry_meta(e, &len), meta);
	assert_memory_equal(pm_page_entry_data(e, &len), a, PAGE);
	assert_int_equal(len, PAGE);
	/* held in the cache now: a hit without the store; evicted while pinned, still readable */
	pm_page_store_configure(NULL, 0);
	pm_page_lru_unpin(e);
	e = pm_page_lru_pin(&f, 4096, 0);
	assert_non_null(e);
	pm_page_lru_get_stats(&st);
	assert_int_equal(st.hits, 2);
	pm_page_lru_set_budget(0);
	assert_memory_equal(pm_page_entry_data(e, &len), a, PAGE);
	pm_page_lru_unpin(e);
	remove_dir();
	free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_and_load),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_generations_concurrent),
		cmocka_unit_test(test_through_page_lru),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
