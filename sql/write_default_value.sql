-- Column default values (a schema field's "defaultValue", as Java, Spark or
-- Flink write it; paimon_create_table takes none, so the test adds them to
-- the schema file): INSERT writes the default where a value is NULL or the
-- column is left out, as Java's TableWriteImpl does, on append and
-- primary-key tables, UPDATE too; NOT NULL is checked first; defaults of
-- types not cast here are refused by name (0A000).
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_default_value_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wd FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wd', 'db');

CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- add "defaultValue" to the fields of a table's schema-0 (a JSON rewrite)
CREATE FUNCTION set_defaults(tbl text, defaults jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  path text := current_setting('data_directory') || '/paimon_write_default_value_test/db.db/'
               || tbl || '/schema/schema-0';
  s jsonb := pg_read_file(path)::jsonb;
  f jsonb;
  fields jsonb := '[]';
BEGIN
  FOR f IN SELECT * FROM jsonb_array_elements(s -> 'fields') LOOP
    IF defaults ? (f ->> 'name') THEN
      f := f || jsonb_build_object('defaultValue', defaults ->> (f ->> 'name'));
    END IF;
    fields := fields || jsonb_build_array(f);
  END LOOP;
  s := jsonb_set(s, '{fields}', fields);
  EXECUTE format('COPY (SELECT %L) TO PROGRAM %L', s::text,
                 'cat > ' || path || '.tmp && mv ' || path || '.tmp ' || path);
END $$;

SELECT paimon_create_table('wd', 'db', 'app',
  'id INT NOT NULL, flag BOOLEAN, n INT, big BIGINT, s STRING, v VARCHAR(3), c CHAR(4), plain STRING');
SELECT set_defaults('app', '{"flag": "yes", "n": "7", "big": "12.5", "s": "''dflt''",
                             "v": "abcdef", "c": "ab", "id": "99"}');
IMPORT FOREIGN SCHEMA db LIMIT TO (app) FROM SERVER wd INTO public;
INSERT INTO app VALUES (1, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                       (2, false, 20, -2, 'two', 'zz', 'x', 'p');
INSERT INTO app (id) VALUES (3);
INSERT INTO app (id, n) VALUES (4, NULL), (5, 50);
SELECT id, flag, n, big, s, v, c || '|' AS c, plain FROM app ORDER BY id;
-- NOT NULL is checked before defaults (TableWriteImpl.checkNullability)
SELECT sqlstate_of('INSERT INTO app (n) VALUES (1)');

-- primary key: defaults on INSERT and UPDATE rows alike
SELECT paimon_create_table('wd', 'db', 'pk', 'id INT, n INT, s STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1"}');
SELECT set_defaults('pk', '{"n": "-1", "s": "none"}');
IMPORT FOREIGN SCHEMA db LIMIT TO (pk) FROM SERVER wd INTO public;
INSERT INTO pk VALUES (1, 10, 'a'), (2, NULL, NULL), (3, 30, NULL);
UPDATE pk SET s = NULL, n = n + 1 WHERE id = 1;
SELECT * FROM pk ORDER BY id;

-- DOUBLE, DECIMAL and DATE defaults (HALF_UP; past the precision the
-- default is NULL, as Java's Decimal.fromBigDecimal gives null; a DATE from
-- the text before the first blank)
SELECT paimon_create_table('wd', 'db', 'dbl',
  'id INT, d DOUBLE, m DECIMAL(6, 2), o DECIMAL(3, 1), day DATE');
SELECT set_defaults('dbl', '{"d": "1.5e1", "m": "-2.005", "o": "100", "day": "2024-2-29 10:00"}');
IMPORT FOREIGN SCHEMA db LIMIT TO (dbl) FROM SERVER wd INTO public;
INSERT INTO dbl VALUES (1, NULL, NULL, NULL, NULL), (2, 2.5, 3.25, 1.5, '2026-12-05');
SELECT * FROM dbl ORDER BY id;
-- TIME and TIMESTAMP defaults (DateTimeUtils.parseTime: millis rounded, an
-- offset added; the timestamp formatter resolved SMART: February 30 is the
-- 28th; digits are an epoch in the precision's unit)
SELECT paimon_create_table('wd', 'db', 'tms',
  'id INT, t TIME(3), ts TIMESTAMP(6), feb TIMESTAMP(3), ns TIMESTAMP(9), ep TIMESTAMP(3)');
SELECT set_defaults('tms', '{"t": "7:05:09.1235", "ts": "2021-6-1 7:05:09.123456789",
                             "feb": "2021-02-30", "ns": "2021-06-01 00:00:00.123456789",
                             "ep": "1622505600123"}');
IMPORT FOREIGN SCHEMA db LIMIT TO (tms) FROM SERVER wd INTO public;
INSERT INTO tms VALUES (1, NULL, NULL, NULL, NULL, NULL),
  (2, '01:02:03', '2020-01-01 00:00:00.5', '2020-01-02', '2020-01-03 00:00:00.25', NULL);
SELECT * FROM tms ORDER BY id;
-- a default this writer does not cast: refused by name (the JVM's zone would decide)
SELECT paimon_create_table('wd', 'db', 'dt', 'id INT, d TIMESTAMP_LTZ(3)');
SELECT set_defaults('dt', '{"d": "2026-01-01 00:00:00"}');
IMPORT FOREIGN SCHEMA db LIMIT TO (dt) FROM SERVER wd INTO public;
SELECT sqlstate_of('INSERT INTO dt VALUES (1, NULL)');
-- a default Java cannot cast
SELECT paimon_create_table('wd', 'db', 'badint', 'id INT, n INT');
SELECT set_defaults('badint', '{"n": "seven"}');
IMPORT FOREIGN SCHEMA db LIMIT TO (badint) FROM SERVER wd INTO public;
SELECT sqlstate_of('INSERT INTO badint VALUES (1, 2)');

DROP FUNCTION set_defaults(text, jsonb);
DROP FUNCTION sqlstate_of(text);
DROP SERVER wd CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
