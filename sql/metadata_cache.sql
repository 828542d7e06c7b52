-- The per-backend metadata cache (paimon_fdw.metadata_cache_size): manifest
-- lists, manifests and data file footers are read once and then served from
-- memory; EXPLAIN ANALYZE (with its summary) counts a scan's lookups. The
-- latest snapshot is still looked up by every statement, so a commit is seen
-- by the very next query. Results are the same with the cache off.
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
SELECT :'corpus' || '/tables/orc' AS orc_wh \gset
CREATE SERVER mc_pq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SERVER mc_orc FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'orc_wh');
CREATE SCHEMA mc;
IMPORT FOREIGN SCHEMA "append_table_with_alter_table" FROM SERVER mc_pq INTO mc;
IMPORT FOREIGN SCHEMA "multi_partition_append_table" FROM SERVER mc_orc INTO mc;

-- (the default; set here so that the test also runs where it is off)
SET paimon_fdw.metadata_cache_size = '64MB';
SHOW paimon_fdw.metadata_cache_size;

-- The "Metadata Cache" line of EXPLAIN ANALYZE for query q (none when off).
CREATE FUNCTION cache_line(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ' || q LOOP
    IF line ~ 'Metadata Cache:' THEN
      RETURN NEXT trim(line);
    END IF;
  END LOOP;
END $$;

-- a fresh backend: planning read the metadata (misses, not shown), the
-- executor finds it cached: the table as planning opened it (its snapshot and
-- latest schema, table_cache.c) is reused without a lookup, the older schema
-- (the table's columns evolved), 2 manifest lists and 2 manifests are hits,
-- the footer of the one data file left after pruning is a miss
SELECT * FROM cache_line('SELECT * FROM mc.append_table_with_alter_table WHERE k = 16');
-- again: nothing is read twice
SELECT * FROM cache_line('SELECT * FROM mc.append_table_with_alter_table WHERE k = 16');
SELECT * FROM mc.append_table_with_alter_table WHERE k = 16;
SELECT count(*), sum(k) FROM mc.append_table_with_alter_table WHERE k > 0;
-- ORC: manifests and data files
SELECT * FROM cache_line('SELECT * FROM mc.multi_partition_append_table WHERE f3 > 0');
SELECT * FROM cache_line('SELECT * FROM mc.multi_partition_append_table WHERE f3 > 0');
SELECT count(*), sum(f3), string_agg(f0, ',' ORDER BY f0) FROM mc.multi_partition_append_table WHERE f3 > 0;

-- off: no line, the same rows
SET paimon_fdw.metadata_cache_size = 0;
SELECT * FROM cache_line('SELECT * FROM mc.append_table_with_alter_table WHERE k = 16');
SELECT * FROM mc.append_table_with_alter_table WHERE k = 16;
SELECT count(*), sum(k) FROM mc.append_table_with_alter_table WHERE k > 0;
SELECT count(*), sum(f3), string_agg(f0, ',' ORDER BY f0) FROM mc.multi_partition_append_table WHERE f3 > 0;
-- back on: turning it off emptied it
SET paimon_fdw.metadata_cache_size = '64MB';
SELECT * FROM cache_line('SELECT * FROM mc.append_table_with_alter_table WHERE k = 16');
-- a budget of 1kB keeps only what fits (some small files; which ones depends on
-- the length of the paths), answers stay right
SET paimon_fdw.metadata_cache_size = '1kB';
SELECT m[1]::int < 7 AS fewer_hits, m[1]::int + m[2]::int AS lookups
  FROM (SELECT regexp_match(l, '(\d+) hits, (\d+) misses') AS m
          FROM cache_line('SELECT * FROM mc.append_table_with_alter_table WHERE k = 16') AS l) AS c;
SELECT count(*), sum(k) FROM mc.append_table_with_alter_table WHERE k > 0;
SET paimon_fdw.metadata_cache_size = '64MB';

-- a commit is seen by the next statement, the warm cache notwithstanding
SELECT current_setting('data_directory') || '/paimon_cache_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER mc_wr FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('mc_wr', 'db');
SELECT paimon_create_table('mc_wr', 'db', 't', 'id INT, v STRING', foreign_table => 'mc.t');
INSERT INTO mc.t SELECT g, 'a' || g FROM generate_series(1, 100) g;
SELECT count(*), sum(id) FROM mc.t WHERE id > 0;
SELECT * FROM cache_line('SELECT * FROM mc.t WHERE id > 0');
INSERT INTO mc.t VALUES (1000, 'new');
-- the new snapshot's manifest list and manifest are new files: misses
SELECT * FROM cache_line('SELECT * FROM mc.t WHERE id > 0');
SELECT count(*), sum(id) FROM mc.t WHERE id > 0;
SELECT * FROM mc.t WHERE id = 1000;

-- Each statement reuses the table (snapshot and schema) as the backend last
-- read it while no newer snapshot or schema file exists and its snapshot and
-- schema files are the ones it read. A rollback deletes the newer snapshot
-- files; a commit after it writes snapshot 2 again, a different file under
-- the same name: both are seen by the next statement.
SELECT paimon_rollback('mc.t', '1');
SELECT count(*), sum(id) FROM mc.t;
SELECT * FROM mc.t WHERE id = 1000;
INSERT INTO mc.t VALUES (2000, 'after the rollback');
SELECT count(*), sum(id) FROM mc.t;
-- in a prepared statement too (a generic plan: the table is opened at execution)
SET plan_cache_mode = force_generic_plan;
PREPARE t_count AS SELECT count(*), sum(id) FROM mc.t WHERE id > $1;
EXECUTE t_count(0);
INSERT INTO mc.t VALUES (3000, 'three');
EXECUTE t_count(0);
SELECT paimon_rollback('mc.t', '2');
EXECUTE t_count(0);
DEALLOCATE t_count;
RESET plan_cache_mode;
-- and with the caches off
SET paimon_fdw.metadata_cache_size = 0;
INSERT INTO mc.t VALUES (4000, 'four');
SELECT count(*), sum(id) FROM mc.t;
RESET paimon_fdw.metadata_cache_size;
SELECT count(*), sum(id) FROM mc.t;

COPY (SELECT 1) TO PROGRAM :'rm_wh';
DROP SERVER mc_wr CASCADE;
DROP SCHEMA mc CASCADE;
DROP SERVER mc_pq CASCADE;
DROP SERVER mc_orc CASCADE;
