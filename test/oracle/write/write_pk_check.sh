#!/usr/bin/env bash
# write_pk_check.sh [warehouse]
#   Primary-key tables written by the core (pk_write.c applies an ops.jsonl
#   with the core's writer) against Java writing the same ops into a table of
#   the same schema: deduplicate (+I/-U/+U/-D over three commits, Parquet and
#   Avro, partitioned, per-level format, compression and stats mode, compression suffixes
#   in file names), partial-update with sequence groups, aggregation
#   (sum, max; sum and last_non_null_value with -U/+U and -D),
#   partial-update with remove-record-on-delete, ignore-delete, sequence.field
#   of one and of two fields, sequence.field.sort-order = descending, a composite key with a string part and a
#   bucket-key, a write buffer filling up within a commit (*_nometa: file
#   metas not compared), and spilling to local files (one sorted run per
#   commit, metas as Java's), thin-mode files (*_thin*: no _KEY_ columns),
#   rowkind.field (rowkind*: each row's kind from a column; deduplicate,
#   ignore-delete, aggregation, and an append table with ignore-delete),
#   manifest.format = parquet / orc with deletion vectors (dv_mfparquet, dv_mforc:
#   every manifest, manifest list and index manifest of both tables is Parquet / ORC)
#   (PK_CHECK_TABLES picks some; dedup_orc and
#   agg_orc, ORC files, only when named there: write_orc_check.sh). For each:
#   - our level-0 file metas equal Java's for the same commits (pk_write
#     --compare: row count, sequence range, min/max key, key and value stats,
#     delete row count, level, and the dedup tables' file indexes of the
#     value columns, embedded or sidecar), byte for byte;
#   - we read Java's table as Java 1.4.2 does (pk_write --read);
#   - Java 1.3.1 and 1.4.2 read our table as Java's own, row for row;
#   - Java 1.4.2's full compaction of our table reads the same rows again.
# Needs the oracle (test/oracle/oracle.sh) and the unit build of libpaimon.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../check_prologue.sh"
check_warehouse write_pk "${1:-}"
check_tool "$here/pk_write.c"

PYTHONPATH="$root/test/oracle${PYTHONPATH:+:$PYTHONPATH}" python3 - "$wh" <<'PY'
import json, random, sys
from check_ops import saver
wh = sys.argv[1]
rnd = random.Random(8)
save = saver(wh)

# deduplicate: inserts, updates as -U/+U pairs, deletes, re-inserts
cols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "name", "type": "STRING"},
        {"name": "v", "type": "BIGINT"}, {"name": "d", "type": "DOUBLE"}, {"name": "ok", "type": "BOOLEAN"}]
ops = []
for i in rnd.sample(range(400), 400):
    ops.append({"op": "+I", "row": [i, None if i % 7 == 0 else "name %d" % i, i * 10, i / 3.0, i % 2 == 0]})
for i in range(0, 400, 5):   # same key twice in one commit: the later wins
    ops.append({"op": "+I", "row": [i, "again %d" % i, -i, None, None]})
ops.append({"op": "commit"})
for i in range(0, 400, 3):
    ops.append({"op": "-U", "row": [i, None, None, None, None]})
    ops.append({"op": "+U", "row": [i, "upd %d" % i, i * 100, 0.5, True]})
for i in range(1, 400, 11):
    ops.append({"op": "-D", "row": [i, None, None, None, None]})
ops.append({"op": "commit"})
for i in range(1, 100, 11):
    ops.append({"op": "+I", "row": [i, "back %d" % i, 7, 7.0, False]})
ops.append({"op": "-D", "row": [1000, None, None, None, None]})   # a key never written
ops.append({"op": "commit"})
# file indexes of the value columns (Parquet: some embedded, the bloom filters of
# the larger files in sidecars; Avro: all embedded)
idx = {"file-index.bloom-filter.columns": "name,v", "file-index.bloom-filter.name.items": "150",
       "file-index.bloom-filter.v.items": "40", "file-index.bitmap.columns": "ok,v",
       "file-index.bitmap.v.version": "1", "file-index.range-bitmap.columns": "d,v"}
save("dedup", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
               "options": dict(idx, bucket="2")}, ops)
dedup_ops = ops
# data-file.external-paths, round-robin over two roots (and the file-index sidecars beside
# the data files there)
save("dedup_ext", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                   "options": dict(idx, **{"bucket": "2",
                                           "data-file.external-paths":
                                           "file:%s/ext_rr_a, file:%s/ext_rr_b" % (wh, wh),
                                           "data-file.external-paths.strategy": "round-robin"})},
     ops)
# manifest.format = parquet: manifests, manifest lists and (deletion vectors) index
# manifests in Parquet, as Java writes them
save("dv_mfparquet", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                      "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                                  "manifest.format": "parquet"}}, ops)
save("dv_mforc", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                  "options": {"bucket": "2", "deletion-vectors.enabled": "true",
                              "manifest.format": "orc"}}, ops)
save("dedup_avro", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                    "options": dict(idx, **{"bucket": "3", "file.format": "avro",
                                           "file-index.in-manifest-threshold": "64kb"})}, ops)
# per-level options: level-0 files in snappy with counts only (but name in full), the max
# level's in lz4; file names ending in .zst.parquet (file.compression's suffix, whatever the
# level's); bucket directories under data/files/
save("dedup_perlevel", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                        "options": {"bucket": "2", "file.compression.per.level": "0:snappy,5:lz4",
                                    "metadata.stats-mode.per.level": "0:counts,5:truncate(4)",
                                    "fields.name.stats-mode": "full",
                                    "file.suffix.include.compression": "true",
                                    "data-file.path-directory": "data/files"}},
     ops)
# file.format.per.level: level-0 files in Avro (their own statistics rules), the rest Parquet
save("dedup_avro0", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                     "options": dict(idx, **{"bucket": "2", "file.format.per.level": "0:avro",
                                             "file.compression": "snappy"})}, ops)
# ORC (write_orc_check.sh; not in the default list)
save("dedup_orc", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                   "options": dict(idx, **{"bucket": "2", "file.format": "orc"})}, ops)

# partitioned: PK (id, dt), partition dt
pcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "dt", "type": "STRING NOT NULL"},
         {"name": "v", "type": "BIGINT"}]
ops = []
for c in range(2):
    for i in range(300):
        ops.append({"op": "+I", "row": [i % 100, "2026-12-0%d" % (1 + i % 3), c * 1000 + i]})
    ops.append({"op": "-D", "row": [c + 5, "2026-12-01", None]})
    ops.append({"op": "commit"})
save("part", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
              "options": {"bucket": "3"}}, ops)
# data-file.external-paths, entropy-inject: files under <root>/data/dt=<d>/bucket-<n>/
# <hash dirs>/ (data-file.path-directory in the relative bucket path); the root
# written "file:///...//" (Path.toString records file:/...)
save("part_ext", {"columns": pcols, "primary_keys": ["id", "dt"], "partition_keys": ["dt"],
                  "options": {"bucket": "3", "data-file.path-directory": "data",
                              "data-file.external-paths": "file://%s/ext_entropy//" % wh,
                              "data-file.external-paths.strategy": "entropy-inject"}}, ops)

# partial-update with two sequence groups, streams out of order, a group retracted
ucols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "a", "type": "STRING"},
         {"name": "a_seq", "type": "BIGINT"}, {"name": "b", "type": "BIGINT"},
         {"name": "b_seq", "type": "BIGINT"}, {"name": "c", "type": "STRING"}]
ops = []
for c in range(3):
    for i in rnd.sample(range(200), 150):
        s = rnd.randrange(1000)
        if rnd.random() < 0.5:
            ops.append({"op": "+I", "row": [i, "a%d-%d" % (i, s), s, None, None, None]})
        else:
            ops.append({"op": "+I", "row": [i, None, None, s * 2, s, "c%d" % c]})
    for i in range(0, 200, 17):
        ops.append({"op": "-D", "row": [i, None, 2000, None, None, None]})
    ops.append({"op": "commit"})
save("partial", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                 "options": {"bucket": "2", "merge-engine": "partial-update",
                             "fields.a_seq.sequence-group": "a",
                             "fields.b_seq.sequence-group": "b"}}, ops)

# aggregation: sum and max, inserts over three commits
acols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "BIGINT"},
         {"name": "m", "type": "DOUBLE"}, {"name": "last", "type": "STRING"}]
ops = []
for c in range(3):
    for i in range(500):
        ops.append({"op": "+I", "row": [i % 120, i + c, None if i % 9 == 0 else rnd.random() * 100,
                                        None if i % 4 == 0 else "l%d" % i]})
    ops.append({"op": "commit"})
save("agg", {"columns": acols, "primary_keys": ["id"], "partition_keys": [],
             "options": {"bucket": "2", "merge-engine": "aggregation",
                         "fields.s.aggregate-function": "sum",
                         "fields.m.aggregate-function": "max"}}, ops)
save("agg_orc", {"columns": acols, "primary_keys": ["id"], "partition_keys": [],
                 "options": {"bucket": "2", "merge-engine": "aggregation", "file.format": "orc",
                             "file.compression": "snappy",
                             "fields.s.aggregate-function": "sum",
                             "fields.m.aggregate-function": "max"}}, ops)

# sequence.field: the largest ts wins whatever the order of writing
scols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "ts", "type": "BIGINT"},
         {"name": "v", "type": "STRING"}]
ops = []
for c in range(2):
    for i in range(300):
        ts = rnd.randrange(50)
        ops.append({"op": "+I", "row": [i % 80, ts, "v%d-%d-%d" % (c, i, ts)]})
    ops.append({"op": "commit"})
save("seqf", {"columns": scols, "primary_keys": ["id"], "partition_keys": [],
              "options": {"bucket": "2", "sequence.field": "ts"}}, ops)
# sequence.field.sort-order = descending: the smallest ts wins, a NULL ts sorts
# first either way (Java's RecordComparator: nulls first, the sign only on values)
ops = []
for c in range(3):
    for i in range(300):
        ts = None if rnd.randrange(10) == 0 else rnd.randrange(50)
        ops.append({"op": "+I", "row": [i % 80, ts, "v%d-%d-%s" % (c, i, ts)]})
    for i in range(c, 80, 11):
        ops.append({"op": "-D", "row": [i, rnd.randrange(50), None]})
    ops.append({"op": "commit"})
save("seqf_desc", {"columns": scols, "primary_keys": ["id"], "partition_keys": [],
                   "options": {"bucket": "2", "sequence.field": "ts",
                               "sequence.field.sort-order": "descending"}}, ops)
# aggregation with retraction: sum and last_non_null_value take -U/+U pairs and -D
rcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "BIGINT"},
         {"name": "l", "type": "STRING"}]
ops = []
for c in range(2):
    for i in range(200):
        ops.append({"op": "+I", "row": [i % 60, i * (c + 1), "l%d" % i]})
    for i in range(0, 60, 4):
        ops.append({"op": "-U", "row": [i, i, "l%d" % i]})
        ops.append({"op": "+U", "row": [i, 1000 + i, "u%d" % i]})
    for i in range(1, 60, 9):
        ops.append({"op": "-D", "row": [i, 5, None]})
    ops.append({"op": "commit"})
save("agg_retract", {"columns": rcols, "primary_keys": ["id"], "partition_keys": [],
                     "options": {"bucket": "2", "merge-engine": "aggregation",
                                 "fields.s.aggregate-function": "sum"}}, ops)

# partial-update with remove-record-on-delete; deduplicate with ignore-delete
ops = []
for c in range(2):
    for i in range(150):
        ops.append({"op": "+I", "row": [i % 70, "a%d" % i if i % 2 else None, i, None, c, None]})
    for i in range(c, 70, 6):
        ops.append({"op": "-D", "row": [i, None, None, None, None, None]})
    ops.append({"op": "commit"})
save("pu_remove", {"columns": ucols, "primary_keys": ["id"], "partition_keys": [],
                   "options": {"bucket": "2", "merge-engine": "partial-update",
                               "partial-update.remove-record-on-delete": "true"}}, ops)
ops = []
for i in range(100):
    ops.append({"op": "+I", "row": [i, "n%d" % i, i, None, None]})
    if i % 3 == 0:
        ops.append({"op": "-D", "row": [i, None, None, None, None]})
        ops.append({"op": "-U", "row": [i, None, None, None, None]})
ops.append({"op": "commit"})
save("ignore_delete", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                       "options": {"bucket": "2", "ignore-delete": "true"}}, ops)

# bucket-function.type: mod (an INT key, negative ones too) and hive (a composite
# key of a string, with unicode, and a BIGINT): rows in Java's buckets
ops = []
for c in range(2):
    for i in range(200):
        k = rnd.randrange(-500, 500)
        ops.append({"op": "+I", "row": [k, "m%d-%d" % (c, i), i, float(i) / 3, i % 2 == 0]})
    ops.append({"op": "commit"})
save("bf_mod", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                "options": {"bucket": "3", "bucket-function.type": "mod"}}, ops)
hcols = [{"name": "k", "type": "STRING NOT NULL"}, {"name": "id", "type": "BIGINT NOT NULL"},
         {"name": "d", "type": "DOUBLE"}, {"name": "ok", "type": "BOOLEAN"}]
ops = []
for c in range(2):
    for i in range(200):
        k = rnd.choice(["", "a", "\u00e9t\u00e9", "\u4e00\u4e8c", "Zeta", "z" * 30])
        ops.append({"op": "+I", "row": [k, rnd.randrange(-2**40, 2**40), rnd.random() - 0.5,
                                        None if i % 5 == 0 else i % 2 == 0]})
    ops.append({"op": "commit"})
save("bf_hive", {"columns": hcols, "primary_keys": ["k", "id"], "partition_keys": [],
                 "options": {"bucket": "4", "bucket-function.type": "hive"}}, ops)

# sequence.field of two fields
mcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "s1", "type": "INT"},
         {"name": "s2", "type": "BIGINT"}, {"name": "v", "type": "STRING"}]
ops = []
for c in range(2):
    for i in range(300):
        s1, s2 = rnd.randrange(3), rnd.randrange(5)
        ops.append({"op": "+I", "row": [i % 50, s1, s2, "v%d-%d" % (c, i)]})
    ops.append({"op": "commit"})
save("seq2", {"columns": mcols, "primary_keys": ["id"], "partition_keys": [],
              "options": {"bucket": "2", "sequence.field": "s1,s2"}}, ops)
# composite key with a string part (unicode, prefixes, empty), a bucket-key, doubles
ccols = [{"name": "k", "type": "STRING NOT NULL"}, {"name": "id", "type": "BIGINT NOT NULL"},
         {"name": "d", "type": "DOUBLE"}, {"name": "flag", "type": "BOOLEAN"}]
words = ["", "a", "ab", "abc", "b", "\u00e9t\u00e9", "\u4e00\u4e8c", "z" * 40, "Zeta", "\U0001f600"]
ops = []
for c in range(3):
    for i in range(400):
        ops.append({"op": "+I", "row": [rnd.choice(words), rnd.randrange(-5, 30) * 10 ** rnd.randrange(0, 12),
                                        None if i % 10 == 0 else rnd.uniform(-1e6, 1e6), i % 3 == 0]})
    ops.append({"op": "-D", "row": ["a", 0, None, None]})
    ops.append({"op": "commit"})
save("composite", {"columns": ccols, "primary_keys": ["k", "id"], "partition_keys": [],
                   "options": {"bucket": "3", "bucket-key": "k"}}, ops)
# data-file.thin-mode: no _KEY_ columns; the key fields' value columns take
# truncate(128) statistics (the others truncate(4)), and the key stats are theirs
save("composite_thin", {"columns": ccols, "primary_keys": ["k", "id"], "partition_keys": [],
                        "options": {"bucket": "3", "bucket-key": "k", "data-file.thin-mode": "true",
                                    "metadata.stats-mode": "truncate(4)",
                                    "metadata.stats-keep-first-n-columns": "3"}}, ops)
# thin Avro files (their statistics counted alike, createStatsFactoriesForAvro), indexes
save("dedup_thin_avro", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                         "options": dict(idx, **{"bucket": "2", "file.format": "avro",
                                                "data-file.thin-mode": "true"})}, dedup_ops)
# a write buffer that fills: level-0 runs flushed within one commit (where
# they are cut differs between Java and us: rows compared, not file metas)
ops = []
for c in range(2):
    for i in range(20000):
        ops.append({"op": "+I", "row": [(i * 7919 + c) % 6000, "x%d" % i, i, i / 2.0, None]})
    ops.append({"op": "commit"})
save("flush_nometa", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
                      "options": {"bucket": "2", "write-buffer-size": "256 kb",
                                  "write-buffer-spillable": "false"}}, ops)
# the same with the write buffer spilling (Java's default, write-buffer-spillable):
# one sorted run per commit and bucket however small the buffer, file metas as Java's
ops = []
for c in range(2):
    for i in range(20000):
        ops.append({"op": "+I", "row": [(i * 7919 + c) % 6000, "x%d" % i, i, i / 2.0, None]})
    for i in range(c, 6000, 97):
        ops.append({"op": "-D", "row": [i, None, None, None, None]})
    ops.append({"op": "commit"})
save("spill", {"columns": cols, "primary_keys": ["id"], "partition_keys": [],
               "options": {"bucket": "2", "write-buffer-size": "256 kb"}}, ops)
# rowkind.field = k: each row's kind is its k ('+I', '-U', '+U', '-D', any case), as
# a Flink job writes changelog rows; the op's own kind is ignored by both writers
# (Java's RowKindGenerator), so some ops carry a kind that disagrees with k.
# Deduplicate (-U and -D remove a key), with ignore-delete (both dropped) and
# aggregation (sum and last_non_null_value retracted by -U and -D)
kcols = [{"name": "id", "type": "INT NOT NULL"}, {"name": "k", "type": "STRING"},
         {"name": "v", "type": "BIGINT"}, {"name": "name", "type": "STRING"}]
ops = []
for c in range(2):
    for i in rnd.sample(range(150), 120):
        ops.append({"op": "+I", "row": [i, "+I" if i % 5 else "+i", i * (c + 1), "n%d-%d" % (c, i)]})
    for i in range(c, 150, 7):
        ops.append({"op": "+I", "row": [i, "-U", i * (c + 1), None]})
        ops.append({"op": "-D", "row": [i, "+U", 100 + i, "u%d-%d" % (c, i)]})
    for i in range(3 + c, 150, 11):
        ops.append({"op": "+I", "row": [i, "-D" if i % 2 else "-d", i, None]})
    ops.append({"op": "commit"})
for t, extra in (("rowkind", {}), ("rowkind_ign", {"ignore-delete": "true"}),
                 ("rowkind_agg", {"merge-engine": "aggregation",
                                  "fields.v.aggregate-function": "sum"})):
    save(t, {"columns": kcols, "primary_keys": ["id"], "partition_keys": [],
             "options": dict(extra, **{"bucket": "2", "rowkind.field": "k"})}, ops)
# an append table (bucket -1) with rowkind.field and ignore-delete: +I and +U rows
# written, -U and -D rows dropped (without ignore-delete both writers refuse them);
# the ops are +I (Java's append writer also refuses a row whose own kind is -U/-D)
save("rowkind_append", {"columns": kcols, "primary_keys": [], "partition_keys": [],
                        "options": {"rowkind.field": "k", "ignore-delete": "true"}},
     [dict(o, op="+I") if "row" in o else o for o in ops])
with open(wh + "/compact.jsonl", "w") as out:
    out.write(json.dumps({"op": "compact"}) + "\n")
PY

fail=0
for t in ${PK_CHECK_TABLES:-dedup dedup_avro dedup_perlevel dedup_avro0 part partial agg seqf agg_retract pu_remove ignore_delete seq2 seqf_desc bf_mod bf_hive composite composite_thin dedup_thin_avro flush_nometa spill rowkind rowkind_ign rowkind_agg rowkind_append dedup_ext part_ext dv_mfparquet dv_mforc}; do
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "java_$t" "$wh/$t.json" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "java_$t" "$wh/$t.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" create "$wh" pk "ours_$t" "$wh/$t.json" >/dev/null
	"$wh/pk_write" "$wh/pk.db/ours_$t" "$wh/$t.jsonl" >/dev/null
	nfiles=$(find "$wh/pk.db/ours_$t" -name 'data-*' | wc -l)
	# file name extensions (file.suffix.include.compression) as Java's
	exts() { find "$1" -name 'data-*' | sed 's/.*-[0-9]*\.//' | sort -u | tr '\n' ' '; }
	if [ "$(exts "$wh/pk.db/ours_$t")" != "$(exts "$wh/pk.db/java_$t")" ]; then
		echo "FAIL $t: our data files end in $(exts "$wh/pk.db/ours_$t"), Java's in $(exts "$wh/pk.db/java_$t")"; fail=1
	fi
	if [ "${t%_nometa}" != "$t" ]; then
		echo "$t: $nfiles data files of ours (file metas not compared)"
	elif out=$("$wh/pk_write" --compare "$wh/pk.db/java_$t" "$wh/pk.db/ours_$t"); then
		echo "$t: our file metas equal Java's ($out)"
	else
		echo "FAIL $t: $out"; fail=1
	fi
	# and we read Java's table as Java does (thin-mode files: keys from the value columns)
	# (JSON values compared: Java prints an integral double as an integer, jansson as n.0)
	norm() { python3 -c 'import json,sys; f=lambda t: int(float(t)) if float(t).is_integer() else float(t); print("\n".join(sorted(json.dumps(json.loads(l, parse_float=f)) for l in sys.stdin if l.strip())))'; }
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "java_$t" | norm > "$wh/java_$t.rows"
	"$wh/pk_write" --read "$wh/pk.db/java_$t" | norm > "$wh/java_${t}_by_us.rows"
	if cmp -s "$wh/java_$t.rows" "$wh/java_${t}_by_us.rows" && [ -s "$wh/java_$t.rows" ]; then
		echo "$t: we read Java's table as Java does: $(wc -l < "$wh/java_$t.rows") rows"
	else
		echo "FAIL $t: we read Java's table differently"
		diff "$wh/java_$t.rows" "$wh/java_${t}_by_us.rows" | head -6; fail=1
	fi
	versions="1.3.1 1.4.2"
	[ "$t" = part_ext ] && versions=1.4.2	# entropy-inject is new in 1.4
	for v in $versions; do
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" pk "java_$t" | sort > "$wh/java_${t}_$v.rows"
		ORACLE_PAIMON_VERSION=$v "$oracle" read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_$v.rows"
		if cmp -s "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" && [ -s "$wh/ours_${t}_$v.rows" ]; then
			echo "$t: Java $v reads our primary-key table as its own: $(wc -l < "$wh/ours_${t}_$v.rows") rows"
		else
			echo "FAIL $t: Java $v reads our primary-key table differently"
			diff "$wh/java_${t}_$v.rows" "$wh/ours_${t}_$v.rows" | head -6; fail=1
		fi
	done
	if [ "${t%_ext}" != "$t" ]; then
		# external paths: no data file in our table, ours in the roots (bucket directories
		# below each, entropy directories of 4/4/4/8 bits for part_ext)
		nours=$("$wh/pk_write" --list-external "$wh/pk.db/ours_$t" | grep -c . || true)
		case $t in
			part_ext) shape='^/.*/ext_entropy/data/dt=[^/]*/bucket-[0-9]/[01]{4}/[01]{4}/[01]{4}/[01]{8}/data-[^/]*$' ;;
			*) shape='^/.*/ext_rr_[ab]/bucket-[0-9]/data-[^/]*$' ;;
		esac
		nshaped=$("$wh/pk_write" --list-external "$wh/pk.db/ours_$t" | grep -cE "$shape" || true)
		if [ "$nfiles" -eq 0 ] && [ "$nours" -gt 0 ] && [ "$nshaped" -eq "$nours" ] &&
			[ "$("$wh/pk_write" --list-external "$wh/pk.db/ours_$t" | xargs -r ls | wc -l)" -eq "$nours" ]; then
			echo "$t: our $nours data files are in the external roots, laid out as Java's"
		else
			echo "FAIL $t: $nfiles data files in our table, $nours external ($nshaped shaped as Java's)"; fail=1
		fi
	fi
	if [ "${t%_mfparquet}" != "$t" ] || [ "${t%_mforc}" != "$t" ]; then
		# every manifest file (manifest, manifest list, index manifest) of both tables is
		# Parquet (PAR1) or ORC (ORC)
		want=PAR1; [ "${t%_mforc}" != "$t" ] && want=ORC
		magic() { for f in "$1"/manifest/*; do head -c ${#want} "$f"; echo; done | sort -u | tr '\n' ' '; }
		if [ "$(magic "$wh/pk.db/ours_$t")" = "$want " ] && [ "$(magic "$wh/pk.db/java_$t")" = "$want " ] &&
			ls "$wh/pk.db/ours_$t/manifest" | grep -q '^index-manifest-'; then
			echo "$t: our $(ls "$wh/pk.db/ours_$t/manifest" | wc -l) manifest files are $want, as Java's"
		else
			echo "FAIL $t: our manifest files begin $(magic "$wh/pk.db/ours_$t"), Java's $(magic "$wh/pk.db/java_$t")"; fail=1
		fi
	fi
	[ "${t%_ext}" != "$t" ] && "$wh/pk_write" --list-external "$wh/pk.db/ours_$t" | sort > "$wh/ours_${t}_before"
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" write "$wh" pk "ours_$t" "$wh/compact.jsonl" >/dev/null
	ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "ours_$t" | sort > "$wh/ours_${t}_compacted.rows"
	if cmp -s "$wh/java_${t}_1.4.2.rows" "$wh/ours_${t}_compacted.rows"; then
		echo "$t: Java's full compaction of our files gives the same rows"
	else
		echo "FAIL $t: Java's full compaction of our files gives other rows"
		diff "$wh/java_${t}_1.4.2.rows" "$wh/ours_${t}_compacted.rows" | head -6; fail=1
	fi
	if [ "${t%_ext}" != "$t" ]; then
		# our snapshot expiry deletes the external files (and their sidecars) the
		# compaction replaced, where they are, and keeps the live ones
		"$wh/pk_write" --list-external "$wh/pk.db/ours_$t" | sort > "$wh/ours_${t}_live"
		"$wh/pk_write" --expire "$wh/pk.db/ours_$t" 1 >/dev/null
		gone=$(comm -23 "$wh/ours_${t}_before" "$wh/ours_${t}_live")
		left=$(for f in $gone; do ls "$f" "$f.index" 2>/dev/null || true; done | wc -l)
		live=$(xargs -r ls < "$wh/ours_${t}_live" | wc -l)
		if [ -n "$gone" ] && [ "$left" -eq 0 ] && [ "$live" -eq "$(wc -l < "$wh/ours_${t}_live")" ] &&
			[ "$(ORACLE_PAIMON_VERSION=1.4.2 "$oracle" read "$wh" pk "ours_$t" | sort)" = "$(cat "$wh/ours_${t}_compacted.rows")" ]; then
			echo "$t: expiry deleted the $(echo "$gone" | wc -l) replaced external files, kept the $live live ones"
		else
			echo "FAIL $t: after expiry $left replaced external files are left, $live of the live ones exist"; fail=1
		fi
	fi
done
exit $fail
