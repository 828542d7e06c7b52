/*-------------------------------------------------------------------------
 * append_dv_write.c
 *	  Deletion vectors written by DELETE and UPDATE on append tables
 *	  (append_dv_write.h).
 *
 * Deletions are kept per (partition, bucket) group and per data file, in
 * the order the files were first touched (Java's maintainers put DVs into
 * HashMaps in that order, which decides the blob order of the file
 * pm_dv_maintainer writes), the positions of a file in a roaring bitmap
 * (freed by _reset and _free). Nothing here reads data files: the old DVs
 * are read from the index files the base snapshot names.
 *
 * XXX Java's writeWithRolling starts a new index file past
 * deletion-vector.index-file.target-size (2 MiB); here one file holds a
 * group's DVs whatever their size (readers take either).
 *-------------------------------------------------------------------------
 */
#include "table/append_dv_write.h"

#include <string.h>

#include <roaring/roaring.h>

#include "common/uuid.h"
#include "index/deletion_vector.h"
#include "index/deletion_vector_write.h"
#include "table/data_file_path.h"
#include "table/index_manifest.h"
#include "table/snapshot.h"

typedef struct dv_file
{
	char	   *name;
	int64_t		row_count;
	pm_deletion_file old;		/* valid if has_old */
	bool		has_old;
	roaring_bitmap_t *pos;		/* the new deletions (CRoaring's malloc) */
	struct dv_file *next;		/* in its group, first touched first */
} dv_file;

typedef struct dv_group
{
	uint8_t    *partition;
	int32_t		partition_len;
	int32_t		bucket;
	char	   *dir;			/* where its index files go (pm_index_dir_of_bucket) */
	dv_file    *files;
	dv_file    *last;
	struct dv_group *next;
} dv_group;

struct pm_append_dv
{
	const pm_env *env;
	pm_arena   *arena;			/* this struct */
	pm_arena   *data;			/* the deletions, reset by _reset */
	bool		unaware;
	bool		bitmap64;
	bool		index_in_data_dir;
	int64_t		base_snapshot;	/* 0: none yet */
	int64_t		count;
	dv_group   *groups;
	dv_group   *last_group;
	dv_file    *last_file;		/* cache: rows come file by file */
	dv_group   *last_file_group;
};

pm_code
pm_append_dv_create(const pm_env *env, bool unaware, bool bitmap64, bool index_in_data_dir,
					pm_append_dv **out, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_append_dv *a;

	*out = NULL;
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	a = pm_arena_zalloc(arena, sizeof(*a));
	if (a == NULL || (a->data = pm_arena_create(env)) == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	a->env = env;
	a->arena = arena;
	a->unaware = unaware;
	a->bitmap64 = bitmap64;
	a->index_in_data_dir = index_in_data_dir;
	*out = a;
	return PM_OK;
}

static void
free_bitmaps(pm_append_dv *a)
{
	for (dv_group *g = a->groups; g != NULL; g = g->next)
		for (dv_file *df = g->files; df != NULL; df = df->next)
		{
			if (df->pos != NULL)
				roaring_bitmap_free(df->pos);
			df->pos = NULL;
		}
}

void
pm_append_dv_free(pm_append_dv *a)
{
	if (a == NULL)
		return;
	free_bitmaps(a);
	pm_arena_destroy(a->data);
	pm_arena_destroy(a->arena);
}

void
pm_append_dv_reset(pm_append_dv *a)
{
	free_bitmaps(a);
	pm_arena_reset(a->data);
	a->base_snapshot = 0;
	a->count = 0;
	a->groups = a->last_group = NULL;
	a->last_file = NULL;
	a->last_file_group = NULL;
}

int64_t
pm_append_dv_count(const pm_append_dv *a)
{
	return a->count;
}

static bool
same_group(const dv_group *g, const pm_append_dv_file *f)
{
	return g->bucket == f->bucket && g->partition_len == f->partition_len &&
		memcmp(g->partition, f->partition, (size_t) f->partition_len) == 0;
}

static pm_code
find_file(pm_append_dv *a, const pm_append_dv_file *f, dv_file **out, pm_error *err)
{
	dv_group   *g;
	dv_file    *df;

	if (a->last_file != NULL && same_group(a->last_file_group, f) &&
		strcmp(a->last_file->name, f->file_name) == 0)
	{
		*out = a->last_file;
		return PM_OK;
	}
	for (g = a->groups; g != NULL; g = g->next)
		if (same_group(g, f))
			break;
	if (g == NULL)
	{
		g = pm_arena_zalloc(a->data, sizeof(*g));
		if (g == NULL || (g->partition = pm_arena_alloc(a->data, (size_t) f->partition_len + 1)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		memcpy(g->partition, f->partition, (size_t) f->partition_len);
		g->partition_len = f->partition_len;
		g->bucket = f->bucket;
		if (a->index_in_data_dir && f->bucket_dir == NULL)
			return pm_fail(err, PM_ERR_INVALID,
						   "data file \"%s\" was given without its bucket directory", f->file_name);
		if (f->bucket_dir != NULL && (g->dir = pm_arena_strdup(a->data, f->bucket_dir)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (a->last_group != NULL)
			a->last_group->next = g;
		else
			a->groups = g;
		a->last_group = g;
	}
	for (df = g->files; df != NULL; df = df->next)
		if (strcmp(df->name, f->file_name) == 0)
			break;
	if (df == NULL)
	{
		df = pm_arena_zalloc(a->data, sizeof(*df));
		if (df == NULL || (df->name = pm_arena_strdup(a->data, f->file_name)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		df->row_count = f->row_count;
		if ((df->pos = roaring_bitmap_create()) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (f->deletion_file != NULL)
		{
			df->has_old = true;
			df->old = *f->deletion_file;
			if ((df->old.path = pm_arena_strdup(a->data, f->deletion_file->path)) == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		}
		if (g->last != NULL)
			g->last->next = df;
		else
			g->files = df;
		g->last = df;
	}
	a->last_file = df;
	a->last_file_group = g;
	*out = df;
	return PM_OK;
}

pm_code
pm_append_dv_delete(pm_append_dv *a, const pm_append_dv_file *file, int64_t pos,
					int64_t base_snapshot, bool *again, pm_error *err)
{
	dv_file    *df;

	*again = false;
	if (pos < 0 || pos >= file->row_count)
		return pm_fail(err, PM_ERR_INVALID,
					   "row position %lld is outside data file \"%s\" of %lld rows",
					   (long long) pos, file->file_name, (long long) file->row_count);
	/* Bitmap64DeletionVector takes no more either (RoaringBitmap32 below) */
	if (pos > (int64_t) UINT32_MAX)
		return pm_fail(err, PM_ERR_INVALID,
					   "row position %lld of data file \"%s\" is too large for a deletion vector",
					   (long long) pos, file->file_name);
	PM_TRY(find_file(a, file, &df, err));
	*again = !roaring_bitmap_add_checked(df->pos, (uint32_t) pos);
	if (a->base_snapshot == 0)
		a->base_snapshot = base_snapshot;
	if (!*again)
		a->count++;
	return PM_OK;
}

/* ---- prepare ------------------------------------------------------------ */

typedef struct prep
{
	pm_append_dv *a;
	pm_fileio  *io;
	const char *table_path;
	const char *index_dir;		/* of the group being prepared */
	pm_arena   *arena;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		counter;
	pm_index_manifest_entry *base;	/* the base snapshot's index entries */
	int			nbase;
} prep;

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static pm_code
load_base(prep *p, pm_error *err)
{
	pm_snapshot *snap;
	char	   *path;

	p->base = NULL;
	p->nbase = 0;
	if (p->a->base_snapshot <= 0)
		return PM_OK;
	PM_TRY(pm_snapshot_load(p->io, p->table_path, p->a->base_snapshot, p->arena, &snap, err));
	if (snap->index_manifest == NULL)
		return PM_OK;
	path = pm_arena_sprintf(p->arena, "%s/manifest/%s", p->table_path, snap->index_manifest);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return pm_index_manifest_read(p->a->env, p->io, path, p->arena, &p->base, &p->nbase, err);
}

static const char *
index_file_path(prep *p, const pm_index_manifest_entry *e)
{
	if (e->external_path != NULL)
		return e->external_path;
	return pm_arena_sprintf(p->arena, "%s/%s", p->index_dir, e->file_name);
}

typedef struct add_ctx
{
	pm_dv_maintainer *m;
	const char *file;
	pm_error   *err;
	pm_code		rc;
} add_ctx;

static bool
add_pos(int64_t pos, void *ctx)
{
	add_ctx    *c = ctx;

	c->rc = pm_dv_maintainer_delete(c->m, c->file, pos, c->err);
	return c->rc == PM_OK;
}

static bool
add_pos32(uint32_t pos, void *ctx)
{
	return add_pos((int64_t) pos, ctx);
}

/* Read a DV (checked against its data file's row count when known). */
static pm_code
read_dv(prep *p, const char *path, int64_t offset, int64_t length, int64_t cardinality,
		int64_t row_count, pm_deletion_vector **dv, pm_error *err)
{
	pm_code		rc;

	PM_TRY(pm_deletion_vector_read(p->a->env, p->io, path, offset, length, dv, err));
	rc = pm_deletion_vector_check(*dv, row_count, cardinality, err);
	if (rc != PM_OK)
	{
		pm_deletion_vector_destroy(*dv);
		*dv = NULL;
	}
	return rc;
}

/* The DV restored as it is (BucketedDvMaintainer's restore). */
static pm_code
restore_range(prep *p, pm_dv_maintainer *m, const pm_index_manifest_entry *e,
			  const pm_dv_range *r, pm_error *err)
{
	const char *path = index_file_path(p, e);
	pm_deletion_vector *dv;
	pm_code		rc;

	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(read_dv(p, path, r->offset, r->length, r->cardinality, -1, &dv, err));
	rc = pm_dv_maintainer_restore(m, r->data_file, dv, err);
	pm_deletion_vector_destroy(dv);
	return rc;
}

/* Write m as a new index file: the ADD entry. */
static pm_code
write_file(prep *p, pm_dv_maintainer *m, pm_index_manifest_entry *add, pm_error *err)
{
	pm_dv_index_file f;

	PM_TRY(pm_dv_maintainer_write(m, p->io, p->index_dir, p->uuid, &p->counter, p->arena, &f,
								  err));
	return pm_index_entry_of_dv_file(&f, p->arena, add, err);
}

/* The new positions of df (and, with_old, its old DV) into m. */
static pm_code
add_file(prep *p, pm_dv_maintainer *m, const dv_file *df, bool with_old, pm_error *err)
{
	if (with_old && df->has_old)
	{
		pm_deletion_vector *dv;
		add_ctx		c = {m, df->name, err, PM_OK};

		PM_TRY(read_dv(p, df->old.path, df->old.offset, df->old.length, df->old.cardinality,
					   df->row_count, &dv, err));
		pm_deletion_vector_iterate(dv, add_pos, &c);
		pm_deletion_vector_destroy(dv);
		PM_TRY(c.rc);
	}
	{
		add_ctx		c = {m, df->name, err, PM_OK};

		roaring_iterate(df->pos, add_pos32, &c);
		PM_TRY(c.rc);
	}
	return PM_OK;
}

static bool
entry_in_group(const pm_index_manifest_entry *e, const dv_group *g, bool unaware)
{
	return e->kind == 0 && strcmp(e->index_type, "DELETION_VECTORS") == 0 &&
		e->partition_len == g->partition_len &&
		memcmp(e->partition, g->partition, (size_t) g->partition_len) == 0 &&
		(unaware || e->bucket == g->bucket);
}

static bool
touched(const dv_group *g, const char *data_file)
{
	for (const dv_file *df = g->files; df != NULL; df = df->next)
		if (strcmp(df->name, data_file) == 0)
			return true;
	return false;
}

/* Java's AppendDeleteFileMaintainer.persist for one partition. */
static pm_code
prepare_unaware(prep *p, const dv_group *g, pm_commit_change *c, pm_error *err)
{
	pm_index_manifest_entry *added;
	pm_index_manifest_entry *deleted;
	int			nadded = 0,
				ndeleted = 0;
	pm_dv_maintainer *m = NULL;
	pm_code		rc = PM_OK;

	added = pm_arena_zalloc(p->arena, sizeof(*added) * (size_t) (p->nbase + 2));
	deleted = pm_arena_zalloc(p->arena, sizeof(*deleted) * (size_t) (p->nbase + 1));
	if (added == NULL || deleted == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	/* writeUnchangedDeletionVector: each index file an old DV came from */
	for (int i = 0; i < p->nbase; i++)
	{
		const pm_index_manifest_entry *e = &p->base[i];
		bool		hit = false;
		int			kept = 0;

		if (!entry_in_group(e, g, true))
			continue;
		for (const dv_file *df = g->files; df != NULL && !hit; df = df->next)
			hit = df->has_old && strcmp(base_name(df->old.path), e->file_name) == 0;
		if (!hit)
			continue;
		for (int r = 0; r < e->nranges; r++)
			kept += !touched(g, e->ranges[r].data_file);
		if (kept > 0)
		{
			PM_TRY(pm_dv_maintainer_create(p->a->env, p->a->bitmap64, &m, err));
			for (int r = 0; rc == PM_OK && r < e->nranges; r++)
				if (!touched(g, e->ranges[r].data_file))
					rc = restore_range(p, m, e, &e->ranges[r], err);
			/* restored as is: write them although nothing "changed" */
			if (rc == PM_OK)
				rc = write_file(p, m, &added[nadded++], err);
			pm_dv_maintainer_free(m);
			PM_TRY(rc);
		}
		deleted[ndeleted] = *e;
		ndeleted++;
	}
	/* an old DV must come from an index file of the base snapshot */
	for (const dv_file *df = g->files; df != NULL; df = df->next)
	{
		bool		found = false;

		if (!df->has_old)
			continue;
		for (int d = 0; d < ndeleted && !found; d++)
			found = strcmp(deleted[d].file_name, base_name(df->old.path)) == 0;
		if (!found)
			return pm_fail(err, PM_ERR_CONFLICT,
						   "the deletion vector of data file \"%s\" is no longer in index file \"%s\"",
						   df->name, base_name(df->old.path));
	}

	/* the touched files' DVs, old merged with new */
	PM_TRY(pm_dv_maintainer_create(p->a->env, p->a->bitmap64, &m, err));
	for (const dv_file *df = g->files; rc == PM_OK && df != NULL; df = df->next)
		rc = add_file(p, m, df, true, err);
	if (rc == PM_OK)
		rc = write_file(p, m, &added[nadded++], err);
	pm_dv_maintainer_free(m);
	PM_TRY(rc);

	c->partition = g->partition;
	c->partition_len = g->partition_len;
	c->bucket = 0;				/* BucketMode.UNAWARE_BUCKET */
	c->total_buckets = -1;
	c->nindex_added = nadded;
	c->index_added = added;
	c->nindex_deleted = ndeleted;
	c->index_deleted = deleted;
	return PM_OK;
}

/* Java's BucketedAppendDeleteFileMaintainer.persist for one bucket. */
static pm_code
prepare_bucketed(prep *p, const dv_group *g, pm_commit_change *c, pm_error *err)
{
	pm_index_manifest_entry *added;
	pm_index_manifest_entry *deleted;
	int			ndeleted = 0;
	pm_dv_maintainer *m = NULL;
	pm_code		rc = PM_OK;

	added = pm_arena_zalloc(p->arena, sizeof(*added));
	deleted = pm_arena_zalloc(p->arena, sizeof(*deleted) * (size_t) (p->nbase + 1));
	if (added == NULL || deleted == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_dv_maintainer_create(p->a->env, p->a->bitmap64, &m, err));
	for (int i = 0; rc == PM_OK && i < p->nbase; i++)
	{
		const pm_index_manifest_entry *e = &p->base[i];

		if (!entry_in_group(e, g, false))
			continue;
		for (int r = 0; rc == PM_OK && r < e->nranges; r++)
			rc = restore_range(p, m, e, &e->ranges[r], err);
		deleted[ndeleted++] = *e;
	}
	/* an old DV the scan applied must be the one restored */
	for (const dv_file *df = g->files; rc == PM_OK && df != NULL; df = df->next)
	{
		bool		found = !df->has_old;

		for (int d = 0; d < ndeleted && !found; d++)
			found = strcmp(deleted[d].file_name, base_name(df->old.path)) == 0;
		if (!found)
			rc = pm_fail(err, PM_ERR_CONFLICT,
						 "the deletion vector of data file \"%s\" is no longer in index file \"%s\"",
						 df->name, base_name(df->old.path));
	}
	for (const dv_file *df = g->files; rc == PM_OK && df != NULL; df = df->next)
		rc = add_file(p, m, df, false, err);
	if (rc == PM_OK)
		rc = write_file(p, m, added, err);
	pm_dv_maintainer_free(m);
	PM_TRY(rc);
	c->partition = g->partition;
	c->partition_len = g->partition_len;
	c->bucket = g->bucket;
	c->total_buckets = -1;
	c->nindex_added = 1;
	c->index_added = added;
	c->nindex_deleted = ndeleted;
	c->index_deleted = deleted;
	return PM_OK;
}

pm_code
pm_append_dv_prepare(pm_append_dv *a, pm_fileio *io, const char *table_path, pm_arena *arena,
					 pm_commit_change **changes, int *nchanges, pm_error *err)
{
	prep		p;
	int			ngroups = 0;
	pm_commit_change *out;

	*changes = NULL;
	*nchanges = 0;
	if (a->count == 0)
		return PM_OK;
	memset(&p, 0, sizeof(p));
	p.a = a;
	p.io = io;
	p.table_path = table_path;
	p.arena = arena;
	PM_TRY(pm_uuid_random(p.uuid, err));
	PM_TRY(load_base(&p, err));
	for (dv_group *g = a->groups; g != NULL; g = g->next)
		ngroups++;
	out = pm_arena_zalloc(arena, sizeof(*out) * (size_t) (ngroups + 1));
	if (out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (dv_group *g = a->groups; g != NULL; g = g->next)
	{
		pm_commit_change *c = &out[*nchanges];

		p.index_dir = pm_index_dir_of_bucket(table_path, a->index_in_data_dir, g->dir, arena);
		if (p.index_dir == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(a->unaware ? prepare_unaware(&p, g, c, err) : prepare_bucketed(&p, g, c, err));
		(*nchanges)++;
		*changes = out;
	}
	*changes = out;
	return PM_OK;
}
