-- Parallel scans share data files by Parquet row group / ORC stripe: files
-- of at least paimon_fdw.parallel_split_size are one unit of work per part,
-- so even a single file is read by several processes. Every query returns
-- the same rows with 2 workers as without (par_same), for append tables
-- (Parquet, ORC), a deletion-vector table read raw and a primary-key table
-- merged on read (its bucket cut by key range, see parallel_pk), with WHERE clauses that
-- prune row groups, and without the leader taking part. Tables written at
-- test time by Java Paimon with small row groups
-- (test/oracle/pushdown/make_tables.py): 3000 rows, one data file each
-- (30 row groups, 3 stripes); and pg_parquet, one row group of 20000 rows
-- in small pages with a bitmap index (see page_index.sql).
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
\set wh `pwd`/results/parallel_parts_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/parallel_parts_wh rg_parquet rg_orc rg_pk rg_mor pg_parquet`
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

-- EXPLAIN ANALYZE counts each part once over the participants: the row
-- groups, stripes and pages pruned or read are those of the plan without
-- workers (each pruned part is counted by the one that takes its number,
-- a row group read by the one that takes its first unit)
CREATE FUNCTION par_parts(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  a text := '';
  b text := '';
  l text;
  par bool := false;
BEGIN
  PERFORM set_config('max_parallel_workers_per_gather', '2', true);
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ '(Row Groups|Stripes|Pages):' THEN a := a || btrim(l) || '; '; END IF;
    IF l ~ 'Workers Launched: [1-9]' THEN par := true; END IF;
  END LOOP;
  PERFORM set_config('max_parallel_workers_per_gather', '0', true);
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ '(Row Groups|Stripes|Pages):' THEN b := b || btrim(l) || '; '; END IF;
  END LOOP;
  PERFORM set_config('max_parallel_workers_per_gather', '2', true);
  RETURN CASE WHEN NOT par THEN 'no workers' WHEN a = b THEN 'same: ' || b
    ELSE 'DIFFERENT: ' || a || ' vs ' || b END;
END $$;
SELECT q, par_parts(q) FROM (VALUES
  ('SELECT id, x FROM pp.rg_parquet WHERE id BETWEEN 950 AND 2049'),
  ('SELECT id, s FROM pp.pg_parquet WHERE id BETWEEN 3000 AND 3999'),
  ('SELECT id, s FROM pp.pg_parquet WHERE cat = ''rare'''),
  ('SELECT id, n FROM pp.rg_orc WHERE id >= 2500'),
  ('SELECT id FROM pp.rg_pk WHERE id >= 2900 OR id < 5')
) v(q);
SET parallel_leader_participation = off;
SELECT par_parts('SELECT id, x FROM pp.rg_parquet WHERE id BETWEEN 950 AND 2049');
RESET parallel_leader_participation;
-- whole files only (the default size is far above these files): same rows
SET paimon_fdw.parallel_split_size = 0;
SELECT par_same('SELECT * FROM pp.rg_parquet');
RESET paimon_fdw.parallel_split_size;
SELECT par_same('SELECT * FROM pp.rg_parquet');
SELECT sum(id), count(*) FROM pp.rg_parquet;


-- One Parquet file of ONE row group (written here: 2 kB pages, 256 MB row
-- groups): shared by units cut at the page boundaries of a column
-- inside the row group (64 kB each, at most one per 8192 rows), each
-- participant reading the pages of its units only. Same rows with filters
-- (page pruning, late materialization), deletion vectors (file positions),
-- aggregates computed per worker and top-N.
SELECT current_setting('data_directory') || '/paimon_parallel_parts_test' AS wh1 \gset
SELECT 'cat >/dev/null; rm -rf ' || :'wh1' AS rm_wh1 \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh1';
CREATE SERVER ppw1 FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh1');
SELECT paimon_create_database('ppw1', 'db');
SELECT paimon_create_table('ppw1', 'db', 'onerg', 'id INT, pad STRING',
  options => '{"parquet.block.size": "256mb", "parquet.page.size": "2kb", "deletion-vectors.enabled": "true"}',
  foreign_table => 'onerg');
INSERT INTO onerg SELECT g, 'pad ' || (g * 7919 % 100003) FROM generate_series(1, 100000) g;
CREATE SCHEMA pu;
SET paimon_fdw.parallel_split_size = '64kB';
IMPORT FOREIGN SCHEMA "db" FROM SERVER ppw1 INTO pu;
EXPLAIN (COSTS OFF) SELECT * FROM pu.onerg;
SELECT q, par_same(q) FROM (VALUES
  ('SELECT * FROM pu.onerg'),
  ('SELECT id, pad FROM pu.onerg WHERE id BETWEEN 12345 AND 67890'),
  ('SELECT id FROM pu.onerg WHERE pad = ''pad 4242'' OR id < 10'),
  ('SELECT pad FROM pu.onerg WHERE id >= 99990')
) v(q);
-- with timing, the workers' Read Time summed, beside the leader's own
CREATE FUNCTION par_read_time(q text) RETURNS TABLE (shape text, workers_match bool, parts_fit bool)
LANGUAGE plpgsql AS $$
DECLARE
  l text;
  launched text;
  n numeric[];
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ 'Workers Launched' THEN launched := substring(l from '([0-9]+)'); END IF;
    IF l ~ 'Workers Read Time:' THEN
      n := ARRAY(SELECT m[1]::numeric FROM regexp_matches(l, '([0-9]+(\.[0-9]+)?)', 'g') m);
      shape := regexp_replace(regexp_replace(btrim(l), '[0-9]+(\.[0-9]+)?', 'N', 'g'),
                              'in N workers?:', 'in N workers:');
      workers_match := n[2]::text = launched;
      parts_fit := n[3] + n[6] <= n[1] + 0.002 AND n[8] <= n[1] + 0.001;
      RETURN NEXT;
    END IF;
  END LOOP;
END $$;
SELECT * FROM par_read_time('SELECT id, pad FROM pu.onerg WHERE id BETWEEN 12345 AND 67890');
-- pages counted once though units of several participants share a row group
SELECT q, par_parts(q) FROM (VALUES
  ('SELECT id, pad FROM pu.onerg WHERE id BETWEEN 12345 AND 67890'),
  ('SELECT pad FROM pu.onerg WHERE id >= 99990')
) v(q);
DELETE FROM onerg WHERE id % 7 = 0 OR id BETWEEN 40000 AND 40100;
SELECT q, par_same(q) FROM (VALUES
  ('SELECT * FROM pu.onerg'),
  ('SELECT id, pad FROM pu.onerg WHERE id BETWEEN 39990 AND 50000')
) v(q);
SET paimon_fdw.enable_aggregate_pushdown = on;
SET paimon_fdw.enable_topn_pushdown = on;
SELECT q, par_same(q) FROM (VALUES
  ('SELECT count(*), sum(id), min(pad), max(id) FROM pu.onerg'),
  ('SELECT count(*), sum(id) FROM pu.onerg WHERE id > 30000'),
  ('SELECT id, pad FROM pu.onerg ORDER BY id DESC LIMIT 5')
) v(q);
SELECT count(*), sum(id) FROM pu.onerg;
RESET paimon_fdw.enable_aggregate_pushdown;
RESET paimon_fdw.enable_topn_pushdown;

-- A bitmap index leaves a few rows: the row groups / stripes without one
-- are skipped before their statistics ("without a selected row"), each
-- counted once over the participants too (written here: small row groups,
-- small stripes)
SELECT paimon_create_table('ppw1', 'db', 'bm_pq', 'id INT, cat STRING, pad STRING',
  options => '{"file.format": "parquet", "parquet.block.size": "16kb", "file-index.bitmap.columns": "cat"}',
  foreign_table => 'bm_pq');
SELECT paimon_create_table('ppw1', 'db', 'bm_orc', 'id INT, cat STRING, pad STRING',
  options => '{"file.format": "orc", "orc.stripe.size": "16384", "file-index.bitmap.columns": "cat"}',
  foreign_table => 'bm_orc');
INSERT INTO bm_pq SELECT g, CASE WHEN g IN (7, 12345, 23456) THEN 'rare' ELSE 'c' || (g % 3) END,
  md5(g::text) FROM generate_series(1, 30000) g;
INSERT INTO bm_orc SELECT * FROM bm_pq;
SET paimon_fdw.parallel_split_size = '1kB';
SELECT q, par_same(q), par_parts(q) FROM (VALUES
  ('SELECT id, pad FROM bm_pq WHERE cat = ''rare'''),
  ('SELECT id, pad FROM bm_orc WHERE cat = ''rare''')
) v(q);
DROP FOREIGN TABLE bm_pq, bm_orc;
RESET paimon_fdw.parallel_split_size;

RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET paimon_fdw.enable_aggregate_pushdown;
RESET paimon_fdw.enable_topn_pushdown;
SET client_min_messages = warning;
DROP SCHEMA pp CASCADE;
DROP FOREIGN TABLE onerg;
DROP SCHEMA pu CASCADE;
DROP SERVER ppw1;
COPY (SELECT 1) TO PROGRAM :'rm_wh1';
DROP SERVER ppw;
DROP FUNCTION par_same(text);
DROP FUNCTION par_parts(text);
DROP FUNCTION par_read_time(text);
