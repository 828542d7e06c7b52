-- Maintenance functions on a table written by INSERT: tags (create, rename,
-- delete), snapshot expiry (files gone from disk, tags keep theirs, expired
-- time travel refused), rollback to a snapshot and to a tag whose snapshot
-- expired, orphan files (dry run, threshold, the files dropped snapshots
-- left), privileges and errors with their SQLSTATEs.
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SELECT current_setting('data_directory') || '/paimon_maint_test' AS wh \gset
SELECT :'wh' || '/db.db/ev' AS tp \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER mt FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');

-- the files of the table, relative, uuids masked
CREATE FUNCTION table_files(dir text) RETURNS SETOF text LANGUAGE sql AS $$
  WITH RECURSIVE f(path, isdir) AS (
    SELECT dir, true
    UNION ALL
    SELECT f.path || '/' || c, (pg_stat_file(f.path || '/' || c)).isdir
    FROM f, pg_ls_dir(f.path) c WHERE f.isdir)
  SELECT regexp_replace(substr(path, length(dir) + 2), '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}', 'UUID', 'g')
  FROM f WHERE NOT isdir ORDER BY 1 $$;
CREATE FUNCTION file_exists(path text) RETURNS boolean LANGUAGE sql AS $$
  SELECT (pg_stat_file(path, true)).size IS NOT NULL $$;

SELECT paimon_create_database('mt', 'db');
SELECT paimon_create_table('mt', 'db', 'ev', 'id INT, dt STRING', partition_keys => ARRAY['dt'],
                           foreign_table => 'ev');
-- five snapshots
INSERT INTO ev VALUES (1, 'a');
INSERT INTO ev VALUES (2, 'b');
INSERT INTO ev VALUES (3, 'a');
INSERT INTO ev VALUES (4, 'b');
INSERT INTO ev VALUES (5, 'a');
SELECT count(*), sum(id) FROM ev;

-- tags: from a snapshot id, or the latest
SELECT paimon_create_tag('ev', 'first', 1);
SELECT paimon_create_tag('ev', 'latest');
SELECT paimon_create_tag('ev', 'first');
SELECT paimon_create_tag('ev', 'x', 99);
SELECT paimon_create_tag('ev', '../x');
SELECT paimon_create_tag('ev', NULL);
SELECT paimon_rename_tag('ev', 'latest', 'five');
SELECT paimon_rename_tag('ev', 'latest', 'again');
SELECT paimon_rename_tag('ev', 'five', 'first');
-- the tag file is the snapshot's JSON
SELECT pg_read_file(:'tp' || '/tag/tag-first') = pg_read_file(:'tp' || '/snapshot/snapshot-1') AS same_json;
CREATE FOREIGN TABLE ev_first (id int, dt text) SERVER mt
  OPTIONS (database 'db', table 'ev', tag 'first');
CREATE FOREIGN TABLE ev_at2 (id int, dt text) SERVER mt
  OPTIONS (database 'db', table 'ev', snapshot_id '2');
SELECT count(*), sum(id) FROM ev_first;
SELECT count(*), sum(id) FROM ev_at2;
SELECT paimon_create_tag('ev', 'doomed', 3);
SELECT paimon_delete_tag('ev', 'doomed');
SELECT paimon_delete_tag('ev', 'doomed');

-- expire: retain_max alone is refused while retain_min (default 10) is larger, as in Java
SELECT paimon_expire_snapshots('ev', retain_max => 2);
SELECT paimon_expire_snapshots('ev', retain_max => 0);
-- all five are younger than snapshot.time-retained (1 hour): only retain_max expires them
SELECT paimon_expire_snapshots('ev', retain_min => 1);
SELECT pg_read_file(:'tp' || '/snapshot/snapshot-2')::jsonb->>'deltaManifestList' AS s2_delta,
       pg_read_file(:'tp' || '/snapshot/snapshot-1')::jsonb->>'baseManifestList' AS s1_base \gset
SELECT count(*) AS metadata_files FROM table_files(:'tp') WHERE table_files ~ '^manifest/';
SELECT paimon_expire_snapshots('ev', retain_max => 2, retain_min => 1);
SELECT * FROM table_files(:'tp') WHERE table_files ~ '^(snapshot|tag)/';
SELECT pg_read_file(:'tp' || '/snapshot/EARLIEST') AS earliest;
SELECT count(*) AS metadata_files FROM table_files(:'tp') WHERE table_files ~ '^manifest/';
-- snapshot 2's lists are gone; snapshot 1's are kept by the tag
SELECT file_exists(:'tp' || '/manifest/' || :'s2_delta') AS s2_delta_kept,
       file_exists(:'tp' || '/manifest/' || :'s1_base') AS s1_base_kept;
SELECT count(*), sum(id) FROM ev;
SELECT count(*), sum(id) FROM ev_first;
SELECT count(*) FROM ev_at2;
-- older_than: snapshots committed before it may go (retain_min keeps the latest)
SELECT paimon_expire_snapshots('ev', older_than => now() - interval '1 day', retain_min => 1);
SELECT paimon_expire_snapshots('ev', older_than => now(), retain_min => 1);
SELECT * FROM table_files(:'tp') WHERE table_files ~ '^snapshot/';

-- rollback: to a snapshot id, then to a tag whose snapshot expired
INSERT INTO ev VALUES (6, 'b');
INSERT INTO ev VALUES (7, 'a');
SELECT paimon_create_tag('ev', 'seven');
SELECT paimon_rollback('ev', '6');
SELECT count(*), sum(id) FROM ev;
SELECT * FROM table_files(:'tp') WHERE table_files ~ '^(snapshot|tag)/';
SELECT paimon_rollback('ev', '42');
SELECT paimon_rollback('ev', 'nope');
INSERT INTO ev VALUES (70, 'c');
SELECT count(*), sum(id) FROM ev;
SELECT paimon_rollback('ev', 'first');
SELECT count(*), sum(id) FROM ev;
SELECT * FROM table_files(:'tp') WHERE table_files ~ '^(snapshot|tag)/';
SELECT pg_read_file(:'tp' || '/snapshot/EARLIEST') AS earliest,
       pg_read_file(:'tp' || '/snapshot/LATEST') AS latest;

-- orphan files: the files of the dropped snapshots, a killed writer's data file
-- and a temporary file of an interrupted snapshot publish
SELECT :'tp' || '/dt=a/bucket-0/data-killed.parquet' AS killed,
       :'tp' || '/snapshot/.snapshot-9.4242.0.tmp' AS tmpfile \gset
COPY (SELECT 'not parquet') TO :'killed';
COPY (SELECT '9') TO :'tmpfile';
SELECT count(*) FROM paimon_remove_orphan_files('ev', dry_run => true);
SELECT paimon_remove_orphan_files('ev', older_than => now() + interval '1 hour');
-- make every file two days old
SELECT 'cat > /dev/null; find ' || :'tp' || ' -type f -exec touch -d "2 days ago" {} +' AS age \gset
COPY (SELECT 1) TO PROGRAM :'age';
CREATE TABLE orphans AS
  SELECT regexp_replace(substr(path, length(:'tp') + 2), '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}', 'UUID', 'g') AS f,
         size > 0 AS has_size
  FROM paimon_remove_orphan_files('ev', dry_run => true);
SELECT f, count(*), bool_and(has_size) FROM orphans GROUP BY f ORDER BY f;
SELECT count(*) = (SELECT count(*) FROM orphans) AS all_removed FROM paimon_remove_orphan_files('ev');
SELECT * FROM table_files(:'tp');
SELECT count(*), sum(id) FROM ev;
SELECT count(*) FROM paimon_remove_orphan_files('ev');

-- the SQLSTATEs: duplicate tag, missing tag / snapshot, bad argument, bad name, NULL
\set VERBOSITY sqlstate
SELECT paimon_create_tag('ev', 'first');
SELECT paimon_create_tag('ev', 'x', 99);
SELECT paimon_rename_tag('ev', 'nope', 'x');
SELECT paimon_rollback('ev', '99');
SELECT paimon_rollback('ev', 'nope');
SELECT paimon_expire_snapshots('ev', retain_max => 1, retain_min => 2);
SELECT paimon_expire_snapshots('ev', max_deletes => 0);
SELECT count(*) FROM paimon_remove_orphan_files('ev', older_than => now() + interval '1 day');
SELECT paimon_delete_tag('ev', '..');
SELECT paimon_rollback('ev', NULL);
SELECT paimon_create_tag(NULL, 'x');
\set VERBOSITY default

-- errors: not a foreign table, not a paimon_fdw one, privileges
SELECT paimon_expire_snapshots('orphans');
CREATE FOREIGN DATA WRAPPER other_fdw;
CREATE SERVER other FOREIGN DATA WRAPPER other_fdw;
CREATE FOREIGN TABLE not_paimon (id int) SERVER other;
SELECT paimon_create_tag('not_paimon', 't');
CREATE ROLE paimon_maint_test;
GRANT USAGE ON FOREIGN SERVER mt TO paimon_maint_test;
SET ROLE paimon_maint_test;
SELECT paimon_create_tag('ev', 't');
SELECT paimon_expire_snapshots('ev', retain_min => 1);
SELECT count(*) FROM paimon_remove_orphan_files('ev', dry_run => true);
RESET ROLE;
GRANT pg_write_server_files TO paimon_maint_test;
REVOKE USAGE ON FOREIGN SERVER mt FROM paimon_maint_test;
SET ROLE paimon_maint_test;
SELECT paimon_rollback('ev', '1');
RESET ROLE;

DROP TABLE orphans;
DROP FOREIGN TABLE not_paimon;
DROP SERVER other;
DROP FOREIGN DATA WRAPPER other_fdw;
DROP OWNED BY paimon_maint_test;
DROP ROLE paimon_maint_test;
DROP SERVER mt CASCADE;
DROP FUNCTION table_files(text);
DROP FUNCTION file_exists(text);
COPY (SELECT 1) TO PROGRAM :'rm_wh';
