/* paimon_fdw--0.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION paimon_fdw" to load this file. \quit

CREATE FUNCTION paimon_fdw_handler()
RETURNS fdw_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FUNCTION paimon_fdw_validator(text[], oid)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FOREIGN DATA WRAPPER paimon_fdw
  HANDLER paimon_fdw_handler
  VALIDATOR paimon_fdw_validator;

-- Writing (README "Writing"): create Paimon databases and tables. Both need
-- superuser or pg_write_server_files, and USAGE on the server.
CREATE FUNCTION paimon_create_database(server name, database text,
                                       if_not_exists boolean DEFAULT false)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C;

CREATE FUNCTION paimon_create_table(server name, database text, table_name text,
                                    columns text,
                                    primary_key text[] DEFAULT NULL,
                                    partition_keys text[] DEFAULT NULL,
                                    options jsonb DEFAULT NULL,
                                    foreign_table text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C;

-- Maintenance (README "Maintenance"): Paimon's procedures on the table behind
-- a foreign table, as Java 1.4.2 runs them. All need superuser or
-- pg_write_server_files, and USAGE on the server.
CREATE FUNCTION paimon_expire_snapshots(tbl regclass,
                                        retain_max integer DEFAULT NULL,
                                        older_than timestamptz DEFAULT NULL,
                                        retain_min integer DEFAULT NULL,
                                        max_deletes integer DEFAULT NULL)
RETURNS integer
AS 'MODULE_PATHNAME'
LANGUAGE C VOLATILE;

CREATE FUNCTION paimon_create_tag(tbl regclass, name text, snapshot_id bigint DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME'
LANGUAGE C VOLATILE;

CREATE FUNCTION paimon_delete_tag(tbl regclass, name text)
RETURNS boolean
AS 'MODULE_PATHNAME'
LANGUAGE C VOLATILE;

CREATE FUNCTION paimon_rename_tag(tbl regclass, name text, new_name text)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C VOLATILE;

CREATE FUNCTION paimon_rollback(tbl regclass, snapshot_or_tag text)
RETURNS bigint
AS 'MODULE_PATHNAME'
LANGUAGE C VOLATILE;

CREATE FUNCTION paimon_remove_orphan_files(tbl regclass,
                                           older_than timestamptz DEFAULT NULL,
                                           dry_run boolean DEFAULT false,
                                           OUT path text, OUT size bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME'
LANGUAGE C VOLATILE;

CREATE FUNCTION paimon_compact(tbl regclass, partition text DEFAULT NULL,
                               OUT snapshot_id bigint, OUT buckets int,
                               OUT files_deleted int, OUT files_added int,
                               OUT rows bigint)
RETURNS record
AS 'MODULE_PATHNAME'
LANGUAGE C VOLATILE;
