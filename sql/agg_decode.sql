-- Pushed aggregates over the pages the decoding fast paths read, equal to
-- Postgres' own (paimon_fdw.enable_aggregate_pushdown off): pages without
-- nulls (definition levels one RLE run) next to pages with nulls,
-- dictionary pages and a dictionary that falls back to PLAIN mid-chunk
-- (its 1 MiB limit), several batches, GROUP BY a small-range key (groups
-- by direct index) and a wide one (hashed), text min/max with shared
-- 8-byte prefixes, a WHERE clause, a multi-file table.
SET TimeZone = 'UTC';
SET extra_float_digits = 0;
SELECT current_setting('data_directory') || '/paimon_agg_decode_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER aggdec FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('aggdec', 'db');
SELECT paimon_create_table('aggdec', 'db', 't',
  'id INT, k INT, w BIGINT, v INT, x DOUBLE, s STRING, u STRING',
  options => '{"file.format": "parquet", "parquet.page.size": "16kb"}', foreign_table => 'aggdec_t');
INSERT INTO aggdec_t
SELECT i,
       CASE WHEN i % 1000 = 0 THEN NULL ELSE i % 37 END,
       (i % 500)::bigint * 1000000007,
       CASE WHEN i BETWEEN 30000 AND 30500 THEN NULL ELSE i % 1000 - 300 END,
       i * 0.5,
       'same_prefix_' || (i % 101),
       md5(i::text) || md5((i * 7)::text)
FROM generate_series(1, 60000) i;
-- a second file, every v NULL
INSERT INTO aggdec_t SELECT i, i % 5, i, NULL, NULL, NULL, 'z' || i FROM generate_series(1, 5000) i;

\i sql/include/agg_compare.sql

SELECT q, agg_compare(q) FROM (VALUES
  ('SELECT count(*), count(v), sum(v), min(v), max(v), avg(v), sum(x), count(k) FROM aggdec_t'),
  ('SELECT k, count(*), count(v), sum(v), min(s), max(s) FROM aggdec_t GROUP BY k'),
  ('SELECT w, count(*), sum(v), max(u) FROM aggdec_t GROUP BY w'),
  ('SELECT v, count(*), min(id) FROM aggdec_t GROUP BY v'),
  ('SELECT min(u), max(u), min(s), max(s) FROM aggdec_t'),
  ('SELECT k, sum(v), max(u) FROM aggdec_t WHERE id > 29000 GROUP BY k'),
  ('SELECT k, w, count(*) FROM aggdec_t GROUP BY k, w')
) q(q);
-- the figures themselves
SELECT count(*), count(v), sum(v), min(v), max(v), count(k), min(s), max(s), min(u)
FROM aggdec_t;
SELECT k, count(*), sum(v) FROM aggdec_t GROUP BY k ORDER BY k NULLS FIRST LIMIT 3;

-- bool_and / every / bool_or over each format's boolean pages: group 0
-- all true, 1 all false, 2 mixed, 3 only NULLs (NULL results), NULL keys
SELECT paimon_create_table('aggdec', 'db', 'b_' || f, 'id INT, g INT, v BOOLEAN',
  options => format('{"file.format": "%s"}', f)::jsonb, foreign_table => 'aggdec_b_' || f)
FROM unnest(ARRAY['parquet', 'orc', 'avro']) f;
INSERT INTO aggdec_b_parquet
SELECT i, CASE WHEN i % 997 = 0 THEN NULL ELSE i % 4 END,
       CASE i % 4 WHEN 0 THEN true WHEN 1 THEN false WHEN 2 THEN CASE i % 3 WHEN 0 THEN true WHEN 1 THEN false END END
FROM generate_series(1, 20000) i;
INSERT INTO aggdec_b_orc SELECT * FROM aggdec_b_parquet;
INSERT INTO aggdec_b_avro SELECT * FROM aggdec_b_parquet;
SELECT f, q.q, agg_compare(format(q.q, 'aggdec_b_' || f))
FROM unnest(ARRAY['parquet', 'orc', 'avro']) f, (VALUES
  ('SELECT g, bool_and(v), every(v), bool_or(v), count(v), count(*) FROM %s GROUP BY g'),
  ('SELECT bool_and(v), bool_or(v) FROM %s'),
  ('SELECT bool_and(v), bool_or(v) FROM %s WHERE g = 0'),
  ('SELECT v, bool_and(v), bool_or(v), count(*) FROM %s GROUP BY v')
) q(q) ORDER BY 1, 2;
SELECT g, bool_and(v), every(v), bool_or(v), count(v), count(*)
FROM aggdec_b_orc GROUP BY g ORDER BY g NULLS FIRST;

-- count(col) from the files' row and null counts; a prepared generic plan
-- planned so reads the rows once a deletion vector makes the counts inexact
SELECT paimon_create_table('aggdec', 'db', 'cnt', 'id INT, v STRING',
  options => '{"deletion-vectors.enabled": "true"}', foreign_table => 'aggdec_cnt');
INSERT INTO aggdec_cnt
SELECT i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'v' || i END FROM generate_series(1, 100) i;
SET plan_cache_mode = force_generic_plan;
PREPARE cnt AS SELECT count(v), count(id), count(*) FROM aggdec_cnt;
EXPLAIN (COSTS OFF) EXECUTE cnt;
EXECUTE cnt;
DELETE FROM aggdec_cnt WHERE id <= 10;
EXECUTE cnt;
SELECT count(v), count(id), count(*) FROM (SELECT * FROM aggdec_cnt OFFSET 0) s;
DEALLOCATE cnt;
RESET plan_cache_mode;
EXPLAIN (COSTS OFF) SELECT count(v), count(id), count(*) FROM aggdec_cnt;

SET client_min_messages = warning;
DROP FUNCTION agg_compare(text);
DROP FOREIGN TABLE aggdec_cnt;
DROP FOREIGN TABLE aggdec_b_parquet, aggdec_b_orc, aggdec_b_avro;
DROP FOREIGN TABLE aggdec_t;
DROP SERVER aggdec CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
