-- Parallel scans of primary-key tables cut a bucket into key ranges: a
-- merged bucket of more than 4 paimon_fdw.parallel_split_size units is cut
-- at values of the first key field (placed by the files' row group and page
-- statistics), and each range is merged by one process, so one bucket is
-- read by several. Every query returns the same rows with 2 workers as
-- without (par_same), also with WHERE clauses on the key and on values,
-- projections, and without the leader. EXPLAIN ANALYZE shows the ranges.
-- Table written at test time by Java Paimon (test/oracle/pushdown/
-- make_tables.py rg_mor): 1 bucket, 3000 rows in row groups of 100, then
-- ids 0..299 updated in a second commit: two overlapping sorted runs; and
-- rg_mor4, the same over 4 buckets. A merged bucket no more than 1.5 times
-- the planned workers' fair share of the merged bytes is not cut: the
-- participants share whole buckets.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
\set wh `pwd`/results/parallel_pk_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/parallel_pk_wh rg_mor rg_mor4`
SELECT :'out' AS make_tables;
CREATE SERVER ppk FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SCHEMA ppk;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER ppk INTO ppk;

SET paimon_fdw.enable_aggregate_pushdown = off;
SET paimon_fdw.enable_topn_pushdown = off;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET paimon_fdw.parallel_split_size = '1kB';

\i sql/include/par_same.sql

-- "Key Ranges: n" of EXPLAIN ANALYZE of q, as whether the bucket was cut
CREATE FUNCTION key_ranges(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l LIKE '%Key Ranges:%' THEN
      RETURN CASE WHEN split_part(l, ': ', 2)::int > 1 THEN 'cut' ELSE l END;
    END IF;
  END LOOP;
  RETURN 'not cut';
END $$;

SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT id, x FROM ppk.rg_mor;
SELECT key_ranges('SELECT id, x FROM ppk.rg_mor');
SELECT q, par_same(q) FROM (VALUES
  ('SELECT * FROM ppk.rg_mor'),
  ('SELECT id FROM ppk.rg_mor'),
  ('SELECT x, n FROM ppk.rg_mor'),
  ('SELECT * FROM ppk.rg_mor WHERE id BETWEEN 250 AND 1249'),
  ('SELECT id, x FROM ppk.rg_mor WHERE id >= 2900 OR id < 5'),
  ('SELECT id, n FROM ppk.rg_mor WHERE x = -1'),
  ('SELECT id, n FROM ppk.rg_mor WHERE n IS NULL')
) v(q);
SET parallel_leader_participation = off;
SELECT par_same('SELECT * FROM ppk.rg_mor');
-- the workers cut the bucket: shown though the leader read nothing
SELECT key_ranges('SELECT id, x FROM ppk.rg_mor');
RESET parallel_leader_participation;
-- whole buckets: not cut, same rows
SET paimon_fdw.parallel_split_size = 0;
SELECT key_ranges('SELECT id, x FROM ppk.rg_mor');
SELECT par_same('SELECT * FROM ppk.rg_mor');
RESET paimon_fdw.parallel_split_size;
-- Two buckets for two workers: each bucket is no more than 1.5 times the
-- workers' fair share, so the buckets are read whole (no key ranges), one per
-- process; same rows. A table written through the extension: 2 buckets, two
-- commits of overlapping keys (each bucket a merge of two runs).
SELECT current_setting('data_directory') || '/paimon_parallel_pk_test' AS wh2 \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh2' AS rm_wh2 \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh2';
CREATE SERVER ppk2 FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh2');
SELECT paimon_create_database('ppk2', 'db');
SELECT paimon_create_table('ppk2', 'db', 'two', 'id BIGINT, x INT, s STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'ppk.two');
INSERT INTO ppk.two SELECT i, i % 7, 'v' || i FROM generate_series(1, 4000) i;
INSERT INTO ppk.two SELECT i, -1, 'w' || i FROM generate_series(1, 4000, 3) i;
SET paimon_fdw.parallel_split_size = '1kB';
SELECT key_ranges('SELECT id, x FROM ppk.two');
SELECT par_same('SELECT * FROM ppk.two');
-- one worker: two buckets are more than enough
SET max_parallel_workers_per_gather = 1;
SELECT key_ranges('SELECT id, x FROM ppk.two');
SELECT par_same('SELECT * FROM ppk.two');
SET max_parallel_workers_per_gather = 2;
RESET paimon_fdw.parallel_split_size;
SELECT count(*), sum(id), count(*) FILTER (WHERE x = -1) AS updated FROM ppk.two;

-- the rows themselves: ids 0..299 take the second commit's values
SELECT count(*), count(DISTINCT id), sum(id), sum(x) FILTER (WHERE x = -1) AS updated
FROM ppk.rg_mor;

-- 4 merged buckets, 2 workers: not cut, same rows
SET paimon_fdw.parallel_split_size = '1kB';
EXPLAIN (COSTS OFF) SELECT id, x FROM ppk.rg_mor4;
SELECT key_ranges('SELECT id, x FROM ppk.rg_mor4');
SELECT key_ranges('SELECT * FROM ppk.rg_mor4 WHERE id BETWEEN 250 AND 1249');
SELECT par_same('SELECT * FROM ppk.rg_mor4');
SELECT par_same('SELECT id, n FROM ppk.rg_mor4 WHERE x = -1');
SELECT count(*), count(DISTINCT id), sum(id), sum(x) FILTER (WHERE x = -1) AS updated
FROM ppk.rg_mor4;
-- the 1-bucket table, in the same settings: cut
SELECT key_ranges('SELECT id, x FROM ppk.rg_mor');
RESET paimon_fdw.parallel_split_size;

RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET paimon_fdw.enable_aggregate_pushdown;
RESET paimon_fdw.enable_topn_pushdown;
SET client_min_messages = warning;
DROP SCHEMA ppk CASCADE;
DROP SERVER ppk;
DROP SERVER ppk2;
DROP FUNCTION par_same(text);
DROP FUNCTION key_ranges(text);
