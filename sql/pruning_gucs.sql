-- GUCs turn pruning stages off so results can be compared with pruning on
-- and off: paimon_fdw.enable_pushdown (no qual reaches the scan plan),
-- paimon_fdw.enable_stats_pruning and paimon_fdw.enable_file_index. For each
-- query the funnel of EXPLAIN is shown with all stages on and with one
-- setting off (its stage's count goes to 0), and the rows read with the
-- setting off are compared with those read with it on (EXCEPT ALL both ways).
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
CREATE SERVER pg_pq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SCHEMA pg;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER pg_pq INTO pg;
IMPORT FOREIGN SCHEMA "append_with_bitmap" FROM SERVER pg_pq INTO pg;
IMPORT FOREIGN SCHEMA "append_with_bloomfilter" FROM SERVER pg_pq INTO pg;
IMPORT FOREIGN SCHEMA "pk_with_bitmap_dv" FROM SERVER pg_pq INTO pg;
IMPORT FOREIGN SCHEMA "append_with_rangebitmap" FROM SERVER pg_pq INTO pg;
IMPORT FOREIGN SCHEMA "append_with_bsi" FROM SERVER pg_pq INTO pg;

-- the defaults
SHOW paimon_fdw.enable_pushdown;
SHOW paimon_fdw.enable_stats_pruning;
SHOW paimon_fdw.enable_file_index;
SET paimon_fdw.enable_pushdown = maybe;		-- 22023
SET paimon_fdw.no_such_setting = on;		-- 42704 (the prefix is reserved)

-- "Pushed Filters" and "Data Files" of EXPLAIN
CREATE FUNCTION pg.funnel(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  line text;
  res text := '';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    IF line LIKE '%Pushed Filters:%' OR line LIKE '%Data Files:%' THEN
      res := res || CASE WHEN res = '' THEN '' ELSE '; ' END || btrim(line);
    END IF;
  END LOOP;
  RETURN res;
END $$;

-- q with every stage on, then with setting off: funnels, rows, and whether
-- the rows are the same
CREATE FUNCTION pg.compare(setting text, q text)
RETURNS TABLE (pruning text, funnel text, nrows bigint, same_rows bool)
LANGUAGE plpgsql AS $$
DECLARE
  diff bigint;
BEGIN
  EXECUTE 'CREATE TEMP TABLE rows_on AS ' || q;
  pruning := 'on';
  funnel := pg.funnel(q);
  EXECUTE 'SELECT count(*) FROM rows_on' INTO nrows;
  same_rows := NULL;
  RETURN NEXT;
  PERFORM set_config(setting, 'off', false);
  EXECUTE 'CREATE TEMP TABLE rows_off AS ' || q;
  pruning := setting || ' off';
  funnel := pg.funnel(q);
  PERFORM set_config(setting, 'on', false);
  EXECUTE 'SELECT count(*) FROM rows_off' INTO nrows;
  EXECUTE 'SELECT count(*) FROM ((TABLE rows_on EXCEPT ALL TABLE rows_off) UNION ALL '
          '(TABLE rows_off EXCEPT ALL TABLE rows_on)) d' INTO diff;
  same_rows := diff = 0;
  DROP TABLE rows_on;
  DROP TABLE rows_off;
  RETURN NEXT;
END $$;

-- partitions (append_09 is partitioned by f1) and buckets
SELECT * FROM pg.compare('paimon_fdw.enable_pushdown',
  $$SELECT * FROM pg.append_09 WHERE f1 = 10$$);
SELECT * FROM pg.compare('paimon_fdw.enable_pushdown',
  $$SELECT * FROM pg.append_09 WHERE f2 = 1$$);
-- statistics
SELECT * FROM pg.compare('paimon_fdw.enable_pushdown',
  $$SELECT f0 FROM pg.append_09 WHERE f0 = 'Alice'$$);
SELECT * FROM pg.compare('paimon_fdw.enable_stats_pruning',
  $$SELECT f0 FROM pg.append_09 WHERE f0 = 'Alice'$$);
SELECT * FROM pg.compare('paimon_fdw.enable_file_index',
  $$SELECT f0 FROM pg.append_09 WHERE f0 = 'Alice'$$);
-- file indexes: bitmap, bloom filter, primary key with deletion vectors,
-- range bitmap, BSI
SELECT * FROM pg.compare('paimon_fdw.enable_file_index',
  $$SELECT * FROM pg.append_with_bitmap WHERE f0 = 'Carol' OR f1 = 20$$);
SELECT * FROM pg.compare('paimon_fdw.enable_pushdown',
  $$SELECT * FROM pg.append_with_bitmap WHERE f0 = 'Carol' OR f1 = 20$$);
SELECT * FROM pg.compare('paimon_fdw.enable_stats_pruning',
  $$SELECT * FROM pg.append_with_bitmap WHERE f0 = 'Carol'$$);
SELECT * FROM pg.compare('paimon_fdw.enable_file_index',
  $$SELECT * FROM pg.append_with_bloomfilter WHERE f1 = 150$$);
SELECT * FROM pg.compare('paimon_fdw.enable_file_index',
  $$SELECT * FROM pg.append_with_bloomfilter WHERE f1 = 100$$);
SELECT * FROM pg.compare('paimon_fdw.enable_file_index',
  $$SELECT * FROM pg.pk_with_bitmap_dv WHERE f0 = 'Carol'$$);
SELECT * FROM pg.compare('paimon_fdw.enable_pushdown',
  $$SELECT * FROM pg.pk_with_bitmap_dv WHERE f0 = 'Alice'$$);
SELECT * FROM pg.compare('paimon_fdw.enable_file_index',
  $$SELECT * FROM pg.append_with_rangebitmap WHERE f0 > 10 AND f0 < 17$$);
SELECT * FROM pg.compare('paimon_fdw.enable_file_index',
  $$SELECT * FROM pg.append_with_bsi WHERE f1 > 300 AND f1 < 500$$);

-- SET LOCAL lasts until the end of the transaction
BEGIN;
SET LOCAL paimon_fdw.enable_pushdown = off;
SELECT pg.funnel($$SELECT * FROM pg.append_09 WHERE f1 = 10$$);
COMMIT;
SELECT pg.funnel($$SELECT * FROM pg.append_09 WHERE f1 = 10$$);

DROP SCHEMA pg CASCADE;
DROP SERVER pg_pq;
