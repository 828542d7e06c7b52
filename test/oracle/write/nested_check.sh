#!/usr/bin/env bash
# nested_check.sh [warehouse]
#   Nested columns written through SQL from jsonb (row_batch_json.c) and
#   read by Java: ROW, MAP<STRING, INT>, MAP<INT, ARRAY<STRING>>,
#   ARRAY<ROW<...>>, a ROW of DECIMAL, TIMESTAMP(3), TIMESTAMP_LTZ(6),
#   BYTES, DATE, FLOAT, DOUBLE (NaN, infinities), BOOLEAN, and ARRAY<INT>,
#   with NULLs at every level and empty arrays and maps, in Parquet, ORC
#   and Avro append tables; TIMESTAMP(9) inside nested values (Parquet,
#   ORC); a primary-key ORC table with UPDATEs of its nested columns;
#   primary-key Parquet, ORC and Avro tables of MULTISET columns with
#   repeated elements, upserted and then compacted by the extension (its
#   read and rewrite keep every count; the Avro one without MULTISET<INT>,
#   which Java 1.3.1 and 1.4.2 do not read from Avro). Java 1.3.1 and 1.4.2
#   read every table row for row as the extension does (values compared as
#   JSON, numbers by value; a MULTISET, which Java gives as [element,
#   count] pairs, from the extension's list of elements; Avro's pairs in any
#   order, as Java's HashMap gives them).
# Needs the oracle (test/oracle/oracle.sh) and a running server with
# paimon_fdw installed (PGHOST/PGPORT/... as test/oracle/run.sh gets them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../check_prologue.sh
. "$here/../check_prologue.sh"
check_warehouse nested "${1:-}"
chmod -R a+rwX "$wh"	# the server writes the tables
psql_q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
srv="nested_check_$$"

psql_q >/dev/null <<SQL
SET TimeZone = 'UTC';
CREATE SERVER $srv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$wh');
CREATE SCHEMA $srv;
SET search_path = $srv, public;
SELECT paimon_create_database('$srv', 'db');
SELECT paimon_create_table('$srv', 'db', 'n_' || f,
  'id INT, r ROW<a INT, b STRING>, m MAP<STRING, INT>, mi MAP<INT, ARRAY<STRING>>,
   ar ARRAY<ROW<a INT, b STRING>>,
   dx ROW<d DECIMAL(10, 2), ts TIMESTAMP(3), tz TIMESTAMP(6) WITH LOCAL TIME ZONE, bin BYTES,
          dt DATE, f FLOAT, dd DOUBLE, bo BOOLEAN>,
   ai ARRAY<INT>',
  options => format('{"file.format": "%s"}', f)::jsonb, foreign_table => 'n_' || f)
FROM (VALUES ('parquet'), ('orc'), ('avro')) v(f);
CREATE TABLE src (id int, r jsonb, m jsonb, mi jsonb, ar jsonb, dx jsonb, ai int[]);
INSERT INTO src VALUES
  (1, '{"a": 1, "b": "x"}', '[["k1", 1], ["k2", null]]', '[[1, ["a", null]], [2, []]]',
   '[{"a": 1, "b": "one"}, null, {"a": null, "b": null}]',
   '{"d": "12.50", "ts": "2026-12-01T10:11:12.123", "tz": "2026-12-01T10:11:12.123456Z",
     "bin": "00ff10", "dt": "2026-12-01", "f": 1.5, "dd": "NaN", "bo": true}', '{1,NULL,3}'),
  (2, '{"a": null, "b": null}', '[]', '[[3, null]]', '[]',
   '{"d": "-0.01", "ts": "1969-12-31T23:59:58.5", "tz": "1900-01-01T00:00:00Z", "bin": "",
     "dt": "0001-01-01", "f": -0.0, "dd": "-Infinity", "bo": false}', '{}'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, '{"a": -2147483648}', '{"": 2147483647, "z": null}', '[[-1, ["é日本", ""]]]',
   '[{"b": "only b"}]', '{"d": 99999999.994, "dd": 1e300, "f": "Infinity"}', '{-5}');
INSERT INTO src SELECT g + 100, jsonb_build_object('a', g, 'b', 's' || g),
  (SELECT jsonb_agg(jsonb_build_array('k' || k, k * g)) FROM generate_series(1, g % 5) k),
  jsonb_build_array(jsonb_build_array(g, jsonb_build_array('x', NULL, 'y' || g))),
  (SELECT jsonb_agg(CASE WHEN k % 3 = 0 THEN NULL ELSE jsonb_build_object('a', k) END)
   FROM generate_series(1, g % 4) k),
  jsonb_build_object('d', (g * 1.25)::text, 'ts', '2026-01-01T00:00:00'::timestamp + g * interval '1.001 s',
                     'bin', to_hex(g), 'dt', '2026-01-01'::date + g),
  ARRAY[g, -g]
  FROM generate_series(1, 3000) g;
UPDATE src SET dx = jsonb_set(dx, '{bin}', to_jsonb(lpad(dx->>'bin', 4, '0'))) WHERE id > 100;
INSERT INTO n_parquet SELECT * FROM src;
INSERT INTO n_orc SELECT * FROM src;
INSERT INTO n_avro SELECT * FROM src;
-- round trip: what the extension reads, written back
INSERT INTO n_parquet SELECT id + 10000, r, m, mi, ar, dx, ai FROM n_parquet;
INSERT INTO n_orc SELECT id + 10000, r, m, mi, ar, dx, ai FROM n_orc;
INSERT INTO n_avro SELECT id + 10000, r, m, mi, ar, dx, ai FROM n_avro;
SELECT paimon_create_table('$srv', 'db', 'ts9_' || f,
  'id INT, r ROW<t TIMESTAMP(9), z TIMESTAMP(9) WITH LOCAL TIME ZONE>, a ARRAY<ROW<t TIMESTAMP(9)>>',
  options => format('{"file.format": "%s"}', f)::jsonb, foreign_table => 'ts9_' || f)
FROM (VALUES ('parquet'), ('orc')) v(f);
INSERT INTO ts9_parquet VALUES
  (1, '{"t": "2026-12-01T10:11:12.123456789", "z": "1969-12-31T23:59:58.999999999Z"}',
   '[{"t": "1970-01-01T00:00:00.000000001"}, null, {"t": "2026-01-01T00:00:00.1234567891"}]');
INSERT INTO ts9_orc SELECT * FROM ts9_parquet;
SELECT paimon_create_table('$srv', 'db', 'pk',
  'id INT NOT NULL, r ROW<a INT NOT NULL, tags ARRAY<STRING>>, m MAP<INT, ROW<x DOUBLE>>',
  primary_key => ARRAY['id'], options => '{"bucket": "2", "file.format": "orc"}',
  foreign_table => 'pk');
INSERT INTO pk SELECT g, jsonb_build_object('a', g, 'tags', jsonb_build_array('t' || g)),
  jsonb_build_array(jsonb_build_array(g, jsonb_build_object('x', g / 2.0)))
  FROM generate_series(1, 200) g;
UPDATE pk SET r = jsonb_set(r, '{tags}', '["z", null]'), m = '[[3, {"x": 3}], [4, null]]' WHERE id % 3 = 0;
UPDATE pk SET r = r || '{"a": -1}' WHERE id % 7 = 0;
-- MULTISET in each format; Avro without MULTISET<INT>: Java 1.3.1 and 1.4.2 read no Avro
-- MULTISET of a non-string element (AvroSchemaVisitor's ClassCastException, apache/paimon#9066)
SELECT paimon_create_table('$srv', 'db', t, cols,
  primary_key => ARRAY['id'], options => format('{"bucket": "1", "file.format": "%s"}', f)::jsonb,
  foreign_table => t)
FROM (VALUES ('ms', 'parquet', 'id INT NOT NULL, ms MULTISET<STRING>, mi MULTISET<INT>'),
             ('ms_orc', 'orc', 'id INT NOT NULL, ms MULTISET<STRING>, mi MULTISET<INT>'),
             ('ms_avro', 'avro', 'id INT NOT NULL, ms MULTISET<STRING>')) v(t, f, cols);
INSERT INTO ms SELECT g, (SELECT jsonb_agg('e' || (k * g % 3)) FROM generate_series(1, g % 6) k),
  (SELECT jsonb_agg(k * g % 2) FROM generate_series(1, g % 5) k)
  FROM generate_series(1, 300) g;
INSERT INTO ms SELECT g, '["a", "b", "a", "a"]', '[7, 7, -1]' FROM generate_series(1, 300, 7) g;
INSERT INTO ms_orc SELECT g, (SELECT jsonb_agg('e' || (k * g % 3)) FROM generate_series(1, g % 6) k),
  (SELECT jsonb_agg(k * g % 2) FROM generate_series(1, g % 5) k)
  FROM generate_series(1, 300) g;
INSERT INTO ms_orc SELECT g, '["a", "b", "a", "a"]', '[7, 7, -1]' FROM generate_series(1, 300, 7) g;
INSERT INTO ms_avro SELECT g, (SELECT jsonb_agg('e' || (k * g % 3)) FROM generate_series(1, g % 6) k)
  FROM generate_series(1, 300) g;
INSERT INTO ms_avro SELECT g, '["a", "b", "a", "a"]' FROM generate_series(1, 300, 7) g;
SELECT count(*) FROM paimon_compact('ms');
SELECT count(*) FROM paimon_compact('ms_orc');
SELECT count(*) FROM paimon_compact('ms_avro');
SQL

fail=0
for t in n_parquet n_orc n_avro ts9_parquet ts9_orc pk ms ms_orc ms_avro; do
	psql -X -At -c "SET TimeZone = 'UTC'" -c "SELECT row_to_json(x) FROM $srv.$t x" \
		>"$wh/$t.pg"
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" db "$t" >"$wh/$t.java$v"
		if python3 - "$wh/$t.pg" "$wh/$t.java$v" "$t" <<'PY'
import json, sys
from decimal import Decimal
def load(s): return json.loads(s, parse_float=Decimal, parse_int=Decimal)
def pairs(v):
    # a MULTISET as Java gives it: [element, count] in order of first occurrence
    if v is None:
        return None
    out = []
    for e in v:
        for p in out:
            if p[0] == e:
                p[1] += 1
                break
        else:
            out.append([e, Decimal(1)])
    return out
pg = sorted((list(load(l).values()) for l in open(sys.argv[1]) if l.startswith("{")),
            key=lambda r: r[0])
if sys.argv[3].startswith("ms"):
    pg = [[r[0]] + [pairs(v) for v in r[1:]] for r in pg]
java = sorted((load(l) for l in open(sys.argv[2]) if l.strip()), key=lambda r: r[0])
if sys.argv[3] == "ms_avro":
    # Java's Avro MapReader collects the map into a HashMap: its pairs in hash order
    def unordered(rows):
        return [[r[0]] + [None if v is None else sorted(v, key=lambda p: json.dumps(p, default=str))
                        for v in r[1:]]
                for r in rows]
    pg, java = unordered(pg), unordered(java)
if pg != java:
    print("  %d rows (extension), %d rows (Java)" % (len(pg), len(java)))
    for a, b in zip(pg, java):
        if a != b:
            print("  extension", a, "\n  Java     ", b)
            break
    sys.exit(1)
print("  %d rows" % len(pg))
PY
		then echo "ok   $t read by Java $v"
		else echo "FAIL $t read by Java $v"; fail=1
		fi
	done
done
# the counts as inserted, after our compaction (a read that drops them agrees with itself)
for t in ms ms_orc ms_avro; do
	if [ "$t" = ms_avro ]; then
		pat='^\[[0-9]*,(\[\["a",3\],\["b",1\]\]|\[\["b",1\],\["a",3\]\])\]$'
	else
		pat='^\[[0-9]*,\[\["a",3\],\["b",1\]\],\[\[7,2\],\[-1,1\]\]\]$'
	fi
	n=$(grep -cE "$pat" "$wh/$t.java1.4.2" || true)
	if [ "$n" = 43 ]; then echo "ok   $t: Java reads the 43 upserted multisets with their counts"
	else echo "FAIL $t: $n of the 43 upserted multisets with their counts (a: 3, b: 1; 7: 2, -1: 1)"; fail=1
	fi
done
psql -X -q -c "DROP SERVER $srv CASCADE; DROP SCHEMA $srv CASCADE;" 2>/dev/null || true
exit $fail
