-- Option validation of paimon_fdw servers and foreign tables
\set SHOW_CONTEXT never

-- servers
CREATE SERVER s_none FOREIGN DATA WRAPPER paimon_fdw;                 -- ERROR: warehouse required
CREATE SERVER s_rel FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse 'relative/dir');   -- ERROR
CREATE SERVER s_typo FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehous '/tmp');          -- ERROR, hint
CREATE SERVER s_map FOREIGN DATA WRAPPER paimon_fdw
  OPTIONS (warehouse '/tmp', external_path_map 'no-equals-sign');      -- ERROR
CREATE SERVER s_ok FOREIGN DATA WRAPPER paimon_fdw
  OPTIONS (warehouse '/tmp', external_path_map 'FILE:/tmp/external=/data/ext,file:/a=/b');
ALTER SERVER s_ok OPTIONS (ADD database 'x');                          -- ERROR: table option

-- foreign tables
CREATE FOREIGN TABLE ft_missing (a int) SERVER s_ok;                   -- ERROR: database and table
CREATE FOREIGN TABLE ft_bad (a int) SERVER s_ok OPTIONS (database 'd', tabel 't');   -- ERROR, hint
CREATE FOREIGN TABLE ft_snap (a int) SERVER s_ok
  OPTIONS (database 'd', table 't', snapshot_id 'latest');             -- ERROR
CREATE FOREIGN TABLE ft_snap0 (a int) SERVER s_ok
  OPTIONS (database 'd', table 't', snapshot_id '0');                  -- ERROR
CREATE FOREIGN TABLE ft_path (a int) SERVER s_ok
  OPTIONS (database '../d', table 't');                                -- ERROR
CREATE FOREIGN TABLE ft_ok (a int) SERVER s_ok OPTIONS (database 'd', table 't', snapshot_id '3');
ALTER FOREIGN TABLE ft_ok OPTIONS (SET snapshot_id '4');

-- a table that does not exist on disk fails when queried, not when created
SELECT * FROM ft_ok;                                                   -- ERROR

-- privileges: the warehouse option names server files
CREATE ROLE paimon_nobody;
GRANT USAGE ON FOREIGN DATA WRAPPER paimon_fdw TO paimon_nobody;
SET ROLE paimon_nobody;
CREATE SERVER s_priv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '/tmp');   -- ERROR
RESET ROLE;
REVOKE USAGE ON FOREIGN DATA WRAPPER paimon_fdw FROM paimon_nobody;
DROP ROLE paimon_nobody;

DROP SERVER s_ok CASCADE;
