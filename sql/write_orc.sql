-- Writing ORC data files (file.format = orc): every scalar type and NULLs
-- read back, 25000 rows over several row groups with filters and
-- aggregates, a primary-key table with UPDATE, DELETE and paimon_compact
-- (which reads and writes ORC), dictionary-encoded strings and bloom
-- filters, and the ORC options refused by name (0A000).
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT current_setting('data_directory') || '/paimon_write_orc_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wo FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');

-- the data files of a table, by suffix
CREATE FUNCTION orc_data_files(dir text, OUT orc bigint, OUT other bigint) LANGUAGE sql AS $$
  WITH RECURSIVE f(path, isdir) AS (
    SELECT dir, true
    UNION ALL
    SELECT f.path || '/' || c, (pg_stat_file(f.path || '/' || c)).isdir
    FROM f, pg_ls_dir(f.path) c WHERE f.isdir)
  SELECT count(*) FILTER (WHERE path ~ '/bucket-[0-9]+/data-[^/]*\.orc$'),
         count(*) FILTER (WHERE path ~ '/bucket-[0-9]+/data-[^/]*$' AND path !~ '\.orc$')
  FROM f WHERE NOT isdir $$;

SELECT paimon_create_database('wo', 'db');

-- every scalar type
SELECT paimon_create_table('wo', 'db', 'scalars',
  'id INT NOT NULL, b BOOLEAN, ti TINYINT, si smallint, i integer, bi BIGINT,
   f FLOAT, d double precision, amount DECIMAL(10, 2), bigdec numeric(38, 6),
   s STRING, vc VARCHAR(5), c CHAR(3), bin BINARY(2), vb bytea,
   dt DATE, tm TIME, ts TIMESTAMP(3), ts6 timestamp, ltz timestamptz',
  options => '{"file.format": "orc"}', foreign_table => 'scalars');
INSERT INTO scalars VALUES
  (1, true, 127, 32767, 2147483647, 9223372036854775807, 1.5, 2.25, 12345678.99,
   '12345678901234567890123456789012.123456', 'hello', 'abcde', 'xyz', '\x0102', '\xdeadbeef',
   '2026-12-01', '23:59:59.999', '2026-12-01 10:11:12.345', '1999-12-31 23:59:59.999999',
   '2026-12-01 10:11:12.123456+02'),
  (2, false, -128, -32768, -2147483648, -9223372036854775808, '-0', 'NaN', -0.01,
   '-0.000001', '', 'é日本', 'a', '\x', '\x', '0001-01-01', '00:00', '1970-01-01 00:00:00',
   '1969-12-31 23:59:58.5', '1900-01-01 00:00:00+00'),
  (3, NULL, NULL, NULL, NULL, NULL, 'Infinity', '-Infinity', NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, NULL);
SELECT * FROM scalars ORDER BY id;
SELECT orc_data_files(:'wh' || '/db.db/scalars');

-- 25000 rows in one file: three row groups of 10000 rows
CREATE FOREIGN TABLE scalars_some (id int, s text, amount numeric, ts timestamp, d float8)
  SERVER wo OPTIONS (database 'db', table 'scalars');
INSERT INTO scalars_some SELECT g + 100, CASE WHEN g % 7 <> 0 THEN 'row ' || g END, g / 100.0,
  '2026-01-01'::timestamp + g * interval '1 second', g / 3.0
  FROM generate_series(1, 25000) g;
SELECT count(*), sum(id), sum(amount), min(s), max(s), max(ts), count(s),
  sum(d) FILTER (WHERE id > 100) FROM scalars;
SELECT id, s, amount, ts FROM scalars WHERE id BETWEEN 20098 AND 20102 ORDER BY id;
SELECT count(*), min(id), max(id) FROM scalars WHERE amount >= 240.00;
SELECT orc_data_files(:'wh' || '/db.db/scalars');

-- a primary-key table in ORC: upserts, UPDATE, DELETE, compaction
SELECT paimon_create_table('wo', 'db', 'users',
  'id BIGINT, name STRING, score INT, city CHAR(4)',
  primary_key => ARRAY['id'], options => '{"bucket": "2", "file.format": "orc", "file.compression": "snappy"}',
  foreign_table => 'users');
INSERT INTO users VALUES (1, 'ann', 10, 'oslo'), (2, 'bob', 20, 'rome'), (3, 'cid', 30, 'lima');
INSERT INTO users VALUES (2, 'bob', 21, 'bern'), (4, 'dan', 40, NULL);
INSERT INTO users SELECT g, 'user ' || g, g, 'c' || (g % 10) FROM generate_series(10, 3000) g;
UPDATE users SET score = score + 100 WHERE id IN (1, 3);
DELETE FROM users WHERE id = 4 OR id BETWEEN 100 AND 199;
SELECT * FROM users WHERE id < 12 ORDER BY id;
SELECT count(*), sum(score), count(city) FROM users;
SELECT * FROM paimon_compact('users');
SELECT * FROM users WHERE id < 12 ORDER BY id;
SELECT count(*), sum(score), count(city) FROM users;
SELECT orc_data_files(:'wh' || '/db.db/users');

-- dictionary encoding (orc.dictionary.key.threshold) and bloom filters
-- (orc.bloom.filter.columns): written as Java does, read back
SELECT paimon_create_table('wo', 'db', 'bloom', 'id INT, s STRING, c CHAR(3), u STRING',
  options => '{"file.format": "orc", "orc.bloom.filter.columns": "id, S", "orc.bloom.filter.fpp": "0.05",
               "orc.column.encoding.direct": "c", "orc.dictionary.key.threshold": "0.5"}',
  foreign_table => 'bloom');
INSERT INTO bloom SELECT g, 'v' || (g % 10), 'c' || (g % 7), 'u' || g FROM generate_series(1, 25000) g;
SELECT count(*), count(DISTINCT s), count(DISTINCT c), count(DISTINCT u), sum(id) FROM bloom;
SELECT s, c, count(*), min(id), max(u) FROM bloom WHERE s IN ('v3', 'v7') AND c = 'c5' GROUP BY s, c ORDER BY s;
SELECT * FROM bloom WHERE id = 12345;
SELECT orc_data_files(:'wh' || '/db.db/bloom');
-- our reader skips stripes by those bloom filters for = and IN
CREATE FUNCTION stripes_of(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ 'Stripes:' THEN RETURN NEXT trim(line); END IF;
  END LOOP;
END $$;
SELECT stripes_of($$SELECT * FROM bloom WHERE s = 'v33'$$);
SELECT stripes_of($$SELECT * FROM bloom WHERE s IN ('v33', 'v44') AND id > 0$$);
SELECT stripes_of($$SELECT * FROM bloom WHERE s IN ('v33', 'v7')$$);
SELECT stripes_of($$SELECT * FROM bloom WHERE id IN (-3, 30000) OR s = 'v1'$$);
SELECT count(*) FROM bloom WHERE s = 'v33';
SELECT count(*), min(id) FROM bloom WHERE s IN ('v33', 'v7') AND id > 20000;
SELECT count(*) FROM bloom WHERE id = 20000 AND s = 'v0' AND u = 'u20000';
DROP FUNCTION stripes_of(text);

-- ORC options refused by name, with their SQLSTATE
CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT paimon_create_table('wo', 'db', 'bloomv1', 'id INT',
  options => '{"file.format": "orc", "orc.bloom.filter.columns": "id", "orc.bloom.filter.write.version": "original"}',
  foreign_table => 'bloomv1');
SELECT sqlstate_of('INSERT INTO bloomv1 VALUES (1)');
SELECT paimon_create_table('wo', 'db', 'badfpp', 'id INT',
  options => '{"file.format": "orc", "orc.bloom.filter.columns": "id", "orc.bloom.filter.fpp": "1"}',
  foreign_table => 'badfpp');
SELECT sqlstate_of('INSERT INTO badfpp VALUES (1)');
SELECT paimon_create_table('wo', 'db', 'lzo', 'id INT',
  options => '{"file.format": "orc", "file.compression": "lzo"}', foreign_table => 'lzo');
SELECT sqlstate_of('INSERT INTO lzo VALUES (1)');
-- MULTISET is written (write_nested.sql), but only of primitive elements
SELECT paimon_create_table('wo', 'db', 'multiset', 'id INT, ms MULTISET<ARRAY<INT>>',
  options => '{"file.format": "orc"}', foreign_table => 'multiset');
SELECT sqlstate_of('INSERT INTO multiset VALUES (1, NULL)');
SELECT orc_data_files(:'wh' || '/db.db/bloomv1'), orc_data_files(:'wh' || '/db.db/lzo'),
  orc_data_files(:'wh' || '/db.db/multiset');
-- nested columns: arrays of scalars here (ROW, MAP and ARRAY<ROW> from jsonb: write_nested.sql)
SELECT paimon_create_table('wo', 'db', 'nested', 'id INT, a ARRAY<INT>, s ARRAY<STRING>',
  options => '{"file.format": "orc"}', foreign_table => 'nested');
INSERT INTO nested VALUES (1, ARRAY[1, NULL, 3], ARRAY['x', NULL]),
  (2, ARRAY[]::int[], ARRAY[]::text[]), (3, NULL, NULL);
INSERT INTO nested SELECT g, ARRAY[g, g * 2], ARRAY['s' || g] FROM generate_series(4, 3000) g;
SELECT * FROM nested WHERE id <= 5 ORDER BY id;
SELECT count(*), sum(a[2]), count(s), sum(cardinality(s)) FROM nested;
SELECT orc_data_files(:'wh' || '/db.db/nested');

DROP FUNCTION sqlstate_of(text);
DROP FUNCTION orc_data_files(text);
DROP SERVER wo CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
