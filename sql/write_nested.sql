-- Writing nested columns (ROW, MAP, ARRAY of nested types, MULTISET) given
-- as jsonb in the encoding the read side produces, in Parquet, ORC and
-- Avro: what SELECT returns, INSERTed back, gives the same value; NULLs at
-- every level, empty arrays and maps, DECIMAL/TIMESTAMP/BYTES inside;
-- UPDATE of a primary-key table's nested column; bad values refused with
-- Postgres' SQLSTATEs.
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT current_setting('data_directory') || '/paimon_write_nested_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wn FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wn', 'db');

CREATE TABLE nested_src (id int, r jsonb, m jsonb, mi jsonb, ar jsonb, dx jsonb, ai int[]);
INSERT INTO nested_src VALUES
  (1, '{"a": 1, "b": "x"}', '[["k1", 1], ["k2", null]]', '[[1, ["a", null]], [2, []]]',
   '[{"a": 1, "b": "one"}, null, {"a": null, "b": null}]',
   '{"d": "12.50", "ts": "2026-12-01T10:11:12.123", "tz": "2026-12-01T10:11:12.123456Z", "bin": "00ff10", "dt": "2026-12-01", "f": 1.5, "dd": "NaN", "bo": true}',
   '{1,NULL,3}'),
  (2, '{"a": null, "b": null}', '[]', '[[3, null]]', '[]',
   '{"d": "-0.01", "ts": "1969-12-31T23:59:58.5", "tz": "1900-01-01T00:00:00.000000Z", "bin": "", "dt": "0001-01-01", "f": -0.0, "dd": "-Infinity", "bo": false}',
   '{}'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, '{"a": -2147483648}', '[["", 2147483647]]', '[[-1, ["é日本", ""]]]',
   '[{"b": "only b"}]', '{"d": null, "bin": null, "dd": 1e300, "f": "Infinity"}', '{-5}');

CREATE FUNCTION mk(fmt text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM paimon_create_table('wn', 'db', 'n_' || fmt,
    'id INT, r ROW<a INT, b STRING>, m MAP<STRING, INT>, mi MAP<INT, ARRAY<STRING>>,
     ar ARRAY<ROW<a INT, b STRING>>,
     dx ROW<d DECIMAL(10, 2), ts TIMESTAMP(3), tz TIMESTAMP(6) WITH LOCAL TIME ZONE, bin BYTES,
            dt DATE, f FLOAT, dd DOUBLE, bo BOOLEAN>,
     ai ARRAY<INT>',
    options => format('{"file.format": "%s"}', fmt)::jsonb, foreign_table => 'n_' || fmt);
END $$;
SELECT mk('parquet'), mk('orc'), mk('avro');

INSERT INTO n_parquet SELECT * FROM nested_src;
INSERT INTO n_orc SELECT * FROM nested_src;
INSERT INTO n_avro SELECT * FROM nested_src;
SELECT * FROM n_parquet ORDER BY id;

-- the same values in every format
SELECT 'orc' AS fmt, p.id, o.* FROM n_parquet p JOIN n_orc o USING (id)
  WHERE (p.*)::text IS DISTINCT FROM (o.*)::text
UNION ALL
SELECT 'avro', p.id, o.* FROM n_parquet p JOIN n_avro o USING (id)
  WHERE (p.*)::text IS DISTINCT FROM (o.*)::text;
SELECT count(*) FROM n_orc;
SELECT count(*) FROM n_avro;

-- the round trip: what SELECT returns, inserted back, reads the same
INSERT INTO n_parquet SELECT id + 10, r, m, mi, ar, dx, ai FROM n_parquet;
INSERT INTO n_orc SELECT id + 10, r, m, mi, ar, dx, ai FROM n_orc;
INSERT INTO n_avro SELECT id + 10, r, m, mi, ar, dx, ai FROM n_avro;
SELECT f, count(*) FILTER (WHERE (a.r, a.m, a.mi, a.ar, a.dx, a.ai)
                   IS DISTINCT FROM (b.r, b.m, b.mi, b.ar, b.dx, b.ai)) AS differ, count(*)
FROM (SELECT 'parquet' f, * FROM n_parquet UNION ALL SELECT 'orc', * FROM n_orc
      UNION ALL SELECT 'avro', * FROM n_avro) a
JOIN (SELECT 'parquet' f, * FROM n_parquet UNION ALL SELECT 'orc', * FROM n_orc
      UNION ALL SELECT 'avro', * FROM n_avro) b USING (f)
WHERE b.id = a.id + 10 GROUP BY f ORDER BY f;

-- what was inserted, compared as jsonb where the source is in read form
SELECT s.id, s.r = p.r AS r, s.m = p.m AS m, s.mi = p.mi AS mi, s.ar = p.ar AS ar
FROM nested_src s JOIN n_parquet p USING (id) WHERE s.id <= 2 ORDER BY id;
-- a missing ROW key reads back as null
SELECT r, ar FROM n_orc WHERE id = 4;

-- conveniences: a MAP<STRING, V> as an object, ARRAY<INT> as jsonb, text columns
CREATE FOREIGN TABLE n_conv (id int, m jsonb, ai jsonb, r text)
  SERVER wn OPTIONS (database 'db', table 'n_parquet');
INSERT INTO n_conv VALUES (20, '{"x": 1, "y": null}', '[7, null, 8]', '{"b": "t", "a": 5}');
SELECT id, r, m, ai FROM n_parquet WHERE id = 20;
-- DECIMAL rounding (as numeric(10,2)), numbers for DECIMAL, timestamps rounded to p
INSERT INTO n_orc (id, dx) VALUES
  (21, '{"d": 1.005, "ts": "2026-01-01T00:00:00.9996"}'),
  (22, '{"d": "-99999999.994", "tz": "2026-01-01T02:00:00+02:00"}');
SELECT id, dx FROM n_orc WHERE id IN (21, 22) ORDER BY id;

-- TIMESTAMP(9) inside nested values keeps nanoseconds (Parquet INT96, ORC);
-- digits past the 9th are dropped
SELECT paimon_create_table('wn', 'db', 'ts9_' || f,
  'id INT, r ROW<t TIMESTAMP(9), z TIMESTAMP(9) WITH LOCAL TIME ZONE>, a ARRAY<ROW<t TIMESTAMP(9)>>',
  options => format('{"file.format": "%s"}', f)::jsonb, foreign_table => 'ts9_' || f)
FROM (VALUES ('parquet'), ('orc')) v(f);
INSERT INTO ts9_parquet VALUES
  (1, '{"t": "2026-12-01T10:11:12.123456789", "z": "1969-12-31T23:59:58.999999999Z"}',
   '[{"t": "1970-01-01T00:00:00.000000001"}, null, {"t": "2026-01-01T00:00:00.1234567891"}]');
INSERT INTO ts9_orc SELECT * FROM ts9_parquet;
INSERT INTO ts9_orc SELECT id + 1, r, a FROM ts9_orc;
SELECT * FROM ts9_parquet;
SELECT a.id, b.id, a.r = b.r AND a.a = b.a AS same FROM ts9_parquet a, ts9_orc b ORDER BY 2;

-- MULTISET (Parquet: a map of each element to its count)
SELECT paimon_create_table('wn', 'db', 'ms', 'id INT, ms MULTISET<STRING>',
  foreign_table => 'ms');
INSERT INTO ms VALUES (1, '["a", "b", "a"]'), (2, '[]'), (3, NULL);
SELECT * FROM ms ORDER BY id;
\set VERBOSITY sqlstate
INSERT INTO ms VALUES (4, '["a", null]');
\set VERBOSITY default
-- ORC and Avro: the same map (Avro: a map for strings, an array of {key, value} records
-- otherwise), read back with each element as often as written, and written again
SELECT paimon_create_table('wn', 'db', 'ms_' || f, 'id INT, ms MULTISET<STRING>, mi MULTISET<INT>',
  options => format('{"file.format": "%s"}', f)::jsonb, foreign_table => 'ms_' || f)
FROM (VALUES ('orc'), ('avro')) v(f);
INSERT INTO ms_orc VALUES (1, '["a", "b", "a"]', '[3, 1, 3, 3]'), (2, '[]', '[]'), (3, NULL, NULL);
INSERT INTO ms_avro SELECT * FROM ms_orc;
INSERT INTO ms_orc SELECT id + 10, ms, mi FROM ms_avro;
INSERT INTO ms_avro SELECT id + 10, ms, mi FROM ms_avro;
SELECT * FROM ms_orc ORDER BY id;
SELECT o.id, o.ms = a.ms AND o.mi = a.mi AS same FROM ms_orc o JOIN ms_avro a USING (id) ORDER BY 1;

-- a primary-key table: UPDATE of a nested column
SELECT paimon_create_table('wn', 'db', 'pk',
  'id INT NOT NULL, r ROW<a INT NOT NULL, tags ARRAY<STRING>>, m MAP<INT, ROW<x DOUBLE>>',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "file.format": "orc"}',
  foreign_table => 'pk');
INSERT INTO pk VALUES (1, '{"a": 1, "tags": ["p", "q"]}', '[[1, {"x": 0.5}], [2, null]]'),
                      (2, '{"a": 2, "tags": null}', NULL);
UPDATE pk SET r = jsonb_set(r, '{tags}', '["z"]'), m = '[[3, {"x": 3}]]' WHERE id = 1;
UPDATE pk SET r = r || '{"a": 20}' WHERE id = 2;
SELECT * FROM pk ORDER BY id;

-- errors
\set VERBOSITY sqlstate
\echo wrong JSON kinds (22023)
INSERT INTO n_parquet (id, r) VALUES (30, '[1, 2]');
INSERT INTO n_parquet (id, r) VALUES (30, '{"a": "1"}');
INSERT INTO n_parquet (id, m) VALUES (30, '[["k"]]');
INSERT INTO n_parquet (id, m) VALUES (30, '[["k", 1, 2]]');
INSERT INTO n_parquet (id, m) VALUES (30, '["k", 1]');
INSERT INTO n_parquet (id, ar) VALUES (30, '{"a": 1}');
INSERT INTO n_parquet (id, mi) VALUES (30, '{"1": ["a"]}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"bo": 1}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"dt": 20260101}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"f": "1.5"}');
\echo unknown ROW field (22023)
INSERT INTO n_parquet (id, r) VALUES (30, '{"a": 1, "c": 2}');
\echo out of range (22003)
INSERT INTO n_parquet (id, r) VALUES (30, '{"a": 2147483648}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"d": "123456789.00"}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"d": 99999999.995}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"f": 1e300}');
\echo bad text (22P02, 22007, 22008)
INSERT INTO n_parquet (id, r) VALUES (30, '{"a": 1.5}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"bin": "0g"}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"bin": "abc"}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"d": "abc"}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"dt": "2026-13-01"}');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"ts": "infinity"}');
\echo NULL in NOT NULL (23502)
INSERT INTO pk VALUES (5, '{"tags": []}', NULL);
INSERT INTO pk VALUES (5, '{"a": null}', NULL);
\echo too long (22001)
SELECT paimon_create_table('wn', 'db', 'lens',
  'id INT, r ROW<c CHAR(2), v VARCHAR(3), b BINARY(2)>, m MAP<INT NOT NULL, VARCHAR(2)>',
  foreign_table => 'lens');
INSERT INTO lens VALUES (1, '{"c": "ab", "v": "日本語", "b": "0102"}', '[[1, "日本"]]');
INSERT INTO lens VALUES (2, '{"v": "abcd"}', NULL);
INSERT INTO lens VALUES (2, '{"b": "010203"}', NULL);
INSERT INTO lens VALUES (2, NULL, '[[1, "abc"]]');
INSERT INTO lens VALUES (2, NULL, '[[null, "a"]]');
\echo column type mismatch (42804)
CREATE FOREIGN TABLE n_bad (id int, r int) SERVER wn OPTIONS (database 'db', table 'n_parquet');
INSERT INTO n_bad VALUES (1, 1);
\set VERBOSITY default
INSERT INTO n_parquet (id, ar) VALUES (30, '[{"a": 1}, {"a": 1, "zz": 1}]');
INSERT INTO n_parquet (id, dx) VALUES (30, '{"bo": "yes"}');
SELECT * FROM lens ORDER BY id;
SELECT count(*) FROM n_parquet WHERE id = 30;

DROP FOREIGN TABLE n_parquet, n_orc, n_avro, n_conv, n_bad, pk, lens, ts9_parquet, ts9_orc, ms,
  ms_orc, ms_avro;
DROP TABLE nested_src;
DROP FUNCTION mk(text);
DROP SERVER wn;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
