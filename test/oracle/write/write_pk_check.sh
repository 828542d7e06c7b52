#!/usr/bin/env bash
# write_pk_check.sh [warehouse]
#   Primary-key tables written by the core (pk_write.c applies an ops.jsonl
#   with the core's writer) against Java writing the same ops into a table of
#   the same schema: deduplicate (+I/-U/+U/-D over three commits, Parquet and
#   Avro, partitioned), partial-update with sequence groups, aggregation
#   (sum, max), sequence.field. For each:
#   - our level-0 file metas equal Java's for the same commits (pk_write
#     --compare: row count, sequence range, min/max key, key and value stats,
#     delete row count, level), byte for byte;
#   - Java 1.3.1 and 1.4.2 read our table as Java's own, row for row;
#   - Java 1.4.2's full compaction of our table reads the same rows again.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
wh=${1:-$(mktemp -d /tmp/pm_write_pk_XXXXXX)}
mkdir -p "$wh"
cc=${UNIT_CC:-clang}
oracle="$root/test/oracle/oracle.sh"

make -s -C "$root" -j2 "build/unit-$cc/libpaimon.a" >/dev/null
$cc -std=gnu11 -O1 -g -fsanitize=address,undefined -I"$root/src" "$here/pk_write.c" \
	"$root/build/unit-$cc/libpaimon.a" -lzstd -lsnappy -llz4 -lz -ljansson -luring -lroaring -lm \
	-o "$wh/pk_write"

python3 - "$wh" <<'PY'
import json, random, sys
wh = sys.argv[1]
rnd = random.Random(8)
def save(name, table, ops):
    json.dump(table, open("%s/%s.json" % (wh, name), "w"))
    with open("%s/%s.jsonl" % (wh, name), "w") as out:
        for op in ops:
            out.write(json.dumps(op) + "\n")

# deduplicate: inserts, updates as -U/+U pairs, deletes, re-inserts
cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
        {"name": "v", "type": "BIGINT"}, {"name": "d", "type": "DOUBLE"}, {"name": "ok", "type": "BOOLEAN"}]
ops = []
for i in rnd.sample(range(400), 400):
    ops.append({"op": "+I", "row": [i, None if i % 7 == 0 else "name %d" % i, i * 10, i / 3.0, i % 2 == 0]})
for i in range(0, 400, 5):   # same key twice in one commit: the later wins
    ops.append({"op": "+I", "row": [i, "again %d" % i, -i, None, None]})
ops.append({"op": "commit"})
for i in range(0, 400, 3):
    ops.append({"op": "-U", "row": [i, None, None, None, None]})
    ops.append({"op": "+U", "row": [i, "upd %d" % i, i * 100, 0.5, True]})
for i in range(1, 400, 11):
    ops.append({"op": "-D", "row": [i, None, None, None, None]})
ops.append({"op": "commit"})
for i in range(1, 100, 11):
    ops.append({"op": "+I", "row": [i, "back %d" % i, 7, 7.0, False]})
ops.append({"op": "-D", "row": [1000, None, None, None, None]})   # a key never written
ops.append({"op": "commit"})
save("dedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
               "options": {"bucket": "2"}}, ops)
save("dedup_avro", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                    "options": {"bucket": "3", "file.format": "avro"}}, ops)

# partitioned: PK (id, dt), partition dt
pcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
         {"name": "v", "type": "BIGINT"}]
ops = []
for c in range(2):
    for i in range(300):
        ops.append({"op": "+I", "row": [i % 100, "2026-12-0%d" % (1 + i % 3), c * 1000 + i]})
    ops.append({"op": "-D", "row": [c + 5, "2026-12-01", None]})
    ops.append({"op": "commit"})
save("part", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
              "options": {"bucket": "3"}}, ops)

# partial-update with two sequence groups, streams out of order, a group retracted
ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "a_seq", "type": "BIGINT"}, {"name": "b", "type": "BIGINT"},
         {"name": "b_seq", "type": "BIGINT"}, {"name": "c", "type": "STRING"}]
ops = []
for c in range(3):
    for i in rnd.sample(range(200), 150):
        s = rnd.randrange(1000)
        if rnd.random() < 0.5:
            ops.append({"op": "+I", "row": [i, "a%d-%d" % (i, s), s, None, None, None]})
        else:
            ops.append({"op": "+I", "row": [i, None, None, s * 2, s, "c%d" % c]})
    for i in range(0, 200, 17):
        ops.append({"op": "-D", "row": [i, None, 2000, None, None, None]})
    ops.append({"op": "commit"})
save("partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                 "options": {"bucket": "2", "merge-engine": "partial-update",
                             "fields.a_seq.sequence-group": "a",
                             "fields.b_seq.sequence-group": "b"}}, ops)

# aggregation: sum and max, inserts over three commits
acols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "BIGINT"},
         {"name": "m", "type": "DOUBLE"}, {"name": "last", "type": "STRING"}]
ops = []
for c in range(3):
    for i in range(500):
        ops.append({"op": "+I", "row": [i % 120, i + c, None if i % 9 == 0 else rnd.random() * 100,
                                        None if i % 4 == 0 else "l%d" % i]})
    ops.append({"op": "commit"})
save("agg", {"columns": acols, "primary_keys": ["id"], "partition_keys": [],
             "options": {"bucket": "2", "merge-engine": "aggregation",
                         "fields.s.aggregate-function": "sum",
                         "fields.m.aggregate-function": "max"}}, ops)

# sequence.field: the largest ts wins whatever the order of writing
scols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "ts", "type": "BIGINT"},
         {"name": "v", "type": "STRING"}]
ops = []
for c in range(2):
    for i in range(300):
        ts = rnd.randrange(50)
        ops.append({"op": "+I", "row": [i % 80, ts, "v%d-%d-%d" % (c, i, ts)]})
    ops.append({"op": "commit"})
save("seqf", {"columns": scols, "primary_keys": ["id"], "partition_keys": [],
              "options": {"bucket": "2", "sequence.field": "ts"}}, ops)
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
PY

fail=0
for t in dedup dedup_avro part partial agg seqf; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "java_$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "java_$t" "$wh/$t.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "ours_$t" "$wh/$t.json" >/dev/null
	"$wh/pk_write" "$wh/pk.db/ours_$t" "$wh/$t.jsonl" >/dev/null
	if out=$(ASAN_OPTIONS=detect_leaks=0 "$wh/pk_write" --compare "$wh/pk.db/java_$t" "$wh/pk.db/ours_$t"); then
		echo "$t: our file metas equal Java's ($out)"
	else
		echo "FAIL $t: $out"; fail=1
	fi
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" pk "java_$t" | sort > "$wh/java_${t}_$v.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		if cmp -s "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" && [ -s "$wh/ours_${t}_$v.rows" ]; then
			echo "$t: Java $v reads our primary-key table as its own: $(wc -l < "$wh/ours_${t}_$v.rows") rows"
		else
			echo "FAIL $t: Java $v reads our primary-key table differently"
			diff "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" | head -6; fail=1
		fi
	done
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "ours_$t" "$wh/compact.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_compacted.rows"
	if cmp -s "$wh/java_${t}_1.4.2.rows" "$wh/ours_${t}_compacted.rows"; then
		echo "$t: Java's full compaction of our files gives the same rows"
	else
		echo "FAIL $t: Java's full compaction of our files gives other rows"
		diff "$wh/java_${t}_1.4.2.rows" "$wh/ours_${t}_compacted.rows" | head -6; fail=1
	fi
done
exit $fail
