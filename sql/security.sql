-- Names that become paths (database, table, tag; IMPORT's remote schema and
-- LIMIT TO / EXCEPT) cannot lead outside the warehouse, for any role.
-- The warehouse is a corpus folder that has a sibling folder (../orc) with
-- real Paimon databases in it: a name with ".." would reach them.
\set SHOW_CONTEXT never
\set VERBOSITY terse
\getenv corpus PAIMON_CORPUS
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
CREATE SERVER sec_srv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');

-- a role that may only use the server
CREATE ROLE paimon_user;
GRANT USAGE ON FOREIGN SERVER sec_srv TO paimon_user;
CREATE SCHEMA sec AUTHORIZATION paimon_user;
SET ROLE paimon_user;

-- what the role may do: import a database of the warehouse
IMPORT FOREIGN SCHEMA "append_09" LIMIT TO (append_09) FROM SERVER sec_srv INTO sec;
SELECT count(*) FROM sec.append_09;

-- IMPORT: the remote schema is a database name (SQLSTATE 42602 invalid_name)
\set VERBOSITY default
IMPORT FOREIGN SCHEMA "../orc/append_10_external_path" FROM SERVER sec_srv INTO sec;
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY terse
IMPORT FOREIGN SCHEMA ".." FROM SERVER sec_srv INTO sec;
IMPORT FOREIGN SCHEMA "." FROM SERVER sec_srv INTO sec;
IMPORT FOREIGN SCHEMA "a/b" FROM SERVER sec_srv INTO sec;
-- LIMIT TO / EXCEPT names and the tag option
IMPORT FOREIGN SCHEMA "append_09" LIMIT TO ("../x") FROM SERVER sec_srv INTO sec;
\echo :LAST_ERROR_SQLSTATE
IMPORT FOREIGN SCHEMA "append_09" EXCEPT ("..") FROM SERVER sec_srv INTO sec;
IMPORT FOREIGN SCHEMA "append_09" FROM SERVER sec_srv INTO sec OPTIONS (tag '../../x');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM pg_foreign_table;      -- only the one table imported above

-- table options
CREATE FOREIGN TABLE sec.t1 (f0 text) SERVER sec_srv
  OPTIONS (database '../orc/append_10_external_path', table 'append_10_external_path');
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE sec.t2 (f0 text) SERVER sec_srv OPTIONS (database '..', table 'x');
CREATE FOREIGN TABLE sec.t3 (f0 text) SERVER sec_srv OPTIONS (database 'append_09', table '../append_10.db/append_10');
CREATE FOREIGN TABLE sec.t4 (f0 text) SERVER sec_srv OPTIONS (database 'append_09', table '.');
CREATE FOREIGN TABLE sec.t5 (f0 text) SERVER sec_srv
  OPTIONS (database 'append_09', table 'append_09', tag '../../x');
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE sec.t6 (f0 text) SERVER sec_srv
  OPTIONS (database 'append_09', table 'append_09', tag '..');
ALTER FOREIGN TABLE sec.append_09 OPTIONS (SET database '../orc/x');
\echo :LAST_ERROR_SQLSTATE
ALTER FOREIGN TABLE sec.append_09 OPTIONS (ADD tag '..');
SELECT count(*) FROM sec.append_09;         -- unchanged

RESET ROLE;
DROP SCHEMA sec CASCADE;
DROP SERVER sec_srv CASCADE;
DROP ROLE paimon_user;
