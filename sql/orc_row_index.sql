-- ORC row groups skipped by the row index: tables of 1000-row groups in one
-- stripe (every flat type, NULLs in each column so that PRESENT streams are
-- sought too, a dictionary and a direct string column, a BIGINT of scattered
-- values whose runs span several of Java's 1 KiB chunks), compressed with
-- zstd, lz4 and none (whose positions name no compression chunk). Each
-- filtered read gives the rows that the same query gives with the page and
-- row-group index off, and EXPLAIN ANALYZE counts the groups skipped.
\set SHOW_CONTEXT never
SELECT current_setting('data_directory') || '/paimon_orc_row_index_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER ors FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('ors', 'db');

CREATE FUNCTION orc_groups_of(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ 'ORC Row Groups:' THEN RETURN NEXT trim(line); END IF;
  END LOOP;
END $$;
-- the rows of q (as text, ordered) with the row index on and off: equal?
CREATE FUNCTION orc_same_rows(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE a text; b text; n bigint;
BEGIN
  SET paimon_fdw.enable_page_index = on;
  EXECUTE 'SELECT count(*), md5(coalesce(string_agg(t::text, ''|'' ORDER BY t::text), '''')) FROM (' || q || ') t' INTO n, a;
  SET paimon_fdw.enable_page_index = off;
  EXECUTE 'SELECT md5(coalesce(string_agg(t::text, ''|'' ORDER BY t::text), '''')) FROM (' || q || ') t' INTO b;
  RESET paimon_fdw.enable_page_index;
  RETURN n || CASE WHEN a = b THEN ' rows, same' ELSE ' rows, DIFFERENT' END;
END $$;

DO $$
DECLARE c text;
BEGIN
  FOREACH c IN ARRAY ARRAY['zstd', 'lz4', 'none'] LOOP
    PERFORM paimon_create_table('ors', 'db', 'ri_' || c,
      'id INT, b BOOLEAN, t TINYINT, sm SMALLINT, big BIGINT, f FLOAT, d DOUBLE,
       dec DECIMAL(12,2), ds STRING, s STRING, bin BYTES, dt DATE, ts TIMESTAMP(6), ts3 TIMESTAMP(3)',
      options => format('{"file.format": "orc", "orc.row.index.stride": "1000", "file.compression": "%s"}', c)::jsonb,
      foreign_table => 'ri_' || c);
    EXECUTE format($q$INSERT INTO ri_%s
      SELECT g,
        CASE WHEN g %% 11 = 0 THEN NULL ELSE g %% 3 = 0 END,
        CASE WHEN g %% 13 = 0 THEN NULL ELSE (g %% 200 - 100)::int2 END,
        CASE WHEN g %% 17 = 0 THEN NULL ELSE (g %% 30000)::int2 END,
        CASE WHEN g %% 19 = 0 THEN NULL ELSE g::bigint * 2654435761 %% 4294967311 * 1048573 END,
        CASE WHEN g %% 23 = 0 THEN NULL ELSE g / 7.0 END,
        CASE WHEN g %% 29 = 0 THEN NULL ELSE g / 3.0 END,
        CASE WHEN g %% 31 = 0 THEN NULL ELSE (g * 1.25)::numeric(12,2) END,
        CASE WHEN g %% 37 = 0 THEN NULL ELSE 'cat' || (g %% 5) END,
        CASE WHEN g %% 41 = 0 THEN NULL ELSE md5(g::text) END,
        CASE WHEN g %% 43 = 0 THEN NULL ELSE decode(lpad(to_hex(g), 8, '0'), 'hex') END,
        CASE WHEN g %% 47 = 0 THEN NULL ELSE DATE '2020-01-01' + g END,
        CASE WHEN g %% 53 = 0 THEN NULL ELSE TIMESTAMP '2021-06-01' + g * INTERVAL '1 minute 0.000123 second' END,
        CASE WHEN g %% 59 = 0 THEN NULL ELSE TIMESTAMP '2021-06-01' + g * INTERVAL '1.5 second' END
      FROM generate_series(1, 20500) g$q$, c);
  END LOOP;
END $$;

SELECT count(*), sum(id), count(b), count(s), count(ts) FROM ri_zstd;
-- a range inside one group, one across a group boundary, the partial last group
SELECT orc_groups_of($$SELECT * FROM ri_zstd WHERE id BETWEEN 4100 AND 4200$$);
SELECT orc_same_rows($$SELECT * FROM ri_zstd WHERE id BETWEEN 4100 AND 4200$$);
SELECT orc_groups_of($$SELECT * FROM ri_zstd WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_same_rows($$SELECT * FROM ri_zstd WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_groups_of($$SELECT * FROM ri_zstd WHERE id > 20300$$);
SELECT orc_same_rows($$SELECT * FROM ri_zstd WHERE id > 20300$$);
-- groups far apart (a seek per run), the first group, nothing at all
SELECT orc_groups_of($$SELECT * FROM ri_zstd WHERE id IN (5, 3333, 3334, 9999, 15001, 20499)$$);
SELECT orc_same_rows($$SELECT * FROM ri_zstd WHERE id IN (5, 3333, 3334, 9999, 15001, 20499)$$);
SELECT * FROM ri_zstd WHERE id IN (3333, 15001) ORDER BY id;
SELECT orc_groups_of($$SELECT * FROM ri_zstd WHERE id < 0$$);
SELECT orc_same_rows($$SELECT id, s FROM ri_zstd WHERE id < 0$$);
-- a filter on another column than the one sorted: every group may match
SELECT orc_groups_of($$SELECT * FROM ri_zstd WHERE big = 12345::bigint * 2654435761 % 4294967311 * 1048573$$);
SELECT orc_same_rows($$SELECT * FROM ri_zstd WHERE big = 12345::bigint * 2654435761 % 4294967311 * 1048573$$);
-- projections (the columns sought are the columns read)
SELECT orc_same_rows($$SELECT b, ts3 FROM ri_zstd WHERE id BETWEEN 11950 AND 13050$$);
SELECT orc_same_rows($$SELECT ds, bin, dec FROM ri_zstd WHERE id BETWEEN 1 AND 1500 OR id BETWEEN 17999 AND 18001$$);
-- the other compressions
SELECT orc_groups_of($$SELECT * FROM ri_lz4 WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_same_rows($$SELECT * FROM ri_lz4 WHERE id IN (5, 3333, 3334, 9999, 15001, 20499)$$);
SELECT orc_same_rows($$SELECT * FROM ri_lz4 WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_groups_of($$SELECT * FROM ri_none WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_same_rows($$SELECT * FROM ri_none WHERE id IN (5, 3333, 3334, 9999, 15001, 20499)$$);
SELECT orc_same_rows($$SELECT * FROM ri_none WHERE id BETWEEN 6990 AND 8010$$);
-- Java's ORC writer (test/oracle/pushdown/make_tables.py ri_orc*): the same
-- rows and types, zstd in 4 KiB chunks (positions inside many chunks) and
-- uncompressed
SET TimeZone = 'UTC';
\set jwh `pwd`/results/orc_row_index_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/orc_row_index_wh ri_orc ri_orc_none`
SELECT :'out' AS make_tables;
CREATE SERVER orj FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'jwh');
CREATE SCHEMA orj;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER orj INTO orj;
SELECT count(*), sum(id), count(b), count(s), count(ts) FROM orj.ri_orc;
SELECT * FROM orj.ri_orc WHERE id IN (3333, 15001) ORDER BY id;
SELECT orc_groups_of($$SELECT * FROM orj.ri_orc WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_same_rows($$SELECT * FROM orj.ri_orc WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_same_rows($$SELECT * FROM orj.ri_orc WHERE id BETWEEN 4100 AND 4200$$);
SELECT orc_same_rows($$SELECT * FROM orj.ri_orc WHERE id > 20300$$);
SELECT orc_groups_of($$SELECT * FROM orj.ri_orc WHERE id IN (5, 3333, 3334, 9999, 15001, 20499)$$);
SELECT orc_same_rows($$SELECT * FROM orj.ri_orc WHERE id IN (5, 3333, 3334, 9999, 15001, 20499)$$);
SELECT orc_same_rows($$SELECT b, ts3, ds FROM orj.ri_orc WHERE id BETWEEN 11950 AND 13050 OR id = 17001$$);
SELECT orc_groups_of($$SELECT * FROM orj.ri_orc_none WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_same_rows($$SELECT * FROM orj.ri_orc_none WHERE id BETWEEN 6990 AND 8010$$);
SELECT orc_same_rows($$SELECT * FROM orj.ri_orc_none WHERE id IN (5, 3333, 3334, 9999, 15001, 20499)$$);
-- ours and Java's files hold the same rows
SELECT count(*) FROM orj.ri_orc j FULL JOIN ri_zstd o ON j.id = o.id
 WHERE j.id IS NULL OR o.id IS NULL OR (j.b, j.t, j.sm, j.big, j.d, j.dec, j.ds, j.dt, j.ts, j.ts3)
   IS DISTINCT FROM (o.b, o.t, o.sm, o.big, o.d, o.dec, o.ds, o.dt, o.ts, o.ts3);
RESET TimeZone;

-- the GUC turns it off
SET paimon_fdw.enable_page_index = off;
SELECT orc_groups_of($$SELECT * FROM ri_zstd WHERE id BETWEEN 4100 AND 4200$$);
RESET paimon_fdw.enable_page_index;

DROP FUNCTION orc_same_rows(text);
DROP FUNCTION orc_groups_of(text);
DROP SERVER ors CASCADE;
DROP SCHEMA orj CASCADE;
DROP SERVER orj CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
