-- paimon_compact: full compaction of a primary-key table (every bucket, or
-- one partition) into files at the max level, in one COMPACT snapshot; the
-- rows read are the same before and after, from fewer files; retracted keys
-- are gone from the files; tables not compacted yet are refused (0A000).
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT current_setting('data_directory') || '/paimon_compact_test' AS wh \gset
SELECT 'rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER cpt FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');

-- the data files of a table, and the kind of its latest snapshot
CREATE FUNCTION data_files(dir text) RETURNS bigint LANGUAGE sql AS $$
  WITH RECURSIVE f(path, isdir) AS (
    SELECT dir, true
    UNION ALL
    SELECT f.path || '/' || c, (pg_stat_file(f.path || '/' || c)).isdir
    FROM f, pg_ls_dir(f.path) c WHERE f.isdir)
  SELECT count(*) FROM f WHERE NOT isdir AND path ~ '/bucket-[0-9]+/data-' $$;
CREATE FUNCTION latest_kind(dir text) RETURNS text LANGUAGE sql AS $$
  SELECT pg_read_file(dir || '/snapshot/snapshot-' ||
                      pg_read_file(dir || '/snapshot/LATEST'))::json->>'commitKind' $$;

-- an error's SQLSTATE and message
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

SELECT paimon_create_database('cpt', 'db');

-- deduplicate, two buckets, five commits with updates and deletes
SELECT paimon_create_table('cpt', 'db', 'users',
  'id BIGINT, name STRING, score INT',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'users');
INSERT INTO users SELECT g, 'u' || g, g FROM generate_series(1, 1000) g;
INSERT INTO users SELECT g, 'v' || g, -g FROM generate_series(500, 1500) g;
UPDATE users SET score = 0 WHERE id % 10 = 0;
DELETE FROM users WHERE id % 7 = 0;
INSERT INTO users VALUES (7, 'back', 7);
CREATE TEMP TABLE before AS SELECT * FROM users;
SELECT count(*), sum(score), count(DISTINCT name) FROM users;
EXPLAIN (COSTS OFF) SELECT * FROM users;
SELECT * FROM paimon_compact('users');
SELECT latest_kind(:'wh' || '/db.db/users');
-- the same rows, from one file per bucket
SELECT count(*), sum(score), count(DISTINCT name) FROM users;
SELECT count(*) AS differing FROM
  ((SELECT * FROM users EXCEPT SELECT * FROM before)
   UNION ALL (SELECT * FROM before EXCEPT SELECT * FROM users)) d;
EXPLAIN (COSTS OFF) SELECT * FROM users;
SELECT * FROM users WHERE id IN (7, 10, 14, 1500) ORDER BY id;
-- everything is at the max level: nothing to do, no snapshot
SELECT * FROM paimon_compact('users');
-- writing on top of the compacted files, and compacting again
INSERT INTO users VALUES (1, 'new', 1), (2000, 'x', 2);
DELETE FROM users WHERE id = 3;
SELECT * FROM paimon_compact('users');
SELECT count(*), sum(score) FROM users;
SELECT * FROM users WHERE id IN (1, 2, 3, 2000) ORDER BY id;
-- the compacted files hold the live rows only (deletes dropped at the top level)
SELECT data_files(:'wh' || '/db.db/users') > 4 AS old_files_kept_until_expiry;

-- partial-update: the merged rows are what the files hold after compaction
SELECT paimon_create_table('cpt', 'db', 'wide',
  'k INT, a STRING, b STRING, c INT',
  primary_key => ARRAY['k'],
  options => '{"bucket": "1", "merge-engine": "partial-update"}', foreign_table => 'wide');
INSERT INTO wide (k, a) VALUES (1, 'a1'), (2, 'a2');
INSERT INTO wide (k, b) VALUES (1, 'b1'), (3, 'b3');
INSERT INTO wide (k, c) VALUES (2, 20), (3, 30);
SELECT * FROM wide ORDER BY k;
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('wide');
SELECT * FROM wide ORDER BY k;
INSERT INTO wide (k, a) VALUES (3, 'a3');
SELECT * FROM wide ORDER BY k;

-- aggregation
SELECT paimon_create_table('cpt', 'db', 'agg', 'k INT, total BIGINT, hi INT',
  primary_key => ARRAY['k'],
  options => '{"bucket": "1", "merge-engine": "aggregation", "fields.total.aggregate-function": "sum", "fields.hi.aggregate-function": "max"}',
  foreign_table => 'agg');
INSERT INTO agg VALUES (1, 10, 5), (2, 1, 1);
INSERT INTO agg VALUES (1, 5, 3), (2, 1, 9);
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('agg');
INSERT INTO agg VALUES (1, 100, 1);
SELECT * FROM agg ORDER BY k;

-- one partition
SELECT paimon_create_table('cpt', 'db', 'parts', 'dt STRING, id INT, v INT',
  primary_key => ARRAY['dt', 'id'], partition_keys => ARRAY['dt'],
  options => '{"bucket": "1"}', foreign_table => 'parts');
INSERT INTO parts VALUES ('d1', 1, 1), ('d2', 1, 1);
INSERT INTO parts VALUES ('d1', 1, 2), ('d2', 1, 2);
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('parts', 'dt=d1');
EXPLAIN (COSTS OFF) SELECT * FROM parts WHERE dt = 'd1';
EXPLAIN (COSTS OFF) SELECT * FROM parts WHERE dt = 'd2';
SELECT * FROM parts ORDER BY dt, id;
SELECT * FROM paimon_compact('parts', 'dt=nope');
SELECT try('SELECT * FROM paimon_compact(''parts'', ''dt'')');
SELECT try('SELECT * FROM paimon_compact(''parts'', ''id=1'')');
SELECT try('SELECT * FROM paimon_compact(''users'', ''dt=d1'')');

-- not compacted yet: append tables, dynamic buckets, deletion vectors, first-row
SELECT paimon_create_table('cpt', 'db', 'log', 'id INT', foreign_table => 'log');
SELECT try('SELECT * FROM paimon_compact(''log'')');
SELECT paimon_create_table('cpt', 'db', 'dv', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "deletion-vectors.enabled": "true"}', foreign_table => 'dv');
SELECT try('SELECT * FROM paimon_compact(''dv'')');
SELECT paimon_create_table('cpt', 'db', 'fr', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "first-row"}', foreign_table => 'fr');
SELECT try('SELECT * FROM paimon_compact(''fr'')');
SELECT paimon_create_table('cpt', 'db', 'dyn', 'id INT, v INT', primary_key => ARRAY['id'],
  foreign_table => 'dyn');
SELECT try('SELECT * FROM paimon_compact(''dyn'')');

-- privileges: pg_write_server_files
CREATE ROLE compact_reader;
GRANT USAGE ON FOREIGN SERVER cpt TO compact_reader;
SET ROLE compact_reader;
SELECT try('SELECT * FROM paimon_compact(''users'')');
RESET ROLE;
DROP SERVER cpt CASCADE;
DROP ROLE compact_reader;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
