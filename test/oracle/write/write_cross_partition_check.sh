#!/usr/bin/env bash
# write_cross_partition_check.sh [warehouse]
#   Cross-partition upsert tables (bucket = -1, a partition key not in the
#   primary key: Java's KEY_DYNAMIC mode) written by the core (pk_write.c,
#   one writer per commit, so every commit bootstraps the key index from the
#   latest snapshot) against Java writing the same ops through its own
#   GlobalIndexAssigner logic (Oracle.java: IndexBootstrap, BucketAssigner
#   and ExistingProcessor of the Paimon release, the key index in a HashMap
#   instead of RocksDB). Keys move between partitions in every commit;
#   deduplicate (a -D in the old partition), partial-update and aggregation
#   (the old partition keeps the key), a small dynamic-bucket.target-row-num
#   (several buckets per partition), and a fixed-bucket table whose key lacks
#   the partition key (no global index: a key may live in two partitions).
#   For each:
#   - our level-0 file metas equal Java's (same rows, same buckets, same
#     sequence numbers);
#   - Java 1.3.1 and 1.4.2 read our table as Java's own;
#   - Java 1.4.2 writes more commits (moving keys) on top of ours and of its
#     own, and reads the same rows from both (its bootstrap reads our files);
#   - we write on top of Java's table and Java reads it as its own;
#   - Java's full compaction of our table gives the same rows.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse write_xpart "${1:-}"
check_tool "$here/pk_write.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import saver
wh = sys.argv[1]
rnd = random.Random(8)
save = saver(wh)

days = ["2026-12-01", "2026-12-02", "2026-12-03"]
cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
        {"name": "v", "type": "BIGINT"}, {"name": "s", "type": "STRING"}]
def ops_for(seed, commits, nkeys, deletes=True, nulls=False):
    r = random.Random(seed)
    ops = []
    for c in range(commits):
        for i in range(nkeys):
            k = r.randrange(nkeys)
            v = None if nulls and r.random() < 0.3 else c * 1000 + i
            s = None if nulls and r.random() < 0.3 else "c%d-%d" % (c, i)
            ops.append({"op": "+I", "row": [k, r.choice(days), v, s]})
        if deletes:
            for k in r.sample(range(nkeys), nkeys // 10):
                # a delete names the key's partition, or another one
                ops.append({"op": "-D", "row": [k, r.choice(days), None, None]})
        ops.append({"op": "commit"})
    return ops
def table(options):
    return {"columns": cols, "primary_keys": ["id"], "partition_keys": ["dt"], "options": options}
save("xp_dedup", table({"bucket": "-1", "dynamic-bucket.target-row-num": "15"}),
     ops_for(1, 3, 120), ops_for(2, 2, 150))
save("xp_partial", table({"merge-engine": "partial-update",
                          "dynamic-bucket.target-row-num": "25"}),
     ops_for(3, 3, 100, deletes=False, nulls=True), ops_for(4, 2, 130, deletes=False, nulls=True))
save("xp_agg", table({"bucket": "-1", "merge-engine": "aggregation",
                      "fields.v.aggregate-function": "sum",
                      "fields.s.aggregate-function": "last_non_null_value"}),
     ops_for(5, 3, 80, deletes=False, nulls=True), ops_for(6, 2, 90, deletes=False, nulls=True))
save("xp_fixed", table({"bucket": "2"}), ops_for(7, 3, 60), ops_for(8, 2, 70))
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
PY

fail=0
j() { ORACLE_PAIMON_VERSION=${V:-1.4.2} "$oracle" "$@"; }
same_rows() {	# same_rows <what> <expected file> <actual file>
	if cmp -s "$2" "$3" && [ -s "$3" ]; then
		echo "$1: $(wc -l < "$3") rows"
	else
		echo "FAIL $1"; { diff "$2" "$3" | head -6 || true; }; fail=1
	fi
}
tables=${XPART_CHECK_TABLES-xp_dedup xp_partial xp_agg xp_fixed}
# three JVM runs (oracle batch): Java writes; Java 1.3.1 reads; Java 1.4.2 reads,
# writes on top, reads again and compacts
: > "$wh/java_write.batch"
for t in $tables; do
	cat >> "$wh/java_write.batch" <<EOB
create $wh pk java_$t $wh/$t.json > /dev/null
write $wh pk java_$t $wh/$t.jsonl > /dev/null
create $wh pk ours_$t $wh/$t.json > /dev/null
create $wh pk mixed_$t $wh/$t.json > /dev/null
write $wh pk mixed_$t $wh/$t.jsonl > /dev/null
EOB
done
j batch "$wh/java_write.batch"
: > "$wh/read_131.batch"
: > "$wh/java_more.batch"
for t in $tables; do
	"$wh/pk_write" "$wh/pk.db/ours_$t" "$wh/$t.jsonl" >/dev/null
	# ours on top of Java's: our bootstrap reads Java's files
	"$wh/pk_write" "$wh/pk.db/mixed_$t" "$wh/${t}_more.jsonl" >/dev/null
	nb=$(find "$wh/pk.db/ours_$t" -maxdepth 2 -type d -name 'bucket-*' | wc -l)
	if out=$("$wh/pk_write" --compare "$wh/pk.db/java_$t" "$wh/pk.db/ours_$t"); then
		echo "$t: our file metas equal Java's, $nb bucket directories ($out)"
	else
		echo "FAIL $t: $out"; fail=1
	fi
	cat >> "$wh/read_131.batch" <<EOB
read $wh pk java_$t > $wh/java_${t}_1.3.1.out
read $wh pk ours_$t > $wh/ours_${t}_1.3.1.out
EOB
	# Java on top: its bootstrap reads our files; then its full compaction
	cat >> "$wh/java_more.batch" <<EOB
read $wh pk java_$t > $wh/java_${t}_1.4.2.out
read $wh pk ours_$t > $wh/ours_${t}_1.4.2.out
write $wh pk java_$t $wh/${t}_more.jsonl > /dev/null
write $wh pk ours_$t $wh/${t}_more.jsonl > /dev/null
read $wh pk java_$t > $wh/java_${t}_more.out
read $wh pk ours_$t > $wh/ours_${t}_more.out
read $wh pk mixed_$t > $wh/mixed_${t}.out
write $wh pk ours_$t $wh/compact.jsonl > /dev/null
read $wh pk ours_$t > $wh/ours_${t}_compacted.out
EOB
done
V=1.3.1 j batch "$wh/read_131.batch"
j batch "$wh/java_more.batch"
for f in "$wh"/*.out; do sort "$f" > "${f%.out}.rows"; done
for t in $tables; do
	for v in 1.3.1 1.4.2; do
		same_rows "$t: Java $v reads our table as its own" \
			"$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows"
	done
	same_rows "$t: Java's commits on top of ours read as on top of its own" \
		"$wh/java_${t}_more.rows" "$wh/ours_${t}_more.rows"
	same_rows "$t: our commits on top of Java's read as Java's own" \
		"$wh/java_${t}_more.rows" "$wh/mixed_${t}.rows"
	same_rows "$t: Java's full compaction of that table gives the same rows" \
		"$wh/java_${t}_more.rows" "$wh/ours_${t}_compacted.rows"
done
exit $fail
