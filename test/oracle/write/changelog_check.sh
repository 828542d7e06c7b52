#!/usr/bin/env bash
# changelog_check.sh [warehouse]
#   Primary-key tables with changelog-producer = input written by the core
#   (pk_write.c applies an ops.jsonl with the core's writer) against Java
#   writing the same ops into a table of the same schema (deduplicate with
#   +I/-U/+U/-D over three commits, Parquet and Avro, a partitioned one, a
#   partial-update one, and one whose write buffer fills up within a commit).
#   For each:
#   - our changelog files' metas equal Java's, commit by commit (pk_write
#     --compare-changelog: row count, sequence range, min/max key, key and
#     value stats, delete row count, level, file source; not for the table
#     whose buffer fills: Java spills, we flush runs);
#   - every commit of ours has a changelogManifestList and a
#     changelogRecordCount equal to the records written in it;
#   - Java 1.3.1 and 1.4.2 read our changelog through an incremental
#     changelog scan (incremental-between, incremental-between-scan-mode =
#     changelog), commit by commit, as Java's own changelog: the same
#     records in the same order, row kinds included;
#   - Java 1.4.2 writes a commit on top of ours and fully compacts it: the
#     batch read is Java's rows, and the changelog of its commit reads back;
#   - our snapshot expiry (pk_write --expire) removes exactly the changelog
#     files of the expired snapshots.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse changelog "${1:-}"
check_tool "$here/pk_write.c"

python3 - "$wh" <<'PY'
import json, random, sys
wh = sys.argv[1]
rnd = random.Random(11)
def save(name, table, ops):
    json.dump(table, open("%s/%s.json" % (wh, name), "w"))
    with open("%s/%s.jsonl" % (wh, name), "w") as out:
        for op in ops:
            out.write(json.dumps(op) + "\n")

cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
        {"name": "v", "type": "BIGINT"}]
ops = []
for i in rnd.sample(range(300), 300):
    ops.append({"op": "+I", "row": [i, None if i % 7 == 0 else "name %d" % i, i * 10]})
for i in range(0, 300, 5):   # same key twice in one commit: both in the changelog
    ops.append({"op": "+I", "row": [i, "again %d" % i, -i]})
ops.append({"op": "commit"})
for i in range(0, 300, 3):
    ops.append({"op": "-U", "row": [i, "name %d" % i, i * 10]})
    ops.append({"op": "+U", "row": [i, "upd %d" % i, i * 100]})
for i in range(1, 300, 11):
    ops.append({"op": "-D", "row": [i, None, None]})
ops.append({"op": "commit"})
for i in range(1, 100, 11):
    ops.append({"op": "+I", "row": [i, "back %d" % i, 7]})
ops.append({"op": "-D", "row": [1000, None, None]})
ops.append({"op": "commit"})
base = {"changelog-producer": "input"}
save("dedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
               "options": dict(base, bucket="2")}, ops)
save("dedup_avro", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                    "options": dict(base, **{"bucket": "3", "file.format": "avro",
                                             "changelog-file.prefix": "cl-"})}, ops)
pcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
         {"name": "v", "type": "BIGINT"}]
ops = []
for c in range(2):
    for i in range(200):
        ops.append({"op": "+I", "row": [i % 70, "2026-12-0%d" % (1 + i % 3), c * 1000 + i]})
    ops.append({"op": "-D", "row": [c + 5, "2026-12-01", None]})
    ops.append({"op": "commit"})
save("part", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
              "options": dict(base, bucket="2")}, ops)
ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "b", "type": "BIGINT"}]
ops = []
for c in range(2):
    for i in rnd.sample(range(150), 100):
        ops.append({"op": "+I", "row": [i, "a%d" % c if rnd.random() < 0.5 else None,
                                        None if rnd.random() < 0.5 else c]})
    ops.append({"op": "commit"})
save("partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                 "options": dict(base, **{"bucket": "2", "merge-engine": "partial-update"})}, ops)
# a write buffer that fills within a commit (spilling: Java spills, we flush
# a run, changelog included): records compared as a multiset
ops = []
for c in range(2):
    for i in range(12000):
        ops.append({"op": "+I", "row": [(i * 7919 + c) % 4000, "x%d" % i, i]})
    ops.append({"op": "commit"})
save("flush_unordered", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                         "options": dict(base, **{"bucket": "2", "write-buffer-size": "256 kb"})}, ops)
with open(wh + "/more.jsonl", "w") as out:
    out.write(json.dumps({"op": "-D", "row": [2, None, None]}) + "\n")
    out.write(json.dumps({"op": "commit"}) + "\n")
    out.write(json.dumps({"op": "compact"}) + "\n")
PY

changelog_of() {	# changelog_of <version> <table> <from> <to>: the changelog of (from, to]
	ORACLE_PAIMON_VERSION=$1 "$oracle" read "$wh" pk "$2" --kinds 1 \
		--options "{\"incremental-between\": \"$3,$4\", \"incremental-between-scan-mode\": \"changelog\"}"
}

fail=0
for t in ${CHANGELOG_CHECK_TABLES:-dedup dedup_avro part partial flush_unordered}; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "java_$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "java_$t" "$wh/$t.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "ours_$t" "$wh/$t.json" >/dev/null
	"$wh/pk_write" "$wh/pk.db/ours_$t" "$wh/$t.jsonl" >/dev/null
	ncommits=$(grep -c '"commit"' "$wh/$t.jsonl")
	# the snapshots: a changelog manifest list, its record count = the ops of the commit
	if ! python3 - "$wh/pk.db/ours_$t" "$wh/$t.jsonl" <<'PY'
import json, sys
table, ops = sys.argv[1], [json.loads(l) for l in open(sys.argv[2])]
counts, n = [], 0
for op in ops:
    if op["op"] == "commit":
        counts.append(n); n = 0
    else:
        n += 1
for i, want in enumerate(counts, 1):
    s = json.load(open("%s/snapshot/snapshot-%d" % (table, i)))
    if not s.get("changelogManifestList") or s.get("changelogRecordCount") != want:
        sys.exit("snapshot %d: changelogManifestList %s, changelogRecordCount %s, not %d"
                 % (i, s.get("changelogManifestList"), s.get("changelogRecordCount"), want))
PY
	then
		echo "FAIL $t: our snapshots' changelog fields"; fail=1
	fi
	# our changelog file metas equal Java's (row count, sequence range, keys, stats, kinds)
	if [ "${t%_unordered}" != "$t" ]; then
		:
	elif out=$("$wh/pk_write" --compare-changelog "$wh/pk.db/java_$t" "$wh/pk.db/ours_$t" "$ncommits"); then
		echo "$t: our changelog file metas equal Java's ($out)"
	else
		echo "FAIL $t: $out"; fail=1
	fi
	for v in 1.3.1 1.4.2; do
		for ((s = 1; s <= ncommits; s++)); do
			changelog_of $v "java_$t" $((s - 1)) $s > "$wh/java_${t}_${v}_$s.cl"
			changelog_of $v "ours_$t" $((s - 1)) $s > "$wh/ours_${t}_${v}_$s.cl"
			if [ "${t%_unordered}" != "$t" ]; then
				sort -o "$wh/java_${t}_${v}_$s.cl" "$wh/java_${t}_${v}_$s.cl"
				sort -o "$wh/ours_${t}_${v}_$s.cl" "$wh/ours_${t}_${v}_$s.cl"
			fi
			if cmp -s "$wh/java_${t}_${v}_$s.cl" "$wh/ours_${t}_${v}_$s.cl" &&
				[ -s "$wh/ours_${t}_${v}_$s.cl" ]; then
				echo "$t: Java $v reads the changelog of our commit $s as its own: $(wc -l < "$wh/ours_${t}_${v}_$s.cl") records"
			else
				echo "FAIL $t: Java $v reads the changelog of our commit $s differently"
				diff "$wh/java_${t}_${v}_$s.cl" "$wh/ours_${t}_${v}_$s.cl" | head -6; fail=1
			fi
		done
	done
	[ "$t" = dedup ] || continue
	# Java 1.4.2 commits on top of ours (a -D) and fully compacts: rows as Java's own table
	# after the same, and the changelog of Java's commit reads back
	find "$wh/pk.db/ours_$t" -name 'changelog-*' -printf '%f\n' | sort > "$wh/ours_${t}_changelog_files"
	for p in java ours; do
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "${p}_$t" "$wh/more.jsonl" >/dev/null
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "${p}_$t" | sort > "$wh/${p}_${t}_more.rows"
	done
	if cmp -s "$wh/java_${t}_more.rows" "$wh/ours_${t}_more.rows" && [ -s "$wh/ours_${t}_more.rows" ] &&
		[ "$(changelog_of 1.4.2 "ours_$t" "$ncommits" $((ncommits + 1)))" = '["-D",2,null,null]' ]; then
		echo "$t: Java writes and compacts on top of ours: $(wc -l < "$wh/ours_${t}_more.rows") rows as its own table's"
	else
		echo "FAIL $t: Java's commit and compaction on top of ours"; fail=1
	fi
	# our snapshot expiry keeps the last 2 snapshots (Java's commit and its
	# compaction): the changelog files of the expired ones (all ours) go, as
	# Java's ExpireSnapshotsImpl without a decoupled changelog deletes them; Java's
	# commit's stay and still read
	tp="$wh/pk.db/ours_$t"
	nsnap=$(ls "$tp/snapshot" | grep -c '^snapshot-')
	"$wh/pk_write" --expire "$tp" 2 >/dev/null
	if python3 - "$tp" "$nsnap" "$wh/ours_${t}_changelog_files" <<'PY' &&
import os, sys
table, nsnap = sys.argv[1], int(sys.argv[2])
ours = set(open(sys.argv[3]).read().split())
on_disk = set()
for root, _, files in os.walk(table):
    on_disk |= {f for f in files if f.startswith("changelog-")}
kept = [i for i in range(1, nsnap + 1) if os.path.exists("%s/snapshot/snapshot-%d" % (table, i))]
if kept != [nsnap - 1, nsnap]:
    sys.exit("snapshots kept: %s" % kept)
if not ours or on_disk & ours:
    sys.exit("our changelog files left: %s" % sorted(on_disk & ours))
if not on_disk:
    sys.exit("the changelog of Java's kept commit is gone")
PY
	[ "$(changelog_of 1.4.2 "ours_$t" "$ncommits" $((ncommits + 1)))" = '["-D",2,null,null]' ]
	then
		echo "$t: our snapshot expiry removed the changelog files of the expired snapshots"
	else
		echo "FAIL $t: our snapshot expiry and the changelog files"; fail=1
	fi
done
exit $fail
