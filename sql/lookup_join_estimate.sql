-- Row estimates of joins on a Paimon table's primary key before ANALYZE:
-- a one-column primary key of an unpartitioned table counts as distinct
-- values (estimate.c's statistics hook), so a join of N outer rows on it is
-- estimated at about N rows (Postgres' default of 200 distinct values made
-- it N * rows / 200). Composite and partitioned keys keep the default; after
-- ANALYZE, Postgres' own statistics decide.
\set SHOW_CONTEXT never
CREATE SCHEMA lje;
SELECT current_setting('data_directory') || '/paimon_lookup_join_estimate_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER ljew FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('ljew', 'db');
SELECT paimon_create_table('ljew', 'db', 't', 'id BIGINT, v INT',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'lje.t');
INSERT INTO lje.t SELECT g, g FROM generate_series(1, 4000) g;
INSERT INTO lje.t VALUES (7, 7), (8, 8);	-- a second file: lookups merge
SELECT paimon_create_table('ljew', 'db', 'c', 'a BIGINT, b BIGINT, v INT',
  primary_key => ARRAY['a', 'b'], options => '{"bucket": "1"}', foreign_table => 'lje.c');
INSERT INTO lje.c SELECT g, g, g FROM generate_series(1, 4000) g;
SELECT paimon_create_table('ljew', 'db', 'p', 'dt STRING, id BIGINT, v INT',
  primary_key => ARRAY['dt', 'id'], partition_keys => ARRAY['dt'],
  options => '{"bucket": "1"}', foreign_table => 'lje.p');
INSERT INTO lje.p SELECT 'd' || (g % 2), g, g FROM generate_series(1, 4000) g;
CREATE TABLE lje.o10 AS SELECT g * 7::bigint AS k FROM generate_series(1, 10) g;
CREATE TABLE lje.o3000 AS SELECT g::bigint AS k FROM generate_series(1, 3000) g;
ANALYZE lje.o10, lje.o3000;

-- the planner's row estimate of a query's top plan node
CREATE FUNCTION lje.est(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
  RETURN (plan->0->'Plan'->>'Plan Rows')::float8;
END $$;

-- one-column key: about one row per outer row (was 10 * 4000 / 200 = 200)
SELECT lje.est('SELECT * FROM lje.o10 o JOIN lje.t t ON t.id = o.k') AS join10;
SELECT lje.est('SELECT * FROM lje.o3000 o JOIN lje.t t ON t.id = o.k') AS join3000;
-- and the key's values are distinct for GROUP BY (was 200 groups)
SELECT lje.est('SELECT id, count(*) FROM lje.t GROUP BY id') AS groups;
-- the joins' results, whatever plan they get, and as a nested loop of lookups
SELECT count(*), sum(t.v) FROM lje.o10 o JOIN lje.t t ON t.id = o.k;
SELECT count(*), sum(t.v) FROM lje.o3000 o JOIN lje.t t ON t.id = o.k;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT lje.est('SELECT * FROM lje.o10 o JOIN lje.t t ON t.id = o.k') AS join10_nl;
SELECT count(*), sum(t.v) FROM lje.o10 o JOIN lje.t t ON t.id = o.k;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- a composite key and a partitioned table's key: Postgres' default
SELECT lje.est('SELECT * FROM lje.o10 o JOIN lje.c c ON c.a = o.k') AS composite;
SELECT lje.est('SELECT * FROM lje.o10 o JOIN lje.p p ON p.id = o.k') AS partitioned;

-- after ANALYZE the sampled statistics decide (the same estimate here)
ANALYZE lje.t;
SELECT stadistinct FROM pg_statistic
  WHERE starelid = 'lje.t'::regclass AND staattnum = 1;
SELECT lje.est('SELECT * FROM lje.o10 o JOIN lje.t t ON t.id = o.k') AS join10_analyzed;
SELECT lje.est('SELECT * FROM lje.o10 o JOIN lje.t t ON t.v = o.k') AS join10_v;

DROP SCHEMA lje CASCADE;
DROP SERVER ljew;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
