-- changelog-producer = input on primary-key tables: every INSERT, UPDATE,
-- DELETE and COPY also writes its records, unmerged, to changelog-* files
-- next to the level-0 data files, listed in the snapshot's changelog
-- manifest list (changelogManifestList, changelogRecordCount); compaction
-- writes none (as Java's with input); ROLLBACK and an ERROR leave no
-- changelog file; the other producers and changelog files in another
-- format are refused (0A000).
\set SHOW_CONTEXT never
\set VERBOSITY default
-- the warehouse lives in the data directory (writable by the server, gone with it)
SELECT current_setting('data_directory') || '/paimon_write_changelog_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wcl FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wcl', 'db');

-- the changelog fields of each snapshot of a table
CREATE FUNCTION changelog_of(tbl text) RETURNS TABLE (id int, kind text, has_list boolean,
    list_size_set boolean, records bigint, delta bigint) LANGUAGE sql AS $$
  SELECT s.id, j->>'commitKind', j ? 'changelogManifestList',
         (j->>'changelogManifestListSize')::bigint > 0,
         (j->>'changelogRecordCount')::bigint, (j->>'deltaRecordCount')::bigint
  FROM (SELECT substr(f, 10)::int AS id, f FROM pg_ls_dir(current_setting('data_directory') ||
          '/paimon_write_changelog_test/db.db/' || tbl || '/snapshot') f
        WHERE f ~ '^snapshot-[0-9]+$') s,
       LATERAL (SELECT pg_read_file(current_setting('data_directory') ||
          '/paimon_write_changelog_test/db.db/' || tbl || '/snapshot/' || s.f)::jsonb AS j) x
  ORDER BY s.id $$;
-- the changelog files of a table's buckets
CREATE FUNCTION changelog_files(tbl text, prefix text DEFAULT 'changelog-') RETURNS bigint
LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_changelog_test/db.db/' || tbl) b,
    LATERAL pg_ls_dir(current_setting('data_directory') ||
    '/paimon_write_changelog_test/db.db/' || tbl || '/' || b) f
  WHERE b ~ '^bucket-' AND starts_with(f, prefix) $$;

SELECT paimon_create_table('wcl', 'db', 'users', 'id BIGINT, name STRING, score INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "input", "changelog-file.prefix": "cl-"}',
  foreign_table => 'users');
-- 4 records (the key 2 twice: both in the changelog, one row in the data files)
INSERT INTO users VALUES (1, 'ann', 10), (2, 'bob', 20), (2, 'bob', 21), (3, 'cid', 30);
-- -U/+U of two rows
UPDATE users SET score = score + 1 WHERE id IN (1, 3);
-- -D
DELETE FROM users WHERE id = 2;
COPY users FROM STDIN;
7	gus	70
8	hal	80
\.
SELECT * FROM users ORDER BY id;
SELECT * FROM changelog_of('users');
SELECT changelog_files('users', 'cl-') AS changelog_files;

-- ROLLBACK and an ERROR leave no changelog file and no snapshot
BEGIN;
INSERT INTO users SELECT g, 'r' || g, g FROM generate_series(100, 199) g;
ROLLBACK;
INSERT INTO users SELECT g, 'e', 1 / (g - 150) FROM generate_series(100, 199) g;
SELECT changelog_files('users', 'cl-') AS changelog_files, count(*) AS snapshots
FROM changelog_of('users');

-- the fifth sorted run is compacted at commit: a COMPACT snapshot without a changelog
INSERT INTO users VALUES (9, 'ivy', 90);
SELECT * FROM changelog_of('users') WHERE id >= 5;
SELECT * FROM users ORDER BY id;

-- without changelog-producer: no changelog
SELECT paimon_create_table('wcl', 'db', 'plain', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1"}', foreign_table => 'plain');
INSERT INTO plain VALUES (1, 1);
SELECT * FROM changelog_of('plain');
SELECT changelog_files('plain') AS changelog_files;

-- refused by name: full-compaction with dynamic buckets, changelog files in another format
SELECT paimon_create_table('wcl', 'db', 'lk', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "-1", "changelog-producer": "full-compaction"}', foreign_table => 'lk');
\set VERBOSITY verbose
INSERT INTO lk VALUES (1, 1);
\set VERBOSITY default
SELECT paimon_create_table('wcl', 'db', 'fmt', 'id BIGINT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "changelog-producer": "input", "changelog-file.format": "avro"}',
  foreign_table => 'fmt');
INSERT INTO fmt VALUES (1, 1);

DROP SERVER wcl CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
