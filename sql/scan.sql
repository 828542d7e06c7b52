-- Reading real Paimon tables (../shared/corpus, written by Java Paimon):
-- IMPORT FOREIGN SCHEMA, projection, pruning, time travel, EXPLAIN, errors.
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
SELECT :'corpus' || '/tables/orc' AS orc_wh \gset
CREATE SERVER pq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SERVER orcs FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'orc_wh');

-- import: one foreign table per Paimon table, types from the schema
CREATE SCHEMA a09;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER pq INTO a09;
\d a09.append_09
SELECT * FROM a09.append_09 ORDER BY f0, f1, f2;

-- projection and predicates (rechecked locally; pruning is inexact)
SELECT f0, f3 FROM a09.append_09 WHERE f3 IS NULL;
SELECT count(*) FROM a09.append_09;
-- count(*) is answered from file metadata when that is exact (append table,
-- no deletion vectors, no WHERE); otherwise rows are counted by a scan (on
-- batches, see agg_pushdown.sql)
EXPLAIN (COSTS OFF) SELECT count(*) FROM a09.append_09;
SELECT count(*), count(*) AS again FROM a09.append_09;
EXPLAIN (COSTS OFF) SELECT count(*) FROM a09.append_09 WHERE f1 = 10;
SELECT count(*) FROM a09.append_09 WHERE f1 = 10;
SELECT count(f3) FROM a09.append_09;
SELECT f1, count(*) FROM a09.append_09 WHERE f1 = 10 GROUP BY f1;

-- EXPLAIN shows the pruning funnel (partition f1 = 10 keeps one partition)
EXPLAIN (COSTS OFF) SELECT * FROM a09.append_09 WHERE f1 = 10;
EXPLAIN (COSTS OFF) SELECT f0 FROM a09.append_09 WHERE f0 = 'Alice';
-- f2 is the bucket key of this fixed-bucket table: bucket pruning
EXPLAIN (COSTS OFF) SELECT * FROM a09.append_09 WHERE f2 = 1;
SELECT * FROM a09.append_09 WHERE f2 = 1 ORDER BY f0;

-- time travel: snapshot 1, with that snapshot's schema
CREATE SCHEMA a09_s1;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER pq INTO a09_s1 OPTIONS (snapshot_id '1');
SELECT * FROM a09_s1.append_09 ORDER BY f0, f1, f2;

-- time travel by time: the snapshot current at that moment (snapshot 1 was
-- committed at 06:37:42.687 UTC, snapshot 2 at 06:37:43.453)
CREATE FOREIGN TABLE a09_s1.at_time (f0 text, f1 int, f2 int, f3 float8) SERVER pq
  OPTIONS (database 'append_09', table 'append_09', timestamp '2025-08-21 06:37:43+00');
SELECT count(*) FROM a09_s1.at_time;
EXPLAIN (COSTS OFF) SELECT * FROM a09_s1.at_time;
CREATE FOREIGN TABLE a09_s1.too_early (f0 text) SERVER pq
  OPTIONS (database 'append_09', table 'append_09', timestamp '2020-01-01 00:00:00+00');
SELECT * FROM a09_s1.too_early;
CREATE FOREIGN TABLE a09_s1.no_tag (f0 text) SERVER pq
  OPTIONS (database 'append_09', table 'append_09', tag 'nope');
SELECT * FROM a09_s1.no_tag;
ALTER FOREIGN TABLE a09_s1.no_tag OPTIONS (ADD snapshot_id '1');

-- schema evolution by field id: renamed and added columns
CREATE SCHEMA alt;
IMPORT FOREIGN SCHEMA "append_table_with_alter_table" FROM SERVER pq INTO alt;
\d alt.append_table_with_alter_table
SELECT * FROM alt.append_table_with_alter_table ORDER BY 1, 2, 3;

-- LIMIT TO and EXCEPT
CREATE SCHEMA lim;
IMPORT FOREIGN SCHEMA "append_10" LIMIT TO (append_10, no_such_table) FROM SERVER pq INTO lim;
IMPORT FOREIGN SCHEMA "append_10" EXCEPT (append_10) FROM SERVER pq INTO lim;
SELECT foreign_table_name FROM information_schema.foreign_tables
 WHERE foreign_table_schema = 'lim' ORDER BY 1;

-- nested types as jsonb, arrays of scalars as arrays
CREATE SCHEMA cx;
IMPORT FOREIGN SCHEMA "append_complex_build_in_fieldid" FROM SERVER pq INTO cx;
\d cx.append_complex_build_in_fieldid
SELECT * FROM cx.append_complex_build_in_fieldid ORDER BY f5 NULLS LAST LIMIT 3;

-- primary-key tables: merged on read (deduplicate, deletes); count(*) counts
-- the merged rows on batches
CREATE SCHEMA pk;
IMPORT FOREIGN SCHEMA "pk_table_scan_and_read_mor" FROM SERVER pq INTO pk;
SELECT * FROM pk.pk_table_scan_and_read_mor ORDER BY 1, 2, 3;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pk.pk_table_scan_and_read_mor;
SELECT count(*) FROM pk.pk_table_scan_and_read_mor;

-- EXPLAIN ANALYZE with timing: where the scan's time went (file reads, decompression,
-- the rest), numbers masked; the parts add up to no more than the whole, and the
-- merged read of the files did read and decompress something. TIMING OFF: no times.
CREATE FUNCTION explain_lines(opts text, q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('EXPLAIN (%s) %s', opts, q);
END $$;
SELECT regexp_replace(trim(l), '[0-9]+(\.[0-9]+)?', 'N', 'g') AS shape,
       n[2] + n[5] <= n[1] + 0.002 AND n[7] <= n[1] + 0.001 AS parts_fit,
       n[3] > 0 AND n[4] > 0 AND n[6] > 0 AS did_read
FROM explain_lines('ANALYZE, COSTS OFF, SUMMARY OFF',
                   'SELECT * FROM pk.pk_table_scan_and_read_mor') l,
     LATERAL (SELECT ARRAY(SELECT m[1]::numeric
                           FROM regexp_matches(l, '([0-9]+(\.[0-9]+)?)', 'g') m) AS n) x
WHERE l LIKE '%Read Time:%';
SELECT count(*) FROM explain_lines('ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF',
                                   'SELECT * FROM pk.pk_table_scan_and_read_mor') l
WHERE l LIKE '%Read Time%';
DROP FUNCTION explain_lines(text, text);

-- parallel scans: participants take data files (append) or merged splits (pk)
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
EXPLAIN (COSTS OFF) SELECT f1, count(*), sum(f3) FROM a09.append_09 GROUP BY f1;
SELECT f1, count(*), round(sum(f3)::numeric, 6) FROM a09.append_09 GROUP BY f1 ORDER BY f1;
SELECT f0, f1, f2, f3 FROM pk.pk_table_scan_and_read_mor ORDER BY 1, 2, 3;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pk.pk_table_scan_and_read_mor WHERE f3 > 15;
SELECT count(*) FROM pk.pk_table_scan_and_read_mor WHERE f3 > 15;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;

-- ORC data files
CREATE SCHEMA o;
IMPORT FOREIGN SCHEMA "multi_partition_append_table" FROM SERVER orcs INTO o;
SELECT count(*) FROM o.multi_partition_append_table;

-- errors: clear messages with SQLSTATEs
\set VERBOSITY sqlstate
IMPORT FOREIGN SCHEMA "no_such_db" FROM SERVER pq INTO lim;            -- 3F000
CREATE SCHEMA bad;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER pq INTO bad OPTIONS (snapshot_id '999');   -- 58P01
CREATE FOREIGN TABLE bad.wrong_col (nope int) SERVER pq OPTIONS (database 'append_09', table 'append_09');
SELECT nope FROM bad.wrong_col;                                        -- 42703
CREATE FOREIGN TABLE bad.wrong_type (f0 integer) SERVER pq OPTIONS (database 'append_09', table 'append_09');
SELECT f0 FROM bad.wrong_type;                                         -- 42804
\set VERBOSITY terse
IMPORT FOREIGN SCHEMA "no_such_db" FROM SERVER pq INTO lim;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER pq INTO bad OPTIONS (snapshot_id '999');
SELECT nope FROM bad.wrong_col;
SELECT f0 FROM bad.wrong_type;

DROP SERVER pq CASCADE;
DROP SERVER orcs CASCADE;
