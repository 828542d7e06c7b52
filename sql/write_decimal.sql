-- Writing DECIMAL(p,s) fields: every value reads back as the same numeric cast
-- to numeric(p,s) (rounded half away from zero to s digits), for short and
-- long numeric headers, values near the precision limit, negative weights and
-- rounding carries; values that overflow p digits after rounding, NaN and
-- infinity are refused with 22003 as numeric(p,s) refuses them.
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_decimal_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wdec FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wdec', 'db');
SELECT paimon_create_table('wdec', 'db', 'd',
  'id INT NOT NULL, d5_2 DECIMAL(5, 2), d10_0 DECIMAL(10, 0), d12_2 DECIMAL(12, 2),
   d18_4 DECIMAL(18, 4), d19_3 DECIMAL(19, 3), d38_10 DECIMAL(38, 10), d38_0 DECIMAL(38, 0),
   d3_3 DECIMAL(3, 3)');
-- columns of unconstrained numeric: the writer, not Postgres, rounds to the field's scale
CREATE FOREIGN TABLE d (id int, d5_2 numeric, d10_0 numeric, d12_2 numeric, d18_4 numeric,
  d19_3 numeric, d38_10 numeric, d38_0 numeric, d3_3 numeric) SERVER wdec
  OPTIONS (database 'db', table 'd');

-- the source values: hand-picked edge cases and pseudo-random ones of every magnitude
CREATE TABLE src (id int, v numeric);
INSERT INTO src VALUES
  (1, 0), (2, -0.0), (3, 0.005), (4, -0.005), (5, 0.00499999), (6, 999.994), (7, 999.995),
  (8, -999.995), (9, 0.0005), (10, 0.00049), (11, 1e-20), (12, 5e-11), (13, 4.9999e-11),
  (14, 9999999999.4), (15, 9999999999.5), (16, 12345.6789), (17, -12345.67895),
  (18, 1e10), (19, 99999999.995), (20, 0.9995), (21, 0.9994), (22, 1e-4), (23, 0.99951),
  (24, 123456789012345678.12345678), (25, -0.1), (26, 10000), (27, 9999.99995),
  (28, 0.000050000), (29, 5.5), (30, -5.5), (31, 1234567890123456789012345678.1234567890123),
  (32, 99999999999999999999999999999999999999), (33, 0.999), (34, 0.9995), (35, 1e37);
INSERT INTO src
  SELECT 100 + g, round((sin(g * 1.7) * 10 ^ (g % 40 - 15))::numeric, g % 23) FROM generate_series(1, 600) g;
-- a weight beyond the short header's range; compressed values (5000 digits)
INSERT INTO src VALUES (1000, ('0.' || repeat('0', 3000) || '1')::numeric),
  (1001, ('0.' || repeat('1', 5000))::numeric), (1002, ('-0.' || repeat('5', 5000))::numeric);
SELECT id, pg_column_compression(v) FROM src WHERE id > 1000 ORDER BY id;

-- one row per source value and column, or NULL where the value overflows that column
CREATE FUNCTION fits(v numeric, p int, s int) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN
  RETURN CASE p WHEN 5 THEN v::numeric(5, 2) WHEN 10 THEN v::numeric(10, 0)
    WHEN 12 THEN v::numeric(12, 2) WHEN 18 THEN v::numeric(18, 4) WHEN 19 THEN v::numeric(19, 3)
    WHEN 3 THEN v::numeric(3, 3) ELSE CASE s WHEN 10 THEN v::numeric(38, 10) ELSE v::numeric(38, 0) END END;
EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL;
END $$;
CREATE TABLE expected AS
  SELECT id, fits(v, 5, 2) AS d5_2, fits(v, 10, 0) AS d10_0, fits(v, 12, 2) AS d12_2,
         fits(v, 18, 4) AS d18_4, fits(v, 19, 3) AS d19_3, fits(v, 38, 10) AS d38_10,
         fits(v, 38, 0) AS d38_0, fits(v, 3, 3) AS d3_3
  FROM src;
-- the overflows are NULL in the source row written, so one INSERT writes every row
INSERT INTO d
  SELECT s.id,
         CASE WHEN e.d5_2 IS NULL THEN NULL ELSE s.v END, CASE WHEN e.d10_0 IS NULL THEN NULL ELSE s.v END,
         CASE WHEN e.d12_2 IS NULL THEN NULL ELSE s.v END, CASE WHEN e.d18_4 IS NULL THEN NULL ELSE s.v END,
         CASE WHEN e.d19_3 IS NULL THEN NULL ELSE s.v END, CASE WHEN e.d38_10 IS NULL THEN NULL ELSE s.v END,
         CASE WHEN e.d38_0 IS NULL THEN NULL ELSE s.v END, CASE WHEN e.d3_3 IS NULL THEN NULL ELSE s.v END
  FROM src s JOIN expected e USING (id);
SELECT count(*) AS rows_read, count(*) FILTER (WHERE d5_2 IS NOT NULL) AS d5_2_values,
       count(*) FILTER (WHERE d38_10 IS NOT NULL) AS d38_10_values FROM d;
-- every value equals the cast (IS DISTINCT FROM also compares NULLs)
SELECT e.id, e.d5_2, d.d5_2, e.d12_2, d.d12_2, e.d38_10, d.d38_10 FROM expected e JOIN d USING (id)
 WHERE (e.d5_2, e.d10_0, e.d12_2, e.d18_4, e.d19_3, e.d38_10, e.d38_0, e.d3_3)
       IS DISTINCT FROM (d.d5_2, d.d10_0, d.d12_2, d.d18_4, d.d19_3, d.d38_10, d.d38_0, d.d3_3);
-- a few of them, to see the rounding
SELECT id, d5_2, d10_0, d12_2, d18_4, d3_3 FROM d WHERE id < 36 ORDER BY id;

-- overflow after rounding, NaN and infinity: 22003
\set VERBOSITY sqlstate
INSERT INTO d (id, d5_2) VALUES (1, 999.995);
INSERT INTO d (id, d5_2) VALUES (1, -1000);
INSERT INTO d (id, d3_3) VALUES (1, 0.9995);
INSERT INTO d (id, d38_0) VALUES (1, 1e38);
INSERT INTO d (id, d12_2) VALUES (1, 'NaN');
INSERT INTO d (id, d12_2) VALUES (1, '-Infinity');
\set VERBOSITY default
INSERT INTO d (id, d5_2) VALUES (1, 999.995);
SELECT count(*) FROM d;

DROP TABLE src, expected;
DROP FUNCTION fits;
DROP SERVER wdec CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
