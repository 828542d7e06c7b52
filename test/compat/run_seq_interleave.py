#!/usr/bin/env python3
"""Two writers of one primary-key bucket, interleaved on purpose: the later commit wins.

Paimon numbers a bucket's records per writer, from the bucket's largest sequence number
when the writer starts. Here session A opens a transaction and INSERTs (its writer takes
its numbers from the snapshot then), session B INSERTs more rows of the same bucket and
commits first (its record of the shared key gets a higher number than A's), then A
commits. A's statement came last, so A's value must win, as one Java writer running the
statements in commit order would give: the commit's sequence check renumbers A's files
above B's (src/table/table_write.c, src/lsm/resequence.c). Cases:

  dedup     deduplicate, bucket 1, compaction at commit off: id 1 = A's value
  partial   partial-update, bucket 1, compaction at commit on (trigger 2): A sets w, C
            (opened with A) sets v, B (opened with them) sets w and commits first; then A,
            then C: the row has C's v and A's w, whatever each compaction merged
  dv        as dedup with deletion vectors (lookup compaction at every commit): A wins
  firstrow  as dedup on a first-row table: B's row, committed first, stays
Each: our read and Java's (the oracle's Paimon release) equal the expected rows, and no
data file is an orphan (paimon_remove_orphan_files dry run finds nothing).
The last line is "N passed, N failed"; missing input (psql server, extension, java/mvn)
is a loud skip, a failure in CI (input_required.py).

Usage: run_seq_interleave.py [--keep]
"""
import argparse
import json
import shutil
import subprocess
import sys
import os

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
import difftest  # noqa: E402
from sql_session import java_and_sql, psql as run_psql, scratch_warehouse  # noqa: E402

DB = "seqi"
SRV = "seqi_srv"


def psql(sql):
    return run_psql(sql).stdout


class Session:
    """A psql session kept open between steps (a transaction can stay open)."""

    def __init__(self):
        self.p = subprocess.Popen(["psql", "-X", "-Atq", "-v", "ON_ERROR_STOP=1"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)

    def run(self, sql):
        """Run sql and wait until it is done; its output lines."""
        self.p.stdin.write(sql + "\n\\echo __done__\n")
        self.p.stdin.flush()
        out = []
        for line in self.p.stdout:
            line = line.rstrip("\n")
            if line == "__done__":
                return out
            out.append(line)
        raise RuntimeError("psql session ended: %s" % "\n".join(out))

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=60)


def create(table, ddl, options):
    ft = "public.%s_%s" % (DB, table)
    psql("SET client_min_messages = warning;\n"
         "SELECT paimon_create_table('%s', '%s', '%s', '%s', primary_key => ARRAY['id'], "
         "options => '%s', foreign_table => '%s');\n"
         % (SRV, DB, table, ddl, json.dumps(options), ft))
    return ft


def check(wh, table, ft, cols, expected, msgs):
    out = psql("SELECT %s FROM %s ORDER BY id;" % (", ".join(cols), ft))
    ours = [[None if v == "" else v for v in line.split("|")] for line in out.splitlines() if line]
    if ours != expected:
        msgs.append("%s: we read %s, expected %s" % (table, ours, expected))
    theirs = sorted(([None if v is None else str(v) for v in r] for r in difftest.java_read(wh, table)),
                    key=lambda r: int(r[0]))
    if theirs != expected:
        msgs.append("%s: Java reads %s, expected %s" % (table, theirs, expected))
    orphans = psql("SELECT path FROM paimon_remove_orphan_files('%s', older_than => now(), "
                   "dry_run => true);" % ft).split()
    if orphans:
        msgs.append("%s: orphan files %s" % (table, orphans))


def case_dedup(wh, msgs):
    ft = create("dedup", "id BIGINT, v STRING", {"bucket": "1"})
    psql("SET paimon_fdw.compact_at_commit = off; INSERT INTO %s SELECT g, 'base' FROM "
         "generate_series(1, 10) g;" % ft)
    a = Session()
    a.run("SET paimon_fdw.compact_at_commit = off; BEGIN; INSERT INTO %s VALUES (1, 'A');" % ft)
    psql("SET paimon_fdw.compact_at_commit = off; BEGIN; INSERT INTO %s SELECT g, 'B' FROM "
         "generate_series(20, 24) g; INSERT INTO %s VALUES (1, 'B'); COMMIT;" % (ft, ft))
    a.run("COMMIT;")
    a.close()
    expected = [[str(i), "A" if i == 1 else "base"] for i in range(1, 11)] + \
        [[str(i), "B"] for i in range(20, 25)]
    check(wh, "dedup", ft, ["id", "v"], expected, msgs)


def case_dv(wh, msgs, table, options, winner):
    """The dedup interleaving on a table whose writers compact with lookup at every commit
    (deletion vectors, first-row): A opened first, B committed first, A last."""
    ft = create(table, "id BIGINT, v STRING", dict({"bucket": "1"}, **options))
    psql("INSERT INTO %s SELECT g, 'base' FROM generate_series(2, 10) g;" % ft)
    a = Session()
    a.run("BEGIN; INSERT INTO %s VALUES (1, 'A');" % ft)
    psql("BEGIN; INSERT INTO %s SELECT g, 'B' FROM generate_series(20, 24) g; "
         "INSERT INTO %s VALUES (1, 'B'); COMMIT;" % (ft, ft))
    a.run("COMMIT;")
    a.close()
    expected = [["1", winner]] + [[str(i), "base"] for i in range(2, 11)] + \
        [[str(i), "B"] for i in range(20, 25)]
    check(wh, table, ft, ["id", "v"], expected, msgs)


def case_partial(wh, msgs):
    ft = create("partial", "id BIGINT, v INT, w INT",
                {"bucket": "1", "merge-engine": "partial-update",
                 "num-sorted-run.compaction-trigger": "2"})
    on = "SET paimon_fdw.compact_at_commit = on; "
    psql(on + "INSERT INTO %s VALUES (1, 1, 1);" % ft)
    a, c = Session(), Session()
    a.run(on + "BEGIN; INSERT INTO %s (id, w) VALUES (1, 6);" % ft)
    c.run(on + "BEGIN; INSERT INTO %s (id, v) VALUES (1, 7);" % ft)
    psql(on + "BEGIN; INSERT INTO %s (id, v) SELECT g, g FROM generate_series(2, 6) g; "
         "INSERT INTO %s (id, w) VALUES (1, 5); COMMIT;" % (ft, ft))
    a.run("COMMIT;")
    c.run("COMMIT;")
    a.close()
    c.close()
    expected = [["1", "7", "6"]] + [[str(i), str(i), None] for i in range(2, 7)]
    check(wh, "partial", ft, ["id", "v", "w"], expected, msgs)
    sdir = os.path.join(wh, DB + ".db", "partial", "snapshot")
    kinds = []
    for f in os.listdir(sdir):
        if f.startswith("snapshot-"):
            with open(os.path.join(sdir, f)) as fh:
                kinds.append(json.load(fh).get("commitKind"))
    if "COMPACT" not in kinds:
        msgs.append("partial: no COMPACT snapshot (compaction at commit did not run)")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    unusable = java_and_sql("interleaved writers of one bucket")
    if unusable is not None:
        return unusable
    difftest.DB = DB
    tmproot, wh = scratch_warehouse("paimon_seqi_")
    psql("SET client_min_messages = warning;\n"
         "CREATE EXTENSION IF NOT EXISTS paimon_fdw;\n"
         "DROP SERVER IF EXISTS %s CASCADE;\n"
         "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '%s');\n"
         "SELECT paimon_create_database('%s', '%s');\n" % (SRV, SRV, wh, SRV, DB))
    passed = failed = 0
    cases = (("dedup", case_dedup), ("partial", case_partial),
             # deletion vectors: the last commit wins; first-row: the first commit does
             ("dv", lambda wh, m: case_dv(wh, m, "dv", {"deletion-vectors.enabled": "true"}, "A")),
             ("firstrow", lambda wh, m: case_dv(wh, m, "firstrow", {"merge-engine": "first-row"},
                                                "B")))
    for name, fn in cases:
        msgs = []
        try:
            fn(wh, msgs)
        except RuntimeError as e:
            msgs.append(str(e))
        print("%s %s: A opened before B, B committed first, A last: %s, Java reads the same, "
              "no orphans" % ("ok  " if not msgs else "FAIL", name,
                              "B's row stays" if name == "firstrow" else "A's values win"))
        for m in msgs:
            print("    " + m)
        passed += not msgs
        failed += bool(msgs)
    if not failed and not args.keep:
        psql("SET client_min_messages = warning; DROP SERVER %s CASCADE;" % SRV)
        shutil.rmtree(tmproot, ignore_errors=True)
    else:
        print("    kept %s" % tmproot)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
