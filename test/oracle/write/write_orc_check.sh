#!/usr/bin/env bash
# write_orc_check.sh [warehouse]
#   The core's ORC writer against Java (file.format = orc):
#   - append: Java 1.4.2 writes a partitioned table of every flat type the
#     ORC writer takes (NaN first and later in DOUBLE columns, strings over
#     1024 bytes, CHAR, VARCHAR(n), TINYINT..BIGINT, DECIMAL(10, 2) and
#     (30, 5), TIMESTAMP(3/6/9), TIMESTAMP_LTZ, BYTES, an all-NULL column),
#     zstd and zlib; copy_table copies its rows into ORC tables of ours;
#     the value stats of each of our files equal Java's byte for byte; Java
#     1.3.1 and 1.4.2 read our tables as Java's own; Java appends to ours and
#     Java's compaction of ours reads the same rows;
#   - primary keys: write_pk_check.sh's dedup_orc and agg_orc tables (our
#     level-0 file metas equal Java's, Java 1.3.1/1.4.2 read them as their
#     own, Java's full compaction of ours gives the same rows).
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
wh=${1:-$(mktemp -d /tmp/pm_write_orc_XXXXXX)}
mkdir -p "$wh"
cc=${UNIT_CC:-clang}
oracle="$root/test/oracle/oracle.sh"

make -s -C "$root" -j2 "build/unit-$cc/libpaimon.a" >/dev/null
$cc -std=gnu11 -O1 -g -fsanitize=address,undefined -I"$root/src" "$here/copy_table.c" \
	"$root/build/unit-$cc/libpaimon.a" -lzstd -lsnappy -llz4 -lz -ljansson -luring -lroaring -lm \
	-o "$wh/copy_table"

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
json.dump({"columns": cols, "partition_keys": ["dt"], "primary_keys": [],
           "options": dict(opts, **{"file.compression": "zlib"})}, open(wh + "/orc_zlib.json", "w"))
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
PY

fail=0
export ORACLE_PAIMON_VERSION=1.4.2
for t in orc orc_zlib; do
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

PK_CHECK_TABLES="${ORC_PK_TABLES:-dedup_orc agg_orc}" bash "$here/write_pk_check.sh" "$wh/pk" || fail=1
exit $fail
