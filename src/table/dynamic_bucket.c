/*-------------------------------------------------------------------------
 * dynamic_bucket.c
 *	  Hash index state of a dynamic-bucket table writer (dynamic_bucket.h).
 *
 * The HASH entries of the latest snapshot's index manifest are read once,
 * when the first row is routed, with their local paths resolved; a
 * partition's files are then loaded into its bucket index on its first
 * row, and a bucket's file again into the set of its bucket writer.
 *-------------------------------------------------------------------------
 */
#include "table/dynamic_bucket.h"

#include <string.h>

#include "common/uuid.h"
#include "table/data_file_path.h"
#include "table/hash_index.h"
#include "table/table.h"
#include "table/table_int.h"

typedef struct hash_file
{
	pm_index_manifest_entry entry;
	char	   *path;
} hash_file;

struct pm_dynamic_buckets
{
	const pm_env *env;
	pm_fileio  *io;
	pm_arena   *arena;
	char	   *table_path;
	bool		index_in_data_dir;
	pm_bucket_assigner *assigner;
	bool		loaded;
	hash_file  *files;			/* HASH entries of the latest snapshot, in manifest order */
	int			nfiles;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		counter;		/* index-<uuid>-<counter> */
};

pm_code
pm_dynamic_buckets_open(const pm_env *env, pm_fileio *io, const char *table_path,
						const pm_write_options *options, pm_dynamic_buckets **out,
						pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_dynamic_buckets *db;
	pm_code		rc;

	*out = NULL;
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	db = pm_arena_zalloc(arena, sizeof(*db));
	if (db == NULL || (db->table_path = pm_arena_strdup(arena, table_path)) == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	db->env = env;
	db->io = io;
	db->arena = arena;
	db->index_in_data_dir = options->index_in_data_dir;
	if ((rc = pm_uuid_random(db->uuid, err)) != PM_OK ||
		(rc = pm_bucket_assigner_create(env, options->dynamic_target_rows,
										options->dynamic_max_buckets, &db->assigner,
										err)) != PM_OK)
	{
		pm_arena_destroy(arena);
		return rc;
	}
	*out = db;
	return PM_OK;
}

void
pm_dynamic_buckets_free(pm_dynamic_buckets *db)
{
	if (db == NULL)
		return;
	pm_bucket_assigner_free(db->assigner);
	pm_arena_destroy(db->arena);
}

/* The HASH entries of the latest snapshot's index manifest, with their paths. */
static pm_code
load_entries(pm_dynamic_buckets *db, pm_error *err)
{
	pm_table   *t;
	pm_index_manifest_entry *entries;
	int			n = 0;
	pm_code		rc = PM_OK;

	if (db->loaded)
		return PM_OK;
	PM_TRY(pm_table_open(db->env, db->io, db->table_path, NULL, &t, err));
	if (t->snapshot != NULL && t->snapshot->index_manifest != NULL)
	{
		char	   *path = pm_arena_sprintf(db->arena, "%s/manifest/%s", db->table_path,
											t->snapshot->index_manifest);

		rc = path == NULL ? pm_fail(err, PM_ERR_NOMEM, "out of memory")
			: pm_index_manifest_read(db->env, db->io, path, db->arena, &entries, &n, err);
		if (rc == PM_OK &&
			(db->files = pm_arena_zalloc(db->arena, sizeof(hash_file) * (size_t) (n + 1))) == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int i = 0; rc == PM_OK && i < n; i++)
		{
			pm_index_manifest_entry *e = &entries[i];
			hash_file  *f;

			if (e->kind != 0 || strcmp(e->index_type, PM_HASH_INDEX_TYPE) != 0)
				continue;
			f = &db->files[db->nfiles++];
			f->entry = *e;
			rc = pm_index_file_local_path(t, e->partition, e->partition_len, e->bucket,
										  e->file_name, e->external_path, db->arena, &f->path,
										  err);
		}
	}
	pm_table_close(t);
	if (rc == PM_OK)
		db->loaded = true;
	return rc;
}

static bool
same_partition(const pm_index_manifest_entry *e, const uint8_t *partition, int32_t len)
{
	return e->partition_len == len && memcmp(e->partition, partition, (size_t) len) == 0;
}

/* Read one HASH file into a scratch arena (freed by the caller). */
static pm_code
read_file(pm_dynamic_buckets *db, const hash_file *f, pm_arena *scratch, int32_t **hashes,
		  int64_t *n, pm_error *err)
{
	return pm_hash_index_read(db->io, f->path, f->entry.row_count, scratch, hashes, n, err);
}

pm_code
pm_dynamic_buckets_partition(pm_dynamic_buckets *db, const uint8_t *partition,
							 int32_t partition_len, pm_partition_index **out, pm_error *err)
{
	pm_partition_index *pi;
	pm_arena   *scratch;
	pm_code		rc = PM_OK;

	*out = pm_bucket_assigner_find(db->assigner, partition, partition_len);
	if (*out != NULL)
		return PM_OK;
	PM_TRY(load_entries(db, err));
	PM_TRY(pm_bucket_assigner_add(db->assigner, partition, partition_len, &pi, err));
	if ((scratch = pm_arena_create(db->env)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; rc == PM_OK && i < db->nfiles; i++)
	{
		int32_t    *hashes;
		int64_t		n;

		if (!same_partition(&db->files[i].entry, partition, partition_len))
			continue;
		rc = read_file(db, &db->files[i], scratch, &hashes, &n, err);
		if (rc == PM_OK)
			rc = pm_partition_index_load(pi, db->files[i].entry.bucket, hashes, n, err);
		pm_arena_reset(scratch);
	}
	pm_arena_destroy(scratch);
	if (rc == PM_OK)
		*out = pi;
	return rc;
}

pm_code
pm_dynamic_buckets_assign(pm_dynamic_buckets *db, pm_partition_index *pi, int32_t hash,
						  int32_t *bucket, pm_error *err)
{
	return pm_bucket_assigner_assign(db->assigner, pi, hash, bucket, err);
}

pm_code
pm_dynamic_buckets_restore(pm_dynamic_buckets *db, const uint8_t *partition,
						   int32_t partition_len, int32_t bucket, pm_bucket_hashes *out,
						   pm_error *err)
{
	pm_code		rc = PM_OK;

	memset(out, 0, sizeof(*out));
	pm_int_map_init(&out->set, db->env);
	PM_TRY(load_entries(db, err));
	for (int i = 0; i < db->nfiles; i++)
	{
		const hash_file *f = &db->files[i];
		pm_arena   *scratch;
		int32_t    *hashes;
		int64_t		n;

		if (f->entry.bucket != bucket || !same_partition(&f->entry, partition, partition_len))
			continue;
		if ((scratch = pm_arena_create(db->env)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		rc = read_file(db, f, scratch, &hashes, &n, err);
		if (rc == PM_OK && !pm_int_map_reserve(&out->set, (size_t) n))
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t k = 0; rc == PM_OK && k < n; k++)
			if (!pm_int_map_put(&out->set, hashes[k], 0, NULL))
				rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		pm_arena_destroy(scratch);
		if (rc != PM_OK)
			break;
		out->live = f->entry;
		out->has_live = true;
	}
	if (rc != PM_OK)
		pm_int_map_free(&out->set);
	return rc;
}

pm_code
pm_bucket_hashes_add(pm_bucket_hashes *h, int32_t hash, pm_error *err)
{
	bool		added;

	if (!pm_int_map_put(&h->set, hash, 0, &added))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	h->modified |= added;
	return PM_OK;
}

pm_code
pm_dynamic_buckets_prepare_commit(pm_dynamic_buckets *db, pm_bucket_hashes *h,
								  const char *bucket_dir, pm_arena *arena, pm_error *err)
{
	char	   *dir;
	char	   *name;
	int64_t		size;
	pm_index_manifest_entry *e;

	if (!h->modified || h->pending != NULL)
		return PM_OK;
	dir = pm_index_dir_of_bucket(db->table_path, db->index_in_data_dir, bucket_dir, arena);
	name = pm_arena_sprintf(arena, "index-%s-%lld", db->uuid, (long long) db->counter++);
	e = pm_arena_zalloc(arena, sizeof(*e));
	if (dir == NULL || name == NULL || e == NULL ||
		(h->pending_path = pm_arena_sprintf(arena, "%s/%s", dir, name)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (db->io->mkdirs == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	PM_TRY(db->io->mkdirs(db->io, dir, err));
	PM_TRY(pm_hash_index_write(db->io, h->pending_path, &h->set, &size, err));
	e->kind = 0;
	e->index_type = PM_HASH_INDEX_TYPE;
	e->file_name = name;
	e->file_size = size;
	e->row_count = (int64_t) h->set.count;
	e->nranges = -1;
	e->ranges = NULL;
	e->external_path = NULL;
	h->pending = e;
	return PM_OK;
}

pm_code
pm_dynamic_buckets_committed(pm_dynamic_buckets *db, pm_bucket_hashes *h, pm_error *err)
{
	if (h->pending == NULL)
		return PM_OK;
	h->live = *h->pending;
	h->live.file_name = pm_arena_strdup(db->arena, h->pending->file_name);
	if (h->live.file_name == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	h->has_live = true;
	h->modified = false;
	h->pending = NULL;
	h->pending_path = NULL;
	return PM_OK;
}

void
pm_dynamic_buckets_discard(pm_dynamic_buckets *db, pm_bucket_hashes *h)
{
	if (h->pending != NULL)
		pm_fileio_remove_quietly(db->io, h->pending_path);
	h->pending = NULL;
	h->pending_path = NULL;
}

void
pm_bucket_hashes_free(pm_bucket_hashes *h)
{
	pm_int_map_free(&h->set);
}
