-- changelog-producer = lookup on primary-key tables: every commit is an
-- APPEND snapshot without changelog, then the lookup compaction's COMPACT
-- snapshot whose changelog manifest list holds +I for new keys, -U/+U for
-- changed ones (the merge engine's result), -D for deleted ones; with
-- row-deduplicate an unchanged row gives none; first-row only new keys;
-- ROLLBACK leaves nothing; gentle lookup-compact and dynamic buckets are
-- refused with it (0A000).
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_changelog_lookup_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wcll FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wcll', 'db');

-- the changelog fields of each snapshot of a table
CREATE FUNCTION lk_changelog_of(tbl text) RETURNS TABLE (id int, kind text, has_list boolean,
    records bigint) LANGUAGE sql AS $$
  SELECT s.id, j->>'commitKind', j->>'changelogManifestList' IS NOT NULL,
         (j->>'changelogRecordCount')::bigint
  FROM (SELECT substr(f, 10)::int AS id, f FROM pg_ls_dir(current_setting('data_directory') ||
          '/paimon_write_changelog_lookup_test/db.db/' || tbl || '/snapshot') f
        WHERE f ~ '^snapshot-[0-9]+$') s,
       LATERAL (SELECT pg_read_file(current_setting('data_directory') ||
          '/paimon_write_changelog_lookup_test/db.db/' || tbl || '/snapshot/' || s.f)::jsonb AS j) x
  ORDER BY s.id $$;
-- the changelog files of a table's buckets
CREATE FUNCTION lk_changelog_files(tbl text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_changelog_lookup_test/db.db/' || tbl) b,
    LATERAL pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_changelog_lookup_test/db.db/' || tbl || '/' || b) f
  WHERE b ~ '^bucket-' AND starts_with(f, 'changelog-') $$;

SELECT paimon_create_table('wcll', 'db', 'users', 'id BIGINT, name STRING, score INT',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "changelog-producer": "lookup"}',
  foreign_table => 'users');
-- 3 new keys: 3 +I (the key 2 written twice: one record, its last value)
INSERT INTO users VALUES (1, 'ann', 10), (2, 'bob', 20), (2, 'bob', 21), (3, 'cid', 30);
-- 2 changed rows: -U/+U each
UPDATE users SET score = score + 1 WHERE id IN (1, 3);
-- -D
DELETE FROM users WHERE id = 2;
-- a key deleted before (+I) and an unchanged row (-U/+U without row-deduplicate)
INSERT INTO users VALUES (2, 'bea', 5), (3, 'cid', 31);
SELECT * FROM users ORDER BY id;
SELECT * FROM lk_changelog_of('users');
SELECT lk_changelog_files('users') > 0 AS has_changelog_files;

-- write-only: no compaction at commit, so no changelog; paimon_compact refuses the
-- level-0 files (Java's compaction of them writes their changelog)
SELECT paimon_create_table('wcll', 'db', 'wo', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "lookup", "write-only": "true"}',
  foreign_table => 'wo');
INSERT INTO wo VALUES (1, 1), (2, 2);
SELECT * FROM lk_changelog_of('wo');
SELECT * FROM paimon_compact('wo');

-- ROLLBACK and an ERROR leave no snapshot
BEGIN;
INSERT INTO users VALUES (9, 'x', 9);
ROLLBACK;
INSERT INTO users SELECT g, 'e', 1 / (g - 150) FROM generate_series(100, 199) g;
SELECT count(*) AS snapshots FROM lk_changelog_of('users');

-- row-deduplicate: the unchanged row gives no changelog
SELECT paimon_create_table('wcll', 'db', 'dd', 'id BIGINT, v INT, note STRING',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "lookup", "changelog-producer.row-deduplicate": "true", "changelog-producer.row-deduplicate-ignore-fields": "note"}',
  foreign_table => 'dd');
INSERT INTO dd VALUES (1, 1, 'a'), (2, 2, 'b');
-- 1 unchanged, 2 changed only in the ignored field: no changelog; 3 new: +I
INSERT INTO dd VALUES (1, 1, 'a'), (2, 2, 'zzz'), (3, 3, 'c');
SELECT * FROM lk_changelog_of('dd');

-- aggregation: the changelog carries the merged sums
SELECT paimon_create_table('wcll', 'db', 'agg', 'id BIGINT, total BIGINT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "lookup", "merge-engine": "aggregation", "fields.total.aggregate-function": "sum", "deletion-vectors.enabled": "true"}',
  foreign_table => 'agg');
INSERT INTO agg VALUES (1, 5), (1, 6);
INSERT INTO agg VALUES (1, 3), (2, 4);
SELECT * FROM agg ORDER BY id;
SELECT * FROM lk_changelog_of('agg');

-- first-row: only keys new to the table
SELECT paimon_create_table('wcll', 'db', 'fr', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "lookup", "merge-engine": "first-row"}',
  foreign_table => 'fr');
INSERT INTO fr VALUES (1, 1), (2, 2);
INSERT INTO fr VALUES (2, 20), (3, 3);
SELECT * FROM fr ORDER BY id;
SELECT * FROM lk_changelog_of('fr');

-- refused by name
SELECT paimon_create_table('wcll', 'db', 'gentle', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "lookup", "lookup-compact": "gentle"}',
  foreign_table => 'gentle');
\set VERBOSITY verbose
INSERT INTO gentle VALUES (1, 1);
\set VERBOSITY default
SELECT paimon_create_table('wcll', 'db', 'dyn', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "-1", "changelog-producer": "lookup"}', foreign_table => 'dyn');
INSERT INTO dyn VALUES (1, 1);
-- row-deduplicate comparing a nested column: refused; ignoring it: written
SELECT paimon_create_table('wcll', 'db', 'nest', 'id BIGINT, tags ARRAY<STRING>',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "lookup", "changelog-producer.row-deduplicate": "true"}',
  foreign_table => 'nest');
INSERT INTO nest VALUES (1, ARRAY['a']);
SELECT paimon_create_table('wcll', 'db', 'nest2', 'id BIGINT, tags ARRAY<STRING>',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "lookup", "changelog-producer.row-deduplicate": "true", "changelog-producer.row-deduplicate-ignore-fields": "tags"}',
  foreign_table => 'nest2');
INSERT INTO nest2 VALUES (1, ARRAY['a']);
INSERT INTO nest2 VALUES (1, ARRAY['b']), (2, NULL);
SELECT * FROM nest2 ORDER BY id;
SELECT * FROM lk_changelog_of('nest2');

DROP FUNCTION lk_changelog_of(text);
DROP FUNCTION lk_changelog_files(text);
DROP SERVER wcll CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
