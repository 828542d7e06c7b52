#!/usr/bin/env bash
# write_dynamic_check.sh [warehouse]
#   Dynamic-bucket (bucket = -1) primary-key tables written by the core
#   (pk_write.c, one writer per commit, so every commit reloads the hash
#   index) against Java writing the same ops with its own HashBucketAssigner
#   (Oracle.java, one assigner): partitioned (also with the hash index in
#   the bucket directories, *_indir), partial-update without a
#   'bucket' option (-1 is the default), dynamic-bucket.max-buckets reached
#   (past it Java picks a random bucket: file metas not compared,
#   *_nometa), and ours written on top of Java's commits. For each:
#   - our level-0 file metas equal Java's (the same keys in the same buckets),
#     and our hash index files are in the directories Java's are in;
#   - Java 1.4.2 (and for dyn_part 1.3.1) reads our table as Java's own;
#   - Java 1.4.2 writes more commits on top of ours (its assigner loading our
#     HASH index files: every key updated there must land in the bucket that
#     holds it, else the merged read shows the key twice) and reads the same
#     rows as Java on top of Java's;
#   - dyn_part: Java 1.4.2's full compaction of that table reads the same rows.
#   Postpone buckets (bucket = -2) are written as Flink's batch sink writes
#   them (postpone.batch-write-fixed-bucket): the partitioned ops into fixed
#   buckets of the partition's bucket count (1 for a new partition); our file
#   metas equal those of Java writing the same ops into a table of bucket 1,
#   and Java 1.3.1 and 1.4.2 read our table as that one.
#   About 57 JVM runs (DYN_CHECK_TABLES picks some tables; empty: none).
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse write_dyn "${1:-}"
check_tool "$here/pk_write.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import saver
wh = sys.argv[1]
rnd = random.Random(81)
save = saver(wh)

cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
        {"name": "v", "type": "BIGINT"}]
def dedup_ops(nkeys, commits, seed):
    r = random.Random(seed)
    ops = []
    for c in range(commits):
        for i in r.sample(range(nkeys), nkeys // 2):
            ops.append({"op": "+I", "row": [i, "c%d-%d" % (c, i), c * 1000 + i]})
        for i in r.sample(range(nkeys), nkeys // 10):
            ops.append({"op": "-D", "row": [i, None, None]})
        ops.append({"op": "commit"})
    return ops
more = []
for c in range(2):
    for i in rnd.sample(range(700), 300):     # most keys exist already, some are new
        more.append({"op": "+I", "row": [i, "java%d-%d" % (c, i), -i]})
    more.append({"op": "commit"})
save("dyn_max_nometa", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                        "options": {"bucket": "-1", "dynamic-bucket.target-row-num": "50",
                                    "dynamic-bucket.max-buckets": "3"}},
     dedup_ops(600, 3, 3), more)

pcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
         {"name": "v", "type": "BIGINT"}]
ops = []
for c in range(3):
    for i in range(400):
        k = rnd.randrange(300)
        ops.append({"op": "+I", "row": [k, "2026-12-0%d" % (1 + k % 3), c * 1000 + i]})
    for k in range(c, 300, 23):
        ops.append({"op": "-D", "row": [k, "2026-12-0%d" % (1 + k % 3), None]})
    ops.append({"op": "commit"})
pmore = []
for i in range(0, 330, 2):
    pmore.append({"op": "+I", "row": [i, "2026-12-0%d" % (1 + i % 3), -i]})
pmore.append({"op": "commit"})
save("dyn_part", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
                  "options": {"bucket": "-1", "dynamic-bucket.target-row-num": "30"}}, ops, pmore)
# the hash index files in the bucket directories
save("dyn_part_indir", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
                        "options": {"bucket": "-1", "dynamic-bucket.target-row-num": "30",
                                    "index-file-in-data-file-dir": "true"}}, ops, pmore)
save("postpone", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
                  "options": {"bucket": "-2"}}, ops, pmore)
save("postpone_ref", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
                      "options": {"bucket": "1"}}, ops, pmore)

ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "b", "type": "BIGINT"}]
ops = []
for c in range(3):
    for i in rnd.sample(range(250), 200):
        if rnd.random() < 0.5:
            ops.append({"op": "+I", "row": [i, "a%d-%d" % (c, i), None]})
        else:
            ops.append({"op": "+I", "row": [i, None, c * 100 + i]})
    ops.append({"op": "commit"})
umore = [{"op": "+I", "row": [i, None, 7]} for i in range(0, 300, 3)] + [{"op": "commit"}]
# no 'bucket' option: -1 is the default of primary-key tables
save("dyn_partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                     "options": {"dynamic-bucket.target-row-num": "40",
                                 "merge-engine": "partial-update"}}, ops, umore)
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
PY

fail=0
j() { ORACLE_PAIMON_VERSION=${V:-1.4.2} "$oracle" "$@"; }
same_rows() {	# same_rows <what> <expected file> <actual file>
	if cmp -s "$2" "$3" && [ -s "$3" ]; then
		echo "$1: $(wc -l < "$3") rows"
	else
		echo "FAIL $1"; diff "$2" "$3" | head -6; fail=1
	fi
}
for t in ${DYN_CHECK_TABLES-dyn_part dyn_part_indir dyn_partial dyn_max_nometa}; do
	j create "$wh" pk "java_$t" "$wh/$t.json" >/dev/null
	j write "$wh" pk "java_$t" "$wh/$t.jsonl" >/dev/null
	j create "$wh" pk "ours_$t" "$wh/$t.json" >/dev/null
	"$wh/pk_write" "$wh/pk.db/ours_$t" "$wh/$t.jsonl" >/dev/null
	nb=$(find "$wh/pk.db/ours_$t" -maxdepth 2 -type d -name 'bucket-*' | wc -l)
	if [ "${t%_nometa}" != "$t" ]; then
		echo "$t: $nb buckets of ours (file metas not compared: Java picks random buckets past max-buckets)"
	elif out=$("$wh/pk_write" --compare "$wh/pk.db/java_$t" "$wh/pk.db/ours_$t"); then
		echo "$t: our file metas equal Java's, $nb buckets ($out)"
	else
		echo "FAIL $t: $out"; fail=1
	fi
	# where the hash index files are (index/, or the bucket directories): as Java's
	idx_dirs() { find "$1" -name 'index-*' -not -path '*/manifest/*' | sed -e "s|^$1/||" -e 's|/[^/]*$||' | sort -u | tr '\n' ' '; }
	if [ "$(idx_dirs "$wh/pk.db/ours_$t")" = "$(idx_dirs "$wh/pk.db/java_$t")" ]; then
		echo "$t: our hash index files are where Java's are: $(idx_dirs "$wh/pk.db/ours_$t" | wc -w) directories"
	else
		echo "FAIL $t: our hash index files are in $(idx_dirs "$wh/pk.db/ours_$t"), Java's in $(idx_dirs "$wh/pk.db/java_$t")"; fail=1
	fi
	versions=1.4.2
	[ "${t%_indir}" = dyn_part ] && versions="1.3.1 1.4.2"
	for v in $versions; do
		V=$v j read "$wh" pk "java_$t" | sort > "$wh/java_${t}_$v.rows"
		V=$v j read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		same_rows "$t: Java $v reads our dynamic-bucket table as its own" \
			"$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows"
	done
	# Java on top: its assigner reads our hash index
	j write "$wh" pk "java_$t" "$wh/${t}_more.jsonl" >/dev/null
	j write "$wh" pk "ours_$t" "$wh/${t}_more.jsonl" >/dev/null
	j read "$wh" pk "java_$t" | sort > "$wh/java_${t}_more.rows"
	j read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_more.rows"
	same_rows "$t: Java's commits on top of ours read as on top of its own (no key in two buckets)" \
		"$wh/java_${t}_more.rows" "$wh/ours_${t}_more.rows"
	[ "$t" = dyn_part ] || continue
	j write "$wh" pk "ours_$t" "$wh/compact.jsonl" >/dev/null
	j read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_compacted.rows"
	same_rows "$t: Java's full compaction of that table gives the same rows" \
		"$wh/java_${t}_more.rows" "$wh/ours_${t}_compacted.rows"
done
# ours on top of Java's: our assigner reads Java's hash index
t=dyn_part
[ -f "$wh/java_${t}_more.rows" ] && {
j create "$wh" pk "mixed_$t" "$wh/$t.json" >/dev/null
j write "$wh" pk "mixed_$t" "$wh/$t.jsonl" >/dev/null
"$wh/pk_write" "$wh/pk.db/mixed_$t" "$wh/${t}_more.jsonl" >/dev/null
j read "$wh" pk "mixed_$t" | sort > "$wh/mixed_${t}.rows"
same_rows "$t: our commit on top of Java's reads as Java's own (no key in two buckets)" \
	"$wh/java_${t}_more.rows" "$wh/mixed_${t}.rows"
}
# postpone buckets: as Flink's batch sink, into fixed buckets
j create "$wh" pk java_postpone_ref "$wh/postpone_ref.json" >/dev/null
j write "$wh" pk java_postpone_ref "$wh/postpone_ref.jsonl" >/dev/null
j create "$wh" pk ours_postpone "$wh/postpone.json" >/dev/null
"$wh/pk_write" "$wh/pk.db/ours_postpone" "$wh/postpone.jsonl" >/dev/null
if out=$("$wh/pk_write" --compare "$wh/pk.db/java_postpone_ref" "$wh/pk.db/ours_postpone"); then
	echo "postpone: our file metas equal Java's in a table of bucket 1 ($out)"
else
	echo "FAIL postpone: $out"; fail=1
fi
for v in 1.3.1 1.4.2; do
	V=$v j read "$wh" pk java_postpone_ref | sort > "$wh/java_postpone_$v.rows"
	V=$v j read "$wh" pk ours_postpone | sort > "$wh/ours_postpone_$v.rows"
	same_rows "postpone: Java $v reads our postpone-bucket table as the fixed-bucket one" \
		"$wh/java_postpone_$v.rows" "$wh/ours_postpone_$v.rows"
done
exit $fail
