-- Writing cross-partition upsert tables: a primary key without the partition
-- key and bucket -1 (the default), Java's KEY_DYNAMIC mode. Each write
-- builds the key index from the latest snapshot's keys, then a key written
-- in another partition than the one holding it goes where Java's
-- GlobalIndexAssigner sends it: deduplicate deletes it from the old
-- partition (a -D there) and writes it to the new one; partial-update and
-- aggregation keep the old partition (the row is merged there). With a
-- fixed bucket count the table is a plain fixed-bucket one (a key may live
-- in several partitions). Through INSERT, COPY, UPDATE and DELETE.
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_xpart_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wxp FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wxp', 'db');

-- per partition and bucket directory: its data files
CREATE FUNCTION xp_files(dir text) RETURNS TABLE (part text, bucket text, data_files bigint)
LANGUAGE sql AS $$
  SELECT p, b, (SELECT count(*) FROM pg_ls_dir(dir || '/' || p || '/' || b) f WHERE f LIKE 'data-%')
  FROM pg_ls_dir(dir) p, LATERAL pg_ls_dir(dir || '/' || p) b
  WHERE p LIKE 'dt=%' AND b LIKE 'bucket-%' ORDER BY p, b $$;
CREATE FUNCTION xp_try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- deduplicate, buckets of at most 2 keys per partition
SELECT paimon_create_table('wxp', 'db', 'orders', 'id BIGINT, dt STRING, status STRING',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'],
  options => '{"dynamic-bucket.target-row-num": "2"}', foreign_table => 'orders');
SELECT :'wh' || '/db.db/orders' AS orders_dir \gset
INSERT INTO orders SELECT i, '2026-12-01', 'new' FROM generate_series(1, 5) i;
SELECT * FROM xp_files(:'orders_dir');
-- keys 1 and 2 move to the next day: deleted on 12-01 (a new file in its
-- bucket 0), written on 12-02; key 6 is new
INSERT INTO orders VALUES (1, '2026-12-02', 'paid'), (2, '2026-12-02', 'paid'),
  (6, '2026-12-02', 'new');
SELECT * FROM orders ORDER BY id;
SELECT * FROM xp_files(:'orders_dir');
-- a key that moves twice in one transaction ends where it was written last
BEGIN;
INSERT INTO orders VALUES (3, '2026-12-02', 'paid');
INSERT INTO orders VALUES (3, '2026-12-03', 'shipped');
COMMIT;
SELECT * FROM orders WHERE id = 3;
SELECT count(*) FROM orders;
-- UPDATE of the partition column moves the key
UPDATE orders SET dt = '2026-12-03', status = 'shipped' WHERE id IN (1, 4);
SELECT * FROM orders ORDER BY id;
-- COPY moves keys too
COPY orders FROM STDIN (FORMAT csv);
5,2026-12-04,returned
6,2026-12-04,returned
7,2026-12-04,new
\.
SELECT dt, count(*), string_agg(id::text, ',' ORDER BY id) FROM orders GROUP BY dt ORDER BY dt;
-- DELETE finds the key in its partition
DELETE FROM orders WHERE id IN (2, 5);
SELECT * FROM orders ORDER BY id;
-- ROLLBACK: no key moved
BEGIN;
INSERT INTO orders VALUES (1, '2026-12-09', 'gone');
ROLLBACK;
SELECT * FROM orders WHERE id = 1;
-- a deleted key written again goes to its new partition
INSERT INTO orders VALUES (2, '2026-12-05', 'back');
SELECT * FROM orders ORDER BY id;
-- one snapshot per statement or transaction, none for the rollback
SELECT count(*) AS snapshots FROM pg_ls_dir(:'orders_dir' || '/snapshot') f WHERE f LIKE 'snapshot-%';
-- paimon_compact compacts these per bucket, as other dynamic-bucket tables
-- (Java's compaction of them: test/oracle/write/write_cross_partition_check.sh);
-- the rows read are the same
SELECT buckets > 0 AS compacted FROM paimon_compact('orders');
SELECT * FROM orders ORDER BY id;

-- partial-update: a key keeps its first partition, the new values merge there
SELECT paimon_create_table('wxp', 'db', 'wide', 'id INT, dt STRING, a STRING, b INT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'],
  options => '{"merge-engine": "partial-update"}', foreign_table => 'wide');
INSERT INTO wide VALUES (1, 'x', 'a1', NULL), (2, 'x', 'a2', NULL);
INSERT INTO wide VALUES (1, 'y', NULL, 10), (3, 'y', 'a3', 30);
SELECT * FROM wide ORDER BY id;

-- aggregation: the sum goes on in the key's first partition
SELECT paimon_create_table('wxp', 'db', 'totals', 'id INT, dt STRING, n BIGINT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'],
  options => '{"merge-engine": "aggregation", "fields.n.aggregate-function": "sum"}',
  foreign_table => 'totals');
INSERT INTO totals VALUES (1, 'x', 5), (2, 'x', 1);
INSERT INTO totals VALUES (1, 'y', 7), (1, 'z', 100), (3, 'y', 2);
SELECT * FROM totals ORDER BY id;

-- a fixed bucket count: no key index, a key in two partitions is two rows
SELECT paimon_create_table('wxp', 'db', 'fixed', 'id INT, dt STRING, v INT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'], options => '{"bucket": "2"}',
  foreign_table => 'fixed');
INSERT INTO fixed VALUES (1, 'x', 1), (2, 'x', 2);
INSERT INTO fixed VALUES (1, 'y', 10);
SELECT * FROM fixed ORDER BY id, dt;

-- refused, by name, before any file is written
SELECT paimon_create_table('wxp', 'db', 'first', 'id INT, dt STRING, v INT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'],
  options => '{"merge-engine": "first-row"}', foreign_table => 'first_row');
SELECT xp_try('INSERT INTO first_row VALUES (1, ''x'', 1)');
SELECT paimon_create_table('wxp', 'db', 'ttl', 'id INT, dt STRING, v INT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'],
  options => '{"cross-partition-upsert.index-ttl": "1 d"}', foreign_table => 'ttl');
SELECT xp_try('INSERT INTO ttl VALUES (1, ''x'', 1)');
-- Java rejects sequence.field for these tables when they are created
-- (SchemaValidation.validateSequenceField), whatever the bucket count
SELECT xp_try($$SELECT paimon_create_table('wxp', 'db', 'seq', 'id INT, dt STRING, v INT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'],
  options => '{"sequence.field": "v"}', foreign_table => 'seq')$$);
SELECT xp_try($$SELECT paimon_create_table('wxp', 'db', 'seq', 'id INT, dt STRING, v INT',
  primary_key => ARRAY['id'], partition_keys => ARRAY['dt'],
  options => '{"sequence.field": "v", "bucket": "2"}', foreign_table => 'seq')$$);

DROP FUNCTION xp_files(text), xp_try(text);
DROP SERVER wxp CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
