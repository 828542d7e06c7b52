#!/usr/bin/env bash
# compact_check.sh [warehouse]
#   Full compaction by the core (compact_table.c: pm_table_compact, the work
#   of SQL paimon_compact) against Java's full compaction of the same
#   commits: deduplicate (partitioned, -U/+U and -D), partial-update with
#   sequence groups, aggregation, sequence.field. For each table:
#   1. Java writes the ops and compacts (java_<t>); the core writes the same
#      ops (pk_write) and compacts (ours_<t>);
#   2. Java 1.3.1 and 1.4.2 read ours_<t> as java_<t>, row for row, and
#      the files of both (partition, bucket, level, row count, sequence
#      range) are the same: one file per bucket at the max level;
#   3. Java 1.4.2 writes more commits on top of our compacted files and
#      compacts them (both tables); the core writes more and compacts again,
#      reading Java's compacted files; Java reads both tables alike.
#   Table trig: compaction at commit. Nine commits (a large one, then small
#   ones with updates and deletes; the last of each round a little larger so
#   that the size-ratio pick does not hang on a few bytes of Parquet) by
#   Java's batch writer and by the core's writer, each compacting at commit
#   as Java's MergeTreeWriter does: the fifth commit compacts everything
#   into level 5 (no level below the output but 0), the ninth only its four
#   level-0 files into level 4 (deletes kept there: level 5 stays below);
#   the same rows and files (level, rows, sequence range) on both sides,
#   then step 2 as above.
#   Tables app (bucket -1, two partitions) and appb (2 fixed buckets):
#   append-table compaction. Java writes the same commits into both tables,
#   Java's compaction (AppendCompactCoordinator / full bucket compaction)
#   compacts java_<t> and ours (compact_table) ours_<t>: the same rows and
#   files; then step 2 as above.
#   Table appc: append-table compaction at commit (1 fixed bucket, a bloom
#   filter file index). Seven commits by Java's batch writer and by the
#   core's writer: the fifth compacts the bucket's five files into one
#   (BucketedAppendCompactManager.pickCompactBefore), a COMPACT snapshot
#   after the APPEND one; the same rows and files on both sides, the file
#   metas equal (pk_write --compare: stats, file index), then step 2.
#   Tables dv (deletion vectors, partitioned, -U/+U and -D), dvagg
#   (aggregation with deletion vectors), first (first-row, ignore-delete)
#   and dyn (bucket -1): written with the compaction at commit of each
#   side (lookup compaction for dv, dvagg, first), then fully compacted
#   (ours: lsm/lookup_compact.c pm_lookup_compact_full, and for dyn per
#   dynamic bucket); steps 2 and 3 as above. About 30 s each. Table
#   dyndv (bucket -1 with deletion vectors, which our writer refuses):
#   Java writes both tables, each side compacts its own; then step 2.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse compact "${1:-}"
check_tool "$root/test/oracle/write/pk_write.c"
check_tool "$here/compact_table.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import SEQ_COLUMNS, phase_saver, seq_field_ops
wh = sys.argv[1]
rnd = random.Random(81)
save = phase_saver(wh)

# deduplicate, partitioned, updates and deletes
cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
        {"name": "name", "type": "STRING"}, {"name": "v", "type": "BIGINT"},
        {"name": "d", "type": "DOUBLE"}, {"name": "ok", "type": "BOOLEAN"}]
def dedup_ops(base, commits):
    ops = []
    for c in range(commits):
        for i in rnd.sample(range(300), 200):
            dt = "2026-12-0%d" % (1 + i % 2)
            ops.append({"op": "+I", "row": [i, dt, None if i % 7 == 0 else "n%d-%d" % (i, base + c),
                                            i * 10 + c, i / 3.0, i % 2 == 0]})
        for i in range(c, 300, 13):
            ops.append({"op": "-D", "row": [i, "2026-12-0%d" % (1 + i % 2), None, None, None, None]})
        for i in range(c + 1, 300, 11):
            ops.append({"op": "-U", "row": [i, "2026-12-0%d" % (1 + i % 2), None, None, None, None]})
            ops.append({"op": "+U", "row": [i, "2026-12-0%d" % (1 + i % 2), "u%d" % i, -i, 0.5, True]})
        ops.append({"op": "commit"})
    return ops
save("dedup", {"columns": cols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
               "options": {"bucket": "2"}},
     [dedup_ops(0, 3), dedup_ops(10, 2), dedup_ops(20, 2)])

# partial-update with two sequence groups
ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "a_seq", "type": "BIGINT"}, {"name": "b", "type": "BIGINT"},
         {"name": "b_seq", "type": "BIGINT"}, {"name": "c", "type": "STRING"}]
def pu_ops(base, commits):
    ops = []
    for c in range(commits):
        for i in rnd.sample(range(200), 150):
            s = rnd.randrange(1000)
            if rnd.random() < 0.5:
                ops.append({"op": "+I", "row": [i, "a%d-%d" % (i, s), s, None, None, None]})
            else:
                ops.append({"op": "+I", "row": [i, None, None, s * 2, s, "c%d" % (base + c)]})
        ops.append({"op": "commit"})
    return ops
save("partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                 "options": {"bucket": "2", "merge-engine": "partial-update",
                             "fields.a_seq.sequence-group": "a",
                             "fields.b_seq.sequence-group": "b"}},
     [pu_ops(0, 3), pu_ops(10, 2), pu_ops(20, 2)])

# aggregation: sum and max
acols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "BIGINT"},
         {"name": "m", "type": "DOUBLE"}, {"name": "last", "type": "STRING"}]
def agg_ops(base, commits):
    ops = []
    for c in range(commits):
        for i in range(400):
            ops.append({"op": "+I", "row": [i % 120, i + base + c, None if i % 9 == 0 else rnd.random() * 100,
                                            None if i % 4 == 0 else "l%d" % i]})
        ops.append({"op": "commit"})
    return ops
save("agg", {"columns": acols, "primary_keys": ["id"], "partition_keys": [],
             "options": {"bucket": "3", "merge-engine": "aggregation",
                         "fields.s.aggregate-function": "sum",
                         "fields.m.aggregate-function": "max"}},
     [agg_ops(0, 3), agg_ops(10, 2), agg_ops(20, 2)])

# sequence.field: the largest ts wins whatever the order of writing
scols = SEQ_COLUMNS
def seq_ops(base, commits):
    return seq_field_ops(rnd, base, commits)
save("seqf", {"columns": scols, "primary_keys": ["id"], "partition_keys": [],
              "options": {"bucket": "2", "sequence.field": "ts"}},
     [seq_ops(0, 2), seq_ops(10, 2), seq_ops(20, 2)])
# compaction at commit: 1 large commit, then rounds of small ones
tcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
         {"name": "v", "type": "BIGINT"}]
def trig_ops(base, sizes):
    ops = []
    nxt = [5000 + base * 1000]
    for c, n in enumerate(sizes):
        if n >= 1000:
            for i in range(n):
                ops.append({"op": "+I", "row": [i, "big%d" % i, i]})
        else:
            for j in range(n):
                r = rnd.random()
                if r < 0.5:
                    i = rnd.randrange(5000)
                    ops.append({"op": "+I", "row": [i, "u%d-%d" % (base, c), c]})
                elif r < 0.9:
                    nxt[0] += 1
                    ops.append({"op": "+I", "row": [nxt[0], "n%d" % c, -c]})
                else:
                    ops.append({"op": "-D", "row": [rnd.randrange(5000), None, None]})
        ops.append({"op": "commit"})
    return ops
save("trig", {"columns": tcols, "primary_keys": ["id"], "partition_keys": [],
              "options": {"bucket": "1"}},
     [trig_ops(0, [5000, 50, 50, 50, 100, 50, 50, 50, 100]), trig_ops(1, [60, 60]),
      trig_ops(2, [60, 60])])
# append tables: 6 commits into 2 partitions (bucket -1), 4 into 2 buckets
acols2 = [{"name": "dt", "type": "STRING"}, {"name": "id", "type": "INT"},
          {"name": "s", "type": "STRING"}, {"name": "d", "type": "DOUBLE"}]
def app_ops(base, commits, rows):
    ops = []
    for c in range(commits):
        for i in range(rows):
            k = base * 100000 + c * 1000 + i
            ops.append({"op": "+I", "row": ["2026-12-0%d" % (1 + i % 2), k,
                                            None if i % 11 == 0 else "s%d" % rnd.randrange(10 ** 6),
                                            rnd.random()]})
        ops.append({"op": "commit"})
    return ops
save("app", {"columns": acols2, "primary_keys": [], "partition_keys": ["dt"], "options": {}},
     [app_ops(0, 6, 120), app_ops(1, 2, 50), []])
save("appb", {"columns": acols2, "primary_keys": [], "partition_keys": [],
              "options": {"bucket": "2", "bucket-key": "id"}},
     [app_ops(0, 4, 150), app_ops(1, 2, 50), []])
save("appc", {"columns": acols2, "primary_keys": [], "partition_keys": [],
              "options": {"bucket": "1", "bucket-key": "id",
                          "file-index.bloom-filter.columns": "s"}},
     [app_ops(2, 7, 80), app_ops(3, 2, 50), []])
# deletion vectors (compacted by lookup at commit, then fully), partitioned, deletes
save("dv", {"columns": cols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
            "options": {"bucket": "2", "deletion-vectors.enabled": "true"}},
     [dedup_ops(30, 3), dedup_ops(40, 2), dedup_ops(50, 2)])
# deletion vectors with aggregation (the DVs mark the older rows merged)
save("dvagg", {"columns": acols, "primary_keys": ["id"], "partition_keys": [],
               "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                           "merge-engine": "aggregation", "fields.s.aggregate-function": "sum",
                           "fields.m.aggregate-function": "max"}},
     [agg_ops(30, 3), agg_ops(40, 2), agg_ops(50, 2)])
# first-row: the first value of a key stays; deletes ignored (ignore-delete)
def first_ops(base, commits):
    ops = []
    for c in range(commits):
        for i in rnd.sample(range(300), 150):
            ops.append({"op": "+I", "row": [i, "f%d-%d" % (base + c, i), i * c]})
        for i in range(c, 300, 17):
            ops.append({"op": "-D", "row": [i, None, None]})
        ops.append({"op": "commit"})
    return ops
save("first", {"columns": tcols, "primary_keys": ["id"], "partition_keys": [],
               "options": {"bucket": "2", "merge-engine": "first-row", "ignore-delete": "true"}},
     [first_ops(0, 3), first_ops(10, 2), first_ops(20, 2)])
# dynamic buckets (bucket -1, a small target so that keys spread over buckets)
save("dyn", {"columns": cols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
             "options": {"bucket": "-1", "dynamic-bucket.target-row-num": "60"}},
     [dedup_ops(60, 3), dedup_ops(70, 2), dedup_ops(80, 2)])
# dynamic buckets with deletion vectors: Java writes both tables (our writer
# takes deletion vectors with fixed buckets only), we compact ours
save("dyndv", {"columns": cols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
               "options": {"bucket": "-1", "dynamic-bucket.target-row-num": "60",
                           "deletion-vectors.enabled": "true"}},
     [dedup_ops(90, 3), dedup_ops(100, 2), []])
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
PY

db=cpt
# shellcheck source=java_twin.sh
. "$here/java_twin.sh"

fail=0
for t in ${COMPACT_CHECK_TABLES:-dedup partial agg seqf trig app appb appc dv dvagg first dyn dyndv}; do
	for side in java ours; do
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" cpt "${side}_$t" "$wh/$t.json" >/dev/null
	done
	tdir="$wh/cpt.db/ours_$t"
	# 1. the same commits, then a full compaction by each
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" cpt "java_$t" "$wh/$t.0.jsonl" >/dev/null
	case $t in
	app | appb | dyndv) ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" cpt "ours_$t" "$wh/$t.0.jsonl" >/dev/null ;;
	*) "$wh/pk_write" "$tdir" "$wh/$t.0.jsonl" >/dev/null ;;
	esac
	if [ "$t" = trig ] || [ "$t" = appc ]; then
		same "$t" "after compaction at commit" 1.3.1 1.4.2
		kinds=$(cd "$tdir/snapshot" && for f in $(ls snapshot-* | sort -t- -k2 -n); do
			python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["commitKind"][0], end="")' "$f"; done)
		if [ "$t" = appc ]; then
			if "$wh/pk_write" --compare "$wh/cpt.db/java_$t" "$tdir"; then
				echo "$t: file metas equal to Java's"
			else
				echo "FAIL $t: file metas differ"; fail=1
			fi
		fi
		if [ "$t" = trig ] && [ "$kinds" = AAAAACAAAAC ]; then
			echo "$t: our snapshots: $kinds (APPEND, COMPACT at commits 5 and 9)"
		elif [ "$t" = appc ] && [ "$kinds" = AAAAACAA ]; then
			echo "$t: our snapshots: $kinds (APPEND, COMPACT at commit 5)"
		else
			echo "FAIL $t: our snapshots: $kinds"; fail=1
		fi
	else
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" cpt "java_$t" "$wh/compact.jsonl" >/dev/null
		"$wh/compact_table" "$tdir" >/dev/null
		same "$t" "after our compaction" 1.3.1 1.4.2
	fi
	# 2. Java writes on top of our compacted files and compacts them
	for side in java ours; do
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" cpt "${side}_$t" "$wh/$t.1.jsonl" >/dev/null
		ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" cpt "${side}_$t" "$wh/compact.jsonl" >/dev/null
	done
	same "$t" "after Java's compaction of ours" 1.4.2
	case $t in trig | app* | dyndv) continue ;; esac
	# 3. we write on top of Java's compacted files and compact them
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" cpt "java_$t" "$wh/$t.2.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" cpt "java_$t" "$wh/compact.jsonl" >/dev/null
	"$wh/pk_write" "$tdir" "$wh/$t.2.jsonl" >/dev/null
	"$wh/compact_table" "$tdir" >/dev/null
	same "$t" "after our compaction of Java's" 1.3.1 1.4.2
done
[ "$fail" = 0 ] && echo "compact_check: OK" || { echo "compact_check: FAILED"; exit 1; }
