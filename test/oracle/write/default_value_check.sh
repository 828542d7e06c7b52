#!/usr/bin/env bash
# default_value_check.sh [warehouse]
#   Column default values (DataField.defaultValue) written as Java 1.4.2's
#   TableWriteImpl writes them (DefaultValueRow: a NULL field of any written
#   row takes the default): Java creates each table twice with the same
#   defaults (BOOLEAN, INT, BIGINT "12.5" = 12, quoted STRING, VARCHAR(3)
#   cut), writes the ops into one, our core writer (pk_write.c) into the
#   other; Java 1.3.1 and 1.4.2 read ours as their own, and no defaulted
#   column reads NULL. Tables: append, primary key (deduplicate), and
#   partial-update (a NULL of a partial update writes the default over the
#   earlier value, as in Java); and FLOAT, DOUBLE, DECIMAL (rounded HALF_UP;
#   NULL past the precision, as Java), DATE, TIME and TIMESTAMP(0/3/6/9)
#   defaults in append tables.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../check_prologue.sh
. "$here/../check_prologue.sh"
check_warehouse default_value "${1:-}"
check_tool "$here/pk_write.c"

python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
cols = [{"name": "id", "type": "INT NOT NULL"},
        {"name": "flag", "type": "BOOLEAN", "default": "Yes"},
        {"name": "n", "type": "INT", "default": "7"},
        {"name": "big", "type": "BIGINT", "default": "12.5"},
        {"name": "s", "type": "STRING", "default": "'dflt'"},
        {"name": "v", "type": "VARCHAR(3)", "default": "abcdef"},
        {"name": "plain", "type": "STRING"}]
tables = {
    "app": {"columns": cols, "primary_keys": [], "partition_keys": [], "options": {}},
    "pk": {"columns": cols, "primary_keys": ["id"], "partition_keys": [], "options": {"bucket": "2"}},
    "pu": {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
           "options": {"bucket": "1", "merge-engine": "partial-update"}},
}
for name, t in tables.items():
    json.dump(t, open("%s/%s.json" % (wh, name), "w"))
    with open("%s/%s.jsonl" % (wh, name), "w") as out:
        for c in range(2):
            for i in range(40):
                k = i + 40 * c if name == "app" else i
                row = [k,
                       None if (i + c) % 3 == 0 else i % 2 == 0,
                       None if (i + c) % 4 == 0 else i * 10,
                       None if (i + c) % 5 == 0 else -i,
                       None if (i + c) % 2 == 0 else "s%d" % i,
                       None if (i + c) % 6 == 0 else "v%d" % (i % 10),
                       None if i % 7 == 0 else "p%d" % i]
                out.write(json.dumps({"op": "+I", "row": row}) + "\n")
            out.write(json.dumps({"op": "commit"}) + "\n")
PY

fail=0
for t in ${DEFAULT_VALUE_TABLES:-app pk pu}; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" dv "java_$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" dv "java_$t" "$wh/$t.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" dv "ours_$t" "$wh/$t.json" >/dev/null
	if ! "$wh/pk_write" "$wh/dv.db/ours_$t" "$wh/$t.jsonl" >/dev/null; then
		echo "FAIL $t: our writer refused the table"; fail=1; continue
	fi
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" dv "java_$t" | sort > "$wh/java_${t}_$v.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" dv "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		if cmp -s "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" && [ -s "$wh/ours_${t}_$v.rows" ] &&
			python3 - "$wh/ours_${t}_$v.rows" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
# every defaulted column is filled; the column without a default keeps its NULLs
assert all(None not in r[1:6] for r in rows), "a defaulted column reads NULL"
assert any(r[6] is None for r in rows), "no NULL in the column without default"
vals = {(c, r[c]) for r in rows for c in range(1, 6)}
for want in [(1, True), (2, 7), (3, 12), (4, "dflt"), (5, "abc")]:
    assert want in vals, "default %r never written" % (want,)
PY
		then
			echo "$t: Java $v reads our rows with defaults as its own: $(wc -l < "$wh/ours_${t}_$v.rows") rows"
		else
			echo "FAIL $t: Java $v reads our table differently"
			diff "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" | head -6 || true; fail=1
		fi
	done
done

# FLOAT, DOUBLE, DECIMAL and DATE defaults (Float/Double.parseDouble, new BigDecimal
# rounded HALF_UP; a DECIMAL default past its precision is NULL, as Java's
# Decimal.fromBigDecimal gives null): an append table, Java's and ours
python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
cols = [{"name": "id", "type": "INT NOT NULL"},
        {"name": "f", "type": "FLOAT", "default": "1.5e1"},
        {"name": "d", "type": "DOUBLE", "default": " -2.25d "},
        {"name": "dec", "type": "DECIMAL(10, 2)", "default": "-3.14559"},
        {"name": "big", "type": "DECIMAL(38, 4)", "default": "'12345678901234567890.12345'"},
        {"name": "over", "type": "DECIMAL(4, 2)", "default": "123.4"},
        {"name": "day", "type": "DATE", "default": "2024-2-29 10:00:00"}]
json.dump({"columns": cols, "primary_keys": [], "partition_keys": [], "options": {}},
          open(wh + "/num.json", "w"))
with open(wh + "/num.jsonl", "w") as out:
    for i in range(30):
        row = [i, None if i % 2 else i / 4.0, None if i % 3 else i * 1.5,
               None if i % 4 else "%d.25" % i, None if i % 5 else "%d.5" % i,
               None if i % 2 else "1.25", None if i % 3 else "2026-12-%02d" % (1 + i % 28)]
        out.write(json.dumps({"op": "+I", "row": row}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
PY
# An append table written by Java and by us with the same defaults; $2: what
# the rows must show besides being equal (a python check of sys.argv[1]).
check_append() {
	local t=$1 label=$2 check=$3
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" dv "java_$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" dv "java_$t" "$wh/$t.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" dv "ours_$t" "$wh/$t.json" >/dev/null
	if ! "$wh/pk_write" "$wh/dv.db/ours_$t" "$wh/$t.jsonl" >/dev/null; then
		echo "FAIL $t: our writer refused the table"; fail=1; return
	fi
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" dv "java_$t" | sort > "$wh/java_${t}_$v.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" dv "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		if cmp -s "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" && [ -s "$wh/ours_${t}_$v.rows" ] &&
			python3 -c "$check" "$wh/ours_${t}_$v.rows"; then
			echo "$t: Java $v reads our $label defaults as its own: $(wc -l < "$wh/ours_${t}_$v.rows") rows"
		else
			echo "FAIL $t: Java $v reads our table differently"
			diff "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" | head -6 || true; fail=1
		fi
	done
}
check_append num FLOAT/DOUBLE/DECIMAL/DATE '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert all(None not in r[1:5] + r[6:7] for r in rows), "a defaulted column reads NULL"
assert any(r[6] == "2024-02-29" for r in rows), "the DATE default never written"
assert any(r[5] is None for r in rows), "the default past its precision is not NULL"
'

# TIME (DateTimeUtils.parseTime: fraction rounded to millis, an offset added) and
# TIMESTAMP(p) defaults (the formatter "yyyy-[MM][M]-[dd][d] [HH][H]:[mm][m]:[ss][s]
# .f", SMART: February 30 is the 28th; nanos floored to p; digits: an epoch in
# the precision's unit); every row takes them
python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
cols = [{"name": "id", "type": "INT NOT NULL"},
        {"name": "t3", "type": "TIME(3)", "default": "7:05:09.1235"},
        {"name": "t0", "type": "TIME", "default": "10:00:00+01:30"},
        {"name": "ts6", "type": "TIMESTAMP(6)", "default": "2021-6-1 7:05:09.123456789"},
        {"name": "ts3", "type": "TIMESTAMP(3)", "default": "2021-02-30"},
        {"name": "ts9", "type": "TIMESTAMP(9)", "default": "2021-06-01 00:00:00.123456789"},
        {"name": "tse", "type": "TIMESTAMP(3)", "default": "1622505600123"},
        {"name": "ts0", "type": "TIMESTAMP(0)", "default": "2020-02-31 01:00:00.9"}]
json.dump({"columns": cols, "primary_keys": [], "partition_keys": [], "options": {}},
          open(wh + "/tm.json", "w"))
with open(wh + "/tm.jsonl", "w") as out:
    for i in range(10):
        out.write(json.dumps({"op": "+I", "row": [i] + [None] * 7}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
PY
check_append tm TIME/TIMESTAMP '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert all(None not in r for r in rows), "a defaulted column reads NULL"
'
exit $fail
