#!/usr/bin/env bash
# lsm_race.sh [warehouse]
#   Two writers compacting one bucket of a primary-key table (bucket 1) at
#   once, Java 1.4.2 and the core: exactly one wins, by Java's LSM
#   key-range check (ConflictDetection.checkKeyRange) on whichever side
#   commits last. Java writes rows A (ids 0..99) and a full compaction of
#   the bucket in one writer (oracle op write-compact: A to level 5),
#   prepared from the empty table and held before its commit; meanwhile the
#   core writes rows B (ids 50..149, the same values) at level 0.
#   java_first: the core's compaction of B is planned (lsm_race) before
#     Java commits A and its compaction, and commits after: level 5 would
#     hold A [0,99] and B [50,149]: PM_ERR_CONFLICT "LSM conflicts
#     detected!", and the files it wrote are removed (bucket directory as
#     before).
#   ours_first: the core compacts B to level 5 (compact_table) first; Java's
#     COMPACT commit then fails with its own "LSM conflicts detected!".
#   Either way Java 1.3.1 and 1.4.2 and the core read the 150 rows alike,
#   and Java compacts the table afterwards and reads them again.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../check_prologue.sh
. "$here/../check_prologue.sh"
check_warehouse lsmrace "${1:-}"
for t in "$root/test/oracle/write/pk_write.c" "$here/compact_table.c" "$here/lsm_race.c"; do
	check_tool "$t"
done
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" build

python3 - "$wh" <<'PY'
import json, sys
wh = sys.argv[1]
json.dump({"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
                       {"name": "v", "type": "BIGINT"}],
           "primary_keys": ["id"], "partition_keys": [], "options": {"bucket": "1"}},
          open(wh + "/t.json", "w"))
def rows(lo, hi):
    return [json.dumps({"op": "+I", "row": [i, "n%d" % i, i * 3]}) for i in range(lo, hi)]
for t in ("java_first", "ours_first"):
    with open("%s/%s.a.jsonl" % (wh, t), "w") as out:
        out.write("\n".join(rows(0, 100)) + "\n")
        out.write(json.dumps({"op": "write-compact", "bucket": 0, "ready": "%s/%s.jready" % (wh, t),
                              "wait_for": "%s/%s.jgo" % (wh, t)}) + "\n")
with open(wh + "/b.jsonl", "w") as out:
    out.write("\n".join(rows(50, 150)) + "\n" + json.dumps({"op": "commit"}) + "\n")
PY
echo '{"op": "compact"}' > "$wh/compact.jsonl"

fail=0
bad() { echo "FAIL $*"; fail=1; }
wait_file() {	# wait_file <path> <pid>: until path exists; fails if pid exits first
	local n=0
	while [ ! -e "$1" ]; do
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.05; n=$((n + 1)); [ $n -lt 2400 ] || return 1
	done
}
# the rows (sorted) Java $2 and the core read from table $1; 150 ids 0..149, alike
same_rows() {
	local t=$1 what=$2 v
	ASAN_OPTIONS=detect_leaks=0 "$wh/pk_write" --read "$wh/lr.db/$t" | sort > "$wh/$t.ours.rows"
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" lr "$t" | sort > "$wh/$t.java.rows"
		if cmp -s "$wh/$t.java.rows" "$wh/$t.ours.rows" &&
			python3 -c 'import json,sys; ids=sorted(json.loads(l)[0] for l in open(sys.argv[1])); sys.exit(ids != list(range(150)))' "$wh/$t.ours.rows"; then
			echo "$t: $what: Java $v and the core read the same 150 rows"
		else
			bad "$t: $what: Java $v and the core read other rows"
			diff "$wh/$t.java.rows" "$wh/$t.ours.rows" | head -5
		fi
	done
}
levels() {	# "level rows" of the live files, sorted
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" files "$wh" lr "$1" | python3 -c '
import json, sys
print(" ".join(sorted("L%d:%d" % (f["level"], f["row_count"]) for f in json.load(sys.stdin))))'
}

for t in java_first ours_first; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" lr "$t" "$wh/t.json" >/dev/null
	tdir="$wh/lr.db/$t"
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" lr "$t" "$wh/$t.a.jsonl" > "$wh/$t.java.log" 2>&1 &
	jpid=$!
	wait_file "$wh/$t.jready" $jpid || { bad "$t: Java's write-compact did not get ready"; cat "$wh/$t.java.log"; continue; }
	"$wh/pk_write" "$tdir" "$wh/b.jsonl" >/dev/null
	if [ "$t" = java_first ]; then
		"$wh/lsm_race" "$tdir" "$wh/$t.oready" "$wh/$t.ogo" > "$wh/$t.ours.log" 2>&1 &
		opid=$!
		wait_file "$wh/$t.oready" $opid || { bad "$t: lsm_race did not open the table"; cat "$wh/$t.ours.log"; continue; }
		touch "$wh/$t.jgo"
		if wait $jpid; then echo "$t: Java committed its rows and compaction"; else bad "$t: Java's commit failed"; tail -5 "$wh/$t.java.log"; fi
		ls "$tdir/bucket-0" | sort > "$wh/$t.before"
		touch "$wh/$t.ogo"
		rc=0; wait $opid || rc=$?
		if [ $rc = 3 ] && grep -q "^CONFLICT LSM conflicts detected! Give up committing" "$wh/$t.ours.log"; then
			echo "$t: the core's compaction refused: $(head -c 120 < <(grep CONFLICT "$wh/$t.ours.log"))"
		else
			bad "$t: the core's stale compaction was not refused as an LSM conflict (exit $rc)"; cat "$wh/$t.ours.log"
		fi
		ls "$tdir/bucket-0" | sort > "$wh/$t.after"
		if cmp -s "$wh/$t.before" "$wh/$t.after"; then
			echo "$t: no file left behind by the refused compaction"
		else
			bad "$t: the refused compaction left files"; diff "$wh/$t.before" "$wh/$t.after"
		fi
		want="L0:100 L5:100"
	else
		"$wh/compact_table" "$tdir" > "$wh/$t.ours.log" 2>&1 || { bad "$t: our compaction failed"; cat "$wh/$t.ours.log"; }
		touch "$wh/$t.jgo"
		if wait $jpid; then
			bad "$t: Java's COMPACT commit was not refused"
		elif grep -q "LSM conflicts detected! Give up committing" "$wh/$t.java.log"; then
			echo "$t: Java's compaction refused: LSM conflicts detected"
		else
			bad "$t: Java failed otherwise"; grep -m3 -i "exception" "$wh/$t.java.log"
		fi
		want="L0:100 L5:100"
	fi
	got=$(levels "$t")
	[ "$got" = "$want" ] && echo "$t: live files $got" || bad "$t: live files $got, want $want"
	same_rows "$t" "after the race"
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" lr "$t" "$wh/compact.jsonl" >/dev/null
	got=$(levels "$t")
	[ "$got" = "L5:150" ] && echo "$t: Java compacts it to $got" || bad "$t: after Java's compaction: $got"
	same_rows "$t" "after Java's compaction"
done
[ "$fail" = 0 ] && echo "lsm_race: OK" || { echo "lsm_race: FAILED"; exit 1; }
