#!/usr/bin/env bash
# changelog_full_check.sh [warehouse]
#   Primary-key tables with changelog-producer = full-compaction: the core
#   writes commits (pk_write: the core's writer, compacting at commit as
#   Java's batch writer does) and fully compacts between them (compact_table:
#   pm_table_compact, the work of SQL paimon_compact); Java 1.4.2 does the
#   same operations on a table of the same schema (its batch writer, its
#   full compaction through BatchTableWrite.compact). Tables: deduplicate
#   (+I/-U/+U/-D, keys deleted and back, a key twice in a commit), row-
#   deduplicate with an ignored field, aggregation, (FULL_CHECK_TABLES=all:
#   also partitioned deduplicate, sequence.field and partial-update) and
#   trig (num-sorted-run.compaction-trigger 2: the writer's own compactions,
#   into the max level with a changelog, into lower levels without). For
#   each:
#   - the same snapshots on both sides (plain commits APPEND without
#     changelog, compactions COMPACT), and our changelog file metas equal
#     Java's snapshot by snapshot (pk_write --compare-changelog-sparse);
#   - Java 1.3.1 and 1.4.2 read our changelog (incremental-between-scan-mode
#     = changelog) snapshot by snapshot as Java's own, kinds and order
#     included; changelogRecordCount is what they read;
#   - Java 1.4.2 reads our table as its own;
#   - Java 1.4.2 writes a commit on top of ours and fully compacts it; then
#     the core writes one more commit and compacts again, reading Java's
#     files: rows and the changelog of the last compaction as Java's own
#     table after the same.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse changelog_full "${1:-}"
check_tool "$here/pk_write.c"
check_tool "$root/test/oracle/compact/compact_table.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import phase_saver, write_jsonl
wh = sys.argv[1]
save = phase_saver(wh)
rnd = random.Random(23)
cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
        {"name": "v", "type": "BIGINT"}]
p0 = []
for i in rnd.sample(range(300), 300):
    p0.append({"op": "+I", "row": [i, None if i % 7 == 0 else "name %d" % i, i * 10]})
p0.append({"op": "commit"})
for i in range(0, 300, 5):   # a second level-0 file, some keys twice in one commit
    p0.append({"op": "+I", "row": [i, "again %d" % i, -i]})
    p0.append({"op": "+I", "row": [i, "again %d" % i, -i - 1]})
p0.append({"op": "commit"})
p1 = []
for i in range(0, 300, 3):
    p1.append({"op": "-U", "row": [i, "x", 0]})
    # every other update writes the current values again (row-deduplicate drops them)
    p1.append({"op": "+U", "row": [i, "upd %d" % i if i % 2 else ("again %d" % i if i % 5 == 0 else
                                   (None if i % 7 == 0 else "name %d" % i)),
                                   i * 100 if i % 2 else (-i - 1 if i % 5 == 0 else i * 10)]})
for i in range(1, 300, 11):
    p1.append({"op": "-D", "row": [i, None, None]})
p1.append({"op": "-D", "row": [1000, None, None]})
p1.append({"op": "commit"})
p2 = []
for i in range(1, 100, 11):
    p2.append({"op": "+I", "row": [i, "back %d" % i, 7]})
for i in range(2, 60, 4):    # name changes only: ignored by the ignore-fields table
    p2.append({"op": "+I", "row": [i, "renamed %d" % i, None]})
p2.append({"op": "+I", "row": [2000, "new", 1]})
p2.append({"op": "commit"})
base = {"changelog-producer": "full-compaction", "bucket": "2"}
save("dedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
               "options": base}, [p0, p1, p2])
# partitioned (dt from the key): changelog files in each partition's buckets
pcols = cols[:1] + [{"name": "dt", "type": "STRING NOT NULL"}] + cols[1:]
def with_dt(ops):
    return [o if o["op"] == "commit" else
            {"op": o["op"], "row": o["row"][:1] + ["d%d" % (o["row"][0] % 2)] + o["row"][1:]}
            for o in ops]
save("part", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
              "options": base}, [with_dt(p0), with_dt(p1), with_dt(p2)])
save("rowdedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                  "options": dict(base, **{
                      "changelog-producer.row-deduplicate": "true",
                      "changelog-producer.row-deduplicate-ignore-fields": "name"})}, [p0, p1, p2])
save("seq", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
             "options": dict(base, **{"sequence.field": "v"})},
     [[o for o in p if o["op"] != "-D"] for p in (p0, p1, p2)])
ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "b", "type": "BIGINT"}]
phases = []
for ph in range(3):
    ops = []
    for c in range(2):
        for i in rnd.sample(range(150), 100):
            ops.append({"op": "+I", "row": [i, "a%d" % c if rnd.random() < 0.5 else None,
                                            None if rnd.random() < 0.5 else ph * 10 + c]})
        ops.append({"op": "commit"})
    phases.append(ops)
save("partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                 "options": dict(base, **{"merge-engine": "partial-update"})}, phases)
save("agg", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
             "options": dict(base, **{"merge-engine": "aggregation",
                                      "fields.b.aggregate-function": "sum",
                                      "fields.a.aggregate-function": "last_non_null_value"})},
     phases)
# the writer's own compactions (trigger 2): a large commit, then small ones (updates and
# deletes) that the size-ratio pick merges into a level below the max level (no changelog)
phases = []
nxt = 0
for ph in range(3):
    ops = []
    for c in range(3):
        for j in range(3000 if ph == 0 and c == 0 else 20 + 5 * c):
            r = rnd.random()
            if r < 0.4 and nxt > 0:
                ops.append({"op": "+I", "row": [rnd.randrange(nxt), "u%d-%d" % (ph, c), c]})
            elif r < 0.9:
                nxt += 1
                ops.append({"op": "+I", "row": [nxt, "n%d" % c, -c]})
            else:
                ops.append({"op": "-D", "row": [rnd.randrange(nxt + 1), None, None]})
        ops.append({"op": "commit"})
    phases.append(ops)
save("trig", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
              "options": dict(base, **{"bucket": "1",
                                       "num-sorted-run.compaction-trigger": "2"})}, phases)
write_jsonl(wh + "/compact.jsonl", [{"op": "compact"}])
write_jsonl(wh + "/more.jsonl", [{"op": "-D", "row": [2, None, None]},
                                 {"op": "+I", "row": [3000, "java", 5]}, {"op": "commit"},
                                 {"op": "compact"}])
write_jsonl(wh + "/last.jsonl", [{"op": "-D", "row": [3, None, None]},
                                 {"op": "+I", "row": [3000, "ours", 6]},
                                 {"op": "+I", "row": [3001, "ours", 7]}, {"op": "commit"}])
PY

changelog_of() {	# changelog_of <version> <table> <from> <to>: the changelog of (from, to]
	ORACLE_PAIMON_VERSION=$1 "$oracle" read "$wh" pk "$2" --kinds 1 \
		--options "{\"incremental-between\": \"$3,$4\", \"incremental-between-scan-mode\": \"changelog\"}"
}
nsnapshots() { ls "$1/snapshot" | grep -c '^snapshot-'; }
plain_append() {	# plain_append <table> <id>: an APPEND snapshot without a changelog
	grep -q '"commitKind" *: *"APPEND"' "$1/snapshot/snapshot-$2" &&
		! grep -q '"changelogManifestList" *: *"' "$1/snapshot/snapshot-$2"
}
java_ops() { "$oracle" write "$wh" pk "$1" "$2" >/dev/null; }

fail=0
tables=${FULL_CHECK_TABLES:-dedup rowdedup agg trig}
[ "$tables" != all ] || tables="dedup part rowdedup seq partial agg trig"
for t in $tables; do
	export ORACLE_PAIMON_VERSION=1.4.2
	"$oracle" create "$wh" pk "java_$t" "$wh/$t.json" >/dev/null
	"$oracle" create "$wh" pk "ours_$t" "$wh/$t.json" >/dev/null
	tdir="$wh/pk.db/ours_$t"
	# commits, full compaction, commits, full compaction, commits: on both sides
	for p in 0 1 2; do
		java_ops "java_$t" "$wh/$t.$p.jsonl"
		"$wh/pk_write" "$tdir" "$wh/$t.$p.jsonl" >/dev/null
		[ $p = 2 ] && break
		java_ops "java_$t" "$wh/compact.jsonl"
		"$wh/compact_table" "$tdir" >/dev/null
	done
	unset ORACLE_PAIMON_VERSION
	nj=$(nsnapshots "$wh/pk.db/java_$t")
	no=$(nsnapshots "$tdir")
	if [ "$nj" != "$no" ]; then
		echo "FAIL $t: $no snapshots, Java has $nj"; fail=1; continue
	fi
	kinds=$(cd "$tdir/snapshot" && for f in $(ls snapshot-* | sort -t- -k2 -n); do
		python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["commitKind"][0], end="")' "$f"; done)
	if out=$("$wh/pk_write" --compare-changelog-sparse "$wh/pk.db/java_$t" "$tdir" "$no"); then
		echo "$t: snapshots $kinds; our changelog file metas equal Java's ($out)"
	else
		echo "FAIL $t: $out"; fail=1
	fi
	total=0
	for v in 1.3.1 1.4.2; do
		for ((s = 1; s <= no; s++)); do
			if plain_append "$wh/pk.db/java_$t" $s && plain_append "$tdir" $s; then
				: > "$wh/ours_${t}_${v}_$s.cl"
				continue
			fi
			changelog_of $v "java_$t" $((s - 1)) $s > "$wh/java_${t}_${v}_$s.cl"
			changelog_of $v "ours_$t" $((s - 1)) $s > "$wh/ours_${t}_${v}_$s.cl"
			if ! cmp -s "$wh/java_${t}_${v}_$s.cl" "$wh/ours_${t}_${v}_$s.cl"; then
				echo "FAIL $t: Java $v reads the changelog of our snapshot $s differently"
				diff "$wh/java_${t}_${v}_$s.cl" "$wh/ours_${t}_${v}_$s.cl" | head -6; fail=1
			fi
			total=$((total + $(wc -l < "$wh/ours_${t}_${v}_$s.cl")))
		done
	done
	if [ "$total" -gt 0 ]; then
		echo "$t: Java 1.3.1 and 1.4.2 read the changelog of our $no snapshots as their own ($((total / 2)) records)"
	else
		echo "FAIL $t: no changelog at all"; fail=1
	fi
	# changelog fields only on COMPACT snapshots, counting what Java reads; trig: some
	# compactions (into lower levels) without a changelog
	if python3 - "$tdir" "$wh/ours_${t}_1.4.2" "$no" "$t" <<'PY'
import json, sys
table, cl, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
bare = 0
for i in range(1, n + 1):
    s = json.load(open("%s/snapshot/snapshot-%d" % (table, i)))
    records = sum(1 for _ in open("%s_%d.cl" % (cl, i)))
    if s["commitKind"] == "APPEND" and s.get("changelogManifestList"):
        sys.exit("APPEND snapshot %d has a changelog" % i)
    if records and (not s.get("changelogManifestList") or s.get("changelogRecordCount") != records):
        sys.exit("snapshot %d: changelogManifestList %s, changelogRecordCount %s, not %d"
                 % (i, s.get("changelogManifestList"), s.get("changelogRecordCount"), records))
    bare += s["commitKind"] == "COMPACT" and not s.get("changelogManifestList")
if sys.argv[4] == "trig" and bare == 0:
    sys.exit("no compaction into a lower level")
PY
	then
		echo "$t: our snapshots' changelogManifestList and changelogRecordCount as read"
	else
		echo "FAIL $t: our snapshots' changelog fields"; fail=1
	fi
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "java_$t" | sort > "$wh/java_$t.rows"
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "ours_$t" | sort > "$wh/ours_$t.rows"
	if cmp -s "$wh/java_$t.rows" "$wh/ours_$t.rows" && [ -s "$wh/ours_$t.rows" ]; then
		echo "$t: Java 1.4.2 reads our table as its own ($(wc -l < "$wh/ours_$t.rows") rows)"
	else
		echo "FAIL $t: Java 1.4.2 reads our table differently"
		diff "$wh/java_$t.rows" "$wh/ours_$t.rows" | head -6; fail=1
	fi
	[ "$t" = dedup ] || [ "$t" = agg ] || continue
	# Java commits and fully compacts on top of ours (and of its own); then one more commit
	# and our full compaction on each side, reading Java's compacted files
	ORACLE_PAIMON_VERSION=1.4.2 java_ops "java_$t" "$wh/more.jsonl"
	ORACLE_PAIMON_VERSION=1.4.2 java_ops "ours_$t" "$wh/more.jsonl"
	ORACLE_PAIMON_VERSION=1.4.2 java_ops "java_$t" "$wh/last.jsonl"
	ORACLE_PAIMON_VERSION=1.4.2 java_ops "java_$t" "$wh/compact.jsonl"
	"$wh/pk_write" "$tdir" "$wh/last.jsonl" >/dev/null
	"$wh/compact_table" "$tdir" >/dev/null
	nj=$(nsnapshots "$wh/pk.db/java_$t")
	n2=$(nsnapshots "$tdir")
	ok=1
	[ "$nj" = "$n2" ] || ok=0
	for s in $((n2 - 2)) $n2; do
		changelog_of 1.4.2 "java_$t" $((s - 1)) $s > "$wh/java_${t}_more_$s.cl"
		changelog_of 1.4.2 "ours_$t" $((s - 1)) $s > "$wh/ours_${t}_more_$s.cl"
		cmp -s "$wh/java_${t}_more_$s.cl" "$wh/ours_${t}_more_$s.cl" && [ -s "$wh/ours_${t}_more_$s.cl" ] || ok=0
	done
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "java_$t" | sort > "$wh/java_${t}_more.rows"
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_more.rows"
	cmp -s "$wh/java_${t}_more.rows" "$wh/ours_${t}_more.rows" || ok=0
	if [ $ok = 1 ]; then
		echo "$t: Java's compaction on top of ours and ours on top of Java's: rows ($(wc -l < "$wh/ours_${t}_more.rows")) and both changelogs as Java's own table's"
	else
		echo "FAIL $t: compactions on top of each other ($n2 snapshots, Java $nj)"
		for s in $((n2 - 2)) $n2; do diff "$wh/java_${t}_more_$s.cl" "$wh/ours_${t}_more_$s.cl" | head -4; done
		fail=1
	fi
done
exit $fail
