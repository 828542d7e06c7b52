#!/usr/bin/env bash
# append_dv_check.sh [warehouse]
#   DELETE and UPDATE through SQL on append tables with deletion vectors,
#   checked against Java. Java 1.4.2 writes two append tables (bucket-unaware
#   and partitioned, 32-bit DVs; two fixed buckets, 64-bit DVs) in three
#   commits; the extension runs the same DELETE / UPDATE statements on them
#   and on heap copies of their rows (a DV added to a file that has one, a
#   row moved to another partition, a multi-statement transaction, a
#   rolled-back one). Both keep their DV index files in the bucket
#   directories (index-file-in-data-file-dir; the first also under
#   data-file.path-directory), checked at the end. Then:
#   - Java 1.3.1 and 1.4.2 read our tables row for row as the heap copies;
#   - Java 1.4.2 compacts them (its compaction applies and drops the DVs),
#     and both Java and the extension read the heap copies' rows; a DELETE
#     left pending while Java compacts fails at COMMIT with 40001; Java
#     1.3.1 and 1.4.2 read the fixed-bucket table after our paimon_compact;
#   - then the bucket-unaware table: more DELETEs (DVs on Java's compacted
#     files), our paimon_compact (no DV left), read by the extension and
#     by Java 1.3.1 and 1.4.2; one more DELETE, Java 1.4.2 compacts our
#     compacted table again, and Java and the extension read its rows;
#   - a third table (target-file-size 8kb: Java writes large files of 1000
#     rows and small ones), one DELETE marking rows of every file (one DV
#     index file), one deleting most rows of a large file: our
#     paimon_compact and Java's compaction of a copy of the table leave
#     the same files (the same ones not rewritten, the same ones with a
#     DV), and Java 1.3.1 and 1.4.2 read our compaction (the DVs of the
#     files not rewritten in a new index file) as the heap copy.
# Needs the oracle (test/oracle/oracle.sh) and a running server with
# paimon_fdw installed (PGHOST/PGPORT/... as test/oracle/run.sh gets them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../check_prologue.sh
. "$here/../check_prologue.sh"
check_warehouse append_dv "${1:-}"
psql_q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, sys
from check_ops import saver
wh = sys.argv[1]
save = saver(wh)

ops = []
for c in range(3):
    for i in range(c * 150, c * 150 + 150):
        ops.append({"op": "+I", "row": ["2026-12-0%d" % (1 + i % 2), i, i * 10,
                                        None if i % 13 == 0 else "s%d" % i]})
    ops.append({"op": "commit"})
save("events", {"columns": [{"name": "dt", "type": "STRING"}, {"name": "id", "type": "INT"},
                            {"name": "v", "type": "BIGINT"}, {"name": "s", "type": "STRING"}],
                "primary_keys": [], "partition_keys": ["dt"],
                "options": {"deletion-vectors.enabled": "true",
                            "index-file-in-data-file-dir": "true",
                            "data-file.path-directory": "data"}}, ops)
ops = []
for c in range(3):
    for i in range(c * 100, c * 100 + 100):
        ops.append({"op": "+I", "row": [i, i * 3]})
    ops.append({"op": "commit"})
save("orders", {"columns": [{"name": "id", "type": "INT"}, {"name": "amt", "type": "BIGINT"}],
                "primary_keys": [], "partition_keys": [],
                "options": {"bucket": "2", "bucket-key": "id", "deletion-vectors.enabled": "true",
                            "deletion-vectors.bitmap64": "true",
                            "index-file-in-data-file-dir": "true"}}, ops)
ops = []
for c in range(3):
    for i in range(c * 2000, c * 2000 + 2000):
        ops.append({"op": "+I", "row": [i, "p%d-%d" % (i, (i * 7919) % 100003)]})
    ops.append({"op": "commit"})
for c in range(3):
    for i in range(10000 + c * 5, 10000 + c * 5 + 5):
        ops.append({"op": "+I", "row": [i, "small"]})
    ops.append({"op": "commit"})
save("logs", {"columns": [{"name": "id", "type": "INT"}, {"name": "pad", "type": "STRING"}],
              "primary_keys": [], "partition_keys": [],
              "options": {"deletion-vectors.enabled": "true", "target-file-size": "8kb"}}, ops)
PY

tables="events orders"
for t in $tables logs; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" adv "$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" adv "$t" "$wh/$t.jsonl" >/dev/null
done
chmod -R a+rwX "$wh"	# the server writes the DV index files and snapshots

srv="adv_check_$$"
cat > "$wh/statements.sql" <<'SQL'
DELETE FROM T WHERE id % 7 = 0;
UPDATE T SET V = V + 1000 WHERE id % 5 = 1;
BEGIN;
DELETE FROM T WHERE id BETWEEN 100 AND 120;
UPDATE T SET V = -V WHERE id % 11 = 3 AND id NOT BETWEEN 100 AND 120;
INSERT INTO T SELECT * FROM T WHERE id = 50;
COMMIT;
BEGIN;
DELETE FROM T WHERE id % 2 = 0;
ROLLBACK;
DELETE FROM T WHERE id % 7 = 1;
SQL
{
	echo "CREATE EXTENSION IF NOT EXISTS paimon_fdw;"
	echo "CREATE SERVER $srv FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '$wh');"
	echo "CREATE SCHEMA $srv;"
	echo "IMPORT FOREIGN SCHEMA adv FROM SERVER $srv INTO $srv;"
	echo "CREATE TABLE $srv.h_events AS SELECT * FROM $srv.events;"
	echo "CREATE TABLE $srv.h_orders AS SELECT * FROM $srv.orders;"
	echo "CREATE TABLE $srv.h_logs AS SELECT * FROM $srv.logs;"
	# the same statements on the Paimon tables and on their heap copies
	for t in events orders; do
		v=$([ $t = events ] && echo v || echo amt)
		for target in "$srv.$t" "$srv.h_$t"; do
			sed -e "s/\bT\b/$target/g" -e "s/\bV\b/$v/g" "$wh/statements.sql"
		done
	done
	echo "UPDATE $srv.events SET dt = '2026-12-03' WHERE id % 17 = 4;"
	echo "UPDATE $srv.h_events SET dt = '2026-12-03' WHERE id % 17 = 4;"
} > "$wh/run.sql"
psql_q -f "$wh/run.sql"

# rows as JSON arrays, compared as sorted lists of values
norm() { python3 -c 'import json,sys; print("\n".join(sorted(json.dumps(json.loads(l)) for l in sys.stdin if l.strip())))'; }
sql_rows() { psql -X -At -c "SELECT json_build_array($2) FROM $srv.$1" | norm; }
# the commit kind of the table's latest snapshot
latest_kind() {
	python3 -c 'import json,os,sys; d=sys.argv[1]+"/snapshot"; n=max(int(f[9:]) for f in os.listdir(d) if f.startswith("snapshot-")); print(json.load(open("%s/snapshot-%d" % (d, n)))["commitKind"])' "$wh/adv.db/$1"
}
cols_events="dt, id, v, s"
cols_orders="id, amt"

fail=0
check() {	# what, expected file, actual file
	if cmp -s "$2" "$3" && [ -s "$2" ]; then
		echo "$1: $(wc -l < "$2") rows, as the heap copy"
	else
		echo "FAIL $1"; diff "$2" "$3" | head -6; fail=1
	fi
}
for t in $tables; do
	cols=$([ $t = events ] && echo "$cols_events" || echo "$cols_orders")
	sql_rows "h_$t" "$cols" > "$wh/$t.heap"
	sql_rows "$t" "$cols" > "$wh/$t.sql"
	check "$t: the extension reads its DELETE/UPDATE" "$wh/$t.heap" "$wh/$t.sql"
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" adv "$t" | norm > "$wh/$t.java_$v"
		check "$t: Java $v reads our deletion vectors" "$wh/$t.heap" "$wh/$t.java_$v"
	done
	if [ $t = orders ]; then
		# our compaction of the fixed buckets (the DVs' rows dropped, the DVs gone)
		psql_q -c "SELECT * FROM paimon_compact('$srv.orders')" >/dev/null
		for v in 1.3.1 1.4.2; do
			ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" adv "$t" | norm > "$wh/$t.java_ours_compacted_$v"
			check "$t: Java $v reads our compaction" "$wh/$t.heap" "$wh/$t.java_ours_compacted_$v"
		done
	fi
	echo '{"op": "compact"}' > "$wh/compact.jsonl"
	if [ $t = events ]; then
		# a DELETE pending while Java compacts its file: the commit fails with 40001
		coproc PSQL { psql -X -q -v VERBOSITY=verbose 2>&1; }
		echo "BEGIN; DELETE FROM $srv.events WHERE id = 151; SELECT 'deleted';" >&"${PSQL[1]}"
		while read -r -t 60 line <&"${PSQL[0]}"; do [[ "$line" == *deleted* ]] && break; done
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" adv "$t" "$wh/compact.jsonl" >/dev/null
		printf 'COMMIT;\n\\q\n' >&"${PSQL[1]}"
		out=$(cat <&"${PSQL[0]}")
		wait "$PSQL_PID" || true
		if [[ "$out" == *"ERROR:  40001"* ]]; then
			echo "$t: a DELETE committed after Java compacted its data file fails with 40001"
		else
			echo "FAIL $t: a DELETE committed after Java compacted its data file: $out"; fail=1
		fi
	else
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" adv "$t" "$wh/compact.jsonl" >/dev/null
	fi
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" adv "$t" | norm > "$wh/$t.java_compacted"
	check "$t: Java 1.4.2 compacted our table" "$wh/$t.heap" "$wh/$t.java_compacted"
	sql_rows "$t" "$cols" > "$wh/$t.sql_compacted"
	check "$t: the extension reads Java's compaction" "$wh/$t.heap" "$wh/$t.sql_compacted"
done
# our compaction of the bucket-unaware partitions, after DELETEs on Java's compacted files
t=events
for target in "$srv.events" "$srv.h_events"; do
	psql_q -c "DELETE FROM $target WHERE id % 3 = 2" -c "DELETE FROM $target WHERE id IN (1, 2, 299, 300)"
done
psql_q -c "SELECT * FROM paimon_compact('$srv.events')" >/dev/null
[ "$(latest_kind events)" = COMPACT ] || { echo "FAIL $t: our paimon_compact committed no COMPACT snapshot"; fail=1; }
if psql -X -At -c "EXPLAIN SELECT * FROM $srv.events" | grep -q "Deletion Vectors"; then
	echo "FAIL $t: deletion vectors left after our paimon_compact"; fail=1
else
	echo "$t: no deletion vector left after our paimon_compact"
fi
sql_rows h_events "$cols_events" > "$wh/$t.heap2"
sql_rows events "$cols_events" > "$wh/$t.sql_ours_compacted"
check "$t: the extension reads our compaction" "$wh/$t.heap2" "$wh/$t.sql_ours_compacted"
for v in 1.3.1 1.4.2; do
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" adv "$t" | norm > "$wh/$t.java_ours_compacted_$v"
	check "$t: Java $v reads our compaction" "$wh/$t.heap2" "$wh/$t.java_ours_compacted_$v"
done
# a DELETE on our compacted files, then Java compacts again
for target in "$srv.events" "$srv.h_events"; do
	psql_q -c "DELETE FROM $target WHERE id % 4 = 1"
done
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" adv "$t" "$wh/compact.jsonl" >/dev/null
[ "$(latest_kind events)" = COMPACT ] || { echo "FAIL $t: Java compacted nothing of ours"; fail=1; }
sql_rows h_events "$cols_events" > "$wh/$t.heap3"
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" adv "$t" | norm > "$wh/$t.java_recompacted"
check "$t: Java 1.4.2 compacted our compaction" "$wh/$t.heap3" "$wh/$t.java_recompacted"
sql_rows events "$cols_events" > "$wh/$t.sql_recompacted"
check "$t: the extension reads Java's compaction of ours" "$wh/$t.heap3" "$wh/$t.sql_recompacted"
# which files a compaction leaves: ours and Java's of a copy of the table
t=logs
for target in "$srv.logs" "$srv.h_logs"; do
	psql_q -c "DELETE FROM $target WHERE id % 10 = 0" \
		-c "DELETE FROM $target WHERE id < 1000 AND id % 10 BETWEEN 1 AND 5"
done
cp -a "$wh/adv.db/logs" "$wh/adv.db/logs_java"
live_files() {	# file name and whether it has a DV, of the files in $2 (a files listing)
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" files "$wh" adv "$1" | python3 -c '
import json, sys
before = {f["file_name"] for f in json.load(open(sys.argv[1]))} if len(sys.argv) > 1 else None
files = json.load(sys.stdin)
print(len(files), "files")
for f in sorted(files, key=lambda f: f["file_name"]):
    if before is None or f["file_name"] in before:
        print(f["file_name"], f["has_deletion_vector"])' ${2:+"$2"}
}
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" files "$wh" adv logs > "$wh/logs.files_before"
psql_q -c "SELECT * FROM paimon_compact('$srv.logs')" >/dev/null
ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" adv logs_java "$wh/compact.jsonl" >/dev/null
live_files logs "$wh/logs.files_before" > "$wh/logs.left_ours"
live_files logs_java "$wh/logs.files_before" > "$wh/logs.left_java"
if cmp -s "$wh/logs.left_ours" "$wh/logs.left_java" && grep -q True "$wh/logs.left_ours" &&
	[ "$(latest_kind logs)" = COMPACT ]; then
	echo "$t: our compaction leaves the files Java's does: $(head -1 "$wh/logs.left_ours"), $(grep -c True "$wh/logs.left_ours") not rewritten with a DV"
else
	echo "FAIL $t: our compaction and Java's leave different files"; diff "$wh/logs.left_java" "$wh/logs.left_ours" | head -8; fail=1
fi
sql_rows h_logs "id, pad" > "$wh/$t.heap"
sql_rows logs "id, pad" > "$wh/$t.sql_ours_compacted"
check "$t: the extension reads our compaction" "$wh/$t.heap" "$wh/$t.sql_ours_compacted"
for v in 1.3.1 1.4.2; do
	ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" adv "$t" | norm > "$wh/$t.java_ours_compacted_$v"
	check "$t: Java $v reads our compaction" "$wh/$t.heap" "$wh/$t.java_ours_compacted_$v"
done
# index-file-in-data-file-dir (events, orders): every DV index file, ours and
# Java's, in a bucket directory, none in <table>/index; the others in index/
for t in events orders logs; do
	in_index=$(find "$wh/adv.db/$t" -path "$wh/adv.db/$t/index/index-*" | wc -l)
	in_buckets=$(find "$wh/adv.db/$t" -path '*/bucket-*/index-*' | wc -l)
	if { [ $t = logs ] && [ "$in_index" -gt 0 ] && [ "$in_buckets" -eq 0 ]; } ||
		{ [ $t != logs ] && [ "$in_index" -eq 0 ] && [ "$in_buckets" -gt 0 ]; }; then
		echo "$t: $in_buckets index files in bucket directories, $in_index in index/"
	else
		echo "FAIL $t: $in_buckets index files in bucket directories, $in_index in index/"; fail=1
	fi
done
psql_q -c "DROP SERVER $srv CASCADE; DROP SCHEMA $srv CASCADE;" 2>/dev/null || true
exit $fail
