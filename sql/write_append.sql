-- Writing append tables: paimon_create_database/paimon_create_table, INSERT
-- VALUES, INSERT ... SELECT (several batches), COPY FROM STDIN, partitioned and
-- fixed-bucket tables, partition routing, every scalar type and NULLs read
-- back; ROLLBACK, an ERROR and a failed savepoint leave no snapshot and no
-- files; errors with their SQLSTATEs.
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET extra_float_digits = 0;
-- the warehouse lives in the data directory (writable by the server, gone with it)
SELECT current_setting('data_directory') || '/paimon_write_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER wr FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');

-- files under a directory, relative paths; and a summary by kind
CREATE FUNCTION files_under(dir text) RETURNS SETOF text LANGUAGE sql AS $$
  WITH RECURSIVE f(path, isdir) AS (
    SELECT dir, true
    UNION ALL
    SELECT f.path || '/' || c, (pg_stat_file(f.path || '/' || c)).isdir
    FROM f, pg_ls_dir(f.path) c WHERE f.isdir)
  SELECT substr(path, length(dir) + 2) FROM f WHERE NOT isdir $$;
CREATE FUNCTION file_kinds(dir text, OUT snapshots bigint, OUT data_files bigint,
                           OUT manifest_files bigint, OUT other bigint) LANGUAGE sql AS $$
  SELECT count(*) FILTER (WHERE f ~ '^snapshot/snapshot-[0-9]+$'),
         count(*) FILTER (WHERE f ~ '(^|/)bucket-[0-9]+/data-'),
         count(*) FILTER (WHERE f ~ '^manifest/'),
         count(*) FILTER (WHERE f !~ '^snapshot/snapshot-[0-9]+$' AND f !~ '(^|/)bucket-[0-9]+/data-'
                          AND f !~ '^manifest/' AND f !~ '^schema/schema-0$'
                          AND f !~ '^snapshot/(LATEST|EARLIEST)$')
  FROM files_under(dir) f $$;

-- databases
SELECT paimon_create_database('wr', 'db');
SELECT paimon_create_database('wr', 'db');
SELECT paimon_create_database('wr', 'db', if_not_exists => true);
SELECT paimon_create_database('wr', '..');

-- a table of every scalar type, with its foreign table
SELECT paimon_create_table('wr', 'db', 'scalars',
  'id INT NOT NULL, b BOOLEAN, ti TINYINT, si smallint, i integer, bi BIGINT,
   f FLOAT, d double precision, amount DECIMAL(10, 2), bigdec numeric(38, 6),
   s STRING, vc VARCHAR(5), c CHAR(3), bin BINARY(2), vb bytea,
   dt DATE, tm TIME, ts TIMESTAMP(3), ts6 timestamp, ltz timestamptz, "MixedCase" text',
  foreign_table => 'scalars');
\d scalars
-- the schema file as Java writes it (but its time)
SELECT jsonb_pretty(pg_read_file(:'wh' || '/db.db/scalars/schema/schema-0')::jsonb - 'timeMillis');

INSERT INTO scalars VALUES
  (1, true, 127, 32767, 2147483647, 9223372036854775807, 1.5, 2.25, 12345678.99,
   '12345678901234567890123456789012.123456', 'hello', 'abcde', 'xyz', '\x0102', '\xdeadbeef',
   '2026-12-01', '23:59:59.999', '2026-12-01 10:11:12.345', '1999-12-31 23:59:59.999999',
   '2026-12-01 10:11:12.123456+02', 'Ü'),
  (2, false, -128, -32768, -2147483648, -9223372036854775808, '-0', 'NaN', -0.01,
   '-0.000001', '', 'é日本', 'a', '\x', '\x', '0001-01-01', '00:00', '1970-01-01 00:00:00',
   '1969-12-31 23:59:59.999999', '1900-01-01 00:00:00+00', NULL),
  (3, NULL, NULL, NULL, NULL, NULL, 'Infinity', '-Infinity', NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
-- a timestamp rounds to the field's precision as timestamp(3) does
INSERT INTO scalars (id, ts) VALUES (4, '2026-12-01 10:11:12.3456');
SELECT * FROM scalars ORDER BY id;
SELECT file_kinds(:'wh' || '/db.db/scalars');

-- INSERT ... SELECT: 10000 rows in batches of 1000, one snapshot
SET paimon_fdw.write_batch_size = 1000;
CREATE FOREIGN TABLE scalars_some (id int, s text, amount numeric, ts timestamp) SERVER wr
  OPTIONS (database 'db', table 'scalars');
INSERT INTO scalars_some SELECT g + 100, 'row ' || g, g / 100.0, '2026-01-01'::timestamp + g * interval '1 second'
  FROM generate_series(1, 10000) g;
SELECT count(*), sum(id), sum(amount), min(s), max(ts), count(b) FROM scalars;
SELECT file_kinds(:'wh' || '/db.db/scalars');

-- COPY FROM STDIN
COPY scalars (id, s, bi, dt) FROM STDIN;
20001	copied one	1	2026-12-02
20002	\N	2	\N
\.
SELECT id, s, bi, dt FROM scalars WHERE id > 20000 ORDER BY id;

-- a transaction does not see its own writes; the next statement after COMMIT does
BEGIN;
INSERT INTO scalars (id) VALUES (30000);
SELECT count(*) FROM scalars WHERE id = 30000;
COMMIT;
SELECT count(*) FROM scalars WHERE id = 30000;
-- REPEATABLE READ: the snapshot read first stays for the transaction, the next one sees the commit
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM scalars;
INSERT INTO scalars (id) VALUES (30001);
SELECT count(*) FROM scalars;
COMMIT;
SELECT count(*) FROM scalars;
-- a procedure committing in the middle reads its own commit afterwards
CREATE PROCEDURE write_and_count(INOUT before bigint, INOUT after bigint) LANGUAGE plpgsql AS $$
BEGIN
  SELECT count(*) INTO before FROM scalars;
  INSERT INTO scalars (id) VALUES (30002);
  COMMIT;
  SELECT count(*) INTO after FROM scalars;
END $$;
CALL write_and_count(NULL, NULL);
DROP PROCEDURE write_and_count;

-- ROLLBACK leaves no snapshot and no files
SELECT file_kinds(:'wh' || '/db.db/scalars')::text AS before \gset
BEGIN;
INSERT INTO scalars_some SELECT g, 'x' FROM generate_series(1, 5000) g;
SELECT (file_kinds(:'wh' || '/db.db/scalars')).data_files > 0 AS data_files_written;
ROLLBACK;
SELECT file_kinds(:'wh' || '/db.db/scalars')::text = :'before' AS unchanged;
-- an ERROR in the middle of an INSERT (after several batches were handed over) likewise
INSERT INTO scalars_some SELECT g, CASE WHEN g = 4500 THEN (1 / 0)::text END
  FROM generate_series(1, 5000) g;
SELECT file_kinds(:'wh' || '/db.db/scalars')::text = :'before' AS unchanged;
-- a savepoint that rolls back rows handed to the writer dooms the transaction
BEGIN;
INSERT INTO scalars (id) VALUES (40000);
SAVEPOINT s1;
INSERT INTO scalars_some SELECT g, 'y' FROM generate_series(1, 2000) g;
ROLLBACK TO SAVEPOINT s1;
INSERT INTO scalars (id) VALUES (40001);
ROLLBACK;
BEGIN;
INSERT INTO scalars (id) VALUES (40000);
SAVEPOINT s1;
INSERT INTO scalars_some SELECT g, 'y' FROM generate_series(1, 2000) g;
ROLLBACK TO SAVEPOINT s1;
COMMIT;
-- a failed statement whose rows never reached the writer is fine
BEGIN;
INSERT INTO scalars (id) VALUES (40002);
SAVEPOINT s1;
INSERT INTO scalars (id, ti) VALUES (40003, 1000);
ROLLBACK TO SAVEPOINT s1;
COMMIT;
SELECT id FROM scalars WHERE id >= 40000;
-- PREPARE TRANSACTION after writing is refused
BEGIN;
INSERT INTO scalars (id) VALUES (40004);
PREPARE TRANSACTION 'paimon_write';
SELECT count(*) FROM scalars WHERE id = 40004;
SELECT (file_kinds(:'wh' || '/db.db/scalars')).other AS stray_files;

-- bad values: SQLSTATE and the column
\set VERBOSITY sqlstate
INSERT INTO scalars (id, ti) VALUES (1, 128);
INSERT INTO scalars (id, vc) VALUES (1, 'abcdef');
INSERT INTO scalars (id, bin) VALUES (1, '\x010203');
INSERT INTO scalars (id) VALUES (NULL);
INSERT INTO scalars (id, ts) VALUES (1, 'infinity');
INSERT INTO scalars (id, dt) VALUES (1, '-infinity');
INSERT INTO scalars_some (id, amount) VALUES (1, 123456789.123);
INSERT INTO scalars_some (id, amount) VALUES (1, 'NaN');
INSERT INTO scalars_some (id) VALUES (NULL);
\set VERBOSITY default
\set SHOW_CONTEXT errors
INSERT INTO scalars (id, vc) VALUES (1, 'abcdef');
INSERT INTO scalars_some (id, amount) VALUES (1, 123456789.123);
-- columns declared wider than the mapping are range-checked, text is parsed
CREATE FOREIGN TABLE scalars_wide (id bigint, ti bigint, f float8, dt text) SERVER wr
  OPTIONS (database 'db', table 'scalars');
INSERT INTO scalars_wide VALUES (3000000000, 1, 1, '2026-01-01');
INSERT INTO scalars_wide VALUES (60000, 1, 1e300, '2026-01-01');
INSERT INTO scalars_wide VALUES (60000, 1, 1, 'not a date');
INSERT INTO scalars_wide VALUES (60000, -128, 1e30, '2026-01-01');
SELECT id, ti, f, dt FROM scalars WHERE id = 60000;
\set SHOW_CONTEXT never
-- UPDATE, DELETE: append tables take only inserts (0A000, before any row is read); ON CONFLICT
UPDATE scalars SET s = 'x';
DELETE FROM scalars;
INSERT INTO scalars (id) VALUES (1) ON CONFLICT DO NOTHING;
-- a foreign table reading a fixed snapshot is read-only
CREATE FOREIGN TABLE scalars_at_1 (id int) SERVER wr
  OPTIONS (database 'db', table 'scalars', snapshot_id '1');
INSERT INTO scalars_at_1 VALUES (1);
-- a column the Paimon table does not have
CREATE FOREIGN TABLE scalars_extra (id int, nope int) SERVER wr
  OPTIONS (database 'db', table 'scalars');
INSERT INTO scalars_extra VALUES (1, 1);
SELECT count(*) FROM scalars;

-- partitioned, fixed buckets (bucket key id), partition routing from a Postgres table
SELECT paimon_create_table('wr', 'db', 'events',
  'id bigint NOT NULL, dt STRING NOT NULL, v DOUBLE',
  partition_keys => ARRAY['dt'], options => '{"bucket": 2, "bucket-key": "id"}',
  foreign_table => 'events');
INSERT INTO events SELECT g, '2026-12-0' || (g % 3 + 1), g * 0.5 FROM generate_series(1, 3000) g;
SELECT dt, count(*), sum(id), sum(v) FROM events GROUP BY dt ORDER BY dt;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE dt = '2026-12-02';
SELECT count(*) FROM events WHERE dt = '2026-12-02';
SELECT regexp_replace(f, 'data-[0-9a-f-]+-[0-9]+\.parquet$', 'data-*.parquet') AS data_file, count(*)
  FROM files_under(:'wh' || '/db.db/events') f WHERE f ~ '/data-' GROUP BY 1 ORDER BY 1;
CREATE TABLE all_events (id bigint NOT NULL, dt text NOT NULL, v float8) PARTITION BY LIST (dt);
CREATE TABLE events_local PARTITION OF all_events FOR VALUES IN ('local');
ALTER TABLE all_events ATTACH PARTITION events FOR VALUES IN ('2026-12-04');
INSERT INTO all_events VALUES (5001, '2026-12-04', 1), (5002, 'local', 2), (5003, '2026-12-04', 3);
SELECT tableoid::regclass, * FROM all_events WHERE id > 5000 ORDER BY id;
-- RETURNING (rows one by one), and one transaction writing two Paimon tables
INSERT INTO events VALUES (9000, '2026-12-01', 0.25), (9001, '2026-12-01', 0.5) RETURNING id, v;
BEGIN;
INSERT INTO scalars (id) VALUES (70001);
INSERT INTO events VALUES (9002, '2026-12-05', 1);
COMMIT;
SELECT (SELECT count(*) FROM scalars WHERE id = 70001) AS scalars,
       (SELECT count(*) FROM events WHERE id >= 9000) AS events;

-- create_table errors
\set VERBOSITY sqlstate
SELECT paimon_create_table('wr', 'db', 'events', 'id INT');
SELECT paimon_create_table('wr', 'nodb', 't', 'id INT');
SELECT paimon_create_table('wr', 'db', '../t', 'id INT');
SELECT paimon_create_table('wr', 'db', 'bad', 'id INT', options => '{"buckett": "2"}');
SELECT paimon_create_table('wr', 'db', 'bad', 'id jsonb');
SELECT paimon_create_table('wr', 'db', 'bad', 'id INT, id STRING');
SELECT paimon_create_table('wr', 'db', 'bad', 'id INT', partition_keys => ARRAY['nope']);
SELECT paimon_create_table('wr', 'db', 'bad', 'id numeric[]');
SELECT paimon_create_table('wr', 'db', 'bad', 'id INT, v STRING', primary_key => ARRAY['id'],
                           options => '{"primary-key": "id"}');
\set VERBOSITY default
SELECT paimon_create_table('wr', 'db', 'bad', 'id INT', options => '{"buckett": "2"}');
SELECT paimon_create_table('wr', 'db', 'bad', 'id jsonb');
SELECT paimon_create_table('wr', 'db', 'bad', 'id numeric[]');
-- DECIMAL and NUMERIC alone are Paimon's DECIMAL(10, 0); FLOAT is Paimon's 4-byte FLOAT
SELECT paimon_create_table('wr', 'db', 'names', 'a numeric, b FLOAT, c float8, d varchar(3)[]',
                           foreign_table => 'names');
\d names
SELECT f->>'name' AS name, f->>'type' AS type
  FROM jsonb_array_elements(pg_read_file(:'wh' || '/db.db/names/schema/schema-0')::jsonb->'fields') f;
SELECT count(*) FROM pg_ls_dir(:'wh' || '/db.db') d WHERE d = 'bad';

-- primary-key tables are created and written (more in write_pk)
SELECT paimon_create_table('wr', 'db', 'pk', 'id INT, v STRING', primary_key => ARRAY['id'],
                           options => '{"bucket": "1"}', foreign_table => 'pk');
\d pk
INSERT INTO pk VALUES (1, 'a');

-- privileges: writing needs pg_write_server_files
CREATE ROLE paimon_writer_test;
GRANT USAGE ON FOREIGN SERVER wr TO paimon_writer_test;
GRANT INSERT, SELECT ON scalars TO paimon_writer_test;
SET ROLE paimon_writer_test;
SELECT paimon_create_table('wr', 'db', 'nope', 'id INT');
SELECT paimon_create_database('wr', 'nope');
INSERT INTO scalars (id) VALUES (50000);
RESET ROLE;
GRANT pg_write_server_files TO paimon_writer_test;
SET ROLE paimon_writer_test;
INSERT INTO scalars (id) VALUES (50000);
RESET ROLE;
SELECT count(*) FROM scalars WHERE id = 50000;

DROP TABLE all_events;
DROP OWNED BY paimon_writer_test;
DROP ROLE paimon_writer_test;
DROP SERVER wr CASCADE;
DROP FUNCTION file_kinds(text);
DROP FUNCTION files_under(text);
COPY (SELECT 1) TO PROGRAM :'rm_wh';
