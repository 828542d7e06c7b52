-- Parsed table options are cached per foreign table in a backend
-- (options.c); a change of a foreign table's or a server's options, or a
-- DROP, is seen by the next execution, also of a prepared statement whose
-- generic plan Postgres keeps (ALTER SERVER does not invalidate plans).
\set SHOW_CONTEXT never
CREATE SCHEMA oc;
SELECT current_setting('data_directory') || '/paimon_options_cache_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
SELECT :'wh' || '/one' AS wh1, :'wh' || '/two' AS wh2 \gset
CREATE SERVER oc1 FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh1');
CREATE SERVER oc2 FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh2');
SELECT paimon_create_database('oc1', 'db'), paimon_create_database('oc2', 'db');
SELECT paimon_create_table('oc1', 'db', 'a', 'id BIGINT, v STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1"}', foreign_table => 'oc.a1');
SELECT paimon_create_table('oc1', 'db', 'b', 'id BIGINT, v STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1"}', foreign_table => 'oc.b1');
SELECT paimon_create_table('oc2', 'db', 'a', 'id BIGINT, v STRING',
  primary_key => ARRAY['id'], options => '{"bucket": "1"}', foreign_table => 'oc.a2');
INSERT INTO oc.a1 VALUES (1, 'one/a');
INSERT INTO oc.b1 VALUES (1, 'one/b');
INSERT INTO oc.a2 VALUES (1, 'two/a');
CREATE FOREIGN TABLE oc.t (id bigint, v text) SERVER oc1 OPTIONS (database 'db', table 'a');

SET plan_cache_mode = force_generic_plan;
PREPARE scan AS SELECT v FROM oc.t ORDER BY id;
PREPARE look(bigint) AS SELECT v FROM oc.t WHERE id = $1;
EXECUTE scan;
EXECUTE look(1);
-- the table option
ALTER FOREIGN TABLE oc.t OPTIONS (SET table 'b');
EXECUTE scan;
EXECUTE look(1);
ALTER FOREIGN TABLE oc.t OPTIONS (SET table 'a');
EXECUTE scan;
EXECUTE look(1);
-- the server's warehouse: the generic plans stay, their scans see it
ALTER SERVER oc1 OPTIONS (SET warehouse :'wh2');
EXECUTE scan;
EXECUTE look(1);
ALTER SERVER oc1 OPTIONS (SET warehouse :'wh1');
EXECUTE look(1);
-- dropped and made again under the same name with other options
DROP FOREIGN TABLE oc.t;
EXECUTE look(1);
CREATE FOREIGN TABLE oc.t (id bigint, v text) SERVER oc1 OPTIONS (database 'db', table 'b');
EXECUTE scan;
EXECUTE look(1);
-- options the validator cannot see wrong until they are read
ALTER FOREIGN TABLE oc.t OPTIONS (SET table 'missing');
\set VERBOSITY terse
EXECUTE look(1);
\set VERBOSITY default
ALTER FOREIGN TABLE oc.t OPTIONS (SET table 'b', ADD snapshot_id '99');
EXECUTE look(1);
ALTER FOREIGN TABLE oc.t OPTIONS (DROP snapshot_id);
EXECUTE look(1);
DEALLOCATE scan;
DEALLOCATE look;
RESET plan_cache_mode;

DROP SCHEMA oc CASCADE;
DROP SERVER oc1;
DROP SERVER oc2;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
