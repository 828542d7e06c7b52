-- Point lookups on primary-key tables (src/table/point_lookup.c) and lookup
-- joins (src/fdw/lookup_path.c), on corpus tables written by Java Paimon:
-- quals that pin the whole primary key read only the files of the key's
-- bucket whose key range (and file index) may hold it, merged as always;
-- every answer equals the full scan's (paimon_fdw.enable_point_lookup off).
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
-- the lookups through the files' pages: files kept decoded whole answer
-- lookups that keep coming back to them (resident_lookup.sql)
SET paimon_fdw.enable_resident_lookup = off;
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
CREATE SERVER pl FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SCHEMA pl;
-- deduplicate, partitioned by f1, key (f0, f1, f2), 2 buckets on f2, merge on read
IMPORT FOREIGN SCHEMA "pk_table_scan_and_read_mor" FROM SERVER pl INTO pl;
-- partial-update, key (k0, k1), 1 bucket
IMPORT FOREIGN SCHEMA "pk_table_partial_update" FROM SERVER pl INTO pl;
-- deletion vectors, partitioned by f1, key (f0, f1, f2), 2 buckets on f2
IMPORT FOREIGN SCHEMA "pk_table_scan_and_read_dv" FROM SERVER pl INTO pl;
-- deletion vectors, key id, 2001 rows in 3 files
IMPORT FOREIGN SCHEMA "pk_btree_e2e" FROM SERVER pl INTO pl;
ALTER FOREIGN TABLE pl.pk_table_scan_and_read_mor RENAME TO mor;
ALTER FOREIGN TABLE pl.pk_table_partial_update RENAME TO pu;
ALTER FOREIGN TABLE pl.pk_table_scan_and_read_dv RENAME TO dv;
ALTER FOREIGN TABLE pl.pk_btree_e2e RENAME TO bt;

-- heap copies, read without lookups
SET paimon_fdw.enable_point_lookup = off;
CREATE TABLE h_mor AS SELECT * FROM pl.mor;
CREATE TABLE h_pu AS SELECT * FROM pl.pu;
CREATE TABLE h_dv AS SELECT * FROM pl.dv;
CREATE TABLE h_bt AS SELECT * FROM pl.bt;
SELECT (SELECT count(*) FROM h_mor) AS mor, (SELECT count(*) FROM h_pu) AS pu,
       (SELECT count(*) FROM h_dv) AS dv, (SELECT count(*) FROM h_bt) AS bt;
EXPLAIN (COSTS OFF) SELECT * FROM pl.mor WHERE f0 = 'Alice' AND f2 = 1;
RESET paimon_fdw.enable_point_lookup;

-- a constant key: the bucket of f2 = 1, the files whose key range holds it
EXPLAIN (COSTS OFF) SELECT * FROM pl.mor WHERE f0 = 'Alice' AND f2 = 1;
SELECT * FROM pl.mor WHERE f0 = 'Alice' AND f2 = 1;
EXPLAIN (COSTS OFF) SELECT * FROM pl.mor WHERE f0 = 'Alice' AND f1 = 10 AND f2 = 1;
EXPLAIN (COSTS OFF) SELECT * FROM pl.bt WHERE id = 1500;
SELECT * FROM pl.bt WHERE id = 1500;
-- a key that is not there
SELECT * FROM pl.bt WHERE id = 5000;
SELECT * FROM pl.mor WHERE f0 = 'Nobody' AND f2 = 0;

-- every key of every table, looked up with constants, equals the full scan
CREATE FUNCTION pl.check_keys(tab text, heap text, keys text[], OUT keys_checked bigint,
                              OUT lookups_shown bigint)
LANGUAGE plpgsql AS $$
DECLARE
  r record; cond text; got text; want text; line text;
BEGIN
  keys_checked := 0; lookups_shown := 0;
  FOR r IN EXECUTE format('SELECT DISTINCT %s FROM %s', array_to_string(keys, ', '), heap) LOOP
    SELECT string_agg(format('%I = %L', k, to_jsonb(r) ->> k), ' AND ') INTO cond
      FROM unnest(keys) k;
    EXECUTE format('SELECT string_agg(t::text, '';'' ORDER BY t::text) FROM %s t WHERE %s',
                   tab, cond) INTO got;
    EXECUTE format('SELECT string_agg(t::text, '';'' ORDER BY t::text) FROM %s t WHERE %s',
                   heap, cond) INTO want;
    IF got IS DISTINCT FROM want OR got IS NULL THEN
      RAISE EXCEPTION 'key %: got %, want %', cond, got, want;
    END IF;
    FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT * FROM %s WHERE %s', tab, cond) LOOP
      IF line LIKE '%Point Lookup: %bucket%' THEN lookups_shown := lookups_shown + 1; END IF;
    END LOOP;
    keys_checked := keys_checked + 1;
  END LOOP;
END $$;
SELECT * FROM pl.check_keys('pl.mor', 'h_mor', ARRAY['f0', 'f2']);
SELECT * FROM pl.check_keys('pl.mor', 'h_mor', ARRAY['f0', 'f1', 'f2']);
SELECT * FROM pl.check_keys('pl.pu', 'h_pu', ARRAY['k0', 'k1']);
SELECT * FROM pl.check_keys('pl.dv', 'h_dv', ARRAY['f0', 'f1', 'f2']);

-- partial update: the merged row of a key whose non-key columns were updated
-- in several commits
SELECT * FROM pl.pu WHERE k0 = 1 AND k1 = 1;
SELECT * FROM h_pu WHERE k0 = 1 AND k1 = 1;
-- IN on the key: two keys of one bucket
EXPLAIN (COSTS OFF) SELECT * FROM pl.pu WHERE k0 = 1 AND k1 IN (0, 1);
SELECT * FROM pl.pu WHERE k0 = 1 AND k1 IN (0, 1) ORDER BY k1;
SELECT * FROM pl.bt WHERE id IN (1, 1000, 2002, 9999) ORDER BY id;
SELECT * FROM h_bt WHERE id IN (1, 1000, 2002, 9999) ORDER BY id;
-- not a point lookup: a key column left open
EXPLAIN (COSTS OFF) SELECT * FROM pl.pu WHERE k0 = 1;
SELECT * FROM pl.pu WHERE k0 = 1 ORDER BY k1;

-- a parameter: the lookup happens when the scan runs
PREPARE q(int) AS SELECT * FROM pl.bt WHERE id = $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE q(7);
EXECUTE q(7);
EXECUTE q(2002);
EXECUTE q(5000);
RESET plan_cache_mode;
DEALLOCATE q;

-- lookup joins: a few outer rows rescan the table by key, each rescan a lookup
-- on the files planned once (against Postgres' own joins: the key join,
-- key_join.sql, is off here)
SET paimon_fdw.enable_key_join = off;
CREATE TABLE few AS SELECT * FROM (VALUES (7), (1500), (5000)) v(id);
ANALYZE few;
EXPLAIN (COSTS OFF) SELECT few.id, bt.score, bt.tag FROM few JOIN pl.bt ON bt.id = few.id;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
  SELECT few.id, bt.score, bt.tag FROM few JOIN pl.bt ON bt.id = few.id;
SELECT few.id, bt.score, bt.tag FROM few JOIN pl.bt ON bt.id = few.id ORDER BY 1;
-- the same rows as the hash join
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT few.id, bt.score, bt.tag FROM few JOIN pl.bt ON bt.id = few.id;
SELECT few.id, bt.score, bt.tag FROM few JOIN pl.bt ON bt.id = few.id ORDER BY 1;
RESET enable_nestloop;
-- a join on a two-column key (partial update; so small a table that one
-- outer row is all a lookup beats a scan for)
CREATE TABLE few_pu AS SELECT * FROM (VALUES (1, 1)) v(a, b);
ANALYZE few_pu;
EXPLAIN (COSTS OFF) SELECT * FROM few_pu JOIN pl.pu ON pu.k0 = few_pu.a AND pu.k1 = few_pu.b;
SELECT * FROM few_pu JOIN pl.pu ON pu.k0 = few_pu.a AND pu.k1 = few_pu.b ORDER BY a;
-- LATERAL over every key of the partitioned tables: equal to the heap
SELECT count(*) AS rows, count(*) FILTER (WHERE x::text = h::text) AS same
  FROM h_mor h, LATERAL (SELECT * FROM pl.mor t WHERE t.f0 = h.f0 AND t.f1 = h.f1 AND t.f2 = h.f2) x;
SELECT count(*) AS rows, count(*) FILTER (WHERE x::text = h::text) AS same
  FROM h_dv h, LATERAL (SELECT * FROM pl.dv t WHERE t.f0 = h.f0 AND t.f1 = h.f1 AND t.f2 = h.f2) x;
-- many outer rows: one scan and a hash join beat a lookup per row
CREATE TABLE many AS SELECT g AS id FROM generate_series(1, 2000) g;
ANALYZE many;
EXPLAIN (COSTS OFF) SELECT count(*) FROM many JOIN pl.bt ON bt.id = many.id;
SELECT count(*) FROM many JOIN pl.bt ON bt.id = many.id;
-- off: no parameterized path, no lookup
SET paimon_fdw.enable_point_lookup = off;
EXPLAIN (COSTS OFF) SELECT few.id, bt.score, bt.tag FROM few JOIN pl.bt ON bt.id = few.id;
SELECT few.id, bt.score, bt.tag FROM few JOIN pl.bt ON bt.id = few.id ORDER BY 1;
RESET paimon_fdw.enable_point_lookup;
RESET paimon_fdw.enable_key_join;

-- A table written here: key id, 2 buckets, Parquet pages of about 1 KiB, a
-- second commit of every 7th key (level-0 files merged with the first ones)
SELECT current_setting('data_directory') || '/paimon_point_lookup_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER plw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('plw', 'db');
SELECT paimon_create_table('plw', 'db', 'kv', 'id BIGINT, v STRING, n INT',
  primary_key => ARRAY['id'], options => '{"bucket": "2", "parquet.page.size": "1kb"}',
  foreign_table => 'pl.kv');
INSERT INTO pl.kv SELECT g, 'v' || g, g FROM generate_series(1, 1000) g;
INSERT INTO pl.kv SELECT g, 'w' || g, -g FROM generate_series(1, 1000, 7) g;
SET paimon_fdw.enable_point_lookup = off;
CREATE TABLE h_kv AS SELECT * FROM pl.kv;
RESET paimon_fdw.enable_point_lookup;

-- The page cache (paimon_fdw.page_cache_size) keeps the decompressed pages
-- the page index picked: the same lookup again finds every page there; with
-- it off (0), no cache and the same rows. Every key looked up equals the
-- full scan either way.
\set page_cache_schema pl
\i sql/include/page_cache.sql
SET paimon_fdw.page_cache_size = '64MB';
SELECT * FROM pl.page_cache('SELECT * FROM pl.kv WHERE id = 702');
SELECT * FROM pl.page_cache('SELECT * FROM pl.kv WHERE id = 702');
SELECT * FROM pl.kv WHERE id IN (8, 701, 702) ORDER BY id;
SELECT * FROM pl.check_keys('pl.kv', 'h_kv', ARRAY['id']);
SET paimon_fdw.page_cache_size = 0;
SELECT count(*) AS lines FROM pl.page_cache('SELECT * FROM pl.kv WHERE id = 702');
SELECT * FROM pl.kv WHERE id IN (8, 701, 702) ORDER BY id;
SELECT * FROM pl.check_keys('pl.kv', 'h_kv', ARRAY['id']);
RESET paimon_fdw.page_cache_size;

-- The key cache (paimon_fdw.key_cache_size) keeps the page index and the
-- decoded pages of each file's sorted key column: a lookup skips the files
-- whose key pages do not hold the key (id 2 is only in the first insert's
-- file of its bucket, though within the second's key range). With it off
-- (0), no such skip, and the same rows.
-- the lines of EXPLAIN ANALYZE that match pattern
CREATE FUNCTION pl.explain_line(q text, pattern text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ' || q LOOP
    IF line ~ pattern THEN
      RETURN NEXT trim(line);
    END IF;
  END LOOP;
END $$;
CREATE FUNCTION pl.lookup_line(q text) RETURNS SETOF text LANGUAGE sql AS $$
  SELECT pl.explain_line(q, 'Point Lookups \(executed\)')
$$;
SELECT * FROM pl.lookup_line('SELECT * FROM pl.kv WHERE id = 2');
SELECT * FROM pl.lookup_line('SELECT * FROM pl.kv WHERE id = 8');
SELECT * FROM pl.lookup_line('SELECT * FROM pl.kv WHERE id IN (2, 9)');
SELECT * FROM pl.kv WHERE id IN (2, 8, 9, 1000) ORDER BY id;
SELECT * FROM pl.check_keys('pl.kv', 'h_kv', ARRAY['id']);
SET paimon_fdw.key_cache_size = 0;
SELECT * FROM pl.lookup_line('SELECT * FROM pl.kv WHERE id = 2');
SELECT * FROM pl.kv WHERE id IN (2, 8, 9, 1000) ORDER BY id;
SELECT * FROM pl.check_keys('pl.kv', 'h_kv', ARRAY['id']);
RESET paimon_fdw.key_cache_size;

-- A commit by another session between two lookups of one backend (a
-- prepared statement's generic plan, warm caches) is seen by the second.
SET plan_cache_mode = force_generic_plan;
PREPARE kv_get(bigint) AS SELECT * FROM pl.kv WHERE id = $1;
EXECUTE kv_get(43);
EXECUTE kv_get(1001);
SELECT format('cat > /dev/null; psql -X -q -h %s -p %s -d %s -c %s',
  split_part(current_setting('unix_socket_directories'), ',', 1), current_setting('port'),
  current_database(),
  quote_literal('INSERT INTO pl.kv VALUES (43, $$other session$$, 4343), (1001, $$new$$, 1)'))
  AS other_session \gset
COPY (SELECT 1) TO PROGRAM :'other_session';
EXECUTE kv_get(43);
EXECUTE kv_get(1001);
-- and one by this session: the key cache said "not in these files" for id 2
EXECUTE kv_get(2);
INSERT INTO pl.kv VALUES (2, 'same session', 22);
EXECUTE kv_get(2);
SELECT * FROM pl.lookup_line('EXECUTE kv_get(2)');
-- the newest record decides on a deduplicate table: the files are probed newest
-- first, and those older than the one the key was found in are neither probed
-- nor read ("shadowed"), a newest -D included; with ignore-delete an older
-- record can be the row, so every file is read
DELETE FROM pl.kv WHERE id = 8;
EXECUTE kv_get(8);
SELECT * FROM pl.lookup_line('EXECUTE kv_get(8)');
-- an IN list: each key apart; a file older than the newest holding each of
-- its keys is not read
SELECT * FROM pl.kv WHERE id IN (2, 8) ORDER BY id;
SELECT * FROM pl.lookup_line('SELECT * FROM pl.kv WHERE id IN (2, 8)');
UPDATE pl.kv SET v = 'updated' WHERE id = 43;
EXECUTE kv_get(43);
SELECT * FROM pl.lookup_line('EXECUTE kv_get(43)');
SELECT paimon_create_table('plw', 'db', 'kv_id', 'id BIGINT, v STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "ignore-delete": "true"}',
  foreign_table => 'pl.kv_id');
INSERT INTO pl.kv_id VALUES (1, 'a'), (2, 'b');
INSERT INTO pl.kv_id VALUES (1, 'c');
SELECT * FROM pl.kv_id WHERE id = 1;
SELECT * FROM pl.lookup_line('SELECT * FROM pl.kv_id WHERE id = 1');
RESET plan_cache_mode;

-- a file of many row groups: a lookup reads the row groups of its keys' rows,
-- the others are skipped before their statistics are looked at
SELECT paimon_create_table('plw', 'db', 'rgs', 'id BIGINT, a INT, s STRING',
  primary_key => ARRAY['id'],
  options => '{"bucket": "1", "parquet.block.size": "16kb", "parquet.page.size": "1mb"}',
  foreign_table => 'pl.rgs');
INSERT INTO pl.rgs SELECT i, i % 97, md5(i::text) FROM generate_series(1, 30000) i;
-- read: the row groups read; many: the file has more than 10; the rest were
-- skipped without a selected row, none by statistics
SELECT q, substring(l from '^Row Groups: (\d+) of')::int AS read,
       substring(l from 'of (\d+) read')::int > 10 AS many,
       substring(l from '(\d+) pruned by statistics')::int AS by_stats,
       substring(l from '(\d+) without a selected row')::int =
         substring(l from 'of (\d+) read')::int - substring(l from '^Row Groups: (\d+) of')::int AS rest_skipped
FROM (VALUES ('id = 12345'), ('id IN (1, 15000, 30000)'), ('id IN (1, 2, 3)')) v(q),
     pl.explain_line('SELECT * FROM pl.rgs WHERE ' || q, 'Row Groups:') l;
SELECT count(*) FROM pl.rgs;
SELECT * FROM pl.rgs WHERE id IN (1, 15000, 29999, 30000, 30001) ORDER BY id;
SET paimon_fdw.enable_point_lookup = off;
SELECT * FROM pl.rgs WHERE id IN (1, 15000, 29999, 30000, 30001) ORDER BY id;
RESET paimon_fdw.enable_point_lookup;
DEALLOCATE kv_get;
COPY (SELECT 1) TO PROGRAM :'rm_wh';

-- clean up (later tests count the foreign tables)
DROP SCHEMA pl CASCADE;
DROP SERVER pl;
DROP SERVER plw CASCADE;
DROP TABLE h_kv;
DROP TABLE h_mor, h_pu, h_dv, h_bt, few, few_pu, many;
