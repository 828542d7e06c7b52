#!/usr/bin/env bash
# write_orc_check.sh [warehouse]
#   The core's ORC writer against Java (file.format = orc):
#   - append: Java 1.4.2 writes a partitioned table of every flat type the
#     ORC writer takes (NaN first and later in DOUBLE columns, strings over
#     1024 bytes, CHAR, VARCHAR(n), TINYINT..BIGINT, DECIMAL(10, 2) and
#     (30, 5), TIMESTAMP(3/6/9), TIMESTAMP_LTZ, BYTES, an all-NULL column);
#     copy_table copies its rows into an ORC table of ours;
#     the value stats of each of our files equal Java's byte for byte; Java
#     1.3.1 and 1.4.2 read our tables as Java's own; Java appends to ours and
#     Java's compaction of ours reads the same rows;
#   - row index: Java's filtered reads (--where) of a 34567-row zlib file of
#     ours (four row groups; value stats equal Java's too) return every matching row, fewer than all, and the
#     same rows as from Java's own file;
#   - dictionaries and bloom filters: the big file (orc.bloom.filter.columns on
#     seven columns, a low-cardinality string) as Java's ORC reader sees it:
#     every column's encoding per stripe (DICTIONARY_V2 or DIRECT_V2, the
#     dictionary size) and every row group's BLOOM_FILTER_UTF8 bits equal
#     those of Java's own file; Java's filtered reads of values inside a row
#     group's min/max but absent from it return no row (the bloom filters
#     prune), of present values every matching row (the hashes are ORC's);
#   - orc.row.index.stride = 1000: Java's ORC reader sees the same stride,
#     row index entries per stripe and bloom filters (sized for 1000 rows) in
#     our copy of Java's 5000-row file as in Java's; Java reads the same rows,
#     and its filtered read of one id is pruned to one 1000-row group;
#   - primary keys: write_pk_check.sh's dedup_orc and agg_orc tables (our
#     level-0 file metas equal Java's, Java 1.3.1/1.4.2 read them as their
#     own, Java's full compaction of ours gives the same rows).
#   - nested columns: ARRAY, MAP, ROW (to depth 3, NULLs at every level,
#     empty lists and maps, 25 row groups): Java 1.3.1 and 1.4.2 read our
#     copy as Java's own file; value stats equal; filtered reads equal.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../check_prologue.sh
. "$here/../check_prologue.sh"
check_warehouse write_orc "${1:-}"
check_tool "$here/copy_table.c"

python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
cols = [{"name": "id", "type": "INT"}, {"name": "t", "type": "TINYINT"},
        {"name": "sm", "type": "SMALLINT"}, {"name": "b", "type": "BIGINT"},
        {"name": "s", "type": "STRING"}, {"name": "c", "type": "CHAR(5)"},
        {"name": "vc", "type": "VARCHAR(12)"}, {"name": "d", "type": "DOUBLE"},
        {"name": "f", "type": "FLOAT"}, {"name": "flag", "type": "BOOLEAN"},
        {"name": "dec", "type": "DECIMAL(10, 2)"}, {"name": "dec30", "type": "DECIMAL(30, 5)"},
        {"name": "day", "type": "DATE"}, {"name": "ts3", "type": "TIMESTAMP(3)"},
        {"name": "ts6", "type": "TIMESTAMP(6)"}, {"name": "ts9", "type": "TIMESTAMP(9)"},
        {"name": "ltz", "type": "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
        {"name": "bin", "type": "BYTES"}, {"name": "allnull", "type": "STRING"},
        {"name": "nanfirst", "type": "DOUBLE"}, {"name": "longs", "type": "STRING"},
        {"name": "dt", "type": "STRING"}]
opts = {"file.format": "orc", "fields.b.stats-mode": "counts", "fields.d.stats-mode": "full",
        "fields.ts6.stats-mode": "none"}
# compaction.min.file-num 2: Java's compaction of our table picks our file and its own
json.dump({"columns": cols, "partition_keys": ["dt"], "primary_keys": [],
           "options": dict(opts, **{"compaction.min.file-num": "2"})}, open(wh + "/orc.json", "w"))
with open(wh + "/ops.jsonl", "w") as out:
    for i in range(700):
        dt = ["2026-12-01", "2026-12-02", None][i % 3]
        s = None if i % 11 == 0 else ("long string number %d with \u00e9 and \u4e00 %s" % (i, "z" * (i % 30)) if i % 3 else "s%d" % i)
        if i == 5:
            s = "\U0010ffff\U0010ffff" * 10
        row = [i, None if i % 13 == 0 else (i * 37) % 256 - 128, (i * 7919) % 65536 - 32768,
               None if i % 13 == 0 else i * 1000003 - 7, s,
               None if i % 6 == 0 else "c%d" % (i % 100),
               None if i % 8 == 0 else "v%d\u00e9" % (i * 31),
               None if i % 17 == 0 else "NaN" if i % 50 == 3 else -0.0 if i % 50 == 4 else i / 7.0 - 30,
               None if i % 19 == 0 else "NaN" if i % 61 == 5 else i / 4.0,
               None if i % 5 == 0 else i % 2 == 0,
               None if i % 23 == 0 else "%d.%02d" % (i - 300, i % 100),
               "%d.%05d" % (i * 1234567 - 400000000, i % 100000),
               "%04d-%02d-%02d" % (1960 + i % 80, 1 + i % 12, 1 + i % 28),
               "%04d-12-03T10:%02d:%02d.%03d" % (1950 + i % 100, i % 60, (i * 7) % 60, i % 1000),
               "2026-12-03T11:%02d:%02d.%06d" % (i % 60, (i * 3) % 60, i * 997 % 1000000),
               "%04d-12-03T12:%02d:%02d.%09d" % (1900 + i % 150, i % 60, (i * 5) % 60, i * 123457 % 1000000000),
               None if i % 9 == 0 else "%04d-06-01T00:%02d:%02d.%06dZ" % (1965 + i % 70, i % 60, (i * 11) % 60, i * 31 % 1000000),
               None if i % 7 == 0 else bytes([i % 256, (i * 3) % 256]).hex(),
               None,
               "NaN" if i < 3 else None if i % 4 == 0 else i / 3.0,
               # partition 2026-12-02: every string over 1024 bytes (ORC keeps bounds)
               ("L%05d" % i) * 200 if i % 3 == 1 else "short %d" % i,
               dt]
        out.write(json.dumps({"op": "+I", "row": row}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
with open(wh + "/more.jsonl", "w") as out:
    for k in range(3):
        out.write(json.dumps({"op": "+I", "row": [9001 + k] + [None] * 20 + ["2026-12-02"]}) + "\n")
        out.write(json.dumps({"op": "commit"}) + "\n")
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
# 30000 rows in one file: three row groups of 10000 and a partial one; values
# ascending with the row so that ORC's row index prunes filtered reads
bcols = [{"name": "id", "type": "INT"}, {"name": "s", "type": "STRING"},
         {"name": "d", "type": "DOUBLE"}, {"name": "ts", "type": "TIMESTAMP(6)"},
         {"name": "flag", "type": "BOOLEAN"}, {"name": "dec", "type": "DECIMAL(12, 2)"},
         {"name": "bin", "type": "BYTES"}, {"name": "t", "type": "TINYINT"}]
json.dump({"columns": bcols, "partition_keys": [], "primary_keys": [],
           "options": {"file.format": "orc", "file.compression": "zlib",
                       "orc.bloom.filter.columns": "id, S,d,ts,dec,t,flag,nosuch"}},
          open(wh + "/big.json", "w"))
with open(wh + "/big.jsonl", "w") as out:
    for i in range(34567):
        out.write(json.dumps({"op": "+I", "row": [
            i, None if i % 13 == 0 else "k%03d-%s" % (i // 1000, "x" * (i % 7)),
            None if i % 11 == 0 else i / 3.0,
            "2026-12-03T%02d:%02d:%02d.%06d" % (i // 3600 % 24, i // 60 % 60, i % 60, i * 7 % 1000000),
            None if i % 5 == 0 else i % 3 == 0, "%d.%02d" % (i, i % 100),
            None if i % 9 == 0 else bytes([i % 256, i // 256 % 256]).hex(),
            None if i % 17 == 0 else i // 500 - 100]}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
# the big table's first 5000 rows with a row index every 1000 rows
sj = json.load(open(wh + "/big.json"))
sj["options"]["orc.row.index.stride"] = "1000"
json.dump(sj, open(wh + "/stride.json", "w"))
with open(wh + "/big.jsonl") as src, open(wh + "/stride.jsonl", "w") as out:
    for k, l in enumerate(src):
        if k == 5000:
            break
        out.write(l)
    out.write(json.dumps({"op": "commit"}) + "\n")
PY

fail=0
export ORACLE_PAIMON_VERSION=1.4.2
for t in orc; do
	"$oracle" create "$wh" wo "java_$t" "$wh/$t.json" >/dev/null
	"$oracle" write "$wh" wo "java_$t" "$wh/ops.jsonl" >/dev/null
	if out=$("$wh/copy_table" "$wh/wo.db/java_$t" "$wh/wo.db/ours_$t"); then
		echo "$t: $(echo "$out" | grep -c 'STATS OK') files' value stats equal Java's"
	else
		echo "FAIL $t: value stats differ from Java's"; echo "$out" | grep -v 'STATS OK' | head -20 || true; fail=1
	fi
	n=$(find "$wh/wo.db/ours_$t" -name 'data-*.orc' | wc -l)
	[ "$n" -gt 0 ] || { echo "FAIL $t: no ORC data files of ours"; fail=1; }
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wo "java_$t" | sort > "$wh/java_${t}_$v.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wo "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		if cmp -s "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" && [ -s "$wh/ours_${t}_$v.rows" ]; then
			echo "$t: Java $v reads our ORC table as its own: $(wc -l < "$wh/ours_${t}_$v.rows") rows"
		else
			echo "FAIL $t: Java $v reads our ORC table differently"
			diff "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" | head -6 || true; fail=1
		fi
	done
done
# Java appends three small files to ours, then compacts (AppendCompactCoordinator)
"$oracle" write "$wh" wo ours_orc "$wh/more.jsonl" >/dev/null
"$oracle" write "$wh" wo java_orc "$wh/more.jsonl" >/dev/null
"$oracle" read "$wh" wo java_orc | sort > "$wh/java_more.rows"
"$oracle" write "$wh" wo ours_orc "$wh/compact.jsonl" >/dev/null
"$oracle" read "$wh" wo ours_orc | sort > "$wh/ours_compacted.rows"
kind=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["commitKind"])' \
	"$wh/wo.db/ours_orc/snapshot/snapshot-$(cat "$wh/wo.db/ours_orc/snapshot/LATEST")")
if [ "$kind" != COMPACT ]; then echo "FAIL orc: Java's compaction of our table committed $kind"; fail=1; fi
if cmp -s "$wh/java_more.rows" "$wh/ours_compacted.rows" && [ "$(wc -l < "$wh/ours_compacted.rows")" = 703 ]; then
	echo "orc: Java appended to and compacted our table: 703 rows as Java's own"
else
	echo "FAIL orc: after Java's append and compaction"; diff "$wh/java_more.rows" "$wh/ours_compacted.rows" | head -6 || true; fail=1
fi

# Java's filtered reads of our big ORC file go through its row index
"$oracle" create "$wh" wo java_big "$wh/big.json" >/dev/null
"$oracle" write "$wh" wo java_big "$wh/big.jsonl" >/dev/null
"$wh/copy_table" "$wh/wo.db/java_big" "$wh/wo.db/ours_big" >/dev/null || { echo "FAIL big: copy or value stats"; fail=1; }
"$oracle" read "$wh" wo ours_big | sort > "$wh/ours_big.rows"
preds='[["id", ">=", 21000], ["id", "<", 3], ["s", "=", "k025-xx"], ["d", ">", 11000.0],
	["ts", "<", "2026-12-03T00:05:00.000000"], ["dec", ">=", "33000.00"], ["t", "=", -80], ["flag", "is null"]]'
"$oracle" read "$wh" wo java_big --where "$preds" > "$wh/w_java_big.out"
"$oracle" read "$wh" wo ours_big --where "$preds" > "$wh/w_ours_big.out"
python3 - "$wh/ours_big.rows" "$wh/w_java_big.out" "$wh/w_ours_big.out" "$preds" <<'PY' || fail=1
import json, sys
from decimal import Decimal
names = ["id", "s", "d", "ts", "flag", "dec", "bin", "t"]
allrows = [json.loads(l) for l in open(sys.argv[1])]
def sets(path):
    out, cur = {}, None
    for l in open(path):
        if l.startswith("# "):
            cur = json.dumps(json.loads(l[2:]))
            out[cur] = []
        else:
            out[cur].append(json.dumps(json.loads(l)))
    return out
java, ours = sets(sys.argv[2]), sets(sys.argv[3])
bad = 0
for w in json.loads(sys.argv[4]):
    key = json.dumps(w)
    field, op, *lit = w
    i = names.index(field)
    def match(r):
        v = r[i]
        if op == "is null": return v is None
        if v is None: return False
        x = lit[0]
        if field == "dec": v, x = Decimal(v), Decimal(x)
        return {"=": v == x, "<": v < x, "<=": v <= x, ">": v > x, ">=": v >= x}[op]
    got = ours.get(key, [])
    gotset = set(got)
    allset = set(json.dumps(r) for r in allrows)
    want = [r for r in allrows if match(r)]
    missing = [r for r in want if json.dumps(r) not in gotset]
    if missing:
        print("FAIL big where %s: %d matching rows missing from Java's read of ours" % (key, len(missing))); bad = 1
    elif not gotset <= allset:
        print("FAIL big where %s: Java's read of ours has rows the table does not" % key); bad = 1
    elif op != "is null" and len(got) >= len(allrows):
        print("FAIL big where %s: no row group pruned (%d of %d)" % (key, len(got), len(allrows))); bad = 1
    elif sorted(got) != sorted(java.get(key, [])):
        print("FAIL big where %s: Java reads %d rows from ours, %d from its own" % (key, len(got), len(java.get(key, [])))); bad = 1
    else:
        print("big where %s: Java reads the same %d of %d rows from ours as from its own (%d match)" % (key, len(got), len(allrows), len(want)))
sys.exit(bad)
PY

# what Java's ORC reader sees of the big files' dictionaries and bloom filters
cp="$root/test/oracle/java/target/paimon-1.4.2/classpath.txt"
jf=$(find "$wh/wo.db/java_big" -name 'data-*.orc' | head -1)
of=$(find "$wh/wo.db/ours_big" -name 'data-*.orc' | head -1)
java -cp "$(cat "$cp")" "$here/OrcIndexDump.java" "$jf" > "$wh/idx_java.txt"
java -cp "$(cat "$cp")" "$here/OrcIndexDump.java" "$of" > "$wh/idx_ours.txt"
ndict=$(grep -c 'DICTIONARY_V2 dictionary [1-9]' "$wh/idx_ours.txt" || true)
nbloom=$(grep -c 'BLOOM_FILTER_UTF8 k ' "$wh/idx_ours.txt" || true)
if cmp -s "$wh/idx_java.txt" "$wh/idx_ours.txt" && [ "$ndict" -gt 0 ] && [ "$nbloom" -ge 28 ]; then
	echo "big: Java's ORC reader sees our encodings ($ndict dictionary columns) and $nbloom row group bloom filters as in its own file"
else
	echo "FAIL big: encodings or bloom filters differ from Java's ($ndict dictionaries, $nbloom bloom filters)"
	diff "$wh/idx_java.txt" "$wh/idx_ours.txt" | head -10 || true; fail=1
fi
# inside row group 1's min/max: absent values (pruned by bloom only), present ones
bpreds='[["s", "=", "k015-xxq"], ["d", "=", 5000.5], ["dec", "=", "15000.01"], ["id", "=", 15000],
	["s", "=", "k015-xxx"], ["d", "=", 5000.0], ["dec", "=", "15000.00"], ["t", "=", -70],
	["ts", "=", "2026-12-03T04:10:00.105000"]]'
"$oracle" read "$wh" wo java_big --where "$bpreds" > "$wh/b_java_big.out"
"$oracle" read "$wh" wo ours_big --where "$bpreds" > "$wh/b_ours_big.out"
python3 - "$wh/b_java_big.out" "$wh/b_ours_big.out" <<'PY' || fail=1
import json, sys
def sets(path):
    out, cur = {}, None
    for l in open(path):
        if l.startswith("# "):
            cur = json.dumps(json.loads(l[2:]))
            out[cur] = []
        else:
            out[cur].append(json.loads(l))
    return out
java, ours = sets(sys.argv[1]), sets(sys.argv[2])
# rows of id 15000 (row group 1): what each present value must return
expect = {"s": lambda r: r[1] == "k015-xxx", "d": lambda r: r[0] == 15000,
          "dec": lambda r: r[0] == 15000, "id": lambda r: r[0] == 15000,
          "t": lambda r: r[7] == -70, "ts": lambda r: r[0] == 15000}
bad = 0
for key, got in ours.items():
    field, op, lit = json.loads(key)
    absent = lit in ("k015-xxq", 5000.5, "15000.01")
    if sorted(map(json.dumps, got)) != sorted(map(json.dumps, java.get(key, []))):
        print("FAIL big bloom %s: Java reads %d rows from ours, %d from its own" % (key, len(got), len(java.get(key, [])))); bad = 1
    elif absent and got:
        print("FAIL big bloom %s: %d rows read, the bloom filter did not prune" % (key, len(got))); bad = 1
    elif not absent and (not any(expect[field](r) for r in got) or len(got) > 10000):
        print("FAIL big bloom %s: the matching rows are missing (%d rows read)" % (key, len(got))); bad = 1
    else:
        print("big bloom %s: Java reads the same %d rows from ours as from its own" % (key, len(got)))
if len(ours) != 9:
    print("FAIL big bloom: %d predicates answered" % len(ours)); bad = 1
sys.exit(bad)
PY

# orc.row.index.stride = 1000: Java's ORC reader sees our row index and
# bloom filters as in its own file, and prunes by them
"$oracle" create "$wh" wo java_stride "$wh/stride.json" >/dev/null
"$oracle" write "$wh" wo java_stride "$wh/stride.jsonl" >/dev/null
"$wh/copy_table" "$wh/wo.db/java_stride" "$wh/wo.db/ours_stride" >/dev/null || { echo "FAIL stride: copy or value stats"; fail=1; }
jf=$(find "$wh/wo.db/java_stride" -name 'data-*.orc' | head -1)
of=$(find "$wh/wo.db/ours_stride" -name 'data-*.orc' | head -1)
java -cp "$(cat "$cp")" "$here/OrcIndexDump.java" "$jf" > "$wh/sidx_java.txt"
java -cp "$(cat "$cp")" "$here/OrcIndexDump.java" "$of" > "$wh/sidx_ours.txt"
if cmp -s "$wh/sidx_java.txt" "$wh/sidx_ours.txt" && grep -q '^row index stride 1000$' "$wh/sidx_ours.txt" &&
	grep -q 'stripe 0 column 1 row index entries 5$' "$wh/sidx_ours.txt" &&
	grep -q 'group 4 BLOOM_FILTER_UTF8' "$wh/sidx_ours.txt"; then
	echo "stride: Java's ORC reader sees stride 1000, 5 row groups and their bloom filters in ours as in its own file"
else
	echo "FAIL stride: row index or bloom filters differ from Java's"
	diff "$wh/sidx_java.txt" "$wh/sidx_ours.txt" | head -10 || true; fail=1
fi
"$oracle" read "$wh" wo java_stride | sort > "$wh/java_stride.rows"
"$oracle" read "$wh" wo ours_stride | sort > "$wh/ours_stride.rows"
spreds='[["id", "=", 2500], ["s", "=", "k003-xq"]]'
"$oracle" read "$wh" wo java_stride --where "$spreds" > "$wh/s_java.out"
"$oracle" read "$wh" wo ours_stride --where "$spreds" > "$wh/s_ours.out"
nid=$(awk '/^# /{k++; next} k==1' "$wh/s_ours.out" | wc -l)
nabs=$(awk '/^# /{k++; next} k==2' "$wh/s_ours.out" | wc -l)
if cmp -s "$wh/java_stride.rows" "$wh/ours_stride.rows" && [ "$(wc -l < "$wh/ours_stride.rows")" = 5000 ] &&
	cmp -s "$wh/s_java.out" "$wh/s_ours.out" && [ "$nid" -ge 1 ] && [ "$nid" -le 1000 ] && [ "$nabs" = 0 ]; then
	echo "stride: Java reads our 5000 rows as its own; id = 2500 reads $nid rows (one row group), an absent string none"
else
	echo "FAIL stride: Java's reads of ours differ (id = 2500: $nid rows, absent string: $nabs rows)"
	diff "$wh/s_java.out" "$wh/s_ours.out" | head -6 || true; fail=1
fi

# nested columns (ARRAY, MAP, ROW to depth 3, NULLs at every level, empty
# lists and maps) in 25000 rows with a row group every 1000: Java 1.3.1 and
# 1.4.2 read our copy as Java's own file, value stats equal, and Java's
# filtered reads through our row index return Java's rows
python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
cols = [{"name": "id", "type": "INT"}, {"name": "a", "type": "ARRAY<INT>"},
        {"name": "s", "type": "ARRAY<STRING>"}, {"name": "m", "type": "MAP<STRING, INT>"},
        {"name": "r", "type": "ROW<a INT, b STRING>"},
        {"name": "ar", "type": "ARRAY<ROW<x BIGINT, y ARRAY<STRING>, z MAP<INT, DECIMAL(10, 2)>>>"},
        {"name": "aa", "type": "ARRAY<ARRAY<TIMESTAMP(6)>>"}, {"name": "v", "type": "STRING"}]
json.dump({"columns": cols, "partition_keys": [], "primary_keys": [],
           "options": {"file.format": "orc", "orc.row.index.stride": "1000"}},
          open(wh + "/nested.json", "w"))
with open(wh + "/nested.jsonl", "w") as out:
    for i in range(25000):
        def nul(k): return (i + k) % 7 == 3
        a = None if nul(1) else [None if (i + j) % 5 == 0 else i * 10 + j for j in range(i % 4)]
        s = None if nul(2) else ["s%d_%d" % (i, j) if (i + j) % 6 else None for j in range((i // 3) % 3)]
        m = None if nul(3) else [["k%d" % j, None if j == 1 else i + j] for j in range(i % 3)]
        r = None if nul(4) else [None if i % 9 == 0 else i, None if i % 4 == 0 else "b%d" % (i % 50)]
        ar = None if nul(5) else [None if j == 2 else
                                  [i * 100 + j, None if j == 1 else ["y%d" % k for k in range(j)],
                                   [[k, "%d.%02d" % (i, k)] for k in range(j % 3)]] for j in range(i % 4)]
        aa = None if nul(6) else [None if j == 1 else
                                  ["2026-12-03T10:%02d:%02d.%06d" % (i % 60, j, i % 1000000)] * (j + 1)
                                  for j in range(i % 3)]
        out.write(json.dumps({"op": "+I", "row": [i, a, s, m, r, ar, aa, None if i % 10 == 0 else "v%d" % i]}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
PY
"$oracle" create "$wh" wo java_nested "$wh/nested.json" >/dev/null
"$oracle" write "$wh" wo java_nested "$wh/nested.jsonl" >/dev/null
"$wh/copy_table" "$wh/wo.db/java_nested" "$wh/wo.db/ours_nested" >/dev/null || { echo "FAIL nested: copy or value stats"; fail=1; }
for v in 1.3.1 1.4.2; do
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wo java_nested | sort > "$wh/java_nested_$v.rows"
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" wo ours_nested | sort > "$wh/ours_nested_$v.rows"
	if cmp -s "$wh/java_nested_$v.rows" "$wh/ours_nested_$v.rows" && [ "$(wc -l < "$wh/ours_nested_$v.rows")" = 25000 ]; then
		echo "nested: Java $v reads our ORC nested columns as its own: 25000 rows"
	else
		echo "FAIL nested: Java $v reads our nested columns differently"
		diff "$wh/java_nested_$v.rows" "$wh/ours_nested_$v.rows" | head -6 || true; fail=1
	fi
done
npreds='[["id", ">=", 21000], ["id", "<", 1500]]'
"$oracle" read "$wh" wo java_nested --where "$npreds" > "$wh/w_java_nested.out"
"$oracle" read "$wh" wo ours_nested --where "$npreds" > "$wh/w_ours_nested.out"
if cmp -s "$wh/w_java_nested.out" "$wh/w_ours_nested.out" && [ "$(grep -vc '^#' "$wh/w_ours_nested.out")" -lt 25000 ]; then
	echo "nested: Java's filtered reads through our row index: $(grep -vc '^#' "$wh/w_ours_nested.out") rows as from its own file"
else
	echo "FAIL nested: Java's filtered reads of our nested file differ"; fail=1
fi

PK_CHECK_TABLES="${ORC_PK_TABLES:-dedup_orc agg_orc}" bash "$here/write_pk_check.sh" "$wh/pk" || fail=1
exit $fail
