-- Resources of interrupted scans: queries that fail in the middle of a scan,
-- queries cancelled by statement_timeout and LIMITs and cursors that stop
-- early must leave no file open in the backend (counted in /proc/<pid>/fd),
-- and a cancel must arrive promptly with SQLSTATE 57014 even while the core
-- is planning and reading.
\set SHOW_CONTEXT never
\set VERBOSITY terse
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
CREATE SERVER res_pq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SCHEMA res;
-- 2001 rows of a primary-key table in 3 files
CREATE FOREIGN TABLE res.t (id int, score int, tag text) SERVER res_pq
  OPTIONS (database 'pk_btree_e2e', table 'pk_btree_e2e');
-- a primary-key table with deletion vectors (CRoaring bitmaps)
CREATE FOREIGN TABLE res.d (f0 text, f1 int, f2 int, f3 float8) SERVER res_pq
  OPTIONS (database 'pk_table_scan_and_read_dv', table 'pk_table_scan_and_read_dv');
-- an append table (no merge)
CREATE FOREIGN TABLE res.a (f0 text, f1 int, f2 int, f3 float8) SERVER res_pq
  OPTIONS (database 'append_09', table 'append_09');

-- The backend's open files that are this extension's: those in the corpus and
-- io_uring rings (read from /proc/<pid>/fd). Postgres' own relation files are
-- left out: a backend closes them whenever a catalog invalidation arrives (an
-- autovacuum of a catalog is enough), which is no leak of ours.
CREATE TEMP TABLE res_fds (n bigint);
SET res.corpus = :'corpus';
CREATE FUNCTION res.open_files() RETURNS bigint LANGUAGE plpgsql AS
$$
DECLARE
  corpus text := '''' || replace(current_setting('res.corpus'), '''', '''\''''') || '''';
  n bigint;
BEGIN
  DELETE FROM pg_temp.res_fds;
  EXECUTE format('COPY pg_temp.res_fds FROM PROGRAM %L',
    format('c=$(cd %s && pwd -P) && for f in /proc/%s/fd/*; do readlink "$f"; done'
           ' | grep -c -e "^$c/" -e "^anon_inode:\[io_uring\]" || true',
           corpus, pg_backend_pid()));
  SELECT r.n INTO n FROM pg_temp.res_fds r;
  RETURN n;
END
$$;

-- warm up (catalog files, the libraries of the extension and of plpgsql,
-- the io_uring ring a backend keeps once it reads several ranges at once),
-- then the baseline
SELECT count(*), sum(id) FROM res.t;
SELECT count(*), sum(length(t::text)) FROM res.t t;
SELECT count(*) FROM res.a;
SELECT count(*) FROM res.d;
DO $$
BEGIN
  PERFORM set_config('res.warm', current_setting('TimeZone'), false);
  PERFORM 1 / 0;
EXCEPTION WHEN division_by_zero OR query_canceled THEN
  NULL;
END $$;
-- the backend's own files: without the cache of open data files
SET paimon_fdw.open_file_cache = 0;
SELECT res.open_files() AS files_uncached \gset
RESET paimon_fdw.open_file_cache;
-- every data file read once: the cache keeps them open from now on (the
-- 3 of res.t, the 4 of res.a, the 4 of res.d), and the baseline is with them
SELECT count(*), sum(length(t::text)) FROM res.t t;
SELECT count(*), sum(length(t::text)) FROM res.a t;
SELECT count(*), sum(length(t::text)) FROM res.d t;
SELECT res.open_files() - :files_uncached AS files_cached;
SELECT res.open_files() AS files_before \gset

-- 40 queries failing in the middle of a scan (division by zero at id 1500)
SELECT 'SELECT 1 / (id - 1500) FROM res.t' FROM generate_series(1, 20) \gexec
SELECT 'SELECT 1 / (f1 - 20) FROM res.a' FROM generate_series(1, 10) \gexec
SELECT 'SELECT f0, 1 / (f1 - f1) FROM res.d' FROM generate_series(1, 10) \gexec
SELECT res.open_files() - :files_before AS files_leaked_by_errors;

-- the same inside subtransactions (plpgsql exception blocks)
DO $$
BEGIN
  FOR i IN 1..40 LOOP
    BEGIN
      PERFORM 1 / (id - 1500) FROM res.t;
    EXCEPTION WHEN division_by_zero THEN
      NULL;
    END;
  END LOOP;
END $$;
SELECT res.open_files() - :files_before AS files_leaked_by_subtransactions;

-- cancelled by statement_timeout while the scan holds its files open
SET statement_timeout = '100ms';
SELECT 'SELECT pg_sleep(0.05) FROM res.t' FROM generate_series(1, 5) \gexec
RESET statement_timeout;
SELECT res.open_files() - :files_before AS files_leaked_by_cancels;

-- LIMIT, and cursors closed, committed or rolled back before their end
SELECT id FROM res.t ORDER BY id LIMIT 3;
SELECT count(*) FROM (SELECT * FROM res.t LIMIT 10) s;
BEGIN;
DECLARE c1 CURSOR FOR SELECT id FROM res.t;
FETCH 2 FROM c1;
CLOSE c1;
DECLARE c2 CURSOR FOR SELECT f0 FROM res.a;
FETCH 1 FROM c2;
COMMIT;
BEGIN;
DECLARE c3 CURSOR FOR SELECT id FROM res.t;
FETCH 1 FROM c3;
ROLLBACK;
BEGIN;
DECLARE c4 CURSOR FOR SELECT 1 / (id - 1500) FROM res.t;
FETCH 1 FROM c4;
FETCH ALL FROM c4;
ROLLBACK;
SELECT res.open_files() - :files_before AS files_leaked_by_limits;

-- a long scan (a nested loop of three: each of the 2001 x 2001 outer row
-- pairs rescans the inner side: planning, then 3 files; two were not always
-- enough to outlast the timeout) cancelled by
-- statement_timeout: the cancel arrives within a second, as 57014
SET enable_material = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
-- (without the metadata cache, so that every rescan reads its metadata and
-- the nested loop lasts well beyond the timeout)
SET paimon_fdw.metadata_cache_size = 0;
-- (results go to custom settings: a table would open files of its own)
SET res.cancels = 0;
SET res.slowest = '0';
SET statement_timeout = '1s';
SELECT $q$DO $do$
DECLARE
  t0 timestamptz := clock_timestamp();
BEGIN
  PERFORM count(*) FROM res.t a, res.t b, res.t c WHERE a.score + b.score + c.score = -1;
  RAISE EXCEPTION 'the scan was not cancelled';
EXCEPTION WHEN query_canceled THEN
  PERFORM set_config('res.cancels', (current_setting('res.cancels')::int + 1)::text, false);
  PERFORM set_config('res.slowest', greatest(current_setting('res.slowest')::numeric,
                     extract(epoch FROM clock_timestamp() - t0))::text, false);
END $do$$q$ FROM generate_series(1, 3) \gexec
RESET statement_timeout;
SELECT current_setting('res.cancels') AS cancels,
       current_setting('res.slowest')::numeric < 2 AS prompt;
\set VERBOSITY sqlstate
SET statement_timeout = '1s';
SELECT count(*) FROM res.t a, res.t b, res.t c WHERE a.score + b.score + c.score = -1;
RESET statement_timeout;
\set VERBOSITY terse
RESET paimon_fdw.metadata_cache_size;
RESET enable_material;
RESET enable_hashjoin;
RESET enable_mergejoin;
SELECT res.open_files() - :files_before AS files_leaked_by_long_cancels;

-- still reads right after all that
SELECT count(*), sum(id) FROM res.t;

-- the cache of open files is bounded: with room for 2, reading the 11 files
-- keeps 2 open; at 0 it closes them all, so every scan above gave back the
-- files it used (errors and cancels included)
SET paimon_fdw.open_file_cache = 2;
SELECT res.open_files() - :files_uncached AS files_cached_at_2;
SELECT count(*), sum(length(t::text)) FROM res.t t;
SELECT count(*), sum(length(t::text)) FROM res.a t;
SELECT count(*), sum(length(t::text)) FROM res.d t;
SELECT res.open_files() - :files_uncached AS files_cached_at_2;
SET paimon_fdw.open_file_cache = 0;
SELECT res.open_files() - :files_uncached AS files_cached_at_0;
RESET paimon_fdw.open_file_cache;

DROP SERVER res_pq CASCADE;
