-- Parallel scans share data files by Parquet row group / ORC stripe: files
-- of at least paimon_fdw.parallel_split_size are one unit of work per part,
-- so even a single file is read by several processes. Every query returns
-- the same rows with 2 workers as without (par_same), for append tables
-- (Parquet, ORC), a deletion-vector table read raw and a primary-key table
-- merged on read (its bucket cut by key range, see parallel_pk), with WHERE clauses that
-- prune row groups, and without the leader taking part. Tables written at
-- test time by Java Paimon with small row groups
-- (test/oracle/pushdown/make_tables.py): 3000 rows, one data file each
-- (30 row groups, 3 stripes).
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
\set wh `pwd`/results/parallel_parts_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/parallel_parts_wh rg_parquet rg_orc rg_pk rg_mor`
SELECT :'out' AS make_tables;
CREATE SERVER ppw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SCHEMA pp;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER ppw INTO pp;

-- rows are compared, not aggregates computed on batches
SET paimon_fdw.enable_aggregate_pushdown = off;
SET paimon_fdw.enable_topn_pushdown = off;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET paimon_fdw.parallel_split_size = '1kB';

\i sql/include/par_same.sql

SET max_parallel_workers_per_gather = 2;
-- one data file, two workers planned
EXPLAIN (COSTS OFF) SELECT id, s FROM pp.rg_parquet;
SELECT q, par_same(q) FROM (VALUES
  ('SELECT * FROM pp.rg_parquet'),
  ('SELECT * FROM pp.rg_orc'),
  ('SELECT * FROM pp.rg_pk'),
  ('SELECT * FROM pp.rg_mor'),
  ('SELECT id, x FROM pp.rg_parquet WHERE id BETWEEN 950 AND 2049'),
  ('SELECT id, n FROM pp.rg_orc WHERE n IS NULL'),
  ('SELECT id FROM pp.rg_pk WHERE id >= 2900 OR id < 5'),
  ('SELECT count(*), sum(id), sum(n) FROM pp.rg_parquet')
) v(q);
SET parallel_leader_participation = off;
SELECT par_same('SELECT * FROM pp.rg_parquet');
SELECT par_same('SELECT * FROM pp.rg_orc');
RESET parallel_leader_participation;
-- whole files only (the default size is far above these files): same rows
SET paimon_fdw.parallel_split_size = 0;
SELECT par_same('SELECT * FROM pp.rg_parquet');
RESET paimon_fdw.parallel_split_size;
SELECT par_same('SELECT * FROM pp.rg_parquet');
SELECT sum(id), count(*) FROM pp.rg_parquet;

RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET paimon_fdw.enable_aggregate_pushdown;
RESET paimon_fdw.enable_topn_pushdown;
SET client_min_messages = warning;
DROP SCHEMA pp CASCADE;
DROP SERVER ppw;
DROP FUNCTION par_same(text);
