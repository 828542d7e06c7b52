/*-------------------------------------------------------------------------
 * write_option_rules.c
 *	  The writer's verdict on every CoreOptions key of Apache Paimon 1.4.2
 *	  (write_option_rules.h), and the check that refuses a table carrying
 *	  an option this writer cannot honour.
 *
 * The audit read each option's users in release-1.4.2 (the writers
 * KeyValueFileStoreWrite / AppendFileStoreWrite, the compaction managers,
 * FileStoreCommitImpl / TableCommitImpl and its expiries, tag creation,
 * SchemaValidation). test_write_options.c checks that every 1.4.2 key has
 * a verdict here. README.md ("Writing") lists the refusals for users.
 *-------------------------------------------------------------------------
 */
#include "table/write_option_rules.h"

#include "lsm/record_expire.h"

#include <string.h>
#include <strings.h>

#define H(k, why) {k, PM_WRITE_HONOURED, NULL, false, why}
#define I(k, why) {k, PM_WRITE_IGNORED, NULL, false, why}
#define R(k, acc, why) {k, PM_WRITE_REFUSED, acc, false, why}
#define RPK(k, acc, why) {k, PM_WRITE_REFUSED, acc, true, why}

/* reasons shared by many keys */
#define PERF "speed or memory of Java's writer only; the files hold the same rows"
#define STREAM "streaming reads, Flink or Spark jobs only; not used by a batch write and commit"
#define READ "reading only"
#define LAYOUT "which files Java's compaction merges when; layout only, reads give the same rows"
#define CHANGELOG_RETENTION "the changelog retention of Java's snapshot expiry at commit (ExpireSnapshotsImpl keeps a decoupled changelog, ExpireChangelogImpl expires it): our commit expires nothing (see snapshot.num-retained.*), so the next Java commit applies it; paimon_expire_snapshots ignores it as Java's expire_snapshots procedure does (its ExpireConfig is never decoupled); its bounds are checked at creation (table/schema_validation.c)"
#define BY_REFUSAL(k) "takes effect only with " k ", which is refused"
#define AUTO_TAG "table/tag_auto.c: the process-time tags each commit creates (tag.automatic-creation = process-time); watermark and batch create no tag on our commits"

static const pm_write_option_rule rules[] = {
	I("add-column-before-partition", "schema changes only"),
	H("aggregation.remove-record-on-delete", "the merge engine (lsm/merge_engine.c)"),
	I("alter-column-null-to-not-null.disabled", "schema changes only"),
	I("async-file-write", PERF),
	I("auto-create", "table creation by a catalog only"),
	I("batch-scan-mode", READ),
	I("blob-as-descriptor", BY_REFUSAL("blob-field")),
	R("blob-descriptor-field", NULL, "blob files are not written"),
	R("blob-external-storage-field", NULL, "blob files are not written"),
	I("blob-external-storage-path", BY_REFUSAL("blob-external-storage-field")),
	R("blob-field", NULL, "blob files are not written"),
	I("blob.split-by-file-size", BY_REFUSAL("blob-field")),
	I("blob.target-file-size", BY_REFUSAL("blob-field")),
	R("branch", "main", "only the main branch is written"),
	H("bucket", "write_options.c (fixed, dynamic -1, postpone -2 written into fixed buckets)"),
	I("bucket-append-ordered", "Java's append compaction order of a bucket; " LAYOUT),
	H("bucket-function.type", "row/bucket_function.c: default, mod and hive route rows of fixed (and postpone batch) buckets; write_options.c checks the bucket key as Java"),
	H("bucket-key", "write_options.c, table/bucket_assigner.c"),
	I("cache-page-size", PERF),
	I("chain-table.chain-partition-keys", BY_REFUSAL("chain-table.enabled")),
	R("chain-table.enabled", "false", "chain tables are not written"),
	H("changelog-file.compression", "write_options.c: refused by name with changelog-producer = input, lookup or full-compaction (changelog files are written as the level-0 data files)"),
	H("changelog-file.format", "write_options.c: refused by name with changelog-producer = input, lookup or full-compaction (changelog files are written as the level-0 data files)"),
	H("changelog-file.prefix", "lsm/kv_file_writer.c (changelog files of changelog-producer = input, lookup and full-compaction)"),
	H("changelog-file.stats-mode", "write_options.c: refused by name with changelog-producer = input, lookup or full-compaction (changelog files are written as the level-0 data files)"),
	R("changelog-producer", "none|input|lookup|full-compaction", "input: lsm/merge_tree_writer.c; lookup: lsm/lookup_compact.c; full-compaction: lsm/compact.c (compactions into the max level, at commit and paimon_compact); write_options.c refuses full-compaction with dynamic buckets or force-lookup"),
	H("changelog-producer.row-deduplicate", "lsm/lookup_changelog.c (lookup and full-compaction changelogs); input changelogs hold every input record"),
	H("changelog-producer.row-deduplicate-ignore-fields", "lsm/lookup_changelog.c (see changelog-producer.row-deduplicate)"),
	I("changelog.num-retained.max", CHANGELOG_RETENTION),
	I("changelog.num-retained.min", CHANGELOG_RETENTION),
	I("changelog.time-retained", CHANGELOG_RETENTION),
	I("clustering.columns", "append tables: Java's clustering and sort compaction jobs (IncrementalClusterManager); " LAYOUT "; primary-key tables: see pk-clustering-override"),
	I("clustering.history-partition.idle-to-full-sort", "see clustering.columns"),
	I("clustering.history-partition.limit", "see clustering.columns"),
	I("clustering.incremental", "see clustering.columns"),
	I("clustering.incremental.mode", "see clustering.columns"),
	I("clustering.incremental.optimize-write", "see clustering.columns"),
	I("clustering.strategy", "see clustering.columns"),
	I("commit.callback.*.param", BY_REFUSAL("commit.callbacks")),
	R("commit.callbacks", "", "Java runs these classes after every commit; not run"),
	I("commit.discard-duplicate-files", "Java's streaming retries only: one commit never adds a file twice"),
	I("commit.force-compact", "Java compacts at every commit; " LAYOUT),
	I("commit.force-create-snapshot", "streaming jobs with nothing to write only"),
	H("commit.max-retries", "table/commit.c"),
	I("commit.max-retry-wait", "the wait between retries of a lost commit race; timing only"),
	I("commit.min-retry-wait", "the wait between retries of a lost commit race; timing only"),
	R("commit.strict-mode.last-safe-snapshot", NULL,
	  "Java's commit fails when another writer committed after this snapshot; not checked"),
	I("commit.timeout", "how long Java retries a lost commit race; timing only"),
	H("commit.user-prefix", "fdw/xact_write.c (the commit user)"),
	I("compaction.delete-ratio-threshold", "Java's append compaction with deletion vectors; " LAYOUT),
	I("compaction.file-num-limit", "Java's append compaction; " LAYOUT),
	H("compaction.force-rewrite-all-files", "lsm/compact_pick.c"),
	H("compaction.force-up-level-0", "lsm/compact_pick.c"),
	H("compaction.incremental-size-threshold", "lsm/compact_pick.c"),
	H("compaction.max-size-amplification-percent", "lsm/compact_pick.c"),
	H("compaction.min.file-num", "table/append_compact.c"),
	H("compaction.offpeak-ratio", "lsm/compact_pick.c"),
	H("compaction.offpeak.end.hour", "lsm/compact_pick.c"),
	H("compaction.offpeak.start.hour", "lsm/compact_pick.c"),
	H("compaction.optimization-interval", "lsm/compact_pick.c"),
	H("compaction.size-ratio", "lsm/compact_pick.c"),
	H("compaction.total-size-threshold", "lsm/compact_pick.c"),
	I("consumer-id", STREAM),
	I("consumer.changelog-only", STREAM),
	I("consumer.expiration-time", STREAM),
	I("consumer.ignore-progress", STREAM),
	I("consumer.mode", STREAM),
	I("continuous.discovery-interval", STREAM),
	I("cross-partition-upsert.bootstrap-parallelism", PERF),
	H("cross-partition-upsert.index-ttl", "refused for cross-partition upserts (write_options.c): a key index that forgets keys is not written"),
	R("data-evolution.enabled", "false", "data evolution is not written"),
	H("data-file.external-paths", "table/external_path.c, write_options.c pm_write_options_new_file: new data and changelog files of writers and compactions go under the external roots and record _EXTERNAL_PATH (local file: roots only; object storage is refused)"),
	H("data-file.external-paths.specific-fs", "table/external_path.c (the roots of that scheme)"),
	H("data-file.external-paths.strategy", "table/external_path.c (none, specific-fs, round-robin, weight-robin, entropy-inject)"),
	H("data-file.external-paths.weights", "table/external_path.c (weight-robin)"),
	H("data-file.path-directory", "write_options.c, table_write.c (bucket directories under <table>/<directory>/, as FileStorePathFactory.relativeBucketPath; compaction writes where the scan found the files)"),
	H("data-file.prefix", "write_options.c (data file names)"),
	H("data-file.thin-mode", "lsm/kv_file_writer.c (KeyValueThinDataFileWriterImpl: no _KEY_ columns, the key statistics those of the key fields' value columns)"),
	I("delete.force-produce-changelog", "Flink SQL DELETE planning only (SupportsRowLevelOperationFlinkTableSink)"),
	H("deletion-vector.index-file.target-size", "table/append_dv_write.c; primary-key tables: one index file per bucket, which Java reads alike"),
	H("deletion-vectors.bitmap64", "write_options.c, the DV index writers"),
	H("deletion-vectors.enabled", "lsm/lookup_compact.c, table/append_dv_write.c"),
	I("deletion-vectors.modifiable", "ALTER TABLE only"),
	I("disable-explicit-type-casting", "schema changes only"),
	I("dynamic-bucket.assigner-parallelism", "the number of Flink bucket assigners; written as one assigner, a layout Java reads and extends alike"),
	I("dynamic-bucket.initial-buckets", "the number of Flink bucket assigners; written as one assigner, a layout Java reads and extends alike"),
	H("dynamic-bucket.max-buckets", "write_options.c, table/dynamic_bucket.c"),
	H("dynamic-bucket.target-row-num", "write_options.c, table/dynamic_bucket.c"),
	I("dynamic-partition-overwrite", "INSERT OVERWRITE only, which is not written"),
	I("end-input.check-partition-expire", STREAM),
	H("file-index.in-manifest-threshold", "table/file_index_options.c"),
	I("file-index.read.enabled", READ),
	I("file-operation.thread-num", PERF),
	I("file-reader-async-threshold", PERF),
	H("file.block-size", "write_options.c (ORC stripes); Parquet row groups follow parquet.block.size"),
	H("file.compression", "write_options.c, the format writers"),
	H("file.compression.per.level", "write_options.c, lsm/kv_file_writer.c (the KeyValue files of each level; ORC files refused by name; append files take file.compression, as Java's)"),
	H("file.compression.zstd-level", "write_options.c, the format writers"),
	H("file.format", "write_options.c (parquet, avro, orc)"),
	H("file.format.per.level", "write_options.c, lsm/kv_file_writer.c (parquet or avro KeyValue files per level, orc refused by name; a level-0 file a lookup compaction moves to a level of another format is rewritten, as LookupMergeTreeCompactRewriter)"),
	H("file.suffix.include.compression", "write_options.c (data and changelog file names end in .<file.compression extension>.<format>, as DataFilePathFactory)"),
	H("force-lookup", "lsm/compact.c, lsm/lookup_compact.c"),
	I("format-table.commit-hive-sync-url", BY_REFUSAL("type")),
	I("format-table.file.compression", BY_REFUSAL("type")),
	I("format-table.implementation", BY_REFUSAL("type")),
	I("format-table.partition-path-only-value", BY_REFUSAL("type")),
	I("full-compaction.delta-commits", "Flink's sink only (StoreSinkWrite: a full compaction every N commits, with changelog-producer = full-compaction its changelog); Java's BatchTableWrite ignores it, and so do we: full-compaction changelogs come from paimon_compact and the compactions into the max level at commit (lsm/compact.c) as from Java's batch writer (refused as Java refuses it for unaware-bucket append tables)"),
	I("global-index.build.max-parallelism", "global index builds (row tracking) only"),
	I("global-index.build.max-shard", "global index builds (row tracking) only"),
	I("global-index.column-update-action", "global index builds (row tracking) only"),
	I("global-index.enabled", READ),
	H("global-index.external-path", "refused for dynamic-bucket primary-key tables (write_options.c)"),
	I("global-index.row-count-per-shard", "global index builds (row tracking) only"),
	I("global-index.thread-num", PERF),
	H("ignore-delete", "write_options.c (RowKindFilter)"),
	H("ignore-update-before", "write_options.c (RowKindFilter)"),
	I("incremental-between", READ),
	I("incremental-between-scan-mode", READ),
	I("incremental-between-tag-to-snapshot", READ),
	I("incremental-between-timestamp", READ),
	I("incremental-to-auto-tag", READ),
	H("index-file-in-data-file-dir", "table/data_file_path.c pm_index_dir_of_bucket: the deletion vectors and hash indexes each writer writes (table/append_dv_write.c, table/append_compact.c, lsm/lookup_compact.c, table/dynamic_bucket.c) go to the bucket directory, as IndexInDataFileDirPathFactory"),
	I("key-value.sequence_number.enabled", READ " (audit and binlog tables)"),
	I("local-merge-buffer-size", "Flink's local merge before the writer; " PERF),
	I("local-sort.max-num-file-handles", PERF),
	H("lookup-compact", "lsm/compact_pick.c"),
	H("lookup-compact.max-interval", "lsm/compact_pick.c"),
	I("lookup-wait", STREAM),
	I("lookup.cache-file-retention", PERF),
	I("lookup.cache-max-disk-size", PERF),
	I("lookup.cache-max-memory-size", PERF),
	I("lookup.cache-spill-compression", PERF),
	I("lookup.cache.bloom.filter.enabled", PERF),
	I("lookup.cache.bloom.filter.fpp", PERF),
	I("lookup.cache.high-priority-pool-ratio", PERF),
	I("lookup.hash-load-factor", PERF),
	I("lookup.merge-buffer-size", PERF),
	I("lookup.merge-records-threshold", PERF),
	I("lookup.remote-file.enabled", "Java's lookup cache files next to the data; " PERF),
	I("lookup.remote-file.level-threshold", PERF),
	H("manifest.compression", "table/commit.c"),
	I("manifest.delete-file-drop-stats", "DELETE manifest entries keep their stats; Java reads both"),
	R("manifest.format", "avro|parquet|orc", "manifests are written as Avro, Parquet or ORC only"),
	I("manifest.full-compaction-threshold-size", "Java's full manifest compaction: the next Java commit does it (table/commit.c)"),
	H("manifest.merge-min-count", "table/commit.c"),
	H("manifest.target-file-size", "table/commit.c"),
	I("materialized-table.definition-query", "Flink materialized tables only"),
	I("materialized-table.interval-freshness", "Flink materialized tables only"),
	I("materialized-table.interval-freshness.time-unit", "Flink materialized tables only"),
	I("materialized-table.logical-refresh-mode", "Flink materialized tables only"),
	I("materialized-table.refresh-handler-bytes", "Flink materialized tables only"),
	I("materialized-table.refresh-handler-description", "Flink materialized tables only"),
	I("materialized-table.refresh-mode", "Flink materialized tables only"),
	I("materialized-table.refresh-status", "Flink materialized tables only"),
	RPK("merge-engine", "deduplicate|partial-update|aggregation|first-row", "unknown merge engine"),
	H("metadata.stats-dense-store", "table/stats_build.c"),
	H("metadata.stats-keep-first-n-columns", "table/stats_build.c"),
	H("metadata.stats-mode", "table/stats_build.c"),
	H("metadata.stats-mode.per.level", "write_options.c, lsm/kv_file_writer.c (the KeyValue files of each level; append files take metadata.stats-mode, as Java's)"),
	I("metastore.partitioned-table", "Hive metastore sync by Java's catalog only"),
	I("metastore.tag-to-partition", "Hive metastore sync by Java's catalog only"),
	I("metastore.tag-to-partition.preview", "Hive metastore sync by Java's catalog only"),
	H("num-levels", "lsm/compact_pick.c"),
	H("num-sorted-run.compaction-trigger", "lsm/compact_pick.c"),
	H("num-sorted-run.stop-trigger", "lsm/compact_pick.c"),
	I("overwrite-upgrade", "INSERT OVERWRITE only, which is not written"),
	I("page-size", "the pages of Java's sort buffer; " PERF),
	H("parquet.enable.dictionary", "write_options.c, format/parquet_writer.c"),
	H("partial-update.remove-record-on-delete", "the merge engine (lsm/merge_engine.c)"),
	H("partial-update.remove-record-on-sequence-group", "the merge engine (lsm/merge_engine.c)"),
	H("partition", "the schema's partition keys"),
	H("partition.default-name", "write_options.c, table/partition_path.c"),
	I("partition.end-input-to-done", STREAM),
	I("partition.expiration-batch-size", "see partition.expiration-time"),
	I("partition.expiration-check-interval", "see partition.expiration-time"),
	I("partition.expiration-max-num", "see partition.expiration-time"),
	I("partition.expiration-strategy", "see partition.expiration-time"),
	I("partition.expiration-time", "Java's commit drops expired partitions at most once per partition.expiration-check-interval: the next Java commit does it; until then reads still show them, as after a Java commit inside the interval"),
	I("partition.idle-time-to-report-statistic", STREAM),
	H("partition.legacy-name", "table/partition_path.c"),
	I("partition.mark-done-action", STREAM),
	I("partition.mark-done-action.custom.class", STREAM),
	I("partition.mark-done-action.http.params", STREAM),
	I("partition.mark-done-action.http.url", STREAM),
	I("partition.sink-strategy", "how Flink routes rows to writers; " PERF),
	I("partition.timestamp-format.strict", "see partition.expiration-time"),
	I("partition.timestamp-formatter", "see partition.expiration-time"),
	I("partition.timestamp-pattern", "see partition.expiration-time"),
	I("path", "the table's location, given by the catalog"),
	R("pk-clustering-override", "false",
	  "Java sorts primary-key files by clustering.columns; not written"),
	H("postpone.batch-write-fixed-bucket", "table_write.c (true: fixed buckets as Flink's batch sink; false: the postpone bucket as PostponeBucketWriter; paimon_compact moves postpone files, lsm/postpone_compact.c)"),
	I("postpone.batch-write-fixed-bucket.max-parallelism", "Flink's bucket count of new partitions is written as 1 (table/table_write.c)"),
	H("postpone.default-bucket-num", "lsm/postpone_compact.c: the bucket count of a partition compacted for the first time"),
	H("primary-key", "the schema's primary key"),
	I("query-auth.enabled", READ),
	I("read.batch-size", READ),
	H("record-level.expire-time", "lsm/record_expire.c, lsm/compact.c, lsm/lookup_compact.c (compaction drops expired records)"),
	H("record-level.time-field", "lsm/record_expire.c"),
	R("row-tracking.enabled", "false", "row tracking is not written"),
	H("rowkind.field", "table/table_write.c: each row's kind from its column, as RowKindGenerator, then the RowKindFilter; primary-key tables write the kinds (fdw/modify.c refuses UPDATE and DELETE), append tables refuse -U and -D rows as Java's append writer"),
	I("scan.bounded.watermark", READ),
	I("scan.creation-time-millis", READ),
	I("scan.fallback-branch", READ),
	I("scan.fallback-delta-branch", READ),
	I("scan.fallback-snapshot-branch", READ),
	I("scan.file-creation-time-millis", READ),
	I("scan.ignore-corrupt-files", READ),
	I("scan.ignore-lost-files", READ),
	I("scan.manifest.parallelism", PERF),
	I("scan.max-splits-per-task", READ),
	I("scan.mode", READ),
	I("scan.plan-sort-partition", READ),
	I("scan.primary-branch", READ),
	I("scan.snapshot-id", READ),
	I("scan.tag-name", READ),
	I("scan.timestamp", READ),
	I("scan.timestamp-millis", READ),
	I("scan.version", READ),
	I("scan.watermark", READ),
	H("sequence.field", "the merge engine, write_options.c"),
	H("sequence.field.sort-order", "lsm/merge_engine.c pm_merge_engine_compare_records: the write buffer, spill merge, compactions and reads order records by it (UserDefinedSeqComparator)"),
	H("sink.process-time-zone", "table/tag_auto.c: the zone of process-time tags (unset: the process's local zone, as Java's JVM default)"),
	I("sink.watermark-time-zone", STREAM),
	I("snapshot.clean-empty-directories", "empty directories left by snapshot expiry stay; reads and Java's later expiries are unaffected"),
	I("snapshot.expire.execution-mode", "sync or async expiry: the same snapshots go"),
	H("snapshot.expire.limit", "table/snapshot_expire.c"),
	I("snapshot.ignore-empty-commit", "a transaction that writes nothing commits nothing; only an extra empty snapshot would differ"),
	H("snapshot.num-retained.max", "table/snapshot_expire.c"),
	H("snapshot.num-retained.min", "table/snapshot_expire.c"),
	H("snapshot.time-retained", "table/snapshot_expire.c"),
	I("snapshot.watermark-idle-timeout", STREAM),
	I("sort-compaction.local-sample.magnification", "sort compaction jobs only"),
	I("sort-compaction.range-strategy", "sort compaction jobs only"),
	I("sort-engine", "how Java merges sorted runs; " PERF),
	I("sort-spill-buffer-size", PERF),
	I("sort-spill-threshold", PERF),
	I("source.split.open-file-cost", READ),
	I("source.split.target-size", READ),
	I("spill-compression", "Java's spill files; " PERF),
	I("spill-compression.zstd-level", "Java's spill files; " PERF),
	I("stream-scan-mode", STREAM),
	I("streaming-read-append-overwrite", STREAM),
	I("streaming-read-overwrite", STREAM),
	I("streaming.read.snapshot.delay", STREAM),
	I("table-read.sequence-number.enabled", READ),
	H("tag.automatic-completion", AUTO_TAG),
	H("tag.automatic-creation", "table/tag_auto.c: process-time tags are created after each commit as Java's TableCommitImpl does; watermark and batch are written (Java tags no snapshot of ours with them)"),
	I("tag.batch.customized-name", "tag.automatic-creation = batch only (Java's batch jobs tag at their end)"),
	I("tag.callback.*.param", "the parameters of tag.callbacks, which are refused"),
	H("tag.callbacks", "table/tag_auto.c, table/tag.c pm_tag_options_of_schema: refused by name with tag.automatic-creation = process-time and by paimon_create_tag / paimon_delete_tag (Java classes run at tag creation and deletion); the commit then leaves TagTimeExpire to Java"),
	H("tag.create-success-file", "table/tag.c: tag/tag-success-file/<tag>_SUCCESS written at each tag creation, removed with the tag (SuccessFileTagCallback)"),
	H("tag.creation-delay", AUTO_TAG),
	H("tag.creation-period", AUTO_TAG),
	H("tag.creation-period-duration", AUTO_TAG),
	H("tag.default-time-retained", "table/tag.c pm_tag_create_with: the process-time auto tags and paimon_create_tag's carry tagCreateTime and tagTimeRetained (Tag.fromSnapshotAndTagTtl)"),
	H("tag.num-retained-max", AUTO_TAG),
	H("tag.period-formatter", AUTO_TAG),
	H("tag.time-expire-enabled", "table/tag_auto.c pm_tag_auto_run: every commit deletes the tags past their retention (TagTimeExpire), unless false"),
	H("target-file-size", "write_options.c (rolling files)"),
	R("type", "table", "only Paimon tables (type=table) are written"),
	R("upsert-key", NULL, "Java's engines turn INSERT into an upsert on this key; not done"),
	I("variant.inferShreddingSchema", "VARIANT columns are written unshredded, which Java reads alike"),
	I("variant.shredding.maxInferBufferRow", "VARIANT columns are written unshredded, which Java reads alike"),
	I("variant.shredding.maxSchemaDepth", "VARIANT columns are written unshredded, which Java reads alike"),
	I("variant.shredding.maxSchemaWidth", "VARIANT columns are written unshredded, which Java reads alike"),
	I("variant.shredding.minFieldCardinalityRatio", "VARIANT columns are written unshredded, which Java reads alike"),
	I("variant.shreddingSchema", "VARIANT columns are written unshredded, which Java reads alike"),
	R("vector-field", NULL, "vector files are not written"),
	R("vector.file.format", NULL, "vector files are not written"),
	I("vector.target-file-size", BY_REFUSAL("vector-field")),
	I("visibility-callback.check-interval", "see visibility-callback.enabled"),
	I("visibility-callback.enabled", "Java's batch job waits for a compaction after its commit; timing only"),
	I("visibility-callback.timeout", "see visibility-callback.enabled"),
	I("write-buffer-for-append", PERF),
	H("write-buffer-size", "write_options.c, the writers"),
	I("write-buffer-spill.max-disk-size", PERF),
	H("write-buffer-spillable", "write_options.c, lsm/spill_run.c"),
	I("write-max-writers-to-spill", PERF),
	H("write-only", "lsm/compact_pick.c, table/table_write.c: no compaction at commit"),
	I("write.batch-memory", PERF),
	I("write.batch-size", PERF),
	I("zorder.var-length-contribution", "sort compaction jobs only"),
};

const pm_write_option_rule *
pm_write_option_rules(size_t *n)
{
	*n = sizeof(rules) / sizeof(rules[0]);
	return rules;
}

/* '*' matches one or more characters */
static bool
pattern_match(const char *pat, const char *s)
{
	if (*pat == '\0')
		return *s == '\0';
	if (*pat == '*')
	{
		for (const char *t = s + 1; t <= s + strlen(s); t++)
			if (*s != '\0' && pattern_match(pat + 1, t))
				return true;
		return false;
	}
	return *s == *pat && pattern_match(pat + 1, s + 1);
}

const pm_write_option_rule *
pm_write_option_rule_of(const char *key)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strchr(rules[i].key, '*') != NULL ? pattern_match(rules[i].key, key)
			: strcmp(rules[i].key, key) == 0)
			return &rules[i];
	return NULL;
}

bool
pm_write_option_accepted(const char *accepted, const char *value)
{
	const char *p = accepted;
	size_t		n = strlen(value);

	while (p != NULL)
	{
		const char *bar = strchr(p, '|');
		size_t		len = bar ? (size_t) (bar - p) : strlen(p);

		if (len == n && strncasecmp(p, value, n) == 0)
			return true;
		p = bar ? bar + 1 : NULL;
	}
	return false;
}

/*
 * The boolean options the writer reads, with their fallback keys (Java
 * 1.4.2 CoreOptions, booleanType). Java's OptionsUtils.convertToBoolean
 * takes "true" or "false" in any case and fails on any other value where
 * the writer reads the option; pm_schema_bool_option reads such a value as
 * false, so the write refuses it first.
 */
static const char *const boolean_keys[] = {
	"compaction.force-rewrite-all-files",
	"compaction.force-up-level-0",
	"deduplicate.ignore-delete",
	"deletion-vectors.bitmap64",
	"deletion-vectors.enabled",
	"first-row.ignore-delete",
	"force-lookup",
	"ignore-delete",
	"ignore-update-before",
	"metadata.stats-dense-store",
	"partial-update.ignore-delete",
	"postpone.batch-write-fixed-bucket",
	"write-buffer-spillable",
	"write-only",
	"write.compaction-skip",
};

pm_code
pm_write_option_rules_check(const pm_schema *s, bool primary_key, pm_error *err)
{
	for (size_t i = 0; i < sizeof(boolean_keys) / sizeof(boolean_keys[0]); i++)
	{
		const char *v = pm_schema_option(s, boolean_keys[i]);

		if (v != NULL && strcasecmp(v, "true") != 0 && strcasecmp(v, "false") != 0)
			return pm_fail(err, PM_ERR_INVALID,
						   "table option %s = \"%s\": Unrecognized option for boolean: %s. Expected either true or false(case insensitive)",
						   boolean_keys[i], v, v);
	}
	if (primary_key)
		PM_TRY(pm_record_expire_check(s, err));
	for (int pass = primary_key ? 0 : 1; pass < 2; pass++)
		for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		{
			const pm_write_option_rule *r = &rules[i];
			const char *v;

			if (r->verdict != PM_WRITE_REFUSED || r->pk_only != (pass == 0))
				continue;
			v = pm_schema_option(s, r->key);
			if (v != NULL && (r->accepted == NULL || !pm_write_option_accepted(r->accepted, v)))
				return pm_fail(err, PM_ERR_UNSUPPORTED, "table option %s = \"%s\": %s",
							   r->key, v, r->why);
		}
	return PM_OK;
}
