-- Table options the writer cannot honour (src/table/write_option_rules.c):
-- paimon_create_table makes the table (Java writes it), but INSERT, UPDATE,
-- DELETE and paimon_compact refuse it with 0A000 naming the option and its
-- value, before any file is written; options the writer honours or that are
-- harmless to ignore (layout, timing, the next Java commit's work) leave it
-- writable.
\set SHOW_CONTEXT never
\set VERBOSITY default
-- the warehouse lives in the data directory (writable by the server, gone with it)
SELECT current_setting('data_directory') || '/paimon_write_options_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wopt FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wopt', 'db');

-- the snapshot files of a table
CREATE FUNCTION snapshots(tbl text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_options_test/db.db/' || tbl || '/snapshot', true, false) f
  WHERE f ~ '^snapshot-[0-9]+$' $$;
-- the tag files of a table
CREATE FUNCTION tags(tbl text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_options_test/db.db/' || tbl || '/tag', true, false) f
  WHERE f ~ '^tag-' $$;

-- record-level.expire-time on primary-key tables is honoured: write_record_expire.sql

-- an append table has no record-level expiry in Java: written
SELECT paimon_create_table('wopt', 'db', 'events',
  'id BIGINT, ts TIMESTAMP(3)',
  options => '{"record-level.expire-time": "1 d", "record-level.time-field": "ts"}',
  foreign_table => 'events');
INSERT INTO events VALUES (1, '2026-01-01 00:00:00');
SELECT * FROM events;

-- process-time: each commit creates the tags Java's commit would (src/table/tag_auto.c):
-- the first snapshot tags the day before its own
SELECT paimon_create_table('wopt', 'db', 'tagged', 'id BIGINT',
  options => '{"tag.automatic-creation": "process-time", "tag.creation-period": "daily"}',
  foreign_table => 'tagged');
INSERT INTO tagged VALUES (1);
SELECT snapshots('tagged'), tags('tagged');
-- what those tags would not honour is refused by name, before any file is written
SELECT paimon_create_table('wopt', 'db', 'tagcb', 'id BIGINT',
  options => '{"tag.automatic-creation": "process-time", "tag.callbacks": "x.Callback"}',
  foreign_table => 'tagcb');
\set VERBOSITY verbose
INSERT INTO tagcb VALUES (1);
\set VERBOSITY default
SELECT paimon_create_table('wopt', 'db', 'tagzone', 'id BIGINT',
  options => '{"tag.automatic-creation": "process-time", "sink.process-time-zone": "Mars/Olympus"}',
  foreign_table => 'tagzone');
INSERT INTO tagzone VALUES (1);
-- a retention Java cannot parse
SELECT paimon_create_table('wopt', 'db', 'tagbadttl', 'id BIGINT',
  options => '{"tag.automatic-creation": "process-time", "tag.default-time-retained": "1 fortnight"}',
  foreign_table => 'tagbadttl');
INSERT INTO tagbadttl VALUES (1);
SELECT snapshots('tagcb'), snapshots('tagzone'), snapshots('tagbadttl');
-- tag.default-time-retained: the auto tags (and paimon_create_tag's) carry their
-- create time and retention (Tag.toJson); every commit deletes the tags past their
-- retention (TagTimeExpire, unless tag.time-expire-enabled = false)
SELECT paimon_create_table('wopt', 'db', 'tagttl', 'id BIGINT',
  options => '{"tag.automatic-creation": "Process-Time", "tag.default-time-retained": "1 d"}',
  foreign_table => 'tagttl');
INSERT INTO tagttl VALUES (1);
SELECT f ~ '^tag-\d{4}-\d{2}-\d{2}$' AS daily,
  pg_read_file(current_setting('data_directory') || '/paimon_write_options_test/db.db/tagttl/tag/' || f)
    ~ '"tagCreateTime" : \[ \d{4}(, \d+){4,6} \],\n  "tagTimeRetained" : 86400.000000000\n}$' AS retained
FROM pg_ls_dir(current_setting('data_directory') || '/paimon_write_options_test/db.db/tagttl/tag') f;
SELECT paimon_create_table('wopt', 'db', 'tagbrief', 'id BIGINT',
  options => '{"tag.default-time-retained": "10 ms"}', foreign_table => 'tagbrief');
INSERT INTO tagbrief VALUES (1);
SELECT paimon_create_tag('tagbrief', 'brief');
SELECT paimon_create_tag('tagbrief', 'kept');
SELECT paimon_create_table('wopt', 'db', 'tagbrief2', 'id BIGINT',
  options => '{"tag.default-time-retained": "10 ms", "tag.time-expire-enabled": "false"}',
  foreign_table => 'tagbrief2');
INSERT INTO tagbrief2 VALUES (1);
SELECT paimon_create_tag('tagbrief2', 'brief');
SELECT pg_sleep(0.05);
SELECT tags('tagbrief'), tags('tagbrief2');
INSERT INTO tagbrief VALUES (2);
INSERT INTO tagbrief2 VALUES (2);
SELECT tags('tagbrief'), tags('tagbrief2');
-- tag.create-success-file: tag/tag-success-file/<tag>_SUCCESS (SuccessFileTagCallback),
-- removed with the tag; tag.callbacks (Java classes) refused by name
SELECT paimon_create_table('wopt', 'db', 'tagok', 'id BIGINT',
  options => '{"tag.create-success-file": "true", "tag.automatic-creation": "process-time"}',
  foreign_table => 'tagok');
INSERT INTO tagok VALUES (1);
SELECT paimon_create_tag('tagok', 'manual');
SELECT f ~ '^(\d{4}-\d{2}-\d{2}|manual)_SUCCESS$' AS named,
  pg_read_file(current_setting('data_directory') || '/paimon_write_options_test/db.db/tagok/tag/tag-success-file/' || f)
    ~ '^\{\n  "creationTime" : \d{13},\n  "modificationTime" : \d{13}\n}$' AS laid_out
FROM pg_ls_dir(current_setting('data_directory') || '/paimon_write_options_test/db.db/tagok/tag/tag-success-file') f
ORDER BY 1;
SELECT paimon_delete_tag('tagok', 'manual');
SELECT count(*) FROM pg_ls_dir(current_setting('data_directory') ||
  '/paimon_write_options_test/db.db/tagok/tag/tag-success-file') f;
SELECT paimon_create_table('wopt', 'db', 'tagcb2', 'id BIGINT',
  options => '{"tag.callbacks": "x.Callback"}', foreign_table => 'tagcb2');
INSERT INTO tagcb2 VALUES (1);
\set VERBOSITY verbose
SELECT paimon_create_tag('tagcb2', 'nope');
\set VERBOSITY default
SELECT tags('tagcb2');
-- file.suffix.include.compression: data files named <...>.<compression>.<format>, from
-- file.compression (Java's HadoopCompressionType extension: zstd is zst), for append and
-- primary-key tables, written and compacted; data-file.path-directory: the bucket
-- directories under <table>/data/
SELECT paimon_create_table('wopt', 'db', 'suffixed', 'id BIGINT, s STRING',
  options => '{"file.suffix.include.compression": "true", "file.compression": "snappy",
               "data-file.path-directory": "data"}',
  foreign_table => 'suffixed');
INSERT INTO suffixed VALUES (1, 'a'), (2, 'b');
INSERT INTO suffixed VALUES (3, 'c');
SELECT paimon_create_table('wopt', 'db', 'suffixed_pk', 'id BIGINT, s STRING',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "file.suffix.include.compression": "true"}',
  foreign_table => 'suffixed_pk');
INSERT INTO suffixed_pk VALUES (1, 'a'), (2, 'b');
INSERT INTO suffixed_pk VALUES (2, 'B');
SELECT buckets FROM paimon_compact('suffixed');
SELECT buckets FROM paimon_compact('suffixed_pk');
SELECT * FROM suffixed ORDER BY id;
SELECT * FROM suffixed_pk ORDER BY id;
SELECT t, regexp_replace(f, '^data-[0-9a-f-]+-[0-9]+', 'data-<uuid>-<n>') AS name, count(*)
FROM (SELECT 'suffixed' AS t, f FROM pg_ls_dir(current_setting('data_directory') ||
        '/paimon_write_options_test/db.db/suffixed/data/bucket-0') f
      UNION ALL
      SELECT 'suffixed_pk', f FROM pg_ls_dir(current_setting('data_directory') ||
        '/paimon_write_options_test/db.db/suffixed_pk/bucket-0') f) x
GROUP BY 1, 2 ORDER BY 1, 2;
-- data-file.thin-mode: primary-key files without _KEY_ columns, read (and probed
-- by a point lookup: the key pages of the value column) by the key's value column
SELECT paimon_create_table('wopt', 'db', 'thin', 'id BIGINT, s STRING',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "data-file.thin-mode": "true", "write-only": "true"}',
  foreign_table => 'thin');
INSERT INTO thin SELECT 2 * i, 'even ' || i FROM generate_series(1, 100) i;
INSERT INTO thin SELECT 2 * i + 1, 'odd ' || i FROM generate_series(0, 99) i;
INSERT INTO thin VALUES (100, 'hundred');
SELECT count(*), sum(id), min(s), max(s) FROM thin;
SELECT * FROM thin WHERE id IN (7, 100, 1000) ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM thin WHERE id = 100;
SELECT count(*) FROM pg_ls_dir(current_setting('data_directory') ||
  '/paimon_write_options_test/db.db/thin/bucket-0') f WHERE f LIKE 'data-%';
SELECT buckets FROM paimon_compact('thin');
SELECT * FROM thin WHERE id BETWEEN 99 AND 101 ORDER BY id;
SELECT paimon_create_table('wopt', 'db', 'untagged', 'id BIGINT',
  options => '{"tag.automatic-creation": "NONE"}', foreign_table => 'untagged');
INSERT INTO untagged VALUES (1);
SELECT * FROM untagged;
-- watermark (Java tags only snapshots with a watermark; ours have none) and
-- batch (only Flink's batch sink tags) are written and create no tag
SELECT paimon_create_table('wopt', 'db', 'wmtagged', 'id BIGINT',
  options => '{"tag.automatic-creation": "watermark", "tag.creation-period": "hourly",
               "tag.num-retained-max": "2"}', foreign_table => 'wmtagged');
INSERT INTO wmtagged VALUES (1);
INSERT INTO wmtagged VALUES (2);
SELECT * FROM wmtagged ORDER BY id;
SELECT snapshots('wmtagged'), tags('wmtagged');
SELECT paimon_create_table('wopt', 'db', 'batchtagged', 'id BIGINT',
  options => '{"tag.automatic-creation": "batch"}', foreign_table => 'batchtagged');
INSERT INTO batchtagged VALUES (1);
SELECT snapshots('batchtagged'), tags('batchtagged');
-- with watermark, Java's commit refuses a delay not shorter than one period: so do we
SELECT paimon_create_table('wopt', 'db', 'wmdelay', 'id BIGINT',
  options => '{"tag.automatic-creation": "watermark", "tag.creation-delay": "1 d"}',
  foreign_table => 'wmdelay');
INSERT INTO wmdelay VALUES (1);
SELECT snapshots('wmdelay');

-- changelog retention (a decoupled changelog kept by Java's snapshot expiry at
-- commit): written, as our commit expires nothing and the next Java commit applies it
SELECT paimon_create_table('wopt', 'db', 'cl', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "input", "changelog.num-retained.max": "100",
               "changelog.num-retained.min": "20", "changelog.time-retained": "2 d"}',
  foreign_table => 'cl');
INSERT INTO cl VALUES (1, 1);
INSERT INTO cl VALUES (1, 2);
SELECT * FROM cl;
SELECT snapshots('cl');

-- honoured or harmless: write-only (no compaction at commit), partition
-- expiry (the next Java commit does it), full compaction every N commits
-- (layout only), commit.force-compact, visibility callbacks
SELECT paimon_create_table('wopt', 'db', 'fine',
  'id BIGINT, dt STRING, v INT', primary_key => ARRAY['id', 'dt'],
  partition_keys => ARRAY['dt'],
  options => '{"bucket": "1", "write-only": "true", "partition.expiration-time": "7 d",
               "partition.timestamp-formatter": "yyyy-MM-dd", "full-compaction.delta-commits": "2",
               "commit.force-compact": "true", "visibility-callback.enabled": "true"}',
  foreign_table => 'fine');
INSERT INTO fine VALUES (1, '2026-01-01', 1), (2, '2026-01-02', 2);
INSERT INTO fine VALUES (1, '2026-01-01', 10);
SELECT * FROM fine ORDER BY id;
SELECT snapshots('fine');           -- two APPEND snapshots, no COMPACT (write-only)

-- manifest.format = parquet (or orc): manifests, manifest lists and index manifests in
-- that format (read back, and merged by manifest.merge-min-count); another format is
-- refused by name
SELECT paimon_create_table('wopt', 'db', 'pqmf', 'id BIGINT, v INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "2", "deletion-vectors.enabled": "true", "manifest.format": "parquet",
               "manifest.merge-min-count": "2"}',
  foreign_table => 'pqmf');
INSERT INTO pqmf SELECT i, i FROM generate_series(1, 100) i;
UPDATE pqmf SET v = -v WHERE id % 10 = 0;
DELETE FROM pqmf WHERE id > 95;
SELECT count(*), sum(v) FROM pqmf;
SELECT * FROM pqmf WHERE id = 50;
SELECT regexp_replace(f, '-[0-9a-f-]+-[0-9]+$', '') AS kind,
       encode(substr(pg_read_binary_file(current_setting('data_directory') ||
         '/paimon_write_options_test/db.db/pqmf/manifest/' || f), 1, 4), 'escape') AS magic,
       count(*) > 0 AS present
FROM pg_ls_dir(current_setting('data_directory') ||
  '/paimon_write_options_test/db.db/pqmf/manifest') f
GROUP BY 1, 2 ORDER BY 1, 2;
SELECT paimon_create_table('wopt', 'db', 'orcmf', 'id BIGINT',
  options => '{"manifest.format": "orc"}', foreign_table => 'orcmf');
INSERT INTO orcmf VALUES (1);
INSERT INTO orcmf VALUES (2);
SELECT * FROM orcmf ORDER BY id;
SELECT DISTINCT encode(substr(pg_read_binary_file(current_setting('data_directory') ||
         '/paimon_write_options_test/db.db/orcmf/manifest/' || f), 1, 3), 'escape') AS magic
FROM pg_ls_dir(current_setting('data_directory') ||
  '/paimon_write_options_test/db.db/orcmf/manifest') f;
SELECT paimon_create_table('wopt', 'db', 'jsonmf', 'id BIGINT',
  options => '{"manifest.format": "json"}', foreign_table => 'jsonmf');
INSERT INTO jsonmf VALUES (1);

-- a boolean option Java cannot read ("yes"): refused as Java's writer refuses it
SELECT paimon_create_table('wopt', 'db', 'badbool', 'id BIGINT, v INT',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "write-only": "yes"}',
  foreign_table => 'badbool');
INSERT INTO badbool VALUES (1, 1);

DROP SERVER wopt CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
