-- paimon_compact: full compaction of a primary-key table (every bucket, or
-- one partition) into files at the max level, in one COMPACT snapshot; the
-- rows read are the same before and after, from fewer files; retracted keys
-- are gone from the files; deletion-vector, first-row and dynamic-bucket
-- tables too; postpone-bucket tables have their postpone files moved.
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT current_setting('data_directory') || '/paimon_compact_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
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
-- the kinds of every snapshot, in order (A = APPEND, C = COMPACT)
CREATE FUNCTION kinds(dir text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(left(pg_read_file(dir || '/snapshot/' || f)::json->>'commitKind', 1), ''
                    ORDER BY substr(f, 10)::int)
  FROM pg_ls_dir(dir || '/snapshot') f WHERE f ~ '^snapshot-[0-9]+$' $$;
-- the live data files of a foreign table, from EXPLAIN
CREATE FUNCTION live_files(tbl text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) SELECT * FROM ' || tbl LOOP
    IF l ~ 'Data Files: ' THEN
      RETURN substring(l from 'Data Files: ([0-9]+) total')::int;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

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

-- compaction at commit: each INSERT adds a sorted run to the bucket; when
-- there are num-sorted-run.compaction-trigger (5) of them, the writer
-- compacts as Java's does (here: size amplification, everything into the
-- max level) and commits a COMPACT snapshot after the APPEND one
SELECT paimon_create_table('cpt', 'db', 'auto', 'id INT, v TEXT', primary_key => ARRAY['id'],
  options => '{"bucket": "1"}', foreign_table => 'auto');
CREATE TEMP TABLE auto_files (n int, files int);
DO $$
BEGIN
  FOR i IN 1..13 LOOP
    INSERT INTO auto VALUES (i, 'v' || i), (i % 4, 'w' || i);
    COMMIT;
    INSERT INTO auto_files VALUES (i, live_files('auto'));
  END LOOP;
END $$;
SELECT string_agg(files::text, ' ' ORDER BY n) AS live_files_after_each_insert FROM auto_files;
SELECT kinds(:'wh' || '/db.db/auto');
SELECT count(*), string_agg(v, ',' ORDER BY id) FROM auto;
-- off: level 0 piles up
SET paimon_fdw.compact_at_commit = off;
INSERT INTO auto VALUES (100, 'x');
INSERT INTO auto VALUES (101, 'x');
INSERT INTO auto VALUES (102, 'x');
INSERT INTO auto VALUES (103, 'x');
SELECT live_files('auto'), kinds(:'wh' || '/db.db/auto');
RESET paimon_fdw.compact_at_commit;
INSERT INTO auto VALUES (104, 'x');
SELECT live_files('auto'), kinds(:'wh' || '/db.db/auto');
-- a deleted key stays deleted through the compactions
DELETE FROM auto WHERE id = 2;
SELECT count(*) FROM auto WHERE id = 2;
-- write-only tables are never compacted by writers (Java's NoopCompactManager)
SELECT paimon_create_table('cpt', 'db', 'wo', 'id INT, v TEXT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "write-only": "true"}', foreign_table => 'wo');
DO $$
BEGIN
  FOR i IN 1..7 LOOP
    INSERT INTO wo VALUES (i, 'v');
    COMMIT;
  END LOOP;
END $$;
SELECT live_files('wo'), kinds(:'wh' || '/db.db/wo');
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('wo');

-- append tables: small files rewritten into larger ones, the same rows;
-- bucket -1: per partition, once compaction.min.file-num (5) small files
SELECT paimon_create_table('cpt', 'db', 'log', 'dt TEXT, id INT, s TEXT',
  partition_keys => ARRAY['dt'], foreign_table => 'log');
DO $$
BEGIN
  FOR i IN 1..6 LOOP
    INSERT INTO log SELECT 'd' || (i % 2), g, 's' || g FROM generate_series(i * 100, i * 100 + 99) g;
    COMMIT;
  END LOOP;
END $$;
CREATE TEMP TABLE log_before AS SELECT * FROM log;
SELECT live_files('log');
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('log');
INSERT INTO log SELECT 'd0', g, 'x' FROM generate_series(1, 3) g;
INSERT INTO log SELECT 'd0', g, 'x' FROM generate_series(4, 6) g;
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('log', 'dt=d0');
SELECT latest_kind(:'wh' || '/db.db/log'), live_files('log');
SELECT count(*) AS differing FROM
  ((SELECT * FROM log WHERE id >= 100 EXCEPT SELECT * FROM log_before)
   UNION ALL (SELECT * FROM log_before EXCEPT SELECT * FROM log WHERE id >= 100)) d;
SELECT count(*), sum(id) FROM log;
-- fixed buckets: per bucket, 3 or more files with more small than large ones
SELECT paimon_create_table('cpt', 'db', 'logb', 'id INT, s TEXT',
  options => '{"bucket": "2", "bucket-key": "id"}', foreign_table => 'logb');
INSERT INTO logb SELECT g, 's' FROM generate_series(1, 100) g;
INSERT INTO logb SELECT g, 't' FROM generate_series(101, 200) g;
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('logb');
INSERT INTO logb SELECT g, 'u' FROM generate_series(201, 300) g;
SELECT live_files('logb');
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('logb');
SELECT live_files('logb'), count(*), count(DISTINCT id), min(id), max(id) FROM logb;
-- fixed buckets at commit (Java's BucketedAppendCompactManager): the 5th INSERT
-- compacts the bucket's 5 small files into one, in a COMPACT snapshot
SELECT paimon_create_table('cpt', 'db', 'logc', 'id INT, s TEXT',
  options => '{"bucket": "1", "bucket-key": "id"}', foreign_table => 'logc');
INSERT INTO logc VALUES (1, 'a');
INSERT INTO logc VALUES (2, 'b');
INSERT INTO logc VALUES (3, 'c');
INSERT INTO logc VALUES (4, 'd');
SELECT live_files('logc'), kinds(:'wh' || '/db.db/logc');
INSERT INTO logc VALUES (5, 'e');
SELECT live_files('logc'), kinds(:'wh' || '/db.db/logc');
SELECT count(*), sum(id), string_agg(s, '' ORDER BY id) FROM logc;

-- deletion vectors: the commits' lookup compaction leaves level 4 and a DV on
-- level 5; paimon_compact applies the DV and leaves one file at level 5
SELECT paimon_create_table('cpt', 'db', 'dv', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "deletion-vectors.enabled": "true"}', foreign_table => 'dv');
SELECT try('SELECT * FROM paimon_compact(''dv'')');
INSERT INTO dv SELECT g, g FROM generate_series(1, 100) g;
UPDATE dv SET v = -v WHERE id <= 30;
DELETE FROM dv WHERE id > 90;
SELECT count(*), sum(v), live_files('dv') FROM dv;
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('dv');
SELECT count(*), sum(v), live_files('dv'), kinds(:'wh' || '/db.db/dv') FROM dv;
SELECT buckets, files_deleted FROM paimon_compact('dv');
-- one partition of a DV table: the other keeps its files
SELECT paimon_create_table('cpt', 'db', 'dvp', 'id INT, p INT, v INT',
  primary_key => ARRAY['id', 'p'], partition_keys => ARRAY['p'],
  options => '{"bucket": "1", "deletion-vectors.enabled": "true"}', foreign_table => 'dvp');
INSERT INTO dvp SELECT g, g % 2, g FROM generate_series(1, 100) g;
UPDATE dvp SET v = -v WHERE id <= 30;
SELECT live_files('dvp'), count(*), sum(v) FROM dvp;
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('dvp', 'p=0');
SELECT live_files('dvp'), count(*), sum(v) FROM dvp;
SELECT try('SELECT * FROM paimon_compact(''dvp'', ''q=0'')');
-- first-row: the first value of a key stays
SELECT paimon_create_table('cpt', 'db', 'fr', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "first-row"}', foreign_table => 'fr');
INSERT INTO fr VALUES (1, 10), (2, 20);
INSERT INTO fr VALUES (1, 11), (3, 30);
INSERT INTO fr VALUES (3, 31), (4, 40);
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('fr');
SELECT * FROM fr ORDER BY id;
-- dynamic buckets: per bucket, the HASH index files untouched (a later
-- update still finds its key's bucket)
SELECT paimon_create_table('cpt', 'db', 'dyn', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"dynamic-bucket.target-row-num": "20"}', foreign_table => 'dyn');
INSERT INTO dyn SELECT g, g FROM generate_series(1, 50) g;
INSERT INTO dyn SELECT g, g * 2 FROM generate_series(25, 75) g;
SELECT count(*) AS index_files FROM pg_ls_dir(:'wh' || '/db.db/dyn/index') \gset
SELECT buckets, files_deleted, files_added, rows FROM paimon_compact('dyn');
SELECT count(*) = :index_files AS same_index_files FROM pg_ls_dir(:'wh' || '/db.db/dyn/index');
SELECT count(*), sum(v), live_files('dyn') FROM dyn;
INSERT INTO dyn VALUES (1, 1000), (76, 76);
SELECT count(*), sum(v) FROM dyn;
-- postpone buckets: paimon_compact moves the files of bucket-postpone (which
-- Flink's postpone sink writes) into real buckets; ours go to real buckets
-- already, so there is nothing to move (test/oracle/compact/postpone_check.sh
-- moves Java's)
SELECT paimon_create_table('cpt', 'db', 'pp', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "-2", "postpone.default-bucket-num": "4"}', foreign_table => 'pp');
INSERT INTO pp SELECT g, g FROM generate_series(1, 10) g;
SELECT * FROM paimon_compact('pp');
SELECT count(*), sum(v) FROM pp;

-- privileges: pg_write_server_files
CREATE ROLE compact_reader;
GRANT USAGE ON FOREIGN SERVER cpt TO compact_reader;
SET ROLE compact_reader;
SELECT try('SELECT * FROM paimon_compact(''users'')');
RESET ROLE;
DROP SERVER cpt CASCADE;
DROP ROLE compact_reader;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
