/*-------------------------------------------------------------------------
 * table_write.c
 *	  Writing rows into an APPEND table (table_write.h): route rows to their
 *	  partition and bucket, one open data file per (partition, bucket),
 *	  rolled at target-file-size, described as Java's RowDataFileWriter
 *	  describes its files, committed as one snapshot (commit.c).
 *
 * Java facts (release-1.4.2):
 *	- File names: <data-file.prefix><uuid>-<n>.<format>, one uuid per
 *	  (partition, bucket) writer, n counting its files
 *	  (io/DataFilePathFactory.java).
 *	- Sequence numbers: a writer counts from restoredMaxSeq + 1; a file has
 *	  [counter - rows, counter - 1] (io/RowDataFileWriter.java). Unaware-
 *	  bucket appends never restore (AppendFileStoreWrite ignores previous
 *	  files: every writer starts at 0); fixed-bucket appends restore the
 *	  bucket's max sequence number from the latest snapshot
 *	  (BucketedAppendFileStoreWrite, AbstractFileStoreWrite).
 *	- DataFileMeta.forAppend: empty min/max key and key stats, level 0,
 *	  creation time = LocalDateTime.now() as epoch millis (the writer's
 *	  local wall clock), delete row count 0, file source APPEND.
 *	- Buckets: unaware (-1) files go to bucket-0 with _TOTAL_BUCKETS -1.
 *	  Dynamic-bucket (-1) primary-key tables: the bucket of a row is
 *	  HashBucketAssigner's for its key hash (dynamic_bucket.h), files
 *	  carry _TOTAL_BUCKETS -1, each bucket restores its max sequence
 *	  number as fixed buckets do, and its HASH index file is rewritten
 *	  when it got new keys (committed with the data files).
 *	- Several writers of one bucket (not in Java, which assumes one): a
 *	  primary-key writer remembers the snapshot it numbered from (the
 *	  restored one) and commits with commit.h's sequence check; when a
 *	  concurrent commit added sequence numbers at or above ours to a bucket,
 *	  our level-0 files there are renumbered above them
 *	  (lsm/resequence.h) and the commit is tried again, so the order of
 *	  records of one bucket is the commit order. Compaction at commit runs
 *	  after the APPEND snapshot, on the files of the snapshot committed.
 *	- Postpone buckets (-2): as Flink's batch sink with postpone.batch-
 *	  write-fixed-bucket (PostponeBatchWriteOperator, PostponeUtils): a
 *	  partition's rows go to fixed buckets by the default bucket function
 *	  over the bucket count its real-bucket files carry (1, the sink
 *	  parallelism, for a new partition), committed with that count. With
 *	  postpone.batch-write-fixed-bucket = false, as Java's streaming sink
 *	  (PostponeBucketFileStoreWrite, PostponeBucketWriter): every row of a
 *	  partition goes to its bucket-postpone directory, unsorted and
 *	  unmerged, with sequence number -1, in Avro files without statistics
 *	  (unless Avro cannot take a column's type) named
 *	  <data-file.prefix>-u-<commit user>-s-<write id>-w-<uuid>-<n>, total
 *	  buckets -2; no previous file is restored and nothing is compacted at
 *	  commit (batch reads see the rows once a compaction moves them).
 *
 * Memory: each open data file buffers one row group in its format writer;
 * at most MAX_OPEN_FILES are open at once (the least recently used one is
 * finished to make room). Where several files can be open (partitioned or
 * fixed-bucket tables) a row group is at most write-buffer-size (256 MiB)
 * / MAX_OPEN_FILES, so all open files together stay within the buffer.
 *-------------------------------------------------------------------------
 */
#include "table/table_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/floor_div.h"
#include "common/random.h"
#include "common/tz.h"
#include "common/uuid.h"
#include "common/vector_builder.h"
#include "format/format_writer.h"
#include "lsm/compact.h"
#include "lsm/kv_file_writer.h"
#include "lsm/lookup_compact.h"
#include "lsm/merge_engine.h"
#include "lsm/merge_tree_writer.h"
#include "lsm/resequence.h"
#include "row/binary_row.h"
#include "row/bucket.h"
#include "row/value.h"
#include "table/append_dv_write.h"
#include "table/commit.h"
#include "lsm/table_read.h"
#include "table/cross_partition.h"
#include "table/append_compact.h"
#include "table/data_file_index.h"
#include "table/data_file_path.h"
#include "table/default_value.h"
#include "table/dynamic_bucket.h"
#include "table/partition_path.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/stats_build.h"
#include "table/table.h"
#include "table/write_options.h"

#define MAX_OPEN_FILES 16

typedef struct bucket_writer
{
	uint8_t    *partition;		/* serialized BinaryRow */
	int32_t		partition_len;
	uint32_t	hash;
	int32_t		bucket;
	char	   *dir;			/* <table>/<partition path>bucket-<b> */
	char		uuid[PM_UUID_TEXT_LEN + 1];
	int64_t		file_counter;
	int64_t		next_seq;
	/* the open file */
	pm_format_writer *fw;
	pm_file_index_writer *fiw;	/* its file indexes (NULL: none asked for) */
	char	   *fw_name;
	char	   *fw_path;		/* its local path (in commit_arena) */
	char	   *fw_external;	/* its _EXTERNAL_PATH, or NULL */
	int64_t		fw_rows;
	int64_t		last_use;
	pm_merge_tree_writer *mt;	/* primary-key tables: the bucket's LSM writer */
	bool		has_hashes;
	pm_bucket_hashes hashes;	/* dynamic buckets: the bucket's key hashes */
	/* files finished since the last commit (in the writer's commit arena) */
	pm_data_file_meta *files;
	int			nfiles;
	int			files_cap;
	/* changelog-producer = input: the LSM writer's changelog files (commit) */
	pm_data_file_meta *cfiles;
	int			ncfiles;
	struct bucket_writer *next; /* hash chain */
	/* write_kv_batch: the group of this bucket's rows in the batch of call `stamp` */
	int64_t		batch_stamp;
	int64_t		batch_group;
} bucket_writer;

/* Max sequence number and bucket count of a bucket in the latest snapshot. */
typedef struct restored_bucket
{
	const uint8_t *partition;
	int32_t		partition_len;
	int32_t		bucket;
	int32_t		total_buckets;
	int64_t		max_seq;
	const pm_split *split;		/* its files (compaction at commit) */
} restored_bucket;

struct pm_table_writer
{
	const pm_env *env;
	pm_fileio  *io;
	pm_arena   *arena;			/* lives as long as the writer */
	pm_arena   *commit_arena;	/* file metas of the pending commit */
	pm_arena   *scratch;		/* per write call */
	char	   *table_path;
	char	   *commit_user;
	pm_schema  *schema;
	pm_write_options opt;
	pm_format_write_options fopt;
	pm_vector **defaults;		/* default_value.h: per field or NULL; NULL: none */
	const pm_type *empty_row_type;
	uint8_t    *empty_row;		/* serialized BinaryRow of arity 0 */
	int32_t		empty_row_len;
	bucket_writer **table;		/* hash table of bucket writers */
	int			table_size;
	int			nwriters;
	int			nopen;
	int64_t		clock;
	pm_kv_layout *layout;		/* primary-key tables */
	pm_merge_engine *engine;
	pm_merge_engine *run_engine;	/* the same on the file layout (spilled runs) */
	const char *spill_dir;
	bool		restored_loaded;
	restored_bucket *restored;
	int			nrestored;
	pm_table   *restored_table; /* the snapshot restored from, kept for compaction */
	pm_scan    *restored_scan;
	bool		compact_at_commit;	/* pm_table_writer_set_compaction */
	pm_writer_compaction compaction;	/* of the last commit */
	pm_writer_tags tags;		/* auto tags after the last commit */
	pm_writer_committed committed;	/* what the last commit added */
	pm_dynamic_buckets *dynamic;	/* dynamic-bucket primary-key tables */
	/* the partition of the last row routed in this write call, and its index */
	pm_value   *dyn_values;
	pm_partition_index *dyn_index;
	/* postpone buckets: the same for the partition's bucket count */
	pm_value   *pp_values;
	int32_t		pp_buckets;
	int32_t		pp_default_buckets; /* of a partition without real-bucket files */
	bool		pp_direct;		/* rows into the postpone bucket (batch-write-fixed-bucket false) */
	/* cross-partition upserts: the global key index, built at the first write */
	pm_cross_partition *xpart;
	int64_t		xpart_base;		/* the snapshot the index stands for */
	const pm_type *pk_type;		/* ROW of the primary key fields */
	int		   *pk_fields;		/* their indexes into the row type */
	/* append tables with deletion vectors: rows deleted by position */
	pm_append_dv *append_dv;
	int64_t		batch_stamp;	/* write_kv_batch calls */
};

static uint32_t
hash_key(const uint8_t *partition, int32_t len, int32_t bucket)
{
	uint32_t	h = 2166136261u;

	for (int32_t i = 0; i < len; i++)
		h = (h ^ partition[i]) * 16777619u;
	return (h ^ (uint32_t) bucket) * 16777619u;
}

/*
 * Whether Java's AvroSchemaConverter takes the type: TIMESTAMP(_LTZ) up to
 * precision 6, TIME up to 3, no VARIANT, nested types by their parts.
 */
static bool
avro_takes(const pm_type *t)
{
	switch (t->id)
	{
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			return t->precision <= 6;
		case PM_TYPE_TIME:
			return t->precision <= 3;
		case PM_TYPE_VARIANT:
			return false;
		case PM_TYPE_ARRAY:
		case PM_TYPE_MULTISET:
			return avro_takes(t->element);
		case PM_TYPE_MAP:
			return avro_takes(t->element) && avro_takes(t->value);
		case PM_TYPE_ROW:
			for (int i = 0; i < t->nfields; i++)
				if (!avro_takes(t->fields[i].type))
					return false;
			return true;
		default:
			return true;
	}
}

/* A copy of the schema's options with key set to value (in arena; value NULL: unchanged). */
static bool
set_option(pm_arena *arena, pm_schema *s, const char *key, const char *value)
{
	const char **keys = pm_arena_alloc(arena, sizeof(char *) * (size_t) (s->noptions + 1));
	const char **vals = pm_arena_alloc(arena, sizeof(char *) * (size_t) (s->noptions + 1));
	int			n = 0;

	if (keys == NULL || vals == NULL)
		return false;
	for (int i = 0; i < s->noptions; i++)
		if (strcmp(s->option_keys[i], key) != 0)
		{
			keys[n] = s->option_keys[i];
			vals[n++] = s->option_values[i];
		}
	keys[n] = key;
	vals[n++] = value;
	s->option_keys = keys;
	s->option_values = vals;
	s->noptions = n;
	return true;
}

/*
 * The layout of postpone files (PostponeBucketFileStoreWrite's options):
 * file.format avro and metadata.stats-mode none unless Avro cannot take a
 * column's type (then the table's own), data-file.prefix
 * "<prefix>-u-<commit user>-s-<write id>-w-" with a random write id (Java:
 * the Flink subtask's, or ThreadLocalRandom.nextInt(Integer.MAX_VALUE)),
 * parsed from a copy of the schema with those options set.
 */
static pm_code
postpone_layout(pm_table_writer *w, pm_arena *arena, pm_error *err)
{
	pm_schema  *s = pm_arena_alloc(arena, sizeof(*s));
	pm_write_options *o = pm_arena_alloc(arena, sizeof(*o));
	uint32_t	r;
	char	   *prefix;

	if (s == NULL || o == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_random_u32(&r, err));
	*s = *w->schema;
	prefix = pm_arena_sprintf(arena, "%s-u-%s-s-%d-w-", w->opt.data_file_prefix, w->commit_user,
							  (int) (r % INT32_MAX));
	if (prefix == NULL || !set_option(arena, s, "data-file.prefix", prefix) ||
		(avro_takes(s->row_type) &&
		 (!set_option(arena, s, "file.format", "avro") ||
		  !set_option(arena, s, "metadata.stats-mode", "none"))))
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_write_options_parse(s, arena, o, err));
	return pm_kv_layout_create(s, o, arena, &w->layout, err);
}

static pm_code writer_open(const pm_env *env, pm_fileio *io, const char *table_path,
						   const char *commit_user, bool postpone_compaction,
						   pm_table_writer **out, pm_error *err);

pm_code
pm_table_writer_open(const pm_env *env, pm_fileio *io, const char *table_path,
					 const char *commit_user, pm_table_writer **out, pm_error *err)
{
	return writer_open(env, io, table_path, commit_user, false, out, err);
}

pm_code
pm_table_writer_open_postpone_compaction(const pm_env *env, pm_fileio *io,
										 const char *table_path, const char *commit_user,
										 pm_table_writer **out, pm_error *err)
{
	int			n;
	pm_code		rc;

	PM_TRY(writer_open(env, io, table_path, commit_user, true, out, err));
	if ((*out)->opt.bucket != -2)
	{
		pm_table_writer_close(*out);
		*out = NULL;
		return pm_fail(err, PM_ERR_INVALID, "not a postpone-bucket table (bucket = -2)");
	}
	/* CoreOptions.POSTPONE_DEFAULT_BUCKET_NUM */
	rc = pm_schema_int_option((*out)->schema, "postpone.default-bucket-num", 1, &n, err);
	if (rc == PM_OK && n < 1)
		rc = pm_fail(err, PM_ERR_INVALID,
					 "table option postpone.default-bucket-num = %d: The number of buckets needs to be greater than 0.",
					 n);
	if (rc != PM_OK)
	{
		pm_table_writer_close(*out);
		*out = NULL;
		return rc;
	}
	(*out)->pp_default_buckets = n;
	return PM_OK;
}

static pm_code
writer_open(const pm_env *env, pm_fileio *io, const char *table_path, const char *commit_user,
			bool postpone_compaction, pm_table_writer **out, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(env);
	pm_table_writer *w;
	pm_code		rc;
	pm_value	none;
	size_t		len;

	*out = NULL;
	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	w = pm_arena_zalloc(arena, sizeof(*w));
	if (w == NULL)
	{
		pm_arena_destroy(arena);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	w->env = env;
	w->io = io;
	w->arena = arena;
	w->commit_arena = pm_arena_create(env);
	w->scratch = pm_arena_create(env);
	w->table_path = pm_arena_strdup(arena, table_path);
	w->commit_user = pm_arena_strdup(arena, commit_user);
	w->table_size = 64;
	w->compact_at_commit = true;
	w->table = pm_arena_zalloc(arena, sizeof(bucket_writer *) * (size_t) w->table_size);
	if (w->commit_arena == NULL || w->scratch == NULL || w->table_path == NULL ||
		w->commit_user == NULL || w->table == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto fail;
	}
	if ((rc = pm_schema_load_latest(io, table_path, arena, &w->schema, err)) != PM_OK)
		goto fail;
	if ((rc = pm_write_options_parse(w->schema, arena, &w->opt, err)) != PM_OK)
		goto fail;
	w->pp_direct = w->opt.bucket == -2 && !w->opt.postpone_batch_fixed && !postpone_compaction;
	w->pp_default_buckets = 1;
	if ((rc = pm_default_values_parse(w->schema, arena, &w->defaults, err)) != PM_OK)
		goto fail;
	w->fopt.schema = w->schema->row_type;
	w->fopt.compression = w->opt.compression;
	w->fopt.zstd_level = w->opt.zstd_level;
	w->fopt.row_group_bytes = w->opt.row_group_bytes;
	w->fopt.page_bytes = w->opt.page_bytes;
	w->fopt.dictionary = w->opt.dictionary;
	w->fopt.orc = w->opt.orc;
	if (w->opt.npartition_keys > 0 || w->opt.bucket > 0)
	{
		int64_t		per_file = w->opt.write_buffer_size / MAX_OPEN_FILES;

		if (per_file < 1024 * 1024)
			per_file = 1024 * 1024;
		if (w->fopt.row_group_bytes == 0 || w->fopt.row_group_bytes > per_file)
			w->fopt.row_group_bytes = per_file;
	}
	w->empty_row_type = pm_type_new_row(arena, NULL, 0, false);
	if (w->empty_row_type == NULL)
	{
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
		goto fail;
	}
	memset(&none, 0, sizeof(none));
	if ((rc = pm_binary_row_encode_serialized(arena, w->empty_row_type, &none, &w->empty_row,
											  &len, err)) != PM_OK)
		goto fail;
	w->empty_row_len = (int32_t) len;
	if (w->opt.primary_key)
	{
		int			n = w->schema->row_type->nfields;
		int		   *all = pm_arena_alloc(arena, sizeof(int) * (size_t) (n + 1));

		if (all == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			goto fail;
		}
		for (int i = 0; i < n; i++)
			all[i] = i;
		if (w->pp_direct)
			rc = postpone_layout(w, arena, err);
		else
			rc = pm_kv_layout_create(w->schema, &w->opt, arena, &w->layout, err);
		if (rc != PM_OK ||
			(rc = pm_merge_engine_create(w->schema, all, n, 0, arena, &w->engine, err)) != PM_OK ||
			(rc = pm_merge_engine_create(w->schema, all, n, w->layout->nkeys + 2, arena,
										 &w->run_engine, err)) != PM_OK)
			goto fail;
		/* Java's IOManager temp directory: java.io.tmpdir */
		w->spill_dir = getenv("TMPDIR") != NULL && getenv("TMPDIR")[0] != '\0'
			? pm_arena_strdup(arena, getenv("TMPDIR")) : "/tmp";
		if (w->opt.bucket == -1 && !w->opt.cross_partition &&
			(rc = pm_dynamic_buckets_open(env, io, table_path, &w->opt, &w->dynamic, err)) != PM_OK)
			goto fail;
	}
	*out = w;
	return PM_OK;

fail:
	pm_dynamic_buckets_free(w->dynamic);
	pm_append_dv_free(w->append_dv);
	pm_merge_engine_destroy(w->engine);
	pm_merge_engine_destroy(w->run_engine);
	if (w->commit_arena)
		pm_arena_destroy(w->commit_arena);
	if (w->scratch)
		pm_arena_destroy(w->scratch);
	pm_arena_destroy(arena);
	return rc;
}

const pm_schema *
pm_table_writer_schema(const pm_table_writer *writer)
{
	return writer->schema;
}

const char *
pm_table_writer_rowkind_field(const pm_table_writer *writer)
{
	if (!writer->opt.primary_key || writer->opt.rowkind_field < 0)
		return NULL;
	return writer->schema->row_type->fields[writer->opt.rowkind_field].name;
}

/* The latest snapshot's buckets (fixed-bucket tables restore sequence numbers). */
static pm_code
load_restored(pm_table_writer *w, pm_error *err)
{
	pm_table   *table;
	pm_scan    *scan;
	pm_code		rc;
	int			n;

	w->restored_loaded = true;
	PM_TRY(pm_table_open(w->env, w->io, w->table_path, NULL, &table, err));
	/* every level: batch reads of DV / first-row tables skip level 0 */
	if ((rc = pm_table_scan_plan_every_level(table, &scan, err)) != PM_OK)
	{
		pm_table_close(table);
		return rc;
	}
	w->restored_table = table;
	w->restored_scan = scan;
	n = pm_scan_split_count(scan);
	w->restored = pm_arena_zalloc(w->arena, sizeof(restored_bucket) * (size_t) (n + 1));
	if (w->restored == NULL)
		rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; rc == PM_OK && i < n; i++)
	{
		const pm_split *sp = pm_scan_get_split(scan, i);
		restored_bucket *r = &w->restored[w->nrestored++];
		uint8_t    *copy = pm_arena_alloc(w->arena, (size_t) sp->partition_len + 1);

		if (copy == NULL)
		{
			rc = pm_fail(err, PM_ERR_NOMEM, "out of memory");
			break;
		}
		memcpy(copy, sp->partition, (size_t) sp->partition_len);
		r->partition = copy;
		r->partition_len = sp->partition_len;
		r->bucket = sp->bucket;
		r->total_buckets = sp->total_buckets;
		r->split = sp;
		r->max_seq = -1;
		for (int f = 0; f < sp->nfiles; f++)
			if (sp->files[f]->max_sequence_number > r->max_seq)
				r->max_seq = sp->files[f]->max_sequence_number;
	}
	return rc;
}

static pm_code
restore_bucket(pm_table_writer *w, bucket_writer *bw, pm_error *err)
{
	bw->next_seq = 0;
	if (w->opt.bucket == -1 && !w->opt.primary_key)
		return PM_OK;			/* unaware: Java ignores previous files */
	if (w->pp_direct)
		return PM_OK;			/* PostponeBucketFileStoreWrite: withIgnorePreviousFiles */
	if (!w->restored_loaded)
		PM_TRY(load_restored(w, err));
	for (int i = 0; i < w->nrestored; i++)
	{
		restored_bucket *r = &w->restored[i];

		if (r->partition_len != bw->partition_len ||
			memcmp(r->partition, bw->partition, (size_t) bw->partition_len) != 0)
			continue;
		if (w->opt.bucket > 0 && r->total_buckets > 0 && r->total_buckets != w->opt.bucket)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "a partition of the table was written with %d buckets, the table now has %d: rescaled buckets are not written",
						   r->total_buckets, w->opt.bucket);
		if (r->bucket == bw->bucket)
			bw->next_seq = r->max_seq + 1;
	}
	return PM_OK;
}

static pm_code
get_bucket_writer(pm_table_writer *w, const uint8_t *partition, int32_t partition_len,
				  const pm_value *partition_values, int32_t bucket, bucket_writer **out,
				  pm_error *err)
{
	uint32_t	h = hash_key(partition, partition_len, bucket);
	int			slot = (int) (h % (uint32_t) w->table_size);
	bucket_writer *bw;
	char	   *ppath;

	for (bw = w->table[slot]; bw != NULL; bw = bw->next)
		if (bw->hash == h && bw->bucket == bucket && bw->partition_len == partition_len &&
			memcmp(bw->partition, partition, (size_t) partition_len) == 0)
		{
			*out = bw;
			return PM_OK;
		}
	if (w->nwriters >= w->table_size * 2)
	{
		int			nsize = w->table_size * 4;
		bucket_writer **nt = pm_arena_zalloc(w->arena, sizeof(bucket_writer *) * (size_t) nsize);

		if (nt == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int i = 0; i < w->table_size; i++)
			while (w->table[i] != NULL)
			{
				bucket_writer *b = w->table[i];

				w->table[i] = b->next;
				b->next = nt[b->hash % (uint32_t) nsize];
				nt[b->hash % (uint32_t) nsize] = b;
			}
		w->table = nt;
		w->table_size = nsize;
		slot = (int) (h % (uint32_t) w->table_size);
	}
	bw = pm_arena_zalloc(w->arena, sizeof(*bw));
	if (bw == NULL || (bw->partition = pm_arena_alloc(w->arena, (size_t) partition_len)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memcpy(bw->partition, partition, (size_t) partition_len);
	bw->partition_len = partition_len;
	bw->hash = h;
	bw->bucket = bucket;
	PM_TRY(pm_partition_path(w->schema, w->opt.partition_type, w->opt.partition_default_name,
							 partition_values, w->scratch, &ppath, err));
	bw->dir = pm_bucket_dir_path(w->table_path, w->opt.data_dir, ppath, bucket, w->arena);
	if (bw->dir == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_uuid_random(bw->uuid, err));
	PM_TRY(restore_bucket(w, bw, err));
	if (w->dynamic != NULL)
	{
		PM_TRY(pm_dynamic_buckets_restore(w->dynamic, bw->partition, bw->partition_len, bucket,
										  &bw->hashes, err));
		bw->has_hashes = true;
	}
	if (w->opt.primary_key)
	{
		PM_TRY(pm_merge_tree_writer_open(w->env, w->io, w->layout, w->engine, w->run_engine,
										 w->spill_dir, bw->dir, bw->uuid, bw->next_seq, &bw->mt,
										 err));
		if (w->pp_direct)
			pm_merge_tree_writer_set_postpone(bw->mt);
	}
	bw->next = w->table[slot];
	w->table[slot] = bw;
	w->nwriters++;
	*out = bw;
	return PM_OK;
}

/* LocalDateTime.now() as epoch millis: the local wall clock read as UTC. */
int64_t
pm_local_wall_clock_millis(void)
{
	return pm_floor_div(pm_local_now_nanos(), 1000000);
}

static pm_code
finish_file(pm_table_writer *w, bucket_writer *bw, pm_error *err)
{
	pm_format_write_result res;
	pm_data_file_meta *m;
	pm_code		rc;
	const char **stats_cols;
	int			nstats_cols;
	int64_t		rows = bw->fw_rows;

	if (bw->fw == NULL)
		return PM_OK;
	rc = pm_format_writer_finish(bw->fw, w->commit_arena, &res, err);
	bw->fw = NULL;
	w->nopen--;
	if (rc != PM_OK)
	{
		pm_file_index_writer_free(bw->fiw);
		bw->fiw = NULL;
		return rc;				/* the format writer discarded the file */
	}
	if (bw->nfiles == bw->files_cap)
	{
		int			ncap = bw->files_cap ? bw->files_cap * 2 : 4;
		pm_data_file_meta *grown = pm_arena_realloc(w->commit_arena, bw->files,
													sizeof(*grown) * (size_t) bw->files_cap,
													sizeof(*grown) * (size_t) ncap);

		if (grown == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		bw->files = grown;
		bw->files_cap = ncap;
	}
	m = &bw->files[bw->nfiles];
	memset(m, 0, sizeof(*m));
	m->file_name = bw->fw_name;
	m->path = bw->fw_path;
	m->external_path = bw->fw_external;
	bw->nfiles++;				/* from here on abort removes it */
	if (res.row_count != rows)
		return pm_fail(err, PM_ERR_CORRUPT, "%s: the format writer wrote %lld rows, not %lld",
					   m->path, (long long) res.row_count, (long long) rows);
	m->format = w->opt.format;
	m->file_size = res.file_size;
	m->row_count = res.row_count;
	m->min_key = w->empty_row;
	m->min_key_len = w->empty_row_len;
	m->max_key = w->empty_row;
	m->max_key_len = w->empty_row_len;
	m->key_stats.min_values = w->empty_row;
	m->key_stats.min_values_len = w->empty_row_len;
	m->key_stats.max_values = w->empty_row;
	m->key_stats.max_values_len = w->empty_row_len;
	m->key_stats.nnull_counts = 0;
	m->key_stats.null_counts = NULL;
	PM_TRY(pm_value_stats_build(w->schema->row_type, w->opt.stats_modes, w->opt.stats_dense,
								w->opt.format, res.stats, w->commit_arena, &m->value_stats,
								&stats_cols, &nstats_cols, err));
	m->value_stats_cols = stats_cols;
	m->nvalue_stats_cols = nstats_cols;
	m->min_sequence_number = bw->next_seq - rows;
	m->max_sequence_number = bw->next_seq - 1;
	m->schema_id = w->schema->id;
	m->level = 0;
	m->nextra_files = 0;
	m->has_creation_time = true;
	m->creation_time_millis = pm_local_wall_clock_millis();
	m->delete_row_count = 0;
	m->file_source = 0;
	m->has_first_row_id = false;
	m->nwrite_cols = -1;
	m->deletion_file = NULL;
	rc = pm_data_file_index_finish(bw->fiw, w->io, m, w->commit_arena, err);
	pm_file_index_writer_free(bw->fiw);
	bw->fiw = NULL;
	return rc;
}

/* The least recently used open file is finished to make room for another. */
static pm_code
make_room(pm_table_writer *w, pm_error *err)
{
	bucket_writer *lru = NULL;

	if (w->nopen < MAX_OPEN_FILES)
		return PM_OK;
	for (int i = 0; i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
			if (bw->fw != NULL && (lru == NULL || bw->last_use < lru->last_use))
				lru = bw;
	return lru != NULL ? finish_file(w, lru, err) : PM_OK;
}

static pm_code
open_file(pm_table_writer *w, bucket_writer *bw, pm_error *err)
{
	char	   *path;
	pm_code		rc;

	PM_TRY(make_room(w, err));
	bw->fw_name = pm_arena_sprintf(w->commit_arena, "%s%s-%lld.%s", w->opt.data_file_prefix,
								   bw->uuid, (long long) bw->file_counter, w->opt.file_extension);
	if (bw->fw_name == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_write_options_new_file(&w->opt, bw->dir, bw->fw_name, w->commit_arena,
									 &bw->fw_path, &bw->fw_external, err));
	path = bw->fw_path;
	bw->file_counter++;
	PM_TRY(pm_write_options_mkdirs(w->io, bw->dir, path, bw->fw_external,
								   bw->file_counter == 1, w->scratch, err));
	if (w->opt.file_index != NULL)
		PM_TRY(pm_file_index_writer_open(w->env, w->opt.file_index, &bw->fiw, err));
	if ((rc = pm_format_writer_open(w->opt.format, w->env, w->io, path, &w->fopt, &bw->fw,
									err)) != PM_OK)
	{
		pm_file_index_writer_free(bw->fiw);
		bw->fiw = NULL;
		return rc;
	}
	bw->fw_rows = 0;
	w->nopen++;
	return PM_OK;
}

/* Rows rows[0..n-1] of batch into *out, column by column, in the scratch arena. */
static pm_code
gather_rows(pm_table_writer *w, const pm_batch *batch, const int64_t *rows, int64_t n,
			pm_batch *out, pm_error *err)
{
	out->nrows = n;
	out->first_row = 0;
	out->ncols = batch->ncols;
	out->cols = pm_arena_zalloc(w->scratch, sizeof(pm_vector) * (size_t) batch->ncols);
	if (out->cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < batch->ncols; c++)
	{
		pm_vector_builder vb;

		if (!pm_vector_builder_init(&vb, &out->cols[c], batch->cols[c].type, n, w->scratch))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int64_t i = 0; i < n; i++)
			if (!pm_vector_builder_append(&vb, &batch->cols[c], rows[i]))
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}

/* Write batch rows (all of them when rows is NULL) to one bucket writer. */
static pm_code
write_rows(pm_table_writer *w, bucket_writer *bw, const pm_batch *batch, const int64_t *rows,
		   int64_t nrows, pm_error *err)
{
	pm_batch	sub;
	const pm_batch *b = batch;

	if (rows != NULL)
	{
		PM_TRY(gather_rows(w, batch, rows, nrows, &sub, err));
		b = &sub;
	}
	if (bw->fw == NULL)
		PM_TRY(open_file(w, bw, err));
	bw->last_use = ++w->clock;
	PM_TRY(pm_format_writer_write(bw->fw, b, err));
	if (bw->fiw != NULL)
		PM_TRY(pm_file_index_writer_write(bw->fiw, b, 0, err));
	bw->fw_rows += b->nrows;
	bw->next_seq += b->nrows;
	if (pm_format_writer_estimated_size(bw->fw) >= w->opt.target_file_size)
		PM_TRY(finish_file(w, bw, err));
	return PM_OK;
}

static bool same_partition(const pm_type *ptype, const pm_value *a, const pm_value *b);

/*
 * Postpone buckets: the bucket count of a partition's real-bucket files in
 * the latest snapshot (PostponeUtils.getKnownNumBuckets), else 1 (the
 * postpone compaction: postpone.default-bucket-num).
 */
static pm_code
known_buckets(pm_table_writer *w, const uint8_t *partition, int32_t partition_len,
			  int32_t *num_buckets, pm_error *err)
{
	*num_buckets = 0;
	if (!w->restored_loaded)
		PM_TRY(load_restored(w, err));
	for (int i = 0; i < w->nrestored; i++)
	{
		restored_bucket *r = &w->restored[i];

		if (r->bucket < 0 || r->total_buckets <= 0 || r->partition_len != partition_len ||
			memcmp(r->partition, partition, (size_t) partition_len) != 0)
			continue;
		if (*num_buckets != 0 && *num_buckets != r->total_buckets)
			return pm_fail(err, PM_ERR_CORRUPT, "a partition has files of %d and of %d buckets",
						   (int) *num_buckets, (int) r->total_buckets);
		*num_buckets = r->total_buckets;
	}
	if (*num_buckets == 0)
		*num_buckets = w->pp_default_buckets;
	return PM_OK;
}

/* known_buckets of the row's partition (the last one kept for the write call). */
static pm_code
postpone_buckets(pm_table_writer *w, const pm_value *pvalues, int32_t *num_buckets,
				 pm_error *err)
{
	const pm_write_options *o = &w->opt;

	if (w->pp_values == NULL || !same_partition(o->partition_type, w->pp_values, pvalues))
	{
		uint8_t    *part;
		size_t		part_len;

		PM_TRY(pm_binary_row_encode_serialized(w->scratch, o->partition_type, pvalues, &part,
											   &part_len, err));
		PM_TRY(known_buckets(w, part, (int32_t) part_len, &w->pp_buckets, err));
		if (w->pp_values == NULL &&
			(w->pp_values = pm_arena_alloc(w->scratch, sizeof(pm_value) * (size_t) (o->npartition_keys + 1))) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		memcpy(w->pp_values, pvalues, sizeof(pm_value) * (size_t) o->npartition_keys);
	}
	*num_buckets = w->pp_buckets;
	return PM_OK;
}

/*
 * Dynamic buckets: the bucket HashBucketAssigner gives the key hash in the
 * row's partition (the index of the last partition is kept for the write
 * call: its values point into the batch).
 */
static pm_code
assign_dynamic(pm_table_writer *w, const pm_value *pvalues, int32_t key_hash, int32_t *bucket,
			   pm_error *err)
{
	const pm_write_options *o = &w->opt;

	if (w->dyn_index == NULL || !same_partition(o->partition_type, w->dyn_values, pvalues))
	{
		uint8_t    *part;
		size_t		part_len;

		PM_TRY(pm_binary_row_encode_serialized(w->scratch, o->partition_type, pvalues, &part,
											   &part_len, err));
		PM_TRY(pm_dynamic_buckets_partition(w->dynamic, part, (int32_t) part_len, &w->dyn_index,
											err));
		if (w->dyn_values == NULL &&
			(w->dyn_values = pm_arena_alloc(w->scratch, sizeof(pm_value) * (size_t) (o->npartition_keys + 1))) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		memcpy(w->dyn_values, pvalues, sizeof(pm_value) * (size_t) o->npartition_keys);
	}
	return pm_dynamic_buckets_assign(w->dynamic, w->dyn_index, key_hash, bucket, err);
}

/*
 * Partition values and bucket of row i; *key_hash (dynamic buckets) the
 * BinaryRow hash of its trimmed primary key.
 */
static pm_code
route_values(pm_table_writer *w, const pm_batch *batch, int64_t i, pm_value *pvalues,
			 pm_value *bvalues, int32_t *bucket, int32_t *key_hash, pm_error *err)
{
	const pm_write_options *o = &w->opt;

	for (int k = 0; k < o->npartition_keys; k++)
		if (!pm_vector_value(&batch->cols[o->partition_fields[k]], i, &pvalues[k]))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "nested partition keys are not written");
	*bucket = 0;
	*key_hash = 0;
	if (w->pp_direct)
	{
		*bucket = -2;			/* BucketMode.POSTPONE_BUCKET */
		return PM_OK;
	}
	if (o->bucket > 0 || o->bucket == -2 || w->dynamic != NULL)
	{
		int32_t		num_buckets = o->bucket;

		for (int k = 0; k < o->nbucket_keys; k++)
			if (!pm_vector_value(&batch->cols[o->bucket_key_fields[k]], i, &bvalues[k]))
				return pm_fail(err, PM_ERR_UNSUPPORTED, "nested bucket keys are not written");
		if (w->dynamic != NULL)
		{
			PM_TRY(pm_bucket_hash(o->bucket_key_type, bvalues, key_hash, err));
			return assign_dynamic(w, pvalues, *key_hash, bucket, err);
		}
		if (o->bucket == -2)
			PM_TRY(postpone_buckets(w, pvalues, &num_buckets, err));
		PM_TRY(pm_bucket_function_bucket(o->bucket_function, o->bucket_key_type, bvalues,
										 num_buckets, bucket, err));
	}
	return PM_OK;
}

/*
 * The targets of the last rows of a batch, by partition values and bucket:
 * most rows find theirs here without encoding their partition BinaryRow.
 */
#define ROUTE_CACHE 16

typedef struct route_entry
{
	int32_t		bucket;
	pm_value   *values;			/* partition values (bytes point into the batch) */
	bucket_writer *bw;
} route_entry;

static bool
same_partition(const pm_type *ptype, const pm_value *a, const pm_value *b)
{
	for (int k = 0; k < ptype->nfields; k++)
	{
		if (a[k].is_null != b[k].is_null)
			return false;
		if (!a[k].is_null && pm_value_compare(ptype->fields[k].type, &a[k], &b[k]) != 0)
			return false;
	}
	return true;
}

static pm_code
route_row(pm_table_writer *w, const pm_batch *batch, int64_t i, pm_value *pvalues,
		  pm_value *bvalues, route_entry *cache, int *ncache, int *next_slot,
		  bucket_writer **out, int32_t *key_hash, pm_error *err)
{
	const pm_write_options *o = &w->opt;
	int32_t		bucket;
	uint8_t    *part;
	size_t		part_len;
	route_entry *e;

	PM_TRY(route_values(w, batch, i, pvalues, bvalues, &bucket, key_hash, err));
	for (int c = 0; c < *ncache; c++)
		if (cache[c].bucket == bucket && same_partition(o->partition_type, cache[c].values, pvalues))
		{
			*out = cache[c].bw;
			return PM_OK;
		}
	PM_TRY(pm_binary_row_encode_serialized(w->scratch, o->partition_type, pvalues, &part,
										   &part_len, err));
	PM_TRY(get_bucket_writer(w, part, (int32_t) part_len, pvalues, bucket, out, err));
	if (*ncache < ROUTE_CACHE)
		e = &cache[(*ncache)++];
	else
	{
		e = &cache[*next_slot];
		*next_slot = (*next_slot + 1) % ROUTE_CACHE;
	}
	e->bucket = bucket;
	e->bw = *out;
	if (e->values == NULL &&
		(e->values = pm_arena_alloc(w->scratch, sizeof(pm_value) * (size_t) (o->npartition_keys + 1))) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memcpy(e->values, pvalues, sizeof(pm_value) * (size_t) o->npartition_keys);
	return PM_OK;
}

/*
 * The primary-key writers hold at most write-buffer-size together: while
 * they hold more, the one holding most spills its records to a local file
 * (write-buffer-spillable, the default) or is flushed as level-0 files
 * (Java's memory pool asks the writer with the largest occupancy to
 * flushMemory: SortBufferWriteBuffer spills, or MergeTreeWriter flushes).
 */
static pm_code
bound_memory(pm_table_writer *w, pm_error *err)
{
	for (;;)
	{
		int64_t		total = 0;
		int64_t		most = 0;
		bucket_writer *largest = NULL;

		for (int i = 0; i < w->table_size; i++)
			for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
			{
				int64_t		m = pm_merge_tree_writer_memory(bw->mt);

				total += m;
				if (m > most)
				{
					most = m;
					largest = bw;
				}
			}
		if (total < w->opt.write_buffer_size || largest == NULL)
			return PM_OK;
		/* (a postpone writer's spill writes into its open file) */
		if (w->opt.write_buffer_spillable || w->pp_direct)
			PM_TRY(pm_merge_tree_writer_spill(largest->mt, err));
		else
			PM_TRY(pm_merge_tree_writer_flush(largest->mt, err));
	}
}

/*
 * Cross-partition upserts (cross_partition.h): the key index, built from
 * the primary keys of the latest snapshot's live rows (every level, rows
 * merged, only the key fields read), with the partition and bucket of
 * the split that holds each (IndexBootstrap).
 */
static pm_code
xpart_bootstrap(pm_table_writer *w, pm_error *err)
{
	const pm_schema *s = w->schema;
	const char *engine = pm_schema_option(s, "merge-engine");
	pm_xpart_existing existing = PM_XPART_DELETE_EXISTING;
	pm_field   *fields;
	pm_table   *table = NULL;
	pm_scan    *scan = NULL;
	pm_table_read *read = NULL;
	pm_value   *values;
	pm_arena   *keys = NULL;	/* not scratch: the caller's values live there */
	pm_code		rc;

	if (engine != NULL && (strcasecmp(engine, "partial-update") == 0 ||
						   strcasecmp(engine, "aggregation") == 0))
		existing = PM_XPART_USE_OLD;
	else if (engine != NULL && strcasecmp(engine, "first-row") == 0)
		existing = PM_XPART_SKIP_NEW;
	w->pk_fields = pm_arena_alloc(w->arena, sizeof(int) * (size_t) (s->nprimary_keys + 1));
	fields = pm_arena_alloc(w->arena, sizeof(pm_field) * (size_t) (s->nprimary_keys + 1));
	values = pm_arena_alloc(w->arena, sizeof(pm_value) * (size_t) (s->nprimary_keys + 1));
	if (w->pk_fields == NULL || fields == NULL || values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int j = 0; j < s->nprimary_keys; j++)
	{
		w->pk_fields[j] = pm_type_field_index(s->row_type, s->primary_keys[j]);
		if (w->pk_fields[j] < 0)
			return pm_fail(err, PM_ERR_INVALID, "primary key \"%s\" is not a column of the table",
						   s->primary_keys[j]);
		fields[j] = s->row_type->fields[w->pk_fields[j]];
	}
	if ((w->pk_type = pm_type_new_row(w->arena, fields, s->nprimary_keys, false)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	PM_TRY(pm_cross_partition_create(w->env, existing, w->opt.dynamic_target_rows, &w->xpart, err));
	if ((keys = pm_arena_create(w->env)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	if ((rc = pm_table_open(w->env, w->io, w->table_path, NULL, &table, err)) != PM_OK ||
		(rc = pm_table_scan_plan_every_level(table, &scan, err)) != PM_OK)
		goto done;
	w->xpart_base = pm_table_snapshot_id(table);
	{
		int64_t		rows = 0;

		for (int i = 0; i < pm_scan_split_count(scan); i++)
			rows += pm_scan_get_split(scan, i)->row_count;
		if ((rc = pm_cross_partition_reserve(w->xpart, rows, err)) != PM_OK)
			goto done;
	}
	if ((rc = pm_table_read_open(scan, w->pk_fields, s->nprimary_keys, &read, err)) != PM_OK)
		goto done;
	for (;;)
	{
		pm_batch   *b;
		const pm_split *sp;

		if ((rc = pm_check_interrupts(w->env, err)) != PM_OK ||
			(rc = pm_table_read_next(read, &b, err)) != PM_OK || b == NULL)
			break;
		if ((sp = pm_table_read_split(read)) == NULL)
		{
			rc = pm_fail(err, PM_ERR_INVALID, "the rows read have no split");
			break;
		}
		for (int64_t i = 0; rc == PM_OK && i < b->nrows; i++)
		{
			uint8_t    *key;
			size_t		key_len;

			for (int j = 0; j < s->nprimary_keys; j++)
				(void) pm_vector_value(&b->cols[j], i, &values[j]);
			if ((rc = pm_binary_row_encode_serialized(keys, w->pk_type, values, &key,
													  &key_len, err)) == PM_OK)
				rc = pm_cross_partition_bootstrap(w->xpart, key, (int32_t) key_len,
												  sp->partition, sp->partition_len,
												  sp->bucket, err);
		}
		pm_arena_reset(keys);
		if (rc != PM_OK)
			break;
	}
done:
	if (keys != NULL)
		pm_arena_destroy(keys);
	pm_table_read_close(read);
	if (scan != NULL)
		pm_scan_free(scan);
	if (table != NULL)
		pm_table_close(table);
	return rc;
}

/*
 * Before a commit: the key index still stands for the table, i.e. no
 * snapshot after its base adds or removes rows (COMPACT and ANALYZE
 * snapshots keep the keys where they are). Otherwise a key another writer
 * moved or added could end up in two partitions: PM_ERR_CONFLICT, and the
 * transaction can be retried. (A commit racing this check is not caught:
 * one writer at a time, as README says.)
 */
static pm_code
xpart_check_base(pm_table_writer *w, pm_error *err)
{
	pm_arena   *arena = pm_arena_create(w->env);
	int64_t		latest;
	pm_code		rc;

	if (arena == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	rc = pm_snapshot_latest_id(w->io, w->table_path, arena, &latest, err);
	for (int64_t id = w->xpart_base + 1; rc == PM_OK && id <= latest; id++)
	{
		pm_snapshot *snap;

		if ((rc = pm_snapshot_load(w->io, w->table_path, id, arena, &snap, err)) != PM_OK)
			break;
		if (snap->commit_kind != NULL && (strcmp(snap->commit_kind, "COMPACT") == 0 ||
										  strcmp(snap->commit_kind, "ANALYZE") == 0))
			continue;
		rc = pm_fail(err, PM_ERR_CONFLICT,
					 "snapshot %lld (%s) was committed after snapshot %lld, which the key index of this cross-partition upsert table was built from",
					 (long long) id, snap->commit_kind != NULL ? snap->commit_kind : "?",
					 (long long) w->xpart_base);
		snprintf(err->detail, sizeof(err->detail),
				 "A primary key moved or added by both writers could end up in two partitions. Write such a table from one session at a time.");
	}
	pm_arena_destroy(arena);
	return rc;
}

/* Append one non-nested value (a partition field) to a vector. */
static bool
append_value(pm_vector_builder *vb, const pm_type *type, const pm_value *v)
{
	pm_vector	src;
	union
	{
		uint8_t		u8;
		int8_t		i8;
		int16_t		i16;
		int32_t		i32;
		int64_t		i64;
		float		f32;
		double		f64;
		pm_int128	i128;
	}			one;
	uint16_t	nanos = v->nanos;

	if (v->is_null)
		return pm_vector_builder_append_null(vb);
	memset(&src, 0, sizeof(src));
	src.type = type;
	src.length = 1;
	src.values = &one;
	switch (type->id)
	{
		case PM_TYPE_BOOLEAN:
			one.u8 = v->u.i64 != 0;
			break;
		case PM_TYPE_TINYINT:
			one.i8 = (int8_t) v->u.i64;
			break;
		case PM_TYPE_SMALLINT:
			one.i16 = (int16_t) v->u.i64;
			break;
		case PM_TYPE_INT:
		case PM_TYPE_DATE:
		case PM_TYPE_TIME:
			one.i32 = (int32_t) v->u.i64;
			break;
		case PM_TYPE_BIGINT:
			one.i64 = v->u.i64;
			break;
		case PM_TYPE_FLOAT:
			one.f32 = (float) v->u.f64;
			break;
		case PM_TYPE_DOUBLE:
			one.f64 = v->u.f64;
			break;
		case PM_TYPE_DECIMAL:
			one.i128 = v->u.i128;
			break;
		case PM_TYPE_TIMESTAMP:
		case PM_TYPE_TIMESTAMP_LTZ:
			one.i64 = v->u.i64;
			src.nanos = &nanos;
			break;
		default:
			return pm_vector_builder_append_bytes(vb, v->u.bytes.ptr, v->u.bytes.len);
	}
	return pm_vector_builder_append(vb, &src, 0);
}

/* Row i of batch as a one-row batch whose partition fields are pvalues. */
static pm_code
with_partition(pm_table_writer *w, const pm_batch *batch, int64_t i, const pm_value *pvalues,
			   pm_batch *out, pm_error *err)
{
	const pm_write_options *o = &w->opt;

	memset(out, 0, sizeof(*out));
	out->nrows = 1;
	out->ncols = batch->ncols;
	out->cols = pm_arena_zalloc(w->scratch, sizeof(pm_vector) * (size_t) batch->ncols);
	if (out->cols == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int c = 0; c < batch->ncols; c++)
	{
		pm_vector_builder vb;
		int			k = 0;
		bool		ok;

		while (k < o->npartition_keys && o->partition_fields[k] != c)
			k++;
		if (!pm_vector_builder_init(&vb, &out->cols[c], batch->cols[c].type, 1, w->scratch))
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		if (k < o->npartition_keys)
			ok = append_value(&vb, batch->cols[c].type, &pvalues[k]);
		else
			ok = pm_vector_builder_append(&vb, &batch->cols[c], i);
		if (!ok)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}

/*
 * Row i of a cross-partition upsert table: where GlobalIndexAssigner sends
 * it (before the writer's RowKindFilter, as in Java), each target to its
 * bucket's writer.
 */
static pm_code
write_cross_partition(pm_table_writer *w, const pm_batch *batch, int64_t i, int kind,
					  pm_value *pvalues, pm_error *err)
{
	const pm_write_options *o = &w->opt;
	pm_value   *key_values;
	uint8_t    *key;
	uint8_t    *part;
	size_t		key_len;
	size_t		part_len;
	pm_xpart_target t[2];
	int			nt;

	if (w->xpart == NULL)
		PM_TRY(xpart_bootstrap(w, err));
	key_values = pm_arena_alloc(w->scratch, sizeof(pm_value) * (size_t) (w->pk_type->nfields + 1));
	if (key_values == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int j = 0; j < w->pk_type->nfields; j++)
		(void) pm_vector_value(&batch->cols[w->pk_fields[j]], i, &key_values[j]);
	for (int k = 0; k < o->npartition_keys; k++)
		(void) pm_vector_value(&batch->cols[o->partition_fields[k]], i, &pvalues[k]);
	PM_TRY(pm_binary_row_encode_serialized(w->scratch, w->pk_type, key_values, &key, &key_len,
										   err));
	PM_TRY(pm_binary_row_encode_serialized(w->scratch, o->partition_type, pvalues, &part,
										   &part_len, err));
	PM_TRY(pm_cross_partition_assign(w->xpart, key, (int32_t) key_len, part, (int32_t) part_len,
									 t, &nt, err));
	for (int n = 0; n < nt; n++)
	{
		const pm_value *tvalues = pvalues;
		int			tkind = kind;
		bucket_writer *bw;

		if (t[n].partition_len != (int32_t) part_len ||
			memcmp(t[n].partition, part, part_len) != 0)
		{
			pm_value   *old = pm_arena_alloc(w->scratch, sizeof(pm_value) * (size_t) (o->npartition_keys + 1));

			if (old == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			PM_TRY(pm_binary_row_decode_serialized(t[n].partition, (size_t) t[n].partition_len,
												   o->partition_type, old, err));
			tvalues = old;
		}
		if (t[n].set_partition)
			tkind = t[n].retract ? PM_ROW_DELETE : PM_ROW_INSERT;
		/* the writer's RowKindFilter */
		if ((tkind == PM_ROW_DELETE && o->ignore_delete) ||
			(tkind == PM_ROW_UPDATE_BEFORE && (o->ignore_delete || o->ignore_update_before)))
			continue;
		PM_TRY(get_bucket_writer(w, t[n].partition, t[n].partition_len, tvalues, t[n].bucket,
								 &bw, err));
		if (t[n].set_partition)
		{
			pm_batch	one;

			PM_TRY(with_partition(w, batch, i, tvalues, &one, err));
			PM_TRY(pm_merge_tree_writer_write(bw->mt, &one, 0, tkind, err));
		}
		else
			PM_TRY(pm_merge_tree_writer_write(bw->mt, batch, i, tkind, err));
	}
	return PM_OK;
}

/*
 * Primary-key tables: each row to its bucket's writer, with its kind;
 * RowKindFilter first (ignore-delete drops -U and -D, ignore-update-before
 * -U), as TableWriteImpl.writeAndReturn.
 */
/*
 * The rows of a batch into their buckets' write buffers: each row routed
 * in batch order (as Java's assigner sees them), then each bucket's rows,
 * in batch order, buffered in one call (the same records and sequence
 * numbers as row by row, copied column by column).
 */
static pm_code
write_kv_grouped(pm_table_writer *w, const pm_batch *batch, const uint8_t *row_kinds,
				 pm_value *pvalues, pm_value *bvalues, pm_error *err)
{
	const pm_write_options *o = &w->opt;
	int64_t		n = batch->nrows;
	route_entry cache[ROUTE_CACHE];
	int			ncache = 0;
	int			next_slot = 0;
	int64_t    *group = pm_arena_alloc(w->scratch, sizeof(int64_t) * (size_t) (n + 1));
	int64_t    *start = pm_arena_zalloc(w->scratch, sizeof(int64_t) * (size_t) (n + 2));
	int64_t    *rows = pm_arena_alloc(w->scratch, sizeof(int64_t) * (size_t) (n + 1));
	bucket_writer **gbw = pm_arena_alloc(w->scratch, sizeof(bucket_writer *) * (size_t) (n + 1));
	int64_t		ngroups = 0;
	int64_t		stamp = ++w->batch_stamp;

	if (group == NULL || start == NULL || rows == NULL || gbw == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	memset(cache, 0, sizeof(cache));
	for (int64_t i = 0; i < n; i++)
	{
		int			kind = row_kinds != NULL ? row_kinds[i] : PM_ROW_INSERT;
		bucket_writer *bw;
		int32_t		key_hash;

		group[i] = -1;
		if ((kind == PM_ROW_DELETE && o->ignore_delete) ||
			(kind == PM_ROW_UPDATE_BEFORE && (o->ignore_delete || o->ignore_update_before)))
		{
			int32_t		bucket;

			/* Java's assigner sees the row before the writer's RowKindFilter */
			if (w->dynamic != NULL)
				PM_TRY(route_values(w, batch, i, pvalues, bvalues, &bucket, &key_hash, err));
			continue;
		}
		PM_TRY(route_row(w, batch, i, pvalues, bvalues, cache, &ncache, &next_slot, &bw,
						 &key_hash, err));
		if (bw->batch_stamp != stamp)
		{
			bw->batch_stamp = stamp;
			bw->batch_group = ngroups;
			gbw[ngroups++] = bw;
		}
		group[i] = bw->batch_group;
		start[group[i] + 1]++;
		if (bw->has_hashes)
			PM_TRY(pm_bucket_hashes_add(&bw->hashes, key_hash, err));
	}
	/* each group's rows in batch order: a counting sort by group */
	for (int64_t g = 0; g < ngroups; g++)
		start[g + 1] += start[g];
	for (int64_t i = 0; i < n; i++)
		if (group[i] >= 0)
			rows[start[group[i]]++] = i;
	for (int64_t g = 0, from = 0; g < ngroups; g++)
	{
		PM_TRY(pm_merge_tree_writer_write_rows(gbw[g]->mt, batch, rows + from, start[g] - from,
											   row_kinds, err));
		from = start[g];
	}
	return bound_memory(w, err);
}

/*
 * rowkind.field (RowKindGenerator.generate): each row's kind from its
 * value of the column, '+I', '-U', '+U' or '-D' in any case
 * (RowKind.fromShortString); NULL or anything else fails the batch before
 * any row is buffered, as Java fails the write. One array per batch, in
 * the call's scratch arena.
 */
static pm_code
generate_row_kinds(pm_table_writer *w, const pm_batch *batch, uint8_t **out, pm_error *err)
{
	const pm_vector *col = &batch->cols[w->opt.rowkind_field];
	const char *name = w->schema->row_type->fields[w->opt.rowkind_field].name;
	uint8_t    *kinds = pm_arena_alloc(w->scratch, (size_t) batch->nrows + 1);

	if (kinds == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t i = 0; i < batch->nrows; i++)
	{
		const uint8_t *v;
		int32_t		len;
		int			kind = -1;

		if (pm_vector_is_null(col, i))
		{
			pm_fail(err, PM_ERR_INVALID, "Row kind cannot be null.");
			pm_error_detail(err, "Column \"%s\" is the table's rowkind.field: each row needs '+I', '-U', '+U' or '-D' there.",
							name);
			return err->code;
		}
		v = col->data + col->offsets[i];
		len = col->offsets[i + 1] - col->offsets[i];
		if (len == 2 && (v[0] == '+' || v[0] == '-'))
		{
			int			c = v[1] & ~0x20;	/* ASCII upper case */

			if (v[0] == '+' && c == 'I')
				kind = PM_ROW_INSERT;
			else if (v[0] == '-' && c == 'U')
				kind = PM_ROW_UPDATE_BEFORE;
			else if (v[0] == '+' && c == 'U')
				kind = PM_ROW_UPDATE_AFTER;
			else if (v[0] == '-' && c == 'D')
				kind = PM_ROW_DELETE;
		}
		if (kind < 0)
		{
			pm_fail(err, PM_ERR_INVALID, "Unsupported short string '%.*s' for row kind.",
					len > 64 ? 64 : (int) len, len > 0 ? (const char *) v : "");
			pm_error_detail(err, "Column \"%s\" is the table's rowkind.field: each row needs '+I', '-U', '+U' or '-D' there.",
							name);
			return err->code;
		}
		kinds[i] = (uint8_t) kind;
		if (w->opt.primary_key)
			PM_TRY(pm_table_writer_accepts(w, (pm_row_kind) kind, err));
	}
	*out = kinds;
	return PM_OK;
}

static pm_code
write_kv_batch(pm_table_writer *w, const pm_batch *batch, const uint8_t *row_kinds,
			   pm_error *err)
{
	const pm_write_options *o = &w->opt;
	pm_value   *pvalues;
	pm_value   *bvalues;

	pvalues = pm_arena_zalloc(w->scratch, sizeof(pm_value) * (size_t) (o->npartition_keys + 1));
	bvalues = pm_arena_zalloc(w->scratch, sizeof(pm_value) * (size_t) (o->nbucket_keys + 1));
	if (pvalues == NULL || bvalues == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	/*
	 * TableWriteImpl.checkNullability (every row, before the row kind
	 * filter), for the whole batch before any row is buffered
	 */
	for (int c = 0; c < w->schema->row_type->nfields; c++)
		if (!w->schema->row_type->fields[c].type->nullable && batch->cols[c].nulls != NULL)
			for (int64_t i = 0; i < batch->nrows; i++)
				if (pm_vector_is_null(&batch->cols[c], i))
					return pm_fail(err, PM_ERR_INVALID, "Cannot write null to non-null column(%s)",
								   w->schema->row_type->fields[c].name);
	/* TableWriteImpl.writeAndReturn: the generator, then the RowKindFilter */
	if (o->rowkind_field >= 0)
	{
		uint8_t    *kinds = NULL;

		PM_TRY(generate_row_kinds(w, batch, &kinds, err));
		row_kinds = kinds;
	}
	w->dyn_index = NULL;
	w->dyn_values = NULL;
	w->pp_values = NULL;
	if (!o->cross_partition)
		return write_kv_grouped(w, batch, row_kinds, pvalues, bvalues, err);
	for (int64_t i = 0; i < batch->nrows; i++)
	{
		int			kind = row_kinds != NULL ? row_kinds[i] : PM_ROW_INSERT;

		PM_TRY(write_cross_partition(w, batch, i, kind, pvalues, err));
	}
	return bound_memory(w, err);
}

static pm_code
write_batch(pm_table_writer *w, const pm_batch *batch, pm_error *err)
{
	const pm_write_options *o = &w->opt;
	int64_t		n = batch->nrows;
	pm_value   *pvalues;
	pm_value   *bvalues;
	bucket_writer **target;
	int64_t    *rows;
	bool	   *done;
	route_entry cache[ROUTE_CACHE];
	int			ncache = 0;
	int			next_slot = 0;

	if (batch->ncols != w->schema->row_type->nfields)
		return pm_fail(err, PM_ERR_INVALID, "a batch of %d columns for a table of %d",
					   batch->ncols, w->schema->row_type->nfields);
	if (n == 0)
		return PM_OK;
	memset(cache, 0, sizeof(cache));
	pvalues = pm_arena_zalloc(w->scratch, sizeof(pm_value) * (size_t) (o->npartition_keys + 1));
	bvalues = pm_arena_zalloc(w->scratch, sizeof(pm_value) * (size_t) (o->nbucket_keys + 1));
	if (pvalues == NULL || bvalues == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	if (o->npartition_keys == 0 && o->bucket == -1)
	{
		bucket_writer *bw;
		int32_t		key_hash;

		PM_TRY(route_row(w, batch, 0, pvalues, bvalues, cache, &ncache, &next_slot, &bw,
						 &key_hash, err));
		return write_rows(w, bw, batch, NULL, n, err);
	}

	target = pm_arena_alloc(w->scratch, sizeof(*target) * (size_t) n);
	rows = pm_arena_alloc(w->scratch, sizeof(*rows) * (size_t) n);
	done = pm_arena_zalloc(w->scratch, sizeof(*done) * (size_t) n);
	if (target == NULL || rows == NULL || done == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t i = 0; i < n; i++)
	{
		int32_t		key_hash;

		PM_TRY(route_row(w, batch, i, pvalues, bvalues, cache, &ncache, &next_slot, &target[i],
						 &key_hash, err));
	}
	/* one gathered sub-batch per target, rows in input order */
	for (int64_t i = 0; i < n; i++)
	{
		int64_t		nrows = 0;

		if (done[i])
			continue;
		for (int64_t j = i; j < n; j++)
			if (!done[j] && target[j] == target[i])
			{
				rows[nrows++] = j;
				done[j] = true;
			}
		PM_TRY(write_rows(w, target[i], batch, nrows == n ? NULL : rows, nrows, err));
	}
	return PM_OK;
}

/*
 * Append tables with rowkind.field (AppendOnlyFileStoreTable's write): each
 * row's kind from the column, the RowKindFilter drops -U and -D as on
 * primary-key tables, and any other -U or -D row fails the batch, as
 * Java's record extractor refuses it; +I and +U rows are written.
 */
static pm_code
write_append_generated(pm_table_writer *w, const pm_batch *batch, pm_error *err)
{
	const pm_write_options *o = &w->opt;
	uint8_t    *kinds = NULL;
	int64_t    *keep;
	int64_t		nkeep = 0;
	pm_batch	sub;

	PM_TRY(generate_row_kinds(w, batch, &kinds, err));
	keep = pm_arena_alloc(w->scratch, sizeof(int64_t) * (size_t) (batch->nrows + 1));
	if (keep == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int64_t i = 0; i < batch->nrows; i++)
	{
		int			kind = kinds[i];

		if ((kind == PM_ROW_DELETE && o->ignore_delete) ||
			(kind == PM_ROW_UPDATE_BEFORE && (o->ignore_delete || o->ignore_update_before)))
			continue;
		if (kind == PM_ROW_DELETE || kind == PM_ROW_UPDATE_BEFORE)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "Append only writer can not accept row with RowKind %s",
						   kind == PM_ROW_DELETE ? "DELETE" : "UPDATE_BEFORE");
		keep[nkeep++] = i;
	}
	if (nkeep == batch->nrows)
		return write_batch(w, batch, err);
	PM_TRY(gather_rows(w, batch, keep, nkeep, &sub, err));
	return write_batch(w, &sub, err);
}

pm_code
pm_table_writer_accepts(const pm_table_writer *writer, pm_row_kind kind, pm_error *err)
{
	const pm_write_options *o = &writer->opt;

	if ((int) kind < PM_ROW_INSERT || kind > PM_ROW_DELETE)
		return pm_fail(err, PM_ERR_INVALID, "row kind %d is not a Paimon row kind", (int) kind);
	if (!o->primary_key)
	{
		if (kind != PM_ROW_INSERT)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "append tables take only inserted rows: UPDATE and DELETE need a primary key or 'deletion-vectors.enabled'");
		return PM_OK;
	}
	/* RowKindFilter drops these before any merge function sees them */
	if (kind == PM_ROW_INSERT || kind == PM_ROW_UPDATE_AFTER || o->ignore_delete ||
		(kind == PM_ROW_UPDATE_BEFORE && o->ignore_update_before))
		return PM_OK;
	return pm_merge_engine_accepts(writer->engine, (int) kind, err);
}

pm_code
pm_table_writer_write(pm_table_writer *writer, const pm_batch *batch, const uint8_t *row_kinds,
					  pm_error *err)
{
	pm_code		rc;

	/*
	 * rowkind.field: a primary-key table's rows take only the generated
	 * kinds; an append table's own kinds are still checked (Java's
	 * AppendOnlyWriter refuses a row whose own kind is -U or -D)
	 */
	if (row_kinds != NULL && (writer->opt.rowkind_field < 0 || !writer->opt.primary_key))
		for (int64_t i = 0; i < batch->nrows; i++)
			PM_TRY(pm_table_writer_accepts(writer, (pm_row_kind) row_kinds[i], err));
	if (batch->ncols != writer->schema->row_type->nfields)
		return pm_fail(err, PM_ERR_INVALID, "a batch of %d columns for a table of %d",
					   batch->ncols, writer->schema->row_type->nfields);
	if (writer->defaults != NULL)
	{
		/* TableWriteImpl: checkNullability, then wrapDefaultValue */
		pm_batch   *filled = pm_arena_alloc(writer->scratch, sizeof(pm_batch));

		if (filled == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		rc = pm_default_values_apply(writer->schema->row_type, writer->defaults, batch,
									 writer->scratch, filled, err);
		if (rc != PM_OK)
		{
			pm_arena_reset(writer->scratch);
			return rc;
		}
		batch = filled;
	}
	if (writer->opt.primary_key)
		rc = write_kv_batch(writer, batch, row_kinds, err);
	else if (writer->opt.rowkind_field >= 0)
		rc = write_append_generated(writer, batch, err);
	else
		rc = write_batch(writer, batch, err);
	pm_arena_reset(writer->scratch);
	return rc;
}

/* Remove the files written since the last commit and close the open ones. */
static void
discard_pending(pm_table_writer *w)
{
	for (int i = 0; i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
		{
			if (bw->fw != NULL)
			{
				pm_format_writer_abort(bw->fw);
				bw->fw = NULL;
				w->nopen--;
			}
			pm_file_index_writer_free(bw->fiw);
			bw->fiw = NULL;
			for (int f = 0; f < bw->nfiles; f++)
				pm_data_file_remove_written(w->io, &bw->files[f]);
			if (bw->mt != NULL)
				pm_merge_tree_writer_forget_files(bw->mt, true);
			if (bw->has_hashes)
				pm_dynamic_buckets_discard(w->dynamic, &bw->hashes);
			bw->nfiles = 0;
			bw->files = NULL;
			bw->files_cap = 0;
		}
	if (w->append_dv != NULL)
		pm_append_dv_reset(w->append_dv);
	pm_arena_reset(w->commit_arena);
}

static pm_code
forget_committed(pm_table_writer *w, pm_error *err)
{
	pm_code		rc = PM_OK;

	for (int i = 0; i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
		{
			if (bw->mt != NULL)
				pm_merge_tree_writer_forget_files(bw->mt, false);
			if (bw->has_hashes && rc == PM_OK)
				rc = pm_dynamic_buckets_committed(w->dynamic, &bw->hashes, err);
			bw->nfiles = 0;
			bw->files = NULL;
			bw->files_cap = 0;
		}
	if (w->append_dv != NULL)
		pm_append_dv_reset(w->append_dv);
	pm_arena_reset(w->commit_arena);
	return rc;
}

void
pm_table_writer_set_compaction(pm_table_writer *w, bool enabled)
{
	w->compact_at_commit = enabled;
}

const pm_writer_compaction *
pm_table_writer_compaction(const pm_table_writer *w)
{
	return &w->compaction;
}

const pm_writer_committed *
pm_table_writer_committed(const pm_table_writer *w)
{
	return &w->committed;
}

const pm_writer_tags *
pm_table_writer_tags(const pm_table_writer *w)
{
	return &w->tags;
}

/*
 * TableCommitImpl.maintain after the snapshots are published: the auto
 * tags (tag_auto.h). A failure leaves the rows committed: it is recorded
 * for the caller to report, and the next commit's run finishes the work.
 */
static void
auto_tags_after_commit(pm_table_writer *w, pm_arena *arena)
{
	pm_error	err;

	pm_error_clear(&err);
	if (pm_tag_auto_run(w->env, w->io, w->table_path, w->schema, arena, &w->tags.made,
						&err) != PM_OK)
	{
		w->tags.failed = true;
		memcpy(w->tags.message, err.message, sizeof(w->tags.message));
	}
}

/* The bucket writer of (partition, bucket), if this writer has one. */
static bool
get_bucket_writer_if_any(const pm_table_writer *w, const uint8_t *partition,
						 int32_t partition_len, int32_t bucket, bucket_writer **out)
{
	uint32_t	h = hash_key(partition, partition_len, bucket);

	for (bucket_writer *bw = w->table[h % (uint32_t) w->table_size]; bw != NULL; bw = bw->next)
		if (bw->hash == h && bw->bucket == bucket && bw->partition_len == partition_len &&
			memcmp(bw->partition, partition, (size_t) partition_len) == 0)
		{
			*out = bw;
			return true;
		}
	return false;
}

/*
 * Java's batch writer compacts at prepareCommit: each bucket written to,
 * its files in `restored` (files of the snapshot the compaction starts
 * from, other than ours) plus the new level-0 files, through
 * lsm/compact.h with `table` opened at that snapshot. *changes: one per
 * bucket compacted.
 */
static pm_code
compact_written_buckets(pm_table_writer *w, pm_table *table, const restored_bucket *restored,
						int nrestored, pm_compactor **compactor, pm_commit_change **changes,
						int *nchanges, pm_error *err)
{
	const char *why;
	int			n = 0;

	*changes = NULL;
	*nchanges = 0;
	PM_TRY(pm_compactor_open(table, compactor, &why, err));
	if (*compactor == NULL)
		return PM_OK;
	*changes = pm_arena_zalloc(w->commit_arena, sizeof(pm_commit_change) * (size_t) (w->nwriters + 1));
	if (*changes == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
		{
			pm_split	sp;
			pm_compact_trigger_info info;

			if (bw->nfiles == 0)
				continue;
			memset(&sp, 0, sizeof(sp));
			sp.total_buckets = w->opt.bucket > 0 ? w->opt.bucket : -1;	/* as its new files */
			for (int r = 0; r < nrestored; r++)
				if (restored[r].bucket == bw->bucket &&
					restored[r].partition_len == bw->partition_len &&
					memcmp(restored[r].partition, bw->partition, (size_t) bw->partition_len) == 0)
					sp = *restored[r].split;
			sp.partition = bw->partition;
			sp.partition_len = bw->partition_len;
			sp.bucket = bw->bucket;
			sp.bucket_path = bw->dir;
			PM_TRY(pm_compactor_after_write(*compactor, &sp, bw->files, bw->nfiles,
											&(*changes)[n], &info, err));
			if (info.compacted)
			{
				n++;
				w->compaction.buckets++;
				w->compaction.files_in += info.files_in;
				w->compaction.files_out += info.files_out;
				w->compaction.rows += info.rows_out;
			}
		}
	*nchanges = n;
	return PM_OK;
}

static bool
is_ours(const bucket_writer *bw, const pm_data_file_meta *f)
{
	for (int i = 0; i < bw->nfiles; i++)
		if (strcmp(bw->files[i].file_name, f->file_name) == 0)
			return true;
	return false;
}

/*
 * Append tables with fixed buckets (append_compact.h): the buckets
 * written to, against the latest snapshot. Skipped without opening it
 * when `committed` follows the restored snapshot and no bucket holds
 * compaction.min.file-num files, the least the writer's pick takes.
 */
static void
append_compact_after_commit(pm_table_writer *w, pm_commit_request *req, int64_t committed,
							pm_arena *arena)
{
	pm_append_bucket *buckets;
	int			nbuckets = 0;
	bool		enough = false;
	int			min_file_num = 5;
	const char *v = pm_schema_option(w->schema, "compaction.min.file-num");
	pm_table   *table = NULL;
	pm_compact_result res;
	pm_error	cerr;
	pm_code		rc;

	if (v != NULL)
		min_file_num = atoi(v);	/* validated by append_compact.c */
	buckets = pm_arena_zalloc(arena, sizeof(*buckets) * (size_t) (w->nwriters + 1));
	if (buckets == NULL)
		return;
	for (int i = 0; i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
		{
			int			have = bw->nfiles;

			if (bw->nfiles == 0)
				continue;
			buckets[nbuckets].partition = bw->partition;
			buckets[nbuckets].partition_len = bw->partition_len;
			buckets[nbuckets].bucket = bw->bucket;
			nbuckets++;
			for (int r = 0; r < w->nrestored; r++)
				if (w->restored[r].bucket == bw->bucket &&
					w->restored[r].partition_len == bw->partition_len &&
					memcmp(w->restored[r].partition, bw->partition,
						   (size_t) bw->partition_len) == 0)
					have += w->restored[r].split->nfiles;
			if (have >= min_file_num)
				enough = true;
		}
	if (nbuckets == 0 || (!enough && w->restored_table != NULL &&
						  committed == pm_table_snapshot_id(w->restored_table) + 1))
		return;
	pm_error_clear(&cerr);
	rc = pm_table_open(w->env, w->io, w->table_path, NULL, &table, &cerr);
	if (rc == PM_OK)
		rc = pm_append_compact_at_commit(table, w->table_path, req->commit_user,
										 req->commit_identifier, buckets, nbuckets, &res, &cerr);
	if (table != NULL)
		pm_table_close(table);
	if (rc != PM_OK)
	{
		/* the rows are committed; only the compaction is lost (its files are removed) */
		w->compaction.failed = true;
		w->compaction.snapshot_id = 0;
		snprintf(w->compaction.message, sizeof(w->compaction.message), "%s", cerr.message);
		return;
	}
	w->compaction.snapshot_id = res.snapshot_id;
	w->compaction.buckets = res.buckets;
	w->compaction.files_in = res.files_in;
	w->compaction.files_out = res.files_out;
	w->compaction.rows = res.rows_out;
}

/*
 * Compaction at commit, after the APPEND snapshot `committed`: against
 * the files of that snapshot. When it directly follows the restored one
 * those are the restored files plus ours; else (other commits came
 * between, or we renumbered) the latest snapshot is planned again and its
 * files of our buckets, ours left out, are the compaction's base. Then a
 * COMPACT snapshot, whose commit fails when another commit removed an
 * input first (commit.c's deletion check, as Java's). Failures are not the
 * transaction's: its rows are committed; w->compaction says what happened.
 */
static void
compact_after_commit(pm_table_writer *w, pm_commit_request *req, int64_t committed,
					 pm_arena *arena)
{
	pm_table   *table = w->restored_table;
	pm_scan    *scan = NULL;
	restored_bucket *restored = w->restored;
	int			nrestored = w->nrestored;
	pm_compactor *compactor = NULL;
	pm_commit_change *changes = NULL;
	int			nchanges = 0;
	pm_error	cerr;
	pm_code		rc = PM_OK;

	/* write-only: BucketedAppendFileStoreWrite's NoopCompactManager */
	if (w->compact_at_commit && !w->opt.primary_key && w->opt.bucket >= 1 && !w->opt.write_only)
	{
		append_compact_after_commit(w, req, committed, arena);
		return;
	}
	/* postpone (-2) buckets are not compacted (compact.c); dynamic (-1) ones per bucket */
	if (!w->compact_at_commit || !w->opt.primary_key || (w->opt.bucket < 1 && w->opt.bucket != -1) ||
		w->restored_table == NULL)
		return;
	pm_error_clear(&cerr);
	if (committed != pm_table_snapshot_id(w->restored_table) + 1)
	{
		table = NULL;
		rc = pm_table_open(w->env, w->io, w->table_path, NULL, &table, &cerr);
		if (rc == PM_OK)
			rc = pm_table_scan_plan_every_level(table, &scan, &cerr);
		nrestored = 0;
		if (rc == PM_OK)
		{
			int			n = pm_scan_split_count(scan);

			restored = pm_arena_zalloc(arena, sizeof(*restored) * (size_t) (n + 1));
			if (restored == NULL)
				rc = pm_fail(&cerr, PM_ERR_NOMEM, "out of memory");
			for (int i = 0; rc == PM_OK && i < n; i++)
			{
				const pm_split *sp = pm_scan_get_split(scan, i);
				bucket_writer *bw;
				pm_split   *copy;
				const pm_data_file_meta **files;

				if (get_bucket_writer_if_any(w, sp->partition, sp->partition_len, sp->bucket,
											 &bw) == false)
					continue;
				copy = pm_arena_alloc(arena, sizeof(*copy));
				files = pm_arena_alloc(arena, sizeof(*files) * (size_t) (sp->nfiles + 1));
				if (copy == NULL || files == NULL)
				{
					rc = pm_fail(&cerr, PM_ERR_NOMEM, "out of memory");
					break;
				}
				*copy = *sp;
				copy->nfiles = 0;
				copy->row_count = 0;
				for (int f = 0; f < sp->nfiles; f++)
					if (!is_ours(bw, sp->files[f]))
					{
						files[copy->nfiles++] = sp->files[f];
						copy->row_count += sp->files[f]->row_count;
					}
				copy->files = files;
				restored[nrestored].partition = sp->partition;
				restored[nrestored].partition_len = sp->partition_len;
				restored[nrestored].bucket = sp->bucket;
				restored[nrestored].total_buckets = sp->total_buckets;
				restored[nrestored].split = copy;
				nrestored++;
			}
		}
	}
	if (rc == PM_OK)
		rc = compact_written_buckets(w, table, restored, nrestored, &compactor, &changes,
									 &nchanges, &cerr);
	if (rc == PM_OK && nchanges > 0)
	{
		/* then the compaction as its own snapshot, as FileStoreCommitImpl.commit */
		req->commit_kind = "COMPACT";
		req->nchanges = nchanges;
		req->changes = changes;
		req->stale_need = NULL;
		req->append_deletion_vectors = false;
		req->checked_snapshot_id = NULL;
		rc = pm_table_commit(w->env, w->io, w->table_path, req, arena,
							 &w->compaction.snapshot_id, &cerr);
	}
	if (rc != PM_OK)
	{
		/* the rows are committed; only the compaction is lost */
		pm_compactor_remove_written(compactor);
		w->compaction.failed = true;
		w->compaction.snapshot_id = 0;
		snprintf(w->compaction.message, sizeof(w->compaction.message), "%s", cerr.message);
	}
	pm_compactor_close(compactor);
	if (scan != NULL)
		pm_scan_free(scan);
	if (table != NULL && table != w->restored_table)
		pm_table_close(table);
}

/*
 * Deletion-vector and first-row tables: Java's writer compacts level 0 at
 * prepareCommit and commits it as a second (COMPACT) snapshot; without
 * it our rows would stay invisible to batch reads. The APPEND snapshot is
 * committed by then: a failure here leaves its rows there, unseen until a
 * compaction (the error says so).
 */
static pm_code
lookup_compact(pm_table_writer *w, int64_t commit_identifier, const pm_commit_change *changes,
			   int nchanges, int64_t *snapshot_id, pm_error *err)
{
	pm_lookup_compact_target *targets = pm_arena_zalloc(w->scratch, sizeof(*targets) *
														(size_t) (nchanges + 1));
	pm_lookup_compact_result res;
	pm_code		rc;

	if (targets == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < nchanges; i++)
	{
		targets[i].partition = changes[i].partition;
		targets[i].partition_len = changes[i].partition_len;
		targets[i].bucket = changes[i].bucket;
	}
	rc = pm_lookup_compact_commit(w->env, w->io, w->table_path, w->commit_user, commit_identifier,
								  targets, nchanges, &res, err);
	pm_arena_reset(w->scratch);
	if (rc != PM_OK)
	{
		char		why[sizeof(err->message)];

		memcpy(why, err->message, sizeof(why));
		return pm_fail(err, rc,
					   "snapshot %lld was committed, but compacting it failed, so batch reads do not see its rows yet: %s",
					   (long long) *snapshot_id, why);
	}
	if (res.snapshot_id > 0)
		*snapshot_id = res.snapshot_id;
	return PM_OK;
}

/*
 * The APPEND commit with the sequence check (commit.h) for primary-key
 * writers that restored their buckets: when a concurrent commit added
 * sequence numbers at or above ours to a bucket, that bucket's files are
 * renumbered above them and the commit tried again; each try re-checks
 * the commits since the last one checked, and each try that finds us
 * stale again needed another commit to land meanwhile (so the writers as
 * a whole progress). At most STALE_ROUNDS tries, plus the lost-race
 * retries (commit.max-retries) within each.
 */
#define STALE_ROUNDS 100

static pm_code
commit_appended(pm_table_writer *w, pm_commit_request *req, bucket_writer **change_bw,
				pm_arena *arena, int64_t *snapshot_id, pm_error *err)
{
	int64_t    *need = NULL;
	int64_t		checked = 0;
	pm_code		rc;

	if (w->opt.primary_key && w->restored_table != NULL)
	{
		need = pm_arena_alloc(arena, sizeof(int64_t) * (size_t) (req->nchanges + 1));
		if (need == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		req->base_snapshot_id = pm_table_snapshot_id(w->restored_table);
		req->stale_need = need;
		req->checked_snapshot_id = &checked;
	}
	for (int round = 0;; round++)
	{
		bool		stale = false;

		rc = pm_table_commit(w->env, w->io, w->table_path, req, arena, snapshot_id, err);
		if (rc != PM_ERR_CONFLICT || need == NULL)
			return rc;
		for (int c = 0; c < req->nchanges; c++)
			stale |= need[c] >= 0;
		if (!stale || round + 1 >= STALE_ROUNDS)
			return rc;
		for (int c = 0; c < req->nchanges; c++)
		{
			bucket_writer *bw = change_bw[c];
			int64_t		min = INT64_MAX;

			if (need[c] < 0)
				continue;
			for (int f = 0; f < bw->nfiles; f++)
				if (bw->files[f].min_sequence_number < min)
					min = bw->files[f].min_sequence_number;
			/* bw->files is the commit's change (and the LSM writer's list): renumbered in place */
			PM_TRY(pm_resequence_files(w->env, w->io, w->layout, bw->dir, bw->files, bw->nfiles,
									   need[c] - min, w->commit_arena, err));
		}
		req->base_snapshot_id = checked;
		pm_error_clear(err);
	}
}

/* The DV index files a failed commit wrote. */
static void
remove_dv_files(pm_table_writer *w, const pm_commit_change *changes, int n)
{
	for (int c = 0; c < n; c++)
		for (int a = 0; a < changes[c].nindex_added; a++)
			pm_fileio_remove_quietly(w->io, changes[c].index_added[a].path);
}

/*
 * Whether DELETE and UPDATE mark rows deleted by their position in the
 * data file: append tables with deletion vectors.
 */
bool
pm_table_writer_deletes_by_position(const pm_table_writer *w)
{
	return !w->opt.primary_key && w->opt.deletion_vectors;
}

pm_code
pm_table_writer_delete_position(pm_table_writer *w, const pm_append_dv_file *file, int64_t pos,
								int64_t base_snapshot, bool *again, pm_error *err)
{
	if (!pm_table_writer_deletes_by_position(w))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "rows are deleted by position only in append tables with deletion vectors");
	if (w->append_dv == NULL)
		PM_TRY(pm_append_dv_create(w->env, w->opt.bucket == -1, w->opt.dv_bitmap64,
								   w->opt.index_in_data_dir, &w->append_dv, err));
	return pm_append_dv_delete(w->append_dv, file, pos, base_snapshot, again, err);
}

static pm_code commit_rows(pm_table_writer *w, int64_t commit_identifier,
						   const pm_commit_change *replaced, int nreplaced,
						   int64_t *snapshot_id, pm_error *err);

pm_code
pm_table_writer_commit(pm_table_writer *w, int64_t commit_identifier, int64_t *snapshot_id,
					   pm_error *err)
{
	return commit_rows(w, commit_identifier, NULL, 0, snapshot_id, err);
}

pm_code
pm_table_writer_commit_replacing(pm_table_writer *w, int64_t commit_identifier,
								 const pm_commit_change *replaced, int nreplaced,
								 int64_t *snapshot_id, pm_error *err)
{
	return commit_rows(w, commit_identifier, replaced, nreplaced, snapshot_id, err);
}

static pm_code
commit_rows(pm_table_writer *w, int64_t commit_identifier, const pm_commit_change *replaced,
			int nreplaced, int64_t *snapshot_id, pm_error *err)
{
	pm_commit_change *changes;
	bucket_writer **change_bw;
	pm_commit_change *dv_changes = NULL;
	int			ndv = 0;
	pm_commit_request req;
	int			nchanges = 0;
	pm_code		rc = PM_OK;
	pm_arena   *arena;

	*snapshot_id = 0;
	memset(&w->compaction, 0, sizeof(w->compaction));
	memset(&w->tags, 0, sizeof(w->tags));
	memset(&w->committed, 0, sizeof(w->committed));
	/* Java's prepareCommit closes every writer's current file / flushes its buffer */
	for (int i = 0; rc == PM_OK && i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; rc == PM_OK && bw != NULL; bw = bw->next)
		{
			rc = finish_file(w, bw, err);
			if (rc == PM_OK && bw->mt != NULL)
			{
				rc = pm_merge_tree_writer_flush(bw->mt, err);
				pm_merge_tree_writer_files(bw->mt, &bw->files, &bw->nfiles);
				pm_merge_tree_writer_changelog_files(bw->mt, &bw->cfiles, &bw->ncfiles);
			}
			/* DynamicBucketIndexMaintainer.prepareCommit: the grown hash set */
			if (rc == PM_OK && bw->has_hashes)
				rc = pm_dynamic_buckets_prepare_commit(w->dynamic, &bw->hashes, bw->dir,
													   w->commit_arena, err);
		}
	if (rc != PM_OK)
	{
		discard_pending(w);
		return rc;
	}
	/* append tables with deletion vectors: the DV index files of the deletions */
	if (w->append_dv != NULL && pm_append_dv_count(w->append_dv) > 0 &&
		(rc = pm_append_dv_prepare(w->append_dv, w->io, w->table_path, w->commit_arena,
								   &dv_changes, &ndv, err)) != PM_OK)
	{
		remove_dv_files(w, dv_changes, ndv);
		discard_pending(w);
		return rc;
	}
	changes = pm_arena_zalloc(w->commit_arena,
							  sizeof(*changes) * (size_t) (w->nwriters + ndv + nreplaced + 1));
	/* the bucket writer of each change (NULL for the DV and replaced changes) */
	change_bw = pm_arena_zalloc(w->commit_arena,
								sizeof(*change_bw) * (size_t) (w->nwriters + ndv + nreplaced + 1));
	if (changes == NULL || change_bw == NULL)
	{
		discard_pending(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	for (int i = 0; i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
		{
			pm_commit_change *c;
			bool		new_index = bw->has_hashes && bw->hashes.pending != NULL;

			if (bw->nfiles == 0 && !new_index)
				continue;
			change_bw[nchanges] = bw;
			c = &changes[nchanges++];
			c->partition = bw->partition;
			c->partition_len = bw->partition_len;
			c->bucket = bw->bucket;
			c->total_buckets = w->opt.bucket > 0 ? w->opt.bucket : w->pp_direct ? -2 : -1;
			if (w->opt.bucket == -2 && !w->pp_direct &&
				(rc = known_buckets(w, bw->partition, bw->partition_len, &c->total_buckets,
									err)) != PM_OK)
			{
				discard_pending(w);
				return rc;
			}
			c->nadded = bw->nfiles;
			c->added = bw->files;
			c->nchangelog = bw->mt != NULL ? bw->ncfiles : 0;
			c->changelog = bw->mt != NULL ? bw->cfiles : NULL;
			if (new_index)
			{
				/* the new HASH file replaces the bucket's live one */
				c->nindex_added = 1;
				c->index_added = bw->hashes.pending;
				c->nindex_deleted = bw->hashes.has_live ? 1 : 0;
				c->index_deleted = bw->hashes.has_live ? &bw->hashes.live : NULL;
			}
		}
	/* in the same snapshot as the rows (UPDATE: delete + insert) */
	for (int d = 0; d < ndv; d++)
		changes[nchanges++] = dv_changes[d];
	/* last: lookup_compact below takes the changes before them */
	for (int r = 0; r < nreplaced; r++)
		changes[nchanges++] = replaced[r];
	if (nchanges == 0)
		return forget_committed(w, err);
	memset(&req, 0, sizeof(req));
	req.commit_user = w->commit_user;
	req.commit_identifier = commit_identifier;
	/*
	 * ConflictDetection.shouldBeOverwriteCommit: DV index files make it
	 * OVERWRITE; the postpone compaction's files are its compact increment
	 * (PostponeBucketCommittableRewriter: compactAfter)
	 */
	req.commit_kind = nreplaced > 0 ? "COMPACT" : ndv > 0 ? "OVERWRITE" : "APPEND";
	req.append_deletion_vectors = ndv > 0;
	req.schema = w->schema;
	req.nchanges = nchanges;
	req.changes = changes;
	arena = pm_arena_create(w->env);
	if (arena == NULL)
	{
		discard_pending(w);
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	if (w->xpart != NULL)
		rc = xpart_check_base(w, err);
	if (rc == PM_OK)
		rc = commit_appended(w, &req, change_bw, arena, snapshot_id, err);
	/* our own commit keeps the index right: it stands for that snapshot now */
	if (rc == PM_OK && w->xpart != NULL && *snapshot_id > 0)
		w->xpart_base = *snapshot_id;
	for (int c = 0; rc == PM_OK && c < nchanges; c++)
		if (change_bw[c] != NULL && change_bw[c]->nfiles > 0)
		{
			w->committed.buckets++;
			w->committed.files += change_bw[c]->nfiles;
		}
	if (rc != PM_OK)
	{
		remove_dv_files(w, dv_changes, ndv);
		discard_pending(w);
	}
	else
	{
		compact_after_commit(w, &req, *snapshot_id, arena);
		/* changes live in the commit arena: compact before forgetting them */
		if (pm_lookup_compact_needed(&w->opt) && !w->pp_direct)
			rc = lookup_compact(w, commit_identifier, changes, nchanges - nreplaced,
								snapshot_id, err);
		/* committed: an APPEND snapshot stays, whatever the compaction did */
		if (rc == PM_OK)
		{
			rc = forget_committed(w, err);
			if (rc == PM_OK)
				auto_tags_after_commit(w, arena);
		}
		else
		{
			pm_error	ignored;

			pm_error_clear(&ignored);
			(void) forget_committed(w, &ignored);
		}
	}
	pm_arena_destroy(arena);
	return rc;
}

static void
free_writer(pm_table_writer *w)
{
	for (int i = 0; i < w->table_size; i++)
		for (bucket_writer *bw = w->table[i]; bw != NULL; bw = bw->next)
		{
			pm_merge_tree_writer_free(bw->mt);
			if (bw->has_hashes)
				pm_bucket_hashes_free(&bw->hashes);
		}
	pm_dynamic_buckets_free(w->dynamic);
	pm_cross_partition_free(w->xpart);
	pm_append_dv_free(w->append_dv);
	pm_merge_engine_destroy(w->engine);
	pm_merge_engine_destroy(w->run_engine);
	if (w->restored_scan != NULL)
		pm_scan_free(w->restored_scan);
	if (w->restored_table != NULL)
		pm_table_close(w->restored_table);
	pm_arena_destroy(w->commit_arena);
	pm_arena_destroy(w->scratch);
	pm_arena_destroy(w->arena);
}

void
pm_table_writer_abort(pm_table_writer *writer)
{
	if (writer == NULL)
		return;
	discard_pending(writer);
	free_writer(writer);
}

void
pm_table_writer_close(pm_table_writer *writer)
{
	pm_table_writer_abort(writer);
}
