-- Primary-key tables whose key is one integer column also read in key
-- order: every bucket merged, the buckets (and partitions) merged by the
-- key (paimon_fdw.enable_key_order). A merge join or ORDER BY the key then
-- needs no sort; the rows are those of the plain read, in order.
\set SHOW_CONTEXT never
SET max_parallel_workers_per_gather = 0;
SELECT current_setting('data_directory') || '/paimon_key_order_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER ko FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('ko', 'db');

-- 4 buckets, three commits over overlapping keys and a DELETE: level-0
-- files in every bucket
SELECT paimon_create_table('ko', 'db', 'kv', 'id BIGINT, v INT, s STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "4"}', foreign_table => 'kv');
INSERT INTO kv SELECT i, i, 's' || i FROM generate_series(1, 20000) i;
INSERT INTO kv SELECT i, -i, 'u' || i FROM generate_series(1, 20000, 7) i;
INSERT INTO kv SELECT i, 2 * i, NULL FROM generate_series(19000, 25000, 3) i;
DELETE FROM kv WHERE id % 1000 = 0;
ANALYZE kv;

-- the same rows in the same order with and without key order: the first
-- read merges the buckets, the second sorts; and whether the plan with key
-- order has a Sort node (of the outer side, in a merge join) or an
-- incremental sort
CREATE FUNCTION ko_same(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	on_rows text;
	off_rows text;
	merged bool := false;
	sorted text := '';
	l text;
BEGIN
	PERFORM set_config('paimon_fdw.enable_key_order', 'on', true);
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%Key Order:%' THEN merged := true; END IF;
		IF l ~ '^\s*(->\s*)?Sort$' THEN sorted := ', a sort'; END IF;
		IF l ~ '^\s*(->\s*)?Incremental Sort$' THEN sorted := ', an incremental sort'; END IF;
	END LOOP;
	EXECUTE 'SELECT count(*) || '': '' || md5(string_agg(r::text, '';'')) FROM (' || q || ') r'
		INTO on_rows;
	PERFORM set_config('paimon_fdw.enable_key_order', 'off', true);
	EXECUTE 'SELECT count(*) || '': '' || md5(string_agg(r::text, '';'')) FROM (' || q || ') r'
		INTO off_rows;
	PERFORM set_config('paimon_fdw.enable_key_order', 'on', true);
	RETURN CASE WHEN merged THEN 'key order' ELSE 'no key order' END ||
		sorted || ', ' ||
		CASE WHEN on_rows = off_rows THEN 'same' ELSE 'DIFFERENT: ' || on_rows || ' <> ' || off_rows END;
END $$;

EXPLAIN (COSTS OFF) SELECT * FROM kv ORDER BY id;
SELECT * FROM kv ORDER BY id OFFSET 995 LIMIT 10;
SELECT q, ko_same(q) FROM (VALUES
  ('SELECT * FROM kv ORDER BY id'),
  ('SELECT id, s FROM kv WHERE v < 0 ORDER BY id'),
  ('SELECT s FROM kv ORDER BY id'),
  ('SELECT * FROM kv ORDER BY id DESC')
) t(q);

-- a merge join against a Postgres table: no sort of the Paimon side
-- (keys repeated, some missing from kv)
CREATE TABLE ko_outer AS SELECT (i * 37) % 2600 * 10 AS id FROM generate_series(1, 3000) i;
ANALYZE ko_outer;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET paimon_fdw.enable_point_lookup = off;
SET paimon_fdw.enable_key_join = off;
EXPLAIN (COSTS OFF) SELECT count(*), sum(k.v) FROM ko_outer o JOIN kv k ON k.id = o.id;
SELECT q, ko_same(q) FROM (VALUES
  ('SELECT o.id, k.v, k.s FROM ko_outer o JOIN kv k ON k.id = o.id ORDER BY o.id, k.v'),
  ('SELECT count(*), sum(k.v) FROM ko_outer o JOIN kv k ON k.id = o.id'),
  ('SELECT o.id, k.v FROM ko_outer o LEFT JOIN kv k ON k.id = o.id ORDER BY o.id, k.v')
) t(q);
RESET enable_hashjoin;
RESET enable_nestloop;
RESET paimon_fdw.enable_point_lookup;
RESET paimon_fdw.enable_key_join;

-- partitions: the trimmed key (id) orders the rows of every partition;
-- ties across partitions are sorted by what follows (incremental sort)
SELECT paimon_create_table('ko', 'db', 'parts', 'dt STRING, id INT, v INT',
  primary_key => ARRAY['dt', 'id'], partition_keys => ARRAY['dt'],
  options => '{"bucket": "2"}', foreign_table => 'parts');
INSERT INTO parts SELECT 'd' || (i % 3), i / 2, i FROM generate_series(1, 12000) i;
INSERT INTO parts SELECT 'd1', i, -i FROM generate_series(1, 6000, 5) i;
ANALYZE parts;
EXPLAIN (COSTS OFF) SELECT * FROM parts ORDER BY id, dt;
SELECT q, ko_same(q) FROM (VALUES
  ('SELECT * FROM parts ORDER BY id, dt'),
  ('SELECT * FROM parts WHERE dt = ''d1'' ORDER BY id')
) t(q);
-- a merge join on a key repeated across partitions (the inner rescanned
-- from a mark: materialized)
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT ko_same('SELECT o.id, p.dt, p.v FROM ko_outer o JOIN parts p ON p.id = o.id / 10 ORDER BY 1, 2, 3');
RESET enable_hashjoin;
RESET enable_nestloop;

-- no key order: a string key; more buckets than a read keeps open at once
SELECT paimon_create_table('ko', 'db', 'skey', 'k STRING, v INT',
  primary_key => ARRAY['k'], options => '{"bucket": "2"}', foreign_table => 'skey');
INSERT INTO skey SELECT 'k' || i, i FROM generate_series(1, 5000) i;
SELECT paimon_create_table('ko', 'db', 'many', 'id INT, v INT',
  primary_key => ARRAY['id'], options => '{"bucket": "20"}', foreign_table => 'many');
INSERT INTO many SELECT i, i FROM generate_series(1, 20000) i;
ANALYZE skey;
ANALYZE many;
SELECT q, ko_same(q) FROM (VALUES
  ('SELECT * FROM skey ORDER BY k'),
  ('SELECT * FROM many ORDER BY id')
) t(q);

-- an append table has no key
SELECT paimon_create_table('ko', 'db', 'app', 'id INT, v INT', foreign_table => 'app');
INSERT INTO app SELECT i, i FROM generate_series(1, 5000) i;
ANALYZE app;
SELECT ko_same('SELECT * FROM app ORDER BY id');

DROP SERVER ko CASCADE;
DROP TABLE ko_outer;
DROP FUNCTION ko_same(text);
COPY (SELECT 1) TO PROGRAM :'rm_wh';
