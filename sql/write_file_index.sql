-- File indexes written by INSERT (bloom-filter, bitmap, range-bitmap, bsi, as the
-- table's file-index.* options ask): embedded in the manifest entry below
-- file-index.in-manifest-threshold, else a "<data file>.index" sidecar; the
-- scan prunes our own files with them (EXPLAIN: "N by index"), and every
-- query gives the same rows with paimon_fdw.enable_file_index off; bsi too.
\set SHOW_CONTEXT never
\set VERBOSITY default
SET extra_float_digits = 0;
SELECT current_setting('data_directory') || '/paimon_write_fi_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wfi FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wfi', 'db');
CREATE SCHEMA wfi;

-- data and index files of a table, relative to it
CREATE FUNCTION wfi.files(dir text) RETURNS SETOF text LANGUAGE sql AS $$
  WITH RECURSIVE f(path, isdir) AS (
    SELECT dir, true
    UNION ALL
    SELECT f.path || '/' || c, (pg_stat_file(f.path || '/' || c)).isdir
    FROM f, pg_ls_dir(f.path) c WHERE f.isdir)
  SELECT substr(path, length(dir) + 2) FROM f WHERE NOT isdir $$;

-- "Data Files" of EXPLAIN ANALYZE
CREATE FUNCTION wfi.funnel(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  line text;
  res text := '';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line LIKE '%Data Files:%' THEN
      res := res || CASE WHEN res = '' THEN '' ELSE '; ' END
             || regexp_replace(btrim(line), '0 pruned by partition, 0 by bucket, ', '');
    END IF;
  END LOOP;
  RETURN res;
END $$;

-- q with file indexes on and off: funnels, rows, and whether the rows are the same
CREATE FUNCTION wfi.compare(q text)
RETURNS TABLE (file_index text, funnel text, nrows bigint, same_rows bool)
LANGUAGE plpgsql AS $$
DECLARE
  diff bigint;
BEGIN
  EXECUTE 'CREATE TEMP TABLE rows_on AS ' || q;
  file_index := 'on';
  funnel := wfi.funnel(q);
  EXECUTE 'SELECT count(*) FROM rows_on' INTO nrows;
  same_rows := NULL;
  RETURN NEXT;
  SET LOCAL paimon_fdw.enable_file_index = off;
  EXECUTE 'CREATE TEMP TABLE rows_off AS ' || q;
  file_index := 'off';
  funnel := wfi.funnel(q);
  SET LOCAL paimon_fdw.enable_file_index = on;
  EXECUTE 'SELECT count(*) FROM rows_off' INTO nrows;
  EXECUTE 'SELECT count(*) FROM ((TABLE rows_on EXCEPT ALL TABLE rows_off)
                                 UNION ALL (TABLE rows_off EXCEPT ALL TABLE rows_on)) d' INTO diff;
  same_rows := diff = 0;
  RETURN NEXT;
  DROP TABLE rows_on;
  DROP TABLE rows_off;
END $$;

-- An append table: bloom filter on s, bitmap on cat, range bitmaps on n and d,
-- embedded (64kb threshold). Four INSERTs: four files whose min/max all
-- span the same range (sentinel rows 'a'/'z', 0/1000), so statistics prune
-- nothing and what is pruned is pruned by the indexes.
SELECT paimon_create_table('wfi', 'db', 'ev', 'id INT, s STRING, cat STRING, n INT, d DOUBLE',
  options => '{"file-index.bloom-filter.columns": "s", "file-index.bloom-filter.s.items": "2000",
               "file-index.bitmap.columns": "cat", "file-index.range-bitmap.columns": "n,d",
               "file-index.in-manifest-threshold": "64kb"}',
  foreign_table => 'ev');
CREATE FUNCTION wfi.rows_of(k int) RETURNS TABLE (id int, s text, cat text, n int, d float8)
LANGUAGE sql AS $$
  SELECT k * 1000 + g, 'k' || (g * 4 + k),
         CASE g % 100 WHEN 0 THEN 'a' WHEN 1 THEN 'z' ELSE 'm' || k END,
         CASE g % 100 WHEN 0 THEN 0 WHEN 1 THEN 1000 ELSE k * 100 + g % 50 END,
         CASE WHEN g = 7 THEN 'NaN'::float8 ELSE (k * 100 + g % 50) + 0.5 END
  FROM generate_series(0, 999) g $$;
INSERT INTO ev SELECT * FROM wfi.rows_of(0);
INSERT INTO ev SELECT * FROM wfi.rows_of(1);
INSERT INTO ev SELECT * FROM wfi.rows_of(2);
INSERT INTO ev SELECT * FROM wfi.rows_of(3);
SELECT count(*), count(DISTINCT cat), min(n), max(n), sum(d) FILTER (WHERE d <> 'NaN') FROM ev;
-- data files only, no sidecar: the indexes are in the manifest
SELECT count(*) FILTER (WHERE f ~ '/data-.*\.parquet$') AS data_files,
       count(*) FILTER (WHERE f ~ '\.index$') AS index_files
FROM wfi.files(:'wh' || '/db.db/ev') f;

-- bloom filter: one file holds 'k17' (17 = 4 * 4 + 1), none holds 'k4001'
SELECT * FROM wfi.compare($$SELECT * FROM ev WHERE s = 'k17'$$);
SELECT * FROM wfi.compare($$SELECT * FROM ev WHERE s IN ('k4001', 'k4002')$$);
-- bitmap: 'm2' is in one file (rows selected), 'a' in all, 'q' in none
SELECT * FROM wfi.compare($$SELECT id, cat FROM ev WHERE cat = 'm2'$$);
SELECT * FROM wfi.compare($$SELECT id, cat FROM ev WHERE cat = 'a'$$);
SELECT * FROM wfi.compare($$SELECT id FROM ev WHERE cat = 'q'$$);
SELECT * FROM wfi.compare($$SELECT id FROM ev WHERE cat IS NULL$$);
-- range bitmap: n = 210 and 350 < n < 360 each in one file; d the same with NaN rows
SELECT * FROM wfi.compare($$SELECT id, n FROM ev WHERE n = 210$$);
SELECT * FROM wfi.compare($$SELECT id, n FROM ev WHERE n > 350 AND n < 360$$);
SELECT * FROM wfi.compare($$SELECT id, d FROM ev WHERE d BETWEEN 120.5 AND 130$$);
SELECT * FROM wfi.compare($$SELECT id FROM ev WHERE d = 'NaN'$$);
SELECT * FROM wfi.compare($$SELECT id, n, cat FROM ev WHERE n >= 1000 OR cat = 'm3'$$);

-- The same with a sidecar: the default bloom filter (1,000,000 items, 585 KiB)
-- does not fit the default 500-byte threshold: "<data file>.index" beside
-- each data file, named in the manifest entry's extra files.
SELECT paimon_create_table('wfi', 'db', 'side', 'id INT, s STRING, cat STRING',
  options => '{"file-index.bloom-filter.columns": "s", "file-index.bitmap.columns": "cat"}',
  foreign_table => 'side');
INSERT INTO side SELECT g, 's' || g, 'c' || g % 3 FROM generate_series(1, 500) g;
INSERT INTO side SELECT g, 's' || g, 'c' || (3 + g % 3) FROM generate_series(501, 1000) g;
SELECT regexp_replace(f, 'data-[0-9a-f-]{36}-', 'data-UUID-') AS file,
       (pg_stat_file(:'wh' || '/db.db/side/' || f)).size > 500000 AS big
FROM wfi.files(:'wh' || '/db.db/side') f WHERE f ~ '^bucket-' ORDER BY 1, 2;
SELECT * FROM wfi.compare($$SELECT * FROM side WHERE s = 's700'$$);
SELECT * FROM wfi.compare($$SELECT * FROM side WHERE cat = 'c1'$$);
-- ROLLBACK removes the data files and their sidecars
BEGIN;
INSERT INTO side VALUES (2000, 'x', 'y');
SELECT count(*) FROM wfi.files(:'wh' || '/db.db/side') f WHERE f ~ '^bucket-';
ROLLBACK;
SELECT count(*) FROM wfi.files(:'wh' || '/db.db/side') f WHERE f ~ '^bucket-';

-- A primary-key table writes the indexes of its value columns too; with
-- merge reads they do not prune (Java: only tables with deletion vectors
-- use them), and every row still reads back.
SELECT paimon_create_table('wfi', 'db', 'pk', 'id BIGINT, v STRING, n INT',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "file-index.bitmap.columns": "v", "file-index.range-bitmap.columns": "n"}',
  foreign_table => 'pk');
INSERT INTO pk SELECT g, 'v' || g % 5, g FROM generate_series(1, 100) g;
INSERT INTO pk SELECT g, 'w' || g % 5, -g FROM generate_series(1, 50) g;
SELECT * FROM wfi.compare($$SELECT * FROM pk WHERE v = 'v1'$$);
SELECT * FROM wfi.compare($$SELECT * FROM pk WHERE n < 0 AND v = 'w2'$$);

-- bsi (bit-sliced index) on INT and BIGINT, both signs and NULLs, as sidecars:
-- four files whose n spans -1000..1000 each (sentinel rows), so statistics
-- prune nothing; the negative values are in bsi's second bitmap set
SELECT paimon_create_table('wfi', 'db', 'bs', 'id INT, n INT, b BIGINT',
  options => '{"file-index.bsi.columns": "n,b", "file-index.in-manifest-threshold": "1b"}',
  foreign_table => 'bs');
CREATE FUNCTION wfi.bs_rows(k int) RETURNS TABLE (id int, n int, b bigint)
LANGUAGE sql AS $$
  SELECT k * 1000 + g, v, v * 10000000000
  FROM generate_series(0, 999) g,
       LATERAL (SELECT CASE g % 100 WHEN 0 THEN -1000 WHEN 1 THEN 1000 WHEN 2 THEN NULL
                       ELSE (k * 100 + g % 50) * (1 - 2 * (g % 2)) END AS v) x $$;
INSERT INTO bs SELECT * FROM wfi.bs_rows(0);
INSERT INTO bs SELECT * FROM wfi.bs_rows(1);
INSERT INTO bs SELECT * FROM wfi.bs_rows(2);
INSERT INTO bs SELECT * FROM wfi.bs_rows(3);
SELECT count(*) FILTER (WHERE f ~ '/data-.*\.parquet$') AS data_files,
       count(*) FILTER (WHERE f ~ '\.index$') AS index_files
FROM wfi.files(:'wh' || '/db.db/bs') f;
SELECT * FROM wfi.compare($$SELECT id, n FROM bs WHERE n = -137$$);
SELECT * FROM wfi.compare($$SELECT id FROM bs WHERE n > 320 AND n < 1000$$);
SELECT * FROM wfi.compare($$SELECT id, b FROM bs WHERE b BETWEEN -2500000000000 AND -2000000000001$$);
SELECT * FROM wfi.compare($$SELECT id FROM bs WHERE n IN (-21, 248, 7777)$$);
SELECT * FROM wfi.compare($$SELECT id FROM bs WHERE n >= 1000$$);
DROP FOREIGN TABLE bs;

-- Options Java rejects (22023), and a type a kind does not take: nothing written
CREATE FUNCTION wfi.try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT paimon_create_table('wfi', 'db', 'bad1', 'id INT, d DOUBLE',
  options => '{"file-index.bsi.columns": "d"}', foreign_table => 'bad1');
SELECT wfi.try($$INSERT INTO bad1 VALUES (1, 2.5)$$);
SELECT paimon_create_table('wfi', 'db', 'bad2', 'id INT, b BOOLEAN',
  options => '{"file-index.bloom-filter.columns": "b"}', foreign_table => 'bad2');
SELECT wfi.try($$INSERT INTO bad2 VALUES (1, true)$$);
SELECT paimon_create_table('wfi', 'db', 'bad3', 'id INT',
  options => '{"file-index.bitmap.columns": "id", "file-index.bitmap.id.version": "7"}',
  foreign_table => 'bad3');
SELECT wfi.try($$INSERT INTO bad3 VALUES (1)$$);
SELECT count(*) AS files_written FROM wfi.files(:'wh' || '/db.db') f WHERE f ~ '^bad.*/bucket-';

DROP SERVER wfi CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
