-- DELETE and UPDATE on append tables (no primary key) with deletion
-- vectors, as Spark does them: a deleted row is marked in its data file's
-- deletion vector (new DV index files, an OVERWRITE snapshot), an UPDATE
-- deletes the old row so and appends the new one in the same snapshot.
-- Append tables without deletion vectors refuse both (0A000).
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_append_dv_test' AS wh \gset
-- the program reads its input first: no broken pipe when it ends early
SELECT 'cat >/dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wadv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wadv', 'db');

-- snapshot ids and commit kinds, from the snapshot files
CREATE FUNCTION adv_snapshots(dir text) RETURNS TABLE (id bigint, kind text) LANGUAGE sql AS $$
  SELECT substring(f from 'snapshot-([0-9]+)')::bigint,
         pg_read_file(dir || '/snapshot/' || f)::jsonb ->> 'commitKind'
  FROM pg_ls_dir(dir || '/snapshot') f WHERE f ~ '^snapshot-[0-9]+$' ORDER BY 1 $$;
-- DV index files in the table's index directory
CREATE FUNCTION adv_index_files(dir text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(dir || '/index') f WHERE f ~ '^index-' $$;

-- bucket-unaware, partitioned
SELECT paimon_create_table('wadv', 'db', 'events', 'dt STRING, id INT, what STRING',
  partition_keys => ARRAY['dt'],
  options => '{"deletion-vectors.enabled": "true"}', foreign_table => 'events');
INSERT INTO events SELECT CASE WHEN g % 2 = 0 THEN 'a' ELSE 'b' END, g, 'w' || g
  FROM generate_series(1, 20) g;
INSERT INTO events SELECT 'a', g, 'x' || g FROM generate_series(21, 24) g;
SELECT count(*), sum(id) FROM events;
DELETE FROM events WHERE id IN (2, 3, 22) RETURNING *;
SELECT count(*), sum(id) FROM events;
SELECT * FROM events WHERE id <= 5 OR id > 20 ORDER BY id;
SELECT * FROM adv_snapshots(:'wh' || '/db.db/events');
-- the data files of partition a: two of them with a deletion vector
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE dt = 'a';
-- a second DELETE in the same file: its DV merged with the new deletions
DELETE FROM events WHERE id = 4;
SELECT id FROM events WHERE dt = 'a' AND id <= 10 ORDER BY id;
-- UPDATE: the old row deleted, the new one appended, one snapshot
UPDATE events SET what = upper(what) WHERE id IN (1, 6, 23) RETURNING *;
SELECT * FROM events WHERE id IN (1, 6, 23) ORDER BY id;
SELECT count(*), sum(id) FROM events;
-- moving a row to another partition
UPDATE events SET dt = 'c' WHERE id = 5;
SELECT * FROM events WHERE id = 5;
SELECT * FROM adv_snapshots(:'wh' || '/db.db/events') WHERE id > 2;
-- rows found through a join or a subquery of the same table
DELETE FROM events e USING (VALUES (10), (12)) v(x) WHERE e.id = v.x;
UPDATE events e SET what = v.w FROM (VALUES (14, 'j14'), (16, 'j16')) v(x, w) WHERE e.id = v.x;
DELETE FROM events WHERE id IN (SELECT id FROM events WHERE what = 'w18');
SELECT * FROM events WHERE id BETWEEN 10 AND 18 ORDER BY id;
-- nothing matched: no snapshot
DELETE FROM events WHERE id = 1000;
SELECT max(id) FROM adv_snapshots(:'wh' || '/db.db/events');
-- ROLLBACK: no snapshot, no DV index file left behind
SELECT adv_index_files(:'wh' || '/db.db/events') AS index_files \gset
BEGIN;
DELETE FROM events WHERE dt = 'b';
UPDATE events SET id = id + 100 WHERE dt = 'a';
ROLLBACK;
SELECT count(*), sum(id) FROM events;
SELECT max(id) FROM adv_snapshots(:'wh' || '/db.db/events');
SELECT adv_index_files(:'wh' || '/db.db/events') = :index_files AS no_new_index_files;
-- several statements in one transaction: one snapshot
BEGIN;
DELETE FROM events WHERE id = 7;
INSERT INTO events VALUES ('b', 99, 'new');
UPDATE events SET what = 'upd' WHERE id = 9;
COMMIT;
SELECT * FROM events WHERE id IN (7, 9, 99) ORDER BY id;
SELECT * FROM adv_snapshots(:'wh' || '/db.db/events') WHERE id > 8;
-- an earlier statement's changes become visible at the commit: a row it
-- updated or deleted cannot be updated again (a second new row); deleting
-- it again is harmless
BEGIN;
UPDATE events SET what = 'once' WHERE id = 8;
UPDATE events SET what = 'twice' WHERE id = 8;
ROLLBACK;
BEGIN;
DELETE FROM events WHERE id = 8;
DELETE FROM events WHERE id = 8;
COMMIT;
SELECT count(*) FROM events WHERE id = 8;
-- delete everything
DELETE FROM events;
SELECT count(*) FROM events;
INSERT INTO events VALUES ('a', 1, 'back');
SELECT * FROM events;

-- fixed buckets: the bucket's DVs in one index file, replaced whole
SELECT paimon_create_table('wadv', 'db', 'orders', 'id INT, amount INT',
  options => '{"bucket": "2", "bucket-key": "id", "deletion-vectors.enabled": "true"}',
  foreign_table => 'orders');
INSERT INTO orders SELECT g, g * 10 FROM generate_series(1, 30) g;
DELETE FROM orders WHERE id % 3 = 0;
SELECT count(*), sum(amount) FROM orders;
UPDATE orders SET amount = -amount WHERE id < 5;
DELETE FROM orders WHERE id % 5 = 0;
SELECT count(*), sum(amount) FROM orders;
SELECT * FROM orders WHERE id < 12 ORDER BY id;
SELECT * FROM adv_snapshots(:'wh' || '/db.db/orders');
-- paimon_compact of the fixed buckets: the deleted rows dropped, no DV left
SELECT * FROM paimon_compact('orders');
SELECT count(*), sum(amount) FROM orders;
EXPLAIN (COSTS OFF) SELECT * FROM orders;
DELETE FROM orders WHERE id = 7;
SELECT count(*), sum(amount) FROM orders;
SELECT * FROM adv_snapshots(:'wh' || '/db.db/orders') WHERE id > 4;
-- paimon_compact of bucket-unaware partitions (AppendCompactCoordinator):
-- the files with a DV are rewritten whatever their number, without the rows
-- their DVs delete; the DV index files they were in are deleted
SELECT * FROM events ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM events;
SELECT * FROM paimon_compact('events');
SELECT * FROM events ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM events;
SELECT * FROM adv_snapshots(:'wh' || '/db.db/events') WHERE id > 13;
-- nothing left to compact: no snapshot
SELECT * FROM paimon_compact('events');

-- a DV index file that also holds DVs of files not compacted (large ones
-- deleting few rows) is written again with those DVs only
SELECT paimon_create_table('wadv', 'db', 'logs', 'id INT, pad STRING',
  options => '{"deletion-vectors.enabled": "true", "target-file-size": "64kb"}',
  foreign_table => 'logs');
INSERT INTO logs SELECT g, md5(g::text) || md5((g * 7)::text) FROM generate_series(1, 12000) g;
INSERT INTO logs SELECT g, 'small' FROM generate_series(20001, 20010) g;
INSERT INTO logs SELECT g, 'small' FROM generate_series(20011, 20020) g;
INSERT INTO logs SELECT g, 'small' FROM generate_series(20021, 20030) g;
-- one DELETE: one index file, DVs of large and small files
DELETE FROM logs WHERE id % 1000 = 7 OR id IN (20003, 20013);
-- most rows of the first large file: more than compaction.delete-ratio-threshold
DELETE FROM logs WHERE id BETWEEN 2 AND 1500;
SELECT count(*), sum(id), count(*) FILTER (WHERE pad = 'small') FROM logs;
EXPLAIN (COSTS OFF) SELECT * FROM logs;
SELECT * FROM paimon_compact('logs');
SELECT count(*), sum(id), count(*) FILTER (WHERE pad = 'small') FROM logs;
SELECT id FROM logs WHERE id % 1000 = 7 OR id IN (1, 1501, 20003, 20013) OR id > 20028 ORDER BY id;
-- the large files not compacted keep their DVs (in a new index file)
EXPLAIN (COSTS OFF) SELECT * FROM logs;
SELECT * FROM adv_snapshots(:'wh' || '/db.db/logs') WHERE id > 5;
-- a row of a large file deleted after the compaction: its DV merged in
DELETE FROM logs WHERE id = 9000;
SELECT count(*), sum(id) FROM logs;
-- a threshold that is no number
SELECT paimon_create_table('wadv', 'db', 'badratio', 'id INT',
  options => '{"deletion-vectors.enabled": "true", "compaction.delete-ratio-threshold": "lots"}',
  foreign_table => 'badratio');
INSERT INTO badratio VALUES (1), (2);
DELETE FROM badratio WHERE id = 1;
\set VERBOSITY sqlstate
SELECT * FROM paimon_compact('badratio');
\set VERBOSITY default
SELECT * FROM badratio;

-- 64-bit deletion vectors
SELECT paimon_create_table('wadv', 'db', 'wide', 'id INT',
  options => '{"deletion-vectors.enabled": "true", "deletion-vectors.bitmap64": "true"}',
  foreign_table => 'wide');
INSERT INTO wide SELECT g FROM generate_series(1, 10) g;
DELETE FROM wide WHERE id > 7;
UPDATE wide SET id = 0 WHERE id = 1;
SELECT array_agg(id ORDER BY id) FROM wide;

-- row groups and pages skipped by statistics: the positions stay positions in the file
SELECT paimon_create_table('wadv', 'db', 'big', 'id INT, pad STRING',
  options => '{"deletion-vectors.enabled": "true", "parquet.block.size": "64kb", "parquet.page.size": "2kb"}',
  foreign_table => 'big');
INSERT INTO big SELECT g, 'pad ' || g FROM generate_series(1, 60000) g;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  SELECT * FROM big WHERE id BETWEEN 30000 AND 30004;
DELETE FROM big WHERE id BETWEEN 30000 AND 30004 RETURNING id;
SELECT count(*), min(id), max(id) FROM big WHERE id BETWEEN 29990 AND 30010;
UPDATE big SET pad = 'u' WHERE id IN (12345, 45678) RETURNING *;
SELECT * FROM big WHERE id IN (12344, 12345, 12346, 45677, 45678, 45679) ORDER BY id;
DELETE FROM big WHERE id IN (12344, 45679, 59999);
SELECT count(*), sum(id) FROM big;
SELECT count(*), sum(id) FROM big WHERE id BETWEEN 12000 AND 46000;

-- append table without deletion vectors: refused before any row is read
SELECT paimon_create_table('wadv', 'db', 'plain', 'id INT', foreign_table => 'plain');
INSERT INTO plain VALUES (1);
DELETE FROM plain;
UPDATE plain SET id = 2;
SELECT * FROM plain;

DROP SERVER wadv CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
