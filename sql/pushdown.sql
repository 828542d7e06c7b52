-- Predicate pushdown must never lose rows: literal conversion (exact, or the
-- comparison decided), floating-point order as Postgres has it (NaN above
-- everything, -0 = 0), only the column type's own btree operators, collation
-- rules, and row estimates that count each qual once.
-- The tables are written at test time by Java Paimon (test/oracle/pushdown/).
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
\set wh `pwd`/results/pushdown_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/pushdown_wh`
SELECT :'out' AS make_tables;
CREATE SERVER pdw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SCHEMA pd;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER pdw INTO pd;

-- item 1: literals rescaled to DECIMAL(38,30) overflowed int128; out of range
-- decides the comparison instead
SELECT count(*) FROM pd.dec;
SELECT count(*) FROM pd.dec WHERE d < 1000000000;
SELECT count(*) FROM pd.dec WHERE d > -1000000000;
SELECT count(*) FROM pd.dec WHERE d <= 100000000000000000000000000000000000000000;
SELECT count(*) FROM pd.dec WHERE d < 'Infinity' AND d > '-Infinity' AND d < 'NaN';
SELECT count(*) FROM pd.dec WHERE d > 1e9 OR d = 1e9 OR d >= 'Infinity';
SELECT count(*) FROM pd.dec WHERE d <> 1e40;
SELECT count(*) FROM pd.dec WHERE d IN (3, 1e40, 3.0000000000000000000000000000001);
-- more digits than the column's scale: the comparison at the column's scale
SELECT count(*) FROM pd.dec WHERE m < 1.255;
SELECT count(*) FROM pd.dec WHERE m <= 1.254;
SELECT count(*) FROM pd.dec WHERE m > 13.749;
SELECT count(*) FROM pd.dec WHERE m >= 13.751;
SELECT count(*) FROM pd.dec WHERE m = 1.251;
SELECT count(*) FROM pd.dec WHERE m <> 1.251;
SELECT count(*) FROM pd.dec WHERE m > -1.5;
-- and they still prune (the second file holds m = 1.00)
EXPLAIN (COSTS OFF) SELECT * FROM pd.dec WHERE m > 13.749;
EXPLAIN (COSTS OFF) SELECT * FROM pd.dec WHERE d > 1e9;
-- integer literals beyond the column's type
SELECT count(*) FROM pd.dec WHERE t < 100000 AND s > -100000;
SELECT count(*) FROM pd.dec WHERE t = 300;
SELECT count(*) FROM pd.dec WHERE b > -9223372036854775808 AND i < 9223372036854775807;
-- a numeric or float constant against an integer column casts the column: not pushed
SELECT count(*) FROM pd.dec WHERE i < 100.5 AND b < 1e30;
SELECT count(*) FROM pd.dec WHERE s >= 2.5::float8;
EXPLAIN (COSTS OFF) SELECT * FROM pd.dec WHERE i < 100.5;
-- TIMESTAMP(9): Postgres sees the value truncated to microseconds
SELECT id, ts FROM pd.dec WHERE ts = '2021-06-01 12:00:00';
SELECT id FROM pd.dec WHERE ts <= '2021-06-01 12:00:00' AND ts > '2021-01-01';
SELECT id FROM pd.dec WHERE ts IN ('2021-06-01 12:00:00', '2000-01-01');
-- timestamp and date literals at the ends of Postgres' range
SELECT count(*) FROM pd.dec WHERE ts6 < '294276-12-31 23:59:59';
SELECT count(*) FROM pd.dec WHERE ts6 > '4713-01-01 00:00:00 BC';
SELECT count(*) FROM pd.dec WHERE ts6 <= '2021-06-01 12:00:00.000001' AND ts6 >= '2021-06-01 12:00:00.000001';
SELECT count(*) FROM pd.dec WHERE ts < 'infinity' AND dt < 'infinity' AND dt > '-infinity';
SELECT count(*) FROM pd.dec WHERE ts > 'infinity' OR dt < '-infinity';

-- item 4: NaN is above every float, -0 = 0 (Parquet and ORC statistics leave
-- NaN out of max; file 1 holds 0.05, NaN, -1, -0, -Infinity, NULL)
SELECT id, x, y FROM pd.fl_parquet WHERE x > 0.1 ORDER BY id;
SELECT id, x, y FROM pd.fl_parquet WHERE y > 0.1 ORDER BY id;
SELECT id, x, y FROM pd.fl_orc WHERE x > 0.1 ORDER BY id;
SELECT id, x, y FROM pd.fl_orc WHERE y > 0.1::real ORDER BY id;
SELECT id, x, y FROM pd.fl_avro WHERE x > 0.1 ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x > 0.1 OR id = 100 ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x >= 'Infinity' ORDER BY id;
SELECT id FROM pd.fl_orc WHERE y >= 'Infinity' ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x <> 0.05 ORDER BY id;
SELECT id FROM pd.fl_orc WHERE x <> 0.05 ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x = 0 ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x = '-0' ORDER BY id;
SELECT id FROM pd.fl_orc WHERE y = '-0' ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x < 0 ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x = 'NaN' ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x > 'NaN' OR x < '-Infinity' ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x IS NULL ORDER BY id;
SELECT id FROM pd.fl_parquet WHERE x IN (0.5, 'NaN') ORDER BY id;
-- equality on a bucket key: -0 = 0 and nanoseconds below the microsecond
-- hash to other buckets than the literal
SELECT id, x, ts FROM pd.bk WHERE x = 0 AND ts = '2021-06-01 12:00:00' ORDER BY id;
SELECT id, x, ts FROM pd.bk WHERE x = '-0' AND ts = '2021-06-01 12:00:00' ORDER BY id;
SELECT id FROM pd.bk WHERE x = 1.5 AND ts = '2021-06-01 12:00:00';
SELECT id FROM pd.bk WHERE x IN (-2.5) AND ts IN ('2021-06-01 12:00:00');
SELECT id, x FROM pd.bkf WHERE x = 0 ORDER BY id;
SELECT id, x FROM pd.bkf WHERE x IN ('-0') ORDER BY id;

-- item 5: a user-defined operator named "=" is not the column type's
-- equality: it must not drive pruning (this one compares modulo 10)
CREATE SCHEMA udo;
CREATE FUNCTION udo.eq_mod10(a int, b int) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN a % 10 OPERATOR(pg_catalog.=) b % 10; END $$;
CREATE OPERATOR udo.= (LEFTARG = int, RIGHTARG = int, FUNCTION = udo.eq_mod10);
CREATE FUNCTION udo.lt_rev(a int, b int) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN a OPERATOR(pg_catalog.>) b; END $$;
CREATE OPERATOR udo.< (LEFTARG = int, RIGHTARG = int, FUNCTION = udo.lt_rev);
SELECT count(*) FROM pd.parts WHERE p OPERATOR(udo.=) 11;
SELECT count(*) FROM pd.parts WHERE v OPERATOR(udo.<) 50;
SET search_path = udo, public, pg_catalog;
SELECT count(*) FROM pd.parts WHERE p = 11;
RESET search_path;
SELECT count(*) FROM pd.parts WHERE p = 11;
-- equality under a nondeterministic collation is not byte equality
CREATE COLLATION udo.ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT count(*) FROM pd.parts WHERE name = 'ALICE' COLLATE udo.ci;
SELECT count(*) FROM pd.parts WHERE name COLLATE udo.ci IN ('ALICE', 'A');
SELECT count(*) FROM pd.parts WHERE name <> 'ALICE' COLLATE udo.ci;
-- and ranges of text only under the C collation
EXPLAIN (COSTS OFF) SELECT * FROM pd.parts WHERE name >= 'b' COLLATE udo.ci;
SELECT count(*) FROM pd.parts WHERE name >= 'b' COLLATE udo.ci;
-- the built-in operators still prune
EXPLAIN (COSTS OFF) SELECT * FROM pd.parts WHERE p = 1 AND name = 'Alice';

-- item 12: the row estimate applies each qual's selectivity once, never above
-- the rows kept; quals pushed with constants are estimated from the kept
-- files' statistics (estimate.c): p >= 2 keeps one partition of two (60 of
-- 120 rows), every v is >= 0 (120), p = 1 AND v >= 0 (60)
CREATE FUNCTION pd.plan_rows(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
  RETURN (j -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
SELECT pd.plan_rows('SELECT * FROM pd.parts');
SELECT pd.plan_rows('SELECT * FROM pd.parts WHERE p >= 2');
SELECT pd.plan_rows('SELECT * FROM pd.parts WHERE p >= 3');
SELECT pd.plan_rows('SELECT * FROM pd.parts WHERE v >= 0');
SELECT pd.plan_rows('SELECT * FROM pd.parts WHERE p = 1 AND v >= 0');
SELECT count(*) FILTER (WHERE p >= 2) AS p_ge_2, count(*) FILTER (WHERE v >= 0) AS v_ge_0,
       count(*) FILTER (WHERE p = 1 AND v >= 0) AS p1_v_ge_0 FROM pd.parts;
-- a user-defined operator prunes nothing: the default 1/2 of 120 rows
SELECT pd.plan_rows('SELECT * FROM pd.parts WHERE p OPERATOR(udo.<) 2');

DROP SCHEMA udo CASCADE;
DROP SCHEMA pd CASCADE;
DROP SERVER pdw CASCADE;
