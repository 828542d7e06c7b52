#!/usr/bin/env python3
"""kill -9 of a backend in the middle of a large COPY into a Paimon table.

A partitioned append table with two fixed buckets gets two committed INSERTs (snapshots 1
and 2), then a COPY FROM of a large CSV (--rows, default 2 million) starts; once Postgres
reports (pg_stat_progress_copy) that it has read --kill-after rows, its backend is sent
SIGKILL (the postmaster then restarts every session, as after any backend crash). Then:

  1. the COPY's client saw its connection die (the kill happened during the COPY);
  2. the extension reads exactly the rows of the two committed INSERTs;
  3. no snapshot, manifest or manifest list was added (snapshot-1, snapshot-2, LATEST 2);
  4. Java (the oracle's Paimon release) reads the same rows;
  5. the files the killed COPY left are orphans: data files under the bucket directories
     that no snapshot references (Java's file list of the latest snapshot is unchanged);
     they are listed, and paimon_remove_orphan_files (older_than now) removes
     exactly them, the table reading the same afterwards;
  6. the table stays writable: one more INSERT becomes snapshot 3, and we and Java read
     the committed rows plus it.

Killing a backend needs the right to signal the server's processes (root, or the user
running the server): otherwise, and without psql/server/extension or Java, a loud skip
(a failure in CI, input_required.py). The last line is "N passed, N failed[, N skipped]".

Usage: run_kill_copy.py [--rows 2000000] [--kill-after 300000] [--keep]
"""
import argparse
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
from input_required import missing_input  # noqa: E402
import difftest  # noqa: E402
from sql_session import java_and_sql, psql as run_psql, scratch_warehouse  # noqa: E402

DB = "kc"
TABLE = "big"
SRV = "kc_srv"
FT = "public.kc_big"


def psql(sql, check=True):
    # after the crash the server restarts: wait for it
    return run_psql(sql, check=check, timeout=300, wait_restart=True)


def table_files(tdir):
    """Every file of the table but schema files, relative to the table directory."""
    out = []
    for root, _, files in os.walk(tdir):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), tdir)
            if not rel.startswith("schema" + os.sep):
                out.append(rel)
    return sorted(out)


def data_files(files):
    return {f for f in files if f.split(os.sep)[0] not in ("snapshot", "manifest", "index")}


def java_files(wh):
    """Data files the latest snapshot references (path relative to the table dir)."""
    out = difftest.run([difftest.ORACLE, "files", wh, DB, TABLE])
    refs = set()
    for f in json.loads(out):
        part = "".join("%s=%s%s" % (k, "__DEFAULT_PARTITION__" if v is None else v, os.sep)
                       for k, v in (f["partition"] or {}).items())
        refs.add("%sbucket-%d%s%s" % (part, f["bucket"], os.sep, f["file_name"]))
    return refs


def ids_of(rows):
    return sorted(int(r[0]) for r in rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=2000000)
    ap.add_argument("--kill-after", type=int, default=300000)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    what = "kill -9 during COPY"
    unusable = java_and_sql(what)
    if unusable is not None:
        return unusable
    difftest.DB = DB
    server_pid = int(psql("SELECT pg_postmaster_start_time() IS NOT NULL;\n"
                          "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer';"
                          ).stdout.split()[-1])
    try:
        os.kill(server_pid, 0)
    except PermissionError:
        return missing_input(what, "cannot signal the server's processes (run as root or as its user)")

    tmproot, wh = scratch_warehouse("paimon_killcopy_")
    tdir = os.path.join(wh, DB + ".db", TABLE)
    csv = os.path.join(tmproot, "big.csv")
    with open(csv, "w") as f:
        for i in range(100001, 100001 + args.rows):
            f.write("%d,p%d,row %d with some text to make the file larger,%d.5\n" % (i, i % 3, i, i))
    os.chmod(csv, 0o644)

    msgs = []
    psql("SET client_min_messages = warning;\n"
         "CREATE EXTENSION IF NOT EXISTS paimon_fdw;\n"
         "DROP SERVER IF EXISTS %s CASCADE;\n"
         "CREATE SERVER %s FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse '%s');\n"
         "SELECT paimon_create_database('%s', '%s');\n"
         "SELECT paimon_create_table('%s', '%s', '%s', 'id BIGINT NOT NULL, p STRING, note STRING, "
         "v DOUBLE', partition_keys => ARRAY['p'], options => '{\"bucket\": \"2\", "
         "\"bucket-key\": \"id\"}', foreign_table => '%s');\n"
         "INSERT INTO %s SELECT i, 'p' || (i %% 3), 'committed', i FROM generate_series(1, 5000) i;\n"
         "INSERT INTO %s SELECT i, 'p' || (i %% 3), 'committed', i FROM generate_series(5001, 8000) i;\n"
         % (SRV, SRV, wh, SRV, DB, SRV, DB, TABLE, FT, FT, FT))
    committed = list(range(1, 8001))
    before = table_files(tdir)
    refs_before = java_files(wh)
    if data_files(before) != refs_before:
        msgs.append("before the COPY: data files %s, Java references %s"
                    % (sorted(data_files(before)), sorted(refs_before)))

    # the COPY, killed once it has read --kill-after rows
    copy = subprocess.Popen(["psql", "-X", "-Atq", "-v", "ON_ERROR_STOP=1", "-c",
                             "COPY %s FROM '%s' (FORMAT csv)" % (FT, csv)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pid = None
    processed = 0
    deadline = time.time() + 120
    while time.time() < deadline and copy.poll() is None:
        out = psql("SELECT pid, tuples_processed FROM pg_stat_progress_copy;", check=False).stdout
        if out.strip():
            pid, processed = (int(x) for x in out.split()[0].split("|"))
            if processed >= args.kill_after:
                break
        time.sleep(0.05)
    if pid is None or copy.poll() is not None:
        msgs.append("the COPY ended before it could be killed (%s rows read): make --rows larger"
                    % processed)
    else:
        os.kill(pid, signal.SIGKILL)
    _, err = copy.communicate(timeout=120)
    if copy.returncode == 0:
        msgs.append("the COPY's client did not see its backend die")
    psql("SELECT 1;")  # waits for the restart

    # 2.-5.
    got = sorted(int(x) for x in psql("SELECT id FROM %s;" % FT).stdout.split())
    if got != committed:
        msgs.append("after the kill: the extension reads %d rows, expected the %d committed"
                    % (len(got), len(committed)))
    after = table_files(tdir)
    meta_before = [f for f in before if f not in data_files(before)]
    meta_after = [f for f in after if f not in data_files(after)]
    if meta_after != meta_before:
        msgs.append("snapshot/manifest files changed: %s -> %s"
                    % (sorted(set(meta_before) - set(meta_after)), sorted(set(meta_after) - set(meta_before))))
    with open(os.path.join(tdir, "snapshot", "LATEST")) as f:
        if f.read().strip() != "2":
            msgs.append("LATEST is not 2")
    jgot = ids_of(difftest.java_read(wh, TABLE))
    if jgot != committed:
        msgs.append("after the kill: Java reads %d rows, expected the %d committed" % (len(jgot), len(committed)))
    refs_after = java_files(wh)
    if refs_after != refs_before:
        msgs.append("Java's data files changed: %s" % sorted(refs_after ^ refs_before))
    orphans = sorted(data_files(after) - refs_after)
    sizes = {o: os.path.getsize(os.path.join(tdir, o)) for o in orphans}
    for o in orphans:
        if o in before:
            msgs.append("%s: an orphan that was there before the COPY" % o)

    # paimon_remove_orphan_files removes exactly them; the table reads the same
    out = psql("SELECT path FROM paimon_remove_orphan_files('%s', older_than => now());"
               % FT).stdout
    removed = sorted(os.path.relpath(p, tdir) for p in out.split())
    if removed != orphans:
        msgs.append("paimon_remove_orphan_files removed %s, the orphans are %s" % (removed, orphans))
    left = table_files(tdir)
    if any(o in left for o in orphans) or data_files(left) != refs_after:
        msgs.append("after paimon_remove_orphan_files: data files %s, referenced %s"
                    % (sorted(data_files(left)), sorted(refs_after)))
    if ids_of(difftest.java_read(wh, TABLE)) != committed:
        msgs.append("after paimon_remove_orphan_files: Java reads other rows")

    # 6. still writable
    psql("INSERT INTO %s SELECT i, 'p1', 'after', i FROM generate_series(9001, 9100) i;" % FT)
    committed += list(range(9001, 9101))
    got = sorted(int(x) for x in psql("SELECT id FROM %s;" % FT).stdout.split())
    if got != committed:
        msgs.append("after one more INSERT: the extension reads %d rows, expected %d" % (len(got), len(committed)))
    jgot = ids_of(difftest.java_read(wh, TABLE))
    if jgot != committed:
        msgs.append("after one more INSERT: Java reads %d rows, expected %d" % (len(jgot), len(committed)))
    snaps = sorted(os.path.basename(f) for f in glob.glob(os.path.join(tdir, "snapshot", "snapshot-*")))
    if snaps != ["snapshot-1", "snapshot-2", "snapshot-3"]:
        msgs.append("snapshots %s" % snaps)

    passed = not msgs
    print("%s COPY of %d rows killed after %d rows read: %d committed rows read by us and Java, "
          "no snapshot or manifest added, %d orphan files left and removed%s"
          % ("ok  " if passed else "FAIL", args.rows, processed, 8000, len(orphans),
             ", then one more INSERT committed as snapshot 3" if passed else ""))
    for o in orphans:
        print("    orphan: %s (%d bytes)" % (o, sizes[o]))
    for m in msgs:
        print("    " + m)
    if passed and not args.keep:
        psql("SET client_min_messages = warning; DROP SERVER %s CASCADE;" % SRV)
        shutil.rmtree(tmproot, ignore_errors=True)
    else:
        print("    kept %s" % tmproot)
    print("%d passed, %d failed" % (1 if passed else 0, 0 if passed else 1))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
