-- Writing tables with data-file.external-paths: new data files (and their
-- file-index sidecars) go under the external roots, the manifest records
-- their _EXTERNAL_PATH; reads, compaction, snapshot expiry and orphan
-- removal find them there. Roots with another scheme than file: are refused.
\set SHOW_CONTEXT never
\set VERBOSITY terse
SET TimeZone = 'UTC';
SELECT current_setting('data_directory') || '/paimon_extpath_test' AS wh \gset
SELECT current_setting('data_directory') || '/paimon_extpath_ext' AS ext \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' || ' ' || :'ext' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER ept FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');

-- the files under a directory (recursively), their paths relative to it,
-- the random file names (uuids) and entropy bits masked
CREATE FUNCTION files_under(dir text) RETURNS TABLE (f text) LANGUAGE sql AS $$
  WITH RECURSIVE t(path, isdir) AS (
    SELECT dir, true WHERE (pg_stat_file(dir, true)).isdir
    UNION ALL
    SELECT t.path || '/' || c, (pg_stat_file(t.path || '/' || c)).isdir
    FROM t, pg_ls_dir(t.path) c WHERE t.isdir)
  SELECT regexp_replace(regexp_replace(substr(path, length(dir) + 2),
           '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}', 'UUID', 'g'),
           '/[01]{4}/[01]{4}/[01]{4}/[01]{8}/', '/<hash>/', 'g')
  FROM t WHERE NOT isdir $$;
CREATE FUNCTION ep_try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

SELECT paimon_create_database('ept', 'db');
SELECT :'wh' || '/db.db/pk' AS pk_path \gset

-- a primary-key table, round-robin over two roots (one written file:///.../)
SELECT format('{"bucket": "2", "data-file.external-paths": "file:%s/a, file://%s/b/",
                "data-file.external-paths.strategy": "round-robin",
                "file-index.bloom-filter.columns": "name",
                "file-index.in-manifest-threshold": "1b"}', :'ext', :'ext') AS opts \gset
SELECT paimon_create_table('ept', 'db', 'pk', 'id INT, name STRING',
  primary_key => ARRAY['id'], options => :'opts', foreign_table => 'pk');
INSERT INTO pk SELECT g, 'n' || g FROM generate_series(1, 100) g;
INSERT INTO pk SELECT g, 'm' || g FROM generate_series(51, 150) g;
DELETE FROM pk WHERE id % 10 = 0;
SELECT count(*), min(name), max(name) FROM pk;
SELECT * FROM pk WHERE name = 'm77';
-- no data file in the table; data files and sidecars in bucket directories under the roots
SELECT count(*) FROM files_under(:'pk_path') WHERE f ~ 'data-';
SELECT regexp_replace(f, '^[ab]/', '<root>/') AS f, count(*)
FROM files_under(:'ext') GROUP BY 1 ORDER BY 1;
SELECT count(DISTINCT left(f, 1)) AS roots_used FROM files_under(:'ext');
-- the compaction writes its files there too
SELECT count(*) FROM paimon_compact('pk');
SELECT count(*), min(name), max(name) FROM pk;
SELECT count(*) FROM files_under(:'pk_path') WHERE f ~ 'data-';
SELECT regexp_replace(f, '^[ab]/', '<root>/') AS f, count(*)
FROM files_under(:'ext') GROUP BY 1 ORDER BY 1;
-- expiry deletes the replaced files where they are
SELECT paimon_expire_snapshots('pk', retain_max => 1, retain_min => 1);
SELECT regexp_replace(f, '^[ab]/', '<root>/') AS f, count(*)
FROM files_under(:'ext') GROUP BY 1 ORDER BY 1;
SELECT count(*), min(name), max(name) FROM pk;
-- an orphan in an external bucket directory is found and removed
SELECT 'mkdir -p ' || :'ext' || '/a/bucket-0 && cat > ' || :'ext' || '/a/bucket-0/data-orphan-0.parquet' AS orphan \gset
COPY (SELECT 'not parquet') TO PROGRAM :'orphan';
SELECT 'cat > /dev/null; find ' || :'ext' || ' ' || :'pk_path' || ' -type f -exec touch -d "2 days ago" {} +' AS age \gset
COPY (SELECT 1) TO PROGRAM :'age';
SELECT substr(path, length(:'ext') + 2) AS path FROM paimon_remove_orphan_files('pk');
SELECT count(*), min(name), max(name) FROM pk;

-- an append table, entropy-inject, partitioned: <root>/dt=<d>/bucket-0/<hash dirs>/<file>
SELECT format('{"data-file.external-paths": "file:%s/e",
                "data-file.external-paths.strategy": "entropy-inject"}', :'ext') AS opts \gset
SELECT paimon_create_table('ept', 'db', 'ap', 'dt STRING, v INT',
  partition_keys => ARRAY['dt'], options => :'opts', foreign_table => 'ap');
INSERT INTO ap SELECT 'd' || (g % 2), g FROM generate_series(1, 1000) g;
INSERT INTO ap VALUES ('d0', -1);
SELECT dt, count(*), sum(v) FROM ap GROUP BY dt ORDER BY dt;
SELECT f, count(*) FROM files_under(:'ext') WHERE f ~ '^e/' GROUP BY f ORDER BY f;
SELECT count(*) FROM files_under(:'wh' || '/db.db/ap') WHERE f ~ 'data-';
-- the append compaction writes there too (d0: six small files)
INSERT INTO ap VALUES ('d0', -2);
INSERT INTO ap VALUES ('d0', -3);
INSERT INTO ap VALUES ('d0', -4);
INSERT INTO ap VALUES ('d0', -5);
SELECT files_deleted, files_added, rows FROM paimon_compact('ap');
SELECT f, count(*) FROM files_under(:'ext') WHERE f ~ '^e/' GROUP BY f ORDER BY f;
SELECT count(*) FROM files_under(:'wh' || '/db.db/ap') WHERE f ~ 'data-';
SELECT dt, count(*), sum(v) FROM ap GROUP BY dt ORDER BY dt;

-- deletion vectors: the lookup compaction at commit writes its files under the root,
-- the deletion vectors stay in the table's index/ (as Java's without
-- index-file-in-data-file-dir)
SELECT format('{"bucket": "1", "deletion-vectors.enabled": "true",
                "data-file.external-paths": "file:%s/dv",
                "data-file.external-paths.strategy": "round-robin"}', :'ext') AS opts \gset
SELECT paimon_create_table('ept', 'db', 'dv', 'id INT, v INT', primary_key => ARRAY['id'],
  options => :'opts', foreign_table => 'dv');
INSERT INTO dv SELECT g, g FROM generate_series(1, 100) g;
INSERT INTO dv SELECT g, -g FROM generate_series(1, 100, 3) g;
SELECT count(*), sum(v) FROM dv;
SELECT f, count(*) FROM files_under(:'ext') WHERE f ~ '^dv/' GROUP BY f ORDER BY f;
SELECT count(*) FROM files_under(:'wh' || '/db.db/dv') WHERE f ~ 'data-';
SELECT count(*) > 0 AS dv_index_in_table FROM files_under(:'wh' || '/db.db/dv') WHERE f ~ '^index/index-';

-- strategy none (the default): the files stay in the table
SELECT format('{"data-file.external-paths": "file:%s/n"}', :'ext') AS opts \gset
SELECT paimon_create_table('ept', 'db', 'nn', 'v INT', options => :'opts',
  foreign_table => 'nn');
INSERT INTO nn VALUES (1), (2);
SELECT count(*) FROM files_under(:'wh' || '/db.db/nn') WHERE f ~ 'data-';
SELECT count(*) FROM files_under(:'ext' || '/n');

-- refused: object storage, a root with no scheme, an unknown strategy
SELECT ep_try($$SELECT paimon_create_table('ept', 'db', 's3', 'v INT', options =>
  '{"data-file.external-paths": "s3://bucket/x", "data-file.external-paths.strategy": "round-robin"}',
  foreign_table => 's3t')$$);
SELECT ep_try('INSERT INTO s3t VALUES (1)');
SELECT ep_try($$SELECT paimon_create_table('ept', 'db', 'ns', 'v INT', options =>
  '{"data-file.external-paths": "/x", "data-file.external-paths.strategy": "round-robin"}',
  foreign_table => 'nst')$$);
SELECT ep_try('INSERT INTO nst VALUES (1)');
SELECT ep_try($$SELECT paimon_create_table('ept', 'db', 'wr', 'v INT', options =>
  '{"data-file.external-paths": "file:/x", "data-file.external-paths.strategy": "weighted"}',
  foreign_table => 'wrt')$$);
SELECT ep_try('INSERT INTO wrt VALUES (1)');

-- a server with external_path_map reads the roots remapped: writing is refused
SELECT format('%s/a=%s/a', :'ext', :'ext') AS pmap \gset
CREATE SERVER ept_map FOREIGN DATA WRAPPER paimon_fdw
  OPTIONS (warehouse :'wh', external_path_map :'pmap');
CREATE FOREIGN TABLE pk_map (id INT, name TEXT) SERVER ept_map
  OPTIONS (database 'db', "table" 'pk');
SELECT count(*) FROM pk_map;
SELECT regexp_replace(ep_try('INSERT INTO pk_map VALUES (1000, ''x'')'), '"[^"]*"', '"..."') AS insert_mapped;
SELECT regexp_replace(ep_try('SELECT paimon_compact(''pk_map'')'), '"[^"]*"', '"..."') AS compact_mapped;
DROP SERVER ept_map CASCADE;

DROP SERVER ept CASCADE;
DROP FUNCTION files_under(text);
DROP FUNCTION ep_try(text);
COPY (SELECT 1) TO PROGRAM :'rm_wh';
