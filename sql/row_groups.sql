-- Statistics pruning inside data files: Parquet row groups (and ORC
-- stripes) whose statistics prove that no row matches are not read.
-- EXPLAIN ANALYZE counts them ("Row Groups: N of M read (K pruned by
-- statistics)"); every query returns the same rows with
-- paimon_fdw.enable_row_group_pruning on and off (rg_same). Tables written
-- at test time by Java Paimon with small row groups
-- (test/oracle/pushdown/make_tables.py, rg_*): 3000 rows, ids in order.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
\set wh `pwd`/results/row_groups_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/row_groups_wh rg_parquet rg_orc rg_pk rg_mor`
SELECT :'out' AS make_tables;
CREATE SERVER rgw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SCHEMA rg;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER rgw INTO rg;

-- The rows of query q (count and a digest) with pruning on, or DIFFERENT
-- when pruning off returns other rows.
CREATE FUNCTION rg_same(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  wrap text := 'SELECT count(*) || '' rows '' || coalesce(md5(string_agg(t::text, '','' ORDER BY t::text)), '''') FROM (' || q || ') t';
  a text;
  b text;
BEGIN
  PERFORM set_config('paimon_fdw.enable_row_group_pruning', 'on', true);
  EXECUTE wrap INTO a;
  PERFORM set_config('paimon_fdw.enable_row_group_pruning', 'off', true);
  EXECUTE wrap INTO b;
  PERFORM set_config('paimon_fdw.enable_row_group_pruning', 'on', true);
  RETURN CASE WHEN a = b THEN split_part(a, ' ', 1) || ' rows, same' ELSE 'DIFFERENT: ' || a || ' vs ' || b END;
END $$;

-- The "Row Groups" / "Stripes" lines of EXPLAIN ANALYZE for query q.
CREATE FUNCTION rg_parts(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ '(Row Groups|Stripes|Data Files):' THEN
      RETURN NEXT trim(line);
    END IF;
  END LOOP;
END $$;

-- no filter: nothing to prune by, no "Row Groups" line
SELECT rg_parts('SELECT * FROM rg.rg_parquet');
SELECT rg_same('SELECT * FROM rg.rg_parquet');

-- append table, Parquet: integers, strings, dates, timestamps, decimals
-- (INT64 and fixed bytes), OR and IN
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE id BETWEEN 1234 AND 1300');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE id BETWEEN 1234 AND 1300');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE s = ''k0042''');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE s = ''k0042''');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE g = 7 OR id IN (2999, 5000)');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE g = 7 OR id IN (2999, 5000)');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE dt = ''2021-01-05''');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE dt = ''2021-01-05''');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE ts < ''2021-01-01 00:01:00''');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE ts < ''2021-01-01 00:01:00''');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE d >= 2990');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE d >= 2990');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE m < 3');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE m < 3');
-- no row matches: nothing read
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE id < 0');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE id < 0');

-- floats: NaN (ids 999, 1999, 2999) is above every number, so "x > c"
-- never prunes; "x < c" does
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE x < 10');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE x < 10');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE x > 1400');
SELECT id, x FROM rg.rg_parquet WHERE x > 1400 AND id < 2810 ORDER BY id;
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE x > 1400');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE x = ''NaN''');
-- The file's bounds of x leave out every row group holding a NaN: Java
-- Paimon merges the row groups' statistics as parquet-mr reads them back,
-- and parquet-mr drops a row group's min/max when one is NaN (its writer
-- orders NaN last, so those row groups have max NaN). The manifest says
-- max 1449.5 though ids 2900..2998 hold x up to 1499, so a Parquet or ORC
-- file is never pruned by the bounds of a float column: x = 1478 finds id
-- 2956 (Java's own reader skips the file). Row groups with max NaN are read.
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE x = 1478');
SELECT id, x FROM rg.rg_parquet WHERE x = 1478;
SELECT id, x FROM rg.rg_parquet WHERE x IN (1478, 1498.5) OR x < 0 ORDER BY id;

-- nulls: n is NULL for ids 1000..1999 (all-null row groups)
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE n IS NULL');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE n IS NULL');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE n IS NOT NULL');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE n IS NOT NULL');
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE n > 1500 AND n < 2050');
SELECT rg_same('SELECT * FROM rg.rg_parquet WHERE n > 1500 AND n < 2050');

-- the filter's column is not among the selected ones
SELECT rg_same('SELECT s FROM rg.rg_parquet WHERE id >= 2950');

-- with the setting off every row group is read
SET paimon_fdw.enable_row_group_pruning = off;
SELECT rg_parts('SELECT * FROM rg.rg_parquet WHERE id BETWEEN 1234 AND 1300');
RESET paimon_fdw.enable_row_group_pruning;

-- ORC: the same rows in small stripes (stripe statistics)
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE id BETWEEN 1234 AND 1300');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE id BETWEEN 1234 AND 1300');
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE s = ''k0042''');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE s = ''k0042''');
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE n IS NULL');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE n IS NULL');
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE n IS NOT NULL');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE n IS NOT NULL');
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE x > 1400');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE x > 1400');
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE x < 10');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE x < 10');
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE d >= 2990 OR dt = ''2021-01-02''');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE d >= 2990 OR dt = ''2021-01-02''');
-- timestamps: ORC statistics are not used (writer zones, legacy encodings)
SELECT rg_parts('SELECT * FROM rg.rg_orc WHERE ts < ''2021-01-01 00:01:00''');
SELECT rg_same('SELECT * FROM rg.rg_orc WHERE ts < ''2021-01-01 00:01:00''');

-- primary key with deletion vectors, fully compacted: the file is read
-- without a merge, so value columns prune too (x = -1, n = -1 for the
-- updated ids 0..299)
SELECT rg_parts('SELECT * FROM rg.rg_pk WHERE x = -1');
SELECT rg_same('SELECT * FROM rg.rg_pk WHERE x = -1');
SELECT rg_same('SELECT * FROM rg.rg_pk WHERE n = 5');
SELECT rg_parts('SELECT * FROM rg.rg_pk WHERE id >= 2900');
SELECT rg_same('SELECT * FROM rg.rg_pk WHERE id >= 2900');

-- primary key merged on read: only the key prunes inside the files; an
-- old version's value (x = 0.5 for id 1, since updated to -1) must not
-- come back and the new ones must all be found
SELECT rg_parts('SELECT * FROM rg.rg_mor WHERE id >= 2900');
SELECT rg_same('SELECT * FROM rg.rg_mor WHERE id >= 2900');
SELECT rg_parts('SELECT * FROM rg.rg_mor WHERE x = -1');
SELECT rg_same('SELECT * FROM rg.rg_mor WHERE x = -1');
SELECT count(*) FROM rg.rg_mor WHERE x = 0.5;
SELECT count(*) FROM rg.rg_mor WHERE n = -1 AND id < 300;

DROP SCHEMA rg CASCADE;
DROP SERVER rgw CASCADE;
