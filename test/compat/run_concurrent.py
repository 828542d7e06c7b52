#!/usr/bin/env python3
"""Concurrent writers: several Postgres sessions INSERT into one Paimon table at once.

For each table kind (append, bucket -1; append, 2 fixed buckets; partitioned; primary
key with 2 buckets, each writer its own keys), W writer
threads (default 2) each run R rounds (default 25); in every round all writers wait at a
barrier and then start their transaction at the same moment (one psql session per
round, so the commits race: each writer's snapshot rename loses to another's now and
then and must retry). Every round of a writer INSERTs K rows with ids of its own
(writer, round, i), one transaction each.

Then:
  1. no row is lost or doubled: the extension reads exactly the rows of every writer;
  2. the snapshots are consecutive: one APPEND per transaction with deltaRecordCount K
     and totalRecordCount n*K for the n-th, and LATEST names the last one; the
     primary-key and fixed-bucket append tables also have the COMPACT snapshots of the
     commits that compacted (paimon_fdw.compact_at_commit), which add no rows;
  3. Java (the oracle's Paimon release, ORACLE_PAIMON_VERSION) reads the same rows (skipped with a loud
     note when java/mvn are missing; a failure in CI).

The last line is "N passed, N failed[, N skipped]" (per table kind). Missing input (no
psql server or extension) is a loud skip, a failure in CI (input_required.py).

Usage: run_concurrent.py [--writers 2] [--rounds 25] [--rows 50] [--keep]
"""
import argparse
import glob
import json
import os
import shutil
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
from input_required import input_required, missing_input  # noqa: E402
import difftest  # noqa: E402
from sql_session import psql as run_psql  # noqa: E402

DB = "cw"
KINDS = [
    ("unaware", "w INT NOT NULL, r INT NOT NULL, i INT NOT NULL, note STRING",
     None, {"bucket": "-1"}),
    ("fixed2", "w INT NOT NULL, r INT NOT NULL, i INT NOT NULL, note STRING",
     None, {"bucket": "2", "bucket-key": "i"}),
    ("parted", "w INT NOT NULL, r INT NOT NULL, i INT NOT NULL, note STRING",
     ["w"], {"bucket": "-1"}),
    # primary key (w, r, i): the writers' keys are disjoint, their buckets shared
    ("pk", "w INT NOT NULL, r INT NOT NULL, i INT NOT NULL, note STRING",
     None, {"bucket": "2", "primary-key": "w,r,i"}),
]


def psql(sql, check=True):
    return run_psql(sql, check=check, timeout=300)


def writer(table, w, rounds, rows, barrier, errors):
    for r in range(rounds):
        try:
            barrier.wait(timeout=120)
        except threading.BrokenBarrierError:
            return
        p = psql("BEGIN;\nINSERT INTO %s SELECT %d, %d, i, 'w%d r%d' FROM generate_series(1, %d) i;\n"
                 "COMMIT;\n" % (table, w, r, w, r, rows), check=False)
        if p.returncode != 0:
            errors.append("writer %d round %d: %s" % (w, r, p.stderr.strip()[-1000:]))
            barrier.abort()
            return


def run_kind(kind, args, tmproot, java_ok):
    name, columns, parts, options = kind
    wh = os.path.join(tmproot, "wh_" + name)
    os.makedirs(wh)
    os.chmod(wh, 0o777)
    srv = "cw_" + name
    table = "public.cw_" + name
    psql("SET client_min_messages = warning;\n"
         "CREATE EXTENSION IF NOT EXISTS paimon_fdw;\n"
         "DROP SERVER IF EXISTS %s CASCADE;\n"
         "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '%s');\n"
         "SELECT paimon_create_database('%s', '%s');\n"
         "SELECT paimon_create_table('%s', '%s', '%s', '%s', partition_keys => %s, "
         "options => '%s', foreign_table => '%s');\n"
         % (srv, srv, wh, srv, DB, srv, DB, name, columns,
            "ARRAY[%s]::text[]" % ", ".join("'%s'" % p for p in parts) if parts else "NULL",
            json.dumps(options), table))

    barrier = threading.Barrier(args.writers)
    errors = []
    threads = [threading.Thread(target=writer, args=(table, w, args.rounds, args.rows, barrier, errors))
               for w in range(args.writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    msgs = list(errors)
    expected = sorted((w, r, i) for w in range(args.writers) for r in range(args.rounds)
                      for i in range(1, args.rows + 1))
    ncommits = args.writers * args.rounds

    # 1. our read
    out = psql("SELECT w, r, i FROM %s;" % table).stdout
    got = sorted(tuple(int(x) for x in line.split("|")) for line in out.splitlines() if line)
    if got != expected:
        missing = sorted(set(expected) - set(got))
        msgs.append("SQL read %d rows, expected %d (%d missing, e.g. %s; %d extra)"
                    % (len(got), len(expected), len(missing), missing[:3],
                       len(got) - len(expected) + len(missing)))

    # 2. consecutive snapshots, one APPEND per transaction (primary-key and fixed-bucket
    #    append tables: and the COMPACT snapshots of the commits that compacted, which
    #    add no rows)
    snapdir = os.path.join(wh, DB + ".db", name, "snapshot")
    ids = sorted(int(os.path.basename(f)[len("snapshot-"):])
                 for f in glob.glob(os.path.join(snapdir, "snapshot-*")))
    if ids != list(range(1, len(ids) + 1)):
        msgs.append("snapshot ids %s, expected 1..%d" % (ids[:5] + ["..."] + ids[-3:], len(ids)))
    users = set()
    appends = compacts = 0
    for sid in ids:
        with open(os.path.join(snapdir, "snapshot-%d" % sid)) as f:
            snap = json.load(f)
        if name in ("pk", "fixed2") and snap.get("commitKind") == "COMPACT":
            compacts += 1
            if (snap.get("deltaRecordCount") != 0
                    or snap.get("totalRecordCount") != appends * args.rows):
                msgs.append("snapshot %d: COMPACT with deltaRecordCount %s, totalRecordCount %s"
                            % (sid, snap.get("deltaRecordCount"), snap.get("totalRecordCount")))
                break
            continue
        appends += 1
        users.add(snap.get("commitUser"))
        if (snap.get("commitKind") != "APPEND" or snap.get("deltaRecordCount") != args.rows
                or snap.get("totalRecordCount") != appends * args.rows):
            msgs.append("snapshot %d: commitKind %s, deltaRecordCount %s, totalRecordCount %s"
                        % (sid, snap.get("commitKind"), snap.get("deltaRecordCount"),
                           snap.get("totalRecordCount")))
            break
    if appends != ncommits:
        msgs.append("%d APPEND snapshots for %d transactions" % (appends, ncommits))
    if len(users) != ncommits:
        msgs.append("%d distinct commit users for %d transactions" % (len(users), ncommits))
    latest = os.path.join(snapdir, "LATEST")
    if os.path.exists(latest) and ids:
        with open(latest) as f:
            if f.read().strip() != str(ids[-1]):
                msgs.append("LATEST is not %d" % ids[-1])

    # 3. Java reads the same rows
    jnote = ""
    if java_ok:
        difftest.DB = DB
        rows = difftest.java_read(wh, name)
        jgot = sorted((int(r[0]), int(r[1]), int(r[2])) for r in rows)
        if jgot != expected:
            msgs.append("Java read %d rows, expected %d" % (len(jgot), len(expected)))
        jnote = ", Java reads them"
    passed = not msgs
    print("%s %s: %d writers x %d rounds x %d rows%s%s"
          % ("ok  " if passed else "FAIL", name, args.writers, args.rounds, args.rows,
             ": %d rows, snapshots 1..%d (%d COMPACT)" % (len(got), len(ids), compacts)
             if passed else "", jnote if passed else ""))
    for m in msgs:
        print("    " + m)
    if passed and not args.keep:
        psql("SET client_min_messages = warning; DROP SERVER %s CASCADE;" % srv)
        shutil.rmtree(wh, ignore_errors=True)
    elif not passed:
        print("    kept %s" % wh)
    return passed


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--rows", type=int, default=50)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    what = "concurrent writers"
    sql = difftest.Sql()
    if sql.reason:
        return missing_input(what, sql.reason)
    skipped = 0
    java_ok = bool(shutil.which("java") and shutil.which("mvn"))
    if java_ok:
        try:
            difftest.run([difftest.ORACLE, "build"])
        except RuntimeError as e:
            print("the Java oracle does not build: %s" % e)
            java_ok = False
    if not java_ok:
        if input_required():
            print("%s: FAILED: no Java reader (input is required)" % what)
            print("0 passed, 1 failed")
            return 1
        print("%s: SKIPPING the Java reads: java, mvn or the oracle build is missing" % what)
        skipped = 1
    tmproot = tempfile.mkdtemp(prefix="paimon_concurrent_")
    os.chmod(tmproot, 0o755)
    passed = failed = 0
    for kind in KINDS:
        try:
            ok = run_kind(kind, args, tmproot, java_ok)
        except Exception as e:  # noqa: BLE001 - a failing case, not a failing run
            print("FAIL %s: %s" % (kind[0], str(e).strip()[-3000:]))
            ok = False
        passed += ok
        failed += not ok
    if failed == 0 and not args.keep:
        shutil.rmtree(tmproot, ignore_errors=True)
    print("%d passed, %d failed%s" % (passed, failed, ", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
