-- Writing dynamic-bucket primary-key tables (bucket -1, the default without a
-- 'bucket' option): each new key goes to the first bucket holding fewer than
-- dynamic-bucket.target-row-num keys, a key already written stays in its
-- bucket (its hash is in the bucket's HASH index file), over several
-- statements and transactions, through INSERT, COPY, UPDATE and DELETE.
-- Postpone buckets (-2) are written into fixed buckets as Flink's batch sink
-- writes them; cross-partition upserts with bucket -2 are refused (0A000)
-- (with bucket -1: write_cross_partition.sql).
\set SHOW_CONTEXT never
\set VERBOSITY default
-- the warehouse lives in the data directory (writable by the server, gone with it)
SELECT current_setting('data_directory') || '/paimon_write_dyn_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wdyn FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wdyn', 'db');

-- per bucket directory of a table (or partition): its data files
CREATE FUNCTION dyn_buckets(dir text) RETURNS TABLE (bucket text, data_files bigint)
LANGUAGE sql AS $$
  SELECT b, (SELECT count(*) FROM pg_ls_dir(dir || '/' || b) f WHERE f LIKE 'data-%')
  FROM pg_ls_dir(dir) b WHERE b LIKE 'bucket-%' ORDER BY b $$;
-- the HASH index files on disk (old ones stay until snapshot expiry)
CREATE FUNCTION dyn_index_files(dir text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(dir || '/index') f WHERE f LIKE 'index-%' $$;
CREATE FUNCTION dyn_try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- no 'bucket' option: dynamic buckets of at most 4 keys
SELECT paimon_create_table('wdyn', 'db', 'users', 'id BIGINT, name STRING, score INT',
  primary_key => ARRAY['id'], options => '{"dynamic-bucket.target-row-num": "4"}',
  foreign_table => 'users');
SELECT :'wh' || '/db.db/users' AS users_dir \gset
-- ten keys: buckets 0 and 1 get 4 each, bucket 2 the last two
INSERT INTO users SELECT i, 'u' || i, i * 10 FROM generate_series(1, 10) i;
SELECT * FROM dyn_buckets(:'users_dir');
SELECT dyn_index_files(:'users_dir');
-- an upsert of existing keys stays in their buckets (no new bucket, no new
-- index file: the hashes are known); two new keys fill bucket 2
INSERT INTO users VALUES (3, 'again', 33), (7, 'again', 77);
SELECT * FROM dyn_buckets(:'users_dir');
SELECT dyn_index_files(:'users_dir');
INSERT INTO users VALUES (11, 'u11', 110), (12, 'u12', 120);
SELECT * FROM dyn_buckets(:'users_dir');
SELECT dyn_index_files(:'users_dir');
-- COPY: the next keys open bucket 3
COPY users FROM STDIN (FORMAT csv);
13,u13,130
14,u14,140
1,copied,1
\.
SELECT * FROM dyn_buckets(:'users_dir');
-- UPDATE and DELETE find each key's bucket through the index
UPDATE users SET score = score + 1000 WHERE id % 2 = 0;
DELETE FROM users WHERE id IN (1, 5, 13);
SELECT * FROM users ORDER BY id;
SELECT * FROM dyn_buckets(:'users_dir');
-- several statements in one transaction: one snapshot, one index file per grown bucket
BEGIN;
INSERT INTO users VALUES (15, 'u15', 150);
INSERT INTO users VALUES (16, 'u16', 160), (17, 'u17', 170);
UPDATE users SET name = 'changed' WHERE id = 15;
COMMIT;
SELECT dyn_index_files(:'users_dir');
SELECT * FROM dyn_buckets(:'users_dir');
-- ROLLBACK leaves no index file behind
BEGIN;
INSERT INTO users SELECT i, 'r' || i, i FROM generate_series(100, 120) i;
ROLLBACK;
SELECT dyn_index_files(:'users_dir');
SELECT count(*), min(id), max(id) FROM users;
-- a key deleted and written again keeps its old bucket (its hash stays indexed)
INSERT INTO users VALUES (5, 'back', 5);
SELECT * FROM dyn_buckets(:'users_dir');
SELECT * FROM users WHERE id IN (5, 15, 16, 17) ORDER BY id;

-- partitioned (the primary key holds the partition key): buckets per partition
SELECT paimon_create_table('wdyn', 'db', 'events', 'id INT, dt STRING, v INT',
  primary_key => ARRAY['id', 'dt'], partition_keys => ARRAY['dt'],
  options => '{"bucket": "-1", "dynamic-bucket.target-row-num": "3"}', foreign_table => 'events');
INSERT INTO events SELECT i, 'd' || (i % 2), i FROM generate_series(1, 9) i;
INSERT INTO events SELECT i, 'd1', -i FROM generate_series(1, 3) i;
SELECT * FROM dyn_buckets(:'wh' || '/db.db/events/dt=d0');
SELECT * FROM dyn_buckets(:'wh' || '/db.db/events/dt=d1');
SELECT dt, count(*), sum(v) FROM events GROUP BY dt ORDER BY dt;

-- postpone buckets (-2): as Flink's batch sink, into fixed buckets (one for a
-- new partition), not into bucket-postpone that batch reads skip
SELECT paimon_create_table('wdyn', 'db', 'postponed', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "-2"}', foreign_table => 'postponed');
INSERT INTO postponed SELECT i, i FROM generate_series(1, 5) i;
UPDATE postponed SET v = -v WHERE id > 3;
SELECT * FROM postponed ORDER BY id;
SELECT * FROM dyn_buckets(:'wh' || '/db.db/postponed');
-- with deletion vectors: the lookup compaction at commit of each real bucket
-- written, so that batch reads see the rows at once
SELECT paimon_create_table('wdyn', 'db', 'postponed_dv', 'id INT, v INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "-2", "deletion-vectors.enabled": "true"}',
  foreign_table => 'postponed_dv');
INSERT INTO postponed_dv SELECT i, i FROM generate_series(1, 5) i;
UPDATE postponed_dv SET v = -v WHERE id > 3;
DELETE FROM postponed_dv WHERE id = 1;
SELECT * FROM postponed_dv ORDER BY id;

-- postpone.batch-write-fixed-bucket = false: rows go to bucket-postpone, as
-- Java's streaming sink writes them; batch reads see them once paimon_compact
-- (or a Flink job) moves them into postpone.default-bucket-num buckets
SELECT paimon_create_table('wdyn', 'db', 'postponed2', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "-2", "postpone.batch-write-fixed-bucket": "false", "postpone.default-bucket-num": "2"}',
  foreign_table => 'postponed2');
INSERT INTO postponed2 SELECT i, i FROM generate_series(1, 5) i;
INSERT INTO postponed2 VALUES (2, 20), (2, 22), (6, 6);
SELECT * FROM postponed2 ORDER BY id;
SELECT * FROM dyn_buckets(:'wh' || '/db.db/postponed2');
SELECT * FROM paimon_compact('postponed2');
SELECT * FROM postponed2 ORDER BY id;
SELECT * FROM dyn_buckets(:'wh' || '/db.db/postponed2');

-- refused, by name, before any file is written
SELECT paimon_create_table('wdyn', 'db', 'cross', 'id INT, dt STRING, v INT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'], options => '{"bucket": "-2"}',
  foreign_table => 'cross_part');
SELECT dyn_try('INSERT INTO cross_part VALUES (1, ''a'', 1)');
SELECT paimon_create_table('wdyn', 'db', 'badmax', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"dynamic-bucket.max-buckets": "0"}', foreign_table => 'badmax');
SELECT dyn_try('INSERT INTO badmax VALUES (1, 1)');

DROP FUNCTION dyn_buckets(text), dyn_index_files(text), dyn_try(text);
DROP SERVER wdyn CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
