-- Parallel partial aggregation computed on batches (agg_pushdown.c): the
-- partial stage of a parallel plan is a Parallel Foreign Scan whose
-- participants each aggregate the units (files, row groups) they claim and
-- return Postgres' transition states to a Finalize Aggregate. Every
-- result is compared with Postgres' own aggregation of the same rows
-- (paimon_fdw.enable_aggregate_pushdown = off), with and without the
-- leader taking part, for every aggregate and column type of the corpus
-- tables and of tables of many small row groups written at test time
-- (test/oracle/pushdown/make_tables.py: rg_parquet, rg_orc, rg_pk with
-- deletion vectors, rg_mor merged on read).
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
\set wh `pwd`/results/agg_parallel_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/agg_parallel_wh rg_parquet rg_orc rg_pk rg_mor`
SELECT :'out' AS make_tables;
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
SELECT :'corpus' || '/tables/orc' AS orc_wh \gset
SELECT :'corpus' || '/tables/avro' AS avro_wh \gset
CREATE SERVER apw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SERVER appq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SERVER aporc FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'orc_wh');
CREATE SERVER apavro FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'avro_wh');
CREATE SCHEMA ap;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER apw INTO ap;
IMPORT FOREIGN SCHEMA "parquet_append_table" FROM SERVER appq INTO ap;
IMPORT FOREIGN SCHEMA "append_table_with_alter_table" FROM SERVER appq INTO ap;
IMPORT FOREIGN SCHEMA "append_with_empty_partition" FROM SERVER appq INTO ap;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER appq INTO ap;
IMPORT FOREIGN SCHEMA "pk_09" FROM SERVER appq INTO ap;
IMPORT FOREIGN SCHEMA "pk_table_scan_and_read_dv" FROM SERVER appq INTO ap;
IMPORT FOREIGN SCHEMA "multi_partition_append_table" FROM SERVER aporc INTO ap;
IMPORT FOREIGN SCHEMA "pk_table_with_total_buckets" FROM SERVER aporc INTO ap;
IMPORT FOREIGN SCHEMA "append_multiple" FROM SERVER apavro INTO ap;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET max_parallel_workers_per_gather = 2;
SET paimon_fdw.parallel_split_size = '1kB';

-- 'partial' (pushed into a Parallel Foreign Scan), 'serial' (pushed, one
-- process) or 'not pushed', and 'same' when the rows equal those of
-- Postgres' own aggregation (pushdown off, same parallel settings).
-- (Not sql/include/agg_compare.sql: that knows no partial pushdown and
-- turns enable_sort off, which would change the parallel plans here.)
CREATE FUNCTION par_agg(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	how text := 'not pushed';
	l text;
	on_rows text;
	off_rows text;
BEGIN
	PERFORM set_config('paimon_fdw.enable_aggregate_pushdown', 'on', true);
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%Aggregate Pushdown:%partial per worker%' THEN how := 'partial';
		ELSIF l LIKE '%Aggregate Pushdown%' AND how = 'not pushed' THEN how := 'serial';
		END IF;
	END LOOP;
	EXECUTE 'SELECT string_agg(r::text, '';'' ORDER BY r::text) FROM (' || q || ') r' INTO on_rows;
	PERFORM set_config('paimon_fdw.enable_aggregate_pushdown', 'off', true);
	EXECUTE 'SELECT string_agg(r::text, '';'' ORDER BY r::text) FROM (' || q || ') r' INTO off_rows;
	PERFORM set_config('paimon_fdw.enable_aggregate_pushdown', 'on', true);
	RETURN how || ', ' ||
		CASE WHEN on_rows IS NOT DISTINCT FROM off_rows THEN 'same'
			 ELSE 'DIFFERENT: ' || coalesce(on_rows, '<none>') || ' <> ' || coalesce(off_rows, '<none>') END;
END $$;

\i sql/include/sweep.sql

-- Every aggregate (count, sum, avg, min, max) of every column, alone and
-- grouped by every groupable column: how many queries were pushed as
-- partial aggregates, and every one whose result differs. Float sums and
-- averages are rounded: the participants add up their shares in an order
-- that depends on who claimed what, as Postgres' own do.
CREATE FUNCTION par_sweep(t regclass, OUT queries int, OUT partial int, OUT different text)
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	aggs text[] := '{}';
	keys text[] := '{}';
BEGIN
	FOR c IN SELECT quote_ident(attname) AS n, atttypid::regtype::text AS ty, atttypmod AS tm
			 FROM pg_attribute WHERE attrelid = t AND attnum > 0 AND NOT attisdropped ORDER BY attnum LOOP
		IF c.ty IN ('smallint', 'integer', 'bigint', 'numeric') THEN
			aggs := aggs || format('count(%1$s), sum(%1$s), avg(%1$s), min(%1$s), max(%1$s)', c.n);
		ELSIF c.ty IN ('real', 'double precision') THEN
			aggs := aggs || format('count(%1$s), round(sum(%1$s)::numeric, 3), round(avg(%1$s)::numeric, 3), min(%1$s), max(%1$s)', c.n);
		ELSIF c.ty IN ('date', 'timestamp without time zone',
					   'timestamp with time zone', 'text') THEN
			aggs := aggs || format('count(%1$s), min(%1$s), max(%1$s)', c.n);
		ELSIF c.ty = 'boolean' THEN
			aggs := aggs || format('count(%1$s), bool_and(%1$s), bool_or(%1$s), every(%1$s)', c.n);
		ELSE
			aggs := aggs || format('count(%s)', c.n);
		END IF;
		IF c.ty IN ('boolean', 'smallint', 'integer', 'bigint', 'date',
					'timestamp without time zone', 'timestamp with time zone')
		   OR (c.ty = 'numeric' AND ((c.tm - 4) >> 16) <= 18) THEN
			keys := keys || c.n;
		END IF;
	END LOOP;
	SELECT * INTO queries, partial, different
	FROM sweep_run(sweep_agg_queries(t, aggs, keys), 'par_agg', 'partial');
END $$;

SELECT c.oid::regclass AS tbl, s.*
FROM pg_class c, par_sweep(c.oid) s
WHERE c.relnamespace = 'ap'::regnamespace AND c.relkind = 'f'
ORDER BY c.relname;

-- the leader not taking part: the workers share every unit
SET parallel_leader_participation = off;
SELECT c.oid::regclass AS tbl, s.*
FROM pg_class c, par_sweep(c.oid) s
WHERE c.relnamespace = 'ap'::regnamespace AND c.relkind = 'f' AND c.relname LIKE 'rg%'
ORDER BY c.relname;
RESET parallel_leader_participation;

-- bool_and / bool_or: the partial state is the boolean itself
SELECT par_agg('SELECT bool_and(f1), every(f1), bool_or(f1), count(*) FROM ap.parquet_append_table');

-- the plan: Finalize Aggregate over the participants' transition states
EXPLAIN (COSTS OFF) SELECT count(*), sum(n), avg(n), avg(x), min(s), max(ts) FROM ap.rg_parquet;
SELECT count(*), sum(n), avg(n), avg(x), min(s), max(ts) FROM ap.rg_parquet;
SELECT count(*), sum(n), avg(n), min(s), max(ts) FROM ap.rg_parquet WHERE id >= 2500;
EXPLAIN (COSTS OFF) SELECT g, count(*), sum(n), max(x) FROM ap.rg_parquet GROUP BY g;
SELECT g, count(*), sum(n), max(x) FROM ap.rg_parquet WHERE g % 7 = 3 GROUP BY g ORDER BY g;
-- HAVING and expressions over aggregates run in the Finalize Aggregate
SELECT par_agg('SELECT g, sum(n) FROM ap.rg_parquet GROUP BY g HAVING sum(n) > 100000');
SELECT par_agg('SELECT sum(n) * 2 + count(*) FROM ap.rg_orc');
-- WHERE evaluated on batches; no row passes: one partial row per
-- participant (count 0, NULL states), count 0 and NULLs at the end
SELECT par_agg('SELECT count(*), sum(n), min(dt) FROM ap.rg_pk WHERE n > 2500');
SELECT par_agg('SELECT count(*), sum(n), avg(n), min(dt) FROM ap.rg_parquet WHERE n = 1500');
SELECT count(*), sum(n), avg(n), avg(x), min(dt) FROM ap.rg_parquet WHERE n = 1500;
SELECT par_agg('SELECT g, count(*), avg(x) FROM ap.rg_parquet WHERE n = 1500 GROUP BY g');
-- NULL inputs: count 0 and NULL sum within a group of only NULLs
SELECT g, count(n), sum(n), avg(n) FROM ap.rg_parquet WHERE g BETWEEN 9 AND 11 GROUP BY g ORDER BY g;
-- merged on read (primary key, two sorted runs): the updated rows count once
SELECT par_agg('SELECT count(*), sum(n), min(x), max(x) FROM ap.rg_mor');
SELECT count(*), sum(n), min(x), max(x) FROM ap.rg_mor;
-- sum/avg of bigint and numeric: Postgres' "internal" states, serialized
-- by numeric.c from states its own functions build
EXPLAIN (COSTS OFF) SELECT sum(m), avg(d) FROM ap.rg_parquet;
SELECT par_agg('SELECT sum(m), avg(d), avg(m), sum(d) FROM ap.rg_orc');
SELECT sum(m), avg(d) FROM ap.rg_parquet;
-- bigint sums beyond the range of bigint, of either sign, per participant
-- and in total (a table of three commits, one data file each)
SELECT current_setting('data_directory') || '/agg_parallel_wide' AS wide_wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wide_wh' AS rm_wide \gset
COPY (SELECT 1) TO PROGRAM :'rm_wide';
CREATE SERVER apwide FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wide_wh');
SELECT paimon_create_database('apwide', 'db');
SELECT paimon_create_table('apwide', 'db', 'wide', 'g INT, v BIGINT, w BIGINT',
						   foreign_table => 'ap.wide');
INSERT INTO ap.wide SELECT i % 3, 9223372036854775807 - i, -9223372036854775807 + i
  FROM generate_series(1, 1000) i;
INSERT INTO ap.wide SELECT i % 3, 9223372036854774000 + i, -9223372036854774000 - i
  FROM generate_series(1, 1000) i;
INSERT INTO ap.wide SELECT i % 3, i, CASE WHEN i % 2 = 0 THEN NULL ELSE -i END
  FROM generate_series(1, 1000) i;
SELECT par_agg('SELECT sum(v), avg(v), sum(w), avg(w), count(w) FROM ap.wide');
SELECT par_agg('SELECT g, sum(v), avg(v), sum(w), avg(w) FROM ap.wide GROUP BY g');
SELECT sum(v), avg(v), sum(w), avg(w) FROM ap.wide;
-- a NaN in one participant's share makes the combined float sum NaN
SELECT par_agg('SELECT sum(x), avg(x) FROM ap.rg_orc');
-- the GUC off: Postgres' own partial aggregation
SET paimon_fdw.enable_aggregate_pushdown = off;
EXPLAIN (COSTS OFF) SELECT count(*), sum(n) FROM ap.rg_parquet;
RESET paimon_fdw.enable_aggregate_pushdown;
-- a rescan of the parallel plan (the inner side of a nested loop)
SELECT v.g, x.s FROM (VALUES (1), (2)) v(g),
  LATERAL (SELECT sum(n) + v.g AS s FROM ap.rg_parquet) x ORDER BY v.g;

SET client_min_messages = warning;
DROP SCHEMA ap CASCADE;
DROP SERVER apw, appq, aporc, apavro, apwide;
DROP FUNCTION par_sweep(regclass), par_agg(text);
DROP FUNCTION sweep_agg_queries(regclass, text[], text[]), sweep_run(text[], text, text);
