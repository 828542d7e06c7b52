#!/usr/bin/env bash
# postpone_check.sh [warehouse]
#   The compaction of postpone-bucket tables (bucket = -2) by the core
#   (compact_table.c: pm_table_compact -> lsm/postpone_compact.c, the work of
#   SQL paimon_compact) against Java's (Oracle.compactPostpone: Flink's
#   CompactAction.buildForPostponeBucketCompaction on core classes). Java
#   1.4.2 writes the same commits into java_<t> and ours_<t>; its batch
#   writer puts them into bucket-postpone (unsorted Avro files, no stats,
#   row kinds kept), where batch reads do not see them. For each table:
#   1. three commits, then each side compacts its table: per partition the
#      postpone files are replayed into postpone.default-bucket-num real
#      buckets; Java 1.3.1 and 1.4.2 read the same rows from both, and both
#      have the same files (partition, bucket, level, rows, sequence range);
#      the postpone files are gone and one COMPACT snapshot holds it all;
#   2. two more commits, one into a new partition; compacted again: known
#      partitions keep their bucket count (the one of their real files), the
#      new one takes the default; step 1's checks again;
#   3. a compaction with no postpone file left makes no snapshot.
#   The core writes the same commits into w_<t> (pk_write.c; the table with
#   postpone.batch-write-fixed-bucket = false, so rows go to bucket-postpone as
#   Java's do): each round its postpone files equal Java's (pk_write
#   --compare-postpone: rows, sequence range -1, min/max key, statistics, delete
#   rows, level, file source), then Java compacts w_<t> and Java 1.3.1 and 1.4.2
#   read it as java_<t>.
#   Tables: dedup (partitioned, -U/+U and -D, 2 default buckets), partial
#   (partial-update with sequence groups, 3 default buckets), seqf
#   (sequence.field, thin mode), dv (deletion vectors) and first (first-row):
#   the lookup compaction of the level-0 files written, a second COMPACT
#   snapshot.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse postpone "${1:-}"
check_tool "$here/compact_table.c"
check_tool "$root/test/oracle/write/pk_write.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import SEQ_COLUMNS, phase_saver, seq_field_ops
wh = sys.argv[1]
rnd = random.Random(29)
save = phase_saver(wh)

cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
        {"name": "name", "type": "STRING"}, {"name": "v", "type": "BIGINT"}]
def dedup_ops(base, commits, days):
    ops = []
    for c in range(commits):
        for i in rnd.sample(range(300), 150):
            dt = "2026-12-0%d" % days[i % len(days)]
            ops.append({"op": "+I", "row": [i, dt, None if i % 7 == 0 else "n%d-%d" % (i, base + c),
                                            i * 10 + c]})
            if i % 5 == 0:
                # the same key twice in one file: the later record wins
                ops.append({"op": "+I", "row": [i, dt, "again%d" % (base + c), -i]})
        for i in range(c, 300, 13):
            ops.append({"op": "-D", "row": [i, "2026-12-0%d" % days[i % len(days)], None, None]})
        for i in range(c + 1, 300, 11):
            dt = "2026-12-0%d" % days[i % len(days)]
            ops.append({"op": "-U", "row": [i, dt, None, None]})
            ops.append({"op": "+U", "row": [i, dt, "u%d" % i, -i]})
        ops.append({"op": "commit"})
    return ops
save("dedup", {"columns": cols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
               "options": {"bucket": "-2", "postpone.default-bucket-num": "2"}},
     [dedup_ops(0, 3, [1, 2]), dedup_ops(10, 2, [1, 2, 3])])

ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "a_seq", "type": "BIGINT"}, {"name": "b", "type": "BIGINT"},
         {"name": "b_seq", "type": "BIGINT"}]
def pu_ops(commits):
    ops = []
    for c in range(commits):
        for i in rnd.sample(range(200), 150):
            s = rnd.randrange(1000)
            if rnd.random() < 0.5:
                ops.append({"op": "+I", "row": [i, "a%d-%d" % (i, s), s, None, None]})
            else:
                ops.append({"op": "+I", "row": [i, None, None, s * 2, s]})
        ops.append({"op": "commit"})
    return ops
save("partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                 "options": {"bucket": "-2", "postpone.default-bucket-num": "3",
                             "merge-engine": "partial-update",
                             "fields.a_seq.sequence-group": "a",
                             "fields.b_seq.sequence-group": "b"}},
     [pu_ops(3), pu_ops(2)])

scols = SEQ_COLUMNS
def seq_ops(base, commits):
    return seq_field_ops(rnd, base, commits)
save("seqf", {"columns": scols, "primary_keys": ["id"], "partition_keys": [],
              "options": {"bucket": "-2", "postpone.default-bucket-num": "2",
                          "sequence.field": "ts", "data-file.thin-mode": "true"}},
     [seq_ops(0, 3), seq_ops(10, 2)])

save("dv", {"columns": cols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
            "options": {"bucket": "-2", "postpone.default-bucket-num": "2",
                        "deletion-vectors.enabled": "true"}},
     [dedup_ops(30, 3, [1, 2]), dedup_ops(40, 2, [2, 3])])
# first-row: the first value of a key stays (Java's postpone writer takes no retraction)
fcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
         {"name": "v", "type": "BIGINT"}]
def first_ops(base, commits):
    ops = []
    for c in range(commits):
        for i in rnd.sample(range(300), 150):
            ops.append({"op": "+I", "row": [i, "f%d-%d" % (base + c, i), i * c]})
        ops.append({"op": "commit"})
    return ops
save("first", {"columns": fcols, "primary_keys": ["id"], "partition_keys": [],
               "options": {"bucket": "-2", "postpone.default-bucket-num": "2",
                           "merge-engine": "first-row"}},
     [first_ops(0, 3), first_ops(10, 2)])
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
PY

db=pp
# shellcheck source=java_twin.sh
. "$here/java_twin.sh"

# postpone_files T: the files in T's bucket-postpone directories
postpone_files() {
	find "$wh/pp.db/$1" -path '*bucket-postpone/*' -type f | wc -l
}

# last_kind T: the commit kind of T's latest snapshot
last_kind() {
	python3 -c 'import json,sys
d = sys.argv[1]
n = open(d + "/snapshot/LATEST").read().strip()
print(json.load(open(d + "/snapshot/snapshot-" + n))["commitKind"])' "$wh/pp.db/$1"
}

fail=0
for t in ${POSTPONE_CHECK_TABLES:-dedup partial seqf dv first}; do
	for side in java ours; do
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pp "${side}_$t" "$wh/$t.json" >/dev/null
	done
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["options"]["postpone.batch-write-fixed-bucket"] = "false"
json.dump(d, open(sys.argv[2], "w"))' "$wh/$t.json" "$wh/w_$t.json"
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pp "w_$t" "$wh/w_$t.json" >/dev/null
	for round in 0 1; do
		n0=$(postpone_files "ours_$t")
		for side in java ours; do
			ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pp "${side}_$t" "$wh/$t.$round.jsonl" >/dev/null
		done
		n=$(($(postpone_files "ours_$t") - n0))
		if [ "$n" -eq 0 ]; then
			echo "FAIL $t: Java wrote no postpone file"; fail=1
		fi
		# the core's postpone files of the same commits, compacted by Java
		"$wh/pk_write" "$wh/pp.db/w_$t" "$wh/$t.$round.jsonl" >/dev/null
		if out=$("$wh/pk_write" --compare-postpone "$wh/pp.db/java_$t" "$wh/pp.db/w_$t"); then
			echo "$t: round $round: our postpone files equal Java's ($out)"
		else
			echo "FAIL $t: round $round: our postpone files: $out"; fail=1
		fi
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pp "w_$t" "$wh/compact.jsonl" >/dev/null
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pp "java_$t" "$wh/compact.jsonl" >/dev/null
		same_rows "java_$t" "w_$t" "$t" "round $round, our postpone files compacted by Java" 1.3.1 1.4.2
		if ! out=$("$wh/compact_table" "$wh/pp.db/ours_$t"); then
			echo "FAIL $t: our compaction: $out"; fail=1; continue 2
		fi
		echo "$t: round $round: $n postpone files written by Java; ours: $out"
		same "$t" "round $round" 1.3.1 1.4.2
		# the postpone files of this round, all moved, in one COMPACT snapshot
		kind=$(last_kind "ours_$t")
		if [[ "$out" != *" in=$n "* ]] || [ "$kind" != COMPACT ]; then
			echo "FAIL $t: round $round: not the $n postpone files moved, or latest snapshot $kind"
			fail=1
		fi
	done
	# 3. nothing left to move: no snapshot
	before=$(cat "$wh/pp.db/ours_$t/snapshot/LATEST")
	out=$("$wh/compact_table" "$wh/pp.db/ours_$t")
	if [ "$(cat "$wh/pp.db/ours_$t/snapshot/LATEST")" = "$before" ]; then
		echo "$t: a compaction with no postpone file makes no snapshot ($out)"
	else
		echo "FAIL $t: a compaction with nothing to move made a snapshot"; fail=1
	fi
done
[ "$fail" = 0 ] && echo "postpone_check: OK" || { echo "postpone_check: FAILED"; exit 1; }
