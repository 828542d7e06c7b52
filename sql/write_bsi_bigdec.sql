-- bsi file index on DECIMAL above precision 18 (Java's
-- BitSliceIndexBitmapFileIndex indexes the unscaled long of any DECIMAL):
-- written, and our scan prunes files by it; a value beyond a long fails the
-- write as Java's Decimal.toUnscaledLong does; range-bitmap refuses such
-- columns with Java's message.
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_bsi_bigdec_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wbd FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wbd', 'db');
CREATE FUNCTION bsi_data_files(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line LIKE '%Data Files:%' THEN RETURN NEXT btrim(line); END IF;
  END LOOP;
END $$;
CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- three files, each spanning -1e15..1e15 (statistics prune nothing)
SELECT paimon_create_table('wbd', 'db', 'bd', 'id INT, w DECIMAL(20, 2), x DECIMAL(38, 0)',
  options => '{"file-index.bsi.columns": "w,x"}', foreign_table => 'bd');
INSERT INTO bd SELECT g, CASE g % 100 WHEN 0 THEN -1e15 WHEN 1 THEN 1e15 ELSE g * 1.25 END,
  CASE WHEN g % 7 = 0 THEN NULL ELSE -g::bigint * 1000000007 END FROM generate_series(1, 300) g;
INSERT INTO bd SELECT g, CASE g % 100 WHEN 0 THEN -1e15 WHEN 1 THEN 1e15 ELSE g * 1.25 END,
  -g::bigint * 1000000007 FROM generate_series(301, 600) g;
INSERT INTO bd SELECT g, CASE g % 100 WHEN 0 THEN -1e15 WHEN 1 THEN 1e15 ELSE g * 1.25 END,
  -g::bigint * 1000000007 FROM generate_series(601, 900) g;
SELECT count(*), sum(w), min(x), count(x) FROM bd;
SELECT * FROM bd WHERE w = 500.00;
SELECT bsi_data_files($$SELECT * FROM bd WHERE w = 500.00$$);
SELECT bsi_data_files($$SELECT * FROM bd WHERE w = 1003.75$$);
SELECT bsi_data_files($$SELECT * FROM bd WHERE w IN (-1e15, 7.50)$$);
SELECT count(*) FROM bd WHERE w = 1003.75;
SELECT bsi_data_files($$SELECT * FROM bd WHERE x = -700000004900$$);

-- a value beyond a long: Java's write fails too
SELECT paimon_create_table('wbd', 'db', 'big', 'id INT, w DECIMAL(25, 0)',
  options => '{"file-index.bsi.columns": "w"}', foreign_table => 'big');
INSERT INTO big VALUES (1, 1), (2, 99999999999999999999);
SELECT count(*) FROM big;
-- range-bitmap takes DECIMAL up to precision 18 (Java's DecimalKeyFactory)
SELECT paimon_create_table('wbd', 'db', 'rb', 'id INT, w DECIMAL(19, 2)',
  options => '{"file-index.range-bitmap.columns": "w"}', foreign_table => 'rb');
SELECT sqlstate_of('INSERT INTO rb VALUES (1, 1)');

DROP FUNCTION bsi_data_files(text);
DROP FUNCTION sqlstate_of(text);
DROP SERVER wbd CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
