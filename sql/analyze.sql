-- Planner estimates: before ANALYZE, from the files' row counts and value
-- statistics (min/max, null counts) of the pushed quals; ANALYZE samples rows
-- through the normal scan and fills pg_statistic, which the planner then uses
-- (also for joins with Postgres tables).
\set SHOW_CONTEXT never
SELECT current_setting('data_directory') || '/paimon_analyze_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER an FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('an', 'db');
CREATE SCHEMA an;
SELECT paimon_create_table('an', 'db', 't', 'id INT, grp INT, tag STRING, note STRING',
                           foreign_table => 'an.t');
-- four commits, four files of 2500 rows with ids 1..2500, 2501..5000, ...;
-- grp 0..9, tag one of 5 strings, note NULL in 1 row of 10
INSERT INTO an.t SELECT g, g % 10, 'tag-' || (g % 5), CASE WHEN g % 10 <> 0 THEN 'n' || g END
  FROM generate_series(1, 2500) g;
INSERT INTO an.t SELECT g, g % 10, 'tag-' || (g % 5), CASE WHEN g % 10 <> 0 THEN 'n' || g END
  FROM generate_series(2501, 5000) g;
INSERT INTO an.t SELECT g, g % 10, 'tag-' || (g % 5), CASE WHEN g % 10 <> 0 THEN 'n' || g END
  FROM generate_series(5001, 7500) g;
INSERT INTO an.t SELECT g, g % 10, 'tag-' || (g % 5), CASE WHEN g % 10 <> 0 THEN 'n' || g END
  FROM generate_series(7501, 10000) g;

-- The scan's estimated and actual rows for query q (its top plan node).
CREATE FUNCTION rows_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  plan json;
  est float8;
  act float8;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, SUMMARY OFF) ' || q INTO plan;
  est := (plan->0->'Plan'->>'Plan Rows')::float8;
  act := (plan->0->'Plan'->>'Actual Rows')::float8;
  RETURN format('estimated %s, actual %s: %s', est, act,
                CASE WHEN est BETWEEN act / 2 AND greatest(act * 2, 2) THEN 'within 2x'
                     ELSE 'OFF' END);
END $$;

SELECT reltuples FROM pg_class WHERE oid = 'an.t'::regclass;
-- before ANALYZE: from the metadata
SELECT rows_of('SELECT * FROM an.t');
SELECT rows_of('SELECT * FROM an.t WHERE id < 1000');
SELECT rows_of('SELECT * FROM an.t WHERE id >= 2000 AND id < 3000');
SELECT rows_of('SELECT * FROM an.t WHERE id BETWEEN 4001 AND 4100');
SELECT rows_of('SELECT * FROM an.t WHERE id = 42');
SELECT rows_of('SELECT * FROM an.t WHERE id IN (1, 5000, 9999)');
SELECT rows_of('SELECT * FROM an.t WHERE id > 20000');
SELECT rows_of('SELECT * FROM an.t WHERE grp = 3');
SELECT rows_of('SELECT * FROM an.t WHERE grp < 5 AND id <= 5000');
SELECT rows_of('SELECT * FROM an.t WHERE grp = 3 OR id < 100');
SELECT rows_of('SELECT * FROM an.t WHERE note IS NULL');
SELECT rows_of('SELECT * FROM an.t WHERE note IS NOT NULL');
SELECT rows_of('SELECT * FROM an.t WHERE tag >= ''tag-3''');
-- a qual that is not pushed: the metadata's estimate of the pushed one times
-- Postgres' default for the other (0.005 for an expression = constant, which
-- no statistics know: far off here, with or without ANALYZE)
SELECT rows_of('SELECT * FROM an.t WHERE id < 1000 AND length(tag) = 5');
-- an equality on a string: metadata knows only the range (Postgres' default)
SELECT rows_of('SELECT * FROM an.t WHERE tag = ''tag-1''');

-- ANALYZE: a sample of every row (10000 < 300 x default_statistics_target)
ANALYZE an.t;
SELECT reltuples, relpages > 0 AS has_pages FROM pg_class WHERE oid = 'an.t'::regclass;
SELECT attname, null_frac, n_distinct, most_common_vals
  FROM pg_stats WHERE schemaname = 'an' AND tablename = 't' ORDER BY attname;
SELECT (histogram_bounds::text::int[])[1] AS first, (histogram_bounds::text::int[])[101] AS last
  FROM pg_stats WHERE schemaname = 'an' AND tablename = 't' AND attname = 'id';
-- now Postgres' statistics: the string equality is right too
SELECT rows_of('SELECT * FROM an.t WHERE tag = ''tag-1''');
SELECT rows_of('SELECT * FROM an.t WHERE id < 1000');
SELECT rows_of('SELECT * FROM an.t WHERE note IS NULL');
-- a join with a Postgres table gets the foreign side's distinct values
CREATE TABLE an.local (tag text);
INSERT INTO an.local SELECT 'tag-' || (g % 50) FROM generate_series(1, 100) g;
ANALYZE an.local;
SELECT rows_of('SELECT * FROM an.local l JOIN an.t t ON t.tag = l.tag');
-- a verbose ANALYZE says what it read
ANALYZE VERBOSE an.t;

-- a sample smaller than the table: reservoir sampling
SET default_statistics_target = 10;
ANALYZE an.t;
SELECT reltuples FROM pg_class WHERE oid = 'an.t'::regclass;
SELECT attname, null_frac > 0.05 AND null_frac < 0.2 AS about_a_tenth,
       CASE WHEN n_distinct > 0 THEN n_distinct::text
            WHEN n_distinct BETWEEN -0.95 AND -0.85 THEN 'about -0.9' END AS n_distinct
  FROM pg_stats WHERE schemaname = 'an' AND tablename = 't' AND attname IN ('grp', 'note')
  ORDER BY attname;
RESET default_statistics_target;

-- a column with no Paimon field: ANALYZE fails as a scan would
CREATE FOREIGN TABLE an.bad (id int, nope int) SERVER an OPTIONS (database 'db', table 't');
ANALYZE an.bad;
DROP FOREIGN TABLE an.bad;

COPY (SELECT 1) TO PROGRAM :'rm_wh';
DROP SCHEMA an CASCADE;
DROP SERVER an CASCADE;
