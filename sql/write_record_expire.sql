-- record-level.expire-time on primary-key tables (lsm/record_expire.c):
-- written from Postgres; reads never filter (Java's batch read does not);
-- paimon_compact and the compaction at commit drop the records whose time
-- field (INT seconds, BIGINT seconds or milliseconds, TIMESTAMP,
-- TIMESTAMP_LTZ) is older than now minus the expire time; NULL never
-- expires. Times are far in the past or future, so the clock never decides.
-- Bad settings are refused as Java refuses them.
\set SHOW_CONTEXT never
\set VERBOSITY default
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SELECT current_setting('data_directory') || '/paimon_record_expire_test' AS wh \gset
SELECT 'cat > /dev/null; rm -rf ' || :'wh' AS rm_wh \gset
COPY (SELECT 1) TO PROGRAM :'rm_wh';
CREATE SERVER rex FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
SELECT paimon_create_database('rex', 'db');

-- TIMESTAMP: 2 buckets, 3 commits (an expired update lets the older record
-- show again: Java drops expired records before merging them)
SELECT paimon_create_table('rex', 'db', 'ts_tbl',
  'id INT, ts TIMESTAMP(3), v STRING', primary_key => ARRAY['id'],
  options => '{"bucket": "2", "record-level.expire-time": "1 d", "record-level.time-field": "ts"}',
  foreign_table => 'ts_tbl');
INSERT INTO ts_tbl VALUES (1, '1999-12-31 23:59:59.999', 'old'), (2, '2100-01-01 00:00:00', 'new'),
  (3, NULL, 'null time'), (4, '1969-12-31 23:59:59.500', 'before 1970'),
  (5, '2100-06-01 12:00:00', 'new, updated by an old one');
INSERT INTO ts_tbl VALUES (6, '2000-01-01 00:00:00', 'old'), (7, '2101-01-01 00:00:00', 'new');
UPDATE ts_tbl SET ts = '2001-01-01 00:00:00', v = 'old update' WHERE id = 5;
SELECT * FROM ts_tbl ORDER BY id;           -- reads do not filter
SELECT snapshot_id > 0 AS committed, buckets, files_added, rows FROM paimon_compact('ts_tbl');
SELECT * FROM ts_tbl ORDER BY id;
SELECT snapshot_id, buckets FROM paimon_compact('ts_tbl');  -- nothing left to do

-- TIMESTAMP_LTZ: the instant counts, whatever the session time zone
SET TimeZone = 'Asia/Tokyo';
SELECT paimon_create_table('rex', 'db', 'ltz_tbl',
  'id INT, ts TIMESTAMP(6) WITH LOCAL TIME ZONE', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "30 d", "record-level.time-field": "ts"}',
  foreign_table => 'ltz_tbl');
INSERT INTO ltz_tbl VALUES (1, '2020-01-01 09:00:00+09'), (2, '2099-12-31 23:00:00-05'), (3, NULL);
SELECT rows FROM paimon_compact('ltz_tbl');
SET TimeZone = 'UTC';
SELECT * FROM ltz_tbl ORDER BY id;

-- INT seconds and BIGINT seconds or milliseconds (from 10^12 on)
SELECT paimon_create_table('rex', 'db', 'int_tbl', 'id INT, t INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 h", "record-level.time-field": "t"}',
  foreign_table => 'int_tbl');
INSERT INTO int_tbl VALUES (1, 0), (2, 2000000000), (3, -100), (4, NULL);
SELECT rows FROM paimon_compact('int_tbl');
SELECT * FROM int_tbl ORDER BY id;
SELECT paimon_create_table('rex', 'db', 'big_tbl', 'id INT, t BIGINT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "7 d", "record-level.time-field": "t"}',
  foreign_table => 'big_tbl');
INSERT INTO big_tbl VALUES (1, 1000000000), (2, 4102444800), (3, 1000000000000),
  (4, 4102444800000), (5, 999999999999);
SELECT rows FROM paimon_compact('big_tbl');
SELECT * FROM big_tbl ORDER BY id;

-- the compaction a writer runs at commit drops them too (2 sorted runs trigger it)
SELECT paimon_create_table('rex', 'db', 'auto_tbl', 'id INT, t BIGINT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 d", "record-level.time-field": "t",
               "num-sorted-run.compaction-trigger": "2"}',
  foreign_table => 'auto_tbl');
INSERT INTO auto_tbl SELECT g, CASE WHEN g % 2 = 0 THEN 1000 ELSE 4102444800 END
  FROM generate_series(1, 100) g;
INSERT INTO auto_tbl SELECT g, CASE WHEN g % 2 = 0 THEN 1000 ELSE 4102444800 END
  FROM generate_series(101, 400) g;
SELECT count(*), min(t), max(t) FROM auto_tbl;

-- refused as Java refuses them (SchemaValidation, RecordLevelExpire.create)
SELECT paimon_create_table('rex', 'db', 'no_field', 'id INT, t INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 d"}', foreign_table => 'no_field');
\set VERBOSITY verbose
INSERT INTO no_field VALUES (1, 1);
\set VERBOSITY default
-- a time field Java's SchemaValidation refuses: refused at creation, nothing written
\set VERBOSITY sqlstate
SELECT paimon_create_table('rex', 'db', 'str_field', 'id INT, t STRING', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 d", "record-level.time-field": "t"}',
  foreign_table => 'str_field');
\set VERBOSITY default
SELECT paimon_create_table('rex', 'db', 'str_field', 'id INT, t STRING', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 d", "record-level.time-field": "t"}',
  foreign_table => 'str_field');
SELECT count(*) FROM pg_foreign_table WHERE ftrelid::regclass::text = 'str_field';
SELECT paimon_create_table('rex', 'db', 'bad_dur', 'id INT, t INT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "record-level.expire-time": "1 fortnight", "record-level.time-field": "t"}',
  foreign_table => 'bad_dur');
INSERT INTO bad_dur VALUES (1, 1);

-- deletion-vector and first-row tables: their lookup compaction at commit
-- drops expired records too (every commit compacts level 0 away)
SELECT paimon_create_table('rex', 'db', 'dv_tbl', 'id INT, t INT, v TEXT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "deletion-vectors.enabled": "true",
               "record-level.expire-time": "1 d", "record-level.time-field": "t"}',
  foreign_table => 'dv_tbl');
INSERT INTO dv_tbl VALUES (1, 1, 'old'), (2, 2000000000, 'new'), (3, NULL, 'null time');
INSERT INTO dv_tbl VALUES (2, 5, 'old update of a new row'), (4, 2000000000, 'new');
SELECT * FROM dv_tbl ORDER BY id;
SELECT paimon_create_table('rex', 'db', 'fr_tbl', 'id INT, t INT, v TEXT', primary_key => ARRAY['id'],
  options => '{"bucket": "1", "merge-engine": "first-row",
               "record-level.expire-time": "1 d", "record-level.time-field": "t"}',
  foreign_table => 'fr_tbl');
INSERT INTO fr_tbl VALUES (1, 1, 'old'), (2, 2000000000, 'new');
INSERT INTO fr_tbl VALUES (1, 2000000000, 'first live row of 1'), (2, 2000000000, 'not first');
SELECT * FROM fr_tbl ORDER BY id;

DROP SERVER rex CASCADE;
COPY (SELECT 1) TO PROGRAM :'rm_wh';
