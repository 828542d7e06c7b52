-- Writing deletion-vector and first-row primary-key tables. Java's batch
-- read skips their level-0 files, so each commit is followed by the
-- compaction Java's writer runs (level 0 pushed up; an older row of a key
-- written is marked deleted in its file's deletion vector, or, for
-- first-row, the new row is dropped): an APPEND and a COMPACT snapshot per
-- transaction, after which the rows are visible. EXPLAIN shows the
-- deletion vectors applied.
\set SHOW_CONTEXT never
\set VERBOSITY default
-- the warehouse lives in the data directory (writable by the server, gone with it)
SELECT current_setting('data_directory') || '/paimon_write_dv_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wdv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wdv', 'db');

-- snapshot ids and commit kinds, from the snapshot files
CREATE FUNCTION dv_snapshots(dir text) RETURNS TABLE (id bigint, kind text) LANGUAGE sql AS $$
  SELECT substring(f from 'snapshot-([0-9]+)')::bigint,
         pg_read_file(dir || '/snapshot/' || f)::jsonb ->> 'commitKind'
  FROM pg_ls_dir(dir || '/snapshot') f WHERE f ~ '^snapshot-[0-9]+$' ORDER BY 1 $$;

-- deduplicate with deletion vectors, two buckets
SELECT paimon_create_table('wdv', 'db', 'accounts', 'id BIGINT, owner STRING, balance INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "2", "deletion-vectors.enabled": "true"}', foreign_table => 'accounts');
INSERT INTO accounts SELECT g, 'o' || g, g * 10 FROM generate_series(1, 20) g;
SELECT count(*), sum(balance) FROM accounts;
SELECT * FROM dv_snapshots(:'wh' || '/db.db/accounts');
EXPLAIN (COSTS OFF) SELECT * FROM accounts;
UPDATE accounts SET balance = balance + 1 WHERE id <= 5;
SELECT * FROM accounts WHERE id <= 6 ORDER BY id;
DELETE FROM accounts WHERE id BETWEEN 18 AND 20;
SELECT * FROM accounts ORDER BY id;
-- the rows of ids 1-5 and 18-20 written before are deleted by deletion vectors
EXPLAIN (COSTS OFF) SELECT * FROM accounts;
SELECT * FROM dv_snapshots(:'wh' || '/db.db/accounts');
-- INSERT is an upsert; several statements of a transaction: one APPEND, one COMPACT
BEGIN;
INSERT INTO accounts VALUES (3, 'again', 0), (21, 'new', 210);
UPDATE accounts SET owner = upper(owner) WHERE id IN (1, 21);
DELETE FROM accounts WHERE id = 2;
COMMIT;
SELECT * FROM accounts WHERE id <= 5 OR id > 17 ORDER BY id;
SELECT * FROM dv_snapshots(:'wh' || '/db.db/accounts') WHERE id > 6;
-- ROLLBACK: no snapshot
BEGIN;
DELETE FROM accounts;
ROLLBACK;
SELECT count(*) FROM accounts;
SELECT max(id) FROM dv_snapshots(:'wh' || '/db.db/accounts');

-- partial-update with deletion vectors: the older row's columns are merged in
SELECT paimon_create_table('wdv', 'db', 'profile', 'id INT, name STRING, city STRING, visits INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "deletion-vectors.enabled": "true", "merge-engine": "partial-update"}',
  foreign_table => 'profile');
INSERT INTO profile (id, name) VALUES (1, 'ann'), (2, 'bob');
INSERT INTO profile (id, city) VALUES (1, 'oslo'), (3, 'rome');
INSERT INTO profile (id, visits) VALUES (1, 7), (2, 1);
SELECT * FROM profile ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM profile;

-- first-row: the first row of a key wins, within a statement and across commits
SELECT paimon_create_table('wdv', 'db', 'events', 'id INT, what STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "merge-engine": "first-row"}',
  foreign_table => 'events');
INSERT INTO events VALUES (1, 'a'), (2, 'b'), (1, 'a again');
INSERT INTO events VALUES (2, 'b again'), (3, 'c');
SELECT * FROM events ORDER BY id;
SELECT * FROM dv_snapshots(:'wh' || '/db.db/events');
-- first-row keeps no later version: UPDATE and DELETE are refused (0A000)
\set VERBOSITY sqlstate
UPDATE events SET what = 'x' WHERE id = 1;
DELETE FROM events WHERE id = 1;
\set VERBOSITY default

-- Java refuses first-row with deletion vectors
SELECT paimon_create_table('wdv', 'db', 'fr_dv', 'id INT, v INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "first-row", "deletion-vectors.enabled": "true"}',
  foreign_table => 'fr_dv');
INSERT INTO fr_dv VALUES (1, 1);

DROP SERVER wdv CASCADE;
DROP FUNCTION dv_snapshots(text);
