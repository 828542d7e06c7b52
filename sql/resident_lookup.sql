-- Resident lookups (paimon_fdw.enable_resident_lookup, src/table/resident_file.h):
-- once lookups of one integer primary key came back to a data file often
-- enough (16 times, and once per 32 of its rows), the file is read whole
-- into the page cache, and later lookups of its keys take their row from
-- there without reading a page ("answered by resident files" in EXPLAIN
-- ANALYZE). Every answer equals the full scan's: keys updated, deleted,
-- NULL-valued or absent, new commits, partitions; with the shared page
-- store a new backend finds the files another one made resident.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
CREATE SCHEMA rl;
SELECT current_setting('data_directory') || '/paimon_resident_test' AS wh \gset
SELECT current_setting('data_directory') || '/paimon_resident_store' AS store \gset
SELECT format('cat > /dev/null; rm -rf %s %s', :'wh', :'store') AS rm_all \gset
COPY (SELECT 1) TO PROGRAM :'rm_all';
CREATE SERVER rlw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('rlw', 'db');
SELECT paimon_create_table('rlw', 'db', 'kv',
  'id INT, s STRING, n BIGINT, d DECIMAL(20, 3), f DOUBLE, t TIMESTAMP(9), dt DATE, b BOOLEAN, y BYTES',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'rl.kv');
INSERT INTO rl.kv
  SELECT g, 's' || g, g * 3, g / 7.0, g / 3.0, timestamp '2020-01-01' + g * interval '1.000001 second',
         date '2020-01-01' + g, g % 2 = 0, decode(lpad(to_hex(g), 8, '0'), 'hex')
  FROM generate_series(1, 2000) g;
-- NULL in every value column
INSERT INTO rl.kv (id) SELECT g FROM generate_series(2001, 2100) g;
UPDATE rl.kv SET s = 'u' || id, n = -n WHERE id % 7 = 0;
DELETE FROM rl.kv WHERE id % 11 = 0;

-- the lookups of ids 0..2200 (absent ones too), a subquery's per outer row,
-- against a heap copy read without lookups
SET paimon_fdw.enable_point_lookup = off;
CREATE TABLE rl.h_kv AS SELECT * FROM rl.kv;
RESET paimon_fdw.enable_point_lookup;
CREATE FUNCTION rl.lookups_query(tab text, cond text) RETURNS text LANGUAGE sql AS $$
  SELECT format('SELECT g, (SELECT string_agg(t::text, %L ORDER BY t::text) FROM %s t WHERE %s) AS r
                 FROM (SELECT g, g %% 3 AS gp FROM generate_series(0, 2200) g OFFSET 0) s',
                 ';', tab, cond)
$$;
CREATE FUNCTION rl.differing(tab text, heap text, cond text DEFAULT 't.id = g')
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM (%s) p JOIN (%s) h USING (g) WHERE p.r IS DISTINCT FROM h.r',
                 rl.lookups_query(tab, cond), rl.lookups_query(heap, cond)) INTO n;
  RETURN n;
END $$;
-- the lookup line of EXPLAIN ANALYZE for the same loop: the lookups, and
-- how many of them the resident files answered
CREATE FUNCTION rl.resident_answers(tab text, cond text DEFAULT 't.id = g')
RETURNS TABLE (lookups bigint, resident bigint) LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ' || rl.lookups_query(tab, cond) LOOP
    IF line ~ 'Point Lookups \(executed\)' THEN
      lookups := substring(line from '(\d+) lookups of')::bigint;
      resident := coalesce(substring(line from '(\d+) answered by resident files')::bigint, 0);
      RETURN NEXT;
    END IF;
  END LOOP;
END $$;
EXPLAIN (COSTS OFF) SELECT g, (SELECT t FROM rl.kv t WHERE t.id = g) FROM generate_series(0, 2200) g;
-- the first loop makes the files resident, the next ones read them
SELECT rl.differing('rl.kv', 'rl.h_kv');
SELECT lookups, resident > 2000 AS mostly_resident FROM rl.resident_answers('rl.kv');
SELECT rl.differing('rl.kv', 'rl.h_kv');
SELECT * FROM rl.kv WHERE id IN (7, 11, 12, 2050, 2101) ORDER BY id;
SELECT * FROM rl.h_kv WHERE id IN (7, 11, 12, 2050, 2101) ORDER BY id;
-- some columns, in another order; none (count); a parameter of a generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE rl_get(int) AS SELECT y, id, s FROM rl.kv WHERE id = $1;
EXECUTE rl_get(12);
EXECUTE rl_get(11);
EXECUTE rl_get(2050);
SELECT * FROM rl.h_kv WHERE id IN (12, 2050) ORDER BY id;
PREPARE rl_count(int) AS SELECT count(*) FROM rl.kv WHERE id = $1 AND n IS DISTINCT FROM 0;
EXECUTE rl_count(12);
EXECUTE rl_count(11);
CREATE FUNCTION rl.resident_of(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  line text;
  n bigint := 0;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ' || q LOOP
    IF line ~ 'answered by resident files' THEN
      n := substring(line from '(\d+) answered by resident files')::bigint;
    END IF;
  END LOOP;
  RETURN n;
END $$;
SELECT rl.resident_of('EXECUTE rl_get(12)') AS found, rl.resident_of('EXECUTE rl_count(11)') AS deleted;
DEALLOCATE rl_get;
DEALLOCATE rl_count;
RESET plan_cache_mode;
-- off: every lookup through the pages
SET paimon_fdw.enable_resident_lookup = off;
SELECT * FROM rl.resident_answers('rl.kv');
SELECT rl.differing('rl.kv', 'rl.h_kv');
RESET paimon_fdw.enable_resident_lookup;

-- a commit: the files it left alone answer at once, its new file once
-- lookups came back to it
UPDATE rl.kv SET s = 'again' WHERE id BETWEEN 100 AND 120;
DELETE FROM rl.kv WHERE id BETWEEN 121 AND 125;
INSERT INTO rl.kv (id, s) VALUES (2150, 'new');
DROP TABLE rl.h_kv;
SET paimon_fdw.enable_point_lookup = off;
CREATE TABLE rl.h_kv AS SELECT * FROM rl.kv;
RESET paimon_fdw.enable_point_lookup;
SELECT rl.differing('rl.kv', 'rl.h_kv');
SELECT rl.differing('rl.kv', 'rl.h_kv');
SELECT lookups, resident > 2000 AS mostly_resident FROM rl.resident_answers('rl.kv');
SELECT * FROM rl.kv WHERE id IN (100, 121, 2150) ORDER BY id;

-- a partitioned table: a key without its partition may be in several
-- partitions (the lookup goes through the pages); with it, in one
SELECT paimon_create_table('rlw', 'db', 'part', 'p INT, id INT, v STRING',
  primary_key => ARRAY['p', 'id'], partition_keys => ARRAY['p'], options => '{"bucket": "1"}',
  foreign_table => 'rl.part');
INSERT INTO rl.part SELECT g % 3, g, 'v' || g FROM generate_series(0, 2200) g;
INSERT INTO rl.part SELECT (g + 1) % 3, g, 'w' || g FROM generate_series(0, 2200, 5) g;
SET paimon_fdw.enable_point_lookup = off;
CREATE TABLE rl.h_part AS SELECT * FROM rl.part;
RESET paimon_fdw.enable_point_lookup;
SELECT rl.differing('rl.part', 'rl.h_part');
SELECT rl.differing('rl.part', 'rl.h_part');
SELECT lookups, resident FROM rl.resident_answers('rl.part');
SELECT rl.differing('rl.part', 'rl.h_part', 't.p = gp AND t.id = g');
SELECT rl.differing('rl.part', 'rl.h_part', 't.p = gp AND t.id = g');
SELECT lookups, resident > 2000 AS mostly_resident
FROM rl.resident_answers('rl.part', 't.p = gp AND t.id = g');

-- the shared page store: a new backend finds the resident files at once
\c
SET TimeZone = 'UTC';
SET paimon_fdw.shared_page_cache_dir = :'store';
SELECT rl.differing('rl.kv', 'rl.h_kv');
\c
SET TimeZone = 'UTC';
SET paimon_fdw.shared_page_cache_dir = :'store';
SELECT lookups, resident > 2000 AS mostly_resident FROM rl.resident_answers('rl.kv');
SELECT * FROM rl.kv WHERE id IN (7, 11, 12, 2150) ORDER BY id;
RESET paimon_fdw.shared_page_cache_dir;

COPY (SELECT 1) TO PROGRAM :'rm_all';
DROP SERVER rlw CASCADE;
DROP SCHEMA rl CASCADE;
