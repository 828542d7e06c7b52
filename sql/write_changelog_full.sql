-- changelog-producer = full-compaction on primary-key tables: plain commits
-- are APPEND snapshots without changelog (level 0, as Java's batch writer
-- that does not fully compact); a full compaction (paimon_compact, or the
-- writer's own compaction when it goes into the max level) is a COMPACT
-- snapshot whose changelog manifest list holds, per key, the change from
-- its max-level record to the merged result (+I, -U/+U, -D); with
-- row-deduplicate an unchanged row gives none; dynamic buckets and
-- force-lookup are refused with it (0A000).
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_changelog_full_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wclf FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wclf', 'db');

-- the changelog fields of each snapshot of a table
CREATE FUNCTION fc_changelog_of(tbl text) RETURNS TABLE (id int, kind text, has_list boolean,
    records bigint) LANGUAGE sql AS $$
  SELECT s.id, j->>'commitKind', j->>'changelogManifestList' IS NOT NULL,
         (j->>'changelogRecordCount')::bigint
  FROM (SELECT substr(f, 10)::int AS id, f FROM pg_ls_dir(current_setting('data_directory') ||
          '/paimon_write_changelog_full_test/db.db/' || tbl || '/snapshot') f
        WHERE f ~ '^snapshot-[0-9]+$') s,
       LATERAL (SELECT pg_read_file(current_setting('data_directory') ||
          '/paimon_write_changelog_full_test/db.db/' || tbl || '/snapshot/' || s.f)::jsonb AS j) x
  ORDER BY s.id $$;
-- the changelog files of a table's buckets
CREATE FUNCTION fc_changelog_files(tbl text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_changelog_full_test/db.db/' || tbl) b,
    LATERAL pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_changelog_full_test/db.db/' || tbl || '/' || b) f
  WHERE b ~ '^bucket-' AND starts_with(f, 'changelog-') $$;

SELECT paimon_create_table('wclf', 'db', 'users', 'id BIGINT, name STRING, score INT',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "changelog-producer": "full-compaction"}',
  foreign_table => 'users');
-- plain commits: no changelog
INSERT INTO users VALUES (1, 'ann', 10), (2, 'bob', 20), (2, 'bob', 21), (3, 'cid', 30);
UPDATE users SET score = score + 1 WHERE id = 1;
SELECT * FROM fc_changelog_of('users');
SELECT fc_changelog_files('users') AS changelog_files;
-- the full compaction: +I for each of the 3 keys (the merged values)
SELECT snapshot_id, buckets, files_added FROM paimon_compact('users');
SELECT * FROM fc_changelog_of('users');
-- one changed row (-U/+U), one deleted (-D), one unchanged (-U/+U without
-- row-deduplicate), one new (+I), one deleted that never was (nothing)
UPDATE users SET score = 99 WHERE id = 1;
DELETE FROM users WHERE id = 2;
INSERT INTO users VALUES (3, 'cid', 30), (4, 'dan', 40);
DELETE FROM users WHERE id = 9;
SELECT count(*) AS snapshots FROM fc_changelog_of('users');
SELECT snapshot_id, buckets FROM paimon_compact('users');
SELECT * FROM fc_changelog_of('users') WHERE kind = 'COMPACT';
-- nothing left to compact: no snapshot
SELECT snapshot_id FROM paimon_compact('users');
SELECT * FROM users ORDER BY id;

-- ROLLBACK leaves nothing
BEGIN;
INSERT INTO users VALUES (9, 'x', 9);
ROLLBACK;
SELECT count(*) AS snapshots FROM fc_changelog_of('users');

-- row-deduplicate (note ignored): unchanged rows give no changelog
SELECT paimon_create_table('wclf', 'db', 'dd', 'id BIGINT, v INT, note STRING',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "full-compaction", "changelog-producer.row-deduplicate": "true", "changelog-producer.row-deduplicate-ignore-fields": "note"}',
  foreign_table => 'dd');
INSERT INTO dd VALUES (1, 1, 'a'), (2, 2, 'b');
SELECT snapshot_id FROM paimon_compact('dd');
-- 1 unchanged, 2 changed only in the ignored field, 3 new: one +I
INSERT INTO dd VALUES (1, 1, 'a'), (2, 2, 'zzz'), (3, 3, 'c');
SELECT snapshot_id FROM paimon_compact('dd');
SELECT * FROM fc_changelog_of('dd');

-- the writer's own compaction into the max level (trigger 2, any size amplification):
-- the commit's COMPACT snapshot carries the changelog; aggregation merges
SELECT paimon_create_table('wclf', 'db', 'agg', 'id BIGINT, total BIGINT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "full-compaction", "merge-engine": "aggregation", "fields.total.aggregate-function": "sum", "num-sorted-run.compaction-trigger": "2", "compaction.max-size-amplification-percent": "0"}',
  foreign_table => 'agg');
INSERT INTO agg VALUES (1, 5), (2, 7);
INSERT INTO agg VALUES (1, 10);
INSERT INTO agg VALUES (1, 1), (3, 3);
SELECT * FROM agg ORDER BY id;
SELECT * FROM fc_changelog_of('agg');

-- write-only: no compaction at commit; paimon_compact writes the changelog
SELECT paimon_create_table('wclf', 'db', 'wo', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "full-compaction", "write-only": "true"}',
  foreign_table => 'wo');
INSERT INTO wo VALUES (1, 1), (2, 2);
INSERT INTO wo VALUES (2, 3);
SELECT snapshot_id FROM paimon_compact('wo');
SELECT * FROM fc_changelog_of('wo');
SELECT fc_changelog_files('wo') AS changelog_files;

-- refused by name: dynamic buckets (no compaction here), force-lookup
SELECT paimon_create_table('wclf', 'db', 'dyn', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "-1", "changelog-producer": "full-compaction"}', foreign_table => 'dyn');
\set VERBOSITY verbose
INSERT INTO dyn VALUES (1, 1);
\set VERBOSITY default
SELECT paimon_create_table('wclf', 'db', 'fl', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "full-compaction", "force-lookup": "true"}',
  foreign_table => 'fl');
INSERT INTO fl VALUES (1, 1);

DROP SERVER wclf CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
