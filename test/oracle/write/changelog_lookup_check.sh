#!/usr/bin/env bash
# changelog_lookup_check.sh [warehouse]
#   Primary-key tables with changelog-producer = lookup written by the core
#   (pk_write.c applies an ops.jsonl with the core's writer, which compacts
#   level 0 at commit and writes the lookup changelog with the COMPACT
#   snapshot) against Java 1.4.2 writing the same ops into a table of the
#   same schema: deduplicate (+I/-U/+U/-D, a key twice in a commit, keys
#   deleted and back), with deletion vectors, with row-deduplicate (and an
#   ignored field), partial-update, aggregation, first-row, sequence.field
#   (also descending)
#   (LOOKUP_CHECK_TABLES picks some, "all" every one; three run by default
#   to stay near two minutes). For each:
#   - both have the same snapshots (APPEND, then COMPACT for each commit),
#     and our changelog files' metas equal Java's, snapshot by snapshot
#     (pk_write --compare-changelog-sparse: row count, sequence range,
#     min/max key, stats, delete row count, level, file source)
#     and our COMPACT snapshots carry a changelogManifestList whose
#     changelogRecordCount is the records Java 1.4.2 reads from it;
#   - Java 1.3.1 and 1.4.2 read our changelog through an incremental
#     changelog scan (incremental-between, incremental-between-scan-mode =
#     changelog), snapshot by snapshot (APPEND snapshots without a
#     changelog on both sides skipped), as Java's own: the same records in
#     the same order, row kinds included;
#   - Java 1.4.2 reads our table (batch) as its own;
#   - (deduplicate, with and without DVs) Java 1.4.2 writes a commit on top of ours and compacts:
#     rows as Java's own table after the same, and the changelog of its
#     commit reads back.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse changelog_lookup "${1:-}"
check_tool "$here/pk_write.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import saver, write_jsonl
wh = sys.argv[1]
save = saver(wh)
rnd = random.Random(17)
cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
        {"name": "v", "type": "BIGINT"}]
ops = []
for i in rnd.sample(range(300), 300):
    ops.append({"op": "+I", "row": [i, None if i % 7 == 0 else "name %d" % i, i * 10]})
for i in range(0, 300, 5):   # same key twice in one commit
    ops.append({"op": "+I", "row": [i, "again %d" % i, -i]})
ops.append({"op": "commit"})
for i in range(0, 300, 3):
    ops.append({"op": "-U", "row": [i, "x", 0]})
    # every other update writes the same values again (row-deduplicate drops them)
    ops.append({"op": "+U", "row": [i, "upd %d" % i if i % 2 else ("again %d" % i if i % 5 == 0 else
                                    (None if i % 7 == 0 else "name %d" % i)),
                                    i * 100 if i % 2 else (-i if i % 5 == 0 else i * 10)]})
for i in range(1, 300, 11):
    ops.append({"op": "-D", "row": [i, None, None]})
ops.append({"op": "commit"})
for i in range(1, 100, 11):
    ops.append({"op": "+I", "row": [i, "back %d" % i, 7]})
for i in range(2, 60, 4):    # name changes only: ignored by the ignore-fields table
    ops.append({"op": "+I", "row": [i, "renamed %d" % i, None]})
ops.append({"op": "-D", "row": [1000, None, None]})
ops.append({"op": "commit"})
base = {"changelog-producer": "lookup", "bucket": "2"}
save("dedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
               "options": base}, ops)
save("dedup_dv", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                  "options": dict(base, **{"deletion-vectors.enabled": "true",
                                           "file.format": "avro"})}, ops)
save("rowdedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                  "options": dict(base, **{"changelog-producer.row-deduplicate": "true"})}, ops)
save("rowdedup_ignore", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                         "options": dict(base, **{
                             "changelog-producer.row-deduplicate": "true",
                             "changelog-producer.row-deduplicate-ignore-fields": "name"})}, ops)
save("seq", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
             "options": dict(base, **{"sequence.field": "v"})}, [o for o in ops if o["op"] != "-D"])
save("seq_desc", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                  "options": dict(base, **{"sequence.field": "v",
                                           "sequence.field.sort-order": "descending"})},
     [o for o in ops if o["op"] != "-D"])
ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "b", "type": "BIGINT"}]
ops = []
for c in range(3):
    for i in rnd.sample(range(150), 100):
        ops.append({"op": "+I", "row": [i, "a%d" % c if rnd.random() < 0.5 else None,
                                        None if rnd.random() < 0.5 else c]})
    ops.append({"op": "commit"})
save("partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                 "options": dict(base, **{"merge-engine": "partial-update"})}, ops)
save("agg", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
             "options": dict(base, **{"merge-engine": "aggregation",
                                      "fields.b.aggregate-function": "sum",
                                      "fields.a.aggregate-function": "last_non_null_value"})}, ops)
save("first_row", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                   "options": dict(base, **{"merge-engine": "first-row"})}, ops)
write_jsonl(wh + "/more.jsonl", [{"op": "-D", "row": [2, None, None]}, {"op": "commit"},
                                 {"op": "compact"}])
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

tables=${LOOKUP_CHECK_TABLES:-dedup dedup_dv agg}
[ "$tables" != all ] || tables="dedup dedup_dv rowdedup rowdedup_ignore seq seq_desc partial agg first_row"
fail=0
for t in $tables; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "java_$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "java_$t" "$wh/$t.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "ours_$t" "$wh/$t.json" >/dev/null
	"$wh/pk_write" "$wh/pk.db/ours_$t" "$wh/$t.jsonl" >/dev/null
	nj=$(nsnapshots "$wh/pk.db/java_$t")
	no=$(nsnapshots "$wh/pk.db/ours_$t")
	if [ "$nj" != "$no" ]; then
		echo "FAIL $t: $no snapshots, Java has $nj"; fail=1; continue
	fi
	# our changelog file metas equal Java's (row count, sequence range, keys, stats, level, kinds)
	if out=$("$wh/pk_write" --compare-changelog-sparse "$wh/pk.db/java_$t" "$wh/pk.db/ours_$t" "$no"); then
		echo "$t: our changelog file metas equal Java's ($out)"
	else
		echo "FAIL $t: $out"; fail=1
	fi
	total=0
	for v in 1.3.1 1.4.2; do
		for ((s = 1; s <= no; s++)); do
			if plain_append "$wh/pk.db/java_$t" $s && plain_append "$wh/pk.db/ours_$t" $s; then
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
	# our snapshots' changelog fields: on COMPACT snapshots only, counting what Java reads
	if python3 - "$wh/pk.db/ours_$t" "$wh/ours_${t}_1.4.2" "$no" <<'PY'
import json, os, sys
table, cl, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(1, n + 1):
    s = json.load(open("%s/snapshot/snapshot-%d" % (table, i)))
    records = sum(1 for _ in open("%s_%d.cl" % (cl, i)))
    if s["commitKind"] == "APPEND" and s.get("changelogManifestList"):
        sys.exit("APPEND snapshot %d has a changelog" % i)
    if records and (not s.get("changelogManifestList") or s.get("changelogRecordCount") != records):
        sys.exit("snapshot %d: changelogManifestList %s, changelogRecordCount %s, not %d"
                 % (i, s.get("changelogManifestList"), s.get("changelogRecordCount"), records))
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
	[ "$t" = dedup ] || [ "$t" = dedup_dv ] || continue
	# Java 1.4.2 commits on top of ours (a -D) and compacts: rows as Java's own table
	# after the same, and its commit's lookup changelog reads back
	for p in java ours; do
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "${p}_$t" "$wh/more.jsonl" >/dev/null
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "${p}_$t" | sort > "$wh/${p}_${t}_more.rows"
	done
	if cmp -s "$wh/java_${t}_more.rows" "$wh/ours_${t}_more.rows" && [ -s "$wh/ours_${t}_more.rows" ] &&
		[ "$(changelog_of 1.4.2 "ours_$t" "$no" "$(nsnapshots "$wh/pk.db/ours_$t")")" = '["-D",2,"renamed 2",null]' ]; then
		echo "$t: Java writes and compacts on top of ours: $(wc -l < "$wh/ours_${t}_more.rows") rows as its own table's"
	else
		echo "FAIL $t: Java's commit and compaction on top of ours"; fail=1
		changelog_of 1.4.2 "ours_$t" "$no" "$(nsnapshots "$wh/pk.db/ours_$t")" | head -3
	fi
done
exit $fail
