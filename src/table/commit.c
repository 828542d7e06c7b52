/*-------------------------------------------------------------------------
 * commit.c
 *	  Publishing a snapshot as Java 1.4.2's FileStoreCommitImpl does for
 *	  APPEND commits (commit.h).
 *
 * One attempt (tryCommitOnce):
 *	1. latest = the latest snapshot (or none); new id = latest + 1.
 *	2. With DELETE entries: every deleted file must still be live in latest
 *	   ("File deletion conflicts detected! Give up committing.":
 *	   PM_ERR_CONFLICT, not retried). With DELETE entries or of kind
 *	   COMPACT (Java's detectConflicts), also ConflictDetection's other
 *	   checks (commit_conflict.h): the delta merged in itself and with
 *	   latest's entries of the changed partitions, total buckets kept per
 *	   partition (not for OVERWRITE), and for primary-key tables no two
 *	   files of one bucket and level >= 1 with meeting key ranges ("LSM
 *	   conflicts detected!").
 *	   With the sequence check (commit.h, not in Java, whose writers assume
 *	   one writer per bucket): the files other commits ADDed to our buckets
 *	   since the writer's base snapshot must have sequence numbers below
 *	   ours (else PM_ERR_CONFLICT with the numbers needed; the caller
 *	   renumbers). Redone on every attempt: a lost race means new commits.
 *	3. The delta: one manifest of the ADD/DELETE entries and a manifest list
 *	   naming it (written once, reused by every attempt).
 *	4. The base list: latest's base manifests then latest's delta manifests,
 *	   merged as ManifestFileMerger's minor compaction does (runs reaching
 *	   manifest.target-file-size (8 MiB), or the rest when there are
 *	   manifest.merge-min-count (30) of them), as a new manifest list.
 *	   Java's full compaction (small manifests adding up to 16 MiB) is not
 *	   done: Java's next commit does it.
 *	5. Snapshot version 3: schemaId = the latest schema's id, indexManifest
 *	   and watermark carried over, statistics carried over when its stats
 *	   file has the latest schema id, nextRowId = latest's or 0,
 *	   totalRecordCount = latest's + delta, timeMillis now.
 *	6. Publish snapshot/snapshot-<id> with write_new (fails if it exists):
 *	   lost race -> drop this attempt's base list, wait as RetryWaiter
 *	   (10 ms * 2^r, at most 10 s, + up to 20% jitter) and retry, at most
 *	   commit.max-retries (10) times.
 *	   With index changes (deletion vectors, hash indexes), the index
 *	   manifest is latest's combined with them (write_index below) and
 *	   written per attempt; every index file deleted must still be in
 *	   latest's (else PM_ERR_CONFLICT: a concurrent writer replaced it, and
 *	   our deletion vectors or hash index were computed from a stale one).
 *	   Deletion vectors added to append tables (DELETE/UPDATE) must name
 *	   live data files and must not meet another live DV of the same data
 *	   file (bucket-unaware) or bucket (fixed buckets): PM_ERR_CONFLICT.
 *	7. Then the LATEST hint (RenamingSnapshotCommit -> commitLatestHint).
 *	   Java writes EARLIEST when its commit expires snapshots (by default
 *	   after every commit); we expire nothing, and write EARLIEST = 1 with
 *	   the first snapshot so that a table of ours looks like Java's.
 * Any failure before the publish removes the manifests and lists written.
 *-------------------------------------------------------------------------
 */
#include "table/commit.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/name_set.h"
#include "common/tz.h"
#include "table/commit_conflict.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/manifest_write.h"
#include "table/snapshot.h"
#include "table/write_options.h"

#define SNAPSHOT_FILE_MAX (16 * 1024 * 1024)


static void
sleep_millis(int64_t ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000;
	nanosleep(&ts, NULL);
}

static bool
same_identifier(const pm_manifest_entry *e, const pm_commit_change *c,
				const pm_data_file_meta *f)
{
	return e->bucket == c->bucket && e->partition_len == c->partition_len &&
		memcmp(e->partition, c->partition, (size_t) c->partition_len) == 0 &&
		e->file.level == f->level && strcmp(e->file.file_name, f->file_name) == 0;
}

/*
 * The conflict checks (Java's detectConflicts): every file deleted must
 * still be live, then commit_conflict.h's.
 */
static pm_code
check_deletes(const pm_env *env, pm_fileio *io, const char *table_path,
			  const pm_snapshot *latest, const pm_commit_request *req, pm_arena *arena,
			  pm_error *err)
{
	const char *lists[2] = {latest ? latest->base_manifest_list : NULL,
	latest ? latest->delta_manifest_list : NULL};
	pm_manifest_entry *entries = NULL;
	int			count = 0,
				cap = 0;
	pm_manifest_entry **live = NULL;
	int			nlive = 0;

	for (int l = 0; l < 2; l++)
	{
		pm_manifest_file_meta *metas;
		int			nmetas;
		char	   *path;

		if (lists[l] == NULL)
			continue;
		path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, lists[l]);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_manifest_list_read(env, io, path, arena, &metas, &nmetas, err));
		for (int m = 0; m < nmetas; m++)
		{
			char	   *mpath = pm_arena_sprintf(arena, "%s/manifest/%s", table_path,
												 metas[m].file_name);

			if (mpath == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			PM_TRY(pm_manifest_entries_read(env, io, mpath, arena, &entries, &count, &cap, err));
		}
	}
	if (count > 0)
		PM_TRY(pm_manifest_entries_merge(entries, count, arena, &live, &nlive, err));
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int d = 0; d < ch->ndeleted; d++)
		{
			bool		found = false;

			for (int i = 0; i < nlive && !found; i++)
				found = same_identifier(live[i], ch, &ch->deleted[d]);
			if (!found)
				return pm_fail(err, PM_ERR_CONFLICT,
							   "File deletion conflicts detected! Give up committing. (%s is no longer live)",
							   ch->deleted[d].file_name);
		}
		/* a new deletion vector must mark rows of a live file (ConflictDetection */
		/* buildDeltaEntriesWithDV: "not previously added") */
		for (int a = 0; req->append_deletion_vectors && a < ch->nindex_added; a++)
		{
			const pm_index_manifest_entry *ie = &ch->index_added[a];

			if (strcmp(ie->index_type, "DELETION_VECTORS") != 0)
				continue;
			for (int r = 0; r < ie->nranges; r++)
			{
				bool		found = false;

				for (int i = 0; i < nlive && !found; i++)
					found = live[i]->bucket == ch->bucket &&
						live[i]->partition_len == ch->partition_len &&
						memcmp(live[i]->partition, ch->partition, (size_t) ch->partition_len) == 0 &&
						strcmp(live[i]->file.file_name, ie->ranges[r].data_file) == 0;
				if (!found)
					return pm_fail(err, PM_ERR_CONFLICT,
								   "File deletion conflicts detected! Give up committing. (deletion vector of %s, which is no longer live)",
								   ie->ranges[r].data_file);
			}
		}
	}
	/* the rest of ConflictDetection.checkConflicts (commit_conflict.h) */
	return pm_commit_check_conflicts(req, live, nlive, arena, err);
}

static const char *
file_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* Key of a data file in a partition: 4-byte length, partition bytes, name. */
static char *
partition_file_key(pm_arena *arena, const uint8_t *partition, int32_t partition_len,
				   const char *name, size_t *len)
{
	size_t		nlen = strlen(name);
	char	   *k = pm_arena_alloc(arena, 4 + (size_t) partition_len + nlen + 1);

	if (k == NULL)
		return NULL;
	memcpy(k, &partition_len, 4);
	memcpy(k + 4, partition, (size_t) partition_len);
	memcpy(k + 4 + partition_len, name, nlen + 1);
	*len = 4 + (size_t) partition_len + nlen;
	return k;
}

/*
 * req->deleted_files_dv_checked: the index file holding each deleted data
 * file's DV in latest must be the one it was read with (ConflictDetection
 * checks <file, dv file name> pairs of bucket-unaware tables).
 */
static pm_code
check_deleted_dvs(const pm_env *env, pm_fileio *io, const char *table_path,
				  const pm_snapshot *latest, const pm_commit_request *req, pm_arena *arena,
				  pm_error *err)
{
	pm_index_manifest_entry *idx = NULL;
	int			nidx = 0,
				nranges = 0;
	pm_name_set *files = pm_name_set_create(arena);
	const char **holder;

	if (files == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (latest != NULL && latest->index_manifest != NULL)
	{
		char	   *path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path,
											latest->index_manifest);

		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_index_manifest_read(env, io, path, arena, &idx, &nidx, err));
	}
	for (int i = 0; i < nidx; i++)
		nranges += idx[i].nranges > 0 ? idx[i].nranges : 0;
	/* data file (in its partition) -> the index file holding its DV */
	holder = pm_arena_zalloc(arena, sizeof(char *) * (size_t) (nranges + 1));
	if (holder == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nidx; i++)
	{
		if (idx[i].kind != 0 || strcmp(idx[i].index_type, "DELETION_VECTORS") != 0)
			continue;
		for (int r = 0; r < idx[i].nranges; r++)
		{
			size_t		len;
			char	   *k = partition_file_key(arena, idx[i].partition, idx[i].partition_len,
											   idx[i].ranges[r].data_file, &len);
			int			slot;

			if (k == NULL || !pm_name_set_add(files, k, len, &slot))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			if (holder[slot] == NULL)
				holder[slot] = idx[i].file_name;
		}
	}
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int d = 0; d < ch->ndeleted; d++)
		{
			const pm_data_file_meta *f = &ch->deleted[d];
			const char *had = f->deletion_file ? file_base_name(f->deletion_file->path) : NULL;
			const char *has = NULL;
			size_t		len;
			char	   *k = partition_file_key(arena, ch->partition, ch->partition_len,
											   f->file_name, &len);
			int			slot;

			if (k == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			if ((slot = pm_name_set_find(files, k, len)) >= 0)
				has = holder[slot];
			if ((had == NULL) != (has == NULL) || (had != NULL && strcmp(had, has) != 0))
				return pm_fail(err, PM_ERR_CONFLICT,
							   "File deletion conflicts detected! Give up committing. (the deletion vector of %s changed concurrently)",
							   f->file_name);
		}
	}
	return PM_OK;
}

static bool
same_bucket_of(const pm_manifest_entry *e, const pm_commit_change *c)
{
	return e->bucket == c->bucket && e->partition_len == c->partition_len &&
		memcmp(e->partition, c->partition, (size_t) c->partition_len) == 0;
}

/* Append the entries of the manifests a manifest list names. */
static pm_code
read_list_entries(const pm_env *env, pm_fileio *io, const char *table_path, const char *list,
				  pm_arena *arena, pm_manifest_entry **entries, int *count, int *cap,
				  pm_error *err)
{
	pm_manifest_file_meta *metas;
	int			nmetas;
	char	   *path;

	if (list == NULL)
		return PM_OK;
	path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, list);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_manifest_list_read(env, io, path, arena, &metas, &nmetas, err));
	for (int m = 0; m < nmetas; m++)
	{
		char	   *mpath = pm_arena_sprintf(arena, "%s/manifest/%s", table_path,
											 metas[m].file_name);

		if (mpath == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_manifest_entries_read_cached(env, io, mpath, metas[m].file_size, arena,
											   entries, count, cap, err));
	}
	return PM_OK;
}

/*
 * The sequence check (commit.h): the files ADDed to our buckets by the
 * snapshots after the writer's base, or, when one of them has expired,
 * latest's live files (those live at the base are below our numbers by
 * construction: the writer numbered from their max + 1). A stale change
 * gets req->stale_need[c] = their max + 1 (PM_ERR_CONFLICT).
 */
static pm_code
check_sequences(const pm_env *env, pm_fileio *io, const char *table_path,
				const pm_commit_request *req, int64_t latest_id, const pm_snapshot *latest,
				pm_arena *arena, pm_error *err)
{
	int64_t    *our_min = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (req->nchanges + 1));
	pm_manifest_entry *entries = NULL;
	int			count = 0,
				cap = 0;
	bool		expired = false;
	int			nstale = 0;

	if (our_min == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < req->nchanges; c++)
	{
		req->stale_need[c] = -1;
		our_min[c] = INT64_MAX;
		for (int f = 0; f < req->changes[c].nadded; f++)
			if (req->changes[c].added[f].min_sequence_number < our_min[c])
				our_min[c] = req->changes[c].added[f].min_sequence_number;
	}
	if (req->checked_snapshot_id != NULL)
		*req->checked_snapshot_id = latest_id;
	for (int64_t id = req->base_snapshot_id + 1; id <= latest_id && !expired; id++)
	{
		pm_snapshot *snap;
		pm_code		rc = pm_snapshot_load(io, table_path, id, arena, &snap, err);

		if (rc == PM_ERR_NOT_FOUND)
		{
			expired = true;
			pm_error_clear(err);
			break;
		}
		if (rc != PM_OK)
			return rc;
		PM_TRY(read_list_entries(env, io, table_path, snap->delta_manifest_list, arena, &entries,
								 &count, &cap, err));
	}
	if (expired)
	{
		count = 0;
		PM_TRY(read_list_entries(env, io, table_path, latest->base_manifest_list, arena, &entries,
								 &count, &cap, err));
		PM_TRY(read_list_entries(env, io, table_path, latest->delta_manifest_list, arena,
								 &entries, &count, &cap, err));
	}
	for (int i = 0; i < count; i++)
	{
		const pm_manifest_entry *e = &entries[i];

		if (e->kind != PM_FILE_KIND_ADD)
			continue;
		for (int c = 0; c < req->nchanges; c++)
			if (e->file.max_sequence_number >= our_min[c] && same_bucket_of(e, &req->changes[c]) &&
				e->file.max_sequence_number + 1 > req->stale_need[c])
				req->stale_need[c] = e->file.max_sequence_number + 1;
	}
	for (int c = 0; c < req->nchanges; c++)
		if (req->stale_need[c] >= 0)
		{
			if (nstale++ == 0)
				pm_fail(err, PM_ERR_CONFLICT,
						"stale sequence numbers in bucket %d: a concurrent commit added sequence numbers up to %lld, ours start at %lld",
						(int) req->changes[c].bucket, (long long) req->stale_need[c] - 1,
						(long long) our_min[c]);
		}
	return nstale > 0 ? PM_ERR_CONFLICT : PM_OK;
}

/*
 * Whether the request adds deletion vectors of DELETE/UPDATE on an append
 * table (their data files must be live: Java checks it for bucket-unaware
 * tables; a fixed-bucket append table whose file a compaction rewrote
 * would lose the deletion as well).
 */
static bool
adds_deletion_vectors(const pm_commit_request *req)
{
	if (!req->append_deletion_vectors)
		return false;
	for (int c = 0; c < req->nchanges; c++)
		for (int a = 0; a < req->changes[c].nindex_added; a++)
			if (strcmp(req->changes[c].index_added[a].index_type, "DELETION_VECTORS") == 0 &&
				req->changes[c].index_added[a].nranges > 0)
				return true;
	return false;
}

/* The ROW type of the partition keys (manifest partition stats). */
static pm_code
partition_type_of(const pm_schema *s, pm_arena *arena, const pm_type **out, pm_error *err)
{
	pm_field   *f = pm_arena_alloc(arena, sizeof(pm_field) * (size_t) (s->npartition_keys + 1));
	pm_type    *t;

	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < s->npartition_keys; i++)
	{
		int			idx = pm_type_field_index(s->row_type, s->partition_keys[i]);

		if (idx < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "partition key \"%s\" is not a field",
						   s->partition_keys[i]);
		f[i] = s->row_type->fields[idx];
	}
	t = pm_type_new_row(arena, f, s->npartition_keys, false);
	if (t == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	*out = t;
	return PM_OK;
}

/*
 * One manifest of entries[0..n-1] and a manifest list naming it alone
 * (the delta's and the changelog's of a commit).
 */
static pm_code
write_manifest_and_list(const pm_env *env, pm_fileio *io, const char *table_path,
						const pm_commit_request *req, const pm_manifest_write_options *mopt,
						pm_arena *arena, const pm_manifest_entry *entries, int n,
						char **manifest_path, char **list_name, int64_t *list_size,
						pm_error *err)
{
	pm_manifest_file_meta meta;
	const pm_type *ptype;
	const char *name;

	PM_TRY(partition_type_of(req->schema, arena, &ptype, err));
	PM_TRY(pm_manifest_file_write(env, io, table_path, mopt, ptype, req->schema->id, entries, n,
								  arena, &meta, err));
	*manifest_path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, meta.file_name);
	if (*manifest_path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_manifest_list_write(env, io, table_path, mopt, &meta, 1, arena, &name, list_size,
								  err));
	*list_name = (char *) name;
	return PM_OK;
}

/* The delta manifest (ADD and DELETE entries in request order) and its list. */
static pm_code
write_delta(const pm_env *env, pm_fileio *io, const char *table_path,
			const pm_commit_request *req, const pm_manifest_write_options *mopt,
			pm_arena *arena, char **manifest_path, char **list_name, int64_t *list_size,
			int64_t *delta_records, pm_error *err)
{
	int			n = 0;
	pm_manifest_entry *entries;

	for (int c = 0; c < req->nchanges; c++)
		n += req->changes[c].nadded + req->changes[c].ndeleted;
	entries = pm_arena_zalloc(arena, sizeof(*entries) * (size_t) (n + 1));
	if (entries == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	n = 0;
	*delta_records = 0;
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int k = 0; k < 2; k++)
		{
			int			cnt = k == 0 ? ch->ndeleted : ch->nadded;
			const pm_data_file_meta *files = k == 0 ? ch->deleted : ch->added;

			for (int i = 0; i < cnt; i++)
			{
				pm_manifest_entry *e = &entries[n++];

				e->kind = k == 0 ? PM_FILE_KIND_DELETE : PM_FILE_KIND_ADD;
				e->partition = ch->partition;
				e->partition_len = ch->partition_len;
				e->bucket = ch->bucket;
				e->total_buckets = ch->total_buckets;
				e->file = files[i];
				*delta_records += k == 0 ? -files[i].row_count : files[i].row_count;
			}
		}
	}
	return write_manifest_and_list(env, io, table_path, req, mopt, arena, entries, n,
								   manifest_path, list_name, list_size, err);
}

/*
 * The changelog manifest (ADD entries of the changes' changelog files, in
 * request order) and its list, as FileStoreCommitImpl.tryCommitOnce writes
 * them when changelogFiles is not empty; *list_name stays NULL without any.
 */
static pm_code
write_changelog(const pm_env *env, pm_fileio *io, const char *table_path,
				const pm_commit_request *req, const pm_manifest_write_options *mopt,
				pm_arena *arena, char **manifest_path, char **list_name, int64_t *list_size,
				int64_t *records, pm_error *err)
{
	int			n = 0;
	pm_manifest_entry *entries;

	*records = 0;
	for (int c = 0; c < req->nchanges; c++)
		n += req->changes[c].nchangelog;
	if (n == 0)
		return PM_OK;
	entries = pm_arena_zalloc(arena, sizeof(*entries) * (size_t) n);
	if (entries == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	n = 0;
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int i = 0; i < ch->nchangelog; i++)
		{
			pm_manifest_entry *e = &entries[n++];

			e->kind = PM_FILE_KIND_ADD;
			e->partition = ch->partition;
			e->partition_len = ch->partition_len;
			e->bucket = ch->bucket;
			e->total_buckets = ch->total_buckets;
			e->file = ch->changelog[i];
			*records += ch->changelog[i].row_count;
		}
	}
	return write_manifest_and_list(env, io, table_path, req, mopt, arena, entries, n,
								   manifest_path, list_name, list_size, err);
}

/* Paths of manifests written by one attempt (removed if it does not publish). */
typedef struct written_files
{
	char	  **paths;
	int			n;
	int			cap;
} written_files;

static pm_code
remember(written_files *wf, pm_arena *arena, char *path, pm_error *err)
{
	if (wf->n == wf->cap)
	{
		int			ncap = wf->cap ? wf->cap * 2 : 8;
		char	  **grown = pm_arena_realloc(arena, wf->paths, sizeof(char *) * (size_t) wf->cap,
										 sizeof(char *) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		wf->paths = grown;
		wf->cap = ncap;
	}
	wf->paths[wf->n++] = path;
	return PM_OK;
}

static bool
same_file(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
	return a->bucket == b->bucket && a->file.level == b->file.level &&
		a->partition_len == b->partition_len &&
		memcmp(a->partition, b->partition, (size_t) a->partition_len) == 0 &&
		strcmp(a->file.file_name, b->file.file_name) == 0 &&
		((a->file.external_path == NULL && b->file.external_path == NULL) ||
		 (a->file.external_path != NULL && b->file.external_path != NULL &&
		  strcmp(a->file.external_path, b->file.external_path) == 0));
}

/*
 * ManifestFileMerger.mergeCandidates: the entries of the candidates merged
 * as FileEntry.mergeEntries does (an ADD and its DELETE cancel; a DELETE
 * whose ADD is in an older manifest stays), written as one new manifest.
 */
static pm_code
merge_candidates(const pm_env *env, pm_fileio *io, const char *table_path,
				 const pm_manifest_write_options *mopt, const pm_type *ptype,
				 int64_t schema_id, const pm_manifest_file_meta *cand, int ncand,
				 pm_arena *arena, pm_manifest_file_meta *out, int *nout,
				 written_files *wf, pm_error *err)
{
	pm_manifest_entry *entries = NULL;
	int			count = 0,
				cap = 0;
	bool	   *gone;
	pm_manifest_entry *kept;
	int			nkept = 0;
	char	   *path;

	if (ncand == 1)
	{
		out[(*nout)++] = cand[0];
		return PM_OK;
	}
	for (int i = 0; i < ncand; i++)
	{
		char	   *mpath = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, cand[i].file_name);

		if (mpath == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_manifest_entries_read(env, io, mpath, arena, &entries, &count, &cap, err));
	}
	gone = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (count + 1));
	kept = pm_arena_alloc(arena, sizeof(*kept) * (size_t) (count + 1));
	if (gone == NULL || kept == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < count; i++)
	{
		if (entries[i].kind != PM_FILE_KIND_DELETE)
			continue;
		for (int j = 0; j < i; j++)
			if (!gone[j] && entries[j].kind == PM_FILE_KIND_ADD && same_file(&entries[j], &entries[i]))
			{
				gone[j] = gone[i] = true;
				break;
			}
	}
	for (int i = 0; i < count; i++)
		if (!gone[i])
			kept[nkept++] = entries[i];
	if (nkept == 0)
		return PM_OK;
	PM_TRY(pm_manifest_file_write(env, io, table_path, mopt, ptype, schema_id, kept, nkept, arena,
								  &out[*nout], err));
	path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, out[*nout].file_name);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(remember(wf, arena, path, err));
	(*nout)++;
	return PM_OK;
}

/*
 * ManifestFileMerger.tryMinorCompaction: runs of manifests reaching
 * manifest.target-file-size are merged into one; the rest is merged when
 * there are at least manifest.merge-min-count of them. (The full
 * compaction Java tries first, when manifests smaller than the target or
 * with deletes add up to manifest.full-compaction-threshold-size, is not
 * done: the next Java commit does it.)
 */
static pm_code
minor_compaction(const pm_env *env, pm_fileio *io, const char *table_path,
				 const pm_schema *schema, const pm_manifest_write_options *mopt,
				 const pm_type *ptype, int64_t schema_id, const pm_manifest_file_meta *in,
				 int nin, pm_arena *arena, pm_manifest_file_meta **out, int *nout,
				 written_files *wf, pm_error *err)
{
	int64_t		target = 8LL * 1024 * 1024;
	int64_t		min_count = 30;
	const char *v;
	pm_manifest_file_meta *res = pm_arena_alloc(arena, sizeof(*res) * (size_t) (nin + 1));
	int			first = 0;
	int64_t		total = 0;

	if (res == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if ((v = pm_schema_option(schema, "manifest.target-file-size")) != NULL)
		PM_TRY(pm_parse_memory_size("manifest.target-file-size", v, &target, err));
	if ((v = pm_schema_option(schema, "manifest.merge-min-count")) != NULL)
		min_count = atoi(v);
	*nout = 0;
	for (int i = 0; i < nin; i++)
	{
		total += in[i].file_size;
		if (total >= target)
		{
			PM_TRY(merge_candidates(env, io, table_path, mopt, ptype, schema_id, in + first,
									i - first + 1, arena, res, nout, wf, err));
			first = i + 1;
			total = 0;
		}
	}
	if (nin - first >= min_count)
		PM_TRY(merge_candidates(env, io, table_path, mopt, ptype, schema_id, in + first,
								nin - first, arena, res, nout, wf, err));
	else
		for (int i = first; i < nin; i++)
			res[(*nout)++] = in[i];
	*out = res;
	return PM_OK;
}

static void
drop_files(pm_fileio *io, written_files *wf)
{
	for (int i = 0; i < wf->n; i++)
		pm_fileio_remove_quietly(io, wf->paths[i]);
	wf->n = 0;
}

/* latest's base manifests then its delta manifests, merged as Java would, as a new list. */
static pm_code
write_base(const pm_env *env, pm_fileio *io, const char *table_path, const pm_snapshot *latest,
		   const pm_schema *schema, int64_t schema_id, const pm_manifest_write_options *mopt,
		   pm_arena *arena, const char **name, int64_t *size, written_files *wf, pm_error *err)
{
	pm_manifest_file_meta *all = NULL;
	pm_manifest_file_meta *merged;
	int			nall = 0;
	int			nmerged;
	const pm_type *ptype;
	const char *lists[2] = {latest ? latest->base_manifest_list : NULL,
	latest ? latest->delta_manifest_list : NULL};

	for (int l = 0; l < 2; l++)
	{
		pm_manifest_file_meta *metas;
		int			nmetas;
		char	   *path;
		pm_manifest_file_meta *grown;

		if (lists[l] == NULL)
			continue;
		path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, lists[l]);
		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_manifest_list_read(env, io, path, arena, &metas, &nmetas, err));
		if (nmetas == 0)
			continue;
		grown = pm_arena_realloc(arena, all, sizeof(*all) * (size_t) nall,
								 sizeof(*all) * (size_t) (nall + nmetas + 1));
		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		all = grown;
		memcpy(all + nall, metas, sizeof(*all) * (size_t) nmetas);
		nall += nmetas;
	}
	PM_TRY(partition_type_of(schema, arena, &ptype, err));
	PM_TRY(minor_compaction(env, io, table_path, schema, mopt, ptype, schema_id, all, nall,
							arena, &merged, &nmerged, wf, err));
	PM_TRY(pm_manifest_list_write(env, io, table_path, mopt, merged, nmerged, arena, name, size,
								  err));
	{
		char	   *path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, *name);

		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(remember(wf, arena, path, err));
	}
	return PM_OK;
}

/* Java's BucketMode.BUCKET_UNAWARE: an append table with bucket -1. */
static bool
bucket_unaware(const pm_schema *s)
{
	const char *b = pm_schema_option(s, "bucket");

	return s->nprimary_keys == 0 && (b == NULL || atoi(b) == -1);
}

static bool
same_bucket(const pm_index_manifest_entry *e, const pm_commit_change *c, const char *type)
{
	return e->bucket == c->bucket && e->partition_len == c->partition_len &&
		memcmp(e->partition, c->partition, (size_t) c->partition_len) == 0 &&
		strcmp(e->index_type, type) == 0;
}

/*
 * DELETE/UPDATE of append tables: a live DV index file the request
 * neither deletes nor may replace: for bucket-unaware tables one holding a
 * DV of a data file the added file has one for too (a data file has one DV: ConflictDetection
 * buildBaseEntriesWithDV); for bucketed tables, one of the same bucket
 * holding a DV of a data file the added file has none for (the added
 * file replaces the bucket's DVs: those would be lost; an empty DV file
 * is replaced silently, as before).
 */
static bool
dv_overlaps(const pm_index_manifest_entry *old, const pm_commit_change *c,
			const pm_index_manifest_entry *added, bool bucketed)
{
	if (old->kind != 0 || strcmp(old->index_type, "DELETION_VECTORS") != 0 ||
		old->partition_len != c->partition_len ||
		memcmp(old->partition, c->partition, (size_t) c->partition_len) != 0)
		return false;
	if (bucketed)
	{
		if (old->bucket != c->bucket)
			return false;
		for (int i = 0; i < old->nranges; i++)
		{
			bool		kept = false;

			for (int k = 0; k < added->nranges && !kept; k++)
				kept = strcmp(old->ranges[i].data_file, added->ranges[k].data_file) == 0;
			if (!kept)
				return true;
		}
		return false;
	}
	for (int i = 0; i < old->nranges; i++)
		for (int k = 0; k < added->nranges; k++)
			if (strcmp(old->ranges[i].data_file, added->ranges[k].data_file) == 0)
				return true;
	return false;
}

static bool
has_index_changes(const pm_commit_request *req)
{
	for (int c = 0; c < req->nchanges; c++)
		if (req->changes[c].nindex_added > 0 || req->changes[c].nindex_deleted > 0)
			return true;
	return false;
}

/*
 * The index state of the new snapshot, as IndexManifestFileHandler.write
 * combines latest's entries with the request's: deleted files go (each
 * must be in latest's state: else PM_ERR_CONFLICT), then for deletion
 * vectors and hash indexes of bucketed tables an added file replaces the
 * bucket's file of its type (BucketedCombiner); otherwise files are kept by
 * name (GlobalCombiner, GlobalIndexCombiner). Written as a new index
 * manifest (remembered in wf); *name stays latest's without index changes.
 */
static pm_code
write_index(const pm_env *env, pm_fileio *io, const char *table_path, const pm_snapshot *latest,
			const pm_commit_request *req, const pm_manifest_write_options *mopt,
			pm_arena *arena, const char **name, written_files *wf, pm_error *err)
{
	pm_index_manifest_entry *old = NULL;
	pm_index_manifest_entry *out;
	bool	   *gone;
	int			nold = 0,
				nout = 0,
				nadd = 0;
	bool		unaware = bucket_unaware(req->schema);
	int64_t		size;

	*name = latest ? latest->index_manifest : NULL;
	if (!has_index_changes(req))
		return PM_OK;
	if (latest != NULL && latest->index_manifest != NULL)
	{
		char	   *path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path,
											latest->index_manifest);

		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(pm_index_manifest_read(env, io, path, arena, &old, &nold, err));
	}
	for (int c = 0; c < req->nchanges; c++)
		nadd += req->changes[c].nindex_added;
	gone = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (nold + 1));
	out = pm_arena_zalloc(arena, sizeof(*out) * (size_t) (nold + nadd + 1));
	if (gone == NULL || out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int d = 0; d < ch->nindex_deleted; d++)
		{
			bool		found = false;

			for (int i = 0; i < nold && !found; i++)
				if (!gone[i] && strcmp(old[i].file_name, ch->index_deleted[d].file_name) == 0)
					found = gone[i] = true;
			if (!found)
				return pm_fail(err, PM_ERR_CONFLICT,
							   "Index file deletion conflicts detected! Give up committing. (%s is no longer live)",
							   ch->index_deleted[d].file_name);
		}
	}
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int a = 0; a < ch->nindex_added; a++)
		{
			const char *type = ch->index_added[a].index_type;
			bool		bucketed = (strcmp(type, "HASH") == 0 ||
									(strcmp(type, "DELETION_VECTORS") == 0 && !unaware));

			for (int i = 0; i < nold; i++)
			{
				if (gone[i])
					continue;
				if (strcmp(type, "DELETION_VECTORS") == 0 && req->append_deletion_vectors &&
					dv_overlaps(&old[i], ch, &ch->index_added[a], bucketed))
					return pm_fail(err, PM_ERR_CONFLICT,
								   "Deletion vector conflicts detected! Give up committing. (index file %s, which this commit does not replace, was added concurrently)",
								   old[i].file_name);
				if (bucketed ? same_bucket(&old[i], ch, type)
					: strcmp(old[i].file_name, ch->index_added[a].file_name) == 0)
					gone[i] = true;
			}
		}
	}
	for (int i = 0; i < nold; i++)
		if (!gone[i])
			out[nout++] = old[i];
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int a = 0; a < ch->nindex_added; a++)
		{
			pm_index_manifest_entry *e = &out[nout++];

			*e = ch->index_added[a];
			e->kind = 0;
			e->partition = ch->partition;
			e->partition_len = ch->partition_len;
			e->bucket = ch->bucket;
		}
	}
	PM_TRY(pm_index_manifest_write(env, io, table_path, mopt, out, nout, arena, name, &size, err));
	{
		char	   *path = pm_arena_sprintf(arena, "%s/manifest/%s", table_path, *name);

		if (path == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(remember(wf, arena, path, err));
	}
	return PM_OK;
}

/*
 * The statistics file of latest, kept when it was computed on the latest
 * schema (FileStoreCommitImpl: "Schema changed, stats will not be
 * inherited").
 */
static const char *
inherited_statistics(pm_fileio *io, const char *table_path, const pm_snapshot *latest,
					 int64_t latest_schema_id, pm_arena *arena)
{
	char	   *path;
	uint8_t    *data;
	size_t		len;
	pm_error	ignored;
	json_t	   *root;
	json_t	   *sid;
	bool		keep;

	if (latest == NULL || latest->statistics == NULL)
		return NULL;
	path = pm_arena_sprintf(arena, "%s/statistics/%s", table_path, latest->statistics);
	if (path == NULL ||
		pm_fileio_read_all(io, path, arena, SNAPSHOT_FILE_MAX, &data, &len, &ignored) != PM_OK)
		return NULL;
	root = json_loadb((const char *) data, len, 0, NULL);
	sid = root ? json_object_get(root, "schemaId") : NULL;
	keep = sid != NULL && json_is_integer(sid) && json_integer_value(sid) == latest_schema_id;
	json_decref(root);
	return keep ? latest->statistics : NULL;
}

/*
 * <hint> := id (Java overwrites hints in place, HintFileUtils.commitHint;
 * readers tolerate a missing or stale one). replace = false: only if absent.
 */
static void
write_hint(pm_fileio *io, const char *table_path, const char *hint, int64_t id, bool replace,
		   pm_arena *arena)
{
	char	   *path = pm_arena_sprintf(arena, "%s/snapshot/%s", table_path, hint);
	char		text[32];
	pm_error	ignored;

	if (path == NULL || io->write_new == NULL)
		return;
	snprintf(text, sizeof(text), "%lld", (long long) id);
	if (replace)
		pm_fileio_remove_quietly(io, path);
	(void) io->write_new(io, path, text, strlen(text), &ignored);
}

static int
max_retries(const pm_schema *s)
{
	const char *v = pm_schema_option(s, "commit.max-retries");
	int			n = v != NULL ? atoi(v) : 10;

	return n >= 0 ? n : 10;
}

pm_code
pm_table_commit(const pm_env *env, pm_fileio *io, const char *table_path,
				const pm_commit_request *req, pm_arena *arena, int64_t *snapshot_id,
				pm_error *err)
{
	pm_manifest_write_options mopt;
	char	   *manifest_path = NULL;
	char	   *delta_list = NULL;
	int64_t		delta_list_size = 0;
	int64_t		delta_records = 0;
	char	   *changelog_manifest = NULL;
	char	   *changelog_list = NULL;
	int64_t		changelog_list_size = 0;
	int64_t		changelog_records = 0;
	bool		any = false;
	bool		has_deletes = false;
	pm_code		rc;
	int			retries = max_retries(req->schema);
	const char *mcomp = pm_schema_option(req->schema, "manifest.compression");
	const char *mformat = pm_schema_option(req->schema, "manifest.format");

	*snapshot_id = 0;
	for (int c = 0; req->stale_need != NULL && c < req->nchanges; c++)
		req->stale_need[c] = -1;
	for (int c = 0; c < req->nchanges; c++)
	{
		any |= req->changes[c].nadded > 0 || req->changes[c].ndeleted > 0 ||
			req->changes[c].nindex_added > 0 || req->changes[c].nindex_deleted > 0;
		has_deletes |= req->changes[c].ndeleted > 0;
	}
	has_deletes |= adds_deletion_vectors(req);
	if (!any)
		return PM_OK;
	if (io->write_new == NULL || io->mkdirs == NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
	memset(&mopt, 0, sizeof(mopt));
	mopt.format = PM_FORMAT_AVRO;
	if (mformat != NULL)
		PM_TRY(pm_file_format_from_name(mformat, &mopt.format, err));
	mopt.compression = mcomp != NULL ? mcomp : "zstd";

	{
		char	   *mdir = pm_arena_sprintf(arena, "%s/manifest", table_path);
		char	   *sdir = pm_arena_sprintf(arena, "%s/snapshot", table_path);

		if (mdir == NULL || sdir == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		PM_TRY(io->mkdirs(io, mdir, err));
		PM_TRY(io->mkdirs(io, sdir, err));
	}
	rc = write_delta(env, io, table_path, req, &mopt, arena, &manifest_path, &delta_list,
					 &delta_list_size, &delta_records, err);
	if (rc == PM_OK)
		rc = write_changelog(env, io, table_path, req, &mopt, arena, &changelog_manifest,
							 &changelog_list, &changelog_list_size, &changelog_records, err);
	if (rc != PM_OK)
		goto fail;

	for (int attempt = 0;; attempt++)
	{
		int64_t		latest_id;
		pm_snapshot *latest = NULL;
		pm_schema  *latest_schema;
		const char *base_list = NULL;
		const char *index_manifest = NULL;
		int64_t		base_list_size = 0;
		written_files attempt_files = {NULL, 0, 0};
		pm_snapshot snap;
		char	   *json;
		size_t		json_len;
		char	   *snap_path;

		if ((rc = pm_snapshot_latest_id(io, table_path, arena, &latest_id, err)) != PM_OK)
			goto fail;
		if (latest_id > 0 &&
			(rc = pm_snapshot_load(io, table_path, latest_id, arena, &latest, err)) != PM_OK)
			goto fail;
		if ((has_deletes || (req->commit_kind != NULL && strcmp(req->commit_kind, "COMPACT") == 0)) &&
			(rc = check_deletes(env, io, table_path, latest, req, arena, err)) != PM_OK)
			goto fail;
		if (req->deleted_files_dv_checked &&
			(rc = check_deleted_dvs(env, io, table_path, latest, req, arena, err)) != PM_OK)
			goto fail;
		if (req->stale_need != NULL && latest_id > req->base_snapshot_id &&
			(rc = check_sequences(env, io, table_path, req, latest_id, latest, arena,
								  err)) != PM_OK)
			goto fail;
		if ((rc = pm_schema_load_latest(io, table_path, arena, &latest_schema, err)) != PM_OK)
			goto fail;
		if ((rc = write_base(env, io, table_path, latest, req->schema, latest_schema->id, &mopt,
							 arena, &base_list, &base_list_size, &attempt_files, err)) != PM_OK)
		{
			drop_files(io, &attempt_files);
			goto fail;
		}
		if ((rc = write_index(env, io, table_path, latest, req, &mopt, arena, &index_manifest,
							  &attempt_files, err)) != PM_OK)
		{
			drop_files(io, &attempt_files);
			goto fail;
		}

		memset(&snap, 0, sizeof(snap));
		snap.version = 3;
		snap.id = latest_id + 1;
		snap.schema_id = latest_schema->id;
		snap.base_manifest_list = base_list;
		snap.base_manifest_list_size = base_list_size;
		snap.delta_manifest_list = delta_list;
		snap.delta_manifest_list_size = delta_list_size;
		snap.changelog_manifest_list = changelog_list;
		snap.changelog_manifest_list_size = changelog_list != NULL ? changelog_list_size : -1;
		snap.index_manifest = index_manifest;
		snap.commit_user = req->commit_user;
		snap.commit_identifier = req->commit_identifier;
		snap.commit_kind = req->commit_kind;
		snap.time_millis = pm_epoch_millis_now();
		snap.total_record_count = (latest && latest->total_record_count > 0 ?
								   latest->total_record_count : 0) + delta_records;
		snap.delta_record_count = delta_records;
		/* nullableRecordCount(changelogFiles) */
		snap.changelog_record_count = changelog_list != NULL ? changelog_records : -1;
		snap.watermark = latest ? latest->watermark : INT64_MIN;
		snap.statistics = inherited_statistics(io, table_path, latest, latest_schema->id, arena);
		snap.has_properties = false;
		snap.next_row_id = latest && latest->next_row_id >= 0 ? latest->next_row_id : 0;
		if ((rc = pm_snapshot_to_json(&snap, arena, &json, &json_len, err)) != PM_OK)
		{
			drop_files(io, &attempt_files);
			goto fail;
		}
		snap_path = pm_arena_sprintf(arena, "%s/snapshot/snapshot-%lld", table_path,
									 (long long) snap.id);
		if (snap_path == NULL)
		{
			drop_files(io, &attempt_files);
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			goto fail;
		}
		rc = io->write_new(io, snap_path, json, json_len, err);
		if (rc == PM_OK)
		{
			write_hint(io, table_path, "LATEST", snap.id, true, arena);
			if (snap.id == 1)
				write_hint(io, table_path, "EARLIEST", 1, false, arena);
			*snapshot_id = snap.id;
			return PM_OK;
		}
		drop_files(io, &attempt_files);
		if (rc != PM_ERR_CONFLICT)
			goto fail;
		if (attempt >= retries)
		{
			rc = pm_fail(err, PM_ERR_CONFLICT,
						 "commit of %s lost the race for a snapshot id %d times; giving up",
						 table_path, attempt + 1);
			goto fail;
		}
		{
			/* RetryWaiter: min(10 ms * 2^r, 10 s) + up to 20% random */
			int64_t		wait = attempt < 10 ? ((int64_t) 10 << attempt) : 10000;

			if (wait > 10000)
				wait = 10000;
			sleep_millis(wait + (int64_t) (rand() % (int) (wait / 5 > 1 ? wait / 5 : 1)));
		}
		if ((rc = pm_check_interrupts(env, err)) != PM_OK)
			goto fail;
	}

fail:
	if (delta_list != NULL)
		pm_fileio_remove_quietly(io, pm_arena_sprintf(arena, "%s/manifest/%s", table_path, delta_list));
	pm_fileio_remove_quietly(io, manifest_path);
	if (changelog_list != NULL)
		pm_fileio_remove_quietly(io, pm_arena_sprintf(arena, "%s/manifest/%s", table_path, changelog_list));
	pm_fileio_remove_quietly(io, changelog_manifest);
	return rc;
}
