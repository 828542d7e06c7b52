-- min/max/count(*)/count(col) answered from file statistics where they
-- are exact (append table, no deletion vectors, no WHERE, integer/date/
-- timestamp/decimal columns whose every file records untruncated min/max,
-- for count(col) null counts of any atomic type); every
-- pushed answer is compared with the same aggregate computed by Postgres
-- over a scan (OFFSET 0 keeps the aggregate out of the foreign scan).
-- "Not pushed" below means not answered from the metadata: such aggregates
-- are now computed on column batches instead (EXPLAIN lists them; see
-- agg_pushdown.sql), or by Postgres when that cannot be done either.
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
CREATE SERVER mmpq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SCHEMA mm;
IMPORT FOREIGN SCHEMA "append_complex_data" FROM SERVER mmpq INTO mm;
IMPORT FOREIGN SCHEMA "parquet_append_table" FROM SERVER mmpq INTO mm;
IMPORT FOREIGN SCHEMA "append_table_with_alter_table" FROM SERVER mmpq INTO mm;
IMPORT FOREIGN SCHEMA "append_with_bitmap_alter_table" FROM SERVER mmpq INTO mm;
IMPORT FOREIGN SCHEMA "append_with_rangebitmap" FROM SERVER mmpq INTO mm;
IMPORT FOREIGN SCHEMA "append_with_multiple_ts_precision_and_timezone" FROM SERVER mmpq INTO mm;
IMPORT FOREIGN SCHEMA "pk_09" FROM SERVER mmpq INTO mm;

-- int, date, decimal(23,5) over the files of 3 partitions: pushed
EXPLAIN (COSTS OFF)
SELECT min(f2), max(f2), min(f3), max(f3), min(f5), max(f5), count(*)
FROM mm.append_complex_data;
SELECT min(f2), max(f2), min(f3), max(f3), min(f5), max(f5), count(*)
FROM mm.append_complex_data;
-- timestamp(9) in Parquet: the files hold no usable statistics, not pushed
EXPLAIN (COSTS OFF) SELECT min(f4) FROM mm.append_complex_data;
-- one column the metadata cannot answer keeps the whole aggregate local
EXPLAIN (COSTS OFF)
SELECT min(f2), max(f2), min(f3), max(f3), min(f4), max(f4), min(f5), max(f5), count(*)
FROM mm.append_complex_data;
SELECT min(f2), max(f2), min(f3), max(f3), min(f4), max(f4), min(f5), max(f5), count(*)
FROM mm.append_complex_data;
-- the same computed by Postgres: not pushed
EXPLAIN (COSTS OFF)
SELECT min(f2), max(f2) FROM (SELECT * FROM mm.append_complex_data OFFSET 0) s;
SELECT min(f2), max(f2), min(f3), max(f3), min(f4), max(f4), min(f5), max(f5), count(*)
FROM (SELECT * FROM mm.append_complex_data OFFSET 0) s;
-- a partition column has statistics too: pushed; min(col + 0) is not
EXPLAIN (COSTS OFF) SELECT min(f1) FROM mm.append_complex_data;
SELECT min(f1), max(f1) FROM mm.append_complex_data;
SELECT min(f1), max(f1) FROM (SELECT * FROM mm.append_complex_data OFFSET 0) s;
EXPLAIN (COSTS OFF) SELECT min(f2 + 0) FROM mm.append_complex_data;

-- tinyint, smallint, int, bigint, date, decimal(2,2): pushed
EXPLAIN (COSTS OFF)
SELECT min(f2), max(f2), min(f3), max(f3), min(f4), max(f4), min(f5), max(f5),
       min(f12), max(f12), min(f13), max(f13)
FROM mm.parquet_append_table;
SELECT min(f2), max(f2), min(f3), max(f3), min(f4), max(f4), min(f5), max(f5),
       min(f12), max(f12), min(f13), max(f13)
FROM mm.parquet_append_table;
SELECT min(f2), max(f2), min(f3), max(f3), min(f4), max(f4), min(f5), max(f5),
       min(f11), max(f11), min(f12), max(f12), min(f13), max(f13)
FROM mm.parquet_append_table;
SELECT min(f2), max(f2), min(f3), max(f3), min(f4), max(f4), min(f5), max(f5),
       min(f11), max(f11), min(f12), max(f12), min(f13), max(f13)
FROM (SELECT * FROM mm.parquet_append_table OFFSET 0) s;
-- strings (stats truncate(16) by default), floats, booleans: never pushed
EXPLAIN (COSTS OFF) SELECT min(f8), max(f8) FROM mm.parquet_append_table;
EXPLAIN (COSTS OFF) SELECT max(f7) FROM mm.parquet_append_table;
EXPLAIN (COSTS OFF) SELECT min(f4), max(f8) FROM mm.parquet_append_table;
-- WHERE, GROUP BY: not pushed
EXPLAIN (COSTS OFF) SELECT min(f4) FROM mm.parquet_append_table WHERE f4 > 0;
-- a pure count(*) keeps its own EXPLAIN line
EXPLAIN (COSTS OFF) SELECT count(*) FROM mm.parquet_append_table;

-- schema evolution: column e added later (older files: all NULL, they
-- contribute nothing), columns reordered
EXPLAIN (COSTS OFF)
SELECT min(e), max(e), min(a), max(a), min(k), max(k), count(*) FROM mm.append_table_with_alter_table;
SELECT min(e), max(e), min(a), max(a), min(k), max(k), count(*) FROM mm.append_table_with_alter_table;
SELECT min(e), max(e), min(a), max(a), min(k), max(k), count(*)
FROM (SELECT * FROM mm.append_table_with_alter_table OFFSET 0) s;
-- f1 evolved INT -> BIGINT: files written as INT keep INT statistics: not pushed
EXPLAIN (COSTS OFF) SELECT min(f1), max(f1) FROM mm.append_with_bitmap_alter_table;
SELECT min(f1), max(f1) FROM mm.append_with_bitmap_alter_table;
-- f5 added later: pushed, all NULL in old files
EXPLAIN (COSTS OFF) SELECT min(f5), max(f5) FROM mm.append_with_bitmap_alter_table;
SELECT min(f5), max(f5) FROM mm.append_with_bitmap_alter_table;
SELECT min(f5), max(f5) FROM (SELECT * FROM mm.append_with_bitmap_alter_table OFFSET 0) s;

-- int, bigint, date; the string column is not pushed
EXPLAIN (COSTS OFF)
SELECT min(f0), max(f0), min(f1), max(f1), min(f4), max(f4) FROM mm.append_with_rangebitmap;
SELECT min(f0), max(f0), min(f1), max(f1), min(f4), max(f4) FROM mm.append_with_rangebitmap;
SELECT min(f0), max(f0), min(f1), max(f1), min(f4), max(f4)
FROM (SELECT * FROM mm.append_with_rangebitmap OFFSET 0) s;
EXPLAIN (COSTS OFF) SELECT max(f5) FROM mm.append_with_rangebitmap;

-- timestamps of every precision, with and without time zone (precisions
-- up to 6 pushed; nanosecond ones not, their Parquet statistics are absent)
EXPLAIN (COSTS OFF) SELECT min(ts_sec), max(ts_milli), min(ts_micro), max(ts_tz_sec),
       min(ts_tz_milli), max(ts_tz_micro)
FROM mm.append_with_multiple_ts_precision_and_timezone;
SELECT min(ts_sec), max(ts_milli), min(ts_micro), max(ts_tz_sec),
       min(ts_tz_milli), max(ts_tz_micro)
FROM mm.append_with_multiple_ts_precision_and_timezone;
EXPLAIN (COSTS OFF) SELECT max(ts_nano) FROM mm.append_with_multiple_ts_precision_and_timezone;
SELECT min(ts_sec), max(ts_milli), min(ts_micro), max(ts_nano), min(ts_nano),
       max(ts_tz_sec), min(ts_tz_milli), max(ts_tz_micro), min(ts_tz_nano), max(ts_tz_nano)
FROM mm.append_with_multiple_ts_precision_and_timezone;
SELECT min(ts_sec), max(ts_milli), min(ts_micro), max(ts_nano), min(ts_nano),
       max(ts_tz_sec), min(ts_tz_milli), max(ts_tz_micro), min(ts_tz_nano), max(ts_tz_nano)
FROM (SELECT * FROM mm.append_with_multiple_ts_precision_and_timezone OFFSET 0) s;

-- primary-key table (merge, deletion vectors): not pushed
EXPLAIN (COSTS OFF) SELECT min(f2), max(f2) FROM mm.pk_09;
SELECT min(f2), max(f2) FROM mm.pk_09;

-- count(col) from the files' row and null counts: every column of an
-- atomic type, strings, floats and booleans too (their null counts are
-- exact where their min/max are not); the map column f10 is not pushed
EXPLAIN (COSTS OFF)
SELECT count(f1), count(f2), count(f3), count(f4), count(f5), count(f6), count(f7), count(f8),
       count(f9), count(f11), count(f12), count(f13), count(*), min(f4)
FROM mm.parquet_append_table;
SELECT count(f1), count(f2), count(f3), count(f4), count(f5), count(f6), count(f7), count(f8),
       count(f9), count(f11), count(f12), count(f13), count(*), min(f4)
FROM mm.parquet_append_table;
SELECT count(f1), count(f2), count(f3), count(f4), count(f5), count(f6), count(f7), count(f8),
       count(f9), count(f11), count(f12), count(f13), count(*), min(f4)
FROM (SELECT * FROM mm.parquet_append_table OFFSET 0) s;
EXPLAIN (COSTS OFF) SELECT count(f10) FROM mm.parquet_append_table;
-- a column added later (e) counts only the rows of newer files
EXPLAIN (COSTS OFF) SELECT count(e), count(a), count(k) FROM mm.append_table_with_alter_table;
SELECT count(e), count(a), count(k) FROM mm.append_table_with_alter_table;
SELECT count(e), count(a), count(k) FROM (SELECT * FROM mm.append_table_with_alter_table OFFSET 0) s;
-- an evolved type (f1 INT -> BIGINT), a primary-key table: not from the metadata
EXPLAIN (COSTS OFF) SELECT count(f1) FROM mm.append_with_bitmap_alter_table;
SELECT count(f1) FROM mm.append_with_bitmap_alter_table;
EXPLAIN (COSTS OFF) SELECT count(f2) FROM mm.pk_09;

SET client_min_messages = warning;
DROP SCHEMA mm CASCADE;
DROP SERVER mmpq;
