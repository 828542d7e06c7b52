/*-------------------------------------------------------------------------
 * bucket_assigner.c
 *	  Dynamic-bucket assignment of key hashes (bucket_assigner.h).
 *
 * The row counts per bucket live in an emulation of the java.util.HashMap
 * <Integer, Long> Java iterates (PartitionIndex.nonFullBucketInformation):
 * entries kept in iteration order, i.e. by bin (bucket & (table length -
 * 1); Integer.hashCode of a bucket id below 65536 is the id itself) and
 * within a bin by their place in its linked list. compute() (loadIndex)
 * checks for a resize first and links a new key at the head of its bin;
 * put() (a new bucket) links it at the tail and resizes after; a bin
 * reaching the treeify threshold in a table shorter than 64 resizes
 * instead; a resize splits every bin keeping relative order. Places are
 * numbers: a tail insert gets the next positive number, a head insert the
 * next negative one, so sorting by (bin, place) is the iteration order.
 *-------------------------------------------------------------------------
 */
#include "table/bucket_assigner.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/int_map.h"
#include "common/name_set.h"

#define SHORT_MAX 32767			/* bucket ids are Java shorts in the index */
#define TREEIFY_THRESHOLD 8
#define MIN_TREEIFY_CAPACITY 64

typedef struct bucket_count
{
	int32_t		bucket;
	int64_t		count;
	int64_t		place;			/* order within its bin */
} bucket_count;

/* HashMap<Integer, Long> bucket -> row count, entries in iteration order */
typedef struct count_map
{
	bucket_count *entries;
	int			n;
	int			cap;			/* allocated entries */
	int32_t		table_len;		/* HashMap table length, 0 before the first insert */
	int64_t		next_place;
	int32_t		sort_len;		/* table_len while sorting */
} count_map;

struct pm_partition_index
{
	pm_int_map	hash2bucket;
	count_map	non_full;
	uint8_t		used[(SHORT_MAX + 8) / 8];	/* totalBucketSet */
	int32_t    *used_list;		/* totalBucketArray */
	int			nused;
	int			used_cap;
	pm_bucket_assigner *owner;
};

struct pm_bucket_assigner
{
	const pm_env *env;
	pm_arena   *arena;
	pm_name_set *partitions;
	pm_partition_index **index; /* by partition number */
	int			nindex;
	int			index_cap;
	int64_t		target_row_num;
	int32_t		max_buckets;
	int32_t		max_bucket_id;	/* HashBucketAssigner.maxBucketId: largest assigned */
	uint64_t	random;
};

/* Grow an env-allocated array of elem_size elements to hold need. */
static bool
grow(const pm_env *env, void **array, int *cap, int need, size_t elem_size)
{
	int			ncap = *cap > 0 ? *cap : 8;
	void	   *grown;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	grown = pm_alloc(env, elem_size * (size_t) ncap);
	if (grown == NULL)
		return false;
	if (*array != NULL)
	{
		memcpy(grown, *array, elem_size * (size_t) *cap);
		pm_free(env, *array);
	}
	*array = grown;
	*cap = ncap;
	return true;
}

static int32_t
bin_of(int32_t bucket, int32_t table_len)
{
	return bucket & (table_len - 1);
}

static int64_t
threshold(const count_map *m)
{
	return (int64_t) m->table_len * 3 / 4;
}

static _Thread_local int32_t sort_table_len;

static int
compare_order(const void *a, const void *b)
{
	const bucket_count *x = a;
	const bucket_count *y = b;
	int32_t		bx = bin_of(x->bucket, sort_table_len);
	int32_t		by = bin_of(y->bucket, sort_table_len);

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->place < y->place ? -1 : (x->place > y->place ? 1 : 0);
}

/* HashMap.resize(): the first table has 16 bins, later ones twice as many. */
static void
resize(count_map *m)
{
	m->table_len = m->table_len == 0 ? 16 : m->table_len * 2;
	sort_table_len = m->table_len;
	if (m->n > 1)
		qsort(m->entries, (size_t) m->n, sizeof(bucket_count), compare_order);
}

static int
bin_size(const count_map *m, int32_t bucket)
{
	int			k = 0;

	for (int i = 0; i < m->n; i++)
		k += bin_of(m->entries[i].bucket, m->table_len) == bin_of(bucket, m->table_len);
	return k;
}

static bucket_count *
find(count_map *m, int32_t bucket)
{
	for (int i = 0; i < m->n; i++)
		if (m->entries[i].bucket == bucket)
			return &m->entries[i];
	return NULL;
}

/* Link a new entry at the head or tail of its bin. */
static bool
link_entry(const pm_env *env, count_map *m, int32_t bucket, int64_t count, bool at_head)
{
	bucket_count e;
	int			pos;

	if (!grow(env, (void **) &m->entries, &m->cap, m->n + 1, sizeof(bucket_count)))
		return false;
	e.bucket = bucket;
	e.count = count;
	e.place = at_head ? -(++m->next_place) : ++m->next_place;
	sort_table_len = m->table_len;
	for (pos = m->n; pos > 0 && compare_order(&m->entries[pos - 1], &e) > 0; pos--)
		;
	memmove(&m->entries[pos + 1], &m->entries[pos], sizeof(bucket_count) * (size_t) (m->n - pos));
	m->entries[pos] = e;
	m->n++;
	return true;
}

/* HashMap.compute(bucket, (b, n) -> n == null ? 1 : n + 1), plus `more` calls. */
static bool
compute_increment(const pm_env *env, count_map *m, int32_t bucket, int64_t times)
{
	bucket_count *e;

	if (m->table_len == 0 || m->n > threshold(m))
		resize(m);
	e = find(m, bucket);
	if (e != NULL)
		e->count++;
	else
	{
		int			k = bin_size(m, bucket);

		if (!link_entry(env, m, bucket, 1, true))
			return false;
		if (k >= TREEIFY_THRESHOLD - 1 && m->table_len < MIN_TREEIFY_CAPACITY)
			resize(m);
	}
	if (times > 1)
	{
		/* the other calls find the key; the first of them may resize */
		if (m->n > threshold(m))
			resize(m);
		find(m, bucket)->count += times - 1;
	}
	return true;
}

/* HashMap.put(bucket, count) of a new key. */
static bool
put_new(const pm_env *env, count_map *m, int32_t bucket, int64_t count)
{
	int			k;

	if (m->table_len == 0)
		resize(m);
	k = bin_size(m, bucket);
	if (!link_entry(env, m, bucket, count, false))
		return false;
	if (k >= TREEIFY_THRESHOLD && m->table_len < MIN_TREEIFY_CAPACITY)
		resize(m);
	if (m->n > threshold(m))
		resize(m);
	return true;
}

static void
remove_at(count_map *m, int i)
{
	memmove(&m->entries[i], &m->entries[i + 1], sizeof(bucket_count) * (size_t) (m->n - i - 1));
	m->n--;
}

pm_code
pm_bucket_assigner_create(const pm_env *env, int64_t target_row_num, int32_t max_buckets,
						  pm_bucket_assigner **out, pm_error *err)
{
	pm_arena   *arena;
	pm_bucket_assigner *a;

	*out = NULL;
	if (target_row_num <= 0)
		return pm_fail(err, PM_ERR_INVALID, "dynamic-bucket.target-row-num must be greater than 0");
	if (max_buckets != -1 && max_buckets <= 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "dynamic-bucket.max-buckets should either be equal to -1 (unlimited), or it must be greater than 0 (fixed upper bound)");
	arena = pm_arena_create(env);
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	a = pm_arena_zalloc(arena, sizeof(*a));
	if (a == NULL || (a->partitions = pm_name_set_create(arena)) == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	a->env = env;
	a->arena = arena;
	a->target_row_num = target_row_num;
	a->max_buckets = max_buckets;
	a->max_bucket_id = 0;
	a->random = 0x9e3779b97f4a7c15ull;
	*out = a;
	return PM_OK;
}

void
pm_bucket_assigner_free(pm_bucket_assigner *a)
{
	if (a == NULL)
		return;
	for (int i = 0; i < a->nindex; i++)
	{
		pm_partition_index *pi = a->index[i];

		pm_int_map_free(&pi->hash2bucket);
		pm_free(a->env, pi->non_full.entries);
		pm_free(a->env, pi->used_list);
	}
	pm_free(a->env, a->index);
	pm_arena_destroy(a->arena);
}

pm_partition_index *
pm_bucket_assigner_find(pm_bucket_assigner *a, const uint8_t *partition, int32_t len)
{
	int			i = pm_name_set_find(a->partitions, partition, (size_t) len);

	return i >= 0 ? a->index[i] : NULL;
}

pm_code
pm_bucket_assigner_add(pm_bucket_assigner *a, const uint8_t *partition, int32_t len,
					   pm_partition_index **out, pm_error *err)
{
	pm_partition_index *pi;
	int			i;

	*out = NULL;
	if (pm_bucket_assigner_find(a, partition, len) != NULL)
		return pm_fail(err, PM_ERR_INVALID, "the partition has a bucket index already");
	pi = pm_arena_zalloc(a->arena, sizeof(*pi));
	if (pi == NULL ||
		!grow(a->env, (void **) &a->index, &a->index_cap, a->nindex + 1, sizeof(*a->index)) ||
		!pm_name_set_add(a->partitions, partition, (size_t) len, &i))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	pm_int_map_init(&pi->hash2bucket, a->env);
	pi->owner = a;
	a->index[a->nindex++] = pi;
	*out = pi;
	return PM_OK;
}

static bool
mark_used(pm_partition_index *pi, int32_t bucket)
{
	if (pi->used[bucket / 8] & (1u << (bucket % 8)))
		return true;
	if (!grow(pi->owner->env, (void **) &pi->used_list, &pi->used_cap, pi->nused + 1,
			  sizeof(int32_t)))
		return false;
	pi->used[bucket / 8] |= (uint8_t) (1u << (bucket % 8));
	pi->used_list[pi->nused++] = bucket;
	return true;
}

pm_code
pm_partition_index_load(pm_partition_index *pi, int32_t bucket, const int32_t *hashes,
						int64_t n, pm_error *err)
{
	const pm_env *env = pi->owner->env;

	if (bucket < 0 || bucket > SHORT_MAX)
		return pm_fail(err, PM_ERR_CORRUPT, "a HASH index file of bucket %d: dynamic buckets are 0..%d",
					   (int) bucket, SHORT_MAX);
	if (n == 0)
		return PM_OK;
	if (!pm_int_map_reserve(&pi->hash2bucket, pi->hash2bucket.count + (size_t) n))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory loading %lld key hashes", (long long) n);
	for (int64_t i = 0; i < n; i++)
		if (!pm_int_map_put(&pi->hash2bucket, hashes[i], bucket, NULL))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if (!compute_increment(env, &pi->non_full, bucket, n) || !mark_used(pi, bucket))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

static uint64_t
next_random(pm_bucket_assigner *a)
{
	a->random ^= a->random << 13;
	a->random ^= a->random >> 7;
	a->random ^= a->random << 17;
	return a->random;
}

static pm_code
assign(pm_bucket_assigner *a, pm_partition_index *pi, int32_t hash, int32_t *bucket,
	   pm_error *err)
{
	count_map  *m = &pi->non_full;
	int32_t		global_max;

	/* 1. a key hash seen before */
	if (pm_int_map_get(&pi->hash2bucket, hash, bucket))
		return PM_OK;
	/* 2. the first bucket in HashMap order that is not full */
	while (m->n > 0)
	{
		if (m->entries[0].count < a->target_row_num)
		{
			m->entries[0].count++;
			*bucket = m->entries[0].bucket;
			goto found;
		}
		remove_at(m, 0);
	}
	/* 3. a new bucket: the smallest id not used yet */
	global_max = (a->max_buckets == -1 ? SHORT_MAX : a->max_buckets) - 1;
	if (pi->nused == 0 || a->max_bucket_id < global_max)
	{
		for (int32_t i = 0; i <= global_max; i++)
			if (!(pi->used[i / 8] & (1u << (i % 8))))
			{
				if (!put_new(a->env, m, i, 1) || !mark_used(pi, i))
					return pm_fail(err, PM_ERR_NOMEM, "out of memory");
				*bucket = i;
				goto found;
			}
		if (a->max_buckets == -1)
			return pm_fail(err, PM_ERR_INVALID,
						   "Too more bucket %d, you should increase target bucket row number %lld.",
						   (int) a->max_bucket_id, (long long) a->target_row_num);
	}
	/* 4. past dynamic-bucket.max-buckets: a random bucket of the partition */
	*bucket = pi->used_list[next_random(a) % (uint64_t) pi->nused];
found:
	if (!pm_int_map_put(&pi->hash2bucket, hash, *bucket, NULL))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

pm_code
pm_bucket_assigner_assign(pm_bucket_assigner *a, pm_partition_index *pi, int32_t hash,
						  int32_t *bucket, pm_error *err)
{
	PM_TRY(assign(a, pi, hash, bucket, err));
	if (*bucket > a->max_bucket_id)
		a->max_bucket_id = *bucket;
	return PM_OK;
}
