-- The shared page store (paimon_fdw.shared_page_cache_dir,
-- common/page_store.h): decompressed Parquet pages that one backend's page
-- cache took are written to a directory that every backend maps from, so a
-- new backend's first lookups find them ("Page Cache: N hits, 0 misses")
-- instead of decompressing them again; without it, a new backend misses.
-- Superuser only; the directory must be an absolute path; the rows are the
-- same either way.
\set SHOW_CONTEXT never
CREATE SCHEMA sp;
SELECT current_setting('data_directory') || '/paimon_shared_pages_test' AS wh \gset
SELECT current_setting('data_directory') || '/paimon_shared_pages_store' AS store \gset
SELECT format('cat > /dev/null; rm -rf %s %s', :'wh', :'store') AS rm_all \gset
COPY (SELECT 1) TO PROGRAM :'rm_all';
CREATE SERVER spw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('spw', 'db');
-- pages of about 64 kB (shared from 32 kB up) that the page index picks
SELECT paimon_create_table('spw', 'db', 'kv', 'id BIGINT, v STRING, n BIGINT',
  primary_key => ARRAY['id'], options => '{"bucket": "1", "parquet.page.size": "64kb"}', foreign_table => 'sp.kv');
INSERT INTO sp.kv SELECT g, 'value ' || g, g * 3 FROM generate_series(1, 20000) g;
INSERT INTO sp.kv SELECT g, 'again ' || g, -g FROM generate_series(1, 20000, 13) g;

\set page_cache_schema sp
\i sql/include/page_cache.sql

-- refused: relative, and not for ordinary roles
SET paimon_fdw.shared_page_cache_dir = 'relative/dir';
CREATE ROLE sp_user;
SET ROLE sp_user;
SET paimon_fdw.shared_page_cache_dir = '/somewhere';
RESET ROLE;
DROP ROLE sp_user;

-- off: a new backend's first lookup misses
\c
SELECT * FROM sp.page_cache('SELECT * FROM sp.kv WHERE id = 14001');

-- on: the first backend takes the pages, the next one finds them
\c
SET paimon_fdw.shared_page_cache_dir = :'store';
SELECT * FROM sp.page_cache('SELECT * FROM sp.kv WHERE id = 14001');
SELECT * FROM sp.kv WHERE id IN (1, 14001, 14002, 20000) ORDER BY id;
\c
SET paimon_fdw.shared_page_cache_dir = :'store';
SELECT * FROM sp.page_cache('SELECT * FROM sp.kv WHERE id = 14001');
SELECT * FROM sp.kv WHERE id IN (1, 14001, 14002, 20000) ORDER BY id;
-- the same rows as a full scan
SET paimon_fdw.enable_point_lookup = off;
SELECT * FROM sp.kv WHERE id IN (1, 14001, 14002, 20000) ORDER BY id;
RESET paimon_fdw.enable_point_lookup;
-- a budget below two pages: nothing more is written, lookups still answer
\c
SET paimon_fdw.shared_page_cache_size = '1kB';
SET paimon_fdw.shared_page_cache_dir = :'store';
SELECT * FROM sp.kv WHERE id IN (2, 19999) ORDER BY id;
SELECT * FROM sp.page_cache('SELECT * FROM sp.kv WHERE id = 14001');
RESET paimon_fdw.shared_page_cache_dir;
RESET paimon_fdw.shared_page_cache_size;

COPY (SELECT 1) TO PROGRAM :'rm_all';
DROP SERVER spw CASCADE;
DROP SCHEMA sp CASCADE;
