#!/usr/bin/env bash
# write_dv_check.sh [warehouse]
#   Deletion-vector and first-row primary-key tables (whose batch reads skip
#   level 0) written by the core (pk_write.c applies an ops.jsonl with the
#   core's writer, which compacts at commit as Java's writer does) against
#   Java 1.4.2 writing the same ops into a table of the same schema:
#   deduplicate with DVs (+I/-U/+U/-D over four commits), sequence.field
#   (also descending),
#   partial-update and aggregation with DVs, a partitioned table (also with
#   index-file-in-data-file-dir and data-file.path-directory), 64-bit
#   DVs, enough commits for the universal picking rules, first-row (with
#   and without ignore-delete) (all by default, about a minute;
#   DV_CHECK_TABLES picks some). For each:
#   - the levels after the last commit match Java's (pk_write --levels:
#     per bucket, each file's level, row count, sequence range, file source
#     and the positions its deletion vector marks), and the directories
#     holding the index files are Java's;
#   - Java 1.3.1 and 1.4.2 read our table (batch read: level 0 skipped) as
#     Java's own, row for row;
#   - Java 1.4.2 writes one more commit into our table and compacts it, and
#     we read it (pk_write --read) as Java does.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse write_dv "${1:-}"
check_tool "$here/pk_write.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import saver
wh = sys.argv[1]
rnd = random.Random(11)
save = saver(wh)

cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
        {"name": "v", "type": "BIGINT"}, {"name": "ok", "type": "BOOLEAN"}]
def dedup_ops():
    ops = []
    for i in rnd.sample(range(300), 300):
        ops.append({"op": "+I", "row": [i, None if i % 7 == 0 else "name %d" % i, i * 10, i % 2 == 0]})
    for i in range(0, 300, 5):   # same key twice in one commit: the later wins
        ops.append({"op": "+I", "row": [i, "again %d" % i, -i, None]})
    ops.append({"op": "commit"})
    for i in range(0, 300, 3):
        ops.append({"op": "-U", "row": [i, None, None, None]})
        ops.append({"op": "+U", "row": [i, "upd %d" % i, i * 100, True]})
    for i in range(1, 300, 11):
        ops.append({"op": "-D", "row": [i, None, None, None]})
    ops.append({"op": "commit"})
    for i in range(1, 100, 11):
        ops.append({"op": "+I", "row": [i, "back %d" % i, 7, False]})
    for i in range(300, 340):
        ops.append({"op": "+I", "row": [i, "new %d" % i, i, None]})
    ops.append({"op": "commit"})
    ops.append({"op": "-D", "row": [1000, None, None, None]})   # a key never written
    ops.append({"op": "+I", "row": [2, "last", 2, True]})
    ops.append({"op": "commit"})
    return ops
more = [{"op": "+I", "row": [i, "java %d" % i, i, True]} for i in range(0, 400, 7)]
more += [{"op": "-D", "row": [i, None, None, None]} for i in range(5, 300, 13)]
more += [{"op": "commit"}, {"op": "compact"}]
save("dv_dedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                  "options": {"bucket": "2", "deletion-vectors.enabled": "true"}}, dedup_ops(), more)
save("dv_bitmap64", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                     "options": {"bucket": "1", "deletion-vectors.enabled": "true",
                                 "deletion-vectors.bitmap64": "true"}}, dedup_ops(), more)

# sequence.field with DVs: the largest ts wins (the older row's value is looked up)
scols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "ts", "type": "BIGINT"},
         {"name": "v", "type": "STRING"}]
ops = []
for c in range(3):
    for i in range(200):
        ts = rnd.randrange(50)
        ops.append({"op": "+I", "row": [i % 80, ts, "v%d-%d-%d" % (c, i, ts)]})
    ops.append({"op": "commit"})
smore = [{"op": "+I", "row": [i, 25, "java %d" % i]} for i in range(0, 100, 3)] + \
    [{"op": "commit"}, {"op": "compact"}]
save("dv_seqf", {"columns": scols, "primary_keys": ["id"], "partition_keys": [],
                 "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                             "sequence.field": "ts"}}, ops, smore)
# descending: the smallest ts wins across files (the lookup of older levels), the largest
# within one commit's write buffer (Java's buffer sorts it ascending); some ts NULL
ops = []
for c in range(3):
    for i in range(200):
        ts = None if rnd.randrange(8) == 0 else rnd.randrange(50)
        ops.append({"op": "+I", "row": [i % 80, ts, "v%d-%d-%s" % (c, i, ts)]})
    ops.append({"op": "commit"})
save("dv_seqf_desc", {"columns": scols, "primary_keys": ["id"], "partition_keys": [],
                      "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                                  "sequence.field": "ts",
                                  "sequence.field.sort-order": "descending"}}, ops, smore)

# partial-update with DVs: the older row's fields are merged in
ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "b", "type": "BIGINT"}, {"name": "c", "type": "STRING"}]
ops = []
for c in range(3):
    for i in rnd.sample(range(200), 120):
        if rnd.random() < 0.5:
            ops.append({"op": "+I", "row": [i, "a%d-%d" % (i, c), None, None]})
        else:
            ops.append({"op": "+I", "row": [i, None, c * 1000 + i, "c%d" % c]})
    ops.append({"op": "commit"})
umore = [{"op": "+I", "row": [i, None, None, "java"]} for i in range(0, 220, 9)] + \
    [{"op": "commit"}, {"op": "compact"}]
save("dv_partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                    "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                                "merge-engine": "partial-update"}}, ops, umore)

# aggregation with DVs: sums carried over from the older row
acols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "BIGINT"},
         {"name": "m", "type": "BIGINT"}]
ops = []
for c in range(3):
    for i in range(300):
        ops.append({"op": "+I", "row": [i % 90, i + c, rnd.randrange(1000)]})
    ops.append({"op": "commit"})
amore = [{"op": "+I", "row": [i, 1, 5000]} for i in range(0, 100, 4)] + \
    [{"op": "commit"}, {"op": "compact"}]
save("dv_agg", {"columns": acols, "primary_keys": ["id"], "partition_keys": [],
                "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                            "merge-engine": "aggregation", "fields.s.aggregate-function": "sum",
                            "fields.m.aggregate-function": "max"}}, ops, amore)

# partitioned, with DVs
pcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
         {"name": "v", "type": "BIGINT"}]
ops = []
for c in range(3):
    for i in range(240):
        ops.append({"op": "+I", "row": [i % 80, "2026-12-0%d" % (1 + i % 3), c * 1000 + i]})
    ops.append({"op": "-D", "row": [c + 5, "2026-12-01", None]})
    ops.append({"op": "commit"})
pmore = [{"op": "+I", "row": [i, "2026-12-02", -i]} for i in range(0, 80, 3)] + \
    [{"op": "commit"}, {"op": "compact"}]
save("dv_part", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
                 "options": {"bucket": "2", "deletion-vectors.enabled": "true"}}, ops, pmore)

# the same, with the DV index files in the bucket directories (under data/)
save("dv_part_indir", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
                       "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                                   "index-file-in-data-file-dir": "true",
                                   "data-file.path-directory": "data"}}, ops, pmore)

# many small commits: the run count passes num-sorted-run.compaction-trigger
ops = []
for c in range(9):
    for i in range(c * 7, 400, 9 + c):
        ops.append({"op": "+I", "row": [i, "c%d" % c, c * 10000 + i, c % 2 == 0]})
    ops.append({"op": "commit"})
save("dv_many", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                 "options": {"bucket": "1", "deletion-vectors.enabled": "true",
                             "num-sorted-run.compaction-trigger": "3"}}, ops, more)
# the same commits into a dynamic-bucket table (no DVs): compacted at commit
# as a fixed bucket is, per bucket of the hash index
save("dyn_many", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                  "options": {"bucket": "-1", "dynamic-bucket.target-row-num": "150",
                              "num-sorted-run.compaction-trigger": "3"}}, ops, more)

# first-row: a key's first row wins, across commits and within one
ops = []
for c in range(3):
    for i in rnd.sample(range(c * 100, c * 100 + 250), 200):
        ops.append({"op": "+I", "row": [i, "c%d" % c, c * 1000 + i, c == 1]})
    ops.append({"op": "+I", "row": [c * 100 + 1, "dup", -1, None]})
    ops.append({"op": "commit"})
fmore = [{"op": "+I", "row": [i, "java", i, True]} for i in range(0, 600, 11)] + \
    [{"op": "commit"}, {"op": "compact"}]
save("first_row", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                   "options": {"bucket": "2", "merge-engine": "first-row"}}, ops, fmore)
ops2 = [dict(o) for o in ops]
ops2.insert(5, {"op": "-D", "row": [3, None, None, None]})
save("first_row_ignore_delete", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                                 "options": {"bucket": "1", "merge-engine": "first-row",
                                             "ignore-delete": "true"}}, ops2, fmore)
PY

fail=0
# every table by default (all nine in about 65 s here); DV_CHECK_TABLES picks some
all="dv_dedup dv_bitmap64 dv_seqf dv_seqf_desc dv_partial dv_agg dv_part dv_part_indir dv_many dyn_many first_row first_row_ignore_delete"
tables=${DV_CHECK_TABLES:-all}
[ "$tables" != all ] || tables=$all
for t in $tables; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" dv "java_$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" dv "java_$t" "$wh/$t.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" dv "ours_$t" "$wh/$t.json" >/dev/null
	"$wh/pk_write" "$wh/dv.db/ours_$t" "$wh/$t.jsonl" >/dev/null
	"$wh/pk_write" --levels "$wh/dv.db/java_$t" > "$wh/java_$t.levels"
	"$wh/pk_write" --levels "$wh/dv.db/ours_$t" > "$wh/ours_$t.levels"
	# no level-0 file is left where batch reads skip level 0 (DVs, first-row)
	if cmp -s "$wh/java_$t.levels" "$wh/ours_$t.levels" &&
		{ [ "$t" = dyn_many ] || ! grep -q "level 0 " "$wh/ours_$t.levels"; }; then
		echo "$t: our levels and deletion vectors equal Java's ($(wc -l < "$wh/ours_$t.levels") files, $(grep -c -v 'deleted \[\]' "$wh/ours_$t.levels" || true) with DVs)"
	else
		echo "FAIL $t: our levels or deletion vectors differ from Java's"
		diff "$wh/java_$t.levels" "$wh/ours_$t.levels" | head -10; fail=1
	fi
	# where the index files are (index/, or the bucket directories): as Java's
	idx_dirs() { find "$1" -name 'index-*' -not -path '*/manifest/*' | sed -e "s|^$1/||" -e 's|/[^/]*$||' | sort -u | tr '\n' ' '; }
	if [ "$(idx_dirs "$wh/dv.db/ours_$t")" != "$(idx_dirs "$wh/dv.db/java_$t")" ]; then
		echo "FAIL $t: our index files are in $(idx_dirs "$wh/dv.db/ours_$t"), Java's in $(idx_dirs "$wh/dv.db/java_$t")"; fail=1
	fi
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" dv "java_$t" | sort > "$wh/java_$t.rows"
	for v in 1.3.1 1.4.2; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" dv "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		if cmp -s "$wh/java_$t.rows" "$wh/ours_${t}_$v.rows" && [ -s "$wh/ours_${t}_$v.rows" ]; then
			echo "$t: Java $v reads our table as its own right after our commits: $(wc -l < "$wh/ours_${t}_$v.rows") rows"
		else
			echo "FAIL $t: Java $v reads our table differently"
			diff "$wh/java_$t.rows" "$wh/ours_${t}_$v.rows" | head -6; fail=1
		fi
	done
	# Java writes and compacts on top of our table; we read what Java reads
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" dv "ours_$t" "$wh/${t}_more.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" dv "ours_$t" | sort > "$wh/ours_${t}_java_more.rows"
	"$wh/pk_write" --read "$wh/dv.db/ours_$t" | sort > "$wh/ours_${t}_more.rows"
	if cmp -s "$wh/ours_${t}_java_more.rows" "$wh/ours_${t}_more.rows" && [ -s "$wh/ours_${t}_more.rows" ]; then
		echo "$t: after Java wrote and compacted on top, we read what Java reads: $(wc -l < "$wh/ours_${t}_more.rows") rows"
	else
		echo "FAIL $t: after Java wrote and compacted on top, we read other rows than Java"
		diff "$wh/ours_${t}_java_more.rows" "$wh/ours_${t}_more.rows" | head -6; fail=1
	fi
done
exit $fail
