-- Aggregates computed on column batches inside paimon_fdw (agg_pushdown.c):
-- every result is compared with Postgres' own aggregation of the same rows
-- (paimon_fdw.enable_aggregate_pushdown = off), for every aggregate and
-- column type of the corpus tables, grouped by every groupable column.
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
SELECT :'corpus' || '/tables/orc' AS orc_wh \gset
SELECT :'corpus' || '/tables/avro' AS avro_wh \gset
SELECT :'corpus' || '/tables/mixed' AS mixed_wh \gset
CREATE SERVER agpq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SERVER agorc FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'orc_wh');
CREATE SERVER agavro FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'avro_wh');
CREATE SERVER agmixed FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'mixed_wh');
CREATE SCHEMA ag;
IMPORT FOREIGN SCHEMA "parquet_append_table" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "append_complex_data" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "append_table_with_alter_table" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "append_with_empty_partition" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "append_with_multiple_ts_precision_and_timezone" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "append_with_bsi" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "pk_09" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "pk_table_scan_and_read_dv" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "pk_table_partial_update" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "pk_table_with_alter_table" FROM SERVER agpq INTO ag;
IMPORT FOREIGN SCHEMA "multi_partition_append_table" FROM SERVER agorc INTO ag;
IMPORT FOREIGN SCHEMA "append_table_with_alter_table_with_dense_field" FROM SERVER agorc INTO ag;
IMPORT FOREIGN SCHEMA "pk_table_with_total_buckets" FROM SERVER agorc INTO ag;
IMPORT FOREIGN SCHEMA "pk_with_multiple_type" FROM SERVER agavro INTO ag;
IMPORT FOREIGN SCHEMA "append_multiple" FROM SERVER agavro INTO ag;
IMPORT FOREIGN SCHEMA "append_table_with_multiple_file_format" FROM SERVER agmixed INTO ag;

\i sql/include/agg_compare.sql

\i sql/include/sweep.sql

-- Every aggregate of every column, alone and grouped by every groupable
-- column (and by the first two together): how many queries were pushed,
-- and every one whose result differs from Postgres' own.
CREATE FUNCTION agg_sweep(t regclass, OUT queries int, OUT pushed int, OUT different text)
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	aggs text[] := '{}';
	keys text[] := '{}';
BEGIN
	FOR c IN SELECT quote_ident(attname) AS n, atttypid::regtype::text AS ty, atttypmod AS tm
			 FROM pg_attribute WHERE attrelid = t AND attnum > 0 AND NOT attisdropped ORDER BY attnum LOOP
		IF c.ty IN ('smallint', 'integer', 'bigint', 'real', 'double precision', 'numeric') THEN
			aggs := aggs || format('count(%1$s), sum(%1$s), avg(%1$s), min(%1$s), max(%1$s)', c.n);
		ELSIF c.ty IN ('date', 'timestamp without time zone', 'timestamp with time zone', 'text') THEN
			aggs := aggs || format('count(%1$s), min(%1$s), max(%1$s)', c.n);
		ELSIF c.ty = 'boolean' THEN
			aggs := aggs || format('count(%1$s), bool_and(%1$s), bool_or(%1$s), every(%1$s)', c.n);
		ELSE
			aggs := aggs || format('count(%s)', c.n);
		END IF;
		IF c.ty IN ('boolean', 'smallint', 'integer', 'bigint', 'date', 'text',
					'timestamp without time zone', 'timestamp with time zone')
		   OR (c.ty = 'numeric' AND ((c.tm - 4) >> 16) <= 18) THEN
			keys := keys || c.n;
		END IF;
	END LOOP;
	SELECT * INTO queries, pushed, different
	FROM sweep_run(sweep_agg_queries(t, aggs, keys), 'agg_compare', 'pushed');
END $$;

SELECT c.oid::regclass AS tbl, s.*
FROM pg_class c, agg_sweep(c.oid) s
WHERE c.relnamespace = 'ag'::regnamespace AND c.relkind = 'f'
ORDER BY c.relname;

-- min/max of text only under the "C" collation (bytes order)
EXPLAIN (COSTS OFF) SELECT min(f8), max(f8 COLLATE "C") FROM ag.parquet_append_table;
SELECT min(f8), max(f8) FROM ag.parquet_append_table;
EXPLAIN (COSTS OFF) SELECT max(f8 COLLATE "und-x-icu") FROM ag.parquet_append_table;

-- what EXPLAIN shows, and result types as Postgres' aggregates give them
EXPLAIN (COSTS OFF)
SELECT f1, count(*), sum(f2), sum(f4), sum(f5), avg(f6), sum(f7), min(f11), max(f13)
FROM ag.parquet_append_table GROUP BY f1;
SELECT f1, count(*), sum(f2), sum(f4), sum(f5), avg(f6), sum(f7), min(f11), max(f13)
FROM ag.parquet_append_table GROUP BY f1 ORDER BY f1;
SELECT pg_typeof(sum(f2)), pg_typeof(sum(f4)), pg_typeof(sum(f5)), pg_typeof(sum(f6)),
       pg_typeof(avg(f4)), pg_typeof(avg(f6)), pg_typeof(sum(f13)), pg_typeof(avg(f13))
FROM ag.parquet_append_table;
-- decimal(23,5) sum keeps the scale; avg is numeric_div(sum, count)
SELECT sum(f5), avg(f5), min(f5), max(f5) FROM ag.append_complex_data;
-- bool_and, every and bool_or: min and max of a boolean (f1); NULLs and
-- groups of only NULLs: agg_decode.sql
EXPLAIN (COSTS OFF)
SELECT f2, bool_and(f1), every(f1), bool_or(f1) FROM ag.parquet_append_table GROUP BY f2;
SELECT q, agg_compare(q) FROM (VALUES
  ('SELECT f2, bool_and(f1), every(f1), bool_or(f1), count(f1) FROM ag.parquet_append_table GROUP BY f2'),
  ('SELECT bool_and(f1), bool_or(f1) FROM ag.parquet_append_table WHERE f1'),
  ('SELECT bool_and(f1), bool_or(f1) FROM ag.parquet_append_table WHERE NOT f1'),
  ('SELECT bool_and(f1), bool_or(f1) FROM ag.parquet_append_table WHERE f4 > 999999'),
  ('SELECT f1, bool_and(f3 IS NULL) FROM ag.parquet_append_table GROUP BY f1')
) v(q);
SELECT f1, bool_and(f1), bool_or(NOT f1) FROM ag.parquet_append_table GROUP BY f1 ORDER BY f1;
-- a primary-key table aggregates the merged rows
EXPLAIN (COSTS OFF) SELECT f1, count(*), sum(f3) FROM ag.pk_09 GROUP BY f1;
SELECT f1, count(*), sum(f3) FROM ag.pk_09 GROUP BY f1 ORDER BY f1;
-- NULL keys form one group; all-NULL inputs give count 0 and NULL sums
SELECT d, count(*), count(e), sum(e), avg(e), min(e) FROM ag.append_table_with_alter_table
GROUP BY d ORDER BY d;
SELECT agg_compare('SELECT d, count(*), count(e), sum(e), avg(e), min(e)
                    FROM ag.append_table_with_alter_table GROUP BY d');
-- a grouping key that is not selected
SELECT agg_compare('SELECT count(*), sum(f4) FROM ag.parquet_append_table GROUP BY f2');

-- WHERE clauses the core evaluates exactly on the rows (every qual
-- translated exactly, constants only): pushed, with pruning
SELECT q, agg_compare(q) FROM (VALUES
  ('SELECT count(*), sum(f4), avg(f6), max(f8) FROM ag.parquet_append_table WHERE f2 > 33'),
  ('SELECT count(*), sum(f5) FROM ag.parquet_append_table WHERE f4 BETWEEN 300003 AND 300007'),
  ('SELECT count(*), sum(f4) FROM ag.parquet_append_table WHERE f1'),
  ('SELECT count(*), sum(f4) FROM ag.parquet_append_table WHERE NOT f1'),
  ('SELECT count(*), sum(f7) FROM ag.parquet_append_table WHERE f6 < 3.5'),
  ('SELECT count(*), sum(f6) FROM ag.parquet_append_table WHERE f7 >= 300.000000005'),
  ('SELECT count(*), sum(f13) FROM ag.parquet_append_table WHERE f13 IN (0.91, 0.95, 0.99)'),
  ('SELECT count(*), sum(f13) FROM ag.parquet_append_table WHERE f13 <> 0.95'),
  ('SELECT count(*), min(f8) FROM ag.parquet_append_table WHERE f8 = ''s35'''),
  ('SELECT count(*), min(f8) FROM ag.parquet_append_table WHERE f8 > ''s35'''),
  ('SELECT count(*), min(f8) FROM ag.parquet_append_table WHERE f8 LIKE ''s3%'''),
  ('SELECT count(*), min(f11) FROM ag.parquet_append_table WHERE f11 < ''1970-01-01 00:00:00.000075'''),
  ('SELECT count(*), max(f12) FROM ag.parquet_append_table WHERE f12 >= ''1970-03-27'''),
  ('SELECT count(*), sum(f4) FROM ag.parquet_append_table WHERE f2 > 37 OR f5 < 3000000003'),
  ('SELECT count(*), sum(f2) FROM ag.parquet_append_table WHERE f3 IS NULL'),
  ('SELECT count(*), sum(f2) FROM ag.parquet_append_table WHERE f3 IS NOT NULL AND f4 <> 300005'),
  ('SELECT count(*), sum(f4) FROM ag.parquet_append_table WHERE f4 > 3000000000'),
  ('SELECT f1, count(*), sum(f4), avg(f7) FROM ag.parquet_append_table WHERE f2 >= 33 GROUP BY f1'),
  ('SELECT f2, count(*), sum(f3) FROM ag.append_09 WHERE f1 = 10 GROUP BY f2'),
  ('SELECT f1, count(*), sum(f3) FROM ag.pk_09 WHERE f3 > 12 GROUP BY f1'),
  ('SELECT f1, count(*), max(f3) FROM ag.append_with_empty_partition WHERE f0 IS NULL GROUP BY f1')
) v(q);
-- no row passes: count 0, sum/avg/min NULL; with GROUP BY no group
SELECT count(*), count(f4), sum(f4), avg(f5), min(f8) FROM ag.parquet_append_table WHERE f4 > 999999;
SELECT f1, count(*) FROM ag.parquet_append_table WHERE f4 > 999999 GROUP BY f1;
EXPLAIN (COSTS OFF) SELECT count(*), sum(f2) FROM ag.append_09 WHERE f1 = 10 AND f3 > 12.5;
-- a qual kept only approximately (LIKE with an inner wildcard: a prefix
-- range), an untranslatable one, a run-time value: Postgres aggregates
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag.parquet_append_table WHERE f8 LIKE 's_5%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM ag.parquet_append_table WHERE f4 + 1 > 3;
PREPARE agq(int) AS SELECT count(*), sum(f4) FROM ag.parquet_append_table WHERE f2 > $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE agq(33);
EXECUTE agq(33);
RESET plan_cache_mode;
DEALLOCATE agq;

-- not pushed: HAVING, an expression in or over an aggregate,
-- DISTINCT/FILTER, a text key, the GUC off
EXPLAIN (COSTS OFF) SELECT f1, sum(f4) FROM ag.parquet_append_table GROUP BY f1 HAVING sum(f4) > 0;
EXPLAIN (COSTS OFF) SELECT sum(f4 + 1) FROM ag.parquet_append_table;
EXPLAIN (COSTS OFF) SELECT sum(f4) + 1 FROM ag.parquet_append_table;
EXPLAIN (COSTS OFF) SELECT sum(DISTINCT f4), count(*) FILTER (WHERE f1) FROM ag.parquet_append_table;
EXPLAIN (COSTS OFF) SELECT f8, count(*) FROM ag.parquet_append_table GROUP BY f8;
SET paimon_fdw.enable_aggregate_pushdown = off;
EXPLAIN (COSTS OFF) SELECT sum(f4) FROM ag.parquet_append_table;
RESET paimon_fdw.enable_aggregate_pushdown;

-- in a join's inner side the aggregate is computed once per rescan
SELECT g, s FROM (VALUES (1), (2)) v(g),
  LATERAL (SELECT sum(f4) AS s FROM ag.parquet_append_table) x ORDER BY g;

SET client_min_messages = warning;
DROP SCHEMA ag CASCADE;
DROP SERVER agpq, agorc, agavro, agmixed;
DROP FUNCTION agg_sweep(regclass), agg_compare(text);
DROP FUNCTION sweep_agg_queries(regclass, text[], text[]), sweep_run(text[], text, text);
