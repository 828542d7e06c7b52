/*-------------------------------------------------------------------------
 * write_options.c
 *	  The writer's refusal list and the options it honours (write_options.h).
 *-------------------------------------------------------------------------
 */
#include "table/write_options.h"

#include "lsm/lookup_changelog.h"

#include "table/file_index_options.h"
#include "table/option_map.h"
#include "table/tag_auto.h"
#include "table/table_options.h"
#include "table/tag_period.h"
#include "table/write_option_rules.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

pm_code
pm_parse_memory_size(const char *key, const char *text, int64_t *bytes, pm_error *err)
{
	const char *p = text;
	const char *digits;
	const char *unit;
	size_t		unit_len;
	int64_t		n = 0;
	int64_t		mult = 1;

	while (isspace((unsigned char) *p))
		p++;
	digits = p;
	while (*p >= '0' && *p <= '9')
	{
		if (n > (INT64_MAX - 9) / 10)
			return pm_fail(err, PM_ERR_INVALID, "%s \"%s\" is too large", key, text);
		n = n * 10 + (*p - '0');
		p++;
	}
	if (p == digits)
		return pm_fail(err, PM_ERR_INVALID, "%s \"%s\" is not a memory size", key, text);
	while (isspace((unsigned char) *p))
		p++;
	unit = p;
	unit_len = strlen(unit);
	while (unit_len > 0 && isspace((unsigned char) unit[unit_len - 1]))
		unit_len--;
#define UNIT_IS(s) (unit_len == strlen(s) && strncasecmp(unit, s, unit_len) == 0)
	if (unit_len == 0 || UNIT_IS("b") || UNIT_IS("bytes"))
		mult = 1;
	else if (UNIT_IS("k") || UNIT_IS("kb") || UNIT_IS("kibibytes"))
		mult = 1024;
	else if (UNIT_IS("m") || UNIT_IS("mb") || UNIT_IS("mebibytes"))
		mult = 1024 * 1024;
	else if (UNIT_IS("g") || UNIT_IS("gb") || UNIT_IS("gibibytes"))
		mult = 1024LL * 1024 * 1024;
	else if (UNIT_IS("t") || UNIT_IS("tb") || UNIT_IS("tebibytes"))
		mult = 1024LL * 1024 * 1024 * 1024;
	else
		return pm_fail(err, PM_ERR_INVALID, "%s \"%s\": unknown memory unit", key, text);
#undef UNIT_IS
	if (n > INT64_MAX / mult)
		return pm_fail(err, PM_ERR_INVALID, "%s \"%s\" is too large", key, text);
	*bytes = n * mult;
	return PM_OK;
}

static pm_code
parse_int(const char *key, const char *text, int64_t lo, int64_t hi, int64_t *out,
		  pm_error *err)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(text, &end, 10);
	while (isspace((unsigned char) *end))
		end++;
	if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi)
		return pm_fail(err, PM_ERR_INVALID, "%s \"%s\" is not a valid integer", key, text);
	*out = v;
	return PM_OK;
}

static pm_code
parse_keys(const pm_schema *s, pm_arena *arena, pm_write_options *o, pm_error *err)
{
	const pm_type *row = s->row_type;
	int		   *pidx = pm_arena_alloc(arena, sizeof(int) * (size_t) (s->npartition_keys + 1));
	pm_field   *pf = pm_arena_alloc(arena, sizeof(pm_field) * (size_t) (s->npartition_keys + 1));
	const char *bk = pm_schema_option(s, "bucket-key");

	if (pidx == NULL || pf == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < s->npartition_keys; i++)
	{
		pidx[i] = pm_type_field_index(row, s->partition_keys[i]);
		if (pidx[i] < 0)
			return pm_fail(err, PM_ERR_INVALID, "partition key \"%s\" is not a column of the table",
						   s->partition_keys[i]);
		if (pm_type_is_nested(row->fields[pidx[i]].type->id))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "partition key \"%s\" has a nested type",
						   s->partition_keys[i]);
		pf[i] = row->fields[pidx[i]];
	}
	o->npartition_keys = s->npartition_keys;
	o->partition_fields = pidx;
	o->partition_type = pm_type_new_row(arena, pf, s->npartition_keys, false);
	if (o->partition_type == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");

	o->nbucket_keys = 0;
	o->bucket_key_fields = NULL;
	o->bucket_key_type = NULL;
	if (o->bucket == -1)
	{
		if (bk != NULL)
			return pm_fail(err, PM_ERR_INVALID,
						   "Cannot define 'bucket-key' with bucket = -1, please remove the 'bucket-key' setting or specify a bucket number.");
		if (!o->primary_key)
			return PM_OK;
		/* dynamic buckets: the trimmed primary key's hash picks the bucket */
	}
	if ((bk == NULL || *bk == '\0') && s->nprimary_keys > 0)
	{
		/* TableSchema.bucketKeys(): the trimmed primary key by default */
		int		   *bidx = pm_arena_alloc(arena, sizeof(int) * (size_t) (o->ntrimmed_keys + 1));
		pm_field   *bf = pm_arena_alloc(arena, sizeof(pm_field) * (size_t) (o->ntrimmed_keys + 1));

		if (bidx == NULL || bf == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int k = 0; k < o->ntrimmed_keys; k++)
		{
			bidx[k] = o->trimmed_key_fields[k];
			bf[k] = row->fields[bidx[k]];
		}
		o->nbucket_keys = o->ntrimmed_keys;
		o->bucket_key_fields = bidx;
		o->bucket_key_type = pm_type_new_row(arena, bf, o->ntrimmed_keys, false);
		if (o->bucket_key_type == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		return PM_OK;
	}
	if (bk == NULL || *bk == '\0')
		return pm_fail(err, PM_ERR_INVALID, "You should define a 'bucket-key' for bucketed append mode.");
	{
		int			cap = 1;
		int		   *bidx;
		pm_field   *bf;
		const char *p = bk;
		int			n = 0;

		for (const char *q = bk; *q; q++)
			if (*q == ',')
				cap++;
		bidx = pm_arena_alloc(arena, sizeof(int) * (size_t) cap);
		bf = pm_arena_alloc(arena, sizeof(pm_field) * (size_t) cap);
		if (bidx == NULL || bf == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		while (p != NULL)
		{
			const char *comma = strchr(p, ',');
			size_t		len = comma ? (size_t) (comma - p) : strlen(p);
			char	   *name = pm_arena_strndup(arena, p, len);
			int			idx;

			if (name == NULL)
				return pm_fail(err, PM_ERR_NOMEM, "out of memory");
			idx = pm_type_field_index(row, name);
			if (idx < 0)
				return pm_fail(err, PM_ERR_INVALID, "bucket-key \"%s\" is not a column of the table", name);
			if (pm_type_is_nested(row->fields[idx].type->id))
				return pm_fail(err, PM_ERR_INVALID, "nested type can not in bucket-key, in your table these key are [%s]", name);
			for (int k = 0; k < s->npartition_keys; k++)
				if (strcmp(s->partition_keys[k], name) == 0)
					return pm_fail(err, PM_ERR_INVALID,
								   "Field names %s should not contains any partition keys", name);
			if (s->nprimary_keys > 0)
			{
				bool		in_pk = false;

				for (int k = 0; k < s->nprimary_keys; k++)
					in_pk |= strcmp(s->primary_keys[k], name) == 0;
				/* SchemaValidation.validateBucket */
				if (!in_pk)
					return pm_fail(err, PM_ERR_INVALID,
								   "Primary key constraint should include all bucket keys: \"%s\" is not a primary key",
								   name);
			}
			bidx[n] = idx;
			bf[n] = row->fields[idx];
			n++;
			p = comma ? comma + 1 : NULL;
		}
		o->nbucket_keys = n;
		o->bucket_key_fields = bidx;
		o->bucket_key_type = pm_type_new_row(arena, bf, n, false);
		if (o->bucket_key_type == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	return PM_OK;
}

static bool
is_partition_key(const pm_schema *s, const char *name)
{
	for (int k = 0; k < s->npartition_keys; k++)
		if (strcmp(s->partition_keys[k], name) == 0)
			return true;
	return false;
}

/* A List<String>'s toString ("[a, b]"), cut to the buffer. */
static void
java_list(const char **names, int n, char *buf, size_t size)
{
	size_t		len = 0;

	buf[0] = '\0';
	for (int i = 0; i <= n; i++)
	{
		const char *piece = i == n ? "]" : names[i];
		const char *sep = i == 0 ? "[" : i < n ? ", " : "";

		snprintf(buf + len, size - len, "%s%s", sep, piece);
		len = strlen(buf);
	}
}

/*
 * The RowKindFilter (ignore-delete with its old names, ignore-update-before)
 * and the RowKindGenerator's column (rowkind.field), of every table.
 */
static pm_code
parse_row_kinds(const pm_schema *s, pm_write_options *o, pm_error *err)
{
	const pm_type *row = s->row_type;
	const char *v;

	o->ignore_delete = pm_schema_bool_option(s, "ignore-delete", false) ||
		pm_schema_bool_option(s, "first-row.ignore-delete", false) ||
		pm_schema_bool_option(s, "deduplicate.ignore-delete", false) ||
		pm_schema_bool_option(s, "partial-update.ignore-delete", false);
	o->ignore_update_before = pm_schema_bool_option(s, "ignore-update-before", false);
	o->rowkind_field = -1;
	if ((v = pm_schema_option(s, "rowkind.field")) != NULL)
	{
		int			idx = pm_type_field_index(row, v);

		if (idx < 0)
			return pm_fail(err, PM_ERR_INVALID, "Can not find rowkind %s in table schema", v);
		if (!pm_type_is_string(row->fields[idx].type->id))
			return pm_fail(err, PM_ERR_INVALID, "only support string type for rowkind, but %s is %s",
						   v, pm_type_id_name(row->fields[idx].type->id));
		o->rowkind_field = idx;
	}
	return PM_OK;
}

/* Primary-key tables: the refusals above and the trimmed key. */
static pm_code
parse_primary_key(const pm_schema *s, pm_arena *arena, pm_write_options *o, pm_error *err)
{
	const pm_type *row = s->row_type;
	int		   *tk = pm_arena_alloc(arena, sizeof(int) * (size_t) (s->nprimary_keys + 1));
	int			n = 0;
	const char *v;

	if (tk == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	o->primary_key = true;
	/* the primary-key-only refusals first (write_option_rules.c) */
	PM_TRY(pm_write_option_rules_check(s, true, err));
	for (int j = 0; j < s->nprimary_keys; j++)
	{
		int			idx = pm_type_field_index(row, s->primary_keys[j]);

		if (idx < 0)
			return pm_fail(err, PM_ERR_INVALID, "primary key \"%s\" is not a column of the table",
						   s->primary_keys[j]);
		if (is_partition_key(s, s->primary_keys[j]))
			continue;
		if (pm_type_is_nested(row->fields[idx].type->id))
			return pm_fail(err, PM_ERR_UNSUPPORTED, "primary key \"%s\" has a nested type",
						   s->primary_keys[j]);
		tk[n++] = idx;
	}
	if (n == 0)
		return pm_fail(err, PM_ERR_INVALID,
					   "Primary key constraint should not be same with partition fields");
	o->ntrimmed_keys = n;
	o->trimmed_key_fields = tk;
	o->write_buffer_spillable = pm_schema_bool_option(s, "write-buffer-spillable", true);
	o->first_row = pm_schema_option_is(s, "merge-engine", NULL, "first-row");
	v = pm_schema_option(s, "sequence.field");
	o->sequence_field = v != NULL && v[0] != '\0';
	return PM_OK;
}

/*
 * What the lookup compaction at commit needs (MergeTreeCompactManagerFactory,
 * UniversalCompaction, CoreOptions.numLevels).
 */
static pm_code
parse_lookup_compaction(const pm_schema *s, pm_write_options *o, bool for_compaction,
						pm_error *err)
{
	o->deletion_vectors = pm_schema_bool_option(s, "deletion-vectors.enabled", false);
	o->dv_bitmap64 = pm_schema_bool_option(s, "deletion-vectors.bitmap64", false);
	o->write_only = pm_schema_bool_option(s, "write-only", false);
	/*
	 * Creation refuses first-row + DV (schema_validation.c, as Java's
	 * SchemaValidation on create and alter) unless pk-clustering-override;
	 * this guard is only for a table already in that state (that option, or
	 * a schema another writer or an older Paimon left), refused as Java's
	 * MergeTreeCompactManagerFactory refuses it when its writer opens.
	 */
	if (o->primary_key && o->first_row && o->deletion_vectors)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table options merge-engine = \"first-row\" and deletion-vectors.enabled = \"true\": Java's writer refuses them together (first row merge engine does not need deletion vectors because there is no deletion of old data in this merge engine)");
	if (o->primary_key && o->bucket < 1 && o->changelog_lookup && !o->first_row &&
		!o->deletion_vectors && !for_compaction)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option changelog-producer = \"lookup\" with bucket = %d: lookup-changelog tables are written with a fixed bucket only (the lookup compaction at commit needs one)",
					   (int) o->bucket);
	/* postpone buckets (-2) are written into fixed buckets: lookup compacts them */
	if (o->primary_key && o->bucket < 1 && o->bucket != -2 &&
		(o->first_row || o->deletion_vectors) && !for_compaction)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option %s with bucket = %d: first-row and deletion-vector tables are written with a fixed bucket only (the lookup compaction at commit needs one)",
					   o->first_row ? "merge-engine = \"first-row\"" : "deletion-vectors.enabled = \"true\"",
					   (int) o->bucket);
	/*
	 * changelog-producer = full-compaction: its changelog comes from the
	 * compaction into the max level (lsm/compact.c), which runs on
	 * fixed-bucket tables without lookup only; with deletion vectors,
	 * first-row or force-lookup Java compacts with ForceUpLevel0Compaction
	 * and the full-changelog rewriter, which is not done here
	 */
	if (o->primary_key && o->changelog_full && o->bucket < 1)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option changelog-producer = \"full-compaction\" with bucket = %d: full-compaction-changelog tables are written with a fixed bucket only (the compaction that writes the changelog needs one)",
					   (int) o->bucket);
	if (o->primary_key && o->changelog_full &&
		(o->first_row || o->deletion_vectors || pm_schema_bool_option(s, "force-lookup", false)))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option changelog-producer = \"full-compaction\" with %s: Java's lookup compaction with the full-compaction changelog is not written",
					   o->first_row ? "merge-engine = \"first-row\"" :
					   o->deletion_vectors ? "deletion-vectors.enabled = \"true\"" :
					   "force-lookup = \"true\"");
	/* validated at open: the compaction at commit runs after the APPEND snapshot */
	PM_TRY(pm_compact_strategy_parse(s, &o->compact_strategy, err));
	/*
	 * gentle: Java leaves level 0 behind for up to max-interval commits, its
	 * changelog then merging several commits; ours compacts at every commit
	 */
	if (o->primary_key && o->changelog_lookup && !o->write_only &&
		o->compact_strategy.lookup_max_interval > 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option lookup-compact = \"gentle\" with changelog-producer = \"lookup\": the changelog of a gentle lookup compaction is not written (only radical, a compaction at every commit)");
	return PM_OK;
}

/*
 * SchemaValidation.validateSequenceField: no sequence.field when the primary
 * key lacks a partition key (TableSchema.crossPartitionUpdate, whatever the
 * bucket count). Checked at creation (table_create.c) and before writing.
 */
pm_code
pm_check_cross_partition_sequence(const pm_schema *s, pm_error *err)
{
	const char *v = pm_schema_option(s, "sequence.field");
	bool		cross = false;
	char		pk[160];
	char		part[160];

	if (v == NULL || v[0] == '\0' || s->nprimary_keys == 0)
		return PM_OK;
	for (int k = 0; k < s->npartition_keys; k++)
	{
		bool		in_pk = false;

		for (int j = 0; j < s->nprimary_keys; j++)
			in_pk |= strcmp(s->primary_keys[j], s->partition_keys[k]) == 0;
		cross |= !in_pk;
	}
	if (!cross)
		return PM_OK;
	java_list(s->primary_keys, s->nprimary_keys, pk, sizeof(pk));
	java_list(s->partition_keys, s->npartition_keys, part, sizeof(part));
	return pm_fail(err, PM_ERR_INVALID,
				   "You can not use sequence.field in cross partition update case (Primary key constraint '%s' not include all partition fields '%s').",
				   pk, part);
}

/*
 * Cross-partition upsert: the primary key lacks a partition key. With
 * bucket = -1 Java's KEY_DYNAMIC mode (the global key index,
 * cross_partition.h); with a fixed bucket count a plain fixed-bucket table
 * (a key may be in several partitions).
 */
static pm_code
parse_cross_partition(const pm_schema *s, pm_write_options *o, pm_error *err)
{
	if (!o->primary_key)
		return PM_OK;
	for (int k = 0; k < s->npartition_keys; k++)
	{
		bool		in_pk = false;

		for (int j = 0; j < s->nprimary_keys; j++)
			in_pk |= strcmp(s->primary_keys[j], s->partition_keys[k]) == 0;
		if (!in_pk)
			o->cross_partition = o->bucket == -1;
		if (!in_pk && o->bucket == -2)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "partition key \"%s\" is not in the primary key: cross-partition upsert tables with bucket = -2 are not written",
						   s->partition_keys[k]);
	}
	PM_TRY(pm_check_cross_partition_sequence(s, err));
	if (o->cross_partition)
	{
		if (pm_schema_option(s, "cross-partition-upsert.index-ttl") != NULL)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option cross-partition-upsert.index-ttl: a key index that forgets old keys is not written");
	}
	return PM_OK;
}

/*
 * An orc.* option holding a double, as Java's Double.parseDouble reads it
 * (surrounding blanks allowed); PM_ERR_INVALID otherwise.
 */
static pm_code
parse_orc_double(const pm_schema *s, const char *key, double dflt, double *out, pm_error *err)
{
	const char *v = pm_schema_option(s, key);
	char	   *end;

	*out = dflt;
	if (v == NULL)
		return PM_OK;
	errno = 0;
	*out = strtod(v, &end);
	while (isspace((unsigned char) *end))
		end++;
	if (errno != 0 || end == v || *end != '\0' || !isfinite(*out))
		return pm_fail(err, PM_ERR_INVALID, "%s \"%s\" is not a valid number", key, v);
	return PM_OK;
}

/*
 * ORC (OrcFileFormat.getOrcProperties, OrcWriterFactory): orc.compress wins
 * over file.compression, orc.compression.zstd.level over
 * file.compression.zstd-level, orc.stripe.size over file.block-size.
 * Dictionary encoding (orc.dictionary.key.threshold, default 0.8;
 * orc.column.encoding.direct), bloom filters (orc.bloom.filter.columns,
 * orc.bloom.filter.fpp, default 0.01) and the row index stride
 * (orc.row.index.stride, default 10000) as OrcConf reads them. The ORC 0.11
 * file format, LZO, nested columns, the "original" bloom filters, the
 * hash dictionary and the dictionary check at the first stripe instead of
 * the first row group are not written.
 */
static pm_code
parse_orc_options(const pm_schema *s, pm_write_options *o, pm_error *err)
{
	const char *v;
	int64_t		n;

	PM_TRY(parse_orc_double(s, "orc.dictionary.key.threshold", 0.8,
							&o->orc.dictionary_threshold, err));
	o->orc.direct_columns = pm_schema_option(s, "orc.column.encoding.direct");
	o->orc.bloom_columns = pm_schema_option(s, "orc.bloom.filter.columns");
	PM_TRY(parse_orc_double(s, "orc.bloom.filter.fpp", 0.01, &o->orc.bloom_fpp, err));
	if (o->orc.bloom_columns != NULL && o->orc.bloom_columns[0] != '\0' &&
		!(o->orc.bloom_fpp > 0.0 && o->orc.bloom_fpp < 1.0))
		return pm_fail(err, PM_ERR_INVALID,
					   "table option orc.bloom.filter.fpp = \"%s\": the false positive probability must be between 0 and 1",
					   pm_schema_option(s, "orc.bloom.filter.fpp"));
	if ((v = pm_schema_option(s, "orc.bloom.filter.write.version")) != NULL &&
		strcasecmp(v, "utf8") != 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option orc.bloom.filter.write.version = \"%s\": only utf8 bloom filters are written", v);
	if ((v = pm_schema_option(s, "orc.dictionary.implementation")) != NULL &&
		strcasecmp(v, "rbtree") != 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option orc.dictionary.implementation = \"%s\": only the rbtree dictionary is written", v);
	if ((v = pm_schema_option(s, "orc.dictionary.early.check")) != NULL &&
		strcasecmp(v, "true") != 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option orc.dictionary.early.check = \"%s\": the dictionary is only checked after the first row group", v);
	if ((v = pm_schema_option(s, "orc.write.format")) != NULL && strcmp(v, "0.12") != 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option orc.write.format = \"%s\": only ORC 0.12 files are written", v);
	if ((v = pm_schema_option(s, "orc.compress")) != NULL)
		o->compression = v;
	/* what orc_writer.c takes, checked before any row is buffered */
	if (!pm_format_writer_takes_compression(PM_FORMAT_ORC, o->compression))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option %s = \"%s\": ORC files are written with zstd, snappy, lz4, zlib or none",
					   pm_schema_option(s, "orc.compress") ? "orc.compress" : "file.compression",
					   o->compression);
	for (int i = 0; i < s->row_type->nfields; i++)
	{
		const pm_type *t = s->row_type->fields[i].type;

		/* ARRAY, MAP, ROW, MULTISET: orc_nested_write.c */
		if (t->id == PM_TYPE_VARIANT)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "column \"%s\" of type %s cannot be written to ORC files",
						   s->row_type->fields[i].name, pm_type_id_name(t->id));
	}
	if ((v = pm_schema_option(s, "orc.compression.zstd.level")) != NULL)
	{
		PM_TRY(parse_int("orc.compression.zstd.level", v, 1, 22, &n, err));
		o->zstd_level = (int) n;
	}
	/*
	 * orc.row.index.stride (OrcConf.ROW_INDEX_STRIDE, default 10000) as
	 * WriterImpl takes it: 0 or less, or orc.create.index = false, writes no
	 * row index (and no bloom filters), which is not done here; 1 to 999 is
	 * its IllegalArgumentException
	 */
	if ((v = pm_schema_option(s, "orc.create.index")) != NULL &&
		strcasecmp(v, "false") == 0)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option orc.create.index = \"%s\": ORC files without row indexes are not written", v);
	if ((v = pm_schema_option(s, "orc.row.index.stride")) != NULL)
	{
		PM_TRY(parse_int("orc.row.index.stride", v, INT32_MIN, INT32_MAX, &n, err));
		if (n <= 0)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option orc.row.index.stride = \"%s\": ORC files without row indexes are not written", v);
		if (n < 1000)
			return pm_fail(err, PM_ERR_INVALID,
						   "table option orc.row.index.stride = \"%s\": Row stride must be at least 1000", v);
		o->orc.row_index_stride = (int32_t) n;
	}
	o->row_group_bytes = 0;
	if ((v = pm_schema_option(s, "orc.stripe.size")) != NULL)
	{
		PM_TRY(parse_int("orc.stripe.size", v, 1, INT64_MAX, &n, err));
		o->row_group_bytes = n;
	}
	else if ((v = pm_schema_option(s, "file.block-size")) != NULL)
		PM_TRY(pm_parse_memory_size("file.block-size", v, &o->row_group_bytes, err));
	return PM_OK;
}

/*
 * DataFilePathFactory.makeExtension: with file.suffix.include.compression,
 * ".<ext>.<format>" where ext is file.compression's HadoopCompressionType
 * file extension (zstd: zst, gzip: gz, bzip2: bz2; none: no suffix), or the
 * compression name itself. Java takes file.compression (default zstd) for
 * every file of the table, whatever orc.compress or the level's
 * compression.
 */
static pm_code
file_extension(const pm_schema *s, pm_arena *arena, const char *format_name,
			   const char **out, pm_error *err)
{
	static const char *const ext[][2] = {
		{"none", NULL}, {"gzip", "gz"}, {"bzip2", "bz2"}, {"deflate", "deflate"},
		{"snappy", "snappy"}, {"lz4", "lz4"}, {"zstd", "zst"}
	};
	const char *c = pm_schema_option(s, "file.compression");
	const char *suffix;

	*out = format_name;
	if (!pm_schema_bool_option(s, "file.suffix.include.compression", false))
		return PM_OK;
	if (c == NULL)
		c = "zstd";
	if (c[0] == '\0')
		return PM_OK;
	suffix = c;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (strcasecmp(c, ext[i][0]) == 0)
			suffix = ext[i][1];
	if (suffix == NULL)
		return PM_OK;
	if (strchr(suffix, '/') != NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option file.compression = \"%s\": a '/' in a file name suffix is not written",
					   c);
	if ((*out = pm_arena_sprintf(arena, "%s.%s", suffix, format_name)) == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	return PM_OK;
}

/*
 * A level -> value map option ("0:lz4,1:zstd", CoreOptions.fileCompressionPerLevel,
 * statsModePerLevel): levels are Integer.valueOf keys.
 */
static pm_code
parse_level_map(const char *key, const char *v, pm_arena *arena, int *n, const int **levels_out,
				const char ***vals, pm_error *err)
{
	const char **keys;
	int		   *levels;

	PM_TRY(pm_option_map_parse(key, v, arena, &keys, vals, n, err));
	levels = pm_arena_alloc(arena, sizeof(int) * (size_t) (*n + 1));
	if (levels == NULL)
		return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	for (int i = 0; i < *n; i++)
	{
		int64_t		level;

		PM_TRY(parse_int(key, keys[i], INT32_MIN, INT32_MAX, &level, err));
		levels[i] = (int) level;
	}
	*levels_out = levels;
	return PM_OK;
}

/*
 * The per-level options of primary-key tables (Java's append writer takes
 * the table-wide ones): file.format.per.level (parquet, avro) and
 * file.compression.per.level, each level's compression checked now as its
 * format's writer would (Parquet, Avro), not when the first file of that
 * level is written; ORC tables refused with either;
 * metadata.stats-mode.per.level, each mode parsed.
 */
static pm_code
parse_per_level(const pm_schema *s, pm_arena *arena, pm_write_options *o, pm_error *err)
{
	const char *v;

	if (s->nprimary_keys == 0)
		return PM_OK;
	if ((v = pm_schema_option(s, "file.format.per.level")) != NULL)
	{
		const char **names;
		pm_file_format *formats;
		const char **exts;

		/* an ORC table's compression is orc.compress's, a Parquet level's file.compression's */
		if (o->format == PM_FORMAT_ORC)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option file.format.per.level = \"%s\": levels of another format in an ORC table are not written",
						   v);

		PM_TRY(parse_level_map("file.format.per.level", v, arena, &o->nformat_levels,
							   &o->format_levels, &names, err));
		formats = pm_arena_alloc(arena, sizeof(pm_file_format) * (size_t) (o->nformat_levels + 1));
		exts = pm_arena_alloc(arena, sizeof(char *) * (size_t) (o->nformat_levels + 1));
		if (formats == NULL || exts == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		for (int i = 0; i < o->nformat_levels; i++)
		{
			/* CoreOptions.normalizeFileFormat: lower case */
			if (strcasecmp(names[i], "parquet") == 0)
				formats[i] = PM_FORMAT_PARQUET;
			else if (strcasecmp(names[i], "avro") == 0)
				formats[i] = PM_FORMAT_AVRO;
			else
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "table option file.format.per.level = \"%s\": level %d in \"%s\": only parquet and avro files are written for a level",
							   v, o->format_levels[i], names[i]);
			PM_TRY(file_extension(s, arena, formats[i] == PM_FORMAT_AVRO ? "avro" : "parquet",
								  &exts[i], err));
		}
		o->format_by_level = formats;
		o->extension_by_level = exts;
	}
	if ((v = pm_schema_option(s, "file.compression.per.level")) != NULL)
	{
		if (o->format == PM_FORMAT_ORC)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option file.compression.per.level = \"%s\": per-level compression of ORC files is not written",
						   v);
		PM_TRY(parse_level_map("file.compression.per.level", v, arena, &o->ncompression_levels,
							   &o->compression_levels, &o->compression_by_level, err));
	}
	/* every level named: its compression fits its format (checked by Java's writer) */
	for (int k = 0; k < o->ncompression_levels + o->nformat_levels; k++)
	{
		int			level = k < o->ncompression_levels ? o->compression_levels[k]
			: o->format_levels[k - o->ncompression_levels];
		const char *ext;
		pm_file_format f = pm_write_options_format(o, level, &ext);
		const char *c = pm_write_options_compression(o, level);

		if (!pm_format_writer_takes_compression(f, c))
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option file.compression%s: compression \"%s\" of level %d is not written for %s files",
						   k < o->ncompression_levels ? ".per.level" : "", c, level,
						   f == PM_FORMAT_AVRO ? "avro" : "parquet");
	}
	if ((v = pm_schema_option(s, "metadata.stats-mode.per.level")) != NULL)
	{
		PM_TRY(parse_level_map("metadata.stats-mode.per.level", v, arena,
							   &o->nstats_mode_levels, &o->stats_mode_levels,
							   &o->stats_mode_by_level, err));
		for (int i = 0; i < o->nstats_mode_levels; i++)
		{
			pm_stats_mode m;

			PM_TRY(pm_stats_mode_parse(o->stats_mode_by_level[i], &m, err));
		}
	}
	return PM_OK;
}

/*
 * A MULTISET of a nested type within t: every format writes a MULTISET as
 * the map of each distinct element to its count (Java's), and the writers
 * group elements by value only when they are primitive.
 */
static const pm_type *
nested_multiset(const pm_type *t)
{
	const pm_type *found = NULL;

	switch (t->id)
	{
		case PM_TYPE_MULTISET:
			return pm_type_is_nested(t->element->id) ? t : nested_multiset(t->element);
		case PM_TYPE_ARRAY:
			return nested_multiset(t->element);
		case PM_TYPE_MAP:
			return (found = nested_multiset(t->element)) != NULL ? found : nested_multiset(t->value);
		case PM_TYPE_ROW:
			for (int i = 0; i < t->nfields && found == NULL; i++)
				found = nested_multiset(t->fields[i].type);
			return found;
		default:
			return NULL;
	}
}

static pm_code
parse_options(const pm_schema *s, pm_arena *arena, pm_write_options *o, bool for_compaction,
			  pm_error *err)
{
	const char *v;
	int64_t		n;

	memset(o, 0, sizeof(*o));
	if (s->nprimary_keys > 0)
		PM_TRY(parse_primary_key(s, arena, o, err));
	if (s->nprimary_keys == 0)
		PM_TRY(pm_write_option_rules_check(s, false, err));
	PM_TRY(parse_row_kinds(s, o, err));
	PM_TRY(pm_file_index_plan_of_schema(s, arena, &o->file_index, err));
	PM_TRY(pm_tag_auto_check_schema(s, err));
	/* DataField.defaultValue: table_write.c (default_value.h) */
	for (int i = 0; i < s->row_type->nfields; i++)
	{
		const pm_type *ms = nested_multiset(s->row_type->fields[i].type);

		if (s->row_type->fields[i].type->id == PM_TYPE_BLOB)
			return pm_fail(err, PM_ERR_UNSUPPORTED, "column \"%s\": BLOB columns are not written",
						   s->row_type->fields[i].name);
		if (ms != NULL)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "column \"%s\": MULTISET of %s is not written (only MULTISET of a primitive type)",
						   s->row_type->fields[i].name, pm_type_id_name(ms->element->id));
	}

	v = pm_schema_option(s, "file.format");
	if (v == NULL || strcasecmp(v, "parquet") == 0)
	{
		o->format = PM_FORMAT_PARQUET;
		o->format_name = "parquet";
	}
	else if (strcasecmp(v, "avro") == 0)
	{
		o->format = PM_FORMAT_AVRO;
		o->format_name = "avro";
	}
	else if (strcasecmp(v, "orc") == 0)
	{
		o->format = PM_FORMAT_ORC;
		o->format_name = "orc";
	}
	else
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option file.format = \"%s\": only parquet, avro and orc data files are written", v);

	PM_TRY(file_extension(s, arena, o->format_name, &o->file_extension, err));
	if ((o->data_dir = pm_schema_option(s, "data-file.path-directory")) != NULL &&
		(o->data_dir[0] == '\0' || o->data_dir[0] == '/' || strstr(o->data_dir, "..") != NULL ||
		 strstr(o->data_dir, "//") != NULL))
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option data-file.path-directory = \"%s\": only a relative directory below the table's is written",
					   o->data_dir);
	if (o->format == PM_FORMAT_AVRO && (v = pm_schema_option(s, "avro.codec")) != NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option avro.codec = \"%s\": set file.compression instead", v);
	v = pm_schema_option(s, "file.compression");
	o->compression = v != NULL ? v : "zstd";
	o->zstd_level = 1;
	if ((v = pm_schema_option(s, "file.compression.zstd-level")) != NULL)
	{
		PM_TRY(parse_int("file.compression.zstd-level", v, -131072, 22, &n, err));
		o->zstd_level = (int) n;
	}
	PM_TRY(parse_per_level(s, arena, o, err));
	if ((v = pm_schema_option(s, "parquet.block.size")) != NULL)
		PM_TRY(pm_parse_memory_size("parquet.block.size", v, &o->row_group_bytes, err));
	if ((v = pm_schema_option(s, "parquet.page.size")) != NULL)
		PM_TRY(pm_parse_memory_size("parquet.page.size", v, &o->page_bytes, err));
	o->dictionary = pm_schema_bool_option(s, "parquet.enable.dictionary", true);
	if (o->format == PM_FORMAT_ORC)
		PM_TRY(parse_orc_options(s, o, err));
	/* CoreOptions.targetFileSize(hasPrimaryKey): 128 MiB for primary-key tables */
	o->target_file_size = (o->primary_key ? 128LL : 256LL) * 1024 * 1024;
	if ((v = pm_schema_option(s, "target-file-size")) != NULL)
		PM_TRY(pm_parse_memory_size("target-file-size", v, &o->target_file_size, err));
	if (o->target_file_size <= 0)
		return pm_fail(err, PM_ERR_INVALID, "target-file-size must be positive");
	o->write_buffer_size = 256LL * 1024 * 1024;
	if ((v = pm_schema_option(s, "write-buffer-size")) != NULL)
		PM_TRY(pm_parse_memory_size("write-buffer-size", v, &o->write_buffer_size, err));
	if (o->write_buffer_size <= 0)
		return pm_fail(err, PM_ERR_INVALID, "write-buffer-size must be positive");
	v = pm_schema_option(s, "data-file.prefix");
	o->data_file_prefix = v != NULL ? v : "data-";
	if (strchr(o->data_file_prefix, '/') != NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "table option data-file.prefix = \"%s\": a '/' in the prefix is not written", o->data_file_prefix);
	/* changelog-producer = input (MergeTreeWriter.flushWriteBuffer) */
	v = pm_schema_option(s, "changelog-producer");
	o->changelog_input = v != NULL && strcasecmp(v, "input") == 0;
	o->changelog_lookup = v != NULL && strcasecmp(v, "lookup") == 0;
	o->changelog_full = v != NULL && strcasecmp(v, "full-compaction") == 0;
	v = pm_schema_option(s, "changelog-file.prefix");
	o->changelog_file_prefix = v != NULL ? v : "changelog-";
	if ((o->changelog_input || o->changelog_lookup || o->changelog_full) && strchr(o->changelog_file_prefix, '/') != NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED, "table option changelog-file.prefix = \"%s\": a '/' in the prefix is not written", o->changelog_file_prefix);
	if (o->changelog_input || o->changelog_lookup || o->changelog_full)
	{
		static const char *const own[] = {"changelog-file.format", "changelog-file.compression",
		"changelog-file.stats-mode"};

		/* the changelog files are written as the level-0 data files */
		for (int i = 0; i < 3; i++)
			if ((v = pm_schema_option(s, own[i])) != NULL)
				return pm_fail(err, PM_ERR_UNSUPPORTED,
							   "table option %s = \"%s\": changelog files in another format, compression or stats mode than the data files are not written",
							   own[i], v);
	}
	v = pm_schema_option(s, "partition.default-name");
	o->partition_default_name = v != NULL ? v : "__DEFAULT_PARTITION__";
	v = pm_schema_option(s, "manifest.compression");
	o->manifest_compression = v != NULL ? v : "zstd";

	o->bucket = -1;				/* the default: unaware or dynamic */
	if ((v = pm_schema_option(s, "bucket")) != NULL)
	{
		PM_TRY(parse_int("bucket", v, INT32_MIN, INT32_MAX, &n, err));
		/*
		 * Postpone buckets: written as Flink's batch sink writes them
		 * (postpone.batch-write-fixed-bucket, default true), into fixed
		 * buckets; with it false the rows would go to bucket-postpone,
		 * which the writer refuses (table_write.c) but the postpone
		 * compaction takes (lsm/postpone_compact.h).
		 */
		if (n == -2 && !o->primary_key)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option bucket = -2 without a primary key: rows would go to the postpone bucket, which batch reads skip until a Flink or Spark compaction job moves them into real buckets");
		o->postpone_batch_fixed = n == -2 &&
			pm_schema_bool_option(s, "postpone.batch-write-fixed-bucket", true);
		if (n != -1 && n != -2 && n < 1)
			return pm_fail(err, PM_ERR_INVALID, "The number of buckets needs to be greater than 0.");
		o->bucket = (int32_t) n;
	}
	PM_TRY(parse_cross_partition(s, o, err));
	if (o->bucket == -1 && pm_schema_option(s, "full-compaction.delta-commits") != NULL)
		return pm_fail(err, PM_ERR_INVALID,
					   "AppendOnlyTable of unaware or dynamic bucket does not support 'full-compaction.delta-commits'");
	/* dynamic buckets (HashBucketAssigner with one assigner, hash index files) */
	o->dynamic_target_rows = 2000000;
	o->dynamic_max_buckets = -1;
	if ((v = pm_schema_option(s, "dynamic-bucket.target-row-num")) != NULL)
	{
		PM_TRY(parse_int("dynamic-bucket.target-row-num", v, INT64_MIN, INT64_MAX, &n, err));
		if (n <= 0 && o->primary_key && o->bucket == -1)
			return pm_fail(err, PM_ERR_INVALID,
						   "dynamic-bucket.target-row-num = %lld: it must be greater than 0", (long long) n);
		o->dynamic_target_rows = n;
	}
	if ((v = pm_schema_option(s, "dynamic-bucket.max-buckets")) != NULL)
	{
		PM_TRY(parse_int("dynamic-bucket.max-buckets", v, INT32_MIN, INT32_MAX, &n, err));
		if (n != -1 && n <= 0 && o->primary_key && o->bucket == -1)
			return pm_fail(err, PM_ERR_INVALID,
						   "dynamic-bucket.max-buckets = %lld: it should either be equal to -1 (unlimited), or it must be greater than 0 (fixed upper bound)",
						   (long long) n);
		o->dynamic_max_buckets = (int32_t) n;
	}
	o->index_in_data_dir = pm_schema_bool_option(s, "index-file-in-data-file-dir", false);
	o->thin_mode = pm_schema_thin_mode(s);
	if (o->primary_key && o->bucket == -1 && pm_schema_option(s, "global-index.external-path") != NULL)
		return pm_fail(err, PM_ERR_UNSUPPORTED,
					   "table option global-index.external-path: hash index files in an external path are not written");
	PM_TRY(parse_keys(s, arena, o, err));
	/* BucketFunction.create: the function, and whether it takes the bucket key */
	PM_TRY(pm_bucket_function_parse(pm_schema_option(s, "bucket-function.type"),
									&o->bucket_function, err));
	if (o->bucket_key_type != NULL && (o->bucket > 0 || o->bucket == -2))
		PM_TRY(pm_bucket_function_check(o->bucket_function, o->bucket_key_type, err));
	PM_TRY(parse_lookup_compaction(s, o, for_compaction, err));
	/* refused before anything is written, not at the compaction after the APPEND snapshot */
	if (o->primary_key && (o->changelog_lookup || o->changelog_full))
	{
		pm_changelog_dedup dedup;

		PM_TRY(pm_changelog_dedup_parse(s, arena, &dedup, err));
	}
	PM_TRY(pm_stats_modes_of_schema(s, arena, &o->stats_modes, err));
	o->stats_dense = pm_schema_bool_option(s, "metadata.stats-dense-store", true);
	PM_TRY(pm_external_paths_parse(pm_schema_option(s, "data-file.external-paths"),
								   pm_schema_option(s, "data-file.external-paths.strategy"),
								   pm_schema_option(s, "data-file.external-paths.specific-fs"),
								   pm_schema_option(s, "data-file.external-paths.weights"),
								   arena, &o->external, err));
	if (o->external != NULL)
	{
		/* IndexInDataFileDirPathFactory: index files would follow the data files out */
		if (o->index_in_data_dir)
			return pm_fail(err, PM_ERR_UNSUPPORTED,
						   "table option index-file-in-data-file-dir with data-file.external-paths: index files in external paths are not written");
		o->external_components = o->npartition_keys + 1;
		if (o->data_dir != NULL)
		{
			o->external_components++;
			for (const char *p = o->data_dir; *p; p++)
				o->external_components += *p == '/' && p[1] != '\0';
		}
	}
	return PM_OK;
}

pm_code
pm_write_options_new_file(const pm_write_options *o, const char *bucket_dir, const char *name,
						  pm_arena *arena, char **path, char **external, pm_error *err)
{
	const char *rel;

	*external = NULL;
	if (o->external == NULL)
	{
		if ((*path = pm_arena_sprintf(arena, "%s/%s", bucket_dir, name)) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
		return PM_OK;
	}
	if ((rel = pm_path_last_components(bucket_dir, o->external_components)) == NULL)
		return pm_fail(err, PM_ERR_INVALID, "%s: not a bucket directory", bucket_dir);
	return pm_external_paths_next(o->external, rel, name, arena, path, external, err);
}

pm_code
pm_write_options_mkdirs(pm_fileio *io, const char *bucket_dir, const char *path,
						const char *external, bool first, pm_arena *arena, pm_error *err)
{
	const char *dir = bucket_dir;

	if (external != NULL)
	{
		const char *slash = strrchr(path, '/');

		if (slash == NULL || (dir = pm_arena_strndup(arena, path, (size_t) (slash - path))) == NULL)
			return pm_fail(err, PM_ERR_NOMEM, "out of memory");
	}
	else if (!first)
		return PM_OK;
	return io->mkdirs ? io->mkdirs(io, dir, err)
		: pm_fail(err, PM_ERR_UNSUPPORTED, "the FileIO cannot write");
}

pm_code
pm_write_options_parse(const pm_schema *s, pm_arena *arena, pm_write_options *o, pm_error *err)
{
	return parse_options(s, arena, o, false, err);
}

pm_code
pm_write_options_parse_compaction(const pm_schema *s, pm_arena *arena, pm_write_options *o,
								  pm_error *err)
{
	return parse_options(s, arena, o, true, err);
}
