#!/usr/bin/env bash
# page_index_check.sh [warehouse]
#   The Parquet page index (ColumnIndex / OffsetIndex) the core writes, read
#   by Apache Paimon Java: Java 1.4.2 writes an append table whose one data
#   file is a single row group of many small pages (parquet.page.size 1024;
#   id ascending, s and d spread), copy_table copies its rows with the core's
#   writer (same rows, same order, one file), then Java 1.4.2 reads ours with
#   filters (ReadBuilder.withFilter: parquet-mr's column-index filtering of
#   the pages of a row group): every matching row must be among the rows
#   Java returns (a wrong min/max or page offset loses rows), and on the
#   sorted column fewer rows than the file holds (the pages were skipped:
#   the file has one row group, so no row-group statistics can prune).
#   Java 1.3.1 and 1.4.2 read the whole table as Java's own.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse page_index_check "${1:-}"
check_tool "$here/copy_table.c"

python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
cols = [{"name": "id", "type": "INT"}, {"name": "s", "type": "STRING"},
        {"name": "d", "type": "DOUBLE"}, {"name": "n", "type": "BIGINT"}]
json.dump({"columns": cols, "partition_keys": [], "primary_keys": [],
           "options": {"file.format": "parquet", "bucket": "-1",
                       "parquet.page.size": "1024", "parquet.block.size": "268435456",
                       "target-file-size": "256mb"}},
          open(wh + "/pi.json", "w"))
with open(wh + "/ops.jsonl", "w") as out:
    for i in range(20000):
        row = [i, None if i % 97 == 0 else "s%05d" % ((i * 7919) % 20000),
               None if i % 89 == 0 else (i % 1000) / 8.0, i // 100]
        out.write(json.dumps({"op": "+I", "row": row}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
PY

export ORACLE_PAIMON_VERSION=1.4.2
fail=0
"$oracle" create "$wh" pi java_t "$wh/pi.json" >/dev/null
"$oracle" write "$wh" pi java_t "$wh/ops.jsonl" >/dev/null
if ! "$wh/copy_table" "$wh/pi.db/java_t" "$wh/pi.db/ours_t" > "$wh/copy.out" 2>&1; then
	echo "FAIL: copy_table"; tail -5 "$wh/copy.out"; exit 1
fi
nfiles=$(find "$wh/pi.db/ours_t" -name 'data-*.parquet' | wc -l)
[ "$nfiles" -eq 1 ] || { echo "FAIL: ours has $nfiles data files, 1 expected"; exit 1; }
for v in 1.3.1 1.4.2; do
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" pi java_t | sort > "$wh/java_$v.rows"
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" pi ours_t | sort > "$wh/ours_$v.rows"
	if cmp -s "$wh/java_$v.rows" "$wh/ours_$v.rows" && [ "$(wc -l < "$wh/ours_$v.rows")" -eq 20000 ]; then
		echo "Java $v reads our table as its own (20000 rows)"
	else
		echo "FAIL: Java $v reads our table differently"; fail=1
	fi
done

# [field, op, literal], and whether pages must be skipped
wheres='[[["id", "=", 12345], 1], [["id", "<", 150], 1], [["id", ">=", 19900], 1],
         [["id", "in", [7, 9999, 19998]], 1], [["n", "=", 42], 1], [["s", "=", "s00042"], 0],
         [["d", ">", 124.5], 0], [["s", "is null"], 0]]'
preds=$(python3 -c 'import json, sys; print(json.dumps([p for p, _ in json.loads(sys.argv[1])]))' "$wheres")
"$oracle" read "$wh" pi ours_t --where "$preds" > "$wh/w_ours.out"
PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" \
python3 - "$wh/ours_1.4.2.rows" "$wh/w_ours.out" "$wheres" <<'PY' || fail=1
import json, sys
from check_ops import where_matches, where_sets
names = ["id", "s", "d", "n"]
allrows = [json.loads(l) for l in open(sys.argv[1])]
sets = where_sets(sys.argv[2])
bad = 0
for w, prunes in json.loads(sys.argv[3]):
    key = json.dumps(w)
    match = where_matches(names, w)
    got = set(sets.get(key, []))
    want = [r for r in allrows if match(r)]
    missing = [r for r in want if json.dumps(r) not in got]
    if not want:
        print("FAIL where %s: no row matches (a test that cannot fail)" % key); bad = 1
    elif missing:
        print("FAIL where %s: %d of %d matching rows missing from Java's read of ours" % (key, len(missing), len(want))); bad = 1
    elif prunes and len(got) * 4 > len(allrows):
        print("FAIL where %s: pages not skipped (%d of %d rows read)" % (key, len(got), len(allrows))); bad = 1
    else:
        print("where %s: Java reads %d of %d rows of ours, every one of the %d matching" % (key, len(got), len(allrows), len(want)))
sys.exit(bad)
PY
[ "$fail" -eq 0 ] && echo "page_index_check: OK"
exit "$fail"
