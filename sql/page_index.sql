-- Page pruning inside Parquet row groups: the ColumnIndex (per page
-- min/max/null count) and OffsetIndex (where pages lie, their first rows)
-- that Java's parquet-mr writes narrow a row group to row ranges; only
-- the pages of the columns read that overlap them are read. EXPLAIN
-- ANALYZE counts them ("Pages: N of M read (K pruned by page index)");
-- every query returns the same rows with paimon_fdw.enable_page_index on
-- and off (pg_same). Table written at test time by Java Paimon
-- (test/oracle/pushdown/make_tables.py, pg_parquet): one row group of
-- 20000 rows in pages of about 1 KiB, id in order.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
\set wh `pwd`/results/page_index_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/page_index_wh pg_parquet`
SELECT :'out' AS make_tables;
CREATE SERVER pgw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SCHEMA pg;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER pgw INTO pg;

-- The rows of query q (count and a digest) with page pruning on, or
-- DIFFERENT when it is off (and when row groups are not pruned either).
CREATE FUNCTION pg_same(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  wrap text := 'SELECT count(*) || '' rows '' || coalesce(md5(string_agg(t::text, '','' ORDER BY t::text)), '''') FROM (' || q || ') t';
  a text;
  b text;
  c text;
BEGIN
  PERFORM set_config('paimon_fdw.enable_page_index', 'on', true);
  EXECUTE wrap INTO a;
  PERFORM set_config('paimon_fdw.enable_page_index', 'off', true);
  EXECUTE wrap INTO b;
  PERFORM set_config('paimon_fdw.enable_row_group_pruning', 'off', true);
  PERFORM set_config('paimon_fdw.enable_page_index', 'on', true);
  EXECUTE wrap INTO c;
  PERFORM set_config('paimon_fdw.enable_row_group_pruning', 'on', true);
  RETURN CASE WHEN a = b AND a = c THEN split_part(a, ' ', 1) || ' rows, same'
         ELSE 'DIFFERENT: ' || a || ' vs ' || b || ' vs ' || c END;
END $$;

-- The "Row Groups" / "Pages" lines of EXPLAIN ANALYZE for query q.
CREATE FUNCTION pg_parts(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ '(Row Groups|Pages|Data Files):' THEN
      RETURN NEXT trim(line);
    END IF;
  END LOOP;
END $$;

-- no filter: no page index read
SELECT pg_parts('SELECT * FROM pg.pg_parquet');
SELECT pg_same('SELECT * FROM pg.pg_parquet');

-- a 1% range of the sorted column: a few pages of each column
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE id BETWEEN 10000 AND 10199');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE id BETWEEN 10000 AND 10199');
SELECT min(id), max(id), count(*), count(n), min(s), max(s) FROM pg.pg_parquet WHERE id BETWEEN 10000 AND 10199;
-- one row; the first and the last rows of the row group
SELECT * FROM pg.pg_parquet WHERE id = 5;
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE id = 5');
SELECT * FROM pg.pg_parquet WHERE id = 0 OR id = 19999 ORDER BY id;
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE id = 0 OR id = 19999');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE id >= 19990');
-- two ranges far apart (OR), ranges of two columns (AND)
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE id < 50 OR id BETWEEN 15000 AND 15049');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE id < 50 OR id BETWEEN 15000 AND 15049');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE id BETWEEN 100 AND 5000 AND s >= ''k04990''');
-- strings (C collation: byte ranges) and IN lists
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE s = ''k12345''');
SELECT * FROM pg.pg_parquet WHERE s = 'k12345';
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE s IN (''k00007'', ''k07000'', ''k19999'')');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE s LIKE ''k1999%''');
-- nulls: every page of n has some, so IS NULL prunes nothing; IS NOT NULL with a range does
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE n IS NULL');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE n IS NOT NULL AND n < 100');
SELECT count(*) FROM pg.pg_parquet WHERE n IS NOT NULL AND n < 100;
-- a bitmap index's rows (file-index row selection): every page of cat spans
-- "rare", only the bitmap knows where its 20 rows are; with the file index
-- off no page is skipped
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE cat = ''rare''');
SELECT id, cat FROM pg.pg_parquet WHERE cat = 'rare' ORDER BY id;
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE cat = ''rare''');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE cat = ''rare'' OR id = 7');
SET paimon_fdw.enable_file_index = off;
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE cat = ''rare''');
SELECT count(*) FROM pg.pg_parquet WHERE cat = 'rare';
RESET paimon_fdw.enable_file_index;
-- every other row: the bitmap's rows are one range, nothing skipped
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE cat = ''a''');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE cat = ''a''');
-- the unsorted column: its pages span every value, nothing pruned
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE u = 777');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE u = 777');
-- late materialization: the filter's columns are decoded first, the others only
-- for the rows it keeps (no Pages line: the unsorted column prunes no page)
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE u BETWEEN 100 AND 120');
SELECT id, u, s FROM pg.pg_parquet WHERE u IN (3, 19999) ORDER BY id;
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE u < 5 OR n IS NULL AND u > 19990');
SELECT pg_same('SELECT s, n FROM pg.pg_parquet WHERE u % 1000 = 7 AND u >= 19000');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE s > ''k19990'' AND cat <> ''a''');
SELECT pg_same('SELECT count(*), max(s) FROM pg.pg_parquet WHERE u > 19900');
-- nothing matches: no page read
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE id < 0');
SELECT pg_same('SELECT * FROM pg.pg_parquet WHERE id < 0');
-- a projection of another column than the filtered one; aggregates on batches
SELECT pg_same('SELECT u FROM pg.pg_parquet WHERE id BETWEEN 7000 AND 7100');
SELECT count(*), sum(u), min(s) FROM pg.pg_parquet WHERE id BETWEEN 7000 AND 7100;
SELECT pg_same('SELECT count(*), sum(u) FROM pg.pg_parquet WHERE id BETWEEN 7000 AND 7100');
-- run-time values (a generic plan's parameter)
SET plan_cache_mode = force_generic_plan;
PREPARE q(int) AS SELECT count(*), min(id), max(id) FROM pg.pg_parquet WHERE id BETWEEN $1 AND $1 + 99;
EXECUTE q(12000);
EXECUTE q(19950);
RESET plan_cache_mode;

-- off: the page index is not read, no "Pages" line
SET paimon_fdw.enable_page_index = off;
SELECT pg_parts('SELECT * FROM pg.pg_parquet WHERE id BETWEEN 10000 AND 10199');
RESET paimon_fdw.enable_page_index;

DROP SCHEMA pg CASCADE;
DROP SERVER pgw CASCADE;
