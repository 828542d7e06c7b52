#!/usr/bin/env bash
# write_check.sh [warehouse] [--difftest SEEDS]
#   Java writes a table of many types (partitioned, unaware bucket, one commit),
#   in Parquet and in Avro;
#   copy_table (the core's writer) copies its rows into a new table; then
#   - the value stats of each of our files equal Java's for the same rows,
#   - Java (1.3.1 and 1.4.2) reads our table as the same rows as its own,
#   - Java appends to our table and reads all rows back;
#   - the same table with data-file.external-paths (weight-robin over two local
#     roots): our files are under the roots, Java 1.4.2 reads and appends.
#   --difftest N: also copy the tables of difftest.py seeds 1..N (random types,
#   partitions, buckets, formats, schema changes; --nested) into Parquet tables
#   of ours and compare Java 1.4.2's reads of both (MAP entry order aside).
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse write_check "${1:-}"
seeds=0
if [ "${2:-}" = --difftest ]; then seeds=${3:-10}; fi
check_tool "$here/copy_table.c"

python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
table = {"columns": [
    {"name": "id", "type": "INT"}, {"name": "b", "type": "BIGINT"},
    {"name": "s", "type": "STRING"}, {"name": "d", "type": "DOUBLE"},
    {"name": "f", "type": "FLOAT"}, {"name": "flag", "type": "BOOLEAN"},
    {"name": "dec", "type": "DECIMAL(10, 2)"}, {"name": "dec30", "type": "DECIMAL(30, 5)"},
    {"name": "day", "type": "DATE"}, {"name": "ts3", "type": "TIMESTAMP(3)"},
    {"name": "ts6", "type": "TIMESTAMP(6)"}, {"name": "ts9", "type": "TIMESTAMP(9)"},
    {"name": "bin", "type": "BYTES"}, {"name": "arr", "type": "ARRAY<INT>"},
    {"name": "allnull", "type": "STRING"}, {"name": "nanonly", "type": "DOUBLE"},
    {"name": "dt", "type": "STRING"}],
    "partition_keys": ["dt"], "primary_keys": [],
    "options": {"file.format": "parquet", "fields.b.stats-mode": "counts",
                "fields.d.stats-mode": "full", "fields.ts6.stats-mode": "none"}}
json.dump(table, open(wh + "/table.json", "w"))
# Avro: no TIMESTAMP(9) in Java's Avro files (column 11)
avro = dict(table, columns=[c for c in table["columns"] if c["name"] != "ts9"],
            options=dict(table["options"], **{"file.format": "avro"}))
json.dump(avro, open(wh + "/table_avro.json", "w"))
with open(wh + "/ops.jsonl", "w") as out:
    for i in range(600):
        s = None if i % 11 == 0 else ("long string number %d with \u00e9 and \u4e00 %s" % (i, "z" * (i % 30)) if i % 3 else "s%d" % i)
        if i == 5:
            s = "\U0010ffff\U0010ffff" * 10
        row = [i, None if i % 13 == 0 else i * 1000003 - 7, s,
               # NaN (Java: the max, and min when all are NaN) and -0.0 in d and f
               None if i % 17 == 0 else "NaN" if i % 50 == 3 else -0.0 if i % 50 == 4 else i / 7.0 - 30,
               None if i % 19 == 0 else "NaN" if i % 61 == 5 else i / 4.0,
               None if i % 5 == 0 else i % 2 == 0,
               None if i % 23 == 0 else "%d.%02d" % (i - 300, i % 100),
               "%d.%05d" % (i * 1234567, i % 100000),
               "2026-%02d-%02d" % (1 + i % 12, 1 + i % 28),
               "2026-12-03T10:%02d:%02d.%03d" % (i % 60, (i * 7) % 60, i % 1000),
               "2026-12-03T11:%02d:%02d.%06d" % (i % 60, (i * 3) % 60, i * 997 % 1000000),
               "2026-12-03T12:%02d:%02d.%09d" % (i % 60, (i * 5) % 60, i * 123457 % 1000000000),
               None if i % 7 == 0 else bytes([i % 256, (i * 3) % 256]).hex(),
               None if i % 9 == 0 else [i, None, -i],
               None,
               None if i % 4 == 0 else "NaN",
               ["2026-12-01", "2026-12-02", None][i % 3]]
        out.write(json.dumps({"op": "+I", "row": row}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
# data-file.external-paths, weight-robin over two local roots (1.4 strategy): the same rows
ext = dict(table, options=dict(table["options"], **{
    "data-file.external-paths": "file:%s/ext_a,file:%s/ext_b" % (wh, wh),
    "data-file.external-paths.strategy": "weight-robin",
    "data-file.external-paths.weights": "1,3"}))
json.dump(ext, open(wh + "/table_ext.json", "w"))
with open(wh + "/ops.jsonl") as src, open(wh + "/ops_avro.jsonl", "w") as out:
    for line in src:
        op = json.loads(line)
        if "row" in op:
            del op["row"][11]
        out.write(json.dumps(op) + "\n")
with open(wh + "/more.jsonl", "w") as out:
    out.write(json.dumps({"op": "+I", "row": [9001] + [None] * 15 + ["2026-12-02"]}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
PY

export ORACLE_PAIMON_VERSION=1.4.2
"$oracle" create "$wh" wc java_t "$wh/table.json" >/dev/null
"$oracle" write "$wh" wc java_t "$wh/ops.jsonl" >/dev/null
"$wh/copy_table" "$wh/wc.db/java_t" "$wh/wc.db/ours_t"

"$oracle" create "$wh" wc java_avro "$wh/table_avro.json" >/dev/null
"$oracle" write "$wh" wc java_avro "$wh/ops_avro.jsonl" >/dev/null
"$wh/copy_table" "$wh/wc.db/java_avro" "$wh/wc.db/ours_avro"

"$oracle" create "$wh" wc java_ext "$wh/table_ext.json" >/dev/null
"$oracle" write "$wh" wc java_ext "$wh/ops.jsonl" >/dev/null
"$wh/copy_table" "$wh/wc.db/java_ext" "$wh/wc.db/ours_ext" >/dev/null

fail=0
# external paths: our files under the roots (<root>/dt=<d>/bucket-0/), none in our table;
# Java reads our table as its own and appends to it
ours_in_table=$(find "$wh/wc.db/ours_ext" -name 'data-*' | wc -l)
# weight-robin draws each file's root at random (Java's WeightedExternalPathProvider, and
# ours): at weights 1:3 none of the 6 files lands in ext_a about one run in six, and the
# root directory is then never made; find must still count the files in the other one
mkdir -p "$wh/ext_a" "$wh/ext_b"
all_files=$(find "$wh/ext_a" "$wh/ext_b" -name 'data-*' | wc -l)
shaped=$(find "$wh/ext_a" "$wh/ext_b" -name 'data-*' | grep -cE '/ext_[ab]/dt=[^/]+/bucket-0/data-[^/]+$' || true)
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" wc java_ext | sort > "$wh/java_ext.rows"
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" wc ours_ext | sort > "$wh/ours_ext.rows"
if [ "$ours_in_table" -eq 0 ] && [ "$all_files" -eq 6 ] && [ "$shaped" -eq 6 ] &&
	cmp -s "$wh/java_ext.rows" "$wh/ours_ext.rows" && [ -s "$wh/ours_ext.rows" ]; then
	echo "external paths: our 3 files (and Java's 3) under the roots, Java 1.4.2 reads our table as its own: $(wc -l < "$wh/ours_ext.rows") rows"
else
	echo "FAIL external paths: $ours_in_table data files in our table, $all_files under the roots ($shaped as Java's), rows $(wc -l < "$wh/ours_ext.rows")"; fail=1
fi
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" wc ours_ext "$wh/more.jsonl" >/dev/null
n=$(ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" wc ours_ext | wc -l)
if [ "$n" = 601 ]; then echo "external paths: Java appended to our table: 601 rows"; else echo "FAIL: $n rows after Java's append to ours_ext"; fail=1; fi
for v in 1.3.1 1.4.2; do
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wc java_avro | sort > "$wh/java_avro_$v.rows"
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wc ours_avro | sort > "$wh/ours_avro_$v.rows"
	if cmp -s "$wh/java_avro_$v.rows" "$wh/ours_avro_$v.rows" && [ -s "$wh/ours_avro_$v.rows" ]; then
		echo "Java $v reads our Avro table as its own: $(wc -l < "$wh/ours_avro_$v.rows") rows"
	else
		echo "FAIL: Java $v reads our Avro table differently"; diff "$wh/java_avro_$v.rows" "$wh/ours_avro_$v.rows" | head -5; fail=1
	fi
done
for v in 1.3.1 1.4.2; do
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wc java_t | sort > "$wh/java_$v.rows"
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wc ours_t | sort > "$wh/ours_$v.rows"
	if cmp -s "$wh/java_$v.rows" "$wh/ours_$v.rows" && [ -s "$wh/ours_$v.rows" ]; then
		echo "Java $v reads our table as its own: $(wc -l < "$wh/ours_$v.rows") rows"
	else
		echo "FAIL: Java $v reads our table differently"; diff "$wh/java_$v.rows" "$wh/ours_$v.rows" | head -5; fail=1
	fi
done
"$oracle" write "$wh" wc ours_t "$wh/more.jsonl" >/dev/null
n=$("$oracle" read "$wh" wc ours_t | wc -l)
if [ "$n" = 601 ]; then echo "Java appended to our table: 601 rows"; else echo "FAIL: $n rows after Java's append"; fail=1; fi

if [ "$seeds" -gt 0 ]; then
	python3 "$root/test/oracle/difftest.py" --seeds "$seeds" --no-sql --nested --keep \
		--tmp "$wh/difftest" --paimon-version 1.4.2 >/dev/null
	for d in "$wh"/difftest/seed*/wh; do
		t=$(ls "$d/difft.db" | grep -v '^ours_' | head -1)
		if ! "$wh/copy_table" "$d/difft.db/$t" "$d/difft.db/ours_$t" --parquet > "$d/copy.out" 2>&1; then
			echo "NOTE $t: $(grep -E 'copy_table:|compared' "$d/copy.out" | tr '\n' ' ')"
		fi
		norm='import json,sys
def n(v): return sorted((n(x) for x in v), key=json.dumps) if isinstance(v, list) and v and all(isinstance(x, list) and len(x) == 2 for x in v) else ([n(x) for x in v] if isinstance(v, list) else v)
for l in sys.stdin: print(json.dumps(n(json.loads(l))))'
		"$oracle" read "$d" difft "$t" | python3 -c "$norm" | sort > "$d/java.rows"
		"$oracle" read "$d" difft "ours_$t" | python3 -c "$norm" | sort > "$d/ours.rows"
		if cmp -s "$d/java.rows" "$d/ours.rows"; then
			echo "difftest $t: Java reads our copy as the original ($(wc -l < "$d/ours.rows") rows)"
		else
			echo "FAIL difftest $t: Java reads our copy differently"; diff "$d/java.rows" "$d/ours.rows" | head -4; fail=1
		fi
	done
fi
exit $fail
