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
