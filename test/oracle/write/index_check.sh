#!/usr/bin/env bash
# index_check.sh [warehouse]
#   File indexes written by the core (issue 8): Java 1.4.2 writes two
#   partitioned tables with bloom-filter, bitmap (v1 and v2), range-bitmap
#   and bsi columns (bsi: INT of both signs with NULLs, DATE, TIMESTAMP(6),
#   BIGINT beside its range-bitmap), one with the indexes embedded in the manifest, one with
#   '<data file>.index' sidecars (primary-key tables: write_pk_check.sh's
#   dedup tables); copy_table copies each with the core's
#   writer (same rows, same order, one file per partition); then
#   - our index containers equal Java's byte for byte, embedded or sidecar as
#     Java placed them ("INDEX OK"),
#   - Java 1.3.1 and 1.4.2 read our tables as Java's,
#   - bsi on DECIMAL(20, 2) and DECIMAL(38, 0) (BitSliceIndexBitmapFileIndex
#     maps every precision to the unscaled long): our containers are Java's
#     bytes, Java reads our table as its own and prunes by the index;
#   - Java 1.4.2 reads both with filters that its file indexes answer
#     (ReadBuilder.withFilter: plan-time pruning by embedded indexes,
#     FileIndexEvaluator on the files read): the same rows from ours as from
#     Java's, every matching row among them, and fewer rows than the table
#     where the index can prune (so the index was used, not failed over).
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse index_check "${1:-}"
check_tool "$here/copy_table.c"

python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
cols = [{"name": "id", "type": "INT"}, {"name": "s", "type": "STRING"},
        {"name": "cat", "type": "STRING"}, {"name": "n", "type": "BIGINT"},
        {"name": "d", "type": "DOUBLE"}, {"name": "ts", "type": "TIMESTAMP(6)"},
        {"name": "flag", "type": "BOOLEAN"}, {"name": "day", "type": "DATE"},
        {"name": "m", "type": "INT"}, {"name": "p", "type": "STRING"}]
embedded = {"columns": cols, "partition_keys": ["p"], "primary_keys": [],
            "options": {"file.format": "parquet",
                        "file-index.bloom-filter.columns": "s,n",
                        "file-index.bloom-filter.s.items": "300",
                        "file-index.bloom-filter.n.items": "100",
                        "file-index.bloom-filter.n.fpp": "0.01",
                        "file-index.bitmap.columns": "cat,ts",
                        "file-index.bitmap.cat.version": "1",
                        "file-index.range-bitmap.columns": "n,d,day,flag",
                        "file-index.range-bitmap.d.chunk-size": "64b",
                        "file-index.bsi.columns": "m,day,ts",
                        "file-index.in-manifest-threshold": "100kb"}}
sidecar = {"columns": cols, "partition_keys": ["p"], "primary_keys": [],
           "options": {"file.format": "parquet",
                       "file-index.bloom-filter.columns": "s",
                       "file-index.bitmap.columns": "cat",
                       "file-index.bitmap.cat.index-block-size": "64b",
                       "file-index.range-bitmap.columns": "n",
                       "file-index.bsi.columns": "n,m"}}
json.dump(embedded, open(wh + "/embedded.json", "w"))
json.dump(sidecar, open(wh + "/sidecar.json", "w"))
with open(wh + "/ops.jsonl", "w") as out:
    for k in range(3):
        for g in range(400):
            sentinel = g % 100
            row = [k * 1000 + g, None if g % 37 == 0 else "k%d" % (g * 3 + k),
                   None if g % 41 == 0 else ("a" if sentinel == 0 else "z" if sentinel == 1 else "m%d" % k),
                   0 if sentinel == 0 else 1000 if sentinel == 1 else k * 100 + g % 50,
                   None if g % 43 == 0 else (k * 100 + g % 50) / 4.0,
                   "2026-12-03T10:%02d:%02d.%06d" % (k, g % 7, k * 11),
                   None if g % 9 == 0 else (g + k) % 3 == 0,
                   "2026-01-%02d" % (1 + (k * 10 + g % 10)),
                   -1000 if sentinel == 0 else 1000 if sentinel == 1 else None if g % 31 == 0
                   else (k * 100 + g % 50) * (-1 if g % 2 else 1),
                   "p%d" % k]
            out.write(json.dumps({"op": "+I", "row": row}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
PY

export ORACLE_PAIMON_VERSION=1.4.2
fail=0
for t in embedded sidecar; do
	"$oracle" create "$wh" ic "java_$t" "$wh/$t.json" >/dev/null
	"$oracle" write "$wh" ic "java_$t" "$wh/ops.jsonl" >/dev/null
	if "$wh/copy_table" "$wh/ic.db/java_$t" "$wh/ic.db/ours_$t" > "$wh/copy_$t.out" 2>&1 &&
		[ "$(grep -c '^INDEX OK' "$wh/copy_$t.out")" -ge 3 ] && ! grep -q '^INDEX DIFF' "$wh/copy_$t.out"; then
		echo "$t: our $(grep -c '^INDEX OK' "$wh/copy_$t.out") index containers are Java's bytes ($(sed -n 's/^INDEX OK bucket [0-9]* (\(.*\))$/\1/p' "$wh/copy_$t.out" | paste -sd ';'))"
	else
		echo "FAIL $t: index containers differ"; grep -E 'INDEX|STATS DIFF|copy_table' "$wh/copy_$t.out" | head -8; fail=1
	fi
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" ic "java_$t" | sort > "$wh/java_${t}_$v.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" ic "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		if cmp -s "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" && [ -s "$wh/ours_${t}_$v.rows" ]; then
			echo "$t: Java $v reads our table as its own ($(wc -l < "$wh/ours_${t}_$v.rows") rows)"
		else
			echo "FAIL $t: Java $v reads our table differently"; fail=1
		fi
	done
done

# Filtered reads, one JVM per table and side: [field, op, literal] and
# whether the index must prune (statistics cannot: every file spans 0..1000,
# 'a'..'z').
check_wheres() {
	local t=$1 wheres=$2 preds
	preds=$(python3 -c 'import json, sys; print(json.dumps([p for p, _ in json.loads(sys.argv[1])]))' "$wheres")
	"$oracle" read "$wh" ic "java_$t" --where "$preds" > "$wh/w_java_$t.out"
	"$oracle" read "$wh" ic "ours_$t" --where "$preds" > "$wh/w_ours_$t.out"
	PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" \
	python3 - "$t" "$wh/ours_${t}_1.4.2.rows" "$wh/w_java_$t.out" "$wh/w_ours_$t.out" "$wheres" <<'PY' || fail=1
import json, sys
from check_ops import where_matches, where_sets
t = sys.argv[1]
names = ["id", "s", "cat", "n", "d", "ts", "flag", "day", "m", "p"]
allrows = [json.loads(l) for l in open(sys.argv[2])]
java, ours = where_sets(sys.argv[3]), where_sets(sys.argv[4])
bad = 0
for w, prunes in json.loads(sys.argv[5]):
    key = json.dumps(w)
    match = where_matches(names, w)
    got = ours.get(key, [])
    gotset = set(got)
    want = [r for r in allrows if match(r)]
    missing = [r for r in want if json.dumps(r) not in gotset]
    if missing:
        print("FAIL %s where %s: %d matching rows missing from Java's read of ours" % (t, key, len(missing))); bad = 1
    elif prunes and len(got) >= len(allrows):
        print("FAIL %s where %s: no row pruned (%d of %d)" % (t, key, len(got), len(allrows))); bad = 1
    elif sorted(got) != sorted(java.get(key, [])):
        print("FAIL %s where %s: Java reads %d rows from ours, %d from its own" % (t, key, len(got), len(java.get(key, [])))); bad = 1
    else:
        print("%s where %s: Java reads the same %d of %d rows from ours as from its own (%d match)" % (t, key, len(got), len(allrows), len(want)))
sys.exit(bad)
PY
}
check_wheres embedded '[[["s", "=", "k7"], 1], [["n", "=", 137], 1], [["cat", "=", "m2"], 1],
	[["cat", "in", ["m1", "q"]], 1], [["n", "<", 105], 1], [["d", ">=", 60.0], 1],
	[["ts", "=", "2026-12-03T10:01:03.000011"], 1], [["day", ">", "2026-01-25"], 1],
	[["flag", "=", true], 0], [["cat", "is null"], 0], [["m", "=", -137], 1], [["m", "<", -140], 1],
	[["m", ">=", 210], 1], [["m", "is null"], 0]]'
check_wheres sidecar '[[["s", "=", "k8"], 1], [["cat", "=", "m0"], 1], [["n", ">=", 250], 1],
	[["m", "=", 138], 1], [["m", "in", [-21, 248]], 1]]'
# bsi on decimals above precision 18 (values within a long, as Java needs)
python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
json.dump({"columns": [{"name": "id", "type": "INT"}, {"name": "w", "type": "DECIMAL(20, 2)"},
                       {"name": "x", "type": "DECIMAL(38, 0)"}, {"name": "p", "type": "STRING"}],
           "partition_keys": ["p"], "primary_keys": [],
           "options": {"file.format": "parquet", "file-index.bsi.columns": "w,x"}},
          open(wh + "/bigdec.json", "w"))
with open(wh + "/bigdec.jsonl", "w") as out:
    for k in range(2):
        for g in range(300):
            w = None if g % 29 == 0 else "%d.%02d" % ((g * 7919) % 100000 - 50000, g % 100)
            x = None if g % 31 == 0 else str((g - 150) * 61489146912541 * (k + 1))
            out.write(json.dumps({"op": "+I", "row": [k * 1000 + g, w, x, "p%d" % k]}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
PY
"$oracle" create "$wh" ic java_bigdec "$wh/bigdec.json" >/dev/null
"$oracle" write "$wh" ic java_bigdec "$wh/bigdec.jsonl" >/dev/null
if "$wh/copy_table" "$wh/ic.db/java_bigdec" "$wh/ic.db/ours_bigdec" > "$wh/copy_bigdec.out" 2>&1 &&
	[ "$(grep -c '^INDEX OK' "$wh/copy_bigdec.out")" -ge 2 ] && ! grep -q '^INDEX DIFF' "$wh/copy_bigdec.out"; then
	echo "bigdec: our $(grep -c '^INDEX OK' "$wh/copy_bigdec.out") bsi containers on DECIMAL(20, 2)/(38, 0) are Java's bytes"
else
	echo "FAIL bigdec: index containers differ"; grep -E 'INDEX|STATS DIFF|copy_table' "$wh/copy_bigdec.out" | head -8; fail=1
fi
"$oracle" read "$wh" ic java_bigdec | sort > "$wh/java_bigdec.rows"
"$oracle" read "$wh" ic ours_bigdec | sort > "$wh/ours_bigdec.rows"
if cmp -s "$wh/java_bigdec.rows" "$wh/ours_bigdec.rows" && [ "$(wc -l < "$wh/ours_bigdec.rows")" = 600 ]; then
	echo "bigdec: Java reads our table as its own (600 rows)"
else
	echo "FAIL bigdec: Java reads our table differently"; fail=1
fi
bpreds='[["w", "=", "-42081.33"], ["x", "=", "-9223372036854775"]]'
"$oracle" read "$wh" ic java_bigdec --where "$bpreds" > "$wh/b_java.out"
"$oracle" read "$wh" ic ours_bigdec --where "$bpreds" > "$wh/b_ours.out"
nb=$(grep -vc '^# ' "$wh/b_ours.out" || true)
if cmp -s "$wh/b_java.out" "$wh/b_ours.out" && [ "$nb" -lt 600 ]; then
	echo "bigdec: Java's filtered reads of ours equal its own ($nb rows for two absent values)"
else
	echo "FAIL bigdec: filtered reads differ ($nb rows)"; diff "$wh/b_java.out" "$wh/b_ours.out" | head -4 || true; fail=1
fi
exit $fail
