-- Per-execution work of point lookups with run-time keys: a nested loop's
-- rescans compile no JIT module each (the run-time values are evaluated
-- without the scan as parent), and a prepared lookup with constant quals
-- besides the key reuses the table cache's planned file list instead of
-- planning its own at each execution (no metadata read once warm).
\set SHOW_CONTEXT never
-- (the lookup joins, not the key join of key_join.sql)
SET paimon_fdw.enable_key_join = off;
CREATE SCHEMA lr;
SELECT current_setting('data_directory') || '/paimon_lookup_rescan_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER lrw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('lrw', 'db');
SELECT paimon_create_table('lrw', 'db', 't', 'id BIGINT, status STRING, v INT',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'lr.t');
INSERT INTO lr.t SELECT g, CASE WHEN g % 2 = 0 THEN 'x' ELSE 'y' END, g * 10
  FROM generate_series(1, 100) g;
INSERT INTO lr.t VALUES (2, 'x', -2), (3, 'x', -3);
CREATE TABLE lr.outer5 (k bigint);
INSERT INTO lr.outer5 VALUES (2), (3), (4), (5), (1000);
CREATE TABLE lr.outer1 (k bigint);
INSERT INTO lr.outer1 VALUES (2);
ANALYZE lr.outer5, lr.outer1;

-- JIT functions of a forced nested loop: the same for 1 and 5 outer rows
CREATE FUNCTION lr.jit_functions(q text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF) ' || q INTO plan;
  RETURN (plan->0->'JIT'->>'Functions')::int;
END $$;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SET jit = on;
SET jit_above_cost = 0;
SET jit_inline_above_cost = -1;
SET jit_optimize_above_cost = -1;
SELECT o.k, t.* FROM lr.outer5 o JOIN lr.t t ON t.id = o.k ORDER BY o.k;
SELECT lr.jit_functions('SELECT * FROM lr.outer1 o JOIN lr.t t ON t.id = o.k') AS one,
       lr.jit_functions('SELECT * FROM lr.outer5 o JOIN lr.t t ON t.id = o.k') AS five
  \gset
SELECT :one > 0 AS jit_ran, :five = :one AS no_module_per_rescan;
RESET jit;
RESET jit_above_cost;
RESET jit_inline_above_cost;
RESET jit_optimize_above_cost;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- a prepared lookup with a constant qual besides the key: once the table
-- cache holds the version, an execution reads no metadata
CREATE FUNCTION lr.meta_reads(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ' || q LOOP
    IF line ~ 'Metadata Cache' THEN
      RETURN btrim(line);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
SET plan_cache_mode = force_generic_plan;
PREPARE get_st(bigint) AS SELECT * FROM lr.t WHERE id = $1 AND status = 'x';
EXECUTE get_st(2);
EXECUTE get_st(3);
EXECUTE get_st(5);
EXECUTE get_st(4);
PREPARE get(bigint) AS SELECT * FROM lr.t WHERE id = $1;
EXECUTE get_st(6);
EXECUTE get(6);
-- (the lookup's own reads only, as many as without the status qual; before,
-- the file list planned again: twice as many)
SELECT lr.meta_reads('EXECUTE get(6)') AS key_only,
       lr.meta_reads('EXECUTE get_st(6)') AS key_and_status \gset
SELECT :'key_only' ~ 'hits' AS counted, :'key_and_status' = :'key_only' AS no_plan_per_execution;
-- the plan keeps honouring the constant qual
EXECUTE get_st(8);
EXECUTE get_st(9);
DEALLOCATE get_st;
DEALLOCATE get;
RESET plan_cache_mode;

COPY (SELECT 1) TO PROGRAM :'rm_wh';
DROP SERVER lrw CASCADE;
DROP SCHEMA lr CASCADE;
