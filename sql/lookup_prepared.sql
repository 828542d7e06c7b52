-- A prepared point lookup (generic plan) executed again and again in one
-- backend reuses the table version it read (table_cache.c: inotify watches
-- on the table, snapshot/ and schema/ directories on a local file system,
-- one stat() of <table>/snapshot per statement); whatever another writer
-- did to the table between two executions is seen by the second: a commit,
-- a rollback, snapshot files rewritten in place, the table directory or a
-- directory above it replaced by a rename.
\set SHOW_CONTEXT never
CREATE SCHEMA lp;
SELECT current_setting('data_directory') || '/paimon_lookup_prepared_test' AS wh \gset
SELECT :'wh' || '/db.db/t' AS tdir \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER lpw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('lpw', 'db');
SELECT paimon_create_table('lpw', 'db', 't', 'id BIGINT, v STRING, dt STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "2"}', foreign_table => 'lp.t');
INSERT INTO lp.t SELECT g, 'v' || g, '2024-01-01' FROM generate_series(1, 100) g;

SET plan_cache_mode = force_generic_plan;
PREPARE get(bigint) AS SELECT * FROM lp.t WHERE id = $1;
-- constant quals besides the key
PREPARE get_dt(bigint) AS SELECT * FROM lp.t WHERE id = $1 AND dt = '2024-01-01';
EXECUTE get(1);
EXECUTE get(101);
EXECUTE get_dt(2);

-- state A (snapshot 1) kept aside
SELECT format('cat > /dev/null; cp -a %s %s_A && cp -a %s %s_A2', :'tdir', :'tdir', :'tdir', :'tdir')
  AS keep_a \gset
COPY (SELECT 1) TO PROGRAM :'keep_a';

-- a commit (snapshot 2), then a rollback to snapshot 1
INSERT INTO lp.t VALUES (1, 'uno', '2024-01-02'), (101, 'new', '2024-01-01');
EXECUTE get(1);
EXECUTE get(101);
EXECUTE get_dt(1);
SELECT paimon_rollback('lp.t', '1');
EXECUTE get(1);
EXECUTE get(101);
EXECUTE get_dt(1);
-- snapshot 2 again, a different file under the same name
INSERT INTO lp.t VALUES (1, 'eins', '2024-01-01');
EXECUTE get(1);
EXECUTE get_dt(1);
EXECUTE get(101);

-- the table directory replaced by state A (renames by another writer)
SELECT format('cat > /dev/null; mv %s %s_B && mv %s_A %s', :'tdir', :'tdir', :'tdir', :'tdir')
  AS swap_a \gset
COPY (SELECT 1) TO PROGRAM :'swap_a';
EXECUTE get(1);
EXECUTE get_dt(1);

-- state B's files copied over it: snapshot-1 and schema-0 rewritten in
-- place, snapshot-2 and its manifests new (what a commit of another engine
-- looks like)
SELECT format('cat > /dev/null; cp -a %s_B/. %s/', :'tdir', :'tdir') AS copy_b \gset
COPY (SELECT 1) TO PROGRAM :'copy_b';
EXECUTE get(1);
EXECUTE get_dt(1);

-- the database directory above the table replaced by a rename: a table
-- directory no watch on the old one hears of
SELECT format('cat > /dev/null; mkdir %s/alt.db && cp -a %s_A2 %s/alt.db/t && '
              'mv %s/db.db %s/old.db && mv %s/alt.db %s/db.db',
              :'wh', :'tdir', :'wh', :'wh', :'wh', :'wh', :'wh') AS swap_db \gset
COPY (SELECT 1) TO PROGRAM :'swap_db';
EXECUTE get(1);
EXECUTE get_dt(1);
EXECUTE get(101);

-- the table gone: an error, and back
SELECT format('cat > /dev/null; mv %s %s_gone', :'tdir', :'tdir') AS gone \gset
COPY (SELECT 1) TO PROGRAM :'gone';
\set VERBOSITY terse
EXECUTE get(1);
\set VERBOSITY default
SELECT format('cat > /dev/null; mv %s_gone %s', :'tdir', :'tdir') AS back \gset
COPY (SELECT 1) TO PROGRAM :'back';
EXECUTE get(1);

-- with the metadata cache off: the same answers
SET paimon_fdw.metadata_cache_size = 0;
EXECUTE get(1);
INSERT INTO lp.t VALUES (1, 'one again', '2024-01-01');
EXECUTE get(1);
RESET paimon_fdw.metadata_cache_size;
EXECUTE get(1);
EXECUTE get_dt(1);

-- a warehouse path through a symbolic link (its directories above are not
-- watched: a stat() per statement), the link pointed at another copy
SELECT format('cat > /dev/null; cp -a %s %s_w2 && ln -s %s %s_link', :'wh', :'wh', :'wh', :'wh')
  AS mk_link \gset
COPY (SELECT 1) TO PROGRAM :'mk_link';
SELECT :'wh' || '_link' AS wh_link \gset
CREATE SERVER lpl FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh_link');
CREATE SCHEMA lp2;
IMPORT FOREIGN SCHEMA "db" LIMIT TO (t) FROM SERVER lpl INTO lp2;
PREPARE get_l(bigint) AS SELECT * FROM lp2.t WHERE id = $1;
INSERT INTO lp.t VALUES (1, 'after the copy', '2024-01-01');
EXECUTE get_l(1);
SELECT format('cat > /dev/null; ln -sfn %s_w2 %s_link', :'wh', :'wh') AS repoint \gset
COPY (SELECT 1) TO PROGRAM :'repoint';
EXECUTE get_l(1);
EXECUTE get(1);
DEALLOCATE get_l;
SELECT format('cat > /dev/null; rm -rf %s_w2 %s_link', :'wh', :'wh') AS rm_link \gset
COPY (SELECT 1) TO PROGRAM :'rm_link';
DROP SERVER lpl CASCADE;
DROP SCHEMA lp2;

-- the plan cache choosing: a key in no file (past every file's key range)
-- costs what any key costs, so after its first custom plans the statement
-- keeps the generic plan (it is not planned again at every execution)
RESET plan_cache_mode;
PREPARE get_auto(bigint) AS SELECT * FROM lp.t WHERE id = $1;
EXECUTE get_auto(100001);
EXECUTE get_auto(100002);
EXECUTE get_auto(100003);
EXECUTE get_auto(100004);
EXECUTE get_auto(100005);
EXECUTE get_auto(100006);
EXECUTE get_auto(100007);
EXPLAIN (COSTS OFF) EXECUTE get_auto(100008);
SELECT generic_plans > 0 AS generic, custom_plans FROM pg_prepared_statements
  WHERE name = 'get_auto';
DEALLOCATE get_auto;

DEALLOCATE get;
DEALLOCATE get_dt;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
DROP SERVER lpw CASCADE;
DROP SCHEMA lp CASCADE;
