/*-------------------------------------------------------------------------
 * parquet_key_probe.c
 *	  pm_parquet_key_probe: a value in a sorted Parquet column, found by
 *	  the page index and a binary search of decoded pages, both cached
 *	  (see parquet_key_probe.h).
 *
 * The key cache (one pm_lru) holds two kinds of entries:
 *	 index	(path, size, column): per row group its rows, codec, dictionary
 *			page range and, per data page, where it lies, its first row
 *			and its ColumnIndex bounds (PLAIN bytes, as stored)
 *	 page	(path, size, column, row group, page): the page's values,
 *			decoded and sorted as in the file: int64 for integer types,
 *			offsets + bytes for strings and binaries
 * A probe compares the key with every page's bounds (a few hundred per
 * file at most: cheaper than one decompression), and binary-searches the
 * pages whose bounds hold it. Pages are read with the dictionary page in
 * front (a column switches to plain encoding partway, its first pages are
 * dictionary-encoded) and decoded by the column reader.
 *
 * A PLAIN page of a required BIGINT column is already the sorted int64
 * array: its entry points into the decompressed page the page cache holds
 * (pinned, see common/page_lru.h) instead of a copy, so the key pages a
 * lookup reads are in memory once, not twice. The entry is charged as a
 * copy would be (the key cache's budget still counts the pages it keeps).
 *
 * Assumes what parquet-mr writes for a sorted column: a page index with
 * TYPE_ORDER bounds. Anything else is UNKNOWN.
 *-------------------------------------------------------------------------
 */
#include "format/parquet/parquet_key_probe.h"

#include <stdlib.h>
#include <string.h>

#include "common/page_lru.h"
#include "common/vector.h"
#include "format/parquet/column_reader.h"
#include "format/parquet/parquet_page_index.h"
#include "format/parquet/parquet_reader.h"

enum
{
	KIND_INDEX = 1,
	KIND_PAGE = 2
};

typedef struct probe_page
{
	int64_t		offset;			/* page header's file offset */
	int32_t		size;			/* header + payload */
	int64_t		first_row;		/* in its row group */
	bool		null_page;
	bool		has_bounds;
	uint32_t	min_off,
				min_len,
				max_off,
				max_len;		/* into the entry's blob */
} probe_page;

typedef struct probe_rg
{
	int64_t		first_row;		/* in the file */
	int64_t		num_rows;
	int			codec;
	int64_t		dict_off;		/* 0: no dictionary page */
	int64_t		dict_len;
	int			npages;
	probe_page *pages;
} probe_rg;

typedef struct probe_entry
{
	pm_lru_node node;			/* first: the entry is its node */
	int			kind;
	int64_t		file_size;
	int			rg;				/* page entries */
	int			page;
	char	   *path;
	char	   *column;
	/* index */
	pm_pq_node	leaf;			/* copy, tree pointers cleared */
	int			sorted_as;		/* bounds ascend page by page as this physical type
								 * (binary search), else -1 */
	bool		groups_ascend;	/* ... and row group by row group (sorted_as >= 0) */
	int			nrg;
	probe_rg   *rgs;
	uint8_t    *blob;
	/* page */
	int64_t		n;
	bool		is_bytes;
	int64_t    *ints;			/* n; owned, or in `pin` */
	int64_t		first_int;		/* ints[0] and ints[n - 1], kept in the entry: */
	int64_t		last_int;		/* the search's first step misses no line for them */
	int32_t    *offs;			/* n + 1 */
	uint8_t    *data;
	pm_page_entry *pin;			/* the page cache's page that ints points into */
} probe_entry;

typedef struct probe_key
{
	int			kind;
	int64_t		file_size;
	const char *path;
	const char *column;
	int			rg;
	int			page;
	uint64_t	file_hash;		/* of path, column and file_size (file_hash_of) */
} probe_key;

static void
free_entry(pm_lru_node *node)
{
	probe_entry *e = (probe_entry *) node;

	if (e->rgs != NULL)
		for (int g = 0; g < e->nrg; g++)
			free(e->rgs[g].pages);
	free(e->rgs);
	free(e->blob);
	if (e->pin != NULL)
		pm_page_lru_unpin(e->pin);
	else
		free(e->ints);
	free(e->offs);
	free(e->data);
	free(e->path);
	free(e->column);
	free(e);
}

static pm_lru cache = {.free_entry = free_entry, .min_buckets = 1024};

/* The part of the hash every key of one probe shares: computed once per probe. */
static uint64_t
file_hash_of(const char *path, const char *column, int64_t file_size)
{
	uint64_t	h = pm_lru_hash_bytes(PM_LRU_HASH_SEED, path, strlen(path));

	h = pm_lru_hash_bytes(h, column, strlen(column));
	return pm_lru_hash_mix(h, (uint64_t) file_size);
}

static uint64_t
key_hash(const probe_key *k)
{
	uint64_t	h = pm_lru_hash_mix(k->file_hash, (uint64_t) k->kind);

	h = pm_lru_hash_mix(h, ((uint64_t) (uint32_t) k->rg << 32) | (uint32_t) k->page);
	return h ^ (h >> 29);
}

static bool
match(const pm_lru_node *node, const void *key)
{
	const probe_entry *e = (const probe_entry *) node;
	const probe_key *k = key;

	return e->kind == k->kind && e->file_size == k->file_size && e->rg == k->rg &&
		e->page == k->page && strcmp(e->path, k->path) == 0 &&
		strcmp(e->column, k->column) == 0;
}

void
pm_parquet_key_cache_set_budget(size_t bytes)
{
	pm_lru_set_budget(&cache, bytes);
}

bool
pm_parquet_key_cache_enabled(void)
{
	return pm_lru_enabled(&cache);
}

void
pm_parquet_key_cache_get_stats(pm_lru_stats *out)
{
	pm_lru_get_stats(&cache, out);
}

/* A new entry of key k (no payload yet); NULL when out of memory. */
static probe_entry *
entry_new(const probe_key *k)
{
	probe_entry *e = calloc(1, sizeof(probe_entry));

	if (e == NULL)
		return NULL;
	e->kind = k->kind;
	e->file_size = k->file_size;
	e->rg = k->rg;
	e->page = k->page;
	e->path = strdup(k->path);
	e->column = strdup(k->column);
	if (e->path == NULL || e->column == NULL)
	{
		free_entry(&e->node);
		return NULL;
	}
	e->node.hash = key_hash(k);
	e->node.charge = sizeof(probe_entry) + strlen(k->path) + strlen(k->column) + 2;
	return e;
}

/* The physical type a key type is stored as; -1: not handled. */
static int
physical_of(const pm_type *type)
{
	switch (type->id)
	{
		case PM_TYPE_TINYINT:
		case PM_TYPE_SMALLINT:
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
			return PM_PQ_INT32;
		case PM_TYPE_BIGINT:
			return PM_PQ_INT64;
		case PM_TYPE_VARCHAR:
		case PM_TYPE_VARBINARY:
			/* not CHAR(n), BINARY(n): padding would make equal values differ */
			return PM_PQ_BYTE_ARRAY;
		default:
			return -1;
	}
}

/* key vs a PLAIN bound of the physical type: <0, 0, >0; 2: not comparable. */
static int
cmp_bound(int physical, const pm_value *key, const uint8_t *b, uint32_t len)
{
	if (physical == PM_PQ_INT32 || physical == PM_PQ_INT64)
	{
		int64_t		v;

		if (physical == PM_PQ_INT32)
		{
			int32_t		w;

			if (len != 4)
				return 2;
			memcpy(&w, b, 4);
			v = w;
		}
		else
		{
			if (len != 8)
				return 2;
			memcpy(&v, b, 8);
		}
		return key->u.i64 < v ? -1 : key->u.i64 > v;
	}
	else
	{
		size_t		kl = (size_t) key->u.bytes.len;
		size_t		m = kl < len ? kl : len;
		int			c = m > 0 ? memcmp(key->u.bytes.ptr, b, m) : 0;

		if (c != 0)
			return c < 0 ? -1 : 1;
		return kl < len ? -1 : kl > len;
	}
}

/* A bound as a key value (bytes point into b); false: not comparable. */
static bool
bound_value(int physical, const uint8_t *b, uint32_t len, pm_value *v)
{
	memset(v, 0, sizeof(*v));
	if (physical == PM_PQ_INT32)
	{
		int32_t		w;

		if (len != 4)
			return false;
		memcpy(&w, b, 4);
		v->u.i64 = w;
		return true;
	}
	if (physical == PM_PQ_INT64)
	{
		if (len != 8)
			return false;
		memcpy(&v->u.i64, b, 8);
		return true;
	}
	v->u.bytes.ptr = b;
	v->u.bytes.len = (int32_t) len;
	return true;
}

/*
 * Do the page bounds of every row group ascend (min <= max of each page,
 * max of a page <= min of the next, no null page)? Then the pages that
 * may hold a key are found by binary search. A sorted key column's are;
 * truncated byte bounds may not be (the linear scan is kept for them).
 */
static bool
bounds_sorted(const probe_entry *e, int physical)
{
	for (int g = 0; g < e->nrg; g++)
		for (int p = 0; p < e->rgs[g].npages; p++)
		{
			const probe_page *pg = &e->rgs[g].pages[p];
			pm_value	v;

			if (pg->null_page || !pg->has_bounds ||
				!bound_value(physical, e->blob + pg->min_off, pg->min_len, &v) ||
				cmp_bound(physical, &v, e->blob + pg->max_off, pg->max_len) > 0)
				return false;
			if (p > 0)
			{
				const probe_page *prev = &e->rgs[g].pages[p - 1];

				if (!bound_value(physical, e->blob + prev->max_off, prev->max_len, &v) ||
					cmp_bound(physical, &v, e->blob + pg->min_off, pg->min_len) > 0)
					return false;
			}
		}
	return true;
}

/*
 * Do the row groups ascend too (bounds_sorted holds; every row group has a
 * page, the last page's max of one <= the first page's min of the next)?
 * The first key column of a data file does: the file is sorted by key.
 */
static bool
groups_ascend(const probe_entry *e, int physical)
{
	for (int g = 0; g < e->nrg; g++)
	{
		const probe_rg *prev = g > 0 ? &e->rgs[g - 1] : NULL;
		pm_value	v;

		if (e->rgs[g].npages == 0)
			return false;
		if (prev != NULL &&
			(!bound_value(physical, e->blob + prev->pages[prev->npages - 1].max_off,
						  prev->pages[prev->npages - 1].max_len, &v) ||
			 cmp_bound(physical, &v, e->blob + e->rgs[g].pages[0].min_off,
					   e->rgs[g].pages[0].min_len) > 0))
			return false;
	}
	return true;
}

/*
 * The first row group whose last page's max bound is >= key when the row
 * groups ascend as physical, else 0 (every row group is looked at).
 */
static int
first_group_reaching(const probe_entry *e, int physical, const pm_value *key)
{
	int			lo = 0;
	int			hi = e->nrg;

	if (e->sorted_as != physical || !e->groups_ascend)
		return 0;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		const probe_rg *rg = &e->rgs[mid];
		const probe_page *pg = &rg->pages[rg->npages - 1];
		int			c = cmp_bound(physical, key, e->blob + pg->max_off, pg->max_len);

		if (c == 2)
			return 0;
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The first page of row group g whose max bound is >= key when the bounds
 * ascend as physical, else 0 (every page is looked at).
 */
static int
first_page_reaching(const probe_entry *e, int g, int physical, const pm_value *key)
{
	int			lo = 0;
	int			hi = e->rgs[g].npages;

	if (e->sorted_as != physical)
		return 0;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		const probe_page *pg = &e->rgs[g].pages[mid];
		int			c = cmp_bound(physical, key, e->blob + pg->max_off, pg->max_len);

		if (c == 2)
			return 0;
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The top-level flat leaf named column, or NULL. */
static const pm_pq_node *
find_leaf(const pm_pq_metadata *md, const char *column)
{
	for (int i = 0; i < md->root->nchildren; i++)
	{
		const pm_pq_node *n = md->root->children[i];

		if (n->leaf_index >= 0 && n->max_rep == 0 && strcmp(n->name, column) == 0)
			return n;
	}
	return NULL;
}

/* Build the index entry of k from the file's footer and page indexes. */
static probe_entry *
load_index(pm_fileio *io, pm_file *file, const probe_key *k, int physical, pm_arena *arena)
{
	pm_pq_metadata md;
	const pm_pq_node *leaf;
	uint64_t	size;
	pm_read_range *ranges;
	probe_entry *e;
	size_t		blob_len = 0,
				at = 0;
	pm_pq_offset_index *ois;
	pm_pq_column_index *cis;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_parquet_read_metadata(io, file, k->path, arena, &size, &md, &err) != PM_OK ||
		(int64_t) size != k->file_size || (leaf = find_leaf(&md, k->column)) == NULL ||
		leaf->physical != physical || md.type_defined_order == NULL ||
		leaf->leaf_index >= md.ncolumn_orders || !md.type_defined_order[leaf->leaf_index] ||
		md.nrow_groups <= 0)
		return NULL;
	ranges = pm_arena_zalloc(arena, sizeof(pm_read_range) * (size_t) md.nrow_groups * 2);
	ois = pm_arena_zalloc(arena, sizeof(pm_pq_offset_index) * (size_t) md.nrow_groups);
	cis = pm_arena_zalloc(arena, sizeof(pm_pq_column_index) * (size_t) md.nrow_groups);
	if (ranges == NULL || ois == NULL || cis == NULL)
		return NULL;
	for (int g = 0; g < md.nrow_groups; g++)
	{
		const pm_pq_chunk *ch = &md.row_groups[g].columns[leaf->leaf_index];

		if (ch->offset_index_length <= 0 || ch->column_index_length <= 0)
			return NULL;
		ranges[2 * g].offset = (uint64_t) ch->offset_index_offset;
		ranges[2 * g].length = (size_t) ch->offset_index_length;
		ranges[2 * g + 1].offset = (uint64_t) ch->column_index_offset;
		ranges[2 * g + 1].length = (size_t) ch->column_index_length;
	}
	for (int i = 0; i < 2 * md.nrow_groups; i++)
		if ((ranges[i].buf = pm_arena_alloc(arena, ranges[i].length)) == NULL)
			return NULL;
	if (pm_file_read_ranges(io, file, ranges, 2 * md.nrow_groups, &err) != PM_OK)
		return NULL;
	for (int g = 0; g < md.nrow_groups; g++)
	{
		const pm_pq_chunk *ch = &md.row_groups[g].columns[leaf->leaf_index];

		if (pm_pq_offset_index_parse(ranges[2 * g].buf, ranges[2 * g].length, ch,
									 md.row_groups[g].num_rows, arena, &ois[g], &err) != PM_OK ||
			pm_pq_column_index_parse(ranges[2 * g + 1].buf, ranges[2 * g + 1].length,
									 ois[g].npages, arena, &cis[g], &err) != PM_OK)
			return NULL;
		for (int p = 0; p < ois[g].npages; p++)
			if (!cis[g].null_page[p])
				blob_len += (size_t) cis[g].min_len[p] + cis[g].max_len[p];
	}
	if ((e = entry_new(k)) == NULL)
		return NULL;
	e->leaf = *leaf;
	e->leaf.parent = NULL;
	e->leaf.children = NULL;
	e->leaf.nchildren = 0;
	e->leaf.name = e->column;
	e->nrg = md.nrow_groups;
	e->rgs = calloc((size_t) md.nrow_groups, sizeof(probe_rg));
	e->blob = malloc(blob_len + 1);
	if (e->rgs == NULL || e->blob == NULL)
	{
		free_entry(&e->node);
		return NULL;
	}
	e->node.charge += sizeof(probe_rg) * (size_t) md.nrow_groups + blob_len;
	for (int g = 0; g < md.nrow_groups; g++)
	{
		const pm_pq_chunk *ch = &md.row_groups[g].columns[leaf->leaf_index];
		probe_rg   *rg = &e->rgs[g];

		rg->first_row = g > 0 ? e->rgs[g - 1].first_row + e->rgs[g - 1].num_rows : 0;
		rg->num_rows = md.row_groups[g].num_rows;
		rg->codec = ch->codec;
		if (ch->dictionary_page_offset > 0 && ch->dictionary_page_offset < ois[g].offset[0])
		{
			rg->dict_off = ch->dictionary_page_offset;
			rg->dict_len = ois[g].offset[0] - ch->dictionary_page_offset;
		}
		rg->npages = ois[g].npages;
		if ((rg->pages = calloc((size_t) rg->npages + 1, sizeof(probe_page))) == NULL)
		{
			free_entry(&e->node);
			return NULL;
		}
		e->node.charge += sizeof(probe_page) * (size_t) (rg->npages + 1);
		for (int p = 0; p < rg->npages; p++)
		{
			probe_page *pg = &rg->pages[p];

			pg->offset = ois[g].offset[p];
			pg->size = ois[g].size[p];
			pg->first_row = ois[g].first_row[p];
			pg->null_page = cis[g].null_page[p];
			if (pg->null_page)
				continue;
			pg->has_bounds = true;
			pg->min_off = (uint32_t) at;
			pg->min_len = cis[g].min_len[p];
			memcpy(e->blob + at, cis[g].min[p], cis[g].min_len[p]);
			at += cis[g].min_len[p];
			pg->max_off = (uint32_t) at;
			pg->max_len = cis[g].max_len[p];
			memcpy(e->blob + at, cis[g].max[p], cis[g].max_len[p]);
			at += cis[g].max_len[p];
		}
	}
	e->sorted_as = bounds_sorted(e, physical) ? physical : -1;
	e->groups_ascend = e->sorted_as >= 0 && groups_ascend(e, physical);
	return e;
}

/*
 * The page entry of k in place: when the page just loaded into col is a
 * PLAIN page of a required BIGINT column held by the page cache, an entry
 * whose ints are the cached page's values (pinned); else NULL.
 */
static probe_entry *
page_in_place(const pm_pq_column *col, const pm_page_file *pf, int64_t off, size_t span,
			  const probe_key *k, const pm_type *type, int64_t rows)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	pm_page_entry *pin;
	const pm_pq_page_header *ph;
	const uint8_t *data;
	size_t		len;
	size_t		ml;
	probe_entry *e;

	if (type->id != PM_TYPE_BIGINT || col->conv != PM_PQ_CV_COPY8 || col->max_def != 0 ||
		col->max_rep != 0 || col->page_dict || col->vals.width != 8 ||
		col->vals.fixed == NULL || !pm_page_lru_enabled() ||
		(pin = pm_page_lru_pin(pf, off, 0)) == NULL)
		return NULL;
	data = pm_page_entry_data(pin, &len);
	ph = pm_page_entry_meta(pin, &ml);
	/* a PLAIN data page whose payload is the values and nothing else (no levels) */
	if (ml != sizeof(*ph) || pm_page_entry_span(pin) != span ||
		(ph->type != PM_PQ_PAGE_DATA && ph->type != PM_PQ_PAGE_DATA_V2) ||
		ph->encoding != PM_PQ_ENC_PLAIN || ph->num_values != rows ||
		(ph->type == PM_PQ_PAGE_DATA_V2 && (ph->def_levels_len != 0 || ph->rep_levels_len != 0)) ||
		len != (size_t) rows * 8 || ((uintptr_t) data & 7) != 0 ||
		(e = entry_new(k)) == NULL)
	{
		pm_page_lru_unpin(pin);
		return NULL;
	}
	e->n = rows;
	e->pin = pin;
	e->ints = (int64_t *) (uintptr_t) data;
	e->node.charge += sizeof(int64_t) * (size_t) rows;
	return e;
#else
	(void) col, (void) pf, (void) off, (void) span, (void) k, (void) type, (void) rows;
	return NULL;
#endif
}

/* Build the page entry of k: page p of row group g, decoded. */
static probe_entry *
load_page(const pm_env *env, pm_fileio *io, pm_file *file, const probe_entry *ix,
		  const probe_key *k, const pm_type *type, pm_arena *arena)
{
	const probe_rg *rg = &ix->rgs[k->rg];
	const probe_page *pg = &rg->pages[k->page];
	int64_t		rows = (k->page + 1 < rg->npages ? rg->pages[k->page + 1].first_row :
						rg->num_rows) - pg->first_row;
	size_t		len = (size_t) rg->dict_len + (size_t) pg->size;
	uint8_t    *buf;
	pm_read_range rr[2];
	int			nr = 0;
	pm_pq_column col;
	pm_vector	v;
	int64_t		data_cap = 0;
	bool		have = false;
	probe_entry *e = NULL;
	pm_error	err;
	bool		ok = false;

	pm_page_file pf;
	pm_page_entry *hit[2] = {NULL, NULL};
	int64_t		off[2] = {rg->dict_off, pg->offset};
	size_t		plen[2] = {(size_t) rg->dict_len, (size_t) pg->size};
	bool		caching = pm_page_lru_enabled();

	pm_error_clear(&err);
	if (rows <= 0 || pg->size <= 0 || rg->dict_len < 0 || (buf = pm_arena_alloc(arena, len)) == NULL ||
		pm_pq_column_init(&col, env, &ix->leaf, type, ix->column, &err) != PM_OK)
		return NULL;

	/*
	 * The dictionary and the key page go through the page cache as the
	 * reader's pages do (common/page_lru.h): the reader then finds the key
	 * page decompressed, and a page it holds is not read here.
	 */
	pm_page_file_init(&pf, k->path, k->file_size);
	for (int i = rg->dict_len > 0 ? 0 : 1; i < 2; i++)
	{
		size_t		pos = i == 0 ? 0 : (size_t) rg->dict_len;

		if (caching)
		{
			col.page_file = &pf;
			hit[i] = pm_page_lru_pin(&pf, off[i], 0);
			if (hit[i] != NULL && pm_page_entry_span(hit[i]) != plen[i])
			{
				pm_page_lru_unpin(hit[i]);
				hit[i] = NULL;
			}
			if (!pm_pq_column_add_piece(&col, pos, off[i], plen[i], hit[i]))
			{
				pm_pq_column_release(&col);
				return NULL;
			}
		}
		if (hit[i] == NULL)
		{
			rr[nr].offset = (uint64_t) off[i];
			rr[nr].length = plen[i];
			rr[nr].buf = buf + pos;
			nr++;
		}
	}
	if (nr > 0 && pm_file_read_ranges(io, file, rr, nr, &err) != PM_OK)
	{
		pm_pq_column_release(&col);
		return NULL;
	}
	if (pm_pq_column_start_chunk(&col, buf, len, rg->codec, rows, arena, &err) == PM_OK &&
		pm_pq_column_next_page(&col, &have, &err) == PM_OK && have &&
		col.page_n == rows && col.page_nonnull == rows &&
		(e = page_in_place(&col, &pf, off[1], plen[1], k, type, rows)) != NULL)
		ok = true;
	else if (e == NULL && have && col.page_n == rows && col.page_nonnull == rows &&
		pm_vector_init(&v, type, rows, false, arena) &&
		pm_pq_column_write_values(&col, rows, &v, 0, rows, &data_cap, arena, &err) == PM_OK &&
		(e = entry_new(k)) != NULL)
	{
		e->n = rows;
		if (physical_of(type) == PM_PQ_BYTE_ARRAY)
		{
			size_t		dl = (size_t) v.offsets[rows];

			e->is_bytes = true;
			e->offs = malloc(sizeof(int32_t) * (size_t) (rows + 1));
			e->data = malloc(dl + 1);
			if (e->offs != NULL && e->data != NULL)
			{
				memcpy(e->offs, v.offsets, sizeof(int32_t) * (size_t) (rows + 1));
				memcpy(e->data, v.data, dl);
				e->node.charge += sizeof(int32_t) * (size_t) (rows + 1) + dl;
				ok = true;
			}
		}
		else if ((e->ints = malloc(sizeof(int64_t) * (size_t) rows)) != NULL)
		{
			for (int64_t i = 0; i < rows; i++)
				switch (type->id)
				{
					case PM_TYPE_TINYINT:
						e->ints[i] = PM_VEC_VALUES(&v, int8_t)[i];
						break;
					case PM_TYPE_SMALLINT:
						e->ints[i] = PM_VEC_VALUES(&v, int16_t)[i];
						break;
					case PM_TYPE_BIGINT:
						e->ints[i] = PM_VEC_VALUES(&v, int64_t)[i];
						break;
					default:
						e->ints[i] = PM_VEC_VALUES(&v, int32_t)[i];
						break;
				}
			e->node.charge += sizeof(int64_t) * (size_t) rows;
			ok = true;
		}
	}
	pm_pq_column_release(&col);
	if (ok && !e->is_bytes && e->n > 0)
	{
		e->first_int = e->ints[0];
		e->last_int = e->ints[e->n - 1];
	}
	if (!ok && e != NULL)
	{
		free_entry(&e->node);
		e = NULL;
	}
	return e;
}

/*
 * Interpolation steps over sorted int64 values: narrows [*lo, *hi) around
 * key by its position between the bounds' values, a few steps at most (a
 * step costs one cache miss, as a binary search step does, but on keys
 * spread evenly, as ids mostly are, lands next to the key at once instead
 * of halving a 20,000-value page 15 times). first and last are v[*lo] and
 * v[*hi - 1] as given. Returns the index of key when a step hits it, else
 * -1 with the range left for the binary search.
 */
static int64_t
interpolate(const int64_t *v, int64_t *lo, int64_t *hi, int64_t key, int64_t first,
			int64_t last)
{
	for (int step = 0; step < 3 && *hi - *lo > 16; step++)
	{
		int64_t		a = step == 0 ? first : v[*lo];
		int64_t		b = step == 0 ? last : v[*hi - 1];
		int64_t		at;

		if (key <= a || key >= b)
			break;				/* the bounds decide (or the binary search does) */
		at = *lo + (int64_t) ((unsigned __int128) ((uint64_t) key - (uint64_t) a) *
							  (uint64_t) (*hi - 1 - *lo) / ((uint64_t) b - (uint64_t) a));
		if (v[at] == key)
			return at;
		if (v[at] < key)
			*lo = at + 1;
		else
			*hi = at;
	}
	return -1;
}

/* Search of a page entry: the index of key among its (sorted) values, or -1. */
static int64_t
page_find(const probe_entry *e, const pm_value *key)
{
	int64_t		lo = 0,
				hi = e->n;

	if (!e->is_bytes)
	{
		int64_t		at = interpolate(e->ints, &lo, &hi, key->u.i64, e->first_int, e->last_int);

		if (at >= 0)
			return at;
	}

	while (lo < hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;
		int			c;

		if (!e->is_bytes)
			c = e->ints[mid] < key->u.i64 ? -1 : e->ints[mid] > key->u.i64;
		else
		{
			size_t		ml = (size_t) (e->offs[mid + 1] - e->offs[mid]);
			size_t		kl = (size_t) key->u.bytes.len;
			size_t		m = ml < kl ? ml : kl;

			c = m > 0 ? memcmp(e->data + e->offs[mid], key->u.bytes.ptr, m) : 0;
			c = c != 0 ? (c < 0 ? -1 : 1) : (ml < kl ? -1 : ml > kl);
		}
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * The cached entry of k, else built by load (the file opened on demand,
 * *file kept open for the next load) and cached. The result stays valid
 * until the next insert: the caller uses it before asking for another.
 */
static probe_entry *
get_index(const pm_env *env, pm_fileio *io, pm_file **file, const probe_key *k, int physical,
		  pm_arena **arena)
{
	uint64_t	hash = key_hash(k);
	probe_entry *e = (probe_entry *) pm_lru_get(&cache, hash, match, k);
	pm_error	err;

	if (e != NULL)
		return e;
	if (*arena == NULL && (*arena = pm_arena_create(env)) == NULL)
		return NULL;
	pm_error_clear(&err);
	if (*file == NULL && pm_file_open(io, k->path, file, &err) != PM_OK)
	{
		*file = NULL;
		return NULL;
	}
	if ((e = load_index(io, *file, k, physical, *arena)) == NULL)
		return NULL;
	return pm_lru_insert(&cache, &e->node) ? e : NULL;
}

/* Value i of a page entry equals key? */
static bool
value_is(const probe_entry *e, int64_t i, const pm_value *key)
{
	if (!e->is_bytes)
		return e->ints[i] == key->u.i64;
	return e->offs[i + 1] - e->offs[i] == key->u.bytes.len &&
		(key->u.bytes.len == 0 ||
		 memcmp(e->data + e->offs[i], key->u.bytes.ptr, (size_t) key->u.bytes.len) == 0);
}

/*
 * Is row at the only one of the column that holds key? Not when a
 * neighbour in the page holds it too, or when it is first or last of its
 * page (the key may go on in the next or previous page): a position is
 * given only when it is certain.
 */
static bool
only_row(const probe_entry *e, int64_t at, const pm_value *key)
{
	return at > 0 && at + 1 < e->n && !value_is(e, at - 1, key) && !value_is(e, at + 1, key);
}

/* The file row of row `at` of page p of row group g. */
static int64_t
file_row(const probe_entry *ix, int g, int p, int64_t at)
{
	return ix->rgs[g].first_row + ix->rgs[g].pages[p].first_row + at;
}

/* The file rows [*start, *end) of the candidate pages (cand_rg/cand_page). */
static void
pages_span(const probe_entry *ix, const int *cand_rg, const int *cand_page, int ncand,
		   int64_t *start, int64_t *end)
{
	for (int i = 0; i < ncand; i++)
	{
		const probe_rg *rg = &ix->rgs[cand_rg[i]];
		int			p = cand_page[i];
		int64_t		s = rg->first_row + rg->pages[p].first_row;
		int64_t		e = rg->first_row + (p + 1 < rg->npages ? rg->pages[p + 1].first_row :
										  rg->num_rows);

		if (i == 0 || s < *start)
			*start = s;
		if (i == 0 || e > *end)
			*end = e;
	}
}

pm_pq_probe
pm_parquet_key_probe(const pm_env *env, pm_fileio *io, const char *path, int64_t file_size,
					 const char *column, const pm_type *type, const pm_value *key,
					 int64_t *row, int64_t *span)
{
	probe_key	k = {KIND_INDEX, file_size, path, column, -1, -1, 0};
	int			physical = physical_of(type);
	pm_arena   *arena = NULL;
	pm_file    *file = NULL;
	probe_entry *ix;
	pm_pq_probe result = PM_PQ_PROBE_ABSENT;
	int			ncand = 0;
	int			cand_rg[8];
	int			cand_page[8];
	bool		ix_stale = false;	/* a page was inserted since ix was got */
	bool		past = false;	/* the pages left all start above the key */
	int64_t		span_start = -1,
				span_end = -1;

	if (row != NULL)
		*row = -1;
	if (span != NULL)
		span[0] = span[1] = -1;
	if (!pm_lru_enabled(&cache) || physical < 0 || key == NULL || key->is_null)
		return PM_PQ_PROBE_UNKNOWN;
	k.file_hash = file_hash_of(path, column, file_size);
	/* arena: made only when something is read (a cache miss) */
	if ((ix = get_index(env, io, &file, &k, physical, &arena)) == NULL)
	{
		result = PM_PQ_PROBE_UNKNOWN;
		goto done;
	}
	/* the pages whose bounds hold the key (sorted: a few at most) */
	for (int g = first_group_reaching(ix, physical, key);
		 g < ix->nrg && result == PM_PQ_PROBE_ABSENT && !past; g++)
		for (int p = first_page_reaching(ix, g, physical, key); p < ix->rgs[g].npages; p++)
		{
			const probe_page *pg = &ix->rgs[g].pages[p];
			int			lo,
						hi;

			if (pg->null_page)
				continue;
			lo = cmp_bound(physical, key, ix->blob + pg->min_off, pg->min_len);
			hi = cmp_bound(physical, key, ix->blob + pg->max_off, pg->max_len);
			if (lo == 2 || hi == 2 || ncand == 8)
			{
				result = PM_PQ_PROBE_UNKNOWN;
				break;
			}
			if (lo >= 0 && hi <= 0)
			{
				cand_rg[ncand] = g;
				cand_page[ncand] = p;
				ncand++;
			}
			else if (ix->sorted_as == physical && lo < 0)
			{
				/* this page and all after it start above the key */
				past = ix->groups_ascend;	/* ... and the row groups after it */
				break;
			}
		}
	if (result == PM_PQ_PROBE_ABSENT && ncand > 0)
		pages_span(ix, cand_rg, cand_page, ncand, &span_start, &span_end);
	/* ix may go once pages are inserted: keep what load_page needs of it */
	for (int i = 0; i < ncand && result == PM_PQ_PROBE_ABSENT; i++)
	{
		probe_key	pk = {KIND_PAGE, file_size, path, column, cand_rg[i], cand_page[i],
						  k.file_hash};
		uint64_t	hash = key_hash(&pk);
		probe_entry *pe = (probe_entry *) pm_lru_get(&cache, hash, match, &pk);
		int64_t		at;
		bool		only;
		bool		fresh = pe == NULL;

		if (pe == NULL)
		{
			pm_error	err;

			pm_error_clear(&err);
			/* the index again: another page's insert may have evicted it */
			if ((ix = get_index(env, io, &file, &k, physical, &arena)) == NULL ||
				(file == NULL && pm_file_open(io, path, &file, &err) != PM_OK) ||
				(arena == NULL && (arena = pm_arena_create(env)) == NULL) ||
				(pe = load_page(env, io, file, ix, &pk, type, arena)) == NULL)
			{
				result = PM_PQ_PROBE_UNKNOWN;
				break;
			}
			ix_stale = false;
		}
		/* pe may go with the next insert: use it first */
		at = page_find(pe, key);
		only = at >= 0 && only_row(pe, at, key);
		if (fresh)
		{
			(void) pm_lru_insert(&cache, &pe->node);	/* frees it if refused */
			ix_stale = true;
		}
		if (at >= 0)
		{
			result = PM_PQ_PROBE_PRESENT;
			/* the index again if an insert may have evicted it */
			if (row != NULL && only &&
				(!ix_stale || (ix = get_index(env, io, &file, &k, physical, &arena)) != NULL))
				*row = file_row(ix, cand_rg[i], cand_page[i], at);
		}
	}
done:
	if (result == PM_PQ_PROBE_PRESENT && span != NULL)
	{
		span[0] = span_start;
		span[1] = span_end;
	}
	if (file != NULL)
		pm_file_close(io, file);
	pm_arena_destroy(arena);
	return result;
}
