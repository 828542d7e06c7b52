#!/usr/bin/env bash
# record_expire_check.sh [warehouse]
#   Record-level expiry (record-level.expire-time / record-level.time-field,
#   lsm/record_expire.c) against Java's RecordLevelExpire. Times are far in
#   the past (1970..2001) or the future (2100..), so the clock never decides.
#   For each table, two copies (java_<t>, ours_<t>) get the same commits:
#   TIMESTAMP(3) and TIMESTAMP_LTZ(6) tables written by Java 1.4.2 into both
#   copies (the core's pk_write has no timestamps); INT, BIGINT (seconds and
#   milliseconds) and aggregation (last_non_null_value, a retract that
#   leaves a NULL time) tables written by Java into java_<t> and by the
#   core's writer (pk_write) into ours_<t>. Rows of old, new and NULL times;
#   updates of old keys by new times and of new keys by old times (Java
#   drops an expired record before merging, so the older record shows
#   again). Then:
#   1. Java's full compaction of java_<t> (the JVM in another time zone for
#      the timestamp tables: the expiry does not depend on it), ours
#      (compact_table: pm_table_compact, paimon_compact's work) of ours_<t>;
#      Java 1.3.1 and 1.4.2 read both alike, row for row, the same files
#      (level, rows, sequence range), and some records were dropped.
#   Tables dv (deletion vectors) and fr (first-row): Java's batch writer
#   and the core's (pk_write) each run the lookup compaction at every
#   commit; Java 1.3.1 and 1.4.2 read both alike, the same files, and no
#   expired record is read. Table dvlate (deletion vectors): old records
#   reach the max level under an expire time nothing reaches, Java lowers
#   it to 1 d on both copies, then new records for half the keys: the
#   lookup does not find the expired older records (so they stay visible
#   beside the new ones, as in Java), old new records are dropped.
#   2. Table late: written and compacted with an expire time nothing reaches
#      (every file at the max level), then Java's ALTER TABLE sets 1 d on
#      both copies and each side compacts again: only the files whose
#      minimum time expired are rewritten (CompactStrategy
#      .pickFullCompaction), the same rows and files on both sides.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse rexp "${1:-}"
check_tool "$root/test/oracle/write/pk_write.c"
check_tool "$here/compact_table.c"

python3 - "$wh" <<'PY'
import json, random, sys
wh = sys.argv[1]
rnd = random.Random(88)
def save(name, table, phases):
    json.dump(table, open("%s/%s.json" % (wh, name), "w"))
    for p, ops in enumerate(phases):
        with open("%s/%s.%d.jsonl" % (wh, name, p), "w") as out:
            for op in ops:
                out.write(json.dumps(op) + "\n")

OLD_TS = ["1970-01-01T00:00:01", "1999-12-31T23:59:59.999", "1969-12-31T23:59:59.500",
          "2001-09-09T01:46:40"]
NEW_TS = ["2100-01-01T00:00:00", "2101-06-30T12:34:56.789", "2099-12-31T23:59:59.999"]
OLD_S, NEW_S = [0, 1000, -100, 999999999], [4102444800, 2000000000, 2147483647]
OLD_MS, NEW_MS = [1000000000000, 999999999999 * 0 + 1000000001999], [4102444800000, 7258118400000]

def times(kind, suffix=""):
    """(old, new) value lists of a time column of kind"""
    if kind == "ts":
        return OLD_TS, NEW_TS
    if kind == "ltz":
        return [t + "Z" for t in OLD_TS], [t + "Z" for t in NEW_TS]
    if kind == "int":
        return OLD_S, NEW_S[1:]
    return OLD_S + OLD_MS, NEW_S + NEW_MS   # big: seconds and milliseconds

def pk_ops(kind, commits, base, nkeys=400, per=250):
    old, new = times(kind)
    ops = []
    for c in range(commits):
        for i in rnd.sample(range(nkeys), per):
            r = rnd.random()
            t = None if r < 0.1 else (rnd.choice(old) if r < 0.55 else rnd.choice(new))
            ops.append({"op": "+I", "row": [i, t, "v%d-%d" % (i, base + c)]})
        for i in range(c, nkeys, 17):
            ops.append({"op": "-D", "row": [i, None, None]})
        ops.append({"op": "commit"})
    return ops

for kind, ttype in (("ts", "TIMESTAMP(3)"), ("ltz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
                    ("int", "INT"), ("big", "BIGINT")):
    save(kind, {"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "t", "type": ttype},
                            {"name": "v", "type": "STRING"}],
                "primary_keys": ["id"], "partition_keys": [],
                "options": {"bucket": "2", "record-level.expire-time": "1 d",
                            "record-level.time-field": "t"}},
         [pk_ops(kind, 4, 0)])

# aggregation (Java's RecordLevelExpireWithAggregationTest): last_non_null_value, the
# time field ignores retracts, so a retract leaves a record whose time is NULL
aggops = []
for c in range(3):
    for i in rnd.sample(range(200), 150):
        r = rnd.random()
        t = OLD_S[i % 4] if r < 0.5 else NEW_S[i % 3]
        aggops.append({"op": "+I", "row": [i, t, i + c]})
    for i in range(c, 200, 23):
        aggops.append({"op": "-U", "row": [i, 1, 5]})
        aggops.append({"op": "-D", "row": [i, 1, 5]})
    aggops.append({"op": "commit"})
save("agg", {"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "t", "type": "INT"},
                         {"name": "s", "type": "BIGINT"}],
             "primary_keys": ["id"], "partition_keys": [],
             "options": {"bucket": "1", "merge-engine": "aggregation",
                         "fields.default-aggregate-function": "last_non_null_value",
                         "fields.t.ignore-retract": "true", "fields.s.aggregate-function": "sum",
                         "fields.s.ignore-retract": "true",
                         "record-level.expire-time": "1 d", "record-level.time-field": "t"}},
     [aggops])

# late: files at the max level first; then the expire time is lowered
lateops = []
for c in range(4):   # all old; new but a few; all old; all new (left alone)
    for i in range(c * 300, c * 300 + 300):
        t = NEW_S[i % 3] if c == 3 or (c == 1 and i % 50 != 0) else OLD_S[i % 4]
        lateops.append({"op": "+I", "row": [i, t, "l%d" % i]})
    lateops.append({"op": "commit"})
save("late", {"columns": [{"name": "id", "type": "INT NOT NULL"}, {"name": "t", "type": "BIGINT"},
                          {"name": "v", "type": "STRING"}],
              "primary_keys": ["id"], "partition_keys": [],
              "options": {"bucket": "1", "record-level.expire-time": "36500000 d",
                          "record-level.time-field": "t", "target-file-size": "1 b"}},
     [lateops])
# deletion vectors and first-row: the lookup compaction at commit (Java's batch writer
# and the core's writer, pk_write, each compacting at every commit)
bigcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "t", "type": "BIGINT"},
           {"name": "v", "type": "STRING"}]
for name, extra in (("dv", {"deletion-vectors.enabled": "true"}),
                    ("fr", {"merge-engine": "first-row"})):
    save(name, {"columns": bigcols, "primary_keys": ["id"], "partition_keys": [],
                "options": dict({"bucket": "2", "record-level.expire-time": "1 d",
                                 "record-level.time-field": "t"}, **extra)},
         [pk_ops("big", 4, 10, per=150) if name == "dv" else
          [op for op in pk_ops("big", 4, 10, per=150) if op["op"] != "-D"]])
# dvlate: old records reach the max level under an expire time nothing reaches; once
# it is 1 d, new records for their keys do not find them (the lookup skips expired
# records), and old records are dropped
dvl0, dvl1 = [], []
for i in range(300):
    dvl0.append({"op": "+I", "row": [i, OLD_S[i % 4] if i % 3 else NEW_S[0], "a%d" % i]})
dvl0.append({"op": "commit"})
for i in range(0, 300, 2):
    dvl1.append({"op": "+I", "row": [i, NEW_S[1] if i % 4 else OLD_S[1], "b%d" % i]})
dvl1.append({"op": "commit"})
save("dvlate", {"columns": bigcols, "primary_keys": ["id"], "partition_keys": [],
                "options": {"bucket": "1", "deletion-vectors.enabled": "true",
                            "record-level.expire-time": "36500000 d",
                            "record-level.time-field": "t"}},
     [dvl0, dvl1])
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
with open(wh + "/lower.jsonl", "w") as out:
    out.write(json.dumps({"op": "alter", "changes": [{"set": "record-level.expire-time",
                                                     "value": "1 d"}]}) + "\n")
PY

db=rx
# shellcheck source=java_twin.sh
. "$here/java_twin.sh"

# rows read before a compaction, to show that records were dropped
count() { ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" rx "$1" | wc -l; }

# no record read holds a time before 2002 (every expired record was dropped)
no_old() {
	if python3 -c '
import json, sys
sys.exit(any(r[1] is not None and r[1] < 1040000000000 and (r[1] < 1040000000 or r[1] >= 10 ** 12)
             for r in map(json.loads, open(sys.argv[1]))))' "$wh/ours_$1.rows"; then
		echo "$1: no expired record read"
	else
		echo "FAIL $1: expired records read"; fail=1
	fi
}

fail=0
for t in ${RECORD_EXPIRE_TABLES:-ts ltz int big agg late dv fr dvlate}; do
	for side in java ours; do
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" rx "${side}_$t" "$wh/$t.json" >/dev/null
	done
	tdir="$wh/rx.db/ours_$t"
	case $t in
	dv | fr | dvlate)
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "java_$t" "$wh/$t.0.jsonl" >/dev/null
		"$wh/pk_write" "$tdir" "$wh/$t.0.jsonl" >/dev/null
		if [ "$t" = dvlate ]; then
			same "$t" "before the expire time was lowered" 1.4.2
			for side in java ours; do
				ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "${side}_$t" "$wh/lower.jsonl" >/dev/null
			done
			ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "java_$t" "$wh/$t.1.jsonl" >/dev/null
			"$wh/pk_write" "$tdir" "$wh/$t.1.jsonl" >/dev/null
		fi
		same "$t" "after the lookup compactions at commit" 1.3.1 1.4.2
		[ "$t" = dvlate ] || no_old "$t"
		continue
		;;
	esac
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "java_$t" "$wh/$t.0.jsonl" >/dev/null
	case $t in
	ts | ltz) ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "ours_$t" "$wh/$t.0.jsonl" >/dev/null ;;
	*) "$wh/pk_write" "$tdir" "$wh/$t.0.jsonl" >/dev/null ;;
	esac
	before=$(count "java_$t")
	case $t in
	ts) tz=America/Los_Angeles ;;
	ltz) tz=Asia/Shanghai ;;
	*) tz= ;;
	esac
	ORACLE_TZ=$tz ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "java_$t" "$wh/compact.jsonl" >/dev/null
	"$wh/compact_table" "$tdir" >/dev/null
	same "$t" "after compaction" 1.3.1 1.4.2
	after=$(wc -l < "$wh/ours_$t.rows")
	if [ "$t" = late ]; then
		[ "$after" = "$before" ] || { echo "FAIL late: records dropped before the expire time was lowered"; fail=1; }
		for side in java ours; do
			ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "${side}_$t" "$wh/lower.jsonl" >/dev/null
		done
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" rx "java_$t" "$wh/compact.jsonl" >/dev/null
		"$wh/compact_table" "$tdir" >/dev/null
		same "$t" "after the expire time was lowered" 1.3.1 1.4.2
		after=$(wc -l < "$wh/ours_$t.rows")
	fi
	if [ "$after" -lt "$before" ]; then
		echo "$t: $before rows before, $after after: expired records dropped"
	else
		echo "FAIL $t: $before rows before, $after after: nothing expired"; fail=1
	fi
done
[ "$fail" = 0 ] && echo "record_expire_check: OK" || { echo "record_expire_check: FAILED"; exit 1; }
