/*-------------------------------------------------------------------------
 * file_index_write.c
 *	  The file indexes of a data file being written (file_index_write.h).
 *-------------------------------------------------------------------------
 */
#include "index/file_index_write.h"

#include <string.h>

#include "common/byte_buffer.h"
#include "index/bitmap_index_write.h"
#include "index/bloom_filter_index_write.h"
#include "index/bsi_index_write.h"
#include "index/file_index.h"
#include "index/index_values_write.h"
#include "index/java_hash_map.h"
#include "index/range_bitmap_index_write.h"

const char *
pm_file_index_kind_name(pm_file_index_kind kind)
{
	switch (kind)
	{
		case PM_FILE_INDEX_BLOOM_FILTER:
			return "bloom-filter";
		case PM_FILE_INDEX_BITMAP:
			return "bitmap";
		case PM_FILE_INDEX_BSI:
			return "bsi";
		default:
			return "range-bitmap";
	}
}

bool
pm_file_index_kind_supports(pm_file_index_kind kind, const pm_type *type)
{
	switch (kind)
	{
		case PM_FILE_INDEX_BLOOM_FILTER:
			return pm_bloom_filter_write_supported(type);
		case PM_FILE_INDEX_BITMAP:
			return pm_bitmap_index_write_supported(type);
		case PM_FILE_INDEX_BSI:
			return pm_bsi_index_write_supported(type);
		default:
			return pm_range_bitmap_write_supported(type);
	}
}

/* ---- the order of Java's maps ---- */

static int32_t
str_hash(const char *s)
{
	return pm_java_string_hash(s, strlen(s));
}

/* Arrays.hashCode(new Object[] {columnName, null, false}): FileIndexOptions.Column */
static int32_t
column_key_hash(const char *name)
{
	uint32_t	h = 1;

	h = 31 * h + (uint32_t) str_hash(name);
	h = 31 * h + 0;
	h = 31 * h + 1237;
	return (int32_t) h;
}

/* Distinct strings in first-seen order. */
typedef struct name_list
{
	const char **names;
	int			n;
} name_list;

static int
name_index(const name_list *l, const char *s)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->names[i], s) == 0)
			return i;
	return -1;
}

static int
name_add(name_list *l, const char *s)
{
	int			i = name_index(l, s);

	if (i >= 0)
		return i;
	l->names[l->n] = s;
	return l->n++;
}

/*
 * perm = HashMap iteration order of the list's names (hash: string or
 * Column), added by put() or computeIfAbsent().
 */
static bool
map_order(const pm_env *env, const name_list *l, bool column_key, bool compute_if_absent,
		  int32_t *hashes, int32_t *perm)
{
	for (int i = 0; i < l->n; i++)
		hashes[i] = column_key ? column_key_hash(l->names[i]) : str_hash(l->names[i]);
	return pm_java_hash_map_order(env, hashes, l->n, compute_if_absent, perm);
}

bool
pm_file_index_plan_order(const pm_env *env, pm_file_index_plan *plan, pm_arena *arena)
{
	int			n = plan->nspecs;
	size_t		sz = sizeof(const char *) * (size_t) (n + 1);
	name_list	cols = {pm_arena_alloc(arena, sz), 0};
	name_list	kinds = {pm_arena_alloc(arena, sz), 0};
	int32_t    *hashes = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (n + 1));
	int32_t    *perm = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (n + 1));
	int32_t    *perm2 = pm_arena_alloc(arena, sizeof(int32_t) * (size_t) (n + 1));
	int		   *seq = pm_arena_alloc(arena, sizeof(int) * (size_t) (n + 1));	/* spec order so far */
	int		   *seq2 = pm_arena_alloc(arena, sizeof(int) * (size_t) (n + 1));
	pm_file_index_spec *out = pm_arena_alloc(arena, sizeof(pm_file_index_spec) * (size_t) (n + 1));
	int			m;

	if (cols.names == NULL || kinds.names == NULL || hashes == NULL || perm == NULL ||
		perm2 == NULL || seq == NULL || seq2 == NULL || out == NULL)
		return false;

	/*
	 * 1. FileIndexOptions: Column -> (kind -> options). Iterating it gives
	 * columns in HashMap<Column> order, kinds of each in HashMap<String>
	 * order: the order DataFileIndexWriter creates its maintainers in.
	 */
	for (int i = 0; i < n; i++)
		name_add(&cols, plan->specs[i].column);
	if (!map_order(env, &cols, true, true, hashes, perm))
		return false;
	m = 0;
	for (int c = 0; c < cols.n; c++)
	{
		const char *col = cols.names[perm[c]];
		name_list	ks = {kinds.names, 0};
		int			first = m;

		for (int i = 0; i < n; i++)
			if (strcmp(plan->specs[i].column, col) == 0)
			{
				name_add(&ks, pm_file_index_kind_name(plan->specs[i].kind));
				seq[m++] = i;
			}
		if (!map_order(env, &ks, false, true, hashes, perm2))
			return false;
		/* reorder this column's specs by its kinds' map order */
		for (int k = 0; k < ks.n; k++)
			for (int j = first; j < m; j++)
				if (strcmp(pm_file_index_kind_name(plan->specs[seq[j]].kind), ks.names[perm2[k]]) == 0)
					seq2[first + k] = seq[j];
	}
	memcpy(seq, seq2, sizeof(int) * (size_t) n);

	/*
	 * 2. indexMaintainers: kind -> (column -> maintainer), filled in that
	 * order; serializeMaintainers iterates kinds then columns in HashMap
	 * order and fills indexMaps: column -> (kind -> bytes).
	 */
	kinds.n = 0;
	for (int j = 0; j < n; j++)
		name_add(&kinds, pm_file_index_kind_name(plan->specs[seq[j]].kind));
	if (!map_order(env, &kinds, false, true, hashes, perm))	/* computeIfAbsent(kind) */
		return false;
	m = 0;
	for (int k = 0; k < kinds.n; k++)
	{
		const char *kind = kinds.names[perm[k]];
		name_list	cs = {cols.names, 0};
		int			first = m;

		for (int j = 0; j < n; j++)
			if (strcmp(pm_file_index_kind_name(plan->specs[seq[j]].kind), kind) == 0)
			{
				name_add(&cs, plan->specs[seq[j]].column);
				seq2[m++] = seq[j];
			}
		if (!map_order(env, &cs, false, false, hashes, perm2))	/* put(column) */
			return false;
		{
			int			tmp[64];
			int		   *t = cs.n <= 64 ? tmp : pm_arena_alloc(arena, sizeof(int) * (size_t) cs.n);

			if (t == NULL)
				return false;
			for (int c = 0; c < cs.n; c++)
				for (int j = first; j < m; j++)
					if (strcmp(plan->specs[seq2[j]].column, cs.names[perm2[c]]) == 0)
						t[c] = seq2[j];
			memcpy(seq2 + first, t, sizeof(int) * (size_t) cs.n);
		}
	}
	memcpy(seq, seq2, sizeof(int) * (size_t) n);

	/*
	 * 3. indexMaps in HashMap order of column names (inserted in the order
	 * just found), each column's kinds in HashMap order: the container.
	 */
	cols.n = 0;
	for (int j = 0; j < n; j++)
		name_add(&cols, plan->specs[seq[j]].column);
	if (!map_order(env, &cols, false, true, hashes, perm))	/* computeIfAbsent(column) */
		return false;
	m = 0;
	for (int c = 0; c < cols.n; c++)
	{
		const char *col = cols.names[perm[c]];
		name_list	ks = {kinds.names, 0};
		int			first = m;

		for (int j = 0; j < n; j++)
			if (strcmp(plan->specs[seq[j]].column, col) == 0)
			{
				name_add(&ks, pm_file_index_kind_name(plan->specs[seq[j]].kind));
				seq2[m++] = seq[j];
			}
		if (!map_order(env, &ks, false, false, hashes, perm2))	/* put(kind) */
			return false;
		for (int k = 0; k < ks.n; k++)
			for (int j = first; j < m; j++)
				if (strcmp(pm_file_index_kind_name(plan->specs[seq2[j]].kind), ks.names[perm2[k]]) == 0)
					out[first + k] = plan->specs[seq2[j]];
	}
	plan->specs = out;
	return true;
}

/* ---- one data file's writer ---- */

typedef struct index_state
{
	const pm_file_index_spec *spec;
	const pm_type *type;
	pm_bloom_filter_write bloom;
	pm_index_values values;
} index_state;

struct pm_file_index_writer
{
	const pm_env *env;
	const pm_file_index_plan *plan;
	pm_arena   *arena;
	index_state *states;
};

pm_code
pm_file_index_writer_open(const pm_env *env, const pm_file_index_plan *plan,
						  pm_file_index_writer **out, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_file_index_writer *w;

	*out = NULL;
	if (arena == NULL || (w = pm_arena_zalloc(arena, sizeof(*w))) == NULL ||
		(w->states = pm_arena_zalloc(arena, sizeof(index_state) * (size_t) (plan->nspecs + 1))) == NULL)
	{
		if (arena)
			pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	w->env = env;
	w->plan = plan;
	w->arena = arena;
	for (int i = 0; i < plan->nspecs; i++)
	{
		const pm_file_index_spec *s = &plan->specs[i];
		index_state *st = &w->states[i];

		st->spec = s;
		st->type = plan->row_type->fields[s->field].type;
		if (s->kind == PM_FILE_INDEX_BLOOM_FILTER)
		{
			pm_code		rc = pm_bloom_filter_write_init(&st->bloom, st->type, s->items, s->fpp,
														arena, err);

			if (rc != PM_OK)
			{
				pm_arena_destroy(arena);
				return rc;
			}
		}
		else
			pm_index_values_init(&st->values, st->type, arena);
	}
	*out = w;
	return PM_OK;
}

pm_code
pm_file_index_writer_write(pm_file_index_writer *w, const pm_batch *batch, int first_col,
						   pm_error *err)
{
	for (int i = 0; i < w->plan->nspecs; i++)
	{
		index_state *st = &w->states[i];
		const pm_vector *v = &batch->cols[first_col + st->spec->field];

		if (st->spec->kind == PM_FILE_INDEX_BLOOM_FILTER)
			pm_bloom_filter_write_add(&st->bloom, v, batch->nrows);
		else
			PM_TRY(pm_index_values_add(&st->values, v, batch->nrows, err));
	}
	return PM_OK;
}

static void
put_i32(pm_byte_buffer *b, int32_t v)
{
	uint8_t		t[4];

	pm_put_be32(t, (uint32_t) v);
	pm_byte_buffer_append(b, t, 4);
}

/* FileIndexFormat.Writer.writeColumnIndexes */
static pm_code
serialize(pm_file_index_writer *w, pm_byte_buffer *out, pm_error *err)
{
	const pm_file_index_plan *plan = w->plan;
	pm_byte_buffer body;
	size_t	   *start = pm_arena_alloc(w->arena, sizeof(size_t) * (size_t) (plan->nspecs + 1));
	int			ncols = 0;
	size_t		head;
	pm_code		rc = PM_OK;

	if (start == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	pm_byte_buffer_init(&body, w->env);
	for (int i = 0; i < plan->nspecs && rc == PM_OK; i++)
	{
		index_state *st = &w->states[i];

		start[i] = body.len;
		switch (st->spec->kind)
		{
			case PM_FILE_INDEX_BLOOM_FILTER:
				pm_bloom_filter_write_serialize(&st->bloom, &body);
				break;
			case PM_FILE_INDEX_BITMAP:
				rc = pm_bitmap_index_write(&st->values, st->spec->bitmap_version,
										   st->spec->block_size, &body, err);
				break;
			case PM_FILE_INDEX_RANGE_BITMAP:
				rc = pm_range_bitmap_index_write(&st->values, st->spec->chunk_size, &body, err);
				break;
			case PM_FILE_INDEX_BSI:
				rc = pm_bsi_index_write(&st->values, &body, err);
				break;
		}
	}
	start[plan->nspecs] = body.len;
	if (rc == PM_OK && body.failed)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (rc != PM_OK)
	{
		pm_byte_buffer_free(&body);
		return rc;
	}
	/* head: specs of one column are adjacent (plan order) */
	head = 8 + 4 + 4 + 4 + 4;
	for (int i = 0; i < plan->nspecs; i++)
	{
		if (i == 0 || strcmp(plan->specs[i].column, plan->specs[i - 1].column) != 0)
		{
			ncols++;
			head += 4 + pm_java_utf_size(plan->specs[i].column);
		}
		head += 8 + pm_java_utf_size(pm_file_index_kind_name(plan->specs[i].kind));
	}
	if (head + body.len > INT32_MAX)
	{
		pm_byte_buffer_free(&body);
		return pm_fail(err, PM_ERR_UNSUPPORTED, "file index container above 2 GiB");
	}
	put_i32(out, (int32_t) (PM_FILE_INDEX_MAGIC >> 32));
	put_i32(out, (int32_t) PM_FILE_INDEX_MAGIC);
	put_i32(out, PM_FILE_INDEX_VERSION);
	put_i32(out, (int32_t) head);
	put_i32(out, ncols);
	for (int i = 0; i < plan->nspecs;)
	{
		int			j = i;

		while (j < plan->nspecs && strcmp(plan->specs[j].column, plan->specs[i].column) == 0)
			j++;
		pm_java_write_utf(out, plan->specs[i].column);
		put_i32(out, j - i);
		for (int k = i; k < j; k++)
		{
			pm_java_write_utf(out, pm_file_index_kind_name(plan->specs[k].kind));
			put_i32(out, (int32_t) (head + start[k]));
			put_i32(out, (int32_t) (start[k + 1] - start[k]));
		}
		i = j;
	}
	put_i32(out, 0);			/* redundant length */
	pm_byte_buffer_append(out, body.data, body.len);
	pm_byte_buffer_free(&body);
	if (out->failed)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

pm_code
pm_file_index_writer_serialize(pm_file_index_writer *w, pm_arena *arena, uint8_t **bytes,
							   size_t *len, pm_error *err)
{
	pm_byte_buffer out;
	pm_code		rc;

	pm_byte_buffer_init(&out, w->env);
	rc = serialize(w, &out, err);
	if (rc == PM_OK)
	{
		*bytes = pm_arena_alloc(arena, out.len + 1);
		if (*bytes == NULL)
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		else
		{
			memcpy(*bytes, out.data, out.len);
			*len = out.len;
		}
	}
	pm_byte_buffer_free(&out);
	return rc;
}

pm_code
pm_file_index_writer_finish(pm_file_index_writer *w, pm_fileio *io, const char *data_file_path,
							pm_arena *arena, const uint8_t **embedded, int32_t *embedded_len,
							const char **extra_file, const char **extra_path, pm_error *err)
{
	uint8_t    *bytes;
	size_t		len;
	char	   *path;
	const char *slash;
	pm_out_file *f;
	pm_code		rc;

	*embedded = NULL;
	*embedded_len = 0;
	*extra_file = NULL;
	*extra_path = NULL;
	PM_TRY(pm_file_index_writer_serialize(w, arena, &bytes, &len, err));
	if ((int64_t) len <= w->plan->in_manifest_threshold)
	{
		*embedded = bytes;
		*embedded_len = (int32_t) len;
		return PM_OK;
	}
	/* DataFilePathFactory.dataFileToFileIndexPath: <data file>.index */
	path = pm_arena_sprintf(arena, "%s.index", data_file_path);
	if (path == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	slash = strrchr(path, '/');
	PM_TRY(pm_out_file_create(io, path, &f, err));
	rc = pm_out_file_append(io, f, bytes, len, err);
	if (rc == PM_OK)
		rc = pm_out_file_finish(io, f, err);
	if (rc != PM_OK)
	{
		pm_out_file_discard(io, f);
		return rc;
	}
	*extra_file = slash != NULL ? slash + 1 : path;
	*extra_path = path;
	return PM_OK;
}

void
pm_file_index_writer_free(pm_file_index_writer *w)
{
	if (w != NULL)
		pm_arena_destroy(w->arena);
}
