-- COPY FROM into primary-key tables (issue 8: "INSERT and COPY FROM into ...
-- primary-key tables"): an upsert as INSERT is, a key repeated within the
-- COPY keeps its last row (the write buffer merges it), a COPY naming some
-- columns of a partial-update table keeps the other columns' values, and a
-- rolled-back COPY leaves no snapshot.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SELECT current_setting('data_directory') || '/paimon_write_pk_copy_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wpc FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wpc', 'db');

-- the snapshot files of a table
CREATE FUNCTION copy_snapshots(dir text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM pg_ls_dir(dir || '/snapshot') f WHERE f ~ '^snapshot-[0-9]+$' $$;

-- deduplicate, two buckets
SELECT paimon_create_table('wpc', 'db', 'users', 'id BIGINT, name STRING, score INT',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'users');
INSERT INTO users VALUES (1, 'ann', 10), (2, 'bob', 20);
-- key 2 replaced, key 3 twice in the COPY (the last row wins), key 4 new
COPY users FROM STDIN (FORMAT csv);
2,bob,21
3,cid,30
4,dan,40
3,cid,31
\.
SELECT * FROM users ORDER BY id;
SELECT copy_snapshots(:'wh' || '/db.db/users');

-- a bigger COPY (several write batches), from a file the server wrote
SELECT :'wh' || '/users.csv' AS csv \gset
COPY (SELECT i, 'u' || i, i % 1000 FROM generate_series(1, 20000) i) TO :'csv' (FORMAT csv);
COPY users FROM :'csv' (FORMAT csv);
SELECT count(*), sum(score), min(id), max(id) FROM users;
SELECT * FROM users WHERE id IN (1, 2, 3, 4, 20000) ORDER BY id;

-- a rolled-back COPY: no snapshot, the rows unchanged
BEGIN;
COPY users FROM STDIN (FORMAT csv);
1,gone,0
\.
ROLLBACK;
SELECT copy_snapshots(:'wh' || '/db.db/users');
SELECT * FROM users WHERE id = 1;

-- partial-update: each COPY names its own columns, NULL keeps the key's value
SELECT paimon_create_table('wpc', 'db', 'wide', 'id BIGINT, a STRING, b INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "partial-update"}', foreign_table => 'wide');
COPY wide (id, a) FROM STDIN (FORMAT csv);
1,x
2,y
\.
COPY wide (id, b) FROM STDIN (FORMAT csv);
2,20
3,30
\.
SELECT * FROM wide ORDER BY id;

DROP SERVER wpc CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
