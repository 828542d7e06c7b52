#!/usr/bin/env python3
"""A cancel reaches a scan while the core plans it: statement_timeout through SQL.

The executor checks for interrupts between rows, so a cancel during a scan is
served even by a core that never polls. Planning is one long core call: every
manifest of the snapshot is read before the first row. This test copies the
Avro-manifest corpus table append_multiple into a temporary warehouse and
rewrites its snapshot's base manifest list to name one manifest N times (a
table with N manifests, as a streaming writer leaves behind without
compaction), then runs SELECT count(*) under statement_timeout = 1s. It
passes only if the query fails with SQLSTATE 57014 within a few seconds: a
core that does not poll its interrupt hook (pm_check_interrupts) plans all N
manifests first (tens of seconds). A query that finishes (or fails otherwise)
within the timeout means N is too small for this machine: that is a failure
too, never a pass.

Usage: run_cancel.py [--corpus DIR] [--manifests N]   (psql on PATH, PG* set)
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from avro_craft import read_avro, write_avro
from input_required import missing_input

DB = "append_multiple"
COLUMNS = ("f0 smallint, f1 smallint, f2 int, f3 bigint, f4 real, f5 float8, f6 text, f7 bytea, "
           "f8 date, f9 numeric(5,2), f10 timestamp, f11 timestamp, f12 timestamp, "
           "f13 timestamptz, f14 timestamptz, f15 timestamptz, f16 jsonb")
TIMEOUT_S = 1.0
PROMPT_S = 3.0      # the cancel must end the query this soon after it starts


def psql(sql):
    return subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
                           "-c", "\\set VERBOSITY verbose", "-c", sql],
                          capture_output=True, text=True)


def many_manifests(table_dir, n):
    """Point the latest snapshot's base manifest list at one manifest n times."""
    with open(os.path.join(table_dir, "snapshot", "LATEST")) as f:
        latest = f.read().strip()
    snap_path = os.path.join(table_dir, "snapshot", "snapshot-" + latest)
    with open(snap_path) as f:
        snap = json.load(f)
    list_path = os.path.join(table_dir, "manifest", snap["baseManifestList"])
    records, schema, meta = read_avro(list_path)
    if not records:
        raise SystemExit("run_cancel: the base manifest list of %s is empty" % table_dir)
    write_avro(list_path, schema, [records[0]] * n, meta)
    snap["baseManifestListSize"] = os.path.getsize(list_path)
    with open(snap_path, "w") as f:
        json.dump(snap, f)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("PAIMON_CORPUS",
                                                       os.path.join(here, "..", "..", "..", "shared", "corpus")))
    ap.add_argument("--manifests", type=int, default=50000)
    args = ap.parse_args()
    src = os.path.join(os.path.abspath(args.corpus), "tables", "avro", DB + ".db")
    if not os.path.isdir(src):
        return missing_input("run_cancel", "corpus table not found at %s (set PAIMON_CORPUS or --corpus)"
                             % src)
    wh = tempfile.mkdtemp(prefix="paimon_cancel_")
    try:
        os.chmod(wh, 0o755)
        shutil.copytree(src, os.path.join(wh, DB + ".db"))
        subprocess.run(["chmod", "-R", "u+w", wh], check=True)
        many_manifests(os.path.join(wh, DB + ".db", DB), args.manifests)
        subprocess.run(["chmod", "-R", "a+rX", wh], check=True)
        setup = psql("SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS paimon_fdw; "
                     "DROP SERVER IF EXISTS cancel_srv CASCADE; "
                     "CREATE SERVER cancel_srv FOREIGN DATA WRAPPER paimon_fdw "
                     "OPTIONS (warehouse '%s'); "
                     "CREATE FOREIGN TABLE cancel_t (%s) SERVER cancel_srv "
                     "OPTIONS (database '%s', table '%s')" % (wh, COLUMNS, DB, DB))
        if setup.returncode != 0:
            print("FAIL  setup: %s" % setup.stderr.strip())
            return 1
        failed = 0
        for query in ("SELECT count(*) FROM cancel_t", "SELECT f0, f6 FROM cancel_t"):
            t0 = time.monotonic()
            # the manifest is one file named N times: the metadata cache would
            # serve all but the first read, and planning would not be slow
            p = psql("SET paimon_fdw.metadata_cache_size = 0; SET statement_timeout = '%dms'; %s"
                     % (int(TIMEOUT_S * 1000), query))
            elapsed = time.monotonic() - t0
            m = re.search(r"^ERROR:\s+([0-9A-Z]{5}):", p.stderr, re.M)
            state = m.group(1) if m else None
            ok = state == "57014" and elapsed < PROMPT_S
            why = ""
            if state is None:
                why = "finished within the timeout: raise --manifests"
            elif state != "57014":
                why = p.stderr.strip().replace("\n", " | ")[:300]
            elif not ok:
                why = "cancel served after %.1f s, not while planning" % elapsed
            print("%-5s %-45s %s %.2fs %s" % ("ok" if ok else "FAIL", query, state, elapsed, why))
            failed += not ok
        psql("DROP SERVER IF EXISTS cancel_srv CASCADE")
        print("(a table of %d manifests)" % args.manifests)
        print("%d passed, %d failed" % (2 - failed, failed))
        return 1 if failed else 0
    finally:
        shutil.rmtree(wh, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
