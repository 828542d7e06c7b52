#!/usr/bin/env python3
"""Randomized round trips for every primary-key table kind, with Java writing in between.

run_pk_dml.py's table (id BIGINT, p STRING, v INT, s STRING; primary key (p, id),
partition p) and statements (upsert, update, move key, move partition, delete, rollback),
here over a rotation of table kinds, one per seed (seed % len(KINDS)):

  dedup-dynamic   deduplicate, bucket = -1 (dynamic bucket)
  dedup-orc       deduplicate, file.format orc
  dedup-avro      deduplicate, file.format avro
  dedup-lookup    deduplicate, changelog-producer lookup, thin files (data-file.thin-mode:
                  no _KEY_ columns; also dedup-dv-orc and partial-seq)
  dedup-full      deduplicate, changelog-producer full-compaction
  dedup-dv-orc    deduplicate, deletion vectors, orc
  agg-sum         aggregation: v sum, s last_non_null_value (UPDATE retracts with -U,
                  DELETE with -D: the key stays, its sum less the retracted value)
  agg-max         aggregation: v max, s last_non_null_value; max cannot retract:
                  UPDATE and DELETE are refused (0A000) and change nothing
  first-row       first-row: the first row of a key wins; UPDATE and DELETE refused (0A000)
  partial-seq     partial-update with a sequence group: fields.v.sequence-group = s (v orders
                  the group {v, s}; a record with NULL v leaves both; a -D retracts s to NULL
                  when its v is not older; the key stays)
  partial-seq-rm  the same with partial-update.remove-record-on-sequence-group = v (a -D
                  whose v is not older removes the row)
  partial-rm      partial-update with partial-update.remove-record-on-delete (a +I sets its
                  non-NULL fields, a -D removes the row)

Every fourth transaction, every key is also looked up alone (run_pk_dml.lookup_rows: three
rounds in one statement, the later ones answered by resident files where the kind allows)
and must give the full scan's rows.

Between our SQL transactions, some transactions are Java's (Paimon's Java table write and
commit through the oracle: a few +I rows, on the kinds that retract also -D of present
keys), and now and then Java compacts the table fully; we then write on top of Java's
files. The model applies every transaction as Java merges it: a transaction's records
of a key merge in one write buffer (from an empty row), the buffered result merges with
the committed row on read (Java's MergeTreeWriter and merge functions,
AggregateMergeFunction, FieldSumAgg, FieldMaxAgg, FieldLastNonNullValueAgg,
FirstRowMergeFunction of release-1.4.2). After every transaction the extension reads the
model's rows; at the end Java reads them (and pypaimon, when test/oracle/python/setup.sh
installed it: another Paimon port reading our files; not the kinds in PY_REFUSES, which
pypaimon refuses), Java compacts fully, and both read them again.

Not covered yet: postpone bucket (-2).

The last line is "N passed, N failed" (per seed); missing input is a loud skip, a failure
in CI (input_required.py).

The default run (seeds 0-11, 12 transactions each) covers every kind once in about a minute;
more by flag, e.g. --seeds "$(seq -s ' ' 9 35)" --ops 20 (27 seeds pass, 4.5 min), and
ORACLE_PAIMON_VERSION=1.4.2 for the other oracle release (java/pom.xml says 1.3.1; the
default seeds pass on both, and scripts/test.sh runs both).

Usage: run_pk_kinds.py [--seeds "0 1 2 ... 11"] [--ops 12] [--keep]
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
import difftest  # noqa: E402
from sql_session import end_case, java_ops, scratch_table, psql as run_psql  # noqa: E402
from run_pk_dml import statement, sql_rows, lookup_rows, norm, seeds_main, Model as DedupModel  # noqa: E402

DB = "kinds"
REFUSED_OPS = ("update", "move_key", "move_part", "delete")

# (name, options, model factory, SQL kinds refused with 0A000, Java writes -D)
KINDS = [
    ("dedup-dynamic", {"bucket": "-1", "dynamic-bucket.target-row-num": "20"}, "dedup", False, True),
    ("dedup-orc", {"bucket": "2", "file.format": "orc"}, "dedup", False, True),
    ("dedup-avro", {"bucket": "2", "file.format": "avro"}, "dedup", False, True),
    ("dedup-lookup", {"bucket": "2", "changelog-producer": "lookup", "data-file.thin-mode": "true"},
     "dedup", False, True),
    ("dedup-full", {"bucket": "2", "changelog-producer": "full-compaction"}, "dedup", False, True),
    ("dedup-dv-orc", {"bucket": "1", "deletion-vectors.enabled": "true", "file.format": "orc",
                      "data-file.thin-mode": "true"}, "dedup", False, True),
    ("agg-sum", {"bucket": "2", "merge-engine": "aggregation",
                 "fields.v.aggregate-function": "sum",
                 "fields.s.aggregate-function": "last_non_null_value"}, "agg-sum", False, True),
    ("agg-max", {"bucket": "2", "merge-engine": "aggregation",
                 "fields.v.aggregate-function": "max",
                 "fields.s.aggregate-function": "last_non_null_value"}, "agg-max", True, False),
    ("first-row", {"bucket": "2", "merge-engine": "first-row"}, "first-row", True, False),
    ("partial-seq", {"bucket": "2", "merge-engine": "partial-update",
                     "fields.v.sequence-group": "s", "data-file.thin-mode": "true"},
     "partial-seq", False, True),
    ("partial-seq-rm", {"bucket": "2", "merge-engine": "partial-update",
                        "fields.v.sequence-group": "s",
                        "partial-update.remove-record-on-sequence-group": "v"},
     "partial-seq-rm", False, True),
    ("partial-rm", {"bucket": "2", "merge-engine": "partial-update",
                    "partial-update.remove-record-on-delete": "true"}, "partial-rm", False, True),
]


def psql(sql):
    return run_psql(sql).stdout


def sum_agg(acc, x):
    return x if acc is None else acc if x is None else acc + x


def sum_retract(acc, x):
    if acc is None or x is None:
        return -x if acc is None and x is not None else acc
    return acc - x


def max_agg(acc, x):
    return x if acc is None else acc if x is None else max(acc, x)


def lnn_agg(acc, x):
    return acc if x is None else x


def lnn_retract(acc, x):
    return None if x is not None else acc


class AggModel:
    """aggregation without remove-record-on-delete: per transaction, the records of a key
    that has several fold from an empty row (agg for +I/+U, retract for -U/-D) into one
    INSERT; a key's only record stays as it is (so a lone -D retracts last_non_null_value
    on read). The result folds onto the committed row. A key once written stays."""

    def __init__(self, vagg):
        self.rows = {}
        self.vagg = vagg

    def fold(self, row, kind, val):
        v, s = row
        if kind in ("-U", "-D"):
            assert self.vagg is sum_agg
            return [sum_retract(v, val[0]), lnn_retract(s, val[1])]
        return [self.vagg(v, val[0]), lnn_agg(s, val[1])]

    def commit(self, records):
        by_key = {}
        for kind, key, val in records:
            by_key.setdefault(key, []).append((kind, val))
        for key, recs in by_key.items():
            if len(recs) == 1:
                # one record of a key goes to the file as it is (ReducerMergeFunctionWrapper)
                kind, val = recs[0]
            else:
                kind, val = "+I", [None, None]
                for k, x in recs:
                    val = self.fold(val, k, x)
            if key in self.rows:
                self.rows[key] = self.fold(self.rows[key], kind, val)
            elif kind == "+I":
                self.rows[key] = list(val)

    def sorted_rows(self):
        return DedupModel.sorted_rows(self)


class FirstRowModel:
    """first-row: the first +I of a key in the first transaction that writes it wins."""

    def __init__(self):
        self.rows = {}

    def commit(self, records):
        for kind, key, val in records:
            assert kind == "+I"
            if key not in self.rows:
                self.rows[key] = list(val)

    def sorted_rows(self):
        return DedupModel.sorted_rows(self)


def seq_ge(a, b):
    """compare(record, row) >= 0 on the sequence field: ascending, NULLs first
    (UserDefinedSeqComparator's generated RecordComparator)."""
    return b is None or (a is not None and a >= b)


class PartialModel:
    """partial-update with fields.v.sequence-group = s, or with remove-record-on-delete and no
    group (Java 1.4.2 PartialUpdateMergeFunction: updateWithSequenceGroup,
    retractWithSequenceGroup, updateNonNullFields, initRow). The merge is not folded into
    one row per key: a key keeps the records its transactions left in files (a
    transaction's records of a key reduced by the write buffer: one record as it is, several
    through the merge function, whose DELETE result is written too), and a read merges them
    all, oldest first.

    The merge is not associative across a removing -D (remove-record-on-sequence-group or
    remove-record-on-delete): a compaction that writes a key's
    whole history to the top level drops a DELETE result (and with it the row the -D left),
    and the compactions a commit runs are the writer's choice. So a key holds the record
    lists it may have (alternatives): every commit adds, for each, the history merged into
    one record (or none, for a DELETE); each read keeps the alternatives that give the rows
    read, and fails when none does.

    initRow (a retract as a key's first record, and the row a removing -D leaves) copies
    every field in 1.4.1 and later (apache/paimon#7645) and ours, only the NOT NULL ones (the
    key) in 1.3.x and 1.4.0: a row removed
    and inserted again with an older v keeps the removed values in 1.4.2 and takes the
    insert's in 1.3.1. Our reads, writes and compactions merge as 1.4.2; Java's as the
    oracle's release (java_init_all)."""

    def __init__(self, remove, group=True):
        self.remove = remove    # remove-record-on-sequence-group = v, or remove-record-on-delete
        self.group = group      # fields.v.sequence-group = s
        self.alts = {}          # key -> [tuple of (kind, (v, s)) records]
        version = os.environ.get("ORACLE_PAIMON_VERSION", "1.3.1")
        self.java_init_all = tuple(int(x) for x in version.split(".")[:3]) >= (1, 4, 1)

    def merge(self, recs, init_all):
        def init(val):
            return tuple(val) if init_all else (None, None)

        if len(recs) == 1:
            return recs[0]      # ReducerMergeFunctionWrapper: a lone record as it is
        row = (None, None)
        meet = filled = deleted = False
        for kind, val in recs:
            deleted = False
            v = val[0]
            if kind in ("-D", "-U"):
                if not filled:
                    row, filled = init(val), True
                if not self.group:
                    if kind == "-D":
                        deleted, row = True, init(val)
                    continue
                if v is None or not seq_ge(v, row[0]):
                    continue    # an empty sequence group, or an older one
                if kind == "-D" and self.remove:
                    deleted, row = True, init(val)
                    continue
                row = (v, None)     # the sequence field set, the group's field retracted
                continue
            if not self.group:
                row = tuple(o if n is None else n for n, o in zip(val, row))
            elif v is not None and seq_ge(v, row[0]):
                row = tuple(val)    # the whole group, s even when NULL
            meet = filled = True
        return ("-D" if deleted or not meet else "+I", row)

    def compacted(self, recs, init_all):
        kind, row = self.merge(recs, init_all)
        return () if kind in ("-D", "-U") else (("+I", row),)

    def commit(self, records, java=False):
        init_all = self.java_init_all if java else True
        by_key = {}
        for kind, key, val in records:
            by_key.setdefault(key, []).append((kind, tuple(val)))
        for key, recs in by_key.items():
            rec = self.merge(recs, init_all)
            self.alts[key] = [alt + (rec,) for alt in self.alts.get(key, [()])]
        for key, alts in self.alts.items():
            self.alts[key] = list(dict.fromkeys(alts + [self.compacted(a, init_all) for a in alts]))

    def compact(self):
        """Java's full compaction."""
        for key, alts in self.alts.items():
            self.alts[key] = list(dict.fromkeys(self.compacted(a, self.java_init_all) for a in alts))

    def read(self, recs, init_all):
        if not recs:
            return None
        kind, row = self.merge(recs, init_all)
        return None if kind in ("-D", "-U") else row

    def observe(self, rows, java=False):
        """Keep the alternatives that read as rows (id, p, v, s as text); a message when
        a key has none left."""
        init_all = self.java_init_all if java else True
        got = {(r[1], int(r[0])): (r[2], r[3]) for r in rows}
        for key in set(got) - set(self.alts):
            return "%s reads a row of key %s the model never had: %s" % (
                "Java" if java else "the extension", key, got[key])
        for key, alts in self.alts.items():
            def text(row):
                return None if row is None else (None if row[0] is None else str(row[0]), row[1])
            keep = [a for a in alts if text(self.read(a, init_all)) == got.get(key)]
            if not keep:
                return "%s reads key %s as %s; the model has %s" % (
                    "Java" if java else "the extension", key, got.get(key),
                    " or ".join(dict.fromkeys(str(text(self.read(a, init_all))) for a in alts)))
            self.alts[key] = keep
        return None

    @property
    def rows(self):
        out = {}
        for key, alts in self.alts.items():
            row = self.read(alts[0], True)
            if row is not None:
                out[key] = list(row)
        return out

    def sorted_rows(self):
        return DedupModel.sorted_rows(self)


def make_model(kind):
    if kind.startswith("partial"):
        return PartialModel(kind != "partial-seq", kind != "partial-rm")
    if kind == "dedup":
        return DedupModel(False)
    if kind == "agg-sum":
        return AggModel(sum_agg)
    if kind == "agg-max":
        return AggModel(max_agg)
    return FirstRowModel()


def sql_records(model_kind, recs, seen):
    """The records our UPDATE writes on this kind: aggregation retracts the old row (-U)
    before the +U."""
    if model_kind != "agg-sum":
        return recs
    out = []
    for kind, key, val in recs:
        if kind == "+U":
            out.append(("-U", key, list(seen[key])))
        out.append((kind, key, val))
    return out


def resident_kind(options):
    """Do lookups of this kind's tables use resident files (README: resident files):
    deduplicate, fixed buckets, no deletion vectors, no sequence.field, no ignore-delete."""
    return (options.get("merge-engine", "deduplicate") == "deduplicate"
            and int(options.get("bucket", "-1")) > 0
            and options.get("deletion-vectors.enabled") != "true"
            and "sequence.field" not in options and options.get("ignore-delete") != "true")


def check(model, rows, java):
    """None when rows (id, p, v, s as text, sorted) are the model's; else what differs."""
    if hasattr(model, "observe"):
        return model.observe(rows, java)
    exp = model.sorted_rows()
    if rows == exp:
        return None
    return "%s reads %d rows, the model %d; first differences: %s" % (
        "Java" if java else "the extension", len(rows), len(exp),
        [x for x in rows if x not in exp][:3] + ["/"] + [x for x in exp if x not in rows][:3])


def java_txn(rnd, seen, deletes):
    """A Java write transaction: a few +I rows, sometimes -D of present keys."""
    recs = []
    if deletes and seen and rnd.random() < 0.5:
        for key in rnd.sample(sorted(seen), min(len(seen), rnd.randint(1, 3))):
            recs.append(("-D", key, list(seen[key])))
    for _ in range(rnd.randint(1, 8)):
        key = (rnd.choice(["a", "b"]), rnd.randint(1, 60))
        if any(k == key and kd == "-D" for kd, k, _ in recs):
            continue  # a key deleted and inserted in one Java batch: order left to the buffer
        v = None if rnd.random() < 0.1 else rnd.randint(-1000, 1000)
        s = None if rnd.random() < 0.1 else "j%d" % rnd.randint(0, 99)
        recs.append(("+I", key, [v, s]))
    return recs


def java_write(tmproot, wh, name, lines):
    java_ops(tmproot, wh, DB, name, lines)


def run_seed(seed, args, tmproot):
    rnd = random.Random(seed)
    kname, options, mkind, refuses, java_deletes = KINDS[seed % len(KINDS)]
    name = "t%d" % seed
    srv = "kinds_%d" % seed
    ft = "public.kinds_%d" % seed
    wh = os.path.join(tmproot, "wh%d" % seed)
    os.makedirs(wh)
    os.chmod(wh, 0o777)
    scratch_table(srv, wh, DB, name, "id BIGINT, p STRING, v INT, s STRING", ft, options,
                  primary_key=["p", "id"], partition_keys=["p"])
    model = make_model(mkind)
    msgs = []
    counts = {}
    resident = 0
    for op in range(args.ops):
        seen = {k: list(v) for k, v in model.rows.items()}
        r = rnd.random()
        if op > 0 and r < 0.08:
            what = "java compact"
            java_write(tmproot, wh, name, [{"op": "compact"}])
            if hasattr(model, "compact"):
                model.compact()
        elif op > 0 and r < 0.3:
            what = "java write"
            recs = java_txn(rnd, seen, java_deletes)
            java_write(tmproot, wh, name,
                       [{"op": k, "row": [key[1], key[0], val[0], val[1]]} for k, key, val in recs]
                       + [{"op": "commit"}])
            if hasattr(model, "observe"):
                model.commit(recs, java=True)
            else:
                model.commit(recs)
        else:
            stmts = [statement(rnd, ft, seen) for _ in range(rnd.choice([1, 1, 2]))]
            refused = refuses and any(k in REFUSED_OPS for k, _, _ in stmts)
            rollback = not refused and rnd.random() < 0.1
            what = "; ".join(s for _, s, _ in stmts)
            for k, _, _ in stmts:
                counts[k] = counts.get(k, 0) + 1
            txn = "BEGIN;\n" + "\n".join(s for _, s, _ in stmts) + \
                ("\nROLLBACK;\n" if rollback else "\nCOMMIT;\n")
            if refused:
                counts["refused"] = counts.get("refused", 0) + 1
                p = run_psql("\\set VERBOSITY sqlstate\n" + txn, check=False)
                if p.returncode == 0 or "ERROR:  0A000" not in p.stderr:
                    msgs.append("transaction %d (%s) on %s: expected ERROR 0A000, got rc %d %s" % (
                        op + 1, what[:300], kname, p.returncode, p.stderr.strip()[:300]))
                    break
            else:
                psql(txn)
                if not rollback:
                    model.commit([rec for _, _, recs in stmts
                                  for rec in sql_records(mkind, recs, seen)])
        if what.startswith("java"):
            counts[what] = counts.get(what, 0) + 1
        rows = sql_rows(ft)
        m = check(model, rows, False)
        if not m and op % 4 == 3:
            # every key looked up alone gives the full scan's rows
            looked, m, answered = lookup_rows(ft, rows)
            resident += answered
            if not m and looked != rows:
                m = "lookups of every key give other rows than the scan: %s / %s" % (
                    [x for x in looked if x not in rows][:3], [x for x in rows if x not in looked][:3])
        if m:
            msgs.append("after transaction %d (%s): %s" % (op + 1, what[:300], m))
            break
    difftest.DB = DB
    if not msgs:
        msgs = [m for m in [check(model, norm(difftest.java_read(wh, name)), True)] if m]
    if not msgs and PYPAIMON_MISSING is None and kname not in PY_REFUSES:
        # another Paimon port reads our files (and Java's) too: pypaimon
        m = check(model, norm(difftest.py_read(wh, name)), True)
        if m:
            msgs.append("pypaimon: " + m.replace("Java reads", "pypaimon reads"))
    if not msgs:
        java_write(tmproot, wh, name, [{"op": "compact"}])
        if hasattr(model, "compact"):
            model.compact()
        for who, rows, java in (("the extension", sql_rows(ft), False),
                                ("Java", norm(difftest.java_read(wh, name)), True)):
            m = check(model, rows, java)
            if m:
                msgs.append("after Java's full compaction %s reads other rows: %s" % (who, m))
    if not msgs and args.ops >= 8 and resident_kind(options) and resident == 0:
        msgs.append("no lookup of %s was answered by resident files" % kname)
    expected = model.sorted_rows()
    passed = not msgs
    print("%s seed %d: %s, %d transactions (%s), %d rows at the end (%d lookups answered by resident "
          "files); Java%s reads them, Java also "
          "after its full compaction" % ("ok  " if passed else "FAIL", seed, kname, args.ops,
                                   ", ".join("%d %s" % (counts[k], k) for k in sorted(counts)),
                                   len(expected), resident,
                                   "" if PYPAIMON_MISSING or kname in PY_REFUSES else " and pypaimon"))
    return end_case(passed, msgs, srv, wh, args.keep,
                    "python3 test/compat/run_pk_kinds.py --seeds %d --keep" % seed)


PYPAIMON_MISSING = difftest.pypaimon_available()
# kinds pypaimon (2.1.0) refuses to read, with NotImplementedError: retract rows of the
# aggregation engine, partial-update with sequence groups or remove-record-on-delete
PY_REFUSES = ("agg-sum", "partial-seq", "partial-seq-rm", "partial-rm")


def main():
    if PYPAIMON_MISSING is not None:
        print("run_pk_kinds.py: the pypaimon reads are SKIPPED: %s" % PYPAIMON_MISSING)
    return seeds_main(__doc__, "every primary-key table kind through SQL and Java", run_seed,
                      " ".join(str(i) for i in range(len(KINDS))), 12, "paimon_pk_kinds_")


if __name__ == "__main__":
    sys.exit(main())
