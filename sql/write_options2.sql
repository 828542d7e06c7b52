-- paimon_create_table refuses what Java's SchemaValidation refuses at
-- creation (src/table/schema_validation.c), with Java's message: nothing is
-- written, no foreign table is made.
\set SHOW_CONTEXT never
\set VERBOSITY default
SELECT current_setting('data_directory') || '/paimon_write_options2_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wopt2 FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('wopt2', 'db');

-- record-level.time-field: a column of type INT, BIGINT, TIMESTAMP or TIMESTAMP_LTZ
\set VERBOSITY sqlstate
SELECT paimon_create_table('wopt2', 'db', 't1', 'id INT, ts TEXT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 d", "record-level.time-field": "ts"}');
\set VERBOSITY default
SELECT paimon_create_table('wopt2', 'db', 't1', 'id INT, ts TEXT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 d", "record-level.time-field": "ts"}');
SELECT paimon_create_table('wopt2', 'db', 't1', 'id INT, ts TIMESTAMP', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.time-field": "nope"}');
-- append tables too (Java checks the field whenever it is set)
SELECT paimon_create_table('wopt2', 'db', 't1', 'id INT, ts DATE',
  options => '{"record-level.time-field": "ts"}');
-- nothing was written: the name is free
SELECT paimon_create_table('wopt2', 'db', 't1', 'id INT, ts TIMESTAMP', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 d", "record-level.time-field": "ts"}',
  foreign_table => 't1');
INSERT INTO t1 VALUES (1, '2099-01-01');
SELECT * FROM t1;

-- retention bounds
SELECT paimon_create_table('wopt2', 'db', 't2', 'id INT',
  options => '{"snapshot.num-retained.min": "0"}');
SELECT paimon_create_table('wopt2', 'db', 't2', 'id INT',
  options => '{"snapshot.num-retained.max": "3"}');
SELECT paimon_create_table('wopt2', 'db', 't2', 'id INT',
  options => '{"changelog.num-retained.min": "50", "changelog.num-retained.max": "40"}');
SELECT paimon_create_table('wopt2', 'db', 't2', 'id INT',
  options => '{"snapshot.num-retained.min": "ten"}');

-- other conflicts
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT',
  options => '{"partition.expiration-time": "7 d"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, rowkind TEXT');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, "_KEY_id" INT');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "first-row", "deletion-vectors.enabled": "true"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "first-row", "changelog-producer": "input"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "sequence.field": "v,v"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "sequence.field": "w"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "rowkind.field": "k"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "deletion-vectors.enabled": "true", "changelog-producer": "full-compaction"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT',
  options => '{"table-read.sequence-number.enabled": "true"}');
SELECT paimon_create_table('wopt2', 'db', 't3', 'id INT, v INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "upsert-key": "v"}');
SELECT count(*) FROM pg_ls_dir(:'wh' || '/db.db') f WHERE f = 't3';

DROP SERVER wopt2 CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
