-- Writing primary-key tables: INSERT is an upsert on a deduplicate table;
-- UPDATE and DELETE write -U/+U/-D records (-D and +I when a key changes),
-- in batches; partial update of some columns; an aggregation table retracts
-- the old row on UPDATE; tables and foreign tables that cannot take UPDATE or
-- DELETE are refused (0A000) before any row is read; ROLLBACK and an ERROR
-- leave no snapshot and no files; rowkind.field takes the kinds of inserted
-- rows from a column.
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;
-- the warehouse lives in the data directory (writable by the server, gone with it)
SELECT current_setting('data_directory') || '/paimon_write_pk_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wpk FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');

-- the files of a table by kind
CREATE FUNCTION pk_files(dir text, OUT snapshots bigint, OUT data_files bigint,
                         OUT manifest_files bigint, OUT all_files bigint) LANGUAGE sql AS $$
  WITH RECURSIVE f(path, isdir) AS (
    SELECT dir, true
    UNION ALL
    SELECT f.path || '/' || c, (pg_stat_file(f.path || '/' || c)).isdir
    FROM f, pg_ls_dir(f.path) c WHERE f.isdir)
  SELECT count(*) FILTER (WHERE path ~ '/snapshot/snapshot-[0-9]+$'),
         count(*) FILTER (WHERE path ~ '/bucket-[0-9]+/data-'),
         count(*) FILTER (WHERE path ~ '/manifest/'),
         count(*)
  FROM f WHERE NOT isdir $$;

SELECT paimon_create_database('wpk', 'db');

-- deduplicate (the default merge engine), two buckets
SELECT paimon_create_table('wpk', 'db', 'users',
  'id BIGINT, name STRING, score INT, city STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'users');
INSERT INTO users VALUES (1, 'ann', 10, 'oslo'), (2, 'bob', 20, 'rome'), (3, 'cid', 30, 'lima');
-- INSERT is an upsert: a key again replaces its row
INSERT INTO users VALUES (2, 'bob', 21, 'paris'), (4, 'dan', 40, NULL);
-- two rows of one key in one statement: the last one wins
INSERT INTO users VALUES (5, 'eve', 1, 'x'), (5, 'eve', 2, 'y');
SELECT * FROM users ORDER BY id;

-- UPDATE and DELETE
UPDATE users SET score = score + 100 WHERE id IN (1, 3);
DELETE FROM users WHERE id = 4;
SELECT * FROM users ORDER BY id;
UPDATE users SET city = 'bern' WHERE id = 5 RETURNING *;
DELETE FROM users WHERE id = 5 RETURNING id, name;
-- changing the key: -D of the old row, +I of the new one
UPDATE users SET id = 10 WHERE id = 1;
SELECT * FROM users ORDER BY id;
-- one snapshot per transaction, and a COMPACT one after the APPEND of the
-- transaction that made a bucket's fifth sorted run (compaction at commit)
SELECT snapshots FROM pk_files(:'wh' || '/db.db/users');

-- many rows: UPDATE and DELETE in batches of 1000 rows
SET paimon_fdw.write_batch_size = 1000;
INSERT INTO users SELECT g, 'u' || g, g, NULL FROM generate_series(100, 5099) g;
UPDATE users SET score = -score, city = 'even' WHERE id >= 100 AND id % 2 = 0;
DELETE FROM users WHERE id >= 100 AND id % 3 = 0;
SELECT count(*), sum(score), count(city) FROM users WHERE id >= 100;
SELECT count(*) FROM users WHERE id >= 100 AND id % 3 = 0;
RESET paimon_fdw.write_batch_size;

-- a transaction does not see its own writes: they become visible at COMMIT
BEGIN;
DELETE FROM users WHERE id = 2;
SELECT count(*) FROM users WHERE id = 2;
COMMIT;
SELECT count(*) FROM users WHERE id = 2;

-- ROLLBACK and an ERROR leave no snapshot and no files, also when the write
-- buffer was flushed to level-0 files before the end (a small write-buffer-size
-- that does not spill to local files)
SELECT paimon_create_table('wpk', 'db', 'small_buf', 'id BIGINT, v STRING, n INT',
  primary_key => ARRAY['id'], options => '{"bucket": "2", "write-buffer-size": "64kb", "write-buffer-spillable": "false"}',
  foreign_table => 'small_buf');
INSERT INTO small_buf SELECT g, 'v' || g, g FROM generate_series(1, 20000) g;
SELECT * FROM pk_files(:'wh' || '/db.db/small_buf') \gset before_
BEGIN;
INSERT INTO small_buf SELECT g, 'tmp', 0 FROM generate_series(20001, 40000) g;
UPDATE small_buf SET v = 'gone' WHERE id <= 10000;
DELETE FROM small_buf WHERE id > 10000;
SELECT (pk_files(:'wh' || '/db.db/small_buf')).data_files > :before_data_files AS data_files_written;
ROLLBACK;
SELECT (f).snapshots = :before_snapshots AS same_snapshots,
       (f).all_files = :before_all_files AS same_files
  FROM (SELECT pk_files(:'wh' || '/db.db/small_buf') AS f) s;
INSERT INTO small_buf SELECT g, 'x', 10 / (g - 35000) FROM generate_series(20001, 40000) g;
UPDATE small_buf SET n = 1 / (n - 15000), v = 'y';
DELETE FROM small_buf WHERE 1 / (n - 15000) <> 0 OR n > 0;
SELECT (f).snapshots = :before_snapshots AS same_snapshots,
       (f).all_files = :before_all_files AS same_files
  FROM (SELECT pk_files(:'wh' || '/db.db/small_buf') AS f) s;
SELECT count(*), sum(n), count(*) FILTER (WHERE v <> 'v' || id) AS changed FROM small_buf;

-- a foreign table with some of the columns: INSERT yes, UPDATE and DELETE no
CREATE FOREIGN TABLE users_some (id bigint, name text) SERVER wpk
  OPTIONS (database 'db', table 'users');
INSERT INTO users_some VALUES (6, 'fay');
SELECT * FROM users WHERE id = 6;
UPDATE users_some SET name = 'x' WHERE id = 6;
DELETE FROM users_some WHERE id = 6;

-- partial-update: an INSERT of some columns keeps the others; UPDATE writes +U
SELECT paimon_create_table('wpk', 'db', 'wide', 'id BIGINT, a STRING, b INT, c STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "merge-engine": "partial-update"}',
  foreign_table => 'wide');
INSERT INTO wide (id, a) VALUES (1, 'a1'), (2, 'a2');
INSERT INTO wide (id, b) VALUES (1, 10);
INSERT INTO wide (id, c) VALUES (2, 'c2'), (1, 'c1');
SELECT * FROM wide ORDER BY id;
UPDATE wide SET b = 11 WHERE id = 1;
-- NULL means "keep": an UPDATE cannot clear a column of a partial-update table
UPDATE wide SET c = NULL WHERE id = 2;
SELECT * FROM wide ORDER BY id;
-- DELETE needs partial-update.remove-record-on-delete (or sequence groups)
DELETE FROM wide WHERE id = 1;
SELECT paimon_create_table('wpk', 'db', 'wide_del', 'id BIGINT, a STRING, b INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "partial-update", "partial-update.remove-record-on-delete": "true"}',
  foreign_table => 'wide_del');
INSERT INTO wide_del (id, a) VALUES (1, 'a1'), (2, 'a2');
INSERT INTO wide_del (id, b) VALUES (1, 10), (2, 20);
DELETE FROM wide_del WHERE id = 1;
SELECT * FROM wide_del ORDER BY id;

-- aggregation: INSERT adds to the aggregates; UPDATE retracts the old row (-U) first
SELECT paimon_create_table('wpk', 'db', 'agg', 'id BIGINT, total BIGINT, cnt BIGINT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "aggregation", "fields.total.aggregate-function": "sum", "fields.cnt.aggregate-function": "sum"}',
  foreign_table => 'agg');
INSERT INTO agg VALUES (1, 10, 1), (1, 5, 1), (2, 7, 1);
INSERT INTO agg VALUES (1, 100, 1);
SELECT * FROM agg ORDER BY id;
UPDATE agg SET total = 50 WHERE id = 1;
SELECT * FROM agg ORDER BY id;
-- max cannot be retracted: UPDATE is refused before any row is read
SELECT paimon_create_table('wpk', 'db', 'agg_max', 'id BIGINT, m INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "aggregation", "fields.m.aggregate-function": "max"}',
  foreign_table => 'agg_max');
INSERT INTO agg_max VALUES (1, 5), (1, 3);
SELECT * FROM agg_max;
UPDATE agg_max SET m = 1;
DELETE FROM agg_max;
SELECT * FROM agg_max;

-- ignore-delete: DELETE is accepted and does nothing, as in Java
SELECT paimon_create_table('wpk', 'db', 'keep', 'id BIGINT, v STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "ignore-delete": "true"}',
  foreign_table => 'keep');
INSERT INTO keep VALUES (1, 'one');
DELETE FROM keep;
SELECT * FROM keep;

-- sequence.field: the largest ts wins whatever the order of writing; descending:
-- the smallest between transactions, but within one transaction the largest
-- (Java's write buffer sorts on the field ascending whatever the order)
SELECT paimon_create_table('wpk', 'db', 'seqdesc', 'id BIGINT, ts INT, v STRING',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "sequence.field": "ts", "sequence.field.sort-order": "descending"}',
  foreign_table => 'seqdesc');
INSERT INTO seqdesc VALUES (1, 5, 'a'), (1, 3, 'b'), (2, 5, 'c'), (3, NULL, 'd'), (3, 7, 'e');
SELECT * FROM seqdesc ORDER BY id;
INSERT INTO seqdesc VALUES (1, 4, 'f'), (2, 6, 'g'), (3, NULL, 'h');
SELECT * FROM seqdesc ORDER BY id;

-- partitioned: changing the partition moves the row
SELECT paimon_create_table('wpk', 'db', 'parted', 'dt STRING, id BIGINT, v INT',
  primary_key => ARRAY['dt', 'id'], partition_keys => ARRAY['dt'],
  options => '{"bucket": "2"}', foreign_table => 'parted');
INSERT INTO parted VALUES ('2026-01-01', 1, 1), ('2026-01-01', 2, 2), ('2026-01-02', 1, 3);
UPDATE parted SET dt = '2026-01-03' WHERE id = 2;
UPDATE parted SET v = v * 10 WHERE dt = '2026-01-02';
DELETE FROM parted WHERE dt = '2026-01-01';
SELECT * FROM parted ORDER BY dt, id;

-- rowkind.field: each row's kind is its value of column k ('+I', '-U', '+U' or
-- '-D', in any case), so INSERT and COPY also retract and delete; NULL or
-- another value fails the statement (22023); UPDATE and DELETE are refused
-- (0A000): Java would write the old row with the kind its k holds
SELECT paimon_create_table('wpk', 'db', 'kinds', 'id BIGINT, k STRING, v INT',
  primary_key => ARRAY['id'], options => '{"bucket": "2", "rowkind.field": "k"}',
  foreign_table => 'kinds');
INSERT INTO kinds VALUES (1, '+I', 10), (2, '+I', 20), (3, '+i', 30), (4, '+I', 40);
INSERT INTO kinds VALUES (2, '-U', 20), (2, '+U', 21), (3, '-D', NULL), (4, '-d', NULL);
SELECT * FROM kinds ORDER BY id;
COPY kinds FROM STDIN;
5	+I	50
1	-D	\N
6	+U	60
\.
SELECT * FROM kinds ORDER BY id;
INSERT INTO kinds VALUES (7, 'x', 70);
INSERT INTO kinds VALUES (7, NULL, 70);
UPDATE kinds SET v = 0;
DELETE FROM kinds WHERE id = 2;
\set VERBOSITY sqlstate
INSERT INTO kinds VALUES (7, '+X', 70);
DELETE FROM kinds WHERE id = 2;
\set VERBOSITY default
SELECT * FROM kinds ORDER BY id;
-- the merge engine still decides: first-row takes no -D, unless ignore-delete
SELECT paimon_create_table('wpk', 'db', 'kinds_fr', 'id BIGINT, k STRING, v INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "rowkind.field": "k", "merge-engine": "first-row"}',
  foreign_table => 'kinds_fr');
INSERT INTO kinds_fr VALUES (1, '+I', 1), (1, '-D', NULL);
SELECT paimon_create_table('wpk', 'db', 'kinds_fri', 'id BIGINT, k STRING, v INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "rowkind.field": "k", "merge-engine": "first-row", "ignore-delete": "true"}',
  foreign_table => 'kinds_fri');
INSERT INTO kinds_fri VALUES (1, '+I', 1), (1, '-D', NULL), (1, '+I', 2), (2, '+U', 3);
SELECT * FROM kinds_fri ORDER BY id;
-- an append table: '+I' and '+U' rows are appended, a '-D' or '-U' row fails the
-- statement (0A000) as in Java's append writer, unless ignore-delete drops it
SELECT paimon_create_table('wpk', 'db', 'kinds_app', 'id BIGINT, k STRING, v INT',
  options => '{"rowkind.field": "k"}', foreign_table => 'kinds_app');
INSERT INTO kinds_app VALUES (1, '+I', 1), (1, '+u', 2);
INSERT INTO kinds_app VALUES (2, '+I', 3), (1, '-D', NULL);
SELECT * FROM kinds_app ORDER BY id, v;
SELECT paimon_create_table('wpk', 'db', 'kinds_appi', 'id BIGINT, k STRING, v INT',
  options => '{"rowkind.field": "k", "ignore-delete": "true"}', foreign_table => 'kinds_appi');
INSERT INTO kinds_appi VALUES (1, '+I', 1), (1, '-D', NULL), (2, '-U', 2), (3, '+U', 3);
SELECT * FROM kinds_appi ORDER BY id, v;

DROP SERVER wpk CASCADE;
DROP FUNCTION pk_files(text);
COPY (SELECT 1) TO PROGRAM :'rm_wh';
