-- orc.row.index.stride: ORC files written with a row index entry and a
-- bloom filter per 1000 rows, read back, and our reader skipping stripes
-- by those row groups' bloom filters; strides ORC's writer rejects.
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_orc_stride_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER ws FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('ws', 'db');

CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE FUNCTION stripes_of(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ 'Stripes:' THEN RETURN NEXT trim(line); END IF;
  END LOOP;
END $$;

-- 1000-row groups (a stripe each: orc.stripe.size is checked at group
-- ends), bloom filters on s whose values are spread so that every stripe's
-- min/max of s covers them all: only the bloom filters skip stripes
SELECT paimon_create_table('ws', 'db', 'strided', 'id INT, s STRING',
  options => '{"file.format": "orc", "orc.row.index.stride": "1000",
               "orc.bloom.filter.columns": "s", "orc.stripe.size": "1"}',
  foreign_table => 'strided');
INSERT INTO strided SELECT g, 'k' || lpad(((g * 7919) % 5501)::text, 4, '0')
  FROM generate_series(1, 5500) g;
SELECT count(*), sum(id), count(DISTINCT s), min(s), max(s) FROM strided;
SELECT * FROM strided WHERE s = 'k4321';
SELECT stripes_of($$SELECT * FROM strided WHERE s = 'k4321'$$);
SELECT stripes_of($$SELECT * FROM strided WHERE s IN ('k0010', 'k5500')$$);
SELECT stripes_of($$SELECT * FROM strided WHERE s = 'k1234x'$$);

-- below ORC's minimum of 1000 rows; no row index (0, orc.create.index = false)
SELECT paimon_create_table('ws', 'db', 'small', 'id INT',
  options => '{"file.format": "orc", "orc.row.index.stride": "999"}', foreign_table => 'small');
SELECT sqlstate_of('INSERT INTO small VALUES (1)');
SELECT paimon_create_table('ws', 'db', 'noindex', 'id INT',
  options => '{"file.format": "orc", "orc.row.index.stride": "0"}', foreign_table => 'noindex');
SELECT sqlstate_of('INSERT INTO noindex VALUES (1)');
SELECT paimon_create_table('ws', 'db', 'nocreate', 'id INT',
  options => '{"file.format": "orc", "orc.create.index": "false"}', foreign_table => 'nocreate');
SELECT sqlstate_of('INSERT INTO nocreate VALUES (1)');

DROP FUNCTION stripes_of(text);
DROP FUNCTION sqlstate_of(text);
DROP SERVER ws CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
