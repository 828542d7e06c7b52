/*-------------------------------------------------------------------------
 * commit_conflict.c
 *	  Java 1.4.2's ConflictDetection checks beyond "every deleted file is
 *	  live" (commit.c): the request merged in itself and with the base,
 *	  total buckets kept per partition, and the LSM key-range check
 *	  (commit_conflict.h).
 *
 * The key-range check (checkKeyRange): the merged live entries of level
 * >= 1 grouped by (partition, bucket, level), each group sorted by
 * _MIN_KEY with the key comparator (KeyComparatorSupplier over the
 * trimmed primary key: field by field, NULLs first, row/value.h order),
 * and a file whose _MAX_KEY >= the next file's _MIN_KEY is a conflict
 * (so touching ranges, max == next min, are one too).
 *-------------------------------------------------------------------------
 */
#include "table/commit_conflict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "row/binary_row.h"
#include "row/value.h"

static bool
same_partition(const uint8_t *a, int32_t alen, const uint8_t *b, int32_t blen)
{
	return alen == blen && memcmp(a, b, (size_t) alen) == 0;
}

/* FileEntry.Identifier: partition, bucket, level, file name, external path. */
static bool
same_identifier(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
	return a->bucket == b->bucket && a->file.level == b->file.level &&
		same_partition(a->partition, a->partition_len, b->partition, b->partition_len) &&
		strcmp(a->file.file_name, b->file.file_name) == 0 &&
		((a->file.external_path == NULL && b->file.external_path == NULL) ||
		 (a->file.external_path != NULL && b->file.external_path != NULL &&
		  strcmp(a->file.external_path, b->file.external_path) == 0));
}

static bool
changes_something(const pm_commit_change *c)
{
	return c->nadded > 0 || c->ndeleted > 0 || c->nindex_added > 0 || c->nindex_deleted > 0;
}

/* The request as manifest entries, in write order (each change's DELETEs, then its ADDs). */
static pm_manifest_entry *
delta_entries(const pm_commit_request *req, pm_arena *arena, int *n)
{
	int			total = 0;
	pm_manifest_entry *out;

	for (int c = 0; c < req->nchanges; c++)
		total += req->changes[c].nadded + req->changes[c].ndeleted;
	out = pm_arena_zalloc(arena, sizeof(*out) * (size_t) (total + 1));
	if (out == NULL)
		return NULL;
	*n = 0;
	for (int c = 0; c < req->nchanges; c++)
	{
		const pm_commit_change *ch = &req->changes[c];

		for (int k = 0; k < 2; k++)
		{
			int			cnt = k == 0 ? ch->ndeleted : ch->nadded;
			const pm_data_file_meta *files = k == 0 ? ch->deleted : ch->added;

			for (int i = 0; i < cnt; i++)
			{
				pm_manifest_entry *e = &out[(*n)++];

				e->kind = k == 0 ? PM_FILE_KIND_DELETE : PM_FILE_KIND_ADD;
				e->partition = ch->partition;
				e->partition_len = ch->partition_len;
				e->bucket = ch->bucket;
				e->total_buckets = ch->total_buckets;
				e->file = files[i];
			}
		}
	}
	return out;
}

/*
 * FileEntry.mergeEntries(deltaEntries): an ADD of an identifier already
 * in the map (added, or deleted and not yet added) throws; a DELETE
 * removes an ADD or stays.
 */
static pm_code
check_delta_merge(const pm_manifest_entry *delta, int n, pm_arena *arena, pm_error *err)
{
	bool	   *in_map = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (n + 1));

	if (in_map == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < n; i++)
	{
		int			found = -1;

		for (int j = 0; j < i && found < 0; j++)
			if (in_map[j] && same_identifier(&delta[j], &delta[i]))
				found = j;
		if (delta[i].kind == PM_FILE_KIND_ADD)
		{
			if (found >= 0)
				return pm_fail(err, PM_ERR_CONFLICT,
							   "File deletion conflicts detected! Give up committing. (the commit %s file %s at level %d of bucket %d)",
							   delta[found].kind == PM_FILE_KIND_ADD ? "adds twice" :
							   "deletes and adds",
							   delta[i].file.file_name, (int) delta[i].file.level,
							   (int) delta[i].bucket);
			in_map[i] = true;
		}
		else if (found >= 0)
			in_map[found] = false;
		else
			in_map[i] = true;
	}
	return PM_OK;
}

/* The index of the first change of e's partition among those that change something, or -1. */
static int
partition_slot(const pm_commit_request *req, const pm_manifest_entry *e)
{
	for (int c = 0; c < req->nchanges; c++)
		if (changes_something(&req->changes[c]) &&
			same_partition(req->changes[c].partition, req->changes[c].partition_len,
						   e->partition, e->partition_len))
			return c;
	return -1;
}

/*
 * checkBucketKeepSame: per partition, the first entry (base, then delta)
 * with total_buckets > 0 sets the count the others must have.
 */
static pm_code
check_total_buckets(const pm_commit_request *req, pm_manifest_entry *const *base, int nbase,
					const pm_manifest_entry *delta, int ndelta, pm_arena *arena, pm_error *err)
{
	int32_t    *seen;

	if (req->commit_kind != NULL && strcmp(req->commit_kind, "OVERWRITE") == 0)
		return PM_OK;
	seen = pm_arena_zalloc(arena, sizeof(int32_t) * (size_t) (req->nchanges + 1));
	if (seen == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nbase + ndelta; i++)
	{
		const pm_manifest_entry *e = i < nbase ? base[i] : &delta[i - nbase];
		int			slot;

		if (e->total_buckets <= 0 || (slot = partition_slot(req, e)) < 0)
			continue;
		if (seen[slot] == 0)
			seen[slot] = e->total_buckets;
		else if (seen[slot] != e->total_buckets)
			return pm_fail(err, PM_ERR_CONFLICT,
						   "Total buckets of partition changed from %d to %d without overwrite. Give up committing. (file %s, bucket %d)",
						   (int) seen[slot], (int) e->total_buckets, e->file.file_name,
						   (int) e->bucket);
	}
	return PM_OK;
}

/* The trimmed primary key (primary keys that are not partition keys) as a ROW type. */
static pm_code
key_type_of(const pm_schema *s, pm_arena *arena, const pm_type **out, pm_error *err)
{
	pm_field   *f = pm_arena_zalloc(arena, sizeof(pm_field) * (size_t) (s->nprimary_keys + 1));
	int			n = 0;

	if (f == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < s->nprimary_keys; i++)
	{
		bool		is_partition = false;
		int			idx;

		for (int p = 0; p < s->npartition_keys; p++)
			is_partition |= strcmp(s->partition_keys[p], s->primary_keys[i]) == 0;
		if (is_partition)
			continue;
		idx = pm_type_field_index(s->row_type, s->primary_keys[i]);
		if (idx < 0)
			return pm_fail(err, PM_ERR_CORRUPT, "primary key \"%s\" is not a field",
						   s->primary_keys[i]);
		f[n++] = s->row_type->fields[idx];
	}
	*out = pm_type_new_row(arena, f, n, false);
	return *out != NULL ? PM_OK : pm_fail(err, PM_ERR_NOMEM, "out of memory");
}

typedef struct keyed_file
{
	const pm_manifest_entry *entry;
	pm_value   *min;
	pm_value   *max;
} keyed_file;


static pm_code
decode_bound(const pm_type *kt, const pm_manifest_entry *e, bool max, pm_arena *arena,
			 pm_value **out, pm_error *err)
{
	const uint8_t *buf = max ? e->file.max_key : e->file.min_key;
	int32_t		len = max ? e->file.max_key_len : e->file.min_key_len;

	*out = pm_arena_zalloc(arena, sizeof(pm_value) * (size_t) (kt->nfields + 1));
	if (*out == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (buf == NULL)
		return pm_fail(err, PM_ERR_CORRUPT, "data file \"%s\" has no %s", e->file.file_name,
					   max ? "_MAX_KEY" : "_MIN_KEY");
	return pm_binary_row_decode_serialized(buf, (size_t) len, kt, *out, err);
}

static bool
same_level_group(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
	return a->bucket == b->bucket && a->file.level == b->file.level &&
		same_partition(a->partition, a->partition_len, b->partition, b->partition_len);
}

/* checkKeyRange over the merged live entries. */
static pm_code
check_key_ranges(const pm_commit_request *req, pm_manifest_entry *const *live, int nlive,
				 pm_arena *arena, pm_error *err)
{
	const pm_type *kt;
	keyed_file *files;
	bool	   *done;
	keyed_file *group;
	int			n = 0;

	if (req->schema->nprimary_keys == 0 ||
		pm_schema_bool_option(req->schema, "pk-clustering-override", false))
		return PM_OK;
	PM_TRY(key_type_of(req->schema, arena, &kt, err));
	files = pm_arena_zalloc(arena, sizeof(*files) * (size_t) (nlive + 1));
	done = pm_arena_zalloc(arena, sizeof(bool) * (size_t) (nlive + 1));
	group = pm_arena_zalloc(arena, sizeof(*group) * (size_t) (nlive + 1));
	if (files == NULL || done == NULL || group == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nlive; i++)
	{
		if (live[i]->file.level < 1)
			continue;
		files[n].entry = live[i];
		PM_TRY(decode_bound(kt, live[i], false, arena, &files[n].min, err));
		PM_TRY(decode_bound(kt, live[i], true, arena, &files[n].max, err));
		n++;
	}
	for (int i = 0; i < n; i++)
	{
		int			ng = 0;

		if (done[i])
			continue;
		/* the group of files[i], sorted by min key (insertion, stable as List.sort) */
		for (int j = i; j < n; j++)
		{
			int			p;

			if (done[j] || !same_level_group(files[i].entry, files[j].entry))
				continue;
			done[j] = true;
			for (p = ng; p > 0 && pm_value_row_compare(kt, group[p - 1].min, files[j].min) > 0; p--)
				group[p] = group[p - 1];
			group[p] = files[j];
			ng++;
		}
		for (int g = 0; g + 1 < ng; g++)
			if (pm_value_row_compare(kt, group[g].max, group[g + 1].min) >= 0)
				return pm_fail(err, PM_ERR_CONFLICT,
							   "LSM conflicts detected! Give up committing. Conflict files are: %s and %s (bucket %d, level %d)",
							   group[g].entry->file.file_name, group[g + 1].entry->file.file_name,
							   (int) group[g].entry->bucket, (int) group[g].entry->file.level);
	}
	return PM_OK;
}

pm_code
pm_commit_check_conflicts(const pm_commit_request *req, pm_manifest_entry *const *base,
						  int nbase, pm_arena *arena, pm_error *err)
{
	int			ndelta = 0;
	pm_manifest_entry *delta = delta_entries(req, arena, &ndelta);
	pm_manifest_entry *all;
	pm_manifest_entry **live;
	int			nall = 0;
	int			nlive;
	pm_code		rc;

	if (delta == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(check_total_buckets(req, base, nbase, delta, ndelta, arena, err));
	PM_TRY(check_delta_merge(delta, ndelta, arena, err));
	all = pm_arena_alloc(arena, sizeof(*all) * (size_t) (nbase + ndelta + 1));
	if (all == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nbase; i++)
		if (partition_slot(req, base[i]) >= 0)
			all[nall++] = *base[i];
	memcpy(all + nall, delta, sizeof(*all) * (size_t) ndelta);
	nall += ndelta;
	rc = pm_manifest_entries_merge(all, nall, arena, &live, &nlive, err);
	if (rc == PM_ERR_CORRUPT)
	{
		/* FileEntry.mergeEntries: "Trying to add file ... which is already in the map" */
		char		why[256];

		snprintf(why, sizeof(why), "%s", err->message);
		return pm_fail(err, PM_ERR_CONFLICT,
					   "File deletion conflicts detected! Give up committing. (%s)", why);
	}
	if (rc != PM_OK)
		return rc;
	return check_key_ranges(req, live, nlive, arena, err);
}
