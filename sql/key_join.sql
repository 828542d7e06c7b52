-- Joins on the integer primary key of a Paimon table with the other side's
-- keys handed to the scan (key_join.c, paimon_fdw.enable_key_join): the
-- custom scan PaimonKeyJoin reads the other side first, the Paimon scan
-- drops the rows of other keys before they become tuples, and the outer
-- rows come back in their order, each with its Paimon row. The rows are
-- those of the hash join Postgres plans when it is off.
\set SHOW_CONTEXT never
SET max_parallel_workers_per_gather = 0;
SELECT current_setting('data_directory') || '/paimon_key_join_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER kj FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('kj', 'db');

-- 4 buckets, overlapping commits and a DELETE: the scan merges level-0
-- files, so a key's newest row is the one joined
SELECT paimon_create_table('kj', 'db', 'kv', 'id BIGINT, v INT, s STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "4"}', foreign_table => 'kv');
INSERT INTO kv SELECT i, i, 's' || i FROM generate_series(1, 20000) i;
INSERT INTO kv SELECT i, -i, 'u' || i FROM generate_series(1, 20000, 7) i;
DELETE FROM kv WHERE id % 1000 = 0;
-- an INT key, for joins across integer types
SELECT paimon_create_table('kj', 'db', 'small', 'k INT, name STRING',
  primary_key => ARRAY['k'], foreign_table => 'small');
INSERT INTO small SELECT i, 'n' || i FROM generate_series(-5, 300) i;

-- outer sides: keys in and out of the table, duplicates and NULLs
CREATE TABLE o (id bigint, tag text);
INSERT INTO o SELECT (i * 37) % 30000, 't' || i FROM generate_series(1, 3000) i;
INSERT INTO o VALUES (NULL, 'null key'), (5, 'dup'), (5, 'dup2'), (1000, 'deleted key');
CREATE TABLE oe (id bigint);	-- never analyzed: estimated at some rows
CREATE TABLE o4 (k int, x int, k8 bigint, k2 smallint);
INSERT INTO o4 SELECT i % 400 - 10, i, i % 400 - 10, i % 400 - 10 FROM generate_series(1, 2000) i;
ANALYZE o, o4, kv, small;

-- the rows of a query with the key join and with it off (a hash, merge or
-- nested-loop join), and whether the plan has the key join
CREATE FUNCTION kj_same(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	on_rows text;
	off_rows text;
	used bool := false;
	l text;
BEGIN
	PERFORM set_config('paimon_fdw.enable_key_join', 'on', true);
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%PaimonKeyJoin%' THEN used := true; END IF;
	END LOOP;
	EXECUTE 'SELECT count(*) || '': '' || coalesce(md5(string_agg(r::text, '';'' ORDER BY r::text)), ''-'') FROM (' || q || ') r'
		INTO on_rows;
	PERFORM set_config('paimon_fdw.enable_key_join', 'off', true);
	EXECUTE 'SELECT count(*) || '': '' || coalesce(md5(string_agg(r::text, '';'' ORDER BY r::text)), ''-'') FROM (' || q || ') r'
		INTO off_rows;
	PERFORM set_config('paimon_fdw.enable_key_join', 'on', true);
	RETURN CASE WHEN used THEN 'key join' ELSE 'no key join' END || ', ' ||
		CASE WHEN on_rows = off_rows THEN 'same ' || split_part(on_rows, ':', 1) || ' rows'
		ELSE 'DIFFERENT: ' || on_rows || ' <> ' || off_rows END;
END $$;

EXPLAIN (COSTS OFF) SELECT o.tag, kv.v FROM o JOIN kv ON kv.id = o.id;
SELECT o.id, o.tag, kv.v, kv.s FROM o JOIN kv ON kv.id = o.id ORDER BY o.tag LIMIT 8;
-- what the scan dropped, and what the join matched
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*), sum(kv.v) FROM o JOIN kv ON kv.id = o.id;
SELECT count(*), sum(kv.v) FROM o JOIN kv ON kv.id = o.id;

SELECT q, kj_same(q) FROM (VALUES
  ('SELECT o.tag, kv.* FROM o JOIN kv ON kv.id = o.id'),
  ('SELECT o.tag, kv.s FROM kv JOIN o ON o.id = kv.id WHERE kv.v < 0'),
  ('SELECT o.tag, kv.s FROM o JOIN kv ON kv.id = o.id AND kv.v > o.id / 2'),
  ('SELECT o.tag FROM o JOIN kv ON kv.id = o.id WHERE o.tag LIKE ''t1%'''),
  ('SELECT a.tag, b.tag, kv.v FROM o a JOIN o b ON a.id = b.id JOIN kv ON kv.id = a.id'),
  ('SELECT o.tag, kv.v FROM o JOIN kv ON kv.id = o.id WHERE o.id < 0')
) t(q);

-- a partitioned table: the key without the partition column, a row per
-- partition; the partition column joined too, checked on the joined row
SELECT paimon_create_table('kj', 'db', 'parts', 'dt STRING, id INT, v INT',
  primary_key => ARRAY['dt', 'id'], partition_keys => ARRAY['dt'],
  options => '{"bucket": "2"}', foreign_table => 'parts');
INSERT INTO parts SELECT 'd' || (i % 3), i / 2, i FROM generate_series(1, 12000) i;
INSERT INTO parts SELECT 'd1', i, -i FROM generate_series(1, 6000, 5) i;
CREATE TABLE opart (id int, dt text);
INSERT INTO opart SELECT i * 7 % 7000, 'd' || (i % 4) FROM generate_series(1, 1500) i;
ANALYZE parts, opart;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT q, kj_same(q) FROM (VALUES
  ('SELECT o.id, p.dt, p.v FROM opart o JOIN parts p ON p.id = o.id'),
  ('SELECT o.id, p.dt, p.v FROM opart o JOIN parts p ON p.id = o.id AND p.dt = o.dt'),
  ('SELECT o.id, p.dt, p.v FROM opart o LEFT JOIN parts p ON p.id = o.id WHERE p.dt IS DISTINCT FROM ''d0'''),
  ('SELECT o.id FROM opart o WHERE EXISTS (SELECT 1 FROM parts p WHERE p.id = o.id AND p.dt = ''d2'')')
) t(q);
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;

-- in parallel: every participant reads the outer side whole and joins it
-- with its share of the table's files (the rows and sums of the plans above)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*), sum(kv.v) FROM o JOIN kv ON kv.id = o.id;
SELECT count(*), sum(kv.v) FROM o JOIN kv ON kv.id = o.id;
-- EXPLAIN ANALYZE: the scan's filter counts the workers' rows too (taken
-- from them when the scan shuts down), the totals of the serial plan
CREATE FUNCTION keys_filter(q text, workers int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  l text;
  r text := '';
BEGIN
  PERFORM set_config('max_parallel_workers_per_gather', workers::text, true);
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ 'Outer Keys Filter:' THEN r := r || btrim(l); END IF;
    IF l ~ 'Parallel Foreign Scan' THEN r := r || 'parallel; '; END IF;
  END LOOP;
  PERFORM set_config('max_parallel_workers_per_gather', '2', true);
  RETURN r;
END $$;
SELECT keys_filter(q, 2) AS parallel, keys_filter(q, 0) AS serial FROM (VALUES
  ('SELECT count(*), sum(kv.v) FROM o JOIN kv ON kv.id = o.id')
) v(q);
DROP FUNCTION keys_filter(text, int);
SELECT count(*), sum(p.v), count(DISTINCT p.dt) FROM opart o JOIN parts p ON p.id = o.id;
-- (a left join is not parallel: a Paimon share without the key would null-extend)
EXPLAIN (COSTS OFF) SELECT count(*), count(kv.v) FROM o LEFT JOIN kv ON kv.id = o.id;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
SELECT count(*), sum(p.v), count(DISTINCT p.dt) FROM opart o JOIN parts p ON p.id = o.id;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;

-- the outer keys' range is pushed to the scan: pages (and row groups and
-- files) outside it are not read
SELECT paimon_create_table('kj', 'db', 'paged', 'id BIGINT, v STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "parquet.page.size": "1kb"}',
  foreign_table => 'paged');
INSERT INTO paged SELECT i, 'value ' || i FROM generate_series(1, 20000) i;
CREATE TABLE onear (id bigint);
INSERT INTO onear SELECT 5000 + i * 3 FROM generate_series(1, 300) i;
ANALYZE paged, onear;
-- (a merge join over the read in key order is as cheap here: Postgres'
-- joins are disabled)
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*), min(p.v) FROM onear o JOIN paged p ON p.id = o.id;
SELECT q, kj_same(q) FROM (VALUES
  ('SELECT o.id, p.v FROM onear o JOIN paged p ON p.id = o.id')
) t(q);

-- an INT key joined with int4, int8 and int2 outer keys (the planner's
-- hash join of the small table is as cheap: still disabled); an outer key
-- that is an expression, not a column, is not offered; int8 outer keys
-- beyond the INT key's range bound nothing (below) or match no row (above)
CREATE TABLE obig (k8 bigint);
INSERT INTO obig VALUES (-5000000000), (7), (300), (6000000000), (7000000000);
ANALYZE obig;
SELECT q, kj_same(q) FROM (VALUES
  ('SELECT o4.x, small.name FROM o4 JOIN small ON small.k = o4.k'),
  ('SELECT o4.x, small.name FROM o4 JOIN small ON o4.k8 = small.k'),
  ('SELECT o4.x, small.name, o4.k2 FROM small JOIN o4 ON o4.k2 = small.k'),
  ('SELECT o4.x, small.name FROM o4 JOIN small ON o4.k + 1 = small.k'),
  ('SELECT o.k8, small.name FROM obig o JOIN small ON small.k = o.k8'),
  ('SELECT o.k8, small.name FROM (SELECT k8 FROM obig WHERE k8 > 5000000000) o JOIN small ON small.k = o.k8')
) t(q);

-- left joins (the Paimon side nullable), semi joins (EXISTS), anti joins
-- (NOT EXISTS: the NULL key and the keys without a row), IN over a subquery
-- made unique first; a left join's other join clause is not offered, its
-- WHERE clauses are checked on the joined (or null-extended) row
SELECT q, kj_same(q) FROM (VALUES
  ('SELECT o.tag, kv.v FROM o LEFT JOIN kv ON kv.id = o.id'),
  ('SELECT o.tag, kv.v, kv.s FROM o LEFT JOIN kv ON kv.id = o.id AND kv.v < 0'),
  ('SELECT o.tag, kv.v FROM o LEFT JOIN kv ON kv.id = o.id WHERE kv.v IS NULL OR kv.v > o.id'),
  ('SELECT o.tag, kv.v FROM o LEFT JOIN kv ON kv.id = o.id AND kv.v > o.id'),
  ('SELECT o.tag FROM o WHERE EXISTS (SELECT 1 FROM kv WHERE kv.id = o.id)'),
  ('SELECT o.tag FROM o WHERE NOT EXISTS (SELECT 1 FROM kv WHERE kv.id = o.id)'),
  ('SELECT kv.* FROM kv WHERE kv.id IN (SELECT id FROM o)'),
  ('SELECT e.id FROM oe e LEFT JOIN kv ON kv.id = e.id'),
  ('SELECT o.tag FROM (SELECT * FROM o WHERE id IS NULL) o WHERE NOT EXISTS (SELECT 1 FROM kv WHERE kv.id = o.id)'),
  ('SELECT o.tag, kv.v FROM (SELECT * FROM o WHERE id IS NULL) o LEFT JOIN kv ON kv.id = o.id')
) t(q);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*), count(kv.v) FROM o LEFT JOIN kv ON kv.id = o.id;

-- more outer keys than the planner expected and hash_mem holds (128kB: 5461
-- keys a batch): joined a batch at a time, the Paimon side read per batch
SET work_mem = '64kB';
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*), sum(kv.v) FROM (SELECT g AS id FROM generate_series(1, 30000) g WHERE g % 3 = 0) o
  JOIN kv ON kv.id = o.id;
SELECT q, kj_same(q) FROM (VALUES
  ('SELECT o.id, kv.v FROM (SELECT g AS id FROM generate_series(1, 30000) g WHERE g % 3 = 0) o JOIN kv ON kv.id = o.id'),
  ('SELECT o.id, kv.v FROM (SELECT g % 25000 AS id FROM generate_series(1, 30000) g WHERE g % 3 = 0 OFFSET 0) o LEFT JOIN kv ON kv.id = o.id'),
  ('SELECT o.id FROM (SELECT g AS id FROM generate_series(1, 30000) g WHERE g % 3 = 0) o WHERE NOT EXISTS (SELECT 1 FROM kv WHERE kv.id = o.id)')
) t(q);
RESET work_mem;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;

-- an outer side without rows (never analyzed: estimated at some): the
-- Paimon table is not read
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT kv.v FROM oe JOIN kv ON kv.id = oe.id;

-- rescans: the key join inside a correlated subquery, once per row
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT o4.k, (SELECT count(*) FROM o JOIN kv ON kv.id = o.id WHERE o.id <= o4.k * 100) AS n
FROM o4 WHERE o4.x BETWEEN 100 AND 103 ORDER BY o4.x;
SELECT o4.k, (SELECT count(*) FROM o JOIN kv ON kv.id = o.id WHERE o.id <= o4.k * 100) AS n
FROM o4 WHERE o4.x BETWEEN 100 AND 103 ORDER BY o4.x;
SET paimon_fdw.enable_key_join = off;
SELECT o4.k, (SELECT count(*) FROM o JOIN kv ON kv.id = o.id WHERE o.id <= o4.k * 100) AS n
FROM o4 WHERE o4.x BETWEEN 100 AND 103 ORDER BY o4.x;
RESET paimon_fdw.enable_key_join;

-- not offered: the Paimon side preserved by an outer join, row marks, a key
-- compared with a non-integer
EXPLAIN (COSTS OFF) SELECT o.tag, kv.v FROM o RIGHT JOIN kv ON kv.id = o.id;
EXPLAIN (COSTS OFF) SELECT o.tag FROM o JOIN kv ON kv.id = o.id FOR UPDATE OF o;
EXPLAIN (COSTS OFF) SELECT o.tag, kv.v FROM o JOIN kv ON kv.id::numeric = o.id::numeric;

DROP FUNCTION kj_same(text);
DROP TABLE o, o4, oe, onear, obig, opart;
DROP SERVER kj CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
