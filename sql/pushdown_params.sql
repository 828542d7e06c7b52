-- More pushed-down shapes (LIKE prefixes, IN / NOT IN arrays, boolean
-- columns, NOT, BETWEEN, widening casts, date vs timestamp) and run-time
-- values (parameters of generic plans, initplans, outer rows): each prunes
-- what it must and returns the rows a heap copy of the table returns.
-- The table is written at test time by Java Paimon (test/oracle/pushdown/):
-- pd.pr, partition p = 0..3, one file each; file c holds k, s in
-- [100c, 100c+9], names apple*, apricot*, banana*, été*, dt in month c+1 of
-- 2021, flag = (c is even), bin = 0xc0+c, 0xff, i.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
\set wh `pwd`/results/pushdown_params_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/pushdown_params_wh pr`
SELECT :'out' AS make_tables;
CREATE SERVER pdp FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SCHEMA pd;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER pdp INTO pd;
CREATE TABLE heap_pr AS SELECT * FROM pd.pr;
SELECT count(*) FROM heap_pr;

-- rows of the Paimon table vs the heap copy, and what EXPLAIN says was pushed
CREATE FUNCTION pd.check(cond text, OUT nrows bigint, OUT same_as_heap bool,
                         OUT pushed text, OUT data_files text)
LANGUAGE plpgsql AS $$
DECLARE a text; b text; line text;
BEGIN
  EXECUTE 'SELECT string_agg(id::text, '','' ORDER BY id) FROM pd.pr WHERE ' || cond INTO a;
  EXECUTE 'SELECT string_agg(id::text, '','' ORDER BY id) FROM heap_pr WHERE ' || cond INTO b;
  EXECUTE 'SELECT count(*) FROM pd.pr WHERE ' || cond INTO nrows;
  same_as_heap := a IS NOT DISTINCT FROM b;
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) SELECT * FROM pd.pr WHERE ' || cond LOOP
    IF line LIKE '%Pushed Filters:%' THEN pushed := split_part(line, ': ', 2); END IF;
    IF line LIKE '%Data Files:%' THEN data_files := split_part(line, ': ', 2); END IF;
  END LOOP;
END $$;

-- LIKE with a literal prefix: the byte range of the prefix
SELECT * FROM pd.check($$name LIKE 'ap%'$$);
SELECT * FROM pd.check($$name LIKE 'apr%'$$);
SELECT * FROM pd.check($$name LIKE 'b_n%'$$);
SELECT * FROM pd.check($$name LIKE 'été_'$$);
SELECT * FROM pd.check($$name LIKE 'apple7'$$);
SELECT * FROM pd.check($$name LIKE 'ap\%%'$$);
SELECT * FROM pd.check($$name LIKE 'ba!%%' ESCAPE '!'$$);
SELECT * FROM pd.check($$name LIKE '%5'$$);
SELECT * FROM pd.check($$name NOT LIKE 'ap%'$$);
-- LIKE matches bytes under any deterministic collation (ranges do not)
CREATE COLLATION pd.en (provider = icu, locale = 'en-US');
SELECT * FROM pd.check($$name LIKE 'ban%' COLLATE pd.en$$);
SELECT * FROM pd.check($$name >= 'b' COLLATE pd.en$$);
-- bytes: a prefix ending in 0xff has its successor one byte shorter; all 0xff: only >=
SELECT * FROM pd.check($$bin LIKE '\xc1ff25'::bytea$$);
SELECT * FROM pd.check($$bin LIKE '\xff25'::bytea$$);
-- IN and NOT IN with constant arrays
SELECT * FROM pd.check($$k = ANY('{5,305,1000}'::int[])$$);
SELECT * FROM pd.check($$k IN (105, 106)$$);
SELECT * FROM pd.check($$k NOT IN (105, 106)$$);
SELECT * FROM pd.check($$k <> ALL('{105,NULL}'::int[])$$);
SELECT * FROM pd.check($$name IN ('banana3', 'zzz')$$);
-- boolean columns and NOT
SELECT * FROM pd.check($$flag$$);
SELECT * FROM pd.check($$NOT flag$$);
SELECT * FROM pd.check($$flag IS FALSE$$);
SELECT * FROM pd.check($$flag IS NOT TRUE$$);
SELECT * FROM pd.check($$flag IS UNKNOWN$$);
SELECT * FROM pd.check($$NOT (k < 300)$$);
SELECT * FROM pd.check($$NOT (k = 5 OR p = 1)$$);
SELECT * FROM pd.check($$NOT (k IS NULL)$$);
-- BETWEEN: two comparisons
SELECT * FROM pd.check($$k BETWEEN 100 AND 205$$);
SELECT * FROM pd.check($$k NOT BETWEEN 100 AND 399$$);
-- widening casts on the column and cross-type integer operators
SELECT * FROM pd.check($$k::bigint = 105$$);
SELECT * FROM pd.check($$s::int >= 300$$);
SELECT * FROM pd.check($$s::bigint BETWEEN 200 AND 305$$);
SELECT * FROM pd.check($$s = 70000::bigint$$);
SELECT * FROM pd.check($$s < 70000::bigint$$);
-- a cast that changes the order or the value is not pushed
SELECT * FROM pd.check($$k::text = '105'$$);
SELECT * FROM pd.check($$s::numeric > 300.5$$);
-- date vs timestamp: midnight of the date; not timestamptz (depends on the zone)
SELECT * FROM pd.check($$dt >= '2021-03-01 00:00'::timestamp$$);
SELECT * FROM pd.check($$dt < '2021-02-05 12:00'::timestamp$$);
SELECT * FROM pd.check($$dt > '2021-02-05 12:00'::timestamp$$);
SELECT * FROM pd.check($$dt = '2021-02-05 12:00'::timestamp$$);
SELECT * FROM pd.check($$dt = '2021-02-05 00:00'::timestamp$$);
SELECT * FROM pd.check($$dt < '1900-01-01 00:00:00.5'::timestamp$$);
SELECT * FROM pd.check($$ts < '2021-02-01'::date$$);
SELECT * FROM pd.check($$ts >= '2021-04-10'::date$$);
SELECT * FROM pd.check($$dt < '2021-02-05 12:00+00'::timestamptz$$);
SELECT * FROM pd.check($$ts < '2021-02-01'::date + 0$$);

-- many more constants, each compared with the heap copy (wrong lists the
-- conditions whose rows differ; none may)
CREATE FUNCTION pd.differs(cond text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE a text; b text;
BEGIN
  EXECUTE 'SELECT string_agg(id::text, '','' ORDER BY id) FROM pd.pr WHERE ' || cond INTO a;
  EXECUTE 'SELECT string_agg(id::text, '','' ORDER BY id) FROM heap_pr WHERE ' || cond INTO b;
  RETURN a IS DISTINCT FROM b;
END $$;
WITH ops(op) AS (VALUES ('='), ('<>'), ('<'), ('<='), ('>'), ('>=')),
ints(v) AS (SELECT unnest('{-1,0,5,9,10,99,100,205,309,310,1000,70000}'::int[])),
stamps(t) AS (SELECT unnest(ARRAY['2020-12-31 12:00', '2021-01-01 00:00', '2021-01-10 23:59:59.999999',
  '2021-01-11 00:00', '2021-01-11 00:00:00.000001', '2021-04-10 06:00', '2021-04-10 12:00',
  '1999-12-31 23:59:59.5', '2021-04-11 00:00', '2021-02-01 12:00', '2021-03-01 00:00:00.5'])),
dates(d) AS (SELECT unnest(ARRAY['2020-12-31', '2021-01-01', '2021-01-10', '2021-01-11',
  '2021-04-10', '2021-04-11'])),
pats(pat) AS (SELECT unnest(ARRAY['a%', 'ap%', 'app%', 'apple1%', 'apple1_', 'apple', 'apple1',
  'apricot9%', 'b%', 'banana%', 'c%', 'é%', 'ét%', 'été_', '_pple%', '%', '', 'z%', 'apr_cot%',
  'ap\%', 'a\pple1'])),
conds(c) AS (
  SELECT format('k %s %s', op, v) FROM ops, ints
  UNION ALL SELECT format('k::bigint %s %s::bigint', op, v) FROM ops, ints
  UNION ALL SELECT format('s %s %s::bigint', op, v) FROM ops, ints
  UNION ALL SELECT format('s::int %s %s', op, v) FROM ops, ints
  UNION ALL SELECT format('NOT (k %s %s)', op, v) FROM ops, ints
  UNION ALL SELECT format('dt %s %L::timestamp', op, t) FROM ops, stamps
  UNION ALL SELECT format('ts %s %L::date', op, d) FROM ops, dates
  UNION ALL SELECT format('flag %s %s', op, b) FROM ops, (VALUES ('true'), ('false')) b(b)
  UNION ALL SELECT format('name LIKE %L', pat) FROM pats
  UNION ALL SELECT format('name LIKE %L COLLATE pd.en', pat) FROM pats
  UNION ALL SELECT format('k BETWEEN %s AND %s', a.v, b.v) FROM ints a, ints b
  UNION ALL SELECT format('k IN (%s, %s)', a.v, b.v) FROM ints a, ints b
  UNION ALL SELECT format('k NOT IN (%s, %s)', a.v, b.v) FROM ints a, ints b)
SELECT count(*) AS conditions, coalesce(array_agg(c) FILTER (WHERE pd.differs(c)), '{}') AS wrong
  FROM conds;

-- run-time values: a generic plan's parameters are pushed when the scan runs
SET plan_cache_mode = force_generic_plan;
PREPARE q_ge(int) AS SELECT count(*) FROM pd.pr WHERE k >= $1;
EXPLAIN (COSTS OFF) EXECUTE q_ge(300);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q_ge(300);
EXECUTE q_ge(0);
EXECUTE q_ge(300);
EXECUTE q_ge(309);
EXECUTE q_ge(1000);
EXECUTE q_ge(NULL);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q_ge(NULL);
PREPARE q_part(int, bigint) AS SELECT id FROM pd.pr WHERE p = $1 AND k::bigint <= $2 ORDER BY id;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q_part(1, 102);
EXECUTE q_part(1, 102);
EXECUTE q_part(3, 1000);
EXECUTE q_part(2, 0);
PREPARE q_like(text) AS SELECT count(*) FROM pd.pr WHERE name LIKE $1;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q_like('ban%');
EXECUTE q_like('ban%');
EXECUTE q_like('a%');
EXECUTE q_like('%9');
PREPARE q_any(int[]) AS SELECT id FROM pd.pr WHERE k = ANY($1) ORDER BY id;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q_any('{1,201}');
EXECUTE q_any('{1,201}');
EXECUTE q_any('{}');
EXECUTE q_any(NULL);
EXECUTE q_any('{309,NULL}');
PREPARE q_arr(int, int) AS SELECT id FROM pd.pr WHERE k IN ($1, $2) ORDER BY id;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q_arr(2, 3);
EXECUTE q_arr(2, 3);
EXECUTE q_arr(NULL, 105);
PREPARE q_ts(timestamp) AS SELECT count(*) FROM pd.pr WHERE dt < $1;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q_ts('2021-02-05 12:00');
EXECUTE q_ts('2021-02-05 12:00');
PREPARE q_tz(timestamptz) AS SELECT count(*) FROM pd.pr WHERE dt < $1;
EXPLAIN (COSTS OFF) EXECUTE q_tz('2021-02-05 12:00+00');
EXECUTE q_tz('2021-02-05 12:00+00');
-- a PL/pgSQL variable is a parameter too
CREATE FUNCTION pd.count_from(lo int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  SELECT count(*) INTO n FROM pd.pr WHERE k >= lo AND name LIKE 'b%';
  RETURN n;
END $$;
SELECT pd.count_from(0), pd.count_from(205), pd.count_from(300);
-- and many values of each parameterized shape, compared with the heap copy
CREATE FUNCTION pd.param_mismatches() RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE v int; v8 bigint; t timestamp; d date; pat text; arr int[]; bv bool;
  wrong text[] := '{}';
BEGIN
  FOR v IN SELECT unnest('{-1,0,5,9,10,99,100,205,309,310,1000,70000}'::int[]) LOOP
    v8 := v;
    arr := ARRAY[v, v + 101];
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE k < v) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE k < v) THEN
      wrong := wrong || ('k < ' || v); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE k = v) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE k = v) THEN
      wrong := wrong || ('k = ' || v); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE k <> v) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE k <> v) THEN
      wrong := wrong || ('k <> ' || v); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE s >= v8) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE s >= v8) THEN
      wrong := wrong || ('s >= ' || v8); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE k::bigint > v8) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE k::bigint > v8) THEN
      wrong := wrong || ('k::bigint > ' || v8); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE k = ANY(arr)) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE k = ANY(arr)) THEN
      wrong := wrong || ('k = ANY ' || arr::text); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE k <> ALL(arr)) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE k <> ALL(arr)) THEN
      wrong := wrong || ('k <> ALL ' || arr::text); END IF;
  END LOOP;
  FOR t IN SELECT unnest(ARRAY['2020-12-31 12:00', '2021-01-10 23:59:59.999999', '2021-01-11 00:00',
      '2021-01-11 00:00:00.000001', '2021-04-10 12:00', '1999-12-31 23:59:59.5',
      '2021-02-01 12:00']::timestamp[]) LOOP
    d := t::date;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE dt < t) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE dt < t) THEN
      wrong := wrong || ('dt < ' || t); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE dt >= t) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE dt >= t) THEN
      wrong := wrong || ('dt >= ' || t); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE dt <= t) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE dt <= t) THEN
      wrong := wrong || ('dt <= ' || t); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE dt = t) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE dt = t) THEN
      wrong := wrong || ('dt = ' || t); END IF;
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE ts <= d) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE ts <= d) THEN
      wrong := wrong || ('ts <= ' || d); END IF;
  END LOOP;
  FOR pat IN SELECT unnest(ARRAY['a%', 'app%', 'apple1_', 'apple1', 'b%', 'é%', 'été_', '%', '', 'ap\%']) LOOP
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE name LIKE pat) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE name LIKE pat) THEN
      wrong := wrong || ('name LIKE ' || pat); END IF;
  END LOOP;
  FOREACH bv IN ARRAY ARRAY[true, false] LOOP
    IF (SELECT string_agg(id::text, ',' ORDER BY id) FROM pd.pr WHERE flag = bv) IS DISTINCT FROM
       (SELECT string_agg(id::text, ',' ORDER BY id) FROM heap_pr WHERE flag = bv) THEN
      wrong := wrong || ('flag = ' || bv); END IF;
  END LOOP;
  RETURN wrong;
END $$;
SELECT pd.param_mismatches();
-- a parallel scan: every participant prunes with the same values, so they
-- number the same files
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET max_parallel_workers_per_gather = 2;
PREPARE q_par(int) AS SELECT count(*), sum(k) FROM pd.pr WHERE k >= $1;
EXECUTE q_par(0);
EXECUTE q_par(100);
EXECUTE q_par(305);
EXECUTE q_par(2000);
SELECT count(*), sum(k) FROM pd.pr WHERE k >= (SELECT max(k) FROM heap_pr) - 100;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET max_parallel_workers_per_gather;
RESET plan_cache_mode;
DEALLOCATE ALL;

-- an initplan's value
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  SELECT id FROM pd.pr WHERE k = (SELECT max(k) - 100 FROM heap_pr);
SELECT id FROM pd.pr WHERE k = (SELECT max(k) - 100 FROM heap_pr);
-- a correlated subquery: each rescan prunes with the outer row's value (the
-- first prunes every file: the next ones must not reuse that)
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  SELECT o.k, (SELECT count(*) FROM pd.pr p WHERE p.k >= o.k) FROM (VALUES (1000), (205), (5)) o(k);
SELECT o.k, (SELECT count(*) FROM pd.pr p WHERE p.k >= o.k) FROM (VALUES (1000), (205), (5)) o(k);
-- a nested loop with the Paimon table inside, parameterized by the outer row
-- (through a LATERAL subquery: a plain join has no parameterized foreign path yet)
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  SELECT o.k, x.id FROM (VALUES (305), (5)) o(k),
    LATERAL (SELECT id FROM pd.pr p WHERE p.k = o.k OFFSET 0) x;
SELECT o.k, x.id FROM (VALUES (1000), (305), (5)) o(k),
  LATERAL (SELECT id FROM pd.pr p WHERE p.k = o.k OFFSET 0) x ORDER BY 1, 2;
SELECT h.k, count(p.id) FROM heap_pr h LEFT JOIN LATERAL
  (SELECT id FROM pd.pr p WHERE p.name LIKE substr(h.name, 1, 3) || '%' AND p.k <= h.k OFFSET 0) p ON true
  WHERE h.k % 50 = 3 GROUP BY h.k ORDER BY h.k;
RESET enable_hashjoin;
RESET enable_mergejoin;

DROP TABLE heap_pr;
DROP SCHEMA pd CASCADE;
DROP SERVER pdp CASCADE;
